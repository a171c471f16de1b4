//! Dates and times of a message placed in their slots: a time of day for a
//! `time` slot, and which of several dates written is the one meant.

use crate::HashSet;

use serde_json::Value as Json;

use super::{Entity, Slot, Token, effective_kind};

/// A slot of type `time` read from a time of day written in the message
/// ("2pm" → `14:00`).
pub(super) fn time_of_day(
    slot: &Slot,
    (message, today): (&str, jiff::civil::Date),
    times: &mut Vec<(usize, usize, String)>,
    taken: &[Entity],
) -> Option<Entity> {
    let kind = effective_kind(&slot.spec());
    if kind != "time" && kind != "datetime" {
        return None;
    }
    let free: Vec<usize> = times
        .iter()
        .enumerate()
        .filter(|(_, (start, end, _))| {
            !taken
                .iter()
                .any(|entity| *start < entity.end && entity.start < *end)
        })
        .map(|(at, _)| at)
        .collect();
    // "10:00 to 10:45": the start is the first time, the end the last.
    let name = slot.name.to_lowercase();
    let ends = ["end", "until", "finish", "to"]
        .iter()
        .any(|word| name.split('_').any(|part| part == *word));
    let written = crate::values::times_in(message).len();
    let at = if ends {
        (written >= 2).then(|| free.last().copied()).flatten()?
    } else {
        *free.first()?
    };
    let (start, end, value) = times.remove(at);
    let mut guessed = false;
    let value = if kind == "datetime" {
        // The day the message names (its first date), at that time; a time
        // with no day ("move it to 4pm") is today's — a guess.
        let day = crate::values::dates_on(message, today)
            .first()
            .map(|(_, _, iso)| iso.clone())
            .or_else(|| {
                message
                    .split(|c: char| c.is_whitespace() || c == ',')
                    .find(|word| word.parse::<jiff::civil::Date>().is_ok())
                    .map(str::to_owned)
            })
            .unwrap_or_else(|| {
                guessed = true;
                today.to_string()
            });
        format!("{day}T{value}")
    } else {
        value
    };
    Some(Entity {
        name: slot.name.clone(),
        kind,
        value: Json::String(value),
        text: message[start..end].to_owned(),
        start,
        end,
        guessed,
    })
}

/// One date asked for and several different ones written ("the contractor
/// starts on December 15th, so … rent a unit from 2026-12-14"): the one after
/// the message's turn is meant; otherwise which one is a guess, confirmed
/// before any side effect — whatever word stood beside the first.
pub(super) fn one_date_of_several(
    slots: &[Slot],
    (message, today): (&str, jiff::civil::Date),
    all: &[Token<'_>],
    found: &mut [Entity],
) {
    let date_slots = slots
        .iter()
        .filter(|slot| effective_kind(&slot.spec()) == "date")
        .count();
    let mut dated = found.iter_mut().filter(|entity| entity.kind == "date");
    let (Some(entity), None, 1) = (dated.next(), dated.next(), date_slots) else {
        return;
    };
    // Every date written, with its day when it says one ("2026-12-14",
    // "December 15th"; "11/02" is a date of no certain day).
    let in_words = crate::values::dates_on(message, today);
    let dates: Vec<(usize, usize, Option<String>)> = crate::values::date_spans(message)
        .into_iter()
        .map(|(start, end)| {
            let day = in_words
                .iter()
                .find(|(at, _, _)| *at == start)
                .map(|(_, _, iso)| iso.clone())
                .or_else(|| {
                    message[start..end]
                        .parse::<jiff::civil::Date>()
                        .ok()
                        .map(|date| date.to_string())
                });
            (start, end, day)
        })
        .collect();
    // "December 2026" inside "28 December 2026" is that date, not another.
    let dated: Vec<(usize, usize)> = dates
        .iter()
        .filter(|(_, _, day)| day.is_some())
        .map(|(start, end, _)| (*start, *end))
        .collect();
    let dates: Vec<(usize, usize, Option<String>)> = dates
        .into_iter()
        .filter(|(start, end, day)| {
            day.is_some() || !dated.iter().any(|(from, to)| *start < *to && *from < *end)
        })
        .collect();
    if dates.iter().all(|(_, _, day)| {
        day.as_ref()
            .is_some_and(|day| Json::String(day.clone()) == entity.value)
    }) {
        return;
    }
    // The date in the sentence that names the action ("We would love to
    // book a double room on 2027-03-13"), else the one after the turn.
    let cues: &[String] = slots
        .iter()
        .find(|slot| slot.name == entity.name)
        .map_or(&[], |slot| &slot.cues);
    let sentence_of = |at: usize| {
        message[..at]
            .rfind(['.', '?', '!', ';', '\n'])
            .map_or(0, |end| end + 1)
    };
    let cued: HashSet<usize> = all
        .iter()
        .filter(|token| cues.contains(&crate::lexicon::stem(&token.text.to_lowercase())))
        .map(|token| sentence_of(token.start))
        .collect();
    let in_cued: Vec<&(usize, usize, Option<String>)> = dates
        .iter()
        .filter(|(start, _, _)| cued.contains(&sentence_of(*start)))
        .collect();
    // "…, so move it to the 9th" turns; "the 8th instead of the 7th" does
    // not (what follows "instead of" is what is replaced).
    let turn = all
        .iter()
        .enumerate()
        .rposition(|(at, token)| {
            let word = token.text.to_lowercase();
            let of_follows = all
                .get(at + 1)
                .is_some_and(|next| next.text.eq_ignore_ascii_case("of"));
            matches!(word.as_str(), "but" | "so") || (word == "instead" && !of_follows)
        })
        .map(|at| all[at].start);
    let after: Vec<&(usize, usize, Option<String>)> = dates
        .iter()
        .filter(|(start, _, _)| turn.is_some_and(|turn| turn < *start))
        .collect();
    // "I won't be home on Thursday, deliver it on 8 December": a date of a
    // clause that says no is no date of the request.
    let negated = |start: usize| {
        // "the 8th instead of the 7th": the one it replaces is no date of
        // the request.
        let before = message[..start].to_lowercase();
        let before = before.trim_end();
        if ["instead of", "rather than", "not on", "not"]
            .iter()
            .any(|phrase| before.ends_with(phrase) || before.ends_with(&format!("{phrase} the")))
        {
            return true;
        }
        let clause = message[..start]
            .rfind([',', '.', ';', '!', '?'])
            .map_or(0, |end| end + 1);
        message[clause..start]
            .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
            .any(|word| {
                let word = word.to_lowercase();
                matches!(word.as_str(), "not" | "never" | "cannot" | "unable")
                    || word.ends_with("n't")
                    || word.ends_with("n’t")
            })
    };
    let affirmed: Vec<&(usize, usize, Option<String>)> = dates
        .iter()
        .filter(|(start, _, day)| day.is_some() && !negated(*start))
        .collect();
    let chosen = match (in_cued.as_slice(), after.as_slice(), affirmed.as_slice()) {
        ([one], _, _) => [*one],
        (_, [one], _) => [*one],
        (_, _, [one]) if affirmed.len() < dates.len() => [*one],
        _ => {
            entity.guessed = true;
            return;
        }
    };
    match chosen.as_slice() {
        [(start, end, Some(day))] => {
            entity.value = Json::String(day.clone());
            entity.text = message[*start..*end].to_owned();
            entity.start = *start;
            entity.end = *end;
            entity.guessed = false;
        }
        _ => entity.guessed = true,
    }
}
