//! Table tests of the guards: a job, a skill and a call in, a decision out —
//! no store, no network.

use adas_skill::OperationalSkill;
use serde_json::{Map, Value as Json, json};

use super::*;
use crate::{CallRecord, DetectedIntent, JobStatus, StartedCall};

const SKILL: &str = "\
problem: {statement: Refunds}
intents:
  supported:
    - id: refund
      examples: [refund my order]
tools:
  - name: lookup
    read_only: true
  - name: refund
    inputs: [{name: order_id, required: true}]
engine:
  max_iterations: 3
";

fn skill(extra: &str) -> OperationalSkill {
    OperationalSkill::from_source("refunds", &format!("{SKILL}{extra}"))
        .expect("the test skill loads")
}

/// A job whose user said the order's id (no argument rests on a guess).
fn job_with_the_order_said() -> JobRecord {
    let mut record = job();
    record.evidence.push(crate::Evidence {
        name: "order_id".into(),
        value: json!("ORD-1"),
        source: "message".into(),
    });
    record
}

fn job() -> JobRecord {
    let mut record = JobRecord::queued(
        "j1".into(),
        &skill(""),
        "refund ORD-1".into(),
        ("acme", "ana"),
    );
    record.status = JobStatus::Running;
    record.intent = Some(DetectedIntent {
        intent_id: "refund".into(),
        confidence: 0.9,
        out_of_domain: false,
        margin: 0.5,
        confident: true,
    });
    record
}

fn args() -> Map<String, Json> {
    json!({"order_id": "ORD-1"}).as_object().cloned().unwrap()
}

fn made(record: &mut JobRecord, digest: &str, times: usize) {
    for _ in 0..times {
        record.iteration += 1;
        record.calls.push(CallRecord {
            tool: "refund".into(),
            arguments: args(),
            call_digest: digest.into(),
            output: Json::Null,
            is_error: false,
            iteration: record.iteration,
            finished_at: String::new(),
        });
    }
}

fn word(verdict: Verdict) -> GateWord {
    GateWord {
        policy: None,
        verdict,
        rule: "refund over 500".into(),
        reason: "large refunds need a supervisor".into(),
        approver: "supervisor".into(),
        call_digest: "d1".into(),
        condition: "amount > 500".into(),
        correlation_id: "apr-1".into(),
        rule_kind: "APPROVAL".into(),
    }
}

/// What a transition leaves on the job: status, outcome, why it waits.
type Left = Option<(JobStatus, OutcomeClass, Option<PauseReason>)>;

fn outcome(transition: Option<Transition>) -> Left {
    let transition = transition?;
    let mut record = job();
    transition.apply(&mut record);
    Some((
        record.status,
        record.outcome_class?,
        record.waiting.map(|waiting| waiting.reason_code),
    ))
}

#[test]
fn the_budget_stops_a_call_only_when_it_is_spent() {
    let cases: [(&str, usize, Left); 4] = [
        ("", 0, None),
        ("", 2, None),
        (
            "",
            3,
            Some((JobStatus::Failed, OutcomeClass::EngineBudgetExhausted, None)),
        ),
        (
            "  on_max_iterations: escalate\n",
            3,
            Some((
                JobStatus::Paused,
                OutcomeClass::Escalated,
                Some(PauseReason::HumanTakeoverRequired),
            )),
        ),
    ];
    for (extra, calls, expected) in cases {
        let skill = skill(extra);
        let mut record = job();
        for index in 0..calls {
            made(&mut record, &format!("other-{index}"), 1);
        }
        assert_eq!(
            outcome(budget(&skill, &record)),
            expected,
            "{extra:?} after {calls}"
        );
    }
}

#[test]
fn the_same_call_again_and_again_is_a_loop() {
    let skill = skill("");
    let threshold = skill.engine.identical_call_threshold as usize;
    let args = args();
    let call = Call {
        tool: "refund",
        args: &args,
        digest: "d1",
    };
    for (times, stops) in [(0, false), (threshold - 1, false), (threshold, true)] {
        let mut record = job();
        made(&mut record, "d1", times);
        let decision = repeated(&skill, &record, call);
        assert_eq!(decision.is_some(), stops, "after {times} identical calls");
        if let Some(transition) = decision {
            assert_eq!(transition.events[0].kind(), crate::EventKind::Failed);
        }
    }
    // Another call's repeats do not count.
    let mut record = job();
    made(&mut record, "d2", threshold);
    assert!(repeated(&skill, &record, call).is_none());
}

#[test]
fn a_call_whose_end_is_unknown_runs_again_only_when_idempotent() {
    let skill = skill("");
    let args = args();
    let mut record = job();
    record.started_call = Some(StartedCall {
        key: "k1".into(),
        tool: "refund".into(),
        started_at: "2026-01-01T00:00:00.000Z".into(),
    });
    let refund = Call {
        tool: "refund",
        args: &args,
        digest: "d1",
    };
    let lookup = Call {
        tool: "lookup",
        args: &args,
        digest: "d2",
    };
    // Another key: not the call that was started.
    assert!(unknown_end(&skill, &record, refund, "k2", None).is_none());
    // Read-only, so idempotent: it runs again.
    assert!(unknown_end(&skill, &record, lookup, "k1", None).is_none());
    // A server's read-only hint counts when the skill says nothing.
    assert!(unknown_end(&skill, &record, refund, "k1", Some(true)).is_none());
    let stopped = unknown_end(&skill, &record, refund, "k1", None);
    assert_eq!(
        outcome(stopped.clone()),
        Some((
            JobStatus::Paused,
            OutcomeClass::Escalated,
            Some(PauseReason::HumanTakeoverRequired)
        ))
    );
    let detail = stopped.unwrap().events[0].detail();
    assert_eq!(detail["idempotency_key"], "k1");
    assert_eq!(detail["reason_code"], "HUMAN_TAKEOVER_REQUIRED");
}

#[test]
fn the_gates_verdict_decides_the_call() {
    let skill = skill("");
    let args = args();
    let call = Call {
        tool: "refund",
        args: &args,
        digest: "d1",
    };
    let cases = [
        (Verdict::Allow, None),
        (
            Verdict::Deny,
            Some((JobStatus::Failed, OutcomeClass::PolicyDenied, None)),
        ),
        (
            Verdict::RequireApproval,
            Some((
                JobStatus::Paused,
                OutcomeClass::ApprovalRequired,
                Some(PauseReason::ApprovalRequired),
            )),
        ),
        (
            Verdict::OwnerConfirms,
            Some((
                JobStatus::Paused,
                OutcomeClass::UserActionRequired,
                Some(PauseReason::ActionConfirmationRequired),
            )),
        ),
    ];
    for (verdict, expected) in cases {
        assert_eq!(
            outcome(gate(&skill, &job(), call, &word(verdict))),
            expected,
            "{verdict:?}"
        );
    }
    // The owner's yes, once, lets the call through once.
    let mut record = job();
    record.confirmed_calls.push("d1".into());
    assert!(gate(&skill, &record, call, &word(Verdict::OwnerConfirms)).is_none());
    made(&mut record, "d1", 1);
    assert!(gate(&skill, &record, call, &word(Verdict::OwnerConfirms)).is_some());
}

#[test]
fn an_approval_holds_the_exact_call_for_the_approver() {
    let skill = skill("");
    let args = args();
    let call = Call {
        tool: "refund",
        args: &args,
        digest: "d1",
    };
    let mut record = job();
    gate(&skill, &record, call, &word(Verdict::RequireApproval))
        .unwrap()
        .apply(&mut record);
    let waiting = record.waiting.unwrap();
    let approval = waiting.approval.unwrap();
    assert_eq!(waiting.correlation_id, "apr-1");
    assert_eq!(approval.approver, "supervisor");
    assert_eq!(approval.arguments, args);
    assert_eq!(approval.condition, "amount > 500");
}

#[test]
fn a_guessed_argument_needs_the_users_yes() {
    let skill = skill("");
    let args = args();
    let call = Call {
        tool: "refund",
        args: &args,
        digest: "d1",
    };
    let record = job();
    // ORD-1 is nowhere in the job's evidence: a guess.
    let why = certainty(&skill, &record, call).expect("a guess needs a yes");
    let transition = confirmation(&skill, &record, call, why);
    let mut paused = job();
    transition.apply(&mut paused);
    let waiting = paused.waiting.unwrap();
    assert_eq!(waiting.reason_code, PauseReason::ActionConfirmationRequired);
    assert_eq!(waiting.requested_fields, ["confirm"]);
    assert!(waiting.prompt_message.ends_with("(yes/no)"));
    // With the value in evidence, it runs.
    let record = job_with_the_order_said();
    assert_eq!(certainty(&skill, &record, call), None);
}

#[test]
fn an_unaccepted_definition_fails_the_job() {
    let transition = unaccepted("refund", "`refund` changed since it was accepted".into());
    assert_eq!(
        outcome(Some(transition.clone())),
        Some((JobStatus::Failed, OutcomeClass::PolicyDenied, None))
    );
    assert_eq!(
        transition.events[0].detail(),
        json!({"tool": "refund", "rule": "tool definition not accepted"})
    );
}

#[test]
fn an_approval_prompt_says_it_once() {
    assert_eq!(
        super::why_approval("approval required: amount > 500"),
        "amount > 500"
    );
    assert_eq!(
        super::why_approval("Approval required when action == 'delete'"),
        "when action == 'delete'"
    );
    assert_eq!(
        super::why_approval("Refunds over $500"),
        "Refunds over $500"
    );
}

#[test]
fn a_supervised_skill_asks_before_every_side_effect() {
    let skill = skill("  autonomy: {level: supervised}\n");
    assert!(skill.engine.confirm_side_effects);
    let args = args();
    let call = Call {
        tool: "refund",
        args: &args,
        digest: "d1",
    };
    // Every value in evidence: no guess, yet the desk asks first.
    let mut record = job_with_the_order_said();
    assert!(certainty(&skill, &record, call).is_some());
    // Its user's yes to this exact call lets it run, once.
    record.confirmed_calls.push("d1".into());
    assert_eq!(certainty(&skill, &record, call), None);
    // An autonomous one acts within its policy.
    let autonomous = self::skill("  autonomy: {level: autonomous}\n");
    let record = job_with_the_order_said();
    assert_eq!(certainty(&autonomous, &record, call), None);
}

const ESCALATION: &str = "\
policy:
  escalation:
    enabled: true
    conditions: [\"amount > 5000\", \"Chargeback dispute filed\"]
    target: refunds-desk
";

#[test]
fn an_escalation_condition_hands_the_call_to_a_person() {
    let escalating = skill(ESCALATION);
    let calm = skill("");
    let big = json!({"order_id": "ORD-1", "amount": 9000});
    let big = big.as_object().cloned().unwrap();
    let call = |args| Call {
        tool: "refund",
        args,
        digest: "d1",
    };
    let handed = Some((
        JobStatus::Paused,
        OutcomeClass::Escalated,
        Some(PauseReason::HumanTakeoverRequired),
    ));
    assert_eq!(outcome(escalation(&escalating, call(&big))), handed);
    let small = args();
    assert_eq!(outcome(escalation(&escalating, call(&small))), None);
    assert_eq!(outcome(escalation(&calm, call(&big))), None);
    let Some(stop) = escalation(&escalating, call(&big)) else {
        panic!("escalates")
    };
    let mut record = job();
    stop.apply(&mut record);
    let prompt = record.waiting.map(|waiting| waiting.prompt_message);
    let prompt = prompt.unwrap_or_default();
    assert!(
        prompt.contains("amount > 5000") && prompt.contains("refunds-desk"),
        "{prompt}"
    );
}

#[test]
fn a_request_that_says_an_escalation_sentence_goes_to_a_person() {
    let escalating = skill(ESCALATION);
    let mut record = job();
    record.goal = "I filed a chargeback dispute with my bank about ORD-1".into();
    assert_eq!(
        outcome(escalation_said(&escalating, &record)),
        Some((
            JobStatus::Paused,
            OutcomeClass::Escalated,
            Some(PauseReason::HumanTakeoverRequired),
        ))
    );
    assert_eq!(outcome(escalation_said(&skill(""), &record)), None);
    record.goal = "refund ORD-1 please".into();
    assert_eq!(outcome(escalation_said(&escalating, &record)), None);
}
