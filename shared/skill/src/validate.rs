//! Loading and validation: one pass that reports every problem with its path,
//! line and column, then compiles the policy of a skill without errors.

mod policy;

mod unused;

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::Value;

use crate::compile::{CompiledPolicy, MAX_TEXT_GUARDRAILS, compile, compile_guardrail};
use crate::condition::Condition;
use crate::diagnostics::{Diagnostic, codes};
use crate::document::{self, Document, Format, Positions};
use crate::engine::{EngineConfig, PRESETS};
use crate::model::{EngineSpec, Guardrails, Skill, Tool, ToolPolicy};
use crate::resources::{RESOURCE_TYPES, template_references};
use crate::slag::is_safe_name;
use unused::*;

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
    "time",
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

/// `engine.autonomy.level`: act within the policy, or confirm every side
/// effect with the user first.
const AUTONOMY_LEVELS: &[&str] = &["autonomous", "supervised"];
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

    /// A parsed document that is no skill, for one reason.
    fn refused_as(document: Document, diagnostic: Diagnostic) -> Self {
        Self {
            document: Some(document),
            ..Self::refused(vec![diagnostic])
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
            return Loaded::refused(vec![*diagnostic]);
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
        return Loaded::refused_as(document, diagnostic);
    }
    if crate::solution::is_solution(&document.value) {
        // Read as a skill it would be three missing fields: say what it is.
        let diagnostic = Diagnostic::error(
            "",
            positions.find(""),
            codes::INVALID_VALUE,
            "this document is a solution (its skills, the grants and handoffs between them), not a skill: check it with `adas solution validate FILE [SKILL FILES…]`, store it with `adas solution put FILE`",
        );
        return Loaded::refused_as(document, diagnostic);
    }
    let mut skill: Skill = match serde_path_to_error::deserialize(&document.value) {
        Ok(skill) => skill,
        Err(error) => {
            let path = normalize_serde_path(&error.path().to_string());
            let diagnostic = Diagnostic::error(
                &path,
                positions.find(&path),
                codes::INVALID_TYPE,
                format!("`{path}`: {}", error.inner()),
            );
            return Loaded::refused_as(document, diagnostic);
        }
    };

    let mut checker = Checker {
        positions: &positions,
        diagnostics: Vec::new(),
    };
    for (path, message) in crate::builder::take_as_written(&mut skill) {
        checker.warning(&path, codes::UNKNOWN_CONNECTION, message);
    }
    checker.required(&document.value);
    checker.check(&skill);
    unused_fields(&document.value, &positions, &mut checker.diagnostics);

    let mut diagnostics = checker.diagnostics;
    diagnostics.sort_by_key(Diagnostic::reading_order);
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
                format!(
                    "condition `{}` does not parse: {error}",
                    crate::grammar::shown(text)
                ),
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
        for (path, message) in crate::access::borrowable_identities(skill) {
            self.warning(&path, crate::diagnostics::codes::INVALID_VALUE, message);
        }
        if let Some(zone) = &skill.timezone
            && jiff::tz::TimeZone::get(zone).is_err()
        {
            self.error(
                "timezone",
                codes::INVALID_VALUE,
                format!("`{zone}` is no IANA time zone (e.g. `America/New_York`, `Europe/Berlin`, `UTC`)"),
            );
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
                if let Some(source) = &entity.extract_from {
                    self.one_of(
                        &format!("{entity_path}.extract_from"),
                        source.trim(),
                        crate::model::EXTRACT_FROM,
                        "extract_from",
                    );
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
            self.tool_inputs(&path, tool);
            if let Some(policy) = &tool.policy {
                self.tool_policy(&path, policy);
            }
        }
        names.into_keys().chain(ids.into_keys()).collect()
    }

    /// Checks a tool's inputs: named once each, typed, their patterns.
    fn tool_inputs(&mut self, path: &str, tool: &Tool) {
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
                Some(kind) => self.one_of(&format!("{input_path}.type"), kind, VALUE_TYPES, "type"),
                None => self.warning(
                    &format!("{input_path}.type"),
                    codes::MISSING_FIELD,
                    format!("input `{}` has no type; string is assumed", input.name),
                ),
            }
            if let Some(pattern) = &input.pattern {
                let at = format!("{input_path}.pattern");
                match crate::grammar::pattern(pattern) {
                    Ok(None) => {}
                    Ok(Some(problem)) => self.warning(&at, codes::INVALID_VALUE, problem),
                    Err(problem) => self.error(&at, codes::INVALID_VALUE, problem),
                }
            }
        }
    }

    /// Checks a tool's policy: its levels, conditions and actions, and a
    /// conditional approval that says when.
    fn tool_policy(&mut self, path: &str, policy: &ToolPolicy) {
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

    /// The Builder's engine clauses, each kept with its meaning or refused:
    /// `autonomy.level`, `rv2.iteration_timeout_ms` (a limit on each call)
    /// and `rv2.allow_parallel_tools` (a permission: ADAS runs a job's calls
    /// one after another, which `true` allows too — said, not refused).
    fn builder_engine(&mut self, settings: &crate::model::EngineSettings) {
        if let Some(level) = settings
            .autonomy
            .as_ref()
            .and_then(|autonomy| autonomy.level.as_deref())
        {
            self.one_of(
                "engine.autonomy.level",
                level,
                AUTONOMY_LEVELS,
                "autonomy level",
            );
        }
        let Some(rv2) = &settings.rv2 else { return };
        if rv2.allow_parallel_tools == Some(true) {
            self.warning(
                "engine.rv2.allow_parallel_tools",
                codes::INVALID_VALUE,
                "ADAS runs a job's calls one after another, each gated on what the last returned: parallel calls are allowed here, never made",
            );
        }
        if rv2.iteration_timeout_ms == Some(0) {
            self.error(
                "engine.rv2.iteration_timeout_ms",
                codes::INVALID_VALUE,
                "a call cannot be given 0 ms: a positive limit, or leave it out",
            );
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
                self.builder_engine(settings);
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

/// Loads a document whose format is detected from its name and content.
pub fn load_detected(source: &str, file_name: Option<&str>) -> Loaded {
    load(source, Format::detect(file_name, source))
}
