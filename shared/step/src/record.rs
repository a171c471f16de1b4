//! The job record: what a job is, what it waits for, what it did. The
//! waiting object is serialized with exactly the keys of spec 000
//! (`reason_code`, `requested_fields`, `prompt_message`, `correlation_id`,
//! `created_at`, `last_prompt_at`) plus UI detail beside them.

use std::collections::BTreeMap;

use adas_dia::Plan;
/// What a job's model calls cost (the record keeps it).
pub use adas_prompt::Usage;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use crate::{Event, PauseReason};

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
    pub reason_code: PauseReason,
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
    hex::encode(&digest[..16])
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

impl AuditEntry {
    /// The action of an approval.
    pub const APPROVE: &'static str = "approve";
    /// The action of a rejection.
    pub const REJECT: &'static str = "reject";
    /// A retry asked for: the new job in `job`.
    pub const RETRY: &'static str = "retry";
    /// A job started as a retry: the job it retries in `job`.
    pub const RETRY_OF: &'static str = "retry_of";

    /// Whether an approver approved (`Some(true)`) or rejected the call;
    /// `None` for any other action.
    pub fn approved(&self) -> Option<bool> {
        match self.action.as_str() {
            Self::APPROVE => Some(true),
            Self::REJECT => Some(false),
            _ => None,
        }
    }

    /// A text field of its detail (empty when absent).
    pub fn detail_text(&self, key: &str) -> &str {
        self.detail
            .get(key)
            .and_then(Json::as_str)
            .unwrap_or_default()
    }
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

impl DetectedIntent {
    /// No intent guessed: the caller chose what runs (a client's own
    /// program).
    pub fn chosen() -> Self {
        Self {
            intent_id: String::new(),
            confidence: 1.0,
            out_of_domain: false,
            margin: 1.0,
            confident: true,
        }
    }
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

/// A grant value's fingerprint for audit records: HMAC-SHA256 (hex) of its
/// JSON text under the deployment's audit secret
/// ([`adas_dia::digest::set_audit_key`]), so a short value (a user id, an
/// SSN) cannot be found by hashing guesses. Events carry it instead of the
/// value.
pub fn grant_digest(value: &Json) -> String {
    hex::encode(adas_dia::digest::keyed(&[value.to_string().as_bytes()]))
}

/// A call digest as a job with personal values shows it: HMAC-SHA256 (hex)
/// of the digest under the audit secret. The plain digest hashes the call's
/// arguments in clear, so next to arguments shown as `***` it would let a
/// short personal value be found by hashing guesses; the shown one names the
/// same call on every page and event, and reveals nothing.
pub fn shown_call_digest(digest: &str) -> String {
    hex::encode(adas_dia::digest::keyed(&[
        b"call_digest\0",
        digest.as_bytes(),
    ]))
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

/// Everything of the job that is never shown in clear: its personal
/// results' values and its classified grants' values (masked longest first
/// by [`mask_personal`]).
pub fn personal_values(record: &JobRecord) -> Vec<String> {
    let mut values = record.personal.clone();
    values.extend(
        record
            .grants
            .iter()
            .filter(|grant| grant.classified)
            .filter_map(|grant| adas_skill::filter::maskable(&grant.value)),
    );
    values.sort();
    values.dedup();
    values
}

/// What a job brings to a model call: the tokens it already spent (its
/// budget is the operator's) and the values no prompt may carry.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Spend {
    /// Model tokens the job already spent.
    pub tokens: u64,
    /// The job's personal values ([`personal_values`]).
    pub personal: Vec<String>,
}

/// `text` with every personal value masked ([`adas_prompt::prompt::mask`]).
pub fn mask_personal(values: &[String], text: &str) -> String {
    adas_prompt::prompt::mask(values, text)
}

/// The principal the job runs for, as its access rules read it.
pub fn principal(record: &JobRecord) -> adas_skill::access::Principal {
    adas_skill::access::Principal {
        name: record.owner.clone(),
        tenant: record.tenant.clone(),
        roles: record.owner_roles.clone(),
        claims: record.owner_claims.clone(),
    }
}

/// What the job's access rules may read: its live grants and its owner's
/// facts (`principal.*`, which no grant can stand in for).
pub fn held(record: &JobRecord, now_ms: u64) -> Vec<(String, Json)> {
    live_grants(record, now_ms)
        .filter(|grant| !grant.key.starts_with(adas_skill::access::PRINCIPAL_KEY))
        .map(|grant| (grant.key.clone(), grant.value.clone()))
        .chain(principal(record).facts())
        .collect()
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
        record.hold(Event::GrantExpired {
            key: grant.key,
            issuer_tool: grant.tool,
            expired_ms: grant.expires_ms,
        });
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
    pub llm: Usage,
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
    /// The W3C `traceparent` of the person's call (an answer, a decision, a
    /// takeover) that last resumed the job (empty: none, or not traced): the
    /// next step links to it, across the human step.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub resumed_by_trace: String,
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
    /// Values of personal (`pii_*`) results this job holds: shown as `***`
    /// in every reply, event, log line and page made of the job.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub personal: Vec<String>,
    /// The owner's roles when it started the job (`${principal.roles}`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub owner_roles: Vec<String>,
    /// Claims the operator mapped to the owner's key (`${principal.email}`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub owner_claims: std::collections::BTreeMap<String, String>,
    /// Created (RFC 3339).
    pub created_at: String,
    /// Last written (RFC 3339).
    pub updated_at: String,
    /// Ended (RFC 3339).
    pub ended_at: Option<String>,
    /// Events of transitions held back to ride with the job's next write: a
    /// worker's pickup, a deterministic plan, a plan's resolution and a call's
    /// result are written with the next step (a call's start, a pause, the
    /// end) — one write instead of several. Never stored; the job's next
    /// write (`JobRepo::save` in adas-jobs) writes them first.
    #[serde(skip)]
    pub unwritten: Vec<Event>,
}

impl JobRecord {
    /// The W3C trace id of the job's one trace (empty: not traced).
    pub fn trace_id(&self) -> &str {
        self.trace_parent.split('-').nth(1).unwrap_or_default()
    }

    /// A new job of `owner` (of `tenant`) on `skill` with `goal`, queued:
    /// a conversation of its own, nothing known yet.
    pub fn queued(
        job_id: String,
        skill: &adas_skill::OperationalSkill,
        goal: String,
        (tenant, owner): (&str, &str),
    ) -> Self {
        let stamp = crate::time::now();
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
            llm: Usage::default(),
            finalization_failures: 0,
            model_steps: 0,
            started_call: None,
            trace_parent: String::new(),
            resumed_by_trace: String::new(),
            grants: Vec::new(),
            solution: String::new(),
            handoff: None,
            memory: Map::new(),
            previous_intent: String::new(),
            personal: Vec::new(),
            owner_roles: Vec::new(),
            owner_claims: std::collections::BTreeMap::new(),
            created_at: stamp.clone(),
            updated_at: stamp,
            ended_at: None,
            unwritten: Vec::new(),
        }
    }

    /// Holds `event` back to ride with the job's next write ([`Self::unwritten`]).
    pub fn hold(&mut self, event: Event) {
        self.unwritten.push(event);
    }
}

fn unused(usage: &Usage) -> bool {
    usage.calls == 0
}

fn is_zero(count: &u32) -> bool {
    *count == 0
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
        crate::time::now_ms(),
        u128::from_be_bytes(random)
    )
}

/// A new correlation id.
pub fn new_correlation_id() -> String {
    let id = new_job_id();
    format!("c{}", &id[1..])
}
