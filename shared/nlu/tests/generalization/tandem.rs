//! A language-exchange club written here, in words from no conversation
//! set: a name that opens a sentence or stands beside its own email, the
//! names of one list of values shared by the inputs that take it, a count
//! joined to its thing ("a 45-minute call"), and a code that is also a little
//! word ("it") never read from the pronoun.

use adas_nlu::{PlanInput, plan_input};
use adas_skill::{Format, load};
use serde_json::{Map, Value as Json, json};

const TANDEM: &str = r#"
id: tandem-club
name: Tandem Club
version: 1.0.0
mcp_server: "http://127.0.0.1:9/mcp"
problem:
  statement: Members of a language-exchange club find partners and book calls
intents:
  supported:
    - id: join_club
      description: Someone wants to join and be matched with a partner
      examples:
        - I'd like to join and find a partner
        - Sign me up for a language exchange
      entities:
        - {name: member_name, type: string, required: true}
        - {name: email, type: string, required: true}
        - {name: from_language, type: enum, enum: [en, it, de, "no"], required: true}
        - {name: to_language, type: enum, enum: [en, it, de, "no"], required: true}
    - id: book_call
      description: Member wants a practice call with their partner
      examples:
        - Book me a practice call on Friday
        - Set up a call with my partner
      entities:
        - {name: member_id, type: identifier, required: true}
        - {name: minutes, type: integer, required: true}
tools:
  - name: join_club
    description: Register a member and match a partner
    inputs:
      - {name: member_name, type: string, required: true, description: "Member's full name"}
      - {name: email, type: string, required: true, format: email}
      - {name: from_language, type: string, required: true, enum: [en, it, de, "no"], description: "Language spoken: en English, it Italian, de German, no Norwegian"}
      - {name: to_language, type: string, required: true, enum: [en, it, de, "no"], description: "Language to learn (same codes as from_language)"}
  - name: book_call
    description: Book a practice call
    inputs:
      - {name: member_id, type: string, required: true, description: "Member number, e.g. TDM-3301"}
      - {name: minutes, type: integer, required: true, description: "Length of the call"}
policy:
  workflows:
    - {name: Join, trigger: join_club, steps: [join_club]}
    - {name: Call, trigger: book_call, steps: [book_call]}
"#;

/// The values planned for `intent`, by name, with whether each is a guess.
fn values(intent: &str, message: &str) -> Vec<(String, Json, bool)> {
    let skill = load(TANDEM, Format::Yaml)
        .skill
        .expect("the tandem skill loads");
    let context = Map::new();
    plan_input(
        &skill,
        &PlanInput {
            intent: Some(intent),
            ..PlanInput::new(message, &context)
        },
    )
    .facts
    .into_iter()
    .map(|fact| (fact.name, fact.value, fact.guessed))
    .collect()
}

fn value(found: &[(String, Json, bool)], name: &str) -> Option<Json> {
    found
        .iter()
        .find(|(found, _, _)| found == name)
        .map(|(_, value, _)| value.clone())
}

#[test]
fn a_name_opening_a_sentence_or_beside_its_email_is_the_persons() {
    for message in [
        "Happy to join! Giulia Rossi, giulia.rossi@mail.com. I speak Italian and want to learn German.",
        "Hello, I'm Giulia Rossi (giulia.rossi@mail.com) - Italian speaker learning German.",
    ] {
        let found = values("join_club", message);
        assert_eq!(
            value(&found, "member_name"),
            Some(json!("Giulia Rossi")),
            "{message}: {found:?}"
        );
    }
}

#[test]
fn inputs_of_one_list_share_its_names_and_a_little_word_is_no_code() {
    let found = values(
        "join_club",
        "Sign me up, Ola Nordmann, ola@mail.no: practice from Norwegian into Italian. Put it through please.",
    );
    assert_eq!(
        value(&found, "from_language"),
        Some(json!("no")),
        "{found:?}"
    );
    assert_eq!(value(&found, "to_language"), Some(json!("it")), "{found:?}");
    // "Put it through" names no language.
    let found = values("join_club", "Put it through for Ola Nordmann, ola@mail.no");
    assert_eq!(value(&found, "to_language"), None, "{found:?}");
    assert_eq!(value(&found, "from_language"), None, "{found:?}");
}

#[test]
fn a_count_joined_to_its_thing_is_read() {
    let found = values("book_call", "Book a 45-minute call for TDM-3301 please");
    assert_eq!(value(&found, "minutes"), Some(json!(45)), "{found:?}");
}
