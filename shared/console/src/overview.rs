//! Across skills: every job the signed-in principal may read, newest first,
//! filtered and paged (ListJobs on `skills/-`), with a head the page script
//! polls so a new job appears; and the inbox of everything waiting for a
//! human — asks, approvals, escalations — with counts.

use std::fmt::Write;

use adas_proto::pb;
use axum::extract::Query;
use axum::response::{Html, IntoResponse, Response};
use serde::Deserialize;

use crate::html::{Who, enum_label, esc, page, time};
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

fn job_row(job: &pb::Job) -> String {
    let status = status_label(job.status);
    let outcome = pb::OutcomeClass::try_from(job.outcome_class)
        .ok()
        .filter(|outcome| *outcome != pb::OutcomeClass::Unspecified)
        .map(outcome_label)
        .unwrap_or_default();
    format!(
        "<tr class=\"job {status}\" data-job=\"{name}\" data-version=\"{}\">\
         <td><a href=\"/{name}\">{}</a></td><td><a href=\"/skills/{slag}\">{slag}</a></td>\
         <td>{}</td><td class=\"status\">{status}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        job.version,
        esc(&job.job_id),
        esc(&job.goal),
        esc(&outcome),
        esc(&job.owner),
        time(job.create_time.as_ref()),
        name = esc(&job.name),
        slag = esc(&job.slag),
    )
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
    let rows: String = listed.jobs.iter().map(job_row).collect();
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
        "<h1>Jobs</h1>{}<p class=\"hint\">Newest first{}; new jobs appear as they start.</p>\
         <table class=\"jobs all\"><thead><tr><th>Job</th><th>Skill</th><th>Goal</th><th>Status</th>\
         <th>Outcome</th><th>Owner</th><th>Created</th></tr></thead><tbody>{rows}</tbody></table>{next}",
        filter.form(&skills),
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
        for job in &jobs {
            let waiting = job.waiting.as_ref();
            let what = match waiting.and_then(|w| w.approval.as_ref()) {
                Some(approval) => format!(
                    "<code>{}</code> needs <strong>{}</strong>",
                    esc(&approval.tool),
                    esc(&approval.approver)
                ),
                None => esc(waiting.map_or("", |w| w.prompt_message.as_str())),
            };
            let _ = write!(
                rows,
                "<tr class=\"waiting {id}\"><td><a href=\"/{name}\">{}</a></td>\
                 <td><a href=\"/skills/{slag}\">{slag}</a></td><td>{what}</td><td>{}</td><td>{}</td></tr>",
                esc(&job.job_id),
                esc(&job.owner),
                time(waiting.and_then(|w| w.created_at.as_ref())),
                name = esc(&job.name),
                slag = esc(&job.slag),
            );
        }
        if rows.is_empty() {
            rows = "<tr><td colspan=\"5\">Nothing waiting.</td></tr>".into();
        }
        let _ = write!(
            sections,
            "<h2 id=\"{id}\">{} <span class=\"count\">{count}</span></h2>\
             <table class=\"inbox {id}\"><thead><tr><th>Job</th><th>Skill</th><th>Waiting for</th>\
             <th>Owner</th><th>Since</th></tr></thead><tbody>{rows}</tbody></table>",
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
