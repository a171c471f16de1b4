//! The small stores in memory: approvals and idempotency keys (set-once),
//! the TTL cache, slots, documents and artifacts.

use super::*;

/// Records `value` at `key` of `map` unless a live one is there (set-once).
pub(super) fn record_once(
    map: &mut HashMap<(String, String), (String, Instant)>,
    (slag, key): (&str, &str),
    value: &str,
    ttl: Duration,
) -> Option<String> {
    let now = Instant::now();
    let map_key = (slag.to_owned(), key.to_owned());
    if let Some((existing, expires_at)) = map.get(&map_key)
        && *expires_at > now
    {
        return Some(existing.clone());
    }
    map.insert(map_key, (value.to_owned(), now + ttl));
    None
}

/// The live value at `key` of `map`.
pub(super) fn recorded(
    map: &HashMap<(String, String), (String, Instant)>,
    (slag, key): (&str, &str),
) -> Option<String> {
    map.get(&(slag.to_owned(), key.to_owned()))
        .filter(|(_, expires_at)| *expires_at > Instant::now())
        .map(|(value, _)| value.clone())
}

#[async_trait]
impl ApprovalStore for MemoryStore {
    async fn record_approval(
        &self,
        slag: &str,
        key: &str,
        value: &str,
        ttl: Duration,
    ) -> Result<Option<String>> {
        validate_slag_key(slag)?;
        validate_idempotency_key(key)?;
        let mut inner = self.lock();
        let existing = record_once(&mut inner.approvals, (slag, key), value, ttl);
        if existing.is_none() {
            inner.note_write();
        }
        Ok(existing)
    }

    async fn approval(&self, slag: &str, key: &str) -> Result<Option<String>> {
        validate_slag_key(slag)?;
        validate_idempotency_key(key)?;
        Ok(recorded(&self.lock().approvals, (slag, key)))
    }
}

#[async_trait]
impl IdempotencyStore for MemoryStore {
    async fn remember(
        &self,
        slag: &str,
        key: &str,
        value: &str,
        ttl: Duration,
    ) -> Result<Option<String>> {
        validate_slag_key(slag)?;
        validate_idempotency_key(key)?;
        let mut inner = self.lock();
        let existing = record_once(&mut inner.idempotency, (slag, key), value, ttl);
        if existing.is_none() {
            inner.note_write();
        }
        Ok(existing)
    }

    async fn recall(&self, slag: &str, key: &str) -> Result<Option<String>> {
        validate_slag_key(slag)?;
        validate_idempotency_key(key)?;
        Ok(recorded(&self.lock().idempotency, (slag, key)))
    }

    async fn count(&self, slag: &str, key: &str, window: Duration) -> Result<u64> {
        validate_slag_key(slag)?;
        validate_idempotency_key(key)?;
        let mut inner = self.lock();
        let now = Instant::now();
        let map_key = (slag.to_owned(), format!("count:{key}"));
        let (count, expires_at) = match inner.idempotency.get(&map_key) {
            Some((count, expires_at)) if *expires_at > now => {
                (count.parse::<u64>().unwrap_or(0) + 1, *expires_at)
            }
            _ => (1, now + window),
        };
        inner
            .idempotency
            .insert(map_key, (count.to_string(), expires_at));
        inner.note_write();
        Ok(count)
    }
}

#[async_trait]
impl TtlCache for MemoryStore {
    async fn cache_get(&self, key: &str) -> Result<Option<CacheEntry>> {
        validate_cache_key(key)?;
        let inner = self.lock();
        let now = Instant::now();
        Ok(inner
            .cache
            .get(key)
            .filter(|entry| entry.expires_at > now)
            .map(|entry| CacheEntry {
                value: entry.value.clone(),
                fresh: entry.fresh_until > now,
                age_ms: now.duration_since(entry.stored_at).as_millis() as u64,
            }))
    }

    async fn cache_put(
        &self,
        key: &str,
        value: &[u8],
        fresh_for: Duration,
        keep_for: Duration,
    ) -> Result<()> {
        validate_cache_key(key)?;
        let now = Instant::now();
        let mut inner = self.lock();
        inner.cache.insert(
            key.to_owned(),
            MemoryCacheEntry {
                value: value.to_vec(),
                stored_at: now,
                fresh_until: now + fresh_for,
                expires_at: now + keep_for.max(fresh_for),
            },
        );
        inner.note_write();
        Ok(())
    }

    async fn cache_invalidate(&self, key: &str) -> Result<bool> {
        validate_cache_key(key)?;
        Ok(self.lock().cache.remove(key).is_some())
    }

    async fn cache_invalidate_prefix(&self, prefix: &str) -> Result<u64> {
        let mut inner = self.lock();
        let before = inner.cache.len();
        inner.cache.retain(|key, _| !key.starts_with(prefix));
        Ok((before - inner.cache.len()) as u64)
    }
}

#[async_trait]
impl Slots for MemoryStore {
    async fn claim_slot(&self, set: &str, member: &str, limit: u64) -> Result<bool> {
        validate_idempotency_key(set)?;
        let mut inner = self.lock();
        let members = inner.slots.entry(set.to_owned()).or_default();
        if members.contains(member) {
            return Ok(true);
        }
        if members.len() as u64 >= limit {
            return Ok(false);
        }
        members.insert(member.to_owned());
        inner.note_write();
        Ok(true)
    }

    async fn release_slot(&self, set: &str, member: &str) -> Result<()> {
        validate_idempotency_key(set)?;
        let mut inner = self.lock();
        if let Some(members) = inner.slots.get_mut(set) {
            members.remove(member);
        }
        Ok(())
    }

    async fn slot_members(&self, set: &str) -> Result<Vec<String>> {
        validate_idempotency_key(set)?;
        Ok(self
            .lock()
            .slots
            .get(set)
            .map(|members| members.iter().cloned().collect())
            .unwrap_or_default())
    }
}

/// Whether a stored etag (`None`: absent) meets `expect`.
pub(super) fn meets(stored: Option<&str>, expect: DocExpect<'_>) -> bool {
    match expect {
        DocExpect::Any => true,
        DocExpect::Absent => stored.is_none(),
        DocExpect::Etag(etag) => stored == Some(etag),
    }
}

#[async_trait]
impl DocStore for MemoryStore {
    async fn doc_get(&self, scope: &str, name: &str, known_etag: Option<&str>) -> Result<DocRead> {
        validate_doc_key(scope, name)?;
        let inner = self.lock();
        Ok(match inner.docs.get(&(scope.to_owned(), name.to_owned())) {
            None => DocRead::Absent,
            Some((etag, _)) if Some(etag.as_str()) == known_etag => DocRead::Unchanged,
            Some((etag, body)) => DocRead::Current {
                etag: etag.clone(),
                body: body.clone(),
            },
        })
    }

    async fn doc_put(
        &self,
        scope: &str,
        name: &str,
        etag: &str,
        body: &[u8],
        expect: DocExpect<'_>,
    ) -> Result<bool> {
        validate_doc_key(scope, name)?;
        let mut inner = self.lock();
        let key = (scope.to_owned(), name.to_owned());
        if !meets(inner.docs.get(&key).map(|(etag, _)| etag.as_str()), expect) {
            return Ok(false);
        }
        inner.docs.insert(key, (etag.to_owned(), body.to_vec()));
        inner.note_write();
        Ok(true)
    }

    async fn doc_delete(&self, scope: &str, name: &str, expect: DocExpect<'_>) -> Result<bool> {
        validate_doc_key(scope, name)?;
        let mut inner = self.lock();
        let key = (scope.to_owned(), name.to_owned());
        let Some((stored, _)) = inner.docs.get(&key) else {
            return Ok(false);
        };
        if !meets(Some(stored.as_str()), expect) {
            return Ok(false);
        }
        inner.docs.remove(&key);
        inner.note_write();
        Ok(true)
    }

    async fn doc_list(&self, scope: &str) -> Result<Vec<String>> {
        validate_slag_key(scope)?;
        Ok(self
            .lock()
            .docs
            .keys()
            .filter(|(stored, _)| stored == scope)
            .map(|(_, name)| name.clone())
            .collect())
    }
}

#[async_trait]
impl ArtifactStore for MemoryStore {
    async fn artifact_put(
        &self,
        slag: &str,
        id: &str,
        body: &[u8],
        bounds: ArtifactBounds,
    ) -> Result<()> {
        validate_slag_key(slag)?;
        validate_slag_key(id)?;
        let mut inner = self.lock();
        let artifacts = inner.artifacts.entry(slag.to_owned()).or_default();
        if artifacts.entries.contains_key(id) {
            artifacts.touch(id);
        } else {
            artifacts.clock += 1;
            let at = artifacts.clock;
            artifacts.bytes += body.len() as u64;
            artifacts.entries.insert(id.to_owned(), (at, body.to_vec()));
            artifacts.by_recency.insert(at, id.to_owned());
        }
        while artifacts.bytes > bounds.max_bytes || artifacts.entries.len() > bounds.max_entries {
            let Some((_, oldest)) = artifacts.by_recency.pop_first() else {
                break;
            };
            if let Some((_, body)) = artifacts.entries.remove(&oldest) {
                artifacts.bytes -= body.len() as u64;
            }
        }
        inner.note_write();
        Ok(())
    }

    async fn artifact_get(&self, slag: &str, id: &str) -> Result<Option<Vec<u8>>> {
        validate_slag_key(slag)?;
        validate_slag_key(id)?;
        let mut inner = self.lock();
        let Some(artifacts) = inner.artifacts.get_mut(slag) else {
            return Ok(None);
        };
        artifacts.touch(id);
        Ok(artifacts.entries.get(id).map(|(_, body)| body.clone()))
    }

    async fn artifact_usage(&self, slag: &str) -> Result<(Vec<String>, u64)> {
        validate_slag_key(slag)?;
        let inner = self.lock();
        Ok(inner.artifacts.get(slag).map_or_else(
            || (Vec::new(), 0),
            |artifacts| {
                (
                    artifacts.by_recency.values().cloned().collect(),
                    artifacts.bytes,
                )
            },
        ))
    }
}
