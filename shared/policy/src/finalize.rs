//! The finalization gate (spec 004 §4.4), deterministic default: required output
//! fields checked mechanically in the results and the draft, goal coverage as
//! "the intent's required workflow steps all succeeded", compiled guardrails
//! checked against the calls made, text guardrails reported as unchecked (no
//! LLM). And the retry policy the Orchestrator follows.

use adas_skill::OperationalSkill;
use adas_skill::compile::CompiledGuardrail;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

/// Reason codes (spec 004 §4.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ReasonCode {
    /// The goal is not covered.
    GoalNotMet,
    /// A guardrail was broken.
    GuardrailViolated,
    /// An output contract field is absent.
    MissingRequiredField,
    /// The reply is incomplete.
    OutputIncomplete,
    /// The reply is not in the persona's tone.
    ToneMismatch,
}

/// Action codes (spec 004 §4.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Action {
    /// Gather evidence with a tool call.
    ToolCall,
    /// Ask the user.
    ClarifyUser,
    /// Rewrite the reply.
    Rewrite,
    /// Hand over to a human.
    Escalate,
}

/// One problem found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reason {
    /// Code.
    pub code: ReasonCode,
    /// Detail.
    pub detail: String,
}

/// The verdict on a draft reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// Whether the reply may be sent.
    pub passed: bool,
    /// True when the gate is disabled.
    pub skipped: bool,
    /// Share of checks passed, in [0, 1].
    pub score: f64,
    /// Problems.
    pub reasons: Vec<Reason>,
    /// Absent output contract fields.
    pub missing_fields: Vec<String>,
    /// What to do next (None when passed).
    pub suggested_action: Option<Action>,
    /// Text guardrails no mechanical check covers (an LLM judge would).
    pub unchecked_guardrails: Vec<String>,
}

/// What the gate judges.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Draft {
    /// The draft reply.
    pub reply: String,
    /// Collected results (tool outputs, context) by field.
    pub results: Map<String, Json>,
    /// The intent the job was planned for.
    pub intent_id: String,
    /// Tools that ran successfully.
    pub succeeded_tools: Vec<String>,
    /// The user's request (the job's goal).
    pub goal: String,
    /// Model tokens the job already spent.
    pub tokens_spent: u64,
    /// Values no prompt may carry (the job's personal ones).
    pub personal: Vec<String>,
}

fn present(results: &Map<String, Json>, field: &str) -> bool {
    fn search(value: &Json, field: &str, depth: usize) -> bool {
        if depth > 16 {
            return false;
        }
        match value {
            Json::Object(map) => map.iter().any(|(key, child)| {
                (key == field && !is_empty(child)) || search(child, field, depth + 1)
            }),
            Json::Array(items) => items.iter().any(|item| search(item, field, depth + 1)),
            _ => false,
        }
    }
    fn is_empty(value: &Json) -> bool {
        match value {
            Json::Null => true,
            Json::String(text) => text.trim().is_empty(),
            _ => false,
        }
    }
    search(&Json::Object(results.clone()), field, 0)
}

fn mentioned(reply: &str, field: &str) -> bool {
    let reply = reply.to_lowercase();
    let words = field.to_lowercase().replace('_', " ");
    reply.contains(&format!("{words}:")) || reply.contains(&format!("{}:", field.to_lowercase()))
}

/// Judges a draft reply.
pub fn judge(skill: &OperationalSkill, draft: &Draft) -> Verdict {
    let text_guardrails = skill.compiled.text_guardrails.clone();
    if !skill.engine.finalization_gate_enabled {
        return Verdict {
            passed: true,
            skipped: true,
            score: 1.0,
            reasons: Vec::new(),
            missing_fields: Vec::new(),
            suggested_action: None,
            unchecked_guardrails: Vec::new(),
        };
    }
    let mut reasons = Vec::new();
    let mut checks = 0usize;

    let required = skill
        .skill
        .output_contract
        .as_ref()
        .map(|contract| contract.required_fields.clone())
        .unwrap_or_default();
    let missing_fields: Vec<String> = required
        .iter()
        .filter(|field| !present(&draft.results, field) && !mentioned(&draft.reply, field))
        .cloned()
        .collect();
    checks += required.len();
    for field in &missing_fields {
        reasons.push(Reason {
            code: ReasonCode::MissingRequiredField,
            detail: format!("output field `{field}` is absent from the results and the reply"),
        });
    }

    let workflows = skill
        .skill
        .policy
        .as_ref()
        .map(|policy| policy.workflows.clone())
        .unwrap_or_default();
    let maps_to = skill
        .skill
        .intents
        .as_ref()
        .and_then(|intents| {
            intents
                .supported
                .iter()
                .find(|intent| intent.id == draft.intent_id)
        })
        .and_then(|intent| intent.maps_to_workflow.clone());
    for workflow in workflows.iter().filter(|workflow| workflow.required) {
        let triggered = workflow.trigger.as_deref() == Some(draft.intent_id.as_str())
            || (maps_to.is_some() && workflow.id == maps_to);
        if !triggered || draft.intent_id.is_empty() {
            continue;
        }
        checks += 1;
        // `sys.askUser` is the user's yes before the next step (asked by the
        // gate), not a call that succeeds.
        let missing: Vec<&str> = workflow
            .steps
            .iter()
            .filter(|step| *step != "sys.askUser" && !draft.succeeded_tools.contains(step))
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            reasons.push(Reason {
                code: ReasonCode::GoalNotMet,
                detail: format!(
                    "workflow `{}` is required but these steps did not succeed: {}",
                    workflow.name,
                    missing.join(", ")
                ),
            });
        }
    }

    for guardrail in &skill.compiled.guardrails {
        if let CompiledGuardrail::ToolDeny { tool, original } = guardrail {
            checks += 1;
            if draft.succeeded_tools.contains(tool) {
                reasons.push(Reason {
                    code: ReasonCode::GuardrailViolated,
                    detail: format!("`{tool}` ran although: {original}"),
                });
            }
        }
    }
    if draft.reply.trim().is_empty() && draft.results.is_empty() {
        checks += 1;
        reasons.push(Reason {
            code: ReasonCode::OutputIncomplete,
            detail: "the reply is empty and no results were collected".into(),
        });
    }

    let failed = reasons.len();
    let score = if checks == 0 {
        1.0
    } else {
        (checks.saturating_sub(failed)) as f64 / checks as f64
    };
    let suggested_action = reasons
        .iter()
        .map(|reason| match reason.code {
            ReasonCode::GuardrailViolated => Action::Escalate,
            ReasonCode::GoalNotMet | ReasonCode::MissingRequiredField => Action::ToolCall,
            ReasonCode::OutputIncomplete => Action::ClarifyUser,
            ReasonCode::ToneMismatch => Action::Rewrite,
        })
        .min_by_key(|action| match action {
            Action::Escalate => 0,
            Action::ToolCall => 1,
            Action::ClarifyUser => 2,
            Action::Rewrite => 3,
        });
    Verdict {
        passed: reasons.is_empty(),
        skipped: false,
        score,
        reasons,
        missing_fields,
        suggested_action,
        unchecked_guardrails: text_guardrails,
    }
}

/// What to do after a failed finalization.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryDecision {
    /// Replan (call tools or ask the user) and judge again.
    Replan,
    /// Stop: the last retry brought no new evidence (require_new_evidence is always on).
    NoNewEvidence,
    /// Retries are used up: escalate.
    Escalate,
}

/// The retry policy (spec 004 §4.4): after a failed judgement number `failures`
/// (1-based), replan while retries remain; a retry that gathered no new evidence
/// stops; after the last retry, escalate. `require_new_evidence` is hard-coded on.
pub fn retry_decision(
    failures: u32,
    max_retries: u32,
    previous_retry_gathered_evidence: bool,
) -> RetryDecision {
    if failures > 1 && !previous_retry_gathered_evidence {
        return RetryDecision::NoNewEvidence;
    }
    if failures > max_retries {
        RetryDecision::Escalate
    } else {
        RetryDecision::Replan
    }
}
