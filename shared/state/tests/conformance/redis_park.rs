//! Redis only: a waiting job packed into its one key by the park sweep.

use super::redis_watch::raw;
use super::*;

/// A job that waits is parked: its record and its events packed into its key,
/// its log's list gone. Every read sees the same record and events, an append
/// is refused, and its next write — from the process that read it, or from one
/// that did not — restores the log so its events keep their ids.
#[tokio::test]
pub(super) async fn a_waiting_job_is_parked_in_one_key_and_its_next_write_unparks_it() {
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
        policy: None,
        expected: 1,
        data: Some(b"running"),
        status: "running",
        waiting: WaitingChange::Keep,
        events: &[&events[1]],
        enqueue: None,
    };
    store.write_job("pk", "j", running).await.unwrap();
    let pause = JobWrite {
        policy: None,
        expected: 2,
        data: Some(&record),
        status: "paused",
        waiting: WaitingChange::Set { since_ms: 1500 },
        events: &[&events[2]],
        enqueue: None,
    };
    assert_eq!(store.write_job("pk", "j", pause).await.unwrap(), 3);
    // Not packed by the pause: only once it has waited past the sweep's
    // cutoff, by the sweep, which reads the partitions this process paused
    // jobs in.
    let unparked = keys.unparked(adas_state::partition_of("pk"));
    let listed = async |conn: &mut ::redis::aio::MultiplexedConnection| {
        let members: Vec<String> = ::redis::cmd("ZRANGE")
            .arg(&unparked)
            .arg(0)
            .arg(-1)
            .query_async(conn)
            .await
            .unwrap();
        members
    };
    assert_eq!(listed(&mut conn).await, ["pk:j"]);
    assert_eq!(store.park_waiting(1499, 100, false).await.unwrap(), 0);
    let exists: u64 = ::redis::cmd("EXISTS")
        .arg(&log)
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(
        exists, 1,
        "a job that has not waited past the cutoff is not packed"
    );
    assert_eq!(store.park_waiting(1500, 100, false).await.unwrap(), 1);
    assert!(listed(&mut conn).await.is_empty());
    // Swept: that partition is not read again until this process pauses a
    // job in it.
    assert_eq!(store.park_waiting(u64::MAX, 100, false).await.unwrap(), 0);

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
        policy: None,
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
        policy: None,
        expected: 4,
        data: Some(&record),
        status: "paused",
        waiting: WaitingChange::Set { since_ms: 2500 },
        events: &[b"asks again"],
        enqueue: None,
    };
    store.write_job("pk", "j", pause).await.unwrap();
    assert_eq!(store.park_waiting(2500, 100, false).await.unwrap(), 1);
    all.push(b"asks again".to_vec());
    assert_eq!(store.get_job("pk", "j").await.unwrap().unwrap().version, 5);
    let _: () = ::redis::cmd("CONFIG")
        .arg("RESETSTAT")
        .query_async(&mut conn)
        .await
        .unwrap();
    // A write that moves only the version (a mark) keeps the record.
    let mark = JobWrite {
        policy: None,
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
        policy: None,
        expected: 6,
        data: Some(&record),
        status: "paused",
        waiting: WaitingChange::Set { since_ms: 3500 },
        events: &[],
        enqueue: None,
    };
    store.write_job("pk", "j", pause).await.unwrap();
    // Another process' sweep of every partition parks it as well.
    assert_eq!(other.park_waiting(3500, 100, true).await.unwrap(), 1);
    assert_eq!(store.get_job("pk", "j").await.unwrap().unwrap().version, 7);
    let _: () = ::redis::cmd("CONFIG")
        .arg("RESETSTAT")
        .query_async(&mut conn)
        .await
        .unwrap();
    let answered = JobWrite {
        policy: None,
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
        policy: None,
        expected: 8,
        data: Some(&record),
        status: "paused",
        waiting: WaitingChange::Set { since_ms: 4500 },
        events: &[],
        enqueue: None,
    };
    store.write_job("pk", "j", pause).await.unwrap();
    assert_eq!(store.park_waiting(4500, 100, false).await.unwrap(), 1);
    assert!(store.delete_job("pk", "j").await.unwrap());
    assert!(store.get_job("pk", "j").await.unwrap().is_none());
    assert!(events_after(None).await.is_empty());
    assert!(waiting().await == 0);

    // A job answered before the sweep is never packed, and leaves the index
    // with its answer; a deleted one leaves it too.
    for (job_id, since_ms) in [("answered", 5000), ("deleted", 5001)] {
        create(&store, "pk", job_id, b"queued", 5000, None)
            .await
            .unwrap();
        let pause = JobWrite {
            policy: None,
            expected: 1,
            data: Some(&record),
            status: "paused",
            waiting: WaitingChange::Set { since_ms },
            events: &[b"asks"],
            enqueue: None,
        };
        store.write_job("pk", job_id, pause).await.unwrap();
    }
    assert_eq!(listed(&mut conn).await, ["pk:answered", "pk:deleted"]);
    let answered = JobWrite {
        policy: None,
        expected: 2,
        data: Some(b"answered"),
        status: "queued",
        waiting: WaitingChange::Clear,
        events: &[b"resumed"],
        enqueue: None,
    };
    store.write_job("pk", "answered", answered).await.unwrap();
    assert!(store.delete_job("pk", "deleted").await.unwrap());
    assert!(listed(&mut conn).await.is_empty());
    assert_eq!(store.park_waiting(u64::MAX, 100, true).await.unwrap(), 0);
    let log_left: u64 = ::redis::cmd("EXISTS")
        .arg(keys.events("pk", "answered"))
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(log_left, 1);
}
