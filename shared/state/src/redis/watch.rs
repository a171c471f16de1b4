//! WatchJob fan-out. A job's events live in its log (a list); every script
//! that appends one also appends it to the partition's feed, a capped stream.
//! One reader per group (all partitions of a single Redis, or one cluster
//! partition, whose keys share a slot) blocks in a single `XREAD` over the
//! group's feeds — a fixed set of keys, however many jobs are watched — and
//! hands the entries of watched jobs to their watchers. A process holds one
//! blocking Redis connection per group however many clients watch, and an
//! event costs one read however many of them watch its job.
//!
//! The reader sees only what is appended after it started reading, so a
//! watcher reads the job's log itself once, after registering: from then on
//! every newer event reaches it through the reader ([`Watch::synced`] records
//! that the two meet). A watched job stays registered for [`LINGER`] after its
//! last watcher leaves: WatchJob waits again right after each batch it sends,
//! and that wait then needs no read of its own.
//!
//! Whatever could leave a hole — the reader starting, failing, or falling
//! further behind than the feed keeps (its entries carry consecutive counts)
//! — starts a new epoch: every watcher reads its log itself again.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use redis::Value;
use tokio::sync::Notify;
use tokio::task::JoinHandle;

use super::conn::{Backend, Conn, count_round_trip};
use crate::StoredEvent;

/// How long one reader's `XREAD` blocks; it only bounds how long a dead
/// connection goes unseen (registrations need no wake: the feeds are fixed).
const READ_BLOCK: Duration = Duration::from_secs(5);

/// Entries read per feed and round; a feed that grew more is read on in the
/// next round, from where this one stopped.
const READ_COUNT: usize = 512;

/// Entries and bytes kept per job for its watchers (whichever bound comes
/// first); older ones are read from Redis.
const KEPT: usize = 256;
const KEPT_BYTES: usize = 64 * 1024;

/// How long a job stays registered after its last watcher left.
const LINGER: Duration = Duration::from_secs(1);

/// Bounds of the pause after a failed read, doubled on each failure in a row.
const RETRY_FIRST: Duration = Duration::from_millis(50);
const RETRY_MAX: Duration = Duration::from_secs(2);

/// The watchers of one process, by group.
pub(crate) struct WatchHub {
    backend: Backend,
    groups: Mutex<HashMap<u16, Arc<Group>>>,
    readers: Mutex<Vec<JoinHandle<()>>>,
}

/// The jobs one reader carries.
struct Group {
    feeds: Vec<String>,
    state: Mutex<GroupState>,
    /// Signalled on every registration, so an idle reader starts reading.
    registered: Notify,
}

struct GroupState {
    /// By `<slag>:<job_id>`, as the feeds name jobs.
    jobs: HashMap<String, Watched>,
    phase: Phase,
    /// The last epoch [`Phase::Reading`] was in.
    epoch: u64,
}

/// What the reader can promise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Finding where the feeds end: watchers wait, it wakes them when done.
    Positioning,
    /// Reading every entry since it positioned, in this epoch.
    Reading(u64),
    /// It cannot read: watchers read (and see the outage) themselves.
    Failing,
}

struct Watched {
    /// Events of the job the reader read (ids are log positions), a run
    /// without holes, oldest first.
    kept: VecDeque<(u64, StoredEvent)>,
    kept_bytes: usize,
    /// `Some(n)`: no event after `n` is missing from `kept` — every event of
    /// the job after `n`, up to where the reader has read, is in it.
    complete_from: Option<u64>,
    watchers: usize,
    /// When the last watcher left.
    idle_since: Option<Instant>,
    grew: Arc<Notify>,
}

/// Where a wait takes its events from ([`Watch::source`]).
pub(crate) enum Source {
    /// From what the reader read (perhaps nothing new yet).
    Kept(Vec<StoredEvent>),
    /// From the job's log: a read of its own, which with `Some(ticket)` may
    /// be reported to [`Watch::synced`].
    Read(Option<Ticket>),
    /// Nothing yet: the reader is positioning and wakes the watcher after.
    Wait,
}

/// The epoch a watcher's own read started in.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ticket(u64);

/// A watcher's registration; dropping it unregisters.
pub(crate) struct Watch {
    group: Arc<Group>,
    job: String,
    /// Notified when the job has news (or the reader changed what it can
    /// promise, so the watcher looks again).
    pub(crate) grew: Arc<Notify>,
}

impl Watch {
    /// Where a wait for up to `limit` events after `after` (a log position;
    /// `None`: a legacy stream id) takes them from.
    pub(crate) fn source(&self, after: Option<u64>, limit: usize) -> Source {
        let state = lock(&self.group.state);
        let epoch = match state.phase {
            Phase::Positioning => return Source::Wait,
            Phase::Failing => return Source::Read(None),
            Phase::Reading(epoch) => epoch,
        };
        let Some(after) = after else {
            return Source::Read(None);
        };
        match state.jobs.get(&self.job) {
            Some(watched) if watched.complete_from.is_some_and(|from| after >= from) => {
                Source::Kept(
                    watched
                        .kept
                        .iter()
                        .filter(|(id, _)| *id > after)
                        .take(limit.max(1))
                        .map(|(_, event)| event.clone())
                        .collect(),
                )
            }
            _ => Source::Read(Some(Ticket(epoch))),
        }
    }

    /// Records a read of the job's log, started with `ticket`, that returned
    /// every event after `after` there was (`events`, to the end of the log):
    /// with what the reader read since, nothing after `after` is missing.
    pub(crate) fn synced(&self, ticket: Ticket, after: u64, events: &[StoredEvent]) {
        let mut state = lock(&self.group.state);
        if state.phase != Phase::Reading(ticket.0) {
            return;
        }
        let Some(watched) = state.jobs.get_mut(&self.job) else {
            return;
        };
        if watched.complete_from.is_some_and(|from| from <= after) {
            return;
        }
        let mut read = Vec::with_capacity(events.len());
        for event in events {
            match event.id.parse::<u64>() {
                Ok(id) => read.push((id, event.clone())),
                // A legacy entry: not a position in the log.
                Err(_) => return,
            }
        }
        let last_read = read.last().map_or(after, |(id, _)| *id);
        // Registered before the read: what the log got after it, the reader
        // read. A hole between the two is only possible if the reader dropped
        // entries (bounds), and then nothing is promised.
        if watched
            .kept
            .front()
            .is_some_and(|(first, _)| *first > last_read + 1)
        {
            return;
        }
        let first_kept = watched.kept.front().map_or(u64::MAX, |(first, _)| *first);
        for (id, event) in read.into_iter().rev() {
            if id < first_kept {
                watched.kept_bytes += event.data.len();
                watched.kept.push_front((id, event));
            }
        }
        watched.complete_from = Some(after);
        watched.bound();
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut state = lock(&self.group.state);
        if let Some(watched) = state.jobs.get_mut(&self.job) {
            watched.watchers -= 1;
            if watched.watchers == 0 {
                watched.idle_since = Some(Instant::now());
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl WatchHub {
    pub(crate) fn new(backend: Backend) -> Self {
        Self {
            backend,
            groups: Mutex::new(HashMap::new()),
            readers: Mutex::new(Vec::new()),
        }
    }

    /// Registers a watcher of `job` (`<slag>:<job_id>`) in `group`, whose
    /// reader blocks on `feeds()`.
    pub(crate) fn watch(
        &self,
        group: u16,
        feeds: impl FnOnce() -> Vec<String>,
        job: String,
    ) -> Watch {
        let group = {
            let mut groups = lock(&self.groups);
            groups
                .entry(group)
                .or_insert_with(|| {
                    let group = Arc::new(Group {
                        feeds: feeds(),
                        state: Mutex::new(GroupState {
                            jobs: HashMap::new(),
                            phase: Phase::Positioning,
                            epoch: 0,
                        }),
                        registered: Notify::new(),
                    });
                    let reader = tokio::spawn(read_loop(group.clone(), self.backend.clone()));
                    lock(&self.readers).push(reader);
                    group
                })
                .clone()
        };
        let grew = {
            let mut state = lock(&group.state);
            let watched = state.jobs.entry(job.clone()).or_insert_with(|| Watched {
                kept: VecDeque::new(),
                kept_bytes: 0,
                complete_from: None,
                watchers: 0,
                idle_since: None,
                grew: Arc::new(Notify::new()),
            });
            watched.watchers += 1;
            watched.idle_since = None;
            watched.grew.clone()
        };
        group.registered.notify_one();
        Watch { group, job, grew }
    }

    /// Jobs with a watcher now (lingering ones are not counted).
    pub(crate) fn jobs(&self) -> usize {
        lock(&self.groups)
            .values()
            .map(|group| {
                lock(&group.state)
                    .jobs
                    .values()
                    .filter(|watched| watched.watchers > 0)
                    .count()
            })
            .sum()
    }
}

impl Drop for WatchHub {
    fn drop(&mut self) {
        for reader in lock(&self.readers).drain(..) {
            reader.abort();
        }
    }
}

/// Where the reader is in one feed.
struct Cursor {
    /// The last entry id read.
    last_id: String,
    /// The count of that entry (`None`: the feed was empty).
    count: Option<u64>,
}

/// One group's reader: blocks on the group's feeds and hands what it read to
/// the watchers of the jobs that grew. Runs until the hub is dropped.
async fn read_loop(group: Arc<Group>, backend: Backend) {
    let mut connection: Option<Conn> = None;
    // `None`: not positioned.
    let mut cursors: Option<Vec<Cursor>> = None;
    let mut retry = RETRY_FIRST;
    let mut swept = Instant::now();
    loop {
        let idle = {
            let mut state = lock(&group.state);
            // Forgetting jobs nobody watches reads the clock per job: a few
            // times a linger, not on every read (one per batch of events).
            if swept.elapsed() >= LINGER / 4 {
                swept = Instant::now();
                state.jobs.retain(|_, watched| {
                    watched
                        .idle_since
                        .is_none_or(|since| since.elapsed() < LINGER)
                });
            }
            if state.jobs.is_empty() {
                // Not reading while idle: find the feeds' ends again after.
                state.phase = Phase::Positioning;
                cursors = None;
            }
            state.jobs.is_empty()
        };
        if idle {
            group.registered.notified().await;
            continue;
        }
        match read_once(&group, &backend, connection.take(), &mut cursors).await {
            Ok(conn) => {
                connection = Some(conn);
                retry = RETRY_FIRST;
            }
            Err(error) => {
                tracing::warn!(%error, "watch reader cannot read; reconnecting");
                cursors = None;
                fail_all(&group);
                tokio::time::sleep(retry).await;
                retry = (retry * 2).min(RETRY_MAX);
            }
        }
    }
}

/// One round of the reader on `connection` (a new one when `None`): finds
/// where the feeds end when `cursors` is `None`, else reads them on. Returns
/// the connection, to be used again.
async fn read_once(
    group: &Group,
    backend: &Backend,
    connection: Option<Conn>,
    cursors: &mut Option<Vec<Cursor>>,
) -> crate::Result<Conn> {
    let mut conn = match connection {
        Some(conn) => conn,
        None => backend.dedicated_connection().await?,
    };
    match cursors {
        None => {
            *cursors = Some(position(&group.feeds, &mut conn).await?);
            start_epoch(group);
        }
        Some(found) => {
            if read_feeds(group, &mut conn, found).await? {
                tracing::warn!("watch reader fell behind its feeds; watchers read again");
                start_epoch(group);
            }
        }
    }
    Ok(conn)
}

/// The last entry of each feed, in one round trip.
async fn position(feeds: &[String], conn: &mut Conn) -> redis::RedisResult<Vec<Cursor>> {
    let mut pipe = redis::pipe();
    for feed in feeds {
        pipe.cmd("XREVRANGE")
            .arg(feed)
            .arg("+")
            .arg("-")
            .arg("COUNT")
            .arg(1);
    }
    count_round_trip();
    let replies: Vec<Value> = pipe.query_async(conn).await?;
    Ok(replies
        .into_iter()
        .map(|reply| {
            let last = entries(reply).pop();
            Cursor {
                last_id: last
                    .as_ref()
                    .map_or_else(|| "0-0".to_owned(), |e| e.id.clone()),
                count: last.and_then(|entry| entry.count),
            }
        })
        .collect())
}

/// Reads the feeds on from `cursors` (blocking while nothing is new) and hands
/// the entries of watched jobs to them. True when entries went missing (the
/// counts skip): what was kept cannot be trusted.
async fn read_feeds(
    group: &Group,
    conn: &mut Conn,
    cursors: &mut [Cursor],
) -> redis::RedisResult<bool> {
    let mut command = redis::cmd("XREAD");
    command
        .arg("COUNT")
        .arg(READ_COUNT)
        .arg("BLOCK")
        .arg(READ_BLOCK.as_millis() as u64)
        .arg("STREAMS")
        .arg(&group.feeds);
    for cursor in cursors.iter() {
        command.arg(&cursor.last_id);
    }
    count_round_trip();
    let reply: Value = command.query_async(conn).await?;
    let mut gap = false;
    let mut state = lock(&group.state);
    for (key, feed_entries) in streams(reply) {
        let Some(index) = group.feeds.iter().position(|feed| *feed == key) else {
            continue;
        };
        let cursor = &mut cursors[index];
        for entry in feed_entries {
            if let (Some(previous), Some(count)) = (cursor.count, entry.count)
                && count != previous + 1
            {
                gap = true;
            }
            cursor.count = entry.count.or(cursor.count);
            cursor.last_id = entry.id;
            let (Some(job), Some(id), Some(data)) = (entry.job, entry.event_id, entry.data) else {
                continue;
            };
            if let Some(watched) = state.jobs.get_mut(&job) {
                watched.keep(id, data);
                watched.grew.notify_waiters();
            }
        }
    }
    Ok(gap)
}

impl Watched {
    /// Takes event `id` the reader read. A hole before it (entries the reader
    /// did not keep) breaks the promise of completeness until a watcher reads.
    fn keep(&mut self, id: u64, data: Vec<u8>) {
        let follows = match (self.kept.back(), self.complete_from) {
            (Some((last, _)), _) if id <= *last => return,
            (Some((last, _)), _) => id == last + 1,
            (None, Some(from)) if id <= from => return,
            (None, Some(from)) => id == from + 1,
            (None, None) => true,
        };
        if !follows {
            self.kept.clear();
            self.kept_bytes = 0;
            self.complete_from = None;
        }
        self.kept_bytes += data.len();
        self.kept.push_back((
            id,
            StoredEvent {
                id: id.to_string(),
                data,
            },
        ));
        self.bound();
    }

    /// Drops the oldest kept events past the bounds; completeness moves with them.
    fn bound(&mut self) {
        while self.kept.len() > KEPT || self.kept_bytes > KEPT_BYTES {
            let Some((dropped, event)) = self.kept.pop_front() else {
                break;
            };
            self.kept_bytes -= event.data.len();
            if self.complete_from.is_some() {
                self.complete_from = Some(dropped);
            }
        }
    }

    fn forget(&mut self) {
        self.kept.clear();
        self.kept_bytes = 0;
        self.complete_from = None;
    }
}

/// The reader reads every entry from here on: whatever was kept before may
/// have holes, so every watcher reads its log once more.
fn start_epoch(group: &Group) {
    let mut state = lock(&group.state);
    state.epoch += 1;
    state.phase = Phase::Reading(state.epoch);
    for watched in state.jobs.values_mut() {
        watched.forget();
        watched.grew.notify_waiters();
    }
}

/// The reader cannot read: every watcher of `group` reads (and sees the
/// outage) itself until the reader reads again.
fn fail_all(group: &Group) {
    let mut state = lock(&group.state);
    state.phase = Phase::Failing;
    for watched in state.jobs.values_mut() {
        watched.forget();
        watched.grew.notify_waiters();
    }
}

/// A feed entry, as far as it parsed. Read from the raw reply, not through
/// redis-rs' `StreamReadReply`, which builds a map per entry: the reader
/// parses every entry of its feeds, watched or not.
struct FeedEntry {
    id: String,
    job: Option<String>,
    event_id: Option<u64>,
    count: Option<u64>,
    data: Option<Vec<u8>>,
}

/// The `(key, entries)` of an `XREAD` reply (nil: nothing new).
fn streams(reply: Value) -> Vec<(String, Vec<FeedEntry>)> {
    let pairs: Vec<Value> = match reply {
        // RESP3 answers a map.
        Value::Map(pairs) => pairs
            .into_iter()
            .flat_map(|(key, entries)| [key, entries])
            .collect(),
        Value::Array(streams) => streams
            .into_iter()
            .flat_map(|stream| match stream {
                Value::Array(pair) => pair,
                _ => Vec::new(),
            })
            .collect(),
        _ => Vec::new(),
    };
    let mut pairs = pairs.into_iter();
    let mut streams = Vec::new();
    while let (Some(key), Some(entries_value)) = (pairs.next(), pairs.next()) {
        if let Some(key) = text(key) {
            streams.push((key, entries(entries_value)));
        }
    }
    streams
}

/// The entries of an `XRANGE`-shaped reply: `[[id, [field, value, …]], …]`.
fn entries(reply: Value) -> Vec<FeedEntry> {
    let Value::Array(items) = reply else {
        return Vec::new();
    };
    items
        .into_iter()
        .filter_map(|item| {
            let Value::Array(item) = item else {
                return None;
            };
            let mut item = item.into_iter();
            let id = text(item.next()?)?;
            let Some(Value::Array(fields)) = item.next() else {
                return None;
            };
            let mut entry = FeedEntry {
                id,
                job: None,
                event_id: None,
                count: None,
                data: None,
            };
            let mut fields = fields.into_iter();
            while let (Some(field), Some(value)) = (fields.next(), fields.next()) {
                match bytes(field).as_deref() {
                    Some(b"j") => entry.job = text(value),
                    Some(b"n") => entry.event_id = text(value).and_then(|n| n.parse().ok()),
                    Some(b"c") => entry.count = text(value).and_then(|n| n.parse().ok()),
                    Some(b"d") => entry.data = bytes(value),
                    _ => {}
                }
            }
            Some(entry)
        })
        .collect()
}

fn bytes(value: Value) -> Option<Vec<u8>> {
    match value {
        Value::BulkString(bytes) => Some(bytes),
        Value::SimpleString(text) => Some(text.into_bytes()),
        _ => None,
    }
}

fn text(value: Value) -> Option<String> {
    bytes(value).and_then(|bytes| String::from_utf8(bytes).ok())
}
