//! Lists cost O(page): a page of a status filter is read from the status
//! index (the waiting index for paused jobs) and the page's records in one
//! pipeline — two round trips however many jobs the skill holds. Alone in its
//! binary: it counts the process's trips.

use std::sync::Arc;

use adas_jobs::{JobRecord, JobRepo, JobStatus};
use adas_state::{PageRequest, RedisStore, StateStore};
use adas_testkit::RedisServer;
use serde_json::json;

fn record(job_id: &str, status: JobStatus) -> JobRecord {
    serde_json::from_value(json!({
        "job_id": job_id, "slag": "lists", "goal": "", "status": status,
        "waiting": null, "context": {}, "resources": {}, "plan": null, "intent": null,
        "iteration": 0, "iteration_budget": 1, "calls": [], "result": null, "error": null,
        "audit": [], "request_id": "", "created_at": "2026-01-01T00:00:00.000Z",
        "updated_at": "2026-01-01T00:00:00.000Z", "ended_at": null
    }))
    .expect("a minimal job record")
}

/// Pauses a created job as a worker does: status, waiting object and the
/// waiting index in one write (asked `index` ms into the day, so the ask
/// order is the creation order).
async fn pause(repo: &JobRepo, job: &mut JobRecord, index: usize) {
    let waiting: adas_jobs::Waiting = serde_json::from_value(json!({
        "reason_code": "MISSING_REQUIRED_INPUT", "requested_fields": ["amount"],
        "prompt_message": "How much?", "correlation_id": format!("c{index}"),
        "created_at": format!("2026-01-01T00:00:{:02}.{:03}Z", index / 1000, index % 1000),
        "last_prompt_at": "2026-01-01T00:00:00.000Z"
    }))
    .expect("a waiting object");
    let paused = adas_jobs::Event::paused(
        waiting.reason_code,
        "How much?",
        adas_step::PauseDetail::Asked {
            requested_fields: waiting.requested_fields.clone(),
            correlation_id: waiting.correlation_id.clone(),
        },
    );
    repo.save(1, job, adas_jobs::Transition::pause(waiting, paused))
        .await
        .unwrap();
}

#[tokio::test]
async fn a_page_of_a_status_costs_two_round_trips_however_many_jobs() {
    let redis = RedisServer::start();
    let store: Arc<dyn StateStore> = Arc::new(
        RedisStore::connect(&redis.url(), "lists")
            .await
            .expect("private redis"),
    );
    let repo = JobRepo::new(store.clone(), std::env::temp_dir());
    // 2,000 jobs, one in four paused: a filter over them would scan 4 per hit.
    let mut paused = Vec::new();
    for index in 0..2_000 {
        let job_id = format!("j{index:05}");
        let mut job = record(&job_id, JobStatus::Queued);
        repo.create(&job, false).await.unwrap();
        if index % 4 == 3 {
            paused.push(job_id.clone());
            pause(&repo, &mut job, index).await;
        }
    }
    // A paused job is in one index, the waiting one.
    let paused_by_status = store
        .list_jobs(
            "lists",
            Some("paused"),
            PageRequest {
                offset: 0,
                limit: 10,
            },
        )
        .await
        .unwrap();
    assert!(paused_by_status.items.is_empty());
    let before = adas_state::redis_round_trips();
    let (page, next) = repo
        .list("lists", Some(JobStatus::Paused), (0, 50), |_| true)
        .await
        .unwrap();
    assert_eq!(
        adas_state::redis_round_trips() - before,
        2,
        "the index page and the records"
    );
    let ids: Vec<&str> = page.iter().map(|job| job.record.job_id.as_str()).collect();
    assert_eq!(ids, paused[..50], "paused jobs only, oldest ask first");
    assert!(
        page.iter()
            .all(|job| job.record.status == JobStatus::Paused)
    );

    let before = adas_state::redis_round_trips();
    let (last, end) = repo
        .list(
            "lists",
            Some(JobStatus::Paused),
            (next.expect("more pages"), 1_000),
            |_| true,
        )
        .await
        .unwrap();
    assert_eq!(adas_state::redis_round_trips() - before, 2);
    assert_eq!((last.len(), end), (paused.len() - 50, None));
}
