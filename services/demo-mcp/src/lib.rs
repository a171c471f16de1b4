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

/// The path the server answers on.
pub const MCP_PATH: &str = "/mcp";

/// Request counters, shared by every session of one server.
#[derive(Debug, Default)]
pub struct Counters {
    list_calls: AtomicU64,
    tool_calls: AtomicU64,
    sessions: AtomicU64,
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

    /// Delays every tool call by `delay`.
    pub fn with_delay(mut self, delay: std::time::Duration) -> Self {
        self.delay = delay;
        self
    }

    fn offers(&self, name: &str) -> bool {
        match &self.only {
            Some(names) => names.iter().any(|offered| offered == name),
            None => name != tools::SERVER_ECHO,
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
            StreamableHttpServerConfig::default(),
        );
        axum::Router::new().nest_service(MCP_PATH, service)
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
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.counters.list_calls.fetch_add(1, Ordering::Relaxed);
        Ok(ListToolsResult::with_all_items(
            tools::definitions()
                .into_iter()
                .filter(|tool| self.offers(&tool.name))
                .collect(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.counters.tool_calls.fetch_add(1, Ordering::Relaxed);
        if !self.delay.is_zero() {
            tokio::time::sleep(self.delay).await;
        }
        let arguments = request.arguments.unwrap_or_default();
        let outcome = if self.offers(&request.name) {
            tools::call(&request.name, &arguments)
        } else {
            Err(format!("unknown tool {}", request.name))
        };
        let result = match outcome {
            Ok(value) => CallToolResult::structured(value),
            Err(message) => CallToolResult::error(vec![ContentBlock::text(message)]),
        };
        Ok(result.into())
    }
}
