//! A count said by its article: "we need a cherry picker" is one, when the
//! thing counted is a value the call takes (its kind of machine, device or
//! item) and the call counts it.

use adas_skill::model::ToolInput;

use crate::entities::Entity;

/// Whether an input counts the things a call is for (`quantity`, `qty`,
/// `count`, `number_of_units`).
fn counts(input: &ToolInput) -> bool {
    let name = input.name.to_lowercase();
    matches!(input.kind.as_deref(), Some("integer" | "number"))
        && (name == "quantity"
            || name == "qty"
            || name == "count"
            || name.starts_with("number_of")
            || name.ends_with("_quantity")
            || name.ends_with("_count"))
}

/// The count of `input` said by an article ("a telehandler", "an iPhone",
/// "one mini excavator") before an allowed value read from the message.
pub(super) fn by_article(input: &ToolInput, facts: &[Entity], message: &str) -> Option<Entity> {
    if !input.required || !counts(input) {
        return None;
    }
    let counted = facts
        .iter()
        .filter(|fact| fact.kind == "enum" && fact.start <= fact.end && fact.end <= message.len())
        .find(|fact| {
            let before = message[..fact.start].trim_end().to_lowercase();
            // "a telehandler", "a new iPhone", "one work Samsung": the
            // article and at most one word between.
            let words: Vec<&str> = before.split_whitespace().rev().take(2).collect();
            let article = |word: &str| matches!(word, "a" | "an" | "one");
            words.first().is_some_and(|word| article(word))
                || (words.len() == 2
                    && article(words[1])
                    && !words[0].ends_with(|c: char| c.is_ascii_digit()))
        })?;
    Some(Entity {
        name: input.name.clone(),
        kind: "integer".into(),
        value: serde_json::json!(1),
        text: counted.text.clone(),
        start: counted.start,
        end: counted.end,
        guessed: false,
    })
}
