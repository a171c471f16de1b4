//! The worker's driver: load a job, ask `adas-step` what follows, perform
//! the one effect it names (through the step engine, in process by default),
//! save the transition — plan once, then loop: next call, its guards and the
//! gate, the call's start (a compare-and-set), the call, its result; and
//! finalize. A paused job is left: it is in no queue and burns no iteration.
//! Claiming lives in `claim.rs`, a call's effects in `call.rs`.

mod phases;

use std::sync::Arc;
use std::time::Duration;

use adas_catalog::Catalog;
use adas_jobs::focus::FocusCache;
use adas_jobs::{
    Event, JobError, JobRecord, JobRepo, JobStatus, OutcomeClass, StoredJob, Transition,
};
use adas_skill::OperationalSkill;
use adas_state::StateError;
use adas_step::effect::PlanAsk;
use adas_step::guard::{self, Call, GateWord};
use adas_step::plan::Planning;
use adas_step::{Cancellation, Failure, JobResult, certainty, finish};
use adas_tools::McpConnector;
use serde_json::{Map, Value as Json};
use tracing::{info, warn};

use crate::engine::Next;
use crate::error::WorkError;

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

impl std::fmt::Debug for Worker {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Worker")
            .field("consumer", &self.consumer)
            .finish_non_exhaustive()
    }
}

/// Where a step leaves the job: on to the next step (as written, or held on
/// the worker's copy), or stopped (paused or ended, written).
pub(crate) type Stepped = Option<(JobRecord, u64)>;

/// A call the guards and the gate let through, with what running it needs.
pub(crate) struct Allowed<'a> {
    /// The tool.
    pub tool: &'a str,
    /// Its arguments (grants injected).
    pub args: Map<String, Json>,
    /// Its digest.
    pub digest: String,
    /// The idempotency key it is sent with.
    pub key: String,
    /// The tool's accepted definition, when it has one.
    pub spec: Option<adas_tools::ToolSpec>,
    /// Whether it may change something outside the job.
    pub side_effecting: bool,
    /// The gate's word on it (for the audit).
    pub word: GateWord,
    /// Where the call sits in the plan.
    pub path: &'a adas_dia::SlotPath,
}

fn is_conflict(error: &WorkError) -> bool {
    matches!(
        error,
        WorkError::Job(JobError::Store(StateError::VersionConflict { .. }))
    )
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
            let failed = Transition::fail(
                OutcomeClass::InternalError,
                error.to_string(),
                Event::Failed(Failure::Platform {
                    error: error.to_string(),
                }),
            );
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
        let taken = Event::Taken {
            worker: self.consumer.clone(),
            reclaimed: record.status == JobStatus::Running,
        };
        // The turn's first pickup says how the conversation came here.
        if version == 1
            && let Some(note) = &record.handoff
        {
            let handoff = Event::Handoff {
                handoff: note.id.clone(),
                from: note.from.clone(),
                to: note.to.clone(),
                grants_passed: note.grants_passed.clone(),
            };
            record.hold(handoff);
        }
        record.hold(taken);
        if record.plan.is_none() {
            // A new job: taking it and planning it are one write.
            let Some(next) = self.plan(&skill, &mut record, version).await? else {
                return Ok(());
            };
            version = next;
        } else if !self.engine.in_process() {
            // Otherwise written with the first step (the call's start, a
            // pause, the end): one write, and nothing at all if the step
            // never comes.
            version = self
                .repo
                .save(version, &mut record, Transition::run(Vec::new()))
                .await?;
        }
        loop {
            let (next, stored) = match self
                .engine
                .resolve_next(&skill, StoredJob { record, version })
                .await
            {
                Ok(resolved) => resolved,
                // Someone else wrote the job (a cancel, an answer): start over from the store.
                Err(error) if is_conflict(&error) => {
                    return Box::pin(self.process(slag, job_id, None)).await;
                }
                Err(error) => return Err(error),
            };
            (record, version) = (stored.record, stored.version);
            let stepped = match next {
                Next::Waiting(_) => None,
                Next::Done(_) => self.done(&skill, record, version).await?,
                Next::Aborted(reason) => {
                    let stopped = JobResult {
                        reply: "Stopped as you asked.".into(),
                        ..JobResult::default()
                    };
                    let cancelled = Transition::cancel(
                        Some(stopped),
                        Event::Cancelled(Cancellation::Aborted { reason }),
                    );
                    self.repo.save(version, &mut record, cancelled).await?;
                    None
                }
                Next::Call { tool, args, path } => {
                    self.step(&skill, record, version, (&tool, args), &path)
                        .await?
                }
            };
            match stepped {
                Some(next) => (record, version) = next,
                None => return Ok(()),
            }
        }
    }

    /// Gates and runs one call; the job as it stands after it, or `None`
    /// when the job paused or ended.
    async fn step(
        &self,
        skill: &Arc<OperationalSkill>,
        mut record: JobRecord,
        version: u64,
        (tool, mut args): (&str, Map<String, Json>),
        path: &adas_dia::SlotPath,
    ) -> Result<Stepped, WorkError> {
        // Grants first: an expired one is gone before it is checked, and an
        // injected argument is in place before the call is judged.
        adas_jobs::prune_grants(&mut record, adas_state::now_ms());
        if let Some(refusal) = crate::access::deviation(skill, &mut record, tool)
            .or_else(|| crate::access::fill(skill, &mut record, tool, &mut args))
        {
            self.repo.save(version, &mut record, refusal).await?;
            return Ok(None);
        }
        let digest = adas_policy::gate::call_digest(tool, &args);
        let call = Call {
            tool,
            args: &args,
            digest: &digest,
        };
        let stop = guard::budget(skill, &record)
            .or_else(|| guard::repeated(skill, &record, call))
            .or_else(|| guard::escalation(skill, call));
        if let Some(stop) = stop {
            self.repo.save(version, &mut record, stop).await?;
            return Ok(None);
        }
        let (mut refused, spec, stale) = self.unaccepted(skill, &record, tool).await;
        let hint = spec.as_ref().and_then(|spec| spec.read_only_hint);
        let key = adas_jobs::idempotency_key(&record.job_id, record.iteration + 1, &digest);
        if let Some(stop) = guard::unknown_end(skill, &record, call, &key, hint) {
            self.repo.save(version, &mut record, stop).await?;
            return Ok(None);
        }
        if record
            .started_call
            .as_ref()
            .is_some_and(|started| started.key == key)
        {
            info!(job_id = %record.job_id, tool, %key, "an idempotent call whose end is unknown runs again");
        }
        // Side effects need certainty: a confident intent and evidence for every
        // argument, or the user's yes to the exact call.
        let side_effecting = certainty::side_effecting(skill, tool, hint);
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
        if side_effecting && let Some(why) = guard::certainty(skill, &record, call) {
            let ask = guard::confirmation(skill, &record, call, why);
            self.repo.save(version, &mut record, ask).await?;
            return Ok(None);
        }
        let word = self
            .engine
            .check_tool_call(skill, &record, tool, &args)
            .await;
        let word = self.keep_held(&mut record, version, word).await?;
        if let Some(stop) = guard::gate(skill, &record, call, &word) {
            self.repo.save(version, &mut record, stop).await?;
            return Ok(None);
        }
        // A side effect, once otherwise allowed, is checked against its
        // server's list as it is now, not the cached one (up to
        // `--mcp-tools-ttl` old): a tool the server hid or changed since is
        // not called.
        let spec = if side_effecting && refused.is_none() {
            let (now, spec) = self.recheck(skill, &record, tool, spec).await;
            refused = now;
            spec
        } else {
            spec
        };
        if let Some(reason) = refused {
            adas_runtime::metrics::count_unaccepted_tool_call();
            let failed = guard::unaccepted(tool, reason);
            self.repo.save(version, &mut record, failed).await?;
            return Ok(None);
        }
        let allowed = Allowed {
            tool,
            args,
            digest,
            key,
            spec,
            side_effecting,
            word,
            path,
        };
        self.perform_call(skill, record, version, allowed).await
    }

    /// `result`, after writing what the record holds back when it failed: a
    /// step that fails after a tool's end (a passing store error, say) must
    /// not leave that end unknown, or its retry would take the call for one
    /// a dead worker left half done.
    async fn keep_held<T>(
        &self,
        record: &mut JobRecord,
        version: u64,
        result: Result<T, WorkError>,
    ) -> Result<T, WorkError> {
        if result.is_err()
            && !record.unwritten.is_empty()
            && let Err(error) = self
                .repo
                .flush(version, record, Transition::run(Vec::new()))
                .await
        {
            warn!(job_id = %record.job_id, %error, "could not write a step's held events");
        }
        result
    }
}
