//! Values read by their place in the message: a person's name, a value
//! beside the input's name or after a cue word, one of an input's allowed
//! values, the remainder of a request.

use super::*;

/// Words that make a free-text input a person's name.
pub(super) const PERSON_INPUTS: &[&str] = &[
    "person",
    "name",
    "contact",
    "guest",
    "recipient",
    "driver",
    "passenger",
    "visitor",
    "attendee",
    "owner",
];

/// A person's name for an input that takes one ("allow Dana Cole to pick up
/// CH-105"): the one run of two or three capitalized words inside a sentence
/// (a sentence's first word is capitalized anyway, and is left out) — of
/// several, the one run that is not all the skill's own words ("Rosa Delgado
/// is coming to Harbor House": the skill names Harbor House).
pub(super) fn person_name(
    slot: &Slot,
    message: &str,
    all: &[Token<'_>],
    (taken, vocabulary): (&[Entity], &Vocabulary),
) -> Option<Entity> {
    let named = slot
        .name
        .to_lowercase()
        .split(['_', '-'])
        .any(|part| PERSON_INPUTS.contains(&part));
    // A count of visitors is no name, whatever its name says.
    let text = matches!(effective_kind(&slot.spec()).as_str(), "string" | "text");
    if !named || !text || slot.pattern.is_some() || !slot.allowed.is_empty() {
        return None;
    }
    let opens = |token: &Token<'_>| {
        message[..token.start]
            .trim_end()
            .chars()
            .last()
            .is_none_or(|c| matches!(c, '.' | '!' | '?' | ':' | ';'))
    };
    let capitalized = |token: &Token<'_>| {
        let mut chars = token.text.chars();
        chars.next().is_some_and(char::is_uppercase)
            && chars.all(|c| c.is_lowercase() || c == '\'' || c == '-')
    };
    // "Priya Natarajan, priya.n@outlook.com": a sentence may open with a
    // name — a word no dictionary knows, before another capitalized one.
    let opens_with_a_name = |at: usize| {
        let token = &all[at];
        capitalized(token)
            && !crate::lexicon::lexicon().knows(&crate::lexicon::stem(&token.text.to_lowercase()))
            && all
                .get(at + 1)
                .is_some_and(|next| capitalized(next) && !opens(next))
    };
    let mut runs: Vec<Vec<&Token<'_>>> = Vec::new();
    let mut current: Vec<&Token<'_>> = Vec::new();
    for (at, token) in all.iter().enumerate() {
        // "Quayside Group, Tomasz Wojcik": a comma ends a name.
        let apart = current.last().is_some_and(|last: &&Token<'_>| {
            message[last.start + last.text.len()..token.start]
                .contains([',', ';', '(', ')', '.', '!', '?', ':'])
        });
        if apart {
            runs.push(std::mem::take(&mut current));
        }
        // "I", "I'm": no name.
        let me = token.text == "I" || token.text.starts_with("I'");
        if capitalized(token) && (!opens(token) || opens_with_a_name(at)) && !me {
            current.push(token);
        } else if !current.is_empty() {
            runs.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        runs.push(current);
    }
    // "Lincoln High (MDR-2207) Key Club" where the skill reads "Lincoln
    // High" as a place and writes its code beside it: a run a value was
    // read from, or beside one, is part of a longer name — no name of its
    // own.
    let beside_a_value = |run: &[&Token<'_>]| {
        let (first, last) = (run[0], run[run.len() - 1]);
        let (start, end) = (first.start, last.start + last.text.len());
        let value = |token: &Token<'_>| {
            let code = token.text.chars().any(|c| c.is_ascii_digit())
                && !token.text.chars().any(char::is_lowercase);
            // "Rachel Kim (rachel.kim88@gmail.com)": an email beside a
            // name is that person's.
            (code || overlaps(token, taken)) && !token.text.contains('@')
        };
        // Only what a space or a bracket parts from it ("Rosa Delgado,
        // STF-20417" is a name and an id).
        let joined = |gap: &str| !gap.contains([',', ';', '.', ':', '!', '?']);
        let before = all
            .iter()
            .rev()
            .find(|token| token.start + token.text.len() <= start)
            .filter(|token| joined(&message[token.start + token.text.len()..start]));
        let after = all
            .iter()
            .find(|token| token.start >= end)
            .filter(|token| joined(&message[end..token.start]));
        before.is_some_and(value) || after.is_some_and(value)
    };
    runs.retain(|run| {
        (2..=3).contains(&run.len())
            && !run.iter().any(|token| overlaps(token, taken))
            && !beside_a_value(run)
    });
    if runs.len() > 1 {
        runs.retain(|run| {
            !run.iter()
                .all(|token| vocabulary.contains(&token.text.to_lowercase()))
        });
    }
    let [run] = runs.as_slice() else {
        return None;
    };
    let (first, last) = (run[0], run[run.len() - 1]);
    let end = last.start + last.text.len();
    Some(Entity {
        name: slot.name.clone(),
        kind: "string".into(),
        value: Json::String(message[first.start..end].to_owned()),
        text: message[first.start..end].to_owned(),
        start: first.start,
        end,
        guessed: false,
    })
}

pub(super) fn overlaps(token: &Token<'_>, entities: &[Entity]) -> bool {
    entities
        .iter()
        .any(|entity| token.start < entity.end && entity.start < token.start + token.text.len())
}

/// The slot's typed value of a token, when it also fits the slot's pattern.
pub(super) fn typed_value(
    slot: &Slot,
    kind: &str,
    token: &Token<'_>,
    prefixes: &[String],
) -> Option<Json> {
    // A declared pattern says what the value looks like better than the
    // prefixes the examples happen to use ("ECON220" when they say "CS101").
    let prefixes = if slot.pattern.is_some() {
        &[]
    } else {
        prefixes
    };
    let value = typed(kind, &slot.spec(), token, prefixes)
        .or_else(|| typed::digit_id(slot, kind, token.text))?;
    match (&slot.pattern, &value) {
        (Some(pattern), Json::String(text)) if !pattern.is_match(text) => None,
        _ => Some(value),
    }
}

/// A plain-string token usable as a value (and fitting the slot's pattern).
pub(super) fn plain_value(slot: &Slot, token: &Token<'_>) -> bool {
    token
        .text
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
        && slot
            .pattern
            .as_ref()
            .is_none_or(|pattern| pattern.is_match(token.text))
}

/// "name is X", "name=X", "name: X", or a value beside the name ("room 5",
/// "order ORD-1", "3 people"): evidence.
pub(super) fn named_value(
    (slot, slots): (&Slot, &[Slot]),
    message: &str,
    all: &[Token<'_>],
    taken: &[Entity],
) -> Option<Entity> {
    let spec = slot.spec();
    let kind = effective_kind(&spec);
    if let Some(token) = explicit(&spec, message, all).filter(|token| !overlaps(token, taken)) {
        // Named by the user: the value's type decides, not the examples' prefixes.
        let value = if kind == "string" {
            plain_value(slot, &token).then(|| Json::String(token.text.to_owned()))
        } else {
            typed_value(slot, &kind, &token, &[])
        };
        if let Some(value) = value {
            return Some(found(&slot.name, &kind, value, &token, false));
        }
    }
    let typed_here = |token: &Token<'_>| typed_value(slot, &kind, token, &[]);
    let plain_ok = |token: &Token<'_>| plain_value(slot, token);
    let beside: Vec<(Token<'_>, Json)> = beside_name(&spec, all, &kind, &typed_here, &plain_ok)
        .into_iter()
        // "reserve BK-200 card M-7": the id before the name is the book's
        // (its shape says so), the one after it the card's.
        .filter(|(token, _)| !overlaps(token, taken) && !fits_another(slots, slot, token.text))
        .collect();
    // "card 9077 is fine, freeze card 4421": two values beside the name.
    one_of(slot, &kind, all, beside)
}

/// A value found by its type anywhere (an email is an email wherever it
/// stands; a bare number is evidence only when it is the only one), by the
/// slot's pattern, or — for a plain string — by position (a guess, never a
/// vocabulary word).
pub(super) fn value_by_type(
    slot: &Slot,
    all: &[Token<'_>],
    prefixes: &[String],
    taken: &[Entity],
    vocabulary: &Vocabulary,
) -> Option<Entity> {
    let spec = slot.spec();
    let kind = effective_kind(&spec);
    // "last week" is a time, not a `weekly` of an allowed list.
    let timed = |token: &Token<'_>| {
        all.iter()
            .position(|other| other.start == token.start)
            .and_then(|at| at.checked_sub(1))
            .is_some_and(|before| {
                crate::values::TIME_MARKERS.contains(&all[before].text.to_lowercase().as_str())
            })
    };
    if kind != "string" {
        let matches: Vec<(Token<'_>, Json)> = all
            .iter()
            .filter(|token| !(overlaps(token, taken) || (kind == "enum" && timed(token))))
            .filter_map(|token| {
                typed_value(slot, &kind, token, prefixes).map(|value| (token.clone(), value))
            })
            .collect();
        let bare_number = matches!(kind.as_str(), "integer" | "number")
            || (kind == "money"
                && !matches
                    .first()
                    .is_some_and(|(token, _)| token.text.starts_with(['$', '€', '£'])));
        if bare_number {
            // "Of the 6 … we've opened 4, and 3 of those were corked": the
            // part the message says something of is meant, not the whole.
            if let Some((token, value)) =
                matches.iter().find(|(token, _)| said_of_a_part(all, token))
            {
                return Some(found(&slot.name, &kind, value.clone(), token, false));
            }
            // Of several numbers, the one its cue stands before ("the meter
            // shows 12500") is meant; otherwise the first is a guess.
            if let Some(cued) = one_of(slot, &kind, all, matches.clone()).filter(|one| !one.guessed)
            {
                return Some(cued);
            }
            let (token, value) = matches.first().cloned()?;
            return Some(found(&slot.name, &kind, value, &token, matches.len() > 1));
        }
        return one_of(slot, &kind, all, matches);
    }
    if let Some(pattern) = &slot.pattern {
        let matches: Vec<(Token<'_>, Json)> = all
            .iter()
            .filter(|token| !overlaps(token, taken) && pattern.is_match(token.text))
            .map(|token| (token.clone(), Json::String(token.text.to_owned())))
            .collect();
        return one_of(slot, &kind, all, matches);
    }
    // A slot of allowed values takes one of them or none ("can I make an
    // appointment?" names no service): no word is its value by position.
    if !slot.allowed.is_empty() {
        let matches: Vec<(Token<'_>, Json)> = all
            .iter()
            .filter(|token| !overlaps(token, taken) && !timed(token) && !little_word(token.text))
            .filter_map(|token| {
                let value = slot.allowed.iter().find(|value| {
                    value
                        .as_str()
                        .is_some_and(|name| name.eq_ignore_ascii_case(token.text))
                })?;
                Some((token.clone(), value.clone()))
            })
            .collect();
        return one_of(slot, &kind, all, matches);
    }
    if let Some(token) = string_by_name(&spec, all)
        .filter(|token| !overlaps(token, taken) && !vocabulary.contains(token.text))
    {
        let guessed = !token.text.contains('/');
        let value = Json::String(token.text.to_owned());
        return Some(found(&slot.name, &kind, value, &token, guessed));
    }
    remainder(all, taken, vocabulary)
        .map(|(token, text)| found(&slot.name, &kind, Json::String(text), &token, true))
}

/// Whether `token` counts a part of what was told and says how it stands:
/// "3 of those were corked", "two of them arrived broken".
fn said_of_a_part(all: &[Token<'_>], token: &Token<'_>) -> bool {
    let Some(at) = all.iter().position(|other| other.start == token.start) else {
        return false;
    };
    let word = |offset: usize| {
        all.get(at + offset)
            .map(|token| token.text.to_lowercase())
            .unwrap_or_default()
    };
    word(1) == "of"
        && matches!(word(2).as_str(), "those" | "them" | "these")
        && matches!(
            word(3).as_str(),
            "were" | "was" | "are" | "is" | "got" | "arrived" | "came" | "turned" | "had"
        )
}

/// Whether `entity` is a number told as the whole a part is taken from
/// ("of the 6 bottles …, 3 of those were corked"): not the request's count.
pub(super) fn whole_of_a_part(all: &[Token<'_>], entity: &Entity) -> bool {
    let Some(at) = all.iter().position(|token| token.start == entity.start) else {
        return false;
    };
    let before = |offset: usize| {
        at.checked_sub(offset)
            .and_then(|at| all.get(at))
            .map(|token| token.text.to_lowercase())
            .unwrap_or_default()
    };
    entity.value.is_number()
        && ((before(2) == "of" && before(1) == "the") || (before(2) == "out" && before(1) == "of"))
        && all.iter().any(|token| said_of_a_part(all, token))
}

/// Whether `entity` is a count something is added to ("24 students plus
/// their teacher", "three guests" beside the one booking): the total is the
/// user's sum, not the number written — read as a guess, so it is confirmed
/// before any side effect.
pub(super) fn added_to(all: &[Token<'_>], entity: &Entity) -> bool {
    let Some(at) = all.iter().position(|token| token.start == entity.start) else {
        return false;
    };
    // "I'm bringing three guests": the ones who come along, besides the
    // one asking — whether the count holds them all is the user's to say.
    const COMPANIONS: &[&str] = &["guest", "guests", "friend", "friends", "others"];
    let companions = all.get(at + 1).is_some_and(|next| {
        let next = next.text.to_lowercase();
        COMPANIONS.contains(&next.as_str())
            && !entity
                .name
                .to_lowercase()
                .contains(next.trim_end_matches('s'))
    });
    entity.value.is_number()
        && (companions
            || all
                .iter()
                .skip(at + 1)
                .take(3)
                .any(|token| token.text.eq_ignore_ascii_case("plus")))
}

/// How many tokens before a value its action's word may stand ("book
/// CL-101", "refund $20 on ORD-2").
pub(super) const CUE_REACH: usize = 3;

/// The value of several that fit a slot: the only one, else the one its
/// action's word stands right before ("CL-102 is full, so book CL-101
/// instead"); when that does not tell, the first — as a guess, so it never
/// makes a side effect without the user's yes.
/// Whether the direction word nearest before `token` ("to" of "to Tarvey")
/// is the other direction's, for a slot of one direction (`from_port`).
pub(super) fn led_the_other_way(slot: &Slot, all: &[Token<'_>], token: &Token<'_>) -> bool {
    const FROM: &[&str] = &["from", "out"];
    const TO: &[&str] = &["to", "into", "onto"];
    let ours: &[&str] = if slot.cues.iter().any(|cue| cue == "from") {
        FROM
    } else if slot.cues.iter().any(|cue| cue == "to") {
        TO
    } else {
        return false;
    };
    let Some(at) = all.iter().position(|other| other.start == token.start) else {
        return false;
    };
    all[at.saturating_sub(CUE_REACH)..at]
        .iter()
        .rev()
        .map(|word| word.text.to_lowercase())
        .find(|word| FROM.contains(&word.as_str()) || TO.contains(&word.as_str()))
        .is_some_and(|word| !ours.contains(&word.as_str()))
}

pub(super) fn one_of(
    slot: &Slot,
    kind: &str,
    all: &[Token<'_>],
    matches: Vec<(Token<'_>, Json)>,
) -> Option<Entity> {
    let mut distinct: Vec<&(Token<'_>, Json)> = Vec::new();
    for candidate in &matches {
        if !distinct.iter().any(|known| known.1 == candidate.1) {
            distinct.push(candidate);
        }
    }
    // "from Brennhaven to Tarvey (TRV)": a value the other direction's word
    // stands before is the other end's, never this one's.
    distinct.retain(|(token, _)| !led_the_other_way(slot, all, token));
    let (token, value) = match distinct.as_slice() {
        [] => return None,
        [one] => return Some(found(&slot.name, kind, one.1.clone(), &one.0, false)),
        _ => {
            // How near the action's word stands before each ("turn off
            // roaming on LN-1005": off, not the "on" of "on LN-1005").
            let reach = |token: &Token<'_>| -> Option<usize> {
                let at = all.iter().position(|other| other.start == token.start)?;
                (1..=CUE_REACH.min(at)).find(|back| {
                    slot.cues
                        .contains(&crate::lexicon::stem(&all[at - back].text.to_lowercase()))
                })
            };
            let reaches: Vec<Option<usize>> =
                distinct.iter().map(|(token, _)| reach(token)).collect();
            if let Some(nearest) = reaches.iter().flatten().min()
                && reaches
                    .iter()
                    .filter(|reach| **reach == Some(*nearest))
                    .count()
                    == 1
            {
                let at = reaches
                    .iter()
                    .position(|reach| *reach == Some(*nearest))
                    .expect("the nearest is one of them");
                return Some(found(
                    &slot.name,
                    kind,
                    distinct[at].1.clone(),
                    &distinct[at].0,
                    false,
                ));
            }
            // "PK-40003 is fine, but PK-40001 arrived damaged": the one after
            // the turn is meant.
            let turn = all.iter().rposition(|token| {
                matches!(token.text.to_lowercase().as_str(), "but" | "so" | "instead")
            });
            let after: Vec<&&(Token<'_>, Json)> = distinct
                .iter()
                .filter(|(token, _)| turn.is_some_and(|turn| all[turn].start < token.start))
                .collect();
            if let [one] = after.as_slice() {
                return Some(found(&slot.name, kind, one.1.clone(), &one.0, false));
            }
            // "NW303 was cancelled …, is NW404 leaving on time?": a value a
            // statement is about ("X was", "X is full") is not the one asked
            // for when only one other is left.
            let stated = |token: &Token<'_>| {
                all.iter()
                    .position(|other| other.start == token.start)
                    .and_then(|at| all.get(at + 1))
                    .is_some_and(|next| {
                        matches!(
                            next.text.to_lowercase().as_str(),
                            "is" | "was"
                                | "are"
                                | "were"
                                | "has"
                                | "had"
                                | "got"
                                | "isn't"
                                | "wasn't"
                        )
                    })
            };
            let unstated: Vec<&&(Token<'_>, Json)> = distinct
                .iter()
                .filter(|(token, _)| !stated(token))
                .collect();
            if let [one] = unstated.as_slice() {
                return Some(found(&slot.name, kind, one.1.clone(), &one.0, false));
            }
            distinct[0].clone()
        }
    };
    Some(found(&slot.name, kind, value, &token, true))
}

/// The values just after or just before the slot's name ("room 5", "order
/// ORD-1", "3 people"); a plain string only when it has a digit ("room B12").
/// The number a word before a name gives it: "one copy", "a night", "the
/// fifth floor", "3rd floor", "the ground floor".
fn counted_before(word: &str, name: &str) -> Option<i64> {
    let ordinal = || crate::values::ordinal_word(word);
    match word {
        "one" | "a" | "an" | "single" => Some(1),
        "ground" if name.starts_with("floor") => Some(0),
        _ if name.starts_with("floor") || name.starts_with("level") => ordinal(),
        _ => None,
    }
}

pub(super) fn beside_name<'a>(
    spec: &EntitySpec,
    all: &[Token<'a>],
    kind: &str,
    typed_here: &dyn Fn(&Token<'_>) -> Option<Json>,
    plain_ok: &dyn Fn(&Token<'_>) -> bool,
) -> Vec<(Token<'a>, Json)> {
    let name = spec.name.to_lowercase();
    let base = name
        .strip_suffix("_id")
        .or_else(|| name.strip_suffix("_number"))
        .unwrap_or(&name)
        .to_owned();
    // "to_floor" is named "floor" ("the fifth floor"), as "new_date" is.
    let bare = ["to_", "new_"]
        .iter()
        .find_map(|lead| base.strip_prefix(lead))
        .unwrap_or(&base)
        .to_owned();
    let names = [name.clone(), base, name.replace('_', " "), bare];
    let stems: Vec<String> = names
        .iter()
        .map(|name| crate::lexicon::stem(name))
        .collect();
    let counted = matches!(kind, "integer" | "number");
    let value_of = |token: &Token<'a>| -> Option<Json> {
        if kind == "string" {
            (plain_ok(token) && token.text.chars().any(|c| c.is_ascii_digit()))
                .then(|| Json::String(token.text.to_owned()))
        } else {
            typed_here(token)
        }
    };
    // "sort code 404784": a name of two words, written as two.
    let spaced: Vec<&str> = names[2].split(' ').collect();
    let lowered: Vec<String> = all.iter().map(|token| token.text.to_lowercase()).collect();
    let mut found = Vec::new();
    for (index, lower) in lowered.iter().enumerate() {
        let word = lower.trim_end_matches('s');
        // "copies" is named "copy" too.
        let one_word = names.iter().any(|name| name.trim_end_matches('s') == word)
            || (lower.len() >= 4 && stems.contains(&crate::lexicon::stem(lower)));
        let two_words = spaced.len() == 2
            && *lower == spaced[0]
            && lowered
                .get(index + 1)
                .is_some_and(|next| next.trim_end_matches('s') == spaced[1].trim_end_matches('s'));
        if !one_word && !two_words {
            continue;
        }
        // "one copy", "a single night", "the fifth floor": a count or a
        // place in order written as a word before the name.
        if counted
            && one_word
            && index > 0
            && let Some(value) = counted_before(&lowered[index - 1], lower)
        {
            found.push((all[index - 1].clone(), Json::from(value)));
            continue;
        }
        // "account number 31926819", "member no. 20481": the name says
        // where its value is, after it.
        let mut after = index + if two_words { 2 } else { 1 };
        let numbered = lowered
            .get(after)
            .is_some_and(|next| matches!(next.as_str(), "number" | "no" | "num" | "#"));
        if numbered {
            after += 1;
        }
        // Both sides: "turn off roaming on LN-1005" has a value before the
        // name and a word after it that looks like one.
        if let Some(next) = all.get(after)
            && let Some(value) = value_of(next)
        {
            found.push((next.clone(), value));
        }
        if kind != "string"
            && !numbered
            && !two_words
            && index > 0
            && let Some(value) = typed_here(&all[index - 1])
        {
            found.push((all[index - 1].clone(), value));
        }
    }
    found
}

/// The one run of content words left in a message once fillers, vocabulary
/// and taken values are removed ("Check the health of payments" → payments).
/// Two separate runs are ambiguous: no value.
pub(super) fn remainder<'a>(
    all: &[Token<'a>],
    taken: &[Entity],
    vocabulary: &Vocabulary,
) -> Option<(Token<'a>, String)> {
    let mut runs: Vec<Vec<&Token<'a>>> = Vec::new();
    let mut current: Vec<&Token<'a>> = Vec::new();
    for token in all {
        let content = token
            .text
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_'))
            && !vocabulary.contains(token.text)
            && !taken.iter().any(|entity| {
                token.start < entity.end && entity.start < token.start + token.text.len()
            });
        // "a huge pothole", "pls report": a modifier or chat shorthand is no
        // name of anything, and never a value by position.
        let lower = token.text.to_lowercase();
        let filler = is_shorthand(&lower)
            || crate::lexicon::lexicon().only_modifies(&crate::lexicon::stem(&lower));
        if content && !filler {
            current.push(token);
        } else if !current.is_empty() {
            runs.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        runs.push(current);
    }
    match runs.as_slice() {
        [run] if run.len() <= 3 => {
            let text = run
                .iter()
                .map(|token| token.text.to_lowercase())
                .collect::<Vec<_>>()
                .join(" ");
            Some((run[0].clone(), text))
        }
        _ => None,
    }
}

/// A plain-string value located by its name: a path-like token for `path`/`file`
/// slots, else the word just before the name ("the checkout service").
pub(super) fn string_by_name<'a>(spec: &EntitySpec, all: &[Token<'a>]) -> Option<Token<'a>> {
    let name = spec.name.to_lowercase();
    if name.contains("path") || name.contains("file") {
        return all
            .iter()
            .find(|token| {
                token.text.contains('/')
                    || token.text.rsplit_once('.').is_some_and(|(stem, ext)| {
                        !stem.is_empty()
                            && !ext.is_empty()
                            && ext.chars().all(|c| c.is_ascii_alphanumeric())
                    })
            })
            .cloned();
    }
    const SKIP: &[&str] = &["the", "a", "an", "my", "our", "this", "that", "of", "for"];
    let position = all
        .iter()
        .position(|token| token.text.eq_ignore_ascii_case(&name))?;
    let before = all[..position].last()?;
    let usable = before
        .text
        .chars()
        .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
        && !SKIP.contains(&before.text.to_lowercase().as_str());
    usable.then(|| before.clone())
}

/// Whether a free text's value is an id in the shape of another slot's
/// pattern ("make SBS-4627 Ethan's regular stop (SID-339021)"): that slot's,
/// never the free text's.
pub(super) fn shaped_for_another(slots: &[Slot], slot: &Slot, entity: &Entity) -> bool {
    entity
        .value
        .as_str()
        .is_some_and(|value| fits_another(slots, slot, value))
}

/// Whether `value` has the shape of another slot's pattern while `slot`
/// (free text or an id of no shape) has none.
fn fits_another(slots: &[Slot], slot: &Slot, value: &str) -> bool {
    slot.pattern.is_none()
        && matches!(
            effective_kind(&slot.spec()).as_str(),
            "string" | "identifier"
        )
        && slots.iter().any(|other| {
            other.name != slot.name
                && other
                    .pattern
                    .as_ref()
                    .is_some_and(|shape| shape.is_match(value))
        })
}
