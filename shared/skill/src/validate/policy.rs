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
        if let Some(guardrails) = &policy.guardrails {
            self.guardrails(guardrails, known_tools, has_tool_server);
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
        if let Some(escalation) = &policy.escalation {
            self.escalation_conditions(&escalation.conditions);
        }
    }

    /// Guardrails: their types, the text rules a prompt will not carry, and
    /// rules on tools the skill does not have.
    fn guardrails(
        &mut self,
        guardrails: &Guardrails,
        known_tools: &HashSet<String>,
        has_tool_server: bool,
    ) {
        if let Guardrails::Rules(rules) = guardrails {
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

    /// Each escalation condition is a sentence or parses in the gate's
    /// grammar (see `compile::escalation`).
    fn escalation_conditions(&mut self, conditions: &[Value]) {
        for (index, condition) in conditions.iter().enumerate() {
            let path = format!("policy.escalation.conditions[{index}]");
            match condition.as_str() {
                Some(text) if crate::compile::escalation::is_sentence(text) => {}
                Some(text) => self.condition(&path, text),
                None => self.error(
                    &path,
                    codes::INVALID_VALUE,
                    "an escalation condition is a sentence (\"Security vulnerability \
                     detected\") or a condition (`amount > 5000`)",
                ),
            }
        }
    }

    /// Four eyes need a second pair: an approver role is never one of the
    /// platform's own (an error). `user` is the one platform role a rule may
    /// name: the job's owner confirms the exact call. A rule that names no
    /// approver holds its tool (a warning naming the fix: see
    /// [`crate::compile::approvers`]).
    pub(super) fn approvers(&mut self, skill: &Skill) {
        let rules = skill
            .policy
            .as_ref()
            .map(|policy| policy.approvals.as_slice())
            .unwrap_or_default();
        for (index, rule) in rules.iter().enumerate() {
            if let Some(role) = rule.approver.as_deref().map(str::trim)
                && PLATFORM_ROLES.contains(&role.to_ascii_lowercase().as_str())
            {
                self.error(
                    &format!("policy.approvals[{index}].approver"),
                    codes::APPROVER_REQUIRED,
                    format!(
                        "`{role}` is a platform role, not an approver role: name the role that approves (e.g. supervisor)"
                    ),
                );
            }
        }
        for held in crate::compile::approvers::held(skill) {
            self.warning(&held.path, codes::APPROVER_REQUIRED, held.why);
        }
    }
}
