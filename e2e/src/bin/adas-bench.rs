//! adas-bench: the job path measured against its physical floor, in one run.
//!
//! It starts a private redis-server and the suite itself — embedded (`adas up`,
//! one process) and separate (the five binaries and the demo MCP server) — and,
//! repetition by repetition, measures the floors (a Redis GET, the store's own
//! compare-and-set, a bare tonic health RPC, MCP `tools/list` and `tools/call` on
//! a kept session) *alternating* with the scenarios, so noise hits both alike.
//! Figures are ratios to floors measured minutes apart at most; nothing asserts a
//! speed. `--quick` is the CI smoke: small counts, fails only if a scenario errors.
//!
//! The suite counts its Redis round trips and gRPC hops itself
//! (`adas_redis_round_trips_total`, `adas_grpc_requests_served_total` on
//! `--metrics-listen`); Redis' own `total_writes_processed` (replies written: a
//! pipeline once, commands inside a script not at all) cross-checks the first.
//! CPU is `/proc/<pid>/stat` of every suite process; the worker's CPU while
//! jobs wait is its threads' `schedstat` (ns), finer than the ticks of `stat`.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use adas_proto::pb;
use adas_state::{JobStore, JobWrite, NewJob, RedisStore, WaitingChange};
use adas_testkit::{RedisCluster, RedisServer, SpawnedService, free_port, scratch_dir};
use adas_tools::McpConnector;
use clap::{Parser, ValueEnum};
use prost_types::value::Kind;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use serde_json::{Value as Json, json};
use tonic::transport::Channel;

type Error = Box<dyn std::error::Error + Send + Sync>;
type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, Parser)]
#[command(
    name = "adas-bench",
    about = "Measures the job path against its physical floor, in one run"
)]
struct Args {
    /// CI smoke: small counts; fails only if a scenario errors.
    #[arg(long)]
    quick: bool,
    /// Also write the figures as JSON here.
    #[arg(long, value_name = "PATH")]
    json: Option<PathBuf>,
    /// Repetitions of every figure (min/median/max over them).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    repetitions: u32,
    /// Which suites to measure.
    #[arg(long, value_enum, default_value = "both")]
    mode: ModeArg,
    /// Paused jobs for the memory scenario (f), spread over the repetitions.
    #[arg(long, default_value_t = 10_000)]
    paused_jobs: usize,
    /// Jobs stored before timing ListJobs pages (scenario g).
    #[arg(long, default_value_t = 100_000)]
    listed_jobs: usize,
    /// Also measure scale-out (h): 1, 2 and 4 orchestrator + dal-agent
    /// replicas on one Redis and on a three-primary Redis Cluster.
    #[arg(long)]
    scale_out: bool,
    /// The Python that runs the LangGraph peer (`e2e/peer/`) in the same run;
    /// skipped when it cannot `import langgraph`, and under `--quick`.
    #[arg(long, env = "ADAS_BENCH_PEER_PYTHON", default_value = "python3")]
    peer_python: PathBuf,
    /// Jobs the peer runs per checkpointer (0: no peer).
    #[arg(long, default_value_t = 2_000)]
    peer_jobs: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ModeArg {
    Embedded,
    Separate,
    Both,
}

/// The bench skill: three tool calls (check, refund, check again) and one ask
/// (the amount), no approval, so a job is start → paused → answer → completed.
use adas_e2e::{BENCH_SKILL, GOAL, SKILL};

/// Where the counts of one run come from.
struct Sizes {
    floor_ops: usize,
    serial_jobs: usize,
    concurrency: Vec<usize>,
    /// Jobs per concurrency level (at least the level): enough that a level
    /// outlasts its ramp-up and /proc's 10 ms CPU ticks (256 left figures
    /// ±30 % apart from one run to the next).
    jobs_per_level: usize,
    /// The paced level: this many concurrent clients, each taking this long
    /// to answer, as a user does — 256 jobs in flight on a machine that is
    /// not saturated, where the resumed lane (not the CPU) decides the wait.
    paced: (usize, Duration),
    gate_calls: usize,
    resolve_calls: usize,
}

impl Sizes {
    fn new(quick: bool) -> Self {
        if quick {
            Self {
                floor_ops: 100,
                serial_jobs: 3,
                concurrency: vec![1, 16],
                jobs_per_level: 16,
                paced: (16, Duration::from_millis(50)),
                gate_calls: 50,
                resolve_calls: 50,
            }
        } else {
            Self {
                floor_ops: 2000,
                serial_jobs: 30,
                concurrency: vec![1, 16, 64, 256],
                jobs_per_level: 1024,
                paced: (256, Duration::from_secs(1)),
                gate_calls: 1000,
                resolve_calls: 500,
            }
        }
    }
}

/// One running suite.
struct Suite {
    /// Kept alive: the processes die with it.
    processes: Vec<SpawnedService>,
    /// Each process with a metrics page: its binary name and the page's address.
    metrics: Vec<(&'static str, std::net::SocketAddr)>,
    orchestrator: Channel,
    dal_agent: Channel,
    gate: Channel,
    registry: Channel,
    demo_mcp_url: String,
}

impl Suite {
    /// The suite's processes (the tool server, first, is not one of them).
    fn pids(&self) -> Vec<u32> {
        self.processes[1..]
            .iter()
            .map(SpawnedService::pid)
            .collect()
    }

    /// The demo MCP server: the tools' own CPU, reported beside the suite's.
    fn tool_server_pid(&self) -> u32 {
        self.processes[0].pid()
    }

    /// The process that runs the workers (for "worker CPU while paused").
    fn worker_pid(&self) -> u32 {
        self.processes[self.processes.len() - 1].pid()
    }

    /// A counter of each suite process.
    async fn counters(&self, name: &str) -> Vec<(&'static str, u64)> {
        let mut values = Vec::with_capacity(self.metrics.len());
        for (process, addr) in &self.metrics {
            values.push((*process, scrape(*addr, name).await.unwrap_or(0)));
        }
        values
    }
}

const HOPS: &str = "adas_grpc_requests_served_total";
const ROUND_TRIPS: &str = "adas_redis_round_trips_total";

fn binary(name: &str) -> PathBuf {
    // adas-bench is built beside the suite's binaries (`cargo build --workspace --bins`).
    let exe = std::env::current_exe().expect("current exe");
    exe.parent().expect("target dir").join(name)
}

async fn channel(service: &SpawnedService) -> Result<Channel> {
    Ok(Channel::from_shared(service.endpoint())?
        .tcp_nodelay(true)
        .connect()
        .await?)
}

/// The processes of a suite (the worker process last), their metrics addresses,
/// and the demo MCP server's URL.
type Started = (
    Vec<SpawnedService>,
    Vec<(&'static str, std::net::SocketAddr)>,
    String,
);

fn start_suite(mode: &'static str, redis: &RedisServer, root: &Path) -> Started {
    let memory = root.join(format!("memory-{mode}"));
    let templates = root.join("templates");
    let memory = memory.display().to_string();
    let templates = templates.display().to_string();
    let suite_flags = |metrics: &str| -> Vec<String> {
        vec![
            "--redis-url".into(),
            redis.url(),
            "--memory-root".into(),
            memory.clone(),
            "--templates-dir".into(),
            templates.clone(),
            "--metrics-listen".into(),
            metrics.into(),
        ]
    };
    let env = [("ADAS_LOG", "error")];
    let mut processes = Vec::new();
    let mut metrics = Vec::new();
    let mut next_metrics = |process: &'static str| {
        let addr: std::net::SocketAddr = format!("127.0.0.1:{}", free_port())
            .parse()
            .expect("address");
        metrics.push((process, addr));
        addr.to_string()
    };
    // The tool server runs apart in both modes, so its CPU is reported beside
    // the suite's, not in it.
    let demo = SpawnedService::spawn(&binary("adas-demo-mcp"), &[], &env);
    let demo_url = format!("http://{}/mcp", demo.addr());
    processes.push(demo);
    if mode == "embedded" {
        // `up` is a subcommand: its flags follow it.
        let mut args = vec![
            "up".to_owned(),
            "--no-demo-mcp".into(),
            "--demo-mcp-url".into(),
            demo_url.clone(),
        ];
        args.extend(suite_flags(&next_metrics("adas")));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        processes.push(SpawnedService::spawn(&binary("adas"), &args, &env));
        return (processes, metrics, demo_url);
    }
    let mut peers: BTreeMap<&str, String> = BTreeMap::new();
    for (name, flag) in [
        ("adas-skill-registry", "--skill-registry-addr"),
        ("adas-intent", "--intent-addr"),
        ("adas-gate", "--gate-addr"),
        ("adas-dal-agent", "--dal-agent-addr"),
    ] {
        let mut args = suite_flags(&next_metrics(name));
        args.extend(["--demo-mcp-url".into(), demo_url.clone()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let service = SpawnedService::spawn(&binary(name), &args, &env);
        peers.insert(flag, service.endpoint());
        processes.push(service);
    }
    let mut args = suite_flags(&next_metrics("adas-orchestrator"));
    args.extend(["--demo-mcp-url".into(), demo_url.clone()]);
    for (flag, addr) in &peers {
        args.extend([(*flag).to_owned(), addr.clone()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    processes.push(SpawnedService::spawn(
        &binary("adas-orchestrator"),
        &args,
        &env,
    ));
    (processes, metrics, demo_url)
}

async fn connect_suite(name: &'static str, redis: &RedisServer, root: &Path) -> Result<Suite> {
    let (processes, metrics, demo_mcp_url) = start_suite(name, redis, root);
    let (orchestrator, dal_agent, gate, registry) = if name == "embedded" {
        // demo, adas.
        let all = channel(&processes[1]).await?;
        (all.clone(), all.clone(), all.clone(), all)
    } else {
        // demo, registry, intent, gate, dal-agent, orchestrator.
        (
            channel(&processes[5]).await?,
            channel(&processes[4]).await?,
            channel(&processes[3]).await?,
            channel(&processes[1]).await?,
        )
    };
    Ok(Suite {
        processes,
        metrics,
        orchestrator,
        dal_agent,
        gate,
        registry,
        demo_mcp_url,
    })
}

// ---------------------------------------------------------------- measurements

/// Durations of one batch of operations.
#[derive(Debug, Default, Clone)]
struct Sample {
    micros: Vec<f64>,
}

impl Sample {
    fn push(&mut self, elapsed: Duration) {
        self.micros.push(elapsed.as_secs_f64() * 1e6);
    }

    fn percentile(&self, p: f64) -> f64 {
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
async fn timed<T>(count: usize, mut operation: impl AsyncFnMut() -> Result<T>) -> Result<Sample> {
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
struct Figures {
    values: BTreeMap<String, (String, Vec<f64>)>,
    order: Vec<String>,
}

impl Figures {
    fn record(&mut self, name: &str, unit: &str, value: f64) {
        if !self.values.contains_key(name) {
            self.order.push(name.to_owned());
        }
        self.values
            .entry(name.to_owned())
            .or_insert_with(|| (unit.to_owned(), Vec::new()))
            .1
            .push(value);
    }

    fn median(&self, name: &str) -> f64 {
        self.values
            .get(name)
            .map_or(f64::NAN, |(_, values)| stats(values).1)
    }
}

fn stats(values: &[f64]) -> (f64, f64, f64) {
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
fn cpu_seconds(pid: u32) -> f64 {
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
fn thread_cpu_ns(pid: u32) -> HashMap<u32, u64> {
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
async fn cpu_rate(pid: u32, window: Duration) -> f64 {
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
async fn quiet_cpu_rate(pid: u32) -> f64 {
    for _ in 0..120 {
        if cpu_rate(pid, Duration::from_millis(250)).await < 20.0 {
            break;
        }
    }
    cpu_rate(pid, Duration::from_secs(2)).await
}

fn clock_ticks_per_second() -> f64 {
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

fn cpu_of(pids: &[u32]) -> f64 {
    pids.iter().map(|pid| cpu_seconds(*pid)).sum()
}

/// On-CPU time of every live thread of the processes, in seconds, from
/// `/proc/<pid>/task/*/schedstat` (nanoseconds): fine enough for the floors'
/// short loops, where `stat`'s 10 ms ticks are too coarse. Threads that exit
/// take their time with them, so long windows use [`cpu_of`].
fn precise_cpu_of(pids: &[u32]) -> f64 {
    let nanos: u64 = task_files(pids, "schedstat")
        .filter_map(|stat| stat.split_whitespace().next()?.parse::<u64>().ok())
        .sum();
    nanos as f64 / 1e9
}

/// The file `name` of every live thread of the processes (`/proc/<pid>/task/*/`).
fn task_files<'a>(pids: &'a [u32], name: &'a str) -> impl Iterator<Item = String> + 'a {
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
fn wakeups_of(pids: &[u32]) -> f64 {
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
fn redis_commands(connection: &RedisServer) -> BTreeMap<String, f64> {
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

fn redis_info(connection: &RedisServer, field: &str) -> f64 {
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

async fn scrape(addr: std::net::SocketAddr, name: &str) -> Result<u64> {
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

// ---------------------------------------------------------------- floors

struct Floors {
    redis: redis::aio::MultiplexedConnection,
    store: Arc<RedisStore>,
    cas_version: u64,
    redis_pid: u32,
}

async fn measure_floors(
    floors: &mut Floors,
    suite: &Suite,
    sizes: &Sizes,
    figures: &mut Figures,
) -> Result<()> {
    let bench_pid = std::process::id();
    // Redis GET.
    let cpu_before = precise_cpu_of(&[bench_pid, floors.redis_pid]);
    let sample = timed(sizes.floor_ops, async || {
        let _: Option<String> = redis::cmd("GET")
            .arg("bench:floor")
            .query_async(&mut floors.redis)
            .await?;
        Ok(())
    })
    .await?;
    figures.record("floor redis GET p50", "µs", sample.percentile(0.5));
    figures.record(
        "floor redis GET cpu",
        "µs/op",
        (precise_cpu_of(&[bench_pid, floors.redis_pid]) - cpu_before) * 1e6
            / sizes.floor_ops as f64,
    );
    // The store's compare-and-set (one Lua script).
    let sample = timed(sizes.floor_ops, async || {
        floors.cas_version = floors
            .store
            .write_job(
                "bench-floor",
                "floor",
                JobWrite {
                    expected: floors.cas_version,
                    data: Some(b"{}"),
                    status: "running",
                    waiting: WaitingChange::Keep,
                    events: &[],
                    enqueue: None,
                },
            )
            .await?;
        Ok(())
    })
    .await?;
    figures.record("floor store CAS p50", "µs", sample.percentile(0.5));
    // A bare tonic unary RPC: health check on the orchestrator's server.
    let mut health = tonic_health::pb::health_client::HealthClient::new(suite.orchestrator.clone());
    let server_pid = suite.worker_pid();
    let cpu_before = precise_cpu_of(&[bench_pid, server_pid]);
    let sample = timed(sizes.floor_ops, async || {
        health
            .check(tonic_health::pb::HealthCheckRequest::default())
            .await?;
        Ok(())
    })
    .await?;
    figures.record("floor gRPC health p50", "µs", sample.percentile(0.5));
    figures.record(
        "floor gRPC health cpu",
        "µs/op",
        (precise_cpu_of(&[bench_pid, server_pid]) - cpu_before) * 1e6 / sizes.floor_ops as f64,
    );
    // MCP on a kept session: the protocol's own cost, without session setup.
    // rmcp's own client is a reqwest client: the process's TLS provider first.
    adas_tools::install_crypto_provider();
    let transport =
        rmcp::transport::StreamableHttpClientTransport::from_uri(suite.demo_mcp_url.clone());
    let client = ().serve(transport).await?;
    let mcp_ops = (sizes.floor_ops / 10).max(10);
    let mut list = Sample::default();
    let mut call = Sample::default();
    for _ in 0..mcp_ops {
        let started = Instant::now();
        client.list_all_tools().await?;
        list.push(started.elapsed());
        let started = Instant::now();
        let arguments = json!({"order_id": "ORD-12345"})
            .as_object()
            .cloned()
            .unwrap_or_default();
        client
            .call_tool(CallToolRequestParams::new("check_order_status").with_arguments(arguments))
            .await?;
        call.push(started.elapsed());
    }
    let _ = client.cancel().await;
    figures.record("floor MCP tools/list p50", "µs", list.percentile(0.5));
    figures.record("floor MCP tools/call p50", "µs", call.percentile(0.5));
    // What the suite itself pays per MCP operation (its connector), for comparison.
    let connector = adas_tools::RmcpConnector::new(
        adas_tools::McpLimits::default(),
        adas_tools::EgressPolicy::new(["127.0.0.1/32"], []).expect("a valid policy"),
    );
    let arguments = json!({"order_id": "ORD-12345"})
        .as_object()
        .cloned()
        .unwrap_or_default();
    let check = async || {
        let started = Instant::now();
        connector
            .call_tool(
                &suite.demo_mcp_url,
                "check_order_status",
                &arguments,
                adas_tools::CallMeta::default(),
            )
            .await
            .map(|_| started.elapsed())
    };
    let mut list = Sample::default();
    let mut call = Sample::default();
    for _ in 0..mcp_ops {
        let started = Instant::now();
        connector.list_tools(&suite.demo_mcp_url).await?;
        list.push(started.elapsed());
        call.push(check().await?);
    }
    figures.record("suite MCP tools/list p50", "µs", list.percentile(0.5));
    figures.record("suite MCP tools/call p50", "µs", call.percentile(0.5));
    // As a job calls: after a pause, with the suite's threads gone idle.
    let mut spaced = Sample::default();
    for _ in 0..mcp_ops {
        tokio::time::sleep(CALL_GAP).await;
        spaced.push(check().await?);
    }
    figures.record(
        "suite MCP tools/call 1 ms apart p50",
        "µs",
        spaced.percentile(0.5),
    );
    // The same call as one bare HTTP POST (the server answers JSON without a
    // session): what the MCP client's own tasks add to each call.
    let http = reqwest::Client::builder().tcp_nodelay(true).build()?;
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "check_order_status", "arguments": {"order_id": "ORD-12345"}}
    })
    .to_string();
    for (name, gap) in [
        ("HTTP POST tools/call p50", Duration::ZERO),
        ("HTTP POST tools/call 1 ms apart p50", CALL_GAP),
    ] {
        let mut sample = Sample::default();
        for _ in 0..mcp_ops {
            tokio::time::sleep(gap).await;
            let started = Instant::now();
            let answer = http
                .post(&suite.demo_mcp_url)
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .body(body.clone())
                .send()
                .await?
                .error_for_status()?
                .bytes()
                .await?;
            sample.push(started.elapsed());
            if !answer.starts_with(b"{") {
                return Err("the demo server did not answer the POST in JSON".into());
            }
        }
        figures.record(name, "µs", sample.percentile(0.5));
    }
    Ok(())
}

// ---------------------------------------------------------------- scenarios

fn number(value: f64) -> prost_types::Value {
    prost_types::Value {
        kind: Some(Kind::NumberValue(value)),
    }
}

type OrchestratorClient = pb::orchestrator_service_client::OrchestratorServiceClient<Channel>;

/// The pause before each call of the spaced MCP floors: about what a job
/// spends between its calls.
const CALL_GAP: Duration = Duration::from_millis(1);

/// Starts one job of the bench skill.
async fn start_bench_job(orchestrator: &mut OrchestratorClient) -> Result<pb::Job> {
    let request = pb::StartJobRequest {
        skill: SKILL.into(),
        goal: GOAL.into(),
        ..Default::default()
    };
    Ok(orchestrator.start_job(request).await?.into_inner())
}

/// Start → paused → answer → completed, observed through WatchJob. Returns the
/// whole latency and the pause → resume part (answer sent → first event after it).
async fn one_job(suite: &Suite) -> Result<(Duration, Duration)> {
    one_job_via(
        suite.orchestrator.clone(),
        suite.dal_agent.clone(),
        Duration::ZERO,
    )
    .await
}

/// [`one_job`] through this orchestrator and dal-agent, answering `think`
/// after the job paused.
async fn one_job_via(
    orchestrator: Channel,
    dal: Channel,
    think: Duration,
) -> Result<(Duration, Duration)> {
    // Offering gzip, as most generated clients do by default (grpcio,
    // grpc-java): what the suite then spends on compression is in the figures.
    let gzip = tonic::codec::CompressionEncoding::Gzip;
    let mut orchestrator =
        pb::orchestrator_service_client::OrchestratorServiceClient::new(orchestrator)
            .accept_compressed(gzip);
    let mut dal =
        pb::dal_agent_service_client::DalAgentServiceClient::new(dal).accept_compressed(gzip);
    let started = Instant::now();
    let job = start_bench_job(&mut orchestrator).await?;
    let mut events = orchestrator
        .watch_job(pb::WatchJobRequest {
            name: job.name.clone(),
            after_event_id: String::new(),
        })
        .await?
        .into_inner();
    let mut answered: Option<Instant> = None;
    let mut resume = Duration::ZERO;
    while let Some(event) = events.message().await? {
        let kind =
            pb::JobEventType::try_from(event.r#type).unwrap_or(pb::JobEventType::Unspecified);
        match kind {
            pb::JobEventType::Paused if answered.is_none() => {
                let paused = orchestrator
                    .get_job(pb::GetJobRequest {
                        name: job.name.clone(),
                    })
                    .await?
                    .into_inner();
                let waiting = paused.waiting.ok_or("a paused job without waiting")?;
                if !think.is_zero() {
                    tokio::time::sleep(think).await;
                }
                let sent = Instant::now();
                dal.submit_input(pb::SubmitInputRequest {
                    job: job.name.clone(),
                    correlation_id: waiting.correlation_id,
                    fields: [("amount".to_owned(), number(25.0))].into(),
                    request_id: String::new(),
                })
                .await?;
                answered = Some(sent);
            }
            pb::JobEventType::Resumed => {}
            pb::JobEventType::Completed => {
                if answered.is_none() {
                    return Err("the job completed without asking".into());
                }
                let done = started.elapsed();
                // The stream's end (its status) follows at once. Dropped here
                // instead, the stream is reset while that end may still be on
                // its way; after 1,024 such late frames the client's h2 closes
                // the connection (e2e/tests/watch.rs).
                while events.message().await?.is_some() {}
                return Ok((done, resume));
            }
            pb::JobEventType::Failed | pb::JobEventType::Cancelled => {
                let failed = orchestrator
                    .get_job(pb::GetJobRequest {
                        name: job.name.clone(),
                    })
                    .await?
                    .into_inner();
                return Err(format!("job {} ended {kind:?}: {:?}", job.name, failed.error).into());
            }
            pb::JobEventType::Paused => return Err(format!("job {} paused twice", job.name).into()),
            _ => {
                if let Some(sent) = answered
                    && resume.is_zero()
                {
                    resume = sent.elapsed();
                }
            }
        }
    }
    Err(format!("the event stream of {} ended before the job did", job.name).into())
}

async fn serial_jobs(
    suite: &Suite,
    redis: &RedisServer,
    sizes: &Sizes,
    figures: &mut Figures,
) -> Result<()> {
    let replies_before = redis_info(redis, "total_writes_processed");
    let commands_before = redis_commands(redis);
    let (read_before, written_before) = (
        redis_info(redis, "total_net_output_bytes"),
        redis_info(redis, "total_net_input_bytes"),
    );
    let trips_before = suite.counters(ROUND_TRIPS).await;
    let hops_before = suite.counters(HOPS).await;
    let mut latency = Sample::default();
    let mut resume = Sample::default();
    for _ in 0..sizes.serial_jobs {
        let (whole, resumed) = one_job(suite).await?;
        latency.push(whole);
        resume.push(resumed);
    }
    let jobs = sizes.serial_jobs as f64;
    figures.record("(a) job p50", "µs", latency.percentile(0.5));
    figures.record("(a) job p99", "µs", latency.percentile(0.99));
    let trips_after = suite.counters(ROUND_TRIPS).await;
    let hops_after = suite.counters(HOPS).await;
    let per_job = |before: &[(&str, u64)], after: &[(&str, u64)]| -> Vec<(String, f64)> {
        before
            .iter()
            .zip(after)
            .map(|((process, old), (_, new))| ((*process).to_owned(), (new - old) as f64 / jobs))
            .collect()
    };
    let trips = per_job(&trips_before, &trips_after);
    let hops = per_job(&hops_before, &hops_after);
    figures.record(
        "(a) redis trips/job",
        "trips",
        trips.iter().map(|(_, n)| n).sum(),
    );
    // Cross-check from Redis' side: each reply written to a client is one round
    // trip (a pipeline's replies go out together); the bench's INFO is subtracted.
    figures.record(
        "(a) redis replies/job",
        "trips",
        (redis_info(redis, "total_writes_processed") - replies_before - 1.0) / jobs,
    );
    // Bytes the suite read from Redis and wrote to it (the INFO replies of the
    // bench itself are a few KiB over all the jobs).
    figures.record(
        "(a) redis bytes read/job",
        "bytes",
        (redis_info(redis, "total_net_output_bytes") - read_before) / jobs,
    );
    figures.record(
        "(a) redis bytes written/job",
        "bytes",
        (redis_info(redis, "total_net_input_bytes") - written_before) / jobs,
    );
    let commands_after = redis_commands(redis);
    let mut by_command: Vec<(String, f64)> = commands_after
        .iter()
        .map(|(name, calls)| {
            let before = commands_before.get(name).copied().unwrap_or(0.0);
            (name.clone(), (calls - before) / jobs)
        })
        .filter(|(name, per_job)| *per_job > 0.0 && name != "INFO")
        .collect();
    by_command.sort_by(|a, b| b.1.total_cmp(&a.1));
    figures.record(
        "(a) redis commands/job",
        "cmds",
        by_command.iter().map(|(_, n)| n).sum(),
    );
    for (name, per_job) in by_command {
        figures.record(&format!("    {name}/job"), "cmds", per_job);
    }
    figures.record(
        "(a) gRPC hops/job",
        "hops",
        hops.iter().map(|(_, n)| n).sum(),
    );
    // Where they happen, when the services run apart.
    if trips.len() > 1 {
        for ((process, trips), (_, hops)) in trips.iter().zip(&hops) {
            figures.record(&format!("    trips/job in {process}"), "trips", *trips);
            figures.record(&format!("    hops/job served by {process}"), "hops", *hops);
        }
    }
    figures.record("(c) pause→resume p50", "µs", resume.percentile(0.5));
    Ok(())
}

async fn throughput(
    suite: &Arc<Suite>,
    redis: &RedisServer,
    redis_pid: u32,
    sizes: &Sizes,
    figures: &mut Figures,
) -> Result<()> {
    // The closed loops (answers sent at once: every level saturates the
    // machine from c=16 on), then the paced one.
    let levels = sizes
        .concurrency
        .iter()
        .map(|&level| (level, Duration::ZERO))
        .chain([sizes.paced]);
    for (level, think) in levels {
        let jobs = sizes.jobs_per_level.max(level);
        let label = if think.is_zero() {
            format!("c={level}")
        } else {
            format!("c={level} answering in {} ms", think.as_millis())
        };
        let pids = suite.pids();
        let cpu_before = cpu_of(&pids);
        let wakeups_before = wakeups_of(&pids);
        let each_before: Vec<f64> = pids.iter().map(|pid| cpu_seconds(*pid)).collect();
        let tools_before = cpu_seconds(suite.tool_server_pid());
        let redis_cpu_before = cpu_seconds(redis_pid);
        let _ = redis;
        let started = Instant::now();
        let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for client in 0..level {
            let suite = suite.clone();
            let next = next.clone();
            tasks.push(tokio::spawn(async move {
                // Paced clients do not move in step, as users do not: their
                // starts are spread over one answer time, and each answer
                // takes 0.5–1.5 of it (a golden-ratio sequence, the same in
                // every run). Clients that all answered at once would make
                // waves that saturate the machine however light the load.
                tokio::time::sleep(think * client as u32 / level as u32).await;
                let mut resumes = Vec::new();
                loop {
                    let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if n >= jobs {
                        break;
                    }
                    let spread = 0.5 + (n as f64 * 0.618_033_988_749_895).fract();
                    let answer_in = think.mul_f64(spread);
                    resumes.push(
                        one_job_via(
                            suite.orchestrator.clone(),
                            suite.dal_agent.clone(),
                            answer_in,
                        )
                        .await?
                        .1,
                    );
                }
                Ok::<_, Error>(resumes)
            }));
        }
        let mut resume = Sample::default();
        for task in tasks {
            for sample in task.await?? {
                resume.push(sample);
            }
        }
        let wall = started.elapsed().as_secs_f64();
        figures.record(
            &format!("(b) jobs/s at {label}"),
            "jobs/s",
            jobs as f64 / wall,
        );
        // A resumed job is claimed before new work (its own lane): under load
        // the answer → next event time is what a user waits after replying.
        figures.record(
            &format!("(b) pause→resume p50 at {label}"),
            "µs",
            resume.percentile(0.5),
        );
        figures.record(
            &format!("(b) pause→resume p99 at {label}"),
            "µs",
            resume.percentile(0.99),
        );
        figures.record(
            &format!("(b) suite cpu/job at {label}"),
            "µs",
            (cpu_of(&pids) - cpu_before) * 1e6 / jobs as f64,
        );
        figures.record(
            &format!("(b) suite thread wake-ups/job at {label}"),
            "wakes",
            (wakeups_of(&pids) - wakeups_before) / jobs as f64,
        );
        // Per process when the services run apart (metrics follow the pids' order).
        if pids.len() > 1 {
            for ((pid, before), (process, _)) in pids.iter().zip(&each_before).zip(&suite.metrics) {
                figures.record(
                    &format!("    cpu/job in {process} at {label}"),
                    "µs",
                    (cpu_seconds(*pid) - before) * 1e6 / jobs as f64,
                );
            }
        }
        figures.record(
            &format!("(b) tool server cpu/job at {label}"),
            "µs",
            (cpu_seconds(suite.tool_server_pid()) - tools_before) * 1e6 / jobs as f64,
        );
        figures.record(
            &format!("(b) redis cpu/job at {label}"),
            "µs",
            (cpu_seconds(redis_pid) - redis_cpu_before) * 1e6 / jobs as f64,
        );
    }
    Ok(())
}

async fn resolve_tools(
    suite: &Suite,
    store: &Arc<RedisStore>,
    sizes: &Sizes,
    figures: &mut Figures,
) -> Result<()> {
    let mut registry =
        pb::skill_registry_service_client::SkillRegistryServiceClient::new(suite.registry.clone());
    let request = || pb::ResolveToolsRequest {
        skill: SKILL.into(),
    };
    let first = registry.resolve_tools(request()).await?.into_inner();
    if !first.tools.iter().any(|tool| tool.name == "process_refund") {
        return Err("ResolveTools does not list process_refund".into());
    }
    let sample = timed(sizes.resolve_calls, async || {
        Ok(registry.resolve_tools(request()).await?)
    })
    .await?;
    figures.record("(d) ResolveTools warm p50", "µs", sample.percentile(0.5));
    // The worker's own resolution: the same resolver the suite runs, over the
    // bench's Redis, warm — an in-process hit, no store read, no hop.
    let resolver = adas_tools::ToolResolver::new(
        store.clone(),
        Arc::new(adas_tools::RmcpConnector::new(
            adas_tools::McpLimits::default(),
            adas_tools::EgressPolicy::new(["127.0.0.1/32"], []).expect("a valid policy"),
        )),
        adas_tools::CacheTtls::default(),
    );
    let request = adas_tools::ToolRequest {
        mcp_server: Some(suite.demo_mcp_url.clone()),
        ..adas_tools::ToolRequest::default()
    };
    resolver.resolve(&request).await?;
    let sample = timed(sizes.resolve_calls, async || {
        Ok(resolver.resolve(&request).await?)
    })
    .await?;
    figures.record(
        "(d) in-process tool resolution p50",
        "µs",
        sample.percentile(0.5),
    );
    Ok(())
}

async fn check_tool_call(suite: &Suite, sizes: &Sizes, figures: &mut Figures) -> Result<()> {
    let mut gate = pb::gate_service_client::GateServiceClient::new(suite.gate.clone());
    let arguments = prost_types::Struct {
        fields: [
            (
                "order_id".to_owned(),
                prost_types::Value {
                    kind: Some(Kind::StringValue("ORD-12345".into())),
                },
            ),
            ("amount".to_owned(), number(25.0)),
        ]
        .into(),
    };
    let request = || pb::CheckToolCallRequest {
        skill: SKILL.into(),
        job: String::new(),
        tool: "process_refund".into(),
        arguments: Some(arguments.clone()),
        context: None,
    };
    gate.check_tool_call(request()).await?;
    let sample = timed(sizes.gate_calls, async || {
        Ok(gate.check_tool_call(request()).await?)
    })
    .await?;
    figures.record("(e) CheckToolCall p50", "µs", sample.percentile(0.5));
    Ok(())
}

/// Starts `count` jobs that all pause, then measures Redis memory per paused job
/// and the worker process' CPU over a quiet second while they wait.
async fn paused_jobs(
    suite: &Suite,
    redis: &RedisServer,
    count: usize,
    figures: &mut Figures,
) -> Result<()> {
    // The worker's own idle cost (its sweeper, its queue reads), before any
    // job waits: what the paused jobs add is the difference.
    figures.record(
        "(f) worker cpu idle, none paused",
        "ms/s",
        quiet_cpu_rate(suite.worker_pid()).await,
    );
    let memory_before = redis_info(redis, "used_memory");
    let names = Arc::new(tokio::sync::Mutex::new(Vec::with_capacity(count)));
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for _ in 0..32 {
        let channel = suite.orchestrator.clone();
        let names = names.clone();
        let next = next.clone();
        tasks.push(tokio::spawn(async move {
            let mut orchestrator =
                pb::orchestrator_service_client::OrchestratorServiceClient::new(channel);
            while next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < count {
                let job = start_bench_job(&mut orchestrator).await?;
                names.lock().await.push(job.name);
            }
            Ok::<(), Error>(())
        }));
    }
    for task in tasks {
        task.await??;
    }
    // Wait on the condition: every job paused (the waiting index holds them all).
    let mut orchestrator =
        pb::orchestrator_service_client::OrchestratorServiceClient::new(suite.orchestrator.clone());
    let names = names.lock().await.clone();
    let deadline = Instant::now() + Duration::from_secs(600);
    for name in &names {
        loop {
            let job = orchestrator
                .get_job(pb::GetJobRequest { name: name.clone() })
                .await?
                .into_inner();
            if job.status == pb::JobStatus::Paused as i32 {
                break;
            }
            if job.status != pb::JobStatus::Queued as i32
                && job.status != pb::JobStatus::Running as i32
            {
                return Err(format!("{name} ended instead of pausing").into());
            }
            if Instant::now() > deadline {
                return Err(format!("{name} never paused").into());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    figures.record(
        "(f) redis bytes/paused job",
        "bytes",
        (redis_info(redis, "used_memory") - memory_before) / count as f64,
    );
    figures.record(
        "(f) worker cpu while paused",
        "ms/s",
        quiet_cpu_rate(suite.worker_pid()).await,
    );
    Ok(())
}

/// Fills the bench skill with `count` stored jobs (one in four paused), then
/// times ListJobs pages of 50 PAUSED jobs and counts the round trips each costs.
async fn list_pages(
    suite: &Suite,
    store: &Arc<RedisStore>,
    count: usize,
    figures: &mut Figures,
) -> Result<()> {
    let slag = adas_e2e::SKILL.trim_start_matches("skills/");
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for _ in 0..64 {
        let (store, next, slag) = (store.clone(), next.clone(), slag.to_owned());
        tasks.push(tokio::spawn(async move {
            loop {
                let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if index >= count {
                    return Ok::<(), Error>(());
                }
                let status = if index % 4 == 3 {
                    "paused"
                } else {
                    "completed"
                };
                let job_id = format!("list{index:07}");
                let record = json!({
                    "job_id": job_id, "slag": slag, "goal": "listed", "status": status,
                    "waiting": null, "context": {}, "resources": {}, "plan": null,
                    "intent": null, "iteration": 0, "iteration_budget": 1, "calls": [],
                    "result": null, "error": null, "audit": [], "request_id": "",
                    "created_at": "2026-01-01T00:00:00.000Z",
                    "updated_at": "2026-01-01T00:00:00.000Z", "ended_at": null
                });
                let data = serde_json::to_vec(&record)?;
                let job = NewJob {
                    data: &data,
                    created_ms: index as u64,
                    status,
                    event: None,
                    enqueue: false,
                };
                store.create_job(&slag, &job_id, job).await?;
                if status == "paused" {
                    // A paused job waits: it is listed from the waiting index.
                    let wait = JobWrite {
                        expected: 1,
                        data: None,
                        status,
                        waiting: WaitingChange::Set {
                            since_ms: index as u64,
                        },
                        events: &[],
                        enqueue: None,
                    };
                    store.write_job(&slag, &job_id, wait).await?;
                }
            }
        }));
    }
    for task in tasks {
        task.await??;
    }
    let mut orchestrator =
        pb::orchestrator_service_client::OrchestratorServiceClient::new(suite.orchestrator.clone());
    let request = || pb::ListJobsRequest {
        parent: adas_e2e::SKILL.into(),
        status: pb::JobStatus::Paused as i32,
        page_size: 50,
        page_token: String::new(),
    };
    let calls = 200;
    let trips_before: u64 = suite
        .counters(ROUND_TRIPS)
        .await
        .iter()
        .map(|(_, v)| v)
        .sum();
    let sample = timed(calls, async || {
        let page = orchestrator.list_jobs(request()).await?.into_inner();
        // (f) left paused jobs too: at least a quarter of those stored here.
        if page.jobs.len() < 50.min(count / 4) {
            return Err(format!("a page of only {} jobs", page.jobs.len()).into());
        }
        Ok(())
    })
    .await?;
    let trips_after: u64 = suite
        .counters(ROUND_TRIPS)
        .await
        .iter()
        .map(|(_, v)| v)
        .sum();
    figures.record("(g) jobs stored", "jobs", count as f64);
    figures.record(
        "(g) ListJobs PAUSED page of 50 p50",
        "µs",
        sample.percentile(0.5),
    );
    figures.record(
        "(g) redis trips/ListJobs page",
        "trips",
        (trips_after - trips_before) as f64 / calls as f64,
    );
    Ok(())
}

// ---------------------------------------------------------------- peer

/// The Redis trips a 3-tool, 1-pause job needs (issue 17): its floor counts
/// these and the client's calls, at the same run's measured costs.
const NECESSARY_TRIPS: f64 = 15.0;

/// The LangGraph peer (`e2e/peer/langgraph_refund.py`), run in the same run.
enum Peer {
    /// One JSON object per checkpointer, as the peer printed them.
    Ran(Vec<Json>),
    /// Why it did not run.
    Skipped(String),
}

impl Peer {
    /// Runs the peer with `python` when it can import LangGraph.
    async fn run(python: &Path, jobs: u32, root: &Path) -> Peer {
        if jobs == 0 {
            return Peer::Skipped("not run (--peer-jobs 0)".into());
        }
        let importable = tokio::process::Command::new(python)
            .args(["-c", "import langgraph"])
            .stderr(std::process::Stdio::null())
            .status()
            .await
            .is_ok_and(|status| status.success());
        if !importable {
            return Peer::Skipped(format!(
                "not run: {} cannot import langgraph (pip install -r e2e/peer/requirements.txt, then --peer-python; its last figures are in e2e/BENCH.md)",
                python.display()
            ));
        }
        eprintln!("adas-bench: LangGraph peer: {jobs} jobs per checkpointer");
        let script = root.join("langgraph_refund.py");
        if let Err(error) = std::fs::write(&script, adas_e2e::LANGGRAPH_PEER) {
            return Peer::Skipped(format!("not run: {error}"));
        }
        let output = tokio::process::Command::new(python)
            .arg(&script)
            .args(["--jobs", &jobs.to_string()])
            .stderr(std::process::Stdio::inherit())
            .output()
            .await;
        match output {
            Ok(output) if output.status.success() => Peer::Ran(
                String::from_utf8_lossy(&output.stdout)
                    .lines()
                    .filter_map(|line| serde_json::from_str(line).ok())
                    .collect(),
            ),
            Ok(output) => Peer::Skipped(format!("failed ({})", output.status)),
            Err(error) => Peer::Skipped(format!("failed: {error}")),
        }
    }

    /// `(p50 ms, jobs/s)` of one checkpointer.
    fn figures(&self, checkpointer: &str) -> Option<(f64, f64)> {
        let Peer::Ran(results) = self else {
            return None;
        };
        let result = results
            .iter()
            .find(|result| result["checkpointer"] == checkpointer)?;
        Some((result["job p50 ms"].as_f64()?, result["jobs/s"].as_f64()?))
    }

    fn absent_reason(&self) -> &str {
        match self {
            Peer::Ran(_) => "ran, but printed no MemorySaver figures",
            Peer::Skipped(reason) => reason,
        }
    }

    fn json(&self) -> Json {
        match self {
            Peer::Ran(results) => Json::Array(results.clone()),
            Peer::Skipped(reason) => json!({ "skipped": reason }),
        }
    }
}

// ---------------------------------------------------------------- report

fn report(mode: &str, figures: &Figures, peer: &Peer) -> Json {
    println!("\n== {mode}");
    println!(
        "{:<44} {:>12} {:>12} {:>12}  unit",
        "figure", "min", "median", "max"
    );
    let mut json_figures = serde_json::Map::new();
    for name in &figures.order {
        let (unit, values) = &figures.values[name];
        let (min, median, max) = stats(values);
        println!("{name:<44} {min:>12.1} {median:>12.1} {max:>12.1}  {unit}");
        json_figures.insert(
            name.clone(),
            json!({"unit": unit, "min": min, "median": median, "max": max, "values": values}),
        );
    }
    // The explanation of (a): the job's latency floor from its own counts and the floors.
    let trips = figures.median("(a) redis trips/job");
    let hops = figures.median("(a) gRPC hops/job");
    let redis_rtt = figures.median("floor redis GET p50");
    let grpc_rtt = figures.median("floor gRPC health p50");
    let floor = trips * redis_rtt + hops * grpc_rtt;
    let job = figures.median("(a) job p50");
    println!(
        "job p50 = {:.2} ms = {:.1} × floor ({trips:.0} Redis trips × {:.0} µs + {hops:.0} hops × {:.0} µs = {:.2} ms)",
        job / 1e3,
        job / floor,
        redis_rtt,
        grpc_rtt,
        floor / 1e3
    );
    let cpu_floor = trips * figures.median("floor redis GET cpu")
        + hops * figures.median("floor gRPC health cpu");
    let cores = std::thread::available_parallelism().map_or(1.0, |cores| cores.get() as f64);
    let ceiling = cores * 1e6 / cpu_floor;
    let best = figures
        .order
        .iter()
        .filter(|name| name.starts_with("(b) jobs/s"))
        .map(|name| figures.median(name))
        .fold(0.0, f64::max);
    println!(
        "throughput: best {best:.0} jobs/s = {:.0}% of the CPU ceiling {ceiling:.0} jobs/s ({cores:.0} cores / {:.0} µs CPU floor per job)",
        best * 100.0 / ceiling,
        cpu_floor
    );
    let resolve = figures.median("(d) ResolveTools warm p50");
    let list = figures.median("suite MCP tools/list p50");
    let kept = figures.median("floor MCP tools/list p50");
    println!(
        "ResolveTools warm = {resolve:.0} µs: {:.1}× cheaper than the MCP tools/list it replaces ({list:.0} µs), {:.1}× a list on a kept session ({kept:.0} µs)",
        list / resolve,
        kept / resolve
    );
    // The issue's own terms: a floor of the necessary operations only (15
    // Redis trips and the client's 4 calls), and the in-process peer.
    let necessary = NECESSARY_TRIPS * redis_rtt + hops * grpc_rtt;
    println!(
        "job p50 = {:.1} × the necessary floor ({NECESSARY_TRIPS:.0} Redis trips + {hops:.0} hops = {:.2} ms; tool calls not in it)",
        job / necessary,
        necessary / 1e3
    );
    let memory_saver = peer.figures("MemorySaver");
    match memory_saver {
        Some((p50, jobs_per_s)) => println!(
            "job p50 = {:.2} × LangGraph MemorySaver's ({p50:.2} ms; a quarter of it is {:.1} × the necessary floor); best throughput = {:.1} × its {jobs_per_s:.0} jobs/s",
            job / 1e3 / p50,
            p50 * 1e3 / 4.0 / necessary,
            best / jobs_per_s
        ),
        None => println!("LangGraph peer: {}", peer.absent_reason()),
    }
    let local = figures.median("(d) in-process tool resolution p50");
    println!(
        "in-process tool resolution = {local:.1} µs: {:.0}× cheaper than the MCP tools/list ({list:.0} µs)",
        list / local
    );
    json!({
        "figures": json_figures,
        "explain": {
            "job_p50_us": job, "floor_us": floor, "ratio_to_floor": job / floor,
            "redis_trips_per_job": trips, "grpc_hops_per_job": hops,
            "redis_rtt_us": redis_rtt, "grpc_rtt_us": grpc_rtt,
            "cpu_floor_us_per_job": cpu_floor, "cpu_ceiling_jobs_per_s": ceiling,
            "best_jobs_per_s": best, "percent_of_ceiling": best * 100.0 / ceiling,
            "resolve_tools_speedup_vs_mcp_list": list / resolve,
            "necessary_floor_us": necessary, "ratio_to_necessary_floor": job / necessary,
            "ratio_to_langgraph_memory_saver": memory_saver.map(|(p50, _)| job / 1e3 / p50),
        }
    })
}

async fn bench_mode(
    name: &'static str,
    args: &Args,
    sizes: &Sizes,
    redis: &RedisServer,
    root: &Path,
    peer: &Peer,
) -> Result<Json> {
    redis.raw_command("FLUSHALL");
    let suite = Arc::new(connect_suite(name, redis, root).await?);
    eprintln!(
        "adas-bench: {name}: suite up ({} processes)",
        suite.processes.len()
    );
    let store = Arc::new(RedisStore::connect(&redis.url(), "bench").await?);
    let cas_version = store
        .create_job(
            "bench-floor",
            "floor",
            NewJob {
                data: b"{}",
                created_ms: 0,
                status: "running",
                event: None,
                enqueue: false,
            },
        )
        .await?;
    let redis_pid = redis_pid(redis);
    let mut floors = Floors {
        redis: redis::Client::open(redis.url())?
            .get_multiplexed_async_connection()
            .await?,
        store,
        cas_version,
        redis_pid,
    };
    let mut figures = Figures::default();
    // Warm-up: first job bootstraps the skill and fills the tool caches.
    one_job(&suite).await?;
    let per_rep = (args.paused_jobs / args.repetitions as usize).max(1);
    for repetition in 1..=args.repetitions {
        eprintln!(
            "adas-bench: {name}: repetition {repetition}/{}",
            args.repetitions
        );
        measure_floors(&mut floors, &suite, sizes, &mut figures).await?;
        serial_jobs(&suite, redis, sizes, &mut figures).await?;
        measure_floors(&mut floors, &suite, sizes, &mut figures).await?;
        resolve_tools(&suite, &floors.store, sizes, &mut figures).await?;
        check_tool_call(&suite, sizes, &mut figures).await?;
        throughput(&suite, redis, redis_pid, sizes, &mut figures).await?;
        paused_jobs(&suite, redis, per_rep, &mut figures).await?;
    }
    // Once, after the rest: it leaves the skill with many jobs.
    list_pages(&suite, &floors.store, args.listed_jobs, &mut figures).await?;
    Ok(report(name, &figures, peer))
}

// ------------------------------------------------------------------ scale-out

/// The store a scale-out run uses: one Redis, or a three-primary cluster.
enum ScaleStore<'a> {
    Single(&'a RedisServer),
    Cluster(&'a RedisCluster),
}

impl ScaleStore<'_> {
    fn name(&self) -> &'static str {
        match self {
            Self::Single(_) => "one redis",
            Self::Cluster(_) => "cluster of 3",
        }
    }

    fn url(&self) -> String {
        match self {
            Self::Single(redis) => redis.url(),
            Self::Cluster(cluster) => cluster.url(),
        }
    }

    fn nodes(&self) -> Vec<&RedisServer> {
        match self {
            Self::Single(redis) => vec![redis],
            Self::Cluster(cluster) => cluster.nodes().iter().collect(),
        }
    }

    /// Every node's CPU seconds, summed.
    fn cpu(&self) -> f64 {
        self.nodes()
            .into_iter()
            .map(|node| cpu_seconds(redis_pid(node)))
            .sum()
    }

    fn flush(&self) {
        for node in self.nodes() {
            node.raw_command("FLUSHALL");
        }
    }
}

/// (h) Replicas side by side on one store: registry, intent and gate once, and
/// `replicas` orchestrator + dal-agent pairs, each orchestrator stepping its
/// jobs in-process and its clients answering through its own dal-agent.
/// Returns the processes (kept alive) and each pair's channels.
async fn start_replicas(
    url: &str,
    replicas: usize,
    root: &Path,
) -> Result<(Vec<SpawnedService>, Vec<(Channel, Channel)>)> {
    let templates = root.join("templates").display().to_string();
    let env = [("ADAS_LOG", "error")];
    let demo = SpawnedService::spawn(&binary("adas-demo-mcp"), &[], &env);
    let demo_url = format!("http://{}/mcp", demo.addr());
    let mut processes = vec![demo];
    let spawn = |name: &str, extra: &[String]| {
        let memory = scratch_dir(&format!("scale-{name}")).display().to_string();
        let mut args = vec![
            "--redis-url".to_owned(),
            url.to_owned(),
            "--memory-root".into(),
            memory,
            "--templates-dir".into(),
            templates.clone(),
            "--demo-mcp-url".into(),
            demo_url.clone(),
        ];
        args.extend_from_slice(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        SpawnedService::spawn(&binary(name), &args, &env)
    };
    let mut peers = Vec::new();
    for (name, flag) in [
        ("adas-skill-registry", "--skill-registry-addr"),
        ("adas-intent", "--intent-addr"),
        ("adas-gate", "--gate-addr"),
    ] {
        let service = spawn(name, &[]);
        peers.extend([flag.to_owned(), service.endpoint()]);
        processes.push(service);
    }
    let mut pairs = Vec::new();
    for _ in 0..replicas {
        let dal = spawn("adas-dal-agent", &[]);
        let mut extra = peers.clone();
        extra.extend(["--dal-agent-addr".to_owned(), dal.endpoint()]);
        let orchestrator = spawn("adas-orchestrator", &extra);
        pairs.push((channel(&orchestrator).await?, channel(&dal).await?));
        processes.extend([dal, orchestrator]);
    }
    Ok((processes, pairs))
}

/// Jobs/s with 1, 2 and 4 replica pairs on `store`, with the store's CPU per
/// job: one core divided by it is the most jobs/s one shard can take.
async fn scale_out(
    store: &ScaleStore<'_>,
    quick: bool,
    root: &Path,
    figures: &mut Figures,
) -> Result<()> {
    let (levels, jobs, concurrency): (&[usize], usize, usize) = if quick {
        (&[1, 2], 16, 8)
    } else {
        (&[1, 2, 4], 256, 32)
    };
    for &replicas in levels {
        store.flush();
        let (processes, pairs) = start_replicas(&store.url(), replicas, root).await?;
        eprintln!(
            "adas-bench: scale-out: {}, {replicas} replicas up",
            store.name()
        );
        // Warm-up through every pair: skills read, tool caches filled.
        for (orchestrator, dal) in &pairs {
            one_job_via(orchestrator.clone(), dal.clone(), Duration::ZERO).await?;
        }
        let pids: Vec<u32> = processes[1..].iter().map(SpawnedService::pid).collect();
        let (suite_before, store_before) = (cpu_of(&pids), store.cpu());
        let started = Instant::now();
        let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let pairs = Arc::new(pairs);
        let mut tasks = Vec::new();
        for _ in 0..concurrency {
            let (next, pairs) = (next.clone(), pairs.clone());
            tasks.push(tokio::spawn(async move {
                loop {
                    let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if n >= jobs {
                        return Ok::<_, Error>(());
                    }
                    let (orchestrator, dal) = &pairs[n % pairs.len()];
                    one_job_via(orchestrator.clone(), dal.clone(), Duration::ZERO).await?;
                }
            }));
        }
        for task in tasks {
            task.await??;
        }
        let wall = started.elapsed().as_secs_f64();
        let store_cpu = (store.cpu() - store_before) * 1e6 / jobs as f64;
        let name = store.name();
        figures.record(
            &format!("(h) {name}: jobs/s, {replicas} replicas"),
            "jobs/s",
            jobs as f64 / wall,
        );
        figures.record(
            &format!("(h) {name}: redis cpu/job (all shards), {replicas} replicas"),
            "µs",
            store_cpu,
        );
        figures.record(
            &format!("(h) {name}: suite cpu/job, {replicas} replicas"),
            "µs",
            (cpu_of(&pids) - suite_before) * 1e6 / jobs as f64,
        );
        // Every shard a core of its own: the most jobs/s the store takes.
        figures.record(
            &format!("(h) {name}: redis ceiling at 1 core/shard, {replicas} replicas"),
            "jobs/s",
            store.nodes().len() as f64 * 1e6 / store_cpu.max(1.0),
        );
        drop(processes);
    }
    Ok(())
}

fn report_scale_out(figures: &Figures) -> Json {
    println!("\n== scale-out (replicas of orchestrator + dal-agent on one store)");
    let mut json_figures = serde_json::Map::new();
    for name in &figures.order {
        let (unit, values) = &figures.values[name];
        let (_, median, _) = stats(values);
        println!("{name:<52} {median:>12.1}  {unit}");
        json_figures.insert(name.clone(), json!({"unit": unit, "median": median}));
    }
    println!(
        "the store's ceiling: one core per shard over the Redis CPU per job; a cluster adds shards"
    );
    json!({ "figures": json_figures })
}

fn redis_pid(redis: &RedisServer) -> u32 {
    let info = redis.raw_command("INFO server");
    info.lines()
        .find_map(|line| line.strip_prefix("process_id:"))
        .and_then(|pid| pid.trim().parse().ok())
        .unwrap_or(0)
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let sizes = Sizes::new(args.quick);
    let mut args = args;
    if args.quick {
        args.paused_jobs = args.paused_jobs.min(200);
        args.listed_jobs = args.listed_jobs.min(2_000);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let outcome = runtime.block_on(async {
        let redis = RedisServer::start();
        let root = scratch_dir("bench");
        std::fs::create_dir_all(root.join("templates"))?;
        std::fs::write(root.join("templates/bench-refund.yaml"), BENCH_SKILL)?;
        let peer = if args.quick {
            Peer::Skipped("not run under --quick".into())
        } else {
            Peer::run(&args.peer_python, args.peer_jobs, &root).await
        };
        let modes: &[&'static str] = match args.mode {
            ModeArg::Embedded => &["embedded"],
            ModeArg::Separate => &["separate"],
            ModeArg::Both => &["embedded", "separate"],
        };
        let mut results = serde_json::Map::new();
        for mode in modes {
            results.insert(
                (*mode).to_owned(),
                bench_mode(mode, &args, &sizes, &redis, &root, &peer).await?,
            );
        }
        if args.scale_out {
            let cluster = RedisCluster::start();
            let mut figures = Figures::default();
            for store in [ScaleStore::Single(&redis), ScaleStore::Cluster(&cluster)] {
                scale_out(&store, args.quick, &root, &mut figures).await?;
            }
            results.insert("scale-out".to_owned(), report_scale_out(&figures));
        }
        let _ = std::fs::remove_dir_all(&root);
        Ok::<Json, Error>(json!({
            "quick": args.quick,
            "repetitions": args.repetitions,
            "cores": std::thread::available_parallelism().map_or(1, |cores| cores.get()),
            "modes": results,
            "langgraph_peer": peer.json(),
        }))
    });
    match outcome {
        Ok(result) => {
            if let Some(path) = &args.json
                && let Err(error) = std::fs::write(
                    path,
                    serde_json::to_string_pretty(&result).unwrap_or_default(),
                )
            {
                eprintln!("adas-bench: cannot write {}: {error}", path.display());
                return std::process::ExitCode::FAILURE;
            }
            std::process::ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("adas-bench: a scenario failed: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}
