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

mod measure;

mod floors;

mod scenarios;

mod scale;

mod detection;

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
use floors::*;
use measure::*;
use scale::*;
use scenarios::*;

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
            // (f) waits for its paused jobs to be packed: soon, not in 10 s.
            "--park-after-ms".into(),
            "1000".into(),
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

// ---------------------------------------------------------------- floors

// ---------------------------------------------------------------- scenarios

type OrchestratorClient = pb::orchestrator_service_client::OrchestratorServiceClient<Channel>;

// ---------------------------------------------------------------- peer

/// The Redis trips a 3-tool, 1-pause job needs (issue 17): its floor counts
/// these and the client's calls, at the same run's measured costs.
const NECESSARY_TRIPS: f64 = 15.0;

/// The peer's run whose tool nodes call the demo MCP server.
const PEER_WITH_MCP: &str = "MemorySaver + MCP tools";

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
        // Its own tool server, for the run whose tool nodes are MCP calls
        // (the suite's work, tool I/O included); gone before the suite starts.
        let tools = SpawnedService::spawn(&binary("adas-demo-mcp"), &[], &[("ADAS_LOG", "error")]);
        let output = tokio::process::Command::new(python)
            .arg(&script)
            .args(["--jobs", &jobs.to_string()])
            .args(["--mcp-url", &format!("http://{}/mcp", tools.addr())])
            .stderr(std::process::Stdio::inherit())
            .output()
            .await;
        drop(tools);
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
    let cores = machine_cores();
    let floor_ceiling = cores * 1e6 / cpu_floor;
    // The share is of the best throughput's own window: the CPU the run's
    // processes (the suite — one process or six —, Redis and the tool
    // server, each read from /proc) used in it over the machine's, recorded
    // per repetition, so at most 100 % but for /proc's 10 ms ticks. The
    // bench's clients use the rest.
    let (best, label) = figures
        .order
        .iter()
        .filter_map(|name| name.strip_prefix("(b) jobs/s at "))
        .map(|label| (figures.median(&format!("(b) jobs/s at {label}")), label))
        .fold(
            (0.0, ""),
            |best, this| if this.0 > best.0 { this } else { best },
        );
    let cpu_per_job = ["suite", "tool server", "redis"]
        .iter()
        .map(|part| figures.median(&format!("(b) {part} cpu/job at {label}")))
        .sum::<f64>();
    let share = figures.median(&format!("(b) cpu share at {label}"));
    let ceiling = cores * 1e6 / cpu_per_job;
    println!(
        "throughput: best {best:.0} jobs/s ({label}) used {share:.0}% of the machine's CPU ({cores:.0} cores; {cpu_per_job:.0} µs CPU per job in the suite, Redis and the tool server): the ceiling at that cost is {ceiling:.0} jobs/s; at the floors' cost ({cpu_floor:.0} µs) it would be {floor_ceiling:.0}",
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
    // Redis trips and the client's calls), and the in-process peer.
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
    // The same peer making the job's three calls on an MCP server, as the
    // suite does: what is left of the ratio once both pay for tool I/O.
    if let Some((p50, jobs_per_s)) = peer.figures(PEER_WITH_MCP) {
        println!(
            "job p50 = {:.2} × LangGraph MemorySaver's with the same three MCP tool calls ({p50:.2} ms); best throughput = {:.1} × its {jobs_per_s:.0} jobs/s",
            job / 1e3 / p50,
            best / jobs_per_s
        );
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
            "cpu_floor_us_per_job": cpu_floor, "floor_ceiling_jobs_per_s": floor_ceiling,
            "cpu_us_per_job": cpu_per_job, "cpu_ceiling_jobs_per_s": ceiling,
            "best_jobs_per_s": best, "percent_of_cpu_used": share,
            "resolve_tools_speedup_vs_mcp_list": list / resolve,
            "necessary_floor_us": necessary, "ratio_to_necessary_floor": job / necessary,
            "ratio_to_langgraph_memory_saver": memory_saver.map(|(p50, _)| job / 1e3 / p50),
            "ratio_to_langgraph_memory_saver_with_mcp_tools":
                peer.figures(PEER_WITH_MCP).map(|(p50, _)| job / 1e3 / p50),
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
        let detection = detection::measure(if args.quick { 20 } else { 200 });
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
            "cores": machine_cores(),
            "modes": results,
            "detection": detection,
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
