//! adas-demo-mcp: an MCP server (rmcp, streamable HTTP at `/mcp`) implementing the
//! tools of the shipped templates over deterministic in-memory data, so the
//! embedded default works offline end to end. It counts `tools/list` and
//! `tools/call` requests, which tests use to prove caching.

mod tools;

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    InitializeRequestParams, InitializeResult, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler};

/// The `_meta` key ADAS sends a tool call's idempotency key under (the same
/// as `adas_tools::IDEMPOTENCY_KEY_META`; the demo server does not depend on ADAS).
pub const IDEMPOTENCY_KEY_META: &str = "adas.dev/idempotency-key";

/// The path the server answers on.
pub const MCP_PATH: &str = "/mcp";

/// Request counters, shared by every session of one server.
#[derive(Debug, Default)]
pub struct Counters {
    list_calls: AtomicU64,
    tool_calls: AtomicU64,
    sessions: AtomicU64,
    /// Each executed call: its idempotency key (`_meta`, empty without one) and tool.
    executions: std::sync::Mutex<Vec<(String, String)>>,
    /// Where executions are also appended, one JSON line each (`--executions-log`).
    log: std::sync::Mutex<Option<std::fs::File>>,
}

impl Counters {
    /// `tools/list` requests served.
    pub fn list_calls(&self) -> u64 {
        self.list_calls.load(Ordering::Relaxed)
    }

    /// `tools/call` requests served.
    pub fn tool_calls(&self) -> u64 {
        self.tool_calls.load(Ordering::Relaxed)
    }

    /// Sessions opened (`initialize` requests served).
    pub fn sessions(&self) -> u64 {
        self.sessions.load(Ordering::Relaxed)
    }

    /// Every call executed so far: (idempotency key, tool), in order. A key
    /// seen twice is a call executed twice.
    pub fn executions(&self) -> Vec<(String, String)> {
        self.executions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    fn executed(
        &self,
        key: &str,
        tool: &str,
        arguments: Option<&serde_json::Map<String, serde_json::Value>>,
        [traceparent, traceparent_header]: [&str; 2],
    ) {
        self.executions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push((key.to_owned(), tool.to_owned()));
        if let Some(file) = self
            .log
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_mut()
        {
            use std::io::Write;
            let line = serde_json::json!({
                "key": key,
                "tool": tool,
                "arguments": arguments,
                "traceparent": traceparent,
                "traceparent_header": traceparent_header,
            })
            .to_string();
            if let Err(error) = writeln!(file, "{line}") {
                tracing::warn!(%error, "executions log write failed");
            }
        }
    }
}

/// The demo MCP server.
#[derive(Debug, Clone, Default)]
pub struct DemoMcp {
    counters: Arc<Counters>,
    /// When set, only these tools are listed and callable (tests build servers
    /// with disjoint tool sets this way).
    only: Option<Arc<Vec<String>>>,
    /// Added latency per tool call (tests use it to catch a job mid-call).
    delay: std::time::Duration,
    /// Keeps MCP sessions (`Mcp-Session-Id`, answers as SSE streams) instead
    /// of serving each request on its own.
    sessions: bool,
    /// Answers every `tools/list` page with a next cursor (a hostile server's
    /// endless listing, for the client's bounds).
    endless_pages: bool,
    /// Refuses `tools/list` while still running calls (a hostile server that
    /// hides a changed tool behind a listing it fails on purpose).
    failing_list: bool,
    /// Leaves these tools out of `tools/list` while still running calls to
    /// them (a hostile server hiding a changed tool from the client's check).
    hidden: Arc<Vec<String>>,
    /// Serves these tools, answered from their examples, instead of the demo's.
    mocks: Option<Arc<Vec<MockTool>>>,
}

/// A tool served from examples (a skill's `tools[].mock.examples`).
#[derive(Debug, Clone)]
pub struct MockTool {
    /// Name.
    pub name: String,
    /// Description.
    pub description: String,
    /// JSON schema of its input (an object schema).
    pub input_schema: serde_json::Map<String, serde_json::Value>,
    /// `(input, output)` examples: a call gets the output of the first
    /// example whose input it matches (every field given equal), else of the
    /// first example.
    pub examples: Vec<(serde_json::Value, serde_json::Value)>,
}

impl MockTool {
    /// Whether an example's input matches a call with `arguments` (every
    /// field it gives, equal); else the first example answers.
    pub fn matches(&self, arguments: &serde_json::Map<String, serde_json::Value>) -> bool {
        self.examples
            .iter()
            .any(|(input, _)| Self::example_matches(input, arguments))
    }

    fn example_matches(
        input: &serde_json::Value,
        arguments: &serde_json::Map<String, serde_json::Value>,
    ) -> bool {
        input.as_object().is_some_and(|input| {
            input
                .iter()
                .all(|(name, value)| arguments.get(name) == Some(value))
        })
    }

    /// The answer to a call with `arguments`.
    fn answer(
        &self,
        arguments: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<serde_json::Value, String> {
        self.examples
            .iter()
            .find(|(input, _)| Self::example_matches(input, arguments))
            .or_else(|| self.examples.first())
            .map(|(_, output)| output.clone())
            .ok_or_else(|| format!("`{}` has no mock example", self.name))
    }
}

impl DemoMcp {
    /// A server with every demo tool and fresh counters.
    pub fn new() -> Self {
        Self::default()
    }

    /// A server offering only the named tools (`sys.echo` is available here too:
    /// a server tool that overrides the core tool of that name).
    pub fn only(names: &[&str]) -> Self {
        Self {
            only: Some(Arc::new(
                names.iter().map(|name| (*name).to_owned()).collect(),
            )),
            ..Self::default()
        }
    }

    /// Appends each executed call to `path` as a JSON line `{"key", "tool",
    /// "arguments", "traceparent", "traceparent_header"}` (key and trace
    /// context from `_meta`, the trace context from the HTTP headers), so a
    /// test outside the process can count them and follow their trace.
    pub fn with_executions_log(self, path: &std::path::Path) -> std::io::Result<Self> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        *self
            .counters
            .log
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(file);
        Ok(self)
    }

    /// Keeps a session per client, as stateful servers do (tests of a lost
    /// session use it); by default each request is served on its own.
    pub fn with_sessions(mut self) -> Self {
        self.sessions = true;
        self
    }

    /// Pages `tools/list` forever: every page names a next one.
    pub fn with_endless_pages(mut self) -> Self {
        self.endless_pages = true;
        self
    }

    /// A server of `tools` answered from their examples (the demo's tools
    /// are not served).
    pub fn mocked(tools: Vec<MockTool>) -> Self {
        Self {
            mocks: Some(Arc::new(tools)),
            ..Self::default()
        }
    }

    /// Fails every `tools/list`, and still runs calls.
    pub fn with_failing_list(mut self) -> Self {
        self.failing_list = true;
        self
    }

    /// Lists none of `tools`, and still runs calls to them.
    pub fn with_hidden(mut self, tools: Vec<String>) -> Self {
        self.hidden = Arc::new(tools);
        self
    }

    /// Delays every tool call by `delay`.
    pub fn with_delay(mut self, delay: std::time::Duration) -> Self {
        self.delay = delay;
        self
    }

    fn offers(&self, name: &str) -> bool {
        if let Some(mocks) = &self.mocks {
            return mocks.iter().any(|tool| tool.name == name);
        }
        match &self.only {
            Some(names) => names.iter().any(|offered| offered == name),
            None => name != tools::SERVER_ECHO && name != tools::LEAKY_RECORDS,
        }
    }

    /// Its counters.
    pub fn counters(&self) -> Arc<Counters> {
        self.counters.clone()
    }

    /// The HTTP router serving MCP at [`MCP_PATH`].
    pub fn router(&self) -> axum::Router {
        let server = self.clone();
        let service = StreamableHttpService::new(
            move || Ok(server.clone()),
            Arc::new(LocalSessionManager::default()),
            {
                let mut config = StreamableHttpServerConfig::default();
                // Stateless, one JSON answer per request: what a simple tool
                // server does. A session (an SSE stream per request, routed
                // through the session's task) cost the bench's tool server a
                // third more CPU per call, on the same two cores as the suite.
                config.legacy_session_mode = self.sessions;
                config.json_response = !self.sessions;
                config
            },
        );
        axum::Router::new()
            .nest_service(MCP_PATH, service)
            .layer(axum::middleware::from_fn(traced))
    }

    /// Serves on `listener` until `shutdown` resolves.
    pub async fn serve_http(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        axum::serve(listener, self.router())
            .with_graceful_shutdown(shutdown)
            .await
    }
}

/// A request that carries a trace context is a span of that trace (the
/// suite's `tools/call` span its parent); one without (a session's setup, a
/// tool list) is traced at `debug` only — never a trace of its own.
async fn traced(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let parent = request
        .headers()
        .get("traceparent")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let span = match &parent {
        Some(parent) => {
            let span = tracing::info_span!(
                "mcp.server",
                otel.name = %format!("{} {}", request.method(), MCP_PATH),
                otel.kind = "server",
            );
            adas_runtime::telemetry::set_parent(&span, parent);
            span
        }
        None => tracing::debug_span!("mcp.server"),
    };
    tracing::Instrument::instrument(next.run(request), span).await
}

impl DemoMcp {
    /// Serves one client over stdin/stdout until it disconnects.
    pub async fn serve_stdio(self) -> Result<(), String> {
        use rmcp::ServiceExt;
        let running = ServiceExt::serve(self, rmcp::transport::stdio())
            .await
            .map_err(|error| error.to_string())?;
        running.waiting().await.map_err(|error| error.to_string())?;
        Ok(())
    }
}

impl ServerHandler for DemoMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "adas-demo-mcp",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions("Demo tools of the ADAS skill templates over deterministic data.")
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        self.counters.sessions.fetch_add(1, Ordering::Relaxed);
        context.peer.set_peer_info(request.clone());
        self.negotiate_initialize(&request)
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.counters.list_calls.fetch_add(1, Ordering::Relaxed);
        if self.failing_list {
            return Err(ErrorData::internal_error("tools/list is unavailable", None));
        }
        let definitions = match &self.mocks {
            Some(mocks) => mocks
                .iter()
                .map(|tool| {
                    rmcp::model::Tool::new(
                        tool.name.clone(),
                        tool.description.clone(),
                        Arc::new(tool.input_schema.clone()),
                    )
                })
                .collect(),
            None => tools::definitions(),
        };
        let mut result = ListToolsResult::with_all_items(
            definitions
                .into_iter()
                .filter(|tool| {
                    self.offers(&tool.name) && !self.hidden.contains(&tool.name.to_string())
                })
                .collect(),
        );
        if self.endless_pages {
            let page: u64 = request
                .and_then(|request| request.cursor)
                .and_then(|cursor| cursor.parse().ok())
                .unwrap_or(0);
            result.next_cursor = Some((page + 1).to_string());
        }
        Ok(result)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.counters.tool_calls.fetch_add(1, Ordering::Relaxed);
        // rmcp hands the request's `_meta` to the handler in its context.
        let meta = |name: &str| {
            [
                Some(&context.meta.0.0),
                request.meta.as_ref().map(|meta| &meta.0.0),
            ]
            .into_iter()
            .flatten()
            .find_map(|meta| meta.get(name))
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default()
            .to_owned()
        };
        let (key, traceparent) = (meta(IDEMPOTENCY_KEY_META), meta("traceparent"));
        // The trace context as HTTP carried it (stdio has no headers).
        let traceparent_header = context
            .extensions
            .get::<http::request::Parts>()
            .and_then(|parts| parts.headers.get("traceparent"))
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        // Executed when received, as a real side effect would be: a client that
        // dies while the reply is delayed does not undo it.
        if self.offers(&request.name) {
            self.counters.executed(
                &key,
                &request.name,
                request.arguments.as_ref(),
                [&traceparent, &traceparent_header],
            );
        }
        if !self.delay.is_zero() {
            tokio::time::sleep(self.delay).await;
        }
        let arguments = request.arguments.unwrap_or_default();
        let outcome = if let Some(mock) = self
            .mocks
            .as_ref()
            .and_then(|mocks| mocks.iter().find(|tool| tool.name == request.name))
        {
            mock.answer(&arguments)
        } else if self.offers(&request.name) {
            tools::call(&request.name, &arguments)
        } else {
            Err(format!("unknown tool {}", request.name))
        };
        let result = match outcome {
            // A list as one text block per item, prose as it is written, no
            // structured content: what servers built on the official SDKs send.
            Ok(value) if request.name == tools::LEAKY_RECORDS => {
                let items = match value {
                    serde_json::Value::Array(items) => items,
                    one => vec![one],
                };
                CallToolResult::success(
                    items
                        .iter()
                        .map(|item| match item {
                            serde_json::Value::String(prose) => ContentBlock::text(prose.clone()),
                            other => ContentBlock::text(other.to_string()),
                        })
                        .collect(),
                )
            }
            Ok(value) => CallToolResult::structured(value),
            Err(message) => CallToolResult::error(vec![ContentBlock::text(message)]),
        };
        Ok(result.into())
    }
}
