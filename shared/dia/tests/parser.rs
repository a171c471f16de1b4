//! Parsing: the reference parser's own accepted programs give the same trees
//! (modulo the documented typed literals), malformed input gets positions, and
//! printing round-trips.

use adas_dia::{Arg, Intent, Literal, MAX_DEPTH, Node, Program, parse, parse_value};
use proptest::prelude::*;

fn int(value: i64) -> Node {
    Node::literal(Literal::Int(value))
}

fn text(value: &str) -> Node {
    Node::literal(Literal::Str(value.into()))
}

fn call(name: &str, args: Vec<(&str, Node)>) -> Node {
    Node::Intent(Intent {
        name: name.into(),
        args: args
            .into_iter()
            .map(|(name, value)| Arg {
                name: name.into(),
                value,
            })
            .collect(),
    })
}

fn one(source: &str) -> Node {
    let program = parse(source).unwrap_or_else(|error| panic!("{source}: {error}"));
    assert_eq!(program.elements.len(), 1, "{source}");
    program.elements.into_iter().next().unwrap()
}

#[test]
fn reference_parse_intent_cases() {
    assert_eq!(
        one("move(x=1, y=2)"),
        call("move", vec![("x", int(1)), ("y", int(2))])
    );
    assert_eq!(
        one(r#"schedule(day="Monday", time="10am")"#),
        call(
            "schedule",
            vec![("day", text("Monday")), ("time", text("10am"))]
        )
    );
    assert_eq!(
        one("compute(result=add(a=1, b=2))"),
        call(
            "compute",
            vec![("result", call("add", vec![("a", int(1)), ("b", int(2))]))]
        )
    );
    assert_eq!(
        one("math(v=[1, 2, 3])"),
        call(
            "math",
            vec![(
                "v",
                Node::List {
                    items: vec![int(1), int(2), int(3)]
                }
            )]
        )
    );
    assert_eq!(
        one(r#"fallback(x='hello, world', y="ok")"#),
        call(
            "fallback",
            vec![("x", text("hello, world")), ("y", text("ok"))]
        )
    );
}

#[test]
fn reference_invalid_intent_args_are_errors() {
    for source in [
        "missing_equals(x 1)",
        "partial_assignment(a=1, b)",
        "empty_value(x=, y=2)",
        "missing_key(=1)",
        "missing_value(x=)",
        "double_comma(x=1,,)",
    ] {
        assert!(parse(source).is_err(), "{source} must not parse");
    }
}

#[test]
fn reference_dsl_element_cases() {
    assert_eq!(parse_value("'hello'").unwrap(), text("hello"));
    assert_eq!(parse_value("123").unwrap(), int(123));
    assert_eq!(
        parse_value("[1, 2]").unwrap(),
        Node::List {
            items: vec![int(1), int(2)]
        }
    );
    assert_eq!(one("foo(x=1)"), call("foo", vec![("x", int(1))]));
    assert_eq!(
        parse_value(r#"F("some")"#).unwrap(),
        Node::Fuzzy {
            text: "some".into()
        }
    );
    assert_eq!(
        parse_value(r#"ASK("what?")"#).unwrap(),
        Node::Ask {
            question: "what?".into()
        }
    );
    assert_eq!(
        parse_value(r#"QUERY_FILL("value")"#).unwrap(),
        Node::QueryFill {
            query: "value".into()
        }
    );
    assert_eq!(
        parse_value(r#"QUERY_USER("u?")"#).unwrap(),
        Node::QueryUser { query: "u?".into() }
    );
    assert_eq!(
        parse_value(r#"QUERY_GATHER("orig", "info")"#).unwrap(),
        Node::QueryGather {
            query: "orig".into(),
            sources: "info".into()
        }
    );
    assert_eq!(
        parse_value("SAME_AS_PREVIOUS_INTENT()").unwrap(),
        Node::SameAsPrevious
    );
    assert_eq!(
        parse_value("PROPAGATE_SLOT(x=1, y=foo())").unwrap(),
        Node::PropagateSlots {
            args: vec![
                Arg {
                    name: "x".into(),
                    value: int(1)
                },
                Arg {
                    name: "y".into(),
                    value: call("foo", vec![])
                }
            ]
        }
    );
    assert_eq!(
        parse_value("ABORT_WITH_NEW_INTENTS([foo(), bar(x=2)])").unwrap(),
        Node::AbortWithNewIntents {
            intents: vec![
                Intent::named("foo"),
                Intent {
                    name: "bar".into(),
                    args: vec![Arg {
                        name: "x".into(),
                        value: int(2)
                    }]
                }
            ]
        }
    );
    assert_eq!(parse_value("ABORT()").unwrap(), Node::Abort);
    assert_eq!(
        one(r#"foo(count=ASK("c?"), length=QUERY_FILL("between x and y"))"#),
        call(
            "foo",
            vec![
                (
                    "count",
                    Node::Ask {
                        question: "c?".into()
                    }
                ),
                (
                    "length",
                    Node::QueryFill {
                        query: "between x and y".into()
                    }
                )
            ]
        )
    );
    assert_eq!(
        one("foo(count=4, length=SAME_AS_PREVIOUS_INTENT())"),
        call(
            "foo",
            vec![("count", int(4)), ("length", Node::SameAsPrevious)]
        )
    );
    assert_eq!(
        one(r#"foo(count=F("some"), length=ASK("which length?"))"#),
        call(
            "foo",
            vec![
                (
                    "count",
                    Node::Fuzzy {
                        text: "some".into()
                    }
                ),
                (
                    "length",
                    Node::Ask {
                        question: "which length?".into()
                    }
                )
            ]
        )
    );
}

#[test]
fn reference_invalid_elements() {
    assert_eq!(
        parse("").unwrap(),
        Program::default(),
        "empty input is an empty sequence"
    );
    assert!(parse_value("").is_err());
    assert!(parse_value("PROPAGATE_SLOT(x)").is_err());
    assert!(parse("[1, 2").is_err());
    assert_eq!(parse("12mm").unwrap_err().column, 1);
}

#[test]
fn reference_top_level_values_and_calls_in_lists() {
    // The reference's own cases: a program may be a bare value…
    for (source, expected) in [
        ("123", int(123)),
        ("'hello'", text("hello")),
        (
            "[1, 2]",
            Node::List {
                items: vec![int(1), int(2)],
            },
        ),
    ] {
        assert_eq!(parse(source).unwrap().elements, vec![expected], "{source}");
    }
    // …a reply to an ASK: a value with the slots it also fills…
    let reply = parse("5, PROPAGATE_SLOT(length=12)").unwrap();
    assert_eq!(
        reply.elements,
        vec![
            int(5),
            Node::PropagateSlots {
                args: vec![Arg {
                    name: "length".into(),
                    value: int(12)
                }]
            }
        ]
    );
    // …and a call is a list item whose result takes its place.
    assert_eq!(
        one("add(v=[1, negate(v=2)])"),
        call(
            "add",
            vec![(
                "v",
                Node::List {
                    items: vec![int(1), call("negate", vec![("v", int(2))])]
                }
            )]
        )
    );
    for source in ["123", "[1, negate(v=2)]", "5, PROPAGATE_SLOT(length=12)"] {
        let program = parse(source).unwrap();
        assert_eq!(
            parse(&program.to_string()).unwrap(),
            program,
            "{source} round-trips"
        );
    }
}

#[test]
fn sequences_nesting_and_the_spec_examples() {
    let program =
        parse(r#"retrieve_screw(count=3, length=ASK("What screw length do you need?"))"#).unwrap();
    assert_eq!(
        program.elements[0],
        call(
            "retrieve_screw",
            vec![
                ("count", int(3)),
                (
                    "length",
                    Node::Ask {
                        question: "What screw length do you need?".into()
                    }
                )
            ]
        )
    );
    let program = parse("add(v=1), ABORT(), sys.emitUserMessage(text=\"done\")").unwrap();
    assert_eq!(program.elements.len(), 3);
    assert_eq!(
        parse_value("-2.5e3").unwrap(),
        Node::literal(Literal::Float(-2500.0))
    );
    assert_eq!(
        parse_value("true").unwrap(),
        Node::literal(Literal::Bool(true))
    );
    assert_eq!(
        parse_value(r#""a\"b\\c\n\u{1F600}""#).unwrap(),
        text("a\"b\\c\n\u{1F600}")
    );
}

#[test]
fn sloppy_reference_inputs_are_errors_here() {
    let error = parse(r#"f(x="a" "b")"#).unwrap_err();
    assert_eq!((error.line, error.column), (1, 9));
    let error = parse("foo bar(x=1)").unwrap_err();
    assert_eq!((error.offset, error.column), (4, 5), "{error}");
    assert!(
        parse("ask(\"x\")").is_err(),
        "keywords are case-sensitive: `ask` is a call needing named args"
    );
}

#[test]
fn malformed_inputs_report_positions() {
    let error = parse("f(x=1").unwrap_err();
    assert_eq!((error.offset, error.expected.as_str()), (5, "`,` or `)`"));
    let error = parse("f(x=1))").unwrap_err();
    assert_eq!(error.offset, 6);
    let error = parse("f(x=\"bad \\q escape\")").unwrap_err();
    assert_eq!(error.offset, 9, "{error}");
    let error = parse("ok(a=1),\n  g(y='unterminated)").unwrap_err();
    assert_eq!(
        (error.line, error.column),
        (2, 7),
        "the string starts here: {error}"
    );
    let error = parse("f(x=12mm)").unwrap_err();
    assert!(error.expected.contains("quote"), "{error}");

    let deep = format!("{}{}", "f(x=".repeat(10_000), ")".repeat(10_000));
    let error = parse(&deep).unwrap_err();
    assert!(error.expected.contains(&MAX_DEPTH.to_string()), "{error}");
    let deep_list = format!("f(x={}1{})", "[".repeat(10_000), "]".repeat(10_000));
    assert!(parse(&deep_list).is_err());

    let junk: String = (0..1_000_000u32)
        .map(|n| char::from(b"#@!%^&;:{}|<>~`?"[(n % 16) as usize]))
        .collect();
    let error = parse(&junk).unwrap_err();
    assert_eq!((error.offset, error.line, error.column), (0, 1, 1));
    let too_long = format!("f(x=\"{}\")", "a".repeat(2 * 1024 * 1024));
    assert!(parse(&too_long).unwrap_err().expected.contains("bytes"));
    let error = parse("f(x=1) é").unwrap_err();
    assert_eq!(error.column, 8);
}

fn arb_literal() -> impl Strategy<Value = Literal> {
    prop_oneof![
        any::<i64>().prop_map(Literal::Int),
        (-1.0e12f64..1.0e12).prop_map(Literal::Float),
        any::<bool>().prop_map(Literal::Bool),
        "[ -~\\n\\t\"'\\\\é😀]{0,12}".prop_map(Literal::Str),
    ]
}

fn arb_name() -> impl Strategy<Value = String> {
    "[a-z_][a-z0-9_]{0,6}(\\.[a-z][a-z0-9_]{0,4})?".prop_filter("not a literal keyword", |name| {
        name != "true" && name != "false"
    })
}

fn arb_value() -> impl Strategy<Value = Node> {
    let leaf = prop_oneof![
        arb_literal().prop_map(Node::literal),
        "[ -~]{0,10}".prop_map(|question| Node::Ask { question }),
        "[ -~]{0,10}".prop_map(|query| Node::QueryFill { query }),
        Just(Node::SameAsPrevious),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(
                inner
                    .clone()
                    .prop_filter("no calls in lists", |node| !matches!(node, Node::Intent(_))),
                0..4
            )
            .prop_map(|items| Node::List { items }),
            (
                arb_name(),
                prop::collection::btree_map("[a-z][a-z0-9_]{0,5}", inner, 0..4)
            )
                .prop_filter("no keyword names", |(name, _)| !is_keyword(name))
                .prop_map(|(name, args)| Node::Intent(Intent {
                    name,
                    args: args
                        .into_iter()
                        .map(|(name, value)| Arg { name, value })
                        .collect()
                })),
        ]
    })
}

fn is_keyword(name: &str) -> bool {
    [
        "ASK",
        "QUERY_FILL",
        "QUERY_USER",
        "QUERY_GATHER",
        "F",
        "SAME_AS_PREVIOUS_INTENT",
        "PROPAGATE_SLOT",
        "ABORT",
        "ABORT_WITH_NEW_INTENTS",
    ]
    .contains(&name)
}

proptest! {
    #[test]
    fn print_then_parse_is_identity(elements in prop::collection::vec(
        (arb_name(), prop::collection::btree_map("[a-z][a-z0-9_]{0,5}", arb_value(), 0..4))
            .prop_filter("no keyword names", |(name, _)| !is_keyword(name))
            .prop_map(|(name, args)| Node::Intent(Intent { name, args: args.into_iter().map(|(name, value)| Arg { name, value }).collect() })),
        0..4,
    )) {
        let program = Program { elements };
        let printed = program.to_string();
        let reparsed = parse(&printed).map_err(|error| TestCaseError::fail(format!("{printed}: {error}")))?;
        prop_assert_eq!(&reparsed, &program);
        prop_assert_eq!(Program::from_json(&program.to_json()).unwrap(), program);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = parse(&text);
        let _ = parse_value(&text);
    }
}
