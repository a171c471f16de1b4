//! Intent, entities and plans by a model (spec 004 §2, spec 003's intent
//! sequencer), behind the same [`Planner`] seam and the same contracts as the
//! deterministic path:
//!
//! - **Intent**: one structured call per job (the skill's intents, examples,
//!   entities and out-of-domain in the prompt). The model's confidence and its
//!   lead over its own runner-up go through [`is_confident`], the detector's
//!   rule, so a hesitant model leads to a clarification, never to an action.
//! - **Plan**: the model writes a DIA program from the message, the tools'
//!   schemas and the skill's guardrails (at most ten). It is parsed and checked
//!   against the catalog (known tool, known argument); a rejected program gets
//!   one repair round quoting the parser's `line:col` error, then the
//!   deterministic plan is used and `Planned::fallback` says why.
//! - **Next step** (`engine.loop: rv2`, or a replan after a failed
//!   finalization): the calls made and their outputs (fenced data) in, the next
//!   calls or "done" out.
//!
//! A value the model put in a call is a *fact* of the message only when the
//! user's words contain it; anything else is marked guessed, and a guess never
//! makes a side-effecting call without the user's confirmation (the worker's
//! certainty rule). Every model failure falls back to the deterministic path.

use adas_dia::{Node, Program};
use adas_llm::prompt::{PREAMBLE, fence, fence_json, guardrails};
use adas_llm::{Llm, LlmError, Message, Request, Role, Session, Usage};
use adas_skill::engine::EngineConfig;
use adas_skill::model::Skill;
use async_trait::async_trait;
use serde_json::{Map, Value as Json, json};

use adas_nlu::detect::{Detection, detect_as, is_confident, out_of_domain};
use adas_nlu::entities::{Entity, Vocabulary};
use adas_nlu::plan::{DETERMINISTIC, PlanInput, Planned, Planner, plan_input};

/// The model planner; without a usable answer it plans deterministically.
#[derive(Debug, Clone)]
pub struct ModelPlanner {
    llm: Llm,
}

impl ModelPlanner {
    /// A planner over the configured models.
    pub fn new(llm: Llm) -> Self {
        Self { llm }
    }
}

/// The output id the model uses for "none of these intents".
const OUT_OF_DOMAIN: &str = "out_of_domain";
/// Longest tool output shown to a model, in characters.
const MAX_OUTPUT_CHARS: usize = 4000;

fn intents_data(skill: &Skill) -> Json {
    let intents = skill.intents.clone().unwrap_or_default();
    json!({
        "problem": skill.problem.as_ref().and_then(|problem| problem.statement.clone()),
        "intents": intents.supported.iter().map(|intent| json!({
            "id": intent.id,
            "description": intent.description,
            "examples": intent.examples,
            "entities": intent.entities.iter().map(|entity| json!({"name": entity.name, "type": entity.kind})).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "out_of_domain": intents.out_of_domain.as_ref().and_then(|out| out.message.clone()),
    })
}

fn intent_schema(skill: &Skill) -> Json {
    let mut ids: Vec<String> = skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .map(|intent| intent.id.clone())
        .collect();
    ids.push(OUT_OF_DOMAIN.into());
    json!({
        "type": "object",
        "properties": {
            "explanation": {"type": "string"},
            "intent": {"type": "string", "enum": ids},
            "confidence": {"type": "number"},
            "runner_up": {"type": "string", "enum": ids},
            "runner_up_confidence": {"type": "number"},
            "entities": {"type": "array", "items": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "value": {"type": "string"}},
                "required": ["name", "value"],
                "additionalProperties": false
            }}
        },
        "required": ["explanation", "intent", "confidence", "runner_up", "runner_up_confidence", "entities"],
        "additionalProperties": false
    })
}

fn intent_request(skill: &Skill, message: &str, temperature: f64) -> Request {
    let system = format!(
        "{PREAMBLE}Task: classify the user's message into one of the skill's intents, or `{OUT_OF_DOMAIN}` when none fits. \
         Give your confidence in [0, 1], your second choice and its confidence, and the entity values the user actually wrote. \
         Never invent a value the message does not contain."
    );
    let user = format!(
        "{}{}",
        fence_json("skill_intents", &intents_data(skill)),
        fence("user_message", message)
    );
    let mut request =
        Request::new(system, user).with_schema("intent_detection", intent_schema(skill));
    request.temperature = Some(temperature.min(0.3));
    request
}

fn number(json: &Json, field: &str) -> Result<f64, String> {
    let value = json
        .get(field)
        .and_then(Json::as_f64)
        .ok_or_else(|| format!("`{field}` is not a number"))?;
    if !value.is_finite() {
        return Err(format!("`{field}` is not finite"));
    }
    Ok(value.clamp(0.0, 1.0))
}

/// Whether the user's words contain `value` (so it is evidence, not a guess).
pub fn said_in(message: &str, value: &Json) -> bool {
    let tokens = tokens(message);
    match value {
        Json::String(text) => {
            let wanted: Vec<String> = text
                .split_whitespace()
                .map(|word| word.trim_matches(['.', ',', ':']).to_lowercase())
                .filter(|word| !word.is_empty())
                .collect();
            !wanted.is_empty()
                && tokens
                    .windows(wanted.len())
                    .any(|window| window == wanted.as_slice())
        }
        Json::Number(number) => number.as_f64().is_some_and(|wanted| {
            tokens.iter().any(|token| {
                token
                    .trim_start_matches(['$', '€', '£'])
                    .replace(',', "")
                    .parse::<f64>()
                    .is_ok_and(|said| (said - wanted).abs() < 1e-9)
            })
        }),
        _ => false,
    }
}

/// The message's tokens, lowercased, without surrounding punctuation.
fn tokens(message: &str) -> Vec<String> {
    message
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '?' | '!' | '(' | ')' | '"'))
        .map(|token| token.trim_matches(['.', ':', '\'']).to_lowercase())
        .filter(|token| !token.is_empty())
        .collect()
}

/// Whether the message holds several values of the same shape as `value`
/// ("where is ORD-1 and refund $20 on ORD-2": two order ids, two amounts
/// would be too): then which one belongs in which call is the model's guess.
fn ambiguous(message: &str, value: &Json) -> bool {
    let mut seen: Vec<String> = Vec::new();
    let number = |token: &str| {
        token
            .trim_start_matches(['$', '€', '£'])
            .replace(',', "")
            .parse::<f64>()
            .ok()
            .filter(|number| number.is_finite())
    };
    for token in tokens(message) {
        let same_shape = match value {
            Json::Number(_) => number(&token).is_some(),
            Json::String(text) if text.chars().any(|c| c.is_ascii_digit()) => {
                let prefix: String = text
                    .to_lowercase()
                    .chars()
                    .take_while(|c| !c.is_ascii_digit())
                    .collect();
                token.starts_with(&prefix) && token.chars().any(|c| c.is_ascii_digit())
            }
            _ => false,
        };
        if same_shape && !seen.contains(&token) {
            seen.push(token);
        }
    }
    seen.len() > 1
}

/// A value as a fact: matched when the user said it, said nothing else of its
/// shape, and it is not a word of the skill's own vocabulary ("reserve" is a
/// verb, never a room).
fn fact(name: &str, value: Json, message: &str, vocabulary: &Vocabulary) -> Entity {
    let text = match &value {
        Json::String(text) => text.clone(),
        other => other.to_string(),
    };
    let own_word = value
        .as_str()
        .is_some_and(|text| vocabulary.contains(&text.to_lowercase()));
    let said = said_in(message, &value) && !own_word && !ambiguous(message, &value);
    let start = message
        .to_lowercase()
        .find(&text.to_lowercase())
        .unwrap_or(0);
    Entity {
        name: name.to_owned(),
        kind: match &value {
            Json::Number(_) => "number".into(),
            Json::Bool(_) => "boolean".into(),
            _ => "string".into(),
        },
        value,
        end: start + if said { text.len() } else { 0 },
        start,
        text,
        guessed: !said,
    }
}

fn parse_detection(
    skill: &Skill,
    message: &str,
    context: &Map<String, Json>,
    answer: &Json,
) -> Result<Detection, String> {
    let intent_id = answer
        .get("intent")
        .and_then(Json::as_str)
        .ok_or("`intent` is missing")?;
    let confidence = number(answer, "confidence")?;
    let runner_up = number(answer, "runner_up_confidence").unwrap_or(0.0);
    if intent_id == OUT_OF_DOMAIN {
        return Ok(Detection {
            intent_id: None,
            confidence,
            margin: 0.0,
            confident: false,
            entities: Vec::new(),
            candidates: Vec::new(),
            out_of_domain: Some(out_of_domain(skill)),
        });
    }
    let known = skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .any(|intent| intent.id == intent_id);
    if !known {
        return Err(format!("intent `{intent_id}` is not one of the skill's"));
    }
    let second = answer
        .get("runner_up")
        .and_then(Json::as_str)
        .filter(|id| *id != intent_id && *id != OUT_OF_DOMAIN);
    // The model's own runner-up sets the margin; naming itself twice is no lead.
    let margin = (confidence - if second.is_some() { runner_up } else { 0.0 }).max(0.0);
    // Entities as the deterministic reader finds them for this intent, plus
    // what the model read — matched only when the user wrote it.
    let mut detection = detect_as(skill, intent_id, message, context);
    // The whole message is read at once here (the deterministic path splits
    // it into requests first): a value among several of its shape is a guess.
    for entity in &mut detection.entities {
        if ambiguous(message, &entity.value) {
            entity.guessed = true;
        }
    }
    let vocabulary = Vocabulary::of(skill);
    for entity in answer
        .get("entities")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
    {
        let (Some(name), Some(value)) = (
            entity.get("name").and_then(Json::as_str),
            entity.get("value").and_then(Json::as_str),
        ) else {
            continue;
        };
        if detection.entities.iter().any(|known| known.name == name) {
            continue;
        }
        let value = value
            .trim()
            .trim_start_matches('$')
            .parse::<f64>()
            .ok()
            .filter(|number| number.is_finite())
            .map_or_else(|| json!(value.trim()), |number| json!(number));
        detection
            .entities
            .push(fact(name, value, message, &vocabulary));
    }
    detection.confidence = confidence;
    detection.margin = margin;
    detection.confident = is_confident(skill, intent_id, message, confidence, margin);
    detection.candidates = std::iter::once((intent_id.to_owned(), confidence))
        .chain(second.map(|id| (id.to_owned(), runner_up)))
        .collect();
    Ok(detection)
}

/// The tools as the model sees them (descriptions are data: fenced by the caller).
fn tools_data(skill: &Skill) -> Json {
    Json::Array(
        skill
            .tools
            .iter()
            .filter(|tool| {
                tool.policy
                    .as_ref()
                    .and_then(|policy| policy.allowed.as_deref())
                    != Some("never")
            })
            .map(|tool| {
                json!({
                    "name": tool.name,
                    "description": tool.description,
                    "read_only": tool.read_only.unwrap_or(false),
                    "inputs": tool.inputs.iter().map(|input| json!({
                        "name": input.name,
                        "type": input.kind,
                        "required": input.required,
                        "description": input.description,
                        "enum": input.allowed,
                        "pattern": input.pattern,
                        "format": input.format,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect(),
    )
}

fn workflows_data(skill: &Skill, intent_id: Option<&str>) -> Json {
    Json::Array(
        skill
            .policy
            .iter()
            .flat_map(|policy| &policy.workflows)
            .filter(|workflow| intent_id.is_none() || workflow.trigger.as_deref() == intent_id)
            .map(|workflow| json!({"name": workflow.name, "trigger": workflow.trigger, "steps": workflow.steps}))
            .collect(),
    )
}

fn skill_guardrails(skill: &Skill) -> Vec<String> {
    let Some(guardrails) = skill
        .policy
        .as_ref()
        .and_then(|policy| policy.guardrails.as_ref())
    else {
        return Vec::new();
    };
    let (never, always) = guardrails.split();
    never
        .iter()
        .map(|rule| format!("NEVER: {rule}"))
        .chain(always.iter().map(|rule| format!("ALWAYS: {rule}")))
        .collect()
}

const DIA_RULES: &str = "Write a DIA program: calls like `tool_name(arg=\"text\", n=3)` separated by commas, in the order they must run. \
Use only the listed tools and their input names. For a required input the user has not given, write `ASK(\"question in plain words\")`; \
never invent a value. A call's result may be an argument (`b(x=a(y=1))`). Strings are double-quoted.";

fn program_schema() -> Json {
    json!({
        "type": "object",
        "properties": {
            "explanation": {"type": "string"},
            "done": {"type": "boolean"},
            "program": {"type": "string"}
        },
        "required": ["explanation", "done", "program"],
        "additionalProperties": false
    })
}

fn sequencer_request(
    skill: &Skill,
    input: &PlanInput<'_>,
    detection: &Detection,
    temperature: f64,
) -> Request {
    let intent_id = detection.intent_id.as_deref();
    let (task, history) = if input.next_only {
        (
            "Task: decide the NEXT step of this job after the calls already made. \
             If the user's request is fully served, answer done=true with an empty program. \
             Otherwise write only the next call(s). Never repeat a call that already succeeded.",
            input
                .history
                .iter()
                .enumerate()
                .map(|(index, step)| {
                    let mut output = step.output.to_string();
                    if output.chars().count() > MAX_OUTPUT_CHARS {
                        output = output.chars().take(MAX_OUTPUT_CHARS).collect::<String>() + "…";
                    }
                    format!(
                        "call {}: {}({}) {}\n{}",
                        index + 1,
                        step.tool,
                        Json::Object(step.arguments.clone()),
                        if step.is_error { "FAILED" } else { "returned" },
                        fence(&format!("tool_output_{}", index + 1), &output)
                    )
                })
                .collect::<String>(),
        )
    } else {
        (
            "Task: write the plan for the user's message. Set done=false.",
            String::new(),
        )
    };
    let system = format!(
        "{PREAMBLE}{DIA_RULES}\n{task}\n{}",
        guardrails(&skill_guardrails(skill))
    );
    let mut user = String::new();
    user.push_str(&format!(
        "Detected intent: {}\n",
        intent_id.unwrap_or("unknown")
    ));
    user.push_str(&fence_json("tools", &tools_data(skill)));
    user.push_str(&fence_json("workflows", &workflows_data(skill, intent_id)));
    if !input.context.is_empty() {
        user.push_str(&fence_json(
            "known_values",
            &Json::Object(input.context.clone()),
        ));
    }
    user.push_str(&fence("user_message", input.message));
    user.push_str(&history);
    if let Some(feedback) = input.feedback {
        user.push_str("The last draft reply did not pass the finalization gate. Gather NEW evidence with a call not made before, or answer done=true.\n");
        user.push_str(&fence("finalization_feedback", feedback));
    }
    let mut request = Request::new(system, user).with_schema("plan", program_schema());
    request.temperature = Some(temperature);
    request
}

/// Parses a model's program and checks it against the skill's catalog.
pub fn check_program(skill: &Skill, text: &str) -> Result<Program, String> {
    let program = adas_dia::parse(text).map_err(|error| error.to_string())?;
    fn check_node(skill: &Skill, node: &Node, depth: usize) -> Result<(), String> {
        if depth > adas_dia::MAX_DEPTH {
            return Err("the program is nested too deeply".into());
        }
        match node {
            Node::Intent(call) => check_call(skill, call, depth),
            Node::List { items } => items
                .iter()
                .try_for_each(|item| check_node(skill, item, depth + 1)),
            Node::AbortWithNewIntents { intents } => intents
                .iter()
                .try_for_each(|call| check_call(skill, call, depth + 1)),
            _ => Ok(()),
        }
    }
    fn check_call(skill: &Skill, call: &adas_dia::Intent, depth: usize) -> Result<(), String> {
        if call.name == "sys.emitUserMessage" {
            return call
                .args
                .iter()
                .try_for_each(|arg| check_node(skill, &arg.value, depth + 1));
        }
        let Some(tool) = skill.tools.iter().find(|tool| tool.name == call.name) else {
            let known: Vec<&str> = skill.tools.iter().map(|tool| tool.name.as_str()).collect();
            return Err(format!(
                "unknown tool `{}`; the tools are: {}",
                call.name,
                known.join(", ")
            ));
        };
        for arg in &call.args {
            if !tool.inputs.iter().any(|input| input.name == arg.name) {
                let inputs: Vec<&str> = tool
                    .inputs
                    .iter()
                    .map(|input| input.name.as_str())
                    .collect();
                return Err(format!(
                    "`{}` has no input `{}`; its inputs are: {}",
                    call.name,
                    arg.name,
                    inputs.join(", ")
                ));
            }
            check_node(skill, &arg.value, depth + 1)?;
        }
        Ok(())
    }
    program
        .elements
        .iter()
        .try_for_each(|node| check_node(skill, node, 0))?;
    Ok(program)
}

/// The literal arguments of a program as facts (matched or guessed).
fn program_facts(program: &Program, message: &str, vocabulary: &Vocabulary) -> Vec<Entity> {
    let mut facts = Vec::new();
    for node in &program.elements {
        if let Node::Intent(call) = node {
            for arg in &call.args {
                if let Some(value) = arg.value.to_json()
                    && !facts.iter().any(|known: &Entity| known.name == arg.name)
                {
                    facts.push(fact(&arg.name, value, message, vocabulary));
                }
            }
        }
    }
    facts
}

impl ModelPlanner {
    /// The program for a request, with one repair round.
    async fn program(
        &self,
        skill: &Skill,
        session: &mut Session<'_>,
        mut request: Request,
    ) -> Result<(Option<Program>, bool), String> {
        for round in 0..2 {
            let answer = session
                .call(&request)
                .await
                .map_err(|error| error.to_string())?;
            let json = answer.json.unwrap_or_default();
            let done = json.get("done").and_then(Json::as_bool).unwrap_or(false);
            let text = json
                .get("program")
                .and_then(Json::as_str)
                .unwrap_or("")
                .trim()
                .to_owned();
            if text.is_empty() {
                return Ok((None, done));
            }
            match check_program(skill, &text) {
                Ok(program) => return Ok((Some(program), false)),
                Err(error) if round == 0 => {
                    // One repair round, quoting the parser's position.
                    request.messages.push(Message {
                        role: Role::Assistant,
                        content: json.to_string(),
                    });
                    request.messages.push(Message {
                        role: Role::User,
                        content: format!(
                            "The program was rejected: {error}. Answer again in the same JSON shape with a corrected program."
                        ),
                    });
                }
                Err(error) => return Err(format!("the program was rejected twice: {error}")),
            }
        }
        Err("no program".into())
    }

    async fn next_step(
        &self,
        skill: &Skill,
        input: &PlanInput<'_>,
        session: &mut Session<'_>,
        temperature: f64,
    ) -> Planned {
        let by = format!("model:{}", session.model_name());
        // The intent stays what the job was planned for.
        let detection = match input.intent {
            Some(intent) => detect_as(skill, intent, input.message, input.context),
            None => adas_nlu::detect::detect(skill, input.message, input.context),
        };
        let request = sequencer_request(skill, input, &detection, temperature);
        let outcome = self.program(skill, session, request).await;
        let mut planned = Planned::finished(detection, &by);
        planned.usage = session.usage;
        match outcome {
            Ok((Some(program), _)) => {
                planned.facts = program_facts(&program, input.message, &Vocabulary::of(skill));
                planned.program = Some(program);
                planned.done = false;
            }
            Ok((None, _)) => {}
            // A next step the model cannot give ends the loop; finalization decides.
            Err(error) => planned.fallback = Some(error),
        }
        planned
    }
}

fn fallback(
    skill: &Skill,
    input: &PlanInput<'_>,
    intent: Option<&str>,
    why: &LlmError,
    usage: Usage,
    by: &str,
) -> Planned {
    let mut planned = if input.next_only {
        Planned::finished(
            adas_nlu::detect::detect(skill, input.message, input.context),
            DETERMINISTIC,
        )
    } else {
        plan_input(skill, &PlanInput { intent, ..*input })
    };
    planned.usage = usage;
    planned.fallback = Some(format!("{by}: {why}"));
    planned
}

#[async_trait]
impl Planner for ModelPlanner {
    async fn plan(&self, skill: &Skill, input: &PlanInput<'_>) -> Planned {
        let engine = EngineConfig::resolve(skill.engine.as_ref());
        let Some(mut session) = self
            .llm
            .session(engine.model.as_deref(), input.tokens_spent)
            .map(|session| session.masking(input.personal))
        else {
            return plan_input(skill, input);
        };
        let by = format!("model:{}", session.model_name());
        if input.next_only {
            return self
                .next_step(skill, input, &mut session, engine.temperature)
                .await;
        }
        let detection = match input.intent {
            // The user chose: nothing to detect.
            Some(intent) => detect_as(skill, intent, input.message, input.context),
            None => {
                let request = intent_request(skill, input.message, engine.temperature);
                let answer = match session.call(&request).await {
                    Ok(answer) => answer,
                    Err(error) => return fallback(skill, input, None, &error, session.usage, &by),
                };
                match parse_detection(
                    skill,
                    input.message,
                    input.context,
                    &answer.json.unwrap_or_default(),
                ) {
                    Ok(detection) => detection,
                    Err(error) => {
                        return fallback(
                            skill,
                            input,
                            None,
                            &LlmError::Malformed(error),
                            session.usage,
                            &by,
                        );
                    }
                }
            }
        };
        let mut planned = Planned::finished(detection.clone(), &by);
        planned.done = false;
        planned.facts = detection.entities.clone();
        if detection.intent_id.is_none() || !detection.confident {
            // Out of domain, or a clarification: no plan yet.
            planned.usage = session.usage;
            return planned;
        }
        let request = sequencer_request(skill, input, &detection, engine.temperature);
        match self.program(skill, &mut session, request).await {
            Ok((Some(program), _)) => {
                let vocabulary = Vocabulary::of(skill);
                for found in program_facts(&program, input.message, &vocabulary) {
                    if !planned.facts.iter().any(|known| known.name == found.name) {
                        planned.facts.push(found);
                    }
                }
                planned.program = Some(program);
                planned.usage = session.usage;
                planned
            }
            outcome => {
                let why = match outcome {
                    Err(error) => error,
                    _ => "the model wrote an empty plan".into(),
                };
                let mut planned = plan_input(
                    skill,
                    &PlanInput {
                        intent: detection.intent_id.as_deref(),
                        ..*input
                    },
                );
                planned.detection = detection;
                planned.usage = session.usage;
                planned.fallback = Some(format!("{by}: {why}; the deterministic plan is used"));
                planned
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_evidence_only_when_said_and_unambiguous() {
        let message = "Where is ORD-1 and also refund $20 on ORD-2";
        assert!(said_in(message, &json!("ORD-1")));
        assert!(said_in(message, &json!(20)));
        assert!(!said_in(message, &json!(200)));
        assert!(!said_in(message, &json!("ORD-9")));
        // Two order ids: which goes where is a guess.
        assert!(ambiguous(message, &json!("ORD-1")));
        assert!(!ambiguous(message, &json!(20)));
        assert!(!ambiguous(
            "refund $40 for order ORD-12345",
            &json!("ORD-12345")
        ));
        assert!(ambiguous("refund $40 or $50", &json!(40)));
    }

    #[test]
    fn a_rejected_program_says_why() {
        let skill: Skill = serde_json::from_value(json!({
            "tools": [{"name": "check_order_status", "inputs": [{"name": "order_id", "type": "string", "required": true}]}]
        }))
        .unwrap();
        assert!(check_program(&skill, "check_order_status(order_id=\"ORD-1\")").is_ok());
        let unknown = check_program(&skill, "process_refund(amount=5)").unwrap_err();
        assert!(
            unknown.contains("unknown tool `process_refund`"),
            "{unknown}"
        );
        let argument = check_program(&skill, "check_order_status(order=\"ORD-1\")").unwrap_err();
        assert!(argument.contains("no input `order`"), "{argument}");
        let syntax = check_program(&skill, "check_order_status(order_id=\"ORD-1\"").unwrap_err();
        assert!(syntax.starts_with("1:"), "{syntax}");
    }
}
