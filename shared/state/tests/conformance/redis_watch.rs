//! Redis only: the WatchJob fan-out's connections and a watcher that fell behind.

use super::*;

/// `INFO clients` figures of the Redis at `url`.
pub(super) async fn client_counts(url: &str) -> (u64, u64) {
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

/// Subscribers of the channel `channel` (`PUBSUB NUMSUB`).
async fn subscribers(url: &str, channel: &str) -> u64 {
    let (_, count): (String, u64) = ::redis::cmd("PUBSUB")
        .arg("NUMSUB")
        .arg(channel)
        .query_async(&mut raw(url).await)
        .await
        .unwrap();
    count
}

/// A process's watchers share one subscription: 300 waiting watchers hold
/// one subscribed Redis connection, not 300, and none blocked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn watchers_share_one_subscription() {
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
    let feed = KeyLayout::new("t1").unwrap().feed(0);
    eventually(
        "every watcher is registered and the reader subscribed",
        || {
            let (store, url, feed) = (store.clone(), server.url(), feed.clone());
            async move { store.watched_jobs() == 300 && subscribers(&url, &feed).await == 1 }
        },
    )
    .await;
    let (connected, blocked) = client_counts(&server.url()).await;
    // The store's shared connection, the reader's, and this check's own.
    assert!(connected <= 4, "{connected} clients for 300 watchers");
    assert_eq!(blocked, 0);
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
pub(super) async fn a_watcher_behind_what_the_reader_kept_gets_every_event() {
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
pub(super) async fn watchers_joining_at_once_all_get_the_events_so_far() {
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
pub(super) async fn raw(url: &str) -> ::redis::aio::MultiplexedConnection {
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
pub(super) async fn a_legacy_event_stream_still_reads_and_leaves_with_its_job() {
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
pub(super) async fn a_job_key_is_a_string_and_a_job_stored_as_a_hash_still_works() {
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
        policy: None,
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
        policy: None,
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
        policy: None,
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
        policy: None,
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

/// An event whose message the reader never got still reaches its watcher:
/// the channel's counts skip, and every watcher reads its log again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn an_event_the_watch_reader_missed_still_reaches_its_watcher() {
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
    // Another job's event: the reader knows the channel's count.
    store.append_event("gap", "b", b"before").await.unwrap();
    // The job's next event, as if its message had been lost: in the log
    // and counted, never published.
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
