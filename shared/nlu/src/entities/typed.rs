//! A token's value of a declared kind: an email, a phone, a count, an
//! amount, a date, a flag, an id of the examples' shape, or one of the
//! allowed values named by its word, its inflection, a kind of it or a typo.

use super::*;

pub(super) fn typed(
    kind: &str,
    spec: &EntitySpec,
    token: &Token<'_>,
    prefixes: &[String],
) -> Option<Json> {
    let text = token.text;
    match kind {
        "email" => is_email(text).then(|| Json::String(text.to_owned())),
        "phone" => {
            let digits = text.chars().filter(char::is_ascii_digit).count();
            (digits >= 7
                && text
                    .chars()
                    .all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '.' | '(' | ')')))
            .then(|| Json::String(text.to_owned()))
        }
        // "$12" is money, not a count.
        "integer" if text.starts_with(['$', '€', '£']) => None,
        // "25% extra time" for a percentage.
        "integer" | "number"
            if text.ends_with('%')
                && ["percent", "pct"]
                    .iter()
                    .any(|word| spec.name.contains(word)) =>
        {
            parse_amount(text.trim_end_matches('%')).map(number_json)
        }
        "integer" => parse_amount(text)
            .filter(|value| value.fract() == 0.0 && value.abs() < 9.0e15)
            .map(|value| value as i64)
            .or_else(|| crate::values::number_word(text))
            .map(Json::from),
        "number" | "money" => {
            let money_marked = text.starts_with(['$', '€', '£']);
            if kind == "number" || money_marked || parse_amount(text).is_some() {
                // "five hours": a count in words is a number too — never a
                // sum of money ("new grips on eleven of my clubs" is no
                // amount): people write money in figures.
                let money_named = ["amount", "price", "cost", "fee", "total", "balance"]
                    .iter()
                    .any(|word| spec.name.to_lowercase().contains(word));
                parse_amount(text).map(number_json).or_else(|| {
                    (kind == "number" && !money_named)
                        .then(|| crate::values::number_word(text))
                        .flatten()
                        .map(Json::from)
                })
            } else {
                None
            }
        }
        "date" => is_iso_date(text).then(|| Json::String(text.to_owned())),
        "boolean" => match text.to_lowercase().as_str() {
            "yes" | "y" | "true" => Some(Json::Bool(true)),
            "no" | "n" | "false" => Some(Json::Bool(false)),
            _ => None,
        },
        "enum" => allowed_value(&spec.allowed, text),
        "identifier" => {
            if !is_identifier(text) {
                return None;
            }
            let matches_examples = prefixes.is_empty()
                || prefixes
                    .iter()
                    .any(|prefix| text.to_uppercase().starts_with(prefix));
            matches_examples.then(|| Json::String(text.to_uppercase()))
        }
        _ => None,
    }
}

/// The allowed value a word names: itself (any case), its inflection
/// ("brake" for `brakes`), or the one value it is a typo of ("univesity").
fn allowed_value(allowed: &[Json], text: &str) -> Option<Json> {
    if little_word(text) {
        return None;
    }
    let text = text.to_lowercase();
    // `tire_change` is written "tire change".
    let values: Vec<(&Json, String)> = allowed
        .iter()
        .filter_map(|value| {
            value
                .as_str()
                .map(|name| (value, name.to_lowercase().replace('_', " ")))
        })
        .collect();
    if let Some((value, _)) = values.iter().find(|(_, name)| *name == text) {
        return Some((*value).clone());
    }
    // A code (`MAN`, `CWF`) is written as it is: no stem, sense or typo of
    // a word ("order" is a kind of "man" in the lexicon) names it.
    let values: Vec<(&Json, String)> = values
        .into_iter()
        .filter(|(value, _)| {
            value.as_str().is_none_or(|name| {
                !name.chars().any(char::is_alphabetic) || name.chars().any(char::is_lowercase)
            })
        })
        .collect();
    let stem = crate::lexicon::stem(&text);
    if let Some((value, _)) = values
        .iter()
        .find(|(_, name)| !name.contains(' ') && crate::lexicon::stem(name) == stem)
    {
        return Some((*value).clone());
    }
    // The word that sets a value of several words apart from the others
    // ("missing the fries" is a `missing item`, "arrived cold" `cold food`):
    // its first word, when only that value opens with it.
    let opening = |name: &str| {
        name.split_whitespace()
            .next()
            .filter(|_| name.contains(' '))
            .map(crate::lexicon::stem)
    };
    let opened: Vec<&Json> = values
        .iter()
        .filter(|(_, name)| {
            text.chars().count() >= 4 && opening(name).as_deref() == Some(stem.as_str())
        })
        .map(|(value, _)| *value)
        .collect();
    if let [one] = opened.as_slice() {
        return Some((*one).clone());
    }
    // A kind of exactly one value ("fridge" of `appliance`) — not a date
    // ("through the end of May" names no `month` term).
    let kind_of: Vec<&Json> = values
        .iter()
        .filter(|(_, name)| {
            !name.contains(' ')
                && !crate::values::is_date_word(&text)
                && crate::lexicon::lexicon().is_kind_of(&stem, &crate::lexicon::stem(name))
        })
        .map(|(value, _)| *value)
        .collect();
    if let [one] = kind_of.as_slice() {
        return Some((*one).clone());
    }
    let length = text.chars().count();
    let reach = match length {
        0..=4 => return None,
        5..=7 => 1,
        _ => 2,
    };
    let close: Vec<&Json> = values
        .iter()
        .filter(|(_, name)| {
            name.chars().next() == text.chars().next()
                && strsim::damerau_levenshtein(name, &text) <= reach
        })
        .map(|(value, _)| *value)
        .collect();
    match close.as_slice() {
        [one] => Some((*one).clone()),
        _ => None,
    }
}

/// An id of digits alone (`271070801`) for an identifier whose pattern says
/// its values are digits: letters-and-digits is the shape of other ids.
pub(super) fn digit_id(slot: &Slot, kind: &str, text: &str) -> Option<Json> {
    (kind == "identifier"
        && !text.is_empty()
        && text.chars().all(|c| c.is_ascii_digit())
        && slot
            .pattern
            .as_ref()
            .is_some_and(|pattern| pattern.is_match(text)))
    .then(|| Json::String(text.to_owned()))
}

pub(super) fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.split_once('@') else {
        return false;
    };
    !local.is_empty() && domain.contains('.') && !domain.starts_with('.') && !domain.ends_with('.')
}

fn is_iso_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    parts.len() == 3
        && parts[0].len() == 4
        && parts[1].len() == 2
        && parts[2].len() == 2
        && parts
            .iter()
            .all(|part| part.chars().all(|c| c.is_ascii_digit()))
}

/// Whether a word as written is a little word of English that a code may
/// also be (`it` for Italian): such a code is named only in capitals — "bill
/// it to …" is no language.
pub(super) fn little_word(text: &str) -> bool {
    // Not "on", "in", "up" or "no": the values of their own meaning
    // (roaming on, clocked in, yes or no).
    const LITTLE_WORDS: &[&str] = &[
        "it", "at", "to", "is", "as", "be", "we", "me", "us", "or", "an", "so", "do", "am", "he",
        "if", "of", "my", "by",
    ];
    LITTLE_WORDS.contains(&text.to_lowercase().as_str()) && text != text.to_uppercase()
}

/// Whether an allowed value was read only as what the word is a kind of
/// ("condo" for `house`): the lexicon's sense of the word, not the person's
/// — a guess for the call, confirmed before any side effect (the detector
/// still weighs it as the value it names).
pub(crate) fn by_kind_only(entity: &Entity) -> bool {
    let Some(value) = entity.value.as_str() else {
        return false;
    };
    let (value, text) = (
        value.to_lowercase().replace('_', " "),
        entity.text.to_lowercase(),
    );
    let (value_stem, text_stem) = (crate::lexicon::stem(&value), crate::lexicon::stem(&text));
    value != text
        && value_stem != text_stem
        && !value.contains(' ')
        && crate::lexicon::lexicon().is_kind_of(&text_stem, &value_stem)
}
