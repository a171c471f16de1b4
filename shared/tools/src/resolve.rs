//! The two-tier tool cache and the merge rules (spec 002 "Tool Merging Rules").
//!
//! Tier 1: the core tools under one global key (`tools:core`). Tier 2: each MCP
//! server's tools under its URI (`tools:mcp:<uri>`), so skills sharing a server
//! share an entry and skills on different servers never see each other's tools.
//! Entries stay fresh for their TTL and are kept (stale) for `stale_for` beyond:
//! an unreachable server is served from a stale entry, and says so. Concurrent
//! misses for one URI in one process make one MCP call (single flight).
//!
//! In front of both, each process keeps the resolved sets it served
//! (`Local`), stamped with the store's tools *generation*: every write that
//! can change a resolution (a server's list fetched, pins accepted, an
//! invalidation) writes a new generation. A process' own writes clear its
//! copies at once (every resolver's in the process: `adas up` has several);
//! another replica's are seen at the next check of the generation, at most
//! [`LOCAL_RECHECK`] later. A warm resolution costs no round trip at all, and a
//! copy is dropped when its tier's TTL has passed since it was made.

mod connectors;

mod merge;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use adas_state::{DocStore, StateError, TtlCache};
use tracing::warn;

use crate::core::core_tools;
use crate::mcp::{McpConnector, McpError};
use crate::spec::{ToolInputSpec, ToolSource, ToolSpec};
pub use connectors::*;
pub use merge::*;

/// Cache key of the core tools.
pub const CORE_KEY: &str = "tools:core";

/// Cache key of an MCP server's tool list.
pub fn server_key(uri: &str) -> String {
    format!("tools:mcp:{uri}")
}

/// Cache key of the tools generation (see the module doc).
pub const GENERATION_KEY: &str = "tools:generation";

/// How long a process serves its own copy of a resolution before checking the
/// store's generation again (one GET).
pub const LOCAL_RECHECK: Duration = Duration::from_secs(1);

/// Resolutions a process keeps (distinct skill versions × tenants).
const LOCAL_MAX_ENTRIES: usize = 4096;

/// A resolution this process served, and how current it is.
#[derive(Debug)]
struct LocalEntry {
    /// Shared with every caller it is served to: a hit copies no schema.
    resolved: Arc<ResolvedTools>,
    generation: Option<Vec<u8>>,
    /// The process' write count when made (see [`LOCAL_EPOCH`]).
    epoch: u64,
    /// Until when the store entries it was made from stay fresh.
    fresh_until: std::time::Instant,
    /// When the generation was last seen unchanged.
    checked: std::time::Instant,
}

/// Tool-state writes made by this process, by any resolver: a copy made
/// before one is not served.
static LOCAL_EPOCH: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn local_epoch() -> u64 {
    LOCAL_EPOCH.load(std::sync::atomic::Ordering::Acquire)
}

/// Cache key prefix of a slag's tool selections.
pub fn selection_prefix(slag: &str) -> String {
    format!("tools:sel:{slag}:")
}

/// Cache key of a tool *selection* (a planner's choice of tools for an input):
/// the slag is part of the key, so two skills never share a selection.
pub fn selection_cache_key(slag: &str, selection_input: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in selection_input.as_bytes() {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{}{hash:016x}", selection_prefix(slag))
}

/// TTLs of the two tiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheTtls {
    /// Core tools stay fresh this long (`ADAS_CORE_TOOLS_TTL_MS`, default 300000).
    pub core: Duration,
    /// MCP tool lists stay fresh this long (`ADAS_MCP_TOOLS_TTL_MS`, default 60000).
    pub mcp: Duration,
    /// Expired entries are kept this long for serving stale when a server is down.
    pub stale_for: Duration,
}

impl Default for CacheTtls {
    fn default() -> Self {
        Self {
            core: Duration::from_millis(300_000),
            mcp: Duration::from_millis(60_000),
            stale_for: Duration::from_secs(24 * 3600),
        }
    }
}

/// A tool the skill document declares (its inputs merge with the server's schema).
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct DeclaredTool {
    /// Tool name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// Declared inputs.
    pub inputs: Vec<ToolInputSpec>,
    /// Never called under the skill's policy (`allowed: never`, blocked, …).
    pub never: bool,
    /// Each call waits for an approver (always or on a condition).
    pub approval: bool,
    /// Never called until the skill names an approver: why, with the fix.
    pub held: Option<String>,
}

/// A declared tool that is a server's tool on an operator's connection
/// (`tools[].source`): the skill's name, the connection, the server's name.
#[derive(Debug, Clone, Default, PartialEq, Hash)]
pub struct ToolRoute {
    /// The skill's name for it.
    pub tool: String,
    /// The connection id (`connectors[]`), mapped to a server per tenant.
    pub connection: String,
    /// The server's name for it.
    pub remote: String,
}

/// What ResolveTools needs from a skill.
#[derive(Debug, Clone, Default, PartialEq, Hash)]
pub struct ToolRequest {
    /// The skill's MCP server, if any.
    pub mcp_server: Option<String>,
    /// Declared tools served on connections (their own servers, renamed).
    pub routes: Vec<ToolRoute>,
    /// Whose connectors map the routes' connections.
    pub tenant: String,
    /// Tools declared in the skill document.
    pub declared: Vec<DeclaredTool>,
    /// `policy.tools.allowed` (empty: all; `*` and `prefix*` patterns).
    pub allowed: Vec<String>,
    /// `policy.tools.blocked` (same patterns).
    pub blocked: Vec<String>,
    /// Whose accepted tool definitions apply (`<tenant>/<slag>`); `None`: none
    /// are checked (offline tools, tests).
    pub pin_scope: Option<String>,
}

/// The resolved tool set.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResolvedTools {
    /// Tools by name order.
    pub tools: Vec<ToolSpec>,
    /// Servers whose tools were served from a stale entry.
    pub stale_sources: Vec<String>,
    /// Server tools whose current definition is not the accepted one (new or
    /// changed): unavailable until an admin accepts them.
    pub unaccepted: Vec<String>,
}

/// A server tool's identity as accepted: SHA-256 over its name, description and
/// input schema (objects with sorted keys, so a reordering is no change), and its
/// `readOnlyHint` when it has one — a server that starts calling a destructive
/// tool read-only is a changed tool (definitions without the hint keep the
/// digest they were accepted with).
pub fn tool_digest(tool: &ToolSpec) -> String {
    let canonical = match tool.read_only_hint {
        None => serde_json::json!([
            tool.name,
            tool.description,
            adas_dia::digest::canonical(&tool.input_schema)
        ]),
        Some(hint) => serde_json::json!([
            tool.name,
            tool.description,
            adas_dia::digest::canonical(&tool.input_schema),
            {"readOnlyHint": hint}
        ]),
    };
    adas_dia::digest::sha256_hex(canonical.to_string().as_bytes())
}

/// Accepted definitions by tool name (digests), kept for as long as the skill.
type Pins = BTreeMap<String, String>;

/// How long accepted definitions are kept in the cache store: for good.
const PINS_KEEP: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

fn pins_key(scope: &str) -> String {
    format!("pins:{scope}")
}

/// Why tools could not be resolved.
#[derive(Debug, thiserror::Error)]
pub enum ToolsError {
    /// The server is unreachable and nothing is cached for it.
    #[error("MCP server {uri} is unavailable and no cached tool list exists: {source}")]
    Unavailable {
        /// The server.
        uri: String,
        /// Why.
        source: McpError,
    },
    /// The state store failed.
    #[error("tool cache: {0}")]
    Store(#[from] StateError),
}

/// Resolves tool sets through the cache.
pub struct ToolResolver {
    cache: Arc<dyn TtlCache>,
    mcp: Arc<dyn McpConnector>,
    ttls: CacheTtls,
    flights: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    local: Mutex<HashMap<u64, LocalEntry>>,
    local_recheck: Duration,
    /// The deployment's connectors (`--connector ID=URL`), every tenant's
    /// unless a tenant maps the id itself.
    connectors: BTreeMap<String, String>,
    /// Where tenants' connectors are kept (tenant data, not cache entries).
    docs: Arc<dyn DocStore>,
}

impl std::fmt::Debug for ToolResolver {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("ToolResolver")
            .field("ttls", &self.ttls)
            .finish_non_exhaustive()
    }
}

impl ToolResolver {
    /// A resolver over a cache and an MCP connector.
    pub fn new(cache: Arc<dyn TtlCache>, mcp: Arc<dyn McpConnector>, ttls: CacheTtls) -> Self {
        Self {
            cache,
            mcp,
            ttls,
            flights: Mutex::new(HashMap::new()),
            local: Mutex::new(HashMap::new()),
            local_recheck: LOCAL_RECHECK,
            connectors: BTreeMap::new(),
            docs: Arc::new(adas_state::MemoryStore::new()),
        }
    }

    /// Keeps tenants' connectors in `docs`, the deployment's document store
    /// (without it, in this process only).
    pub fn with_documents(mut self, docs: Arc<dyn DocStore>) -> Self {
        self.docs = docs;
        self
    }

    /// Maps connection ids to servers for every tenant (a tenant's own
    /// mapping of an id wins).
    pub fn with_connectors(mut self, connectors: BTreeMap<String, String>) -> Self {
        self.connectors = connectors;
        self
    }

    /// Checks the store's generation after `recheck` instead of
    /// [`LOCAL_RECHECK`] (zero: on every resolution, one GET).
    pub fn with_local_recheck(mut self, recheck: Duration) -> Self {
        self.local_recheck = recheck;
        self
    }

    fn local(&self) -> std::sync::MutexGuard<'_, HashMap<u64, LocalEntry>> {
        self.local
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    async fn generation(&self) -> Result<Option<Vec<u8>>, ToolsError> {
        Ok(self
            .cache
            .cache_get(GENERATION_KEY)
            .await?
            .map(|entry| entry.value))
    }

    /// A write that can change any resolution: this process' copies go now,
    /// other replicas' at their next generation check.
    async fn bump_generation(&self) -> Result<(), ToolsError> {
        LOCAL_EPOCH.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        self.local().clear();
        // Unique per write across replicas: this process, its clock, a counter.
        static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let token = format!(
            "{}-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default()
                .as_nanos(),
            WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        );
        self.cache
            .cache_put(GENERATION_KEY, token.as_bytes(), PINS_KEEP, PINS_KEEP)
            .await?;
        Ok(())
    }

    /// The MCP connector (to call tools).
    pub fn connector(&self) -> &Arc<dyn McpConnector> {
        &self.mcp
    }

    /// The core tools (cached globally).
    pub async fn core(&self) -> Result<Vec<ToolSpec>, ToolsError> {
        if let Some(entry) = self.cache.cache_get(CORE_KEY).await?
            && entry.fresh
            && let Ok(tools) = serde_json::from_slice(&entry.value)
        {
            return Ok(tools);
        }
        let tools = core_tools();
        self.put(CORE_KEY, &tools, self.ttls.core).await?;
        Ok(tools)
    }

    /// An MCP server's tools: fresh from the cache, else listed (once per URI at a
    /// time), else stale from the cache. Returns the tools and whether they are stale.
    pub async fn server(&self, uri: &str) -> Result<(Vec<ToolSpec>, bool), ToolsError> {
        let key = server_key(uri);
        if let Some(tools) = self.fresh(&key).await? {
            count_cache("store", "hit");
            return Ok((tools, false));
        }
        count_cache("store", "miss");
        let flight = {
            let mut flights = self
                .flights
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            flights.entry(uri.to_owned()).or_default().clone()
        };
        let _guard = flight.lock().await;
        // Whoever held the flight before us may have filled the cache.
        if let Some(tools) = self.fresh(&key).await? {
            return Ok((tools, false));
        }
        match self.mcp.list_tools(uri).await {
            Ok(tools) => {
                self.put(&key, &tools, self.ttls.mcp).await?;
                self.bump_generation().await?;
                Ok((tools, false))
            }
            Err(error) => {
                let stale =
                    self.cache.cache_get(&key).await?.and_then(|entry| {
                        serde_json::from_slice::<Vec<ToolSpec>>(&entry.value).ok()
                    });
                match stale {
                    Some(tools) => {
                        warn!(uri, %error, "MCP server unreachable; serving its stale tool list");
                        Ok((tools, true))
                    }
                    None => Err(ToolsError::Unavailable {
                        uri: uri.to_owned(),
                        source: error,
                    }),
                }
            }
        }
    }

    /// Lists `uri`'s tools now, whatever the cache holds, for a call with side
    /// effects on `spec`: the definition it is made on is the server's current
    /// one, not one up to the list's TTL old. Returns whether `spec` changed or
    /// is gone from the list (then the list is stored and every process
    /// resolves again, pins included); an unreachable server is an error,
    /// never the cached list. An unchanged tool costs no store trip.
    pub async fn recheck(&self, uri: &str, spec: &ToolSpec) -> Result<bool, ToolsError> {
        let listed = self
            .mcp
            .list_tools(uri)
            .await
            .map_err(|source| ToolsError::Unavailable {
                uri: uri.to_owned(),
                source,
            })?;
        let served_as = spec.remote_name.as_deref().unwrap_or(&spec.name);
        let same = listed.iter().any(|now| {
            now.name == served_as
                && now.description == spec.description
                && now.read_only_hint == spec.read_only_hint
                && adas_dia::digest::canonical(&now.input_schema)
                    == adas_dia::digest::canonical(&spec.input_schema)
        });
        if same {
            return Ok(false);
        }
        self.put(&server_key(uri), &listed, self.ttls.mcp).await?;
        self.bump_generation().await?;
        Ok(true)
    }

    async fn fresh(&self, key: &str) -> Result<Option<Vec<ToolSpec>>, ToolsError> {
        Ok(self
            .cache
            .cache_get(key)
            .await?
            .filter(|entry| entry.fresh)
            .and_then(|entry| serde_json::from_slice(&entry.value).ok()))
    }

    async fn put(
        &self,
        key: &str,
        tools: &[ToolSpec],
        fresh_for: Duration,
    ) -> Result<(), ToolsError> {
        let value = serde_json::to_vec(tools).expect("tool specs serialize");
        self.cache
            .cache_put(key, &value, fresh_for, fresh_for + self.ttls.stale_for)
            .await?;
        Ok(())
    }

    /// Resolves a skill's tool set: core ∪ server tools (a server tool named
    /// `sys.*` or like a core tool is ignored: no shadowing), declared-but-absent tools marked unavailable,
    /// declared inputs merged into the server's schema, then `allowed`/`blocked`.
    pub async fn resolve(&self, request: &ToolRequest) -> Result<Arc<ResolvedTools>, ToolsError> {
        let key = fingerprint(request);
        let now = std::time::Instant::now();
        let held = self
            .local()
            .get(&key)
            .filter(|entry| now < entry.fresh_until && entry.epoch == local_epoch())
            .map(|entry| {
                let current = now.duration_since(entry.checked) < self.local_recheck;
                (entry.resolved.clone(), entry.generation.clone(), current)
            });
        if let Some((resolved, generation, current)) = held {
            if current {
                count_local_hit();
                return Ok(resolved);
            }
            if self.generation().await? == generation {
                count_local_hit();
                if let Some(kept) = self.local().get_mut(&key) {
                    kept.checked = now;
                }
                return Ok(resolved);
            }
        }
        count_cache("process", "miss");
        // The generation is read before resolving: a write racing with this
        // resolution leaves a newer one, so the copy kept is checked again,
        // not trusted. A resolution that wrote (a first listing, first pins)
        // is made once more, from what it wrote, before a copy is kept.
        let mut resolved = None;
        for _ in 0..2 {
            let epoch = local_epoch();
            let generation = self.generation().await?;
            let fresh = Arc::new(self.resolve_from_store(request).await?);
            if local_epoch() == epoch && fresh.stale_sources.is_empty() {
                self.keep_local(key, request, fresh.clone(), generation, epoch, now);
                return Ok(fresh);
            }
            resolved = Some(fresh);
        }
        Ok(resolved.expect("resolved at least once"))
    }

    fn keep_local(
        &self,
        key: u64,
        request: &ToolRequest,
        resolved: Arc<ResolvedTools>,
        generation: Option<Vec<u8>>,
        epoch: u64,
        now: std::time::Instant,
    ) {
        let fresh_for = if request.mcp_server.is_some() || !request.routes.is_empty() {
            self.ttls.mcp.min(self.ttls.core)
        } else {
            self.ttls.core
        };
        let mut local = self.local();
        if local.len() >= LOCAL_MAX_ENTRIES {
            local.clear();
        }
        local.insert(
            key,
            LocalEntry {
                resolved,
                generation,
                epoch,
                fresh_until: now + fresh_for,
                checked: now,
            },
        );
    }

    /// [`Self::resolve`] from the store's tiers (and the MCP server on a miss).
    async fn resolve_from_store(&self, request: &ToolRequest) -> Result<ResolvedTools, ToolsError> {
        // Both tiers at once: on a multiplexed Redis connection the two lookups
        // share one round trip.
        let server = async {
            match &request.mcp_server {
                Some(uri) => self.server(uri).await.map(|found| Some((uri, found))),
                None => Ok(None),
            }
        };
        let (core, server) = tokio::join!(self.core(), server);
        let mut merged: BTreeMap<String, ToolSpec> = core?
            .into_iter()
            .map(|tool| (tool.name.clone(), tool))
            .collect();
        let mut stale_sources = Vec::new();
        if let Some((uri, (tools, stale))) = server? {
            if stale {
                stale_sources.push(uri.clone());
            }
            for tool in tools {
                // A server never shadows a platform tool: `sys.` is ours.
                if tool.name.starts_with("sys.") || merged.contains_key(&tool.name) {
                    warn!(uri = %uri, tool = %tool.name, "MCP server offers a reserved tool name; ignored");
                    continue;
                }
                merged.insert(tool.name.clone(), tool);
            }
        }
        let routed = self
            .routed(request, &mut merged, &mut stale_sources)
            .await?;
        for declared in &request.declared {
            if routed.contains(&declared.name) {
                continue;
            }
            match merged.get_mut(&declared.name) {
                Some(tool)
                    if tool.source != ToolSource::Core || declared.name.starts_with("sys.") =>
                {
                    merge_inputs(tool, &declared.inputs)
                }
                _ => {
                    let reason = match &request.mcp_server {
                        Some(uri) => format!("declared by the skill but not served by {uri}"),
                        None => "declared by the skill, but the skill has no MCP server".to_owned(),
                    };
                    let source = request
                        .mcp_server
                        .clone()
                        .map_or(ToolSource::Core, |uri| ToolSource::Mcp { uri });
                    merged.insert(
                        declared.name.clone(),
                        ToolSpec {
                            name: declared.name.clone(),
                            description: declared.description.clone(),
                            inputs: declared.inputs.clone(),
                            input_schema: serde_json::Value::Null,
                            source,
                            available: false,
                            unavailable_reason: Some(reason),
                            availability: crate::spec::Availability::NotServed,
                            read_only_hint: None,
                            remote_name: None,
                        },
                    );
                }
            }
        }
        let tools = merged
            .into_values()
            .filter(|tool| {
                request.allowed.is_empty()
                    || request
                        .allowed
                        .iter()
                        .any(|pattern| matches_pattern(pattern, &tool.name))
            })
            .filter(|tool| {
                !request
                    .blocked
                    .iter()
                    .any(|pattern| matches_pattern(pattern, &tool.name))
            })
            .collect();
        let mut resolved = ResolvedTools {
            tools,
            stale_sources,
            unaccepted: Vec::new(),
        };
        if let Some(scope) = &request.pin_scope {
            self.apply_pins(scope, &mut resolved).await?;
        }
        mark_undeclared(request, &mut resolved);
        Ok(resolved)
    }

    /// Adds the request's routed tools to `merged`, each under the skill's
    /// name with its server's definition (declared inputs merged), or
    /// unavailable with why: no connector for its connection, or a server
    /// that does not offer it. Returns the names it placed.
    async fn routed(
        &self,
        request: &ToolRequest,
        merged: &mut BTreeMap<String, ToolSpec>,
        stale_sources: &mut Vec<String>,
    ) -> Result<std::collections::HashSet<String>, ToolsError> {
        let mut placed = std::collections::HashSet::new();
        let mut servers: HashMap<String, Option<(String, Vec<ToolSpec>)>> = HashMap::new();
        for route in &request.routes {
            // A route never shadows a platform tool: `sys.` is ours.
            if route.tool.starts_with("sys.") || merged.contains_key(&route.tool) {
                continue;
            }
            if !servers.contains_key(&route.connection) {
                let found = match self.connection(&request.tenant, &route.connection).await? {
                    Some(connector) => {
                        let (tools, stale) = self.server(&connector.url).await?;
                        if stale && !stale_sources.contains(&connector.url) {
                            stale_sources.push(connector.url.clone());
                        }
                        Some((connector.url, tools))
                    }
                    None => None,
                };
                servers.insert(route.connection.clone(), found);
            }
            let declared = request.declared.iter().find(|tool| tool.name == route.tool);
            let spec = match &servers[&route.connection] {
                Some((uri, tools)) => match tools.iter().find(|tool| tool.name == route.remote) {
                    Some(tool) => {
                        let mut tool = tool.clone();
                        tool.name = route.tool.clone();
                        tool.remote_name = Some(route.remote.clone());
                        if let Some(declared) = declared {
                            merge_inputs(&mut tool, &declared.inputs);
                        }
                        tool
                    }
                    None => unserved(
                        route,
                        declared,
                        ToolSource::Mcp { uri: uri.clone() },
                        format!(
                            "declared as `{}` on connection `{}`, which {uri} does not offer",
                            route.remote, route.connection
                        ),
                    ),
                },
                None => unserved(
                    route,
                    declared,
                    ToolSource::Core,
                    format!(
                        "connection `{}` is mapped to no MCP server for this tenant (adas connector put {} --url …)",
                        route.connection, route.connection
                    ),
                ),
            };
            placed.insert(route.tool.clone());
            merged.insert(route.tool.clone(), spec);
        }
        Ok(placed)
    }

    async fn pins(&self, scope: &str) -> Result<Option<Pins>, ToolsError> {
        Ok(self
            .cache
            .cache_get(&pins_key(scope))
            .await?
            .and_then(|entry| serde_json::from_slice(&entry.value).ok()))
    }

    async fn store_pins(&self, scope: &str, pins: &Pins) -> Result<(), ToolsError> {
        let value = serde_json::to_vec(pins).expect("pins serialize");
        self.cache
            .cache_put(&pins_key(scope), &value, PINS_KEEP, PINS_KEEP)
            .await?;
        self.bump_generation().await
    }

    /// Marks server tools whose definition is not the accepted one unavailable.
    /// The first resolution of a scope accepts what the server offers then
    /// (trust on first use: the admin who put the skill chose the server).
    async fn apply_pins(
        &self,
        scope: &str,
        resolved: &mut ResolvedTools,
    ) -> Result<(), ToolsError> {
        let served =
            |tool: &&mut ToolSpec| tool.available && matches!(tool.source, ToolSource::Mcp { .. });
        let Some(pins) = self.pins(scope).await? else {
            let pins: Pins = resolved
                .tools
                .iter_mut()
                .filter(served)
                .map(|tool| (tool.name.clone(), tool_digest(tool)))
                .collect();
            return self.store_pins(scope, &pins).await;
        };
        for tool in resolved.tools.iter_mut().filter(served) {
            let reason = match pins.get(&tool.name) {
                Some(accepted) if *accepted == tool_digest(tool) => continue,
                Some(_) => "its definition changed since an admin accepted it",
                None => "it is new on the server and not accepted yet",
            };
            warn!(scope, tool = %tool.name, reason, "MCP tool not accepted");
            tool.available = false;
            tool.availability = crate::spec::Availability::Unaccepted;
            tool.unavailable_reason = Some(format!(
                "`{}` is unavailable: {reason} (adas skill tools SLAG --accept)",
                tool.name
            ));
            resolved.unaccepted.push(tool.name.clone());
        }
        Ok(())
    }

    /// Accepts the current definitions of `names` (all server tools when
    /// empty) for `scope`, read fresh from the server, and resolves again.
    pub async fn accept(
        &self,
        request: &ToolRequest,
        names: &[String],
    ) -> Result<Arc<ResolvedTools>, ToolsError> {
        let Some(scope) = &request.pin_scope else {
            return self.resolve(request).await;
        };
        if let Some(uri) = &request.mcp_server {
            self.invalidate_server(uri).await?;
        }
        for route in &request.routes {
            if let Some(connector) = self.connection(&request.tenant, &route.connection).await? {
                self.invalidate_server(&connector.url).await?;
            }
        }
        let mut unpinned = request.clone();
        unpinned.pin_scope = None;
        let current = self.resolve(&unpinned).await?;
        let mut pins = self.pins(scope).await?.unwrap_or_default();
        for tool in current.tools.iter().filter(|tool| {
            tool.available
                && matches!(tool.source, ToolSource::Mcp { .. })
                && (names.is_empty() || names.contains(&tool.name))
        }) {
            pins.insert(tool.name.clone(), tool_digest(tool));
        }
        self.store_pins(scope, &pins).await?;
        self.resolve(request).await
    }

    /// Drops one server's entry.
    pub async fn invalidate_server(&self, uri: &str) -> Result<u64, ToolsError> {
        let dropped = self.cache.cache_invalidate(&server_key(uri)).await?;
        self.bump_generation().await?;
        Ok(u64::from(dropped))
    }

    /// Drops a slag's selections and, when given, its server's entry.
    pub async fn invalidate_skill(&self, slag: &str, uri: Option<&str>) -> Result<u64, ToolsError> {
        let mut dropped = self
            .cache
            .cache_invalidate_prefix(&selection_prefix(slag))
            .await?;
        match uri {
            Some(uri) => dropped += self.invalidate_server(uri).await?,
            None => self.bump_generation().await?,
        }
        Ok(dropped)
    }

    /// Drops every tool cache entry.
    pub async fn invalidate_all(&self) -> Result<u64, ToolsError> {
        let dropped = self.cache.cache_invalidate_prefix("tools:").await?;
        self.bump_generation().await?;
        Ok(dropped)
    }
}

/// Resolutions served from a process' own copy, for the metrics page.
static LOCAL_HITS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
