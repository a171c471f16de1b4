//! What every job event also is: one `adas::job` log line and the job
//! counters of the metrics page; and what a write ends, timed: a job's life
//! (`adas_job_duration_seconds`) and a wait for someone
//! (`adas_job_waiting_seconds{tenant,skill,reason}`).

use super::*;

/// A written event, told to operators: one structured log line (job, skill,
/// tenant, trace) and the job metrics.
pub(crate) fn observe(record: &JobRecord, event: &JobEvent) {
    let kind = event.kind;
    let kind_name = codec::event_kind_name(kind);
    let detail = &event.data;
    // A log line is a page too: personal values are masked in it.
    let message = adas_step::mask_personal(&adas_step::personal_values(record), &event.message);
    let trace_id = record.trace_id();
    let tool = detail
        .get("tool")
        .and_then(Json::as_str)
        .unwrap_or_default();
    tracing::info!(
        target: "adas::job",
        job_id = %record.job_id,
        skill = %record.slag,
        tenant = %record.tenant,
        event = kind_name,
        status = record.status.tag(),
        tool,
        trace_id,
        "{message}"
    );
    metrics::counter!("adas_job_events_total", "kind" => kind_name).increment(1);
    let (tenant, skill) = job_labels(&record.tenant, &record.slag);
    match kind {
        EventKind::Created => {
            metrics::counter!("adas_jobs_started_total", "tenant" => tenant, "skill" => skill)
                .increment(1);
        }
        EventKind::Completed | EventKind::Failed | EventKind::Cancelled => {
            let outcome = record.outcome_class.map_or("none", codec::outcome_name);
            metrics::counter!(
                "adas_jobs_finished_total",
                "tenant" => tenant,
                "skill" => skill,
                "status" => record.status.tag(),
                "outcome" => outcome
            )
            .increment(1);
        }
        EventKind::ToolDenied => {
            metrics::counter!(
                "adas_gate_denials_total",
                "tenant" => tenant,
                "skill" => skill,
                "tool" => metric_label(Labelled::Tool, tool)
            )
            .increment(1);
        }
        _ => {}
    }
}

/// What a metric label names beyond fixed words, each a set of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Labelled {
    /// A tenant: the auth file's, a known set.
    Tenant,
    /// A skill's slag: those stored or templated, a known set.
    Skill,
    /// A tool: a skill declares it, but a denial names whatever a model proposed.
    Tool,
}

/// Distinct values a process puts on its metrics per [`Labelled`] set.
const MAX_LABELS: usize = 256;

/// A name as a metric label: the first [`MAX_LABELS`] distinct values of
/// its set this process records, then `other`. Tenants and skills are known
/// sets and tools are declared, but the page stays bounded whatever callers
/// send or a deployment grows to.
pub fn metric_label(set: Labelled, value: &str) -> String {
    type Seen = std::collections::HashMap<Labelled, std::collections::HashSet<String>>;
    static SEEN: std::sync::LazyLock<std::sync::Mutex<Seen>> =
        std::sync::LazyLock::new(Default::default);
    let mut seen = SEEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let values = seen.entry(set).or_default();
    if values.contains(value) {
        return value.to_owned();
    }
    if values.len() < MAX_LABELS {
        values.insert(value.to_owned());
        return value.to_owned();
    }
    "other".to_owned()
}

/// The `tenant` and `skill` labels of a job's metrics, bounded.
pub fn job_labels(tenant: &str, slag: &str) -> (String, String) {
    (
        metric_label(Labelled::Tenant, tenant),
        metric_label(Labelled::Skill, slag),
    )
}

/// What a write may end: the job's life, or its wait.
pub(crate) struct Before {
    ended: bool,
    waiting: Option<(PauseReason, String)>,
}

impl Before {
    /// The record before a transition applies.
    pub(crate) fn of(record: &JobRecord) -> Self {
        Self {
            ended: record.status.is_terminal(),
            waiting: record
                .waiting
                .as_ref()
                .filter(|_| record.status == JobStatus::Paused)
                .map(|waiting| (waiting.reason_code, waiting.created_at.clone())),
        }
    }

    /// Records the job's duration when this write ended it, and the wait
    /// when it left a pause (answered, approved, taken over, expired or
    /// cancelled).
    pub(crate) fn timed(self, record: &JobRecord) {
        let seconds = |from: &str, to: &str| {
            let (from, to) = (parse_rfc3339_ms(from)?, parse_rfc3339_ms(to)?);
            Some(to.saturating_sub(from) as f64 / 1000.0)
        };
        if let Some((reason, since)) = &self.waiting
            && record.status != JobStatus::Paused
            && let Some(waited) = seconds(since, &record.updated_at)
        {
            let (tenant, skill) = job_labels(&record.tenant, &record.slag);
            metrics::histogram!(
                "adas_job_waiting_seconds",
                "tenant" => tenant,
                "skill" => skill,
                "reason" => reason.as_str()
            )
            .record(waited);
        }
        if !self.ended
            && record.status.is_terminal()
            && let Some(lived) = seconds(&record.created_at, &record.updated_at)
        {
            let (tenant, skill) = job_labels(&record.tenant, &record.slag);
            metrics::histogram!(
                "adas_job_duration_seconds",
                "tenant" => tenant,
                "skill" => skill,
                "status" => record.status.tag()
            )
            .record(lived);
        }
    }
}
