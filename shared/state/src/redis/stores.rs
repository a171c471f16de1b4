//! The small stores: the waiting index, approvals and idempotency, the TTL
//! cache, slots, documents and artifacts.

use super::*;

#[async_trait]
impl WaitingIndex for RedisStore {
    async fn list_waiting(&self, slag: &str, request: PageRequest) -> Result<Page<WaitingEntry>> {
        validate_slag_key(slag)?;
        let limit = request.limit.max(1);
        let entries: Vec<(String, f64)> = redis::cmd("ZRANGE")
            .arg(self.keys.waiting_index(slag))
            .arg(request.offset)
            .arg(request.offset + limit as u64)
            .arg("WITHSCORES")
            .query_async(&mut self.conn())
            .await?;
        let entries = entries
            .into_iter()
            .map(|(job_id, score)| WaitingEntry {
                job_id,
                since_ms: score as u64,
            })
            .collect();
        Ok(page_from(entries, request, limit))
    }

    async fn waiting_before(
        &self,
        slag: &str,
        before_ms: u64,
        limit: usize,
    ) -> Result<Vec<WaitingEntry>> {
        validate_slag_key(slag)?;
        let entries: Vec<(String, f64)> = redis::cmd("ZRANGE")
            .arg(self.keys.waiting_index(slag))
            .arg("-inf")
            .arg(format!("({before_ms}"))
            .arg("BYSCORE")
            .arg("LIMIT")
            .arg(0)
            .arg(limit.max(1))
            .arg("WITHSCORES")
            .query_async(&mut self.conn())
            .await?;
        Ok(entries
            .into_iter()
            .map(|(job_id, score)| WaitingEntry {
                job_id,
                since_ms: score as u64,
            })
            .collect())
    }

    async fn count_waiting(&self, slag: &str) -> Result<u64> {
        validate_slag_key(slag)?;
        let count: u64 = redis::cmd("ZCARD")
            .arg(self.keys.waiting_index(slag))
            .query_async(&mut self.conn())
            .await?;
        Ok(count)
    }
}

impl RedisStore {
    /// Stores `value` at `key` unless a live value is there (the one returned).
    async fn set_once(&self, key: String, value: &str, ttl: Duration) -> Result<Option<String>> {
        let existing: Option<String> = self
            .scripts
            .remember
            .key(key)
            .arg(value)
            .arg(ttl.as_millis().max(1) as u64)
            .invoke_async(&mut self.conn())
            .await?;
        Ok(existing)
    }

    /// The string at `key`, if any.
    async fn get_string(&self, key: String) -> Result<Option<String>> {
        let value: Option<String> = redis::cmd("GET")
            .arg(key)
            .query_async(&mut self.conn())
            .await?;
        Ok(value)
    }
}

#[async_trait]
impl IdempotencyStore for RedisStore {
    async fn remember(
        &self,
        slag: &str,
        key: &str,
        value: &str,
        ttl: Duration,
    ) -> Result<Option<String>> {
        validate_slag_key(slag)?;
        validate_idempotency_key(key)?;
        self.set_once(self.keys.idempotency(slag, key), value, ttl)
            .await
    }

    async fn recall(&self, slag: &str, key: &str) -> Result<Option<String>> {
        validate_slag_key(slag)?;
        validate_idempotency_key(key)?;
        self.get_string(self.keys.idempotency(slag, key)).await
    }

    async fn count(&self, slag: &str, key: &str, window: Duration) -> Result<u64> {
        validate_slag_key(slag)?;
        validate_idempotency_key(key)?;
        let count: u64 = self
            .scripts
            .count
            .key(self.keys.idempotency(slag, &format!("count:{key}")))
            .arg(window.as_millis().max(1) as u64)
            .invoke_async(&mut self.conn())
            .await?;
        Ok(count)
    }
}

#[async_trait]
impl ApprovalStore for RedisStore {
    async fn record_approval(
        &self,
        slag: &str,
        key: &str,
        value: &str,
        ttl: Duration,
    ) -> Result<Option<String>> {
        validate_slag_key(slag)?;
        validate_idempotency_key(key)?;
        self.set_once(self.keys.approval(slag, key), value, ttl)
            .await
    }

    async fn approval(&self, slag: &str, key: &str) -> Result<Option<String>> {
        validate_slag_key(slag)?;
        validate_idempotency_key(key)?;
        self.get_string(self.keys.approval(slag, key)).await
    }
}

#[async_trait]
impl TtlCache for RedisStore {
    async fn cache_get(&self, key: &str) -> Result<Option<CacheEntry>> {
        validate_cache_key(key)?;
        let entry: Option<(Vec<u8>, i64, i64)> = self
            .scripts
            .cache_get
            .key(self.keys.cache(key))
            .invoke_async(&mut self.conn())
            .await?;
        Ok(entry.map(|(value, fresh, age_ms)| CacheEntry {
            value,
            fresh: fresh == 1,
            age_ms: age_ms.max(0) as u64,
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
        let fresh_ms = fresh_for.as_millis() as u64;
        let keep_ms = (keep_for.as_millis() as u64).max(fresh_ms).max(1);
        let _: i64 = self
            .scripts
            .cache_put
            .key(self.keys.cache(key))
            .arg(value)
            .arg(fresh_ms)
            .arg(keep_ms)
            .invoke_async(&mut self.conn())
            .await?;
        Ok(())
    }

    async fn cache_invalidate(&self, key: &str) -> Result<bool> {
        validate_cache_key(key)?;
        let removed: i64 = redis::cmd("DEL")
            .arg(self.keys.cache(key))
            .query_async(&mut self.conn())
            .await?;
        Ok(removed > 0)
    }

    async fn cache_invalidate_prefix(&self, prefix: &str) -> Result<u64> {
        let pattern = self.keys.cache_glob(prefix);
        // SCAN walks one node's keyspace: on a cluster, each primary's in turn.
        let nodes: Vec<Option<(String, u16)>> = if self.is_cluster() {
            self.primaries().await?.into_iter().map(Some).collect()
        } else {
            vec![None]
        };
        let mut removed = 0u64;
        for node in nodes {
            let mut cursor: u64 = 0;
            loop {
                let mut scan = redis::cmd("SCAN");
                scan.arg(cursor)
                    .arg("MATCH")
                    .arg(&pattern)
                    .arg("COUNT")
                    .arg(500);
                let reply = match (&node, self.conn()) {
                    (Some((host, port)), Conn::Cluster(mut connection)) => {
                        let routing = RoutingInfo::SingleNode(SingleNodeRoutingInfo::ByAddress {
                            host: host.clone(),
                            port: *port,
                        });
                        connection.route_command(scan, routing).await?
                    }
                    (_, mut connection) => scan.query_async(&mut connection).await?,
                };
                let (next, keys): (u64, Vec<String>) = parse(reply)?;
                // UNLINK frees memory off the main thread; keys may sit in
                // different slots, so one per call.
                for key in &keys {
                    let count: i64 = redis::cmd("UNLINK")
                        .arg(key)
                        .query_async(&mut self.conn())
                        .await?;
                    removed += count as u64;
                }
                if next == 0 {
                    break;
                }
                cursor = next;
            }
        }
        Ok(removed)
    }
}

#[async_trait]
impl Slots for RedisStore {
    async fn claim_slot(&self, set: &str, member: &str, limit: u64) -> Result<bool> {
        validate_idempotency_key(set)?;
        let held: i64 = self
            .scripts
            .claim_slot
            .key(self.keys.slots(set))
            .arg(member)
            .arg(limit)
            .invoke_async(&mut self.conn())
            .await?;
        Ok(held == 1)
    }

    async fn release_slot(&self, set: &str, member: &str) -> Result<()> {
        validate_idempotency_key(set)?;
        let _: i64 = redis::cmd("SREM")
            .arg(self.keys.slots(set))
            .arg(member)
            .query_async(&mut self.conn())
            .await?;
        Ok(())
    }

    async fn slot_members(&self, set: &str) -> Result<Vec<String>> {
        validate_idempotency_key(set)?;
        let mut members: Vec<String> = redis::cmd("SMEMBERS")
            .arg(self.keys.slots(set))
            .query_async(&mut self.conn())
            .await?;
        members.sort();
        Ok(members)
    }
}

/// The mode and expected etag of a [`DocExpect`], as the scripts take them.
pub(super) fn expect_args(expect: DocExpect<'_>) -> (&'static str, &str) {
    match expect {
        DocExpect::Any => ("any", ""),
        DocExpect::Absent => ("absent", ""),
        DocExpect::Etag(etag) => ("etag", etag),
    }
}

#[async_trait]
impl DocStore for RedisStore {
    async fn doc_get(&self, scope: &str, name: &str, known_etag: Option<&str>) -> Result<DocRead> {
        validate_doc_key(scope, name)?;
        let found: Option<Vec<Vec<u8>>> = self
            .scripts
            .doc_get
            .key(self.keys.doc(scope, name))
            .arg(known_etag.unwrap_or(""))
            .invoke_async(&mut self.conn())
            .await?;
        Ok(match found {
            None => DocRead::Absent,
            Some(mut parts) if parts.len() == 2 => {
                let body = parts.pop().unwrap_or_default();
                let etag = String::from_utf8_lossy(&parts[0]).into_owned();
                DocRead::Current { etag, body }
            }
            Some(_) => DocRead::Unchanged,
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
        let (mode, expected) = expect_args(expect);
        let written: i64 = self
            .scripts
            .doc_put
            .key(self.keys.doc(scope, name))
            .key(self.keys.doc_index(scope))
            .arg(mode)
            .arg(expected)
            .arg(etag)
            .arg(body)
            .arg(name)
            .invoke_async(&mut self.conn())
            .await?;
        Ok(written == 1)
    }

    async fn doc_delete(&self, scope: &str, name: &str, expect: DocExpect<'_>) -> Result<bool> {
        validate_doc_key(scope, name)?;
        let (mode, expected) = expect_args(expect);
        let removed: i64 = self
            .scripts
            .doc_delete
            .key(self.keys.doc(scope, name))
            .key(self.keys.doc_index(scope))
            .arg(mode)
            .arg(expected)
            .arg(name)
            .invoke_async(&mut self.conn())
            .await?;
        Ok(removed == 1)
    }

    async fn doc_list(&self, scope: &str) -> Result<Vec<String>> {
        validate_slag_key(scope)?;
        let mut names: Vec<String> = redis::cmd("SMEMBERS")
            .arg(self.keys.doc_index(scope))
            .query_async(&mut self.conn())
            .await?;
        names.sort();
        Ok(names)
    }
}

#[async_trait]
impl ArtifactStore for RedisStore {
    async fn artifact_put(
        &self,
        slag: &str,
        id: &str,
        body: &[u8],
        bounds: ArtifactBounds,
    ) -> Result<()> {
        validate_slag_key(slag)?;
        validate_slag_key(id)?;
        let prefix = self.keys.artifact_prefix(slag);
        let _: i64 = self
            .scripts
            .artifact_put
            .key(self.keys.artifacts(slag))
            .key(self.keys.artifacts_meta(slag))
            .key(self.keys.artifact(slag, id))
            .arg(id)
            .arg(body)
            .arg(bounds.max_bytes)
            .arg(bounds.max_entries)
            .arg(&prefix)
            .invoke_async(&mut self.conn())
            .await?;
        Ok(())
    }

    async fn artifact_get(&self, slag: &str, id: &str) -> Result<Option<Vec<u8>>> {
        validate_slag_key(slag)?;
        validate_slag_key(id)?;
        let body: Option<Vec<u8>> = self
            .scripts
            .artifact_get
            .key(self.keys.artifacts(slag))
            .key(self.keys.artifacts_meta(slag))
            .key(self.keys.artifact(slag, id))
            .arg(id)
            .invoke_async(&mut self.conn())
            .await?;
        Ok(body)
    }

    async fn artifact_usage(&self, slag: &str) -> Result<(Vec<String>, u64)> {
        validate_slag_key(slag)?;
        let (ids, bytes): (Vec<String>, Option<u64>) = redis::pipe()
            .cmd("ZRANGE")
            .arg(self.keys.artifacts(slag))
            .arg(0)
            .arg(-1)
            .cmd("HGET")
            .arg(self.keys.artifacts_meta(slag))
            .arg("bytes")
            .query_async(&mut self.conn())
            .await?;
        Ok((ids, bytes.unwrap_or(0)))
    }
}
