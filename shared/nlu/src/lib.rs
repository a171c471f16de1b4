//! adas-nlu: what the user wants — intent and typed entity detection over a
//! skill's examples, out-of-domain handling — and the plan (a DIA program) that
//! follows from it. Deterministic and offline by default; [`Planner`] is the
//! seam where a model plugs in (`adas-engine`'s model planner, under the same
//! confidence and evidence rules). No model client, no store: what a model
//! cost is `adas-prompt`'s plain data.

pub mod answered;
pub mod detect;
pub mod entities;
mod kept;
pub mod lexicon;
pub mod plan;
pub mod values;
pub mod written;

/// Maps and sets keyed by words. Detection hashes hundreds of thousands of
/// words for a long message; SipHash was a fifth of its time. foldhash is
/// seeded per process, and a message's length is bounded at the edge, so a
/// crafted message cannot make these maps much slower.
pub(crate) type HashMap<K, V> = foldhash::HashMap<K, V>;
/// See [`HashMap`].
pub(crate) type HashSet<T> = foldhash::HashSet<T>;

pub use detect::{
    DEFAULT_MARGIN, Detection, OutOfDomain, detect, detect_as, is_confident, raw_thresholds, says,
    score, thresholds,
};
pub use entities::{Entity, Slot, Vocabulary};
pub use plan::{
    DETERMINISTIC, PlanInput, Planned, Planner, Step, WorkflowPlanner, plan, plan_input,
};

/// `planner`'s answer for `input`, its program checked as the text anyone
/// will run: whatever produced it, a plan must be valid DIA before it runs.
pub async fn plan_checked(
    planner: &dyn Planner,
    skill: &adas_skill::model::Skill,
    input: &PlanInput<'_>,
) -> Result<Planned, adas_dia::ParseError> {
    let mut planned = planner.plan(skill, input).await;
    if let Some(program) = &planned.program {
        planned.program = Some(adas_dia::parse(&program.to_string())?);
    }
    Ok(planned)
}

/// Loads what the first detection would (the lexicon, parsed once per
/// process): a process that serves plans calls it at startup, off the async
/// threads, so its first job does not pay for it.
pub fn warm() {
    let _ = lexicon::lexicon();
}
