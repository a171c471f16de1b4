//! Diagnostics: `{severity, path, line, column, message, code}`, printed as
//! `file:line:col: severity: message`.

use std::fmt;

/// A 1-based source position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Position {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub column: u32,
}

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The document cannot be used.
    Error,
    /// The document is used; something in it is ignored or suspicious.
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(match self {
            Self::Error => "error",
            Self::Warning => "warning",
        })
    }
}

/// Stable machine-readable diagnostic codes.
pub mod codes {
    /// YAML or JSON that no parser accepts.
    pub const SYNTAX: &str = "syntax";
    /// Input over the size or node budget.
    pub const TOO_LARGE: &str = "too_large";
    /// Nesting over the depth budget.
    pub const TOO_DEEP: &str = "too_deep";
    /// A key given twice in one mapping.
    pub const DUPLICATE_KEY: &str = "duplicate_key";
    /// A value of the wrong shape (a list where a string belongs, ...).
    pub const INVALID_TYPE: &str = "invalid_type";
    /// A value outside its allowed set.
    pub const INVALID_VALUE: &str = "invalid_value";
    /// A required field is absent.
    pub const MISSING_FIELD: &str = "missing_field";
    /// Two intents with one id.
    pub const DUPLICATE_INTENT: &str = "duplicate_intent_id";
    /// Two tools with one name or id.
    pub const DUPLICATE_TOOL: &str = "duplicate_tool";
    /// A workflow step or approval names a tool the skill does not have.
    pub const UNKNOWN_TOOL: &str = "unknown_tool";
    /// A condition outside the condition grammar.
    pub const INVALID_CONDITION: &str = "invalid_condition";
    /// A slag or id that is not a safe name.
    pub const UNSAFE_NAME: &str = "unsafe_name";
    /// A field the runtime keeps but does not use.
    pub const UNUSED_FIELD: &str = "unused_field";
    /// The Skill Builder's own bookkeeping (`created_at`, `*_resolved`,
    /// `mock_status`, …): kept, never a clause of the skill.
    pub const BUILDER_FIELD: &str = "builder_field";
    /// A workflow trigger naming no intent.
    pub const UNKNOWN_INTENT: &str = "unknown_intent";
    /// A `${NAME}` the catalog has no value for, or an unterminated `${`.
    pub const UNKNOWN_VARIABLE: &str = "unknown_variable";
    /// A text guardrail past the number kept for prompts.
    pub const GUARDRAIL_DROPPED: &str = "guardrail_dropped";
    /// The skill's `mcp_server` is refused by the operator's egress policy.
    pub const EGRESS_DENIED: &str = "egress_denied";
    /// An on-disk edit that does not validate; the last good version is served.
    pub const STALE_EDIT: &str = "stale_edit";
    /// An approval requirement with no approver role, or with a platform role
    /// (`operator`, `admin`, `service`) that cannot keep four eyes apart.
    pub const APPROVER_REQUIRED: &str = "approver_required";
    /// A tool's source names a connection the skill does not list, or the
    /// deployment maps no server to it.
    pub const UNKNOWN_CONNECTION: &str = "unknown_connection";
    /// A solution names a skill that is not one of its `skills`.
    pub const UNKNOWN_SKILL: &str = "unknown_skill";
    /// A solution consumes a grant no skill of it issues.
    pub const UNKNOWN_GRANT: &str = "unknown_grant";
}

/// One finding about a skill document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Path of the field, e.g. `tools[2].inputs[0].type`; empty for the whole document.
    pub path: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// What is wrong, lowercase.
    pub message: String,
    /// One of [`codes`].
    pub code: &'static str,
}

impl Diagnostic {
    /// An error at `path`.
    pub fn error(path: &str, at: Position, code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, path, at, code, message)
    }

    /// A warning at `path`.
    pub fn warning(
        path: &str,
        at: Position,
        code: &'static str,
        message: impl Into<String>,
    ) -> Self {
        Self::new(Severity::Warning, path, at, code, message)
    }

    fn new(
        severity: Severity,
        path: &str,
        at: Position,
        code: &'static str,
        message: impl Into<String>,
    ) -> Self {
        Self {
            severity,
            path: path.to_owned(),
            line: at.line,
            column: at.column,
            message: message.into(),
            code,
        }
    }

    /// Whether it is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Where a reader finds it (see [`reading_order`]).
    pub fn reading_order(&self) -> (u8, u8, u32, u32) {
        let severity = match self.severity {
            Severity::Error => 0,
            Severity::Warning => 1,
        };
        (severity, reading_rank(self.code), self.line, self.column)
    }

    /// `file:line:col: severity: message`.
    pub fn render(&self, file: &str) -> String {
        let location = if self.path.is_empty() {
            String::new()
        } else {
            format!(" (at {})", self.path)
        };
        format!(
            "{file}:{}:{}: {}: {}{location}",
            self.line, self.column, self.severity, self.message
        )
    }
}

/// How far down a reader should find a diagnostic of `code`, after its
/// severity: what asks for a fix first, then clauses kept but not used, then
/// the Builder's own bookkeeping — so the one warning a person must act on
/// is never the last of twenty.
pub fn reading_rank(code: &str) -> u8 {
    match code {
        codes::UNUSED_FIELD => 1,
        codes::BUILDER_FIELD => 2,
        _ => 0,
    }
}
