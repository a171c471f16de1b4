//! Control, the last part.

use super::*;
use crate::more::demo_server;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_side_effect_waits_for_a_fresh_check_of_its_tool() {
    let listen = format!("127.0.0.1:{}", adas_testkit::free_port());
    let scratch = scratch_dir("ctl-stale-tools");
    let log = scratch.join("their-executions.jsonl");
    let mut honest = demo_server(&listen, &log, &[]);
    let suite = Suite::start_with(
        "ctl-stale",
        &[
            "--rate-per-principal",
            "1000",
            "--mcp-allow",
            &listen,
            // Lists stay fresh 200 ms, then are asked again.
            "--mcp-tools-ttl-ms",
            "200",
        ],
    );
    let mut registry = suite.registry("root").await;
    let template =
        std::fs::read_to_string(adas_testkit::templates_dir().join("cs-tier-1.yaml")).unwrap();
    let source = template.replace("${ADAS_DEMO_MCP_URL}", &format!("http://{listen}/mcp"));
    registry
        .put_skill(pb::PutSkillRequest {
            name: "skills/theirs".into(),
            source,
            ..Default::default()
        })
        .await
        .unwrap();
    // Accepted on first use, while the server is honest.
    registry
        .resolve_tools(pb::ResolveToolsRequest {
            skill: "skills/theirs".into(),
        })
        .await
        .unwrap();
    // The server turns: it fails `tools/list` (so no change can be seen) and
    // still runs calls.
    honest.kill().unwrap();
    honest.wait().unwrap();
    let mut hostile = demo_server(&listen, &log, &["--fail-list"]);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let run = |program: &'static str| async {
        let job = suite
            .jobs("alice")
            .await
            .start_job(pb::StartJobRequest {
                skill: "skills/theirs".into(),
                program: program.into(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        suite.settle("alice", &job.name).await
    };
    let refund = run(r#"process_refund(order_id="ORD-1", amount=100)"#).await;
    assert_eq!(refund.status, pb::JobStatus::Failed as i32, "{refund:?}");
    assert_eq!(refund.outcome_class, pb::OutcomeClass::PolicyDenied as i32);
    assert!(
        refund
            .error
            .as_ref()
            .unwrap()
            .message
            .contains("fresh check"),
        "{:?}",
        refund.error
    );
    // A read may use the list it has.
    let lookup = run(r#"check_order_status(order_id="ORD-1")"#).await;
    assert_eq!(lookup.status, pb::JobStatus::Completed as i32, "{lookup:?}");
    let executed = adas_e2e::invariants::executions(&log);
    assert!(
        executed.iter().all(|call| call["tool"] != "process_refund"),
        "{executed:?}"
    );
    assert!(
        executed
            .iter()
            .any(|call| call["tool"] == "check_order_status")
    );
    hostile.kill().unwrap();
    hostile.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn one_tenants_slow_tools_do_not_hold_up_another_tenants_jobs() {
    let listen = format!("127.0.0.1:{}", adas_testkit::free_port());
    let scratch = scratch_dir("ctl-fair-tools");
    // A tool server that takes a minute per call.
    let mut slow = demo_server(
        &listen,
        &scratch.join("slow-executions.jsonl"),
        &["--delay-ms", "60000"],
    );
    let suite = Suite::start_with(
        "ctl-fair",
        &[
            "--rate-per-principal",
            "1000",
            "--mcp-allow",
            &listen,
            "--workers",
            "4",
        ],
    );
    let template =
        std::fs::read_to_string(adas_testkit::templates_dir().join("cs-tier-1.yaml")).unwrap();
    suite
        .registry("root")
        .await
        .put_skill(pb::PutSkillRequest {
            name: "skills/slow".into(),
            source: template.replace("${ADAS_DEMO_MCP_URL}", &format!("http://{listen}/mcp")),
            ..Default::default()
        })
        .await
        .unwrap();
    // Acme floods its slow skill: twice the worker budget.
    let mut jobs = suite.jobs("alice").await;
    let mut theirs = Vec::new();
    for _ in 0..8 {
        theirs.push(
            jobs.start_job(pb::StartJobRequest {
                skill: "skills/slow".into(),
                program: r#"check_order_status(order_id="ORD-1")"#.into(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner()
            .name,
        );
    }
    // Every worker place is taken by an acme job in its call.
    let statuses = |jobs: pb::orchestrator_service_client::OrchestratorServiceClient<_>,
                    names: Vec<String>| async move {
        let mut jobs = jobs;
        let mut statuses = Vec::new();
        for name in names {
            statuses.push(
                jobs.get_job(pb::GetJobRequest { name })
                    .await
                    .unwrap()
                    .into_inner()
                    .status,
            );
        }
        statuses
    };
    loop {
        let running = statuses(jobs.clone(), theirs.clone())
            .await
            .into_iter()
            .filter(|status| *status == pb::JobStatus::Running as i32)
            .count();
        if running >= 4 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Globex's one-call job on its own (fast) server still goes through…
    let mine = suite
        .jobs("g-user")
        .await
        .start_job(pb::StartJobRequest {
            skill: "skills/cs-tier-1".into(),
            program: r#"check_order_status(order_id="ORD-1")"#.into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let done = suite.settle("g-user", &mine.name).await;
    assert_eq!(done.status, pb::JobStatus::Completed as i32, "{done:?}");
    // …while every acme job is still waiting on its tool server.
    let acme = statuses(jobs.clone(), theirs.clone()).await;
    assert!(
        acme.iter()
            .all(|status| *status != pb::JobStatus::Completed as i32),
        "{acme:?}"
    );
    slow.kill().unwrap();
    slow.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn one_tenants_hanging_requests_leave_room_for_another_tenant() {
    // An MCP server that accepts and never answers: each ResolveTools on it
    // holds its request until the MCP call timeout.
    let silent = adas_testkit::SilentServer::start();
    let silent_addr = silent.addr().to_string();
    let suite = Suite::start_with(
        "ctl-fair-requests",
        &[
            "--rate-per-principal",
            "1000",
            "--mcp-allow",
            &silent_addr,
            "--concurrency-limit",
            "4",
            "--request-timeout-ms",
            "120000",
        ],
    );
    suite
        .registry("g-admin")
        .await
        .put_skill(pb::PutSkillRequest {
            name: "skills/silent".into(),
            source: format!(
                "name: Silent\nproblem: {{statement: Hang}}\nmcp_server: \"http://{silent_addr}/mcp\"\n\
                 intents: {{supported: [{{id: hang}}]}}\ntools: []\n"
            ),
            ..Default::default()
        })
        .await
        .unwrap();
    // Globex takes every request slot the process has, and more.
    let mut hanging = Vec::new();
    for _ in 0..6 {
        let mut registry = suite.registry("g-user").await;
        hanging.push(tokio::spawn(async move {
            registry
                .resolve_tools(pb::ResolveToolsRequest {
                    skill: "skills/silent".into(),
                })
                .await
        }));
    }
    silent.accepted_one().await;
    // Acme is still served, while globex's requests hang.
    suite
        .registry("alice")
        .await
        .list_skills(pb::ListSkillsRequest::default())
        .await
        .unwrap();
    assert!(hanging.iter().all(|call| !call.is_finished()));
    for call in hanging {
        call.abort();
    }
}

#[test]
pub(super) fn concurrent_key_creation_loses_no_principal() {
    let file = scratch_dir("ctl-auth-lock").join("auth.json");
    let children: Vec<_> = (0..9)
        .map(|n| {
            Command::new(workspace_binary("adas"))
                .args([
                    "auth",
                    "key",
                    "create",
                    "--auth-file",
                    file.to_str().unwrap(),
                    "--name",
                    &format!("p{n}"),
                    "--tenant",
                    "acme",
                    "--role",
                    "user",
                ])
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let keys: Vec<String> = children
        .into_iter()
        .map(|child| {
            let output = child.wait_with_output().unwrap();
            assert!(output.status.success());
            String::from_utf8(output.stdout).unwrap().trim().to_owned()
        })
        .collect();
    // Every printed key reached the file: each one authenticates.
    let authenticator = adas_runtime::auth::Authenticator::from_file(&file).unwrap();
    for (n, key) in keys.iter().enumerate() {
        let principal = authenticator
            .authenticate(key)
            .unwrap_or_else(|| panic!("key {n} was lost"));
        assert!(principal.name.starts_with('p'));
    }
    // A tenant `*` key is the suite's workers' only.
    let refused = Command::new(workspace_binary("adas"))
        .args([
            "auth",
            "key",
            "create",
            "--auth-file",
            file.to_str().unwrap(),
            "--name",
            "everywhere",
            "--tenant",
            "*",
            "--role",
            "admin",
        ])
        .output()
        .unwrap();
    assert!(!refused.status.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn the_owners_confirmation_pays_for_one_execution() {
    let suite = Suite::start("ctl-owner-confirms");
    let template =
        std::fs::read_to_string(adas_testkit::templates_dir().join("cs-tier-1.yaml")).unwrap();
    // The rule gives the refund to the user: her own yes to the exact call.
    let source = template.replace("      approver: supervisor\n", "      approver: user\n");
    assert!(source.contains("approver: user"));
    suite
        .registry("root")
        .await
        .put_skill(pb::PutSkillRequest {
            name: "skills/self-serve".into(),
            source,
            ..Default::default()
        })
        .await
        .unwrap();
    let program = format!("{REFUND_900}, {REFUND_900}");
    let job = suite
        .jobs("alice")
        .await
        .start_job(pb::StartJobRequest {
            skill: "skills/self-serve".into(),
            program,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    suite.store.runs_under_its_own_policy(&job.name);
    let confirm = |job: &pb::Job| pb::SubmitInputRequest {
        job: job.name.clone(),
        correlation_id: job.waiting.as_ref().unwrap().correlation_id.clone(),
        fields: HashMap::from([(
            "confirm".to_owned(),
            prost_types::Value {
                kind: Some(prost_types::value::Kind::StringValue("yes".into())),
            },
        )]),
        ..Default::default()
    };
    let mut dal = suite.dal("alice").await;
    for expected in 1..=2 {
        let asked = suite.settle("alice", &job.name).await;
        assert_eq!(
            asked
                .waiting
                .as_ref()
                .map(|waiting| waiting.reason_code.as_str()),
            Some("ACTION_CONFIRMATION_REQUIRED"),
            "{asked:?}"
        );
        // A supervisor is no one here: this is alice's to confirm.
        assert_eq!(
            code(suite.dal("sam").await.submit_input(confirm(&asked)).await),
            Code::PermissionDenied
        );
        assert_eq!(suite.executed("process_refund").len(), expected - 1);
        dal.submit_input(confirm(&asked)).await.unwrap();
    }
    let done = suite.settle("alice", &job.name).await;
    assert_eq!(done.status, pb::JobStatus::Completed as i32, "{done:?}");
    assert_eq!(suite.executed("process_refund").len(), 2);
}

/// `engine.rv2.iteration_timeout_ms` is a limit on each call of the skill's
/// jobs: a tool server slower than it fails the job, said plainly, instead
/// of holding it for the deployment's whole call timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_skills_own_call_limit_holds() {
    let listen = format!("127.0.0.1:{}", adas_testkit::free_port());
    let scratch = scratch_dir("ctl-call-limit");
    let mut slow = demo_server(
        &listen,
        &scratch.join("slow-executions.jsonl"),
        &["--delay-ms", "60000"],
    );
    let suite = Suite::start_with("ctl-call-limit", &["--mcp-allow", &listen]);
    let template =
        std::fs::read_to_string(adas_testkit::templates_dir().join("cs-tier-1.yaml")).unwrap();
    let source = template
        .replace("${ADAS_DEMO_MCP_URL}", &format!("http://{listen}/mcp"))
        .replace(
            "\nengine:\n",
            "\nengine:\n  rv2: {iteration_timeout_ms: 300}\n",
        );
    assert!(source.contains("iteration_timeout_ms: 300"));
    suite
        .registry("root")
        .await
        .put_skill(pb::PutSkillRequest {
            name: "skills/limited".into(),
            source,
            ..Default::default()
        })
        .await
        .unwrap();
    let job = suite
        .jobs("alice")
        .await
        .start_job(pb::StartJobRequest {
            skill: "skills/limited".into(),
            program: r#"check_order_status(order_id="ORD-1")"#.into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let done = suite.settle("alice", &job.name).await;
    assert_eq!(done.status, pb::JobStatus::Failed as i32, "{done:?}");
    let error = done.error.map(|error| error.message).unwrap_or_default();
    assert!(error.contains("within 300 ms"), "{error}");
    slow.kill().unwrap();
    slow.wait().unwrap();
}
