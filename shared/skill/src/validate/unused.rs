//! Fields the runtime does not use: one `unused_field` warning per path, so
//! nobody reads a clause as enforced that is only kept.

use super::*;

/// Paths (with `[*]` for list items) of every field the runtime reads.
pub(super) const USED_FIELDS: &[&str] = &[
    "id",
    "name",
    "description",
    "version",
    "timezone",
    "problem",
    "problem.statement",
    "problem.context",
    "problem.goals",
    "role",
    "role.name",
    "role.persona",
    "role.communication_style",
    "role.communication_style.tone",
    "role.communication_style.verbosity",
    "persona",
    "intents",
    "intents.supported",
    "intents.supported[*].id",
    "intents.supported[*].description",
    "intents.supported[*].examples",
    "intents.supported[*].entities",
    "intents.supported[*].entities[*].name",
    "intents.supported[*].entities[*].type",
    "intents.supported[*].entities[*].required",
    "intents.supported[*].entities[*].enum",
    "intents.supported[*].entities[*].description",
    "intents.supported[*].entities[*].extract_from",
    "intents.supported[*].maps_to_workflow",
    "intents.supported[*].reply",
    "intents.thresholds",
    "intents.thresholds.accept",
    "intents.thresholds.clarify",
    "intents.thresholds.reject",
    "intents.thresholds.margin",
    "intents.out_of_domain",
    "intents.out_of_domain.action",
    "intents.out_of_domain.message",
    "intents.out_of_domain.suggest_domains",
    "tools",
    "tools[*].id",
    "tools[*].name",
    "tools[*].description",
    "tools[*].inputs",
    "tools[*].inputs[*].name",
    "tools[*].inputs[*].type",
    "tools[*].inputs[*].required",
    "tools[*].inputs[*].description",
    "tools[*].inputs[*].enum",
    "tools[*].inputs[*].default",
    "tools[*].inputs[*].pattern",
    "tools[*].inputs[*].format",
    "tools[*].read_only",
    "tools[*].idempotent",
    "tools[*].show_errors",
    "tools[*].output",
    "tools[*].output.type",
    "tools[*].output.description",
    "tools[*].policy",
    "tools[*].policy.allowed",
    "tools[*].policy.requires_approval",
    "tools[*].policy.condition",
    "tools[*].policy.conditions",
    "tools[*].policy.conditions[*].when",
    "tools[*].policy.conditions[*].action",
    "tools[*].policy.conditions[*].message",
    "policy",
    "policy.guardrails",
    "policy.guardrails.never",
    "policy.guardrails.always",
    "policy.guardrails[*].type",
    "policy.guardrails[*].rule",
    "policy.workflows",
    "policy.workflows[*].id",
    "policy.workflows[*].name",
    "policy.workflows[*].trigger",
    "policy.workflows[*].steps",
    "policy.workflows[*].required",
    "policy.workflows[*].on_deviation",
    "policy.approvals",
    "policy.approvals[*].id",
    "policy.approvals[*].allow_self_approval",
    "policy.approvals[*].tool_id",
    "policy.approvals[*].when",
    "policy.approvals[*].action",
    "policy.approvals[*].approver",
    "policy.approvals[*].conditions",
    "policy.approvals[*].conditions[*].when",
    "policy.approvals[*].conditions[*].action",
    "policy.approvals[*].conditions[*].message",
    "policy.escalation",
    "policy.escalation.enabled",
    "policy.escalation.conditions",
    "policy.escalation.target",
    "policy.tools",
    "policy.tools.allowed",
    "policy.tools.blocked",
    "output_contract",
    "output_contract.required_fields",
    "engine",
    "engine.model",
    "engine.gate_model",
    "engine.loop",
    "engine.temperature",
    "engine.max_iterations",
    "engine.on_max_iterations",
    "engine.finalization_gate",
    "engine.finalization_gate.enabled",
    "engine.finalization_gate.max_retries",
    "engine.loop_detection",
    "engine.loop_detection.enabled",
    "engine.loop_detection.identical_call_threshold",
    "engine.rv2",
    "engine.rv2.max_iterations",
    "engine.rv2.on_max_iterations",
    "engine.rv2.iteration_timeout_ms",
    "engine.rv2.allow_parallel_tools",
    "engine.autonomy",
    "engine.autonomy.level",
    "engine.internal_error",
    "engine.internal_error.loop_detection",
    "engine.internal_error.loop_detection.enabled",
    "engine.internal_error.loop_detection.identical_call_threshold",
    "engine.wait_timeout_ms",
    "engine.max_invalid_answers",
    "mcp_server",
    "connectors",
    "tools[*].source",
    "tools[*].source.type",
    "tools[*].source.connection_id",
    "tools[*].source.mcp_tool",
    "tools[*].security",
    "tools[*].security.classification",
    "tools[*].security.reveal",
    "grant_mappings",
    "grant_mappings[*].tool",
    "grant_mappings[*].on_success",
    "grant_mappings[*].grants",
    "grant_mappings[*].grants[*].key",
    "grant_mappings[*].grants[*].value_from",
    "grant_mappings[*].grants[*].condition",
    "grant_mappings[*].grants[*].ttl_seconds",
    "access_policy",
    "access_policy.rules",
    "access_policy.rules[*].tools",
    "access_policy.rules[*].effect",
    "access_policy.rules[*].requires_grants",
    "access_policy.rules[*].required_values",
    "access_policy.rules[*].inject",
    "glossary",
    "scenarios",
    "scenarios[*].id",
    "scenarios[*].title",
    "scenarios[*].description",
    "scenarios[*].steps",
    "scenarios[*].expect",
    "scenarios[*].expect.status",
    "scenarios[*].expect.calls",
    "scenarios[*].expect.reply_contains",
    "tools[*].mock",
    "tools[*].mock.enabled",
    "tools[*].mock.mode",
    "tools[*].mock.examples",
    "triggers",
    "triggers[*].id",
    "triggers[*].type",
    "triggers[*].enabled",
    "triggers[*].concurrency",
    "triggers[*].prompt",
    "triggers[*].every",
    "response_filters",
    "response_filters[*].id",
    "response_filters[*].strip_fields",
    "response_filters[*].mask_fields",
    "resources",
    "resources[*].name",
    "resources[*].type",
    "resources[*].required",
    "resources[*].description",
    "required_inputs",
    "required_inputs[*].path",
    "required_inputs[*].prompt",
    "required_inputs[*].input_type",
    "required_inputs[*].options",
];

/// Warns once per unused field path (list indices folded to `[*]`), at its first
/// occurrence, with how many times it occurs.
pub(super) fn unused_fields(
    value: &Value,
    positions: &Positions,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let used: HashSet<&str> = USED_FIELDS.iter().copied().collect();
    let mut unused: BTreeMap<String, (String, usize)> = BTreeMap::new();
    walk(value, "", "", &used, &mut unused);
    for (pattern, (first_path, count)) in unused {
        let times = if count > 1 {
            format!(" ({count} times)")
        } else {
            String::new()
        };
        let (code, what) = if is_bookkeeping(&pattern) {
            (codes::BUILDER_FIELD, "the Builder's own bookkeeping")
        } else if pattern == "scenarios[*].expected_outcome" {
            // Prose a test runner cannot check: say what does assert.
            (
                codes::UNUSED_FIELD,
                "words for people, not asserted by `adas skill test`; `expect` \
                 (status, calls, reply_contains) asserts what should happen",
            )
        } else {
            (codes::UNUSED_FIELD, "kept but not used by the runtime")
        };
        diagnostics.push(Diagnostic::warning(
            &first_path,
            positions.find(&first_path),
            code,
            format!("`{pattern}` is {what}{times}"),
        ));
    }
}

/// The Skill Builder's records about its own work — when, which phase, what
/// it resolved, its mocks' and ids' states, its chat — never a clause of the
/// skill, so never something a reader must weigh.
fn is_bookkeeping(pattern: &str) -> bool {
    const TOP: &[&str] = &[
        "phase",
        "solution_id",
        "original_skill_id",
        "created_at",
        "updated_at",
        "conversation",
        "validation",
        "lastExportedAt",
        "lastExportType",
        "bootstrap_tools",
        "linked_skills",
    ];
    let last = pattern
        .rsplit('.')
        .next()
        .unwrap_or(pattern)
        .trim_end_matches("[*]");
    TOP.contains(&pattern)
        || last.starts_with('_')
        || last.ends_with("_resolved")
        || last.ends_with("_status")
        || matches!(last, "created_at" | "updated_at")
}

pub(super) fn walk(
    value: &Value,
    path: &str,
    pattern: &str,
    used: &HashSet<&str>,
    unused: &mut BTreeMap<String, (String, usize)>,
) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let child_path = document::child_path(path, key);
                let child_pattern = document::child_path(pattern, key);
                if used.contains(child_pattern.as_str()) {
                    // Only descend where the runtime reads deeper fields: a used leaf
                    // (a default value, say) may hold anything.
                    let dotted = format!("{child_pattern}.");
                    let indexed = format!("{child_pattern}[");
                    if used
                        .iter()
                        .any(|field| field.starts_with(&dotted) || field.starts_with(&indexed))
                    {
                        walk(child, &child_path, &child_pattern, used, unused);
                    }
                } else {
                    unused
                        .entry(child_pattern)
                        .or_insert_with(|| (child_path.clone(), 0))
                        .1 += 1;
                }
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                walk(
                    child,
                    &format!("{path}[{index}]"),
                    &format!("{pattern}[*]"),
                    used,
                    unused,
                );
            }
        }
        _ => {}
    }
}
