//! Job events: each job's log and its partition's feed channel
//! (`EventLog`), which WatchJob's fan-out subscribes to.

use super::*;

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
        // One subscription carries every partition's channel, on a cluster
        // too (what a node publishes reaches every node's subscribers).
        let watch = self.watchers.watch(|| self.feeds(), feed_job(slag, job_id));
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
                // The reader is subscribing; it wakes us.
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
pub(super) fn validate_stream_id(id: &str) -> Result<()> {
    match EventCursor::parse(Some(id)) {
        Ok(EventCursor::Legacy(..)) => Ok(()),
        _ => Err(StateError::InvalidKey {
            part: id.chars().take(64).collect(),
            reason: "not a stream entry id",
        }),
    }
}

/// One reply of a pipeline whose replies differ in type.
pub(super) fn parse_reply<T: redis::FromRedisValue>(reply: Value) -> Result<T> {
    Ok(redis::from_redis_value(reply).map_err(redis::RedisError::from)?)
}

/// A job as its partition's feed names it.
pub(super) fn feed_job(slag: &str, job_id: &str) -> String {
    format!("{slag}:{job_id}")
}

impl RedisStore {
    /// Parks the jobs of `partition` that have waited unparked since before
    /// `before_ms`, at most `limit` (see [`park`]): their records and logs
    /// read in one script, packed here, written back in one more (a job
    /// written since is left as it is). How many it parked, and whether
    /// `limit` were listed (more may wait).
    pub(super) async fn park_partition(
        &self,
        partition: u16,
        before_ms: u64,
        limit: usize,
    ) -> Result<(usize, bool)> {
        let index = self.keys.unparked(partition);
        let members: Vec<String> = redis::cmd("ZRANGEBYSCORE")
            .arg(&index)
            .arg("-inf")
            .arg(before_ms)
            .arg("LIMIT")
            .arg(0)
            .arg(limit)
            .query_async(&mut self.conn())
            .await?;
        let full = members.len() >= limit;
        // Members are written by the job scripts from checked names.
        let jobs: Vec<(&str, &str, &str)> = members
            .iter()
            .filter_map(|member| {
                let (slag, job_id) = member.split_once(':')?;
                Some((member.as_str(), slag, job_id))
            })
            .collect();
        if jobs.is_empty() {
            return Ok((0, full));
        }
        let mut read = self.scripts.park_read.key(&index);
        for (member, slag, job_id) in &jobs {
            read.key(self.keys.job(slag, job_id))
                .key(self.keys.events(slag, job_id))
                .arg(*member);
        }
        let replies: Vec<Vec<Value>> = read.invoke_async(&mut self.conn()).await?;
        let mut park = self.scripts.park_jobs.key(&index);
        let mut packed = 0;
        for ((member, slag, job_id), reply) in jobs.iter().zip(replies) {
            let mut fields = reply.into_iter();
            let (Some(version), Some(record), Some(log)) =
                (fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            let version: Version = parse_reply(version)?;
            let (record, log): (Vec<u8>, Vec<Vec<u8>>) = (parse_reply(record)?, parse_reply(log)?);
            park.key(self.keys.job(slag, job_id))
                .key(self.keys.events(slag, job_id))
                .arg(*member)
                .arg(version)
                .arg(log.len())
                .arg(park::pack(&record, &log));
            packed += 1;
        }
        if packed == 0 {
            return Ok((0, full));
        }
        let parked: usize = park.invoke_async(&mut self.conn()).await?;
        Ok((parked, full))
    }

    /// A parked job's events; `None` for a job that is not parked (or gone).
    pub(super) async fn parked_events(
        &self,
        slag: &str,
        job_id: &str,
    ) -> Result<Option<Vec<Vec<u8>>>> {
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

    /// The feed channels the watch reader subscribes to: every partition's.
    pub(super) fn feeds(&self) -> Vec<String> {
        (0..PARTITIONS)
            .map(|partition| self.keys.feed(partition))
            .collect()
    }

    /// The records of `job_ids` (checked keys), in one round trip: a pipeline
    /// of `GET`s, and a second for any job still stored as a hash.
    pub(super) async fn load_jobs(
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
    pub(super) async fn read_log(
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
