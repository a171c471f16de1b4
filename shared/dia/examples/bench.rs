//! Plain benchmark: parse + resolve + evaluate of a 50-call plan.
//! `cargo run --release -p adas-dia --example bench` (prints per-phase medians; no assertions).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use adas_dia::{
    InputSpec, NoQuerySource, Plan, Resolver, Schemas, ToolError, ToolRunner, ValueKind, evaluate,
    parse,
};
use async_trait::async_trait;
use serde_json::{Map, Value as Json, json};

struct Adder;

#[async_trait]
impl ToolRunner for Adder {
    async fn run(&self, _tool: &str, args: &Map<String, Json>) -> Result<Json, ToolError> {
        let a = args.get("a").and_then(Json::as_i64).unwrap_or(0);
        let b = args.get("b").and_then(Json::as_i64).unwrap_or(0);
        Ok(json!(a + b))
    }
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    // 50 calls: 25 top-level adds, each with a nested add, half with an ASK answered from context.
    let calls: Vec<String> = (0..25)
        .map(|n| {
            if n % 2 == 0 {
                format!("add(a={n}, b=add(a=1, b=2))")
            } else {
                format!("add(a=add(a={n}, b=1), b=ASK(\"b?\"))")
            }
        })
        .collect();
    let source = calls.join(", ");
    let input = |name: &str| InputSpec {
        name: name.into(),
        kind: ValueKind::Integer,
        required: true,
        ..InputSpec::default()
    };
    let schemas: Schemas = HashMap::from([("add".to_owned(), vec![input("a"), input("b")])]);
    let resolver = Resolver::new(&schemas, &NoQuerySource);

    let (mut parse_times, mut resolve_times, mut eval_times) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..200 {
        let started = Instant::now();
        let program = parse(&source).expect("the plan parses");
        parse_times.push(started.elapsed());

        let mut plan = Plan::new(program);
        plan.context.known.insert("b".into(), json!(5));
        let started = Instant::now();
        let outcome = resolver.resolve(&mut plan).await;
        resolve_times.push(started.elapsed());
        assert_eq!(outcome, adas_dia::Outcome::Resolved);

        let started = Instant::now();
        let evaluation = evaluate(&mut plan.program, &Adder)
            .await
            .expect("evaluates");
        eval_times.push(started.elapsed());
        assert_eq!(evaluation.status, adas_dia::EvaluationStatus::Success);
    }
    println!("50-call plan ({} bytes), median of 200 runs:", source.len());
    println!("  parse    {:>10.1?}", median(parse_times));
    println!("  resolve  {:>10.1?}", median(resolve_times));
    println!("  evaluate {:>10.1?}", median(eval_times));
}
