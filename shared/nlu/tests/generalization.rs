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

/// A message mostly in words the skill never uses, naming nothing it takes,
/// is not its business — refused, not asked about; a name is a value, not
/// a foreign word ("anything by Tolkien").
#[test]
fn a_message_mostly_foreign_is_out_of_domain() {
    for (name, message) in [
        ("home-insurance", "Can you recommend a good plumber?"),
        ("vet-clinic", "My dog ate chocolate, what should I do?"),
        (
            "pharmacy-refills",
            "How many ibuprofen can I take with amoxicillin?",
        ),
    ] {
        let planned = adas_nlu::plan(&skill(name), message, &Map::new(), None);
        assert!(
            planned.detection.out_of_domain.is_some(),
            "{message}: {:?}",
            planned.detection
        );
    }
    let library = skill("library-desk");
    let tolkien = adas_nlu::plan(
        &library,
        "Do you have anything by Tolkien?",
        &Map::new(),
        None,
    );
    assert!(
        tolkien.detection.out_of_domain.is_none(),
        "{:?}",
        tolkien.detection
    );
}

/// Found on the sixth blind round (seen since): a read the message names a
/// value for that no other read takes is answered, not asked about; an id of
/// the input's declared pattern is its value whatever prefixes the examples
/// use; of two ids, the one a statement is about ("NW303 was cancelled") is
/// not the one asked for; "and on HP-10002?" continues the previous request.
#[test]
fn reads_named_by_their_value_and_the_value_asked_about() {
    let courses = skill("course-registrar");
    assert_eq!(
        program(&courses, "What's ECON220 about?").as_deref(),
        Some(r#"course_info(course_code="ECON220")"#)
    );
    assert_eq!(
        program(&courses, "Is there room in ECON220?").as_deref(),
        Some(r#"course_info(course_code="ECON220")"#)
    );
    assert_eq!(
        program(&courses, "Was HIST110 cancelled this term?").as_deref(),
        Some(r#"course_info(course_code="HIST110")"#)
    );
    // A read is never promoted over an action close behind it.
    let flights = skill("flight-desk");
    let seat = adas_nlu::plan(
        &flights,
        "I'd like a different seat on LMP731",
        &Map::new(),
        None,
    );
    assert!(!seat.detection.confident, "{:?}", seat.detection);
    assert_eq!(
        program(
            &flights,
            "NW303 was cancelled and I got rebooked, is NW404 leaving on time?"
        )
        .as_deref(),
        Some(r#"flight_status(flight_number="NW404")"#)
    );
    let insurance = skill("home-insurance");
    assert_eq!(
        follow_up(
            &insurance,
            json!({"policy_number": "HP-10001"}),
            "premium",
            "and on HP-10002?"
        )
        .as_deref(),
        Some(r#"premium(policy_number="HP-10002")"#)
    );
}

/// Found on the seventh blind round (seen since): an allowed value is a value,
/// not a word of the request, whichever intent's example names it, and is
/// read as people write it; an action whose action is not named is no rival
/// to a read; an id is never the sign of an action.
#[test]
fn values_are_values_and_unnamed_actions_no_rivals() {
    let garage = skill("auto-garage");
    assert_eq!(
        program(&garage, "How much is an oil change?").as_deref(),
        Some(r#"quote(service="oil change")"#)
    );
    assert_eq!(
        program(&garage, "book an oil chnage for 2026-12-18").as_deref(),
        Some(r#"book_service(date="2026-12-18", service="oil change")"#)
    );
    let brakes = adas_nlu::plan(&garage, "I need my brakes checked", &Map::new(), None);
    assert_eq!(brakes.detection.intent_id.as_deref(), Some("book_service"));
    assert!(brakes.detection.confident);
    assert!(
        brakes
            .facts
            .iter()
            .any(|fact| fact.name == "service" && fact.value == json!("brake check"))
    );
    let delivery = skill("food-delivery");
    assert_eq!(
        program(
            &delivery,
            "My order FD-8807 is missing the fries, I want $4 back"
        )
        .as_deref(),
        Some(r#"report_problem(order_id="FD-8807", problem="missing item", amount=4)"#)
    );
    let tickets = skill("box-office");
    assert_eq!(
        program(&tickets, "Where's my order TK-7001?").as_deref(),
        Some(r#"order_status(order_id="TK-7001")"#)
    );
    // "I want to take MATH201" is the enrollment's example: a course code
    // alone never makes "take me out of BIO150" an enrollment.
    let courses = skill("course-registrar");
    let out = adas_nlu::plan(
        &courses,
        "Take me out of BIO150, S100203",
        &Map::new(),
        None,
    );
    assert!(
        !(out.detection.confident && out.detection.intent_id.as_deref() == Some("enroll_course")),
        "{:?}",
        out.detection
    );
}

/// Found on the eighth blind round (seen since): a modifier or chat
/// shorthand is never a free-text value by position ("a huge pothole" has no
/// address "huge": the job asks); "and in 60657?" continues the previous
/// request with the value its tool reads.
#[test]
fn no_modifier_is_a_value_and_a_bare_value_continues() {
    let city = skill("city-services");
    for message in ["There's a huge pothole on my street", "pls report grafiti"] {
        let planned = adas_nlu::plan(&city, message, &Map::new(), None);
        assert!(
            !planned.facts.iter().any(|fact| fact.name == "address"),
            "{message}: {:?}",
            planned.facts
        );
    }
    assert_eq!(
        follow_up(
            &city,
            json!({"zip": "60614"}),
            "trash_schedule",
            "and in 60657?"
        )
        .as_deref(),
        Some(r#"trash_schedule(zip="60657")"#)
    );
}

#[test]
fn service_english_names_the_usual_requests() {
    let box_office = skill("box-office");
    assert_eq!(
        program(&box_office, "I want my money back for TK-7001").as_deref(),
        Some(r#"refund_order(order_id="TK-7001")"#)
    );
    let registrar = skill("course-registrar");
    assert_eq!(
        program(
            &registrar,
            "I want to withdraw from HIST110, my student number is S100206"
        )
        .as_deref(),
        Some(r#"drop_course(student_id="S100206", course_code="HIST110")"#)
    );
}

#[test]
fn the_one_read_a_question_names_asks_what_it_needs() {
    let insurance = skill("home-insurance");
    // The claim it needs is asked next, by the missing-input check.
    assert_eq!(
        program(&insurance, "where is my claim at?").as_deref(),
        Some("claim_status()")
    );
    // A question in the skill's words that names no read's subject, or one
    // about something the skill does not know, is still asked about.
    assert_eq!(
        program(&skill("library-desk"), "Do you have anything by Tolkien?"),
        None
    );
    assert_eq!(
        program(&skill("coworking-desk"), "Is the coffee free?"),
        None
    );
    assert_eq!(program(&skill("library-desk"), "my loan"), None);
}

#[test]
fn of_several_dates_the_requests_is_taken_or_confirmed() {
    let storage = skill("self-storage");
    let message = "Hello, I'm renovating my kitchen and the contractor starts on December 15th, \
                   so all my furniture has to go somewhere. Can I rent a medium unit from \
                   2026-12-14? My number is 650-555-0123.";
    assert_eq!(
        program(&storage, message).as_deref(),
        Some(r#"rent_unit(size="medium", start_date="2026-12-14")"#)
    );
    // Neither in the request's sentence nor after a turn: a guess, which a
    // side effect never runs on without the user's yes.
    let planned = adas_nlu::plan(
        &storage,
        "The contractor comes December 15th or 2026-12-14, rent a medium unit",
        &Map::new(),
        None,
    );
    let start = planned
        .facts
        .iter()
        .find(|fact| fact.name == "start_date")
        .expect("a start date");
    assert!(start.guessed, "{start:?}");
}

#[test]
fn a_value_of_a_list_is_one_of_it_or_none() {
    // "make" is no service: the service is asked.
    assert_eq!(
        program(&skill("hair-salon"), "Can I make an appointment?").as_deref(),
        Some("book_appointment()")
    );
}

#[test]
fn no_longer_wanting_is_a_cancellation_and_a_particle_spans_a_value() {
    let salon = skill("hair-salon");
    assert_eq!(
        program(&salon, "I won't need AP-3005 anymore").as_deref(),
        Some(r#"cancel_appointment(appointment_id="AP-3005")"#)
    );
    assert_eq!(
        program(&salon, "Can you push AP-3004 back to 2026-12-20?").as_deref(),
        Some(r#"reschedule_appointment(appointment_id="AP-3004", date="2026-12-20")"#)
    );
    // A named action leads a read whose subject the message never names.
    let message = "Hi there! I've been coming to your salon for years. I have a job interview \
                   coming up, so could you book me a haircut on 2026-12-13? Thanks so much!";
    assert_eq!(
        program(&salon, message).as_deref(),
        Some(r#"book_appointment(service="haircut", date="2026-12-13")"#)
    );
}

#[test]
fn counts_in_words_and_an_action_on_a_reads_subject() {
    let shop = skill("print-shop");
    assert_eq!(
        program(&shop, "Quote me two hundred business cards").as_deref(),
        Some(r#"print_quote(product="business cards", quantity=200)"#)
    );
    assert_eq!(
        program(&shop, "are you guys open saturdays").as_deref(),
        Some("shop_hours()")
    );
    let storage = skill("self-storage");
    // "the balance" is what is paid, not a question of its own …
    assert_eq!(
        program(&storage, "I want to pay the balance on SU-102").as_deref(),
        Some(r#"pay_balance(unit_id="SU-102")"#)
    );
    // … unless the message asks it.
    assert_eq!(
        program(&storage, "What's the balance on SU-102 if I pay now?").as_deref(),
        Some(r#"account_balance(unit_id="SU-102")"#)
    );
    assert_eq!(
        program(&storage, "Got any small storage spaces open?").as_deref(),
        Some(r#"unit_availability(size="small")"#)
    );
}

#[test]
fn a_question_of_how_it_stands_is_read_whatever_the_story_around_it() {
    // The story names a store (a transfer's input) and the question is
    // asked in so many words: the status is read, nothing is transferred.
    let pharmacy = skill("pharmacy-refills");
    let message = "Hello, sorry to bother you. My husband usually handles this but he is \
                   travelling on flight UA 882 until Friday. I just want to know if RX-1002 is \
                   ready to pick up, we live near the riverside store. Thanks!";
    assert_eq!(
        program(&pharmacy, message).as_deref(),
        Some(r#"prescription_status(rx_number="RX-1002")"#)
    );
    // "Good morning" is no pickup slot, and what a sentence tells ("my dress
    // is still with you") is no request of its own.
    let cleaners = skill("dry-cleaning");
    let message = "Good morning! I'm flying out to Denver on Thursday for my sister's wedding \
                   and I just realised my dress is still with you, ticket DC-5005. Can you tell \
                   me if it's ready?";
    assert_eq!(
        program(&cleaners, message).as_deref(),
        Some(r#"order_status(ticket="DC-5005")"#)
    );
    // An order in a sentence of its own still counts.
    let garage = skill("auto-garage");
    let message = "Hello, I dropped off my blue Honda this morning at 8am and the guy at the \
                   desk said maybe by 4pm. My job number is SV-4001. Is it finished yet?";
    assert_eq!(
        program(&garage, message).as_deref(),
        Some(r#"service_status(job_id="SV-4001")"#)
    );
}

#[test]
fn is_it_done_asks_about_a_state() {
    let garage = skill("auto-garage");
    assert_eq!(
        program(&garage, "Is sv-4008 done?").as_deref(),
        Some(r#"service_status(job_id="SV-4008")"#)
    );
    // No job named: the status, which asks for it.
    assert_eq!(
        program(&garage, "Is my car done?").as_deref(),
        Some("service_status()")
    );
    // "done faster" is the rush's description; "is … done?" still reads.
    assert_eq!(
        program(&skill("dry-cleaning"), "Is my order DC-5002 done?").as_deref(),
        Some(r#"order_status(ticket="DC-5002")"#)
    );
}

#[test]
fn a_value_wanted_names_its_action() {
    let salon = skill("hair-salon");
    // Asked for, not asked about: the booking, which asks the day.
    assert_eq!(
        program(&salon, "I'd like a blowout please").as_deref(),
        Some(r#"book_appointment(service="blowout")"#)
    );
    // Asked about: the price.
    assert_eq!(
        program(&salon, "I'd like a blowout, how much is it?").as_deref(),
        Some(r#"service_price(service="blowout")"#)
    );
    assert_eq!(
        program(&salon, "I'd like to know the price of a blowout").as_deref(),
        Some(r#"service_price(service="blowout")"#)
    );
}

#[test]
fn an_action_named_apart_leads_one_named_by_shared_words() {
    let desk = skill("apartment-desk");
    // "guest suite" is a word of the cancellation's examples too; "reserve"
    // is the reservation's alone.
    assert_eq!(
        program(&desk, "Reserve the guest suite for 2026-12-24").as_deref(),
        Some(r#"reserve_amenity(amenity="guest suite", date="2026-12-24")"#)
    );
    assert_eq!(
        program(&desk, "cancel the party room RS-301").as_deref(),
        Some(r#"cancel_reservation(reservation_id="RS-301")"#)
    );
}

#[test]
fn a_persons_name_and_how_people_say_absent_or_visit() {
    let center = skill("childcare-center");
    assert_eq!(
        program(&center, "Allow Dana Cole to pick up CH-105 today").as_deref(),
        Some(r#"authorize_pickup(child_id="CH-105", person="Dana Cole")"#)
    );
    assert_eq!(
        program(&center, "My neighbour Lee Wong will collect CH-103 today").as_deref(),
        Some(r#"authorize_pickup(child_id="CH-103", person="Lee Wong")"#)
    );
    assert_eq!(
        program(&center, "CH-102 will be out sick on 2026-12-10").as_deref(),
        Some(r#"report_absence(child_id="CH-102", date="2026-12-10")"#)
    );
    assert_eq!(
        program(&center, "We'd love to come and look around the center").as_deref(),
        Some("book_tour()")
    );
}

#[test]
fn a_kind_of_an_allowed_value_is_that_value() {
    let desk = skill("apartment-desk");
    let planned = adas_nlu::plan(&desk, "Please fix the fridge in APT-208", &Map::new(), None);
    let issue = planned.facts.iter().find(|fact| fact.name == "issue");
    assert_eq!(
        issue.map(|fact| fact.value.clone()),
        Some(json!("appliance")),
        "{:?}",
        planned.facts
    );
}

#[test]
fn a_story_buys_nothing_and_an_action_asked_for_leads() {
    let transit = skill("transit-pass");
    // "bought" and "last week" are the story, not a weekly pass to buy.
    let message = "Hello! I bought a card at the airport kiosk last week, the receipt says \
                   TC-10007, and I've taken maybe six rides since. How much is left on it?";
    assert_eq!(
        program(&transit, message).as_deref(),
        Some(r#"card_balance(card_id="TC-10007")"#)
    );
    // A pass wanted by the name of what the purchase takes.
    assert_eq!(
        program(&transit, "I want a pass on TC-10002").as_deref(),
        Some(r#"buy_pass(card_id="TC-10002")"#)
    );
    let movers = skill("moving-company");
    assert_eq!(
        program(
            &movers,
            "I'd like to book movers for my 1 bedroom apartment"
        )
        .as_deref(),
        Some(r#"book_move(home_size="1 bedroom")"#)
    );
    assert_eq!(
        program(&movers, "I need to reschedule MV-2005").as_deref(),
        Some(r#"change_move_date(move_id="MV-2005")"#)
    );
    // A cancellation told, not asked for: the booking asked about is read.
    assert_eq!(
        program(
            &skill("coworking-desk"),
            "CW-100 is cancelled, so show me booking CW-103 instead"
        )
        .as_deref(),
        Some(r#"booking_info(booking_id="CW-103")"#)
    );
    // "Mr. Patel" ends no sentence, and late is no late checkout.
    let message = "Hi, I'm the assistant of Mr. Patel, he is in meetings until 4pm and asked me \
                   to check his reservation HB-2002 since he might arrive late with 2 \
                   colleagues. Could you give me the details?";
    assert_eq!(
        program(&skill("hotel-desk"), message).as_deref(),
        Some(r#"booking_details(booking_ref="HB-2002")"#)
    );
}
