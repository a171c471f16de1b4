//! The server builder, in-process over real loopback gRPC: shutdown drains
//! in-flight requests, a stuck request is bounded by the grace period, limits and
//! error details reach the client.

use std::sync::Arc;
use std::time::Duration;

use adas_proto::pb;
use adas_proto::pb::intent_service_server::IntentService;
use adas_runtime::{FieldViolation, GrpcServer, ServerConfig, bind, status_with_details};
use tokio::sync::{Notify, mpsc, oneshot};
use tonic::{Code, Request, Response, Status};
use tonic_types::StatusExt;

/// DetectIntent waits until released; ParsePlan answers with error details.
#[derive(Clone)]
struct Gated {
    started: mpsc::UnboundedSender<()>,
    release: Arc<Notify>,
}

#[tonic::async_trait]
impl IntentService for Gated {
    async fn detect_intent(
        &self,
        _request: Request<pb::DetectIntentRequest>,
    ) -> Result<Response<pb::DetectIntentResponse>, Status> {
        let _ = self.started.send(());
        self.release.notified().await;
        Ok(Response::new(pb::DetectIntentResponse {
            intent_id: "done".into(),
            ..Default::default()
        }))
    }

    async fn parse_plan(
        &self,
        _request: Request<pb::ParsePlanRequest>,
    ) -> Result<Response<pb::ParsePlanResponse>, Status> {
        Err(status_with_details(
            Code::InvalidArgument,
            "PLAN_SYNTAX",
            "program does not parse",
            &[FieldViolation::new("program", "1:5: expected `)`")],
        ))
    }
}

struct Running {
    addr: std::net::SocketAddr,
    shutdown: oneshot::Sender<()>,
    server: tokio::task::JoinHandle<()>,
    started: mpsc::UnboundedReceiver<()>,
    release: Arc<Notify>,
}

async fn start(config: ServerConfig) -> Running {
    let (started_tx, started) = mpsc::unbounded_channel();
    let release = Arc::new(Notify::new());
    let service = Gated {
        started: started_tx,
        release: release.clone(),
    };
    let listener = bind(config.listen).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (shutdown, shutdown_rx) = oneshot::channel::<()>();
    let server = GrpcServer::new(&config).add_service(
        pb::intent_service_server::IntentServiceServer::new(service)
            .max_decoding_message_size(config.max_message_bytes),
    );
    let server = tokio::spawn(async move {
        server
            .serve(listener, async {
                let _ = shutdown_rx.await;
            })
            .await
            .unwrap();
    });
    Running {
        addr,
        shutdown,
        server,
        started,
        release,
    }
}

fn config() -> ServerConfig {
    ServerConfig::local(std::env::temp_dir())
}

async fn client(
    addr: std::net::SocketAddr,
) -> pb::intent_service_client::IntentServiceClient<tonic::transport::Channel> {
    let channel = tonic::transport::Channel::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    pb::intent_service_client::IntentServiceClient::new(channel)
}

#[tokio::test]
async fn shutdown_drains_the_in_flight_request_then_stops() {
    let mut running = start(config()).await;
    let mut client = client(running.addr).await;
    let call = tokio::spawn(async move {
        client
            .detect_intent(pb::DetectIntentRequest::default())
            .await
    });
    running.started.recv().await.expect("handler started");

    running.shutdown.send(()).unwrap();
    // Still draining: the server must not have stopped while the request runs.
    tokio::task::yield_now().await;
    assert!(!running.server.is_finished());

    running.release.notify_waiters();
    let response = call
        .await
        .unwrap()
        .expect("the in-flight request completes during the drain");
    assert_eq!(response.into_inner().intent_id, "done");
    running.server.await.expect("server stops once drained");
}

#[tokio::test]
async fn a_stuck_request_cannot_hold_shutdown_past_the_grace_period() {
    let mut config = config();
    config.shutdown_grace = Duration::from_millis(100);
    let mut running = start(config).await;
    let mut client = client(running.addr).await;
    let _call = tokio::spawn(async move {
        client
            .detect_intent(pb::DetectIntentRequest::default())
            .await
    });
    running.started.recv().await.expect("handler started");
    running.shutdown.send(()).unwrap();
    // Never released: serve() returns anyway after the grace period.
    running
        .server
        .await
        .expect("server stops after the grace period");
}

#[tokio::test]
async fn request_timeout_frees_a_stuck_call() {
    let mut config = config();
    config.request_timeout = Duration::from_millis(50);
    let running = start(config).await;
    let mut client = client(running.addr).await;
    let status = client
        .detect_intent(pb::DetectIntentRequest::default())
        .await
        .expect_err("times out");
    assert_eq!(status.code(), Code::Cancelled, "{status:?}");
}

#[tokio::test]
async fn oversized_messages_are_refused() {
    let mut config = config();
    config.max_message_bytes = 1024;
    let running = start(config).await;
    let mut client = client(running.addr).await;
    let request = pb::DetectIntentRequest {
        message: "x".repeat(4096),
        ..Default::default()
    };
    let status = client.detect_intent(request).await.expect_err("too large");
    assert_eq!(status.code(), Code::OutOfRange, "{status:?}");
}

#[tokio::test]
async fn errors_carry_error_info_and_field_violations() {
    let running = start(config()).await;
    let mut client = client(running.addr).await;
    let status = client
        .parse_plan(pb::ParsePlanRequest::default())
        .await
        .expect_err("invalid");
    assert_eq!(status.code(), Code::InvalidArgument);
    let details = status.get_error_details();
    let info = details.error_info().expect("ErrorInfo");
    assert_eq!(
        (info.reason.as_str(), info.domain.as_str()),
        ("PLAN_SYNTAX", adas_runtime::ERROR_DOMAIN)
    );
    let bad_request = details.bad_request().expect("BadRequest");
    assert_eq!(bad_request.field_violations[0].field, "program");
    assert_eq!(
        bad_request.field_violations[0].description,
        "1:5: expected `)`"
    );
}

async fn metrics_page(addr: std::net::SocketAddr) -> String {
    http_get(addr, "GET /metrics").await
}

async fn http_get(addr: std::net::SocketAddr, request_line: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    // The server binds its metrics listener as it starts serving: wait for it.
    let mut attempts = 0;
    let mut socket = loop {
        match tokio::net::TcpStream::connect(addr).await {
            Ok(socket) => break socket,
            Err(_) if attempts < 500 => {
                attempts += 1;
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            Err(error) => panic!("metrics listener never came up: {error}"),
        }
    };
    socket
        .write_all(
            format!("{request_line} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n").as_bytes(),
        )
        .await
        .unwrap();
    let mut page = String::new();
    socket.read_to_string(&mut page).await.unwrap();
    page
}

fn served(page: &str) -> u64 {
    page.lines()
        .find_map(|line| line.strip_prefix("adas_grpc_requests_served_total "))
        .expect("the counter is on the page")
        .parse()
        .unwrap()
}

#[tokio::test]
async fn metrics_count_application_rpcs_but_not_probes() {
    let metrics_addr = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap()
    };
    let mut config = config();
    config.metrics_listen = Some(metrics_addr);
    let running = start(config).await;
    let page = metrics_page(metrics_addr).await;
    assert!(page.starts_with("HTTP/1.1 200 OK\r\n"), "{page}");
    assert!(page.contains("# TYPE adas_grpc_requests_served_total counter"));
    let before = served(&page);

    let channel = tonic::transport::Channel::from_shared(format!("http://{}", running.addr))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel.clone());
    health
        .check(tonic_health::pb::HealthCheckRequest::default())
        .await
        .unwrap();
    let mut intent = pb::intent_service_client::IntentServiceClient::new(channel);
    for _ in 0..3 {
        let _ = intent.parse_plan(pb::ParsePlanRequest::default()).await;
    }
    // Other tests in this binary serve requests too (the counter is per process):
    // at least our three.
    let page = metrics_page(metrics_addr).await;
    assert!(served(&page) >= before + 3);
    // Per method and code, with a latency histogram; the probe too, by its own name.
    let labels = r#"service="adas.v1.IntentService",method="ParsePlan",code="INVALID_ARGUMENT""#;
    assert!(
        page.contains(&format!("adas_grpc_server_requests_total{{{labels}}}")),
        "{page}"
    );
    assert!(page.contains("# TYPE adas_grpc_server_handling_seconds histogram"));
    assert!(page.contains(&format!(
        "adas_grpc_server_handling_seconds_bucket{{{labels},le=\"+Inf\"}}"
    )));
    assert!(page.contains(r#"method="Check",code="OK""#));
    assert!(page.contains(r#"adas_build_info{version=""#));
    // A real router: other paths are not the page.
    assert!(
        http_get(metrics_addr, "GET /")
            .await
            .starts_with("HTTP/1.1 404")
    );
    assert!(
        http_get(metrics_addr, "GET /metrics/x")
            .await
            .starts_with("HTTP/1.1 404")
    );
    assert!(
        http_get(metrics_addr, "POST /metrics")
            .await
            .starts_with("HTTP/1.1 405")
    );
    let _ = running.shutdown.send(());
}
