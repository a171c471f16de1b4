//! A message as the skill would write it: ids written loosely take the shape
//! the skill's patterns and examples give them ("item 4471", "itm4471" →
//! `ITM-4471`), and a value corrected inside the message is only its
//! correction ("60, no wait, 16" → "16"). Every reader of the message (the
//! detector, the entities, the plan) then sees what the person meant.
//!
//! Linear: each rewrite is one regex pass (the `regex` crate has no
//! backtracking), and the shapes are read from the skill, not the message.

use std::borrow::Cow;
use std::sync::OnceLock;

use adas_skill::model::Skill;
use regex::Regex;

mod codes;
pub use codes::{code_names, codes_beside_names};
mod lettered;
pub use lettered::{in_capitals, lettered_pattern};
mod digits;
mod weeks;
pub(crate) use digits::{described_digits, described_prefixed};

/// The shape of one kind of id the skill takes: `ITM-4471` is `ITM`, `-`,
/// four digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdShape {
    /// The letters it opens with, upper case.
    pub prefix: String,
    /// What stands between the letters and the digits (`-`, `_` or nothing).
    pub separator: String,
    /// How many digits it has: `(least, most)`.
    pub digits: (usize, usize),
    /// Words that name it in a sentence ("item" for `item_id`).
    pub cues: Vec<String>,
}

/// Words of an input's name that say it is an id, not what it identifies.
const ID_WORDS: &[&str] = &[
    "id",
    "number",
    "no",
    "num",
    "code",
    "ref",
    "reference",
    "key",
];

/// `^ITM-[0-9]{4}$` / `^ITM-\d{3,5}$` / `^ITM-\d+$` → `(ITM, -, digits)`.
pub(crate) fn shape_of_pattern(pattern: &str) -> Option<(String, String, (usize, usize))> {
    static SHAPE: OnceLock<Regex> = OnceLock::new();
    let shape = SHAPE.get_or_init(|| {
        Regex::new(
            r"^\^?([A-Z][A-Z0-9]*)(-|_|\\-)?(?:\[0-9\]|\\d)(?:\{(\d{1,2})(?:,(\d{1,2}))?\}|(\+))?\$?$",
        )
        .expect("a valid pattern")
    });
    let found = shape.captures(pattern)?;
    let prefix = found[1].to_owned();
    let separator = found.get(2).map_or(String::new(), |sep| {
        sep.as_str().trim_start_matches('\\').to_owned()
    });
    let number = |at: usize| found.get(at).and_then(|n| n.as_str().parse::<usize>().ok());
    let digits = match (number(3), number(4), found.get(5)) {
        (Some(least), Some(most), _) => (least, most),
        (Some(exact), None, _) => (exact, exact),
        (None, _, Some(_)) => (1, 12),
        _ => (1, 1),
    };
    Some((prefix, separator, digits))
}

/// `ITM-4471` → `(ITM, -, 4)`.
pub(crate) fn shape_of_example(token: &str) -> Option<(String, String, usize)> {
    static ID: OnceLock<Regex> = OnceLock::new();
    let id = ID.get_or_init(|| {
        Regex::new(r"^([A-Za-z]{1,8})([-_]?)(\d{2,12})$").expect("a valid pattern")
    });
    let found = id.captures(token)?;
    // A word that merely ends in digits ("room12") is no id unless it is
    // written in capitals.
    if found[2].is_empty() && found[1] != found[1].to_uppercase() {
        return None;
    }
    Some((found[1].to_uppercase(), found[2].to_owned(), found[3].len()))
}

/// The words of a name that say what it identifies.
fn cue_words(name: &str) -> Vec<String> {
    name.split(['_', '-', ' '])
        .map(str::to_lowercase)
        .filter(|word| word.len() >= 3 && !ID_WORDS.contains(&word.as_str()))
        .collect()
}

/// The word an input's description names its ids by: the one before
/// "number", "no" or "id" ("Patient chart number, CHT-####": "chart").
fn described_cues(description: &str) -> Vec<String> {
    let words: Vec<String> = description
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect();
    words
        .windows(2)
        .filter(|pair| matches!(pair[1].as_str(), "number" | "no" | "id"))
        .map(|pair| pair[0].clone())
        .filter(|word| {
            word.len() >= 3
                && word.chars().all(|c| c.is_ascii_alphabetic())
                && !ID_WORDS.contains(&word.as_str())
        })
        .collect()
}

/// The id shapes of a skill: its inputs' patterns, and the ids of its
/// intents' examples, each with the words that name it.
pub fn id_shapes(skill: &Skill) -> Vec<IdShape> {
    let mut shapes: Vec<IdShape> = Vec::new();
    let mut add = |prefix: String, separator: String, digits: (usize, usize), cues: Vec<String>| {
        if let Some(known) = shapes
            .iter_mut()
            .find(|shape| shape.prefix == prefix && shape.separator == separator)
        {
            known.digits = (known.digits.0.min(digits.0), known.digits.1.max(digits.1));
            for cue in cues {
                if !known.cues.contains(&cue) {
                    known.cues.push(cue);
                }
            }
        } else {
            shapes.push(IdShape {
                prefix,
                separator,
                digits,
                cues,
            });
        }
    };
    for input in skill.tools.iter().flat_map(|tool| &tool.inputs) {
        let mut cues = cue_words(&input.name);
        for cue in input
            .description
            .as_deref()
            .map(described_cues)
            .unwrap_or_default()
        {
            if !cues.contains(&cue) {
                cues.push(cue);
            }
        }
        if let Some((prefix, separator, digits)) =
            input.pattern.as_deref().and_then(shape_of_pattern)
        {
            add(prefix, separator, digits, cues);
        } else if let Some((prefix, separator, digits)) =
            input.description.as_deref().and_then(|description| {
                // "Item number (e.g. ITM-4471)": the example says the shape.
                description
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                    .find_map(shape_of_example)
            })
        {
            add(prefix, separator, (digits, digits), cues);
        }
    }
    for intent in skill.intents.iter().flat_map(|intents| &intents.supported) {
        let ids: Vec<Vec<String>> = intent
            .entities
            .iter()
            .filter(|entity| {
                entity.kind.as_deref() == Some("identifier")
                    || entity.name.ends_with("_id")
                    || entity.name.ends_with("_number")
            })
            .map(|entity| cue_words(&entity.name))
            .collect();
        // The example's ids are named by the intent's id only when it has
        // one: of two (a trip and a booking), which example id is which is
        // not known here.
        let cues = match ids.as_slice() {
            [one] => one.clone(),
            _ => Vec::new(),
        };
        for example in &intent.examples {
            for token in
                example.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            {
                if let Some((prefix, separator, digits)) = shape_of_example(token) {
                    add(prefix, separator, (digits, digits), cues.clone());
                }
            }
        }
    }
    // A cue two shapes share names neither.
    let all: Vec<String> = shapes.iter().flat_map(|shape| shape.cues.clone()).collect();
    for shape in &mut shapes {
        shape
            .cues
            .retain(|cue| all.iter().filter(|other| *other == cue).count() == 1);
        // The prefix itself is read by its own rule.
        let prefix = shape.prefix.to_lowercase();
        shape.cues.retain(|cue| *cue != prefix);
    }
    shapes
}

/// Words after a number that make it a quantity, not an id ("order 1000
/// units").
fn counts_something(next: &str) -> bool {
    let next = next.to_lowercase();
    // A plural, not a word that merely ends in "s" ("member 5620 this
    // Friday", "unless", "always").
    next.len() > 3
        && next.ends_with('s')
        && !next.ends_with("ss")
        && !matches!(
            next.as_str(),
            "status"
                | "does"
                | "is"
                | "was"
                | "has"
                | "thanks"
                | "plus"
                | "please"
                | "this"
                | "thus"
                | "always"
                | "perhaps"
                | "towards"
                | "afterwards"
                | "besides"
                | "sometimes"
                | "whereas"
                | "yours"
                | "ours"
                | "theirs"
        )
}

/// `message` with its loosely written ids in the skill's shapes.
pub fn ids_as_shaped<'a>(shapes: &[IdShape], message: &'a str) -> Cow<'a, str> {
    static CUED: OnceLock<Regex> = OnceLock::new();
    let cued = CUED.get_or_init(|| {
        Regex::new(r"(?i)\b([a-z]+)(\s*(?:#|no\.?|num(?:ber)?|id)?\s*)(\d[\d ]*\d)\b(\s+\w+)?")
            .expect("a valid pattern")
    });
    let mut text = Cow::Borrowed(message);
    for shape in shapes {
        let (least, most) = shape.digits;
        let fits = |digits: &str| (least..=most).contains(&digits.len());
        let canonical = |digits: &str| format!("{}{}{}", shape.prefix, shape.separator, digits);
        // The prefix itself, in any case and spacing: "itm 4471", "ITM4471";
        // compiled once per prefix and process, never per message (it was
        // about 7 % of the suite's CPU in the shipped profile).
        let Some(prefixed) = adas_skill::grammar::compiled_pattern(&format!(
            r"(?i)\b{}[\s\-_/.#:]{{0,3}}(\d[\d ]*\d|\d)\b",
            regex::escape(&shape.prefix)
        )) else {
            continue;
        };
        // Written in a shape the skill already takes (`HIST110` beside
        // `HIST-110`): as it is.
        let taken = |written: &str| {
            shapes.iter().any(|other| {
                other.prefix == shape.prefix
                    && written.len() > other.prefix.len()
                    && written[other.prefix.len()..].starts_with(other.separator.as_str())
                    && written[other.prefix.len() + other.separator.len()..]
                        .chars()
                        .all(|c| c.is_ascii_digit())
            })
        };
        let replaced = prefixed.replace_all(&text, |found: &regex::Captures<'_>| {
            let digits: String = found[1].chars().filter(char::is_ascii_digit).collect();
            if taken(&found[0].to_uppercase()) {
                found[0].to_owned()
            } else if fits(&digits) {
                canonical(&digits)
            } else {
                found[0].to_owned()
            }
        });
        if let Cow::Owned(owned) = replaced {
            text = Cow::Owned(owned);
        }
        // A cue word and the digits alone: "item 4471", "staff #3307",
        // "acct 55 12" — only when the shape says how many digits, so a
        // count is never taken for an id.
        if least < 3 || shape.cues.is_empty() {
            continue;
        }
        // The cue itself, its plural, or a kind of it ("truck 3115" for a
        // `vehicle_id`).
        let names = |word: &str| {
            let word = word.to_lowercase();
            let stem = crate::lexicon::stem(&word);
            shape.cues.iter().any(|cue| {
                *cue == word
                    || crate::lexicon::stem(cue) == stem
                    || crate::lexicon::lexicon().is_kind_of(&stem, &crate::lexicon::stem(cue))
            })
        };
        let replaced = cued.replace_all(&text, |found: &regex::Captures<'_>| {
            let digits: String = found[3].chars().filter(char::is_ascii_digit).collect();
            let next = found.get(4).map_or("", |next| next.as_str());
            if names(&found[1]) && fits(&digits) && !counts_something(next.trim()) {
                format!("{}{}{}{next}", &found[1], &found[2], canonical(&digits))
            } else {
                found[0].to_owned()
            }
        });
        if let Cow::Owned(owned) = replaced {
            text = Cow::Owned(owned);
        }
    }
    text
}

/// Words that take back what came just before ("60, no wait, 16").
const TAKEN_BACK: &str = r"(?:(?:no|wait|hmm+|uh+|um+|er+|sorry|oops|typo|my\s+bad|actually|rather|correction|i\s+mean|i\s+meant|make\s+(?:it|that)|scratch\s+that|let'?s\s+say)[\s,;:.!—–-]*)+";

/// A value: a number or amount (`$1,200.50`, `60`, "four") or an id
/// (`ITM-4471`).
const VALUE: &str = r"[$€£]?\d[\d,]*(?:\.\d+)?[kK]?|[A-Z]{1,8}[-_]?\d{2,12}|(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty)\b";

/// A day: "Friday", "Saturday morning", "tomorrow", "the 9th", "Dec 10".
const DAY: &str = r"(?:(?:this|next)\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|today)(?:\s+(?:morning|afternoon|evening))?|(?:the\s+)?\d{1,2}(?:st|nd|rd|th)|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?";

/// `message` with a value it corrects dropped: "60, no wait, 16" and "not
/// 60 — 16" say 16.
pub fn corrected(message: &str) -> Cow<'_, str> {
    static PATTERNS: OnceLock<[Regex; 3]> = OnceLock::new();
    let [taken_back, not_but, day_taken_back] = PATTERNS.get_or_init(|| {
        [
            Regex::new(&format!(
                r"(?i)(^|[^\w$€£])({VALUE})(\s+[a-z]+\b)?\s*[,;.]?\s*(?:-+|—|–)?\s*(?:{TAKEN_BACK})\s*[,;:.!]*\s*(?:-+|—|–)?\s*(?:it'?s\s+|to\s+)?((?:{VALUE})(?:\s*[ap]\.?m\b\.?)?)\b"
            ))
            .expect("a valid pattern"),
            Regex::new(&format!(
                r"(?i)(^|[^\w$€£])not\s+({VALUE})\s*(?:[,;]|-+|—|–|,?\s*but)\s*(?:it'?s\s+)?({VALUE})\b"
            ))
            .expect("a valid pattern"),
            // "Thursday — actually no, make it Friday", "the 9th, no
            // wait, the 10th": the day said last.
            Regex::new(&format!(
                r"(?i)(^|\W)({DAY})\s*[,;.]?\s*(?:-+|—|–)?\s*(?:{TAKEN_BACK})\s*[,;:.!]*\s*(?:-+|—|–)?\s*(?:it'?s\s+|to\s+)?({DAY})\b"
            ))
            .expect("a valid pattern"),
        ]
    });
    let same_kind = |a: &str, b: &str| {
        let numeric = |v: &str| {
            v.trim_start_matches(['$', '€', '£'])
                .starts_with(|c: char| c.is_ascii_digit())
                || crate::values::number_word(v).is_some()
        };
        numeric(a) == numeric(b)
    };
    let keep_last = |found: &regex::Captures<'_>| {
        if same_kind(&found[2], &found[3]) {
            format!("{}{}", &found[1], &found[3])
        } else {
            found[0].to_owned()
        }
    };
    // "four nights — no wait, three": the thing counted stays, after the
    // value said last.
    let text = taken_back.replace_all(message, |found: &regex::Captures<'_>| {
        let unit = found.get(3).map_or("", |unit| unit.as_str());
        // "60 no wait, 16": the word after the value opens the taking back
        // (the words of taking back cover it whole, as they never do
        // "nights" or "errors").
        static OPENS: OnceLock<Regex> = OnceLock::new();
        let opens = OPENS.get_or_init(|| {
            Regex::new(&format!(r"(?i)^\s*(?:{TAKEN_BACK})")).expect("a valid pattern")
        });
        let opens_taking_back = found.get(3).is_some_and(|unit| {
            opens
                .find(&message[unit.start()..])
                .is_some_and(|back| back.end() >= unit.len())
        });
        let unit = if opens_taking_back { "" } else { unit };
        if same_kind(&found[2], &found[4]) {
            format!("{}{}{unit}", &found[1], &found[4])
        } else {
            found[0].to_owned()
        }
    });
    let text = match not_but.replace_all(&text, keep_last) {
        Cow::Borrowed(_) => text,
        Cow::Owned(owned) => Cow::Owned(owned),
    };
    // "January 4th — no wait, make it the 11th": the 11th of January.
    let later_day = |found: &regex::Captures<'_>| {
        let month = found[2]
            .split_whitespace()
            .next()
            .filter(|word| crate::values::month_number(word).is_some());
        let day = found[3]
            .trim_start_matches("the ")
            .trim_start_matches("The ");
        match month {
            Some(month) if day.starts_with(|c: char| c.is_ascii_digit()) => {
                format!("{}{month} {day}", &found[1])
            }
            _ => format!("{}{}", &found[1], &found[3]),
        }
    };
    let text = match day_taken_back.replace_all(&text, later_day) {
        Cow::Borrowed(_) => text,
        Cow::Owned(owned) => Cow::Owned(owned),
    };
    match taken_back_at_a_distance(&text) {
        Some(owned) => Cow::Owned(owned),
        None => text,
    }
}

/// A message that takes back the previous one ("sorry, I meant ortho, not
/// surgical", "oops, wrong one, I meant VC-2320", "sorry, the 19th, not the
/// 18th"): without what it takes back, to be read as the previous request
/// again with the values it gives; a day alone ("the 19th") is in the month
/// of the date it corrects, when `memory` holds one. `None` for any other
/// message.
pub fn correcting(
    message: &str,
    memory: Option<&serde_json::Map<String, serde_json::Value>>,
) -> Option<String> {
    static PATTERNS: OnceLock<[Regex; 2]> = OnceLock::new();
    let [opening, not_that] = PATTERNS.get_or_init(|| {
        [
            Regex::new(
                r"(?i)^\W*(?:sorry|oops|whoops|my\s+bad|no\s+wait|correction|i\s+meant|wrong\s+\w+)\b",
            )
            .expect("a valid pattern"),
            Regex::new(r"(?i)[,;]?\s*(?:—|–|-+)?\s*\bnot\s+[^,.;!?—–]+").expect("a valid pattern"),
        ]
    });
    let lower = message.to_lowercase();
    let takes_back = ["meant", "not ", "wrong", "instead"]
        .iter()
        .any(|word| lower.contains(word));
    if !opening.is_match(message) || !takes_back {
        return None;
    }
    let kept = not_that.replace_all(message, "").into_owned();
    Some(match remembered_month(memory) {
        Some(month) => in_month(&kept, &month),
        None => kept,
    })
}

/// The one month of the dates `memory` holds (`2027-01`), if one.
fn remembered_month(memory: Option<&serde_json::Map<String, serde_json::Value>>) -> Option<String> {
    let mut months: Vec<&str> = memory?
        .values()
        .filter_map(serde_json::Value::as_str)
        .filter(|value| value.parse::<jiff::civil::Date>().is_ok() && value.len() == 10)
        .map(|value| &value[..7])
        .collect();
    months.sort_unstable();
    months.dedup();
    match months.as_slice() {
        [month] => Some((*month).to_owned()),
        _ => None,
    }
}

/// `text` with "the 19th" written as that day of `month` (`2027-01-19`),
/// unless a month follows ("the 19th of March").
fn in_month(text: &str, month: &str) -> String {
    static DAY: OnceLock<Regex> = OnceLock::new();
    let day = DAY.get_or_init(|| {
        Regex::new(r"(?i)\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b").expect("a valid pattern")
    });
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for found in day.captures_iter(text) {
        let whole = found.get(0).expect("a match");
        let followed_by_month = text[whole.end()..]
            .trim_start()
            .to_lowercase()
            .starts_with("of ");
        let number: u8 = found[1].parse().unwrap_or(0);
        let date = format!("{month}-{number:02}");
        if followed_by_month || date.parse::<jiff::civil::Date>().is_err() {
            continue;
        }
        out.push_str(&text[last..whole.start()]);
        out.push_str(&date);
        last = whole.end();
    }
    out.push_str(&text[last..]);
    out
}

/// "Order 6 fuel cards for Riverside, no wait, 5": the correction stands
/// apart from the value it corrects — the sentence's last value of its kind
/// before it — which takes its place.
fn taken_back_at_a_distance(text: &str) -> Option<String> {
    static PATTERNS: OnceLock<[Regex; 2]> = OnceLock::new();
    let [filler, value] = PATTERNS.get_or_init(|| {
        [
            Regex::new(&format!(
                r"(?i)\s*(?:[,;]|\s-+|\s?—|\s?–)\s*(?:{TAKEN_BACK})\s*[,;:.!—–-]*\s*(?:it'?s\s+|to\s+)?([$€£]?\d[\d,]*(?:\.\d+)?)\b"
            ))
            .expect("a valid pattern"),
            // A number of its own: not the digits of an id (`ACCT-2291`).
            Regex::new(r"(?:^|[\s(])([$€£]?\d[\d,]*(?:\.\d+)?)\b").expect("a valid pattern"),
        ]
    });
    let found = filler.captures(text)?;
    let whole = found.get(0)?;
    let correction = found.get(1)?.as_str();
    let sentence = text[..whole.start()]
        .rfind(['.', '?', '!', '\n'])
        .map_or(0, |end| end + 1);
    let corrected = value
        .captures_iter(&text[sentence..whole.start()])
        .filter_map(|found| found.get(1))
        .last()
        .map(|m| (sentence + m.start(), sentence + m.end()))?;
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..corrected.0]);
    out.push_str(correction);
    out.push_str(&text[corrected.1..whole.start()]);
    out.push_str(&text[whole.end()..]);
    Some(out)
}

/// The month a month's name means for a `YYYY-MM` input: the latest one not
/// after today ("October" on 2026-12-01 is `2026-10`; "last month" is
/// `2026-11`, "this month" `2026-12`) — statements and payslips are of the
/// past. A month beside a day ("October 5") is a date, left as it is.
pub fn months_as_shaped<'a>(message: &'a str, today: jiff::civil::Date) -> Cow<'a, str> {
    static MONTH: OnceLock<Regex> = OnceLock::new();
    let month = MONTH.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:(?P<relative>last|this|previous|current)\s+month|(?P<name>january|february|march|april|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)(?:\s+(?P<year>20\d\d))?)\b(?P<after>\s+\d{1,2}(?:st|nd|rd|th)?\b)?",
        )
        .expect("a valid pattern")
    });
    month.replace_all(message, |found: &regex::Captures<'_>| {
        if found.name("after").is_some() {
            return found[0].to_owned();
        }
        let (year, number) = if let Some(relative) = found.name("relative") {
            let back = matches!(
                relative.as_str().to_lowercase().as_str(),
                "last" | "previous"
            );
            let first = today.first_of_month();
            let month = if back {
                first
                    .checked_sub(jiff::Span::new().months(1))
                    .unwrap_or(first)
            } else {
                first
            };
            (month.year(), month.month())
        } else {
            let name = found["name"].to_lowercase();
            let number = MONTHS
                .iter()
                .position(|month| name.starts_with(month))
                .map_or(1, |index| index as i8 + 1);
            let year = match found.name("year") {
                Some(year) => year.as_str().parse().unwrap_or(today.year()),
                None if number > today.month() => today.year() - 1,
                None => today.year(),
            };
            (year, number)
        };
        // After its day: "5 October", "the 25th of January" are dates.
        let before = message[..found.get(0).map_or(0, |m| m.start())]
            .trim_end()
            .to_lowercase();
        let before = before.strip_suffix(" of").unwrap_or(&before);
        // "the end of February" is a day of it, read as a date.
        let last_word = before.rsplit(' ').next().unwrap_or_default();
        let before = ["st", "nd", "rd", "th"]
            .iter()
            .find_map(|suffix| before.strip_suffix(suffix))
            .unwrap_or(before);
        if before.ends_with(|c: char| c.is_ascii_digit()) || last_word == "end" {
            return found[0].to_owned();
        }
        format!("{year:04}-{number:02}")
    })
}

const MONTHS: &[&str] = &[
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// Whether the skill takes a month (`YYYY-MM`): an input whose pattern or
/// format says so.
fn takes_a_month(skill: &Skill) -> bool {
    skill
        .tools
        .iter()
        .flat_map(|tool| &tool.inputs)
        .any(|input| {
            input.pattern.as_deref().is_some_and(|pattern| {
                adas_skill::grammar::compiled_pattern(pattern).is_some_and(|pattern| {
                    pattern.is_match("2026-10") && !pattern.is_match("2026-10-01")
                })
            }) || input.description.as_deref().is_some_and(|description| {
                description.contains("YYYY-MM") && !description.contains("YYYY-MM-DD")
            })
        })
}

/// The message as the skill writes its values (see the module doc).
pub fn as_written<'a>(skill: &Skill, message: &'a str) -> Cow<'a, str> {
    // Both built once per skill: a message is read against them many times.
    let mut text = ids_as_shaped(&crate::kept::kept(skill, id_shapes), message);
    if let Cow::Owned(owned) = digits::digits_joined(skill, &text) {
        text = Cow::Owned(owned);
    }
    if let Cow::Owned(owned) = in_capitals(skill, &text) {
        text = Cow::Owned(owned);
    }
    let named = crate::kept::kept(skill, code_names);
    if let Cow::Owned(owned) = codes_beside_names(&named, &text) {
        text = Cow::Owned(owned);
    }
    if takes_a_month(skill) {
        let today = crate::values::today_in(skill.timezone.as_deref());
        if let Cow::Owned(owned) = months_as_shaped(&text, today) {
            text = Cow::Owned(owned);
        }
    }
    if takes_months_not_years(skill)
        && let Cow::Owned(owned) = years_as_months(&text)
    {
        text = Cow::Owned(owned);
    }
    if let Some(unit) = weeks::unit(skill)
        && let Cow::Owned(owned) = weeks::weeks_as(&text, unit)
    {
        text = Cow::Owned(owned);
    }
    match corrected(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(owned) => Cow::Owned(owned),
    }
}

/// Whether the skill counts a length in months (`term_months`) and never in
/// years.
fn takes_months_not_years(skill: &Skill) -> bool {
    let names: Vec<String> = skill
        .tools
        .iter()
        .flat_map(|tool| &tool.inputs)
        .map(|input| input.name.to_lowercase())
        .collect();
    names.iter().any(|name| name.ends_with("months"))
        && !names.iter().any(|name| name.ends_with("years"))
}

/// "for two years" (counted: "for 2 years") → "for 24 months", "for a year"
/// → "for 12 months": a length in the unit the skill takes. "$7,200 a year"
/// is a rate, not a length, and stays.
fn years_as_months(text: &str) -> Cow<'_, str> {
    static YEARS: OnceLock<Regex> = OnceLock::new();
    let years = YEARS.get_or_init(|| {
        Regex::new(r"(?i)\b(?:(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)|(?:for|of)\s+(?:a|one))[\s-]+years?\b")
            .expect("a valid pattern")
    });
    years.replace_all(text, |found: &regex::Captures<'_>| {
        let whole = &found[0];
        let count = found.get(1).and_then(|n| {
            n.as_str()
                .parse::<i64>()
                .ok()
                .or_else(|| crate::values::number_word(n.as_str()))
        });
        match count {
            Some(count) => format!("{} months", count * 12),
            None => {
                let lead = whole.split_whitespace().next().unwrap_or("for");
                format!("{lead} 12 months")
            }
        }
    })
}

#[cfg(test)]
mod tests;
