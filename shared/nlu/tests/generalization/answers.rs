//! Lookups and answers as people give them, on a skill written here (a bike
//! workshop, as a Skill Builder export: lookups named by their verbs, one
//! workflow that finds the customer first), in words from no conversation
//! set: an answer read as the skill reads a request's values, and never
//! when it says more than its value; a lookup that would only ask is left
//! out when the request gives what the action needs; of two lookups, the one
//! the request can feed.

use adas_nlu::answered::answer_value;
use adas_nlu::{PlanInput, plan_input};
use adas_skill::model::Skill;
use adas_skill::{Format, load};
use serde_json::{Map, json};

const WORKSHOP: &str = r#"
id: bike-workshop
name: Bike Workshop Desk
version: 1.0.0
timezone: Europe/Amsterdam
mcp_server: "http://127.0.0.1:9/mcp"
problem:
  statement: Staff book bikes in for repair and follow repair jobs
intents:
  thresholds: {accept: 0.85, clarify: 0.6, reject: 0.4}
  supported:
    - id: book_repair
      description: Book a customer's bike in for a repair
      examples:
        - Book a repair for CUS-20411 on 2027-03-02
        - Put Anna Visser's bike in for a service next week
        - I need to book my bike in
      entities:
        - {name: customer_id, type: identifier, required: true}
        - {name: day, type: date, required: true}
    - id: repair_status
      description: How a repair job is getting on
      examples:
        - What's the status of JOB-7710?
        - Is repair JOB-7702 done yet?
        - Where is my repair at
      entities:
        - {name: job_id, type: identifier, required: false}
tools:
  - name: find_customer
    description: Find a customer by name
    inputs:
      - {name: name, type: string, required: true}
  - name: book_repair
    description: Book a bike in for a repair on a day
    inputs:
      - {name: customer_id, type: string, required: true, pattern: "^CUS-[0-9]{5}$", description: "Customer number"}
      - {name: day, type: date, required: true}
      - {name: wheels, type: integer, required: false}
  - name: get_repair_job
    description: Status of one repair job
    inputs:
      - {name: job_id, type: string, required: true, pattern: "^JOB-[0-9]{4}$"}
  - name: list_repair_jobs
    description: A customer's repair jobs with their status
    inputs:
      - {name: customer_id, type: string, required: true, pattern: "^CUS-[0-9]{5}$"}
  - name: charge_card
    description: Charge a card for a finished repair
    inputs:
      - {name: amount, type: number, required: true, description: "Amount in euros"}
policy:
  workflows:
    - {name: Book, trigger: book_repair, steps: [find_customer, book_repair]}
    - {name: Status, trigger: repair_status, steps: [get_repair_job]}
"#;

fn workshop() -> Skill {
    let loaded = load(WORKSHOP, Format::Yaml);
    assert!(
        loaded.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        loaded.diagnostics
    );
    loaded.skill.expect("the workshop skill loads")
}

fn program(skill: &Skill, message: &str) -> Option<String> {
    let context = Map::new();
    let planned = plan_input(skill, &PlanInput::new(message, &context));
    planned
        .program
        .filter(|_| planned.detection.confident)
        .map(|program| program.to_string())
}

#[test]
pub(super) fn an_answer_is_read_as_the_skills_values_are() {
    let workshop = workshop();
    let answer = |field: &str, kind: &str, text: &str| {
        answer_value(&workshop, Some("book_repair"), field, kind, text)
    };
    for text in [
        "oh right, it's cus 20411",
        "cus20411",
        "sure: 20411",
        "CUS-20411 please",
    ] {
        assert_eq!(
            answer("customer_id", "string", text),
            Some(json!("CUS-20411")),
            "{text}"
        );
    }
    assert_eq!(answer("wheels", "integer", "just the two"), Some(json!(2)));
    assert_eq!(answer("amount", "number", "€45.50"), Some(json!(45.5)));
    // More than the value, or a value not of its shape: the words as given.
    for text in [
        "CUS-20411. Sorry, I meant the other customer",
        "20411, no wait",
        "2041",
        "the usual one",
    ] {
        assert_eq!(answer("customer_id", "string", text), None, "{text}");
    }
    assert_eq!(answer("amount", "number", "45 euros 50"), None);
    // Free text is never rewritten here.
    assert_eq!(answer("name", "string", "Anna Visser"), None);
}

#[test]
pub(super) fn a_lookup_that_would_only_ask_is_left_out() {
    let workshop = workshop();
    assert_eq!(
        program(
            &workshop,
            "Please book CUS-20411 in for a repair on 2027-03-02"
        )
        .as_deref(),
        Some(r#"book_repair(customer_id="CUS-20411", day="2027-03-02")"#)
    );
    // Without the customer number the workflow still finds the customer first.
    let context = Map::new();
    let planned = plan_input(
        &workshop,
        &PlanInput::new("Please book a repair on 2027-03-02", &context),
    );
    let program = planned.program.map(|p| p.to_string()).unwrap_or_default();
    assert!(program.starts_with("find_customer("), "{program}");
}

#[test]
pub(super) fn a_question_is_answered_by_the_lookup_it_can_feed() {
    let workshop = workshop();
    assert_eq!(
        program(&workshop, "is JOB-7702 done yet?").as_deref(),
        Some(r#"get_repair_job(job_id="JOB-7702")"#)
    );
    assert_eq!(
        program(
            &workshop,
            "I dropped my bike off on Monday, is the repair done? CUS-20411"
        )
        .as_deref(),
        Some(r#"list_repair_jobs(customer_id="CUS-20411")"#)
    );
}

#[test]
pub(super) fn a_weekday_said_with_its_date_is_that_date() {
    let workshop = workshop();
    adas_nlu::values::pin_today(jiff::civil::date(2026, 12, 1));
    assert_eq!(
        program(
            &workshop,
            "Book CUS-20411 in for a repair on Friday 11 December"
        )
        .as_deref(),
        Some(r#"book_repair(customer_id="CUS-20411", day="2026-12-11")"#)
    );
}

/// A time that names the item ("my 9am lesson") is which one, not where it
/// goes; a free word never fills what may be left out.
#[test]
pub(super) fn a_time_that_names_an_item_is_no_value_to_set() {
    let skill = load(
        r#"
id: lessons
name: Music Lessons
problem: {statement: Students move their music lessons}
intents:
  supported:
    - id: move_lesson
      description: Student wants to move a lesson to another time
      examples: ["Move my 9am lesson to 11am", "Can we push the piano lesson to Friday at 10am?"]
tools:
  - name: list_lessons
    description: A day's lessons
    inputs:
      - {name: day, type: date, required: true}
  - name: move_lesson
    description: Move a lesson
    inputs:
      - {name: lesson_id, type: string, required: true, description: "Lesson id"}
      - {name: start_time, type: string, required: false, description: "New start in ISO 8601"}
      - {name: note, type: string, required: false, description: "A note for the teacher"}
policy:
  workflows:
    - {name: Move, trigger: move_lesson, steps: [list_lessons, move_lesson], required: true}
"#,
        Format::Yaml,
    )
    .skill
    .expect("loads");
    adas_nlu::values::pin_today(jiff::civil::date(2026, 12, 1));
    let context = Map::new();
    let planned = plan_input(
        &skill,
        &PlanInput {
            intent: Some("move_lesson"),
            ..PlanInput::new("Move my 9am lesson tomorrow to 11am", &context)
        },
    );
    assert_eq!(
        planned
            .program
            .map(|program| program.to_string())
            .as_deref(),
        Some(r#"list_lessons(day="2026-12-02"), move_lesson(start_time="2026-12-02T11:00")"#)
    );
}

/// A lookup before a message is the request itself, never needless: "what
/// times are free?" asks the day, it does not answer "done".
#[test]
pub(super) fn a_lookup_before_a_message_is_kept() {
    let skill = load(
        r#"
id: slots
name: Slots
problem: {statement: People ask which times are free}
intents:
  supported:
    - id: free_slots
      description: Which times are free on a day
      examples: ["What times are free on Friday?", "any free slots tomorrow"]
tools:
  - name: check_slots
    description: Free slots of a day
    inputs:
      - {name: date_start, type: string, required: true, description: "Start date in ISO 8601 format"}
policy:
  workflows:
    - {name: Slots, trigger: free_slots, steps: [check_slots, sys.emitUserMessage], required: false}
"#,
        Format::Yaml,
    )
    .skill
    .expect("loads");
    let context = Map::new();
    let planned = plan_input(
        &skill,
        &PlanInput {
            intent: Some("free_slots"),
            ..PlanInput::new("What times are free?", &context)
        },
    );
    let program = planned.program.map(|p| p.to_string()).unwrap_or_default();
    assert!(program.starts_with("check_slots("), "{program}");
}

/// A number in the request that the action would not use ("… for 45") says
/// the action is not understood: asked, never acted on. Numbers of a story
/// before it, and the values the action takes, say nothing of the kind.
#[test]
pub(super) fn a_number_the_action_leaves_unused_is_asked_about() {
    let workshop = workshop();
    assert_eq!(
        program(
            &workshop,
            "Please book a repair for CUS-20411 on 2027-03-02, for 45"
        ),
        None
    );
    assert_eq!(
        program(
            &workshop,
            "The chain snapped after 40 km and 3 hills. Please book a repair for CUS-20411 on 2027-03-02"
        )
        .as_deref(),
        Some(r#"book_repair(customer_id="CUS-20411", day="2027-03-02")"#)
    );
}
