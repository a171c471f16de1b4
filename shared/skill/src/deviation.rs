//! `policy.workflows[].on_deviation`: what a call outside the steps of the
//! job's workflow meets. The job's workflow is the one its intent maps to
//! (`maps_to_workflow`) or triggers; platform tools (`sys.*`) never deviate.
//! `block` stops the call (the job ends naming the deviation); `warn` lets
//! it run and records it. Without `on_deviation`, nothing is judged.

use crate::model::{Skill, Workflow};

/// What a deviation meets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnDeviation {
    /// Recorded; the call runs.
    Warn,
    /// The call is not made.
    Block,
}

/// `on_deviation` values.
pub const ON_DEVIATION: &[&str] = &["warn", "block"];

/// The workflow of the job's intent.
pub fn workflow_of<'a>(skill: &'a Skill, intent_id: &str) -> Option<&'a Workflow> {
    if intent_id.is_empty() {
        return None;
    }
    let workflows = skill
        .policy
        .as_ref()
        .map(|policy| policy.workflows.as_slice())?;
    let mapped = skill
        .intents
        .as_ref()
        .and_then(|intents| {
            intents
                .supported
                .iter()
                .find(|intent| intent.id == intent_id)
        })
        .and_then(|intent| intent.maps_to_workflow.as_deref());
    workflows
        .iter()
        .find(|workflow| {
            mapped.is_some_and(|id| workflow.id.as_deref() == Some(id) || workflow.name == id)
        })
        .or_else(|| {
            workflows
                .iter()
                .find(|workflow| workflow.trigger.as_deref() == Some(intent_id))
        })
}

/// Whether calling `tool` leaves the steps of the intent's workflow, and
/// what that meets.
pub fn deviation<'a>(
    skill: &'a Skill,
    intent_id: &str,
    tool: &str,
) -> Option<(&'a Workflow, OnDeviation)> {
    if tool.starts_with("sys.") {
        return None;
    }
    let workflow = workflow_of(skill, intent_id)?;
    let mode = match workflow
        .on_deviation
        .as_deref()?
        .to_ascii_lowercase()
        .as_str()
    {
        "block" => OnDeviation::Block,
        "warn" => OnDeviation::Warn,
        _ => return None,
    };
    (!workflow.steps.iter().any(|step| step == tool)).then_some((workflow, mode))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_call_outside_the_intents_workflow_deviates() {
        let skill: Skill = serde_json::from_value(json!({
            "intents": {"supported": [{"id": "identify", "maps_to_workflow": "verify"}, {"id": "other"}]},
            "policy": {"workflows": [
                {"id": "verify", "name": "Verify", "steps": ["user.lookup", "sys.emitUserMessage"], "on_deviation": "block"},
                {"name": "Other", "trigger": "other", "steps": ["a"], "on_deviation": "warn"}
            ]}
        }))
        .unwrap();
        assert!(deviation(&skill, "identify", "user.lookup").is_none());
        assert!(deviation(&skill, "identify", "sys.escalate").is_none());
        assert_eq!(
            deviation(&skill, "identify", "user.delete").unwrap().1,
            OnDeviation::Block
        );
        assert_eq!(
            deviation(&skill, "other", "b").unwrap().1,
            OnDeviation::Warn
        );
        assert!(deviation(&skill, "", "b").is_none());
    }
}
