//! The worker's state machine: what a job does next, as one pure
//! [`apply`] of what the worker learned ([`Input`]) to its copy of the job.
//! Each answer is a [`Step`]: the transition to save (held to ride with the
//! next write, or written now) and the one [`Effect`] to perform — plan,
//! resolve the next call, vet the tool, the gate, a recheck, the call, keep
//! a large output, read the outputs, judge, polish. The worker (an
//! interpreter in `services/orchestrator/src/worker.rs`) saves, performs,
//! and applies what the effect answered, until a step names no effect.
//!
//! The order of the decisions is this file's: the grants and the access
//! policy, the budget, loops and escalation conditions before anything is
//! asked of the tool's server; a call whose end is unknown, certainty, the
//! gate and the accepted definition before the call; the result's grants
//! and filters before anything else reads it.

use adas_dia::{SlotPath, ToolError};
use adas_skill::OperationalSkill;
use serde_json::{Map, Value as Json, json};

use crate::effect::{Judged, PlanAsk, Planned, PolishAsk, Polished};
use crate::finish::Drafted;
use crate::guard::{self, GateWord};
use crate::plan::Planning;
use crate::{
    CallRecord, Cancellation, Event, Failure, JobRecord, JobResult, OutcomeClass, StartedCall,
    Transition, Waiting, access, certainty, finish, now,
};

/// A tool output larger than this (as JSON) is kept in the focus cache and
/// the job record, its event and its archive hold a reference instead.
pub const INLINE_OUTPUT_MAX_BYTES: usize = 8 * 1024;

/// What the plan asks next (the DAL-Agent's answer).
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// Run this call (gate it first).
    Call {
        /// Tool.
        tool: String,
        /// Concrete arguments.
        args: Map<String, Json>,
        /// Where the call is in the plan.
        path: SlotPath,
    },
    /// The job paused (the DAL-Agent wrote the ask).
    Waiting(Box<Waiting>),
    /// Every call ran; the last value.
    Done(Option<Json>),
    /// The plan was aborted by the user.
    Aborted(String),
}

/// A call on its way through the checks, with what they found so far.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The tool.
    pub tool: String,
    /// Its arguments (grants injected).
    pub args: Map<String, Json>,
    /// SHA-256 of the tool and its canonical arguments.
    pub digest: String,
    /// Where the call sits in the plan.
    pub path: SlotPath,
    /// The idempotency key it is sent with.
    pub key: String,
    /// Whether it may change something outside the job (known once the
    /// tool's definition is).
    pub side_effecting: bool,
    /// Why the tool's accepted definition refuses it, as known so far.
    pub refused: Option<String>,
    /// The server it goes to (`None`: a core tool).
    pub server: Option<String>,
    /// The gate's word (once the gate spoke).
    pub word: Option<GateWord>,
}

impl Call {
    fn guarded(&self) -> guard::Call<'_> {
        guard::Call {
            tool: &self.tool,
            args: &self.args,
            digest: &self.digest,
        }
    }
}

/// What a step asks the worker to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Ask the planner: the first plan, or the next step (RV2).
    Plan(PlanAsk),
    /// Ask the planner again after a failed finalization, the verdict in
    /// hand (polished as it is if nothing new comes).
    Replan(PlanAsk, Box<(Drafted, Judged)>),
    /// Find the plan's next call, asking for what is missing.
    ResolveNext,
    /// Look the tool up on its server: its accepted definition.
    Vet(Box<Call>),
    /// The pre-tool gate on the call.
    Gate(Box<Call>),
    /// List a side effect's server again, now.
    Recheck(Box<Call>),
    /// Make the call. Its start is the step's write: before a side effect,
    /// beside a read.
    Run(Box<Call>),
    /// Keep a large output out of the record (the focus cache).
    Keep(Box<Call>, Json),
    /// Read every successful call's full output, for the judge.
    ReadOutputs,
    /// The finalization judge on the draft.
    Judge(Box<Drafted>),
    /// The reply in the skill's persona.
    Polish(Box<(Judged, PolishAsk)>),
}

impl Effect {
    /// The effect's name, for the time each kind takes
    /// (`adas_step_effect_seconds{effect}`).
    pub fn name(&self) -> &'static str {
        match self {
            Self::Plan(_) => "plan",
            Self::Replan(..) => "replan",
            Self::ResolveNext => "resolve_next",
            Self::Vet(_) => "vet",
            Self::Gate(_) => "gate",
            Self::Recheck(_) => "recheck",
            Self::Run(_) => "run",
            Self::Keep(..) => "keep",
            Self::ReadOutputs => "read_outputs",
            Self::Judge(_) => "judge",
            Self::Polish(_) => "polish",
        }
    }
}

/// What the worker learned.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// A worker took the job (`first_turn`: its turn's first pickup).
    Picked {
        /// The worker.
        worker: String,
        /// Whether the job was a silent worker's (still running).
        reclaimed: bool,
        /// Whether this is the turn's first pickup.
        first_turn: bool,
    },
    /// The planner answered `ask`.
    Planned(Box<Planned>, PlanAsk),
    /// The planner answered a replan.
    Replanned(Box<Planned>, PlanAsk, Box<(Drafted, Judged)>),
    /// The plan's next step.
    Resolved(Next),
    /// The tool's definition: why it refuses the call, its read-only hint,
    /// its server, and whether the list it came from is stale.
    Vetted {
        /// The call.
        call: Box<Call>,
        /// Why the accepted definition refuses it.
        refused: Option<String>,
        /// The tool's `readOnlyHint`.
        hint: Option<bool>,
        /// Where it runs.
        server: Option<String>,
        /// Whether its server's list could not be refreshed.
        stale: bool,
    },
    /// The gate spoke.
    GateSaid(Box<Call>, GateWord),
    /// The server's list as it is now.
    Rechecked(Box<Call>, Option<String>),
    /// The call returned.
    Ended(Box<Call>, Result<Json, ToolError>),
    /// A large output was kept: the reference the job holds.
    Kept(Box<Call>, Json),
    /// The successful calls' full outputs, in order.
    OutputsRead(Vec<(String, Json)>),
    /// The judge's verdict on the draft.
    Judged(Box<Drafted>, Judged),
    /// The polished reply.
    Polished(Box<(Judged, PolishAsk)>, Polished),
}

/// When a step's transition is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Write {
    /// Held on the record: it rides with the job's next write (decided in
    /// this process without I/O, so a retry decides it again the same).
    Hold,
    /// Written before the effect (or beside a read's call).
    Now,
}

/// One step: the write and the effect.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// What changes in the store.
    pub transition: Option<Transition>,
    /// When it is written.
    pub write: Write,
    /// What to do next (`None`: the job paused or ended here).
    pub effect: Option<Effect>,
}

impl Step {
    fn stop(transition: Transition) -> Self {
        Self {
            transition: Some(transition),
            write: Write::Now,
            effect: None,
        }
    }

    fn then(effect: Effect) -> Self {
        Self {
            transition: None,
            write: Write::Hold,
            effect: Some(effect),
        }
    }

    fn hold(event: Event, effect: Effect) -> Self {
        Self {
            transition: Some(Transition::run(vec![event])),
            write: Write::Hold,
            effect: Some(effect),
        }
    }

    /// What is held written first (a model across the network is asked next).
    fn flushed(effect: Effect) -> Self {
        Self {
            transition: Some(Transition::run(Vec::new())),
            write: Write::Now,
            effect: Some(effect),
        }
    }
}

/// What `input` does to the job (`record`, the worker's copy, changed in
/// place: its plan, calls, grants and evidence), and what follows.
pub fn apply(skill: &OperationalSkill, record: &mut JobRecord, input: Input) -> Step {
    match input {
        Input::Picked {
            worker,
            reclaimed,
            first_turn,
        } => picked(record, worker, reclaimed, first_turn),
        Input::Planned(planned, ask) if ask.next_only => {
            extended(skill, record, *planned, ask, None)
        }
        Input::Planned(planned, _) => match crate::plan::first(skill, record, *planned) {
            Planning::Stop(transition) => Step::stop(transition),
            // A model's plan is written now, with the tokens it cost; one
            // made here without a model is made again the same on a retry.
            Planning::Go { planned, by_model } => Step {
                transition: Some(Transition::run(vec![planned])),
                write: if by_model { Write::Now } else { Write::Hold },
                effect: Some(Effect::ResolveNext),
            },
        },
        Input::Replanned(planned, ask, verdict) => {
            extended(skill, record, *planned, ask, Some(*verdict))
        }
        Input::Resolved(next) => resolved(skill, record, next),
        Input::Vetted {
            call,
            refused,
            hint,
            server,
            stale,
        } => vetted(skill, record, *call, (refused, hint, server, stale)),
        Input::GateSaid(mut call, word) => {
            if let Some(stop) = guard::gate(skill, record, call.guarded(), &word) {
                return Step::stop(stop);
            }
            call.word = Some(word);
            // A side effect, once otherwise allowed, is checked against its
            // server's list as it is now, not the cached one.
            if call.side_effecting && call.refused.is_none() {
                return Step::then(Effect::Recheck(call));
            }
            run(skill, record, *call)
        }
        Input::Rechecked(mut call, refused) => {
            call.refused = refused;
            run(skill, record, *call)
        }
        Input::Ended(call, outcome) => ended(skill, record, *call, outcome),
        // The values its result made personal are not carried through the
        // keeping: a reader reads the job again, as for an older event.
        Input::Kept(call, output) => recorded(record, *call, Ok(output), true),
        Input::OutputsRead(outputs) => Step::then(Effect::Judge(Box::new(finish::draft(
            skill, record, outputs,
        )))),
        Input::Judged(drafted, judged) => judged_step(skill, record, *drafted, judged),
        Input::Polished(verdict, polished) => {
            let (judged, asked) = *verdict;
            record.llm.add(&polished.decider.usage);
            Step::stop(finish::end(record, &judged, polished, asked))
        }
    }
}

fn picked(record: &mut JobRecord, worker: String, reclaimed: bool, first_turn: bool) -> Step {
    // The turn's first pickup says how the conversation came here.
    if first_turn && let Some(note) = &record.handoff {
        let handoff = Event::Handoff {
            handoff: note.id.clone(),
            from: note.from.clone(),
            to: note.to.clone(),
            grants_passed: note.grants_passed.clone(),
        };
        record.hold(handoff);
    }
    let taken = Event::Taken { worker, reclaimed };
    let effect = if record.plan.is_none() {
        Effect::Plan(PlanAsk {
            // The user's answer to a clarification.
            intent_id: crate::plan::intent_to_plan(record),
            ..PlanAsk::default()
        })
    } else {
        Effect::ResolveNext
    };
    Step::hold(taken, effect)
}

fn resolved(skill: &OperationalSkill, record: &mut JobRecord, next: Next) -> Step {
    match next {
        Next::Waiting(_) => Step {
            transition: None,
            write: Write::Hold,
            effect: None,
        },
        Next::Aborted(reason) => Step::stop(Transition::cancel(
            Some(JobResult {
                reply: "Stopped as you asked.".into(),
                ..JobResult::default()
            }),
            Event::Cancelled(Cancellation::Aborted { reason }),
        )),
        // The plan ran out: RV2 asks the model what comes next after each
        // result; else the job is finalized.
        Next::Done(_) if skill.engine.rv2 && crate::plan::may_extend(skill, record) => {
            Step::flushed(Effect::Plan(next_ask(record, None)))
        }
        Next::Done(_) => Step::then(Effect::ReadOutputs),
        Next::Call { tool, args, path } => called(skill, record, tool, args, path),
    }
}

fn next_ask(record: &JobRecord, feedback: Option<String>) -> PlanAsk {
    PlanAsk {
        intent_id: record
            .intent
            .as_ref()
            .map(|intent| intent.intent_id.clone()),
        next_only: true,
        feedback,
    }
}

/// A next step from the planner (RV2, or a replan with its verdict): the
/// plan grows, or the job goes on to its end.
fn extended(
    skill: &OperationalSkill,
    record: &mut JobRecord,
    planned: Planned,
    ask: PlanAsk,
    verdict: Option<(Drafted, Judged)>,
) -> Step {
    if let Some(planned) = crate::plan::next_step(skill, record, planned, ask.feedback) {
        return Step {
            transition: Some(Transition::run(vec![planned])),
            write: Write::Now,
            effect: Some(Effect::ResolveNext),
        };
    }
    match verdict {
        Some((drafted, judged)) => polish(skill, record, &drafted, judged),
        None => Step::then(Effect::ReadOutputs),
    }
}

/// A call the plan makes next: the grants and the guards that need nothing
/// from its server.
fn called(
    skill: &OperationalSkill,
    record: &mut JobRecord,
    tool: String,
    mut args: Map<String, Json>,
    path: SlotPath,
) -> Step {
    // Grants first: an expired one is gone before it is checked, and an
    // injected argument is in place before the call is judged.
    crate::prune_grants(record, crate::now_ms());
    if let Some(refusal) = access::deviation(skill, record, &tool)
        .or_else(|| access::fill(skill, record, &tool, &mut args))
    {
        return Step::stop(refusal);
    }
    let digest = adas_dia::digest::call_digest(&tool, &args);
    let key = crate::idempotency_key(&record.job_id, record.iteration + 1, &digest);
    let call = Call {
        tool,
        args,
        digest,
        path,
        key,
        side_effecting: false,
        refused: None,
        server: None,
        word: None,
    };
    let stop = guard::budget(skill, record)
        .or_else(|| guard::repeated(skill, record, call.guarded()))
        .or_else(|| guard::escalation(skill, call.guarded()));
    match stop {
        Some(stop) => Step::stop(stop),
        None => Step::then(Effect::Vet(Box::new(call))),
    }
}

/// The tool's definition known: a call whose end is unknown, and certainty.
fn vetted(
    skill: &OperationalSkill,
    record: &JobRecord,
    mut call: Call,
    (refused, hint, server, stale): (Option<String>, Option<bool>, Option<String>, bool),
) -> Step {
    if let Some(stop) = guard::unknown_end(skill, record, call.guarded(), &call.key, hint) {
        return Step::stop(stop);
    }
    // Side effects need certainty: a confident intent and evidence for every
    // argument, or the user's yes to the exact call.
    call.side_effecting = certainty::side_effecting(skill, &call.tool, hint);
    call.server = server;
    call.refused = refused;
    // A stale list is no check: the server may have changed the tool since.
    // Reads may use it; a call with side effects is not made on it.
    if stale && call.side_effecting && call.refused.is_none() {
        call.refused = Some(format!(
            "`{}` cannot be checked against its accepted definition now: its server's tool \
             list could not be refreshed, and a call with side effects is made only on a \
             fresh check",
            call.tool
        ));
    }
    if call.side_effecting
        && let Some(why) = guard::certainty(skill, record, call.guarded())
    {
        return Step::stop(guard::confirmation(skill, record, call.guarded(), why));
    }
    Step::then(Effect::Gate(Box::new(call)))
}

/// The checks passed, or the accepted definition refuses: the call's start
/// (a compare-and-set: nobody wrote the job since — a cancel stops it — and
/// the record says it started, so a takeover knows its end is unknown).
fn run(skill: &OperationalSkill, record: &mut JobRecord, call: Call) -> Step {
    if let Some(reason) = call.refused.clone() {
        metrics::counter!("adas_unaccepted_tool_calls_total").increment(1);
        return Step::stop(guard::unaccepted(&call.tool, reason));
    }
    record.started_call = Some(StartedCall {
        key: call.key.clone(),
        tool: call.tool.clone(),
        started_at: now(),
    });
    // The gate's word on it, for the audit (it spoke on every call that
    // comes here).
    let word = call.word.as_ref();
    let started = Event::ToolStarted {
        tool: call.tool.clone(),
        arguments: call.args.clone(),
        idempotency_key: call.key.clone(),
        grants: access::relied_on(skill, record, &call.tool),
        gate: json!({
            "verdict": "allow",
            "rule_kind": word.map(|word| word.rule_kind.as_str()),
            "call_digest": word.map(|word| word.call_digest.as_str()),
            "approver": word.map(|word| word.approver.as_str()),
        }),
        server: call.server.clone(),
    };
    Step {
        transition: Some(Transition::run(vec![started])),
        write: Write::Now,
        effect: Some(Effect::Run(Box::new(call))),
    }
}

/// The call returned. Its result issues grants before anything else sees
/// it; then the skill's response filters apply, so the plan, the record,
/// events, the reply and every prompt hold only what may be shown. An
/// error's text is filtered too: a server may put the field a filter
/// removes into its error.
fn ended(
    skill: &OperationalSkill,
    record: &mut JobRecord,
    call: Call,
    outcome: Result<Json, ToolError>,
) -> Step {
    let held_before = record.personal.len();
    let outcome = match outcome {
        Ok(mut value) => {
            access::issue(skill, record, &call.tool, &value);
            adas_skill::access::filter_result(&skill.skill, &mut value);
            // A value the job itself sent — this call or an earlier one —
            // reveals nothing: it is not masked from them.
            let carried: Vec<String> = call
                .args
                .values()
                .chain(record.calls.iter().flat_map(|made| made.arguments.values()))
                .filter_map(|arg| arg.as_str().map(str::to_owned))
                .collect();
            for personal in adas_skill::access::personal_values(&skill.skill, &call.tool, &value) {
                if !record.personal.contains(&personal) && !carried.contains(&personal) {
                    record.personal.push(personal);
                }
            }
            Ok(value)
        }
        Err(ToolError::Recoverable(text)) => Err(ToolError::Recoverable(
            adas_skill::access::filter_text(&skill.skill, &text),
        )),
        Err(ToolError::Unrecoverable(text)) => Err(ToolError::Unrecoverable(
            adas_skill::access::filter_text(&skill.skill, &text),
        )),
    };
    let Some(plan) = record.plan.as_mut() else {
        return Step::stop(plan_failure("the job has no plan"));
    };
    if let Err(error) = adas_dia::complete_call(&mut plan.program, &call.path, &outcome) {
        return Step::stop(plan_failure(&error.to_string()));
    }
    record.iteration += 1;
    let adds_personal = record.personal.len() > held_before;
    match outcome {
        Ok(value) if value.to_string().len() > INLINE_OUTPUT_MAX_BYTES => {
            Step::then(Effect::Keep(Box::new(call), value))
        }
        Ok(value) => recorded(record, call, Ok(value), adds_personal),
        Err(error) => recorded(record, call, Err(error), adds_personal),
    }
}

fn plan_failure(why: &str) -> Transition {
    let error = format!("invalid plan: {why}");
    Transition::fail(
        OutcomeClass::InternalError,
        error.clone(),
        Event::Failed(Failure::Platform { error }),
    )
}

/// The call in the job's log (an unrecoverable error ends the job); its end
/// rides with the next write.
fn recorded(
    record: &mut JobRecord,
    call: Call,
    outcome: Result<Json, ToolError>,
    adds_personal: bool,
) -> Step {
    let (output, error) = match outcome {
        Ok(output) => (output, None),
        Err(error) => {
            let unrecoverable = matches!(error, ToolError::Unrecoverable(_));
            let text = error.to_string();
            (Json::String(text.clone()), Some((text, unrecoverable)))
        }
    };
    record.calls.push(CallRecord {
        tool: call.tool.clone(),
        arguments: call.args,
        call_digest: call.digest,
        output: output.clone(),
        is_error: error.is_some(),
        iteration: record.iteration,
        finished_at: now(),
    });
    record.started_call = None;
    if let Some((error, true)) = &error {
        return Step::stop(Transition::fail(
            OutcomeClass::ToolFailed,
            error.clone(),
            Event::Failed(Failure::ToolFailed {
                tool: call.tool,
                error: error.clone(),
            }),
        ));
    }
    // A crash before the next write leaves the call's end unknown, as a
    // crash during the call does; a failed step writes it first.
    Step::hold(
        Event::ToolFinished {
            tool: call.tool,
            is_error: error.is_some(),
            output,
            adds_personal,
        },
        Effect::ResolveNext,
    )
}

/// The verdict: a replan with new calls when it failed and replans are
/// left, else the reply polished.
fn judged_step(
    skill: &OperationalSkill,
    record: &mut JobRecord,
    drafted: Drafted,
    judged: Judged,
) -> Step {
    record.llm.add(&judged.decider.usage);
    if let Some(feedback) = finish::replan(skill, record, &judged)
        && crate::plan::may_extend(skill, record)
    {
        // The planner may be a model across the network: what is held is
        // written before it is asked.
        let ask = next_ask(record, Some(feedback));
        return Step::flushed(Effect::Replan(ask, Box::new((drafted, judged))));
    }
    polish(skill, record, &drafted, judged)
}

fn polish(skill: &OperationalSkill, record: &JobRecord, drafted: &Drafted, judged: Judged) -> Step {
    let asked = finish::polish_ask(skill, record, drafted);
    Step::then(Effect::Polish(Box::new((judged, asked))))
}

/// Whether the record holds a call's end not yet written (a step that fails
/// now writes it first, or its retry would take the call for one a dead
/// worker left half done).
pub fn holds_an_end(record: &JobRecord) -> bool {
    record
        .unwritten
        .iter()
        .any(|event| matches!(event, Event::ToolFinished { .. }))
}

/// The worker's failure on `error` (not a version conflict): the job fails
/// as INTERNAL_ERROR rather than running forever.
pub fn platform_failure(error: &str) -> Transition {
    Transition::fail(
        OutcomeClass::InternalError,
        error.to_owned(),
        Event::Failed(Failure::Platform {
            error: error.to_owned(),
        }),
    )
}

#[cfg(test)]
mod tests;
