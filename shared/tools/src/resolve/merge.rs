//! How a resolution is put together: its fingerprint for the local copy, the
//! declared tools a server lacks or does not serve, inputs merged into the
//! server schema, allow/block patterns, and the cache counters.

use super::*;

/// A request's identity for the in-process tier: everything a resolution
/// depends on besides the store. Keyed per process, so no skill can be
/// written ahead of time to share another's key.
pub(super) fn fingerprint(request: &ToolRequest) -> u64 {
    use std::hash::BuildHasher;
    static KEYS: std::sync::LazyLock<std::hash::RandomState> =
        std::sync::LazyLock::new(std::hash::RandomState::new);
    KEYS.hash_one(request)
}

pub(super) fn count_local_hit() {
    LOCAL_HITS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    count_cache("process", "hit");
}

/// `adas_tool_cache_total{tier,result}`: the in-process copy (`process`) and
/// the store's MCP tool lists (`store`), hit or miss.
pub(super) fn count_cache(tier: &'static str, result: &'static str) {
    metrics::counter!("adas_tool_cache_total", "tier" => tier, "result" => result).increment(1);
}

/// Resolutions this process served from its own copy (no store round trip).
pub fn local_hits() -> u64 {
    LOCAL_HITS.load(std::sync::atomic::Ordering::Relaxed)
}

/// `*` matches everything, `prefix*` a prefix, anything else exactly.
pub fn matches_pattern(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => pattern == name,
    }
}

/// A skill calls only what it declares: a server tool it does not declare is
/// listed (so people see what the server offers) but never available, and a
/// declared `allowed: never` tool neither. Marked after the pins are taken,
/// so declaring a tool later does not make it "new on the server".
pub(super) fn mark_undeclared(request: &ToolRequest, resolved: &mut ResolvedTools) {
    use crate::spec::Availability;
    for tool in &mut resolved.tools {
        let declared = request
            .declared
            .iter()
            .find(|declared| declared.name == tool.name);
        let (availability, reason) = match declared {
            None if matches!(tool.source, ToolSource::Mcp { .. }) => (
                Availability::Undeclared,
                format!(
                    "`{}` is offered by the skill's MCP server but not declared by the skill: it is never called",
                    tool.name
                ),
            ),
            Some(declared) if declared.never => (
                Availability::NeverAllowed,
                format!("`{}` is never allowed by the skill's policy", tool.name),
            ),
            Some(DeclaredTool {
                held: Some(why), ..
            }) => (Availability::Held, why.clone()),
            // Callable, but each call waits for an approver: said so, never
            // shown as plainly available.
            Some(declared) if declared.approval && tool.available => {
                tool.availability = Availability::NeedsApproval;
                continue;
            }
            _ => continue,
        };
        tool.available = false;
        tool.availability = availability;
        tool.unavailable_reason = Some(reason);
    }
}

/// A routed tool that cannot be called, with why.
pub(super) fn unserved(
    route: &ToolRoute,
    declared: Option<&DeclaredTool>,
    source: ToolSource,
    reason: String,
) -> ToolSpec {
    ToolSpec {
        name: route.tool.clone(),
        description: declared
            .map(|tool| tool.description.clone())
            .unwrap_or_default(),
        inputs: declared.map(|tool| tool.inputs.clone()).unwrap_or_default(),
        input_schema: serde_json::Value::Null,
        source,
        available: false,
        unavailable_reason: Some(format!("`{}` is unavailable: {reason}", route.tool)),
        availability: crate::spec::Availability::NotServed,
        read_only_hint: None,
        remote_name: Some(route.remote.clone()),
    }
}

/// Declared inputs the server's schema lacks are added; an input is required if
/// either side requires it.
pub(super) fn merge_inputs(tool: &mut ToolSpec, declared: &[ToolInputSpec]) {
    for input in declared {
        match tool
            .inputs
            .iter_mut()
            .find(|existing| existing.name == input.name)
        {
            Some(existing) => {
                existing.required |= input.required;
                if existing.allowed.is_empty() {
                    existing.allowed = input.allowed.clone();
                }
                if existing.description.is_empty() {
                    existing.description = input.description.clone();
                }
            }
            None => tool.inputs.push(input.clone()),
        }
    }
    tool.inputs.sort_by(|a, b| {
        b.required
            .cmp(&a.required)
            .then_with(|| a.name.cmp(&b.name))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> ToolRequest {
        ToolRequest {
            mcp_server: Some("http://127.0.0.1:1/mcp".into()),
            tenant: "acme".into(),
            declared: vec![DeclaredTool {
                name: "process_refund".into(),
                description: "Refund".into(),
                inputs: vec![crate::spec::ToolInputSpec {
                    name: "amount".into(),
                    kind: "number".into(),
                    required: true,
                    description: String::new(),
                    allowed: vec![serde_json::json!(10)],
                }],
                never: false,
                approval: false,
                held: None,
            }],
            pin_scope: Some("acme/refunds".into()),
            ..ToolRequest::default()
        }
    }

    #[test]
    fn the_local_key_covers_every_part_of_a_request() {
        let key = fingerprint(&request());
        assert_eq!(key, fingerprint(&request()));
        let changes: [fn(&mut ToolRequest); 5] = [
            |r| r.tenant = "other".into(),
            |r| r.pin_scope = None,
            |r| r.declared[0].inputs[0].allowed = vec![serde_json::json!(11)],
            |r| r.declared[0].approval = true,
            |r| r.blocked = vec!["process_refund".into()],
        ];
        for change in changes {
            let mut changed = request();
            change(&mut changed);
            assert_ne!(fingerprint(&changed), key, "{changed:?}");
        }
    }
}
