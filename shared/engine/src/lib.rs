//! adas-engine: the I/O of a step, shared by the orchestrator's worker and
//! the DalAgent service. [`perform`] performs the effects the step's state
//! machine (`adas_step::work`) names, one at a time, and answers with what
//! was learned: through an [`Engine`] ([`engines`]: [`Local`] in this
//! process, [`Remote`] behind IntentService, DalAgentService and
//! GateService) for the planner, the next step, the gates and the polisher,
//! and itself for the tool call's own I/O (vetting, rechecking, the call,
//! the focus cache), each call stepping out of the worker's budget
//! ([`room`]). Beneath them: the model planner ([`model`]), the model that
//! answers a plan's `QUERY_*` questions ([`query`]), the DAL-Agent's driver
//! ([`dal`]: it loads a job and its skill, finds the next call, asks for
//! what is missing, takes answers and sweeps expired asks), and what a
//! model may spend on a service's request for a job ([`budget`]). What
//! follows from each result is decided in `adas-step`, which holds no I/O;
//! what is stored goes through `adas-jobs`; [`WorkError`] says why a step
//! stopped early and whether trying again may help.

pub mod budget;
pub mod dal;
pub mod engines;
mod error;
mod expiry;
mod kept;
pub mod model;
pub mod perform;
pub mod query;
pub mod room;
mod schema;

pub use engines::{Engine, Local, Remote};
pub use error::WorkError;
pub use model::ModelPlanner;
pub use perform::Performer;

/// The planner the configuration asks for: a model's when models are
/// configured (falling back to the deterministic one call by call), else the
/// deterministic one.
pub fn planner(llm: Option<adas_llm::Llm>) -> std::sync::Arc<dyn adas_nlu::Planner> {
    match llm {
        Some(llm) => std::sync::Arc::new(ModelPlanner::new(llm)),
        None => std::sync::Arc::new(adas_nlu::WorkflowPlanner),
    }
}
