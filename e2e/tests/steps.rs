//! The worker's step engine, end to end: by default a job's steps (plan, next
//! call, gate, finalization, polish) are decided in the worker's process, so
//! the suite serves only the client's calls; `--step-engine remote` sends them
//! through the services again, with the same outcome.

use std::path::Path;
use std::time::Duration;

use adas_e2e::invariants::CheckedStore;
use adas_e2e::{BENCH_SKILL, GOAL, SKILL};
use adas_proto::pb;
use adas_testkit::{SpawnedService, free_port, scratch_dir, workspace_binary};
use tonic::transport::Channel;

async fn served(metrics: &str) -> u64 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut socket = tokio::net::TcpStream::connect(metrics).await.unwrap();
    socket
        .write_all(b"GET /metrics HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut page = String::new();
    socket.read_to_string(&mut page).await.unwrap();
    page.lines()
        .find_map(|line| line.strip_prefix("adas_grpc_requests_served_total "))
        .and_then(|value| value.trim().parse().ok())
        .expect("the served-requests counter")
}

/// `adas up` (with `extra` flags) beside a demo MCP server; the bench skill
/// as its template. Returns the suite (checked against the invariants when
/// dropped), the demo server and the metrics address.
fn start(root: &Path, extra: &[&str]) -> ((SpawnedService, CheckedStore), SpawnedService, String) {
    let templates = root.join("templates");
    std::fs::create_dir_all(&templates).unwrap();
    std::fs::write(templates.join("bench-refund.yaml"), BENCH_SKILL).unwrap();
    let store = CheckedStore::start(root);
    let executions = store.executions_log().display().to_string();
    let demo = SpawnedService::spawn(
        &workspace_binary("adas-demo-mcp"),
        &["--executions-log", &executions],
        &[],
    );
    let demo_url = format!("http://{}/mcp", demo.addr());
    let metrics = format!("127.0.0.1:{}", free_port());
    let memory = root.join("memory");
    let mut args = vec![
        "up",
        "--no-demo-mcp",
        "--demo-mcp-url",
        &demo_url,
        "--templates-dir",
        templates.to_str().unwrap(),
        "--memory-root",
        memory.to_str().unwrap(),
        "--metrics-listen",
        &metrics,
    ];
    args.extend_from_slice(extra);
    let store_args = store.up_args();
    args.extend(store_args.iter().map(String::as_str));
    let suite = SpawnedService::spawn(&workspace_binary("adas"), &args, &[("ADAS_LOG", "error")]);
    ((suite, store), demo, metrics)
}

/// StartJob → WatchJob until paused → SubmitInput → completed: four client
/// calls (StartJob, WatchJob, GetJob for the ask, SubmitInput). Returns the
/// reply and the job's version at the end (its number of writes).
async fn refund(channel: Channel) -> (String, i64) {
    let mut orchestrator =
        pb::orchestrator_service_client::OrchestratorServiceClient::new(channel.clone());
    let mut dal = pb::dal_agent_service_client::DalAgentServiceClient::new(channel);
    let job = orchestrator
        .start_job(pb::StartJobRequest {
            skill: SKILL.into(),
            goal: GOAL.into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let mut events = orchestrator
        .watch_job(pb::WatchJobRequest {
            name: job.name.clone(),
            after_event_id: String::new(),
        })
        .await
        .unwrap()
        .into_inner();
    let mut answered = false;
    while let Some(event) = events.message().await.unwrap() {
        match pb::JobEventType::try_from(event.r#type).unwrap() {
            pb::JobEventType::Paused => {
                assert!(!answered, "paused twice");
                let paused = orchestrator
                    .get_job(pb::GetJobRequest {
                        name: job.name.clone(),
                    })
                    .await
                    .unwrap()
                    .into_inner();
                let amount = prost_types::Value {
                    kind: Some(prost_types::value::Kind::NumberValue(25.0)),
                };
                dal.submit_input(pb::SubmitInputRequest {
                    job: job.name.clone(),
                    correlation_id: paused.waiting.unwrap().correlation_id,
                    fields: [("amount".to_owned(), amount)].into(),
                    request_id: String::new(),
                })
                .await
                .unwrap();
                answered = true;
            }
            pb::JobEventType::Completed => {
                assert!(answered, "completed without asking");
                let done = orchestrator
                    .get_job(pb::GetJobRequest { name: job.name })
                    .await
                    .unwrap()
                    .into_inner();
                let result = done.result.unwrap();
                assert_eq!(
                    result
                        .tool_calls
                        .iter()
                        .map(|call| call.tool.as_str())
                        .collect::<Vec<_>>(),
                    ["check_order_status", "process_refund", "check_order_status"]
                );
                return (result.reply, done.version);
            }
            pb::JobEventType::Failed | pb::JobEventType::Cancelled => {
                panic!("the job ended early: {event:?}")
            }
            _ => {}
        }
    }
    panic!("the event stream ended before the job did")
}

async fn served_for_one_job(extra: &[&str], label: &str) -> (u64, (String, i64)) {
    let root = scratch_dir(label);
    let (suite, _demo, metrics) = start(&root, extra);
    let channel = Channel::from_shared(suite.0.endpoint())
        .unwrap()
        .connect_timeout(Duration::from_secs(10))
        .connect()
        .await
        .unwrap();
    // A first job warms the skill and the tool cache; the second is counted.
    refund(channel.clone()).await;
    let before = served(&metrics).await;
    let reply = refund(channel).await;
    (served(&metrics).await - before, reply)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steps_run_in_the_workers_process_unless_asked_to_go_remote() {
    let (local, (local_reply, local_writes)) = served_for_one_job(&[], "steps-local").await;
    // StartJob, WatchJob, GetJob (the ask), SubmitInput, GetJob (the result):
    // the client's calls and nothing else.
    assert_eq!(local, 5, "no internal gRPC call per step");
    // Each transition is one write, and a step decided in process rides with
    // the next: created; the plan with the first call's start; its result
    // with the pause; the answer; the second call's start; its result with
    // the third's start; its result with the end.
    assert_eq!(local_writes, 7, "writes of a 3-call, 1-pause job");

    let (remote, (remote_reply, remote_writes)) =
        served_for_one_job(&["--step-engine", "remote"], "steps-remote").await;
    // Plus Plan, ResolveNext per step, CheckToolCall per call, Finalize, PolishReply.
    assert!(
        remote >= local + 9,
        "the remote engine calls the services: {remote} served"
    );
    assert_eq!(local_reply, remote_reply, "the same answer either way");
    // A remote DalAgent reads the stored job: every result is written as it comes.
    assert!(
        remote_writes > local_writes,
        "{remote_writes} writes remotely"
    );
}
