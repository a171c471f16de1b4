//! Tools whose approval names nobody. A Builder export may ask for approval
//! without saying who approves; nobody is assumed. The skill still loads (so
//! an export runs unchanged) and each such tool is *held*: never called,
//! shown unavailable with the fix, until the rule names an approver role.

use std::collections::HashSet;

use super::{CompiledGuardrail, approval_level, compile_guardrail, resolve_tool_name};
use crate::model::Skill;

/// A tool held for want of an approver: where the skill asks for approval,
/// and why, with the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    /// The document path of the clause that asks for approval.
    pub path: String,
    /// The tool held.
    pub tool: String,
    /// Why, with the fix.
    pub why: String,
}

const FIX: &str =
    "add `approver: <role>` (e.g. supervisor), or `approver: user` for the user's own confirmation";

/// Every tool the skill asks approval for without naming who approves, in
/// document order (a tool once per clause).
pub fn held(skill: &Skill) -> Vec<Held> {
    let mut out = Vec::new();
    let rules = skill
        .policy
        .as_ref()
        .map(|policy| policy.approvals.as_slice())
        .unwrap_or_default();
    let mut approved_tools = HashSet::new();
    for (index, rule) in rules.iter().enumerate() {
        let tool = resolve_tool_name(&skill.tools, &rule.tool_id);
        let only_denies = rule.action.as_deref() == Some("deny")
            || (!rule.conditions.is_empty()
                && rule.when.is_none()
                && rule.conditions.iter().all(|condition| {
                    condition.action.as_deref().or(rule.action.as_deref()) == Some("deny")
                }));
        let named = rule
            .approver
            .as_deref()
            .is_some_and(|role| !role.trim().is_empty());
        if named || only_denies {
            approved_tools.insert(tool);
            continue;
        }
        out.push(Held {
            path: format!("policy.approvals[{index}].approver"),
            why: format!(
                "the approval rule for `{}` names no approver role, so `{tool}` is held (never called) until it does: {FIX}",
                rule.tool_id
            ),
            tool,
        });
    }
    let unnamed = |what: &str, tool: &str| {
        format!(
            "{what}, but no policy.approvals rule for `{tool}` names who approves, so it is held (never called) until one does: {FIX}"
        )
    };
    for (index, tool) in skill.tools.iter().enumerate() {
        let Some(policy) = &tool.policy else { continue };
        if approved_tools.contains(&tool.name) {
            continue;
        }
        let path = format!("tools[{index}].policy");
        let level = approval_level(policy);
        if level == "always" || (level == "conditional" && policy.condition.is_some()) {
            out.push(Held {
                path: format!("{path}.requires_approval"),
                tool: tool.name.clone(),
                why: unnamed(&format!("`{}` requires approval", tool.name), &tool.name),
            });
        }
        for (condition_index, condition) in policy.conditions.iter().enumerate() {
            if condition.action.as_deref() == Some("require_approval") {
                out.push(Held {
                    path: format!("{path}.conditions[{condition_index}].action"),
                    tool: tool.name.clone(),
                    why: unnamed(
                        &format!("`{}` requires approval when {}", tool.name, condition.when),
                        &tool.name,
                    ),
                });
            }
        }
    }
    let Some(guardrails) = skill
        .policy
        .as_ref()
        .and_then(|policy| policy.guardrails.as_ref())
    else {
        return out;
    };
    let (never, always) = guardrails.split_with_paths();
    for (path, rule) in never.iter().chain(always.iter()) {
        let tools: Vec<&str> = match compile_guardrail(rule) {
            Some(CompiledGuardrail::RequiresApproval { tool, .. }) => skill
                .tools
                .iter()
                .filter(|declared| declared.name == tool)
                .map(|declared| declared.name.as_str())
                .collect(),
            Some(CompiledGuardrail::Threshold {
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
        for tool in tools
            .into_iter()
            .filter(|tool| !approved_tools.contains(*tool))
        {
            out.push(Held {
                path: path.clone(),
                tool: tool.to_owned(),
                why: unnamed(
                    &format!("guardrail `{rule}` requires approval of `{tool}`"),
                    tool,
                ),
            });
        }
    }
    out
}
