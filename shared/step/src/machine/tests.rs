//! The lifecycle's table: every state a job can be in, every input from
//! outside the worker, and what each does — checked row by row without a
//! store, against ARCHITECTURE.md's copy, and for coverage: every write the
//! machine can make is some row's.

use std::collections::BTreeSet;

use serde_json::Map;

use super::*;
use crate::{EventKind, Waiting};

/// Where a job stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Queued,
    Running,
    AskingUser,
    AskingApprover,
    WithOperator,
    Completed,
    Failed,
    Cancelled,
}

const STATES: [State; 8] = [
    State::Queued,
    State::Running,
    State::AskingUser,
    State::AskingApprover,
    State::WithOperator,
    State::Completed,
    State::Failed,
    State::Cancelled,
];

/// What comes in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum In {
    Approve,
    Reject,
    DecideAnotherAsk,
    Cancel,
    Expire,
    RefuseAnswer,
    RefuseLastAnswer,
    Answer,
    AnswerAnotherAsk,
    Decline,
    Retry,
}

const INPUTS: [In; 11] = [
    In::Approve,
    In::Reject,
    In::DecideAnotherAsk,
    In::Cancel,
    In::Expire,
    In::RefuseAnswer,
    In::RefuseLastAnswer,
    In::Answer,
    In::AnswerAnotherAsk,
    In::Decline,
    In::Retry,
];

/// The table, as ARCHITECTURE.md shows it.
const TABLE: &[(State, In, &str)] = &[
    (
        State::AskingApprover,
        In::Approve,
        "resume: queued (resumed)",
    ),
    (
        State::AskingApprover,
        In::Reject,
        "end: failed POLICY_DENIED (failed)",
    ),
    (State::AskingApprover, In::DecideAnotherAsk, "unchanged"),
    (State::AskingUser, In::Approve, "unchanged"),
    (
        State::Running,
        In::Cancel,
        "end: cancelled CANCELLED (cancelled)",
    ),
    (
        State::AskingUser,
        In::Cancel,
        "end: cancelled CANCELLED (cancelled)",
    ),
    (State::Cancelled, In::Cancel, "unchanged"),
    (State::Completed, In::Cancel, "refused: ended"),
    (
        State::AskingUser,
        In::Expire,
        "end: failed EXPIRED (failed)",
    ),
    (
        State::AskingApprover,
        In::Expire,
        "end: failed EXPIRED (failed)",
    ),
    (State::WithOperator, In::Expire, "unchanged"),
    (State::Running, In::Expire, "unchanged"),
    (
        State::AskingUser,
        In::RefuseAnswer,
        "pause: paused MISSING_REQUIRED_INPUT (answer_refused)",
    ),
    (
        State::AskingUser,
        In::RefuseLastAnswer,
        "pause: paused HUMAN_TAKEOVER_REQUIRED (paused)",
    ),
    (
        State::WithOperator,
        In::RefuseLastAnswer,
        "pause: paused HUMAN_TAKEOVER_REQUIRED (answer_refused)",
    ),
    (
        State::AskingApprover,
        In::RefuseAnswer,
        "refused: an approver decides",
    ),
    (State::Running, In::RefuseAnswer, "refused: not waiting"),
    (State::Failed, In::RefuseAnswer, "refused: ended"),
    (State::AskingUser, In::Answer, "resume: queued (resumed)"),
    (State::WithOperator, In::Answer, "resume: queued (resumed)"),
    (
        State::AskingApprover,
        In::Answer,
        "refused: an approver decides",
    ),
    (
        State::AskingUser,
        In::AnswerAnotherAsk,
        "refused: another ask",
    ),
    (
        State::AskingUser,
        In::Decline,
        "end: cancelled CANCELLED (cancelled)",
    ),
    (State::Failed, In::Retry, "keep ()"),
    (State::WithOperator, In::Retry, "keep ()"),
    (State::Completed, In::Retry, "refused: not retryable"),
    (State::AskingUser, In::Retry, "refused: not retryable"),
];

fn waiting(reason: PauseReason) -> Waiting {
    Waiting {
        reason_code: reason,
        requested_fields: vec!["amount".into()],
        prompt_message: "How much?".into(),
        correlation_id: "ask-1".into(),
        created_at: crate::time::now(),
        last_prompt_at: crate::time::now(),
        fields: Vec::new(),
        prompt_count: 1,
        invalid_answer_count: 0,
        approval: None,
    }
}

fn skill() -> adas_skill::OperationalSkill {
    adas_skill::OperationalSkill::from_source(
        "desk",
        "problem: {statement: Refunds}\nintents:\n  supported:\n    - id: refund\n      examples: [refund my order]\ntools: []\n",
    )
    .expect("the test skill loads")
}

fn job(state: State) -> JobRecord {
    let mut record = JobRecord::queued("j1".into(), &skill(), "refund".into(), ("acme", "ana"));
    let (status, reason) = match state {
        State::Queued => (JobStatus::Queued, None),
        State::Running => (JobStatus::Running, None),
        State::AskingUser => (JobStatus::Paused, Some(PauseReason::MissingRequiredInput)),
        State::AskingApprover => (JobStatus::Paused, Some(PauseReason::ApprovalRequired)),
        State::WithOperator => (JobStatus::Paused, Some(PauseReason::HumanTakeoverRequired)),
        State::Completed => (JobStatus::Completed, None),
        State::Failed => (JobStatus::Failed, None),
        State::Cancelled => (JobStatus::Cancelled, None),
    };
    record.status = status;
    record.waiting = reason.map(waiting);
    record
}

fn decision(approved: bool, correlation_id: &str) -> Decision {
    Decision {
        correlation_id: correlation_id.into(),
        approved,
        approver: "sam".into(),
        role: "supervisor".into(),
        tool: "process_refund".into(),
        call_digest: "d1".into(),
        comment: "ok".into(),
    }
}

fn run(state: State, input: In) -> Result<Applied, Refused> {
    let mut record = job(state);
    let fields: Map<String, serde_json::Value> = [("amount".to_owned(), serde_json::json!(25))]
        .into_iter()
        .collect();
    let answer = |correlation_id| Answer {
        correlation_id,
        fields: &fields,
        by: "ana",
        request_id: "",
    };
    let (this_ask, another_ask) = (answer("ask-1"), answer("ask-0"));
    let skill = skill();
    let (approve, reject, other) = (
        decision(true, "ask-1"),
        decision(false, "ask-1"),
        decision(true, "ask-0"),
    );
    let input = match input {
        In::Approve => Input::ApprovalDecided(&approve),
        In::Reject => Input::ApprovalDecided(&reject),
        In::DecideAnotherAsk => Input::ApprovalDecided(&other),
        In::Cancel => Input::CancelRequested {
            by: "ana",
            reason: "no longer needed",
        },
        In::Expire => Input::AskExpired { timeout_ms: 60_000 },
        In::RefuseAnswer => Input::AnswerRefused {
            violations: 1,
            limit: 3,
            prompt: None,
        },
        In::RefuseLastAnswer => Input::AnswerRefused {
            violations: 1,
            limit: 1,
            prompt: None,
        },
        In::Answer => Input::AnswersAccepted {
            answer: &this_ask,
            read: &fields,
            plan: None,
        },
        In::AnswerAnotherAsk => Input::AnswersAccepted {
            answer: &another_ask,
            read: &fields,
            plan: None,
        },
        In::Decline => Input::AskAnswered {
            skill: &skill,
            decided: crate::ask::Decided::Declined,
            answer: &this_ask,
        },
        In::Retry => Input::RetryRequested {
            by: "olga",
            retry: "skills/shop/jobs/j2",
        },
    };
    apply(&mut record, input)
}

/// An input's effect in a few words: the change, where it leaves the job
/// and the events it writes.
fn shape(applied: &Result<Applied, Refused>) -> String {
    let transition = match applied {
        Ok(Applied::Unchanged) => return "unchanged".into(),
        Err(Refused::Ended(_)) => return "refused: ended".into(),
        Err(Refused::NotWaiting) => return "refused: not waiting".into(),
        Err(Refused::ApproverDecides) => return "refused: an approver decides".into(),
        Err(Refused::AnotherAsk(_)) => return "refused: another ask".into(),
        Err(Refused::NotRetryable(_)) => return "refused: not retryable".into(),
        Ok(Applied::Write(transition)) => transition,
    };
    let mut record = job(State::Running);
    transition.apply(&mut record);
    let change = match &transition.change {
        crate::Change::Keep => "keep".to_owned(),
        crate::Change::Run => "run".to_owned(),
        crate::Change::Pause { waiting, .. } => format!("pause: paused {}", waiting.reason_code),
        crate::Change::Resume => "resume: queued".to_owned(),
        crate::Change::End {
            status, outcome, ..
        } => format!(
            "end: {} {}",
            status.tag(),
            serde_json::to_value(outcome)
                .ok()
                .and_then(|name| name.as_str().map(str::to_owned))
                .unwrap_or_default()
        ),
    };
    let events: Vec<String> = transition
        .events
        .iter()
        .map(|event| event.kind().upper_name().to_ascii_lowercase())
        .collect();
    format!("{change} ({})", events.join(", "))
}

#[test]
fn the_table() {
    for (state, input, expected) in TABLE {
        assert_eq!(
            shape(&run(*state, *input)),
            *expected,
            "{state:?} + {input:?}"
        );
    }
}

/// Every write the machine makes, over every state and input, is a row of
/// the table: no transition goes untested.
#[test]
fn every_transition_is_reached_by_a_row() {
    let tabled: BTreeSet<&str> = TABLE.iter().map(|(_, _, then)| *then).collect();
    let mut missing = BTreeSet::new();
    for state in STATES {
        for input in INPUTS {
            let then = shape(&run(state, input));
            if !tabled.contains(then.as_str()) {
                missing.insert(format!("{state:?} + {input:?} → {then}"));
            }
        }
    }
    assert!(missing.is_empty(), "not in the table: {missing:#?}");
}

/// ARCHITECTURE.md's table is the one above.
#[test]
fn the_architecture_shows_the_table() {
    let text = crate::architecture();
    let rows: String = TABLE
        .iter()
        .map(|(state, input, then)| format!("| {state:?} | {input:?} | {then} |\n"))
        .collect();
    assert!(
        text.contains(&rows),
        "ARCHITECTURE.md's lifecycle table should read:\n{rows}"
    );
}

#[test]
fn a_decision_an_answer_and_a_cancel_are_audited_with_who_and_why() {
    let Ok(Applied::Write(approved)) = run(State::AskingApprover, In::Approve) else {
        panic!("an approval resumes the job");
    };
    let mut record = job(State::AskingApprover);
    approved.apply(&mut record);
    let entry = record.audit.last().expect("an audit entry");
    assert_eq!(
        (entry.who.as_str(), entry.action.as_str()),
        ("sam", "approve")
    );
    assert_eq!(entry.detail["comment"], "ok");
    let Ok(Applied::Write(cancelled)) = run(State::Running, In::Cancel) else {
        panic!("a cancel ends the job");
    };
    let mut record = job(State::Running);
    cancelled.apply(&mut record);
    let entry = record.audit.last().expect("an audit entry");
    assert_eq!(
        (entry.who.as_str(), entry.action.as_str()),
        ("ana", "cancel")
    );
    assert_eq!(entry.detail["reason"], "no longer needed");
}

#[test]
fn a_decision_carries_its_reason_in_its_event_and_its_summary() {
    for (input, verb, kind) in [
        (In::Approve, "approved", EventKind::Resumed),
        (In::Reject, "rejected", EventKind::Failed),
    ] {
        let Ok(Applied::Write(decided)) = run(State::AskingApprover, input) else {
            panic!("a decision changes the job");
        };
        let event = decided.events.last().expect("the decision's event");
        assert_eq!(event.kind(), kind);
        assert_eq!(event.message(), format!("{verb} by sam: ok"));
        let detail = event.detail();
        assert_eq!(
            (&detail["approver"], &detail["role"], &detail["comment"]),
            (&json!("sam"), &json!("supervisor"), &json!("ok")),
            "{detail}"
        );
        let entry = decided.audit.last().expect("an audit entry");
        assert_eq!(entry.approved(), Some(verb == "approved"));
        assert_eq!(
            (entry.detail_text("comment"), entry.detail_text("role")),
            ("ok", "supervisor")
        );
    }
    // No reason given: none shown, and no empty field in the event.
    let quiet = Decision {
        comment: String::new(),
        ..decision(true, "ask-1")
    };
    let Applied::Write(approved) = decided(&job(State::AskingApprover), &quiet) else {
        panic!("an approval resumes the job");
    };
    let event = approved.events.last().expect("the decision's event");
    assert_eq!(event.message(), "approved by sam");
    assert!(event.detail().get("comment").is_none());
}

#[test]
fn a_retry_is_asked_once_and_links_both_ways() {
    let mut record = job(State::WithOperator);
    let Ok(Applied::Write(retried)) = run(State::WithOperator, In::Retry) else {
        panic!("an escalated job is retried");
    };
    retried.apply(&mut record);
    // Claimed only: it is cancelled once the new job stands.
    assert_eq!(record.status, JobStatus::Paused);
    assert_eq!(retried_by(&record), Some("skills/shop/jobs/j2"));
    let entry = record.audit.last().expect("an audit entry");
    assert_eq!(
        (entry.who.as_str(), entry.action.as_str()),
        ("olga", "retry")
    );
    // Once: asked again, nothing is written, and the first retry stands.
    let mut failed = job(State::Failed);
    let input = || Input::RetryRequested {
        by: "olga",
        retry: "skills/shop/jobs/j2",
    };
    let Ok(Applied::Write(first)) = apply(&mut failed, input()) else {
        panic!("a failed job is retried");
    };
    first.apply(&mut failed);
    let again = Input::RetryRequested {
        by: "ana",
        retry: "skills/shop/jobs/j3",
    };
    assert_eq!(apply(&mut failed, again), Ok(Applied::Unchanged));
    assert_eq!(retried_by(&failed), Some("skills/shop/jobs/j2"));
    assert_eq!(retry_of(&failed), None);
}

#[test]
fn a_refused_answer_counts_and_says_what_was_wrong() {
    let mut record = job(State::AskingUser);
    let applied = apply(
        &mut record,
        Input::AnswerRefused {
            violations: 1,
            limit: 3,
            prompt: Some("That is not an amount. How much?".into()),
        },
    );
    let Ok(Applied::Write(transition)) = applied else {
        panic!("a refused answer is written");
    };
    transition.apply(&mut record);
    let waiting = record.waiting.expect("still waiting");
    assert_eq!(waiting.invalid_answer_count, 1);
    assert_eq!(waiting.prompt_message, "That is not an amount. How much?");
    assert_eq!(record.status, JobStatus::Paused);
}

/// An answer taken stands as evidence, in the words it was read as, fills
/// the plan and is audited with the request that gave it.
#[test]
fn an_answer_taken_is_evidence_and_audited_with_its_request() {
    let mut record = job(State::AskingUser);
    let fields: Map<String, serde_json::Value> =
        [("amount".to_owned(), serde_json::json!("25 euros"))]
            .into_iter()
            .collect();
    let read: Map<String, serde_json::Value> = [("amount".to_owned(), serde_json::json!(25))]
        .into_iter()
        .collect();
    let answer = Answer {
        correlation_id: "ask-1",
        fields: &fields,
        by: "",
        request_id: "r-7",
    };
    let input = Input::AnswersAccepted {
        answer: &answer,
        read: &read,
        plan: None,
    };
    let Ok(Applied::Write(transition)) = apply(&mut record, input) else {
        panic!("a fitting answer is taken");
    };
    assert_eq!(record.context["amount"], 25);
    let evidence = record.evidence.last().expect("evidence");
    assert_eq!(
        (evidence.name.as_str(), evidence.source.as_str()),
        ("amount", "answer")
    );
    transition.apply(&mut record);
    assert_eq!(record.status, JobStatus::Queued);
    let entry = record.audit.last().expect("an audit entry");
    assert_eq!(
        (entry.who.as_str(), entry.action.as_str()),
        ("user", "answer")
    );
    assert_eq!(entry.detail["request_id"], "r-7");
    assert_eq!(entry.detail["fields"]["amount"], "25 euros");
}

#[test]
fn every_reason_says_who_answers_it() {
    for reason in PauseReason::ALL {
        let answerer = reason.answerer();
        assert_eq!(reason.expires(), answerer != Answerer::Operator, "{reason}");
    }
    assert_eq!(PauseReason::ApprovalRequired.answerer(), Answerer::Approver);
    assert_eq!(
        PauseReason::HumanTakeoverRequired.answerer(),
        Answerer::Operator
    );
}
