//! The corpus of a skill: its examples as TF-IDF vectors of stems and
//! trigrams, the words its intents own, and how a message is scored against it.

use super::*;

/// A skill's intents as documents: each example and description, and each
/// intent whole, weighted by TF-IDF.
pub(super) struct Corpus {
    pub(super) idf: HashMap<String, f64>,
    pub(super) default_idf: f64,
    /// (intent index, (an example's vector, its length)).
    pub(super) examples: Vec<(usize, (Vector, f64))>,
    /// Each intent's distinct features as one vector, with its length.
    pub(super) whole: Vec<(Vector, f64)>,
    /// The skill's words (for typo correction) and their stems (for synonyms).
    pub(super) words: HashSet<String>,
    pub(super) stems: HashSet<String>,
    /// Features that tie a message to the skill (see `Corpus::of`).
    pub(super) anchors: HashSet<String>,
    /// Values read as their input's kind (see `Classes`).
    pub(super) classes: Classes,
    /// Words only one intent's author statement uses (its name, description,
    /// tools), with that intent.
    pub(super) own: HashMap<String, usize>,
    /// Per intent, what its author says it is (see `Corpus::of`), less the
    /// words every intent is said to be and the wrappers.
    pub(super) stated: Vec<HashSet<String>>,
    /// Per intent that changes something, the words that name its action
    /// (see `Corpus::of`); empty for an intent that only reads.
    pub(super) actions: Vec<HashSet<String>>,
}

/// What a word only one intent uses adds to that intent's score ("please
/// cancel my desk": "cancel" is the cancellation's alone, "desk" everyone's).
pub(super) const OWN_WORD_WEIGHT: f64 = 0.08;

/// At most this much.
pub(super) const MAX_OWN_WORD_BONUS: f64 = 0.16;

/// Words that say how many, not what ("any desks?"), as stems.
pub(super) const DETERMINERS: &[&str] = &[
    "ani", "anyth", "all", "everi", "each", "no", "none", "other", "anoth", "more", "less", "much",
    "mani",
];

/// Verbs that wrap a request rather than name it ("show me …", "I need …",
/// "do you have …"), as stems: no sign of one intent.
pub(super) const WRAPPERS: &[&str] = &[
    "show", "see", "want", "need", "have", "give", "let", "make", "take", "know", "find", "help",
    "tell", "look", "say", "ask", "tri", "wonder", "done",
    // A negation is no action of its own ("no sign of the bus").
    "no",
];

impl Corpus {
    /// The corpus of `skill`, built once per skill content (see
    /// [`crate::kept`]): building it (stems, trigrams, the lexicon's senses
    /// of every example) costs far more than scoring a message against it.
    pub(super) fn shared(skill: &Skill) -> std::sync::Arc<Self> {
        crate::kept::kept(skill, Self::of)
    }

    pub(super) fn of(skill: &Skill) -> Self {
        let intents = skill.intents.clone().unwrap_or_default();
        let classes = Classes::of(skill);
        let classify = |text: &str| classify(&classes, text);
        let mut texts: Vec<(usize, String)> = Vec::new();
        for (index, intent) in intents.supported.iter().enumerate() {
            for example in &intent.examples {
                texts.push((index, classify(example)));
            }
            if let Some(description) = &intent.description {
                texts.push((index, description.clone()));
            }
        }
        let documents: Vec<(usize, Vec<String>)> = texts
            .iter()
            .map(|(index, text)| (*index, features(text)))
            .collect();
        let total = documents.len().max(1) as f64;
        let idf: HashMap<String, f64> = document_frequency_of(&documents)
            .into_iter()
            .map(|(feature, df)| (feature, f64::ln((1.0 + total) / (1.0 + df)) + 1.0))
            .collect();
        let default_idf = f64::ln(1.0 + total) + 1.0;
        let mut whole: Vec<Vec<String>> = vec![Vec::new(); intents.supported.len()];
        for (index, doc) in &documents {
            whole[*index].extend(doc.iter().cloned());
        }
        // What an intent's tools take is part of what it is about ("renew it, my
        // email is …": the renewal takes an email).
        // Words that make a message about the skill: the intents' names,
        // descriptions, inputs and values, and words several examples share —
        // not a noun one example happens to use ("my cat", "the box").
        let mut anchors: HashSet<String> = document_frequency_of(&documents)
            .into_iter()
            .filter(|(_, df)| *df >= 2.0)
            .map(|(feature, _)| feature)
            .collect();
        intent_words(skill, &intents, &mut anchors, &mut whole);
        // A number or a negation is no sign of the domain; trigrams are parts
        // of words; a path, an email or an id the examples use is.
        anchors.retain(|feature| {
            !feature.starts_with('#')
                && feature != "<number>"
                && feature != NOT
                && !is_question_word(feature)
        });
        anchors.extend(
            documents
                .iter()
                .flat_map(|(_, doc)| doc)
                .filter(|feature| {
                    feature.starts_with('<') && *feature != "<number>" && *feature != NOT
                })
                .cloned(),
        );
        let mut words: HashSet<String> = texts.iter().flat_map(|(_, text)| words(text)).collect();
        // Words, and the kinds of id the examples use (`<id:ord>`).
        words.retain(|word| !word.starts_with('<') || word.starts_with("<id:"));
        let stems = words
            .iter()
            .filter(|word| !word.starts_with('<'))
            .map(|word| lexicon::stem(word))
            .collect();
        let examples = documents
            .iter()
            .map(|(index, doc)| {
                let vector = vectorize(doc, &idf, default_idf);
                let length = norm(&vector);
                (*index, (vector, length))
            })
            .collect();
        // What the author says each intent is — its name, its description,
        // its tools' names and descriptions — as opposed to the nouns its
        // examples happen to use ("cancel our stay" is no sign that a stay
        // means a cancellation).
        let stated = stated_words(skill, &intents);
        let own = own_words(&stated, &whole);
        let actions = action_words(skill, &classes, &stated);
        let everyone: HashSet<String> = stated
            .iter()
            .flatten()
            .filter(|word| stated.iter().all(|words| words.contains(*word)))
            .cloned()
            .collect();
        let stated = stated
            .into_iter()
            .map(|mut words| {
                // Names of things and actions, not "by" or "new".
                words.retain(|word| {
                    !everyone.contains(word)
                        && !WRAPPERS.contains(&word.as_str())
                        && !lexicon::lexicon().only_modifies(word)
                });
                words
            })
            .collect();
        let whole = whole
            .into_iter()
            .map(|mut doc| {
                doc.sort();
                doc.dedup();
                let vector = vectorize(&doc, &idf, default_idf);
                let length = norm(&vector);
                (vector, length)
            })
            .collect();
        Self {
            own,
            stated,
            actions,
            idf,
            default_idf,
            examples,
            whole,
            words,
            stems,
            anchors,
            classes,
        }
    }

    /// Each intent's score for a text: its closest example (a message phrased
    /// like one) and all its examples at once (words only this intent uses —
    /// "refund" — outweigh words every intent shares, such as "order"), averaged.
    pub(super) fn scores(&self, text: &str) -> Vec<f64> {
        let text = idioms(text);
        let features = query_features(&classify(&self.classes, &text), &self.words, &self.stems);
        // None of the skill's own words and at most half the message known:
        // out of its domain, whatever an incidental noun shares with one
        // example ("do you groom cats?").
        let words: Vec<&String> = features
            .iter()
            .filter(|feature| !feature.starts_with('#') && !is_question_word(feature))
            .collect();
        let known = words
            .iter()
            .filter(|word| self.idf.contains_key(**word))
            .count();
        if !words.iter().any(|word| self.anchors.contains(*word)) && known * 2 <= words.len() {
            return vec![0.0; self.whole.len()];
        }
        let query = vectorize(&features, &self.idf, self.default_idf);
        let query = (&query, norm(&query));
        let mut best_example = vec![0.0f64; self.whole.len()];
        for (index, example) in &self.examples {
            // "I need a refill" is not "I don't need the refill anymore":
            // an example of the other polarity counts half.
            let polarity = if query.0.contains_key(NOT) == example.0.contains_key(NOT) {
                1.0
            } else {
                0.5
            };
            best_example[*index] =
                best_example[*index].max(polarity * cosine_normed(query, (&example.0, example.1)));
        }
        // A word only one intent uses tells it apart, as far as the message
        // is in the skill's words ("is the coffee free?" is half coffee).
        let in_words = self.known_share(&words);
        let mut own = vec![0.0f64; self.whole.len()];
        for word in words.iter().collect::<HashSet<_>>() {
            if WRAPPERS.contains(&word.as_str()) {
                continue;
            }
            if let Some(index) = self.own.get(word.as_str()) {
                own[*index] = (own[*index] + OWN_WORD_WEIGHT * in_words).min(MAX_OWN_WORD_BONUS);
            }
        }
        self.whole
            .iter()
            .zip(&best_example)
            .zip(&own)
            .map(|((doc, example), own)| {
                let score = (example + cosine_normed(query, (&doc.0, doc.1))) / 2.0;
                (score + if score > 0.0 { *own } else { 0.0 }).clamp(0.0, 1.0)
            })
            .collect()
    }
}

impl Corpus {
    /// The share of a message's words (question words and determiners
    /// aside) that the skill uses.
    pub(super) fn known_share(&self, words: &[&String]) -> f64 {
        let content: Vec<&&String> = words
            .iter()
            .filter(|word| !DETERMINERS.contains(&word.as_str()) && !is_question_word(word))
            .collect();
        if content.is_empty() {
            // Nothing but values and question words: nothing foreign.
            return 1.0;
        }
        content
            .iter()
            .filter(|word| self.idf.contains_key(***word))
            .count() as f64
            / content.len() as f64
    }

    /// The share of the message's own words (not its values) that the skill
    /// uses: "is the coffee free?" is half the skill's.
    pub(super) fn share_of(&self, text: &str) -> f64 {
        // A capitalized word inside a sentence is a name ("anything by
        // Tolkien"): a value, whatever the skill's words.
        let mut unnamed: Vec<&str> = Vec::new();
        let mut opens = true;
        for token in text.split_whitespace() {
            let named = !opens
                && token != "I"
                && !token.starts_with("I'")
                && token.chars().next().is_some_and(char::is_uppercase);
            if !named {
                unnamed.push(token);
            }
            opens = token.ends_with(['.', '?', '!', ':']);
        }
        let words: Vec<String> = self::words(&classify(&self.classes, &unnamed.join(" ")))
            .into_iter()
            .filter(|word| !word.starts_with('<'))
            .map(|word| lexicon::stem(&word))
            .collect();
        self.known_share(&words.iter().collect::<Vec<_>>())
    }

    /// Whether the message names the action of the intent at `index` — one of
    /// its action words, as written, mistyped or in other words of the same
    /// sense ("call off" for cancel). An intent that only reads needs none.
    pub(super) fn names_action(&self, index: usize, said: &HashSet<String>) -> bool {
        self.names_action_by(index, said, |_| true)
    }

    /// [`Self::names_action`] counting only the action words `counts` keeps.
    fn names_action_by(
        &self,
        index: usize,
        said: &HashSet<String>,
        counts: impl Fn(&str) -> bool,
    ) -> bool {
        let Some(actions) = self.actions.get(index).filter(|words| !words.is_empty()) else {
            return true;
        };
        actions
            .iter()
            .any(|word| counts(word) && said.contains(word))
    }

    /// [`Self::names_action`] by a word, not by a kind of value ("the
    /// excavator" is a machine any intent may take, no action).
    pub(super) fn names_action_in_words(&self, index: usize, said: &HashSet<String>) -> bool {
        self.names_action_by(index, said, |word| !word.starts_with('<'))
    }

    /// Whether the intent at `index` has action words and the message says
    /// one of them as a word ("cancel"), not only by a kind of value.
    pub(super) fn names_own_action_word(&self, index: usize, said: &HashSet<String>) -> bool {
        self.actions.get(index).is_some_and(|words| {
            words
                .iter()
                .any(|word| !word.starts_with('<') && said.contains(word))
        })
    }

    /// Whether the message names the action of the intent at `index` by a
    /// word that is not also an action word of the one at `leader`.
    pub(super) fn names_apart(&self, index: usize, leader: usize, said: &HashSet<String>) -> bool {
        let Some(actions) = self.actions.get(index).filter(|words| !words.is_empty()) else {
            return true;
        };
        let led = self.actions.get(leader);
        actions
            .iter()
            .any(|word| said.contains(word) && led.is_none_or(|led| !led.contains(word)))
    }

    /// Whether the message names what the intent at `index` is said to be
    /// about ("claim" for the claim's status).
    pub(super) fn names_subject(&self, index: usize, said: &HashSet<String>) -> bool {
        self.stated
            .get(index)
            .is_some_and(|words| words.iter().any(|word| said.contains(word)))
    }

    /// Whether what the read at `read` is about stands only after the action
    /// of the intent at `action` — its object ("pay the balance"), not a
    /// question of its own.
    pub(super) fn object_of_action(&self, read: usize, action: usize, text: &str) -> bool {
        let (Some(subject), Some(acts)) = (self.stated.get(read), self.actions.get(action)) else {
            return false;
        };
        let stems: Vec<String> = words(&classify(&self.classes, text))
            .iter()
            .map(|word| lexicon::stem(word))
            .collect();
        let Some(acted) = stems.iter().position(|stem| acts.contains(stem)) else {
            return false;
        };
        let mut about = stems
            .iter()
            .enumerate()
            .filter(|(_, stem)| subject.contains(*stem))
            .peekable();
        about.peek().is_some() && about.all(|(at, _)| at > acted)
    }

    /// What a message says, as the skill would spell it (see
    /// `query_features`): read once, matched against every intent's actions.
    pub(super) fn said(&self, text: &str) -> HashSet<String> {
        query_features(
            &classify(&self.classes, &idioms(text)),
            &self.words,
            &self.stems,
        )
        .into_iter()
        .collect()
    }
}

/// Each intent's words as its name, description and tools say them, and
/// its inputs and their allowed values: part of what it is about
/// (`whole`, by intent) and of what makes a message about the skill
/// (`anchors`).
fn intent_words(
    skill: &Skill,
    intents: &adas_skill::model::Intents,
    anchors: &mut HashSet<String>,
    whole: &mut [Vec<String>],
) {
    for (index, intent) in intents.supported.iter().enumerate() {
        let named = features(&intent.id.replace('_', " "));
        anchors.extend(named.iter().cloned());
        anchors.extend(intent.description.iter().flat_map(|text| features(text)));
        // An intent's name says what it does ("redirect_parcel").
        whole[index].extend(named);
        for input in intent_inputs(skill, &intent.id) {
            let input = features(&input.replace('_', " "));
            anchors.extend(input.iter().cloned());
            whole[index].extend(input);
        }
        // So are the values its entities allow ("on tuesday" is about the
        // schedule even when no example names Tuesday).
        for value in intent.entities.iter().flat_map(|entity| &entity.allowed) {
            if let Some(value) = value.as_str() {
                anchors.extend(features(value));
                whole[index].extend(features(value));
            }
        }
    }
}

/// What the author says each intent is — its name, its description, its
/// tools' names and descriptions — as opposed to the nouns its examples
/// happen to use ("cancel our stay" is no sign that a stay means a
/// cancellation).
fn stated_words(skill: &Skill, intents: &adas_skill::model::Intents) -> Vec<HashSet<String>> {
    intents
        .supported
        .iter()
        .map(|intent| {
            let mut text = intent.id.replace('_', " ");
            for said in intent.description.iter() {
                text.push(' ');
                text.push_str(said);
            }
            for tool in intent_tools(skill, &intent.id) {
                text.push(' ');
                text.push_str(&tool.name.replace('_', " "));
                for said in tool.description.iter() {
                    text.push(' ');
                    text.push_str(said);
                }
            }
            features(&text)
                .into_iter()
                .filter(|feature| !feature.starts_with(['#', '<']))
                .collect()
        })
        .collect()
}

/// The stated words no other intent uses anywhere, by their intent.
fn own_words(stated: &[HashSet<String>], whole: &[Vec<String>]) -> HashMap<String, usize> {
    let mut own: HashMap<String, usize> = HashMap::default();
    for (index, words) in stated.iter().enumerate() {
        for word in words {
            let elsewhere = (0..whole.len())
                .filter(|other| *other != index)
                .any(|other| whole[other].contains(word) || stated[other].contains(word));
            if !elsewhere {
                own.insert(word.clone(), index);
            }
        }
    }
    own
}

#[cfg(test)]
mod kept {
    use super::*;

    fn skill(intent: &str) -> Skill {
        let text = format!(
            "id: same\nversion: 1.0.0\nproblem: {{statement: A desk}}\nintents: {{supported: [{{id: {intent}, examples: [\"please {intent} it\"]}}]}}\n"
        );
        adas_skill::load(&text, adas_skill::Format::Yaml)
            .skill
            .expect("loads")
    }

    #[test]
    fn a_corpus_is_built_once_per_skill_content_never_per_id() {
        let (refund, track) = (skill("refund"), skill("track"));
        let first = Corpus::shared(&refund);
        assert!(std::sync::Arc::ptr_eq(&first, &Corpus::shared(&refund)));
        // The same id and version with other words is another skill.
        let other = Corpus::shared(&track);
        assert!(!std::sync::Arc::ptr_eq(&first, &other));
        assert_eq!(first.whole.len(), 1);
        assert_ne!(first.words, other.words);
    }
}
