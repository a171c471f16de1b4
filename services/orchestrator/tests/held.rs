//! A step's events held on the worker's copy of the job (a call's result
//! rides with the next write) are never lost to a passing failure: a step
//! that fails after a tool's end writes that end first, so its retry does not
//! take the call for one a dead worker left half done.

mod common;

use std::sync::Arc;

use adas_catalog::Catalog;
use adas_engine::WorkError;
use adas_jobs::{EventKind, JobRepo};
use adas_state::{MemoryStore, StateStore};
use adas_tools::{CallMeta, McpConnector, McpError, ToolSpec};
use serde_json::{Map, Value as Json};

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

#[tokio::test]
async fn a_step_that_fails_after_a_call_has_run_writes_the_calls_end_first() {
    let root = std::env::temp_dir().join(format!("adas-held-{}", std::process::id()));
    let store: Arc<dyn StateStore> = Arc::new(MemoryStore::new());
    let repo = JobRepo::new(store.clone(), root.join("memory"));
    let catalog = Arc::new(Catalog::new(&root, &root));
    let skill = catalog.put("held", SKILL, None).unwrap();
    // The gate is unavailable on its second check, after the first call ran.
    let worker = common::worker(
        store,
        catalog,
        Arc::new(NoServer),
        Box::new(|n, _| {
            Box::pin(async move {
                if n == 1 {
                    return Err(WorkError::Peer(tonic::Status::unavailable(
                        "the gate is restarting",
                    )));
                }
                Ok(())
            })
        }),
    );
    // A client's program: two calls, no planning.
    let record = common::program_job(
        "held",
        "j1",
        &skill.etag,
        r#"sys.echo(text="one"), sys.echo(text="two")"#,
    );
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
