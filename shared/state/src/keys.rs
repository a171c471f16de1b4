//! The Redis key layout (documented in ARCHITECTURE.md). A slag's keys and the
//! queue lanes of its partition share one hash tag, `{<tenant>:q<NN>}`, so every
//! Lua script that writes a job, its indexes, its events and its queue entry
//! stays in one Redis Cluster slot; the [`PARTITIONS`] tags spread the tenant's
//! slags (and the ready queue) over the cluster's shards.

use crate::{Lane, Result, StateError};

/// Longest slag or id accepted in a key.
const MAX_KEY_PART: usize = 128;

/// Refuses key parts that would break the layout: empty, too long, or containing
/// hash-tag braces, separators, whitespace or glob characters.
pub fn validate_slag_key(part: &str) -> Result<()> {
    let reason = if part.is_empty() {
        Some("empty")
    } else if part.len() > MAX_KEY_PART {
        Some("longer than 128 bytes")
    } else if part.chars().any(|c| {
        matches!(c, '{' | '}' | ':' | '*' | '?' | '[' | ']' | '\\')
            || c.is_whitespace()
            || c.is_control()
    }) {
        Some("contains a character that is not allowed in keys")
    } else {
        None
    };
    match reason {
        Some(reason) => Err(StateError::InvalidKey {
            part: part.chars().take(MAX_KEY_PART).collect(),
            reason,
        }),
        None => Ok(()),
    }
}

/// The end of a partition's queue lane keys.
const READY_LANE: &str = ":queue:ready";
const RESUMED_LANE: &str = ":queue:resumed";

/// Partitions of a tenant's keys and ready queue. Part of the key layout:
/// every process of a deployment must agree on it, so it is a constant.
pub const PARTITIONS: u16 = 16;

/// The partition of `slag`'s jobs (FNV-1a: stable across processes and builds).
pub fn partition_of(slag: &str) -> u16 {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in slag.bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    (hash % u32::from(PARTITIONS)) as u16
}

/// Key names of one tenant.
#[derive(Debug, Clone)]
pub struct KeyLayout {
    prefix: String,
    tenant: String,
}

impl KeyLayout {
    /// The layout of `tenant`.
    pub fn new(tenant: &str) -> Result<Self> {
        validate_slag_key(tenant)?;
        Ok(Self {
            prefix: format!("adas:{tenant}"),
            tenant: tenant.to_owned(),
        })
    }

    /// The prefix of partition `partition`'s keys (its hash tag).
    fn tagged(&self, partition: u16) -> String {
        format!("adas:{{{}:q{partition:02}}}", self.tenant)
    }

    /// The prefix of `slag`'s keys.
    fn slag_prefix(&self, slag: &str) -> String {
        format!("{}:{slag}", self.tagged(partition_of(slag)))
    }

    /// A job: a string, its header line `<version> <status> <created ms>
    /// <waiting 0|1>` and then its record (the job scripts in `redis_store`).
    pub fn job(&self, slag: &str, job_id: &str) -> String {
        format!("{}:job:{job_id}", self.slag_prefix(slag))
    }

    /// Sorted set of a slag's job ids, scored by creation time.
    pub fn jobs_index(&self, slag: &str) -> String {
        format!("{}:jobs", self.slag_prefix(slag))
    }

    /// Sorted set of a slag's jobs in `status`, scored by creation time (the
    /// job key's header says which one holds it).
    pub fn status_index(&self, slag: &str, status: &str) -> String {
        format!("{}:status:{status}", self.slag_prefix(slag))
    }

    /// Sorted set of a slag's paused jobs, scored by ask time.
    pub fn waiting_index(&self, slag: &str) -> String {
        format!("{}:waiting", self.slag_prefix(slag))
    }

    /// The policy mark of `tenant`'s skill `slag`, in the slot of the
    /// skill's jobs (`PolicyCheck`): the tenant is the job's, not the
    /// store's.
    pub fn policy(&self, slag: &str, tenant: &str) -> String {
        format!("{}:policy:{tenant}", self.slag_prefix(slag))
    }

    /// List of a job's events, oldest first: an event's id is its position
    /// (from 1).
    pub fn events(&self, slag: &str, job_id: &str) -> String {
        format!("{}:log:{job_id}", self.slag_prefix(slag))
    }

    /// Stream of a job's events as versions before the event log was a list
    /// wrote them: still read (ids `<ms>-<seq>`, before the list's) and deleted
    /// with the job, never written.
    pub fn legacy_events(&self, slag: &str, job_id: &str) -> String {
        format!("{}:events:{job_id}", self.slag_prefix(slag))
    }

    /// Sorted set of a slag's artifact ids (the focus cache), scored by recency.
    pub fn artifacts(&self, slag: &str) -> String {
        format!("{}:focus", self.slag_prefix(slag))
    }

    /// Hash of a slag's artifact bookkeeping: `clock` (the last recency
    /// handed out) and `bytes` (the total stored).
    pub fn artifacts_meta(&self, slag: &str) -> String {
        format!("{}:focus:meta", self.slag_prefix(slag))
    }

    /// The prefix of a slag's artifact bodies (`<prefix><id>`, strings).
    pub fn artifact_prefix(&self, slag: &str) -> String {
        format!("{}:focus:a:", self.slag_prefix(slag))
    }

    /// An artifact's body.
    pub fn artifact(&self, slag: &str, id: &str) -> String {
        format!("{}{id}", self.artifact_prefix(slag))
    }

    /// String holding an idempotency key's value.
    pub fn idempotency(&self, slag: &str, key: &str) -> String {
        format!("{}:idem:{key}", self.slag_prefix(slag))
    }

    /// String holding an approval request or decision.
    pub fn approval(&self, slag: &str, key: &str) -> String {
        format!("{}:approval:{key}", self.slag_prefix(slag))
    }

    /// A partition's ready queue stream (consumer group [`Self::QUEUE_GROUP`]).
    pub fn ready_queue(&self, partition: u16) -> String {
        format!("{}{READY_LANE}", self.tagged(partition))
    }

    /// A partition's lane of resumed jobs (answers, approvals), claimed before
    /// the ready queue; same consumer group.
    pub fn resume_queue(&self, partition: u16) -> String {
        format!("{}{RESUMED_LANE}", self.tagged(partition))
    }

    /// Which lane a queue key (of any partition) is.
    pub fn lane_of_queue(key: &str) -> Option<Lane> {
        if key.ends_with(RESUMED_LANE) {
            Some(Lane::Resumed)
        } else if key.ends_with(READY_LANE) {
            Some(Lane::New)
        } else {
            None
        }
    }

    /// A partition's jobs that wait unparked, scored by when they started
    /// waiting (ms), members `<slag>:<job_id>`: what the park sweep reads.
    pub fn unparked(&self, partition: u16) -> String {
        format!("{}:unparked", self.tagged(partition))
    }

    /// A partition's event feed: the pub/sub channel the events each write
    /// appends to its jobs' logs are published on, one message a write
    /// (`redis/watch.rs`), which WatchJob readers subscribe to; also the
    /// name of the capped stream versions before it kept (deleted at connect).
    pub fn feed(&self, partition: u16) -> String {
        format!("{}:feed", self.tagged(partition))
    }

    /// A partition's feed count (a string, `INCR`ed per entry): consecutive
    /// counts tell a reader it missed nothing to the feed's trimming.
    pub fn feed_count(&self, partition: u16) -> String {
        format!("{}:feed:n", self.tagged(partition))
    }

    /// Consumer group of the ready queue.
    pub const QUEUE_GROUP: &'static str = "workers";

    /// Set of a quota's members (`claim_slot`).
    pub fn slots(&self, set: &str) -> String {
        format!("{}:slots:{set}", self.prefix)
    }

    /// Hash of a document (`e` etag, `b` body); the scope is the hash tag, so a
    /// document and its scope's index share a Redis Cluster slot.
    pub fn doc(&self, scope: &str, name: &str) -> String {
        format!("{}:{{doc:{scope}}}:{name}", self.prefix)
    }

    /// Set of a scope's document names.
    pub fn doc_index(&self, scope: &str) -> String {
        format!("{}:{{doc:{scope}}}", self.prefix)
    }

    /// Hash of a cache entry: fields `v` (value), `s` (stored at, ms), `f` (fresh until, ms).
    pub fn cache(&self, key: &str) -> String {
        format!("{}:cache:{key}", self.prefix)
    }

    /// Glob matching every cache key starting with `prefix` (glob characters escaped).
    pub fn cache_glob(&self, prefix: &str) -> String {
        let mut escaped = String::with_capacity(prefix.len());
        for c in prefix.chars() {
            if matches!(c, '*' | '?' | '[' | ']' | '\\') {
                escaped.push('\\');
            }
            escaped.push(c);
        }
        format!("{}:cache:{escaped}*", self.prefix)
    }
}

/// Idempotency keys come from clients: bounded, non-empty, printable.
pub fn validate_idempotency_key(key: &str) -> Result<()> {
    if key.is_empty() || key.len() > 256 || key.chars().any(|c| c.is_control() || c.is_whitespace())
    {
        return Err(StateError::InvalidKey {
            part: key.chars().take(64).collect(),
            reason: "idempotency keys are 1-256 printable characters without spaces",
        });
    }
    Ok(())
}

/// Cache keys are chosen by the platform, never by clients; still refuse the empty key.
pub fn validate_cache_key(key: &str) -> Result<()> {
    if key.is_empty() || key.len() > 1024 {
        return Err(StateError::InvalidKey {
            part: key.chars().take(64).collect(),
            reason: "cache keys are 1-1024 bytes",
        });
    }
    Ok(())
}

/// A document's scope and name are key parts (see [`validate_slag_key`]).
pub fn validate_doc_key(scope: &str, name: &str) -> Result<()> {
    validate_slag_key(scope)?;
    validate_slag_key(name)
}
