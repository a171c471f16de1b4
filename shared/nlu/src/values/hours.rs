//! An hour written alone after "at" ("Friday at 10"), read on the working
//! day.

use std::sync::OnceLock;

use regex::Regex;

/// "Friday at 10", "the 19th at 11.": an hour alone after "at", read on the
/// working day — eight to eleven the morning's, twelve noon, one to five the
/// afternoon's. Six and seven (breakfast or dinner?) and any evening in the
/// message are not read, nor an hour a word other than a day's follows ("at
/// 5 Elm Street", "at 10 people").
pub(super) fn hours_after_at(text: &str) -> Vec<(usize, usize, String)> {
    static PATTERN: OnceLock<Regex> = OnceLock::new();
    let pattern = PATTERN.get_or_init(|| {
        Regex::new(r"(?i)\bat\s+(?P<hour>1[0-2]|[1-9])\b(?P<next>\s*[.,;!?)]|\s*$|\s+[a-z]+)")
            .expect("a valid pattern")
    });
    let lower = text.to_lowercase();
    if ["tonight", "evening", "dinner", "night"]
        .iter()
        .any(|word| lower.contains(word))
    {
        return Vec::new();
    }
    const FOLLOWS: &[&str] = &[
        "on", "tomorrow", "today", "this", "next", "please", "pls", "for", "and", "then", "sharp",
        "if", "instead", "or", "so", "with", "that", "the", "in", "is", "works", "would", "latest",
    ];
    // A weekday ("at 10 Friday"), never a month ("at 10 May" is a date).
    let follows = |word: &str| {
        FOLLOWS.contains(&word) || (crate::values::is_date_word(word) && word.ends_with("day"))
    };
    pattern
        .captures_iter(text)
        .filter_map(|captures| {
            let hour: u32 = captures["hour"].parse().ok()?;
            let next = captures["next"].trim().to_lowercase();
            let word_follows = next.chars().next().is_some_and(char::is_alphabetic);
            if word_follows && !follows(&next) {
                return None;
            }
            let hour = match hour {
                8..=12 => hour,
                1..=5 => hour + 12,
                _ => return None,
            };
            let found = captures.name("hour")?;
            Some((found.start(), found.end(), format!("{hour:02}:00")))
        })
        .collect()
}
