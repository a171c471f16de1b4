//! Intent detection: TF-IDF cosine between the message and each intent's
//! examples and description, over word tokens plus character trigrams (so
//! "refunded" still meets "refund"). The best intent's score is its confidence;
//! below the skill's `intents.thresholds.reject` (default
//! [`DEFAULT_REJECT_THRESHOLD`]) the message is out of domain. An intent is
//! *confident* only at or above `intents.thresholds.accept` (default
//! [`DEFAULT_ACCEPT_THRESHOLD`]) and ahead of the next by at least
//! `intents.thresholds.margin` (default [`DEFAULT_MARGIN`]); otherwise the job
//! asks which one the user meant.
//!
//! Beyond the cosine: a word only one intent's author statement uses (its
//! name, description, tools) adds to that intent; question words tell intents
//! apart but never bring a message into the domain; an intent that changes
//! something is confident only when the message names its action — one of its
//! action words (see `action_words`), in any form or sense, or a value only it
//! takes — so a noun shared with one example never triggers a side effect; a
//! message mostly in words the skill never uses, naming nothing it takes, is
//! out of domain rather than a question of which intent.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use adas_skill::model::Skill;
use serde_json::{Map, Value as Json};

use crate::entities::{Entity, SHORTHAND, Vocabulary, extract};
use crate::lexicon;

/// Below this best score a message is out of domain (when the skill sets no
/// `intents.thresholds.reject`). Tuned on the shipped templates' intent table.
pub const DEFAULT_REJECT_THRESHOLD: f64 = 0.18;

/// At or above this best score (and [`DEFAULT_MARGIN`] ahead) an intent is
/// acted on without asking (when the skill sets no `intents.thresholds.accept`).
pub const DEFAULT_ACCEPT_THRESHOLD: f64 = 0.30;

/// How far the best intent must lead the next to be acted on (when the skill
/// sets no `intents.thresholds.margin`).
pub const DEFAULT_MARGIN: f64 = 0.10;

/// The skill's out-of-domain handling, as detected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutOfDomain {
    /// `out_of_domain.action` (default `redirect`).
    pub action: String,
    /// `out_of_domain.message` (a default when the skill has none).
    pub message: String,
}

/// What was detected in a message.
#[derive(Debug, Clone, PartialEq)]
pub struct Detection {
    /// The best intent; `None` when out of domain.
    pub intent_id: Option<String>,
    /// Its score in [0, 1].
    pub confidence: f64,
    /// How far it leads the next candidate.
    pub margin: f64,
    /// Whether it may be acted on without asking which intent was meant.
    pub confident: bool,
    /// Entities of the intent found in the message.
    pub entities: Vec<Entity>,
    /// Every intent with its score, best first.
    pub candidates: Vec<(String, f64)>,
    /// Set when the message is out of domain.
    pub out_of_domain: Option<OutOfDomain>,
}

const STOPWORDS: &[&str] = &[
    "a", "an", "the", "i", "me", "my", "we", "our", "you", "your", "it", "is", "are", "was", "be",
    "to", "of", "for", "in", "on", "at", "and", "or", "please", "can", "could", "would", "do",
    "does", "did", "this", "that", "with", "from", "im", "i'm", "hi", "hello", "hey", "some",
    "like", "today", "about", "into", "as", "if", "should", "will", "shall", "might", "must",
    "tell", "there", "here", "thanks", "thank",
    // Conversational fillers ("ok, then cancel it").
    "ok", "okay", "then", "actually", "so", "just", "well", "um", "also",
    // How a question about the past is put ("did it go through already?").
    "go", "gone", "went", "through", "get", "got", "been", "yet", "already", "still",
    // Words that contrast with what came before ("refill RX-1002 instead").
    "instead", "rather", // Contractions of the above ("I'd like to …").
    "i'd", "i'll", "i've", "it's", "that's", "there's", "here's", "let's", "we're", "we'd",
    "we'll", "you're", "you'd", // Who is addressed ("are you guys open").
    "guys", "folks", "y'all", "yall",
];

/// Question words: they tell a skill's intents apart ("where is ORD-1" is the
/// tracking's), never a message in or out of its domain ("what's the weather").
const QUESTION_WORDS: &[(&str, &str)] = &[
    ("what", "what"),
    ("what's", "what"),
    ("whats", "what"),
    ("where", "where"),
    ("where's", "where"),
    ("wheres", "where"),
    ("when", "when"),
    ("when's", "when"),
    ("which", "which"),
    ("who", "who"),
    ("who's", "who"),
    ("how", "how"),
    ("how's", "how"),
    ("why", "why"),
];

/// Whether the message says nothing but values, question and filler words
/// ("and on HP-10002?"): it names no request of its own.
pub fn names_no_request(message: &str) -> bool {
    words(message)
        .iter()
        .all(|word| word.starts_with('<') || is_question_word(word))
}

/// How much a question word weighs beside a word of the request.
const QUESTION_WEIGHT: f64 = 0.4;

/// Whether a feature is a question word's.
fn is_question_word(feature: &str) -> bool {
    QUESTION_WORDS.iter().any(|(_, word)| *word == feature)
}

/// Days named by their relation to today or by their name: a value, like a
/// number ("I'm sick tomorrow, cancel my desk" is no question about tomorrow).
const DAY_WORDS: &[&str] = &[
    "tomorrow",
    "tonight",
    "yesterday",
    "weekend",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// The class of a token that is an entity rather than a word: its *kind* says
/// something about the intent (a message with an email), its value does not.
fn entity_class(raw: &str) -> Option<&'static str> {
    if raw.contains('@') {
        Some("<email>")
    } else if raw.contains('/') {
        Some("<path>")
    } else if raw.chars().any(|c| c.is_ascii_digit()) {
        if crate::entities::parse_amount(raw.trim_end_matches(['.', ',', '?', '!'])).is_some() {
            return Some("<number>");
        }
        let alphabetic = raw.chars().filter(|c| c.is_alphabetic()).count();
        if alphabetic > 0 && !raw.starts_with('$') {
            Some("<id>")
        } else {
            Some("<number>")
        }
    } else {
        None
    }
}

/// Words that turn a request around ("I don't need the refill anymore").
const NEGATIONS: &[&str] = &[
    "don't", "dont", "not", "never", "anymore", "won't", "can't", "cannot",
];

/// The feature of a negation.
const NOT: &str = "<not>";

/// The message's words, lower case, entities as their class, stop words out.
fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split_whitespace()
        .flat_map(|raw| match entity_class(raw) {
            // A value a tool input's pattern matched (see `Corpus::classify`).
            _ if raw.starts_with("<in:") && raw.ends_with('>') => vec![raw.to_owned()],
            // An id's prefix says what it is ("LV-2002" is a leave request).
            Some("<id>") => {
                let prefix: String = raw
                    .trim_start_matches(|c: char| !c.is_alphanumeric())
                    .chars()
                    .take_while(|c| c.is_alphabetic())
                    .collect();
                if prefix.is_empty() {
                    vec!["<id>".to_owned()]
                } else {
                    vec![format!("<id:{prefix}>")]
                }
            }
            Some(class) => vec![class.to_owned()],
            None => raw
                .split(|c: char| !(c.is_alphanumeric() || c == '\''))
                .map(str::to_owned)
                .collect(),
        })
        .map(|word| word.trim_matches('\'').to_owned())
        .map(|word| {
            match SHORTHAND
                .iter()
                .chain(QUESTION_WORDS)
                .find(|(short, _)| *short == word)
            {
                Some((_, long)) => (*long).to_owned(),
                // "don't need it anymore" is not "need it".
                None if NEGATIONS.contains(&word.as_str()) => NOT.to_owned(),
                // "three days" reads as "3 days" does.
                None if crate::values::number_word(&word).is_some() => "<number>".to_owned(),
                // "saturdays" as "saturday".
                None if DAY_WORDS.contains(&word.as_str())
                    || DAY_WORDS.contains(&word.trim_end_matches('s')) =>
                {
                    "<date>".to_owned()
                }
                None => word,
            }
        })
        .filter(|word| !word.is_empty() && !STOPWORDS.contains(&word.as_str()))
        .collect()
}

/// Features of words: each word's stem and the character trigrams of the word
/// (with boundary marks), so "refunded" meets "refund" and "cancl" half meets
/// "cancel".
fn features_of(words: &[String]) -> Vec<String> {
    let mut features = Vec::new();
    for word in words {
        if word.starts_with('<') {
            features.push(word.clone());
            continue;
        }
        let marked: Vec<char> = format!("<{word}>").chars().collect();
        for window in marked.windows(3) {
            features.push(format!("#{}", window.iter().collect::<String>()));
        }
        features.push(lexicon::stem(word));
    }
    features
}

fn features(text: &str) -> Vec<String> {
    features_of(&words(text))
}

/// A word of the message that is no English word and no word of the skill, one
/// edit (two for long words) from exactly one word of the skill: that word.
/// "cancl" is "cancel", "vacaton" is "vacation"; "block" stays (English).
fn corrected(word: &str, skill_words: &HashSet<String>) -> Option<String> {
    let length = word.chars().count();
    if word.starts_with('<')
        || length < 4
        || !word.chars().all(|c| c.is_ascii_alphabetic())
        || skill_words.contains(word)
        || lexicon::lexicon().knows(&lexicon::stem(word))
    {
        return None;
    }
    let allowed = if length <= 5 { 1 } else { 2 };
    let mut best: Option<(usize, &String)> = None;
    let mut tied = false;
    for target in skill_words {
        let target_length = target.chars().count();
        if target_length < 4
            || target_length.abs_diff(length) > allowed
            || target.chars().next() != word.chars().next()
        {
            continue;
        }
        let distance = strsim::damerau_levenshtein(word, target);
        if distance > allowed {
            continue;
        }
        match best {
            Some((known, _)) if distance > known => {}
            Some((known, other)) if distance == known => {
                tied |= lexicon::stem(other) != lexicon::stem(target);
            }
            _ => {
                best = Some((distance, target));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(_, target)| target.clone())
}

/// The message's features as the skill would spell them: typos corrected to
/// the skill's words, and a word the skill does not use joined by the skill's
/// words that share a common sense with it ("holiday" brings "vacation").
fn query_features(
    text: &str,
    skill_words: &HashSet<String>,
    skill_stems: &HashSet<String>,
) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for word in self::words(text) {
        // An id whose prefix the skill's examples use is that kind of id;
        // any other is just an id.
        if word.starts_with("<id:") && !skill_words.contains(&word) {
            words.push("<id>".to_owned());
            continue;
        }
        words.push(corrected(&word, skill_words).unwrap_or(word));
    }
    let mut features = features_of(&words);
    // Phrasal verbs ("call off", "pick it up"): a phrase of two or three
    // words, or two around a pronoun, joined by the skill's words of its sense.
    let raw: Vec<String> = text
        .to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|word| !word.is_empty())
        .map(lexicon::stem)
        .collect();
    let mut phrases: Vec<String> = Vec::new();
    for window in raw.windows(2) {
        phrases.push(window.join("_"));
    }
    // Or around a value ("push AP-3004 back").
    let valued: Vec<String> = text
        .split_whitespace()
        .map(|token| {
            if token.starts_with('<') || token.chars().any(|c| c.is_ascii_digit()) {
                "<value>".to_owned()
            } else {
                lexicon::stem(
                    &token
                        .to_lowercase()
                        .replace(|c: char| !c.is_alphanumeric() && c != '\'', ""),
                )
            }
        })
        .collect();
    for window in valued.windows(3) {
        if window[1] == "<value>" && !window[0].starts_with('<') && !window[2].starts_with('<') {
            phrases.push(format!("{}_{}", window[0], window[2]));
        }
    }
    for window in raw.windows(3) {
        phrases.push(window.join("_"));
        if matches!(
            window[1].as_str(),
            "it" | "me" | "them" | "him" | "her" | "us" | "thi" | "that"
        ) {
            phrases.push(format!("{}_{}", window[0], window[2]));
        }
    }
    for phrase in phrases {
        let mut synonyms: Vec<&str> = lexicon::lexicon()
            .synonyms(&phrase)
            .filter(|synonym| skill_stems.contains(*synonym))
            .collect();
        synonyms.sort();
        synonyms.dedup();
        features.extend(synonyms.into_iter().map(str::to_owned));
    }
    for word in &words {
        let stem = lexicon::stem(word);
        if word.starts_with('<') || skill_stems.contains(&stem) {
            continue;
        }
        let mut synonyms: Vec<&str> = lexicon::lexicon()
            .synonyms(&stem)
            .filter(|synonym| skill_stems.contains(*synonym))
            .collect();
        synonyms.sort();
        synonyms.dedup();
        features.extend(synonyms.into_iter().map(str::to_owned));
    }
    features
}

type Vector = HashMap<String, f64>;

fn vectorize(features: &[String], idf: &HashMap<String, f64>, default_idf: f64) -> Vector {
    let mut counts: HashMap<&str, f64> = HashMap::new();
    for feature in features {
        *counts.entry(feature.as_str()).or_default() += 1.0;
    }
    counts
        .into_iter()
        .map(|(feature, count)| {
            // Whole words weigh more than their trigrams; a question word
            // ("what", "where") leans, it never decides alone.
            let weight = if feature.starts_with('#') {
                0.5
            } else if is_question_word(feature) {
                QUESTION_WEIGHT
            } else {
                1.0
            };
            let idf = idf.get(feature).copied().unwrap_or(default_idf);
            (feature.to_owned(), (1.0 + f64::ln(count)) * idf * weight)
        })
        .collect()
}

fn cosine(a: &Vector, b: &Vector) -> f64 {
    let dot: f64 = a
        .iter()
        .filter_map(|(feature, x)| b.get(feature).map(|y| x * y))
        .sum();
    let norm = |v: &Vector| v.values().map(|x| x * x).sum::<f64>().sqrt();
    let (na, nb) = (norm(a), norm(b));
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na * nb)
    }
}

/// `text` with each token a tool input's pattern matches written as that
/// input's kind of value (`<in:username>` for "ann.lee"), so "unlock gus.ong"
/// meets "Unlock the account bob.ray".
fn classify(classes: &Classes, text: &str) -> String {
    // Allowed values first, as written or not ("my brakes checked" is a
    // `service`): a value the message names is no word of the request, so
    // "how much is a tire rotation?" meets the price's examples, not the
    // booking's that happen to name the same service.
    let mut spans: Vec<(usize, usize, &str)> = Vec::new();
    for (name, value) in &classes.values {
        for (start, end) in crate::values::value_spans(text, value) {
            if !spans.iter().any(|(s, e, _)| start < *e && *s < end) {
                spans.push((start, end, name));
            }
        }
    }
    spans.sort();
    let mut valued = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end, name) in spans {
        valued.push_str(&text[at..start]);
        valued.push_str(&format!(" <in:{name}> "));
        // A value only one intent takes ("meals" for the expense claim)
        // says which intent as a word does, too.
        if classes.owned.contains(name) {
            valued.push_str(&text[start..end]);
            valued.push(' ');
        }
        at = end;
    }
    valued.push_str(&text[at..]);
    let patterns = &classes.patterns;
    valued
        .split_whitespace()
        .map(|raw| {
            if raw.starts_with("<in:") {
                return raw.to_owned();
            }
            let token = raw.trim_matches(|c: char| {
                matches!(c, ',' | '.' | '?' | '!' | ':' | ';' | '(' | ')' | '"')
            });
            let token = token.strip_suffix("'s").unwrap_or(token);
            let shaped = token.chars().any(|c| c.is_ascii_alphabetic())
                && token.chars().any(|c| !c.is_ascii_alphabetic());
            let matched = patterns.iter().filter(|_| shaped).find(|(_, pattern)| {
                pattern.is_match(token) || pattern.is_match(&token.to_uppercase())
            });
            match matched {
                Some((name, _)) => format!("<in:{name}>"),
                None => raw.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the detector reads as a kind of value rather than words: the tool
/// inputs whose pattern asks for a letter ("ann.lee", "RX-1001") and the
/// allowed values of the tools' inputs ("tire rotation"), by input name.
#[derive(Default)]
struct Classes {
    patterns: Vec<(String, regex::Regex)>,
    values: Vec<(String, String)>,
    /// The inputs with allowed values that only one intent's tools take.
    owned: HashSet<String>,
}

impl Classes {
    fn of(skill: &Skill) -> Self {
        let mut classes = Self::default();
        for input in skill.tools.iter().flat_map(|tool| &tool.inputs) {
            for value in input.allowed.iter().filter_map(|value| value.as_str()) {
                let value = value.to_lowercase();
                // A value that is a common little word ("on", "no") stays one.
                if value.chars().count() < 3 || STOPWORDS.contains(&value.as_str()) {
                    continue;
                }
                if !classes.values.iter().any(|(_, known)| *known == value) {
                    classes.values.push((input.name.clone(), value));
                }
            }
            let Some(pattern) = input.pattern.as_deref() else {
                continue;
            };
            if classes.patterns.iter().any(|(name, _)| *name == input.name) {
                continue;
            }
            if let Ok(regex) = regex::Regex::new(pattern)
                && pattern
                    .chars()
                    .any(|c| c.is_ascii_alphabetic() && !matches!(c, 'd' | 'w' | 's' | 'b'))
            {
                classes.patterns.push((input.name.clone(), regex));
            }
        }
        for (name, _) in &classes.values {
            let takers = skill
                .intents
                .iter()
                .flat_map(|intents| &intents.supported)
                .filter(|intent| intent_inputs(skill, &intent.id).contains(name))
                .count();
            if takers <= 1 {
                classes.owned.insert(name.clone());
            }
        }
        // Longer values first: "hot desk" before "desk".
        classes
            .values
            .sort_by_key(|(_, value)| std::cmp::Reverse(value.len()));
        classes
    }
}

/// In how many documents each feature occurs.
fn document_frequency_of(documents: &[(usize, Vec<String>)]) -> HashMap<String, f64> {
    let mut frequency: HashMap<String, f64> = HashMap::new();
    for (_, doc) in documents {
        for feature in doc.iter().collect::<HashSet<_>>() {
            *frequency.entry(feature.clone()).or_default() += 1.0;
        }
    }
    frequency
}

/// A skill's intents as documents: each example and description, and each
/// intent whole, weighted by TF-IDF.
struct Corpus {
    idf: HashMap<String, f64>,
    default_idf: f64,
    /// (intent index, an example's vector).
    examples: Vec<(usize, Vector)>,
    /// Each intent's distinct features as one vector.
    whole: Vec<Vector>,
    /// The skill's words (for typo correction) and their stems (for synonyms).
    words: HashSet<String>,
    stems: HashSet<String>,
    /// Features that tie a message to the skill (see `Corpus::of`).
    anchors: HashSet<String>,
    /// Values read as their input's kind (see `Classes`).
    classes: Classes,
    /// Words only one intent's author statement uses (its name, description,
    /// tools), with that intent.
    own: HashMap<String, usize>,
    /// Per intent, what its author says it is (see `Corpus::of`), less the
    /// words every intent is said to be and the wrappers.
    stated: Vec<HashSet<String>>,
    /// Per intent that changes something, the words that name its action
    /// (see `Corpus::of`); empty for an intent that only reads.
    actions: Vec<HashSet<String>>,
}

/// What a word only one intent uses adds to that intent's score ("please
/// cancel my desk": "cancel" is the cancellation's alone, "desk" everyone's).
const OWN_WORD_WEIGHT: f64 = 0.08;
/// At most this much.
const MAX_OWN_WORD_BONUS: f64 = 0.16;
/// Words that say how many, not what ("any desks?"), as stems.
const DETERMINERS: &[&str] = &[
    "ani", "anyth", "all", "everi", "each", "no", "none", "other", "anoth", "more", "less", "much",
    "mani",
];
/// Verbs that wrap a request rather than name it ("show me …", "I need …",
/// "do you have …"), as stems: no sign of one intent.
const WRAPPERS: &[&str] = &[
    "show", "see", "want", "need", "have", "give", "let", "make", "take", "know", "find", "help",
    "tell", "look", "say", "ask", "tri", "wonder", "done",
];

impl Corpus {
    fn of(skill: &Skill) -> Self {
        let intents = skill.intents.clone().unwrap_or_default();
        let classes = Classes::of(skill);
        let classify = |text: &str| classify(&classes, text);
        let mut texts: Vec<(usize, String)> = Vec::new();
        for (index, intent) in intents.supported.iter().enumerate() {
            for example in &intent.examples {
                texts.push((index, classify(example)));
            }
            if let Some(description) = &intent.description {
                texts.push((index, description.clone()));
            }
        }
        let documents: Vec<(usize, Vec<String>)> = texts
            .iter()
            .map(|(index, text)| (*index, features(text)))
            .collect();
        let total = documents.len().max(1) as f64;
        let idf: HashMap<String, f64> = document_frequency_of(&documents)
            .into_iter()
            .map(|(feature, df)| (feature, f64::ln((1.0 + total) / (1.0 + df)) + 1.0))
            .collect();
        let default_idf = f64::ln(1.0 + total) + 1.0;
        let mut whole: Vec<Vec<String>> = vec![Vec::new(); intents.supported.len()];
        for (index, doc) in &documents {
            whole[*index].extend(doc.iter().cloned());
        }
        // What an intent's tools take is part of what it is about ("renew it, my
        // email is …": the renewal takes an email).
        // Words that make a message about the skill: the intents' names,
        // descriptions, inputs and values, and words several examples share —
        // not a noun one example happens to use ("my cat", "the box").
        let mut anchors: HashSet<String> = document_frequency_of(&documents)
            .into_iter()
            .filter(|(_, df)| *df >= 2.0)
            .map(|(feature, _)| feature)
            .collect();
        for (index, intent) in intents.supported.iter().enumerate() {
            let named = features(&intent.id.replace('_', " "));
            anchors.extend(named.iter().cloned());
            anchors.extend(intent.description.iter().flat_map(|text| features(text)));
            // An intent's name says what it does ("redirect_parcel").
            whole[index].extend(named);
            for input in intent_inputs(skill, &intent.id) {
                let input = features(&input.replace('_', " "));
                anchors.extend(input.iter().cloned());
                whole[index].extend(input);
            }
            // So are the values its entities allow ("on tuesday" is about the
            // schedule even when no example names Tuesday).
            for value in intent.entities.iter().flat_map(|entity| &entity.allowed) {
                if let Some(value) = value.as_str() {
                    anchors.extend(features(value));
                    whole[index].extend(features(value));
                }
            }
        }
        // A number or a negation is no sign of the domain; trigrams are parts
        // of words; a path, an email or an id the examples use is.
        anchors.retain(|feature| {
            !feature.starts_with('#')
                && feature != "<number>"
                && feature != NOT
                && !is_question_word(feature)
        });
        anchors.extend(
            documents
                .iter()
                .flat_map(|(_, doc)| doc)
                .filter(|feature| {
                    feature.starts_with('<') && *feature != "<number>" && *feature != NOT
                })
                .cloned(),
        );
        let mut words: HashSet<String> = texts.iter().flat_map(|(_, text)| words(text)).collect();
        // Words, and the kinds of id the examples use (`<id:ord>`).
        words.retain(|word| !word.starts_with('<') || word.starts_with("<id:"));
        let stems = words
            .iter()
            .filter(|word| !word.starts_with('<'))
            .map(|word| lexicon::stem(word))
            .collect();
        let examples = documents
            .iter()
            .map(|(index, doc)| (*index, vectorize(doc, &idf, default_idf)))
            .collect();
        // What the author says each intent is — its name, its description,
        // its tools' names and descriptions — as opposed to the nouns its
        // examples happen to use ("cancel our stay" is no sign that a stay
        // means a cancellation).
        let stated: Vec<HashSet<String>> = intents
            .supported
            .iter()
            .map(|intent| {
                let mut text = intent.id.replace('_', " ");
                for said in intent.description.iter() {
                    text.push(' ');
                    text.push_str(said);
                }
                for tool in intent_tools(skill, &intent.id) {
                    text.push(' ');
                    text.push_str(&tool.name.replace('_', " "));
                    for said in tool.description.iter() {
                        text.push(' ');
                        text.push_str(said);
                    }
                }
                features(&text)
                    .into_iter()
                    .filter(|feature| !feature.starts_with(['#', '<']))
                    .collect()
            })
            .collect();
        // The stated words no other intent uses anywhere, by their intent.
        let mut own: HashMap<String, usize> = HashMap::new();
        for (index, words) in stated.iter().enumerate() {
            for word in words {
                let elsewhere = (0..whole.len())
                    .filter(|other| *other != index)
                    .any(|other| whole[other].contains(word) || stated[other].contains(word));
                if !elsewhere {
                    own.insert(word.clone(), index);
                }
            }
        }
        let actions = action_words(skill, &classes, &stated);
        let everyone: HashSet<String> = stated
            .iter()
            .flatten()
            .filter(|word| stated.iter().all(|words| words.contains(*word)))
            .cloned()
            .collect();
        let stated = stated
            .into_iter()
            .map(|mut words| {
                // Names of things and actions, not "by" or "new".
                words.retain(|word| {
                    !everyone.contains(word)
                        && !WRAPPERS.contains(&word.as_str())
                        && !lexicon::lexicon().only_modifies(word)
                });
                words
            })
            .collect();
        let whole = whole
            .into_iter()
            .map(|mut doc| {
                doc.sort();
                doc.dedup();
                vectorize(&doc, &idf, default_idf)
            })
            .collect();
        Self {
            own,
            stated,
            actions,
            idf,
            default_idf,
            examples,
            whole,
            words,
            stems,
            anchors,
            classes,
        }
    }

    /// Each intent's score for a text: its closest example (a message phrased
    /// like one) and all its examples at once (words only this intent uses —
    /// "refund" — outweigh words every intent shares, such as "order"), averaged.
    fn scores(&self, text: &str) -> Vec<f64> {
        let text = idioms(text);
        let features = query_features(&classify(&self.classes, &text), &self.words, &self.stems);
        // None of the skill's own words and at most half the message known:
        // out of its domain, whatever an incidental noun shares with one
        // example ("do you groom cats?").
        let words: Vec<&String> = features
            .iter()
            .filter(|feature| !feature.starts_with('#') && !is_question_word(feature))
            .collect();
        let known = words
            .iter()
            .filter(|word| self.idf.contains_key(**word))
            .count();
        if !words.iter().any(|word| self.anchors.contains(*word)) && known * 2 <= words.len() {
            return vec![0.0; self.whole.len()];
        }
        let query = vectorize(&features, &self.idf, self.default_idf);
        let mut best_example = vec![0.0f64; self.whole.len()];
        for (index, example) in &self.examples {
            // "I need a refill" is not "I don't need the refill anymore":
            // an example of the other polarity counts half.
            let polarity = if query.contains_key(NOT) == example.contains_key(NOT) {
                1.0
            } else {
                0.5
            };
            best_example[*index] = best_example[*index].max(polarity * cosine(&query, example));
        }
        // A word only one intent uses tells it apart, as far as the message
        // is in the skill's words ("is the coffee free?" is half coffee).
        let in_words = self.known_share(&words);
        let mut own = vec![0.0f64; self.whole.len()];
        for word in words.iter().collect::<HashSet<_>>() {
            if WRAPPERS.contains(&word.as_str()) {
                continue;
            }
            if let Some(index) = self.own.get(word.as_str()) {
                own[*index] = (own[*index] + OWN_WORD_WEIGHT * in_words).min(MAX_OWN_WORD_BONUS);
            }
        }
        self.whole
            .iter()
            .zip(&best_example)
            .zip(&own)
            .map(|((doc, example), own)| {
                let score = (example + cosine(&query, doc)) / 2.0;
                (score + if score > 0.0 { *own } else { 0.0 }).clamp(0.0, 1.0)
            })
            .collect()
    }
}

impl Corpus {
    /// The share of a message's words (question words and determiners
    /// aside) that the skill uses.
    fn known_share(&self, words: &[&String]) -> f64 {
        let content: Vec<&&String> = words
            .iter()
            .filter(|word| !DETERMINERS.contains(&word.as_str()) && !is_question_word(word))
            .collect();
        if content.is_empty() {
            // Nothing but values and question words: nothing foreign.
            return 1.0;
        }
        content
            .iter()
            .filter(|word| self.idf.contains_key(***word))
            .count() as f64
            / content.len() as f64
    }

    /// The share of the message's own words (not its values) that the skill
    /// uses: "is the coffee free?" is half the skill's.
    fn share_of(&self, text: &str) -> f64 {
        // A capitalized word inside a sentence is a name ("anything by
        // Tolkien"): a value, whatever the skill's words.
        let mut unnamed: Vec<&str> = Vec::new();
        let mut opens = true;
        for token in text.split_whitespace() {
            let named = !opens
                && token != "I"
                && !token.starts_with("I'")
                && token.chars().next().is_some_and(char::is_uppercase);
            if !named {
                unnamed.push(token);
            }
            opens = token.ends_with(['.', '?', '!', ':']);
        }
        let words: Vec<String> = self::words(&classify(&self.classes, &unnamed.join(" ")))
            .into_iter()
            .filter(|word| !word.starts_with('<'))
            .map(|word| lexicon::stem(&word))
            .collect();
        self.known_share(&words.iter().collect::<Vec<_>>())
    }

    /// Whether the message names the action of the intent at `index` — one of
    /// its action words, as written, mistyped or in other words of the same
    /// sense ("call off" for cancel). An intent that only reads needs none.
    fn names_action(&self, index: usize, said: &HashSet<String>) -> bool {
        let Some(actions) = self.actions.get(index).filter(|words| !words.is_empty()) else {
            return true;
        };
        actions.iter().any(|word| said.contains(word))
    }

    /// Whether the message names the action of the intent at `index` by a
    /// word that is not also an action word of the one at `leader`.
    fn names_apart(&self, index: usize, leader: usize, said: &HashSet<String>) -> bool {
        let Some(actions) = self.actions.get(index).filter(|words| !words.is_empty()) else {
            return true;
        };
        let led = self.actions.get(leader);
        actions
            .iter()
            .any(|word| said.contains(word) && led.is_none_or(|led| !led.contains(word)))
    }

    /// Whether the message names what the intent at `index` is said to be
    /// about ("claim" for the claim's status).
    fn names_subject(&self, index: usize, said: &HashSet<String>) -> bool {
        self.stated
            .get(index)
            .is_some_and(|words| words.iter().any(|word| said.contains(word)))
    }

    /// Whether what the read at `read` is about stands only after the action
    /// of the intent at `action` — its object ("pay the balance"), not a
    /// question of its own.
    fn object_of_action(&self, read: usize, action: usize, text: &str) -> bool {
        let (Some(subject), Some(acts)) = (self.stated.get(read), self.actions.get(action)) else {
            return false;
        };
        let stems: Vec<String> = words(&classify(&self.classes, text))
            .iter()
            .map(|word| lexicon::stem(word))
            .collect();
        let Some(acted) = stems.iter().position(|stem| acts.contains(stem)) else {
            return false;
        };
        let mut about = stems
            .iter()
            .enumerate()
            .filter(|(_, stem)| subject.contains(*stem))
            .peekable();
        about.peek().is_some() && about.all(|(at, _)| at > acted)
    }

    /// What a message says, as the skill would spell it (see
    /// `query_features`): read once, matched against every intent's actions.
    fn said(&self, text: &str) -> HashSet<String> {
        query_features(
            &classify(&self.classes, &idioms(text)),
            &self.words,
            &self.stems,
        )
        .into_iter()
        .collect()
    }
}

/// The words that name what each intent that changes something does: what
/// its author says it is (name, description, tools — less the inputs it
/// takes, the verbs that wrap any request and what every intent is said to
/// be), the word each example opens its request with ("Cancel booking …",
/// "We have to cancel our stay"), and the values its entities allow. A
/// message that shares only a noun with one example ("extend my stay") names
/// none of them: acting on it would be a guess.
fn action_words(
    skill: &Skill,
    classes: &Classes,
    stated: &[HashSet<String>],
) -> Vec<HashSet<String>> {
    let intents = skill.intents.clone().unwrap_or_default();
    let everyone: HashSet<&String> = stated
        .iter()
        .flatten()
        .filter(|word| stated.iter().all(|words| words.contains(*word)))
        .collect();
    // What a read is said to be about is no action ("an order done faster"
    // does not make "order" the rush's word when a read is the order's status).
    let read: HashSet<&String> = intents
        .supported
        .iter()
        .zip(stated)
        .filter(|(intent, _)| only_reads(skill, &intent.id))
        .flat_map(|(_, words)| words)
        .collect();
    intents
        .supported
        .iter()
        .zip(stated)
        .map(|(intent, stated)| {
            if only_reads(skill, &intent.id) {
                return HashSet::new();
            }
            let inputs: HashSet<String> = intent_inputs(skill, &intent.id)
                .iter()
                .flat_map(|input| features(&input.replace('_', " ")))
                .collect();
            let mut actions: HashSet<String> = stated
                .iter()
                .filter(|word| {
                    !inputs.contains(*word)
                        && !everyone.contains(word)
                        && !read.contains(word)
                        && !WRAPPERS.contains(&word.as_str())
                })
                .cloned()
                .collect();
            for example in &intent.examples {
                // "I need a tire rotation": an allowed value opens the request
                // (never an id: "I want to take MATH201" is no sign that a
                // course code means an enrollment).
                let valued = |feature: &str| {
                    classes
                        .values
                        .iter()
                        .any(|(name, _)| feature == format!("<in:{name}>"))
                };
                let opening = features(&classify(classes, example))
                    .into_iter()
                    .find(|feature| {
                        (valued(feature) || !feature.starts_with(['#', '<']))
                            && !WRAPPERS.contains(&feature.as_str())
                            && !is_question_word(feature)
                            && !everyone.contains(feature)
                    });
                actions.extend(opening);
            }
            for value in intent.entities.iter().flat_map(|entity| &entity.allowed) {
                if let Some(value) = value.as_str() {
                    actions.extend(
                        features(value)
                            .into_iter()
                            .filter(|feature| !feature.starts_with('#')),
                    );
                }
            }
            // No word to require (an intent described by its inputs alone):
            // the scores decide, as for a read.
            actions
        })
        .collect()
}

/// A request said as no longer wanting something ("I won't need AP-3005
/// anymore", "we no longer use it"): a cancellation, in the word every
/// cancellation sense shares.
fn idioms(text: &str) -> std::borrow::Cow<'_, str> {
    static NO_LONGER: OnceLock<[regex::Regex; 2]> = OnceLock::new();
    let [anymore, no_longer] = NO_LONGER.get_or_init(|| {
        [
            regex::Regex::new(
                r"(?i)\b(?:don'?t|do not|won'?t|will not|doesn'?t|does not)\s+(?:need|want|use)\b(.{0,40}?)\b(?:anymore|any more|any longer)\b",
            )
            .expect("a valid pattern"),
            regex::Regex::new(r"(?i)\bno longer\s+(?:need|want|use)\b").expect("a valid pattern"),
        ]
    });
    match anymore.replace_all(text, "cancel${1}") {
        std::borrow::Cow::Borrowed(_) => no_longer.replace_all(text, "cancel"),
        replaced => {
            std::borrow::Cow::Owned(no_longer.replace_all(&replaced, "cancel").into_owned())
        }
    }
}

/// The sentences of a message ("Hi! I moved on 11/02. Could you …?"): a long
/// message is judged by its best sentence as well as whole, so the one request
/// in it is not drowned by dates, names and thanks around it.
fn sentences(message: &str) -> Vec<&str> {
    let mut sentences = Vec::new();
    let mut start = 0;
    let bytes = message.as_bytes();
    for (index, c) in message.char_indices() {
        let ends = matches!(c, '?' | '!' | ';' | '\n')
            || (c == '.'
                && bytes
                    .get(index + 1)
                    .is_none_or(|next| next.is_ascii_whitespace()));
        if ends {
            sentences.push(&message[start..index]);
            start = index + c.len_utf8();
        }
    }
    sentences.push(&message[start..]);
    // A sentence's clauses too: "Before I go, could you freeze card 9077".
    let mut parts: Vec<&str> = sentences
        .iter()
        .flat_map(|sentence| {
            let clauses: Vec<&str> = sentence.split([',', ':']).collect();
            let whole = (clauses.len() > 1).then_some(*sentence);
            clauses.into_iter().chain(whole)
        })
        .collect();
    parts.retain(|part| !part.trim().is_empty());
    parts
}

/// Where a message turns from context to its request.
const TURNS: &[&str] = &[
    ", so ",
    " so please ",
    ", but ",
    " but ",
    ": ",
    ", now ",
    " now please ",
];

/// What follows the last turn of a message, when it is a request of at least
/// two words.
fn after_the_turn(message: &str) -> Option<&str> {
    let lower = message.to_lowercase();
    let (at, turn) = TURNS
        .iter()
        .filter_map(|turn| lower.rfind(turn).map(|at| (at, turn.len())))
        .max_by_key(|(at, _)| *at)?;
    let rest = message.get(at + turn..)?;
    (rest.split_whitespace().count() >= 2).then_some(rest)
}

/// From this many words on, a message is also judged by its best sentence or
/// clause.
const LONG_MESSAGE_WORDS: usize = 12;

/// Every intent of the skill with its score for `message`, best first.
pub fn score(skill: &Skill, message: &str) -> Vec<(String, f64)> {
    scored_with(skill, &Corpus::of(skill), message)
}

fn scored_with(skill: &Skill, corpus: &Corpus, message: &str) -> Vec<(String, f64)> {
    let intents = skill.intents.clone().unwrap_or_default();
    let mut scores = corpus.scores(message);
    // "RX-1003 has no refills left, so please refill RX-1002": what follows
    // the turn is the request; when it is in the skill's domain it is judged
    // alone (what comes before it is background).
    let mut turned = false;
    if let Some(request) = after_the_turn(message) {
        let judged = corpus.scores(request);
        if judged
            .iter()
            .any(|score| *score >= DEFAULT_REJECT_THRESHOLD)
        {
            scores = judged;
            turned = true;
        }
    }
    let parts = if turned {
        Vec::new()
    } else {
        sentences(message)
    };
    // Only a long message is judged by its parts: in a short one every word
    // is the request ("expense claim for equipment, $1.2k").
    if parts.len() > 1 && message.split_whitespace().count() >= LONG_MESSAGE_WORDS {
        // The request is the part most like one: the one with the best score
        // (thanks, dates and asides are like none).
        let best = |scores: &[f64]| scores.iter().copied().fold(0.0, f64::max);
        // A part that only states a fact ("My account number is ACC-10002")
        // asks for nothing.
        let inputs: HashSet<String> = skill
            .tools
            .iter()
            .flat_map(|tool| &tool.inputs)
            .flat_map(|input| input.name.split('_').map(str::to_owned).collect::<Vec<_>>())
            .collect();
        // Nor does one that only names a thing ("Booking HB-2005") — as
        // written: "book CL-201" asks, though a booking id is an input.
        let asks = |part: &str| {
            words(part).iter().any(|word| {
                !word.starts_with('<')
                    && !inputs.contains(word)
                    && !inputs.contains(word.trim_end_matches('s'))
            })
        };
        let clearest = parts
            .into_iter()
            .filter(|part| asks(part))
            .map(|part| corpus.scores(part))
            .max_by(|a, b| best(a).total_cmp(&best(b)));
        if let Some(clearest) = clearest {
            if best(&clearest) >= best(&scores) {
                // The part says it at least as clearly as the whole: what is
                // around it (a knee hurt "last week") only blurs it.
                scores = clearest;
            } else {
                for (score, part_score) in scores.iter_mut().zip(clearest) {
                    *score = score.max(part_score);
                }
            }
        }
    }
    let mut candidates: Vec<(String, f64)> = intents
        .supported
        .iter()
        .zip(&scores)
        .map(|(intent, score)| (intent.id.clone(), *score))
        .collect();
    candidates.sort_by(|a, b| b.1.total_cmp(&a.1));
    candidates
}

/// The tools an intent's workflow calls.
pub fn intent_tools<'a>(skill: &'a Skill, intent_id: &str) -> Vec<&'a adas_skill::model::Tool> {
    let Some(policy) = &skill.policy else {
        return Vec::new();
    };
    let maps_to = skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .find(|intent| intent.id == intent_id)
        .and_then(|intent| intent.maps_to_workflow.clone());
    policy
        .workflows
        .iter()
        .filter(|workflow| {
            workflow.trigger.as_deref() == Some(intent_id)
                || (maps_to.is_some() && workflow.id == maps_to)
        })
        .flat_map(|workflow| &workflow.steps)
        .filter_map(|step| skill.tools.iter().find(|tool| &tool.name == step))
        .collect()
}

/// Whether the message is one of the intent's examples said back (case and
/// punctuation aside).
fn is_example(skill: &Skill, intent_id: &str, message: &str) -> bool {
    let normal = |text: &str| {
        text.to_lowercase()
            .split(|c: char| !(c.is_alphanumeric() || c == '\''))
            .filter(|word| !word.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let message = normal(message);
    skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .filter(|intent| intent.id == intent_id)
        .flat_map(|intent| &intent.examples)
        .any(|example| normal(example) == message)
}

/// Whether every tool of the intent's workflow is declared read-only by the skill.
/// Whether every tool the intent's workflow calls is declared read-only.
pub fn only_reads(skill: &Skill, intent_id: &str) -> bool {
    let tools = intent_tools(skill, intent_id);
    !tools.is_empty() && tools.iter().all(|tool| tool.read_only == Some(true))
}

/// Input names of the tools an intent's workflow calls.
fn intent_inputs(skill: &Skill, intent_id: &str) -> Vec<String> {
    intent_tools(skill, intent_id)
        .into_iter()
        .flat_map(|tool| tool.inputs.iter().map(|input| input.name.clone()))
        .collect()
}

/// The skill's reject threshold, accept threshold and margin (its own, else
/// the defaults).
pub fn thresholds(skill: &Skill) -> (f64, f64, f64) {
    let thresholds = skill
        .intents
        .as_ref()
        .and_then(|intents| intents.thresholds.clone())
        .unwrap_or_default();
    let reject = thresholds.reject.unwrap_or(DEFAULT_REJECT_THRESHOLD);
    let accept = thresholds
        .accept
        .unwrap_or(DEFAULT_ACCEPT_THRESHOLD)
        .max(reject);
    (reject, accept, thresholds.margin.unwrap_or(DEFAULT_MARGIN))
}

/// One word is too little to act on (unless it is an example said back, or
/// the intent only reads): "my booking" is no cancellation.
fn enough_words(skill: &Skill, intent_id: &str, message: &str) -> bool {
    words(message).len() >= 2
        || is_example(skill, intent_id, message)
        || only_reads(skill, intent_id)
}

/// Whether a score and its lead over the next clear the skill's accept
/// threshold and margin (words aside).
pub fn clears_thresholds(skill: &Skill, confidence: f64, margin: f64) -> bool {
    let (_, accept, margin_needed) = thresholds(skill);
    confidence.is_finite() && confidence >= accept && margin >= margin_needed
}

/// Whether a score (from the detector or a model) may be acted on: the same
/// rule for both — the skill's `accept` threshold, its margin over the next
/// candidate, and enough words.
pub fn is_confident(
    skill: &Skill,
    intent_id: &str,
    message: &str,
    confidence: f64,
    margin: f64,
) -> bool {
    let (_, accept, margin_needed) = thresholds(skill);
    confidence.is_finite()
        && confidence >= accept
        && margin >= margin_needed
        && enough_words(skill, intent_id, message)
}

/// The skill's out-of-domain answer.
pub fn out_of_domain(skill: &Skill) -> OutOfDomain {
    let out_of_domain = skill
        .intents
        .as_ref()
        .and_then(|intents| intents.out_of_domain.clone())
        .unwrap_or_default();
    OutOfDomain {
        action: out_of_domain.action.unwrap_or_else(|| "redirect".into()),
        message: out_of_domain
            .message
            .unwrap_or_else(|| "Sorry, I can't help with that.".into())
            .trim()
            .to_owned(),
    }
}

/// Words a message may open with before its question ("ok, did …", "hi, has …").
const OPENERS: &[&str] = &[
    "ok", "okay", "so", "and", "but", "hi", "hello", "hey", "um", "also", "just",
];

/// Words that say how something stands ("is my order done?", "are my prints
/// ready?"): a question with one of them asks about a state, not for an
/// action.
const STATES: &[&str] = &[
    "done",
    "ready",
    "finished",
    "complete",
    "completed",
    "fixed",
    "repaired",
    "paid",
    "shipped",
    "delivered",
    "approved",
    "confirmed",
    "cancelled",
    "canceled",
    "booked",
    "processed",
    "sent",
];

/// Whether the message asks about something done or a state that lasts
/// ("did my transfer go through?", "has my leave been approved?", "is my card
/// still blocked?"): a question about an action is a read, even in the
/// action's own words.
pub fn asks_about_the_past(message: &str) -> bool {
    let lower = message.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|word| !word.is_empty())
        .collect();
    let Some(first) = words.iter().find(|word| !OPENERS.contains(word)) else {
        return false;
    };
    match *first {
        "did" | "has" | "have" | "had" | "was" | "were" | "hasn't" | "didn't" | "wasn't" => true,
        "is" | "are" | "isn't" | "aren't" => words
            .iter()
            .any(|word| matches!(*word, "still" | "already" | "yet") || STATES.contains(word)),
        _ => false,
    }
}

/// Whether a message is a question: a question mark, or a question word or
/// auxiliary first ("whats my bill").
fn is_question(message: &str) -> bool {
    let lower = message.to_lowercase();
    lower.contains('?')
        || lower
            .split(|c: char| !(c.is_alphanumeric() || c == '\''))
            .find(|word| !word.is_empty() && !OPENERS.contains(word))
            .is_some_and(|first| {
                QUESTION_WORDS.iter().any(|(word, _)| *word == first)
                    || matches!(
                        first,
                        "is" | "are"
                            | "was"
                            | "were"
                            | "do"
                            | "does"
                            | "did"
                            | "has"
                            | "have"
                            | "can"
                            | "could"
                            | "will"
                    )
            })
}

/// Whether the message asks, in so many words, how something stands ("can
/// you tell me if it's ready", "I just want to know whether RX-1002 is in",
/// "tell me where it stands") — not whether the desk can do something ("tell
/// me if you can pick it up").
fn asks_how_it_stands(message: &str) -> bool {
    static EMBEDDED: OnceLock<regex::Regex> = OnceLock::new();
    let embedded = EMBEDDED.get_or_init(|| {
        regex::Regex::new(
            r"(?i)\b(?:tell me|let me know|know|wondering|wonder|find out)\s+(?:if|whether|what|what's|where|when|how)\s+(\S+)",
        )
        .expect("a valid pattern")
    });
    embedded.captures_iter(message).any(|found| {
        !matches!(
            found[1].to_lowercase().as_str(),
            "you" | "u" | "we" | "i" | "to" | "much" | "many"
        )
    })
}

/// Whether a message is a question about how something stands or what was
/// done, as a whole or in one of its sentences when none of the others names
/// an action ("Hello, I dropped off my car this morning … Is it finished
/// yet?"): only reads answer it.
fn asks_about_state(skill: &Skill, corpus: &Corpus, message: &str) -> bool {
    if asks_about_the_past(message) {
        return true;
    }
    let parts: Vec<&str> = message
        .split(['.', '?', '!', '\n'])
        .filter(|part| !part.trim().is_empty())
        .collect();
    let asking: Vec<bool> = parts
        .iter()
        .map(|part| asks_about_the_past(part) || asks_how_it_stands(part))
        .collect();
    asking.contains(&true)
        && parts
            .iter()
            .zip(&asking)
            .filter(|(_, asks)| !**asks)
            .all(|(part, _)| !requests_an_action(skill, corpus, part))
}

/// Ways of asking for something to be done.
const REQUESTING: &[&str] = &[
    "please",
    "can you",
    "could you",
    "would you",
    "will you",
    "i want",
    "i'd like",
    "i would like",
    "i need",
    "we need",
    "we want",
    "we'd like",
    "let's",
];

/// Whether a (lowercase) text holds words of asking ("could you", "I'd
/// like", "please").
pub fn asks_for_something(lower: &str) -> bool {
    REQUESTING.iter().any(|phrase| {
        lower
            .match_indices(phrase)
            .any(|(at, _)| at == 0 || !lower.as_bytes()[at - 1].is_ascii_alphanumeric())
    })
}

/// Whether a sentence asks for an action — in words of asking ("could you
/// …", "I'd like …") or as an order that opens with one ("Cancel …") — as
/// opposed to telling what happened ("I dropped off my car this morning").
fn requests_an_action(skill: &Skill, corpus: &Corpus, part: &str) -> bool {
    let lower = part.to_lowercase();
    let asked = asks_for_something(&lower);
    let opening = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .find(|word| !word.is_empty() && !OPENERS.contains(word));
    let ordered = opening.is_some_and(|word| names_an_action(skill, corpus, &corpus.said(word)));
    (asked || ordered) && names_an_action(skill, corpus, &corpus.said(part))
}

/// Phrases of a request that names a topic, not an action ("help with my
/// prescription", "a question about my account").
const VAGUE: &[&str] = &[
    "help with",
    "help me with",
    "question about",
    "question on",
    "questions about",
    "problem with",
    "issue with",
    "something about",
    "talk about",
];

/// Whether the message names a topic rather than what to do with it.
fn vague(message: &str) -> bool {
    let lower = message.to_lowercase();
    VAGUE.iter().any(|phrase| lower.contains(phrase))
}

/// How much a value of the message that fits an intent's slot (its type,
/// pattern or enum — an `LV-` id for the leave request, an amount for the
/// claim) adds to the intent's score, per value.
const VALUE_WEIGHT: f64 = 0.08;
/// At most this much.
const MAX_VALUE_BONUS: f64 = 0.2;

/// The candidates with what the message's values say: an intent that would
/// take a value the user wrote gains a little over one that would not. A
/// value every candidate takes tells them nothing apart and counts for none.
fn with_values(evidence: &Evidence, candidates: Vec<(String, f64)>) -> Vec<(String, f64)> {
    // The spans of the values each candidate would take.
    let taken: Vec<&[(usize, usize)]> = candidates
        .iter()
        .map(|(intent_id, _)| evidence.of_intent(intent_id))
        .collect();
    let in_play = candidates.iter().filter(|(_, score)| *score > 0.0).count();
    let mut scored: Vec<(String, f64)> = candidates
        .into_iter()
        .zip(&taken)
        .map(|((intent_id, score), spans)| {
            let telling = spans
                .iter()
                .filter(|span| {
                    let takers = taken.iter().filter(|other| other.contains(span)).count();
                    takers < in_play
                })
                .count();
            let bonus = (VALUE_WEIGHT * telling as f64).min(MAX_VALUE_BONUS);
            // Values alone never bring a message into the domain.
            let score = if score > 0.0 {
                (score + bonus).min(1.0)
            } else {
                0.0
            };
            (intent_id, score)
        })
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    scored
}

/// Whether the message writes a value of one of the intent's lists of
/// allowed values ("blowout" of `[haircut, color, blowout]`).
fn names_allowed_value(skill: &Skill, intent_id: &str, message: &str) -> bool {
    skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .filter(|intent| intent.id == intent_id)
        .flat_map(|intent| &intent.entities)
        .flat_map(|entity| &entity.allowed)
        .filter_map(Json::as_str)
        .any(|value| !crate::values::value_spans(message, value).is_empty())
}

/// Whether the message says a word of an input only this intent's tools
/// take ("a pass" of `pass_type`): what is wanted, by name.
fn names_own_input(skill: &Skill, intent_id: &str, said: &HashSet<String>) -> bool {
    const GENERIC: &[&str] = &["id", "type", "number", "date", "name", "amount", "code"];
    let words = |intent: &str| -> HashSet<String> {
        intent_inputs(skill, intent)
            .iter()
            .flat_map(|input| {
                input
                    .split('_')
                    .filter(|word| !GENERIC.contains(word))
                    .map(lexicon::stem)
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let own = words(intent_id);
    let others: HashSet<String> = skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .filter(|intent| intent.id != intent_id)
        .flat_map(|intent| words(&intent.id))
        .collect();
    own.iter()
        .any(|word| !others.contains(word) && said.contains(word))
}

/// Whether the message names the action of an intent that changes
/// something.
fn names_an_action(skill: &Skill, corpus: &Corpus, said: &HashSet<String>) -> bool {
    skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .enumerate()
        .any(|(index, intent)| {
            !only_reads(skill, &intent.id)
                && corpus
                    .actions
                    .get(index)
                    .is_some_and(|words| !words.is_empty())
                && corpus.names_action(index, said)
        })
}

/// The values of a message each intent of the skill would take, matched
/// (never guessed), by byte span: read once per message, asked many times.
struct Evidence {
    spans: Vec<(String, Vec<(usize, usize)>)>,
}

impl Evidence {
    fn of(skill: &Skill, message: &str) -> Self {
        let vocabulary = Vocabulary::of(skill);
        let empty = Map::new();
        let spans = skill
            .intents
            .iter()
            .flat_map(|intents| &intents.supported)
            .map(|intent| {
                let taken = extract(skill, intent, message, &empty, &vocabulary)
                    .iter()
                    .filter(|entity| !entity.guessed)
                    .map(|entity| (entity.start, entity.end))
                    .collect();
                (intent.id.clone(), taken)
            })
            .collect();
        Self { spans }
    }

    /// The spans the intent would take (none for an unknown intent).
    fn of_intent(&self, intent_id: &str) -> &[(usize, usize)] {
        self.spans
            .iter()
            .find(|(id, _)| id == intent_id)
            .map_or(&[], |(_, spans)| spans.as_slice())
    }

    /// The intents that take some value of the message.
    fn takers(&self) -> impl Iterator<Item = &str> {
        self.spans
            .iter()
            .filter(|(_, spans)| !spans.is_empty())
            .map(|(id, _)| id.as_str())
    }

    /// Whether the message holds a value that only this intent of the skill
    /// takes ("load $30 onto U-5002": only the top-up takes an amount) — as
    /// telling of its action as a word for it.
    fn alone(&self, intent_id: &str) -> bool {
        self.alone_among(intent_id, |_| true)
    }

    /// Whether the message holds a value that `intent_id` takes and none of
    /// the other intents `rival` admits does.
    fn alone_among(&self, intent_id: &str, rival: impl Fn(&str) -> bool) -> bool {
        self.of_intent(intent_id).iter().any(|span| {
            self.spans
                .iter()
                .filter(|(id, _)| id != intent_id && rival(id))
                .all(|(_, taken)| !taken.contains(span))
        })
    }
}

/// Detects the intent and entities of a message for a skill.
pub fn detect(skill: &Skill, message: &str, context: &Map<String, Json>) -> Detection {
    let corpus = Corpus::of(skill);
    let evidence = Evidence::of(skill, message);
    let said = corpus.said(message);
    let mut candidates = with_values(&evidence, scored_with(skill, &corpus, message));
    // Whether a value of the message is one only this intent, of those that
    // only read, takes.
    let read_alone =
        |intent_id: &str| evidence.alone_among(intent_id, |other| only_reads(skill, other));
    if asks_about_state(skill, &corpus, message) {
        // A question about an action is about the action's object, in domain
        // as far as the action's words are; only the intents that read answer
        // it — first those that take what the action takes — and an action is
        // no candidate.
        let in_domain = candidates.first().map_or(0.0, |(_, score)| *score);
        // Only when an action leads: a read that leads answers as it is.
        let action_inputs = candidates
            .first()
            .filter(|(intent_id, _)| !only_reads(skill, intent_id))
            .map(|(intent_id, _)| intent_inputs(skill, intent_id))
            .unwrap_or_default();
        candidates.retain(|(intent_id, _)| only_reads(skill, intent_id));
        // An id the action takes (a pattern) says more than a place or a kind.
        let patterned = |name: &str| {
            skill
                .tools
                .iter()
                .flat_map(|tool| &tool.inputs)
                .any(|input| input.name == name && input.pattern.is_some())
        };
        let shares = |intent_id: &str| {
            intent_inputs(skill, intent_id)
                .iter()
                .filter(|input| action_inputs.contains(input))
                .map(|input| if patterned(input) { 2 } else { 1 })
                .sum::<usize>()
        };
        // A read that takes a value the question names, which no other read
        // takes, first ("was HIST110 cancelled?" is about the course).
        candidates.sort_by(|a, b| {
            read_alone(&b.0)
                .cmp(&read_alone(&a.0))
                .then(shares(&b.0).cmp(&shares(&a.0)))
                .then(b.1.total_cmp(&a.1))
        });
        if let Some((_, best)) = candidates.first_mut() {
            *best = best.max(in_domain);
        }
        // "Has CW-101 been confirmed?": the one read that takes the id asked
        // about answers it — a read, so nothing is risked by answering.
        let (reject, accept, margin_needed) = thresholds(skill);
        let reads_alone = candidates
            .first()
            .is_some_and(|(intent_id, _)| read_alone(intent_id));
        let second = candidates.get(1).map_or(0.0, |(_, score)| *score);
        if let Some((_, best)) = candidates.first_mut() {
            if reads_alone {
                *best = best.max(accept).max(second + margin_needed + 1e-9);
            } else if *best >= reject && *best - second >= margin_needed {
                // "Is my car done?": the one read clearly meant answers
                // too, asking first for what it needs.
                *best = best.max(accept);
            }
        }
    }
    let (reject, accept, margin_needed) = thresholds(skill);
    if vague(message) && candidates.first().is_none_or(|(_, score)| *score < reject) {
        // "A question about M-2050": no request, but about something the
        // skill knows — which of the intents that take it was meant is asked.
        let takers: Vec<(String, f64)> = evidence
            .takers()
            .map(|intent_id| (intent_id.to_owned(), reject))
            .collect();
        if !takers.is_empty() {
            candidates = takers;
        }
    }
    // An intent that changes something can only be acted on when its action
    // is named; one that is not is no rival to a read ("Where's my order
    // TK-7001?" is the status, whatever the refund's examples share with it).
    let index_of = |intent_id: &str| {
        skill
            .intents
            .iter()
            .flat_map(|intents| &intents.supported)
            .position(|intent| intent.id == intent_id)
    };
    // "I'd like a blowout please": asked for, not asked about — a value of
    // the action's own list, wanted, names it as well as its verb would.
    let wanted = asks_for_something(&message.to_lowercase()) && !is_question(message);
    let named = |intent_id: &str| {
        index_of(intent_id).is_none_or(|index| corpus.names_action(index, &said))
            || (wanted
                && (names_allowed_value(skill, intent_id, message)
                    || names_own_input(skill, intent_id, &said)))
    };
    let eligible = |intent_id: &str| {
        only_reads(skill, intent_id)
            || is_example(skill, intent_id, message)
            || named(intent_id)
            || evidence.alone(intent_id)
    };
    let mut rivals: Vec<(String, f64)> = candidates
        .iter()
        .filter(|(intent_id, score)| *score >= reject && eligible(intent_id))
        .cloned()
        .collect();
    // "I'd like to book movers for my 1 bedroom apartment": an action the
    // request asks for leads the reads ahead of it whose subject it never
    // names ("the price of a move") — not a question, nor a statement ("CW-100
    // is cancelled, so show me CW-103").
    let subject_named = |read: &str, action: &str| {
        evidence.alone(read)
            || index_of(read)
                .zip(index_of(action))
                .is_none_or(|(read, action)| {
                    corpus.names_subject(read, &said)
                        && (is_question(message) || !corpus.object_of_action(read, action, message))
                })
    };
    if !is_question(message)
        && requests_an_action(skill, &corpus, message)
        && let Some(at) = rivals
            .iter()
            .position(|(intent_id, _)| !only_reads(skill, intent_id) && named(intent_id))
        && at > 0
        && rivals[..at]
            .iter()
            .all(|(read, _)| only_reads(skill, read) && !subject_named(read, &rivals[at].0))
    {
        let action = rivals.remove(at);
        if let Some(from) = candidates.iter().position(|(id, _)| *id == action.0) {
            let moved = candidates.remove(from);
            candidates.insert(0, moved);
        }
        rivals.insert(0, action);
    }
    let mut margin = match candidates.as_slice() {
        [(_, first), (_, second), ..] => first - second,
        [(_, first)] => *first,
        [] => 0.0,
    };
    if let Some((read, score)) = rivals.first().cloned()
        && only_reads(skill, &read)
    {
        margin = score - rivals.get(1).map_or(0.0, |(_, next)| *next);
        if let Some(at) = candidates
            .iter()
            .position(|(intent_id, _)| *intent_id == read)
        {
            let first = candidates.remove(at);
            candidates.insert(0, first);
        }
    }
    // An action the message names ("could you book me a haircut") leads a
    // read whose subject it never names ("the price of a service"), whatever
    // values they share, or names only as the action's object ("I want to
    // pay the balance").
    if let Some((action, score)) = rivals.first().cloned()
        && !only_reads(skill, &action)
        && candidates
            .first()
            .is_some_and(|(first, _)| *first == action)
        && named(&action)
    {
        let next = rivals
            .iter()
            .skip(1)
            .find(|(intent_id, _)| {
                // Another action counts when a word of the message names it
                // and not the leader too ("reserve the guest suite": the
                // suite is a cancellation's word as well, "reserve" is not).
                if only_reads(skill, intent_id) {
                    return subject_named(intent_id, &action);
                }
                evidence.alone(intent_id)
                    || index_of(intent_id)
                        .zip(index_of(&action))
                        .is_none_or(|(other, leader)| corpus.names_apart(other, leader, &said))
            })
            .map_or(0.0, |(_, next)| *next);
        margin = margin.max(score - next);
        // Wanted by its value and nothing else in play ("I'd like a blowout
        // please"): as clear as a request of a few words gets.
        if wanted
            && next == 0.0
            && names_allowed_value(skill, &action, message)
            && let Some((_, best)) = candidates.first_mut()
        {
            *best = best.max(accept);
        }
    }
    let best = candidates.first().cloned();
    // Not sure which intent, and most of what the message says is no word
    // of the skill's, nor any value it takes: not the skill's business ("my
    // dog ate chocolate, what should I do?"), rather than a question of
    // which intent was meant.
    let foreign =
        corpus.share_of(message) < 0.5 && !vague(message) && evidence.takers().next().is_none();
    match best {
        Some((intent_id, confidence)) if confidence >= reject => {
            let mut detection = detect_as(skill, &intent_id, message, context);
            detection.confidence = confidence;
            detection.margin = margin;
            let index = skill
                .intents
                .iter()
                .flat_map(|intents| &intents.supported)
                .position(|intent| intent.id == intent_id);
            detection.confident = confidence >= accept
                && margin >= margin_needed
                && (enough_words(skill, &intent_id, message)
                    || (wanted && names_allowed_value(skill, &intent_id, message)))
                // "I have a question about my card" names no request.
                && !vague(message)
                // "Extend my stay HB-2005" is no cancellation, whatever
                // "we have to cancel our stay" shares with it.
                && (is_example(skill, &intent_id, message)
                    || named(&intent_id)
                    || evidence.alone(&intent_id));
            // A read the message names a value for that no other read takes,
            // with no action named ("Is there room in ECON220?"): answered —
            // reading risks nothing, and asking which was meant would.
            let best_action = candidates
                .iter()
                .filter(|(id, _)| !only_reads(skill, id))
                .map(|(_, score)| *score)
                .fold(0.0, f64::max);
            if !detection.confident
                && only_reads(skill, &intent_id)
                && !vague(message)
                && !names_an_action(skill, &corpus, &said)
            {
                // Or the one read a question can mean, all in the skill's
                // words, with no action named ("Has my request been
                // handled?"): it asks for what it needs — a question, never a
                // side effect.
                detection.confident = (confidence - best_action >= margin_needed
                    && read_alone(&intent_id))
                    || (margin >= margin_needed
                        && is_question(message)
                        && index.is_some_and(|index| corpus.names_subject(index, &said))
                        && corpus.share_of(message) >= 1.0);
            }
            detection.candidates = candidates;
            if foreign && !detection.confident {
                return Detection {
                    intent_id: None,
                    confident: false,
                    entities: Vec::new(),
                    out_of_domain: Some(out_of_domain(skill)),
                    ..detection
                };
            }
            detection
        }
        best => Detection {
            intent_id: None,
            confidence: best.map_or(0.0, |(_, score)| score),
            margin,
            confident: false,
            entities: Vec::new(),
            candidates,
            out_of_domain: Some(out_of_domain(skill)),
        },
    }
}

/// The detection of `intent_id` as the user's choice (a clarification's
/// answer): confident, with its entities read from the message. An unknown id
/// is out of domain.
pub fn detect_as(
    skill: &Skill,
    intent_id: &str,
    message: &str,
    context: &Map<String, Json>,
) -> Detection {
    let Some(intent) = skill
        .intents
        .iter()
        .flat_map(|intents| intents.supported.iter())
        .find(|intent| intent.id == intent_id)
    else {
        return Detection {
            intent_id: None,
            confidence: 0.0,
            margin: 0.0,
            confident: false,
            entities: Vec::new(),
            candidates: Vec::new(),
            out_of_domain: Some(OutOfDomain {
                action: "redirect".into(),
                message: "Sorry, I can't help with that.".into(),
            }),
        };
    };
    let entities = extract(skill, intent, message, context, &Vocabulary::of(skill));
    Detection {
        intent_id: Some(intent_id.to_owned()),
        confidence: 1.0,
        margin: 1.0,
        confident: true,
        entities,
        candidates: vec![(intent_id.to_owned(), 1.0)],
        out_of_domain: None,
    }
}
