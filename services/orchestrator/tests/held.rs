//! A step's events held on the worker's copy of the job (a call's result
//! rides with the next write) are never lost to a passing failure: a step
//! that fails after a tool's end writes that end first, so its retry does not
//! take the call for one a dead worker left half done.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use adas_jobs::dal::DalAgent;
use adas_jobs::{EventKind, JobRecord, JobRepo, StoredJob};
use adas_orchestrator::engine::{Engine, Local, Next};
use adas_orchestrator::worker::{WorkError, Worker};
use adas_proto::pb;
use adas_skill::{Catalog, OperationalSkill};
use adas_state::{MemoryStore, StateStore};
use adas_tools::{CallMeta, McpConnector, McpError, ToolSpec};
use serde_json::{Map, Value as Json, json};

const SKILL: &str = "\
name: Held
problem: {statement: Echo twice}
intents: {supported: [{id: echo}]}
tools: []
";

/// No MCP server: the job's calls are core tools.
struct NoServer;

#[tonic::async_trait]
impl McpConnector for NoServer {
    async fn list_tools(&self, uri: &str) -> Result<Vec<ToolSpec>, McpError> {
        panic!("no MCP server to list: {uri}")
    }
    async fn call_tool(
        &self,
        uri: &str,
        _tool: &str,
        _args: &Map<String, Json>,
        _meta: CallMeta<'_>,
    ) -> Result<Json, McpError> {
        panic!("no MCP server to call: {uri}")
    }
}

/// The in-process engines, with a gate that is unavailable on its second
/// call — after the first call has run.
#[derive(Debug)]
struct FlakyGate {
    inner: Local,
    checks: AtomicUsize,
}

#[tonic::async_trait]
impl Engine for FlakyGate {
    fn in_process(&self) -> bool {
        true
    }
    async fn plan(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        request: pb::PlanRequest,
    ) -> Result<pb::PlanResponse, WorkError> {
        self.inner.plan(skill, record, request).await
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
        tool: &str,
        args: &Map<String, Json>,
    ) -> Result<pb::GateDecision, WorkError> {
        if self.checks.fetch_add(1, Ordering::SeqCst) == 1 {
            return Err(WorkError::Peer(tonic::Status::unavailable(
                "the gate is restarting",
            )));
        }
        self.inner.check_tool_call(skill, record, tool, args).await
    }
    async fn finalize(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        request: pb::FinalizeRequest,
    ) -> Result<pb::FinalizationResult, WorkError> {
        self.inner.finalize(skill, record, request).await
    }
    async fn polish_reply(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        request: pb::PolishReplyRequest,
    ) -> Result<pb::PolishReplyResponse, WorkError> {
        self.inner.polish_reply(skill, record, request).await
    }
}

#[tokio::test]
async fn a_step_that_fails_after_a_call_has_run_writes_the_calls_end_first() {
    let root = std::env::temp_dir().join(format!("adas-held-{}", std::process::id()));
    let store: Arc<dyn StateStore> = Arc::new(MemoryStore::new());
    let repo = JobRepo::new(store.clone(), root.join("memory"));
    let catalog = Arc::new(Catalog::new(&root, &root));
    let skill = catalog.put("held", SKILL, None).unwrap();
    let mcp: Arc<dyn McpConnector> = Arc::new(NoServer);
    let tools = Arc::new(adas_tools::ToolResolver::new(
        store.clone(),
        mcp.clone(),
        adas_tools::CacheTtls::default(),
    ));
    let engine = FlakyGate {
        inner: Local::new(
            DalAgent::new(repo.clone(), catalog.clone(), tools.clone()),
            None,
        ),
        checks: AtomicUsize::new(0),
    };
    let worker = Worker {
        repo: repo.clone(),
        catalog,
        mcp,
        tools,
        engine: Arc::new(engine),
        consumer: "held-test".into(),
        visibility_timeout: std::time::Duration::from_secs(60),
        focus: Arc::new(adas_jobs::focus::FocusCache::new(
            store,
            adas_jobs::focus::FocusLimits {
                max_bytes: 1 << 20,
                max_entries: 16,
            },
        )),
        acks: Arc::default(),
    };
    // A client's program: two calls, no planning.
    let mut record: JobRecord = serde_json::from_value(json!({
        "job_id": "j1", "slag": "held", "goal": "echo twice", "status": "queued",
        "outcome_class": null, "waiting": null, "context": {}, "resources": {},
        "plan": null, "intent": null, "iteration": 0, "iteration_budget": 10,
        "calls": [], "result": null, "error": null, "audit": [], "request_id": "",
        "tenant": "default", "skill_etag": skill.etag,
        "created_at": "2026-11-24T00:00:00Z", "updated_at": "2026-11-24T00:00:00Z", "ended_at": null
    }))
    .unwrap();
    let program = adas_dia::parse(r#"sys.echo(text="one"), sys.echo(text="two")"#).unwrap();
    record.plan = Some(adas_dia::Plan::new(program));
    repo.create(&record, false).await.unwrap();

    let failed = worker.process("held", "j1", None).await;
    assert!(
        failed.as_ref().is_err_and(WorkError::is_transient),
        "the gate's second check fails the step: {failed:?}"
    );
    let stored = repo.load("held", "j1").await.unwrap().record;
    assert_eq!(
        stored
            .calls
            .iter()
            .map(|call| call.tool.as_str())
            .collect::<Vec<_>>(),
        ["sys.echo"],
        "the first call's end is written"
    );
    assert!(
        stored.started_call.is_none(),
        "no call is left half done: {:?}",
        stored.started_call
    );
    let kinds: Vec<EventKind> = repo
        .events("held", "j1", None, 100)
        .await
        .unwrap()
        .iter()
        .map(|(_, event)| event.kind)
        .collect();
    assert!(
        kinds.ends_with(&[EventKind::ToolStarted, EventKind::ToolFinished]),
        "{kinds:?}"
    );

    // The retry runs the second call and ends the job; the first never runs again.
    worker.process("held", "j1", None).await.unwrap();
    let done = repo.load("held", "j1").await.unwrap().record;
    assert_eq!(done.status, adas_jobs::JobStatus::Completed, "{done:?}");
    assert_eq!(done.calls.len(), 2);
}
