//! The gate, continued.

use super::*;

#[test]
pub(super) fn call_digests_ignore_key_order_but_not_values() {
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
pub(super) fn finalization_names_exactly_the_missing_fields() {
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
pub(super) fn a_disabled_gate_is_skipped() {
    let skill =
        custom("name: custom\ntools: []\noutput_contract:\n  required_fields: [x]\nengine: fast\n");
    let verdict = judge(&skill, &Draft::default());
    assert!(verdict.passed && verdict.skipped);
}

#[test]
pub(super) fn retry_policy() {
    // max_retries 2: replan twice, then escalate.
    assert_eq!(retry_decision(1, 2, true), RetryDecision::Replan);
    assert_eq!(retry_decision(2, 2, true), RetryDecision::Replan);
    assert_eq!(retry_decision(3, 2, true), RetryDecision::Escalate);
    // require_new_evidence: a retry that gathered nothing stops.
    assert_eq!(retry_decision(2, 2, false), RetryDecision::NoNewEvidence);
    assert_eq!(retry_decision(1, 0, true), RetryDecision::Escalate);
}

#[test]
pub(super) fn polishing_adds_no_facts() {
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
pub(super) fn replies_state_the_answer() {
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
pub(super) async fn the_llm_seam_is_skipped_when_the_gate_is_disabled() {
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
pub(super) fn a_tool_the_skill_does_not_declare_is_denied_by_default() {
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
pub(super) fn numeric_conditions_fail_closed_on_values_that_are_not_numbers() {
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
pub(super) async fn an_approval_pays_for_one_execution_and_takers_part_may_not_approve() {
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
        took_part: &[],
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
pub(super) fn the_owner_confirms_what_a_rule_gives_to_user() {
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

#[tokio::test]
pub(super) async fn who_took_part_is_judged_when_the_approval_is_decided() {
    let cs = skill("cs-tier-1");
    let store = MemoryStore::new();
    let book = ApprovalBook::new(&store);
    let call = args(json!({"order_id": "ORD-1", "amount": 900}));
    // Recorded while only the owner had taken part.
    let excluded = ["alice".to_owned()];
    let asked = book
        .settle(
            "cs-tier-1",
            JobCall {
                job_id: "job-7",
                occurrence: 0,
                excluded: &excluded,
            },
            "process_refund",
            &call,
            check(&cs, "process_refund", &call),
        )
        .await
        .unwrap();
    // Olga supplied a value of the call since: she took part, now.
    let now = ["alice".to_owned(), "olga".to_owned()];
    let olga = Approver {
        name: "olga",
        holds_role: &|role: &str| role == "supervisor",
        owns_job: false,
        four_eyes: true,
        took_part: &now,
    };
    let refused = book
        .decide(
            "cs-tier-1",
            "job-7",
            &asked.correlation_id,
            &olga,
            ApprovalChoice::Approve,
            "",
        )
        .await
        .unwrap_err();
    assert!(
        matches!(refused, ApprovalError::SelfApproval(_)),
        "{refused}"
    );
}

#[test]
pub(super) fn a_tool_whose_approval_names_nobody_is_never_called() {
    // As the Builder exports it: approval on a delete, no approver named.
    let skill = custom(
        "name: custom\ntools:\n  - name: git_branch\n    inputs: [{name: action, type: string}]\n    policy:\n      allowed: always\n      conditions:\n        - when: \"action == 'delete'\"\n          action: require_approval\n",
    );
    for action in ["delete", "list"] {
        let decision = check(&skill, "git_branch", &args(json!({"action": action})));
        assert_eq!(decision.verdict, Verdict::Deny, "{action}: {decision:?}");
        assert_eq!(decision.rule_kind, RuleKind::Approval);
        assert!(
            decision.reason.contains("is unavailable") && decision.reason.contains("approver:"),
            "{}",
            decision.reason
        );
    }
}
