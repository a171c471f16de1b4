//! adas-dia: DIA, the plan language — parser, printer, resumable resolver,
//! idempotent evaluator and the missing-input hook (spec 003). No gRPC here; it is
//! exact, bounded and panic-free on hostile input, because plans may come from an LLM.
//!
//! # Grammar (EBNF)
//!
//! ```text
//! program   = [ element { "," element } ] ;              (* empty input: empty program *)
//! element   = value ;                                    (* calls, special forms, literals, lists *)
//! call      = name "(" [ arg { "," arg } ] ")" | special ;
//! arg       = ident "=" value ;                          (* each name once per call *)
//! value     = literal | list | call ;                    (* a call's return value feeds its slot *)
//! list      = "[" [ value { "," value } ] "]" ;          (* a call's result takes its item's place *)
//! literal   = integer | float | string | "true" | "false" ;
//! special   = "ASK" "(" string ")"
//!           | "QUERY_FILL" "(" string ")"
//!           | "QUERY_USER" "(" string ")"
//!           | "QUERY_GATHER" "(" string "," string ")"
//!           | "F" "(" string ")"
//!           | "SAME_AS_PREVIOUS_INTENT" "(" ")"
//!           | "PROPAGATE_SLOT" "(" arg { "," arg } ")"
//!           | "ABORT" "(" ")"
//!           | "ABORT_WITH_NEW_INTENTS" "(" "[" [ call { "," call } ] "]" ")" ;
//! name      = ident { "." ident } ;                      (* tools may be dotted: sys.echo *)
//! ident     = ( letter | "_" ) { letter | digit | "_" } ;
//! integer   = [ "-" | "+" ] digit { digit } ;            (* 64-bit *)
//! float     = integer "." digit { digit } [ exponent ] | integer exponent ;
//! string    = '"' { char | escape } '"' | "'" { char | escape } "'" ;
//! escape    = "\" ( '"' | "'" | "\" | "n" | "r" | "t" | "0" ) | "\u{" hex { hex } "}" ;
//! ```
//!
//! Keywords are exact and case-sensitive. Input is at most 1 MiB and nesting at most
//! 64 levels; errors carry byte offset, line, column, what was expected and found.
//!
//! # Deliberate differences from the Python reference
//!
//! The reference splits on commas without a tokenizer. Every program its own
//! parser tests accept parses here to the same tree — top-level literals and lists
//! (`123`, `'hello'`, `[1, 2]`, the reply `5, PROPAGATE_SLOT(length=12)`) and calls as
//! list items (`add(v=[1, negate(v=2)])`) included — with these principled changes:
//! - literals are typed: the reference's `Value("1")` is `Int(1)` here, `Value("hello")`
//!   is `Str("hello")`; `true`/`false` are booleans;
//! - a nested call in argument position is a plain `Intent` node (the reference wraps it
//!   in `ReturnValue`): its return value feeds the slot;
//! - strings have escapes and either quote; `"a" "b"` is an error (the reference glues
//!   it into one string), and `foo bar(x=1)` is an error (the reference calls `foo bar`);
//! - the printer round-trips: the reference wraps the root in brackets that do not
//!   re-parse and doubles escapes;
//! - an `ABORT()` that removes a call does not skip the call after it (a reference bug);
//! - a plan-level `ABORT()` aborts resolution (answers are where aborts usually come from).

//!
//! # Resolving and evaluating
//!
//! A [`Plan`] (tree + [`ResolutionContext`]) is the unit stored in a job record.
//! [`Resolver::resolve`] stops at the first slot that needs the user and records it
//! as pending; [`Resolver::answer`] fills it (typed, or a refused answer changes
//! nothing). [`next_call`]/[`complete_call`] step through the calls innermost-first
//! so a caller can gate and persist each one; [`evaluate`] runs them all.
//! [`insert_missing_asks`] adds an `ASK` for every required input a call lacks.
//!
//! # Fuzzing and benchmark
//!
//! ```text
//! cargo install cargo-fuzz
//! cd shared/dia/fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run parse --sanitizer none -- -max_total_time=60
//! cargo run --release -p adas-dia --example bench   # parse + resolve + evaluate, 50-call plan
//! ```

mod amount;
mod ast;
pub mod digest;
mod eval;
mod hook;
mod parser;
mod resolve;

pub use amount::parse_amount;
pub use ast::{Arg, Intent, Literal, Node, Program};
pub use digest::call_digest;
pub use eval::{
    EvalError, Evaluation, EvaluationStatus, NextCall, ToolError, ToolRunner, complete_call,
    evaluate, next_call,
};
pub use hook::{InsertedAsk, default_prompt, fill_known_asks, insert_missing_asks};
pub use parser::{MAX_DEPTH, MAX_INPUT_BYTES, ParseError, parse, parse_value};
pub use resolve::{
    AnswerError, InputSpec, Interaction, InteractionKind, NoQuerySource, Outcome, Plan, QueryError,
    QuerySource, ResolutionContext, Resolver, Schemas, SlotPath, StaticQuerySource, Step,
    ValueKind, asks_of_call, convert, node_at, node_at_mut,
};
