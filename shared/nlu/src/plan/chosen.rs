//! What a request's part runs: the workflow its intent triggers or maps
//! to, or, with none, the tool the known values fit best.

use adas_skill::model::Skill;
use serde_json::{Map, Value as Json};

/// The workflow an intent starts: the one it triggers, else the one it maps to.
pub(super) fn workflow_for<'s>(
    skill: &'s Skill,
    intent_id: &str,
    maps_to: Option<&str>,
) -> Option<&'s adas_skill::model::Workflow> {
    let workflows = skill
        .policy
        .as_ref()
        .map(|policy| policy.workflows.as_slice())
        .unwrap_or_default();
    workflows
        .iter()
        .find(|workflow| workflow.trigger.as_deref() == Some(intent_id))
        .or_else(|| {
            workflows
                .iter()
                .find(|workflow| maps_to.is_some() && workflow.id.as_deref() == maps_to)
        })
}

/// The tool (never one the policy forbids) whose required inputs the known
/// values cover best, if they cover any.
pub(super) fn best_covered<'s>(
    skill: &'s Skill,
    known: &Map<String, Json>,
) -> Option<&'s adas_skill::model::Tool> {
    skill
        .tools
        .iter()
        .filter(|tool| {
            tool.policy
                .as_ref()
                .and_then(|policy| policy.allowed.as_deref())
                != Some("never")
        })
        .map(|tool| {
            (
                tool,
                tool.inputs
                    .iter()
                    .filter(|input| input.required && known.contains_key(&input.name))
                    .count(),
            )
        })
        .filter(|(_, covered)| *covered > 0)
        .max_by_key(|(_, covered)| *covered)
        .map(|(tool, _)| tool)
}
