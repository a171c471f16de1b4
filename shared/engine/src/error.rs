//! Why a step stopped early, and whether trying again may help.

use adas_jobs::JobError;

/// Why processing a job stopped early.
#[derive(Debug, thiserror::Error)]
pub enum WorkError {
    /// Storage.
    #[error(transparent)]
    Job(#[from] JobError),
    /// A peer service.
    #[error("peer call failed: {0}")]
    Peer(#[from] tonic::Status),
    /// The skill.
    #[error(transparent)]
    Skill(#[from] adas_skill::SkillError),
    /// A plan that does not parse, or a step the plan cannot take.
    #[error("invalid plan: {0}")]
    Plan(String),
    /// The approval records.
    #[error(transparent)]
    Approval(#[from] adas_policy::gate::ApprovalError),
}

impl WorkError {
    /// Whether the failure is the platform's and passing: a peer or the store
    /// unavailable, a timeout, a connection reset, a rate limit. The step is
    /// tried again; only a deterministic failure (policy, validation, a tool's
    /// own error, a broken plan) may end a job.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Peer(status) => matches!(
                status.code(),
                tonic::Code::Unavailable
                    | tonic::Code::DeadlineExceeded
                    | tonic::Code::Cancelled
                    | tonic::Code::ResourceExhausted
                    | tonic::Code::Unknown
            ),
            Self::Job(JobError::Store(error))
            | Self::Approval(adas_policy::gate::ApprovalError::Store(error)) => {
                error.is_unavailable()
            }
            Self::Skill(adas_skill::SkillError::Store(_)) => true,
            Self::Job(_) | Self::Skill(_) | Self::Plan(_) | Self::Approval(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::WorkError;
    use adas_jobs::JobError;
    use adas_policy::gate::ApprovalError;
    use adas_state::StateError;

    fn reset() -> StateError {
        StateError::Redis(std::io::Error::from(std::io::ErrorKind::ConnectionReset).into())
    }

    /// A Redis connection reset mid-step is retried wherever the step met it:
    /// in the job's own record or in the gate's approval book.
    #[test]
    fn a_connection_reset_is_transient_in_every_store_the_step_reads() {
        assert!(WorkError::Job(JobError::Store(reset())).is_transient());
        assert!(WorkError::Approval(ApprovalError::Store(reset())).is_transient());
        assert!(!WorkError::Approval(ApprovalError::SelfApproval("ana".into())).is_transient());
        assert!(!WorkError::Plan("broken".into()).is_transient());
    }
}
