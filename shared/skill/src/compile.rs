//! Policy compilation at bootstrap (spec 004 §4.1, §4.6): the narrow guardrail
//! compiler, tool permissions, approval rules and workflow sub-goals.
//!
//! The guardrail compiler is deliberately narrow. Exactly three patterns compile,
//! tried in this order per rule; everything else stays text for prompts:
//!
//! | pattern | type |
//! |---|---|
//! | "never use X" (anywhere, case-insensitive) | `tool_deny` of X |
//! | "field op number", op in `> < >= <= == !=` | `threshold` |
//! | "X … requires/needs approval" (X = the first word) | `requires_approval` of X |
//!
//! Two deliberate departures from the JavaScript reference, both documented here:
//! tool names may be dotted (`sys.escalate`), and a threshold's number may have
//! decimals. A threshold whose rule mentions "approval" asks for approval instead
//! of denying the call.

use serde::{Deserialize, Serialize};

use crate::condition::{CompareOp, Condition};
use crate::model::{Skill, Tool};

pub mod approvers;
pub mod escalation;

/// At most this many text guardrails are kept for prompts (spec 004 §4.2).
pub const MAX_TEXT_GUARDRAILS: usize = 10;

/// A guardrail compiled to a mechanical check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CompiledGuardrail {
    /// The tool is never called.
    ToolDeny {
        /// Tool name.
        tool: String,
        /// The rule's text.
        original: String,
    },
    /// Calls whose argument matches the comparison are blocked (or held for approval).
    Threshold {
        /// Argument name.
        field: String,
        /// Operator.
        #[serde(with = "op_serde")]
        operator: CompareOp,
        /// Threshold.
        value: f64,
        /// Whether a match needs approval rather than being denied.
        requires_approval: bool,
        /// The rule's text.
        original: String,
    },
    /// Calls of the tool need approval.
    RequiresApproval {
        /// Tool name.
        tool: String,
        /// The rule's text.
        original: String,
    },
}

impl CompiledGuardrail {
    /// The rule's original text.
    pub fn original(&self) -> &str {
        match self {
            Self::ToolDeny { original, .. }
            | Self::Threshold { original, .. }
            | Self::RequiresApproval { original, .. } => original,
        }
    }
}

mod op_serde {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::condition::CompareOp;

    pub fn serialize<S: Serializer>(op: &CompareOp, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(op.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<CompareOp, D::Error> {
        let text = String::deserialize(deserializer)?;
        CompareOp::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown operator `{text}`")))
    }
}

/// Compiles one guardrail rule, or `None` if it stays text.
pub fn compile_guardrail(rule: &str) -> Option<CompiledGuardrail> {
    if let Some(tool) = never_use(rule) {
        return Some(CompiledGuardrail::ToolDeny {
            tool,
            original: rule.to_owned(),
        });
    }
    if let Some((field, operator, value)) = threshold(rule) {
        let requires_approval = rule.to_ascii_lowercase().contains("approval");
        return Some(CompiledGuardrail::Threshold {
            field,
            operator,
            value,
            requires_approval,
            original: rule.to_owned(),
        });
    }
    if let Some(tool) = requires_approval(rule) {
        return Some(CompiledGuardrail::RequiresApproval {
            tool,
            original: rule.to_owned(),
        });
    }
    None
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// A tool name: word characters with inner dots; a trailing dot ends the sentence.
fn take_tool_name(text: &str) -> Option<String> {
    let name: String = text
        .chars()
        .take_while(|c| is_word(*c) || *c == '.')
        .collect();
    let name = name.trim_end_matches('.');
    (!name.is_empty()).then(|| name.to_owned())
}

fn never_use(rule: &str) -> Option<String> {
    let lower = rule.to_ascii_lowercase();
    let mut search_from = 0;
    while let Some(found) = lower[search_from..].find("never use") {
        let start = search_from + found;
        let rest = &rule[start + "never use".len()..];
        let trimmed = rest.trim_start();
        if trimmed.len() < rest.len()
            && let Some(name) = take_tool_name(trimmed)
        {
            return Some(name);
        }
        search_from = start + 1;
    }
    None
}

fn threshold(rule: &str) -> Option<(String, CompareOp, f64)> {
    let chars: Vec<char> = rule.chars().collect();
    for start in 0..chars.len() {
        if !is_word(chars[start]) || (start > 0 && is_word(chars[start - 1])) {
            continue;
        }
        let mut end = start;
        while end < chars.len() && is_word(chars[end]) {
            end += 1;
        }
        let field: String = chars[start..end].iter().collect();
        let mut at = end;
        while at < chars.len() && chars[at].is_whitespace() {
            at += 1;
        }
        let two: String = chars[at..(at + 2).min(chars.len())].iter().collect();
        let (operator, width) = match CompareOp::parse(&two) {
            Some(op) => (op, 2),
            None => match chars.get(at).and_then(|c| CompareOp::parse(&c.to_string())) {
                Some(op @ (CompareOp::Gt | CompareOp::Lt)) => (op, 1),
                _ => continue,
            },
        };
        at += width;
        while at < chars.len() && chars[at].is_whitespace() {
            at += 1;
        }
        let number_start = at;
        while at < chars.len()
            && (chars[at].is_ascii_digit() || (chars[at] == '.' && at > number_start))
        {
            at += 1;
        }
        let number: String = chars[number_start..at].iter().collect();
        let number = number.trim_end_matches('.');
        if let Ok(value) = number.parse::<f64>() {
            return Some((field, operator, value));
        }
    }
    None
}

fn requires_approval(rule: &str) -> Option<String> {
    let lower = rule.to_ascii_lowercase();
    let mentions = [
        "requires approval",
        "require approval",
        "needs approval",
        "need approval",
    ]
    .iter()
    .any(|phrase| {
        lower
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains(phrase)
    });
    if !mentions {
        return None;
    }
    let first = rule.trim_start();
    take_tool_name(first)
}

/// Per-tool permissions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolPermission {
    /// Tool name.
    pub tool: String,
    /// `always` | `conditional` | `never`.
    pub allowed: String,
    /// `always` | `conditional` | `never`.
    pub requires_approval: String,
    /// Condition of a conditional approval.
    pub condition: Option<String>,
    /// Conditions with actions (`deny`, `require_approval`, …).
    pub rules: Vec<ConditionRule>,
}

/// A condition with its action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConditionRule {
    /// Condition text (parses with [`Condition::parse`]).
    pub when: String,
    /// Action.
    pub action: String,
    /// Message when it applies.
    pub message: Option<String>,
}

/// An approval rule with its tool resolved to a name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompiledApproval {
    /// Tool name.
    pub tool: String,
    /// Condition text; `always` when the rule has none.
    pub when: String,
    /// Action.
    pub action: String,
    /// Role that must approve.
    pub approver: String,
    /// Message when it applies.
    pub message: Option<String>,
    /// The job's own principal may approve.
    #[serde(default)]
    pub allow_self_approval: bool,
}

/// A workflow step as a sub-goal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubGoal {
    /// `sg_<workflow>_<n>`, n from 1.
    pub id: String,
    /// The step.
    pub intent: String,
    /// The previous step's id, if any.
    pub depends_on: Vec<String>,
    /// Workflow name.
    pub workflow: String,
    /// Whether the workflow is required.
    pub required: bool,
}

/// Everything the gates and the planner need from a skill's policy.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CompiledPolicy {
    /// Compiled guardrails.
    pub guardrails: Vec<CompiledGuardrail>,
    /// Text guardrails for prompts (at most [`MAX_TEXT_GUARDRAILS`]), `never` first.
    pub text_guardrails: Vec<String>,
    /// Text guardrails beyond the cap, kept for the finalization gate.
    pub dropped_text_guardrails: usize,
    /// Per-tool permissions.
    pub tool_permissions: Vec<ToolPermission>,
    /// Approval rules.
    pub approvals: Vec<CompiledApproval>,
    /// Workflow sub-goals.
    pub sub_goals: Vec<SubGoal>,
    /// `policy.tools.allowed`.
    pub allowed_tools: Vec<String>,
    /// `policy.tools.blocked`.
    pub blocked_tools: Vec<String>,
    /// Tools held for want of an approver, with why (see [`approvers`]).
    #[serde(default)]
    pub held: Vec<(String, String)>,
    /// When the job is handed to a human (see [`escalation`]).
    #[serde(default)]
    pub escalations: escalation::Escalations,
}

/// What a skill's policy says of a tool before any argument is known: what
/// the console and `adas skill tools` show beside it (the gate still judges
/// each call with its arguments).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// Calls may run (conditions on arguments may still deny one).
    Allowed,
    /// Calls wait for an approver (always, or when a condition holds).
    NeedsApproval,
    /// Never called: blocked, outside `policy.tools.allowed`, `allowed: never`
    /// or a "never use" guardrail.
    Never,
    /// Never called until the skill names who approves it: it asks for
    /// approval and names nobody ([`CompiledPolicy::held_why`] says where).
    Held,
}

/// `*` matches everything, `prefix*` a prefix, anything else exactly.
pub fn matches_pattern(pattern: &str, tool: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => tool.starts_with(prefix),
        None => pattern == tool,
    }
}

impl CompiledPolicy {
    /// Why `tool` is held for want of an approver, with the fix.
    pub fn held_why(&self, tool: &str) -> Option<&str> {
        self.held
            .iter()
            .find(|(held, _)| held == tool)
            .map(|(_, why)| why.as_str())
    }

    /// The tool's [`Standing`] under this policy.
    pub fn standing(&self, tool: &str) -> Standing {
        let permission = self.tool_permissions.iter().find(|p| p.tool == tool);
        let never = self.blocked_tools.iter().any(|p| matches_pattern(p, tool))
            || (!self.allowed_tools.is_empty()
                && !self.allowed_tools.iter().any(|p| matches_pattern(p, tool)))
            || permission.is_some_and(|p| p.allowed == "never")
            || self.guardrails.iter().any(
                |g| matches!(g, CompiledGuardrail::ToolDeny { tool: denied, .. } if denied == tool),
            );
        if never {
            return Standing::Never;
        }
        if self.held_why(tool).is_some() {
            return Standing::Held;
        }
        let approval = permission.is_some_and(|p| {
            matches!(p.requires_approval.as_str(), "always" | "conditional")
                || p.rules.iter().any(|rule| rule.action == "require_approval")
        }) || self.approvals.iter().any(|a| a.tool == tool)
            || self.guardrails.iter().any(|g| {
                matches!(g, CompiledGuardrail::RequiresApproval { tool: held, .. } if held == tool)
            });
        if approval {
            Standing::NeedsApproval
        } else {
            Standing::Allowed
        }
    }
}

/// Compiles a skill's policy. Call it on a validated skill: conditions that do
/// not parse are kept as text here and were already reported by validation.
pub fn compile(skill: &Skill) -> CompiledPolicy {
    let policy = skill.policy.clone().unwrap_or_default();
    let (never, always) = policy
        .guardrails
        .as_ref()
        .map(|guardrails| guardrails.split())
        .unwrap_or_default();

    let mut guardrails = Vec::new();
    let mut text = Vec::new();
    for rule in never.iter().chain(always.iter()) {
        match compile_guardrail(rule) {
            Some(compiled) => guardrails.push(compiled),
            None => text.push(rule.clone()),
        }
    }
    let dropped_text_guardrails = text.len().saturating_sub(MAX_TEXT_GUARDRAILS);
    text.truncate(MAX_TEXT_GUARDRAILS);

    let tool_permissions = skill.tools.iter().map(tool_permission).collect();

    let approvals = policy
        .approvals
        .iter()
        .flat_map(|rule| {
            let tool = resolve_tool_name(&skill.tools, &rule.tool_id);
            // No approver: none is assumed (the tool is held: see
            // `approvers`; the gate denies every call of it).
            let approver = rule.approver.clone().unwrap_or_default().trim().to_owned();
            let default_action = rule
                .action
                .clone()
                .unwrap_or_else(|| "require_approval".into());
            let mut compiled: Vec<CompiledApproval> = rule
                .conditions
                .iter()
                .map(|condition| CompiledApproval {
                    tool: tool.clone(),
                    when: condition.when.clone(),
                    action: condition
                        .action
                        .clone()
                        .unwrap_or_else(|| default_action.clone()),
                    approver: approver.clone(),
                    message: condition.message.clone(),
                    allow_self_approval: rule.allow_self_approval,
                })
                .collect();
            if rule.when.is_some() || compiled.is_empty() {
                compiled.push(CompiledApproval {
                    tool: tool.clone(),
                    when: rule.when.clone().unwrap_or_else(|| "always".into()),
                    action: default_action,
                    approver,
                    message: None,
                    allow_self_approval: rule.allow_self_approval,
                });
            }
            compiled
        })
        .collect();

    CompiledPolicy {
        guardrails,
        text_guardrails: text,
        dropped_text_guardrails,
        tool_permissions,
        approvals,
        sub_goals: workflows_to_sub_goals(&policy.workflows),
        allowed_tools: policy
            .tools
            .as_ref()
            .map(|tools| tools.allowed.clone())
            .unwrap_or_default(),
        blocked_tools: policy
            .tools
            .as_ref()
            .map(|tools| tools.blocked.clone())
            .unwrap_or_default(),
        held: approvers::held(skill)
            .into_iter()
            .map(|held| (held.tool, held.why))
            .collect(),
        escalations: escalation::escalations(skill),
    }
}

/// An approval's `tool_id` may be a tool's name or its builder id.
pub fn resolve_tool_name(tools: &[Tool], tool_id: &str) -> String {
    tools
        .iter()
        .find(|tool| tool.name == tool_id)
        .or_else(|| {
            tools
                .iter()
                .find(|tool| tool.id.as_deref() == Some(tool_id))
        })
        .map_or_else(|| tool_id.to_owned(), |tool| tool.name.clone())
}

/// A tool policy's `requires_approval` as one word: `always` (or `true`),
/// `conditional`, else `never`.
pub fn approval_level(policy: &crate::model::ToolPolicy) -> String {
    match &policy.requires_approval {
        Some(serde_json::Value::Bool(true)) => "always".to_owned(),
        Some(serde_json::Value::String(text)) => text.to_ascii_lowercase(),
        _ => "never".to_owned(),
    }
}

fn tool_permission(tool: &Tool) -> ToolPermission {
    let policy = tool.policy.clone().unwrap_or_default();
    let requires_approval = approval_level(&policy);
    ToolPermission {
        tool: tool.name.clone(),
        allowed: policy
            .allowed
            .clone()
            .map_or_else(|| "always".into(), |allowed| allowed.to_ascii_lowercase()),
        requires_approval,
        condition: policy.condition.clone(),
        rules: policy
            .conditions
            .iter()
            .map(|condition| ConditionRule {
                when: condition.when.clone(),
                action: condition.action.clone().unwrap_or_else(|| "deny".into()),
                message: condition.message.clone(),
            })
            .collect(),
    }
}

/// Workflows → sub-goals `sg_<workflow>_<n>`, each depending on the previous step.
/// The workflow part is an identifier (`Identity Verification` →
/// `identity_verification`), so ids can be referenced from DIA and logs.
pub fn workflows_to_sub_goals(workflows: &[crate::model::Workflow]) -> Vec<SubGoal> {
    let mut sub_goals = Vec::new();
    for workflow in workflows {
        let name = identifier(&workflow.name);
        for (index, step) in workflow.steps.iter().enumerate() {
            sub_goals.push(SubGoal {
                id: format!("sg_{name}_{}", index + 1),
                intent: step.clone(),
                depends_on: if index > 0 {
                    vec![format!("sg_{name}_{index}")]
                } else {
                    Vec::new()
                },
                workflow: workflow.name.clone(),
                required: workflow.required,
            });
        }
    }
    sub_goals
}

/// Lowercase ASCII letters, digits and single `_`s: every other run of
/// characters becomes one `_`.
fn identifier(name: &str) -> String {
    let mut id = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.is_empty() && !id.ends_with('_') {
            id.push('_');
        }
    }
    let id = id.trim_end_matches('_');
    if id.is_empty() {
        "workflow".to_owned()
    } else {
        id.to_owned()
    }
}

/// Parses a condition, for callers that hold compiled rule text.
pub fn parse_condition(text: &str) -> Option<Condition> {
    Condition::parse(text).ok()
}
