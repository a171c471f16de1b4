//! Jobs: records as strings with a header the scripts index by, parked
//! jobs, pages of a slag's jobs (`JobStore`).

use super::*;

pub(super) fn stored_events(entries: Vec<StreamId>) -> Result<Vec<StoredEvent>> {
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
pub(super) struct KeyedJob {
    pub(super) record: VersionedRecord,
    pub(super) parked_events: Option<Vec<Vec<u8>>>,
}

/// A job's key, as the job scripts store it: the header line, whose first
/// word is the version and whose fourth is `p` for a parked job, then the
/// record or the packed job.
pub(super) fn job_from_key(mut raw: Vec<u8>) -> Result<KeyedJob> {
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

pub(super) fn check_job(slag: &str, job_id: &str) -> Result<()> {
    validate_slag_key(slag)?;
    validate_slag_key(job_id)
}

pub(super) fn page_from<T>(mut items: Vec<T>, request: PageRequest, limit: usize) -> Page<T> {
    let has_more = items.len() > limit;
    items.truncate(limit);
    Page {
        items,
        next_offset: has_more.then(|| request.offset + limit as u64),
    }
}

pub(super) fn delivery_from(entry: &StreamId, lane: Lane, with_record: bool) -> Result<Delivery> {
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
        let policy_key = match write.policy {
            Some(check) => {
                validate_slag_key(check.tenant)?;
                Some(self.keys.policy(slag, check.tenant))
            }
            None => None,
        };
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
                .key(policy_key.as_deref().unwrap_or(&key))
                .key(self.keys.unparked(partition_of(slag)))
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
                .arg(write.events.len())
                .arg(match write.policy.map(|check| check.seen) {
                    None => "",
                    Some(PolicySeen::Held) => "held",
                    Some(PolicySeen::Read) => "read",
                })
                .arg(write.policy.map_or("", |check| check.etag));
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
                    if let WaitingChange::Set { since_ms } = write.waiting {
                        self.to_park.paused(partition_of(slag), since_ms);
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
                -3 => {
                    return Err(StateError::PolicyChanged {
                        slag: slag.to_owned(),
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

    async fn park_waiting(
        &self,
        before_ms: u64,
        limit: usize,
        every_partition: bool,
    ) -> Result<usize> {
        let mut parked = 0;
        for partition in self.to_park.due(before_ms, every_partition) {
            let (count, full) = self.park_partition(partition, before_ms, limit).await?;
            parked += count;
            if !full {
                self.to_park.swept(partition, before_ms);
            }
        }
        Ok(parked)
    }

    async fn mark_policy(&self, tenant: &str, slag: &str, mark: PolicyMark<'_>) -> Result<()> {
        validate_slag_key(slag)?;
        validate_slag_key(tenant)?;
        let value = match mark {
            // No etag looks like this: a check against it never holds.
            PolicyMark::Changing => "~",
            PolicyMark::Current(etag) => etag,
        };
        let () = redis::cmd("SET")
            .arg(self.keys.policy(slag, tenant))
            .arg(value)
            .query_async(&mut self.conn())
            .await?;
        Ok(())
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
            .key(self.keys.unparked(partition_of(slag)))
            .arg(job_id)
            .arg(self.keys.status_index(slag, ""))
            .arg(feed_job(slag, job_id))
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

    async fn jobs_newest(
        &self,
        slag: &str,
        (from_ms, to_ms): (u64, u64),
        skip: usize,
        limit: usize,
    ) -> Result<Vec<(u64, String)>> {
        validate_slag_key(slag)?;
        if limit == 0 || from_ms > to_ms {
            return Ok(Vec::new());
        }
        // Equal scores come in reverse lexicographic order of the member
        // under ZREVRANGEBYSCORE: newest first, then id descending.
        let rows: Vec<(String, f64)> = redis::cmd("ZREVRANGEBYSCORE")
            .arg(self.keys.jobs_index(slag))
            .arg(to_ms)
            .arg(from_ms)
            .arg("WITHSCORES")
            .arg("LIMIT")
            .arg(skip)
            .arg(limit)
            .query_async(&mut self.conn())
            .await?;
        Ok(rows
            .into_iter()
            .map(|(id, score)| (score as u64, id))
            .collect())
    }
}
