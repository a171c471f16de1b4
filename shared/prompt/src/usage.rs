//! What a model's calls cost: calls, tokens and money, summed per job.

use serde::{Deserialize, Serialize};

/// Tokens and money spent.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Usage {
    /// Model calls made (retries included: each is billed).
    pub calls: u64,
    /// Input tokens.
    pub input_tokens: u64,
    /// Output tokens.
    pub output_tokens: u64,
    /// USD, from the configured prices.
    pub cost_usd: f64,
}

impl Usage {
    /// Tokens in and out.
    pub fn tokens(&self) -> u64 {
        self.input_tokens + self.output_tokens
    }

    /// Adds `other` to this.
    pub fn add(&mut self, other: &Usage) {
        self.calls += other.calls;
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
        self.cost_usd += other.cost_usd;
    }
}
