//! The scheduling solution end to end, as the Skill Builder exports it: an
//! identity gateway that proves who the user is and issues grants, a
//! scheduling worker that consumes them, handed off by the solution, each on
//! its own MCP server (Python SDK, written for these tests) reached through
//! connectors. Every attack on the grants is reproduced: a forged organizer in
//! a program or in an answer, an inactive user, an expired grant, another
//! principal continuing the conversation, a worker started directly.

mod support;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use adas_proto::pb;
use adas_testkit::SpawnedService;
use adas_testkit::model::{ModelServer, Reply, Seen};
use serde_json::Value;
use support::Suite;

const SOLUTION: &str = "solutions/scheduling-assistant";

fn fixture(name: &str) -> String {
    // The project's own copies of the Builder's exports (shared/skill/tests/fixtures).
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("e2e/ is in the workspace")
        .join("shared/skill/tests/fixtures")
        .join(name);
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_inactive_user_gets_no_grant_and_no_calendar() {
    let scheduling = Scheduling::start("solution-inactive", |_| {}).await;
    let gateway = verified(&scheduling, "bob", "carol@company.com").await;
    assert!(gateway.grants.is_empty(), "{:?}", gateway.grants);
    let events = scheduling.events("bob", &gateway).await;
    assert!(
        events
            .iter()
            .any(|event| event.r#type == pb::JobEventType::GrantDenied as i32),
        "{events:?}"
    );
    // No handoff: the gateway does not book, and the calendar is never called.
    let mut jobs = scheduling.suite.jobs("bob").await;
    let refused = jobs
        .start_job(pb::StartJobRequest {
            solution: SOLUTION.into(),
            program: book(None),
            conversation: gateway.conversation.clone(),
            ..Default::default()
        })
        .await;
    assert_eq!(support::code(refused), tonic::Code::InvalidArgument);
    assert!(executed(&scheduling.log, "event.create").is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_grant_stops_the_next_booking() {
    let scheduling = Scheduling::start("solution-expiry", |gateway| {
        for grant in gateway["grant_mappings"][0]["grants"]
            .as_array_mut()
            .unwrap()
        {
            grant["ttl_seconds"] = 2.into();
        }
    })
    .await;
    let gateway = verified(&scheduling, "alice", "alice@company.com").await;
    assert_eq!(gateway.grants.len(), 2, "{gateway:?}");
    let looked = scheduling
        .turn(
            "alice",
            &gateway.conversation,
            "",
            r#"calendar.availability.check(date_start="2026-12-01")"#,
        )
        .await;
    assert_eq!(looked.slag, "scheduling-agent");
    assert_eq!(
        status(&looked),
        pb::JobStatus::Completed,
        "{:?}",
        looked.error
    );
    // Past the grant's two seconds (a lifetime, not a timing assertion).
    tokio::time::sleep(std::time::Duration::from_millis(2200)).await;
    let late = scheduling
        .turn("alice", &looked.conversation, "", &book(None))
        .await;
    assert_eq!(outcome(&late), pb::OutcomeClass::PolicyDenied, "{late:?}");
    assert!(late.grants.is_empty());
    let events = scheduling.events("alice", &late).await;
    assert!(
        events
            .iter()
            .any(|event| event.r#type == pb::JobEventType::GrantExpired as i32),
        "{events:?}"
    );
    assert!(executed(&scheduling.log, "event.create").is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_filtered_field_leaves_by_no_path() {
    let scheduling = Scheduling::start_logging_info("solution-filters", |gateway| {
        gateway["response_filters"] = serde_json::json!([
            {"strip_fields": ["customer.ssn"], "mask_fields": ["customer.email"]}
        ]);
    })
    .await;
    let gateway = verified(&scheduling, "alice", "alice@company.com").await;
    assert_eq!(
        status(&gateway),
        pb::JobStatus::Completed,
        "{:?}",
        gateway.error
    );
    const SSN: &str = "078-05-1120";
    let job = format!("{gateway:?}");
    assert!(
        job.contains("u-alice") || job.contains("Alice"),
        "the result is kept: {job}"
    );
    assert!(!job.contains(SSN), "GetJob shows the filtered field: {job}");
    let reply = gateway
        .result
        .as_ref()
        .map(|result| result.reply.clone())
        .unwrap_or_default();
    assert!(!reply.contains(SSN), "{reply}");
    let events = format!("{:?}", scheduling.events("alice", &gateway).await);
    assert!(!events.contains(SSN), "WatchJob shows the filtered field");
    // The console's job page: the grants and the turn are shown, the
    // filtered field is not, and the classified lookup's output is masked.
    let html = console_page(&scheduling.suite, "alice", &format!("/{}", gateway.name)).await;
    assert!(html.contains(" 200 OK"), "{html}");
    assert!(html.contains("<code>sched.user_id</code>"), "{html}");
    assert!(
        html.contains("this turn handled by <strong>identity-gateway</strong>"),
        "{html}"
    );
    assert!(!html.contains(SSN), "the console shows the filtered field");
    assert!(
        html.contains("***"),
        "the classified output is masked: {html}"
    );
    // Its log, at info (every job event a line).
    let log = scheduling.suite.log();
    assert!(
        log.contains("adas::job"),
        "the suite logged its jobs: {log}"
    );
    assert!(!log.contains(SSN), "the log shows the filtered field");
    // The archive and everything else the suite wrote on disk.
    let mut stack = vec![scheduling.suite.root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(text) = std::fs::read(&path) {
                assert!(
                    !String::from_utf8_lossy(&text).contains(SSN),
                    "{} holds the filtered field",
                    path.display()
                );
            }
        }
    }
    // And the store itself.
    for key in scheduling.suite.keys_with("") {
        let client = redis::Client::open(scheduling.suite.store.redis_url()).unwrap();
        let mut connection = client.get_connection().unwrap();
        let dump: Vec<u8> = redis::cmd("DUMP")
            .arg(&key)
            .query(&mut connection)
            .unwrap_or_default();
        assert!(
            !String::from_utf8_lossy(&dump).contains(SSN),
            "redis key {key} holds the filtered field"
        );
    }
}

/// What a model would answer for the scheduling skills, proposing an
/// organizer of its own choosing (a hijacked or mistaken model).
fn scheduling_model(_: usize, seen: &Seen) -> Reply {
    // What the user side of the conversation says (prompts' instructions aside).
    let body: String = seen.body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|message| message["role"] != "system")
        .filter_map(|message| message["content"].as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let answer = |content: String| {
        Reply::ok(serde_json::json!({
            "id": "chatcmpl-test", "object": "chat.completion", "created": 1_700_000_000, "model": "scripted",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content, "refusal": null}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
        }))
    };
    let task = seen.body["response_format"]["json_schema"]["name"]
        .as_str()
        .unwrap_or("text");
    let gateway = !body.contains("Book a meeting");
    let structured = |value: Value| answer(value.to_string());
    match task {
        "intent_detection" if gateway => structured(serde_json::json!({
            "explanation": "the user names her email", "intent": "identify_self", "confidence": 0.95,
            "runner_up": "ask_about_scheduling", "runner_up_confidence": 0.1, "entities": []
        })),
        "intent_detection" => structured(serde_json::json!({
            "explanation": "a booking", "intent": "book_meeting", "confidence": 0.95,
            "runner_up": "reschedule_meeting", "runner_up_confidence": 0.1, "entities": []
        })),
        "plan" if body.contains("returned") => {
            structured(serde_json::json!({"explanation": "done", "done": true, "program": ""}))
        }
        "plan" if gateway => structured(serde_json::json!({"explanation": "verify", "done": false,
            "program": "identity.user.lookup(email=\"alice@company.com\"), sys.emitUserMessage(text=\"You are verified.\")"})),
        "plan" => structured(serde_json::json!({"explanation": "book", "done": false,
            // A read outside the booking workflow's steps first (its
            // `on_deviation: warn` lets it run, recorded), then the booking.
            "program": "calendar.event.list(date_start=\"2026-12-01\"), calendar.event.create(title=\"Sync\", start_time=\"2026-12-01T14:00\", end_time=\"2026-12-01T15:00\", organizer_id=\"u-bob\")"})),
        "finalization_verdict" => structured(serde_json::json!({
            "passed": true, "score": 0.9, "reasons": [], "missing_fields": [], "suggested_action": "NONE"
        })),
        // The polisher: the draft as it is.
        _ => {
            let text: String = seen.body["messages"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|message| message["content"].as_str())
                .collect::<Vec<_>>()
                .join("\n");
            let open = "<data name=\"response_to_format\">";
            let draft = text
                .find(open)
                .map(|start| &text[start + open.len()..])
                .and_then(|rest| rest.find("</data>").map(|end| &rest[..end]))
                .and_then(|fenced| serde_json::from_str::<String>(fenced).ok())
                .unwrap_or_default();
            answer(draft)
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_gets_no_grant_it_was_not_issued_and_sees_no_filtered_field() {
    let model = ModelServer::start(scheduling_model).await;
    let base = format!("{}/v1", model.url);
    let scheduling = Scheduling::start_with_env(
        "solution-model",
        |slag, document| {
            if slag == "identity-gateway" {
                document["response_filters"] =
                    serde_json::json!([{"strip_fields": ["customer.ssn"], "mask_fields": []}]);
            } else {
                // The author declares the injected input too: a model may
                // then name it, and the grant still decides its value.
                document["tools"][2]["inputs"]
                    .as_array_mut()
                    .unwrap()
                    .push(serde_json::json!({"name": "organizer_id", "type": "string", "required": false}));
            }
        },
        &[
            ("ADAS_LLM_BASE_URL", base.as_str()),
            ("ADAS_LLM_MODEL", "scripted-1"),
            ("ADAS_LLM_API_KEY", "env:TEST_MODEL_KEY"),
            ("TEST_MODEL_KEY", "sk-scripted"),
            ("ADAS_LLM_RETRIES", "0"),
        ],
    )
    .await;
    let gateway = scheduling
        .turn("alice", "", "Hi, I'm alice@company.com", "")
        .await;
    assert_eq!(
        status(&gateway),
        pb::JobStatus::Completed,
        "{:?}",
        scheduling.events("alice", &gateway).await
    );
    assert!(
        gateway
            .grants
            .iter()
            .any(|grant| grant.key == "sched.user_id"),
        "{gateway:?}"
    );
    // The model plans the booking with an organizer of its own: refused.
    let booked = scheduling
        .turn(
            "alice",
            &gateway.conversation,
            "Book a meeting tomorrow at 2pm",
            "",
        )
        .await;
    assert_eq!(booked.slag, "scheduling-agent", "{booked:?}");
    assert_eq!(
        outcome(&booked),
        pb::OutcomeClass::PolicyDenied,
        "{:?}",
        scheduling.events("alice", &booked).await
    );
    assert!(
        booked
            .error
            .clone()
            .unwrap()
            .message
            .contains("organizer_id")
    );
    let events = scheduling.events("alice", &booked).await;
    assert!(
        events
            .iter()
            .any(|event| event.r#type == pb::JobEventType::WorkflowDeviated as i32),
        "{events:?}"
    );
    assert_eq!(executed(&scheduling.log, "event.list").len(), 1);
    assert!(executed(&scheduling.log, "event.create").is_empty());
    // The model was asked, and no prompt carried the stripped field.
    let seen = model.seen();
    assert!(!seen.is_empty());
    for request in &seen {
        assert!(
            !request.body.to_string().contains("078-05-1120"),
            "a prompt carries the filtered field"
        );
    }
}

/// A skill that starts its own jobs, every second.
const TICKING: &str = r#"problem: {statement: "Check the ledger now and then"}
intents:
  supported:
    - id: ledger_check
      description: Check the ledger
      examples: ["check the ledger", "is the ledger fine"]
tools: []
triggers:
  - id: every-second
    type: schedule
    every: PT1S
    concurrency: 3
    prompt: check the ledger
  - id: switched-off
    type: schedule
    every: PT1S
    enabled: false
    prompt: this never runs
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schedule_runs_once_per_period_across_two_replicas() {
    let root = adas_testkit::scratch_dir("triggers");
    let store = adas_e2e::invariants::CheckedStore::start(&root);
    let first = store.spawn_up(&root.join("a"), &[], &[]);
    let second = store.spawn_up(&root.join("b"), &[], &[]);
    let channel = |service: &SpawnedService| {
        tonic::transport::Channel::from_shared(service.endpoint())
            .unwrap()
            .connect_lazy()
    };
    pb::skill_registry_service_client::SkillRegistryServiceClient::new(channel(&first))
        .put_skill(pb::PutSkillRequest {
            name: "skills/ledger-watch".into(),
            source: TICKING.into(),
            ..Default::default()
        })
        .await
        .unwrap();
    // Both replicas see the skill within a rescan and run for a few periods
    // (a duration to observe, not a timing assertion).
    tokio::time::sleep(std::time::Duration::from_secs(14)).await;
    drop(second);
    let jobs = pb::orchestrator_service_client::OrchestratorServiceClient::new(channel(&first))
        .list_jobs(pb::ListJobsRequest {
            parent: "skills/ledger-watch".into(),
            page_size: 1000,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .jobs;
    assert!(jobs.len() >= 2, "the trigger ran: {jobs:?}");
    assert!(
        jobs.iter().all(|job| job.goal == "check the ledger"),
        "the disabled trigger never ran"
    );
    let mut periods = std::collections::HashSet::new();
    let mut jobs_client =
        pb::orchestrator_service_client::OrchestratorServiceClient::new(channel(&first));
    for job in &jobs {
        let full = jobs_client
            .get_job(pb::GetJobRequest {
                name: job.name.clone(),
            })
            .await
            .unwrap()
            .into_inner();
        let context = adas_runtime::convert::struct_to_json(full.context.as_ref().unwrap());
        let period = context["trigger"]["period"].as_u64().unwrap();
        assert!(periods.insert(period), "period {period} ran twice");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_escalated_conversation_goes_to_the_escalation_target() {
    let suite = Suite::start("solution-escalation");
    let mut registry = suite.registry("root").await;
    let skill = |statement: &str, escalation: &str| {
        format!(
            "problem: {{statement: \"{statement}\"}}\nintents: {{supported: [{{id: ask, examples: [\"where is my order\"]}}]}}\ntools: []\npolicy: {{escalation: {escalation}}}\n"
        )
    };
    for (slag, source) in [
        (
            "front-desk",
            skill(
                "Answer orders",
                "{enabled: true, conditions: [\"Customer requests refund\"], target: returns-desk}",
            ),
        ),
        ("returns-desk", skill("Handle returns", "{enabled: false}")),
    ] {
        registry
            .put_skill(pb::PutSkillRequest {
                name: format!("skills/{slag}"),
                source,
                ..Default::default()
            })
            .await
            .unwrap();
    }
    registry
        .put_solution(pb::PutSolutionRequest {
            name: "solutions/shop".into(),
            source: r#"{"id": "shop", "skills": [{"id": "front-desk"}, {"id": "returns-desk"}],
                "routing": {"api": {"default_skill": "front-desk"}}}"#
                .into(),
            etag: String::new(),
        })
        .await
        .unwrap();
    let mut jobs = suite.jobs("alice").await;
    let start = |conversation: String| pb::StartJobRequest {
        solution: "solutions/shop".into(),
        program: r#"sys.escalate(reason="the customer wants a refund")"#.into(),
        conversation,
        ..Default::default()
    };
    let first = jobs
        .start_job(start(String::new()))
        .await
        .unwrap()
        .into_inner();
    let first = suite.settle("alice", &first.name).await;
    assert_eq!(first.slag, "front-desk");
    let next = jobs
        .start_job(start(first.conversation.clone()))
        .await
        .unwrap()
        .into_inner();
    let next = suite.settle("alice", &next.name).await;
    assert_eq!(next.slag, "returns-desk", "{next:?}");
    assert_eq!(next.handed_off_from, "front-desk");
    // The target's own escalation is off: the conversation stays there.
    let last = jobs
        .start_job(start(next.conversation.clone()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(suite.settle("alice", &last.name).await.slag, "returns-desk");
}
