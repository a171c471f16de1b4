//! One conformance suite, run against every backend: the in-memory store, the
//! Redis store on a private `redis-server` started for each test, and the
//! Redis store on a private three-primary Redis Cluster (shared by the tests
//! running at the same time, each with a tenant of its own).

#![allow(
    clippy::too_many_lines,
    reason = "a test reads as one story; the length cap is for the product's code"
)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use adas_state::{
    ArtifactBounds, DocExpect, DocRead, EventLog, JobStore, JobWrite, KeyLayout, Lane, MemoryStore,
    NewJob, PageRequest, PolicyCheck, PolicyMark, PolicySeen, QueueItem, RedisStore, StateError,
    StateStore, Version, WaitingChange, WaitingEntry, WaitingIndex,
};
use adas_testkit::{RedisCluster, RedisServer};

/// A store plus whatever keeps its backend alive.
struct Harness {
    store: Arc<dyn StateStore>,
    _redis: Option<RedisServer>,
    _cluster: Option<Arc<RedisCluster>>,
}

async fn memory() -> Harness {
    Harness {
        store: Arc::new(MemoryStore::new()),
        _redis: None,
        _cluster: None,
    }
}

async fn cluster() -> Harness {
    static SHARED: std::sync::Mutex<std::sync::Weak<RedisCluster>> =
        std::sync::Mutex::new(std::sync::Weak::new());
    static TENANTS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    // The last test holding it stops it; a later test starts another.
    let cluster = {
        let mut shared = SHARED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match shared.upgrade() {
            Some(cluster) => cluster,
            None => {
                let cluster = Arc::new(RedisCluster::start());
                *shared = Arc::downgrade(&cluster);
                cluster
            }
        }
    };
    let tenant = format!(
        "c{}",
        TENANTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    let store = RedisStore::connect(&cluster.url(), &tenant)
        .await
        .expect("connect to private redis cluster");
    assert!(
        store.is_cluster(),
        "a cluster seed must give a cluster store"
    );
    Harness {
        store: Arc::new(store),
        _redis: None,
        _cluster: Some(cluster),
    }
}

async fn redis() -> Harness {
    let server = RedisServer::start();
    let store = RedisStore::connect(&server.url(), "t1")
        .await
        .expect("connect to private redis");
    Harness {
        store: Arc::new(store),
        _redis: Some(server),
        _cluster: None,
    }
}

/// Polls `check` until it holds or 10 s pass: waiting on a condition, not a fixed sleep.
async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if check().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("condition never held: {what}");
}

/// A job created in status `queued`, not queued, with at most one event.
async fn create(
    store: &dyn StateStore,
    slag: &str,
    job_id: &str,
    data: &[u8],
    created_ms: u64,
    event: Option<&[u8]>,
) -> adas_state::Result<Version> {
    let job = NewJob {
        data,
        created_ms,
        status: "queued",
        event,
        enqueue: false,
    };
    store.create_job(slag, job_id, job).await
}

/// A write that keeps the status `queued`, with at most one event.
async fn update(
    store: &dyn StateStore,
    slag: &str,
    job_id: &str,
    expected: Version,
    data: &[u8],
    waiting: WaitingChange,
    event: Option<&[u8]>,
) -> adas_state::Result<Version> {
    let events: Vec<&[u8]> = event.into_iter().collect();
    let write = JobWrite {
        policy: None,
        expected,
        data: Some(data),
        status: "queued",
        waiting,
        events: &events,
        enqueue: None,
    };
    store.write_job(slag, job_id, write).await
}

fn page(offset: u64, limit: usize) -> PageRequest {
    PageRequest { offset, limit }
}

#[path = "conformance/cases_jobs.rs"]
mod cases_jobs;
#[path = "conformance/cases_stores.rs"]
mod cases_stores;
#[path = "conformance/cases_writes.rs"]
mod cases_writes;

mod cases {
    pub use super::cases_jobs::*;
    pub use super::cases_stores::*;
    pub use super::cases_writes::*;
}

macro_rules! conformance {
    ($backend:ident) => {
        mod $backend {
            use super::*;

            #[tokio::test]
            async fn lists_by_status_read_an_index() {
                cases::lists_by_status_read_an_index(&*super::$backend().await.store).await;
            }

            #[tokio::test]
            async fn resumed_jobs_are_claimed_before_new_ones() {
                cases::resumed_jobs_are_claimed_before_new_ones(&*super::$backend().await.store)
                    .await;
            }

            #[tokio::test]
            async fn documents_are_compared_and_set() {
                cases::documents_are_compared_and_set(&*super::$backend().await.store).await;
            }

            #[tokio::test]
            async fn job_lifecycle() {
                cases::job_lifecycle(&*super::$backend().await.store).await;
            }

            #[tokio::test]
            async fn stale_write_fails_and_changes_nothing() {
                cases::stale_write_fails_and_changes_nothing(&*super::$backend().await.store).await;
            }

            #[tokio::test]
            async fn a_packed_job_reads_the_same() {
                let packs = stringify!($backend) != "memory";
                cases::a_packed_job_reads_the_same(&*super::$backend().await.store, packs).await;
            }

            #[tokio::test]
            async fn a_write_relies_on_the_policy_mark() {
                cases::a_write_relies_on_the_policy_mark(&*super::$backend().await.store).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn concurrent_writers_exactly_one_wins() {
                let harness = super::$backend().await;
                cases::concurrent_writers_exactly_one_wins(harness.store.clone()).await;
            }

            #[tokio::test]
            async fn jobs_are_listed_in_pages() {
                cases::jobs_are_listed_in_pages(&*super::$backend().await.store).await;
            }

            #[tokio::test]
            async fn jobs_are_read_newest_first_in_a_time_window() {
                cases::jobs_are_read_newest_first_in_a_time_window(&*super::$backend().await.store)
                    .await;
            }

            #[tokio::test]
            async fn waiting_index_follows_job_writes() {
                cases::waiting_index_follows_job_writes(&*super::$backend().await.store).await;
            }

            #[tokio::test]
            async fn events_append_and_resume() {
                cases::events_append_and_resume(&*super::$backend().await.store).await;
            }

            #[tokio::test]
            async fn queue_claim_and_ack() {
                cases::queue_claim_and_ack(&*super::$backend().await.store).await;
            }

            #[tokio::test]
            async fn jobs_of_many_slags_are_claimed_once() {
                cases::jobs_of_many_slags_are_claimed_once(&*super::$backend().await.store).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn blocked_claim_wakes_on_enqueue() {
                let harness = super::$backend().await;
                cases::blocked_claim_wakes_on_enqueue(harness.store.clone()).await;
            }

            #[tokio::test]
            async fn many_jobs_are_read_at_once_in_order() {
                cases::many_jobs_are_read_at_once_in_order(&*super::$backend().await.store).await;
            }

            #[tokio::test]
            async fn a_transition_writes_its_events_and_wake_up_in_one_step() {
                cases::a_transition_writes_its_events_and_wake_up_in_one_step(
                    &*super::$backend().await.store,
                )
                .await;
            }

            #[tokio::test]
            async fn a_write_and_its_event_are_one_step() {
                cases::a_write_and_its_event_are_one_step(&*super::$backend().await.store).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn a_blocked_event_read_wakes_on_append() {
                let harness = super::$backend().await;
                cases::a_blocked_event_read_wakes_on_append(harness.store.clone()).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn many_watchers_each_get_their_jobs_events() {
                let harness = super::$backend().await;
                cases::many_watchers_each_get_their_jobs_events(harness.store.clone()).await;
            }

            #[tokio::test]
            async fn artifacts_are_bounded_and_the_least_recently_used_goes_first() {
                cases::artifacts_are_bounded_and_the_least_recently_used_goes_first(
                    &*super::$backend().await.store,
                )
                .await;
            }

            #[tokio::test]
            async fn crashed_consumer_is_reclaimed() {
                cases::crashed_consumer_is_reclaimed(&*super::$backend().await.store).await;
            }

            #[tokio::test]
            async fn renewed_leases_are_kept_and_reclaims_fence() {
                cases::renewed_leases_are_kept_and_reclaims_fence(&*super::$backend().await.store)
                    .await;
            }

            #[tokio::test]
            async fn old_jobs_are_found_by_status_and_age() {
                cases::old_jobs_are_found_by_status_and_age(&*super::$backend().await.store).await;
            }

            #[tokio::test]
            async fn idempotency_keys_are_set_once_and_expire() {
                cases::idempotency_keys_are_set_once_and_expire(&*super::$backend().await.store)
                    .await;
            }

            #[tokio::test]
            async fn counts_start_over_after_their_window() {
                cases::counts_start_over_after_their_window(&*super::$backend().await.store).await;
            }

            #[tokio::test]
            async fn approvals_are_set_once_and_apart_from_idempotency_keys() {
                cases::approvals_are_set_once_and_apart_from_idempotency_keys(
                    &*super::$backend().await.store,
                )
                .await;
            }

            #[tokio::test]
            async fn cache_entries_go_stale_then_expire() {
                cases::cache_entries_go_stale_then_expire(&*super::$backend().await.store).await;
            }

            #[tokio::test]
            async fn cache_invalidation() {
                cases::cache_invalidation(&*super::$backend().await.store).await;
            }

            #[tokio::test]
            async fn slots_are_bounded_and_claimed_once() {
                cases::slots_are_bounded_and_claimed_once(&*super::$backend().await.store).await;
            }

            #[tokio::test]
            async fn unsafe_key_parts_are_refused() {
                cases::unsafe_key_parts_are_refused(&*super::$backend().await.store).await;
            }
        }
    };
}

conformance!(memory);
conformance!(redis);
conformance!(cluster);

#[path = "conformance/redis_park.rs"]
mod redis_park;
#[path = "conformance/redis_watch.rs"]
mod redis_watch;
