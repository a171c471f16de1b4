//! Skills: the list (and templates not yet in service), and a skill with its
//! validation diagnostics and resolved tools.

use std::fmt::Write;

use adas_proto::pb;
use axum::extract::Path;
use axum::response::{Html, IntoResponse, Response};

use crate::html::{Who, enum_label, esc, page};
use crate::pages::{Clients, failure};

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
    Html(page("Skills", Who::Caller(&clients.caller), &[], &body)).into_response()
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
                    availability(tool),
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
    Html(page(&skill.slag, Who::Caller(&clients.caller), &[], &body)).into_response()
}

/// What a job may do with a tool, in words: a tool the skill does not declare
/// or never allows is shown as such, never as available.
fn availability(tool: &pb::ToolSpec) -> &'static str {
    match pb::ToolAvailability::try_from(tool.availability) {
        Ok(pb::ToolAvailability::Undeclared) => "undeclared (never called)",
        Ok(pb::ToolAvailability::NeverAllowed) => "never allowed",
        Ok(pb::ToolAvailability::NeedsApproval) => "needs approval",
        Ok(pb::ToolAvailability::Unaccepted) => "not accepted",
        Ok(pb::ToolAvailability::NotServed) => "not served",
        Ok(pb::ToolAvailability::Held) => "held: needs an approver",
        _ if tool.available => "available",
        _ => "unavailable",
    }
}
