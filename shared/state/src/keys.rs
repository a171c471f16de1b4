//! The Redis key layout (documented in ARCHITECTURE.md). Per-slag keys share the
//! hash tag `{<slag>}` so the Lua scripts that touch a job, its index and the
//! waiting index stay in one Redis Cluster slot.

use crate::{Result, StateError};

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

/// Key names of one tenant.
#[derive(Debug, Clone)]
pub struct KeyLayout {
    prefix: String,
}

impl KeyLayout {
    /// The layout of `tenant`.
    pub fn new(tenant: &str) -> Result<Self> {
        validate_slag_key(tenant)?;
        Ok(Self {
            prefix: format!("adas:{tenant}"),
        })
    }

    /// Hash of a job record: fields `v` (version), `d` (data), `s` (status),
    /// `c` (created, ms) and `w` (present while in the waiting index).
    pub fn job(&self, slag: &str, job_id: &str) -> String {
        format!("{}:{{{slag}}}:job:{job_id}", self.prefix)
    }

    /// Sorted set of a slag's job ids, scored by creation time.
    pub fn jobs_index(&self, slag: &str) -> String {
        format!("{}:{{{slag}}}:jobs", self.prefix)
    }

    /// Sorted set of a slag's jobs in `status`, scored by creation time (the
    /// job hash's `s` field says which one holds it).
    pub fn status_index(&self, slag: &str, status: &str) -> String {
        format!("{}:{{{slag}}}:status:{status}", self.prefix)
    }

    /// Sorted set of a slag's paused jobs, scored by ask time.
    pub fn waiting_index(&self, slag: &str) -> String {
        format!("{}:{{{slag}}}:waiting", self.prefix)
    }

    /// Stream of a job's events.
    pub fn events(&self, slag: &str, job_id: &str) -> String {
        format!("{}:{{{slag}}}:events:{job_id}", self.prefix)
    }

    /// String holding an idempotency key's value.
    pub fn idempotency(&self, slag: &str, key: &str) -> String {
        format!("{}:{{{slag}}}:idem:{key}", self.prefix)
    }

    /// The tenant's ready queue stream (consumer group [`Self::QUEUE_GROUP`]).
    pub fn ready_queue(&self) -> String {
        format!("{}:queue:ready", self.prefix)
    }

    /// The tenant's lane of resumed jobs (answers, approvals), claimed before
    /// the ready queue; same consumer group.
    pub fn resume_queue(&self) -> String {
        format!("{}:queue:resumed", self.prefix)
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
