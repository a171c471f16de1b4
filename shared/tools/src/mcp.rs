//! The MCP client (over rmcp): list tools and call a tool on a server given by
//! URI — streamable HTTP (`http://…`) or an operator-configured local command
//! over stdio (`stdio:NAME`). Every URI passes the [`EgressPolicy`] before any
//! connection, HTTP connections are pinned to the address the policy checked and
//! never follow redirects. Every call has a connect and a call timeout and a
//! bounded response size; failures are typed, and their text never carries what
//! a server sent (details go to the log).
//!
//! HTTP sessions are opened once per server URI and reused: a session costs an
//! `initialize` exchange, which adas-bench measured at twice a tool call. A
//! session the server dropped (restart, expiry) is replaced and the operation
//! retried once — only when it failed to be *sent*, so a tool never runs twice.
//! stdio servers get one session (one child process) per operation.
//!
//! Each server is a compartment of its own (a bulkhead): its session opens
//! under its own lock, so a server that never answers holds up only its own
//! callers, and a circuit breaker refuses calls to a server that failed
//! [`BREAKER_THRESHOLD`] times in a row (unreachable, timed out) for
//! [`BREAKER_COOLDOWN`], then lets one call through to try it again.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::{Map, Value as Json};

use crate::egress::{EgressDenied, EgressPolicy, Target};
use crate::spec::{ToolSource, ToolSpec};

/// Why an MCP operation failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum McpError {
    /// The server could not be reached (refused, not running, bad command).
    #[error("cannot reach {uri}: {reason}")]
    Unreachable {
        /// The server.
        uri: String,
        /// Why.
        reason: String,
    },
    /// The server did not answer in time.
    #[error("{uri} did not answer within {after_ms} ms")]
    Timeout {
        /// The server.
        uri: String,
        /// The timeout.
        after_ms: u64,
    },
    /// The tool ran and reported an error result.
    #[error("tool `{tool}` failed: {message}")]
    ToolFailed {
        /// The tool.
        tool: String,
        /// Its error text.
        message: String,
    },
    /// The server broke the protocol (or rejected the request).
    #[error("protocol error with {uri}: {reason}")]
    Protocol {
        /// The server.
        uri: String,
        /// Why.
        reason: String,
    },
    /// The response was larger than allowed.
    #[error("response from {uri} exceeds {limit} bytes")]
    TooLarge {
        /// The server.
        uri: String,
        /// The limit.
        limit: usize,
    },
    /// The egress policy refuses the URI; nothing was contacted.
    #[error(transparent)]
    Denied(#[from] EgressDenied),
}

/// Pages of one `tools/list` a server may answer with.
pub const MAX_LIST_PAGES: usize = 64;

/// Why a listing stopped before its end.
enum ListOverflow {
    /// Past `max_response_bytes` in all.
    Bytes,
    /// Past [`MAX_LIST_PAGES`].
    Pages,
}

/// Lists and calls MCP tools; the seam the tool cache and the Orchestrator use.
#[async_trait]
pub trait McpConnector: Send + Sync {
    /// The server's tools as specs.
    async fn list_tools(&self, uri: &str) -> Result<Vec<ToolSpec>, McpError>;
    /// Calls a tool; a successful result is its structured content, else its text
    /// (parsed as JSON when it is JSON, else `{"text": …}`). `meta` goes in the
    /// request's `_meta`: the idempotency key ([`IDEMPOTENCY_KEY_META`]) lets
    /// the server recognise a call it has already run.
    async fn call_tool(
        &self,
        uri: &str,
        tool: &str,
        args: &Map<String, Json>,
        meta: CallMeta<'_>,
    ) -> Result<Json, McpError>;
}

/// What a tool call carries beside its arguments, in the request's `_meta`.
#[derive(Debug, Clone, Copy, Default)]
pub struct CallMeta<'a> {
    /// The call's idempotency key ([`IDEMPOTENCY_KEY_META`]).
    pub idempotency_key: Option<&'a str>,
    /// The W3C `traceparent` of the calling span (`_meta.traceparent`, the
    /// MCP convention for trace context), so the server's spans join the job's trace.
    pub traceparent: Option<&'a str>,
}

impl<'a> CallMeta<'a> {
    /// A call with an idempotency key and nothing else.
    pub fn key(idempotency_key: &'a str) -> Self {
        Self {
            idempotency_key: Some(idempotency_key),
            traceparent: None,
        }
    }
}

/// The `_meta` key of a tool call's idempotency key: the same key means the
/// same call of the same job (a retry or a takeover), never another.
pub const IDEMPOTENCY_KEY_META: &str = "adas.dev/idempotency-key";

/// Limits of the rmcp connector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct McpLimits {
    /// Connecting and initializing a session.
    pub connect_timeout: Duration,
    /// One list or call.
    pub call_timeout: Duration,
    /// Largest tool list or result accepted, in bytes of JSON.
    pub max_response_bytes: usize,
}

impl Default for McpLimits {
    fn default() -> Self {
        Self {
            connect_timeout: Duration::from_secs(5),
            call_timeout: Duration::from_secs(30),
            max_response_bytes: 4 * 1024 * 1024,
        }
    }
}

/// The MCP connector over rmcp.
#[derive(Debug, Clone, Default)]
pub struct RmcpConnector {
    limits: McpLimits,
    policy: Arc<EgressPolicy>,
    /// CA certificates trusted for `https://` servers beside the system's.
    extra_roots: Arc<Vec<reqwest::Certificate>>,
    /// One compartment per server URI (the map's lock is never held across an await).
    servers: Arc<std::sync::Mutex<HashMap<String, Arc<Compartment>>>>,
}

type Session = RunningService<RoleClient, ()>;

/// Consecutive failures (unreachable, timed out) that open a server's circuit.
pub const BREAKER_THRESHOLD: u32 = 5;
/// How long an open circuit refuses calls before one is let through to try.
pub const BREAKER_COOLDOWN: Duration = Duration::from_secs(10);

/// One server's share of the connector: its kept session (the lock is held
/// while it opens, for this server only) and its circuit breaker.
#[derive(Debug, Default)]
struct Compartment {
    session: tokio::sync::Mutex<Option<Arc<Session>>>,
    breaker: std::sync::Mutex<Breaker>,
}

#[derive(Debug, Default)]
struct Breaker {
    /// Failures in a row.
    failures: u32,
    /// While set and in the future, calls are refused.
    open_until: Option<std::time::Instant>,
}

impl Compartment {
    fn breaker(&self) -> std::sync::MutexGuard<'_, Breaker> {
        self.breaker
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Refuses a call while the circuit is open; past the cooldown one call
    /// goes through (the window is pushed back meanwhile, so only one).
    fn admit(&self, uri: &str) -> Result<(), McpError> {
        let mut breaker = self.breaker();
        let now = std::time::Instant::now();
        match breaker.open_until {
            Some(until) if now < until => Err(McpError::Unreachable {
                uri: uri.to_owned(),
                reason: format!(
                    "circuit open: {} failures in a row; calls are refused for up to {} s",
                    breaker.failures,
                    until.saturating_duration_since(now).as_secs().max(1)
                ),
            }),
            Some(_) => {
                breaker.open_until = Some(now + BREAKER_COOLDOWN);
                Ok(())
            }
            None => Ok(()),
        }
    }

    fn record(&self, outcome: &Result<(), &McpError>) {
        let mut breaker = self.breaker();
        match outcome {
            Err(McpError::Unreachable { .. } | McpError::Timeout { .. }) => {
                breaker.failures += 1;
                if breaker.failures >= BREAKER_THRESHOLD {
                    breaker.open_until = Some(std::time::Instant::now() + BREAKER_COOLDOWN);
                }
            }
            // An answer, even a refusal, says the server is there.
            _ => *breaker = Breaker::default(),
        }
    }
}

/// Installs rustls with ring as the process's TLS provider (tonic's is ring
/// too). reqwest is built without one, so any reqwest client — ours, or rmcp's
/// own default one — needs this first; it is idempotent.
pub fn install_crypto_provider() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// A fixed description of an operation's failure: rmcp's own text can carry
/// what the server sent.
fn protocol_reason(error: &ServiceError) -> &'static str {
    match error {
        ServiceError::McpError(_) => "the server rejected the request",
        ServiceError::TransportSend(_) | ServiceError::TransportClosed => {
            "the connection to the server was lost"
        }
        ServiceError::UnexpectedResponse => "the server sent an unexpected response",
        ServiceError::Cancelled { .. } => "the request was cancelled",
        ServiceError::Timeout { .. } => "the server did not answer in time",
        _ => "the MCP exchange failed",
    }
}

/// Whether an operation failed before reaching the server, so the session is
/// dead and a retry on a new one cannot run anything twice.
fn session_lost(error: &ServiceError) -> bool {
    matches!(
        error,
        ServiceError::TransportSend(_) | ServiceError::TransportClosed
    )
}

impl RmcpConnector {
    /// A connector with these limits, allowed to reach what `policy` allows.
    /// (`Default` allows nothing.)
    pub fn new(limits: McpLimits, policy: EgressPolicy) -> Self {
        install_crypto_provider();
        Self {
            limits,
            policy: Arc::new(policy),
            extra_roots: Arc::default(),
            servers: Arc::default(),
        }
    }

    /// Also trusts the CA certificates in `pem` for `https://` servers.
    pub fn with_ca_pem(mut self, pem: &[u8]) -> Result<Self, String> {
        let roots = reqwest::Certificate::from_pem_bundle(pem)
            .map_err(|error| format!("MCP CA certificates: {error}"))?;
        if roots.is_empty() {
            return Err("MCP CA file holds no certificate".into());
        }
        self.extra_roots = Arc::new(roots);
        Ok(self)
    }

    /// The egress policy in force.
    pub fn policy(&self) -> &EgressPolicy {
        &self.policy
    }

    /// The compartment of `uri`, made on first use.
    fn compartment(&self, uri: &str) -> Arc<Compartment> {
        self.servers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .entry(uri.to_owned())
            .or_default()
            .clone()
    }

    /// A session for `uri`: the kept one for HTTP (opened on first use, replaced
    /// once closed), a new one for stdio. The flag says whether it is kept.
    async fn session_for(
        &self,
        uri: &str,
        compartment: &Compartment,
    ) -> Result<(Arc<Session>, bool), McpError> {
        if !(uri.starts_with("http://") || uri.starts_with("https://")) {
            return Ok((Arc::new(self.session(uri).await?), false));
        }
        // Held while connecting: concurrent first uses of a URI open one
        // session, and wait for this server only.
        let mut kept = compartment.session.lock().await;
        if let Some(session) = kept.as_ref()
            && !session.is_transport_closed()
        {
            return Ok((session.clone(), true));
        }
        let session = Arc::new(self.session(uri).await?);
        *kept = Some(session.clone());
        Ok((session, true))
    }

    /// Ends every kept session (the MCP `DELETE`, then the transport), so a
    /// process that stops closes its sessions while their servers still listen
    /// instead of leaving the cleanup to a cancelled task.
    pub async fn close(&self) {
        let compartments: Vec<Arc<Compartment>> = self
            .servers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .drain()
            .map(|(_, compartment)| compartment)
            .collect();
        for compartment in compartments {
            let session = compartment.session.lock().await.take();
            if let Some(session) = session
                && let Ok(session) = Arc::try_unwrap(session)
            {
                let _ = session.cancel().await;
            }
        }
    }

    /// Runs `operation` on a session for `uri` within the call timeout; a kept
    /// session found dead is replaced and the operation tried once more. The
    /// outcome feeds the server's circuit breaker.
    async fn with_session<T, F, Fut>(&self, uri: &str, operation: F) -> Result<T, McpError>
    where
        F: Fn(Arc<Session>) -> Fut,
        Fut: Future<Output = Result<T, ServiceError>>,
    {
        let compartment = self.compartment(uri);
        compartment.admit(uri)?;
        let outcome = self.attempt(uri, &compartment, operation).await;
        compartment.record(&outcome.as_ref().map(|_| ()));
        outcome
    }

    async fn attempt<T, F, Fut>(
        &self,
        uri: &str,
        compartment: &Compartment,
        operation: F,
    ) -> Result<T, McpError>
    where
        F: Fn(Arc<Session>) -> Fut,
        Fut: Future<Output = Result<T, ServiceError>>,
    {
        let mut retried = false;
        loop {
            let (session, kept) = self.session_for(uri, compartment).await?;
            let outcome =
                tokio::time::timeout(self.limits.call_timeout, operation(session.clone())).await;
            let lost = matches!(&outcome, Ok(Err(error)) if session_lost(error));
            if kept && lost {
                // Forgotten if it is still the kept one.
                let mut kept = compartment.session.lock().await;
                if kept
                    .as_ref()
                    .is_some_and(|held| Arc::ptr_eq(held, &session))
                {
                    *kept = None;
                }
            }
            if !kept && let Ok(session) = Arc::try_unwrap(session) {
                let _ = session.cancel().await;
            }
            match outcome {
                Err(_) => {
                    return Err(McpError::Timeout {
                        uri: uri.to_owned(),
                        after_ms: self.limits.call_timeout.as_millis() as u64,
                    });
                }
                Ok(Err(_)) if kept && lost && !retried => retried = true,
                Ok(Err(error)) => {
                    tracing::warn!(%uri, %error, "MCP operation failed");
                    return Err(McpError::Protocol {
                        uri: uri.to_owned(),
                        reason: protocol_reason(&error).into(),
                    });
                }
                Ok(Ok(value)) => return Ok(value),
            }
        }
    }

    async fn session(&self, uri: &str) -> Result<RunningService<RoleClient, ()>, McpError> {
        // Decided before anything is resolved to a connection or a process.
        let target = self.policy.check(uri).await?;
        let unreachable = |what: &str, error: &dyn std::fmt::Display| {
            // The server's words (an error body, a banner) stay in the log: a
            // caller probing internal addresses learns nothing from them.
            tracing::warn!(%uri, %error, "MCP {what} failed");
            McpError::Unreachable {
                uri: uri.to_owned(),
                reason: format!("the MCP {what} failed"),
            }
        };
        let connecting = async {
            match target {
                Target::Http { host, addr, .. } => {
                    install_crypto_provider();
                    let client = crate::traced::TracedHttp::new(|| {
                        let mut client = reqwest::Client::builder();
                        if !self.extra_roots.is_empty() {
                            client = client.tls_certs_merge(self.extra_roots.iter().cloned());
                        }
                        client
                            .resolve(&host, addr)
                            .tcp_nodelay(true)
                            .redirect(reqwest::redirect::Policy::none())
                            .no_proxy()
                    })
                    .map_err(|error| unreachable("client setup", &error))?;
                    let transport = StreamableHttpClientTransport::with_client(
                        client,
                        StreamableHttpClientTransportConfig::with_uri(uri.to_owned()),
                    );
                    ().serve(transport)
                        .await
                        .map_err(|error| unreachable("handshake", &error))
                }
                Target::Stdio { command, .. } => {
                    let mut child = tokio::process::Command::new("sh");
                    child.arg("-c").arg(command).kill_on_drop(true);
                    let transport = TokioChildProcess::new(child)
                        .map_err(|error| unreachable("server start", &error))?;
                    ().serve(transport)
                        .await
                        .map_err(|error| unreachable("handshake", &error))
                }
            }
        };
        tokio::time::timeout(self.limits.connect_timeout, connecting)
            .await
            .map_err(|_| McpError::Timeout {
                uri: uri.to_owned(),
                after_ms: self.limits.connect_timeout.as_millis() as u64,
            })?
    }

    fn check_size(&self, uri: &str, value: &impl serde::Serialize) -> Result<(), McpError> {
        let size = serde_json::to_vec(value)
            .map(|bytes| bytes.len())
            .unwrap_or(usize::MAX);
        if size > self.limits.max_response_bytes {
            return Err(McpError::TooLarge {
                uri: uri.to_owned(),
                limit: self.limits.max_response_bytes,
            });
        }
        Ok(())
    }
}

#[async_trait]
impl McpConnector for RmcpConnector {
    async fn list_tools(&self, uri: &str) -> Result<Vec<ToolSpec>, McpError> {
        // Bounded while it streams, not once it is whole: a server that pages
        // forever (or pages megabytes) is stopped at the bound, and the call
        // timeout bounds the time all pages take.
        let limit = self.limits.max_response_bytes;
        let listed = self
            .with_session(uri, |session| async move {
                let mut tools = Vec::new();
                let mut bytes = 0usize;
                let mut cursor = None;
                for _ in 0..MAX_LIST_PAGES {
                    let page = session
                        .list_tools(Some(
                            rmcp::model::PaginatedRequestParams::default().with_cursor(cursor),
                        ))
                        .await?;
                    bytes = bytes.saturating_add(
                        serde_json::to_vec(&page.tools).map_or(usize::MAX, |page| page.len()),
                    );
                    if bytes > limit {
                        return Ok(Err(ListOverflow::Bytes));
                    }
                    tools.extend(page.tools);
                    cursor = page.next_cursor;
                    if cursor.is_none() {
                        return Ok(Ok(tools));
                    }
                }
                Ok(Err(ListOverflow::Pages))
            })
            .await?;
        let tools = match listed {
            Ok(tools) => tools,
            Err(ListOverflow::Bytes) => {
                return Err(McpError::TooLarge {
                    uri: uri.to_owned(),
                    limit,
                });
            }
            Err(ListOverflow::Pages) => {
                return Err(McpError::Protocol {
                    uri: uri.to_owned(),
                    reason: format!("tools/list went past {MAX_LIST_PAGES} pages"),
                });
            }
        };
        Ok(tools
            .into_iter()
            .map(|tool| {
                let schema = Json::Object((*tool.input_schema).clone());
                ToolSpec::from_schema(
                    &tool.name,
                    tool.description.as_deref().unwrap_or_default(),
                    schema,
                    ToolSource::Mcp {
                        uri: uri.to_owned(),
                    },
                )
                .with_read_only_hint(
                    tool.annotations
                        .as_ref()
                        .and_then(|annotations| annotations.read_only_hint),
                )
            })
            .collect())
    }

    async fn call_tool(
        &self,
        uri: &str,
        tool: &str,
        args: &Map<String, Json>,
        call_meta: CallMeta<'_>,
    ) -> Result<Json, McpError> {
        let mut fields = serde_json::Map::new();
        if let Some(key) = call_meta.idempotency_key {
            fields.insert(
                IDEMPOTENCY_KEY_META.to_owned(),
                Json::String(key.to_owned()),
            );
        }
        if let Some(traceparent) = call_meta.traceparent.filter(|value| !value.is_empty()) {
            fields.insert(
                "traceparent".to_owned(),
                Json::String(traceparent.to_owned()),
            );
        }
        let meta = (!fields.is_empty())
            .then(|| rmcp::model::RequestMetaObject(rmcp::model::MetaObject(fields)));
        let result = self
            .with_session(uri, |session| {
                let mut request =
                    CallToolRequestParams::new(tool.to_owned()).with_arguments(args.clone());
                request.meta = meta.clone();
                async move { session.call_tool(request).await }
            })
            .await?;
        self.check_size(uri, &result)?;
        let text: Vec<String> = result
            .content
            .iter()
            .filter_map(|content| content.as_text().map(|text| text.text.clone()))
            .collect();
        let text = text.join("\n");
        if result.is_error == Some(true) {
            return Err(McpError::ToolFailed {
                tool: tool.to_owned(),
                message: if text.is_empty() {
                    "the tool reported an error".into()
                } else {
                    text
                },
            });
        }
        if let Some(structured) = result.structured_content {
            return Ok(structured);
        }
        Ok(text_result(&result.content, text))
    }
}

/// A result given as text blocks, as JSON where it is: one JSON block is its
/// value, several (how the official Python SDK sends a list) a list of them,
/// so filters and grants see every field; text that is not JSON stays text.
fn text_result(content: &[rmcp::model::ContentBlock], joined: String) -> Json {
    let blocks: Option<Vec<Json>> = content
        .iter()
        .filter_map(|content| content.as_text())
        .map(|text| serde_json::from_str::<Json>(&text.text).ok())
        .collect();
    match blocks {
        Some(mut values) if values.len() == 1 => values.pop().expect("one value"),
        Some(values) if !values.is_empty() => Json::Array(values),
        _ => serde_json::json!({ "text": joined }),
    }
}
