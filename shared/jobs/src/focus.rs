//! The focus cache (spec 002): per-slag artifacts that jobs produce and read
//! again — large tool outputs are kept here once and referenced by id from the
//! job record, its events and its archive instead of being copied into each.
//!
//! Artifacts live in the shared store ([`ArtifactStore`]), not on a disk: a
//! job that pauses on one orchestrator and resumes on another (or is reclaimed
//! by one) reads the outputs the first stored. `id` is the SHA-256 of the
//! content (the same output stored twice is one artifact); each slag's
//! artifacts are bounded in bytes and entries, the least recently used going
//! first, and the bookkeeping is the store's, so every replica agrees on it.

use std::sync::Arc;

use adas_state::{ArtifactBounds, StateError, StateStore};
use sha2::{Digest, Sha256};

/// Bounds of one slag's cache.
pub type FocusLimits = ArtifactBounds;

/// Why the cache could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum FocusError {
    /// The artifact is larger than the whole cache may hold.
    #[error("an artifact of {size} bytes does not fit a cache of {max_bytes} bytes")]
    TooLarge {
        /// Its size.
        size: u64,
        /// The bound.
        max_bytes: u64,
    },
    /// The slag or id is not a valid key.
    #[error("`{0}` is not a valid artifact key")]
    InvalidKey(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StateError),
}

/// The focus caches of a deployment, one per slag, in its store.
#[derive(Debug, Clone)]
pub struct FocusCache {
    store: Arc<dyn StateStore>,
    limits: FocusLimits,
}

fn valid_id(id: &str) -> bool {
    id.len() == 64
        && id
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

impl FocusCache {
    /// The caches kept in `store`, each bounded by `limits`.
    pub fn new(store: Arc<dyn StateStore>, limits: FocusLimits) -> Self {
        Self { store, limits }
    }

    fn check_slag(slag: &str) -> Result<(), FocusError> {
        if adas_skill::slag::is_valid_slag(slag) {
            Ok(())
        } else {
            Err(FocusError::InvalidKey(slag.chars().take(80).collect()))
        }
    }

    /// Stores `content` for `slag` and returns its id. Evicts the least recently
    /// used artifacts until both bounds hold.
    pub async fn put(&self, slag: &str, content: &[u8]) -> Result<String, FocusError> {
        let size = content.len() as u64;
        if size > self.limits.max_bytes {
            return Err(FocusError::TooLarge {
                size,
                max_bytes: self.limits.max_bytes,
            });
        }
        Self::check_slag(slag)?;
        let id = hex(&Sha256::digest(content));
        self.store
            .artifact_put(slag, &id, content, self.limits)
            .await?;
        Ok(id)
    }

    /// The artifact `id` of `slag`, now the most recently used; `None` when it
    /// was never stored or has been evicted.
    pub async fn get(&self, slag: &str, id: &str) -> Result<Option<Vec<u8>>, FocusError> {
        if !valid_id(id) {
            return Err(FocusError::InvalidKey(id.chars().take(80).collect()));
        }
        Self::check_slag(slag)?;
        Ok(self.store.artifact_get(slag, id).await?)
    }

    /// Ids of `slag`'s artifacts, least recently used first, and their total bytes.
    pub async fn usage(&self, slag: &str) -> Result<(Vec<String>, u64), FocusError> {
        Self::check_slag(slag)?;
        Ok(self.store.artifact_usage(slag).await?)
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    hex::encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use adas_state::{MemoryStore, RedisStore};

    fn limits(max_bytes: u64, max_entries: usize) -> FocusLimits {
        FocusLimits {
            max_bytes,
            max_entries,
        }
    }

    #[tokio::test]
    async fn ids_are_content_hashes_and_oversized_or_foreign_keys_are_refused() {
        let cache = FocusCache::new(Arc::new(MemoryStore::new()), limits(10, 100));
        let id = cache.put("cs", b"12345").await.unwrap();
        assert_eq!(id, hex(&Sha256::digest(b"12345")));
        assert_eq!(cache.put("cs", b"12345").await.unwrap(), id, "one artifact");
        assert_eq!(cache.usage("cs").await.unwrap(), (vec![id.clone()], 5));
        assert!(matches!(
            cache.put("cs", &[0; 11]).await,
            Err(FocusError::TooLarge { size: 11, .. })
        ));
        for bad in ["../etc", "", "CS"] {
            assert!(matches!(
                cache.put(bad, b"x").await,
                Err(FocusError::InvalidKey(_))
            ));
        }
        assert!(matches!(
            cache.get("cs", "../../x").await,
            Err(FocusError::InvalidKey(_))
        ));
    }

    /// Two orchestrators (each with a disk of its own) on one Redis: what one
    /// stores the other reads, and the bounds are the deployment's, not each
    /// process's.
    #[tokio::test]
    async fn replicas_share_the_cache_through_the_store() {
        let redis = adas_testkit::RedisServer::start();
        let first = FocusCache::new(
            Arc::new(RedisStore::connect(&redis.url(), "t1").await.unwrap()),
            limits(1 << 20, 2),
        );
        let second = FocusCache::new(
            Arc::new(RedisStore::connect(&redis.url(), "t1").await.unwrap()),
            limits(1 << 20, 2),
        );
        let output = br#"{"deploys": ["v1", "v2"]}"#;
        let id = first.put("cs", output).await.unwrap();
        assert_eq!(
            second.get("cs", &id).await.unwrap().as_deref(),
            Some(&output[..])
        );
        second.put("cs", b"two").await.unwrap();
        second.put("cs", b"three").await.unwrap();
        assert_eq!(
            first.get("cs", &id).await.unwrap(),
            None,
            "evicted for both"
        );
    }
}
