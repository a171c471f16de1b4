//! An operational skill: a document that loaded without errors, with its
//! typed model, compiled policy and engine settings — what every service
//! runs. The catalog keeps them; [`OperationalSkill::from_source`] makes one
//! from text alone (tests, tools).

use std::time::SystemTime;

use serde_json::Value;

use crate::compile::CompiledPolicy;
use crate::diagnostics::Diagnostic;
use crate::document::Format;
use crate::engine::EngineConfig;
use crate::model::Skill;
use crate::validate::{Loaded, load};

/// An operational skill as served.
#[derive(Debug, Clone)]
pub struct OperationalSkill {
    /// Its slag.
    pub slag: String,
    /// The document text as stored.
    pub source: String,
    /// The stored text's format.
    pub format: Format,
    /// The document as JSON, unknown fields included.
    pub document: Value,
    /// The typed skill.
    pub skill: Skill,
    /// The compiled policy.
    pub compiled: CompiledPolicy,
    /// Its expressions (grant paths, conditions), parsed once here.
    pub parsed: std::sync::Arc<crate::parsed::Parsed>,
    /// Resolved engine settings.
    pub engine: EngineConfig,
    /// Warnings (including a refused on-disk edit).
    pub warnings: Vec<Diagnostic>,
    /// The template it was bootstrapped from, if known.
    pub template: Option<String>,
    /// Content digest of `source`.
    pub etag: String,
    /// File modification time.
    pub modified: SystemTime,
}

/// Turns a loaded document into an operational skill, or returns its errors.
pub fn build(
    loaded: Loaded,
    slag: &str,
    source: &str,
    template: Option<String>,
    modified: SystemTime,
) -> Result<OperationalSkill, Vec<Diagnostic>> {
    let format = Format::detect(None, source);
    if loaded.has_errors() {
        return Err(loaded
            .diagnostics
            .into_iter()
            .filter(Diagnostic::is_error)
            .collect());
    }
    let (Some(document), Some(skill), Some(compiled), Some(engine)) = (
        loaded.document,
        loaded.skill,
        loaded.compiled,
        loaded.engine,
    ) else {
        return Err(Vec::new());
    };
    Ok(OperationalSkill {
        slag: slag.to_owned(),
        source: source.to_owned(),
        format,
        document: document.value,
        parsed: std::sync::Arc::new(crate::parsed::Parsed::of(&skill, &compiled)),
        skill,
        compiled,
        engine,
        warnings: loaded.diagnostics,
        template,
        etag: etag_of(source),
        modified,
    })
}

/// A content digest (FNV-1a 64, hex): cheap and stable across processes.
pub fn etag_of(source: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in source.as_bytes() {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

impl OperationalSkill {
    /// `source` as an operational skill of `slag`, loaded as it is (no
    /// `${NAME}` expansion: the catalog's `Vars` are the deployment's); its
    /// errors when it has any.
    pub fn from_source(slag: &str, source: &str) -> Result<Self, Vec<Diagnostic>> {
        build(
            load(source, Format::detect(None, source)),
            slag,
            source,
            None,
            SystemTime::now(),
        )
    }
}
