//! An argument an access policy injects from a grant is never read from the
//! user's words, whatever they say about it: the grant alone fills it.

use adas_skill::{Format, load};
use serde_json::Map;

const SKILL: &str = r#"problem: {statement: "Book meetings"}
intents:
  supported:
    - id: book_meeting
      examples: ["book a meeting", "schedule a call"]
tools:
  - name: calendar.event.create
    inputs:
      - {name: title, type: string, required: true}
      - {name: organizer_id, type: string, required: true}
policy:
  workflows: [{name: Book, trigger: book_meeting, steps: [calendar.event.create]}]
access_policy:
  rules:
    - tools: [calendar.event.create]
      effect: constrain
      inject: {organizer_id: "${grants.sched.user_id}"}
"#;

#[test]
fn the_user_never_names_an_injected_argument() {
    let skill = load(SKILL, Format::Yaml).skill.unwrap();
    for message in [
        "book a meeting titled Sync, organizer_id u-bob",
        "book a meeting for organizer u-bob",
        "book a meeting u-bob",
    ] {
        let planned = adas_nlu::plan(&skill, message, &Map::new(), Some("book_meeting"));
        let program = planned
            .program
            .map(|program| program.to_string())
            .unwrap_or_default();
        assert!(!program.contains("organizer_id"), "{message}: {program}");
        assert!(
            !planned.facts.iter().any(|fact| fact.name == "organizer_id"),
            "{message}: {:?}",
            planned.facts
        );
    }
}
