//! The scheduling solution end to end, as the Skill Builder exports it: an
//! identity gateway that proves who the user is and issues grants, a
//! scheduling worker that consumes them, handed off by the solution, each on
//! its own MCP server (Python SDK, written for these tests) reached through
//! connectors. Every attack on the grants is reproduced: a forged organizer in
//! a program or in an answer, an inactive user, an expired grant, another
//! principal continuing the conversation, a worker started directly.

#![allow(
    clippy::too_many_lines,
    reason = "a test reads as one story; the length cap is for the product's code"
)]

mod support;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use adas_proto::pb;
use adas_testkit::SpawnedService;
use adas_testkit::model::{ModelServer, Reply, Seen};
use serde_json::Value;
use support::Suite;

const SOLUTION: &str = "solutions/scheduling-assistant";

/// The project's own copy of a Builder export (shared/skill/tests/fixtures).
fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("e2e/ is in the workspace")
        .join("shared/skill/tests/fixtures")
        .join(name)
}

fn fixture(name: &str) -> String {
    let path = fixture_path(name);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// The two servers, logging what they execute to `log`.
fn servers(log: &Path) -> (SpawnedService, SpawnedService) {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("python/scheduling_server.py");
    let env = [("SCHED_EXECUTIONS_LOG", log.to_str().unwrap())];
    let start = |which: &str| {
        SpawnedService::spawn(
            &adas_testkit::python_sdk(),
            &[script.to_str().unwrap(), which],
            &env,
        )
    };
    (start("identity"), start("calendar"))
}

fn executed(log: &Path, tool: &str) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|line| line["tool"] == tool)
        .collect()
}

struct Scheduling {
    suite: Suite,
    log: PathBuf,
    _servers: (SpawnedService, SpawnedService),
}

impl Scheduling {
    /// The suite with the identity connector set by the deployment and the
    /// calendar's put by the tenant's admin; `gateway` edits the gateway
    /// export before it is put (a short TTL, a response filter).
    /// [`Self::start`] logging at info: every job event is a log line.
    async fn start_logging_info(label: &str, gateway: impl Fn(&mut Value)) -> Self {
        let edit = |slag: &str, document: &mut Value| {
            if slag == "identity-gateway" {
                gateway(document);
            }
        };
        Self::start_logged(label, edit, &[("ADAS_LOG", "info")], true).await
    }

    async fn start(label: &str, gateway: impl Fn(&mut Value)) -> Self {
        let edit = |slag: &str, document: &mut Value| {
            if slag == "identity-gateway" {
                gateway(document);
            }
        };
        Self::start_with_env(label, edit, &[]).await
    }

    /// `edit` changes each export (by slag) before it is put.
    async fn start_with_env(
        label: &str,
        edit: impl Fn(&str, &mut Value),
        env: &[(&str, &str)],
    ) -> Self {
        Self::start_logged(label, edit, env, false).await
    }

    async fn start_logged(
        label: &str,
        edit: impl Fn(&str, &mut Value),
        env: &[(&str, &str)],
        logged: bool,
    ) -> Self {
        let scratch = adas_testkit::scratch_dir(label);
        let log = scratch.join("calendar-executions.jsonl");
        let servers = servers(&log);
        let identity = format!("identity-mcp=http://{}/mcp", servers.0.addr());
        let suite = Suite::start_logged(
            label,
            &[
                "--rate-per-principal",
                "1000",
                "--mcp-allow",
                "127.0.0.1",
                "--connector",
                &identity,
                "--console-listen",
                "127.0.0.1:0",
            ],
            env,
            logged,
        );
        let mut registry = suite.registry("root").await;
        registry
            .put_connector(pb::PutConnectorRequest {
                connector: Some(pb::Connector {
                    name: "connectors/gcal-mcp".into(),
                    url: format!("http://{}/mcp", servers.1.addr()),
                    deployment: false,
                }),
            })
            .await
            .unwrap();
        for (slag, file) in [
            ("identity-gateway", "identity-gateway.draft.skill.json"),
            ("scheduling-agent", "scheduling-agent.draft.skill.json"),
        ] {
            let mut document: Value = serde_json::from_str(&fixture(file)).unwrap();
            edit(slag, &mut document);
            registry
                .put_skill(pb::PutSkillRequest {
                    name: format!("skills/{slag}"),
                    source: document.to_string(),
                    ..Default::default()
                })
                .await
                .unwrap_or_else(|status| panic!("{slag}: {status:?}"));
        }
        registry
            .put_solution(pb::PutSolutionRequest {
                name: SOLUTION.into(),
                source: fixture("scheduling-assistant.solution.json"),
                etag: String::new(),
            })
            .await
            .unwrap();
        Self {
            suite,
            log,
            _servers: servers,
        }
    }

    async fn turn(&self, who: &str, conversation: &str, goal: &str, program: &str) -> pb::Job {
        let mut jobs = self.suite.jobs(who).await;
        let job = jobs
            .start_job(pb::StartJobRequest {
                solution: SOLUTION.into(),
                goal: goal.into(),
                program: program.into(),
                conversation: conversation.into(),
                ..Default::default()
            })
            .await
            .unwrap_or_else(|status| panic!("{goal}{program}: {status:?}"))
            .into_inner();
        self.suite.settle(who, &job.name).await
    }

    async fn events(&self, who: &str, job: &pb::Job) -> Vec<pb::JobEvent> {
        let mut jobs = self.suite.jobs(who).await;
        let mut stream = jobs
            .watch_job(pb::WatchJobRequest {
                name: job.name.clone(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        let mut events = Vec::new();
        // Every event up to the job as it settled.
        let mut wait = std::time::Duration::from_secs(5);
        while let Ok(Ok(Some(event))) = tokio::time::timeout(wait, stream.message()).await {
            // The settled version's events come in one batch: the rest of
            // it follows at once.
            if event.job_version >= job.version {
                wait = std::time::Duration::from_millis(300);
            }
            events.push(event);
        }
        events
    }
}

/// A console page as `who` sees it: signed in with their key, over HTTP/1.1.
async fn console_page(suite: &Suite, who: &str, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let console = suite.service.console_addr().expect("the console serves");
    let exchange = |request: String| async move {
        let mut stream = tokio::net::TcpStream::connect(console).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.unwrap();
        answer
    };
    let form = format!("key={}", suite.keys[who]);
    let signed_in = exchange(format!(
        "POST /login HTTP/1.1\r\nHost: {console}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{form}",
        form.len()
    ))
    .await;
    let cookie = signed_in
        .lines()
        .find_map(|line| {
            line.strip_prefix("set-cookie: ")
                .or_else(|| line.strip_prefix("Set-Cookie: "))
        })
        .and_then(|cookie| cookie.split(';').next())
        .unwrap_or_else(|| panic!("no session: {signed_in}"))
        .to_owned();
    exchange(format!(
        "GET {path} HTTP/1.1\r\nHost: {console}\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n"
    ))
    .await
}

fn book(organizer: Option<&str>) -> String {
    let organizer = organizer
        .map(|value| format!(", organizer_id={value}"))
        .unwrap_or_default();
    format!(
        r#"calendar.event.create(title="Sync", start_time="2026-12-01T14:00", end_time="2026-12-01T15:00"{organizer})"#
    )
}

fn status(job: &pb::Job) -> pb::JobStatus {
    pb::JobStatus::try_from(job.status).unwrap()
}

fn outcome(job: &pb::Job) -> pb::OutcomeClass {
    pb::OutcomeClass::try_from(job.outcome_class).unwrap()
}

/// Verifies the user at the gateway: the turn's job, with its grants.
async fn verified(scheduling: &Scheduling, who: &str, email: &str) -> pb::Job {
    let mut job = scheduling
        .turn(who, "", &format!("Hi, I'm {email}, let me sign in"), "")
        .await;
    assert_eq!(job.slag, "identity-gateway", "{job:?}");
    // Asked which intent it was (the export's accept threshold is 0.85), the
    // user picks hers, as a person would.
    if let Some(waiting) = job
        .waiting
        .clone()
        .filter(|waiting| waiting.reason_code == "INTENT_CLARIFICATION_REQUIRED")
    {
        let mut dal = scheduling.suite.dal(who).await;
        dal.submit_input(pb::SubmitInputRequest {
            job: job.name.clone(),
            correlation_id: waiting.correlation_id.clone(),
            fields: HashMap::from([(
                "intent".to_owned(),
                prost_types::Value {
                    kind: Some(prost_types::value::Kind::StringValue(
                        "identify_self".into(),
                    )),
                },
            )]),
            ..Default::default()
        })
        .await
        .unwrap();
        job = scheduling.suite.settle(who, &job.name).await;
    }
    assert_eq!(job.solution, SOLUTION);
    job
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_verified_user_is_handed_off_and_books_as_herself_and_nobody_else() {
    let scheduling = Scheduling::start("solution-e2e", |_| {}).await;
    let gateway = verified(&scheduling, "alice", "alice@company.com").await;
    assert_eq!(
        status(&gateway),
        pb::JobStatus::Completed,
        "{:?}",
        gateway.error
    );
    let grants: HashMap<&str, &pb::Grant> = gateway
        .grants
        .iter()
        .map(|grant| (grant.key.as_str(), grant))
        .collect();
    let user_id = grants["sched.user_id"];
    assert_eq!(user_id.issuer_tool, "identity.user.lookup");
    assert_eq!(user_id.issuer_skill, "identity-gateway");
    assert_eq!(user_id.principal, "alice");
    // The lookup is classified `pii_read`: its grants' values are masked.
    assert_eq!(user_id.value, "***");
    assert!(user_id.expire_time.is_some());
    let events = scheduling.events("alice", &gateway).await;
    assert!(
        events
            .iter()
            .any(|event| event.r#type == pb::JobEventType::GrantIssued as i32),
        "{events:?}"
    );

    // The next turn belongs to the scheduling agent: handed off with the grants.
    let booked = scheduling
        .turn("alice", &gateway.conversation, "", &book(None))
        .await;
    assert_eq!(booked.slag, "scheduling-agent", "{booked:?}");
    assert_eq!(booked.handed_off_from, "identity-gateway");
    assert_eq!(
        status(&booked),
        pb::JobStatus::Completed,
        "{:?}",
        booked.error
    );
    let created = executed(&scheduling.log, "event.create");
    assert_eq!(created.len(), 1, "{created:?}");
    // The organizer is the grant's value, which no one typed.
    assert_eq!(created[0]["arguments"]["organizer_id"], "u-alice");
    let events = scheduling.events("alice", &booked).await;
    assert!(
        events
            .iter()
            .any(|event| event.r#type == pb::JobEventType::Handoff as i32),
        "{events:?}"
    );

    // Someone else's organizer, named in a program: refused, nothing booked.
    let forged = scheduling
        .turn("alice", &booked.conversation, "", &book(Some("\"u-bob\"")))
        .await;
    assert_eq!(
        outcome(&forged),
        pb::OutcomeClass::PolicyDenied,
        "{forged:?}"
    );
    assert!(
        forged
            .error
            .as_ref()
            .unwrap()
            .message
            .contains("organizer_id")
    );
    // … or given as an answer to the program's own question.
    let asked = scheduling
        .turn(
            "alice",
            &forged.conversation,
            "",
            &book(Some("ASK(\"Who organizes it?\")")),
        )
        .await;
    let waiting = asked.waiting.clone().unwrap_or_else(|| panic!("{asked:?}"));
    let mut dal = scheduling.suite.dal("alice").await;
    dal.submit_input(pb::SubmitInputRequest {
        job: asked.name.clone(),
        correlation_id: waiting.correlation_id.clone(),
        fields: HashMap::from([(
            waiting.fields[0].name.clone(),
            prost_types::Value {
                kind: Some(prost_types::value::Kind::StringValue("u-bob".into())),
            },
        )]),
        ..Default::default()
    })
    .await
    .unwrap();
    let answered = scheduling.suite.settle("alice", &asked.name).await;
    assert_eq!(
        outcome(&answered),
        pb::OutcomeClass::PolicyDenied,
        "{answered:?}"
    );
    assert_eq!(executed(&scheduling.log, "event.create").len(), 1);

    // Another principal continuing the conversation holds none of its grants
    // (an admin may read it; the grants stay Alice's).
    let root = scheduling
        .turn("root", &answered.conversation, "", &book(None))
        .await;
    assert!(root.grants.is_empty(), "{root:?}");
    assert_eq!(outcome(&root), pb::OutcomeClass::PolicyDenied, "{root:?}");
    assert_eq!(executed(&scheduling.log, "event.create").len(), 1);
    // Bob cannot even find it.
    let mut bob = scheduling.suite.jobs("bob").await;
    let stolen = bob
        .start_job(pb::StartJobRequest {
            solution: SOLUTION.into(),
            program: book(None),
            conversation: answered.conversation.clone(),
            ..Default::default()
        })
        .await;
    assert_eq!(support::code(stolen), tonic::Code::NotFound);

    // The worker started directly, without the gateway, holds no grant.
    let direct = bob
        .start_job(pb::StartJobRequest {
            skill: "skills/scheduling-agent".into(),
            program: book(None),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let direct = scheduling.suite.settle("bob", &direct.name).await;
    assert_eq!(
        outcome(&direct),
        pb::OutcomeClass::PolicyDenied,
        "{direct:?}"
    );
    assert!(direct.error.unwrap().message.contains("sched.user_id"));
    assert_eq!(executed(&scheduling.log, "event.create").len(), 1);
}

#[path = "solutions/more.rs"]
mod more;

#[path = "solutions/identity.rs"]
mod identity;

#[path = "solutions/words.rs"]
mod words;

/// The exports' scenarios through `adas solution test`.
#[path = "solutions/scenarios.rs"]
mod scenarios;
