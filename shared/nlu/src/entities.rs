//! Typed entity extraction for an intent's entities: explicit forms first
//! ("my order id is X", `order_id=X`, `order_id: X`), then by type — email,
//! phone, integer, number, money, ISO date, yes/no, enum values, identifiers
//! shaped like those in the intent's examples (`ORD-12345`) — with the entity's
//! name as a hint when its type is a plain string (an entity called `email` is
//! an email).

use adas_skill::model::{Entity as EntitySpec, Intent};
use serde_json::{Map, Value as Json};

/// An entity found in a message.
#[derive(Debug, Clone, PartialEq)]
pub struct Entity {
    /// Entity name.
    pub name: String,
    /// The type it was read as.
    pub kind: String,
    /// The typed value.
    pub value: Json,
    /// The text it was read from.
    pub text: String,
    /// Byte offset of `text` in the message.
    pub start: usize,
    /// Byte offset just past `text`.
    pub end: usize,
}

/// A token of the message with its byte span.
#[derive(Debug, Clone)]
struct Token<'a> {
    text: &'a str,
    start: usize,
}

fn tokens(message: &str) -> Vec<Token<'_>> {
    let mut tokens = Vec::new();
    let mut start = None;
    for (index, c) in message.char_indices() {
        let part_of_token =
            !c.is_whitespace() && !matches!(c, ',' | ';' | '!' | '?' | '(' | ')' | '"' | '=');
        match (part_of_token, start) {
            (true, None) => start = Some(index),
            (false, Some(begin)) => {
                tokens.push(Token {
                    text: &message[begin..index],
                    start: begin,
                });
                start = None;
            }
            _ => {}
        }
    }
    if let Some(begin) = start {
        tokens.push(Token {
            text: &message[begin..],
            start: begin,
        });
    }
    // Sentence punctuation is not part of a value.
    tokens
        .into_iter()
        .map(|token| {
            let trimmed = token
                .text
                .trim_end_matches(['.', ':', '\''])
                .trim_start_matches(['\'', '#']);
            let offset = token.text.find(trimmed).unwrap_or(0);
            Token {
                text: trimmed,
                start: token.start + offset,
            }
        })
        .filter(|token| !token.text.is_empty())
        .collect()
}

fn found(spec: &EntitySpec, kind: &str, value: Json, token: &Token<'_>) -> Entity {
    Entity {
        name: spec.name.clone(),
        kind: kind.to_owned(),
        value,
        text: token.text.to_owned(),
        start: token.start,
        end: token.start + token.text.len(),
    }
}

/// The type used for extraction: the declared one, or one guessed from the name.
fn effective_kind(spec: &EntitySpec) -> String {
    let declared = spec
        .kind
        .clone()
        .unwrap_or_else(|| "string".into())
        .to_lowercase();
    if declared != "string" && declared != "text" {
        return declared;
    }
    let name = spec.name.to_lowercase();
    if name.contains("email") {
        "email".into()
    } else if name.contains("phone") {
        "phone".into()
    } else if name.ends_with("_id") || name == "id" || name.contains("number") {
        "identifier".into()
    } else if name.contains("amount") || name.contains("price") {
        "money".into()
    } else {
        "string".into()
    }
}

fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.split_once('@') else {
        return false;
    };
    !local.is_empty() && domain.contains('.') && !domain.starts_with('.') && !domain.ends_with('.')
}

fn parse_number(text: &str) -> Option<f64> {
    let cleaned = text.trim_start_matches(['$', '€', '£']).replace(',', "");
    if cleaned.is_empty()
        || !cleaned
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c == '-')
    {
        return None;
    }
    cleaned.parse().ok()
}

fn number_json(value: f64) -> Json {
    if value.fract() == 0.0 && value.abs() < 9.0e15 {
        Json::from(value as i64)
    } else {
        serde_json::Number::from_f64(value).map_or(Json::Null, Json::Number)
    }
}

fn is_identifier(text: &str) -> bool {
    let has_digit = text.chars().any(|c| c.is_ascii_digit());
    let has_alpha = text.chars().any(|c| c.is_ascii_alphabetic());
    let shaped = text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'));
    has_digit && has_alpha && shaped && !is_email(text)
}

/// The prefix of identifiers in the intent's examples (`ORD-` from `ORD-12345`).
fn example_prefixes(intent: &Intent) -> Vec<String> {
    intent
        .examples
        .iter()
        .flat_map(|example| {
            tokens(example)
                .into_iter()
                .map(|token| token.text.to_owned())
                .collect::<Vec<_>>()
        })
        .filter(|text| is_identifier(text))
        .filter_map(|text| {
            text.find(|c: char| c.is_ascii_digit())
                .map(|at| text[..at].to_uppercase())
        })
        .filter(|prefix| !prefix.is_empty())
        .collect()
}

fn is_iso_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    parts.len() == 3
        && parts[0].len() == 4
        && parts[1].len() == 2
        && parts[2].len() == 2
        && parts
            .iter()
            .all(|part| part.chars().all(|c| c.is_ascii_digit()))
}

fn typed(kind: &str, spec: &EntitySpec, token: &Token<'_>, prefixes: &[String]) -> Option<Json> {
    let text = token.text;
    match kind {
        "email" => is_email(text).then(|| Json::String(text.to_owned())),
        "phone" => {
            let digits = text.chars().filter(char::is_ascii_digit).count();
            (digits >= 7
                && text
                    .chars()
                    .all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '.' | '(' | ')')))
            .then(|| Json::String(text.to_owned()))
        }
        "integer" => text.replace(',', "").parse::<i64>().ok().map(Json::from),
        "number" | "money" => {
            let money_marked = text.starts_with(['$', '€', '£']);
            if kind == "number" || money_marked || parse_number(text).is_some() {
                parse_number(text).map(number_json)
            } else {
                None
            }
        }
        "date" => is_iso_date(text).then(|| Json::String(text.to_owned())),
        "boolean" => match text.to_lowercase().as_str() {
            "yes" | "y" | "true" => Some(Json::Bool(true)),
            "no" | "n" | "false" => Some(Json::Bool(false)),
            _ => None,
        },
        "enum" => spec
            .allowed
            .iter()
            .find(|value| {
                value
                    .as_str()
                    .is_some_and(|allowed| allowed.eq_ignore_ascii_case(text))
            })
            .cloned(),
        "identifier" => {
            if !is_identifier(text) {
                return None;
            }
            let matches_examples = prefixes.is_empty()
                || prefixes
                    .iter()
                    .any(|prefix| text.to_uppercase().starts_with(prefix));
            matches_examples.then(|| Json::String(text.to_uppercase()))
        }
        _ => None,
    }
}

/// "my order id is X" / "order_id = X" / "order_id: X": the token after the name.
fn explicit<'a>(spec: &EntitySpec, message: &'a str, all: &[Token<'a>]) -> Option<Token<'a>> {
    let lower = message.to_lowercase();
    let name = spec.name.to_lowercase();
    let spaced = name.replace('_', " ");
    let mut phrases = vec![name.clone(), spaced.clone()];
    if let Some(base) = spaced.strip_suffix(" id") {
        phrases.push(format!("{base} number"));
    }
    for phrase in phrases {
        let mut from = 0;
        while let Some(found) = lower[from..].find(&phrase) {
            let after = from + found + phrase.len();
            let rest = &lower[after..];
            let trimmed = rest.trim_start();
            let connector = ["is ", "= ", "=", ": ", ":"]
                .iter()
                .find(|connector| trimmed.starts_with(**connector));
            if let Some(connector) = connector {
                let value_at = after + (rest.len() - trimmed.len()) + connector.len();
                if let Some(token) = all.iter().find(|token| token.start >= value_at) {
                    return Some(token.clone());
                }
            }
            from = after;
        }
    }
    None
}

/// Extracts the intent's entities; values already in `context` are not re-read.
pub fn extract(intent: &Intent, message: &str, context: &Map<String, Json>) -> Vec<Entity> {
    let all = tokens(message);
    let prefixes = example_prefixes(intent);
    let mut entities: Vec<Entity> = Vec::new();
    for spec in &intent.entities {
        if context.contains_key(&spec.name) {
            continue;
        }
        let kind = effective_kind(spec);
        let taken = |token: &Token<'_>, entities: &[Entity]| {
            entities.iter().any(|entity| entity.start == token.start)
        };
        if let Some(token) = explicit(spec, message, &all)
            && !taken(&token, &entities)
        {
            let value = typed(&kind, spec, &token, &[])
                .unwrap_or_else(|| Json::String(token.text.to_owned()));
            entities.push(found(spec, &kind, value, &token));
            continue;
        }
        // Enum values may span a whole word anywhere in the message.
        let candidate = all
            .iter()
            .filter(|token| !taken(token, &entities))
            .find_map(|token| {
                typed(&kind, spec, token, &prefixes).map(|value| (token.clone(), value))
            });
        let candidate = candidate.or_else(|| {
            (kind == "string")
                .then(|| string_by_name(spec, &all))
                .flatten()
                .filter(|token| !taken(token, &entities))
                .map(|token| {
                    let value = Json::String(token.text.to_owned());
                    (token, value)
                })
        });
        if let Some((token, value)) = candidate {
            entities.push(found(spec, &kind, value, &token));
        }
    }
    entities
}

/// A plain-string entity located by its name: a path-like token for `path`/`file`
/// entities, else the word just before the entity's name ("the checkout service").
fn string_by_name<'a>(spec: &EntitySpec, all: &[Token<'a>]) -> Option<Token<'a>> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec(name: &str, kind: &str) -> EntitySpec {
        EntitySpec {
            name: name.into(),
            kind: Some(kind.into()),
            required: true,
            allowed: Vec::new(),
        }
    }

    fn intent(entities: Vec<EntitySpec>, examples: &[&str]) -> Intent {
        Intent {
            id: "i".into(),
            description: None,
            examples: examples.iter().map(|e| (*e).to_owned()).collect(),
            entities,
            maps_to_workflow: None,
        }
    }

    fn values(intent: &Intent, message: &str) -> Vec<(String, Json)> {
        extract(intent, message, &Map::new())
            .into_iter()
            .map(|entity| (entity.name, entity.value))
            .collect()
    }

    #[test]
    fn types() {
        let all = intent(
            vec![
                spec("email", "email"),
                spec("phone", "phone"),
                spec("count", "integer"),
                spec("amount", "money"),
                spec("day", "date"),
                spec("ok", "boolean"),
            ],
            &[],
        );
        let found = values(
            &all,
            "mail bob@gmail.com or call +1-555-123-4567, 3 items for $49.50 on 2026-11-30, yes",
        );
        assert_eq!(
            found,
            vec![
                ("email".into(), json!("bob@gmail.com")),
                ("phone".into(), json!("+1-555-123-4567")),
                ("count".into(), json!(3)),
                ("amount".into(), json!(49.5)),
                ("day".into(), json!("2026-11-30")),
                ("ok".into(), json!(true)),
            ]
        );
    }

    #[test]
    fn identifiers_enums_and_explicit_forms() {
        let orders = intent(
            vec![spec("order_id", "identifier")],
            &["Where is my order ORD-12345?"],
        );
        assert_eq!(
            values(&orders, "what about ord-777 please"),
            vec![("order_id".into(), json!("ORD-777"))]
        );
        assert_eq!(
            values(&orders, "order_id=ORD-9"),
            vec![("order_id".into(), json!("ORD-9"))]
        );
        assert_eq!(
            values(&orders, "my order number is A1B2"),
            vec![("order_id".into(), json!("A1B2"))]
        );
        let env = intent(
            vec![EntitySpec {
                name: "environment".into(),
                kind: Some("enum".into()),
                required: true,
                allowed: vec![json!("staging"), json!("production")],
            }],
            &[],
        );
        assert_eq!(
            values(&env, "restart it in Production"),
            vec![("environment".into(), json!("production"))]
        );
        let named = intent(vec![spec("email", "string")], &[]);
        assert_eq!(
            values(&named, "I'm john@example.com"),
            vec![("email".into(), json!("john@example.com"))]
        );
    }
}
