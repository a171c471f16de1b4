//! Solutions, continued.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn an_inactive_user_gets_no_grant_and_no_calendar() {
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
pub(super) async fn an_expired_grant_stops_the_next_booking() {
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
pub(super) async fn a_filtered_field_leaves_by_no_path() {
    let scheduling = Scheduling::start_logging_info("solution-filters", |gateway| {
        gateway["response_filters"] = serde_json::json!([
            {"strip_fields": ["customer.ssn"], "mask_fields": ["customer.email"]}
        ]);
        // The lookup is `pii_read`: of its result only what it reveals is shown.
        gateway["tools"][0]["security"]["reveal"] = serde_json::json!(["name"]);
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
    assert!(job.contains("Alice"), "the revealed field is kept: {job}");
    assert!(
        !job.contains("u-alice"),
        "the rest of a personal result is masked: {job}"
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
pub(super) fn scheduling_model(_: usize, seen: &Seen) -> Reply {
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
pub(super) async fn a_model_gets_no_grant_it_was_not_issued_and_sees_no_filtered_field() {
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

/// The jobs of `slag` (all of them: a skill the test's triggers started).
async fn started_by_triggers(channel: tonic::transport::Channel, slag: &str) -> Vec<pb::Job> {
    pb::orchestrator_service_client::OrchestratorServiceClient::new(channel)
        .list_jobs(pb::ListJobsRequest {
            parent: format!("skills/{slag}"),
            page_size: 1000,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .jobs
}

/// A skill that starts its own jobs, every second.
pub(super) const TICKING: &str = r#"problem: {statement: "Check the ledger now and then"}
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
pub(super) async fn a_schedule_runs_once_per_period_across_two_replicas() {
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
    let jobs = started_by_triggers(channel(&first), "ledger-watch").await;
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
pub(super) async fn an_escalated_conversation_goes_to_the_escalation_target() {
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_schedule_every_second_starts_no_more_than_its_rate() {
    let root = adas_testkit::scratch_dir("triggers-rate");
    let store = adas_e2e::invariants::CheckedStore::start(&root);
    let suite = store.spawn_up(&root, &["--trigger-jobs-per-minute", "2"], &[]);
    let channel = tonic::transport::Channel::from_shared(suite.endpoint())
        .unwrap()
        .connect_lazy();
    pb::skill_registry_service_client::SkillRegistryServiceClient::new(channel.clone())
        .put_skill(pb::PutSkillRequest {
            name: "skills/ledger-watch".into(),
            source: TICKING.into(),
            ..Default::default()
        })
        .await
        .unwrap();
    // A rescan and several one-second periods (a duration to observe).
    tokio::time::sleep(std::time::Duration::from_secs(10)).await;
    let jobs = started_by_triggers(channel, "ledger-watch").await;
    assert!(!jobs.is_empty(), "the trigger ran");
    assert!(
        jobs.len() <= 2,
        "the trigger passed its rate: {}",
        jobs.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn scheduled_side_effects_wait_for_their_approver_within_the_daily_and_tenant_caps()
 {
    let root = adas_testkit::scratch_dir("triggers-caps");
    let store = adas_e2e::invariants::CheckedStore::start(&root);
    let suite = store.spawn_up(
        &root,
        &[
            "--trigger-jobs-per-minute",
            "10",
            "--trigger-jobs-per-day",
            "2",
            "--trigger-tenant-jobs-per-minute",
            "3",
        ],
        &[],
    );
    let channel = tonic::transport::Channel::from_shared(suite.endpoint())
        .unwrap()
        .connect_lazy();
    // A refund every second, over the amount a supervisor must approve.
    let template =
        std::fs::read_to_string(adas_testkit::templates_dir().join("cs-tier-1.yaml")).unwrap();
    let refunds = format!(
        "{template}\ntriggers:\n  - id: nightly-refund\n    type: schedule\n    every: PT1S\n    prompt: refund $900 for order ORD-1\n"
    );
    let mut registry =
        pb::skill_registry_service_client::SkillRegistryServiceClient::new(channel.clone());
    for (slag, source) in [("refunds", refunds.as_str()), ("ledger-watch", TICKING)] {
        registry
            .put_skill(pb::PutSkillRequest {
                name: format!("skills/{slag}"),
                source: source.into(),
                ..Default::default()
            })
            .await
            .unwrap();
    }
    // A rescan and several one-second periods (a duration to observe).
    tokio::time::sleep(std::time::Duration::from_secs(10)).await;
    let mut jobs = pb::orchestrator_service_client::OrchestratorServiceClient::new(channel.clone());
    let mut total = 0;
    for slag in ["refunds", "ledger-watch"] {
        let listed = started_by_triggers(channel.clone(), slag).await;
        // Each skill at most its daily cap, though ten a minute are allowed.
        assert!(
            !listed.is_empty() && listed.len() <= 2,
            "{slag}: {}",
            listed.len()
        );
        total += listed.len();
        if slag != "refunds" {
            continue;
        }
        for job in &listed {
            let full = jobs
                .get_job(pb::GetJobRequest {
                    name: job.name.clone(),
                })
                .await
                .unwrap()
                .into_inner();
            // Nobody approved: no refund ran, the job waits for a supervisor.
            let reason = full
                .waiting
                .as_ref()
                .map(|waiting| waiting.reason_code.as_str());
            assert_eq!(reason, Some("APPROVAL_REQUIRED"), "{full:?}");
            assert!(
                full.tool_calls
                    .iter()
                    .all(|call| call.tool != "process_refund"),
                "{full:?}"
            );
            assert_eq!(full.status, pb::JobStatus::Paused as i32, "{full:?}");
        }
    }
    // And the tenant at most its own rate.
    assert!(total <= 3, "the tenant passed its rate: {total}");
}
