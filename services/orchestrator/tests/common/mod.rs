//! The in-process engines with a hook after each pre-tool gate check: tests
//! use it to fail a step at a chosen point, or to act on the store between
//! the gate's word and the call.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use adas_engine::WorkError;
use adas_engine::engines::Next;
use adas_engine::{Engine, Local};
use adas_jobs::{JobRecord, StoredJob};
use adas_skill::OperationalSkill;
use adas_step::effect::{FinalizeAsk, Judged, PlanAsk, Planned, PolishAsk, Polished};
use adas_step::guard::GateWord;
use serde_json::{Map, Value as Json};

/// Runs after the gate's `n`th check (from 0) of `tool`; an error fails the
/// check as a gate that is unavailable would.
pub type AfterCheck = Box<
    dyn Fn(usize, &str) -> Pin<Box<dyn Future<Output = Result<(), WorkError>> + Send>>
        + Send
        + Sync,
>;

pub struct HookedGate {
    pub inner: Local,
    pub checks: AtomicUsize,
    pub after_check: AfterCheck,
}

impl std::fmt::Debug for HookedGate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HookedGate").finish_non_exhaustive()
    }
}

impl HookedGate {
    pub fn new(inner: Local, after_check: AfterCheck) -> Self {
        Self {
            inner,
            checks: AtomicUsize::new(0),
            after_check,
        }
    }
}

#[tonic::async_trait]
impl Engine for HookedGate {
    fn plans_here(&self) -> bool {
        true
    }
    async fn plan(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        ask: PlanAsk,
    ) -> Result<Planned, WorkError> {
        self.inner.plan(skill, record, ask).await
    }
    async fn resolve_next(
        &self,
        skill: &Arc<OperationalSkill>,
        job: StoredJob,
    ) -> Result<(Next, StoredJob), WorkError> {
        self.inner.resolve_next(skill, job).await
    }
    async fn check_tool_call(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        (tool, args): (&str, &Map<String, Json>),
        fresh: bool,
    ) -> Result<GateWord, WorkError> {
        let decision = self
            .inner
            .check_tool_call(skill, record, (tool, args), fresh)
            .await?;
        let n = self.checks.fetch_add(1, Ordering::SeqCst);
        (self.after_check)(n, tool).await?;
        Ok(decision)
    }
    async fn finalize(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        ask: FinalizeAsk,
    ) -> Result<Judged, WorkError> {
        self.inner.finalize(skill, record, ask).await
    }
    async fn polish_reply(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        ask: PolishAsk,
    ) -> Result<Polished, WorkError> {
        self.inner.polish_reply(skill, record, ask).await
    }
}

/// A worker on `store` with the in-process engines behind a gate hooked by
/// `after_check`; `mcp` serves the skill's calls.
pub fn worker(
    store: Arc<dyn adas_state::StateStore>,
    catalog: Arc<adas_catalog::Catalog>,
    mcp: Arc<dyn adas_tools::McpConnector>,
    after_check: AfterCheck,
) -> adas_orchestrator::worker::Worker {
    let root = std::env::temp_dir().join(format!("adas-worker-{}", std::process::id()));
    let repo = adas_jobs::JobRepo::new(store.clone(), root.join("memory"));
    let tools = Arc::new(adas_tools::ToolResolver::new(
        store.clone(),
        mcp.clone(),
        adas_tools::CacheTtls::default(),
    ));
    let engine = HookedGate::new(
        Local::new(
            adas_engine::dal::DalAgent::new(repo.clone(), catalog.clone(), tools.clone()),
            None,
        ),
        after_check,
    );
    adas_orchestrator::worker::Worker {
        repo,
        catalog,
        effects: adas_engine::Performer {
            engine: Arc::new(engine),
            mcp,
            tools,
            focus: Arc::new(adas_jobs::focus::FocusCache::new(
                store,
                adas_jobs::focus::FocusLimits {
                    max_bytes: 1 << 20,
                    max_entries: 16,
                },
            )),
        },
        consumer: "test-worker".into(),
        visibility_timeout: std::time::Duration::from_secs(60),
        acks: Arc::default(),
    }
}

/// A queued job `job_id` of `slag` (version `etag`) running the client's
/// `program`: no planning, no intent guessed (as StartJob makes it).
pub fn program_job(slag: &str, job_id: &str, etag: &str, program: &str) -> JobRecord {
    let mut record: JobRecord = serde_json::from_value(serde_json::json!({
        "job_id": job_id, "slag": slag, "goal": "run the program", "status": "queued",
        "outcome_class": null, "waiting": null, "context": {}, "resources": {},
        "plan": null,
        "intent": {"intent_id": "", "confidence": 1.0, "out_of_domain": false, "margin": 1.0, "confident": true},
        "iteration": 0, "iteration_budget": 10,
        "calls": [], "result": null, "error": null, "audit": [], "request_id": "",
        "tenant": "default", "skill_etag": etag,
        "created_at": "2026-11-24T00:00:00Z", "updated_at": "2026-11-24T00:00:00Z", "ended_at": null
    }))
    .expect("a valid record");
    let program = adas_dia::parse(program).expect("a valid program");
    record.plan = Some(adas_dia::Plan::new(program));
    record
}
