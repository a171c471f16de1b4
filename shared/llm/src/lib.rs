//! adas-llm: the model behind the agent. Providers over reqwest (rustls): the
//! OpenAI-compatible Chat Completions API and the Anthropic Messages API, one
//! provider-neutral [`Request`]/[`Response`] shape, retries with backoff only on
//! 429/5xx/timeouts (honouring `Retry-After`), a per-call timeout, a per-job token
//! budget ([`Session`]), usage and cost, and record/replay of exchanges so a
//! team can pin a real model's behaviour in its own CI.
//!
//! Nothing here decides anything: the tasks that use a model (intent, plans,
//! finalization, polishing, query sources) live beside their deterministic
//! defaults in `adas-nlu`, `adas-policy` and `adas-jobs`, and every call a model
//! proposes still goes through the pre-tool gate. [`prompt`] keeps untrusted
//! text (tool outputs and descriptions, the user's words) fenced as data.

pub mod anthropic;
pub mod chat;
pub mod config;
pub mod openai;
mod transport;

pub use adas_prompt::{Decider, Usage, prompt};
pub use chat::{Message, Request, Response, Role, Stop, ToolCall, ToolDef};
pub use config::{LlmConfig, LlmSettings, ModelConfig, Provider};
pub use transport::{Llm, Session};

/// Why a model call gave no usable answer. Every one of them means: fall back
/// to the deterministic path (or refuse), never act on a partial answer.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LlmError {
    /// The operator's configuration is wrong (at startup).
    #[error("LLM configuration: {0}")]
    Config(String),
    /// The provider answered with an error status (after retries when retryable).
    #[error("the model endpoint answered HTTP {status}: {message}")]
    Http {
        /// Status code.
        status: u16,
        /// The provider's error message, shortened.
        message: String,
        /// `Retry-After`, when given.
        retry_after: Option<std::time::Duration>,
    },
    /// No answer within the per-call timeout (after retries).
    #[error("the model did not answer within {0:?}")]
    Timeout(std::time::Duration),
    /// The endpoint could not be reached.
    #[error("the model endpoint could not be reached: {0}")]
    Transport(String),
    /// The model refused.
    #[error("the model refused: {reason}")]
    Refused {
        /// What it spent.
        usage: Usage,
        /// Its words, shortened.
        reason: String,
    },
    /// The answer was cut at the token limit.
    #[error("the model's answer was cut at the token limit")]
    Truncated {
        /// What it spent.
        usage: Usage,
    },
    /// The answer does not have the expected shape.
    #[error("the model's answer is malformed: {0}")]
    Malformed(String),
    /// The job's token budget is spent.
    #[error("the job's LLM token budget of {0} tokens is spent")]
    Budget(u64),
    /// Replay mode found no recorded exchange for this request.
    #[error("no recorded exchange for this request ({0})")]
    ReplayMiss(String),
}

impl LlmError {
    /// Whether another attempt may succeed (429, 5xx, timeouts, unreachable).
    pub fn retryable(&self) -> bool {
        match self {
            Self::Http { status, .. } => *status == 429 || *status >= 500,
            Self::Timeout(_) | Self::Transport(_) => true,
            _ => false,
        }
    }

    /// Tokens spent on a failed answer (a refusal or a truncation is billed).
    pub fn usage(&self) -> Usage {
        match self {
            Self::Refused { usage, .. } | Self::Truncated { usage } => *usage,
            _ => Usage::default(),
        }
    }

    /// A short stable code for events and metrics.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Config(_) => "config",
            Self::Http { .. } => "http",
            Self::Timeout(_) => "timeout",
            Self::Transport(_) => "transport",
            Self::Refused { .. } => "refused",
            Self::Truncated { .. } => "truncated",
            Self::Malformed(_) => "malformed",
            Self::Budget(_) => "budget",
            Self::ReplayMiss(_) => "replay_miss",
        }
    }
}

/// A response body's `usage` object (token counts under the provider's own
/// field names), priced with the model's configured rates.
pub(crate) fn usage_of(
    model: &ModelConfig,
    body: &serde_json::Value,
    input: &str,
    output: &str,
) -> Usage {
    let count = |field: &str| {
        body.get("usage")
            .and_then(|usage| usage.get(field))
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0)
    };
    priced(model, count(input), count(output))
}

/// Usage priced with the model's configured rates.
fn priced(model: &ModelConfig, input: u64, output: u64) -> Usage {
    Usage {
        calls: 1,
        input_tokens: input,
        output_tokens: output,
        cost_usd: (input as f64 * model.input_usd_per_mtok
            + output as f64 * model.output_usd_per_mtok)
            / 1_000_000.0,
    }
}

/// A structured request's answer must be complete JSON of an object.
pub(crate) fn check_complete(response: Response, request: &Request) -> Result<Response, LlmError> {
    match response.stop {
        Stop::Length => Err(LlmError::Truncated {
            usage: response.usage,
        }),
        Stop::Refusal | Stop::ContentFilter => Err(LlmError::Refused {
            usage: response.usage,
            reason: "stopped by the provider's content filter".into(),
        }),
        _ if request.schema.is_some()
            && !response.json.as_ref().is_some_and(|json| json.is_object()) =>
        {
            Err(LlmError::Malformed(
                "the structured answer is not a JSON object".into(),
            ))
        }
        _ => Ok(response),
    }
}

/// Builds the response from parsed parts; structured output is parsed from the text.
pub(crate) fn finish(
    model: &ModelConfig,
    request: &Request,
    text: String,
    tool_calls: Vec<ToolCall>,
    stop: Stop,
    usage: Usage,
) -> Result<Response, LlmError> {
    if stop == Stop::Length {
        return Err(LlmError::Truncated { usage });
    }
    let json = match &request.schema {
        Some(_) => Some(
            serde_json::from_str::<serde_json::Value>(strip_code_fence(&text))
                .map_err(|error| LlmError::Malformed(format!("the answer is not JSON: {error}")))?,
        ),
        None => None,
    };
    check_complete(
        Response {
            model: model.name.clone(),
            text,
            json,
            tool_calls,
            stop,
            usage,
        },
        request,
    )
}

/// Local models often wrap JSON in a ```json fence even when asked not to.
fn strip_code_fence(text: &str) -> &str {
    let trimmed = text.trim();
    trimmed
        .strip_prefix("```json")
        .or_else(|| trimmed.strip_prefix("```"))
        .and_then(|rest| rest.strip_suffix("```"))
        .map_or(trimmed, str::trim)
}
