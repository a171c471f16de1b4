//! The console's handlers: each reads the signed-in key from the cookie,
//! calls the suite with it, and renders escaped HTML.

use std::collections::{BTreeMap, HashMap};
use std::convert::Infallible;
use std::fmt::Write;
use std::sync::Arc;

use adas_proto::pb;
use adas_runtime::auth::{AuthChannel, Credentials};
use adas_runtime::convert::{struct_to_json, value_to_json};
use axum::extract::{Form, Path, Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Redirect, Response};
use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::Value as Json;

use crate::Console;
use crate::html::{call_text, enum_label, esc, json_block, page, time};

type Shared = State<Arc<Console>>;

/// The cookie holding the API key the browser signed in with (`-`: dev mode, no key).
pub const COOKIE: &str = "adas_key";

/// Jobs one live list follows at once (one WatchJob each).
const MAX_WATCHED: usize = 50;

/// Jobs per list page.
const PAGE_SIZE: i32 = 25;

/// The suite's clients, presenting the signed-in key.
pub(crate) struct Clients {
    registry: pb::skill_registry_service_client::SkillRegistryServiceClient<AuthChannel>,
    orchestrator: pb::orchestrator_service_client::OrchestratorServiceClient<AuthChannel>,
    dal: pb::dal_agent_service_client::DalAgentServiceClient<AuthChannel>,
    gate: pb::gate_service_client::GateServiceClient<AuthChannel>,
}

/// The signed-in browser: its key (`None` in dev mode).
struct Session {
    key: Option<String>,
}

impl Session {
    fn from_headers(headers: &HeaderMap) -> Option<Self> {
        let value = cookie(headers, COOKIE)?;
        Some(Self {
            key: (value != "-").then(|| value.to_owned()),
        })
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
            .accept_compressed(gzip)
            .send_compressed(gzip),
            orchestrator: pb::orchestrator_service_client::OrchestratorServiceClient::new(
                with_key(&console.orchestrator),
            )
            .accept_compressed(gzip)
            .send_compressed(gzip),
            dal: pb::dal_agent_service_client::DalAgentServiceClient::new(with_key(&console.dal))
                .accept_compressed(gzip)
                .send_compressed(gzip),
            gate: pb::gate_service_client::GateServiceClient::new(with_key(&console.gate))
                .accept_compressed(gzip)
                .send_compressed(gzip),
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
    Session::from_headers(headers)
        .ok_or_else(|| Redirect::to("/login"))?
        .clients(console)
}

/// A handler's clients are the signed-in browser's; without a session the
/// request goes to the sign-in page.
impl axum::extract::FromRequestParts<Arc<Console>> for Clients {
    type Rejection = Redirect;

    async fn from_request_parts(
        parts: &mut http::request::Parts,
        console: &Arc<Console>,
    ) -> Result<Self, Redirect> {
        signed_in(console, &parts.headers)
    }
}

/// A suite error as a page: who may not, what is not there, what was wrong.
fn failure(status: tonic::Status) -> Response {
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
    (code, Html(page("Error", true, &[], &body))).into_response()
}

/// Security headers on every answer, and no form post from another origin
/// (the session cookie is SameSite=Strict too).
pub async fn guard(request: Request, next: Next) -> Response {
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
        Html(page("Not found", false, &[], "<h1>Not found</h1>")),
    )
        .into_response()
}

pub async fn home() -> Redirect {
    Redirect::to("/skills")
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
        false,
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
pub async fn login(State(console): Shared, Form(form): Form<LoginForm>) -> Response {
    let key = form.key.trim();
    let session = Session {
        key: (!key.is_empty()).then(|| key.to_owned()),
    };
    let mut clients = match session.clients(&console) {
        Ok(clients) => clients,
        Err(redirect) => return redirect.into_response(),
    };
    if let Err(status) = clients
        .registry
        .list_skills(pb::ListSkillsRequest {
            page_size: 1,
            page_token: String::new(),
        })
        .await
    {
        if status.code() == tonic::Code::Unauthenticated {
            return Redirect::to("/login?error=denied").into_response();
        }
        return failure(status);
    }
    let value = if key.is_empty() { "-" } else { key };
    (
        [(
            header::SET_COOKIE,
            format!("{COOKIE}={value}; HttpOnly; SameSite=Strict; Path=/"),
        )],
        Redirect::to("/skills"),
    )
        .into_response()
}

pub async fn logout() -> Response {
    (
        [(
            header::SET_COOKIE,
            format!("{COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0"),
        )],
        Redirect::to("/login"),
    )
        .into_response()
}

pub async fn skills(mut clients: Clients) -> Response {
    let listed = match clients
        .registry
        .list_skills(pb::ListSkillsRequest {
            page_size: 100,
            page_token: String::new(),
        })
        .await
    {
        Ok(listed) => listed.into_inner(),
        Err(status) => return failure(status),
    };
    let mut rows = String::new();
    for skill in &listed.skills {
        let (errors, warnings) = counts(&skill.diagnostics);
        let _ = write!(
            rows,
            "<tr><td><a href=\"/skills/{slag}\">{slag}</a></td><td>{}</td>\
             <td>{errors} errors, {warnings} warnings</td>\
             <td><a href=\"/skills/{slag}/jobs\">jobs</a></td></tr>",
            esc(&skill.display_name),
            slag = esc(&skill.slag),
        );
    }
    // Templates not yet in service: opening one bootstraps it (GetSkill).
    let mut templates = String::new();
    if let Ok(listed_templates) = clients
        .registry
        .list_templates(pb::ListTemplatesRequest {
            page_size: 100,
            page_token: String::new(),
        })
        .await
    {
        for template in listed_templates.into_inner().templates {
            if listed
                .skills
                .iter()
                .any(|skill| skill.slag == template.slag)
            {
                continue;
            }
            let _ = write!(
                templates,
                "<tr><td><a href=\"/skills/{slag}\">{slag}</a></td><td>{}</td><td>{}</td></tr>",
                esc(&template.display_name),
                esc(&template.description),
                slag = esc(&template.slag),
            );
        }
    }
    if !templates.is_empty() {
        templates = format!(
            "<h2>Templates</h2><p class=\"hint\">Opening a template puts it in service.</p>\
             <table class=\"templates\"><tbody>{templates}</tbody></table>"
        );
    }
    let body = format!(
        "<h1>Skills</h1><table class=\"skills\"><thead><tr><th>Skill</th><th>Name</th>\
         <th>Diagnostics</th><th></th></tr></thead><tbody>{rows}</tbody></table>{templates}"
    );
    Html(page("Skills", true, &[], &body)).into_response()
}

fn counts(diagnostics: &[pb::Diagnostic]) -> (usize, usize) {
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == pb::Severity::Error as i32)
        .count();
    let warnings = diagnostics
        .iter()
        .filter(|d| d.severity == pb::Severity::Warning as i32)
        .count();
    (errors, warnings)
}

pub async fn skill(mut clients: Clients, Path(slag): Path<String>) -> Response {
    let name = format!("skills/{slag}");
    let skill = match clients
        .registry
        .get_skill(pb::GetSkillRequest { name: name.clone() })
        .await
    {
        Ok(skill) => skill.into_inner(),
        Err(status) => return failure(status),
    };
    let mut diagnostics = String::new();
    for d in &skill.diagnostics {
        let severity = pb::Severity::try_from(d.severity)
            .map_or("?".into(), |s| enum_label(s.as_str_name(), "SEVERITY_"));
        let _ = write!(
            diagnostics,
            "<tr class=\"{severity}\"><td>{severity}</td><td>{}:{}</td><td><code>{}</code></td>\
             <td>{}</td><td>{}</td></tr>",
            d.line,
            d.column,
            esc(&d.path),
            esc(&d.code),
            esc(&d.message)
        );
    }
    if diagnostics.is_empty() {
        diagnostics =
            "<tr><td colspan=\"5\">No diagnostics: the skill validates cleanly.</td></tr>".into();
    }
    let tools = match clients
        .registry
        .resolve_tools(pb::ResolveToolsRequest { skill: name })
        .await
    {
        Ok(resolved) => {
            let resolved = resolved.into_inner();
            let mut rows = String::new();
            for tool in &resolved.tools {
                let inputs: Vec<String> = tool
                    .inputs
                    .iter()
                    .map(|input| {
                        format!(
                            "{}: {}{}",
                            esc(&input.name),
                            esc(&input.r#type),
                            if input.required { "" } else { "?" }
                        )
                    })
                    .collect();
                let _ = write!(
                    rows,
                    "<tr class=\"{}\"><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    if tool.available {
                        "available"
                    } else {
                        "unavailable"
                    },
                    esc(&tool.name),
                    if tool.available {
                        "available"
                    } else {
                        "unavailable"
                    },
                    inputs.join(", "),
                    esc(&tool.description)
                );
            }
            let stale = if resolved.stale {
                format!(
                    "<p class=\"error\">Served stale: {} unreachable.</p>",
                    esc(&resolved.stale_sources.join(", "))
                )
            } else {
                String::new()
            };
            format!(
                "{stale}<table class=\"tools\"><thead><tr><th>Tool</th><th>State</th><th>Inputs</th>\
                 <th>Description</th></tr></thead><tbody>{rows}</tbody></table>"
            )
        }
        Err(status) => format!(
            "<p class=\"error\">Tools could not be resolved: {}</p>",
            esc(status.message())
        ),
    };
    let slag = esc(&skill.slag);
    let body = format!(
        "<h1>{}</h1><p><code>{slag}</code> · etag <code>{}</code> · \
         <a href=\"/skills/{slag}/jobs\">jobs</a></p>\
         <form method=\"post\" action=\"/skills/{slag}/jobs\" class=\"card start\">\
         <label>Start a job <input name=\"goal\" required placeholder=\"What should the agent do?\"></label>\
         <button type=\"submit\">Start</button></form>\
         <h2>Diagnostics</h2><table class=\"diagnostics\"><thead><tr><th>Severity</th><th>At</th>\
         <th>Path</th><th>Code</th><th>Message</th></tr></thead><tbody>{diagnostics}</tbody></table>\
         <h2>Resolved tools</h2>{tools}",
        esc(if skill.display_name.is_empty() {
            &skill.slag
        } else {
            &skill.display_name
        }),
        esc(&skill.etag)
    );
    Html(page(&skill.slag, true, &[], &body)).into_response()
}

const STATUSES: [(&str, pb::JobStatus); 6] = [
    ("queued", pb::JobStatus::Queued),
    ("running", pb::JobStatus::Running),
    ("paused", pb::JobStatus::Paused),
    ("completed", pb::JobStatus::Completed),
    ("failed", pb::JobStatus::Failed),
    ("cancelled", pb::JobStatus::Cancelled),
];

#[derive(Debug, Deserialize)]
pub struct JobsQuery {
    status: Option<String>,
    page: Option<String>,
}

fn status_label(status: i32) -> String {
    pb::JobStatus::try_from(status).map_or("unknown".into(), |s| {
        enum_label(s.as_str_name(), "JOB_STATUS_")
    })
}

fn outcome_label(outcome: i32) -> String {
    pb::OutcomeClass::try_from(outcome).map_or(String::new(), |o| {
        enum_label(o.as_str_name(), "OUTCOME_CLASS_")
    })
}

pub async fn jobs(
    mut clients: Clients,
    Path(slag): Path<String>,
    Query(query): Query<JobsQuery>,
) -> Response {
    let filter = query.status.as_deref().unwrap_or("");
    let status = STATUSES
        .iter()
        .find(|(name, _)| *name == filter)
        .map_or(pb::JobStatus::Unspecified, |(_, status)| *status);
    let listed = match clients
        .orchestrator
        .list_jobs(pb::ListJobsRequest {
            parent: format!("skills/{slag}"),
            status: status as i32,
            page_size: PAGE_SIZE,
            page_token: query.page.clone().unwrap_or_default(),
        })
        .await
    {
        Ok(listed) => listed.into_inner(),
        Err(status) => return failure(status),
    };
    let slag_html = esc(&slag);
    let mut filters = format!(
        "<a href=\"/skills/{slag_html}/jobs\" class=\"{}\">all</a>",
        if filter.is_empty() { "current" } else { "" }
    );
    for (name, _) in STATUSES {
        let _ = write!(
            filters,
            "<a href=\"/skills/{slag_html}/jobs?status={name}\" class=\"{}\">{name}</a>",
            if filter == name { "current" } else { "" }
        );
    }
    let mut rows = String::new();
    let mut live = Vec::new();
    for job in &listed.jobs {
        let status = status_label(job.status);
        if !matches!(status.as_str(), "completed" | "failed" | "cancelled") {
            live.push(job.job_id.clone());
        }
        let _ = write!(
            rows,
            "<tr class=\"job {status}\" data-job=\"{id}\" data-version=\"{}\"><td><a href=\"/skills/{slag_html}/jobs/{id}\">{id}</a></td>\
             <td>{}</td><td class=\"status\">{status}</td><td>{}</td><td>{}</td></tr>",
            job.version,
            esc(&job.goal),
            esc(&outcome_label(job.outcome_class)),
            time(job.update_time.as_ref()),
            id = esc(&job.job_id),
        );
    }
    let next = if listed.next_page_token.is_empty() {
        String::new()
    } else {
        format!(
            "<p><a class=\"next\" href=\"/skills/{slag_html}/jobs?status={}&amp;page={}\">Next page</a></p>",
            esc(filter),
            esc(&listed.next_page_token)
        )
    };
    let body = format!(
        "<h1>Jobs of <a href=\"/skills/{slag_html}\">{slag_html}</a></h1>\
         <p class=\"filters\">{filters}</p>\
         <table class=\"jobs\"><thead><tr><th>Job</th><th>Goal</th><th>Status</th><th>Outcome</th>\
         <th>Updated</th></tr></thead><tbody>{rows}</tbody></table>{next}"
    );
    live.truncate(MAX_WATCHED);
    let data = [
        ("page", "jobs".to_owned()),
        ("slag", slag.clone()),
        ("watch", live.join(",")),
    ];
    Html(page(&format!("Jobs of {slag}"), true, &data, &body)).into_response()
}

#[derive(Debug, Deserialize)]
pub struct StartForm {
    goal: String,
}

pub async fn start_job(
    mut clients: Clients,
    Path(slag): Path<String>,
    Form(form): Form<StartForm>,
) -> Response {
    match clients
        .orchestrator
        .start_job(pb::StartJobRequest {
            skill: format!("skills/{slag}"),
            goal: form.goal,
            ..Default::default()
        })
        .await
    {
        Ok(job) => Redirect::to(&format!("/{}", job.into_inner().name)).into_response(),
        Err(status) => failure(status),
    }
}

/// What a refused answer leaves on the widget: per field, the message and the value sent.
#[derive(Debug, Default)]
struct Refusal {
    messages: HashMap<String, String>,
    values: HashMap<String, String>,
    general: Option<String>,
}

pub async fn job(mut clients: Clients, Path((slag, job_id)): Path<(String, String)>) -> Response {
    render_job(&mut clients, &slag, &job_id, &Refusal::default()).await
}

async fn render_job(
    clients: &mut Clients,
    slag: &str,
    job_id: &str,
    refusal: &Refusal,
) -> Response {
    let name = format!("skills/{slag}/jobs/{job_id}");
    let job = match clients
        .orchestrator
        .get_job(pb::GetJobRequest { name: name.clone() })
        .await
    {
        Ok(job) => job.into_inner(),
        Err(status) => return failure(status),
    };
    let status = status_label(job.status);
    let outcome = outcome_label(job.outcome_class);
    let mut body = format!(
        "<h1>Job <code>{}</code></h1><p>Skill <a href=\"/skills/{slag}/jobs\">{slag}</a></p>\
         <dl class=\"job\"><dt>Goal</dt><dd class=\"goal\">{}</dd>\
         <dt>Status</dt><dd id=\"status\" class=\"{status}\">{status}</dd>\
         <dt>Outcome</dt><dd id=\"outcome\">{}</dd>\
         <dt>Iteration</dt><dd>{} of {}</dd></dl>",
        esc(&job.job_id),
        esc(&job.goal),
        esc(&outcome),
        job.iteration,
        job.iteration_budget,
        slag = esc(slag),
    );
    if let Some(error) = &job.error
        && !error.message.is_empty()
    {
        let _ = write!(body, "<p class=\"error\">{}</p>", esc(&error.message));
    }
    if let Some(waiting) = &job.waiting {
        let paused = job.status == pb::JobStatus::Paused as i32;
        // Spec 000's UI contract: the input widget if and only if the job is
        // paused for the user and says why.
        if paused
            && job.outcome_class == pb::OutcomeClass::UserActionRequired as i32
            && !waiting.reason_code.is_empty()
        {
            body.push_str(&widget(&name, waiting, refusal));
        } else if paused
            && job.outcome_class == pb::OutcomeClass::ApprovalRequired as i32
            && let Some(approval) = &waiting.approval
        {
            body.push_str(&approval_card(&name, waiting, approval, refusal));
        }
    }
    if let Some(result) = &job.result
        && !result.reply.is_empty()
    {
        let _ = write!(
            body,
            "<h2>Reply</h2><div class=\"reply card\">{}</div>",
            esc(&result.reply)
        );
    }
    body.push_str("<h2>Tool calls</h2>");
    if job.tool_calls.is_empty() {
        body.push_str("<p>None yet.</p>");
    }
    for call in &job.tool_calls {
        let arguments = call
            .arguments
            .as_ref()
            .map(struct_to_json)
            .unwrap_or_default();
        let output = call
            .output
            .as_ref()
            .map(value_to_json)
            .unwrap_or(Json::Null);
        let _ = write!(
            body,
            "<section class=\"call card{}\"><h3><code>{}</code></h3><p>iteration {} · {}</p>{}</section>",
            if call.is_error { " failed" } else { "" },
            esc(&call_text(&call.tool, &arguments)),
            call.iteration,
            time(call.finish_time.as_ref()),
            json_block(&output)
        );
    }
    if !matches!(status.as_str(), "completed" | "failed" | "cancelled") {
        let _ = write!(
            body,
            "<form method=\"post\" action=\"/{}/cancel\"><button class=\"secondary\">Cancel the job</button></form>",
            esc(&name)
        );
    }
    body.push_str("<h2>Timeline</h2><ol id=\"timeline\"></ol>");
    let data = [
        ("page", "job".to_owned()),
        ("job", name.clone()),
        ("version", job.version.to_string()),
    ];
    Html(page(&format!("Job {}", job.job_id), true, &data, &body)).into_response()
}

/// The waiting widget: the prompt, then one typed input per requested field.
fn widget(job: &str, waiting: &pb::Waiting, refusal: &Refusal) -> String {
    let mut fields = String::new();
    for (index, name) in waiting.requested_fields.iter().enumerate() {
        let detail = waiting
            .fields
            .get(index)
            .filter(|field| &field.name == name);
        let kind = detail.map_or("string", |field| field.r#type.as_str());
        let label = detail
            .map(|field| field.prompt.as_str())
            .filter(|prompt| !prompt.is_empty())
            .unwrap_or(name);
        let required = detail.is_none_or(|field| field.required);
        let value = refusal.values.get(name).map_or("", String::as_str);
        let input_name = format!("f.{name}");
        let choice = detail.filter(|field| {
            field.input_type == pb::InputType::Choice as i32 || !field.options.is_empty()
        });
        let control = if let Some(field) = choice {
            let mut options = String::from("<option value=\"\">Choose…</option>");
            for (i, option) in field.options.iter().enumerate() {
                let text = field
                    .option_labels
                    .get(i)
                    .filter(|label| !label.is_empty())
                    .map_or(option.as_str(), String::as_str);
                let _ = write!(
                    options,
                    "<option value=\"{}\"{}>{}</option>",
                    esc(option),
                    if value == option { " selected" } else { "" },
                    esc(text)
                );
            }
            format!(
                "<select name=\"{}\"{}>{options}</select>",
                esc(&input_name),
                if required { " required" } else { "" }
            )
        } else {
            let (html_type, extra) = match kind {
                "number" => ("number", " step=\"any\""),
                "integer" => ("number", " step=\"1\""),
                "email" => ("email", ""),
                "date" => ("date", ""),
                "phone" => ("tel", ""),
                "boolean" => ("text", " pattern=\"(?i)(true|false|yes|no)\""),
                _ => ("text", ""),
            };
            format!(
                "<input name=\"{}\" type=\"{html_type}\"{extra} value=\"{}\" data-type=\"{}\"{}>",
                esc(&input_name),
                esc(value),
                esc(kind),
                if required { " required" } else { "" }
            )
        };
        let message = refusal
            .messages
            .get(name)
            .map(|message| format!("<span class=\"invalid\">{}</span>", esc(message)))
            .unwrap_or_default();
        let _ = write!(
            fields,
            "<label class=\"field\" data-field=\"{}\"><span class=\"label\">{}</span>{control}{message}</label>",
            esc(name),
            esc(label)
        );
    }
    let call = waiting
        .approval
        .as_ref()
        .map(|approval| {
            let arguments = approval
                .arguments
                .as_ref()
                .map(struct_to_json)
                .unwrap_or_default();
            format!(
                "<p class=\"call\">The call: <code>{}</code></p>",
                esc(&call_text(&approval.tool, &arguments))
            )
        })
        .unwrap_or_default();
    let general = refusal
        .general
        .as_ref()
        .map(|message| format!("<p class=\"invalid\">{}</p>", esc(message)))
        .unwrap_or_default();
    let retries = if waiting.invalid_answer_count > 0 {
        format!(
            "<p class=\"hint\">{} answer(s) refused so far.</p>",
            waiting.invalid_answer_count
        )
    } else {
        String::new()
    };
    format!(
        "<form method=\"post\" action=\"/{}/answer\" class=\"widget card\" data-reason=\"{}\">\
         <h2>Input needed</h2><p class=\"prompt\">{}</p>{call}{general}{retries}\
         <input type=\"hidden\" name=\"correlation_id\" value=\"{}\">{fields}\
         <button type=\"submit\">Send</button></form>",
        esc(job),
        esc(&waiting.reason_code),
        esc(&waiting.prompt_message),
        esc(&waiting.correlation_id)
    )
}

/// The approval card: the exact call and its amount, who must decide, why.
fn approval_card(
    job: &str,
    waiting: &pb::Waiting,
    approval: &pb::ApprovalRequest,
    refusal: &Refusal,
) -> String {
    let arguments = approval
        .arguments
        .as_ref()
        .map(struct_to_json)
        .unwrap_or_default();
    let mut rows = String::new();
    for (name, value) in &arguments {
        let _ = write!(
            rows,
            "<tr class=\"argument {}\"><th>{}</th><td>{}</td></tr>",
            if name == "amount" { "amount" } else { "" },
            esc(name),
            esc(&value.to_string())
        );
    }
    let general = refusal
        .general
        .as_ref()
        .map(|message| format!("<p class=\"invalid\">{}</p>", esc(message)))
        .unwrap_or_default();
    format!(
        "<section class=\"approval card\"><h2>Approval needed</h2>\
         <p class=\"call\"><code>{}</code></p><table>{rows}</table>\
         <p>Approver role: <strong class=\"approver\">{}</strong>{}{}</p>{general}\
         <form method=\"post\" action=\"/{}/decide\">\
         <input type=\"hidden\" name=\"correlation_id\" value=\"{}\">\
         <label>Comment <input name=\"comment\"></label>\
         <button type=\"submit\" name=\"decision\" value=\"approve\">Approve</button>\
         <button type=\"submit\" name=\"decision\" value=\"reject\" class=\"secondary\">Deny</button>\
         </form></section>",
        esc(&call_text(&approval.tool, &arguments)),
        esc(&approval.approver),
        if approval.reason.is_empty() {
            String::new()
        } else {
            format!(" · {}", esc(&approval.reason))
        },
        if approval.condition.is_empty() {
            String::new()
        } else {
            format!(" · when <code>{}</code>", esc(&approval.condition))
        },
        esc(job),
        esc(&waiting.correlation_id)
    )
}

/// The answer as typed values: a number field's text that reads as a finite
/// number is sent as one, a boolean's as a boolean; everything else as text,
/// for the DAL-Agent to validate (and refuse with a message per field).
fn typed(kind: &str, text: &str) -> prost_types::Value {
    use prost_types::value::Kind;
    let kind = match kind {
        "number" | "integer" => match text.trim().parse::<f64>() {
            Ok(number) if number.is_finite() => Kind::NumberValue(number),
            _ => Kind::StringValue(text.to_owned()),
        },
        "boolean" => match text.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" => Kind::BoolValue(true),
            "false" | "no" => Kind::BoolValue(false),
            _ => Kind::StringValue(text.to_owned()),
        },
        _ => Kind::StringValue(text.to_owned()),
    };
    prost_types::Value { kind: Some(kind) }
}

/// A refused call's field violations, by the answer's field names.
fn refusal_of(status: &tonic::Status, values: HashMap<String, String>) -> Refusal {
    use tonic_types::StatusExt;
    let mut refusal = Refusal {
        values,
        ..Refusal::default()
    };
    if let Some(bad) = status.get_details_bad_request() {
        for violation in bad.field_violations {
            let field = violation
                .field
                .strip_prefix("fields.")
                .unwrap_or(&violation.field)
                .to_owned();
            refusal.messages.insert(field, violation.description);
        }
    }
    if refusal.messages.is_empty() {
        refusal.general = Some(status.message().to_owned());
    }
    refusal
}

pub async fn answer(
    mut clients: Clients,
    Path((slag, job_id)): Path<(String, String)>,
    Form(form): Form<BTreeMap<String, String>>,
) -> Response {
    let name = format!("skills/{slag}/jobs/{job_id}");
    // The types come from the ask itself, read again: the form only names fields.
    let waiting = match clients
        .orchestrator
        .get_job(pb::GetJobRequest { name: name.clone() })
        .await
    {
        Ok(job) => job.into_inner().waiting.unwrap_or_default(),
        Err(status) => return failure(status),
    };
    let kinds: HashMap<&str, &str> = waiting
        .fields
        .iter()
        .map(|field| (field.name.as_str(), field.r#type.as_str()))
        .collect();
    let values: HashMap<String, String> = form
        .iter()
        .filter_map(|(key, value)| Some((key.strip_prefix("f.")?.to_owned(), value.clone())))
        .collect();
    let fields = values
        .iter()
        .map(|(field, text)| {
            let kind = kinds.get(field.as_str()).copied().unwrap_or("string");
            (field.clone(), typed(kind, text))
        })
        .collect();
    let submitted = clients
        .dal
        .submit_input(pb::SubmitInputRequest {
            job: name.clone(),
            correlation_id: form.get("correlation_id").cloned().unwrap_or_default(),
            fields,
            ..Default::default()
        })
        .await;
    match submitted {
        Ok(_) => Redirect::to(&format!("/{name}")).into_response(),
        Err(status) if status.code() == tonic::Code::InvalidArgument => {
            let refusal = refusal_of(&status, values);
            let mut response = render_job(&mut clients, &slag, &job_id, &refusal).await;
            *response.status_mut() = StatusCode::UNPROCESSABLE_ENTITY;
            response
        }
        Err(status) => failure(status),
    }
}

#[derive(Debug, Deserialize)]
pub struct DecideForm {
    correlation_id: String,
    decision: String,
    #[serde(default)]
    comment: String,
}

pub async fn decide(
    mut clients: Clients,
    Path((slag, job_id)): Path<(String, String)>,
    Form(form): Form<DecideForm>,
) -> Response {
    let decision = match form.decision.as_str() {
        "approve" => pb::ApprovalDecision::Approve,
        "reject" => pb::ApprovalDecision::Reject,
        _ => return (StatusCode::BAD_REQUEST, "decision: approve or reject").into_response(),
    };
    let name = format!("skills/{slag}/jobs/{job_id}");
    match clients
        .gate
        .decide_approval(pb::DecideApprovalRequest {
            job: name.clone(),
            correlation_id: form.correlation_id,
            decision: decision as i32,
            comment: form.comment,
            ..Default::default()
        })
        .await
    {
        Ok(_) => Redirect::to(&format!("/{name}")).into_response(),
        // Not this principal's to decide (the owner, or without the role):
        // said on the card, which stays.
        Err(status)
            if matches!(
                status.code(),
                tonic::Code::PermissionDenied | tonic::Code::FailedPrecondition
            ) =>
        {
            let refusal = Refusal {
                general: Some(status.message().to_owned()),
                ..Refusal::default()
            };
            let mut response = render_job(&mut clients, &slag, &job_id, &refusal).await;
            *response.status_mut() = StatusCode::FORBIDDEN;
            response
        }
        Err(status) => failure(status),
    }
}

pub async fn cancel(
    mut clients: Clients,
    Path((slag, job_id)): Path<(String, String)>,
) -> Response {
    let name = format!("skills/{slag}/jobs/{job_id}");
    match clients
        .orchestrator
        .cancel_job(pb::CancelJobRequest {
            name: name.clone(),
            reason: "cancelled from the console".into(),
            ..Default::default()
        })
        .await
    {
        Ok(_) => Redirect::to(&format!("/{name}")).into_response(),
        Err(status) => failure(status),
    }
}

/// A job event for the page's script: what happened, the status after it,
/// and the job's version (a newer one than the page's means reload).
fn sse_event(event: &pb::JobEvent) -> Event {
    let kind = pb::JobEventType::try_from(event.r#type).map_or("unknown".into(), |kind| {
        enum_label(kind.as_str_name(), "JOB_EVENT_TYPE_")
    });
    let data = serde_json::json!({
        "job": event.job,
        "type": kind,
        "status": status_label(event.status),
        "message": event.message,
        "version": event.job_version,
        "time": time(event.time.as_ref()),
    });
    Event::default()
        .id(event.event_id.clone())
        .data(data.to_string())
}

fn watch_stream(
    mut orchestrator: pb::orchestrator_service_client::OrchestratorServiceClient<AuthChannel>,
    name: String,
    after: String,
) -> impl futures_util::Stream<Item = Result<Event, Infallible>> + Send {
    futures_util::stream::once(async move {
        orchestrator
            .watch_job(pb::WatchJobRequest {
                name,
                after_event_id: after,
            })
            .await
    })
    .filter_map(|opened| async move { opened.ok().map(tonic::Response::into_inner) })
    .flatten()
    .take_while(|event| futures_util::future::ready(event.is_ok()))
    .filter_map(|event| async move { event.ok().map(|event| Ok(sse_event(&event))) })
}

/// One job's events as server-sent events (WatchJob), from `Last-Event-ID` on.
pub async fn job_events(
    clients: Clients,
    headers: HeaderMap,
    Path((slag, job_id)): Path<(String, String)>,
) -> Response {
    let after = headers
        .get("last-event-id")
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let stream = watch_stream(
        clients.orchestrator,
        format!("skills/{slag}/jobs/{job_id}"),
        after,
    );
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}

#[derive(Debug, Deserialize)]
pub struct WatchQuery {
    #[serde(default)]
    ids: String,
}

/// The listed jobs' new events, merged (one WatchJob per job, at most
/// [`MAX_WATCHED`]): the list page reloads when one of its jobs moves.
pub async fn jobs_events(
    clients: Clients,
    Path(slag): Path<String>,
    Query(query): Query<WatchQuery>,
) -> Response {
    let streams: Vec<_> = query
        .ids
        .split(',')
        .filter(|id| !id.is_empty())
        .take(MAX_WATCHED)
        .map(|id| {
            // Only what comes after the page was drawn: the latest event id is
            // not known here, so each stream skips its history by version.
            watch_stream(
                clients.orchestrator.clone(),
                format!("skills/{slag}/jobs/{id}"),
                String::new(),
            )
            .boxed()
        })
        .collect();
    Sse::new(futures_util::stream::select_all(streams))
        .keep_alive(KeepAlive::default())
        .into_response()
}
