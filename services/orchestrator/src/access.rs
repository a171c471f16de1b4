//! The worker's side of a skill's grants: before a call, the access policy
//! fills injected arguments from the conversation's grants (or refuses the
//! call); after a successful call, the skill's grant mappings issue grants
//! from its result. The gate checks the same policy again on the call as it
//! will be made (`adas_policy::gate::access`).

use adas_jobs::{EventKind, Evidence, Grant, JobRecord};
use adas_skill::OperationalSkill;
use adas_skill::access::{self, Verdict};
use serde_json::{Map, Value as Json, json};

/// Why a call is not made, as the job's failing event.
#[derive(Debug)]
pub struct Refusal {
    pub kind: EventKind,
    pub reason: String,
    pub detail: Json,
}

/// Fills `args` from the grants the job holds; `Some` when the access policy
/// refuses the call. An injected value is evidence (a tool proved it), so it
/// never needs the user's yes on its own.
pub fn fill(
    skill: &OperationalSkill,
    record: &mut JobRecord,
    tool: &str,
    args: &mut Map<String, Json>,
) -> Option<Refusal> {
    let now = adas_state::now_ms();
    let live: Vec<&Grant> = adas_jobs::live_grants(record, now).collect();
    match access::apply(&skill.skill, tool, &live, args) {
        Verdict::Allow => {
            for (argument, key) in access::injected(&skill.skill, tool) {
                let Some(value) = args.get(&argument).cloned() else {
                    continue;
                };
                if !record.evidence.iter().any(|known| {
                    known.name == argument && adas_jobs::same_value(&known.value, &value)
                }) {
                    record.evidence.push(Evidence {
                        name: argument,
                        value,
                        source: format!("grant:{key}"),
                    });
                }
            }
            None
        }
        Verdict::Denied => Some(Refusal {
            kind: EventKind::ToolDenied,
            reason: format!("`{tool}` denied: the skill's access policy denies it"),
            detail: json!({"tool": tool, "rule": "access_policy: deny"}),
        }),
        Verdict::Missing(keys) => Some(Refusal {
            kind: EventKind::GrantDenied,
            reason: format!(
                "`{tool}` denied: it needs the grant{} {}, which this conversation does not hold",
                if keys.len() == 1 { "" } else { "s" },
                keys.join(", ")
            ),
            detail: json!({"tool": tool, "missing": keys}),
        }),
        Verdict::Conflict { argument, grant } => Some(Refusal {
            kind: EventKind::GrantDenied,
            reason: format!(
                "`{tool}` denied: `{argument}` comes from the grant `{grant}` only, and another value was given"
            ),
            detail: json!({"tool": tool, "argument": argument, "grant": grant}),
        }),
    }
}

/// Issues the grants `tool`'s successful `result` earns under the skill's
/// mappings, bound to the job's principal and conversation; holds an event
/// for each grant issued or refused.
pub fn issue(skill: &OperationalSkill, record: &mut JobRecord, tool: &str, result: &Json) {
    let (issued, refused) = access::issue(&skill.skill, tool, result);
    let classified = access::is_personal(&skill.skill, tool);
    let now = adas_state::now_ms();
    for grant in issued {
        let grant = Grant {
            key: grant.key,
            value: grant.value,
            skill: record.slag.clone(),
            tool: tool.to_owned(),
            job: record.job_id.clone(),
            principal: record.owner.clone(),
            conversation: record.conversation.clone(),
            expires_ms: now.saturating_add(grant.ttl_seconds.saturating_mul(1000)),
            classified,
        };
        record.grants.retain(|held| held.key != grant.key);
        record.hold((
            EventKind::GrantIssued,
            &format!("grant `{}` issued by `{tool}`", grant.key),
            json!({
                "key": grant.key,
                "value": grant.shown_value(),
                "issuer_tool": tool,
                "issuer_skill": grant.skill,
                "expires_ms": grant.expires_ms,
                "value_sha256": adas_jobs::grant_digest(&grant.value),
            }),
        ));
        record.grants.push(grant);
    }
    for refused in refused {
        record.hold((
            EventKind::GrantDenied,
            &format!("grant `{}` not issued: {}", refused.key, refused.reason),
            json!({"key": refused.key, "issuer_tool": tool, "reason": refused.reason}),
        ));
    }
}

/// The grants `tool`'s rules need or inject, as the call's audit record:
/// `{key: {issuer_job, value_sha256}}` (a digest, never the value).
pub fn relied_on(skill: &OperationalSkill, record: &JobRecord, tool: &str) -> Json {
    let mut keys: Vec<String> = access::rules_for(&skill.skill, tool)
        .flat_map(|rule| {
            rule.requires_grants
                .iter()
                .chain(rule.required_values.keys())
        })
        .cloned()
        .collect();
    keys.extend(
        access::injected(&skill.skill, tool)
            .into_iter()
            .map(|(_, key)| key),
    );
    let now = adas_state::now_ms();
    let mut relied = Map::new();
    for grant in adas_jobs::live_grants(record, now) {
        if keys.contains(&grant.key) {
            relied.insert(
                grant.key.clone(),
                json!({"issuer_job": grant.job, "value_sha256": adas_jobs::grant_digest(&grant.value)}),
            );
        }
    }
    Json::Object(relied)
}

/// A call outside the steps of the job's workflow: `Some` (the call is not
/// made) when the workflow blocks deviations; with `warn`, an event is held
/// and the call goes on.
pub fn deviation(skill: &OperationalSkill, record: &mut JobRecord, tool: &str) -> Option<Refusal> {
    use adas_skill::deviation::OnDeviation;
    let intent = record
        .intent
        .as_ref()
        .map(|intent| intent.intent_id.clone())
        .unwrap_or_default();
    let (workflow, mode) = adas_skill::deviation::deviation(&skill.skill, &intent, tool)?;
    let reason = format!(
        "`{tool}` is not a step of the workflow `{}` ({})",
        workflow.name,
        workflow.steps.join(", ")
    );
    let detail = json!({"tool": tool, "workflow": workflow.name, "steps": workflow.steps});
    match mode {
        OnDeviation::Warn => {
            record.hold((EventKind::WorkflowDeviated, &reason, detail));
            None
        }
        OnDeviation::Block => Some(Refusal {
            kind: EventKind::ToolDenied,
            reason: format!("{reason}: the workflow blocks deviations"),
            detail,
        }),
    }
}
