//! Codes of one shape whatever their letters: an input described with an
//! example such as `COMP2320` ("Module code, e.g. COMP2320") takes any code
//! of four capitals and four digits — `MATH1010`, `chem2041` written as
//! `CHEM2041` — though no pattern was declared and the examples' prefixes
//! vary.

use std::borrow::Cow;
use std::sync::OnceLock;

use adas_skill::model::{Skill, ToolInput};
use regex::Regex;

/// Letters and digits of a code written in an input's description
/// (`COMP2320` → 4 and 4): capitals, no separator.
fn shape(input: &ToolInput) -> Option<(usize, usize)> {
    input
        .description
        .as_deref()?
        .split(|c: char| !c.is_ascii_alphanumeric())
        .find_map(|token| {
            let letters = token.chars().take_while(char::is_ascii_uppercase).count();
            let digits = token.len() - letters;
            ((2..=6).contains(&letters)
                && (2..=6).contains(&digits)
                && token[letters..].chars().all(|c| c.is_ascii_digit()))
            .then_some((letters, digits))
        })
}

/// The pattern an input without one takes from its description's example
/// code (see the module doc).
pub fn lettered_pattern(input: &ToolInput) -> Option<String> {
    if input.pattern.is_some() {
        return None;
    }
    shape(input).map(|(letters, digits)| format!("^[A-Z]{{{letters}}}[0-9]{{{digits}}}$"))
}

/// `text` with the codes of the skill's lettered shapes in capitals
/// (`math1010` → `MATH1010`).
pub fn in_capitals<'a>(skill: &Skill, text: &'a str) -> Cow<'a, str> {
    let mut shapes: Vec<(usize, usize)> = skill
        .tools
        .iter()
        .flat_map(|tool| &tool.inputs)
        .filter(|input| input.pattern.is_none())
        .filter_map(shape)
        .collect();
    shapes.sort_unstable();
    shapes.dedup();
    if shapes.is_empty() {
        return Cow::Borrowed(text);
    }
    // One pattern for every shape, compiled once: a message is never the
    // occasion to build a regex.
    static CODE: OnceLock<Regex> = OnceLock::new();
    let code = CODE
        .get_or_init(|| Regex::new(r"\b([A-Za-z]{2,6})([0-9]{2,6})\b").expect("a valid pattern"));
    match code.replace_all(text, |found: &regex::Captures<'_>| {
        if shapes.contains(&(found[1].len(), found[2].len())) {
            found[0].to_uppercase()
        } else {
            found[0].to_owned()
        }
    }) {
        Cow::Owned(owned) if owned != text => Cow::Owned(owned),
        _ => Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_described_code_takes_any_letters_in_capitals() {
        let input = ToolInput {
            name: "module_code".into(),
            description: Some("Module code, four letters and four digits (e.g. COMP2320)".into()),
            ..Default::default()
        };
        assert_eq!(
            lettered_pattern(&input).as_deref(),
            Some("^[A-Z]{4}[0-9]{4}$")
        );
        let skill = Skill {
            tools: vec![adas_skill::model::Tool {
                name: "book_resit".into(),
                inputs: vec![input],
                ..Default::default()
            }],
            ..Default::default()
        };
        assert_eq!(
            in_capitals(&skill, "resit math1010 and Chem2041 please"),
            "resit MATH1010 and CHEM2041 please"
        );
        // Another shape, or a word, stays as written.
        assert_eq!(
            in_capitals(&skill, "room12 on floor2 at 10am"),
            "room12 on floor2 at 10am"
        );
        // A declared pattern says it all.
        let declared = ToolInput {
            pattern: Some("^MOD-[0-9]{4}$".into()),
            description: Some("e.g. COMP2320".into()),
            ..Default::default()
        };
        assert_eq!(lettered_pattern(&declared), None);
    }
}
