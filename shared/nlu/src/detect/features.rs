//! A message as features: its words (entities as their class, stop words out,
//! negation kept), typos corrected toward the skill's words, vectors and their
//! cosine, and the classes a message is scored in.

use super::*;

/// The class of a token that is an entity rather than a word: its *kind* says
/// something about the intent (a message with an email), its value does not.
pub(super) fn entity_class(raw: &str) -> Option<&'static str> {
    if raw.contains('@') {
        Some("<email>")
    } else if raw.contains('/') {
        Some("<path>")
    } else if raw.chars().any(|c| c.is_ascii_digit()) {
        if crate::entities::parse_amount(raw.trim_end_matches(['.', ',', '?', '!'])).is_some() {
            return Some("<number>");
        }
        let alphabetic = raw.chars().filter(|c| c.is_alphabetic()).count();
        if alphabetic > 0 && !raw.starts_with('$') {
            Some("<id>")
        } else {
            Some("<number>")
        }
    } else {
        None
    }
}

/// Words that turn a request around ("I don't need the refill anymore").
pub(super) const NEGATIONS: &[&str] = &[
    "don't", "dont", "not", "never", "anymore", "won't", "can't", "cannot",
];

/// The feature of a negation.
pub(super) const NOT: &str = "<not>";

/// The message's words, lower case, entities as their class, stop words out.
pub(super) fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split_whitespace()
        .flat_map(|raw| match entity_class(raw) {
            // A value a tool input's pattern matched (see `Corpus::classify`).
            _ if raw.starts_with("<in:") && raw.ends_with('>') => vec![raw.to_owned()],
            // An id's prefix says what it is ("LV-2002" is a leave request).
            Some("<id>") => {
                let prefix: String = raw
                    .trim_start_matches(|c: char| !c.is_alphanumeric())
                    .chars()
                    .take_while(|c| c.is_alphabetic())
                    .collect();
                if prefix.is_empty() {
                    vec!["<id>".to_owned()]
                } else {
                    vec![format!("<id:{prefix}>")]
                }
            }
            Some(class) => vec![class.to_owned()],
            None => raw
                .split(|c: char| !(c.is_alphanumeric() || c == '\''))
                .map(str::to_owned)
                .collect(),
        })
        .map(|word| word.trim_matches('\'').to_owned())
        .map(|word| {
            match SHORTHAND
                .iter()
                .chain(QUESTION_WORDS)
                .find(|(short, _)| *short == word)
            {
                Some((_, long)) => (*long).to_owned(),
                // "don't need it anymore" is not "need it".
                None if NEGATIONS.contains(&word.as_str()) => NOT.to_owned(),
                // "three days" reads as "3 days" does.
                None if crate::values::number_word(&word).is_some() => "<number>".to_owned(),
                // "saturdays" as "saturday".
                None if DAY_WORDS.contains(&word.as_str())
                    || DAY_WORDS.contains(&word.trim_end_matches('s')) =>
                {
                    "<date>".to_owned()
                }
                None => word,
            }
        })
        .filter(|word| !word.is_empty() && !STOPWORDS.contains(&word.as_str()))
        .collect()
}

/// Features of words: each word's stem and the character trigrams of the word
/// (with boundary marks), so "refunded" meets "refund" and "cancl" half meets
/// "cancel".
pub(super) fn features_of(words: &[String]) -> Vec<String> {
    let mut features = Vec::new();
    for word in words {
        if word.starts_with('<') {
            features.push(word.clone());
            continue;
        }
        let marked: Vec<char> = format!("<{word}>").chars().collect();
        for window in marked.windows(3) {
            features.push(format!("#{}", window.iter().collect::<String>()));
        }
        features.push(lexicon::stem(word));
    }
    features
}

pub(super) fn features(text: &str) -> Vec<String> {
    features_of(&words(text))
}

/// A word of the message that is no English word and no word of the skill, one
/// edit (two for long words) from exactly one word of the skill: that word.
/// "cancl" is "cancel", "vacaton" is "vacation"; "block" stays (English).
pub(super) fn corrected(word: &str, skill_words: &HashSet<String>) -> Option<String> {
    let length = word.chars().count();
    if word.starts_with('<')
        || length < 4
        || !word.chars().all(|c| c.is_ascii_alphabetic())
        || skill_words.contains(word)
        || lexicon::lexicon().knows(&lexicon::stem(word))
    {
        return None;
    }
    let allowed = if length <= 5 { 1 } else { 2 };
    let mut best: Option<(usize, &String)> = None;
    let mut tied = false;
    for target in skill_words {
        let target_length = target.chars().count();
        if target_length < 4
            || target_length.abs_diff(length) > allowed
            || target.chars().next() != word.chars().next()
        {
            continue;
        }
        let distance = strsim::damerau_levenshtein(word, target);
        if distance > allowed {
            continue;
        }
        match best {
            Some((known, _)) if distance > known => {}
            Some((known, other)) if distance == known => {
                tied |= lexicon::stem(other) != lexicon::stem(target);
            }
            _ => {
                best = Some((distance, target));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(_, target)| target.clone())
}

/// The message's features as the skill would spell them: typos corrected to
/// the skill's words, and a word the skill does not use joined by the skill's
/// words that share a common sense with it ("holiday" brings "vacation").
pub(super) fn query_features(
    text: &str,
    skill_words: &HashSet<String>,
    skill_stems: &HashSet<String>,
) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for word in self::words(text) {
        // An id whose prefix the skill's examples use is that kind of id;
        // any other is just an id.
        if word.starts_with("<id:") && !skill_words.contains(&word) {
            words.push("<id>".to_owned());
            continue;
        }
        words.push(corrected(&word, skill_words).unwrap_or(word));
    }
    let mut features = features_of(&words);
    // Phrasal verbs ("call off", "pick it up"): a phrase of two or three
    // words, or two around a pronoun, joined by the skill's words of its sense.
    let raw: Vec<String> = text
        .to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|word| !word.is_empty())
        .map(lexicon::stem)
        .collect();
    let mut phrases: Vec<String> = Vec::new();
    for window in raw.windows(2) {
        phrases.push(window.join("_"));
    }
    // Or around a value ("push AP-3004 back").
    let valued: Vec<String> = text
        .split_whitespace()
        .map(|token| {
            if token.starts_with('<') || token.chars().any(|c| c.is_ascii_digit()) {
                "<value>".to_owned()
            } else {
                lexicon::stem(
                    &token
                        .to_lowercase()
                        .replace(|c: char| !c.is_alphanumeric() && c != '\'', ""),
                )
            }
        })
        .collect();
    for window in valued.windows(3) {
        if window[1] == "<value>" && !window[0].starts_with('<') && !window[2].starts_with('<') {
            phrases.push(format!("{}_{}", window[0], window[2]));
        }
    }
    for window in raw.windows(3) {
        phrases.push(window.join("_"));
        if matches!(
            window[1].as_str(),
            "it" | "me" | "them" | "him" | "her" | "us" | "thi" | "that"
        ) {
            phrases.push(format!("{}_{}", window[0], window[2]));
        }
    }
    // Or around a short noun phrase ("put a budget sync in", "call the
    // whole thing off"): a verb, a determiner opening two or three words,
    // and the particle — which ends the phrase: one followed by another noun
    // phrase is a preposition ("put a note in the file"), and "on" rarely is
    // a particle ("put a TSH on SMP-4847").
    let determiner = |word: &str| {
        matches!(
            word,
            "a" | "an" | "the" | "my" | "our" | "your" | "thi" | "that"
        )
    };
    for size in [4, 5] {
        for (at, window) in raw.windows(size).enumerate() {
            let particle = &window[size - 1];
            let next = raw.get(at + size).map(String::as_str);
            if determiner(&window[1])
                && matches!(
                    particle.as_str(),
                    "in" | "up" | "off" | "out" | "back" | "down"
                )
                && !next.is_some_and(determiner)
            {
                phrases.push(format!("{}_{particle}", window[0]));
            }
        }
    }
    for phrase in phrases {
        let mut synonyms: Vec<&str> = lexicon::lexicon()
            .synonyms(&phrase)
            .filter(|synonym| skill_stems.contains(*synonym))
            .collect();
        synonyms.sort();
        synonyms.dedup();
        features.extend(synonyms.into_iter().map(str::to_owned));
    }
    for word in &words {
        let stem = lexicon::stem(word);
        if word.starts_with('<') || skill_stems.contains(&stem) {
            continue;
        }
        let mut synonyms: Vec<&str> = lexicon::lexicon()
            .synonyms(&stem)
            .filter(|synonym| skill_stems.contains(*synonym))
            .collect();
        synonyms.sort();
        synonyms.dedup();
        features.extend(synonyms.into_iter().map(str::to_owned));
    }
    features
}

pub(super) fn vectorize(
    features: &[String],
    idf: &HashMap<String, f64>,
    default_idf: f64,
) -> Vector {
    let mut counts: HashMap<&str, f64> = HashMap::default();
    for feature in features {
        *counts.entry(feature.as_str()).or_default() += 1.0;
    }
    counts
        .into_iter()
        .map(|(feature, count)| {
            // Whole words weigh more than their trigrams; a question word
            // ("what", "where") leans, it never decides alone.
            let weight = if feature.starts_with('#') {
                0.5
            } else if is_question_word(feature) {
                QUESTION_WEIGHT
            } else {
                1.0
            };
            let idf = idf.get(feature).copied().unwrap_or(default_idf);
            (feature.to_owned(), (1.0 + f64::ln(count)) * idf * weight)
        })
        .collect()
}

/// A vector's length, kept beside the vector where it is compared often.
pub(super) fn norm(vector: &Vector) -> f64 {
    vector.values().map(|x| x * x).sum::<f64>().sqrt()
}

/// The cosine of two vectors whose lengths are known: the shorter one is
/// walked and the longer probed, so a 400-word message against a skill's
/// many short examples costs the examples' words, not the message's.
pub(super) fn cosine_normed((a, na): (&Vector, f64), (b, nb): (&Vector, f64)) -> f64 {
    if na == 0.0 || nb == 0.0 {
        return 0.0;
    }
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let dot: f64 = short
        .iter()
        .filter_map(|(feature, x)| long.get(feature).map(|y| x * y))
        .sum();
    dot / (na * nb)
}

/// `text` with each token a tool input's pattern matches written as that
/// input's kind of value (`<in:username>` for "ann.lee"), so "unlock gus.ong"
/// meets "Unlock the account bob.ray".
pub(super) fn classify(classes: &Classes, text: &str) -> String {
    // Allowed values first, as written or not ("my brakes checked" is a
    // `service`): a value the message names is no word of the request, so
    // "how much is a tire rotation?" meets the price's examples, not the
    // booking's that happen to name the same service.
    let mut spans: Vec<(usize, usize, &str)> = Vec::new();
    let read = crate::values::Read::of(text);
    for (name, value) in &classes.values {
        for (start, end) in read.spans_of(value) {
            if !spans.iter().any(|(s, e, _)| start < *e && *s < end) {
                spans.push((start, end, name));
            }
        }
    }
    spans.sort();
    let mut valued = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end, name) in spans {
        valued.push_str(&text[at..start]);
        valued.push_str(&format!(" <in:{name}> "));
        // A value only one intent takes ("meals" for the expense claim)
        // says which intent as a word does, too.
        if classes.owned.contains(name) {
            valued.push_str(&text[start..end]);
            valued.push(' ');
        }
        at = end;
    }
    valued.push_str(&text[at..]);
    let patterns = &classes.patterns;
    valued
        .split_whitespace()
        .map(|raw| {
            if raw.starts_with("<in:") {
                return raw.to_owned();
            }
            let token = raw.trim_matches(|c: char| {
                matches!(c, ',' | '.' | '?' | '!' | ':' | ';' | '(' | ')' | '"')
            });
            let token = token.strip_suffix("'s").unwrap_or(token);
            let shaped = token.chars().any(|c| c.is_ascii_alphabetic())
                && token.chars().any(|c| !c.is_ascii_alphabetic());
            let matched = patterns.iter().filter(|_| shaped).find(|(_, pattern)| {
                pattern.is_match(token) || pattern.is_match(&token.to_uppercase())
            });
            match matched {
                Some((name, _)) => format!("<in:{name}>"),
                None => raw.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the detector reads as a kind of value rather than words: the tool
/// inputs whose pattern asks for a letter ("ann.lee", "RX-1001") and the
/// allowed values of the tools' inputs ("tire rotation"), by input name.
#[derive(Default)]
pub(super) struct Classes {
    pub(super) patterns: Vec<(String, std::sync::Arc<regex::Regex>)>,
    pub(super) values: Vec<(String, String)>,
    /// The inputs with allowed values that only one intent's tools take.
    pub(super) owned: HashSet<String>,
}

impl Classes {
    pub(super) fn of(skill: &Skill) -> Self {
        let mut classes = Self::default();
        for input in skill.tools.iter().flat_map(|tool| &tool.inputs) {
            for value in input.allowed.iter().filter_map(|value| value.as_str()) {
                let value = value.to_lowercase();
                // A value that is a common little word ("on", "no") stays one.
                if value.chars().count() < 3 || STOPWORDS.contains(&value.as_str()) {
                    continue;
                }
                if !classes.values.iter().any(|(_, known)| *known == value) {
                    classes.values.push((input.name.clone(), value));
                }
            }
            let Some(pattern) = input.pattern.as_deref() else {
                continue;
            };
            if classes.patterns.iter().any(|(name, _)| *name == input.name) {
                continue;
            }
            if let Some(regex) = adas_skill::grammar::compiled_pattern(pattern)
                && pattern
                    .chars()
                    .any(|c| c.is_ascii_alphabetic() && !matches!(c, 'd' | 'w' | 's' | 'b'))
            {
                classes.patterns.push((input.name.clone(), regex));
            }
        }
        for (name, _) in &classes.values {
            let takers = skill
                .intents
                .iter()
                .flat_map(|intents| &intents.supported)
                .filter(|intent| intent_inputs(skill, &intent.id).contains(name))
                .count();
            if takers <= 1 {
                classes.owned.insert(name.clone());
            }
        }
        // Longer values first: "hot desk" before "desk".
        classes
            .values
            .sort_by_key(|(_, value)| std::cmp::Reverse(value.len()));
        classes
    }
}

/// In how many documents each feature occurs.
pub(super) fn document_frequency_of(documents: &[(usize, Vec<String>)]) -> HashMap<String, f64> {
    let mut frequency: HashMap<String, f64> = HashMap::default();
    for (_, doc) in documents {
        for feature in doc.iter().collect::<HashSet<_>>() {
            *frequency.entry(feature.clone()).or_default() += 1.0;
        }
    }
    frequency
}
