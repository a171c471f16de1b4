//! The worker's table: a job in a given state, an input, and the step it
//! makes — the write, when it is written, the effect — checked row by row
//! without a store; against ARCHITECTURE.md's copy; and for coverage: every
//! input and every effect is some row's.

use std::collections::BTreeSet;

use adas_dia::SlotPath;
use serde_json::json;

use super::*;
use crate::effect::Judged;
use crate::guard::Verdict;
use crate::{DetectedIntent, JobStatus};

const SKILL: &str = "\
problem: {statement: Refunds}
intents:
  supported:
    - id: refund
      examples: [refund my order, I want my money back for an order]
tools:
  - name: lookup
    read_only: true
    inputs: [{name: order_id, required: true}]
  - name: refund
    inputs: [{name: order_id, required: true}]
engine:
  max_iterations: 3
";

fn skill(extra: &str) -> OperationalSkill {
    OperationalSkill::from_source("refunds", &format!("{SKILL}{extra}")).expect("the skill loads")
}

/// A running job whose user said the order, planned `lookup(); refund()`.
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
    record.evidence.push(crate::Evidence {
        name: "order_id".into(),
        value: json!("ORD-1"),
        source: "message".into(),
    });
    let program = adas_dia::parse("lookup(order_id=\"ORD-1\")").expect("a program");
    record.plan = Some(adas_dia::Plan::new(program));
    record
}

/// The same job before it was planned.
fn unplanned() -> JobRecord {
    let mut record = job();
    record.plan = None;
    record
}

/// The deterministic planner's first answer to `goal`.
fn planned(goal: &str) -> Input {
    let skill = skill("");
    let context = serde_json::Map::new();
    let planned = adas_nlu::plan_input(&skill.skill, &adas_nlu::PlanInput::new(goal, &context));
    Input::Planned(Box::new(planned), PlanAsk::default())
}

fn call(tool: &str, side_effecting: bool) -> Box<Call> {
    let args = json!({"order_id": "ORD-1"}).as_object().cloned().unwrap();
    Box::new(Call {
        tool: tool.into(),
        digest: adas_dia::digest::call_digest(tool, &args),
        args,
        path: first_call_path(),
        key: "k1".into(),
        side_effecting,
        refused: None,
        server: None,
        word: None,
    })
}

fn first_call_path() -> SlotPath {
    let plan = job().plan.expect("a plan");
    adas_dia::next_call(&plan.program)
        .expect("a program")
        .expect("a call")
        .path
}

fn word(verdict: Verdict) -> GateWord {
    GateWord {
        policy: None,
        verdict,
        rule: String::new(),
        reason: "the gate said so".into(),
        approver: String::new(),
        call_digest: "d1".into(),
        condition: String::new(),
        correlation_id: String::new(),
        rule_kind: "GATE_RULE_KIND_NO_RULE".into(),
    }
}

fn judged(passed: bool) -> Judged {
    Judged {
        passed,
        skipped: false,
        score: if passed { 1.0 } else { 0.0 },
        reasons: if passed {
            Vec::new()
        } else {
            vec!["the reply states no order".into()]
        },
        missing_fields: Vec::new(),
        decider: crate::effect::Decider::deterministic(),
    }
}

fn drafted(record: &JobRecord) -> Drafted {
    finish::draft(
        &skill(""),
        record,
        vec![("lookup".into(), json!({"status": "shipped"}))],
    )
}

/// The rows: a name, the skill's extra lines, the job, the input, and what
/// follows in words.
type Row = (&'static str, &'static str, fn() -> JobRecord, fn() -> Input);

const TABLE: &[(Row, &str)] = &[
    (
        ("a new job is picked up", "", unplanned, || Input::Picked {
            worker: "w1".into(),
            reclaimed: false,
            first_turn: true,
        }),
        "hold running (running) → plan",
    ),
    (
        ("a planned job is picked up", "", job, || Input::Picked {
            worker: "w1".into(),
            reclaimed: false,
            first_turn: false,
        }),
        "hold running (running) → resolve next",
    ),
    (
        ("a plan made here", "", unplanned, || {
            planned("refund my order ORD-1")
        }),
        "hold running (planned) → resolve next",
    ),
    (
        ("a request out of the skill's domain", "", unplanned, || {
            planned("what is the weather on Mars tomorrow")
        }),
        "write completed (completed)",
    ),
    (
        ("the plan asks the user", "", job, || {
            Input::Resolved(Next::Waiting(Box::new(crate::Waiting {
                reason_code: crate::PauseReason::MissingRequiredInput,
                requested_fields: vec!["amount".into()],
                prompt_message: "How much?".into(),
                correlation_id: "c1".into(),
                created_at: now(),
                last_prompt_at: now(),
                fields: Vec::new(),
                prompt_count: 1,
                invalid_answer_count: 0,
                approval: None,
            })))
        }),
        "nothing (the DAL-Agent wrote the ask)",
    ),
    (
        ("the user aborted the plan", "", job, || {
            Input::Resolved(Next::Aborted("changed my mind".into()))
        }),
        "write cancelled (cancelled)",
    ),
    (
        ("the plan ran out", "", job, || {
            Input::Resolved(Next::Done(None))
        }),
        "→ read outputs",
    ),
    (
        ("the plan ran out, RV2", "  loop: rv2\n", job, || {
            Input::Resolved(Next::Done(None))
        }),
        "write running → plan",
    ),
    (
        ("the next call", "", job, || {
            Input::Resolved(Next::Call {
                tool: "lookup".into(),
                args: json!({"order_id": "ORD-1"}).as_object().cloned().unwrap(),
                path: first_call_path(),
            })
        }),
        "→ vet",
    ),
    (
        (
            "the next call, the budget spent",
            "",
            || {
                let mut record = job();
                record.iteration = 3;
                record
            },
            || {
                Input::Resolved(Next::Call {
                    tool: "lookup".into(),
                    args: json!({"order_id": "ORD-1"}).as_object().cloned().unwrap(),
                    path: first_call_path(),
                })
            },
        ),
        "write failed (failed)",
    ),
    (
        ("a read vetted", "", job, || Input::Vetted {
            call: call("lookup", false),
            refused: None,
            hint: Some(true),
            server: None,
            stale: false,
        }),
        "→ gate",
    ),
    (
        (
            "a side effect resting on a guess",
            "",
            || {
                let mut record = job();
                record.evidence.clear();
                record
            },
            || Input::Vetted {
                call: call("refund", true),
                refused: None,
                hint: None,
                server: None,
                stale: false,
            },
        ),
        "write paused (paused)",
    ),
    (
        ("the gate denies", "", job, || {
            Input::GateSaid(call("lookup", false), word(Verdict::Deny))
        }),
        "write failed (tool_denied)",
    ),
    (
        ("the gate allows a read", "", job, || {
            Input::GateSaid(call("lookup", false), word(Verdict::Allow))
        }),
        "write running (tool_started) → run",
    ),
    (
        ("the gate allows a side effect", "", job, || {
            Input::GateSaid(call("refund", true), word(Verdict::Allow))
        }),
        "→ recheck",
    ),
    (
        ("the server hid the tool since", "", job, || {
            Input::Rechecked(call("refund", true), Some("not listed now".into()))
        }),
        "write failed (tool_denied)",
    ),
    (
        ("the server's list still holds it", "", job, || {
            let mut call = call("refund", true);
            call.word = Some(word(Verdict::Allow));
            Input::Rechecked(call, None)
        }),
        "write running (tool_started) → run",
    ),
    (
        ("a call returned", "", job, || {
            Input::Ended(call("lookup", false), Ok(json!({"status": "shipped"})))
        }),
        "hold running (tool_finished) → resolve next",
    ),
    (
        ("a call returned a large output", "", job, || {
            Input::Ended(call("lookup", false), Ok(json!({"text": "x".repeat(9000)})))
        }),
        "→ keep",
    ),
    (
        ("a large output kept", "", job, || {
            Input::Kept(call("lookup", false), json!({"focus_ref": "f1"}))
        }),
        "hold running (tool_finished) → resolve next",
    ),
    (
        ("a call failed for good", "", job, || {
            Input::Ended(
                call("lookup", false),
                Err(ToolError::Unrecoverable("the server is gone".into())),
            )
        }),
        "write failed (failed)",
    ),
    (
        ("the outputs read", "", job, || {
            Input::OutputsRead(vec![("lookup".into(), json!({"status": "shipped"}))])
        }),
        "→ judge",
    ),
    (
        ("the draft passed", "", job, || {
            Input::Judged(Box::new(drafted(&job())), judged(true))
        }),
        "→ polish",
    ),
    (
        (
            "the draft failed, a replan left",
            "  finalization_max_retries: 1\n",
            job,
            || Input::Judged(Box::new(drafted(&job())), judged(false)),
        ),
        "write running → replan",
    ),
    (
        ("a replan brought nothing new", "", job, || {
            let skill = skill("");
            let detection = adas_nlu::detect(&skill.skill, "refund ORD-1", &serde_json::Map::new());
            let mut planned = adas_nlu::Planned::finished(detection, adas_nlu::DETERMINISTIC);
            planned.done = true;
            Input::Replanned(
                Box::new(planned),
                next_ask(&job(), Some("say the order".into())),
                Box::new((drafted(&job()), judged(false))),
            )
        }),
        "→ polish",
    ),
    (
        ("the reply polished", "", job, || {
            let skill = skill("");
            let record = job();
            let asked = finish::polish_ask(&skill, &record, &drafted(&record));
            Input::Polished(
                Box::new((judged(true), asked)),
                crate::effect::Polished {
                    text: "Your order has shipped.".into(),
                    decider: crate::effect::Decider::deterministic(),
                },
            )
        }),
        "write completed (finalized, completed)",
    ),
];

/// A step in words: the write (held or now), where it leaves the job, its
/// events, and the effect.
fn shape(step: &Step) -> String {
    let mut words = Vec::new();
    if let Some(transition) = &step.transition {
        let mut record = job();
        transition.apply(&mut record);
        let events: Vec<String> = transition
            .events
            .iter()
            .map(|event| event.kind().upper_name().to_ascii_lowercase())
            .collect();
        let status = match &transition.change {
            crate::Change::Keep | crate::Change::Run => "running",
            _ => record.status.tag(),
        };
        let write = match step.write {
            Write::Hold => "hold",
            Write::Now => "write",
        };
        if events.is_empty() {
            words.push(format!("{write} {status}"));
        } else {
            words.push(format!("{write} {status} ({})", events.join(", ")));
        }
    }
    match &step.effect {
        Some(effect) => words.push(format!("→ {}", effect_name(effect))),
        None if step.transition.is_none() => {
            words.push("nothing (the DAL-Agent wrote the ask)".into());
        }
        None => {}
    }
    words.join(" ")
}

fn effect_name(effect: &Effect) -> &'static str {
    match effect {
        Effect::Plan(_) => "plan",
        Effect::Replan(..) => "replan",
        Effect::ResolveNext => "resolve next",
        Effect::Vet(_) => "vet",
        Effect::Gate(_) => "gate",
        Effect::Recheck(_) => "recheck",
        Effect::Run(_) => "run",
        Effect::Keep(..) => "keep",
        Effect::ReadOutputs => "read outputs",
        Effect::Judge(_) => "judge",
        Effect::Polish(_) => "polish",
    }
}

const EFFECTS: [&str; 11] = [
    "plan",
    "replan",
    "resolve next",
    "vet",
    "gate",
    "recheck",
    "run",
    "keep",
    "read outputs",
    "judge",
    "polish",
];

fn input_name(input: &Input) -> &'static str {
    match input {
        Input::Picked { .. } => "picked",
        Input::Planned(..) => "planned",
        Input::Replanned(..) => "replanned",
        Input::Resolved(_) => "resolved",
        Input::Vetted { .. } => "vetted",
        Input::GateSaid(..) => "gate said",
        Input::Rechecked(..) => "rechecked",
        Input::Ended(..) => "ended",
        Input::Kept(..) => "kept",
        Input::OutputsRead(_) => "outputs read",
        Input::Judged(..) => "judged",
        Input::Polished(..) => "polished",
    }
}

const INPUTS: [&str; 12] = [
    "picked",
    "planned",
    "replanned",
    "resolved",
    "vetted",
    "gate said",
    "rechecked",
    "ended",
    "kept",
    "outputs read",
    "judged",
    "polished",
];

fn step_of(((_, extra, record, input), _): &(Row, &str)) -> (String, &'static str) {
    let input = input();
    let name = input_name(&input);
    let step = apply(&skill(extra), &mut record(), input);
    (shape(&step), name)
}

#[test]
fn the_table() {
    let wrong: Vec<String> = TABLE
        .iter()
        .filter_map(|row| {
            let (shape, _) = step_of(row);
            (shape != row.1).then(|| format!("{}: {shape} (the table: {})", (row.0).0, row.1))
        })
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Every input is some row's, and every effect is reached by one.
#[test]
fn every_input_and_every_effect_is_reached_by_a_row() {
    let mut inputs = BTreeSet::new();
    let mut effects = BTreeSet::new();
    for row in TABLE {
        let (shape, input) = step_of(row);
        inputs.insert(input);
        if let Some((_, effect)) = shape.split_once("→ ") {
            effects.insert(effect.to_owned());
        }
    }
    let missing: Vec<&&str> = INPUTS
        .iter()
        .filter(|name| !inputs.contains(*name))
        .collect();
    assert!(missing.is_empty(), "inputs no row applies: {missing:?}");
    let missing: Vec<&&str> = EFFECTS
        .iter()
        .filter(|name| !effects.contains(**name))
        .collect();
    assert!(missing.is_empty(), "effects no row reaches: {missing:?}");
}

/// ARCHITECTURE.md's table of the worker's steps is the one above.
#[test]
fn the_architecture_shows_the_table() {
    let text = crate::architecture();
    let rows: String = TABLE
        .iter()
        .map(|row| {
            let (_, input) = step_of(row);
            format!("| {} | {input} | {} |\n", (row.0).0, row.1)
        })
        .collect();
    assert!(
        text.contains(&rows),
        "ARCHITECTURE.md's table of the worker's steps should read:\n{rows}"
    );
}

/// A call's result is filtered and its personal values kept before anything
/// reads it; a read's start rides beside the call, a side effect's first.
#[test]
fn a_result_is_recorded_with_the_call_that_made_it() {
    let skill = skill("");
    let mut record = job();
    let step = apply(
        &skill,
        &mut record,
        Input::Ended(call("lookup", false), Ok(json!({"status": "shipped"}))),
    );
    assert_eq!(step.write, Write::Hold);
    assert_eq!(record.iteration, 1);
    assert_eq!(record.calls.len(), 1);
    assert_eq!(record.calls[0].output, json!({"status": "shipped"}));
    assert!(record.started_call.is_none());
    assert!(holds_an_end(&{
        let mut held = record.clone();
        if let Some(transition) = step.transition {
            held.unwritten.extend(transition.events);
        }
        held
    }));
}

/// A result says whether it made the job hold new personal values, so a
/// watcher reads the job again only after one that did.
#[test]
fn a_result_says_whether_it_added_personal_values() {
    let source = SKILL.replace(
        "    read_only: true\n",
        "    read_only: true\n    security: {classification: pii_customer}\n",
    );
    let personal = OperationalSkill::from_source("refunds", &source).expect("the skill loads");
    let finished = |skill: &OperationalSkill, record: &mut JobRecord, result: Json| {
        let step = apply(
            skill,
            record,
            Input::Ended(call("lookup", false), Ok(result)),
        );
        let events = step.transition.expect("a held event").events;
        match events.as_slice() {
            [Event::ToolFinished { adds_personal, .. }] => *adds_personal,
            other => panic!("expected the call's end, got {other:?}"),
        }
    };
    let mut record = job();
    assert!(finished(
        &personal,
        &mut record,
        json!({"email": "ana@example.com"})
    ));
    assert_eq!(record.personal, ["ana@example.com"]);
    // A value the job holds already adds nothing.
    let mut again = job();
    again.personal = vec!["ana@example.com".into()];
    assert!(!finished(
        &personal,
        &mut again,
        json!({"email": "ana@example.com"})
    ));
    // A tool the skill does not classify adds nothing.
    assert!(!finished(
        &skill(""),
        &mut job(),
        json!({"email": "bo@example.com"})
    ));
}
