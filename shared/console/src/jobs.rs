//! Jobs: a skill's list (newest first) with status filters, starting a job, the job page,
//! answers, decisions, cancels, and their live events (WatchJob as SSE).

use std::collections::{BTreeMap, HashMap};
use std::convert::Infallible;
use std::fmt::Write;

use adas_proto::pb;
use adas_runtime::auth::AuthChannel;
use adas_runtime::convert::{struct_to_json, value_to_json};
use axum::extract::{Form, Path, Query};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Redirect, Response};
use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::Value as Json;

use crate::html::{
    Who, badge, call_text, distinct_prefix, enum_label, esc, holds_role, json_block, page,
    principal, short_id, time,
};
use crate::pages::{Clients, failure};
use crate::widget::{Refusal, approval_card, refusal_of, takeover_form, typed, widget};

/// Jobs one live list follows at once (one WatchJob each).
const MAX_WATCHED: usize = 50;

/// Jobs per list page.
const PAGE_SIZE: i32 = 25;

pub(crate) const STATUSES: [(&str, pb::JobStatus); 6] = [
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

pub(crate) fn status_label(status: i32) -> String {
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
            order_by: "create_time desc".into(),
            ..Default::default()
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
    let length = distinct_prefix(listed.jobs.iter().map(|job| job.job_id.as_str()));
    for job in &listed.jobs {
        let status = status_label(job.status);
        if !matches!(status.as_str(), "completed" | "failed" | "cancelled") {
            live.push(job.job_id.clone());
        }
        let _ = write!(
            rows,
            "<tr class=\"job\" data-job=\"{id}\" data-version=\"{}\"><td class=\"id\">{}</td>\
             <td class=\"goal\" title=\"{goal}\">{goal}</td><td class=\"status\">{}</td><td>{}</td><td>{}</td></tr>",
            job.version,
            short_id(&job.job_id, length, &format!("/{}", job.name)),
            badge(&status),
            esc(&outcome_label(job.outcome_class)),
            time(job.update_time.as_ref()),
            id = esc(&job.job_id),
            goal = esc(&job.goal),
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
    Html(page(
        &format!("Jobs of {slag}"),
        Who::Caller(&clients.caller),
        &data,
        &body,
    ))
    .into_response()
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
         <dt>Iteration</dt><dd>{} of {}</dd>\
         <dt>Skill version</dt><dd class=\"version\"><code>{}</code></dd>{}</dl>",
        esc(&job.job_id),
        esc(&job.goal),
        esc(&outcome),
        job.iteration,
        job.iteration_budget,
        esc(if job.skill_etag.is_empty() {
            "current"
        } else {
            &job.skill_etag
        }),
        trace(&job.trace_id, clients.trace_url.as_deref()),
        slag = esc(slag),
    );
    if !job.solution.is_empty() {
        let _ = write!(
            body,
            "<p class=\"turn\">Solution <code>{}</code> · this turn handled by <strong>{}</strong>{}</p>",
            esc(&job.solution),
            esc(&job.slag),
            if job.handed_off_from.is_empty() {
                String::new()
            } else {
                format!(
                    " · handed off from <code>{}</code>",
                    esc(&job.handed_off_from)
                )
            }
        );
    }
    if let Some(error) = &job.error
        && !error.message.is_empty()
    {
        let _ = write!(body, "<p class=\"error\">{}</p>", esc(&error.message));
    }
    grants(&mut body, &job.grants);
    decisions(&mut body, &job.decisions);
    // Results of tools classified `pii_*` are masked here by default.
    let personal = personal_tools(clients, slag).await;
    if let Some(waiting) = &job.waiting {
        let paused = job.status == pb::JobStatus::Paused as i32;
        // Spec 000's UI contract: the input widget if and only if the job is
        // paused for the user and says why.
        if paused
            && job.outcome_class == pb::OutcomeClass::UserActionRequired as i32
            && !waiting.reason_code.is_empty()
        {
            body.push_str(&widget(&name, waiting, refusal));
        } else if paused && job.outcome_class == pb::OutcomeClass::Escalated as i32 {
            let may_take_over = principal(&clients.caller).sees_all_jobs();
            body.push_str(&takeover_form(&name, waiting, refusal, may_take_over));
        } else if paused
            && job.outcome_class == pb::OutcomeClass::ApprovalRequired as i32
            && let Some(approval) = &waiting.approval
        {
            let may_decide = holds_role(&clients.caller, &approval.approver);
            body.push_str(&approval_card(
                &name, waiting, approval, refusal, may_decide,
            ));
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
    tool_calls(&mut body, &job.tool_calls, &personal);
    if !matches!(status.as_str(), "completed" | "failed" | "cancelled") {
        let _ = write!(
            body,
            "<form method=\"post\" action=\"/{}/cancel\"><button class=\"secondary\">Cancel the job</button></form>",
            esc(&name)
        );
    }
    retry_links(&mut body, &job, &clients.caller);
    body.push_str("<h2>Timeline</h2><ol id=\"timeline\"></ol>");
    let data = [
        ("page", "job".to_owned()),
        ("job", name.clone()),
        ("version", job.version.to_string()),
    ];
    Html(page(
        &format!("Job {}", job.job_id),
        Who::Caller(&clients.caller),
        &data,
        &body,
    ))
    .into_response()
}

/// The way to run the job again, for who may (its owner, an operator) when
/// it may (failed, or handed to a human), and its links to the job it
/// retries and the job that retries it.
fn retry_links(body: &mut String, job: &pb::Job, caller: &pb::Caller) {
    let link = |label: &str, class: &str, name: &str| {
        format!(
            "<p class=\"{class}\">{label} <a href=\"/{0}\"><code>{0}</code></a></p>",
            esc(name)
        )
    };
    if !job.retry_of.is_empty() {
        body.push_str(&link("A retry of", "retry-of", &job.retry_of));
    }
    if !job.retried_by.is_empty() {
        body.push_str(&link("Retried as", "retried-by", &job.retried_by));
        return;
    }
    let escalated = job.status == pb::JobStatus::Paused as i32
        && job.outcome_class == pb::OutcomeClass::Escalated as i32;
    // A solution's turn is started again on the solution, not retried.
    let retryable =
        job.solution.is_empty() && (job.status == pb::JobStatus::Failed as i32 || escalated);
    if retryable && principal(caller).may_retry(&job.owner) {
        let _ = write!(
            body,
            "<form method=\"post\" action=\"/{}/retry\" class=\"retry\">\
             <button>Retry as a new job</button> <span class=\"hint\">the same goal and inputs, in the \
             same conversation{}</span></form>",
            esc(&job.name),
            if escalated {
                "; this job is cancelled"
            } else {
                ""
            }
        );
    }
}

/// RetryJob, then the new job's page.
pub async fn retry(mut clients: Clients, Path((slag, job_id)): Path<(String, String)>) -> Response {
    let name = format!("skills/{slag}/jobs/{job_id}");
    match clients
        .orchestrator
        .retry_job(pb::RetryJobRequest { name })
        .await
    {
        Ok(job) => Redirect::to(&format!("/{}", job.into_inner().name)).into_response(),
        Err(status) => failure(status),
    }
}

/// The job's trace id, linked to the trace UI when one is configured
/// (nothing when the suite does not trace).
fn trace(trace_id: &str, template: Option<&str>) -> String {
    // Only a W3C trace id goes into a link: 32 lowercase hex digits.
    if trace_id.len() != 32
        || !trace_id
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        return String::new();
    }
    match template {
        Some(template) => format!(
            "<dt>Trace</dt><dd class=\"trace\"><a href=\"{}\"><code>{trace_id}</code></a></dd>",
            esc(&template.replace("{trace_id}", trace_id))
        ),
        None => format!("<dt>Trace</dt><dd class=\"trace\"><code>{trace_id}</code></dd>"),
    }
}

/// The grants the job holds, as a table (nothing when none).
fn grants(body: &mut String, grants: &[pb::Grant]) {
    if grants.is_empty() {
        return;
    }
    body.push_str(
        "<h2>Grants</h2><table class=\"grants\"><tr><th>Grant</th><th>Value</th><th>Issued by</th><th>Expires</th></tr>",
    );
    for grant in grants {
        let _ = write!(
            body,
            "<tr><td><code>{}</code></td><td>{}</td><td><code>{}</code> of {}</td><td>{}</td></tr>",
            esc(&grant.key),
            esc(&grant.value),
            esc(&grant.issuer_tool),
            esc(&grant.issuer_skill),
            time(grant.expire_time.as_ref()),
        );
    }
    body.push_str("</table>");
}

/// The approvers' decisions with their reasons, as a table (nothing when
/// none): the job's approval trail.
fn decisions(body: &mut String, decisions: &[pb::JobDecision]) {
    if decisions.is_empty() {
        return;
    }
    body.push_str(
        "<h2>Decisions</h2><table class=\"decisions\"><tr><th>Call</th><th>Decision</th><th>By</th><th>Why</th><th>When</th></tr>",
    );
    for decision in decisions {
        let verdict = if decision.decision == pb::ApprovalDecision::Approve as i32 {
            "approved"
        } else {
            "rejected"
        };
        let _ = write!(
            body,
            "<tr><td><code>{}</code></td><td class=\"{verdict}\">{verdict}</td><td>{} <small>({})</small></td><td class=\"comment\">{}</td><td>{}</td></tr>",
            esc(&decision.tool),
            esc(&decision.approver),
            esc(&decision.role),
            esc(&decision.comment),
            time(decision.decide_time.as_ref()),
        );
    }
    body.push_str("</table>");
}

/// The job's tool calls, each a card; outputs of `personal` tools masked.
fn tool_calls(body: &mut String, calls: &[pb::ToolCallRecord], personal: &[String]) {
    body.push_str("<h2>Tool calls</h2>");
    if calls.is_empty() {
        body.push_str("<p>None yet.</p>");
    }
    for call in calls {
        let arguments = call
            .arguments
            .as_ref()
            .map(struct_to_json)
            .unwrap_or_default();
        let mut output = call
            .output
            .as_ref()
            .map(value_to_json)
            .unwrap_or(Json::Null);
        if personal.contains(&call.tool) {
            mask(&mut output);
        }
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
    /// `inbox` when decided on the inbox's row: back there after.
    #[serde(default)]
    back: String,
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
        // Only the inbox, by name: a form never chooses where a browser goes.
        Ok(_) if form.back == "inbox" => Redirect::to("/inbox").into_response(),
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
    let payload = event.data.as_ref().map(struct_to_json).unwrap_or_default();
    // Who answered, approved or rejected, as the event recorded it (a pause
    // for approval names the role it waits for, not a person).
    let by = payload
        .get("by")
        .or_else(|| {
            (kind != "paused")
                .then(|| payload.get("approver"))
                .flatten()
        })
        .and_then(Json::as_str)
        .unwrap_or_default()
        .to_owned();
    let at_ms = event.time.as_ref().map_or(0, |time| {
        time.seconds.saturating_mul(1000) + i64::from(time.nanos / 1_000_000)
    });
    let data = serde_json::json!({
        "job": event.job,
        "type": kind,
        "status": status_label(event.status),
        "message": event.message,
        "version": event.job_version,
        "time": time(event.time.as_ref()),
        "at_ms": at_ms,
        "by": by,
        "payload": payload,
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

/// The skill's tools classified personal (`security.classification: pii_*`).
async fn personal_tools(clients: &mut Clients, slag: &str) -> Vec<String> {
    let Ok(skill) = clients
        .registry
        .get_skill(pb::GetSkillRequest {
            name: format!("skills/{slag}"),
        })
        .await
    else {
        return Vec::new();
    };
    let document = skill
        .into_inner()
        .document
        .as_ref()
        .map(struct_to_json)
        .unwrap_or_default();
    document
        .get("tools")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter(|tool| {
            tool["security"]["classification"]
                .as_str()
                .is_some_and(|class| class.to_ascii_lowercase().starts_with("pii"))
        })
        .filter_map(|tool| tool["name"].as_str().map(str::to_owned))
        .collect()
}

/// Every scalar of `value` replaced by `***` (keys kept: what was returned
/// shows, not what it said).
fn mask(value: &mut Json) {
    match value {
        Json::Object(map) => map.values_mut().for_each(mask),
        Json::Array(items) => items.iter_mut().for_each(mask),
        Json::Null => {}
        other => *other = Json::String("***".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_id_is_linked_only_as_a_trace_id() {
        let id = "4bf92f3577b34da6a3ce929d0e0e4736";
        let template = Some("https://traces.example/trace/{trace_id}?a=1&b=2");
        assert_eq!(
            trace(id, template),
            format!(
                "<dt>Trace</dt><dd class=\"trace\"><a href=\"https://traces.example/trace/{id}?a=1&amp;b=2\">\
                 <code>{id}</code></a></dd>"
            )
        );
        assert!(trace(id, None).contains(&format!("<code>{id}</code>")));
        // Not traced, or not a W3C id: nothing goes into a page or a link.
        for id in [
            "",
            "4BF92F3577B34DA6A3CE929D0E0E4736",
            "\"><script>alert(1)</script>0000000",
        ] {
            assert_eq!(trace(id, template), "", "{id}");
        }
    }
}
