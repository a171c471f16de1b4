//! adas-prompt: what a model is told and what its answers cost, with no I/O —
//! the fences that keep untrusted text data ([`prompt`]), a job's model
//! [`Usage`] and who made a decision ([`Decider`]). The pure crates (the step's
//! decisions, the deterministic planner) use these without reaching a model
//! client; `adas-llm` re-exports them beside the client.

mod decider;
pub mod prompt;
mod usage;

pub use decider::Decider;
pub use usage::Usage;
