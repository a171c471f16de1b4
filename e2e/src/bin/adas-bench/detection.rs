//! Detection per message: the deterministic planner (`adas_nlu::plan_input`:
//! intent, entities, values as written, the plan) on the shipped cs-tier-1
//! template and on a skill another author wrote (the equipment rental desk of
//! a blind round: seven intents, enums, a glossary), short requests and long
//! ones, p50 and p99 over many runs — in-process, no store, no RPC: what
//! understanding one message costs.

use std::time::Instant;

use adas_nlu::{PlanInput, plan_input};
use serde_json::{Map, Value as Json, json};

/// The skills measured, each with short requests in its domain.
const SKILLS: &[(&str, &str, &[&str])] = &[
    (
        "cs-tier-1 (template)",
        include_str!("../../../../skill-templates/cs-tier-1.yaml"),
        SHORT,
    ),
    (
        "equipment-desk (blind round)",
        include_str!("../../../conversations/skills/equipment-desk.yaml"),
        SHORT_EQUIPMENT,
    ),
];

const SHORT_EQUIPMENT: &[&str] = &[
    "Book delivery for EQR-6107 on Monday at 7am.",
    "the mini ex on EQR-4471 is leaking oil everywhere",
    "we're done with the scissor lift, pick it up Friday",
    "Need two generators at JS-104 from the 3rd to the 12th",
    "what's on hire at Harbor Point?",
    "can you order us some concrete",
];

const SHORT: &[&str] = &[
    "Where is my order ORD-12345?",
    "I want a refund for ord 12345, it arrived broken",
    "refund $60, no wait, $16 on ORD-777",
    "has my package shipped yet",
    "can I get my money back for the blender I bought last week",
    "Tell me a joke",
    "cancel it",
    "what's the status of order ORD-2 and can you refund ORD-3?",
];

/// A long message: a story around one request, as people write to support.
fn long(words: usize) -> String {
    let story = "I ordered a kettle for my mother in October and it arrived two weeks late, \
                 the box was crushed and the lid does not close anymore, which is a shame \
                 because she really liked the colour and we had waited for it for a while. ";
    let mut text = String::new();
    while text.split_whitespace().count() < words {
        text.push_str(story);
    }
    text.push_str("Could you please refund order ORD-4411 for $49.99?");
    text
}

fn percentile(sorted: &[f64], share: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let at = ((sorted.len() as f64 - 1.0) * share).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

/// Runs each message of each skill `rounds` times; prints and returns p50/p99
/// (ms) for short and long messages, per skill.
pub(super) fn measure(rounds: usize) -> Json {
    adas_nlu::warm();
    let mut figures = serde_json::Map::new();
    println!("\n== detection per message (in-process, deterministic planner)");
    println!(
        "{:<30} {:<26} {:>6} {:>8} {:>8}",
        "skill", "messages", "runs", "p50 ms", "p99 ms"
    );
    for (name, template, short) in SKILLS {
        figures.insert(
            (*name).to_owned(),
            measure_skill(name, template, short, rounds),
        );
    }
    Json::Object(figures)
}

fn measure_skill(skill_name: &str, template: &str, short: &[&str], rounds: usize) -> Json {
    let text = template
        .replace("${ADAS_DEMO_MCP_URL}", "http://127.0.0.1:9/mcp")
        .replace("${MCP_URL}", "http://127.0.0.1:9/mcp");
    let Some(skill) = adas_skill::load(&text, adas_skill::Format::Yaml).skill else {
        return json!({"error": "the skill did not load"});
    };
    let context = Map::new();
    let mut figures = serde_json::Map::new();
    let long_messages = [long(120), long(400)];
    let sets: [(&str, Vec<&str>); 2] = [
        ("short (≤ 20 words)", short.to_vec()),
        (
            "long (120 and 400 words)",
            long_messages.iter().map(String::as_str).collect(),
        ),
    ];
    for (name, messages) in sets {
        let mut times: Vec<f64> = Vec::new();
        for message in &messages {
            // Warm: the first call pays for the skill's corpus.
            let _ = plan_input(&skill, &PlanInput::new(message, &context));
            for _ in 0..rounds {
                let started = Instant::now();
                let planned = plan_input(&skill, &PlanInput::new(message, &context));
                times.push(started.elapsed().as_secs_f64() * 1000.0);
                std::hint::black_box(planned);
            }
        }
        times.sort_by(f64::total_cmp);
        let (p50, p99) = (percentile(&times, 0.5), percentile(&times, 0.99));
        println!(
            "{skill_name:<30} {name:<26} {:>6} {p50:>8.2} {p99:>8.2}",
            times.len()
        );
        figures.insert(
            name.to_owned(),
            json!({"runs": times.len(), "p50_ms": p50, "p99_ms": p99}),
        );
    }
    Json::Object(figures)
}
