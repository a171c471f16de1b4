//! Each suite binary, started as a real process on 127.0.0.1:0, reports its
//! service SERVING over grpc.health.v1, lists it through server reflection,
//! answers a contract RPC over real gRPC, and exits cleanly on SIGTERM.

use adas_proto::pb;
use adas_proto::service_names;
use adas_testkit::{SpawnedService, workspace_binary};
use tonic::transport::Channel;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_reflection::pb::v1::ServerReflectionRequest;
use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;

const SINGLE_SERVICE_BINARIES: [(&str, &str); 5] = [
    ("adas-intent", service_names::INTENT),
    ("adas-skill-registry", service_names::SKILL_REGISTRY),
    ("adas-orchestrator", service_names::ORCHESTRATOR),
    ("adas-gate", service_names::GATE),
    ("adas-dal-agent", service_names::DAL_AGENT),
];

async fn channel(service: &SpawnedService) -> Channel {
    Channel::from_shared(service.endpoint())
        .unwrap()
        .connect()
        .await
        .expect("connect to the spawned service")
}

async fn health_status(channel: Channel, service: &str) -> ServingStatus {
    let response = HealthClient::new(channel)
        .check(HealthCheckRequest {
            service: service.to_owned(),
        })
        .await
        .expect("health check answers");
    ServingStatus::try_from(response.into_inner().status).expect("known status")
}

async fn reflected_services(channel: Channel) -> Vec<String> {
    let request = ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut stream = ServerReflectionClient::new(channel)
        .server_reflection_info(tokio_stream::iter([request]))
        .await
        .expect("reflection answers")
        .into_inner();
    let response = stream
        .message()
        .await
        .expect("reflection response")
        .expect("one message");
    match response.message_response {
        Some(MessageResponse::ListServicesResponse(list)) => list
            .service
            .into_iter()
            .map(|service| service.name)
            .collect(),
        other => panic!("unexpected reflection response: {other:?}"),
    }
}

fn terminate(service: SpawnedService) -> Option<i32> {
    let status = std::process::Command::new("kill")
        .args(["-TERM", &service.pid().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    // The grace period is 10 s by default; an idle server exits at once.
    service.wait(std::time::Duration::from_secs(30))
}

#[tokio::test]
async fn each_binary_serves_health_and_reflection_and_stops_on_sigterm() {
    for (binary, service_name) in SINGLE_SERVICE_BINARIES {
        let memory_root = adas_testkit::scratch_dir(binary);
        let service = SpawnedService::spawn(
            &workspace_binary(binary),
            &[
                "--memory-root",
                memory_root.to_str().unwrap(),
                "--templates-dir",
                &adas_testkit::templates_arg(),
            ],
            &[],
        );
        let channel = channel(&service).await;
        assert_eq!(
            health_status(channel.clone(), service_name).await,
            ServingStatus::Serving,
            "{binary}"
        );
        assert_eq!(
            health_status(channel.clone(), "").await,
            ServingStatus::Serving,
            "{binary}"
        );

        let services = reflected_services(channel).await;
        assert!(
            services.contains(&service_name.to_owned()),
            "{binary} reflection lists {services:?}"
        );
        assert!(
            services.contains(&"grpc.health.v1.Health".to_owned()),
            "{binary}: {services:?}"
        );
        // A single-service binary advertises only its own adas service.
        let adas_services: Vec<_> = services
            .iter()
            .filter(|name| name.starts_with("adas."))
            .collect();
        assert_eq!(adas_services, vec![service_name], "{binary}");

        assert_eq!(
            terminate(service),
            Some(0),
            "{binary} exits 0 after SIGTERM"
        );
    }
}

#[tokio::test]
async fn adas_up_hosts_all_five_services_on_one_port() {
    let memory_root = adas_testkit::scratch_dir("adas-up");
    let service = SpawnedService::spawn(
        &workspace_binary("adas"),
        &[
            "up",
            "--memory-root",
            memory_root.to_str().unwrap(),
            "--templates-dir",
            &adas_testkit::templates_arg(),
            "--demo-mcp-listen",
            "127.0.0.1:0",
        ],
        &[],
    );
    let channel = channel(&service).await;
    let services = reflected_services(channel.clone()).await;
    for (_, service_name) in SINGLE_SERVICE_BINARIES {
        assert_eq!(
            health_status(channel.clone(), service_name).await,
            ServingStatus::Serving
        );
        assert!(services.contains(&service_name.to_owned()), "{services:?}");
    }
    // An unknown service is reported as such, not as serving.
    let unknown = HealthClient::new(channel.clone())
        .check(HealthCheckRequest {
            service: "adas.v1.NoSuchService".into(),
        })
        .await
        .expect_err("unknown service");
    assert_eq!(unknown.code(), tonic::Code::NotFound);

    // Contract RPCs answer over real gRPC with a status, never a transport error.
    let mut orchestrator =
        pb::orchestrator_service_client::OrchestratorServiceClient::new(channel.clone());
    let status = orchestrator
        .get_job(pb::GetJobRequest {
            name: "skills/cs-tier-1/jobs/x".into(),
        })
        .await
        .expect_err("no such job");
    assert_eq!(status.code(), tonic::Code::NotFound);

    assert_eq!(terminate(service), Some(0));
}

#[test]
fn a_service_without_templates_refuses_to_start() {
    let memory_root = adas_testkit::scratch_dir("no-templates");
    let empty = adas_testkit::scratch_dir("no-templates-empty");
    for (binary, templates) in [
        ("adas-intent", memory_root.join("missing")),
        ("adas-skill-registry", empty.clone()),
    ] {
        let output = std::process::Command::new(workspace_binary(binary))
            .args(["--listen", "127.0.0.1:0", "--memory-root"])
            .arg(&memory_root)
            .arg("--templates-dir")
            .arg(&templates)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{binary}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(&format!("templates dir {}", templates.display()))
                && stderr.contains("ADAS_TEMPLATES_DIR"),
            "{binary}: {stderr}"
        );
        assert!(output.stdout.is_empty(), "never listened: {binary}");
    }
}

/// The threads of a process' async runtime (tokio names them `tokio-rt-worker`).
fn runtime_threads(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .unwrap()
        .flatten()
        .filter(|task| {
            std::fs::read_to_string(task.path().join("comm"))
                .is_ok_and(|name| name.trim() == "tokio-rt-worker")
        })
        .count()
}

#[tokio::test]
async fn runtime_threads_size_the_runtime_of_every_binary() {
    let memory_root = adas_testkit::scratch_dir("runtime-threads");
    let memory_root = memory_root.to_str().unwrap();
    let templates = adas_testkit::templates_arg();
    // 3 is neither tokio's default on this machine's cores nor 1: the flag,
    // not the machine, decides.
    let up = SpawnedService::spawn(
        &workspace_binary("adas"),
        &[
            "up",
            "--memory-root",
            memory_root,
            "--templates-dir",
            &templates,
            "--demo-mcp-listen",
            "127.0.0.1:0",
            "--runtime-threads",
            "3",
        ],
        &[],
    );
    let gate = SpawnedService::spawn(
        &workspace_binary("adas-gate"),
        &["--memory-root", memory_root, "--templates-dir", &templates],
        &[("ADAS_RUNTIME_THREADS", "1")],
    );
    for service in [&up, &gate] {
        let channel = channel(service).await;
        assert_eq!(health_status(channel, "").await, ServingStatus::Serving);
    }
    assert_eq!(runtime_threads(up.pid()), 3);
    assert_eq!(runtime_threads(gate.pid()), 1);
    assert_eq!(terminate(up), Some(0));
    assert_eq!(terminate(gate), Some(0));

    // No runtime at all is refused before anything starts.
    let refused = std::process::Command::new(workspace_binary("adas-gate"))
        .args(["--runtime-threads", "0", "--memory-root", memory_root])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("--runtime-threads"), "{stderr}");
}
