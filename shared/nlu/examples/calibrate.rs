//! The detector's first guesses on the seen conversation sets, as the
//! calibration of its confidence reads them: for each conversation's first
//! message, the intent its first call belongs to (or `-` when the
//! conversation ends out of domain), the detector's first guess, its raw
//! score and lead, and whether it acted.
//!
//! ```sh
//! cargo run -p adas-nlu --example calibrate -- e2e/conversations > guesses.tsv
//! ```
//!
//! Only the seen sets are read (`*.conv`, `tuning/`, `scored/`): a blind set is
//! never, so its first score stays honest.

use std::path::{Path, PathBuf};

use adas_nlu::detect::{by_the_rules, intent_tools};
use adas_skill::model::Skill;
use adas_skill::{Format, load};
use serde_json::Map;

fn skill(root: &Path, slag: &str) -> Option<Skill> {
    let repo = root.parent()?.parent()?;
    let path = [
        root.join("skills").join(format!("{slag}.yaml")),
        repo.join("skill-templates").join(format!("{slag}.yaml")),
    ]
    .into_iter()
    .find(|path| path.exists())?;
    let text = std::fs::read_to_string(path)
        .ok()?
        .replace("${MCP_URL}", "http://127.0.0.1:9/mcp")
        .replace("${ADAS_DEMO_MCP_URL}", "http://127.0.0.1:9/mcp");
    load(&text, Format::Yaml).skill
}

/// The expected first intent of each conversation: `(message, Some(intent))`,
/// `(message, None)` for out of domain; conversations that begin with a
/// clarification are left out (no first guess is right there).
fn firsts(skill: &Skill, text: &str) -> Vec<(String, Option<String>)> {
    let mut found = Vec::new();
    let mut message: Option<String> = None;
    let mut done = true;
    for line in text.lines().map(str::trim) {
        if line.starts_with("===") {
            message = None;
            done = false;
            continue;
        }
        if done {
            continue;
        }
        if let Some(said) = line.strip_prefix("> ") {
            if message.is_some() {
                done = true;
            } else {
                message = Some(said.to_owned());
            }
            continue;
        }
        let Some(said) = message.clone() else {
            continue;
        };
        if line.starts_with("? clarify") {
            done = true;
        } else if let Some(call) = line.strip_prefix("! ") {
            let tool = call.split_whitespace().next().unwrap_or_default();
            let intent = skill
                .intents
                .iter()
                .flat_map(|intents| &intents.supported)
                .find(|intent| {
                    intent_tools(skill, &intent.id)
                        .iter()
                        .any(|found| found.name == tool)
                });
            if let Some(intent) = intent {
                found.push((said, Some(intent.id.clone())));
            }
            done = true;
        } else if line.starts_with("= completed out_of_domain") {
            found.push((said, None));
            done = true;
        } else if line.starts_with('=') {
            done = true;
        }
    }
    found
}

fn main() {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or("e2e/conversations".into()),
    );
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in [root.clone(), root.join("tuning"), root.join("scored")] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        files.extend(
            entries
                .flatten()
                .map(|entry| entry.path())
                .filter(|path| path.extension().is_some_and(|ext| ext == "conv")),
        );
    }
    files.sort();
    println!("skill\texpected\tguess\traw\tlead\tacted\tout_of_domain\tmessage");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let Some(slag) = text
            .lines()
            .find_map(|line| line.trim().strip_prefix("skill:"))
            .map(|slag| slag.trim().to_owned())
        else {
            continue;
        };
        let Some(skill) = skill(&root, &slag) else {
            eprintln!("{}: skill {slag} not loaded", file.display());
            continue;
        };
        for (message, expected) in firsts(&skill, &text) {
            let detection = by_the_rules(&skill, &message, &Map::new());
            let guess = detection.candidates.first().map(|(id, _)| id.clone());
            let (raw, lead) = (detection.confidence, detection.margin);
            println!(
                "{slag}\t{}\t{}\t{raw:.4}\t{lead:.4}\t{}\t{}\t{message}",
                expected.as_deref().unwrap_or("-"),
                guess.as_deref().unwrap_or("-"),
                detection.confident as u8,
                detection.out_of_domain.is_some() as u8,
            );
        }
    }
}
