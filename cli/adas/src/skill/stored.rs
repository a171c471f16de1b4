//! `adas skill` subcommands on the suite's stored skills: put one, list
//! them, resolve or accept a skill's tools, show its triggers.

use super::*;

type Registry = SkillRegistryServiceClient<Channel>;

/// `adas skill put FILE`: the document stored under its slag (`name`, else
/// the file's), replacing the version `etag` names; a refused document's
/// errors printed as `file:line:col`.
pub(super) async fn put(
    registry: &mut Registry,
    (file, name, etag): (&Path, Option<String>, Option<String>),
    verbose: bool,
    output: Format,
) -> Result<(), Failure> {
    let shown = file.display().to_string();
    let source = std::fs::read_to_string(file)
        .map_err(|error| Failure::usage(format!("{shown}: cannot read: {error}")))?;
    let slag = match name {
        Some(name) => name,
        None => slag_of_file(file)?,
    };
    let format = match DocumentFormat::detect(Some(&shown), &source) {
        DocumentFormat::Json => pb::SkillFormat::Json,
        DocumentFormat::Yaml => pb::SkillFormat::Yaml,
    };
    let put = registry
        .put_skill(pb::PutSkillRequest {
            name: format!("skills/{slag}"),
            source,
            format: format as i32,
            etag: etag.unwrap_or_default(),
            request_id: String::new(),
        })
        .await;
    match put {
        Ok(skill) => {
            let skill = skill.into_inner();
            if output.is_data() {
                print_value(&json(&skill, "adas.v1.Skill")?, output);
                return Ok(());
            }
            check::print_diagnostics(
                &shown,
                skill.diagnostics.iter().map(check::Shown::from),
                verbose,
            );
            out(&format!("{} stored (etag {})", skill.name, skill.etag));
            Ok(())
        }
        Err(status) => {
            // A refused document: each BadRequest violation is one
            // diagnostic, `source.<path>` with `line:col: message`.
            let violations = status
                .get_details_bad_request()
                .map(|bad| bad.field_violations)
                .unwrap_or_default();
            let mut printed = false;
            for violation in &violations {
                if let Some(at) = violation.field.strip_prefix("source")
                    && let Some((line, rest)) = violation.description.split_once(':')
                    && let Some((column, message)) = rest.split_once(':')
                {
                    let path = at.strip_prefix('.').unwrap_or(at);
                    let message = message.trim();
                    let message = if path.is_empty() {
                        message.to_owned()
                    } else {
                        format!("{message} (at {path})")
                    };
                    out(&format!("{shown}:{line}:{column}: error: {message}"));
                    printed = true;
                }
            }
            Err(if printed {
                Failure::failed(format!("{shown}: refused, {} error(s)", violations.len()))
            } else {
                Failure::from_status(&status)
            })
        }
    }
}

/// `adas skill tools SLAG`: the skill's tools as resolved now, or (with
/// `accept`) the named ones accepted as their servers serve them.
pub(super) async fn tools(
    registry: &mut Registry,
    slag: &str,
    (accept, tools): (bool, Vec<String>),
    output: Format,
) -> Result<(), Failure> {
    let skill = format!("skills/{slag}");
    let tools = if accept {
        registry
            .accept_tools(pb::AcceptToolsRequest { skill, tools })
            .await
    } else {
        // Listing an MCP server's tools can take a while.
        crate::output::progress(
            "resolving tools",
            registry.resolve_tools(pb::ResolveToolsRequest { skill }),
        )
        .await
    }
    .map_err(|status| Failure::from_status(&status))?
    .into_inner();
    if output.is_data() {
        print_value(&json(&tools, "adas.v1.ResolveToolsResponse")?, output);
        return Ok(());
    }
    if output == Format::Table {
        let rows: Vec<Vec<String>> = tools.tools.iter().map(tool_row).collect();
        print_table(&["tool", "source", "inputs", "state"], &rows);
    } else {
        for tool in &tools.tools {
            out(&tool_line(tool));
        }
    }
    if tools.stale {
        out(&format!(
            "(served stale: {} unreachable)",
            tools.stale_sources.join(", ")
        ));
    }
    if !tools.unaccepted_tools.is_empty() {
        out(&format!(
            "(not accepted: {}; review, then `adas skill tools {slag} --accept`)",
            tools.unaccepted_tools.join(", ")
        ));
    }
    Ok(())
}

/// `adas skill list`: the tenant's skills (and, when none, the templates
/// one can start from).
pub(super) async fn list(registry: &mut Registry, output: Format) -> Result<(), Failure> {
    let mut skills = Vec::new();
    let mut rows = Vec::new();
    let mut listed = 0;
    let mut page_token = String::new();
    loop {
        let page = registry
            .list_skills(pb::ListSkillsRequest {
                page_size: 1000,
                page_token,
            })
            .await
            .map_err(|status| Failure::from_status(&status))?
            .into_inner();
        listed += page.skills.len();
        for skill in &page.skills {
            match output {
                Format::Text => out(&format!("{}\t{}", skill.slag, skill.display_name)),
                Format::Table => rows.push(vec![
                    skill.slag.clone(),
                    skill.display_name.clone(),
                    skill.etag.clone(),
                ]),
                _ => skills.push(json(skill, "adas.v1.Skill")?),
            }
        }
        if page.next_page_token.is_empty() {
            break;
        }
        page_token = page.next_page_token;
    }
    match output {
        Format::Table => print_table(&["skill", "name", "etag"], &rows),
        Format::Json | Format::Yaml => print_value(&serde_json::Value::Array(skills), output),
        Format::Text => {}
    }
    if listed == 0 && !output.is_data() {
        // A fresh suite has no skill yet: say what one becomes.
        let templates = registry
            .list_templates(pb::ListTemplatesRequest::default())
            .await
            .map(|listed| listed.into_inner().templates)
            .unwrap_or_default();
        let slags: Vec<&str> = templates.iter().map(|t| t.slag.as_str()).collect();
        if !slags.is_empty() {
            eprintln!(
                "no skill stored yet; templates: {} (the first job or `adas skill get NAME` makes one; `adas skill put FILE` stores your own)",
                slags.join(", ")
            );
        }
    }
    Ok(())
}

/// `adas skill triggers SLAG`: the skill's schedule triggers and their next run.
pub(super) async fn triggers(
    registry: &mut Registry,
    slag: &str,
    output: Format,
) -> Result<(), Failure> {
    let skill = registry
        .get_skill(pb::GetSkillRequest {
            name: format!("skills/{slag}"),
        })
        .await
        .map_err(|status| Failure::from_status(&status))?
        .into_inner();
    let loaded = adas_skill::load(&skill.source, DocumentFormat::detect(None, &skill.source));
    let triggers = loaded.skill.map(|skill| skill.triggers).unwrap_or_default();
    let now = adas_state::now_ms();
    let rows: Vec<serde_json::Value> = triggers
        .iter()
        .map(|trigger| {
            let next = trigger
                .period_ms()
                .filter(|_| trigger.is_enabled())
                .map(|period| adas_jobs::rfc3339(adas_skill::trigger::period(now, period).1))
                .unwrap_or_else(|| "never".into());
            serde_json::json!({
                "id": trigger.id,
                "type": trigger.kind,
                "every": trigger.every,
                "enabled": trigger.is_enabled(),
                "concurrency": trigger.concurrency(),
                "next_run": next,
                "prompt": trigger.prompt,
            })
        })
        .collect();
    if output.is_data() {
        print_value(&serde_json::Value::Array(rows), output);
    } else if rows.is_empty() {
        out(&format!("skills/{slag} has no triggers"));
    } else {
        for row in &rows {
            out(&format!(
                "{}\t{}\tevery {}\tnext {}\tconcurrency {}",
                row["id"].as_str().unwrap_or_default(),
                if row["enabled"] == true {
                    "enabled"
                } else {
                    "disabled"
                },
                row["every"].as_str().unwrap_or_default(),
                row["next_run"].as_str().unwrap_or_default(),
                row["concurrency"],
            ));
        }
    }
    Ok(())
}
