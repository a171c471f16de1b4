//! adas-console: the web console — every job across skills (newest first,
//! filtered, live) and per skill, the inbox of what waits for a human, a
//! job's timeline with payloads, durations and who answered, tool calls and
//! results, the waiting widget of spec 000's UI contract, approval cards,
//! skills with their diagnostics and tools by what the policy allows, and
//! solutions with their handoffs and grants.
//!
//! Server-rendered HTML over the suite's own gRPC API (ARCHITECTURE.md says
//! why): the browser holds an HttpOnly cookie with a random session id (the
//! API key it signed in with stays in the console's memory, and sign-out
//! forgets it), and every call the console makes for that browser presents that key,
//! so the services decide — and record — as the signed-in principal. Live
//! updates are WatchJob relayed as server-sent events. Every page is escaped
//! HTML with a strict Content-Security-Policy (scripts and styles only from
//! `/static/`), and a form post from another origin is refused.

mod html;
mod jobs;
mod overview;
mod pages;
mod skills;
mod solutions;
mod widget;

use std::sync::Arc;

use axum::Router;
use axum::routing::{get, post};
use tonic::transport::Channel;

pub use pages::{COOKIE, SECURE_COOKIE};

/// What the console's handlers share: a channel to each service it calls.
#[derive(Debug, Clone)]
pub struct Console {
    registry: Channel,
    orchestrator: Channel,
    dal: Channel,
    gate: Channel,
    /// Names the console answers besides its own address.
    host_names: Vec<String>,
    /// `Host` values it answers (see [`pages::hosts_for`]); set when it serves.
    hosts: Vec<String>,
    /// Signed-in browsers (server-side: the cookie is a random id).
    sessions: pages::Sessions,
    /// A trace UI's page of one trace, `{trace_id}` in it (`--console-trace-url`).
    trace_url: Option<String>,
}

impl Console {
    /// A console of a suite whose services all answer on `channel` (`adas up`,
    /// or a mesh's one address).
    pub fn new(channel: Channel) -> Self {
        Self::of_services(channel.clone(), channel.clone(), channel.clone(), channel)
    }

    /// A console of separate services, each on its own channel.
    pub fn of_services(
        registry: Channel,
        orchestrator: Channel,
        dal: Channel,
        gate: Channel,
    ) -> Self {
        Self {
            registry,
            orchestrator,
            dal,
            gate,
            host_names: Vec::new(),
            hosts: Vec::new(),
            sessions: pages::Sessions::default(),
            trace_url: None,
        }
    }

    /// Links each job page's trace id to a trace UI: `template` is an
    /// `http(s)://` URL with `{trace_id}` in it
    /// (`http://localhost:16686/trace/{trace_id}` for Jaeger).
    pub fn with_trace_url(mut self, template: Option<&str>) -> Result<Self, String> {
        self.trace_url = template
            .filter(|template| !template.trim().is_empty())
            .map(check_trace_url)
            .transpose()?;
        Ok(self)
    }

    /// Also answers these host names (`--console-host`): a page served from
    /// any other name is refused, so a rebinding DNS name that points at
    /// this machine never drives the console.
    pub fn with_host_names(mut self, names: &[String]) -> Self {
        self.host_names = names.to_vec();
        self
    }

    /// Serves the console on `addr` until `shutdown`, in the background;
    /// prints its readiness line. A port already taken is an error.
    pub async fn spawn(
        self,
        addr: std::net::SocketAddr,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<tokio::task::JoinHandle<()>> {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let local = listener.local_addr()?;
        if !local.ip().is_loopback() {
            tracing::warn!(%local, "the console serves plain HTTP beyond loopback: put TLS in front of it");
        }
        tracing::info!(url = %format!("http://{local}"), "console serving");
        announce(local);
        Ok(tokio::spawn(async move {
            if let Err(error) = self.serve(listener, shutdown).await {
                tracing::warn!(%error, "console stopped");
            }
        }))
    }

    /// The console's routes.
    pub fn router(self) -> Router {
        let state = Arc::new(self);
        Router::new()
            .route("/", get(pages::home))
            .route("/login", get(pages::login_form).post(pages::login))
            .route("/logout", post(pages::logout))
            .route("/static/console.js", get(pages::script))
            .route("/static/console.css", get(pages::style))
            .route("/jobs", get(overview::all_jobs))
            .route("/jobs/head", get(overview::jobs_head))
            .route("/inbox", get(overview::inbox))
            .route("/solutions", get(solutions::solutions))
            .route("/solutions/{id}", get(solutions::solution))
            .route("/skills", get(skills::skills))
            .route("/skills/{slag}", get(skills::skill))
            .route("/skills/{slag}/jobs", get(jobs::jobs).post(jobs::start_job))
            .route("/skills/{slag}/jobs/events", get(jobs::jobs_events))
            .route("/skills/{slag}/jobs/{job}", get(jobs::job))
            .route("/skills/{slag}/jobs/{job}/events", get(jobs::job_events))
            .route("/skills/{slag}/jobs/{job}/answer", post(jobs::answer))
            .route("/skills/{slag}/jobs/{job}/decide", post(jobs::decide))
            .route("/skills/{slag}/jobs/{job}/cancel", post(jobs::cancel))
            .route("/skills/{slag}/jobs/{job}/retry", post(jobs::retry))
            .route("/jobs/cancel", post(overview::cancel_listed))
            .fallback(pages::not_found)
            .layer(axum::middleware::from_fn_with_state(
                state.clone(),
                pages::guard,
            ))
            .with_state(state)
    }

    /// Serves the console on `listener` until `shutdown`.
    pub async fn serve(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let mut console = self;
        console.hosts = pages::hosts_for(listener.local_addr()?, &console.host_names);
        axum::serve(listener, console.router())
            .with_graceful_shutdown(shutdown)
            .await
    }
}

/// The readiness line the console prints on stdout once it listens
/// (`console on http://127.0.0.1:50070`).
pub fn announce(addr: std::net::SocketAddr) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "console on http://{addr}");
    let _ = stdout.flush();
}

/// A trace-UI template as the console takes it: `http(s)://`, with
/// `{trace_id}` where the id goes.
fn check_trace_url(template: &str) -> Result<String, String> {
    let template = template.trim();
    let scheme_ok = template.starts_with("http://") || template.starts_with("https://");
    if !scheme_ok || !template.contains("{trace_id}") {
        return Err(format!(
            "--console-trace-url `{template}`: an http(s):// URL with `{{trace_id}}` in it, e.g. \
             http://localhost:16686/trace/{{trace_id}}"
        ));
    }
    Ok(template.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_url_names_where_the_id_goes() {
        let jaeger = "http://localhost:16686/trace/{trace_id}";
        assert_eq!(check_trace_url(jaeger).as_deref(), Ok(jaeger));
        for wrong in [
            "http://localhost:16686/trace/",
            "javascript:{trace_id}",
            "/trace/{trace_id}",
        ] {
            let error = check_trace_url(wrong).unwrap_err();
            assert!(error.contains("{trace_id}"), "{error}");
        }
    }
}
