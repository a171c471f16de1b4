//! The gates on the shipped templates: the pre-tool gate with boundary tests,
//! approvals bound to the exact call, finalization, retries, polishing.

#![allow(
    clippy::too_many_lines,
    reason = "a test reads as one story; the length cap is for the product's code"
)]

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
                took_part: &[],
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
                took_part: &[],
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
                four_eyes: true,
                took_part: &[]
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
                took_part: &[],
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
                four_eyes: true,
                took_part: &[]
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
                four_eyes: true,
                took_part: &[]
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
            took_part: &[],
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

#[path = "gate/more.rs"]
mod more;
