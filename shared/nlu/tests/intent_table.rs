//! The intent test table over the shipped templates: message → expected intent
//! (None = out of domain) and entities. Prints the accuracy; must stay ≥ 90%,
//! and every out-of-domain row must be refused.

#![allow(
    clippy::too_many_lines,
    reason = "a test reads as one story; the length cap is for the product's code"
)]

use std::path::PathBuf;

use adas_skill::model::Skill;
use adas_skill::{Format, load};
use serde_json::{Map, Value as Json, json};

fn template(slag: &str) -> Skill {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../skill-templates/{slag}.yaml"));
    load(&std::fs::read_to_string(path).unwrap(), Format::Yaml)
        .skill
        .unwrap()
}

type Row = (&'static str, &'static str, Option<&'static str>, Json);

fn table() -> Vec<Row> {
    vec![
        (
            "cs-tier-1",
            "What's my order status?",
            Some("intent_order_status"),
            json!({}),
        ),
        (
            "cs-tier-1",
            "Where is my order ORD-12345?",
            Some("intent_order_status"),
            json!({"order_id": "ORD-12345"}),
        ),
        (
            "cs-tier-1",
            "has my package shipped yet",
            Some("intent_order_status"),
            json!({}),
        ),
        (
            "cs-tier-1",
            "Can you track order ORD-777 for me",
            Some("intent_order_status"),
            json!({"order_id": "ORD-777"}),
        ),
        (
            "cs-tier-1",
            "When will order ORD-2 arrive?",
            Some("intent_order_status"),
            json!({"order_id": "ORD-2"}),
        ),
        (
            "cs-tier-1",
            "order status for ORD-1",
            Some("intent_order_status"),
            json!({"order_id": "ORD-1"}),
        ),
        (
            "cs-tier-1",
            "I want a refund for ORD-1",
            Some("intent_refund"),
            json!({"order_id": "ORD-1"}),
        ),
        (
            "cs-tier-1",
            "Please refund $40 on order ORD-12345",
            Some("intent_refund"),
            json!({"order_id": "ORD-12345", "amount": 40}),
        ),
        (
            "cs-tier-1",
            "I'd like my money back",
            Some("intent_refund"),
            json!({}),
        ),
        (
            "cs-tier-1",
            "refund 700 dollars for ORD-1",
            Some("intent_refund"),
            json!({"order_id": "ORD-1", "amount": 700}),
        ),
        (
            "cs-tier-1",
            "Give me a refund please, order_id=ORD-9",
            Some("intent_refund"),
            json!({"order_id": "ORD-9"}),
        ),
        (
            "cs-tier-1",
            "money back for my order ORD-2, amount is 25.50",
            Some("intent_refund"),
            json!({"order_id": "ORD-2", "amount": 25.5}),
        ),
        (
            "cs-tier-1",
            "what's the weather like today",
            None,
            json!({}),
        ),
        ("cs-tier-1", "Tell me a joke", None, json!({})),
        (
            "identity-verification",
            "Hi, I'm alice@company.com",
            Some("identify_self"),
            json!({"email": "alice@company.com"}),
        ),
        (
            "identity-verification",
            "I need to book a meeting, my email is bob@gmail.com",
            Some("identify_self"),
            json!({"email": "bob@gmail.com"}),
        ),
        (
            "identity-verification",
            "Let me sign in with john@example.com",
            Some("identify_self"),
            json!({"email": "john@example.com"}),
        ),
        (
            "identity-verification",
            "sign me in, I'm alice@company.com",
            Some("identify_self"),
            json!({"email": "alice@company.com"}),
        ),
        (
            "identity-verification",
            "Can I schedule an appointment?",
            Some("ask_about_scheduling"),
            json!({}),
        ),
        (
            "identity-verification",
            "What times are available tomorrow?",
            Some("ask_about_scheduling"),
            json!({}),
        ),
        (
            "identity-verification",
            "I need to reschedule my meeting",
            Some("ask_about_scheduling"),
            json!({}),
        ),
        (
            "identity-verification",
            "what's the capital of France",
            None,
            json!({}),
        ),
        (
            "devops-tier-1",
            "Is the checkout service healthy?",
            Some("check_health"),
            json!({"service": "checkout"}),
        ),
        (
            "devops-tier-1",
            "Check the health of payments",
            Some("check_health"),
            json!({"service": "payments"}),
        ),
        (
            "devops-tier-1",
            "Is search up?",
            Some("check_health"),
            json!({"service": "search"}),
        ),
        (
            "devops-tier-1",
            "What was deployed to checkout recently?",
            Some("recent_deploys"),
            json!({"service": "checkout"}),
        ),
        (
            "devops-tier-1",
            "Show the last deploys of the search service",
            Some("recent_deploys"),
            json!({"service": "search"}),
        ),
        (
            "devops-tier-1",
            "who deployed payments today",
            Some("recent_deploys"),
            json!({"service": "payments"}),
        ),
        (
            "devops-tier-1",
            "Restart the checkout service in production",
            Some("restart_service"),
            json!({"service": "checkout", "environment": "production"}),
        ),
        (
            "devops-tier-1",
            "please bounce payments on staging",
            Some("restart_service"),
            json!({"environment": "staging"}),
        ),
        (
            "devops-tier-1",
            "book me a flight to Paris",
            None,
            json!({}),
        ),
        (
            "sw-dev-agent",
            "Where is the login handler implemented?",
            Some("find_code"),
            json!({"query": "login handler"}),
        ),
        (
            "sw-dev-agent",
            "Search the code for retry logic",
            Some("find_code"),
            json!({"query": "retry logic"}),
        ),
        (
            "sw-dev-agent",
            "Which file defines the user model?",
            Some("find_code"),
            json!({}),
        ),
        (
            "sw-dev-agent",
            "Show me src/main.rs",
            Some("read_file"),
            json!({"path": "src/main.rs"}),
        ),
        (
            "sw-dev-agent",
            "Open the README.md file",
            Some("read_file"),
            json!({"path": "README.md"}),
        ),
        (
            "sw-dev-agent",
            "print the contents of Cargo.toml",
            Some("read_file"),
            json!({"path": "Cargo.toml"}),
        ),
        (
            "sw-dev-agent",
            "List the files in the project",
            Some("list_files"),
            json!({}),
        ),
        (
            "sw-dev-agent",
            "What files are in the src directory?",
            Some("list_files"),
            json!({}),
        ),
        (
            "sw-dev-agent",
            "Give me an overview of the repository layout",
            Some("list_files"),
            json!({}),
        ),
        (
            "sw-dev-agent",
            "what's the weather in Berlin",
            None,
            json!({}),
        ),
    ]
}

#[test]
fn intent_table_accuracy() {
    let rows = table();
    assert!(rows.len() >= 40);
    let (mut intents_right, mut rows_right) = (0, 0);
    // Refusals are counted apart: a 90% bar over every row would let every
    // out-of-domain row fail unnoticed, and a guess there is an action.
    let mut refusals_missed = Vec::new();
    for (slag, message, expected_intent, expected_entities) in &rows {
        let skill = template(slag);
        let detection = adas_nlu::detect(&skill, message, &Map::new());
        let entities: Map<String, Json> = detection
            .entities
            .iter()
            .map(|entity| (entity.name.clone(), entity.value.clone()))
            .collect();
        let intent_ok = detection.intent_id.as_deref() == *expected_intent;
        let entities_ok = Json::Object(entities.clone()) == *expected_entities;
        intents_right += usize::from(intent_ok);
        if expected_intent.is_none() && detection.intent_id.is_some() {
            refusals_missed.push(format!("[{slag}] {message:?} -> {:?}", detection.intent_id));
        }
        rows_right += usize::from(intent_ok && entities_ok);
        if !(intent_ok && entities_ok) {
            println!(
                "MISS [{slag}] {message:?}: got {:?} {} (confidence {:.2}), expected {expected_intent:?} {expected_entities}",
                detection.intent_id,
                Json::Object(entities),
                detection.confidence
            );
        }
    }
    let intent_accuracy = intents_right as f64 / rows.len() as f64;
    let row_accuracy = rows_right as f64 / rows.len() as f64;
    println!(
        "intent accuracy: {intents_right}/{} = {:.1}%",
        rows.len(),
        intent_accuracy * 100.0
    );
    println!(
        "intent + entities accuracy: {rows_right}/{} = {:.1}%",
        rows.len(),
        row_accuracy * 100.0
    );
    let refusals = rows.iter().filter(|row| row.2.is_none()).count();
    assert!(refusals >= 4, "the table keeps out-of-domain rows");
    assert!(
        refusals_missed.is_empty(),
        "every out-of-domain message is refused; acted on: {refusals_missed:?}"
    );
    assert!(
        intent_accuracy >= 0.9,
        "intent accuracy {intent_accuracy:.3} < 0.9"
    );
    assert!(
        row_accuracy >= 0.9,
        "intent + entities accuracy {row_accuracy:.3} < 0.9"
    );
}

#[test]
fn out_of_domain_gets_the_skills_redirect_message() {
    let detection = adas_nlu::detect(&template("cs-tier-1"), "what's the weather", &Map::new());
    let out = detection.out_of_domain.expect("out of domain");
    assert_eq!(
        (out.action.as_str(), out.message.as_str()),
        ("redirect", "I can only help with orders and refunds")
    );
    assert!(detection.intent_id.is_none());
}

#[test]
fn plans_follow_workflows_and_parse_back() {
    let cs = template("cs-tier-1");
    let planned = adas_nlu::plan(&cs, "I want a refund for ORD-1", &Map::new(), None);
    let program = planned.program.unwrap();
    assert_eq!(planned.workflow.as_deref(), Some("Refund Processing"));
    assert_eq!(
        program.to_string(),
        r#"check_order_status(order_id="ORD-1"), process_refund(order_id="ORD-1")"#
    );
    assert_eq!(
        adas_dia::parse(&program.to_string()).unwrap(),
        program,
        "plans are valid DIA"
    );

    // Context fills arguments by input name.
    let context = json!({"amount": 300}).as_object().unwrap().clone();
    let planned = adas_nlu::plan(&cs, "I want a refund for ORD-1", &context, None);
    assert_eq!(
        planned.program.unwrap().to_string(),
        r#"check_order_status(order_id="ORD-1"), process_refund(order_id="ORD-1", amount=300)"#
    );

    // sys.* steps are core tools with their text filled.
    let identity = template("identity-verification");
    let planned = adas_nlu::plan(&identity, "Hi, I'm alice@company.com", &Map::new(), None);
    let text = planned.program.unwrap().to_string();
    assert!(
        text.starts_with(
            r#"identity.user.lookup(email="alice@company.com"), sys.emitUserMessage(text="#
        ),
        "{text}"
    );
    assert!(adas_dia::parse(&text).is_ok());

    // Out of domain: no plan.
    assert!(
        adas_nlu::plan(&cs, "what's the weather", &Map::new(), None)
            .program
            .is_none()
    );
}

#[test]
fn without_a_workflow_the_best_matching_tool_or_a_reply() {
    let source = "\
name: x
intents:
  supported:
    - id: greet
      description: say hello
      examples: [hello there, good morning]
    - id: lookup
      description: look up a customer by email
      examples: [find the customer with email a@b.co, who is x@y.org]
      entities:
        - name: email
          type: email
tools:
  - name: find_customer
    inputs:
      - {name: email, type: string, required: true}
";
    let skill = load(source, Format::Yaml).skill.unwrap();
    let planned = adas_nlu::plan(
        &skill,
        "find the customer carol@example.com",
        &Map::new(),
        None,
    );
    assert_eq!(
        planned.program.unwrap().to_string(),
        r#"find_customer(email="carol@example.com")"#
    );
    let planned = adas_nlu::plan(&skill, "good morning", &Map::new(), None);
    assert_eq!(
        planned.program.unwrap().to_string(),
        r#"sys.emitUserMessage(text="I can help you look up a customer by email.")"#
    );
}

#[test]
fn the_out_of_domain_answer_names_where_else_to_turn() {
    let source = "\
name: x
intents:
  supported:
    - {id: track, examples: [where is my order]}
  out_of_domain:
    action: redirect
    message: I can only help with orders.
    suggest_domains: [returns desk, billing team]
tools: []
";
    let skill = load(source, Format::Yaml).skill.unwrap();
    assert_eq!(
        adas_nlu::detect::out_of_domain(&skill).message,
        "I can only help with orders. You could try: returns desk, billing team."
    );
}
