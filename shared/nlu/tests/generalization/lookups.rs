//! A question about something done before, on a skill whose status intent
//! runs a workflow of two lookups (one by reference, one by member), in
//! words from no conversation set: the lookup the question feeds answers it,
//! and the one it cannot feed is not asked for first.

use adas_nlu::{PlanInput, plan_input};
use adas_skill::model::Skill;
use adas_skill::{Format, load};
use serde_json::Map;

const CLUB: &str = r#"
id: sailing-club
name: Sailing Club Desk
version: 1.0.0
timezone: Europe/London
mcp_server: "http://127.0.0.1:9/mcp"
problem:
  statement: Members book club dinghies and ask how their bookings stand
intents:
  thresholds: {accept: 0.85, clarify: 0.6, reject: 0.4}
  supported:
    - id: book_dinghy
      description: Member wants a club dinghy booked for a day
      examples:
        - Book me a Laser for Saturday, I'm MEM-4410
        - Can I take a Topper out on Sunday
      entities:
        - {name: member_id, type: identifier, required: true}
        - {name: day, type: date, required: true}
    - id: check_booking
      description: Member asks how a booking stands — whether it went through, is confirmed or was cancelled
      examples:
        - What's happening with BKG-20931?
        - Is my booking confirmed?
        - Show me my bookings, MEM-4410
      entities:
        - {name: booking_ref, type: identifier, required: false}
        - {name: member_id, type: identifier, required: false}
tools:
  - name: book_dinghy
    description: Book a club dinghy for a member on a day
    inputs:
      - {name: member_id, type: string, required: true, pattern: "^MEM-[0-9]{4}$"}
      - {name: day, type: date, required: true}
  - name: get_booking
    description: Look up one booking by its reference
    read_only: true
    inputs:
      - {name: booking_ref, type: string, required: true, pattern: "^BKG-[0-9]{5}$"}
  - name: list_bookings
    description: List a member's bookings
    read_only: true
    inputs:
      - {name: member_id, type: string, required: true, pattern: "^MEM-[0-9]{4}$"}
policy:
  workflows:
    - {name: Book, trigger: book_dinghy, steps: [book_dinghy]}
    - {name: Status, trigger: check_booking, steps: [get_booking, list_bookings], required: false}
"#;

fn club() -> Skill {
    let loaded = load(CLUB, Format::Yaml);
    assert!(
        loaded.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        loaded.diagnostics
    );
    loaded.skill.expect("the club skill loads")
}

fn program(skill: &Skill, message: &str) -> Option<String> {
    let context = Map::new();
    plan_input(skill, &PlanInput::new(message, &context))
        .program
        .map(|program| program.to_string())
}

#[test]
fn the_lookup_a_question_feeds_answers_it() {
    let club = club();
    for (message, expected) in [
        (
            "Did my dinghy for Sunday actually get booked? I sorted it last week. MEM-4412",
            r#"list_bookings(member_id="MEM-4412")"#,
        ),
        (
            "I asked the office to book BKG-20977 for me on Friday, did that go through?",
            r#"get_booking(booking_ref="BKG-20977")"#,
        ),
    ] {
        assert_eq!(
            program(&club, message).as_deref(),
            Some(expected),
            "{message}"
        );
    }
    // Nothing to look either up by: both stay, and the first asks.
    let unfed = program(&club, "Did my booking go through?").unwrap_or_default();
    assert!(unfed.starts_with("get_booking("), "{unfed}");
    assert!(unfed.contains("list_bookings("), "{unfed}");
}
