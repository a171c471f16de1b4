//! The detection on the documented scale and the rules that read a whole
//! request: a skill's own thresholds, a request that gives every value its
//! intent needs, a question of how things stand, a message that says when.

use super::*;

/// Whether the skill sets any of its own thresholds.
pub(super) fn own_thresholds(skill: &Skill) -> Option<adas_skill::model::Thresholds> {
    skill
        .intents
        .as_ref()
        .and_then(|intents| intents.thresholds.clone())
        .filter(|set| set.accept.is_some() || set.reject.is_some())
}

/// The detection with its confidence on the documented scale, and the
/// skill's own thresholds applied: a guess below `accept` is asked about, a
/// read at or above it is answered (reading risks nothing), and a guess
/// below `reject` is out of domain. A side effect the rules would not act on
/// is never acted on for a threshold.
pub(super) fn on_the_scale(skill: &Skill, message: &str, mut detection: Detection) -> Detection {
    use calibration::Verdict;
    let verdict = if detection.out_of_domain.is_some() {
        Verdict::Out
    } else if detection.confident {
        Verdict::Acts
    } else {
        Verdict::Asks
    };
    detection.confidence = calibration::calibrated(verdict, detection.confidence);
    if own_thresholds(skill).is_none() {
        return detection;
    }
    let (reject, accept, _) = thresholds(skill);
    let Some(intent_id) = detection.intent_id.clone() else {
        return detection;
    };
    match verdict {
        Verdict::Acts if detection.confidence < accept => detection.confident = false,
        Verdict::Asks
            if detection.confidence >= accept
                && detection.margin >= RAW_MARGIN
                && only_reads(skill, &intent_id)
                && !vague(message) =>
        {
            detection.confident = true;
        }
        // A guess the message backs with a value its intent takes (an id,
        // an amount, a date for a booking) stays a question, never "out of
        // domain": only words alone are rejected.
        Verdict::Asks
            if detection.confidence < reject
                && detection.entities.is_empty()
                && !takes_when(skill, &intent_id, message) =>
        {
            detection.intent_id = None;
            detection.entities = Vec::new();
            detection.out_of_domain = Some(out_of_domain(skill));
        }
        _ => {}
    }
    detection
}

/// Whether the message opens as a question of how things stand ("where",
/// "what's", "did", "is", "any"): not "could you …", which asks for an act.
pub(super) fn asks_how_things_stand(message: &str) -> bool {
    let first = message
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .find(|word| !word.is_empty())
        .map(str::to_lowercase)
        .unwrap_or_default();
    matches!(
        first.as_str(),
        "what"
            | "what's"
            | "whats"
            | "where"
            | "where's"
            | "wheres"
            | "when"
            | "which"
            | "who"
            | "how"
            | "how's"
            | "is"
            | "are"
            | "was"
            | "were"
            | "does"
            | "did"
            | "has"
            | "have"
            | "any"
            | "anything"
    )
}

/// Whether the message asks to be shown something ("can you pull up
/// TOUR-5521?", "look up TKT-30422", "show me CTR-4432"): a request to read,
/// whatever an action that takes the same id shares with its words.
pub(super) fn asks_to_see(message: &str) -> bool {
    static SEE: OnceLock<regex::Regex> = OnceLock::new();
    SEE.get_or_init(|| {
        regex::Regex::new(
            r"(?i)\b(?:pull up|look up|bring up|show me|let me see|look at|check on|look into|details (?:of|on|for))\b",
        )
        .expect("a valid pattern")
    })
    .is_match(message)
}

/// Whether the message says when (a date or a time of day) and the intent's
/// tools take one: "put a budget sync in for 2027-07-02, 10:00 to 10:45"
/// is the booking's business, whatever words it uses.
pub(super) fn takes_when(skill: &Skill, intent_id: &str, message: &str) -> bool {
    let says_when = !crate::values::dates_in(message).is_empty()
        || !crate::values::times_in(message).is_empty()
        || message
            .split(|c: char| c.is_whitespace() || c == ',')
            .any(|word| word.parse::<jiff::civil::Date>().is_ok());
    says_when
        && intent_tools(skill, intent_id).iter().any(|tool| {
            tool.inputs.iter().any(|input| {
                let name = input.name.to_lowercase();
                let kind = input.kind.as_deref().unwrap_or_default();
                matches!(kind, "date" | "datetime" | "time")
                    || name.contains("date")
                    || name.ends_with("_time")
                    || name == "time"
            })
        })
}

/// Whether the message gives every value the intent requires (two at
/// least: one id alone is no whole request), none of them a guess.
pub(super) fn complete(skill: &Skill, intent_id: &str, detection: &Detection) -> bool {
    let required: Vec<&str> = skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .filter(|intent| intent.id == intent_id)
        .flat_map(|intent| &intent.entities)
        .filter(|entity| entity.required)
        .map(|entity| entity.name.as_str())
        .collect();
    required.len() >= 2
        && required.iter().all(|name| {
            detection
                .entities
                .iter()
                .any(|entity| entity.name == *name && !entity.guessed)
        })
}
