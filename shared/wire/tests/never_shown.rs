//! A property of every job the suite shows: whatever a tool returns — nested
//! objects, lists, a JSON error, an error in plain text — no value a skill's
//! response filter removes, and no value of a `pii_*` result it does not
//! reveal, appears anywhere in the job as it is served (GetJob, ListJobs,
//! the console, the CLI all read this message) or in its events (WatchJob,
//! the timeline).

use adas_jobs::{CallRecord, JobRecord, JobResult, StoredJob};
use adas_skill::OperationalSkill;
use proptest::prelude::*;
use serde_json::{Map, Value as Json, json};

const SKILL: &str = r#"
problem: {statement: Look customers up}
intents: {supported: [{id: find, examples: [find a customer]}]}
tools:
  - name: lookup
    read_only: true
    inputs: [{name: id, type: string, required: true}]
    security: {classification: pii_read, reveal: [name]}
response_filters:
  - strip_fields: [ssn]
    mask_fields: [email]
"#;

/// Filtered and personal values: a prefix no other value has.
fn secret() -> impl Strategy<Value = String> {
    "[0-9]{3}-[0-9]{2}-[0-9]{4}".prop_map(|digits| format!("S3CR3T{digits}"))
}

/// A result: objects of customers at any depth, in lists and wrappers.
fn result() -> impl Strategy<Value = Json> {
    let customer = (secret(), secret(), "[A-Z][a-z]{2,8}", secret()).prop_map(
        |(ssn, email, name, account)| {
            json!({"ssn": ssn, "email": email, "name": name, "account": account})
        },
    );
    customer.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(Json::Array),
            ("[a-z]{3,6}", inner).prop_map(|(key, value)| {
                let mut map = Map::new();
                map.insert(key, value);
                Json::Object(map)
            }),
        ]
    })
}

/// Every secret a result holds.
fn secrets(value: &Json, out: &mut Vec<String>) {
    match value {
        Json::String(text) if text.starts_with("S3CR3T") => out.push(text.clone()),
        Json::Array(items) => items.iter().for_each(|item| secrets(item, out)),
        Json::Object(map) => map.values().for_each(|item| secrets(item, out)),
        _ => {}
    }
}

/// The job as the worker keeps it after the call (filtered, personal values
/// noted) and as it is served.
fn served(skill: &OperationalSkill, output: &Json, error: &str) -> String {
    let mut kept = output.clone();
    adas_skill::access::filter_result(&skill.skill, &mut kept);
    let mut record = JobRecord::queued("j-1".into(), skill, "find C-1".into(), ("acme", "alice"));
    record.personal = adas_skill::access::personal_values(&skill.skill, "lookup", &kept);
    let error = adas_skill::access::filter_text(&skill.skill, error);
    record.calls.push(CallRecord {
        tool: "lookup".into(),
        arguments: Map::new(),
        call_digest: String::new(),
        output: kept.clone(),
        is_error: false,
        iteration: 1,
        finished_at: String::new(),
    });
    record.calls.push(CallRecord {
        tool: "lookup".into(),
        arguments: Map::new(),
        call_digest: String::new(),
        output: Json::String(error.clone()),
        is_error: true,
        iteration: 2,
        finished_at: String::new(),
    });
    // A reply that reads the result out, as the deterministic one does.
    record.result = Some(JobResult {
        reply: format!("Here it is: {kept}. Earlier: {error}"),
        output_fields: kept.as_object().cloned().unwrap_or_default(),
        finalization: Json::Null,
    });
    // The events the call wrote, as WatchJob serves them.
    let events = [
        adas_step::Event::ToolFinished {
            tool: "lookup".into(),
            is_error: false,
            output: kept.clone(),
            adds_personal: true,
        },
        adas_step::Event::ToolFinished {
            tool: "lookup".into(),
            is_error: true,
            output: Json::String(error.clone()),
            adds_personal: false,
        },
    ];
    let watched: Vec<_> = events
        .iter()
        .map(|event| {
            let logged = adas_jobs::JobEvent {
                kind: event.kind(),
                status: adas_jobs::JobStatus::Running,
                outcome_class: None,
                message: event.message(),
                data: event.detail(),
                time: String::new(),
                job_version: 2,
                adds_personal: event.adds_personal(),
            };
            adas_wire::event(("crm", "j-1"), "1-0", &logged, &record.personal)
        })
        .collect();
    let stored = StoredJob { record, version: 3 };
    format!(
        "{:?}{:?}{watched:?}",
        adas_wire::job(&stored),
        adas_wire::job_basic(&stored)
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn no_filtered_or_personal_value_is_ever_served(
        output in result(),
        plain in secret(),
        leaked in secret(),
        prose in secret(),
        as_prose in any::<bool>(),
    ) {
        let skill = OperationalSkill::from_source("crm", SKILL).expect("the skill loads");
        let mut hidden = Vec::new();
        secrets(&output, &mut hidden);
        // A server answering in prose, or a JSON block beside a prose one.
        let output = if as_prose {
            hidden.push(prose.clone());
            json!({"text": format!("{output}\nCustomer on file, SSN: {prose}")})
        } else {
            output
        };
        // A server's error, in JSON and in plain text, carrying filtered fields.
        let error = format!(
            "lookup failed: ssn: {plain}; {}",
            json!({"customer": {"ssn": leaked}})
        );
        hidden.extend([plain, leaked]);
        let shown = served(&skill, &output, &error);
        for secret in &hidden {
            prop_assert!(!shown.contains(secret.as_str()), "{secret} served: {shown}");
        }
    }
}
