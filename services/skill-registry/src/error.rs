//! The service's one error type, mapped to `Status` once and exhaustively.

use adas_runtime::{FieldViolation, status_with_details};
use adas_skill::SkillError;
use adas_skill::resources::ResourceProblem;
use adas_tools::ToolsError;
use tonic::{Code, Status};

/// Errors of SkillRegistryService.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// A skill operation failed.
    #[error(transparent)]
    Skill(#[from] SkillError),
    /// The caller's own document (PutSkill) has errors: their argument is wrong,
    /// where a stored skill that does not validate is a failed precondition.
    #[error("skill `{slag}` is invalid")]
    Document {
        /// The slag.
        slag: String,
        /// The errors.
        diagnostics: Vec<adas_skill::Diagnostic>,
    },
    /// A request field is invalid.
    #[error("{field}: {reason}")]
    InvalidField {
        /// The field.
        field: &'static str,
        /// Why.
        reason: String,
    },
    /// Resource bindings do not fit the skill's declarations.
    #[error("resource bindings are invalid")]
    Resources(Vec<ResourceProblem>),
    /// Tools could not be resolved.
    #[error(transparent)]
    Tools(#[from] ToolsError),
    /// No connector by that id for the tenant.
    #[error("connector `{0}` not found")]
    ConnectorNotFound(String),
    /// No skill or connector of the caller's tenant uses that server.
    #[error("{0}")]
    ServerNotFound(String),
    /// The egress policy refuses a connector's server.
    #[error("{0}")]
    EgressDenied(String),
    /// Replacing an existing skill without its current etag.
    #[error("skills/{0} exists: replacing it takes its current etag (GetSkill)")]
    EtagRequired(String),
    /// A skill that consumes a security contract of a solution, deleted or
    /// put outside PutSkill (the message says which and what to do).
    #[error("{0}")]
    ContractConsumer(String),
    /// A solution changed since the etag the caller read.
    #[error("solutions/{id} changed since etag {etag}")]
    SolutionEtagMismatch {
        /// The solution.
        id: String,
        /// The etag the caller sent.
        etag: String,
    },
    /// No such solution (or not at the etag the caller sent).
    #[error("{0}")]
    SolutionNotFound(String),
    /// A platform failure.
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<RegistryError> for Status {
    fn from(error: RegistryError) -> Self {
        let message = error.to_string();
        match error {
            RegistryError::Document { slag, diagnostics } => {
                adas_wire::diagnostics_status(Code::InvalidArgument, &slag, &diagnostics)
            }
            RegistryError::Skill(error) => adas_wire::skill_status(&error, "name"),
            RegistryError::InvalidField { field, reason } => status_with_details(
                Code::InvalidArgument,
                "INVALID_FIELD",
                message,
                &[FieldViolation::new(field, reason)],
            ),
            RegistryError::Resources(problems) => {
                let violations: Vec<FieldViolation> = problems
                    .iter()
                    .map(|problem| {
                        FieldViolation::new(
                            format!("resources.{}", problem.name),
                            problem.message.clone(),
                        )
                    })
                    .collect();
                let summary: Vec<&str> = problems
                    .iter()
                    .map(|problem| problem.message.as_str())
                    .collect();
                status_with_details(
                    Code::InvalidArgument,
                    "RESOURCES_INVALID",
                    summary.join("; "),
                    &violations,
                )
            }
            RegistryError::Tools(ToolsError::Unavailable { uri, .. }) => status_with_details(
                Code::Unavailable,
                "MCP_SERVER_UNAVAILABLE",
                message,
                &[FieldViolation::new(
                    "mcp_server",
                    format!("{uri} is unreachable and no cached tool list exists"),
                )],
            ),
            RegistryError::Tools(ToolsError::Store(error)) => {
                let code = if error.is_unavailable() {
                    Code::Unavailable
                } else {
                    Code::Internal
                };
                status_with_details(code, "STATE_STORE", message, &[])
            }
            RegistryError::ConnectorNotFound(_) => {
                status_with_details(Code::NotFound, "CONNECTOR_NOT_FOUND", message, &[])
            }
            RegistryError::ServerNotFound(_) => {
                status_with_details(Code::NotFound, "SERVER_NOT_FOUND", message, &[])
            }
            RegistryError::EgressDenied(reason) => status_with_details(
                Code::PermissionDenied,
                "EGRESS_DENIED",
                message,
                &[FieldViolation::new("connector.url", reason)],
            ),
            RegistryError::EtagRequired(_) => status_with_details(
                Code::FailedPrecondition,
                "ETAG_REQUIRED",
                message,
                &[FieldViolation::new(
                    "etag",
                    "required to replace an existing skill",
                )],
            ),
            RegistryError::ContractConsumer(_) => {
                status_with_details(Code::FailedPrecondition, "CONTRACT_CONSUMER", message, &[])
            }
            RegistryError::SolutionEtagMismatch { .. } => {
                status_with_details(Code::Aborted, "ETAG_MISMATCH", message, &[])
            }
            RegistryError::SolutionNotFound(_) => {
                status_with_details(Code::NotFound, "SOLUTION_NOT_FOUND", message, &[])
            }
            RegistryError::Internal(_) => {
                status_with_details(Code::Internal, "INTERNAL", message, &[])
            }
        }
    }
}
