//! Across skills: every job the signed-in principal may read, newest first,
//! filtered and paged (ListJobs on `skills/-`), with a head the page script
//! polls so a new job appears; and the inbox of everything waiting for a
//! human — asks, approvals, escalations — with counts.

use std::fmt::Write;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use adas_proto::pb;
use adas_runtime::convert::struct_to_json;
use axum::extract::Query;
use axum::response::{Html, IntoResponse, Response};
use serde::Deserialize;

use crate::html::{
    Who, badge, call_text, distinct_prefix, enum_label, esc, holds_role, page, principal, short_id,
    time,
};
use crate::jobs::{STATUSES, status_label};
use crate::pages::{Clients, failure};

/// Jobs per page of the jobs view.
const PAGE_SIZE: i32 = 25;

/// Paused jobs the inbox reads per kind (its counts say "1000+" beyond).
const INBOX_LIMIT: usize = 1000;

/// Outcomes a filter offers, by their wire names.
const OUTCOMES: [pb::OutcomeClass; 11] = [
    pb::OutcomeClass::Success,
    pb::OutcomeClass::UserActionRequired,
    pb::OutcomeClass::ApprovalRequired,
    pb::OutcomeClass::Escalated,
    pb::OutcomeClass::PolicyDenied,
    pb::OutcomeClass::ToolFailed,
    pb::OutcomeClass::OutOfDomain,
    pb::OutcomeClass::EngineBudgetExhausted,
    pb::OutcomeClass::InternalError,
    pb::OutcomeClass::Cancelled,
    pb::OutcomeClass::Expired,
];

/// Time windows a filter offers: label, seconds back.
const SINCE: [(&str, i64); 3] = [("1h", 3_600), ("24h", 86_400), ("7d", 604_800)];

/// The jobs view's filters, as the query string carries them.
#[derive(Debug, Default, Deserialize)]
pub struct JobsFilter {
    #[serde(default)]
    status: String,
    #[serde(default)]
    outcome: String,
    #[serde(default)]
    skill: String,
    #[serde(default)]
    owner: String,
    #[serde(default)]
    since: String,
    #[serde(default)]
    page: String,
    /// After a bulk cancel: how many were cancelled, and refused.
    #[serde(default)]
    cancelled: Option<usize>,
    #[serde(default)]
    refused: Option<usize>,
}

fn outcome_label(outcome: pb::OutcomeClass) -> String {
    enum_label(outcome.as_str_name(), "OUTCOME_CLASS_")
}

impl JobsFilter {
    /// The ListJobs request these filters ask for.
    fn request(&self, page_size: i32) -> pb::ListJobsRequest {
        let status = STATUSES
            .iter()
            .find(|(name, _)| *name == self.status)
            .map_or(pb::JobStatus::Unspecified, |(_, status)| *status);
        let outcome = OUTCOMES
            .iter()
            .find(|outcome| outcome_label(**outcome) == self.outcome)
            .copied()
            .unwrap_or(pb::OutcomeClass::Unspecified);
        let create_time_after =
            SINCE
                .iter()
                .find(|(label, _)| *label == self.since)
                .map(|(_, back)| prost_types::Timestamp {
                    seconds: jiff::Timestamp::now().as_second() - back,
                    nanos: 0,
                });
        pb::ListJobsRequest {
            parent: if self.skill.is_empty() {
                "skills/-".into()
            } else {
                format!("skills/{}", self.skill)
            },
            status: status as i32,
            page_size,
            page_token: self.page.clone(),
            outcome_class: outcome as i32,
            owner: self.owner.clone(),
            create_time_after,
            order_by: "create_time desc".into(),
        }
    }

    /// The query string of these filters (without the page).
    fn query(&self) -> String {
        let pairs = [
            ("status", &self.status),
            ("outcome", &self.outcome),
            ("skill", &self.skill),
            ("owner", &self.owner),
            ("since", &self.since),
        ];
        pairs
            .iter()
            .filter(|(_, value)| !value.is_empty())
            .map(|(name, value)| format!("{name}={}", url_encode(value)))
            .collect::<Vec<_>>()
            .join("&")
    }

    /// The filter form, its current values selected.
    fn form(&self, skills: &[String]) -> String {
        let select = |name: &str, any: &str, options: &[String], current: &str| {
            let mut html =
                format!("<label>{name} <select name=\"{name}\"><option value=\"\">{any}</option>");
            for option in options {
                let _ = write!(
                    html,
                    "<option{}>{}</option>",
                    if option == current { " selected" } else { "" },
                    esc(option)
                );
            }
            html.push_str("</select></label>");
            html
        };
        let statuses: Vec<String> = STATUSES
            .iter()
            .map(|(name, _)| (*name).to_owned())
            .collect();
        let outcomes: Vec<String> = OUTCOMES.iter().map(|o| outcome_label(*o)).collect();
        let since: Vec<String> = SINCE.iter().map(|(label, _)| (*label).to_owned()).collect();
        format!(
            "<form method=\"get\" action=\"/jobs\" class=\"card filters\">{}{}{}{}\
             <label>owner <input name=\"owner\" value=\"{}\" placeholder=\"any principal\"></label>\
             <button type=\"submit\">Filter</button> <a href=\"/jobs\">clear</a></form>",
            select("skill", "all skills", skills, &self.skill),
            select("status", "any status", &statuses, &self.status),
            select("outcome", "any outcome", &outcomes, &self.outcome),
            select("since", "any time", &since, &self.since),
            esc(&self.owner),
        )
    }
}

/// Percent-encoding for a query value (RFC 3986 unreserved kept).
fn url_encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            out.push(byte as char);
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

/// Every skill the registry lists for the principal, by slag.
async fn skill_slags(clients: &mut Clients) -> Vec<String> {
    clients
        .registry
        .list_skills(pb::ListSkillsRequest::default())
        .await
        .map(|listed| {
            listed
                .into_inner()
                .skills
                .into_iter()
                .map(|skill| skill.slag)
                .collect()
        })
        .unwrap_or_default()
}

fn job_row(job: &pb::Job, length: usize) -> String {
    let status = status_label(job.status);
    let outcome = pb::OutcomeClass::try_from(job.outcome_class)
        .ok()
        .filter(|outcome| *outcome != pb::OutcomeClass::Unspecified)
        .map(outcome_label)
        .unwrap_or_default();
    format!(
        "<tr class=\"job\" data-job=\"{name}\" data-version=\"{}\">\
         <td class=\"id\">{}</td><td><a href=\"/skills/{slag}\">{slag}</a></td>\
         <td class=\"goal\" title=\"{goal}\">{goal}</td><td class=\"status\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        job.version,
        short_id(&job.job_id, length, &format!("/{}", job.name)),
        badge(&status),
        esc(&outcome),
        esc(&job.owner),
        time(job.create_time.as_ref()),
        name = esc(&job.name),
        slag = esc(&job.slag),
        goal = esc(&job.goal),
    )
}

/// The jobs of the page not yet ended, cancelled at once: a form naming each
/// (nothing when none).
fn cancel_listed_form(jobs: &[pb::Job], query: &str) -> String {
    let unfinished: Vec<&pb::Job> = jobs
        .iter()
        .filter(|job| {
            !matches!(
                status_label(job.status).as_str(),
                "completed" | "failed" | "cancelled"
            )
        })
        .collect();
    if unfinished.is_empty() {
        return String::new();
    }
    let names: String = unfinished
        .iter()
        .map(|job| {
            format!(
                "<input type=\"hidden\" name=\"job\" value=\"{}\">",
                esc(&job.name)
            )
        })
        .collect();
    format!(
        "<form method=\"post\" action=\"/jobs/cancel\" class=\"bulk-cancel\" data-count=\"{0}\">{names}\
         <input type=\"hidden\" name=\"back\" value=\"{1}\">\
         <button class=\"secondary\">Cancel the {0} unfinished job{2} listed</button></form>",
        unfinished.len(),
        esc(query),
        if unfinished.len() == 1 { "" } else { "s" }
    )
}

/// What a bulk cancel did, said on the list it returns to.
fn bulk_result(filter: &JobsFilter) -> String {
    match (filter.cancelled, filter.refused) {
        (None, None) => String::new(),
        (cancelled, refused) => format!(
            "<p class=\"bulk-result\">Cancelled {}{}.</p>",
            cancelled.unwrap_or(0),
            match refused.unwrap_or(0) {
                0 => String::new(),
                refused => format!("; {refused} refused (not yours to cancel, or already ended)"),
            }
        ),
    }
}

/// Most jobs one bulk cancel takes (a page holds 25).
const MAX_BULK_CANCEL: usize = 100;

/// `POST /jobs/cancel`: cancels each job named, one CancelJob each — each
/// checked and audited as the signed-in principal's — and returns to the
/// list it came from, saying how many were cancelled and refused.
pub async fn cancel_listed(
    mut clients: Clients,
    axum::extract::Form(form): axum::extract::Form<Vec<(String, String)>>,
) -> Response {
    let names: Vec<&str> = form
        .iter()
        .filter(|(key, _)| key == "job")
        .map(|(_, name)| name.as_str())
        .take(MAX_BULK_CANCEL)
        .collect();
    let reason = format!(
        "cancelled with others from the console by {}",
        clients.caller.name
    );
    let (mut cancelled, mut refused) = (0, 0);
    for name in names {
        let request = pb::CancelJobRequest {
            name: name.to_owned(),
            reason: reason.clone(),
            ..Default::default()
        };
        match clients.orchestrator.cancel_job(request).await {
            Ok(_) => cancelled += 1,
            Err(status) if status.code() == tonic::Code::Unauthenticated => return failure(status),
            Err(_) => refused += 1,
        }
    }
    // Back to the list as filtered: only the filter's own characters, so
    // the form cannot send the browser anywhere else.
    let back: String = form
        .iter()
        .find(|(key, _)| key == "back")
        .map(|(_, back)| back.clone())
        .unwrap_or_default()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || "=&%._-+:".contains(*c))
        .collect();
    let separator = if back.is_empty() { "" } else { "&" };
    axum::response::Redirect::to(&format!(
        "/jobs?{back}{separator}cancelled={cancelled}&refused={refused}"
    ))
    .into_response()
}

/// `/jobs`: every readable job, newest first.
pub async fn all_jobs(mut clients: Clients, Query(filter): Query<JobsFilter>) -> Response {
    let listed = match clients
        .orchestrator
        .list_jobs(filter.request(PAGE_SIZE))
        .await
    {
        Ok(listed) => listed.into_inner(),
        Err(status) => return failure(status),
    };
    let skills = skill_slags(&mut clients).await;
    let length = distinct_prefix(listed.jobs.iter().map(|job| job.job_id.as_str()));
    let rows: String = listed.jobs.iter().map(|job| job_row(job, length)).collect();
    let rows = if rows.is_empty() {
        "<tr><td colspan=\"7\">No jobs match.</td></tr>".to_owned()
    } else {
        rows
    };
    let query = filter.query();
    let next = if listed.next_page_token.is_empty() {
        String::new()
    } else {
        format!(
            "<p><a class=\"next\" href=\"/jobs?{}{}page={}\">Older jobs</a></p>",
            esc(&query),
            if query.is_empty() { "" } else { "&amp;" },
            esc(&listed.next_page_token)
        )
    };
    let body = format!(
        "<h1>Jobs</h1>{}{}<p class=\"hint\">Newest first{}; new jobs appear as they start.</p>\
         <table class=\"jobs all\"><thead><tr><th>Job</th><th>Skill</th><th>Goal</th><th>Status</th>\
         <th>Outcome</th><th>Owner</th><th>Created</th></tr></thead><tbody>{rows}</tbody></table>{}{next}",
        filter.form(&skills),
        bulk_result(&filter),
        cancel_listed_form(&listed.jobs, &query),
        if filter.page.is_empty() {
            ""
        } else {
            " (an older page)"
        },
    );
    // The head the script compares against: only the first page follows new jobs.
    let head = if filter.page.is_empty() {
        listed.jobs.first().map(head_of).unwrap_or_default()
    } else {
        String::new()
    };
    let data = [
        ("page", "all-jobs".to_owned()),
        ("query", query),
        ("head", head),
        ("follow", filter.page.is_empty().to_string()),
    ];
    Html(page("Jobs", Who::Caller(&clients.caller), &data, &body)).into_response()
}

/// What changes when the first page of a list changes: its first job and
/// that job's version.
fn head_of(job: &pb::Job) -> String {
    format!("{}@{}", job.name, job.version)
}

/// `/jobs/head`: the first job of the filtered list, for the page script to
/// compare with the one it shows.
pub async fn jobs_head(mut clients: Clients, Query(filter): Query<JobsFilter>) -> Response {
    let filter = JobsFilter {
        page: String::new(),
        ..filter
    };
    match clients.orchestrator.list_jobs(filter.request(1)).await {
        Ok(listed) => (
            [(http::header::CONTENT_TYPE, "application/json")],
            serde_json::json!({
                "head": listed.into_inner().jobs.first().map(head_of).unwrap_or_default()
            })
            .to_string(),
        )
            .into_response(),
        Err(status) => failure(status),
    }
}

/// The kinds of waiting the inbox shows: a title, the outcome that says it.
const INBOX: [(&str, &str, pb::OutcomeClass); 3] = [
    (
        "asks",
        "Asks: a user's answer is needed",
        pb::OutcomeClass::UserActionRequired,
    ),
    (
        "approvals",
        "Approvals: an approver's decision is needed",
        pb::OutcomeClass::ApprovalRequired,
    ),
    (
        "escalations",
        "Escalations: handed to a human",
        pb::OutcomeClass::Escalated,
    ),
];

/// Paused jobs with `outcome`, across skills, oldest ask first, and whether
/// there were more than [`INBOX_LIMIT`].
async fn waiting_of(
    clients: &mut Clients,
    outcome: pb::OutcomeClass,
) -> Result<(Vec<pb::Job>, bool), tonic::Status> {
    let mut jobs = Vec::new();
    let mut token = String::new();
    loop {
        let listed = clients
            .orchestrator
            .list_jobs(pb::ListJobsRequest {
                parent: "skills/-".into(),
                status: pb::JobStatus::Paused as i32,
                page_size: 1000,
                page_token: token,
                outcome_class: outcome as i32,
                ..Default::default()
            })
            .await?
            .into_inner();
        jobs.extend(listed.jobs);
        if jobs.len() >= INBOX_LIMIT || listed.next_page_token.is_empty() {
            let more = jobs.len() > INBOX_LIMIT
                || (jobs.len() == INBOX_LIMIT && !listed.next_page_token.is_empty());
            jobs.truncate(INBOX_LIMIT);
            // The longest wait first: who has waited most is served first.
            jobs.reverse();
            return Ok((jobs, more));
        }
        token = listed.next_page_token;
    }
}

/// One row of the inbox: the job, what it waits for (the exact call of an
/// approval, else the ask and the goal), its owner, how long it has waited,
/// and what the signed-in principal may do about it right there.
fn inbox_row(
    section: &str,
    (job, length): (&pb::Job, usize),
    caller: &pb::Caller,
    now: SystemTime,
) -> String {
    let waiting = job.waiting.clone().unwrap_or_default();
    let goal = format!(
        "<span class=\"goal\" title=\"{0}\">{0}</span>",
        esc(&job.goal)
    );
    let (what, act) = match &waiting.approval {
        Some(approval) => {
            let arguments = approval
                .arguments
                .as_ref()
                .map(struct_to_json)
                .unwrap_or_default();
            let what = format!(
                "<code class=\"call\">{}</code> needs <strong>{}</strong>{goal}",
                esc(&call_text(&approval.tool, &arguments)),
                esc(&approval.approver)
            );
            // Decided here only by whoever the suite would let decide.
            let act = if holds_role(caller, &approval.approver) {
                format!(
                    "<form method=\"post\" action=\"/{}/decide\" class=\"inline decide\">\
                     <input type=\"hidden\" name=\"correlation_id\" value=\"{}\">\
                     <input type=\"hidden\" name=\"back\" value=\"inbox\">\
                     <input name=\"comment\" placeholder=\"why\" maxlength=\"4096\">\
                     <button name=\"decision\" value=\"approve\">Approve</button>\
                     <button name=\"decision\" value=\"reject\" class=\"secondary\">Deny</button></form>",
                    esc(&job.name),
                    esc(&waiting.correlation_id)
                )
            } else {
                String::new()
            };
            (what, act)
        }
        None => {
            let what = format!(
                "<span class=\"prompt\">{}</span>{goal}",
                esc(&waiting.prompt_message)
            );
            let act = if job.outcome_class == pb::OutcomeClass::Escalated as i32
                && principal(caller).sees_all_jobs()
            {
                format!(
                    "<a class=\"button\" href=\"/{}\">Take over</a>",
                    esc(&job.name)
                )
            } else {
                String::new()
            };
            (what, act)
        }
    };
    let since = waiting.created_at.as_ref();
    format!(
        "<tr class=\"waiting {section}\" data-job=\"{}\"><td class=\"id\">{}</td>\
         <td><a href=\"/skills/{slag}\">{slag}</a></td><td class=\"what\">{what}</td><td>{}</td>\
         <td class=\"age\" title=\"{}\">{}</td><td class=\"act\">{act}</td></tr>",
        esc(&job.job_id),
        short_id(&job.job_id, length, &format!("/{}", job.name)),
        esc(&job.owner),
        time(since),
        waited(since, now),
        slag = esc(&job.slag),
    )
}

/// How long since `since`, as a person says it: "waiting 12 min".
fn waited(since: Option<&prost_types::Timestamp>, now: SystemTime) -> String {
    let Some(since) = since else {
        return String::new();
    };
    let then = UNIX_EPOCH + Duration::new(since.seconds.max(0) as u64, since.nanos.max(0) as u32);
    let seconds = now.duration_since(then).unwrap_or_default().as_secs();
    let amount = match seconds {
        0..60 => format!("{seconds} s"),
        60..3_600 => format!("{} min", seconds / 60),
        3_600..172_800 => format!("{} h", seconds / 3_600),
        _ => format!("{} days", seconds / 86_400),
    };
    format!("waiting {amount}")
}

/// `/inbox`: everything waiting for a human, across skills.
pub async fn inbox(mut clients: Clients) -> Response {
    let mut counts = String::new();
    let mut sections = String::new();
    let mut total = 0;
    for (id, title, outcome) in INBOX {
        let (jobs, more) = match waiting_of(&mut clients, outcome).await {
            Ok(found) => found,
            Err(status) => return failure(status),
        };
        total += jobs.len();
        let count = format!("{}{}", jobs.len(), if more { "+" } else { "" });
        let _ = write!(
            counts,
            "<li><a href=\"#{id}\">{}</a> <span class=\"count\" id=\"count-{id}\">{count}</span></li>",
            esc(title.split(':').next().unwrap_or(title)),
        );
        let mut rows = String::new();
        let now = std::time::SystemTime::now();
        let length = distinct_prefix(jobs.iter().map(|job| job.job_id.as_str()));
        for job in &jobs {
            let _ = write!(
                rows,
                "{}",
                inbox_row(id, (job, length), &clients.caller, now)
            );
        }
        if rows.is_empty() {
            rows = "<tr><td colspan=\"6\">Nothing waiting.</td></tr>".into();
        }
        let _ = write!(
            sections,
            "<h2 id=\"{id}\">{} <span class=\"count\">{count}</span></h2>\
             <table class=\"inbox {id}\"><thead><tr><th>Job</th><th>Skill</th><th>Waiting for</th>\
             <th>Owner</th><th>Waiting</th><th></th></tr></thead><tbody>{rows}</tbody></table>",
            esc(title),
        );
    }
    let body = format!(
        "<h1>Waiting for a human <span class=\"count\" id=\"count-total\">{total}</span></h1>\
         <ul class=\"counts\">{counts}</ul>{sections}"
    );
    let data = [("page", "inbox".to_owned())];
    Html(page("Inbox", Who::Caller(&clients.caller), &data, &body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_reads_as_people_say_it() {
        let now = UNIX_EPOCH + Duration::from_secs(1_000_000);
        let ago = |seconds: i64| prost_types::Timestamp {
            seconds: 1_000_000 - seconds,
            nanos: 0,
        };
        for (seconds, said) in [
            (0, "waiting 0 s"),
            (59, "waiting 59 s"),
            (12 * 60 + 5, "waiting 12 min"),
            (3 * 3_600, "waiting 3 h"),
            (5 * 86_400, "waiting 5 days"),
            // A clock behind the suite's: never a negative wait.
            (-30, "waiting 0 s"),
        ] {
            assert_eq!(waited(Some(&ago(seconds)), now), said);
        }
        assert_eq!(waited(None, now), "");
    }

    #[test]
    fn filters_become_one_request_and_one_query() {
        let filter = JobsFilter {
            status: "paused".into(),
            outcome: "approval_required".into(),
            owner: "ops & co".into(),
            ..JobsFilter::default()
        };
        let request = filter.request(10);
        assert_eq!(request.parent, "skills/-");
        assert_eq!(request.status, pb::JobStatus::Paused as i32);
        assert_eq!(
            request.outcome_class,
            pb::OutcomeClass::ApprovalRequired as i32
        );
        assert_eq!(request.order_by, "create_time desc");
        assert_eq!(
            filter.query(),
            "status=paused&outcome=approval_required&owner=ops%20%26%20co"
        );
        let one = JobsFilter {
            skill: "shop".into(),
            since: "1h".into(),
            ..JobsFilter::default()
        }
        .request(10);
        assert_eq!(one.parent, "skills/shop");
        assert!(one.create_time_after.is_some());
    }
}
