//! Compression where it pays: a client that offers gzip (as grpcio, grpc-java
//! and connect clients do by default) gets small answers and event streams
//! uncompressed and large answers in gzip; `--compress-min-bytes 0` compresses
//! every answer a client accepts in gzip, as before.

use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use adas_e2e::{BENCH_SKILL, GOAL, SKILL};
use adas_proto::pb;
use adas_testkit::{SpawnedService, scratch_dir, workspace_binary};
use tonic::codec::CompressionEncoding::Gzip;
use tonic::codegen::Bytes;
use tonic::transport::Channel;

/// A channel that notes the first byte of every answer's body: the first
/// message's compressed flag (1: deflated). The `grpc-encoding` header only
/// names the algorithm messages *may* use; each message says if it does.
#[derive(Clone)]
struct Flags {
    inner: Channel,
    seen: Arc<Mutex<Vec<u8>>>,
}

impl Flags {
    fn new(inner: Channel) -> Self {
        Self {
            inner,
            seen: Arc::default(),
        }
    }

    /// The flag of the last answer's first message.
    fn last(&self) -> u8 {
        *self.seen.lock().unwrap().last().expect("an answer")
    }
}

struct Noting {
    inner: tonic::body::Body,
    seen: Arc<Mutex<Vec<u8>>>,
    noted: bool,
}

impl http_body::Body for Noting {
    type Data = Bytes;
    type Error = tonic::Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, tonic::Status>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        if let Poll::Ready(Some(Ok(frame))) = &polled
            && let Some(data) = frame.data_ref()
            && !data.is_empty()
            && !self.noted
        {
            self.seen.lock().unwrap().push(data[0]);
            self.noted = true;
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }
}

impl tower::Service<http::Request<tonic::body::Body>> for Flags {
    type Response = http::Response<Noting>;
    type Error = tonic::transport::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<tonic::body::Body>) -> Self::Future {
        let call = self.inner.call(request);
        let seen = self.seen.clone();
        Box::pin(async move {
            let response = call.await?;
            Ok(response.map(|inner| Noting {
                inner,
                seen,
                noted: false,
            }))
        })
    }
}

/// The bench skill again, under another name, with a comment that makes its
/// source (and so GetSkill's answer) larger than the default threshold.
fn big_skill() -> String {
    let padding: String = (0..400)
        .map(|line| format!("# padding line {line:04} to make this source long enough\n"))
        .collect();
    format!(
        "{}{padding}",
        BENCH_SKILL.replacen("id: bench-refund", "id: big-refund", 1)
    )
}

/// `adas up` on its in-memory store beside a demo MCP server, with `extra` flags.
fn up(root: &Path, extra: &[&str]) -> (SpawnedService, SpawnedService) {
    let templates = root.join("templates");
    std::fs::create_dir_all(&templates).unwrap();
    std::fs::write(templates.join("bench-refund.yaml"), BENCH_SKILL).unwrap();
    std::fs::write(templates.join("big-refund.yaml"), big_skill()).unwrap();
    let demo = SpawnedService::spawn(&workspace_binary("adas-demo-mcp"), &[], &[]);
    let demo_url = format!("http://{}/mcp", demo.addr());
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
    ];
    args.extend_from_slice(extra);
    let suite = SpawnedService::spawn(&workspace_binary("adas"), &args, &[("ADAS_LOG", "error")]);
    (suite, demo)
}

/// GetSkill's answer for `name`, from a client offering gzip: whether it
/// came deflated, and the skill's source.
async fn get_skill(channel: &Flags, name: &str) -> (bool, String) {
    let source =
        pb::skill_registry_service_client::SkillRegistryServiceClient::new(channel.clone())
            .accept_compressed(Gzip)
            .get_skill(pb::GetSkillRequest { name: name.into() })
            .await
            .unwrap()
            .into_inner()
            .source;
    (channel.last() == 1, source)
}

/// Starts the bench job and watches it until it pauses, from a client offering
/// gzip: whether its first event came deflated, and the events seen.
async fn watch_until_paused(channel: &Flags) -> (bool, usize) {
    let mut orchestrator =
        pb::orchestrator_service_client::OrchestratorServiceClient::new(channel.clone())
            .accept_compressed(Gzip);
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
            name: job.name,
            after_event_id: String::new(),
        })
        .await
        .unwrap()
        .into_inner();
    let mut seen = 0;
    while let Some(event) = events.message().await.unwrap() {
        seen += 1;
        if event.r#type == pb::JobEventType::Paused as i32 {
            return (channel.last() == 1, seen);
        }
    }
    panic!("the stream ended before the job paused")
}

async fn connect(suite: &SpawnedService) -> Flags {
    Flags::new(
        Channel::from_shared(format!("http://{}", suite.addr()))
            .unwrap()
            .connect()
            .await
            .unwrap(),
    )
}

#[tokio::test]
async fn small_answers_and_event_streams_go_out_plain_to_a_client_offering_gzip() {
    let root = scratch_dir("compression-threshold");
    let (suite, _demo) = up(&root, &[]);
    let channel = connect(&suite).await;

    let (small, source) = get_skill(&channel, "skills/bench-refund").await;
    assert!(source.len() < 16 * 1024);
    assert!(!small, "a small answer is not worth deflating");

    let (large, source) = get_skill(&channel, "skills/big-refund").await;
    assert!(source.len() > 16 * 1024, "{} bytes", source.len());
    assert!(large, "a large answer is deflated");
    assert!(source.ends_with("# padding line 0399 to make this source long enough\n"));

    let (stream, seen) = watch_until_paused(&channel).await;
    assert!(!stream, "events are small: the stream goes out plain");
    assert!(seen >= 2, "{seen} events");
}

#[tokio::test]
async fn with_no_threshold_every_answer_a_client_accepts_is_compressed() {
    let root = scratch_dir("compression-always");
    let (suite, _demo) = up(&root, &["--compress-min-bytes", "0"]);
    let channel = connect(&suite).await;

    let (small, source) = get_skill(&channel, "skills/bench-refund").await;
    assert!(small);
    assert!(source.contains("process_refund"));

    let (stream, seen) = watch_until_paused(&channel).await;
    assert!(stream);
    assert!(seen >= 2, "{seen} events");

    // A client that does not offer gzip is answered plain.
    pb::skill_registry_service_client::SkillRegistryServiceClient::new(channel.clone())
        .get_skill(pb::GetSkillRequest {
            name: "skills/bench-refund".into(),
        })
        .await
        .unwrap();
    assert_eq!(channel.last(), 0);
}
