//! Hostile documents, hidden tools, other tenants' admins and leaky servers
//! (the issue "Hostile documents, borrowed identities, hidden tools"): each
//! attack against the real `adas up`, asserting the refusal and that nothing
//! happened — the tool server's own log, the job as its owner reads it, its
//! events, the suite's log.

use super::*;
use crate::more::demo_server;

fn text(value: &str) -> prost_types::Value {
    prost_types::Value {
        kind: Some(prost_types::value::Kind::StringValue(value.into())),
    }
}

/// Starts `program` on `skill` as `who` and waits until it pauses or ends.
async fn run(suite: &Suite, who: &str, skill: &str, program: &str) -> pb::Job {
    let job = suite
        .jobs(who)
        .await
        .start_job(pb::StartJobRequest {
            skill: format!("skills/{skill}"),
            program: program.into(),
            ..Default::default()
        })
        .await
        .unwrap_or_else(|status| panic!("{program}: {status:?}"))
        .into_inner();
    suite.settle(who, &job.name).await
}

/// Every event of `job` as `who` watches it, until the stream is quiet.
async fn watched(suite: &Suite, who: &str, job: &pb::Job) -> Vec<pb::JobEvent> {
    let mut stream = suite
        .jobs(who)
        .await
        .watch_job(pb::WatchJobRequest {
            name: job.name.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let mut events = Vec::new();
    while let Ok(Ok(Some(event))) =
        tokio::time::timeout(Duration::from_millis(1500), stream.message()).await
    {
        events.push(event);
    }
    events
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_deep_expression_in_one_string_is_refused_at_its_line_and_the_suite_serves_on()
{
    let suite = Suite::start("hostile-deep");
    // 1,000 nested parentheses in one condition: a 6 KB document.
    let deep = format!("{}$.status{}", "(".repeat(1000), ")".repeat(1000));
    let document = format!(
        "problem: {{statement: Look people up}}\nintents: {{supported: [{{id: find, examples: [find a user]}}]}}\ntools:\n  - {{name: lookup, inputs: [{{name: code, type: string, pattern: '{pattern}'}}]}}\ngrant_mappings:\n  - tool: lookup\n    grants:\n      - key: user.id\n        value_from: \"$.id\"\n        condition: '{deep}'\ntriggers:\n  - {{id: t, type: schedule, every: \"P{days}D\", prompt: check}}\n",
        pattern = "(".repeat(100) + &")".repeat(100),
        days = "9".repeat(200),
    );
    assert!(document.len() < 8 * 1024);
    // Any signed-in user may validate: the door the attack came through.
    let validated = suite
        .registry("alice")
        .await
        .validate_skill(pb::ValidateSkillRequest {
            source: document.clone(),
            ..Default::default()
        })
        .await
        .expect("a refusal is an answer, not a crash")
        .into_inner();
    assert!(!validated.valid);
    let at = |path: &str| {
        validated
            .diagnostics
            .iter()
            .find(|d| d.path == path)
            .map(|d| (d.line, d.column))
            .unwrap_or_else(|| panic!("{path}: {:?}", validated.diagnostics))
    };
    // Each at its value: the line, and the column where the string starts.
    let column_of = |line: usize, value: &str| {
        let text = document.lines().nth(line - 1).unwrap();
        text.find(value).map(|at| at as i32 + 1).unwrap()
    };
    assert_eq!(
        at("grant_mappings[0].grants[0].condition"),
        (10, column_of(10, "'(((")),
    );
    assert_eq!(at("tools[0].inputs[0].pattern"), (4, column_of(4, "'(((")),);
    assert_eq!(at("triggers[0].every"), (12, column_of(12, "\"P999")));
    let message = &validated
        .diagnostics
        .iter()
        .find(|d| d.path == "grant_mappings[0].grants[0].condition")
        .unwrap()
        .message;
    assert!(message.contains("deep") && message.len() < 400, "{message}");
    // Put, it is INVALID_ARGUMENT; nothing is stored.
    let put = suite
        .registry("root")
        .await
        .put_skill(pb::PutSkillRequest {
            name: "skills/deep".into(),
            source: document.clone(),
            ..Default::default()
        })
        .await;
    let refused = put.unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    // The refusal carries each place as field violations a client can show.
    use tonic_types::StatusExt;
    let violations = refused
        .get_error_details()
        .bad_request()
        .expect("field violations")
        .field_violations
        .clone();
    let condition = violations
        .iter()
        .find(|violation| violation.field == "source.grant_mappings[0].grants[0].condition")
        .unwrap_or_else(|| panic!("{violations:?}"));
    assert!(
        condition
            .description
            .contains(&format!("10:{}", column_of(10, "'((("))),
        "{condition:?}"
    );
    assert_eq!(
        code(
            suite
                .registry("root")
                .await
                .get_skill(pb::GetSkillRequest {
                    name: "skills/deep".into()
                })
                .await
        ),
        Code::NotFound
    );
    // The process serves on, every tenant alike.
    suite.alive().await;
    for who in ["alice", "g-user"] {
        suite
            .registry(who)
            .await
            .list_skills(pb::ListSkillsRequest::default())
            .await
            .expect("still serving");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_tool_its_server_hides_from_the_list_is_never_called() {
    let listen = format!("127.0.0.1:{}", adas_testkit::free_port());
    let scratch = scratch_dir("hostile-hidden");
    let log = scratch.join("their-executions.jsonl");
    let mut honest = demo_server(&listen, &log, &[]);
    let suite = Suite::start_with(
        "hostile-hidden",
        &["--rate-per-principal", "1000", "--mcp-allow", &listen],
    );
    let mut registry = suite.registry("root").await;
    let template =
        std::fs::read_to_string(adas_testkit::templates_dir().join("cs-tier-1.yaml")).unwrap();
    registry
        .put_skill(pb::PutSkillRequest {
            name: "skills/theirs".into(),
            source: template.replace("${ADAS_DEMO_MCP_URL}", &format!("http://{listen}/mcp")),
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
    // The server turns: it lists neither tool and still runs calls to both.
    honest.kill().unwrap();
    honest.wait().unwrap();
    let mut hostile = demo_server(
        &listen,
        &log,
        &[
            "--hide-tool",
            "process_refund",
            "--hide-tool",
            "check_order_status",
        ],
    );
    for (program, invalidate) in [
        // A side effect is checked against the list as it is at the call, not
        // the cached one (still fresh for a minute): nothing is invalidated.
        (r#"process_refund(order_id="ORD-1", amount=100)"#, false),
        // A read alike, once the cached list is gone: what the server would
        // run is not what was accepted.
        (r#"check_order_status(order_id="ORD-1")"#, true),
    ] {
        if invalidate {
            registry
                .invalidate_tool_cache(pb::InvalidateToolCacheRequest {
                    target: Some(pb::invalidate_tool_cache_request::Target::All(true)),
                    request_id: String::new(),
                })
                .await
                .unwrap();
        }
        let job = run(&suite, "alice", "theirs", program).await;
        assert_eq!(job.status, pb::JobStatus::Failed as i32, "{job:?}");
        assert_eq!(job.outcome_class, pb::OutcomeClass::PolicyDenied as i32);
        let error = job.error.clone().unwrap().message;
        // Refused as hidden — not merely as unchecked, which a recheck that
        // always failed would also say.
        let hidden = |text: &str| {
            text.contains("not in its server's current tool list")
                && !text.contains("cannot be checked")
        };
        assert!(hidden(&error), "{error}");
        // The reason is on the job's record too: its last event says it.
        let events = watched(&suite, "alice", &job).await;
        assert!(
            events.iter().any(|event| hidden(&event.message)),
            "{events:?}"
        );
    }
    assert!(
        adas_e2e::invariants::executions(&log).is_empty(),
        "the hidden tools ran"
    );
    hostile.kill().unwrap();
    hostile.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn another_tenants_admin_cannot_drop_a_tenants_connectors() {
    let listen = format!("127.0.0.1:{}", adas_testkit::free_port());
    let scratch = scratch_dir("hostile-connectors");
    let log = scratch.join("crm-executions.jsonl");
    let mut crm = demo_server(&listen, &log, &[]);
    let suite = Suite::start_with(
        "hostile-connectors",
        &["--rate-per-principal", "1000", "--mcp-allow", &listen],
    );
    let mut registry = suite.registry("root").await;
    registry
        .put_connector(pb::PutConnectorRequest {
            connector: Some(pb::Connector {
                name: "connectors/crm".into(),
                url: format!("http://{listen}/mcp"),
                deployment: false,
            }),
        })
        .await
        .unwrap();
    registry
        .put_skill(pb::PutSkillRequest {
            name: "skills/orders".into(),
            source: "problem: {statement: Look orders up}\nintents: {supported: [{id: status, examples: [where is my order]}]}\nconnectors: [crm]\ntools:\n  - name: order.status\n    read_only: true\n    source: {type: mcp_bridge, connection_id: crm, mcp_tool: check_order_status}\n    inputs: [{name: order_id, type: string, required: true}]\n".into(),
            ..Default::default()
        })
        .await
        .unwrap();
    let before = run(
        &suite,
        "alice",
        "orders",
        r#"order.status(order_id="ORD-1")"#,
    )
    .await;
    assert_eq!(before.status, pb::JobStatus::Completed as i32, "{before:?}");
    // The other tenant's admin drops "every" tool cache entry.
    suite
        .registry("eve")
        .await
        .invalidate_tool_cache(pb::InvalidateToolCacheRequest {
            target: Some(pb::invalidate_tool_cache_request::Target::All(true)),
            request_id: String::new(),
        })
        .await
        .unwrap();
    // Nor acme's server by its address: not found, and its list still cached.
    let uri = format!("http://{listen}/mcp");
    assert!(!suite.keys_with(&format!("tools:mcp:{uri}")).is_empty());
    let dropped = suite
        .registry("eve")
        .await
        .invalidate_tool_cache(pb::InvalidateToolCacheRequest {
            target: Some(pb::invalidate_tool_cache_request::Target::ServerUri(
                uri.clone(),
            )),
            request_id: String::new(),
        })
        .await;
    assert_eq!(code(dropped), Code::NotFound);
    assert!(!suite.keys_with(&format!("tools:mcp:{uri}")).is_empty());
    // Its own admin may: the server is acme's connector's.
    let dropped = registry
        .invalidate_tool_cache(pb::InvalidateToolCacheRequest {
            target: Some(pb::invalidate_tool_cache_request::Target::ServerUri(
                uri.clone(),
            )),
            request_id: String::new(),
        })
        .await
        .unwrap()
        .into_inner();
    assert!(dropped.invalidated_entries >= 1, "{dropped:?}");
    assert!(suite.keys_with(&format!("tools:mcp:{uri}")).is_empty());
    // acme's connector is acme's data: still there, still where it was.
    let listed = registry
        .list_connectors(pb::ListConnectorsRequest {})
        .await
        .unwrap()
        .into_inner();
    assert!(
        listed
            .connectors
            .iter()
            .any(|connector| connector.name == "connectors/crm" && connector.url.contains(&listen)),
        "{listed:?}"
    );
    assert!(
        suite.keys_with("tools:connector").is_empty(),
        "connectors are not cache entries"
    );
    let after = run(
        &suite,
        "alice",
        "orders",
        r#"order.status(order_id="ORD-1")"#,
    )
    .await;
    assert_eq!(after.status, pb::JobStatus::Completed as i32, "{after:?}");
    // The audit says which server each call went to.
    let started = watched(&suite, "alice", &after)
        .await
        .into_iter()
        .find(|event| event.r#type == pb::JobEventType::ToolStarted as i32)
        .expect("the call's start");
    let detail = format!("{:?}", started.data);
    assert!(detail.contains(&uri), "{detail}");
    assert_eq!(
        adas_e2e::invariants::executions(&log)
            .iter()
            .filter(|call| call["tool"] == "check_order_status")
            .count(),
        2,
        "both jobs ran on the tenant's own server"
    );
    crm.kill().unwrap();
    crm.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn filtered_fields_never_leave_by_text_blocks_or_errors() {
    let listen = format!("127.0.0.1:{}", adas_testkit::free_port());
    let scratch = scratch_dir("hostile-filters");
    let log = scratch.join("records-executions.jsonl");
    let mut records = demo_server(&listen, &log, &["--only-tool", "customer.records"]);
    let suite = Suite::start_logged(
        "hostile-filters",
        &["--rate-per-principal", "1000", "--mcp-allow", &listen],
        &[("ADAS_LOG", "info")],
        true,
    );
    suite
        .registry("root")
        .await
        .put_skill(pb::PutSkillRequest {
            name: "skills/records".into(),
            source: format!("problem: {{statement: Read customer records}}\nintents: {{supported: [{{id: read, examples: [show the records]}}]}}\nmcp_server: http://{listen}/mcp\ntools:\n  - name: customer.records\n    read_only: true\n    inputs: [{{name: customer_id, type: string, required: true}}]\nresponse_filters:\n  - strip_fields: [ssn]\n"),
            ..Default::default()
        })
        .await
        .unwrap();
    let secrets = [
        "111-22-3333",
        "444-55-6666",
        "777-88-9999",
        "222-33-4444",
        "555-66-7777",
        "888-99-0000",
        "999-00-1111",
    ];
    let mut jobs = Vec::new();
    // Two text blocks (a list), an error in JSON, an error in plain text, a
    // success in prose, a JSON block beside a prose block.
    for customer in ["C-1", "C-2", "C-9", "C-3", "C-4"] {
        let job = run(
            &suite,
            "alice",
            "records",
            &format!(r#"customer.records(customer_id="{customer}")"#),
        )
        .await;
        jobs.push(job);
    }
    for (done, name) in [
        (&jobs[0], "Ann Lee"),
        (&jobs[3], "Ann Lee"),
        (&jobs[4], "Bo Chan"),
    ] {
        assert_eq!(done.status, pb::JobStatus::Completed as i32, "{done:?}");
        assert!(format!("{done:?}").contains(name), "the rest is kept");
    }
    for failed in &jobs[1..3] {
        let waiting = failed.waiting.as_ref().expect("the user decides");
        assert_eq!(waiting.reason_code, "TOOL_ERROR_RECOVERY", "{failed:?}");
        // The server's words are not put to the user: only their category.
        let question = &waiting.fields[0].prompt;
        assert!(question.contains("the tool failed"), "{question}");
        assert!(
            !question.contains("locked") && !question.contains("support"),
            "{question}"
        );
    }
    for job in &jobs {
        let shown = format!("{job:?}{:?}", watched(&suite, "alice", job).await);
        for secret in secrets {
            assert!(!shown.contains(secret), "{secret} in {shown}");
        }
    }
    // A skill that opts in (`show_errors`) puts the server's words to the
    // user — filtered all the same.
    suite
        .registry("root")
        .await
        .put_skill(pb::PutSkillRequest {
            name: "skills/records-shown".into(),
            source: format!("problem: {{statement: Read customer records}}\nintents: {{supported: [{{id: read, examples: [show the records]}}]}}\nmcp_server: http://{listen}/mcp\ntools:\n  - name: customer.records\n    read_only: true\n    show_errors: true\n    inputs: [{{name: customer_id, type: string, required: true}}]\nresponse_filters:\n  - strip_fields: [ssn]\n"),
            ..Default::default()
        })
        .await
        .unwrap();
    let shown = run(
        &suite,
        "alice",
        "records-shown",
        r#"customer.records(customer_id="C-9")"#,
    )
    .await;
    let question = &shown.waiting.as_ref().expect("the user decides").fields[0].prompt;
    assert!(question.contains("no record for C-9"), "{question}");
    assert!(!question.contains("222-33-4444"), "{question}");
    jobs.push(shown);
    for job in &jobs[5..] {
        let shown = format!("{job:?}{:?}", watched(&suite, "alice", job).await);
        assert!(!shown.contains("222-33-4444"), "{shown}");
    }
    let logged = suite.log();
    for secret in secrets {
        assert!(!logged.contains(secret), "{secret} logged");
    }
    assert_eq!(adas_e2e::invariants::executions(&log).len(), 6);
    records.kill().unwrap();
    records.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn an_access_rule_added_while_a_job_waits_holds_when_it_resumes() {
    let suite = Suite::start("hostile-access");
    let lookup = suite
        .job(
            "alice",
            r#"check_order_status(order_id=ASK("Which order?"))"#,
        )
        .await;
    suite
        .edit_skill("cs-tier-1", |source| {
            format!(
                "{}\naccess_policy:\n  rules:\n    - {{tools: [check_order_status], effect: deny}}\n",
                source.trim_end()
            )
        })
        .await;
    suite
        .dal("alice")
        .await
        .submit_input(pb::SubmitInputRequest {
            job: lookup.name.clone(),
            correlation_id: lookup.waiting.as_ref().unwrap().correlation_id.clone(),
            fields: HashMap::from([("order_id".to_owned(), text("ORD-1"))]),
            ..Default::default()
        })
        .await
        .unwrap();
    let denied = suite.settle("alice", &lookup.name).await;
    assert_eq!(denied.status, pb::JobStatus::Failed as i32, "{denied:?}");
    assert_eq!(denied.outcome_class, pb::OutcomeClass::PolicyDenied as i32);
    let error = denied.error.unwrap().message;
    assert!(
        error.contains("access_policy"),
        "the access rule decided: {error}"
    );
    assert!(suite.executed("check_order_status").is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn only_the_owner_gives_a_confirmation() {
    let suite = Suite::start("hostile-owner");
    // A side-effecting call resting on nothing the user said: the owner's yes.
    suite
        .edit_skill("cs-tier-1", |source| {
            source.replace("approver: supervisor", "approver: user")
        })
        .await;
    let held = suite.job("alice", REFUND_900).await;
    let waiting = held.waiting.clone().expect("the owner is asked");
    assert_eq!(
        waiting.reason_code, "ACTION_CONFIRMATION_REQUIRED",
        "{held:?}"
    );
    // olga answers others' asks, but a confirmation is alice's own.
    let answered = suite
        .dal("olga")
        .await
        .submit_input(pb::SubmitInputRequest {
            job: held.name.clone(),
            correlation_id: waiting.correlation_id.clone(),
            fields: HashMap::from([("confirm".to_owned(), text("yes"))]),
            ..Default::default()
        })
        .await;
    assert_eq!(code(answered), Code::PermissionDenied);
    let still = suite.settle("alice", &held.name).await;
    assert_eq!(still.status, pb::JobStatus::Paused as i32);
    assert!(suite.executed("process_refund").is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn an_approvers_watch_ends_with_the_approvers_part() {
    let suite = Suite::start("hostile-watch");
    let held = suite.job("alice", REFUND_900).await;
    let waiting = held.waiting.clone().expect("a supervisor decides");
    assert_eq!(waiting.reason_code, "APPROVAL_REQUIRED");
    let mut stream = suite
        .jobs("sam")
        .await
        .watch_job(pb::WatchJobRequest {
            name: held.name.clone(),
            ..Default::default()
        })
        .await
        .expect("the approver may watch the job it decides")
        .into_inner();
    // What happened so far.
    let mut seen = Vec::new();
    while let Ok(Ok(Some(event))) =
        tokio::time::timeout(Duration::from_millis(800), stream.message()).await
    {
        seen.push(event);
    }
    assert!(!seen.is_empty());
    suite
        .gate("sam")
        .await
        .decide_approval(pb::DecideApprovalRequest {
            job: held.name.clone(),
            correlation_id: waiting.correlation_id.clone(),
            decision: pb::ApprovalDecision::Approve as i32,
            ..Default::default()
        })
        .await
        .unwrap();
    let done = suite.settle("alice", &held.name).await;
    assert_eq!(done.status, pb::JobStatus::Completed as i32, "{done:?}");
    // The job's later events are alice's: sam's watch ends instead.
    let mut after = Vec::new();
    let ended = loop {
        match tokio::time::timeout(Duration::from_secs(5), stream.message()).await {
            Ok(Ok(Some(event))) => after.push(event),
            Ok(Err(status)) => break Some(status.code()),
            Ok(Ok(None)) | Err(_) => break None,
        }
    };
    assert_eq!(ended, Some(Code::PermissionDenied), "{after:?}");
    assert!(
        after
            .iter()
            .all(|event| event.r#type != pb::JobEventType::Completed as i32),
        "{after:?}"
    );
}
