//! WatchJob fan-out. Every watcher of a process registers the event stream it
//! waits on with a [`WatchHub`]; one reader per group (all of a single Redis,
//! or one cluster partition, whose keys share a slot) blocks in a single
//! `XREAD` over every registered stream and wakes the watchers of the streams
//! that grew. Watchers then read their events themselves on the shared
//! connection, so a process holds one blocking Redis connection per group,
//! however many clients watch.
//!
//! A stream registered while the reader is blocked would wait for the block
//! to end, so the first watcher of a stream appends to the group's wake
//! stream, which that same `XREAD` also reads.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use redis::streams::StreamReadReply;
use tokio::sync::Notify;
use tokio::task::JoinHandle;

use crate::redis_store::{Backend, Conn, count_round_trip};

/// How long one reader's `XREAD` blocks; registrations interrupt it through
/// the wake stream, so this only bounds how long a dead connection goes unseen.
const READ_BLOCK: Duration = Duration::from_secs(5);

/// Entries read per stream and round; the reader only needs to know a stream
/// grew, the watchers read the entries.
const READ_COUNT: usize = 64;

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
    watchers: usize,
    grew: Arc<Notify>,
}

/// A watcher's registration; dropping it unregisters.
pub(crate) struct Watch {
    group: Arc<Group>,
    key: String,
    /// Notified when the stream grows (or the reader lost its connection, so
    /// the watcher reads for itself).
    pub(crate) grew: Arc<Notify>,
    /// Whether this is the stream's first watcher: it must wake the reader.
    pub(crate) first: bool,
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut streams = lock(&self.group.streams);
        if let Some(watched) = streams.get_mut(&self.key) {
            watched.watchers -= 1;
            if watched.watchers == 0 {
                streams.remove(&self.key);
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
    /// `wake_key`), interested in entries after `after`.
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
            let watched = streams.entry(key.to_owned()).or_insert_with(|| Watched {
                last_id: after.to_owned(),
                watchers: 0,
                grew: Arc::new(Notify::new()),
            });
            watched.watchers += 1;
            (watched.grew.clone(), watched.watchers == 1)
        };
        group.registered.notify_one();
        Watch {
            group,
            key: key.to_owned(),
            grew,
            first,
        }
    }
}

impl WatchHub {
    /// Streams the readers carry now (each however many watchers it has).
    pub(crate) fn streams(&self) -> usize {
        lock(&self.groups)
            .values()
            .map(|group| lock(&group.streams).len())
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

/// One group's reader: blocks on every registered stream at once and wakes the
/// watchers of those that grew. Runs until the hub is dropped.
async fn read_loop(group: Arc<Group>, backend: Backend) {
    let mut connection: Option<Conn> = None;
    // `0-0`: the wake stream's current entry comes back at once, then only
    // newer ones.
    let mut wake_id = "0-0".to_owned();
    let mut retry = RETRY_FIRST;
    loop {
        let watched: Vec<(String, String)> = lock(&group.streams)
            .iter()
            .map(|(key, watched)| (key.clone(), watched.last_id.clone()))
            .collect();
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
                    wake_all(&group);
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
                    } else if let Some(watched) = lock(&group.streams).get_mut(&stream.key) {
                        watched.last_id.clone_from(&last.id);
                        watched.grew.notify_waiters();
                    }
                }
            }
            Err(error) => {
                tracing::warn!(%error, "watch reader lost its read; reconnecting");
                wake_all(&group);
                tokio::time::sleep(retry).await;
                retry = (retry * 2).min(RETRY_MAX);
            }
        }
    }
}

/// Wakes every watcher of `group`, so each reads (and sees an outage) itself.
fn wake_all(group: &Group) {
    for watched in lock(&group.streams).values() {
        watched.grew.notify_waiters();
    }
}
