//! When a call's start is written. A call with side effects runs only once
//! its start is stored (a takeover then knows its end is unknown); a
//! read-only call runs beside its start's write, which it need not wait for.
//! Shown on a real Redis, its writes held back by `CLIENT PAUSE … WRITE` from
//! the gate's word until the tool server has the call.

mod common;

use std::sync::{Arc, Mutex};

use adas_jobs::{EventKind, JobRepo, JobStatus};
use adas_state::{RedisStore, StateStore};
use adas_testkit::RedisServer;
use adas_tools::{CallMeta, McpConnector, McpError, ToolSource, ToolSpec};
use serde_json::{Map, Value as Json, json};

const SERVER: &str = "http://127.0.0.1:9/mcp";

const SKILL: &str = "\
name: Calls
problem: {statement: Look, then change}
intents: {supported: [{id: look}]}
mcp_server: http://127.0.0.1:9/mcp
tools:
  - name: look
    description: Reads something
    read_only: true
    inputs: [{name: q, type: string, required: true}]
  - name: change
    description: Changes something
    inputs: [{name: q, type: string, required: true}]
";

/// A tool server that notes, for each call, whether the job's log already
/// held the call's start when the call arrived, then lets Redis take writes
/// again.
struct Server {
    events: JobRepo,
    admin: redis::aio::MultiplexedConnection,
    seen: Mutex<Vec<(String, bool)>>,
}

#[tonic::async_trait]
impl McpConnector for Server {
    async fn list_tools(&self, uri: &str) -> Result<Vec<ToolSpec>, McpError> {
        let spec = |name: &str| {
            ToolSpec::from_schema(
                name,
                name,
                json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}),
                ToolSource::Mcp { uri: uri.into() },
            )
        };
        Ok(vec![spec("look"), spec("change")])
    }

    async fn call_tool(
        &self,
        _uri: &str,
        tool: &str,
        _args: &Map<String, Json>,
        _meta: CallMeta<'_>,
    ) -> Result<Json, McpError> {
        // Reads pass a write pause.
        let started = self
            .events
            .events("calls", "j1", None, 100)
            .await
            .expect("the log reads")
            .iter()
            .any(|(_, event)| event.kind == EventKind::ToolStarted && event.message == tool);
        self.seen.lock().unwrap().push((tool.to_owned(), started));
        let _: () = redis::cmd("CLIENT")
            .arg("UNPAUSE")
            .query_async(&mut self.admin.clone())
            .await
            .expect("unpaused");
        Ok(json!({"done": tool}))
    }
}

#[tokio::test]
async fn a_read_only_call_runs_beside_its_starts_write_and_a_side_effect_after_it() {
    let redis = RedisServer::start();
    let url = redis.url();
    let connect = || RedisStore::connect(&url, "default");
    let store: Arc<dyn StateStore> = Arc::new(connect().await.unwrap());
    // The tool server reads on a connection of its own: one held by a
    // paused write would wait behind it.
    let root = adas_testkit::scratch_dir("calls");
    let events = JobRepo::new(Arc::new(connect().await.unwrap()), root.join("memory"));
    let admin = redis::Client::open(url.as_str())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let server = Arc::new(Server {
        events,
        admin: admin.clone(),
        seen: Mutex::default(),
    });
    let catalog = Arc::new(adas_catalog::Catalog::new(&root, &root));
    let skill = catalog.put("calls", SKILL, None).unwrap();
    assert_eq!(skill.skill.mcp_server.as_deref(), Some(SERVER));
    // From the gate's word on, Redis takes no writes until the server has the
    // call or the pause ends: 3 s for the read-only call (one that waited for
    // its start's write would wait them out), 0.5 s for the other (whose call
    // must wait).
    let worker = common::worker(
        store.clone(),
        catalog,
        server.clone(),
        Box::new(move |_, tool| {
            let mut admin = admin.clone();
            let pause_ms = if tool == "look" { 3_000 } else { 500 };
            Box::pin(async move {
                let _: () = redis::cmd("CLIENT")
                    .arg("PAUSE")
                    .arg(pause_ms)
                    .arg("WRITE")
                    .query_async(&mut admin)
                    .await
                    .expect("paused");
                Ok(())
            })
        }),
    );
    let repo = JobRepo::new(store, root.join("memory"));
    repo.create(
        &common::program_job("calls", "j1", &skill.etag, r#"look(q="a"), change(q="b")"#),
        false,
    )
    .await
    .unwrap();

    worker.process("calls", "j1", None).await.unwrap();

    let done = repo.load("calls", "j1").await.unwrap().record;
    assert_eq!(done.status, JobStatus::Completed, "{done:?}");
    assert_eq!(
        *server.seen.lock().unwrap(),
        [("look".to_owned(), false), ("change".to_owned(), true)],
        "the read-only call reached the server while its start's write waited; \
         the call with side effects only once its start was stored"
    );
    // Both starts are in the log, each before its call's end.
    let kinds: Vec<(EventKind, String)> = repo
        .events("calls", "j1", None, 100)
        .await
        .unwrap()
        .into_iter()
        .map(|(_, event)| (event.kind, event.message))
        .filter(|(kind, _)| matches!(kind, EventKind::ToolStarted | EventKind::ToolFinished))
        .collect();
    assert_eq!(
        kinds,
        [
            (EventKind::ToolStarted, "look".to_owned()),
            (EventKind::ToolFinished, "look".to_owned()),
            (EventKind::ToolStarted, "change".to_owned()),
            (EventKind::ToolFinished, "change".to_owned()),
        ]
    );
}
