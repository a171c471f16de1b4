//! Intent detection: TF-IDF cosine between the message and each intent's
//! examples and description, over word tokens plus character trigrams (so
//! "refunded" still meets "refund"). The rules below decide on that raw score
//! (out of domain under a floor; acted on above an accept score and a lead
//! over the next; otherwise the job asks which intent was meant); the
//! confidence reported is on the documented scale ([`calibration`]: how often
//! a first guess like it was right), where a skill's own
//! `intents.thresholds` apply.
//!
//! Beyond the cosine: a word only one intent's author statement uses (its
//! name, description, tools) adds to that intent; question words tell intents
//! apart but never bring a message into the domain; an intent that changes
//! something is confident only when the message names its action — one of its
//! action words (see `action_words`), in any form or sense, or a value only it
//! takes — so a noun shared with one example never triggers a side effect; a
//! message mostly in words the skill never uses, naming nothing it takes, is
//! out of domain rather than a question of which intent.

mod asks;

pub mod calibration;

mod refusal;
pub use refusal::{out_of_domain, says};

mod tools;

mod scale;
use scale::*;

mod corpus;

mod clauses;

mod evidence;

mod story;

mod features;

use crate::{HashMap, HashSet};
use std::sync::OnceLock;

use adas_skill::model::Skill;
use serde_json::{Map, Value as Json};

use crate::entities::{Entity, SHORTHAND, Vocabulary, extract};
use crate::lexicon;
pub use asks::*;
use clauses::*;
use corpus::*;
use evidence::*;
use features::*;
pub use tools::{intent_tools, lookups_alike, matched_tool, matched_tool_for, only_reads, reads};

/// The detector's raw-score rules (tuned on the shipped templates' intent
/// table and the seen conversation sets): below `RAW_REJECT` a message is out
/// of domain; at or above `RAW_ACCEPT`, `RAW_MARGIN` ahead of the next, an
/// intent may be acted on. A skill's own thresholds are on the documented
/// scale ([`calibration`]) and apply after these.
const RAW_REJECT: f64 = 0.18;
const RAW_ACCEPT: f64 = 0.30;
const RAW_MARGIN: f64 = 0.10;

/// How far the best intent's raw score must lead the next to be acted on
/// (when the skill sets no `intents.thresholds.margin`).
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

type Vector = HashMap<String, f64>;

/// From this many words on, a message is also judged by its best sentence or
/// clause.
const LONG_MESSAGE_WORDS: usize = 12;

/// Every intent of the skill with its score for `message`, best first.
pub fn score(skill: &Skill, message: &str) -> Vec<(String, f64)> {
    scored_with(skill, &Corpus::shared(skill), message)
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
        if judged.iter().any(|score| *score >= RAW_REJECT) {
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

/// Input names of the tools an intent's workflow calls.
fn intent_inputs(skill: &Skill, intent_id: &str) -> Vec<String> {
    intent_tools(skill, intent_id)
        .into_iter()
        .flat_map(|tool| tool.inputs.iter().map(|input| input.name.clone()))
        .collect()
}

/// The detector's own reject, accept and margin on its raw scores (what
/// [`score`] returns), whatever the skill sets.
pub fn raw_thresholds() -> (f64, f64, f64) {
    (RAW_REJECT, RAW_ACCEPT, RAW_MARGIN)
}

/// The skill's reject threshold, accept threshold and margin on the
/// documented scale (its own, else the defaults).
pub fn thresholds(skill: &Skill) -> (f64, f64, f64) {
    use calibration::{Verdict, calibrated};
    let thresholds = skill
        .intents
        .as_ref()
        .and_then(|intents| intents.thresholds.clone())
        .unwrap_or_default();
    // By default, what the rules' own raw floor and accept give: a skill
    // that sets nothing is decided by the rules alone.
    let reject = thresholds
        .reject
        .unwrap_or_else(|| calibrated(Verdict::Asks, RAW_REJECT));
    let accept = thresholds
        .accept
        .unwrap_or_else(|| calibrated(Verdict::Asks, RAW_ACCEPT))
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

/// Whether a confidence (documented scale) and its lead over the next clear
/// the skill's accept threshold and margin (words aside).
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

/// Detects the intent and entities of a message for a skill.
pub fn detect(skill: &Skill, message: &str, context: &Map<String, Json>) -> Detection {
    let mut detection = on_the_scale(skill, message, by_the_rules(skill, message, context));
    // "… please give her 5502 on ortho": a number in the request that the
    // action would not use says the action is not understood — asked, never
    // acted on.
    // And two actions the words score alike ("got no ride home yesterday":
    // a missed pickup to report, or the service to cancel?) are a question,
    // whichever of them names its action.
    if let Some(intent_id) = detection.intent_id.clone().filter(|_| detection.confident)
        && !only_reads(skill, &intent_id)
    {
        let unclear = story::leaves_unclear(skill, &detection, &intent_id, message);
        if unclear || unused_number_in_request(message, &detection.entities) {
            detection.confident = false;
        }
    }
    // "Would you cancel this afternoon's run?" where a whole run is never
    // cancelled here: refused, though a student's cancellation shares the
    // verb. Not sure which intent: refused when a never-allowed tool
    // explains the message better.
    let refused = if detection.confident {
        detection
            .intent_id
            .as_deref()
            .filter(|intent_id| !only_reads(skill, intent_id))
            .and_then(|intent_id| refusal::names_never_allowed(skill, message, intent_id))
    } else {
        let guess = detection.candidates.first().map(|(id, _)| id.as_str());
        refusal::never_allowed(skill, message, guess)
    };
    match refused {
        Some(refused) => Detection {
            intent_id: None,
            confident: false,
            entities: Vec::new(),
            out_of_domain: Some(refused),
            ..detection
        },
        None => detection,
    }
}

/// Whether the message's last clause (its request, after any story)
/// holds numbers — words of digits alone — of which none is a value read
/// for the intent.
fn unused_number_in_request(message: &str, entities: &[crate::Entity]) -> bool {
    let trimmed = message.trim_end_matches(|c: char| c.is_whitespace() || ".!?".contains(c));
    // The last clause: after a sentence's end, a comma or a dash between words.
    let start = [". ", "! ", "? ", ", ", "; ", " - ", "—", "–"]
        .iter()
        .filter_map(|mark| trimmed.rfind(mark).map(|at| at + mark.len()))
        .max()
        .unwrap_or(0);
    let mut at = start;
    let mut numbers = Vec::new();
    for word in trimmed[start..].split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
        let begin = at;
        at += word.len() + 1;
        if word.len() >= 2 && word.chars().all(|c| c.is_ascii_digit()) {
            numbers.push(begin);
        }
    }
    // "maybe 2500 or 3500": one of them used is a value weighed, not left out.
    let covered = |begin: &usize| {
        entities
            .iter()
            .any(|entity| entity.start <= *begin && *begin < entity.end.max(entity.start + 1))
    };
    !numbers.is_empty() && !numbers.iter().any(covered)
}

/// The detection the rules reach on raw scores, before the documented
/// scale and the skill's own thresholds (what [`calibration`] is fitted on).
#[expect(
    clippy::too_many_lines,
    reason = "the detector's rules in their order, each reordering the same candidates through the closures it defines; the layout test counts these and the count only falls"
)]
pub fn by_the_rules(skill: &Skill, message: &str, context: &Map<String, Json>) -> Detection {
    let corpus = Corpus::shared(skill);
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
        let (reject, accept, margin_needed) = (RAW_REJECT, RAW_ACCEPT, RAW_MARGIN);
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
    let (reject, accept, margin_needed) = (RAW_REJECT, RAW_ACCEPT, RAW_MARGIN);
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
            || evidence::asks_by_its_noun(skill, intent_id, message)
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
    // "I need to cancel my appointment for this Friday": an action named by
    // its own word leads one that only a value ("Friday" for the new date) or
    // an input's name ("reserve" of a reservation's id) points at.
    let by_word = |intent_id: &str| {
        !only_reads(skill, intent_id)
            && index_of(intent_id).is_some_and(|index| corpus.names_own_action_word(index, &said))
    };
    let in_words = |intent_id: &str| {
        by_word(intent_id)
            || is_example(skill, intent_id, message)
            || evidence::asks_by_its_noun(skill, intent_id, message)
    };
    if let Some((first, leading)) = candidates.first().cloned()
        && !only_reads(skill, &first)
        && !in_words(&first)
        && requests_an_action(skill, &corpus, message)
        && let Some(at) = rivals
            .iter()
            .position(|(intent_id, score)| by_word(intent_id) && *score + RAW_MARGIN >= leading)
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
        // …and no other action in play takes that value too ("put a TSH on
        // SMP-4847": ordering a TSH and re-running one both take it).
        let shared_value = candidates.iter().any(|(other, score)| {
            *other != action
                && *score >= reject
                && !only_reads(skill, other)
                && names_allowed_value(skill, other, message)
        });
        if wanted
            && next == 0.0
            && !shared_value
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
    let foreign = corpus.share_of(message) < 0.5
        && !vague(message)
        && evidence.takers().next().is_none()
        && !best
            .as_ref()
            .is_some_and(|(intent_id, _)| takes_when(skill, intent_id, message));
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
            // A whole request: its action named and every value it needs
            // written ("claim $212 for two nights at a motel") is a good
            // first guess even where the words score low — the complete
            // call is the evidence.
            // …leading every other intent by the margin, not only those
            // that name an action apart: a near tie is a question.
            let lead = confidence
                - candidates
                    .iter()
                    .filter(|(id, _)| *id != intent_id)
                    .map(|(_, score)| *score)
                    .fold(0.0, f64::max);
            let whole = confidence >= reject
                && lead >= margin_needed
                && named(&intent_id)
                && complete(skill, &intent_id, &detection);
            detection.confident = (confidence >= accept || whole)
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
                // Or a question about a value only this read takes ("Where
                // are we at with PO-20431?") or a request to see it ("pull
                // up TOUR-5521"), no action named: the first guess of a
                // question is answered, reading risks nothing.
                detection.confident = (confidence - best_action >= margin_needed
                    && read_alone(&intent_id))
                    || (margin >= margin_needed
                        && is_question(message)
                        && index.is_some_and(|index| corpus.names_subject(index, &said))
                        && corpus.share_of(message) >= 1.0)
                    || ((asks_how_things_stand(message) || asks_to_see(message))
                        && read_alone(&intent_id)
                        && confidence >= reject);
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
