//! The words a message says no to: a value named there is no value of the
//! request ("Not urgent"; "too big for your finger slips"; "the afternoon
//! rather than the morning").

use serde_json::Value as Json;

use super::{Entity, Token};

/// How many words after a cue it covers ("too big for *your finger slips*").
const REACH: usize = 3;

/// The tokens the message says no to, as entities that take them.
pub(super) fn negated(all: &[Token<'_>]) -> Vec<Entity> {
    let lower: Vec<String> = all.iter().map(|token| token.text.to_lowercase()).collect();
    let word = |at: usize| lower.get(at).map_or("", String::as_str);
    let mut covered: Vec<usize> = Vec::new();
    for at in 0..all.len() {
        // "not urgent", "no rush": the next word. "staff no. 40219" is a
        // number's name, not a no.
        let number_follows = word(at + 1).chars().any(|c| c.is_ascii_digit());
        if matches!(
            word(at),
            "not" | "no" | "non" | "never" | "isn't" | "isnt" | "nothing"
        ) && !(word(at) == "no" && number_follows)
        {
            covered.push(at + 1);
        }
        // "too big for X", "instead of X", "rather than X": a few words on.
        let too_much_for = word(at) == "for" && at >= 2 && word(at - 2) == "too";
        let instead_of = (word(at) == "of" && at >= 1 && word(at - 1) == "instead")
            || (word(at) == "than" && at >= 1 && word(at - 1) == "rather");
        if too_much_for || instead_of {
            covered.extend(at + 1..at + 1 + REACH);
        }
    }
    covered.sort_unstable();
    covered.dedup();
    covered
        .into_iter()
        .filter_map(|at| all.get(at))
        .map(|token| Entity {
            name: String::new(),
            kind: "negated".into(),
            value: Json::Null,
            text: token.text.to_owned(),
            start: token.start,
            end: token.start + token.text.len(),
            guessed: true,
        })
        .collect()
}
