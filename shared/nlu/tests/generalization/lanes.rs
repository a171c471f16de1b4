//! A bowling center written here, in words from no conversation set: ids a
//! description spells as a prefix and a count ("BWL- and five digits"), an id
//! after its name before "this Friday", a free-text value that never takes
//! another value's id, days in ordinal words, a party said by who is in it,
//! an action named by its own word leading one a value points at, and a
//! request to be shown something answered by the one read that takes it.

use adas_nlu::{PlanInput, plan_input};
use adas_skill::{Format, load};
use serde_json::Map;

use super::people::acted;

const LANES: &str = r#"
id: bowling-center
name: Bowling Center
version: 1.0.0
timezone: America/Chicago
mcp_server: "http://127.0.0.1:9/mcp"
problem:
  statement: Members of Pinewood Lanes reserve lanes and lockers
intents:
  supported:
    - id: reserve_lane
      description: Member wants a lane for their group on a day and time
      examples:
        - Reserve a lane for BWL-20417 on Saturday at 7pm for five
        - Can we get a lane tomorrow evening for three of us?
      entities:
        - {name: member_id, type: identifier, required: true}
        - {name: date, type: date, required: true}
        - {name: time, type: time, required: true}
        - {name: bowlers, type: integer, required: true}
    - id: move_reservation
      description: Member wants an existing lane reservation on another day or time
      examples:
        - Move RES-4410 to Sunday at 6pm
        - Push my reservation back an hour
      entities:
        - {name: booking_ref, type: identifier, required: true}
        - {name: new_date, type: date, required: true}
        - {name: new_time, type: time, required: true}
    - id: cancel_reservation
      description: Member wants to call off a lane reservation
      examples:
        - Cancel RES-4410
        - We can't come tonight, drop our lane
      entities:
        - {name: booking_ref, type: identifier, required: true}
    - id: reservation_status
      description: Member asks about a reservation they hold
      examples:
        - Is RES-4410 confirmed?
        - What time is my lane on Friday?
      entities:
        - {name: booking_ref, type: identifier, required: true}
    - id: move_locker
      description: Member wants their ball locker moved
      examples:
        - Move my locker closer to lane 1
        - I'd like a different locker please
      entities:
        - {name: member_id, type: identifier, required: true}
        - {name: locker, type: string, required: true, description: "The new locker, by its row or its locker number"}
tools:
  - name: reserve_lane
    description: Reserve a lane
    inputs:
      - {name: member_id, type: string, required: true, description: "Member number, BWL- and five digits"}
      - {name: date, type: string, required: true, description: "YYYY-MM-DD"}
      - {name: time, type: string, required: true, description: "24-hour HH:MM"}
      - {name: bowlers, type: integer, required: true, description: "People in the group, 1 to 6"}
  - name: move_reservation
    description: Move a reservation
    inputs:
      - {name: booking_ref, type: string, required: true, description: "\"RES-\" followed by 4 digits"}
      - {name: new_date, type: string, required: true, description: "YYYY-MM-DD"}
      - {name: new_time, type: string, required: true, description: "24-hour HH:MM"}
  - name: cancel_reservation
    description: Cancel a reservation
    inputs:
      - {name: booking_ref, type: string, required: true, description: "\"RES-\" followed by 4 digits"}
  - name: get_reservation
    description: Look up a reservation
    inputs:
      - {name: booking_ref, type: string, required: true, description: "\"RES-\" followed by 4 digits"}
  - name: move_locker
    description: Move a member's ball locker
    inputs:
      - {name: member_id, type: string, required: true, description: "Member number, BWL- and five digits"}
      - {name: locker, type: string, required: true, description: "The new locker, by its row or its locker number"}
policy:
  workflows:
    - {name: Reserve, trigger: reserve_lane, steps: [reserve_lane]}
    - {name: Move, trigger: move_reservation, steps: [move_reservation]}
    - {name: Cancel, trigger: cancel_reservation, steps: [cancel_reservation]}
    - {name: Status, trigger: reservation_status, steps: [get_reservation]}
    - {name: Locker, trigger: move_locker, steps: [move_locker]}
"#;

/// The program planned for a message when the detector acts on it.
fn program(message: &str) -> Option<String> {
    adas_nlu::values::pin_today(jiff::civil::date(2026, 12, 1));
    acted(&lanes(), message)
}

fn lanes() -> adas_skill::model::Skill {
    load(LANES, Format::Yaml)
        .skill
        .expect("the bowling skill loads")
}

/// The detector's first guess for a message.
fn guess(message: &str) -> Option<String> {
    let context = Map::new();
    plan_input(&lanes(), &PlanInput::new(message, &context))
        .detection
        .intent_id
}

#[test]
fn an_id_a_description_spells_as_prefix_and_count_is_read_whole_and_after_its_name() {
    assert_eq!(
        program("Move RES-4471 to Sunday at 6pm").as_deref(),
        Some(
            r#"move_reservation(booking_ref="RES-4471", new_date="2026-12-06", new_time="18:00")"#
        )
    );
    // Its digits after its name, before "this Friday": the member's id, never
    // a count of bowlers.
    assert_eq!(
        program("Lane for member 20417 this Friday at 7pm, four of us").as_deref(),
        Some(r#"reserve_lane(member_id="BWL-20417", date="2026-12-04", time="19:00", bowlers=4)"#)
    );
}

#[test]
fn a_party_said_by_who_is_in_it_is_its_count() {
    for (message, bowlers) in [
        (
            "Reserve a lane for BWL-20417 on Saturday at 7pm, me and two friends",
            3,
        ),
        (
            "BWL-20417 here - a lane Saturday at 7pm for my husband and me",
            2,
        ),
        ("Just me on Saturday at 7pm please, a lane for BWL-20417", 1),
    ] {
        assert_eq!(
            program(message),
            Some(format!(
                r#"reserve_lane(member_id="BWL-20417", date="2026-12-05", time="19:00", bowlers={bowlers})"#
            )),
            "{message}"
        );
    }
}

#[test]
fn a_day_in_ordinal_words_is_its_date() {
    for (message, date) in [
        (
            "Move RES-4471 to the second of January at 6pm",
            "2027-01-02",
        ),
        (
            "Move RES-4471 to December twenty-first at 6pm",
            "2026-12-21",
        ),
    ] {
        assert_eq!(
            program(message),
            Some(format!(
                r#"move_reservation(booking_ref="RES-4471", new_date="{date}", new_time="18:00")"#
            )),
            "{message}"
        );
    }
}

#[test]
fn a_free_text_value_never_takes_another_values_id() {
    let context = Map::new();
    let planned = plan_input(
        &lanes(),
        &PlanInput {
            intent: Some("move_locker"),
            ..PlanInput::new("Please make row C my new locker (BWL-20417).", &context)
        },
    );
    let value = |name: &str| {
        planned
            .facts
            .iter()
            .find(|fact| fact.name == name)
            .map(|fact| fact.value.clone())
    };
    assert_eq!(
        value("member_id"),
        Some(serde_json::json!("BWL-20417")),
        "{:?}",
        planned.facts
    );
    assert_ne!(
        value("locker"),
        Some(serde_json::json!("BWL-20417")),
        "{:?}",
        planned.facts
    );
}

#[test]
fn an_action_named_by_its_word_leads_one_a_value_points_at() {
    // "Friday" fills the move's new date; "cancel" names the cancellation.
    assert_eq!(
        guess("I have to cancel my lane for this Friday.").as_deref(),
        Some("cancel_reservation")
    );
    // "reserve" is the reservation's own word, but the verb of the lane.
    assert_eq!(
        guess("I'd like to reserve a lane").as_deref(),
        Some("reserve_lane")
    );
}

#[test]
fn a_request_to_be_shown_something_is_answered_by_the_read_that_takes_it() {
    for message in ["Can you pull up RES-4471 for me?", "look up RES-4471"] {
        assert_eq!(
            program(message).as_deref(),
            Some(r#"get_reservation(booking_ref="RES-4471")"#),
            "{message}"
        );
    }
}

#[test]
fn a_count_in_words_taken_back_after_its_thing_is_the_later() {
    assert_eq!(
        program("Reserve a lane for BWL-20417 on Saturday at 7pm for five bowlers - no wait, six")
            .as_deref(),
        Some(r#"reserve_lane(member_id="BWL-20417", date="2026-12-05", time="19:00", bowlers=6)"#)
    );
    // "18 Decemb-er 2026" takes nothing back.
    assert_eq!(
        program("Move RES-4471 to 18 December 2026 at 6pm").as_deref(),
        Some(
            r#"move_reservation(booking_ref="RES-4471", new_date="2026-12-18", new_time="18:00")"#
        )
    );
}

#[test]
fn a_list_of_ids_is_one_call_each_and_a_read_asked_beside_a_request_is_answered() {
    assert_eq!(
        program("We can't make either night. Please cancel RES-4471 and RES-4480.").as_deref(),
        Some(
            r#"cancel_reservation(booking_ref="RES-4471"), cancel_reservation(booking_ref="RES-4480")"#
        )
    );
    assert_eq!(
        program("Cancel RES-4471 & RES-4480 please").as_deref(),
        Some(
            r#"cancel_reservation(booking_ref="RES-4471"), cancel_reservation(booking_ref="RES-4480")"#
        )
    );
    assert_eq!(
        program("Cancel RES-4471, and also tell me what time RES-4480 starts").as_deref(),
        Some(
            r#"cancel_reservation(booking_ref="RES-4471"), get_reservation(booking_ref="RES-4480")"#
        )
    );
}
