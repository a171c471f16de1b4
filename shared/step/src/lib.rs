//! adas-step: what happens to a job next, with no I/O — no store, no
//! protobuf, no network. It holds the job record ([`record`]), what its
//! event log says ([`Event`], its kind derived), why it waits
//! ([`PauseReason`]), the one shape of a write ([`Transition`]) and the pure
//! decisions of a step (the guards before a call). The worker loads a job,
//! asks these functions what follows, performs the one effect they name and
//! saves the transition; tests of a decision need no store.

pub mod access;
pub mod answers;
pub mod ask;
pub mod certainty;
pub mod effect;
pub mod event;
pub mod finish;
pub mod guard;
pub mod machine;
mod pause;
pub mod picked;
pub mod plan;
pub mod record;
pub mod reply;
pub mod time;
mod transition;
pub mod work;

pub use event::{
    Cancellation, Completion, Event, EventKind, Failure, GrantDenial, PlanStage, Planned,
    Resumption,
};
pub use pause::{PauseDetail, PauseReason};
pub use record::*;
pub use time::{now, now_ms, parse_rfc3339_ms, rfc3339};
pub use transition::{Change, Transition};

/// ARCHITECTURE.md, whose tables the machines' tests hold to the code's.
#[cfg(test)]
pub(crate) fn architecture() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../ARCHITECTURE.md"
    ))
    .expect("ARCHITECTURE.md")
}
