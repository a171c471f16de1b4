//! A message that only tells what happened ("no sign of the bus this
//! morning, I ended up driving her in"): what it asks for is inferred, so a
//! side effect is acted on only when the story plainly names it.

use super::*;

/// Told in the past: a verb in "-ed" or a day gone by.
fn narrated(text: &str) -> bool {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .any(|word| {
            (word.len() > 4 && word.ends_with("ed"))
                || matches!(
                    word,
                    "yesterday" | "ago" | "got" | "went" | "came" | "was" | "were"
                )
        })
}

/// Told in the past by someone: "I ended up …", "we drove …", "he was …"
/// — not a participle that describes ("a seated dinner", "double-checked").
fn plainly_past(text: &str) -> bool {
    const SUBJECTS: &[&str] = &["i", "we", "he", "she", "they", "it", "you", "nobody"];
    let words: Vec<String> = text
        .to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|word| !word.is_empty())
        .map(str::to_owned)
        .collect();
    words.iter().any(|word| {
        matches!(
            word.as_str(),
            "yesterday" | "ago" | "went" | "came" | "got" | "was" | "were" | "drove" | "had"
        )
    }) || words.windows(2).any(|pair| {
        SUBJECTS.contains(&pair[0].as_str()) && pair[1].len() > 4 && pair[1].ends_with("ed")
    })
}

/// Whether `text` tells what happened and asks for nothing: no part of it
/// asks for an action, orders one ("freeze card 4421 instead") or is a
/// question.
fn tells_only(skill: &Skill, corpus: &Corpus, text: &str) -> bool {
    narrated(text)
        && !text.split(['.', ',', ';', '!', '?', '—', '–']).any(|part| {
            asks_for_something(&part.to_lowercase())
                || is_question(part)
                || requests_an_action(skill, corpus, part)
        })
}

/// Whether a story leaves the side effect `intent_id` unclear — asked about,
/// never acted on: its action is named only in the story's past while its
/// own examples never tell one (a cancellation's are wishes: "we don't need
/// the bus anymore"), its action is named by no
/// word (a value only it takes, "10:15 yesterday" for a delivery's time, is
/// the story's), or another action scores nearly as well.
pub(super) fn leaves_unclear(
    skill: &Skill,
    detection: &Detection,
    intent_id: &str,
    message: &str,
) -> bool {
    if !narrated(message) {
        return false;
    }
    // Fetched only for a story: its key costs a hash of the skill.
    let corpus = Corpus::shared(skill);
    if !tells_only(skill, &corpus, message) {
        return false;
    }
    let intents = || skill.intents.iter().flat_map(|intents| &intents.supported);
    let told_in_examples = intents()
        .filter(|intent| intent.id == intent_id)
        .flat_map(|intent| &intent.examples)
        .any(|example| tells_only(skill, &corpus, example));
    let index = intents().position(|intent| intent.id == intent_id);
    let names = |text: &str| {
        index.is_some_and(|index| corpus.names_action_in_words(index, &corpus.said(text)))
    };
    let unnamed = !names(message)
        && !names_allowed_value(skill, intent_id, message)
        && !Evidence::of(skill, message).alone_but_when(intent_id);
    // Named only where the story is told ("I ended up driving her in"), not
    // in a part that says what is to happen ("her transport's booked, she
    // is going home tomorrow").
    let named_in_the_story = names(message)
        && message
            .split(['.', ',', ';', ':', '!', '?', '—', '–'])
            .filter(|part| names(part))
            .all(plainly_past);
    let own = detection
        .candidates
        .iter()
        .find(|(id, _)| id == intent_id)
        .map_or(0.0, |(_, score)| *score);
    let rival_action = detection.candidates.iter().any(|(id, score)| {
        id != intent_id
            && !only_reads(skill, id)
            && *score >= RAW_REJECT
            && own - score < RAW_MARGIN
    });
    (!told_in_examples && named_in_the_story) || unnamed || rival_action
}
