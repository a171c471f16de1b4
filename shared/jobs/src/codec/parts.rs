//! The record's repeated parts — calls, audit entries, evidence, grants —
//! to and from their stored messages, each pair side by side.

use adas_proto::storage as pb;

use super::{json_bytes, json_from, map_bytes, map_from, ms};
use crate::{AuditEntry, CallRecord, Evidence, Grant, JobError, rfc3339};

pub(super) fn call_to(call: &CallRecord) -> pb::CallRecord {
    pb::CallRecord {
        tool: call.tool.clone(),
        arguments_json: map_bytes(&call.arguments),
        call_digest: call.call_digest.clone(),
        output_json: json_bytes(&call.output),
        is_error: call.is_error,
        iteration: call.iteration,
        finished_ms: ms(&call.finished_at),
    }
}

pub(super) fn call_from(call: pb::CallRecord) -> Result<CallRecord, JobError> {
    Ok(CallRecord {
        tool: call.tool,
        arguments: map_from(&call.arguments_json)?,
        call_digest: call.call_digest,
        output: json_from(&call.output_json)?,
        is_error: call.is_error,
        iteration: call.iteration,
        finished_at: rfc3339(call.finished_ms),
    })
}

pub(super) fn audit_to(entry: &AuditEntry) -> pb::AuditEntry {
    pb::AuditEntry {
        who: entry.who.clone(),
        at_ms: ms(&entry.at),
        action: entry.action.clone(),
        detail_json: json_bytes(&entry.detail),
    }
}

pub(super) fn audit_from(entry: pb::AuditEntry) -> Result<AuditEntry, JobError> {
    Ok(AuditEntry {
        who: entry.who,
        at: rfc3339(entry.at_ms),
        action: entry.action,
        detail: json_from(&entry.detail_json)?,
    })
}

pub(super) fn evidence_to(evidence: &Evidence) -> pb::Evidence {
    pb::Evidence {
        name: evidence.name.clone(),
        value_json: json_bytes(&evidence.value),
        source: evidence.source.clone(),
    }
}

pub(super) fn evidence_from(evidence: pb::Evidence) -> Result<Evidence, JobError> {
    Ok(Evidence {
        name: evidence.name,
        value: json_from(&evidence.value_json)?,
        source: evidence.source,
    })
}

pub(super) fn grant_to(grant: &Grant) -> pb::Grant {
    pb::Grant {
        key: grant.key.clone(),
        value_json: json_bytes(&grant.value),
        skill: grant.skill.clone(),
        tool: grant.tool.clone(),
        job: grant.job.clone(),
        principal: grant.principal.clone(),
        conversation: grant.conversation.clone(),
        expires_ms: grant.expires_ms,
        classified: grant.classified,
    }
}

pub(super) fn grant_from(grant: pb::Grant) -> Result<Grant, JobError> {
    Ok(Grant {
        key: grant.key,
        value: json_from(&grant.value_json)?,
        skill: grant.skill,
        tool: grant.tool,
        job: grant.job,
        principal: grant.principal,
        conversation: grant.conversation,
        expires_ms: grant.expires_ms,
        classified: grant.classified,
    })
}
