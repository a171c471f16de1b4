//! The policy and approvals clauses checked: rules, conditions, tool
//! references, approvers and their roles.

use super::*;

impl Checker<'_> {
    pub(super) fn policy(
        &mut self,
        skill: &Skill,
        known_tools: &HashSet<String>,
        has_tool_server: bool,
    ) {
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
    pub(super) fn approvers(&mut self, skill: &Skill) {
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
}
