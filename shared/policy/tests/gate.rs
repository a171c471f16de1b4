//! The gates on the shipped templates: the pre-tool gate with boundary tests,
//! approvals bound to the exact call, finalization, retries, polishing.

use std::path::PathBuf;
use std::sync::Arc;

use adas_catalog::Catalog;
use adas_policy::finalize::{Action, Draft, ReasonCode, RetryDecision, judge, retry_decision};
use adas_policy::gate::{
    ApprovalBook, ApprovalChoice, ApprovalError, Approver, JobCall, RuleKind, Verdict, call_digest,
    check,
};
use adas_policy::llm::FinalizationJudge;
use adas_skill::OperationalSkill;
use adas_state::MemoryStore;
use adas_step::reply::polish;
use serde_json::{Map, Value as Json, json};

fn skill(slag: &str) -> Arc<OperationalSkill> {
    let root = std::env::temp_dir().join(format!(
        "adas-policy-{}-{slag}-{}",
        std::process::id(),
        rand_suffix()
    ));
    let templates = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../skill-templates");
    Catalog::new(root, templates)
        .with_var("ADAS_DEMO_MCP_URL", "http://127.0.0.1:1/mcp")
        .get(slag)
        .unwrap()
}

fn rand_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

fn custom(source: &str) -> Arc<OperationalSkill> {
    let root = std::env::temp_dir().join(format!(
        "adas-policy-custom-{}-{}",
        std::process::id(),
        rand_suffix()
    ));
    let catalog = Catalog::new(&root, &root);
    // These tests are about policy: the fields that make a document a skill
    // are added when a source leaves them out.
    let mut source = source.to_owned();
    for (key, line) in [
        ("problem:", "problem: {statement: Test the gate}\n"),
        ("intents:", "intents: {supported: [{id: test}]}\n"),
        ("tools:", "tools: []\n"),
    ] {
        if !source.contains(key) {
            source.push_str(line);
        }
    }
    catalog.put("custom", &source, None).unwrap()
}

fn args(value: Json) -> Map<String, Json> {
    value.as_object().unwrap().clone()
}

#[test]
fn refunds_up_to_500_are_allowed_and_above_need_a_supervisor() {
    let cs = skill("cs-tier-1");
    for amount in [300, 499, 500] {
        let decision = check(
            &cs,
            "process_refund",
            &args(json!({"order_id": "ORD-1", "amount": amount})),
        );
        assert_eq!(decision.verdict, Verdict::Allow, "amount {amount}");
    }
    for amount in [501, 502, 700] {
        let decision = check(
            &cs,
            "process_refund",
            &args(json!({"order_id": "ORD-1", "amount": amount})),
        );
        assert_eq!(
            (
                decision.verdict,
                decision.approver.as_str(),
                decision.condition.as_str()
            ),
            (Verdict::RequireApproval, "supervisor", "amount > 500"),
            "amount {amount}"
        );
    }
    let decision = check(
        &cs,
        "process_refund",
        &args(json!({"order_id": "ORD-1", "amount": 500.5})),
    );
    assert_eq!(decision.verdict, Verdict::RequireApproval);
}

#[test]
fn never_allowed_tools_are_denied_with_the_rule_text() {
    let cs = skill("cs-tier-1");
    let decision = check(
        &cs,
        "delete_customer_record",
        &args(json!({"customer_id": "c-1"})),
    );
    assert_eq!(
        (decision.verdict, decision.rule_kind),
        (Verdict::Deny, RuleKind::ToolPolicy)
    );
    assert!(
        decision.rule.contains("delete_customer_record") && decision.rule.contains("not allowed"),
        "{}",
        decision.rule
    );
    assert_eq!(
        check(
            &cs,
            "check_order_status",
            &args(json!({"order_id": "ORD-1"}))
        )
        .verdict,
        Verdict::Allow
    );
}

#[test]
fn compiled_guardrails_thresholds_and_filters() {
    let source = "\
name: custom
tools:
  - name: transfer
    inputs:
      - {name: amount, type: number, required: true}
  - name: order_parts
    inputs:
      - {name: quantity, type: integer, required: true}
  - name: wipe
  - name: read
policy:
  guardrails:
    never:
      - Never use wipe
      - amount > 1000
      - quantity >= 10 needs approval
  approvals:
    - tool_id: order_parts
      approver: buyer
      conditions:
        - when: \"quantity > 100\"
          action: deny
  tools:
    blocked: [read]
";
    let skill = custom(source);
    let deny = check(&skill, "wipe", &Map::new());
    assert_eq!(
        (deny.verdict, deny.rule_kind, deny.rule.as_str()),
        (Verdict::Deny, RuleKind::ToolDeny, "Never use wipe")
    );
    assert_eq!(
        check(&skill, "transfer", &args(json!({"amount": 1000}))).verdict,
        Verdict::Allow
    );
    let over = check(&skill, "transfer", &args(json!({"amount": 1001})));
    assert_eq!(
        (over.verdict, over.rule_kind, over.rule.as_str()),
        (Verdict::Deny, RuleKind::Threshold, "amount > 1000")
    );
    assert_eq!(
        check(&skill, "order_parts", &args(json!({"quantity": 9}))).verdict,
        Verdict::Allow
    );
    let approval = check(&skill, "order_parts", &args(json!({"quantity": 10})));
    assert_eq!(
        (approval.verdict, approval.approver.as_str()),
        (Verdict::RequireApproval, "buyer")
    );
    assert_eq!(
        check(&skill, "read", &Map::new()).rule_kind,
        RuleKind::BlockedTool
    );
}

#[tokio::test]
async fn an_approval_applies_to_the_exact_call_only() {
    let cs = skill("cs-tier-1");
    let store = MemoryStore::new();
    let book = ApprovalBook::new(&store);
    let call = args(json!({"order_id": "ORD-1", "amount": 501}));
    let decision = book
        .settle(
            "cs-tier-1",
            JobCall {
                job_id: "job-1",
                occurrence: 0,
                excluded: &[],
            },
            "process_refund",
            &call,
            check(&cs, "process_refund", &call),
        )
        .await
        .unwrap();
    assert_eq!(decision.verdict, Verdict::RequireApproval);
    let correlation = decision.correlation_id.clone();
    assert!(correlation.starts_with("apr-"));
    // Asking again for the same call is the same request.
    let again = book
        .settle(
            "cs-tier-1",
            JobCall {
                job_id: "job-1",
                occurrence: 0,
                excluded: &[],
            },
            "process_refund",
            &call,
            check(&cs, "process_refund", &call),
        )
        .await
        .unwrap();
    assert_eq!(again.correlation_id, correlation);

    let wrong = book
        .decide(
            "cs-tier-1",
            "job-1",
            &correlation,
            &Approver {
                name: "user:bob",
                holds_role: &|role: &str| role == "user",
                owns_job: false,
                four_eyes: true,
            },
            ApprovalChoice::Approve,
            "ok",
        )
        .await
        .unwrap_err();
    assert!(
        matches!(wrong, ApprovalError::WrongApprover { .. }),
        "{wrong}"
    );
    // The right role is not enough when the decider started the job.
    let own = book
        .decide(
            "cs-tier-1",
            "job-1",
            &correlation,
            &Approver {
                name: "mallory",
                holds_role: &|role: &str| role == "supervisor",
                owns_job: true,
                four_eyes: true,
            },
            ApprovalChoice::Approve,
            "",
        )
        .await
        .unwrap_err();
    assert!(matches!(own, ApprovalError::SelfApproval(_)), "{own}");
    assert!(matches!(
        book.decide(
            "cs-tier-1",
            "job-1",
            "apr-nope",
            &Approver {
                name: "supervisor",
                holds_role: &|role: &str| role == "supervisor",
                owns_job: false,
                four_eyes: true
            },
            ApprovalChoice::Approve,
            ""
        )
        .await,
        Err(ApprovalError::UnknownRequest { .. })
    ));

    let record = book
        .decide(
            "cs-tier-1",
            "job-1",
            &correlation,
            &Approver {
                name: "supervisor:alice",
                holds_role: &|role: &str| role == "supervisor",
                owns_job: false,
                four_eyes: true,
            },
            ApprovalChoice::Approve,
            "customer is right",
        )
        .await
        .unwrap();
    assert_eq!(
        (record.decided_by.as_str(), record.request.tool.as_str()),
        ("supervisor:alice", "process_refund")
    );
    assert!(record.decided_at_ms > 0);
    let allowed = book
        .settle(
            "cs-tier-1",
            JobCall {
                job_id: "job-1",
                occurrence: 0,
                excluded: &[],
            },
            "process_refund",
            &call,
            check(&cs, "process_refund", &call),
        )
        .await
        .unwrap();
    assert_eq!(
        (allowed.verdict, allowed.rule_kind),
        (Verdict::Allow, RuleKind::ApprovalGranted)
    );

    // A different amount is a different call; another job is another scope.
    let other_amount = args(json!({"order_id": "ORD-1", "amount": 502}));
    assert_eq!(
        book.settle(
            "cs-tier-1",
            JobCall {
                job_id: "job-1",
                occurrence: 0,
                excluded: &[]
            },
            "process_refund",
            &other_amount,
            check(&cs, "process_refund", &other_amount)
        )
        .await
        .unwrap()
        .verdict,
        Verdict::RequireApproval
    );
    assert_eq!(
        book.settle(
            "cs-tier-1",
            JobCall {
                job_id: "job-2",
                occurrence: 0,
                excluded: &[]
            },
            "process_refund",
            &call,
            check(&cs, "process_refund", &call)
        )
        .await
        .unwrap()
        .verdict,
        Verdict::RequireApproval
    );

    // Deciding differently later is refused; the same decision again is idempotent.
    assert!(matches!(
        book.decide(
            "cs-tier-1",
            "job-1",
            &correlation,
            &Approver {
                name: "supervisor",
                holds_role: &|role: &str| role == "supervisor",
                owns_job: false,
                four_eyes: true
            },
            ApprovalChoice::Reject,
            ""
        )
        .await,
        Err(ApprovalError::AlreadyDecided(ApprovalChoice::Approve))
    ));
    assert!(
        book.decide(
            "cs-tier-1",
            "job-1",
            &correlation,
            &Approver {
                name: "supervisor",
                holds_role: &|role: &str| role == "supervisor",
                owns_job: false,
                four_eyes: true
            },
            ApprovalChoice::Approve,
            ""
        )
        .await
        .is_ok()
    );

    // A rejection denies the call.
    let rejected = book
        .settle(
            "cs-tier-1",
            JobCall {
                job_id: "job-3",
                occurrence: 0,
                excluded: &[],
            },
            "process_refund",
            &call,
            check(&cs, "process_refund", &call),
        )
        .await
        .unwrap();
    book.decide(
        "cs-tier-1",
        "job-3",
        &rejected.correlation_id,
        &Approver {
            name: "supervisor",
            holds_role: &|role: &str| role == "supervisor",
            owns_job: false,
            four_eyes: true,
        },
        ApprovalChoice::Reject,
        "fraud",
    )
    .await
    .unwrap();
    let denied = book
        .settle(
            "cs-tier-1",
            JobCall {
                job_id: "job-3",
                occurrence: 0,
                excluded: &[],
            },
            "process_refund",
            &call,
            check(&cs, "process_refund", &call),
        )
        .await
        .unwrap();
    assert_eq!(denied.verdict, Verdict::Deny);
    assert!(denied.reason.contains("fraud"));
}

#[test]
fn call_digests_ignore_key_order_but_not_values() {
    let a = call_digest("t", &args(json!({"a": 1, "b": {"x": 1, "y": 2}})));
    let b = call_digest("t", &args(json!({"b": {"y": 2, "x": 1}, "a": 1})));
    assert_eq!(a, b);
    assert_ne!(
        a,
        call_digest("t", &args(json!({"a": 2, "b": {"x": 1, "y": 2}})))
    );
    assert_ne!(
        a,
        call_digest("u", &args(json!({"a": 1, "b": {"x": 1, "y": 2}})))
    );
}

#[test]
fn finalization_names_exactly_the_missing_fields() {
    let cs = skill("cs-tier-1");
    let succeeded = vec!["check_order_status".to_owned()];
    let results = args(json!({"order_id": "ORD-12345", "carrier": "UPS"}));
    let verdict = judge(
        &cs,
        &Draft {
            reply: "Your order is on its way.".into(),
            results: results.clone(),
            intent_id: "intent_order_status".into(),
            succeeded_tools: succeeded.clone(),
            ..Draft::default()
        },
    );
    assert!(!verdict.passed);
    assert_eq!(
        verdict.missing_fields,
        vec!["status".to_owned(), "next_steps".to_owned()]
    );
    assert!(
        verdict
            .reasons
            .iter()
            .all(|reason| reason.code == ReasonCode::MissingRequiredField)
    );
    assert_eq!(verdict.suggested_action, Some(Action::ToolCall));
    assert!(
        verdict
            .unchecked_guardrails
            .iter()
            .any(|rule| rule.contains("payment information"))
    );

    let results = args(
        json!({"check_order_status": {"order_id": "ORD-12345", "status": "shipped", "next_steps": "Track it"}}),
    );
    let verdict = judge(
        &cs,
        &Draft {
            reply: "".into(),
            results: results.clone(),
            intent_id: "intent_order_status".into(),
            succeeded_tools: succeeded.clone(),
            ..Draft::default()
        },
    );
    assert!(verdict.passed, "{verdict:?}");
    assert_eq!(verdict.score, 1.0);

    // The refund workflow is required: a missing step means the goal is not met.
    let verdict = judge(
        &cs,
        &Draft {
            reply: "".into(),
            results: results.clone(),
            intent_id: "intent_refund".into(),
            succeeded_tools: succeeded.clone(),
            ..Draft::default()
        },
    );
    assert!(
        verdict
            .reasons
            .iter()
            .any(|reason| reason.code == ReasonCode::GoalNotMet
                && reason.detail.contains("process_refund"))
    );

    // A denied tool that ran anyway violates a guardrail.
    let ran = vec![
        "check_order_status".to_owned(),
        "delete_customer_record".to_owned(),
    ];
    let verdict = judge(
        &cs,
        &Draft {
            reply: "".into(),
            results: results.clone(),
            intent_id: "intent_order_status".into(),
            succeeded_tools: ran.clone(),
            ..Draft::default()
        },
    );
    assert_eq!(verdict.suggested_action, Some(Action::Escalate));
}

#[test]
fn a_disabled_gate_is_skipped() {
    let skill =
        custom("name: custom\ntools: []\noutput_contract:\n  required_fields: [x]\nengine: fast\n");
    let verdict = judge(&skill, &Draft::default());
    assert!(verdict.passed && verdict.skipped);
}

#[test]
fn retry_policy() {
    // max_retries 2: replan twice, then escalate.
    assert_eq!(retry_decision(1, 2, true), RetryDecision::Replan);
    assert_eq!(retry_decision(2, 2, true), RetryDecision::Replan);
    assert_eq!(retry_decision(3, 2, true), RetryDecision::Escalate);
    // require_new_evidence: a retry that gathered nothing stops.
    assert_eq!(retry_decision(2, 2, false), RetryDecision::NoNewEvidence);
    assert_eq!(retry_decision(1, 0, true), RetryDecision::Escalate);
}

#[test]
fn polishing_adds_no_facts() {
    let results = args(
        json!({"order_id": "ORD-12345", "status": "shipped", "next_steps": "Track it with UPS"}),
    );
    let text = polish(
        "Friendly and empathetic customer support specialist",
        "Here is your order.",
        &results,
        true,
    );
    assert_eq!(
        text,
        "Thanks for your patience!\nHere is your order.\n- Order id: ORD-12345\n- Status: shipped\n- Next steps: Track it with UPS"
    );
    // Nobody waited: no thanks for patience; a field the reply states is not repeated.
    let quick = polish(
        "Friendly and empathetic customer support specialist",
        "Order ORD-12345 is shipped.",
        &results,
        false,
    );
    assert_eq!(
        quick,
        "Happy to help!\nOrder ORD-12345 is shipped.\n- Next steps: Track it with UPS"
    );
    let terse = polish(
        "Calm, precise site reliability engineer",
        "",
        &args(json!({"status": "healthy"})),
        false,
    );
    assert_eq!(terse, "- Status: healthy");
}

#[test]
fn replies_state_the_answer() {
    let deploys = json!({"service": "payments", "deploys": [
        {"version": "v42", "author": "ann"}, {"version": "v41", "author": "bob"}
    ]});
    let text = adas_step::reply::compose(
        None,
        &[("Recent deploys of a service".into(), deploys.clone())],
        &Map::new(),
    );
    assert_eq!(
        text,
        "Recent deploys of a service: service: payments.\ndeploys:\n- version: v42, author: ann\n- version: v41, author: bob"
    );
    // An answer, not a dump: the id and its status lead, empty fields are left
    // out, a flag is yes or no.
    let order = json!({"order_id": "ORD-1", "status": "processing", "carrier": "",
        "expected_delivery": null, "gift": false, "total": 40});
    assert_eq!(
        adas_step::reply::compose(None, &[("Look up an order".into(), order)], &Map::new()),
        "Look up an order: ORD-1 is processing — gift: no, total: 40."
    );
    let facts = args(json!({"order_id": "ORD-1", "status": "shipped", "carrier": {"name": "UPS"}}));
    assert_eq!(
        adas_step::reply::compose(
            Some("{{order_id}} is {{status}} with {{carrier.name}}; {{eta}}"),
            &[],
            &facts
        ),
        "ORD-1 is shipped with UPS; unknown"
    );
}

mockall::mock! {
    Judge {}
    #[async_trait::async_trait]
    impl FinalizationJudge for Judge {
        async fn judge(&self, skill: &OperationalSkill, draft: &Draft) -> (adas_policy::finalize::Verdict, adas_policy::llm::Decider);
    }
}

#[tokio::test]
async fn the_llm_seam_is_skipped_when_the_gate_is_disabled() {
    let mut never_called = MockJudge::new();
    never_called.expect_judge().times(0);
    let fast = custom("name: custom\ntools: []\nengine: fast\n");
    let (verdict, _) = adas_policy::llm::finalize(&never_called, &fast, &Draft::default()).await;
    assert!(verdict.skipped);

    let mut called_once = MockJudge::new();
    called_once
        .expect_judge()
        .times(1)
        .returning(|skill, draft| {
            (
                judge(skill, draft),
                adas_policy::llm::Decider::deterministic(),
            )
        });
    let cs = skill("cs-tier-1");
    let (verdict, _) = adas_policy::llm::finalize(&called_once, &cs, &Draft::default()).await;
    assert!(!verdict.passed);
}

#[test]
fn a_tool_the_skill_does_not_declare_is_denied_by_default() {
    // devops-tier-1 shares cs-tier-1's server, so `process_refund` is offered
    // to it, but devops-tier-1 carries none of its policy.
    let devops = skill("devops-tier-1");
    let refund = check(
        &devops,
        "process_refund",
        &args(json!({"order_id": "ORD-1", "amount": 50000})),
    );
    assert_eq!(
        (refund.verdict, refund.rule_kind),
        (Verdict::Deny, RuleKind::Undeclared)
    );
    assert!(refund.reason.contains("not declared"), "{}", refund.reason);
    // The platform's own tools need no declaration.
    assert_eq!(
        check(&devops, "sys.echo", &args(json!({"text": "hi"}))).verdict,
        Verdict::Allow
    );
}

#[test]
fn numeric_conditions_fail_closed_on_values_that_are_not_numbers() {
    let cs = skill("cs-tier-1");
    for amount in [
        json!("$900"),
        json!([900]),
        json!("９００"),
        json!(true),
        json!("NaN"),
        json!("inf"),
        json!({"value": 900}),
        json!(null),
    ] {
        let call = args(json!({"order_id": "ORD-1", "amount": amount}));
        let decision = check(&cs, "process_refund", &call);
        assert_eq!(
            decision.verdict,
            Verdict::RequireApproval,
            "amount {amount} must not pass the > 500 rule"
        );
    }
    // Numbers, and numbers written as plain text, compare as numbers.
    for (amount, verdict) in [
        (json!(40), Verdict::Allow),
        (json!("40"), Verdict::Allow),
        (json!(" 900 "), Verdict::RequireApproval),
        (json!(900.5), Verdict::RequireApproval),
    ] {
        let call = args(json!({"order_id": "ORD-1", "amount": amount}));
        assert_eq!(
            check(&cs, "process_refund", &call).verdict,
            verdict,
            "{amount}"
        );
    }
}

#[tokio::test]
async fn an_approval_pays_for_one_execution_and_takers_part_may_not_approve() {
    let cs = skill("cs-tier-1");
    let store = MemoryStore::new();
    let book = ApprovalBook::new(&store);
    let call = args(json!({"order_id": "ORD-1", "amount": 900}));
    // Sam answered the amount: he may not approve it, though he holds the role.
    let excluded = ["alice".to_owned(), "sam".to_owned()];
    let first = JobCall {
        job_id: "job-9",
        occurrence: 0,
        excluded: &excluded,
    };
    let asked = book
        .settle(
            "cs-tier-1",
            first,
            "process_refund",
            &call,
            check(&cs, "process_refund", &call),
        )
        .await
        .unwrap();
    let supervisor = |name| Approver {
        name,
        holds_role: &|role: &str| role == "supervisor",
        owns_job: false,
        four_eyes: true,
    };
    let refused = book
        .decide(
            "cs-tier-1",
            "job-9",
            &asked.correlation_id,
            &supervisor("sam"),
            ApprovalChoice::Approve,
            "",
        )
        .await
        .unwrap_err();
    assert!(
        matches!(refused, ApprovalError::SelfApproval(_)),
        "{refused}"
    );
    book.decide(
        "cs-tier-1",
        "job-9",
        &asked.correlation_id,
        &supervisor("carol"),
        ApprovalChoice::Approve,
        "",
    )
    .await
    .unwrap();
    let granted = book
        .settle(
            "cs-tier-1",
            first,
            "process_refund",
            &call,
            check(&cs, "process_refund", &call),
        )
        .await
        .unwrap();
    assert_eq!(granted.verdict, Verdict::Allow);
    // The same call a second time in the job is a new request.
    let second = book
        .settle(
            "cs-tier-1",
            JobCall {
                occurrence: 1,
                ..first
            },
            "process_refund",
            &call,
            check(&cs, "process_refund", &call),
        )
        .await
        .unwrap();
    assert_eq!(second.verdict, Verdict::RequireApproval);
    assert_ne!(second.correlation_id, asked.correlation_id);
}

#[test]
fn the_owner_confirms_what_a_rule_gives_to_user() {
    let skill = custom(
        "\
name: custom
tools:
  - name: push
policy:
  approvals:
    - tool_id: push
      approver: user
",
    );
    let decision = check(&skill, "push", &Map::new());
    assert_eq!(
        (decision.verdict, decision.approver.as_str()),
        (Verdict::RequireApproval, adas_policy::gate::OWNER_CONFIRMS)
    );
}
