//! Numbers written in words, as every reader of a message needs them: counts
//! of several words ("two hundred", "a dozen", "twenty-five"), a party said by
//! who is in it ("me and one other"), and ordinals ("the fourth").

use std::sync::OnceLock;

use regex::Regex;

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
/// "a pair of" → 2, "twenty-five" → 25, "three and a half" → 3.5), so every reader of the message sees
/// the number the person meant.
pub fn numbers_in_words(text: &str) -> std::borrow::Cow<'_, str> {
    static PATTERNS: OnceLock<[Regex; 4]> = OnceLock::new();
    let [scaled, tens, pair, and_a_half] = PATTERNS.get_or_init(|| {
        let small = NUMBERS
            .iter()
            .map(|(name, _)| *name)
            .collect::<Vec<_>>()
            .join("|");
        [
            Regex::new(&format!(
                r"(?i)\b(half\s+an?|an?|one|{small}|\d{{1,3}})[\s-]+(hundred|thousand|grand|dozen)\b"
            ))
            .expect("a valid pattern"),
            Regex::new(
                r"(?i)\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[\s-]+(one|two|three|four|five|six|seven|eight|nine)\b",
            )
            .expect("a valid pattern"),
            Regex::new(r"(?i)\b(?:a\s+)?(?:couple|pair)\s+of\b").expect("a valid pattern"),
            Regex::new(&format!(r"(?i)\b(an?|one|{small}|\d{{1,3}})\s+and\s+a\s+half\b"))
                .expect("a valid pattern"),
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
    // "three and a half" is 3.5, never the 3 before it.
    let text = and_a_half.replace_all(text, |found: &regex::Captures<'_>| {
        count(&found[1]).map_or_else(|| found[0].to_owned(), |n| format!("{n}.5"))
    });
    let text = match scaled.replace_all(&text, |found: &regex::Captures<'_>| {
        let scale = match found[2].to_lowercase().as_str() {
            "hundred" => 100,
            "thousand" | "grand" => 1000,
            _ => 12,
        };
        if found[1].to_lowercase().starts_with("half") {
            return (scale / 2).to_string();
        }
        count(&found[1]).map_or_else(|| found[0].to_owned(), |n| (n * scale).to_string())
    }) {
        std::borrow::Cow::Borrowed(_) => text,
        replaced => std::borrow::Cow::Owned(replaced.into_owned()),
    };
    let text = match tens.replace_all(&text, |found: &regex::Captures<'_>| {
        match (count(&found[1]), count(&found[2])) {
            (Some(tens), Some(units)) => (tens + units).to_string(),
            _ => found[0].to_owned(),
        }
    }) {
        std::borrow::Cow::Borrowed(_) => text,
        replaced => std::borrow::Cow::Owned(replaced.into_owned()),
    };
    let text = match pair.replace_all(&text, "2") {
        std::borrow::Cow::Borrowed(_) => text,
        replaced => std::borrow::Cow::Owned(replaced.into_owned()),
    };
    let text = match party_in_digits(&text, count) {
        std::borrow::Cow::Borrowed(_) => text,
        replaced => std::borrow::Cow::Owned(replaced.into_owned()),
    };
    // "a 950-word brochure", "a 40-foot boat": the count of the thing
    // joined to it.
    static JOINED: OnceLock<Regex> = OnceLock::new();
    let joined = JOINED
        .get_or_init(|| Regex::new(r"\b(\d[\d,.]*[kK]?)-([a-z]{3,})\b").expect("a valid pattern"));
    match joined.replace_all(&text, "$1 $2") {
        std::borrow::Cow::Borrowed(_) => text,
        replaced => std::borrow::Cow::Owned(replaced.into_owned()),
    }
}

/// A party said by who is in it, as the count of it: "me and one other" →
/// "2 of us", "just me" → "1 of us", "my wife and I" → "2 of us".
fn party_in_digits(text: &str, count: impl Fn(&str) -> Option<i64>) -> std::borrow::Cow<'_, str> {
    static PARTY: OnceLock<[Regex; 3]> = OnceLock::new();
    let [others, alone, pair] = PARTY.get_or_init(|| {
        let people = r"(?:wife|husband|partner|son|daughter|friend|buddy|pal|mate|colleague|brother|sister|mum|mom|dad|kid|boy|girl|boss)";
        [
            Regex::new(
                r"(?i)\bme\s+(?:and|\+|plus)\s+(an?|one|two|three|four|five|six|seven|eight|nine|\d{1,2})\s+(?:others?|guests?|friends?|more|buddies|colleagues|people)\b",
            )
            .expect("a valid pattern"),
            Regex::new(r"(?i)\b(?:just|only)\s+(?:me|myself)\b").expect("a valid pattern"),
            Regex::new(&format!(
                r"(?i)\b(?:me\s+and\s+my\s+{people}|my\s+{people}\s+and\s+(?:i|me|myself))\b"
            ))
            .expect("a valid pattern"),
        ]
    });
    let text = others.replace_all(text, |found: &regex::Captures<'_>| {
        count(&found[1]).map_or_else(|| found[0].to_owned(), |n| format!("{} of us", n + 1))
    });
    let text = match alone.replace_all(&text, "1 of us") {
        std::borrow::Cow::Borrowed(_) => text,
        replaced => std::borrow::Cow::Owned(replaced.into_owned()),
    };
    match pair.replace_all(&text, "2 of us") {
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

/// Ordinal words of the days of a month, compounds aside ("the fifth floor", "the
/// fourth of January").
pub(super) const ORDINALS: &[&str] = &[
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
    "thirtieth",
];

/// An ordinal in words or digits: "fourth", "twenty-first", "4th" → 4.
pub fn ordinal_word(word: &str) -> Option<i64> {
    let word = word.to_lowercase();
    let simple = |word: &str| {
        ORDINALS
            .iter()
            .position(|ordinal| *ordinal == word)
            .map(|at| match at {
                20 => 30,
                at => at as i64 + 1,
            })
    };
    if let Some(value) = simple(&word) {
        return Some(value);
    }
    if let Some((tens, unit)) = word.split_once(['-', ' '])
        && let Some(unit) = simple(unit.trim()).filter(|unit| *unit < 10)
    {
        return match tens {
            "twenty" => Some(20 + unit),
            "thirty" => Some(30 + unit),
            _ => None,
        };
    }
    ["st", "nd", "rd", "th"]
        .iter()
        .find_map(|suffix| word.strip_suffix(suffix))
        .and_then(|digits| digits.parse::<i64>().ok())
}
