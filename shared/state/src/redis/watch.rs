//! WatchJob fan-out. A job's events live in its log (a list); every script
//! that appends events also publishes them on its partition's feed channel
//! (`PUBLISH`, one message a write, with the partition's running count). One reader per process
//! subscribes to every partition's channel — a fixed set, however many jobs
//! are watched — and hands the events of watched jobs to their watchers. A
//! process holds one subscribed Redis connection however many clients
//! watch; an event costs no round trip at all, however many of them watch
//! its job (Redis pushes it), where a blocking read cost one per batch.
//!
//! The reader sees only what is published after it subscribed, so a watcher
//! reads the job's log itself once, after registering: from then on every
//! newer event reaches it through the reader ([`Watch::synced`] records that
//! the two meet). A watched job stays registered for [`LINGER`] after its
//! last watcher leaves: WatchJob waits again right after each batch it
//! sends, and that wait then needs no read of its own.
//!
//! Pub/sub drops nothing on a live connection, and Redis closes a
//! subscriber that falls further behind than its output buffer allows.
//! Whatever could leave a hole — the reader subscribing, its connection
//! closing, a count that skips — starts a new epoch: every watcher reads its
//! log itself again.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use futures_util::StreamExt as _;
use redis::Client;
use tokio::sync::Notify;
use tokio::task::JoinHandle;

use super::conn::count_round_trip;
use crate::StoredEvent;

/// Entries and bytes kept per job for its watchers (whichever bound comes
/// first); older ones are read from Redis.
const KEPT: usize = 256;
const KEPT_BYTES: usize = 64 * 1024;

/// How long a job stays registered after its last watcher left.
const LINGER: Duration = Duration::from_secs(1);

/// Bounds of the pause after a failed read, doubled on each failure in a row.
const RETRY_FIRST: Duration = Duration::from_millis(50);
const RETRY_MAX: Duration = Duration::from_secs(2);

/// The watchers of one process.
pub(crate) struct WatchHub {
    /// The nodes the reader may subscribe on, tried in turn (a cluster
    /// delivers what any node publishes to every node's subscribers).
    nodes: Arc<[Client]>,
    /// The watched jobs and their reader, from the first watch on.
    reader: Mutex<Option<(Arc<Group>, JoinHandle<()>)>>,
}

/// The jobs the reader carries.
struct Group {
    /// The channels it subscribes to.
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
    /// Subscribing: watchers wait, it wakes them when done.
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
    pub(crate) fn new(nodes: Vec<Client>) -> Self {
        Self {
            nodes: nodes.into(),
            reader: Mutex::new(None),
        }
    }

    /// Registers a watcher of `job` (`<slag>:<job_id>`); the first starts
    /// the reader, which subscribes to `feeds()`.
    pub(crate) fn watch(&self, feeds: impl FnOnce() -> Vec<String>, job: String) -> Watch {
        let group = {
            let mut reader = lock(&self.reader);
            let (group, _) = reader.get_or_insert_with(|| {
                let group = Arc::new(Group {
                    feeds: feeds(),
                    state: Mutex::new(GroupState {
                        jobs: HashMap::new(),
                        phase: Phase::Positioning,
                        epoch: 0,
                    }),
                    registered: Notify::new(),
                });
                let reading = tokio::spawn(read_loop(group.clone(), self.nodes.clone()));
                (group, reading)
            });
            group.clone()
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
        lock(&self.reader).as_ref().map_or(0, |(group, _)| {
            lock(&group.state)
                .jobs
                .values()
                .filter(|watched| watched.watchers > 0)
                .count()
        })
    }
}

impl Drop for WatchHub {
    fn drop(&mut self) {
        if let Some((_, reading)) = lock(&self.reader).take() {
            reading.abort();
        }
    }
}

/// The reader: subscribes to the feeds while any job is watched and hands
/// what is published to the watchers of the jobs that grew. Runs until the
/// hub is dropped.
async fn read_loop(group: Arc<Group>, nodes: Arc<[Client]>) {
    let mut retry = RETRY_FIRST;
    let mut node = 0;
    loop {
        if sweep(&group) {
            group.registered.notified().await;
            continue;
        }
        let Some(client) = nodes.get(node % nodes.len().max(1)) else {
            fail_all(&group);
            return;
        };
        match listen(&group, client).await {
            // Nobody watches any more: unsubscribed.
            Ok(()) => retry = RETRY_FIRST,
            Err(error) => {
                tracing::warn!(%error, "watch reader cannot listen; subscribing again");
                fail_all(&group);
                node += 1;
                tokio::time::sleep(retry).await;
                retry = (retry * 2).min(RETRY_MAX);
            }
        }
    }
}

/// Forgets the jobs nobody has watched for a linger; true (and the group
/// back to subscribing) when no job is left.
fn sweep(group: &Group) -> bool {
    let mut state = lock(&group.state);
    state.jobs.retain(|_, watched| {
        watched
            .idle_since
            .is_none_or(|since| since.elapsed() < LINGER)
    });
    if state.jobs.is_empty() {
        state.phase = Phase::Positioning;
    }
    state.jobs.is_empty()
}

/// Subscribes on `client` and hands each published event to its watchers,
/// until no job is watched (`Ok`) or the connection fails.
async fn listen(group: &Group, client: &Client) -> redis::RedisResult<()> {
    let mut pubsub = client.get_async_pubsub().await?;
    count_round_trip();
    pubsub.subscribe(&group.feeds).await?;
    // Subscribed: every event published from now on comes here.
    start_epoch(group);
    let mut counts: Vec<Option<u64>> = vec![None; group.feeds.len()];
    let mut messages = pubsub.on_message();
    // Forgetting jobs nobody watches reads the clock per job: a few times a
    // linger, not on every event.
    let mut sweeps = tokio::time::interval(LINGER / 4);
    sweeps.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            message = messages.next() => {
                let Some(message) = message else {
                    return Err(redis::RedisError::from((
                        redis::ErrorKind::Io,
                        "the subscription's connection closed",
                    )));
                };
                if take(group, &mut counts, message.get_channel_name(), message.get_payload_bytes()) {
                    tracing::warn!("watch reader missed events; watchers read again");
                    start_epoch(group);
                }
            }
            _ = sweeps.tick() => {
                if sweep(group) {
                    return Ok(());
                }
            }
        }
    }
}

/// Hands one published event to the watchers of its job. True when the
/// channel's count skipped (an event was published that never came here):
/// what was kept cannot be trusted.
fn take(group: &Group, counts: &mut [Option<u64>], channel: &str, payload: &[u8]) -> bool {
    let Some(index) = group.feeds.iter().position(|feed| feed == channel) else {
        return false;
    };
    let Some(entry) = FeedEntry::parse(payload) else {
        tracing::warn!(
            channel,
            "a feed message that is not a write's events; ignored"
        );
        return false;
    };
    let gap = counts[index].is_some_and(|previous| entry.count > previous + 1);
    counts[index] = Some(counts[index].map_or(entry.count, |previous| previous.max(entry.count)));
    let mut state = lock(&group.state);
    if let Some(watched) = state.jobs.get_mut(entry.job) {
        for (id, data) in (entry.first..).zip(entry.events) {
            watched.keep(id, data.to_vec());
        }
        watched.grew.notify_waiters();
    }
    gap
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

/// A feed message, as the job scripts publish it: `<count> <id> <job>`, a
/// newline, then the event's bytes.
struct FeedEntry<'a> {
    /// The channel's running count (one a write).
    count: u64,
    /// The first event's position in its job's log.
    first: u64,
    /// `<slag>:<job_id>`.
    job: &'a str,
    /// The write's events, in order.
    events: Vec<&'a [u8]>,
}

impl<'a> FeedEntry<'a> {
    /// `<count> <first id> <slag>:<job_id> <length>,<length>…`, a newline,
    /// the events end to end; without the lengths, one event (as versions
    /// before this one publish).
    fn parse(payload: &'a [u8]) -> Option<Self> {
        let newline = payload.iter().position(|&byte| byte == b'\n')?;
        let header = std::str::from_utf8(&payload[..newline]).ok()?;
        let mut rest = &payload[newline + 1..];
        let mut words = header.split(' ');
        let count = words.next()?.parse().ok()?;
        let first = words.next()?.parse().ok()?;
        let job = words.next().filter(|job| !job.is_empty())?;
        let events = match words.next() {
            None => vec![rest],
            Some(lengths) => {
                let mut events = Vec::new();
                for length in lengths.split(',') {
                    let length: usize = length.parse().ok()?;
                    let (event, after) = rest.split_at_checked(length)?;
                    events.push(event);
                    rest = after;
                }
                if !rest.is_empty() {
                    return None;
                }
                events
            }
        };
        if words.next().is_some() {
            return None;
        }
        Some(Self {
            count,
            first,
            job,
            events,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::FeedEntry;

    #[test]
    fn a_feed_message_parses_and_a_foreign_one_does_not() {
        // A write's events, end to end.
        let entry = FeedEntry::parse(b"41 7 crm:j1 3,0,2\n\x00\nbyz").expect("events");
        assert_eq!((entry.count, entry.first, entry.job), (41, 7, "crm:j1"));
        assert_eq!(entry.events, [&b"\x00\nb"[..], b"", b"yz"]);
        // One event, as versions before published.
        let entry = FeedEntry::parse(b"41 7 crm:j1\n\x00\nbinary").expect("an event");
        assert_eq!((entry.count, entry.first, entry.job), (41, 7, "crm:j1"));
        assert_eq!(entry.events, [&b"\x00\nbinary"[..]]);
        for foreign in [
            &b""[..],
            b"no newline",
            b"x 7 crm:j1\n",
            b"41\n",
            b"41 7\n",
            b"41 7  3\nabc",
            b"41 7 crm:j1 3,2\nabc",
            b"41 7 crm:j1 2\nabc",
            b"41 7 crm:j1 x\nabc",
            b"41 7 crm:j1 3 more\nabc",
        ] {
            assert!(FeedEntry::parse(foreign).is_none(), "{foreign:?}");
        }
    }
}
