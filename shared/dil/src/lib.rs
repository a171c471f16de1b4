//! adas-dil: the `.dil` spec format, its deterministic verifier, and the run
//! engine behind `dil agent` (cli/dil). GateService can reuse the verifier.
//!
#![doc = include_str!("../DIL.md")]

pub mod run;
pub mod spec;
pub mod verify;

pub use run::{FinalState, RunOptions, UnknownClass, run};
pub use spec::{Predicate, Spec, SpecError, Validation, parse, unsupported_tokens};
pub use verify::{Evidence, Verdict, verify};

/// The format, run and artifact documentation, for `dil --help`.
pub const DOCUMENTATION: &str = include_str!("../DIL.md");
