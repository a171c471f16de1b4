//! The reply polisher, deterministic default: the reply and the results in the
//! skill's voice. Formatting only — every fact in the output is in the input.

use serde_json::{Map, Value as Json};

/// An opener chosen from the persona's tone words (not a fact).
fn opener(persona: &str) -> &'static str {
    let persona = persona.to_lowercase();
    if ["empathetic", "friendly", "warm"]
        .iter()
        .any(|word| persona.contains(word))
    {
        "Thanks for your patience!"
    } else if ["calm", "precise", "concise", "terse"]
        .iter()
        .any(|word| persona.contains(word))
    {
        ""
    } else {
        "Here is what I found."
    }
}

fn render(value: &Json) -> String {
    match value {
        Json::String(text) => text.clone(),
        Json::Array(items) => items.iter().map(render).collect::<Vec<_>>().join(", "),
        Json::Object(map) => map
            .iter()
            .map(|(key, value)| format!("{}: {}", key.replace('_', " "), render(value)))
            .collect::<Vec<_>>()
            .join("; "),
        other => other.to_string(),
    }
}

/// Formats a reply: opener, the draft reply, then one line per result field.
pub fn polish(persona: &str, reply: &str, results: &Map<String, Json>) -> String {
    let mut lines = Vec::new();
    let opener = opener(persona);
    if !opener.is_empty() {
        lines.push(opener.to_owned());
    }
    if !reply.trim().is_empty() {
        lines.push(reply.trim().to_owned());
    }
    for (key, value) in results {
        if value.is_null() {
            continue;
        }
        let label = key.replace('_', " ");
        let mut label_chars = label.chars();
        let label = label_chars
            .next()
            .map(|first| first.to_uppercase().collect::<String>() + label_chars.as_str())
            .unwrap_or_default();
        lines.push(format!("- {label}: {}", render(value)));
    }
    lines.join("\n")
}
