//! What a conversation remembers between turns: the values of the previous
//! turn (its own memory, context, answers, the values the user gave, the
//! calls' arguments and the fields of their results named like an input of
//! the skill's tools), newest last, and its intent. A new turn's plan fills an
//! input its message leaves open from it — "cancel it" cancels the refill just
//! ordered — while a value the message names always wins: memory is never
//! the job's context.

use std::collections::HashSet;

use serde_json::{Map, Value as Json};

use crate::{Evidence, JobRecord, same_value};

/// How deep a result is searched for fields named like an input.
const MAX_DEPTH: usize = 3;

fn named_fields(output: &Json, names: &HashSet<&str>, depth: usize, into: &mut Map<String, Json>) {
    if depth > MAX_DEPTH {
        return;
    }
    if let Json::Object(map) = output {
        for (key, value) in map {
            match value {
                Json::Object(_) => named_fields(value, names, depth + 1, into),
                Json::Array(_) | Json::Null => {}
                // An empty string is no value to reuse.
                scalar
                    if names.contains(key.as_str())
                        && scalar.as_str().is_none_or(|text| !text.trim().is_empty()) =>
                {
                    into.insert(key.clone(), scalar.clone());
                }
                _ => {}
            }
        }
    }
}

/// The memory a new turn inherits from `previous`, for a skill whose tools
/// take `inputs`; and the evidence of the values it adds: a call's results
/// are facts of the conversation, as within a job, while an argument is
/// evidence only as far as it already was (a guess stays a guess).
pub fn remember(
    previous: &JobRecord,
    inputs: &HashSet<&str>,
    tools: &[adas_skill::model::Tool],
) -> (Map<String, Json>, Vec<Evidence>) {
    let mut memory = previous.memory.clone();
    for (name, value) in &previous.context {
        memory.insert(name.clone(), value.clone());
    }
    for item in &previous.evidence {
        memory.insert(item.name.clone(), item.value.clone());
    }
    let mut from_calls = Map::new();
    let mut results = Map::new();
    for call in previous.calls.iter().filter(|call| !call.is_error) {
        for (name, value) in &call.arguments {
            from_calls.insert(name.clone(), value.clone());
        }
        let mut fields = Map::new();
        named_fields(&call.output, inputs, 0, &mut fields);
        // A result that echoes what the call was given proves nothing: a
        // guessed argument does not become a fact by being looked up.
        fields.retain(|_, value| !call.arguments.values().any(|arg| same_value(arg, value)));
        // Nor does a result field named like one of the call's own
        // arguments stand for it: `adjust_seats(seats=3)` answering
        // `seats: 10` (the total now) leaves "same for ACCT-7763" at 3.
        fields.retain(|name, _| !call.arguments.contains_key(name));
        // …nor one named like an input of its own tool that the call left
        // out: `update_requisition(status=on_hold)` answering the record's
        // headcount and location says how it stands, not what was changed
        // ("same for JR-3112" changes the status only).
        if let Some(tool) = tools.iter().find(|tool| tool.name == call.tool) {
            fields.retain(|name, _| !tool.inputs.iter().any(|input| &input.name == name));
        }
        from_calls.extend(fields.clone());
        results.extend(fields);
    }
    let evidence = results
        .iter()
        .filter(|(name, value)| {
            !previous
                .evidence
                .iter()
                .any(|item| &item.name == *name && same_value(&item.value, value))
        })
        .map(|(name, value)| Evidence {
            name: name.clone(),
            value: value.clone(),
            source: "conversation".into(),
        })
        .collect();
    memory.extend(from_calls);
    (memory, evidence)
}

/// The intent the previous turn acted on, if it understood one.
pub fn previous_intent(previous: &JobRecord) -> String {
    previous
        .intent
        .as_ref()
        .filter(|intent| intent.confident && !intent.out_of_domain)
        .map(|intent| intent.intent_id.clone())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_result_named_like_its_own_argument_never_stands_for_it() {
        let skill = adas_skill::OperationalSkill::from_source(
            "seats",
            "problem: {statement: Seats}\nintents: {supported: [{id: add, examples: [add seats]}]}\ntools: [{name: adjust_seats}]\n",
        )
        .expect("the skill loads");
        let mut previous = JobRecord::queued("j1".into(), &skill, "add seats".into(), ("t", "o"));
        previous.calls.push(adas_step::CallRecord {
            tool: "adjust_seats".into(),
            arguments: json!({"account_id": "ACCT-0582", "seats": 3})
                .as_object()
                .cloned()
                .unwrap_or_default(),
            call_digest: "d".into(),
            // The total seats now, and the plan the account is on.
            output: json!({"seats": 10, "plan": "business"}),
            is_error: false,
            iteration: 1,
            finished_at: String::new(),
        });
        let inputs: HashSet<&str> = ["account_id", "seats", "plan"].into_iter().collect();
        let (memory, _) = remember(&previous, &inputs, &skill.skill.tools);
        assert_eq!(memory["seats"], json!(3));
        assert_eq!(memory["plan"], json!("business"));
        // A field named like an input of the call's own tool is how the
        // record stands, not what the call changed.
        let tools = vec![adas_skill::model::Tool {
            name: "adjust_seats".into(),
            inputs: ["account_id", "seats", "plan"]
                .into_iter()
                .map(|name| adas_skill::model::ToolInput {
                    name: name.into(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }];
        let (memory, _) = remember(&previous, &inputs, &tools);
        assert!(!memory.contains_key("plan"), "{memory:?}");
    }
}
