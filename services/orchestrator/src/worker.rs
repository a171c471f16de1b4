//! Workers: one claimer per process takes ready jobs from the queue (consumer
//! group; resumed jobs first; a dead worker's job is reclaimed after the
//! visibility timeout) and runs each as a task within the concurrency budget:
//! plan once, then loop — next step, pre-tool gate, the call's start (a
//! compare-and-set), the tool, its result — and finalize, through the step
//! engine (in process by default). A paused job is acked and left: it is in
//! no queue and burns no iteration.

use std::sync::Arc;
use std::time::Duration;

use adas_jobs::certainty;
use adas_jobs::dal::{self, reason_codes};
use adas_jobs::focus::{FocusCache, FocusError};
use adas_jobs::{
    CallRecord, DetectedIntent, EventKind, Evidence, JobError, JobRecord, JobRepo, JobResult,
    JobStatus, OutcomeClass, PendingApproval, StoredJob, Waiting, now,
};
use adas_proto::pb;
use adas_runtime::convert::{json_to_struct, value_to_json};
use adas_skill::{Catalog, OperationalSkill};
use adas_state::StateError;
use adas_tools::{McpConnector, McpError};
use serde_json::{Map, Value as Json, json};
use tracing::{info, warn};

use crate::engine::Next;

/// What a worker needs.
#[derive(Clone)]
pub struct Worker {
    /// Job storage.
    pub repo: JobRepo,
    /// Skills.
    pub catalog: Arc<Catalog>,
    /// MCP tool calls.
    pub mcp: Arc<dyn McpConnector>,
    /// Tool sets with their accepted definitions.
    pub tools: Arc<adas_tools::ToolResolver>,
    /// Planning, the next step, the gates and the polisher (in this process
    /// or behind the services).
    pub engine: Arc<dyn crate::engine::Engine>,
    /// Consumer name in the queue's group.
    pub consumer: String,
    /// A job held by a silent worker this long is taken over.
    pub visibility_timeout: Duration,
    /// Large tool outputs, kept once per slag and referenced from the job.
    pub focus: Arc<FocusCache>,
    /// Deliveries handled and not yet acknowledged.
    pub acks: Arc<std::sync::Mutex<Vec<adas_state::Receipt>>>,
}

/// A job task's place in the worker's budget. A job waiting on a tool server
/// steps out of it for the call (and back in after), so jobs stuck on one
/// tenant's slow tools never hold the room every other tenant's jobs need;
/// the calls themselves are bounded per tenant instead.
struct Slot {
    room: Arc<tokio::sync::Semaphore>,
    permit: Option<tokio::sync::OwnedSemaphorePermit>,
    calls: Arc<adas_runtime::quota::TenantShares>,
}

tokio::task_local! {
    static SLOT: std::cell::RefCell<Slot>;
}

/// Steps out of the budget for a tool call of `tenant`'s: the job's place goes
/// back to the room, and a place in the tenant's share of calls is taken.
/// Outside a worker's task (tests driving a step) nothing changes.
async fn step_out(tenant: &str) -> Option<tokio::sync::OwnedSemaphorePermit> {
    let calls = SLOT
        .try_with(|slot| {
            let mut slot = slot.borrow_mut();
            slot.permit = None;
            slot.calls.clone()
        })
        .ok()?;
    Some(calls.acquire(tenant).await)
}

/// Back into the budget after a call (waiting for room like any job).
async fn step_in() {
    let Ok(room) = SLOT.try_with(|slot| slot.borrow().room.clone()) else {
        return;
    };
    let permit = room.acquire_owned().await.ok();
    let _ = SLOT.try_with(|slot| slot.borrow_mut().permit = permit);
}

/// How often a claimer looks for jobs held by silent workers.
const RECLAIM_EVERY: Duration = Duration::from_secs(1);

/// Most deliveries one claim takes (each still needs room in the budget).
const CLAIM_BATCH: usize = 64;

/// A tool output larger than this (as JSON) is kept in the focus cache and the
/// job record, its event and its archive hold a reference instead of a copy.
pub const FOCUS_INLINE_MAX_BYTES: usize = 8 * 1024;

/// How many characters of a referenced output the reference shows.
const FOCUS_PREVIEW_CHARS: usize = 200;

/// Why processing a job stopped early.
#[derive(Debug, thiserror::Error)]
pub enum WorkError {
    /// Storage.
    #[error(transparent)]
    Job(#[from] JobError),
    /// A peer service.
    #[error("peer call failed: {0}")]
    Peer(#[from] tonic::Status),
    /// The skill.
    #[error(transparent)]
    Skill(#[from] adas_skill::SkillError),
    /// A plan that does not parse, or a step the plan cannot take.
    #[error("invalid plan: {0}")]
    Plan(String),
    /// The approval records.
    #[error(transparent)]
    Approval(#[from] adas_policy::gate::ApprovalError),
}

impl WorkError {
    /// Whether the failure is the platform's and passing: a peer or the store
    /// unavailable, a timeout, a connection reset, a rate limit. The step is
    /// tried again; only a deterministic failure (policy, validation, a tool's
    /// own error, a broken plan) may end a job.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Peer(status) => matches!(
                status.code(),
                tonic::Code::Unavailable
                    | tonic::Code::DeadlineExceeded
                    | tonic::Code::Cancelled
                    | tonic::Code::ResourceExhausted
                    | tonic::Code::Unknown
            ),
            Self::Job(JobError::Store(error))
            | Self::Approval(adas_policy::gate::ApprovalError::Store(error)) => {
                error.is_unavailable()
            }
            Self::Skill(adas_skill::SkillError::Store(_)) => true,
            Self::Job(_) | Self::Skill(_) | Self::Plan(_) | Self::Approval(_) => false,
        }
    }
}

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

impl std::fmt::Debug for Worker {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Worker")
            .field("consumer", &self.consumer)
            .finish_non_exhaustive()
    }
}

fn name(record: &JobRecord) -> String {
    format!("skills/{}/jobs/{}", record.slag, record.job_id)
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
                    worker.acks.lock().unwrap_or_else(std::sync::PoisonError::into_inner).extend(acks);
                    break;
                }
                claimed = store.claim(&worker.consumer, &acks, free.min(CLAIM_BATCH), Duration::from_secs(2)) => claimed,
            };
            let mut deliveries = match deliveries {
                Ok(deliveries) => deliveries,
                Err(error) => {
                    warn!(%error, "claiming jobs failed; retrying");
                    // Not known to be acknowledged: they go with the next claim.
                    worker
                        .acks
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .extend(acks);
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
                    Ok(reclaimed) => {
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
                let slot = Slot {
                    room: room.clone(),
                    permit: Some(permit),
                    calls: calls.clone(),
                };
                running.spawn(SLOT.scope(std::cell::RefCell::new(slot), async move {
                    worker.handle(delivery).await;
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
        std::mem::take(
            &mut *self
                .acks
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
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
        let processed = tokio::select! {
            processed = work => processed,
            () = self.keep_lease(&receipt) => {
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
            let mut acks = self
                .acks
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            acks.push(receipt);
            (acks.len() >= CLAIM_BATCH).then(|| std::mem::take(&mut *acks))
        };
        if let Some(batch) = batch
            && let Err(error) = self.repo.store().ack(&batch).await
        {
            warn!(%error, "ack failed; the jobs may be reclaimed and resumed (finished calls never run twice)");
        }
    }

    /// Renews the claim on `receipt` every third of the visibility timeout;
    /// resolves only when the claim is no longer this worker's.
    async fn keep_lease(&self, receipt: &adas_state::Receipt) {
        let every = (self.visibility_timeout / 3).max(Duration::from_millis(10));
        loop {
            tokio::time::sleep(every).await;
            match self.repo.store().renew(&self.consumer, receipt).await {
                Ok(true) => {}
                Ok(false) => return,
                // Redis away: the claim cannot be lost meanwhile either (no
                // one can reclaim it); try again on the next beat.
                Err(error) => warn!(%error, "renewing a claim failed; trying again"),
            }
        }
    }

    /// A platform failure (not a version conflict: someone else wrote first) fails
    /// the job as INTERNAL_ERROR rather than leaving it running forever.
    async fn fail_on_platform_error(&self, slag: &str, job_id: &str, error: &WorkError) {
        if matches!(
            error,
            WorkError::Job(JobError::Store(StateError::VersionConflict { .. }))
        ) {
            return;
        }
        if let Ok(StoredJob {
            mut record,
            version,
        }) = self.repo.load(slag, job_id).await
            && !record.status.is_terminal()
            && record.status != JobStatus::Paused
        {
            record.status = JobStatus::Failed;
            record.outcome_class = Some(OutcomeClass::InternalError);
            record.error = Some(error.to_string());
            let _ = self
                .repo
                .save(
                    version,
                    &mut record,
                    (
                        EventKind::Failed,
                        "platform failure",
                        json!({"error": error.to_string()}),
                    ),
                )
                .await;
        }
    }

    /// The skill version the job started with, from its tenant's catalog.
    async fn skill(&self, record: &JobRecord) -> Result<Arc<OperationalSkill>, WorkError> {
        self.catalog
            .for_tenant(&record.tenant)?
            .get_version_async(&record.slag, &record.skill_etag)
            .await
            .map_err(WorkError::from)
    }

    /// Advances one job as far as it can go, from `carried` (the record its
    /// queue entry brought) or a fresh read.
    pub async fn process(
        &self,
        slag: &str,
        job_id: &str,
        carried: Option<adas_state::VersionedRecord>,
    ) -> Result<(), WorkError> {
        let StoredJob { record, version } = match carried.map(JobRepo::decode) {
            Some(Ok(stored)) => stored,
            _ => self.repo.load(slag, job_id).await?,
        };
        if record.status.is_terminal() || record.status == JobStatus::Paused {
            return Ok(());
        }
        // Each pickup is a span of the job's one trace (the StartJob's), on
        // whichever worker takes it; peers and MCP servers get it from here.
        let span = tracing::info_span!("job.step", %slag, %job_id, otel.kind = "internal");
        adas_runtime::telemetry::set_parent(&span, &record.trace_parent);
        tracing::Instrument::instrument(self.advance(slag, job_id, record, version), span).await
    }

    /// Advances a loaded job until it pauses, ends or the plan runs out.
    async fn advance(
        &self,
        slag: &str,
        job_id: &str,
        mut record: JobRecord,
        mut version: u64,
    ) -> Result<(), WorkError> {
        let skill = self.skill(&record).await?;
        // A job still RUNNING when a worker picks it up was left by a worker
        // that went silent (a live worker holds it until it pauses or ends).
        let (kind, message) = if record.status == JobStatus::Running {
            (
                EventKind::Reclaimed,
                "a worker took over the job of a silent worker",
            )
        } else {
            (EventKind::Running, "a worker took the job")
        };
        record.status = JobStatus::Running;
        let taken = (kind, message, json!({"worker": self.consumer}));
        // The turn's first pickup says how the conversation came here.
        if version == 1
            && let Some(note) = &record.handoff
        {
            let message = format!("handed off from `{}` to `{}`", note.from, note.to);
            let detail = json!({"handoff": note.id, "from": note.from, "to": note.to, "grants_passed": note.grants_passed});
            record.hold((EventKind::Handoff, &message, detail));
        }
        if record.plan.is_none() {
            // A new job: taking it and planning it are one write.
            let Some(next) = self.plan(&skill, &mut record, version, taken).await? else {
                return Ok(());
            };
            version = next;
        } else if self.engine.in_process() {
            // Written with the first step (the call's start, a pause, the
            // end): one write, and nothing at all if the step never comes.
            record.hold(taken);
        } else {
            version = self.repo.save(version, &mut record, taken).await?;
        }
        loop {
            let (next, stored) = match self
                .engine
                .resolve_next(&skill, StoredJob { record, version })
                .await
            {
                Ok(resolved) => resolved,
                // Someone else wrote the job (a cancel, an answer): start over from the store.
                Err(WorkError::Job(JobError::Store(StateError::VersionConflict { .. }))) => {
                    return Box::pin(self.process(slag, job_id, None)).await;
                }
                Err(error) => return Err(error),
            };
            record = stored.record;
            version = stored.version;
            match next {
                Next::Waiting => return Ok(()),
                Next::Done => {
                    // RV2: the model picks what comes next after each result.
                    if skill.engine.rv2 {
                        // The planner may be a model across the network:
                        // what is held is written before it is asked.
                        version = self.repo.flush(version, &mut record).await?;
                        if let Some(next) = self.extend(&skill, &mut record, version, None).await? {
                            version = next;
                            continue;
                        }
                    }
                    match self.finalize(&skill, record, version).await? {
                        // A replan after a failed finalization brought new calls.
                        Some((next_record, next_version)) => {
                            record = next_record;
                            version = next_version;
                            continue;
                        }
                        None => return Ok(()),
                    }
                }
                Next::Aborted(reason) => {
                    record.status = JobStatus::Cancelled;
                    record.outcome_class = Some(OutcomeClass::Cancelled);
                    record.result = Some(JobResult {
                        reply: "Stopped as you asked.".into(),
                        ..JobResult::default()
                    });
                    self.repo
                        .save(
                            version,
                            &mut record,
                            (
                                EventKind::Cancelled,
                                "the user aborted the plan",
                                json!({"reason": reason}),
                            ),
                        )
                        .await?;
                    return Ok(());
                }
                Next::Call { tool, args, path } => {
                    match self
                        .step(&skill, record, version, &tool, args, &path)
                        .await?
                    {
                        Some((next_record, next_version)) => {
                            record = next_record;
                            version = next_version;
                        }
                        None => return Ok(()),
                    }
                }
            }
        }
    }

    /// Plans once; `None` when the job ended (out of domain) or paused to
    /// clarify. `taken` (the job's pickup) is written with the outcome.
    async fn plan(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &mut JobRecord,
        version: u64,
        taken: (EventKind, &str, Json),
    ) -> Result<Option<u64>, WorkError> {
        let response = self
            .ask_planner(
                skill,
                record,
                pb::PlanRequest {
                    // The user's answer to a clarification.
                    intent_id: record
                        .intent
                        .as_ref()
                        .filter(|intent| intent.confident)
                        .map(|intent| intent.intent_id.clone())
                        .unwrap_or_default(),
                    ..pb::PlanRequest::default()
                },
            )
            .await?;
        record
            .llm
            .add(&adas_wire::decider_usage(response.decider.as_ref()));
        let detected = response.intent.unwrap_or_default();
        record.intent = Some(DetectedIntent {
            intent_id: detected.intent_id.clone(),
            confidence: detected.confidence,
            out_of_domain: detected.out_of_domain.is_some(),
            margin: detected.margin,
            confident: detected.confident,
        });
        if let Some(out_of_domain) = detected.out_of_domain {
            // Out of domain is an answer, not an error.
            record.status = JobStatus::Completed;
            record.outcome_class = Some(OutcomeClass::OutOfDomain);
            record.result = Some(JobResult {
                reply: out_of_domain.message.clone(),
                ..JobResult::default()
            });
            self.repo
                .save_batch(
                    version,
                    record,
                    vec![
                        taken,
                        (
                            EventKind::Completed,
                            "out of domain",
                            json!({"action": out_of_domain.action}),
                        ),
                    ],
                    false,
                )
                .await?;
            return Ok(None);
        }
        if response.program.is_empty() {
            return self
                .clarify(skill, record, version, &detected, taken)
                .await
                .map(|()| None);
        }
        absorb_facts(record, detected.entities.iter().chain(&response.facts));
        let program = adas_dia::parse(&response.program)
            .map_err(|error| WorkError::Plan(error.to_string()))?;
        if is_model(response.decider.as_ref()) {
            record.unplanned_tools =
                certainty::unplanned_tools(skill, &detected.intent_id, &program);
        }
        record.plan = Some(adas_dia::Plan::new(program));
        record.iteration_budget = skill.engine.max_iterations;
        let data = json!({
            "program": response.program,
            "intent": detected.intent_id,
            "workflow": response.workflow,
            "decider": adas_wire::decider_json(response.decider.as_ref()),
        });
        if self.engine.in_process() && !is_model(response.decider.as_ref()) {
            // A plan made here without a model is made again the same if the
            // job is retried: it rides with the first step's write (the
            // call's start or a pause). A model's plan is written now, with
            // the tokens it cost.
            record.hold(taken);
            record.hold((EventKind::Planned, "plan made", data));
            return Ok(Some(version));
        }
        Ok(Some(
            self.repo
                .save_batch(
                    version,
                    record,
                    vec![taken, (EventKind::Planned, "plan made", data)],
                    false,
                )
                .await?,
        ))
    }

    /// IntentService.Plan for the job: `request` says what is asked (a first
    /// plan, a chosen intent, a next step); the job's goal, context and spent
    /// tokens are filled in here.
    async fn ask_planner(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        request: pb::PlanRequest,
    ) -> Result<pb::PlanResponse, WorkError> {
        let request = pb::PlanRequest {
            skill: format!("skills/{}", record.slag),
            message: record.goal.clone(),
            context: Some(json_to_struct(&Json::Object(record.context.clone()))),
            conversation: (!record.memory.is_empty())
                .then(|| json_to_struct(&Json::Object(record.memory.clone()))),
            previous_intent_id: record.previous_intent.clone(),
            job: name(record),
            ..request
        };
        self.engine.plan(skill, record, request).await
    }

    /// Asks the planner what comes next after the calls made (`engine.loop:
    /// rv2`, or a replan with `feedback` after a failed finalization) and
    /// appends it to the plan. `None`: nothing more — the planner is done, the
    /// model-step budget is spent, or every proposed call was already made (no
    /// new evidence; a loop).
    async fn extend(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &mut JobRecord,
        version: u64,
        feedback: Option<String>,
    ) -> Result<Option<u64>, WorkError> {
        if record.model_steps >= skill.engine.max_iterations {
            return Ok(None);
        }
        let response = self
            .ask_planner(
                skill,
                record,
                pb::PlanRequest {
                    intent_id: record
                        .intent
                        .as_ref()
                        .map(|intent| intent.intent_id.clone())
                        .unwrap_or_default(),
                    next_only: true,
                    history: adas_wire::tool_calls(record),
                    feedback: feedback.clone().unwrap_or_default(),
                    ..pb::PlanRequest::default()
                },
            )
            .await?;
        record.model_steps += 1;
        record
            .llm
            .add(&adas_wire::decider_usage(response.decider.as_ref()));
        if response.done || response.program.trim().is_empty() {
            return Ok(None);
        }
        let program = adas_dia::parse(&response.program)
            .map_err(|error| WorkError::Plan(error.to_string()))?;
        // require_new_evidence (spec 004 §4.4) and loop detection: a step that
        // only repeats calls already made brings nothing new.
        let made: Vec<&str> = record
            .calls
            .iter()
            .map(|call| call.call_digest.as_str())
            .collect();
        let repeats_only = program.elements.iter().all(|node| match node {
            adas_dia::Node::Intent(call) => call.json_args().is_some_and(|args| {
                made.contains(&adas_policy::gate::call_digest(&call.name, &args).as_str())
            }),
            _ => true,
        });
        if repeats_only {
            info!(job_id = %record.job_id, "the next step only repeats calls already made; stopping");
            return Ok(None);
        }
        absorb_facts(record, response.facts.iter());
        if is_model(response.decider.as_ref()) {
            let intent_id = record
                .intent
                .as_ref()
                .map(|intent| intent.intent_id.clone())
                .unwrap_or_default();
            for tool in certainty::unplanned_tools(skill, &intent_id, &program) {
                if !record.unplanned_tools.contains(&tool) {
                    record.unplanned_tools.push(tool);
                }
            }
        }
        let mut plan = record
            .plan
            .clone()
            .ok_or_else(|| WorkError::Plan("the job has no plan".into()))?;
        plan.program.elements.extend(program.elements);
        record.plan = Some(plan);
        let data = json!({
            "program": response.program,
            "next_step": true,
            "feedback": feedback,
            "decider": adas_wire::decider_json(response.decider.as_ref()),
        });
        Ok(Some(
            self.repo
                .save(
                    version,
                    record,
                    (EventKind::Planned, "next step planned", data),
                )
                .await?,
        ))
    }

    /// Pauses the job to ask which intent the user meant: the candidates close
    /// to the best (at most three) and "none" listed, every other intent
    /// choosable by its words.
    async fn clarify(
        &self,
        skill: &OperationalSkill,
        record: &mut JobRecord,
        version: u64,
        detected: &pb::DetectIntentResponse,
        taken: (EventKind, &str, Json),
    ) -> Result<(), WorkError> {
        let best = detected
            .candidates
            .first()
            .map_or(0.0, |candidate| candidate.score);
        let intents = skill.skill.intents.clone().unwrap_or_default();
        let describe = |intent_id: &str| {
            intents
                .supported
                .iter()
                .find(|intent| intent.id == intent_id)
                .and_then(|intent| intent.description.clone())
                .unwrap_or_else(|| intent_id.replace('_', " "))
        };
        let mut options: Vec<(String, String)> = detected
            .candidates
            .iter()
            .filter(|candidate| candidate.score >= best - 0.2 && candidate.score > 0.0)
            .take(3)
            .map(|candidate| (candidate.intent_id.clone(), describe(&candidate.intent_id)))
            .collect();
        let listed = options
            .iter()
            .enumerate()
            .map(|(index, (_, label))| format!("{}) {label}", index + 1))
            .collect::<Vec<_>>()
            .join("; ");
        options.push(("none".into(), "None of these".into()));
        // Every other intent stays choosable by its words ("freeze it"),
        // unlisted: the question names the likely ones.
        let listed_ids: Vec<String> = options.iter().map(|(id, _)| id.clone()).collect();
        options.extend(
            intents
                .supported
                .iter()
                .filter(|intent| !listed_ids.contains(&intent.id))
                .map(|intent| (intent.id.clone(), describe(&intent.id))),
        );
        let prompt = format!(
            "I'm not sure what you need. Did you mean: {listed}? Reply with the number, or none."
        );
        let field = dal::ask_field("intent", "string", &prompt, options);
        let waiting = dal::single_ask(
            reason_codes::INTENT_CLARIFICATION_REQUIRED,
            field,
            prompt.clone(),
            None,
        );
        record.status = JobStatus::Paused;
        record.outcome_class = Some(OutcomeClass::UserActionRequired);
        record.waiting = Some(waiting);
        self.repo
            .save_batch(
                version,
                record,
                vec![
                    taken,
                    (
                        EventKind::Paused,
                        &prompt,
                        json!({"reason_code": reason_codes::INTENT_CLARIFICATION_REQUIRED, "confidence": detected.confidence, "margin": detected.margin}),
                    ),
                ],
                false,
            )
            .await?;
        Ok(())
    }

    /// Why `tool` may not run now: its server's current definition is not the
    /// one an admin accepted (a rug pull, or a tool the server added), or it
    /// cannot be checked. `None`: it may run.
    async fn unaccepted(
        &self,
        skill: &OperationalSkill,
        record: &JobRecord,
        tool: &str,
    ) -> (Option<String>, Option<adas_tools::ToolSpec>, bool) {
        if tool.starts_with("sys.") {
            return (None, None, false);
        }
        match self
            .tools
            .resolve(&adas_jobs::tool_request(skill, &record.tenant))
            .await
        {
            Ok(resolved) => {
                let spec = resolved
                    .tools
                    .iter()
                    .find(|spec| spec.name == tool)
                    .cloned();
                let refused = resolved
                    .unaccepted
                    .iter()
                    .any(|name| name == tool)
                    .then(|| {
                        spec.as_ref()
                            .and_then(|spec| spec.unavailable_reason.clone())
                    })
                    .flatten();
                (refused, spec, !resolved.stale_sources.is_empty())
            }
            // Fail closed: a server that will not list its tools does not get calls.
            Err(error) => (
                Some(format!(
                    "`{tool}` cannot be checked against its accepted definition: {error}"
                )),
                None,
                false,
            ),
        }
    }

    /// Pauses the job on the user's yes to the exact call `tool(args)`: one
    /// confirmation authorizes one execution (`certainty::confirmed`).
    async fn ask_confirmation(
        &self,
        skill: &Arc<OperationalSkill>,
        mut record: JobRecord,
        version: u64,
        (tool, args, digest): (&str, &Map<String, Json>, &str),
        why: String,
    ) -> Result<(), WorkError> {
        let call = certainty::describe_call(skill, tool, args);
        let prompt = format!("{why}. Shall I go ahead? {call}. (yes/no)");
        let field = dal::ask_field(
            "confirm",
            "boolean",
            &prompt,
            vec![
                ("yes".into(), "Yes, do it".into()),
                ("no".into(), "No".into()),
            ],
        );
        let approval = PendingApproval {
            tool: tool.to_owned(),
            arguments: args.clone(),
            call_digest: digest.to_owned(),
            approver: String::new(),
            reason: why.clone(),
            condition: String::new(),
        };
        record.status = JobStatus::Paused;
        record.outcome_class = Some(OutcomeClass::UserActionRequired);
        record.waiting = Some(dal::single_ask(
            reason_codes::ACTION_CONFIRMATION_REQUIRED,
            field,
            prompt.clone(),
            Some(approval),
        ));
        self.repo
                .save(
                    version,
                    &mut record,
                    (
                        EventKind::Paused,
                        &prompt,
                        json!({"reason_code": reason_codes::ACTION_CONFIRMATION_REQUIRED, "tool": tool, "why": why}),
                    ),
                )
                .await?;
        Ok(())
    }

    /// Gates and runs one call; the job as written after it, or `None` when the
    /// job paused or ended.
    async fn step(
        &self,
        skill: &Arc<OperationalSkill>,
        mut record: JobRecord,
        version: u64,
        tool: &str,
        args: Map<String, Json>,
        path: &adas_dia::SlotPath,
    ) -> Result<Option<(JobRecord, u64)>, WorkError> {
        let mut args = args;
        // Grants first: an expired one is gone before it is checked, and an
        // injected argument is in place before the call is judged.
        adas_jobs::prune_grants(&mut record, adas_state::now_ms());
        if let Some(refusal) = crate::access::deviation(skill, &mut record, tool)
            .or_else(|| crate::access::fill(skill, &mut record, tool, &mut args))
        {
            record.status = JobStatus::Failed;
            record.outcome_class = Some(OutcomeClass::PolicyDenied);
            record.error = Some(refusal.reason.clone());
            self.repo
                .save(
                    version,
                    &mut record,
                    (refusal.kind, &refusal.reason, refusal.detail),
                )
                .await?;
            return Ok(None);
        }
        let digest = adas_policy::gate::call_digest(tool, &args);
        if record.iteration >= record.iteration_budget.max(1) {
            let budget = record.iteration_budget;
            let why = format!("iteration budget of {budget} tool calls is used up");
            if skill.engine.on_max_iterations == "escalate" {
                dal::escalate(&mut record, &why, None);
                self.repo
                    .save(
                        version,
                        &mut record,
                        (
                            EventKind::Paused,
                            "iteration budget exhausted; handed to a human",
                            json!({"budget": budget, "reason_code": reason_codes::HUMAN_TAKEOVER_REQUIRED}),
                        ),
                    )
                    .await?;
                return Ok(None);
            }
            record.status = JobStatus::Failed;
            record.outcome_class = Some(OutcomeClass::EngineBudgetExhausted);
            record.error = Some(why);
            self.repo
                .save(
                    version,
                    &mut record,
                    (
                        EventKind::Failed,
                        "iteration budget exhausted",
                        json!({"budget": budget}),
                    ),
                )
                .await?;
            return Ok(None);
        }
        let repeats = record
            .calls
            .iter()
            .filter(|call| call.call_digest == digest)
            .count() as u32;
        if skill.engine.loop_detection_enabled && repeats >= skill.engine.identical_call_threshold {
            record.status = JobStatus::Failed;
            record.outcome_class = Some(OutcomeClass::EngineBudgetExhausted);
            record.error = Some(format!(
                "loop detected: `{tool}` was called {repeats} times with the same arguments"
            ));
            self.repo
                .save(
                    version,
                    &mut record,
                    (EventKind::Failed, "loop detected", json!({"tool": tool})),
                )
                .await?;
            return Ok(None);
        }
        let (mut refused, spec, stale) = self.unaccepted(skill, &record, tool).await;
        let key = adas_jobs::idempotency_key(&record.job_id, record.iteration + 1, &digest);
        // Started by a worker that stopped before writing its end: whether it
        // took effect is unknown. Only an idempotent tool is run again (with
        // the same key, so the server can tell); any other waits for a human.
        if let Some(started) = record
            .started_call
            .clone()
            .filter(|started| started.key == key)
        {
            if !certainty::idempotent(skill, tool, spec.as_ref()) {
                let call = certainty::describe_call(skill, tool, &args);
                let why = format!(
                    "{call} was started at {} and its end is unknown (the worker running it \
                     stopped); `{tool}` is not declared idempotent, so it is not run again — \
                     check whether it took effect (idempotency key {key})",
                    started.started_at
                );
                dal::escalate(&mut record, &why, None);
                self.repo
                    .save(
                        version,
                        &mut record,
                        (
                            EventKind::Paused,
                            "a call's end is unknown; handed to a human",
                            json!({"reason_code": reason_codes::HUMAN_TAKEOVER_REQUIRED, "tool": tool, "arguments": args, "idempotency_key": key, "started_at": started.started_at}),
                        ),
                    )
                    .await?;
                return Ok(None);
            }
            info!(job_id = %record.job_id, tool, %key, "an idempotent call whose end is unknown runs again");
        }
        // Side effects need certainty: a confident intent and evidence for every
        // argument, or the user's yes to the exact call.
        let side_effecting = certainty::side_effecting(skill, tool, spec.as_ref());
        // A stale list is no check: the server may have changed the tool since
        // (and fail its listing on purpose). Reads may use it; a call with side
        // effects is not made on it.
        if stale && side_effecting && refused.is_none() {
            refused = Some(format!(
                "`{tool}` cannot be checked against its accepted definition now: its \
                 server's tool list could not be refreshed, and a call with side effects \
                 is made only on a fresh check"
            ));
        }
        if side_effecting
            && let Some(why) = certainty::confirmation_needed(&record, &args, &digest)
                .or_else(|| certainty::unplanned(&record, tool, &digest))
        {
            self.ask_confirmation(skill, record, version, (tool, &args, &digest), why)
                .await?;
            return Ok(None);
        }
        let decision = self
            .engine
            .check_tool_call(skill, &record, tool, &args)
            .await;
        let decision = self.settle(&mut record, version, decision).await?;
        match pb::GateVerdict::try_from(decision.verdict).unwrap_or(pb::GateVerdict::Unspecified) {
            pb::GateVerdict::Deny | pb::GateVerdict::Unspecified => {
                record.status = JobStatus::Failed;
                record.outcome_class = Some(OutcomeClass::PolicyDenied);
                record.error = Some(format!("`{tool}` denied: {}", decision.rule));
                self.repo
                    .save(
                        version,
                        &mut record,
                        (
                            EventKind::ToolDenied,
                            &decision.reason,
                            json!({"tool": tool, "rule": decision.rule}),
                        ),
                    )
                    .await?;
                return Ok(None);
            }
            // The rule names the job's owner: her yes to this exact call,
            // once, is the approval (never another end user's).
            pb::GateVerdict::RequireApproval
                if decision.approver == adas_policy::gate::OWNER_CONFIRMS =>
            {
                if !certainty::confirmed(&record, &digest) {
                    self.ask_confirmation(
                        skill,
                        record,
                        version,
                        (tool, &args, &digest),
                        decision.reason.clone(),
                    )
                    .await?;
                    return Ok(None);
                }
            }
            pb::GateVerdict::RequireApproval => {
                let prompt = format!(
                    "Approval required from {}: {} ({tool})",
                    decision.approver, decision.reason
                );
                let stamp = now();
                record.status = JobStatus::Paused;
                record.outcome_class = Some(OutcomeClass::ApprovalRequired);
                record.waiting = Some(Waiting {
                    reason_code: reason_codes::APPROVAL_REQUIRED.into(),
                    requested_fields: Vec::new(),
                    prompt_message: prompt.clone(),
                    correlation_id: decision.correlation_id.clone(),
                    created_at: stamp.clone(),
                    last_prompt_at: stamp,
                    fields: Vec::new(),
                    prompt_count: 1,
                    invalid_answer_count: 0,
                    approval: Some(PendingApproval {
                        tool: tool.to_owned(),
                        arguments: args,
                        call_digest: decision.call_digest.clone(),
                        approver: decision.approver.clone(),
                        reason: decision.reason.clone(),
                        condition: decision.condition.clone(),
                    }),
                });
                self.repo.save(version, &mut record, (EventKind::Paused, &prompt, json!({"reason_code": reason_codes::APPROVAL_REQUIRED, "approver": decision.approver}))).await?;
                return Ok(None);
            }
            pb::GateVerdict::Allow => {}
        }
        if let Some(reason) = refused {
            adas_runtime::metrics::count_unaccepted_tool_call();
            record.status = JobStatus::Failed;
            record.outcome_class = Some(OutcomeClass::PolicyDenied);
            record.error = Some(reason.clone());
            self.repo
                .save(
                    version,
                    &mut record,
                    (
                        EventKind::ToolDenied,
                        &reason,
                        json!({"tool": tool, "rule": "tool definition not accepted"}),
                    ),
                )
                .await?;
            return Ok(None);
        }
        // A compare-and-set, not a bare append: a call with side effects
        // starts only if nobody wrote the job since this worker read it (a
        // cancel stops it). The record says it started, so a takeover knows
        // its end is unknown.
        let (tenant, job_id) = (record.tenant.clone(), record.job_id.clone());
        record.started_call = Some(adas_jobs::StartedCall {
            key: key.clone(),
            tool: tool.to_owned(),
            started_at: now(),
        });
        let relied_on = crate::access::relied_on(skill, &record, tool);
        let start = self.repo.save(
            version,
            &mut record,
            (
                EventKind::ToolStarted,
                tool,
                json!({
                    "tool": tool,
                    "arguments": args,
                    "idempotency_key": key,
                    // The grants the access policy held the call to, as
                    // their issuing job and value digest (for the audit).
                    "grants": relied_on,
                    // The gate's word on this exact call, for the audit
                    // (the e2e invariant checker holds every call to it, e2e/CHAOS.md).
                    "gate": {
                        "verdict": "allow",
                        "rule_kind": pb::GateRuleKind::try_from(decision.rule_kind)
                            .map_or("", |kind| kind.as_str_name()),
                        "call_digest": decision.call_digest,
                        "approver": decision.approver,
                    },
                }),
            ),
        );
        let call = self.run_call(
            skill,
            (tool, spec.as_ref()),
            &args,
            (&key, &tenant, &job_id),
        );
        let (version, outcome) = if side_effecting {
            let version = start.await?;
            (version, call.await)
        } else {
            // A read-only call changes nothing, so it need not wait for its
            // start to be written: the write is sent first and runs beside the
            // call (one round trip less a call). If the write fails — a cancel
            // came first — the call's output is dropped with the step.
            let (version, outcome) = tokio::join!(start, call);
            (version?, outcome)
        };
        if outcome.is_err() {
            metrics::counter!("adas_tool_call_errors_total", "tool" => adas_jobs::metric_tool_label(tool))
                .increment(1);
        }
        // The result issues grants before anything else sees it; then the
        // skill's response filters apply, so the plan, the record, events,
        // the reply and every prompt hold only what may be shown.
        let outcome = outcome.map(|mut value| {
            crate::access::issue(skill, &mut record, tool, &value);
            adas_skill::access::filter_result(&skill.skill, &mut value);
            value
        });
        let mut plan = record
            .plan
            .clone()
            .ok_or_else(|| WorkError::Plan("the job has no plan".into()))?;
        adas_dia::complete_call(&mut plan.program, path, &outcome)
            .map_err(|error| WorkError::Plan(error.to_string()))?;
        record.plan = Some(plan);
        record.iteration += 1;
        let (output, is_error) = match &outcome {
            Ok(value) => (self.keep_large(&record.slag, value).await, false),
            Err(error) => (Json::String(error.to_string()), true),
        };
        record.calls.push(CallRecord {
            tool: tool.to_owned(),
            arguments: args,
            call_digest: digest,
            output: output.clone(),
            is_error,
            iteration: record.iteration,
            finished_at: now(),
        });
        record.started_call = None;
        if let Err(adas_dia::ToolError::Unrecoverable(error)) = &outcome {
            record.status = JobStatus::Failed;
            record.outcome_class = Some(OutcomeClass::ToolFailed);
            record.error = Some(error.clone());
            self.repo
                .save(
                    version,
                    &mut record,
                    (
                        EventKind::Failed,
                        "a tool failed",
                        json!({"tool": tool, "error": error}),
                    ),
                )
                .await?;
            return Ok(None);
        }
        let finished = json!({"tool": tool, "is_error": is_error, "output": output});
        if self.engine.in_process() {
            // Held: the result rides with the job's next write — the next
            // call's start, a pause or the end — decided in this process
            // without I/O. A crash before it leaves the call's end unknown,
            // as a crash during the call does; a failed step writes it first
            // (`settle`).
            record.hold((EventKind::ToolFinished, tool, finished));
            return Ok(Some((record, version)));
        }
        let version = self
            .repo
            .save(
                version,
                &mut record,
                (EventKind::ToolFinished, tool, finished),
            )
            .await?;
        Ok(Some((record, version)))
    }

    /// Runs one gated call — a core tool in-process, any other on the skill's
    /// MCP server — and records its duration.
    async fn run_call(
        &self,
        skill: &OperationalSkill,
        (tool, spec): (&str, Option<&adas_tools::ToolSpec>),
        args: &Map<String, Json>,
        (key, tenant, job_id): (&str, &str, &str),
    ) -> Result<Json, adas_dia::ToolError> {
        let started = std::time::Instant::now();
        let call_span = tracing::info_span!("tool.call", %tool, otel.kind = "client");
        let outcome = if tool.starts_with("sys.") {
            adas_tools::run_core(tool, args)
                .map_err(|error| adas_dia::ToolError::Recoverable(error.to_string()))
        } else {
            // Where the resolution placed it: its connection's server under
            // the server's own name, or the skill's server.
            let route = match spec.map(|spec| (&spec.source, spec.remote_name.as_deref())) {
                Some((adas_tools::ToolSource::Mcp { uri }, remote)) => {
                    Some((uri.clone(), remote.unwrap_or(tool)))
                }
                _ => record_uri(skill).map(|uri| (uri, tool)),
            };
            match route {
                Some((uri, remote)) => {
                    // The tool server is a third party: it gets the suite's
                    // own trace id, never the one a caller chose.
                    let traceparent = adas_runtime::telemetry::egress_traceparent(
                        &call_span.in_scope(adas_runtime::telemetry::current_traceparent),
                        job_id,
                    );
                    let meta = adas_tools::CallMeta {
                        idempotency_key: Some(key),
                        traceparent: Some(&traceparent),
                    };
                    let share = step_out(tenant).await;
                    let called = tracing::Instrument::instrument(
                        self.mcp.call_tool(&uri, remote, args, meta),
                        call_span,
                    )
                    .await;
                    if share.is_some() {
                        drop(share);
                        step_in().await;
                    }
                    called
                }
                .map_err(|error| match error {
                    McpError::ToolFailed { message, .. } => {
                        adas_dia::ToolError::Recoverable(message)
                    }
                    other => adas_dia::ToolError::Unrecoverable(other.to_string()),
                }),
                None => Err(adas_dia::ToolError::Unrecoverable(format!(
                    "`{tool}` has no MCP server to run on"
                ))),
            }
        };
        let result = if outcome.is_ok() { "ok" } else { "error" };
        metrics::histogram!("adas_tool_call_seconds", "tool" => adas_jobs::metric_tool_label(tool), "result" => result)
            .record(started.elapsed());
        outcome
    }

    /// `result`, after writing what the record holds back when it failed: a
    /// step that fails after a tool's end (a passing store error, say) must
    /// not leave that end unknown, or its retry would take the call for one
    /// a dead worker left half done.
    async fn settle<T>(
        &self,
        record: &mut JobRecord,
        version: u64,
        result: Result<T, WorkError>,
    ) -> Result<T, WorkError> {
        if result.is_err()
            && !record.unwritten.is_empty()
            && let Err(error) = self.repo.flush(version, record).await
        {
            warn!(job_id = %record.job_id, %error, "could not write a step's held events");
        }
        result
    }

    /// `output` as the job keeps it: itself when small, else a reference to
    /// its copy in the slag's focus cache (`focus_ref`, `bytes`, `preview`).
    /// A cache that cannot take it leaves the output inline: never lost.
    async fn keep_large(&self, slag: &str, output: &Json) -> Json {
        let text = output.to_string();
        if text.len() <= FOCUS_INLINE_MAX_BYTES {
            return output.clone();
        }
        match self.focus.put(slag, text.as_bytes()).await {
            Ok(id) => json!({
                "focus_ref": id,
                "bytes": text.len(),
                "preview": text.chars().take(FOCUS_PREVIEW_CHARS).collect::<String>(),
            }),
            Err(error) => {
                warn!(%error, slag, "focus cache refused a tool output; kept inline");
                output.clone()
            }
        }
    }

    /// A call's output as the tool returned it: a focus reference is read back
    /// from the cache (an evicted one stays the reference). A store that cannot
    /// be read fails the step, to be retried: finalization never judges a
    /// preview it mistook for the output.
    async fn full_output(&self, slag: &str, output: &Json) -> Result<Json, WorkError> {
        let Some(id) = output.get("focus_ref").and_then(Json::as_str) else {
            return Ok(output.clone());
        };
        match self.focus.get(slag, id).await {
            Ok(Some(bytes)) => {
                Ok(serde_json::from_slice(&bytes).unwrap_or_else(|_| output.clone()))
            }
            Ok(None) | Err(FocusError::InvalidKey(_) | FocusError::TooLarge { .. }) => {
                Ok(output.clone())
            }
            Err(FocusError::Store(error)) => Err(JobError::Store(error).into()),
        }
    }

    /// Finalizes; `Some` when a failed finalization bought a replan with new
    /// calls (the loop goes on), `None` when the job completed or was escalated.
    async fn finalize(
        &self,
        skill: &Arc<OperationalSkill>,
        mut record: JobRecord,
        mut version: u64,
    ) -> Result<Option<(JobRecord, u64)>, WorkError> {
        let mut results = record.context.clone();
        let mut succeeded = Vec::new();
        let outputs = async {
            let mut outputs = Vec::new();
            for call in record.calls.iter().filter(|call| !call.is_error) {
                let output = self.full_output(&record.slag, &call.output).await?;
                outputs.push((call.tool.clone(), output));
            }
            Ok::<_, WorkError>(outputs)
        }
        .await;
        let outputs = self.settle(&mut record, version, outputs).await?;
        for (tool, output) in &outputs {
            succeeded.push(tool.clone());
            if let Json::Object(fields) = output {
                for (key, value) in fields {
                    results.insert(key.clone(), value.clone());
                }
            }
            results.insert(tool.clone(), output.clone());
        }
        // The answer is what the tools returned, not the contract's field names.
        let labelled: Vec<(String, Json)> = outputs
            .iter()
            .filter(|(tool, _)| !tool.starts_with("sys."))
            .map(|(tool, output)| (certainty::tool_label(skill, tool), output.clone()))
            .collect();
        let template = record.intent.as_ref().and_then(|detected| {
            skill
                .skill
                .intents
                .iter()
                .flat_map(|intents| &intents.supported)
                .find(|intent| intent.id == detected.intent_id)
                .and_then(|intent| intent.reply.clone())
        });
        // A reply-only plan (sys.emitUserMessage) says what it says.
        let spoken: Vec<&str> = outputs
            .iter()
            .filter(|(tool, _)| tool == "sys.emitUserMessage")
            .filter_map(|(_, output)| output.get("text").and_then(Json::as_str))
            .collect();
        let draft = if labelled.is_empty() && !spoken.is_empty() {
            spoken.join("\n")
        } else {
            adas_policy::polish::compose(template.as_deref(), &labelled, &results)
        };
        let user_waited = record
            .audit
            .iter()
            .any(|entry| matches!(entry.action.as_str(), "answer" | "clarify" | "confirm"));
        let skill_name = format!("skills/{}", record.slag);
        let verdict = self
            .engine
            .finalize(
                skill,
                &record,
                pb::FinalizeRequest {
                    skill: skill_name.clone(),
                    goal: record.goal.clone(),
                    draft_reply: draft.clone(),
                    results: Some(json_to_struct(&Json::Object(results.clone()))),
                    intent_id: record
                        .intent
                        .as_ref()
                        .map(|intent| intent.intent_id.clone())
                        .unwrap_or_default(),
                    succeeded_tools: succeeded,
                    job: name(&record),
                },
            )
            .await?;
        record
            .llm
            .add(&adas_wire::decider_usage(verdict.decider.as_ref()));
        if !verdict.passed && record.finalization_failures < skill.engine.finalization_max_retries {
            // The planner may be a model across the network: what is held is
            // written before it is asked.
            version = self.repo.flush(version, &mut record).await?;
            // A replan must bring new evidence (spec 004 §4.4): the planner is
            // told why the draft failed; calls it already made do not count.
            record.finalization_failures += 1;
            let feedback = verdict
                .reasons
                .iter()
                .map(|reason| reason.detail.clone())
                .chain(
                    verdict
                        .missing_fields
                        .iter()
                        .map(|field| format!("missing field: {field}")),
                )
                .collect::<Vec<_>>()
                .join("; ");
            if let Some(next) = self
                .extend(skill, &mut record, version, Some(feedback))
                .await?
            {
                return Ok(Some((record, next)));
            }
        }
        let required = skill
            .skill
            .output_contract
            .as_ref()
            .map(|contract| contract.required_fields.clone())
            .unwrap_or_default();
        let output_fields: Map<String, Json> = if required.is_empty() {
            outputs
                .last()
                .and_then(|(_, output)| output.as_object().cloned())
                .unwrap_or_default()
        } else {
            required
                .iter()
                .filter_map(|field| {
                    results
                        .get(field)
                        .map(|value| (field.clone(), value.clone()))
                })
                .collect()
        };
        let polished = self
            .engine
            .polish_reply(
                skill,
                &record,
                pb::PolishReplyRequest {
                    skill: skill_name,
                    reply: draft,
                    results: Some(json_to_struct(&Json::Object(output_fields.clone()))),
                    resources: record.resources.clone().into_iter().collect(),
                    user_waited,
                    job: name(&record),
                },
            )
            .await?;
        record
            .llm
            .add(&adas_wire::decider_usage(polished.decider.as_ref()));
        // Past its replans (or when no planner brought new evidence) a failed
        // verdict goes to a human with the draft attached.
        let finalization = json!({
            "passed": verdict.passed,
            "skipped": verdict.skipped,
            "score": verdict.score,
            "missing_fields": verdict.missing_fields,
            "reasons": verdict.reasons.iter().map(|reason| reason.detail.clone()).collect::<Vec<_>>(),
            "judge": adas_wire::decider_json(verdict.decider.as_ref()),
            "polisher": adas_wire::decider_json(polished.decider.as_ref()),
            "llm_usage": record.llm,
        });
        // The verdict and what follows it are one write.
        let finalized = (
            EventKind::Finalized,
            if verdict.passed {
                "the finalization gate passed the reply"
            } else {
                "the finalization gate did not pass the reply"
            },
            finalization.clone(),
        );
        record.result = Some(JobResult {
            reply: polished.text.clone(),
            output_fields,
            finalization: finalization.clone(),
        });
        if !verdict.passed {
            dal::escalate(
                &mut record,
                "the finalization gate did not pass the reply",
                Some(&polished.text),
            );
            self.repo
                .save_batch(
                    version,
                    &mut record,
                    vec![
                        finalized,
                        (
                            EventKind::Paused,
                            "handed to a human: the reply did not pass finalization",
                            json!({"reason_code": reason_codes::HUMAN_TAKEOVER_REQUIRED, "finalization": finalization}),
                        ),
                    ],
                    false,
                )
                .await?;
            return Ok(None);
        }
        record.status = JobStatus::Completed;
        record.outcome_class = Some(OutcomeClass::Success);
        self.repo
            .save_batch(
                version,
                &mut record,
                vec![finalized, (EventKind::Completed, "completed", finalization)],
                false,
            )
            .await?;
        Ok(None)
    }
}

/// Whether a model made the plan (its tools outside the intent's workflow then
/// need the user's yes for side effects).
fn is_model(decider: Option<&pb::Decider>) -> bool {
    decider.is_some_and(|decider| decider.name.starts_with("model:"))
}

/// Values read from the user's words (entities and plan facts) go into the
/// context; matched ones are evidence. A guess may fill a read-only call,
/// never a side-effecting one without the user's yes.
fn absorb_facts<'a>(record: &mut JobRecord, facts: impl Iterator<Item = &'a pb::Entity>) {
    for fact in facts {
        let Some(value) = fact.value.as_ref().map(value_to_json) else {
            continue;
        };
        record
            .context
            .entry(fact.name.clone())
            .or_insert_with(|| value.clone());
        if !fact.guessed
            && !record
                .evidence
                .iter()
                .any(|known| known.name == fact.name && adas_jobs::same_value(&known.value, &value))
        {
            record.evidence.push(Evidence {
                name: fact.name.clone(),
                value,
                source: "message".into(),
            });
        }
    }
}

fn record_uri(skill: &OperationalSkill) -> Option<String> {
    skill
        .skill
        .mcp_server
        .clone()
        .filter(|uri| !uri.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::WorkError;
    use adas_jobs::JobError;
    use adas_policy::gate::ApprovalError;
    use adas_state::StateError;

    fn reset() -> StateError {
        StateError::Redis(std::io::Error::from(std::io::ErrorKind::ConnectionReset).into())
    }

    /// A Redis connection reset mid-step is retried wherever the step met it:
    /// in the job's own record or in the gate's approval book.
    #[test]
    fn a_connection_reset_is_transient_in_every_store_the_step_reads() {
        assert!(WorkError::Job(JobError::Store(reset())).is_transient());
        assert!(WorkError::Approval(ApprovalError::Store(reset())).is_transient());
        assert!(!WorkError::Approval(ApprovalError::SelfApproval("ana".into())).is_transient());
        assert!(!WorkError::Plan("broken".into()).is_transient());
    }
}
