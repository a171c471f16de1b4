//! `policy.escalation.conditions`, with their meaning: when one holds, the
//! job is handed to a human (the escalation's target in a solution) instead
//! of going on. A condition in the gate's grammar (`amount > 5000`) is
//! judged on every call's arguments before the call, like an approval's; a
//! sentence ("Security vulnerability detected") holds when the user's
//! request says it, read before anything is done.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::condition::Condition;
use crate::model::Skill;
use crate::parsed::Parsed;

/// A skill's escalation conditions, split by how they are judged.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Escalations {
    /// Conditions in the gate's grammar, judged on each call's arguments.
    pub on_call: Vec<String>,
    /// Sentences, judged on the user's request.
    pub said: Vec<String>,
    /// Where an escalated conversation goes, when the skill names it.
    pub target: Option<String>,
}

impl Escalations {
    /// The condition in the gate's grammar that holds on a call's
    /// arguments, if any, judged by the skill's conditions parsed at load
    /// ([`Parsed::holds`]: one that does not parse holds, fail closed).
    pub fn on_call(
        &self,
        parsed: &Parsed,
        arguments: &serde_json::Map<String, Value>,
    ) -> Option<&str> {
        self.on_call
            .iter()
            .find(|text| parsed.holds(text, arguments))
            .map(String::as_str)
    }
}

/// Whether a condition's text is a sentence rather than a condition in the
/// gate's grammar: it does not parse, and it has no comparison sign (a
/// mistyped `amount >> 5000` is an error, never a sentence).
pub fn is_sentence(text: &str) -> bool {
    Condition::parse(text).is_err() && !text.contains(['<', '>', '='])
}

/// The escalation conditions of `skill`, when escalation is on.
pub fn escalations(skill: &Skill) -> Escalations {
    let Some(escalation) = skill
        .policy
        .as_ref()
        .and_then(|policy| policy.escalation.as_ref())
    else {
        return Escalations::default();
    };
    if escalation.enabled == Some(false) {
        return Escalations::default();
    }
    let mut escalations = Escalations {
        target: escalation
            .target
            .clone()
            .filter(|target| !target.trim().is_empty()),
        ..Escalations::default()
    };
    for text in escalation.conditions.iter().filter_map(Value::as_str) {
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        if is_sentence(text) {
            escalations.said.push(text.to_owned());
        } else {
            escalations.on_call.push(text.to_owned());
        }
    }
    escalations
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn skill(conditions: Value) -> Skill {
        serde_json::from_value(json!({
            "policy": {"escalation": {"enabled": true, "conditions": conditions, "target": "seniors"}}
        }))
        .expect("a skill")
    }

    #[test]
    fn conditions_split_into_judged_on_calls_and_said() {
        let escalations = escalations(&skill(json!([
            "amount > 5000",
            "Security vulnerability detected",
            "Test failure can't be resolved",
            "",
        ])));
        assert_eq!(escalations.on_call, ["amount > 5000"]);
        assert_eq!(
            escalations.said,
            [
                "Security vulnerability detected",
                "Test failure can't be resolved"
            ]
        );
        assert_eq!(escalations.target.as_deref(), Some("seniors"));
        let skill = skill(json!(["amount > 5000"]));
        let parsed = Parsed::of(&skill, &crate::compile::compile(&skill));
        let escalations = &crate::compile::compile(&skill).escalations;
        let args = |value: Value| value.as_object().cloned().unwrap_or_default();
        assert_eq!(
            escalations.on_call(&parsed, &args(json!({"amount": 9000}))),
            Some("amount > 5000")
        );
        assert_eq!(
            escalations.on_call(&parsed, &args(json!({"amount": 10}))),
            None
        );
        assert_eq!(
            escalations.on_call(&parsed, &args(json!({"order": "A-1"}))),
            None
        );
        // A value of the wrong type holds: conditions fail closed.
        assert_eq!(
            escalations.on_call(&parsed, &args(json!({"amount": "$9000"}))),
            Some("amount > 5000")
        );
    }

    #[test]
    fn a_mistyped_condition_is_no_sentence_and_off_means_none() {
        assert!(!is_sentence("amount >> 5000"));
        assert!(is_sentence("Merge conflict requires human judgment"));
        let mut off = skill(json!(["amount > 5000"]));
        if let Some(escalation) = off
            .policy
            .as_mut()
            .and_then(|policy| policy.escalation.as_mut())
        {
            escalation.enabled = Some(false);
        }
        assert_eq!(escalations(&off), Escalations::default());
    }
}
