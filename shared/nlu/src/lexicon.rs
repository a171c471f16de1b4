//! The English lexicon the detector reads messages with: which words are
//! English (so only a word that is not one is taken for a typo) and which share
//! a common sense (so "holiday" meets an example's "vacation"). It is WordNet
//! (Princeton), distilled by `tools/wordnet_lexicon.py` into `data/lexicon.txt`
//! (with what a common noun is a kind of: "fridge" of appliance)
//! and embedded; `ADAS_LEXICON=PATH` loads another file of the same format
//! instead (a larger distillation, a domain's own synonyms). Words are kept as
//! Snowball stems, as the detector compares them.

use crate::{HashMap, HashSet};
use std::sync::OnceLock;

/// The lexicon shipped with the binary.
const EMBEDDED: &str = include_str!("../data/lexicon.txt");
/// Request senses WordNet's common senses miss ("drop my booking" is a
/// cancellation), read after whichever lexicon is loaded.
const REQUESTS: &str = include_str!("../data/requests.txt");

/// Known words and synonym sets, by stem.
#[derive(Debug, Default)]
pub struct Lexicon {
    known: HashSet<String>,
    /// Stems of adjectives and adverbs, and of nouns and verbs (a word can be
    /// both): a word only ever a modifier ("huge") names nothing by itself.
    modifiers: HashSet<String>,
    nominal: HashSet<String>,
    sets: Vec<Vec<String>>,
    by_stem: HashMap<String, Vec<usize>>,
    /// What each noun (by stem) is a kind of, by the kinds' stems.
    kinds: HashMap<String, Vec<String>>,
}

/// Irregular forms of common English verbs, as their base form: a stemmer
/// cuts suffixes, so "frozen" would never meet "freeze" without them.
const IRREGULAR: &[(&str, &str)] = &[
    ("frozen", "freeze"),
    ("froze", "freeze"),
    ("paid", "pay"),
    ("sent", "send"),
    ("sold", "sell"),
    ("bought", "buy"),
    ("kept", "keep"),
    ("held", "hold"),
    ("lost", "lose"),
    ("left", "leave"),
    ("made", "make"),
    ("done", "do"),
    ("did", "do"),
    ("gone", "go"),
    ("went", "go"),
    ("got", "get"),
    ("gotten", "get"),
    ("given", "give"),
    ("gave", "give"),
    ("taken", "take"),
    ("took", "take"),
    ("shown", "show"),
    ("seen", "see"),
    ("saw", "see"),
    ("written", "write"),
    ("wrote", "write"),
    ("broken", "break"),
    ("broke", "break"),
    ("chosen", "choose"),
    ("chose", "choose"),
    ("spent", "spend"),
    ("built", "build"),
    ("brought", "bring"),
    ("found", "find"),
    ("told", "tell"),
    ("said", "say"),
    ("met", "meet"),
    ("withdrawn", "withdraw"),
    ("withdrew", "withdraw"),
    ("drawn", "draw"),
    ("driven", "drive"),
    ("drove", "drive"),
    ("ridden", "ride"),
    ("flown", "fly"),
    ("flew", "fly"),
    ("forgotten", "forget"),
    ("forgot", "forget"),
    ("begun", "begin"),
    ("began", "begin"),
    ("stolen", "steal"),
    ("stole", "steal"),
    ("stole", "steal"),
    ("woken", "wake"),
    ("worn", "wear"),
    ("thrown", "throw"),
    ("known", "know"),
    ("knew", "know"),
    ("grown", "grow"),
    ("read", "read"),
    ("shut", "shut"),
    ("set", "set"),
    ("put", "put"),
    ("cut", "cut"),
    ("let", "let"),
    ("hit", "hit"),
    ("rung", "ring"),
    ("rang", "ring"),
    ("sung", "sing"),
    ("spoken", "speak"),
    ("spoke", "speak"),
    ("understood", "understand"),
    ("taught", "teach"),
    ("caught", "catch"),
    ("thought", "think"),
    ("fought", "fight"),
    ("sought", "seek"),
    ("lent", "lend"),
    ("bent", "bend"),
    ("dealt", "deal"),
    ("meant", "mean"),
    ("felt", "feel"),
    ("slept", "sleep"),
    ("swept", "sweep"),
    ("wept", "weep"),
    ("fed", "feed"),
    ("led", "lead"),
    ("fled", "flee"),
    ("hung", "hang"),
    ("won", "win"),
];

/// The Snowball (Porter 2) stem of a lower-case word (an irregular verb form
/// by its base form's).
pub fn stem(word: &str) -> String {
    // The same few hundred words (the skill's own, the message's) are stemmed
    // again for every message, and stemming was most of detection's time: a
    // memo per thread, no lock shared by the server's workers, emptied when
    // full so that a flood of distinct words costs memory only up to a bound.
    const MEMO_BOUND: usize = 1 << 16;
    thread_local! {
        static MEMO: std::cell::RefCell<HashMap<Box<str>, Box<str>>> =
            std::cell::RefCell::new(HashMap::default());
    }
    if let Some(found) = MEMO.with_borrow(|memo| memo.get(word).map(|stem| stem.to_string())) {
        return found;
    }
    let stemmed = stem_uncached(word);
    MEMO.with_borrow_mut(|memo| {
        if memo.len() >= MEMO_BOUND {
            memo.clear();
        }
        memo.insert(word.into(), stemmed.as_str().into());
    });
    stemmed
}

fn stem_uncached(word: &str) -> String {
    static STEMMER: OnceLock<rust_stemmers::Stemmer> = OnceLock::new();
    let word = IRREGULAR
        .iter()
        .find(|(form, _)| *form == word)
        .map_or(word, |(_, base)| base);
    STEMMER
        .get_or_init(|| rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English))
        .stem(word)
        .into_owned()
}

/// The stem of a word, or of each word of a phrase joined by `_`
/// ("call_off", "pick_up").
pub fn phrase_stem(phrase: &str) -> String {
    phrase
        .split('_')
        .map(|word| stem(&word.to_lowercase()))
        .collect::<Vec<_>>()
        .join("_")
}

impl Lexicon {
    /// Reads the text format: `w word…` lines of English words, `s POS word…`
    /// lines of synonym sets, `#` comments. Unknown lines are an error naming
    /// their number.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut lexicon = Self::default();
        for (number, line) in text.lines().enumerate() {
            let mut fields = line.split_whitespace();
            match fields.next() {
                None => {}
                Some(comment) if comment.starts_with('#') => {}
                Some("w") => lexicon
                    .known
                    .extend(fields.map(|word| stem(&word.to_lowercase()))),
                Some("s") => {
                    let pos = fields.next();
                    let mut set: Vec<String> = fields.map(phrase_stem).collect();
                    set.sort();
                    set.dedup();
                    let kinds = match pos {
                        Some("a" | "r") => &mut lexicon.modifiers,
                        _ => &mut lexicon.nominal,
                    };
                    kinds.extend(set.iter().cloned());
                    if set.len() < 2 {
                        continue;
                    }
                    let index = lexicon.sets.len();
                    for word in &set {
                        lexicon.known.insert(word.clone());
                        lexicon.by_stem.entry(word.clone()).or_default().push(index);
                    }
                    lexicon.sets.push(set);
                }
                Some("k") => {
                    let Some(kind) = fields.next() else {
                        return Err(format!("line {}: a `k` line names its kind", number + 1));
                    };
                    let kind = stem(&kind.to_lowercase());
                    for word in fields {
                        lexicon
                            .kinds
                            .entry(stem(&word.to_lowercase()))
                            .or_default()
                            .push(kind.clone());
                    }
                }
                Some(other) => {
                    return Err(format!(
                        "line {}: `{other}` is neither `w`, `s`, `k` nor a comment",
                        number + 1
                    ));
                }
            }
        }
        Ok(lexicon)
    }

    /// Whether a stem is an English word's.
    pub fn knows(&self, stem: &str) -> bool {
        self.known.contains(stem)
    }

    /// Whether a stem is only ever an adjective or adverb's ("huge"): no name
    /// of a thing.
    pub fn only_modifies(&self, stem: &str) -> bool {
        self.modifiers.contains(stem) && !self.nominal.contains(stem)
    }

    /// Whether a noun is a kind of another, by stems ("fridge" of
    /// "appliance"), within a few hypernyms of its first sense.
    pub fn is_kind_of(&self, stem: &str, kind: &str) -> bool {
        self.kinds
            .get(stem)
            .is_some_and(|kinds| kinds.iter().any(|known| known == kind))
    }

    /// The stems sharing a common sense with `stem` (itself excluded).
    pub fn synonyms(&self, stem: &str) -> impl Iterator<Item = &str> {
        self.by_stem
            .get(stem)
            .into_iter()
            .flatten()
            .flat_map(|index| &self.sets[*index])
            .map(String::as_str)
            .filter(move |other| *other != stem)
    }
}

/// The process' lexicon: `ADAS_LEXICON`'s file when set and readable, else
/// the embedded one (a bad file is reported once on stderr, not fatal: the
/// detector still works, with the shipped words).
pub fn lexicon() -> &'static Lexicon {
    static LEXICON: OnceLock<Lexicon> = OnceLock::new();
    LEXICON.get_or_init(|| {
        if let Ok(path) = std::env::var("ADAS_LEXICON") {
            match std::fs::read_to_string(&path)
                .map_err(|error| error.to_string())
                .and_then(|text| Lexicon::parse(&format!("{text}\n{REQUESTS}")))
            {
                Ok(lexicon) => return lexicon,
                Err(error) => {
                    eprintln!("ADAS_LEXICON={path}: {error}; using the embedded lexicon")
                }
            }
        }
        Lexicon::parse(&format!("{EMBEDDED}\n{REQUESTS}")).unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_lexicon_knows_english_and_its_synonyms() {
        let lexicon = lexicon();
        assert!(lexicon.knows(&stem("blocked")));
        assert!(!lexicon.knows(&stem("cancl")));
        let holiday: Vec<&str> = lexicon.synonyms(&stem("holiday")).collect();
        assert!(holiday.contains(&stem("vacation").as_str()), "{holiday:?}");
        // A phrasal verb is one entry: "call off" is "cancel".
        let call_off: Vec<&str> = lexicon.synonyms(&phrase_stem("call_off")).collect();
        assert!(call_off.contains(&stem("cancel").as_str()), "{call_off:?}");
        // What a noun is a kind of, not the other way round.
        assert!(lexicon.is_kind_of(&stem("fridge"), &stem("appliance")));
        assert!(!lexicon.is_kind_of(&stem("appliance"), &stem("fridge")));
        assert!(!lexicon.is_kind_of(&stem("fridge"), &stem("plumbing")));
    }

    #[test]
    fn a_foreign_line_is_refused_with_its_number() {
        let error = Lexicon::parse("# fine\nw a b\nx nope\n").unwrap_err();
        assert!(error.starts_with("line 3:"), "{error}");
    }
}
