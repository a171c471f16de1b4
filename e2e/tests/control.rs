//! Control without exceptions: each attack of the issue of that name, against
//! the real `adas up` (auth file, private Redis, the demo MCP server logging
//! what it executes), asserting the refusal *and* that nothing happened — the
//! tool server's own log, the victim job as its owner reads it, Redis, the
//! process' listeners.

#![allow(
    clippy::too_many_lines,
    reason = "a test reads as one story; the length cap is for the product's code"
)]

mod support;

use std::collections::HashMap;
use std::process::{Command, Stdio};
use std::time::Duration;

use adas_proto::pb;
use adas_testkit::{scratch_dir, workspace_binary};
use serde_json::Value as Json;
use support::{REFUND_900, Suite, code};
use tonic::Code;

fn number(value: f64) -> prost_types::Value {
    prost_types::Value {
        kind: Some(prost_types::value::Kind::NumberValue(value)),
    }
}

fn arguments(json: Json) -> prost_types::Struct {
    let Json::Object(map) = json else {
        panic!("an object")
    };
    prost_types::Struct {
        fields: map
            .into_iter()
            .map(|(name, value)| {
                let kind = match value {
                    Json::String(text) => prost_types::value::Kind::StringValue(text),
                    Json::Number(n) => prost_types::value::Kind::NumberValue(n.as_f64().unwrap()),
                    other => panic!("unexpected {other}"),
                };
                (name, prost_types::Value { kind: Some(kind) })
            })
            .collect(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_skill_calls_only_the_tools_it_declares() {
    let suite = Suite::start("ctl-undeclared");
    // The three programs of the report: another skill's tool through a skill
    // whose server offers it too.
    for (skill, program) in [
        (
            "devops-tier-1",
            r#"process_refund(order_id="ORD-1", amount=50000)"#,
        ),
        (
            "cs-tier-1",
            r#"restart_service(service="payments", environment="production")"#,
        ),
        (
            "identity-verification",
            r#"delete_customer_record(customer_id="C-1")"#,
        ),
    ] {
        let status = suite
            .jobs("alice")
            .await
            .start_job(pb::StartJobRequest {
                skill: format!("skills/{skill}"),
                program: program.into(),
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{skill}: {status:?}");
        assert!(
            status.message().contains("does not declare"),
            "{}",
            status.message()
        );
    }
    // Nested inside a declared call it is refused the same way.
    assert_eq!(
        code(
            suite
                .jobs("alice")
                .await
                .start_job(pb::StartJobRequest {
                    skill: "skills/devops-tier-1".into(),
                    program: r#"[process_refund(order_id="ORD-1", amount=5)]"#.into(),
                    ..Default::default()
                })
                .await
        ),
        Code::InvalidArgument
    );
    // The gate itself denies them, with its own rule kind.
    let decision = suite
        .gate("alice")
        .await
        .check_tool_call(pb::CheckToolCallRequest {
            skill: "skills/devops-tier-1".into(),
            tool: "process_refund".into(),
            arguments: Some(arguments(
                serde_json::json!({"order_id": "ORD-1", "amount": 50000}),
            )),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (decision.verdict, decision.rule_kind),
        (
            pb::GateVerdict::Deny as i32,
            pb::GateRuleKind::UndeclaredTool as i32
        )
    );
    // ResolveTools lists what the server offers apart: never as available.
    let resolved = suite
        .registry("alice")
        .await
        .resolve_tools(pb::ResolveToolsRequest {
            skill: "skills/devops-tier-1".into(),
        })
        .await
        .unwrap()
        .into_inner();
    let refund = resolved
        .tools
        .iter()
        .find(|tool| tool.name == "process_refund")
        .expect("the server's tool is listed");
    assert!(!refund.available);
    assert_eq!(refund.availability, pb::ToolAvailability::Undeclared as i32);
    let restart = resolved
        .tools
        .iter()
        .find(|tool| tool.name == "restart_service")
        .unwrap();
    assert!(restart.available, "its own tool stays available");
    let delete = suite
        .resolved_tool("alice", "cs-tier-1", "delete_customer_record")
        .await;
    assert_eq!(
        (delete.available, delete.availability),
        (false, pb::ToolAvailability::NeverAllowed as i32)
    );
    // Nothing ran: the tool server's own log has none of them.
    for tool in [
        "process_refund",
        "restart_service",
        "delete_customer_record",
    ] {
        assert!(suite.executed(tool).is_empty(), "{tool} ran");
    }
    suite.alive().await;
}

/// Every RPC that names a job, by a caller of another tenant.
async fn attacks(suite: &Suite, who: &str, victim: &pb::Job) -> Vec<(&'static str, Code)> {
    let name = victim.name.clone();
    let correlation = victim.waiting.as_ref().unwrap().correlation_id.clone();
    let mut results = Vec::new();
    let mut jobs = suite.jobs(who).await;
    results.push((
        "GetJob",
        code(jobs.get_job(pb::GetJobRequest { name: name.clone() }).await),
    ));
    let watched = jobs
        .watch_job(pb::WatchJobRequest {
            name: name.clone(),
            ..Default::default()
        })
        .await;
    let watch = match watched {
        Err(status) => status.code(),
        Ok(stream) => {
            use tokio_stream::StreamExt;
            match stream.into_inner().next().await {
                Some(Err(status)) => status.code(),
                other => panic!("{who} watched another tenant's job: {other:?}"),
            }
        }
    };
    results.push(("WatchJob", watch));
    results.push((
        "CancelJob",
        code(
            jobs.cancel_job(pb::CancelJobRequest {
                name: name.clone(),
                ..Default::default()
            })
            .await,
        ),
    ));
    let mut dal = suite.dal(who).await;
    results.push((
        "SubmitInput",
        code(
            dal.submit_input(pb::SubmitInputRequest {
                job: name.clone(),
                correlation_id: correlation.clone(),
                fields: HashMap::from([("amount".to_owned(), number(1.0))]),
                ..Default::default()
            })
            .await,
        ),
    ));
    results.push((
        "GetWaiting",
        code(
            dal.get_waiting(pb::GetWaitingRequest { name: name.clone() })
                .await,
        ),
    ));
    results.push((
        "ResolveNext",
        code(
            dal.resolve_next(pb::ResolveNextRequest {
                job: name.clone(),
                ..Default::default()
            })
            .await,
        ),
    ));
    let mut gate = suite.gate(who).await;
    results.push((
        "CheckToolCall",
        code(
            gate.check_tool_call(pb::CheckToolCallRequest {
                skill: "skills/cs-tier-1".into(),
                job: name.clone(),
                tool: "process_refund".into(),
                arguments: Some(arguments(
                    serde_json::json!({"order_id": "ORD-1", "amount": 50000}),
                )),
                ..Default::default()
            })
            .await,
        ),
    ));
    let mut intent =
        pb::intent_service_client::IntentServiceClient::new(suite.channel(Some(who)).await);
    results.push((
        "Plan",
        code(
            intent
                .plan(pb::PlanRequest {
                    skill: "skills/cs-tier-1".into(),
                    message: "refund ORD-1".into(),
                    job: name.clone(),
                    ..Default::default()
                })
                .await,
        ),
    ));
    results.push((
        "Finalize",
        code(
            gate.finalize(pb::FinalizeRequest {
                skill: "skills/cs-tier-1".into(),
                job: name.clone(),
                ..Default::default()
            })
            .await,
        ),
    ));
    results.push((
        "PolishReply",
        code(
            gate.polish_reply(pb::PolishReplyRequest {
                skill: "skills/cs-tier-1".into(),
                reply: "Done.".into(),
                job: name.clone(),
                ..Default::default()
            })
            .await,
        ),
    ));
    results.push((
        "DecideApproval",
        code(
            gate.decide_approval(pb::DecideApprovalRequest {
                job: name.clone(),
                correlation_id: correlation.clone(),
                decision: pb::ApprovalDecision::Approve as i32,
                ..Default::default()
            })
            .await,
        ),
    ));
    results
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_role_of_another_tenant_reads_or_writes_a_job() {
    let suite = Suite::start("ctl-tenants");
    let victim = suite.job("alice", REFUND_900).await;
    assert_eq!(
        victim.waiting.as_ref().unwrap().reason_code,
        "APPROVAL_REQUIRED"
    );
    let requests_before = suite.keys_with("approval-request").len();
    for who in [
        "eve",
        "g-admin",
        "g-operator",
        "g-user",
        "g-supervisor",
        "g-service",
    ] {
        for (rpc, code) in attacks(&suite, who, &victim).await {
            assert!(
                matches!(code, Code::NotFound | Code::PermissionDenied),
                "{who} {rpc}: {code:?}"
            );
        }
    }
    // A tenant's service key cannot step into another tenant by naming it.
    let mut request = tonic::Request::new(pb::ResolveNextRequest {
        job: victim.name.clone(),
        ..Default::default()
    });
    request
        .metadata_mut()
        .insert("x-adas-tenant", "acme".parse().unwrap());
    let status = suite
        .dal("g-service")
        .await
        .resolve_next(request)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied, "{status:?}");
    // The internal RPCs are the suite's: an admin of the job's own tenant is
    // not the suite either.
    for who in ["root", "alice"] {
        assert_eq!(
            code(
                suite
                    .dal(who)
                    .await
                    .resolve_next(pb::ResolveNextRequest {
                        job: victim.name.clone(),
                        ..Default::default()
                    })
                    .await
            ),
            Code::PermissionDenied,
            "{who}"
        );
    }
    // Nothing was written: the job is as its owner left it, no approval
    // request was recorded, nothing ran.
    let after = suite
        .jobs("alice")
        .await
        .get_job(pb::GetJobRequest {
            name: victim.name.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(after, victim);
    assert_eq!(suite.keys_with("approval-request").len(), requests_before);
    assert!(suite.executed("process_refund").is_empty());
    // Job ids say nothing of each other: 128 random bits after the time.
    let id = &victim.job_id;
    assert!(id.len() >= 1 + 12 + 32, "{id}");
    let other = suite.job("alice", REFUND_900).await;
    assert_ne!(id[13..], other.job_id[13..]);
    suite.alive().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_approval_pays_for_one_execution() {
    let suite = Suite::start("ctl-one-approval");
    let program = format!("{REFUND_900}, {REFUND_900}");
    let held = suite.job("alice", &program).await;
    let first = held.waiting.clone().unwrap();
    assert_eq!(first.reason_code, "APPROVAL_REQUIRED");
    let decide = |correlation_id: String| pb::DecideApprovalRequest {
        job: held.name.clone(),
        correlation_id,
        decision: pb::ApprovalDecision::Approve as i32,
        ..Default::default()
    };
    suite
        .gate("sam")
        .await
        .decide_approval(decide(first.correlation_id.clone()))
        .await
        .unwrap();
    // The first refund ran; the second, the same exact call, waits for its own.
    let again = suite.settle("alice", &held.name).await;
    let second = again
        .waiting
        .clone()
        .expect("held again for the second call");
    assert_eq!(second.reason_code, "APPROVAL_REQUIRED");
    assert_ne!(second.correlation_id, first.correlation_id);
    assert_eq!(suite.executed("process_refund").len(), 1);
    // The first approval, decided again, does not pay for it.
    suite
        .gate("sam")
        .await
        .decide_approval(decide(first.correlation_id.clone()))
        .await
        .unwrap();
    let still = suite.settle("alice", &held.name).await;
    assert_eq!(
        still.waiting.map(|waiting| waiting.correlation_id),
        Some(second.correlation_id.clone())
    );
    assert_eq!(suite.executed("process_refund").len(), 1);
    suite
        .gate("sam")
        .await
        .decide_approval(decide(second.correlation_id))
        .await
        .unwrap();
    let done = suite.settle("alice", &held.name).await;
    assert_eq!(done.status, pb::JobStatus::Completed as i32, "{done:?}");
    assert_eq!(suite.executed("process_refund").len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whoever_supplies_the_risky_value_may_not_approve_it() {
    let suite = Suite::start("ctl-supplier");
    let asked = suite
        .job(
            "alice",
            r#"process_refund(order_id="ORD-1", amount=ASK("How much?"))"#,
        )
        .await;
    let ask = asked.waiting.clone().unwrap();
    // Olga (operator and supervisor) answers another user's ask with 50000…
    suite
        .dal("olga")
        .await
        .submit_input(pb::SubmitInputRequest {
            job: asked.name.clone(),
            correlation_id: ask.correlation_id,
            fields: HashMap::from([("amount".to_owned(), number(50000.0))]),
            ..Default::default()
        })
        .await
        .unwrap();
    let held = suite.settle("alice", &asked.name).await;
    let approval = held.waiting.clone().unwrap();
    assert_eq!(approval.reason_code, "APPROVAL_REQUIRED");
    // …and may not approve her own number.
    let status = suite
        .gate("olga")
        .await
        .decide_approval(pb::DecideApprovalRequest {
            job: held.name.clone(),
            correlation_id: approval.correlation_id.clone(),
            decision: pb::ApprovalDecision::Approve as i32,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied, "{status:?}");
    assert!(suite.executed("process_refund").is_empty());
    let unchanged = suite.settle("alice", &held.name).await;
    assert_eq!(unchanged, held, "the refused decision wrote nothing");
    // Another supervisor may.
    suite
        .gate("sam")
        .await
        .decide_approval(pb::DecideApprovalRequest {
            job: held.name.clone(),
            correlation_id: approval.correlation_id,
            decision: pb::ApprovalDecision::Approve as i32,
            ..Default::default()
        })
        .await
        .unwrap();
    let done = suite.settle("alice", &held.name).await;
    assert_eq!(done.status, pb::JobStatus::Completed as i32, "{done:?}");
    assert_eq!(suite.executed("process_refund").len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn numeric_rules_fail_closed_on_values_that_are_not_numbers() {
    let suite = Suite::start("ctl-not-numbers");
    for (amount, value) in [
        (r#""$900""#, serde_json::json!("$900")),
        ("[900]", serde_json::json!([900])),
        (r#""９００""#, serde_json::json!("９００")),
        ("true", serde_json::json!(true)),
        (r#""NaN""#, serde_json::json!("NaN")),
    ] {
        // The gate's own word: the > 500 rule applies to what is not a number.
        let mut args = prost_types::Struct::default();
        args.fields.insert(
            "order_id".into(),
            prost_types::Value {
                kind: Some(prost_types::value::Kind::StringValue("ORD-1".into())),
            },
        );
        args.fields.insert(
            "amount".into(),
            adas_runtime::convert::json_to_value(&value),
        );
        let decision = suite
            .gate("alice")
            .await
            .check_tool_call(pb::CheckToolCallRequest {
                skill: "skills/cs-tier-1".into(),
                tool: "process_refund".into(),
                arguments: Some(args),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(
            decision.verdict,
            pb::GateVerdict::RequireApproval as i32,
            "amount {amount}"
        );
        // A job with it asks (the amount is not a number) or waits for a
        // supervisor; it never pays.
        let job = suite
            .job(
                "alice",
                &format!(r#"process_refund(order_id="ORD-1", amount={amount})"#),
            )
            .await;
        let reason = job.waiting.map(|waiting| waiting.reason_code);
        assert!(
            matches!(
                reason.as_deref(),
                Some("APPROVAL_REQUIRED" | "MISSING_REQUIRED_INPUT")
            ),
            "amount {amount}: {reason:?}"
        );
    }
    assert!(suite.executed("process_refund").is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_rule_names_a_real_approver_or_its_tool_is_held() {
    let suite = Suite::start("ctl-approvers");
    let mut registry = suite.registry("root").await;
    let current = registry
        .get_skill(pb::GetSkillRequest {
            name: "skills/cs-tier-1".into(),
        })
        .await
        .unwrap()
        .into_inner();
    // A platform role as approver would let every holder approve: refused.
    for line in ["      approver: operator\n", "      approver: admin\n"] {
        let source = current.source.replace("      approver: supervisor\n", line);
        let status = registry
            .put_skill(pb::PutSkillRequest {
                name: "skills/cs-tier-1".into(),
                source,
                etag: current.etag.clone(),
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{line}");
        assert!(
            status.message().contains("approver") && status.message().contains(":"),
            "{}",
            status.message()
        );
    }
    let after = registry
        .get_skill(pb::GetSkillRequest {
            name: "skills/cs-tier-1".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        after.etag, current.etag,
        "the skill in service is unchanged"
    );
    // No approver named (as a Builder export may): stored, the tool held —
    // a warning at the rule's line:col, never a call of it, whatever the
    // amount (nobody is assumed to approve).
    let stored = registry
        .put_skill(pb::PutSkillRequest {
            name: "skills/cs-tier-1".into(),
            source: current.source.replace("      approver: supervisor\n", ""),
            etag: current.etag.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(
        stored
            .diagnostics
            .iter()
            .any(|d| d.code == "approver_required" && d.line > 0 && d.message.contains("held")),
        "{:?}",
        stored.diagnostics
    );
    let refund = suite
        .resolved_tool("root", "cs-tier-1", "process_refund")
        .await;
    assert_eq!(refund.availability, pb::ToolAvailability::Held as i32);
    assert!(!refund.available);
    for amount in [40, 900] {
        let job = suite
            .job(
                "alice",
                &format!(r#"process_refund(order_id="ORD-1", amount={amount})"#),
            )
            .await;
        assert_ne!(
            job.status,
            pb::JobStatus::Completed as i32,
            "{amount}: {job:?}"
        );
    }
    assert!(suite.executed("process_refund").is_empty());
}

/// Runs `adas up` in dev mode with `args` and returns its exit code and stderr;
/// fails the test if it is still running after a while (it must not linger).
fn refused_start(label: &str, args: &[&str]) -> (Option<i32>, String) {
    let root = scratch_dir(label);
    let templates = adas_testkit::templates_arg();
    let memory = root.join("memory");
    let mut all = vec![
        "up",
        "--memory-root",
        memory.to_str().unwrap(),
        "--templates-dir",
        &templates,
    ];
    // Every listener on loopback but the one under test.
    for (flag, loopback) in [
        ("--demo-mcp-listen", "127.0.0.1:0"),
        ("--console-listen", "127.0.0.1:0"),
        ("--listen", "127.0.0.1:0"),
    ] {
        if !args.contains(&flag) {
            all.extend([flag, loopback]);
        }
    }
    all.extend_from_slice(args);
    let mut child = Command::new(workspace_binary("adas"))
        .args(&all)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    for _ in 0..3000 {
        if child.try_wait().unwrap().is_some() {
            let output = child.wait_with_output().unwrap();
            return (
                output.status.code(),
                String::from_utf8_lossy(&output.stderr).into_owned(),
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    panic!("`adas up {args:?}` kept running after a refused start");
}

#[test]
fn dev_mode_keeps_every_listener_on_this_machine() {
    for (flag, label) in [
        ("--listen", "ctl-dev-grpc"),
        ("--console-listen", "ctl-dev-console"),
        ("--metrics-listen", "ctl-dev-metrics"),
        ("--demo-mcp-listen", "ctl-dev-demo"),
    ] {
        let (code, stderr) = refused_start(label, &[flag, "0.0.0.0:0"]);
        assert_ne!(code, Some(0), "{flag}: {stderr}");
        assert!(
            stderr.contains(flag) && stderr.contains("loopback only"),
            "{flag}: {stderr}"
        );
        // The process is gone, so nothing of it listens; and it never bound:
        // the refusal names the flag before any listener is made.
        assert!(!stderr.contains("listening on"), "{stderr}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_console_answers_only_the_host_names_it_serves() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let suite = Suite::start_with(
        "ctl-console-host",
        &[
            "--rate-per-principal",
            "1000",
            "--console-listen",
            "127.0.0.1:0",
        ],
    );
    let console = suite.console_addr();
    let status_of = |host: String| async move {
        let mut stream = tokio::net::TcpStream::connect(console).await.unwrap();
        stream
            .write_all(
                format!("GET /login HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
                    .as_bytes(),
            )
            .await
            .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.unwrap();
        answer.lines().next().unwrap_or_default().to_owned()
    };
    let port = console.port();
    // A rebinding name that resolves to 127.0.0.1 is still not this console.
    for host in [
        format!("rebind.attacker.example:{port}"),
        "127.0.0.1".to_owned(),
        format!("localhost.attacker.example:{port}"),
    ] {
        let status = status_of(host.clone()).await;
        assert!(status.contains(" 421 "), "{host}: {status}");
    }
    for host in [format!("127.0.0.1:{port}"), format!("localhost:{port}")] {
        let status = status_of(host.clone()).await;
        assert!(status.contains(" 200 "), "{host}: {status}");
    }
}

impl Suite {
    fn console_addr(&self) -> std::net::SocketAddr {
        for _ in 0..500 {
            if let Some(addr) = self.service.console_addr() {
                return addr;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the console did not announce itself")
    }
}

#[path = "control/more.rs"]
mod more;

#[path = "control/rest.rs"]
mod rest;

#[path = "control/hostile.rs"]
mod hostile;
