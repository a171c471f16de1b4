//! Security, continued.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn hostile_documents_are_refused_and_the_process_lives() {
    let suite = Suite::start("sec-documents");
    let mut registry = suite.registry("root").await;
    // 784 KB of nested persona blocks (it overflowed the stack).
    let depth = 784 * 1024 / "{{#if resources.x}}".len();
    let persona = "{{#if resources.x}}".repeat(depth) + &"{{/if}}".repeat(depth);
    let nested = format!(
        "name: x\nproblem: {{statement: s}}\nintents: {{supported: [{{id: a}}]}}\ntools: []\nresources:\n  - {{name: x, type: api_endpoint}}\npersona: \"{persona}\"\n"
    );
    let deep_yaml = format!(
        "name: x\nproblem: {}1{}\n",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    let huge_yaml = format!(
        "name: x\ndescription: \"{}\"\n",
        "a".repeat(3 * 1024 * 1024)
    );
    for document in [nested, deep_yaml, huge_yaml] {
        let validated = registry
            .validate_skill(pb::ValidateSkillRequest {
                source: document.clone(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert!(!validated.valid);
        let status = registry
            .put_skill(pb::PutSkillRequest {
                name: "skills/hostile".into(),
                source: document,
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument);
    }
    // A deeply nested plan: positioned errors, no crash.
    let deep_plan = format!("f(a={}1{})", "[".repeat(100_000), "]".repeat(100_000));
    let parsed = IntentServiceClient::new(suite.channel(Some("alice")).await)
        .parse_plan(pb::ParsePlanRequest { program: deep_plan })
        .await
        .unwrap()
        .into_inner();
    assert!(!parsed.errors.is_empty());

    // Two plans of ~750 KB (the duplicate-argument check was quadratic) in
    // parallel, parsed off the async workers, while other calls go on.
    let plan = |arguments: usize| {
        format!(
            "f({})",
            (0..arguments)
                .map(|index| format!("a{index}=1"))
                .collect::<Vec<_>>()
                .join(",")
        )
    };
    // The valid one smaller: its tree comes back whole, within the message bound.
    let huge = plan(75_000);
    let parse = |program: String| {
        let channel = suite.channel(Some("alice"));
        async move {
            IntentServiceClient::new(channel.await)
                .parse_plan(pb::ParsePlanRequest { program })
                .await
                .unwrap()
                .into_inner()
        }
    };
    let duplicated = format!("{}, a0=2)", huge.trim_end_matches(')'));
    let (first, second, listed) = tokio::join!(parse(plan(20_000)), parse(duplicated), async {
        suite
            .registry("alice")
            .await
            .list_skills(pb::ListSkillsRequest::default())
            .await
    });
    assert!(first.errors.is_empty(), "{:?}", first.errors);
    assert_eq!(second.errors.len(), 1);
    listed.expect("other RPCs are served meanwhile");
    suite.alive().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn non_finite_and_huge_answers_are_refused_and_the_job_stays_intact() {
    let suite = Suite::start("sec-answers");
    let paused = suite
        .job(
            "alice",
            r#"process_refund(order_id="ORD-1", amount=ASK("How much?"))"#,
        )
        .await;
    let waiting = paused.waiting.clone().expect("asks for the amount");
    let field = waiting.requested_fields[0].clone();
    let answer = |kind: prost_types::value::Kind| pb::SubmitInputRequest {
        job: paused.name.clone(),
        correlation_id: waiting.correlation_id.clone(),
        fields: [(field.clone(), prost_types::Value { kind: Some(kind) })].into(),
        ..Default::default()
    };
    use prost_types::value::Kind;
    for (label, kind) in [
        ("1e999 as text", Kind::StringValue("1e999".into())),
        ("infinity", Kind::NumberValue(f64::INFINITY)),
        ("NaN", Kind::NumberValue(f64::NAN)),
        ("3 million digits", Kind::StringValue("9".repeat(3_000_000))),
    ] {
        let status = suite
            .dal("alice")
            .await
            .submit_input(answer(kind))
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{label}");
        assert!(
            status.message().len() < 1000,
            "{label}: the answer is not echoed"
        );
    }
    // The job is intact: readable, listed, still waiting, and cancellable.
    let mut jobs = suite.jobs("alice").await;
    let job = jobs
        .get_job(pb::GetJobRequest {
            name: paused.name.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(job.status, pb::JobStatus::Paused as i32);
    let listed = jobs
        .list_jobs(pb::ListJobsRequest {
            parent: "skills/cs-tier-1".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.jobs.len(), 1);
    let cancelled = jobs
        .cancel_job(pb::CancelJobRequest {
            name: paused.name.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(cancelled.status, pb::JobStatus::Cancelled as i32);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_request_id_reused_for_another_request_is_refused() {
    let suite = Suite::start("sec-request-id");
    let mut jobs = suite.jobs("alice").await;
    let start = |amount: u32| pb::StartJobRequest {
        skill: "skills/cs-tier-1".into(),
        program: format!(r#"process_refund(order_id="ORD-1", amount={amount})"#),
        request_id: "r-1".into(),
        ..Default::default()
    };
    let first = jobs.start_job(start(10)).await.unwrap().into_inner();
    let again = jobs.start_job(start(10)).await.unwrap().into_inner();
    assert_eq!(first.name, again.name);
    let status = jobs.start_job(start(9000)).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(
        status.message().contains("request_id"),
        "{}",
        status.message()
    );
    // Another principal's identical id is its own request, not a way to alice's job.
    let other = suite
        .jobs("bob")
        .await
        .start_job(start(10))
        .await
        .unwrap()
        .into_inner();
    assert_ne!(other.name, first.name);
    // The refused request made no job and paid nothing.
    let listed = jobs
        .list_jobs(pb::ListJobsRequest {
            parent: "skills/cs-tier-1".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.jobs.len(), 1, "{listed:?}");
    assert!(
        suite
            .executed("process_refund")
            .iter()
            .all(|execution| execution["arguments"]["amount"] != 9000),
        "the 9000 refund ran"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn tenants_neither_see_nor_change_each_others_skills() {
    let suite = Suite::start("sec-tenants");
    let custom = "name: private\nproblem: {statement: acme only}\nintents: {supported: [{id: a, examples: [hello]}]}\ntools: []\n";
    suite
        .registry("root")
        .await
        .put_skill(pb::PutSkillRequest {
            name: "skills/acme-private".into(),
            source: custom.into(),
            ..Default::default()
        })
        .await
        .unwrap();
    let acme_refunds = suite
        .registry("root")
        .await
        .get_skill(pb::GetSkillRequest {
            name: "skills/cs-tier-1".into(),
        })
        .await
        .unwrap()
        .into_inner();

    // Another tenant's admin: acme's own skill does not exist for it, and a
    // skill of the same name is its own copy.
    let mut eve = suite.registry("eve").await;
    assert_eq!(
        code(
            eve.get_skill(pb::GetSkillRequest {
                name: "skills/acme-private".into(),
            })
            .await
        ),
        Code::NotFound
    );
    let listed = eve
        .list_skills(pb::ListSkillsRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert!(
        listed
            .skills
            .iter()
            .all(|skill| skill.name != "skills/acme-private"),
        "{listed:?}"
    );
    let theirs = eve
        .get_skill(pb::GetSkillRequest {
            name: "skills/cs-tier-1".into(),
        })
        .await
        .unwrap()
        .into_inner();
    // Globex loosens its own copy: supervisors only above a million.
    let without_approvals = theirs
        .source
        .replace("when: \"amount > 500\"", "when: \"amount > 1000000\"");
    eve.put_skill(pb::PutSkillRequest {
        name: "skills/cs-tier-1".into(),
        source: without_approvals,
        etag: theirs.etag.clone(),
        ..Default::default()
    })
    .await
    .unwrap();
    let after = suite
        .registry("root")
        .await
        .get_skill(pb::GetSkillRequest {
            name: "skills/cs-tier-1".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(after.etag, acme_refunds.etag, "acme's rules are untouched");
    // A job of each tenant runs under its own tenant's skill.
    let held = suite.job("alice", REFUND_900).await;
    assert_eq!(
        held.waiting.map(|waiting| waiting.reason_code).as_deref(),
        Some("APPROVAL_REQUIRED")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_principal_over_its_quota_is_told_when_to_retry() {
    // One request, then a token every 100 s: the second call is over the quota.
    let suite = Suite::start_with("sec-quota", &["--rate-per-principal", "0.01"]);
    let mut alice = suite.registry("alice").await;
    alice
        .list_skills(pb::ListSkillsRequest::default())
        .await
        .unwrap();
    let refused = alice
        .list_skills(pb::ListSkillsRequest::default())
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted);
    use tonic_types::StatusExt;
    let details = refused.get_error_details();
    let retry = details
        .retry_info()
        .expect("RetryInfo")
        .retry_delay
        .unwrap();
    assert!(retry > Duration::from_secs(1), "{retry:?}");
    assert_eq!(details.error_info().unwrap().reason, "QUOTA_EXCEEDED");
    // Another principal has its own quota; health is never limited.
    suite
        .registry("bob")
        .await
        .list_skills(pb::ListSkillsRequest::default())
        .await
        .unwrap();
    suite.alive().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_job_keeps_the_skill_version_it_started_with() {
    let suite = Suite::start("sec-versions");
    // A job that will ask for the amount, started under "approval above 500".
    let paused = suite
        .job(
            "alice",
            r#"process_refund(order_id="ORD-1", amount=ASK("How much?"))"#,
        )
        .await;
    let waiting = paused.waiting.clone().expect("asks for the amount");

    // The admin raises the threshold to 100,000 meanwhile.
    let mut registry = suite.registry("root").await;
    let current = registry
        .get_skill(pb::GetSkillRequest {
            name: "skills/cs-tier-1".into(),
        })
        .await
        .unwrap()
        .into_inner();
    registry
        .put_skill(pb::PutSkillRequest {
            name: "skills/cs-tier-1".into(),
            source: current.source.replace("500", "100000"),
            etag: current.etag.clone(),
            ..Default::default()
        })
        .await
        .unwrap();

    // The running job is still judged by the rules it started with…
    let answered = suite
        .dal("alice")
        .await
        .submit_input(pb::SubmitInputRequest {
            job: paused.name.clone(),
            correlation_id: waiting.correlation_id,
            fields: [(
                waiting.requested_fields[0].clone(),
                prost_types::Value {
                    kind: Some(prost_types::value::Kind::StringValue("900".into())),
                },
            )]
            .into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let held = suite.settle("alice", &answered.name).await;
    assert_eq!(
        held.waiting.map(|waiting| waiting.reason_code).as_deref(),
        Some("APPROVAL_REQUIRED"),
        "the job started under `amount > 500`"
    );
    // …and a new job by the new ones.
    let fresh = suite.job("alice", REFUND_900).await;
    suite.store.runs_under_its_own_policy(&fresh.name);
    assert_eq!(fresh.status, pb::JobStatus::Completed as i32, "{fresh:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn client_certificates_map_to_principals_over_mtls() {
    let pki = adas_testkit::TestPki::new("sec-mtls-pki");
    let carol = pki.client("carol", false);
    pki.client("rogue", true);
    let root = scratch_dir("sec-mtls");
    let auth_file = root.join("auth.json");
    let output = Command::new(workspace_binary("adas"))
        .args([
            "auth", "cert", "add", "--name", "carol", "--tenant", "acme", "--role", "user",
        ])
        .args(["--cert", carol.to_str().unwrap()])
        .args(["--auth-file", auth_file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let bob = create_key(&auth_file, "bob", "acme", &["user"]);
    let path = |name: &Path| name.to_str().unwrap().to_owned();
    let suite = SpawnedService::spawn(
        &workspace_binary("adas"),
        &[
            "up",
            "--memory-root",
            &path(&root.join("memory")),
            "--templates-dir",
            &adas_testkit::templates_arg(),
            "--demo-mcp-listen",
            "127.0.0.1:0",
            "--auth-file",
            &path(&auth_file),
            "--rate-per-principal",
            "1000",
            "--tls-cert",
            &path(&pki.cert("server")),
            "--tls-key",
            &path(&pki.key("server")),
            "--tls-client-ca",
            &path(&pki.cert("ca")),
            "--peer-ca",
            &path(&pki.cert("ca")),
        ],
        &[],
    );
    let url = format!("https://localhost:{}", suite.addr().port());
    let connect = |identity: Option<&str>, key: Option<String>| {
        let url = url.clone();
        let ca = std::fs::read(pki.cert("ca")).unwrap();
        let identity = identity.map(|name| {
            tonic::transport::Identity::from_pem(
                std::fs::read(pki.cert(name)).unwrap(),
                std::fs::read(pki.key(name)).unwrap(),
            )
        });
        async move {
            let mut tls = tonic::transport::ClientTlsConfig::new()
                .ca_certificate(tonic::transport::Certificate::from_pem(ca));
            if let Some(identity) = identity {
                tls = tls.identity(identity);
            }
            // Bounded: a refused client certificate is refused after the
            // client's TLS 1.3 handshake ends, and a call on that connection
            // must end too, not wait for an answer that never comes.
            let channel = Channel::from_shared(url)
                .unwrap()
                .connect_timeout(Duration::from_secs(10))
                .timeout(Duration::from_secs(30))
                .tls_config(tls)
                .unwrap()
                .connect()
                .await?;
            Ok::<_, tonic::transport::Error>(AuthChannel::new(
                channel,
                Credentials::new(key.as_deref()).unwrap(),
            ))
        }
    };

    // Carol's certificate is her identity: she starts a job and it is hers.
    let as_carol = connect(Some("carol"), None).await.unwrap();
    let job = OrchestratorServiceClient::new(as_carol.clone())
        .start_job(pb::StartJobRequest {
            skill: "skills/cs-tier-1".into(),
            program: r#"check_order_status(order_id="ORD-1")"#.into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let get = || pb::GetJobRequest {
        name: job.name.clone(),
    };
    let mut carols = OrchestratorServiceClient::new(as_carol);
    carols.get_job(get()).await.unwrap();
    // Bob, by key over the same TLS, is another principal.
    let as_bob = connect(None, Some(bob)).await.unwrap();
    assert_eq!(
        code(OrchestratorServiceClient::new(as_bob).get_job(get()).await),
        Code::PermissionDenied
    );
    // Neither certificate nor key: unauthenticated. A certificate from another
    // CA does not even get a connection.
    let anonymous = connect(None, None).await.unwrap();
    assert_eq!(
        code(
            OrchestratorServiceClient::new(anonymous)
                .get_job(get())
                .await
        ),
        Code::Unauthenticated
    );
    let rogue = match connect(Some("rogue"), None).await {
        Err(_) => None,
        Ok(channel) => Some(OrchestratorServiceClient::new(channel).get_job(get()).await),
    };
    assert!(
        !matches!(rogue, Some(Ok(_))),
        "a foreign certificate is refused: {rogue:?}"
    );
    // The suite's own workers reach it over TLS: the job ran.
    for _ in 0..500 {
        let current = carols.get_job(get()).await.unwrap().into_inner();
        if current.status == pb::JobStatus::Completed as i32 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the job did not complete over TLS");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_principal_over_its_active_jobs_quota_waits_for_one_to_end() {
    let suite = Suite::start_with(
        "sec-active-jobs",
        &[
            "--rate-per-principal",
            "1000",
            "--max-active-jobs-per-principal",
            "1",
        ],
    );
    let asks = r#"check_order_status(order_id=ASK("Which order?"))"#;
    let paused = suite.job("alice", asks).await;
    assert_eq!(paused.status, pb::JobStatus::Paused as i32);
    let start = || pb::StartJobRequest {
        skill: "skills/cs-tier-1".into(),
        program: asks.into(),
        ..Default::default()
    };
    let refused = suite
        .jobs("alice")
        .await
        .start_job(start())
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted);
    use tonic_types::StatusExt;
    assert!(refused.get_error_details().retry_info().is_some());
    // Another principal has its own quota.
    suite.jobs("bob").await.start_job(start()).await.unwrap();
    // Once alice's job ends, she may start another.
    suite
        .jobs("alice")
        .await
        .cancel_job(pb::CancelJobRequest {
            name: paused.name.clone(),
            ..Default::default()
        })
        .await
        .unwrap();
    suite.jobs("alice").await.start_job(start()).await.unwrap();
}

#[test]
pub(super) fn help_never_prints_secrets_from_the_environment() {
    for binary in ["adas-orchestrator", "adas-gate"] {
        let output = Command::new(workspace_binary(binary))
            .arg("--help")
            .env("ADAS_REDIS_URL", "redis://:hunter2@127.0.0.1:6390/")
            .env("ADAS_PEER_KEY", "adas_peer_secret")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.contains("--redis-url"), "{text}");
        assert!(
            !text.contains("hunter2") && !text.contains("adas_peer_secret"),
            "{text}"
        );
    }
    let output = Command::new(workspace_binary("adas"))
        .args(["job", "list", "x", "--help"])
        .env("ADAS_API_KEY", "adas_client_secret")
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&output.stdout).contains("adas_client_secret"));
}

/// RetryJob runs a job again as its owner's: only the owner or an operator
/// of its tenant may ask; a stranger's ask is refused and claims nothing,
/// another tenant's does not find the job.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_job_is_retried_only_by_its_owner_or_an_operator() {
    let suite = Suite::start("sec-retry");
    let held = suite.job("alice", REFUND_900).await;
    let waiting = held.waiting.clone().expect("held for approval");
    suite
        .gate("sam")
        .await
        .decide_approval(pb::DecideApprovalRequest {
            job: held.name.clone(),
            correlation_id: waiting.correlation_id,
            decision: pb::ApprovalDecision::Reject as i32,
            ..Default::default()
        })
        .await
        .unwrap();
    let retry = |name: &str| pb::RetryJobRequest {
        name: name.to_owned(),
    };
    let mut failed = pb::Job::default();
    for _ in 0..500 {
        failed = suite
            .jobs("alice")
            .await
            .get_job(pb::GetJobRequest {
                name: held.name.clone(),
            })
            .await
            .unwrap()
            .into_inner();
        if failed.status == pb::JobStatus::Failed as i32 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(failed.status, pb::JobStatus::Failed as i32);
    for (who, refused) in [
        ("bob", Code::PermissionDenied),
        ("sam", Code::PermissionDenied),
        ("eve", Code::NotFound),
    ] {
        assert_eq!(
            code(suite.jobs(who).await.retry_job(retry(&held.name)).await),
            refused,
            "{who}"
        );
    }
    let unclaimed = suite
        .jobs("alice")
        .await
        .get_job(pb::GetJobRequest {
            name: held.name.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(unclaimed.retried_by, "", "a refused retry claims nothing");
    // An operator of the tenant may; the new job is still the owner's (her
    // roles, her conversation): an operator's retry lends it nothing.
    let again = suite
        .jobs("olga")
        .await
        .retry_job(retry(&held.name))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(again.retry_of, held.name);
    assert_eq!(
        (again.owner.as_str(), again.conversation.as_str()),
        ("alice", failed.conversation.as_str())
    );
    // The owner asking again gets that same job, hers to read.
    let hers = suite
        .jobs("alice")
        .await
        .retry_job(retry(&held.name))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(hers.name, again.name);
}
