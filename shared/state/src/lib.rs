//! adas-state: where jobs, their events, the ready queue, waiting indexes,
//! idempotency keys and tool caches live.
//!
//! One set of traits, two backends that pass the same conformance suite
//! (`tests/conformance.rs`): [`RedisStore`] for deployments (the source of truth
//! shared by every service process) and [`MemoryStore`], the embedded default of
//! `adas up` — a real implementation, not a test double.
//!
//! Records are opaque bytes (the services store JSON); the store owns versions,
//! indexes and expiry. A store is bound to one deployment key prefix; every method that touches
//! per-skill data takes the slag.

mod error;
mod keys;
mod memory;
mod park;
mod redis;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;

pub use error::StateError;
pub use keys::{KeyLayout, PARTITIONS, partition_of, validate_slag_key};
pub use memory::MemoryStore;
pub use redis::{RedisStore, durability_problems, parked_events, redis_round_trips};

/// Result of store operations.
pub type Result<T, E = StateError> = std::result::Result<T, E>;

/// A record version: 1 on create, +1 on every successful write.
pub type Version = u64;

/// A stored job record and its version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionedRecord {
    /// Version of `data`.
    pub version: Version,
    /// The record bytes as last written.
    pub data: Vec<u8>,
}

/// What a job write does to the slag's waiting index, in the same atomic step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitingChange {
    /// Leave the index as it is.
    Keep,
    /// Add (or move) the job to the index, waiting since this time (ms since the Unix epoch).
    Set {
        /// When the ask was made.
        since_ms: u64,
    },
    /// Remove the job from the index.
    Clear,
}

/// A page request by offset; page tokens at the API edge encode the offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    /// Items to skip.
    pub offset: u64,
    /// Maximum items to return (at least 1).
    pub limit: usize,
}

/// One page of results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page<T> {
    /// The items.
    pub items: Vec<T>,
    /// Offset of the next page; `None` on the last page.
    pub next_offset: Option<u64>,
}

/// An entry of a slag's waiting index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaitingEntry {
    /// The paused job.
    pub job_id: String,
    /// When its ask was made (ms since the Unix epoch).
    pub since_ms: u64,
}

/// An event of a job's log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEvent {
    /// Id, ordered within the job; read after it to resume.
    pub id: String,
    /// The event bytes.
    pub data: Vec<u8>,
}

/// Where a read of a job's events starts: the `after` of [`EventLog`]'s reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EventCursor {
    /// After the event with this id, a position in the job's log (0: from the
    /// start).
    After(u64),
    /// After an id of a Redis stream (`<ms>-<seq>`): an event log written
    /// before logs were lists. Everything in the list comes after it.
    Legacy(u64, u64),
}

impl EventCursor {
    /// Parses `after` (`None`: from the start); anything else is refused.
    pub(crate) fn parse(after: Option<&str>) -> Result<Self> {
        let Some(id) = after else {
            return Ok(Self::After(0));
        };
        let parsed = match id.split_once('-') {
            // A position Redis cannot index (its list indexes are signed) is
            // no event's id.
            None => id
                .parse()
                .ok()
                .filter(|&position: &u64| i64::try_from(position).is_ok())
                .map(Self::After),
            Some((ms, seq)) => ms
                .parse()
                .ok()
                .zip(seq.parse().ok())
                .map(|(ms, seq)| Self::Legacy(ms, seq)),
        };
        // `u64::from_str` takes a leading `+`; an id never has one.
        parsed
            .filter(|_| id.bytes().all(|byte| byte.is_ascii_digit() || byte == b'-'))
            .ok_or_else(|| StateError::InvalidKey {
                part: id.chars().take(64).collect(),
                reason: "not an event id",
            })
    }
}

/// A job reference carried by the ready queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueItem {
    /// The job's slag.
    pub slag: String,
    /// The job id.
    pub job_id: String,
}

/// The two lanes of the ready queue. A resumed job (an answer, an approval)
/// has its own lane, claimed before new work, so a user who answered never
/// waits behind a backlog of new jobs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Lane {
    /// New jobs.
    New,
    /// Jobs resumed by an answer or an approval.
    Resumed,
}

/// A queue item handed to one consumer; it stays pending until acked, and is
/// reclaimable by another consumer once idle long enough.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    /// Delivery id, passed back to acknowledge it.
    pub id: String,
    /// The lane it came from.
    pub lane: Lane,
    /// The job.
    pub item: QueueItem,
    /// The record as the write that queued the job left it, so a worker needs
    /// no read to start. It may be stale by the time it is claimed (a cancel
    /// since): every write is a compare-and-set on its version, so a stale copy
    /// only costs a conflict and a reload, never a step on old state.
    pub record: Option<VersionedRecord>,
}

impl Delivery {
    /// What acknowledging this delivery takes.
    pub fn receipt(&self) -> Receipt {
        Receipt {
            lane: self.lane,
            partition: keys::partition_of(&self.item.slag),
            id: self.id.clone(),
        }
    }
}

/// A delivery to acknowledge: the item leaves its lane for good.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Receipt {
    /// The lane.
    pub lane: Lane,
    /// The queue partition (of the job's slag: [`partition_of`]).
    pub partition: u16,
    /// The delivery id.
    pub id: String,
}

/// A new job for [`JobStore::create_job`].
#[derive(Debug, Clone, Copy)]
pub struct NewJob<'a> {
    /// The record (version 1).
    pub data: &'a [u8],
    /// Creation time (ms since the Unix epoch): the job's place in lists.
    pub created_ms: u64,
    /// Its status (a short tag): the per-status index it enters.
    pub status: &'a str,
    /// Its first event.
    pub event: Option<&'a [u8]>,
    /// Queue it ([`Lane::New`]) in the same step.
    pub enqueue: bool,
}

/// One compare-and-set write of a job with everything that rides with it
/// ([`JobStore::write_job`]).
#[derive(Debug, Clone, Copy)]
pub struct JobWrite<'a> {
    /// The version the writer read; any other stored version fails the write.
    pub expected: Version,
    /// The new record; `None` keeps the stored bytes and only moves the version
    /// (a step that must not slip past a concurrent write, like a tool call's start).
    pub data: Option<&'a [u8]>,
    /// The status after the write (a short tag): the per-status index follows it.
    pub status: &'a str,
    /// What happens to the slag's waiting index.
    pub waiting: WaitingChange,
    /// Events appended, in order.
    pub events: &'a [&'a [u8]],
    /// Queue the job in this lane.
    pub enqueue: Option<Lane>,
    /// The policy the write's decision was made under (a call's start after
    /// the gate): checked against the skill's policy mark in the same step.
    pub policy: Option<PolicyCheck<'a>>,
}

/// Which version of a skill's policy a job write relies on. Each tenant's
/// skill has a mark in its jobs' hash slot ([`JobStore::mark_policy`]),
/// set by whoever changes the skill, so a write can check it without
/// reading the skill: a gate that decided on the version this process held
/// costs no read, and a change it missed refuses the write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PolicyCheck<'a> {
    /// The job's tenant (the mark is per tenant and slag).
    pub tenant: &'a str,
    /// The skill's etag the decision took for current.
    pub etag: &'a str,
    /// How that etag was known.
    pub seen: PolicySeen,
}

/// How a decision knew the skill's current version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicySeen {
    /// Held by this process since an earlier read: the write holds only if
    /// the mark names this version ([`StateError::PolicyChanged`] if not).
    Held,
    /// Read from the store for this decision: the write holds whatever the
    /// mark says (the read is as fresh as a check in the write could be),
    /// and names this version on a mark that is not there yet.
    Read,
}

/// A mark of a skill's policy ([`JobStore::mark_policy`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicyMark<'a> {
    /// The skill is being changed (or was, by a writer that did not finish):
    /// no version held by a process is taken for current.
    Changing,
    /// The skill's current version.
    Current(&'a str),
}

/// Queue counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct QueueStats {
    /// Items no consumer holds yet.
    pub ready: u64,
    /// Items held by a consumer and not yet acked.
    pub pending: u64,
}

/// A cached value and whether it is still fresh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheEntry {
    /// The cached bytes.
    pub value: Vec<u8>,
    /// False once `fresh_for` has passed; the entry is still served until `keep_for`
    /// so a caller can fall back to it when the source is down.
    pub fresh: bool,
    /// Age of the entry in milliseconds.
    pub age_ms: u64,
}

/// Job records with compare-and-set writes.
#[async_trait]
pub trait JobStore: Send + Sync {
    /// Creates a job record at version 1, indexes it under its slag and its
    /// status, appends its first event and (when asked) queues it — one atomic
    /// step (one round trip on Redis). Fails with [`StateError::AlreadyExists`]
    /// if the id is taken.
    async fn create_job(&self, slag: &str, job_id: &str, job: NewJob<'_>) -> Result<Version>;
    /// Reads a job record.
    async fn get_job(&self, slag: &str, job_id: &str) -> Result<Option<VersionedRecord>>;
    /// Reads several job records of a slag at once (one round trip on Redis),
    /// in the order asked; `None` where a job does not exist.
    async fn get_jobs(
        &self,
        slag: &str,
        job_ids: &[String],
    ) -> Result<Vec<Option<VersionedRecord>>>;
    /// Writes a job if its stored version is still `write.expected`, moving it
    /// between status indexes (a waiting job is in none: the waiting index
    /// lists it), applying the waiting change, appending the
    /// events and (when asked) queueing it — one atomic step (one round trip on
    /// Redis): a transition's write, its events and its wake-up never part. A
    /// stale write fails with [`StateError::VersionConflict`] and changes nothing.
    async fn write_job(&self, slag: &str, job_id: &str, write: JobWrite<'_>) -> Result<Version>;
    /// Packs jobs that have waited since before `before_ms` into one key
    /// each — their record and their events — at most `limit` a partition
    /// per call (the rest next time); how many. A job answered sooner is
    /// never packed. The partitions read are those this process paused jobs
    /// in, or all of them with `every_partition` (jobs other processes
    /// paused). A store that does not pack jobs packs none.
    async fn park_waiting(
        &self,
        before_ms: u64,
        limit: usize,
        every_partition: bool,
    ) -> Result<usize> {
        let _ = (before_ms, limit, every_partition);
        Ok(0)
    }
    /// Sets the policy mark of `tenant`'s skill `slag` (see [`PolicyCheck`]):
    /// a skill's writer marks it [`PolicyMark::Changing`] before it writes
    /// the skill and [`PolicyMark::Current`] after.
    async fn mark_policy(&self, tenant: &str, slag: &str, mark: PolicyMark<'_>) -> Result<()>;
    /// Deletes a job with its events and index entries; false if it did not exist.
    async fn delete_job(&self, slag: &str, job_id: &str) -> Result<bool>;
    /// Ids of a slag's jobs in `status` created before `before_ms`, oldest
    /// first, at most `limit` (for retention sweeps; waiting jobs are not in
    /// a status index).
    async fn jobs_created_before(
        &self,
        slag: &str,
        status: &str,
        before_ms: u64,
        limit: usize,
    ) -> Result<Vec<String>>;
    /// Job ids of a slag, oldest first (by creation time, then id); with
    /// `status`, only the jobs in that status that are not waiting (an
    /// index: no scan; [`WaitingIndex::list_waiting`] lists the waiting ones).
    async fn list_jobs(
        &self,
        slag: &str,
        status: Option<&str>,
        page: PageRequest,
    ) -> Result<Page<String>>;
    /// A slag's jobs created in `[from_ms, to_ms]`, newest first (by creation
    /// time, then id, both descending), skipping `skip`, at most `limit`,
    /// each with its creation time: the reads behind a list across skills.
    async fn jobs_newest(
        &self,
        slag: &str,
        (from_ms, to_ms): (u64, u64),
        skip: usize,
        limit: usize,
    ) -> Result<Vec<(u64, String)>>;
}

/// Per-job append-only event logs.
#[async_trait]
pub trait EventLog: Send + Sync {
    /// Appends an event and returns its id.
    async fn append_event(&self, slag: &str, job_id: &str, data: &[u8]) -> Result<String>;
    /// Reads up to `limit` events after `after` (from the start when `None`), in order.
    async fn read_events(
        &self,
        slag: &str,
        job_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<StoredEvent>>;
    /// Like `read_events`, but when none is there yet waits up to `block` for
    /// the first to be appended (by any process), so a watcher needs no polling.
    /// An empty result means the wait timed out.
    async fn wait_events(
        &self,
        slag: &str,
        job_id: &str,
        after: Option<&str>,
        limit: usize,
        block: Duration,
    ) -> Result<Vec<StoredEvent>>;
}

/// The ready queue of jobs, with consumer-group semantics: an item is delivered
/// to one consumer, stays pending until acked, and is reclaimed by another
/// consumer when its holder stays silent past a visibility timeout.
#[async_trait]
pub trait ReadyQueue: Send + Sync {
    /// Appends an item.
    async fn enqueue(&self, item: &QueueItem) -> Result<String>;
    /// Acknowledges `acks`, then takes up to `max` ready items for `consumer`
    /// — resumed ones first — waiting up to `block` for one to arrive when none
    /// is ready (zero: do not wait). One round trip on Redis: a worker's acks
    /// ride with its next claim.
    async fn claim(
        &self,
        consumer: &str,
        acks: &[Receipt],
        max: usize,
        block: Duration,
    ) -> Result<Vec<Delivery>>;
    /// Acknowledges deliveries now: the items leave the queue for good.
    async fn ack(&self, receipts: &[Receipt]) -> Result<()>;
    /// Takes over up to `max` items pending with any consumer for at least
    /// `min_idle` (their records are not carried: they are read afresh).
    async fn reclaim(
        &self,
        consumer: &str,
        min_idle: Duration,
        max: usize,
    ) -> Result<Vec<Delivery>>;
    /// Renews `consumer`'s lease on a delivery it holds: its idle time starts
    /// again, so [`Self::reclaim`] leaves it alone. False when the consumer no
    /// longer holds it (acknowledged, or reclaimed by another consumer: the
    /// caller is fenced off and must not act on the job any more).
    async fn renew(&self, consumer: &str, receipt: &Receipt) -> Result<bool>;
    /// Ready and pending counts.
    async fn queue_stats(&self) -> Result<QueueStats>;
}

/// The per-slag index of paused jobs (written through [`JobStore::write_job`]).
#[async_trait]
pub trait WaitingIndex: Send + Sync {
    /// Paused jobs of a slag, oldest ask first.
    async fn list_waiting(&self, slag: &str, page: PageRequest) -> Result<Page<WaitingEntry>>;
    /// Paused jobs whose ask is older than `before_ms`, oldest first, at most `limit`.
    async fn waiting_before(
        &self,
        slag: &str,
        before_ms: u64,
        limit: usize,
    ) -> Result<Vec<WaitingEntry>>;
    /// Number of paused jobs of a slag.
    async fn count_waiting(&self, slag: &str) -> Result<u64>;
}

/// Set-once idempotency keys with a TTL.
#[async_trait]
pub trait IdempotencyStore: Send + Sync {
    /// Stores `value` under `key` unless present. Returns `None` when this call
    /// stored it, or the value already stored by an earlier call.
    async fn remember(
        &self,
        slag: &str,
        key: &str,
        value: &str,
        ttl: Duration,
    ) -> Result<Option<String>>;
    /// Reads a stored value.
    async fn recall(&self, slag: &str, key: &str) -> Result<Option<String>>;
    /// Counts one more under `key` and returns the count within its window:
    /// the window (`window` long) starts with the first count, and the count
    /// starts over after it. Every process counts in the same window.
    async fn count(&self, slag: &str, key: &str, window: Duration) -> Result<u64>;
}

/// The gate's approval book: requests for approval and decisions, each
/// recorded once per job and exact call (a second record of the same key
/// gets the first back), kept apart from clients' idempotency keys.
#[async_trait]
pub trait ApprovalStore: Send + Sync {
    /// Records `value` under `key` of `slag`'s approvals unless one is
    /// there: `None` when this call recorded it, else the value recorded
    /// first.
    async fn record_approval(
        &self,
        slag: &str,
        key: &str,
        value: &str,
        ttl: Duration,
    ) -> Result<Option<String>>;
    /// The value recorded under `key`.
    async fn approval(&self, slag: &str, key: &str) -> Result<Option<String>>;
}

/// A TTL cache with a stale window (for tool lists and selections).
#[async_trait]
pub trait TtlCache: Send + Sync {
    /// Reads an entry that has not passed `keep_for`.
    async fn cache_get(&self, key: &str) -> Result<Option<CacheEntry>>;
    /// Writes an entry, fresh for `fresh_for` and kept (stale) until `keep_for`
    /// (at least `fresh_for`).
    async fn cache_put(
        &self,
        key: &str,
        value: &[u8],
        fresh_for: Duration,
        keep_for: Duration,
    ) -> Result<()>;
    /// Drops an entry; false if absent.
    async fn cache_invalidate(&self, key: &str) -> Result<bool>;
    /// Drops every entry whose key starts with `prefix`; returns how many.
    async fn cache_invalidate_prefix(&self, prefix: &str) -> Result<u64>;
}

/// What a document read found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocRead {
    /// No document by that name.
    Absent,
    /// The stored document carries the etag the caller already holds.
    Unchanged,
    /// The stored document.
    Current {
        /// Its etag, as written.
        etag: String,
        /// Its bytes.
        body: Vec<u8>,
    },
}

/// The condition a document write or delete must meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocExpect<'a> {
    /// Whatever is stored.
    Any,
    /// Nothing is stored under the name (create once: the first writer wins).
    Absent,
    /// The stored document has this etag.
    Etag(&'a str),
}

/// Small documents shared by every process of a deployment (operational skills,
/// their versions): one current body per name within a scope, written with a
/// compare-and-set on its etag, so no process needs a shared disk.
#[async_trait]
pub trait DocStore: Send + Sync {
    /// The document `name` of `scope`; [`DocRead::Unchanged`] (without the body)
    /// when its etag is `known_etag`.
    async fn doc_get(&self, scope: &str, name: &str, known_etag: Option<&str>) -> Result<DocRead>;
    /// Stores `body` under `etag` when `expect` holds; false (nothing written) otherwise.
    async fn doc_put(
        &self,
        scope: &str,
        name: &str,
        etag: &str,
        body: &[u8],
        expect: DocExpect<'_>,
    ) -> Result<bool>;
    /// Removes the document when `expect` holds; false when it did not (or was absent).
    async fn doc_delete(&self, scope: &str, name: &str, expect: DocExpect<'_>) -> Result<bool>;
    /// Names of a scope's documents, sorted.
    async fn doc_list(&self, scope: &str) -> Result<Vec<String>>;
}

/// Bounds of one slag's artifacts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArtifactBounds {
    /// Most bytes kept.
    pub max_bytes: u64,
    /// Most artifacts kept.
    pub max_entries: usize,
}

/// A slag's artifacts (the focus cache, spec 002): bodies stored once by id
/// and read back by any process, bounded per slag in bytes and entries with
/// the least recently used evicted first. Ids are the caller's (a content hash).
#[async_trait]
pub trait ArtifactStore: Send + Sync {
    /// Stores `body` as `id` (or refreshes it when present, keeping the stored
    /// body), making it the most recently used, then evicts the least recently
    /// used until both `bounds` hold. A body larger than `bounds.max_bytes` is
    /// refused by the caller, not here.
    async fn artifact_put(
        &self,
        slag: &str,
        id: &str,
        body: &[u8],
        bounds: ArtifactBounds,
    ) -> Result<()>;
    /// The artifact `id`, now the most recently used; `None` when it was never
    /// stored or has been evicted.
    async fn artifact_get(&self, slag: &str, id: &str) -> Result<Option<Vec<u8>>>;
    /// The slag's artifact ids, least recently used first, and their total bytes.
    async fn artifact_usage(&self, slag: &str) -> Result<(Vec<String>, u64)>;
}

/// Everything a service needs from state, as one object.
pub trait StateStore:
    JobStore
    + EventLog
    + ReadyQueue
    + WaitingIndex
    + IdempotencyStore
    + ApprovalStore
    + TtlCache
    + Slots
    + DocStore
    + ArtifactStore
    + std::fmt::Debug
{
}

impl<T> StateStore for T where
    T: JobStore
        + EventLog
        + ReadyQueue
        + WaitingIndex
        + IdempotencyStore
        + ApprovalStore
        + TtlCache
        + Slots
        + DocStore
        + ArtifactStore
        + std::fmt::Debug
{
}

/// Bounded sets of members (quota bookkeeping: a principal's active jobs).
#[async_trait]
pub trait Slots: Send + Sync {
    /// Adds `member` to `set` unless the set already holds `limit` others, in one
    /// atomic step. True when the member is (now or already) in the set.
    async fn claim_slot(&self, set: &str, member: &str, limit: u64) -> Result<bool>;
    /// Removes `member` from `set` (no-op when absent).
    async fn release_slot(&self, set: &str, member: &str) -> Result<()>;
    /// The members of `set`.
    async fn slot_members(&self, set: &str) -> Result<Vec<String>>;
}

/// Opens the configured backend: Redis when a URL is given, else in memory.
pub async fn open(redis_url: Option<&str>, tenant: &str) -> Result<Arc<dyn StateStore>> {
    match redis_url {
        Some(url) => Ok(Arc::new(RedisStore::connect(url, tenant).await?)),
        None => Ok(Arc::new(MemoryStore::new())),
    }
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_millis() as u64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::EventCursor;

    #[test]
    fn event_ids_are_log_positions_or_legacy_stream_ids() {
        assert_eq!(EventCursor::parse(None).unwrap(), EventCursor::After(0));
        assert_eq!(
            EventCursor::parse(Some("0")).unwrap(),
            EventCursor::After(0)
        );
        assert_eq!(
            EventCursor::parse(Some("42")).unwrap(),
            EventCursor::After(42)
        );
        assert_eq!(
            EventCursor::parse(Some("1795527352036-3")).unwrap(),
            EventCursor::Legacy(1_795_527_352_036, 3)
        );
        for hostile in [
            "",
            "+1",
            "-",
            "1-",
            "-1",
            "1-2-3",
            "1 ",
            "0x10",
            "99999999999999999999999",
            "é",
        ] {
            assert!(EventCursor::parse(Some(hostile)).is_err(), "{hostile:?}");
        }
    }
}
