//! The ready queue: partitioned streams, one consumer group, two lanes
//! (`ReadyQueue`).

use super::*;

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
pub(super) fn read_group(
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

pub(super) fn parse<T: redis::FromRedisValue>(value: Value) -> Result<T> {
    redis::from_redis_value(value).map_err(|error| StateError::UnexpectedReply(error.to_string()))
}
