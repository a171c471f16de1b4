//! The Redis backend. Compare-and-set and multi-key index updates are Lua
//! scripts (atomic, one round trip); the ready queue is a stream with a consumer
//! group; the cache's freshness is judged by the Redis clock (`TIME`), so
//! processes with skewed clocks agree.

mod conn;
mod events;
mod jobs;
mod queue;
mod scripts;
mod stores;
mod watch;

use std::collections::HashMap;
use std::time::Duration;

use async_trait::async_trait;
use std::sync::atomic::{AtomicUsize, Ordering};

use redis::aio::{ConnectionLike, ConnectionManager, MultiplexedConnection};
use redis::cluster::{ClusterClient, ClusterConfig};
use redis::cluster_async::ClusterConnection;
use redis::cluster_routing::{MultipleNodeRoutingInfo, RoutingInfo, SingleNodeRoutingInfo};
use redis::streams::{
    StreamAutoClaimReply, StreamId, StreamKey, StreamRangeReply, StreamReadReply,
};
use redis::{AsyncConnectionConfig, Client, RedisFuture, Script, Value};
use tokio::sync::Mutex;

use crate::keys::{
    KeyLayout, PARTITIONS, partition_of, validate_cache_key, validate_doc_key,
    validate_idempotency_key, validate_slag_key,
};
use crate::park;
use crate::{
    ApprovalStore, ArtifactBounds, ArtifactStore, CacheEntry, Delivery, DocExpect, DocRead,
    DocStore, EventCursor, EventLog, IdempotencyStore, JobStore, JobWrite, Lane, NewJob, Page,
    PageRequest, PolicyMark, PolicySeen, QueueItem, QueueStats, ReadyQueue, Receipt, Result, Slots,
    StateError, StoredEvent, TtlCache, Version, VersionedRecord, WaitingChange, WaitingEntry,
    WaitingIndex,
};
use watch::{Source, WatchHub};

pub use conn::redis_round_trips;
use conn::*;
use events::*;
pub use jobs::parked_events;
use jobs::*;
use queue::*;
use scripts::*;

/// Redis-backed state for one tenant.
pub struct RedisStore {
    backend: Backend,
    connection: Conn,
    keys: KeyLayout,
    scripts: Scripts,
    /// Blocking reads (XREADGROUP BLOCK) would stall every request multiplexed
    /// behind them, so each consumer blocks on a connection of its own.
    blocking: Mutex<HashMap<String, Conn>>,
    /// Event watchers (WatchJob) of this process: one subscription carries
    /// them all, so watchers neither poll nor hold connections.
    watchers: WatchHub,
    /// The partition a cluster claim blocks on next.
    next_block: AtomicUsize,
    /// Logs of parked jobs this process read, for the write that unparks them.
    parked: ParkedLogs,
    /// Partitions this process paused jobs in, for the park sweep.
    to_park: ToPark,
}

/// The partitions this process paused jobs in and has not swept since, with
/// the earliest and the latest pause (ms), so the park sweep reads only
/// where a job may wait unparked past its cutoff (and every partition when
/// asked: jobs other processes paused).
#[derive(Default)]
struct ToPark(std::sync::Mutex<std::collections::BTreeMap<u16, (u64, u64)>>);

impl ToPark {
    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::BTreeMap<u16, (u64, u64)>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn paused(&self, partition: u16, since_ms: u64) {
        let mut partitions = self.lock();
        let (earliest, latest) = partitions.entry(partition).or_insert((since_ms, since_ms));
        *earliest = (*earliest).min(since_ms);
        *latest = (*latest).max(since_ms);
    }

    /// The partitions to read for jobs that waited since before `before_ms`.
    fn due(&self, before_ms: u64, every_partition: bool) -> Vec<u16> {
        if every_partition {
            return (0..PARTITIONS).collect();
        }
        self.lock()
            .iter()
            .filter(|(_, (earliest, _))| *earliest <= before_ms)
            .map(|(partition, _)| *partition)
            .collect()
    }

    /// Everything `partition` held up to `before_ms` is parked.
    fn swept(&self, partition: u16, before_ms: u64) {
        let mut partitions = self.lock();
        match partitions.get_mut(&partition) {
            Some((_, latest)) if *latest <= before_ms => {
                partitions.remove(&partition);
            }
            Some((earliest, _)) => *earliest = before_ms + 1,
            None => {}
        }
    }
}

/// Logs of parked jobs this process read (`get_job`), by job key and
/// version, so the write that follows the read restores the log without
/// reading the key again. At a given version a parked job's log is what was
/// read (any write moves the version), so an entry is never wrong, only
/// missing — then the write script sends the key back. Bounded: emptied when full.
#[derive(Default)]
struct ParkedLogs(std::sync::Mutex<HashMap<String, ParkedLog>>);

/// A parked job's events as read at a version.
type ParkedLog = (Version, Vec<Vec<u8>>);

impl ParkedLogs {
    /// Jobs remembered at most.
    const CAPACITY: usize = 1024;

    fn remember(&self, key: String, version: Version, events: Vec<Vec<u8>>) {
        let mut logs = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if logs.len() >= Self::CAPACITY {
            logs.clear();
        }
        logs.insert(key, (version, events));
    }

    /// The log read of `key` at `version`, forgotten.
    fn take(&self, key: &str, version: Version) -> Option<Vec<Vec<u8>>> {
        let mut logs = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match logs.remove(key) {
            Some((read, events)) if read == version => Some(events),
            _ => None,
        }
    }
}

struct Scripts {
    append_event: Script,
    create_job: Script,
    write_job: Script,
    park_read: Script,
    park_jobs: Script,
    delete_job: Script,
    remember: Script,
    count: Script,
    cache_put: Script,
    cache_get: Script,
    claim_slot: Script,
    renew: Script,
    doc_get: Script,
    doc_put: Script,
    doc_delete: Script,
    artifact_put: Script,
    artifact_get: Script,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("RedisStore")
            .field("keys", &self.keys)
            .field("cluster", &self.is_cluster())
            .finish_non_exhaustive()
    }
}

/// The seed URLs of `url`: one, or several separated by commas (cluster nodes).
fn seeds(url: &str) -> Vec<&str> {
    url.split(',')
        .map(str::trim)
        .filter(|seed| !seed.is_empty())
        .collect()
}

/// Whether the Redis at `url` runs in cluster mode (`INFO cluster`).
async fn is_cluster_node(url: &str) -> Result<bool> {
    let mut connection = Client::open(url)?
        .get_multiplexed_async_connection()
        .await?;
    let info: String = redis::cmd("INFO")
        .arg("cluster")
        .query_async(&mut connection)
        .await?;
    Ok(info.lines().any(|line| line.trim() == "cluster_enabled:1"))
}

/// Opens a cluster client when `url`'s first node runs in cluster mode.
async fn open_backend(url: &str) -> Result<Backend> {
    let seeds = seeds(url);
    let Some(first) = seeds.first() else {
        return Err(StateError::InvalidKey {
            part: String::new(),
            reason: "the Redis URL is empty",
        });
    };
    if seeds.len() > 1 || is_cluster_node(first).await? {
        Ok(Backend::Cluster(Box::new(ClusterClient::new(seeds)?)))
    } else {
        Ok(Backend::Single(Client::open(*first)?))
    }
}

impl RedisStore {
    /// Connects to `url` for `tenant` and makes sure the ready queue's
    /// consumer groups exist. `url` names one Redis or, comma-separated, seed
    /// nodes of a Redis Cluster; a single node that reports `cluster_enabled:1`
    /// is used as a cluster seed too.
    pub async fn connect(url: &str, tenant: &str) -> Result<Self> {
        let keys = KeyLayout::new(tenant)?;
        let backend = open_backend(url).await?;
        let connection = match &backend {
            Backend::Single(client) => {
                let config = redis::aio::ConnectionManagerConfig::new()
                    .set_response_timeout(Some(RESPONSE_TIMEOUT));
                Conn::Single(ConnectionManager::new_with_config(client.clone(), config).await?)
            }
            Backend::Cluster(client) => {
                let config = ClusterConfig::new().set_response_timeout(RESPONSE_TIMEOUT);
                Conn::Cluster(client.get_async_connection_with_config(config).await?)
            }
        };
        // The watch reader subscribes on one node (any of a cluster's seeds).
        let nodes = seeds(url)
            .into_iter()
            .map(Client::open)
            .collect::<redis::RedisResult<Vec<_>>>()?;
        let store = Self {
            watchers: WatchHub::new(nodes),
            backend,
            connection,
            keys,
            scripts: Scripts {
                append_event: job_script(APPEND_EVENT),
                create_job: job_script(CREATE_JOB),
                write_job: job_script(WRITE_JOB),
                park_read: job_script(PARK_READ),
                park_jobs: job_script(PARK_JOBS),
                delete_job: job_script(DELETE_JOB),
                remember: Script::new(REMEMBER),
                count: Script::new(COUNT),
                cache_put: Script::new(CACHE_PUT),
                cache_get: Script::new(CACHE_GET),
                claim_slot: Script::new(CLAIM_SLOT),
                renew: Script::new(RENEW),
                doc_get: Script::new(DOC_GET),
                doc_put: Script::new(DOC_PUT),
                doc_delete: Script::new(DOC_DELETE),
                artifact_put: Script::new(ARTIFACT_PUT),
                artifact_get: Script::new(ARTIFACT_GET),
            },
            blocking: Mutex::new(HashMap::new()),
            next_block: AtomicUsize::new(0),
            parked: ParkedLogs::default(),
            to_park: ToPark::default(),
        };
        store.ensure_group().await?;
        Ok(store)
    }

    /// Jobs whose events this process is watching (WatchJob) right now.
    pub fn watched_jobs(&self) -> usize {
        self.watchers.jobs()
    }

    /// Whether the store talks to a Redis Cluster.
    pub fn is_cluster(&self) -> bool {
        matches!(self.backend, Backend::Cluster(_))
    }

    async fn ensure_group(&self) -> Result<()> {
        for partition in 0..PARTITIONS {
            for lane in [Lane::New, Lane::Resumed] {
                let result: redis::RedisResult<()> = redis::cmd("XGROUP")
                    .arg("CREATE")
                    .arg(self.lane_key(lane, partition))
                    .arg(KeyLayout::QUEUE_GROUP)
                    .arg("0")
                    .arg("MKSTREAM")
                    .query_async(&mut self.connection.clone())
                    .await;
                match result {
                    Ok(()) => {}
                    Err(error) if error.code() == Some("BUSYGROUP") => {}
                    Err(error) => return Err(error.into()),
                }
            }
            // Events are published now; the capped feed stream an earlier
            // version kept (up to ~2,048 events' bytes per partition) goes.
            let () = redis::cmd("DEL")
                .arg(self.keys.feed(partition))
                .query_async(&mut self.connection.clone())
                .await?;
        }
        Ok(())
    }

    /// A partition's two lanes, resumed first (the order claims read them in).
    fn lanes(&self, partition: u16) -> [String; 2] {
        [
            self.lane_key(Lane::Resumed, partition),
            self.lane_key(Lane::New, partition),
        ]
    }

    fn lane_key(&self, lane: Lane, partition: u16) -> String {
        match lane {
            Lane::New => self.keys.ready_queue(partition),
            Lane::Resumed => self.keys.resume_queue(partition),
        }
    }

    /// Sends one pipeline per partition of `partitions`, built by `build`: all
    /// in one round trip to a single Redis; on a cluster each to its slot's
    /// node, concurrently. Returns each partition's replies, in order.
    async fn per_partition(
        &self,
        partitions: &[u16],
        atomic: bool,
        build: impl Fn(&mut redis::Pipeline, u16),
    ) -> Result<Vec<Vec<Value>>> {
        if partitions.is_empty() {
            return Ok(Vec::new());
        }
        if !self.is_cluster() {
            let mut pipe = redis::pipe();
            if atomic {
                pipe.atomic();
            }
            let mut counts = Vec::with_capacity(partitions.len());
            for &partition in partitions {
                let before = pipe.len();
                build(&mut pipe, partition);
                counts.push(pipe.len() - before);
            }
            let replies: Vec<Value> = pipe.query_async(&mut self.conn()).await?;
            let mut replies = replies.into_iter();
            return Ok(counts
                .into_iter()
                .map(|count| replies.by_ref().take(count).collect())
                .collect());
        }
        let queries = partitions.iter().map(|&partition| {
            let mut pipe = redis::pipe();
            if atomic {
                pipe.atomic();
            }
            build(&mut pipe, partition);
            let mut connection = self.conn();
            async move { pipe.query_async::<Vec<Value>>(&mut connection).await }
        });
        futures_util::future::join_all(queries)
            .await
            .into_iter()
            .map(|replies| replies.map_err(StateError::from))
            .collect()
    }

    /// Returns claimed deliveries to the ready queue, unstarted, in one atomic
    /// step per partition.
    async fn give_back(&self, deliveries: &[Delivery]) -> Result<()> {
        let receipts: Vec<Receipt> = deliveries.iter().map(Delivery::receipt).collect();
        self.per_partition(&partitions_of(&receipts), true, |pipe, partition| {
            self.add_acks(pipe, &receipts, partition);
            for delivery in deliveries {
                if partition_of(&delivery.item.slag) != partition {
                    continue;
                }
                let add = pipe
                    .cmd("XADD")
                    .arg(self.keys.ready_queue(partition))
                    .arg("*")
                    .arg("slag")
                    .arg(&delivery.item.slag)
                    .arg("job")
                    .arg(&delivery.item.job_id);
                if let Some(record) = &delivery.record {
                    add.arg("v").arg(record.version).arg("d").arg(&record.data);
                }
            }
        })
        .await?;
        Ok(())
    }

    /// XACK and XDEL of each receipt of `partition`, added to `pipe`.
    fn add_acks(&self, pipe: &mut redis::Pipeline, receipts: &[Receipt], partition: u16) {
        for lane in [Lane::New, Lane::Resumed] {
            let ids: Vec<&str> = receipts
                .iter()
                .filter(|receipt| receipt.lane == lane && receipt.partition == partition)
                .map(|receipt| receipt.id.as_str())
                .collect();
            if ids.is_empty() {
                continue;
            }
            let queue = self.lane_key(lane, partition);
            pipe.cmd("XACK")
                .arg(&queue)
                .arg(KeyLayout::QUEUE_GROUP)
                .arg(&ids)
                .cmd("XDEL")
                .arg(&queue)
                .arg(&ids);
        }
    }

    /// The shared connection, for one request (a command, a script or a
    /// pipeline): every caller takes it once per round trip, so this is where
    /// round trips are counted.
    fn conn(&self) -> Conn {
        count_round_trip();
        self.connection.clone()
    }

    async fn dedicated_connection(&self) -> Result<Conn> {
        self.backend.dedicated_connection().await
    }

    async fn blocking_connection(&self, consumer: &str) -> Result<Conn> {
        let mut connections = self.blocking.lock().await;
        if let Some(connection) = connections.get(consumer) {
            return Ok(connection.clone());
        }
        let connection = self.dedicated_connection().await?;
        connections.insert(consumer.to_owned(), connection.clone());
        Ok(connection)
    }

    async fn forget_blocking_connection(&self, consumer: &str) {
        self.blocking.lock().await.remove(consumer);
    }

    /// The address (`host:port`) of every primary of the cluster; empty on a
    /// single Redis.
    async fn primaries(&self) -> Result<Vec<(String, u16)>> {
        let Conn::Cluster(mut connection) = self.conn() else {
            return Ok(Vec::new());
        };
        let replies = connection
            .route_command(
                redis::cmd("PING"),
                RoutingInfo::MultiNode((MultipleNodeRoutingInfo::AllMasters, None)),
            )
            .await?;
        let Value::Map(replies) = replies else {
            return Err(StateError::UnexpectedReply(
                "PING to every primary did not answer per node".into(),
            ));
        };
        replies
            .into_iter()
            .map(|(address, _)| {
                let address: String = redis::from_redis_value(address)
                    .map_err(|error| StateError::UnexpectedReply(error.to_string()))?;
                address
                    .rsplit_once(':')
                    .and_then(|(host, port)| Some((host.to_owned(), port.parse().ok()?)))
                    .ok_or_else(|| StateError::UnexpectedReply(format!("node address {address}")))
            })
            .collect()
    }
}

/// What in a Redis' configuration lets it lose an acknowledged write or evict
/// a key, each with the CONFIG that fixes it; empty when it keeps everything.
/// Read with `CONFIG GET` (an error when the command is not allowed) from the
/// one Redis, or from every primary of a cluster.
pub async fn durability_problems(redis_url: &str) -> Result<Vec<String>> {
    const SETTINGS: [&str; 3] = ["appendonly", "appendfsync", "maxmemory-policy"];
    // (node, setting, value) for every node.
    let mut settings: Vec<(String, &str, String)> = Vec::new();
    match open_backend(redis_url).await? {
        Backend::Single(client) => {
            let mut connection = client.get_multiplexed_async_connection().await?;
            for name in SETTINGS {
                let pair: Vec<String> = redis::cmd("CONFIG")
                    .arg("GET")
                    .arg(name)
                    .query_async(&mut connection)
                    .await?;
                settings.push((
                    String::new(),
                    name,
                    pair.get(1).cloned().unwrap_or_default(),
                ));
            }
        }
        Backend::Cluster(client) => {
            let mut connection = client.get_async_connection().await?;
            for name in SETTINGS {
                let mut get = redis::cmd("CONFIG");
                get.arg("GET").arg(name);
                let replies = connection
                    .route_command(
                        get,
                        RoutingInfo::MultiNode((MultipleNodeRoutingInfo::AllMasters, None)),
                    )
                    .await?;
                let replies: Vec<(String, Vec<String>)> = parse(replies)?;
                for (node, pair) in replies {
                    settings.push((
                        format!("{node}: "),
                        name,
                        pair.get(1).cloned().unwrap_or_default(),
                    ));
                }
            }
        }
    }
    // Node by node, in the order of SETTINGS.
    settings.sort_by_key(|(node, name, _)| {
        (
            node.clone(),
            SETTINGS.iter().position(|setting| setting == name),
        )
    });
    let mut problems = Vec::new();
    for (node, name, value) in settings {
        let problem = match (name, value.as_str()) {
            ("appendonly", "yes")
            | ("appendfsync", "always")
            | ("maxmemory-policy", "noeviction") => {
                continue;
            }
            ("appendonly", _) => {
                "a restart loses every write since the last snapshot \
                 (fix: CONFIG SET appendonly yes)"
            }
            ("appendfsync", _) => {
                "a crash loses acknowledged writes not yet fsynced \
                 (fix: CONFIG SET appendfsync always)"
            }
            _ => {
                "paused jobs, approvals and idempotency keys may be evicted \
                 (fix: CONFIG SET maxmemory-policy noeviction)"
            }
        };
        problems.push(format!("{node}{name} is `{value}`: {problem}"));
    }
    Ok(problems)
}

/// The partitions `receipts` fall in, each once.
fn partitions_of(receipts: &[Receipt]) -> Vec<u16> {
    let mut partitions: Vec<u16> = receipts.iter().map(|receipt| receipt.partition).collect();
    partitions.sort_unstable();
    partitions.dedup();
    partitions
}
