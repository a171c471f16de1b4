//! Every grammar a skill writes inside one string is bounded before it is
//! parsed: a small document whose one string nests a thousand levels is an
//! error at that string's line:col, and loading it does not overflow the
//! stack (this test runs on a 256 KiB thread to prove no parser recursed).

use adas_skill::diagnostics::codes;
use adas_skill::load_detected;

fn deep(levels: usize) -> String {
    format!("{}$.status{}", "(".repeat(levels), ")".repeat(levels))
}

/// `(path, code, line)` of the document's errors, loaded on a small stack.
fn errors(source: String) -> Vec<(String, &'static str, u32)> {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            load_detected(&source, Some("s.yaml"))
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(|d| (d.path.clone(), d.code, d.line))
                .collect()
        })
        .unwrap()
        .join()
        .expect("loading never overflows the stack")
}

#[test]
fn deep_and_long_expressions_are_errors_at_their_line() {
    let source = format!(
        r#"problem: {{statement: "Look people up"}}
intents:
  supported: [{{id: find, examples: ["find a user"]}}]
tools:
  - name: lookup
    inputs:
      - {{name: code, type: string, pattern: '{pattern}'}}
    policy:
      requires_approval: conditional
      condition: "{long}"
grant_mappings:
  - tool: lookup
    grants:
      - key: user.id
        value_from: "{path}"
        condition: '{deep}'
triggers:
  - {{id: t, type: schedule, every: "P{duration}D", prompt: "check"}}
"#,
        pattern = "(".repeat(40) + &")".repeat(40),
        long = "amount > 1 and ".repeat(200) + "amount > 1",
        path = "$".to_owned() + &"[".repeat(500),
        deep = deep(1000),
        duration = "1".repeat(100),
    );
    assert!(source.len() < 16 * 1024, "a small document");
    let errors = errors(source);
    for (path, code, line) in [
        ("tools[0].inputs[0].pattern", codes::INVALID_VALUE, 7),
        ("tools[0].policy.condition", codes::INVALID_CONDITION, 10),
        (
            "grant_mappings[0].grants[0].value_from",
            codes::INVALID_VALUE,
            15,
        ),
        (
            "grant_mappings[0].grants[0].condition",
            codes::INVALID_CONDITION,
            16,
        ),
        ("triggers[0].every", codes::INVALID_VALUE, 18),
    ] {
        assert!(
            errors.contains(&(path.to_owned(), code, line)),
            "{path} {code} at line {line}: {errors:?}"
        );
    }
}

#[test]
fn ordinary_expressions_still_load_and_are_parsed_once() {
    let source = r#"problem: {statement: "Look people up"}
intents:
  supported: [{id: find, examples: ["find a user"]}]
tools:
  - name: lookup
    inputs:
      - {name: code, type: string, pattern: '^(U|A)-\d{2,6}$'}
policy:
  approvals:
    - {tool_id: lookup, when: "amount > 500", approver: supervisor}
grant_mappings:
  - tool: lookup
    grants:
      - {key: user.id, value_from: "$.user.id", condition: '$.status == "active" && ($.tier == "a" || $.tier == "b")'}
"#;
    let skill = adas_skill::OperationalSkill::from_source("s", source).expect("loads");
    let (issued, refused) = adas_skill::access::issue(
        &skill.parsed,
        "lookup",
        &serde_json::json!({"user": {"id": "U-12"}, "status": "active", "tier": "b"}),
    );
    assert_eq!(issued.len(), 1, "{refused:?}");
    assert!(skill.parsed.holds(
        "amount > 500",
        serde_json::json!({"amount": 900}).as_object().unwrap()
    ));
}

#[test]
fn a_pattern_is_matched_only_within_the_bounds_validation_checks() {
    use adas_skill::grammar::compiled_pattern;
    let id = compiled_pattern("^ITM-[0-9]{4}$").expect("an ordinary pattern");
    assert!(id.is_match("ITM-4471") && !id.is_match("ITM-44"));
    // Asked again, the same compiled pattern: no message compiles one.
    assert!(std::sync::Arc::ptr_eq(
        &id,
        &compiled_pattern("^ITM-[0-9]{4}$").unwrap()
    ));
    // Too deep, too long, too big to compile, or not this engine's: never run.
    assert!(compiled_pattern(&format!("{}a{}", "(".repeat(40), ")".repeat(40))).is_none());
    assert!(compiled_pattern(&"a".repeat(5000)).is_none());
    assert!(compiled_pattern(r"\w{1000}{1000}").is_none());
    assert!(compiled_pattern(r"(?<=a)b").is_none());
}
