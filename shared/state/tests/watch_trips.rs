//! A watcher's events reach it through its process' subscription: an event
//! costs its append and nothing more, and waiting again after each batch
//! (as WatchJob does) costs no read of its own. Alone in its binary: it
//! counts the process' round trips.

use std::sync::Arc;
use std::time::Duration;

use adas_state::{EventLog, RedisStore};
use adas_testkit::RedisServer;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_event_costs_its_append_only() {
    let redis = RedisServer::start();
    let store = Arc::new(RedisStore::connect(&redis.url(), "watch").await.unwrap());
    let first = store.append_event("w", "j1", b"e0").await.unwrap();
    // The first wait registers the job (the subscription and a read).
    let got = store
        .wait_events("w", "j1", None, 10, Duration::from_secs(10))
        .await
        .unwrap();
    assert_eq!(got.len(), 1);
    let mut after = first;
    const EVENTS: u64 = 20;
    let before = adas_state::redis_round_trips();
    for n in 1..=EVENTS {
        let waiter = {
            let (store, after) = (store.clone(), after.clone());
            tokio::spawn(async move {
                store
                    .wait_events("w", "j1", Some(&after), 10, Duration::from_secs(10))
                    .await
            })
        };
        // Let the waiter block before the event exists.
        tokio::time::sleep(Duration::from_millis(5)).await;
        store
            .append_event("w", "j1", format!("e{n}").as_bytes())
            .await
            .unwrap();
        let got = waiter.await.unwrap().unwrap();
        assert_eq!(got.len(), 1, "event {n}");
        assert_eq!(got[0].data, format!("e{n}").as_bytes());
        after = got[0].id.clone();
    }
    let trips = adas_state::redis_round_trips() - before;
    // Per event: its append, which publishes it; Redis pushes it to the
    // reader. A blocking reader cost one more read per event (2 × 20 + 3),
    // and before it each wait its own wake and read (103 for these 20).
    assert!(
        trips <= EVENTS + 1,
        "{trips} round trips for {EVENTS} watched events"
    );
    // A late watcher from the start still gets everything (read from Redis).
    let all = store
        .wait_events("w", "j1", None, 100, Duration::from_secs(1))
        .await
        .unwrap();
    assert_eq!(all.len(), EVENTS as usize + 1);
}
