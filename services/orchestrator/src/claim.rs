//! Claiming: one claimer per process takes ready jobs from the queue
//! (consumer group; resumed jobs first; a dead worker's job is reclaimed
//! after the visibility timeout) and runs each as a task within the
//! concurrency budget, renewing its claim while it runs and acknowledging it
//! with the next claim. A transient failure is retried here; a job is
//! advanced by [`Worker::process`].

use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use adas_engine::WorkError;
use adas_engine::room::Slot;
use adas_jobs::JobError;
use adas_state::StateError;
use tracing::{info, warn};

use crate::worker::Worker;

/// How often a claimer looks for jobs held by silent workers.
const RECLAIM_EVERY: Duration = Duration::from_secs(1);

/// Most deliveries one claim takes (each still needs room in the budget).
const CLAIM_BATCH: usize = 64;

/// Retries of a step that failed on a transient error, in this delivery:
/// 100 ms doubling to 3 s, with jitter. Past them the delivery is left
/// unacknowledged, so the job is reclaimed after the visibility timeout.
fn transient_backoff() -> backon::ExponentialBuilder {
    backon::ExponentialBuilder::default()
        .with_min_delay(Duration::from_millis(100))
        .with_max_delay(Duration::from_secs(3))
        .with_max_times(6)
        .with_jitter()
}

/// A lock that a panicked holder does not poison for the others.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Worker {
    /// Runs until `stop` resolves, advancing up to `budget` jobs at once:
    /// claims ready jobs only when there is room for them (blocking on the
    /// queue, so an idle process costs nothing), runs each as its own task,
    /// and reclaims abandoned ones. On stop, the jobs in flight finish.
    pub async fn run(self, budget: usize, stop: impl Future<Output = ()>) {
        tokio::pin!(stop);
        let room = Arc::new(tokio::sync::Semaphore::new(budget.max(1)));
        // Tool calls hold no room (see `Slot`); each tenant may have up to a
        // budget's worth of them in flight.
        let calls = Arc::new(adas_runtime::quota::TenantShares::new(budget));
        let worker = Arc::new(self);
        if worker.effects.engine.plans_here() {
            // Plans are made here: the lexicon is loaded before the first job
            // is claimed, never on a job's task while its claim ages.
            // On a thread of its own, not the runtime's blocking pool: the
            // process' runtime threads stay the ones it was configured with.
            let (warmed, ready) = tokio::sync::oneshot::channel();
            let loader = std::thread::Builder::new()
                .name("lexicon-load".into())
                .spawn(move || {
                    adas_nlu::warm();
                    let _ = warmed.send(());
                });
            if loader.is_ok() {
                let _ = ready.await;
            }
        }
        // Deliveries this process is running: its own reclaim never takes
        // one of them for a silent worker's, however long a step keeps its
        // task busy.
        let in_flight: Arc<std::sync::Mutex<HashSet<adas_state::Receipt>>> = Arc::default();
        let mut running = tokio::task::JoinSet::new();
        let mut reclaimed_at = tokio::time::Instant::now() - RECLAIM_EVERY;
        loop {
            // A job claimed is a job started: wait for room first.
            let first = tokio::select! {
                () = &mut stop => break,
                permit = room.clone().acquire_owned() => match permit {
                    Ok(permit) => permit,
                    Err(_) => break,
                },
            };
            let free = room.available_permits() + 1;
            let store = worker.repo.store().clone();
            // The finished deliveries are acknowledged by the claim itself.
            let acks = worker.take_acks();
            let deliveries = tokio::select! {
                () = &mut stop => {
                    lock(&worker.acks).extend(acks);
                    break;
                }
                claimed = store.claim(&worker.consumer, &acks, free.min(CLAIM_BATCH), Duration::from_secs(2)) => claimed,
            };
            let mut deliveries = match deliveries {
                Ok(deliveries) => deliveries,
                Err(error) => {
                    warn!(%error, "claiming jobs failed; retrying");
                    // Not known to be acknowledged: they go with the next claim.
                    lock(&worker.acks).extend(acks);
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    continue;
                }
            };
            // Abandoned jobs are looked for on a clock, not per claim: a busy
            // claimer pays no round trip for it.
            if reclaimed_at.elapsed() >= RECLAIM_EVERY {
                reclaimed_at = tokio::time::Instant::now();
                match store
                    .reclaim(&worker.consumer, worker.visibility_timeout, 4)
                    .await
                {
                    Ok(mut reclaimed) => {
                        {
                            let running = lock(&in_flight);
                            let acked = lock(&worker.acks);
                            reclaimed.retain(|delivery| {
                                let receipt = delivery.receipt();
                                !running.contains(&receipt) && !acked.contains(&receipt)
                            });
                        }
                        metrics::counter!("adas_job_reclaims_total")
                            .increment(reclaimed.len() as u64);
                        for delivery in &reclaimed {
                            info!(slag = %delivery.item.slag, job_id = %delivery.item.job_id, "reclaimed a job from a silent worker");
                        }
                        deliveries.extend(reclaimed);
                    }
                    Err(error) => warn!(%error, "reclaiming jobs failed"),
                }
            }
            let mut first = Some(first);
            for delivery in deliveries {
                let permit = match first.take() {
                    Some(permit) => permit,
                    None => match room.clone().acquire_owned().await {
                        Ok(permit) => permit,
                        Err(_) => break,
                    },
                };
                let worker = worker.clone();
                let slot = Slot::new(room.clone(), permit, calls.clone());
                let receipt = delivery.receipt();
                lock(&in_flight).insert(receipt.clone());
                let in_flight = in_flight.clone();
                running.spawn(slot.scope(async move {
                    worker.handle(delivery).await;
                    lock(&in_flight).remove(&receipt);
                }));
            }
            while running.try_join_next().is_some() {}
        }
        while running.join_next().await.is_some() {}
        let acks = worker.take_acks();
        if let Err(error) = worker.repo.store().ack(&acks).await {
            warn!(%error, "acks at shutdown failed; those jobs may be reclaimed (finished calls never run twice)");
        }
    }

    fn take_acks(&self) -> Vec<adas_state::Receipt> {
        std::mem::take(&mut *lock(&self.acks))
    }

    /// Advances one delivered job; its acknowledgement rides with the next
    /// claim (or goes at once when many are waiting).
    async fn handle(&self, mut delivery: adas_state::Delivery) {
        let receipt = delivery.receipt();
        let carried = delivery.record.take();
        let had_copy = carried.is_some();
        let (slag, job_id) = (&delivery.item.slag, &delivery.item.job_id);
        let work = async {
            let mut processed = self.process(slag, job_id, carried).await;
            if had_copy
                && matches!(
                    processed,
                    Err(WorkError::Job(JobError::Store(
                        StateError::VersionConflict { .. }
                    )))
                )
            {
                // The queue's copy was stale (the job was written since it was
                // queued): nothing was done on it; go again from the store.
                processed = self.process(slag, job_id, None).await;
            }
            if processed.as_ref().is_err_and(WorkError::is_transient) {
                use backon::Retryable;
                // From the store again: what the failed attempt wrote stands, a
                // finished call is never repeated.
                processed = (|| self.process(slag, job_id, None))
                    .retry(transient_backoff())
                    .when(WorkError::is_transient)
                    .notify(|error, delay| {
                        warn!(%slag, %job_id, %error, ?delay, "transient failure; the step is tried again");
                    })
                    .await;
            }
            processed
        };
        // The claim is renewed while the step runs, however long a tool takes;
        // if another worker took the job over all the same (this one was
        // silent past the visibility timeout), this one is fenced off: it
        // stops at once and neither writes nor acknowledges.
        // The renewals run as a task of their own: a step busy on the CPU
        // (a first plan loading the lexicon, say) holds its own task, never
        // the claim.
        let mut lease = tokio::spawn(keep_lease(
            self.repo.store().clone(),
            self.consumer.clone(),
            receipt.clone(),
            self.visibility_timeout,
        ));
        let processed = tokio::select! {
            processed = work => {
                lease.abort();
                processed
            }
            _ = &mut lease => {
                warn!(%slag, %job_id, "another worker took the job over; this one stops");
                return;
            }
        };
        match processed {
            Ok(()) => {}
            Err(error) if error.is_transient() => {
                // Not acknowledged: the job stays pending and any worker
                // reclaims it after the visibility timeout.
                warn!(%slag, %job_id, %error, "still failing; the job is left to be reclaimed");
                return;
            }
            Err(error) => {
                warn!(%slag, %job_id, %error, "job processing stopped");
                self.fail_on_platform_error(slag, job_id, &error).await;
            }
        }
        let batch = {
            let mut acks = lock(&self.acks);
            acks.push(receipt);
            (acks.len() >= CLAIM_BATCH).then(|| std::mem::take(&mut *acks))
        };
        if let Some(batch) = batch
            && let Err(error) = self.repo.store().ack(&batch).await
        {
            warn!(%error, "ack failed; the jobs may be reclaimed and resumed (finished calls never run twice)");
        }
    }
}

/// Renews the claim on `receipt` every third of the visibility timeout;
/// resolves only when the claim is no longer `consumer`'s.
async fn keep_lease(
    store: Arc<dyn adas_state::StateStore>,
    consumer: String,
    receipt: adas_state::Receipt,
    visibility_timeout: Duration,
) {
    let every = (visibility_timeout / 3).max(Duration::from_millis(10));
    loop {
        tokio::time::sleep(every).await;
        match store.renew(&consumer, &receipt).await {
            Ok(true) => {}
            Ok(false) => return,
            // Redis away: the claim cannot be lost meanwhile either (no
            // one can reclaim it); try again on the next beat.
            Err(error) => warn!(%error, "renewing a claim failed; trying again"),
        }
    }
}
