//! What a plan means for the job: the first plan (an answer out of domain, a
//! question which intent was meant, or the calls to make) and a next step
//! appended to it (RV2, a replan after a failed finalization).

use adas_dia::Program;
use adas_skill::OperationalSkill;

use crate::ask::{ask_field, single_ask};
use crate::effect::{Decider, Planned};
use crate::{
    Completion, DetectedIntent, Event, Evidence, JobRecord, JobResult, OutcomeClass, PauseReason,
    PlanStage, Transition, certainty, same_value,
};

/// What a first plan does to the job.
#[derive(Debug, Clone, PartialEq)]
pub enum Planning {
    /// The job ends or pauses here (out of domain; which intent was meant?).
    Stop(Transition),
    /// The plan is on the record; `planned` says so in the log.
    Go {
        /// The `planned` event.
        planned: Event,
        /// Whether a model planned (its plan is written at once, with the
        /// tokens it cost; a deterministic plan rides with the next write).
        by_model: bool,
    },
}

/// The intent a first plan is made for: a confident detection or the user's
/// choice from a clarification.
pub fn intent_to_plan(record: &JobRecord) -> Option<String> {
    record
        .intent
        .as_ref()
        .filter(|intent| intent.confident)
        .map(|intent| intent.intent_id.clone())
}

/// Takes the planner's first answer into `record`.
pub fn first(skill: &OperationalSkill, record: &mut JobRecord, planned: Planned) -> Planning {
    let decider = decider_of(&planned);
    record.llm.add(&decider.usage);
    let detection = planned.detection;
    let intent_id = detection.intent_id.clone().unwrap_or_default();
    record.intent = Some(DetectedIntent {
        intent_id: intent_id.clone(),
        confidence: detection.confidence,
        out_of_domain: detection.out_of_domain.is_some(),
        margin: detection.margin,
        confident: detection.confident,
    });
    // What the skill hands to a person is handed over before anything is
    // done, even a request the detector finds out of its domain.
    if let Some(stop) = crate::guard::escalation_said(skill, record) {
        return Planning::Stop(stop);
    }
    if let Some(out_of_domain) = detection.out_of_domain {
        // Out of domain is an answer, not an error.
        let reply = JobResult {
            reply: out_of_domain.message.clone(),
            ..JobResult::default()
        };
        let completed = Event::Completed(Completion::OutOfDomain {
            action: out_of_domain.action,
        });
        return Planning::Stop(Transition::complete(
            OutcomeClass::OutOfDomain,
            Some(reply),
            vec![completed],
        ));
    }
    let Some(program) = planned
        .program
        .filter(|program| !program.elements.is_empty())
    else {
        return Planning::Stop(clarify(
            skill,
            &detection.candidates,
            (detection.confidence, detection.margin),
        ));
    };
    absorb_facts(record, detection.entities.iter().chain(&planned.facts));
    if decider.is_model() {
        record.unplanned_tools = certainty::unplanned_tools(skill, &intent_id, &program);
    }
    let text = program.to_string();
    record.plan = Some(adas_dia::Plan::new(program));
    record.iteration_budget = skill.engine.max_iterations;
    Planning::Go {
        planned: Event::Planned(crate::Planned {
            program: text,
            stage: PlanStage::First {
                intent: intent_id,
                workflow: planned.workflow.unwrap_or_default(),
            },
            decider: decider.json(),
        }),
        by_model: decider.is_model(),
    }
}

/// Whether the job may ask a model for another step (RV2, a replan).
pub fn may_extend(skill: &OperationalSkill, record: &JobRecord) -> bool {
    record.model_steps < skill.engine.max_iterations
}

/// Appends the planner's next step to the plan; the `planned` event, or
/// `None` when nothing more comes: the planner is done, or every proposed
/// call was already made (no new evidence — a loop).
pub fn next_step(
    skill: &OperationalSkill,
    record: &mut JobRecord,
    planned: Planned,
    feedback: Option<String>,
) -> Option<Event> {
    let decider = decider_of(&planned);
    record.model_steps += 1;
    record.llm.add(&decider.usage);
    if planned.done {
        return None;
    }
    let program = planned
        .program
        .filter(|program| !program.elements.is_empty())?;
    // require_new_evidence (spec 004 §4.4) and loop detection: a step that
    // only repeats calls already made brings nothing new.
    if repeats_only(record, &program) {
        return None;
    }
    absorb_facts(record, planned.facts.iter());
    if decider.is_model() {
        let intent_id = record
            .intent
            .as_ref()
            .map(|intent| intent.intent_id.clone())
            .unwrap_or_default();
        for tool in certainty::unplanned_tools(skill, &intent_id, &program) {
            if !record.unplanned_tools.contains(&tool) {
                record.unplanned_tools.push(tool);
            }
        }
    }
    let text = program.to_string();
    let plan = record
        .plan
        .get_or_insert_with(|| adas_dia::Plan::new(Program::default()));
    plan.program.elements.extend(program.elements);
    Some(Event::Planned(crate::Planned {
        program: text,
        stage: PlanStage::Next {
            next_step: true,
            feedback,
        },
        decider: decider.json(),
    }))
}

fn repeats_only(record: &JobRecord, program: &Program) -> bool {
    program.elements.iter().all(|node| match node {
        adas_dia::Node::Intent(call) => call.json_args().is_some_and(|args| {
            let digest = adas_dia::call_digest(&call.name, &args);
            record.calls.iter().any(|made| made.call_digest == digest)
        }),
        _ => true,
    })
}

fn decider_of(planned: &Planned) -> Decider {
    Decider {
        by: planned.planner.clone(),
        usage: planned.usage,
        fallback: planned.fallback.clone(),
    }
}

/// Pauses the job to ask which intent the user meant: the candidates close
/// to the best (at most three) and "none" listed, every other intent
/// choosable by its words.
pub fn clarify(
    skill: &OperationalSkill,
    candidates: &[(String, f64)],
    (confidence, margin): (f64, f64),
) -> Transition {
    let best = candidates.first().map_or(0.0, |(_, score)| *score);
    let intents = skill.skill.intents.clone().unwrap_or_default();
    let describe = |intent_id: &str| {
        intents
            .supported
            .iter()
            .find(|intent| intent.id == intent_id)
            .and_then(|intent| intent.description.clone())
            .unwrap_or_else(|| intent_id.replace('_', " "))
    };
    let mut options: Vec<(String, String)> = candidates
        .iter()
        .filter(|(_, score)| *score >= best - 0.2 && *score > 0.0)
        .take(3)
        .map(|(intent_id, _)| (intent_id.clone(), describe(intent_id)))
        .collect();
    let listed = options
        .iter()
        .enumerate()
        .map(|(index, (_, label))| format!("{}) {label}", index + 1))
        .collect::<Vec<_>>()
        .join("; ");
    options.push(("none".into(), "None of these".into()));
    // Every other intent stays choosable by its words ("freeze it"),
    // unlisted: the question names the likely ones.
    let listed_ids: Vec<String> = options.iter().map(|(id, _)| id.clone()).collect();
    options.extend(
        intents
            .supported
            .iter()
            .filter(|intent| !listed_ids.contains(&intent.id))
            .map(|intent| (intent.id.clone(), describe(&intent.id))),
    );
    let prompt = format!(
        "I'm not sure what you need. Did you mean: {listed}? Reply with the number, or none."
    );
    let field = ask_field("intent", "string", &prompt, options);
    let waiting = single_ask(
        PauseReason::IntentClarificationRequired,
        field,
        prompt.clone(),
        None,
    );
    let paused = Event::paused(
        PauseReason::IntentClarificationRequired,
        prompt,
        crate::PauseDetail::Clarify { confidence, margin },
    );
    Transition::pause(waiting, paused)
}

/// Values read from the user's words (entities and plan facts) go into the
/// context; matched ones are evidence. A guess may fill a read-only call,
/// never a side-effecting one without the user's yes.
pub fn absorb_facts<'a>(record: &mut JobRecord, facts: impl Iterator<Item = &'a adas_nlu::Entity>) {
    for fact in facts {
        record
            .context
            .entry(fact.name.clone())
            .or_insert_with(|| fact.value.clone());
        if !fact.guessed
            && !record
                .evidence
                .iter()
                .any(|known| known.name == fact.name && same_value(&known.value, &fact.value))
        {
            record.evidence.push(Evidence {
                name: fact.name.clone(),
                value: fact.value.clone(),
                source: "message".into(),
            });
        }
    }
}
