//! Who made a decision — the deterministic path or a model — and what its
//! model calls cost: planners, judges and polishers all answer with one
//! (`Decider` on the wire too).

use serde_json::{Value as Json, json};

use crate::Usage;

/// Who decided and what it cost.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Decider {
    /// `deterministic` or `model:<name>`.
    pub by: String,
    /// Model usage.
    pub usage: Usage,
    /// Why a model's answer was not used.
    pub fallback: Option<String>,
}

impl Decider {
    /// No model involved.
    pub fn deterministic() -> Self {
        Self {
            by: "deterministic".into(),
            ..Self::default()
        }
    }

    /// Whether a model decided.
    pub fn is_model(&self) -> bool {
        self.by.starts_with("model:")
    }

    /// Counts what its model calls cost on the metrics page
    /// (`adas_llm_calls_total`, `adas_llm_tokens_total{direction}`).
    pub fn count(&self) {
        metrics::counter!("adas_llm_calls_total").increment(self.usage.calls);
        metrics::counter!("adas_llm_tokens_total", "direction" => "input")
            .increment(self.usage.input_tokens);
        metrics::counter!("adas_llm_tokens_total", "direction" => "output")
            .increment(self.usage.output_tokens);
    }

    /// As event data (the audit's shape).
    pub fn json(&self) -> Json {
        json!({
            "by": self.by,
            "calls": self.usage.calls,
            "input_tokens": self.usage.input_tokens,
            "output_tokens": self.usage.output_tokens,
            "cost_usd": self.usage.cost_usd,
            "fallback_reason": self.fallback,
        })
    }
}
