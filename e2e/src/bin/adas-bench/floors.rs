//! The floors a job is measured against, in the same run: a Redis GET and
//! the store's CAS, a bare gRPC call, the MCP server's list and call.

use super::*;

pub(super) struct Floors {
    pub(super) redis: redis::aio::MultiplexedConnection,
    pub(super) store: Arc<RedisStore>,
    pub(super) cas_version: u64,
    pub(super) redis_pid: u32,
}

pub(super) async fn measure_floors(
    floors: &mut Floors,
    suite: &Suite,
    sizes: &Sizes,
    figures: &mut Figures,
) -> Result<()> {
    store_and_grpc_floors(floors, suite, sizes, figures).await?;
    mcp_floors(suite, sizes, figures).await
}

/// Redis GET, the store's compare-and-set and a bare gRPC call: latency,
/// and the CPU of both ends.
async fn store_and_grpc_floors(
    floors: &mut Floors,
    suite: &Suite,
    sizes: &Sizes,
    figures: &mut Figures,
) -> Result<()> {
    let bench_pid = std::process::id();
    // Redis GET.
    let cpu_before = precise_cpu_of(&[bench_pid, floors.redis_pid]);
    let sample = timed(sizes.floor_ops, async || {
        let _: Option<String> = redis::cmd("GET")
            .arg("bench:floor")
            .query_async(&mut floors.redis)
            .await?;
        Ok(())
    })
    .await?;
    figures.record("floor redis GET p50", "µs", sample.percentile(0.5));
    figures.record(
        "floor redis GET cpu",
        "µs/op",
        (precise_cpu_of(&[bench_pid, floors.redis_pid]) - cpu_before) * 1e6
            / sizes.floor_ops as f64,
    );
    // The store's compare-and-set (one Lua script).
    let sample = timed(sizes.floor_ops, async || {
        floors.cas_version = floors
            .store
            .write_job(
                "bench-floor",
                "floor",
                JobWrite {
                    policy: None,
                    expected: floors.cas_version,
                    data: Some(b"{}"),
                    status: "running",
                    waiting: WaitingChange::Keep,
                    events: &[],
                    enqueue: None,
                },
            )
            .await?;
        Ok(())
    })
    .await?;
    figures.record("floor store CAS p50", "µs", sample.percentile(0.5));
    // A bare tonic unary RPC: health check on the orchestrator's server.
    let mut health = tonic_health::pb::health_client::HealthClient::new(suite.orchestrator.clone());
    let server_pid = suite.worker_pid();
    let cpu_before = precise_cpu_of(&[bench_pid, server_pid]);
    let sample = timed(sizes.floor_ops, async || {
        health
            .check(tonic_health::pb::HealthCheckRequest::default())
            .await?;
        Ok(())
    })
    .await?;
    figures.record("floor gRPC health p50", "µs", sample.percentile(0.5));
    figures.record(
        "floor gRPC health cpu",
        "µs/op",
        (precise_cpu_of(&[bench_pid, server_pid]) - cpu_before) * 1e6 / sizes.floor_ops as f64,
    );
    Ok(())
}

/// MCP on a kept session, through the suite's connector, spaced as a job
/// calls, and as one bare HTTP POST.
async fn mcp_floors(suite: &Suite, sizes: &Sizes, figures: &mut Figures) -> Result<()> {
    // MCP on a kept session: the protocol's own cost, without session setup.
    // rmcp's own client is a reqwest client: the process's TLS provider first.
    adas_tools::install_crypto_provider();
    let transport =
        rmcp::transport::StreamableHttpClientTransport::from_uri(suite.demo_mcp_url.clone());
    let client = ().serve(transport).await?;
    let mcp_ops = (sizes.floor_ops / 10).max(10);
    let mut list = Sample::default();
    let mut call = Sample::default();
    for _ in 0..mcp_ops {
        let started = Instant::now();
        client.list_all_tools().await?;
        list.push(started.elapsed());
        let started = Instant::now();
        let arguments = json!({"order_id": "ORD-12345"})
            .as_object()
            .cloned()
            .unwrap_or_default();
        client
            .call_tool(CallToolRequestParams::new("check_order_status").with_arguments(arguments))
            .await?;
        call.push(started.elapsed());
    }
    let _ = client.cancel().await;
    figures.record("floor MCP tools/list p50", "µs", list.percentile(0.5));
    figures.record("floor MCP tools/call p50", "µs", call.percentile(0.5));
    // What the suite itself pays per MCP operation (its connector), for comparison.
    let connector = adas_tools::RmcpConnector::new(
        adas_tools::McpLimits::default(),
        adas_tools::EgressPolicy::new(["127.0.0.1/32"], []).expect("a valid policy"),
    );
    let arguments = json!({"order_id": "ORD-12345"})
        .as_object()
        .cloned()
        .unwrap_or_default();
    let check = async || {
        let started = Instant::now();
        connector
            .call_tool(
                &suite.demo_mcp_url,
                "check_order_status",
                &arguments,
                adas_tools::CallMeta::default(),
            )
            .await
            .map(|_| started.elapsed())
    };
    let mut list = Sample::default();
    let mut call = Sample::default();
    for _ in 0..mcp_ops {
        let started = Instant::now();
        connector.list_tools(&suite.demo_mcp_url).await?;
        list.push(started.elapsed());
        call.push(check().await?);
    }
    figures.record("suite MCP tools/list p50", "µs", list.percentile(0.5));
    figures.record("suite MCP tools/call p50", "µs", call.percentile(0.5));
    // As a job calls: after a pause, with the suite's threads gone idle.
    let mut spaced = Sample::default();
    for _ in 0..mcp_ops {
        tokio::time::sleep(CALL_GAP).await;
        spaced.push(check().await?);
    }
    figures.record(
        "suite MCP tools/call 1 ms apart p50",
        "µs",
        spaced.percentile(0.5),
    );
    // The same call as one bare HTTP POST (the server answers JSON without a
    // session): what the MCP client's own tasks add to each call.
    let http = reqwest::Client::builder().tcp_nodelay(true).build()?;
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "check_order_status", "arguments": {"order_id": "ORD-12345"}}
    })
    .to_string();
    for (name, gap) in [
        ("HTTP POST tools/call p50", Duration::ZERO),
        ("HTTP POST tools/call 1 ms apart p50", CALL_GAP),
    ] {
        let mut sample = Sample::default();
        for _ in 0..mcp_ops {
            tokio::time::sleep(gap).await;
            let started = Instant::now();
            let answer = http
                .post(&suite.demo_mcp_url)
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .body(body.clone())
                .send()
                .await?
                .error_for_status()?
                .bytes()
                .await?;
            sample.push(started.elapsed());
            if !answer.starts_with(b"{") {
                return Err("the demo server did not answer the POST in JSON".into());
            }
        }
        figures.record(name, "µs", sample.percentile(0.5));
    }
    Ok(())
}
