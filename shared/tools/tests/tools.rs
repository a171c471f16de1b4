//! Tool resolution against real MCP servers (the demo server on loopback, over
//! streamable HTTP) and real caches (memory and a private redis-server).

use std::sync::Arc;
use std::time::{Duration, Instant};

use adas_demo_mcp::{Counters, DemoMcp};
use adas_state::{MemoryStore, RedisStore, TtlCache};
use adas_testkit::RedisServer;
use adas_tools::{
    CacheTtls, DeclaredTool, EgressPolicy, McpConnector, McpError, McpLimits, RmcpConnector,
    ToolInputSpec, ToolRequest, ToolResolver, ToolSource, ToolsError, run_core,
    selection_cache_key,
};
use serde_json::json;
use tokio::sync::oneshot;

struct Server {
    uri: String,
    counters: Arc<Counters>,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    async fn start(server: DemoMcp) -> Self {
        Self::start_on(server, "127.0.0.1:0").await
    }

    /// Serves on a runtime of its own, so that stopping drops every
    /// connection at once, as a process that exits does.
    async fn start_on(server: DemoMcp, addr: &str) -> Self {
        let listener = std::net::TcpListener::bind(addr).unwrap();
        listener.set_nonblocking(true).unwrap();
        let uri = format!("http://{}/mcp", listener.local_addr().unwrap());
        let counters = server.counters();
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                tokio::select! {
                    served = server.serve_http(listener, std::future::pending()) => served.unwrap(),
                    _ = stopped => {}
                }
            });
        });
        Self {
            uri,
            counters,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        let thread = self.thread.take().unwrap();
        tokio::task::spawn_blocking(move || thread.join().unwrap())
            .await
            .unwrap();
    }
}

/// Loopback servers of the test and the demo server as the operator's `demo`
/// stdio command.
fn loopback_policy() -> EgressPolicy {
    let demo = format!(
        "demo={} --stdio",
        adas_testkit::workspace_binary("adas-demo-mcp").display()
    );
    EgressPolicy::new(["127.0.0.1/32"], [demo.as_str(), "dies=exit 3"]).unwrap()
}

fn connector() -> Arc<dyn McpConnector> {
    Arc::new(RmcpConnector::new(
        McpLimits {
            connect_timeout: Duration::from_secs(5),
            call_timeout: Duration::from_secs(10),
            max_response_bytes: 1 << 20,
        },
        loopback_policy(),
    ))
}

fn request(uri: &str) -> ToolRequest {
    ToolRequest {
        mcp_server: Some(uri.to_owned()),
        ..ToolRequest::default()
    }
}

fn names(tools: &[adas_tools::ToolSpec]) -> Vec<&str> {
    tools.iter().map(|tool| tool.name.as_str()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_and_calls_tools_over_streamable_http() {
    let server = Server::start(DemoMcp::new()).await;
    let mcp = connector();
    let tools = mcp.list_tools(&server.uri).await.unwrap();
    let refund = tools
        .iter()
        .find(|tool| tool.name == "process_refund")
        .unwrap();
    assert_eq!(
        refund.required_inputs().collect::<Vec<_>>(),
        vec!["amount", "order_id"]
    );
    assert_eq!(refund.inputs[0].kind, "number");
    assert_eq!(
        refund.source,
        ToolSource::Mcp {
            uri: server.uri.clone()
        }
    );
    let restart = tools
        .iter()
        .find(|tool| tool.name == "restart_service")
        .unwrap();
    assert_eq!(
        restart
            .inputs
            .iter()
            .find(|input| input.name == "environment")
            .unwrap()
            .allowed,
        vec![json!("staging"), json!("production")]
    );

    let args = json!({"order_id": "ORD-12345"})
        .as_object()
        .unwrap()
        .clone();
    let status = mcp
        .call_tool(
            &server.uri,
            "check_order_status",
            &args,
            adas_tools::CallMeta::key("job-1/call-1"),
        )
        .await
        .unwrap();
    // The idempotency key reaches the server in the call's `_meta`.
    assert_eq!(
        server.counters.executions().last(),
        Some(&("job-1/call-1".to_owned(), "check_order_status".to_owned()))
    );
    assert_eq!(
        (status["status"].as_str(), status["carrier"].as_str()),
        (Some("shipped"), Some("UPS"))
    );

    let missing = json!({"order_id": "ORD-404"}).as_object().unwrap().clone();
    let error = mcp
        .call_tool(
            &server.uri,
            "check_order_status",
            &missing,
            adas_tools::CallMeta::default(),
        )
        .await
        .unwrap_err();
    assert_eq!(
        error,
        McpError::ToolFailed {
            tool: "check_order_status".into(),
            message: "order ORD-404 not found".into()
        }
    );

    let small = RmcpConnector::new(
        McpLimits {
            max_response_bytes: 100,
            ..McpLimits::default()
        },
        loopback_policy(),
    );
    assert!(matches!(
        small.list_tools(&server.uri).await,
        Err(McpError::TooLarge { .. })
    ));
    assert!(matches!(
        mcp.list_tools("ftp://nowhere").await,
        Err(McpError::Denied(_))
    ));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_servers_are_reached_by_command() {
    let mcp = connector();
    let uri = "stdio:demo";
    let tools = mcp.list_tools(uri).await.unwrap();
    assert!(names(&tools).contains(&"identity.user.lookup"));
    let args = json!({"email": "alice@company.com"})
        .as_object()
        .unwrap()
        .clone();
    let user = mcp
        .call_tool(
            uri,
            "identity.user.lookup",
            &args,
            adas_tools::CallMeta::default(),
        )
        .await
        .unwrap();
    assert_eq!(user["user_type"], "team_member");

    let error = mcp.list_tools("stdio:dies").await.unwrap_err();
    assert!(
        matches!(
            error,
            McpError::Unreachable { .. } | McpError::Protocol { .. }
        ),
        "{error:?}"
    );
}

async fn skills_on_two_servers_see_disjoint_tools_and_share_entries(cache: Arc<dyn TtlCache>) {
    let orders = Server::start(DemoMcp::only(&["check_order_status", "process_refund"])).await;
    let identity = Server::start(DemoMcp::only(&["identity.user.lookup"])).await;
    let resolver = Arc::new(ToolResolver::new(cache, connector(), CacheTtls::default()));

    // Skill A and C share the orders server, B uses the identity server: all at once.
    let spawn = |uri: &str| {
        let resolver = resolver.clone();
        let request = request(uri);
        tokio::spawn(async move { resolver.resolve(&request).await.unwrap() })
    };
    let (a, b, c) = (spawn(&orders.uri), spawn(&identity.uri), spawn(&orders.uri));
    let (a, b, c) = (a.await.unwrap(), b.await.unwrap(), c.await.unwrap());
    let mcp_names = |resolved: &adas_tools::ResolvedTools| {
        resolved
            .tools
            .iter()
            .filter(|tool| tool.source != ToolSource::Core)
            .map(|tool| tool.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(mcp_names(&a), vec!["check_order_status", "process_refund"]);
    assert_eq!(mcp_names(&b), vec!["identity.user.lookup"]);
    assert_eq!(mcp_names(&c), mcp_names(&a));
    assert_eq!(
        orders.counters.list_calls(),
        1,
        "concurrent misses for one URI make one list call"
    );
    assert_eq!(identity.counters.list_calls(), 1);

    // Later resolutions are served from the cache.
    resolver.resolve(&request(&orders.uri)).await.unwrap();
    assert_eq!(orders.counters.list_calls(), 1);

    // Invalidation forces a refresh.
    assert_eq!(resolver.invalidate_server(&orders.uri).await.unwrap(), 1);
    resolver.resolve(&request(&orders.uri)).await.unwrap();
    assert_eq!(orders.counters.list_calls(), 2);
    orders.stop().await;
    identity.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disjoint_sets_and_shared_entries_in_memory() {
    skills_on_two_servers_see_disjoint_tools_and_share_entries(Arc::new(MemoryStore::new())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disjoint_sets_and_shared_entries_in_redis() {
    let redis = RedisServer::start();
    let store = RedisStore::connect(&redis.url(), "tools").await.unwrap();
    skills_on_two_servers_see_disjoint_tools_and_share_entries(Arc::new(store)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ttl_expiry_refreshes() {
    let server = Server::start(DemoMcp::only(&["check_order_status"])).await;
    let ttls = CacheTtls {
        mcp: Duration::from_millis(40),
        ..CacheTtls::default()
    };
    let resolver = ToolResolver::new(Arc::new(MemoryStore::new()), connector(), ttls);
    resolver.resolve(&request(&server.uri)).await.unwrap();
    assert_eq!(server.counters.list_calls(), 1);
    let deadline = Instant::now() + Duration::from_secs(10);
    while server.counters.list_calls() < 2 {
        assert!(
            Instant::now() < deadline,
            "the expired entry was never refreshed"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
        resolver.resolve(&request(&server.uri)).await.unwrap();
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn merge_rules() {
    let server = Server::start(DemoMcp::only(&[
        "sys.echo",
        "check_order_status",
        "process_refund",
    ]))
    .await;
    let resolver = ToolResolver::new(
        Arc::new(MemoryStore::new()),
        connector(),
        CacheTtls::default(),
    );
    let declared = |name: &str, inputs: Vec<ToolInputSpec>| DeclaredTool {
        name: name.into(),
        description: String::new(),
        inputs,
        never: false,
        approval: false,
        held: None,
    };
    let request = ToolRequest {
        mcp_server: Some(server.uri.clone()),
        pin_scope: None,
        declared: vec![
            declared(
                "check_order_status",
                vec![ToolInputSpec {
                    name: "reason".into(),
                    kind: "string".into(),
                    required: true,
                    description: "why".into(),
                    allowed: vec![],
                }],
            ),
            declared("not_on_server", vec![]),
        ],
        allowed: vec!["*".into()],
        blocked: vec!["process_refund".into(), "sys.escalate".into()],
        ..ToolRequest::default()
    };
    let resolved = resolver.resolve(&request).await.unwrap();
    assert_eq!(
        names(&resolved.tools),
        vec![
            "check_order_status",
            "not_on_server",
            "sys.askUser",
            "sys.echo",
            "sys.emitUserMessage"
        ]
    );
    let echo = resolved
        .tools
        .iter()
        .find(|tool| tool.name == "sys.echo")
        .unwrap();
    assert_eq!(
        echo.source,
        ToolSource::Core,
        "a server tool named like a core tool never shadows it"
    );
    let missing = resolved
        .tools
        .iter()
        .find(|tool| tool.name == "not_on_server")
        .unwrap();
    assert!(
        !missing.available
            && missing
                .unavailable_reason
                .as_deref()
                .unwrap()
                .contains(&server.uri)
    );
    let status = resolved
        .tools
        .iter()
        .find(|tool| tool.name == "check_order_status")
        .unwrap();
    assert_eq!(
        status.required_inputs().collect::<Vec<_>>(),
        vec!["order_id", "reason"],
        "declared inputs merge into the server schema"
    );

    let only_sys = ToolRequest {
        allowed: vec!["sys.*".into()],
        ..request.clone()
    };
    let resolved = resolver.resolve(&only_sys).await.unwrap();
    assert!(
        resolved
            .tools
            .iter()
            .all(|tool| tool.name.starts_with("sys."))
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_server_is_served_stale_or_reported_unavailable() {
    let server = Server::start(DemoMcp::only(&["check_order_status"])).await;
    let uri = server.uri.clone();
    let ttls = CacheTtls {
        mcp: Duration::from_millis(1),
        ..CacheTtls::default()
    };
    let cache = Arc::new(MemoryStore::new());
    let resolver = ToolResolver::new(cache.clone(), connector(), ttls);
    resolver.resolve(&request(&uri)).await.unwrap();
    server.stop().await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while cache
        .cache_get(&adas_tools::resolve::server_key(&uri))
        .await
        .unwrap()
        .is_some_and(|entry| entry.fresh)
    {
        assert!(Instant::now() < deadline, "the entry never turned stale");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }

    let stale = resolver.resolve(&request(&uri)).await.unwrap();
    assert_eq!(stale.stale_sources, vec![uri.clone()]);
    assert!(names(&stale.tools).contains(&"check_order_status"));

    resolver.invalidate_all().await.unwrap();
    match resolver.resolve(&request(&uri)).await {
        Err(ToolsError::Unavailable { uri: reported, .. }) => assert_eq!(reported, uri),
        other => panic!("expected unavailable, got {other:?}"),
    }
}

/// `check_order_status` for ORD-1 through `mcp`.
async fn check_order(mcp: &Arc<dyn McpConnector>, uri: &str) -> serde_json::Value {
    let args = json!({"order_id": "ORD-1"});
    mcp.call_tool(
        uri,
        "check_order_status",
        args.as_object().unwrap(),
        adas_tools::CallMeta::default(),
    )
    .await
    .unwrap()
}

/// Stops `server` and starts `next` on its address, as a restarted process,
/// once this process holds no connection to the old one (a kept connection
/// is closed once the client has seen the server close it).
async fn restart(server: Server, next: DemoMcp) -> Server {
    let addr = server
        .uri
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_owned();
    let port: u16 = addr.rsplit(':').next().unwrap().parse().unwrap();
    server.stop().await;
    while open_connections_to(port) > 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    Server::start_on(next, &addr).await
}

/// Sockets connected to loopback `port` that this machine has not closed
/// (established, or closed by the server only), from `/proc/net/tcp`.
fn open_connections_to(port: u16) -> usize {
    let table = std::fs::read_to_string("/proc/net/tcp").unwrap();
    let remote = format!("0100007F:{port:04X}");
    table
        .lines()
        .skip(1)
        .filter(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            // 01 ESTABLISHED, 08 CLOSE_WAIT.
            fields.get(2) == Some(&remote.as_str()) && matches!(fields.get(3), Some(&"01" | &"08"))
        })
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_are_kept_and_a_restarted_server_gets_a_new_one() {
    let first = Server::start(DemoMcp::new().with_sessions()).await;
    let uri = first.uri.clone();
    let counters = first.counters.clone();
    let mcp = connector();
    mcp.list_tools(&uri).await.unwrap();
    for _ in 0..3 {
        check_order(&mcp, &uri).await;
    }
    assert_eq!(
        (counters.sessions(), counters.tool_calls()),
        (1, 3),
        "one session serves every operation"
    );

    // The server restarts on the same address: its sessions are gone. The next
    // call fails to be delivered on the old session, and runs once on a new one.
    let second = restart(first, DemoMcp::new().with_sessions()).await;
    assert_eq!(check_order(&mcp, &uri).await["order_id"], "ORD-1");
    assert_eq!(
        (second.counters.sessions(), second.counters.tool_calls()),
        (1, 1)
    );
    second.stop().await;
}

#[path = "tools/more.rs"]
mod more;
