//! The worker: an interpreter of the job's state machine
//! (`adas_step::work`). It applies what it learned to its copy of the job,
//! saves the step's transition (`JobRepo::apply`: held to ride with the next
//! write, or written now), performs the one effect the step names (through
//! `adas_engine::Performer`: the step engine, in process by default, and the
//! tool call's I/O), and applies what the effect answered — until a step
//! names no effect: the job paused or ended. The call's start is the step's
//! write, so the call itself is made here (`call_tool`). A paused job is
//! left: it is in no queue and burns no iteration. Claiming lives in
//! `claim.rs`.

use std::sync::Arc;
use std::time::Duration;

use adas_catalog::Catalog;
use adas_engine::{Performer, WorkError};
use adas_jobs::{JobError, JobRecord, JobRepo, JobStatus, StoredJob};
use adas_skill::OperationalSkill;
use adas_state::StateError;
use adas_step::work::{self, Effect, Input, Step};
use tracing::warn;

/// What a worker needs.
#[derive(Clone)]
pub struct Worker {
    /// Job storage.
    pub repo: JobRepo,
    /// Skills.
    pub catalog: Arc<Catalog>,
    /// What performs a step's effects: the engines and the tool calls.
    pub effects: Performer,
    /// Consumer name in the queue's group.
    pub consumer: String,
    /// A job held by a silent worker this long is taken over.
    pub visibility_timeout: Duration,
    /// Deliveries handled and not yet acknowledged.
    pub acks: Arc<std::sync::Mutex<Vec<adas_state::Receipt>>>,
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Worker")
            .field("consumer", &self.consumer)
            .finish_non_exhaustive()
    }
}

fn is_conflict(error: &WorkError) -> bool {
    matches!(
        error,
        WorkError::Job(JobError::Store(StateError::VersionConflict { .. }))
    )
}

/// A call's start refused: the skill's policy changed since the gate spoke
/// on the version this process held.
fn policy_changed(error: &WorkError) -> bool {
    matches!(
        error,
        WorkError::Job(JobError::Store(StateError::PolicyChanged { .. }))
    )
}

/// The job as it stood when the gate spoke on a call, on a version of the
/// skill held here, with the call and the tool's definition then: a start
/// refused for a changed policy is gated again from here (nothing is
/// written between the gate and the start).
struct Gated {
    record: JobRecord,
    version: u64,
    call: Box<work::Call>,
    spec: Option<adas_tools::ToolSpec>,
}

impl Worker {
    /// A platform failure (not a version conflict: someone else wrote first) fails
    /// the job as INTERNAL_ERROR rather than leaving it running forever.
    pub(crate) async fn fail_on_platform_error(&self, slag: &str, job_id: &str, error: &WorkError) {
        if is_conflict(error) {
            return;
        }
        if let Ok(StoredJob {
            mut record,
            version,
        }) = self.repo.load(slag, job_id).await
            && !record.status.is_terminal()
            && record.status != JobStatus::Paused
        {
            let failed = work::platform_failure(&error.to_string());
            let _ = self.repo.save(version, &mut record, failed).await;
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
        let span = tracing::info_span!(
            "job.step",
            otel.kind = "internal",
            adas.job.id = %job_id,
            adas.skill = %slag,
            adas.tenant = %record.tenant,
        );
        adas_runtime::telemetry::set_parent(&span, &record.trace_parent);
        // The person's call that resumed it, in a trace of its own: linked
        // by this step alone (the next write forgets it).
        adas_runtime::telemetry::link(&span, &record.resumed_by_trace);
        let mut record = record;
        record.resumed_by_trace.clear();
        tracing::Instrument::instrument(self.advance(slag, job_id, record, version), span).await
    }

    /// Advances a loaded job until it pauses or ends: apply, save, perform,
    /// repeat.
    async fn advance(
        &self,
        slag: &str,
        job_id: &str,
        mut record: JobRecord,
        mut version: u64,
    ) -> Result<(), WorkError> {
        let skill = self.skill(&record).await?;
        let mut input = Input::Picked {
            worker: self.consumer.clone(),
            // A job still RUNNING when a worker picks it up was left by a
            // worker that went silent (a live one holds it until it pauses
            // or ends).
            reclaimed: record.status == JobStatus::Running,
            first_turn: version == 1,
        };
        // The tool's definition, from its vetting to its call.
        let mut spec = None;
        let mut gated = None;
        loop {
            let Step {
                transition,
                write,
                effect,
            } = work::apply(&skill, &mut record, input);
            let started = std::time::Instant::now();
            // The effect with the write before it: where a step's time goes.
            let timed = |name: &'static str| {
                metrics::histogram!("adas_step_effect_seconds", "effect" => name)
                    .record(started.elapsed().as_secs_f64());
            };
            let name = effect.as_ref().map_or("end", Effect::name);
            let performed = match effect {
                None => {
                    if let Some(transition) = transition {
                        self.repo.save(version, &mut record, transition).await?;
                    }
                    timed(name);
                    return Ok(());
                }
                // The call's start is the step's write (see `call_tool`).
                Some(Effect::Run(call)) => {
                    let start =
                        transition.unwrap_or_else(|| adas_jobs::Transition::run(Vec::new()));
                    let called = self
                        .call_tool(
                            &skill,
                            (&mut record, &mut version),
                            start,
                            call,
                            spec.take(),
                        )
                        .await;
                    match (called, gated.take()) {
                        (Err(error), Some(before)) if policy_changed(&error) => {
                            self.gate_again(&skill, (&mut record, &mut version), &mut spec, before)
                                .await
                        }
                        (called, _) => called,
                    }
                }
                Some(Effect::ResolveNext) => {
                    version = self
                        .repo
                        .apply(version, &mut record, transition, write)
                        .await?;
                    let job = StoredJob { record, version };
                    match self.effects.engine.resolve_next(&skill, job).await {
                        Ok((next, stored)) => {
                            (record, version) = (stored.record, stored.version);
                            Ok(Input::Resolved(next))
                        }
                        // Someone else wrote the job (a cancel, an answer):
                        // start over from the store.
                        Err(error) if is_conflict(&error) => {
                            return Box::pin(self.process(slag, job_id, None)).await;
                        }
                        Err(error) => return Err(error),
                    }
                }
                Some(effect) => {
                    version = self
                        .repo
                        .apply(version, &mut record, transition, write)
                        .await?;
                    let performed = self
                        .effects
                        .perform(&skill, &mut record, &mut spec, effect)
                        .await;
                    // A word on a version held here may find it changed at the
                    // call's start (asking the gate changed nothing).
                    if let Ok(Input::GateSaid(call, word)) = &performed
                        && word.policy.as_ref().is_some_and(|policy| !policy.read)
                    {
                        gated = Some(Gated {
                            record: record.clone(),
                            version,
                            call: call.clone(),
                            spec: spec.clone(),
                        });
                    }
                    performed
                }
            };
            timed(name);
            input = match performed {
                Ok(input) => input,
                Err(error) => {
                    self.keep_the_end(&mut record, version).await;
                    return Err(error);
                }
            };
        }
    }

    /// A call's start found the skill's policy changed since the gate spoke
    /// on the version this process held: back to the job as it stood at the
    /// gate, and the gate again, on the policy as read now (a start on a
    /// policy read now is not refused: this happens once a call at most).
    async fn gate_again(
        &self,
        skill: &Arc<OperationalSkill>,
        (record, version): (&mut JobRecord, &mut u64),
        spec: &mut Option<adas_tools::ToolSpec>,
        before: Gated,
    ) -> Result<Input, WorkError> {
        tracing::info!(job_id = %record.job_id, tool = %before.call.tool, "the skill's policy changed since the gate spoke: gated again");
        metrics::counter!("adas_gate_policy_rereads_total").increment(1);
        (*record, *version, *spec) = (before.record, before.version, before.spec);
        let word = self
            .effects
            .engine
            .check_tool_call(skill, record, (&before.call.tool, &before.call.args), true)
            .await?;
        Ok(Input::GateSaid(before.call, word))
    }

    /// Writes a call's end the record holds when a step fails after it (a
    /// passing store error, say): a retry must not take the call for one a
    /// dead worker left half done.
    async fn keep_the_end(&self, record: &mut JobRecord, version: u64) {
        if !work::holds_an_end(record) {
            return;
        }
        let written = self
            .repo
            .flush(version, record, adas_jobs::Transition::run(Vec::new()))
            .await;
        if let Err(error) = written {
            warn!(job_id = %record.job_id, %error, "could not write a step's held events");
        }
    }

    /// Makes one call the checks allowed. Its start (`start`, the step's
    /// write) is a compare-and-set: a call starts only if nobody wrote the
    /// job since this worker read it (a cancel stops it) and the skill's
    /// policy is still the version the gate spoke on. A read-only call on a
    /// policy the gate read for it changes nothing, so it need not wait for
    /// its start to be written: the call is sent first, and the write (its
    /// record encoded meanwhile) runs beside it — one round trip less a call,
    /// and the encoding off the call's path; if the write fails — a cancel
    /// came first — the call's output is dropped with the step.
    async fn call_tool(
        &self,
        skill: &Arc<OperationalSkill>,
        (record, version): (&mut JobRecord, &mut u64),
        start: adas_jobs::Transition,
        call: Box<work::Call>,
        spec: Option<adas_tools::ToolSpec>,
    ) -> Result<Input, WorkError> {
        let (tenant, job_id) = (record.tenant.clone(), record.job_id.clone());
        // The start holds only on the policy the gate's word stands on.
        let policy = call.word.as_ref().and_then(|word| word.policy.clone());
        let written = self.repo.save_on(*version, record, start, policy.as_ref());
        let running = self.effects.run_call(
            skill,
            (&call.tool, spec.as_ref()),
            &call.args,
            (&call.key, &tenant, &job_id),
        );
        // A read beside its start only on a policy read for it: on a version
        // held here, the start checks first that it is still current (a
        // read a tightened policy denies never reaches its server).
        let beside = !call.side_effecting && policy.as_ref().is_none_or(|policy| policy.read);
        let outcome = if !beside {
            *version = written.await?;
            running.await
        } else {
            // Polled in this order: the call's request leaves before the
            // record is encoded for the write.
            let (outcome, written) = tokio::join!(running, written);
            *version = written?;
            outcome
        };
        if outcome.is_err() {
            let (tenant, skill_label) = adas_jobs::job_labels(&tenant, &skill.slag);
            metrics::counter!(
                "adas_tool_call_errors_total",
                "tenant" => tenant,
                "skill" => skill_label,
                "tool" => adas_jobs::metric_label(adas_jobs::Labelled::Tool, &call.tool)
            )
            .increment(1);
        }
        Ok(Input::Ended(call, outcome))
    }
}
