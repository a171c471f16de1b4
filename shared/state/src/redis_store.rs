//! The Redis backend. Compare-and-set and multi-key index updates are Lua
//! scripts (atomic, one round trip); the ready queue is a stream with a consumer
//! group; the cache's freshness is judged by the Redis clock (`TIME`), so
//! processes with skewed clocks agree.

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

use crate::keys::{KeyLayout, PARTITIONS, partition_of, validate_slag_key};
use crate::memory::{validate_cache_key, validate_doc_key, validate_idempotency_key};
use crate::park;
use crate::watch::{Source, WatchHub};
use crate::{
    ArtifactBounds, ArtifactStore, CacheEntry, Delivery, DocExpect, DocRead, DocStore, EventCursor,
    EventLog, IdempotencyStore, JobStore, JobWrite, Lane, NewJob, Page, PageRequest, QueueItem,
    QueueStats, ReadyQueue, Receipt, Result, Slots, StateError, StoredEvent, TtlCache, Version,
    VersionedRecord, WaitingChange, WaitingEntry, WaitingIndex,
};

/// Entries a partition's feed keeps (about: trimmed by whole nodes). A watch
/// reader further behind than this sees a gap in the counts and has its
/// watchers read the logs themselves.
const FEED_LENGTH: usize = 2048;

/// `script`, after the Lua functions job scripts share: `append_event`, to
/// append an event to the job's log and to its partition's feed (capped at
/// about [`FEED_LENGTH`] entries), counting the feed's entries and returning
/// the event's id (its position in the log); and `load_job` / `store_job`.
///
/// A job's key is a string: a header line `<version> <status> <created_ms>
/// <waiting 0|1|p>` (what the scripts keep indexes by), then the record — or,
/// for `p`, a waiting job parked: its record and its events packed into one
/// value ([`crate::park`]), its log's list deleted. A hash
/// with those as fields costs a paused job about 350 bytes more: its record
/// is above `hash-max-listpack-value`, which makes the hash a hashtable. A job
/// still stored as such a hash (by a version before this layout) is read as
/// one, and stored as a string on its next write.
fn job_script(script: &str) -> Script {
    Script::new(&format!(
        r"
local function append_event(log, feed, count, job, data)
  local id = redis.call('RPUSH', log, data)
  local n = redis.call('INCR', count)
  redis.call('XADD', feed, 'MAXLEN', '~', {FEED_LENGTH}, '*', 'j', job, 'n', id, 'c', n, 'd', data)
  return id
end
local function load_job(key, with_data)
  local raw = redis.pcall('GETRANGE', key, 0, 63)
  if type(raw) == 'table' then
    local f = redis.call('HMGET', key, 'v', 's', 'c', 'w', 'd')
    if not f[1] then return nil end
    local waiting = '0'
    if f[4] then waiting = '1' end
    return f[1], f[2] or '', f[3] or '0', waiting, f[5] or ''
  end
  if raw == '' then return nil end
  local header = '^(%d+) (%S*) (%d+) ([01p])\n()'
  local v, s, c, w, at = string.match(raw, header)
  if not v then
    v, s, c, w, at = string.match(redis.call('GET', key), header)
    if not v then error('job key ' .. key .. ' has no header') end
  end
  local data
  if with_data then data = string.sub(redis.call('GET', key), at) end
  return v, s, c, w, data
end
local function store_job(key, version, status, created, waiting, data)
  redis.call('SET', key, version .. ' ' .. status .. ' ' .. created .. ' ' .. waiting .. '\n' .. data)
end
{script}"
    ))
}

/// KEYS: log, feed, feed count, job. ARGV: `<slag>:<job_id>`, event. Returns
/// the id; refuses a parked job's (its log is packed in its key: an event
/// appended to the list would take the first event's id).
const APPEND_EVENT: &str = r"
local stored, status, created, waiting = load_job(KEYS[4], false)
if waiting == 'p' then return redis.error_reply('PARKED the job is parked: write it to append') end
return append_event(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2])
";

/// KEYS: job, jobs index, log, status index, ready queue, feed, feed count.
/// ARGV: data, created_ms, job_id, status, has event (0|1), event, enqueue
/// (0|1), slag.
const CREATE_JOB: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
store_job(KEYS[1], '1', ARGV[4], ARGV[2], '0', ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[3])
if ARGV[5] == '1' then append_event(KEYS[3], KEYS[6], KEYS[7], ARGV[8] .. ':' .. ARGV[3], ARGV[6]) end
if ARGV[7] == '1' then
  redis.call('XADD', KEYS[5], '*', 'slag', ARGV[8], 'job', ARGV[3], 'v', 1, 'd', ARGV[1])
end
return 1
";

/// KEYS: job, waiting index, log, queue lane, new status index, feed, feed
/// count. ARGV: expected version, has data (0|1), data, waiting op
/// (keep|set|clear), since_ms, job_id, slag, enqueue (0|1), status, status
/// index prefix, next version, event count, events…, restored count (-1:
/// none), the parked job's events….
/// Returns {1, new version} — with the job's whole log when it waits after
/// the write (to be parked) — | {0, stored version} | {-1, 0} (not found) |
/// {-2, stored version, its key} (parked, and the write brought no record or
/// no log to restore: the caller unpacks the key and writes again).
/// A parked job's log is restored first, so its events keep their ids.
/// A waiting job is in the waiting index and in no status index (one entry
/// per paused job, not two; a version before this one kept it in both, so
/// leaving the waiting index also removes it from its status's). The waiting
/// index is touched only when the job enters or leaves it, the status
/// indexes only when the status or that changes. Versions stay text: the
/// caller sends the next one, so the script neither parses nor formats a
/// number (Lua's number formatting cost more than the rest of the write).
const WRITE_JOB: &str = r"
local stored, status, created, waiting, data = load_job(KEYS[1], ARGV[2] ~= '1')
if not stored then return {-1, 0} end
if stored ~= ARGV[1] then return {0, stored} end
local restore_at = 13 + tonumber(ARGV[12])
if waiting == 'p' then
  local restored = tonumber(ARGV[restore_at])
  if restored < 0 or ARGV[2] ~= '1' then return {-2, stored, redis.call('GET', KEYS[1])} end
  for i = 1, restored do redis.call('RPUSH', KEYS[3], ARGV[restore_at + i]) end
  waiting = '1'
end
local version = ARGV[11]
if ARGV[2] == '1' then data = ARGV[3] end
local indexed = waiting == '0'
if ARGV[4] == 'set' then
  redis.call('ZADD', KEYS[2], ARGV[5], ARGV[6])
  waiting = '1'
elseif ARGV[4] == 'clear' and waiting ~= '0' then
  redis.call('ZREM', KEYS[2], ARGV[6])
  waiting = '0'
end
if status ~= ARGV[9] or indexed ~= (waiting == '0') then
  if status ~= '' then redis.call('ZREM', ARGV[10] .. status, ARGV[6]) end
  if waiting == '0' then redis.call('ZADD', KEYS[5], created, ARGV[6]) end
  status = ARGV[9]
end
store_job(KEYS[1], version, status, created, waiting, data)
local job = ARGV[7] .. ':' .. ARGV[6]
for i = 1, tonumber(ARGV[12]) do append_event(KEYS[3], KEYS[6], KEYS[7], job, ARGV[12 + i]) end
if ARGV[8] == '1' then
  redis.call('XADD', KEYS[4], '*', 'slag', ARGV[7], 'job', ARGV[6], 'v', version, 'd', data)
end
if waiting == '1' and ARGV[4] == 'set' then return {1, version, redis.call('LRANGE', KEYS[3], 0, -1)} end
return {1, version}
";

/// KEYS: job, log. ARGV: version, events in the log, the packed job. Parks
/// the job if it still is at that version, waiting, with that many events;
/// returns 1 if it did.
const PARK_JOB: &str = r"
local stored, status, created, waiting = load_job(KEYS[1], false)
if stored ~= ARGV[1] or waiting ~= '1' then return 0 end
if redis.call('LLEN', KEYS[2]) ~= tonumber(ARGV[2]) then return 0 end
store_job(KEYS[1], stored, status, created, 'p', ARGV[3])
redis.call('DEL', KEYS[2])
return 1
";

/// KEYS: job, log, jobs index, waiting index, legacy event stream. ARGV:
/// job_id, status index prefix.
const DELETE_JOB: &str = r"
local stored, status = load_job(KEYS[1], false)
if stored and status ~= '' then redis.call('ZREM', ARGV[2] .. status, ARGV[1]) end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[5])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
if stored then return 1 end
return 0
";

/// KEYS: idempotency key. ARGV: value, ttl ms. Returns the existing value or false.
const REMEMBER: &str = r"
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false
";

/// KEYS: queue lane. ARGV: group, consumer, delivery id. 1 when the consumer
/// still holds the delivery (its idle time is reset), else 0.
const RENEW: &str = r"
local held = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1, ARGV[2])
if #held == 0 then return 0 end
redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[3], 'JUSTID')
return 1
";

/// KEYS: slot set. ARGV: member, limit. 1 when the member holds a slot.
const CLAIM_SLOT: &str = r"
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
return 1
";

/// KEYS: cache entry. ARGV: value, fresh ms, keep ms.
const CACHE_PUT: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[1], 'v', ARGV[1], 's', now, 'f', now + tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
";

/// KEYS: cache entry. Returns {value, fresh 0|1, age ms} or false.
const CACHE_GET: &str = r"
local entry = redis.call('HMGET', KEYS[1], 'v', 's', 'f')
if not entry[1] then return false end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local fresh = 0
if now < tonumber(entry[3]) then fresh = 1 end
return {entry[1], fresh, now - tonumber(entry[2])}
";

/// KEYS: document. ARGV: known etag (or ''). Returns false, {etag} when
/// unchanged, or {etag, body}.
const DOC_GET: &str = r"
local e = redis.call('HGET', KEYS[1], 'e')
if not e then return false end
if e == ARGV[1] then return {e} end
return {e, redis.call('HGET', KEYS[1], 'b')}
";

/// KEYS: document, scope index. ARGV: expect (any|absent|etag), expected
/// etag, etag, body, name. 1 when written.
const DOC_PUT: &str = r"
local e = redis.call('HGET', KEYS[1], 'e')
if ARGV[1] == 'absent' and e then return 0 end
if ARGV[1] == 'etag' and e ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'e', ARGV[3], 'b', ARGV[4])
redis.call('SADD', KEYS[2], ARGV[5])
return 1
";

/// KEYS: document, scope index. ARGV: expect (any|etag), expected etag, name.
/// 1 when removed.
const DOC_DELETE: &str = r"
local e = redis.call('HGET', KEYS[1], 'e')
if not e then return 0 end
if ARGV[1] == 'etag' and e ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[3])
return 1
";

/// KEYS: artifact index, its meta hash, the artifact. ARGV: id, body,
/// max bytes, max entries, artifact key prefix. The bodies evicted are in the
/// slag's slot, named from the prefix.
const ARTIFACT_PUT: &str = r"
if redis.call('EXISTS', KEYS[3]) == 0 then
  redis.call('SET', KEYS[3], ARGV[2])
  redis.call('HINCRBY', KEYS[2], 'bytes', string.len(ARGV[2]))
end
redis.call('ZADD', KEYS[1], redis.call('HINCRBY', KEYS[2], 'clock', 1), ARGV[1])
local max_bytes, max_entries = tonumber(ARGV[3]), tonumber(ARGV[4])
while tonumber(redis.call('HGET', KEYS[2], 'bytes') or 0) > max_bytes
    or redis.call('ZCARD', KEYS[1]) > max_entries do
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0)[1]
  if not oldest then break end
  local key = ARGV[5] .. oldest
  redis.call('HINCRBY', KEYS[2], 'bytes', -redis.call('STRLEN', key))
  redis.call('DEL', key)
  redis.call('ZREM', KEYS[1], oldest)
end
return 1
";

/// KEYS: artifact index, its meta hash, the artifact. ARGV: id. The body, now
/// the most recently used, or nil (an index entry without a body is dropped).
const ARTIFACT_GET: &str = r"
local body = redis.call('GET', KEYS[3])
if not body then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return false
end
redis.call('ZADD', KEYS[1], redis.call('HINCRBY', KEYS[2], 'clock', 1), ARGV[1])
return body
";

/// A connection to one Redis or to a Redis Cluster (commands routed by slot).
#[derive(Clone)]
pub(crate) enum Conn {
    Single(ConnectionManager),
    Multiplexed(MultiplexedConnection),
    Cluster(ClusterConnection),
}

impl ConnectionLike for Conn {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a redis::Cmd) -> RedisFuture<'a, Value> {
        match self {
            Self::Single(connection) => connection.req_packed_command(cmd),
            Self::Multiplexed(connection) => connection.req_packed_command(cmd),
            Self::Cluster(connection) => connection.req_packed_command(cmd),
        }
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a redis::Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        match self {
            Self::Single(connection) => connection.req_packed_commands(pipeline, offset, count),
            Self::Multiplexed(connection) => {
                connection.req_packed_commands(pipeline, offset, count)
            }
            Self::Cluster(connection) => connection.req_packed_commands(pipeline, offset, count),
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            Self::Single(connection) => connection.get_db(),
            Self::Multiplexed(connection) => connection.get_db(),
            Self::Cluster(connection) => connection.get_db(),
        }
    }
}

/// Where new connections come from.
#[derive(Clone)]
pub(crate) enum Backend {
    Single(Client),
    Cluster(Box<ClusterClient>),
}

/// How long a blocking read on a cluster connection may last before the
/// client gives up on it (reads block for at most a few seconds).
const CLUSTER_BLOCKING_TIMEOUT: Duration = Duration::from_secs(60);

/// How long the shared connection waits for a reply. The client's 500 ms
/// default failed WatchJob calls with "timed out" while a busy process had
/// its replies waiting to be read (400 watchers joining at once under load);
/// and a write that times out has an unknown outcome, so a spurious timeout
/// costs more than a late one. A dead Redis refuses connections at once.
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(5);

/// On a cluster a claim cannot block on every partition at once (they live
/// in different slots): it sweeps them all without blocking, then blocks on
/// one in turn for at most this long.
const CLUSTER_CLAIM_BLOCK: Duration = Duration::from_millis(100);

impl Backend {
    /// A connection of its own, with no response timeout but the server's
    /// (the reads it carries block on the server).
    pub(crate) async fn dedicated_connection(&self) -> Result<Conn> {
        Ok(match self {
            Self::Single(client) => {
                let config = AsyncConnectionConfig::new().set_response_timeout(None);
                Conn::Multiplexed(
                    client
                        .get_multiplexed_async_connection_with_config(&config)
                        .await?,
                )
            }
            Self::Cluster(client) => {
                let config = ClusterConfig::new().set_response_timeout(CLUSTER_BLOCKING_TIMEOUT);
                Conn::Cluster(client.get_async_connection_with_config(config).await?)
            }
        })
    }
}

/// Redis-backed state for one tenant.
pub struct RedisStore {
    backend: Backend,
    connection: Conn,
    keys: KeyLayout,
    scripts: Scripts,
    /// Blocking reads (XREADGROUP BLOCK) would stall every request multiplexed
    /// behind them, so each consumer blocks on a connection of its own.
    blocking: Mutex<HashMap<String, Conn>>,
    /// Event watchers (WatchJob) of this process: one blocking read per
    /// group carries them all, so watchers neither poll nor hold connections.
    watchers: WatchHub,
    /// The partition a cluster claim blocks on next.
    next_block: AtomicUsize,
    /// Logs of parked jobs this process read, for the write that unparks them.
    parked: ParkedLogs,
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
    park_job: Script,
    delete_job: Script,
    remember: Script,
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
        let store = Self {
            watchers: WatchHub::new(backend.clone()),
            backend,
            connection,
            keys,
            scripts: Scripts {
                append_event: job_script(APPEND_EVENT),
                create_job: job_script(CREATE_JOB),
                write_job: job_script(WRITE_JOB),
                park_job: job_script(PARK_JOB),
                delete_job: job_script(DELETE_JOB),
                remember: Script::new(REMEMBER),
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

/// Requests this process has sent to Redis (all stores).
static ROUND_TRIPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

pub(crate) fn count_round_trip() {
    ROUND_TRIPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// Round trips this process has made to Redis, for the metrics page.
pub fn redis_round_trips() -> u64 {
    ROUND_TRIPS.load(std::sync::atomic::Ordering::Relaxed)
}

fn stored_events(entries: Vec<StreamId>) -> Result<Vec<StoredEvent>> {
    entries
        .into_iter()
        .map(|entry| {
            let data: Option<Vec<u8>> = entry.get("d");
            data.map(|data| StoredEvent {
                id: entry.id.clone(),
                data,
            })
            .ok_or_else(|| StateError::UnexpectedReply(format!("event {} has no data", entry.id)))
        })
        .collect()
}

/// The events of a parked job, from its key's value as Redis holds it; `None`
/// for a job that is not parked. For tools that read the store's keys
/// themselves (the test harness' invariant checker).
pub fn parked_events(key_value: Vec<u8>) -> Result<Option<Vec<Vec<u8>>>> {
    Ok(job_from_key(key_value)?.parked_events)
}

/// A job as its key holds it: the record, and a parked job's events.
struct KeyedJob {
    record: VersionedRecord,
    parked_events: Option<Vec<Vec<u8>>>,
}

/// A job's key, as the job scripts store it: the header line, whose first
/// word is the version and whose fourth is `p` for a parked job, then the
/// record or the packed job.
fn job_from_key(mut raw: Vec<u8>) -> Result<KeyedJob> {
    let corrupt = || StateError::UnexpectedReply("a job key without its header line".to_owned());
    let newline = raw
        .iter()
        .position(|&byte| byte == b'\n')
        .ok_or_else(corrupt)?;
    let mut words = raw[..newline].split(|&byte| byte == b' ');
    let version = words
        .next()
        .and_then(|word| std::str::from_utf8(word).ok())
        .and_then(|word| word.parse().ok())
        .ok_or_else(corrupt)?;
    let parked = words.nth(2) == Some(b"p");
    raw.drain(..=newline);
    if !parked {
        return Ok(KeyedJob {
            record: VersionedRecord { version, data: raw },
            parked_events: None,
        });
    }
    let park::Parked { record, events } = park::unpack(&raw)?;
    Ok(KeyedJob {
        record: VersionedRecord {
            version,
            data: record,
        },
        parked_events: Some(events),
    })
}

fn check_job(slag: &str, job_id: &str) -> Result<()> {
    validate_slag_key(slag)?;
    validate_slag_key(job_id)
}

fn page_from<T>(mut items: Vec<T>, request: PageRequest, limit: usize) -> Page<T> {
    let has_more = items.len() > limit;
    items.truncate(limit);
    Page {
        items,
        next_offset: has_more.then(|| request.offset + limit as u64),
    }
}

fn delivery_from(entry: &StreamId, lane: Lane, with_record: bool) -> Result<Delivery> {
    let slag: Option<String> = entry.get("slag");
    let job_id: Option<String> = entry.get("job");
    let record = match (entry.get::<u64>("v"), entry.get::<Vec<u8>>("d")) {
        (Some(version), Some(data)) if with_record => Some(VersionedRecord { version, data }),
        _ => None,
    };
    match (slag, job_id) {
        (Some(slag), Some(job_id)) => Ok(Delivery {
            id: entry.id.clone(),
            lane,
            item: QueueItem { slag, job_id },
            record,
        }),
        _ => Err(StateError::UnexpectedReply(format!(
            "queue entry {} lacks slag or job",
            entry.id
        ))),
    }
}

#[async_trait]
impl JobStore for RedisStore {
    async fn create_job(&self, slag: &str, job_id: &str, job: NewJob<'_>) -> Result<Version> {
        check_job(slag, job_id)?;
        validate_slag_key(job.status)?;
        let created: i64 = self
            .scripts
            .create_job
            .key(self.keys.job(slag, job_id))
            .key(self.keys.jobs_index(slag))
            .key(self.keys.events(slag, job_id))
            .key(self.keys.status_index(slag, job.status))
            .key(self.keys.ready_queue(partition_of(slag)))
            .key(self.keys.feed(partition_of(slag)))
            .key(self.keys.feed_count(partition_of(slag)))
            .arg(job.data)
            .arg(job.created_ms)
            .arg(job_id)
            .arg(job.status)
            .arg(u8::from(job.event.is_some()))
            .arg(job.event.unwrap_or_default())
            .arg(u8::from(job.enqueue))
            .arg(slag)
            .invoke_async(&mut self.conn())
            .await?;
        if created == 1 {
            Ok(1)
        } else {
            Err(StateError::AlreadyExists {
                what: format!("job {slag}/{job_id}"),
            })
        }
    }

    async fn get_job(&self, slag: &str, job_id: &str) -> Result<Option<VersionedRecord>> {
        check_job(slag, job_id)?;
        let mut jobs = self.load_jobs(slag, std::slice::from_ref(&job_id)).await?;
        let Some(job) = jobs.pop().flatten() else {
            return Ok(None);
        };
        if let Some(events) = job.parked_events {
            self.parked
                .remember(self.keys.job(slag, job_id), job.record.version, events);
        }
        Ok(Some(job.record))
    }

    async fn get_jobs(
        &self,
        slag: &str,
        job_ids: &[String],
    ) -> Result<Vec<Option<VersionedRecord>>> {
        for job_id in job_ids {
            check_job(slag, job_id)?;
        }
        let jobs = self.load_jobs(slag, job_ids).await?;
        Ok(jobs
            .into_iter()
            .map(|job| job.map(|job| job.record))
            .collect())
    }

    async fn write_job(&self, slag: &str, job_id: &str, write: JobWrite<'_>) -> Result<Version> {
        check_job(slag, job_id)?;
        validate_slag_key(write.status)?;
        let (op, since_ms) = match write.waiting {
            WaitingChange::Keep => ("keep", 0),
            WaitingChange::Set { since_ms } => ("set", since_ms),
            WaitingChange::Clear => ("clear", 0),
        };
        let key = self.keys.job(slag, job_id);
        // A parked job's log goes back into its list with the write: from this
        // process' read of it when it has one, else from the key the script
        // sends back (one more round trip).
        let mut restore = self.parked.take(&key, write.expected);
        let mut unparked = None;
        for _ in 0..2 {
            let data = write.data.or(unparked.as_deref());
            let mut invocation = self.scripts.write_job.key(&key);
            invocation
                .key(self.keys.waiting_index(slag))
                .key(self.keys.events(slag, job_id))
                .key(self.lane_key(write.enqueue.unwrap_or(Lane::New), partition_of(slag)))
                .key(self.keys.status_index(slag, write.status))
                .key(self.keys.feed(partition_of(slag)))
                .key(self.keys.feed_count(partition_of(slag)))
                .arg(write.expected)
                .arg(u8::from(data.is_some()))
                .arg(data.unwrap_or_default())
                .arg(op)
                .arg(since_ms)
                .arg(job_id)
                .arg(slag)
                .arg(u8::from(write.enqueue.is_some()))
                .arg(write.status)
                .arg(self.keys.status_index(slag, ""))
                .arg(write.expected + 1)
                .arg(write.events.len());
            for event in write.events {
                invocation.arg(*event);
            }
            match &restore {
                Some(events) => {
                    invocation.arg(events.len());
                    for event in events {
                        invocation.arg(event.as_slice());
                    }
                }
                None => {
                    invocation.arg(-1);
                }
            }
            let mut reply: Vec<Value> = invocation.invoke_async(&mut self.conn()).await?;
            let mut fields = reply.drain(..).fuse();
            let status: i64 = parse_reply(fields.next().unwrap_or(Value::Nil))?;
            let version: u64 = parse_reply(fields.next().unwrap_or(Value::Nil))?;
            match status {
                1 => {
                    if let (Some(record), Some(log)) = (data, fields.next()) {
                        self.park(slag, job_id, version, record, parse_reply(log)?)
                            .await;
                    }
                    return Ok(version);
                }
                0 => {
                    return Err(StateError::VersionConflict {
                        what: format!("job {slag}/{job_id}"),
                        expected: write.expected,
                        actual: version,
                    });
                }
                -2 => {
                    let raw: Vec<u8> = parse_reply(fields.next().unwrap_or(Value::Nil))?;
                    let job = job_from_key(raw)?;
                    restore = job.parked_events;
                    unparked = Some(job.record.data);
                }
                _ => {
                    return Err(StateError::NotFound {
                        what: format!("job {slag}/{job_id}"),
                    });
                }
            }
        }
        Err(StateError::UnexpectedReply(format!(
            "job {slag}/{job_id} stayed parked after its log was sent back"
        )))
    }

    async fn delete_job(&self, slag: &str, job_id: &str) -> Result<bool> {
        check_job(slag, job_id)?;
        let existed: i64 = self
            .scripts
            .delete_job
            .key(self.keys.job(slag, job_id))
            .key(self.keys.events(slag, job_id))
            .key(self.keys.jobs_index(slag))
            .key(self.keys.waiting_index(slag))
            .key(self.keys.legacy_events(slag, job_id))
            .arg(job_id)
            .arg(self.keys.status_index(slag, ""))
            .invoke_async(&mut self.conn())
            .await?;
        Ok(existed == 1)
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
        let ids: Vec<String> = redis::cmd("ZRANGE")
            .arg(self.keys.status_index(slag, status))
            .arg("-inf")
            .arg(format!("({before_ms}"))
            .arg("BYSCORE")
            .arg("LIMIT")
            .arg(0)
            .arg(limit.max(1))
            .query_async(&mut self.conn())
            .await?;
        Ok(ids)
    }

    async fn list_jobs(
        &self,
        slag: &str,
        status: Option<&str>,
        request: PageRequest,
    ) -> Result<Page<String>> {
        validate_slag_key(slag)?;
        let index = match status {
            Some(status) => {
                validate_slag_key(status)?;
                self.keys.status_index(slag, status)
            }
            None => self.keys.jobs_index(slag),
        };
        let limit = request.limit.max(1);
        // One extra item tells whether another page exists.
        let ids: Vec<String> = redis::cmd("ZRANGE")
            .arg(index)
            .arg(request.offset)
            .arg(request.offset + limit as u64)
            .query_async(&mut self.conn())
            .await?;
        Ok(page_from(ids, request, limit))
    }
}

#[async_trait]
impl EventLog for RedisStore {
    async fn append_event(&self, slag: &str, job_id: &str, data: &[u8]) -> Result<String> {
        check_job(slag, job_id)?;
        let partition = partition_of(slag);
        let id: u64 = self
            .scripts
            .append_event
            .key(self.keys.events(slag, job_id))
            .key(self.keys.feed(partition))
            .key(self.keys.feed_count(partition))
            .key(self.keys.job(slag, job_id))
            .arg(feed_job(slag, job_id))
            .arg(data)
            .invoke_async(&mut self.conn())
            .await?;
        Ok(id.to_string())
    }

    async fn read_events(
        &self,
        slag: &str,
        job_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<StoredEvent>> {
        check_job(slag, job_id)?;
        let cursor = EventCursor::parse(after)?;
        self.read_log(slag, job_id, cursor, limit).await
    }

    async fn wait_events(
        &self,
        slag: &str,
        job_id: &str,
        after: Option<&str>,
        limit: usize,
        block: Duration,
    ) -> Result<Vec<StoredEvent>> {
        check_job(slag, job_id)?;
        let cursor = EventCursor::parse(after)?;
        let limit = limit.max(1);
        let deadline = tokio::time::Instant::now() + block;
        // On a cluster a reader's feeds must share a slot: one per partition.
        let group = if self.is_cluster() {
            partition_of(slag)
        } else {
            0
        };
        let watch = self
            .watchers
            .watch(group, || self.group_feeds(group), feed_job(slag, job_id));
        let after = match cursor {
            EventCursor::After(after) => Some(after),
            EventCursor::Legacy(..) => None,
        };
        loop {
            // Listening before reading: an event appended in between still wakes us.
            let grew = watch.grew.notified();
            tokio::pin!(grew);
            grew.as_mut().enable();
            let events = match watch.source(after, limit) {
                // The process' reader already read them: no round trip.
                Source::Kept(events) => events,
                Source::Read(ticket) => {
                    let events = self.read_log(slag, job_id, cursor, limit).await?;
                    if let (Some(ticket), Some(after)) = (ticket, after)
                        && events.len() < limit
                    {
                        watch.synced(ticket, after, &events);
                    }
                    events
                }
                // The reader is finding where the feeds end; it wakes us.
                Source::Wait => Vec::new(),
            };
            if !events.is_empty() {
                return Ok(events);
            }
            if tokio::time::timeout_at(deadline, grew).await.is_err() {
                return Ok(Vec::new());
            }
        }
    }
}

/// Refuses what is not a Redis stream id (`<ms>-<seq>`).
fn validate_stream_id(id: &str) -> Result<()> {
    match EventCursor::parse(Some(id)) {
        Ok(EventCursor::Legacy(..)) => Ok(()),
        _ => Err(StateError::InvalidKey {
            part: id.chars().take(64).collect(),
            reason: "not a stream entry id",
        }),
    }
}

/// One reply of a pipeline whose replies differ in type.
fn parse_reply<T: redis::FromRedisValue>(reply: Value) -> Result<T> {
    Ok(redis::from_redis_value(reply).map_err(redis::RedisError::from)?)
}

/// A job as its partition's feed names it.
fn feed_job(slag: &str, job_id: &str) -> String {
    format!("{slag}:{job_id}")
}

impl RedisStore {
    /// Parks a job that waits after a write at `version` (see [`park`]): its
    /// record and `log` packed into its key, the list deleted — if nothing
    /// changed since. A failure leaves it as it was, unparked and whole.
    async fn park(
        &self,
        slag: &str,
        job_id: &str,
        version: Version,
        record: &[u8],
        log: Vec<Vec<u8>>,
    ) {
        let packed = park::pack(record, &log);
        let parked: Result<i64> = self
            .scripts
            .park_job
            .key(self.keys.job(slag, job_id))
            .key(self.keys.events(slag, job_id))
            .arg(version)
            .arg(log.len())
            .arg(packed)
            .invoke_async(&mut self.conn())
            .await
            .map_err(StateError::from);
        if let Err(error) = parked {
            tracing::warn!(%slag, %job_id, %error, "could not park a waiting job; it stays unparked");
        }
    }

    /// A parked job's events; `None` for a job that is not parked (or gone).
    async fn parked_events(&self, slag: &str, job_id: &str) -> Result<Option<Vec<Vec<u8>>>> {
        let raw: redis::RedisResult<Option<Vec<u8>>> = redis::cmd("GET")
            .arg(self.keys.job(slag, job_id))
            .query_async(&mut self.conn())
            .await;
        match raw {
            Ok(Some(raw)) => Ok(job_from_key(raw)?.parked_events),
            Ok(None) => Ok(None),
            // A job still stored as a hash is never parked.
            Err(error) if error.code() == Some("WRONGTYPE") => Ok(None),
            Err(error) => Err(error.into()),
        }
    }

    /// The feeds one watch reader blocks on: every partition's on a single
    /// Redis, the group's own on a cluster (a read must stay in one slot).
    fn group_feeds(&self, group: u16) -> Vec<String> {
        if self.is_cluster() {
            vec![self.keys.feed(group)]
        } else {
            (0..PARTITIONS)
                .map(|partition| self.keys.feed(partition))
                .collect()
        }
    }

    /// The records of `job_ids` (checked keys), in one round trip: a pipeline
    /// of `GET`s, and a second for any job still stored as a hash.
    async fn load_jobs(
        &self,
        slag: &str,
        job_ids: &[impl AsRef<str>],
    ) -> Result<Vec<Option<KeyedJob>>> {
        if job_ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut pipe = redis::pipe();
        pipe.ignore_errors();
        for job_id in job_ids {
            pipe.get(self.keys.job(slag, job_id.as_ref()));
        }
        let replies: Vec<redis::RedisResult<Option<Vec<u8>>>> =
            pipe.query_async(&mut self.conn()).await?;
        let mut records = Vec::with_capacity(job_ids.len());
        let mut hashes = Vec::new();
        for (at, reply) in replies.into_iter().enumerate() {
            match reply {
                Ok(raw) => records.push(raw.map(job_from_key).transpose()?),
                Err(error) if error.code() == Some("WRONGTYPE") => {
                    hashes.push(at);
                    records.push(None);
                }
                Err(error) => return Err(error.into()),
            }
        }
        if !hashes.is_empty() {
            let mut pipe = redis::pipe();
            for &at in &hashes {
                pipe.cmd("HMGET")
                    .arg(self.keys.job(slag, job_ids[at].as_ref()))
                    .arg("v")
                    .arg("d");
            }
            let replies: Vec<(Option<u64>, Option<Vec<u8>>)> =
                pipe.query_async(&mut self.conn()).await?;
            for (at, reply) in hashes.into_iter().zip(replies) {
                if let (Some(version), Some(data)) = reply {
                    records[at] = Some(KeyedJob {
                        record: VersionedRecord { version, data },
                        parked_events: None,
                    });
                }
            }
        }
        Ok(records)
    }

    /// Up to `limit` events of the job after `cursor`, in one round trip. A
    /// read from the start, or from a stream id, takes the job's legacy event
    /// stream first (empty for every job written since logs are lists).
    async fn read_log(
        &self,
        slag: &str,
        job_id: &str,
        cursor: EventCursor,
        limit: usize,
    ) -> Result<Vec<StoredEvent>> {
        let limit = limit.max(1);
        let log = self.keys.events(slag, job_id);
        let legacy_from = match cursor {
            EventCursor::After(0) => Some("-".to_owned()),
            EventCursor::Legacy(ms, seq) => Some(format!("({ms}-{seq}")),
            EventCursor::After(_) => None,
        };
        let from = match cursor {
            EventCursor::After(after) => after,
            EventCursor::Legacy(..) => 0,
        };
        let mut pipe = redis::pipe();
        if let Some(legacy_from) = legacy_from {
            pipe.cmd("XRANGE")
                .arg(self.keys.legacy_events(slag, job_id))
                .arg(legacy_from)
                .arg("+")
                .arg("COUNT")
                .arg(limit);
        }
        pipe.cmd("LRANGE")
            .arg(&log)
            .arg(from)
            .arg(from.saturating_add(limit as u64 - 1).min(i64::MAX as u64));
        // No list at all: the job may be parked, its log packed in its key.
        pipe.cmd("EXISTS").arg(&log);
        let mut replies: Vec<Value> = pipe.query_async(&mut self.conn()).await?;
        let log_exists: bool = parse_reply(replies.pop().unwrap_or(Value::Nil))?;
        let mut listed: Vec<Vec<u8>> = parse_reply(replies.pop().unwrap_or(Value::Nil))?;
        if !log_exists && let Some(events) = self.parked_events(slag, job_id).await? {
            listed = events
                .into_iter()
                .skip(usize::try_from(from).unwrap_or(usize::MAX))
                .take(limit)
                .collect();
        }
        let legacy = match replies.pop() {
            Some(reply) => parse_reply::<StreamRangeReply>(reply)?.ids,
            None => Vec::new(),
        };
        let mut events = stored_events(legacy)?;
        events.extend(
            listed
                .into_iter()
                .zip(from + 1..)
                .map(|(data, id)| StoredEvent {
                    id: id.to_string(),
                    data,
                }),
        );
        events.truncate(limit);
        Ok(events)
    }
}

#[async_trait]
impl ReadyQueue for RedisStore {
    async fn enqueue(&self, item: &QueueItem) -> Result<String> {
        validate_slag_key(&item.slag)?;
        validate_slag_key(&item.job_id)?;
        let id: String = redis::cmd("XADD")
            .arg(self.keys.ready_queue(partition_of(&item.slag)))
            .arg("*")
            .arg("slag")
            .arg(&item.slag)
            .arg("job")
            .arg(&item.job_id)
            .query_async(&mut self.conn())
            .await?;
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
        let max = max.max(1);
        let reply = if self.is_cluster() {
            self.claim_on_cluster(consumer, acks, max, block).await
        } else {
            self.claim_on_single(consumer, acks, max, block).await
        };
        let streams = match reply {
            Ok(streams) => streams,
            // The group vanishes if someone deletes the stream (FLUSHDB): recreate it once.
            Err(StateError::Redis(error)) if error.code() == Some("NOGROUP") => {
                self.ensure_group().await?;
                return Ok(Vec::new());
            }
            Err(error) => return Err(error),
        };
        let mut deliveries = Vec::new();
        for lane in [Lane::Resumed, Lane::New] {
            for stream in &streams {
                if KeyLayout::lane_of_queue(&stream.key) != Some(lane) {
                    continue;
                }
                for entry in &stream.ids {
                    deliveries.push(delivery_from(entry, lane, true)?);
                }
            }
        }
        // COUNT holds per stream: when several streams had work, the jobs past
        // `max` go back to the ready queue (its tail) rather than wait here.
        if deliveries.len() > max {
            let surplus = deliveries.split_off(max);
            self.give_back(&surplus).await?;
        }
        Ok(deliveries)
    }

    async fn ack(&self, receipts: &[Receipt]) -> Result<()> {
        self.per_partition(&partitions_of(receipts), true, |pipe, partition| {
            self.add_acks(pipe, receipts, partition);
        })
        .await?;
        Ok(())
    }

    async fn reclaim(
        &self,
        consumer: &str,
        min_idle: Duration,
        max: usize,
    ) -> Result<Vec<Delivery>> {
        validate_slag_key(consumer)?;
        let all: Vec<u16> = (0..PARTITIONS).collect();
        let replies = self
            .per_partition(&all, false, |pipe, partition| {
                for lane in [Lane::Resumed, Lane::New] {
                    pipe.cmd("XAUTOCLAIM")
                        .arg(self.lane_key(lane, partition))
                        .arg(KeyLayout::QUEUE_GROUP)
                        .arg(consumer)
                        .arg(min_idle.as_millis() as u64)
                        .arg("0-0")
                        .arg("COUNT")
                        .arg(max.max(1));
                }
            })
            .await?;
        let mut deliveries = Vec::new();
        for replies in replies {
            for (lane, reply) in [Lane::Resumed, Lane::New].into_iter().zip(replies) {
                let reply: StreamAutoClaimReply = parse(reply)?;
                for entry in &reply.claimed {
                    deliveries.push(delivery_from(entry, lane, false)?);
                }
            }
        }
        Ok(deliveries)
    }

    async fn renew(&self, consumer: &str, receipt: &Receipt) -> Result<bool> {
        validate_slag_key(consumer)?;
        validate_stream_id(&receipt.id)?;
        let held: i64 = self
            .scripts
            .renew
            .key(self.lane_key(receipt.lane, receipt.partition))
            .arg(KeyLayout::QUEUE_GROUP)
            .arg(consumer)
            .arg(&receipt.id)
            .invoke_async(&mut self.conn())
            .await?;
        Ok(held == 1)
    }

    async fn queue_stats(&self) -> Result<QueueStats> {
        let all: Vec<u16> = (0..PARTITIONS).collect();
        let replies = self
            .per_partition(&all, false, |pipe, partition| {
                for lane in [Lane::New, Lane::Resumed] {
                    let queue = self.lane_key(lane, partition);
                    pipe.cmd("XLEN")
                        .arg(&queue)
                        .cmd("XPENDING")
                        .arg(&queue)
                        .arg(KeyLayout::QUEUE_GROUP);
                }
            })
            .await?;
        // XPENDING's summary starts with the pending count.
        let pending_of = |pending: &Value| match pending {
            Value::Array(items) => match items.first() {
                Some(Value::Int(count)) => *count as u64,
                _ => 0,
            },
            _ => 0,
        };
        let (mut length, mut pending) = (0u64, 0u64);
        for replies in replies {
            for pair in replies.chunks(2) {
                if let [len, summary] = pair {
                    length += parse::<u64>(len.clone())?;
                    pending += pending_of(summary);
                }
            }
        }
        Ok(QueueStats {
            ready: length.saturating_sub(pending),
            pending,
        })
    }
}

impl RedisStore {
    /// Acks and one read of every lane of every partition, in one round trip
    /// (blocking on all of them when none has work).
    async fn claim_on_single(
        &self,
        consumer: &str,
        acks: &[Receipt],
        max: usize,
        block: Duration,
    ) -> Result<Vec<StreamKey>> {
        let mut pipe = redis::pipe();
        for partition in partitions_of(acks) {
            self.add_acks(&mut pipe, acks, partition);
        }
        let acks_sent = pipe.len();
        let blocking = !block.is_zero();
        let mut streams = Vec::with_capacity(2 * usize::from(PARTITIONS));
        // Resumed lanes first: their jobs are handed out first.
        for lane in [Lane::Resumed, Lane::New] {
            for partition in 0..PARTITIONS {
                streams.push(self.lane_key(lane, partition));
            }
        }
        pipe.add_command(read_group(
            consumer,
            max,
            blocking.then_some(block),
            &streams,
        ));
        let replies: Vec<Value> = if blocking {
            let mut connection = self.blocking_connection(consumer).await?;
            count_round_trip();
            let replies = pipe.query_async(&mut connection).await;
            if replies.is_err() {
                self.forget_blocking_connection(consumer).await;
            }
            replies?
        } else {
            pipe.query_async(&mut self.conn()).await?
        };
        let read = replies.into_iter().nth(acks_sent).unwrap_or(Value::Nil);
        Ok(parse::<Option<StreamReadReply>>(read)?.map_or_else(Vec::new, |reply| reply.keys))
    }

    /// On a cluster the partitions live in different slots: acks per
    /// partition with a read of each without blocking; while all are empty
    /// and `block` lasts, a short blocking read of one partition in turn, then
    /// another sweep (a job in another partition waits at most one turn).
    async fn claim_on_cluster(
        &self,
        consumer: &str,
        acks: &[Receipt],
        max: usize,
        block: Duration,
    ) -> Result<Vec<StreamKey>> {
        let deadline = tokio::time::Instant::now() + block;
        let all: Vec<u16> = (0..PARTITIONS).collect();
        let mut acks = acks;
        loop {
            let replies = self
                .per_partition(&all, false, |pipe, partition| {
                    self.add_acks(pipe, acks, partition);
                    pipe.add_command(read_group(consumer, max, None, &self.lanes(partition)));
                })
                .await?;
            acks = &[];
            let mut streams = Vec::new();
            for replies in replies {
                if let Some(read) = replies.into_iter().last()
                    && let Some(reply) = parse::<Option<StreamReadReply>>(read)?
                {
                    streams.extend(reply.keys);
                }
            }
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if !streams.is_empty() || left.is_zero() {
                return Ok(streams);
            }
            let turn = self.next_block.fetch_add(1, Ordering::Relaxed) % usize::from(PARTITIONS);
            let lanes = self.lanes(turn as u16);
            let mut connection = self.blocking_connection(consumer).await?;
            count_round_trip();
            let read: redis::RedisResult<Option<StreamReadReply>> =
                read_group(consumer, max, Some(left.min(CLUSTER_CLAIM_BLOCK)), &lanes)
                    .query_async(&mut connection)
                    .await;
            if read.is_err() {
                self.forget_blocking_connection(consumer).await;
            }
            if let Some(reply) = read? {
                return Ok(reply.keys);
            }
        }
    }
}

/// XREADGROUP of new entries of `streams` for `consumer`, blocking for `block`
/// when given (BLOCK 0 would mean forever in Redis).
fn read_group(
    consumer: &str,
    max: usize,
    block: Option<Duration>,
    streams: &[String],
) -> redis::Cmd {
    let mut command = redis::cmd("XREADGROUP");
    command
        .arg("GROUP")
        .arg(KeyLayout::QUEUE_GROUP)
        .arg(consumer)
        .arg("COUNT")
        .arg(max);
    if let Some(block) = block {
        command.arg("BLOCK").arg(block.as_millis().max(1) as u64);
    }
    command.arg("STREAMS").arg(streams);
    for _ in streams {
        command.arg(">");
    }
    command
}

fn parse<T: redis::FromRedisValue>(value: Value) -> Result<T> {
    redis::from_redis_value(value).map_err(|error| StateError::UnexpectedReply(error.to_string()))
}

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
        let existing: Option<String> = self
            .scripts
            .remember
            .key(self.keys.idempotency(slag, key))
            .arg(value)
            .arg(ttl.as_millis().max(1) as u64)
            .invoke_async(&mut self.conn())
            .await?;
        Ok(existing)
    }

    async fn recall(&self, slag: &str, key: &str) -> Result<Option<String>> {
        validate_slag_key(slag)?;
        validate_idempotency_key(key)?;
        let value: Option<String> = redis::cmd("GET")
            .arg(self.keys.idempotency(slag, key))
            .query_async(&mut self.conn())
            .await?;
        Ok(value)
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
fn expect_args(expect: DocExpect<'_>) -> (&'static str, &str) {
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
