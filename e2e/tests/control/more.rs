//! Control, continued: the rest of what no caller, tool server or guess may do.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn nobody_but_the_suite_spends_the_operators_model() {
    use adas_testkit::model::{ModelServer, Reply};
    let model = ModelServer::start(|_, _| {
        Reply::ok(serde_json::json!({
            "id": "x", "object": "chat.completion", "model": "scripted-1",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": "{}"}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
        }))
    })
    .await;
    let base = format!("{}/v1", model.url);
    let suite = Suite::start_with_env(
        "ctl-model-budget",
        &["--rate-per-principal", "1000"],
        &[
            ("ADAS_LLM_BASE_URL", base.as_str()),
            ("ADAS_LLM_MODEL", "scripted-1"),
            ("ADAS_LLM_API_KEY", "env:TEST_MODEL_KEY"),
            ("TEST_MODEL_KEY", "sk-scripted"),
            ("ADAS_LLM_RETRIES", "0"),
        ],
    );
    // Twenty of each model-backed RPC, by users and admins of two tenants,
    // each claiming a fresh budget (no tokens spent).
    for who in ["g-user", "alice", "root", "eve"] {
        let mut gate = suite.gate(who).await;
        let mut intent =
            pb::intent_service_client::IntentServiceClient::new(suite.channel(Some(who)).await);
        for _ in 0..5 {
            gate.polish_reply(pb::PolishReplyRequest {
                skill: "skills/cs-tier-1".into(),
                reply: "Your refund of 40 for ORD-1 is on its way.".into(),
                ..Default::default()
            })
            .await
            .unwrap();
            gate.finalize(pb::FinalizeRequest {
                skill: "skills/cs-tier-1".into(),
                goal: "refund ORD-1".into(),
                draft_reply: "Refunded.".into(),
                ..Default::default()
            })
            .await
            .unwrap();
            intent
                .plan(pb::PlanRequest {
                    skill: "skills/cs-tier-1".into(),
                    message: "I want a refund for ORD-1 of 40".into(),
                    ..Default::default()
                })
                .await
                .unwrap();
        }
    }
    // A tenant's own service key without a job, or naming another tenant's
    // job, gets no model either.
    let victim = suite.job("alice", REFUND_900).await;
    let mut gate = suite.gate("g-service").await;
    gate.polish_reply(pb::PolishReplyRequest {
        skill: "skills/cs-tier-1".into(),
        reply: "Done.".into(),
        ..Default::default()
    })
    .await
    .unwrap();
    assert_eq!(
        code(
            gate.polish_reply(pb::PolishReplyRequest {
                skill: "skills/cs-tier-1".into(),
                reply: "Done.".into(),
                job: victim.name.clone(),
                ..Default::default()
            })
            .await
        ),
        Code::NotFound
    );
    assert_eq!(
        model.seen().len(),
        0,
        "the model was called for callers other than the suite"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn the_cli_and_the_server_give_one_verdict_on_a_skill() {
    let suite = Suite::start("ctl-one-verdict");
    let template =
        std::fs::read_to_string(adas_testkit::templates_dir().join("cs-tier-1.yaml")).unwrap();
    let source = template.replace(
        "mcp_server: \"${ADAS_DEMO_MCP_URL}\"",
        "mcp_server: \"ftp://127.0.0.1:3100/tools\"",
    );
    assert_ne!(source, template);
    let file = scratch_dir("ctl-one-verdict-file").join("cs.yaml");
    std::fs::write(&file, &source).unwrap();
    let local = Command::new(workspace_binary("adas"))
        .args(["skill", "validate", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!local.status.success());
    let printed = String::from_utf8_lossy(&local.stdout);
    let remote = suite
        .registry("root")
        .await
        .validate_skill(pb::ValidateSkillRequest {
            source: source.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(!remote.valid);
    let server_side: Vec<&pb::Diagnostic> = remote
        .diagnostics
        .iter()
        .filter(|d| d.path == "mcp_server")
        .collect();
    assert_eq!(server_side.len(), 1, "{server_side:?}");
    let message = &server_side[0].message;
    assert!(
        message.contains("names no transport") && message.contains("http://host:port/path"),
        "{message}"
    );
    assert!(
        printed.contains(message.as_str()),
        "the CLI says the same: {printed}"
    );
    assert!(printed.contains(&format!(
        ":{}:{}: error",
        server_side[0].line, server_side[0].column
    )));
}

/// A refund waiting for its amount and a status lookup waiting for its
/// order, both alice's.
async fn refund_and_lookup(suite: &Suite) -> (pb::Job, pb::Job) {
    let refund = suite
        .job(
            "alice",
            r#"process_refund(order_id="ORD-1", amount=ASK("How much?"))"#,
        )
        .await;
    let lookup = suite
        .job(
            "alice",
            r#"check_order_status(order_id=ASK("Which order?"))"#,
        )
        .await;
    (refund, lookup)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_tightened_policy_holds_jobs_already_running() {
    let suite = Suite::start("ctl-tightened");
    let (refund, lookup) = refund_and_lookup(&suite).await;
    // Both wait for alice; meanwhile the admin tightens the skill: approval
    // above 100, and no more status lookups.
    let mut registry = suite.registry("root").await;
    let current = registry
        .get_skill(pb::GetSkillRequest {
            name: "skills/cs-tier-1".into(),
        })
        .await
        .unwrap()
        .into_inner();
    let tightened = current
        .source
        .replace("when: \"amount > 500\"", "when: \"amount > 100\"")
        .replacen("allowed: always", "allowed: never", 1);
    assert_ne!(tightened, current.source);
    registry
        .put_skill(pb::PutSkillRequest {
            name: "skills/cs-tier-1".into(),
            source: tightened,
            etag: current.etag.clone(),
            ..Default::default()
        })
        .await
        .unwrap();
    let answer = |job: &pb::Job, field: &str, value: prost_types::Value| pb::SubmitInputRequest {
        job: job.name.clone(),
        correlation_id: job.waiting.as_ref().unwrap().correlation_id.clone(),
        fields: HashMap::from([(field.to_owned(), value)]),
        ..Default::default()
    };
    let mut dal = suite.dal("alice").await;
    // 300 was below the old rule's 500: under the new one it needs a supervisor.
    dal.submit_input(answer(&refund, "amount", number(300.0)))
        .await
        .unwrap();
    let held = suite.settle("alice", &refund.name).await;
    assert_eq!(
        held.waiting.map(|waiting| waiting.reason_code).as_deref(),
        Some("APPROVAL_REQUIRED"),
        "{:?}",
        held.error
    );
    dal.submit_input(answer(
        &lookup,
        "order_id",
        prost_types::Value {
            kind: Some(prost_types::value::Kind::StringValue("ORD-1".into())),
        },
    ))
    .await
    .unwrap();
    let denied = suite.settle("alice", &lookup.name).await;
    assert_eq!(denied.status, pb::JobStatus::Failed as i32, "{denied:?}");
    assert_eq!(denied.outcome_class, pb::OutcomeClass::PolicyDenied as i32);
    assert!(suite.executed("process_refund").is_empty());
    assert!(suite.executed("check_order_status").is_empty());
}

/// The replica that runs a job holds the skill's version it read; another
/// replica tightens the skill. The job's next calls meet the new policy all
/// the same: the call's start finds the skill's mark moved, and the gate
/// speaks again on the skill read now — a side effect the new policy holds
/// for approval is not made, and a read it forbids never reaches its server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_policy_tightened_on_another_replica_holds_this_ones_calls() {
    let suite = Suite::start_logged(
        "ctl-tightened-elsewhere",
        &["--rate-per-principal", "1000"],
        &[("ADAS_LOG", "warn,adas_orchestrator=info")],
        true,
    );
    let (refund, lookup) = refund_and_lookup(&suite).await;
    // A registry of its own on the same store: the suite's process does not
    // see its writes, only the skill's mark moving.
    let other = adas_testkit::SpawnedService::spawn(
        &workspace_binary("adas-skill-registry"),
        &[
            "--memory-root",
            suite.root.join("other").to_str().unwrap(),
            "--templates-dir",
            &adas_testkit::templates_arg(),
            "--auth-file",
            suite.root.join("auth.json").to_str().unwrap(),
            "--redis-url",
            &suite.store.redis_url(),
            "--durability",
            "relaxed",
            "--mcp-allow",
            "127.0.0.1",
        ],
        &[],
    );
    let mut registry = pb::skill_registry_service_client::SkillRegistryServiceClient::new(
        suite.channel_to(&other, Some("root")).await,
    );
    let mut dal = suite.dal("alice").await;
    let mut answer = async |job: &pb::Job, field: &str, value: prost_types::Value| {
        dal.submit_input(pb::SubmitInputRequest {
            job: job.name.clone(),
            correlation_id: job.waiting.as_ref().unwrap().correlation_id.clone(),
            fields: HashMap::from([(field.to_owned(), value)]),
            ..Default::default()
        })
        .await
        .unwrap();
        suite.settle("alice", &job.name).await
    };
    let gated_again = |tool: &str| {
        let log = suite.log();
        log.lines()
            .filter(|line| {
                line.contains("the skill's policy changed since the gate spoke")
                    && line.contains(&format!("\"tool\":\"{tool}\""))
            })
            .count()
    };
    // No more status lookups: the read this process would start on the
    // version it holds never reaches the server.
    support::edit_skill_on(&mut registry, "cs-tier-1", |source| {
        source.replacen("allowed: always", "allowed: never", 1)
    })
    .await;
    let text = prost_types::Value {
        kind: Some(prost_types::value::Kind::StringValue("ORD-1".into())),
    };
    let denied = answer(&lookup, "order_id", text).await;
    assert_eq!(denied.status, pb::JobStatus::Failed as i32, "{denied:?}");
    assert_eq!(denied.outcome_class, pb::OutcomeClass::PolicyDenied as i32);
    assert!(suite.executed("check_order_status").is_empty());
    assert_eq!(gated_again("check_order_status"), 1, "{}", suite.log());
    // Approval above 50 now: 80 was below the held version's 500.
    support::edit_skill_on(&mut registry, "cs-tier-1", |source| {
        source.replace("when: \"amount > 500\"", "when: \"amount > 50\"")
    })
    .await;
    let held = answer(&refund, "amount", number(80.0)).await;
    assert_eq!(
        held.waiting.map(|waiting| waiting.reason_code).as_deref(),
        Some("APPROVAL_REQUIRED"),
        "{:?}",
        held.error
    );
    assert!(suite.executed("process_refund").is_empty());
    // Whether the gate spoke on the version held or on one the answer's
    // own read brought, it spoke on the new policy.
    assert!(gated_again("process_refund") <= 1, "{}", suite.log());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn list_pages_say_nothing_of_other_tenants() {
    let suite = Suite::start("ctl-pages");
    let lookup = r#"check_order_status(order_id=ASK("Which order?"))"#;
    for _ in 0..7 {
        suite.job("alice", lookup).await;
    }
    for _ in 0..3 {
        suite
            .jobs("g-user")
            .await
            .start_job(pb::StartJobRequest {
                skill: "skills/cs-tier-1".into(),
                program: lookup.into(),
                ..Default::default()
            })
            .await
            .unwrap();
    }
    let mut jobs = suite.jobs("g-user").await;
    let mut seen = 0;
    let mut tokens = Vec::new();
    let mut token = String::new();
    loop {
        let page = jobs
            .list_jobs(pb::ListJobsRequest {
                parent: "skills/cs-tier-1".into(),
                page_size: 1,
                page_token: token.clone(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        seen += page.jobs.len();
        if page.next_page_token.is_empty() {
            break;
        }
        token = page.next_page_token;
        tokens.push(token.clone());
    }
    assert_eq!(seen, 3);
    for token in &tokens {
        // An offset into the shared index would show here (it was `o8`).
        assert!(token.starts_with('p') && token.len() > 40, "{token}");
        // Another caller cannot use it.
        let status = suite
            .jobs("alice")
            .await
            .list_jobs(pb::ListJobsRequest {
                parent: "skills/cs-tier-1".into(),
                page_token: token.clone(),
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument);
    }
    // The old form of token is no way in either.
    assert_eq!(
        code(
            jobs.list_jobs(pb::ListJobsRequest {
                parent: "skills/cs-tier-1".into(),
                page_token: "o1".into(),
                ..Default::default()
            })
            .await
        ),
        Code::InvalidArgument
    );
}

/// One HTTP/1.1 exchange with the console; the status line and the headers.
pub(super) async fn console_call(
    console: std::net::SocketAddr,
    request: &str,
) -> (String, Vec<(String, String)>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(console).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    let mut lines = answer.lines();
    let status = lines.next().unwrap_or_default().to_owned();
    let headers = lines
        .take_while(|line| !line.is_empty())
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    (status, headers)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn the_console_cookie_is_a_session_that_sign_out_ends() {
    let suite = Suite::start_with(
        "ctl-console-session",
        &[
            "--rate-per-principal",
            "1000",
            "--console-listen",
            "127.0.0.1:0",
        ],
    );
    let console = suite.console_addr();
    let host = format!("127.0.0.1:{}", console.port());
    let key = suite.keys["alice"].clone();
    let body = format!("key={key}");
    let (status, headers) = console_call(
        console,
        &format!(
            "POST /login HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n\
             Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\
             Connection: close\r\n\r\n{body}",
            body.len()
        ),
    )
    .await;
    assert!(status.contains(" 303 "), "{status}");
    let set_cookie = headers
        .iter()
        .find(|(name, _)| name == "set-cookie")
        .map(|(_, value)| value.clone())
        .expect("a session cookie");
    assert!(
        !set_cookie.contains(&key),
        "the key never leaves: {set_cookie}"
    );
    assert!(
        set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Strict"),
        "{set_cookie}"
    );
    let cookie = set_cookie.split(';').next().unwrap().to_owned();
    let (_, id) = cookie.split_once('=').unwrap();
    assert_eq!(id.len(), 64, "256 random bits: {cookie}");
    let get = |cookie: String| {
        format!(
            "GET /skills HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n"
        )
    };
    let (status, _) = console_call(console, &get(cookie.clone())).await;
    assert!(status.contains(" 200 "), "{status}");
    // The key itself is no session.
    let (status, _) = console_call(console, &get(format!("adas_session={key}"))).await;
    assert!(status.contains(" 303 "), "{status}");
    // Over HTTPS (a TLS proxy in front) the cookie is `__Host-` and Secure.
    let (_, secure) = console_call(
        console,
        &format!(
            "POST /login HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n\
             X-Forwarded-Proto: https\r\nContent-Type: application/x-www-form-urlencoded\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    )
    .await;
    let secure = secure
        .iter()
        .find(|(name, _)| name == "set-cookie")
        .map(|(_, value)| value.clone())
        .unwrap();
    assert!(
        secure.starts_with("__Host-adas_session=") && secure.contains("; Secure"),
        "{secure}"
    );
    // Sign-out ends the session here: the copied id is worth nothing after.
    let (status, _) = console_call(
        console,
        &format!(
            "POST /logout HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\nCookie: {cookie}\r\n\
             Content-Length: 0\r\nConnection: close\r\n\r\n"
        ),
    )
    .await;
    assert!(status.contains(" 303 "), "{status}");
    let (status, headers) = console_call(console, &get(cookie)).await;
    assert!(status.contains(" 303 "), "{status}");
    assert!(
        headers
            .iter()
            .any(|(name, value)| name == "location" && value.starts_with("/login")),
        "{headers:?}"
    );
    // One principal signing in again and again ends only its own sessions:
    // alice's stays while bob signs in forty times.
    let sign_in = |who: &str| {
        let body = format!("key={}", suite.keys[who]);
        let request = format!(
            "POST /login HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n\
             Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\
             Connection: close\r\n\r\n{body}",
            body.len()
        );
        async move {
            let (_, headers) = console_call(console, &request).await;
            headers
                .into_iter()
                .find(|(name, _)| name == "set-cookie")
                .and_then(|(_, value)| value.split(';').next().map(str::to_owned))
                .expect("a session cookie")
        }
    };
    let alices = sign_in("alice").await;
    let mut bobs = Vec::new();
    for _ in 0..40 {
        bobs.push(sign_in("bob").await);
    }
    let (status, _) = console_call(console, &get(alices)).await;
    assert!(
        status.contains(" 200 "),
        "alice signed out by bob: {status}"
    );
    // Bob's oldest went to make room for his newest.
    let (status, _) = console_call(console, &get(bobs[0].clone())).await;
    assert!(status.contains(" 303 "), "{status}");
    let (status, _) = console_call(console, &get(bobs[39].clone())).await;
    assert!(status.contains(" 200 "), "{status}");
}

/// `adas-demo-mcp` on `listen` (a fixed address, so a hostile one can take
/// the honest one's place), logging its executions to `log`.
pub(super) fn demo_server(
    listen: &str,
    log: &std::path::Path,
    extra: &[&str],
) -> std::process::Child {
    use std::io::BufRead;
    let mut child = Command::new(workspace_binary("adas-demo-mcp"))
        .args([
            "--listen",
            listen,
            "--executions-log",
            log.to_str().unwrap(),
        ])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut lines = std::io::BufReader::new(stdout).lines();
    assert!(
        lines
            .next()
            .is_some_and(|line| line.unwrap().starts_with("listening on")),
        "the demo server did not start"
    );
    child
}

/// A value the skill takes from the user's words only (`extract_from:
/// message`) is never the caller's to set: a StartJob whose `context` sets
/// it is refused on that field, nothing stored or called; said by the user,
/// it is taken.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn the_callers_context_never_sets_what_the_user_must_say() {
    let suite = Suite::start("ctl-said-only");
    suite
        .edit_skill("cs-tier-1", |source| {
            source.replacen(
                "        - name: order_id\n          type: identifier\n",
                "        - name: order_id\n          type: identifier\n          extract_from: message\n",
                1,
            )
        })
        .await;
    let mut jobs = suite.jobs("alice").await;
    let status = jobs
        .start_job(pb::StartJobRequest {
            skill: "skills/cs-tier-1".into(),
            goal: "Where is my order?".into(),
            context: Some(arguments(serde_json::json!({"order_id": "ORD-12345"}))),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    let details = String::from_utf8_lossy(status.details());
    assert!(
        status.message().contains("user's words") && details.contains("context.order_id"),
        "{status:?}"
    );
    let listed = jobs
        .list_jobs(pb::ListJobsRequest {
            parent: "skills/cs-tier-1".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(listed.jobs.is_empty(), "nothing stored: {listed:?}");
    assert!(suite.executed("check_order_status").is_empty());
    // Said by the user, it is taken.
    let job = jobs
        .start_job(pb::StartJobRequest {
            skill: "skills/cs-tier-1".into(),
            goal: "Where is my order ORD-12345?".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let done = suite.settle("alice", &job.name).await;
    assert_eq!(done.status, pb::JobStatus::Completed as i32, "{done:?}");
    assert_eq!(suite.executed("check_order_status").len(), 1);
}
