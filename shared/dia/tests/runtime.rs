//! Resolution and evaluation: the spec's examples, resumption from JSON in a
//! fresh resolver, idempotent evaluation, recovery, and the missing-input hook.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use adas_dia::{
    AnswerError, EvaluationStatus, InputSpec, InteractionKind, NoQuerySource, Node, Outcome, Plan,
    Resolver, Schemas, StaticQuerySource, ToolError, ToolRunner, ValueKind, asks_of_call, evaluate,
    insert_missing_asks, next_call, parse,
};
use async_trait::async_trait;
use serde_json::{Map, Value as Json, json};

/// Arithmetic and the screw robot, counting every call.
#[derive(Default)]
struct CountingRunner {
    calls: Mutex<Vec<(String, Json)>>,
    fail_lengths_over: Option<i64>,
}

impl CountingRunner {
    fn calls(&self) -> Vec<(String, Json)> {
        self.calls.lock().unwrap().clone()
    }
}

#[async_trait]
impl ToolRunner for CountingRunner {
    async fn run(&self, tool: &str, args: &Map<String, Json>) -> Result<Json, ToolError> {
        self.calls
            .lock()
            .unwrap()
            .push((tool.to_owned(), Json::Object(args.clone())));
        let number = |name: &str| {
            args.get(name)
                .and_then(Json::as_i64)
                .ok_or_else(|| ToolError::Unrecoverable(format!("{name} missing")))
        };
        match tool {
            "add" if args.contains_key("v") => {
                Ok(json!(args["v"].as_array().map(|items| {
                    items.iter().filter_map(Json::as_i64).sum::<i64>()
                })))
            }
            "negate" => Ok(json!(-number("v")?)),
            "add" => Ok(json!(number("a")? + number("b")?)),
            "multiply" => Ok(json!(number("a")? * number("b")?)),
            "retrieve_screw" => {
                let length = number("length")?;
                if self.fail_lengths_over.is_some_and(|limit| length > limit) {
                    return Err(ToolError::Recoverable(format!(
                        "no screws of length {length} in stock"
                    )));
                }
                Ok(json!({"retrieved": number("count")?, "length": length}))
            }
            "explode" => Err(ToolError::Unrecoverable("the arm is offline".into())),
            other => Err(ToolError::Unrecoverable(format!("unknown tool {other}"))),
        }
    }
}

fn screw_schemas() -> Schemas {
    let input = |name: &str, kind| InputSpec {
        name: name.into(),
        kind,
        required: true,
        ..InputSpec::default()
    };
    HashMap::from([(
        "retrieve_screw".to_owned(),
        vec![
            input("count", ValueKind::Integer),
            input("length", ValueKind::Integer),
        ],
    )])
}

#[tokio::test]
async fn nested_calculator_evaluates_once() {
    let mut program = parse("add(a=1, b=multiply(a=2, b=3))").unwrap();
    let runner = CountingRunner::default();
    let evaluation = evaluate(&mut program, &runner).await.unwrap();
    assert_eq!(
        (evaluation.status, evaluation.value),
        (EvaluationStatus::Success, Some(json!(7)))
    );
    assert_eq!(
        runner.calls(),
        vec![
            ("multiply".to_owned(), json!({"a": 2, "b": 3})),
            ("add".to_owned(), json!({"a": 1, "b": 6}))
        ]
    );

    // Idempotent: a second evaluation, even of a copy that went through JSON, calls nothing.
    let mut restored = adas_dia::Program::from_json(&program.to_json()).unwrap();
    let again = evaluate(&mut restored, &runner).await.unwrap();
    assert_eq!(again.value, Some(json!(7)));
    assert_eq!(runner.calls().len(), 2);
    assert_eq!(program.to_string(), "7");
}

#[tokio::test]
async fn calls_in_lists_and_top_level_values_evaluate() {
    let mut program = parse("add(v=[1, negate(v=2)])").unwrap();
    let runner = CountingRunner::default();
    let evaluation = evaluate(&mut program, &runner).await.unwrap();
    assert_eq!(evaluation.value, Some(json!(-1)));
    assert_eq!(
        runner.calls(),
        vec![
            ("negate".to_owned(), json!({"v": 2})),
            ("add".to_owned(), json!({"v": [1, -2]}))
        ],
        "the list item runs first, once"
    );
    let mut literal = parse("[1, 2]").unwrap();
    let evaluation = evaluate(&mut literal, &runner).await.unwrap();
    assert_eq!(evaluation.value, Some(json!([1, 2])));
}

#[tokio::test]
async fn a_reply_may_fill_other_slots_beside_the_answer() {
    let schemas = screw_schemas();
    let mut plan = Plan::new(
        parse(r#"retrieve_screw(count=ASK("How many?"), length=ASK("Length?"))"#).unwrap(),
    );
    let resolver = Resolver::new(&schemas, &NoQuerySource);
    assert!(matches!(
        resolver.resolve(&mut plan).await,
        Outcome::InteractionRequested(_)
    ));
    // The reference's reply form: the value asked for, and a slot known for later.
    resolver
        .answer(&mut plan, "5, PROPAGATE_SLOT(length=12)")
        .unwrap();
    assert_eq!(
        resolver.resolve(&mut plan).await,
        Outcome::Resolved,
        "the propagated length fills its ask: never asked"
    );
    assert_eq!(
        plan.program.to_string(),
        "retrieve_screw(count=5, length=12)"
    );
    // A refused answer propagates nothing.
    let mut plan = Plan::new(
        parse(r#"retrieve_screw(count=ASK("How many?"), length=ASK("Length?"))"#).unwrap(),
    );
    resolver.resolve(&mut plan).await;
    assert!(
        resolver
            .answer(&mut plan, "'many', PROPAGATE_SLOT(length=12)")
            .is_err()
    );
    assert!(!plan.context.known.contains_key("length"));
}

#[tokio::test]
async fn screw_example_pauses_and_resumes_in_a_fresh_resolver() {
    let schemas = screw_schemas();
    let mut plan = Plan::new(
        parse(r#"retrieve_screw(count=3, length=ASK("What screw length do you need?"))"#).unwrap(),
    );
    let outcome = Resolver::new(&schemas, &NoQuerySource)
        .resolve(&mut plan)
        .await;
    let Outcome::InteractionRequested(interaction) = outcome else {
        panic!("expected a question, got {outcome:?}")
    };
    assert_eq!(interaction.question, "What screw length do you need?");
    assert_eq!(
        (
            interaction.field.as_str(),
            interaction.intent.as_str(),
            interaction.expected
        ),
        ("length", "retrieve_screw", ValueKind::Integer)
    );
    assert_eq!(interaction.path.to_string(), "[0].length");

    // Stored in a job record, continued by another process.
    let stored = serde_json::to_string(&plan).unwrap();
    let mut resumed: Plan = serde_json::from_str(&stored).unwrap();
    let fresh_schemas = screw_schemas();
    let resolver = Resolver::new(&fresh_schemas, &NoQuerySource);
    assert_eq!(
        resolver.resolve(&mut resumed).await,
        Outcome::InteractionRequested(interaction),
        "still waiting: asked once, not twice"
    );
    resolver.answer(&mut resumed, "12").unwrap();
    assert_eq!(resolver.resolve(&mut resumed).await, Outcome::Resolved);
    assert_eq!(
        resumed.program.to_string(),
        "retrieve_screw(count=3, length=12)"
    );

    let runner = CountingRunner::default();
    let evaluation = evaluate(&mut resumed.program, &runner).await.unwrap();
    assert_eq!(evaluation.status, EvaluationStatus::Success);
    assert_eq!(
        runner.calls(),
        vec![(
            "retrieve_screw".to_owned(),
            json!({"count": 3, "length": 12})
        )]
    );
}

#[tokio::test]
async fn ill_typed_answers_leave_the_plan_untouched() {
    let schemas = screw_schemas();
    let resolver = Resolver::new(&schemas, &NoQuerySource);
    let mut plan = Plan::new(parse(r#"retrieve_screw(count=3, length=ASK("Length?"))"#).unwrap());
    resolver.resolve(&mut plan).await;
    let before = plan.clone();
    let error = resolver.answer(&mut plan, "twelve").unwrap_err();
    assert!(
        matches!(&error, AnswerError::Invalid { field, .. } if field == "length"),
        "{error}"
    );
    assert_eq!(plan, before);
    // "12.0" and " 12 " are whole numbers.
    resolver.answer(&mut plan, "12.0").unwrap();
    assert_eq!(
        plan.program.to_string(),
        "retrieve_screw(count=3, length=12)"
    );
    assert_eq!(
        resolver.answer(&mut plan, "5"),
        Err(AnswerError::NothingPending)
    );
}

#[tokio::test]
async fn answers_may_be_dsl_abort_or_replan() {
    let schemas = screw_schemas();
    let resolver = Resolver::new(&schemas, &NoQuerySource);

    // An answer that is another ASK asks again.
    let mut plan = Plan::new(parse(r#"retrieve_screw(count=3, length=ASK("Length?"))"#).unwrap());
    resolver.resolve(&mut plan).await;
    resolver
        .answer(&mut plan, r#"ASK("In millimetres, please?")"#)
        .unwrap();
    let Outcome::InteractionRequested(again) = resolver.resolve(&mut plan).await else {
        panic!()
    };
    assert_eq!(again.question, "In millimetres, please?");

    // ABORT() drops the asking call, and the next call is not skipped (the reference's bug).
    let mut plan = Plan::new(parse(r#"retrieve_screw(count=1, length=ASK("A?")), retrieve_screw(count=2, length=ASK("B?")), add(a=1, b=2)"#).unwrap());
    resolver.resolve(&mut plan).await;
    resolver.answer(&mut plan, "ABORT()").unwrap();
    let Outcome::InteractionRequested(next) = resolver.resolve(&mut plan).await else {
        panic!()
    };
    assert_eq!(
        next.question, "B?",
        "the sibling after the aborted call is resolved, not skipped"
    );
    resolver.answer(&mut plan, "8").unwrap();
    assert_eq!(resolver.resolve(&mut plan).await, Outcome::Resolved);
    assert_eq!(
        plan.program.to_string(),
        "retrieve_screw(count=2, length=8), add(a=1, b=2)"
    );
    assert_eq!(plan.context.aborted_calls.len(), 1);

    // Aborting the only call aborts the plan.
    let mut plan = Plan::new(parse(r#"retrieve_screw(count=1, length=ASK("A?"))"#).unwrap());
    resolver.resolve(&mut plan).await;
    resolver.answer(&mut plan, "ABORT()").unwrap();
    assert_eq!(resolver.resolve(&mut plan).await, Outcome::Aborted);

    // ABORT_WITH_NEW_INTENTS re-plans in place.
    let mut plan = Plan::new(parse(r#"retrieve_screw(count=1, length=ASK("A?"))"#).unwrap());
    resolver.resolve(&mut plan).await;
    resolver
        .answer(
            &mut plan,
            "ABORT_WITH_NEW_INTENTS([add(a=1, b=1), add(a=2, b=2)])",
        )
        .unwrap();
    assert_eq!(resolver.resolve(&mut plan).await, Outcome::Resolved);
    assert_eq!(plan.program.to_string(), "add(a=1, b=1), add(a=2, b=2)");
}

#[tokio::test]
async fn known_values_are_never_asked_again() {
    let schemas = screw_schemas();
    let resolver = Resolver::new(&schemas, &NoQuerySource);
    let mut plan = Plan::new(
        parse(r#"retrieve_screw(count=2, length=ASK("Length?")), retrieve_screw(count=4, length=SAME_AS_PREVIOUS_INTENT()), retrieve_screw(count=1, length=ASK("Length again?"))"#)
            .unwrap(),
    );
    resolver.resolve(&mut plan).await;
    resolver.answer(&mut plan, "10").unwrap();
    assert_eq!(
        resolver.resolve(&mut plan).await,
        Outcome::Resolved,
        "asked exactly once"
    );
    assert_eq!(
        plan.program.to_string(),
        "retrieve_screw(count=2, length=10), retrieve_screw(count=4, length=10), retrieve_screw(count=1, length=10)"
    );

    // PROPAGATE_SLOT supplies values for later slots.
    let mut plan = Plan::new(
        parse(r#"PROPAGATE_SLOT(length=6), retrieve_screw(count=1, length=ASK("Length?"))"#)
            .unwrap(),
    );
    assert_eq!(resolver.resolve(&mut plan).await, Outcome::Resolved);
    assert_eq!(
        plan.program.to_string(),
        "retrieve_screw(count=1, length=6)"
    );
}

#[tokio::test]
async fn queries_use_the_query_source() {
    let schemas = screw_schemas();
    let source = StaticQuerySource {
        fills: HashMap::from([
            ("longest in stock".to_owned(), json!(20)),
            ("a few".to_owned(), json!(3)),
        ]),
        answers: HashMap::from([(
            "what lengths exist?".to_owned(),
            "We have 8, 12 and 20 mm. Which one?".to_owned(),
        )]),
        gathers: HashMap::from([(
            "restock".to_owned(),
            "retrieve_screw(count=5, length=8)".to_owned(),
        )]),
    };
    let resolver = Resolver::new(&schemas, &source);
    let mut plan = Plan::new(
        parse(r#"retrieve_screw(count=F("a few"), length=QUERY_FILL("longest in stock"))"#)
            .unwrap(),
    );
    assert_eq!(resolver.resolve(&mut plan).await, Outcome::Resolved);
    assert_eq!(
        plan.program.to_string(),
        "retrieve_screw(count=3, length=20)"
    );

    let mut plan = Plan::new(
        parse(r#"retrieve_screw(count=1, length=QUERY_USER("what lengths exist?"))"#).unwrap(),
    );
    let Outcome::InteractionRequested(question) = resolver.resolve(&mut plan).await else {
        panic!()
    };
    assert_eq!(
        (question.kind, question.question.as_str()),
        (
            InteractionKind::QueryUser,
            "We have 8, 12 and 20 mm. Which one?"
        )
    );
    resolver.answer(&mut plan, "12").unwrap();
    assert_eq!(resolver.resolve(&mut plan).await, Outcome::Resolved);

    let mut plan = Plan::new(parse(r#"QUERY_GATHER("restock", "inventory")"#).unwrap());
    assert_eq!(resolver.resolve(&mut plan).await, Outcome::Resolved);
    assert_eq!(
        plan.program.to_string(),
        "retrieve_screw(count=5, length=8)"
    );

    // Without a source, a query becomes a question.
    let resolver = Resolver::new(&schemas, &NoQuerySource);
    let mut plan = Plan::new(
        parse(r#"retrieve_screw(count=1, length=QUERY_FILL("longest in stock"))"#).unwrap(),
    );
    assert!(matches!(
        resolver.resolve(&mut plan).await,
        Outcome::InteractionRequested(_)
    ));
}

#[tokio::test]
async fn recoverable_tool_errors_become_questions() {
    let schemas = screw_schemas();
    let resolver = Resolver::new(&schemas, &NoQuerySource);
    let runner = CountingRunner {
        fail_lengths_over: Some(15),
        ..CountingRunner::default()
    };
    let mut plan = Plan::new(parse("retrieve_screw(count=3, length=20)").unwrap());
    let evaluation = evaluate(&mut plan.program, &runner).await.unwrap();
    assert_eq!(evaluation.status, EvaluationStatus::AbortedRecoverable);

    let Outcome::InteractionRequested(question) = resolver.resolve(&mut plan).await else {
        panic!()
    };
    assert_eq!(question.kind, InteractionKind::RuntimeError);
    assert!(
        question
            .question
            .contains("no screws of length 20 in stock"),
        "{}",
        question.question
    );
    resolver
        .answer(&mut plan, "PROPAGATE_SLOT(length=12)")
        .unwrap();
    assert_eq!(resolver.resolve(&mut plan).await, Outcome::Resolved);
    let evaluation = evaluate(&mut plan.program, &runner).await.unwrap();
    assert_eq!(evaluation.status, EvaluationStatus::Success);
    assert_eq!(runner.calls().len(), 2);

    let mut plan = Plan::new(parse("explode(now=true)").unwrap());
    let evaluation = evaluate(&mut plan.program, &runner).await.unwrap();
    assert_eq!(
        (evaluation.status, evaluation.error.as_deref()),
        (
            EvaluationStatus::AbortedUnrecoverable,
            Some("the arm is offline")
        )
    );
    assert_eq!(
        plan.program.to_string(),
        "explode(now=true)",
        "an unrecoverable failure leaves the call as it was"
    );
}

#[tokio::test]
async fn the_hook_inserts_asks_for_missing_required_inputs() {
    let mut schemas = screw_schemas();
    schemas.get_mut("retrieve_screw").unwrap()[1].prompt = Some("Which length (mm)?".into());
    let mut program = parse("retrieve_screw()").unwrap();
    let known = BTreeMap::from([("count".to_owned(), json!(2))]);
    let inserted = insert_missing_asks(&mut program, &schemas, &known);
    assert_eq!(
        inserted
            .iter()
            .map(|ask| ask.field.as_str())
            .collect::<Vec<_>>(),
        vec!["length"]
    );
    assert_eq!(
        program.to_string(),
        r#"retrieve_screw(count=2, length=ASK("Which length (mm)?"))"#
    );

    let mut program = parse("retrieve_screw()").unwrap();
    insert_missing_asks(&mut program, &schemas, &BTreeMap::new());
    let call = next_call(&program).unwrap_err();
    assert!(call.to_string().contains("[0].count"));
    let path = adas_dia::SlotPath(vec![adas_dia::Step::Element(0)]);
    let asks = asks_of_call(&program, &path, &schemas);
    assert_eq!(
        asks.iter()
            .map(|ask| ask.field.as_str())
            .collect::<Vec<_>>(),
        vec!["count", "length"],
        "all missing fields of one call at once"
    );
    let mut plan = Plan::new(program);
    let resolver = Resolver::new(&schemas, &NoQuerySource);
    for (ask, answer) in asks.iter().zip(["4", "9"]) {
        resolver.fill(&mut plan, ask, answer).unwrap();
    }
    assert_eq!(resolver.resolve(&mut plan).await, Outcome::Resolved);
    assert_eq!(
        plan.program.to_string(),
        "retrieve_screw(count=4, length=9)"
    );
    let _ = Node::SameAsPrevious;
}

#[test]
fn known_values_fill_asks_inserted_earlier() {
    let mut program = parse(r#"a(x=ASK("x?")), b(y=ASK("y?"), x=ASK("x again?"))"#).unwrap();
    let known = BTreeMap::from([("x".to_owned(), json!("X-1"))]);
    assert_eq!(adas_dia::fill_known_asks(&mut program, &known), 2);
    assert_eq!(
        program.to_string(),
        r#"a(x="X-1"), b(y=ASK("y?"), x="X-1")"#
    );
}
