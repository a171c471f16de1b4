//! Interop with a peer implementation: an MCP server written with the official
//! Python SDK (`mcp` on PyPI), on a free loopback port. Our rmcp client lists and
//! calls its tools, and ResolveTools on the real registry binary lists exactly
//! them (beside the core tools) with their schemas.

#![allow(
    clippy::too_many_lines,
    reason = "a test reads as one story; the length cap is for the product's code"
)]

use std::path::PathBuf;

use adas_proto::pb;
use adas_testkit::{SpawnedService, scratch_dir, workspace_binary};
use adas_tools::{McpConnector, McpError, RmcpConnector, ToolSource};
use serde_json::json;
use tonic::transport::Channel;

fn peer() -> SpawnedService {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("python/mcp_peer_server.py");
    SpawnedService::spawn(
        &adas_testkit::python_sdk(),
        &[script.to_str().unwrap()],
        &[],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rmcp_client_lists_and_calls_a_python_sdk_server() {
    let peer = peer();
    let uri = format!("http://{}/mcp", peer.addr());
    let mcp = RmcpConnector::new(
        adas_tools::McpLimits::default(),
        adas_tools::EgressPolicy::new(["127.0.0.1/32"], []).unwrap(),
    );

    let tools = mcp.list_tools(&uri).await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        vec!["celsius_to_fahrenheit", "greet", "ticket_lookup"]
    );
    let greet = tools.iter().find(|tool| tool.name == "greet").unwrap();
    assert_eq!(greet.required_inputs().collect::<Vec<_>>(), vec!["name"]);
    let loud = greet
        .inputs
        .iter()
        .find(|input| input.name == "loud")
        .unwrap();
    assert_eq!((loud.kind.as_str(), loud.required), ("boolean", false));
    assert_eq!(greet.source, ToolSource::Mcp { uri: uri.clone() });

    let args = json!({"name": "Ada", "loud": true})
        .as_object()
        .unwrap()
        .clone();
    let result = mcp
        .call_tool(&uri, "greet", &args, adas_tools::CallMeta::default())
        .await
        .unwrap();
    let greeting = result
        .get("greeting")
        .or_else(|| result.get("result").and_then(|inner| inner.get("greeting")));
    assert_eq!(greeting, Some(&json!("HELLO, ADA!")), "{result}");

    let args = json!({"ticket_id": "T-2"}).as_object().unwrap().clone();
    let error = mcp
        .call_tool(
            &uri,
            "ticket_lookup",
            &args,
            adas_tools::CallMeta::default(),
        )
        .await
        .unwrap_err();
    // The Python SDK hides the exception text; the failure is still a typed tool error.
    assert!(
        matches!(&error, McpError::ToolFailed { tool, .. } if tool == "ticket_lookup"),
        "{error:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resolve_tools_lists_exactly_the_peer_tools() {
    let peer = peer();
    let uri = format!("http://{}/mcp", peer.addr());
    let root = scratch_dir("interop-registry");
    let registry = SpawnedService::spawn(
        &workspace_binary("adas-skill-registry"),
        &[
            "--memory-root",
            root.to_str().unwrap(),
            "--templates-dir",
            &adas_testkit::templates_arg(),
            // The operator allows the peer: loopback is refused unless listed.
            "--mcp-allow",
            &peer.addr().to_string(),
        ],
        &[],
    );
    let channel = Channel::from_shared(registry.endpoint())
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut client = pb::skill_registry_service_client::SkillRegistryServiceClient::new(channel);

    let source = format!(
        "name: Interop\nproblem: {{statement: Greet people}}\nintents: {{supported: [{{id: greet}}]}}\nmcp_server: {uri}\ntools:\n  - name: greet\n    inputs:\n      - name: name\n        type: string\n        required: true\n"
    );
    client
        .put_skill(pb::PutSkillRequest {
            name: "skills/interop".into(),
            source,
            ..Default::default()
        })
        .await
        .unwrap();
    let resolved = client
        .resolve_tools(pb::ResolveToolsRequest {
            skill: "skills/interop".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert!(!resolved.stale);
    let mcp_kind = pb::ToolSourceKind::Mcp as i32;
    let mut peer_tools: Vec<&pb::ToolSpec> = resolved
        .tools
        .iter()
        .filter(|tool| {
            tool.source
                .as_ref()
                .is_some_and(|source| source.kind == mcp_kind)
        })
        .collect();
    peer_tools.sort_by(|a, b| a.name.cmp(&b.name));
    assert_eq!(
        peer_tools
            .iter()
            .map(|tool| tool.name.as_str())
            .collect::<Vec<_>>(),
        vec!["celsius_to_fahrenheit", "greet", "ticket_lookup"]
    );
    assert!(
        peer_tools
            .iter()
            .all(|tool| tool.source.as_ref().unwrap().uri == uri)
    );
    // The skill declares `greet`: the server's other tools are listed apart,
    // never available to its jobs.
    for tool in &peer_tools {
        let (available, availability) = if tool.name == "greet" {
            (true, pb::ToolAvailability::Available)
        } else {
            (false, pb::ToolAvailability::Undeclared)
        };
        assert_eq!(
            (tool.available, tool.availability),
            (available, availability as i32),
            "{}",
            tool.name
        );
    }
    let celsius = peer_tools[0];
    assert_eq!(
        (
            celsius.inputs[0].name.as_str(),
            celsius.inputs[0].r#type.as_str(),
            celsius.inputs[0].required
        ),
        ("celsius", "number", true)
    );
    assert!(
        celsius
            .input_schema
            .as_ref()
            .is_some_and(|schema| schema.fields.contains_key("properties"))
    );
    let core: Vec<&str> = resolved
        .tools
        .iter()
        .filter(|tool| {
            tool.source
                .as_ref()
                .is_some_and(|source| source.kind == pb::ToolSourceKind::Core as i32)
        })
        .map(|tool| tool.name.as_str())
        .collect();
    assert_eq!(
        core,
        vec![
            "sys.askUser",
            "sys.echo",
            "sys.emitUserMessage",
            "sys.escalate"
        ]
    );

    // The registry stays up when the server goes away: stale, then UNAVAILABLE naming it.
    drop(peer);
    client
        .invalidate_tool_cache(pb::InvalidateToolCacheRequest {
            target: Some(pb::invalidate_tool_cache_request::Target::All(true)),
            request_id: String::new(),
        })
        .await
        .unwrap();
    let status = client
        .resolve_tools(pb::ResolveToolsRequest {
            skill: "skills/interop".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), tonic::Code::Unavailable);
    assert!(status.message().contains(&uri), "{}", status.message());
    client
        .get_skill(pb::GetSkillRequest {
            name: "skills/interop".into(),
        })
        .await
        .expect("the registry is still serving");
}

/// The peer on a fixed address, honest or (`rug_pull`) turned hostile.
fn peer_at(listen: &str, rug_pull: bool) -> SpawnedService {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("python/mcp_peer_server.py");
    SpawnedService::spawn(
        &adas_testkit::python_sdk(),
        &[script.to_str().unwrap()],
        &[
            ("PEER_LISTEN", listen),
            ("PEER_RUG_PULL", if rug_pull { "1" } else { "0" }),
        ],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rug_pulled_tool_is_blocked_until_an_admin_accepts_it() {
    let listen = format!("127.0.0.1:{}", adas_testkit::free_port());
    let honest = peer_at(&listen, false);
    let root = scratch_dir("interop-rug-pull");
    // Checked when dropped (after the suite): every call the jobs made was allowed.
    let store = adas_e2e::invariants::CheckedStore::start(&root);
    let suite = store.spawn_up(&root, &["--mcp-allow", &listen], &[]);
    let channel = Channel::from_shared(suite.endpoint())
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut registry =
        pb::skill_registry_service_client::SkillRegistryServiceClient::new(channel.clone());
    let jobs = pb::orchestrator_service_client::OrchestratorServiceClient::new(channel);
    registry
        .put_skill(pb::PutSkillRequest {
            name: "skills/greeter".into(),
            source: format!(
                "name: Greeter\nproblem: {{statement: Greet people}}\nintents: {{supported: [{{id: greet, examples: [greet me]}}]}}\nmcp_server: http://{listen}/mcp\ntools:\n  - name: greet\n    inputs:\n      - {{name: name, type: string, required: true}}\n"
            ),
            ..Default::default()
        })
        .await
        .unwrap();
    let resolve = |mut registry: pb::skill_registry_service_client::SkillRegistryServiceClient<
        Channel,
    >| async move {
        registry
            .resolve_tools(pb::ResolveToolsRequest {
                skill: "skills/greeter".into(),
            })
            .await
            .unwrap()
            .into_inner()
    };
    // First resolution: what the server offers is accepted.
    let first = resolve(registry.clone()).await;
    assert!(first.unaccepted_tools.is_empty());
    assert!(
        first
            .tools
            .iter()
            .all(|tool| tool.available
                || tool.availability == pb::ToolAvailability::Undeclared as i32)
    );

    let run = |mut jobs: pb::orchestrator_service_client::OrchestratorServiceClient<Channel>| async move {
        let job = jobs
            .start_job(pb::StartJobRequest {
                skill: "skills/greeter".into(),
                program: r#"greet(name="Ann")"#.into(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        for _ in 0..500 {
            let job = jobs
                .get_job(pb::GetJobRequest {
                    name: job.name.clone(),
                })
                .await
                .unwrap()
                .into_inner();
            if job.status == pb::JobStatus::Completed as i32
                || job.status == pb::JobStatus::Failed as i32
            {
                return job;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        panic!("the job did not end");
    };
    assert_eq!(
        run(jobs.clone()).await.status,
        pb::JobStatus::Completed as i32
    );

    // The same server, now hostile: another description and schema for `greet`,
    // and a new tool.
    drop(honest);
    let _hostile = peer_at(&listen, true);
    registry
        .invalidate_tool_cache(pb::InvalidateToolCacheRequest {
            target: Some(pb::invalidate_tool_cache_request::Target::All(true)),
            request_id: String::new(),
        })
        .await
        .unwrap();
    let pulled = resolve(registry.clone()).await;
    assert_eq!(pulled.unaccepted_tools, vec!["export_everything", "greet"]);
    let greet = pulled
        .tools
        .iter()
        .find(|tool| tool.name == "greet")
        .unwrap();
    assert!(!greet.available);
    assert!(
        greet.unavailable_reason.contains("changed"),
        "{}",
        greet.unavailable_reason
    );

    let refused = run(jobs.clone()).await;
    assert_eq!(refused.status, pb::JobStatus::Failed as i32);
    assert_eq!(refused.outcome_class, pb::OutcomeClass::PolicyDenied as i32);
    let error = refused.error.unwrap().message;
    assert!(error.contains("--accept"), "{error}");

    // An admin reviews and accepts `greet` only; the new tool stays blocked.
    let accepted = registry
        .accept_tools(pb::AcceptToolsRequest {
            skill: "skills/greeter".into(),
            tools: vec!["greet".into()],
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(accepted.unaccepted_tools, vec!["export_everything"]);
    assert_eq!(run(jobs).await.status, pb::JobStatus::Completed as i32);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn https_mcp_servers_are_reached_and_verified() {
    let pki = adas_testkit::TestPki::new("interop-https");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("python/mcp_peer_server.py");
    let (cert, key) = (pki.cert("server"), pki.key("server"));
    let peer = SpawnedService::spawn(
        &adas_testkit::python_sdk(),
        &[script.to_str().unwrap()],
        &[
            ("PEER_TLS_CERT", cert.to_str().unwrap()),
            ("PEER_TLS_KEY", key.to_str().unwrap()),
        ],
    );
    let uri = format!("https://localhost:{}/mcp", peer.addr().port());
    let policy = || adas_tools::EgressPolicy::new(["127.0.0.1/32"], []).unwrap();
    let trusting = RmcpConnector::new(adas_tools::McpLimits::default(), policy())
        .with_ca_pem(&std::fs::read(pki.cert("ca")).unwrap())
        .unwrap();
    let tools = trusting.list_tools(&uri).await.unwrap();
    assert!(tools.iter().any(|tool| tool.name == "greet"));

    // A server whose certificate no trusted CA signed is not spoken to.
    let strict = RmcpConnector::new(adas_tools::McpLimits::default(), policy());
    let error = strict.list_tools(&uri).await.unwrap_err();
    assert!(matches!(error, McpError::Unreachable { .. }), "{error:?}");
    trusting.close().await;
}
