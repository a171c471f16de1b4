use super::*;
use serde_json::json;

fn spec(name: &str, kind: &str) -> EntitySpec {
    EntitySpec {
        name: name.into(),
        kind: Some(kind.into()),
        required: true,
        allowed: Vec::new(),
        description: None,
        extract_from: None,
    }
}

fn intent(entities: Vec<EntitySpec>, examples: &[&str]) -> Intent {
    Intent {
        id: "i".into(),
        description: None,
        examples: examples.iter().map(|e| (*e).to_owned()).collect(),
        entities,
        maps_to_workflow: None,
        reply: None,
    }
}

fn values(intent: &Intent, message: &str) -> Vec<(String, Json)> {
    extract(
        &adas_skill::model::Skill::default(),
        intent,
        message,
        &Map::new(),
        &Vocabulary::default(),
    )
    .into_iter()
    .map(|entity| (entity.name, entity.value))
    .collect()
}

#[test]
fn types() {
    let all = intent(
        vec![
            spec("email", "email"),
            spec("phone", "phone"),
            spec("count", "integer"),
            spec("amount", "money"),
            spec("day", "date"),
            spec("ok", "boolean"),
        ],
        &[],
    );
    let found = values(
        &all,
        "mail bob@gmail.com or call +1-555-123-4567, 3 items for $49.50 on 2026-11-30, yes",
    );
    assert_eq!(
        found,
        vec![
            ("email".into(), json!("bob@gmail.com")),
            ("phone".into(), json!("+1-555-123-4567")),
            ("count".into(), json!(3)),
            ("amount".into(), json!(49.5)),
            ("day".into(), json!("2026-11-30")),
            ("ok".into(), json!(true)),
        ]
    );
}

#[test]
fn the_verb_is_never_the_value_and_guesses_are_marked() {
    let skill: adas_skill::model::Skill = serde_json::from_value(json!({
        "problem": {"statement": "Reserve rooms"},
        "intents": {"supported": [{"id": "reserve_room", "description": "Student wants to reserve a room",
            "examples": ["Reserve room 4 for 2 people"]}]},
        "tools": [{"name": "reserve_room", "inputs": [
            {"name": "room", "type": "string", "pattern": "^[0-9]{1,3}$"},
            {"name": "people", "type": "integer"}]}]
    }))
    .unwrap();
    let vocabulary = Vocabulary::of(&skill);
    let slots: Vec<Slot> = skill.tools[0].inputs.iter().map(Slot::of_input).collect();
    let read = |message: &str| -> Vec<(String, Json, bool)> {
        extract_slots(&slots, message, &[], &[], &vocabulary)
            .into_iter()
            .map(|entity| (entity.name, entity.value, entity.guessed))
            .collect()
    };
    // "room 5": beside its name; nothing is "reserve".
    assert_eq!(
        read("I'd like to reserve room 5"),
        vec![("room".into(), json!("5"), false)]
    );
    // "study" fails the pattern; "3 people" is the people, not the room.
    assert_eq!(
        read("Book a study room for 3 people"),
        vec![("people".into(), json!(3), false)]
    );
    // Without a pattern a plain word is a guess, and never a vocabulary word.
    let plain: Vec<Slot> = vec![Slot {
        name: "service".into(),
        kind: Some("string".into()),
        allowed: Vec::new(),
        pattern: None,
        cues: Vec::new(),
        aliases: Vec::new(),
    }];
    let guessed = extract_slots(
        &plain,
        "look at the checkout service",
        &[],
        &[],
        &vocabulary,
    );
    assert_eq!(
        (guessed[0].value.clone(), guessed[0].guessed),
        (json!("checkout"), true)
    );
    let guessed = extract_slots(&plain, "what about payments", &[], &[], &vocabulary);
    assert_eq!(
        (guessed[0].value.clone(), guessed[0].guessed),
        (json!("payments"), true)
    );
    assert!(extract_slots(&plain, "reserve it", &[], &[], &vocabulary).is_empty());
}

#[test]
fn identifiers_enums_and_explicit_forms() {
    let orders = intent(
        vec![spec("order_id", "identifier")],
        &["Where is my order ORD-12345?"],
    );
    assert_eq!(
        values(&orders, "what about ord-777 please"),
        vec![("order_id".into(), json!("ORD-777"))]
    );
    assert_eq!(
        values(&orders, "order_id=ORD-9"),
        vec![("order_id".into(), json!("ORD-9"))]
    );
    assert_eq!(
        values(&orders, "my order number is A1B2"),
        vec![("order_id".into(), json!("A1B2"))]
    );
    let env = intent(
        vec![EntitySpec {
            name: "environment".into(),
            kind: Some("enum".into()),
            required: true,
            allowed: vec![json!("staging"), json!("production")],
            description: None,
            extract_from: None,
        }],
        &[],
    );
    assert_eq!(
        values(&env, "restart it in Production"),
        vec![("environment".into(), json!("production"))]
    );
    // A code is named as written, never by a sense of a word ("order" is a
    // kind of "man" in the lexicon).
    let office = intent(
        vec![EntitySpec {
            name: "site".into(),
            kind: Some("enum".into()),
            required: true,
            allowed: vec![json!("CWF"), json!("MAN")],
            description: None,
            extract_from: None,
        }],
        &[],
    );
    assert_eq!(values(&office, "order laptop"), vec![]);
    assert_eq!(
        values(&office, "send it to man please"),
        vec![("site".into(), json!("MAN"))]
    );
    let named = intent(vec![spec("email", "string")], &[]);
    assert_eq!(
        values(&named, "I'm john@example.com"),
        vec![("email".into(), json!("john@example.com"))]
    );
}
