//! Connectors: a tenant's named MCP servers (the `connectors[]` a skill's
//! tool sources name), stored and indexed per tenant, and the connection a
//! tool routes to.

use super::*;

/// Cache key of a tenant's connector (kept like pins: operator state).
pub(super) fn connector_key(tenant: &str, id: &str) -> String {
    format!("tools:connector:{tenant}/{id}")
}

/// Cache key of the list of a tenant's connector ids (for listing only:
/// resolution reads each connector's own key).
pub(super) fn connector_index_key(tenant: &str) -> String {
    format!("tools:connectors:{tenant}")
}

/// A connection id mapped to an MCP server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Connector {
    /// The connection id skills name (`gcal-mcp`).
    pub id: String,
    /// The server's URI.
    pub url: String,
    /// Set for every tenant by the deployment (`--connector`), not by a put.
    pub deployment: bool,
}

/// A connection id: what a skill may name and a key may hold.
pub fn is_connection_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

impl ToolResolver {
    /// The server `tenant`'s connection `id` runs on, if mapped.
    pub async fn connection(
        &self,
        tenant: &str,
        id: &str,
    ) -> Result<Option<Connector>, ToolsError> {
        if let Some(entry) = self.cache.cache_get(&connector_key(tenant, id)).await?
            && let Ok(url) = String::from_utf8(entry.value)
        {
            return Ok(Some(Connector {
                id: id.to_owned(),
                url,
                deployment: false,
            }));
        }
        Ok(self.connectors.get(id).map(|url| Connector {
            id: id.to_owned(),
            url: url.clone(),
            deployment: true,
        }))
    }

    /// Every connector `tenant` sees: its own, then the deployment's it does
    /// not override, by id.
    pub async fn connectors(&self, tenant: &str) -> Result<Vec<Connector>, ToolsError> {
        let ids: Vec<String> = self
            .cache
            .cache_get(&connector_index_key(tenant))
            .await?
            .and_then(|entry| serde_json::from_slice(&entry.value).ok())
            .unwrap_or_default();
        let mut all = BTreeMap::new();
        for id in ids.iter().chain(self.connectors.keys()) {
            if !all.contains_key(id)
                && let Some(connector) = self.connection(tenant, id).await?
            {
                all.insert(id.clone(), connector);
            }
        }
        Ok(all.into_values().collect())
    }

    /// Maps `tenant`'s connection `id` to `url` (the caller checked the URL
    /// against the egress policy); every resolution sees it at once.
    pub async fn put_connector(&self, tenant: &str, id: &str, url: &str) -> Result<(), ToolsError> {
        self.cache
            .cache_put(
                &connector_key(tenant, id),
                url.as_bytes(),
                PINS_KEEP,
                PINS_KEEP,
            )
            .await?;
        self.index_connector(tenant, id, true).await?;
        self.bump_generation().await
    }

    /// Removes `tenant`'s mapping of `id` (a deployment mapping stays);
    /// whether there was one.
    pub async fn delete_connector(&self, tenant: &str, id: &str) -> Result<bool, ToolsError> {
        let removed = self
            .cache
            .cache_invalidate(&connector_key(tenant, id))
            .await?;
        self.index_connector(tenant, id, false).await?;
        self.bump_generation().await?;
        Ok(removed)
    }

    pub(super) async fn index_connector(
        &self,
        tenant: &str,
        id: &str,
        present: bool,
    ) -> Result<(), ToolsError> {
        let key = connector_index_key(tenant);
        let mut ids: Vec<String> = self
            .cache
            .cache_get(&key)
            .await?
            .and_then(|entry| serde_json::from_slice(&entry.value).ok())
            .unwrap_or_default();
        ids.retain(|known| known != id);
        if present {
            ids.push(id.to_owned());
            ids.sort();
        }
        let value = serde_json::to_vec(&ids).expect("ids serialize");
        self.cache
            .cache_put(&key, &value, PINS_KEEP, PINS_KEEP)
            .await?;
        Ok(())
    }
}
