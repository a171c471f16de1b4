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
        for word in plain_words(&text.replace(['_', '-'], " ")) {
            let word = word.to_lowercase();
            if word.len() >= 3 && !FILLER.contains(&word.as_str()) {
                found.push((crate::lexicon::stem(&word), value.clone(), named));
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
pub(super) fn domain_stems(skill: &adas_skill::model::Skill) -> std::collections::HashSet<String> {
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
    let mut named: Vec<(&Token<'_>, &Json, bool)> = Vec::new();
    for token in all.iter().filter(|token| !by_name::overlaps(token, taken)) {
        let stem = crate::lexicon::stem(&token.text.to_lowercase());
        if let Some((_, value, own)) = slot.aliases.iter().find(|(alias, _, _)| *alias == stem) {
            named.push((token, value, *own));
        }
    }
    let (token, value, _) = named.first()?;
    if named.iter().any(|(_, other, _)| other != value) {
        return None;
    }
    // Named by one of its own words ("the lease" of `end_of_lease`), else
    // suggested by its description ("a cab" of `travel`): a guess.
    let own = named.iter().any(|(_, _, own)| *own);
    Some(found(&slot.name, "enum", (*value).clone(), token, !own))
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
