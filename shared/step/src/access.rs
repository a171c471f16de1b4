//! The worker's side of a skill's grants: before a call, the access policy
//! fills injected arguments from the conversation's grants (or refuses the
//! call); after a successful call, the skill's grant mappings issue grants
//! from its result. The gate checks the same policy again on the call as it
//! will be made (`adas_policy::gate::access`).

use adas_skill::OperationalSkill;
use adas_skill::access::{self, Verdict};

use crate::record::Grant;
use crate::{Event, Evidence, GrantDenial, JobRecord, OutcomeClass, Transition};
use serde_json::{Map, Value as Json, json};

/// A call refused by the access policy or its workflow: the job fails.
fn refusal(event: Event) -> Transition {
    Transition::fail(OutcomeClass::PolicyDenied, event.message(), event)
}

/// Fills `args` from the grants the job holds; `Some` when the access policy
/// refuses the call. An injected value is evidence (a tool proved it), so it
/// never needs the user's yes on its own.
pub fn fill(
    skill: &OperationalSkill,
    record: &mut JobRecord,
    tool: &str,
    args: &mut Map<String, Json>,
) -> Option<Transition> {
    let held = crate::held(record, crate::now_ms());
    match access::apply(&skill.skill, tool, &held, args) {
        Verdict::Allow => {
            for (argument, key) in access::injected(&skill.skill, tool) {
                let Some(value) = args.get(&argument).cloned() else {
                    continue;
                };
                if !record
                    .evidence
                    .iter()
                    .any(|known| known.name == argument && crate::same_value(&known.value, &value))
                {
                    record.evidence.push(Evidence {
                        name: argument,
                        value,
                        source: match key.strip_prefix(access::PRINCIPAL_KEY) {
                            Some(fact) => format!("principal:{fact}"),
                            None => format!("grant:{key}"),
                        },
                    });
                }
            }
            None
        }
        Verdict::Denied => Some(refusal(Event::denied(
            tool,
            "access_policy: deny",
            format!("`{tool}` denied: the skill's access policy denies it"),
        ))),
        Verdict::Missing(keys) => Some(refusal(Event::GrantDenied(GrantDenial::Missing {
            tool: tool.to_owned(),
            missing: keys,
        }))),
        Verdict::Conflict { argument, grant } => {
            Some(refusal(Event::GrantDenied(GrantDenial::Conflict {
                tool: tool.to_owned(),
                argument,
                grant,
            })))
        }
    }
}

/// Issues the grants `tool`'s successful `result` earns under the skill's
/// mappings, bound to the job's principal and conversation; holds an event
/// for each grant issued or refused.
pub fn issue(skill: &OperationalSkill, record: &mut JobRecord, tool: &str, result: &Json) {
    let (issued, refused) = access::issue(&skill.parsed, tool, result);
    let classified = access::is_personal(&skill.skill, tool);
    let now = crate::now_ms();
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
        record.hold(Event::GrantIssued {
            key: grant.key.clone(),
            value: grant.shown_value(),
            issuer_tool: tool.to_owned(),
            issuer_skill: grant.skill.clone(),
            expires_ms: grant.expires_ms,
            value_sha256: crate::grant_digest(&grant.value),
            classified,
        });
        record.grants.push(grant);
    }
    for refused in refused {
        record.hold(Event::GrantDenied(GrantDenial::NotIssued {
            key: refused.key,
            issuer_tool: tool.to_owned(),
            reason: refused.reason,
        }));
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
    let now = crate::now_ms();
    let mut relied = Map::new();
    for grant in crate::live_grants(record, now) {
        if keys.contains(&grant.key) {
            relied.insert(
                grant.key.clone(),
                json!({"issuer_job": grant.job, "value_sha256": crate::grant_digest(&grant.value)}),
            );
        }
    }
    Json::Object(relied)
}

/// A call outside the steps of the job's workflow: `Some` (the call is not
/// made) when the workflow blocks deviations; with `warn`, an event is held
/// and the call goes on.
pub fn deviation(
    skill: &OperationalSkill,
    record: &mut JobRecord,
    tool: &str,
) -> Option<Transition> {
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
    match mode {
        OnDeviation::Warn => {
            record.hold(Event::WorkflowDeviated {
                tool: tool.to_owned(),
                workflow: workflow.name.clone(),
                steps: workflow.steps.clone(),
                reason,
            });
            None
        }
        OnDeviation::Block => Some(refusal(Event::ToolDenied {
            tool: tool.to_owned(),
            rule: None,
            workflow: Some(workflow.name.clone()),
            steps: Some(workflow.steps.clone()),
            reason: format!("{reason}: the workflow blocks deviations"),
        })),
    }
}
