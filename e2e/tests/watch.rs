//! WatchJob's end, as HTTP/2 clients see it. The stream ends right after the
//! event that ends the job, with the call's status in trailers. A client that
//! drops its stream at that event instead resets it on the wire; if the
//! trailers are still on their way (under load the server's HTTP/2 sends the
//! streams' frames in turn), a hyper-based client that has meanwhile
//! forgotten the reset stream (it keeps the last 50) counts them as the
//! server's protocol error, and closes the whole connection with `GOAWAY
//! ENHANCE_YOUR_CALM "too_many_internal_resets"` after 1,024 (h2 0.4.11 on).
//! adas-bench did just that on its third repetition. So clients read the
//! stream to its end, as the proto and the README say; this keeps that way of
//! watching, at scale on one connection, working.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use adas_e2e::invariants::CheckedStore;
use adas_proto::pb;
use adas_testkit::scratch_dir;
use tonic::transport::Channel;

/// Far longer than any watch of a finished job takes.
const HANG: std::time::Duration = std::time::Duration::from_secs(120);

/// Watches `job` from its first event to the stream's end. Returns the
/// events read.
async fn watch_to_the_end(channel: Channel, job: String) -> Result<usize, tonic::Status> {
    let mut orchestrator = pb::orchestrator_service_client::OrchestratorServiceClient::new(channel);
    let mut events = orchestrator
        .watch_job(pb::WatchJobRequest {
            name: job,
            after_event_id: String::new(),
        })
        .await?
        .into_inner();
    let mut read = 0;
    while let Some(event) = events.message().await? {
        read += 1;
        if pb::JobEventType::try_from(event.r#type) == Ok(pb::JobEventType::Completed) {
            // The job's end; the stream's end follows at once.
            while events.message().await?.is_some() {}
            return Ok(read);
        }
    }
    Err(tonic::Status::internal(
        "the stream ended before the job did",
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_connection_serves_thousands_of_watches_each_read_to_its_end() {
    let root = scratch_dir("watch-ends");
    // Checked when dropped (after the suite).
    let store = CheckedStore::start(&root);
    let suite = store.spawn_up(&root, &[], &[("ADAS_LOG", "error")]);
    // One connection for everything, as a long-lived client (or a proxy) has.
    let channel = Channel::from_shared(suite.endpoint())
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut orchestrator =
        pb::orchestrator_service_client::OrchestratorServiceClient::new(channel.clone());
    let mut jobs = Vec::new();
    for _ in 0..8 {
        let job = orchestrator
            .start_job(pb::StartJobRequest {
                skill: "skills/cs-tier-1".into(),
                goal: "what's the weather".into(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        // Each ends out of domain: its stream ends with `completed`.
        assert!(
            watch_to_the_end(channel.clone(), job.name.clone())
                .await
                .unwrap()
                >= 2
        );
        jobs.push(job.name);
    }
    // Many at once, well past h2's 1,024: dropping each stream at `completed`
    // instead fails here after 3,000–6,000 watches.
    const WATCHES: usize = 20_000;
    const AT_ONCE: usize = 1_000;
    let next = Arc::new(AtomicUsize::new(0));
    let mut clients = Vec::new();
    for _ in 0..AT_ONCE {
        let (channel, jobs, next) = (channel.clone(), jobs.clone(), next.clone());
        clients.push(tokio::spawn(async move {
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= WATCHES {
                    return Ok::<_, tonic::Status>(());
                }
                // A stream that did not end would hang the test: a bound, not a speed.
                tokio::time::timeout(
                    HANG,
                    watch_to_the_end(channel.clone(), jobs[n % jobs.len()].clone()),
                )
                .await
                .map_err(|_| tonic::Status::deadline_exceeded("a watch did not end"))??;
            }
        }));
    }
    for client in clients {
        if let Err(status) = client.await.unwrap() {
            panic!(
                "a watch failed after {} of {WATCHES}: {status:?}",
                next.load(Ordering::Relaxed)
            );
        }
    }
    // And the connection still serves.
    orchestrator
        .get_job(pb::GetJobRequest {
            name: jobs[0].clone(),
        })
        .await
        .unwrap();
}
