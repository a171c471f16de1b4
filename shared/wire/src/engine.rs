//! The engines' answers as adas.v1 messages: one body for each of IntentService
//! `Plan`, GateService `CheckToolCall`, `Finalize` and `PolishReply`, shared by
//! the services (after authentication and the skill lookup) and by the
//! orchestrator's in-process step engine, so a step answered in-process is the
//! answer the service would have sent.

use std::collections::BTreeMap;

use adas_nlu::{Detection, Planner};
use adas_policy::finalize::{Action, Draft, ReasonCode};
use adas_policy::gate::{ApprovalBook, ApprovalError, Decision, JobCall, RuleKind, Verdict};
use adas_policy::llm::{FinalizationJudge, Polisher};
use adas_proto::pb;
use adas_runtime::convert::{json_to_value, struct_to_json, value_to_json};
use adas_skill::OperationalSkill;
use adas_skill::resources::{BoundResources, render};

fn entity(entity: &adas_nlu::Entity) -> pb::Entity {
    pb::Entity {
        name: entity.name.clone(),
        r#type: entity.kind.clone(),
        value: Some(json_to_value(&entity.value)),
        text: entity.text.clone(),
        start: entity.start as i32,
        end: entity.end as i32,
        guessed: entity.guessed,
    }
}

/// A detection as DetectIntent answers it.
pub fn detection(detection: &Detection) -> pb::DetectIntentResponse {
    pb::DetectIntentResponse {
        intent_id: detection.intent_id.clone().unwrap_or_default(),
        confidence: detection.confidence,
        margin: detection.margin,
        confident: detection.confident,
        entities: detection.entities.iter().map(entity).collect(),
        out_of_domain: detection.out_of_domain.as_ref().map(|out| pb::OutOfDomain {
            action: out.action.clone(),
            message: out.message.clone(),
        }),
        candidates: detection
            .candidates
            .iter()
            .map(|(intent_id, score)| pb::IntentCandidate {
                intent_id: intent_id.clone(),
                score: *score,
            })
            .collect(),
    }
}

/// `Plan`: the planner's answer to `request` on `skill`. Whatever produced the
/// program, it must be valid DIA before anyone runs it.
pub async fn plan(
    planner: &dyn Planner,
    skill: &OperationalSkill,
    request: &pb::PlanRequest,
    tokens_spent: u64,
) -> Result<pb::PlanResponse, adas_dia::ParseError> {
    let context = request
        .context
        .as_ref()
        .map(struct_to_json)
        .unwrap_or_default();
    let history: Vec<adas_nlu::Step> = request
        .history
        .iter()
        .map(|call| adas_nlu::Step {
            tool: call.tool.clone(),
            arguments: call
                .arguments
                .as_ref()
                .map(struct_to_json)
                .unwrap_or_default(),
            output: call.output.as_ref().map(value_to_json).unwrap_or_default(),
            is_error: call.is_error,
        })
        .collect();
    let memory = request
        .conversation
        .as_ref()
        .map(struct_to_json)
        .unwrap_or_default();
    let input = adas_nlu::PlanInput {
        memory: Some(&memory),
        previous_intent: (!request.previous_intent_id.is_empty())
            .then_some(request.previous_intent_id.as_str()),
        message: &request.message,
        context: &context,
        intent: (!request.intent_id.is_empty()).then_some(request.intent_id.as_str()),
        next_only: request.next_only,
        history: &history,
        feedback: (!request.feedback.is_empty()).then_some(request.feedback.as_str()),
        tokens_spent,
    };
    let planned = planner.plan(&skill.skill, &input).await;
    let program = planned
        .program
        .as_ref()
        .map(ToString::to_string)
        .unwrap_or_default();
    adas_dia::parse(&program)?;
    Ok(pb::PlanResponse {
        program,
        intent: Some(detection(&planned.detection)),
        workflow: planned.workflow.unwrap_or_default(),
        facts: planned.facts.iter().map(entity).collect(),
        decider: Some(crate::decider(
            &planned.planner,
            &planned.usage,
            planned.fallback.as_deref(),
        )),
        done: planned.done,
    })
}

/// `CheckToolCall`: the policy's decision on `tool(args)`, settled against the
/// approvals of `job` when one is named: which execution of the exact call it
/// is (an approval pays for one) and who took part in it (they may not
/// approve it).
pub async fn check_tool_call(
    store: &dyn adas_state::IdempotencyStore,
    (skill, newer): (&OperationalSkill, Option<&OperationalSkill>),
    job: Option<&adas_jobs::JobRecord>,
    tool: &str,
    args: &serde_json::Map<String, serde_json::Value>,
) -> Result<pb::GateDecision, ApprovalError> {
    // A job plans on the version it started with; a policy tightened since
    // (`newer`) still holds its pending calls: the stricter verdict wins.
    let decision = adas_policy::gate::check(skill, tool, args);
    let decision = match newer {
        Some(newer) => {
            adas_policy::gate::stricter(decision, adas_policy::gate::check(newer, tool, args))
        }
        None => decision,
    };
    // Grants are the conversation's, never the request's: without a job
    // there are none, and a call that needs one is denied.
    let now = adas_state::now_ms();
    let live: Vec<&adas_jobs::Grant> = job
        .map(|record| adas_jobs::live_grants(record, now).collect())
        .unwrap_or_default();
    let decision = match adas_policy::gate::access(skill, tool, &live, args) {
        Some(denied) => adas_policy::gate::stricter(decision, denied),
        None => decision,
    };
    let Some(record) = job else {
        return Ok(gate_decision(decision));
    };
    let excluded = adas_jobs::certainty::took_part(record, args, &decision.call_digest);
    let call = JobCall {
        job_id: &record.job_id,
        occurrence: adas_jobs::certainty::executions(record, &decision.call_digest),
        excluded: &excluded,
    };
    let decision = ApprovalBook::new(store)
        .settle(&record.slag, call, tool, args, decision)
        .await?;
    Ok(gate_decision(decision))
}

fn gate_decision(decision: Decision) -> pb::GateDecision {
    pb::GateDecision {
        verdict: match decision.verdict {
            Verdict::Allow => pb::GateVerdict::Allow,
            Verdict::Deny => pb::GateVerdict::Deny,
            Verdict::RequireApproval => pb::GateVerdict::RequireApproval,
        } as i32,
        reason: decision.reason,
        rule: decision.rule,
        rule_kind: match decision.rule_kind {
            RuleKind::None => pb::GateRuleKind::NoRule,
            RuleKind::ToolPolicy => pb::GateRuleKind::ToolPolicy,
            RuleKind::ToolDeny => pb::GateRuleKind::ToolDeny,
            RuleKind::Threshold => pb::GateRuleKind::Threshold,
            RuleKind::Approval => pb::GateRuleKind::Approval,
            RuleKind::BlockedTool => pb::GateRuleKind::BlockedTool,
            RuleKind::ApprovalGranted => pb::GateRuleKind::ApprovalGranted,
            RuleKind::Undeclared => pb::GateRuleKind::UndeclaredTool,
            RuleKind::AccessPolicy => pb::GateRuleKind::AccessPolicy,
        } as i32,
        approver: decision.approver,
        condition: decision.condition,
        call_digest: decision.call_digest,
        correlation_id: decision.correlation_id,
    }
}

/// `Finalize`: the judge's verdict on a draft reply.
pub async fn finalize(
    judge: &dyn FinalizationJudge,
    skill: &OperationalSkill,
    request: pb::FinalizeRequest,
    tokens_spent: u64,
) -> pb::FinalizationResult {
    let draft = Draft {
        reply: request.draft_reply,
        results: request
            .results
            .as_ref()
            .map(struct_to_json)
            .unwrap_or_default(),
        intent_id: request.intent_id,
        succeeded_tools: request.succeeded_tools,
        goal: request.goal,
        tokens_spent,
    };
    let (verdict, spent) = adas_policy::llm::finalize(judge, skill, &draft).await;
    pb::FinalizationResult {
        passed: verdict.passed,
        skipped: verdict.skipped,
        score: verdict.score,
        reasons: verdict
            .reasons
            .iter()
            .map(|reason| pb::FinalizationReason {
                code: match reason.code {
                    ReasonCode::GoalNotMet => pb::FinalizationReasonCode::GoalNotMet,
                    ReasonCode::GuardrailViolated => pb::FinalizationReasonCode::GuardrailViolated,
                    ReasonCode::MissingRequiredField => {
                        pb::FinalizationReasonCode::MissingRequiredField
                    }
                    ReasonCode::OutputIncomplete => pb::FinalizationReasonCode::OutputIncomplete,
                    ReasonCode::ToneMismatch => pb::FinalizationReasonCode::ToneMismatch,
                } as i32,
                detail: reason.detail.clone(),
            })
            .collect(),
        missing_fields: verdict.missing_fields,
        suggested_action: match verdict.suggested_action {
            None => pb::SuggestedAction::Unspecified,
            Some(Action::ToolCall) => pb::SuggestedAction::ToolCall,
            Some(Action::ClarifyUser) => pb::SuggestedAction::ClarifyUser,
            Some(Action::Rewrite) => pb::SuggestedAction::Rewrite,
            Some(Action::Escalate) => pb::SuggestedAction::Escalate,
        } as i32,
        unchecked_guardrails: verdict.unchecked_guardrails,
        decider: Some(crate::decider(
            &spent.by,
            &spent.usage,
            spent.fallback.as_deref(),
        )),
    }
}

/// `PolishReply`: the reply in the skill's persona (formatting only).
pub async fn polish_reply(
    polisher: &dyn Polisher,
    skill: &OperationalSkill,
    request: pb::PolishReplyRequest,
    tokens_spent: u64,
) -> pb::PolishReplyResponse {
    let template = skill
        .skill
        .role
        .as_ref()
        .and_then(adas_skill::model::Role::voice)
        .or_else(|| skill.skill.persona.clone())
        .unwrap_or_default();
    let credentials = skill
        .skill
        .resources
        .iter()
        .filter(|resource| resource.kind == "credential")
        .map(|resource| resource.name.clone())
        .collect();
    let bound = BoundResources {
        values: request.resources.into_iter().collect::<BTreeMap<_, _>>(),
        credentials,
        unbound_optional: Vec::new(),
    };
    let persona = render(&template, &bound);
    let results = request
        .results
        .as_ref()
        .map(struct_to_json)
        .unwrap_or_default();
    let (text, spent) = polisher
        .polish(&adas_policy::llm::PolishInput {
            persona: &persona,
            reply: &request.reply,
            results: &results,
            waited: request.user_waited,
            model: skill.engine.model.as_deref(),
            tokens_spent,
        })
        .await;
    pb::PolishReplyResponse {
        text,
        decider: Some(crate::decider(
            &spent.by,
            &spent.usage,
            spent.fallback.as_deref(),
        )),
    }
}
