//! Sending a request: one reqwest client for every model, a per-call timeout,
//! retries with exponential backoff only when another attempt may succeed
//! (honouring `Retry-After`), a bounded response body, and record/replay.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use backon::{ExponentialBuilder, Retryable};
use serde_json::{Value as Json, json};
use sha2::{Digest, Sha256};

use crate::chat::{Request, Response, Usage};
use crate::config::{LlmConfig, ModelConfig, Provider};
use crate::{LlmError, anthropic, openai};

/// Largest response body read, in bytes.
const MAX_RESPONSE_BYTES: usize = 4 * 1024 * 1024;
/// Longest `Retry-After` honoured; a longer one ends the retries.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

/// The configured models and the HTTP client.
#[derive(Clone)]
pub struct Llm {
    config: Arc<LlmConfig>,
    http: reqwest::Client,
}

impl std::fmt::Debug for Llm {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Llm")
            .field("models", &self.config.models.len())
            .finish_non_exhaustive()
    }
}

impl Llm {
    /// A client for `config`'s models; `None` when no model is configured
    /// (the deterministic path).
    pub fn new(config: LlmConfig) -> Result<Option<Self>, LlmError> {
        if !config.enabled() {
            return Ok(None);
        }
        // ring is the process's one provider (tonic's and the MCP client's too).
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .build()
            .map_err(|error| LlmError::Config(format!("HTTP client: {error}")))?;
        Ok(Some(Self {
            config: Arc::new(config),
            http,
        }))
    }

    /// The configuration.
    pub fn config(&self) -> &LlmConfig {
        &self.config
    }

    /// A session for one job's work with the model a skill asked for.
    /// `spent` is what the job already used of its token budget.
    pub fn session(&self, wanted: Option<&str>, spent: u64) -> Option<Session<'_>> {
        let model = self.config.select(wanted)?;
        let budget = self.config.job_token_budget;
        Some(Session {
            llm: self,
            model,
            remaining: (budget > 0).then(|| budget.saturating_sub(spent)),
            usage: Usage::default(),
            masked: Vec::new(),
        })
    }

    async fn attempt(&self, model: &ModelConfig, body: &Json) -> Result<Json, LlmError> {
        let (url, headers) = match model.provider {
            Provider::OpenAi => (openai::url(model), openai::headers(model)),
            Provider::Anthropic => (anthropic::url(model), anthropic::headers(model)),
        };
        let mut request = self
            .http
            .post(&url)
            .timeout(model.timeout)
            .header("content-type", "application/json")
            .body(body.to_string());
        for (name, value) in headers {
            request = request.header(name, value);
        }
        let mut response = request.send().await.map_err(|error| {
            if error.is_timeout() {
                LlmError::Timeout(model.timeout)
            } else {
                LlmError::Transport(error.without_url().to_string())
            }
        })?;
        let status = response.status();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|value| value.to_str().ok())
            .and_then(parse_retry_after);
        let mut bytes = Vec::new();
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) => {
                    if bytes.len() + chunk.len() > MAX_RESPONSE_BYTES {
                        return Err(LlmError::Malformed(format!(
                            "the response is larger than {MAX_RESPONSE_BYTES} bytes"
                        )));
                    }
                    bytes.extend_from_slice(&chunk);
                }
                Ok(None) => break,
                Err(error) if error.is_timeout() => return Err(LlmError::Timeout(model.timeout)),
                Err(error) => return Err(LlmError::Transport(error.without_url().to_string())),
            }
        }
        if !status.is_success() {
            let message = serde_json::from_slice::<Json>(&bytes)
                .ok()
                .and_then(|body| {
                    body.pointer("/error/message")
                        .and_then(Json::as_str)
                        .map(str::to_owned)
                })
                .unwrap_or_else(|| String::from_utf8_lossy(&bytes).into_owned());
            return Err(LlmError::Http {
                status: status.as_u16(),
                message: message.chars().take(300).collect(),
                retry_after,
            });
        }
        serde_json::from_slice(&bytes)
            .map_err(|error| LlmError::Malformed(format!("the response body is not JSON: {error}")))
    }

    /// One request to `model`, retried when another attempt may succeed.
    async fn send(&self, model: &ModelConfig, body: &Json) -> Result<Json, LlmError> {
        let key = exchange_key(model, body);
        if let Some(dir) = &self.config.replay {
            return replay(dir, &key);
        }
        let backoff = ExponentialBuilder::default()
            .with_min_delay(Duration::from_millis(200))
            .with_max_delay(Duration::from_secs(10))
            .with_max_times(model.retries)
            .with_jitter();
        let answer = (|| self.attempt(model, body))
            .retry(backoff)
            .when(LlmError::retryable)
            .adjust(|error, delay| match error {
                LlmError::Http {
                    retry_after: Some(after),
                    ..
                } => (*after <= MAX_RETRY_AFTER).then_some(*after),
                _ => delay,
            })
            .notify(|error, delay| {
                tracing::warn!(model = %model.name, %error, ?delay, "model call failed; retrying");
            })
            .await?;
        if let Some(dir) = &self.config.record {
            record(dir, &key, body, &answer);
        }
        Ok(answer)
    }
}

/// A job's use of one model: checks the token budget before every call and
/// adds up what every call spent, failed ones included.
#[derive(Debug)]
pub struct Session<'a> {
    llm: &'a Llm,
    /// The model.
    pub model: &'a ModelConfig,
    remaining: Option<u64>,
    /// Spent in this session.
    pub usage: Usage,
    /// Values no prompt of this session may carry (the job's personal ones).
    masked: Vec<String>,
}

impl Session<'_> {
    /// The model's name.
    pub fn model_name(&self) -> &str {
        &self.model.name
    }

    /// The session with `values` masked in every prompt it sends (a job's
    /// personal values: what a `pii_*` tool returned and its skill does not
    /// reveal never reaches a model).
    pub fn masking(mut self, values: &[String]) -> Self {
        self.masked = values.to_vec();
        self
    }

    /// One call; a spent budget makes no call.
    pub async fn call(&mut self, request: &Request) -> Result<Response, LlmError> {
        let masked;
        let request = if self.masked.is_empty() {
            request
        } else {
            let mut copy = request.clone();
            copy.system = crate::prompt::mask(&self.masked, &copy.system);
            for message in &mut copy.messages {
                message.content = crate::prompt::mask(&self.masked, &message.content);
            }
            masked = copy;
            &masked
        };
        let mut max_tokens = self.model.max_tokens;
        if let Some(remaining) = self.remaining {
            let left = remaining.saturating_sub(self.usage.tokens());
            if left == 0 {
                return Err(LlmError::Budget(self.llm.config.job_token_budget));
            }
            max_tokens = max_tokens.min(u32::try_from(left).unwrap_or(u32::MAX));
        }
        let body = match self.model.provider {
            Provider::OpenAi => openai::body(self.model, request, max_tokens),
            Provider::Anthropic => anthropic::body(self.model, request, max_tokens),
        };
        let started = std::time::Instant::now();
        let answer = self.llm.send(self.model, &body).await;
        let parsed = answer.and_then(|answer| match self.model.provider {
            Provider::OpenAi => openai::parse(self.model, request, &answer),
            Provider::Anthropic => anthropic::parse(self.model, request, &answer),
        });
        // Retries included: how long a step waited on its model.
        metrics::histogram!(
            "adas_llm_call_seconds",
            "provider" => match self.model.provider {
                Provider::OpenAi => "openai",
                Provider::Anthropic => "anthropic",
            },
            "model" => self.model.name.clone(),
            "result" => if parsed.is_ok() { "ok" } else { "error" }
        )
        .record(started.elapsed());
        match &parsed {
            Ok(response) => self.usage.add(&response.usage),
            Err(error) => self.usage.add(&error.usage()),
        }
        parsed
    }
}

/// `Retry-After`: delay-seconds or an HTTP date.
fn parse_retry_after(value: &str) -> Option<Duration> {
    if let Ok(seconds) = value.trim().parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(value.trim()).ok()?;
    Some(
        at.duration_since(std::time::SystemTime::now())
            .unwrap_or_default(),
    )
}

/// The name of an exchange: the wire format, the path and the exact body —
/// never the host or the key, so a recording replays anywhere.
fn exchange_key(model: &ModelConfig, body: &Json) -> String {
    let mut hasher = Sha256::new();
    hasher.update(format!("{:?}\n", model.provider).as_bytes());
    hasher.update(body.to_string().as_bytes());
    hex::encode(&hasher.finalize()[..16])
}

fn record(dir: &Path, key: &str, body: &Json, answer: &Json) {
    let entry = json!({"request": body, "response": answer});
    let written = std::fs::create_dir_all(dir).and_then(|()| {
        let temp = dir.join(format!(".{key}.tmp"));
        std::fs::write(&temp, serde_json::to_vec_pretty(&entry).unwrap_or_default())?;
        std::fs::rename(temp, dir.join(format!("{key}.json")))
    });
    if let Err(error) = written {
        tracing::warn!(%error, dir = %dir.display(), "could not record a model exchange");
    }
}

fn replay(dir: &Path, key: &str) -> Result<Json, LlmError> {
    let path = dir.join(format!("{key}.json"));
    let text = std::fs::read(&path).map_err(|_| LlmError::ReplayMiss(key.to_owned()))?;
    let entry: Json = serde_json::from_slice(&text)
        .map_err(|error| LlmError::Malformed(format!("{}: {error}", path.display())))?;
    entry
        .get("response")
        .cloned()
        .ok_or_else(|| LlmError::Malformed(format!("{} has no response", path.display())))
}
