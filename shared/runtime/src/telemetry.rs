//! Tracing setup: pretty for terminals, JSON for pipelines, always on stderr so
//! stdout stays free for the machine-readable readiness line; and, with
//! `--otlp-endpoint`, OpenTelemetry: spans exported over OTLP/HTTP (protobuf)
//! and the W3C trace context carried across every hop — extracted by the
//! server from `traceparent`, injected by every client channel, kept in the
//! job record so a worker's steps continue the trace of the StartJob that
//! made the job, and sent to MCP servers (HTTP header and `_meta`).

use std::collections::HashMap;
use std::sync::OnceLock;

use opentelemetry::propagation::TextMapPropagator;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::Layer as _;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable, for terminals.
    Pretty,
    /// One JSON object per line, for log pipelines.
    Json,
}

/// Installs the global subscriber. Safe to call twice (the second call is a no-op),
/// so tests that embed servers may call it freely.
pub fn init_tracing(format: LogFormat, filter: &str) {
    init(format, filter, None, "adas");
}

/// [`init_tracing`], plus span export to the OTLP/HTTP collector at
/// `otlp_endpoint` (e.g. `http://127.0.0.1:4318`) naming this process
/// `service_name`.
pub fn init(format: LogFormat, filter: &str, otlp_endpoint: Option<&str>, service_name: &str) {
    let filter = || EnvFilter::try_new(filter).unwrap_or_else(|_| EnvFilter::new("info"));
    // The log filter is the log's: spans of requests, job steps and tool calls
    // are exported at `info` whatever the log level.
    let otel = otlp_endpoint.and_then(|endpoint| match tracer(endpoint, service_name) {
        Ok(tracer) => Some(
            tracing_opentelemetry::layer()
                .with_tracer(tracer)
                .with_filter(tracing_subscriber::filter::LevelFilter::INFO),
        ),
        Err(error) => {
            eprintln!("warning: no trace export to {endpoint}: {error}");
            None
        }
    });
    // Colour only for a person at a terminal: a file, a pipe or a log
    // collector gets plain text (and NO_COLOR is honoured).
    let colour = std::io::IsTerminal::is_terminal(&std::io::stderr())
        && std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty());
    let fmt = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(colour);
    let registry = tracing_subscriber::registry().with(otel);
    let _ = match format {
        LogFormat::Pretty => registry.with(fmt.with_filter(filter())).try_init(),
        LogFormat::Json => registry
            .with(fmt.json().flatten_event(true).with_filter(filter()))
            .try_init(),
    };
}

fn installed() -> &'static OnceLock<opentelemetry_sdk::trace::SdkTracerProvider> {
    static PROVIDER: OnceLock<opentelemetry_sdk::trace::SdkTracerProvider> = OnceLock::new();
    &PROVIDER
}

fn tracer(
    endpoint: &str,
    service_name: &str,
) -> Result<opentelemetry_sdk::trace::Tracer, Box<dyn std::error::Error>> {
    use opentelemetry_otlp::{WithExportConfig, WithHttpConfig};
    // ring is the process's one provider (tonic's, the MCP and model clients').
    let _ = rustls::crypto::ring::default_provider().install_default();
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_http_client(
            reqwest::blocking::Client::builder()
                .no_proxy()
                .timeout(std::time::Duration::from_secs(10))
                .build()?,
        )
        .with_endpoint(format!("{}/v1/traces", endpoint.trim_end_matches('/')))
        .build()?;
    let provider = opentelemetry_sdk::trace::SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_resource(
            opentelemetry_sdk::Resource::builder()
                .with_service_name(service_name.to_owned())
                .build(),
        )
        .build();
    let tracer = provider.tracer("adas");
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    let _ = installed().set(provider);
    Ok(tracer)
}

/// Sends the spans still buffered (at shutdown).
pub fn flush() {
    if let Some(provider) = installed().get() {
        let _ = provider.force_flush();
    }
}

/// The W3C `traceparent` of the current span; empty when not tracing.
pub fn current_traceparent() -> String {
    // Not tracing: no span has a context to pass on (every peer call asks).
    if installed().get().is_none() {
        return String::new();
    }
    let mut carrier = HashMap::new();
    TraceContextPropagator::new().inject_context(&tracing::Span::current().context(), &mut carrier);
    carrier.remove("traceparent").unwrap_or_default()
}

/// `traceparent` as it may leave for a tool server: the same parent span and
/// flags, but a trace id of the suite's own, derived from the job's trace and
/// `scope` (the job). A caller chooses the trace id it sends us; a third
/// party's logs never get it, yet every call of one job carries one id.
/// Empty when `traceparent` is not a W3C trace context.
pub fn egress_traceparent(traceparent: &str, scope: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut parts = traceparent.split('-');
    let (Some(version), Some(trace), Some(span), Some(flags), None) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) else {
        return String::new();
    };
    if version != "00" || trace.len() != 32 || span.len() != 16 || flags.len() != 2 {
        return String::new();
    }
    let digest = Sha256::new()
        .chain_update(b"adas-egress\0")
        .chain_update(trace.as_bytes())
        .chain_update(b"\0")
        .chain_update(scope.as_bytes())
        .finalize();
    let own = hex::encode(&digest[..16]);
    format!("00-{own}-{span}-{flags}")
}

/// Makes `traceparent` (from a request or a job record) the parent of `span`.
pub fn set_parent(span: &tracing::Span, traceparent: &str) {
    if traceparent.is_empty() || installed().get().is_none() {
        return;
    }
    let carrier = HashMap::from([("traceparent".to_owned(), traceparent.to_owned())]);
    let _ = span.set_parent(TraceContextPropagator::new().extract(&carrier));
}

/// The request span of a server, by OpenTelemetry's RPC conventions: named
/// `{rpc.service}/{rpc.method}` (`adas.v1.OrchestratorService/StartJob`),
/// with `rpc.system`, `rpc.service`, `rpc.method` and, once the answer is
/// known, `rpc.grpc.status_code` ([`record_status`]); a child of the
/// caller's `traceparent`.
pub(crate) fn server_span(request: &http::Request<()>) -> tracing::Span {
    // Only the suite's own methods name a span: a path a caller made up is
    // `unknown`, so span names stay a bounded set.
    let (service, method) = crate::metrics::rpc_labels(request.uri().path());
    let span = tracing::info_span!(
        "grpc",
        otel.name = %format!("{service}/{method}"),
        otel.kind = "server",
        otel.status_code = tracing::field::Empty,
        rpc.system = "grpc",
        rpc.service = %service,
        rpc.method = %method,
        rpc.grpc.status_code = tracing::field::Empty,
    );
    if let Some(parent) = request
        .headers()
        .get("traceparent")
        .and_then(|value| value.to_str().ok())
    {
        set_parent(&span, parent);
    }
    span
}

/// Whether spans are exported (`--otlp-endpoint`).
pub(crate) fn exporting() -> bool {
    installed().get().is_some()
}

/// Records a served RPC's status on its span: `rpc.grpc.status_code`, and an
/// error status for the codes the conventions count as a server's error.
pub(crate) fn record_status(span: &tracing::Span, code: tonic::Code) {
    use tonic::Code::*;
    span.record("rpc.grpc.status_code", code as i64);
    if matches!(
        code,
        Unknown | DeadlineExceeded | Unimplemented | Internal | Unavailable | DataLoss
    ) {
        span.record("otel.status_code", "ERROR");
    }
}

/// Adds the current span's `traceparent` to an outgoing call's metadata.
pub(crate) fn inject(metadata: &mut tonic::metadata::MetadataMap) {
    let traceparent = current_traceparent();
    if let Ok(value) = traceparent.parse()
        && !traceparent.is_empty()
    {
        metadata.insert("traceparent", value);
    }
}

#[cfg(test)]
mod egress_tests {
    use super::egress_traceparent;

    #[test]
    fn a_callers_trace_id_never_leaves_and_one_job_keeps_one_id() {
        let caller = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        let sent = egress_traceparent(caller, "job-1");
        assert!(!sent.contains("0af7651916cd43dd8448eb211c80319c"), "{sent}");
        assert!(
            sent.starts_with("00-") && sent.ends_with("-b7ad6b7169203331-01"),
            "{sent}"
        );
        assert_eq!(sent, egress_traceparent(caller, "job-1"));
        assert_ne!(sent, egress_traceparent(caller, "job-2"));
        assert_eq!(egress_traceparent("not a trace", "job-1"), "");
    }
}
