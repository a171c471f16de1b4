//! A request for what the skill never does ("could you bump my salary to
//! 90k?" where the policy says "Never use update_salary") is refused in
//! plain words that name it — not offered a menu of what the skill does.
//!
//! And a request that says what the skill hands to a human (an escalation
//! condition written as a sentence) is read here too: [`says`].

use adas_skill::compile::{Standing, compile};
use adas_skill::model::Skill;

use super::{OutOfDomain, STOPWORDS};

/// The content stems of a text (no stopwords, no values, no short words).
fn stems(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphabetic() && c != '\'')
        .map(str::to_lowercase)
        .filter(|word| word.len() >= 3 && !STOPWORDS.contains(&word.as_str()))
        .map(|word| crate::lexicon::stem(&word))
        .collect()
}

/// What a never-allowed tool does, in words: its description, else its name.
fn what_it_does(tool: &adas_skill::model::Tool) -> String {
    tool.description
        .clone()
        .filter(|description| !description.trim().is_empty())
        .unwrap_or_else(|| tool.name.replace(['_', '.'], " "))
}

/// The words of an intent: its id, description and examples.
fn intent_stems(skill: &Skill, intent_id: &str) -> Vec<String> {
    skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .filter(|intent| intent.id == intent_id)
        .flat_map(|intent| {
            std::iter::once(intent.id.replace('_', " "))
                .chain(intent.description.clone())
                .chain(intent.examples.iter().cloned())
        })
        .flat_map(|text| stems(&text))
        .collect()
}

/// Whether `message` says `sentence` (an escalation condition in words,
/// "Security vulnerability detected"): it carries two thirds of the
/// sentence's content words, and at least two of them (the one, when the
/// sentence has one) — "I found a security vulnerability in login" says
/// it; "check the security settings" does not.
pub fn says(message: &str, sentence: &str) -> bool {
    let mut wanted = stems(sentence);
    wanted.sort();
    wanted.dedup();
    if wanted.is_empty() {
        return false;
    }
    let said = stems(message);
    let shared = wanted.iter().filter(|stem| said.contains(stem)).count();
    let needed = (wanted.len() * 2).div_ceil(3).max(wanted.len().min(2));
    shared >= needed
}

/// The skill's out-of-domain answer.
pub fn out_of_domain(skill: &Skill) -> OutOfDomain {
    let out_of_domain = skill
        .intents
        .as_ref()
        .and_then(|intents| intents.out_of_domain.clone())
        .unwrap_or_default();
    let mut message = out_of_domain
        .message
        .unwrap_or_else(|| "Sorry, I can't help with that.".into())
        .trim()
        .to_owned();
    let elsewhere: Vec<&str> = out_of_domain
        .suggest_domains
        .iter()
        .map(|domain| domain.trim())
        .filter(|domain| !domain.is_empty())
        .collect();
    if !elsewhere.is_empty() {
        message = format!("{message} You could try: {}.", elsewhere.join(", "));
    }
    OutOfDomain {
        action: out_of_domain.action.unwrap_or_else(|| "redirect".into()),
        message,
    }
}

/// The refusal when `message` asks for a tool the skill never calls: two or
/// more of its words are that tool's (name or description), more than any
/// other never-allowed tool's, and one of them is no word of the intent the
/// detector would guess (`guess`): what the never-allowed tool does explains
/// the message better than what the skill does.
pub(super) fn never_allowed(
    skill: &Skill,
    message: &str,
    guess: Option<&str>,
) -> Option<OutOfDomain> {
    refused(skill, message, guess, false)
}

/// The refusal even of a request the detector would act on: a never-allowed
/// tool's verb is said with a word of what it acts on that the guessed
/// intent never uses ("cancel this afternoon's run" for `cancel_route_run`)
/// — the request is the forbidden act, whatever an allowed one shares with
/// it.
pub(super) fn names_never_allowed(
    skill: &Skill,
    message: &str,
    guess: &str,
) -> Option<OutOfDomain> {
    refused(skill, message, Some(guess), true)
}

fn refused(
    skill: &Skill,
    message: &str,
    guess: Option<&str>,
    by_name: bool,
) -> Option<OutOfDomain> {
    let policy = compile(skill);
    let guessed = guess
        .map(|intent_id| intent_stems(skill, intent_id))
        .unwrap_or_default();
    let said = stems(message);
    if said.is_empty() {
        return None;
    }
    let mut best: Option<(usize, &adas_skill::model::Tool)> = None;
    for tool in &skill.tools {
        if policy.standing(&tool.name) != Standing::Never {
            continue;
        }
        let mut own = stems(&tool.name.replace(['_', '.'], " "));
        // Its verb and a word of what it acts on that the guessed intent
        // never uses.
        if by_name
            && !(own.len() >= 2
                && said.contains(&own[0])
                && own[1..]
                    .iter()
                    .any(|stem| said.contains(stem) && !guessed.contains(stem)))
        {
            continue;
        }
        own.extend(stems(tool.description.as_deref().unwrap_or_default()));
        own.sort();
        own.dedup();
        let shared: Vec<&String> = said.iter().filter(|stem| own.contains(stem)).collect();
        let beyond = shared.iter().any(|stem| !guessed.contains(stem));
        let shared = shared.len();
        if shared >= 2 && beyond && best.is_none_or(|(most, _)| shared > most) {
            best = Some((shared, tool));
        }
    }
    let (_, tool) = best?;
    let what = what_it_does(tool);
    let what = what.trim().trim_end_matches('.');
    let mut chars = what.chars();
    let what = chars
        .next()
        .map(|first| first.to_lowercase().chain(chars).collect::<String>())
        .unwrap_or_default();
    Some(OutOfDomain {
        action: "reject".into(),
        message: format!("Sorry, that is something I can't do here ({what})."),
    })
}

#[cfg(test)]
mod tests {
    use super::says;

    #[test]
    fn a_request_says_a_sentence_with_most_of_its_words() {
        let said = [
            (
                "I found a security vulnerability in the login handler",
                "Security vulnerability detected",
            ),
            (
                "we're about to make a breaking change to the public API",
                "Breaking change to public API",
            ),
            (
                "there is a performance regression since Monday",
                "Performance regression detected",
            ),
            (
                "the test failure can't be resolved",
                "Test failure cannot be resolved",
            ),
            ("fraud", "Fraud"),
        ];
        for (message, sentence) in said {
            assert!(says(message, sentence), "{message} / {sentence}");
        }
        let unsaid = [
            (
                "check the security settings",
                "Security vulnerability detected",
            ),
            (
                "create a branch for the API change",
                "Breaking change to public API",
            ),
            ("run the tests", "Test failure cannot be resolved"),
            (
                "I have a merge conflict",
                "Merge conflict requires human judgment",
            ),
            ("anything", ""),
        ];
        for (message, sentence) in unsaid {
            assert!(!says(message, sentence), "{message} / {sentence}");
        }
    }
}
