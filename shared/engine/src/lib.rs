//! adas-engine: the I/O of a step, shared by the orchestrator's local engine
//! and the DalAgent service — the model planner ([`model`]), the model that
//! answers a plan's `QUERY_*` questions ([`query`]) and the DAL-Agent's
//! driver ([`dal`]: it loads a job and its skill, finds the next call, asks
//! for what is missing, takes answers and sweeps expired asks), and what a
//! model may spend on a service's request for a job ([`budget`]). What follows
//! from each result is decided in `adas-step`, which holds no I/O; what is
//! stored goes through `adas-jobs`.

pub mod budget;
pub mod dal;
mod expiry;
pub mod model;
pub mod query;
mod schema;

pub use model::ModelPlanner;

/// The planner the configuration asks for: a model's when models are
/// configured (falling back to the deterministic one call by call), else the
/// deterministic one.
pub fn planner(llm: Option<adas_llm::Llm>) -> std::sync::Arc<dyn adas_nlu::Planner> {
    match llm {
        Some(llm) => std::sync::Arc::new(ModelPlanner::new(llm)),
        None => std::sync::Arc::new(adas_nlu::WorkflowPlanner),
    }
}
