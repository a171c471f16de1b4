//! The skill crate's one error type.

use std::path::Path;

use crate::diagnostics::Diagnostic;

/// Errors of skill operations.
#[derive(Debug, thiserror::Error)]
pub enum SkillError {
    /// The slag is not a safe name.
    #[error(
        "`{0}` is not a safe slag: 1-64 letters, digits, `-`, `_`, `.`, not starting with `.` or `-`, no `..`"
    )]
    UnsafeSlag(String),
    /// The document has errors.
    #[error("skill `{slag}` is invalid: {} error(s)", diagnostics.len())]
    Invalid {
        /// The slag.
        slag: String,
        /// The errors.
        diagnostics: Vec<Diagnostic>,
    },
    /// No template by that name.
    #[error("no template `{0}`")]
    UnknownTemplate(String),
    /// The stored skill changed since the caller read it.
    #[error("skill `{slag}` changed since it was read (etag mismatch)")]
    EtagMismatch {
        /// The slag.
        slag: String,
    },
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

impl SkillError {
    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io {
            path: path.display().to_string(),
            source,
        }
    }
}
