//! Ids written in digits alone, read out in groups as people copy them from
//! a card or a cheque ("routing 071 000 013" → `071000013`): the groups after
//! the id's name are joined when its input's pattern or description says how
//! many digits it has and the first group alone is too short to be it.

use std::borrow::Cow;
use std::sync::OnceLock;

use adas_skill::model::Skill;
use regex::Regex;

use super::{cue_words, described_cues};

/// How many digits an id's description says it has: "Nine-digit routing
/// number" → exactly nine, "digits only" → a run of five or more (shorter
/// runs are counts and years).
pub(crate) fn described_digits(descriptions: &[String]) -> Option<(usize, usize)> {
    for description in descriptions {
        let lower = description.to_lowercase();
        let words: Vec<&str> = lower
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|word| !word.is_empty())
            .collect();
        for pair in words.windows(2) {
            if matches!(pair[1], "digit" | "digits") {
                let count = pair[0]
                    .parse::<i64>()
                    .ok()
                    .or_else(|| crate::values::number_word(pair[0]));
                if let Some(count) = count.filter(|count| (2..=34).contains(count)) {
                    let count = count as usize;
                    return Some((count, count));
                }
            }
        }
        if [
            "digits only",
            "only digits",
            "all digits",
            "numbers only",
            "numeric only",
        ]
        .iter()
        .any(|phrase| lower.contains(phrase))
        {
            return Some((5, 17));
        }
    }
    None
}

/// An id's shape as its description spells it: `"BDA-" and five digits`,
/// "MBR- followed by 4 digits" → `(BDA, -, 5)` — a prefix and a count, not
/// digits alone.
pub(crate) fn described_prefixed(descriptions: &[String]) -> Option<(String, String, usize)> {
    static PREFIXED: OnceLock<Regex> = OnceLock::new();
    let prefixed = PREFIXED.get_or_init(|| {
        Regex::new(
            r#"(?i)\b([A-Z]{1,8})([-_]?)["'”’]?\s*(?:,\s*)?(?:and|followed by|then|plus|with)\s+(?:exactly\s+)?([a-z]+|\d{1,2})[\s-]+digits?\b"#,
        )
        .expect("a valid pattern")
    });
    descriptions.iter().find_map(|description| {
        prefixed.captures_iter(description).find_map(|found| {
            let prefix = &found[1];
            // "Member number and four digits" is no prefix: a prefix is
            // written in capitals.
            if prefix != prefix.to_uppercase() {
                return None;
            }
            let count = found[3]
                .parse::<i64>()
                .ok()
                .or_else(|| crate::values::number_word(&found[3].to_lowercase()))
                .filter(|count| (2..=12).contains(count))?;
            Some((prefix.to_owned(), found[2].to_owned(), count as usize))
        })
    })
}

/// `^[0-9]{9}$` / `^\d{6,17}$` / `^[0-9]+$` → how many digits.
fn digits_of_pattern(pattern: &str) -> Option<(usize, usize)> {
    static DIGITS: OnceLock<Regex> = OnceLock::new();
    let digits = DIGITS.get_or_init(|| {
        Regex::new(r"^\^?(?:\[0-9\]|\\d)(?:\{(\d{1,2})(?:,(\d{1,2}))?\}|(\+))\$?$")
            .expect("a valid pattern")
    });
    let found = digits.captures(pattern)?;
    let number = |at: usize| found.get(at).and_then(|n| n.as_str().parse::<usize>().ok());
    match (number(1), number(2), found.get(3)) {
        (Some(least), Some(most), _) => Some((least, most)),
        (Some(exact), None, _) => Some((exact, exact)),
        _ => Some((5, 17)),
    }
}

/// The skill's ids of digits alone: the words that name each, how many
/// digits it has, and one pattern that finds a name followed by groups.
struct DigitIds {
    named: Vec<(String, (usize, usize))>,
    grouped: Option<Regex>,
}

fn digit_ids(skill: &Skill) -> DigitIds {
    let mut named: Vec<(String, (usize, usize))> = Vec::new();
    for input in skill.tools.iter().flat_map(|tool| &tool.inputs) {
        let described: Vec<String> = input.description.iter().cloned().collect();
        let Some(digits) = input
            .pattern
            .as_deref()
            .and_then(digits_of_pattern)
            .or_else(|| described_digits(&described))
        else {
            continue;
        };
        let mut cues = cue_words(&input.name);
        cues.extend(described.iter().flat_map(|text| described_cues(text)));
        for cue in cues {
            if !named.iter().any(|(known, _)| *known == cue) {
                named.push((cue, digits));
            }
        }
    }
    let grouped = (!named.is_empty())
        .then(|| {
            let names: Vec<String> = named.iter().map(|(cue, _)| regex::escape(cue)).collect();
            Regex::new(&format!(
                r"(?i)\b({})((?:\s+(?:number|no|num|code|id))?\.?\s*[:#]?\s*)(\d{{1,5}}(?:[ -]\d{{1,5}}){{1,6}})\b",
                names.join("|")
            ))
            .ok()
        })
        .flatten();
    DigitIds { named, grouped }
}

/// The message with each digit id read out in groups written as one run.
pub(super) fn digits_joined<'a>(skill: &Skill, text: &'a str) -> Cow<'a, str> {
    let ids = crate::kept::kept(skill, digit_ids);
    let Some(grouped) = &ids.grouped else {
        return Cow::Borrowed(text);
    };
    grouped.replace_all(text, |found: &regex::Captures<'_>| {
        let cue = found[1].to_lowercase();
        let groups = &found[3];
        let first = groups.split([' ', '-']).next().unwrap_or_default().len();
        let joined: String = groups.chars().filter(char::is_ascii_digit).collect();
        let fits = |length: usize| {
            ids.named
                .iter()
                .filter(|(name, _)| *name == cue)
                .any(|(_, (least, most))| (*least..=*most).contains(&length))
        };
        if !fits(first) && fits(joined.len()) {
            format!("{}{}{joined}", &found[1], &found[2])
        } else {
            found[0].to_owned()
        }
    })
}
