//! The Skill Builder's real exports (copied byte for byte into `tests/fixtures/`) and
//! the shipped templates: each either loads (warnings listed) or is refused with
//! an error at the right line — both outcomes pinned.

use std::path::PathBuf;

use adas_skill::compile::Standing;
use adas_skill::diagnostics::codes;
use adas_skill::{Format, Severity, load, load_detected};

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The builder's exports, kept byte for byte as exported: the loader must take
/// what the builder really writes, not a tidied copy.
fn fixture(name: &str) -> (String, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    let source = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    (source, name.to_owned())
}

#[test]
fn identity_gateway_yaml_is_refused_at_its_broken_line() {
    let (source, name) = fixture("identity-gateway.skill.yaml");
    let loaded = load_detected(&source, Some(&name));
    let errors: Vec<_> = loaded.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    // `    - tools: [*]`: the builder concatenated YAML no parser accepts.
    assert_eq!(
        (errors[0].line, errors[0].column, errors[0].code),
        (134, 15, codes::SYNTAX)
    );
    assert!(source.lines().nth(133).unwrap().contains("tools: [*]"));
    assert!(loaded.skill.is_none());
}

#[test]
fn identity_gateway_json_draft_loads_with_warnings() {
    let (source, name) = fixture("identity-gateway.draft.skill.json");
    let loaded = load_detected(&source, Some(&name));
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let skill = loaded.skill.as_ref().unwrap();
    assert_eq!(skill.tools[0].name, "identity.user.lookup");
    assert_eq!(
        skill.tools[0]
            .security
            .as_ref()
            .unwrap()
            .classification
            .as_deref(),
        Some("pii_read")
    );
    assert!(
        !skill.scenarios.is_empty()
            && !skill.grant_mappings.is_empty()
            && skill.access_policy.is_some()
    );
    let unused: Vec<&str> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.code == codes::UNUSED_FIELD)
        .map(|d| d.path.as_str())
        .collect();
    let bookkeeping: Vec<&str> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.code == codes::BUILDER_FIELD)
        .map(|d| d.path.as_str())
        .collect();
    assert!(
        bookkeeping.contains(&"conversation") && bookkeeping.contains(&"created_at"),
        "the Builder's bookkeeping is told apart: {bookkeeping:?}"
    );
    // Clauses kept but not used are still each named: never silently kept.
    assert!(unused.contains(&"engine.hlr"), "{unused:?}");
    // A scenario's outcome in words is shown, not asserted: said, with what asserts.
    assert!(
        loaded
            .diagnostics
            .iter()
            .any(|d| d.path.ends_with("expected_outcome")
                && d.message.contains("not asserted")
                && d.message.contains("`expect`")),
        "{:?}",
        loaded.diagnostics
    );
    // The engine clauses it sets are enforced now, not kept.
    for enforced in [
        "engine.autonomy",
        "engine.rv2.iteration_timeout_ms",
        "engine.rv2.allow_parallel_tools",
        "policy.escalation.conditions",
        "intents.supported[0].entities[0].extract_from",
    ] {
        assert!(!unused.contains(&enforced), "{enforced}: {unused:?}");
    }
    let engine = loaded.engine.as_ref().unwrap();
    assert_eq!(
        (engine.call_timeout_ms, engine.confirm_side_effects),
        (Some(30_000), false)
    );
    // What a person must act on first, the clauses kept next, the Builder's
    // bookkeeping last.
    let ranks: Vec<u8> = loaded
        .diagnostics
        .iter()
        .map(|d| adas_skill::diagnostics::reading_rank(d.code))
        .collect();
    assert!(ranks.is_sorted(), "{:?}", loaded.diagnostics);
    // The control clauses are enforced, so never reported as kept.
    for field in [
        "grant_mappings",
        "access_policy",
        "tools[0].source",
        "tools[0].security",
    ] {
        assert!(
            !unused.contains(&field),
            "{field} is enforced, not kept: {unused:?}"
        );
    }
    assert!(
        loaded
            .diagnostics
            .iter()
            .all(|d| d.severity == Severity::Warning && d.line > 0)
    );
    let compiled = loaded.compiled.unwrap();
    // Sub-goal ids are identifiers, whatever the workflow's display name.
    assert_eq!(compiled.sub_goals[0].id, "sg_identity_verification_1");
    assert_eq!(compiled.sub_goals[0].workflow, "Identity Verification");
    assert_eq!(
        compiled.sub_goals[1].depends_on,
        vec!["sg_identity_verification_1".to_owned()]
    );
}

#[test]
fn order_support_example_loads_with_thresholds_and_rv2() {
    let (source, name) = fixture("order-support.example.skill.json");
    let loaded = load_detected(&source, Some(&name));
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let skill = loaded.skill.as_ref().unwrap();
    let intents = skill.intents.as_ref().unwrap();
    assert_eq!(intents.thresholds.as_ref().unwrap().accept, Some(0.85));
    assert_eq!(
        intents.supported[0].maps_to_workflow.as_deref(),
        Some("order_lookup_flow")
    );
    assert_eq!(
        loaded.engine.unwrap().max_iterations,
        8,
        "engine.rv2.max_iterations is read"
    );
    // Its workflow names a tool it does not declare but the skill has connectors: a warning.
    assert!(loaded.diagnostics.iter().all(|d| !d.is_error()));
}

#[test]
fn software_developer_template_loads_unchanged_with_its_tools_held_or_on_a_connection() {
    let (source, name) = fixture("software-developer.template.skill.yaml");
    let loaded = load_detected(&source, Some(&name));
    assert!(
        !loaded.has_errors(),
        "{:?}",
        loaded
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .collect::<Vec<_>>()
    );
    let warned = |path: &str| {
        loaded
            .diagnostics
            .iter()
            .find(|d| d.path == path)
            .unwrap_or_else(|| panic!("no warning at {path}: {:?}", loaded.diagnostics))
    };
    // `mcp://localhost:3100/sw-developer-tools` is a connection the tenant
    // maps, never a host guessed from the Builder's own machine.
    let server = warned("mcp_server");
    assert_eq!(
        (server.line, server.column, server.code, server.severity),
        (23, 13, codes::UNKNOWN_CONNECTION, Severity::Warning)
    );
    assert!(
        server
            .message
            .contains("adas connector put sw-developer-tools --url"),
        "{}",
        server.message
    );
    let skill = loaded.skill.as_ref().unwrap();
    assert_eq!(skill.mcp_server, None);
    assert_eq!(skill.connectors, ["sw-developer-tools"]);
    assert!(skill.tools.iter().all(|tool| {
        adas_skill::access::route(skill, &tool.name)
            == Some(("sw-developer-tools".to_owned(), tool.name.clone()))
    }));
    // `git_branch` asks approval on a delete and names nobody: held at the
    // clause's line:col, with the fix — fail closed, the skill loaded.
    let held = warned("tools[11].policy.conditions[1].action");
    assert_eq!(
        (held.line, held.column, held.code, held.severity),
        (1116, 19, codes::APPROVER_REQUIRED, Severity::Warning)
    );
    assert!(
        held.message.contains("`approver: <role>`"),
        "{}",
        held.message
    );
    let compiled = loaded.compiled.as_ref().unwrap();
    assert_eq!(compiled.standing("git_branch"), Standing::Held);
    assert!(compiled.held_why("git_branch").is_some());
    assert_eq!(compiled.held.len(), 1, "{:?}", compiled.held);
    // approvals name tools by builder id; they resolve to tool names.
    let delete = compiled
        .approvals
        .iter()
        .find(|rule| rule.tool == "delete_file")
        .expect("tool-fs-delete-file resolved");
    assert_eq!(
        (delete.when.as_str(), delete.approver.as_str()),
        ("always", "user")
    );
    assert_eq!(compiled.standing("delete_file"), Standing::NeedsApproval);
    let engine = loaded.engine.unwrap();
    assert_eq!(
        (
            engine.max_iterations,
            engine.identical_call_threshold,
            engine.on_max_iterations.as_str()
        ),
        (25, 3, "ask_user")
    );
    // The fix the warning names releases the tool.
    let mended = source.replace(
        "  approvals:\n",
        "  approvals:\n    - tool_id: git_branch\n      approver: user\n",
    );
    let mended = load_detected(&mended, Some(&name)).compiled.unwrap();
    assert_eq!(mended.standing("git_branch"), Standing::NeedsApproval);
}

#[test]
fn a_source_on_a_connection_the_skill_does_not_list_is_the_tenants() {
    // The Builder's minimal valid shape: a tool routed through a connection
    // its `connectors` do not name.
    let source = r#"{
  "id": "test-skill",
  "name": "Test skill",
  "problem": {"statement": "Look things up"},
  "intents": {"supported": [{"id": "lookup", "examples": ["look up item 7"]}]},
  "tools": [
    {"name": "item.lookup",
     "source": {"type": "mcp_bridge", "connection_id": "items-mcp", "mcp_tool": "lookup"},
     "inputs": [{"name": "id", "type": "string", "required": true}]}
  ]
}"#;
    let loaded = load_detected(source, Some("test-skill.minimal-valid.skill.json"));
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let warning = loaded
        .diagnostics
        .iter()
        .find(|d| d.path == "tools[0].source.connection_id")
        .expect("a warning at the source");
    assert_eq!(
        (warning.code, warning.severity, warning.line),
        (codes::UNKNOWN_CONNECTION, Severity::Warning, 8)
    );
    let skill = loaded.skill.unwrap();
    assert_eq!(skill.connectors, ["items-mcp"]);
    assert_eq!(
        adas_skill::access::route(&skill, "item.lookup"),
        Some(("items-mcp".to_owned(), "lookup".to_owned()))
    );
}

#[test]
fn shipped_templates_validate_without_errors_or_warnings() {
    let dir = workspace().join("skill-templates");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|ext| ext.to_str()) != Some("yaml") {
            continue;
        }
        count += 1;
        let source = std::fs::read_to_string(&path).unwrap();
        let loaded = load(&source, Format::Yaml);
        assert!(
            loaded.diagnostics.is_empty(),
            "{}: {:?}",
            path.display(),
            loaded.diagnostics
        );
        assert!(loaded.compiled.is_some());
    }
    for required in [
        "sw-dev-agent",
        "cs-tier-1",
        "devops-tier-1",
        "identity-verification",
    ] {
        assert!(
            dir.join(format!("{required}.yaml")).exists(),
            "template {required} is shipped"
        );
    }
    assert!(count >= 4);
}

#[test]
fn semantic_errors_are_reported_together_with_positions() {
    let source = "\
name: broken
intents:
  supported:
    - id: a
    - id: a
tools:
  - name: lookup
    inputs:
      - name: id
        type: strin
    policy:
      allowed: sometimes
      requires_approval: conditional
      condition: amount >> 5
  - name: lookup
policy:
  workflows:
    - name: flow
      steps: [lookup, nowhere, sys.escalate]
  approvals:
    - tool_id: missing_tool
      when: amount > lots
resources:
  - name: db
    type: database
engine: turbo
";
    let loaded = load(source, Format::Yaml);
    let found: Vec<(u32, &str, &str)> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.line, d.path.as_str(), d.code))
        .collect();
    let expected = vec![
        (1, "problem.statement", codes::MISSING_FIELD),
        (5, "intents.supported[1].id", codes::DUPLICATE_INTENT),
        (10, "tools[0].inputs[0].type", codes::INVALID_VALUE),
        (12, "tools[0].policy.allowed", codes::INVALID_VALUE),
        (14, "tools[0].policy.condition", codes::INVALID_CONDITION),
        (15, "tools[1].name", codes::DUPLICATE_TOOL),
        (19, "policy.workflows[0].steps[1]", codes::UNKNOWN_TOOL),
        (21, "policy.approvals[0].tool_id", codes::UNKNOWN_TOOL),
        (22, "policy.approvals[0].when", codes::INVALID_CONDITION),
        (25, "resources[0].type", codes::INVALID_VALUE),
        (26, "engine", codes::INVALID_VALUE),
    ];
    assert_eq!(found, expected);
    // An approval that names nobody holds its tool: a warning, not a refusal.
    let held: Vec<(u32, &str)> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.code == codes::APPROVER_REQUIRED)
        .map(|d| (d.line, d.path.as_str()))
        .collect();
    assert_eq!(
        held,
        [
            (13, "tools[0].policy.requires_approval"),
            (21, "policy.approvals[0].approver")
        ]
    );
    assert!(
        loaded.compiled.is_none(),
        "a skill with errors is not compiled"
    );
}

#[test]
fn shape_errors_name_the_path() {
    let loaded = load(
        "name: x\ntools:\n  - name: a\n    inputs: not-a-list\n",
        Format::Yaml,
    );
    let error = &loaded.diagnostics[0];
    assert_eq!(
        (error.path.as_str(), error.line, error.code),
        ("tools[0].inputs", 4, codes::INVALID_TYPE)
    );
}

#[test]
fn guardrails_as_a_list_of_rules_and_engine_presets() {
    let source = "\
name: x
problem: {statement: Help}
intents: {supported: [{id: help}]}
tools:
  - name: deleteFile
policy:
  guardrails:
    - type: never
      rule: Never use deleteFile
    - type: always
      rule: Always be polite
engine: fast
";
    let loaded = load(source, Format::Yaml);
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    let compiled = loaded.compiled.unwrap();
    assert_eq!(compiled.guardrails.len(), 1);
    assert_eq!(
        compiled.text_guardrails,
        vec!["Always be polite".to_owned()]
    );
    let engine = loaded.engine.unwrap();
    assert_eq!(
        (engine.preset.as_str(), engine.finalization_gate_enabled),
        ("fast", false)
    );
}

#[test]
fn text_input_type_is_a_string_and_json_matches_yaml() {
    let yaml = "name: x\nproblem: {statement: s}\nintents: {supported: [{id: a}]}\ntools:\n  - name: t\n    inputs:\n      - name: note\n        type: text\n        required: true\n";
    let json = r#"{"name": "x", "problem": {"statement": "s"}, "intents": {"supported": [{"id": "a"}]}, "tools": [{"name": "t", "inputs": [{"name": "note", "type": "text", "required": true}]}]}"#;
    let from_yaml = load(yaml, Format::Yaml);
    let from_json = load(json, Format::Json);
    assert!(!from_yaml.has_errors() && !from_json.has_errors());
    assert_eq!(from_yaml.skill, from_json.skill);
}

#[test]
fn oversized_documents_are_refused() {
    let source = format!(
        "name: x\ndescription: \"{}\"\n",
        "a".repeat(3 * 1024 * 1024)
    );
    let loaded = load(&source, Format::Yaml);
    assert_eq!(loaded.diagnostics[0].code, codes::TOO_LARGE);
}

#[test]
fn text_guardrails_past_the_prompt_budget_are_reported_where_they_stand() {
    let mut source = String::from(
        "name: x\nproblem: {statement: s}\nintents: {supported: [{id: a}]}\ntools: []\npolicy:\n  guardrails:\n    never:\n",
    );
    for n in 1..=4 {
        source.push_str(&format!("      - Never reveal secret number {n}\n"));
    }
    source.push_str("    always:\n");
    for n in 1..=8 {
        source.push_str(&format!("      - Always be kind in way {n}\n"));
    }
    let loaded = load(&source, Format::Yaml);
    let dropped: Vec<(u32, u32, &str)> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.code == codes::GUARDRAIL_DROPPED)
        .map(|d| (d.line, d.column, d.path.as_str()))
        .collect();
    // 12 text rules, never first: the last two `always` rules are not kept.
    assert_eq!(
        dropped,
        vec![
            (19, 9, "policy.guardrails.always[6]"),
            (20, 9, "policy.guardrails.always[7]")
        ]
    );
    let compiled = loaded.compiled.unwrap();
    assert_eq!(compiled.text_guardrails.len(), 10);
    assert_eq!(compiled.dropped_text_guardrails, 2);
}

#[test]
fn a_scheduling_export_with_grant_references_loads() {
    // `${grants.sched.user_id}` is the access policy's injected value, not an
    // operator variable: it is kept as written, and the export loads.
    let (source, name) = fixture("scheduling-agent.draft.skill.json");
    assert!(source.contains("${grants.sched.user_id}"));
    // The operator's variables expanded as every catalog does.
    let mut vars = adas_skill::Vars::default();
    vars.set("ADAS_DEMO_MCP_URL", "http://127.0.0.1:1/mcp");
    let source = vars.expand(&source).expect("only known variables");
    let loaded = adas_skill::load(&source, adas_skill::Format::detect(Some(&name), &source));
    let errors: Vec<_> = loaded.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let skill = loaded.skill.unwrap();
    assert_eq!(
        adas_skill::access::injected(&skill, "calendar.event.create"),
        vec![("organizer_id".to_owned(), "sched.user_id".to_owned())]
    );
}

#[test]
fn access_clauses_that_cannot_be_enforced_are_errors_at_their_line() {
    let source = r#"problem: {statement: "Book meetings"}
intents:
  supported: [{id: book, examples: ["book a meeting"]}]
connectors: [gcal-mcp]
tools:
  - name: calendar.event.create
    source: {type: mcp_bridge, connection_id: gcal, mcp_tool: event.create}
grant_mappings:
  - tool: identity.user.lookup
    grants: [{key: sched.user_id, value_from: "$.[", ttl_seconds: 0}]
access_policy:
  rules:
    - tools: [calendar.event.create, calendar.event.wipe]
      effect: permit
      inject: {organizer_id: "u-1"}
"#;
    let loaded = load_detected(source, Some("s.yaml"));
    let errors: Vec<(String, &str, u32)> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.path.clone(), d.code, d.line))
        .collect();
    for (path, code, line) in [
        ("grant_mappings[0].tool", codes::UNKNOWN_TOOL, 9),
        (
            "grant_mappings[0].grants[0].value_from",
            codes::INVALID_VALUE,
            10,
        ),
        (
            "grant_mappings[0].grants[0].ttl_seconds",
            codes::INVALID_VALUE,
            10,
        ),
        ("access_policy.rules[0].tools[1]", codes::UNKNOWN_TOOL, 13),
        ("access_policy.rules[0].effect", codes::INVALID_VALUE, 14),
        (
            "access_policy.rules[0].inject.organizer_id",
            codes::INVALID_VALUE,
            15,
        ),
    ] {
        assert!(
            errors.contains(&(path.to_owned(), code, line)),
            "{path} {code} at line {line}: {errors:?}"
        );
    }
    assert!(loaded.compiled.is_none());
}

#[test]
fn the_scheduling_solution_loads_and_its_worker_keeps_its_contract() {
    let (source, _) = fixture("scheduling-assistant.solution.json");
    let loaded = adas_skill::solution::load(&source, adas_skill::Format::Json);
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let solution = loaded.solution.unwrap();
    assert_eq!(solution.entry("api"), Some("identity-gateway"));
    let handoff = solution.handoffs_from("identity-gateway").next().unwrap();
    assert_eq!(handoff.to, "scheduling-agent");
    let (worker, name) = fixture("scheduling-agent.draft.skill.json");
    let worker = load_detected(&worker, Some(&name)).skill.unwrap();
    assert!(
        solution
            .broken_contracts("scheduling-agent", &worker)
            .is_empty()
    );
    // A worker whose policy drops the grant breaks the contract.
    let mut loose = worker.clone();
    loose.access_policy = None;
    assert_eq!(
        solution.broken_contracts("scheduling-agent", &loose).len(),
        5
    );
}

#[test]
fn a_solution_read_as_a_skill_says_what_it_is() {
    let (source, name) = fixture("scheduling-assistant.solution.json");
    let loaded = load_detected(&source, Some(&name));
    // One error that names the command for it, not three missing fields.
    assert_eq!(loaded.diagnostics.len(), 1, "{:?}", loaded.diagnostics);
    assert!(
        loaded.diagnostics[0]
            .message
            .contains("`adas solution validate FILE"),
        "{}",
        loaded.diagnostics[0].message
    );
}

#[test]
fn engine_clauses_that_cannot_be_kept_are_refused_at_their_line() {
    // `allow_parallel_tools: true` allows what is never done: a warning.
    let source = "problem: {statement: s}\nintents: {supported: [{id: a, examples: [a]}]}\ntools: []\nengine:\n  autonomy: {level: reckless}\n  rv2:\n    allow_parallel_tools: true\n    iteration_timeout_ms: 0\n";
    let loaded = load(source, Format::Yaml);
    let errors = errors_at(&loaded);
    assert_eq!(
        errors,
        [
            ("engine.autonomy.level", 5),
            ("engine.rv2.iteration_timeout_ms", 8)
        ]
    );
    assert!(
        loaded
            .diagnostics
            .iter()
            .any(|d| !d.is_error() && d.path == "engine.rv2.allow_parallel_tools" && d.line == 7)
    );
    let supervised = load(
        &source
            .replace("reckless", "supervised")
            .replace("true", "false")
            .replace(": 0", ": 250"),
        Format::Yaml,
    );
    assert!(!supervised.has_errors(), "{:?}", supervised.diagnostics);
    let engine = supervised.engine.unwrap();
    assert_eq!(
        (engine.confirm_side_effects, engine.call_timeout_ms),
        (true, Some(250))
    );
}

#[test]
fn the_schema_accepts_every_template_and_export_and_refuses_a_wrong_shape() {
    let schema = adas_skill::json_schema();
    let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
    let mut documents: Vec<(String, String)> =
        std::fs::read_dir(workspace().join("skill-templates"))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "yaml"))
            .map(|path| {
                (
                    path.display().to_string(),
                    std::fs::read_to_string(&path).unwrap(),
                )
            })
            .collect();
    for name in [
        "identity-gateway.draft.skill.json",
        "scheduling-agent.draft.skill.json",
        "order-support.example.skill.json",
        "software-developer.template.skill.yaml",
    ] {
        let (source, name) = fixture(name);
        documents.push((name, source));
    }
    for (name, source) in documents {
        let loaded = load_detected(&source, Some(&name));
        let value = loaded.document.expect("parses").value;
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|error| format!("{}: {error}", error.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
    }
    let wrong = serde_json::json!({"tools": [{"name": "a", "inputs": "not-a-list"}]});
    assert!(!validator.is_valid(&wrong));
}

#[test]
fn escalation_conditions_and_entity_sources_are_refused_at_their_line_when_unreadable() {
    let source = "problem: {statement: s}\nintents:\n  supported:\n    - id: a\n      examples: [a]\n      entities:\n        - {name: order_id, extract_from: memory}\ntools: []\npolicy:\n  escalation:\n    conditions:\n      - amount >> 5000\n      - {when: amount > 5}\n      - Chargeback filed with the bank\n";
    let loaded = load(source, Format::Yaml);
    let errors = errors_at(&loaded);
    assert_eq!(
        errors,
        [
            ("intents.supported[0].entities[0].extract_from", 7),
            ("policy.escalation.conditions[0]", 12),
            ("policy.escalation.conditions[1]", 13),
        ],
        "{:?}",
        loaded.diagnostics
    );
}

/// Each error's path and line.
fn errors_at(loaded: &adas_skill::Loaded) -> Vec<(&str, u32)> {
    loaded
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.path.as_str(), d.line))
        .collect()
}
