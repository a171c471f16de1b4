//! Intent detection: TF-IDF cosine between the message and each intent's
//! examples and description, over word tokens plus character trigrams (so
//! "refunded" still meets "refund"). The best intent's score is its confidence;
//! below the skill's `intents.thresholds.reject` (default
//! [`DEFAULT_REJECT_THRESHOLD`]) the message is out of domain.

use std::collections::{HashMap, HashSet};

use adas_skill::model::Skill;
use serde_json::{Map, Value as Json};

use crate::entities::{Entity, extract};

/// Below this best score a message is out of domain (when the skill sets no
/// `intents.thresholds.reject`). Tuned on the shipped templates' intent table.
pub const DEFAULT_REJECT_THRESHOLD: f64 = 0.18;

/// The skill's out-of-domain handling, as detected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutOfDomain {
    /// `out_of_domain.action` (default `redirect`).
    pub action: String,
    /// `out_of_domain.message` (a default when the skill has none).
    pub message: String,
}

/// What was detected in a message.
#[derive(Debug, Clone, PartialEq)]
pub struct Detection {
    /// The best intent; `None` when out of domain.
    pub intent_id: Option<String>,
    /// Its score in [0, 1].
    pub confidence: f64,
    /// Entities of the intent found in the message.
    pub entities: Vec<Entity>,
    /// Every intent with its score, best first.
    pub candidates: Vec<(String, f64)>,
    /// Set when the message is out of domain.
    pub out_of_domain: Option<OutOfDomain>,
}

const STOPWORDS: &[&str] = &[
    "a", "an", "the", "i", "me", "my", "we", "our", "you", "your", "it", "is", "are", "was", "be",
    "to", "of", "for", "in", "on", "at", "and", "or", "please", "can", "could", "would", "do",
    "does", "did", "this", "that", "with", "from", "im", "i'm", "hi", "hello", "hey", "some",
    // Question words open many messages in and out of domain alike.
    "what", "what's", "whats", "where", "where's", "when", "which", "who", "how", "why", "like",
    "today", "tell",
];

/// The class of a token that is an entity rather than a word: its *kind* says
/// something about the intent (a message with an email), its value does not.
fn entity_class(raw: &str) -> Option<&'static str> {
    if raw.contains('@') {
        Some("<email>")
    } else if raw.contains('/') {
        Some("<path>")
    } else if raw.chars().any(|c| c.is_ascii_digit()) {
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

fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split_whitespace()
        .flat_map(|raw| match entity_class(raw) {
            Some(class) => vec![class.to_owned()],
            None => raw
                .split(|c: char| !(c.is_alphanumeric() || c == '\''))
                .map(str::to_owned)
                .collect(),
        })
        .map(|word| word.trim_matches('\'').to_owned())
        .filter(|word| !word.is_empty() && !STOPWORDS.contains(&word.as_str()))
        .collect()
}

/// Word tokens and their character trigrams (with boundary marks).
fn features(text: &str) -> Vec<String> {
    let mut features = Vec::new();
    for word in words(text) {
        if word.starts_with('<') {
            features.push(word);
            continue;
        }
        let marked: Vec<char> = format!("<{word}>").chars().collect();
        for window in marked.windows(3) {
            features.push(format!("#{}", window.iter().collect::<String>()));
        }
        features.push(word);
    }
    features
}

type Vector = HashMap<String, f64>;

fn vectorize(features: &[String], idf: &HashMap<String, f64>, default_idf: f64) -> Vector {
    let mut counts: HashMap<&str, f64> = HashMap::new();
    for feature in features {
        *counts.entry(feature.as_str()).or_default() += 1.0;
    }
    counts
        .into_iter()
        .map(|(feature, count)| {
            // Whole words weigh more than their trigrams.
            let weight = if feature.starts_with('#') { 0.5 } else { 1.0 };
            let idf = idf.get(feature).copied().unwrap_or(default_idf);
            (feature.to_owned(), (1.0 + f64::ln(count)) * idf * weight)
        })
        .collect()
}

fn cosine(a: &Vector, b: &Vector) -> f64 {
    let dot: f64 = a
        .iter()
        .filter_map(|(feature, x)| b.get(feature).map(|y| x * y))
        .sum();
    let norm = |v: &Vector| v.values().map(|x| x * x).sum::<f64>().sqrt();
    let (na, nb) = (norm(a), norm(b));
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na * nb)
    }
}

/// Detects the intent and entities of a message for a skill.
pub fn detect(skill: &Skill, message: &str, context: &Map<String, Json>) -> Detection {
    let intents = skill.intents.clone().unwrap_or_default();
    let documents: Vec<(usize, Vec<String>)> = intents
        .supported
        .iter()
        .enumerate()
        .flat_map(|(index, intent)| {
            intent
                .examples
                .iter()
                .map(|example| features(example))
                .chain(intent.description.iter().map(|text| features(text)))
                .map(move |doc| (index, doc))
        })
        .collect();
    let total = documents.len().max(1) as f64;
    let mut document_frequency: HashMap<String, f64> = HashMap::new();
    for (_, doc) in &documents {
        for feature in doc.iter().collect::<HashSet<_>>() {
            *document_frequency.entry(feature.clone()).or_default() += 1.0;
        }
    }
    let idf: HashMap<String, f64> = document_frequency
        .into_iter()
        .map(|(feature, df)| (feature, f64::ln((1.0 + total) / (1.0 + df)) + 1.0))
        .collect();
    let default_idf = f64::ln(1.0 + total) + 1.0;
    let query = vectorize(&features(message), &idf, default_idf);

    let mut scores = vec![0.0f64; intents.supported.len()];
    for (index, doc) in &documents {
        let score = cosine(&query, &vectorize(doc, &idf, default_idf));
        if score > scores[*index] {
            scores[*index] = score;
        }
    }
    let mut candidates: Vec<(String, f64)> = intents
        .supported
        .iter()
        .zip(&scores)
        .map(|(intent, score)| (intent.id.clone(), (*score).clamp(0.0, 1.0)))
        .collect();
    candidates.sort_by(|a, b| b.1.total_cmp(&a.1));

    let threshold = intents
        .thresholds
        .as_ref()
        .and_then(|thresholds| thresholds.reject)
        .unwrap_or(DEFAULT_REJECT_THRESHOLD);
    let best = candidates.first().cloned();
    match best {
        Some((intent_id, confidence)) if confidence >= threshold => {
            let intent = intents
                .supported
                .iter()
                .find(|intent| intent.id == intent_id)
                .expect("candidate intents exist");
            let entities = extract(intent, message, context);
            Detection {
                intent_id: Some(intent_id),
                confidence,
                entities,
                candidates,
                out_of_domain: None,
            }
        }
        best => {
            let out_of_domain = intents.out_of_domain.clone().unwrap_or_default();
            Detection {
                intent_id: None,
                confidence: best.map_or(0.0, |(_, score)| score),
                entities: Vec::new(),
                candidates,
                out_of_domain: Some(OutOfDomain {
                    action: out_of_domain.action.unwrap_or_else(|| "redirect".into()),
                    message: out_of_domain
                        .message
                        .unwrap_or_else(|| "Sorry, I can't help with that.".into())
                        .trim()
                        .to_owned(),
                }),
            }
        }
    }
}
