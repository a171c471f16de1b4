//! adas-nlu: what the user wants — intent and typed entity detection over a
//! skill's examples, out-of-domain handling — and the plan (a DIA program) that
//! follows from it. Deterministic and offline; [`Planner`] is the seam where an
//! LLM planner plugs in.

pub mod detect;
pub mod entities;
pub mod plan;

pub use detect::{DEFAULT_REJECT_THRESHOLD, Detection, OutOfDomain, detect};
pub use entities::Entity;
pub use plan::{Planned, Planner, WorkflowPlanner, plan};
