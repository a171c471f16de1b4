//! Generalization, continued.

use super::*;

/// A message mostly in words the skill never uses, naming nothing it takes,
/// is not its business — refused, not asked about; a name is a value, not
/// a foreign word ("anything by Tolkien").
#[test]
pub(super) fn a_message_mostly_foreign_is_out_of_domain() {
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
pub(super) fn reads_named_by_their_value_and_the_value_asked_about() {
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
pub(super) fn values_are_values_and_unnamed_actions_no_rivals() {
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
pub(super) fn no_modifier_is_a_value_and_a_bare_value_continues() {
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
pub(super) fn service_english_names_the_usual_requests() {
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
pub(super) fn the_one_read_a_question_names_asks_what_it_needs() {
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
pub(super) fn of_several_dates_the_requests_is_taken_or_confirmed() {
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
pub(super) fn a_value_of_a_list_is_one_of_it_or_none() {
    // "make" is no service: the service is asked.
    assert_eq!(
        program(&skill("hair-salon"), "Can I make an appointment?").as_deref(),
        Some("book_appointment()")
    );
}

#[test]
pub(super) fn no_longer_wanting_is_a_cancellation_and_a_particle_spans_a_value() {
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
pub(super) fn counts_in_words_and_an_action_on_a_reads_subject() {
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
pub(super) fn a_question_of_how_it_stands_is_read_whatever_the_story_around_it() {
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
pub(super) fn is_it_done_asks_about_a_state() {
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
pub(super) fn a_value_wanted_names_its_action() {
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
pub(super) fn an_action_named_apart_leads_one_named_by_shared_words() {
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
pub(super) fn a_persons_name_and_how_people_say_absent_or_visit() {
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
pub(super) fn a_kind_of_an_allowed_value_is_that_value() {
    let desk = skill("apartment-desk");
    let planned = adas_nlu::plan(&desk, "Please fix the fridge in APT-208", &Map::new(), None);
    let issue = planned.facts.iter().find(|fact| fact.name == "issue");
    assert_eq!(
        issue.map(|fact| fact.value.clone()),
        Some(json!("appliance")),
        "{:?}",
        planned.facts
    );
    // The lexicon's sense of the word, not the person's: a guess, so a side
    // effect on it is confirmed first.
    assert!(
        issue.is_some_and(|fact| fact.guessed),
        "{:?}",
        planned.facts
    );
    // …wherever the job reads it from.
    let read: Vec<_> = planned
        .detection
        .entities
        .iter()
        .filter(|entity| entity.name == "issue")
        .collect();
    assert!(
        !read.is_empty() && read.iter().all(|entity| entity.guessed),
        "{:?}",
        planned.detection.entities
    );
}

#[test]
pub(super) fn a_story_buys_nothing_and_an_action_asked_for_leads() {
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
