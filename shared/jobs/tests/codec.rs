//! The stored form of a job: protobuf that reads back to the same record,
//! smaller than the JSON it replaced, still reading JSON written before, and
//! refusing foreign or hostile bytes without harm.

use adas_dia::{Interaction, InteractionKind, Node, Plan, SlotPath, Step, ValueKind};
use adas_jobs::codec::{decode_event, decode_record, encode_event, encode_record};
use adas_jobs::{
    AuditEntry, CallRecord, DetectedIntent, EventKind, Evidence, JobError, JobEvent, JobRecord,
    JobStatus, OutcomeClass, PendingApproval, Waiting, WaitingField, rfc3339,
};
use serde_json::{Value as Json, json};

const T0: u64 = 1_795_000_000_123;

/// A refund job paused after its first call, asking for the amount: the
/// shape the bench's paused jobs have.
fn paused_after_a_call() -> JobRecord {
    let mut record: JobRecord = serde_json::from_value(json!({
        "job_id": "j019a4f3c2b1d5e6f7a", "slag": "cs-tier-1",
        "goal": "I want a refund for order ORD-12345",
        "status": "paused", "outcome_class": "USER_ACTION_REQUIRED", "waiting": null,
        "context": {"order_id": "ORD-12345"}, "resources": {}, "plan": null, "intent": null,
        "iteration": 1, "iteration_budget": 10, "calls": [], "result": null, "error": null,
        "audit": [], "request_id": "bench-7", "owner": "alice", "tenant": "default",
        "conversation": "j019a4f3c2b1d5e6f7a",
        "created_at": rfc3339(T0), "updated_at": rfc3339(T0 + 7), "ended_at": null
    }))
    .unwrap();
    let output = json!({"order_id": "ORD-12345", "status": "delivered", "total": 120.5});
    record.calls.push(CallRecord {
        tool: "check_order_status".into(),
        arguments: json!({"order_id": "ORD-12345"})
            .as_object()
            .unwrap()
            .clone(),
        call_digest: "3f2a9c0d81b7e6a5".into(),
        output: output.clone(),
        is_error: false,
        iteration: 1,
        finished_at: rfc3339(T0 + 3),
    });
    let mut program = adas_dia::parse(
        r#"check_order_status(order_id="ORD-12345"), process_refund(order_id="ORD-12345", amount=ASK("How much should be refunded?"))"#,
    )
    .unwrap();
    let Node::Intent(first) = program.elements[0].clone() else {
        unreachable!()
    };
    program.elements[0] = Node::Evaluated {
        intent: first,
        result: output,
    };
    let pending = Interaction {
        kind: InteractionKind::Ask,
        question: "How much should be refunded?".into(),
        path: SlotPath(vec![Step::Element(1), Step::Arg("amount".into())]),
        field: "amount".into(),
        intent: "process_refund".into(),
        expected: ValueKind::Number,
    };
    let mut plan = Plan::new(program);
    plan.context.pending = Some(pending.clone());
    plan.context
        .known
        .insert("order_id".into(), json!("ORD-12345"));
    record.plan = Some(plan);
    record.intent = Some(DetectedIntent {
        intent_id: "refund_request".into(),
        confidence: 0.83,
        out_of_domain: false,
        margin: 0.41,
        confident: true,
    });
    record.evidence.push(Evidence {
        name: "order_id".into(),
        value: json!("ORD-12345"),
        source: "message".into(),
    });
    record.waiting = Some(Waiting {
        reason_code: adas_jobs::PauseReason::MissingRequiredInput,
        requested_fields: vec!["amount".into()],
        prompt_message: "How much should be refunded?".into(),
        correlation_id: "c019a4f3c2b1d9e8f7c".into(),
        created_at: rfc3339(T0 + 5),
        last_prompt_at: rfc3339(T0 + 5),
        fields: vec![WaitingField {
            name: "amount".into(),
            kind: "number".into(),
            prompt: "How much should be refunded?".into(),
            input_type: "text".into(),
            options: Vec::new(),
            option_labels: Vec::new(),
            required: true,
            slot_path: json!([{"element": 1}, {"arg": "amount"}]),
            interaction: Some(pending),
        }],
        prompt_count: 1,
        invalid_answer_count: 0,
        approval: None,
    });
    record
}

#[test]
fn a_record_reads_back_as_it_was_written_in_less_than_half_the_bytes() {
    let record = paused_after_a_call();
    let stored = encode_record(&record).unwrap();
    assert_eq!(decode_record(&stored).unwrap(), record);
    let json = serde_json::to_vec(&record).unwrap();
    assert!(
        stored.len() * 2 <= json.len(),
        "protobuf {} bytes, JSON {} bytes",
        stored.len(),
        json.len()
    );
    assert!(stored.len() <= 1024, "{} bytes", stored.len());
    // The call's output is stored once: the evaluated node refers to it.
    let output = serde_json::to_vec(&record.calls[0].output).unwrap();
    let copies = stored
        .windows(output.len())
        .filter(|window| *window == output.as_slice())
        .count();
    assert_eq!(copies, 1);
}

#[test]
fn every_part_of_a_record_round_trips() {
    let mut record = paused_after_a_call();
    record.status = JobStatus::Completed;
    record.outcome_class = Some(OutcomeClass::Success);
    record.ended_at = Some(rfc3339(T0 + 99));
    record.error = Some("none at all".into());
    record.resources.insert("kb".into(), "kb://faq".into());
    record.audit.push(AuditEntry {
        who: "bob".into(),
        at: rfc3339(T0 + 50),
        action: "approve".into(),
        detail: json!({"call_digest": "abc"}),
    });
    record.confirmed_calls.push("abc".into());
    record.unplanned_tools.push("wipe".into());
    record.holds_quota = true;
    record.conversation = "j0".into();
    record.skill_etag = "W/\"3\"".into();
    record.llm = adas_step::Usage {
        calls: 2,
        input_tokens: 300,
        output_tokens: 40,
        cost_usd: 0.0125,
    };
    record.finalization_failures = 1;
    record.model_steps = 3;
    record.result = Some(adas_jobs::JobResult {
        reply: "Refunded.".into(),
        output_fields: json!({"amount": 40}).as_object().unwrap().clone(),
        finalization: json!({"pass": true}),
    });
    let waiting = record.waiting.as_mut().unwrap();
    waiting.approval = Some(PendingApproval {
        tool: "process_refund".into(),
        arguments: json!({"amount": 700.0}).as_object().unwrap().clone(),
        call_digest: "d".into(),
        approver: "supervisor".into(),
        reason: "over 500".into(),
        condition: "amount > 500".into(),
    });
    // A field whose question is not the pending one keeps its own…
    waiting.fields[0].interaction.as_mut().unwrap().kind = InteractionKind::QueryUser;
    // …and one whose prompt and question are their own, too.
    let mut other = waiting.fields[0].clone();
    other.name = "reason".into();
    other.prompt = "Why?".into();
    other.interaction.as_mut().unwrap().question = "Why was it returned?".into();
    waiting.fields.push(other);
    // Every node kind, runtime ones included.
    let mut plan = adas_dia::parse(
        r#"a(x=[1, 2.5, true, "s"]), QUERY_FILL("q"), QUERY_USER("u"), QUERY_GATHER("g", "kb"), b(y=F("soon"), z=SAME_AS_PREVIOUS_INTENT()), PROPAGATE_SLOT(n=1), ABORT_WITH_NEW_INTENTS([c(w=2)]), ABORT()"#,
    )
    .unwrap();
    let Node::Intent(failed) = plan.elements[0].clone() else {
        unreachable!()
    };
    plan.elements.push(Node::RuntimeError {
        intent: failed.clone(),
        error: "timeout".into(),
    });
    plan.elements.push(Node::Evaluated {
        intent: failed,
        result: json!({"not": "a call's output"}),
    });
    let context = record.plan.take().unwrap().context;
    record.plan = Some(Plan {
        program: plan,
        context,
    });
    let stored = encode_record(&record).unwrap();
    assert_eq!(decode_record(&stored).unwrap(), record);
}

#[test]
fn events_round_trip_for_every_kind() {
    for (index, kind) in EventKind::ALL.into_iter().enumerate() {
        for adds_personal in [false, true]
            .into_iter()
            .filter(|adds| !adds || kind.adds_personal())
        {
            let event = JobEvent {
                adds_personal,
                ..event_of(kind, index)
            };
            let stored = encode_event(&event);
            assert_eq!(decode_event(&stored).unwrap(), event);
            assert!(
                stored.len() * 2 <= serde_json::to_vec(&event).unwrap().len(),
                "{kind:?}"
            );
        }
    }
}

/// An event stored before events said whether they add personal values is
/// taken to add them when its kind may: a watcher reads the job again.
#[test]
fn an_event_that_does_not_say_whether_it_adds_personal_values_is_taken_to() {
    use prost::Message;
    for (index, kind) in EventKind::ALL.into_iter().enumerate() {
        let mut stored =
            adas_proto::storage::JobEvent::decode(encode_event(&event_of(kind, index)).as_slice())
                .unwrap();
        stored.adds_personal = None;
        let read = decode_event(&stored.encode_to_vec()).unwrap();
        assert_eq!(read.adds_personal, kind.adds_personal(), "{kind:?}");
    }
    let tool_result = JobEvent {
        kind: EventKind::ToolFinished,
        ..event_of(EventKind::ToolFinished, 0)
    };
    let legacy_json = serde_json::to_vec(&tool_result).unwrap();
    assert!(decode_event(&legacy_json).unwrap().adds_personal);
}

fn event_of(kind: EventKind, index: usize) -> JobEvent {
    JobEvent {
        kind,
        status: JobStatus::Running,
        outcome_class: index.is_multiple_of(2).then_some(OutcomeClass::ToolFailed),
        message: format!("event {index}"),
        data: if index.is_multiple_of(3) {
            Json::Null
        } else {
            json!({"tool": "t", "n": index})
        },
        time: rfc3339(T0 + index as u64),
        job_version: index as u64 + 1,
        adds_personal: false,
    }
}

#[test]
fn records_and_events_written_as_json_before_still_read() {
    let record = paused_after_a_call();
    let json = serde_json::to_vec(&record).unwrap();
    assert_eq!(decode_record(&json).unwrap(), record);
    let event = JobEvent {
        kind: EventKind::Paused,
        status: JobStatus::Paused,
        outcome_class: Some(OutcomeClass::UserActionRequired),
        message: "waiting".into(),
        data: json!({"fields": ["amount"]}),
        time: rfc3339(T0),
        job_version: 4,
        adds_personal: false,
    };
    assert_eq!(
        decode_event(&serde_json::to_vec(&event).unwrap()).unwrap(),
        event
    );
}

/// For people (archives, `-o json`) a record is still JSON, with the waiting
/// object's spec 000 keys first and in order.
#[test]
fn the_json_form_keeps_the_waiting_contract_of_spec_000() {
    let json = serde_json::to_value(paused_after_a_call()).unwrap();
    let keys: Vec<&str> = json["waiting"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .take(6)
        .collect();
    assert_eq!(
        keys,
        [
            "reason_code",
            "requested_fields",
            "prompt_message",
            "correlation_id",
            "created_at",
            "last_prompt_at"
        ]
    );
}

fn corrupt(result: Result<JobRecord, JobError>) -> String {
    match result {
        Err(JobError::Corrupt(reason)) => reason,
        other => panic!("expected a corrupt record, got {other:?}"),
    }
}

#[test]
fn foreign_truncated_and_hostile_bytes_are_refused() {
    let stored = encode_record(&paused_after_a_call()).unwrap();
    corrupt(decode_record(&stored[..stored.len() / 2]));
    corrupt(decode_record(b"{\"not\": \"a job\"}"));
    corrupt(decode_record(&[0xff; 64]));
    // A record without a status was not written by us.
    corrupt(decode_record(&[0x0a, 0x01, b'j']));
    // A plan nested far deeper than any parser allows: refused, no stack overflow.
    let mut node = vec![0x10, 0x01]; // PlanNode { int_value: -1 }
    for _ in 0..10_000 {
        // PlanNode { list: PlanNodeList { items: [node] } }
        let mut list = vec![0x0a];
        list.extend(varint(node.len()));
        list.extend(&node);
        node = vec![0x32];
        node.extend(varint(list.len()));
        node.extend(list);
    }
    let mut plan = vec![0x0a];
    plan.extend(varint(node.len()));
    plan.extend(node);
    let mut record = vec![0x20, 0x03, 0x4a]; // status PAUSED, then the plan
    record.extend(varint(plan.len()));
    record.extend(plan);
    corrupt(decode_record(&record));
    // A non-finite number in a plan cannot be stored.
    let mut record = paused_after_a_call();
    record.plan.as_mut().unwrap().program.elements[1] =
        Node::literal(adas_dia::Literal::Float(f64::NAN));
    corrupt(encode_record(&record).map(|_| paused_after_a_call()));
}

fn varint(mut value: usize) -> Vec<u8> {
    let mut bytes = Vec::new();
    while value >= 0x80 {
        bytes.push((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    bytes.push(value as u8);
    bytes
}
