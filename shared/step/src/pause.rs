//! Why a job waits: one enum, its wire name (spec 000's `reason_code`), the
//! outcome a pause for it carries, and what its `paused` event says beyond it.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use crate::record::OutcomeClass;

/// Why the job waits, derived from what is asked (documented in ARCHITECTURE.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum PauseReason {
    /// A required tool input is missing.
    MissingRequiredInput,
    /// The missing input identifies the user and the skill requires verification.
    IdentityVerificationRequired,
    /// A tool failed; the user decides how to proceed.
    ToolErrorRecovery,
    /// The user reviews an answer from the sources.
    UserConfirmationRequired,
    /// An approver must decide on a call.
    ApprovalRequired,
    /// No intent matched confidently: the user picks one (field `intent`).
    IntentClarificationRequired,
    /// A side-effecting call rests on a guess: the user says yes or no (field `confirm`).
    ActionConfirmationRequired,
    /// Escalated: an operator replies in the agent's place (field `reply`).
    HumanTakeoverRequired,
}

impl PauseReason {
    /// Every reason, in the order above.
    pub const ALL: [PauseReason; 8] = [
        Self::MissingRequiredInput,
        Self::IdentityVerificationRequired,
        Self::ToolErrorRecovery,
        Self::UserConfirmationRequired,
        Self::ApprovalRequired,
        Self::IntentClarificationRequired,
        Self::ActionConfirmationRequired,
        Self::HumanTakeoverRequired,
    ];

    /// The `reason_code` clients see.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::MissingRequiredInput => "MISSING_REQUIRED_INPUT",
            Self::IdentityVerificationRequired => "IDENTITY_VERIFICATION_REQUIRED",
            Self::ToolErrorRecovery => "TOOL_ERROR_RECOVERY",
            Self::UserConfirmationRequired => "USER_CONFIRMATION_REQUIRED",
            Self::ApprovalRequired => "APPROVAL_REQUIRED",
            Self::IntentClarificationRequired => "INTENT_CLARIFICATION_REQUIRED",
            Self::ActionConfirmationRequired => "ACTION_CONFIRMATION_REQUIRED",
            Self::HumanTakeoverRequired => "HUMAN_TAKEOVER_REQUIRED",
        }
    }

    /// The reason named `code` (`None`: no such reason).
    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|reason| reason.as_str() == code)
    }

    /// The outcome of a job paused for this reason.
    pub fn outcome(self) -> OutcomeClass {
        match self {
            Self::ApprovalRequired => OutcomeClass::ApprovalRequired,
            Self::HumanTakeoverRequired => OutcomeClass::Escalated,
            _ => OutcomeClass::UserActionRequired,
        }
    }
}

/// What a `paused` event says beyond its reason, typed by why the job waits
/// (stored flat beside `reason_code`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum PauseDetail {
    /// The DAL-Agent asks for what a call misses (or how to go on after a
    /// tool failed, or for the user's review).
    Asked {
        /// The fields asked.
        requested_fields: Vec<String>,
        /// The ask's id.
        correlation_id: String,
    },
    /// No intent matched confidently: which one was meant?
    Clarify {
        /// The best intent's confidence.
        confidence: f64,
        /// Its lead over the next.
        margin: f64,
    },
    /// A side effect rests on a guess: the user's yes to the exact call.
    Confirm {
        /// The call's tool.
        tool: String,
        /// Why it needs the yes.
        why: String,
    },
    /// An approver of the role decides on the call.
    Approval {
        /// The role.
        approver: String,
    },
    /// Handed to a human: the iteration budget is spent.
    BudgetSpent {
        /// The budget.
        budget: u32,
    },
    /// Handed to a human: a call's end is unknown and it may not run again.
    UnknownEnd {
        /// The call's tool.
        tool: String,
        /// Its arguments.
        arguments: Map<String, Json>,
        /// The key it was sent with.
        idempotency_key: String,
        /// When it started.
        started_at: String,
    },
    /// Handed to a human: one of the skill's escalation conditions holds.
    Escalation {
        /// The condition.
        condition: String,
        /// The call it held on (none: the request said it).
        #[serde(skip_serializing_if = "Option::is_none")]
        tool: Option<String>,
        /// That call's arguments.
        #[serde(skip_serializing_if = "Option::is_none")]
        arguments: Option<Map<String, Json>>,
        /// Where the skill hands it.
        #[serde(skip_serializing_if = "Option::is_none")]
        target: Option<String>,
    },
    /// Handed to a human: the reply did not pass finalization.
    Finalization {
        /// The judge's verdict.
        finalization: Json,
    },
    /// Handed to a human: too many invalid answers in a row.
    InvalidAnswers {
        /// Fields that did not fit in the last.
        violations: usize,
    },
}

impl std::fmt::Display for PauseReason {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_round_trips_by_its_name_and_in_json() {
        for reason in PauseReason::ALL {
            assert_eq!(PauseReason::parse(reason.as_str()), Some(reason));
            assert_eq!(
                serde_json::to_value(reason).unwrap(),
                serde_json::Value::String(reason.as_str().into())
            );
        }
        assert_eq!(PauseReason::parse("NOT_A_REASON"), None);
    }
}
