//! The way back: a follow-up that asks for the return trip ("and the same
//! again coming back") carries the earlier request's ends swapped, never as
//! they were.

use std::sync::OnceLock;

use regex::Regex;
use serde_json::{Map, Value as Json};

/// The conversation's values with each pair of ends swapped (`from_port` and
/// `to_port`, `origin` and `destination`) when the message asks for the way
/// back; `None` when it does not, or nothing in memory has two ends.
pub(super) fn the_way_back(memory: &Map<String, Json>, message: &str) -> Option<Map<String, Json>> {
    static BACK: OnceLock<Regex> = OnceLock::new();
    let back = BACK.get_or_init(|| {
        Regex::new(r"(?i)\b(?:coming back|come back|way back|going back|head(?:ing)? back|the return|return (?:trip|journey|leg|crossing|flight)|other way)\b")
            .expect("a valid pattern")
    });
    if !back.is_match(message) {
        return None;
    }
    let mut swapped = memory.clone();
    let mut any = false;
    for name in memory.keys() {
        let Some(other) = other_end(name) else {
            continue;
        };
        if let (Some(this), Some(that)) = (memory.get(name), memory.get(&other)) {
            swapped.insert(name.clone(), that.clone());
            swapped.insert(other, this.clone());
            any = true;
        }
    }
    any.then_some(swapped)
}

/// The input naming the other end of a trip: `from_port` → `to_port`,
/// `origin` → `destination` (only from the start, so each pair swaps once).
fn other_end(name: &str) -> Option<String> {
    let words: Vec<&str> = name.split('_').collect();
    let swap = |from: &str, to: &str| {
        words.contains(&from).then(|| {
            words
                .iter()
                .map(|word| if *word == from { to } else { word })
                .collect::<Vec<_>>()
                .join("_")
        })
    };
    swap("from", "to")
        .or_else(|| swap("origin", "destination"))
        .or_else(|| swap("source", "destination"))
}

#[cfg(test)]
mod tests {
    use super::the_way_back;
    use serde_json::json;

    #[test]
    fn the_way_back_swaps_each_pair_of_ends_once() {
        let memory = json!({"from_port": "BRH", "to_port": "SKL", "date": "2026-12-02"});
        let memory = memory.as_object().unwrap();
        let back = the_way_back(memory, "And the same coming back at 8pm").unwrap();
        assert_eq!(back["from_port"], "SKL");
        assert_eq!(back["to_port"], "BRH");
        assert_eq!(back["date"], "2026-12-02");
        assert!(the_way_back(memory, "And the same on Friday").is_none());
    }
}
