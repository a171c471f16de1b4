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

use std::collections::HashSet;

use adas_skill::model::{Entity as EntitySpec, Intent};
use serde_json::{Map, Value as Json};

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
    pub pattern: Option<regex::Regex>,
    /// Stems of the words that name the action the value is for ("book" for
    /// `book_class`): of two ids that fit, the one right after them is meant.
    pub cues: Vec<String>,
}

impl Slot {
    /// The slot of an intent's entity.
    pub fn of_entity(spec: &EntitySpec) -> Self {
        Self {
            name: spec.name.clone(),
            kind: spec.kind.clone(),
            allowed: spec.allowed.clone(),
            pattern: None,
            cues: Vec::new(),
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
                .as_deref()
                .and_then(|pattern| regex::Regex::new(pattern).ok()),
            cues: Vec::new(),
        }
    }

    /// The slot with the words of its inputs' descriptions among its cues
    /// (fillers and the slot's own name aside).
    pub fn described(mut self, descriptions: &[String]) -> Self {
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
    if name.contains("email") {
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

fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.split_once('@') else {
        return false;
    };
    !local.is_empty() && domain.contains('.') && !domain.starts_with('.') && !domain.ends_with('.')
}

/// Chat shorthand as the words it stands for.
pub(crate) const SHORTHAND: &[(&str, &str)] = &[
    ("pls", "please"),
    ("plz", "please"),
    ("thx", "thanks"),
    ("ty", "thanks"),
    ("u", "you"),
    ("ur", "your"),
    ("r", "are"),
    ("wat", "what"),
    ("wats", "what's"),
    ("hav", "have"),
    ("dont", "don't"),
    ("cant", "can't"),
    ("wont", "won't"),
    ("abt", "about"),
    ("acct", "account"),
    ("amt", "amount"),
    ("msg", "message"),
    ("tmrw", "tomorrow"),
    ("tmr", "tomorrow"),
    ("ppl", "people"),
    ("wanna", "want"),
    ("gonna", "going"),
];

/// Whether a lower-case word is chat shorthand ("pls", "thx").
pub(crate) fn is_shorthand(word: &str) -> bool {
    SHORTHAND.iter().any(|(short, _)| *short == word)
        || matches!(word, "pls" | "plz" | "thx" | "ty" | "u" | "ur")
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

fn is_iso_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    parts.len() == 3
        && parts[0].len() == 4
        && parts[1].len() == 2
        && parts[2].len() == 2
        && parts
            .iter()
            .all(|part| part.chars().all(|c| c.is_ascii_digit()))
}

fn typed(kind: &str, spec: &EntitySpec, token: &Token<'_>, prefixes: &[String]) -> Option<Json> {
    let text = token.text;
    match kind {
        "email" => is_email(text).then(|| Json::String(text.to_owned())),
        "phone" => {
            let digits = text.chars().filter(char::is_ascii_digit).count();
            (digits >= 7
                && text
                    .chars()
                    .all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '.' | '(' | ')')))
            .then(|| Json::String(text.to_owned()))
        }
        // "$12" is money, not a count.
        "integer" if text.starts_with(['$', '€', '£']) => None,
        "integer" => parse_amount(text)
            .filter(|value| value.fract() == 0.0 && value.abs() < 9.0e15)
            .map(|value| value as i64)
            .or_else(|| crate::values::number_word(text))
            .map(Json::from),
        "number" | "money" => {
            let money_marked = text.starts_with(['$', '€', '£']);
            if kind == "number" || money_marked || parse_amount(text).is_some() {
                parse_amount(text).map(number_json)
            } else {
                None
            }
        }
        "date" => is_iso_date(text).then(|| Json::String(text.to_owned())),
        "boolean" => match text.to_lowercase().as_str() {
            "yes" | "y" | "true" => Some(Json::Bool(true)),
            "no" | "n" | "false" => Some(Json::Bool(false)),
            _ => None,
        },
        "enum" => allowed_value(&spec.allowed, text),
        "identifier" => {
            if !is_identifier(text) {
                return None;
            }
            let matches_examples = prefixes.is_empty()
                || prefixes
                    .iter()
                    .any(|prefix| text.to_uppercase().starts_with(prefix));
            matches_examples.then(|| Json::String(text.to_uppercase()))
        }
        _ => None,
    }
}

/// The allowed value a word names: itself (any case), its inflection
/// ("brake" for `brakes`), or the one value it is a typo of ("univesity").
fn allowed_value(allowed: &[Json], text: &str) -> Option<Json> {
    let text = text.to_lowercase();
    let values: Vec<(&Json, String)> = allowed
        .iter()
        .filter_map(|value| value.as_str().map(|name| (value, name.to_lowercase())))
        .collect();
    if let Some((value, _)) = values.iter().find(|(_, name)| *name == text) {
        return Some((*value).clone());
    }
    let stem = crate::lexicon::stem(&text);
    if let Some((value, _)) = values
        .iter()
        .find(|(_, name)| !name.contains(' ') && crate::lexicon::stem(name) == stem)
    {
        return Some((*value).clone());
    }
    // The word that sets a value of several words apart from the others
    // ("missing the fries" is a `missing item`, "arrived cold" `cold food`):
    // its first word, when only that value opens with it.
    let opening = |name: &str| {
        name.split_whitespace()
            .next()
            .filter(|_| name.contains(' '))
            .map(crate::lexicon::stem)
    };
    let opened: Vec<&Json> = values
        .iter()
        .filter(|(_, name)| {
            text.chars().count() >= 4 && opening(name).as_deref() == Some(stem.as_str())
        })
        .map(|(value, _)| *value)
        .collect();
    if let [one] = opened.as_slice() {
        return Some((*one).clone());
    }
    // A kind of exactly one value ("fridge" of `appliance`).
    let kind_of: Vec<&Json> = values
        .iter()
        .filter(|(_, name)| {
            !name.contains(' ')
                && crate::lexicon::lexicon().is_kind_of(&stem, &crate::lexicon::stem(name))
        })
        .map(|(value, _)| *value)
        .collect();
    if let [one] = kind_of.as_slice() {
        return Some((*one).clone());
    }
    let length = text.chars().count();
    let reach = match length {
        0..=4 => return None,
        5..=7 => 1,
        _ => 2,
    };
    let close: Vec<&Json> = values
        .iter()
        .filter(|(_, name)| {
            name.chars().next() == text.chars().next()
                && strsim::damerau_levenshtein(name, &text) <= reach
        })
        .map(|(value, _)| *value)
        .collect();
    match close.as_slice() {
        [one] => Some((*one).clone()),
        _ => None,
    }
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

/// The words a slot value never is: the skill's own vocabulary (intent ids,
/// tool and input names, every description, the problem statement, the verb
/// an example opens with) and filler words. Compared by a crude stem, so
/// "reserving" is "reserve".
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    stems: std::collections::HashSet<String>,
}

/// Words that carry no value in a request (fillers, pronouns, auxiliaries).
const FILLER: &[&str] = &[
    "a",
    "an",
    "the",
    "i",
    "me",
    "my",
    "we",
    "our",
    "you",
    "your",
    "it",
    "its",
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "to",
    "of",
    "for",
    "in",
    "on",
    "at",
    "and",
    "or",
    "please",
    "can",
    "could",
    "would",
    "will",
    "should",
    "do",
    "does",
    "did",
    "this",
    "that",
    "these",
    "those",
    "with",
    "from",
    "im",
    "i'm",
    "i'd",
    "id",
    "hi",
    "hello",
    "hey",
    "some",
    "what",
    "what's",
    "whats",
    "where",
    "where's",
    "when",
    "which",
    "who",
    "how",
    "why",
    "like",
    "today",
    "tell",
    "ok",
    "okay",
    "up",
    "down",
    "fine",
    "good",
    "now",
    "right",
    "thanks",
    "thank",
    "also",
    "just",
    "recently",
    "recent",
    "last",
    "show",
    "get",
    "give",
    "want",
    "need",
    "let",
    "know",
    "see",
    "any",
    "all",
    "there",
    "here",
    "then",
    "so",
    "about",
    "as",
    "by",
    "if",
    "not",
    "no",
    "yes",
    "yet",
    "still",
    "again",
    "new",
    "one",
    "more",
    "much",
    "many",
    "very",
    "really",
    "into",
    "out",
    "over",
    "under",
    "via",
    "per",
    "currently",
    "doing",
    "going",
    "being",
    "am",
    "has",
    "have",
    "had",
    "us",
    "them",
    "they",
    "he",
    "she",
    "his",
    "her",
    "their",
    "latest",
    "current",
    "check",
    "tell",
    "find",
    "look",
    "status",
    "ok?",
    "gonna",
    "wanna",
    "anything",
    "something",
    "everything",
    "stuff",
    "thing",
    "things",
];

/// Words an example opens with that ask rather than name an action.
const QUESTION_OPENERS: &[&str] = &[
    "is", "are", "was", "were", "what", "what's", "whats", "where", "where's", "when", "which",
    "who", "whose", "how", "why", "has", "have", "does", "do", "did", "will", "i", "i'd", "i'm",
    "my", "the", "a", "an",
];

fn stem(word: &str) -> String {
    let word = word.to_lowercase();
    let word = word.trim_matches(|c: char| !c.is_alphanumeric());
    for suffix in ["ing", "ed", "es", "s"] {
        if word.len() > suffix.len() + 3
            && let Some(stem) = word.strip_suffix(suffix)
        {
            return stem.to_owned();
        }
    }
    word.to_owned()
}

fn plain_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|word| !word.is_empty())
}

impl Vocabulary {
    /// The vocabulary of a skill.
    pub fn of(skill: &adas_skill::model::Skill) -> Self {
        let mut texts: Vec<String> = Vec::new();
        let mut push = |text: &str| texts.push(text.replace(['_', '.', '-'], " "));
        if let Some(problem) = &skill.problem
            && let Some(statement) = &problem.statement
        {
            push(statement);
        }
        for intent in skill.intents.iter().flat_map(|intents| &intents.supported) {
            push(&intent.id);
            if let Some(description) = &intent.description {
                push(description);
            }
            for example in &intent.examples {
                // The verb an imperative example opens with ("Reserve room 4",
                // "Please bounce payments"); a question's first word is not one.
                let mut words = plain_words(example)
                    .map(str::to_lowercase)
                    .skip_while(|word| matches!(word.as_str(), "please" | "can" | "could" | "you"));
                if let Some(first) = words.next()
                    && !QUESTION_OPENERS.contains(&first.as_str())
                {
                    push(&first);
                }
            }
        }
        for tool in &skill.tools {
            push(&tool.name);
            if let Some(description) = &tool.description {
                push(description);
            }
            for input in &tool.inputs {
                push(&input.name);
                if let Some(description) = &input.description {
                    push(description);
                }
            }
        }
        let mut stems: std::collections::HashSet<String> = texts
            .iter()
            .flat_map(|text| plain_words(text).map(stem))
            .collect();
        stems.extend(FILLER.iter().map(|word| stem(word)));
        Self { stems }
    }

    /// Whether a word belongs to the vocabulary.
    pub fn contains(&self, word: &str) -> bool {
        self.stems.contains(&stem(word))
    }
}

/// Extracts the intent's entities; values already in `context` are not re-read.
/// An entity named like a tool input is read with that input's pattern and
/// format too (an `isbn` entity is an ISBN when the tool's `isbn` has a pattern).
pub fn extract(
    skill: &adas_skill::model::Skill,
    intent: &Intent,
    message: &str,
    context: &Map<String, Json>,
    vocabulary: &Vocabulary,
) -> Vec<Entity> {
    let slots: Vec<Slot> = intent
        .entities
        .iter()
        .filter(|spec| !context.contains_key(&spec.name))
        .map(|spec| {
            // What the input is ("kWh shown on the meter") cues its value too.
            let described: Vec<String> = skill
                .tools
                .iter()
                .flat_map(|tool| &tool.inputs)
                .filter(|input| input.name == spec.name)
                .filter_map(|input| input.description.clone())
                .collect();
            let mut slot = Slot::of_entity(spec)
                .cued_by(&intent.id, &intent.examples)
                .described(&described);
            let input = skill
                .tools
                .iter()
                .flat_map(|tool| &tool.inputs)
                .find(|input| {
                    input.name == spec.name && (input.pattern.is_some() || input.format.is_some())
                });
            if let Some(input) = input {
                let typed = Slot::of_input(input);
                slot.pattern = typed.pattern;
                if matches!(slot.kind.as_deref(), None | Some("string") | Some("text")) {
                    slot.kind = typed.kind;
                }
            }
            slot
        })
        .collect();
    extract_slots(&slots, message, &example_prefixes(intent), &[], vocabulary)
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
        match named_value(slot, message, &all, &entities) {
            Some(entity) => entities.push(entity),
            None => open.push(slot),
        }
    }
    // Values matched by type or pattern before plain words placed by their
    // position, so a guess never takes the token a typed slot needs
    // ("restart it in staging": staging is the environment, not the service).
    let typed_first =
        |slot: &&Slot| effective_kind(&slot.spec()) == "string" && slot.pattern.is_none();
    // A date written in words ("28 December 2026") spans several tokens.
    let mut undated = Vec::new();
    let mut dates = crate::values::dates_in(message);
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
            None => undated.push(slot),
        }
    }
    // An allowed value of several words ("flat tire") is found as a phrase.
    let mut open_now = Vec::new();
    for slot in undated {
        let phrase = slot
            .allowed
            .iter()
            .filter_map(|value| value.as_str().map(|name| (value, name.to_lowercase())))
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
            });
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
    // A date's numbers ("March 2025", "11/02", "2026-12-14") are no count or
    // amount.
    let in_dates: Vec<Entity> = crate::values::date_spans(message)
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
        .collect();
    let (plain, typed): (Vec<&Slot>, Vec<&Slot>) = open.into_iter().partition(typed_first);
    for slot in typed.into_iter().chain(plain) {
        let numeric = matches!(
            effective_kind(&slot.spec()).as_str(),
            "integer" | "number" | "money"
        );
        let mut taken = entities.clone();
        if numeric {
            taken.extend(in_dates.iter().cloned());
        }
        if let Some(entity) = person_name(slot, message, &all, &taken) {
            entities.push(entity);
            continue;
        }
        if let Some(entity) = value_by_type(slot, &all, prefixes, &taken, vocabulary) {
            entities.push(entity);
        }
    }
    let mut found = entities.split_off(before);
    one_date_of_several(slots, message, &all, &mut found);
    // In the slots' order, as callers expect.
    found.sort_by_key(|entity| slots.iter().position(|slot| slot.name == entity.name));
    found
}

/// One date asked for and several different ones written ("the contractor
/// starts on December 15th, so … rent a unit from 2026-12-14"): the one after
/// the message's turn is meant; otherwise which one is a guess, confirmed
/// before any side effect — whatever word stood beside the first.
fn one_date_of_several(slots: &[Slot], message: &str, all: &[Token<'_>], found: &mut [Entity]) {
    let date_slots = slots
        .iter()
        .filter(|slot| effective_kind(&slot.spec()) == "date")
        .count();
    let mut dated = found.iter_mut().filter(|entity| entity.kind == "date");
    let (Some(entity), None, 1) = (dated.next(), dated.next(), date_slots) else {
        return;
    };
    // Every date written, with its day when it says one ("2026-12-14",
    // "December 15th"; "11/02" is a date of no certain day).
    let in_words = crate::values::dates_in(message);
    let dates: Vec<(usize, usize, Option<String>)> = crate::values::date_spans(message)
        .into_iter()
        .map(|(start, end)| {
            let day = in_words
                .iter()
                .find(|(at, _, _)| *at == start)
                .map(|(_, _, iso)| iso.clone())
                .or_else(|| {
                    message[start..end]
                        .parse::<jiff::civil::Date>()
                        .ok()
                        .map(|date| date.to_string())
                });
            (start, end, day)
        })
        .collect();
    // "December 2026" inside "28 December 2026" is that date, not another.
    let dated: Vec<(usize, usize)> = dates
        .iter()
        .filter(|(_, _, day)| day.is_some())
        .map(|(start, end, _)| (*start, *end))
        .collect();
    let dates: Vec<(usize, usize, Option<String>)> = dates
        .into_iter()
        .filter(|(start, end, day)| {
            day.is_some() || !dated.iter().any(|(from, to)| *start < *to && *from < *end)
        })
        .collect();
    if dates.iter().all(|(_, _, day)| {
        day.as_ref()
            .is_some_and(|day| Json::String(day.clone()) == entity.value)
    }) {
        return;
    }
    // The date in the sentence that names the action ("We would love to
    // book a double room on 2027-03-13"), else the one after the turn.
    let cues: &[String] = slots
        .iter()
        .find(|slot| slot.name == entity.name)
        .map_or(&[], |slot| &slot.cues);
    let sentence_of = |at: usize| {
        message[..at]
            .rfind(['.', '?', '!', ';', '\n'])
            .map_or(0, |end| end + 1)
    };
    let cued: HashSet<usize> = all
        .iter()
        .filter(|token| cues.contains(&crate::lexicon::stem(&token.text.to_lowercase())))
        .map(|token| sentence_of(token.start))
        .collect();
    let in_cued: Vec<&(usize, usize, Option<String>)> = dates
        .iter()
        .filter(|(start, _, _)| cued.contains(&sentence_of(*start)))
        .collect();
    let turn = all
        .iter()
        .rposition(|token| matches!(token.text.to_lowercase().as_str(), "but" | "so" | "instead"))
        .map(|at| all[at].start);
    let after: Vec<&(usize, usize, Option<String>)> = dates
        .iter()
        .filter(|(start, _, _)| turn.is_some_and(|turn| turn < *start))
        .collect();
    let chosen = match (in_cued.as_slice(), after.as_slice()) {
        ([one], _) => [*one],
        (_, [one]) => [*one],
        _ => {
            entity.guessed = true;
            return;
        }
    };
    match chosen.as_slice() {
        [(start, end, Some(day))] => {
            entity.value = Json::String(day.clone());
            entity.text = message[*start..*end].to_owned();
            entity.start = *start;
            entity.end = *end;
            entity.guessed = false;
        }
        _ => entity.guessed = true,
    }
}

/// Words that make a free-text input a person's name.
const PERSON_INPUTS: &[&str] = &[
    "person",
    "name",
    "contact",
    "guest",
    "recipient",
    "driver",
    "passenger",
    "visitor",
    "attendee",
    "owner",
];

/// A person's name for an input that takes one ("allow Dana Cole to pick up
/// CH-105"): the one run of two or three capitalized words inside a sentence
/// (a sentence's first word is capitalized anyway, and is left out).
fn person_name(slot: &Slot, message: &str, all: &[Token<'_>], taken: &[Entity]) -> Option<Entity> {
    let named = slot
        .name
        .to_lowercase()
        .split(['_', '-'])
        .any(|part| PERSON_INPUTS.contains(&part));
    if !named || slot.pattern.is_some() || !slot.allowed.is_empty() {
        return None;
    }
    let opens = |token: &Token<'_>| {
        message[..token.start]
            .trim_end()
            .chars()
            .last()
            .is_none_or(|c| matches!(c, '.' | '!' | '?' | ':' | ';'))
    };
    let capitalized = |token: &Token<'_>| {
        let mut chars = token.text.chars();
        chars.next().is_some_and(char::is_uppercase)
            && chars.all(|c| c.is_lowercase() || c == '\'' || c == '-')
            && !overlaps(token, taken)
    };
    let mut runs: Vec<Vec<&Token<'_>>> = Vec::new();
    let mut current: Vec<&Token<'_>> = Vec::new();
    for token in all {
        if capitalized(token) && !opens(token) && token.text != "I" {
            current.push(token);
        } else if !current.is_empty() {
            runs.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        runs.push(current);
    }
    runs.retain(|run| (2..=3).contains(&run.len()));
    let [run] = runs.as_slice() else {
        return None;
    };
    let (first, last) = (run[0], run[run.len() - 1]);
    let end = last.start + last.text.len();
    Some(Entity {
        name: slot.name.clone(),
        kind: "string".into(),
        value: Json::String(message[first.start..end].to_owned()),
        text: message[first.start..end].to_owned(),
        start: first.start,
        end,
        guessed: false,
    })
}

fn overlaps(token: &Token<'_>, entities: &[Entity]) -> bool {
    entities
        .iter()
        .any(|entity| token.start < entity.end && entity.start < token.start + token.text.len())
}

/// The slot's typed value of a token, when it also fits the slot's pattern.
fn typed_value(slot: &Slot, kind: &str, token: &Token<'_>, prefixes: &[String]) -> Option<Json> {
    // A declared pattern says what the value looks like better than the
    // prefixes the examples happen to use ("ECON220" when they say "CS101").
    let prefixes = if slot.pattern.is_some() {
        &[]
    } else {
        prefixes
    };
    let value = typed(kind, &slot.spec(), token, prefixes)?;
    match (&slot.pattern, &value) {
        (Some(pattern), Json::String(text)) if !pattern.is_match(text) => None,
        _ => Some(value),
    }
}

/// A plain-string token usable as a value (and fitting the slot's pattern).
fn plain_value(slot: &Slot, token: &Token<'_>) -> bool {
    token
        .text
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
        && slot
            .pattern
            .as_ref()
            .is_none_or(|pattern| pattern.is_match(token.text))
}

/// "name is X", "name=X", "name: X", or a value beside the name ("room 5",
/// "order ORD-1", "3 people"): evidence.
fn named_value(slot: &Slot, message: &str, all: &[Token<'_>], taken: &[Entity]) -> Option<Entity> {
    let spec = slot.spec();
    let kind = effective_kind(&spec);
    if let Some(token) = explicit(&spec, message, all).filter(|token| !overlaps(token, taken)) {
        // Named by the user: the value's type decides, not the examples' prefixes.
        let value = if kind == "string" {
            plain_value(slot, &token).then(|| Json::String(token.text.to_owned()))
        } else {
            typed_value(slot, &kind, &token, &[])
        };
        if let Some(value) = value {
            return Some(found(&slot.name, &kind, value, &token, false));
        }
    }
    let typed_here = |token: &Token<'_>| typed_value(slot, &kind, token, &[]);
    let plain_ok = |token: &Token<'_>| plain_value(slot, token);
    let beside: Vec<(Token<'_>, Json)> = beside_name(&spec, all, &kind, &typed_here, &plain_ok)
        .into_iter()
        .filter(|(token, _)| !overlaps(token, taken))
        .collect();
    // "card 9077 is fine, freeze card 4421": two values beside the name.
    one_of(slot, &kind, all, beside)
}

/// A value found by its type anywhere (an email is an email wherever it
/// stands; a bare number is evidence only when it is the only one), by the
/// slot's pattern, or — for a plain string — by position (a guess, never a
/// vocabulary word).
fn value_by_type(
    slot: &Slot,
    all: &[Token<'_>],
    prefixes: &[String],
    taken: &[Entity],
    vocabulary: &Vocabulary,
) -> Option<Entity> {
    let spec = slot.spec();
    let kind = effective_kind(&spec);
    // "last week" is a time, not a `weekly` of an allowed list.
    let timed = |token: &Token<'_>| {
        all.iter()
            .position(|other| other.start == token.start)
            .and_then(|at| at.checked_sub(1))
            .is_some_and(|before| {
                crate::values::TIME_MARKERS.contains(&all[before].text.to_lowercase().as_str())
            })
    };
    if kind != "string" {
        let matches: Vec<(Token<'_>, Json)> = all
            .iter()
            .filter(|token| !(overlaps(token, taken) || (kind == "enum" && timed(token))))
            .filter_map(|token| {
                typed_value(slot, &kind, token, prefixes).map(|value| (token.clone(), value))
            })
            .collect();
        let bare_number = matches!(kind.as_str(), "integer" | "number")
            || (kind == "money"
                && !matches
                    .first()
                    .is_some_and(|(token, _)| token.text.starts_with(['$', '€', '£'])));
        if bare_number {
            // Of several numbers, the one its cue stands before ("the meter
            // shows 12500") is meant; otherwise the first is a guess.
            if let Some(cued) = one_of(slot, &kind, all, matches.clone()).filter(|one| !one.guessed)
            {
                return Some(cued);
            }
            let (token, value) = matches.first().cloned()?;
            return Some(found(&slot.name, &kind, value, &token, matches.len() > 1));
        }
        return one_of(slot, &kind, all, matches);
    }
    if let Some(pattern) = &slot.pattern {
        let matches: Vec<(Token<'_>, Json)> = all
            .iter()
            .filter(|token| !overlaps(token, taken) && pattern.is_match(token.text))
            .map(|token| (token.clone(), Json::String(token.text.to_owned())))
            .collect();
        return one_of(slot, &kind, all, matches);
    }
    // A slot of allowed values takes one of them or none ("can I make an
    // appointment?" names no service): no word is its value by position.
    if !slot.allowed.is_empty() {
        let matches: Vec<(Token<'_>, Json)> = all
            .iter()
            .filter(|token| !overlaps(token, taken) && !timed(token))
            .filter_map(|token| {
                let value = slot.allowed.iter().find(|value| {
                    value
                        .as_str()
                        .is_some_and(|name| name.eq_ignore_ascii_case(token.text))
                })?;
                Some((token.clone(), value.clone()))
            })
            .collect();
        return one_of(slot, &kind, all, matches);
    }
    if let Some(token) = string_by_name(&spec, all)
        .filter(|token| !overlaps(token, taken) && !vocabulary.contains(token.text))
    {
        let guessed = !token.text.contains('/');
        let value = Json::String(token.text.to_owned());
        return Some(found(&slot.name, &kind, value, &token, guessed));
    }
    remainder(all, taken, vocabulary)
        .map(|(token, text)| found(&slot.name, &kind, Json::String(text), &token, true))
}

/// How many tokens before a value its action's word may stand ("book
/// CL-101", "refund $20 on ORD-2").
const CUE_REACH: usize = 3;

/// The value of several that fit a slot: the only one, else the one its
/// action's word stands right before ("CL-102 is full, so book CL-101
/// instead"); when that does not tell, the first — as a guess, so it never
/// makes a side effect without the user's yes.
fn one_of(
    slot: &Slot,
    kind: &str,
    all: &[Token<'_>],
    matches: Vec<(Token<'_>, Json)>,
) -> Option<Entity> {
    let mut distinct: Vec<&(Token<'_>, Json)> = Vec::new();
    for candidate in &matches {
        if !distinct.iter().any(|known| known.1 == candidate.1) {
            distinct.push(candidate);
        }
    }
    let (token, value) = match distinct.as_slice() {
        [] => return None,
        [one] => return Some(found(&slot.name, kind, one.1.clone(), &one.0, false)),
        _ => {
            // How near the action's word stands before each ("turn off
            // roaming on LN-1005": off, not the "on" of "on LN-1005").
            let reach = |token: &Token<'_>| -> Option<usize> {
                let at = all.iter().position(|other| other.start == token.start)?;
                (1..=CUE_REACH.min(at)).find(|back| {
                    slot.cues
                        .contains(&crate::lexicon::stem(&all[at - back].text.to_lowercase()))
                })
            };
            let reaches: Vec<Option<usize>> =
                distinct.iter().map(|(token, _)| reach(token)).collect();
            if let Some(nearest) = reaches.iter().flatten().min()
                && reaches
                    .iter()
                    .filter(|reach| **reach == Some(*nearest))
                    .count()
                    == 1
            {
                let at = reaches
                    .iter()
                    .position(|reach| *reach == Some(*nearest))
                    .expect("the nearest is one of them");
                return Some(found(
                    &slot.name,
                    kind,
                    distinct[at].1.clone(),
                    &distinct[at].0,
                    false,
                ));
            }
            // "PK-40003 is fine, but PK-40001 arrived damaged": the one after
            // the turn is meant.
            let turn = all.iter().rposition(|token| {
                matches!(token.text.to_lowercase().as_str(), "but" | "so" | "instead")
            });
            let after: Vec<&&(Token<'_>, Json)> = distinct
                .iter()
                .filter(|(token, _)| turn.is_some_and(|turn| all[turn].start < token.start))
                .collect();
            if let [one] = after.as_slice() {
                return Some(found(&slot.name, kind, one.1.clone(), &one.0, false));
            }
            // "NW303 was cancelled …, is NW404 leaving on time?": a value a
            // statement is about ("X was", "X is full") is not the one asked
            // for when only one other is left.
            let stated = |token: &Token<'_>| {
                all.iter()
                    .position(|other| other.start == token.start)
                    .and_then(|at| all.get(at + 1))
                    .is_some_and(|next| {
                        matches!(
                            next.text.to_lowercase().as_str(),
                            "is" | "was"
                                | "are"
                                | "were"
                                | "has"
                                | "had"
                                | "got"
                                | "isn't"
                                | "wasn't"
                        )
                    })
            };
            let unstated: Vec<&&(Token<'_>, Json)> = distinct
                .iter()
                .filter(|(token, _)| !stated(token))
                .collect();
            if let [one] = unstated.as_slice() {
                return Some(found(&slot.name, kind, one.1.clone(), &one.0, false));
            }
            distinct[0].clone()
        }
    };
    Some(found(&slot.name, kind, value, &token, true))
}

/// The values just after or just before the slot's name ("room 5", "order
/// ORD-1", "3 people"); a plain string only when it has a digit ("room B12").
fn beside_name<'a>(
    spec: &EntitySpec,
    all: &[Token<'a>],
    kind: &str,
    typed_here: &dyn Fn(&Token<'_>) -> Option<Json>,
    plain_ok: &dyn Fn(&Token<'_>) -> bool,
) -> Vec<(Token<'a>, Json)> {
    let name = spec.name.to_lowercase();
    let base = name
        .strip_suffix("_id")
        .or_else(|| name.strip_suffix("_number"))
        .unwrap_or(&name)
        .to_owned();
    let names = [name.clone(), base, name.replace('_', " ")];
    let value_of = |token: &Token<'a>| -> Option<Json> {
        if kind == "string" {
            (plain_ok(token) && token.text.chars().any(|c| c.is_ascii_digit()))
                .then(|| Json::String(token.text.to_owned()))
        } else {
            typed_here(token)
        }
    };
    let mut found = Vec::new();
    for (index, token) in all.iter().enumerate() {
        let word = token.text.to_lowercase();
        let word = word.trim_end_matches('s');
        if !names.iter().any(|name| name.trim_end_matches('s') == word) {
            continue;
        }
        // Both sides: "turn off roaming on LN-1005" has a value before the
        // name and a word after it that looks like one.
        if let Some(next) = all.get(index + 1)
            && let Some(value) = value_of(next)
        {
            found.push((next.clone(), value));
        }
        if kind != "string"
            && index > 0
            && let Some(value) = typed_here(&all[index - 1])
        {
            found.push((all[index - 1].clone(), value));
        }
    }
    found
}

/// The one run of content words left in a message once fillers, vocabulary
/// and taken values are removed ("Check the health of payments" → payments).
/// Two separate runs are ambiguous: no value.
fn remainder<'a>(
    all: &[Token<'a>],
    taken: &[Entity],
    vocabulary: &Vocabulary,
) -> Option<(Token<'a>, String)> {
    let mut runs: Vec<Vec<&Token<'a>>> = Vec::new();
    let mut current: Vec<&Token<'a>> = Vec::new();
    for token in all {
        let content = token
            .text
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_'))
            && !vocabulary.contains(token.text)
            && !taken.iter().any(|entity| {
                token.start < entity.end && entity.start < token.start + token.text.len()
            });
        // "a huge pothole", "pls report": a modifier or chat shorthand is no
        // name of anything, and never a value by position.
        let lower = token.text.to_lowercase();
        let filler = is_shorthand(&lower)
            || crate::lexicon::lexicon().only_modifies(&crate::lexicon::stem(&lower));
        if content && !filler {
            current.push(token);
        } else if !current.is_empty() {
            runs.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        runs.push(current);
    }
    match runs.as_slice() {
        [run] if run.len() <= 3 => {
            let text = run
                .iter()
                .map(|token| token.text.to_lowercase())
                .collect::<Vec<_>>()
                .join(" ");
            Some((run[0].clone(), text))
        }
        _ => None,
    }
}

/// A plain-string value located by its name: a path-like token for `path`/`file`
/// slots, else the word just before the name ("the checkout service").
fn string_by_name<'a>(spec: &EntitySpec, all: &[Token<'a>]) -> Option<Token<'a>> {
    let name = spec.name.to_lowercase();
    if name.contains("path") || name.contains("file") {
        return all
            .iter()
            .find(|token| {
                token.text.contains('/')
                    || token.text.rsplit_once('.').is_some_and(|(stem, ext)| {
                        !stem.is_empty()
                            && !ext.is_empty()
                            && ext.chars().all(|c| c.is_ascii_alphanumeric())
                    })
            })
            .cloned();
    }
    const SKIP: &[&str] = &["the", "a", "an", "my", "our", "this", "that", "of", "for"];
    let position = all
        .iter()
        .position(|token| token.text.eq_ignore_ascii_case(&name))?;
    let before = all[..position].last()?;
    let usable = before
        .text
        .chars()
        .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
        && !SKIP.contains(&before.text.to_lowercase().as_str());
    usable.then(|| before.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec(name: &str, kind: &str) -> EntitySpec {
        EntitySpec {
            name: name.into(),
            kind: Some(kind.into()),
            required: true,
            allowed: Vec::new(),
        }
    }

    fn intent(entities: Vec<EntitySpec>, examples: &[&str]) -> Intent {
        Intent {
            id: "i".into(),
            description: None,
            examples: examples.iter().map(|e| (*e).to_owned()).collect(),
            entities,
            maps_to_workflow: None,
            reply: None,
        }
    }

    fn values(intent: &Intent, message: &str) -> Vec<(String, Json)> {
        extract(
            &adas_skill::model::Skill::default(),
            intent,
            message,
            &Map::new(),
            &Vocabulary::default(),
        )
        .into_iter()
        .map(|entity| (entity.name, entity.value))
        .collect()
    }

    #[test]
    fn types() {
        let all = intent(
            vec![
                spec("email", "email"),
                spec("phone", "phone"),
                spec("count", "integer"),
                spec("amount", "money"),
                spec("day", "date"),
                spec("ok", "boolean"),
            ],
            &[],
        );
        let found = values(
            &all,
            "mail bob@gmail.com or call +1-555-123-4567, 3 items for $49.50 on 2026-11-30, yes",
        );
        assert_eq!(
            found,
            vec![
                ("email".into(), json!("bob@gmail.com")),
                ("phone".into(), json!("+1-555-123-4567")),
                ("count".into(), json!(3)),
                ("amount".into(), json!(49.5)),
                ("day".into(), json!("2026-11-30")),
                ("ok".into(), json!(true)),
            ]
        );
    }

    #[test]
    fn the_verb_is_never_the_value_and_guesses_are_marked() {
        let skill: adas_skill::model::Skill = serde_json::from_value(json!({
            "problem": {"statement": "Reserve rooms"},
            "intents": {"supported": [{"id": "reserve_room", "description": "Student wants to reserve a room",
                "examples": ["Reserve room 4 for 2 people"]}]},
            "tools": [{"name": "reserve_room", "inputs": [
                {"name": "room", "type": "string", "pattern": "^[0-9]{1,3}$"},
                {"name": "people", "type": "integer"}]}]
        }))
        .unwrap();
        let vocabulary = Vocabulary::of(&skill);
        let slots: Vec<Slot> = skill.tools[0].inputs.iter().map(Slot::of_input).collect();
        let read = |message: &str| -> Vec<(String, Json, bool)> {
            extract_slots(&slots, message, &[], &[], &vocabulary)
                .into_iter()
                .map(|entity| (entity.name, entity.value, entity.guessed))
                .collect()
        };
        // "room 5": beside its name; nothing is "reserve".
        assert_eq!(
            read("I'd like to reserve room 5"),
            vec![("room".into(), json!("5"), false)]
        );
        // "study" fails the pattern; "3 people" is the people, not the room.
        assert_eq!(
            read("Book a study room for 3 people"),
            vec![("people".into(), json!(3), false)]
        );
        // Without a pattern a plain word is a guess, and never a vocabulary word.
        let plain: Vec<Slot> = vec![Slot {
            name: "service".into(),
            kind: Some("string".into()),
            allowed: Vec::new(),
            pattern: None,
            cues: Vec::new(),
        }];
        let guessed = extract_slots(
            &plain,
            "look at the checkout service",
            &[],
            &[],
            &vocabulary,
        );
        assert_eq!(
            (guessed[0].value.clone(), guessed[0].guessed),
            (json!("checkout"), true)
        );
        let guessed = extract_slots(&plain, "what about payments", &[], &[], &vocabulary);
        assert_eq!(
            (guessed[0].value.clone(), guessed[0].guessed),
            (json!("payments"), true)
        );
        assert!(extract_slots(&plain, "reserve it", &[], &[], &vocabulary).is_empty());
    }

    #[test]
    fn identifiers_enums_and_explicit_forms() {
        let orders = intent(
            vec![spec("order_id", "identifier")],
            &["Where is my order ORD-12345?"],
        );
        assert_eq!(
            values(&orders, "what about ord-777 please"),
            vec![("order_id".into(), json!("ORD-777"))]
        );
        assert_eq!(
            values(&orders, "order_id=ORD-9"),
            vec![("order_id".into(), json!("ORD-9"))]
        );
        assert_eq!(
            values(&orders, "my order number is A1B2"),
            vec![("order_id".into(), json!("A1B2"))]
        );
        let env = intent(
            vec![EntitySpec {
                name: "environment".into(),
                kind: Some("enum".into()),
                required: true,
                allowed: vec![json!("staging"), json!("production")],
            }],
            &[],
        );
        assert_eq!(
            values(&env, "restart it in Production"),
            vec![("environment".into(), json!("production"))]
        );
        let named = intent(vec![spec("email", "string")], &[]);
        assert_eq!(
            values(&named, "I'm john@example.com"),
            vec![("email".into(), json!("john@example.com"))]
        );
    }
}
