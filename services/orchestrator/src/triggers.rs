//! The skills' schedule triggers (`adas_skill::trigger`), run by every
//! orchestrator replica: each second, for each enabled trigger of each
//! tenant's skills, the current period is claimed in the store (set once:
//! the first replica wins, every other sees it taken), and the winner starts
//! one job with the trigger's prompt as its goal — if fewer than
//! `concurrency` of the trigger's jobs are active (they hold slots of the
//! trigger's own active-job set, given back when they end). A period nobody
//! claimed in time is never run late.
//!
//! A trigger's jobs are bounded beyond its own concurrency: a skill's
//! triggers start at most `--trigger-jobs-per-minute` and
//! `--trigger-jobs-per-day` jobs, a tenant's at most
//! `--trigger-tenant-jobs-per-minute` (counted in the store, across
//! replicas); a period over a limit is skipped. A trigger's job is a job
//! like any other: every call is gated, and a call that needs an approver
//! or the owner's yes waits — no key can be a trigger's owner, so an
//! `approver: user` confirmation never comes.

use std::sync::Arc;
use std::time::Duration;

use adas_catalog::Catalog;
use adas_jobs::{JobLimits, JobRecord, JobRepo};
use adas_runtime::TriggerLimits;
use adas_skill::OperationalSkill;
use tracing::{info, warn};

/// How often the current period of every trigger is checked.
const TICK: Duration = Duration::from_secs(1);
/// How often the skills are read again for their triggers — and how long
/// after a replica starts it first reads them (a start does no skill reads:
/// its runtime's threads are the configured ones, and its triggers start
/// within this much of it).
const RESCAN: Duration = Duration::from_secs(5);

/// The principal a trigger's jobs run as: no key can name it.
pub fn owner(slag: &str, id: &str) -> String {
    format!("trigger:{slag}/{id}")
}

/// The skills with enabled triggers, of every tenant.
fn scan(catalog: &Arc<Catalog>) -> Vec<(String, Arc<OperationalSkill>)> {
    let mut found = Vec::new();
    for tenant in catalog.tenant_names() {
        let Ok(tenant_catalog) = catalog.for_tenant(&tenant) else {
            continue;
        };
        for slag in tenant_catalog.list().unwrap_or_default() {
            if let Ok(skill) = tenant_catalog.get(&slag)
                && skill.skill.triggers.iter().any(|t| t.is_enabled())
            {
                found.push((tenant.clone(), skill));
            }
        }
    }
    found
}

/// Runs the triggers until `stop` fires.
pub async fn run(
    repo: JobRepo,
    catalog: Arc<Catalog>,
    limits: (u64, TriggerLimits),
    mut stop: tokio::sync::watch::Receiver<bool>,
) {
    let mut skills = Vec::new();
    let mut scanned = tokio::time::Instant::now();
    loop {
        if scanned.elapsed() >= RESCAN {
            let catalog = catalog.clone();
            skills = tokio::task::spawn_blocking(move || scan(&catalog))
                .await
                .unwrap_or_default();
            scanned = tokio::time::Instant::now();
        }
        for (tenant, skill) in &skills {
            for trigger in skill.skill.triggers.iter().filter(|t| t.is_enabled()) {
                if let Err(error) = fire(&repo, (tenant, skill), trigger, limits).await {
                    warn!(%error, tenant, skill = %skill.slag, trigger = %trigger.id, "a trigger could not run");
                }
            }
        }
        tokio::select! {
            _ = stop.wait_for(|stopped| *stopped) => return,
            () = tokio::time::sleep(TICK) => {}
        }
    }
}

/// Claims the trigger's current period and, when this replica won it and
/// the trigger has room, starts its job. `Ok(None)`: nothing to start.
pub async fn fire(
    repo: &JobRepo,
    (tenant, skill): (&str, &OperationalSkill),
    trigger: &adas_skill::trigger::Trigger,
    (tenant_limit, rates): (u64, TriggerLimits),
) -> Result<Option<String>, adas_jobs::JobError> {
    let Some(period_ms) = trigger.period_ms() else {
        return Ok(None);
    };
    let (period, next) = adas_skill::trigger::period(adas_state::now_ms(), period_ms);
    let job_id = adas_jobs::new_job_id();
    let key = format!("trigger:{tenant}:{}:{period}", trigger.id);
    // Kept two periods: long enough that no replica can claim it again.
    let keep = Duration::from_millis(period_ms.saturating_mul(2));
    if repo
        .store()
        .remember(&skill.slag, &key, &job_id, keep)
        .await?
        .is_some()
    {
        return Ok(None);
    }
    if let Some(over) = over_rate(repo, (tenant, &skill.slag), rates).await? {
        warn!(tenant, skill = %skill.slag, trigger = %trigger.id, period, over, "trigger skipped a period: over its rate");
        metrics::counter!("adas_trigger_periods_skipped_total", "reason" => "rate").increment(1);
        return Ok(None);
    }
    let owner = owner(&skill.slag, &trigger.id);
    let limits = JobLimits {
        per_principal: u64::from(trigger.concurrency()),
        per_tenant: tenant_limit,
    };
    if let Err(scope) = repo
        .claim_job_slots((tenant, &owner), (&skill.slag, &job_id), limits)
        .await?
    {
        info!(tenant, skill = %skill.slag, trigger = %trigger.id, period, scope, "trigger skipped a period: its jobs are at their limit");
        return Ok(None);
    }
    let mut record = JobRecord::queued(
        job_id.clone(),
        skill,
        trigger.prompt.clone(),
        (tenant, &owner),
    );
    record.holds_quota = true;
    // The period it ran for, for people and audits.
    record.context.insert(
        "trigger".into(),
        serde_json::json!({"id": trigger.id, "period": period, "next_run_ms": next}),
    );
    if let Err(error) = repo.create(&record, true).await {
        let _ = repo.release_job_slots(&record).await;
        return Err(error);
    }
    info!(tenant, skill = %skill.slag, trigger = %trigger.id, period, job_id, "trigger started a job");
    Ok(Some(job_id))
}

/// Which limit one more trigger job of `slag` would pass, if any: each is
/// counted in the store (a count that is over stays counted: a skill kept
/// over its limit stays skipped until its window ends).
async fn over_rate(
    repo: &JobRepo,
    (tenant, slag): (&str, &str),
    limits: TriggerLimits,
) -> Result<Option<&'static str>, adas_jobs::JobError> {
    const MINUTE: Duration = Duration::from_secs(60);
    const DAY: Duration = Duration::from_secs(24 * 3600);
    let store = repo.store();
    for (key, window, limit, name) in [
        (
            format!("trigger-rate:{tenant}"),
            MINUTE,
            limits.per_skill_minute,
            "jobs per minute of the skill",
        ),
        (
            format!("trigger-day:{tenant}"),
            DAY,
            limits.per_skill_day,
            "jobs per day of the skill",
        ),
    ] {
        if store.count(slag, &key, window).await? > limit {
            return Ok(Some(name));
        }
    }
    // The tenant's count: a key of its own (no skill's key is `trigger-tenant-rate:`).
    let tenant_key = format!("trigger-tenant-rate:{tenant}");
    if store.count(TENANT_COUNTS, &tenant_key, MINUTE).await? > limits.per_tenant_minute {
        return Ok(Some("jobs per minute of the tenant"));
    }
    Ok(None)
}

/// The store scope of tenant-wide trigger counts.
const TENANT_COUNTS: &str = "adas-triggers";
