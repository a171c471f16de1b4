//! Issue 60's behaviours on a skill written here for them (a garden centre's
//! back office, as a Skill Builder export: `0.85 / 0.6 / 0.4` thresholds, a
//! time zone, a never-allowed tool), in words from no conversation set:
//! ids written loosely, dates and times relative to today, a value corrected
//! inside the message, a never-allowed action refused in plain words, and
//! the Builder's thresholds acting on a clear guess.

use adas_nlu::{PlanInput, plan_input};
use adas_skill::model::Skill;
use adas_skill::{Format, load};
use serde_json::Map;

const GARDEN: &str = r#"
id: garden-office
name: Garden Centre Back Office
version: 1.0.0
timezone: Europe/Dublin
mcp_server: "http://127.0.0.1:9/mcp"
problem:
  statement: Staff check plant stock, reserve plants for customers and book deliveries
intents:
  thresholds: {accept: 0.85, clarify: 0.6, reject: 0.4}
  supported:
    - id: plant_stock
      description: How many of a plant are on hand
      examples:
        - How many PLN-2040 do we have?
        - stock level of PLN-1100
        - Are there any PLN-3310 left
      entities:
        - {name: plant_id, type: identifier, required: true}
    - id: reserve_plants
      description: Put plants aside for a customer
      examples:
        - Reserve 4 of PLN-2040 for Mrs Byrne
        - Hold 10 PLN-1100 for a customer
        - Set aside PLN-3310 x2
      entities:
        - {name: plant_id, type: identifier, required: true}
        - {name: quantity, type: integer, required: true}
    - id: book_delivery
      description: Book a delivery slot for an order
      examples:
        - Book a delivery for ORD-55012 on 2027-03-02 at 10:00
        - Schedule delivery of order ORD-55013
      entities:
        - {name: order_id, type: identifier, required: true}
        - {name: day, type: date, required: true}
        - {name: slot, type: time, required: true}
tools:
  - name: plant_stock
    description: How many of a plant are on hand
    read_only: true
    inputs:
      - {name: plant_id, type: string, required: true, pattern: "^PLN-[0-9]{4}$"}
  - name: reserve_plants
    description: Put plants aside for a customer
    inputs:
      - {name: plant_id, type: string, required: true, pattern: "^PLN-[0-9]{4}$"}
      - {name: quantity, type: integer, required: true}
  - name: book_delivery
    description: Book a delivery slot for an order
    inputs:
      - {name: order_id, type: string, required: true, pattern: "^ORD-[0-9]{5}$"}
      - {name: day, type: date, required: true}
      - {name: slot, type: time, required: true}
  - name: write_off_stock
    description: Write off dead plants from the stock count
    inputs:
      - {name: plant_id, type: string, required: true}
policy:
  guardrails:
    never:
      - Never use write_off_stock
  workflows:
    - {name: Stock, trigger: plant_stock, steps: [plant_stock]}
    - {name: Reserve, trigger: reserve_plants, steps: [reserve_plants]}
    - {name: Deliver, trigger: book_delivery, steps: [book_delivery]}
"#;

fn garden() -> Skill {
    let loaded = load(GARDEN, Format::Yaml);
    assert!(
        loaded.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        loaded.diagnostics
    );
    loaded.skill.expect("the garden skill loads")
}

/// The plan's program when the job would act on it at once.
pub(super) fn acted(skill: &Skill, message: &str) -> Option<String> {
    let context = Map::new();
    let planned = plan_input(skill, &PlanInput::new(message, &context));
    planned
        .program
        .filter(|_| planned.detection.confident)
        .map(|program| program.to_string())
}

#[test]
pub(super) fn loose_ids_take_the_shape_the_pattern_gives() {
    let garden = garden();
    for message in [
        "how many pln 2040 do we have",
        "stock level of pln2040",
        "how many of plant 2040 are on hand",
        "How many PLN 20 40 do we have?",
    ] {
        assert_eq!(
            acted(&garden, message).as_deref(),
            Some(r#"plant_stock(plant_id="PLN-2040")"#),
            "{message}"
        );
    }
}

#[test]
pub(super) fn a_value_corrected_in_the_message_is_its_correction() {
    let garden = garden();
    for message in [
        "Reserve 12, no wait, 21 of PLN-2040 for a customer",
        "reserve not 12 — 21 of PLN-2040 for a customer",
    ] {
        assert_eq!(
            acted(&garden, message).as_deref(),
            Some(r#"reserve_plants(plant_id="PLN-2040", quantity=21)"#),
            "{message}"
        );
    }
}

#[test]
pub(super) fn dates_and_times_relative_to_today_fill_their_slots() {
    let garden = garden();
    let context = Map::new();
    let planned = plan_input(
        &garden,
        &PlanInput::new("Book a delivery for ORD-55012 tomorrow at 3pm", &context),
    );
    let program = planned
        .program
        .map(|program| program.to_string())
        .unwrap_or_default();
    let tomorrow = adas_nlu::values::today_in(Some("Europe/Dublin"))
        .checked_add(jiff::Span::new().days(1))
        .expect("a day");
    assert!(
        program.contains(&format!(r#"day="{tomorrow}""#)),
        "{program}"
    );
    assert!(program.contains(r#"slot="15:00""#), "{program}");
}

#[test]
pub(super) fn a_never_allowed_action_is_refused_in_plain_words() {
    let garden = garden();
    let context = Map::new();
    let planned = plan_input(
        &garden,
        &PlanInput::new(
            "could you please write off the dead PLN-2040 plants",
            &context,
        ),
    );
    let refused = planned.detection.out_of_domain.expect("refused");
    assert!(
        refused.message.contains("write off dead plants"),
        "{}",
        refused.message
    );
    // Reading the stock of the same plant is no such request.
    assert_eq!(
        acted(&garden, "how many PLN-2040 plants are on hand?").as_deref(),
        Some(r#"plant_stock(plant_id="PLN-2040")"#)
    );
}

#[test]
pub(super) fn builder_thresholds_act_on_a_clear_guess() {
    let garden = garden();
    let context = Map::new();
    let planned = plan_input(
        &garden,
        &PlanInput::new("please hold 3 of PLN-1100 for a customer", &context),
    );
    assert!(planned.detection.confident, "{:?}", planned.detection);
    assert!(
        planned.detection.confidence >= 0.85,
        "{}",
        planned.detection.confidence
    );
    // Out of domain stays out.
    let planned = plan_input(
        &garden,
        &PlanInput::new("what's the weather in Galway", &context),
    );
    assert!(planned.detection.out_of_domain.is_some());
}

#[test]
pub(super) fn two_values_of_one_kind_go_where_their_words_point() {
    let skill = load(
        r#"
id: depot-moves
mcp_server: "http://127.0.0.1:9/mcp"
problem: {statement: Move pallets between depots}
intents:
  supported:
    - id: move_pallets
      description: Move pallets from one depot to another
      examples: [Move 5 pallets from North to South]
tools:
  - name: move_pallets
    description: Move pallets between depots
    inputs:
      - {name: count, type: integer, required: true}
      - {name: from_depot, type: string, required: true, enum: [north, south, east]}
      - {name: to_depot, type: string, required: true, enum: [north, south, east]}
policy:
  workflows:
    - {name: Move, trigger: move_pallets, steps: [move_pallets]}
"#,
        Format::Yaml,
    )
    .skill
    .expect("loads");
    for message in [
        "please shift 7 pallets from east over to north",
        "shift 7 pallets to north from east",
    ] {
        assert_eq!(
            acted(&skill, message).as_deref(),
            Some(r#"move_pallets(count=7, from_depot="east", to_depot="north")"#),
            "{message}"
        );
    }
}

/// A value its description names ("cab" of `travel (flights, trains, cabs)`)
/// fills the call as a guess: shown in the exact call and confirmed before a
/// side effect runs; one of the value's own words ("term" of `end_of_term`)
/// names it.
#[test]
pub(super) fn an_allowed_value_is_named_by_its_description() {
    let skill = load(
        r#"
id: claims
mcp_server: "http://127.0.0.1:9/mcp"
problem: {statement: File expense claims}
intents:
  supported:
    - id: file_claim
      description: File an expense claim
      examples: [File a claim for $20 of travel, Claim back $45 for meals, I want to claim my hotel]
      entities:
        - {name: amount, type: money, required: true}
        - {name: kind, type: enum, required: true, enum: [travel, lodging, meals, end_of_term]}
tools:
  - name: file_claim
    description: File an expense claim
    inputs:
      - {name: amount, type: money, required: true}
      - name: kind
        type: string
        required: true
        enum: [travel, lodging, meals, end_of_term]
        description: "travel (flights, trains, cabs), lodging (hotels, motels), meals, end_of_term — the last days of a course"
policy:
  workflows:
    - {name: Claim, trigger: file_claim, steps: [file_claim]}
"#,
        Format::Yaml,
    )
    .skill
    .expect("loads");
    for (message, kind) in [
        ("file a claim for the cab to the airport, $31", "travel"),
        ("file a claim of $212 for two nights at a motel", "lodging"),
        (
            "file a claim of $40 for my course, it's the term ending",
            "end_of_term",
        ),
    ] {
        assert_eq!(
            acted(&skill, message),
            Some(format!(
                r#"file_claim(amount={}, kind="{kind}")"#,
                message
                    .split('$')
                    .nth(1)
                    .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
                    .unwrap_or_default()
            )),
            "{message}"
        );
    }
    // Words of two values name neither: the kind is asked.
    let program =
        acted(&skill, "file a claim of $50 for the cab and the motel").unwrap_or_default();
    assert!(!program.contains("kind="), "{program}");
}

#[test]
pub(super) fn a_question_about_what_only_one_lookup_takes_is_answered() {
    // As a Builder export writes it: lookups with no workflow and no
    // `read_only`, a name that says they read.
    let skill = load(
        r#"
id: kilns
mcp_server: "http://127.0.0.1:9/mcp"
problem: {statement: Pottery studio kiln desk}
intents:
  supported:
    - id: firing_progress
      description: Follow a firing of pieces in the kiln
      examples: [How is firing FR-3001 going, Is FR-3002 out of the kiln yet]
      entities: [{name: firing_id, type: identifier, required: true}]
    - id: glaze_stock
      description: How much of a glaze is left
      examples: [How much GL-204 glaze do we have, Any GL-101 left]
      entities: [{name: glaze_id, type: identifier, required: true}]
    - id: book_firing
      description: Book pieces into the next kiln firing
      examples: [Book 4 pieces into the next firing, Put my bowls in the kiln]
      entities: [{name: pieces, type: integer, required: true}]
tools:
  - {name: get_firing, description: A firing's state, inputs: [{name: firing_id, type: string, required: true}]}
  - {name: check_glaze, description: Glaze left, inputs: [{name: glaze_id, type: string, required: true}]}
  - {name: book_firing, description: Book pieces into a firing, inputs: [{name: pieces, type: integer, required: true}]}
policy:
  workflows:
    - {name: Book, trigger: book_firing, steps: [book_firing]}
"#,
        Format::Yaml,
    )
    .skill
    .expect("loads");
    assert_eq!(
        acted(
            &skill,
            "where are we at with FR-3007? any sign of it coming out?"
        )
        .as_deref(),
        Some(r#"get_firing(firing_id="FR-3007")"#)
    );
    // A lookup never becomes the booking its words resemble.
    let program = acted(&skill, "any sign of FR-3007 coming out of the kiln?").unwrap_or_default();
    assert!(!program.contains("book_firing"), "{program}");
}

#[test]
pub(super) fn a_value_said_no_to_is_no_value() {
    let skill = load(
        r#"
id: repairs
mcp_server: "http://127.0.0.1:9/mcp"
problem: {statement: Building repairs desk}
intents:
  supported:
    - id: report_fault
      description: Report a fault in a room
      examples: [Report a broken heater in room 12, The tap in room 4 leaks]
      entities:
        - {name: room, type: integer, required: true}
        - {name: priority, type: enum, required: true, enum: [urgent, routine]}
tools:
  - name: report_fault
    description: Report a fault
    inputs:
      - {name: room, type: integer, required: true}
      - {name: priority, type: string, required: true, enum: [urgent, routine]}
policy:
  workflows:
    - {name: Report, trigger: report_fault, steps: [report_fault]}
"#,
        Format::Yaml,
    )
    .skill
    .expect("loads");
    let program =
        acted(&skill, "report a broken heater in room 12, not urgent").unwrap_or_default();
    assert!(!program.contains("urgent"), "{program}");
    let program =
        acted(&skill, "report a broken heater in room 12, it's urgent").unwrap_or_default();
    assert!(program.contains(r#"priority="urgent""#), "{program}");
}

#[test]
pub(super) fn a_question_about_an_action_done_is_never_the_action() {
    let skill = load(
        r#"
id: plans
mcp_server: "http://127.0.0.1:9/mcp"
problem: {statement: Gym membership plans}
intents:
  supported:
    - id: switch_plan
      description: Switch a membership to another plan
      examples: [Switch M-100 to the gold plan, Move me to silver]
      entities:
        - {name: member_id, type: identifier, required: true}
        - {name: plan, type: enum, required: true, enum: [silver, gold]}
    - id: member_details
      description: Look up a membership
      examples: [Show membership M-100, What plan is M-200 on]
      entities: [{name: member_id, type: identifier, required: true}]
tools:
  - {name: switch_plan, description: Switch plan, inputs: [{name: member_id, type: string, required: true}, {name: plan, type: string, required: true, enum: [silver, gold]}]}
  - {name: get_member, description: A membership, inputs: [{name: member_id, type: string, required: true}]}
policy:
  workflows:
    - {name: Switch, trigger: switch_plan, steps: [switch_plan]}
"#,
        Format::Yaml,
    )
    .skill
    .expect("loads");
    for message in [
        "I switched M-100 to gold this morning, can you check it actually went through?",
        "Switched M-100 to gold yesterday. Did that work?",
    ] {
        let program = acted(&skill, message).unwrap_or_default();
        assert!(!program.contains("switch_plan"), "{message}: {program}");
    }
}

#[test]
pub(super) fn the_date_a_request_replaces_is_not_its_date() {
    let garden = garden();
    let context = Map::new();
    let planned = plan_input(
        &garden,
        &PlanInput::new(
            "Book a delivery for ORD-55012 on the 21st instead of the 20th, at 3pm",
            &context,
        ),
    );
    let program = planned
        .program
        .map(|program| program.to_string())
        .unwrap_or_default();
    assert!(program.contains("-21\""), "{program}");
    assert!(!program.contains("-20\""), "{program}");
}

#[test]
pub(super) fn an_optional_value_is_carried_only_when_named() {
    let skill = load(
        r#"
id: access
mcp_server: "http://127.0.0.1:9/mcp"
problem: {statement: System access requests}
intents:
  supported:
    - id: request_access
      description: Request access to a system
      examples: [Give me access to Murex, I need read access on Bloomberg until Friday]
      entities: [{name: system, type: enum, required: true, enum: [murex, bloomberg]}]
tools:
  - name: request_access
    description: Request access to a system
    inputs:
      - {name: system, type: string, required: true, enum: [murex, bloomberg]}
      - {name: end_date, type: date, required: false}
policy:
  workflows:
    - {name: Access, trigger: request_access, steps: [request_access]}
"#,
        Format::Yaml,
    )
    .skill
    .expect("loads");
    let memory = serde_json::json!({"system": "bloomberg", "end_date": "2027-03-31"});
    let memory = memory.as_object().cloned().unwrap_or_default();
    let context = Map::new();
    let follow = |message: &str| {
        plan_input(
            &skill,
            &PlanInput {
                memory: Some(&memory),
                previous_intent: Some("request_access"),
                ..PlanInput::new(message, &context)
            },
        )
        .program
        .map(|program| program.to_string())
        .unwrap_or_default()
    };
    assert!(follow("same for murex please, same end date").contains("2027-03-31"));
    assert!(!follow("and murex too").contains("2027-03-31"));
    // "Same for …" is the same change: every value of it but the one named.
    assert!(follow("Same for murex.").contains("2027-03-31"));
}

#[test]
pub(super) fn a_value_after_its_inputs_name_is_that_input() {
    let skill = load(
        r#"
id: holds
mcp_server: "http://127.0.0.1:9/mcp"
problem: {statement: Library holds}
intents:
  supported:
    - id: reserve_book
      description: Put a hold on a book
      examples: [Reserve BK-12 for me, Put a hold on BK-3 with my card]
tools:
  - name: reserve_book
    description: Reserve a book for a library card
    inputs:
      - {name: book_id, type: string, required: true, pattern: "^BK-[0-9]+$"}
      - {name: card_id, type: string, required: true, description: The library card}
policy:
  workflows:
    - {name: Hold, trigger: reserve_book, steps: [reserve_book]}
"#,
        Format::Yaml,
    )
    .skill
    .expect("loads");
    let context = Map::new();
    let planned = plan_input(&skill, &PlanInput::new("reserve BK-200 card M-7", &context));
    let program = planned
        .program
        .map(|program| program.to_string())
        .unwrap_or_default();
    assert!(program.contains("card_id=\"M-7\""), "{program}");
    assert!(program.contains("book_id=\"BK-200\""), "{program}");
}
