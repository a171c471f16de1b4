//! Plans from messages: the workflow whose `trigger` is the intent (or the
//! intent's `maps_to_workflow`) gives the steps in order; each step's arguments
//! are filled from the context, the intent's entities, and any value of the
//! message that matches the input's type, pattern or enum (not only entities);
//! missing arguments stay absent (DalAgent asks for them). With no workflow, the
//! tool whose required inputs best match what is known; with none, a reply-only
//! plan.
//!
//! A message with several requests ("where is ORD-1 and also refund $20 on
//! ORD-9") becomes one plan doing each in order, when every part is confidently
//! understood on its own; otherwise the whole message is judged as one. A
//! message whose intent is not confident gets no plan: the job asks which
//! intent was meant (`Planned::program` is `None`, `detection.confident` false).

use adas_dia::{Arg, Intent, Literal, Node, Program};
use adas_prompt::Usage;
use adas_skill::model::Skill;
use async_trait::async_trait;
use serde_json::{Map, Value as Json};

mod assumed;
mod back;
mod chosen;
mod clauses;
mod counted;
mod lookups;
mod said;
use chosen::{best_covered, workflow_for};
use clauses::{only_gives_a_value, original_clauses, states_a_fact};
use lookups::{given, without_needless_lookups};

use crate::detect::{Detection, detect, detect_as};
use crate::entities::{Entity, Slot, Vocabulary, extract_slots, prefixes_of};

/// A plan for a message.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    /// What was detected (for several requests: the first, with every part's
    /// entities and the lowest confidence).
    pub detection: Detection,
    /// The plan; `None` when the message is out of domain or its intent must
    /// be clarified first.
    pub program: Option<Program>,
    /// The workflow followed, if any.
    pub workflow: Option<String>,
    /// Every value read from the message for the plan's calls (entities and
    /// tool inputs), each marked matched or guessed.
    pub facts: Vec<Entity>,
    /// Who planned: `deterministic`, or `model:<name>`.
    pub planner: String,
    /// What the model calls cost.
    pub usage: Usage,
    /// Why a model's plan was not used (the deterministic plan was).
    pub fallback: Option<String>,
    /// For a next step: nothing more to do.
    pub done: bool,
}

impl Planned {
    /// A next step that ends the plan: nothing more to call.
    pub fn finished(detection: Detection, planner: &str) -> Self {
        Self {
            detection,
            program: None,
            workflow: None,
            facts: Vec::new(),
            planner: planner.to_owned(),
            usage: Usage::default(),
            fallback: None,
            done: true,
        }
    }
}

/// A call already made in the job, as a next step's planner sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The tool.
    pub tool: String,
    /// Its arguments.
    pub arguments: Map<String, Json>,
    /// What it returned (or its error text).
    pub output: Json,
    /// Whether it failed.
    pub is_error: bool,
}

/// What a plan is made from.
#[derive(Debug, Clone, Copy)]
pub struct PlanInput<'a> {
    /// The user's message.
    pub message: &'a str,
    /// Known facts by input name.
    pub context: &'a Map<String, Json>,
    /// The user's own choice of intent (a clarification's answer), else detected.
    pub intent: Option<&'a str>,
    /// Plan only what comes next after `history` (RV2, or a replan after a
    /// failed finalization), not the whole job.
    pub next_only: bool,
    /// The calls made so far.
    pub history: &'a [Step],
    /// Why the last draft reply did not pass finalization (a replan).
    pub feedback: Option<&'a str>,
    /// Model tokens the job has already spent (its budget is the operator's).
    pub tokens_spent: u64,
    /// Values no prompt may carry (the job's personal ones).
    pub personal: &'a [String],
    /// What the conversation's earlier turns hold, by input name: it fills an
    /// input the message leaves open.
    pub memory: Option<&'a Map<String, Json>>,
    /// The conversation's previous intent (a follow-up may continue it).
    pub previous_intent: Option<&'a str>,
}

impl<'a> PlanInput<'a> {
    /// A first plan for `message`.
    pub fn new(message: &'a str, context: &'a Map<String, Json>) -> Self {
        Self {
            message,
            context,
            intent: None,
            next_only: false,
            history: &[],
            feedback: None,
            tokens_spent: 0,
            personal: &[],
            memory: None,
            previous_intent: None,
        }
    }
}

/// Turns a message into a plan; the seam where a model plugs in
/// (`adas_engine::model::ModelPlanner`).
#[async_trait]
pub trait Planner: Send + Sync {
    /// Plans for `input` (see [`PlanInput`]).
    async fn plan(&self, skill: &Skill, input: &PlanInput<'_>) -> Planned;
}

/// The deterministic planner: example-scored intents and workflows.
#[derive(Debug, Clone, Copy, Default)]
pub struct WorkflowPlanner;

#[async_trait]
impl Planner for WorkflowPlanner {
    async fn plan(&self, skill: &Skill, input: &PlanInput<'_>) -> Planned {
        if input.next_only {
            // The workflow was planned whole up front: nothing comes next, and a
            // replan would only repeat the same calls (no new evidence).
            return Planned::finished(detect(skill, input.message, input.context), DETERMINISTIC);
        }
        plan_input(skill, input)
    }
}

/// The name of the deterministic planner in events.
pub const DETERMINISTIC: &str = "deterministic";

/// What reading values for tool inputs needs from the skill, built once per plan.
struct Reading {
    vocabulary: Vocabulary,
    /// Identifier prefixes of all the skill's examples (`ORD-`).
    prefixes: Vec<String>,
}

impl Reading {
    fn of(skill: &Skill) -> Self {
        let examples: Vec<String> = skill
            .intents
            .iter()
            .flat_map(|intents| &intents.supported)
            .flat_map(|intent| intent.examples.clone())
            .collect();
        Self {
            vocabulary: Vocabulary::of(skill),
            prefixes: prefixes_of(&examples),
        }
    }
}

/// One request of a message and what it became.
struct Part {
    detection: Detection,
    calls: Vec<Intent>,
    workflow: Option<String>,
    facts: Vec<Entity>,
}

fn text_arg(name: &str, text: String) -> Arg {
    Arg {
        name: name.into(),
        value: Node::literal(Literal::Str(text)),
    }
}

/// The call of `tool` with what is known, and the values of the message that
/// fill its other inputs (appended to `facts`).
fn call(
    skill: &Skill,
    reading: &Reading,
    tool: &str,
    (known, memory): (&Map<String, Json>, &Map<String, Json>),
    message: &str,
    said: &str,
    facts: &mut Vec<Entity>,
) -> Intent {
    let mut args = Vec::new();
    match tool {
        "sys.emitUserMessage" => args.push(text_arg("text", said.to_owned())),
        "sys.escalate" => args.push(text_arg("reason", message.to_owned())),
        _ => {
            if let Some(declared) = skill.tools.iter().find(|declared| declared.name == tool) {
                // An argument the access policy injects from a grant is never
                // read from words or context: the grant alone fills it.
                let injected = adas_skill::access::injected(skill, tool);
                let inputs = || {
                    declared.inputs.iter().filter(|input| {
                        !injected.iter().any(|(argument, _)| *argument == input.name)
                    })
                };
                let missing: Vec<Slot> = inputs()
                    .filter(|input| {
                        !known.contains_key(&input.name)
                            && !facts.iter().any(|fact| fact.name == input.name)
                    })
                    .map(|input| crate::entities::input_slot(skill, tool, input))
                    .collect();
                let found = extract_slots(
                    &missing,
                    message,
                    &reading.prefixes,
                    facts,
                    &reading.vocabulary,
                );
                facts.extend(found.into_iter().map(|mut fact| {
                    fact.guessed |= crate::entities::by_kind_only(&fact);
                    fact
                }));
                let one: Vec<Entity> = inputs()
                    .filter(|input| {
                        !known.contains_key(&input.name)
                            && !facts.iter().any(|fact| fact.name == input.name)
                    })
                    .filter_map(|input| counted::by_article(input, facts, message))
                    .collect();
                facts.extend(one);
                for input in inputs() {
                    // The message's words first, then what the conversation
                    // holds, and a word placed by its position last.
                    let said = |guessed: bool| {
                        facts
                            .iter()
                            .find(|fact| fact.name == input.name && fact.guessed == guessed)
                            .map(|fact| fact.value.clone())
                    };
                    // An optional input is never carried from an earlier
                    // turn: what the user left out this time stays out.
                    // …unless it names it ("same end date").
                    let named = clauses::names_input(message, &input.name);
                    let remembered = || {
                        (input.required || named)
                            .then(|| memory.get(&input.name).cloned())
                            .flatten()
                    };
                    let value = known
                        .get(&input.name)
                        .cloned()
                        .or_else(|| said(false))
                        .or_else(remembered);
                    let titled = value
                        .is_none()
                        .then(|| assumed::title(declared, input, message))
                        .flatten();
                    let value = value
                        .or_else(|| titled.as_ref().map(|fact| fact.value.clone()))
                        // A word placed by its position never fills what
                        // may be left out ("my 2pm meeting" renames nothing).
                        .or_else(|| said(true).filter(|value| input.required || is_a_date(value)));
                    facts.extend(titled);
                    if let Some(value) = value {
                        args.push(Arg {
                            name: input.name.clone(),
                            value: Node::from_json(&value),
                        });
                    }
                }
                let today = reading
                    .vocabulary
                    .today
                    .unwrap_or_else(crate::values::today);
                let mut assumed = assumed::assumed_end(inputs(), &args);
                assumed.extend(assumed::assumed_day(
                    skill,
                    declared,
                    (&args, message),
                    today,
                ));
                for fact in assumed {
                    args.push(Arg {
                        name: fact.name.clone(),
                        value: Node::from_json(&fact.value),
                    });
                    facts.push(fact);
                }
            }
        }
    }
    Intent {
        name: tool.to_owned(),
        args,
    }
}

/// Whether a value is a date, a month or a time of a day as the skill
/// writes it (`2026-11`, `2026-11-30`, `2026-11-30T16:00`): read from the
/// message's words, never a word placed by its position.
fn is_a_date(value: &Json) -> bool {
    value.as_str().is_some_and(|text| {
        let text = match text.split_once('T') {
            Some((day, time)) if time.parse::<jiff::civil::Time>().is_ok() => day,
            _ => text,
        };
        let parts: Vec<&str> = text.split('-').collect();
        matches!(parts.len(), 2 | 3)
            && parts[0].len() == 4
            && parts
                .iter()
                .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()))
    })
}

/// The calls for one detected request.
fn part(
    skill: &Skill,
    reading: &Reading,
    message: &str,
    (context, memory): (&Map<String, Json>, &Map<String, Json>),
    detection: Detection,
) -> Part {
    let intent_id = detection.intent_id.clone().unwrap_or_default();
    let intent = skill
        .intents
        .iter()
        .flat_map(|intents| intents.supported.iter())
        .find(|intent| intent.id == intent_id);
    let maps_to = intent.and_then(|intent| intent.maps_to_workflow.clone());
    let mut known = context.clone();
    let mut facts: Vec<Entity> = detection.entities.clone();
    for entity in &detection.entities {
        if entity.guessed && memory.contains_key(&entity.name) {
            continue;
        }
        known
            .entry(entity.name.clone())
            .or_insert_with(|| entity.value.clone());
    }
    let workflow = workflow_for(skill, &intent_id, maps_to.as_deref());
    if let Some(workflow) = workflow {
        let acted = workflow.steps.iter().any(|step| !step.starts_with("sys."));
        let speaks = workflow
            .steps
            .iter()
            .any(|step| step == "sys.emitUserMessage");
        let said = said::spoken(skill, intent, acted, speaks);
        // A `sys.askUser` step is the user's yes to the next side effect,
        // asked by the gate with the exact call (adas-step's certainty).
        let calls: Vec<Intent> = workflow
            .steps
            .iter()
            .filter(|step| *step != "sys.askUser")
            .map(|step| {
                call(
                    skill,
                    reading,
                    step,
                    (&known, memory),
                    message,
                    &said,
                    &mut facts,
                )
            })
            .collect();
        let mut calls = if workflow.required {
            calls
        } else {
            without_needless_lookups(skill, calls)
        };
        // A lookup the request cannot feed, when another lookup of the same
        // things takes what it gives.
        if let [only] = calls.as_slice()
            && !workflow.required
            && !given(skill, only)
            && crate::detect::only_reads(skill, &intent_id)
        {
            let fed = crate::detect::lookups_alike(skill, &intent_id)
                .into_iter()
                .filter(|tool| tool.name != only.name)
                .map(|tool| {
                    call(
                        skill,
                        reading,
                        &tool.name,
                        (&known, memory),
                        message,
                        &said,
                        &mut facts.clone(),
                    )
                })
                // Fed by the request: a lookup that takes nothing is no answer to it.
                .find(|alike| !alike.args.is_empty() && given(skill, alike));
            if let Some(fed) = fed {
                calls = vec![fed];
            }
        }
        return Part {
            detection,
            calls,
            workflow: Some(workflow.name.clone()),
            facts,
        };
    }
    // No workflow: the tool the intent means by its words, else the one
    // whose required inputs are best covered by what is known.
    let meant = crate::detect::matched_tool_for(skill, &intent_id, |name| known.contains_key(name));
    let best = best_covered(skill, &known);
    let tool = meant
        .map(|tool| tool.name.as_str())
        .or(best.map(|tool| tool.name.as_str()))
        .unwrap_or("sys.emitUserMessage");
    let said = said::spoken(skill, intent, false, tool == "sys.emitUserMessage");
    let calls = vec![call(
        skill,
        reading,
        tool,
        (&known, memory),
        message,
        &said,
        &mut facts,
    )];
    Part {
        detection,
        calls,
        workflow: None,
        facts,
    }
}

/// The message without its greetings and the count of its requests: "Good
/// morning!" is no time of day for a pickup, "Two things:" no quantity. A
/// message that is nothing but those stays as it is.
fn without_greetings(message: &str) -> std::borrow::Cow<'_, str> {
    static GREETING: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let stripped = GREETING
        .get_or_init(|| {
            // …and the count of the message's own requests ("Two things:
            // …"), which is no value of any of them.
            regex::Regex::new(
                r"(?i)\bgood\s+(?:morning|afternoon|evening|day)\b\s*[!,.]?|\b(?:two|three|four|a\s+couple\s+of|a\s+few|[2-4])\s+(?:quick\s+|more\s+)?(?:things|questions|requests)\b\s*[:,.]?",
            )
                .expect("a valid pattern")
        })
        .replace_all(message, "");
    if stripped.chars().any(char::is_alphanumeric) {
        stripped
    } else {
        std::borrow::Cow::Borrowed(message)
    }
}

/// Plans for a message (see the module docs). `intent` is the user's choice
/// after a clarification: detection is skipped.
pub fn plan(
    skill: &Skill,
    message: &str,
    context: &Map<String, Json>,
    intent: Option<&str>,
) -> Planned {
    plan_input(
        skill,
        &PlanInput {
            intent,
            ..PlanInput::new(message, context)
        },
    )
}

/// Words that lean on what was said before ("cancel it", "same for travel").
const BACK_REFERENCES: &[&str] = &[
    "it", "that", "this", "them", "those", "these", "one", "same",
];

/// Openings and endings of a follow-up that names no intent of its own
/// ("and downtown?", "what about 94110?", "and 9077 too").
const ELLIPSIS_OPENINGS: &[&str] = &[
    "and ",
    "what about ",
    "how about ",
    "same for ",
    "same ",
    "also ",
    "now ",
];
const ELLIPSIS_ENDINGS: &[&str] = &[" too", " as well", " also"];

fn refers_back(message: &str) -> bool {
    message
        .to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .any(|word| BACK_REFERENCES.contains(&word))
}

/// Openings that only ever continue the previous request ("what about
/// 94110?"), whatever the rest would say alone.
const ELLIPSIS_ONLY: &[&str] = &["what about ", "how about ", "same for "];

/// The message, lower case, without its closing punctuation and an opening
/// "ok," or "so".
fn bare(message: &str) -> String {
    let lower = message.to_lowercase();
    let lower = lower.trim().trim_end_matches(['?', '.', '!', ' ']);
    ["okay", "ok", "so"]
        .iter()
        .find_map(|opening| lower.strip_prefix(opening))
        .unwrap_or(lower)
        .trim_start_matches([',', ' '])
        .to_owned()
}

fn elliptical(message: &str) -> bool {
    let lower = bare(message);
    ELLIPSIS_OPENINGS
        .iter()
        .any(|opening| lower.starts_with(opening))
        || ELLIPSIS_ENDINGS
            .iter()
            .any(|ending| lower.ends_with(ending))
}

/// A message of a conversation read with what came before: "cancel it" is
/// confident when "it" is something the conversation holds, and "and
/// downtown?" is the previous request again with the new value.
fn in_conversation(
    skill: &Skill,
    input: &PlanInput<'_>,
    detection: Detection,
    corrects: bool,
) -> Detection {
    let memory_holds = input.memory.is_some_and(|memory| !memory.is_empty());
    let only_continues = {
        let lower = bare(input.message);
        ELLIPSIS_ONLY
            .iter()
            .any(|opening| lower.starts_with(opening))
    };
    // "what about 94110?", "and on HP-10002?": the previous request again,
    // whatever the value alone would suggest.
    let continues = only_continues
        || corrects
        || (elliptical(input.message) && crate::detect::names_no_request(input.message));
    if detection.confident && !(continues && input.previous_intent.is_some()) {
        return detection;
    }
    if let Some(previous) = input
        .previous_intent
        .filter(|_| corrects || elliptical(input.message))
    {
        let again = detect_as(skill, previous, input.message, input.context);
        // "and in 60657?": nothing but a value, which the previous request's
        // tool reads (its entities may not name it).
        if !again.entities.is_empty()
            || (memory_holds && refers_back(input.message))
            || crate::detect::names_no_request(input.message)
        {
            return again;
        }
    }
    if memory_holds
        && refers_back(input.message)
        && detection.intent_id.is_some()
        && crate::detect::clears_thresholds(skill, detection.confidence, detection.margin)
    {
        return Detection {
            confident: true,
            ..detection
        };
    }
    detection
}

/// Plans for a [`PlanInput`]: the message, the user's chosen intent if any,
/// and what the conversation holds.
pub fn plan_input(skill: &Skill, input: &PlanInput<'_>) -> Planned {
    let greeted = without_greetings(input.message);
    let counted = crate::values::numbers_in_words(&greeted);
    let counted = crate::written::as_written(skill, &counted);
    // "sorry, I meant ortho, not surgical": the previous request again,
    // with what it takes back left out.
    let correction = input
        .previous_intent
        .and_then(|_| crate::written::correcting(&counted, input.memory));
    let corrects = correction.is_some();
    let counted = correction.map_or(counted, std::borrow::Cow::Owned);
    let input = &PlanInput {
        message: &counted,
        ..*input
    };
    let (message, context) = (input.message, input.context);
    let empty = Map::new();
    let back = input
        .memory
        .and_then(|memory| back::the_way_back(memory, message));
    let memory = back.as_ref().or(input.memory).unwrap_or(&empty);
    if let Some(intent) = input.intent {
        let detection = detect_as(skill, intent, message, context);
        return assemble(skill, message, (context, memory), vec![detection]);
    }
    // Several requests, each understood on its own, are each planned — not
    // what a message tells ("I just realised my dress is still with you"),
    // which only sets the scene for its request.
    let mut parts: Vec<String> = clauses::ids_alone_carried(skill, original_clauses(message))
        .iter()
        .flat_map(|part| clauses::each_of_a_list(skill, part))
        .collect();
    parts.retain(|part| !states_a_fact(part) && !only_gives_a_value(skill, part));
    if parts.len() > 1 && !corrects {
        let detections = parts
            .iter()
            .map(|part| detect(skill, part, context))
            .collect();
        let (parts, detections) = clauses::asking(parts, detections);
        // Two requests are two intents, or one intent twice with another
        // value for the same input ("refill RX-1 and RX-2"); "PK-1 arrived
        // broken and I want compensation" is one request.
        let distinct = detections.windows(2).any(|pair| {
            pair[0].intent_id != pair[1].intent_id
                || pair[0].entities.iter().any(|one| {
                    pair[1]
                        .entities
                        .iter()
                        .any(|other| other.name == one.name && other.value != one.value)
                })
        });
        // "breakfast pastries, fruit and coffee in the Atrium for 35": one
        // request whose list ("X, Y and Z") was split, not two of one intent
        // ("refill RX-1, RX-2 and RX-3" lists values of their own).
        let one_list = detections
            .windows(2)
            .all(|pair| pair[0].intent_id == pair[1].intent_id)
            && clauses::serial_list(message);
        if distinct
            && !one_list
            && detections.iter().any(|detection| detection.confident)
            && parts
                .iter()
                .zip(&detections)
                .all(|(part, detection)| clauses::acted_on_beside_others(skill, part, detection))
        {
            return assemble_parts(skill, &parts, (context, memory), detections);
        }
        // Two actions, each on its own thing ("book my MATH1010 resit and
        // also enter me for COMP2320"), not each understood: read as one,
        // the message would act on one of them with the other's value.
        if distinct && clauses::actions_on_their_own_things(skill, &parts, &detections) > 1 {
            let mut planned = assemble(
                skill,
                message,
                (context, memory),
                vec![detect(skill, message, context)],
            );
            planned.detection.confident = false;
            planned.program = None;
            return planned;
        }
    }
    let detection = in_conversation(skill, input, detect(skill, message, context), corrects);
    assemble(skill, message, (context, memory), vec![detection])
}

fn assemble(
    skill: &Skill,
    message: &str,
    known: (&Map<String, Json>, &Map<String, Json>),
    detections: Vec<Detection>,
) -> Planned {
    let messages = vec![message.to_owned(); detections.len()];
    assemble_parts(skill, &messages, known, detections)
}

fn assemble_parts(
    skill: &Skill,
    messages: &[String],
    known: (&Map<String, Json>, &Map<String, Json>),
    detections: Vec<Detection>,
) -> Planned {
    // A value read only by the lexicon's sense of a word is a guess for
    // the call (the detector weighed it as the value it names).
    let mut detections = detections;
    for fact in detections
        .iter_mut()
        .flat_map(|detection| &mut detection.entities)
    {
        fact.guessed |= crate::entities::by_kind_only(fact);
    }
    let first = detections[0].clone();
    if first.intent_id.is_none() || (detections.len() == 1 && !first.confident) {
        let facts = first.entities.clone();
        return Planned {
            detection: first,
            program: None,
            workflow: None,
            facts,
            planner: DETERMINISTIC.into(),
            usage: Usage::default(),
            fallback: None,
            done: false,
        };
    }
    let reading = Reading::of(skill);
    // A later request of the message leans on what an earlier one named
    // ("turn off roaming on LN-1005 and switch it to basic"), as on memory.
    let (context, memory) = known;
    let mut carried = memory.clone();
    let mut parts: Vec<Part> = Vec::new();
    for (message, detection) in messages.iter().zip(detections) {
        let done = part(skill, &reading, message, (context, &carried), detection);
        for fact in done.facts.iter().filter(|fact| !fact.guessed) {
            carried.insert(fact.name.clone(), fact.value.clone());
        }
        parts.push(done);
    }
    let mut detection = first;
    detection.confidence = parts
        .iter()
        .map(|part| part.detection.confidence)
        .fold(f64::INFINITY, f64::min);
    detection.confident = parts.iter().all(|part| part.detection.confident);
    detection.entities = parts
        .iter()
        .flat_map(|part| part.detection.entities.clone())
        .collect();
    let workflow = parts.first().and_then(|part| part.workflow.clone());
    let facts = parts.iter().flat_map(|part| part.facts.clone()).collect();
    // The same call asked by two requests of one message is made once (a
    // workflow's own repeated step stays: it is one request's).
    let mut calls: Vec<Intent> = Vec::new();
    for part in parts {
        let earlier = calls.len();
        for call in part.calls {
            if !calls[..earlier].contains(&call) {
                calls.push(call);
            }
        }
    }
    let elements = calls.into_iter().map(Node::Intent).collect();
    Planned {
        detection,
        program: Some(Program { elements }),
        workflow,
        facts,
        planner: DETERMINISTIC.into(),
        usage: Usage::default(),
        fallback: None,
        done: false,
    }
}
