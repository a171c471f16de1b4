//! Page tokens of job lists. A skill's job indexes hold every tenant's jobs, so
//! a list's position in them is a count of other people's jobs: a plain offset
//! in a token ("o57" after ten of mine) told a caller how many jobs others had.
//! A token here is that offset sealed: a random nonce, the offset masked with
//! a pad derived (SHA-256) from a per-skill key kept in the store, the nonce,
//! the caller and the list, and a tag over all of it. It reads as noise, two
//! tokens say nothing about each other, and it serves only the caller and the
//! list it was issued for. The key is created once per skill in the shared
//! store, so every replica reads every other's tokens.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use sha2::{Digest, Sha256};

use crate::focus::hex;
use crate::{JobError, JobRepo};

/// How long a skill's token key is kept (for good: tokens stay readable).
const KEY_KEEP: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

/// The store key of a skill's token key.
const KEY_NAME: &str = "page-token-key";

/// Token keys this process has read, by skill.
#[derive(Debug, Default, Clone)]
pub(crate) struct PageKeys(Arc<Mutex<HashMap<String, [u8; 32]>>>);

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|at| u8::from_str_radix(&text[at..at + 2], 16).ok())
        .collect()
}

fn derive(key: &[u8; 32], parts: &[&[u8]]) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(key);
    for part in parts {
        hasher.update((part.len() as u64).to_be_bytes());
        hasher.update(part);
    }
    hasher.finalize().into()
}

impl JobRepo {
    async fn page_key(&self, slag: &str) -> Result<[u8; 32], JobError> {
        if let Some(key) = self
            .page_keys
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(slag)
        {
            return Ok(*key);
        }
        let mut fresh = [0u8; 32];
        getrandom::fill(&mut fresh).expect("the OS random source");
        // Set once: whoever writes first, every replica uses that key.
        let stored = self
            .store
            .remember(slag, KEY_NAME, &hex(&fresh), KEY_KEEP)
            .await?
            .unwrap_or_else(|| hex(&fresh));
        let key: [u8; 32] = unhex(&stored)
            .and_then(|bytes| bytes.try_into().ok())
            .ok_or_else(|| JobError::Corrupt(format!("the page token key of {slag}")))?;
        self.page_keys
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(slag.to_owned(), key);
        Ok(key)
    }

    /// A page token for `offset` in list `list` (e.g. `jobs:paused`) of
    /// `slag`, usable by `caller` only.
    pub async fn seal_page(
        &self,
        slag: &str,
        (caller, list): (&str, &str),
        offset: u64,
    ) -> Result<String, JobError> {
        let key = self.page_key(slag).await?;
        let mut nonce = [0u8; 8];
        getrandom::fill(&mut nonce).expect("the OS random source");
        let pad = derive(&key, &[b"pad", &nonce, caller.as_bytes(), list.as_bytes()]);
        let mut masked = offset.to_be_bytes();
        for (byte, mask) in masked.iter_mut().zip(pad) {
            *byte ^= mask;
        }
        let tag = derive(
            &key,
            &[b"tag", &nonce, &masked, caller.as_bytes(), list.as_bytes()],
        );
        Ok(format!(
            "p{}{}{}",
            hex(&nonce),
            hex(&masked),
            hex(&tag[..12])
        ))
    }

    /// The offset sealed in `token`, if this deployment issued it to `caller`
    /// for list `list`; `None` for anything else.
    pub async fn open_page(
        &self,
        slag: &str,
        (caller, list): (&str, &str),
        token: &str,
    ) -> Result<Option<u64>, JobError> {
        let Some(bytes) = token.strip_prefix('p').and_then(unhex) else {
            return Ok(None);
        };
        if bytes.len() != 8 + 8 + 12 {
            return Ok(None);
        }
        let (nonce, rest) = bytes.split_at(8);
        let (masked, tag) = rest.split_at(8);
        let key = self.page_key(slag).await?;
        let expected = derive(
            &key,
            &[b"tag", nonce, masked, caller.as_bytes(), list.as_bytes()],
        );
        if expected[..12] != *tag {
            return Ok(None);
        }
        let pad = derive(&key, &[b"pad", nonce, caller.as_bytes(), list.as_bytes()]);
        let mut offset = [0u8; 8];
        for ((out, byte), mask) in offset.iter_mut().zip(masked).zip(pad) {
            *out = byte ^ mask;
        }
        Ok(Some(u64::from_be_bytes(offset)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn tokens_round_trip_for_their_caller_only_and_say_nothing() {
        let repo = JobRepo::new(
            Arc::new(adas_state::MemoryStore::new()),
            std::env::temp_dir(),
        );
        let token = repo.seal_page("cs", ("alice", "jobs"), 57).await.unwrap();
        assert!(token.starts_with('p') && token.len() == 1 + 2 * (8 + 8 + 12));
        assert_eq!(
            repo.open_page("cs", ("alice", "jobs"), &token)
                .await
                .unwrap(),
            Some(57)
        );
        // Another caller, another list, a forged or altered token: nothing.
        assert_eq!(
            repo.open_page("cs", ("bob", "jobs"), &token).await.unwrap(),
            None
        );
        assert_eq!(
            repo.open_page("cs", ("alice", "waiting"), &token)
                .await
                .unwrap(),
            None
        );
        assert_eq!(
            repo.open_page("cs", ("alice", "jobs"), "o57")
                .await
                .unwrap(),
            None
        );
        let mut altered = token.clone();
        altered.replace_range(20..21, if &token[20..21] == "0" { "1" } else { "0" });
        assert_eq!(
            repo.open_page("cs", ("alice", "jobs"), &altered)
                .await
                .unwrap(),
            None
        );
        // The same offset twice is two unrelated tokens.
        assert_ne!(
            token,
            repo.seal_page("cs", ("alice", "jobs"), 57).await.unwrap()
        );
        // Another process on the same store reads it.
        let other = JobRepo::new(repo.store().clone(), std::env::temp_dir());
        assert_eq!(
            other
                .open_page("cs", ("alice", "jobs"), &token)
                .await
                .unwrap(),
            Some(57)
        );
    }
}
