//! Why a job waits: one enum, its wire name (spec 000's `reason_code`) and
//! the outcome a pause for it carries.

use serde::{Deserialize, Serialize};

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
