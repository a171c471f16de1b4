//! The detector on the patterns of issue 48, on the tuning skill
//! (e2e/conversations/skills/card-services.yaml): typos and chat style,
//! inflection, long messages, questions about past actions, amounts as people
//! write them, and a conversation's memory and follow-ups. The blind sets
//! (e2e/conversations/blind/) are never used here.

use std::path::PathBuf;

use adas_nlu::{PlanInput, plan_input};
use adas_skill::model::Skill;
use adas_skill::{Format, load};
use serde_json::{Map, Value as Json, json};

fn cards() -> Skill {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../e2e/conversations/skills/card-services.yaml");
    load(&std::fs::read_to_string(path).unwrap(), Format::Yaml)
        .skill
        .unwrap()
}

fn object(value: Json) -> Map<String, Json> {
    value.as_object().cloned().unwrap_or_default()
}

/// The plan's program, or `None` when the job would ask which intent.
fn planned(message: &str, memory: Json, previous: Option<&str>) -> Option<String> {
    let skill = cards();
    let context = Map::new();
    let memory = object(memory);
    let planned = plan_input(
        &skill,
        &PlanInput {
            memory: Some(&memory),
            previous_intent: previous,
            ..PlanInput::new(message, &context)
        },
    );
    planned
        .program
        .filter(|_| planned.detection.confident)
        .map(|program| program.to_string())
}

#[test]
fn typos_and_chat_style_are_read() {
    assert_eq!(
        planned("pls unfrese card 4421", json!({}), None).as_deref(),
        Some(r#"unfreeze_card(card="4421")"#)
    );
    assert_eq!(
        planned("wats my balance", json!({}), None).as_deref(),
        Some("account_balance()")
    );
}

#[test]
fn a_long_message_is_judged_by_its_request() {
    let message = "Hello! I'm flying to Lisbon tomorrow on TP 202 at 7:45 and my hotel booking is \
                   88123. My phone is +1 555 010 9999. Before I go, could you please freeze card \
                   9077 since I'm leaving it at home? Thanks a lot!";
    assert_eq!(
        planned(message, json!({}), None).as_deref(),
        Some(r#"freeze_card(card="9077")"#)
    );
}

#[test]
fn a_question_about_a_past_action_is_a_read() {
    assert_eq!(
        planned(
            "is my card 4421 still blocked from when I lost it?",
            json!({}),
            None
        )
        .as_deref(),
        Some(r#"card_status(card="4421")"#)
    );
    assert_eq!(
        planned("did my transfer TR-100 go through?", json!({}), None).as_deref(),
        Some(r#"transfer_status(transfer_id="TR-100")"#)
    );
}

#[test]
fn amounts_as_people_write_them() {
    assert_eq!(
        planned("send 10,000 to ann.lee", json!({}), None).as_deref(),
        Some(r#"transfer_money(recipient="ann.lee", amount=10000)"#)
    );
    assert_eq!(
        planned("raise the limit on 9077 to 4k", json!({}), None).as_deref(),
        Some(r#"raise_limit(card="9077", limit=4000)"#)
    );
}

#[test]
fn follow_ups_lean_on_the_conversation() {
    // "it" is the card the conversation holds.
    assert_eq!(
        planned(
            "ok, then unfreeze it",
            json!({"card": "9077"}),
            Some("card_status")
        )
        .as_deref(),
        Some(r#"unfreeze_card(card="9077")"#)
    );
    // No intent of its own: the previous request with the new value.
    assert_eq!(
        planned(
            "what about 9077?",
            json!({"card": "4421"}),
            Some("card_status")
        )
        .as_deref(),
        Some(r#"card_status(card="9077")"#)
    );
    assert_eq!(
        planned("and 9077 too", json!({"card": "4421"}), Some("freeze_card")).as_deref(),
        Some(r#"freeze_card(card="9077")"#)
    );
    // Without a conversation, "cancel it"-style messages are no request.
    assert_eq!(planned("and 9077 too", json!({}), None), None);
}

#[test]
fn what_the_message_names_wins_over_the_conversation() {
    assert_eq!(
        planned(
            "freeze card 9077",
            json!({"card": "4421"}),
            Some("card_status")
        )
        .as_deref(),
        Some(r#"freeze_card(card="9077")"#)
    );
    // An input the message leaves open comes from the conversation.
    assert_eq!(
        planned("send $25 to bob.ray", json!({"card": "4421"}), None).as_deref(),
        Some(r#"transfer_money(recipient="bob.ray", amount=25)"#)
    );
}

/// A skill of no set (inline): dates and counts as people write them.
#[test]
fn dates_and_counts_in_words_fill_their_slots() {
    let skill = load(
        r#"
id: trips
name: Trips
intents:
  supported:
    - id: book_trip
      description: Traveller wants to book a trip
      examples: ["Book a trip for 2 people on 2027-01-04", "I want to book a trip"]
      entities:
        - {name: date, type: date, required: true}
        - {name: travellers, type: integer, required: true}
tools:
  - name: book_trip
    description: Book a trip
    inputs:
      - {name: date, type: date, required: true}
      - {name: travellers, type: integer, required: true}
policy:
  workflows:
    - {name: Book, trigger: book_trip, steps: [book_trip]}
"#,
        Format::Yaml,
    )
    .skill
    .unwrap();
    let context = Map::new();
    let planned = plan_input(
        &skill,
        &PlanInput::new(
            "I want to book a trip for three people on 4 March 2027",
            &context,
        ),
    );
    assert_eq!(
        planned.program.unwrap().to_string(),
        r#"book_trip(date="2027-03-04", travellers=3)"#
    );
}

/// A skill of the scored sets (seen since their score), as shipped with the
/// harness.
fn skill(name: &str) -> Skill {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../e2e/conversations/skills/{name}.yaml"));
    load(&std::fs::read_to_string(path).unwrap(), Format::Yaml)
        .skill
        .unwrap()
}

/// The program planned for a follow-up after `previous` with `memory`.
fn follow_up(skill: &Skill, memory: Json, previous: &str, message: &str) -> Option<String> {
    let memory = object(memory);
    let context = Map::new();
    plan_input(
        skill,
        &PlanInput {
            memory: Some(&memory),
            previous_intent: Some(previous),
            ..PlanInput::new(message, &context)
        },
    )
    .program
    .map(|program| program.to_string())
}

fn program(skill: &Skill, message: &str) -> Option<String> {
    let planned = adas_nlu::plan(skill, message, &Map::new(), None);
    planned
        .program
        .filter(|_| planned.detection.confident)
        .map(|program| program.to_string())
}

#[test]
fn a_request_after_a_turn_and_its_value_are_the_ones_meant() {
    let pharmacy = skill("pharmacy-refills");
    assert_eq!(
        program(
            &pharmacy,
            "RX-1003 has no refills left, so please refill RX-1002 instead"
        )
        .as_deref(),
        Some(r#"request_refill(rx_number="RX-1002")"#)
    );
    let gym = skill("gym-desk");
    assert_eq!(
        program(&gym, "CL-102 is full, so book CL-101 instead").as_deref(),
        Some(r#"book_class(class_id="CL-101")"#)
    );
    // Of two cards beside their name, the one the action names.
    assert_eq!(
        planned(
            "card 9077 is fine, freeze card 4421 instead",
            json!({}),
            None
        )
        .as_deref(),
        Some(r#"freeze_card(card="4421")"#)
    );
}

#[test]
fn a_negation_is_another_request() {
    let pharmacy = skill("pharmacy-refills");
    assert_eq!(
        program(&pharmacy, "I need a refill").as_deref(),
        Some("request_refill()")
    );
    assert_eq!(
        program(
            &pharmacy,
            "I don't need my refill anymore, please cancel it"
        )
        .as_deref(),
        Some("cancel_refill()")
    );
}

#[test]
fn a_vague_request_is_never_acted_on() {
    let pharmacy = skill("pharmacy-refills");
    assert_eq!(
        program(&pharmacy, "I need help with my prescription RX-1001"),
        None
    );
    let planned = adas_nlu::plan(
        &pharmacy,
        "I have a question about RX-1001",
        &Map::new(),
        None,
    );
    assert!(
        planned.detection.intent_id.is_some(),
        "in domain: clarified, not refused"
    );
    assert!(!planned.detection.confident);
}

#[test]
fn a_date_is_no_count_and_a_fact_no_request() {
    let gym = skill("gym-desk");
    let message = "Hey team! I joined in March 2025 (member M-2050, phone 555-3030) and I've been \
                   loving the 7am classes. My friend Sara recommended the pilates one on Tuesday at \
                   9am. Could you book CL-201 for me? Cheers!";
    assert_eq!(
        program(&gym, message).as_deref(),
        Some(r#"book_class(class_id="CL-201")"#)
    );
    let power = skill("power-account");
    let message = "Hello, I moved into 12 Oak Street on 11/02 and my landlord (phone 555-881-2020) \
                   told me to handle the utilities myself. The meter in the basement shows 12500 \
                   today. My account number is ACC-10002. Could you record that reading for me \
                   please? Thanks a lot, Sam";
    assert_eq!(
        program(&power, message).as_deref(),
        Some(r#"submit_meter_reading(account_number="ACC-10002", reading=12500)"#)
    );
}

#[test]
fn an_incidental_noun_is_no_domain() {
    let vet = skill("vet-clinic");
    let planned = adas_nlu::plan(&vet, "Do you groom cats?", &Map::new(), None);
    assert!(
        planned.detection.out_of_domain.is_some(),
        "{:?}",
        planned.detection
    );
    let parcels = skill("parcel-desk");
    let planned = adas_nlu::plan(
        &parcels,
        "Can you sell me packing boxes?",
        &Map::new(),
        None,
    );
    assert!(
        planned.detection.out_of_domain.is_some(),
        "{:?}",
        planned.detection
    );
}

/// Two wrong side effects the fifth blind round found (EVAL.md), kept fixed.
#[test]
fn a_value_is_the_one_its_action_names_and_a_call_is_made_once() {
    let mobile = skill("mobile-lines");
    // "on" of "on LN-1005" is no roaming value: "turn off" is.
    assert_eq!(
        program(
            &mobile,
            "Turn off roaming on LN-1005 and switch it to the basic plan"
        )
        .as_deref(),
        Some(
            r#"set_roaming(line_id="LN-1005", roaming="off"), change_plan(line_id="LN-1005", plan="basic")"#
        )
    );
    // Asked once in a long message: planned once.
    let message = "Hi, my son has the line LN-1005 and he's going abroad on flight AC 870 on \
                   Friday for 2 weeks. Could you please turn on roaming for his line? Thank you";
    assert_eq!(
        program(&mobile, message).as_deref(),
        Some(r#"set_roaming(line_id="LN-1005", roaming="on")"#)
    );
}

/// A side effect needs its action named: a noun one example of it happens to
/// use is no reason to act ("we have to cancel our stay" is the cancellation's
/// example; "extend my stay" is not a cancellation).
#[test]
fn a_side_effect_needs_its_action_named() {
    let hotel = skill("hotel-desk");
    for message in [
        "extend my stay HB-2005",
        "stay longer on booking HB-2005",
        "Can I stay a bit longer? Booking HB-2005",
    ] {
        let planned = adas_nlu::plan(&hotel, message, &Map::new(), None);
        assert!(
            !planned.detection.confident,
            "{message}: {:?}",
            planned.detection
        );
    }
    // Named as written, in other words of its sense, or by a value only it
    // takes: acted on.
    assert_eq!(
        program(&hotel, "cancel HB-2005").as_deref(),
        Some(r#"cancel_booking(booking_ref="HB-2005")"#)
    );
    assert_eq!(
        program(&hotel, "Please call off my reservation HB-2005").as_deref(),
        Some(r#"cancel_booking(booking_ref="HB-2005")"#)
    );
    assert_eq!(
        program(&skill("car-rental"), "Please drop my booking CR-1007").as_deref(),
        Some(r#"cancel_rental(reservation_id="CR-1007")"#)
    );
    assert_eq!(
        program(&skill("bike-share"), "Please load $30 onto U-5002").as_deref(),
        Some(r#"top_up(account_id="U-5002", amount=30)"#)
    );
    // A fact that only names a thing is no request, in a long message.
    assert_eq!(
        program(
            &hotel,
            "Can I stay an extra few hours on checkout day, until 12pm? Booking HB-2005"
        )
        .as_deref(),
        Some(r#"late_checkout(booking_ref="HB-2005", time="12pm")"#)
    );
}

/// What tells a skill's intents apart: a question word ("where" is the
/// tracking's), the words only one intent's author uses ("cancel", not the
/// desk everyone books), a day as a value, not a topic.
#[test]
fn question_words_and_stated_words_tell_intents_apart() {
    let parcels = skill("parcel-desk");
    let coworking = skill("coworking-desk");
    let asks = |skill: &Skill, message: &str| {
        let planned = adas_nlu::plan(skill, message, &Map::new(), None);
        assert!(
            planned.detection.confident,
            "{message}: {:?}",
            planned.detection
        );
        planned.detection.intent_id.unwrap()
    };
    assert_eq!(asks(&parcels, "where's my package"), "track_parcel");
    assert_eq!(
        asks(&parcels, "redirect my parcel PK-40006"),
        "redirect_parcel"
    );
    assert_eq!(
        asks(&coworking, "I'm sick tomorrow, please cancel my desk"),
        "cancel_desk"
    );
    assert_eq!(
        asks(&coworking, "any desks available?"),
        "desk_availability"
    );
    // The one read that takes the id a past question names answers it.
    assert_eq!(
        program(&coworking, "Has CW-101 been confirmed?").as_deref(),
        Some(r#"booking_info(booking_id="CW-101")"#)
    );
    // Question words never make a message the skill's.
    let weather = adas_nlu::plan(&parcels, "what's the weather like", &Map::new(), None);
    assert!(weather.detection.out_of_domain.is_some());
}

#[path = "generalization/more.rs"]
mod more;

#[path = "generalization/people.rs"]
mod people;

#[path = "generalization/answers.rs"]
mod answers;

#[path = "generalization/glossary.rs"]
mod glossary;

#[path = "generalization/told.rs"]
mod told;

#[path = "generalization/lookups.rs"]
mod lookups;

#[path = "generalization/names.rs"]
mod names;

#[path = "generalization/figures.rs"]
mod figures;

#[path = "generalization/requests.rs"]
mod requests;

#[path = "generalization/lanes.rs"]
mod lanes;

#[path = "generalization/tandem.rs"]
mod tandem;
