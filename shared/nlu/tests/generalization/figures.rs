//! Values written as people write them, on a pension office written here,
//! in words from no conversation set: an id of digits alone after its name
//! (and read out in groups), an id after "no.", a quoted name, "the end of
//! March", "8%", "one copy", "the third floor", an adviser by the name
//! only their description gives.

use adas_nlu::{PlanInput, plan_input};
use adas_skill::{Format, load};
use serde_json::{Map, Value as Json};

const PENSIONS: &str = r#"
id: pension-office
name: Pension Office
version: 1.0.0
timezone: Europe/London
mcp_server: "http://127.0.0.1:9/mcp"
problem:
  statement: Members of the Harbour Pension Scheme manage their pots and payouts
intents:
  thresholds: {accept: 0.85, clarify: 0.6, reject: 0.4}
  supported:
    - id: change_payout_account
      description: Member wants their pension paid into another bank account
      examples:
        - Pay my pension into my new bank account
        - Change my payout account please
      entities:
        - {name: member_id, type: identifier, required: true}
        - {name: sort_code, type: identifier, required: true}
        - {name: account_number, type: identifier, required: true}
    - id: rename_pot
      description: Member wants to give one of their pots a new name
      examples:
        - Rename my pot POT-3301
        - Call my savings pot something else
      entities:
        - {name: pot_id, type: identifier, required: true}
        - {name: pot_name, type: string, required: true}
    - id: set_contribution
      description: Member wants to change how much of their salary goes into the scheme
      examples:
        - Raise my contribution to 6 percent
        - Lower what I pay in each month
      entities:
        - {name: member_id, type: identifier, required: true}
        - {name: contribution_percent, type: integer, required: true}
        - {name: end_date, type: date, required: true}
    - id: order_statements
      description: Member wants paper statements posted to them
      examples:
        - Post me my annual statement
        - Send me printed statements
      entities:
        - {name: member_id, type: identifier, required: true}
        - {name: copies, type: integer, required: true}
    - id: book_visit
      description: Member wants to visit an adviser at the office
      examples:
        - Book me in to see an adviser on Friday
        - Can I come in and talk to someone about retiring
      entities:
        - {name: member_id, type: identifier, required: true}
        - {name: visit_date, type: date, required: true}
        - {name: floor, type: integer, required: true}
        - {name: adviser, type: enum, enum: [ADV1, ADV2], required: false}
tools:
  - name: update_payout_account
    description: Change the bank account payouts go to
    inputs:
      - {name: member_id, type: string, required: true, description: "Member number (e.g. PEN-20481)"}
      - {name: sort_code, type: string, required: true, description: "Six-digit sort code"}
      - {name: account_number, type: string, required: true, description: "Account number, digits only"}
  - name: rename_pot
    description: Give a pot a new name
    inputs:
      - {name: pot_id, type: string, required: true, description: "Pot id (e.g. POT-3301)"}
      - {name: pot_name, type: string, required: true, description: "The new name"}
  - name: set_contribution
    description: Set the share of salary paid in
    inputs:
      - {name: member_id, type: string, required: true, description: "Member number (e.g. PEN-20481)"}
      - {name: contribution_percent, type: integer, required: true}
      - {name: end_date, type: string, required: true, description: "Last day, YYYY-MM-DD"}
  - name: order_statements
    description: Post paper statements
    inputs:
      - {name: member_id, type: string, required: true, description: "Member number (e.g. PEN-20481)"}
      - {name: copies, type: integer, required: true}
  - name: book_visit
    description: Book a visit to an adviser
    inputs:
      - {name: member_id, type: string, required: true, description: "Member number (e.g. PEN-20481)"}
      - {name: visit_date, type: date, required: true}
      - {name: floor, type: integer, required: true, description: "Floor of the adviser, 0 for the ground floor"}
      - {name: adviser, type: string, required: false, enum: [ADV1, ADV2], description: "ADV1 Ms. Ngozi Eze, ADV2 Mr. Tomasz Brzezinski"}
policy:
  workflows:
    - {name: Payout, trigger: change_payout_account, steps: [update_payout_account]}
    - {name: Rename, trigger: rename_pot, steps: [rename_pot]}
    - {name: Contribution, trigger: set_contribution, steps: [set_contribution]}
    - {name: Statements, trigger: order_statements, steps: [order_statements]}
    - {name: Visit, trigger: book_visit, steps: [book_visit]}
"#;

/// The values planned for a message, by name, with whether each is a guess.
fn values(intent: &str, message: &str) -> Vec<(String, Json, bool)> {
    let skill = load(PENSIONS, Format::Yaml)
        .skill
        .expect("the pension skill loads");
    adas_nlu::values::pin_today(jiff::civil::date(2026, 12, 1));
    let context = Map::new();
    let planned = plan_input(
        &skill,
        &PlanInput {
            intent: Some(intent),
            ..PlanInput::new(message, &context)
        },
    );
    planned
        .facts
        .into_iter()
        .map(|fact| (fact.name, fact.value, fact.guessed))
        .collect()
}

fn has(values: &[(String, Json, bool)], name: &str, value: Json) -> bool {
    values
        .iter()
        .any(|(found, was, guessed)| found == name && *was == value && !guessed)
}

#[test]
fn an_id_of_digits_alone_is_read_after_its_name_and_never_takes_another_ids_shape() {
    for message in [
        "Please pay my pension into sort code 404784, account number 31926819 from now on. PEN-20481",
        // Read out in groups, as from a cheque book; the member id right
        // after "account" is still the member's.
        "New bank: sort code 40 47 84, account 3192 6819 - it's a current account. PEN-20481",
    ] {
        let found = values("change_payout_account", message);
        assert!(
            has(&found, "sort_code", Json::from("404784")),
            "{message}: {found:?}"
        );
        assert!(
            has(&found, "account_number", Json::from("31926819")),
            "{message}: {found:?}"
        );
        assert!(
            has(&found, "member_id", Json::from("PEN-20481")),
            "{message}: {found:?}"
        );
    }
    // A count or a year is never an account number.
    let found = values(
        "change_payout_account",
        "After 2019 I had 3 accounts; pay into account 31926819 now, sort code 404784. PEN-20481",
    );
    assert!(
        has(&found, "account_number", Json::from("31926819")),
        "{found:?}"
    );
}

#[test]
fn an_id_after_no_is_its_number_not_a_no() {
    let found = values(
        "order_statements",
        "Could you post me one copy of my statement? Member no. 20481",
    );
    assert!(
        has(&found, "member_id", Json::from("PEN-20481")),
        "{found:?}"
    );
    assert!(has(&found, "copies", Json::from(1)), "{found:?}");
}

#[test]
fn a_quoted_name_is_one_value_whatever_its_words() {
    let found = values(
        "rename_pot",
        r#"Rename POT-3301 to "Sunday Market Fund 2030" please"#,
    );
    assert!(
        has(&found, "pot_name", Json::from("Sunday Market Fund 2030")),
        "{found:?}"
    );
    assert!(has(&found, "pot_id", Json::from("POT-3301")), "{found:?}");
}

#[test]
fn a_percentage_and_the_end_of_a_month_are_read() {
    let found = values(
        "set_contribution",
        "Drop me to 8% until the end of March, then I'll look again. PEN-20481",
    );
    assert!(
        has(&found, "contribution_percent", Json::from(8)),
        "{found:?}"
    );
    assert!(
        has(&found, "end_date", Json::from("2027-03-31")),
        "{found:?}"
    );
}

#[test]
fn a_floor_in_words_is_its_number() {
    for (message, floor) in [
        (
            "Book me with the adviser on the third floor on Friday. PEN-20481",
            3,
        ),
        ("PEN-20481: the ground floor adviser on Friday, please", 0),
    ] {
        let found = values("book_visit", message);
        assert!(
            has(&found, "floor", Json::from(floor)),
            "{message}: {found:?}"
        );
    }
}

#[test]
fn a_name_only_one_values_description_gives_names_it() {
    let found = values(
        "book_visit",
        "Could I see Ms. Eze on Friday? Second floor I think. PEN-20481",
    );
    assert!(has(&found, "adviser", Json::from("ADV1")), "{found:?}");
    assert!(has(&found, "floor", Json::from(2)), "{found:?}");
}

#[test]
fn two_names_of_two_values_leave_the_choice_a_guess() {
    let found = values(
        "book_visit",
        "Could Ms. Eze see me on Friday, or Mr. Brzezinski if she is busy? Second floor. PEN-20481",
    );
    assert!(
        found
            .iter()
            .filter(|(name, _, _)| name == "adviser")
            .all(|(_, _, guessed)| *guessed),
        "{found:?}"
    );
}
