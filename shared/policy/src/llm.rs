//! The seams where a model may replace a deterministic default — the
//! finalization judge and the reply polisher — and their model-backed
//! implementations (spec 004 §4.4, §4.5).
//!
//! The model judge never loosens the mechanical checks: the verdict passes
//! only when both the mechanical judge (output contract fields, compiled
//! guardrails, required workflow steps) and the model (goal coverage, the text
//! guardrails) pass it. The model polisher formats only: a polished reply that
//! drops a number or identifier of the draft is refused and the template
//! polish is used. Any model failure falls back to the deterministic result.

use adas_llm::prompt::{PREAMBLE, fence, fence_json, guardrails};
use adas_llm::{Llm, LlmError, Request};
use async_trait::async_trait;
use serde_json::{Map, Value as Json, json};

use adas_skill::OperationalSkill;

use crate::finalize::{Action, Draft, Reason, ReasonCode, Verdict, judge};
use adas_step::reply::polish;

pub use adas_llm::prompt::MAX_GUARDRAILS as MAX_PROMPT_GUARDRAILS;

pub use adas_llm::Decider;

/// Judges draft replies.
#[async_trait]
pub trait FinalizationJudge: Send + Sync {
    /// The verdict on a draft, and who gave it.
    async fn judge(&self, skill: &OperationalSkill, draft: &Draft) -> (Verdict, Decider);
}

/// What a polisher formats.
#[derive(Debug, Clone, Copy)]
pub struct PolishInput<'a> {
    /// The rendered persona.
    pub persona: &'a str,
    /// The draft reply.
    pub reply: &'a str,
    /// The results the reply may state.
    pub results: &'a Map<String, Json>,
    /// The user answered an ask during the job.
    pub waited: bool,
    /// The skill's `engine.model`.
    pub model: Option<&'a str>,
    /// Model tokens the job already spent.
    pub tokens_spent: u64,
    /// Values no prompt may carry (the job's personal ones).
    pub personal: &'a [String],
}

/// Formats replies.
#[async_trait]
pub trait Polisher: Send + Sync {
    /// The formatted reply, and who formatted it.
    async fn polish(&self, input: &PolishInput<'_>) -> (String, Decider);
}

/// The mechanical judge.
#[derive(Debug, Clone, Copy, Default)]
pub struct MechanicalJudge;

#[async_trait]
impl FinalizationJudge for MechanicalJudge {
    async fn judge(&self, skill: &OperationalSkill, draft: &Draft) -> (Verdict, Decider) {
        (judge(skill, draft), Decider::deterministic())
    }
}

/// The template polisher.
#[derive(Debug, Clone, Copy, Default)]
pub struct TemplatePolisher;

#[async_trait]
impl Polisher for TemplatePolisher {
    async fn polish(&self, input: &PolishInput<'_>) -> (String, Decider) {
        (
            polish(input.persona, input.reply, input.results, input.waited),
            Decider::deterministic(),
        )
    }
}

/// Runs the finalization gate through a judge; a disabled gate passes, skipped,
/// without calling the judge (no LLM call is spent on it).
pub async fn finalize(
    judge: &dyn FinalizationJudge,
    skill: &OperationalSkill,
    draft: &Draft,
) -> (Verdict, Decider) {
    if !skill.engine.finalization_gate_enabled {
        return (
            Verdict {
                passed: true,
                skipped: true,
                score: 1.0,
                reasons: Vec::new(),
                missing_fields: Vec::new(),
                suggested_action: None,
                unchecked_guardrails: Vec::new(),
            },
            Decider::deterministic(),
        );
    }
    judge.judge(skill, draft).await
}

/// The finalization judge by model (the skill's `engine.gate_model`, else its
/// `engine.model`), on top of the mechanical checks.
#[derive(Debug, Clone)]
pub struct ModelJudge {
    llm: Llm,
}

impl ModelJudge {
    /// A judge over the configured models.
    pub fn new(llm: Llm) -> Self {
        Self { llm }
    }
}

const REASON_CODES: &[&str] = &[
    "GOAL_NOT_MET",
    "GUARDRAIL_VIOLATED",
    "MISSING_REQUIRED_FIELD",
    "OUTPUT_INCOMPLETE",
    "TONE_MISMATCH",
];
const ACTIONS: &[&str] = &["NONE", "TOOL_CALL", "CLARIFY_USER", "REWRITE", "ESCALATE"];

fn verdict_schema() -> Json {
    json!({
        "type": "object",
        "properties": {
            "passed": {"type": "boolean"},
            "score": {"type": "number"},
            "reasons": {"type": "array", "items": {
                "type": "object",
                "properties": {"code": {"type": "string", "enum": REASON_CODES}, "detail": {"type": "string"}},
                "required": ["code", "detail"],
                "additionalProperties": false
            }},
            "missing_fields": {"type": "array", "items": {"type": "string"}},
            "suggested_action": {"type": "string", "enum": ACTIONS}
        },
        "required": ["passed", "score", "reasons", "missing_fields", "suggested_action"],
        "additionalProperties": false
    })
}

fn parse_code(text: &str) -> Option<ReasonCode> {
    serde_json::from_value(json!(text)).ok()
}

/// The model's verdict (`passed`, `score`, `reasons`, `missing_fields`,
/// `suggested_action`).
fn parse_verdict(answer: &Json) -> Result<Verdict, String> {
    let passed = answer
        .get("passed")
        .and_then(Json::as_bool)
        .ok_or("`passed` is missing")?;
    let score = answer
        .get("score")
        .and_then(Json::as_f64)
        .filter(|score| score.is_finite())
        .ok_or("`score` is not a finite number")?
        .clamp(0.0, 1.0);
    let reasons = answer
        .get("reasons")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter_map(|reason| {
            Some(Reason {
                code: parse_code(reason.get("code")?.as_str()?)?,
                detail: reason.get("detail")?.as_str()?.chars().take(500).collect(),
            })
        })
        .collect();
    let missing = answer
        .get("missing_fields")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter_map(|field| field.as_str().map(str::to_owned))
        .collect();
    let action = answer
        .get("suggested_action")
        .and_then(Json::as_str)
        .filter(|action| *action != "NONE")
        .and_then(|action| serde_json::from_value(json!(action)).ok());
    Ok(Verdict {
        passed,
        skipped: false,
        score,
        reasons,
        missing_fields: missing,
        suggested_action: action,
        unchecked_guardrails: Vec::new(),
    })
}

#[async_trait]
impl FinalizationJudge for ModelJudge {
    async fn judge(&self, skill: &OperationalSkill, draft: &Draft) -> (Verdict, Decider) {
        let mechanical = judge(skill, draft);
        let wanted = skill
            .engine
            .gate_model
            .as_deref()
            .or(skill.engine.model.as_deref());
        let Some(mut session) = self
            .llm
            .session(wanted, draft.tokens_spent)
            .map(|session| session.masking(&draft.personal))
        else {
            return (mechanical, Decider::deterministic());
        };
        let by = format!("model:{}", session.model_name());
        let goal = skill
            .skill
            .problem
            .as_ref()
            .and_then(|problem| problem.statement.clone())
            .unwrap_or_default();
        let required = skill
            .skill
            .output_contract
            .as_ref()
            .map(|contract| contract.required_fields.clone())
            .unwrap_or_default();
        let system = format!(
            "{PREAMBLE}You are a Finalization Gate. Validate the draft response before it goes to the user: does it address the goal \
             and the user's request, respect every guardrail, and contain the required fields? Be strict but fair: only fail for a real problem.\n{}",
            guardrails(&skill.compiled.text_guardrails)
        );
        let mut results = Json::Object(draft.results.clone()).to_string();
        if results.len() > 8000 {
            results = results.chars().take(8000).collect::<String>() + "…";
        }
        let user = format!(
            "{}{}{}{}{}",
            fence("goal", &goal),
            fence("user_request", &draft.goal),
            fence_json("required_fields", &json!(required)),
            fence("results", &results),
            fence("draft_response", &draft.reply),
        );
        let mut request =
            Request::new(system, user).with_schema("finalization_verdict", verdict_schema());
        request.temperature = Some(0.1);
        let answer = session.call(&request).await;
        let usage = session.usage;
        let parsed = answer.and_then(|answer| {
            parse_verdict(&answer.json.unwrap_or_default()).map_err(LlmError::Malformed)
        });
        match parsed {
            Ok(model) => {
                let mut verdict = mechanical;
                verdict.passed = verdict.passed && model.passed;
                verdict.score = verdict.score.min(model.score);
                if !model.passed {
                    verdict.reasons.extend(model.reasons);
                    for field in model.missing_fields {
                        if !verdict.missing_fields.contains(&field) {
                            verdict.missing_fields.push(field);
                        }
                    }
                }
                if !verdict.passed {
                    verdict.suggested_action = verdict
                        .suggested_action
                        .or(model.suggested_action)
                        .or(Some(Action::Escalate));
                }
                // The model read the text guardrails (at most ten of them).
                verdict.unchecked_guardrails = skill
                    .compiled
                    .text_guardrails
                    .iter()
                    .skip(MAX_PROMPT_GUARDRAILS)
                    .cloned()
                    .collect();
                (
                    verdict,
                    Decider {
                        by,
                        usage,
                        fallback: None,
                    },
                )
            }
            Err(error) => (
                mechanical,
                Decider {
                    by: "deterministic".into(),
                    usage,
                    fallback: Some(format!("{by}: {error}")),
                },
            ),
        }
    }
}

/// The polisher by model: formats only.
#[derive(Debug, Clone)]
pub struct ModelPolisher {
    llm: Llm,
}

impl ModelPolisher {
    /// A polisher over the configured models.
    pub fn new(llm: Llm) -> Self {
        Self { llm }
    }
}

/// The numbers and identifiers of a text (`ORD-1`, `40`, `2026-01-02`): the
/// facts a formatter must keep.
fn fact_tokens(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '"' | '\''))
        .map(|token| token.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|token| token.chars().any(|c| c.is_ascii_digit()))
        .map(str::to_lowercase)
        .collect()
}

#[async_trait]
impl Polisher for ModelPolisher {
    async fn polish(&self, input: &PolishInput<'_>) -> (String, Decider) {
        let formatted = polish(input.persona, input.reply, input.results, input.waited);
        let Some(mut session) = self
            .llm
            .session(input.model, input.tokens_spent)
            .map(|session| session.masking(input.personal))
        else {
            return (formatted, Decider::deterministic());
        };
        let by = format!("model:{}", session.model_name());
        let system = format!(
            "{PREAMBLE}You are a reply formatter. Apply the persona's tone and make the response user-friendly. \
             Do NOT validate or change the content: keep every fact, number and identifier exactly, add none. \
             Return the formatted response text only."
        );
        let user = format!(
            "{}{}{}",
            fence("persona", input.persona),
            fence(
                "user_answered_a_question_during_the_job",
                if input.waited { "yes" } else { "no" }
            ),
            fence("response_to_format", &formatted)
        );
        let answer = session.call(&Request::new(system, user)).await;
        let usage = session.usage;
        let refused = |why: String| {
            (
                formatted.clone(),
                Decider {
                    by: "deterministic".into(),
                    usage,
                    fallback: Some(format!("{by}: {why}")),
                },
            )
        };
        match answer {
            Ok(answer) => {
                let text = answer.text.trim().to_owned();
                if text.is_empty() {
                    return refused("an empty reply".into());
                }
                if text.len() > formatted.len() * 4 + 400 {
                    return refused("a reply far longer than the draft".into());
                }
                let kept = fact_tokens(&text);
                if let Some(lost) = fact_tokens(&formatted)
                    .into_iter()
                    .find(|token| !kept.contains(token))
                {
                    return refused(format!("the polished reply dropped `{lost}`"));
                }
                (
                    text,
                    Decider {
                        by,
                        usage,
                        fallback: None,
                    },
                )
            }
            Err(error) => refused(error.to_string()),
        }
    }
}

/// The judge and polisher the configuration asks for: the models' when models
/// are configured (each falls back to the deterministic one call by call), else
/// the deterministic ones.
pub fn judge_and_polisher(
    llm: Option<adas_llm::Llm>,
) -> (
    std::sync::Arc<dyn FinalizationJudge>,
    std::sync::Arc<dyn Polisher>,
) {
    match llm {
        Some(llm) => (
            std::sync::Arc::new(ModelJudge::new(llm.clone())),
            std::sync::Arc::new(ModelPolisher::new(llm)),
        ),
        None => (
            std::sync::Arc::new(MechanicalJudge),
            std::sync::Arc::new(TemplatePolisher),
        ),
    }
}

/// What a reply is polished from: the draft, the results it may state, the
/// job's bound resources and whether the user waited on an ask.
#[derive(Debug, Clone, Copy)]
pub struct ReplyDraft<'a> {
    /// The draft reply.
    pub reply: &'a str,
    /// The results the reply may state.
    pub results: &'a Map<String, Json>,
    /// The job's bound resources (the persona may name them).
    pub resources: &'a std::collections::BTreeMap<String, String>,
    /// Whether the user waited on an ask.
    pub waited: bool,
    /// Model tokens the job already spent.
    pub tokens_spent: u64,
    /// Values no prompt may carry (the job's personal ones).
    pub personal: &'a [String],
}

/// The reply in the skill's persona (its role's voice, or `persona`, with
/// the job's resources rendered in and credentials never shown).
pub async fn polish_as(
    polisher: &dyn Polisher,
    skill: &OperationalSkill,
    draft: ReplyDraft<'_>,
) -> (String, Decider) {
    use adas_skill::resources::{BoundResources, render};
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
        values: draft.resources.clone(),
        credentials,
        unbound_optional: Vec::new(),
    };
    let persona = render(&template, &bound);
    polisher
        .polish(&PolishInput {
            persona: &persona,
            reply: draft.reply,
            results: draft.results,
            waited: draft.waited,
            model: skill.engine.model.as_deref(),
            tokens_spent: draft.tokens_spent,
            personal: draft.personal,
        })
        .await
}
