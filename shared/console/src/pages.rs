//! The session — sign-in, the session cookie (a random id; the key stays in
//! the console's memory), the signed-in clients (an extractor) —
//! the security headers every answer gets, and the pages without suite data.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use adas_proto::pb;
use adas_runtime::auth::{AuthChannel, Credentials};
use axum::extract::{Form, Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Redirect, Response};
use serde::Deserialize;

use crate::Console;
use crate::html::{Who, esc, page};

type Shared = State<Arc<Console>>;

/// The session cookie over plain HTTP: a random session id, never the key.
pub const COOKIE: &str = "adas_session";

/// The session cookie when the browser reached the console over HTTPS (a
/// TLS proxy in front says so with `X-Forwarded-Proto: https`): `Secure`, and
/// the `__Host-` prefix, so no other host or port can set or read it.
pub const SECURE_COOKIE: &str = "__Host-adas_session";

/// A session lives this long after its last use…
const SESSION_IDLE: Duration = Duration::from_secs(30 * 60);
/// …and at most this long after sign-in.
const SESSION_MAX: Duration = Duration::from_secs(12 * 3600);
/// Sessions one console keeps in all (a bound on its memory); past it the
/// oldest goes first.
const MAX_SESSIONS: usize = 10_000;
/// Sessions one key may hold: its own oldest goes first, so signing in
/// again and again ends only the signer's sessions, never someone else's.
const MAX_SESSIONS_PER_KEY: usize = 16;

/// One signed-in browser, kept in the console's memory only: the browser
/// holds a random id, the key stays here, and sign-out forgets it.
#[derive(Debug, Clone)]
struct SessionEntry {
    key: Option<String>,
    signed_in: Instant,
    last_used: Instant,
}

/// The console's sessions by id.
#[derive(Debug, Default, Clone)]
pub(crate) struct Sessions(Arc<Mutex<HashMap<String, SessionEntry>>>);

impl Sessions {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, SessionEntry>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn create(&self, key: Option<String>) -> String {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).expect("the OS random source");
        let id = hex::encode(bytes);
        let now = Instant::now();
        let mut sessions = self.lock();
        sessions.retain(|_, entry| entry.live(now));
        let mine: Vec<(String, Instant)> = sessions
            .iter()
            .filter(|(_, entry)| entry.key == key)
            .map(|(id, entry)| (id.clone(), entry.last_used))
            .collect();
        if mine.len() >= MAX_SESSIONS_PER_KEY
            && let Some((oldest, _)) = mine.iter().min_by_key(|(_, used)| *used)
        {
            sessions.remove(oldest);
        }
        if sessions.len() >= MAX_SESSIONS
            && let Some(oldest) = sessions
                .iter()
                .min_by_key(|(_, entry)| entry.last_used)
                .map(|(id, _)| id.clone())
        {
            sessions.remove(&oldest);
        }
        sessions.insert(
            id.clone(),
            SessionEntry {
                key,
                signed_in: now,
                last_used: now,
            },
        );
        id
    }

    /// The key of a live session, which counts as its use.
    fn key(&self, id: &str) -> Option<Option<String>> {
        let now = Instant::now();
        let mut sessions = self.lock();
        let entry = sessions.get_mut(id)?;
        if !entry.live(now) {
            sessions.remove(id);
            return None;
        }
        entry.last_used = now;
        Some(entry.key.clone())
    }

    fn end(&self, id: &str) {
        self.lock().remove(id);
    }
}

impl SessionEntry {
    fn live(&self, now: Instant) -> bool {
        now.duration_since(self.last_used) < SESSION_IDLE
            && now.duration_since(self.signed_in) < SESSION_MAX
    }
}

fn session_id(headers: &HeaderMap) -> Option<&str> {
    cookie(headers, SECURE_COOKIE).or_else(|| cookie(headers, COOKIE))
}

/// The `Set-Cookie` value for session `id` (empty: end it), secure when the
/// browser came over HTTPS.
fn session_cookie(headers: &HeaderMap, id: &str) -> String {
    let https = headers
        .get("x-forwarded-proto")
        .and_then(|value| value.to_str().ok())
        .is_some_and(|proto| proto.eq_ignore_ascii_case("https"));
    let (name, secure) = if https {
        (SECURE_COOKIE, "; Secure")
    } else {
        (COOKIE, "")
    };
    let expiry = if id.is_empty() {
        "; Max-Age=0".to_owned()
    } else {
        format!("; Max-Age={}", SESSION_MAX.as_secs())
    };
    format!("{name}={id}; HttpOnly; SameSite=Strict; Path=/{secure}{expiry}")
}

/// The suite's clients, presenting the signed-in key.
pub(crate) struct Clients {
    pub(crate) registry: pb::skill_registry_service_client::SkillRegistryServiceClient<AuthChannel>,
    pub(crate) orchestrator:
        pb::orchestrator_service_client::OrchestratorServiceClient<AuthChannel>,
    pub(crate) dal: pb::dal_agent_service_client::DalAgentServiceClient<AuthChannel>,
    pub(crate) gate: pb::gate_service_client::GateServiceClient<AuthChannel>,
    /// Who the key is, asked of the suite on each request: a key revoked or
    /// given other roles shows so on the next page.
    pub(crate) caller: pb::Caller,
    /// The console's trace-UI template, for the job pages.
    pub(crate) trace_url: Option<String>,
}

/// The signed-in browser: its key (`None` in dev mode).
struct Session {
    key: Option<String>,
}

impl Session {
    fn from_headers(console: &Console, headers: &HeaderMap) -> Option<Self> {
        let key = console.sessions.key(session_id(headers)?)?;
        Some(Self { key })
    }

    fn clients(&self, console: &Console) -> Result<Clients, Redirect> {
        let credentials =
            Credentials::new(self.key.as_deref()).map_err(|_| Redirect::to("/login?error=key"))?;
        let with_key = |channel: &tonic::transport::Channel| {
            AuthChannel::new(channel.clone(), credentials.clone())
        };
        let gzip = tonic::codec::CompressionEncoding::Gzip;
        Ok(Clients {
            registry: pb::skill_registry_service_client::SkillRegistryServiceClient::new(with_key(
                &console.registry,
            ))
            .accept_compressed(gzip),
            orchestrator: pb::orchestrator_service_client::OrchestratorServiceClient::new(
                with_key(&console.orchestrator),
            )
            .accept_compressed(gzip),
            dal: pb::dal_agent_service_client::DalAgentServiceClient::new(with_key(&console.dal))
                .accept_compressed(gzip),
            gate: pb::gate_service_client::GateServiceClient::new(with_key(&console.gate))
                .accept_compressed(gzip),
            caller: pb::Caller::default(),
            trace_url: console.trace_url.clone(),
        })
    }
}

fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find_map(|(key, value)| (key == name).then_some(value))
}

/// The signed-in session and its clients, or the redirect to sign in.
fn signed_in(console: &Console, headers: &HeaderMap) -> Result<Clients, Redirect> {
    Session::from_headers(console, headers)
        .ok_or_else(|| Redirect::to("/login"))?
        .clients(console)
}

/// A handler's clients are the signed-in browser's, with who it is; without
/// a session (or with a key the suite no longer takes) the request goes to
/// the sign-in page.
impl axum::extract::FromRequestParts<Arc<Console>> for Clients {
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut http::request::Parts,
        console: &Arc<Console>,
    ) -> Result<Self, Response> {
        let mut clients =
            signed_in(console, &parts.headers).map_err(IntoResponse::into_response)?;
        clients.caller = clients
            .orchestrator
            .get_caller(pb::GetCallerRequest {})
            .await
            .map_err(failure)?
            .into_inner();
        Ok(clients)
    }
}

/// A suite error as a page: who may not, what is not there, what was wrong.
pub(crate) fn failure(status: tonic::Status) -> Response {
    let code = match status.code() {
        tonic::Code::Unauthenticated => return Redirect::to("/login?error=denied").into_response(),
        tonic::Code::NotFound => StatusCode::NOT_FOUND,
        tonic::Code::InvalidArgument | tonic::Code::FailedPrecondition => StatusCode::BAD_REQUEST,
        tonic::Code::PermissionDenied => StatusCode::FORBIDDEN,
        tonic::Code::ResourceExhausted => StatusCode::TOO_MANY_REQUESTS,
        _ => StatusCode::BAD_GATEWAY,
    };
    let body = format!(
        "<h1>{}</h1><p class=\"error\">{}</p><p><a href=\"/skills\">Back to skills</a></p>",
        adas_runtime::metrics::code_name(status.code()),
        esc(status.message())
    );
    (code, Html(page("Error", Who::SignedIn, &[], &body))).into_response()
}

/// The `Host` values a console on `local` answers: its own address, on
/// loopback `localhost` too, and the operator's `names` (`name` means any
/// port). An unspecified address (`0.0.0.0`) answers only the names.
pub(crate) fn hosts_for(local: std::net::SocketAddr, names: &[String]) -> Vec<String> {
    let port = local.port();
    let mut hosts = Vec::new();
    if !local.ip().is_unspecified() {
        hosts.push(local.to_string());
    }
    if local.ip().is_loopback() || local.ip().is_unspecified() {
        hosts.extend([
            format!("localhost:{port}"),
            format!("127.0.0.1:{port}"),
            format!("[::1]:{port}"),
        ]);
    }
    for name in names {
        let name = name.trim().to_ascii_lowercase();
        if name.is_empty() {
            continue;
        }
        let has_port = name
            .rsplit_once(':')
            .is_some_and(|(_, after)| !after.contains(']'));
        if has_port {
            hosts.push(name);
            continue;
        }
        // A browser leaves out the scheme's default port.
        if port == 80 || port == 443 {
            hosts.push(name.clone());
        }
        hosts.push(format!("{name}:{port}"));
    }
    hosts
}

/// Security headers on every answer, no page for a `Host` the console does
/// not serve (a name that re-resolves to this machine cannot drive it), and
/// no form post from another origin (the session cookie is SameSite=Strict too).
pub async fn guard(State(console): Shared, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .map(str::to_ascii_lowercase);
    if !console.hosts.is_empty()
        && !host
            .as_deref()
            .is_some_and(|host| console.hosts.iter().any(|served| served == host))
    {
        return (
            StatusCode::MISDIRECTED_REQUEST,
            "this console does not serve that host name (--console-host adds one)",
        )
            .into_response();
    }
    if request.method() == http::Method::POST {
        let host = request
            .headers()
            .get(header::HOST)
            .and_then(|value| value.to_str().ok());
        let origin = request
            .headers()
            .get(header::ORIGIN)
            .and_then(|value| value.to_str().ok());
        if let (Some(origin), Some(host)) = (origin, host)
            && origin.split_once("://").map(|(_, rest)| rest) != Some(host)
        {
            return (StatusCode::FORBIDDEN, "cross-origin form posts are refused").into_response();
        }
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        http::HeaderValue::from_static(
            "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; \
             img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        ),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        http::HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        http::HeaderValue::from_static("same-origin"),
    );
    response
}

pub async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("../assets/console.js"),
    )
}

pub async fn style() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("../assets/console.css"),
    )
}

pub async fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        Html(page("Not found", Who::Nobody, &[], "<h1>Not found</h1>")),
    )
        .into_response()
}

pub async fn home() -> Redirect {
    Redirect::to("/jobs")
}

#[derive(Debug, Deserialize)]
pub struct LoginQuery {
    error: Option<String>,
}

pub async fn login_form(Query(query): Query<LoginQuery>) -> Html<String> {
    let error = match query.error.as_deref() {
        Some("denied") => {
            "<p class=\"error\">The suite did not accept this key. Sign in again.</p>"
        }
        Some(_) => "<p class=\"error\">That is not an API key.</p>",
        None => "",
    };
    Html(page(
        "Sign in",
        Who::Nobody,
        &[],
        &format!(
            "<h1>Sign in</h1>{error}<form method=\"post\" action=\"/login\" class=\"card\">\
             <label>API key <input type=\"password\" name=\"key\" autocomplete=\"off\"></label>\
             <p class=\"hint\">The key `adas auth key create` made for you; the console acts as \
             its principal. Against a suite in dev mode leave it empty.</p>\
             <button type=\"submit\">Sign in</button></form>"
        ),
    ))
}

#[derive(Debug, Deserialize)]
pub struct LoginForm {
    key: String,
}

/// Checks the key with a real call before keeping it.
pub async fn login(
    State(console): Shared,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> Response {
    let key = form.key.trim();
    let session = Session {
        key: (!key.is_empty()).then(|| key.to_owned()),
    };
    let mut clients = match session.clients(&console) {
        Ok(clients) => clients,
        Err(redirect) => return redirect.into_response(),
    };
    if let Err(status) = clients
        .orchestrator
        .get_caller(pb::GetCallerRequest {})
        .await
    {
        if status.code() == tonic::Code::Unauthenticated {
            return Redirect::to("/login?error=denied").into_response();
        }
        return failure(status);
    }
    // The browser gets a random session id; the key stays on this side.
    let id = console.sessions.create(session.key);
    (
        [(header::SET_COOKIE, session_cookie(&headers, &id))],
        // Where an operator's day starts.
        Redirect::to("/jobs"),
    )
        .into_response()
}

/// Ends the session here, so its id is worth nothing even if it was copied.
pub async fn logout(State(console): Shared, headers: HeaderMap) -> Response {
    if let Some(id) = session_id(&headers) {
        console.sessions.end(id);
    }
    (
        [(header::SET_COOKIE, session_cookie(&headers, ""))],
        Redirect::to("/login"),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_key_signing_in_again_and_again_ends_only_its_own_sessions() {
        let sessions = Sessions::default();
        let alice = sessions.create(Some("alice-key".into()));
        for _ in 0..(MAX_SESSIONS_PER_KEY * 3) {
            sessions.create(Some("bob-key".into()));
        }
        assert_eq!(sessions.key(&alice), Some(Some("alice-key".to_owned())));
        let bobs = sessions
            .lock()
            .values()
            .filter(|entry| entry.key.as_deref() == Some("bob-key"))
            .count();
        assert_eq!(bobs, MAX_SESSIONS_PER_KEY);
    }
}
