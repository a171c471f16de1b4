//! What a job's event log records: one typed [`Event`] per thing that
//! happened, its [`EventKind`] derived from the variant, its summary and its
//! detail (the JSON clients and the audit read) derived from the payload.
//! Adding a kind touches this enum, its wire mapping (by name, in
//! `adas-jobs`' codec and `adas-wire`) and their tests.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use crate::{PauseDetail, PauseReason};

/// The stored name of an event: every variant of [`Event`] has one, so the
/// wire mappings are exhaustive and a new kind never reaches clients as
/// UNSPECIFIED. Stored as its snake_case name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// The job was stored and queued.
    Created,
    /// A worker took the queued job.
    Running,
    /// A worker took over the job of a worker that went silent.
    Reclaimed,
    /// A plan was made for the goal.
    Planned,
    /// DalAgent resolved the plan: nothing is missing before the next call.
    Resolved,
    /// The job paused for input or approval.
    Paused,
    /// An answer or decision was accepted and the job re-queued.
    Resumed,
    /// An answer to the current ask was refused; the job still waits.
    AnswerRefused,
    /// A gated tool call started.
    ToolStarted,
    /// A tool call finished.
    ToolFinished,
    /// The pre-tool gate denied a call.
    ToolDenied,
    /// The finalization gate judged the draft reply.
    Finalized,
    /// The job completed.
    Completed,
    /// The job failed.
    Failed,
    /// The job was cancelled.
    Cancelled,
    /// A tool's result issued a grant.
    GrantIssued,
    /// A grant expired and was dropped.
    GrantExpired,
    /// A grant was not issued, or a call lacked one or conflicted with one.
    GrantDenied,
    /// The conversation moved to another skill of its solution.
    Handoff,
    /// A call left the steps of the job's workflow (`on_deviation: warn`).
    WorkflowDeviated,
}

impl EventKind {
    /// Every kind, for exhaustive tests of the mappings.
    pub const ALL: [EventKind; 20] = [
        Self::Created,
        Self::Running,
        Self::Reclaimed,
        Self::Planned,
        Self::Resolved,
        Self::Paused,
        Self::Resumed,
        Self::AnswerRefused,
        Self::ToolStarted,
        Self::ToolFinished,
        Self::ToolDenied,
        Self::Finalized,
        Self::Completed,
        Self::Failed,
        Self::Cancelled,
        Self::GrantIssued,
        Self::GrantExpired,
        Self::GrantDenied,
        Self::Handoff,
        Self::WorkflowDeviated,
    ];

    /// Whether an event of this kind may be written with values the job
    /// holds as personal from then on (a tool's result, a grant a classified
    /// tool issued); the event itself says whether it did
    /// ([`Event::adds_personal`]), and a stored event that does not say
    /// (written before it did) is taken to. Exhaustive: a new kind says
    /// whether it may.
    pub fn adds_personal(self) -> bool {
        match self {
            Self::ToolFinished | Self::GrantIssued => true,
            Self::Created
            | Self::Running
            | Self::Reclaimed
            | Self::Planned
            | Self::Resolved
            | Self::Paused
            | Self::Resumed
            | Self::AnswerRefused
            | Self::ToolStarted
            | Self::ToolDenied
            | Self::Finalized
            | Self::Completed
            | Self::Failed
            | Self::Cancelled
            | Self::GrantExpired
            | Self::GrantDenied
            | Self::Handoff
            | Self::WorkflowDeviated => false,
        }
    }

    /// The kind's name in SCREAMING_SNAKE_CASE: the suffix of its value in
    /// every protobuf enum that lists kinds (`EVENT_KIND_<NAME>`,
    /// `JOB_EVENT_TYPE_<NAME>`), so each mapping is one lookup by name.
    pub fn upper_name(self) -> String {
        let Ok(Json::String(name)) = serde_json::to_value(self) else {
            unreachable!("an EventKind serializes as its name")
        };
        name.to_ascii_uppercase()
    }
}

/// Something that happened to a job, with what the audit needs to know about
/// it. Serialized (untagged) as the event's detail.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Event {
    /// The job was stored and queued.
    Created,
    /// A worker took the job (`reclaimed`: from a worker that went silent).
    Taken {
        /// The worker's consumer name.
        worker: String,
        /// Taken over from a silent worker.
        #[serde(skip)]
        reclaimed: bool,
    },
    /// The conversation came here by a handoff of its solution.
    Handoff {
        /// The handoff's id.
        handoff: String,
        /// The skill it left.
        from: String,
        /// This skill.
        to: String,
        /// The grants that came along.
        grants_passed: Vec<String>,
    },
    /// A plan, or its next step, was made.
    Planned(Planned),
    /// Nothing is missing before the next call.
    Resolved,
    /// The job paused: why, the question, and what the audit keeps of it.
    Paused {
        /// Why.
        reason_code: PauseReason,
        /// The event's summary (the question, mostly).
        #[serde(skip)]
        message: String,
        /// More about it, by reason.
        #[serde(flatten)]
        detail: PauseDetail,
    },
    /// The job goes on after an answer or a decision.
    Resumed(Resumption),
    /// An answer was refused; the job still waits.
    AnswerRefused {
        /// How many problems the answer had.
        violations: usize,
    },
    /// A gated call started.
    ToolStarted {
        /// The tool.
        tool: String,
        /// Its arguments.
        arguments: Map<String, Json>,
        /// The key sent with it.
        idempotency_key: String,
        /// The grants the access policy held the call to (issuing job and
        /// value digest, for the audit).
        grants: Json,
        /// The gate's word on this exact call, for the audit (the e2e
        /// invariant checker holds every call to it, e2e/CHAOS.md).
        gate: Json,
        /// The MCP server the call goes to (a routed tool's: its
        /// connector's, the tenant's own or the deployment's), so no mapping
        /// serves a call unrecorded.
        #[serde(skip_serializing_if = "Option::is_none")]
        server: Option<String>,
    },
    /// A call finished.
    ToolFinished {
        /// The tool.
        tool: String,
        /// Whether it failed.
        is_error: bool,
        /// What it returned (or a focus reference, or the error text).
        output: Json,
        /// Whether its result made the job hold values as personal that it
        /// did not before (stored beside the detail, not in it).
        #[serde(skip)]
        adds_personal: bool,
    },
    /// A call was refused before it ran.
    ToolDenied {
        /// The tool.
        tool: String,
        /// The rule that refused it.
        #[serde(skip_serializing_if = "Option::is_none")]
        rule: Option<String>,
        /// The workflow it left (a blocked deviation).
        #[serde(skip_serializing_if = "Option::is_none")]
        workflow: Option<String>,
        /// That workflow's steps.
        #[serde(skip_serializing_if = "Option::is_none")]
        steps: Option<Vec<String>>,
        /// Why, in words.
        #[serde(skip)]
        reason: String,
    },
    /// The finalization gate judged the draft reply.
    Finalized {
        /// Whether it passed.
        #[serde(skip)]
        passed: bool,
        /// The verdict as recorded.
        #[serde(flatten)]
        verdict: Map<String, Json>,
    },
    /// The job completed.
    Completed(Completion),
    /// The job failed.
    Failed(Failure),
    /// The job was cancelled.
    Cancelled(Cancellation),
    /// A tool's result issued a grant.
    GrantIssued {
        /// The grant's key.
        key: String,
        /// Its value as it may be shown (masked when classified).
        value: String,
        /// The tool whose result issued it.
        issuer_tool: String,
        /// That tool's skill.
        issuer_skill: String,
        /// When it expires (ms since the epoch).
        expires_ms: u64,
        /// SHA-256 of the value's JSON text.
        value_sha256: String,
        /// Whether the value is personal (its tool's output is classified):
        /// the job masks it from then on.
        #[serde(skip)]
        classified: bool,
    },
    /// A grant expired and was dropped.
    GrantExpired {
        /// The grant's key.
        key: String,
        /// The tool that issued it.
        issuer_tool: String,
        /// When it expired.
        expired_ms: u64,
    },
    /// A grant was not issued, or a call lacked one or conflicted with one.
    GrantDenied(GrantDenial),
    /// A call left the steps of the job's workflow (`on_deviation: warn`).
    WorkflowDeviated {
        /// The tool.
        tool: String,
        /// The workflow.
        workflow: String,
        /// Its steps.
        steps: Vec<String>,
        /// Why, in words.
        #[serde(skip)]
        reason: String,
    },
}

/// A plan or its next step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Planned {
    /// The DIA program.
    pub program: String,
    /// A first plan or a next step.
    #[serde(flatten)]
    pub stage: PlanStage,
    /// Who planned it (`adas_wire::decider_json`'s shape).
    pub decider: Json,
}

/// Which plan a [`Planned`] is.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum PlanStage {
    /// The job's first plan.
    First {
        /// The intent it serves.
        intent: String,
        /// The workflow it follows (empty: none).
        workflow: String,
    },
    /// A next step (RV2, or a replan after a failed finalization).
    Next {
        /// Always true (what readers of the log look for).
        next_step: bool,
        /// Why the draft failed, for a replan.
        feedback: Option<String>,
    },
}

/// Why a paused job goes on.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Resumption {
    /// The user picked an intent.
    IntentChosen {
        /// Its id.
        intent: String,
        /// The principal who answered (empty: dev mode).
        #[serde(skip_serializing_if = "String::is_empty")]
        by: String,
    },
    /// The user said yes to the exact call.
    CallConfirmed {
        /// The call's digest.
        call_digest: String,
        /// The principal who answered (empty: dev mode).
        #[serde(skip_serializing_if = "String::is_empty")]
        by: String,
    },
    /// The user's answers passed.
    AnswersAccepted {
        /// The ask answered.
        correlation_id: String,
        /// The principal who answered (empty: dev mode).
        #[serde(skip_serializing_if = "String::is_empty")]
        by: String,
    },
    /// An approver approved the call.
    Approved {
        /// Who.
        approver: String,
        /// The role the rule named.
        role: String,
        /// The tool.
        tool: String,
        /// The call's digest.
        call_digest: String,
        /// Why, in the approver's words (empty: none given).
        #[serde(skip_serializing_if = "String::is_empty")]
        comment: String,
    },
}

/// How a job completed without a finalized reply, or with one.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Completion {
    /// The reply passed finalization (its verdict as recorded).
    Answered(Map<String, Json>),
    /// The message was outside the skill's domain.
    OutOfDomain {
        /// What the skill does about it.
        action: String,
    },
    /// The user chose none of the intents offered.
    NoIntent,
    /// A human replied in the agent's place.
    HumanReplied {
        /// Who.
        by: String,
    },
}

/// Why a job failed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Failure {
    /// The platform failed (not the job's fault, not passing).
    Platform {
        /// What failed.
        error: String,
    },
    /// The iteration budget is used up.
    BudgetExhausted {
        /// The budget.
        budget: u32,
    },
    /// The same call again and again.
    LoopDetected {
        /// The tool.
        tool: String,
    },
    /// A tool failed unrecoverably.
    ToolFailed {
        /// The tool.
        tool: String,
        /// Its error.
        error: String,
    },
    /// Nobody answered the ask in time.
    AskExpired {
        /// The skill's wait timeout.
        wait_timeout_ms: u64,
    },
    /// The approver rejected the call.
    Rejected {
        /// Who.
        approver: String,
        /// The role the rule named.
        role: String,
        /// The tool.
        tool: String,
        /// Why, in the approver's words (empty: none given).
        #[serde(skip_serializing_if = "String::is_empty")]
        comment: String,
    },
}

/// Why a job was cancelled.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Cancellation {
    /// A client cancelled it (CancelJob).
    ByClient {
        /// The client's reason.
        reason: String,
    },
    /// The user aborted the plan in an answer.
    Aborted {
        /// The user's reason.
        reason: String,
    },
    /// The user said no to the call.
    Declined,
}

/// Why a grant was not issued or did not let a call through.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum GrantDenial {
    /// The call needs grants the conversation does not hold.
    Missing {
        /// The tool.
        tool: String,
        /// The grant keys missing.
        missing: Vec<String>,
    },
    /// An argument that comes from a grant was given another value.
    Conflict {
        /// The tool.
        tool: String,
        /// The argument.
        argument: String,
        /// The grant.
        grant: String,
    },
    /// A tool's result did not issue a grant its mapping names.
    NotIssued {
        /// The grant's key.
        key: String,
        /// The tool.
        issuer_tool: String,
        /// Why.
        reason: String,
    },
}

impl Event {
    /// Its stored kind.
    pub fn kind(&self) -> EventKind {
        match self {
            Self::Created => EventKind::Created,
            Self::Taken {
                reclaimed: false, ..
            } => EventKind::Running,
            Self::Taken {
                reclaimed: true, ..
            } => EventKind::Reclaimed,
            Self::Handoff { .. } => EventKind::Handoff,
            Self::Planned(_) => EventKind::Planned,
            Self::Resolved => EventKind::Resolved,
            Self::Paused { .. } => EventKind::Paused,
            Self::Resumed(_) => EventKind::Resumed,
            Self::AnswerRefused { .. } => EventKind::AnswerRefused,
            Self::ToolStarted { .. } => EventKind::ToolStarted,
            Self::ToolFinished { .. } => EventKind::ToolFinished,
            Self::ToolDenied { .. } => EventKind::ToolDenied,
            Self::Finalized { .. } => EventKind::Finalized,
            Self::Completed(_) => EventKind::Completed,
            Self::Failed(_) => EventKind::Failed,
            Self::Cancelled(_) => EventKind::Cancelled,
            Self::GrantIssued { .. } => EventKind::GrantIssued,
            Self::GrantExpired { .. } => EventKind::GrantExpired,
            Self::GrantDenied(_) => EventKind::GrantDenied,
            Self::WorkflowDeviated { .. } => EventKind::WorkflowDeviated,
        }
    }

    /// Whether the job holds values as personal after this event that it did
    /// not before (a reader that masks them reads the job again); only kinds
    /// that [`EventKind::adds_personal`] may.
    pub fn adds_personal(&self) -> bool {
        match self {
            Self::ToolFinished { adds_personal, .. } => *adds_personal,
            Self::GrantIssued { classified, .. } => *classified,
            _ => false,
        }
    }

    /// Its one-line summary.
    pub fn message(&self) -> String {
        match self {
            Self::Created => "job created".into(),
            Self::Taken {
                reclaimed: false, ..
            } => "a worker took the job".into(),
            Self::Taken {
                reclaimed: true, ..
            } => "a worker took over the job of a silent worker".into(),
            Self::Handoff { from, to, .. } => format!("handed off from `{from}` to `{to}`"),
            Self::Planned(Planned {
                stage: PlanStage::First { .. },
                ..
            }) => "plan made".into(),
            Self::Planned(_) => "next step planned".into(),
            Self::Resolved => "plan resolved".into(),
            Self::Paused { message, .. } => message.clone(),
            Self::Resumed(Resumption::IntentChosen { .. }) => "the user chose the intent".into(),
            Self::Resumed(Resumption::CallConfirmed { .. }) => "the user confirmed the call".into(),
            Self::Resumed(Resumption::AnswersAccepted { .. }) => "answers accepted".into(),
            Self::Resumed(Resumption::Approved {
                approver, comment, ..
            }) => decided_by("approved", approver, comment),
            Self::AnswerRefused { .. } => "the answer was refused".into(),
            Self::ToolStarted { tool, .. } | Self::ToolFinished { tool, .. } => tool.clone(),
            Self::ToolDenied { reason, .. } | Self::WorkflowDeviated { reason, .. } => {
                reason.clone()
            }
            Self::Finalized { passed: true, .. } => "the finalization gate passed the reply".into(),
            Self::Finalized { passed: false, .. } => {
                "the finalization gate did not pass the reply".into()
            }
            Self::Completed(Completion::Answered(_)) => "completed".into(),
            Self::Completed(Completion::OutOfDomain { .. }) => "out of domain".into(),
            Self::Completed(Completion::NoIntent) => "none of the intents".into(),
            Self::Completed(Completion::HumanReplied { .. }) => "a human replied".into(),
            Self::Failed(Failure::Platform { .. }) => "platform failure".into(),
            Self::Failed(Failure::BudgetExhausted { .. }) => "iteration budget exhausted".into(),
            Self::Failed(Failure::LoopDetected { .. }) => "loop detected".into(),
            Self::Failed(Failure::ToolFailed { .. }) => "a tool failed".into(),
            Self::Failed(Failure::AskExpired { .. }) => "the ask expired".into(),
            Self::Failed(Failure::Rejected {
                approver, comment, ..
            }) => decided_by("rejected", approver, comment),
            Self::Cancelled(Cancellation::ByClient { .. }) => "cancelled by a client".into(),
            Self::Cancelled(Cancellation::Aborted { .. }) => "the user aborted the plan".into(),
            Self::Cancelled(Cancellation::Declined) => "the user declined the call".into(),
            Self::GrantIssued {
                key, issuer_tool, ..
            } => format!("grant `{key}` issued by `{issuer_tool}`"),
            Self::GrantExpired { key, .. } => format!("grant `{key}` no longer holds"),
            Self::GrantDenied(GrantDenial::Missing { tool, missing }) => format!(
                "`{tool}` denied: it needs the grant{} {}, which this conversation does not hold",
                if missing.len() == 1 { "" } else { "s" },
                missing.join(", ")
            ),
            Self::GrantDenied(GrantDenial::Conflict {
                tool,
                argument,
                grant,
            }) => format!(
                "`{tool}` denied: `{argument}` comes from the grant `{grant}` only, and another value was given"
            ),
            Self::GrantDenied(GrantDenial::NotIssued { key, reason, .. }) => {
                format!("grant `{key}` not issued: {reason}")
            }
        }
    }

    /// Its detail, as stored and shown.
    pub fn detail(&self) -> Json {
        serde_json::to_value(self).unwrap_or(Json::Null)
    }

    /// A pause for `reason` asking `message`, with `detail` for the audit.
    pub fn paused(reason: PauseReason, message: impl Into<String>, detail: PauseDetail) -> Self {
        Self::Paused {
            reason_code: reason,
            message: message.into(),
            detail,
        }
    }

    /// A call refused by `rule`, with `reason` in words.
    pub fn denied(tool: &str, rule: &str, reason: impl Into<String>) -> Self {
        Self::ToolDenied {
            tool: tool.to_owned(),
            rule: Some(rule.to_owned()),
            workflow: None,
            steps: None,
            reason: reason.into(),
        }
    }
}

/// A decision's summary: the verb, who, and the approver's reason when given
/// (an approval trail is read for its why).
pub(crate) fn decided_by(verb: &str, approver: &str, comment: &str) -> String {
    match comment.trim() {
        "" => format!("{verb} by {approver}"),
        why => format!("{verb} by {approver}: {why}"),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Each reason's detail is stored flat beside `reason_code`, in the
    /// shape the audit and every client read (keys in this order).
    #[test]
    fn a_pause_detail_is_stored_in_its_reasons_shape() {
        let args = json!({"amount": 900}).as_object().cloned().unwrap();
        let cases = [
            (
                PauseReason::MissingRequiredInput,
                PauseDetail::Asked {
                    requested_fields: vec!["amount".into()],
                    correlation_id: "c1".into(),
                },
                json!({"reason_code": "MISSING_REQUIRED_INPUT", "requested_fields": ["amount"], "correlation_id": "c1"}),
            ),
            (
                PauseReason::IntentClarificationRequired,
                PauseDetail::Clarify {
                    confidence: 0.5,
                    margin: 0.1,
                },
                json!({"reason_code": "INTENT_CLARIFICATION_REQUIRED", "confidence": 0.5, "margin": 0.1}),
            ),
            (
                PauseReason::ActionConfirmationRequired,
                PauseDetail::Confirm {
                    tool: "refund".into(),
                    why: "a guess".into(),
                },
                json!({"reason_code": "ACTION_CONFIRMATION_REQUIRED", "tool": "refund", "why": "a guess"}),
            ),
            (
                PauseReason::HumanTakeoverRequired,
                PauseDetail::Escalation {
                    condition: "amount > 500".into(),
                    tool: Some("refund".into()),
                    arguments: Some(args.clone()),
                    target: Some("supervisors".into()),
                },
                json!({"reason_code": "HUMAN_TAKEOVER_REQUIRED", "condition": "amount > 500", "tool": "refund", "arguments": args, "target": "supervisors"}),
            ),
            (
                PauseReason::HumanTakeoverRequired,
                PauseDetail::Escalation {
                    condition: "Legal action threatened".into(),
                    tool: None,
                    arguments: None,
                    target: None,
                },
                json!({"reason_code": "HUMAN_TAKEOVER_REQUIRED", "condition": "Legal action threatened"}),
            ),
            (
                PauseReason::HumanTakeoverRequired,
                PauseDetail::InvalidAnswers { violations: 2 },
                json!({"reason_code": "HUMAN_TAKEOVER_REQUIRED", "violations": 2}),
            ),
        ];
        for (reason, detail, stored) in cases {
            let event = Event::paused(reason, "asked", detail);
            assert_eq!(event.detail(), stored);
            assert_eq!(event.detail().to_string(), stored.to_string(), "key order");
        }
    }

    #[test]
    fn details_keep_the_shapes_clients_read() {
        let cases = [
            (
                Event::Created,
                EventKind::Created,
                "job created",
                Json::Null,
            ),
            (
                Event::Taken {
                    worker: "w1".into(),
                    reclaimed: true,
                },
                EventKind::Reclaimed,
                "a worker took over the job of a silent worker",
                json!({"worker": "w1"}),
            ),
            (
                Event::paused(
                    PauseReason::ApprovalRequired,
                    "Approval required",
                    PauseDetail::Approval {
                        approver: "supervisor".into(),
                    },
                ),
                EventKind::Paused,
                "Approval required",
                json!({"reason_code": "APPROVAL_REQUIRED", "approver": "supervisor"}),
            ),
            (
                Event::denied("refund", "deny refund", "`refund` denied: deny refund"),
                EventKind::ToolDenied,
                "`refund` denied: deny refund",
                json!({"tool": "refund", "rule": "deny refund"}),
            ),
            (
                Event::Planned(Planned {
                    program: "a()".into(),
                    stage: PlanStage::Next {
                        next_step: true,
                        feedback: None,
                    },
                    decider: Json::Null,
                }),
                EventKind::Planned,
                "next step planned",
                json!({"program": "a()", "next_step": true, "feedback": null, "decider": null}),
            ),
            (
                Event::Cancelled(Cancellation::Declined),
                EventKind::Cancelled,
                "the user declined the call",
                Json::Null,
            ),
            (
                Event::Failed(Failure::BudgetExhausted { budget: 3 }),
                EventKind::Failed,
                "iteration budget exhausted",
                json!({"budget": 3}),
            ),
            (
                Event::GrantDenied(GrantDenial::Missing {
                    tool: "book".into(),
                    missing: vec!["a".into(), "b".into()],
                }),
                EventKind::GrantDenied,
                "`book` denied: it needs the grants a, b, which this conversation does not hold",
                json!({"tool": "book", "missing": ["a", "b"]}),
            ),
        ];
        for (event, kind, message, detail) in cases {
            assert_eq!(event.kind(), kind, "{event:?}");
            assert_eq!(event.message(), message, "{event:?}");
            assert_eq!(event.detail(), detail, "{event:?}");
        }
    }

    #[test]
    fn every_kind_is_at_its_own_index() {
        // The wire mappings index tables by `kind as usize`.
        for (index, kind) in EventKind::ALL.into_iter().enumerate() {
            assert_eq!(kind as usize, index, "{kind:?}");
        }
    }

    #[test]
    fn every_kind_has_an_upper_name() {
        for kind in EventKind::ALL {
            let name = kind.upper_name();
            assert!(!name.is_empty() && name == name.to_ascii_uppercase());
        }
        assert_eq!(EventKind::AnswerRefused.upper_name(), "ANSWER_REFUSED");
    }
}
