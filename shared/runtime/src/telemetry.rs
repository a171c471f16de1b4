//! Tracing setup: pretty for terminals, JSON for pipelines, always on stderr so
//! stdout stays free for the machine-readable readiness line; and, with
//! `--otlp-endpoint` (or OpenTelemetry's own `OTEL_EXPORTER_OTLP_*`
//! variables), OpenTelemetry: spans exported over OTLP/HTTP (protobuf) or
//! OTLP/gRPC, the process named by `service.name` and `service.version`,
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
    init(format, filter, &OtlpFlags::default(), "adas");
}

/// The span export a process was asked for on its command line
/// (`--otlp-endpoint`, `--otlp-protocol`); OpenTelemetry's variables fill
/// in what they leave out ([`otlp_target`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OtlpFlags {
    /// A collector's base URL.
    pub endpoint: Option<String>,
    /// `grpc` or `http/protobuf`.
    pub protocol: Option<String>,
}

/// How spans travel to the collector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OtlpProtocol {
    /// OTLP/gRPC (a collector's port 4317).
    Grpc,
    /// OTLP/HTTP with protobuf bodies (port 4318), the default.
    HttpProtobuf,
}

/// Where spans go: the URL as the exporter takes it, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtlpTarget {
    /// For HTTP, the traces URL (`…/v1/traces`); for gRPC, the collector.
    pub url: String,
    /// The protocol.
    pub protocol: OtlpProtocol,
}

/// The span export `flags` and OpenTelemetry's variables (read by `env`)
/// ask for, by the OTLP exporter specification: the endpoint from
/// `--otlp-endpoint`, else `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the traces
/// URL as given), else `OTEL_EXPORTER_OTLP_ENDPOINT` (a base URL, to which
/// HTTP adds `/v1/traces`); the protocol from `--otlp-protocol`, else
/// `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`,
/// else `http/protobuf`. `None`: no export asked for; an error names what
/// cannot be exported to.
pub fn otlp_target(
    flags: &OtlpFlags,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Option<OtlpTarget>, String> {
    let set = |name: &str| env(name).filter(|value| !value.trim().is_empty());
    let protocol = match flags
        .protocol
        .clone()
        .or_else(|| set("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"))
        .or_else(|| set("OTEL_EXPORTER_OTLP_PROTOCOL"))
        .as_deref()
        .map(str::trim)
    {
        None | Some("http/protobuf") => OtlpProtocol::HttpProtobuf,
        Some("grpc") => OtlpProtocol::Grpc,
        Some(other) => {
            return Err(format!(
                "OTLP protocol `{other}` is not supported: `grpc` or `http/protobuf`"
            ));
        }
    };
    // (the URL, whether it names the traces path itself)
    let endpoint = match &flags.endpoint {
        Some(base) => Some((base.clone(), false)),
        None => set("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
            .map(|url| (url, true))
            .or_else(|| set("OTEL_EXPORTER_OTLP_ENDPOINT").map(|base| (base, false))),
    };
    let Some((url, whole)) = endpoint else {
        return Ok(None);
    };
    let url = url.trim().to_owned();
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(format!("OTLP endpoint `{url}`: an http:// or https:// URL"));
    }
    let url = match protocol {
        OtlpProtocol::HttpProtobuf if !whole => format!("{}/v1/traces", url.trim_end_matches('/')),
        _ => url,
    };
    Ok(Some(OtlpTarget { url, protocol }))
}

/// [`init_tracing`], plus span export where `otlp` and OpenTelemetry's
/// variables say, naming this process `service_name`.
pub fn init(format: LogFormat, filter: &str, otlp: &OtlpFlags, service_name: &str) {
    let filter = || EnvFilter::try_new(filter).unwrap_or_else(|_| EnvFilter::new("info"));
    let target = otlp_target(otlp, |name| std::env::var(name).ok()).unwrap_or_else(|error| {
        eprintln!("warning: no trace export: {error}");
        None
    });
    // The log filter is the log's: spans of requests, job steps and tool calls
    // are exported at `info` whatever the log level.
    // The MCP library's own spans (its service loops) are its workings, not
    // the job's: a request's span (`tools/call`, the server's) says enough.
    let exported = tracing_subscriber::filter::Targets::new()
        .with_default(tracing::Level::INFO)
        .with_target("rmcp", tracing_subscriber::filter::LevelFilter::OFF);
    let otel = target.and_then(|target| match tracer(&target, service_name) {
        Ok(tracer) => Some(
            tracing_opentelemetry::layer()
                .with_tracer(tracer)
                .with_filter(exported),
        ),
        Err(error) => {
            eprintln!("warning: no trace export to {}: {error}", target.url);
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
    target: &OtlpTarget,
    service_name: &str,
) -> Result<opentelemetry_sdk::trace::Tracer, Box<dyn std::error::Error>> {
    use opentelemetry_otlp::{WithExportConfig, WithHttpConfig};
    // ring is the process's one provider (tonic's, the MCP and model clients').
    let _ = rustls::crypto::ring::default_provider().install_default();
    let resource = opentelemetry_sdk::Resource::builder()
        .with_service_name(service_name.to_owned())
        .with_attribute(opentelemetry::KeyValue::new(
            "service.version",
            env!("CARGO_PKG_VERSION"),
        ))
        .build();
    let provider = opentelemetry_sdk::trace::SdkTracerProvider::builder().with_resource(resource);
    let provider = match target.protocol {
        OtlpProtocol::HttpProtobuf => provider.with_batch_exporter(
            opentelemetry_otlp::SpanExporter::builder()
                .with_http()
                .with_http_client(
                    reqwest::blocking::Client::builder()
                        .no_proxy()
                        .timeout(std::time::Duration::from_secs(10))
                        .build()?,
                )
                .with_endpoint(target.url.clone())
                .build()?,
        ),
        OtlpProtocol::Grpc => provider.with_batch_exporter(OnItsOwnRuntime::grpc(&target.url)?),
    }
    .build();
    let tracer = provider.tracer("adas");
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    let _ = installed().set(provider);
    Ok(tracer)
}

/// The OTLP/gRPC exporter on a runtime of its own: the batch processor
/// exports from a thread of its own, and tonic's channel needs a Tokio
/// reactor there (the HTTP exporter's blocking client does not).
#[derive(Debug)]
struct OnItsOwnRuntime {
    exporter: opentelemetry_otlp::SpanExporter,
    runtime: tokio::runtime::Runtime,
}

impl OnItsOwnRuntime {
    fn grpc(url: &str) -> Result<Self, Box<dyn std::error::Error>> {
        use opentelemetry_otlp::{WithExportConfig, WithTonicConfig};
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let exporter = {
            let _inside = runtime.enter();
            let builder = opentelemetry_otlp::SpanExporter::builder()
                .with_tonic()
                .with_endpoint(url)
                .with_timeout(std::time::Duration::from_secs(10));
            let builder = if url.starts_with("https://") {
                builder
                    .with_tls_config(tonic::transport::ClientTlsConfig::new().with_native_roots())
            } else {
                builder
            };
            builder.build()?
        };
        Ok(Self { exporter, runtime })
    }
}

impl opentelemetry_sdk::trace::SpanExporter for OnItsOwnRuntime {
    fn export(
        &self,
        batch: Vec<opentelemetry_sdk::trace::SpanData>,
    ) -> impl std::future::Future<Output = opentelemetry_sdk::error::OTelSdkResult> + Send {
        // Called on the batch processor's thread, never on a runtime's.
        let result = self.runtime.block_on(self.exporter.export(batch));
        std::future::ready(result)
    }

    fn shutdown_with_timeout(
        &self,
        timeout: std::time::Duration,
    ) -> opentelemetry_sdk::error::OTelSdkResult {
        self.exporter.shutdown_with_timeout(timeout)
    }

    fn force_flush(&self) -> opentelemetry_sdk::error::OTelSdkResult {
        self.exporter.force_flush()
    }

    fn set_resource(&mut self, resource: &opentelemetry_sdk::Resource) {
        self.exporter.set_resource(resource);
    }
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

/// Links `span` to the span `traceparent` names, in another trace: a
/// person's call (an answer, a decision, a takeover) to the job's trace it
/// resumes, and the job's next step back to that call. Nothing when not
/// tracing or `traceparent` is no W3C trace context.
pub fn link(span: &tracing::Span, traceparent: &str) {
    use opentelemetry::trace::TraceContextExt;
    if traceparent.is_empty() || installed().get().is_none() {
        return;
    }
    let carrier = HashMap::from([("traceparent".to_owned(), traceparent.to_owned())]);
    let context = TraceContextPropagator::new().extract(&carrier);
    let linked = context.span().span_context().clone();
    if linked.is_valid() {
        span.add_link(linked);
    }
}

/// [`link`] on the current span (a served request's).
pub fn link_current(traceparent: &str) {
    link(&tracing::Span::current(), traceparent);
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

#[cfg(test)]
mod otlp_tests {
    use super::*;

    fn target(flags: OtlpFlags, env: &[(&str, &str)]) -> Result<Option<OtlpTarget>, String> {
        otlp_target(&flags, |name| {
            env.iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| (*value).to_owned())
        })
    }

    fn http(url: &str) -> Option<OtlpTarget> {
        Some(OtlpTarget {
            url: url.to_owned(),
            protocol: OtlpProtocol::HttpProtobuf,
        })
    }

    #[test]
    fn the_export_follows_the_flags_then_opentelemetrys_variables() {
        assert_eq!(target(OtlpFlags::default(), &[]), Ok(None));
        let flag = OtlpFlags {
            endpoint: Some("http://collector:4318/".into()),
            protocol: None,
        };
        assert_eq!(
            target(
                flag.clone(),
                &[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://other:4318")]
            ),
            Ok(http("http://collector:4318/v1/traces"))
        );
        // The base endpoint gets the traces path; the traces endpoint is taken as given.
        assert_eq!(
            target(
                OtlpFlags::default(),
                &[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318")]
            ),
            Ok(http("http://c:4318/v1/traces"))
        );
        assert_eq!(
            target(
                OtlpFlags::default(),
                &[
                    ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"),
                    ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://t:9999/spans"),
                ]
            ),
            Ok(http("http://t:9999/spans"))
        );
        // gRPC: the collector's address as given, from either protocol variable.
        let grpc = target(
            OtlpFlags::default(),
            &[
                ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4317"),
                ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"),
                ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "grpc"),
            ],
        );
        assert_eq!(
            grpc,
            Ok(Some(OtlpTarget {
                url: "http://c:4317".into(),
                protocol: OtlpProtocol::Grpc
            }))
        );
        let flagged = OtlpFlags {
            protocol: Some("grpc".into()),
            ..flag
        };
        assert_eq!(
            target(flagged, &[]).unwrap().map(|target| target.protocol),
            Some(OtlpProtocol::Grpc)
        );
    }

    #[test]
    fn what_cannot_be_exported_to_is_said() {
        let json = target(
            OtlpFlags::default(),
            &[
                ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"),
                ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"),
            ],
        );
        assert!(json.unwrap_err().contains("`http/json` is not supported"));
        let bare = target(
            OtlpFlags::default(),
            &[("OTEL_EXPORTER_OTLP_ENDPOINT", "c:4318")],
        );
        assert!(bare.unwrap_err().contains("http:// or https://"));
    }
}
