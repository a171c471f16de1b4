//! The one server builder every binary uses, and peer channels.
//!
//! Layers, outer to inner: a request span (so every log line of a request carries
//! its method), a global concurrency limit (backpressure instead of unbounded
//! memory under load), and tonic's per-request timeout (a stuck dependency frees
//! its slot). Health and reflection pass beside the limit's queue, so probes
//! answer while the process is saturated.

use std::future::Future;
use std::io::Write;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::Notify;
use tokio_stream::wrappers::TcpListenerStream;
use tonic::server::NamedService;
use tonic::service::RoutesBuilder;
use tonic::transport::{Channel, Endpoint, Server};
use tonic_health::ServingStatus;
use tracing::{info, warn};

use crate::config::ServerConfig;
use crate::error::RuntimeError;

/// Readiness line printed on stdout once the server accepts connections:
/// `listening on 127.0.0.1:50050`. Tests and scripts wait for it.
const LISTENING_PREFIX: &str = "listening on ";

const HEALTH_SERVICE: &str = "grpc.health.v1.Health";
const REFLECTION_SERVICES: [&str; 2] = [
    "grpc.reflection.v1.ServerReflection",
    "grpc.reflection.v1alpha.ServerReflection",
];

/// Builds and runs a tonic server hosting one or more ADAS services with health,
/// reflection, limits and graceful shutdown.
#[derive(Debug)]
pub struct GrpcServer {
    config: ServerConfig,
    auth: Option<crate::auth::Authenticator>,
    routes: RoutesBuilder,
    service_names: Vec<&'static str>,
}

impl GrpcServer {
    /// A server with no services yet.
    pub fn new(config: &ServerConfig) -> Self {
        Self {
            config: config.clone(),
            auth: None,
            routes: RoutesBuilder::default(),
            service_names: Vec::new(),
        }
    }

    /// Adds a generated service; its name is reported SERVING by health and listed by reflection.
    pub fn add_service<S>(mut self, service: S) -> Self
    where
        S: tower::Service<
                http::Request<tonic::body::Body>,
                Response = http::Response<tonic::body::Body>,
                Error = std::convert::Infallible,
            > + NamedService
            + Clone
            + Send
            + Sync
            + 'static,
        S::Future: Send + 'static,
    {
        self.service_names.push(S::NAME);
        self.routes.add_service(service);
        self
    }

    /// Authenticates callers with `auth` instead of the config's auth file
    /// (`adas up` adds its own internal key).
    pub fn with_auth(mut self, auth: crate::auth::Authenticator) -> Self {
        self.auth = Some(auth);
        self
    }

    /// Names of the services added so far.
    pub fn service_names(&self) -> &[&'static str] {
        &self.service_names
    }

    /// Serves on `listener` until `shutdown` resolves, then reports NOT_SERVING,
    /// stops accepting, and drains in-flight requests for the configured grace period.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), RuntimeError> {
        let auth = match self.auth.clone() {
            Some(auth) => auth,
            None => self.config.authenticator()?,
        };
        let listening = listener.local_addr().ok();
        if auth.is_dev() {
            // Without an auth file every caller holds every role: only processes
            // on this machine may call.
            if listening.is_some_and(|addr| !addr.ip().is_loopback()) {
                return Err(RuntimeError::Startup(
                    "no --auth-file (ADAS_AUTH_FILE): dev mode serves loopback only; \
                     create keys with `adas auth key create` to listen on other addresses"
                        .into(),
                ));
            }
            warn!("dev mode: no auth file, every caller is an admin; serving loopback only");
        }
        let (health_reporter, health_service) = tonic_health::server::health_reporter();
        for name in &self.service_names {
            health_reporter
                .set_service_status(name, ServingStatus::Serving)
                .await;
        }

        let reflection = || {
            let mut builder = tonic_reflection::server::Builder::configure()
                .register_encoded_file_descriptor_set(adas_proto::FILE_DESCRIPTOR_SET)
                .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
                .with_service_name(HEALTH_SERVICE);
            for name in self
                .service_names
                .iter()
                .copied()
                .chain(REFLECTION_SERVICES)
            {
                builder = builder.with_service_name(name);
            }
            builder
        };
        let reflection_v1alpha = reflection().build_v1alpha()?;
        let reflection_v1 = reflection().build_v1()?;

        let (drain_started, drain_signal) = tokio::sync::oneshot::channel::<()>();
        let names = self.service_names.clone();
        let reporter = health_reporter.clone();
        let drain_delay = self.config.drain_delay;
        let on_shutdown = async move {
            shutdown.await;
            // Load balancers learn first, so new traffic goes elsewhere while we drain.
            for name in names.iter().copied().chain([""]) {
                reporter
                    .set_service_status(name, ServingStatus::NotServing)
                    .await;
            }
            // Still serving: a readiness probe must see NOT_SERVING before the
            // listener closes, or the endpoint is removed only after calls fail.
            if !drain_delay.is_zero() {
                info!(
                    drain_delay_ms = drain_delay.as_millis() as u64,
                    "shutdown requested, NOT_SERVING while still serving"
                );
                tokio::time::sleep(drain_delay).await;
            }
            info!("shutdown requested, draining in-flight requests");
            let _ = drain_started.send(());
        };

        let local_addr = listener.local_addr().ok();
        let in_flight = InFlight::default();
        if let Some(addr) = self.config.metrics_listen {
            crate::metrics::serve_metrics(addr).await?;
        }
        crate::compression::set_min_bytes(self.config.compress_min_bytes);
        let mut builder = Server::builder();
        if let Some(files) = &self.config.tls {
            let read = crate::config::read_file;
            let mut tls = tonic::transport::ServerTlsConfig::new().identity(
                tonic::transport::Identity::from_pem(read(&files.cert)?, read(&files.key)?),
            );
            if let Some(ca) = &files.client_ca {
                // A certificate is one way in; a key is the other.
                tls = tls
                    .client_ca_root(tonic::transport::Certificate::from_pem(read(ca)?))
                    .client_auth_optional(true);
            }
            builder = builder
                .tls_config(tls)
                .map_err(|error| RuntimeError::Startup(format!("TLS: {error}")))?;
        }
        let server = builder
            .trace_fn(crate::telemetry::server_span)
            .timeout(self.config.request_timeout)
            .tcp_nodelay(true)
            .http2_keepalive_interval(Some(Duration::from_secs(30)))
            // Outermost: counts every request, so shutdown knows when the drain is done
            // even while idle client connections stay open.
            .layer(in_flight.clone())
            .layer(crate::auth::AuthLayer::new(auth, self.config.quotas()))
            .layer(ConcurrencyLimit::new(self.config.concurrency_limit))
            .layer(crate::compression::StreamsPlain)
            .add_routes(self.routes.routes())
            .add_service(health_service)
            .add_service(reflection_v1)
            .add_service(reflection_v1alpha)
            .serve_with_incoming_shutdown(incoming_nodelay(listener), on_shutdown);

        if let Some(addr) = local_addr {
            info!(%addr, services = ?self.service_names, "serving");
            announce_listening(addr);
        }

        let grace = self.config.shutdown_grace;
        tokio::pin!(server);
        tokio::select! {
            result = &mut server => result?,
            drained = async {
                if drain_signal.await.is_err() {
                    std::future::pending::<()>().await;
                }
                tokio::time::timeout(grace, in_flight.idle()).await.is_ok()
            } => {
                if !drained {
                    warn!(grace_ms = grace.as_millis() as u64, "grace period over, dropping in-flight requests");
                }
            }
        }
        info!("stopped");
        Ok(())
    }
}

/// Whether a request is a probe's or a tool's (health, reflection): those
/// answer at once and never wait behind application calls.
fn is_probe(path: &str) -> bool {
    path.starts_with("/grpc.health.v1.Health/") || path.starts_with("/grpc.reflection.")
}

/// The process-wide concurrency limit (a tower layer): application requests
/// beyond it wait for a permit; probes pass beside it, so calls hanging on a
/// dead dependency never make a liveness probe time out.
/// Each tenant may hold at most half of the permits, so one tenant's flood
/// leaves the other half to everyone else; the suite's own calls (dev mode, a
/// `*` service key) take only from the whole.
#[derive(Debug, Clone)]
struct ConcurrencyLimit {
    permits: Arc<tokio::sync::Semaphore>,
    shares: Arc<crate::quota::TenantShares>,
}

impl ConcurrencyLimit {
    fn new(limit: usize) -> Self {
        Self {
            permits: Arc::new(tokio::sync::Semaphore::new(limit.max(1))),
            shares: Arc::new(crate::quota::TenantShares::new(limit / 2)),
        }
    }
}

impl<S> tower::Layer<S> for ConcurrencyLimit {
    type Service = ConcurrencyLimitService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        ConcurrencyLimitService {
            inner,
            permits: self.permits.clone(),
            shares: self.shares.clone(),
        }
    }
}

/// The service produced by [`ConcurrencyLimit`].
#[derive(Debug, Clone)]
struct ConcurrencyLimitService<S> {
    inner: S,
    permits: Arc<tokio::sync::Semaphore>,
    shares: Arc<crate::quota::TenantShares>,
}

impl<S, Body> tower::Service<http::Request<Body>> for ConcurrencyLimitService<S>
where
    S: tower::Service<http::Request<Body>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    Body: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, context: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(context)
    }

    fn call(&mut self, request: http::Request<Body>) -> Self::Future {
        if is_probe(request.uri().path()) {
            return Box::pin(self.inner.call(request));
        }
        // The service polled ready is the one that must be called.
        let ready = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, ready);
        let permits = self.permits.clone();
        let tenant = request
            .extensions()
            .get::<crate::Principal>()
            .filter(|principal| !principal.acts_for_every_tenant())
            .map(|principal| (self.shares.clone(), principal.tenant.clone()));
        Box::pin(async move {
            // The tenant's share first: a tenant over it waits without
            // holding one of the process' permits.
            let _share = match &tenant {
                Some((shares, tenant)) => Some(shares.acquire(tenant).await),
                None => None,
            };
            // The semaphore is never closed: a permit always comes.
            let _permit = permits.acquire_owned().await;
            inner.call(request).await
        })
    }
}

/// Counts requests in flight (a tower layer) and tells when none is left.
/// Server streams count until their handler returns the stream, not until it ends:
/// streaming clients (WatchJob) resume from their last event id after a restart.
#[derive(Debug, Clone, Default)]
struct InFlight {
    count: Arc<AtomicUsize>,
    idle: Arc<Notify>,
}

impl InFlight {
    /// Resolves once no request is in flight.
    async fn idle(&self) {
        loop {
            let notified = self.idle.notified();
            if self.count.load(Ordering::Acquire) == 0 {
                return;
            }
            notified.await;
        }
    }
}

/// Decrements the in-flight count when the request's future completes or is dropped.
struct InFlightGuard(InFlight);

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        crate::metrics::request_dropped();
        if self.0.count.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

impl<S> tower::Layer<S> for InFlight {
    type Service = InFlightService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        InFlightService {
            inner,
            tracker: self.clone(),
        }
    }
}

/// The service produced by [`InFlight`].
#[derive(Debug, Clone)]
struct InFlightService<S> {
    inner: S,
    tracker: InFlight,
}

impl<S, ReqBody, ResBody> tower::Service<http::Request<ReqBody>> for InFlightService<S>
where
    S: tower::Service<http::Request<ReqBody>, Response = http::Response<ResBody>>,
    S::Future: Send + 'static,
    ResBody: http_body::Body<Data = tonic::codegen::Bytes> + Send + 'static,
    ResBody::Error: Into<tonic::codegen::StdError>,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, context: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(context)
    }

    fn call(&mut self, request: http::Request<ReqBody>) -> Self::Future {
        let path = request.uri().path();
        crate::metrics::request_started(path);
        // Labels, timing and the body wrapper only where a page shows them.
        let recording =
            (crate::metrics::recording() || crate::telemetry::exporting()).then(|| Recording {
                labels: crate::metrics::rpc_labels(path),
                started: std::time::Instant::now(),
                span: tracing::Span::none(),
            });
        self.tracker.count.fetch_add(1, Ordering::AcqRel);
        let guard = InFlightGuard(self.tracker.clone());
        let future = self.inner.call(request);
        Box::pin(async move {
            // The request span is entered while the future is polled (tonic's
            // `trace_fn`), not while `call` runs: it is taken here.
            let mut recording = recording;
            if let Some(recording) = recording.as_mut() {
                recording.span = tracing::Span::current();
            }
            let response = future.await;
            drop(guard);
            let response = response?;
            let Some(recording) = recording else {
                return Ok(response.map(tonic::body::Body::new));
            };
            // A trailers-only answer (every error tonic returns) has its status
            // in the headers; otherwise it comes in the body's trailers.
            if let Some(code) = grpc_status(response.headers()) {
                recording.finish(code);
                return Ok(response.map(tonic::body::Body::new));
            }
            Ok(response.map(|body| {
                tonic::body::Body::new(RecordingBody {
                    inner: tonic::body::Body::new(body),
                    recording: Some(recording),
                })
            }))
        })
    }
}

fn grpc_status(headers: &http::HeaderMap) -> Option<tonic::Code> {
    let value = headers.get("grpc-status")?.to_str().ok()?;
    Some(tonic::Code::from_i32(value.parse().ok()?))
}

/// A request's labels and start, recorded once its status is known.
struct Recording {
    labels: (String, String),
    started: std::time::Instant,
    /// The request's span (the status goes on it too).
    span: tracing::Span,
}

impl Recording {
    fn finish(self, code: tonic::Code) {
        crate::metrics::request_finished(&self.labels, code, self.started.elapsed());
        crate::telemetry::record_status(&self.span, code);
    }
}

/// A response body that records the RPC when its trailers (the status) pass,
/// or as CANCELLED when the client goes away first — unless the body had
/// already ended (a client closing a finished stream cancels nothing).
struct RecordingBody {
    inner: tonic::body::Body,
    recording: Option<Recording>,
}

impl Drop for RecordingBody {
    fn drop(&mut self) {
        if let Some(recording) = self.recording.take() {
            let code = if http_body::Body::is_end_stream(&self.inner) {
                tonic::Code::Ok
            } else {
                tonic::Code::Cancelled
            };
            recording.finish(code);
        }
    }
}

impl http_body::Body for RecordingBody {
    type Data = tonic::codegen::Bytes;
    type Error = tonic::Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(context);
        let code = match &polled {
            Poll::Ready(Some(Ok(frame))) => frame
                .trailers_ref()
                .map(|trailers| grpc_status(trailers).unwrap_or(tonic::Code::Unknown)),
            Poll::Ready(Some(Err(_))) => Some(tonic::Code::Unknown),
            Poll::Ready(None) => Some(tonic::Code::Unknown),
            Poll::Pending => None,
        };
        if let Some(code) = code
            && let Some(recording) = self.recording.take()
        {
            recording.finish(code);
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// Accepted connections with Nagle's algorithm off. `Server::tcp_nodelay` only
/// applies to listeners tonic binds itself; on ours, a response larger than one
/// segment waited for the peer's delayed ACK (~40 ms per RPC, measured by
/// adas-bench on ResolveTools).
fn incoming_nodelay(
    listener: TcpListener,
) -> impl tokio_stream::Stream<Item = std::io::Result<tokio::net::TcpStream>> {
    use tokio_stream::StreamExt;
    TcpListenerStream::new(listener).map(|accepted| {
        accepted.inspect(|stream| {
            if let Err(error) = stream.set_nodelay(true) {
                warn!(%error, "cannot disable Nagle's algorithm on an accepted connection");
            }
        })
    })
}

fn announce_listening(addr: SocketAddr) {
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{LISTENING_PREFIX}{addr}");
    let _ = stdout.flush();
}

/// Binds the listen address.
pub async fn bind(addr: SocketAddr) -> Result<TcpListener, RuntimeError> {
    TcpListener::bind(addr)
        .await
        .map_err(|source| RuntimeError::Bind { addr, source })
}

/// A lazily connecting channel to a peer service (`http://host:port`): the first
/// RPC connects, and a peer that restarts is reconnected without restarting us.
pub fn connect_lazy(addr: &str) -> Result<Channel, RuntimeError> {
    Ok(endpoint(addr)?.connect_lazy())
}

fn endpoint(addr: &str) -> Result<Endpoint, RuntimeError> {
    let endpoint =
        Endpoint::from_shared(addr.to_owned()).map_err(|error| RuntimeError::PeerAddress {
            addr: addr.to_owned(),
            reason: error.to_string(),
        })?;
    Ok(endpoint
        .connect_timeout(Duration::from_secs(5))
        .tcp_nodelay(true)
        .http2_keep_alive_interval(Duration::from_secs(30))
        .keep_alive_while_idle(true))
}

/// [`connect_lazy`] with `credentials` on every call (and their TLS settings
/// for an `https://` address).
pub fn connect_peer(
    addr: &str,
    credentials: &crate::auth::Credentials,
) -> Result<crate::auth::AuthChannel, RuntimeError> {
    let channel = match credentials.tls().filter(|_| addr.starts_with("https://")) {
        Some(tls) => endpoint(addr)?
            .tls_config(tls.clone())
            .map_err(|error| RuntimeError::PeerAddress {
                addr: addr.to_owned(),
                reason: error.to_string(),
            })?
            .connect_lazy(),
        None => connect_lazy(addr)?,
    };
    Ok(tonic::service::interceptor::InterceptedService::new(
        channel,
        credentials.clone(),
    ))
}

/// Resolves on ctrl-c or SIGTERM. The SIGTERM handler is in place when this
/// returns (not when the future is first polled), so a SIGTERM that comes right
/// after a server announced itself is a graceful stop, never the default kill.
/// Call it inside the runtime.
pub fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    let terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    async move {
        let ctrl_c = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        #[cfg(unix)]
        let terminate = async move {
            match terminate {
                Some(mut signal) => {
                    signal.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        #[cfg(not(unix))]
        let terminate = std::future::pending::<()>();
        tokio::select! {
            () = ctrl_c => {},
            () = terminate => {},
        }
    }
}
