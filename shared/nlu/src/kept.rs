//! What detection derives from a skill alone — its corpus, its entities'
//! slots, its vocabulary — built once per skill content and kept: building
//! them (stems, senses, every description read) costs far more than reading
//! one message against them, and a message is read against them many times.
//!
//! Kept by the SHA-256 of the skill's serialized form, so two skills never
//! share what was built for one, whatever their ids. Fingerprinting a skill
//! costs a serialization, so each thread also remembers the last skills it
//! saw with their fingerprints, compared by content (never by address).

use crate::HashMap;
use std::any::{Any, TypeId};
use std::sync::{Arc, Mutex, OnceLock};

use adas_skill::model::Skill;

/// Skills' derived parts kept at most: a registry's worth, emptied when full
/// so that a stream of distinct skills costs memory only up to a bound.
const KEPT: usize = 256;
/// Skills each thread remembers the fingerprint of.
const RECENT: usize = 4;

type Fingerprint = [u8; 32];
type Kept = Mutex<HashMap<(TypeId, Fingerprint), Arc<dyn Any + Send + Sync>>>;

thread_local! {
    static RECENT_SKILLS: std::cell::RefCell<Vec<(Skill, Fingerprint)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

fn fingerprint(skill: &Skill) -> Option<Fingerprint> {
    use sha2::Digest;
    let known = RECENT_SKILLS.with_borrow(|recent| {
        recent
            .iter()
            .find(|(seen, _)| seen == skill)
            .map(|(_, fingerprint)| *fingerprint)
    });
    if known.is_some() {
        return known;
    }
    let document = serde_json::to_vec(skill).ok()?;
    let fingerprint: Fingerprint = sha2::Sha256::digest(&document).into();
    RECENT_SKILLS.with_borrow_mut(|recent| {
        if recent.len() >= RECENT {
            recent.remove(0);
        }
        recent.push((skill.clone(), fingerprint));
    });
    Some(fingerprint)
}

/// The `T` derived from `skill` by `build`, built on first use per skill
/// content.
pub(crate) fn kept<T: Any + Send + Sync>(skill: &Skill, build: fn(&Skill) -> T) -> Arc<T> {
    static KEPT_PARTS: OnceLock<Kept> = OnceLock::new();
    let Some(fingerprint) = fingerprint(skill) else {
        return Arc::new(build(skill));
    };
    let key = (TypeId::of::<T>(), fingerprint);
    let parts = KEPT_PARTS.get_or_init(Default::default);
    let found = parts
        .lock()
        .ok()
        .and_then(|parts| parts.get(&key).cloned())
        .and_then(|part| part.downcast::<T>().ok());
    if let Some(found) = found {
        return found;
    }
    let built = Arc::new(build(skill));
    if let Ok(mut parts) = parts.lock() {
        if parts.len() >= KEPT {
            parts.clear();
        }
        parts.insert(key, built.clone());
    }
    built
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(id: &str) -> Skill {
        Skill {
            id: Some(id.to_owned()),
            ..Skill::default()
        }
    }

    #[test]
    fn each_skill_content_keeps_its_own() {
        let id = |skill: &Skill| skill.id.clone().unwrap_or_default();
        let first = kept(&named("kept-a"), id);
        assert_eq!(*first, "kept-a");
        // Built once: the same content gives the very part kept.
        assert!(Arc::ptr_eq(&first, &kept(&named("kept-a"), id)));
        // Another content never gets it, however many were seen since.
        for n in 0..10 {
            assert_eq!(*kept(&named(&format!("kept-{n}")), id), format!("kept-{n}"));
        }
        assert_eq!(*kept(&named("kept-b"), id), "kept-b");
    }
}
