//! Process metrics in the Prometheus text format, recorded through the
//! `metrics` facade (every crate counts with `metrics::counter!` and needs no
//! dependency on this one) and rendered by `metrics-exporter-prometheus`, on
//! an HTTP router of their own (`--metrics-listen`): `GET /metrics` serves the
//! page, any other path is 404. A scraper or `adas-bench` reads where a job's
//! time goes without touching the gRPC port or its concurrency limit.
//!
//! The names (labels in braces):
//! - `adas_grpc_server_requests_total{service,method,code}` and
//!   `adas_grpc_server_handling_seconds{service,method,code}` (histogram): every
//!   RPC this process served; `adas_grpc_requests_served_total` counts the
//!   application RPCs alone (a job's gRPC hops), `adas_grpc_requests_in_flight`
//!   those running now,
//! - jobs: `adas_jobs_started_total{tenant,skill}`,
//!   `adas_jobs_finished_total{tenant,skill,status,outcome}`,
//!   `adas_job_duration_seconds{tenant,skill,status}` and
//!   `adas_job_waiting_seconds{tenant,skill,reason}` (histograms, to a week),
//!   `adas_job_events_total{kind}`, `adas_queue_depth{state}` (ready, pending),
//!   `adas_jobs_waiting{tenant,skill,reason}` and
//!   `adas_approvals_pending{tenant,skill}` (read from the store at each
//!   scrape), `adas_job_reclaims_total`,
//! - tools: `adas_tool_call_seconds{tenant,skill,tool,result}` (histogram),
//!   `adas_tool_call_errors_total{tenant,skill,tool}`,
//!   `adas_gate_denials_total{tenant,skill,tool}`,
//!   `adas_unaccepted_tool_calls_total`, `adas_tool_cache_total{tier,result}`,
//! - models: `adas_llm_calls_total`, `adas_llm_tokens_total{direction}`,
//!   `adas_llm_call_seconds{provider,model,result}` (histogram),
//! - `adas_redis_round_trips_total`, `adas_build_info{version}`, and the
//!   process' own (`process_resident_memory_bytes`,
//!   `process_cpu_seconds_total`, `process_open_fds`, … as client_golang
//!   names them).
//!
//! `tenant`, `skill` and `tool` values are bounded per process
//! (`adas_jobs::metric_label`: the first 256 of each, then `other`).

use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;
use tracing::{info, warn};

use crate::error::RuntimeError;

/// Latency buckets (seconds) of every histogram: a cached read (~100 µs) to a
/// request timeout (30 s).
const BUCKETS: [f64; 14] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0, 30.0,
];

/// Buckets (seconds) of a job's life and of a wait for a person: a job done
/// in a second to a wait of a week.
const JOB_BUCKETS: [f64; 12] = [
    0.1, 0.5, 1.0, 5.0, 15.0, 60.0, 300.0, 900.0, 3_600.0, 14_400.0, 86_400.0, 604_800.0,
];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Whether this process records metrics (it serves a metrics page): the
/// server records each RPC's labels and status only then.
pub(crate) fn recording() -> bool {
    HANDLE.get().is_some()
}

/// The process' recorder, installed when the metrics page is first served:
/// a process without one records nothing (the facade's calls are no-ops) and
/// keeps no samples.
pub fn install() -> &'static PrometheusHandle {
    HANDLE.get_or_init(|| {
        use metrics_exporter_prometheus::Matcher;
        let recorder = PrometheusBuilder::new()
            .set_buckets(&BUCKETS)
            .and_then(|builder| {
                builder.set_buckets_for_metric(
                    Matcher::Full("adas_job_duration_seconds".into()),
                    &JOB_BUCKETS,
                )
            })
            .and_then(|builder| {
                builder.set_buckets_for_metric(
                    Matcher::Full("adas_job_waiting_seconds".into()),
                    &JOB_BUCKETS,
                )
            })
            .expect("the bucket lists are not empty")
            .build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            warn!("a metrics recorder was already installed; this page stays empty");
        }
        describe();
        // On the page from the start: a scraper sees 0, not an absent series.
        metrics::gauge!("adas_grpc_requests_in_flight").set(0.0);
        metrics::gauge!("adas_build_info", "version" => env!("CARGO_PKG_VERSION")).set(1.0);
        handle
    })
}

fn describe() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_counter!(
        "adas_grpc_server_requests_total",
        "RPCs served, by service, method and status code."
    );
    describe_histogram!(
        "adas_grpc_server_handling_seconds",
        Unit::Seconds,
        "Time from a request's arrival to its status, by service, method and code."
    );
    describe_counter!(
        "adas_grpc_requests_served_total",
        "Application RPCs served (health and reflection excluded): a job's gRPC hops."
    );
    describe_gauge!("adas_grpc_requests_in_flight", "RPCs being handled now.");
    describe_counter!(
        "adas_redis_round_trips_total",
        "Requests sent to Redis (a command, script or pipeline each)."
    );
    describe_counter!(
        "adas_unaccepted_tool_calls_total",
        "Tool calls refused: the server's definition of the tool is new or changed since an admin accepted it."
    );
    describe_counter!(
        "adas_llm_calls_total",
        "Model calls made by this process (retries included)."
    );
    describe_counter!(
        "adas_llm_tokens_total",
        "Model tokens spent by this process, by direction."
    );
    describe_gauge!("adas_build_info", "The running build (value 1).");
    describe_histogram!(
        "adas_job_duration_seconds",
        Unit::Seconds,
        "A job's life, from StartJob to its end (waits included), by skill and final status."
    );
    describe_histogram!(
        "adas_step_effect_seconds",
        Unit::Seconds,
        "A job step's effects on the worker (plan, gate, recheck, run, judge, …, and end: the last write), each with the write before it, by effect."
    );
    describe_histogram!(
        "adas_job_waiting_seconds",
        Unit::Seconds,
        "How long a paused job waited for a person (an answer, an approval, a takeover), by tenant, skill and the pause's reason."
    );
    describe_histogram!(
        "adas_llm_call_seconds",
        Unit::Seconds,
        "A model call's time, retries included, by provider, model and result."
    );
    describe_counter!(
        "adas_jobs_started_total",
        "Jobs started, by tenant and skill."
    );
    describe_counter!(
        "adas_jobs_finished_total",
        "Jobs ended (completed, failed or cancelled), by tenant, skill, status and outcome."
    );
    describe_counter!("adas_job_events_total", "Job events written, by kind.");
    describe_counter!(
        "adas_job_reclaims_total",
        "Jobs taken over from a worker that went silent."
    );
    describe_gauge!(
        "adas_queue_depth",
        "Jobs in the ready queue, by state (ready: waiting for a worker; pending: held by one)."
    );
    describe_gauge!(
        "adas_jobs_waiting",
        "Paused jobs waiting for a person, by tenant, skill and the pause's reason (read from the store at a scrape)."
    );
    describe_gauge!(
        "adas_approvals_pending",
        "Jobs waiting for an approver's decision, by tenant and skill (read from the store at a scrape)."
    );
    describe_histogram!(
        "adas_tool_call_seconds",
        Unit::Seconds,
        "A tool call's time on its server, by tenant, skill, tool and result."
    );
    describe_counter!(
        "adas_tool_call_errors_total",
        "Tool calls that failed, by tenant, skill and tool."
    );
    describe_counter!(
        "adas_gate_denials_total",
        "Calls the pre-tool gate denied, by tenant, skill and tool."
    );
    describe_counter!(
        "adas_gate_policy_rereads_total",
        "Times the gate read a skill's policy again because the version it held was stale."
    );
    describe_counter!(
        "adas_tool_cache_total",
        "Tool-set resolutions, by cache tier (process, store) and result (hit, miss)."
    );
    describe_counter!(
        "adas_trigger_periods_skipped_total",
        "Scheduled trigger periods skipped because the previous run had not ended."
    );
    // The process itself (client_golang's names): RSS, CPU, open files, threads.
    process_collector().describe();
}

/// The collector of the process' own figures, read at every scrape.
fn process_collector() -> &'static metrics_process::Collector {
    static COLLECTOR: OnceLock<metrics_process::Collector> = OnceLock::new();
    COLLECTOR.get_or_init(metrics_process::Collector::default)
}

/// Application RPCs this process has served since it started.
pub fn grpc_requests_served() -> u64 {
    SERVED.load(std::sync::atomic::Ordering::Relaxed)
}

static SERVED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Counts a call refused for an unaccepted tool definition.
pub fn count_unaccepted_tool_call() {
    metrics::counter!("adas_unaccepted_tool_calls_total").increment(1);
}

/// The `/package.Service/Method` paths a label may name: the contract's, health's
/// and reflection's. Anything else is labelled `unknown`, so a caller sending
/// random paths cannot grow the page without bound.
fn known_methods() -> &'static HashSet<String> {
    static METHODS: OnceLock<HashSet<String>> = OnceLock::new();
    METHODS.get_or_init(|| {
        use prost::Message;
        let mut methods = HashSet::new();
        for set in [
            adas_proto::FILE_DESCRIPTOR_SET,
            tonic_health::pb::FILE_DESCRIPTOR_SET,
        ] {
            let Ok(set) = prost_types::FileDescriptorSet::decode(set) else {
                continue;
            };
            for file in set.file {
                for service in &file.service {
                    for method in &service.method {
                        methods.insert(format!(
                            "/{}.{}/{}",
                            file.package(),
                            service.name(),
                            method.name()
                        ));
                    }
                }
            }
        }
        for reflection in [
            "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
            "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
        ] {
            methods.insert(reflection.to_owned());
        }
        methods
    })
}

/// The `service` and `method` labels of a request path.
pub(crate) fn rpc_labels(path: &str) -> (String, String) {
    if known_methods().contains(path)
        && let Some((service, method)) = path.trim_start_matches('/').split_once('/')
    {
        return (service.to_owned(), method.to_owned());
    }
    ("unknown".into(), "unknown".into())
}

/// Counts a request as it arrives (hops and in-flight).
pub(crate) fn request_started(path: &str) {
    if is_application_rpc(path) {
        SERVED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    metrics::gauge!("adas_grpc_requests_in_flight").increment(1.0);
}

/// Records a request's status and duration once its status is known.
pub(crate) fn request_finished(labels: &(String, String), code: tonic::Code, elapsed: Duration) {
    let labels = [
        ("service", labels.0.clone()),
        ("method", labels.1.clone()),
        ("code", code_name(code).to_owned()),
    ];
    metrics::counter!("adas_grpc_server_requests_total", &labels).increment(1);
    metrics::histogram!("adas_grpc_server_handling_seconds", &labels).record(elapsed);
}

/// The in-flight gauge goes down when a request's future completes or is dropped.
pub(crate) fn request_dropped() {
    metrics::gauge!("adas_grpc_requests_in_flight").decrement(1.0);
}

/// gRPC's canonical code names, as every other gRPC metric spells them.
pub fn code_name(code: tonic::Code) -> &'static str {
    use tonic::Code::*;
    match code {
        Ok => "OK",
        Cancelled => "CANCELLED",
        Unknown => "UNKNOWN",
        InvalidArgument => "INVALID_ARGUMENT",
        DeadlineExceeded => "DEADLINE_EXCEEDED",
        NotFound => "NOT_FOUND",
        AlreadyExists => "ALREADY_EXISTS",
        PermissionDenied => "PERMISSION_DENIED",
        ResourceExhausted => "RESOURCE_EXHAUSTED",
        FailedPrecondition => "FAILED_PRECONDITION",
        Aborted => "ABORTED",
        OutOfRange => "OUT_OF_RANGE",
        Unimplemented => "UNIMPLEMENTED",
        Internal => "INTERNAL",
        Unavailable => "UNAVAILABLE",
        DataLoss => "DATA_LOSS",
        Unauthenticated => "UNAUTHENTICATED",
    }
}

/// `/adas.v1.…` counts as a hop; `/grpc.health.v1.Health/Check` and reflection do not.
fn is_application_rpc(path: &str) -> bool {
    !path.starts_with("/grpc.")
}

type Collector =
    Box<dyn Fn() -> std::pin::Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync + 'static>;

fn collectors() -> &'static Mutex<Vec<std::sync::Arc<Collector>>> {
    static COLLECTORS: OnceLock<Mutex<Vec<std::sync::Arc<Collector>>>> = OnceLock::new();
    COLLECTORS.get_or_init(Mutex::default)
}

/// Runs `collect` before each scrape, for gauges read from elsewhere (the
/// store's queue depth, pending approvals): the page shows them as of the
/// scrape, the same whichever replica answers.
pub fn on_scrape<F, Fut>(collect: F)
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let collector: Collector = Box::new(move || Box::pin(collect()));
    collectors()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .push(std::sync::Arc::new(collector));
}

/// A collector that takes longer than this is left out of the scrape.
const COLLECT_TIMEOUT: Duration = Duration::from_secs(2);

/// Collectors run at most this often (a usual scrape interval): scrapes in
/// between show the gauges as last read, so frequent scrapes (adas-bench
/// reads the page around every job) add almost no store traffic of their own
/// to what they measure.
const COLLECT_INTERVAL: Duration = Duration::from_secs(15);

/// The metrics page, collectors run first (when they have not run lately).
pub async fn render() -> String {
    let handle = install();
    static LAST: Mutex<Option<std::time::Instant>> = Mutex::new(None);
    let due = {
        let mut last = LAST.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let due = last.is_none_or(|at| at.elapsed() >= COLLECT_INTERVAL);
        if due {
            *last = Some(std::time::Instant::now());
        }
        due
    };
    let running: Vec<_> = if due {
        collectors()
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    } else {
        Vec::new()
    };
    for collect in running {
        if tokio::time::timeout(COLLECT_TIMEOUT, collect())
            .await
            .is_err()
        {
            warn!("a metrics collector timed out");
        }
    }
    // Counted by the process whether or not it records (adas-bench reads both).
    metrics::counter!("adas_grpc_requests_served_total").absolute(grpc_requests_served());
    process_collector().collect();
    handle.render()
}

/// Serves `GET /metrics` (404 elsewhere, 405 for other methods) on `addr`
/// until the process ends; the address actually bound.
pub async fn serve_metrics(addr: SocketAddr) -> Result<SocketAddr, RuntimeError> {
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|source| RuntimeError::Bind { addr, source })?;
    let local = listener.local_addr().unwrap_or(addr);
    let handle = install();
    info!(addr = %local, "serving metrics");
    let router = axum::Router::new().route(
        "/metrics",
        axum::routing::get(|| async {
            (
                [(
                    http::header::CONTENT_TYPE,
                    "text/plain; version=0.0.4; charset=utf-8",
                )],
                render().await,
            )
        }),
    );
    tokio::spawn(async move {
        if let Err(error) = axum::serve(listener, router).await {
            warn!(%error, "metrics listener failed");
        }
    });
    // Histograms keep their samples until upkeep folds them into buckets.
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(5)).await;
            handle.run_upkeep();
        }
    });
    Ok(local)
}

#[cfg(test)]
mod tests {
    #[test]
    fn probes_and_reflection_are_not_hops() {
        assert!(super::is_application_rpc(
            "/adas.v1.GateService/CheckToolCall"
        ));
        assert!(!super::is_application_rpc("/grpc.health.v1.Health/Check"));
        assert!(!super::is_application_rpc(
            "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo"
        ));
    }

    #[test]
    fn labels_name_only_methods_of_the_contract() {
        assert_eq!(
            super::rpc_labels("/adas.v1.GateService/CheckToolCall"),
            ("adas.v1.GateService".into(), "CheckToolCall".into())
        );
        assert_eq!(
            super::rpc_labels("/grpc.health.v1.Health/Check"),
            ("grpc.health.v1.Health".into(), "Check".into())
        );
        for hostile in [
            "/adas.v1.GateService/Nope",
            "/x/y",
            "/",
            "/adas.v1.GateService/CheckToolCall/extra",
        ] {
            assert_eq!(
                super::rpc_labels(hostile),
                ("unknown".into(), "unknown".into())
            );
        }
    }
}
