//! Answers as people give them, and refusals in their terms. An ask offering
//! options takes an option's number ("2"), its value or its label, or words
//! that name exactly one of them ("the airport one", "just check the
//! status"); an amount takes "$600", "1,200" or "1.2k". A refused answer says
//! what is wrong and what would do ("That doesn't look like an amount — for
//! example 600."), never a parser's words.

use crate::WaitingField;

/// Words too common to tell options apart.
const COMMON: &[&str] = &[
    "a", "an", "the", "to", "of", "for", "and", "or", "my", "its", "it", "is", "wants", "want",
    "customer", "user", "patient", "employee", "student", "please", "just", "one", "that",
];

fn stems(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty() && !COMMON.contains(word))
        .map(adas_nlu::lexicon::stem)
        .collect()
}

/// Largest answer to one asked field, in bytes: an answer is a value for a
/// tool argument, and whatever is accepted is stored in the job and its events.
pub const MAX_ANSWER_BYTES: usize = 16 * 1024;

/// The option an answer picks: its number, its value or label (any case), or
/// the one option whose words it shares most (at least one); `None` when the
/// answer picks none or several equally.
pub fn pick<'a>(options: &'a [String], labels: &[String], answer: &str) -> Option<&'a String> {
    let answer = answer.trim().trim_end_matches(['.', '!', ')']);
    let lower = answer.to_lowercase();
    if let Some(index) = lower
        .trim_start_matches(['#', '('])
        .parse::<usize>()
        .ok()
        .and_then(|number| number.checked_sub(1))
    {
        return options.get(index);
    }
    let label = |index: usize| labels.get(index).map(String::as_str).unwrap_or("");
    if let Some(index) = (0..options.len()).find(|index| {
        options[*index].eq_ignore_ascii_case(&lower) || label(*index).eq_ignore_ascii_case(&lower)
    }) {
        return options.get(index);
    }
    // The options offered (before "none") first, then the others; an
    // option's own name says more than its label.
    let said = stems(&lower);
    let weight = |index: usize| -> usize {
        let named = stems(&options[index].replace('_', " "));
        let labelled = stems(label(index));
        said.iter()
            .map(|word| {
                2 * usize::from(named.contains(word)) + usize::from(labelled.contains(word))
            })
            .sum()
    };
    let offered = options
        .iter()
        .position(|option| option == "none")
        .unwrap_or(options.len());
    [0..offered, offered..options.len()]
        .into_iter()
        .find_map(|range| {
            let weights: Vec<(usize, usize)> = range.map(|index| (index, weight(index))).collect();
            let best = weights
                .iter()
                .map(|(_, weight)| *weight)
                .max()
                .filter(|best| *best > 0)?;
            match weights
                .iter()
                .filter(|(_, weight)| *weight == best)
                .collect::<Vec<_>>()
                .as_slice()
            {
                [(index, _)] => Some(*index),
                // Several alike: no pick, and no looking further.
                _ => Some(usize::MAX),
            }
        })
        .and_then(|index| options.get(index))
}

/// An answer to "which did you mean?" in the request's own words rather than
/// an option's ("when is it", "the status"): the offered intent the detector
/// reads the answer and the original request as, when it clearly leads the
/// others offered (the skill's reject threshold and margin, as for any
/// message) and only reads — a reading of words is a guess, and a guess never
/// chooses a side effect; `None` otherwise, and the question stands.
pub fn pick_by_meaning(
    skill: &adas_skill::model::Skill,
    options: &[String],
    answer: &str,
    request: &str,
) -> Option<String> {
    let scores = adas_nlu::score(skill, &format!("{answer} {request}"));
    let mut offered: Vec<(&String, f64)> = options
        .iter()
        .filter(|option| *option != "none")
        .filter_map(|option| {
            let (_, score) = scores.iter().find(|(intent_id, _)| intent_id == option)?;
            Some((option, *score))
        })
        .collect();
    offered.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (best, score) = offered.first()?;
    if !adas_nlu::detect::only_reads(skill, best) {
        return None;
    }
    let next = offered.get(1).map_or(0.0, |(_, score)| *score);
    let (reject, _, margin) = adas_nlu::detect::raw_thresholds();
    (*score >= reject && score - next >= margin).then(|| (*best).clone())
}

/// The answer as the field takes it: an option picked by number or words
/// becomes that option; anything else is the text as given.
pub fn normalized(field: &WaitingField, text: &str) -> String {
    if field.options.is_empty() {
        return as_the_field_takes_it(field, text);
    }
    pick(&field.options, &field.option_labels, text)
        .cloned()
        .unwrap_or_else(|| text.to_owned())
}

/// The answers to a tool-input ask as the skill reads its values ("it's tbk
/// 22107" for a booking reference, "148 bucks" for an amount): each answer
/// of a field without options becomes the value read from it for certain,
/// else stays as written (and is judged as it is).
pub fn read_by_the_skill(
    skill: &adas_skill::model::Skill,
    intent_id: Option<&str>,
    waiting: &crate::record::Waiting,
    fields: &serde_json::Map<String, serde_json::Value>,
) -> (
    serde_json::Map<String, serde_json::Value>,
    Vec<(String, String)>,
) {
    let mut read = fields.clone();
    let mut misfits = Vec::new();
    for field in waiting
        .fields
        .iter()
        .filter(|field| field.options.is_empty())
    {
        let Some(serde_json::Value::String(text)) = fields.get(&field.name) else {
            continue;
        };
        if text.len() > MAX_ANSWER_BYTES {
            continue;
        }
        if let Some(value) =
            adas_nlu::answered::answer_value(skill, intent_id, &field.name, &field.kind, text)
        {
            let value = match value {
                serde_json::Value::String(text) => text,
                other => other.to_string(),
            };
            read.insert(field.name.clone(), serde_json::Value::String(value));
        }
        // A date field takes a date: "whenever suits" is asked again.
        let answered = match read.get(&field.name) {
            Some(serde_json::Value::String(text)) => text.clone(),
            _ => continue,
        };
        if adas_nlu::answered::takes_a_date(skill, &field.name, &field.kind)
            && !is_a_date(&as_the_field_takes_it(field, &answered))
        {
            misfits.push((field.name.clone(), "not a date".to_owned()));
        }
    }
    (read, misfits)
}

/// `2026-12-14`, or a date and a time (`2026-12-14T10:00`).
fn is_a_date(text: &str) -> bool {
    text.get(..10)
        .is_some_and(|day| day.parse::<jiff::civil::Date>().is_ok())
        && (text.len() == 10 || text[10..].starts_with('T'))
}

/// A date or a time of day answered in words ("tomorrow", "next Tuesday",
/// "the 9th", "2pm") as the field takes it (`2026-12-02`, `14:00`); the one
/// value written, else the text as given (and judged as it is).
fn as_the_field_takes_it(field: &WaitingField, text: &str) -> String {
    let found = match field.kind.to_lowercase().as_str() {
        "date" => adas_nlu::values::dates_in(text),
        "time" => adas_nlu::values::times_in(text),
        _ => return text.to_owned(),
    };
    match found.as_slice() {
        [(_, _, value)] => value.clone(),
        _ => text.to_owned(),
    }
}

/// What is wrong with an answer to `field` and what would do, in the user's
/// words (the parser's `problem` is for the API's field violations).
pub fn in_plain_words(field: &WaitingField, problem: &str) -> String {
    let name = field.name.replace('_', " ");
    if !field.options.is_empty() {
        let listed: Vec<String> = field
            .options
            .iter()
            .enumerate()
            .map(|(index, option)| {
                let label = field
                    .option_labels
                    .get(index)
                    .filter(|label| !label.is_empty());
                format!("{}) {}", index + 1, label.unwrap_or(option))
            })
            .collect();
        return format!(
            "Please pick one of: {} (its number or its words).",
            listed.join(", ")
        );
    }
    if problem == "required" {
        return format!("I still need the {name}.");
    }
    let amount = name.contains("amount") || name.contains("price") || field.kind == "money";
    let email = name.contains("email") || field.kind == "email";
    match field.kind.as_str() {
        _ if amount => "That doesn't look like an amount — for example 600.".to_owned(),
        _ if email => {
            "That doesn't look like an email address — for example ann@example.com.".to_owned()
        }
        "integer" => "That doesn't look like a whole number — for example 3.".to_owned(),
        "number" => "That doesn't look like a number — for example 12.5.".to_owned(),
        "boolean" => "Please answer yes or no.".to_owned(),
        "email" => {
            "That doesn't look like an email address — for example ann@example.com.".to_owned()
        }
        _ if problem == "not a date" => {
            "That doesn't look like a date — for example 2026-12-14 or \"next Tuesday\".".to_owned()
        }
        "date" => "That doesn't look like a date — for example 2026-12-14.".to_owned(),
        _ => format!("That doesn't look like a {name}."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|item| (*item).to_owned()).collect()
    }

    #[test]
    fn an_answer_in_the_requests_words_picks_a_read_only() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../e2e/conversations/skills/hair-salon.yaml");
        let text = std::fs::read_to_string(path).unwrap();
        let skill = adas_skill::load(&text, adas_skill::Format::Yaml)
            .skill
            .unwrap();
        let options = strings(&[
            "reschedule_appointment",
            "cancel_appointment",
            "appointment_details",
            "none",
        ]);
        let request = "I have a question about AP-3003";
        assert_eq!(
            pick_by_meaning(&skill, &options, "when is it", request).as_deref(),
            Some("appointment_details")
        );
        // Words that lean to a side effect choose nothing: the question stands.
        assert_eq!(
            pick_by_meaning(&skill, &options, "I can't make it", request),
            None
        );
        assert_eq!(pick_by_meaning(&skill, &options, "hmm", request), None);
    }

    #[test]
    fn an_option_is_picked_by_number_value_label_or_words() {
        let options = strings(&[
            "prescription_status",
            "request_refill",
            "transfer_prescription",
        ]);
        let labels = strings(&[
            "Patient wants to know the status of a prescription",
            "Patient wants to refill a prescription",
            "Patient wants to move a prescription to another store",
        ]);
        let pick = |answer: &str| pick(&options, &labels, answer).map(String::as_str);
        assert_eq!(pick("2"), Some("request_refill"));
        assert_eq!(pick("Request_Refill"), Some("request_refill"));
        assert_eq!(pick("just check the status"), Some("prescription_status"));
        assert_eq!(pick("move it"), Some("transfer_prescription"));
        assert_eq!(pick("4"), None);
        assert_eq!(pick("prescription"), None, "shared by all three: no pick");
        assert_eq!(pick("banana"), None);
    }

    #[test]
    fn refusals_say_what_would_do() {
        let field = |name: &str, kind: &str| WaitingField {
            name: name.into(),
            kind: kind.into(),
            ..WaitingField::default()
        };
        assert_eq!(
            in_plain_words(&field("amount", "number"), "expected a finite number"),
            "That doesn't look like an amount — for example 600."
        );
        assert!(in_plain_words(&field("days", "integer"), "x").contains("for example 3"));
        let mut choice = field("store", "string");
        choice.options = strings(&["downtown", "riverside"]);
        assert_eq!(
            in_plain_words(&choice, "x"),
            "Please pick one of: 1) downtown, 2) riverside (its number or its words)."
        );
    }
}
