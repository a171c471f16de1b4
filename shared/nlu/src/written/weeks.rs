//! A length in weeks said in the unit the skill counts: "for three weeks"
//! is 21 nights to a kennel that books `nights`, "a fortnight" 14 days to a
//! desk that counts `days` — never the 3 of "three weeks".

use std::borrow::Cow;
use std::sync::OnceLock;

use adas_skill::model::Skill;
use regex::Regex;

/// The unit the skill counts a stay's length in (`nights`, `days`), when
/// it counts none in weeks.
pub(super) fn unit(skill: &Skill) -> Option<&'static str> {
    let names: Vec<String> = skill
        .tools
        .iter()
        .flat_map(|tool| &tool.inputs)
        .filter(|input| matches!(input.kind.as_deref(), Some("integer" | "number")))
        .map(|input| input.name.to_lowercase())
        .collect();
    if names.iter().any(|name| name.contains("week")) {
        return None;
    }
    let counts = |unit: &str| {
        names
            .iter()
            .any(|name| name.split('_').any(|part| part == unit))
    };
    if counts("nights") {
        Some("nights")
    } else if counts("days") {
        Some("days")
    } else {
        None
    }
}

/// `text` with its lengths in weeks as `unit` ("for three weeks" → "for 21
/// nights", "a fortnight" → "14 nights"); "next week" and "twice a week"
/// are no length and stay.
pub(super) fn weeks_as<'a>(text: &'a str, unit: &str) -> Cow<'a, str> {
    static WEEKS: OnceLock<Regex> = OnceLock::new();
    let weeks = WEEKS.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)[\s-]+weeks?|(?:for|of)\s+(?:a|one)\s+week|(?:a\s+)?fortnight)\b",
        )
        .expect("a valid pattern")
    });
    weeks.replace_all(text, |found: &regex::Captures<'_>| {
        let whole = found[0].to_lowercase();
        let count = match found.get(1) {
            Some(count) => count
                .as_str()
                .parse::<i64>()
                .ok()
                .or_else(|| crate::values::number_word(count.as_str())),
            None if whole.contains("fortnight") => Some(2),
            None => Some(1),
        };
        let lead = if whole.starts_with("for ") {
            "for "
        } else if whole.starts_with("of ") {
            "of "
        } else {
            ""
        };
        count.map_or_else(
            || found[0].to_owned(),
            |weeks| format!("{lead}{} {unit}", weeks * 7),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weeks_are_counted_in_the_skills_unit() {
        assert_eq!(
            weeks_as("from the 5th for three weeks", "nights"),
            "from the 5th for 21 nights"
        );
        assert_eq!(weeks_as("a three-week stay", "nights"), "a 21 nights stay");
        assert_eq!(weeks_as("for a week", "days"), "for 7 days");
        assert_eq!(
            weeks_as("a fortnight from Monday", "nights"),
            "14 nights from Monday"
        );
        assert_eq!(weeks_as("2 weeks", "nights"), "14 nights");
        for kept in ["next week", "twice a week", "every week", "last week"] {
            assert_eq!(weeks_as(kept, "nights"), kept);
        }
    }
}
