//! Solutions: the list, and one solution as its clauses read — its skills
//! and their roles, the grants (who issues, who consumes), the handoffs
//! (which grants go with the conversation, which are dropped), routing and
//! security contracts — with its diagnostics at line:col.

use std::fmt::Write;

use adas_proto::pb;
use adas_skill::document::Format;
use axum::extract::Path;
use axum::response::{Html, IntoResponse, Response};

use crate::html::{Who, enum_label, esc, page};
use crate::pages::{Clients, failure};

fn skill_links(slags: &[String]) -> String {
    if slags.is_empty() {
        return "<em>none</em>".into();
    }
    slags
        .iter()
        .map(|slag| format!("<a href=\"/skills/{0}\">{0}</a>", esc(slag)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn codes(keys: &[String]) -> String {
    keys.iter()
        .map(|key| format!("<code>{}</code>", esc(key)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `/solutions`.
pub async fn solutions(mut clients: Clients) -> Response {
    let listed = match clients
        .registry
        .list_solutions(pb::ListSolutionsRequest {})
        .await
    {
        Ok(listed) => listed.into_inner(),
        Err(status) => return failure(status),
    };
    let mut rows = String::new();
    for solution in &listed.solutions {
        let id = solution.name.trim_start_matches("solutions/");
        let _ = write!(
            rows,
            "<tr class=\"solution\"><td><a href=\"/solutions/{id}\">{id}</a></td><td>{}</td><td>{}</td></tr>",
            skill_links(&solution.skills),
            solution.diagnostics.len(),
            id = esc(id),
        );
    }
    if rows.is_empty() {
        rows = "<tr><td colspan=\"3\">No solutions: `adas solution put` adds one.</td></tr>".into();
    }
    let body = format!(
        "<h1>Solutions</h1><table class=\"solutions\"><thead><tr><th>Solution</th><th>Skills</th>\
         <th>Diagnostics</th></tr></thead><tbody>{rows}</tbody></table>"
    );
    Html(page("Solutions", Who::Caller(&clients.caller), &[], &body)).into_response()
}

/// `/solutions/{id}`.
pub async fn solution(mut clients: Clients, Path(id): Path<String>) -> Response {
    let stored = match clients
        .registry
        .get_solution(pb::GetSolutionRequest {
            name: format!("solutions/{id}"),
        })
        .await
    {
        Ok(solution) => solution.into_inner(),
        Err(status) => return failure(status),
    };
    let mut body = format!(
        "<h1>Solution <code>{}</code></h1><p>etag <code>{}</code></p>",
        esc(&id),
        esc(&stored.etag)
    );
    let loaded = adas_skill::solution::load(&stored.source, Format::detect(None, &stored.source));
    if let Some(solution) = &loaded.solution {
        if let Some(description) = &solution.description {
            let _ = write!(body, "<p>{}</p>", esc(description));
        }
        body.push_str("<h2>Skills</h2><table class=\"solution-skills\"><thead><tr><th>Skill</th><th>Role</th></tr></thead><tbody>");
        for skill in &solution.skills {
            let _ = write!(
                body,
                "<tr><td><a href=\"/skills/{0}\">{0}</a></td><td>{1}</td></tr>",
                esc(&skill.id),
                esc(skill.role.as_deref().unwrap_or("")),
            );
        }
        body.push_str("</tbody></table><h2>Grants</h2><table class=\"grants\"><thead><tr><th>Grant</th><th>Issued by</th><th>Consumed by</th></tr></thead><tbody>");
        for grant in &solution.grants {
            let _ = write!(
                body,
                "<tr class=\"grant\"><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
                esc(&grant.key),
                skill_links(&grant.issued_by),
                skill_links(&grant.consumed_by),
            );
        }
        if solution.grants.is_empty() {
            body.push_str("<tr><td colspan=\"3\">No grants declared.</td></tr>");
        }
        body.push_str("</tbody></table><h2>Handoffs</h2><table class=\"handoffs\"><thead><tr><th>From</th><th>To</th><th>When</th><th>Grants passed</th><th>Grants dropped</th></tr></thead><tbody>");
        for handoff in &solution.handoffs {
            let _ = write!(
                body,
                "<tr class=\"handoff\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                skill_links(std::slice::from_ref(&handoff.from)),
                skill_links(std::slice::from_ref(&handoff.to)),
                esc(handoff.trigger.as_deref().unwrap_or("")),
                codes(&handoff.grants_passed),
                codes(&handoff.grants_dropped),
            );
        }
        if solution.handoffs.is_empty() {
            body.push_str("<tr><td colspan=\"5\">No handoffs: each conversation stays on its skill.</td></tr>");
        }
        body.push_str("</tbody></table><h2>Routing</h2><table class=\"routing\"><thead><tr><th>Channel</th><th>Starts at</th></tr></thead><tbody>");
        for (channel, route) in &solution.routing {
            let _ = write!(
                body,
                "<tr><td>{}</td><td>{}</td></tr>",
                esc(channel),
                skill_links(std::slice::from_ref(&route.default_skill)),
            );
        }
        body.push_str("</tbody></table>");
        if !solution.security_contracts.is_empty() {
            body.push_str("<h2>Security contracts</h2><table class=\"contracts\"><thead><tr><th>Consumer</th><th>Provider</th><th>Requires grants</th><th>For tools</th></tr></thead><tbody>");
            for contract in &solution.security_contracts {
                let _ = write!(
                    body,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    skill_links(std::slice::from_ref(&contract.consumer)),
                    contract
                        .provider
                        .as_ref()
                        .map(|provider| skill_links(std::slice::from_ref(provider)))
                        .unwrap_or_default(),
                    codes(&contract.requires_grants),
                    codes(&contract.for_tools),
                );
            }
            body.push_str("</tbody></table>");
        }
    }
    body.push_str("<h2>Diagnostics</h2><table class=\"diagnostics\"><thead><tr><th>Severity</th><th>At</th><th>Code</th><th>Message</th></tr></thead><tbody>");
    for d in &stored.diagnostics {
        let severity = pb::Severity::try_from(d.severity)
            .map_or("?".into(), |s| enum_label(s.as_str_name(), "SEVERITY_"));
        let _ = write!(
            body,
            "<tr class=\"{severity}\"><td>{severity}</td><td>{}:{}</td><td>{}</td><td>{}</td></tr>",
            d.line,
            d.column,
            esc(&d.code),
            esc(&d.message)
        );
    }
    if stored.diagnostics.is_empty() {
        body.push_str("<tr><td colspan=\"4\">No diagnostics.</td></tr>");
    }
    body.push_str("</tbody></table>");
    Html(page(
        &format!("Solution {id}"),
        Who::Caller(&clients.caller),
        &[],
        &body,
    ))
    .into_response()
}
