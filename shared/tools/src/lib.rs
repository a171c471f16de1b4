//! adas-tools: the tools a skill can call — the built-in `sys.*` core tools, the
//! MCP client (rmcp) for each skill's server, the two-tier tool cache in the
//! state store, and the merge rules that produce a skill's exact tool set.

pub mod core;
pub mod egress;
pub mod mcp;
pub mod resolve;
pub mod spec;
mod traced;

pub use core::{CoreToolError, core_tools, run_core};
pub use egress::{EgressDenied, EgressPolicy};
pub use mcp::{
    BREAKER_COOLDOWN, BREAKER_THRESHOLD, CallMeta, IDEMPOTENCY_KEY_META, McpConnector, McpError,
    McpLimits, RmcpConnector, install_crypto_provider,
};
pub use resolve::{
    CacheTtls, Connector, DeclaredTool, GENERATION_KEY, LOCAL_RECHECK, ResolvedTools, ToolRequest,
    ToolResolver, ToolRoute, ToolsError, is_connection_id, local_hits, matches_pattern,
    selection_cache_key, tool_digest,
};
pub use spec::{Availability, ToolInputSpec, ToolSource, ToolSpec, schema_problems};
