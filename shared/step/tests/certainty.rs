//! Side effects need certainty: which tools have side effects, what counts as
//! evidence, and when a call must be confirmed first.

use adas_step::certainty::{confirmation_needed, describe_call, evidenced, side_effecting};
use adas_step::{CallRecord, DetectedIntent, Evidence, JobRecord};
use serde_json::{Map, Value as Json, json};

fn skill() -> adas_skill::OperationalSkill {
    let source = "\
name: Certainty
problem: {statement: Test certainty}
intents: {supported: [{id: test}]}
tools:
  - name: lookup
    description: Look something up
    read_only: true
  - name: reserve
    description: Reserve a room
  - name: pinky_swear
    read_only: false
";
    adas_skill::OperationalSkill::from_source("certainty", source).unwrap()
}

fn record(confident: bool) -> JobRecord {
    let mut record: JobRecord = serde_json::from_value(json!({
        "job_id": "j", "slag": "certainty", "goal": "g", "status": "running",
        "outcome_class": null, "waiting": null, "context": {}, "resources": {},
        "plan": null, "intent": null, "iteration": 0, "iteration_budget": 10,
        "calls": [], "result": null, "error": null, "audit": [], "request_id": "",
        "created_at": "2026-11-23T00:00:00Z", "updated_at": "2026-11-23T00:00:00Z", "ended_at": null
    }))
    .unwrap();
    record.intent = Some(DetectedIntent {
        intent_id: "test".into(),
        confidence: 0.8,
        out_of_domain: false,
        margin: 0.5,
        confident,
    });
    record
}

fn args(value: Json) -> Map<String, Json> {
    value.as_object().unwrap().clone()
}

#[test]
fn tools_have_side_effects_unless_the_skill_or_the_accepted_hint_says_otherwise() {
    let skill = skill();
    assert!(!side_effecting(&skill, "lookup", None));
    assert!(side_effecting(&skill, "reserve", None));
    // The server's hint counts when the skill says nothing...
    assert!(!side_effecting(&skill, "reserve", Some(true)));
    // ...but never against the skill's word.
    assert!(side_effecting(&skill, "pinky_swear", Some(true)));
    assert!(side_effecting(&skill, "undeclared", None));
    assert!(!side_effecting(&skill, "sys.emitUserMessage", None));
}

#[test]
fn a_guess_needs_a_yes_and_evidence_does_not() {
    let arguments = args(json!({"room": "5", "people": 3}));
    let mut guessed = record(true);
    guessed.evidence.push(Evidence {
        name: "people".into(),
        value: json!(3),
        source: "message".into(),
    });
    let why = confirmation_needed(&guessed, &arguments, "d1").expect("room is a guess");
    assert!(why.contains("room"), "{why}");
    // An answer is evidence ("5" answers a number as text).
    guessed.evidence.push(Evidence {
        name: "room".into(),
        value: json!(5),
        source: "answer".into(),
    });
    assert_eq!(confirmation_needed(&guessed, &arguments, "d1"), None);
    // An intent that was not confident needs a yes whatever the arguments.
    let mut unsure = guessed.clone();
    unsure.intent.as_mut().unwrap().confident = false;
    assert!(confirmation_needed(&unsure, &arguments, "d1").is_some());
    // The user's yes is for that exact call only.
    unsure.confirmed_calls.push("d1".into());
    assert_eq!(confirmation_needed(&unsure, &arguments, "d1"), None);
    assert!(confirmation_needed(&unsure, &arguments, "d2").is_some());
    // …and for one execution of it: once it ran, the same call asks again.
    unsure.calls.push(CallRecord {
        tool: "reserve".into(),
        arguments: arguments.clone(),
        call_digest: "d1".into(),
        output: json!({"ok": true}),
        is_error: false,
        iteration: 1,
        finished_at: "2026-11-23T00:00:00Z".into(),
    });
    assert!(confirmation_needed(&unsure, &arguments, "d1").is_some());
    unsure.confirmed_calls.push("d1".into());
    assert_eq!(confirmation_needed(&unsure, &arguments, "d1"), None);
}

#[test]
fn whoever_took_part_in_a_call_is_named() {
    let mut job = record(true);
    job.owner = "alice".into();
    let answer = |who: &str, fields: Json| adas_step::AuditEntry {
        who: who.into(),
        at: "2026-11-23T00:00:00Z".into(),
        action: "answer".into(),
        detail: json!({"fields": fields}),
    };
    job.audit.push(answer("olga", json!({"amount": 50000})));
    job.audit.push(answer("bob", json!({"note": "hi"})));
    job.audit.push(adas_step::AuditEntry {
        who: "carl".into(),
        at: "2026-11-23T00:00:00Z".into(),
        action: "confirm".into(),
        detail: json!({"fields": {"confirm": "yes"}, "call_digest": "d1"}),
    });
    let call = args(json!({"order_id": "ORD-1", "amount": 50000}));
    assert_eq!(
        adas_step::certainty::took_part(&job, &call, "d1"),
        ["alice", "olga", "carl"]
    );
    // Another call's confirmer did not take part in this one.
    assert_eq!(
        adas_step::certainty::took_part(&job, &call, "d2"),
        ["alice", "olga"]
    );
}

#[test]
fn a_tool_echoing_its_input_proves_nothing() {
    let mut job = record(true);
    job.calls.push(CallRecord {
        tool: "check_service_health".into(),
        arguments: args(json!({"service": "checkout"})),
        call_digest: "x".into(),
        output: json!({"service": "checkout", "owner": "team-a"}),
        is_error: false,
        iteration: 1,
        finished_at: "2026-11-23T00:00:00Z".into(),
    });
    assert!(!evidenced(&job, "service", &json!("checkout")));
    // What the tool found on its own is evidence.
    assert!(evidenced(&job, "owner", &json!("team-a")));
}

#[test]
fn calls_are_described_in_plain_words() {
    let skill = skill();
    assert_eq!(
        describe_call(
            &skill,
            "reserve",
            &args(json!({"room": "5", "people": 3})),
            &Default::default()
        ),
        "Reserve a room — room: 5, people: 3"
    );
    // A value's note says what it stands for.
    let notes = [("room".to_owned(), "the Blue Room, 2nd floor".to_owned())].into();
    assert_eq!(
        describe_call(&skill, "reserve", &args(json!({"room": "5"})), &notes),
        "Reserve a room — room: 5 (the Blue Room, 2nd floor)"
    );
}
