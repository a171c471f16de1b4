//! Personal values never leave in clear: a job's `pii_*` results and its
//! classified grants are `***` in every message made of the job — the reply,
//! its calls' arguments and outputs, the plan, the waiting question, every
//! event — whatever field of the contract they ended up in. The walk is over
//! the message's descriptor, so a field added to the contract later is
//! masked too.

use std::sync::LazyLock;

use prost::Message;
use prost_reflect::{DescriptorPool, DynamicMessage, ReflectMessage, Value};

static POOL: LazyLock<DescriptorPool> = LazyLock::new(|| {
    DescriptorPool::decode(adas_proto::FILE_DESCRIPTOR_SET).expect("the contract's descriptors")
});

/// `message` (of the contract type `full_name`) with every string holding a
/// value of `personal` masked, at any depth. Unchanged when `personal` is empty.
pub fn mask<M: Message + Default>(message: M, full_name: &str, personal: &[String]) -> M {
    if personal.is_empty() {
        return message;
    }
    let Some(descriptor) = POOL.get_message_by_name(full_name) else {
        return message;
    };
    let Ok(mut dynamic) = DynamicMessage::decode(descriptor, message.encode_to_vec().as_slice())
    else {
        return message;
    };
    mask_message(&mut dynamic, personal);
    M::decode(dynamic.encode_to_vec().as_slice()).unwrap_or(message)
}

/// Names of hashes of a call's arguments, as fields of the contract and keys
/// of an event's detail (the call's digest, the idempotency key made from
/// it): shown keyed ([`adas_step::shown_call_digest`]), since beside masked
/// arguments a plain hash could be recomputed from guesses.
const CALL_HASHES: [&str; 2] = ["call_digest", "idempotency_key"];

fn mask_message(message: &mut DynamicMessage, personal: &[String]) {
    let fields: Vec<_> = message.descriptor().fields().collect();
    for field in fields {
        if !message.has_field(&field) {
            continue;
        }
        let value = message.get_field_mut(&field);
        if CALL_HASHES.contains(&field.name())
            && let Value::String(digest) = value
        {
            *digest = adas_step::shown_call_digest(digest);
            continue;
        }
        mask_value(value, personal);
    }
}

fn mask_value(value: &mut Value, personal: &[String]) {
    match value {
        Value::String(text) => {
            let masked = adas_step::mask_personal(personal, text);
            if masked != *text {
                *text = masked;
            }
        }
        Value::Message(message) => mask_message(message, personal),
        Value::List(items) => items.iter_mut().for_each(|item| mask_value(item, personal)),
        Value::Map(map) => {
            for (key, item) in map.iter_mut() {
                // An event's detail (a Struct) keeps the digest under its name.
                if matches!(key, prost_reflect::MapKey::String(name) if CALL_HASHES.contains(&name.as_str()))
                    && let Value::Message(inner) = item
                    && let Some(Value::String(digest)) = inner
                        .get_field_by_name("string_value")
                        .map(|v| v.into_owned())
                {
                    inner.set_field_by_name(
                        "string_value",
                        Value::String(adas_step::shown_call_digest(&digest)),
                    );
                    continue;
                }
                mask_value(item, personal);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use adas_proto::pb;

    #[test]
    fn a_jobs_call_digests_are_shown_keyed_when_it_has_personal_values() {
        let detail: prost_types::Struct = serde_json::from_value::<serde_json::Value>(
            serde_json::json!({"gate": {"call_digest": "d1", "verdict": "allow"}, "idempotency_key": "d1"}),
        )
        .map(|value| adas_runtime::convert::json_to_struct(&value))
        .unwrap();
        let event = pb::JobEvent {
            data: Some(detail),
            ..Default::default()
        };
        let job = pb::Job {
            waiting: Some(pb::Waiting {
                approval: Some(pb::ApprovalRequest {
                    call_digest: "d1".into(),
                    ..Default::default()
                }),
                ..Default::default()
            }),
            ..Default::default()
        };
        let digest = |job: &pb::Job| {
            job.waiting
                .as_ref()
                .unwrap()
                .approval
                .as_ref()
                .unwrap()
                .call_digest
                .clone()
        };
        let shown = adas_step::shown_call_digest("d1");
        assert_ne!(shown, "d1");
        let masked = super::mask(job.clone(), "adas.v1.Job", &["u-alice".to_owned()]);
        assert_eq!(digest(&masked), shown);
        let masked = super::mask(event, "adas.v1.JobEvent", &["u-alice".to_owned()]);
        assert!(format!("{masked:?}").contains(&shown), "{masked:?}");
        assert!(!format!("{masked:?}").contains("\"d1\""), "{masked:?}");
        // Nothing personal, nothing hidden: the digest is the call's own.
        assert_eq!(digest(&super::mask(job, "adas.v1.Job", &[])), "d1");
    }

    #[test]
    fn every_string_of_a_job_is_masked_at_any_depth() {
        let job = pb::Job {
            goal: "book for 123-45-6789".into(),
            result: Some(pb::JobResult {
                reply: "Your SSN is 123-45-6789.".into(),
                ..Default::default()
            }),
            tool_calls: vec![pb::ToolCallRecord {
                output: Some(prost_types::Value {
                    kind: Some(prost_types::value::Kind::StringValue(
                        "ssn 123-45-6789".into(),
                    )),
                }),
                ..Default::default()
            }],
            ..Default::default()
        };
        let masked = super::mask(job, "adas.v1.Job", &["123-45-6789".to_owned()]);
        let text = format!("{masked:?}");
        assert!(!text.contains("123-45-6789"), "{text}");
        assert_eq!(masked.result.unwrap().reply, "Your SSN is ***.");
    }
}
