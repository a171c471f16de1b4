//! Finishing a job: the draft reply from what the calls returned, what the
//! finalization judge reads, a replan when the verdict fails and replans are
//! left, the output contract's fields, and the end — completed with the
//! polished reply, or handed to a human with the draft attached.

use adas_skill::OperationalSkill;
use serde_json::{Map, Value as Json, json};

use crate::ask::takeover;
use crate::effect::{FinalizeAsk, Judged, PolishAsk, Polished};
use crate::{
    Completion, Event, JobRecord, JobResult, OutcomeClass, PauseReason, Transition, certainty,
};

/// What finishing reads from the job: the draft, what the judge is asked,
/// and the results the reply may state.
#[derive(Debug, Clone, PartialEq)]
pub struct Drafted {
    /// What the judge is asked to judge (the draft reply in it).
    pub ask: FinalizeAsk,
    /// The successful calls' outputs, in order.
    pub outputs: Vec<(String, Json)>,
}

/// The core tool that sends the user a message.
const MESSAGE: &str = "sys.emitUserMessage";

/// The draft reply from the successful calls' full `outputs` (in order).
pub fn draft(
    skill: &OperationalSkill,
    record: &JobRecord,
    outputs: Vec<(String, Json)>,
) -> Drafted {
    let mut results = record.context.clone();
    let mut succeeded = Vec::new();
    for (tool, output) in &outputs {
        succeeded.push(tool.clone());
        // A message sent (`sys.emitUserMessage`) is no data of the answer:
        // it is said as a message, never listed as "delivered: true".
        if tool == MESSAGE {
            continue;
        }
        if let Json::Object(fields) = output {
            for (key, value) in fields {
                results.insert(key.clone(), value.clone());
            }
        }
        results.insert(tool.clone(), output.clone());
    }
    // The answer is what the tools returned, not the contract's field names.
    let labelled = answer_first(skill, &outputs);
    let intent_id = record
        .intent
        .as_ref()
        .map(|intent| intent.intent_id.clone())
        .unwrap_or_default();
    let template = skill
        .skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .find(|intent| record.intent.is_some() && intent.id == intent_id)
        .and_then(|intent| intent.reply.clone());
    // A reply-only plan (sys.emitUserMessage) says what it says.
    let spoken: Vec<&str> = outputs
        .iter()
        .filter(|(tool, _)| tool == "sys.emitUserMessage")
        .filter_map(|(_, output)| output.get("text").and_then(Json::as_str))
        .collect();
    // The intent's own reply, when its author wrote one, wins over the
    // planned message's generic words.
    let reply = if labelled.is_empty() && !spoken.is_empty() && template.is_none() {
        spoken.join("\n")
    } else {
        crate::reply::compose(template.as_deref(), &labelled, &results)
    };
    Drafted {
        ask: FinalizeAsk {
            reply,
            results,
            intent_id,
            succeeded_tools: succeeded,
        },
        outputs,
    }
}

/// The calls' outputs as the reply tells them: what the request did first;
/// a workflow's reads before it (the order's status before its refund) after
/// it, as context — nobody asked for them.
fn answer_first(skill: &OperationalSkill, outputs: &[(String, Json)]) -> Vec<(String, Json)> {
    let told: Vec<(&String, &Json)> = outputs
        .iter()
        .filter(|(tool, _)| !tool.starts_with("sys."))
        .map(|(tool, output)| (tool, output))
        .collect();
    let acted = |tool: &str| certainty::side_effecting(skill, tool, None);
    let context =
        told.iter().any(|(tool, _)| acted(tool)) && told.iter().any(|(tool, _)| !acted(tool));
    let (done, read): (Vec<_>, Vec<_>) = told
        .into_iter()
        .partition(|(tool, _)| acted(tool) || !context);
    done.into_iter()
        .map(|(tool, output)| (certainty::tool_label(skill, tool), output.clone()))
        .chain(read.into_iter().map(|(tool, output)| {
            (
                format!("(for context) {}", certainty::tool_label(skill, tool)),
                output.clone(),
            )
        }))
        .collect()
}

/// Why the draft failed, for a replan — `None` when it passed or the
/// skill's replans are spent. Counts the failure.
pub fn replan(skill: &OperationalSkill, record: &mut JobRecord, judged: &Judged) -> Option<String> {
    if judged.passed || record.finalization_failures >= skill.engine.finalization_max_retries {
        return None;
    }
    // A replan must bring new evidence (spec 004 §4.4): the planner is told
    // why the draft failed; calls it already made do not count.
    record.finalization_failures += 1;
    Some(
        judged
            .reasons
            .iter()
            .cloned()
            .chain(
                judged
                    .missing_fields
                    .iter()
                    .map(|field| format!("missing field: {field}")),
            )
            .collect::<Vec<_>>()
            .join("; "),
    )
}

/// The output contract's fields (or, without one, the last output's), and
/// what the polisher is asked.
pub fn polish_ask(skill: &OperationalSkill, record: &JobRecord, drafted: &Drafted) -> PolishAsk {
    let required = skill
        .skill
        .output_contract
        .as_ref()
        .map(|contract| contract.required_fields.clone())
        .unwrap_or_default();
    let results: Map<String, Json> = if required.is_empty() {
        // The last tool's: a message sent is no result.
        drafted
            .outputs
            .iter()
            .rev()
            .find(|(tool, _)| tool != MESSAGE)
            .and_then(|(_, output)| output.as_object().cloned())
            .unwrap_or_default()
    } else {
        required
            .iter()
            .filter_map(|field| {
                drafted
                    .ask
                    .results
                    .get(field)
                    .map(|value| (field.clone(), value.clone()))
            })
            .collect()
    };
    let user_waited = record
        .audit
        .iter()
        .any(|entry| matches!(entry.action.as_str(), "answer" | "clarify" | "confirm"));
    PolishAsk {
        reply: drafted.ask.reply.clone(),
        results,
        user_waited,
    }
}

/// The end of the job: completed with the polished reply when the verdict
/// passed; else (past its replans, or with no new evidence to bring) handed
/// to a human with the draft attached. The verdict and what follows it are
/// one write.
pub fn end(
    record: &mut JobRecord,
    judged: &Judged,
    polished: Polished,
    asked: PolishAsk,
) -> Transition {
    let finalization = json!({
        "passed": judged.passed,
        "skipped": judged.skipped,
        "score": judged.score,
        "missing_fields": judged.missing_fields,
        "reasons": judged.reasons,
        "judge": judged.decider.json(),
        "polisher": polished.decider.json(),
        "llm_usage": record.llm,
    });
    let verdict = finalization.as_object().cloned().unwrap_or_default();
    let finalized = Event::Finalized {
        passed: judged.passed,
        verdict: verdict.clone(),
    };
    record.result = Some(JobResult {
        reply: polished.text.clone(),
        output_fields: asked.results,
        finalization: finalization.clone(),
    });
    if !judged.passed {
        let paused = Event::paused(
            PauseReason::HumanTakeoverRequired,
            "handed to a human: the reply did not pass finalization",
            crate::PauseDetail::Finalization { finalization },
        );
        return takeover(
            "the finalization gate did not pass the reply",
            Some(&polished.text),
            vec![finalized, paused],
        );
    }
    Transition::complete(
        OutcomeClass::Success,
        None,
        vec![finalized, Event::Completed(Completion::Answered(verdict))],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DetectedIntent;

    fn greeted(reply: &str) -> String {
        let source = format!(
            "problem: {{statement: Desk}}\nintents: {{supported: [{{id: greet, examples: [hello], reply: '{reply}'}}]}}\ntools: []\n"
        );
        let skill = OperationalSkill::from_source("desk", &source).expect("the skill loads");
        let mut record = JobRecord::queued("j1".into(), &skill, "hello".into(), ("t", "o"));
        record.intent = Some(DetectedIntent {
            intent_id: "greet".into(),
            confidence: 1.0,
            out_of_domain: false,
            margin: 1.0,
            confident: true,
        });
        record.context.insert("name".into(), json!("Ada"));
        let spoken = vec![(
            MESSAGE.to_owned(),
            json!({"delivered": true, "text": "I can help with: orders."}),
        )];
        draft(&skill, &record, spoken).ask.reply
    }

    #[test]
    fn what_was_asked_is_told_first_and_the_reads_before_it_as_context() {
        let source = "problem: {statement: Desk}\nintents: {supported: [{id: refund, examples: [refund]}]}\ntools:\n  - {name: check_order_status, description: Look up an order, read_only: true}\n  - {name: process_refund, description: Refund an order}\n";
        let skill = OperationalSkill::from_source("desk", source).expect("the skill loads");
        let record = JobRecord::queued("j1".into(), &skill, "refund".into(), ("t", "o"));
        let outputs = vec![
            (
                "check_order_status".to_owned(),
                json!({"status": "delivered"}),
            ),
            (
                "process_refund".to_owned(),
                json!({"refund_id": "RF-1", "amount": 700.0}),
            ),
        ];
        let reply = draft(&skill, &record, outputs).ask.reply;
        let lines: Vec<&str> = reply.lines().collect();
        assert!(lines[0].starts_with("Refund an order"), "{reply}");
        assert!(
            lines[0].contains("700") && !lines[0].contains("700.0"),
            "{reply}"
        );
        assert!(
            lines[1].starts_with("(for context) Look up an order"),
            "{reply}"
        );
    }

    #[test]
    fn a_reply_only_plan_says_the_authors_reply_rendered() {
        // The planned message cannot render fields; the author's reply can.
        assert_eq!(greeted("Hello {{name}}!"), "Hello Ada!");
        // Never the message's delivery receipt.
        assert!(!greeted("Hi {{name}}").contains("delivered"));
    }
}
