//! The stored form of a job and of its events: protobuf (`adas.storage.v1`,
//! `shared/proto/storage/adas/storage/v1/job_record.proto`), not JSON. A record is written on
//! every transition, so its size and its encoding cost are paid per step:
//! timestamps are milliseconds, enums are numbers, field names are tags, and an
//! evaluated call's result that equals a call's output is stored once.
//!
//! Records and events written as JSON by earlier versions still decode (JSON
//! starts with `{`, which no record starts with: its first field is tag 1, a
//! `0x0a` byte), so a store written before the change keeps its jobs.

mod parts;
mod plan;

use std::collections::BTreeMap;

use adas_dia::{
    Arg, Intent, Interaction, InteractionKind, Literal, Node, Plan, Program, ResolutionContext,
    SlotPath, Step, ValueKind,
};
use adas_proto::storage as pb;
use prost::Message;
use serde_json::{Map, Value as Json};

use crate::{
    CallRecord, DetectedIntent, EventKind, JobError, JobEvent, JobRecord, JobResult, JobStatus,
    OutcomeClass, PauseReason, PendingApproval, StartedCall, Waiting, WaitingField,
    parse_rfc3339_ms, rfc3339,
};
use parts::*;
use plan::*;

/// A job record as stored.
pub fn encode_record(record: &JobRecord) -> Result<Vec<u8>, JobError> {
    let pending = record
        .plan
        .as_ref()
        .and_then(|plan| plan.context.pending.as_ref());
    let message = pb::JobRecord {
        job_id: record.job_id.clone(),
        slag: record.slag.clone(),
        goal: record.goal.clone(),
        status: status_to(record.status) as i32,
        outcome_class: outcome_to(record.outcome_class) as i32,
        waiting: record
            .waiting
            .as_ref()
            .map(|waiting| waiting_to(waiting, pending)),
        context_json: map_bytes(&record.context),
        resources: record
            .resources
            .iter()
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect(),
        plan: record
            .plan
            .as_ref()
            .map(|plan| plan_to(plan, &record.calls))
            .transpose()?,
        intent: record.intent.as_ref().map(|intent| pb::DetectedIntent {
            intent_id: intent.intent_id.clone(),
            confidence: intent.confidence,
            out_of_domain: intent.out_of_domain,
            margin: intent.margin,
            confident: intent.confident,
        }),
        iteration: record.iteration,
        iteration_budget: record.iteration_budget,
        calls: record.calls.iter().map(call_to).collect(),
        result: record.result.as_ref().map(|result| pb::JobResult {
            reply: result.reply.clone(),
            output_fields_json: map_bytes(&result.output_fields),
            finalization_json: json_bytes(&result.finalization),
        }),
        error: record.error.clone(),
        audit: record.audit.iter().map(audit_to).collect(),
        request_id: record.request_id.clone(),
        owner: record.owner.clone(),
        tenant: record.tenant.clone(),
        skill_etag: record.skill_etag.clone(),
        holds_quota: record.holds_quota,
        // A conversation is named by the job that opened it: said once.
        conversation: if record.conversation == record.job_id {
            String::new()
        } else {
            record.conversation.clone()
        },
        conversation_is_job: !record.job_id.is_empty() && record.conversation == record.job_id,
        evidence: record.evidence.iter().map(evidence_to).collect(),
        confirmed_calls: record.confirmed_calls.clone(),
        unplanned_tools: record.unplanned_tools.clone(),
        llm: (record.llm.calls > 0).then_some(pb::LlmUsage {
            calls: record.llm.calls,
            input_tokens: record.llm.input_tokens,
            output_tokens: record.llm.output_tokens,
            cost_usd: record.llm.cost_usd,
        }),
        finalization_failures: record.finalization_failures,
        model_steps: record.model_steps,
        created_ms: ms(&record.created_at),
        updated_ms: ms(&record.updated_at),
        ended_ms: record.ended_at.as_deref().map(ms),
        trace_parent: record.trace_parent.clone(),
        resumed_by_trace: record.resumed_by_trace.clone(),
        grants: record.grants.iter().map(grant_to).collect(),
        solution: record.solution.clone(),
        handoff_json: record
            .handoff
            .as_ref()
            .map(|note| serde_json::to_vec(note).expect("a handoff note serializes"))
            .unwrap_or_default(),
        memory_json: map_bytes(&record.memory),
        previous_intent: record.previous_intent.clone(),
        owner_roles: record.owner_roles.clone(),
        personal_values: record.personal.clone(),
        owner_claims: record.owner_claims.clone().into_iter().collect(),
        started_call: record.started_call.as_ref().map(|started| pb::StartedCall {
            key: started.key.clone(),
            tool: started.tool.clone(),
            started_ms: ms(&started.started_at),
        }),
    };
    Ok(message.encode_to_vec())
}

/// A job record from its stored bytes (protobuf, or an earlier version's JSON).
pub fn decode_record(data: &[u8]) -> Result<JobRecord, JobError> {
    if data.first() == Some(&b'{') {
        return serde_json::from_slice(data).map_err(|error| corrupt(&error));
    }
    let message = pb::JobRecord::decode(data).map_err(|error| corrupt(&error))?;
    let calls = message
        .calls
        .into_iter()
        .map(call_from)
        .collect::<Result<Vec<_>, JobError>>()?;
    let plan = message
        .plan
        .map(|plan| plan_from(plan, &calls))
        .transpose()?;
    let pending = plan.as_ref().and_then(|plan| plan.context.pending.as_ref());
    let conversation = if message.conversation_is_job {
        message.job_id.clone()
    } else {
        message.conversation
    };
    Ok(JobRecord {
        job_id: message.job_id,
        slag: message.slag,
        goal: message.goal,
        status: status_from(message.status)?,
        outcome_class: outcome_from(message.outcome_class)?,
        waiting: message
            .waiting
            .map(|waiting| waiting_from(waiting, pending))
            .transpose()?,
        context: map_from(&message.context_json)?,
        resources: message.resources.into_iter().collect::<BTreeMap<_, _>>(),
        intent: message.intent.map(|intent| DetectedIntent {
            intent_id: intent.intent_id,
            confidence: intent.confidence,
            out_of_domain: intent.out_of_domain,
            margin: intent.margin,
            confident: intent.confident,
        }),
        plan,
        iteration: message.iteration,
        iteration_budget: message.iteration_budget,
        calls,
        result: message
            .result
            .map(|result| {
                Ok::<_, JobError>(JobResult {
                    reply: result.reply,
                    output_fields: map_from(&result.output_fields_json)?,
                    finalization: json_from(&result.finalization_json)?,
                })
            })
            .transpose()?,
        error: message.error,
        audit: message
            .audit
            .into_iter()
            .map(audit_from)
            .collect::<Result<_, JobError>>()?,
        request_id: message.request_id,
        owner: message.owner,
        tenant: message.tenant,
        skill_etag: message.skill_etag,
        holds_quota: message.holds_quota,
        conversation,
        evidence: message
            .evidence
            .into_iter()
            .map(evidence_from)
            .collect::<Result<_, JobError>>()?,
        confirmed_calls: message.confirmed_calls,
        unplanned_tools: message.unplanned_tools,
        llm: message
            .llm
            .map(|usage| adas_step::Usage {
                calls: usage.calls,
                input_tokens: usage.input_tokens,
                output_tokens: usage.output_tokens,
                cost_usd: usage.cost_usd,
            })
            .unwrap_or_default(),
        finalization_failures: message.finalization_failures,
        model_steps: message.model_steps,
        created_at: rfc3339(message.created_ms),
        updated_at: rfc3339(message.updated_ms),
        ended_at: message.ended_ms.map(rfc3339),
        trace_parent: message.trace_parent,
        resumed_by_trace: message.resumed_by_trace,
        grants: message
            .grants
            .into_iter()
            .map(grant_from)
            .collect::<Result<_, JobError>>()?,
        solution: message.solution,
        handoff: if message.handoff_json.is_empty() {
            None
        } else {
            Some(
                serde_json::from_slice(&message.handoff_json)
                    .map_err(|error| JobError::Corrupt(format!("handoff: {error}")))?,
            )
        },
        memory: map_from(&message.memory_json)?,
        previous_intent: message.previous_intent,
        owner_roles: message.owner_roles,
        personal: message.personal_values,
        owner_claims: message.owner_claims.into_iter().collect(),
        started_call: message.started_call.map(|started| StartedCall {
            key: started.key,
            tool: started.tool,
            started_at: rfc3339(started.started_ms),
        }),
        unwritten: Vec::new(),
    })
}

/// A job event as stored.
pub fn encode_event(event: &JobEvent) -> Vec<u8> {
    pb::JobEvent {
        kind: kind_to(event.kind) as i32,
        status: status_to(event.status) as i32,
        outcome_class: outcome_to(event.outcome_class) as i32,
        message: event.message.clone(),
        data_json: json_bytes(&event.data),
        time_ms: ms(&event.time),
        job_version: event.job_version,
        // Said only by the kinds that may add: absent, a reader takes the kind's word.
        adds_personal: event.kind.adds_personal().then_some(event.adds_personal),
    }
    .encode_to_vec()
}

/// A job event from its stored bytes (protobuf, or an earlier version's JSON).
pub fn decode_event(data: &[u8]) -> Result<JobEvent, JobError> {
    if data.first() == Some(&b'{') {
        let mut event: JobEvent = serde_json::from_slice(data).map_err(|error| corrupt(&error))?;
        event.adds_personal = event.kind.adds_personal();
        return Ok(event);
    }
    let event = pb::JobEvent::decode(data).map_err(|error| corrupt(&error))?;
    let kind = kind_from(event.kind)?;
    Ok(JobEvent {
        kind,
        adds_personal: event.adds_personal.unwrap_or(kind.adds_personal()),
        status: status_from(event.status)?,
        outcome_class: outcome_from(event.outcome_class)?,
        message: event.message,
        data: json_from(&event.data_json)?,
        time: rfc3339(event.time_ms),
        job_version: event.job_version,
    })
}

fn corrupt(error: &dyn std::fmt::Display) -> JobError {
    JobError::Corrupt(error.to_string())
}

/// Every timestamp a record holds was written by [`rfc3339`]; one that is not
/// (hand-made) keeps its instant to the millisecond, or the epoch if unreadable.
fn ms(text: &str) -> u64 {
    parse_rfc3339_ms(text).unwrap_or(0)
}

/// JSON text of a value; `null` is stored as nothing.
fn json_bytes(value: &Json) -> Vec<u8> {
    if value.is_null() {
        return Vec::new();
    }
    serde_json::to_vec(value).unwrap_or_default()
}

fn json_from(bytes: &[u8]) -> Result<Json, JobError> {
    if bytes.is_empty() {
        return Ok(Json::Null);
    }
    serde_json::from_slice(bytes).map_err(|error| corrupt(&error))
}

/// JSON text of an object; an empty one is stored as nothing.
fn map_bytes(map: &Map<String, Json>) -> Vec<u8> {
    if map.is_empty() {
        return Vec::new();
    }
    serde_json::to_vec(map).unwrap_or_default()
}

fn map_from(bytes: &[u8]) -> Result<Map<String, Json>, JobError> {
    if bytes.is_empty() {
        return Ok(Map::new());
    }
    serde_json::from_slice(bytes).map_err(|error| corrupt(&error))
}

fn status_to(status: JobStatus) -> pb::JobStatus {
    match status {
        JobStatus::Queued => pb::JobStatus::Queued,
        JobStatus::Running => pb::JobStatus::Running,
        JobStatus::Paused => pb::JobStatus::Paused,
        JobStatus::Completed => pb::JobStatus::Completed,
        JobStatus::Failed => pb::JobStatus::Failed,
        JobStatus::Cancelled => pb::JobStatus::Cancelled,
    }
}

fn status_from(value: i32) -> Result<JobStatus, JobError> {
    Ok(
        match pb::JobStatus::try_from(value).unwrap_or(pb::JobStatus::Unspecified) {
            pb::JobStatus::Queued => JobStatus::Queued,
            pb::JobStatus::Running => JobStatus::Running,
            pb::JobStatus::Paused => JobStatus::Paused,
            pb::JobStatus::Completed => JobStatus::Completed,
            pb::JobStatus::Failed => JobStatus::Failed,
            pb::JobStatus::Cancelled => JobStatus::Cancelled,
            pb::JobStatus::Unspecified => {
                return Err(JobError::Corrupt(format!("job status {value}")));
            }
        },
    )
}

fn outcome_to(outcome: Option<OutcomeClass>) -> pb::OutcomeClass {
    let Some(outcome) = outcome else {
        return pb::OutcomeClass::Unspecified;
    };
    match outcome {
        OutcomeClass::Success => pb::OutcomeClass::Success,
        OutcomeClass::UserActionRequired => pb::OutcomeClass::UserActionRequired,
        OutcomeClass::ApprovalRequired => pb::OutcomeClass::ApprovalRequired,
        OutcomeClass::InternalError => pb::OutcomeClass::InternalError,
        OutcomeClass::EngineBudgetExhausted => pb::OutcomeClass::EngineBudgetExhausted,
        OutcomeClass::OutOfDomain => pb::OutcomeClass::OutOfDomain,
        OutcomeClass::Cancelled => pb::OutcomeClass::Cancelled,
        OutcomeClass::Expired => pb::OutcomeClass::Expired,
        OutcomeClass::Escalated => pb::OutcomeClass::Escalated,
        OutcomeClass::PolicyDenied => pb::OutcomeClass::PolicyDenied,
        OutcomeClass::ToolFailed => pb::OutcomeClass::ToolFailed,
    }
}

fn outcome_from(value: i32) -> Result<Option<OutcomeClass>, JobError> {
    let outcome = pb::OutcomeClass::try_from(value)
        .map_err(|_| JobError::Corrupt(format!("outcome class {value}")))?;
    Ok(Some(match outcome {
        pb::OutcomeClass::Unspecified => return Ok(None),
        pb::OutcomeClass::Success => OutcomeClass::Success,
        pb::OutcomeClass::UserActionRequired => OutcomeClass::UserActionRequired,
        pb::OutcomeClass::ApprovalRequired => OutcomeClass::ApprovalRequired,
        pb::OutcomeClass::InternalError => OutcomeClass::InternalError,
        pb::OutcomeClass::EngineBudgetExhausted => OutcomeClass::EngineBudgetExhausted,
        pb::OutcomeClass::OutOfDomain => OutcomeClass::OutOfDomain,
        pb::OutcomeClass::Cancelled => OutcomeClass::Cancelled,
        pb::OutcomeClass::Expired => OutcomeClass::Expired,
        pb::OutcomeClass::Escalated => OutcomeClass::Escalated,
        pb::OutcomeClass::PolicyDenied => OutcomeClass::PolicyDenied,
        pb::OutcomeClass::ToolFailed => OutcomeClass::ToolFailed,
    }))
}

/// The stored kind of each [`EventKind`], by name (`EVENT_KIND_<NAME>`): a
/// kind the storage enum lacks is caught by this module's tests.
static STORED_KINDS: std::sync::LazyLock<Vec<pb::EventKind>> = std::sync::LazyLock::new(|| {
    EventKind::ALL
        .iter()
        .map(|kind| {
            pb::EventKind::from_str_name(&format!("EVENT_KIND_{}", kind.upper_name()))
                .unwrap_or(pb::EventKind::Unspecified)
        })
        .collect()
});

fn kind_to(kind: EventKind) -> pb::EventKind {
    STORED_KINDS[kind as usize]
}

fn kind_from(value: i32) -> Result<EventKind, JobError> {
    let stored = pb::EventKind::try_from(value).unwrap_or(pb::EventKind::Unspecified);
    STORED_KINDS
        .iter()
        .position(|kind| *kind == stored && stored != pb::EventKind::Unspecified)
        .map(|index| EventKind::ALL[index])
        .ok_or_else(|| JobError::Corrupt(format!("event kind {value}")))
}

fn waiting_to(waiting: &Waiting, pending: Option<&Interaction>) -> pb::Waiting {
    pb::Waiting {
        reason_code: waiting.reason_code.as_str().to_owned(),
        requested_fields: waiting.requested_fields.clone(),
        prompt_message: waiting.prompt_message.clone(),
        correlation_id: waiting.correlation_id.clone(),
        created_ms: ms(&waiting.created_at),
        last_prompt_ms: ms(&waiting.last_prompt_at),
        fields: waiting
            .fields
            .iter()
            .map(|field| {
                // The field's question is usually the plan's pending one: stored once.
                let same_as_pending =
                    field.interaction.is_some() && field.interaction.as_ref() == pending;
                // The same question is often the message, the field's prompt
                // and the resolver's question: each said once.
                let prompt_is_message = field.prompt == waiting.prompt_message;
                let question_is_prompt = !same_as_pending
                    && field
                        .interaction
                        .as_ref()
                        .is_some_and(|interaction| interaction.question == field.prompt);
                pb::WaitingField {
                    name: field.name.clone(),
                    kind: field.kind.clone(),
                    prompt: if prompt_is_message {
                        String::new()
                    } else {
                        field.prompt.clone()
                    },
                    input_type: field.input_type.clone(),
                    options: field.options.clone(),
                    option_labels: field.option_labels.clone(),
                    required: field.required,
                    slot_path_json: json_bytes(&field.slot_path),
                    interaction: field.interaction.as_ref().filter(|_| !same_as_pending).map(
                        |interaction| {
                            let mut stored = interaction_to(interaction);
                            if question_is_prompt {
                                stored.question.clear();
                            }
                            stored
                        },
                    ),
                    same_as_pending,
                    prompt_is_message,
                    question_is_prompt,
                }
            })
            .collect(),
        prompt_count: waiting.prompt_count,
        invalid_answer_count: waiting.invalid_answer_count,
        approval: waiting
            .approval
            .as_ref()
            .map(|approval| pb::PendingApproval {
                tool: approval.tool.clone(),
                arguments_json: map_bytes(&approval.arguments),
                call_digest: approval.call_digest.clone(),
                approver: approval.approver.clone(),
                reason: approval.reason.clone(),
                condition: approval.condition.clone(),
            }),
    }
}

fn waiting_from(waiting: pb::Waiting, pending: Option<&Interaction>) -> Result<Waiting, JobError> {
    let message = waiting.prompt_message;
    let reason_code = PauseReason::parse(&waiting.reason_code).ok_or_else(|| {
        JobError::Corrupt(format!("unknown reason code `{}`", waiting.reason_code))
    })?;
    Ok(Waiting {
        reason_code,
        requested_fields: waiting.requested_fields,
        correlation_id: waiting.correlation_id,
        created_at: rfc3339(waiting.created_ms),
        last_prompt_at: rfc3339(waiting.last_prompt_ms),
        fields: waiting
            .fields
            .into_iter()
            .map(|field| {
                let prompt = if field.prompt_is_message {
                    message.clone()
                } else {
                    field.prompt
                };
                let interaction = if field.same_as_pending {
                    Some(pending.cloned().ok_or_else(|| {
                        JobError::Corrupt("a waiting field refers to no pending question".into())
                    })?)
                } else {
                    field
                        .interaction
                        .map(|mut interaction| {
                            if field.question_is_prompt {
                                interaction.question.clone_from(&prompt);
                            }
                            interaction_from(interaction)
                        })
                        .transpose()?
                };
                Ok(WaitingField {
                    name: field.name,
                    kind: field.kind,
                    prompt,
                    input_type: field.input_type,
                    options: field.options,
                    option_labels: field.option_labels,
                    required: field.required,
                    slot_path: json_from(&field.slot_path_json)?,
                    interaction,
                })
            })
            .collect::<Result<_, JobError>>()?,
        prompt_message: message,
        prompt_count: waiting.prompt_count,
        invalid_answer_count: waiting.invalid_answer_count,
        approval: waiting
            .approval
            .map(|approval| {
                Ok::<_, JobError>(PendingApproval {
                    tool: approval.tool,
                    arguments: map_from(&approval.arguments_json)?,
                    call_digest: approval.call_digest,
                    approver: approval.approver,
                    reason: approval.reason,
                    condition: approval.condition,
                })
            })
            .transpose()?,
    })
}

/// An event kind's name for logs and metric labels (`TOOL_STARTED`): the
/// wire enum's, without its prefix.
pub(crate) fn event_kind_name(kind: EventKind) -> &'static str {
    kind_to(kind)
        .as_str_name()
        .trim_start_matches("EVENT_KIND_")
}

/// An outcome's name for metric labels (`USER_ACTION_REQUIRED`).
pub(crate) fn outcome_name(outcome: OutcomeClass) -> &'static str {
    outcome_to(Some(outcome))
        .as_str_name()
        .trim_start_matches("OUTCOME_CLASS_")
}
