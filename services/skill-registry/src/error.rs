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
    /// A platform failure.
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<RegistryError> for Status {
    fn from(error: RegistryError) -> Self {
        let message = error.to_string();
        match error {
            RegistryError::Skill(SkillError::UnsafeSlag(slag)) => status_with_details(
                Code::InvalidArgument,
                "INVALID_SLAG",
                message,
                &[FieldViolation::new(
                    "name",
                    format!("`{slag}` is not a safe slag"),
                )],
            ),
            RegistryError::Skill(SkillError::Invalid { slag, diagnostics }) => {
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
                    Code::InvalidArgument,
                    "SKILL_INVALID",
                    format!("skill `{slag}` has {} error(s){first}", diagnostics.len()),
                    &violations,
                )
            }
            RegistryError::Skill(SkillError::UnknownTemplate(template)) => status_with_details(
                Code::NotFound,
                "TEMPLATE_NOT_FOUND",
                message,
                &[FieldViolation::new(
                    "template",
                    format!("no template `{template}`"),
                )],
            ),
            RegistryError::Skill(SkillError::EtagMismatch { .. }) => status_with_details(
                Code::Aborted,
                "ETAG_MISMATCH",
                message,
                &[FieldViolation::new(
                    "etag",
                    "the stored skill changed; read it again",
                )],
            ),
            RegistryError::Skill(SkillError::Io { .. }) => {
                status_with_details(Code::Internal, "STORAGE", message, &[])
            }
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
            RegistryError::Internal(_) => {
                status_with_details(Code::Internal, "INTERNAL", message, &[])
            }
        }
    }
}
