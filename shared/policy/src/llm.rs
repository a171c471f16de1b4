//! The seams where an LLM may replace a deterministic default (finalization
//! judgement, polishing), and the prompt text they would get. The deterministic
//! implementations are what runs offline; a provider-backed one plugs in later.

use async_trait::async_trait;
use serde_json::{Map, Value as Json};

use adas_skill::OperationalSkill;

use crate::finalize::{Draft, Verdict, judge};
use crate::polish::polish;

/// At most this many text guardrails go into any prompt (spec 004 §4.2).
pub const MAX_PROMPT_GUARDRAILS: usize = 10;

/// Judges draft replies.
#[async_trait]
pub trait FinalizationJudge: Send + Sync {
    /// The verdict on a draft.
    async fn judge(&self, skill: &OperationalSkill, draft: &Draft) -> Verdict;
}

/// Formats replies.
#[async_trait]
pub trait Polisher: Send + Sync {
    /// The formatted reply; `waited`: the user answered an ask during the job.
    async fn polish(
        &self,
        persona: &str,
        reply: &str,
        results: &Map<String, Json>,
        waited: bool,
    ) -> String;
}

/// The mechanical judge.
#[derive(Debug, Clone, Copy, Default)]
pub struct MechanicalJudge;

#[async_trait]
impl FinalizationJudge for MechanicalJudge {
    async fn judge(&self, skill: &OperationalSkill, draft: &Draft) -> Verdict {
        judge(skill, draft)
    }
}

/// The template polisher.
#[derive(Debug, Clone, Copy, Default)]
pub struct TemplatePolisher;

#[async_trait]
impl Polisher for TemplatePolisher {
    async fn polish(
        &self,
        persona: &str,
        reply: &str,
        results: &Map<String, Json>,
        waited: bool,
    ) -> String {
        polish(persona, reply, results, waited)
    }
}

/// Runs the finalization gate through a judge; a disabled gate passes, skipped,
/// without calling the judge (no LLM call is spent on it).
pub async fn finalize(
    judge: &dyn FinalizationJudge,
    skill: &OperationalSkill,
    draft: &Draft,
) -> Verdict {
    if !skill.engine.finalization_gate_enabled {
        return Verdict {
            passed: true,
            skipped: true,
            score: 1.0,
            reasons: Vec::new(),
            missing_fields: Vec::new(),
            suggested_action: None,
            unchecked_guardrails: Vec::new(),
        };
    }
    judge.judge(skill, draft).await
}

/// The guardrail block of a prompt: at most [`MAX_PROMPT_GUARDRAILS`] rules.
pub fn guardrail_prompt(text_guardrails: &[String]) -> String {
    if text_guardrails.is_empty() {
        return String::new();
    }
    let mut prompt = String::from("SKILL GUARDRAILS:\n");
    for rule in text_guardrails.iter().take(MAX_PROMPT_GUARDRAILS) {
        prompt.push_str("- ");
        prompt.push_str(rule);
        prompt.push('\n');
    }
    prompt
}
