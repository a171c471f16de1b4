//! What a planned `sys.emitUserMessage` says. After the calls of a workflow
//! it reports the intent done; on its own nothing was done, so it must not
//! claim an action ("Done: cancel my subscription" with no call made): it
//! says the intent's own reply, or what the desk can do.

use adas_skill::model::{Intent, Skill};

/// [`message`] when the plan `speaks` (a `sys.emitUserMessage` step), else
/// nothing: the words are made only for a plan that says them.
pub(super) fn spoken(skill: &Skill, intent: Option<&Intent>, acted: bool, speaks: bool) -> String {
    if speaks {
        message(skill, intent, acted)
    } else {
        String::new()
    }
}

/// The message of a plan whose calls do the intent (`acted`), else of a plan
/// that only speaks.
pub(super) fn message(skill: &Skill, intent: Option<&Intent>, acted: bool) -> String {
    let description = intent
        .and_then(|intent| intent.description.as_deref())
        .map(str::trim)
        .unwrap_or_default();
    if acted {
        return if description.is_empty() {
            "Done.".to_owned()
        } else {
            format!("Done: {}.", lower_first(description.trim_end_matches('.')))
        };
    }
    // A reply the author wrote with no field to fill is said as written;
    // one with fields is rendered from the job's facts when the job ends.
    if let Some(reply) = intent
        .and_then(|intent| intent.reply.as_deref())
        .map(str::trim)
        .filter(|reply| !reply.is_empty() && !reply.contains("{{"))
    {
        return reply.to_owned();
    }
    let others: Vec<String> = skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .filter(|other| intent.is_none_or(|intent| intent.id != other.id))
        .filter_map(|other| other.description.as_deref())
        .map(|description| lower_first(description.trim().trim_end_matches('.')))
        .filter(|description| !description.is_empty())
        .collect();
    match others.as_slice() {
        [] => "How can I help?".to_owned(),
        [one] => format!("I can help you {one}."),
        [first @ .., last] => format!("I can help with: {}; or {last}.", first.join("; ")),
    }
}

/// "Check availability" → "check availability", keeping acronyms ("SMS").
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if first.is_uppercase() && second.is_uppercase() => {
            text.to_owned()
        }
        (Some(first), _) => first.to_lowercase().chain(text.chars().skip(1)).collect(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use adas_skill::model::{Intents, Skill};

    fn intent(id: &str, description: &str, reply: Option<&str>) -> Intent {
        Intent {
            id: id.into(),
            description: Some(description.into()),
            reply: reply.map(Into::into),
            ..Intent::default()
        }
    }

    fn skill(supported: Vec<Intent>) -> Skill {
        Skill {
            intents: Some(Intents {
                supported,
                ..Intents::default()
            }),
            ..Skill::default()
        }
    }

    #[test]
    fn a_message_alone_claims_no_action() {
        let hello = intent("greet", "Say hello", None);
        let skill = skill(vec![
            hello.clone(),
            intent("book", "Book a meeting", None),
            intent("cancel", "Cancel a meeting", None),
        ]);
        let said = message(&skill, Some(&hello), false);
        assert_eq!(
            said,
            "I can help with: book a meeting; or cancel a meeting."
        );
        assert!(!said.contains("Done"));
    }

    #[test]
    fn the_authors_reply_is_said_as_written() {
        let hello = intent("greet", "Say hello", Some("Hi! Ask me about your orders."));
        let skill = skill(vec![hello.clone()]);
        assert_eq!(
            message(&skill, Some(&hello), false),
            "Hi! Ask me about your orders."
        );
    }

    #[test]
    fn after_the_calls_the_intent_is_done() {
        let book = intent("book", "Book a meeting.", None);
        let skill = skill(vec![book.clone()]);
        assert_eq!(message(&skill, Some(&book), true), "Done: book a meeting.");
        assert_eq!(lower_first("SMS reminders"), "SMS reminders");
    }
}
