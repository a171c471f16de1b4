//! Cases: the smaller stores and the shapes every backend keeps alike.

use super::cases_jobs::*;
use super::*;

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
                policy: None,
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

pub async fn artifacts_are_bounded_and_the_least_recently_used_goes_first(store: &dyn StateStore) {
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

pub async fn counts_start_over_after_their_window(store: &dyn StateStore) {
    let long = Duration::from_secs(60);
    for expected in 1..=3 {
        assert_eq!(store.count("cs", "rate", long).await.unwrap(), expected);
    }
    // Another slag, another key: counted apart; a remembered key is not a count.
    assert_eq!(store.count("ops", "rate", long).await.unwrap(), 1);
    assert_eq!(store.remember("cs", "rate", "x", long).await.unwrap(), None);
    assert_eq!(store.count("cs", "rate", long).await.unwrap(), 4);
    assert_eq!(
        store
            .count("cs", "brief", Duration::from_millis(30))
            .await
            .unwrap(),
        1
    );
    eventually("the count's window ends", || async {
        store
            .count("cs", "brief", Duration::from_millis(30))
            .await
            .unwrap()
            == 1
    })
    .await;
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
