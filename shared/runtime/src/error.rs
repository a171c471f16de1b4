//! Errors as `tonic::Status` with `google.rpc` details: every error carries an
//! `ErrorInfo{reason, domain}`, and invalid input carries `BadRequest` field
//! violations naming the field (and, for documents, the line and column).

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// The `ErrorInfo.domain` of every ADAS error.
pub const ERROR_DOMAIN: &str = "adas.dev";

/// One invalid field of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldViolation {
    /// Path of the field, e.g. `resources.codebase` or `tools[2].inputs[0].type`.
    pub field: String,
    /// What is wrong with it.
    pub description: String,
}

impl FieldViolation {
    /// A violation of `field`.
    pub fn new(field: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            description: description.into(),
        }
    }
}

/// Builds a status with `ErrorInfo` and, when given, `BadRequest` field violations.
pub fn status_with_details(
    code: Code,
    reason: &str,
    message: impl Into<String>,
    violations: &[FieldViolation],
) -> Status {
    let mut details = ErrorDetails::with_error_info(reason, ERROR_DOMAIN, []);
    for violation in violations {
        details.add_bad_request_violation(violation.field.clone(), violation.description.clone());
    }
    Status::with_error_details(code, message, details)
}

/// Failures of the runtime itself (binding, serving).
#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    /// The listen address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: std::net::SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The server stopped with a transport error.
    #[error("server failed: {0}")]
    Serve(#[from] tonic::transport::Error),
    /// Reflection could not be built from the descriptor set.
    #[error("cannot build server reflection: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    /// A dependency (state store, …) could not be set up.
    #[error("startup failed: {0}")]
    Startup(String),
    /// A peer address is not a valid URI.
    #[error("invalid peer address `{addr}`: {reason}")]
    PeerAddress {
        /// The address given.
        addr: String,
        /// Why it is invalid.
        reason: String,
    },
}
