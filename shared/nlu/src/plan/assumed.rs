//! What a person leaves unsaid because anyone would assume it, each a
//! guess (a side effect that rests on one shows it and asks first):
//! - a booking given by its start alone ("tomorrow at 2pm") ends an hour
//!   later — a call that must have an end (`end_time` beside `start_time`)
//!   gets the start plus an hour;
//! - a time of day without a day ("my 2pm meeting") is today's — a lookup
//!   that must have a date gets today;
//! - a thing booked is called what the request calls it ("book a call with
//!   Dave" → a title "Call with Dave").

use adas_dia::Arg;
use adas_skill::model::ToolInput;
use serde_json::Value as Json;

use crate::entities::Entity;

/// How long a booking told only its start is assumed to last, in hours.
const ASSUMED_HOURS: i64 = 1;

/// The end a required `…end…` input gets from its `…start…` beside it in
/// `args` (a date and a time), as a guessed fact; `None` when the end was
/// said, is optional, or the start is no time of a day.
pub(super) fn assumed_end<'a>(
    inputs: impl Iterator<Item = &'a ToolInput>,
    args: &[Arg],
) -> Vec<Entity> {
    let at = |text: &str| {
        text.get(..16)
            .and_then(|text| text.parse::<jiff::civil::DateTime>().ok())
    };
    let mut assumed = Vec::new();
    for input in inputs {
        let parts: Vec<&str> = input.name.split('_').collect();
        if !input.required
            || !parts.contains(&"end")
            || args.iter().any(|arg| arg.name == input.name)
        {
            continue;
        }
        let start_name = parts
            .iter()
            .map(|part| if *part == "end" { "start" } else { part })
            .collect::<Vec<_>>()
            .join("_");
        let Some(Json::String(start)) = args
            .iter()
            .find(|arg| arg.name == start_name)
            .and_then(|arg| arg.value.to_json())
        else {
            continue;
        };
        let Some(end) = at(&start).and_then(|start| {
            start
                .checked_add(jiff::Span::new().hours(ASSUMED_HOURS))
                .ok()
        }) else {
            continue;
        };
        assumed.push(Entity {
            name: input.name.clone(),
            kind: "datetime".into(),
            value: Json::String(end.strftime("%Y-%m-%dT%H:%M").to_string()),
            text: String::new(),
            start: 0,
            end: 0,
            guessed: true,
        });
    }
    assumed
}

/// Today for a lookup that must have a date (`date`, `date_start`, a
/// `date` input) when the message says a time of day and no day, as a
/// guessed fact; nothing for a call that changes something.
pub(super) fn assumed_day(
    skill: &adas_skill::model::Skill,
    tool: &adas_skill::model::Tool,
    (args, message): (&[Arg], &str),
    today: jiff::civil::Date,
) -> Vec<Entity> {
    if !crate::detect::reads(tool)
        || crate::values::times_in(message).is_empty()
        || !crate::values::dates_on(message, today).is_empty()
    {
        return Vec::new();
    }
    tool.inputs
        .iter()
        .filter(|input| input.required && !args.iter().any(|arg| arg.name == input.name))
        .filter(|input| {
            crate::answered::takes_a_date(skill, &input.name, input.kind.as_deref().unwrap_or(""))
        })
        .take(1)
        .map(|input| Entity {
            name: input.name.clone(),
            kind: "date".into(),
            value: Json::String(today.to_string()),
            text: String::new(),
            start: 0,
            end: 0,
            guessed: true,
        })
        .collect()
}

/// Words that end the name of the thing asked for ("a call *with* Dave",
/// "a budget sync *in* for …").
const ENDS_A_NAME: &[&str] = &[
    "with", "on", "at", "for", "in", "to", "from", "by", "tomorrow", "today", "tonight", "next",
    "this", "please", "and", "about", "between", "until", "after", "before", "so", "that",
];

/// Whether an input is the free name of a thing made (`title`,
/// `subject`, `summary`, `meeting_title`).
fn names_the_thing(input: &ToolInput) -> bool {
    let name = input.name.to_lowercase();
    matches!(name.as_str(), "title" | "subject" | "summary") || name.ends_with("_title")
}

/// The title of a thing a call makes, from what the request calls it: the
/// words after its article ("book a meeting tomorrow" → "Meeting"), with
/// whom when it says ("… with Dave" → "Meeting with Dave"). `None` when the
/// request calls it nothing but the tool's own word for it ("create a
/// ticket": its subject is still to say).
pub(super) fn title(
    tool: &adas_skill::model::Tool,
    input: &ToolInput,
    message: &str,
) -> Option<Entity> {
    if !input.required || !names_the_thing(input) || crate::detect::reads(tool) {
        return None;
    }
    let lower = message.to_lowercase();
    // A title said as one ("titled Sync", "called …") is the user's own.
    if [" titled ", " called ", " named "]
        .iter()
        .any(|said| lower.contains(said))
    {
        return None;
    }
    // A clause ends the name: "a meeting, organizer u-bob" is a meeting.
    let first_clause = message
        .split([',', ';', '.', '?', '!', ':', '(', '"'])
        .next()
        .unwrap_or_default();
    let words: Vec<&str> = first_clause
        .split_whitespace()
        .map(|word| word.trim_matches(|c: char| !c.is_alphanumeric() && c != '\''))
        .collect();
    let article = words
        .iter()
        .position(|word| matches!(word.to_lowercase().as_str(), "a" | "an"))?;
    let named: Vec<&str> = words[article + 1..]
        .iter()
        .take_while(|word| {
            !word.is_empty()
                && !ENDS_A_NAME.contains(&word.to_lowercase().as_str())
                && !word.chars().any(|c| c.is_ascii_digit())
        })
        .take(4)
        .copied()
        .collect();
    if named.is_empty() {
        return None;
    }
    let own: String = [
        tool.name.replace(['_', '.', '-'], " "),
        tool.description.clone().unwrap_or_default(),
    ]
    .join(" ")
    .to_lowercase();
    if named.iter().all(|word| {
        own.split_whitespace()
            .any(|known| known == word.to_lowercase())
    }) {
        return None;
    }
    let mut title = named.join(" ").to_lowercase();
    if let Some(with) = words
        .iter()
        .skip(article)
        .position(|word| word.eq_ignore_ascii_case("with"))
        .map(|at| at + article)
        && let Some(who) = words.get(with + 1)
        && who.chars().next().is_some_and(char::is_uppercase)
    {
        title.push_str(&format!(" with {who}"));
    }
    let mut letters = title.chars();
    let title: String = letters
        .next()
        .map(|first| first.to_uppercase().chain(letters).collect())
        .unwrap_or_default();
    Some(Entity {
        name: input.name.clone(),
        kind: "string".into(),
        value: Json::String(title),
        text: String::new(),
        start: 0,
        end: 0,
        guessed: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(name: &str, required: bool) -> ToolInput {
        ToolInput {
            name: name.into(),
            required,
            ..Default::default()
        }
    }

    fn arg(name: &str, value: &str) -> Arg {
        Arg {
            name: name.into(),
            value: adas_dia::Node::from_json(&Json::String(value.into())),
        }
    }

    #[test]
    fn an_end_left_out_is_an_hour_after_the_start_and_a_guess() {
        let inputs = [input("start_time", true), input("end_time", true)];
        let found = assumed_end(inputs.iter(), &[arg("start_time", "2026-12-02T14:00")]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].value, Json::String("2026-12-02T15:00".into()));
        assert!(found[0].guessed);
        // Past midnight, the day turns.
        let late = assumed_end(inputs.iter(), &[arg("start_time", "2026-12-02T23:30")]);
        assert_eq!(late[0].value, Json::String("2026-12-03T00:30".into()));
        // Said, optional, or no time of a day: nothing assumed.
        let said = [
            arg("start_time", "2026-12-02T14:00"),
            arg("end_time", "2026-12-02T14:45"),
        ];
        assert!(assumed_end(inputs.iter(), &said).is_empty());
        let optional = [input("start_time", true), input("end_time", false)];
        assert!(assumed_end(optional.iter(), &[arg("start_time", "2026-12-02T14:00")]).is_empty());
        assert!(assumed_end(inputs.iter(), &[arg("start_time", "2026-12-02")]).is_empty());
        // The weekend's end is not the meeting's: the names must pair.
        let other = [input("start_date", true), input("weekend_end", true)];
        assert!(assumed_end(other.iter(), &[arg("start_date", "2026-12-02T14:00")]).is_empty());
    }

    #[test]
    fn a_time_without_a_day_is_looked_up_today() {
        let skill: adas_skill::model::Skill = serde_json::from_value(serde_json::json!({
            "tools": [
                {"name": "calendar.event.list", "inputs": [{"name": "date_start", "required": true}]},
                {"name": "calendar.event.delete", "inputs": [{"name": "date", "required": true}]}
            ]
        }))
        .expect("the skill reads");
        let today: jiff::civil::Date = "2026-12-01".parse().expect("a date");
        let list = &skill.tools[0];
        let found = assumed_day(
            &skill,
            list,
            (&[], "Reschedule my 2pm meeting to 4pm"),
            today,
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].value, Json::String("2026-12-01".into()));
        assert!(found[0].guessed);
        // A day said, no time said, or a call that changes something: none.
        for message in ["Reschedule my 2pm meeting tomorrow", "Show my meetings"] {
            assert!(
                assumed_day(&skill, list, (&[], message), today).is_empty(),
                "{message}"
            );
        }
        let delete = &skill.tools[1];
        assert!(assumed_day(&skill, delete, (&[], "cancel my 2pm"), today).is_empty());
    }

    #[test]
    fn a_thing_booked_is_called_what_the_request_calls_it() {
        let tool: adas_skill::model::Tool = serde_json::from_value(serde_json::json!({
            "name": "calendar.event.create",
            "description": "Create a new calendar event",
            "inputs": [{"name": "title", "required": true}]
        }))
        .expect("the tool reads");
        let titled = |message: &str| {
            title(&tool, &tool.inputs[0], message).map(|fact| {
                assert!(fact.guessed);
                fact.value
            })
        };
        for (message, expected) in [
            (
                "Book a meeting tomorrow at 2pm with Dave",
                "Meeting with Dave",
            ),
            (
                "Schedule a call with Dave on Friday at 10am",
                "Call with Dave",
            ),
            (
                "Put a budget sync in for 2027-07-02, 10:00 to 10:45",
                "Budget sync",
            ),
            ("book a meeting, organizer_id u-bob", "Meeting"),
            (
                "I'd like to set up a quarterly planning session next Tuesday",
                "Quarterly planning session",
            ),
        ] {
            assert_eq!(
                titled(message),
                Some(Json::String(expected.into())),
                "{message}"
            );
        }
        // Nothing called, or called only by the tool's own word: none.
        for message in [
            "Can you book me in for 3pm?",
            "Create an event tomorrow at 9",
            "book a meeting titled Sync",
        ] {
            assert_eq!(titled(message), None, "{message}");
        }
    }
}
