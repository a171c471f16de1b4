//! Asks that expired: jobs whose ask is older than their skill's
//! `engine.wait_timeout_ms` end EXPIRED.

use std::sync::Arc;

use adas_catalog::Catalog;
use adas_jobs::{JobRepo, StoredJob};

/// Ends jobs whose ask is older than their skill's `engine.wait_timeout_ms` with
/// outcome EXPIRED. Works from the waiting index in the store, so a sweep after a
/// restart finds every job that waited through it. Returns how many ended.
pub async fn sweep_expired(repo: &JobRepo, catalog: &Arc<Catalog>) -> usize {
    // The catalog reads blocking (its files, or the shared store).
    let catalog = catalog.clone();
    let timeouts = tokio::task::spawn_blocking(move || {
        let mut found = Vec::new();
        for tenant in catalog.tenant_names() {
            let Ok(catalog) = catalog.for_tenant(&tenant) else {
                continue;
            };
            for slag in catalog.list().unwrap_or_default() {
                if let Ok(skill) = catalog.get(&slag)
                    && let Some(timeout) = skill.engine.wait_timeout_ms
                {
                    found.push((tenant.clone(), slag, timeout));
                }
            }
        }
        found
    })
    .await
    .unwrap_or_default();
    let mut expired = 0;
    for (tenant, slag, timeout) in timeouts {
        expired += sweep_slag(repo, &tenant, &slag, timeout).await;
    }
    expired
}

async fn sweep_slag(repo: &JobRepo, tenant: &str, slag: &str, timeout: u64) -> usize {
    let mut expired = 0;
    let cutoff = adas_state::now_ms().saturating_sub(timeout);
    let Ok(entries) = repo.store().waiting_before(slag, cutoff, 100).await else {
        return 0;
    };
    for entry in entries {
        let Ok(StoredJob {
            mut record,
            version,
        }) = repo.load(slag, &entry.job_id).await
        else {
            continue;
        };
        // Slags are shared names: another tenant's job is judged by its own skill.
        if record.tenant != tenant {
            continue;
        }
        // An escalated job waits for a human, not for the user's timeout.
        let input = adas_step::machine::Input::AskExpired {
            timeout_ms: timeout,
        };
        let Ok(adas_step::machine::Applied::Write(expired_ask)) =
            adas_step::machine::apply(&mut record, input)
        else {
            continue;
        };
        // A conflict means someone answered just now: the answer wins.
        if repo.save(version, &mut record, *expired_ask).await.is_ok() {
            expired += 1;
        }
    }
    expired
}
