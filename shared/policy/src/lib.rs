//! adas-policy: what may happen and what may be said (spec 004 §4.3–4.5).
//!
//! - [`gate`]: the pre-tool gate — ALLOW, DENY with the rule's text, or
//!   REQUIRE_APPROVAL with the approver role — and approvals bound to the exact
//!   call (tool + argument digest + job), recorded with who and when.
//! - [`finalize`]: the finalization gate (goal coverage, guardrails, required
//!   output fields; reason and action codes of spec 004 §4.4) and its retry policy.
//! - the reply polisher (`adas_step::reply`, deterministic; [`llm`] for a model): states the results in the skill's voice and
//!   never adds facts.
//! - [`llm`]: the seams where an LLM may replace each deterministic default.

pub mod finalize;
pub mod gate;
pub mod llm;
