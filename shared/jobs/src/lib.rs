//! adas-jobs: where jobs are kept — the record (`adas-step`'s) stored as
//! protobuf ([`codec`]) in the state store with compare-and-set on its
//! version, its event log, the ready queue, and the archive on disk (JSON,
//! for people).
//!
//! Orchestrator, DalAgent and Gate all write jobs through [`JobRepo`]: its
//! [`JobRepo::save`] of one [`Transition`] is the only way a stored job
//! changes, so every write is a CAS and every transition appends its events.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

mod across;
mod archive;
pub mod codec;
pub use across::Cursor;
pub mod focus;
pub mod memory;
mod observe;
mod page;

use adas_state::{PageRequest, StateError, StateStore, WaitingChange};
use adas_step::Change;
pub use adas_step::{
    AuditEntry, CallRecord, DetectedIntent, Event, EventKind, Evidence, Grant, HandoffNote,
    JobRecord, JobResult, JobStatus, OutcomeClass, PauseReason, PendingApproval, StartedCall,
    Transition, Waiting, WaitingField, grant_digest, idempotency_key, live_grants,
    new_correlation_id, new_job_id, now, parse_rfc3339_ms, prune_grants, rfc3339, same_value,
};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use archive::Archive;
use observe::observe;
pub use observe::{Labelled, job_labels, metric_label};

/// How long a conversation is remembered after its latest turn started.
pub const CONVERSATION_TTL: std::time::Duration = std::time::Duration::from_secs(7 * 24 * 3600);

/// The store key of a conversation's latest turn (tenant-scoped: another
/// tenant's conversation with the same id is another conversation).
fn conversation_key(tenant: &str, slag: &str, conversation: &str) -> String {
    format!("conversation:{tenant}/{slag}/{conversation}")
}

/// Most job ids one `JobRepo::list` call reads while filtering.
pub const MAX_LIST_SCAN: usize = 5_000;

/// A job event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobEvent {
    /// What happened.
    pub kind: EventKind,
    /// Status after it.
    pub status: JobStatus,
    /// Outcome after it.
    pub outcome_class: Option<OutcomeClass>,
    /// Summary.
    pub message: String,
    /// Detail.
    pub data: Json,
    /// When (RFC 3339).
    pub time: String,
    /// Job version after it.
    pub job_version: u64,
    /// Whether the job holds values as personal after it that it did not
    /// before ([`Event::adds_personal`]); a stored event that does not say is
    /// taken to when its kind may ([`EventKind::adds_personal`]).
    #[serde(skip)]
    pub adds_personal: bool,
}

/// A stored job and its version.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredJob {
    /// The record.
    pub record: JobRecord,
    /// Its version.
    pub version: u64,
}

/// Errors of job storage.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// No such job.
    #[error("job {slag}/{job_id} not found")]
    NotFound {
        /// Slag.
        slag: String,
        /// Job id.
        job_id: String,
    },
    /// The record is not a job (corrupt or foreign data).
    #[error("job record is corrupt: {0}")]
    Corrupt(String),
    /// The store failed (including version conflicts).
    #[error(transparent)]
    Store(#[from] StateError),
}

/// What ResolveTools needs from a skill of `tenant`. Accepted tool definitions
/// are kept per tenant, skill and server: another server starts afresh.
pub fn tool_request(skill: &adas_skill::OperationalSkill, tenant: &str) -> adas_tools::ToolRequest {
    let declared = skill
        .skill
        .tools
        .iter()
        .map(|tool| {
            let standing = skill.compiled.standing(&tool.name);
            adas_tools::DeclaredTool {
                name: tool.name.clone(),
                description: tool.description.clone().unwrap_or_default(),
                inputs: tool
                    .inputs
                    .iter()
                    .map(|input| adas_tools::ToolInputSpec {
                        name: input.name.clone(),
                        kind: input
                            .kind
                            .clone()
                            .map(|kind| {
                                if kind == "text" {
                                    "string".to_owned()
                                } else {
                                    kind
                                }
                            })
                            .unwrap_or_else(|| "string".into()),
                        required: input.required,
                        description: input.description.clone().unwrap_or_default(),
                        allowed: input.allowed.clone(),
                    })
                    .collect(),
                never: standing == adas_skill::compile::Standing::Never,
                approval: standing == adas_skill::compile::Standing::NeedsApproval,
                held: skill.compiled.held_why(&tool.name).map(str::to_owned),
            }
        })
        .collect();
    let mcp_server = skill
        .skill
        .mcp_server
        .clone()
        .filter(|uri| !uri.trim().is_empty());
    let routes: Vec<adas_tools::ToolRoute> = skill
        .skill
        .tools
        .iter()
        .filter_map(|tool| {
            let (connection, remote) = adas_skill::access::route(&skill.skill, &tool.name)?;
            Some(adas_tools::ToolRoute {
                tool: tool.name.clone(),
                connection,
                remote,
            })
        })
        .collect();
    // One scope of accepted definitions per skill and tool source: its
    // server, or its connections.
    let pin_scope = match (&mcp_server, routes.is_empty()) {
        (Some(uri), _) => Some(format!("{tenant}/{}@{uri}", skill.slag)),
        (None, false) => Some(format!("{tenant}/{}@connectors", skill.slag)),
        (None, true) => None,
    };
    adas_tools::ToolRequest {
        pin_scope,
        routes,
        tenant: tenant.to_owned(),
        mcp_server,
        declared,
        allowed: skill.compiled.allowed_tools.clone(),
        blocked: skill.compiled.blocked_tools.clone(),
    }
}

/// How many jobs may be active (not ended) at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobLimits {
    /// Per principal.
    pub per_principal: u64,
    /// Per tenant.
    pub per_tenant: u64,
}

/// The active-job sets of a principal and of its tenant.
fn job_slot_sets(tenant: &str, owner: &str) -> [String; 2] {
    [format!("jobs:{tenant}:{owner}"), format!("jobs:{tenant}")]
}

/// A short digest of a request's meaningful content (`request`, built by the
/// caller from sorted maps so equal requests give equal text). A `request_id` is bound to it, so a reused
/// id with another payload is refused instead of answering for the first
/// request (AIP-155).
pub fn request_fingerprint(request: &Json) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(request.to_string().as_bytes());
    focus::hex(&digest[..16])
}

/// Job storage: CAS writes, events, the queue, archives.
#[derive(Clone)]
pub struct JobRepo {
    store: Arc<dyn StateStore>,
    memory_root: PathBuf,
    /// The background archiver (started on the first job that ends).
    archiver: Arc<std::sync::OnceLock<tokio::sync::mpsc::Sender<Archive>>>,
    /// Page token keys read so far (`page.rs`).
    page_keys: page::PageKeys,
}

impl std::fmt::Debug for JobRepo {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("JobRepo")
            .field("memory_root", &self.memory_root)
            .finish_non_exhaustive()
    }
}

impl JobRepo {
    /// A repository over a store, archiving under `memory_root`.
    pub fn new(store: Arc<dyn StateStore>, memory_root: PathBuf) -> Self {
        Self {
            store,
            memory_root,
            archiver: Arc::new(std::sync::OnceLock::new()),
            page_keys: page::PageKeys::default(),
        }
    }

    /// The underlying store.
    pub fn store(&self) -> &Arc<dyn StateStore> {
        &self.store
    }

    /// Claims a slot for a new job of `owner` in its principal's and its
    /// tenant's active-job sets (bounded by `limits`). A full set is first
    /// cleaned of jobs that ended or vanished (a crash between claim and
    /// release leaves such members). `Err(scope)` names the set that is full.
    pub async fn claim_job_slots(
        &self,
        (tenant, owner): (&str, &str),
        (slag, job_id): (&str, &str),
        limits: JobLimits,
    ) -> Result<Result<(), &'static str>, JobError> {
        let member = format!("{slag}/{job_id}");
        let sets = job_slot_sets(tenant, owner);
        for (set, limit, scope) in [
            (&sets[0], limits.per_principal, "principal"),
            (&sets[1], limits.per_tenant, "tenant"),
        ] {
            let mut claimed = self.store.claim_slot(set, &member, limit).await?;
            if !claimed {
                self.prune_slots(set).await?;
                claimed = self.store.claim_slot(set, &member, limit).await?;
            }
            if !claimed {
                // Nothing was started: give back what this call took.
                self.store.release_slot(&sets[0], &member).await?;
                return Ok(Err(scope));
            }
        }
        Ok(Ok(()))
    }

    /// The latest job of a conversation, if the conversation exists.
    pub async fn conversation_turn(
        &self,
        tenant: &str,
        slag: &str,
        conversation: &str,
    ) -> Result<Option<String>, JobError> {
        let entry = self
            .store
            .cache_get(&conversation_key(tenant, slag, conversation))
            .await?;
        Ok(entry.and_then(|entry| String::from_utf8(entry.value).ok()))
    }

    /// Makes `job_id` the latest job of a conversation.
    pub async fn set_conversation_turn(
        &self,
        tenant: &str,
        slag: &str,
        conversation: &str,
        job_id: &str,
    ) -> Result<(), JobError> {
        self.store
            .cache_put(
                &conversation_key(tenant, slag, conversation),
                job_id.as_bytes(),
                CONVERSATION_TTL,
                CONVERSATION_TTL,
            )
            .await?;
        Ok(())
    }

    /// Gives back a job's slots (it ended, or was never created).
    pub async fn release_job_slots(&self, record: &JobRecord) -> Result<(), JobError> {
        self.release_slots(
            (&record.tenant, &record.owner),
            (&record.slag, &record.job_id),
        )
        .await
    }

    /// Gives back the slots of `slag/job_id` in `owner`'s sets (tenant,
    /// principal), the job's record at hand or not.
    pub async fn release_slots(
        &self,
        (tenant, owner): (&str, &str),
        (slag, job_id): (&str, &str),
    ) -> Result<(), JobError> {
        let member = format!("{slag}/{job_id}");
        for set in job_slot_sets(tenant, owner) {
            self.store.release_slot(&set, &member).await?;
        }
        Ok(())
    }

    async fn prune_slots(&self, set: &str) -> Result<(), JobError> {
        for member in self.store.slot_members(set).await? {
            let Some((slag, job_id)) = member.split_once('/') else {
                continue;
            };
            let active = match self.load(slag, job_id).await {
                Ok(stored) => !stored.record.status.is_terminal(),
                Err(JobError::NotFound { .. } | JobError::Corrupt(_)) => false,
                Err(error) => return Err(error),
            };
            if !active {
                self.store.release_slot(set, &member).await?;
            }
        }
        Ok(())
    }

    /// What an earlier request with this idempotency `key` was: `None` when
    /// there was none, else whether it had the same `fingerprint`.
    pub async fn seen_request(
        &self,
        slag: &str,
        key: &str,
        fingerprint: &str,
    ) -> Result<Option<bool>, JobError> {
        Ok(self
            .store
            .recall(slag, &format!("request:{key}"))
            .await?
            .map(|first| first == fingerprint))
    }

    /// Remembers that the request with idempotency `key` succeeded (30 days).
    pub async fn remember_request(
        &self,
        slag: &str,
        key: &str,
        fingerprint: &str,
    ) -> Result<(), JobError> {
        self.store
            .remember(
                slag,
                &format!("request:{key}"),
                fingerprint,
                std::time::Duration::from_secs(30 * 24 * 3600),
            )
            .await?;
        Ok(())
    }

    /// Stores a new job (version 1) and its `created` event and, when
    /// `enqueue`, queues it — one atomic write.
    pub async fn create(&self, record: &JobRecord, enqueue: bool) -> Result<StoredJob, JobError> {
        let data = codec::encode_record(record)?;
        let created = job_event(record, 1, &Event::Created);
        let event = codec::encode_event(&created);
        let job = adas_state::NewJob {
            data: &data,
            created_ms: adas_state::now_ms(),
            status: record.status.tag(),
            event: Some(&event),
            enqueue,
        };
        let version = self
            .store
            .create_job(&record.slag, &record.job_id, job)
            .await?;
        observe(record, &created);
        Ok(StoredJob {
            record: record.clone(),
            version,
        })
    }

    /// Loads a job.
    pub async fn load(&self, slag: &str, job_id: &str) -> Result<StoredJob, JobError> {
        let stored = self
            .store
            .get_job(slag, job_id)
            .await?
            .ok_or_else(|| JobError::NotFound {
                slag: slag.to_owned(),
                job_id: job_id.to_owned(),
            })?;
        Self::decode(stored)
    }

    /// A job from its stored bytes (a load, or a queue delivery's copy).
    pub fn decode(stored: adas_state::VersionedRecord) -> Result<StoredJob, JobError> {
        Ok(StoredJob {
            record: codec::decode_record(&stored.data)?,
            version: stored.version,
        })
    }

    /// Loads several jobs of a slag in one round trip, in order; `None` for a
    /// job that is gone or unreadable (logged).
    pub async fn load_many(
        &self,
        slag: &str,
        job_ids: &[String],
    ) -> Result<Vec<Option<StoredJob>>, JobError> {
        let records = self.store.get_jobs(slag, job_ids).await?;
        Ok(job_ids
            .iter()
            .zip(records)
            .map(|(job_id, stored)| {
                let stored = stored?;
                match codec::decode_record(&stored.data) {
                    Ok(record) => Some(StoredJob {
                        record,
                        version: stored.version,
                    }),
                    Err(reason) => {
                        tracing::error!(%slag, %job_id, %reason, "skipping an unreadable job record");
                        None
                    }
                }
            })
            .collect())
    }

    /// Writes `transition` if the job is still at `expected`: applies its
    /// change to `record`, writes the record, the waiting index in step with
    /// it, the events held on the record and the transition's, in order, and
    /// (when it requeues) the job's entry in the queue's resumed lane — one
    /// atomic write. Archives a job that just ended. The version after.
    pub async fn save(
        &self,
        expected: u64,
        record: &mut JobRecord,
        transition: Transition,
    ) -> Result<u64, JobError> {
        self.save_on(expected, record, transition, None).await
    }

    /// [`Self::save`], only while the skill's policy is still the version
    /// `policy` names (a call's start after the gate): else
    /// `StateError::PolicyChanged`, and nothing is written.
    pub async fn save_on(
        &self,
        expected: u64,
        record: &mut JobRecord,
        transition: Transition,
        policy: Option<&adas_step::guard::PolicyBasis>,
    ) -> Result<u64, JobError> {
        let before = observe::Before::of(record);
        transition.apply(record);
        record.updated_at = now();
        if record.status.is_terminal() && record.ended_at.is_none() {
            record.ended_at = Some(record.updated_at.clone());
        }
        let waiting = match &record.waiting {
            Some(waiting) if record.status == JobStatus::Paused => WaitingChange::Set {
                since_ms: parse_rfc3339_ms(&waiting.created_at).unwrap_or_else(adas_state::now_ms),
            },
            _ => WaitingChange::Clear,
        };
        let data = codec::encode_record(record)?;
        // A successful compare-and-set makes the version `expected + 1`, so the
        // events can be written by the same atomic step (one round trip, and no
        // write without its events).
        let held = std::mem::take(&mut record.unwritten);
        let stored: Vec<JobEvent> = held
            .iter()
            .chain(&transition.events)
            .map(|event| job_event(record, expected + 1, event))
            .collect();
        let encoded: Vec<Vec<u8>> = stored.iter().map(codec::encode_event).collect();
        let events: Vec<&[u8]> = encoded.iter().map(Vec::as_slice).collect();
        let write = adas_state::JobWrite {
            policy: policy.map(|basis| adas_state::PolicyCheck {
                tenant: &record.tenant,
                etag: &basis.etag,
                seen: if basis.read {
                    adas_state::PolicySeen::Read
                } else {
                    adas_state::PolicySeen::Held
                },
            }),
            expected,
            data: Some(&data),
            status: record.status.tag(),
            waiting,
            events: &events,
            enqueue: transition.requeue.then_some(adas_state::Lane::Resumed),
        };
        let written = self
            .store
            .write_job(&record.slag, &record.job_id, write)
            .await;
        let version = match written {
            Ok(version) => version,
            Err(error) => {
                // Nothing was written: the held events stay held.
                record.unwritten = held;
                return Err(error.into());
            }
        };
        for event in &stored {
            observe(record, event);
        }
        before.timed(record);
        if record.status.is_terminal() {
            // Best effort: a slot left behind is pruned when its set fills up.
            if record.holds_quota
                && let Err(error) = self.release_job_slots(record).await
            {
                tracing::warn!(job_id = %record.job_id, %error, "could not release the job's quota slots");
            }
            self.archive_later(record).await;
        }
        Ok(version)
    }

    /// Saves a step of the worker's machine: a transition to be held (events
    /// only, no lifecycle change a reader must see) rides on the record with
    /// the next write; any other is written now, with what is held. A write
    /// that changes nothing and carries nothing is not made. The version
    /// after.
    pub async fn apply(
        &self,
        expected: u64,
        record: &mut JobRecord,
        transition: Option<Transition>,
        write: adas_step::work::Write,
    ) -> Result<u64, JobError> {
        let Some(transition) = transition else {
            return Ok(expected);
        };
        let quiet = matches!(transition.change, Change::Keep | Change::Run)
            && !transition.requeue
            && transition.audit.is_empty();
        if quiet && write == adas_step::work::Write::Hold {
            for event in transition.events {
                record.hold(event);
            }
            return Ok(expected);
        }
        if quiet && transition.events.is_empty() {
            return self.flush(expected, record, transition).await;
        }
        self.save(expected, record, transition).await
    }

    /// Writes the events held on the record, if any, with `transition`
    /// (its lifecycle change: [`Transition::run`] for a worker's, a note
    /// otherwise); the version after.
    pub async fn flush(
        &self,
        expected: u64,
        record: &mut JobRecord,
        transition: Transition,
    ) -> Result<u64, JobError> {
        if record.unwritten.is_empty() {
            return Ok(expected);
        }
        self.save(expected, record, transition).await
    }

    /// Events after `after`, with their ids.
    pub async fn events(
        &self,
        slag: &str,
        job_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<(String, JobEvent)>, JobError> {
        let events = self.store.read_events(slag, job_id, after, limit).await?;
        parse_events(events)
    }

    /// Events after `after`; when there are none yet, waits up to `block` for the
    /// next (written by any process). Empty: the wait timed out.
    pub async fn wait_events(
        &self,
        slag: &str,
        job_id: &str,
        after: Option<&str>,
        limit: usize,
        block: std::time::Duration,
    ) -> Result<Vec<(String, JobEvent)>, JobError> {
        let events = self
            .store
            .wait_events(slag, job_id, after, limit, block)
            .await?;
        parse_events(events)
    }

    /// Jobs of a slag (with `status`, only those: read from the per-status
    /// index, no scan), oldest first — paused ones in the order they paused —
    /// from `offset`, keeping those `keep`
    /// accepts until `limit` are kept. A filter may skip many jobs (another
    /// principal's), so one call reads at most `MAX_LIST_SCAN` ids and returns
    /// the offset to continue from: a page may hold fewer jobs than asked,
    /// never miss one.
    pub async fn list(
        &self,
        slag: &str,
        status: Option<JobStatus>,
        (offset, limit): (u64, usize),
        keep: impl Fn(&JobRecord) -> bool,
    ) -> Result<(Vec<StoredJob>, Option<u64>), JobError> {
        let limit = limit.max(1);
        let mut jobs = Vec::with_capacity(limit.min(64));
        let mut cursor = offset;
        let mut scanned = 0usize;
        loop {
            let batch = (limit - jobs.len()).max(16);
            let request = PageRequest {
                offset: cursor,
                limit: batch,
            };
            // A paused job is waiting, and a waiting job is in the waiting
            // index alone (one index entry per paused job, not two): paused
            // jobs are listed from it, in the order they paused.
            let page = if status == Some(JobStatus::Paused) {
                let page = self.store.list_waiting(slag, request).await?;
                adas_state::Page {
                    items: page.items.into_iter().map(|entry| entry.job_id).collect(),
                    next_offset: page.next_offset,
                }
            } else {
                self.store
                    .list_jobs(slag, status.map(JobStatus::tag), request)
                    .await?
            };
            let in_page = page.items.len();
            // The page's records in one round trip, not one per job. A job
            // deleted since the index was read is not listed; one unreadable
            // record must not hide every other job from every caller of the
            // skill: it is logged and skipped.
            let records = self.load_many(slag, &page.items).await?;
            for (index, stored) in records.into_iter().enumerate() {
                cursor += 1;
                scanned += 1;
                let Some(stored) = stored else {
                    continue;
                };
                if keep(&stored.record) {
                    jobs.push(stored);
                    if jobs.len() == limit {
                        let rest_of_page = index + 1 < in_page;
                        let next = (rest_of_page || page.next_offset.is_some()).then_some(cursor);
                        return Ok((jobs, next));
                    }
                }
            }
            match page.next_offset {
                Some(next) if scanned < MAX_LIST_SCAN => cursor = next,
                Some(next) => return Ok((jobs, Some(next))),
                None => return Ok((jobs, None)),
            }
        }
    }
}

/// `event` as stored: its kind, summary and detail, with the job's status
/// and outcome after the write.
fn job_event(record: &JobRecord, version: u64, event: &Event) -> JobEvent {
    JobEvent {
        kind: event.kind(),
        status: record.status,
        outcome_class: record.outcome_class,
        message: event.message(),
        data: event.detail(),
        time: now(),
        job_version: version,
        adds_personal: event.adds_personal(),
    }
}

fn parse_events(events: Vec<adas_state::StoredEvent>) -> Result<Vec<(String, JobEvent)>, JobError> {
    events
        .into_iter()
        .map(|event| codec::decode_event(&event.data).map(|parsed| (event.id, parsed)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(job_id: &str, status: JobStatus) -> JobRecord {
        let mut record: JobRecord = serde_json::from_value(serde_json::json!({
            "job_id": job_id, "slag": "s", "goal": "", "status": "queued",
            "outcome_class": null, "waiting": null, "context": {}, "resources": {},
            "plan": null, "intent": null, "iteration": 0, "iteration_budget": 1,
            "calls": [], "result": null, "error": null, "audit": [], "request_id": "",
            "created_at": rfc3339(0), "updated_at": rfc3339(0), "ended_at": null
        }))
        .expect("a job record");
        record.status = status;
        record
    }

    #[tokio::test]
    async fn a_filtered_list_reads_past_unmatched_jobs_and_never_skips_one() {
        let store: Arc<dyn StateStore> = Arc::new(adas_state::MemoryStore::new());
        let repo = JobRepo::new(store, std::env::temp_dir());
        // 40 queued jobs, then the 3 paused ones a status filter looks for.
        for index in 0..40 {
            repo.create(&record(&format!("q{index:02}"), JobStatus::Queued), false)
                .await
                .unwrap();
        }
        for (index, job_id) in ["p1", "p2", "p3"].into_iter().enumerate() {
            let mut job = record(job_id, JobStatus::Queued);
            repo.create(&job, false).await.unwrap();
            let mut ask = adas_step::ask::single_ask(
                PauseReason::MissingRequiredInput,
                adas_step::ask::ask_field("amount", "number", "How much?", Vec::new()),
                "How much?".into(),
                None,
            );
            ask.created_at = rfc3339(index as u64);
            let paused = Event::paused(
                ask.reason_code,
                "How much?",
                adas_step::PauseDetail::Asked {
                    requested_fields: ask.requested_fields.clone(),
                    correlation_id: ask.correlation_id.clone(),
                },
            );
            repo.save(1, &mut job, Transition::pause(ask, paused))
                .await
                .unwrap();
        }
        let paused = |record: &JobRecord| record.status == JobStatus::Paused;
        // A filter scans; the status index reads the same pages directly.
        for (status, keep) in [
            (None, &paused as &dyn Fn(&JobRecord) -> bool),
            (Some(JobStatus::Paused), &|_: &JobRecord| true),
        ] {
            let (first, next) = repo.list("s", status, (0, 2), keep).await.unwrap();
            let ids: Vec<&str> = first.iter().map(|job| job.record.job_id.as_str()).collect();
            assert_eq!(ids, ["p1", "p2"]);
            let (second, last) = repo
                .list("s", status, (next.expect("a next page"), 2), keep)
                .await
                .unwrap();
            assert_eq!(second.len(), 1);
            assert_eq!(second[0].record.job_id, "p3");
            assert_eq!(last, None);
        }
        let (all, next) = repo.list("s", None, (0, 43), |_| true).await.unwrap();
        assert_eq!((all.len(), next), (43, None));
        let (some, next) = repo.list("s", None, (0, 10), |_| true).await.unwrap();
        assert_eq!((some.len(), next), (10, Some(10)));
    }
}
