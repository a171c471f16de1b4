//! The effects a step performs between decisions, in domain terms: what is
//! asked of the planner, the finalization judge and the polisher, and what
//! they answer. The orchestrator's step engine performs them in process or
//! behind the services (converting to the wire only there).

use serde_json::{Map, Value as Json};

pub use adas_nlu::Planned;
pub use adas_prompt::Decider;

/// What the planner is asked for the job (its goal, context, memory and
/// calls come from the record).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlanAsk {
    /// The intent to plan for (a confident detection or the user's choice);
    /// `None`: detect it.
    pub intent_id: Option<String>,
    /// Only the next step after the calls made (RV2, a replan).
    pub next_only: bool,
    /// Why the last draft failed finalization, for a replan.
    pub feedback: Option<String>,
}

/// What the finalization judge is asked to judge.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FinalizeAsk {
    /// The draft reply.
    pub reply: String,
    /// Collected results (tool outputs, context) by field.
    pub results: Map<String, Json>,
    /// The intent the job was planned for.
    pub intent_id: String,
    /// Tools that ran successfully.
    pub succeeded_tools: Vec<String>,
}

/// The finalization judge's verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    /// Whether the reply may be sent.
    pub passed: bool,
    /// True when the gate is disabled.
    pub skipped: bool,
    /// Share of checks passed, in [0, 1].
    pub score: f64,
    /// The problems, in words.
    pub reasons: Vec<String>,
    /// Absent output contract fields.
    pub missing_fields: Vec<String>,
    /// Who judged.
    pub decider: Decider,
}

/// What the polisher is asked to say in the skill's persona.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PolishAsk {
    /// The draft reply.
    pub reply: String,
    /// The results the reply may state.
    pub results: Map<String, Json>,
    /// Whether the user waited on an ask (the reply may say thanks).
    pub user_waited: bool,
}

/// The polished reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Polished {
    /// The text.
    pub text: String,
    /// Who polished.
    pub decider: Decider,
}
