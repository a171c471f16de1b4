//! The operator's models, read once at startup, and the line that says
//! which one decides.

/// The models the operator configured (`ADAS_LLM_*`, a JSON file, `env:` /
/// `file:` key references read here, at startup); `None`: the
/// deterministic path only. A wrong configuration fails the start with the
/// reason.
pub fn models(
    config: &adas_runtime::ServerConfig,
) -> Result<Option<adas_llm::Llm>, adas_runtime::RuntimeError> {
    use adas_runtime::RuntimeError;
    let args = &config.llm;
    let settings = adas_llm::LlmSettings {
        config_file: args
            .llm_config
            .clone()
            .filter(|path| !path.as_os_str().is_empty()),
        provider: args.llm_provider.clone(),
        base_url: args
            .llm_base_url
            .clone()
            .filter(|url| !url.trim().is_empty()),
        model: args.llm_model.clone(),
        name: args.llm_name.clone(),
        api_key: args
            .llm_api_key
            .clone()
            .filter(|key| !key.trim().is_empty()),
        timeout_ms: args.llm_timeout_ms,
        max_tokens: args.llm_max_tokens,
        retries: args.llm_retries,
        job_token_budget: args.llm_job_token_budget,
        record: args.llm_record.clone(),
        replay: args.llm_replay.clone(),
    };
    let models = adas_llm::LlmConfig::from_settings(&settings, &|name| std::env::var(name).ok())
        .map_err(|error| RuntimeError::Startup(error.to_string()))?;
    announce_models(&models);
    adas_llm::Llm::new(models).map_err(|error| RuntimeError::Startup(error.to_string()))
}

/// `url` without what may carry a secret: user info and the query.
fn shown_url(url: &str) -> String {
    let url = url.split(['?', '#']).next().unwrap_or_default();
    match url.split_once("://") {
        Some((scheme, rest)) => {
            let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
            let host = authority.rsplit('@').next().unwrap_or(authority);
            format!("{scheme}://{host}{path}")
        }
        None => url.to_owned(),
    }
}

/// Says at startup which models decide (never a key): an operator reading the
/// log knows whether a model or the deterministic path answers.
fn announce_models(config: &adas_llm::LlmConfig) {
    if config.models.is_empty() {
        tracing::info!(
            model = "none",
            "no model configured: the deterministic path decides (ADAS_LLM_* or --llm-config adds one)"
        );
        return;
    }
    for model in &config.models {
        let default = config
            .default_model
            .as_deref()
            .is_none_or(|name| name == model.name);
        tracing::info!(
            model = %model.model,
            name = %model.name,
            provider = ?model.provider,
            base_url = %shown_url(&model.base_url),
            default,
            "model configured"
        );
    }
}

/// Keys this process' audit digests with the deployment's secret
/// (`--audit-secret`, a reference read here, at startup); a reference that
/// does not resolve fails the start. Without one a process keeps a random
/// secret of its own.
pub fn audit_secret(config: &adas_runtime::ServerConfig) -> Result<(), adas_runtime::RuntimeError> {
    let Some(reference) = &config.audit_secret else {
        static ONCE: std::sync::Once = std::sync::Once::new();
        if config.auth_file.is_some() {
            ONCE.call_once(|| {
                tracing::warn!(
                    "no --audit-secret: audit digests, approval ids and page tokens are keyed per \
                 process; give every process of the deployment the same one"
                )
            });
        }
        return Ok(());
    };
    let secret = adas_llm::config::resolve_secret("--audit-secret", reference, &|name| {
        std::env::var(name).ok()
    })
    .map_err(|error| adas_runtime::RuntimeError::Startup(error.to_string()))?;
    if secret.0.len() < 16 {
        return Err(adas_runtime::RuntimeError::Startup(
            "--audit-secret: the secret it names is shorter than 16 bytes".into(),
        ));
    }
    // `adas up` calls this once per service in one process: the first sets it.
    adas_dia::digest::set_audit_key(secret.0.into_bytes());
    Ok(())
}

#[cfg(test)]
mod shown_url_tests {
    #[test]
    fn a_model_url_is_shown_without_secrets() {
        assert_eq!(
            super::shown_url("https://user:pw@llm.example/v1?key=s"),
            "https://llm.example/v1"
        );
        assert_eq!(
            super::shown_url("http://127.0.0.1:8080"),
            "http://127.0.0.1:8080"
        );
    }
}
