//! A visitor's name among other capitalized words, on a reception desk
//! written here, in words from no conversation set: the run of capitals the
//! skill itself names (its buildings) is no person, and a count whose name
//! says "visitor" never takes a name.

use adas_nlu::{PlanInput, plan_input};
use adas_skill::{Format, load};
use serde_json::Map;

const RECEPTION: &str = r#"
id: reception-desk
name: Reception Desk
version: 1.0.0
timezone: Europe/London
mcp_server: "http://127.0.0.1:9/mcp"
problem:
  statement: Staff of Quayside Group register visitors at River House and Elm Court
intents:
  thresholds: {accept: 0.85, clarify: 0.6, reject: 0.4}
  supported:
    - id: register_visitor
      description: Staff member wants a visitor expected at reception
      examples:
        - Register a visitor for me at River House on Monday
        - Can reception expect my guest at Elm Court tomorrow
      entities:
        - {name: visitor_name, type: string, required: true}
        - {name: building, type: enum, enum: [river_house, elm_court], required: true}
        - {name: visit_date, type: date, required: true}
tools:
  - name: register_visitor
    description: Register a visitor at a building's reception
    inputs:
      - {name: visitor_name, type: string, required: true, description: "Full name of the visitor"}
      - {name: building, type: string, required: true, enum: [river_house, elm_court], description: "river_house (River House) or elm_court (Elm Court)"}
      - {name: visit_date, type: date, required: true}
      - {name: visitor_count, type: integer, required: false, description: "How many people are coming"}
policy:
  workflows:
    - {name: Register, trigger: register_visitor, steps: [register_visitor]}
"#;

#[test]
fn a_visitor_is_the_name_the_skill_does_not_know() {
    let reception = load(RECEPTION, Format::Yaml)
        .skill
        .expect("the reception skill loads");
    let context = Map::new();
    for message in [
        "My plumber, Tomasz Wojcik, is coming to River House on Monday to see me",
        "Our auditor from Quayside Group, Tomasz Wojcik, comes to River House on Monday",
        "Can reception expect Ines Barros at Elm Court tomorrow? Just her",
    ] {
        let facts = plan_input(&reception, &PlanInput::new(message, &context)).facts;
        let name = facts.iter().find(|fact| fact.name == "visitor_name");
        assert!(
            name.is_some_and(|fact| {
                let value = fact.value.as_str().unwrap_or_default();
                (value == "Tomasz Wojcik" || value == "Ines Barros") && !fact.guessed
            }),
            "{message}: {facts:?}"
        );
        assert!(
            !facts
                .iter()
                .any(|fact| fact.name == "visitor_count" && fact.value.is_string()),
            "{message}: {facts:?}"
        );
    }
}

#[test]
fn a_count_with_more_added_is_no_count_said() {
    let reception = load(RECEPTION, Format::Yaml)
        .skill
        .expect("the reception skill loads");
    let context = Map::new();
    let count = |message: &str| {
        plan_input(&reception, &PlanInput::new(message, &context))
            .facts
            .into_iter()
            .find(|fact| fact.name == "visitor_count")
            .map(|fact| (fact.value, fact.guessed))
    };
    // The sum is the user's: never acted on as written.
    let summed =
        "A choir of 18 singers plus their conductor, Maeve Quinn, comes to River House tomorrow";
    assert!(
        count(summed).is_none_or(|(_, guessed)| guessed),
        "{summed}: {:?}",
        count(summed)
    );
}

#[test]
fn the_ones_who_come_along_are_not_the_whole_party() {
    let reception = load(RECEPTION, Format::Yaml)
        .skill
        .expect("the reception skill loads");
    let context = Map::new();
    let message = "I'm bringing two guests to River House tomorrow, the lead is Ada Moreno";
    let count = plan_input(&reception, &PlanInput::new(message, &context))
        .facts
        .into_iter()
        .find(|fact| fact.name == "visitor_count");
    assert!(
        count.as_ref().is_none_or(|fact| fact.guessed),
        "{message}: {count:?}"
    );
}

const CLUB: &str = r#"
id: club-shop
name: Club Shop
version: 1.0.0
timezone: America/Phoenix
mcp_server: "http://127.0.0.1:9/mcp"
problem:
  statement: Members put shop purchases on their account and rent lockers
intents:
  supported:
    - id: charge_account
      description: Member wants a shop purchase put on their account
      examples:
        - Put the $40 glove on my account, MBR-2211
      entities:
        - {name: member_id, type: identifier, required: true}
        - {name: amount, type: number, required: true}
    - id: rent_locker
      description: Member wants a locker for a month or the season
      examples:
        - I'd like a locker for the season, MBR-2211
      entities:
        - {name: member_id, type: identifier, required: true}
        - {name: term, type: enum, enum: [month, season], required: true}
    - id: account
      description: Member asks about their account and what they owe
      examples:
        - What do I owe? MBR-2211
        - Show me my account, member 2211
      entities:
        - {name: member_id, type: identifier, required: true}
tools:
  - name: get_account
    description: Look up a member's account
    read_only: true
    inputs:
      - {name: member_id, type: string, required: true, pattern: "^MBR-[0-9]{4}$", description: "Member card number, MBR-####"}
  - name: charge_account
    description: Charge a purchase to a member's account
    inputs:
      - {name: member_id, type: string, required: true, pattern: "^MBR-[0-9]{4}$", description: "Member card number, MBR-####"}
      - {name: amount, type: number, required: true}
  - name: rent_locker
    description: Rent a locker
    inputs:
      - {name: member_id, type: string, required: true, pattern: "^MBR-[0-9]{4}$", description: "Member card number, MBR-####"}
      - {name: term, type: string, required: true, enum: [month, season], description: "month, or season (through the end of May)"}
policy:
  workflows:
    - {name: Charge, trigger: charge_account, steps: [charge_account]}
    - {name: Locker, trigger: rent_locker, steps: [rent_locker]}
    - {name: Account, trigger: account, steps: [get_account]}
"#;

#[test]
fn an_id_by_its_descriptions_word_and_no_value_from_a_date_or_a_count() {
    let club = load(CLUB, Format::Yaml)
        .skill
        .expect("the club skill loads");
    let context = Map::new();
    let facts = |message: &str| plan_input(&club, &PlanInput::new(message, &context)).facts;
    let value = |message: &str, name: &str| {
        facts(message)
            .into_iter()
            .find(|fact| fact.name == name)
            .map(|fact| fact.value)
    };
    // "card 4417": the description calls it a card number.
    let carded = "I'd like a locker for the season please, card 4417";
    assert_eq!(
        value(carded, "member_id"),
        Some(serde_json::json!("MBR-4417"))
    );
    // May is a month of the year, not the `month` term.
    let may = "Could I have a locker through the end of May? MBR-4417";
    assert_ne!(
        value(may, "term"),
        Some(serde_json::json!("month")),
        "{may}"
    );
    // A count in words is no sum of money.
    let counted = "Put the regrip of eleven of my clubs on my account, MBR-4417";
    assert_ne!(
        value(counted, "amount"),
        Some(serde_json::json!(11)),
        "{counted}"
    );
}

#[test]
fn a_sentence_that_only_gives_a_value_is_no_request_of_its_own() {
    let club = load(CLUB, Format::Yaml)
        .skill
        .expect("the club skill loads");
    let context = Map::new();
    let message = "I'd like a locker for the season. Member 4417.";
    let program = plan_input(&club, &PlanInput::new(message, &context))
        .program
        .map(|program| program.to_string());
    assert_eq!(
        program.as_deref(),
        Some(r#"rent_locker(member_id="MBR-4417", term="season")"#),
        "{message}"
    );
}

const DRIVES: &str = r#"
id: book-drives
name: Book Drives
version: 1.0.0
mcp_server: "http://127.0.0.1:9/mcp"
problem:
  statement: Groups book tables at the town's second-hand book fairs
intents:
  supported:
    - id: book_tables
      description: A group wants tables held for it at a book fair
      examples:
        - Hold 4 tables at the spring fair for our reading circle
        - Can you keep some tables for us at BKF-310?
      entities:
        - {name: fair_id, type: identifier, required: true}
        - {name: group_name, type: string, required: true}
        - {name: tables, type: integer, required: true}
tools:
  - name: hold_tables
    description: Hold tables for a group at a fair
    inputs:
      - {name: fair_id, type: string, required: true, pattern: "^BKF-[0-9]{3}$", description: "Fair code: BKF-310 Brookside Library hall, BKF-322 Millgate Station concourse"}
      - {name: group_name, type: string, required: true, description: "Name of the group"}
      - {name: tables, type: integer, required: true}
policy:
  workflows:
    - {name: Hold, trigger: book_tables, steps: [hold_tables]}
"#;

/// A run of capitals a place was read from, or that stands beside one, is
/// part of a longer name ("Brookside Library Chess Club") — never a name of
/// its own to act on.
#[test]
fn a_name_a_place_was_read_from_is_no_name_of_its_own() {
    let drives = load(DRIVES, Format::Yaml)
        .skill
        .expect("the drives skill loads");
    let context = Map::new();
    for message in [
        "We're the Brookside Library Chess Club. Could you hold 3 tables for us at the fair in our hall?",
        "Please hold 5 tables at the Millgate Station fair for Millgate Poetry Society.",
    ] {
        let facts = plan_input(&drives, &PlanInput::new(message, &context)).facts;
        let group = facts.iter().find(|fact| fact.name == "group_name");
        assert!(
            group.is_none_or(|fact| {
                fact.guessed
                    || fact
                        .value
                        .as_str()
                        .is_some_and(|name| name.split(' ').count() > 2)
            }),
            "{message}: {facts:?}"
        );
    }
}
