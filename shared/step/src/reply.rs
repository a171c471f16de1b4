//! Replies, deterministic default. [`compose`] states what the tools returned
//! that answers the request — through the intent's `reply` template when the
//! skill has one (`{{status}}`), else a plain rendering of each output (a list
//! becomes one line per item). [`polish`] puts it in the skill's voice: an
//! opener that fits the turn (thanks for patience only after the user waited on
//! an ask), the reply, and any contract field the reply does not already state.
//! Formatting only — every fact in the output is in the input.

use serde_json::{Map, Value as Json};

/// Most list items a reply shows; the rest is summarized by count.
const MAX_LIST_ITEMS: usize = 20;

/// An opener chosen from the persona's tone words and the turn (not a fact).
fn opener(persona: &str, waited: bool) -> &'static str {
    let persona = persona.to_lowercase();
    // A concise voice (the persona's words or `communication_style.verbosity`)
    // goes straight to the answer.
    if ["concise", "terse", "brief"]
        .iter()
        .any(|word| persona.contains(word))
    {
        ""
    } else if ["empathetic", "friendly", "warm"]
        .iter()
        .any(|word| persona.contains(word))
    {
        if waited {
            "Thanks for your patience!"
        } else {
            "Happy to help!"
        }
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
        Json::Number(number) => figure(number),
        other => other.to_string(),
    }
}

/// A number as people write it: `700`, not `700.0` (a whole float is shown
/// whole; any other number as JSON writes it).
fn figure(number: &serde_json::Number) -> String {
    match number.as_f64() {
        Some(value) if number.is_f64() && value.fract() == 0.0 && value.abs() < 1e15 => {
            format!("{value:.0}")
        }
        _ => number.to_string(),
    }
}

fn scalar(value: &Json) -> String {
    match value {
        Json::String(text) => text.clone(),
        Json::Null => "none".into(),
        Json::Bool(true) => "yes".into(),
        Json::Bool(false) => "no".into(),
        other => render(other),
    }
}

/// Whether a field says something: an empty text, `null` or an empty object
/// is left out of a reply ("carrier: ," says nothing).
fn says_something(value: &Json) -> bool {
    match value {
        Json::Null => false,
        Json::String(text) => !text.trim().is_empty(),
        Json::Object(map) => !map.is_empty(),
        _ => true,
    }
}

/// An object's fields as a sentence: "ORD-1 is processing — carrier: UPS"
/// when it has an id and a status, else its fields; lists and empty fields
/// left out.
fn head(map: &Map<String, Json>) -> String {
    let present: Vec<(&String, &Json)> = map
        .iter()
        .filter(|(_, value)| !value.is_array() && says_something(value))
        .collect();
    let listed = |fields: &[(&String, &Json)]| {
        fields
            .iter()
            .map(|(key, value)| format!("{}: {}", key.replace('_', " "), scalar(value)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let subject = present.iter().position(|(key, value)| {
        value.is_string()
            && (key.ends_with("_id") || key.ends_with("_number") || *key == "id" || *key == "name")
    });
    let status = present
        .iter()
        .position(|(key, value)| value.is_string() && matches!(key.as_str(), "status" | "state"));
    match (subject, status) {
        (Some(subject), Some(status)) => {
            let rest: Vec<(&String, &Json)> = present
                .iter()
                .enumerate()
                .filter(|(index, _)| *index != subject && *index != status)
                .map(|(_, field)| *field)
                .collect();
            let sentence = format!(
                "{} is {}",
                scalar(present[subject].1),
                scalar(present[status].1)
            );
            if rest.is_empty() {
                sentence
            } else {
                format!("{sentence} — {}", listed(&rest))
            }
        }
        _ => listed(&present),
    }
}

/// One output in plain lines: an object's fields on one line, a list one item
/// per line (at most [`MAX_LIST_ITEMS`]), a scalar as itself.
fn output_lines(label: &str, output: &Json) -> Vec<String> {
    let fields = |map: &Map<String, Json>| {
        map.iter()
            .filter(|(_, value)| !value.is_array() && says_something(value))
            .map(|(key, value)| format!("{}: {}", key.replace('_', " "), scalar(value)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let list = |items: &[Json], lines: &mut Vec<String>| {
        for item in items.iter().take(MAX_LIST_ITEMS) {
            lines.push(match item {
                Json::Object(map) => format!("- {}", fields(map)),
                other => format!("- {}", scalar(other)),
            });
        }
        if items.len() > MAX_LIST_ITEMS {
            lines.push(format!("- … and {} more", items.len() - MAX_LIST_ITEMS));
        }
    };
    let mut lines = Vec::new();
    match output {
        Json::Object(map) => {
            let head = head(map);
            lines.push(if head.is_empty() {
                format!("{label}:")
            } else {
                format!("{label}: {}.", head.trim_end_matches('.'))
            });
            for (key, value) in map {
                if let Json::Array(items) = value {
                    lines.push(format!("{}:", key.replace('_', " ")));
                    if items.is_empty() {
                        lines.push("- none".into());
                    }
                    list(items, &mut lines);
                }
            }
        }
        Json::Array(items) => {
            lines.push(format!("{label}:"));
            list(items, &mut lines);
        }
        other => lines.push(format!("{label}: {}", scalar(other))),
    }
    lines
}

/// `{{name}}` replaced by the value of `name` (a top-level field of `facts`, or
/// a dotted path into one); an unknown name reads "unknown".
pub fn render_template(template: &str, facts: &Map<String, Json>) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            out.push_str(&rest[open..]);
            return out;
        };
        let name = after[..close].trim();
        let mut parts = name.split('.');
        let value = parts
            .next()
            .and_then(|first| facts.get(first))
            .and_then(|value| parts.try_fold(value, |value, part| value.get(part)));
        out.push_str(&value.map_or_else(|| "unknown".to_owned(), scalar));
        rest = &after[close + 2..];
    }
    out.push_str(rest);
    out
}

/// The answer to the request: the intent's reply template rendered over the
/// facts, else each tool output (labelled by its tool) in plain lines.
pub fn compose(
    template: Option<&str>,
    outputs: &[(String, Json)],
    facts: &Map<String, Json>,
) -> String {
    if let Some(template) = template.filter(|template| !template.trim().is_empty()) {
        return render_template(template.trim(), facts);
    }
    let lines: Vec<String> = outputs
        .iter()
        .flat_map(|(label, output)| output_lines(label, output))
        .collect();
    if lines.is_empty() {
        "Done.".into()
    } else {
        lines.join("\n")
    }
}

/// Formats a reply: an opener that fits the turn (`waited`: the user answered
/// an ask during the job), the reply, then each result field the reply does
/// not already state.
pub fn polish(persona: &str, reply: &str, results: &Map<String, Json>, waited: bool) -> String {
    let mut lines = Vec::new();
    let opener = opener(persona, waited);
    if !opener.is_empty() {
        lines.push(opener.to_owned());
    }
    if !reply.trim().is_empty() {
        lines.push(reply.trim().to_owned());
    }
    for (key, value) in results {
        if value.is_null() || (!value.is_object() && reply.contains(&scalar(value))) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_read_as_written() {
        assert_eq!(render(&serde_json::json!(700.0)), "700");
        assert_eq!(render(&serde_json::json!(49.99)), "49.99");
        assert_eq!(render(&serde_json::json!(3)), "3");
        assert_eq!(render(&serde_json::json!({"amount": 700.0})), "amount: 700");
    }
}
