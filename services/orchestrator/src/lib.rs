//! adas-orchestrator: OrchestratorService — owns the job lifecycle: StartJob
//! (skill bootstrapped, resources validated, idempotent by `request_id`),
//! GetJob, ListJobs, WatchJob (resumable event stream), CancelJob, RetryJob — and the
//! workers that advance jobs (see [`worker`]).

mod admission;
mod background;
mod claim;
mod listing;
mod retry;
mod service;
mod solution;
pub mod triggers;
pub mod worker;

use std::collections::BTreeMap;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use adas_catalog::Catalog;
use adas_jobs::{
    Evidence, JobError, JobRecord, JobRepo, JobStatus, PauseReason, StoredJob, new_job_id,
};
use adas_proto::pb;
use adas_proto::pb::orchestrator_service_server::{OrchestratorService, OrchestratorServiceServer};
use adas_runtime::convert::{page_size, struct_to_json};
use adas_runtime::{FieldViolation, status_with_details};
use adas_skill::SkillError;
use adas_skill::slag::{parse_job_name, parse_skill_name};
use adas_state::StateError;
use listing::JobQuery;
use serde_json::json;
use tokio_stream::Stream;
use tonic::{Code, Request, Response, Status};

/// Errors of OrchestratorService.
#[derive(Debug, thiserror::Error)]
pub enum OrchestratorError {
    /// A request field is invalid.
    #[error("{field}: {reason}")]
    InvalidField {
        /// The field.
        field: &'static str,
        /// Why.
        reason: String,
    },
    /// Resource bindings do not fit the skill.
    #[error("{0}")]
    Resources(String, Vec<FieldViolation>),
    /// Fields of the request the skill does not let the caller set.
    #[error("{0}")]
    InvalidFields(String, Vec<FieldViolation>),
    /// The skill could not be loaded.
    #[error(transparent)]
    Skill(#[from] SkillError),
    /// Job storage.
    #[error(transparent)]
    Job(#[from] JobError),
    /// The job is not in a state for this.
    #[error("{0}")]
    Precondition(String),
    /// Not this principal's to do.
    #[error("{0}")]
    Denied(String),
    /// No such conversation (or another principal's).
    #[error("conversation {0} not found")]
    ConversationNotFound(String),
    /// No such resource (a solution).
    #[error("{0}")]
    NotFound(String),
    /// A platform failure.
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<StateError> for OrchestratorError {
    fn from(error: StateError) -> Self {
        Self::Job(JobError::Store(error))
    }
}

impl From<OrchestratorError> for Status {
    fn from(error: OrchestratorError) -> Self {
        let message = error.to_string();
        match error {
            OrchestratorError::InvalidField { field, reason } => status_with_details(
                Code::InvalidArgument,
                "INVALID_FIELD",
                message,
                &[FieldViolation::new(field, reason)],
            ),
            OrchestratorError::Resources(_, violations) => status_with_details(
                Code::InvalidArgument,
                "RESOURCES_INVALID",
                message,
                &violations,
            ),
            OrchestratorError::InvalidFields(_, violations) => {
                status_with_details(Code::InvalidArgument, "INVALID_FIELD", message, &violations)
            }
            OrchestratorError::Skill(error) => adas_wire::skill_status(&error, "skill"),
            OrchestratorError::Job(error) => adas_wire::job_error_status(&error),
            OrchestratorError::ConversationNotFound(_) => status_with_details(
                Code::NotFound,
                "CONVERSATION_NOT_FOUND",
                message,
                &[FieldViolation::new("conversation", "no such conversation")],
            ),
            OrchestratorError::NotFound(_) => {
                status_with_details(Code::NotFound, "NOT_FOUND", message, &[])
            }
            OrchestratorError::Precondition(_) => status_with_details(
                Code::FailedPrecondition,
                "FAILED_PRECONDITION",
                message,
                &[],
            ),
            OrchestratorError::Denied(_) => {
                status_with_details(Code::PermissionDenied, "PERMISSION_DENIED", message, &[])
            }
            OrchestratorError::Internal(_) => {
                status_with_details(Code::Internal, "INTERNAL", message, &[])
            }
        }
    }
}

/// The OrchestratorService implementation.
#[derive(Debug, Clone)]
pub struct Orchestrator {
    repo: JobRepo,
    catalog: Arc<Catalog>,
    limits: adas_jobs::JobLimits,
    secrets: adas_skill::resources::SecretAllowList,
}

impl Orchestrator {
    /// The conversation a new job continues: its id and its latest job, which
    /// must be the caller's to read and must have ended. `None` for an empty name.
    async fn continue_conversation(
        &self,
        principal: &adas_runtime::Principal,
        slag: &str,
        name: &str,
    ) -> Result<Option<(String, JobRecord)>, OrchestratorError> {
        if name.is_empty() {
            return Ok(None);
        }
        let id = name
            .strip_prefix(&format!("skills/{slag}/conversations/"))
            .filter(|id| adas_state::validate_slag_key(id).is_ok() && !id.contains('/'))
            .ok_or_else(|| OrchestratorError::InvalidField {
                field: "conversation",
                reason: format!("expected `skills/{slag}/conversations/{{id}}`"),
            })?;
        let not_found = || OrchestratorError::ConversationNotFound(name.to_owned());
        // No turn stored yet: the conversation is its first job's, named by it.
        let latest = self
            .repo
            .conversation_turn(&principal.tenant, slag, id)
            .await?;
        let first_turn = latest.is_none();
        let latest = latest.unwrap_or_else(|| id.to_owned());
        let previous = match self.repo.load(slag, &latest).await {
            Ok(stored) => stored.record,
            Err(JobError::NotFound { .. }) => return Err(not_found()),
            Err(error) => return Err(error.into()),
        };
        // A first job stays a conversation as long as a stored turn would.
        if first_turn
            && (previous.conversation != id
                || adas_jobs::parse_rfc3339_ms(&previous.created_at).is_none_or(|created| {
                    adas_state::now_ms().saturating_sub(created)
                        > adas_jobs::CONVERSATION_TTL.as_millis() as u64
                }))
        {
            return Err(not_found());
        }
        // Another principal's conversation does not exist for this caller.
        if principal.check_job(&previous).is_err() {
            return Err(not_found());
        }
        // A job handed to a human and claimed by a retry is over for its
        // conversation: it is cancelled as soon as its retry stands.
        if !previous.status.is_terminal() && adas_step::machine::retried_by(&previous).is_none() {
            return Err(OrchestratorError::Precondition(format!(
                "the conversation's job skills/{slag}/jobs/{latest} has not ended: answer or cancel it first"
            )));
        }
        Ok(Some((id.to_owned(), previous)))
    }

    /// A service over job storage and skills, with the configured quotas.
    pub fn new(
        repo: JobRepo,
        catalog: Arc<Catalog>,
        config: &adas_runtime::ServerConfig,
    ) -> Result<Self, adas_runtime::RuntimeError> {
        let secrets = config
            .secret_allow
            .iter()
            .map(|entry| adas_skill::resources::SecretAllowList::parse_entry(entry))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|error| {
                adas_runtime::RuntimeError::Startup(format!("--secret-allow {error}"))
            })?;
        Ok(Self {
            repo,
            catalog,
            limits: adas_jobs::JobLimits {
                per_principal: config.max_active_jobs_per_principal,
                per_tenant: config.max_active_jobs_per_tenant,
            },
            secrets: adas_skill::resources::SecretAllowList::new(secrets),
        })
    }

    /// The tonic service, with the configured message size limit in both directions.
    pub fn into_service(self, max_message_bytes: usize) -> OrchestratorServiceServer<Self> {
        OrchestratorServiceServer::new(self)
            // gzip both ways: a client may send compressed, and gets compressed answers when it offers.
            .accept_compressed(tonic::codec::CompressionEncoding::Gzip)
            .send_compressed(tonic::codec::CompressionEncoding::Gzip)
            .max_decoding_message_size(max_message_bytes)
            .max_encoding_message_size(max_message_bytes)
    }

    fn job_name(name: &str) -> Result<(String, String), OrchestratorError> {
        parse_job_name(name).map_err(|reason| OrchestratorError::InvalidField {
            field: "name",
            reason,
        })
    }
}

pub use background::spawn_workers;
