//! Cases: jobs, events, the queue and the waiting index.

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

pub async fn jobs_are_read_newest_first_in_a_time_window(store: &dyn StateStore) {
    // Two jobs share a millisecond: the id breaks the tie, descending.
    for (id, ms) in [("a", 100), ("b", 200), ("c", 200), ("d", 300)] {
        create(store, "nf", id, b"{}", ms, None).await.unwrap();
    }
    create(store, "other", "x", b"{}", 250, None).await.unwrap();
    let ids = |rows: Vec<(u64, String)>| {
        rows.into_iter()
            .map(|(ms, id)| format!("{id}@{ms}"))
            .collect::<Vec<_>>()
    };
    let all = store
        .jobs_newest("nf", (0, u64::MAX >> 11), 0, 10)
        .await
        .unwrap();
    assert_eq!(ids(all), ["d@300", "c@200", "b@200", "a@100"]);
    let window = store.jobs_newest("nf", (150, 250), 0, 10).await.unwrap();
    assert_eq!(ids(window), ["c@200", "b@200"]);
    let skipped = store.jobs_newest("nf", (0, 200), 1, 1).await.unwrap();
    assert_eq!(ids(skipped), ["b@200"]);
    assert!(
        store
            .jobs_newest("empty", (0, 1000), 0, 10)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(store.jobs_newest("bad:slag", (0, 1), 0, 1).await.is_err());
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

pub(super) fn item(job_id: &str) -> QueueItem {
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
        policy: None,
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
                    policy: None,
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
                policy: None,
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
        policy: None,
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
