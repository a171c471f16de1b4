//! ARCHITECTURE.md's list of event kinds is the code's: a kind added (or
//! renamed) without the document saying so fails here.

use adas_step::EventKind;

#[test]
fn the_architecture_lists_every_event_kind() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../ARCHITECTURE.md"
    ))
    .expect("ARCHITECTURE.md");
    let start = text
        .find("the\n   kinds: ")
        .expect("the list of event kinds");
    let list = &text[start..];
    let list = &list[..list.find(" — ").expect("the list's end")];
    let documented: Vec<&str> = list.split('`').skip(1).step_by(2).collect();
    let kinds: Vec<String> = EventKind::ALL
        .iter()
        .map(|kind| kind.upper_name().to_ascii_lowercase())
        .collect();
    assert_eq!(
        documented, kinds,
        "ARCHITECTURE.md's event kinds, in EventKind::ALL's order"
    );
}
