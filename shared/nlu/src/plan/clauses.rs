//! A message split into its requests: at a strong separator ("; ", ". ",
//! "then"), else at " and ", and which parts tell rather than ask.

/// Where one request of a message ends and the next begins.
const SEPARATORS: &[&str] = &[
    ";",
    ". ",
    " and also ",
    " and then ",
    ", also ",
    ", then ",
    " also ",
    " then ",
];

/// Abbreviations a full stop follows inside a sentence.
const TITLES: &[&str] = &["mr", "mrs", "ms", "dr", "st", "no", "apt", "ave"];

/// The message split into requests: at a strong separator, else at " and ".
fn clauses(message: &str) -> Vec<String> {
    // "Mr. Patel" ends no sentence.
    let mut lower = message.to_lowercase();
    for title in TITLES {
        lower = lower.replace(&format!("{title}. "), &format!("{title}\u{1} "));
    }
    let split_at = |separators: &[&str]| -> Vec<String> {
        let mut parts = vec![lower.clone()];
        for separator in separators {
            parts = parts
                .iter()
                .flat_map(|part| part.split(separator).map(str::to_owned).collect::<Vec<_>>())
                .collect();
        }
        parts
            .into_iter()
            .map(|part| {
                part.trim()
                    .trim_matches(['.', ',', '?', '!'])
                    .trim()
                    .replace('\u{1}', ".")
            })
            .filter(|part| !part.is_empty())
            .collect()
    };
    let strong = split_at(SEPARATORS);
    if strong.len() > 1 {
        strong
    } else {
        split_at(&[" and "])
    }
}

/// The message's own text for each clause (entity values keep their case).
pub(super) fn original_clauses(message: &str) -> Vec<String> {
    let lower = message.to_lowercase();
    clauses(message)
        .into_iter()
        .map(|clause| match lower.find(&clause) {
            Some(at)
                if message.is_char_boundary(at) && message.is_char_boundary(at + clause.len()) =>
            {
                message[at..at + clause.len()].to_owned()
            }
            _ => clause,
        })
        .collect()
}

/// What a sentence that tells rather than asks opens with: who it is about
/// ("the status of CR-1002" may be a request's second half).
const TELLING: &[&str] = &[
    "i", "i'm", "i've", "im", "ive", "my", "we", "we're", "we've", "our", "he", "she", "his",
    "her", "they", "their", "it", "it's", "its",
];

/// Whether a clause tells something rather than asks for it: it opens with
/// who or what it is about, holds no question and no words of asking.
pub(super) fn states_a_fact(part: &str) -> bool {
    let lower = part.to_lowercase();
    // Past a greeting ("Hello! I bought a card …").
    let opening = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .find(|word| {
            !word.is_empty()
                && !matches!(
                    *word,
                    "and"
                        | "but"
                        | "so"
                        | "also"
                        | "then"
                        | "hello"
                        | "hi"
                        | "hey"
                        | "ok"
                        | "okay"
                        | "well"
                        | "sorry"
                )
        });
    // How something stands or will ("the kitchen's being refitted
    // Thursday", "nobody will be in"): told, whoever it is about.
    let describes = [
        "'s being ",
        " is being ",
        " are being ",
        " will be ",
        " won't be ",
        "nobody ",
    ]
    .iter()
    .any(|told| format!(" {lower} ").contains(told));
    (opening.is_some_and(|word| TELLING.contains(&word)) || describes)
        && !lower.contains('?')
        && !crate::detect::asks_for_something(&lower)
}

/// Whether the message names `input` for the call ("same end date", "same
/// for JR-3112": the same change, every value of it): an optional value of
/// the last turn is carried only then.
pub(super) fn names_input(message: &str, input: &str) -> bool {
    let lower = message.to_lowercase();
    let words = input.replace('_', " ").to_lowercase();
    let all_the_same = [
        "same for",
        "same again",
        "same thing",
        "do the same",
        "same as before",
    ]
    .iter()
    .any(|same| lower.contains(same));
    all_the_same
        || lower.contains(&words)
        || input
            .rsplit('_')
            .next()
            .is_some_and(|last| lower.contains(&format!("same {}", last.to_lowercase())))
}

/// Whether a clause only gives a value, named by a word of what it is
/// ("Member 6145.", "Staff no. 40219", "Account VSL-3180"): no request of
/// its own, but a value of the message's request.
pub(super) fn only_gives_a_value(skill: &adas_skill::model::Skill, part: &str) -> bool {
    const FILLER: &[&str] = &[
        "please", "thanks", "my", "is", "it's", "no", "number", "id", "#",
    ];
    let words: Vec<String> = part
        .split_whitespace()
        .map(|word| {
            word.trim_matches(|c: char| !(c.is_alphanumeric() || c == '#'))
                .to_lowercase()
        })
        .filter(|word| !word.is_empty() && !FILLER.contains(&word.as_str()))
        .collect();
    let valued = |word: &str| word.chars().any(|c| c.is_ascii_digit());
    let input_word = |word: &str| {
        skill
            .tools
            .iter()
            .flat_map(|tool| &tool.inputs)
            .any(|input| input.name.split('_').any(|name| name == word))
    };
    // A value alone is the request's again ("… of NW101 and NW202?").
    words.iter().any(|word| valued(word))
        && words.iter().any(|word| !valued(word))
        && words.len() <= 3
        && words.iter().all(|word| valued(word) || input_word(word))
}

/// Whether the message joins a list of words by "and" after commas
/// ("pastries, fruit and coffee"): the " and " ends a list, not a request.
pub(super) fn serial_list(message: &str) -> bool {
    static LIST: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    LIST.get_or_init(|| {
        regex::Regex::new(r"(?i),\s*(?:[a-z'’-]+\s+){0,2}[a-z'’-]+\s+and\s+")
            .expect("a valid pattern")
    })
    .is_match(message)
}

/// "cancel TBK-21388 and TBK-21389", "pause ADC-1068 & ADC-1043": the part
/// once for each id of a list written in one shape, each asking the same;
/// any other part as it is.
pub(super) fn each_of_a_list(skill: &adas_skill::model::Skill, part: &str) -> Vec<String> {
    static ID: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let id = ID.get_or_init(|| {
        regex::Regex::new(r"\b[A-Za-z]{1,8}[-_]?\d{2,12}\b").expect("a valid pattern")
    });
    let ids: Vec<regex::Match<'_>> = id.find_iter(part).collect();
    let shape = |found: &regex::Match<'_>| {
        crate::written::shape_of_example(found.as_str())
            .filter(|(prefix, _, _)| !taken_twice(skill, prefix))
    };
    let joins = |gap: &str| matches!(gap.trim(), "," | "and" | ", and" | "&" | "and also");
    let mut run: Vec<&regex::Match<'_>> = Vec::new();
    for found in &ids {
        let continues = run.last().is_some_and(|last| {
            shape(last).is_some()
                && shape(last) == shape(found)
                && joins(&part[last.end()..found.start()])
        });
        if continues {
            run.push(found);
        } else if run.len() >= 2 {
            break;
        } else {
            run = vec![found];
        }
    }
    match (run.first(), run.last()) {
        (Some(first), Some(last)) if run.len() >= 2 => run
            .iter()
            .map(|found| {
                format!(
                    "{}{}{}",
                    &part[..first.start()],
                    found.as_str(),
                    &part[last.end()..]
                )
            })
            .collect(),
        _ => vec![part.to_owned()],
    }
}

/// Whether a part of a message of several is acted on beside the others:
/// understood, or a read it gives a value for and asks for ("…, and also
/// tell me what we still owe on CTR-4391": reading risks nothing) — never
/// a part that tells ("I joined in March 2025 (member M-2050)").
pub(super) fn acted_on_beside_others(
    skill: &adas_skill::model::Skill,
    part: &str,
    detection: &crate::detect::Detection,
) -> bool {
    const SHOW: &[&str] = &[
        "tell", "show", "pull", "check", "look", "find", "give", "let", "send",
    ];
    let lower = part.to_lowercase();
    let opening = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .find(|word| !word.is_empty() && !matches!(*word, "and" | "also" | "please" | "then"));
    let asks = part.contains('?')
        || crate::detect::asks_for_something(&lower)
        || opening.is_some_and(|word| SHOW.contains(&word));
    detection.confident
        || (asks
            && detection.out_of_domain.is_none()
            && detection
                .intent_id
                .as_deref()
                .is_some_and(|intent| crate::detect::only_reads(skill, intent))
            && detection.entities.iter().any(|entity| !entity.guessed))
}

/// The parts that ask, with their detections: a part understood as nothing,
/// giving no value, neither asking nor questioning ("The Atlanta workshop is
/// off.") only tells why.
pub(super) fn asking(
    parts: Vec<String>,
    detections: Vec<crate::detect::Detection>,
) -> (Vec<String>, Vec<crate::detect::Detection>) {
    parts
        .into_iter()
        .zip(detections)
        .filter(|(part, detection)| {
            detection.confident
                || !detection.entities.is_empty()
                || part.contains('?')
                || crate::detect::asks_for_something(&part.to_lowercase())
        })
        .unzip()
}

/// How many different actions the parts ask for, each on its own thing (a
/// part that names an id and says more than the id).
pub(super) fn actions_on_their_own_things(
    skill: &adas_skill::model::Skill,
    parts: &[String],
    detections: &[crate::detect::Detection],
) -> usize {
    let mut actions: Vec<&str> = parts
        .iter()
        .zip(detections)
        .filter(|(part, _)| {
            part.split_whitespace().any(|word| {
                word.chars().filter(char::is_ascii_digit).count() >= 2
                    && word.chars().any(char::is_alphabetic)
            })
            // "… please. CAND-40817": an id alone names no action.
            && part
                .split_whitespace()
                .any(|word| word.chars().all(char::is_alphabetic))
        })
        .filter_map(|(_, detection)| detection.intent_id.as_deref())
        .filter(|intent| !crate::detect::only_reads(skill, intent))
        .collect();
    actions.sort_unstable();
    actions.dedup();
    actions.len()
}

/// "Pause ADC-1068 and ADC-1043", split at "and": a part that is an id alone,
/// in the shape of an id of the part before, asks what that part asks.
pub(super) fn ids_alone_carried(
    skill: &adas_skill::model::Skill,
    parts: Vec<String>,
) -> Vec<String> {
    let mut carried: Vec<String> = Vec::with_capacity(parts.len());
    for part in parts {
        let alone = part.trim().trim_matches(['.', ',', '?', '!']);
        let shape = crate::written::shape_of_example(alone)
            .filter(|(prefix, _, _)| !taken_twice(skill, prefix));
        let before = carried.last().and_then(|before| {
            before
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                .find(|word| shape.is_some() && crate::written::shape_of_example(word) == shape)
                .map(|id| before.replacen(id, alone, 1))
        });
        carried.push(before.unwrap_or(part));
    }
    carried
}

/// Whether a tool takes two ids of one prefix ("merge TK-1 and TK-2"): a
/// list of them is then one call's values, not one call each.
fn taken_twice(skill: &adas_skill::model::Skill, prefix: &str) -> bool {
    skill.tools.iter().any(|tool| {
        tool.inputs
            .iter()
            .filter(|input| {
                let pattern = input.pattern.as_deref().unwrap_or_default();
                let description = input.description.as_deref().unwrap_or_default();
                pattern.contains(prefix) || description.contains(prefix)
            })
            .count()
            >= 2
    })
}
