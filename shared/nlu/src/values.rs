//! Values as people write them in words: a date ("28 December 2026", "Dec
//! 28th", "March 3, 2027" — a date without a year is its next occurrence) and a
//! small whole number ("three days"). Read once here for every slot of type
//! `date` or `integer`.

use std::sync::OnceLock;

use regex::Regex;

const MONTHS: &[&str] = &[
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

const NUMBERS: &[(&str, i64)] = &[
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("eleven", 11),
    ("twelve", 12),
    ("fifteen", 15),
    ("thirteen", 13),
    ("fourteen", 14),
    ("sixteen", 16),
    ("seventeen", 17),
    ("eighteen", 18),
    ("nineteen", 19),
    ("twenty", 20),
    ("thirty", 30),
    ("forty", 40),
    ("fifty", 50),
    ("sixty", 60),
    ("seventy", 70),
    ("eighty", 80),
    ("ninety", 90),
];

/// Counts of several words as digits ("two hundred" → 200, "a dozen" → 12,
/// "a pair of" → 2, "twenty-five" → 25), so every reader of the message sees
/// the number the person meant.
pub fn numbers_in_words(text: &str) -> std::borrow::Cow<'_, str> {
    static PATTERNS: OnceLock<[Regex; 3]> = OnceLock::new();
    let [scaled, tens, pair] = PATTERNS.get_or_init(|| {
        let small = NUMBERS
            .iter()
            .map(|(name, _)| *name)
            .collect::<Vec<_>>()
            .join("|");
        [
            Regex::new(&format!(
                r"(?i)\b(an?|one|{small}|\d{{1,3}})[\s-]+(hundred|thousand|dozen)\b"
            ))
            .expect("a valid pattern"),
            Regex::new(
                r"(?i)\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[\s-]+(one|two|three|four|five|six|seven|eight|nine)\b",
            )
            .expect("a valid pattern"),
            Regex::new(r"(?i)\b(?:a\s+)?(?:couple|pair)\s+of\b").expect("a valid pattern"),
        ]
    });
    let count = |word: &str| -> Option<i64> {
        match word.to_lowercase().as_str() {
            "a" | "an" | "one" => Some(1),
            "two" => Some(2),
            "three" => Some(3),
            "four" => Some(4),
            "five" => Some(5),
            "six" => Some(6),
            "seven" => Some(7),
            "eight" => Some(8),
            "nine" => Some(9),
            other => number_word(other).or_else(|| other.parse().ok()),
        }
    };
    let text = scaled.replace_all(text, |found: &regex::Captures<'_>| {
        let scale = match found[2].to_lowercase().as_str() {
            "hundred" => 100,
            "thousand" => 1000,
            _ => 12,
        };
        count(&found[1]).map_or_else(|| found[0].to_owned(), |n| (n * scale).to_string())
    });
    let text = match tens.replace_all(&text, |found: &regex::Captures<'_>| {
        match (count(&found[1]), count(&found[2])) {
            (Some(tens), Some(units)) => (tens + units).to_string(),
            _ => found[0].to_owned(),
        }
    }) {
        std::borrow::Cow::Borrowed(_) => text,
        replaced => std::borrow::Cow::Owned(replaced.into_owned()),
    };
    match pair.replace_all(&text, "2") {
        std::borrow::Cow::Borrowed(_) => text,
        replaced => std::borrow::Cow::Owned(replaced.into_owned()),
    }
}

/// A whole number written as a word ("three"); "one" is left out, as it is
/// more often a pronoun ("the other one") than a count.
pub fn number_word(word: &str) -> Option<i64> {
    let word = word.to_lowercase();
    NUMBERS
        .iter()
        .find(|(name, _)| *name == word)
        .map(|(_, value)| *value)
}

fn patterns() -> &'static [Regex; 2] {
    static PATTERNS: OnceLock<[Regex; 2]> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let month = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?";
        let day = r"(\d{1,2})(?:st|nd|rd|th)?";
        let year = r"(?:,?\s+(\d{4}))?";
        [
            Regex::new(&format!(r"(?i)\b{day}\s+(?:of\s+)?{month}{year}\b")).expect("a valid pattern"),
            Regex::new(&format!(r"(?i)\b{month}\s+{day}{year}\b")).expect("a valid pattern"),
        ]
    })
}

fn month_number(name: &str) -> Option<i8> {
    let prefix: String = name.to_lowercase().chars().take(3).collect();
    MONTHS
        .iter()
        .position(|month| *month == prefix)
        .and_then(|index| i8::try_from(index + 1).ok())
}

/// Today (UTC): a date without a year is the next one from here.
fn today() -> jiff::civil::Date {
    jiff::Timestamp::now()
        .to_zoned(jiff::tz::TimeZone::UTC)
        .date()
}

/// Where `text` writes a date or part of one, by byte offsets: the dates in
/// words, a month and a year ("March 2025"), and numeric dates ("11/02",
/// "2026-12-14").
pub fn date_spans(text: &str) -> Vec<(usize, usize)> {
    static PARTS: OnceLock<Regex> = OnceLock::new();
    let parts = PARTS.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+\d{4}\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b|\b\d{4}-\d{2}-\d{2}\b",
        )
        .expect("a valid pattern")
    });
    let mut spans: Vec<(usize, usize)> = dates_in(text)
        .into_iter()
        .map(|(start, end, _)| (start, end))
        .collect();
    spans.extend(
        parts
            .find_iter(text)
            .map(|found| (found.start(), found.end())),
    );
    spans.sort();
    spans
}

/// The dates written in words in `text`: `(start, end, "YYYY-MM-DD")`, by byte
/// offsets, in order. An impossible date (31 February) is none.
pub fn dates_in(text: &str) -> Vec<(usize, usize, String)> {
    dates_from(text, today())
}

fn dates_from(text: &str, today: jiff::civil::Date) -> Vec<(usize, usize, String)> {
    let mut found: Vec<(usize, usize, String)> = Vec::new();
    for (index, pattern) in patterns().iter().enumerate() {
        for captures in pattern.captures_iter(text) {
            let whole = captures.get(0).expect("a match");
            let (day, month) = if index == 0 { (1, 2) } else { (2, 1) };
            let Some(month) = captures.get(month).and_then(|m| month_number(m.as_str())) else {
                continue;
            };
            let Some(day) = captures
                .get(day)
                .and_then(|d| d.as_str().parse::<i8>().ok())
            else {
                continue;
            };
            let year = captures.get(3).and_then(|y| y.as_str().parse::<i16>().ok());
            let date = match year {
                Some(year) => jiff::civil::Date::new(year, month, day).ok(),
                None => jiff::civil::Date::new(today.year(), month, day)
                    .ok()
                    .and_then(|date| {
                        if date < today {
                            jiff::civil::Date::new(today.year() + 1, month, day).ok()
                        } else {
                            Some(date)
                        }
                    }),
            };
            let Some(date) = date else { continue };
            if found
                .iter()
                .any(|(start, end, _)| whole.start() < *end && *start < whole.end())
            {
                continue;
            }
            found.push((whole.start(), whole.end(), date.to_string()));
        }
    }
    found.sort();
    found
}

/// The words of a text with their byte offsets (runs of letters and digits).
fn word_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (at, c) in text.char_indices() {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(at),
            (false, Some(from)) => {
                spans.push((from, at));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(from) = start {
        spans.push((from, text.len()));
    }
    spans
}

/// Words that make the next one a time ("last week", "next month"), never
/// a value ("weekly").
pub const TIME_MARKERS: &[&str] = &["last", "next", "this", "past", "every", "per"];

/// Whether a word of a message is a word of a value: the same, an
/// inflection ("brakes" for brake), a kind of it ("fridge" for appliance),
/// or, for a long word, one edit away ("chnage" for change).
fn same_word(said: &str, value: &str) -> bool {
    said == value
        || crate::lexicon::stem(said) == crate::lexicon::stem(value)
        // A kind of what the value names ("the fridge" for `appliance`).
        || crate::lexicon::lexicon()
            .is_kind_of(&crate::lexicon::stem(said), &crate::lexicon::stem(value))
        || (said.chars().count() >= 5
            && value.chars().count() >= 5
            && strsim::damerau_levenshtein(said, value) <= 1)
}

/// Where `text` writes an allowed value of one or more words, as people
/// write it ("my brakes checked" for `brake check`, "an oil chnage" for `oil
/// change`): byte offsets of each occurrence, in order.
pub fn value_spans(text: &str, value: &str) -> Vec<(usize, usize)> {
    let lower = text.to_lowercase();
    if lower.len() != text.len() {
        return Vec::new();
    }
    let value = value.to_lowercase();
    let wanted: Vec<&str> = word_spans(&value)
        .into_iter()
        .map(|(start, end)| &value[start..end])
        .collect();
    let words = word_spans(&lower);
    if wanted.is_empty() || words.len() < wanted.len() {
        return Vec::new();
    }
    (0..=words.len() - wanted.len())
        .filter(|at| {
            wanted.iter().enumerate().all(|(offset, word)| {
                let (start, end) = words[at + offset];
                same_word(&lower[start..end], word)
            }) && !(*at > 0 && {
                let (start, end) = words[at - 1];
                TIME_MARKERS.contains(&&lower[start..end])
            })
        })
        .map(|at| (words[at].0, words[at + wanted.len() - 1].1))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_in_words() {
        let today = jiff::civil::date(2026, 11, 27);
        let iso = |text: &str| -> Vec<String> {
            dates_from(text, today)
                .into_iter()
                .map(|(_, _, date)| date)
                .collect()
        };
        assert_eq!(iso("2 days off from 28 December 2026"), vec!["2026-12-28"]);
        assert_eq!(iso("on March 3rd, 2027 please"), vec!["2027-03-03"]);
        assert_eq!(iso("from Dec 28th"), vec!["2026-12-28"]);
        assert_eq!(
            iso("on the 4th of january"),
            vec!["2027-01-04"],
            "the next one"
        );
        assert_eq!(iso("31 February 2027"), Vec::<String>::new());
        assert_eq!(iso("room 5 for 3 people"), Vec::<String>::new());
    }

    #[test]
    fn values_as_people_write_them() {
        assert_eq!(
            value_spans("I need my brakes checked", "brake check"),
            vec![(10, 24)]
        );
        assert_eq!(
            value_spans("book an oil chnage", "oil change"),
            vec![(8, 18)]
        );
        assert_eq!(
            value_spans("a brake pad", "brake check"),
            Vec::<(usize, usize)>::new()
        );
        assert_eq!(value_spans("Floor seats", "floor"), vec![(0, 5)]);
    }

    #[test]
    fn small_numbers_in_words() {
        assert_eq!(number_word("Three"), Some(3));
        assert_eq!(number_word("one"), None);
        assert_eq!(number_word("tree"), None);
        assert_eq!(
            numbers_in_words("Quote me two hundred cards"),
            "Quote me 200 cards"
        );
        assert_eq!(numbers_in_words("a dozen posters"), "12 posters");
        assert_eq!(numbers_in_words("Five thousand flyers"), "5000 flyers");
        assert_eq!(numbers_in_words("twenty-five chairs"), "25 chairs");
        assert_eq!(numbers_in_words("a pair of tickets"), "2 tickets");
        assert_eq!(numbers_in_words("a couple of days"), "2 days");
        assert_eq!(numbers_in_words("the other one"), "the other one");
    }
}
