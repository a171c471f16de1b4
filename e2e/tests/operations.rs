//! What an operator relies on, against the real binaries: a Redis that can lose
//! acknowledged writes is refused under `--durability strict` with the CONFIG
//! that fixes it; probes answer while every application slot is taken; after
//! SIGTERM the process reports NOT_SERVING while it still serves.

use std::process::{Command, Stdio};
use std::time::Duration;

use adas_proto::pb;
use adas_proto::service_names;
use adas_testkit::{RedisServer, SpawnedService, scratch_dir, templates_arg, workspace_binary};
use tonic::transport::Channel;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

fn orchestrator_args(root: &std::path::Path, redis: &RedisServer) -> Vec<String> {
    vec![
        "--memory-root".into(),
        root.to_str().unwrap().into(),
        "--templates-dir".into(),
        templates_arg(),
        "--redis-url".into(),
        redis.url(),
    ]
}

async fn health(endpoint: &str, service: &str) -> Result<ServingStatus, String> {
    let channel = Channel::from_shared(endpoint.to_owned())
        .unwrap()
        .connect_timeout(Duration::from_secs(2))
        .connect()
        .await
        .map_err(|error| error.to_string())?;
    let mut request = tonic::Request::new(HealthCheckRequest {
        service: service.into(),
    });
    // A bound on a hang, not a speed assertion: a probe queued behind the
    // held calls would wait for them (30 s).
    request.set_timeout(Duration::from_secs(10));
    let response = HealthClient::new(channel)
        .check(request)
        .await
        .map_err(|status| status.to_string())?;
    Ok(ServingStatus::try_from(response.into_inner().status).unwrap())
}

#[test]
fn strict_durability_refuses_a_volatile_redis_and_names_the_fix() {
    let redis = RedisServer::start();
    redis.raw_command("CONFIG SET maxmemory-policy allkeys-lru");
    let root = scratch_dir("durability");
    let output = Command::new(workspace_binary("adas-orchestrator"))
        .args(orchestrator_args(&root, &redis))
        .args(["--listen", "127.0.0.1:0", "--durability", "strict"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(1),
        "a volatile Redis stops the start"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    for expected in [
        "Redis is not durable",
        "appendonly is `no`",
        "CONFIG SET appendonly yes",
        "appendfsync is `everysec`",
        "CONFIG SET appendfsync always",
        "maxmemory-policy is `allkeys-lru`",
        "CONFIG SET maxmemory-policy noeviction",
    ] {
        assert!(stderr.contains(expected), "{expected:?} in {stderr}");
    }
    assert!(
        !String::from_utf8_lossy(&output.stdout).contains("listening on"),
        "it never served"
    );

    // Relaxed (the dev default) starts on it, with a warning.
    let relaxed = SpawnedService::spawn(
        &workspace_binary("adas-orchestrator"),
        &orchestrator_args(&root, &redis)
            .iter()
            .map(String::as_str)
            .chain(["--durability", "relaxed"])
            .collect::<Vec<_>>(),
        &[],
    );
    drop(relaxed);

    // The fixes it named make it start under strict.
    for fix in [
        "CONFIG SET appendonly yes",
        "CONFIG SET appendfsync always",
        "CONFIG SET maxmemory-policy noeviction",
    ] {
        assert!(redis.raw_command(fix).starts_with("+OK"), "{fix}");
    }
    let strict = SpawnedService::spawn(
        &workspace_binary("adas-orchestrator"),
        &orchestrator_args(&root, &redis)
            .iter()
            .map(String::as_str)
            .chain(["--durability", "strict"])
            .collect::<Vec<_>>(),
        &[],
    );
    drop(strict);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn probes_answer_while_every_slot_is_held() {
    // An MCP server that accepts and never answers: each ResolveTools on it
    // holds its slot until the MCP call timeout (30 s).
    let silent = adas_testkit::SilentServer::start();
    let silent_port = silent.addr().port();
    let root = scratch_dir("probes");
    let service = SpawnedService::spawn(
        &workspace_binary("adas-skill-registry"),
        &[
            "--memory-root",
            root.to_str().unwrap(),
            "--templates-dir",
            &templates_arg(),
            "--mcp-allow",
            "127.0.0.1",
            "--concurrency-limit",
            "1",
            "--request-timeout-ms",
            "60000",
        ],
        &[],
    );
    let endpoint = service.endpoint();
    let channel = Channel::from_shared(endpoint.clone())
        .unwrap()
        .connect_lazy();
    pb::skill_registry_service_client::SkillRegistryServiceClient::new(channel)
        .put_skill(pb::PutSkillRequest {
            name: "skills/silent".into(),
            source: format!(
                "name: Silent\nproblem: {{statement: Hang}}\n\
                 mcp_server: \"http://127.0.0.1:{silent_port}/mcp\"\n\
                 intents: {{supported: [{{id: hang}}]}}\ntools: []\n"
            ),
            ..Default::default()
        })
        .await
        .expect("the skill is stored");
    let mut held = Vec::new();
    for _ in 0..3 {
        let endpoint = endpoint.clone();
        held.push(tokio::spawn(async move {
            let channel = Channel::from_shared(endpoint).unwrap().connect_lazy();
            pb::skill_registry_service_client::SkillRegistryServiceClient::new(channel)
                .resolve_tools(pb::ResolveToolsRequest {
                    skill: "skills/silent".into(),
                })
                .await
        }));
    }
    // The first call holds the one slot once it reached the silent server;
    // the others queue behind it.
    silent.accepted_one().await;
    assert!(
        held.iter().all(|call| !call.is_finished()),
        "the calls hang"
    );
    assert_eq!(
        health(&endpoint, service_names::SKILL_REGISTRY).await,
        Ok(ServingStatus::Serving),
        "the probe passes beside the queue"
    );
    assert!(held.iter().all(|call| !call.is_finished()), "still hanging");
    for call in held {
        call.abort();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_sigterm_it_reports_not_serving_while_it_still_serves() {
    let root = scratch_dir("drain");
    let service = SpawnedService::spawn(
        &workspace_binary("adas-orchestrator"),
        &[
            "--memory-root",
            root.to_str().unwrap(),
            "--templates-dir",
            &templates_arg(),
            // Long enough that a loaded machine sees the drain: the test
            // waits for each condition, not for a fixed time.
            "--drain-delay-ms",
            "10000",
        ],
        &[],
    );
    let endpoint = service.endpoint();
    assert_eq!(
        health(&endpoint, service_names::ORCHESTRATOR).await,
        Ok(ServingStatus::Serving)
    );
    signal(service.pid(), "-TERM");
    // A new connection during the drain delay is accepted and told NOT_SERVING.
    let mut seen = None;
    let deadline = std::time::Instant::now() + Duration::from_secs(8);
    while std::time::Instant::now() < deadline {
        match health(&endpoint, service_names::ORCHESTRATOR).await {
            Ok(ServingStatus::NotServing) => {
                seen = Some(ServingStatus::NotServing);
                break;
            }
            Ok(_) => tokio::time::sleep(Duration::from_millis(20)).await,
            Err(error) => panic!("the listener closed before the drain was seen: {error}"),
        }
    }
    assert_eq!(seen, Some(ServingStatus::NotServing));
    // Calls are still served meanwhile.
    let channel = Channel::from_shared(endpoint.clone())
        .unwrap()
        .connect()
        .await
        .unwrap();
    pb::orchestrator_service_client::OrchestratorServiceClient::new(channel)
        .list_jobs(pb::ListJobsRequest {
            parent: "skills/cs-tier-1".into(),
            ..Default::default()
        })
        .await
        .expect("served during the drain delay");
    assert_eq!(service.wait(Duration::from_secs(30)), Some(0));
}

fn signal(pid: u32, which: &str) {
    assert!(
        Command::new("kill")
            .args([which, &pid.to_string()])
            .status()
            .unwrap()
            .success()
    );
}
