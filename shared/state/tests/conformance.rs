//! One conformance suite, run against every backend: the in-memory store, the
//! Redis store on a private `redis-server` started for each test, and the
//! Redis store on a private three-primary Redis Cluster (shared by the tests
//! running at the same time, each with a tenant of its own).

use std::sync::Arc;
use std::time::{Duration, Instant};

use adas_state::{
    ArtifactBounds, DocExpect, DocRead, EventLog, JobStore, JobWrite, KeyLayout, Lane, MemoryStore,
    NewJob, PageRequest, QueueItem, RedisStore, StateError, StateStore, Version, WaitingChange,
    WaitingEntry, WaitingIndex,
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

mod cases {
    use super::*;

    pub async fn job_lifecycle(store: &dyn StateStore) {
        assert_eq!(
            create(store, "cs", "j1", b"{\"a\":1}", 10, None)
                .await
                .unwrap(),
            1
        );
        let record = store
            .get_job("cs", "j1")
            .await
            .unwrap()
            .expect("created job");
        assert_eq!(
            (record.version, record.data.as_slice()),
            (1, b"{\"a\":1}".as_slice())
        );

        let version = update(
            store,
            "cs",
            "j1",
            1,
            b"{\"a\":2}",
            WaitingChange::Keep,
            None,
        )
        .await
        .unwrap();
        assert_eq!(version, 2);
        let record = store.get_job("cs", "j1").await.unwrap().unwrap();
        assert_eq!(
            (record.version, record.data.as_slice()),
            (2, b"{\"a\":2}".as_slice())
        );

        assert!(matches!(
            create(store, "cs", "j1", b"{}", 11, None).await,
            Err(StateError::AlreadyExists { .. })
        ));
        assert!(matches!(
            update(store, "cs", "nope", 1, b"{}", WaitingChange::Keep, None).await,
            Err(StateError::NotFound { .. })
        ));
        // Another slag never sees the job.
        assert!(store.get_job("other", "j1").await.unwrap().is_none());

        assert!(store.delete_job("cs", "j1").await.unwrap());
        assert!(store.get_job("cs", "j1").await.unwrap().is_none());
        assert!(!store.delete_job("cs", "j1").await.unwrap());
    }

    pub async fn stale_write_fails_and_changes_nothing(store: &dyn StateStore) {
        create(store, "cs", "j1", b"v1", 1, None).await.unwrap();
        update(store, "cs", "j1", 1, b"v2", WaitingChange::Keep, None)
            .await
            .unwrap();
        match update(
            store,
            "cs",
            "j1",
            1,
            b"stale",
            WaitingChange::Set { since_ms: 5 },
            None,
        )
        .await
        {
            Err(StateError::VersionConflict {
                expected, actual, ..
            }) => assert_eq!((expected, actual), (1, 2)),
            other => panic!("a stale write must fail with a version conflict, got {other:?}"),
        }
        let record = store.get_job("cs", "j1").await.unwrap().unwrap();
        assert_eq!(
            (record.version, record.data.as_slice()),
            (2, b"v2".as_slice())
        );
        // The refused write's waiting change was not applied either.
        assert_eq!(store.count_waiting("cs").await.unwrap(), 0);
    }

    pub async fn concurrent_writers_exactly_one_wins(store: Arc<dyn StateStore>) {
        const WRITERS: usize = 8;
        for round in 0..25 {
            let job_id = format!("race-{round}");
            create(&*store, "cs", &job_id, b"initial", round, None)
                .await
                .unwrap();
            let barrier = Arc::new(tokio::sync::Barrier::new(WRITERS));
            let mut tasks = Vec::new();
            for writer in 0..WRITERS {
                let store = store.clone();
                let barrier = barrier.clone();
                let job_id = job_id.clone();
                tasks.push(tokio::spawn(async move {
                    barrier.wait().await;
                    let data = format!("writer-{writer}");
                    let result = update(
                        &*store,
                        "cs",
                        &job_id,
                        1,
                        data.as_bytes(),
                        WaitingChange::Keep,
                        None,
                    )
                    .await;
                    (writer, result)
                }));
            }
            let mut winners = Vec::new();
            for task in tasks {
                let (writer, result) = task.await.unwrap();
                match result {
                    Ok(version) => {
                        assert_eq!(version, 2);
                        winners.push(writer);
                    }
                    Err(StateError::VersionConflict { actual, .. }) => assert_eq!(actual, 2),
                    Err(other) => panic!("unexpected error: {other}"),
                }
            }
            assert_eq!(
                winners.len(),
                1,
                "round {round}: exactly one writer must win, winners: {winners:?}"
            );
            let record = store.get_job("cs", &job_id).await.unwrap().unwrap();
            assert_eq!(record.version, 2);
            assert_eq!(record.data, format!("writer-{}", winners[0]).into_bytes());
        }
    }

    pub async fn jobs_are_listed_in_pages(store: &dyn StateStore) {
        for (n, id) in ["a", "b", "c", "d", "e"].iter().enumerate() {
            create(store, "cs", id, b"{}", 100 + n as u64, None)
                .await
                .unwrap();
        }
        create(store, "ops", "z", b"{}", 1, None).await.unwrap();
        let first = store.list_jobs("cs", None, page(0, 2)).await.unwrap();
        assert_eq!(
            (first.items, first.next_offset),
            (vec!["a".to_owned(), "b".to_owned()], Some(2))
        );
        let second = store.list_jobs("cs", None, page(2, 2)).await.unwrap();
        assert_eq!(
            (second.items, second.next_offset),
            (vec!["c".to_owned(), "d".to_owned()], Some(4))
        );
        let last = store.list_jobs("cs", None, page(4, 2)).await.unwrap();
        assert_eq!((last.items, last.next_offset), (vec!["e".to_owned()], None));
        let other = store.list_jobs("ops", None, page(0, 10)).await.unwrap();
        assert_eq!(other.items, vec!["z".to_owned()]);
        assert!(
            store
                .list_jobs("empty", None, page(0, 10))
                .await
                .unwrap()
                .items
                .is_empty()
        );
    }

    pub async fn waiting_index_follows_job_writes(store: &dyn StateStore) {
        for id in ["j1", "j2", "j3"] {
            create(store, "cs", id, b"{}", 1, None).await.unwrap();
        }
        for (job_id, since_ms) in [("j2", 200), ("j1", 300), ("j3", 100)] {
            let waiting = WaitingChange::Set { since_ms };
            update(store, "cs", job_id, 1, b"paused", waiting, None)
                .await
                .unwrap();
        }
        let entry = |id: &str, since_ms| WaitingEntry {
            job_id: id.into(),
            since_ms,
        };

        let all = store.list_waiting("cs", page(0, 10)).await.unwrap();
        assert_eq!(
            all.items,
            vec![entry("j3", 100), entry("j2", 200), entry("j1", 300)]
        );
        assert_eq!(all.next_offset, None);
        // A waiting job is in the waiting index alone, not in its status's.
        let in_status = async || {
            store
                .list_jobs("cs", Some("queued"), page(0, 10))
                .await
                .unwrap()
                .items
        };
        assert!(in_status().await.is_empty());
        let every = store.list_jobs("cs", None, page(0, 10)).await.unwrap();
        assert_eq!(every.items, ["j1", "j2", "j3"]);
        let first = store.list_waiting("cs", page(0, 2)).await.unwrap();
        assert_eq!(first.next_offset, Some(2));
        assert_eq!(store.count_waiting("cs").await.unwrap(), 3);
        assert_eq!(store.count_waiting("ops").await.unwrap(), 0);
        assert_eq!(
            store.waiting_before("cs", 250, 10).await.unwrap(),
            vec![entry("j3", 100), entry("j2", 200)]
        );

        // Resume clears, keep leaves alone, delete removes.
        update(store, "cs", "j2", 2, b"running", WaitingChange::Clear, None)
            .await
            .unwrap();
        update(
            store,
            "cs",
            "j1",
            2,
            b"still paused",
            WaitingChange::Keep,
            None,
        )
        .await
        .unwrap();
        assert_eq!(store.count_waiting("cs").await.unwrap(), 2);
        assert_eq!(in_status().await, ["j2"], "back in its status' index");
        store.delete_job("cs", "j3").await.unwrap();
        let all = store.list_waiting("cs", page(0, 10)).await.unwrap();
        assert_eq!(all.items, vec![entry("j1", 300)]);
    }

    pub async fn events_append_and_resume(store: &dyn StateStore) {
        create(store, "cs", "j1", b"{}", 1, None).await.unwrap();
        let mut ids = Vec::new();
        for n in 0..3 {
            ids.push(
                store
                    .append_event("cs", "j1", format!("e{n}").as_bytes())
                    .await
                    .unwrap(),
            );
        }
        store.append_event("cs", "j2", b"other job").await.unwrap();

        let all = store.read_events("cs", "j1", None, 100).await.unwrap();
        assert_eq!(
            all.iter()
                .map(|event| event.data.clone())
                .collect::<Vec<_>>(),
            vec![b"e0".to_vec(), b"e1".to_vec(), b"e2".to_vec()]
        );
        assert_eq!(
            all.iter().map(|event| event.id.clone()).collect::<Vec<_>>(),
            ids
        );

        let after_first = store
            .read_events("cs", "j1", Some(&ids[0]), 100)
            .await
            .unwrap();
        assert_eq!(
            after_first
                .iter()
                .map(|event| event.data.clone())
                .collect::<Vec<_>>(),
            vec![b"e1".to_vec(), b"e2".to_vec()]
        );
        let limited = store.read_events("cs", "j1", None, 1).await.unwrap();
        assert_eq!(limited.len(), 1);
        assert!(
            store
                .read_events("cs", "j1", Some(&ids[2]), 100)
                .await
                .unwrap()
                .is_empty()
        );
        assert!(
            store
                .read_events("cs", "unknown", None, 100)
                .await
                .unwrap()
                .is_empty()
        );
        assert!(matches!(
            store.read_events("cs", "j1", Some("not-an-id"), 10).await,
            Err(StateError::InvalidKey { .. })
        ));
        // The last position there can be reads nothing; one past it is no id.
        assert!(
            store
                .read_events("cs", "j1", Some("9223372036854775807"), 10)
                .await
                .unwrap()
                .is_empty()
        );
        assert!(matches!(
            store
                .read_events("cs", "j1", Some("9223372036854775808"), 10)
                .await,
            Err(StateError::InvalidKey { .. })
        ));
    }

    fn item(job_id: &str) -> QueueItem {
        QueueItem {
            slag: "cs".into(),
            job_id: job_id.into(),
        }
    }

    pub async fn queue_claim_and_ack(store: &dyn StateStore) {
        for id in ["q1", "q2", "q3"] {
            store.enqueue(&item(id)).await.unwrap();
        }
        let claimed = store
            .claim("worker-a", &[], 2, Duration::ZERO)
            .await
            .unwrap();
        assert_eq!(
            claimed.iter().map(|d| d.item.clone()).collect::<Vec<_>>(),
            vec![item("q1"), item("q2")]
        );
        let stats = store.queue_stats().await.unwrap();
        assert_eq!((stats.ready, stats.pending), (1, 2));

        // Another consumer gets only what nobody holds.
        let other = store
            .claim("worker-b", &[], 10, Duration::ZERO)
            .await
            .unwrap();
        assert_eq!(
            other.iter().map(|d| d.item.clone()).collect::<Vec<_>>(),
            vec![item("q3")]
        );

        for delivery in claimed.iter().chain(other.iter()) {
            store.ack(&[delivery.receipt()]).await.unwrap();
        }
        let stats = store.queue_stats().await.unwrap();
        assert_eq!((stats.ready, stats.pending), (0, 0));
        assert!(
            store
                .claim("worker-a", &[], 10, Duration::ZERO)
                .await
                .unwrap()
                .is_empty()
        );
        // A short block on an empty queue returns empty.
        assert!(
            store
                .claim("worker-a", &[], 10, Duration::from_millis(20))
                .await
                .unwrap()
                .is_empty()
        );
    }

    /// Slags fall in different partitions (different cluster slots): every
    /// job is claimed once, resumed ones first, and acks find their partition.
    pub async fn jobs_of_many_slags_are_claimed_once(store: &dyn StateStore) {
        let partitions: std::collections::BTreeSet<u16> = (0..24)
            .map(|n| adas_state::partition_of(&format!("slag{n}")))
            .collect();
        assert!(partitions.len() > 8, "slags spread over the partitions");
        let mut expected = std::collections::BTreeSet::new();
        for n in 0..24 {
            let (slag, job_id) = (format!("slag{n}"), format!("job{n}"));
            let job = NewJob {
                data: b"d",
                created_ms: n,
                status: "queued",
                event: None,
                enqueue: true,
            };
            store.create_job(&slag, &job_id, job).await.unwrap();
            expected.insert((slag, job_id));
        }
        // One resumed job: it comes first.
        let write = JobWrite {
            expected: 1,
            data: None,
            status: "queued",
            waiting: WaitingChange::Keep,
            events: &[],
            enqueue: Some(Lane::Resumed),
        };
        store.write_job("slag7", "job7", write).await.unwrap();
        let first = store.claim("w1", &[], 1, Duration::ZERO).await.unwrap();
        assert_eq!(first.len(), 1);
        assert_eq!(
            (first[0].lane, first[0].item.job_id.as_str()),
            (Lane::Resumed, "job7")
        );
        let mut seen = vec![(first[0].item.slag.clone(), first[0].item.job_id.clone())];
        let mut acks = vec![first[0].receipt()];
        loop {
            let claimed = store.claim("w1", &acks, 5, Duration::ZERO).await.unwrap();
            assert!(claimed.len() <= 5, "a claim takes at most `max`");
            if claimed.is_empty() {
                break;
            }
            acks = claimed.iter().map(adas_state::Delivery::receipt).collect();
            seen.extend(
                claimed
                    .into_iter()
                    .map(|delivery| (delivery.item.slag, delivery.item.job_id)),
            );
        }
        store.ack(&acks).await.unwrap();
        // job7 was queued twice (new, then resumed): both deliveries are seen.
        assert_eq!(seen.len(), 25);
        let distinct: std::collections::BTreeSet<_> = seen.into_iter().collect();
        assert_eq!(distinct, expected);
        let stats = store.queue_stats().await.unwrap();
        assert_eq!((stats.ready, stats.pending), (0, 0));
    }

    pub async fn blocked_claim_wakes_on_enqueue(store: Arc<dyn StateStore>) {
        let waiter = {
            let store = store.clone();
            tokio::spawn(async move {
                store
                    .claim("worker-a", &[], 1, Duration::from_secs(20))
                    .await
            })
        };
        store.enqueue(&item("late")).await.unwrap();
        let claimed = waiter.await.unwrap().unwrap();
        assert_eq!(
            claimed.iter().map(|d| d.item.clone()).collect::<Vec<_>>(),
            vec![item("late")]
        );
    }

    pub async fn a_write_and_its_event_are_one_step(store: &dyn StateStore) {
        create(store, "cs", "e1", b"v1", 1, Some(b"created"))
            .await
            .unwrap();
        update(
            store,
            "cs",
            "e1",
            1,
            b"v2",
            WaitingChange::Keep,
            Some(b"updated"),
        )
        .await
        .unwrap();
        // A stale write changes nothing: neither the record nor the log.
        assert!(
            update(
                store,
                "cs",
                "e1",
                1,
                b"stale",
                WaitingChange::Keep,
                Some(b"lost")
            )
            .await
            .is_err()
        );
        assert!(
            create(store, "cs", "e1", b"again", 2, Some(b"created twice"))
                .await
                .is_err()
        );
        let events = store.read_events("cs", "e1", None, 10).await.unwrap();
        assert_eq!(
            events
                .iter()
                .map(|event| event.data.clone())
                .collect::<Vec<_>>(),
            vec![b"created".to_vec(), b"updated".to_vec()]
        );
        assert_eq!(
            store.get_job("cs", "e1").await.unwrap().unwrap().data,
            b"v2".to_vec()
        );
    }

    pub async fn many_jobs_are_read_at_once_in_order(store: &dyn StateStore) {
        create(store, "cs", "m1", b"one", 1, None).await.unwrap();
        create(store, "cs", "m2", b"two", 2, None).await.unwrap();
        let ids = ["m2", "gone", "m1"].map(String::from);
        let records = store.get_jobs("cs", &ids).await.unwrap();
        let data: Vec<Option<Vec<u8>>> = records
            .into_iter()
            .map(|record| record.map(|record| record.data))
            .collect();
        assert_eq!(
            data,
            vec![Some(b"two".to_vec()), None, Some(b"one".to_vec())]
        );
        assert!(store.get_jobs("cs", &[]).await.unwrap().is_empty());
        assert!(
            store.get_jobs("cs", &["a:b".to_owned()]).await.is_err(),
            "ids are validated like get_job's"
        );
    }

    pub async fn a_transition_writes_its_events_and_wake_up_in_one_step(store: &dyn StateStore) {
        create(store, "cs", "b1", b"v1", 1, None).await.unwrap();
        let queued_before = store.queue_stats().await.unwrap().ready;
        // A stale batch changes nothing: no record, no event, no queue item.
        assert!(
            store
                .write_job(
                    "cs",
                    "b1",
                    JobWrite {
                        expected: 7,
                        data: Some(b"stale"),
                        status: "running",
                        waiting: WaitingChange::Keep,
                        events: &[b"lost-1", b"lost-2"],
                        enqueue: Some(Lane::Resumed),
                    },
                )
                .await
                .is_err()
        );
        assert!(
            store
                .read_events("cs", "b1", None, 10)
                .await
                .unwrap()
                .is_empty()
        );
        assert_eq!(store.queue_stats().await.unwrap().ready, queued_before);
        let version = store
            .write_job(
                "cs",
                "b1",
                JobWrite {
                    expected: 1,
                    data: Some(b"v2"),
                    status: "queued",
                    waiting: WaitingChange::Keep,
                    events: &[b"finalized", b"completed"],
                    enqueue: Some(Lane::Resumed),
                },
            )
            .await
            .unwrap();
        assert_eq!(version, 2);
        let events = store.read_events("cs", "b1", None, 10).await.unwrap();
        assert_eq!(
            events
                .iter()
                .map(|event| event.data.clone())
                .collect::<Vec<_>>(),
            vec![b"finalized".to_vec(), b"completed".to_vec()],
            "the events in order"
        );
        let claimed = store
            .claim("batch-consumer", &[], 10, Duration::ZERO)
            .await
            .unwrap();
        let delivery = claimed
            .iter()
            .find(|delivery| delivery.item == item("b1"))
            .expect("the job was enqueued with its write");
        assert_eq!(delivery.lane, Lane::Resumed);
        assert_eq!(
            delivery
                .record
                .clone()
                .map(|record| (record.version, record.data)),
            Some((2, b"v2".to_vec())),
            "the delivery carries the record as written"
        );
    }

    pub async fn lists_by_status_read_an_index(store: &dyn StateStore) {
        for (index, job_id) in ["s1", "s2", "s3", "s4"].into_iter().enumerate() {
            create(store, "cs", job_id, b"{}", 10 + index as u64, None)
                .await
                .unwrap();
        }
        let write = |status: &'static str, expected: Version| JobWrite {
            expected,
            data: None,
            status,
            waiting: WaitingChange::Keep,
            events: &[],
            enqueue: None,
        };
        store
            .write_job("cs", "s3", write("paused", 1))
            .await
            .unwrap();
        store
            .write_job("cs", "s1", write("paused", 1))
            .await
            .unwrap();
        store
            .write_job("cs", "s1", write("paused", 2))
            .await
            .unwrap();
        store
            .write_job("cs", "s2", write("completed", 1))
            .await
            .unwrap();
        let ids = |page: adas_state::Page<String>| page.items;
        assert_eq!(
            ids(store
                .list_jobs("cs", Some("paused"), page(0, 10))
                .await
                .unwrap()),
            ["s1", "s3"],
            "paused jobs, oldest first, each once"
        );
        assert_eq!(
            ids(store
                .list_jobs("cs", Some("queued"), page(0, 10))
                .await
                .unwrap()),
            ["s4"]
        );
        let first = store
            .list_jobs("cs", Some("paused"), page(0, 1))
            .await
            .unwrap();
        assert_eq!(
            (first.items.clone(), first.next_offset),
            (vec!["s1".to_owned()], Some(1))
        );
        assert!(
            store
                .list_jobs("cs", Some("failed"), page(0, 10))
                .await
                .unwrap()
                .items
                .is_empty()
        );
        // A write without data keeps the record and moves the version.
        assert_eq!(
            store
                .get_job("cs", "s1")
                .await
                .unwrap()
                .map(|record| (record.version, record.data)),
            Some((3, b"{}".to_vec()))
        );
        assert!(store.delete_job("cs", "s3").await.unwrap());
        assert_eq!(
            ids(store
                .list_jobs("cs", Some("paused"), page(0, 10))
                .await
                .unwrap()),
            ["s1"],
            "a deleted job leaves its status index"
        );
        assert!(
            store
                .list_jobs("cs", Some("a:b"), page(0, 10))
                .await
                .is_err(),
            "a status is a key part, validated"
        );
    }

    pub async fn resumed_jobs_are_claimed_before_new_ones(store: &dyn StateStore) {
        for job_id in ["n1", "n2"] {
            store
                .create_job(
                    "cs",
                    job_id,
                    NewJob {
                        data: b"new",
                        created_ms: 1,
                        status: "queued",
                        event: None,
                        enqueue: true,
                    },
                )
                .await
                .unwrap();
        }
        create(store, "cs", "r1", b"paused", 2, None).await.unwrap();
        store
            .write_job(
                "cs",
                "r1",
                JobWrite {
                    expected: 1,
                    data: None,
                    status: "queued",
                    waiting: WaitingChange::Keep,
                    events: &[],
                    enqueue: Some(Lane::Resumed),
                },
            )
            .await
            .unwrap();
        let first = store.claim("lanes", &[], 1, Duration::ZERO).await.unwrap();
        assert_eq!(
            first
                .iter()
                .map(|d| (d.item.job_id.as_str(), d.lane))
                .collect::<Vec<_>>(),
            [("r1", Lane::Resumed)],
            "the resumed job first, though queued last"
        );
        assert_eq!(
            first[0].record.clone().map(|record| record.data),
            Some(b"paused".to_vec()),
            "a write without data queues the stored record"
        );
        // Acks ride with the next claim.
        let rest = store
            .claim("lanes", &[first[0].receipt()], 10, Duration::ZERO)
            .await
            .unwrap();
        // n1 came with r1 (COUNT holds per lane) and went back to the tail:
        // both new jobs are here, in either order.
        let mut new: Vec<_> = rest
            .iter()
            .map(|d| (d.item.job_id.as_str(), d.lane))
            .collect();
        new.sort();
        assert_eq!(new, [("n1", Lane::New), ("n2", Lane::New)]);
        assert!(
            rest.iter().all(
                |d| d.record.clone().map(|record| (record.version, record.data))
                    == Some((1, b"new".to_vec()))
            ),
            "a new job's delivery carries its record, given back or not"
        );
        assert_eq!(
            store.queue_stats().await.unwrap().pending,
            2,
            "r1 was acked"
        );
        let receipts: Vec<_> = rest.iter().map(adas_state::Delivery::receipt).collect();
        store.ack(&receipts).await.unwrap();
        let stats = store.queue_stats().await.unwrap();
        assert_eq!((stats.ready, stats.pending), (0, 0));
    }

    pub async fn a_blocked_event_read_wakes_on_append(store: Arc<dyn StateStore>) {
        create(&*store, "cs", "w1", b"{}", 1, None).await.unwrap();
        let first = store.append_event("cs", "w1", b"e0").await.unwrap();
        // Events already there are returned at once.
        let ready = store
            .wait_events("cs", "w1", None, 10, Duration::from_secs(20))
            .await
            .unwrap();
        assert_eq!(ready.len(), 1);
        // Nothing after `first` yet: the read waits for the next append (by anyone),
        // and ignores appends to other jobs.
        let waiter = {
            let store = store.clone();
            let first = first.clone();
            tokio::spawn(async move {
                store
                    .wait_events("cs", "w1", Some(&first), 10, Duration::from_secs(20))
                    .await
            })
        };
        store.append_event("cs", "w2", b"other job").await.unwrap();
        store.append_event("cs", "w1", b"e1").await.unwrap();
        let woken = waiter.await.unwrap().unwrap();
        assert_eq!(
            woken
                .iter()
                .map(|event| event.data.clone())
                .collect::<Vec<_>>(),
            vec![b"e1".to_vec()]
        );
        // With nothing new, the wait ends empty after `block`.
        let last = woken[0].id.clone();
        let timed_out = store
            .wait_events("cs", "w1", Some(&last), 10, Duration::from_millis(50))
            .await
            .unwrap();
        assert!(timed_out.is_empty());
    }

    /// Many watchers at once, some of the same job, over many slags (cluster
    /// partitions): each gets its own job's event, and one that gives up
    /// leaves the others undisturbed.
    pub async fn many_watchers_each_get_their_jobs_events(store: Arc<dyn StateStore>) {
        let jobs: Vec<(String, String)> = (0..120)
            .map(|n| (format!("slag{}", n % 24), format!("watched{n}")))
            .collect();
        for (slag, job_id) in &jobs {
            create(&*store, slag, job_id, b"{}", 1, Some(b"created"))
                .await
                .unwrap();
        }
        let firsts: Vec<String> = {
            let mut firsts = Vec::new();
            for (slag, job_id) in &jobs {
                let events = store.read_events(slag, job_id, None, 1).await.unwrap();
                firsts.push(events[0].id.clone());
            }
            firsts
        };
        let watch = |slag: String, job_id: String, after: String| {
            let store = store.clone();
            tokio::spawn(async move {
                store
                    .wait_events(&slag, &job_id, Some(&after), 10, Duration::from_secs(30))
                    .await
            })
        };
        // Two watchers of every third job.
        let mut watchers = Vec::new();
        for (index, ((slag, job_id), first)) in jobs.iter().zip(&firsts).enumerate() {
            watchers.push((index, watch(slag.clone(), job_id.clone(), first.clone())));
            if index % 3 == 0 {
                watchers.push((index, watch(slag.clone(), job_id.clone(), first.clone())));
            }
        }
        // One that gives up before anything happens.
        let (slag, job_id) = &jobs[1];
        let quitter = watch(slag.clone(), job_id.clone(), firsts[1].clone());
        quitter.abort();
        for (slag, job_id) in &jobs {
            store
                .append_event(slag, job_id, format!("for {job_id}").as_bytes())
                .await
                .unwrap();
        }
        for (index, watcher) in watchers {
            let events = watcher.await.unwrap().unwrap();
            let data: Vec<Vec<u8>> = events.into_iter().map(|event| event.data).collect();
            assert_eq!(data, vec![format!("for {}", jobs[index].1).into_bytes()]);
        }
    }

    pub async fn artifacts_are_bounded_and_the_least_recently_used_goes_first(
        store: &dyn StateStore,
    ) {
        let bounds = |max_bytes, max_entries| ArtifactBounds {
            max_bytes,
            max_entries,
        };
        let entries = bounds(1 << 20, 3);
        for (id, body) in [("a", "1"), ("b", "22"), ("c", "333")] {
            store
                .artifact_put("cs", id, body.as_bytes(), entries)
                .await
                .unwrap();
        }
        // Reading `a` makes `b` the least recently used.
        assert_eq!(
            store.artifact_get("cs", "a").await.unwrap().as_deref(),
            Some(&b"1"[..])
        );
        store
            .artifact_put("cs", "d", b"4444", entries)
            .await
            .unwrap();
        assert_eq!(
            store.artifact_get("cs", "b").await.unwrap(),
            None,
            "b evicted"
        );
        let names = |ids: &[&str]| ids.iter().map(|id| (*id).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            store.artifact_usage("cs").await.unwrap(),
            (names(&["c", "a", "d"]), 8)
        );
        // Storing again keeps one copy and refreshes it.
        store
            .artifact_put("cs", "c", b"333", entries)
            .await
            .unwrap();
        assert_eq!(
            store.artifact_usage("cs").await.unwrap(),
            (names(&["a", "d", "c"]), 8)
        );
        // Past the byte bound the oldest go until it holds.
        store
            .artifact_put("cs", "e", b"55555", bounds(9, 10))
            .await
            .unwrap();
        assert_eq!(
            store.artifact_usage("cs").await.unwrap(),
            (names(&["c", "e"]), 8)
        );
        // Slags are isolated: another never reads nor evicts them.
        assert_eq!(store.artifact_get("devops", "c").await.unwrap(), None);
        store
            .artifact_put("devops", "x", b"other", bounds(5, 1))
            .await
            .unwrap();
        assert_eq!(
            store.artifact_usage("cs").await.unwrap().0,
            names(&["c", "e"])
        );
        assert!(matches!(
            store.artifact_get("cs", "a{b}").await,
            Err(StateError::InvalidKey { .. })
        ));
        assert!(matches!(
            store.artifact_put("c:s", "x", b"", entries).await,
            Err(StateError::InvalidKey { .. })
        ));
    }

    pub async fn crashed_consumer_is_reclaimed(store: &dyn StateStore) {
        store.enqueue(&item("job-of-dead-worker")).await.unwrap();
        let held = store
            .claim("worker-dead", &[], 1, Duration::ZERO)
            .await
            .unwrap();
        assert_eq!(held.len(), 1);
        // worker-dead never acks. Within the visibility timeout nobody may take it.
        assert!(
            store
                .reclaim("worker-live", Duration::from_secs(3600), 10)
                .await
                .unwrap()
                .is_empty()
        );
        assert!(
            store
                .claim("worker-live", &[], 10, Duration::ZERO)
                .await
                .unwrap()
                .is_empty()
        );

        let deadline = Instant::now() + Duration::from_secs(10);
        let reclaimed = loop {
            let got = store
                .reclaim("worker-live", Duration::from_millis(30), 10)
                .await
                .unwrap();
            if !got.is_empty() {
                break got;
            }
            assert!(
                Instant::now() < deadline,
                "the idle delivery was never reclaimed"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        };
        assert_eq!(reclaimed.len(), 1);
        assert_eq!(reclaimed[0].item, item("job-of-dead-worker"));
        assert_eq!(reclaimed[0].id, held[0].id);

        // Reclaiming resets the idle clock: it is not handed out twice at once.
        assert!(
            store
                .reclaim("worker-other", Duration::from_secs(3600), 10)
                .await
                .unwrap()
                .is_empty()
        );
        store.ack(&[reclaimed[0].receipt()]).await.unwrap();
        let stats = store.queue_stats().await.unwrap();
        assert_eq!((stats.ready, stats.pending), (0, 0));
        // The dead worker's late ack is harmless.
        store.ack(&[held[0].receipt()]).await.unwrap();
    }

    /// A holder that renews its lease keeps the delivery however long it
    /// works; once it goes silent another consumer reclaims it, and the old
    /// holder's renewal then fails: it is fenced off.
    pub async fn renewed_leases_are_kept_and_reclaims_fence(store: &dyn StateStore) {
        store.enqueue(&item("long-step")).await.unwrap();
        let held = store
            .claim("worker-a", &[], 1, Duration::ZERO)
            .await
            .unwrap();
        let receipt = held[0].receipt();
        // Wide enough that a loaded machine's pause between a renewal and
        // the reclaim after it never passes for idleness (it was 300 ms).
        let min_idle = Duration::from_millis(1500);
        let started = Instant::now();
        while started.elapsed() < 2 * min_idle + Duration::from_millis(100) {
            assert!(store.renew("worker-a", &receipt).await.unwrap());
            assert!(
                store
                    .reclaim("worker-b", min_idle, 10)
                    .await
                    .unwrap()
                    .is_empty(),
                "a renewed lease is never reclaimed"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(
            !store.renew("worker-b", &receipt).await.unwrap(),
            "only the holder renews"
        );
        eventually("the silent holder's delivery is reclaimed", || async {
            !store
                .reclaim("worker-b", Duration::from_millis(30), 10)
                .await
                .unwrap()
                .is_empty()
        })
        .await;
        assert!(
            !store.renew("worker-a", &receipt).await.unwrap(),
            "fenced off"
        );
        assert!(store.renew("worker-b", &receipt).await.unwrap());
        store.ack(std::slice::from_ref(&receipt)).await.unwrap();
        assert!(
            !store.renew("worker-b", &receipt).await.unwrap(),
            "acked: nothing to renew"
        );
    }

    /// The retention sweep's read: finished jobs by creation time, oldest
    /// first, bounded; a deleted job leaves the index with its record.
    pub async fn old_jobs_are_found_by_status_and_age(store: &dyn StateStore) {
        for (id, created) in [("old-1", 10), ("old-2", 20), ("new", 30)] {
            let job = NewJob {
                data: b"d",
                created_ms: created,
                status: "completed",
                event: Some(b"e"),
                enqueue: false,
            };
            store.create_job("ret", id, job).await.unwrap();
        }
        create(store, "ret", "running", b"d", 5, None)
            .await
            .unwrap();
        let old = store
            .jobs_created_before("ret", "completed", 25, 10)
            .await
            .unwrap();
        assert_eq!(old, ["old-1", "old-2"]);
        assert_eq!(
            store
                .jobs_created_before("ret", "completed", 25, 1)
                .await
                .unwrap(),
            ["old-1"]
        );
        assert!(store.delete_job("ret", "old-1").await.unwrap());
        assert_eq!(
            store
                .jobs_created_before("ret", "completed", 25, 10)
                .await
                .unwrap(),
            ["old-2"]
        );
        assert!(
            store
                .read_events("ret", "old-1", None, 10)
                .await
                .unwrap()
                .is_empty()
        );
        assert!(store.get_job("ret", "old-1").await.unwrap().is_none());
        // Another status is another index.
        assert!(
            store
                .jobs_created_before("ret", "failed", 25, 10)
                .await
                .unwrap()
                .is_empty()
        );
    }

    pub async fn idempotency_keys_are_set_once_and_expire(store: &dyn StateStore) {
        let ttl = Duration::from_secs(60);
        assert_eq!(
            store.remember("cs", "req-1", "job-a", ttl).await.unwrap(),
            None
        );
        assert_eq!(
            store.remember("cs", "req-1", "job-b", ttl).await.unwrap(),
            Some("job-a".into())
        );
        assert_eq!(
            store.recall("cs", "req-1").await.unwrap(),
            Some("job-a".into())
        );
        // Keys are per slag.
        assert_eq!(
            store.remember("ops", "req-1", "job-c", ttl).await.unwrap(),
            None
        );
        assert!(matches!(
            store.remember("cs", "", "x", ttl).await,
            Err(StateError::InvalidKey { .. })
        ));

        assert_eq!(
            store
                .remember("cs", "short", "job-x", Duration::from_millis(30))
                .await
                .unwrap(),
            None
        );
        eventually("the idempotency key expires", || async {
            store.recall("cs", "short").await.unwrap().is_none()
        })
        .await;
        assert_eq!(
            store.remember("cs", "short", "job-y", ttl).await.unwrap(),
            None
        );
    }

    pub async fn approvals_are_set_once_and_apart_from_idempotency_keys(store: &dyn StateStore) {
        let ttl = Duration::from_secs(60);
        let key = "approval:j1:d1";
        assert_eq!(
            store.record_approval("cs", key, "ana", ttl).await.unwrap(),
            None
        );
        assert_eq!(
            store.record_approval("cs", key, "bob", ttl).await.unwrap(),
            Some("ana".into()),
            "the first decision stands"
        );
        assert_eq!(store.approval("cs", key).await.unwrap(), Some("ana".into()));
        // Another slag's book, and a client's idempotency key of the same
        // name, are other records.
        assert_eq!(store.approval("ops", key).await.unwrap(), None);
        assert_eq!(store.recall("cs", key).await.unwrap(), None);
        assert_eq!(store.remember("cs", key, "job-a", ttl).await.unwrap(), None);
        assert_eq!(store.approval("cs", key).await.unwrap(), Some("ana".into()));
        assert!(matches!(
            store.record_approval("cs", "", "x", ttl).await,
            Err(StateError::InvalidKey { .. })
        ));
    }

    pub async fn cache_entries_go_stale_then_expire(store: &dyn StateStore) {
        store
            .cache_put(
                "tools:core",
                b"[1]",
                Duration::from_secs(60),
                Duration::from_secs(60),
            )
            .await
            .unwrap();
        let entry = store
            .cache_get("tools:core")
            .await
            .unwrap()
            .expect("fresh entry");
        assert_eq!(entry.value, b"[1]");
        assert!(entry.fresh);

        store
            .cache_put(
                "tools:mcp:a",
                b"[2]",
                Duration::from_millis(30),
                Duration::from_secs(60),
            )
            .await
            .unwrap();
        eventually("the entry turns stale", || async {
            store
                .cache_get("tools:mcp:a")
                .await
                .unwrap()
                .is_some_and(|entry| !entry.fresh)
        })
        .await;
        assert_eq!(
            store.cache_get("tools:mcp:a").await.unwrap().unwrap().value,
            b"[2]"
        );

        store
            .cache_put(
                "tools:mcp:b",
                b"[3]",
                Duration::from_millis(20),
                Duration::from_millis(40),
            )
            .await
            .unwrap();
        eventually("the entry expires", || async {
            store.cache_get("tools:mcp:b").await.unwrap().is_none()
        })
        .await;

        // Overwrite refreshes.
        store
            .cache_put(
                "tools:mcp:a",
                b"[4]",
                Duration::from_secs(60),
                Duration::from_secs(60),
            )
            .await
            .unwrap();
        let entry = store.cache_get("tools:mcp:a").await.unwrap().unwrap();
        assert!(entry.fresh && entry.value == b"[4]");
    }

    pub async fn cache_invalidation(store: &dyn StateStore) {
        let long = Duration::from_secs(60);
        for key in [
            "tools:mcp:http://a",
            "tools:mcp:http://b",
            "tools:sel:cs:x",
            "tools:core",
        ] {
            store.cache_put(key, b"v", long, long).await.unwrap();
        }
        assert!(store.cache_invalidate("tools:core").await.unwrap());
        assert!(!store.cache_invalidate("tools:core").await.unwrap());
        assert!(store.cache_get("tools:core").await.unwrap().is_none());
        // Glob characters in a prefix are literal.
        assert_eq!(store.cache_invalidate_prefix("tools:*").await.unwrap(), 0);
        assert_eq!(
            store.cache_invalidate_prefix("tools:mcp:").await.unwrap(),
            2
        );
        assert!(
            store
                .cache_get("tools:mcp:http://a")
                .await
                .unwrap()
                .is_none()
        );
        assert!(store.cache_get("tools:sel:cs:x").await.unwrap().is_some());
        assert_eq!(store.cache_invalidate_prefix("").await.unwrap(), 1);
    }

    pub async fn slots_are_bounded_and_claimed_once(store: &dyn StateStore) {
        let set = "jobs:acme:alice";
        assert!(store.claim_slot(set, "cs/j1", 2).await.unwrap());
        assert!(store.claim_slot(set, "cs/j2", 2).await.unwrap());
        // Full: a third member waits; a member already in holds its slot.
        assert!(!store.claim_slot(set, "cs/j3", 2).await.unwrap());
        assert!(store.claim_slot(set, "cs/j1", 2).await.unwrap());
        assert_eq!(
            store.slot_members(set).await.unwrap(),
            vec!["cs/j1".to_owned(), "cs/j2".to_owned()]
        );
        store.release_slot(set, "cs/j1").await.unwrap();
        store.release_slot(set, "cs/j1").await.unwrap();
        assert!(store.claim_slot(set, "cs/j3", 2).await.unwrap());
        // Sets are independent.
        assert!(store.claim_slot("jobs:acme:bob", "cs/j1", 1).await.unwrap());
        assert!(matches!(
            store.claim_slot("a b", "m", 1).await,
            Err(StateError::InvalidKey { .. })
        ));
    }

    pub async fn documents_are_compared_and_set(store: &dyn StateStore) {
        let scope = "skills/acme";
        assert_eq!(
            store.doc_get(scope, "cs", None).await.unwrap(),
            DocRead::Absent
        );
        // Create once: the first writer wins, the second changes nothing.
        assert!(
            store
                .doc_put(scope, "cs", "e1", b"one", DocExpect::Absent)
                .await
                .unwrap()
        );
        assert!(
            !store
                .doc_put(scope, "cs", "e2", b"two", DocExpect::Absent)
                .await
                .unwrap()
        );
        assert_eq!(
            store.doc_get(scope, "cs", None).await.unwrap(),
            DocRead::Current {
                etag: "e1".into(),
                body: b"one".to_vec()
            }
        );
        assert_eq!(
            store.doc_get(scope, "cs", Some("e1")).await.unwrap(),
            DocRead::Unchanged
        );
        // A stale etag writes nothing; the current one does.
        assert!(
            !store
                .doc_put(scope, "cs", "e3", b"three", DocExpect::Etag("e0"))
                .await
                .unwrap()
        );
        assert!(
            store
                .doc_put(scope, "cs", "e3", b"three", DocExpect::Etag("e1"))
                .await
                .unwrap()
        );
        assert!(
            store
                .doc_put(scope, "a", "x", b"", DocExpect::Any)
                .await
                .unwrap()
        );
        assert_eq!(store.doc_list(scope).await.unwrap(), vec!["a", "cs"]);
        // Scopes are apart.
        assert!(store.doc_list("skills/other").await.unwrap().is_empty());
        assert_eq!(
            store.doc_get("skills/other", "cs", None).await.unwrap(),
            DocRead::Absent
        );
        assert!(
            !store
                .doc_delete(scope, "cs", DocExpect::Etag("e1"))
                .await
                .unwrap()
        );
        assert!(
            store
                .doc_delete(scope, "cs", DocExpect::Etag("e3"))
                .await
                .unwrap()
        );
        assert!(!store.doc_delete(scope, "cs", DocExpect::Any).await.unwrap());
        assert_eq!(store.doc_list(scope).await.unwrap(), vec!["a"]);
        assert!(matches!(
            store.doc_get(scope, "a:b", None).await,
            Err(StateError::InvalidKey { .. })
        ));
    }

    pub async fn unsafe_key_parts_are_refused(store: &dyn StateStore) {
        for slag in ["", "a{b}", "a:b", "a b", "x*"] {
            assert!(
                matches!(
                    create(store, slag, "j", b"{}", 1, None).await,
                    Err(StateError::InvalidKey { .. })
                ),
                "slag {slag:?} must be refused"
            );
        }
        assert!(matches!(
            store.get_job("cs", "j:1").await,
            Err(StateError::InvalidKey { .. })
        ));
        let long = "x".repeat(200);
        assert!(matches!(
            store.count_waiting(&long).await,
            Err(StateError::InvalidKey { .. })
        ));
    }
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

/// `INFO clients` figures of the Redis at `url`.
async fn client_counts(url: &str) -> (u64, u64) {
    let mut connection = ::redis::Client::open(url)
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let info: String = ::redis::cmd("INFO")
        .arg("clients")
        .query_async(&mut connection)
        .await
        .unwrap();
    let field = |name: &str| {
        info.lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix(':'))
            .and_then(|value| value.trim().parse().ok())
            .unwrap_or_else(|| panic!("INFO clients has no {name}: {info}"))
    };
    (field("connected_clients"), field("blocked_clients"))
}

/// A process's watchers share one blocking read: 300 waiting watchers hold
/// one blocked Redis connection, not 300 (each used to hold its own).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watchers_share_one_blocking_connection() {
    let server = RedisServer::start();
    let store = Arc::new(RedisStore::connect(&server.url(), "t1").await.unwrap());
    let mut watchers = Vec::new();
    for n in 0..300 {
        let (slag, job_id) = (format!("slag{}", n % 30), format!("job{n}"));
        create(&*store, &slag, &job_id, b"{}", 1, None)
            .await
            .unwrap();
        let store = store.clone();
        watchers.push(tokio::spawn(async move {
            store
                .wait_events(&slag, &job_id, None, 10, Duration::from_secs(60))
                .await
        }));
    }
    eventually("every watcher is registered and the reader blocks", || {
        let (store, url) = (store.clone(), server.url());
        async move { store.watched_jobs() == 300 && client_counts(&url).await.1 == 1 }
    })
    .await;
    let (connected, blocked) = client_counts(&server.url()).await;
    // The store's shared connection, the reader's, and this check's own.
    assert!(connected <= 4, "{connected} clients for 300 watchers");
    assert_eq!(blocked, 1);
    for n in 0..300 {
        let (slag, job_id) = (format!("slag{}", n % 30), format!("job{n}"));
        store.append_event(&slag, &job_id, b"e").await.unwrap();
    }
    for watcher in watchers {
        assert_eq!(watcher.await.unwrap().unwrap().len(), 1);
    }
    assert_eq!(store.watched_jobs(), 0, "finished watchers unregister");
    let (connected, _) = client_counts(&server.url()).await;
    assert!(
        connected <= 4,
        "{connected} clients after the watchers left"
    );
}

/// What a process' watch reader keeps is bounded (entries and bytes); a
/// watcher behind it reads the rest from Redis, missing nothing, in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_behind_what_the_reader_kept_gets_every_event() {
    let server = RedisServer::start();
    let store = Arc::new(RedisStore::connect(&server.url(), "t1").await.unwrap());
    let start = store.append_event("big", "j", b"start").await.unwrap();
    // A lingering registration keeps the reader on the stream.
    let first = store
        .wait_events("big", "j", None, 10, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(first.len(), 1);
    let kept_only = {
        let store = store.clone();
        let start = start.clone();
        tokio::spawn(async move {
            let mut got = Vec::new();
            let mut after = start;
            while got.len() < 100 {
                let events = store
                    .wait_events("big", "j", Some(&after), 7, Duration::from_secs(10))
                    .await
                    .unwrap();
                after = events
                    .last()
                    .expect("an event before the deadline")
                    .id
                    .clone();
                got.extend(events);
            }
            got
        })
    };
    let payload = vec![b'x'; 2048];
    for n in 0..100u8 {
        let mut data = payload.clone();
        data[0] = n;
        store.append_event("big", "j", &data).await.unwrap();
    }
    let followed = kept_only.await.unwrap();
    // 200 KiB: more than the reader keeps, so a late watcher reads Redis.
    let late = store
        .wait_events("big", "j", Some(&start), 1000, Duration::from_secs(5))
        .await
        .unwrap();
    for events in [followed, late] {
        assert_eq!(events.len(), 100);
        for (n, event) in events.iter().enumerate() {
            assert_eq!(event.data[0] as usize, n);
            assert_eq!(event.data.len(), 2048);
        }
    }
}

/// Hundreds of watchers of one job join over a while, from its start, as
/// WatchJob clients do (each waiting again after every batch): all get every
/// event so far, then the next one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watchers_joining_at_once_all_get_the_events_so_far() {
    let server = RedisServer::start();
    let store = Arc::new(RedisStore::connect(&server.url(), "t1").await.unwrap());
    for round in 0..5 {
        let job = format!("j{round}");
        for n in 0..7u8 {
            store.append_event("crowd", &job, &[n]).await.unwrap();
        }
        let (seen_tx, mut seen_rx) = tokio::sync::mpsc::channel(400);
        let mut watchers = Vec::new();
        for index in 0..400u64 {
            let (store, job, seen_tx) = (store.clone(), job.clone(), seen_tx.clone());
            watchers.push(tokio::spawn(async move {
                tokio::time::sleep(Duration::from_micros(index * 50)).await;
                let mut got = Vec::new();
                let mut after: Option<String> = None;
                while got.len() < 8 {
                    let events = store
                        .wait_events(
                            "crowd",
                            &job,
                            after.as_deref(),
                            256,
                            Duration::from_secs(10),
                        )
                        .await
                        .unwrap();
                    let Some(last) = events.last() else {
                        return got;
                    };
                    after = Some(last.id.clone());
                    got.extend(events.into_iter().map(|event| event.data[0]));
                    if got.len() == 7 {
                        seen_tx.send(()).await.unwrap();
                    }
                }
                got
            }));
        }
        for _ in 0..400 {
            tokio::time::timeout(Duration::from_secs(30), seen_rx.recv())
                .await
                .unwrap_or_else(|_| panic!("round {round}: a watcher missed the first events"));
        }
        store.append_event("crowd", &job, &[7]).await.unwrap();
        for watcher in watchers {
            assert_eq!(
                watcher.await.unwrap(),
                (0..8u8).collect::<Vec<_>>(),
                "round {round}"
            );
        }
    }
}

/// A raw connection to the test's Redis, for what no store method does.
async fn raw(url: &str) -> ::redis::aio::MultiplexedConnection {
    ::redis::Client::open(url)
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap()
}

/// Event logs written as streams, by versions before logs were lists, still
/// read — before the list's events, from the start or from one of their ids —
/// and leave with their job.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legacy_event_stream_still_reads_and_leaves_with_its_job() {
    let server = RedisServer::start();
    let store = Arc::new(RedisStore::connect(&server.url(), "t1").await.unwrap());
    let keys = KeyLayout::new("t1").unwrap();
    let mut conn = raw(&server.url()).await;
    create(&*store, "old", "j", b"{}", 1, None).await.unwrap();
    let mut legacy = Vec::new();
    for n in 0..2 {
        let id: String = ::redis::cmd("XADD")
            .arg(keys.legacy_events("old", "j"))
            .arg("*")
            .arg("d")
            .arg(format!("old{n}"))
            .query_async(&mut conn)
            .await
            .unwrap();
        legacy.push(id);
    }
    let first_new = store.append_event("old", "j", b"new0").await.unwrap();
    let data = |events: Vec<adas_state::StoredEvent>| -> Vec<String> {
        events
            .into_iter()
            .map(|event| String::from_utf8(event.data).unwrap())
            .collect()
    };
    let all = store.read_events("old", "j", None, 10).await.unwrap();
    assert_eq!(
        all.iter().map(|event| event.id.clone()).collect::<Vec<_>>(),
        [legacy[0].clone(), legacy[1].clone(), first_new]
    );
    assert_eq!(data(all), ["old0", "old1", "new0"]);
    let from_legacy = store
        .read_events("old", "j", Some(&legacy[0]), 10)
        .await
        .unwrap();
    assert_eq!(data(from_legacy), ["old1", "new0"]);
    let limited = store.read_events("old", "j", None, 2).await.unwrap();
    assert_eq!(data(limited), ["old0", "old1"]);
    // A watcher holding the last legacy id gets the list's events, and what follows.
    let waited = store
        .wait_events("old", "j", Some(&legacy[1]), 10, Duration::from_secs(10))
        .await
        .unwrap();
    assert_eq!(data(waited), ["new0"]);
    let waiter = {
        let store = store.clone();
        tokio::spawn(async move {
            store
                .wait_events("old", "j", Some("1"), 10, Duration::from_secs(20))
                .await
        })
    };
    tokio::time::sleep(Duration::from_millis(50)).await;
    store.append_event("old", "j", b"new1").await.unwrap();
    assert_eq!(data(waiter.await.unwrap().unwrap()), ["new1"]);
    assert!(store.delete_job("old", "j").await.unwrap());
    let left: u64 = ::redis::cmd("EXISTS")
        .arg(keys.legacy_events("old", "j"))
        .arg(keys.events("old", "j"))
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(left, 0, "the job's stream and list are deleted with it");
}

/// A job's key is a string: its header line (version, status, created ms,
/// waiting), then the record — a hash would cost a paused job ~350 bytes more.
/// A job stored as a hash by versions before reads alone and in a page,
/// becomes a string on its next write with its indexes kept, and deletes with
/// them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_key_is_a_string_and_a_job_stored_as_a_hash_still_works() {
    let server = RedisServer::start();
    let store = RedisStore::connect(&server.url(), "t1").await.unwrap();
    let keys = KeyLayout::new("t1").unwrap();
    let mut conn = raw(&server.url()).await;
    let mut stored = async |job_id: &str| -> (String, Vec<u8>) {
        let key = keys.job("old", job_id);
        let kind: String = ::redis::cmd("TYPE")
            .arg(&key)
            .query_async(&mut conn)
            .await
            .unwrap();
        let value: Vec<u8> = if kind == "string" {
            ::redis::cmd("GET").arg(&key).query_async(&mut conn).await
        } else {
            ::redis::cmd("HGET")
                .arg(&key)
                .arg("d")
                .query_async(&mut conn)
                .await
        }
        .unwrap();
        (kind, value)
    };
    create(&store, "old", "new", b"rec\nnew", 1000, None)
        .await
        .unwrap();
    assert_eq!(
        stored("new").await,
        ("string".to_owned(), b"1 queued 1000 0\nrec\nnew".to_vec()),
        "the header line, then the record as written"
    );

    // A header longer than the first read of it (a long status) still parses.
    let long = "s".repeat(100);
    let job = NewJob {
        data: b"long",
        created_ms: 1500,
        status: &long,
        event: None,
        enqueue: false,
    };
    store.create_job("old", "long", job).await.unwrap();
    let write = JobWrite {
        expected: 1,
        data: None,
        status: &long,
        waiting: WaitingChange::Keep,
        events: &[],
        enqueue: None,
    };
    assert_eq!(store.write_job("old", "long", write).await.unwrap(), 2);
    assert_eq!(
        stored("long").await.1,
        format!("2 {long} 1500 0\nlong").into_bytes()
    );

    let mut conn = raw(&server.url()).await;
    let _: () = ::redis::pipe()
        .cmd("HSET")
        .arg(keys.job("old", "h"))
        .arg("v")
        .arg(3)
        .arg("d")
        .arg("rec")
        .arg("s")
        .arg("paused")
        .arg("c")
        .arg(2000)
        .arg("w")
        .arg(1)
        .cmd("ZADD")
        .arg(keys.status_index("old", "paused"))
        .arg(2000)
        .arg("h")
        .cmd("ZADD")
        .arg(keys.waiting_index("old"))
        .arg(2500)
        .arg("h")
        .cmd("ZADD")
        .arg(keys.jobs_index("old"))
        .arg(2000)
        .arg("h")
        .query_async(&mut conn)
        .await
        .unwrap();
    let record = |version: u64, data: &[u8]| adas_state::VersionedRecord {
        version,
        data: data.to_vec(),
    };
    assert_eq!(
        store.get_job("old", "h").await.unwrap(),
        Some(record(3, b"rec"))
    );
    let ids = ["new", "h", "missing"].map(str::to_owned);
    assert_eq!(
        store.get_jobs("old", &ids).await.unwrap(),
        [Some(record(1, b"rec\nnew")), Some(record(3, b"rec")), None]
    );

    let stale = JobWrite {
        expected: 2,
        data: Some(b"lost"),
        status: "running",
        waiting: WaitingChange::Clear,
        events: &[],
        enqueue: None,
    };
    assert!(matches!(
        store.write_job("old", "h", stale).await,
        Err(StateError::VersionConflict { actual: 3, .. })
    ));
    let resumed = JobWrite {
        expected: 3,
        data: Some(b"rec2"),
        status: "running",
        waiting: WaitingChange::Clear,
        events: &[],
        enqueue: None,
    };
    assert_eq!(store.write_job("old", "h", resumed).await.unwrap(), 4);
    assert_eq!(
        stored("h").await,
        ("string".to_owned(), b"4 running 2000 0\nrec2".to_vec()),
        "stored as a string on its first write, created time kept"
    );
    let score = async |conn: &mut ::redis::aio::MultiplexedConnection, index: String| {
        let score: Option<u64> = ::redis::cmd("ZSCORE")
            .arg(index)
            .arg("h")
            .query_async(conn)
            .await
            .unwrap();
        score
    };
    assert_eq!(
        score(&mut conn, keys.status_index("old", "paused")).await,
        None
    );
    assert_eq!(
        score(&mut conn, keys.status_index("old", "running")).await,
        Some(2000)
    );
    assert_eq!(score(&mut conn, keys.waiting_index("old")).await, None);

    // A write that only moves the version keeps the record.
    let mark = JobWrite {
        expected: 4,
        data: None,
        status: "running",
        waiting: WaitingChange::Set { since_ms: 3000 },
        events: &[],
        enqueue: None,
    };
    assert_eq!(store.write_job("old", "h", mark).await.unwrap(), 5);
    assert_eq!(stored("h").await.1, b"5 running 2000 1\nrec2");
    assert_eq!(
        score(&mut conn, keys.waiting_index("old")).await,
        Some(3000)
    );
    assert_eq!(
        score(&mut conn, keys.status_index("old", "running")).await,
        None,
        "a waiting job is in no status index"
    );

    assert!(store.delete_job("old", "h").await.unwrap());
    assert_eq!(
        score(&mut conn, keys.status_index("old", "running")).await,
        None
    );
    assert_eq!(score(&mut conn, keys.waiting_index("old")).await, None);
    assert_eq!(score(&mut conn, keys.jobs_index("old")).await, None);
    assert!(!store.delete_job("old", "h").await.unwrap());
}

/// A partition's feed is capped: an event whose feed entry the reader never
/// read (trimmed while it was behind) still reaches its watcher — the feed's
/// counts skip, and every watcher of the group reads its log again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_the_watch_reader_missed_still_reaches_its_watcher() {
    let server = RedisServer::start();
    let store = Arc::new(RedisStore::connect(&server.url(), "t1").await.unwrap());
    let keys = KeyLayout::new("t1").unwrap();
    let mut conn = raw(&server.url()).await;
    let first = store.append_event("gap", "a", b"e0").await.unwrap();
    // Registered and in step with the reader: later events come from it.
    let got = store
        .wait_events("gap", "a", None, 10, Duration::from_secs(10))
        .await
        .unwrap();
    assert_eq!(got.len(), 1);
    let waiter = {
        let store = store.clone();
        tokio::spawn(async move {
            store
                .wait_events("gap", "a", Some(&first), 10, Duration::from_secs(20))
                .await
        })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    // The job's next event, as if its feed entry had been trimmed unread:
    // in the log and counted, not in the feed.
    let partition = adas_state::partition_of("gap");
    let () = ::redis::pipe()
        .cmd("RPUSH")
        .arg(keys.events("gap", "a"))
        .arg("e1")
        .ignore()
        .cmd("INCR")
        .arg(keys.feed_count(partition))
        .ignore()
        .query_async(&mut conn)
        .await
        .unwrap();
    // Another job's event in the same feed shows the reader the skipped count.
    store.append_event("gap", "b", b"other").await.unwrap();
    let got = waiter.await.unwrap().unwrap();
    assert_eq!(
        got.iter()
            .map(|event| (event.id.as_str(), event.data.as_slice()))
            .collect::<Vec<_>>(),
        [("2", &b"e1"[..])]
    );
}

/// A job that waits is parked: its record and its events packed into its key,
/// its log's list gone. Every read sees the same record and events, an append
/// is refused, and its next write — from the process that read it, or from one
/// that did not — restores the log so its events keep their ids.
#[tokio::test]
async fn a_waiting_job_is_parked_in_one_key_and_its_next_write_unparks_it() {
    let server = RedisServer::start();
    let url = server.url();
    let store = RedisStore::connect(&url, "t1").await.unwrap();
    let keys = KeyLayout::new("t1").unwrap();
    let mut conn = raw(&url).await;
    let (job, log) = (keys.job("pk", "j"), keys.events("pk", "j"));
    // Events that repeat what the record holds, as a job's do.
    let detail = br#"{"tool":"check_order_status","arguments":{"order_id":"ORD-1"}}"#;
    let record = [&b"paused "[..], detail, detail].concat();
    let events: Vec<Vec<u8>> = vec![b"created".to_vec(), detail.to_vec(), b"asks".to_vec()];
    create(&store, "pk", "j", b"queued", 1000, Some(&events[0]))
        .await
        .unwrap();
    let running = JobWrite {
        expected: 1,
        data: Some(b"running"),
        status: "running",
        waiting: WaitingChange::Keep,
        events: &[&events[1]],
        enqueue: None,
    };
    store.write_job("pk", "j", running).await.unwrap();
    let pause = JobWrite {
        expected: 2,
        data: Some(&record),
        status: "paused",
        waiting: WaitingChange::Set { since_ms: 1500 },
        events: &[&events[2]],
        enqueue: None,
    };
    assert_eq!(store.write_job("pk", "j", pause).await.unwrap(), 3);

    // One key, no list, smaller than what it holds.
    let exists: u64 = ::redis::cmd("EXISTS")
        .arg(&log)
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(exists, 0, "a parked job has no log list");
    let stored: Vec<u8> = ::redis::cmd("GET")
        .arg(&job)
        .query_async(&mut conn)
        .await
        .unwrap();
    let header = b"3 paused 1000 p\n";
    assert_eq!(&stored[..header.len()], header);
    let held = record.len() + events.iter().map(Vec::len).sum::<usize>();
    assert!(
        stored.len() - header.len() < held * 3 / 4,
        "{} bytes packed for {held}",
        stored.len() - header.len()
    );

    // Reads see it whole: the record, the events with their ids, the indexes.
    let events_after = async |after: Option<&str>| {
        let events = store.read_events("pk", "j", after, 10).await.unwrap();
        events
            .into_iter()
            .map(|event| (event.id, event.data))
            .collect::<Vec<_>>()
    };
    let waiting = async || {
        let page = store.list_waiting("pk", page(0, 10)).await.unwrap();
        page.items.len()
    };
    let numbered = |from: usize, events: &[Vec<u8>]| {
        events
            .iter()
            .enumerate()
            .map(|(at, event)| ((from + at).to_string(), event.clone()))
            .collect::<Vec<_>>()
    };
    let loaded = store.get_jobs("pk", &["j".to_owned()]).await.unwrap();
    assert_eq!(loaded[0].as_ref().unwrap().data, record);
    assert_eq!(events_after(None).await, numbered(1, &events));
    assert_eq!(events_after(Some("1")).await, numbered(2, &events[1..]));
    let one = store.read_events("pk", "j", Some("1"), 1).await.unwrap();
    assert_eq!((one.len(), one[0].id.as_str()), (1, "2"));
    assert!(events_after(Some("3")).await.is_empty());
    assert_eq!(waiting().await, 1);
    assert!(
        store
            .list_jobs("pk", Some("paused"), page(0, 10))
            .await
            .unwrap()
            .items
            .is_empty(),
        "a waiting job is in the waiting index alone"
    );
    assert!(
        store.append_event("pk", "j", b"stray").await.is_err(),
        "an append would take the first event's id"
    );

    // A process that never read it parked: its write is sent the key back,
    // and restores the log first.
    let other = RedisStore::connect(&url, "t1").await.unwrap();
    let answered = JobWrite {
        expected: 3,
        data: Some(b"answered"),
        status: "queued",
        waiting: WaitingChange::Clear,
        events: &[b"resumed"],
        enqueue: None,
    };
    assert_eq!(other.write_job("pk", "j", answered).await.unwrap(), 4);
    let mut all = events.clone();
    all.push(b"resumed".to_vec());
    assert_eq!(events_after(None).await, numbered(1, &all));
    assert_eq!(
        store.get_job("pk", "j").await.unwrap().unwrap().data,
        b"answered"
    );
    assert!(waiting().await == 0);

    // Parked again; the process that reads it writes it with one script call.
    let pause = JobWrite {
        expected: 4,
        data: Some(&record),
        status: "paused",
        waiting: WaitingChange::Set { since_ms: 2500 },
        events: &[b"asks again"],
        enqueue: None,
    };
    store.write_job("pk", "j", pause).await.unwrap();
    all.push(b"asks again".to_vec());
    assert_eq!(store.get_job("pk", "j").await.unwrap().unwrap().version, 5);
    let _: () = ::redis::cmd("CONFIG")
        .arg("RESETSTAT")
        .query_async(&mut conn)
        .await
        .unwrap();
    // A write that moves only the version (a mark) keeps the record.
    let mark = JobWrite {
        expected: 5,
        data: None,
        status: "paused",
        waiting: WaitingChange::Keep,
        events: &[b"marked"],
        enqueue: None,
    };
    assert_eq!(store.write_job("pk", "j", mark).await.unwrap(), 6);
    let stats: String = ::redis::cmd("INFO")
        .arg("commandstats")
        .query_async(&mut conn)
        .await
        .unwrap();
    assert!(
        stats.contains("cmdstat_evalsha:calls=2,"),
        "the mark without a record is sent the key back once: {stats}"
    );
    all.push(b"marked".to_vec());
    assert_eq!(events_after(None).await, numbered(1, &all));
    assert_eq!(
        store.get_job("pk", "j").await.unwrap().unwrap().data,
        record
    );
    let stored: Vec<u8> = ::redis::cmd("GET")
        .arg(&job)
        .query_async(&mut conn)
        .await
        .unwrap();
    assert!(
        stored.starts_with(b"6 paused 1000 1\n"),
        "restored, still waiting"
    );

    // Parked once more and answered by the process that read it: one script call.
    let pause = JobWrite {
        expected: 6,
        data: Some(&record),
        status: "paused",
        waiting: WaitingChange::Set { since_ms: 3500 },
        events: &[],
        enqueue: None,
    };
    store.write_job("pk", "j", pause).await.unwrap();
    assert_eq!(store.get_job("pk", "j").await.unwrap().unwrap().version, 7);
    let _: () = ::redis::cmd("CONFIG")
        .arg("RESETSTAT")
        .query_async(&mut conn)
        .await
        .unwrap();
    let answered = JobWrite {
        expected: 7,
        data: Some(b"answered"),
        status: "queued",
        waiting: WaitingChange::Clear,
        events: &[b"resumed"],
        enqueue: Some(Lane::Resumed),
    };
    assert_eq!(store.write_job("pk", "j", answered).await.unwrap(), 8);
    let stats: String = ::redis::cmd("INFO")
        .arg("commandstats")
        .query_async(&mut conn)
        .await
        .unwrap();
    assert!(stats.contains("cmdstat_evalsha:calls=1,"), "{stats}");
    all.push(b"resumed".to_vec());
    assert_eq!(events_after(None).await, numbered(1, &all));

    // A parked job is deleted whole.
    let pause = JobWrite {
        expected: 8,
        data: Some(&record),
        status: "paused",
        waiting: WaitingChange::Set { since_ms: 4500 },
        events: &[],
        enqueue: None,
    };
    store.write_job("pk", "j", pause).await.unwrap();
    assert!(store.delete_job("pk", "j").await.unwrap());
    assert!(store.get_job("pk", "j").await.unwrap().is_none());
    assert!(events_after(None).await.is_empty());
    assert!(waiting().await == 0);
}
