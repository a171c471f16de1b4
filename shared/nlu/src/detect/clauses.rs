//! A long message judged by its clauses: its sentences, the turn that says
//! what is wanted ("but", "actually"), the idioms and action words that carry it.

use super::*;

/// The words that name what each intent that changes something does: what
/// its author says it is (name, description, tools — less the inputs it
/// takes, the verbs that wrap any request and what every intent is said to
/// be), the word each example opens its request with ("Cancel booking …",
/// "We have to cancel our stay"), and the values its entities allow. A
/// message that shares only a noun with one example ("extend my stay") names
/// none of them: acting on it would be a guess.
pub(super) fn action_words(
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
                return HashSet::default();
            }
            let inputs: HashSet<String> = intent_inputs(skill, &intent.id)
                .iter()
                .flat_map(|input| features(&input.replace('_', " ")))
                .collect();
            // The verb its name opens with ("cancel" of `cancel_transport`)
            // stays its action, whatever a read's description lists ("every
            // … cancellation on file").
            let verbs: HashSet<String> = std::iter::once(intent.id.as_str())
                .chain(
                    intent_tools(skill, &intent.id)
                        .iter()
                        .filter(|tool| !reads(tool))
                        .map(|tool| tool.name.as_str()),
                )
                .filter_map(|name| name.split(['_', '.', '-']).find(|word| !word.is_empty()))
                .flat_map(features)
                .collect();
            let mut actions: HashSet<String> = stated
                .iter()
                .filter(|word| {
                    !inputs.contains(*word)
                        && !everyone.contains(word)
                        && (!read.contains(word) || verbs.contains(*word))
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
pub(super) fn idioms(text: &str) -> std::borrow::Cow<'_, str> {
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
pub(super) fn sentences(message: &str) -> Vec<&str> {
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
pub(super) const TURNS: &[&str] = &[
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
pub(super) fn after_the_turn(message: &str) -> Option<&str> {
    let lower = message.to_lowercase();
    let (at, turn) = TURNS
        .iter()
        .filter_map(|turn| lower.rfind(turn).map(|at| (at, turn.len())))
        .max_by_key(|(at, _)| *at)?;
    let rest = message.get(at + turn..)?;
    (rest.split_whitespace().count() >= 2).then_some(rest)
}
