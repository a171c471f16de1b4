//! `${principal.*}`: the signed-in principal's facts — name, tenant, roles
//! and the claims an operator maps to a key — injected into a call and
//! required by access rules exactly like a grant's value, and never issued
//! by a tool result.

use adas_skill::access::{Principal, Verdict, apply, principal_reference, reference};
use adas_skill::load_detected;
use adas_skill::model::Skill;
use serde_json::{Map, Value, json};

fn alice() -> Principal {
    Principal {
        name: "alice".into(),
        tenant: "acme".into(),
        roles: vec!["user".into()],
        claims: [
            ("email".to_owned(), "alice@acme.test".to_owned()),
            // A claim never replaces a fact the platform itself knows.
            ("name".to_owned(), "mallory".to_owned()),
            // Nor is a name that is not one identifier a fact.
            ("a.b".to_owned(), "x".to_owned()),
        ]
        .into(),
    }
}

fn lookup_skill() -> Skill {
    serde_json::from_value(json!({
        "tools": [{"name": "identity.lookup"}, {"name": "audit.read"}],
        "access_policy": {"rules": [
            {"tools": ["identity.lookup"], "effect": "constrain",
             "inject": {"email": "${principal.email}", "tenant": "${principal.tenant}"}},
            {"tools": ["audit.read"], "effect": "allow", "requires_grants": ["principal.email"]}
        ]}
    }))
    .unwrap()
}

#[test]
fn a_principals_facts_are_its_name_tenant_roles_and_mapped_claims() {
    let facts: Map<String, Value> = alice().facts().into_iter().collect();
    assert_eq!(facts["principal.name"], json!("alice"));
    assert_eq!(facts["principal.tenant"], json!("acme"));
    assert_eq!(facts["principal.roles"], json!(["user"]));
    assert_eq!(facts["principal.email"], json!("alice@acme.test"));
    assert_eq!(facts.len(), 4, "{facts:?}");
    // Dev mode, nobody signed in: no facts, so every rule needing one refuses.
    assert!(Principal::default().facts().is_empty());
}

#[test]
fn references_are_exact() {
    assert_eq!(
        principal_reference(&json!("${principal.email}")),
        Some("email")
    );
    assert_eq!(
        reference(&json!(" ${principal.name} ")),
        Some("principal.name".into())
    );
    for not in [
        "${principal.}",
        "${principal.a.b}",
        "${principal.email",
        "$principal.email}",
        "alice@acme.test",
    ] {
        assert_eq!(principal_reference(&json!(not)), None, "{not}");
    }
    assert_eq!(principal_reference(&json!(7)), None);
}

#[test]
fn the_principals_facts_fill_a_call_and_refuse_any_other_value() {
    let skill = lookup_skill();
    let held = alice().facts();
    let mut args = Map::new();
    assert_eq!(
        apply(&skill, "identity.lookup", &held, &mut args),
        Verdict::Allow
    );
    assert_eq!(args["email"], json!("alice@acme.test"));
    assert_eq!(args["tenant"], json!("acme"));
    // Bob typed alice's address: a conflict, never a lookup of her.
    let bob = Principal {
        name: "bob".into(),
        tenant: "acme".into(),
        claims: [("email".to_owned(), "bob@acme.test".to_owned())].into(),
        ..Principal::default()
    };
    let mut typed = Map::from_iter([("email".to_owned(), json!("alice@acme.test"))]);
    assert_eq!(
        apply(&skill, "identity.lookup", &bob.facts(), &mut typed),
        Verdict::Conflict {
            argument: "email".into(),
            grant: "principal.email".into()
        }
    );
    // A key with no email claim mapped: the fact is missing, nothing runs.
    let unmapped = Principal {
        name: "carol".into(),
        tenant: "acme".into(),
        ..Principal::default()
    };
    assert_eq!(
        apply(
            &skill,
            "identity.lookup",
            &unmapped.facts(),
            &mut Map::new()
        ),
        Verdict::Missing(vec!["principal.email".into()])
    );
    assert_eq!(
        apply(&skill, "audit.read", &unmapped.facts(), &mut Map::new()),
        Verdict::Missing(vec!["principal.email".into()])
    );
    assert_eq!(
        apply(&skill, "audit.read", &held, &mut Map::new()),
        Verdict::Allow
    );
}

#[test]
fn no_tool_result_issues_a_principals_fact_and_no_injection_is_a_literal() {
    let source = "problem: {statement: Look people up}\nintents: {supported: [{id: find, examples: [find a user]}]}\ntools:\n  - {name: lookup, inputs: [{name: email, type: string}]}\ngrant_mappings:\n  - tool: lookup\n    grants:\n      - key: principal.email\n        value_from: \"$.email\"\naccess_policy:\n  rules:\n    - tools: [lookup]\n      effect: constrain\n      inject: {email: alice@acme.test}\n";
    let loaded = load_detected(source, Some("s.yaml"));
    let errors: Vec<(String, u32)> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.path.clone(), d.line))
        .collect();
    assert!(
        errors.contains(&("grant_mappings[0].grants[0].key".into(), 8)),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|(path, line)| path.starts_with("access_policy.rules[0].inject") && *line == 14),
        "{errors:?}"
    );
}

#[test]
fn a_personal_lookup_that_issues_grants_from_typed_values_is_warned() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/identity-gateway.draft.skill.json"
    );
    let exported = std::fs::read_to_string(path).unwrap();
    let warned = |source: &str| {
        load_detected(source, Some("gateway.json"))
            .diagnostics
            .iter()
            .filter(|d| !d.is_error() && d.message.contains("that person's grants"))
            .map(|d| (d.path.clone(), d.line, d.column))
            .collect::<Vec<_>>()
    };
    // As exported: the lookup reads whatever address is typed.
    let found = warned(&exported);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].0.ends_with(".tool") && found[0].1 > 0, "{found:?}");
    // Bound to the caller (the README's setup): nothing to warn.
    let mut bound: Value = serde_json::from_str(&exported).unwrap();
    bound["access_policy"]["rules"]
        .as_array_mut()
        .unwrap()
        .push(
            json!({"tools": ["identity.user.lookup"], "effect": "constrain",
            "inject": {"email": "${principal.email}"}}),
        );
    assert!(warned(&bound.to_string()).is_empty());
    // Bound only to what many share (the tenant): still anyone's lookup.
    let mut shared: Value = serde_json::from_str(&exported).unwrap();
    shared["access_policy"]["rules"]
        .as_array_mut()
        .unwrap()
        .push(
            json!({"tools": ["identity.user.lookup"], "effect": "constrain",
            "inject": {"tenant": "${principal.tenant}"}}),
        );
    assert_eq!(warned(&shared.to_string()).len(), 1);
    // An optional key is a key all the same.
    let mut optional: Value = serde_json::from_str(&exported).unwrap();
    for tool in optional["tools"].as_array_mut().unwrap() {
        for input in tool["inputs"].as_array_mut().into_iter().flatten() {
            input["required"] = json!(false);
        }
    }
    assert_eq!(warned(&optional.to_string()).len(), 1);
}
