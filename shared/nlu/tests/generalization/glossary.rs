//! A skill's own words for its values and its stories, on a skill written
//! here (a ferry office, as a Builder export with a glossary), in words from
//! no conversation set: a value named by its glossary meaning or by its
//! entity's description, "this morning" as today's date, a story whose
//! only fitting action is never told as a story in its examples, and a
//! correction of the previous turn.

use adas_nlu::{PlanInput, plan_input};

use super::people::acted;
use adas_skill::model::Skill;
use adas_skill::{Format, load};
use serde_json::{Map, json};

const FERRY: &str = r#"
id: ferry-office
name: Ferry Office
version: 1.0.0
timezone: Europe/Oslo
mcp_server: "http://127.0.0.1:9/mcp"
description: Crossings, bookings and delay reports for a small ferry company
problem:
  statement: Passengers and staff ask about sailings, book and cancel crossings and report delays
glossary:
  NTH: North crossing to Lundvik (the harbour run)
  STH: South crossing to Brekke (the fjord run)
  ISL: Island crossing to Holmøy (the isle run, the puffer)
intents:
  supported:
    - id: find_sailings
      description: Which sailings a route has on a day
      examples:
        - Sailings on NTH on 2027-03-02?
        - What times does STH go tomorrow
        - show me the ISL timetable for Friday
      entities:
        - {name: route, type: enum, enum: [NTH, STH, ISL], required: true}
        - {name: day, type: date, required: true}
    - id: book_crossing
      description: Book a seat or a cabin on a sailing
      examples:
        - Book PAX-4410 on sailing SL-2201
        - Put passenger PAX-1180 on SL-3003 with a berth
      entities:
        - {name: passenger_id, type: identifier, required: true}
        - {name: sailing_id, type: identifier, required: true}
        - name: cabin
          type: enum
          enum: [deck, berth]
          required: false
          description: deck (a seat outside) or berth (a bunk, a sleeper)
    - id: cancel_booking
      description: A passenger wants a booking given up (plans changed, travelling another way)
      examples:
        - Please cancel FB-1020
        - We won't need booking FB-3301 any more, we'll be driving round
        - Drop FB-2208, I'm taking the bus
      entities:
        - {name: booking_id, type: identifier, required: true}
    - id: report_delay
      description: A sailing left or arrived late and someone wants it on record
      examples:
        - The NTH ferry was 20 minutes late today
        - STH left half an hour behind schedule yesterday
        - ISL came in late again, 15 minutes
      entities:
        - {name: route, type: enum, enum: [NTH, STH, ISL], required: true}
        - {name: day, type: date, required: true}
        - {name: minutes_late, type: integer, required: true}
tools:
  - name: find_sailings
    description: The sailings of a route on a day
    read_only: true
    inputs:
      - {name: route, type: string, required: true, enum: [NTH, STH, ISL]}
      - {name: day, type: date, required: true}
  - name: book_crossing
    description: Book a passenger on a sailing
    inputs:
      - {name: passenger_id, type: string, required: true, pattern: "^PAX-[0-9]{4}$"}
      - {name: sailing_id, type: string, required: true, pattern: "^SL-[0-9]{4}$"}
      - {name: cabin, type: string, required: false, enum: [deck, berth]}
  - name: cancel_booking
    description: Cancel a booking
    inputs:
      - {name: booking_id, type: string, required: true, pattern: "^FB-[0-9]{4}$"}
  - name: report_delay
    description: Record a late sailing
    inputs:
      - {name: route, type: string, required: true, enum: [NTH, STH, ISL]}
      - {name: day, type: date, required: true}
      - {name: minutes_late, type: integer, required: true}
policy:
  workflows:
    - {name: Sailings, trigger: find_sailings, steps: [find_sailings]}
    - {name: Book, trigger: book_crossing, steps: [book_crossing]}
    - {name: Cancel, trigger: cancel_booking, steps: [cancel_booking]}
    - {name: Delay, trigger: report_delay, steps: [report_delay]}
"#;

fn ferry() -> Skill {
    let loaded = load(FERRY, Format::Yaml);
    assert!(
        loaded.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        loaded.diagnostics
    );
    // The glossary and the entity descriptions are read, not only kept.
    assert!(
        !loaded
            .diagnostics
            .iter()
            .any(|d| d.message.contains("glossary") || d.message.contains("description")),
        "{:?}",
        loaded.diagnostics
    );
    loaded.skill.expect("the ferry skill loads")
}

fn today() -> String {
    adas_nlu::values::today_in(Some("Europe/Oslo")).to_string()
}

#[test]
fn a_value_is_named_by_its_glossary_meaning() {
    let ferry = ferry();
    for (message, route) in [
        ("any sailings on the isle run tomorrow?", "ISL"),
        ("sailings to Holmøy tomorrow?", "ISL"),
        ("times for the harbour run tomorrow please", "NTH"),
    ] {
        let tomorrow = adas_nlu::values::today_in(Some("Europe/Oslo"))
            .tomorrow()
            .unwrap()
            .to_string();
        assert_eq!(
            acted(&ferry, message).as_deref(),
            Some(format!(r#"find_sailings(route="{route}", day="{tomorrow}")"#).as_str()),
            "{message}"
        );
    }
}

#[test]
fn a_value_is_named_by_its_entity_description_and_confirmed_before_a_side_effect() {
    let ferry = ferry();
    let context = Map::new();
    let planned = plan_input(
        &ferry,
        &PlanInput::new("book PAX-4410 on SL-2201 with a sleeper", &context),
    );
    let cabin = planned
        .facts
        .iter()
        .find(|fact| fact.name == "cabin")
        .expect("the cabin is read");
    assert_eq!(cabin.value, json!("berth"));
    // A description's word is a guess: a side effect on it asks first.
    assert!(cabin.guessed);
}

#[test]
fn this_morning_is_today() {
    let ferry = ferry();
    assert_eq!(
        acted(&ferry, "The STH ferry was 25 minutes late this morning").as_deref(),
        Some(
            format!(
                r#"report_delay(route="STH", day="{}", minutes_late=25)"#,
                today()
            )
            .as_str()
        )
    );
}

#[test]
fn a_story_acts_only_on_an_action_its_examples_tell_as_stories() {
    let ferry = ferry();
    // Driving round is a cancellation's word, but a cancellation is asked
    // for, never told: the story is a question.
    for message in [
        "No sign of the ferry for FB-3301 this morning, we ended up driving round",
        "Nobody turned up to take FB-3301 across yesterday so we drove round",
    ] {
        assert_eq!(acted(&ferry, message), None, "{message}");
    }
    // A delay is told as a story in its examples: the story is the report.
    assert_eq!(
        acted(&ferry, "The isle run came in 40 minutes late this morning").as_deref(),
        Some(
            format!(
                r#"report_delay(route="ISL", day="{}", minutes_late=40)"#,
                today()
            )
            .as_str()
        )
    );
}

/// The plan for `message` after a turn that acted on `previous` with the
/// values `memory` holds.
fn after(
    skill: &Skill,
    previous: &str,
    memory: serde_json::Value,
    message: &str,
) -> Option<String> {
    let context = Map::new();
    let memory = memory.as_object().cloned().unwrap_or_default();
    let planned = plan_input(
        skill,
        &PlanInput {
            memory: Some(&memory),
            previous_intent: Some(previous),
            ..PlanInput::new(message, &context)
        },
    );
    planned
        .program
        .filter(|_| planned.detection.confident)
        .map(|program| program.to_string())
}

#[test]
fn a_correction_in_the_next_turn_is_the_previous_request_with_its_value() {
    let ferry = ferry();
    let day = "2027-03-02";
    let sailings = json!({"route": "NTH", "day": day});
    for message in [
        "sorry, I meant the isle run, not the harbour run",
        "oops, ISL not NTH",
        "Sorry, wrong route. I meant ISL.",
    ] {
        assert_eq!(
            after(&ferry, "find_sailings", sailings.clone(), message).as_deref(),
            Some(format!(r#"find_sailings(route="ISL", day="{day}")"#).as_str()),
            "{message}"
        );
    }
    let booked = json!({"passenger_id": "PAX-4410", "sailing_id": "SL-2201"});
    assert_eq!(
        after(
            &ferry,
            "book_crossing",
            booked.clone(),
            "oops, wrong one, I meant SL-2202"
        )
        .as_deref(),
        Some(r#"book_crossing(passenger_id="PAX-4410", sailing_id="SL-2202")"#)
    );
    // A day alone corrects the day of the month it was said in.
    let moved = json!({"route": "NTH", "day": "2027-03-02"});
    for message in [
        "sorry, I meant the 3rd, not the 2nd",
        "whoops, I meant the 3rd",
    ] {
        assert_eq!(
            after(&ferry, "find_sailings", moved.clone(), message).as_deref(),
            Some(r#"find_sailings(route="NTH", day="2027-03-03")"#),
            "{message}"
        );
    }
    // Not a correction: a new request is read on its own.
    assert_eq!(
        after(&ferry, "book_crossing", booked, "Please cancel FB-1020").as_deref(),
        Some(r#"cancel_booking(booking_id="FB-1020")"#)
    );
}

const HIRE: &str = r#"
id: hire-shop
name: Tool Hire Counter
version: 1.0.0
timezone: Europe/London
mcp_server: "http://127.0.0.1:9/mcp"
description: Hiring out tools to tradespeople
glossary:
  floor sander: Drum sander for boards, what decorators call a floor buffer
  tile cutter: Wet saw for ceramic and stone
intents:
  supported:
    - id: hire_tool
      description: Someone wants to hire tools for a day
      examples:
        - Can I hire two pressure washers on 2027-03-02?
        - 3 tile cutters for Friday please
      entities:
        - {name: kind, type: enum, enum: [pressure_washer, floor_sander, tile_cutter], required: true}
        - {name: quantity, type: integer, required: true}
        - {name: day, type: date, required: true}
tools:
  - name: hire_tool
    description: Hire tools for a day
    inputs:
      - {name: kind, type: string, required: true, enum: [pressure_washer, floor_sander, tile_cutter]}
      - {name: quantity, type: integer, required: true}
      - {name: day, type: date, required: true}
policy:
  workflows:
    - {name: Hire, trigger: hire_tool, steps: [hire_tool]}
"#;

#[test]
fn a_thing_said_with_its_article_is_one_of_it() {
    let loaded = load(HIRE, Format::Yaml);
    let hire = loaded.skill.expect("the hire skill loads");
    let context = Map::new();
    let facts = |message: &str| {
        // The intent as picked: the values are what is tested here.
        plan_input(
            &hire,
            &PlanInput {
                intent: Some("hire_tool"),
                ..PlanInput::new(message, &context)
            },
        )
        .facts
        .into_iter()
        .map(|fact| (fact.name, fact.value, fact.guessed))
        .collect::<Vec<_>>()
    };
    // "a" counts one (as written); two words running that the glossary
    // says of one value name it ("a wet saw" is the tile cutter, as the
    // skill's author wrote); a single word of it only suggests it (a guess).
    let read = facts("can I hire a floor buffer tomorrow");
    assert!(
        read.contains(&("quantity".into(), json!(1), false)),
        "{read:?}"
    );
    let read = facts("can I hire a wet saw tomorrow");
    assert!(
        read.contains(&("quantity".into(), json!(1), false)),
        "{read:?}"
    );
    assert!(
        read.contains(&("kind".into(), json!("tile_cutter"), false)),
        "{read:?}"
    );
    let read = facts("can I hire something for ceramic tomorrow");
    assert!(
        read.contains(&("kind".into(), json!("tile_cutter"), true)),
        "{read:?}"
    );
    // The count of the message's requests counts no tool.
    let read = facts("Two things: can I hire a wet saw tomorrow, and what do you charge?");
    assert!(
        read.contains(&("quantity".into(), json!(1), false)),
        "{read:?}"
    );
    // "the" counts nothing: how many is asked.
    let read = facts("I need the tile cutter tomorrow");
    assert!(
        !read.iter().any(|(name, _, _)| name == "quantity"),
        "{read:?}"
    );
}

#[test]
fn two_actions_on_two_things_not_each_understood_are_asked_about() {
    let ferry = ferry();
    // Each understood: both done.
    assert_eq!(
        acted(&ferry, "Book PAX-4410 on SL-2201 and also cancel FB-1020").as_deref(),
        Some(
            r#"book_crossing(passenger_id="PAX-4410", sailing_id="SL-2201"), cancel_booking(booking_id="FB-1020")"#
        )
    );
    // The second not understood on its own: read as one request, the
    // booking could take the other's values — asked, never acted on.
    for message in [
        "Book PAX-4410 on SL-2201 and also deal with FB-1020 for me",
        "Book PAX-4410 on SL-2201 and also put FB-1020 on hold",
    ] {
        assert_eq!(acted(&ferry, message), None, "{message}");
    }
}

const YARDS: &str = r#"
id: yard-desk
name: Yard Stock Desk
version: 1.0.0
timezone: Europe/London
mcp_server: "http://127.0.0.1:9/mcp"
description: Moving pallets of stock between our yards
glossary:
  NTH: Fort Ellis, by the ring road
  STH: Cedar Falls, at the docks
intents:
  supported:
    - id: move_pallets
      description: Someone wants pallets of an item moved from one yard to another
      examples:
        - Move 12 pallets of SKU-4410 from NTH to STH
        - Send 5 pallets of SKU-2208 over to STH
      entities:
        - {name: sku, type: identifier, required: true}
        - {name: pallets, type: integer, required: true}
        - {name: from_yard, type: enum, enum: [NTH, STH], required: true}
        - {name: to_yard, type: enum, enum: [NTH, STH], required: true}
tools:
  - name: move_pallets
    description: Move pallets of an item between yards
    inputs:
      - {name: sku, type: string, required: true, pattern: "^SKU-[0-9]{4}$"}
      - {name: pallets, type: integer, required: true}
      - {name: from_yard, type: string, required: true, enum: [NTH, STH], description: "Yard the pallets leave (NTH Fort Ellis, STH Cedar Falls)"}
      - {name: to_yard, type: string, required: true, enum: [NTH, STH], description: "Yard the pallets go to (NTH Fort Ellis, STH Cedar Falls)"}
policy:
  workflows:
    - {name: Move, trigger: move_pallets, steps: [move_pallets]}
"#;

#[test]
fn a_place_named_once_fills_one_slot_unasked() {
    let yards = load(YARDS, Format::Yaml)
        .skill
        .expect("the yard skill loads");
    let context = Map::new();
    // "Fort Ellis" is NTH by the glossary, written once: it may not be read
    // as both ends of the move on the user's word alone.
    for message in [
        "Move 30 pallets of SKU-4410 to Fort Ellis",
        "Could you move 30 pallets of SKU-4410 over to fort ellis",
    ] {
        let facts = plan_input(&yards, &PlanInput::new(message, &context)).facts;
        let said = |name: &str| {
            facts
                .iter()
                .find(|fact| fact.name == name)
                .filter(|fact| !fact.guessed)
                .map(|fact| fact.value.clone())
        };
        assert!(
            said("from_yard").is_none() || said("from_yard") != said("to_yard"),
            "{message}: {facts:?}"
        );
    }
}
