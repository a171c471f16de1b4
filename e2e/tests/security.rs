//! The trust boundary, tried as an attacker on the loopback network would: one
//! test per threat, each against the real `adas` binary (`adas up` with an auth
//! file made by `adas auth key create`), over real gRPC. Every attack must end in a
//! clear refusal with the process alive and the data intact.

#![allow(
    clippy::too_many_lines,
    reason = "a test reads as one story; the length cap is for the product's code"
)]

mod support;

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use adas_proto::pb;
use adas_runtime::auth::{AuthChannel, Credentials};
use adas_testkit::{SpawnedService, scratch_dir, workspace_binary};
use pb::dal_agent_service_client::DalAgentServiceClient;
use pb::gate_service_client::GateServiceClient;
use pb::intent_service_client::IntentServiceClient;
use pb::orchestrator_service_client::OrchestratorServiceClient;
use pb::skill_registry_service_client::SkillRegistryServiceClient;
use support::{REFUND_900, Suite, code, create_key};
use tonic::Code;
use tonic::transport::Channel;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unauthenticated_calls_are_refused_on_all_five_services() {
    let suite = Suite::start("sec-unauthenticated");
    for who in [None, Some("forged")] {
        let channel = match who {
            None => suite.channel(None).await,
            Some(_) => {
                let raw = Channel::from_shared(suite.service.endpoint())
                    .unwrap()
                    .connect()
                    .await
                    .unwrap();
                AuthChannel::new(raw, Credentials::new(Some("adas_forged")).unwrap())
            }
        };
        let skill = || "skills/cs-tier-1".to_owned();
        assert_eq!(
            code(
                SkillRegistryServiceClient::new(channel.clone())
                    .list_skills(pb::ListSkillsRequest::default())
                    .await
            ),
            Code::Unauthenticated
        );
        assert_eq!(
            code(
                IntentServiceClient::new(channel.clone())
                    .detect_intent(pb::DetectIntentRequest {
                        skill: skill(),
                        message: "refund".into(),
                        ..Default::default()
                    })
                    .await
            ),
            Code::Unauthenticated
        );
        assert_eq!(
            code(
                OrchestratorServiceClient::new(channel.clone())
                    .start_job(pb::StartJobRequest {
                        skill: skill(),
                        goal: "refund".into(),
                        ..Default::default()
                    })
                    .await
            ),
            Code::Unauthenticated
        );
        assert_eq!(
            code(
                GateServiceClient::new(channel.clone())
                    .finalize(pb::FinalizeRequest {
                        skill: skill(),
                        ..Default::default()
                    })
                    .await
            ),
            Code::Unauthenticated
        );
        assert_eq!(
            code(
                DalAgentServiceClient::new(channel.clone())
                    .list_waiting(pb::ListWaitingRequest {
                        parent: skill(),
                        ..Default::default()
                    })
                    .await
            ),
            Code::Unauthenticated
        );
        // Who am I is no exception.
        assert_eq!(
            code(
                OrchestratorServiceClient::new(channel.clone())
                    .get_caller(pb::GetCallerRequest {})
                    .await
            ),
            Code::Unauthenticated
        );
    }
    // Nothing of it was stored.
    assert_eq!(suite.stored_jobs(), 0);
    // A key is its principal, with its tenant and roles, whatever it asks.
    let caller = suite
        .jobs("mallory")
        .await
        .get_caller(pb::GetCallerRequest {})
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (
            caller.name.as_str(),
            caller.tenant.as_str(),
            caller.dev_mode
        ),
        ("mallory", "acme", false)
    );
    assert_eq!(caller.roles, ["user", "supervisor"]);
    // Health stays open for probes; a key opens the services.
    suite.alive().await;
    suite
        .registry("alice")
        .await
        .list_skills(pb::ListSkillsRequest::default())
        .await
        .unwrap();
}

#[tokio::test]
async fn dev_mode_refuses_to_listen_beyond_loopback() {
    let root = scratch_dir("sec-dev-mode");
    let output = Command::new(workspace_binary("adas-gate"))
        .args([
            "--memory-root",
            root.to_str().unwrap(),
            "--templates-dir",
            &adas_testkit::templates_arg(),
            "--listen",
            "0.0.0.0:0",
        ])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("loopback only"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approvals_come_only_from_an_authenticated_approver_who_is_not_the_owner() {
    let suite = Suite::start("sec-approvals");
    let held = suite.job("alice", REFUND_900).await;
    let waiting = held.waiting.clone().expect("held for approval");
    assert_eq!(waiting.reason_code, "APPROVAL_REQUIRED");
    let decide = |correlation_id: String, name: String| pb::DecideApprovalRequest {
        job: name,
        correlation_id,
        decision: pb::ApprovalDecision::Approve as i32,
        ..Default::default()
    };
    // Anyone can no longer approve: the caller itself (no role), a stranger,
    // and another tenant's admin.
    for who in ["alice", "bob"] {
        assert_eq!(
            code(
                suite
                    .gate(who)
                    .await
                    .decide_approval(decide(waiting.correlation_id.clone(), held.name.clone()))
                    .await
            ),
            Code::PermissionDenied,
            "{who}"
        );
    }
    assert_eq!(
        code(
            suite
                .gate("eve")
                .await
                .decide_approval(decide(waiting.correlation_id.clone(), held.name.clone()))
                .await
        ),
        Code::NotFound
    );

    // Self-approval: the right role, but its own job.
    let own = suite.job("mallory", REFUND_900).await;
    let status = suite
        .gate("mallory")
        .await
        .decide_approval(decide(
            own.waiting.unwrap().correlation_id,
            own.name.clone(),
        ))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    assert!(
        status.message().contains("own call"),
        "{}",
        status.message()
    );

    // The approver decides; the record names the authenticated principal.
    let record = suite
        .gate("sam")
        .await
        .decide_approval(decide(waiting.correlation_id.clone(), held.name.clone()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(record.decided_by, "sam");
    let done = suite.settle("alice", &held.name).await;
    assert_eq!(done.status, pb::JobStatus::Completed as i32, "{done:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_strangers_reads_and_answers_are_refused_and_tenants_are_invisible() {
    let suite = Suite::start("sec-jobs");
    let paused = suite
        .job(
            "alice",
            r#"check_order_status(order_id=ASK("Which order?"))"#,
        )
        .await;
    let waiting = paused.waiting.clone().expect("asks for the order");
    let get = |name: &str| pb::GetJobRequest { name: name.into() };

    assert_eq!(
        code(suite.jobs("bob").await.get_job(get(&paused.name)).await),
        Code::PermissionDenied
    );
    assert_eq!(
        code(suite.jobs("eve").await.get_job(get(&paused.name)).await),
        Code::NotFound
    );
    let mut fields = HashMap::new();
    fields.insert(
        "order_id".to_owned(),
        prost_types::Value {
            kind: Some(prost_types::value::Kind::StringValue("ORD-1".into())),
        },
    );
    let answer = pb::SubmitInputRequest {
        job: paused.name.clone(),
        correlation_id: waiting.correlation_id.clone(),
        fields: fields.clone(),
        ..Default::default()
    };
    assert_eq!(
        code(suite.dal("bob").await.submit_input(answer.clone()).await),
        Code::PermissionDenied
    );
    assert_eq!(
        code(suite.dal("eve").await.submit_input(answer.clone()).await),
        Code::NotFound
    );
    // Lists show a stranger nothing of alice's.
    for who in ["bob", "eve"] {
        let listed = suite
            .jobs(who)
            .await
            .list_jobs(pb::ListJobsRequest {
                parent: "skills/cs-tier-1".into(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert!(listed.jobs.is_empty(), "{who}: {listed:?}");
        let waiting = suite
            .dal(who)
            .await
            .list_waiting(pb::ListWaitingRequest {
                parent: "skills/cs-tier-1".into(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert!(waiting.jobs.is_empty(), "{who}: {waiting:?}");
    }
    // The refusals changed nothing: the job is as alice left it, and the
    // lookup its answer would allow has not run.
    let unchanged = suite
        .jobs("alice")
        .await
        .get_job(get(&paused.name))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(unchanged, paused);
    assert!(suite.executed("check_order_status").is_empty());
    // The internal step of the worker is not for callers.
    assert_eq!(
        code(
            suite
                .dal("alice")
                .await
                .resolve_next(pb::ResolveNextRequest {
                    job: paused.name.clone(),
                    ..Default::default()
                })
                .await
        ),
        Code::PermissionDenied
    );
    // The owner answers; the audit trail names it.
    let resumed = suite
        .dal("alice")
        .await
        .submit_input(answer)
        .await
        .unwrap()
        .into_inner();
    assert_eq!(resumed.status, pb::JobStatus::Queued as i32);
    let done = suite.settle("alice", &paused.name).await;
    assert_eq!(done.status, pb::JobStatus::Completed as i32, "{done:?}");
}

fn text_value(text: &str) -> prost_types::Value {
    prost_types::Value {
        kind: Some(prost_types::value::Kind::StringValue(text.into())),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conversations_and_takeovers_belong_to_their_principals() {
    let suite = Suite::start("sec-conversations");
    let done = suite
        .job("alice", r#"check_order_status(order_id="ORD-1")"#)
        .await;
    assert_eq!(done.status, pb::JobStatus::Completed as i32, "{done:?}");
    let conversation = done.conversation.clone();
    assert!(conversation.starts_with("skills/cs-tier-1/conversations/"));
    let turn = |conversation: &str, goal: &str| pb::StartJobRequest {
        skill: "skills/cs-tier-1".into(),
        goal: goal.into(),
        conversation: conversation.into(),
        ..Default::default()
    };
    // Another principal's conversation, or another tenant's, does not exist for them:
    // its facts never seed their jobs.
    for who in ["bob", "eve"] {
        let started = suite
            .jobs(who)
            .await
            .start_job(turn(&conversation, "where is it?"))
            .await;
        assert_eq!(code(started), Code::NotFound, "{who}");
    }
    // A name that is not a conversation of this skill is refused before any lookup.
    for bad in [
        "skills/devops-tier-1/conversations/x",
        "skills/cs-tier-1/conversations/a/b",
        "skills/cs-tier-1/conversations/{x}",
        "conversations/x",
    ] {
        let started = suite
            .jobs("alice")
            .await
            .start_job(turn(bad, "where is it?"))
            .await;
        assert_eq!(code(started), Code::InvalidArgument, "{bad}");
    }
    // The owner continues it; a turn cannot start while the previous one waits.
    let mut jobs = suite.jobs("alice").await;
    let waiting = jobs
        .start_job(pb::StartJobRequest {
            skill: "skills/cs-tier-1".into(),
            program: r#"process_refund(order_id="ORD-1", amount=ASK("How much?"))"#.into(),
            conversation: conversation.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(waiting.conversation, conversation);
    let waiting = suite.settle("alice", &waiting.name).await;
    assert_eq!(waiting.status, pb::JobStatus::Paused as i32, "{waiting:?}");
    assert_eq!(
        code(jobs.start_job(turn(&conversation, "and ORD-2?")).await),
        Code::FailedPrecondition
    );
    // Three answers that are no amount hand the job to a human...
    let mut current = waiting;
    for _ in 0..3 {
        let ask = current.waiting.clone().expect("an ask");
        let refused = suite
            .dal("alice")
            .await
            .submit_input(pb::SubmitInputRequest {
                job: current.name.clone(),
                correlation_id: ask.correlation_id,
                fields: [("amount".to_owned(), text_value("lots"))].into(),
                ..Default::default()
            })
            .await;
        assert_eq!(code(refused), Code::InvalidArgument);
        current = suite.settle("alice", &current.name).await;
    }
    let takeover = current.waiting.clone().expect("escalated jobs wait");
    assert_eq!(takeover.reason_code, "HUMAN_TAKEOVER_REQUIRED");
    assert_eq!(current.outcome_class, pb::OutcomeClass::Escalated as i32);
    let reply = |correlation_id: String| pb::SubmitInputRequest {
        job: current.name.clone(),
        correlation_id,
        fields: [("reply".to_owned(), text_value("Refunded by hand."))].into(),
        ..Default::default()
    };
    // ...which the user cannot answer away; an admin of the tenant replies.
    assert_eq!(
        code(
            suite
                .dal("alice")
                .await
                .submit_input(reply(takeover.correlation_id.clone()))
                .await
        ),
        Code::PermissionDenied
    );
    let replied = suite
        .dal("root")
        .await
        .submit_input(reply(takeover.correlation_id))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(replied.status, pb::JobStatus::Completed as i32);
    assert_eq!(replied.result.unwrap().reply, "Refunded by hand.");
    // No refund was ever made.
    assert!(replied.tool_calls.is_empty(), "{:?}", replied.tool_calls);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skills_change_only_by_an_admin_holding_the_current_etag() {
    let suite = Suite::start("sec-skills");
    let current = suite
        .registry("root")
        .await
        .get_skill(pb::GetSkillRequest {
            name: "skills/cs-tier-1".into(),
        })
        .await
        .unwrap()
        .into_inner();
    // The attack: the same skill with a supervisor only above a million.
    let weakened = current
        .source
        .replace("when: \"amount > 500\"", "when: \"amount > 1000000\"");
    assert_ne!(weakened, current.source);
    let put = |etag: &str| pb::PutSkillRequest {
        name: "skills/cs-tier-1".into(),
        source: weakened.clone(),
        etag: etag.into(),
        ..Default::default()
    };
    assert_eq!(
        code(suite.registry("alice").await.put_skill(put("")).await),
        Code::PermissionDenied
    );
    assert_eq!(
        code(
            suite
                .registry("alice")
                .await
                .put_skill(put(&current.etag))
                .await
        ),
        Code::PermissionDenied
    );
    let blind = suite
        .registry("root")
        .await
        .put_skill(put(""))
        .await
        .unwrap_err();
    assert_eq!(blind.code(), Code::FailedPrecondition);
    assert!(blind.message().contains("etag"), "{}", blind.message());
    // The rules in force are unchanged: a $50,000 refund is still held.
    let held = suite
        .job("alice", r#"process_refund(order_id="ORD-1", amount=50000)"#)
        .await;
    assert_eq!(
        held.waiting.map(|waiting| waiting.reason_code).as_deref(),
        Some("APPROVAL_REQUIRED")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_commands_and_internal_addresses_are_refused_without_contact() {
    let suite = Suite::start("sec-egress");
    let marker = suite.root.join("pwned");
    // A listener standing in for an internal service: it must see nothing.
    let internal = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    internal.set_nonblocking(true).unwrap();
    let internal_addr = internal.local_addr().unwrap();
    let skill = |server: &str| {
        format!(
            "name: x\nproblem: {{statement: s}}\nintents: {{supported: [{{id: a}}]}}\nmcp_server: \"{server}\"\ntools: []\n"
        )
    };
    let attacks = [
        format!("stdio:touch {}", marker.display()),
        "stdio:sh -c id".to_owned(),
        format!("http://{internal_addr}/mcp"),
        "http://169.254.169.254/latest/meta-data/".to_owned(),
        "http://[fd00:ec2::254]/latest".to_owned(),
        "http://10.0.0.7:8080/mcp".to_owned(),
    ];
    let mut registry = suite.registry("root").await;
    for server in &attacks {
        let validated = registry
            .validate_skill(pb::ValidateSkillRequest {
                source: skill(server),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert!(!validated.valid, "{server}");
        let denied = &validated.diagnostics[0];
        assert_eq!(
            (denied.code.as_str(), denied.path.as_str(), denied.line),
            ("egress_denied", "mcp_server", 4)
        );
        let status = registry
            .put_skill(pb::PutSkillRequest {
                name: "skills/attack".into(),
                source: skill(server),
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{server}");
    }
    // A name that resolves to loopback passes the text check and is refused
    // after resolution, before any connection.
    registry
        .put_skill(pb::PutSkillRequest {
            name: "skills/rebind".into(),
            source: skill(&format!("http://localhost:{}/mcp", internal_addr.port())),
            ..Default::default()
        })
        .await
        .unwrap();
    let status = registry
        .resolve_tools(pb::ResolveToolsRequest {
            skill: "skills/rebind".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unavailable);
    assert!(
        status.message().contains("not allowed"),
        "{}",
        status.message()
    );

    assert!(!marker.exists(), "no command ran");
    assert_eq!(
        internal.accept().map_err(|error| error.kind()).unwrap_err(),
        std::io::ErrorKind::WouldBlock,
        "no connection reached the internal listener"
    );
    suite.alive().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn literal_secrets_are_refused_and_references_never_echoed() {
    let suite = Suite::start_with(
        "sec-secrets",
        &[
            "--rate-per-principal",
            "1000",
            "--secret-allow",
            "acme=secret:payments-*",
        ],
    );
    let source = "name: vault\nproblem: {statement: s}\nintents: {supported: [{id: a, examples: [hello]}]}\ntools: []\nresources:\n  - {name: token, type: credential, required: true}\n";
    suite
        .registry("root")
        .await
        .put_skill(pb::PutSkillRequest {
            name: "skills/vault".into(),
            source: source.into(),
            ..Default::default()
        })
        .await
        .unwrap();
    let start = |value: &str| pb::StartJobRequest {
        skill: "skills/vault".into(),
        goal: "hello".into(),
        resources: [("token".to_owned(), value.to_owned())].into(),
        ..Default::default()
    };
    let refused = suite
        .jobs("alice")
        .await
        .start_job(start("password:hunter2"))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    let text = format!("{refused:?}");
    assert!(text.contains("resources.token"), "{text}");
    assert!(
        !text.contains("hunter2"),
        "the value is never echoed: {text}"
    );

    // Well formed but not the operator's to give: the server's environment,
    // another tenant's secret.
    for (who, reference) in [
        ("alice", "env:OPENAI_API_KEY"),
        ("alice", "secret:other-token"),
        ("eve", "secret:payments-token"),
    ] {
        if who == "eve" {
            suite
                .registry("eve")
                .await
                .put_skill(pb::PutSkillRequest {
                    name: "skills/vault".into(),
                    source: source.into(),
                    ..Default::default()
                })
                .await
                .unwrap();
        }
        let refused = suite
            .jobs(who)
            .await
            .start_job(start(reference))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{who} {reference}");
        let text = format!("{refused:?}");
        assert!(
            text.contains("resources.token") && text.contains("--secret-allow"),
            "{text}"
        );
        assert!(
            !text.contains(reference),
            "the reference is not echoed: {text}"
        );
    }
    assert_eq!(suite.stored_jobs(), 0);
    let job = suite
        .jobs("alice")
        .await
        .start_job(start("secret:payments-token"))
        .await
        .unwrap()
        .into_inner();
    let settled = suite.settle("alice", &job.name).await;
    // The job keeps the reference as given, never a value.
    assert_eq!(settled.resources["token"], "secret:payments-token");
    // The refused start stored nothing: one job, and the literal is nowhere
    // in the store.
    let listed = suite
        .jobs("alice")
        .await
        .list_jobs(pb::ListJobsRequest {
            parent: "skills/vault".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.jobs.len(), 1, "{listed:?}");
    let client = redis::Client::open(suite.store.redis_url()).unwrap();
    let mut connection = client.get_connection().unwrap();
    for key in suite.keys_with("") {
        let dumped: Option<Vec<u8>> = redis::cmd("DUMP").arg(&key).query(&mut connection).unwrap();
        let dumped = String::from_utf8_lossy(&dumped.unwrap_or_default()).into_owned();
        assert!(
            !dumped.contains("hunter2"),
            "{key} holds the refused literal"
        );
    }
}

#[path = "security/more.rs"]
mod more;

#[path = "security/listing.rs"]
mod listing;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_supervisor_who_supplied_a_value_of_the_call_cannot_approve_it() {
    let suite = Suite::start("sec-four-eyes");
    let asked = suite
        .job(
            "alice",
            r#"process_refund(order_id="ORD-1", amount=ASK("How much?"))"#,
        )
        .await;
    let question = asked.waiting.clone().expect("asks the amount");
    // Olga, an operator who is also a supervisor, answers for alice.
    suite
        .dal("olga")
        .await
        .submit_input(pb::SubmitInputRequest {
            job: asked.name.clone(),
            correlation_id: question.correlation_id.clone(),
            fields: HashMap::from([(
                question.fields[0].name.clone(),
                prost_types::Value {
                    kind: Some(prost_types::value::Kind::NumberValue(900.0)),
                },
            )]),
            ..Default::default()
        })
        .await
        .unwrap();
    let held = suite.settle("alice", &asked.name).await;
    let waiting = held.waiting.clone().expect("held for approval");
    assert_eq!(waiting.reason_code, "APPROVAL_REQUIRED", "{held:?}");
    let decide = || pb::DecideApprovalRequest {
        job: held.name.clone(),
        correlation_id: waiting.correlation_id.clone(),
        decision: pb::ApprovalDecision::Approve as i32,
        ..Default::default()
    };
    // She chose the amount: approving it would be her call twice.
    let refused = suite
        .gate("olga")
        .await
        .decide_approval(decide())
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    // Nothing ran: the job still waits, with no refund among its calls.
    let still = suite.settle("alice", &held.name).await;
    assert_eq!(still.status, pb::JobStatus::Paused as i32, "{still:?}");
    assert!(
        still
            .tool_calls
            .iter()
            .all(|call| call.tool != "process_refund"),
        "{still:?}"
    );
    // Another supervisor decides, and the call runs once.
    suite
        .gate("sam")
        .await
        .decide_approval(decide())
        .await
        .unwrap();
    let done = suite.settle("alice", &held.name).await;
    assert_eq!(done.status, pb::JobStatus::Completed as i32, "{done:?}");
    assert_eq!(
        done.tool_calls
            .iter()
            .filter(|call| call.tool == "process_refund")
            .count(),
        1
    );
}
