//! adas-skill-registry: SkillRegistryService — loads, validates and bootstraps
//! skills (templates → `<memory>/<slag>/skill.yaml`), binds resources, and serves
//! each skill with its compiled policy. Wire types stop here: requests are turned
//! into calls on `adas_catalog::Catalog`, and `RegistryError` is mapped to a
//! `Status` once, in `error.rs`. Tool sets come from `adas_tools::ToolResolver`
//! (core tools + the skill's MCP server, through the two-tier cache).

mod convert;
mod error;
mod service;

use std::collections::BTreeMap;
use std::sync::Arc;

use adas_catalog::Catalog;
use adas_proto::pb;
use adas_proto::pb::skill_registry_service_server::{
    SkillRegistryService, SkillRegistryServiceServer,
};
use adas_runtime::convert::{next_page_token, page_window};
use adas_skill::slag::{check_slag, parse_required_skill_name, parse_skill_name};
use adas_skill::{Format, SkillError};
use adas_tools::ToolResolver;
use tonic::{Request, Response, Status};

pub use error::RegistryError;

/// The SkillRegistryService implementation.
#[derive(Clone)]
pub struct SkillRegistry {
    catalog: Arc<Catalog>,
    tools: Arc<ToolResolver>,
    /// Where solutions are kept (the deployment's document store).
    docs: Arc<dyn adas_state::DocStore>,
}

impl std::fmt::Debug for SkillRegistry {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("SkillRegistry")
            .field("tools", &self.tools)
            .finish_non_exhaustive()
    }
}

impl SkillRegistry {
    /// A registry over a catalog of operational skills, a tool resolver and
    /// the document store solutions live in.
    pub fn new(
        catalog: Arc<Catalog>,
        tools: Arc<ToolResolver>,
        docs: Arc<dyn adas_state::DocStore>,
    ) -> Self {
        Self {
            catalog,
            tools,
            docs,
        }
    }

    /// A warning at its line:col for each connection of `skill` that this
    /// tenant maps to no server (its tools are unavailable until one is).
    async fn unmapped_connections(
        &self,
        tenant: &str,
        skill: &adas_skill::OperationalSkill,
    ) -> Result<Vec<pb::Diagnostic>, RegistryError> {
        let positions = adas_skill::document::parse(&skill.source, skill.format)
            .map(|document| document.positions)
            .ok();
        let mut warnings = Vec::new();
        for (index, id) in skill.skill.connectors.iter().enumerate() {
            if self.tools.connection(tenant, id).await?.is_some() {
                continue;
            }
            let path = format!("connectors[{index}]");
            let at = positions
                .as_ref()
                .map(|positions| positions.find(&path))
                .unwrap_or_default();
            warnings.push(convert::diagnostic(&adas_skill::Diagnostic::warning(
                &path,
                at,
                adas_skill::diagnostics::codes::UNKNOWN_CONNECTION,
                format!(
                    "connection `{id}` is mapped to no MCP server for this tenant: its tools are unavailable until `adas connector put {id} --url …`"
                ),
            )));
        }
        Ok(warnings)
    }

    /// The security contracts of `tenant`'s solutions that `source`, put as
    /// `slag`, would break: an error each, at the document's access policy
    /// (or its start when it has none). A consumer's promise is kept on every
    /// write of it, so a job on it — through its solution or started
    /// directly — always meets the contract's access rules.
    async fn broken_contracts(
        &self,
        tenant: &str,
        slag: &str,
        source: &str,
    ) -> Result<Vec<adas_skill::Diagnostic>, RegistryError> {
        let solutions = self.contracts_on(tenant, slag).await?;
        if solutions.is_empty() {
            return Ok(Vec::new());
        }
        let source = source.to_owned();
        let loaded = tokio::task::spawn_blocking(move || {
            let format = adas_skill::Format::detect(None, &source);
            let positions = adas_skill::document::parse(&source, format)
                .map(|document| document.positions)
                .ok();
            (adas_skill::load(&source, format).skill, positions)
        })
        .await
        .map_err(|error| RegistryError::Internal(error.to_string()))?;
        let (Some(skill), positions) = loaded else {
            // Validation reports what is wrong with it.
            return Ok(Vec::new());
        };
        let at = positions
            .map(|positions| positions.find("access_policy"))
            .unwrap_or_default();
        Ok(solutions
            .iter()
            .flat_map(|(id, solution)| {
                solution
                    .broken_contracts(slag, &skill)
                    .into_iter()
                    .map(move |broken| {
                        adas_skill::Diagnostic::error(
                            "access_policy",
                            at,
                            adas_skill::diagnostics::codes::INVALID_VALUE,
                            format!("solutions/{id}: {broken}"),
                        )
                    })
            })
            .collect())
    }

    /// The tenant's solutions with a security contract whose consumer is
    /// `slag`, by id.
    pub(crate) async fn contracts_on(
        &self,
        tenant: &str,
        slag: &str,
    ) -> Result<Vec<(String, adas_skill::solution::Solution)>, RegistryError> {
        let ids = adas_catalog::solutions::list(self.docs.as_ref(), tenant)
            .await
            .map_err(|error| RegistryError::Internal(error.to_string()))?;
        let mut solutions = Vec::new();
        for id in ids {
            if let Some(stored) = adas_catalog::solutions::get(self.docs.as_ref(), tenant, &id)
                .await
                .map_err(|error| RegistryError::Internal(error.to_string()))?
                && stored
                    .solution
                    .security_contracts
                    .iter()
                    .any(|contract| contract.consumer == slag)
            {
                solutions.push((id, stored.solution));
            }
        }
        Ok(solutions)
    }

    /// `solutions/{id}` → id.
    fn solution_id(field: &'static str, name: &str) -> Result<String, RegistryError> {
        name.strip_prefix("solutions/")
            .filter(|id| adas_skill::slag::is_valid_slag(id))
            .map(str::to_owned)
            .ok_or(RegistryError::InvalidField {
                field,
                reason: "expected `solutions/{id}`, an id of 1–64 lowercase letters, digits, `-`, `_`, `.`".into(),
            })
    }

    fn solution_message(
        id: &str,
        stored: &adas_skill::solution::StoredSolution,
        warnings: &[adas_skill::Diagnostic],
    ) -> pb::Solution {
        pb::Solution {
            name: format!("solutions/{id}"),
            source: stored.source.clone(),
            etag: stored.etag.clone(),
            skills: stored
                .solution
                .skills
                .iter()
                .map(|skill| skill.id.clone())
                .collect(),
            diagnostics: warnings.iter().map(convert::diagnostic).collect(),
        }
    }

    /// The tonic service, with the configured message size limit in both directions.
    pub fn into_service(self, max_message_bytes: usize) -> SkillRegistryServiceServer<Self> {
        SkillRegistryServiceServer::new(self)
            // gzip both ways: a client may send compressed, and gets compressed answers when it offers.
            .accept_compressed(tonic::codec::CompressionEncoding::Gzip)
            .send_compressed(tonic::codec::CompressionEncoding::Gzip)
            .max_decoding_message_size(max_message_bytes)
            .max_encoding_message_size(max_message_bytes)
    }

    /// The current skill of `slag` in the caller's tenant's catalog: a skill
    /// this process holds costs one store read on the calling task.
    async fn skill(
        &self,
        tenant: &str,
        slag: &str,
    ) -> Result<Arc<adas_skill::OperationalSkill>, RegistryError> {
        Ok(self.catalog.for_tenant(tenant)?.get_async(slag).await?)
    }

    /// Drops the tool cache entries `tenant`'s skills resolve through: each
    /// skill's selections and server, and its connectors' servers.
    async fn invalidate_tenant(&self, tenant: &str) -> Result<u64, RegistryError> {
        let slags = self.with_catalog(tenant, |catalog| catalog.list()).await?;
        let mut dropped = 0;
        for slag in &slags {
            let server = match self.skill(tenant, slag).await {
                Ok(skill) => skill.skill.mcp_server.clone(),
                Err(_) => None,
            };
            dropped += self.tools.invalidate_skill(slag, server.as_deref()).await?;
        }
        for connector in self.tools.connectors(tenant).await? {
            dropped += self.tools.invalidate_server(&connector.url).await?;
        }
        Ok(dropped)
    }

    /// Whether `uri` is a server the tenant's own skills or connectors
    /// resolve through: the only servers a tenant's admin may drop.
    async fn tenant_uses(&self, tenant: &str, uri: &str) -> Result<bool, RegistryError> {
        let uri = uri.trim();
        if self
            .tools
            .connectors(tenant)
            .await?
            .iter()
            .any(|connector| connector.url.trim() == uri)
        {
            return Ok(true);
        }
        let slags = self.with_catalog(tenant, |catalog| catalog.list()).await?;
        for slag in &slags {
            if let Ok(skill) = self.skill(tenant, slag).await
                && skill.skill.mcp_server.as_deref().map(str::trim) == Some(uri)
            {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Runs a catalog operation off the async threads (it reads and writes files).
    /// Every operation is on the caller's tenant's catalog.
    async fn with_catalog<T: Send + 'static>(
        &self,
        tenant: &str,
        operation: impl FnOnce(&Catalog) -> Result<T, SkillError> + Send + 'static,
    ) -> Result<T, RegistryError> {
        let catalog = self.catalog.for_tenant(tenant)?;
        tokio::task::spawn_blocking(move || operation(&catalog))
            .await
            .map_err(|error| RegistryError::Internal(error.to_string()))?
            .map_err(RegistryError::from)
    }
}

/// A registry as configured: `catalog` (see `adas_boot::open_catalog`) and a tool
/// resolver over `store` with the configured TTLs.
pub fn build(
    config: &adas_runtime::ServerConfig,
    store: Arc<dyn adas_state::StateStore>,
    catalog: Arc<Catalog>,
    mcp: adas_tools::RmcpConnector,
) -> Result<SkillRegistry, adas_runtime::RuntimeError> {
    let docs: Arc<dyn adas_state::DocStore> = store.clone();
    let tools = adas_boot::tool_resolver(config, store, Arc::new(mcp))?;
    Ok(SkillRegistry::new(catalog, Arc::new(tools), docs))
}

fn slag_of(field: &'static str, name: &str) -> Result<String, RegistryError> {
    parse_skill_name(name).map_err(|reason| RegistryError::InvalidField { field, reason })
}

/// The slag of a write's `name` (REQUIRED: empty is refused, not the default).
fn required_slag(name: &str) -> Result<String, RegistryError> {
    parse_required_skill_name(name).map_err(|reason| RegistryError::InvalidField {
        field: "name",
        reason,
    })
}

fn resolve_response(resolved: &adas_tools::ResolvedTools) -> pb::ResolveToolsResponse {
    pb::ResolveToolsResponse {
        tools: resolved.tools.iter().map(convert::tool).collect(),
        stale: !resolved.stale_sources.is_empty(),
        stale_sources: resolved.stale_sources.clone(),
        unaccepted_tools: resolved.unaccepted.clone(),
    }
}

/// The caller, when it administers skills; PERMISSION_DENIED otherwise.
fn require_admin<T>(request: &Request<T>) -> Result<adas_runtime::Principal, Status> {
    let principal = adas_runtime::principal(request)?;
    if principal.is_admin() {
        Ok(principal)
    } else {
        Err(adas_runtime::auth::permission_denied(
            "changing skills takes the `admin` role",
        ))
    }
}

/// The caller, when it may change its tenant's connectors (`admin` or
/// `operator`); PERMISSION_DENIED otherwise.
fn require_operator<T>(request: &Request<T>) -> Result<adas_runtime::Principal, Status> {
    let principal = adas_runtime::principal(request)?;
    if principal.is_admin() || principal.has_role("operator") {
        Ok(principal)
    } else {
        Err(adas_runtime::auth::permission_denied(
            "changing connectors takes the `admin` or `operator` role",
        ))
    }
}

/// The id of a connector name, `connectors/{id}` (a bare id is accepted).
fn connector_id(field: &'static str, name: &str) -> Result<String, RegistryError> {
    let id = name.strip_prefix("connectors/").unwrap_or(name);
    if adas_tools::is_connection_id(id) {
        Ok(id.to_owned())
    } else {
        Err(RegistryError::InvalidField {
            field,
            reason: "expected `connectors/{id}`, an id of 1–64 letters, digits, `-`, `_`, `.`"
                .into(),
        })
    }
}

fn connector_message(connector: adas_tools::Connector) -> pb::Connector {
    pb::Connector {
        name: format!("connectors/{}", connector.id),
        url: connector.url,
        deployment: connector.deployment,
    }
}

fn format_of(format: i32) -> Option<Format> {
    match pb::SkillFormat::try_from(format).unwrap_or(pb::SkillFormat::Unspecified) {
        pb::SkillFormat::Yaml => Some(Format::Yaml),
        pb::SkillFormat::Json => Some(Format::Json),
        pb::SkillFormat::Unspecified => None,
    }
}
