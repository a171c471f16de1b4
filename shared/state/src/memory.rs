//! The in-memory backend: the embedded default of `adas up` (one process, no
//! Redis). Same semantics as Redis, including expiry and consumer-group reclaim.

mod stores;

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use tokio::sync::Notify;

use crate::keys::{
    validate_cache_key, validate_doc_key, validate_idempotency_key, validate_slag_key,
};
use crate::{
    ApprovalStore, ArtifactBounds, ArtifactStore, CacheEntry, Delivery, DocExpect, DocRead,
    DocStore, EventCursor, EventLog, IdempotencyStore, JobStore, JobWrite, Lane, NewJob, Page,
    PageRequest, PolicyMark, PolicySeen, QueueItem, QueueStats, ReadyQueue, Receipt, Result, Slots,
    StateError, StoredEvent, TtlCache, Version, VersionedRecord, WaitingChange, WaitingEntry,
    WaitingIndex, now_ms,
};

/// Expired cache and idempotency entries are swept every this many writes, so
/// memory stays bounded without a background task.
const SWEEP_EVERY: u64 = 256;

/// In-memory state for one process.
#[derive(Debug, Default)]
pub struct MemoryStore {
    inner: Mutex<Inner>,
    queue_signal: Notify,
    /// Woken on every appended event; waiters re-check their own job.
    events_signal: Notify,
}

#[derive(Debug, Default)]
struct Inner {
    jobs: HashMap<(String, String), VersionedRecord>,
    jobs_index: HashMap<String, BTreeSet<(u64, String)>>,
    /// A job's status and creation time, keyed like `jobs`.
    job_status: HashMap<(String, String), (String, u64)>,
    /// Per (slag, status): the jobs in that status, by creation time.
    status_index: HashMap<(String, String), BTreeSet<(u64, String)>>,
    waiting: HashMap<String, HashMap<String, u64>>,
    events: HashMap<(String, String), Vec<StoredEvent>>,
    queue_seq: u64,
    ready: VecDeque<(String, QueueItem, Option<VersionedRecord>)>,
    resumed: VecDeque<(String, QueueItem, Option<VersionedRecord>)>,
    pending: HashMap<String, PendingItem>,
    idempotency: HashMap<(String, String), (String, Instant)>,
    approvals: HashMap<(String, String), (String, Instant)>,
    cache: HashMap<String, MemoryCacheEntry>,
    slots: HashMap<String, BTreeSet<String>>,
    /// Skills' policy marks by (tenant, slag): `None` while one changes.
    policy_marks: HashMap<(String, String), Option<String>>,
    /// Documents by (scope, name): etag and body.
    docs: BTreeMap<(String, String), (String, Vec<u8>)>,
    artifacts: HashMap<String, Artifacts>,
    writes: u64,
}

/// One slag's artifacts: recency → id, and each id's recency and body.
#[derive(Debug, Default)]
struct Artifacts {
    by_recency: BTreeMap<u64, String>,
    entries: HashMap<String, (u64, Vec<u8>)>,
    bytes: u64,
    clock: u64,
}

impl Artifacts {
    /// Makes `id` the most recently used.
    fn touch(&mut self, id: &str) {
        self.clock += 1;
        if let Some((at, _)) = self.entries.get_mut(id) {
            self.by_recency.remove(at);
            *at = self.clock;
            self.by_recency.insert(self.clock, id.to_owned());
        }
    }
}

#[derive(Debug)]
struct PendingItem {
    item: QueueItem,
    lane: Lane,
    delivered_at: Instant,
    /// Who holds it (leases are renewed by their holder only).
    consumer: String,
}

#[derive(Debug)]
struct MemoryCacheEntry {
    value: Vec<u8>,
    stored_at: Instant,
    fresh_until: Instant,
    expires_at: Instant,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave a half-applied write (every
        // write is a single map operation), so a poisoned lock is still consistent.
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Inner {
    /// Keeps a job in `status`'s index — or in none while it waits (the
    /// waiting index lists it), as on Redis.
    fn set_status(
        &mut self,
        key: &(String, String),
        status: &str,
        created_ms: Option<u64>,
        waiting: bool,
    ) {
        let (slag, job_id) = key;
        let previous = self.job_status.get(key).cloned();
        let created = created_ms
            .or(previous.as_ref().map(|(_, created)| *created))
            .unwrap_or(0);
        if let Some((old, _)) = &previous
            && let Some(index) = self.status_index.get_mut(&(slag.clone(), old.clone()))
        {
            index.remove(&(created, job_id.clone()));
        }
        if !waiting {
            self.status_index
                .entry((slag.clone(), status.to_owned()))
                .or_default()
                .insert((created, job_id.clone()));
        }
        self.job_status
            .insert(key.clone(), (status.to_owned(), created));
    }

    /// Queues a job in `lane`; the delivery id.
    fn push_queue(
        &mut self,
        lane: Lane,
        item: QueueItem,
        record: Option<VersionedRecord>,
    ) -> String {
        self.queue_seq += 1;
        let id = format!("{}-{}", now_ms(), self.queue_seq);
        let entry = (id.clone(), item, record);
        match lane {
            Lane::New => self.ready.push_back(entry),
            Lane::Resumed => self.resumed.push_back(entry),
        }
        id
    }

    fn note_write(&mut self) {
        self.writes += 1;
        if self.writes.is_multiple_of(SWEEP_EVERY) {
            let now = Instant::now();
            self.cache.retain(|_, entry| entry.expires_at > now);
            self.idempotency
                .retain(|_, (_, expires_at)| *expires_at > now);
        }
    }
}

fn job_key(slag: &str, job_id: &str) -> Result<(String, String)> {
    validate_slag_key(slag)?;
    validate_slag_key(job_id)?;
    Ok((slag.to_owned(), job_id.to_owned()))
}

fn page<T: Clone>(items: impl Iterator<Item = T>, request: PageRequest) -> Page<T> {
    let limit = request.limit.max(1);
    let mut selected: Vec<T> = items
        .skip(request.offset as usize)
        .take(limit + 1)
        .collect();
    let has_more = selected.len() > limit;
    selected.truncate(limit);
    Page {
        next_offset: has_more.then(|| request.offset + limit as u64),
        items: selected,
    }
}

#[async_trait]
impl JobStore for MemoryStore {
    async fn create_job(&self, slag: &str, job_id: &str, job: NewJob<'_>) -> Result<Version> {
        let key = job_key(slag, job_id)?;
        validate_slag_key(job.status)?;
        let mut inner = self.lock();
        if inner.jobs.contains_key(&key) {
            return Err(StateError::AlreadyExists {
                what: format!("job {slag}/{job_id}"),
            });
        }
        let record = VersionedRecord {
            version: 1,
            data: job.data.to_vec(),
        };
        inner.jobs.insert(key.clone(), record.clone());
        inner
            .jobs_index
            .entry(slag.to_owned())
            .or_default()
            .insert((job.created_ms, job_id.to_owned()));
        inner.set_status(&key, job.status, Some(job.created_ms), false);
        if let Some(event) = job.event {
            push_event(&mut inner, key.clone(), event);
        }
        if job.enqueue {
            let item = QueueItem {
                slag: slag.to_owned(),
                job_id: job_id.to_owned(),
            };
            let _ = inner.push_queue(Lane::New, item, Some(record));
        }
        drop(inner);
        if job.event.is_some() {
            self.events_signal.notify_waiters();
        }
        if job.enqueue {
            self.queue_signal.notify_waiters();
        }
        Ok(1)
    }

    async fn get_job(&self, slag: &str, job_id: &str) -> Result<Option<VersionedRecord>> {
        let key = job_key(slag, job_id)?;
        Ok(self.lock().jobs.get(&key).cloned())
    }

    async fn get_jobs(
        &self,
        slag: &str,
        job_ids: &[String],
    ) -> Result<Vec<Option<VersionedRecord>>> {
        let mut records = Vec::with_capacity(job_ids.len());
        for job_id in job_ids {
            records.push(self.get_job(slag, job_id).await?);
        }
        Ok(records)
    }

    async fn write_job(&self, slag: &str, job_id: &str, write: JobWrite<'_>) -> Result<Version> {
        let key = job_key(slag, job_id)?;
        validate_slag_key(write.status)?;
        let mut inner = self.lock();
        let Some(stored) = inner.jobs.get(&key).map(|record| record.version) else {
            return Err(StateError::NotFound {
                what: format!("job {slag}/{job_id}"),
            });
        };
        if stored != write.expected {
            return Err(StateError::VersionConflict {
                what: format!("job {slag}/{job_id}"),
                expected: write.expected,
                actual: stored,
            });
        }
        if let Some(check) = write.policy {
            let mark = (check.tenant.to_owned(), slag.to_owned());
            match (check.seen, inner.policy_marks.get(&mark)) {
                (PolicySeen::Held, Some(Some(current))) if current == check.etag => {}
                (PolicySeen::Held, _) => {
                    return Err(StateError::PolicyChanged {
                        slag: slag.to_owned(),
                    });
                }
                (PolicySeen::Read, Some(_)) => {}
                (PolicySeen::Read, None) => {
                    inner.policy_marks.insert(mark, Some(check.etag.to_owned()));
                }
            }
        }
        let Some(record) = inner.jobs.get_mut(&key) else {
            return Err(StateError::NotFound {
                what: format!("job {slag}/{job_id}"),
            });
        };
        record.version += 1;
        if let Some(data) = write.data {
            record.data = data.to_vec();
        }
        let written = record.clone();
        match write.waiting {
            WaitingChange::Keep => {}
            WaitingChange::Set { since_ms } => {
                inner
                    .waiting
                    .entry(slag.to_owned())
                    .or_default()
                    .insert(job_id.to_owned(), since_ms);
            }
            WaitingChange::Clear => {
                if let Some(index) = inner.waiting.get_mut(slag) {
                    index.remove(job_id);
                }
            }
        }
        let waiting = inner
            .waiting
            .get(slag)
            .is_some_and(|index| index.contains_key(job_id));
        inner.set_status(&key, write.status, None, waiting);
        for event in write.events {
            push_event(&mut inner, key.clone(), event);
        }
        let version = written.version;
        if let Some(lane) = write.enqueue {
            let item = QueueItem {
                slag: slag.to_owned(),
                job_id: job_id.to_owned(),
            };
            let _ = inner.push_queue(lane, item, Some(written));
        }
        drop(inner);
        if !write.events.is_empty() {
            self.events_signal.notify_waiters();
        }
        if write.enqueue.is_some() {
            self.queue_signal.notify_waiters();
        }
        Ok(version)
    }

    async fn mark_policy(&self, tenant: &str, slag: &str, mark: PolicyMark<'_>) -> Result<()> {
        validate_slag_key(slag)?;
        validate_slag_key(tenant)?;
        let mark = match mark {
            PolicyMark::Changing => None,
            PolicyMark::Current(etag) => Some(etag.to_owned()),
        };
        self.lock()
            .policy_marks
            .insert((tenant.to_owned(), slag.to_owned()), mark);
        Ok(())
    }

    async fn delete_job(&self, slag: &str, job_id: &str) -> Result<bool> {
        let key = job_key(slag, job_id)?;
        let mut inner = self.lock();
        let existed = inner.jobs.remove(&key).is_some();
        inner.events.remove(&key);
        if let Some(index) = inner.jobs_index.get_mut(slag) {
            index.retain(|(_, id)| id != job_id);
        }
        if let Some((status, created)) = inner.job_status.remove(&key)
            && let Some(index) = inner.status_index.get_mut(&(slag.to_owned(), status))
        {
            index.remove(&(created, job_id.to_owned()));
        }
        if let Some(index) = inner.waiting.get_mut(slag) {
            index.remove(job_id);
        }
        Ok(existed)
    }

    async fn jobs_created_before(
        &self,
        slag: &str,
        status: &str,
        before_ms: u64,
        limit: usize,
    ) -> Result<Vec<String>> {
        validate_slag_key(slag)?;
        validate_slag_key(status)?;
        let inner = self.lock();
        Ok(inner
            .status_index
            .get(&(slag.to_owned(), status.to_owned()))
            .map(|index| {
                index
                    .iter()
                    .take_while(|(created, _)| *created < before_ms)
                    .take(limit.max(1))
                    .map(|(_, id)| id.clone())
                    .collect()
            })
            .unwrap_or_default())
    }

    async fn list_jobs(
        &self,
        slag: &str,
        status: Option<&str>,
        request: PageRequest,
    ) -> Result<Page<String>> {
        validate_slag_key(slag)?;
        if let Some(status) = status {
            validate_slag_key(status)?;
        }
        let inner = self.lock();
        let index = match status {
            Some(status) => inner
                .status_index
                .get(&(slag.to_owned(), status.to_owned())),
            None => inner.jobs_index.get(slag),
        };
        let Some(index) = index else {
            return Ok(Page {
                items: Vec::new(),
                next_offset: None,
            });
        };
        Ok(page(index.iter().map(|(_, id)| id.clone()), request))
    }

    async fn jobs_newest(
        &self,
        slag: &str,
        (from_ms, to_ms): (u64, u64),
        skip: usize,
        limit: usize,
    ) -> Result<Vec<(u64, String)>> {
        validate_slag_key(slag)?;
        let inner = self.lock();
        Ok(inner
            .jobs_index
            .get(slag)
            .map(|index| {
                index
                    .iter()
                    .rev()
                    .filter(|(created, _)| (from_ms..=to_ms).contains(created))
                    .skip(skip)
                    .take(limit)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default())
    }
}

/// Appends an event under the held lock and returns its id: its position in
/// the job's log, as on Redis.
fn push_event(inner: &mut Inner, key: (String, String), data: &[u8]) -> String {
    let events = inner.events.entry(key).or_default();
    let id = (events.len() + 1).to_string();
    events.push(StoredEvent {
        id: id.clone(),
        data: data.to_vec(),
    });
    id
}

#[async_trait]
impl EventLog for MemoryStore {
    async fn append_event(&self, slag: &str, job_id: &str, data: &[u8]) -> Result<String> {
        let key = job_key(slag, job_id)?;
        let mut inner = self.lock();
        let id = push_event(&mut inner, key, data);
        drop(inner);
        self.events_signal.notify_waiters();
        Ok(id)
    }

    async fn wait_events(
        &self,
        slag: &str,
        job_id: &str,
        after: Option<&str>,
        limit: usize,
        block: Duration,
    ) -> Result<Vec<StoredEvent>> {
        let deadline = tokio::time::Instant::now() + block;
        loop {
            // Register interest before reading, so an append between the read and
            // the wait is not missed.
            let notified = self.events_signal.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            let events = self.read_events(slag, job_id, after, limit).await?;
            if !events.is_empty() {
                return Ok(events);
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return Ok(Vec::new());
            }
        }
    }

    async fn read_events(
        &self,
        slag: &str,
        job_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<StoredEvent>> {
        let key = job_key(slag, job_id)?;
        // A stream id only ever came from a Redis store's older event logs.
        let EventCursor::After(after) = EventCursor::parse(after)? else {
            return Err(StateError::InvalidKey {
                part: after.unwrap_or_default().chars().take(64).collect(),
                reason: "not an event id of this store",
            });
        };
        let inner = self.lock();
        let Some(events) = inner.events.get(&key) else {
            return Ok(Vec::new());
        };
        Ok(events
            .iter()
            .skip(usize::try_from(after).unwrap_or(usize::MAX))
            .take(limit.max(1))
            .cloned()
            .collect())
    }
}

#[async_trait]
impl ReadyQueue for MemoryStore {
    async fn enqueue(&self, item: &QueueItem) -> Result<String> {
        validate_slag_key(&item.slag)?;
        validate_slag_key(&item.job_id)?;
        let id = self.lock().push_queue(Lane::New, item.clone(), None);
        self.queue_signal.notify_waiters();
        Ok(id)
    }

    async fn claim(
        &self,
        consumer: &str,
        acks: &[Receipt],
        max: usize,
        block: Duration,
    ) -> Result<Vec<Delivery>> {
        validate_slag_key(consumer)?;
        self.ack(acks).await?;
        let deadline = Instant::now() + block;
        loop {
            // Register interest before checking, so an enqueue between the check and
            // the wait is not missed.
            let notified = self.queue_signal.notified();
            {
                let mut inner = self.lock();
                let now = Instant::now();
                let mut deliveries = Vec::new();
                // Resumed jobs first.
                while deliveries.len() < max.max(1) {
                    let (lane, next) = match inner.resumed.pop_front() {
                        Some(next) => (Lane::Resumed, next),
                        None => match inner.ready.pop_front() {
                            Some(next) => (Lane::New, next),
                            None => break,
                        },
                    };
                    let (id, item, record) = next;
                    inner.pending.insert(
                        id.clone(),
                        PendingItem {
                            item: item.clone(),
                            lane,
                            delivered_at: now,
                            consumer: consumer.to_owned(),
                        },
                    );
                    deliveries.push(Delivery {
                        id,
                        lane,
                        item,
                        record,
                    });
                }
                if !deliveries.is_empty() {
                    return Ok(deliveries);
                }
            }
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Ok(Vec::new());
            }
            let _ = tokio::time::timeout(remaining, notified).await;
        }
    }

    async fn ack(&self, receipts: &[Receipt]) -> Result<()> {
        if receipts.is_empty() {
            return Ok(());
        }
        let mut inner = self.lock();
        for receipt in receipts {
            inner.pending.remove(&receipt.id);
            let lane = match receipt.lane {
                Lane::New => &mut inner.ready,
                Lane::Resumed => &mut inner.resumed,
            };
            lane.retain(|(id, ..)| *id != receipt.id);
        }
        Ok(())
    }

    async fn reclaim(
        &self,
        consumer: &str,
        min_idle: Duration,
        max: usize,
    ) -> Result<Vec<Delivery>> {
        validate_slag_key(consumer)?;
        let mut inner = self.lock();
        let now = Instant::now();
        let mut idle: Vec<(String, Instant)> = inner
            .pending
            .iter()
            .filter(|(_, pending)| now.duration_since(pending.delivered_at) >= min_idle)
            .map(|(id, pending)| (id.clone(), pending.delivered_at))
            .collect();
        idle.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
        let mut deliveries = Vec::new();
        for (id, _) in idle.into_iter().take(max.max(1)) {
            if let Some(pending) = inner.pending.get_mut(&id) {
                pending.delivered_at = now;
                consumer.clone_into(&mut pending.consumer);
                deliveries.push(Delivery {
                    id,
                    lane: pending.lane,
                    item: pending.item.clone(),
                    record: None,
                });
            }
        }
        Ok(deliveries)
    }

    async fn renew(&self, consumer: &str, receipt: &Receipt) -> Result<bool> {
        validate_slag_key(consumer)?;
        let mut inner = self.lock();
        Ok(match inner.pending.get_mut(&receipt.id) {
            Some(pending) if pending.consumer == consumer => {
                pending.delivered_at = Instant::now();
                true
            }
            _ => false,
        })
    }

    async fn queue_stats(&self) -> Result<QueueStats> {
        let inner = self.lock();
        Ok(QueueStats {
            ready: (inner.ready.len() + inner.resumed.len()) as u64,
            pending: inner.pending.len() as u64,
        })
    }
}

#[async_trait]
impl WaitingIndex for MemoryStore {
    async fn list_waiting(&self, slag: &str, request: PageRequest) -> Result<Page<WaitingEntry>> {
        validate_slag_key(slag)?;
        let entries = self.sorted_waiting(slag);
        Ok(page(entries.into_iter(), request))
    }

    async fn waiting_before(
        &self,
        slag: &str,
        before_ms: u64,
        limit: usize,
    ) -> Result<Vec<WaitingEntry>> {
        validate_slag_key(slag)?;
        Ok(self
            .sorted_waiting(slag)
            .into_iter()
            .take_while(|entry| entry.since_ms < before_ms)
            .take(limit.max(1))
            .collect())
    }

    async fn count_waiting(&self, slag: &str) -> Result<u64> {
        validate_slag_key(slag)?;
        Ok(self
            .lock()
            .waiting
            .get(slag)
            .map_or(0, |index| index.len() as u64))
    }
}

impl MemoryStore {
    fn sorted_waiting(&self, slag: &str) -> Vec<WaitingEntry> {
        let inner = self.lock();
        let mut entries: Vec<WaitingEntry> = inner
            .waiting
            .get(slag)
            .map(|index| {
                index
                    .iter()
                    .map(|(job_id, since_ms)| WaitingEntry {
                        job_id: job_id.clone(),
                        since_ms: *since_ms,
                    })
                    .collect()
            })
            .unwrap_or_default();
        entries.sort_by(|a, b| {
            a.since_ms
                .cmp(&b.since_ms)
                .then_with(|| a.job_id.cmp(&b.job_id))
        });
        entries
    }
}
