//! The typed DAL skill model (spec 004 §3, spec 002, and what the Skill Builder's
//! real exports carry). Deserialization is deliberately lenient about values
//! (types, enums and conditions are strings checked by `validate`, so one pass
//! reports every problem) and strict about shapes (a list where a string belongs
//! is an error with its path). Fields not modelled here stay in the document
//! value, so nothing is lost.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A skill document.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Skill {
    /// Builder id, e.g. `skill_identity-gateway`.
    pub id: Option<String>,
    /// Human-readable name.
    pub name: Option<String>,
    /// What the skill does.
    pub description: Option<String>,
    /// Document version.
    pub version: Option<Value>,
    /// The problem the skill solves (goal coverage).
    pub problem: Option<Problem>,
    /// The agent's role and persona.
    pub role: Option<Role>,
    /// Top-level persona (builder exports carry it beside `role.persona`).
    pub persona: Option<String>,
    /// Intents the skill supports.
    pub intents: Option<Intents>,
    /// Tools the skill calls.
    pub tools: Vec<Tool>,
    /// Guardrails, workflows, approvals, tool filters.
    pub policy: Option<Policy>,
    /// Fields the final answer must carry.
    pub output_contract: Option<OutputContract>,
    /// Engine settings: a preset name or an object.
    pub engine: Option<EngineSpec>,
    /// MCP server URI providing the skill's tools.
    pub mcp_server: Option<String>,
    /// The IANA time zone its users live in (`America/New_York`): "today",
    /// "tomorrow" and "next Tuesday" are read there. UTC when absent.
    pub timezone: Option<String>,
    /// MCP connector ids (builder format).
    pub connectors: Vec<String>,
    /// Resources a job binds.
    pub resources: Vec<ResourceDeclaration>,
    /// Prompt hints for inputs the platform asks for.
    pub required_inputs: Vec<RequiredInput>,
    /// Usage scenarios (kept for the builder; not used at run time).
    pub scenarios: Vec<Value>,
    /// The domain's words and what they mean (`CCU: Coronary care unit
    /// (cardiac unit)`): a term that is an allowed value is named by its
    /// meaning's words too.
    pub glossary: std::collections::BTreeMap<String, String>,
    /// Tool results that issue grants.
    pub grant_mappings: Vec<GrantMapping>,
    /// Which grants a tool call needs, and the arguments they fill.
    pub access_policy: Option<AccessPolicy>,
    /// Fields of tool results that never leave.
    pub response_filters: Vec<ResponseFilter>,
    /// Jobs the skill starts itself.
    pub triggers: Vec<crate::trigger::Trigger>,
}

impl Skill {
    /// Every allowed value the skill lists: its tools' inputs' and its
    /// intents' entities' enums.
    pub fn allowed_values(&self) -> impl Iterator<Item = &Value> {
        self.tools
            .iter()
            .flat_map(|tool| &tool.inputs)
            .flat_map(|input| &input.allowed)
            .chain(
                self.intents
                    .iter()
                    .flat_map(|intents| &intents.supported)
                    .flat_map(|intent| &intent.entities)
                    .flat_map(|entity| &entity.allowed),
            )
    }

    /// Whether the user's words alone may give `name` (an entity of some
    /// intent with `extract_from: message`).
    pub fn said_only(&self, name: &str) -> bool {
        self.intents
            .iter()
            .flat_map(|intents| &intents.supported)
            .flat_map(|intent| &intent.entities)
            .any(|entity| entity.name == name && entity.said_only())
    }
}

/// `problem`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Problem {
    /// The problem statement.
    pub statement: Option<String>,
    /// Background.
    pub context: Option<String>,
    /// Goals.
    pub goals: Vec<String>,
}

/// `role`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Role {
    /// Role name.
    pub name: Option<String>,
    /// Persona text; may use `{{resources.x}}` and `{{#if resources.x}}…{{/if}}`.
    pub persona: Option<String>,
    /// How replies sound.
    pub communication_style: Option<CommunicationStyle>,
}

/// `role.communication_style`: the voice of replies (`tone: friendly`,
/// `verbosity: concise`), added to the persona the polisher writes in.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct CommunicationStyle {
    /// Tone (`friendly`, `formal`, `technical`, …).
    pub tone: Option<String>,
    /// Verbosity (`concise`, `balanced`, `detailed`).
    pub verbosity: Option<String>,
}

impl Role {
    /// The persona with its communication style, as the polisher reads it.
    pub fn voice(&self) -> Option<String> {
        let style = self.communication_style.as_ref().map(|style| {
            [("tone", &style.tone), ("verbosity", &style.verbosity)]
                .iter()
                .filter_map(|(name, value)| value.as_ref().map(|value| format!("{name}: {value}")))
                .collect::<Vec<_>>()
                .join("; ")
        });
        match (
            self.persona.clone(),
            style.filter(|style| !style.is_empty()),
        ) {
            (Some(persona), Some(style)) => Some(format!("{persona} ({style})")),
            (persona, style) => persona.or(style),
        }
    }
}

/// `intents`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Intents {
    /// Supported intents.
    pub supported: Vec<Intent>,
    /// Score thresholds.
    pub thresholds: Option<Thresholds>,
    /// What to do with a message no intent matches.
    pub out_of_domain: Option<OutOfDomain>,
}

/// One supported intent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Intent {
    /// Intent id.
    pub id: String,
    /// What the user wants.
    pub description: Option<String>,
    /// Example messages.
    pub examples: Vec<String>,
    /// Entities to extract.
    pub entities: Vec<Entity>,
    /// Workflow this intent runs (builder format; `policy.workflows[].trigger` is the other way).
    pub maps_to_workflow: Option<String>,
    /// Reply template for this intent's answer: `{{name}}` is a field of the
    /// tools' outputs or the job's facts (`{{order_id}} is {{status}}.`).
    pub reply: Option<String>,
}

/// An entity of an intent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Entity {
    /// Entity name (matches tool input names).
    pub name: String,
    /// Type name (see [`crate::validate::VALUE_TYPES`]).
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Whether the intent needs it.
    pub required: bool,
    /// Allowed values.
    #[serde(rename = "enum")]
    pub allowed: Vec<Value>,
    /// What the value is; its words point at the value (as a tool input's do).
    pub description: Option<String>,
    /// Where the value may come from: `message` — the user's words (the
    /// messages of the conversation and the answers to its questions), never
    /// the caller's `context`; `any` (the default) — the caller's context too.
    pub extract_from: Option<String>,
}

impl Entity {
    /// `extract_from: message`: the value is the user's to say.
    pub fn said_only(&self) -> bool {
        self.extract_from
            .as_deref()
            .is_some_and(|source| source.trim().eq_ignore_ascii_case("message"))
    }
}

/// The values of `extract_from`.
pub const EXTRACT_FROM: &[&str] = &["message", "any"];

/// `intents.thresholds`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Thresholds {
    /// Accept at or above.
    pub accept: Option<f64>,
    /// Ask to clarify at or above.
    pub clarify: Option<f64>,
    /// Out of domain below.
    pub reject: Option<f64>,
    /// The best intent must lead the next by at least this much to be acted on.
    pub margin: Option<f64>,
}

/// `intents.out_of_domain`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct OutOfDomain {
    /// Action, e.g. `redirect`.
    pub action: Option<String>,
    /// Message to the user.
    pub message: Option<String>,
    /// Where else the user may turn (desks, teams, skills), named in the
    /// out-of-domain answer.
    pub suggest_domains: Vec<String>,
}

/// A tool.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Tool {
    /// Builder id (approvals may name a tool by it).
    pub id: Option<String>,
    /// Tool name, as called.
    pub name: String,
    /// What it does.
    pub description: Option<String>,
    /// Inputs.
    pub inputs: Vec<ToolInput>,
    /// Output.
    pub output: Option<ToolOutput>,
    /// Tool-level policy.
    pub policy: Option<ToolPolicy>,
    /// Security classification.
    pub security: Option<Security>,
    /// The server tool it is, on a connection (`mcp_bridge`).
    pub source: Option<ToolSourceRef>,
    /// Whether calling the tool changes nothing (overrides the MCP server's
    /// `readOnlyHint`); absent and unannotated, a tool has side effects.
    pub read_only: Option<bool>,
    /// Whether a second call with the same arguments (and idempotency key)
    /// changes nothing more than the first: a call found started but not
    /// finished after a crash is run again only for such a tool (read-only
    /// tools are); any other pauses the job for a human.
    pub idempotent: Option<bool>,
    /// Whether the tool's own error text may be shown to the user when a call
    /// fails (filtered like its results). Absent: a failure is shown only as
    /// its category — a tool server's words never reach a user prompt unasked.
    pub show_errors: Option<bool>,
}

/// An input of a tool.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ToolInput {
    /// Argument name.
    pub name: String,
    /// Type name; `text` is a string.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Whether a call needs it.
    pub required: bool,
    /// What it is.
    pub description: Option<String>,
    /// Allowed values.
    #[serde(rename = "enum")]
    pub allowed: Vec<Value>,
    /// Default value.
    pub default: Option<Value>,
    /// A regular expression a string value must match (JSON Schema `pattern`).
    pub pattern: Option<String>,
    /// A JSON Schema `format` (`email`, `date`, …).
    pub format: Option<String>,
}

/// A tool's output.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ToolOutput {
    /// Type name.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// What it is.
    pub description: Option<String>,
}

/// `tools[].policy`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ToolPolicy {
    /// `always` | `conditional` | `never`.
    pub allowed: Option<String>,
    /// `always` | `conditional` | `never`, or a boolean.
    pub requires_approval: Option<Value>,
    /// Condition of a conditional approval.
    pub condition: Option<String>,
    /// Builder format: conditions with actions.
    pub conditions: Vec<PolicyCondition>,
}

/// One `{when, action, message}` rule.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct PolicyCondition {
    /// Condition text.
    pub when: String,
    /// `deny`, `require_approval`, `allow`, `warn`.
    pub action: Option<String>,
    /// Message when it applies.
    pub message: Option<String>,
}

/// `tools[].security`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Security {
    /// e.g. `pii_read`.
    pub classification: Option<String>,
    /// Fields of a `pii_*` tool's result that may be shown (dotted paths,
    /// found at any depth, as filters are): every other value of its result
    /// is shown as `***` wherever the job is shown.
    pub reveal: Vec<String>,
}

/// `policy`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Policy {
    /// Guardrails.
    pub guardrails: Option<Guardrails>,
    /// Workflows.
    pub workflows: Vec<Workflow>,
    /// Approval rules.
    pub approvals: Vec<ApprovalRule>,
    /// Tool filters.
    pub tools: Option<ToolFilter>,
    /// Where an escalated conversation goes (within a solution).
    pub escalation: Option<Escalation>,
}

/// `policy.escalation`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Escalation {
    /// `false` turns it off.
    pub enabled: Option<bool>,
    /// When to escalate: a condition in the gate's grammar holds on a call's
    /// arguments, a sentence holds when the user's message says it (see
    /// `compile::Escalations`).
    pub conditions: Vec<Value>,
    /// The solution skill an escalated conversation's next turn runs on.
    pub target: Option<String>,
}

impl Escalation {
    /// The target, when escalation is on.
    pub fn target(&self) -> Option<&str> {
        self.target
            .as_deref()
            .filter(|target| self.enabled != Some(false) && !target.trim().is_empty())
    }
}

/// Guardrails, in either builder shape: `{never: [..], always: [..]}` or a list of `{type, rule}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Guardrails {
    /// `{never: [...], always: [...]}`.
    Lists {
        /// Things never to do.
        #[serde(default)]
        never: Vec<String>,
        /// Things always to do.
        #[serde(default)]
        always: Vec<String>,
    },
    /// `[{type: never, rule: ...}, ...]`.
    Rules(Vec<GuardrailRule>),
}

/// One `{type, rule}` guardrail.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct GuardrailRule {
    /// `never` or `always`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The rule text.
    pub rule: String,
}

impl Guardrails {
    /// `(never, always)` rule texts, whatever the shape. Rules of an unknown type count as `always`
    /// (validation warns about them).
    pub fn split(&self) -> (Vec<String>, Vec<String>) {
        let (never, always) = self.split_with_paths();
        let rules = |list: Vec<(String, String)>| list.into_iter().map(|(_, rule)| rule).collect();
        (rules(never), rules(always))
    }

    /// [`Guardrails::split`] with each rule's document path, for diagnostics.
    #[allow(clippy::type_complexity)]
    pub fn split_with_paths(&self) -> (Vec<(String, String)>, Vec<(String, String)>) {
        match self {
            Self::Lists { never, always } => {
                let with_paths = |key: &str, list: &[String]| {
                    list.iter()
                        .enumerate()
                        .map(|(index, rule)| {
                            (format!("policy.guardrails.{key}[{index}]"), rule.clone())
                        })
                        .collect()
                };
                (with_paths("never", never), with_paths("always", always))
            }
            Self::Rules(rules) => {
                let mut never = Vec::new();
                let mut always = Vec::new();
                for (index, rule) in rules.iter().enumerate() {
                    let entry = (
                        format!("policy.guardrails[{index}].rule"),
                        rule.rule.clone(),
                    );
                    match rule.kind.to_ascii_lowercase().as_str() {
                        "never" | "must_not" => never.push(entry),
                        _ => always.push(entry),
                    }
                }
                (never, always)
            }
        }
    }
}

/// A workflow.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Workflow {
    /// Builder id (`maps_to_workflow` refers to it).
    pub id: Option<String>,
    /// Name.
    pub name: String,
    /// Intent that starts it.
    pub trigger: Option<String>,
    /// Tool names, in order.
    pub steps: Vec<String>,
    /// Whether it must run for the goal to be covered.
    pub required: bool,
    /// What a plan that leaves the steps meets: `warn` or `block`.
    pub on_deviation: Option<String>,
}

/// An approval rule.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ApprovalRule {
    /// Tool name or builder tool id.
    pub tool_id: String,
    /// Condition (flat form).
    pub when: Option<String>,
    /// Action, e.g. `require_approval`.
    pub action: Option<String>,
    /// Role that must approve.
    pub approver: Option<String>,
    /// Whether the principal that started the job may approve its own call
    /// (default: no — the approver must be someone else).
    pub allow_self_approval: bool,
    /// Builder form: conditions with actions.
    pub conditions: Vec<PolicyCondition>,
}

/// `policy.tools`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ToolFilter {
    /// Allowed tool patterns (`*` for all).
    pub allowed: Vec<String>,
    /// Blocked tool names.
    pub blocked: Vec<String>,
}

/// `output_contract`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct OutputContract {
    /// Fields the final answer must carry.
    pub required_fields: Vec<String>,
}

/// `engine`: a preset name or an object that replaces the preset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum EngineSpec {
    /// `standard` | `careful` | `fast` | `autonomous`.
    Preset(String),
    /// Explicit settings.
    Settings(Box<EngineSettings>),
}

/// Explicit engine settings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct EngineSettings {
    /// Model name (one of the operator's configured models).
    pub model: Option<String>,
    /// The model of the finalization gate (spec 004 §8); default: `model`.
    pub gate_model: Option<String>,
    /// `plan` (the whole plan up front, the default) | `rv2` (the model picks
    /// each next call after seeing the last result).
    #[serde(rename = "loop")]
    pub loop_mode: Option<String>,
    /// Sampling temperature.
    pub temperature: Option<f64>,
    /// Iteration budget.
    pub max_iterations: Option<u32>,
    /// What happens when the budget runs out.
    pub on_max_iterations: Option<String>,
    /// Finalization gate settings.
    pub finalization_gate: Option<FinalizationGateSettings>,
    /// Loop detection settings.
    pub loop_detection: Option<LoopDetectionSettings>,
    /// Builder form: `rv2.max_iterations`, `rv2.on_max_iterations`.
    pub rv2: Option<Rv2Settings>,
    /// Builder form: `internal_error.loop_detection`.
    pub internal_error: Option<InternalErrorSettings>,
    /// A waiting job whose ask is older than this (ms) ends as EXPIRED (default: never).
    pub wait_timeout_ms: Option<u64>,
    /// Invalid answers to one ask before the job escalates (default 3).
    pub max_invalid_answers: Option<u32>,
    /// How far the agent acts before its user confirms (Builder form).
    pub autonomy: Option<AutonomySettings>,
}

/// `engine.finalization_gate`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct FinalizationGateSettings {
    /// Whether the gate runs.
    pub enabled: Option<bool>,
    /// Replans after a failed gate.
    pub max_retries: Option<u32>,
}

/// `engine.loop_detection`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct LoopDetectionSettings {
    /// Whether identical calls are detected.
    pub enabled: Option<bool>,
    /// Identical calls that trip it.
    pub identical_call_threshold: Option<u32>,
}

/// `engine.rv2`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Rv2Settings {
    /// Iteration budget.
    pub max_iterations: Option<u32>,
    /// What happens when the budget runs out.
    pub on_max_iterations: Option<String>,
    /// How long one tool call of the job may take (ms).
    pub iteration_timeout_ms: Option<u64>,
    /// Whether calls may run at once (ADAS runs them one after another).
    pub allow_parallel_tools: Option<bool>,
}

/// `engine.autonomy`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct AutonomySettings {
    /// `autonomous` (act within the policy) | `supervised` (the user says
    /// yes to every side effect first).
    pub level: Option<String>,
}

/// `engine.internal_error`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct InternalErrorSettings {
    /// Loop detection settings.
    pub loop_detection: Option<LoopDetectionSettings>,
}

/// A resource declaration.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ResourceDeclaration {
    /// Name a job binds.
    pub name: String,
    /// `filesystem` | `connection_string` | `api_endpoint` | `credential`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Whether a job must bind it.
    pub required: bool,
    /// What it is for.
    pub description: Option<String>,
}

/// A prompt hint for an input the platform asks for.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct RequiredInput {
    /// Field path, e.g. `order_id` or `identity.email_or_phone`.
    pub path: String,
    /// The question.
    pub prompt: Option<String>,
    /// `text` | `choice`.
    pub input_type: Option<String>,
    /// Choices for `choice`.
    pub options: Vec<String>,
}

/// `grant_mappings[]`: a tool's successful result issues grants.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct GrantMapping {
    /// The skill's tool whose result issues them.
    pub tool: String,
    /// Only on a result that is not an error (the only kind supported: `false`
    /// is refused by validation).
    pub on_success: Option<bool>,
    /// The grants.
    pub grants: Vec<GrantRule>,
}

/// One grant a mapping issues.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct GrantRule {
    /// Grant key, e.g. `sched.user_id`.
    pub key: String,
    /// JSONPath on the result selecting the one value.
    pub value_from: String,
    /// A comparison over the result (`$.status == "active"`); absent: always.
    pub condition: Option<String>,
    /// Lifetime in the conversation.
    pub ttl_seconds: Option<u64>,
}

/// `access_policy`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct AccessPolicy {
    /// Rules, each for a set of tools.
    pub rules: Vec<AccessRule>,
}

/// One `access_policy.rules[]` entry.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct AccessRule {
    /// Tool names; `*` is every tool the skill declares.
    pub tools: Vec<String>,
    /// `allow`, `constrain` or `deny`.
    pub effect: String,
    /// Grants the conversation must hold.
    pub requires_grants: Vec<String>,
    /// Required values of held grants (`{"sched.user_type": "team_member"}`).
    pub required_values: Map<String, Value>,
    /// Arguments filled from grants: `{"organizer_id": "${grants.sched.user_id}"}`.
    pub inject: Map<String, Value>,
}

/// `response_filters[]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ResponseFilter {
    /// Builder id.
    pub id: Option<String>,
    /// Dotted paths removed from every tool result.
    pub strip_fields: Vec<String>,
    /// Dotted paths whose values are masked.
    pub mask_fields: Vec<String>,
}

/// `tools[].source`: which server tool a declared tool is.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ToolSourceRef {
    /// `mcp_bridge` (the only kind the runtime routes).
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// The connection id (`connectors[]`).
    pub connection_id: Option<String>,
    /// The server's name for the tool.
    pub mcp_tool: Option<String>,
}
