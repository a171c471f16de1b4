//! Values read from what a message tells as well as what it asks, on a
//! skill written here (a party-hire desk, as a Skill Builder export), in
//! words from no conversation set: a value the message says does not fit
//! ("too big for …") is none; of two values of one list, the one "instead"
//! follows; a clause that tells how things stand asks nothing; the part a
//! message says something of ("4 of them were chipped") is the count, not
//! the whole it came from; a value named by its own word while the message
//! describes another is a guess. And what anyone assumes of a booking: it
//! lasts an hour when only its start is said, a time without a day is
//! today's, and it is called what the request calls it — each a guess.

use adas_nlu::{PlanInput, plan_input};
use adas_skill::model::Skill;
use adas_skill::{Format, load};
use serde_json::{Map, Value as Json};

const HIRE: &str = r#"
id: party-hire
name: Party Hire Desk
version: 1.0.0
timezone: Europe/London
mcp_server: "http://127.0.0.1:9/mcp"
problem:
  statement: Customers hire marquees and glassware, move deliveries and report breakages
intents:
  thresholds: {accept: 0.85, clarify: 0.6, reject: 0.4}
  supported:
    - id: hire_marquee
      description: Hire a marquee for an event
      examples:
        - Hire a marquee for EVT-3301
        - We need a tent for EVT-3302
      entities:
        - {name: event_id, type: identifier, required: true}
        - {name: size, type: enum, values: [small, large], required: true}
    - id: move_delivery
      description: Move a hire delivery to another day or the other slot
      examples:
        - Move the delivery for HIR-5501 to Friday
        - Can HIR-5502 come in the morning slot
      entities:
        - {name: hire_id, type: identifier, required: true}
        - {name: day, type: date, required: true}
        - {name: slot, type: enum, values: [morning, afternoon], required: true}
    - id: report_breakage
      description: Report glasses or plates from a hire that came back broken or damaged
      examples:
        - Report 3 broken glasses on HIR-5501
        - Some plates from HIR-5502 came back damaged
      entities:
        - {name: hire_id, type: identifier, required: true}
        - {name: items, type: integer, required: true}
        - {name: damage, type: enum, values: [cracked, stained], required: true}
    - id: book_site_visit
      description: Book a site visit with our planner
      examples:
        - Book a site visit on Friday at 10am
        - Can the planner come round on Monday at 2pm
      entities:
        - {name: start_time, type: string, required: true}
tools:
  - name: hire_marquee
    description: Hire a marquee for an event
    inputs:
      - {name: event_id, type: string, required: true, pattern: "^EVT-[0-9]{4}$"}
      - {name: size, type: string, required: true, enum: [small, large], description: "small (up to 30 guests) or large (up to 120 guests)"}
  - name: move_delivery
    description: Move a hire delivery
    inputs:
      - {name: hire_id, type: string, required: true, pattern: "^HIR-[0-9]{4}$"}
      - {name: day, type: date, required: true}
      - {name: slot, type: string, required: true, enum: [morning, afternoon]}
  - name: report_breakage
    description: Report breakages on a hire
    inputs:
      - {name: hire_id, type: string, required: true, pattern: "^HIR-[0-9]{4}$"}
      - {name: items, type: integer, required: true}
      - {name: damage, type: string, required: true, enum: [cracked, stained], description: "cracked (chipped, split, shattered rim) or stained (lipstick, wine marks, cloudy)"}
  - name: book_site_visit
    description: Book a planner's visit to the site
    inputs:
      - {name: title, type: string, required: true}
      - {name: start_time, type: string, required: true, description: "Start time in ISO 8601"}
      - {name: end_time, type: string, required: true, description: "End time in ISO 8601"}
  - name: list_visits
    description: List the planner's visits on a day
    read_only: true
    inputs:
      - {name: date, type: date, required: true}
policy:
  workflows:
    - {name: Marquee, trigger: hire_marquee, steps: [hire_marquee]}
    - {name: Move, trigger: move_delivery, steps: [move_delivery]}
    - {name: Breakage, trigger: report_breakage, steps: [report_breakage]}
    - {name: Visit, trigger: book_site_visit, steps: [book_site_visit]}
"#;

fn hire() -> Skill {
    let loaded = load(HIRE, Format::Yaml);
    assert!(
        loaded.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        loaded.diagnostics
    );
    loaded.skill.expect("the hire skill loads")
}

/// The value the plan gives `name`, and whether it rests on a guess.
fn value(skill: &Skill, message: &str, name: &str) -> Option<(Json, bool)> {
    let context = Map::new();
    let planned = plan_input(skill, &PlanInput::new(message, &context));
    planned
        .facts
        .iter()
        .rev()
        .find(|fact| fact.name == name)
        .map(|fact| (fact.value.clone(), fact.guessed))
}

fn said(value: &str) -> Option<(Json, bool)> {
    Some((Json::String(value.into()), false))
}

#[test]
fn what_does_not_fit_is_no_value_and_instead_names_the_one_wanted() {
    let hire = hire();
    // Too big for the small one: not small; nothing else named, so asked.
    let too_big = "Ninety guests is too big for your small marquee, can we hire one for EVT-3301?";
    assert_eq!(value(&hire, too_big, "size"), None, "{too_big}");
    assert_eq!(
        value(
            &hire,
            "The garden is too narrow for the large one, so hire EVT-3302 the small marquee",
            "size"
        ),
        said("small")
    );
    // Two slots named: the one "instead" follows.
    for message in [
        "The hall is being cleaned Friday morning and nobody will be there — can HIR-5501 come Friday afternoon instead?",
        "Afternoon is no good for us; can HIR-5501 come on Friday in the morning instead?",
    ] {
        let slot = if message.starts_with("The hall") {
            "afternoon"
        } else {
            "morning"
        };
        assert_eq!(value(&hire, message, "slot"), said(slot), "{message}");
    }
    // A change goes to the one after "to", from the one after "from".
    for message in [
        "Move HIR-5501 on Friday from the morning to the afternoon",
        "Please switch HIR-5501 from morning over to afternoon this Friday",
    ] {
        assert_eq!(
            value(&hire, message, "slot"),
            said("afternoon"),
            "{message}"
        );
    }
    // Two slots named with nothing to tell them apart: a guess.
    let both = "Move HIR-5501 to Friday, morning or afternoon";
    assert_eq!(
        value(&hire, both, "slot").map(|(_, guessed)| guessed),
        Some(true),
        "{both}"
    );
}

#[test]
fn a_clause_that_tells_how_things_stand_is_no_request() {
    let hire = hire();
    let context = Map::new();
    let message = "The hall is being cleaned Friday morning and nobody will be there — can HIR-5501 come Friday afternoon instead?";
    let planned = plan_input(&hire, &PlanInput::new(message, &context));
    let program = planned
        .program
        .map(|program| program.to_string())
        .unwrap_or_default();
    assert_eq!(program.matches("move_delivery(").count(), 1, "{program}");
    assert!(program.contains(r#"slot="afternoon""#), "{program}");
}

#[test]
fn the_part_a_message_speaks_of_is_the_count() {
    let hire = hire();
    for (message, items) in [
        (
            "Of the 24 glasses on HIR-5501 we used 10, and 4 of those were chipped. Please report them",
            4,
        ),
        (
            "Out of 60 plates from HIR-5502, 7 of them came back chipped",
            7,
        ),
    ] {
        assert_eq!(
            value(&hire, message, "items"),
            Some((Json::from(items), false)),
            "{message}"
        );
    }
    // No part told: the count beside its name stands.
    assert_eq!(
        value(&hire, "Report 5 glasses on HIR-5501 as chipped", "items"),
        Some((Json::from(5), false))
    );
}

#[test]
fn a_value_named_while_another_is_described_is_a_guess() {
    let hire = hire();
    // "stained" is named, but lipstick and wine marks describe it, and a
    // chipped, split rim describes `cracked`: which one is asked.
    let message = "Six glasses on HIR-5501 aren't just stained — the rims are chipped and split. Report them please";
    assert_eq!(
        value(&hire, message, "damage").map(|(_, guessed)| guessed),
        Some(true),
        "{message}"
    );
    // Named and described alike: no doubt.
    assert_eq!(
        value(
            &hire,
            "Report 6 cracked glasses on HIR-5501, chipped at the rim",
            "damage"
        ),
        said("cracked")
    );
}

#[test]
fn a_booking_told_its_start_lasts_an_hour_today_and_is_called_as_asked() {
    let hire = hire();
    let context = Map::new();
    let message = "Book a site walkthrough with Priya at 3pm";
    let planned = plan_input(&hire, &PlanInput::new(message, &context));
    let today = adas_nlu::values::today_in(Some("Europe/London"));
    let program = planned
        .program
        .map(|program| program.to_string())
        .unwrap_or_default();
    assert!(
        program.contains(&format!(r#"start_time="{today}T15:00""#))
            && program.contains(&format!(r#"end_time="{today}T16:00""#))
            && program.contains(r#"title="Site walkthrough with Priya""#),
        "{program}"
    );
    // Every one of them is a guess: the booking is shown and asked first.
    for name in ["start_time", "end_time", "title"] {
        assert!(
            planned
                .facts
                .iter()
                .any(|fact| fact.name == name && fact.guessed),
            "{name}: {:?}",
            planned.facts
        );
    }
}

#[test]
fn a_length_in_words_is_its_number() {
    // A skill of its own: a number of hours, said in words.
    let skill = load(
        r#"
problem: {statement: Staff book overtime}
intents:
  supported:
    - id: book_overtime
      description: Book overtime hours
      examples: ["Book 3 hours of overtime for STF-1001 on Friday"]
      entities:
        - {name: staff_id, type: identifier, required: true}
        - {name: hours, type: number, required: true}
tools:
  - name: book_overtime
    inputs:
      - {name: staff_id, type: string, required: true, pattern: "^STF-[0-9]{4}$"}
      - {name: hours, type: number, required: true}
policy:
  workflows: [{name: Overtime, trigger: book_overtime, steps: [book_overtime]}]
"#,
        Format::Yaml,
    )
    .skill
    .expect("the skill loads");
    for (message, hours) in [
        ("Book STF-1001 in for overtime on Friday, five hours", 5.0),
        (
            "Book overtime for STF-1001 on Friday evening, four and a half hours",
            4.5,
        ),
    ] {
        let found = value(&skill, message, "hours").map(|(value, _)| value.as_f64());
        assert_eq!(found, Some(Some(hours)), "{message}");
    }
}

#[test]
fn a_length_in_weeks_is_counted_in_the_skills_unit() {
    // A guest house that books nights: "three weeks" is 21, never 3.
    let skill = load(
        r#"
problem: {statement: Guests book rooms}
intents:
  supported:
    - id: book_room
      description: Book a room for some nights
      examples: ["Book room type double for 3 nights from 2027-02-01 for GST-1001"]
      entities:
        - {name: guest_id, type: identifier, required: true}
        - {name: nights, type: integer, required: true}
tools:
  - name: book_room
    inputs:
      - {name: guest_id, type: string, required: true, pattern: "^GST-[0-9]{4}$"}
      - {name: nights, type: integer, required: true}
policy:
  workflows: [{name: Book, trigger: book_room, steps: [book_room]}]
"#,
        Format::Yaml,
    )
    .skill
    .expect("the skill loads");
    for (message, nights) in [
        (
            "Please book GST-1001 a room from the 2nd for three weeks",
            21,
        ),
        ("GST-1001 would like a room for a fortnight from Monday", 14),
        ("Book GST-1001 a three-week stay starting Friday", 21),
    ] {
        assert_eq!(
            value(&skill, message, "nights").map(|(value, _)| value),
            Some(Json::from(nights)),
            "{message}"
        );
    }
}
