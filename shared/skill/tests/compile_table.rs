//! Spec 004 §4.1 "What compiles vs stays as text", row by row, plus the
//! workflow → sub-goal conversion of §4.6.

use adas_skill::compile::{CompiledGuardrail, compile_guardrail, workflows_to_sub_goals};
use adas_skill::condition::CompareOp;
use adas_skill::model::Workflow;

#[test]
fn never_use_delete_file_compiles_to_tool_deny() {
    assert_eq!(
        compile_guardrail("Never use deleteFile"),
        Some(CompiledGuardrail::ToolDeny {
            tool: "deleteFile".into(),
            original: "Never use deleteFile".into()
        })
    );
}

#[test]
fn amount_over_500_needs_approval_compiles_to_threshold() {
    assert_eq!(
        compile_guardrail("amount > 500 needs approval"),
        Some(CompiledGuardrail::Threshold {
            field: "amount".into(),
            operator: CompareOp::Gt,
            value: 500.0,
            requires_approval: true,
            original: "amount > 500 needs approval".into(),
        })
    );
}

#[test]
fn process_refund_requires_approval_compiles_to_requires_approval() {
    assert_eq!(
        compile_guardrail("process_refund requires approval"),
        Some(CompiledGuardrail::RequiresApproval {
            tool: "process_refund".into(),
            original: "process_refund requires approval".into(),
        })
    );
}

#[test]
fn never_share_payment_info_stays_text() {
    assert_eq!(compile_guardrail("Never share payment info"), None);
}

#[test]
fn never_be_dismissive_stays_text() {
    assert_eq!(compile_guardrail("Never be dismissive"), None);
}

#[test]
fn always_verify_identity_first_stays_text() {
    assert_eq!(compile_guardrail("Always verify identity first"), None);
}

#[test]
fn the_narrow_compiler_leaves_near_misses_as_text() {
    // "$500" has no operator: this spec example stays text, it is not a threshold.
    assert_eq!(
        compile_guardrail("Never process refunds over $500 without supervisor approval"),
        None
    );
    assert_eq!(
        compile_guardrail("Never useless words"),
        None,
        "`use` must be a word"
    );
    // Dotted tool names and all six operators.
    assert!(
        matches!(compile_guardrail("Never use sys.escalate."), Some(CompiledGuardrail::ToolDeny { tool, .. }) if tool == "sys.escalate")
    );
    for (rule, op) in [
        ("quantity >= 10", CompareOp::Ge),
        ("age < 18", CompareOp::Lt),
        ("x <= 2.5", CompareOp::Le),
        ("retries == 3", CompareOp::Eq),
        ("n != 0", CompareOp::Ne),
    ] {
        assert!(
            matches!(compile_guardrail(rule), Some(CompiledGuardrail::Threshold { operator, .. }) if operator == op),
            "{rule}"
        );
    }
    assert!(matches!(
        compile_guardrail("amount > 500"),
        Some(CompiledGuardrail::Threshold {
            requires_approval: false,
            ..
        })
    ));
}

#[test]
fn workflows_become_chained_sub_goals() {
    let workflow = Workflow {
        name: "Refund Processing".into(),
        steps: vec![
            "verify_identity".into(),
            "check_eligibility".into(),
            "process_refund".into(),
        ],
        required: true,
        ..Workflow::default()
    };
    let sub_goals = workflows_to_sub_goals(&[
        workflow,
        Workflow {
            name: "Empty".into(),
            ..Workflow::default()
        },
    ]);
    let ids: Vec<&str> = sub_goals.iter().map(|sg| sg.id.as_str()).collect();
    assert_eq!(
        ids,
        vec![
            "sg_refund_processing_1",
            "sg_refund_processing_2",
            "sg_refund_processing_3"
        ]
    );
    assert!(sub_goals[0].depends_on.is_empty());
    assert_eq!(
        sub_goals[2].depends_on,
        vec!["sg_refund_processing_2".to_owned()]
    );
    assert_eq!(sub_goals[1].intent, "check_eligibility");
    assert!(
        sub_goals
            .iter()
            .all(|sg| sg.required && sg.workflow == "Refund Processing")
    );
}
