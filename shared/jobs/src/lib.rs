//! adas-jobs: the job record and everything that writes it — stored as protobuf
//! ([`codec`]) in the state store with compare-and-set on its version, its event
//! log, the ready queue, and the archive on disk (JSON, for people). The waiting object is serialized with exactly
//! the keys of spec 000 (`reason_code`, `requested_fields`, `prompt_message`,
//! `correlation_id`, `created_at`, `last_prompt_at`) plus UI detail beside them.
//!
//! Orchestrator, DalAgent and Gate all write jobs through [`JobRepo`], so every
//! write is a CAS and every transition appends an event.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

pub mod answers;
pub mod certainty;
pub mod codec;
pub mod dal;
pub mod focus;
pub mod memory;
mod page;
pub mod query;

use adas_dia::Plan;
use adas_state::{PageRequest, StateError, StateStore, WaitingChange};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

/// How long a conversation is remembered after its latest turn started.
pub const CONVERSATION_TTL: std::time::Duration = std::time::Duration::from_secs(7 * 24 * 3600);

/// The store key of a conversation's latest turn (tenant-scoped: another
/// tenant's conversation with the same id is another conversation).
fn conversation_key(tenant: &str, slag: &str, conversation: &str) -> String {
    format!("conversation:{tenant}/{slag}/{conversation}")
}

/// Most job ids one `JobRepo::list` call reads while filtering.
pub const MAX_LIST_SCAN: usize = 5_000;

/// Lifecycle state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobStatus {
    /// In the ready queue.
    Queued,
    /// Held by a worker.
    Running,
    /// Waiting for a user or an approver.
    Paused,
    /// Finished with a reply.
    Completed,
    /// Finished without one.
    Failed,
    /// Cancelled by a client.
    Cancelled,
}

impl JobStatus {
    /// The store's name for the status (its per-status index).
    pub fn tag(self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::Running => "running",
            Self::Paused => "paused",
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }

    /// Whether the job has ended.
    pub fn is_terminal(self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Cancelled)
    }
}

/// Why a job is where it is (spec 000: waiting is not an error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum OutcomeClass {
    /// Completed and finalized.
    Success,
    /// Paused for the user.
    UserActionRequired,
    /// Paused for an approver.
    ApprovalRequired,
    /// A platform failure.
    InternalError,
    /// Iteration budget or loop detection.
    EngineBudgetExhausted,
    /// Out of the skill's domain.
    OutOfDomain,
    /// Cancelled.
    Cancelled,
    /// The ask expired.
    Expired,
    /// Handed to a human.
    Escalated,
    /// Denied by policy or an approver.
    PolicyDenied,
    /// A tool failed unrecoverably.
    ToolFailed,
}

/// Detail of one requested field, for UIs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct WaitingField {
    /// Field name.
    pub name: String,
    /// Expected type.
    #[serde(rename = "type")]
    pub kind: String,
    /// Question for it.
    pub prompt: String,
    /// `text` or `choice`.
    pub input_type: String,
    /// Choices.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// A label per choice, same order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub option_labels: Vec<String>,
    /// Whether it must be answered.
    pub required: bool,
    /// Where the answer goes in the plan (JSON of the slot path).
    pub slot_path: Json,
    /// The resolver's question behind this field (how the answer is applied).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interaction: Option<adas_dia::Interaction>,
}

/// The call held for an approver.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PendingApproval {
    /// Tool.
    pub tool: String,
    /// Arguments.
    pub arguments: Map<String, Json>,
    /// Digest of tool + arguments.
    pub call_digest: String,
    /// Role that must decide.
    pub approver: String,
    /// Why.
    pub reason: String,
    /// The matching condition.
    pub condition: String,
}

/// The waiting contract of spec 000 (the first six fields, these exact keys).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Waiting {
    /// Why the job waits.
    pub reason_code: String,
    /// Fields asked for.
    pub requested_fields: Vec<String>,
    /// One message asking for all of them.
    pub prompt_message: String,
    /// Identifies the ask.
    pub correlation_id: String,
    /// When the ask was made (RFC 3339).
    pub created_at: String,
    /// When the user was last prompted (RFC 3339).
    pub last_prompt_at: String,
    /// Per-field detail.
    #[serde(default)]
    pub fields: Vec<WaitingField>,
    /// Times prompted.
    #[serde(default)]
    pub prompt_count: u32,
    /// Invalid answers so far.
    #[serde(default)]
    pub invalid_answer_count: u32,
    /// The call held for approval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<PendingApproval>,
}

/// A tool call written as started before it ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StartedCall {
    /// The idempotency key it was sent with: stable across retries and
    /// takeovers (see [`idempotency_key`]).
    pub key: String,
    /// Tool.
    pub tool: String,
    /// When it started (RFC 3339).
    pub started_at: String,
}

/// The idempotency key of a job's `iteration`-th call of `call_digest`
/// (tool + canonical arguments): the same call after a retry or a takeover
/// gets the same key, another call another. Sent to MCP tools in `_meta`.
pub fn idempotency_key(job_id: &str, iteration: u32, call_digest: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(format!("{job_id}/{iteration}/{call_digest}").as_bytes());
    digest[..16]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// A tool call the job made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallRecord {
    /// Tool.
    pub tool: String,
    /// Arguments.
    pub arguments: Map<String, Json>,
    /// Digest of tool + arguments (loop detection).
    pub call_digest: String,
    /// What it returned (or the error text).
    pub output: Json,
    /// Whether it failed.
    pub is_error: bool,
    /// The iteration it used.
    pub iteration: u32,
    /// When it finished (RFC 3339).
    pub finished_at: String,
}

/// Who did what to the job, when (answers, decisions, cancels).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditEntry {
    /// Who.
    pub who: String,
    /// When (RFC 3339).
    pub at: String,
    /// What, e.g. `answer`, `approve`, `reject`, `cancel`.
    pub action: String,
    /// Detail: the fields answered, the call digest decided, …
    pub detail: Json,
}

/// The final reply.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    /// The polished reply.
    pub reply: String,
    /// The output contract fields.
    pub output_fields: Map<String, Json>,
    /// The finalization verdict, as JSON.
    pub finalization: Json,
}

/// The detected intent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DetectedIntent {
    /// Intent id (empty when out of domain).
    pub intent_id: String,
    /// Score.
    pub confidence: f64,
    /// Out of domain.
    pub out_of_domain: bool,
    /// How far it led the next candidate.
    #[serde(default)]
    pub margin: f64,
    /// Acted on without asking (confident detection, or the user's choice).
    #[serde(default)]
    pub confident: bool,
}

/// Where a value known to a job came from. A side-effecting call runs without
/// asking only when each of its arguments is one of these (or a previous tool's
/// output) and the intent was confident.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// The input or entity it is a value for.
    pub name: String,
    /// The value.
    pub value: Json,
    /// `message` (the user's words matched to the input's type, pattern, enum
    /// or name), `answer`, `client` (StartJob's context or program) or
    /// `conversation` (an earlier turn's evidence).
    pub source: String,
}

/// Whether two values are the same fact (`40` and `40.0`, `"ORD-1"` and `"ord-1"`).
pub fn same_value(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => x.as_f64() == y.as_f64(),
        (Json::String(x), Json::String(y)) => x.trim().eq_ignore_ascii_case(y.trim()),
        // "$600", "1,200" and "1.2k" are the amounts people write.
        (Json::Number(x), Json::String(y)) | (Json::String(y), Json::Number(x)) => {
            adas_dia::parse_amount(y).is_some_and(|y| Some(y) == x.as_f64())
        }
        _ => a == b,
    }
}

/// A grant the conversation holds: a fact a skill's tool proved (its
/// `grant_mappings`), bound to the principal and the conversation it was
/// issued in, until it expires. Never made from a request, an answer, a
/// model or a program.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Grant {
    /// Key, e.g. `sched.user_id`.
    pub key: String,
    /// The value the tool's result held.
    pub value: Json,
    /// The skill whose mapping issued it.
    pub skill: String,
    /// The tool whose result issued it.
    pub tool: String,
    /// The job whose call issued it.
    pub job: String,
    /// The principal it is bound to.
    pub principal: String,
    /// The conversation it lives in.
    pub conversation: String,
    /// Expiry, ms since the epoch.
    pub expires_ms: u64,
    /// The issuing tool is classified (`pii_*`): its value is masked when shown.
    #[serde(default)]
    pub classified: bool,
}

impl adas_skill::access::HeldGrant for Grant {
    fn key(&self) -> &str {
        &self.key
    }
    fn value(&self) -> &Json {
        &self.value
    }
}

impl Grant {
    /// Its value as shown outside the job (the wire, the console, events):
    /// masked when its tool is classified.
    pub fn shown_value(&self) -> String {
        if self.classified {
            adas_skill::access::MASK.to_owned()
        } else {
            self.value.to_string()
        }
    }
}

impl adas_skill::access::HeldGrant for &Grant {
    fn key(&self) -> &str {
        &self.key
    }
    fn value(&self) -> &Json {
        &self.value
    }
}

/// How a turn of a solution came to its skill.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HandoffNote {
    /// The handoff's id in the solution.
    pub id: String,
    /// The skill the conversation left.
    pub from: String,
    /// The skill it moved to (this job's).
    pub to: String,
    /// The grant keys that went with it.
    pub grants_passed: Vec<String>,
}

/// A grant value's fingerprint for audit records: SHA-256 (hex) of its JSON
/// text. Events carry it instead of the value.
pub fn grant_digest(value: &Json) -> String {
    use sha2::{Digest, Sha256};
    focus::hex(&Sha256::digest(value.to_string().as_bytes()))
}

/// The grants of `record` that still hold at `now_ms`: unexpired, and bound
/// to the job's own principal and conversation.
pub fn live_grants(record: &JobRecord, now_ms: u64) -> impl Iterator<Item = &Grant> {
    record.grants.iter().filter(move |grant| {
        grant.expires_ms > now_ms
            && grant.principal == record.owner
            && grant.conversation == record.conversation
    })
}

/// Drops the grants that no longer hold, holding a `grant_expired` event for
/// each expired one.
pub fn prune_grants(record: &mut JobRecord, now_ms: u64) {
    let (owner, conversation) = (record.owner.clone(), record.conversation.clone());
    let (kept, dropped): (Vec<Grant>, Vec<Grant>) = std::mem::take(&mut record.grants)
        .into_iter()
        .partition(|grant| {
            grant.expires_ms > now_ms
                && grant.principal == owner
                && grant.conversation == conversation
        });
    record.grants = kept;
    for grant in dropped {
        record.hold((
            EventKind::GrantExpired,
            &format!("grant `{}` no longer holds", grant.key),
            serde_json::json!({"key": grant.key, "issuer_tool": grant.tool, "expired_ms": grant.expires_ms}),
        ));
    }
}

fn default_tenant() -> String {
    "default".into()
}

/// A job record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobRecord {
    /// Job id.
    pub job_id: String,
    /// Skill namespace.
    pub slag: String,
    /// The user's goal.
    pub goal: String,
    /// Lifecycle state.
    pub status: JobStatus,
    /// Why.
    pub outcome_class: Option<OutcomeClass>,
    /// Present exactly while paused.
    pub waiting: Option<Waiting>,
    /// Known facts (never asked again).
    pub context: Map<String, Json>,
    /// Bound resources.
    pub resources: BTreeMap<String, String>,
    /// The plan and its progress.
    pub plan: Option<Plan>,
    /// The detected intent.
    pub intent: Option<DetectedIntent>,
    /// Tool calls made (each one iteration).
    pub iteration: u32,
    /// Iteration budget.
    pub iteration_budget: u32,
    /// Calls made.
    pub calls: Vec<CallRecord>,
    /// The result.
    pub result: Option<JobResult>,
    /// Why it failed.
    pub error: Option<String>,
    /// Audit trail.
    pub audit: Vec<AuditEntry>,
    /// Idempotency key it was started with.
    pub request_id: String,
    /// The principal that started it (empty: started in dev mode).
    #[serde(default)]
    pub owner: String,
    /// The tenant of that principal.
    #[serde(default = "default_tenant")]
    pub tenant: String,
    /// The etag of the skill version the job started with; it runs on that
    /// version to the end (empty: the current one).
    #[serde(default)]
    pub skill_etag: String,
    /// The job holds a slot in its owner's and tenant's active-job quotas,
    /// given back when it ends.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub holds_quota: bool,
    /// The conversation this job is a turn of (its id; the first job's id).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub conversation: String,
    /// Values the job may act on, with where each came from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<Evidence>,
    /// Digests of side-effecting calls the user confirmed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub confirmed_calls: Vec<String>,
    /// Tools a model put in the plan that the skill's workflow for the job's
    /// intent does not name: a side-effecting call of one needs the user's yes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unplanned_tools: Vec<String>,
    /// What the job's model calls cost (all services' calls added up).
    #[serde(default, skip_serializing_if = "unused")]
    pub llm: adas_llm::Usage,
    /// Finalizations that did not pass (each may buy one replan).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub finalization_failures: u32,
    /// Next steps a model was asked for (RV2 and replans), bounded by the budget.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub model_steps: u32,
    /// The tool call started and not yet recorded as finished: written with
    /// its start, cleared with its result, so a worker that takes the job over
    /// knows the call's end is unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_call: Option<StartedCall>,
    /// The W3C `traceparent` of the StartJob request (empty: not traced), so
    /// every step on any worker continues the job's one trace.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub trace_parent: String,
    /// Grants the conversation holds (unexpired when last written).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grants: Vec<Grant>,
    /// The solution the turn ran under (its id), if any.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub solution: String,
    /// The handoff that brought the conversation to this skill.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handoff: Option<HandoffNote>,
    /// What the conversation's earlier turns hold, by input name (answers,
    /// values the user gave, the calls' arguments and results): it fills an
    /// input this turn's message leaves open, never one the message names.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub memory: Map<String, Json>,
    /// The intent of the conversation's previous turn: a follow-up that names
    /// no intent of its own ("and downtown?", "cancel it") continues it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub previous_intent: String,
    /// Created (RFC 3339).
    pub created_at: String,
    /// Last written (RFC 3339).
    pub updated_at: String,
    /// Ended (RFC 3339).
    pub ended_at: Option<String>,
    /// Events of transitions held back to ride with the job's next write: a
    /// worker's pickup, a deterministic plan, a plan's resolution and a call's
    /// result are written with the next step (a call's start, a pause, the
    /// end) — one write instead of several. Never stored;
    /// [`JobRepo::save_batch`] writes them first.
    #[serde(skip)]
    pub unwritten: Vec<(EventKind, String, Json)>,
}

impl JobRecord {
    /// A new job of `owner` (of `tenant`) on `skill` with `goal`, queued:
    /// a conversation of its own, nothing known yet.
    pub fn queued(
        job_id: String,
        skill: &adas_skill::OperationalSkill,
        goal: String,
        (tenant, owner): (&str, &str),
    ) -> Self {
        let stamp = rfc3339(adas_state::now_ms());
        Self {
            conversation: job_id.clone(),
            job_id,
            slag: skill.slag.clone(),
            goal,
            status: JobStatus::Queued,
            outcome_class: None,
            waiting: None,
            context: Map::new(),
            resources: BTreeMap::new(),
            plan: None,
            intent: None,
            iteration: 0,
            iteration_budget: skill.engine.max_iterations,
            calls: Vec::new(),
            result: None,
            error: None,
            audit: Vec::new(),
            request_id: String::new(),
            owner: owner.to_owned(),
            tenant: tenant.to_owned(),
            skill_etag: skill.etag.clone(),
            holds_quota: false,
            evidence: Vec::new(),
            confirmed_calls: Vec::new(),
            unplanned_tools: Vec::new(),
            llm: adas_llm::Usage::default(),
            finalization_failures: 0,
            model_steps: 0,
            started_call: None,
            trace_parent: String::new(),
            grants: Vec::new(),
            solution: String::new(),
            handoff: None,
            memory: Map::new(),
            previous_intent: String::new(),
            created_at: stamp.clone(),
            updated_at: stamp,
            ended_at: None,
            unwritten: Vec::new(),
        }
    }

    /// Holds `event` back to ride with the job's next write ([`Self::unwritten`]).
    pub fn hold(&mut self, (kind, message, detail): (EventKind, &str, Json)) {
        self.unwritten.push((kind, message.to_owned(), detail));
    }
}

fn unused(usage: &adas_llm::Usage) -> bool {
    usage.calls == 0
}

fn is_zero(count: &u32) -> bool {
    *count == 0
}

/// What a job event records. Every kind the engine emits is a variant, so
/// the wire mapping is an exhaustive `match` (a new kind cannot reach clients as
/// UNSPECIFIED). Stored as its snake_case name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// The job was stored and queued.
    Created,
    /// A worker took the queued job.
    Running,
    /// A worker took over the job of a worker that went silent.
    Reclaimed,
    /// A plan was made for the goal.
    Planned,
    /// DalAgent resolved the plan: nothing is missing before the next call.
    Resolved,
    /// The job paused for input or approval.
    Paused,
    /// An answer or decision was accepted and the job re-queued.
    Resumed,
    /// An answer to the current ask was refused; the job still waits.
    AnswerRefused,
    /// A gated tool call started.
    ToolStarted,
    /// A tool call finished.
    ToolFinished,
    /// The pre-tool gate denied a call.
    ToolDenied,
    /// The finalization gate judged the draft reply.
    Finalized,
    /// The job completed.
    Completed,
    /// The job failed.
    Failed,
    /// The job was cancelled.
    Cancelled,
    /// A tool's result issued a grant.
    GrantIssued,
    /// A grant expired and was dropped.
    GrantExpired,
    /// A grant was not issued, or a call lacked one or conflicted with one.
    GrantDenied,
    /// The conversation moved to another skill of its solution.
    Handoff,
    /// A call left the steps of the job's workflow (`on_deviation: warn`).
    WorkflowDeviated,
}

impl EventKind {
    /// Every kind, for exhaustive tests of the mappings.
    pub const ALL: [EventKind; 20] = [
        Self::Created,
        Self::Running,
        Self::Reclaimed,
        Self::Planned,
        Self::Resolved,
        Self::Paused,
        Self::Resumed,
        Self::AnswerRefused,
        Self::ToolStarted,
        Self::ToolFinished,
        Self::ToolDenied,
        Self::Finalized,
        Self::Completed,
        Self::Failed,
        Self::Cancelled,
        Self::GrantIssued,
        Self::GrantExpired,
        Self::GrantDenied,
        Self::Handoff,
        Self::WorkflowDeviated,
    ];
}

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
        .map(|tool| adas_tools::DeclaredTool {
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
            never: tool
                .policy
                .as_ref()
                .and_then(|policy| policy.allowed.as_deref())
                .is_some_and(|allowed| allowed.eq_ignore_ascii_case("never")),
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

/// RFC 3339 UTC timestamp for `ms` since the epoch.
pub fn rfc3339(ms: u64) -> String {
    let secs = (ms / 1000) as i64;
    let millis = ms % 1000;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

/// Now, RFC 3339.
pub fn now() -> String {
    rfc3339(adas_state::now_ms())
}

/// Milliseconds since the epoch of an RFC 3339 timestamp written by [`rfc3339`].
pub fn parse_rfc3339_ms(text: &str) -> Option<u64> {
    let (date, time) = text.split_once('T')?;
    let mut date_parts = date.split('-').map(|part| part.parse::<i64>().ok());
    let (y, m, d) = (
        date_parts.next()??,
        date_parts.next()??,
        date_parts.next()??,
    );
    let time = time.trim_end_matches('Z');
    let (hms, millis) = time.split_once('.').unwrap_or((time, "0"));
    let mut hms_parts = hms.split(':').map(|part| part.parse::<i64>().ok());
    let (h, mi, s) = (hms_parts.next()??, hms_parts.next()??, hms_parts.next()??);
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = days * 86_400 + h * 3600 + mi * 60 + s;
    Some((secs * 1000 + millis.parse::<i64>().ok()?) as u64)
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

/// A new job id: time-ordered, unguessable (128 random bits).
pub fn new_job_id() -> String {
    // The time keeps ids roughly ordered for people; the 128 random bits make
    // one job's id say nothing about another's (a caller who knows its own id
    // cannot find its neighbour's).
    let mut random = [0u8; 16];
    getrandom::fill(&mut random).expect("the OS random source");
    format!(
        "j{:012x}{:032x}",
        adas_state::now_ms(),
        u128::from_be_bytes(random)
    )
}

/// A new correlation id.
pub fn new_correlation_id() -> String {
    let id = new_job_id();
    format!("c{}", &id[1..])
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

/// Work for the archiver: a finished job, or a flush to acknowledge.
#[derive(Debug)]
enum Archive {
    Job(Box<JobRecord>),
    Flush(tokio::sync::oneshot::Sender<()>),
}

/// Finished jobs waiting for the archiver; beyond it a job is archived on the
/// caller's task (slower, never lost).
const ARCHIVE_QUEUE: usize = 4096;

/// Finished jobs the archiver writes in one go.
const ARCHIVE_BATCH: usize = 64;

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
        let member = format!("{}/{}", record.slag, record.job_id);
        for set in job_slot_sets(&record.tenant, &record.owner) {
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
        let event = event_bytes(record, 1, EventKind::Created, "job created", Json::Null);
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
        observe(record, EventKind::Created, "job created", &Json::Null);
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

    /// Writes a job if it is still at `expected`, keeping the waiting index in step
    /// with `waiting`, then appends an event. Archives a job that just ended.
    pub async fn save(
        &self,
        expected: u64,
        record: &mut JobRecord,
        event: (EventKind, &str, Json),
    ) -> Result<u64, JobError> {
        self.save_batch(expected, record, vec![event], false).await
    }

    /// Writes the record's held events and changes, if any; the version after.
    pub async fn flush(&self, expected: u64, record: &mut JobRecord) -> Result<u64, JobError> {
        if record.unwritten.is_empty() {
            return Ok(expected);
        }
        self.save_batch(expected, record, Vec::new(), false).await
    }

    /// [`Self::save`] with every event of the transition, in order, and (when
    /// `requeue`) the job put back in the queue's resumed lane — one atomic
    /// write. Events held back on the record go first.
    pub async fn save_batch(
        &self,
        expected: u64,
        record: &mut JobRecord,
        events: Vec<(EventKind, &str, Json)>,
        requeue: bool,
    ) -> Result<u64, JobError> {
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
        // event can be written by the same atomic step (one round trip, and no
        // write without its event).
        let held: Vec<_> = record.unwritten.drain(..).collect();
        let all: Vec<(EventKind, &str, Json)> = held
            .iter()
            .map(|(kind, message, detail)| (*kind, message.as_str(), detail.clone()))
            .chain(events)
            .collect();
        let encoded = all
            .iter()
            .map(|(kind, message, detail)| {
                event_bytes(record, expected + 1, *kind, message, detail.clone())
            })
            .collect::<Vec<_>>();
        let events: Vec<&[u8]> = encoded.iter().map(Vec::as_slice).collect();
        let write = adas_state::JobWrite {
            expected,
            data: Some(&data),
            status: record.status.tag(),
            waiting,
            events: &events,
            enqueue: requeue.then_some(adas_state::Lane::Resumed),
        };
        let written = self
            .store
            .write_job(&record.slag, &record.job_id, write)
            .await;
        let version = match written {
            Ok(version) => version,
            Err(error) => {
                // Nothing was written: the held events stay held.
                drop(all);
                record.unwritten = held;
                return Err(error.into());
            }
        };
        for (kind, message, detail) in &all {
            observe(record, *kind, message, detail);
        }
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

    /// Hands a finished job to the background archiver, off the worker's path
    /// (the archiver is started here, on a runtime, the first time).
    async fn archive_later(&self, record: &JobRecord) {
        let archiver = self.archiver.get_or_init(|| {
            let (sender, receiver) = tokio::sync::mpsc::channel(ARCHIVE_QUEUE);
            tokio::spawn(self.clone().run_archiver(receiver));
            sender
        });
        if let Err(
            tokio::sync::mpsc::error::TrySendError::Full(Archive::Job(record))
            | tokio::sync::mpsc::error::TrySendError::Closed(Archive::Job(record)),
        ) = archiver.try_send(Archive::Job(Box::new(record.clone())))
        {
            self.archive(std::slice::from_ref(&*record)).await;
        }
    }

    async fn run_archiver(self, mut receiver: tokio::sync::mpsc::Receiver<Archive>) {
        let mut batch = Vec::with_capacity(ARCHIVE_BATCH);
        let mut records = Vec::with_capacity(ARCHIVE_BATCH);
        while receiver.recv_many(&mut batch, ARCHIVE_BATCH).await > 0 {
            let mut flushed = Vec::new();
            for work in batch.drain(..) {
                match work {
                    Archive::Job(record) => records.push(*record),
                    Archive::Flush(done) => flushed.push(done),
                }
            }
            // A flush arrived after the jobs before it: they are written first.
            self.archive(&records).await;
            records.clear();
            for done in flushed {
                let _ = done.send(());
            }
        }
    }

    /// Waits until every job that ended before this call is archived (at
    /// shutdown, and for tests that read the archive).
    pub async fn flush_archive(&self) {
        let Some(archiver) = self.archiver.get() else {
            return;
        };
        let (done, flushed) = tokio::sync::oneshot::channel();
        if archiver.send(Archive::Flush(done)).await.is_ok() {
            let _ = flushed.await;
        }
    }

    /// Deletes the finished jobs (completed, failed, cancelled) of `slag`
    /// created before `before_ms` — records, events and index entries, in one
    /// script each — at most `limit` per status. Returns how many went.
    pub async fn sweep_finished(&self, slag: &str, before_ms: u64, limit: usize) -> usize {
        let mut removed = 0;
        for status in [
            JobStatus::Completed,
            JobStatus::Failed,
            JobStatus::Cancelled,
        ] {
            let Ok(ids) = self
                .store
                .jobs_created_before(slag, status.tag(), before_ms, limit)
                .await
            else {
                continue;
            };
            for id in ids {
                if self.store.delete_job(slag, &id).await.unwrap_or(false) {
                    removed += 1;
                }
            }
        }
        removed
    }

    /// Deletes this process' archive files (`jobs/*.jsonl` under the memory
    /// root, every tenant) last written before `older_than` ago, so
    /// the local export stays bounded like the store. Returns how many went.
    pub async fn prune_archives(&self, older_than: std::time::Duration) -> usize {
        let root = self.memory_root.clone();
        tokio::task::spawn_blocking(move || {
            let Some(cutoff) = std::time::SystemTime::now().checked_sub(older_than) else {
                return 0;
            };
            let mut slag_dirs: Vec<PathBuf> = Vec::new();
            let mut roots = vec![root.clone()];
            if let Ok(tenants) = std::fs::read_dir(root.join(".tenants")) {
                roots.extend(tenants.flatten().map(|tenant| tenant.path()));
            }
            for root in roots {
                if let Ok(slags) = std::fs::read_dir(&root) {
                    slag_dirs.extend(slags.flatten().map(|slag| slag.path()));
                }
            }
            let mut removed = 0;
            for dir in slag_dirs {
                // `.json` and `logs/*.log`: the one-file-per-job archives
                // of earlier versions.
                for (sub, extension) in [("jobs", "jsonl"), ("jobs", "json"), ("logs", "log")] {
                    let Ok(files) = std::fs::read_dir(dir.join(sub)) else {
                        continue;
                    };
                    for file in files.flatten() {
                        let path = file.path();
                        let old = file
                            .metadata()
                            .and_then(|meta| meta.modified())
                            .is_ok_and(|modified| modified < cutoff);
                        if old
                            && path.extension().is_some_and(|ext| ext == extension)
                            && std::fs::remove_file(&path).is_ok()
                        {
                            removed += 1;
                        }
                    }
                }
            }
            removed
        })
        .await
        .unwrap_or(0)
    }

    /// Appends finished jobs to their skill's archive of the hour,
    /// `<memory>/<slag>/jobs/<YYYY-MM-DDTHH>.jsonl` (UTC): one line per job,
    /// `{"job": <record>, "events": [{"id", "event"}, …]}`. One append per
    /// file per batch — a file per job cost an inode allocation each, a tenth
    /// of the machine's CPU under load. Best effort: the store stays the truth.
    async fn archive(&self, records: &[JobRecord]) {
        let hour = now();
        let hour = hour.get(..13).unwrap_or("unknown");
        // The batch's event logs read at once: on the multiplexed connection
        // they share round trips instead of taking one each.
        let logs = futures_util::future::join_all(
            records
                .iter()
                .map(|record| self.events(&record.slag, &record.job_id, None, 10_000)),
        )
        .await;
        let mut files: BTreeMap<PathBuf, Vec<u8>> = BTreeMap::new();
        for (record, log) in records.iter().zip(logs) {
            // Each tenant's archive beside its skills (see `Catalog::for_tenant`).
            let root = if record.tenant == adas_skill::catalog::DEFAULT_TENANT {
                self.memory_root.clone()
            } else if adas_skill::slag::is_valid_slag(&record.tenant) {
                self.memory_root.join(".tenants").join(&record.tenant)
            } else {
                continue;
            };
            let log = log.unwrap_or_default();
            let line = ArchiveLine {
                job: record,
                events: log
                    .iter()
                    .map(|(id, event)| ArchivedEvent { id, event })
                    .collect(),
            };
            let file = root
                .join(&record.slag)
                .join("jobs")
                .join(format!("{hour}.jsonl"));
            let text = files.entry(file).or_default();
            // Written straight from the record: no JSON tree built in between.
            let start = text.len();
            if let Err(error) = serde_json::to_writer(&mut *text, &line) {
                // No half line: the file holds whole JSON lines only.
                text.truncate(start);
                tracing::warn!(job_id = %record.job_id, %error, "could not archive a finished job");
                continue;
            }
            text.push(b'\n');
        }
        let written = tokio::task::spawn_blocking(move || -> std::io::Result<()> {
            use std::io::Write as _;
            for (file, text) in files {
                if let Some(parent) = file.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                // One write on an append-only file: whole lines, never
                // interleaved with another process appending to it.
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&file)?
                    .write_all(&text)?;
            }
            Ok(())
        })
        .await;
        if !matches!(written, Ok(Ok(()))) {
            tracing::warn!(jobs = records.len(), "could not archive finished jobs");
        }
    }
}

/// One finished job in its skill's archive of the hour: the record and its
/// events, each with its stream id.
#[derive(Serialize)]
struct ArchiveLine<'a> {
    job: &'a JobRecord,
    events: Vec<ArchivedEvent<'a>>,
}

#[derive(Serialize)]
struct ArchivedEvent<'a> {
    id: &'a str,
    event: &'a JobEvent,
}

/// A written event, told to operators: one structured log line (job, skill,
/// tenant, trace) and the job metrics.
fn observe(record: &JobRecord, kind: EventKind, message: &str, detail: &Json) {
    let kind_name = codec::event_kind_name(kind);
    let trace_id = record.trace_parent.split('-').nth(1).unwrap_or_default();
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
    match kind {
        EventKind::Created => {
            metrics::counter!("adas_jobs_started_total", "skill" => record.slag.clone())
                .increment(1);
        }
        EventKind::Completed | EventKind::Failed | EventKind::Cancelled => {
            let outcome = record.outcome_class.map_or("none", codec::outcome_name);
            metrics::counter!(
                "adas_jobs_finished_total",
                "skill" => record.slag.clone(),
                "status" => record.status.tag(),
                "outcome" => outcome
            )
            .increment(1);
        }
        EventKind::ToolDenied => {
            metrics::counter!("adas_gate_denials_total", "tool" => metric_tool_label(tool))
                .increment(1);
        }
        _ => {}
    }
}

/// Distinct tool labels a process puts on its metrics.
const MAX_TOOL_LABELS: usize = 256;

/// A tool's name as a metric label: the first [`MAX_TOOL_LABELS`] distinct
/// names this process records, then `other`. Only declared tools run, but a
/// denial names whatever a model proposed: the page stays bounded whatever
/// callers send.
pub fn metric_tool_label(tool: &str) -> String {
    static SEEN: std::sync::LazyLock<std::sync::Mutex<std::collections::HashSet<String>>> =
        std::sync::LazyLock::new(Default::default);
    let mut seen = SEEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if seen.contains(tool) {
        return tool.to_owned();
    }
    if seen.len() < MAX_TOOL_LABELS {
        seen.insert(tool.to_owned());
        return tool.to_owned();
    }
    "other".to_owned()
}

fn event_bytes(
    record: &JobRecord,
    version: u64,
    kind: EventKind,
    message: &str,
    data: Json,
) -> Vec<u8> {
    let event = JobEvent {
        kind,
        status: record.status,
        outcome_class: record.outcome_class,
        message: message.to_owned(),
        data,
        time: now(),
        job_version: version,
    };
    codec::encode_event(&event)
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

    #[test]
    fn timestamps_round_trip() {
        for ms in [0u64, 1_700_000_000_123, 1_795_000_000_999, 951_782_400_000] {
            assert_eq!(parse_rfc3339_ms(&rfc3339(ms)), Some(ms), "{}", rfc3339(ms));
        }
        assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
    }

    fn record(job_id: &str, status: JobStatus) -> JobRecord {
        JobRecord {
            job_id: job_id.to_owned(),
            slag: "s".to_owned(),
            goal: String::new(),
            status,
            outcome_class: None,
            waiting: None,
            context: Map::new(),
            resources: BTreeMap::new(),
            plan: None,
            intent: None,
            iteration: 0,
            iteration_budget: 1,
            calls: Vec::new(),
            result: None,
            error: None,
            audit: Vec::new(),
            request_id: String::new(),
            owner: String::new(),
            tenant: "default".into(),
            skill_etag: String::new(),
            holds_quota: false,
            conversation: String::new(),
            evidence: Vec::new(),
            confirmed_calls: Vec::new(),
            unplanned_tools: Vec::new(),
            llm: adas_llm::Usage::default(),
            finalization_failures: 0,
            model_steps: 0,
            started_call: None,
            trace_parent: String::new(),
            grants: Vec::new(),
            solution: String::new(),
            handoff: None,
            memory: Map::new(),
            previous_intent: String::new(),
            created_at: rfc3339(0),
            updated_at: rfc3339(0),
            ended_at: None,
            unwritten: Vec::new(),
        }
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
            job.status = JobStatus::Paused;
            let mut ask = dal::single_ask(
                "MISSING_REQUIRED_INPUT",
                dal::ask_field("amount", "number", "How much?", Vec::new()),
                "How much?".into(),
                None,
            );
            ask.created_at = rfc3339(index as u64);
            job.waiting = Some(ask);
            repo.save_batch(1, &mut job, Vec::new(), false)
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
