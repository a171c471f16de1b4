//! Evidence for an intent beyond its examples: the values a message names
//! (allowed values, the intent's own inputs) and the actions it names.

use super::*;

/// How much a value of the message that fits an intent's slot (its type,
/// pattern or enum — an `LV-` id for the leave request, an amount for the
/// claim) adds to the intent's score, per value.
pub(super) const VALUE_WEIGHT: f64 = 0.08;

/// At most this much.
pub(super) const MAX_VALUE_BONUS: f64 = 0.2;

/// The candidates with what the message's values say: an intent that would
/// take a value the user wrote gains a little over one that would not. A
/// value every candidate takes tells them nothing apart and counts for none.
pub(super) fn with_values(
    evidence: &Evidence,
    candidates: Vec<(String, f64)>,
) -> Vec<(String, f64)> {
    // The spans of the values each candidate would take.
    let taken: Vec<&[(usize, usize)]> = candidates
        .iter()
        .map(|(intent_id, _)| evidence.of_intent(intent_id))
        .collect();
    let in_play = candidates.iter().filter(|(_, score)| *score > 0.0).count();
    let mut scored: Vec<(String, f64)> = candidates
        .into_iter()
        .zip(&taken)
        .map(|((intent_id, score), spans)| {
            // A value only suggested by a word of its description or the
            // glossary ("the cardiac unit") weighs half a value written.
            let telling: f64 = spans
                .iter()
                .filter(|span| {
                    let takers = taken.iter().filter(|other| other.contains(span)).count();
                    takers < in_play
                })
                .map(|span| {
                    if evidence.suggested.contains(span) {
                        VALUE_WEIGHT / 2.0
                    } else {
                        VALUE_WEIGHT
                    }
                })
                .sum();
            let bonus = telling.min(MAX_VALUE_BONUS);
            // Values alone never bring a message into the domain.
            let score = if score > 0.0 {
                (score + bonus).min(1.0)
            } else {
                0.0
            };
            (intent_id, score)
        })
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    scored
}

/// Whether the message writes a value of one of the intent's lists of
/// allowed values ("blowout" of `[haircut, color, blowout]`).
pub(super) fn names_allowed_value(skill: &Skill, intent_id: &str, message: &str) -> bool {
    let read = crate::values::Read::of(message);
    skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .filter(|intent| intent.id == intent_id)
        .flat_map(|intent| &intent.entities)
        .flat_map(|entity| &entity.allowed)
        .filter_map(Json::as_str)
        .any(|value| !read.spans_of(value).is_empty())
}

/// Whether the message says a word of an input only this intent's tools
/// take ("a pass" of `pass_type`): what is wanted, by name.
pub(super) fn names_own_input(skill: &Skill, intent_id: &str, said: &HashSet<String>) -> bool {
    const GENERIC: &[&str] = &["id", "type", "number", "date", "name", "amount", "code"];
    let words = |intent: &str| -> HashSet<String> {
        intent_inputs(skill, intent)
            .iter()
            .flat_map(|input| {
                input
                    .split('_')
                    .filter(|word| !GENERIC.contains(word))
                    .map(lexicon::stem)
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let own = words(intent_id);
    let others: HashSet<String> = skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .filter(|intent| intent.id != intent_id)
        .flat_map(|intent| words(&intent.id))
        .collect();
    own.iter()
        .any(|word| !others.contains(word) && said.contains(word))
}

/// Whether the message names the action of an intent that changes
/// something.
pub(super) fn names_an_action(skill: &Skill, corpus: &Corpus, said: &HashSet<String>) -> bool {
    skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .enumerate()
        .any(|(index, intent)| {
            !only_reads(skill, &intent.id)
                && corpus
                    .actions
                    .get(index)
                    .is_some_and(|words| !words.is_empty())
                && corpus.names_action(index, said)
        })
}

/// The values of a message each intent of the skill would take, matched
/// (never guessed), by byte span: read once per message, asked many times.
pub(super) struct Evidence {
    pub(super) spans: Vec<(String, Vec<(usize, usize)>)>,
    /// The spans that say when (a date, a time of day).
    whens: Vec<(usize, usize)>,
    /// The spans of allowed values only suggested by a word of their
    /// description or the glossary.
    suggested: Vec<(usize, usize)>,
}

impl Evidence {
    pub(super) fn of(skill: &Skill, message: &str) -> Self {
        let vocabulary = Vocabulary::of(skill);
        let empty = Map::new();
        let mut whens = Vec::new();
        let mut suggested = Vec::new();
        let spans = skill
            .intents
            .iter()
            .flat_map(|intents| &intents.supported)
            .map(|intent| {
                let found = extract(skill, intent, message, &empty, &vocabulary);
                // An allowed value its description or the glossary names
                // ("the cardiac unit" for `CCU`) points at the intents that
                // take it as its own word does; a word placed by its
                // position does not.
                let found: Vec<_> = found
                    .iter()
                    .filter(|entity| !entity.guessed || entity.kind == "enum")
                    .collect();
                whens.extend(
                    found
                        .iter()
                        .filter(|entity| {
                            matches!(entity.kind.as_str(), "date" | "time" | "datetime")
                        })
                        .map(|entity| (entity.start, entity.end)),
                );
                suggested.extend(
                    found
                        .iter()
                        .filter(|entity| entity.guessed)
                        .map(|entity| (entity.start, entity.end)),
                );
                let taken = found
                    .iter()
                    .map(|entity| (entity.start, entity.end))
                    .collect();
                (intent.id.clone(), taken)
            })
            .collect();
        Self {
            spans,
            whens,
            suggested,
        }
    }

    /// [`Self::alone`] by a value that is no date or time: in a message that
    /// only tells what happened, when it happened names no action.
    pub(super) fn alone_but_when(&self, intent_id: &str) -> bool {
        self.of_intent(intent_id)
            .iter()
            .filter(|span| !self.whens.contains(span) && !self.suggested.contains(span))
            .any(|span| {
                self.spans
                    .iter()
                    .filter(|(id, _)| id != intent_id)
                    .all(|(_, taken)| !taken.contains(span))
            })
    }

    /// The spans the intent would take (none for an unknown intent).
    pub(super) fn of_intent(&self, intent_id: &str) -> &[(usize, usize)] {
        self.spans
            .iter()
            .find(|(id, _)| id == intent_id)
            .map_or(&[], |(_, spans)| spans.as_slice())
    }

    /// The intents that take some value of the message.
    pub(super) fn takers(&self) -> impl Iterator<Item = &str> {
        self.spans
            .iter()
            .filter(|(_, spans)| !spans.is_empty())
            .map(|(id, _)| id.as_str())
    }

    /// Whether the message holds a value that only this intent of the skill
    /// takes ("load $30 onto U-5002": only the top-up takes an amount) — as
    /// telling of its action as a word for it.
    /// A value only suggested by a word of its description ("Dayton" for a
    /// site) is not that telling.
    pub(super) fn alone(&self, intent_id: &str) -> bool {
        self.alone_where(intent_id, |_| true, |span| !self.suggested.contains(span))
    }

    /// Whether the message holds a value that `intent_id` takes and none of
    /// the other intents `rival` admits does.
    pub(super) fn alone_among(&self, intent_id: &str, rival: impl Fn(&str) -> bool) -> bool {
        self.alone_where(intent_id, rival, |_| true)
    }

    fn alone_where(
        &self,
        intent_id: &str,
        rival: impl Fn(&str) -> bool,
        counts: impl Fn(&(usize, usize)) -> bool,
    ) -> bool {
        self.of_intent(intent_id)
            .iter()
            .filter(|span| counts(span))
            .any(|span| {
                self.spans
                    .iter()
                    .filter(|(id, _)| id != intent_id && rival(id))
                    .all(|(_, taken)| !taken.contains(span))
            })
    }
}

/// A request said by its thing, not its verb ("Offer for CAND-4491: $142,500
/// base …", "Daycare for Juniper on Thursday"): the message opens with the
/// noun the intent's name puts after its verb, then "for"; and any other
/// intent that noun names is one whose verb the message does not use.
pub(super) fn asks_by_its_noun(skill: &Skill, intent_id: &str, message: &str) -> bool {
    const OPENERS: &[&str] = &["hi", "hello", "hey", "morning", "please", "ok", "okay"];
    if is_question(message) {
        return false;
    }
    let words: Vec<String> = message
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .skip_while(|word| OPENERS.contains(&word.as_str()))
        .take(2)
        .collect();
    let [first, second] = words.as_slice() else {
        return false;
    };
    let parts = |id: &str| -> Vec<String> { id.split('_').map(lexicon::stem).collect() };
    let noun = lexicon::stem(first);
    let own = parts(intent_id);
    if second != "for" || own.len() < 2 || !own[1..].contains(&noun) {
        return false;
    }
    let said: HashSet<String> = message
        .split(|c: char| !c.is_alphanumeric())
        .map(|word| lexicon::stem(&word.to_lowercase()))
        .collect();
    skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .filter(|intent| intent.id != intent_id)
        .all(|intent| {
            let other = parts(&intent.id);
            !other.contains(&noun) || (other.len() >= 2 && !said.contains(&other[0]))
        })
}
