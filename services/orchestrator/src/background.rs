//! What runs beside the service: the workers, the sweeper (expired asks,
//! retention), the schedule runner and the store-wide gauges of the metrics
//! page.

use super::*;

/// How often waiting jobs are checked against their skill's wait timeout.
pub const EXPIRY_SWEEP_INTERVAL: Duration = Duration::from_secs(1);

/// Starts this process' workers — one claimer advancing up to
/// `config.workers` jobs at once — and the ask-expiry sweeper, until `stop`
/// fires. With `--step-engine remote` steps go to the peers at `intent`, `dal`
/// and `gate` (`http://host:port`); by default they are decided in-process.
pub fn spawn_workers(
    config: &adas_runtime::ServerConfig,
    repo: JobRepo,
    catalog: Arc<Catalog>,
    peers: (&str, &str, &str),
    mcp: adas_tools::RmcpConnector,
    stop: tokio::sync::watch::Receiver<bool>,
) -> Result<Vec<tokio::task::JoinHandle<()>>, adas_runtime::RuntimeError> {
    use adas_proto::pb::{
        dal_agent_service_client::DalAgentServiceClient, gate_service_client::GateServiceClient,
        intent_service_client::IntentServiceClient,
    };
    let mcp: Arc<dyn adas_tools::McpConnector> = Arc::new(mcp);
    // The same tool cache as the registry's: a call runs only on a tool whose
    // definition is the accepted one.
    let tools = Arc::new(adas_boot::tool_resolver(
        config,
        repo.store().clone(),
        mcp.clone(),
    )?);
    let engine: Arc<dyn adas_engine::Engine> = match config.step_engine {
        adas_runtime::StepEngine::Local => Arc::new(adas_engine::Local::new(
            adas_engine::dal::DalAgent::new(repo.clone(), catalog.clone(), tools.clone()),
            adas_boot::models(config)?,
        )),
        adas_runtime::StepEngine::Remote => {
            let max = config.max_message_bytes;
            let credentials = config.peer_credentials()?;
            let connect = |addr| adas_runtime::connect_peer(addr, &credentials);
            Arc::new(adas_engine::Remote {
                intent: IntentServiceClient::new(connect(peers.0)?)
                    .accept_compressed(tonic::codec::CompressionEncoding::Gzip)
                    .max_decoding_message_size(max),
                dal: DalAgentServiceClient::new(connect(peers.1)?)
                    .accept_compressed(tonic::codec::CompressionEncoding::Gzip)
                    .max_decoding_message_size(max),
                gate: GateServiceClient::new(connect(peers.2)?)
                    .accept_compressed(tonic::codec::CompressionEncoding::Gzip)
                    .max_decoding_message_size(max),
                repo: repo.clone(),
            })
        }
    };
    // One sweeper per process ends asks older than their skill's wait
    // timeout, packs jobs that have waited long and, less often, deletes
    // finished jobs past the retention.
    let sweeper = {
        let (repo, catalog, mut stop) = (repo.clone(), catalog.clone(), stop.clone());
        let retention = config.job_retention;
        let mut parks = Parks::new(config.park_after);
        tokio::spawn(async move {
            let mut retained_at = tokio::time::Instant::now();
            loop {
                tokio::select! {
                    _ = stop.wait_for(|stopped| *stopped) => return,
                    () = tokio::time::sleep(EXPIRY_SWEEP_INTERVAL) => {}
                }
                let expired = adas_engine::dal::sweep_expired(&repo, &catalog).await;
                if expired > 0 {
                    tracing::info!(expired, "ended jobs whose ask expired");
                }
                parks.sweep(repo.store().as_ref()).await;
                if let Some(retention) = retention
                    && retained_at.elapsed() >= retention_sweep_interval(retention)
                {
                    retained_at = tokio::time::Instant::now();
                    sweep_retention(&repo, &catalog, retention).await;
                }
            }
        })
    };
    {
        let (repo, catalog) = (repo.clone(), catalog.clone());
        adas_runtime::metrics::on_scrape(move || store_gauges(repo.clone(), catalog.clone()));
    }
    // Every replica runs the skills' schedule triggers; the store decides
    // which one starts each period's job.
    let scheduler = tokio::spawn(triggers::run(
        repo.clone(),
        catalog.clone(),
        (config.max_active_jobs_per_tenant, config.trigger_limits),
        stop.clone(),
    ));
    let focus = Arc::new(adas_jobs::focus::FocusCache::new(
        repo.store().clone(),
        adas_jobs::focus::FocusLimits {
            max_bytes: config.focus_cache_max_bytes,
            max_entries: config.focus_cache_max_entries,
        },
    ));
    let worker = worker::Worker {
        repo,
        catalog,
        effects: adas_engine::Performer {
            engine,
            mcp,
            tools,
            focus,
        },
        consumer: format!("orchestrator-{}", std::process::id()),
        visibility_timeout: config.visibility_timeout,
        acks: Arc::default(),
    };
    let mut stop = stop.clone();
    let pool = tokio::spawn(worker.run(config.workers.max(1), async move {
        let _ = stop.wait_for(|stopped| *stopped).await;
    }));
    Ok(vec![sweeper, scheduler, pool])
}

/// Jobs of a partition packed per park sweep (the rest go next time).
const PARK_BATCH: usize = 200;

/// Park sweeps between two that read every partition (jobs other
/// processes paused, or this one before a restart).
const PARK_EVERY_PARTITION: u32 = 20;

/// The park sweep's pace: about every half of `park_after` (between 1 s and
/// 30 s), every partition on the first and every
/// [`PARK_EVERY_PARTITION`]th, else those this process paused jobs in.
struct Parks {
    after: Duration,
    every: Duration,
    next: tokio::time::Instant,
    sweeps: u32,
}

impl Parks {
    fn new(after: Duration) -> Self {
        Self {
            after,
            every: (after / 2).clamp(Duration::from_secs(1), Duration::from_secs(30)),
            next: tokio::time::Instant::now(),
            sweeps: 0,
        }
    }

    async fn sweep(&mut self, store: &dyn adas_state::StateStore) {
        if tokio::time::Instant::now() < self.next {
            return;
        }
        self.next = tokio::time::Instant::now() + self.every;
        let every_partition = self.sweeps.is_multiple_of(PARK_EVERY_PARTITION);
        self.sweeps = self.sweeps.wrapping_add(1);
        let before_ms = adas_state::now_ms().saturating_sub(self.after.as_millis() as u64);
        match store
            .park_waiting(before_ms, PARK_BATCH, every_partition)
            .await
        {
            Ok(0) => {}
            Ok(parked) => tracing::debug!(parked, "packed jobs that have waited long"),
            Err(error) => tracing::warn!(%error, "could not pack waiting jobs"),
        }
    }
}

/// How often finished jobs past `retention` are looked for: half the
/// retention, between 1 s and 1 min.
fn retention_sweep_interval(retention: Duration) -> Duration {
    (retention / 2).clamp(Duration::from_secs(1), Duration::from_secs(60))
}

/// Finished jobs per status and slag deleted per sweep (the rest go next time).
const RETENTION_BATCH: usize = 500;

/// Deletes every catalog slag's finished jobs created more than `retention`
/// ago, and this process' archive files as old.
async fn sweep_retention(
    repo: &adas_jobs::JobRepo,
    catalog: &Arc<adas_catalog::Catalog>,
    retention: Duration,
) {
    let before_ms = adas_state::now_ms().saturating_sub(retention.as_millis() as u64);
    let slags = catalog_slags(catalog).await;
    let mut removed = 0;
    for slag in slags {
        removed += repo.sweep_finished(&slag, before_ms, RETENTION_BATCH).await;
    }
    let archives = repo.prune_archives(retention).await;
    if removed + archives > 0 {
        tracing::info!(
            removed,
            archives,
            "deleted finished jobs past the retention"
        );
    }
}

/// Every tenant's slags.
async fn catalog_slags(catalog: &Arc<adas_catalog::Catalog>) -> std::collections::BTreeSet<String> {
    crate::listing::slags_of(catalog, None).await
}

/// Paused jobs looked at per slag for the waiting gauges of one scrape.
const SCRAPE_WAITING_LIMIT: usize = 1000;

/// The store's view for the metrics page, read at each scrape (so every
/// replica shows the same): `adas_queue_depth{state}`, paused jobs by
/// tenant, skill and reason (`adas_jobs_waiting{tenant,skill,reason}`) and
/// `adas_approvals_pending{tenant,skill}`.
async fn store_gauges(repo: adas_jobs::JobRepo, catalog: Arc<adas_catalog::Catalog>) {
    if let Ok(stats) = repo.store().queue_stats().await {
        metrics::gauge!("adas_queue_depth", "state" => "ready").set(stats.ready as f64);
        metrics::gauge!("adas_queue_depth", "state" => "pending").set(stats.pending as f64);
    }
    // Counted per tenant and skill ("which tenant's approvals wait"); a pair
    // shown once stays on the page at 0 when nothing of it waits any more.
    type Counts =
        std::collections::HashMap<(String, String), std::collections::HashMap<PauseReason, u64>>;
    static SHOWN: std::sync::LazyLock<
        std::sync::Mutex<std::collections::BTreeSet<(String, String)>>,
    > = std::sync::LazyLock::new(Default::default);
    let mut counts: Counts = Default::default();
    for slag in catalog_slags(&catalog).await {
        let page = adas_state::PageRequest {
            offset: 0,
            limit: SCRAPE_WAITING_LIMIT,
        };
        let Ok(waiting) = repo.store().list_waiting(&slag, page).await else {
            continue;
        };
        let ids: Vec<String> = waiting
            .items
            .into_iter()
            .map(|entry| entry.job_id)
            .collect();
        if ids.is_empty() {
            continue;
        }
        for job in repo
            .load_many(&slag, &ids)
            .await
            .unwrap_or_default()
            .into_iter()
            .flatten()
        {
            if let Some(waiting) = &job.record.waiting {
                let labels = adas_jobs::job_labels(&job.record.tenant, &job.record.slag);
                *counts
                    .entry(labels)
                    .or_default()
                    .entry(waiting.reason_code)
                    .or_default() += 1;
            }
        }
    }
    let mut shown = SHOWN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    shown.extend(counts.keys().cloned());
    for (tenant, skill) in shown.iter() {
        let of = counts.get(&(tenant.clone(), skill.clone()));
        let count = |reason: PauseReason| {
            of.and_then(|by_reason| by_reason.get(&reason))
                .copied()
                .unwrap_or(0) as f64
        };
        metrics::gauge!("adas_approvals_pending", "tenant" => tenant.clone(), "skill" => skill.clone())
            .set(count(PauseReason::ApprovalRequired));
        for reason in PauseReason::ALL {
            metrics::gauge!(
                "adas_jobs_waiting",
                "tenant" => tenant.clone(),
                "skill" => skill.clone(),
                "reason" => reason.as_str()
            )
            .set(count(reason));
        }
    }
}
