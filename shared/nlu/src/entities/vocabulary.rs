//! The skill's vocabulary: the words its examples, entities and inputs use,
//! so a typo is corrected toward them and a value is never one of them; and
//! chat shorthand ("pls", "acct") as the words it stands for.

/// The words a slot value never is: the skill's own vocabulary (intent ids,
/// tool and input names, every description, the problem statement, the verb
/// an example opens with) and filler words. Compared by a crude stem, so
/// "reserving" is "reserve".
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    stems: std::sync::Arc<crate::HashSet<String>>,
    /// Today where the skill's users are (its `timezone`): what relative
    /// dates count from.
    pub today: Option<jiff::civil::Date>,
}

/// Words that carry no value in a request (fillers, pronouns, auxiliaries).
pub(super) const FILLER: &[&str] = &[
    "a",
    "an",
    "the",
    "i",
    "me",
    "my",
    "we",
    "our",
    "you",
    "your",
    "it",
    "its",
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "to",
    "of",
    "for",
    "in",
    "on",
    "at",
    "and",
    "or",
    "please",
    "can",
    "could",
    "would",
    "will",
    "should",
    "do",
    "does",
    "did",
    "this",
    "that",
    "these",
    "those",
    "with",
    "from",
    "im",
    "i'm",
    "i'd",
    "id",
    "hi",
    "hello",
    "hey",
    "some",
    "what",
    "what's",
    "whats",
    "where",
    "where's",
    "when",
    "which",
    "who",
    "how",
    "why",
    "like",
    "today",
    "tell",
    "ok",
    "okay",
    "up",
    "down",
    "fine",
    "good",
    "now",
    "right",
    "thanks",
    "thank",
    "also",
    "just",
    "recently",
    "recent",
    "last",
    "show",
    "get",
    "give",
    "want",
    "need",
    "let",
    "know",
    "see",
    "any",
    "all",
    "there",
    "here",
    "then",
    "so",
    "about",
    "as",
    "by",
    "if",
    "not",
    "no",
    "yes",
    "yet",
    "still",
    "again",
    "new",
    "one",
    "more",
    "much",
    "many",
    "very",
    "really",
    "into",
    "out",
    "over",
    "under",
    "via",
    "per",
    "currently",
    "doing",
    "going",
    "being",
    "am",
    "has",
    "have",
    "had",
    "us",
    "them",
    "they",
    "he",
    "she",
    "his",
    "her",
    "their",
    "latest",
    "current",
    "check",
    "tell",
    "find",
    "look",
    "status",
    "ok?",
    "gonna",
    "wanna",
    "anything",
    "something",
    "everything",
    "stuff",
    "thing",
    "things",
];

/// Words an example opens with that ask rather than name an action.
pub(super) const QUESTION_OPENERS: &[&str] = &[
    "is", "are", "was", "were", "what", "what's", "whats", "where", "where's", "when", "which",
    "who", "whose", "how", "why", "has", "have", "does", "do", "did", "will", "i", "i'd", "i'm",
    "my", "the", "a", "an",
];

pub(super) fn stem(word: &str) -> String {
    let word = word.to_lowercase();
    let word = word.trim_matches(|c: char| !c.is_alphanumeric());
    for suffix in ["ing", "ed", "es", "s"] {
        if word.len() > suffix.len() + 3
            && let Some(stem) = word.strip_suffix(suffix)
        {
            return stem.to_owned();
        }
    }
    word.to_owned()
}

pub(super) fn plain_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|word| !word.is_empty())
}

impl Vocabulary {
    /// The vocabulary of a skill.
    pub fn of(skill: &adas_skill::model::Skill) -> Self {
        let stems = crate::kept::kept(skill, Self::stems_of);
        let today = Some(crate::values::today_in(skill.timezone.as_deref()));
        Self { stems, today }
    }

    /// The stems of the skill's own words, built once per skill (today is
    /// read afresh each time).
    fn stems_of(skill: &adas_skill::model::Skill) -> crate::HashSet<String> {
        let mut texts: Vec<String> = Vec::new();
        let mut push = |text: &str| texts.push(text.replace(['_', '.', '-'], " "));
        if let Some(problem) = &skill.problem
            && let Some(statement) = &problem.statement
        {
            push(statement);
        }
        for intent in skill.intents.iter().flat_map(|intents| &intents.supported) {
            push(&intent.id);
            if let Some(description) = &intent.description {
                push(description);
            }
            for example in &intent.examples {
                // The verb an imperative example opens with ("Reserve room 4",
                // "Please bounce payments"); a question's first word is not one.
                let mut words = plain_words(example)
                    .map(str::to_lowercase)
                    .skip_while(|word| matches!(word.as_str(), "please" | "can" | "could" | "you"));
                if let Some(first) = words.next()
                    && !QUESTION_OPENERS.contains(&first.as_str())
                {
                    push(&first);
                }
            }
        }
        for tool in &skill.tools {
            push(&tool.name);
            if let Some(description) = &tool.description {
                push(description);
            }
            for input in &tool.inputs {
                push(&input.name);
                if let Some(description) = &input.description {
                    push(description);
                }
            }
        }
        let mut stems: crate::HashSet<String> = texts
            .iter()
            .flat_map(|text| plain_words(text).map(stem))
            .collect();
        stems.extend(FILLER.iter().map(|word| stem(word)));
        stems
    }

    /// Whether a word belongs to the vocabulary.
    pub fn contains(&self, word: &str) -> bool {
        self.stems.contains(&stem(word))
    }
}

/// Chat shorthand as the words it stands for.
pub(crate) const SHORTHAND: &[(&str, &str)] = &[
    ("pls", "please"),
    ("plz", "please"),
    ("thx", "thanks"),
    ("ty", "thanks"),
    ("u", "you"),
    ("ur", "your"),
    ("r", "are"),
    ("wat", "what"),
    ("wats", "what's"),
    ("hav", "have"),
    ("dont", "don't"),
    ("cant", "can't"),
    ("wont", "won't"),
    ("abt", "about"),
    ("acct", "account"),
    ("amt", "amount"),
    ("msg", "message"),
    ("tmrw", "tomorrow"),
    ("tmr", "tomorrow"),
    ("ppl", "people"),
    ("wanna", "want"),
    ("gonna", "going"),
];

/// Whether a lower-case word is chat shorthand ("pls", "thx").
pub(crate) fn is_shorthand(word: &str) -> bool {
    SHORTHAND.iter().any(|(short, _)| *short == word)
        || matches!(word, "pls" | "plz" | "thx" | "ty" | "u" | "ur")
}
