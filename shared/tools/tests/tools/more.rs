//! Tools, continued.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_stateless_server_answers_in_json_and_needs_no_new_handshake_after_a_restart()
{
    let first = Server::start(DemoMcp::new()).await;
    let uri = first.uri.clone();
    // The demo server's default: one JSON answer per request, no session.
    adas_tools::install_crypto_provider();
    let answer = reqwest::Client::new()
        .post(&uri)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .body(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                   "params": {"name": "check_order_status", "arguments": {"order_id": "ORD-1"}}})
            .to_string(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(answer.headers()["content-type"], "application/json");
    assert!(answer.headers().get("mcp-session-id").is_none());
    let body: serde_json::Value = serde_json::from_str(&answer.text().await.unwrap()).unwrap();
    assert_eq!(body["result"]["structuredContent"]["order_id"], "ORD-1");

    let mcp = connector();
    for _ in 0..2 {
        check_order(&mcp, &uri).await;
    }
    assert_eq!(
        (first.counters.sessions(), first.counters.tool_calls()),
        (1, 3)
    );
    // Nothing was lost with the old process: the call runs once, with no handshake.
    let second = restart(first, DemoMcp::new()).await;
    assert_eq!(check_order(&mcp, &uri).await["order_id"], "ORD-1");
    assert_eq!(
        (second.counters.sessions(), second.counters.tool_calls()),
        (0, 1)
    );
    second.stop().await;
}

#[test]
pub(super) fn core_tools_run_in_process_and_selection_keys_carry_the_slag() {
    let echo = run_core("sys.echo", json!({"text": "hi"}).as_object().unwrap()).unwrap();
    assert_eq!(echo, json!({"text": "hi"}));
    assert!(
        run_core("sys.askUser", &serde_json::Map::new()).is_err(),
        "asking belongs to DalAgent"
    );
    let a = selection_cache_key("cs-tier-1", "refund my order");
    let b = selection_cache_key("devops-tier-1", "refund my order");
    assert!(a.starts_with("tools:sel:cs-tier-1:") && a != b);
}

#[test]
pub(super) fn a_flipped_read_only_hint_is_a_changed_tool() {
    use adas_tools::{ToolSource, ToolSpec, tool_digest};
    let spec = |hint| {
        ToolSpec::from_schema(
            "restart",
            "Restart a service",
            serde_json::json!({"type": "object"}),
            ToolSource::Core,
        )
        .with_read_only_hint(hint)
    };
    // Without the hint the digest is what it was before hints were read, so
    // definitions accepted then stay accepted.
    let plain = tool_digest(&spec(None));
    assert_ne!(plain, tool_digest(&spec(Some(true))));
    assert_ne!(
        tool_digest(&spec(Some(false))),
        tool_digest(&spec(Some(true)))
    );
}

#[test]
pub(super) fn schemas_refuse_what_does_not_fit() {
    let schema = serde_json::json!({
        "type": "object",
        "properties": {
            "email": {"type": "string", "format": "email"},
            "room": {"type": "string", "pattern": "^[0-9]{1,3}$"},
            "people": {"type": "integer", "minimum": 1, "maximum": 20},
            "when": {"type": "object", "properties": {"day": {"type": "string", "format": "date"}}}
        }
    });
    let fields = |instance: serde_json::Value| -> Vec<String> {
        adas_tools::schema_problems(&schema, &instance)
            .into_iter()
            .map(|(field, _)| field)
            .collect()
    };
    assert!(fields(serde_json::json!({"email": "ann@lib.org", "room": "5", "people": 3, "when": {"day": "2026-11-30"}})).is_empty());
    assert_eq!(
        fields(serde_json::json!({"email": "not an email"})),
        ["email"]
    );
    assert_eq!(fields(serde_json::json!({"room": "study"})), ["room"]);
    assert_eq!(fields(serde_json::json!({"people": 0})), ["people"]);
    assert_eq!(
        fields(serde_json::json!({"when": {"day": "tomorrow"}})),
        ["when"]
    );
}

#[test]
pub(super) fn compiled_schemas_are_kept_per_exact_schema() {
    // Validators are compiled once per process and kept by the schema's exact
    // text: schemas that differ only in a bound or a key never share one.
    let at_most = |maximum: u32| serde_json::json!({"type": "object", "properties": {"people": {"type": "integer", "maximum": maximum}}});
    let instance = serde_json::json!({"people": 10});
    for _ in 0..2 {
        assert_eq!(adas_tools::schema_problems(&at_most(5), &instance).len(), 1);
        assert!(adas_tools::schema_problems(&at_most(20), &instance).is_empty());
        let bad = serde_json::json!({"type": 12});
        assert_eq!(
            adas_tools::schema_problems(&bad, &instance)[0].1,
            adas_tools::schema_problems(&bad, &instance)[0].1
        );
        assert!(
            adas_tools::schema_problems(&bad, &instance)[0]
                .1
                .contains("schema is invalid")
        );
    }
}

/// A cache that counts its reads, standing for the store's round trips.
#[derive(Debug)]
pub(super) struct CountingCache {
    inner: MemoryStore,
    reads: std::sync::atomic::AtomicU64,
}

impl CountingCache {
    fn reads(&self) -> u64 {
        self.reads.load(std::sync::atomic::Ordering::SeqCst)
    }
}

#[async_trait::async_trait]
impl TtlCache for CountingCache {
    async fn cache_get(&self, key: &str) -> adas_state::Result<Option<adas_state::CacheEntry>> {
        self.reads.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.inner.cache_get(key).await
    }
    async fn cache_put(
        &self,
        key: &str,
        value: &[u8],
        fresh_for: Duration,
        keep_for: Duration,
    ) -> adas_state::Result<()> {
        self.inner.cache_put(key, value, fresh_for, keep_for).await
    }
    async fn cache_invalidate(&self, key: &str) -> adas_state::Result<bool> {
        self.inner.cache_invalidate(key).await
    }
    async fn cache_invalidate_prefix(&self, prefix: &str) -> adas_state::Result<u64> {
        self.inner.cache_invalidate_prefix(prefix).await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_warm_resolution_is_served_in_process_and_follows_other_replicas_writes() {
    let server = Server::start(DemoMcp::only(&["check_order_status", "process_refund"])).await;
    let cache = Arc::new(CountingCache {
        inner: MemoryStore::new(),
        reads: Default::default(),
    });
    let mut pinned = request(&server.uri);
    pinned.pin_scope = Some("default/orders".into());

    // Warm: the second resolution reads nothing from the store.
    let resolver = ToolResolver::new(cache.clone(), connector(), CacheTtls::default());
    let first = resolver.resolve(&pinned).await.unwrap();
    assert!(first.unaccepted.is_empty());
    let reads = cache.reads();
    let hit = resolver.resolve(&pinned).await.unwrap();
    assert_eq!(
        cache.reads(),
        reads,
        "an in-process hit costs no store read"
    );
    assert!(
        Arc::ptr_eq(&hit, &first),
        "an in-process hit shares the kept resolution: no schema is copied"
    );
    assert_eq!(server.counters.list_calls(), 1);

    // Another replica changes what a resolution gives (here: it accepted a
    // different definition of process_refund) and writes a new generation. A
    // resolver checking the generation on every call sees it on the next one.
    let checking = ToolResolver::new(cache.clone(), connector(), CacheTtls::default())
        .with_local_recheck(Duration::ZERO);
    assert_eq!(checking.resolve(&pinned).await.unwrap(), first);
    let reads = cache.reads();
    assert_eq!(checking.resolve(&pinned).await.unwrap(), first);
    assert_eq!(
        cache.reads(),
        reads + 1,
        "an unchanged generation costs one read"
    );
    let forever = Duration::from_secs(3600);
    let pins = json!({"check_order_status": adas_tools::tool_digest(
        first.tools.iter().find(|tool| tool.name == "check_order_status").unwrap()
    ), "process_refund": "another definition"});
    cache
        .inner
        .cache_put(
            "pins:default/orders",
            pins.to_string().as_bytes(),
            forever,
            forever,
        )
        .await
        .unwrap();
    cache
        .inner
        .cache_put(
            adas_tools::GENERATION_KEY,
            b"other-replica-1",
            forever,
            forever,
        )
        .await
        .unwrap();
    let after = checking.resolve(&pinned).await.unwrap();
    assert_eq!(after.unaccepted, vec!["process_refund".to_owned()]);

    // In this process, an invalidation through any resolver drops every copy at once.
    resolver.invalidate_server(&server.uri).await.unwrap();
    let reads = cache.reads();
    resolver.resolve(&pinned).await.unwrap();
    assert!(
        cache.reads() > reads,
        "the copy made before the invalidation is not served"
    );
    assert_eq!(server.counters.list_calls(), 2);
    server.stop().await;
}

/// A loopback listener that counts the connections it accepts and then either
/// holds them without a word (`silent`) or closes them at once.
pub(super) fn counting_listener(silent: bool) -> (String, Arc<std::sync::atomic::AtomicUsize>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let uri = format!("http://{}/mcp", listener.local_addr().unwrap());
    let accepted = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = accepted.clone();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming() {
            counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            if silent {
                held.push(stream);
            }
        }
    });
    (uri, accepted)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_server_that_never_answers_holds_up_only_its_own_callers() {
    let healthy = Server::start(DemoMcp::new()).await;
    let (silent, accepted) = counting_listener(true);
    let mcp = connector();
    let hanging: Vec<_> = (0..3)
        .map(|_| {
            let (mcp, silent) = (mcp.clone(), silent.clone());
            tokio::spawn(async move { mcp.list_tools(&silent).await })
        })
        .collect();
    // One of them is opening a session with the silent server (5 s connect
    // timeout), the others wait behind it for that server.
    while accepted.load(std::sync::atomic::Ordering::SeqCst) == 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let tools = mcp.list_tools(&healthy.uri).await.unwrap();
    assert!(!tools.is_empty());
    assert!(
        hanging.iter().all(|call| !call.is_finished()),
        "the healthy server answered while the silent one still held its own callers"
    );
    for call in hanging {
        call.abort();
    }
    healthy.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_failing_server_opens_its_circuit_and_others_are_unaffected() {
    let healthy = Server::start(DemoMcp::new()).await;
    let (broken, accepted) = counting_listener(false);
    let mcp = connector();
    for _ in 0..adas_tools::BREAKER_THRESHOLD {
        let error = mcp.list_tools(&broken).await.unwrap_err();
        assert!(matches!(error, McpError::Unreachable { .. }), "{error}");
    }
    let tried = accepted.load(std::sync::atomic::Ordering::SeqCst);
    assert!(tried >= adas_tools::BREAKER_THRESHOLD as usize);
    // Open: refused at once, without a connection.
    let error = mcp.list_tools(&broken).await.unwrap_err();
    assert!(
        matches!(&error, McpError::Unreachable { reason, .. } if reason.starts_with("circuit open")),
        "{error}"
    );
    assert!(
        mcp.call_tool(
            &broken,
            "process_refund",
            &serde_json::Map::new(),
            adas_tools::CallMeta::key("k")
        )
        .await
        .is_err()
    );
    assert_eq!(accepted.load(std::sync::atomic::Ordering::SeqCst), tried);
    // Another server's calls go on.
    assert!(!mcp.list_tools(&healthy.uri).await.unwrap().is_empty());
    healthy.stop().await;
}

/// A loopback proxy in front of `target` (`http://host:port/mcp`) that counts
/// the connections clients open to it.
pub(super) async fn counting_proxy(target: &str) -> (String, Arc<std::sync::atomic::AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let uri = format!("http://{}/mcp", listener.local_addr().unwrap());
    let upstream = target
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_owned();
    let accepted = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = accepted.clone();
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let upstream = upstream.clone();
            tokio::spawn(async move {
                let mut server = tokio::net::TcpStream::connect(upstream).await.unwrap();
                let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
            });
        }
    });
    (uri, accepted)
}

/// Connections a client opened for a session and `calls` tool calls to
/// `server`, through a counting proxy.
pub(super) async fn connections_for(server: DemoMcp, calls: usize) -> usize {
    let server = Server::start(server).await;
    let (uri, accepted) = counting_proxy(&server.uri).await;
    let mcp = connector();
    for _ in 0..calls {
        check_order(&mcp, &uri).await;
    }
    assert_eq!(server.counters.tool_calls(), calls as u64);
    server.stop().await;
    accepted.load(std::sync::atomic::Ordering::SeqCst)
}

/// A server that answers in JSON is called on kept connections; one that
/// answers with SSE streams gets a new connection per request, since on a kept
/// one each stream's last write would wait ~40 ms for a delayed ACK.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn connections_are_kept_to_a_json_server_and_not_to_a_streaming_one() {
    let calls = 8;
    let json = connections_for(DemoMcp::new(), calls).await;
    assert!(
        json <= 2,
        "{json} connections for {calls} calls to a JSON server: one, kept"
    );
    let streaming = connections_for(DemoMcp::new().with_sessions(), calls).await;
    assert!(
        streaming > calls,
        "{streaming} connections for {calls} calls to a streaming server"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn an_endless_listing_is_cut_at_its_bound_while_it_streams() {
    let server = Server::start(DemoMcp::new().with_endless_pages()).await;
    let error = connector().list_tools(&server.uri).await.unwrap_err();
    assert!(
        matches!(&error, McpError::Protocol { reason, .. } if reason.contains("pages")),
        "{error}"
    );
    // It stopped at the bound: the server saw that many pages, no more.
    assert_eq!(
        server.counters.list_calls(),
        adas_tools::mcp::MAX_LIST_PAGES as u64
    );
    // Bytes are bounded as they arrive: with a small budget the listing stops
    // at the page that passes it, long before the page bound.
    let small = RmcpConnector::new(
        McpLimits {
            connect_timeout: Duration::from_secs(5),
            call_timeout: Duration::from_secs(10),
            max_response_bytes: 16 * 1024,
        },
        loopback_policy(),
    );
    let before = server.counters.list_calls();
    let error = small.list_tools(&server.uri).await.unwrap_err();
    assert!(matches!(error, McpError::TooLarge { .. }), "{error}");
    assert!(server.counters.list_calls() - before < adas_tools::mcp::MAX_LIST_PAGES as u64);
    server.stop().await;
}

/// A declared tool on a connection is the server's tool under the skill's
/// name, once the tenant maps the connection; unmapped, it is unavailable
/// and says how to map it; another tenant's mapping is not this one's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn connections_route_declared_tools_to_their_servers_per_tenant() {
    let server = Server::start(DemoMcp::only(&["check_order_status", "process_refund"])).await;
    let resolver = ToolResolver::new(
        Arc::new(MemoryStore::new()),
        connector(),
        CacheTtls::default(),
    );
    let request = ToolRequest {
        routes: vec![adas_tools::ToolRoute {
            tool: "orders.status".into(),
            connection: "orders-mcp".into(),
            remote: "check_order_status".into(),
        }],
        declared: vec![DeclaredTool {
            name: "orders.status".into(),
            description: String::new(),
            inputs: vec![],
            never: false,
            approval: false,
            held: None,
        }],
        tenant: "acme".into(),
        ..ToolRequest::default()
    };
    let find = |resolved: &adas_tools::ResolvedTools| {
        resolved
            .tools
            .iter()
            .find(|tool| tool.name == "orders.status")
            .cloned()
            .unwrap()
    };
    let unmapped = find(&resolver.resolve(&request).await.unwrap());
    assert!(!unmapped.available);
    assert!(
        unmapped
            .unavailable_reason
            .as_deref()
            .unwrap()
            .contains("adas connector put orders-mcp"),
        "{unmapped:?}"
    );
    resolver
        .put_connector("other", "orders-mcp", &server.uri)
        .await
        .unwrap();
    assert!(!find(&resolver.resolve(&request).await.unwrap()).available);
    resolver
        .put_connector("acme", "orders-mcp", &server.uri)
        .await
        .unwrap();
    let routed = find(&resolver.resolve(&request).await.unwrap());
    assert!(routed.available, "{routed:?}");
    assert_eq!(routed.remote_name.as_deref(), Some("check_order_status"));
    assert_eq!(
        routed.source,
        ToolSource::Mcp {
            uri: server.uri.clone()
        }
    );
    // The server's other tools are not the skill's.
    assert!(
        !resolver
            .resolve(&request)
            .await
            .unwrap()
            .tools
            .iter()
            .any(|tool| tool.name == "process_refund")
    );
    let listed = resolver.connectors("acme").await.unwrap();
    assert_eq!(listed.len(), 1);
    assert!(
        resolver
            .delete_connector("acme", "orders-mcp")
            .await
            .unwrap()
    );
    assert!(!find(&resolver.resolve(&request).await.unwrap()).available);
    server.stop().await;
}
