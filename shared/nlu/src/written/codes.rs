//! Codes by the names the skill's texts give them: "TOL - Toledo plant" in
//! `problem.context` makes "the Toledo plant" read as `TOL`.

use std::borrow::Cow;
use std::sync::OnceLock;

use adas_skill::model::Skill;
use regex::Regex;

use super::{id_shapes, shape_of_example};

/// Whether a value is a code (`RM-04`, `CC-110`, `DAY`) rather than a word.
fn is_code(value: &str) -> bool {
    let letters_and_digits = value
        .chars()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-' || c == '_');
    letters_and_digits && value.len() >= 2 && value.chars().any(|c| c.is_ascii_uppercase())
}

/// The codes the skill takes: its inputs' and entities' enum values that are
/// codes, and the codes its texts name that one of its inputs' patterns fits.
fn codes(skill: &Skill, named: &[String]) -> Vec<String> {
    let mut codes: Vec<String> = skill
        .allowed_values()
        .filter_map(|value| value.as_str())
        .filter(|value| is_code(value))
        .map(str::to_owned)
        .collect();
    let patterns: Vec<std::sync::Arc<Regex>> = skill
        .tools
        .iter()
        .flat_map(|tool| &tool.inputs)
        .filter_map(|input| input.pattern.as_deref())
        .filter_map(adas_skill::grammar::compiled_pattern)
        .collect();
    let shapes = crate::kept::kept(skill, id_shapes);
    let shaped = |code: &str| {
        shape_of_example(code).is_some_and(|(prefix, separator, digits)| {
            shapes.iter().any(|shape| {
                shape.prefix == prefix
                    && shape.separator == separator
                    && (shape.digits.0..=shape.digits.1).contains(&digits)
            })
        })
    };
    codes.extend(
        named
            .iter()
            .filter(|code| patterns.iter().any(|pattern| pattern.is_match(code)) || shaped(code))
            .cloned(),
    );
    codes.sort();
    codes.dedup();
    codes
}

/// What the skill's texts call its codes: "RM-04 (the Boardroom)", "DAY –
/// Dayton plant", "CC-110 Sales", "the north site (SITE-N)" — in its
/// problem statement and context, its tools' and inputs' descriptions.
/// `(words, code)`, the words in lower case; words two codes share name
/// neither.
pub fn code_names(skill: &Skill) -> Vec<(String, String)> {
    static FORWARD: OnceLock<[Regex; 2]> = OnceLock::new();
    let [forward, backward] = FORWARD.get_or_init(|| {
        [
            Regex::new(
                r"\b([A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)*)\b[ \t]*(?:\(|:|=|–|—|-|is|for)?[ \t]*(?:the[ \t]+)?([A-Za-z][A-Za-z'&]*(?:[ \t]+[A-Za-z][A-Za-z'&]*){0,3})",
            )
            .expect("a valid pattern"),
            Regex::new(
                r"(?i:the[ \t]+)?([A-Za-z][A-Za-z'&]*(?:[ \t]+[A-Za-z][A-Za-z'&]*){0,3})[ \t]*\([ \t]*([A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)*)[ \t]*\)",
            )
            .expect("a valid pattern"),
        ]
    });
    let mut texts: Vec<String> = Vec::new();
    if let Some(problem) = &skill.problem {
        texts.extend(problem.statement.clone());
        texts.extend(problem.context.iter().map(|context| context.to_string()));
    }
    for tool in &skill.tools {
        texts.extend(tool.description.clone());
        texts.extend(
            tool.inputs
                .iter()
                .filter_map(|input| input.description.clone()),
        );
    }
    let mut found: Vec<(String, String)> = Vec::new();
    for text in &texts {
        for captures in forward.captures_iter(text) {
            found.push((captures[2].to_owned(), captures[1].to_owned()));
        }
        for captures in backward.captures_iter(text) {
            found.push((captures[1].to_owned(), captures[2].to_owned()));
        }
    }
    // A name the text quotes for a code ("CIN - … warehouse (\"the
    // warehouse\")"): as written, one word or more.
    static QUOTED: OnceLock<Regex> = OnceLock::new();
    let quoted = QUOTED.get_or_init(|| {
        Regex::new(
            r#"\b([A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)*)\b[^\n"“]*["“](?:the\s+)?([^"”\n]{3,40})["”]"#,
        )
        .expect("a valid pattern")
    });
    let mut aliases: Vec<(String, String)> = Vec::new();
    for text in &texts {
        for captures in quoted.captures_iter(text) {
            aliases.push((captures[2].trim().to_lowercase(), captures[1].to_owned()));
        }
    }
    let named: Vec<String> = found
        .iter()
        .chain(&aliases)
        .map(|(_, code)| code.clone())
        .collect();
    let known = codes(skill, &named);
    // The words up to the first that is no name's ("Dayton plant, …" →
    // "dayton plant"; "Sales department" keeps both): each prefix of them
    // is a name too, from its longest.
    let mut names: Vec<(String, String)> = Vec::new();
    for (words, code) in found {
        if !known.contains(&code) {
            continue;
        }
        let capitalized: Vec<String> = words
            .split_whitespace()
            .filter(|word| word.starts_with(|c: char| c.is_uppercase()))
            .map(|word| {
                word.trim_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase()
            })
            .collect();
        let words: Vec<String> = words
            .split_whitespace()
            .map(|word| {
                word.trim_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase()
            })
            .take_while(|word| !NOT_A_NAME.contains(&word.as_str()))
            .collect();
        // Every run of two or more of its words is a name too ("central
        // warehouse" of "Cincinnati Central Warehouse").
        for start in 0..words.len() {
            for end in (start + 1..=words.len()).rev() {
                // A single word: the name's first, a proper noun of five
                // letters or more ("Dayton", "Kessler"; not "Fort").
                let single = end == start + 1;
                if single
                    && !(start == 0
                        && capitalized.contains(&words[start])
                        && words[start].len() >= 5)
                {
                    continue;
                }
                let name = words[start..end].join(" ");
                if name.len() >= 4 && !names.contains(&(name.clone(), code.clone())) {
                    names.push((name, code.clone()));
                }
            }
        }
    }
    for (alias, code) in aliases {
        if known.contains(&code)
            && alias.len() >= 4
            && !names.contains(&(alias.clone(), code.clone()))
        {
            names.push((alias, code));
        }
    }
    let all = names.clone();
    names.retain(|(name, code)| {
        all.iter()
            .all(|(other, theirs)| other != name || theirs == code)
    });
    names
}

/// Words that end a code's name in a text ("RM-04 is the Boardroom and …").
const NOT_A_NAME: &[&str] = &[
    "and", "or", "is", "are", "was", "for", "with", "to", "of", "in", "on", "at", "by", "the", "a",
    "an", "e", "g", "eg", "ie", "etc", "code", "codes", "id", "ids", "use", "uses", "from", "as",
];

/// `message` with the code beside each name of one ("deliver to the
/// boardroom" → "deliver to the boardroom (RM-04)"), so the code is read as
/// the value and the words stay for the intent.
pub fn codes_beside_names<'a>(names: &[(String, String)], message: &'a str) -> Cow<'a, str> {
    let lower = message.to_lowercase();
    if lower.len() != message.len() {
        return Cow::Borrowed(message);
    }
    let mut marks: Vec<(usize, usize, &str)> = Vec::new();
    for (name, code) in names {
        if message.contains(code.as_str()) {
            continue;
        }
        let mut from = 0;
        while let Some(at) = lower[from..].find(name.as_str()) {
            let (start, end) = (from + at, from + at + name.len());
            from = end;
            let bounded = |index: usize| {
                index == 0
                    || index >= lower.len()
                    || !lower.as_bytes()[index - 1].is_ascii_alphanumeric()
            };
            let after = lower[end..].chars().next();
            if bounded(start)
                && after.is_none_or(|c| !c.is_alphanumeric())
                && !marks.iter().any(|(s, e, _)| start < *e && *s < end)
            {
                marks.push((start, end, code));
            }
        }
    }
    if marks.is_empty() {
        return Cow::Borrowed(message);
    }
    marks.sort();
    let mut text = String::with_capacity(message.len() + 16 * marks.len());
    let mut at = 0;
    for (_, end, code) in marks {
        text.push_str(&message[at..end]);
        text.push_str(" (");
        text.push_str(code);
        text.push(')');
        at = end;
    }
    text.push_str(&message[at..]);
    Cow::Owned(text)
}
