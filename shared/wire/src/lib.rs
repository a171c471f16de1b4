//! adas-wire: the domain as `adas.v1` wire messages, converted at the edges
//! only — job records for the Orchestrator, DalAgent and Gate, and, in
//! [`rpc`], the bodies of IntentService `Plan` and GateService
//! `CheckToolCall`, `Finalize` and `PolishReply` as the services answer
//! them (and the orchestrator's remote step engine reads them back).
//! Conversions only: a process's parts are made in `adas-boot`, and who may
//! see a job is the principal's to say (`adas_runtime::Principal::check_job`).

pub mod rpc;

pub mod personal;

use adas_jobs::{
    EventKind, JobEvent, JobRecord, JobStatus, OutcomeClass, StoredJob, Waiting, parse_rfc3339_ms,
};
use adas_proto::pb;
use adas_runtime::convert::{json_to_struct, json_to_value};
use serde_json::Value as Json;

/// Model usage on the wire.
pub fn usage(usage: &adas_llm::Usage) -> pb::LlmUsage {
    pb::LlmUsage {
        calls: usage.calls as i64,
        input_tokens: usage.input_tokens as i64,
        output_tokens: usage.output_tokens as i64,
        cost_usd: usage.cost_usd,
    }
}

/// Model usage from the wire (negative counts read as zero).
pub fn usage_of(usage: Option<&pb::LlmUsage>) -> adas_llm::Usage {
    let Some(usage) = usage else {
        return adas_llm::Usage::default();
    };
    adas_llm::Usage {
        calls: usage.calls.max(0) as u64,
        input_tokens: usage.input_tokens.max(0) as u64,
        output_tokens: usage.output_tokens.max(0) as u64,
        cost_usd: if usage.cost_usd.is_finite() {
            usage.cost_usd.max(0.0)
        } else {
            0.0
        },
    }
}

/// Who decided, on the wire; the usage is also counted on this process's metrics page.
pub fn decider(decider: &adas_llm::Decider) -> pb::Decider {
    decider.count();
    pb::Decider {
        name: decider.by.clone(),
        usage: Some(usage(&decider.usage)),
        fallback_reason: decider.fallback.clone().unwrap_or_default(),
    }
}

/// Who decided, read from the wire (none: nobody said, nothing spent).
pub fn decider_of(decider: Option<&pb::Decider>) -> adas_llm::Decider {
    let Some(decider) = decider else {
        return adas_llm::Decider::default();
    };
    adas_llm::Decider {
        by: decider.name.clone(),
        usage: usage_of(decider.usage.as_ref()),
        fallback: (!decider.fallback_reason.is_empty()).then(|| decider.fallback_reason.clone()),
    }
}

fn timestamp(text: &str) -> Option<prost_types::Timestamp> {
    parse_rfc3339_ms(text).map(|ms| {
        prost_types::Timestamp::from(std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms))
    })
}

/// `skills/{slag}/jobs/{job_id}`.
pub fn job_name(slag: &str, job_id: &str) -> String {
    format!("skills/{slag}/jobs/{job_id}")
}

/// A job status on the wire.
pub fn status(status: JobStatus) -> pb::JobStatus {
    match status {
        JobStatus::Queued => pb::JobStatus::Queued,
        JobStatus::Running => pb::JobStatus::Running,
        JobStatus::Paused => pb::JobStatus::Paused,
        JobStatus::Completed => pb::JobStatus::Completed,
        JobStatus::Failed => pb::JobStatus::Failed,
        JobStatus::Cancelled => pb::JobStatus::Cancelled,
    }
}

/// A job status from the wire; `None` for UNSPECIFIED (a filter that keeps all).
pub fn job_status(status: pb::JobStatus) -> Option<JobStatus> {
    match status {
        pb::JobStatus::Unspecified => None,
        pb::JobStatus::Queued => Some(JobStatus::Queued),
        pb::JobStatus::Running => Some(JobStatus::Running),
        pb::JobStatus::Paused => Some(JobStatus::Paused),
        pb::JobStatus::Completed => Some(JobStatus::Completed),
        pb::JobStatus::Failed => Some(JobStatus::Failed),
        pb::JobStatus::Cancelled => Some(JobStatus::Cancelled),
    }
}

/// An outcome class on the wire.
pub fn outcome(outcome: Option<OutcomeClass>) -> pb::OutcomeClass {
    match outcome {
        None => pb::OutcomeClass::Unspecified,
        Some(OutcomeClass::Success) => pb::OutcomeClass::Success,
        Some(OutcomeClass::UserActionRequired) => pb::OutcomeClass::UserActionRequired,
        Some(OutcomeClass::ApprovalRequired) => pb::OutcomeClass::ApprovalRequired,
        Some(OutcomeClass::InternalError) => pb::OutcomeClass::InternalError,
        Some(OutcomeClass::EngineBudgetExhausted) => pb::OutcomeClass::EngineBudgetExhausted,
        Some(OutcomeClass::OutOfDomain) => pb::OutcomeClass::OutOfDomain,
        Some(OutcomeClass::Cancelled) => pb::OutcomeClass::Cancelled,
        Some(OutcomeClass::Expired) => pb::OutcomeClass::Expired,
        Some(OutcomeClass::Escalated) => pb::OutcomeClass::Escalated,
        Some(OutcomeClass::PolicyDenied) => pb::OutcomeClass::PolicyDenied,
        Some(OutcomeClass::ToolFailed) => pb::OutcomeClass::ToolFailed,
    }
}

/// The waiting object on the wire.
pub fn waiting(waiting: &Waiting) -> pb::Waiting {
    pb::Waiting {
        reason_code: waiting.reason_code.as_str().to_owned(),
        requested_fields: waiting.requested_fields.clone(),
        prompt_message: waiting.prompt_message.clone(),
        correlation_id: waiting.correlation_id.clone(),
        created_at: timestamp(&waiting.created_at),
        last_prompt_at: timestamp(&waiting.last_prompt_at),
        fields: waiting
            .fields
            .iter()
            .map(|field| pb::WaitingField {
                name: field.name.clone(),
                r#type: field.kind.clone(),
                prompt: field.prompt.clone(),
                input_type: if field.input_type == "choice" {
                    pb::InputType::Choice
                } else {
                    pb::InputType::Text
                } as i32,
                options: field.options.clone(),
                option_labels: field.option_labels.clone(),
                required: field.required,
                slot_path: field
                    .interaction
                    .as_ref()
                    .map(|interaction| format!("{}{}", interaction.intent, interaction.path))
                    .unwrap_or_default(),
            })
            .collect(),
        prompt_count: waiting.prompt_count as i32,
        invalid_answer_count: waiting.invalid_answer_count as i32,
        approval: waiting
            .approval
            .as_ref()
            .map(|approval| pb::ApprovalRequest {
                tool: approval.tool.clone(),
                arguments: Some(json_to_struct(&Json::Object(approval.arguments.clone()))),
                call_digest: approval.call_digest.clone(),
                approver: approval.approver.clone(),
                reason: approval.reason.clone(),
                condition: approval.condition.clone(),
            }),
    }
}

/// A stored job on the wire, its personal values masked.
pub fn job(stored: &StoredJob) -> pb::Job {
    personal::mask(
        full_job(stored),
        "adas.v1.Job",
        &adas_step::personal_values(&stored.record),
    )
}

fn full_job(stored: &StoredJob) -> pb::Job {
    let record: &JobRecord = &stored.record;
    pb::Job {
        goal: record.goal.clone(),
        context: Some(json_to_struct(&Json::Object(record.context.clone()))),
        resources: record.resources.clone().into_iter().collect(),
        plan: record.plan.as_ref().map(|plan| pb::Plan {
            program: plan.program.to_string(),
            state_json: serde_json::to_string(plan).unwrap_or_default(),
            done: adas_dia::next_call(&plan.program).is_ok_and(|next| next.is_none()),
        }),
        result: record.result.as_ref().map(|result| pb::JobResult {
            reply: result.reply.clone(),
            output_fields: Some(json_to_struct(&Json::Object(result.output_fields.clone()))),
            tool_calls: tool_calls(record),
            finalization: None,
        }),
        error: record
            .error
            .as_ref()
            .map(|message| tonic_types::pb::Status {
                code: tonic::Code::Unknown as i32,
                message: message.clone(),
                details: Vec::new(),
            }),
        intent: record.intent.as_ref().map(|intent| pb::DetectedIntent {
            intent_id: intent.intent_id.clone(),
            confidence: intent.confidence,
            out_of_domain: intent.out_of_domain,
            margin: intent.margin,
            confident: intent.confident,
        }),
        request_id: record.request_id.clone(),
        tool_calls: tool_calls(record),
        grants: adas_jobs::live_grants(record, adas_state::now_ms())
            .map(grant)
            .collect(),
        decisions: decisions(record),
        ..basic_job(stored)
    }
}

/// A grant on the wire (its value masked when its tool is classified).
pub fn grant(grant: &adas_jobs::Grant) -> pb::Grant {
    pb::Grant {
        key: grant.key.clone(),
        value: grant.shown_value(),
        issuer_skill: grant.skill.clone(),
        issuer_tool: grant.tool.clone(),
        issuer_job: job_name(&grant.skill, &grant.job),
        principal: grant.principal.clone(),
        expire_time: Some(prost_types::Timestamp::from(
            std::time::UNIX_EPOCH + std::time::Duration::from_millis(grant.expires_ms),
        )),
    }
}

/// The approvers' decisions on a job's calls, from its audit, oldest first.
pub fn decisions(record: &JobRecord) -> Vec<pb::JobDecision> {
    record
        .audit
        .iter()
        .filter_map(|entry| {
            let decision = if entry.approved()? {
                pb::ApprovalDecision::Approve
            } else {
                pb::ApprovalDecision::Reject
            };
            let text = |key: &str| entry.detail_text(key).to_owned();
            Some(pb::JobDecision {
                correlation_id: text("correlation_id"),
                decision: decision as i32,
                approver: entry.who.clone(),
                role: text("role"),
                tool: text("tool"),
                call_digest: text("call_digest"),
                comment: text("comment"),
                decide_time: timestamp(&entry.at),
            })
        })
        .collect()
}

/// The calls a job made, on the wire.
pub fn tool_calls(record: &JobRecord) -> Vec<pb::ToolCallRecord> {
    record
        .calls
        .iter()
        .map(|call| pb::ToolCallRecord {
            tool: call.tool.clone(),
            arguments: Some(json_to_struct(&Json::Object(call.arguments.clone()))),
            output: Some(json_to_value(&call.output)),
            is_error: call.is_error,
            iteration: call.iteration as i32,
            finish_time: timestamp(&call.finished_at),
        })
        .collect()
}

/// The conversation of a job, `skills/{slag}/conversations/{id}` (a job from
/// before conversations is its own), or `solutions/{id}/conversations/{id}`
/// for a turn of a solution (whichever skill handled it).
pub fn conversation_name(record: &JobRecord) -> String {
    let id = if record.conversation.is_empty() {
        &record.job_id
    } else {
        &record.conversation
    };
    if record.solution.is_empty() {
        format!("skills/{}/conversations/{id}", record.slag)
    } else {
        format!("solutions/{}/conversations/{id}", record.solution)
    }
}

/// A job on the wire in the BASIC view: identity and state, without the
/// context, plan, results and calls that make the full message expensive.
pub fn job_basic(stored: &StoredJob) -> pb::Job {
    personal::mask(
        basic_job(stored),
        "adas.v1.Job",
        &adas_step::personal_values(&stored.record),
    )
}

fn basic_job(stored: &StoredJob) -> pb::Job {
    let record: &JobRecord = &stored.record;
    pb::Job {
        name: job_name(&record.slag, &record.job_id),
        job_id: record.job_id.clone(),
        slag: record.slag.clone(),
        status: status(record.status) as i32,
        outcome_class: outcome(record.outcome_class) as i32,
        waiting: record.waiting.as_ref().map(waiting),
        iteration: record.iteration as i32,
        iteration_budget: record.iteration_budget as i32,
        create_time: timestamp(&record.created_at),
        update_time: timestamp(&record.updated_at),
        end_time: record.ended_at.as_deref().and_then(timestamp),
        version: stored.version as i64,
        etag: format!("v{}", stored.version),
        conversation: conversation_name(record),
        llm_usage: Some(usage(&record.llm)),
        solution: if record.solution.is_empty() {
            String::new()
        } else {
            format!("solutions/{}", record.solution)
        },
        handed_off_from: record
            .handoff
            .as_ref()
            .map(|note| note.from.clone())
            .unwrap_or_default(),
        owner: record.owner.clone(),
        skill_etag: record.skill_etag.clone(),
        trace_id: record.trace_id().to_owned(),
        retry_of: adas_step::machine::retry_of(record)
            .unwrap_or_default()
            .to_owned(),
        retried_by: adas_step::machine::retried_by(record)
            .unwrap_or_default()
            .to_owned(),
        ..pb::Job::default()
    }
}

/// An event kind on the wire: exhaustive, so no kind reaches a client as
/// UNSPECIFIED.
pub fn event_type(kind: EventKind) -> pb::JobEventType {
    // By name (`answer_refused` is JOB_EVENT_TYPE_ANSWER_REFUSED): a kind the
    // contract lacks is caught by this crate's tests, never sent as a guess.
    static TYPES: std::sync::LazyLock<Vec<pb::JobEventType>> = std::sync::LazyLock::new(|| {
        EventKind::ALL
            .iter()
            .map(|kind| {
                pb::JobEventType::from_str_name(&format!("JOB_EVENT_TYPE_{}", kind.upper_name()))
                    .unwrap_or(pb::JobEventType::Unspecified)
            })
            .collect()
    });
    TYPES[kind as usize]
}

/// A job event on the wire, the job's `personal` values masked
/// ([`adas_step::personal_values`]).
pub fn event(
    (slag, job_id): (&str, &str),
    id: &str,
    event: &JobEvent,
    personal: &[String],
) -> pb::JobEvent {
    let kind = event_type(event.kind);
    let event = pb::JobEvent {
        event_id: id.to_owned(),
        job: job_name(slag, job_id),
        r#type: kind as i32,
        status: status(event.status) as i32,
        outcome_class: outcome(event.outcome_class) as i32,
        message: event.message.clone(),
        data: if event.data.is_object() {
            Some(json_to_struct(&event.data))
        } else {
            None
        },
        time: timestamp(&event.time),
        job_version: event.job_version as i64,
    };
    personal::mask(event, "adas.v1.JobEvent", personal)
}

/// A document's errors as a status: each diagnostic a `source.<path>` field
/// violation with its line:col.
pub fn diagnostics_status(
    code: tonic::Code,
    slag: &str,
    diagnostics: &[adas_skill::Diagnostic],
) -> tonic::Status {
    use adas_runtime::{FieldViolation, status_with_details};
    let violations: Vec<FieldViolation> = diagnostics
        .iter()
        .map(|diagnostic| {
            let field = if diagnostic.path.is_empty() {
                "source".to_owned()
            } else {
                format!("source.{}", diagnostic.path)
            };
            FieldViolation::new(
                field,
                format!(
                    "{}:{}: {}",
                    diagnostic.line, diagnostic.column, diagnostic.message
                ),
            )
        })
        .collect();
    let first = diagnostics
        .first()
        .map(|d| format!("; first at {}:{}: {}", d.line, d.column, d.message))
        .unwrap_or_default();
    status_with_details(
        code,
        "SKILL_INVALID",
        format!("skill `{slag}` has {} error(s){first}", diagnostics.len()),
        &violations,
    )
}

/// The status of a job storage failure, the same in every service that
/// reads or writes jobs: a missing job is NOT_FOUND, a write that lost its
/// compare-and-set ABORTED (read again and retry), a key part the layout
/// refuses INVALID_ARGUMENT, a store that cannot be reached UNAVAILABLE,
/// anything else (a corrupt record, a failed script) INTERNAL.
pub fn job_error_status(error: &adas_jobs::JobError) -> tonic::Status {
    use adas_jobs::JobError;
    use adas_runtime::status_with_details;
    use adas_state::StateError;
    use tonic::Code;
    let (code, reason) = match error {
        JobError::NotFound { .. } => (Code::NotFound, "JOB_NOT_FOUND"),
        JobError::Store(StateError::VersionConflict { .. }) => (Code::Aborted, "VERSION_CONFLICT"),
        JobError::Store(StateError::InvalidKey { .. }) => (Code::InvalidArgument, "INVALID_KEY"),
        JobError::Store(store) if store.is_unavailable() => (Code::Unavailable, "STATE_STORE"),
        JobError::Store(_) | JobError::Corrupt(_) => (Code::Internal, "INTERNAL"),
    };
    status_with_details(code, reason, error.to_string(), &[])
}

/// The status of a skill failure, the same in every service that loads skills.
/// `field` names the request field that carried the skill name.
pub fn skill_status(error: &adas_skill::SkillError, field: &str) -> tonic::Status {
    use adas_runtime::{FieldViolation, status_with_details};
    use adas_skill::SkillError;
    use tonic::Code;
    let message = error.to_string();
    match error {
        SkillError::UnsafeSlag(slag) => status_with_details(
            Code::InvalidArgument,
            "INVALID_SLAG",
            message,
            &[FieldViolation::new(
                field,
                format!(
                    "`{slag}` is not a valid slag: {}",
                    adas_skill::slag::SLAG_RULE
                ),
            )],
        ),
        // A stored skill that does not validate: the caller can't fix it with
        // another argument. PutSkill reports its own document with
        // `diagnostics_status(Code::InvalidArgument, …)`.
        SkillError::Invalid { slag, diagnostics } => {
            diagnostics_status(Code::FailedPrecondition, slag, diagnostics)
        }
        SkillError::UnknownSkill { slag, .. } => status_with_details(
            Code::NotFound,
            "SKILL_NOT_FOUND",
            message,
            &[FieldViolation::new(
                field,
                format!("no skill and no template `{slag}`"),
            )],
        ),
        SkillError::UnknownTemplate(template) => status_with_details(
            Code::NotFound,
            "TEMPLATE_NOT_FOUND",
            message,
            &[FieldViolation::new(
                "template",
                format!("no template `{template}`"),
            )],
        ),
        SkillError::EtagMismatch { .. } => status_with_details(
            Code::Aborted,
            "ETAG_MISMATCH",
            message,
            &[FieldViolation::new(
                "etag",
                "the stored skill changed; read it again",
            )],
        ),
        SkillError::Templates { .. } | SkillError::Io { .. } => {
            status_with_details(Code::Internal, "STORAGE", message, &[])
        }
        // The store is down or restarting: the caller may retry.
        SkillError::Store(_) => {
            status_with_details(Code::Unavailable, "STORE_UNAVAILABLE", message, &[])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_kind_has_its_own_wire_value() {
        let mut seen = std::collections::HashSet::new();
        for kind in EventKind::ALL {
            let wire = event_type(kind);
            assert_ne!(wire, pb::JobEventType::Unspecified, "{kind:?}");
            assert!(seen.insert(wire), "{kind:?} shares {wire:?}");
            // The stored name and the wire name agree: `answer_refused` is
            // JOB_EVENT_TYPE_ANSWER_REFUSED.
            let stored = serde_json::to_value(kind).unwrap();
            assert_eq!(
                wire.as_str_name(),
                format!(
                    "JOB_EVENT_TYPE_{}",
                    stored.as_str().unwrap().to_ascii_uppercase()
                )
            );
        }
        assert_eq!(seen.len(), EventKind::ALL.len());
    }
}
