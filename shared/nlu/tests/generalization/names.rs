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
