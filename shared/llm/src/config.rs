//! The operator's models: a config file (JSON) and/or one model from
//! `ADAS_LLM_*`. API keys are secret references (`env:NAME`, `file:PATH`),
//! resolved once at startup; a literal key is refused so it never sits in a
//! file that gets committed or printed.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::LlmError;

/// The wire format a model speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    /// OpenAI Chat Completions (OpenAI, Azure OpenAI, vLLM, llama.cpp, Ollama, LM Studio).
    OpenAi,
    /// Anthropic Messages.
    Anthropic,
}

impl Provider {
    /// `openai` | `anthropic`.
    pub fn parse(text: &str) -> Result<Self, LlmError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "openai" | "openai-compatible" | "azure" | "vllm" | "ollama" => Ok(Self::OpenAi),
            "anthropic" => Ok(Self::Anthropic),
            other => Err(LlmError::Config(format!(
                "provider `{other}` is not one of openai | anthropic"
            ))),
        }
    }
}

/// One configured model.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelConfig {
    /// The name skills use in `engine.model` / `engine.gate_model`.
    pub name: String,
    /// Wire format.
    pub provider: Provider,
    /// Base URL: OpenAI-style up to `/v1` (`…/chat/completions` is appended);
    /// Anthropic without it (`/v1/messages` is appended).
    pub base_url: String,
    /// The provider's model id.
    pub model: String,
    /// The resolved API key (never printed).
    pub api_key: Option<Secret>,
    /// Azure OpenAI: the `api-version` query parameter; the key then goes in `api-key`.
    pub api_version: Option<String>,
    /// Per-call timeout.
    pub timeout: Duration,
    /// Output tokens per call at most.
    pub max_tokens: u32,
    /// Retries after the first attempt (429, 5xx, timeouts only).
    pub retries: usize,
    /// Price of a million input tokens, USD.
    pub input_usd_per_mtok: f64,
    /// Price of a million output tokens, USD.
    pub output_usd_per_mtok: f64,
}

/// A resolved secret; its Debug never shows the value.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("Secret([redacted])")
    }
}

/// All the models, the default, the per-job budget, and record/replay.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LlmConfig {
    /// Models by name.
    pub models: Vec<ModelConfig>,
    /// The model used when a skill names none (or one not configured).
    pub default_model: Option<String>,
    /// Tokens (input + output) one job may spend in all; 0 = no limit.
    pub job_token_budget: u64,
    /// Write every exchange here.
    pub record: Option<PathBuf>,
    /// Answer every call from here (no network).
    pub replay: Option<PathBuf>,
}

/// `ADAS_LLM_*` values as parsed by the binary (flags or env).
#[derive(Debug, Clone, Default)]
pub struct LlmSettings {
    /// A config file (JSON).
    pub config_file: Option<PathBuf>,
    /// Provider of the single env-configured model.
    pub provider: Option<String>,
    /// Its base URL; setting it configures the model.
    pub base_url: Option<String>,
    /// Its provider model id.
    pub model: Option<String>,
    /// Its name for skills (default `default`).
    pub name: Option<String>,
    /// A secret reference for its key.
    pub api_key: Option<String>,
    /// Per-call timeout in ms.
    pub timeout_ms: Option<u64>,
    /// Output tokens per call.
    pub max_tokens: Option<u32>,
    /// Retries.
    pub retries: Option<usize>,
    /// Tokens per job.
    pub job_token_budget: Option<u64>,
    /// Record directory.
    pub record: Option<PathBuf>,
    /// Replay directory.
    pub replay: Option<PathBuf>,
}

/// A model entry of the config file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileModel {
    name: String,
    provider: String,
    base_url: String,
    model: String,
    #[serde(default)]
    api_key: Option<String>,
    #[serde(default)]
    api_version: Option<String>,
    #[serde(default)]
    timeout_ms: Option<u64>,
    #[serde(default)]
    max_tokens: Option<u32>,
    #[serde(default)]
    retries: Option<usize>,
    #[serde(default)]
    input_usd_per_mtok: f64,
    #[serde(default)]
    output_usd_per_mtok: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    models: Vec<FileModel>,
    #[serde(default)]
    default: Option<String>,
    #[serde(default)]
    job_token_budget: Option<u64>,
}

/// Defaults of a model entry.
pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;
/// Output tokens per call unless configured.
pub const DEFAULT_MAX_TOKENS: u32 = 1024;
/// Retries unless configured.
pub const DEFAULT_RETRIES: usize = 2;
/// Tokens per job unless configured.
pub const DEFAULT_JOB_TOKEN_BUDGET: u64 = 200_000;

/// Reads a secret reference: `env:NAME` or `file:PATH`. `lookup` reads the
/// environment (the binary's `main` passes `std::env::var`).
pub fn resolve_secret(
    field: &str,
    reference: &str,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<Secret, LlmError> {
    if let Some(name) = reference.strip_prefix("env:") {
        return lookup(name)
            .filter(|value| !value.is_empty())
            .map(|value| Secret(value.trim().to_owned()))
            .ok_or_else(|| {
                LlmError::Config(format!("{field}: environment variable `{name}` is not set"))
            });
    }
    if let Some(path) = reference.strip_prefix("file:") {
        return std::fs::read_to_string(path)
            .map(|value| Secret(value.trim().to_owned()))
            .map_err(|error| LlmError::Config(format!("{field}: cannot read `{path}`: {error}")));
    }
    // Never echo what might be a key.
    Err(LlmError::Config(format!(
        "{field} must be a secret reference (`env:NAME` or `file:PATH`), not a literal key"
    )))
}

fn model_entry(
    field: &str,
    entry: FileModel,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<ModelConfig, LlmError> {
    if entry.name.trim().is_empty() {
        return Err(LlmError::Config(format!("{field}.name is empty")));
    }
    let base_url = entry.base_url.trim_end_matches('/').to_owned();
    if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
        return Err(LlmError::Config(format!(
            "{field}.base_url `{base_url}` is not an http(s) URL"
        )));
    }
    let api_key = entry
        .api_key
        .as_deref()
        .map(|reference| resolve_secret(&format!("{field}.api_key"), reference, lookup))
        .transpose()?;
    Ok(ModelConfig {
        name: entry.name,
        provider: Provider::parse(&entry.provider)?,
        base_url,
        model: entry.model,
        api_key,
        api_version: entry.api_version,
        timeout: Duration::from_millis(entry.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS).max(1)),
        max_tokens: entry.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS).max(1),
        retries: entry.retries.unwrap_or(DEFAULT_RETRIES).min(10),
        input_usd_per_mtok: entry.input_usd_per_mtok.max(0.0),
        output_usd_per_mtok: entry.output_usd_per_mtok.max(0.0),
    })
}

impl LlmConfig {
    /// True when at least one model is configured (else: the deterministic path).
    pub fn enabled(&self) -> bool {
        !self.models.is_empty()
    }

    /// The model a skill asked for (`engine.model`): that name when
    /// configured, else the default; `None` when no model is configured.
    pub fn select(&self, wanted: Option<&str>) -> Option<&ModelConfig> {
        wanted
            .and_then(|name| self.models.iter().find(|model| model.name == name))
            .or_else(|| {
                self.default_model
                    .as_deref()
                    .and_then(|name| self.models.iter().find(|model| model.name == name))
            })
            .or_else(|| self.models.first())
    }

    /// Builds the configuration from settings; `lookup` reads env variables
    /// for `env:` secret references.
    pub fn from_settings(
        settings: &LlmSettings,
        lookup: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Self, LlmError> {
        let mut config = Self {
            job_token_budget: DEFAULT_JOB_TOKEN_BUDGET,
            record: settings.record.clone(),
            replay: settings.replay.clone(),
            ..Self::default()
        };
        if let Some(path) = &settings.config_file {
            config.read_file(path, lookup)?;
        }
        if let Some(base_url) = &settings.base_url {
            let entry = FileModel {
                name: settings.name.clone().unwrap_or_else(|| "default".into()),
                provider: settings.provider.clone().unwrap_or_else(|| "openai".into()),
                base_url: base_url.clone(),
                model: settings.model.clone().ok_or_else(|| {
                    LlmError::Config("ADAS_LLM_BASE_URL is set without ADAS_LLM_MODEL".into())
                })?,
                api_key: settings.api_key.clone(),
                api_version: None,
                timeout_ms: settings.timeout_ms,
                max_tokens: settings.max_tokens,
                retries: settings.retries,
                input_usd_per_mtok: 0.0,
                output_usd_per_mtok: 0.0,
            };
            let model = model_entry("ADAS_LLM", entry, lookup)?;
            config.default_model = Some(model.name.clone());
            config.models.retain(|known| known.name != model.name);
            config.models.push(model);
        }
        if let Some(budget) = settings.job_token_budget {
            config.job_token_budget = budget;
        }
        if config.record.is_some() && config.replay.is_some() {
            return Err(LlmError::Config(
                "--llm-record and --llm-replay exclude each other".into(),
            ));
        }
        Ok(config)
    }

    fn read_file(
        &mut self,
        path: &Path,
        lookup: &dyn Fn(&str) -> Option<String>,
    ) -> Result<(), LlmError> {
        let text = std::fs::read_to_string(path).map_err(|error| {
            LlmError::Config(format!("cannot read {}: {error}", path.display()))
        })?;
        let file: ConfigFile = serde_json::from_str(&text).map_err(|error| {
            LlmError::Config(format!(
                "{} line {} column {}: {error}",
                path.display(),
                error.line(),
                error.column()
            ))
        })?;
        for (index, entry) in file.models.into_iter().enumerate() {
            let model = model_entry(&format!("models[{index}]"), entry, lookup)?;
            if self.models.iter().any(|known| known.name == model.name) {
                return Err(LlmError::Config(format!(
                    "models[{index}].name `{}` is configured twice",
                    model.name
                )));
            }
            self.models.push(model);
        }
        if let Some(default) = file.default {
            if !self.models.iter().any(|model| model.name == default) {
                return Err(LlmError::Config(format!(
                    "default `{default}` is not a configured model"
                )));
            }
            self.default_model = Some(default);
        }
        if let Some(budget) = file.job_token_budget {
            self.job_token_budget = budget;
        }
        Ok(())
    }
}
