//! A scripted model endpoint on a free loopback port: every request is kept
//! (path, headers, JSON body) for the test to check, and a script answers it
//! with a status, headers, a body and an optional delay — the recorded shapes
//! of a provider's wire format, including its failures.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::IntoResponse;
use serde_json::Value as Json;

/// A request the endpoint received.
#[derive(Debug, Clone)]
pub struct Seen {
    /// Path and query.
    pub path: String,
    /// Headers, lowercase names.
    pub headers: BTreeMap<String, String>,
    /// The body (`Null` when it was not JSON).
    pub body: Json,
}

/// What the script answers.
#[derive(Debug, Clone)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// Extra headers.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Json,
    /// Wait this long first (a slow or hung provider).
    pub delay: Duration,
}

impl Reply {
    /// 200 with `body`.
    pub fn ok(body: Json) -> Self {
        Self::status(200, body)
    }

    /// `status` with `body`.
    pub fn status(status: u16, body: Json) -> Self {
        Self {
            status,
            headers: Vec::new(),
            body,
            delay: Duration::ZERO,
        }
    }

    /// With a header.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// After a delay.
    pub fn after(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }
}

type Script = dyn Fn(usize, &Seen) -> Reply + Send + Sync;

/// The endpoint; it stops when dropped.
#[derive(Debug)]
pub struct ModelServer {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    task: tokio::task::JoinHandle<()>,
}

impl ModelServer {
    /// Starts it; `script(n, request)` answers the n-th request (from 0).
    ///
    /// # Panics
    /// When no loopback port can be bound.
    pub async fn start(script: impl Fn(usize, &Seen) -> Reply + Send + Sync + 'static) -> Self {
        let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let script: Arc<Script> = Arc::new(script);
        let log = seen.clone();
        let handler = move |uri: Uri, headers: HeaderMap, body: Bytes| {
            let (log, script) = (log.clone(), script.clone());
            async move {
                let request = Seen {
                    path: uri
                        .path_and_query()
                        .map(ToString::to_string)
                        .unwrap_or_default(),
                    headers: headers
                        .iter()
                        .map(|(name, value)| {
                            (
                                name.as_str().to_owned(),
                                value.to_str().unwrap_or("").to_owned(),
                            )
                        })
                        .collect(),
                    body: serde_json::from_slice(&body).unwrap_or(Json::Null),
                };
                let index = {
                    let mut log = log.lock().expect("request log");
                    log.push(request.clone());
                    log.len() - 1
                };
                let reply = script(index, &request);
                if !reply.delay.is_zero() {
                    tokio::time::sleep(reply.delay).await;
                }
                let mut response = (
                    StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
                    reply.body.to_string(),
                )
                    .into_response();
                response.headers_mut().insert(
                    "content-type",
                    axum::http::HeaderValue::from_static("application/json"),
                );
                for (name, value) in reply.headers {
                    if let (Ok(name), Ok(value)) = (
                        axum::http::HeaderName::try_from(name),
                        axum::http::HeaderValue::try_from(value),
                    ) {
                        response.headers_mut().insert(name, value);
                    }
                }
                response
            }
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind a loopback port");
        let url = format!("http://{}", listener.local_addr().expect("local address"));
        let app = axum::Router::new().fallback(handler);
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self { url, seen, task }
    }

    /// Every request so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().expect("request log").clone()
    }
}

impl Drop for ModelServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}
