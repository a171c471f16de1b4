//! Values as people write them in words: a date ("28 December 2026", "Dec
//! 28th", "March 3, 2027" — a date without a year is its next occurrence) and a
//! small whole number ("three days"). Read once here for every slot of type
//! `date` or `integer`.

use std::sync::OnceLock;

use regex::Regex;

const MONTHS: &[&str] = &[
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

fn patterns() -> &'static [Regex; 2] {
    static PATTERNS: OnceLock<[Regex; 2]> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let month = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?";
        // "the fourth of January", "January tenth": a day in words too.
        let words = ORDINALS.iter().rev().copied().collect::<Vec<_>>().join("|");
        let day = format!(r"(\d{{1,2}}(?:st|nd|rd|th)?|(?:twenty|thirty)[\s-](?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|{words})");
        let year = r"(?:,?\s+(\d{4}))?";
        [
            Regex::new(&format!(r"(?i)\b{day}\s+(?:of\s+)?{month}{year}\b")).expect("a valid pattern"),
            Regex::new(&format!(r"(?i)\b{month}\s+{day}{year}\b")).expect("a valid pattern"),
        ]
    })
}

/// A day of the month as written: "9", "9th", "ninth".
fn day_number(text: &str) -> Option<i64> {
    text.parse::<i64>().ok().or_else(|| ordinal_word(text))
}

pub(crate) fn month_number(name: &str) -> Option<i8> {
    let prefix: String = name.to_lowercase().chars().take(3).collect();
    MONTHS
        .iter()
        .position(|month| *month == prefix)
        .and_then(|index| i8::try_from(index + 1).ok())
}

/// Whether a word names a month or a day of the week ("May", "friday"):
/// a date of its own, never a kind of anything else.
pub fn is_date_word(word: &str) -> bool {
    let lower = word.to_lowercase();
    MONTH_NAMES.contains(&lower.as_str()) || WEEKDAYS.iter().any(|(day, _)| *day == lower)
}

/// The months' names in full.
const MONTH_NAMES: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

static PINNED: OnceLock<jiff::civil::Date> = OnceLock::new();

/// Reads every later date as if today were `date`: a conversation test's
/// fixed day (`adas up --dev --today`), so "tomorrow" has one right answer.
/// The first pin holds for the process.
pub fn pin_today(date: jiff::civil::Date) {
    let _ = PINNED.set(date);
}

/// Today (UTC, or the pinned day): a date without a year is the next one
/// from here, and "tomorrow" the day after.
pub fn today() -> jiff::civil::Date {
    PINNED.get().copied().unwrap_or_else(|| {
        jiff::Timestamp::now()
            .to_zoned(jiff::tz::TimeZone::UTC)
            .date()
    })
}

/// Today in an IANA time zone (the pinned day when there is one; UTC when
/// the zone is absent or unknown — validation reports an unknown one).
pub fn today_in(zone: Option<&str>) -> jiff::civil::Date {
    if let Some(pinned) = PINNED.get() {
        return *pinned;
    }
    match zone.and_then(|zone| jiff::tz::TimeZone::get(zone).ok()) {
        Some(zone) => jiff::Timestamp::now().to_zoned(zone).date(),
        None => today(),
    }
}

/// The dates written in `text` (see [`dates_in`]), counting from `today`.
pub fn dates_on(text: &str, today: jiff::civil::Date) -> Vec<(usize, usize, String)> {
    dates_from(text, today)
}

const WEEKDAYS: &[(&str, jiff::civil::Weekday)] = &[
    ("monday", jiff::civil::Weekday::Monday),
    ("tuesday", jiff::civil::Weekday::Tuesday),
    ("tues", jiff::civil::Weekday::Tuesday),
    ("wednesday", jiff::civil::Weekday::Wednesday),
    ("thursday", jiff::civil::Weekday::Thursday),
    ("thurs", jiff::civil::Weekday::Thursday),
    ("friday", jiff::civil::Weekday::Friday),
    ("saturday", jiff::civil::Weekday::Saturday),
    ("sunday", jiff::civil::Weekday::Sunday),
];

/// Verbs of something done ("paid on the 24th"); not "booked" or
/// "scheduled", which as often name what is to come.
const PAST_VERBS: &[&str] = &[
    "paid", "was", "were", "did", "had", "bought", "spent", "ended", "happened", "arrived",
    "received", "went", "came", "broke", "ate", "met",
];

/// How far a date is from today, nearer first and, at the same distance,
/// the one to come first.
fn distance(today: jiff::civil::Date, date: jiff::civil::Date) -> (i32, bool) {
    (
        date.since(today)
            .map_or(i32::MAX, |span| span.get_days().abs()),
        date < today,
    )
}

/// The date of `in_year` nearest to today, of last year, this year and next
/// ("November 18" said on December 1 is the one just past; "January 12" the
/// one to come): a date without its year means the one nearest.
fn nearest(
    today: jiff::civil::Date,
    in_year: impl Fn(i16) -> Option<jiff::civil::Date>,
) -> Option<jiff::civil::Date> {
    [today.year() - 1, today.year(), today.year() + 1]
        .into_iter()
        .filter_map(in_year)
        .min_by_key(|date| distance(today, *date))
}

/// Dates said relative to today: "today", "tomorrow", "the day after
/// tomorrow", "yesterday", a weekday ("next Tuesday", "on Friday": the first
/// one after today; "this Tuesday" on a Tuesday is today), "this morning"
/// (today, its part of the day left to read), "the 9th" (the
/// next one: this month's, else next month's), "in 3 days", "in two weeks".
fn relative_dates(text: &str, today: jiff::civil::Date) -> Vec<(usize, usize, String)> {
    static PATTERN: OnceLock<Regex> = OnceLock::new();
    let pattern = PATTERN.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:(?P<after>(?:the\s+)?day\s+after\s+tomorrow)|(?P<today>today|tonight)|(?P<this_part>this)\s+(?:morning|afternoon|evening)|(?P<tomorrow>tomorrow|tmrw|tmr)|(?P<yesterday>yesterday)|(?:(?P<which>next|this|coming|this\s+coming|last|past)\s+)?(?P<weekday>monday|tuesday|tues|wednesday|thursday|thurs|friday|saturday|sunday)|(?:on\s+)?the\s+(?P<day>\d{1,2})(?:st|nd|rd|th)\b(?:\s+of\s+(?:this|next)\s+month)?|in\s+(?P<count>\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?P<unit>days?|weeks?)|(?:the\s+)?end\s+of\s+(?P<end_of>january|february|march|april|may|june|july|august|september|october|november|december|the\s+month|this\s+month|next\s+month)|(?P<count2>\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?P<unit2>days?|weeks?)\s+from\s+(?:today|now))\b",
        )
        .expect("a valid pattern")
    });
    let mut found = Vec::new();
    for captures in pattern.captures_iter(text) {
        let whole = captures.get(0).expect("a match");
        let plus = |days: i64| today.checked_add(jiff::Span::new().days(days)).ok();
        let date = if captures.name("after").is_some() {
            plus(2)
        } else if captures.name("today").is_some() || captures.name("this_part").is_some() {
            Some(today)
        } else if captures.name("tomorrow").is_some() {
            plus(1)
        } else if captures.name("yesterday").is_some() {
            plus(-1)
        } else if let Some(weekday) = captures.name("weekday") {
            let which = captures
                .name("which")
                .map(|which| which.as_str().to_lowercase())
                .unwrap_or_default();
            weekday_date(today, &weekday.as_str().to_lowercase(), &which)
        } else if let Some(day) = captures.name("day") {
            // "the 25th of January" is that month's, read as a date.
            let rest = text[whole.end()..].trim_start().to_lowercase();
            if rest
                .strip_prefix("of ")
                .and_then(|rest| rest.split(|c: char| !c.is_alphabetic()).next())
                .is_some_and(|word| {
                    word.len() >= 3
                        && month_number(word).is_some()
                        && (word.len() <= 4 || MONTH_NAMES.contains(&word))
                })
            {
                continue;
            }
            let day: i8 = day.as_str().parse().unwrap_or(0);
            let first = today.first_of_month();
            let in_month = |months: i64| {
                let month = first.checked_add(jiff::Span::new().months(months)).ok()?;
                jiff::civil::Date::new(month.year(), month.month(), day).ok()
            };
            // "effective the 18th", "on the 9th": the next one to come
            // (every such request of the seen sets meant it); after a verb
            // of the past ("paid on the 24th"), the last one.
            let before: Vec<String> = text[..whole.start()]
                .split(|c: char| !c.is_alphanumeric())
                .filter(|word| !word.is_empty())
                .map(str::to_lowercase)
                .collect();
            let past = before
                .iter()
                .rev()
                .take(4)
                .any(|word| PAST_VERBS.contains(&word.as_str()));
            if past {
                [0, -1, -2]
                    .into_iter()
                    .filter_map(in_month)
                    .find(|date| *date <= today)
            } else {
                [0, 1, 2]
                    .into_iter()
                    .filter_map(in_month)
                    .find(|date| *date >= today)
            }
        } else if let Some(month) = captures.name("end_of") {
            end_of(today, &month.as_str().to_lowercase())
        } else if let (Some(count), Some(unit)) = (
            captures.name("count").or(captures.name("count2")),
            captures.name("unit").or(captures.name("unit2")),
        ) {
            let count = match count.as_str().to_lowercase().as_str() {
                "a" | "an" | "one" => 1,
                other => other
                    .parse()
                    .ok()
                    .or_else(|| number_word(other))
                    .unwrap_or(0),
            };
            let days = if unit.as_str().to_lowercase().starts_with("week") {
                count * 7
            } else {
                count
            };
            plus(days)
        } else {
            None
        };
        // "this morning" is today; "morning" stays to be read (a run, a
        // part of the day).
        let whole = captures.name("this_part").unwrap_or(whole);
        if let Some(date) = date {
            found.push((whole.start(), whole.end(), date.to_string()));
        }
    }
    found
}

/// The date of weekday `name` (lowercase) said with `which` ("next",
/// "this", "last", … or nothing): the first one after today, today itself
/// only for "this"; "last"/"past": the one before today.
fn weekday_date(today: jiff::civil::Date, name: &str, which: &str) -> Option<jiff::civil::Date> {
    let plus = |days: i64| today.checked_add(jiff::Span::new().days(days)).ok();
    let wanted = WEEKDAYS
        .iter()
        .find(|(day, _)| *day == name)
        .map(|(_, day)| *day)
        .unwrap_or(jiff::civil::Weekday::Monday);
    let ahead = i64::from(wanted.since(today.weekday()));
    if which == "last" || which == "past" {
        // "last Friday": the one before today.
        let back = i64::from(today.weekday().since(wanted));
        plus(-(if back == 0 { 7 } else { back }))
    } else {
        plus(if ahead == 0 && which != "this" {
            7
        } else {
            ahead
        })
    }
}

/// "The end of `month`" (lowercase: a month's name, or "the/this/next
/// month"): its last day, the nearest such.
fn end_of(today: jiff::civil::Date, month: &str) -> Option<jiff::civil::Date> {
    let first = today.first_of_month();
    let last_of = |date: jiff::civil::Date| {
        date.first_of_month()
            .checked_add(jiff::Span::new().months(1))
            .ok()
            .and_then(|next| next.checked_sub(jiff::Span::new().days(1)).ok())
    };
    if month.ends_with("month") {
        let months = i64::from(month.starts_with("next"));
        first
            .checked_add(jiff::Span::new().months(months))
            .ok()
            .and_then(last_of)
    } else {
        let number = month_number(month).unwrap_or(1);
        nearest(today, |year| {
            jiff::civil::Date::new(year, number, 1)
                .ok()
                .and_then(last_of)
        })
    }
}

/// The times of day written in `text`: `(start, end, "HH:MM")` — "2pm",
/// "2:30 p.m.", "14:00", "noon", "midnight".
pub fn times_in(text: &str) -> Vec<(usize, usize, String)> {
    let mut found = quarter_times(text);
    for time in clock_times(text)
        .into_iter()
        .chain(hours::hours_after_at(text))
    {
        if !found
            .iter()
            .any(|(start, end, _)| time.0 < *end && *start < time.1)
        {
            found.push(time);
        }
    }
    found.sort();
    found
}

/// "half past ten", "quarter to four in the afternoon", "a quarter after 6
/// pm": without a part of the day, one to six o'clock is the afternoon's
/// (the working day's), seven to twelve the morning's.
fn quarter_times(text: &str) -> Vec<(usize, usize, String)> {
    static PATTERN: OnceLock<Regex> = OnceLock::new();
    let pattern = PATTERN.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:a\s+)?(?P<part_of>half|quarter)\s+(?P<dir>past|after|to|before)\s+(?P<hour>1[0-2]|0?[1-9]|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b(?:\s*(?P<part>in\s+the\s+morning|in\s+the\s+afternoon|in\s+the\s+evening|at\s+night|a\.?m\.?|p\.?m\.?))?",
        )
        .expect("a valid pattern")
    });
    pattern
        .captures_iter(text)
        .filter_map(|captures| {
            let whole = captures.get(0)?;
            let written = captures.name("hour")?.as_str().to_lowercase();
            let hour = written
                .parse::<i64>()
                .ok()
                .or_else(|| number_word(&written))?;
            let part = captures
                .name("part")
                .map(|part| part.as_str().to_lowercase());
            let later = match part.as_deref() {
                Some(part) => {
                    part.starts_with('p')
                        || part.contains("afternoon")
                        || part.contains("evening")
                        || part.contains("night")
                }
                None => (1..=6).contains(&hour),
            };
            let hour = hour % 12 + if later { 12 } else { 0 };
            let quarter = captures["part_of"].eq_ignore_ascii_case("quarter");
            let minutes = if quarter { 15 } else { 30 };
            let before = matches!(captures["dir"].to_lowercase().as_str(), "to" | "before");
            let at = hour * 60 + if before { -minutes } else { minutes };
            let at = at.rem_euclid(24 * 60);
            let end = whole.start()
                + whole
                    .as_str()
                    .trim_end_matches(|c: char| !c.is_alphanumeric() && c != '.')
                    .len();
            Some((whole.start(), end, format!("{:02}:{:02}", at / 60, at % 60)))
        })
        .collect()
}

/// Times written as a clock says them: "2pm", "14:00", "10 in the morning".
fn clock_times(text: &str) -> Vec<(usize, usize, String)> {
    static PATTERN: OnceLock<Regex> = OnceLock::new();
    let pattern = PATTERN.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:(?P<h12>1[0-2]|0?[1-9])(?::(?P<m12>[0-5]\d))?\s*(?P<half>a\.?m\.?|p\.?m\.?)(?:\W|$)|(?P<h_day>1[0-2]|0?[1-9])(?::(?P<m_day>[0-5]\d))?\s+(?:o'?clock\s+)?(?P<part>in\s+the\s+morning|in\s+the\s+afternoon|in\s+the\s+evening|at\s+night|o'?clock)\b|(?P<h24>[01]?\d|2[0-3]):(?P<m24>[0-5]\d)\b|(?P<noon>noon|midday)\b|(?P<midnight>midnight)\b)",
        )
        .expect("a valid pattern")
    });
    pattern
        .captures_iter(text)
        .filter_map(|captures| {
            let whole = captures.get(0)?;
            let number = |name: &str| {
                captures
                    .name(name)
                    .and_then(|found| found.as_str().parse::<u32>().ok())
            };
            let (hour, minute) = if let Some(hour) = number("h12") {
                let afternoon = captures
                    .name("half")
                    .is_some_and(|half| half.as_str().to_lowercase().starts_with('p'));
                (
                    (hour % 12) + if afternoon { 12 } else { 0 },
                    number("m12").unwrap_or(0),
                )
            } else if let Some(hour) = number("h_day") {
                let later = captures.name("part").is_some_and(|part| {
                    let part = part.as_str().to_lowercase();
                    part.contains("afternoon") || part.contains("evening") || part.contains("night")
                });
                (
                    (hour % 12) + if later { 12 } else { 0 },
                    number("m_day").unwrap_or(0),
                )
            } else if let Some(hour) = number("h24") {
                // "Thursday at 4:30": an hour of one digit, one to five, is
                // the working day's afternoon, as "at 4" is — never 04:30
                // unless the morning is said ("04:30" is written so).
                let lower = text.to_lowercase();
                let one_digit = captures.name("h24").is_some_and(|h| h.as_str().len() == 1);
                let afternoon = one_digit
                    && (1..=5).contains(&hour)
                    && !["morning", "night", "a.m", "am "]
                        .iter()
                        .any(|word| lower.contains(word));
                (
                    hour + if afternoon { 12 } else { 0 },
                    number("m24").unwrap_or(0),
                )
            } else if captures.name("noon").is_some() {
                (12, 0)
            } else {
                (0, 0)
            };
            let text = whole.as_str();
            let end = whole.start()
                + text
                    .trim_end_matches(|c: char| !c.is_alphanumeric() && c != '.')
                    .len();
            Some((whole.start(), end, format!("{hour:02}:{minute:02}")))
        })
        .collect()
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
                .and_then(|d| day_number(d.as_str()))
                .and_then(|d| i8::try_from(d).ok())
            else {
                continue;
            };
            let year = captures.get(3).and_then(|y| y.as_str().parse::<i16>().ok());
            let date = match year {
                Some(year) => jiff::civil::Date::new(year, month, day).ok(),
                None => nearest(today, |year| jiff::civil::Date::new(year, month, day).ok()),
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
    for relative in relative_dates(text, today) {
        if !found
            .iter()
            .any(|(start, end, _)| relative.0 < *end && *start < relative.1)
        {
            found.push(relative);
        }
    }
    found.sort();
    weekdays_beside_their_date(text, found)
}

/// "Friday 11 December", "Thursday the 10th": a weekday said with its date
/// is that one date (the date's, which says it exactly), not two.
fn weekdays_beside_their_date(
    text: &str,
    found: Vec<(usize, usize, String)>,
) -> Vec<(usize, usize, String)> {
    let mut kept: Vec<(usize, usize, String)> = Vec::with_capacity(found.len());
    let mut pending: Option<(usize, usize, String)> = None;
    let weekday_only = |(start, end, _): &(usize, usize, String)| {
        text[*start..*end]
            .to_lowercase()
            .split_whitespace()
            .last()
            .is_some_and(|last| WEEKDAYS.iter().any(|(day, _)| *day == last))
    };
    for date in found {
        if let Some(weekday) = pending.take() {
            let between = text[weekday.1..date.0]
                .trim_matches([' ', ','])
                .to_lowercase();
            if (between.is_empty() || between == "the") && !weekday_only(&date) {
                kept.push((weekday.0, date.1, date.2));
                continue;
            }
            kept.push(weekday);
        }
        if weekday_only(&date) {
            pending = Some(date);
        } else {
            kept.push(date);
        }
    }
    kept.extend(pending);
    kept
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
/// or, for a long word, one edit away ("chnage" for change). Each word comes
/// with its stem, the value's with the number it is, if one.
fn same_word(
    (said, said_stem): (&str, &str),
    (value, value_stem, number): (&str, &str, Option<i64>),
) -> bool {
    let long = |word: &str| word.chars().count() >= 5;
    said == value
        // "fifty" of `50_amp`.
        || number.is_some_and(|number| number_word(said) == Some(number))
        || said_stem == value_stem
        // A kind of what the value names ("the fridge" for `appliance`).
        || crate::lexicon::lexicon().is_kind_of(said_stem, value_stem)
        || (long(said)
            && long(value)
            // One edit changes the length by one at most, and never both
            // the first and the last letter of a word this long.
            && said.len().abs_diff(value.len()) <= 4
            && (said.as_bytes().first() == value.as_bytes().first()
                || said.as_bytes().last() == value.as_bytes().last())
            && strsim::osa_distance(said, value) <= 1)
}

/// A text read once to find many values in it: lower case, its words'
/// spans and their stems.
#[derive(Debug)]
pub struct Read {
    lower: Option<String>,
    words: Vec<(usize, usize)>,
    stems: Vec<String>,
    /// Per word, which of the text's distinct words it is; and each distinct
    /// word's first place. A long story repeats its words: a value is
    /// compared with each distinct word once, not with every place.
    ids: Vec<usize>,
    distinct: Vec<usize>,
}

impl Read {
    pub fn of(text: &str) -> Self {
        let lower = text.to_lowercase();
        // Offsets into the lower-case text must be the text's own.
        if lower.len() != text.len() {
            return Self {
                lower: None,
                words: Vec::new(),
                stems: Vec::new(),
                ids: Vec::new(),
                distinct: Vec::new(),
            };
        }
        let words = word_spans(&lower);
        let mut seen: crate::HashMap<&str, usize> = crate::HashMap::default();
        let mut distinct = Vec::new();
        let mut stems = Vec::with_capacity(words.len());
        let ids = words
            .iter()
            .enumerate()
            .map(|(at, (start, end))| {
                stems.push(crate::lexicon::stem(&lower[*start..*end]));
                *seen.entry(&lower[*start..*end]).or_insert_with(|| {
                    distinct.push(at);
                    distinct.len() - 1
                })
            })
            .collect();
        Self {
            words,
            stems,
            ids,
            distinct,
            lower: Some(lower),
        }
    }

    /// Where the text writes `value` (see [`value_spans`]).
    pub fn spans_of(&self, value: &str) -> Vec<(usize, usize)> {
        let Some(lower) = &self.lower else {
            return Vec::new();
        };
        // A code (`MAN`, `CWF`) is written as it is: no stem, sense or typo
        // of a word ("order" is a kind of "man" in the lexicon) names it.
        let code = value.chars().any(char::is_alphabetic) && !value.chars().any(char::is_lowercase);
        let value = value.to_lowercase();
        let wanted: Vec<(&str, String, Option<i64>)> = word_spans(&value)
            .into_iter()
            .map(|(start, end)| {
                let word = &value[start..end];
                (word, crate::lexicon::stem(word), word.parse::<i64>().ok())
            })
            .collect();
        let words = &self.words;
        if wanted.is_empty() || words.len() < wanted.len() {
            return Vec::new();
        }
        // Whether each distinct word of the text is each word of the value.
        let same: Vec<Vec<bool>> = wanted
            .iter()
            .map(|(word, stem, number)| {
                self.distinct
                    .iter()
                    .map(|&at| {
                        let (start, end) = words[at];
                        let said = &lower[start..end];
                        if code {
                            said == *word
                        } else {
                            same_word((said, &self.stems[at]), (word, stem, *number))
                        }
                    })
                    .collect()
            })
            .collect();
        (0..=words.len() - wanted.len())
            .filter(|at| {
                same.iter()
                    .enumerate()
                    .all(|(offset, same)| same[self.ids[at + offset]])
                    && !(*at > 0 && {
                        let (start, end) = words[at - 1];
                        TIME_MARKERS.contains(&&lower[start..end])
                    })
            })
            .map(|at| (words[at].0, words[at + wanted.len() - 1].1))
            .collect()
    }
}

/// Where `text` writes an allowed value of one or more words, as people
/// write it ("my brakes checked" for `brake check`, "an oil chnage" for `oil
/// change`): byte offsets of each occurrence, in order.
pub fn value_spans(text: &str, value: &str) -> Vec<(usize, usize)> {
    Read::of(text).spans_of(value)
}

mod hours;
mod numbers;
use numbers::ORDINALS;
pub use numbers::{number_word, numbers_in_words, ordinal_word};

#[cfg(test)]
mod tests;
