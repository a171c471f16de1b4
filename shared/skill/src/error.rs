//! The skill crate's one error type.

use std::path::Path;

use crate::diagnostics::Diagnostic;

/// Errors of skill operations.
#[derive(Debug, thiserror::Error)]
pub enum SkillError {
    /// The slag breaks the slag rule.
    #[error("`{0}` is not a valid slag: {rule}", rule = crate::slag::SLAG_RULE)]
    UnsafeSlag(String),
    /// No operational skill and no template for the slag.
    #[error("no skill `{slag}`: known skills [{}], templates [{}]", known.join(", "), templates.join(", "))]
    UnknownSkill {
        /// The slag asked for.
        slag: String,
        /// Slags with an operational skill.
        known: Vec<String>,
        /// Template slags a skill can be bootstrapped from.
        templates: Vec<String>,
    },
    /// The templates directory is missing or holds no template.
    #[error("templates dir {path}: {reason}")]
    Templates {
        /// The directory.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
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
    /// The deployment's skill store (see `Catalog::with_store`) could not be
    /// read or written.
    #[error("skill store: {0}")]
    Store(String),
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
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io {
            path: path.display().to_string(),
            source,
        }
    }
}
