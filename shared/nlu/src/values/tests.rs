use super::*;

#[test]
fn relative_dates_read_from_today() {
    // Tuesday 2026-12-01.
    let today = jiff::civil::date(2026, 12, 1);
    for (text, meant) in [
        ("tomorrow at 2pm", "2026-12-02"),
        ("can I come in today", "2026-12-01"),
        ("the day after tomorrow", "2026-12-03"),
        ("next Tuesday", "2026-12-08"),
        ("this tuesday", "2026-12-01"),
        ("on Friday", "2026-12-04"),
        ("on the 9th", "2026-12-09"),
        ("the 1st", "2026-12-01"),
        ("in 3 days", "2026-12-04"),
        ("in two weeks", "2026-12-15"),
        ("a week from today", "2026-12-08"),
        ("until the end of January", "2027-01-31"),
        ("by the end of the month", "2026-12-31"),
        ("yesterday", "2026-11-30"),
        ("the van was late this morning", "2026-12-01"),
        ("oops, the 25th of January", "2027-01-25"),
        ("can someone come by this afternoon", "2026-12-01"),
        ("last Friday", "2026-11-27"),
        ("paid on the 24th", "2026-11-24"),
    ] {
        let found = dates_from(text, today);
        assert_eq!(found.len(), 1, "{text}: {found:?}");
        assert_eq!(found[0].2, meant, "{text}");
    }
    // A weekday said with its date is that date.
    for (text, meant) in [
        ("his last day is Friday 11 December", "2026-12-11"),
        ("on Thursday the 10th", "2026-12-10"),
        ("Thursday, December 10", "2026-12-10"),
    ] {
        let found = dates_from(text, today);
        assert_eq!(found.len(), 1, "{text}: {found:?}");
        assert_eq!(found[0].2, meant, "{text}");
    }
    assert_eq!(dates_from("Friday, Saturday", today).len(), 2);
    let found = dates_from("on the 30th", jiff::civil::date(2026, 12, 31));
    assert_eq!(found[0].2, "2027-01-30");
    let found = dates_from("effective the 18th", today);
    assert_eq!(found[0].2, "2026-12-18");
    assert!(dates_from("I have three items", today).is_empty());
}

#[test]
fn times_of_day_as_people_write_them() {
    for (text, meant) in [
        ("tomorrow at 2pm", "14:00"),
        ("at 9:30 a.m. please", "09:30"),
        ("12am", "00:00"),
        ("14:45", "14:45"),
        ("around noon", "12:00"),
        ("10 PM", "22:00"),
        ("10 in the morning", "10:00"),
        ("at 6 in the evening", "18:00"),
        ("half past ten", "10:30"),
        ("around quarter to four in the afternoon", "15:45"),
        ("from a quarter past 6 pm", "18:15"),
        ("quarter after two", "14:15"),
        ("at 1:30 in the afternoon", "13:30"),
        // One to five o'clock of one digit is the working day's afternoon,
        // written "04:30" or in the morning it is not.
        ("swing by Thursday at 4:30", "16:30"),
        ("the 2:15 boat", "14:15"),
        ("collected at 4:30 this morning", "04:30"),
        ("at 04:30", "04:30"),
        ("at 9:45", "09:45"),
    ] {
        let found = times_in(text);
        assert_eq!(found.len(), 1, "{text}: {found:?}");
        assert_eq!(found[0].2, meant, "{text}");
    }
    assert!(times_in("3 pmts").is_empty() || times_in("3 pmts")[0].2 == "15:00");
    assert!(times_in("I need 2 pieces").is_empty());
}

#[test]
fn dates_in_words() {
    let today = jiff::civil::date(2026, 11, 27);
    let iso = |text: &str| -> Vec<String> {
        dates_from(text, today)
            .into_iter()
            .map(|(_, _, date)| date)
            .collect()
    };
    assert_eq!(iso("2 days off from 28 December 2026"), vec!["2026-12-28"]);
    assert_eq!(iso("on March 3rd, 2027 please"), vec!["2027-03-03"]);
    assert_eq!(iso("from Dec 28th"), vec!["2026-12-28"]);
    assert_eq!(
        iso("on the 4th of january"),
        vec!["2027-01-04"],
        "the next one"
    );
    assert_eq!(iso("31 February 2027"), Vec::<String>::new());
    assert_eq!(iso("room 5 for 3 people"), Vec::<String>::new());
}

#[test]
fn values_as_people_write_them() {
    assert_eq!(
        value_spans("I need my brakes checked", "brake check"),
        vec![(10, 24)]
    );
    assert_eq!(
        value_spans("book an oil chnage", "oil change"),
        vec![(8, 18)]
    );
    assert_eq!(
        value_spans("a brake pad", "brake check"),
        Vec::<(usize, usize)>::new()
    );
    assert_eq!(value_spans("Floor seats", "floor"), vec![(0, 5)]);
    assert_eq!(value_spans("the fifty-amp hookup", "50 amp"), vec![(4, 13)]);
    // A code is written as it is: "order" is no `MAN` (a sense of
    // "man" in the lexicon), "man" is.
    assert!(value_spans("order a laptop", "MAN").is_empty());
    assert_eq!(value_spans("ship to man", "MAN"), vec![(8, 11)]);
}

#[test]
fn small_numbers_in_words() {
    assert_eq!(number_word("Three"), Some(3));
    assert_eq!(number_word("one"), None);
    assert_eq!(number_word("tree"), None);
    assert_eq!(
        numbers_in_words("Quote me two hundred cards"),
        "Quote me 200 cards"
    );
    assert_eq!(numbers_in_words("a dozen posters"), "12 posters");
    assert_eq!(numbers_in_words("half a dozen cards"), "6 cards");
    assert_eq!(numbers_in_words("Five thousand flyers"), "5000 flyers");
    assert_eq!(numbers_in_words("make it 14 grand"), "make it 14000");
    assert_eq!(numbers_in_words("twenty-five chairs"), "25 chairs");
    assert_eq!(numbers_in_words("a pair of tickets"), "2 tickets");
    assert_eq!(numbers_in_words("a couple of days"), "2 days");
    assert_eq!(numbers_in_words("the other one"), "the other one");
    assert_eq!(numbers_in_words("three and a half hours"), "3.5 hours");
    assert_eq!(numbers_in_words("2 and a half days"), "2.5 days");
    assert_eq!(numbers_in_words("a half day"), "a half day");
}

#[test]
fn an_hour_alone_after_at_is_read_on_the_working_day() {
    let hours = |text: &str| -> Vec<String> {
        times_in(text)
            .into_iter()
            .map(|(_, _, time)| time)
            .collect()
    };
    assert_eq!(hours("Book 2 tickets for the 19th at 11."), ["11:00"]);
    assert_eq!(hours("Wednesday the 9th at 10 please"), ["10:00"]);
    assert_eq!(hours("can it happen Friday at 3 instead?"), ["15:00"]);
    // Breakfast or dinner, an evening, a house number, a head count.
    assert!(hours("a table at 7 please").is_empty());
    assert!(hours("dinner on Friday at 8").is_empty());
    assert!(hours("deliver it at 5 Elm Street").is_empty());
    assert!(hours("a room at 10 people max").is_empty());
}
