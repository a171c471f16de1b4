//! The bodies of IntentService `Plan` and GateService `CheckToolCall`,
//! `Finalize` and `PolishReply` as the services answer them: the request
//! read into domain terms, the domain function (the planner, the gate, the
//! judge, the polisher) and its answer on the wire. The orchestrator's
//! remote step engine reads these answers back with the `*_of` functions.

use adas_nlu::{Detection, Planned, Planner};
use adas_policy::finalize::{Action, Draft, ReasonCode, Verdict as Judgement};
use adas_policy::gate::{ApprovalError, Decision, RuleKind, Verdict};
use adas_policy::llm::{Decider, FinalizationJudge, Polisher};
use adas_proto::pb;
use adas_runtime::convert::{json_to_value, struct_to_json, value_to_json};
use adas_skill::OperationalSkill;
use adas_step::effect::{Judged, Polished};
use adas_step::guard::{GateWord, Verdict as Word};

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

fn entity_of(entity: &pb::Entity) -> adas_nlu::Entity {
    adas_nlu::Entity {
        name: entity.name.clone(),
        kind: entity.r#type.clone(),
        value: entity.value.as_ref().map(value_to_json).unwrap_or_default(),
        text: entity.text.clone(),
        start: entity.start.max(0) as usize,
        end: entity.end.max(0) as usize,
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

/// A detection read from the wire.
pub fn detection_of(detected: &pb::DetectIntentResponse) -> Detection {
    Detection {
        intent_id: (!detected.intent_id.is_empty()).then(|| detected.intent_id.clone()),
        confidence: detected.confidence,
        margin: detected.margin,
        confident: detected.confident,
        entities: detected.entities.iter().map(entity_of).collect(),
        candidates: detected
            .candidates
            .iter()
            .map(|candidate| (candidate.intent_id.clone(), candidate.score))
            .collect(),
        out_of_domain: detected
            .out_of_domain
            .as_ref()
            .map(|out| adas_nlu::OutOfDomain {
                action: out.action.clone(),
                message: out.message.clone(),
            }),
    }
}

/// `Plan`: the planner's answer to `request` on `skill`. Whatever produced the
/// program, it must be valid DIA before anyone runs it.
pub async fn plan(
    planner: &dyn Planner,
    skill: &OperationalSkill,
    request: &pb::PlanRequest,
    spend: &adas_step::Spend,
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
        tokens_spent: spend.tokens,
        personal: &spend.personal,
    };
    let planned = adas_nlu::plan_checked(planner, &skill.skill, &input).await?;
    Ok(plan_response(&planned))
}

/// A plan on the wire.
pub fn plan_response(planned: &Planned) -> pb::PlanResponse {
    pb::PlanResponse {
        program: planned
            .program
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default(),
        intent: Some(detection(&planned.detection)),
        workflow: planned.workflow.clone().unwrap_or_default(),
        facts: planned.facts.iter().map(entity).collect(),
        decider: Some(crate::decider(&Decider {
            by: planned.planner.clone(),
            usage: planned.usage,
            fallback: planned.fallback.clone(),
        })),
        done: planned.done,
    }
}

/// A plan read from the wire (its program parsed: the service checked it).
pub fn planned_of(response: pb::PlanResponse) -> Result<Planned, adas_dia::ParseError> {
    let program = if response.program.trim().is_empty() {
        None
    } else {
        Some(adas_dia::parse(&response.program)?)
    };
    let decider = crate::decider_of(response.decider.as_ref());
    Ok(Planned {
        detection: detection_of(&response.intent.unwrap_or_default()),
        program,
        workflow: (!response.workflow.is_empty()).then_some(response.workflow),
        facts: response.facts.iter().map(entity_of).collect(),
        planner: decider.by,
        usage: decider.usage,
        fallback: decider.fallback,
        done: response.done,
    })
}

/// `CheckToolCall`: the gate's decision on `tool(args)` for `job`
/// (`adas_policy::gate::check_for_job`), on the wire.
pub async fn check_tool_call(
    store: &dyn adas_state::ApprovalStore,
    skills: (&OperationalSkill, Option<&OperationalSkill>),
    job: Option<&adas_jobs::JobRecord>,
    tool: &str,
    args: &serde_json::Map<String, serde_json::Value>,
) -> Result<pb::GateDecision, ApprovalError> {
    adas_policy::gate::check_for_job(store, skills, job, tool, args)
        .await
        .map(gate_decision)
}

fn rule_kind(kind: RuleKind) -> pb::GateRuleKind {
    match kind {
        RuleKind::None => pb::GateRuleKind::NoRule,
        RuleKind::ToolPolicy => pb::GateRuleKind::ToolPolicy,
        RuleKind::ToolDeny => pb::GateRuleKind::ToolDeny,
        RuleKind::Threshold => pb::GateRuleKind::Threshold,
        RuleKind::Approval => pb::GateRuleKind::Approval,
        RuleKind::BlockedTool => pb::GateRuleKind::BlockedTool,
        RuleKind::ApprovalGranted => pb::GateRuleKind::ApprovalGranted,
        RuleKind::Undeclared => pb::GateRuleKind::UndeclaredTool,
        RuleKind::AccessPolicy => pb::GateRuleKind::AccessPolicy,
    }
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
        rule_kind: rule_kind(decision.rule_kind) as i32,
        approver: decision.approver,
        condition: decision.condition,
        call_digest: decision.call_digest,
        correlation_id: decision.correlation_id,
    }
}

/// The gate's decision as the step reads it: the owner's own yes is not an
/// approver's, and the rule's kind keeps its wire name for the audit.
pub fn gate_word(decision: Decision) -> GateWord {
    let verdict = match decision.verdict {
        Verdict::Allow => Word::Allow,
        Verdict::Deny => Word::Deny,
        Verdict::RequireApproval if decision.approver == adas_policy::gate::OWNER_CONFIRMS => {
            Word::OwnerConfirms
        }
        Verdict::RequireApproval => Word::RequireApproval,
    };
    GateWord {
        verdict,
        rule_kind: rule_kind(decision.rule_kind).as_str_name().to_owned(),
        rule: decision.rule,
        reason: decision.reason,
        approver: decision.approver,
        call_digest: decision.call_digest,
        condition: decision.condition,
        correlation_id: decision.correlation_id,
        policy: None,
    }
}

/// The gate's decision read from the wire (an unknown verdict denies).
pub fn gate_word_of(decision: pb::GateDecision) -> GateWord {
    let verdict = match pb::GateVerdict::try_from(decision.verdict) {
        Ok(pb::GateVerdict::Allow) => Word::Allow,
        Ok(pb::GateVerdict::RequireApproval)
            if decision.approver == adas_policy::gate::OWNER_CONFIRMS =>
        {
            Word::OwnerConfirms
        }
        Ok(pb::GateVerdict::RequireApproval) => Word::RequireApproval,
        _ => Word::Deny,
    };
    GateWord {
        verdict,
        rule_kind: pb::GateRuleKind::try_from(decision.rule_kind)
            .map_or("", |kind| kind.as_str_name())
            .to_owned(),
        rule: decision.rule,
        reason: decision.reason,
        approver: decision.approver,
        call_digest: decision.call_digest,
        condition: decision.condition,
        correlation_id: decision.correlation_id,
        policy: None,
    }
}

/// `Finalize`: the judge's verdict on a draft reply.
pub async fn finalize(
    judge: &dyn FinalizationJudge,
    skill: &OperationalSkill,
    request: pb::FinalizeRequest,
    spend: &adas_step::Spend,
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
        tokens_spent: spend.tokens,
        personal: spend.personal.clone(),
    };
    let (verdict, decider) = adas_policy::llm::finalize(judge, skill, &draft).await;
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
        decider: Some(crate::decider(&decider)),
    }
}

/// A verdict as the step reads it.
pub fn judged(verdict: Judgement, decider: Decider) -> Judged {
    Judged {
        passed: verdict.passed,
        skipped: verdict.skipped,
        score: verdict.score,
        reasons: verdict
            .reasons
            .into_iter()
            .map(|reason| reason.detail)
            .collect(),
        missing_fields: verdict.missing_fields,
        decider,
    }
}

/// A verdict read from the wire.
pub fn judged_of(result: pb::FinalizationResult) -> Judged {
    Judged {
        passed: result.passed,
        skipped: result.skipped,
        score: result.score,
        reasons: result
            .reasons
            .into_iter()
            .map(|reason| reason.detail)
            .collect(),
        missing_fields: result.missing_fields,
        decider: crate::decider_of(result.decider.as_ref()),
    }
}

/// `PolishReply`: the reply in the skill's persona (formatting only).
pub async fn polish_reply(
    polisher: &dyn Polisher,
    skill: &OperationalSkill,
    request: pb::PolishReplyRequest,
    spend: &adas_step::Spend,
) -> pb::PolishReplyResponse {
    let results = request
        .results
        .as_ref()
        .map(struct_to_json)
        .unwrap_or_default();
    let resources = request.resources.into_iter().collect();
    let draft = adas_policy::llm::ReplyDraft {
        reply: &request.reply,
        results: &results,
        resources: &resources,
        waited: request.user_waited,
        tokens_spent: spend.tokens,
        personal: &spend.personal,
    };
    let (text, decider) = adas_policy::llm::polish_as(polisher, skill, draft).await;
    pb::PolishReplyResponse {
        text,
        decider: Some(crate::decider(&decider)),
    }
}

/// A polished reply read from the wire.
pub fn polished_of(response: pb::PolishReplyResponse) -> Polished {
    Polished {
        text: response.text,
        decider: crate::decider_of(response.decider.as_ref()),
    }
}
