//! A tenant's solutions in the deployment's document store (`solutions/<tenant>`):
//! every replica serves the same.

use adas_skill::Format;
use adas_skill::solution::{StoredSolution, load};
use adas_state::{DocExpect, DocRead, DocStore, StateError};

fn scope(tenant: &str) -> String {
    format!("solutions/{tenant}")
}

/// A tenant's solutions in the deployment's document store (every process
/// sees the same; the embedded store keeps them for the process' life).
pub async fn get(
    docs: &dyn DocStore,
    tenant: &str,
    id: &str,
) -> Result<Option<StoredSolution>, StateError> {
    let read = docs.doc_get(&scope(tenant), id, None).await?;
    let DocRead::Current { etag, body } = read else {
        return Ok(None);
    };
    let source = String::from_utf8_lossy(&body).into_owned();
    // Stored only after it validated; a document that no longer loads is
    // treated as absent rather than half used.
    Ok(load(&source, Format::detect(None, &source))
        .solution
        .map(|solution| StoredSolution {
            source,
            etag,
            solution,
        }))
}

/// Stores a validated solution under its id when the stored one still has
/// `etag` (empty: whatever is stored); false when it did not.
pub async fn put(
    docs: &dyn DocStore,
    tenant: &str,
    id: &str,
    source: &str,
    etag: &str,
) -> Result<bool, StateError> {
    let expect = if etag.is_empty() {
        DocExpect::Any
    } else {
        DocExpect::Etag(etag)
    };
    docs.doc_put(
        &scope(tenant),
        id,
        &adas_skill::etag_of(source),
        source.as_bytes(),
        expect,
    )
    .await
}

/// Ids of a tenant's solutions, sorted.
pub async fn list(docs: &dyn DocStore, tenant: &str) -> Result<Vec<String>, StateError> {
    docs.doc_list(&scope(tenant)).await
}

/// Removes a solution; false when absent (or its etag is not `etag`).
pub async fn delete(
    docs: &dyn DocStore,
    tenant: &str,
    id: &str,
    etag: &str,
) -> Result<bool, StateError> {
    let expect = if etag.is_empty() {
        DocExpect::Any
    } else {
        DocExpect::Etag(etag)
    };
    docs.doc_delete(&scope(tenant), id, expect).await
}
