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

impl JobRepo {
    /// A page token for a list across skills, newest first: `cursor` sealed
    /// as an offset is (noise to the caller, for `caller` only), so a token
    /// can neither be read nor made to name a job the caller was not shown.
    pub async fn seal_cursor(
        &self,
        caller: &str,
        cursor: &crate::Cursor,
    ) -> Result<String, JobError> {
        let key = self.page_key(ACROSS_SCOPE).await?;
        let mut nonce = [0u8; 8];
        getrandom::fill(&mut nonce).expect("the OS random source");
        let mut masked = cursor.token().into_bytes();
        let pad = keystream(&key, &nonce, caller, masked.len());
        for (byte, mask) in masked.iter_mut().zip(pad) {
            *byte ^= mask;
        }
        let tag = derive(
            &key,
            &[b"tag", &nonce, &masked, caller.as_bytes(), ACROSS_LIST],
        );
        Ok(format!(
            "c{}{}{}",
            hex(&nonce),
            hex(&masked),
            hex(&tag[..12])
        ))
    }

    /// The cursor sealed in `token`, if this deployment issued it to
    /// `caller`; `None` for anything else.
    pub async fn open_cursor(
        &self,
        caller: &str,
        token: &str,
    ) -> Result<Option<crate::Cursor>, JobError> {
        if token.len() > 2048 {
            return Ok(None);
        }
        let Some(bytes) = token.strip_prefix('c').and_then(unhex) else {
            return Ok(None);
        };
        if bytes.len() <= 8 + 12 {
            return Ok(None);
        }
        let (nonce, rest) = bytes.split_at(8);
        let (masked, tag) = rest.split_at(rest.len() - 12);
        let key = self.page_key(ACROSS_SCOPE).await?;
        let expected = derive(
            &key,
            &[b"tag", nonce, masked, caller.as_bytes(), ACROSS_LIST],
        );
        if expected[..12] != *tag {
            return Ok(None);
        }
        let plain: Vec<u8> = masked
            .iter()
            .zip(keystream(&key, nonce, caller, masked.len()))
            .map(|(byte, mask)| byte ^ mask)
            .collect();
        Ok(String::from_utf8(plain)
            .ok()
            .and_then(|text| crate::Cursor::from_token(&text)))
    }
}

/// The store scope of the key that seals lists across skills.
const ACROSS_SCOPE: &str = "adas-lists";
/// The list a cursor token is bound to.
const ACROSS_LIST: &[u8] = b"jobs:newest";

/// `len` bytes of pad for `caller`'s token with `nonce`.
fn keystream(key: &[u8; 32], nonce: &[u8], caller: &str, len: usize) -> Vec<u8> {
    let mut pad = Vec::with_capacity(len + 32);
    let mut block = 0u64;
    while pad.len() < len {
        pad.extend_from_slice(&derive(
            key,
            &[
                b"pad",
                nonce,
                caller.as_bytes(),
                ACROSS_LIST,
                &block.to_be_bytes(),
            ],
        ));
        block += 1;
    }
    pad.truncate(len);
    pad
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

    #[tokio::test]
    async fn cursor_tokens_are_sealed_for_their_caller() {
        let repo = JobRepo::new(
            std::sync::Arc::new(adas_state::MemoryStore::new()),
            std::env::temp_dir(),
        );
        let cursor = crate::Cursor {
            created_ms: 1_700_000_000_000,
            slag: "cs".into(),
            job_id: "j-1".into(),
        };
        let token = repo.seal_cursor("acme/alice", &cursor).await.unwrap();
        assert!(!token.contains(&hex(b"j-1")), "{token}");
        assert_eq!(
            repo.open_cursor("acme/alice", &token).await.unwrap(),
            Some(cursor.clone())
        );
        // Another caller, a plain cursor, a tampered token: none opens.
        assert_eq!(repo.open_cursor("globex/eve", &token).await.unwrap(), None);
        assert_eq!(
            repo.open_cursor("acme/alice", &cursor.token())
                .await
                .unwrap(),
            None
        );
        let mut tampered = token.clone().into_bytes();
        tampered[20] = if tampered[20] == b'0' { b'1' } else { b'0' };
        let tampered = String::from_utf8(tampered).unwrap();
        assert_eq!(
            repo.open_cursor("acme/alice", &tampered).await.unwrap(),
            None
        );
    }
}
