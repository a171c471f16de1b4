//! What points at a slot's value besides its type: the words that name an
//! allowed value (its own, or its description's), and the direction words
//! that tell two values of one kind apart ("from" / "to").

use serde_json::Value as Json;

use super::{Entity, FILLER, Slot, Token, by_name, found, plain_words};

/// The stems that name each allowed value (see [`Slot::aliases`]): the words
/// of the description after the value up to the next value, and the value's
/// own words; a stem two values share names neither.
pub(super) fn aliases(allowed: &[Json], descriptions: &[String]) -> Vec<(String, Json, bool)> {
    let values: Vec<(&Json, String)> = allowed
        .iter()
        .filter_map(|value| value.as_str().map(|name| (value, name.to_lowercase())))
        .collect();
    if values.is_empty() {
        return Vec::new();
    }
    // `(stem, value, named)`: the value's own words name it; its
    // description's words only suggest it (a guess, confirmed before any
    // side effect).
    let mut found: Vec<(String, Json, bool)> = Vec::new();
    let mut add = |text: &str, value: &Json, named: bool| {
        let mut previous: Option<String> = None;
        for word in plain_words(&text.replace(['_', '-'], " ")) {
            let word = word.to_lowercase();
            if word.len() >= 3 && !FILLER.contains(&word.as_str()) {
                let stem = crate::lexicon::stem(&word);
                // Two words running in a description ("cherry picker") are
                // kept as a phrase too: see `by_description`.
                if let Some(before) = previous.take().filter(|_| !named) {
                    found.push((format!("{before} {stem}"), value.clone(), false));
                }
                found.push((stem.clone(), value.clone(), named));
                previous = Some(stem);
            } else {
                previous = None;
            }
        }
    };
    for (value, name) in &values {
        add(name, value, true);
    }
    for description in descriptions {
        let lower = description.to_lowercase();
        // Where each value is named in the description, in order.
        let mut at: Vec<(usize, usize, &Json)> = values
            .iter()
            .filter_map(|(value, name)| {
                lower
                    .match_indices(name.as_str())
                    .find(|(start, _)| {
                        let before = lower[..*start].chars().last();
                        let after = lower[start + name.len()..].chars().next();
                        before.is_none_or(|c| !c.is_alphanumeric() && c != '_')
                            && after.is_none_or(|c| !c.is_alphanumeric() && c != '_')
                    })
                    .map(|(start, _)| (start, start + name.len(), *value))
            })
            .collect();
        at.sort_by_key(|(start, _, _)| *start);
        for (index, (_, end, value)) in at.iter().enumerate() {
            let until = at.get(index + 1).map_or(lower.len(), |(next, _, _)| *next);
            add(&lower[*end..until], value, false);
        }
    }
    let mut unique: Vec<(String, Json, bool)> = Vec::new();
    for (stem, value, named) in &found {
        let names_another = found
            .iter()
            .any(|(other, theirs, _)| other == stem && theirs != value);
        if names_another {
            continue;
        }
        match unique.iter_mut().find(|(known, _, _)| known == stem) {
            Some(known) => known.2 |= *named,
            None => unique.push((stem.clone(), value.clone(), *named)),
        }
    }
    unique
}

/// The stems of the words a skill says of its whole domain: its own, its
/// intents' and its tools' descriptions ("patient", "ward", "bed").
pub(super) fn domain_stems(skill: &adas_skill::model::Skill) -> crate::HashSet<String> {
    let intents = skill.intents.iter().flat_map(|intents| &intents.supported);
    skill
        .description
        .iter()
        .chain(intents.filter_map(|intent| intent.description.as_ref()))
        .chain(
            skill
                .tools
                .iter()
                .filter_map(|tool| tool.description.as_ref()),
        )
        .flat_map(|text| plain_words(text).map(|word| crate::lexicon::stem(&word.to_lowercase())))
        .collect()
}

/// The glossary's meanings of `allowed` values, as descriptions of them: a
/// term that is a value (`CCU: Coronary care unit (cardiac unit)`, `boom
/// lift: … a cherry picker`) is described by its meaning, and a meaning that
/// names values itself (`Signers: ceo = Rachel Okafor, cfo = …`) describes
/// each. Words the skill says of its whole domain (its own, its intents' and
/// its tools' descriptions: "ward", "bed") are left out: they name no one
/// value.
pub(super) fn glossed(skill: &adas_skill::model::Skill, allowed: &[Json]) -> Vec<String> {
    let normal = |text: &str| text.to_lowercase().replace(['_', '-'], " ");
    // Each value with its name as people write it ("boom lift").
    let names: Vec<(&str, String)> = allowed
        .iter()
        .filter_map(Json::as_str)
        .map(|value| (value, normal(value)))
        .collect();
    if names.is_empty() || skill.glossary.is_empty() {
        return Vec::new();
    }
    let domain = domain_stems(skill);
    let mut described = Vec::new();
    for (term, meaning) in &skill.glossary {
        let meaning: Vec<&str> = plain_words(meaning)
            .filter(|word| !domain.contains(&crate::lexicon::stem(&word.to_lowercase())))
            .collect();
        let meaning = meaning.join(" ");
        // Written with the value as it is, so the description names it.
        if let Some((value, _)) = names.iter().find(|(_, name)| *name == normal(term)) {
            described.push(format!("{value} {meaning}"));
        } else if names
            .iter()
            .any(|(value, _)| plain_words(&meaning).any(|word| word == *value))
        {
            described.push(meaning);
        }
    }
    described
}

/// An allowed value named by its description's words (see
/// [`Slot::aliases`]): the one value the message's words name.
pub(super) fn by_description(slot: &Slot, all: &[Token<'_>], taken: &[Entity]) -> Option<Entity> {
    let mut named: Vec<(usize, &Token<'_>, &Json, bool)> = Vec::new();
    for (at, token) in all.iter().enumerate() {
        // "from Brennhaven to Tarvey": the port after "to" is no departure.
        if by_name::overlaps(token, taken) || by_name::led_the_other_way(slot, all, token) {
            continue;
        }
        let stem = crate::lexicon::stem(&token.text.to_lowercase());
        // A name the description gives a value names it even where the
        // word is the whole domain's too ("Brennhaven", the company's port).
        // Written as a name, capitalized.
        let name = name_alias(&stem);
        let capitalized = token.text.starts_with(|c: char| c.is_uppercase());
        if let Some((_, value, own)) = slot
            .aliases
            .iter()
            .find(|(alias, _, _)| *alias == stem)
            .or_else(|| {
                slot.aliases
                    .iter()
                    .find(|(alias, _, _)| capitalized && *alias == name)
            })
        {
            named.push((at, token, value, *own));
        }
    }
    let (_, token, value, _) = named.first()?;
    if named.iter().any(|(_, _, other, _)| other != value) {
        return None;
    }
    // Named by one of its own words ("the lease" of `end_of_lease`), or by
    // two words running that only its description says ("a cherry picker"
    // of `boom_lift: … what crews call a cherry picker`): said. Else only
    // suggested by its description ("a cab" of `travel`): a guess.
    // Not a name the message carries its code beside ("Fort Wayne (FTW)",
    // as `written` marks it): the code is the value said there.
    let coded = |at: usize| {
        all.get(at + 1).is_some_and(|next| {
            slot.allowed
                .iter()
                .any(|allowed| allowed.as_str() == Some(next.text))
        })
    };
    // "with Dr. Okafor": a name only its description gives — and no name
    // the description gives another value is said too ("get Marcus to sign,
    // he's covering for Priya").
    let named_as = |token: &Token<'_>| {
        let name = name_alias(&crate::lexicon::stem(&token.text.to_lowercase()));
        slot.aliases
            .iter()
            .filter(move |(alias, _, _)| *alias == name)
            .map(|(_, value, _)| value)
    };
    let others_named = all
        .iter()
        .filter(|token| {
            !by_name::overlaps(token, taken) && !by_name::led_the_other_way(slot, all, token)
        })
        .flat_map(named_as)
        .any(|other| {
            named
                .first()
                .is_some_and(|(_, _, value, _)| other != *value)
        });
    let proper = !others_named
        && named.iter().any(|(at, token, value, _)| {
            let name = name_alias(&crate::lexicon::stem(&token.text.to_lowercase()));
            // "Fort Ellis (NTH)": the code beside the name is what is said.
            let code_follows = coded(*at)
                || (named.iter().any(|(other, _, _, _)| *other == at + 1) && coded(at + 1));
            !code_follows
                && slot
                    .aliases
                    .iter()
                    .any(|(alias, of, _)| *alias == name && of == *value)
        });
    let phrase = named.windows(2).find(|pair| {
        let said = format!(
            "{} {}",
            crate::lexicon::stem(&pair[0].1.text.to_lowercase()),
            crate::lexicon::stem(&pair[1].1.text.to_lowercase())
        );
        let coded = coded(pair[1].0);
        pair[1].0 == pair[0].0 + 1
            && !coded
            && slot
                .aliases
                .iter()
                .any(|(alias, named, _)| *alias == said && named == *value)
    });
    let own = phrase.is_some() || proper || named.iter().any(|(_, _, _, own)| *own);
    // Where two running words said it ("at the Halvorsen Foods drive"),
    // the value is those words, not the first lone word that suggests it.
    let Some([(_, first, _, _), (_, second, _, _)]) = phrase else {
        return Some(found(&slot.name, "enum", (*value).clone(), token, !own));
    };
    let end = second.start + second.text.len();
    let mut entity = found(&slot.name, "enum", (*value).clone(), first, !own);
    entity.text = all
        .iter()
        .filter(|token| token.start >= first.start && token.start < end)
        .map(|token| token.text)
        .collect::<Vec<_>>()
        .join(" ");
    entity.end = end;
    Some(entity)
}

/// Whether the message describes another allowed value of `slot` than
/// `value` by two words or more of that value's description ("cooked …
/// corks pushed up" of `heat_damaged (cooked, pushed cork)`, beside the
/// `corked` its "corks" names): the value its own word names is then
/// contested — a guess, never acted on unasked.
pub(super) fn described_otherwise(
    slot: &Slot,
    all: &[Token<'_>],
    taken: &[Entity],
    value: &Json,
) -> bool {
    let mut stems: Vec<(String, &Json)> = Vec::new();
    for token in all.iter().filter(|token| !by_name::overlaps(token, taken)) {
        let stem = crate::lexicon::stem(&token.text.to_lowercase());
        if let Some((_, other, _)) = slot
            .aliases
            .iter()
            .find(|(alias, other, own)| *alias == stem && !own && other != value)
            && !stems.iter().any(|(known, _)| *known == stem)
        {
            stems.push((stem, other));
        }
    }
    stems
        .iter()
        .any(|(_, other)| stems.iter().filter(|(_, theirs)| theirs == other).count() >= 2)
}

/// Another allowed value of `slot` than `value` that the message names by
/// its own word, outside `taken` ("nobody is in Thursday *morning* — can it
/// come Thursday *afternoon* instead?"): of two values named, the one
/// "instead" follows is wanted; else which one is a guess.
fn named_instead(
    slot: &Slot,
    all: &[Token<'_>],
    taken: &[Entity],
    entity: &Entity,
) -> Option<(Entity, bool)> {
    let value = &entity.value;
    // The noun a value qualifies ("cross-country *skis*") names no rival.
    let after_own = all
        .iter()
        .position(|token| token.start >= entity.end)
        .map(|at| all[at].start);
    // A part of the day may be read into a date ("Friday afternoon"): it
    // still names its slot value.
    let taken: Vec<Entity> = taken
        .iter()
        .filter(|entity| entity.kind != "date")
        .cloned()
        .collect();
    let named: Vec<(usize, &Json)> = all
        .iter()
        .enumerate()
        .filter(|(_, token)| !by_name::overlaps(token, &taken))
        .filter(|(_, token)| Some(token.start) != after_own)
        .filter_map(|(at, token)| {
            let stem = crate::lexicon::stem(&token.text.to_lowercase());
            // A word of a value of several words ("*order*" of `wrong
            // order`) names no value alone.
            slot.aliases
                .iter()
                .find(|(alias, other, own)| {
                    *alias == stem
                        && *own
                        && other != value
                        && other
                            .as_str()
                            .is_some_and(|name| crate::lexicon::stem(&name.to_lowercase()) == stem)
                })
                .map(|(_, other, _)| (at, other))
        })
        .collect();
    let (at, other) = named.first()?;
    if named.iter().any(|(_, theirs)| theirs != other) {
        return None;
    }
    Some((
        found(&slot.name, "enum", (*other).clone(), &all[*at], false),
        instead_after(all, *at),
    ))
}

/// Whether "instead" follows the token at `at` ("… the morning instead?").
fn instead_after(all: &[Token<'_>], at: usize) -> bool {
    all.get(at + 1).is_some_and(|next| {
        next.text
            .trim_matches(|c: char| !c.is_alphanumeric())
            .eq_ignore_ascii_case("instead")
    })
}

/// The word before the token at `at`, past "down", "up", "over", "back"
/// and articles ("from Business *down* to Team", "from *the* morning").
fn word_before(all: &[Token<'_>], at: usize) -> String {
    let mut at = at;
    while let Some(before) = at.checked_sub(1) {
        let word = all[before].text.to_lowercase();
        if !matches!(
            word.as_str(),
            "down" | "up" | "over" | "back" | "the" | "a" | "an" | "our" | "my"
        ) {
            return word;
        }
        at = before;
    }
    String::new()
}

/// Each value of a list in `found` read again beside the other values of
/// its list the message names (outside `negated`): the one "instead"
/// follows is taken, or the one a change goes *to* ("from Business down
/// to Team"); the one it comes *from* is no rival; with none marked, which
/// one is a guess. A slot that is itself a direction (`from_site`) is read
/// by its direction already.
pub(super) fn prefer_instead(
    slots: &[Slot],
    all: &[Token<'_>],
    found: &mut [Entity],
    negated: &[Entity],
) {
    for at in 0..found.len() {
        let Some(slot) = slots.iter().find(|slot| slot.name == found[at].name) else {
            continue;
        };
        if !direction_cues(&slot.name).is_empty() {
            continue;
        }
        let own = all.iter().position(|token| token.start == found[at].start);
        if own.is_some_and(|own| instead_after(all, own)) {
            continue;
        }
        let others: Vec<Entity> = (found.iter().enumerate())
            .filter(|(other, _)| *other != at)
            .map(|(_, entity)| entity.clone())
            .chain(negated.iter().cloned())
            .collect();
        let Some((other, instead)) = named_instead(slot, all, &others, &found[at]) else {
            continue;
        };
        let before_other = all
            .iter()
            .position(|token| token.start == other.start)
            .map(|other| word_before(all, other))
            .unwrap_or_default();
        let before_own = own.map(|own| word_before(all, own)).unwrap_or_default();
        if before_other == "from" {
            continue;
        }
        let to_other = matches!(before_other.as_str(), "to" | "into") && before_own == "from";
        if instead || to_other {
            found[at] = other;
        } else {
            found[at].guessed = true;
        }
    }
}

/// The words that point at a slot's value by its direction: `from_site`
/// takes the site after "from", `to_site` (or `deliver_to`) the one after
/// "to" — of two sites in one message, each its own.
pub(super) fn direction_cues(name: &str) -> Vec<String> {
    let words: Vec<String> = name.split(['_', '-']).map(str::to_lowercase).collect();
    let has = |wanted: &[&str]| words.iter().any(|word| wanted.contains(&word.as_str()));
    if has(&["from", "source", "origin"]) {
        vec!["from".into(), "out".into()]
    } else if has(&["to", "destination", "target", "into"]) {
        vec!["to".into(), "into".into(), "onto".into()]
    } else {
        Vec::new()
    }
}

/// The alias a name the description gives a value is kept under
/// (`=okafor`), apart from the words that only suggest the value: see
/// [`proper_names`] and [`by_description`].
pub(super) fn name_alias(stem: &str) -> String {
    format!("={stem}")
}

/// The names a description gives its values ("DDS1 Dr. Amara Okafor",
/// "PRO-01 (Dana, head pro)", "cfo = Priya Raman"), as `(stem, value)`: a
/// capitalized word after a title, after another such name, or right after
/// the value it names (opening a parenthesis, after "=" or ":", or a word
/// no dictionary knows) — not a word that merely opens the value's
/// description ("HALF Standard half-day session").
pub(super) fn proper_names(descriptions: &[String], allowed: &[Json]) -> Vec<(String, Json)> {
    const TITLES: &[&str] = &["dr", "mr", "mrs", "ms", "miss", "prof", "coach", "captain"];
    let value_of = |word: &str| {
        allowed.iter().find(|value| {
            value
                .as_str()
                .is_some_and(|name| name.eq_ignore_ascii_case(word))
        })
    };
    let mut names: Vec<(String, Json)> = Vec::new();
    for description in descriptions {
        // "general counsel = Dana Whitfield" names `general_counsel`.
        let mut description = description.clone();
        for name in allowed
            .iter()
            .filter_map(Json::as_str)
            .filter(|name| name.contains('_'))
        {
            let spaced = regex::escape(&name.replace('_', " "));
            if let Ok(written) = regex::Regex::new(&format!(r"(?i)\b{spaced}\b")) {
                description = written.replace_all(&description, name).into_owned();
            }
        }
        let mut current: Option<&Json> = None;
        // What the word before was: a value's code, its "=" or ":", a
        // title, or a name.
        let (mut after_value, mut after_sign, mut after_title, mut after_name) =
            (false, false, false, false);
        for raw in description.split_whitespace() {
            let word = raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '_' && c != '-');
            if let Some(value) = value_of(word) {
                current = Some(value);
                (after_value, after_sign, after_title, after_name) = (true, false, false, false);
                continue;
            }
            if matches!(raw, "=" | ":" | "-" | "—" | "–") {
                after_sign = after_value;
                continue;
            }
            let lower = word.to_lowercase();
            let stem = crate::lexicon::stem(&lower);
            let capitalized = word.chars().count() >= 3
                && word.chars().next().is_some_and(char::is_uppercase)
                && word.chars().skip(1).all(|c| c.is_lowercase() || c == '\'');
            let beside_value = after_value
                && (after_sign || raw.starts_with('(') || !crate::lexicon::lexicon().knows(&stem));
            let name = capitalized && (after_title || after_name || beside_value);
            if let (true, Some(value)) = (name, current) {
                names.push((stem, value.clone()));
            }
            let title = TITLES.contains(&lower.as_str());
            after_name = name && !raw.ends_with(['.', ',', ';', ')']);
            after_title = title;
            (after_value, after_sign) = (false, false);
        }
    }
    // A name two values share names neither.
    let shared: Vec<String> = names
        .iter()
        .filter(|(stem, value)| {
            names
                .iter()
                .any(|(other, theirs)| other == stem && theirs != value)
        })
        .map(|(stem, _)| stem.clone())
        .collect();
    names.retain(|(stem, _)| !shared.contains(stem));
    names
}

/// The descriptions of the inputs named otherwise that take the same list of
/// values ("Language to translate into (same codes as source_language)"):
/// they name the values of this one too.
pub(super) fn same_list_described(
    skill: &adas_skill::model::Skill,
    name: &str,
    allowed: &[Json],
) -> Vec<String> {
    if allowed.is_empty() {
        return Vec::new();
    }
    skill
        .tools
        .iter()
        .flat_map(|tool| &tool.inputs)
        .filter(|other| other.name != name && other.allowed == allowed)
        .filter_map(|other| other.description.clone())
        .collect()
}
