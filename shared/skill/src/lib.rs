//! adas-skill: the DAL skill model and everything the runtime does with a skill
//! document before a job runs — load YAML or JSON with bounded input and
//! line:col diagnostics, validate, compile the policy (guardrails, tool
//! permissions, approvals, workflow sub-goals), bind resources and render the
//! persona, and keep operational skills per slag on disk, bootstrapped from
//! templates. No gRPC here: SkillRegistryService converts at its edge.

pub mod access;
mod builder;
pub mod compile;
pub mod condition;
pub mod deviation;
pub mod diagnostics;
pub mod document;
pub mod engine;
mod error;
pub mod filter;
pub mod grammar;
pub mod model;
pub mod operational;
pub mod parsed;
pub mod resources;
pub mod slag;
pub mod solution;
pub mod trigger;
pub mod validate;
pub mod vars;

pub use diagnostics::{Diagnostic, Severity};
pub use document::Format;
pub use error::SkillError;
pub use operational::{OperationalSkill, etag_of};
pub use validate::{Loaded, load, load_detected};
pub use vars::Vars;

/// The JSON Schema (draft 2020-12) of a skill document, for editors'
/// completion and checks (`adas skill schema`). It says the shape only:
/// what a field means and whether the runtime accepts its value is
/// [`validate::load`]'s, with line:col.
pub fn json_schema() -> serde_json::Value {
    let mut schema =
        serde_json::to_value(schemars::schema_for!(model::Skill)).expect("a schema is JSON");
    if let Some(object) = schema.as_object_mut() {
        object.insert("title".into(), "ADAS skill (DAL)".into());
        // A document may carry fields the runtime keeps but does not use
        // (each a warning), so unknown fields are not refused here either.
        object.remove("additionalProperties");
    }
    schema
}
