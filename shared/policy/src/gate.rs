//! The pre-tool gate. Checks run in a fixed order and the first that decides wins:
//! blocked/not-allowed tools, tools the skill does not declare, `allowed: never`, deny conditions, compiled
//! `tool_deny`, compiled thresholds, approval rules, the tool's
//! `requires_approval`, compiled `requires_approval`. Thresholds do what the
//! rule says: "amount > 500" applies above 500 (the reference's inverted
//! comparison is not copied).

mod approvals;

use std::time::Duration;

use adas_skill::OperationalSkill;
use adas_skill::compile::CompiledGuardrail;
use adas_state::{ApprovalStore, StateError};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

pub use approvals::*;

/// How long approval requests and decisions are kept.
pub const APPROVAL_TTL: Duration = Duration::from_secs(30 * 24 * 3600);

/// The gate's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Verdict {
    /// The call may run.
    Allow,
    /// The call must not run.
    Deny,
    /// The call runs only once an approver approves this exact call.
    RequireApproval,
}

/// Which kind of rule decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleKind {
    /// No rule applied.
    None,
    /// `tools[].policy` (`allowed: never`, deny conditions).
    ToolPolicy,
    /// A compiled `tool_deny` guardrail.
    ToolDeny,
    /// A compiled threshold guardrail.
    Threshold,
    /// An approval rule or `requires_approval`.
    Approval,
    /// `policy.tools.blocked` / not in `allowed`.
    BlockedTool,
    /// An approval already granted for this exact call.
    ApprovalGranted,
    /// The skill does not declare the tool: denied by default.
    Undeclared,
    /// `access_policy.rules`: a `deny` rule, a grant the conversation does
    /// not hold, or an argument that differs from the grant injecting it.
    AccessPolicy,
}

/// A gate decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// The verdict.
    pub verdict: Verdict,
    /// Why, for logs and users.
    pub reason: String,
    /// The text of the rule that decided.
    pub rule: String,
    /// The kind of rule.
    pub rule_kind: RuleKind,
    /// The approver role, for REQUIRE_APPROVAL.
    pub approver: String,
    /// The condition that matched.
    pub condition: String,
    /// Digest of tool + arguments.
    pub call_digest: String,
    /// Identifies the approval request (set when a job asked).
    pub correlation_id: String,
    /// The rule lets the job's own principal approve.
    #[serde(default)]
    pub allow_self_approval: bool,
}

impl Decision {
    fn new(
        verdict: Verdict,
        rule_kind: RuleKind,
        reason: impl Into<String>,
        rule: impl Into<String>,
        call_digest: &str,
    ) -> Self {
        Self {
            verdict,
            reason: reason.into(),
            rule: rule.into(),
            rule_kind,
            approver: String::new(),
            condition: String::new(),
            call_digest: call_digest.to_owned(),
            correlation_id: String::new(),
            allow_self_approval: false,
        }
    }

    fn approval(
        approver: &str,
        reason: impl Into<String>,
        rule: impl Into<String>,
        condition: &str,
        call_digest: &str,
    ) -> Self {
        Self {
            approver: approver.to_owned(),
            condition: condition.to_owned(),
            ..Self::new(
                Verdict::RequireApproval,
                RuleKind::Approval,
                reason,
                rule,
                call_digest,
            )
        }
    }
}

pub use adas_dia::call_digest;

use adas_skill::compile::matches_pattern as matches;

/// The platform's own `sys.*` tools, which every skill may call (no server
/// can offer a tool by such a name).
pub fn is_platform_tool(tool: &str) -> bool {
    tool.starts_with("sys.")
}

/// Whether a restricting condition applies, as the skill parsed it when it
/// loaded. One that does not parse (validation refuses them, so only a stored
/// record could carry one) applies: fail closed.
fn holds(skill: &OperationalSkill, condition: &str, args: &Map<String, Json>) -> bool {
    skill.parsed.holds(condition, args)
}

/// The approver a rule names when the job's owner is to confirm the exact call
/// herself: a confirmation (one execution, by the owner), never an approval
/// by a role every end user holds.
pub const OWNER_CONFIRMS: &str = "user";

/// Checks one fully resolved call against the skill's policy (no approvals looked up).
pub fn check(skill: &OperationalSkill, tool: &str, args: &Map<String, Json>) -> Decision {
    // A tool whose approval names nobody is never called, whatever the
    // call: nobody may be assumed to approve it.
    if let Some(why) = skill.compiled.held_why(tool) {
        return Decision::new(
            Verdict::Deny,
            RuleKind::Approval,
            format!("`{tool}` is unavailable: {why}"),
            "approval: no approver named",
            &call_digest(tool, args),
        );
    }
    let decision = check_rules(skill, tool, args);
    if decision.verdict == Verdict::RequireApproval && decision.approver.trim().is_empty() {
        // Validation refuses such a skill; a stored one still never lets
        // just anyone approve.
        return Decision {
            verdict: Verdict::Deny,
            reason: format!("`{tool}` needs approval, but the skill names no approver role for it"),
            ..decision
        };
    }
    decision
}

/// The access policy's word on a call as it will be made, given the grants
/// the job's conversation holds (none without a job): `None` when it may
/// run, else a denial naming what is missing or conflicting.
pub fn access<G: adas_skill::access::HeldGrant>(
    skill: &OperationalSkill,
    tool: &str,
    grants: &[G],
    args: &Map<String, Json>,
) -> Option<Decision> {
    use adas_skill::access::Verdict as Access;
    let (reason, rule) = match adas_skill::access::check(&skill.skill, tool, grants, args) {
        Access::Allow => return None,
        Access::Denied => (
            format!("`{tool}` is denied by the skill's access policy"),
            "access_policy: deny".to_owned(),
        ),
        Access::Missing(keys) => (
            format!(
                "`{tool}` needs the grant{} {}, which this conversation does not hold",
                if keys.len() == 1 { "" } else { "s" },
                keys.join(", ")
            ),
            format!("access_policy: requires_grants {}", keys.join(", ")),
        ),
        Access::Conflict { argument, grant } => (
            format!(
                "`{tool}`'s argument `{argument}` comes from the grant `{grant}` only; another value was given"
            ),
            format!("access_policy: inject {argument} from {grant}"),
        ),
    };
    Some(Decision::new(
        Verdict::Deny,
        RuleKind::AccessPolicy,
        reason,
        rule,
        &call_digest(tool, args),
    ))
}

/// The skill's rules on `tool(args)`, in their order: the first that
/// applies decides (denials, then approvals, then allow).
fn check_rules(skill: &OperationalSkill, tool: &str, args: &Map<String, Json>) -> Decision {
    let digest = call_digest(tool, args);
    let digest = digest.as_str();
    listed_denial(skill, tool, digest)
        .or_else(|| permission_denial(skill, tool, args, digest))
        .or_else(|| guardrail_denial(skill, tool, digest))
        .or_else(|| threshold(skill, tool, args, digest))
        .or_else(|| approval_rule(skill, tool, args, digest))
        .or_else(|| permission_approval(skill, tool, args, digest))
        .or_else(|| guardrail_approval(skill, tool, digest))
        .unwrap_or_else(|| {
            Decision::new(
                Verdict::Allow,
                RuleKind::None,
                "no rule applies",
                "",
                digest,
            )
        })
}

/// The approver the skill's approval rules name for `tool` (none: empty).
fn approver_for(skill: &OperationalSkill, tool: &str) -> String {
    skill
        .compiled
        .approvals
        .iter()
        .find(|rule| rule.tool == tool)
        .map_or("", |rule| rule.approver.as_str())
        .to_owned()
}

/// The declared permission of `tool`, if the skill declares it.
fn permission_of<'s>(
    skill: &'s OperationalSkill,
    tool: &str,
) -> Option<&'s adas_skill::compile::ToolPermission> {
    skill
        .compiled
        .tool_permissions
        .iter()
        .find(|permission| permission.tool == tool)
}

/// Blocked, not in the allowed list, or not declared by the skill.
fn listed_denial(skill: &OperationalSkill, tool: &str, digest: &str) -> Option<Decision> {
    let policy = &skill.compiled;
    if policy
        .blocked_tools
        .iter()
        .any(|pattern| matches(pattern, tool))
    {
        return Some(Decision::new(
            Verdict::Deny,
            RuleKind::BlockedTool,
            format!("tool `{tool}` is blocked by skill policy"),
            format!("policy.tools.blocked: {tool}"),
            digest,
        ));
    }
    if !policy.allowed_tools.is_empty()
        && !policy
            .allowed_tools
            .iter()
            .any(|pattern| matches(pattern, tool))
    {
        return Some(Decision::new(
            Verdict::Deny,
            RuleKind::BlockedTool,
            format!("tool `{tool}` is not in policy.tools.allowed"),
            format!("policy.tools.allowed: {}", policy.allowed_tools.join(", ")),
            digest,
        ));
    }

    let permission = permission_of(skill, tool);
    // A skill calls only what it declares: a tool its server also offers, or
    // that a program or a model names, has none of the policy a declaration
    // carries (another skill's approvals among them), so it is never allowed.
    if permission.is_none() && !is_platform_tool(tool) {
        return Some(Decision::new(
            Verdict::Deny,
            RuleKind::Undeclared,
            format!("tool `{tool}` is not declared by this skill"),
            format!("tools: `{tool}` is not declared"),
            digest,
        ));
    }
    None
}

/// The tool's own policy: `allowed: never`, or a deny rule that holds.
fn permission_denial(
    skill: &OperationalSkill,
    tool: &str,
    args: &Map<String, Json>,
    digest: &str,
) -> Option<Decision> {
    let permission = permission_of(skill, tool)?;
    if permission.allowed == "never" {
        return Some(Decision::new(
            Verdict::Deny,
            RuleKind::ToolPolicy,
            format!("tool `{tool}` is not allowed by skill policy"),
            format!("Tool \"{tool}\" is not allowed by skill policy (allowed: never)"),
            digest,
        ));
    }
    if let Some(rule) = permission
        .rules
        .iter()
        .find(|rule| rule.action == "deny" && holds(skill, &rule.when, args))
    {
        let rule_text = rule
            .message
            .clone()
            .unwrap_or_else(|| format!("deny when {}", rule.when));
        return Some(Decision {
            condition: rule.when.clone(),
            ..Decision::new(
                Verdict::Deny,
                RuleKind::ToolPolicy,
                rule_text.clone(),
                rule_text,
                digest,
            )
        });
    }
    None
}

/// A guardrail that denies the tool.
fn guardrail_denial(skill: &OperationalSkill, tool: &str, digest: &str) -> Option<Decision> {
    let policy = &skill.compiled;
    for guardrail in &policy.guardrails {
        if let CompiledGuardrail::ToolDeny {
            tool: denied,
            original,
        } = guardrail
            && denied == tool
        {
            return Some(Decision::new(
                Verdict::Deny,
                RuleKind::ToolDeny,
                format!("Blocked by guardrail: {original}"),
                original.clone(),
                digest,
            ));
        }
    }
    None
}

/// A threshold guardrail over an argument: approval, or a denial.
fn threshold(
    skill: &OperationalSkill,
    tool: &str,
    args: &Map<String, Json>,
    digest: &str,
) -> Option<Decision> {
    let policy = &skill.compiled;
    for guardrail in &policy.guardrails {
        if let CompiledGuardrail::Threshold {
            field,
            operator,
            value,
            requires_approval,
            original,
        } = guardrail
            && let Some(actual) = args.get(field)
            // A value that is not a finite number fails closed: the threshold applies.
            && adas_skill::condition::finite_number(actual)
                .is_none_or(|actual| operator.holds(actual, *value))
        {
            let condition = format!("{field} {} {value}", operator.as_str());
            if *requires_approval {
                let mut decision = Decision::approval(
                    &approver_for(skill, tool),
                    format!("Threshold needs approval: {original}"),
                    original.clone(),
                    &condition,
                    digest,
                );
                decision.rule_kind = RuleKind::Threshold;
                return Some(decision);
            }
            return Some(Decision {
                condition,
                ..Decision::new(
                    Verdict::Deny,
                    RuleKind::Threshold,
                    format!("Threshold exceeded: {original}"),
                    original.clone(),
                    digest,
                )
            });
        }
    }

    None
}

/// The skill's approval rules on the tool: the first that holds.
fn approval_rule(
    skill: &OperationalSkill,
    tool: &str,
    args: &Map<String, Json>,
    digest: &str,
) -> Option<Decision> {
    let policy = &skill.compiled;
    for rule in policy.approvals.iter().filter(|rule| rule.tool == tool) {
        if holds(skill, &rule.when, args) {
            let rule_text = format!(
                "{} requires {} approval when {}",
                rule.tool, rule.approver, rule.when
            );
            if rule.action == "deny" {
                return Some(Decision {
                    condition: rule.when.clone(),
                    ..Decision::new(
                        Verdict::Deny,
                        RuleKind::Approval,
                        rule.message.clone().unwrap_or_else(|| rule_text.clone()),
                        rule_text,
                        digest,
                    )
                });
            }
            let reason = rule
                .message
                .clone()
                .unwrap_or_else(|| format!("approval required: {}", rule.when));
            return Some(Decision {
                allow_self_approval: rule.allow_self_approval,
                ..Decision::approval(&rule.approver, reason, rule_text, &rule.when, digest)
            });
        }
    }

    None
}

/// The tool's own policy asks for approval: always, on its condition, or
/// by a rule that holds.
fn permission_approval(
    skill: &OperationalSkill,
    tool: &str,
    args: &Map<String, Json>,
    digest: &str,
) -> Option<Decision> {
    let permission = permission_of(skill, tool)?;
    let by_condition = permission.requires_approval == "conditional"
        && permission
            .condition
            .as_deref()
            .is_some_and(|condition| holds(skill, condition, args));
    if permission.requires_approval == "always" || by_condition {
        let condition = if by_condition {
            permission.condition.clone().unwrap_or_default()
        } else {
            "always".to_owned()
        };
        return Some(Decision::approval(
            &approver_for(skill, tool),
            format!("tool `{tool}` requires approval ({condition})"),
            format!(
                "tools.{tool}.policy.requires_approval: {}",
                permission.requires_approval
            ),
            &condition,
            digest,
        ));
    }
    if let Some(rule) = permission
        .rules
        .iter()
        .find(|rule| rule.action == "require_approval" && holds(skill, &rule.when, args))
    {
        let reason = rule
            .message
            .clone()
            .unwrap_or_else(|| format!("approval required when {}", rule.when));
        return Some(Decision::approval(
            &approver_for(skill, tool),
            reason.clone(),
            reason,
            &rule.when,
            digest,
        ));
    }
    None
}

/// A guardrail that asks for approval of the tool.
fn guardrail_approval(skill: &OperationalSkill, tool: &str, digest: &str) -> Option<Decision> {
    let policy = &skill.compiled;
    for guardrail in &policy.guardrails {
        if let CompiledGuardrail::RequiresApproval {
            tool: needing,
            original,
        } = guardrail
            && needing == tool
        {
            return Some(Decision::approval(
                &approver_for(skill, tool),
                format!("Guardrail: {original}"),
                original.clone(),
                "always",
                digest,
            ));
        }
    }
    None
}

/// The stricter of two decisions on one call (deny, then approval, then
/// allow); on a tie, `first`.
pub fn stricter(first: Decision, second: Decision) -> Decision {
    let rank = |verdict: Verdict| match verdict {
        Verdict::Deny => 2,
        Verdict::RequireApproval => 1,
        Verdict::Allow => 0,
    };
    if rank(second.verdict) > rank(first.verdict) {
        second
    } else {
        first
    }
}

/// The gate's decision on `tool(args)` for `job`: the policy of the skill
/// version the job runs on, and of a newer one when the policy tightened
/// since (`newer`: the stricter verdict wins), the conversation's grants,
/// and the approvals of the job — which execution of the exact call it is
/// (an approval pays for one) and who took part in it (they may not approve
/// it). Without a job there are no grants, and a call that needs one is
/// denied.
pub async fn check_for_job(
    store: &dyn ApprovalStore,
    (skill, newer): (&OperationalSkill, Option<&OperationalSkill>),
    job: Option<&adas_step::JobRecord>,
    tool: &str,
    args: &Map<String, Json>,
) -> Result<Decision, ApprovalError> {
    let decision = check(skill, tool, args);
    let decision = match newer {
        Some(newer) => stricter(decision, check(newer, tool, args)),
        None => decision,
    };
    let now = adas_step::now_ms();
    let live: Vec<(String, Json)> = job
        .map(|record| adas_step::held(record, now))
        .unwrap_or_default();
    // Access rules too: a deny or a required grant added after the job
    // paused holds at once, as a tightened approval rule does.
    let mut decision = decision;
    for skill in std::iter::once(skill).chain(newer) {
        if let Some(denied) = access(skill, tool, &live, args) {
            decision = stricter(decision, denied);
        }
    }
    let Some(record) = job else {
        return Ok(decision);
    };
    let excluded = adas_step::certainty::took_part(record, args, &decision.call_digest);
    let call = JobCall {
        job_id: &record.job_id,
        occurrence: adas_step::certainty::executions(record, &decision.call_digest),
        excluded: &excluded,
    };
    ApprovalBook::new(store)
        .settle(&record.slag, call, tool, args, decision)
        .await
}
