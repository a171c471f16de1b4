//! The Skill Builder's shapes taken as written. An export is run unchanged:
//! where it names its tool server as `mcp://…` or routes a tool through a
//! connection it does not list, the skill is loaded with its tools on a
//! connection of the tenant — unavailable until an operator maps it, with a
//! warning naming the fix — never refused, never guessed onto a host.

use crate::model::{Skill, ToolSourceRef};

/// What taking a Builder shape changed: `(path, message)` for a warning each.
pub(crate) fn take_as_written(skill: &mut Skill) -> Vec<(String, String)> {
    let mut notes = Vec::new();
    if let Some(name) = skill.mcp_server.as_deref().and_then(connection_named) {
        notes.push((
            "mcp_server".to_owned(),
            format!(
                "`{}` names the connection `{name}`: its tools run on the server this tenant maps it to (`adas connector put {name} --url http://HOST:PORT/PATH`, or `adas up --connector {name}=URL`), and are unavailable until then",
                skill.mcp_server.as_deref().unwrap_or_default()
            ),
        ));
        skill.mcp_server = None;
        if !skill.connectors.contains(&name) {
            skill.connectors.push(name.clone());
        }
        for tool in &mut skill.tools {
            if tool.source.is_none() && !tool.name.starts_with("sys.") {
                tool.source = Some(ToolSourceRef {
                    kind: Some("mcp_bridge".to_owned()),
                    connection_id: Some(name.clone()),
                    mcp_tool: Some(tool.name.clone()),
                });
            }
        }
    }
    for (index, tool) in skill.tools.iter().enumerate() {
        let Some(connection) = tool
            .source
            .as_ref()
            .and_then(|source| source.connection_id.as_deref())
            .map(str::trim)
            .filter(|connection| !connection.is_empty())
        else {
            continue;
        };
        if !skill.connectors.iter().any(|listed| listed == connection) {
            notes.push((
                format!("tools[{index}].source.connection_id"),
                format!(
                    "connection `{connection}` is not in the skill's `connectors`: taken as a connection of the tenant (list it in `connectors` to say so; map it with `adas connector put {connection} --url …`)"
                ),
            ));
            skill.connectors.push(connection.to_owned());
        }
    }
    notes
}

/// The connection an `mcp://` address names: its last path segment, else
/// its host (`mcp://localhost:3100/sw-developer-tools` → `sw-developer-tools`,
/// `mcp://gcal-mcp` → `gcal-mcp`); `None` for any other address.
fn connection_named(server: &str) -> Option<String> {
    let rest = server.trim().strip_prefix("mcp://")?;
    let rest = rest.split(['?', '#']).next().unwrap_or_default();
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    // A host alone: the port is where the Builder ran, not a name.
    let name = path
        .rsplit('/')
        .find(|segment| !segment.is_empty())
        .unwrap_or_else(|| authority.split(':').next().unwrap_or_default());
    crate::slag::is_safe_name(name).then(|| name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_mcp_address_names_a_connection() {
        assert_eq!(
            connection_named("mcp://localhost:3100/sw-developer-tools").as_deref(),
            Some("sw-developer-tools")
        );
        assert_eq!(
            connection_named("mcp://gcal-mcp").as_deref(),
            Some("gcal-mcp")
        );
        assert_eq!(
            connection_named("mcp://gcal-mcp:7001/").as_deref(),
            Some("gcal-mcp")
        );
        assert_eq!(connection_named("http://localhost:3100/x"), None);
        // Nothing that is no name is taken for one.
        assert_eq!(connection_named("mcp://"), None);
        assert_eq!(connection_named("mcp://host/Bad Name!"), None);
    }
}
