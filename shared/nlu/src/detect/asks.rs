//! What a message is, beside its intent: a question about the past or about
//! how something stands, a request for something, a request too vague to act on.

use super::*;

/// Words a message may open with before its question ("ok, did …", "hi, has …").
pub(super) const OPENERS: &[&str] = &[
    "ok", "okay", "so", "and", "but", "hi", "hello", "hey", "um", "also", "just",
];

/// Words that never open an order.
const NO_VERB: &[&str] = &[
    "no", "not", "never", "nobody", "nothing", "none", "the", "a", "an", "my", "our", "your",
    "his", "her", "their", "this", "that", "these", "those", "there", "it", "i", "we", "you", "he",
    "she", "they", "someone", "somebody",
];

/// Words that say how something stands ("is my order done?", "are my prints
/// ready?"): a question with one of them asks about a state, not for an
/// action.
pub(super) const STATES: &[&str] = &[
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
    // "… can you check it actually went through?": asked of an action done,
    // in any clause of the message.
    let settled = [
        "went through",
        "gone through",
        "came through",
        "come through",
        "go through",
    ];
    if (lower.contains('?') || lower.contains("check") || lower.contains("see if"))
        && settled.iter().any(|phrase| lower.contains(phrase))
    {
        return true;
    }
    if lower
        .split(['.', '?', '!', ';', '—', '–'])
        .skip(1)
        .any(|clause| clause.trim() != lower.trim() && opens_a_question_of_the_past(clause))
    {
        return true;
    }
    opens_a_question_of_the_past(&lower)
}

/// Whether the text opens as a question of something done ("did …", "has …",
/// "is it still …").
fn opens_a_question_of_the_past(lower: &str) -> bool {
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|word| !word.is_empty())
        .collect();
    let Some(first) = words.iter().find(|word| !OPENERS.contains(word)) else {
        return false;
    };
    match *first {
        "did" | "has" | "have" | "had" | "was" | "were" | "hasn't" | "didn't" | "wasn't" => true,
        // "is it actually paused?": a past participle after "is" is a state
        // asked about, whatever the action (a read, never the action again).
        "is" | "are" | "isn't" | "aren't" => words.iter().any(|word| {
            matches!(*word, "still" | "already" | "yet")
                || STATES.contains(word)
                || (word.len() > 4 && word.ends_with("ed"))
        }),
        _ => false,
    }
}

/// Whether a message is a question: a question mark, or a question word or
/// auxiliary first ("whats my bill").
pub(super) fn is_question(message: &str) -> bool {
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
pub(super) fn asks_how_it_stands(message: &str) -> bool {
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
pub(super) fn asks_about_state(skill: &Skill, corpus: &Corpus, message: &str) -> bool {
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
pub(super) const REQUESTING: &[&str] = &[
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
pub(super) fn requests_an_action(skill: &Skill, corpus: &Corpus, part: &str) -> bool {
    let lower = part.to_lowercase();
    let asked = asks_for_something(&lower);
    let opening = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .find(|word| !word.is_empty() && !OPENERS.contains(word));
    // An order opens with its verb: never with a negation, an article or a
    // pronoun ("No sign of the bus …", "The van …", "I ended up …").
    let ordered = opening.is_some_and(|word| {
        !NO_VERB.contains(&word) && names_an_action(skill, corpus, &corpus.said(word))
    });
    (asked || ordered) && names_an_action(skill, corpus, &corpus.said(part))
}

/// Phrases of a request that names a topic, not an action ("help with my
/// prescription", "a question about my account").
pub(super) const VAGUE: &[&str] = &[
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
pub(super) fn vague(message: &str) -> bool {
    let lower = message.to_lowercase();
    VAGUE.iter().any(|phrase| lower.contains(phrase))
}

#[cfg(test)]
mod tests {
    use super::asks_about_the_past;

    #[test]
    fn a_state_asked_after_is_is_a_question_of_the_past() {
        for message in [
            "Somebody was meant to stop the ad last week. Is it actually stopped?",
            "is my subscription renewed yet",
            "Are the two tickets merged?",
        ] {
            assert!(asks_about_the_past(message), "{message}");
        }
        for message in ["Please stop the ad", "is there a way to get a refund"] {
            assert!(!asks_about_the_past(message), "{message}");
        }
    }
}
