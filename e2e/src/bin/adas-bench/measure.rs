//! How the bench measures: timed samples and their statistics, CPU time of
//! processes and threads from `/proc`, thread wake-ups, Redis' own counters
//! and the suite's metrics page.

use super::*;

/// Durations of one batch of operations.
#[derive(Debug, Default, Clone)]
pub(super) struct Sample {
    pub(super) micros: Vec<f64>,
}

impl Sample {
    pub(super) fn push(&mut self, elapsed: Duration) {
        self.micros.push(elapsed.as_secs_f64() * 1e6);
    }

    pub(super) fn percentile(&self, p: f64) -> f64 {
        if self.micros.is_empty() {
            return f64::NAN;
        }
        let mut sorted = self.micros.clone();
        sorted.sort_by(f64::total_cmp);
        let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
        sorted[index]
    }
}

/// Runs `operation` `count` times, one after the other, timing each run.
pub(super) async fn timed<T>(
    count: usize,
    mut operation: impl AsyncFnMut() -> Result<T>,
) -> Result<Sample> {
    let mut sample = Sample::default();
    for _ in 0..count {
        let started = Instant::now();
        operation().await?;
        sample.push(started.elapsed());
    }
    Ok(sample)
}

/// A figure's value in each repetition.
#[derive(Debug, Default)]
pub(super) struct Figures {
    pub(super) values: BTreeMap<String, (String, Vec<f64>)>,
    pub(super) order: Vec<String>,
}

impl Figures {
    pub(super) fn record(&mut self, name: &str, unit: &str, value: f64) {
        if !self.values.contains_key(name) {
            self.order.push(name.to_owned());
        }
        self.values
            .entry(name.to_owned())
            .or_insert_with(|| (unit.to_owned(), Vec::new()))
            .1
            .push(value);
    }

    pub(super) fn median(&self, name: &str) -> f64 {
        self.values
            .get(name)
            .map_or(f64::NAN, |(_, values)| stats(values).1)
    }
}

pub(super) fn stats(values: &[f64]) -> (f64, f64, f64) {
    let mut sorted: Vec<f64> = values
        .iter()
        .copied()
        .filter(|value| value.is_finite())
        .collect();
    if sorted.is_empty() {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    sorted.sort_by(f64::total_cmp);
    (
        sorted[0],
        sorted[sorted.len() / 2],
        sorted[sorted.len() - 1],
    )
}

/// utime + stime of a process, in seconds.
pub(super) fn cpu_seconds(pid: u32) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0.0;
    };
    // Fields after the `(comm)`, which may hold spaces.
    let Some(rest) = stat.rsplit_once(')').map(|(_, rest)| rest) else {
        return 0.0;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |index: usize| {
        fields
            .get(index)
            .and_then(|field| field.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // After `)`: state is index 0, so utime (field 14) is 11 and stime (15) is 12.
    (ticks(11) + ticks(12)) / clock_ticks_per_second()
}

/// Each live thread's CPU time in ns (`/proc/<pid>/task/*/schedstat`): exact,
/// where `/proc/<pid>/stat` counts whole 10 ms ticks — too coarse to tell a
/// quiet process from an idle one over a second or two.
pub(super) fn thread_cpu_ns(pid: u32) -> HashMap<u32, u64> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return HashMap::new();
    };
    tasks
        .flatten()
        .filter_map(|task| {
            let tid = task.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(task.path().join("schedstat")).ok()?;
            Some((tid, stat.split_whitespace().next()?.parse().ok()?))
        })
        .collect()
}

/// CPU ms per second a process spends over `window`: the threads alive at
/// its end, each from its start (or from zero for a thread born in it); a
/// thread that ended in the window (an idle blocking-pool thread retiring)
/// is left out.
pub(super) async fn cpu_rate(pid: u32, window: Duration) -> f64 {
    let before = thread_cpu_ns(pid);
    tokio::time::sleep(window).await;
    let spent: u64 = thread_cpu_ns(pid)
        .into_iter()
        .map(|(tid, ns)| ns.saturating_sub(before.get(&tid).copied().unwrap_or(0)))
        .sum();
    spent as f64 / 1e6 / window.as_secs_f64()
}

/// [`cpu_rate`] over 2 s, once the process is quiet: work deferred by earlier
/// scenarios (the archiver writing the finished jobs of (b)) is not the cost
/// of waiting, so first wait, bounded, for a quarter second under 20 ms/s.
pub(super) async fn quiet_cpu_rate(pid: u32) -> f64 {
    for _ in 0..120 {
        if cpu_rate(pid, Duration::from_millis(250)).await < 20.0 {
            break;
        }
    }
    cpu_rate(pid, Duration::from_secs(2)).await
}

pub(super) fn clock_ticks_per_second() -> f64 {
    static TICKS: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *TICKS.get_or_init(|| {
        std::process::Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|output| String::from_utf8(output.stdout).ok())
            .and_then(|text| text.trim().parse().ok())
            .unwrap_or(100.0)
    })
}

/// The machine's cores, as the CPU shares count them.
pub(super) fn machine_cores() -> f64 {
    std::thread::available_parallelism().map_or(1.0, |cores| cores.get() as f64)
}

pub(super) fn cpu_of(pids: &[u32]) -> f64 {
    pids.iter().map(|pid| cpu_seconds(*pid)).sum()
}

/// On-CPU time of every live thread of the processes, in seconds, from
/// `/proc/<pid>/task/*/schedstat` (nanoseconds): fine enough for the floors'
/// short loops, where `stat`'s 10 ms ticks are too coarse. Threads that exit
/// take their time with them, so long windows use [`cpu_of`].
pub(super) fn precise_cpu_of(pids: &[u32]) -> f64 {
    let nanos: u64 = task_files(pids, "schedstat")
        .filter_map(|stat| stat.split_whitespace().next()?.parse::<u64>().ok())
        .sum();
    nanos as f64 / 1e9
}

/// The file `name` of every live thread of the processes (`/proc/<pid>/task/*/`).
pub(super) fn task_files<'a>(pids: &'a [u32], name: &'a str) -> impl Iterator<Item = String> + 'a {
    pids.iter()
        .filter_map(|pid| std::fs::read_dir(format!("/proc/{pid}/task")).ok())
        .flat_map(|tasks| tasks.flatten())
        .filter_map(move |task| std::fs::read_to_string(task.path().join(name)).ok())
}

/// Times the processes' threads blocked and were woken (voluntary context
/// switches, `/proc/<pid>/task/*/status`): what a job costs beyond its own
/// work when little else runs — each is a park, a wake-up and a switch.
/// Threads that exit take their count with them (idle blocking-pool threads,
/// after 10 s), so a window may undercount by those.
pub(super) fn wakeups_of(pids: &[u32]) -> f64 {
    let switches: u64 = task_files(pids, "status")
        .filter_map(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("voluntary_ctxt_switches:"))?
                .trim()
                .parse::<u64>()
                .ok()
        })
        .sum();
    switches as f64
}

/// Calls per Redis command so far (`INFO commandstats`).
pub(super) fn redis_commands(connection: &RedisServer) -> BTreeMap<String, f64> {
    connection
        .raw_command("INFO commandstats")
        .lines()
        .filter_map(|line| {
            let (name, stats) = line.strip_prefix("cmdstat_")?.split_once(':')?;
            let calls = stats
                .strip_prefix("calls=")?
                .split(',')
                .next()?
                .parse()
                .ok()?;
            Some((name.to_uppercase(), calls))
        })
        .collect()
}

pub(super) fn redis_info(connection: &RedisServer, field: &str) -> f64 {
    let section = if field == "used_memory" {
        "memory"
    } else {
        "stats"
    };
    let text = connection.raw_command(&format!("INFO {section}"));
    text.lines()
        .find_map(|line| line.strip_prefix(&format!("{field}:")))
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or(f64::NAN)
}

pub(super) async fn scrape(addr: std::net::SocketAddr, name: &str) -> Result<u64> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut socket = tokio::net::TcpStream::connect(addr).await?;
    socket
        .write_all(b"GET /metrics HTTP/1.1\r\nhost: bench\r\nconnection: close\r\n\r\n")
        .await?;
    let mut page = String::new();
    socket.read_to_string(&mut page).await?;
    page.lines()
        .find_map(|line| {
            line.strip_prefix(name)
                .and_then(|rest| rest.strip_prefix(' '))
        })
        .ok_or_else(|| format!("no {name} on the metrics page of {addr}").into())
        .and_then(|value| Ok(value.trim().parse()?))
}

pub(super) fn number(value: f64) -> prost_types::Value {
    prost_types::Value {
        kind: Some(Kind::NumberValue(value)),
    }
}
