//! An answer to one asked field, read as a request's values are read: "oh
//! sorry, it's tbk 22107" for a booking reference is `TBK-22107`, "sure,
//! 27764" for a staff number shaped `STF-#####` is `STF-27764`, "148 bucks"
//! for an amount is 148, "two dozen" is 24. Only values read for certain
//! are taken (never a guess from a description); anything else stays the
//! text as given, judged as it is.

use adas_skill::model::{Entity as EntitySpec, Skill};
use serde_json::Value as Json;

use crate::entities::{Vocabulary, extract_slots, slot_for};

/// The value `text` gives `field` (of type `kind`), when the skill's rules
/// read one for certain.
pub fn answer_value(
    skill: &Skill,
    intent_id: Option<&str>,
    field: &str,
    kind: &str,
    text: &str,
) -> Option<Json> {
    let intent = intent_id.and_then(|id| {
        skill
            .intents
            .iter()
            .flat_map(|intents| &intents.supported)
            .find(|intent| intent.id == id)
    });
    let input = skill
        .tools
        .iter()
        .flat_map(|tool| &tool.inputs)
        .filter(|input| input.name == field)
        .max_by_key(|input| input.pattern.is_some() || !input.allowed.is_empty());
    let spec = intent
        .and_then(|intent| intent.entities.iter().find(|entity| entity.name == field))
        .cloned()
        .unwrap_or_else(|| EntitySpec {
            name: field.to_owned(),
            kind: Some(kind.to_owned()).filter(|kind| !kind.is_empty()),
            required: true,
            allowed: input.map(|input| input.allowed.clone()).unwrap_or_default(),
            description: None,
            extract_from: None,
        });
    let mut slot = slot_for(skill, &spec, intent);
    if names_a_date(field) && matches!(slot.kind.as_deref(), None | Some("string") | Some("text")) {
        slot.kind = Some("date".into());
    }
    // Free text is the answer as written: nothing here knows its shape.
    let free = matches!(slot.kind.as_deref(), None | Some("string") | Some("text"));
    if free && slot.pattern.is_none() && slot.allowed.is_empty() {
        return None;
    }
    let counted = crate::values::numbers_in_words(text);
    let written = crate::written::as_written(skill, &counted);
    let written = bare_digits_shaped(slot.pattern.as_deref(), &written);
    let entity = extract_slots(&[slot], &written, &[], &[], &Vocabulary::of(skill))
        .into_iter()
        .find(|entity| entity.name == field && !entity.guessed)?;
    // An answer that says more than its value ("STF-3307. Sorry, I meant the
    // developer laptops", "84 dollars 60") is not read here: taking the value
    // and dropping the rest could act on what the person took back.
    // Before the value, "oh sorry, it's …" is an apology; after it, "sorry,
    // I meant …" takes something back.
    let (before, after) = (
        &written[..entity.start],
        written[entity.end..].to_lowercase(),
    );
    let more = format!("{before} {after}")
        .chars()
        .any(|c| c.is_ascii_digit())
        || after
            .split(|c: char| !c.is_alphanumeric())
            .any(|word| SAYS_MORE.contains(&word));
    (!more).then_some(entity.value)
}

/// Words that make an answer more than its value: a correction, another
/// request, or a value said no to.
const SAYS_MORE: &[&str] = &[
    "sorry",
    "meant",
    "mean",
    "actually",
    "instead",
    "rather",
    "wait",
    "not",
    "no",
    "change",
    "make",
    "also",
    "plus",
    "but",
    "except",
    "correction",
    "oops",
];

/// The one group of digits an answer holds, in the shape of the id asked
/// for ("27764" → `STF-27764`) when it has as many digits as the shape: the
/// question named the kind of id, so the prefix is not needed. Only a shape
/// that says how many digits (three or more) takes them: "77" for `BK-` and
/// any digits is no id said.
fn bare_digits_shaped(pattern: Option<&regex::Regex>, text: &str) -> String {
    let Some((prefix, separator, (least, most))) =
        pattern.and_then(|pattern| crate::written::shape_of_pattern(pattern.as_str()))
    else {
        return text.to_owned();
    };
    let groups: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '-')
        .filter(|word| !word.is_empty())
        .collect();
    let ids = groups
        .iter()
        .filter(|word| word.to_uppercase().starts_with(&prefix))
        .count();
    let digits: Vec<&&str> = groups
        .iter()
        .filter(|word| word.chars().all(|c| c.is_ascii_digit()))
        .collect();
    match digits.as_slice() {
        [only] if ids == 0 && least >= 3 && most <= 12 && (least..=most).contains(&only.len()) => {
            text.replacen(**only, &format!("{prefix}{separator}{only}"), 1)
        }
        _ => text.to_owned(),
    }
}

/// Whether a field named so takes a date ("date", "date_start",
/// "check_in_date"), whatever type its author gave it.
fn names_a_date(field: &str) -> bool {
    let field = field.to_lowercase();
    field == "date" || field.starts_with("date_") || field.ends_with("_date")
}

/// Whether an answer to `field` must be a date: the skill types it so
/// (`type: date`, `format: date`), or its name says it is one. Such an
/// answer that reads as no date is asked again, never stored as words.
pub fn takes_a_date(skill: &Skill, field: &str, kind: &str) -> bool {
    let typed = skill
        .tools
        .iter()
        .flat_map(|tool| &tool.inputs)
        .filter(|input| input.name == field)
        .any(|input| {
            input.kind.as_deref() == Some("date") || input.format.as_deref() == Some("date")
        });
    typed || kind.eq_ignore_ascii_case("date") || names_a_date(field)
}
