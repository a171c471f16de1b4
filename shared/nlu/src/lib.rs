//! adas-nlu: what the user wants — intent and typed entity detection over a
//! skill's examples, out-of-domain handling — and the plan (a DIA program) that
//! follows from it. Deterministic and offline; [`Planner`] is the seam where an
//! LLM planner plugs in.

pub mod detect;
pub mod entities;
pub mod plan;

pub use detect::{
    DEFAULT_ACCEPT_THRESHOLD, DEFAULT_MARGIN, DEFAULT_REJECT_THRESHOLD, Detection, OutOfDomain,
    detect, detect_as, score,
};
pub use entities::{Entity, Slot, Vocabulary};
pub use plan::{Planned, Planner, WorkflowPlanner, plan};
