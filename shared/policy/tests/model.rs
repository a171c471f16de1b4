//! The model judge and polisher against a scripted endpoint (OpenAI wire
//! format): the model can fail a draft but never pass one the mechanical
//! checks failed; a polisher that changes the facts is not used; a model
//! failure falls back to the deterministic result.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use adas_catalog::Catalog;
use adas_llm::Llm;
use adas_llm::config::{LlmConfig, ModelConfig, Provider};
use adas_policy::finalize::{Draft, ReasonCode};
use adas_policy::llm::{FinalizationJudge, ModelJudge, ModelPolisher, PolishInput, Polisher};
use adas_skill::OperationalSkill;
use adas_testkit::model::{ModelServer, Reply};
use serde_json::{Map, Value as Json, json};

fn skill() -> Arc<OperationalSkill> {
    let root = std::env::temp_dir().join(format!("adas-policy-model-{}", std::process::id()));
    let templates = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../skill-templates");
    Catalog::new(root, templates)
        .with_var("ADAS_DEMO_MCP_URL", "http://127.0.0.1:1/mcp")
        .get("cs-tier-1")
        .unwrap()
}

fn llm(url: &str) -> Llm {
    Llm::new(LlmConfig {
        models: vec![ModelConfig {
            name: "judge".into(),
            provider: Provider::OpenAi,
            base_url: url.into(),
            model: "m".into(),
            api_key: None,
            api_version: None,
            timeout: Duration::from_secs(5),
            max_tokens: 256,
            retries: 0,
            input_usd_per_mtok: 0.0,
            output_usd_per_mtok: 0.0,
        }],
        ..LlmConfig::default()
    })
    .unwrap()
    .unwrap()
}

fn answer(content: &str) -> Reply {
    Reply::ok(json!({
        "id": "x", "object": "chat.completion", "created": 1, "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    }))
}

fn results() -> Map<String, Json> {
    json!({"order_id": "ORD-1", "status": "shipped", "next_steps": "Track it"})
        .as_object()
        .unwrap()
        .clone()
}

#[tokio::test]
async fn the_model_judge_can_fail_a_draft_but_not_pass_a_failing_one() {
    let server = ModelServer::start(|index, _| {
        let passed = index == 1;
        answer(
            &json!({"passed": passed, "score": if passed { 1.0 } else { 0.2 },
                "reasons": if passed { json!([]) } else { json!([{"code": "GUARDRAIL_VIOLATED", "detail": "shares payment data"}]) },
                "missing_fields": [], "suggested_action": if passed { "NONE" } else { "REWRITE" }})
            .to_string(),
        )
    })
    .await;
    let judge = ModelJudge::new(llm(&server.url));
    let skill = skill();
    let good = Draft {
        reply: "Order ORD-1 is shipped.".into(),
        results: results(),
        intent_id: "intent_order_status".into(),
        succeeded_tools: vec!["check_order_status".into()],
        goal: "Where is ORD-1?".into(),
        tokens_spent: 0,
        personal: Vec::new(),
    };
    let (verdict, spent) = judge.judge(&skill, &good).await;
    assert!(!verdict.passed, "the model found a guardrail problem");
    assert!(
        verdict
            .reasons
            .iter()
            .any(|reason| reason.code == ReasonCode::GuardrailViolated)
    );
    assert_eq!(spent.by, "model:judge");
    assert_eq!(spent.usage.tokens(), 15);
    // Missing output fields fail mechanically, whatever the model says.
    let bare = Draft {
        results: Map::new(),
        reply: "Done.".into(),
        ..good.clone()
    };
    let (verdict, _) = judge.judge(&skill, &bare).await;
    assert!(!verdict.passed);
    assert!(!verdict.missing_fields.is_empty());
    assert!(
        verdict.unchecked_guardrails.is_empty(),
        "the model read them"
    );
    // A job's personal values never reach the model, in any message.
    let personal = Draft {
        goal: "Where is ORD-1? My SSN is 078-05-1120".into(),
        reply: "Order ORD-1 of 078-05-1120 is shipped.".into(),
        personal: vec!["078-05-1120".into()],
        ..good.clone()
    };
    judge.judge(&skill, &personal).await;
    let last = server.seen().last().unwrap().body.to_string();
    assert!(!last.contains("078-05-1120"), "{last}");
    assert!(last.contains("***"), "{last}");
    // The data went fenced: the draft never sits in the instructions.
    let seen = server.seen();
    assert!(
        !seen[0].body["messages"][0]["content"]
            .as_str()
            .unwrap()
            .contains("ORD-1")
    );
    assert!(
        seen[0].body["messages"][1]["content"]
            .as_str()
            .unwrap()
            .contains("<data name=\"draft_response\">")
    );
}

#[tokio::test]
async fn a_polisher_that_changes_the_facts_is_not_used() {
    let server = ModelServer::start(|index, _| match index {
        0 => answer("Great news! Your order ORD-1 is shipped. Track it."),
        1 => answer("Great news! Your order ORD-7 is shipped."),
        _ => Reply::status(500, json!({"error": {"message": "down"}})),
    })
    .await;
    let polisher = ModelPolisher::new(llm(&server.url));
    let results = results();
    let input = PolishInput {
        persona: "friendly",
        reply: "Order ORD-1 is shipped. Track it.",
        results: &Map::new(),
        waited: false,
        model: None,
        tokens_spent: 0,
        personal: &[],
    };
    let (text, spent) = polisher.polish(&input).await;
    assert_eq!(text, "Great news! Your order ORD-1 is shipped. Track it.");
    assert_eq!(spent.by, "model:judge");
    let (text, spent) = polisher.polish(&input).await;
    assert!(text.contains("ORD-1") && !text.contains("ORD-7"), "{text}");
    assert!(spent.fallback.unwrap().contains("ord-1"));
    let (text, spent) = polisher
        .polish(&PolishInput {
            results: &results,
            ..input
        })
        .await;
    assert!(text.contains("ORD-1"), "{text}");
    assert_eq!(spent.by, "deterministic");
    assert!(spent.fallback.unwrap().contains("500"));
}
