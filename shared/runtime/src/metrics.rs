//! Process counters in the Prometheus text format (gRPC requests served and in
//! flight, Redis round trips), on a plain HTTP listener of
//! their own (`--metrics-listen`), so a scraper or `adas-bench` can explain where
//! a job's time goes (gRPC hops served, requests in flight) without touching the
//! gRPC port or its concurrency limit.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tracing::{info, warn};

use crate::error::RuntimeError;

/// Application RPCs served by this process (health and reflection excluded:
/// probes are not part of a job's path).
static GRPC_REQUESTS_SERVED: AtomicU64 = AtomicU64::new(0);

pub(crate) fn count_request(path: &str) {
    if is_application_rpc(path) {
        GRPC_REQUESTS_SERVED.fetch_add(1, Ordering::Relaxed);
    }
}

/// `/adas.v1.…` counts; `/grpc.health.v1.Health/Check` and reflection do not.
fn is_application_rpc(path: &str) -> bool {
    !path.starts_with("/grpc.")
}

/// Tool calls refused because the server's tool definition is not the accepted one.
static UNACCEPTED_TOOL_CALLS: AtomicU64 = AtomicU64::new(0);

/// Counts a call refused for an unaccepted tool definition.
pub fn count_unaccepted_tool_call() {
    UNACCEPTED_TOOL_CALLS.fetch_add(1, Ordering::Relaxed);
}

/// Model calls, input and output tokens spent by this process.
static LLM_CALLS: AtomicU64 = AtomicU64::new(0);
static LLM_INPUT_TOKENS: AtomicU64 = AtomicU64::new(0);
static LLM_OUTPUT_TOKENS: AtomicU64 = AtomicU64::new(0);

/// Counts what a model call (or several) cost.
pub fn count_llm(usage: &adas_llm::Usage) {
    LLM_CALLS.fetch_add(usage.calls, Ordering::Relaxed);
    LLM_INPUT_TOKENS.fetch_add(usage.input_tokens, Ordering::Relaxed);
    LLM_OUTPUT_TOKENS.fetch_add(usage.output_tokens, Ordering::Relaxed);
}

/// Application RPCs this process has served since it started.
pub fn grpc_requests_served() -> u64 {
    GRPC_REQUESTS_SERVED.load(Ordering::Relaxed)
}

/// The metrics page.
pub fn render(in_flight: usize) -> String {
    format!(
        "# HELP adas_grpc_requests_served_total Application RPCs served (health and reflection excluded).\n\
         # TYPE adas_grpc_requests_served_total counter\n\
         adas_grpc_requests_served_total {}\n\
         # HELP adas_grpc_requests_in_flight RPCs being handled now.\n\
         # TYPE adas_grpc_requests_in_flight gauge\n\
         adas_grpc_requests_in_flight {in_flight}\n\
         # HELP adas_redis_round_trips_total Requests sent to Redis (a command, script or pipeline each).\n\
         # TYPE adas_redis_round_trips_total counter\n\
         adas_redis_round_trips_total {}\n\
         # HELP adas_unaccepted_tool_calls_total Tool calls refused: the server's definition of the tool is new or changed since an admin accepted it.\n\
         # TYPE adas_unaccepted_tool_calls_total counter\n\
         adas_unaccepted_tool_calls_total {}\n\
         # HELP adas_llm_calls_total Model calls made by this process (retries included).\n\
         # TYPE adas_llm_calls_total counter\n\
         adas_llm_calls_total {}\n\
         # HELP adas_llm_tokens_total Model tokens spent by this process.\n\
         # TYPE adas_llm_tokens_total counter\n\
         adas_llm_tokens_total{{direction=\"input\"}} {}\n\
         adas_llm_tokens_total{{direction=\"output\"}} {}\n",
        grpc_requests_served(),
        adas_state::redis_round_trips(),
        UNACCEPTED_TOOL_CALLS.load(Ordering::Relaxed),
        LLM_CALLS.load(Ordering::Relaxed),
        LLM_INPUT_TOKENS.load(Ordering::Relaxed),
        LLM_OUTPUT_TOKENS.load(Ordering::Relaxed)
    )
}

/// Serves `GET /metrics` (any path answers the same page) until the process ends.
/// One request per connection: scrapers reconnect, and the handler stays tiny.
pub async fn serve_metrics(
    addr: SocketAddr,
    in_flight: impl Fn() -> usize + Send + Sync + 'static,
) -> Result<SocketAddr, RuntimeError> {
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|source| RuntimeError::Bind { addr, source })?;
    let local = listener.local_addr().unwrap_or(addr);
    info!(addr = %local, "serving metrics");
    tokio::spawn(async move {
        loop {
            let (mut socket, _) = match listener.accept().await {
                Ok(accepted) => accepted,
                Err(error) => {
                    warn!(%error, "metrics listener failed");
                    return;
                }
            };
            let page = render(in_flight());
            tokio::spawn(async move {
                // The request itself does not matter; read what arrived so the
                // client sees an orderly close.
                let mut buffer = [0u8; 1024];
                let _ = socket.read(&mut buffer).await;
                let response = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: text/plain; version=0.0.4\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{page}",
                    page.len()
                );
                let _ = socket.write_all(response.as_bytes()).await;
                let _ = socket.shutdown().await;
            });
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
}
