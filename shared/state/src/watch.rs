//! WatchJob fan-out. Every watcher of a process registers the event stream it
//! waits on with a [`WatchHub`]; one reader per group (all of a single Redis,
//! or one cluster partition, whose keys share a slot) blocks in a single
//! `XREAD` over every registered stream and hands the entries it read to the
//! watchers of the streams that grew. A process holds one blocking Redis
//! connection per group however many clients watch, and an event costs one
//! read however many of them watch its job.
//!
//! A stream registered while the reader is blocked would wait for the block
//! to end, so the first watcher of a stream appends to the group's wake
//! stream, which that same `XREAD` also reads. A stream stays registered for
//! [`LINGER`] after its last watcher leaves: WatchJob waits again right after
//! each batch it sends, and that wait then needs neither a wake nor a read.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use redis::streams::StreamReadReply;
use tokio::sync::Notify;
use tokio::task::JoinHandle;

use crate::StoredEvent;
use crate::redis_store::{Backend, Conn, count_round_trip, stored_events};

/// How long one reader's `XREAD` blocks; registrations interrupt it through
/// the wake stream, so this only bounds how long a dead connection goes unseen.
const READ_BLOCK: Duration = Duration::from_secs(5);

/// Entries read per stream and round; a stream that grew more is read on in
/// the next round, from where this one stopped.
const READ_COUNT: usize = 64;

/// Entries and bytes kept per stream for its watchers (whichever bound comes
/// first); older ones are read from Redis.
const KEPT: usize = 4 * READ_COUNT;
const KEPT_BYTES: usize = 64 * 1024;

/// How long a stream stays registered after its last watcher left.
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

/// The streams one reader carries.
struct Group {
    wake_key: String,
    streams: Mutex<HashMap<String, Watched>>,
    /// Signalled on every registration, so an idle reader starts reading.
    registered: Notify,
}

struct Watched {
    /// The id the reader reads after: the last it saw, or the first watcher's.
    last_id: String,
    /// What the reader read, oldest first: every entry after `kept_after` up
    /// to `last_id`, none missing — or `None` while that cannot be promised
    /// (the reader failed), so watchers read for themselves.
    kept: Option<VecDeque<StoredEvent>>,
    kept_after: EventId,
    kept_bytes: usize,
    watchers: usize,
    /// When the last watcher left.
    idle_since: Option<Instant>,
    grew: Arc<Notify>,
}

/// A stream entry id, ordered as Redis orders them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct EventId(u64, u64);

impl EventId {
    /// `None` for what is not an entry id (callers validate ids first).
    fn parse(id: &str) -> Option<Self> {
        let (ms, seq) = id.split_once('-')?;
        Some(Self(ms.parse().ok()?, seq.parse().ok()?))
    }
}

/// A watcher's registration; dropping it unregisters.
pub(crate) struct Watch {
    group: Arc<Group>,
    key: String,
    /// Notified when the stream grows (or the reader lost its connection, so
    /// the watcher reads for itself).
    pub(crate) grew: Arc<Notify>,
    /// Whether the reader does not carry the stream yet: it must be woken.
    pub(crate) first: bool,
}

impl Watch {
    /// Up to `limit` events after `after` from what the reader already read:
    /// `Some` (perhaps empty: nothing new yet) when it read everything after
    /// `after`, `None` when the watcher must read Redis itself.
    pub(crate) fn kept_after(&self, after: Option<&str>, limit: usize) -> Option<Vec<StoredEvent>> {
        let after = EventId::parse(after.unwrap_or("0-0"))?;
        let streams = lock(&self.group.streams);
        let watched = streams.get(&self.key)?;
        let kept = watched.kept.as_ref()?;
        if after < watched.kept_after {
            return None;
        }
        Some(
            kept.iter()
                .filter(|event| EventId::parse(&event.id).is_some_and(|id| id > after))
                .take(limit.max(1))
                .cloned()
                .collect(),
        )
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut streams = lock(&self.group.streams);
        if let Some(watched) = streams.get_mut(&self.key) {
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

    /// Registers a watcher of stream `key` in `group` (whose wake stream is
    /// `wake_key`), interested in entries after `after` (a validated id).
    pub(crate) fn watch(&self, group: u16, wake_key: &str, key: &str, after: &str) -> Watch {
        let group = {
            let mut groups = lock(&self.groups);
            groups
                .entry(group)
                .or_insert_with(|| {
                    let group = Arc::new(Group {
                        wake_key: wake_key.to_owned(),
                        streams: Mutex::new(HashMap::new()),
                        registered: Notify::new(),
                    });
                    let reader = tokio::spawn(read_loop(group.clone(), self.backend.clone()));
                    lock(&self.readers).push(reader);
                    group
                })
                .clone()
        };
        let (grew, first) = {
            let mut streams = lock(&group.streams);
            let mut first = false;
            let watched = streams.entry(key.to_owned()).or_insert_with(|| {
                first = true;
                Watched {
                    last_id: after.to_owned(),
                    kept: Some(VecDeque::new()),
                    kept_after: EventId::parse(after).unwrap_or(EventId(0, 0)),
                    kept_bytes: 0,
                    watchers: 0,
                    idle_since: None,
                    grew: Arc::new(Notify::new()),
                }
            });
            watched.watchers += 1;
            watched.idle_since = None;
            (watched.grew.clone(), first)
        };
        if first {
            group.registered.notify_one();
        }
        Watch {
            group,
            key: key.to_owned(),
            grew,
            first,
        }
    }

    /// Streams with a watcher now (lingering ones are not counted).
    pub(crate) fn streams(&self) -> usize {
        lock(&self.groups)
            .values()
            .map(|group| {
                lock(&group.streams)
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

/// One group's reader: blocks on every registered stream at once and hands
/// what it read to the watchers of those that grew. Runs until the hub is
/// dropped.
async fn read_loop(group: Arc<Group>, backend: Backend) {
    let mut connection: Option<Conn> = None;
    // `0-0`: the wake stream's current entry comes back at once, then only
    // newer ones.
    let mut wake_id = "0-0".to_owned();
    let mut retry = RETRY_FIRST;
    loop {
        let watched: Vec<(String, String)> = {
            let mut streams = lock(&group.streams);
            streams.retain(|_, watched| {
                watched
                    .idle_since
                    .is_none_or(|since| since.elapsed() < LINGER)
            });
            streams
                .iter()
                .map(|(key, watched)| (key.clone(), watched.last_id.clone()))
                .collect()
        };
        if watched.is_empty() {
            group.registered.notified().await;
            continue;
        }
        let mut conn = match connection.take() {
            Some(conn) => conn,
            None => match backend.dedicated_connection().await {
                Ok(conn) => conn,
                Err(error) => {
                    tracing::warn!(%error, "watch reader cannot connect; retrying");
                    fail_all(&group);
                    tokio::time::sleep(retry).await;
                    retry = (retry * 2).min(RETRY_MAX);
                    continue;
                }
            },
        };
        let mut command = redis::cmd("XREAD");
        command
            .arg("COUNT")
            .arg(READ_COUNT)
            .arg("BLOCK")
            .arg(READ_BLOCK.as_millis() as u64)
            .arg("STREAMS")
            .arg(&group.wake_key);
        for (key, _) in &watched {
            command.arg(key);
        }
        command.arg(&wake_id);
        for (_, id) in &watched {
            command.arg(id);
        }
        count_round_trip();
        let reply: redis::RedisResult<Option<StreamReadReply>> =
            command.query_async(&mut conn).await;
        match reply {
            Ok(reply) => {
                connection = Some(conn);
                retry = RETRY_FIRST;
                for stream in reply.map(|reply| reply.keys).unwrap_or_default() {
                    let Some(last) = stream.ids.last() else {
                        continue;
                    };
                    if stream.key == group.wake_key {
                        wake_id.clone_from(&last.id);
                        continue;
                    }
                    let last_id = last.id.clone();
                    let mut streams = lock(&group.streams);
                    if let Some(watched) = streams.get_mut(&stream.key) {
                        watched.keep(last_id, stored_events(stream.ids).ok());
                        watched.grew.notify_waiters();
                    }
                }
            }
            Err(error) => {
                tracing::warn!(%error, "watch reader lost its read; reconnecting");
                fail_all(&group);
                tokio::time::sleep(retry).await;
                retry = (retry * 2).min(RETRY_MAX);
            }
        }
    }
}

impl Watched {
    /// Takes the entries the reader read up to `last_id` (`None`: unreadable).
    /// A read issued before the stream was registered anew may return what
    /// the cursor has passed: the cursor never moves back, nothing is kept twice.
    fn keep(&mut self, last_id: String, events: Option<Vec<StoredEvent>>) {
        let cursor = EventId::parse(&self.last_id);
        let last = EventId::parse(&last_id);
        if last.is_some() && cursor.is_some() && last <= cursor {
            return;
        }
        let events = events.map(|events| {
            events
                .into_iter()
                .filter(|event| EventId::parse(&event.id) > cursor)
                .collect::<Vec<_>>()
        });
        self.last_id = last_id;
        match (self.kept.as_mut(), events, last) {
            (Some(kept), Some(events), Some(_)) => {
                self.kept_bytes += events.iter().map(|event| event.data.len()).sum::<usize>();
                kept.extend(events);
                while kept.len() > KEPT || self.kept_bytes > KEPT_BYTES {
                    let Some(dropped) = kept.pop_front() else {
                        break;
                    };
                    self.kept_bytes -= dropped.data.len();
                    self.kept_after = EventId::parse(&dropped.id).unwrap_or(self.kept_after);
                }
            }
            // Complete again from here on.
            (_, _, Some(last)) => {
                self.kept = Some(VecDeque::new());
                self.kept_after = last;
                self.kept_bytes = 0;
            }
            (_, _, None) => self.kept = None,
        }
    }
}

/// The reader cannot read: every watcher of `group` reads (and sees the
/// outage) itself until the reader reads again.
fn fail_all(group: &Group) {
    for watched in lock(&group.streams).values_mut() {
        watched.kept = None;
        watched.kept_bytes = 0;
        watched.grew.notify_waiters();
    }
}
