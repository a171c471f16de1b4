//! The Lua scripts of the Redis backend: every compare-and-set and multi-key
//! index update is one script (atomic, one round trip).

use super::*;

/// `script`, after the Lua functions job scripts share: `append_events`, to
/// append a write's events to the job's log and publish them on its
/// partition's feed channel in one message, with the partition's running
/// count (a subscriber that sees the count skip knows it missed one:
/// `watch.rs`), returning the last event's id (its position in the log);
/// and `load_job` / `store_job`.
///
/// A job's key is a string: a header line `<version> <status> <created_ms>
/// <waiting 0|1|p>` (what the scripts keep indexes by), then the record — or,
/// for `p`, a waiting job parked: its record and its events packed into one
/// value ([`crate::park`]), its log's list deleted. A hash
/// with those as fields costs a paused job about 350 bytes more: its record
/// is above `hash-max-listpack-value`, which makes the hash a hashtable. A job
/// still stored as such a hash (by a version before this layout) is read as
/// one, and stored as a string on its next write.
pub(super) fn job_script(script: &str) -> Script {
    Script::new(&format!(
        r"
local function append_events(log, feed, count, job, events)
  local last = 0
  for at = 1, #events, 512 do
    last = redis.call('RPUSH', log, unpack(events, at, math.min(at + 511, #events)))
  end
  local n = redis.call('INCR', count)
  local lengths = {{}}
  for i = 1, #events do lengths[i] = string.len(events[i]) end
  redis.call('PUBLISH', feed, n .. ' ' .. (last - #events + 1) .. ' ' .. job .. ' '
    .. table.concat(lengths, ',') .. '\n' .. table.concat(events))
  return last
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
pub(super) const APPEND_EVENT: &str = r"
local stored, status, created, waiting = load_job(KEYS[4], false)
if waiting == 'p' then return redis.error_reply('PARKED the job is parked: write it to append') end
return append_events(KEYS[1], KEYS[2], KEYS[3], ARGV[1], {ARGV[2]})
";

/// KEYS: job, jobs index, log, status index, ready queue, feed, feed count.
/// ARGV: data, created_ms, job_id, status, has event (0|1), event, enqueue
/// (0|1), slag.
pub(super) const CREATE_JOB: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
store_job(KEYS[1], '1', ARGV[4], ARGV[2], '0', ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[3])
if ARGV[5] == '1' then append_events(KEYS[3], KEYS[6], KEYS[7], ARGV[8] .. ':' .. ARGV[3], {ARGV[6]}) end
if ARGV[7] == '1' then
  redis.call('XADD', KEYS[5], '*', 'slag', ARGV[8], 'job', ARGV[3], 'v', 1, 'd', ARGV[1])
end
return 1
";

/// KEYS: job, waiting index, log, queue lane, new status index, feed, feed
/// count, the skill's policy mark (the job's key when the write checks
/// none), the partition's unparked index. ARGV: expected version, has data (0|1), data, waiting op
/// (keep|set|clear), since_ms, job_id, slag, enqueue (0|1), status, status
/// index prefix, next version, event count, policy check (''|held|read),
/// the policy's etag, events…, restored count (-1: none), the parked job's
/// events….
/// Returns {1, new version} | {0, stored version} | {-1, 0} (not found) |
/// {-2, stored version, its key} (parked, and the write brought no record or
/// no log to restore: the caller unpacks the key and writes again) | {-3,
/// stored version} (a `held` policy the mark does not name: `PolicyCheck`).
/// A parked job's log is restored first, so its events keep their ids. A
/// job that waits unparked is in its partition's unparked index, scored by
/// when it started waiting, for the sweep that parks it (`PARK_READ`).
/// A waiting job is in the waiting index and in no status index (one entry
/// per paused job, not two; a version before this one kept it in both, so
/// leaving the waiting index also removes it from its status's). The waiting
/// index is touched only when the job enters or leaves it, the status
/// indexes only when the status or that changes. Versions stay text: the
/// caller sends the next one, so the script neither parses nor formats a
/// number (Lua's number formatting cost more than the rest of the write).
pub(super) const WRITE_JOB: &str = r"
local stored, status, created, waiting, data = load_job(KEYS[1], ARGV[2] ~= '1')
if not stored then return {-1, 0} end
if stored ~= ARGV[1] then return {0, stored} end
if ARGV[13] ~= '' then
  local mark = redis.call('GET', KEYS[8])
  if ARGV[13] == 'held' then
    if mark ~= ARGV[14] then return {-3, stored} end
  elseif not mark then
    redis.call('SET', KEYS[8], ARGV[14])
  end
end
local was_unparked = waiting == '1'
local restore_at = 15 + tonumber(ARGV[12])
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
local events = {}
for i = 1, tonumber(ARGV[12]) do events[i] = ARGV[14 + i] end
if #events > 0 then append_events(KEYS[3], KEYS[6], KEYS[7], job, events) end
if waiting == '1' then
  if not was_unparked then
    redis.call('ZADD', KEYS[9], redis.call('ZSCORE', KEYS[2], ARGV[6]) or ARGV[5], job)
  end
elseif was_unparked then
  redis.call('ZREM', KEYS[9], job)
end
if ARGV[8] == '1' then
  redis.call('XADD', KEYS[4], '*', 'slag', ARGV[7], 'job', ARGV[6], 'v', version, 'd', data)
end
return {1, version}
";

/// KEYS: the partition's unparked index, then each job's key and log.
/// ARGV: each job's member of the index (`<slag>:<job_id>`). For each job
/// that waits unparked: {version, record, its log}; for one that does not
/// (answered, parked or gone since it was listed): {} — and it leaves the
/// index.
pub(super) const PARK_READ: &str = r"
local found = {}
for i = 1, #ARGV do
  local key, log = KEYS[2 * i], KEYS[2 * i + 1]
  local stored, status, created, waiting, data = load_job(key, true)
  if stored and waiting == '1' then
    found[i] = {stored, data, redis.call('LRANGE', log, 0, -1)}
  else
    redis.call('ZREM', KEYS[1], ARGV[i])
    found[i] = {}
  end
end
return found
";

/// KEYS: the partition's unparked index, then each job's key and log. ARGV:
/// for each job its member of the index, the version read, the events read,
/// the packed job. Parks each job still at that version, waiting unparked,
/// with that many events (its key holds the packed job, its log is
/// deleted, it leaves the index); returns how many it parked.
pub(super) const PARK_JOBS: &str = r"
local parked = 0
for i = 1, #ARGV / 4 do
  local key, log, at = KEYS[2 * i], KEYS[2 * i + 1], 4 * (i - 1)
  local stored, status, created, waiting = load_job(key, false)
  if stored == ARGV[at + 2] and waiting == '1'
      and redis.call('LLEN', log) == tonumber(ARGV[at + 3]) then
    store_job(key, stored, status, created, 'p', ARGV[at + 4])
    redis.call('DEL', log)
    redis.call('ZREM', KEYS[1], ARGV[at + 1])
    parked = parked + 1
  end
end
return parked
";

/// KEYS: job, log, jobs index, waiting index, legacy event stream, the
/// partition's unparked index. ARGV: job_id, status index prefix, the job's
/// member of the unparked index.
pub(super) const DELETE_JOB: &str = r"
local stored, status = load_job(KEYS[1], false)
if stored and status ~= '' then redis.call('ZREM', ARGV[2] .. status, ARGV[1]) end
redis.call('ZREM', KEYS[6], ARGV[3])
redis.call('DEL', KEYS[1], KEYS[2], KEYS[5])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
if stored then return 1 end
return 0
";

/// KEYS: idempotency key. ARGV: value, ttl ms. Returns the existing value or false.
pub(super) const REMEMBER: &str = r"
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false
";

/// KEYS: a counter. ARGV: its window in ms. The count after this one; the
/// window starts with the first.
pub(super) const COUNT: &str = r"
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count
";

/// KEYS: queue lane. ARGV: group, consumer, delivery id. 1 when the consumer
/// still holds the delivery (its idle time is reset), else 0.
pub(super) const RENEW: &str = r"
local held = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1, ARGV[2])
if #held == 0 then return 0 end
redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[3], 'JUSTID')
return 1
";

/// KEYS: slot set. ARGV: member, limit. 1 when the member holds a slot.
pub(super) const CLAIM_SLOT: &str = r"
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
return 1
";

/// KEYS: cache entry. ARGV: value, fresh ms, keep ms.
pub(super) const CACHE_PUT: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[1], 'v', ARGV[1], 's', now, 'f', now + tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
";

/// KEYS: cache entry. Returns {value, fresh 0|1, age ms} or false.
pub(super) const CACHE_GET: &str = r"
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
pub(super) const DOC_GET: &str = r"
local e = redis.call('HGET', KEYS[1], 'e')
if not e then return false end
if e == ARGV[1] then return {e} end
return {e, redis.call('HGET', KEYS[1], 'b')}
";

/// KEYS: document, scope index. ARGV: expect (any|absent|etag), expected
/// etag, etag, body, name. 1 when written.
pub(super) const DOC_PUT: &str = r"
local e = redis.call('HGET', KEYS[1], 'e')
if ARGV[1] == 'absent' and e then return 0 end
if ARGV[1] == 'etag' and e ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'e', ARGV[3], 'b', ARGV[4])
redis.call('SADD', KEYS[2], ARGV[5])
return 1
";

/// KEYS: document, scope index. ARGV: expect (any|etag), expected etag, name.
/// 1 when removed.
pub(super) const DOC_DELETE: &str = r"
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
pub(super) const ARTIFACT_PUT: &str = r"
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
pub(super) const ARTIFACT_GET: &str = r"
local body = redis.call('GET', KEYS[3])
if not body then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return false
end
redis.call('ZADD', KEYS[1], redis.call('HINCRBY', KEYS[2], 'clock', 1), ARGV[1])
return body
";
