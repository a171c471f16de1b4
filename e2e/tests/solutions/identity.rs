//! Identity you can bind to: the gateway of the scheduling solution set up
//! as documented (README "Grants, access policy, solutions") looks up the
//! signed-in caller only (`${principal.email}`, a claim the operator mapped
//! to the key), so nobody obtains anybody else's grants; what a `pii_*` tool
//! returns is never shown; a worker that would break the solution's contract
//! is refused when it is put.

use super::*;

/// The documented setup: the lookup's `email` is the caller's own, and of a
/// personal result only these fields are shown.
fn caller_only(gateway: &mut Value) {
    gateway["access_policy"]["rules"]
        .as_array_mut()
        .expect("the export's rules")
        .push(serde_json::json!({
            "tools": ["identity.user.lookup"],
            "effect": "constrain",
            "inject": {"email": "${principal.email}"}
        }));
    gateway["tools"][0]["security"]["reveal"] = serde_json::json!(["name", "status"]);
}

/// A refusal that names the contract it keeps.
fn refused_for_its_contract(refused: &tonic::Status, code: tonic::Code) {
    assert_eq!(refused.code(), code, "{refused:?}");
    assert!(
        refused.message().contains("contract"),
        "{}",
        refused.message()
    );
}

fn looked_up(log: &Path) -> Vec<String> {
    executed(log, "user.lookup")
        .iter()
        .map(|call| {
            call["arguments"]["email"]
                .as_str()
                .unwrap_or_default()
                .to_owned()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn bob_can_never_obtain_alices_grants() {
    let scheduling = Scheduling::start("solution-caller-only", caller_only).await;
    // Bob types Alice's address, as the attack did: the lookup is his own.
    let borrowed = verified(&scheduling, "bob", "alice@company.com").await;
    assert!(
        matches!(
            outcome(&borrowed),
            pb::OutcomeClass::Success | pb::OutcomeClass::PolicyDenied
        ),
        "{borrowed:?}"
    );
    assert!(
        borrowed.grants.iter().all(|grant| grant.principal == "bob"),
        "{:?}",
        borrowed.grants
    );
    let shown = format!(
        "{borrowed:?}{:?}",
        scheduling.events("bob", &borrowed).await
    );
    for secret in ["078-05-1120", "u-alice", "457-55-5462"] {
        assert!(!shown.contains(secret), "{secret} in {shown}");
    }
    // Nor can he book as her afterwards: whatever he holds is his.
    scheduling
        .turn("bob", &borrowed.conversation, "", &book(None))
        .await;
    // And a suspended user's address gets him nothing of hers either.
    verified(&scheduling, "bob", "carol@company.com").await;
    let looked = looked_up(&scheduling.log);
    assert!(!looked.is_empty());
    assert!(
        looked.iter().all(|email| email == "bob@gmail.com"),
        "only the caller is ever looked up: {looked:?}"
    );
    for created in executed(&scheduling.log, "event.create") {
        assert_eq!(created["arguments"]["organizer_id"], "u-bob", "{created:?}");
    }
    // A forged address in a program is refused, not looked up.
    let forged = scheduling
        .turn(
            "bob",
            "",
            "",
            r#"identity.user.lookup(email="alice@company.com")"#,
        )
        .await;
    assert_eq!(
        outcome(&forged),
        pb::OutcomeClass::PolicyDenied,
        "{forged:?}"
    );
    assert!(
        looked_up(&scheduling.log)
            .iter()
            .all(|email| email == "bob@gmail.com")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_personal_result_is_never_shown() {
    let scheduling = Scheduling::start_logging_info("solution-personal", caller_only).await;
    let gateway = verified(&scheduling, "alice", "alice@company.com").await;
    assert_eq!(
        status(&gateway),
        pb::JobStatus::Completed,
        "{:?}",
        gateway.error
    );
    // Her SSN and ids are in the tool's result; nowhere she (or anyone) reads.
    let events = scheduling.events("alice", &gateway).await;
    let page = console_page(&scheduling.suite, "alice", &format!("/{}", gateway.name)).await;
    for shown in [format!("{gateway:?}"), format!("{events:?}"), page] {
        for secret in ["078-05-1120", "u-alice", "team_member"] {
            assert!(!shown.contains(secret), "{secret} in {shown}");
        }
    }
    let logged = scheduling.suite.log();
    assert!(!logged.contains("078-05-1120"), "logged");
    // What the skill reveals is shown.
    assert!(format!("{gateway:?}").contains("Alice"), "{gateway:?}");
}

/// A watcher that read the job before its tool ran (nothing personal yet)
/// still sees the personal result masked: the job is read again after the
/// event that adds it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_live_watcher_sees_a_personal_result_masked() {
    // An accept threshold no detection reaches: the job asks which intent
    // it is first, so the watcher is open before the tool runs.
    let scheduling = Scheduling::start("solution-personal-live", |gateway| {
        caller_only(gateway);
        gateway["intents"]["thresholds"]["accept"] = serde_json::json!(0.999);
    })
    .await;
    let job = scheduling
        .turn("alice", "", "Hi, I'm alice@company.com, let me sign in", "")
        .await;
    let waiting = job
        .waiting
        .clone()
        .filter(|waiting| waiting.reason_code == "INTENT_CLARIFICATION_REQUIRED")
        .expect("asked which intent it was, before any tool ran");
    let mut jobs = scheduling.suite.jobs("alice").await;
    let mut stream = jobs
        .watch_job(pb::WatchJobRequest {
            name: job.name.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    // The stream is open (its first batch came) before the answer.
    let first = stream.message().await.unwrap().expect("an event");
    let mut dal = scheduling.suite.dal("alice").await;
    dal.submit_input(pb::SubmitInputRequest {
        job: job.name.clone(),
        correlation_id: waiting.correlation_id,
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
    let mut events = vec![first];
    while let Ok(Ok(Some(event))) =
        tokio::time::timeout(std::time::Duration::from_secs(10), stream.message()).await
    {
        let ended = event.r#type == pb::JobEventType::Completed as i32;
        events.push(event);
        if ended {
            break;
        }
    }
    let shown = format!("{events:?}");
    assert!(
        events
            .iter()
            .any(|event| event.r#type == pb::JobEventType::ToolFinished as i32),
        "the tool's result was watched live: {shown}"
    );
    for secret in ["078-05-1120", "u-alice", "team_member"] {
        assert!(!shown.contains(secret), "{secret} in {shown}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_worker_that_would_break_the_contract_is_refused_when_put() {
    let scheduling = Scheduling::start("solution-contract-put", |_| {}).await;
    let mut registry = scheduling.suite.registry("root").await;
    let current = registry
        .get_skill(pb::GetSkillRequest {
            name: "skills/scheduling-agent".into(),
        })
        .await
        .unwrap()
        .into_inner();
    let mut loose: Value = serde_json::from_str(&current.source).unwrap();
    loose.as_object_mut().unwrap().remove("access_policy");
    let refused = registry
        .put_skill(pb::PutSkillRequest {
            name: "skills/scheduling-agent".into(),
            source: serde_json::to_string_pretty(&loose).unwrap(),
            etag: current.etag.clone(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    refused_for_its_contract(&refused, tonic::Code::InvalidArgument);
    use tonic_types::StatusExt;
    let violations = refused
        .get_error_details()
        .bad_request()
        .expect("field violations")
        .field_violations
        .clone();
    assert!(
        violations
            .iter()
            .any(|violation| violation.description.contains("sched.user_id")
                && violation.description.contains(':')),
        "{violations:?}"
    );
    // The stored worker is the one that keeps the contract.
    let after = registry
        .get_skill(pb::GetSkillRequest {
            name: "skills/scheduling-agent".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(after.etag, current.etag);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_consumer_is_neither_deleted_nor_made_from_a_template() {
    let scheduling = Scheduling::start("solution-contract-bootstrap", |_| {}).await;
    let mut registry = scheduling.suite.registry("root").await;
    // Deleted, the consumer could come back from a template with no contract
    // checked: it stays while a contract names it.
    let refused = registry
        .delete_skill(pb::DeleteSkillRequest {
            name: "skills/scheduling-agent".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    refused_for_its_contract(&refused, tonic::Code::FailedPrecondition);
    registry
        .get_skill(pb::GetSkillRequest {
            name: "skills/scheduling-agent".into(),
        })
        .await
        .expect("still there");
    // A solution naming a consumer that does not exist yet: a template knows
    // nothing of the promise, so the consumer comes only by PutSkill.
    let mut solution: Value =
        serde_json::from_str(&fixture("scheduling-assistant.solution.json")).unwrap();
    solution["id"] = "sched-next".into();
    solution["security_contracts"][0]["consumer"] = "next-agent".into();
    solution["skills"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"id": "next-agent", "name": "Next Agent", "role": "worker"}));
    registry
        .put_solution(pb::PutSolutionRequest {
            name: "solutions/sched-next".into(),
            source: solution.to_string(),
            ..Default::default()
        })
        .await
        .unwrap();
    let refused = registry
        .bootstrap_skill(pb::BootstrapSkillRequest {
            slag: "next-agent".into(),
            template: "cs-tier-1".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    refused_for_its_contract(&refused, tonic::Code::FailedPrecondition);
    let gone = registry
        .get_skill(pb::GetSkillRequest {
            name: "skills/next-agent".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(gone.code(), tonic::Code::NotFound);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_personal_grant_is_masked_wherever_its_call_is_shown() {
    // The booking waits for a supervisor: its call is shown on the job, the
    // approval card, the inbox, the events and the log while it waits.
    let edit = |slag: &str, document: &mut Value| match slag {
        "identity-gateway" => caller_only(document),
        _ => {
            let rule = serde_json::json!({
                "tool_id": "calendar.event.create",
                "action": "require_approval",
                "approver": "supervisor"
            });
            match document["policy"]["approvals"].as_array_mut() {
                Some(rules) => rules.push(rule),
                None => document["policy"]["approvals"] = serde_json::json!([rule]),
            }
        }
    };
    let scheduling = Scheduling::start_logged(
        "solution-personal-grant",
        edit,
        &[("ADAS_LOG", "info")],
        true,
    )
    .await;
    let gateway = verified(&scheduling, "alice", "alice@company.com").await;
    assert_eq!(status(&gateway), pb::JobStatus::Completed, "{gateway:?}");
    let held = scheduling
        .turn("alice", &gateway.conversation, "", &crate::book(None))
        .await;
    assert_eq!(held.slag, "scheduling-agent", "{held:?}");
    let approval = held
        .waiting
        .as_ref()
        .and_then(|waiting| waiting.approval.clone())
        .unwrap_or_else(|| panic!("waits for a supervisor: {held:?}"));
    // The injected organizer is the grant's value: masked on the card.
    let organizer = approval
        .arguments
        .as_ref()
        .and_then(|arguments| arguments.fields.get("organizer_id"))
        .and_then(|value| match &value.kind {
            Some(prost_types::value::Kind::StringValue(text)) => Some(text.clone()),
            _ => None,
        });
    assert_eq!(organizer.as_deref(), Some("***"), "{approval:?}");
    let events = scheduling.events("alice", &held).await;
    let job_page = console_page(&scheduling.suite, "sam", &format!("/{}", held.name)).await;
    let inbox = console_page(&scheduling.suite, "sam", "/inbox").await;
    assert!(inbox.contains("calendar.event.create"), "{inbox}");
    let seen_by_sam = scheduling
        .suite
        .jobs("sam")
        .await
        .get_job(pb::GetJobRequest {
            name: held.name.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    for shown in [
        format!("{held:?}"),
        format!("{seen_by_sam:?}"),
        format!("{events:?}"),
        job_page,
        inbox,
        scheduling.suite.log(),
    ] {
        assert!(!shown.contains("u-alice"), "u-alice in {shown}");
    }
    // Approved, the call runs with the real value: masking is of what is
    // shown, never of what is sent.
    let mut gate = scheduling.suite.gate("sam").await;
    let decided = gate
        .decide_approval(pb::DecideApprovalRequest {
            job: held.name.clone(),
            correlation_id: held.waiting.as_ref().unwrap().correlation_id.clone(),
            decision: pb::ApprovalDecision::Approve as i32,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    // The decision's record shows the call as the card did.
    assert!(!format!("{decided:?}").contains("u-alice"), "{decided:?}");
    assert_eq!(decided.call_digest, approval.call_digest);
    let booked = scheduling.suite.settle("alice", &held.name).await;
    assert_eq!(status(&booked), pb::JobStatus::Completed, "{booked:?}");
    let created = executed(&scheduling.log, "event.create");
    assert_eq!(created[0]["arguments"]["organizer_id"], "u-alice");
    // Nor could the card's digest, its approval's id or the call's
    // idempotency key be hashed back to the value it masks.
    let sent = created[0]["arguments"].as_object().unwrap();
    let plain = adas_e2e::invariants::call_digest("calendar.event.create", sent);
    assert_ne!(approval.call_digest, plain);
    let job_id = held.name.rsplit('/').next().unwrap();
    let shown = format!("{booked:?}{:?}", scheduling.events("alice", &booked).await);
    for iteration in 0..8u32 {
        // As `adas_step::idempotency_key` makes it.
        let key = hex::encode(
            &<sha2::Sha256 as sha2::Digest>::digest(
                format!("{job_id}/{iteration}/{plain}").as_bytes(),
            )[..16],
        );
        assert!(!shown.contains(&key), "a plain idempotency key is shown");
    }
    for occurrence in 0..3u32 {
        let mut hasher = <sha2::Sha256 as sha2::Digest>::new();
        sha2::Digest::update(&mut hasher, job_id.as_bytes());
        sha2::Digest::update(&mut hasher, [0u8]);
        sha2::Digest::update(&mut hasher, plain.as_bytes());
        if occurrence > 0 {
            sha2::Digest::update(&mut hasher, occurrence.to_be_bytes());
        }
        let unkeyed = format!("apr-{}", hex::encode(&sha2::Digest::finalize(hasher)[..12]));
        assert_ne!(held.waiting.as_ref().unwrap().correlation_id, unkeyed);
    }
    assert_eq!(approval.call_digest.len(), 64);
    assert!(!format!("{booked:?}").contains("u-alice"), "{booked:?}");
    assert!(!scheduling.suite.log().contains("u-alice"), "logged");
}
