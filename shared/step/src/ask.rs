//! The asks a job makes and how their answers are read: the waiting object
//! for a plan's missing inputs (one ask for all fields of a call, the same
//! correlation id when the same fields are asked again), the one-field asks
//! the engine makes itself (an intent to pick, a call to confirm, a takeover),
//! answers to them in plain words, and a tool failure asked in plain words.

use adas_dia::{
    AnswerError, InputSpec, Interaction, InteractionKind, NoQuerySource, Resolver, Schemas,
    ValueKind,
};
use adas_skill::OperationalSkill;
use serde_json::{Map, Value as Json};

use crate::{
    Cancellation, Completion, DetectedIntent, Event, JobRecord, JobResult, OutcomeClass,
    PauseReason, PendingApproval, Resumption, Transition, Waiting, WaitingField,
    new_correlation_id, now,
};

pub use crate::answers::MAX_ANSWER_BYTES;

/// A one-field ask the engine makes itself (a clarification, a confirmation,
/// a takeover): not a tool input, so it has no slot in the plan.
pub fn single_ask(
    reason_code: PauseReason,
    field: WaitingField,
    prompt: String,
    approval: Option<PendingApproval>,
) -> Waiting {
    let stamp = now();
    Waiting {
        reason_code,
        requested_fields: vec![field.name.clone()],
        prompt_message: prompt,
        correlation_id: new_correlation_id(),
        created_at: stamp.clone(),
        last_prompt_at: stamp,
        fields: vec![field],
        prompt_count: 1,
        invalid_answer_count: 0,
        approval,
    }
}

/// A field of a [`single_ask`].
pub fn ask_field(
    name: &str,
    kind: &str,
    prompt: &str,
    options: Vec<(String, String)>,
) -> WaitingField {
    let (options, option_labels): (Vec<String>, Vec<String>) = options.into_iter().unzip();
    WaitingField {
        name: name.to_owned(),
        kind: kind.to_owned(),
        prompt: prompt.to_owned(),
        input_type: if options.is_empty() { "text" } else { "choice" }.to_owned(),
        options,
        option_labels,
        required: true,
        slot_path: Json::Null,
        interaction: None,
    }
}

/// Hands the job to a human because of `why` (with the draft reply, if
/// any): it stays paused in the skill's waiting queue (ListWaiting shows
/// why) until an operator replies in the agent's place.
pub fn takeover(why: &str, draft: Option<&str>, events: Vec<Event>) -> Transition {
    let mut prompt = format!("Handed to a human: {why}.");
    if let Some(draft) = draft.filter(|draft| !draft.trim().is_empty()) {
        prompt.push_str(&format!(" Draft reply: {draft}"));
    }
    let field = ask_field(
        "reply",
        "string",
        "The reply to send to the user",
        Vec::new(),
    );
    let waiting = single_ask(PauseReason::HumanTakeoverRequired, field, prompt, None);
    Transition::escalate(waiting, why, events)
}

/// Yes or no, in plain words.
pub fn yes_or_no(text: &str) -> Option<bool> {
    let text = text.trim().trim_end_matches(['.', '!']).to_lowercase();
    match text.as_str() {
        "yes" | "y" | "yeah" | "yep" | "sure" | "ok" | "okay" | "go ahead" | "do it"
        | "confirm" | "true" | "please do" | "yes please" => Some(true),
        "no" | "n" | "nope" | "don't" | "do not" | "cancel" | "stop" | "false" | "no thanks" => {
            Some(false)
        }
        _ => None,
    }
}

/// What an answer to an engine-made ask does.
#[derive(Debug, Clone, PartialEq)]
pub enum Decided {
    /// Plan again for the intent the user chose.
    Intent(String),
    /// None of the intents: the skill's out-of-domain answer.
    NoIntent,
    /// Run the confirmed call.
    Confirmed(String),
    /// The user said no: nothing is done.
    Declined,
    /// A human's reply ends the job.
    HumanReply(String),
}

/// Reads the answer to a clarification, confirmation or takeover ask;
/// `None` for the tool-input asks.
pub fn decide(waiting: &Waiting, fields: &Map<String, Json>) -> Option<Result<Decided, String>> {
    let field = waiting.fields.first()?;
    let text = match fields.get(&field.name) {
        Some(Json::String(text)) => text.trim().to_owned(),
        Some(Json::Bool(yes)) => yes.to_string(),
        Some(Json::Number(number)) => number.to_string(),
        _ => String::new(),
    };
    match waiting.reason_code {
        PauseReason::IntentClarificationRequired => {
            let lower = text.to_lowercase();
            if matches!(lower.as_str(), "none" | "neither" | "no" | "none of these") {
                return Some(Ok(Decided::NoIntent));
            }
            let chosen = crate::answers::pick(&field.options, &field.option_labels, &text);
            Some(match chosen {
                Some(option) if option == "none" => Ok(Decided::NoIntent),
                Some(option) => Ok(Decided::Intent(option.clone())),
                None => Err(crate::answers::in_plain_words(field, "")),
            })
        }
        PauseReason::ActionConfirmationRequired => Some(
            match yes_or_no(&text).or_else(|| {
                // "1" or "Yes, do it": the options as offered.
                crate::answers::pick(&field.options, &field.option_labels, &text)
                    .and_then(|option| yes_or_no(option))
            }) {
                Some(true) => Ok(Decided::Confirmed(
                    waiting
                        .approval
                        .as_ref()
                        .map(|call| call.call_digest.clone())
                        .unwrap_or_default(),
                )),
                Some(false) => Ok(Decided::Declined),
                None => Err("Please answer yes or no.".into()),
            },
        ),
        // Giving up on a failed call, in plain words, ends the job: nothing more is done.
        PauseReason::ToolErrorRecovery
            if matches!(
                text.trim_end_matches(['.', '!']).to_lowercase().as_str(),
                "stop" | "abort" | "cancel" | "give up" | "never mind" | "no"
            ) =>
        {
            Some(Ok(Decided::Declined))
        }
        PauseReason::HumanTakeoverRequired => Some(if text.is_empty() {
            Err("required".into())
        } else if text.len() > MAX_ANSWER_BYTES {
            Err(format!("an answer holds at most {MAX_ANSWER_BYTES} bytes"))
        } else {
            Ok(Decided::HumanReply(text))
        }),
        _ => None,
    }
}

/// Fills the plan's slots with the answers to a tool-input ask; the problems
/// by field (the plan may be partly filled when there are any: the caller
/// keeps the stored plan then).
pub fn fill_answers(
    plan: &mut adas_dia::Plan,
    waiting: &Waiting,
    fields: &Map<String, Json>,
) -> Vec<(String, String)> {
    let mut violations = Vec::new();
    if waiting.reason_code == PauseReason::ToolErrorRecovery
        && let Some(Json::String(dia)) = fields.get("reply")
        && let Some(interaction) = waiting
            .fields
            .first()
            .and_then(|field| field.interaction.clone())
    {
        if let Err(error) =
            Resolver::new(&Schemas::new(), &NoQuerySource).fill(plan, &interaction, dia)
        {
            violations.push(("reply".to_owned(), error.to_string()));
        }
        return violations;
    }
    for field in &waiting.fields {
        let Some(value) = fields.get(&field.name) else {
            if field.required {
                violations.push((field.name.clone(), "required".to_owned()));
            }
            continue;
        };
        let text = match value {
            Json::String(text) => text.clone(),
            Json::Null => String::new(),
            other => other.to_string(),
        };
        if text.len() > MAX_ANSWER_BYTES {
            violations.push((
                field.name.clone(),
                format!(
                    "{} bytes; an answer holds at most {MAX_ANSWER_BYTES}",
                    text.len()
                ),
            ));
            continue;
        }
        if text.trim().is_empty() && field.required {
            violations.push((field.name.clone(), "required".to_owned()));
            continue;
        }
        let Some(interaction) = field.interaction.clone() else {
            continue;
        };
        let mut interaction: Interaction = interaction;
        interaction.expected = kind_of(&field.kind);
        let text = crate::answers::normalized(field, &text);
        let reply = match recovery_reply(&interaction, field, &text) {
            Ok(reply) => reply,
            Err(problem) => {
                violations.push((field.name.clone(), problem));
                continue;
            }
        };
        let fill =
            Resolver::new(&schemas_for(field), &NoQuerySource).fill(plan, &interaction, &reply);
        match fill {
            Ok(()) => {}
            Err(AnswerError::Invalid {
                expected, reason, ..
            }) => violations.push((field.name.clone(), format!("expected {expected}: {reason}"))),
            Err(other) => violations.push((field.name.clone(), other.to_string())),
        }
    }
    violations
}

/// The reply the resolver reads for an answer. After a tool failure a plain
/// value for the offending field retries the call with it, and `retry` / `stop`
/// are words; an API client may still send a DIA reply in `reply`.
pub fn recovery_reply(
    interaction: &Interaction,
    field: &WaitingField,
    text: &str,
) -> Result<String, String> {
    if interaction.kind != InteractionKind::RuntimeError {
        return Ok(text.to_owned());
    }
    let word = text.trim().trim_end_matches(['.', '!']).to_lowercase();
    if matches!(
        word.as_str(),
        "stop" | "abort" | "cancel" | "give up" | "never mind"
    ) {
        return Ok("ABORT()".to_owned());
    }
    if field.name == "reply" {
        return Ok(match word.as_str() {
            "no" => "ABORT()".to_owned(),
            "retry" | "try again" | "again" | "yes" => "retry".to_owned(),
            _ => text.to_owned(),
        });
    }
    let allowed: Vec<Json> = field
        .options
        .iter()
        .map(|option| Json::String(option.clone()))
        .collect();
    let value = adas_dia::convert(
        &field.name,
        kind_of(&field.kind),
        &allowed,
        adas_dia::Node::literal(adas_dia::Literal::Str(text.to_owned())),
    )
    .map_err(|error| error.to_string())?;
    let retry = adas_dia::Node::PropagateSlots {
        args: vec![adas_dia::Arg {
            name: field.name.clone(),
            value,
        }],
    };
    Ok(retry.to_string())
}

/// A tool failure asked in plain words: the argument the error names (by its
/// value or its name) is asked again ("The order ORD-555 was not found. What is
/// the right order id?"); when none is named, `retry` or `stop`.
///
/// The tool's own words reach the question only for a tool in `shown` (the
/// skill's `show_errors`): otherwise a server's error text — a channel into
/// the prompt the user answers — is said only as its category.
pub fn plain_recovery(
    program: &adas_dia::Program,
    mut interaction: Interaction,
    schemas: &Schemas,
    shown: &dyn Fn(&str) -> bool,
) -> Interaction {
    if interaction.kind != InteractionKind::RuntimeError {
        return interaction;
    }
    let Some(adas_dia::Node::RuntimeError { intent, error }) =
        adas_dia::node_at(program, &interaction.path)
    else {
        return interaction;
    };
    // The SDKs' own prefix ("Error executing tool reserve_room: …") and the
    // tool's name say nothing about which argument was wrong.
    let error = error
        .split_once(&format!("{}: ", intent.name))
        .map_or(error.as_str(), |(_, rest)| rest);
    let lower = error
        .to_lowercase()
        .replace(&intent.name.to_lowercase(), " ");
    // The argument the error mentions first, by value or by name.
    let offending = intent
        .args
        .iter()
        .filter_map(|arg| {
            let value = match arg.value.to_json() {
                Some(Json::String(text)) => text,
                Some(other) => other.to_string(),
                None => return None,
            };
            let by_value = (value.len() >= 2)
                .then(|| lower.find(&value.to_lowercase()))
                .flatten();
            let by_name = lower
                .find(&arg.name.replace('_', " "))
                .or_else(|| lower.find(&arg.name));
            by_value
                .into_iter()
                .chain(by_name)
                .min()
                .map(|at| (at, arg))
        })
        .min_by_key(|(at, _)| *at)
        .map(|(_, arg)| arg);
    let failed = if shown(&intent.name) {
        error.trim().trim_end_matches('.').to_owned()
    } else {
        match offending {
            Some(arg) => format!(
                "the tool failed: it did not accept the {}",
                arg.name.replace('_', " ")
            ),
            None => "the tool failed: it reported an error".to_owned(),
        }
    };
    match offending {
        Some(arg) => {
            interaction.field = arg.name.clone();
            interaction.expected = schemas
                .get(&intent.name)
                .and_then(|inputs| inputs.iter().find(|input| input.name == arg.name))
                .map_or(ValueKind::String, |input| input.kind);
            interaction.question = format!(
                "That did not work: {failed}. What is the right {}?",
                arg.name.replace('_', " ")
            );
        }
        None => {
            interaction.question =
                format!("That did not work: {failed}. Say retry to try again, or stop.");
        }
    }
    interaction
}

pub fn schemas_for(field: &WaitingField) -> Schemas {
    let Some(interaction) = &field.interaction else {
        return Schemas::new();
    };
    let allowed: Vec<Json> = field
        .options
        .iter()
        .map(|option| Json::String(option.clone()))
        .collect();
    Schemas::from([(
        interaction.intent.clone(),
        vec![InputSpec {
            name: field.name.clone(),
            kind: kind_of(&field.kind),
            required: field.required,
            allowed,
            prompt: None,
        }],
    )])
}

fn kind_of(name: &str) -> ValueKind {
    ValueKind::from_type_name(name)
}

fn kind_name(kind: ValueKind) -> &'static str {
    match kind {
        ValueKind::Any => "any",
        ValueKind::String => "string",
        ValueKind::Integer => "integer",
        ValueKind::Number => "number",
        ValueKind::Boolean => "boolean",
        ValueKind::List => "array",
    }
}

/// Builds the waiting object for `asks`, keeping the previous ask's correlation
/// id when the same fields are asked again (deduplication).
pub fn build_waiting(
    previous: Option<Waiting>,
    asks: &[Interaction],
    skill: &OperationalSkill,
    schemas: &Schemas,
) -> Waiting {
    let identity_skill = skill
        .compiled
        .text_guardrails
        .iter()
        .any(|rule| rule.to_lowercase().contains("identity"));
    let reason_code = match asks.first().map(|ask| ask.kind) {
        Some(InteractionKind::RuntimeError) => PauseReason::ToolErrorRecovery,
        Some(InteractionKind::QueryUser) => PauseReason::UserConfirmationRequired,
        _ if identity_skill
            && asks.iter().any(|ask| {
                let field = ask.field.to_lowercase();
                field.contains("email") || field.contains("phone") || field.starts_with("identity")
            }) =>
        {
            PauseReason::IdentityVerificationRequired
        }
        _ => PauseReason::MissingRequiredInput,
    };
    let fields: Vec<WaitingField> = asks
        .iter()
        .map(|ask| {
            let name = if ask.field.is_empty() {
                "reply".to_owned()
            } else {
                ask.field.clone()
            };
            let spec = schemas
                .get(&ask.intent)
                .and_then(|inputs| inputs.iter().find(|input| input.name == ask.field));
            let hint = skill
                .skill
                .required_inputs
                .iter()
                .find(|hint| hint.path == name);
            let mut options: Vec<String> = spec
                .map(|spec| {
                    spec.allowed
                        .iter()
                        .map(|value| {
                            value
                                .as_str()
                                .map_or_else(|| value.to_string(), str::to_owned)
                        })
                        .collect()
                })
                .unwrap_or_default();
            if options.is_empty()
                && let Some(hint) = hint
            {
                options = hint.options.clone();
            }
            let input_type = match hint.and_then(|hint| hint.input_type.clone()) {
                Some(kind) => kind,
                None if !options.is_empty() => "choice".to_owned(),
                None => "text".to_owned(),
            };
            WaitingField {
                name,
                kind: kind_name(ask.expected).to_owned(),
                prompt: ask.question.clone(),
                input_type,
                options,
                option_labels: Vec::new(),
                required: true,
                slot_path: serde_json::to_value(&ask.path).unwrap_or(Json::Null),
                interaction: Some(ask.clone()),
            }
        })
        .collect();
    let requested_fields: Vec<String> = fields.iter().map(|field| field.name.clone()).collect();
    let prompt_message = fields
        .iter()
        .map(|field| field.prompt.clone())
        .collect::<Vec<_>>()
        .join(" ");
    let now = now();
    match previous {
        Some(previous)
            if previous.requested_fields == requested_fields
                && previous.reason_code == reason_code =>
        {
            Waiting {
                last_prompt_at: now,
                prompt_count: previous.prompt_count + 1,
                fields,
                prompt_message,
                ..previous
            }
        }
        _ => Waiting {
            reason_code,
            requested_fields,
            prompt_message,
            correlation_id: new_correlation_id(),
            created_at: now.clone(),
            last_prompt_at: now,
            fields,
            prompt_count: 1,
            invalid_answer_count: 0,
            approval: None,
        },
    }
}

/// What an accepted answer to an engine-made ask does to `record`: the audit
/// action it is recorded as, and the transition it makes.
pub fn on_answer(
    record: &mut JobRecord,
    skill: &OperationalSkill,
    decided: Decided,
    who: &str,
) -> (&'static str, Transition) {
    match decided {
        Decided::Intent(intent_id) => {
            record.intent = Some(DetectedIntent {
                intent_id: intent_id.clone(),
                confidence: 1.0,
                out_of_domain: false,
                margin: 1.0,
                confident: true,
            });
            record.plan = None;
            (
                "clarify",
                Transition::resume(Event::Resumed(Resumption::IntentChosen {
                    intent: intent_id,
                    by: who.to_owned(),
                })),
            )
        }
        Decided::NoIntent => {
            let message = skill
                .skill
                .intents
                .as_ref()
                .and_then(|intents| intents.out_of_domain.as_ref())
                .and_then(|out| out.message.clone())
                .unwrap_or_else(|| "Sorry, I can't help with that.".into());
            let reply = JobResult {
                reply: message.trim().to_owned(),
                ..JobResult::default()
            };
            (
                "clarify",
                Transition::complete(
                    OutcomeClass::OutOfDomain,
                    Some(reply),
                    vec![Event::Completed(Completion::NoIntent)],
                ),
            )
        }
        Decided::Confirmed(digest) => {
            record.confirmed_calls.push(digest.clone());
            (
                "confirm",
                Transition::resume(Event::Resumed(Resumption::CallConfirmed {
                    call_digest: digest,
                    by: who.to_owned(),
                })),
            )
        }
        Decided::Declined => {
            let reply = JobResult {
                reply: "All right, I did not do it. Nothing was changed.".into(),
                ..JobResult::default()
            };
            (
                "decline",
                Transition::cancel(Some(reply), Event::Cancelled(Cancellation::Declined)),
            )
        }
        Decided::HumanReply(reply) => {
            // The job keeps the outcome it was escalated with.
            let outcome = record.outcome_class.unwrap_or(OutcomeClass::Escalated);
            let reply = JobResult {
                reply,
                ..JobResult::default()
            };
            (
                "takeover",
                Transition::complete(
                    outcome,
                    Some(reply),
                    vec![Event::Completed(Completion::HumanReplied {
                        by: who.to_owned(),
                    })],
                ),
            )
        }
    }
}
