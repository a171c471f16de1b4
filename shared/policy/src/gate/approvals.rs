//! Approvals: a request for an approver's decision on one exact call (tool +
//! argument digest + job, and which execution of it), and the decision —
//! each recorded once in the store's `ApprovalStore`, with who and when.
//! The job's owner and whoever took part in the call may not approve it.

use super::*;

/// An approver's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalChoice {
    /// Run the call.
    Approve,
    /// Do not run it.
    Reject,
}

/// A pending approval request: the exact call held for a decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApprovalRequest {
    /// Correlation id of the request.
    pub correlation_id: String,
    /// The job.
    pub job_id: String,
    /// The tool.
    pub tool: String,
    /// Its arguments.
    pub arguments: Map<String, Json>,
    /// Digest of tool + arguments.
    pub call_digest: String,
    /// Role that must decide.
    pub approver: String,
    /// Why.
    pub reason: String,
    /// The matching condition.
    pub condition: String,
    /// When it was requested (ms since epoch).
    pub requested_at_ms: u64,
    /// The job's own principal may decide.
    #[serde(default)]
    pub allow_self_approval: bool,
    /// Principals who took part in the call — the job's owner, whoever
    /// answered a field it uses, whoever confirmed it — and so may not approve
    /// it (four eyes), unless the rule allows self-approval.
    #[serde(default)]
    pub excluded: Vec<String>,
    /// Which execution of this exact call in the job it authorizes (0: the
    /// first): an approval pays for one execution.
    #[serde(default)]
    pub occurrence: u32,
}

/// The job call an approval would authorize: which execution of the exact
/// call it is, and who took part in it (see [`ApprovalRequest::excluded`]).
#[derive(Debug, Clone, Copy)]
pub struct JobCall<'a> {
    /// The job.
    pub job_id: &'a str,
    /// Executions of this exact call the job already made.
    pub occurrence: u32,
    /// Who may not approve it.
    pub excluded: &'a [String],
}

/// A recorded decision (the audit record).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApprovalRecord {
    /// The request decided.
    pub request: ApprovalRequest,
    /// Approve or reject.
    pub decision: ApprovalChoice,
    /// Who decided (`role` or `role:name`).
    pub decided_by: String,
    /// Free-text note.
    pub comment: String,
    /// When (ms since epoch).
    pub decided_at_ms: u64,
}

/// Why an approval operation failed.
#[derive(Debug, thiserror::Error)]
pub enum ApprovalError {
    /// No such pending request.
    #[error("no approval request `{correlation_id}` for job `{job_id}`")]
    UnknownRequest {
        /// The job.
        job_id: String,
        /// The id given.
        correlation_id: String,
    },
    /// The decider does not hold the rule's approver role.
    #[error("`{given}` may not decide: this call needs the `{required}` role")]
    WrongApprover {
        /// The role required.
        required: String,
        /// Who tried.
        given: String,
    },
    /// The principal that started the job, answered a field the call uses or
    /// confirmed it may not approve its own call.
    #[error("`{0}` started this job or supplied this call and may not approve its own call")]
    SelfApproval(String),
    /// A different decision was already recorded.
    #[error("the request was already decided ({0:?})")]
    AlreadyDecided(ApprovalChoice),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StateError),
}

/// Who decides: an authenticated principal, as the gate sees it.
pub struct Approver<'a> {
    /// Principal name (recorded as `decided_by`).
    pub name: &'a str,
    /// Whether it holds a role.
    pub holds_role: &'a (dyn Fn(&str) -> bool + Sync),
    /// Whether it started the job (self-approval).
    pub owns_job: bool,
    /// Whether four eyes apply (dev mode has one principal for everyone).
    pub four_eyes: bool,
    /// Who took part in the call, judged now on the job as it stands (a value
    /// supplied after the request was recorded counts): with the request's
    /// own `excluded`, who may not approve it.
    pub took_part: &'a [String],
}

impl std::fmt::Debug for Approver<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Approver")
            .field("name", &self.name)
            .field("owns_job", &self.owns_job)
            .finish()
    }
}

/// Approval requests and decisions, set-once in the state store and scoped to a job.
pub struct ApprovalBook<'a> {
    store: &'a dyn ApprovalStore,
}

impl std::fmt::Debug for ApprovalBook<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("ApprovalBook")
    }
}

fn request_key(job_id: &str, correlation_id: &str) -> String {
    format!("approval-request:{job_id}:{correlation_id}")
}

fn decision_key(job_id: &str, call_digest: &str, occurrence: u32) -> String {
    match occurrence {
        0 => format!("approval:{job_id}:{call_digest}"),
        n => format!("approval:{job_id}:{call_digest}:{n}"),
    }
}

/// The correlation id of an approval request: stable for one job, call and
/// execution, so asking again for the same call is the same request, and a
/// second execution of it is a new one. Keyed (the audit secret): it is shown
/// beside arguments that may be masked, so it must not be a hash of them
/// anyone could recompute.
pub fn correlation_id(job_id: &str, call_digest: &str, occurrence: u32) -> String {
    let occurrence = occurrence.to_be_bytes();
    let parts: &[&[u8]] = &[
        b"approval\0",
        job_id.as_bytes(),
        b"\0",
        call_digest.as_bytes(),
        &occurrence,
    ];
    format!("apr-{}", hex::encode(&adas_dia::digest::keyed(parts)[..12]))
}

impl<'a> ApprovalBook<'a> {
    /// A book over a store.
    pub fn new(store: &'a dyn ApprovalStore) -> Self {
        Self { store }
    }

    /// Applies recorded decisions to a REQUIRE_APPROVAL decision for a job: an
    /// approval of this exact call lets it through, a rejection denies it; with no
    /// decision yet, the request is recorded and its correlation id returned.
    pub async fn settle(
        &self,
        slag: &str,
        call: JobCall<'_>,
        tool: &str,
        args: &Map<String, Json>,
        mut decision: Decision,
    ) -> Result<Decision, ApprovalError> {
        let job_id = call.job_id;
        // The owner's confirmation is the worker's to ask (`confirmed_calls`).
        if decision.verdict != Verdict::RequireApproval
            || job_id.is_empty()
            || decision.approver == OWNER_CONFIRMS
        {
            return Ok(decision);
        }
        if let Some(record) = self
            .store
            .approval(
                slag,
                &decision_key(job_id, &decision.call_digest, call.occurrence),
            )
            .await?
        {
            let record: ApprovalRecord = serde_json::from_str(&record)
                .map_err(|error| StateError::UnexpectedReply(error.to_string()))?;
            decision.correlation_id = record.request.correlation_id.clone();
            return Ok(match record.decision {
                ApprovalChoice::Approve => Decision {
                    verdict: Verdict::Allow,
                    rule_kind: RuleKind::ApprovalGranted,
                    reason: format!("approved by {} for this exact call", record.decided_by),
                    ..decision
                },
                ApprovalChoice::Reject => Decision {
                    verdict: Verdict::Deny,
                    rule_kind: RuleKind::Approval,
                    reason: format!("rejected by {}: {}", record.decided_by, record.comment),
                    ..decision
                },
            });
        }
        let correlation = correlation_id(job_id, &decision.call_digest, call.occurrence);
        let request = ApprovalRequest {
            correlation_id: correlation.clone(),
            job_id: job_id.to_owned(),
            tool: tool.to_owned(),
            arguments: args.clone(),
            call_digest: decision.call_digest.clone(),
            approver: decision.approver.clone(),
            reason: decision.reason.clone(),
            condition: decision.condition.clone(),
            requested_at_ms: adas_state::now_ms(),
            allow_self_approval: decision.allow_self_approval,
            excluded: call.excluded.to_vec(),
            occurrence: call.occurrence,
        };
        let value = serde_json::to_string(&request).expect("requests serialize");
        self.store
            .record_approval(
                slag,
                &request_key(job_id, &correlation),
                &value,
                APPROVAL_TTL,
            )
            .await?;
        decision.correlation_id = correlation;
        Ok(decision)
    }

    /// Records a decision on a pending request by `decider`, who must hold the
    /// request's approver role and — unless the rule allows it — must not be the
    /// job's owner. Deciding the same way twice is idempotent (the first record is
    /// returned); deciding differently is refused.
    pub async fn decide(
        &self,
        slag: &str,
        job_id: &str,
        correlation_id: &str,
        decider: &Approver<'_>,
        decision: ApprovalChoice,
        comment: &str,
    ) -> Result<ApprovalRecord, ApprovalError> {
        let decided_by = decider.name;
        let unknown = || ApprovalError::UnknownRequest {
            job_id: job_id.to_owned(),
            correlation_id: correlation_id.to_owned(),
        };
        let Some(request) = self
            .store
            .approval(slag, &request_key(job_id, correlation_id))
            .await
            .map_err(|error| match error {
                StateError::InvalidKey { .. } => unknown(),
                other => ApprovalError::Store(other),
            })?
        else {
            return Err(unknown());
        };
        let request: ApprovalRequest = serde_json::from_str(&request)
            .map_err(|error| StateError::UnexpectedReply(error.to_string()))?;
        if !(decider.holds_role)(&request.approver) {
            return Err(ApprovalError::WrongApprover {
                required: request.approver.clone(),
                given: decided_by.to_owned(),
            });
        }
        let took_part = decider.owns_job
            || (decider.four_eyes
                && request
                    .excluded
                    .iter()
                    .chain(decider.took_part)
                    .any(|name| name == decided_by));
        if took_part && !request.allow_self_approval {
            return Err(ApprovalError::SelfApproval(decided_by.to_owned()));
        }
        let record = ApprovalRecord {
            request,
            decision,
            decided_by: decided_by.to_owned(),
            comment: comment.to_owned(),
            decided_at_ms: adas_state::now_ms(),
        };
        let value = serde_json::to_string(&record).expect("records serialize");
        match self
            .store
            .record_approval(
                slag,
                &decision_key(
                    job_id,
                    &record.request.call_digest,
                    record.request.occurrence,
                ),
                &value,
                APPROVAL_TTL,
            )
            .await?
        {
            None => Ok(record),
            Some(existing) => {
                let existing: ApprovalRecord = serde_json::from_str(&existing)
                    .map_err(|error| StateError::UnexpectedReply(error.to_string()))?;
                if existing.decision == decision {
                    Ok(existing)
                } else {
                    Err(ApprovalError::AlreadyDecided(existing.decision))
                }
            }
        }
    }
}
