//! Explains the detector's reading of messages for a skill file: every
//! intent's score, the decision, the entities and the plan.
//!
//!     cargo run -q -p adas-nlu --example explain -- SKILL.yaml "message" ["message" …]
//!
//! A follow-up turn: `ADAS_PREVIOUS=intent_id ADAS_MEMORY='{"route":"NTH"}'`.

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: explain SKILL.yaml MESSAGE…");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| {
        eprintln!("{path}: {error}");
        std::process::exit(2);
    });
    let Some(skill) = adas_skill::load(&text, adas_skill::Format::Yaml).skill else {
        eprintln!("{path}: not a skill");
        std::process::exit(2);
    };
    let context = serde_json::Map::new();
    let previous = std::env::var("ADAS_PREVIOUS").ok();
    let memory: Option<serde_json::Map<String, serde_json::Value>> = std::env::var("ADAS_MEMORY")
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok());
    for message in args {
        let planned = adas_nlu::plan_input(
            &skill,
            &adas_nlu::PlanInput {
                previous_intent: previous.as_deref(),
                memory: memory.as_ref(),
                ..adas_nlu::PlanInput::new(&message, &context)
            },
        );
        let detection = &planned.detection;
        println!("{message}");
        for (intent, score) in detection.candidates.iter().take(4) {
            println!("  {score:.3} {intent}");
        }
        println!(
            "  → {:?} confident={} margin={:.3}",
            detection.intent_id, detection.confident, detection.margin
        );
        for fact in &planned.facts {
            println!(
                "  {} = {} ({})",
                fact.name,
                fact.value,
                if fact.guessed { "guessed" } else { "evidence" }
            );
        }
        if let Some(program) = &planned.program {
            println!("  plan: {program}");
        }
    }
}
