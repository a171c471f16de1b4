//! Typed value extraction for an intent's entities and for any tool input:
//! explicit forms first ("my order id is X", `order_id=X`, `order_id: X`, "room
//! 5", "3 people"), then by type — email, phone, integer, number, money, ISO
//! date, yes/no, enum values, a declared `pattern`, identifiers shaped like those
//! in the intent's examples (`ORD-12345`) — with the name as a hint when the
//! type is a plain string (an entity called `email` is an email).
//!
//! Every value says whether it is *evidence* (the user's words matched to the
//! slot's type, pattern, enum or name) or a *guess* (a plain word placed by its
//! position). A guess is never a word of the skill's own vocabulary (its
//! intents, tools and descriptions: "reserve" is never a room), and a
//! side-effecting call is never made on a guess without the user's yes.

mod by_name;

mod vocabulary;

use adas_skill::model::{Entity as EntitySpec, Intent};
use by_name::*;
use serde_json::{Map, Value as Json};
pub use vocabulary::*;

/// An entity found in a message.
#[derive(Debug, Clone, PartialEq)]
pub struct Entity {
    /// Entity name.
    pub name: String,
    /// The type it was read as.
    pub kind: String,
    /// The typed value.
    pub value: Json,
    /// The text it was read from.
    pub text: String,
    /// Byte offset of `text` in the message.
    pub start: usize,
    /// Byte offset just past `text`.
    pub end: usize,
    /// Placed by position rather than matched by type, pattern, enum or name.
    pub guessed: bool,
}

/// What a value is extracted for: an intent's entity or a tool's input.
#[derive(Debug, Clone)]
pub struct Slot {
    /// Name (entity or input).
    pub name: String,
    /// Declared type name (`string` when absent).
    pub kind: Option<String>,
    /// Allowed values.
    pub allowed: Vec<Json>,
    /// A pattern a string value must match.
    pub pattern: Option<std::sync::Arc<regex::Regex>>,
    /// Stems of the words that name the action the value is for ("book" for
    /// `book_class`): of two ids that fit, the one right after them is meant.
    pub cues: Vec<String>,
    /// Stems that name one allowed value, from the input's description
    /// ("travel (flights, trains, taxis)": "train" names `travel`) and the
    /// value's own words ("lease" names `end_of_lease`).
    /// With each, whether it is the value's own word (else its description's,
    /// a guess).
    pub aliases: Vec<(String, Json, bool)>,
}

impl Slot {
    /// The slot of an intent's entity.
    pub fn of_entity(spec: &EntitySpec) -> Self {
        Self {
            name: spec.name.clone(),
            kind: spec.kind.clone(),
            allowed: spec.allowed.clone(),
            pattern: None,
            cues: direction_cues(&spec.name),
            aliases: Vec::new(),
        }
    }

    /// The slot of a tool's input; a `pattern` that does not compile is ignored
    /// here (validation reports it) and the value is never matched by it.
    pub fn of_input(input: &adas_skill::model::ToolInput) -> Self {
        let kind = match input.format.as_deref() {
            Some("email") => Some("email".to_owned()),
            Some("date") => Some("date".to_owned()),
            _ => input.kind.clone(),
        };
        Self {
            name: input.name.clone(),
            kind,
            allowed: input.allowed.clone(),
            pattern: input
                .pattern
                .clone()
                .or_else(|| crate::written::lettered_pattern(input))
                .as_deref()
                .and_then(adas_skill::grammar::compiled_pattern),
            cues: direction_cues(&input.name),
            aliases: Vec::new(),
        }
    }

    /// The slot with the words of its inputs' descriptions among its cues
    /// (fillers and the slot's own name aside), and its values named by
    /// those words and by the skill's glossary.
    pub fn described(mut self, descriptions: &[String], skill: &adas_skill::model::Skill) -> Self {
        let own: Vec<String> = plain_words(&self.name.replace('_', " "))
            .map(|word| crate::lexicon::stem(&word.to_lowercase()))
            .collect();
        for description in descriptions {
            for word in plain_words(description).map(str::to_lowercase) {
                let stem = crate::lexicon::stem(&word);
                if !FILLER.contains(&word.as_str()) && !own.contains(&stem) {
                    self.cues.push(stem);
                }
            }
        }
        self.cues.sort();
        self.cues.dedup();
        let mut meanings = descriptions.to_vec();
        meanings.extend(glossed(skill, &self.allowed));
        self.aliases = aliases(&self.allowed, &meanings);
        // "with Dr. Okafor": a name the description gives one value, kept
        // apart (`=okafor`) — said as surely as the value's own word, unless
        // its code stands beside it (see `by_description`).
        let names = proper_names(&meanings, &self.allowed);
        self.aliases.extend(
            names
                .into_iter()
                .map(|(stem, value)| (name_alias(&stem), value, false)),
        );
        // A word of the whole domain ("patient") names no one value.
        if self.aliases.iter().any(|(_, _, own)| !own) {
            let domain = domain_stems(skill);
            self.aliases
                .retain(|(stem, _, own)| *own || !domain.contains(stem));
        }
        // "Start time in ISO 8601": a date and a time, not a time of day.
        let timestamp = descriptions.iter().any(|description| {
            let lower = description.to_lowercase();
            lower.contains("iso 8601")
                || lower.contains("date and time")
                || lower.contains("datetime")
        });
        let name = self.name.to_lowercase();
        if timestamp
            && matches!(self.kind.as_deref(), None | Some("string") | Some("text"))
            && (name.ends_with("_time") || name == "time" || name.ends_with("_at"))
        {
            self.kind = Some("datetime".into());
        }
        // "Employee number (e.g. WRK-4821)", "BDA- and five digits": the
        // id's shape, when no pattern says it — a slot never takes another
        // kind's id.
        if self.pattern.is_none() {
            let shape = descriptions
                .iter()
                .flat_map(|description| {
                    description
                        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                        .map(str::to_owned)
                        .collect::<Vec<_>>()
                })
                .find_map(|token| crate::written::shape_of_example(&token))
                .or_else(|| crate::written::described_prefixed(descriptions));
            if let Some((prefix, separator, digits)) = shape {
                let (prefix, separator) = (regex::escape(&prefix), regex::escape(&separator));
                let shape = format!("^{prefix}{separator}[0-9]{{{digits}}}$");
                self.pattern = regex::Regex::new(&shape).ok().map(std::sync::Arc::new);
            }
        }
        // "Pay month as YYYY-MM": a month, written as the skill writes it
        // (see `written::months_as_shaped`).
        if self.pattern.is_none()
            && self.allowed.is_empty()
            && matches!(self.kind.as_deref(), None | Some("string") | Some("text"))
            && descriptions.iter().any(|description| {
                description.contains("YYYY-MM") && !description.contains("YYYY-MM-DD")
            })
        {
            self.pattern = regex::Regex::new("^[0-9]{4}-[0-9]{2}$")
                .ok()
                .map(std::sync::Arc::new);
        }
        // "Nine-digit ABA routing number", "Account number, digits only":
        // an id written in digits alone, and never a word's.
        if self.pattern.is_none()
            && matches!(
                effective_kind(&self.spec()).as_str(),
                "identifier" | "string"
            )
            && self.allowed.is_empty()
            && let Some((least, most)) = crate::written::described_digits(descriptions)
        {
            let shape = format!("^[0-9]{{{least},{most}}}$");
            self.pattern = regex::Regex::new(&shape).ok().map(std::sync::Arc::new);
        }
        self
    }

    /// The slot with the words of `name` (an intent id or a tool name) and of
    /// `examples`' opening verbs as its cues.
    pub fn cued_by(mut self, name: &str, examples: &[String]) -> Self {
        let mut cues: Vec<String> = plain_words(&name.replace(['_', '.', '-'], " "))
            .map(|word| crate::lexicon::stem(&word.to_lowercase()))
            .collect();
        for example in examples {
            let first = plain_words(example).map(str::to_lowercase).find(|word| {
                !QUESTION_OPENERS.contains(&word.as_str()) && !FILLER.contains(&word.as_str())
            });
            if let Some(first) = first {
                cues.push(crate::lexicon::stem(&first));
            }
        }
        // The slot's own name stands before every one of its values.
        let own: Vec<String> = plain_words(&self.name.replace('_', " "))
            .map(|word| crate::lexicon::stem(&word.to_lowercase()))
            .collect();
        cues.retain(|cue| !own.contains(cue));
        cues.extend(direction_cues(&self.name));
        cues.sort();
        cues.dedup();
        self.cues = cues;
        self
    }

    fn spec(&self) -> EntitySpec {
        EntitySpec {
            name: self.name.clone(),
            kind: self.kind.clone(),
            required: true,
            allowed: self.allowed.clone(),
            description: None,
            extract_from: None,
        }
    }
}

/// A token of the message with its byte span.
#[derive(Debug, Clone)]
struct Token<'a> {
    text: &'a str,
    start: usize,
}

/// Whether the comma at `index` groups thousands ("10,000", "2,350.50").
fn thousands_comma(message: &str, index: usize) -> bool {
    let bytes = message.as_bytes();
    index > 0
        && bytes[index - 1].is_ascii_digit()
        && bytes.len() >= index + 4
        && bytes[index + 1..index + 4].iter().all(u8::is_ascii_digit)
        && bytes
            .get(index + 4)
            .is_none_or(|next| !next.is_ascii_digit())
}

fn tokens(message: &str) -> Vec<Token<'_>> {
    let mut tokens = Vec::new();
    let mut start = None;
    for (index, c) in message.char_indices() {
        let part_of_token = !c.is_whitespace()
            && !matches!(c, ';' | '!' | '?' | '(' | ')' | '"' | '=')
            && (c != ',' || thousands_comma(message, index));
        match (part_of_token, start) {
            (true, None) => start = Some(index),
            (false, Some(begin)) => {
                tokens.push(Token {
                    text: &message[begin..index],
                    start: begin,
                });
                start = None;
            }
            _ => {}
        }
    }
    if let Some(begin) = start {
        tokens.push(Token {
            text: &message[begin..],
            start: begin,
        });
    }
    // Sentence punctuation is not part of a value.
    tokens
        .into_iter()
        .map(|token| {
            let text = token.text.trim_end_matches(['.', ':']);
            // "Saturday's classes": the possessive is not part of the value.
            let text = text
                .strip_suffix("'s")
                .or_else(|| text.strip_suffix("’s"))
                .unwrap_or(text);
            let trimmed = text
                .trim_end_matches(['.', ':', '\''])
                .trim_start_matches(['\'', '#']);
            let offset = token.text.find(trimmed).unwrap_or(0);
            Token {
                text: trimmed,
                start: token.start + offset,
            }
        })
        .filter(|token| !token.text.is_empty())
        .collect()
}

fn found(name: &str, kind: &str, value: Json, token: &Token<'_>, guessed: bool) -> Entity {
    Entity {
        name: name.to_owned(),
        kind: kind.to_owned(),
        value,
        text: token.text.to_owned(),
        start: token.start,
        end: token.start + token.text.len(),
        guessed,
    }
}

/// The type used for extraction: the declared one, or one guessed from the name.
fn effective_kind(spec: &EntitySpec) -> String {
    let declared = spec
        .kind
        .clone()
        .unwrap_or_else(|| "string".into())
        .to_lowercase();
    if declared != "string" && declared != "text" {
        return declared;
    }
    let name = spec.name.to_lowercase();
    if name == "date"
        || name.ends_with("_date")
        || name.ends_with("_day")
        || name.starts_with("date_")
    {
        "date".into()
    } else if name == "time" || name.ends_with("_time") {
        "time".into()
    } else if name.contains("email") {
        "email".into()
    } else if name.contains("phone") {
        "phone".into()
    } else if name.ends_with("_id") || name == "id" || name.contains("number") {
        "identifier".into()
    } else if name.contains("amount") || name.contains("price") {
        "money".into()
    } else {
        "string".into()
    }
}

/// An amount as people write it (`$1.2k`, `10,000`): see [`adas_dia::parse_amount`].
pub use adas_dia::parse_amount;

fn number_json(value: f64) -> Json {
    if value.fract() == 0.0 && value.abs() < 9.0e15 {
        Json::from(value as i64)
    } else {
        serde_json::Number::from_f64(value).map_or(Json::Null, Json::Number)
    }
}

fn is_identifier(text: &str) -> bool {
    // "4pm", "10:30am" are times, not ids.
    let lower = text.to_lowercase();
    if (lower.ends_with("am") || lower.ends_with("pm"))
        && lower[..lower.len() - 2]
            .chars()
            .all(|c| c.is_ascii_digit() || c == ':' || c == '.')
    {
        return false;
    }
    let has_digit = text.chars().any(|c| c.is_ascii_digit());
    let has_alpha = text.chars().any(|c| c.is_ascii_alphabetic());
    let shaped = text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'));
    has_digit && has_alpha && shaped && !is_email(text) && parse_amount(text).is_none()
}

/// The prefix of identifiers in the intent's examples (`ORD-` from `ORD-12345`).
pub fn example_prefixes(intent: &Intent) -> Vec<String> {
    prefixes_of(&intent.examples)
}

/// The prefix of identifiers in example messages.
pub fn prefixes_of(examples: &[String]) -> Vec<String> {
    examples
        .iter()
        .flat_map(|example| {
            tokens(example)
                .into_iter()
                .map(|token| token.text.to_owned())
                .collect::<Vec<_>>()
        })
        .filter(|text| is_identifier(text))
        .filter_map(|text| {
            text.find(|c: char| c.is_ascii_digit())
                .map(|at| text[..at].to_uppercase())
        })
        .filter(|prefix| !prefix.is_empty())
        .collect()
}

/// "my order id is X" / "order_id = X" / "order_id: X": the token after the name.
fn explicit<'a>(spec: &EntitySpec, message: &'a str, all: &[Token<'a>]) -> Option<Token<'a>> {
    let lower = message.to_lowercase();
    let name = spec.name.to_lowercase();
    let spaced = name.replace('_', " ");
    let mut phrases = vec![name.clone(), spaced.clone()];
    if let Some(base) = spaced.strip_suffix(" id") {
        phrases.push(format!("{base} number"));
    }
    for phrase in phrases {
        let mut from = 0;
        while let Some(found) = lower[from..].find(&phrase) {
            let after = from + found + phrase.len();
            let rest = &lower[after..];
            let trimmed = rest.trim_start();
            let connector = ["is ", "= ", "=", ": ", ":"]
                .iter()
                .find(|connector| trimmed.starts_with(**connector));
            if let Some(connector) = connector {
                let value_at = after + (rest.len() - trimmed.len()) + connector.len();
                if let Some(token) = all.iter().find(|token| token.start >= value_at) {
                    return Some(token.clone());
                }
            }
            from = after;
        }
    }
    None
}

/// Extracts the intent's entities; values already in `context` are not re-read.
pub fn extract(
    skill: &adas_skill::model::Skill,
    intent: &Intent,
    message: &str,
    context: &Map<String, Json>,
    vocabulary: &Vocabulary,
) -> Vec<Entity> {
    let kept = crate::kept::kept(skill, intents_slots);
    let slots: Vec<Slot> = match kept.get(&intent.id) {
        // An intent of the skill: its slots as built once for the skill.
        Some(slots)
            if slots
                .iter()
                .map(|slot| &slot.name)
                .eq(intent.entities.iter().map(|spec| &spec.name)) =>
        {
            slots
                .iter()
                .filter(|slot| !context.contains_key(&slot.name))
                .cloned()
                .collect()
        }
        _ => intent
            .entities
            .iter()
            .filter(|spec| !context.contains_key(&spec.name))
            .map(|spec| slot_for(skill, spec, Some(intent)))
            .collect(),
    };
    extract_slots(&slots, message, &example_prefixes(intent), &[], vocabulary)
}

/// The slots of each intent's entities, by intent id (the first of an id).
fn intents_slots(skill: &adas_skill::model::Skill) -> crate::HashMap<String, Vec<Slot>> {
    let mut slots = crate::HashMap::default();
    for intent in skill.intents.iter().flat_map(|intents| &intents.supported) {
        slots.entry(intent.id.clone()).or_insert_with(|| {
            intent
                .entities
                .iter()
                .map(|spec| slot_for(skill, spec, Some(intent)))
                .collect()
        });
    }
    slots
}

/// The slot of `tool`'s `input`, as built once for the skill (see
/// [`crate::kept`]); an input of no declared tool is built afresh.
pub fn input_slot(
    skill: &adas_skill::model::Skill,
    tool: &str,
    input: &adas_skill::model::ToolInput,
) -> Slot {
    let kept = crate::kept::kept(skill, tools_inputs_slots);
    match kept.get(&(tool.to_owned(), input.name.clone())) {
        Some(slot) => slot.clone(),
        None => build_input_slot(skill, tool, input),
    }
}

/// The slots of each declared tool's inputs, by tool and input name (the
/// first tool of a name).
fn tools_inputs_slots(skill: &adas_skill::model::Skill) -> crate::HashMap<(String, String), Slot> {
    let mut slots = crate::HashMap::default();
    for tool in &skill.tools {
        for input in &tool.inputs {
            slots
                .entry((tool.name.clone(), input.name.clone()))
                .or_insert_with(|| build_input_slot(skill, &tool.name, input));
        }
    }
    slots
}

fn build_input_slot(
    skill: &adas_skill::model::Skill,
    tool: &str,
    input: &adas_skill::model::ToolInput,
) -> Slot {
    // A timestamp another tool's input of the same name says it is ("Start
    // time in ISO 8601") is one here too.
    let mut described: Vec<String> = input.description.iter().cloned().collect();
    described.extend(
        skill
            .tools
            .iter()
            .flat_map(|tool| &tool.inputs)
            .filter(|other| other.name == input.name)
            .filter_map(|other| other.description.clone())
            .filter(|text| text.to_lowercase().contains("iso 8601")),
    );
    described.extend(aliases::same_list_described(
        skill,
        &input.name,
        &input.allowed,
    ));
    Slot::of_input(input)
        .cued_by(tool, &[])
        .described(&described, skill)
}

/// The slot of an entity: named like a tool input, it is read with that
/// input's pattern and format too (an `isbn` entity is an ISBN when the
/// tool's `isbn` has a pattern), and what the input is ("kWh shown on the
/// meter") cues its value, as the words of the intent it is asked for do.
pub fn slot_for(
    skill: &adas_skill::model::Skill,
    spec: &EntitySpec,
    intent: Option<&Intent>,
) -> Slot {
    let described: Vec<String> = skill
        .tools
        .iter()
        .flat_map(|tool| &tool.inputs)
        .filter(|input| input.name == spec.name)
        .filter_map(|input| input.description.clone())
        .chain(spec.description.clone())
        .chain(aliases::same_list_described(
            skill,
            &spec.name,
            &spec.allowed,
        ))
        .collect();
    let mut slot = Slot::of_entity(spec);
    if let Some(intent) = intent {
        slot = slot.cued_by(&intent.id, &intent.examples);
    }
    let mut slot = slot.described(&described, skill);
    let input = skill
        .tools
        .iter()
        .flat_map(|tool| &tool.inputs)
        .find(|input| {
            input.name == spec.name
                && (input.pattern.is_some()
                    || input.format.is_some()
                    || crate::written::lettered_pattern(input).is_some())
        });
    if let Some(input) = input {
        let typed = Slot::of_input(input);
        slot.pattern = typed.pattern;
        if matches!(slot.kind.as_deref(), None | Some("string") | Some("text")) {
            slot.kind = typed.kind;
        }
    }
    slot
}

/// Extracts values for `slots` from a message, never reusing a token that
/// `taken` (or an earlier slot) already holds.
pub fn extract_slots(
    slots: &[Slot],
    message: &str,
    prefixes: &[String],
    taken: &[Entity],
    vocabulary: &Vocabulary,
) -> Vec<Entity> {
    let all = tokens(message);
    let mut entities: Vec<Entity> = taken.to_vec();
    let before = entities.len();
    // Values the user tied to a slot by name come first, for every slot, so a
    // type scan for one slot cannot take the "3" of another's "3 people".
    let mut open: Vec<&Slot> = Vec::new();
    for slot in slots {
        match named_value((slot, slots), message, &all, &entities).filter(|entity| {
            !whole_of_a_part(&all, entity) && !by_name::shaped_for_another(slots, slot, entity)
        }) {
            Some(entity) => entities.push(entity),
            None => open.push(slot),
        }
    }
    // "a campaign called \"Gift Cards Last Minute\"": the quoted words are
    // one value, whatever they say.
    if let Some(entity) = quoted::quoted_value(&open, message, &entities) {
        open.retain(|slot| slot.name != entity.name);
        entities.push(entity);
    }
    // Values matched by type or pattern before plain words placed by their
    // position, so a guess never takes the token a typed slot needs
    // ("restart it in staging": staging is the environment, not the service).
    let typed_first =
        |slot: &&Slot| effective_kind(&slot.spec()) == "string" && slot.pattern.is_none();
    // A date written in words ("28 December 2026") spans several tokens.
    let mut undated = Vec::new();
    let today = vocabulary.today.unwrap_or_else(crate::values::today);
    let mut dates = crate::values::dates_on(message, today);
    let mut times = crate::values::times_in(message);
    times.retain(|span| is_a_value_time(message, span));
    for slot in open {
        let free = dates.iter().position(|(start, end, _)| {
            !entities
                .iter()
                .any(|entity| *start < entity.end && entity.start < *end)
        });
        match free.filter(|_| effective_kind(&slot.spec()) == "date") {
            Some(at) => {
                let (start, end, iso) = dates.remove(at);
                entities.push(Entity {
                    name: slot.name.clone(),
                    kind: "date".into(),
                    value: Json::String(iso),
                    text: message[start..end].to_owned(),
                    start,
                    end,
                    guessed: false,
                });
            }
            None => match time_of_day(slot, (message, today), &mut times, &entities) {
                Some(entity) => entities.push(entity),
                None => undated.push(slot),
            },
        }
    }
    // "at 9, sorry, make that 11am" where the correction was not read: a
    // time of day left over beside one taken is a doubt, never a value.
    let left_over = times.iter().any(|(start, end, _)| {
        !entities
            .iter()
            .any(|entity| *start < entity.end && entity.start < *end)
    });
    if left_over {
        for entity in &mut entities[before..] {
            if matches!(entity.kind.as_str(), "time" | "datetime") {
                entity.guessed = true;
            }
        }
    }
    let mut open_now = Vec::new();
    for slot in undated {
        let phrase = allowed_phrase(slot, message, &entities);
        match phrase {
            Some((value, start, end)) => entities.push(Entity {
                name: slot.name.clone(),
                kind: "enum".into(),
                value,
                text: message[start..end].to_owned(),
                start,
                end,
                guessed: false,
            }),
            None => open_now.push(slot),
        }
    }
    let open = open_now;
    let in_dates = date_numbers(message);
    // "Not urgent": a word the message says no to is no value of it.
    let negated = negated::negated(&all);
    let (plain, typed): (Vec<&Slot>, Vec<&Slot>) = open.into_iter().partition(typed_first);
    for slot in typed.into_iter().chain(plain) {
        let numeric = matches!(
            effective_kind(&slot.spec()).as_str(),
            "integer" | "number" | "money"
        );
        let mut taken = entities.clone();
        if numeric {
            taken.extend(in_dates.iter().cloned());
        } else {
            taken.extend(negated.iter().cloned());
        }
        if let Some(entity) = person_name(slot, message, &all, (&taken, vocabulary)) {
            entities.push(entity);
            continue;
        }
        if let Some(mut entity) = value_by_type(slot, &all, prefixes, &taken, vocabulary)
            .or_else(|| by_description(slot, &all, &taken))
        {
            entity.guessed |= described_otherwise(slot, &all, &taken, &entity.value);
            entities.push(entity);
        }
    }
    let mut found = entities.split_off(before);
    one_date_of_several(slots, (message, today), &all, &mut found);
    // Of two values of one list named, the one "instead" follows.
    prefer_instead(slots, &all, &mut found, &negated);
    // "24 students plus their teacher": the number said is not the whole.
    for entity in &mut found {
        entity.guessed |= added_to(&all, entity);
    }
    // In the slots' order, as callers expect.
    found.sort_by_key(|entity| slots.iter().position(|slot| slot.name == entity.name));
    found
}

/// Whether a time of day in `message` (`start..end`) is a value to set:
/// "my 2pm meeting", "the 10am call" name an item (the one to find), but
/// "move it to the 11am" and "the 7am sailing" are the time wanted.
fn is_a_value_time(message: &str, &(start, end, _): &(usize, usize, String)) -> bool {
    let before = message[..start].trim_end().to_lowercase();
    // "the 7am sailing", "the 2pm from Skellow": a departure named by
    // its time is the time wanted.
    let after = message[end..].trim_start().to_lowercase();
    let departs = [
        "sailing",
        "departure",
        "crossing",
        "ferry",
        "boat",
        "from ",
        "one",
    ]
    .iter()
    .any(|word| after.starts_with(word));
    let names_an_item = ["my", "the", "our", "your", "his", "her", "their", "this"]
        .iter()
        .any(|word| before == *word || before.ends_with(&format!(" {word}")));
    let destination = ["to the", "onto the", "for the", "on the"]
        .iter()
        .any(|words| before.ends_with(&format!(" {words}")));
    !names_an_item || destination || (departs && !before.ends_with(" my") && before != "my")
}

/// An allowed value of several words ("flat tire") found as a phrase in
/// `message` — as written, inflected or mistyped ("my brakes checked") —
/// where no value is taken yet.
fn allowed_phrase(slot: &Slot, message: &str, entities: &[Entity]) -> Option<(Json, usize, usize)> {
    slot.allowed
        .iter()
        .filter_map(|value| {
            value
                .as_str()
                .map(|name| (value, name.to_lowercase().replace('_', " ")))
        })
        .filter(|(_, name)| name.contains(' '))
        .find_map(|(value, name)| {
            // As written, inflected or mistyped ("my brakes checked").
            let (start, end) = *crate::values::value_spans(message, &name).first()?;
            Some((value.clone(), start, end))
        })
        .filter(|(_, start, end)| {
            !entities
                .iter()
                .any(|entity| *start < entity.end && entity.start < *end)
        })
}

/// A date's numbers ("March 2025", "11/02", "2026-12-14"): no count or amount.
fn date_numbers(message: &str) -> Vec<Entity> {
    crate::values::date_spans(message)
        .into_iter()
        .map(|(start, end)| Entity {
            name: String::new(),
            kind: "date".into(),
            value: Json::Null,
            text: message[start..end].to_owned(),
            start,
            end,
            guessed: true,
        })
        .collect()
}

mod dates;
mod negated;
mod quoted;
mod typed;
use dates::{one_date_of_several, time_of_day};
pub(crate) use typed::by_kind_only;
use typed::{is_email, little_word, typed};

mod aliases;
use aliases::{
    aliases, by_description, described_otherwise, direction_cues, domain_stems, glossed,
    name_alias, prefer_instead, proper_names,
};

#[cfg(test)]
mod tests;
