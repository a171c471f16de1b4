//! Connections: one Redis or a Redis Cluster behind one type, and the
//! process' count of round trips (`adas_redis_round_trips_total`).

use super::*;

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
pub(super) const CLUSTER_BLOCKING_TIMEOUT: Duration = Duration::from_secs(60);

/// How long the shared connection waits for a reply. The client's 500 ms
/// default failed WatchJob calls with "timed out" while a busy process had
/// its replies waiting to be read (400 watchers joining at once under load);
/// and a write that times out has an unknown outcome, so a spurious timeout
/// costs more than a late one. A dead Redis refuses connections at once.
pub(super) const RESPONSE_TIMEOUT: Duration = Duration::from_secs(5);

/// On a cluster a claim cannot block on every partition at once (they live
/// in different slots): it sweeps them all without blocking, then blocks on
/// one in turn for at most this long.
pub(super) const CLUSTER_CLAIM_BLOCK: Duration = Duration::from_millis(100);

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

/// Requests this process has sent to Redis (all stores).
pub(super) static ROUND_TRIPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

pub(crate) fn count_round_trip() {
    ROUND_TRIPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    // On the metrics page as `adas_redis_round_trips_total` (adas-bench reads it).
    metrics::counter!("adas_redis_round_trips_total").increment(1);
}

/// Round trips this process has made to Redis, for the metrics page.
pub fn redis_round_trips() -> u64 {
    ROUND_TRIPS.load(std::sync::atomic::Ordering::Relaxed)
}
