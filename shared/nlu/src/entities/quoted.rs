//! A value written in quotes: `a campaign called "Gift Cards Last Minute"`
//! names the one free-text value the request takes (a name, a title), as
//! written, whatever words it holds.

use super::*;

/// Words that say the quoted text is a name.
const NAMING: &[&str] = &["called", "named", "titled", "name", "title", "as"];

/// The quoted spans of a message: `(start, end, text)`, quotes excluded.
fn spans(message: &str) -> Vec<(usize, usize, &str)> {
    let mut found = Vec::new();
    let mut open: Option<(usize, char)> = None;
    for (index, c) in message.char_indices() {
        match (open, c) {
            (None, '"' | '“') => open = Some((index + c.len_utf8(), c)),
            (Some((start, '"')), '"') | (Some((start, '“')), '”' | '"') => {
                let text = message[start..index].trim();
                // A quote is a short name, never a whole paragraph.
                if !text.is_empty() && text.chars().count() <= 80 {
                    found.push((start, index, text));
                }
                open = None;
            }
            _ => {}
        }
    }
    found
}

/// Whether a slot takes free text: no type, list or pattern says its shape.
fn free_text(slot: &Slot) -> bool {
    effective_kind(&slot.spec()) == "string" && slot.pattern.is_none() && slot.allowed.is_empty()
}

/// The free-text slot a quoted span fills, and its value: the one such slot
/// of the request, or — of several — the one the words before the quote
/// name ("titled", "called" for a `title` or a `name`).
pub(super) fn quoted_value(open: &[&Slot], message: &str, taken: &[Entity]) -> Option<Entity> {
    let free: Vec<&&Slot> = open.iter().filter(|slot| free_text(slot)).collect();
    for (start, end, text) in spans(message) {
        if taken
            .iter()
            .any(|entity| start < entity.end && entity.start < end)
        {
            continue;
        }
        let before: Vec<String> = message[..start]
            .split(|c: char| !c.is_alphanumeric())
            .filter(|word| !word.is_empty())
            .map(str::to_lowercase)
            .collect();
        let named = before
            .iter()
            .rev()
            .take(2)
            .any(|word| NAMING.contains(&word.as_str()));
        let slot = match free.as_slice() {
            [one] => Some(**one),
            several if named => {
                let naming: Vec<&&Slot> = several
                    .iter()
                    .copied()
                    .filter(|slot| {
                        let name = slot.name.to_lowercase();
                        name == "name"
                            || name == "title"
                            || name.ends_with("_name")
                            || name.ends_with("_title")
                    })
                    .collect();
                match naming.as_slice() {
                    [one] => Some(**one),
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(slot) = slot {
            let leading = message[start..end].len() - message[start..end].trim_start().len();
            let at = start + leading;
            return Some(Entity {
                name: slot.name.clone(),
                kind: "string".into(),
                value: Json::String(text.to_owned()),
                text: text.to_owned(),
                start: at,
                end: at + text.len(),
                guessed: false,
            });
        }
    }
    None
}
