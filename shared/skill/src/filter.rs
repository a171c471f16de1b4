//! What leaves a job of a skill's tool results: `response_filters` remove
//! (`strip_fields`) or mask (`mask_fields`) fields of a result, of its text
//! and of its errors before anything keeps them; a `pii_*` tool's values are
//! personal (shown masked) except the fields its `security.reveal` names;
//! and a tool's error text reaches the user only when it says `show_errors`.

use serde_json::{Map, Value};

use crate::model::Skill;

/// The mask a filtered value is shown as.
pub const MASK: &str = "***";

/// `value` with the skill's `strip_fields` removed and `mask_fields` masked,
/// at any depth of the result: `customer.ssn` is found in `{customer: {ssn}}`,
/// in each item of a list of customers, and under any wrapper object. Text
/// inside the result is filtered too ([`mask_in_strings`]): a plain-text
/// result (`{"text": "ssn: 123-45-6789"}`), blocks of JSON and prose joined
/// into one, or a JSON document in a string carry the field by name, not by
/// structure.
pub fn filter_result(skill: &Skill, value: &mut Value) {
    if skill.response_filters.is_empty() {
        return;
    }
    filter_structure(skill, value);
    mask_in_strings(skill, value);
}

fn filter_structure(skill: &Skill, value: &mut Value) {
    for filter in &skill.response_filters {
        for path in &filter.strip_fields {
            edit(value, &split(path), &mut |map, last| {
                map.remove(last);
            });
        }
        for path in &filter.mask_fields {
            edit(value, &split(path), &mut |map, last| {
                if let Some(found) = map.get_mut(last) {
                    *found = Value::String(MASK.to_owned());
                }
            });
        }
    }
}

/// A tool's text (an error, or a result that is not JSON) with the skill's
/// filters applied: JSON is filtered as a result is; in plain text the value
/// written after a filtered field's name (`ssn: 123-45-6789`, `"ssn": "…"`,
/// `ssn=…`) is masked, stripped fields and masked ones alike.
pub fn filter_text(skill: &Skill, text: &str) -> String {
    if skill.response_filters.is_empty() {
        return text.to_owned();
    }
    if let Ok(mut value) = serde_json::from_str::<Value>(text)
        && (value.is_object() || value.is_array())
    {
        filter_result(skill, &mut value);
        return value.to_string();
    }
    mask_plain(skill, text)
}

/// Plain `text` with the value after each filtered field's name masked.
fn mask_plain(skill: &Skill, text: &str) -> String {
    let mut out = text.to_owned();
    for filter in &skill.response_filters {
        for path in filter.strip_fields.iter().chain(&filter.mask_fields) {
            if let Some(name) = split(path).last() {
                out = mask_named_values(&out, name);
            }
        }
    }
    out
}

/// The text inside a result filtered: a string that is a whole JSON document
/// is filtered as a result (rewritten only when that removed something), and
/// prose — a `text` field, what a server's text blocks become — has the
/// value after each filtered field's name masked. Other strings of a
/// structured result are values, not prose: "Order number: 7" in a `status`
/// is left alone by a filter on `card.number`. Iterative: the depth of a
/// result is the server's choice.
fn mask_in_strings(skill: &Skill, value: &mut Value) {
    let mut stack: Vec<(bool, &mut Value)> = vec![(false, value)];
    while let Some((prose, value)) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items.iter_mut().map(|item| (prose, item))),
            Value::Object(map) => {
                stack.extend(map.iter_mut().map(|(key, item)| (key == "text", item)));
            }
            Value::String(text) => {
                let trimmed = text.trim_start();
                if (trimmed.starts_with('{') || trimmed.starts_with('['))
                    && let Ok(inner) = serde_json::from_str::<Value>(text)
                {
                    let mut filtered = inner.clone();
                    filter_result(skill, &mut filtered);
                    if filtered != inner {
                        *text = filtered.to_string();
                    }
                } else if prose {
                    *text = mask_plain(skill, text);
                }
            }
            _ => {}
        }
    }
}

/// `text` with every value written after `name` and `:` or `=` masked.
/// Linear: one pass per occurrence of the name, each scanning forward only.
fn mask_named_values(text: &str, name: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let name = name.to_ascii_lowercase();
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut from = 0;
    while let Some(found) = lower[from..].find(&name) {
        let start = from + found;
        let mut at = start + name.len();
        from = at;
        let boundary = |i: usize| {
            bytes
                .get(i)
                .is_none_or(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        };
        if (start > 0 && !boundary(start - 1)) || !boundary(at) {
            continue;
        }
        while matches!(bytes.get(at), Some(b'"' | b'\'' | b' ' | b'\t')) {
            at += 1;
        }
        if !matches!(bytes.get(at), Some(b':' | b'=')) {
            continue;
        }
        at += 1;
        while matches!(bytes.get(at), Some(b' ' | b'\t')) {
            at += 1;
        }
        let value_start = at;
        let value_end = match bytes.get(at) {
            Some(quote @ (b'"' | b'\'')) => {
                let close = text[at + 1..]
                    .find(*quote as char)
                    .map_or(text.len(), |i| at + 2 + i);
                close.min(text.len())
            }
            _ => text[at..]
                .find([',', ';', '\n', '}', ']', ')'])
                .map_or(text.len(), |i| at + i),
        };
        if value_end <= value_start {
            continue;
        }
        out.push_str(&text[copied..value_start]);
        out.push_str(MASK);
        copied = value_end;
        from = value_end;
    }
    out.push_str(&text[copied..]);
    out
}

/// Whether the skill lets `tool`'s error text reach the user (`show_errors`).
pub fn shows_errors(skill: &Skill, tool: &str) -> bool {
    skill
        .tools
        .iter()
        .any(|declared| declared.name == tool && declared.show_errors == Some(true))
}

pub(crate) fn split(path: &str) -> Vec<&str> {
    path.trim()
        .trim_start_matches("$.")
        .split('.')
        .filter(|part| !part.is_empty())
        .collect()
}

/// Applies `action` wherever `path` matches, starting at any object of the
/// value (bounded by the value's own depth, which the store already bounds).
fn edit(value: &mut Value, path: &[&str], action: &mut dyn FnMut(&mut Map<String, Value>, &str)) {
    if path.is_empty() {
        return;
    }
    apply_at(value, path, action);
    match value {
        Value::Object(map) => {
            for child in map.values_mut() {
                edit(child, path, action);
            }
        }
        Value::Array(items) => {
            for child in items {
                edit(child, path, action);
            }
        }
        _ => {}
    }
}

fn apply_at(
    value: &mut Value,
    path: &[&str],
    action: &mut dyn FnMut(&mut Map<String, Value>, &str),
) {
    match value {
        Value::Object(map) => {
            if path.len() == 1 {
                action(map, path[0]);
            } else if let Some(child) = map.get_mut(path[0]) {
                apply_at(child, &path[1..], action);
            }
        }
        Value::Array(items) => {
            for item in items {
                apply_at(item, path, action);
            }
        }
        _ => {}
    }
}

/// Whether a tool's classification makes its results personal data
/// (`pii_read`, `pii_write`, …): masked in logs and the console by default.
pub fn is_personal(skill: &Skill, tool: &str) -> bool {
    skill.tools.iter().any(|declared| {
        declared.name == tool
            && declared
                .security
                .as_ref()
                .and_then(|security| security.classification.as_deref())
                .is_some_and(|class| class.to_ascii_lowercase().starts_with("pii"))
    })
}

/// Values of a personal (`pii_*`) tool's `result` that are never shown: every
/// [`maskable`] scalar at any depth, but those under the tool's
/// `security.reveal` fields.
pub fn personal_values(skill: &Skill, tool: &str, result: &Value) -> Vec<String> {
    if !is_personal(skill, tool) {
        return Vec::new();
    }
    let mut shown = result.clone();
    let reveal: Vec<String> = skill
        .tools
        .iter()
        .filter(|declared| declared.name == tool)
        .filter_map(|declared| declared.security.as_ref())
        .flat_map(|security| security.reveal.clone())
        .collect();
    // Revealed fields are taken out first; what is left is personal.
    for path in &reveal {
        edit(&mut shown, &split(path), &mut |map, last| {
            map.remove(last);
        });
    }
    let mut values = Vec::new();
    collect_leaves(&shown, &mut values);
    // A value the skill itself lists as allowed ("diesel" of `fuel_type`),
    // or a word of its own names ("stay" of `book_stay`, a booking's type),
    // is its vocabulary, not a person's data: masking it would blank every
    // call and reply that uses the word — tool names included.
    let named = skill
        .tools
        .iter()
        .flat_map(|tool| {
            std::iter::once(tool.name.as_str())
                .chain(tool.inputs.iter().map(|input| input.name.as_str()))
        })
        .chain(
            skill
                .intents
                .iter()
                .flat_map(|intents| &intents.supported)
                .map(|intent| intent.id.as_str()),
        )
        // Every run of its words: "missed_pickup" of `report_missed_pickup`.
        .flat_map(|name| {
            let parts: Vec<&str> = name.split(['_', '.', '-']).collect();
            let mut runs = Vec::new();
            for start in 0..parts.len() {
                for end in start + 1..=parts.len() {
                    runs.push(parts[start..end].join("_"));
                    runs.push(parts[start..end].join(" "));
                }
            }
            runs
        })
        .filter(|word| word.chars().count() >= 3)
        .map(|word| word.to_lowercase());
    let vocabulary: Vec<String> = skill
        .allowed_values()
        .filter_map(maskable)
        .map(|value| value.to_lowercase())
        .chain(named)
        .collect();
    values.retain(|value| !vocabulary.contains(&value.to_lowercase()));
    values.sort();
    values.dedup();
    values
}

fn collect_leaves(value: &Value, out: &mut Vec<String>) {
    // Iterative: a result's depth is the server's choice.
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            leaf => out.extend(maskable(leaf)),
        }
    }
}

/// A scalar as it is masked: a string of three characters or more, or a
/// number of four digits or more (a shorter one would mask every "1" or "ok"
/// of a reply instead).
pub fn maskable(value: &Value) -> Option<String> {
    match value {
        Value::String(text) if text.trim().chars().count() >= 3 => Some(text.trim().to_owned()),
        Value::Number(number) if number.to_string().len() >= 4 => Some(number.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn scheduling() -> Skill {
        serde_json::from_value(json!({
            "response_filters": [{"strip_fields": ["customer.ssn"], "mask_fields": ["customer.email"]}]
        }))
        .unwrap()
    }

    #[test]
    fn filters_strip_and_mask_at_any_depth() {
        let skill = scheduling();
        let mut value = json!({"customer": {"ssn": "123-45-6789", "email": "a@b.c", "name": "Ann"},
            "orders": [{"customer": {"ssn": "9", "email": "x@y.z"}}]});
        filter_result(&skill, &mut value);
        let text = value.to_string();
        assert!(
            !text.contains("123-45-6789") && !text.contains("\"9\"") && !text.contains("a@b.c")
        );
        assert_eq!(value["customer"]["email"], json!(MASK));
        assert_eq!(value["customer"]["name"], json!("Ann"));
    }

    #[test]
    fn text_and_error_payloads_are_filtered_too() {
        let skill = scheduling();
        let json = filter_text(
            &skill,
            r#"{"customer": {"ssn": "123-45-6789", "email": "a@b.c"}}"#,
        );
        assert!(
            !json.contains("123-45-6789") && !json.contains("a@b.c"),
            "{json}"
        );
        for text in [
            "lookup failed for ssn: 123-45-6789, try again",
            r#"bad record {"ssn": "123-45-6789"}"#,
            "SSN=123-45-6789; email = 'a@b.c'",
        ] {
            let shown = filter_text(&skill, text);
            assert!(
                !shown.contains("123-45-6789") && !shown.contains("a@b.c"),
                "{shown}"
            );
            assert!(shown.contains(MASK), "{shown}");
        }
        // A word that merely contains the name is not a field.
        assert_eq!(filter_text(&skill, "classn: 1"), "classn: 1");
    }

    #[test]
    fn a_plain_text_or_mixed_success_result_is_filtered_by_name() {
        let skill = scheduling();
        // What a server answering prose, or a JSON block beside a text block,
        // becomes once its blocks are joined.
        for mut value in [
            json!({"text": "Customer Ann, ssn: 123-45-6789, email: a@b.c"}),
            json!({"text": "{\"customer\": {\"ssn\": \"123-45-6789\"}}\nemail = a@b.c"}),
            json!([{"customer": {"name": "Ann"}}, {"text": "SSN: 123-45-6789 / email=a@b.c"}]),
            json!({"raw": "{\"customer\": {\"ssn\": \"123-45-6789\", \"email\": \"a@b.c\"}}"}),
        ] {
            filter_result(&skill, &mut value);
            let shown = value.to_string();
            assert!(
                !shown.contains("123-45-6789") && !shown.contains("a@b.c"),
                "{shown}"
            );
        }
        let mut clean = json!({"text": "Ann booked room 4"});
        filter_result(&skill, &mut clean);
        assert_eq!(clean, json!({"text": "Ann booked room 4"}));
        // A value is not prose: a filter's field name inside one is left.
        let mut values = json!({"status": "email: sent", "raw": "{\"a\": 1.50}"});
        filter_result(&skill, &mut values);
        assert_eq!(
            values,
            json!({"status": "email: sent", "raw": "{\"a\": 1.50}"})
        );
    }
}

#[cfg(test)]
mod personal {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_personal_result_masks_its_values_but_the_skills_own_words() {
        let skill: Skill = serde_json::from_value(json!({
            "tools": [
                {"name": "get_boat", "security": {"classification": "pii_read", "reveal": ["name"]}},
                {"name": "order_fuel", "inputs": [{"name": "fuel_type", "enum": ["diesel", "gasoline"]}]}
            ]
        }))
        .unwrap();
        let result = json!({"name": "Blue Heron", "owner": "Priya Anand", "fuel": "diesel"});
        assert_eq!(
            personal_values(&skill, "get_boat", &result),
            vec!["Priya Anand"]
        );
        assert!(personal_values(&skill, "order_fuel", &result).is_empty());
        // A word of the skill's own names (a booking of type "stay" beside
        // `book_stay`) is no person's data: it would blank the tool's name.
        let kennel: Skill = serde_json::from_value(json!({
            "tools": [
                {"name": "get_booking", "security": {"classification": "pii_read"}},
                {"name": "book_stay"}
            ]
        }))
        .unwrap();
        let booking =
            json!({"type": "stay", "kind": "book_stay", "pet": "Biscuit", "owner": "Ana Ruiz"});
        assert_eq!(
            personal_values(&kennel, "get_booking", &booking),
            vec!["Ana Ruiz", "Biscuit"]
        );
    }
}
