//! The guards a call of the plan passes before it runs, in the order the
//! worker asks them: the iteration budget, loop detection, the skill's
//! escalation conditions, a call whose end is unknown, certainty (the
//! user's yes to a side effect resting on a guess), the gate's verdict and
//! the tool's accepted definition. Each is a pure
//! function of the job, the skill and what the worker learned; `Some`
//! transition stops the call there (a pause or the end of the job).

use adas_skill::OperationalSkill;
use serde_json::{Map, Value as Json};

use crate::ask::{ask_field, single_ask, takeover};
use crate::{
    Event, Failure, JobRecord, OutcomeClass, PauseDetail, PauseReason, PendingApproval, Transition,
    Waiting, certainty, now,
};

/// One call of the plan, as the guards see it.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    /// The tool.
    pub tool: &'a str,
    /// Its concrete arguments.
    pub args: &'a Map<String, Json>,
    /// SHA-256 of the tool and its canonical arguments.
    pub digest: &'a str,
}

/// What the pre-tool gate says of a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// It may run.
    Allow,
    /// It may not.
    Deny,
    /// An approver of the rule's role must approve this exact call first.
    RequireApproval,
    /// The job's owner must say yes to this exact call herself, once.
    OwnerConfirms,
}

/// The pre-tool gate's decision, in domain terms (the wire's
/// `GateDecision` converts to it at the edge).
#[derive(Debug, Clone, PartialEq)]
pub struct GateWord {
    /// The verdict.
    pub verdict: Verdict,
    /// The rule that decided.
    pub rule: String,
    /// Why, in words.
    pub reason: String,
    /// The role that must approve.
    pub approver: String,
    /// The digest the gate judged.
    pub call_digest: String,
    /// The rule's condition that matched.
    pub condition: String,
    /// The approval request's id.
    pub correlation_id: String,
    /// The rule's kind, by its wire name (for the audit).
    pub rule_kind: String,
    /// The skill version the gate took for current, when the store can
    /// tell whether it still is (`None`: nothing to check; a gate across
    /// the network read it itself): the call starts only if it still is.
    pub policy: Option<PolicyBasis>,
}

/// The version of a skill's policy a gate's word stands on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyBasis {
    /// The skill's etag taken for current.
    pub etag: String,
    /// Read from the store for this word (else held by the process since an
    /// earlier read, and checked when the call's start is written).
    pub read: bool,
}

/// The iteration budget: `Some` when it is used up — the job fails, or is
/// handed to a human when the skill says so (`on_max_iterations: escalate`).
pub fn budget(skill: &OperationalSkill, record: &JobRecord) -> Option<Transition> {
    if record.iteration < record.iteration_budget.max(1) {
        return None;
    }
    let budget = record.iteration_budget;
    let why = format!("iteration budget of {budget} tool calls is used up");
    Some(if skill.engine.on_max_iterations == "escalate" {
        let paused = Event::paused(
            PauseReason::HumanTakeoverRequired,
            "iteration budget exhausted; handed to a human",
            PauseDetail::BudgetSpent { budget },
        );
        takeover(&why, None, vec![paused])
    } else {
        Transition::fail(
            OutcomeClass::EngineBudgetExhausted,
            why,
            Event::Failed(Failure::BudgetExhausted { budget }),
        )
    })
}

/// Loop detection: `Some` (the job fails) when the same call was made as
/// often as the skill allows.
pub fn repeated(
    skill: &OperationalSkill,
    record: &JobRecord,
    call: Call<'_>,
) -> Option<Transition> {
    let repeats = record
        .calls
        .iter()
        .filter(|made| made.call_digest == call.digest)
        .count() as u32;
    (skill.engine.loop_detection_enabled && repeats >= skill.engine.identical_call_threshold).then(
        || {
            Transition::fail(
                OutcomeClass::EngineBudgetExhausted,
                format!(
                    "loop detected: `{}` was called {repeats} times with the same arguments",
                    call.tool
                ),
                Event::Failed(Failure::LoopDetected {
                    tool: call.tool.to_owned(),
                }),
            )
        },
    )
}

/// A call a worker started and never recorded as finished (it stopped): whether
/// it took effect is unknown. Only an idempotent tool runs again (with the
/// same `key`, so its server can tell); any other is handed to a human.
pub fn unknown_end(
    skill: &OperationalSkill,
    record: &JobRecord,
    call: Call<'_>,
    key: &str,
    read_only_hint: Option<bool>,
) -> Option<Transition> {
    let started = record
        .started_call
        .as_ref()
        .filter(|started| started.key == key)?;
    if certainty::idempotent(skill, call.tool, read_only_hint) {
        return None;
    }
    let tool = call.tool;
    let described = certainty::describe_call(skill, tool, call.args, &Default::default());
    let why = format!(
        "{described} was started at {} and its end is unknown (the worker running it \
         stopped); `{tool}` is not declared idempotent, so it is not run again — \
         check whether it took effect (idempotency key {key})",
        started.started_at
    );
    let paused = Event::paused(
        PauseReason::HumanTakeoverRequired,
        "a call's end is unknown; handed to a human",
        PauseDetail::UnknownEnd {
            tool: tool.to_owned(),
            arguments: call.args.clone(),
            idempotency_key: key.to_owned(),
            started_at: started.started_at.clone(),
        },
    );
    Some(takeover(&why, None, vec![paused]))
}

/// The skill's escalation conditions on a call (`policy.escalation`): `Some`
/// (the job is handed to a human, the call not made) when one in the gate's
/// grammar holds on its arguments.
pub fn escalation(skill: &OperationalSkill, call: Call<'_>) -> Option<Transition> {
    let escalations = &skill.compiled.escalations;
    let condition = escalations.on_call(&skill.parsed, call.args)?;
    let tool = call.tool;
    let why = format!("`{tool}` meets the skill's escalation condition `{condition}`");
    Some(escalated(
        escalations,
        &why,
        condition,
        Some((tool, call.args)),
    ))
}

/// The skill's escalation conditions written as sentences: `Some` (the job
/// is handed to a human before anything is done) when the user's request
/// says one (`adas_nlu::says`).
pub fn escalation_said(skill: &OperationalSkill, record: &JobRecord) -> Option<Transition> {
    let escalations = &skill.compiled.escalations;
    let sentence = escalations
        .said
        .iter()
        .find(|sentence| adas_nlu::says(&record.goal, sentence))?;
    let why = format!("the request says \"{sentence}\", which this skill hands to a person");
    Some(escalated(escalations, &why, sentence, None))
}

fn escalated(
    escalations: &adas_skill::compile::escalation::Escalations,
    why: &str,
    condition: &str,
    call: Option<(&str, &Map<String, Json>)>,
) -> Transition {
    let why = match &escalations.target {
        Some(target) => format!("{why} ({target})"),
        None => why.to_owned(),
    };
    let paused = Event::paused(
        PauseReason::HumanTakeoverRequired,
        "an escalation condition holds; handed to a human",
        PauseDetail::Escalation {
            condition: condition.to_owned(),
            tool: call.map(|(tool, _)| tool.to_owned()),
            arguments: call.map(|(_, args)| args.clone()),
            target: escalations.target.clone(),
        },
    );
    takeover(&why, None, vec![paused])
}

/// Why a side-effecting call needs the user's yes before it runs: an
/// argument resting on a guess, an unconfident intent, a tool a model
/// added to the workflow, a workflow that asks the user first
/// (`sys.askUser`), or a supervised skill (`engine.autonomy.level`).
/// `None`: it may run.
pub fn certainty(skill: &OperationalSkill, record: &JobRecord, call: Call<'_>) -> Option<String> {
    certainty::confirmation_needed(record, call.args, call.digest)
        .or_else(|| certainty::unplanned(record, call.tool, call.digest))
        .or_else(|| certainty::asked_first(skill, record, call.tool, call.digest))
        .or_else(|| {
            (skill.engine.confirm_side_effects && !certainty::confirmed(record, call.digest))
                .then(|| "This desk confirms every change with you first".to_owned())
        })
}

/// Pauses the job on the user's yes to the exact call, an id picked from
/// a lookup shown by its item's words: one confirmation authorizes one
/// execution (`certainty::confirmed`).
pub fn confirmation(
    skill: &OperationalSkill,
    record: &JobRecord,
    call: Call<'_>,
    why: String,
) -> Transition {
    let notes = crate::picked::described(record, call.args);
    let described = certainty::describe_call(skill, call.tool, call.args, &notes);
    let prompt = format!("{why}. Shall I go ahead? {described}. (yes/no)");
    let field = ask_field(
        "confirm",
        "boolean",
        &prompt,
        vec![
            ("yes".into(), "Yes, do it".into()),
            ("no".into(), "No".into()),
        ],
    );
    let approval = PendingApproval {
        tool: call.tool.to_owned(),
        arguments: call.args.clone(),
        call_digest: call.digest.to_owned(),
        approver: String::new(),
        reason: why.clone(),
        condition: String::new(),
    };
    let waiting = single_ask(
        PauseReason::ActionConfirmationRequired,
        field,
        prompt.clone(),
        Some(approval),
    );
    let paused = Event::paused(
        PauseReason::ActionConfirmationRequired,
        prompt,
        PauseDetail::Confirm {
            tool: call.tool.to_owned(),
            why: why.clone(),
        },
    );
    Transition::pause(waiting, paused)
}

/// The gate's verdict on the call: `None` when it may run; else the job
/// fails (denied), asks its owner (a confirmation not yet given) or waits
/// for an approver.
pub fn gate(
    skill: &OperationalSkill,
    record: &JobRecord,
    call: Call<'_>,
    word: &GateWord,
) -> Option<Transition> {
    let tool = call.tool;
    match word.verdict {
        Verdict::Allow => None,
        Verdict::Deny => Some(Transition::fail(
            OutcomeClass::PolicyDenied,
            format!("`{tool}` denied: {}", word.rule),
            Event::denied(tool, &word.rule, word.reason.clone()),
        )),
        // The rule names the job's owner: her yes to this exact call, once,
        // is the approval (never another end user's).
        Verdict::OwnerConfirms => (!certainty::confirmed(record, call.digest)).then(|| {
            let why = match why_approval(&word.reason) {
                "always" => "This needs your yes".to_owned(),
                when => format!("This needs your yes ({when})"),
            };
            confirmation(skill, record, call, why)
        }),
        Verdict::RequireApproval => {
            let prompt = format!(
                "Approval required from {} for {tool}: {}",
                word.approver,
                why_approval(&word.reason)
            );
            let stamp = now();
            let waiting = Waiting {
                reason_code: PauseReason::ApprovalRequired,
                requested_fields: Vec::new(),
                prompt_message: prompt.clone(),
                correlation_id: word.correlation_id.clone(),
                created_at: stamp.clone(),
                last_prompt_at: stamp,
                fields: Vec::new(),
                prompt_count: 1,
                invalid_answer_count: 0,
                approval: Some(PendingApproval {
                    tool: tool.to_owned(),
                    arguments: call.args.clone(),
                    call_digest: word.call_digest.clone(),
                    approver: word.approver.clone(),
                    reason: word.reason.clone(),
                    condition: word.condition.clone(),
                }),
            };
            let paused = Event::paused(
                PauseReason::ApprovalRequired,
                prompt,
                PauseDetail::Approval {
                    approver: word.approver.clone(),
                },
            );
            Some(Transition::pause(waiting, paused))
        }
    }
}

/// A call whose tool's current definition is not the one an admin accepted
/// (or cannot be checked): the job fails, the call is not made.
pub fn unaccepted(tool: &str, reason: String) -> Transition {
    Transition::fail(
        OutcomeClass::PolicyDenied,
        reason.clone(),
        Event::denied(tool, "tool definition not accepted", reason),
    )
}

/// The gate's reason without the words the prompt already says
/// ("approval required: amount > 500" → "amount > 500"): said once.
fn why_approval(reason: &str) -> &str {
    let lower = reason.to_ascii_lowercase();
    ["approval required: ", "approval required "]
        .iter()
        .find(|prefix| lower.starts_with(*prefix))
        .map_or(reason, |prefix| &reason[prefix.len()..])
}

#[cfg(test)]
mod tests;
