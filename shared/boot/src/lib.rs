//! adas-boot: the composition root — each process's parts made from its
//! configuration, once, in `main` (and `adas up`): the state store (its
//! durability checked), the catalog, the MCP connector under the egress
//! policy, the tool resolver and the operator's models. Nothing below a
//! `main` reads the configuration; the services receive what is made here.

mod models;

pub use models::{audit_secret, models};

/// The state store as configured: Redis at `--redis-url` (its durability
/// checked first, see [`adas_state::durability_problems`]: under
/// `--durability strict` a Redis that can lose acknowledged writes or evict
/// keys stops the start with the CONFIG that fixes it), else in memory.
pub async fn open_store(
    config: &adas_runtime::ServerConfig,
) -> Result<std::sync::Arc<dyn adas_state::StateStore>, adas_runtime::RuntimeError> {
    use adas_runtime::RuntimeError;
    // Every process that keeps state keys its digests and tokens the same
    // way: the deployment's audit secret, set before anything is made.
    audit_secret(config)?;
    if let Some(url) = &config.redis_url {
        let problems = adas_state::durability_problems(url)
            .await
            .unwrap_or_else(|error| {
                vec![format!(
                    "its configuration cannot be read ({error}); allow CONFIG GET for this user"
                )]
            });
        if !problems.is_empty() {
            let text = problems.join("; ");
            match config.durability {
                adas_runtime::Durability::Strict => {
                    return Err(RuntimeError::Startup(format!(
                        "Redis is not durable (--durability strict): {text}; then persist \
                         it with CONFIG REWRITE (or redis.conf), or start with \
                         --durability relaxed to accept the loss"
                    )));
                }
                adas_runtime::Durability::Relaxed => {
                    tracing::warn!(problems = %text, "Redis is not durable (--durability relaxed)");
                }
            }
        }
    }
    adas_state::open(config.redis_url.as_deref(), &config.redis_prefix)
        .await
        .map_err(|error| RuntimeError::Startup(error.to_string()))
}

/// The catalog every service reads skills through, as configured: the memory
/// root, the templates dir (checked: a missing or empty one fails the start),
/// and the `${NAME}` variables operators set. On Redis (`store` shared by every
/// process of the deployment) skills live in the store and the memory root is
/// a local export, so separate processes on separate disks serve one catalog;
/// the embedded in-memory store keeps them on disk, where they outlive it.
pub fn open_catalog(
    config: &adas_runtime::ServerConfig,
    store: &std::sync::Arc<dyn adas_state::StateStore>,
) -> Result<std::sync::Arc<adas_catalog::Catalog>, adas_runtime::RuntimeError> {
    let policy = egress_policy(config)?;
    let check = adas_catalog::McpCheck(std::sync::Arc::new(move |uri: &str| {
        policy
            .check_static(uri)
            .map_err(|denied| denied.to_string())
    }));
    adas_catalog::Catalog::open(&config.memory_root, config.templates_dir.as_deref())
        .map(|catalog| {
            let catalog = catalog
                .with_var("ADAS_DEMO_MCP_URL", &config.demo_mcp_url)
                .with_mcp_check(check);
            std::sync::Arc::new(
                match (&config.redis_url, tokio::runtime::Handle::try_current()) {
                    (Some(_), Ok(runtime)) => catalog.with_store(store.clone(), runtime),
                    _ => catalog,
                },
            )
        })
        .map_err(|error| adas_runtime::RuntimeError::Startup(error.to_string()))
}

/// The process' tool resolver: the configured cache TTLs, tenants'
/// connectors in the store's documents, and the deployment's connectors (`--connector ID=URL`), each checked against the
/// egress policy first — a refused or malformed one stops the start.
pub fn tool_resolver(
    config: &adas_runtime::ServerConfig,
    store: std::sync::Arc<dyn adas_state::StateStore>,
    mcp: std::sync::Arc<dyn adas_tools::McpConnector>,
) -> Result<adas_tools::ToolResolver, adas_runtime::RuntimeError> {
    let cache: std::sync::Arc<dyn adas_state::TtlCache> = store.clone();
    let docs: std::sync::Arc<dyn adas_state::DocStore> = store;
    let policy = egress_policy(config)?;
    let mut connectors = std::collections::BTreeMap::new();
    for entry in &config.connectors {
        let refuse = |why: String| {
            adas_runtime::RuntimeError::Startup(format!("--connector `{entry}`: {why}"))
        };
        let (id, url) = entry
            .split_once('=')
            .map(|(id, url)| (id.trim(), url.trim()))
            .filter(|(id, _)| adas_tools::is_connection_id(id))
            .ok_or_else(|| {
                refuse("expected ID=URL with an id of letters, digits, `-`, `_`, `.`".into())
            })?;
        if let Some(problem) = adas_skill::validate::transport_problem(url) {
            return Err(refuse(problem));
        }
        policy
            .check_static(url)
            .map_err(|denied| refuse(denied.to_string()))?;
        connectors.insert(id.to_owned(), url.to_owned());
    }
    Ok(adas_tools::ToolResolver::new(
        cache,
        mcp,
        adas_tools::CacheTtls {
            core: config.core_tools_ttl,
            mcp: config.mcp_tools_ttl,
            ..adas_tools::CacheTtls::default()
        },
    )
    .with_connectors(connectors)
    .with_documents(docs))
}

/// The process's one MCP connector, under the operator's egress policy (the
/// configured demo server's URL is allowed too).
pub fn mcp_connector(
    config: &adas_runtime::ServerConfig,
) -> Result<adas_tools::RmcpConnector, adas_runtime::RuntimeError> {
    let connector =
        adas_tools::RmcpConnector::new(adas_tools::McpLimits::default(), egress_policy(config)?);
    match &config.mcp_ca {
        Some(path) => {
            let pem = std::fs::read(path).map_err(|error| {
                adas_runtime::RuntimeError::Startup(format!("{}: {error}", path.display()))
            })?;
            connector
                .with_ca_pem(&pem)
                .map_err(adas_runtime::RuntimeError::Startup)
        }
        None => Ok(connector),
    }
}

/// The operator's egress policy for MCP servers (`--mcp-allow`, `--mcp-stdio`,
/// and the configured demo server's URL).
pub fn egress_policy(
    config: &adas_runtime::ServerConfig,
) -> Result<adas_tools::EgressPolicy, adas_runtime::RuntimeError> {
    Ok(adas_tools::EgressPolicy::new(
        config.mcp_allow.iter().map(String::as_str),
        config.mcp_stdio.iter().map(String::as_str),
    )
    .map_err(adas_runtime::RuntimeError::Startup)?
    .allowing_url(&config.demo_mcp_url))
}
