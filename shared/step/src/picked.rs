//! Which item of a lookup's result the user meant. A workflow that lists
//! before it acts ("find the meeting, then cancel it") needs an id the user
//! never says: they name the item by its words ("my 2pm with Dave"). The
//! items of the job's earlier results that carry the id asked for are
//! matched against the request's words and times; one item that fits is
//! picked, several are offered as a choice. A pick is never evidence alone:
//! a side effect that uses one is confirmed first (see `certainty`).

use serde_json::{Map, Value as Json};

use crate::{Evidence, JobRecord};

/// How deep a result is searched for the items that carry an id.
const MAX_DEPTH: usize = 4;
/// How many items a choice offers at most.
const MAX_OFFERED: usize = 6;
/// The source of a picked value in the job's evidence.
pub const PICKED: &str = "picked";

/// What the request's words make of the items that carry an id.
#[derive(Debug, Clone, PartialEq)]
pub enum Choice {
    /// One item fits: its id, and the item.
    One(Json, Map<String, Json>),
    /// Several fit as well: each id with a label saying what it is.
    Several(Vec<(Json, String)>),
}

/// Whether `name` is an input that takes an id ("event_id", "id", "ref").
fn is_id(name: &str) -> bool {
    let name = name.to_lowercase();
    name == "id" || name.ends_with("_id") || name.ends_with("_ref") || name.ends_with("_number")
}

fn items<'a>(output: &'a Json, name: &str, depth: usize, into: &mut Vec<&'a Map<String, Json>>) {
    if depth > MAX_DEPTH {
        return;
    }
    match output {
        Json::Array(values) => {
            for value in values {
                if let Json::Object(item) = value
                    && item
                        .get(name)
                        .is_some_and(|id| id.is_string() || id.is_number())
                {
                    into.push(item);
                } else {
                    items(value, name, depth + 1, into);
                }
            }
        }
        Json::Object(map) => {
            for value in map.values() {
                items(value, name, depth + 1, into);
            }
        }
        _ => {}
    }
}

/// Words that say nothing about which item is meant.
const PLAIN: &[&str] = &[
    "the",
    "and",
    "with",
    "for",
    "my",
    "our",
    "meeting",
    "call",
    "event",
    "appointment",
    "item",
    "please",
    "can",
    "you",
    "that",
    "this",
    "one",
    "from",
    "about",
];

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| word.len() >= 3)
        .map(str::to_lowercase)
        .filter(|word| !PLAIN.contains(&word.as_str()))
        .collect()
}

/// The times of day the request names as the item's own ("my 2pm"), not as
/// where it goes ("to 4pm", "until 5").
fn own_times(goal: &str) -> Vec<String> {
    adas_nlu::values::times_in(goal)
        .into_iter()
        .filter(|(start, _, _)| {
            let before = format!(" {}", goal[..*start].trim_end().to_lowercase());
            !["to", "until", "till"]
                .iter()
                .any(|word| before.ends_with(&format!(" {word}")))
        })
        .map(|(_, _, time)| time)
        .collect()
}

/// The names the request says (capitalized words past its first word, "I"
/// aside): words that describe which item is meant.
fn names(goal: &str) -> Vec<&str> {
    goal.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|word| !word.is_empty())
        .skip(1)
        .filter(|word| {
            word.chars().next().is_some_and(char::is_uppercase)
                && !["I", "I'm", "I'd", "I'll", "I've"].contains(word)
        })
        .collect()
}

fn label(item: &Map<String, Json>, name: &str) -> String {
    let said: Vec<String> = item
        .iter()
        .filter(|(key, _)| key.as_str() != name)
        .filter_map(|(_, value)| value.as_str().map(str::to_owned))
        .filter(|text| !text.is_empty() && text.len() <= 80)
        .take(3)
        .collect();
    said.join(", ")
}

/// The items of the job's successful results that carry `name`, and what
/// `goal` makes of them; `None` when no result carries it or no item can be
/// told apart (then the id is asked as it is).
pub fn choose(record: &JobRecord, name: &str, goal: &str) -> Option<Choice> {
    if !is_id(name) {
        return None;
    }
    let mut found = Vec::new();
    for call in record.calls.iter().filter(|call| !call.is_error) {
        items(&call.output, name, 0, &mut found);
    }
    found.dedup_by(|a, b| a.get(name) == b.get(name));
    if found.is_empty() {
        return None;
    }
    let said = words(goal);
    let times = own_times(goal);
    let score = |item: &Map<String, Json>| -> usize {
        let texts: Vec<String> = item
            .values()
            .filter_map(|value| match value {
                Json::String(text) => Some(text.clone()),
                Json::Array(values) => Some(
                    values
                        .iter()
                        .filter_map(Json::as_str)
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
                _ => None,
            })
            .collect();
        let own = words(&texts.join(" "));
        let by_words = said.iter().filter(|word| own.contains(word)).count();
        let by_time = times
            .iter()
            .filter(|time| {
                texts.iter().any(|text| {
                    text.contains(&format!("T{time}")) || text.contains(&format!(" {time}"))
                })
            })
            .count();
        by_words + 2 * by_time
    };
    let scored: Vec<(usize, &Map<String, Json>)> =
        found.iter().map(|item| (score(item), *item)).collect();
    let best = scored.iter().map(|(score, _)| *score).max().unwrap_or(0);
    let leaders: Vec<&Map<String, Json>> = scored
        .iter()
        .filter(|(score, _)| *score == best)
        .map(|(_, item)| *item)
        .collect();
    // A lone item is taken as meant unless the request describes the item
    // (a name, a time of its own) and it fits none of that: "cancel my
    // meeting with Dave" never cancels the one standup the list found.
    let describes = !times.is_empty() || !names(goal).is_empty();
    match leaders.as_slice() {
        [one] if best > 0 || (found.len() == 1 && !describes) => one
            .get(name)
            .cloned()
            .map(|id| Choice::One(id, (*one).clone())),
        several => Some(Choice::Several(
            several
                .iter()
                .take(MAX_OFFERED)
                .filter_map(|item| Some((item.get(name)?.clone(), label(item, name))))
                .collect(),
        )),
    }
}

/// Records a pick in the job's evidence as what it is: a pick, never
/// evidence that the user named the value.
pub fn remember(record: &mut JobRecord, name: &str, value: &Json) {
    let known = record
        .evidence
        .iter()
        .any(|item| item.name == name && &item.value == value);
    if !known {
        record.evidence.push(Evidence {
            name: name.to_owned(),
            value: value.clone(),
            source: PICKED.into(),
        });
    }
}

/// The picked values among `args`, each by its item's words (the item of an
/// earlier result that carries it): what a confirmation shows beside it.
pub fn described(
    record: &JobRecord,
    args: &Map<String, Json>,
) -> std::collections::BTreeMap<String, String> {
    let mut notes = std::collections::BTreeMap::new();
    for (name, value) in args {
        let picked = record
            .evidence
            .iter()
            .any(|item| item.name == *name && item.value == *value && item.source == PICKED);
        if !picked {
            continue;
        }
        let mut found = Vec::new();
        for call in record.calls.iter().filter(|call| !call.is_error) {
            items(&call.output, name, 0, &mut found);
        }
        if let Some(item) = found.iter().find(|item| item.get(name) == Some(value)) {
            // Only what may be shown: a personal value is masked anyway.
            let mut shown = (*item).clone();
            shown.retain(|_, value| {
                value
                    .as_str()
                    .is_none_or(|text| !record.personal.iter().any(|personal| personal == text))
            });
            let words = label(&shown, name);
            if !words.is_empty() {
                notes.insert(name.clone(), words);
            }
        }
    }
    notes
}

/// The inputs the program still asks for (`ASK` arguments), in order.
pub fn open_fields(program: &adas_dia::Program) -> Vec<String> {
    fn visit(node: &adas_dia::Node, into: &mut Vec<String>) {
        let adas_dia::Node::Intent(intent) = node else {
            return;
        };
        for arg in &intent.args {
            visit(&arg.value, into);
            if matches!(arg.value, adas_dia::Node::Ask { .. }) && !into.contains(&arg.name) {
                into.push(arg.name.clone());
            }
        }
    }
    let mut fields = Vec::new();
    for element in &program.elements {
        visit(element, &mut fields);
    }
    fields
}

/// Offers `choices` on the fields of `waiting` that ask for them: each
/// item's id as an option, its words as the option's label, listed in the
/// question.
pub fn offer(waiting: &mut crate::record::Waiting, choices: &[(String, Vec<(Json, String)>)]) {
    for field in &mut waiting.fields {
        let Some((_, offered)) = choices.iter().find(|(name, _)| *name == field.name) else {
            continue;
        };
        if !field.options.is_empty() || offered.is_empty() {
            continue;
        }
        field.options = offered
            .iter()
            .map(|(id, _)| id.as_str().map_or_else(|| id.to_string(), str::to_owned))
            .collect();
        field.option_labels = offered
            .iter()
            .zip(&field.options)
            .map(|((_, label), id)| {
                if label.is_empty() {
                    id.clone()
                } else {
                    format!("{label} ({id})")
                }
            })
            .collect();
        field.input_type = "choice".into();
        let listed: Vec<String> = field
            .option_labels
            .iter()
            .enumerate()
            .map(|(at, label)| format!("{}) {label}", at + 1))
            .collect();
        waiting.prompt_message = format!(
            "{} Which one: {}?",
            waiting.prompt_message.trim_end(),
            listed.join("; ")
        );
    }
}

/// A picked item moved by its start keeps its length: a call that sets
/// `start_time` on the item (found by its `name`) and leaves the matching
/// end (`end_time`, an input its tool takes) out gets the item's end moved
/// as far ("my 2pm to 4pm" of a 14:00–14:30 meeting ends at 16:30).
pub fn keep_length(
    program: &mut adas_dia::Program,
    tools: &[adas_skill::model::Tool],
    (name, item): (&str, &Map<String, Json>),
) {
    let at = |text: &str| {
        text.get(..16)
            .and_then(|text| text.parse::<jiff::civil::DateTime>().ok())
    };
    for element in &mut program.elements {
        let adas_dia::Node::Intent(call) = element else {
            continue;
        };
        if !call
            .args
            .iter()
            .any(|arg| arg.name == name && arg.value.to_json() == item.get(name).cloned())
        {
            continue;
        }
        let Some(tool) = tools.iter().find(|tool| tool.name == call.name) else {
            continue;
        };
        let mut added = Vec::new();
        for arg in &call.args {
            if !arg.name.contains("start") {
                continue;
            }
            let end_name = arg.name.replace("start", "end");
            let takes_end = tool.inputs.iter().any(|input| input.name == end_name);
            let said_end = call.args.iter().any(|other| other.name == end_name);
            let (
                Some(Json::String(new_start)),
                Some(Json::String(old_start)),
                Some(Json::String(old_end)),
            ) = (
                arg.value.to_json(),
                item.get(&arg.name),
                item.get(&end_name),
            )
            else {
                continue;
            };
            if !takes_end || said_end {
                continue;
            }
            let (Some(new_start), Some(old_start), Some(old_end)) =
                (at(&new_start), at(old_start), at(old_end))
            else {
                continue;
            };
            let Ok(length) = old_start.until(old_end) else {
                continue;
            };
            if let Ok(new_end) = new_start.checked_add(length) {
                added.push(adas_dia::Arg {
                    name: end_name,
                    value: adas_dia::Node::from_json(&Json::String(
                        new_end.strftime("%Y-%m-%dT%H:%M").to_string(),
                    )),
                });
            }
        }
        call.args.extend(added);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn record_with(output: Json) -> JobRecord {
        let skill = adas_skill::OperationalSkill::from_source(
            "desk",
            "problem: {statement: Desk}\nintents: {supported: [{id: a, examples: [a]}]}\ntools: [{name: list_items}]\n",
        )
        .expect("the skill loads");
        let mut record = JobRecord::queued("j1".into(), &skill, "x".into(), ("t", "o"));
        record.calls.push(crate::CallRecord {
            tool: "list_items".into(),
            arguments: Map::new(),
            call_digest: "d".into(),
            output,
            is_error: false,
            iteration: 1,
            finished_at: String::new(),
        });
        record
    }

    fn lessons() -> Json {
        json!({"lessons": [
            {"lesson_id": "L-1", "title": "Piano with Mira", "start": "2027-02-03T09:00", "end": "2027-02-03T10:00"},
            {"lesson_id": "L-2", "title": "Cello with Tom", "start": "2027-02-03T11:00", "end": "2027-02-03T11:45"}
        ]})
    }

    #[test]
    fn the_item_the_words_name_is_picked_and_several_are_offered() {
        let record = record_with(lessons());
        let picked = |goal: &str| match choose(&record, "lesson_id", goal) {
            Some(Choice::One(id, _)) => Some(id),
            _ => None,
        };
        assert_eq!(picked("drop my cello lesson"), Some(json!("L-2")));
        assert_eq!(picked("move my 9am to 10am"), Some(json!("L-1")));
        // "to 11am" is where it goes, not which one.
        assert_eq!(picked("move the piano lesson to 11am"), Some(json!("L-1")));
        match choose(&record, "lesson_id", "cancel my lesson") {
            Some(Choice::Several(offered)) => assert_eq!(offered.len(), 2),
            other => panic!("{other:?}"),
        }
        // A lone item is meant, unless the words describe another one.
        let one = record_with(json!({"lessons": [lessons()["lessons"][0].clone()]}));
        assert!(matches!(
            choose(&one, "lesson_id", "cancel my lesson tomorrow"),
            Some(Choice::One(..))
        ));
        for goal in ["cancel my lesson with Tom", "cancel my 3pm lesson"] {
            match choose(&one, "lesson_id", goal) {
                Some(Choice::Several(offered)) => assert_eq!(offered.len(), 1, "{goal}"),
                other => panic!("{goal}: {other:?}"),
            }
        }
        // Only ids are picked, and only from results that carry them.
        assert_eq!(choose(&record, "title", "cello"), None);
        assert_eq!(choose(&record, "room_id", "cello"), None);
    }

    #[test]
    fn a_pick_is_no_evidence_and_a_moved_item_keeps_its_length() {
        let mut record = record_with(lessons());
        remember(&mut record, "lesson_id", &json!("L-2"));
        assert!(!crate::certainty::evidenced(
            &record,
            "lesson_id",
            &json!("L-2")
        ));
        let tools = vec![adas_skill::model::Tool {
            name: "move_lesson".into(),
            inputs: ["lesson_id", "start", "end"]
                .into_iter()
                .map(|name| adas_skill::model::ToolInput {
                    name: name.into(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }];
        let mut program =
            adas_dia::parse(r#"move_lesson(lesson_id="L-2", start="2027-02-03T15:00")"#)
                .expect("parses");
        let item = lessons()["lessons"][1]
            .as_object()
            .cloned()
            .unwrap_or_default();
        keep_length(&mut program, &tools, ("lesson_id", &item));
        assert_eq!(
            program.to_string(),
            r#"move_lesson(lesson_id="L-2", start="2027-02-03T15:00", end="2027-02-03T15:45")"#
        );
    }
}
