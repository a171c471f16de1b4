//! Loading and validation: one pass that reports every problem with its path,
//! line and column, then compiles the policy of a skill without errors.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::Value;

use crate::compile::{CompiledPolicy, MAX_TEXT_GUARDRAILS, compile, compile_guardrail};
use crate::condition::Condition;
use crate::diagnostics::{Diagnostic, codes};
use crate::document::{self, Document, Format, Positions};
use crate::engine::{EngineConfig, PRESETS};
use crate::model::{EngineSpec, Guardrails, Skill};
use crate::resources::{RESOURCE_TYPES, template_references};
use crate::slag::is_safe_name;

/// Value types accepted for tool inputs and entities (`text` is a string).
pub const VALUE_TYPES: &[&str] = &[
    "string",
    "text",
    "number",
    "integer",
    "boolean",
    "object",
    "array",
    "date",
    "datetime",
    "email",
    "phone",
    "money",
    "enum",
    "identifier",
];

/// `tools[].policy.allowed` and `requires_approval` values.
const POLICY_LEVELS: &[&str] = &["always", "conditional", "never"];
/// Actions of `{when, action}` conditions.
const CONDITION_ACTIONS: &[&str] = &["deny", "require_approval", "allow", "warn"];
/// `engine.on_max_iterations` values.
const ON_MAX_ITERATIONS: &[&str] = &["fail", "ask_user", "escalate"];
/// `engine.loop` values.
const LOOP_MODES: &[&str] = &["plan", "rv2"];
/// `required_inputs[].input_type` values.
const INPUT_TYPES: &[&str] = &["text", "choice"];

/// A loaded skill document: the parsed document, the typed skill when its shape is
/// valid, every diagnostic, and, when there is no error, the compiled policy.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The parsed document (None on a syntax error).
    pub document: Option<Document>,
    /// The typed skill (None when the document's shape is invalid).
    pub skill: Option<Skill>,
    /// Every diagnostic, errors first, then in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// The compiled policy (None when there are errors).
    pub compiled: Option<CompiledPolicy>,
    /// The resolved engine settings (None when there are errors).
    pub engine: Option<EngineConfig>,
}

impl Loaded {
    /// A document refused before parsing (e.g. an unknown `${…}` variable).
    pub fn refused(diagnostics: Vec<Diagnostic>) -> Self {
        Self {
            document: None,
            skill: None,
            diagnostics,
            compiled: None,
            engine: None,
        }
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Loads and validates a document.
pub fn load(source: &str, format: Format) -> Loaded {
    let document = match document::parse(source, format) {
        Ok(document) => document,
        Err(diagnostic) => {
            return Loaded {
                document: None,
                skill: None,
                diagnostics: vec![*diagnostic],
                compiled: None,
                engine: None,
            };
        }
    };
    let positions = document.positions.clone();
    if !document.value.is_object() {
        let diagnostic = Diagnostic::error(
            "",
            positions.find(""),
            codes::INVALID_TYPE,
            "a skill is a mapping of fields",
        );
        return Loaded {
            document: Some(document),
            skill: None,
            diagnostics: vec![diagnostic],
            compiled: None,
            engine: None,
        };
    }
    let skill: Skill = match serde_path_to_error::deserialize(&document.value) {
        Ok(skill) => skill,
        Err(error) => {
            let path = normalize_serde_path(&error.path().to_string());
            let diagnostic = Diagnostic::error(
                &path,
                positions.find(&path),
                codes::INVALID_TYPE,
                format!("`{path}`: {}", error.inner()),
            );
            return Loaded {
                document: Some(document),
                skill: None,
                diagnostics: vec![diagnostic],
                compiled: None,
                engine: None,
            };
        }
    };

    let mut checker = Checker {
        positions: &positions,
        diagnostics: Vec::new(),
    };
    checker.required(&document.value);
    checker.check(&skill);
    unused_fields(&document.value, &positions, &mut checker.diagnostics);

    let mut diagnostics = checker.diagnostics;
    diagnostics.sort_by(|a, b| {
        a.severity
            .cmp(&b.severity)
            .then(a.line.cmp(&b.line))
            .then(a.column.cmp(&b.column))
    });
    let has_errors = diagnostics.iter().any(Diagnostic::is_error);
    let (compiled, engine) = if has_errors {
        (None, None)
    } else {
        (
            Some(compile(&skill)),
            Some(EngineConfig::resolve(skill.engine.as_ref())),
        )
    };
    Loaded {
        document: Some(document),
        skill: Some(skill),
        diagnostics,
        compiled,
        engine,
    }
}

/// serde_path_to_error prints `tools[0].inputs`; `?` marks an unknown segment.
fn normalize_serde_path(path: &str) -> String {
    if path == "." {
        String::new()
    } else {
        path.replace(".[", "[")
    }
}

/// Why `server` names no transport the runtime can reach, with the fix; the
/// one check of a server's form (the CLI and every service validate with it;
/// whether the address may be reached is the deployment's egress policy).
pub fn transport_problem(server: &str) -> Option<String> {
    // `${NAME}` is a template placeholder, substituted at bootstrap.
    let placeholder = server.starts_with("${") && server.ends_with('}');
    if placeholder
        || server.starts_with("http://")
        || server.starts_with("https://")
        || server.starts_with("stdio:")
    {
        return None;
    }
    let fix = match server.split_once("://") {
        Some(("mcp", rest)) => format!(
            "`mcp://` is not a transport: an MCP server is reached over streamable HTTP — write `http://{rest}` (or `https://{rest}`) — or is an operator's stdio command, `stdio:NAME`"
        ),
        _ => "write `http://host:port/path`, `https://host:port/path` or `stdio:NAME`".to_owned(),
    };
    Some(format!(
        "mcp_server `{server}` names no transport the runtime can reach: {fix}"
    ))
}

/// Roles the platform gives out; a rule that named one as its approver would
/// let every holder approve (`user`: see [`Checker::approvers`]).
const PLATFORM_ROLES: &[&str] = &["operator", "admin", "service"];

struct Checker<'a> {
    positions: &'a Positions,
    diagnostics: Vec<Diagnostic>,
}

impl Checker<'_> {
    fn error(&mut self, path: &str, code: &'static str, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::error(
            path,
            self.positions.find(path),
            code,
            message,
        ));
    }

    fn warning(&mut self, path: &str, code: &'static str, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::warning(
            path,
            self.positions.find(path),
            code,
            message,
        ));
    }

    fn one_of(&mut self, path: &str, value: &str, allowed: &[&str], what: &str) {
        if !allowed.contains(&value.to_ascii_lowercase().as_str()) {
            self.error(
                path,
                codes::INVALID_VALUE,
                format!("{what} `{value}` is not one of {}", allowed.join(" | ")),
            );
        }
    }

    fn condition(&mut self, path: &str, text: &str) {
        if let Err(error) = Condition::parse(text) {
            self.error(
                path,
                codes::INVALID_CONDITION,
                format!("condition `{text}` does not parse: {error}"),
            );
        }
    }

    /// Spec 004 §3.2's required fields: what makes a document a skill rather
    /// than a preset library or a fragment, which must never become operational.
    fn required(&mut self, document: &Value) {
        let statement = document
            .pointer("/problem/statement")
            .and_then(Value::as_str)
            .is_some_and(|text| !text.trim().is_empty());
        if !statement {
            self.error(
                "problem.statement",
                codes::MISSING_FIELD,
                "`problem.statement` is required: the goal the skill covers",
            );
        }
        let intents = document
            .pointer("/intents/supported")
            .and_then(Value::as_array)
            .is_some_and(|intents| !intents.is_empty());
        if !intents {
            self.error(
                "intents.supported",
                codes::MISSING_FIELD,
                "`intents.supported` is required: at least one intent the skill serves",
            );
        }
        if document.get("tools").is_none() {
            self.error(
                "tools",
                codes::MISSING_FIELD,
                "`tools` is required (`tools: []` for a skill with only the core tools)",
            );
        }
    }

    fn check(&mut self, skill: &Skill) {
        if let Some(id) = &skill.id
            && !is_safe_name(id)
        {
            self.error(
                "id",
                codes::UNSAFE_NAME,
                format!(
                    "id `{id}` is not a safe name (letters, digits, `-`, `_`, `.`; at most 64)"
                ),
            );
        }
        let has_tool_server = skill.mcp_server.is_some() || !skill.connectors.is_empty();
        self.intents(skill);
        let known_tools = self.tools(skill);
        self.policy(skill, &known_tools, has_tool_server);
        self.approvers(skill);
        self.engine(skill);
        self.resources(skill);
        self.required_inputs(skill);
        self.triggers(skill);
        let mut access = Vec::new();
        crate::access::validate(skill, &mut |path, code, message| {
            access.push((path.to_owned(), code, message));
        });
        for (path, code, message) in access {
            self.error(&path, code, message);
        }
        if let Some(server) = &skill.mcp_server
            && let Some(problem) = transport_problem(server)
        {
            self.error("mcp_server", codes::INVALID_VALUE, problem);
        }
        if let Some(contract) = &skill.output_contract {
            for (index, field) in contract.required_fields.iter().enumerate() {
                if field.trim().is_empty() {
                    self.error(
                        &format!("output_contract.required_fields[{index}]"),
                        codes::INVALID_VALUE,
                        "empty field name",
                    );
                }
            }
        }
    }

    fn intents(&mut self, skill: &Skill) {
        let Some(intents) = &skill.intents else {
            return;
        };
        let mut seen = HashMap::new();
        for (index, intent) in intents.supported.iter().enumerate() {
            let path = format!("intents.supported[{index}]");
            if intent.id.trim().is_empty() {
                self.error(
                    &format!("{path}.id"),
                    codes::MISSING_FIELD,
                    "intent has no id",
                );
            } else if let Some(first) = seen.insert(intent.id.clone(), index) {
                self.error(
                    &format!("{path}.id"),
                    codes::DUPLICATE_INTENT,
                    format!(
                        "intent id `{}` is already used by intents.supported[{first}]",
                        intent.id
                    ),
                );
            }
            for (entity_index, entity) in intent.entities.iter().enumerate() {
                let entity_path = format!("{path}.entities[{entity_index}]");
                if entity.name.trim().is_empty() {
                    self.error(
                        &format!("{entity_path}.name"),
                        codes::MISSING_FIELD,
                        "entity has no name",
                    );
                }
                if let Some(kind) = &entity.kind {
                    self.one_of(&format!("{entity_path}.type"), kind, VALUE_TYPES, "type");
                }
            }
        }
        if let Some(thresholds) = &intents.thresholds {
            for (name, value) in [
                ("accept", thresholds.accept),
                ("clarify", thresholds.clarify),
                ("reject", thresholds.reject),
                ("margin", thresholds.margin),
            ] {
                if let Some(value) = value
                    && !(0.0..=1.0).contains(&value)
                {
                    self.error(
                        &format!("intents.thresholds.{name}"),
                        codes::INVALID_VALUE,
                        format!("threshold {value} is outside [0, 1]"),
                    );
                }
            }
        }
    }

    /// Checks tools; returns the names and builder ids a step or approval may use.
    fn tools(&mut self, skill: &Skill) -> HashSet<String> {
        let mut names: HashMap<String, usize> = HashMap::new();
        let mut ids: HashMap<String, usize> = HashMap::new();
        for (index, tool) in skill.tools.iter().enumerate() {
            let path = format!("tools[{index}]");
            if tool.name.trim().is_empty() {
                self.error(
                    &format!("{path}.name"),
                    codes::MISSING_FIELD,
                    "tool has no name",
                );
            } else if !is_tool_name(&tool.name) {
                self.error(
                    &format!("{path}.name"),
                    codes::UNSAFE_NAME,
                    format!(
                        "tool name `{}` may only hold letters, digits, `_`, `-` and `.`",
                        tool.name
                    ),
                );
            } else if let Some(first) = names.insert(tool.name.clone(), index) {
                self.error(
                    &format!("{path}.name"),
                    codes::DUPLICATE_TOOL,
                    format!("tool `{}` is already declared at tools[{first}]", tool.name),
                );
            }
            if let Some(id) = &tool.id
                && let Some(first) = ids.insert(id.clone(), index)
            {
                self.error(
                    &format!("{path}.id"),
                    codes::DUPLICATE_TOOL,
                    format!("tool id `{id}` is already used by tools[{first}]"),
                );
            }
            let mut inputs = HashSet::new();
            for (input_index, input) in tool.inputs.iter().enumerate() {
                let input_path = format!("{path}.inputs[{input_index}]");
                if input.name.trim().is_empty() {
                    self.error(
                        &format!("{input_path}.name"),
                        codes::MISSING_FIELD,
                        "input has no name",
                    );
                } else if !inputs.insert(input.name.clone()) {
                    self.error(
                        &format!("{input_path}.name"),
                        codes::DUPLICATE_KEY,
                        format!("input `{}` is declared twice", input.name),
                    );
                }
                match &input.kind {
                    Some(kind) => {
                        self.one_of(&format!("{input_path}.type"), kind, VALUE_TYPES, "type")
                    }
                    None => self.warning(
                        &format!("{input_path}.type"),
                        codes::MISSING_FIELD,
                        format!("input `{}` has no type; string is assumed", input.name),
                    ),
                }
            }
            if let Some(policy) = &tool.policy {
                if let Some(allowed) = &policy.allowed {
                    self.one_of(
                        &format!("{path}.policy.allowed"),
                        allowed,
                        POLICY_LEVELS,
                        "allowed",
                    );
                }
                match &policy.requires_approval {
                    None | Some(Value::Bool(_)) => {}
                    Some(Value::String(level)) => self.one_of(
                        &format!("{path}.policy.requires_approval"),
                        level,
                        POLICY_LEVELS,
                        "requires_approval",
                    ),
                    Some(_) => self.error(
                        &format!("{path}.policy.requires_approval"),
                        codes::INVALID_TYPE,
                        "requires_approval is always | conditional | never",
                    ),
                }
                if let Some(condition) = &policy.condition {
                    self.condition(&format!("{path}.policy.condition"), condition);
                }
                for (condition_index, condition) in policy.conditions.iter().enumerate() {
                    let condition_path = format!("{path}.policy.conditions[{condition_index}]");
                    self.condition(&format!("{condition_path}.when"), &condition.when);
                    if let Some(action) = &condition.action {
                        self.one_of(
                            &format!("{condition_path}.action"),
                            action,
                            CONDITION_ACTIONS,
                            "action",
                        );
                    }
                }
                let conditional_approval = matches!(&policy.requires_approval, Some(Value::String(level)) if level.eq_ignore_ascii_case("conditional"));
                let has_approval_condition = policy.condition.is_some()
                    || policy
                        .conditions
                        .iter()
                        .any(|condition| condition.action.as_deref() == Some("require_approval"));
                if conditional_approval && !has_approval_condition {
                    self.warning(
                        &format!("{path}.policy.requires_approval"),
                        codes::MISSING_FIELD,
                        "requires_approval is conditional but no condition says when; approval rules in policy.approvals apply",
                    );
                }
            }
        }
        names.into_keys().chain(ids.into_keys()).collect()
    }

    fn tool_reference(
        &mut self,
        path: &str,
        tool: &str,
        known: &HashSet<String>,
        has_tool_server: bool,
        what: &str,
    ) {
        if tool.starts_with("sys.") || known.contains(tool) {
            return;
        }
        if has_tool_server {
            self.warning(path, codes::UNKNOWN_TOOL, format!("{what} `{tool}` is not declared in tools; it must come from the skill's MCP server"));
        } else {
            self.error(
                path,
                codes::UNKNOWN_TOOL,
                format!(
                    "{what} `{tool}` names no tool of this skill (and the skill has no MCP server)"
                ),
            );
        }
    }

    fn policy(&mut self, skill: &Skill, known_tools: &HashSet<String>, has_tool_server: bool) {
        let Some(policy) = &skill.policy else { return };
        if let Some(Guardrails::Rules(rules)) = &policy.guardrails {
            for (index, rule) in rules.iter().enumerate() {
                if !matches!(
                    rule.kind.to_ascii_lowercase().as_str(),
                    "never" | "always" | "must" | "must_not"
                ) {
                    self.warning(
                        &format!("policy.guardrails[{index}].type"),
                        codes::INVALID_VALUE,
                        format!(
                            "guardrail type `{}` is neither never nor always; treated as always",
                            rule.kind
                        ),
                    );
                }
            }
        }
        if let Some(guardrails) = &policy.guardrails {
            // Compilation keeps the first MAX_TEXT_GUARDRAILS text rules, never
            // first: say which ones a prompt will not carry.
            let (never, always) = guardrails.split_with_paths();
            let text_rules = never
                .iter()
                .chain(always.iter())
                .filter(|(_, rule)| compile_guardrail(rule).is_none());
            for (path, rule) in text_rules.skip(MAX_TEXT_GUARDRAILS) {
                self.warning(
                    path,
                    codes::GUARDRAIL_DROPPED,
                    format!(
                        "guardrail `{}` is dropped: only the first {MAX_TEXT_GUARDRAILS} text guardrails (never first) are kept for prompts",
                        rule.chars().take(80).collect::<String>()
                    ),
                );
            }
        }
        if let Some(guardrails) = &policy.guardrails {
            let (never, always) = guardrails.split();
            for rule in never.iter().chain(always.iter()) {
                let tool = match compile_guardrail(rule) {
                    Some(
                        crate::compile::CompiledGuardrail::ToolDeny { tool, .. }
                        | crate::compile::CompiledGuardrail::RequiresApproval { tool, .. },
                    ) => tool,
                    _ => continue,
                };
                if !tool.starts_with("sys.") && !known_tools.contains(&tool) && !has_tool_server {
                    self.warning("policy.guardrails", codes::UNKNOWN_TOOL, format!("guardrail `{rule}` compiles to a rule on `{tool}`, which is not a tool of this skill"));
                }
            }
        }
        let intent_ids: HashSet<&str> = skill
            .intents
            .iter()
            .flat_map(|intents| intents.supported.iter().map(|intent| intent.id.as_str()))
            .collect();
        for (index, workflow) in policy.workflows.iter().enumerate() {
            let path = format!("policy.workflows[{index}]");
            if workflow.name.trim().is_empty() {
                self.error(
                    &format!("{path}.name"),
                    codes::MISSING_FIELD,
                    "workflow has no name",
                );
            }
            if let Some(mode) = &workflow.on_deviation {
                self.one_of(
                    &format!("{path}.on_deviation"),
                    mode,
                    crate::deviation::ON_DEVIATION,
                    "on_deviation",
                );
            }
            if let Some(trigger) = &workflow.trigger
                && !intent_ids.contains(trigger.as_str())
            {
                self.warning(
                    &format!("{path}.trigger"),
                    codes::UNKNOWN_INTENT,
                    format!("trigger `{trigger}` names no supported intent"),
                );
            }
            for (step_index, step) in workflow.steps.iter().enumerate() {
                self.tool_reference(
                    &format!("{path}.steps[{step_index}]"),
                    step,
                    known_tools,
                    has_tool_server,
                    "workflow step",
                );
            }
        }
        for (index, approval) in policy.approvals.iter().enumerate() {
            let path = format!("policy.approvals[{index}]");
            if approval.tool_id.trim().is_empty() {
                self.error(
                    &format!("{path}.tool_id"),
                    codes::MISSING_FIELD,
                    "approval has no tool_id",
                );
            } else {
                self.tool_reference(
                    &format!("{path}.tool_id"),
                    &approval.tool_id,
                    known_tools,
                    has_tool_server,
                    "approval tool",
                );
            }
            if let Some(when) = &approval.when {
                self.condition(&format!("{path}.when"), when);
            }
            for (condition_index, condition) in approval.conditions.iter().enumerate() {
                self.condition(
                    &format!("{path}.conditions[{condition_index}].when"),
                    &condition.when,
                );
            }
        }
    }

    /// Four eyes need a second pair: every approval requirement names an
    /// approver role that is not one of the platform's own. `user` is the one
    /// platform role a rule may name: it means the job's owner confirms the
    /// exact call (a confirmation, never another user's approval).
    fn approvers(&mut self, skill: &Skill) {
        let rules = skill
            .policy
            .as_ref()
            .map(|policy| policy.approvals.as_slice())
            .unwrap_or_default();
        let mut approved_tools = HashSet::new();
        for (index, rule) in rules.iter().enumerate() {
            let path = format!("policy.approvals[{index}]");
            let only_denies = rule.action.as_deref() == Some("deny")
                || (!rule.conditions.is_empty()
                    && rule.when.is_none()
                    && rule.conditions.iter().all(|condition| {
                        condition.action.as_deref().or(rule.action.as_deref()) == Some("deny")
                    }));
            match rule.approver.as_deref().map(str::trim) {
                None | Some("") if !only_denies => self.error(
                    &format!("{path}.approver"),
                    codes::APPROVER_REQUIRED,
                    format!(
                        "the approval rule for `{}` names no approver role; add `approver: <role>` (e.g. supervisor), or `approver: user` for the user's own confirmation",
                        rule.tool_id
                    ),
                ),
                Some(role) if PLATFORM_ROLES.contains(&role.to_ascii_lowercase().as_str()) => {
                    self.error(
                        &format!("{path}.approver"),
                        codes::APPROVER_REQUIRED,
                        format!(
                            "`{role}` is a platform role, not an approver role: name the role that approves (e.g. supervisor)"
                        ),
                    )
                }
                _ => {}
            }
            approved_tools.insert(crate::compile::resolve_tool_name(
                &skill.tools,
                &rule.tool_id,
            ));
        }
        let missing = |what: &str, tool: &str| {
            format!(
                "{what}, but no policy.approvals rule for `{tool}` names who approves; add one with `approver: <role>`, or `approver: user` for the user's own confirmation"
            )
        };
        for (index, tool) in skill.tools.iter().enumerate() {
            let Some(policy) = &tool.policy else { continue };
            if approved_tools.contains(&tool.name) {
                continue;
            }
            let path = format!("tools[{index}].policy");
            let level = crate::compile::approval_level(policy);
            if level == "always" || (level == "conditional" && policy.condition.is_some()) {
                self.error(
                    &format!("{path}.requires_approval"),
                    codes::APPROVER_REQUIRED,
                    missing(&format!("`{}` requires approval", tool.name), &tool.name),
                );
            }
            for (condition_index, condition) in policy.conditions.iter().enumerate() {
                if condition.action.as_deref() == Some("require_approval") {
                    self.error(
                        &format!("{path}.conditions[{condition_index}].action"),
                        codes::APPROVER_REQUIRED,
                        missing(
                            &format!("`{}` requires approval when {}", tool.name, condition.when),
                            &tool.name,
                        ),
                    );
                }
            }
        }
        let Some(guardrails) = skill
            .policy
            .as_ref()
            .and_then(|policy| policy.guardrails.as_ref())
        else {
            return;
        };
        let (never, always) = guardrails.split_with_paths();
        for (path, rule) in never.iter().chain(always.iter()) {
            let tools: Vec<&str> = match compile_guardrail(rule) {
                Some(crate::compile::CompiledGuardrail::RequiresApproval { tool, .. }) => skill
                    .tools
                    .iter()
                    .filter(|declared| declared.name == tool)
                    .map(|declared| declared.name.as_str())
                    .collect(),
                Some(crate::compile::CompiledGuardrail::Threshold {
                    field,
                    requires_approval: true,
                    ..
                }) => skill
                    .tools
                    .iter()
                    .filter(|declared| declared.inputs.iter().any(|input| input.name == field))
                    .map(|declared| declared.name.as_str())
                    .collect(),
                _ => continue,
            };
            if let Some(tool) = tools
                .into_iter()
                .find(|tool| !approved_tools.contains(*tool))
            {
                self.error(
                    path,
                    codes::APPROVER_REQUIRED,
                    missing(
                        &format!("guardrail `{rule}` requires approval of `{tool}`"),
                        tool,
                    ),
                );
            }
        }
    }

    fn engine(&mut self, skill: &Skill) {
        match &skill.engine {
            None => {}
            Some(EngineSpec::Preset(name)) if !PRESETS.contains(&name.as_str()) => {
                self.error(
                    "engine",
                    codes::INVALID_VALUE,
                    format!(
                        "engine preset `{name}` is not one of {}",
                        PRESETS.join(" | ")
                    ),
                );
            }
            Some(EngineSpec::Preset(_)) => {}
            Some(EngineSpec::Settings(settings)) => {
                let on_max = settings.on_max_iterations.as_ref().or(settings
                    .rv2
                    .as_ref()
                    .and_then(|rv2| rv2.on_max_iterations.as_ref()));
                if let Some(on_max) = on_max {
                    let path = if settings.on_max_iterations.is_some() {
                        "engine.on_max_iterations"
                    } else {
                        "engine.rv2.on_max_iterations"
                    };
                    self.one_of(path, on_max, ON_MAX_ITERATIONS, "on_max_iterations");
                }
                if let (Some(top), Some(rv2)) = (
                    settings.max_iterations,
                    settings.rv2.as_ref().and_then(|rv2| rv2.max_iterations),
                ) && top != rv2
                {
                    self.warning("engine.rv2.max_iterations", codes::INVALID_VALUE, format!("engine.max_iterations ({top}) and engine.rv2.max_iterations ({rv2}) differ; {top} is used"));
                }
                if let Some(mode) = &settings.loop_mode {
                    self.one_of("engine.loop", mode, LOOP_MODES, "loop");
                }
                if settings.max_iterations == Some(0) {
                    self.error(
                        "engine.max_iterations",
                        codes::INVALID_VALUE,
                        "max_iterations must be at least 1",
                    );
                }
                if let Some(temperature) = settings.temperature
                    && !(0.0..=2.0).contains(&temperature)
                {
                    self.error(
                        "engine.temperature",
                        codes::INVALID_VALUE,
                        format!("temperature {temperature} is outside [0, 2]"),
                    );
                }
            }
        }
    }

    fn resources(&mut self, skill: &Skill) {
        let mut seen = HashSet::new();
        for (index, resource) in skill.resources.iter().enumerate() {
            let path = format!("resources[{index}]");
            if !is_safe_name(&resource.name) {
                self.error(
                    &format!("{path}.name"),
                    codes::UNSAFE_NAME,
                    format!("resource name `{}` is not a safe name", resource.name),
                );
            } else if !seen.insert(resource.name.as_str()) {
                self.error(
                    &format!("{path}.name"),
                    codes::DUPLICATE_KEY,
                    format!("resource `{}` is declared twice", resource.name),
                );
            }
            self.one_of(
                &format!("{path}.type"),
                &resource.kind,
                RESOURCE_TYPES,
                "resource type",
            );
        }
        for (path, text) in [
            (
                "role.persona",
                skill.role.as_ref().and_then(|role| role.persona.as_deref()),
            ),
            ("persona", skill.persona.as_deref()),
        ] {
            let Some(text) = text else { continue };
            match template_references(text) {
                Ok(names) => {
                    for name in names {
                        if !seen.contains(name.as_str()) {
                            self.warning(path, codes::INVALID_VALUE, format!("persona refers to resource `{name}`, which the skill does not declare"));
                        }
                    }
                }
                Err(message) => self.error(path, codes::INVALID_VALUE, message),
            }
        }
    }

    fn triggers(&mut self, skill: &Skill) {
        let mut seen = HashSet::new();
        for (index, trigger) in skill.triggers.iter().enumerate() {
            let path = format!("triggers[{index}]");
            if trigger.id.trim().is_empty() || !seen.insert(trigger.id.as_str()) {
                self.error(
                    &format!("{path}.id"),
                    codes::INVALID_VALUE,
                    format!("trigger id `{}` is empty or not unique", trigger.id),
                );
            }
            if trigger.kind != "schedule" {
                self.error(
                    &format!("{path}.type"),
                    codes::INVALID_VALUE,
                    format!(
                        "trigger type `{}` is not run by the runtime: only `schedule`",
                        trigger.kind
                    ),
                );
            }
            if let Err(problem) = crate::trigger::period_ms(&trigger.every) {
                self.error(&format!("{path}.every"), codes::INVALID_VALUE, problem);
            }
            if trigger.prompt.trim().is_empty() {
                self.error(
                    &format!("{path}.prompt"),
                    codes::MISSING_FIELD,
                    "a trigger's jobs need a prompt (their goal)",
                );
            }
            if trigger.concurrency == Some(0) {
                self.error(
                    &format!("{path}.concurrency"),
                    codes::INVALID_VALUE,
                    "concurrency 0 would never run: at least 1",
                );
            }
        }
    }

    fn required_inputs(&mut self, skill: &Skill) {
        for (index, input) in skill.required_inputs.iter().enumerate() {
            let path = format!("required_inputs[{index}]");
            if input.path.trim().is_empty() {
                self.error(
                    &format!("{path}.path"),
                    codes::MISSING_FIELD,
                    "required input has no path",
                );
            }
            if let Some(kind) = &input.input_type {
                self.one_of(
                    &format!("{path}.input_type"),
                    kind,
                    INPUT_TYPES,
                    "input_type",
                );
                if kind == "choice" && input.options.is_empty() {
                    self.error(
                        &format!("{path}.options"),
                        codes::MISSING_FIELD,
                        "a choice input needs options",
                    );
                }
            }
        }
    }
}

fn is_tool_name(name: &str) -> bool {
    name.len() <= 128
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// Paths (with `[*]` for list items) of every field the runtime reads.
const USED_FIELDS: &[&str] = &[
    "id",
    "name",
    "description",
    "version",
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
    "scenarios",
    "scenarios[*].id",
    "scenarios[*].title",
    "scenarios[*].description",
    "scenarios[*].steps",
    "scenarios[*].expected_outcome",
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
fn unused_fields(value: &Value, positions: &Positions, diagnostics: &mut Vec<Diagnostic>) {
    let used: HashSet<&str> = USED_FIELDS.iter().copied().collect();
    let mut unused: BTreeMap<String, (String, usize)> = BTreeMap::new();
    walk(value, "", "", &used, &mut unused);
    for (pattern, (first_path, count)) in unused {
        let times = if count > 1 {
            format!(" ({count} times)")
        } else {
            String::new()
        };
        diagnostics.push(Diagnostic::warning(
            &first_path,
            positions.find(&first_path),
            codes::UNUSED_FIELD,
            format!("`{pattern}` is kept but not used by the runtime{times}"),
        ));
    }
}

fn walk(
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

/// Loads a document whose format is detected from its name and content.
pub fn load_detected(source: &str, file_name: Option<&str>) -> Loaded {
    load(source, Format::detect(file_name, source))
}
