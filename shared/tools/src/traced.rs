//! The MCP HTTP client with W3C trace context in the HTTP headers: each
//! request rmcp sends carries the `traceparent` its own `_meta` names (set per
//! tool call from the calling span, `CallMeta::traceparent`), so HTTP-level
//! tracing (a mesh's proxies, the server's middleware) sees the job's trace
//! too.
//!
//! Connections are kept while the server answers in JSON, and one is opened
//! per request once it answers with an SSE stream: a stream's closing chunk is
//! a second small write, which a server with Nagle's algorithm holds until our
//! delayed ACK on a kept connection (~40 ms per call), while a new connection
//! starts in quick-ACK mode. A JSON answer is one write, and a kept
//! connection spares both sides a connect, an accept and a close per call
//! (adas-bench: a `tools/call` in 0.21 ms instead of 0.39–0.45 ms).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use futures_util::stream::BoxStream;
use http::{HeaderName, HeaderValue};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
};

/// How long a kept connection may sit idle.
const KEPT_IDLE: std::time::Duration = std::time::Duration::from_secs(4);

/// reqwest's clients for one server, adding `traceparent` from a request's
/// `_meta`.
#[derive(Debug, Clone)]
pub struct TracedHttp {
    /// Keeps its connections.
    kept: reqwest::Client,
    /// A connection per request.
    fresh: reqwest::Client,
    /// Whether the server has answered a request with an SSE stream.
    streams: Arc<AtomicBool>,
}

impl TracedHttp {
    /// `builder` configured for the server, built once keeping connections
    /// and once not.
    pub fn new(builder: impl Fn() -> reqwest::ClientBuilder) -> reqwest::Result<Self> {
        Ok(Self {
            // Closed by us before common servers' keep-alive timeouts (5 s in
            // uvicorn and Node.js), so a server rarely closes one just as a
            // request goes out on it.
            kept: builder().pool_idle_timeout(KEPT_IDLE).build()?,
            fresh: builder().pool_max_idle_per_host(0).build()?,
            streams: Arc::default(),
        })
    }

    /// The client for the next POST.
    fn poster(&self) -> &reqwest::Client {
        if self.streams.load(Ordering::Relaxed) {
            &self.fresh
        } else {
            &self.kept
        }
    }

    /// Notes how the server answered, so a streaming server gets a new
    /// connection per request from now on.
    fn noted(
        &self,
        response: Result<StreamableHttpPostResponse, StreamableHttpError<reqwest::Error>>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<reqwest::Error>> {
        if let Ok(StreamableHttpPostResponse::Sse(..)) = &response {
            self.streams.store(true, Ordering::Relaxed);
        }
        response
    }
}

/// The `_meta.traceparent` of a request, when it is a valid header value.
fn traceparent(message: &ClientJsonRpcMessage) -> Option<HeaderValue> {
    let value = serde_json::to_value(message).ok()?;
    let text = value.pointer("/params/_meta/traceparent")?.as_str()?;
    HeaderValue::from_str(text).ok()
}

fn with_trace(
    message: &ClientJsonRpcMessage,
    mut headers: HashMap<HeaderName, HeaderValue>,
) -> HashMap<HeaderName, HeaderValue> {
    if let Some(value) = traceparent(message) {
        headers.insert(HeaderName::from_static("traceparent"), value);
    }
    headers
}

impl StreamableHttpClient for TracedHttp {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let headers = with_trace(&message, custom_headers);
        let response = self
            .poster()
            .post_message(uri, message, session_id, auth_header, headers)
            .await;
        self.noted(response)
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let headers = with_trace(&message, custom_headers);
        let response = self
            .poster()
            .post_message_with_max_sse_event_size(
                uri,
                message,
                session_id,
                auth_header,
                headers,
                max_sse_event_size,
            )
            .await;
        self.noted(response)
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        self.poster()
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<
        BoxStream<'static, Result<sse_stream::Sse, SseError>>,
        StreamableHttpError<Self::Error>,
    > {
        // A long-lived stream: it would hold a kept connection to itself.
        self.fresh
            .get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<
        BoxStream<'static, Result<sse_stream::Sse, SseError>>,
        StreamableHttpError<Self::Error>,
    > {
        self.fresh
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await
    }
}
