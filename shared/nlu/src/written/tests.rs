//! Tests of the message as the skill writes it.

use super::*;

#[test]
fn a_length_in_years_is_said_in_the_months_the_skill_counts() {
    for (text, meant) in [
        (
            "renew it for two years at $7,200 a year",
            "renew it for 24 months at $7,200 a year",
        ),
        ("for 3 years", "for 36 months"),
        ("extend it for a year", "extend it for 12 months"),
    ] {
        assert_eq!(years_as_months(text), meant, "{text}");
    }
    assert_eq!(years_as_months("$9,000 a year"), "$9,000 a year");
}

fn shapes() -> Vec<IdShape> {
    vec![
        IdShape {
            prefix: "ITM".into(),
            separator: "-".into(),
            digits: (4, 4),
            cues: vec!["item".into()],
        },
        IdShape {
            prefix: "EMP".into(),
            separator: "-".into(),
            digits: (4, 4),
            cues: vec!["staff".into(), "employee".into()],
        },
        IdShape {
            prefix: "SKU".into(),
            separator: "-".into(),
            digits: (5, 5),
            cues: Vec::new(),
        },
    ]
}

#[test]
fn a_day_taken_back_is_the_day_said_last() {
    for (text, meant) in [
        (
            "Push the delivery to Thursday — actually no, make it Friday.",
            "Push the delivery to Friday.",
        ),
        (
            "A grooming on the 8th, no sorry, the 9th.",
            "A grooming on the 9th.",
        ),
        (
            "Three seats for Saturday — sorry, Sunday — at noon",
            "Three seats for Sunday — at noon",
        ),
        (
            "Shift it to Friday morning, no wait, Monday morning",
            "Shift it to Monday morning",
        ),
    ] {
        assert_eq!(corrected(text), meant, "{text}");
    }
    // A day of the month taken back keeps its month.
    assert_eq!(
        corrected("January 4th — no wait, make it the 11th"),
        "January 11th"
    );
    // An hour taken back for one with its half of the day.
    assert_eq!(
        corrected("on the 15th at 9, sorry, make that 11am."),
        "on the 15th at 11am."
    );
    // Two days with no taking back are both kept.
    assert_eq!(corrected("from Friday to Monday"), "from Friday to Monday");
}

#[test]
fn an_id_after_its_name_and_no_is_shaped() {
    assert_eq!(
        ids_as_shaped(&shapes(), "parking on the 9th, staff no. 4021"),
        "parking on the 9th, staff no. EMP-4021"
    );
}

#[test]
fn patterns_give_shapes() {
    assert_eq!(
        shape_of_pattern("^ITM-[0-9]{4}$"),
        Some(("ITM".into(), "-".into(), (4, 4)))
    );
    assert_eq!(
        shape_of_pattern(r"^PO\d{3,6}$"),
        Some(("PO".into(), String::new(), (3, 6)))
    );
    assert_eq!(shape_of_pattern(r"^[A-Z]{3}-\d{4}$"), None);
    assert_eq!(
        shape_of_example("WO-88"),
        Some(("WO".into(), "-".into(), 2))
    );
    assert_eq!(shape_of_example("room12"), None);
}

#[test]
fn loose_ids_take_their_shape() {
    let shapes = shapes();
    for (said, meant) in [
        (
            "pull up the history for item 4471",
            "pull up the history for item ITM-4471",
        ),
        ("itm4471 please", "ITM-4471 please"),
        ("what about itm 4471?", "what about ITM-4471?"),
        ("staff #3307 is off", "staff #EMP-3307 is off"),
        ("sku 88120 in stock?", "SKU-88120 in stock?"),
        ("employee 33 07", "employee EMP-3307"),
    ] {
        assert_eq!(ids_as_shaped(&shapes, said), meant, "{said}");
    }
    // Counts and other numbers stay as they are.
    for said in [
        "order 1000 items of ITM-4471",
        "item 12 of the list",
        "we have 4471 items",
        "staff 3307 units",
    ] {
        let read = ids_as_shaped(&shapes, said);
        assert!(
            !read.contains("EMP-") || said.contains("EMP-"),
            "{said} → {read}"
        );
        assert_eq!(
            read.matches("ITM-").count(),
            said.matches("ITM-").count(),
            "{said} → {read}"
        );
    }
}

#[test]
fn codes_are_read_from_their_names() {
    let names = vec![
        ("boardroom".to_owned(), "RM-04".to_owned()),
        ("north site".to_owned(), "SITE-N".to_owned()),
    ];
    assert_eq!(
        codes_beside_names(&names, "lunch for 12 in the Boardroom please"),
        "lunch for 12 in the Boardroom (RM-04) please"
    );
    assert_eq!(
        codes_beside_names(&names, "move it to the north site"),
        "move it to the north site (SITE-N)"
    );
    assert_eq!(
        codes_beside_names(&names, "the boardrooms"),
        "the boardrooms"
    );
    assert_eq!(
        codes_beside_names(&names, "RM-04, the boardroom"),
        "RM-04, the boardroom"
    );
}

#[test]
fn a_month_named_is_the_latest_one() {
    let today = jiff::civil::date(2026, 12, 1);
    for (said, meant) in [
        ("my payslip for October", "my payslip for 2026-10"),
        ("invoice from last month", "invoice from 2026-11"),
        ("and for March?", "and for 2026-03?"),
        ("December 2025 please", "2025-12 please"),
        ("this month's invoice", "2026-12's invoice"),
    ] {
        assert_eq!(months_as_shaped(said, today), meant, "{said}");
    }
    assert_eq!(months_as_shaped("on October 5th", today), "on October 5th");
    assert_eq!(months_as_shaped("5 October", today), "5 October");
    assert_eq!(
        months_as_shaped("to the 25th of January", today),
        "to the 25th of January"
    );
}

#[test]
fn a_corrected_value_is_its_correction() {
    for (said, meant) in [
        ("send 60, no wait, 16 boxes", "send 16 boxes"),
        ("refund $60 — sorry, $16", "refund $16"),
        ("not 60 — 16 please", "16 please"),
        ("book ITM-4471, I mean ITM-4472", "book ITM-4472"),
        ("make it 20, actually 25", "make it 25"),
        (
            "advance of $900, hmm no, make it $700 please",
            "advance of $700 please",
        ),
    ] {
        assert_eq!(corrected(said), meant, "{said}");
    }
    // Two values that are not one corrected: both stay.
    for said in [
        "move 60 from ITM-4471",
        "I was sorry 3 times",
        "not 60 units",
    ] {
        assert_eq!(corrected(said), said);
    }
}
