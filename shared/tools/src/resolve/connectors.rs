//! Connectors: a tenant's named MCP servers (the `connectors[]` a skill's
//! tool sources name), and the connection a tool routes to.
//!
//! A tenant's connectors are its data, kept like its solutions in the
//! deployment's document store (`connectors/<tenant>`), never in the tool
//! cache's key space: no cache invalidation, by anyone, removes one. A
//! deployment's `--connector` serves an id only for a tenant that has no
//! mapping of its own.

use adas_state::{DocExpect, DocRead};

use super::*;

/// The document scope of a tenant's connectors.
fn scope(tenant: &str) -> String {
    format!("connectors/{tenant}")
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
        if let DocRead::Current { body, .. } = self.docs.doc_get(&scope(tenant), id, None).await?
            && let Ok(url) = String::from_utf8(body)
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
        let ids = self.docs.doc_list(&scope(tenant)).await?;
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
        let etag = adas_dia::digest::sha256_hex(url.as_bytes());
        self.docs
            .doc_put(&scope(tenant), id, &etag, url.as_bytes(), DocExpect::Any)
            .await?;
        self.bump_generation().await
    }

    /// Removes `tenant`'s mapping of `id` (a deployment mapping stays);
    /// whether there was one.
    pub async fn delete_connector(&self, tenant: &str, id: &str) -> Result<bool, ToolsError> {
        let removed = self
            .docs
            .doc_delete(&scope(tenant), id, DocExpect::Any)
            .await?;
        self.bump_generation().await?;
        Ok(removed)
    }
}
