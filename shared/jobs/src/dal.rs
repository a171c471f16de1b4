//! The DAL-Agent (spec 000): finds the next call of a job's plan, inserts an ASK
//! for every missing required input (skill tool inputs merged with the MCP
//! schema; `required_inputs` hints give the prompt and input type), and if any
//! slot is unanswered pauses the job with the waiting contract — all missing
//! fields of one call in one ask, a known field never asked, a repeated ask
//! deduplicated (same correlation id, `last_prompt_at` and `prompt_count` bumped).
//! Answers are validated all-or-nothing: a refused answer leaves the plan and the
//! ask as they were.

use std::sync::Arc;

use adas_dia::{
    AnswerError, InputSpec, Interaction, InteractionKind, NoQuerySource, Outcome, Resolver,
    Schemas, SlotPath, ValueKind, asks_of_call, insert_missing_asks, next_call,
};
use adas_skill::{Catalog, OperationalSkill};
use adas_tools::ToolResolver;
use serde_json::{Map, Value as Json, json};

use crate::{
    AuditEntry, EventKind, JobError, JobRecord, JobRepo, JobStatus, OutcomeClass, StoredJob,
    Waiting, WaitingField, new_correlation_id, now,
};

/// Largest answer to one asked field, in bytes: an answer is a value for a
/// tool argument, and whatever is accepted is stored in the job and its events.
pub const MAX_ANSWER_BYTES: usize = 16 * 1024;

/// Why the job waits, derived from what is asked (documented in ARCHITECTURE.md).
pub mod reason_codes {
    /// A required tool input is missing.
    pub const MISSING_REQUIRED_INPUT: &str = "MISSING_REQUIRED_INPUT";
    /// The missing input identifies the user and the skill requires verification.
    pub const IDENTITY_VERIFICATION_REQUIRED: &str = "IDENTITY_VERIFICATION_REQUIRED";
    /// A tool failed; the user decides how to proceed.
    pub const TOOL_ERROR_RECOVERY: &str = "TOOL_ERROR_RECOVERY";
    /// The user reviews an answer from the sources.
    pub const USER_CONFIRMATION_REQUIRED: &str = "USER_CONFIRMATION_REQUIRED";
    /// An approver must decide on a call.
    pub const APPROVAL_REQUIRED: &str = "APPROVAL_REQUIRED";
}

/// What the job does next.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// Run this call (gate it first).
    Call {
        /// Tool.
        tool: String,
        /// Concrete arguments.
        args: Map<String, Json>,
        /// Where the call is in the plan.
        path: SlotPath,
    },
    /// The job paused.
    Waiting(Box<Waiting>),
    /// Every call ran; the last value.
    Done(Option<Json>),
    /// The plan was aborted by the user.
    Aborted(String),
}

/// Errors of the DAL-Agent.
#[derive(Debug, thiserror::Error)]
pub enum DalError {
    /// Storage failed (a version conflict included).
    #[error(transparent)]
    Job(#[from] JobError),
    /// The skill could not be loaded.
    #[error(transparent)]
    Skill(#[from] adas_skill::SkillError),
    /// The job is not in a state for this operation.
    #[error("{0}")]
    Precondition(String),
    /// The correlation id is not the current ask's.
    #[error("correlation id `{given}` does not match the current ask")]
    StaleCorrelation {
        /// What was given.
        given: String,
    },
    /// The answers do not fit; `(field, problem)` pairs. The job is unchanged
    /// (but for the invalid-answer count) unless `escalated`.
    #[error("{} invalid field(s)", violations.len())]
    InvalidAnswers {
        /// Problems by field.
        violations: Vec<(String, String)>,
        /// Whether the job escalated (too many invalid answers).
        escalated: bool,
    },
}

/// The DAL-Agent over jobs, skills and tool schemas.
#[derive(Clone)]
pub struct DalAgent {
    repo: JobRepo,
    catalog: Arc<Catalog>,
    tools: Arc<ToolResolver>,
}

impl std::fmt::Debug for DalAgent {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("DalAgent").finish_non_exhaustive()
    }
}

impl DalAgent {
    /// A DAL-Agent.
    pub fn new(repo: JobRepo, catalog: Arc<Catalog>, tools: Arc<ToolResolver>) -> Self {
        Self {
            repo,
            catalog,
            tools,
        }
    }

    /// The job repository.
    pub fn repo(&self) -> &JobRepo {
        &self.repo
    }

    /// The skill of a job: the version it started with, from its tenant's catalog.
    async fn skill(&self, record: &JobRecord) -> Result<Arc<OperationalSkill>, DalError> {
        Ok(self
            .catalog
            .for_tenant(&record.tenant)?
            .get_version_async(&record.slag, &record.skill_etag)
            .await?)
    }

    /// Input schemas per tool: the resolved tool set (declared inputs merged with
    /// the server's schema), prompts and input types from `required_inputs`. When
    /// the server is unreachable, the declared inputs alone.
    pub async fn schemas(
        &self,
        skill: &OperationalSkill,
        request: &adas_tools::ToolRequest,
    ) -> Schemas {
        let hint = |name: &str| {
            skill
                .skill
                .required_inputs
                .iter()
                .find(|hint| hint.path == name || hint.path.rsplit('.').next() == Some(name))
        };
        let specs: Vec<(String, Vec<adas_tools::ToolInputSpec>)> =
            match self.tools.resolve(request).await {
                Ok(resolved) => resolved
                    .tools
                    .into_iter()
                    .map(|tool| (tool.name, tool.inputs))
                    .collect(),
                Err(_) => request
                    .declared
                    .iter()
                    .map(|tool| (tool.name.clone(), tool.inputs.clone()))
                    .collect(),
            };
        specs
            .into_iter()
            .map(|(tool, inputs)| {
                let inputs = inputs
                    .into_iter()
                    .map(|input| InputSpec {
                        prompt: hint(&input.name).and_then(|hint| hint.prompt.clone()),
                        kind: ValueKind::from_type_name(&input.kind),
                        name: input.name,
                        required: input.required,
                        allowed: input.allowed,
                    })
                    .collect();
                (tool, inputs)
            })
            .collect()
    }

    /// Finds the job's next call, pausing it when a required input is missing.
    pub async fn resolve_next(
        &self,
        slag: &str,
        job_id: &str,
        expected_version: Option<u64>,
        request: &adas_tools::ToolRequest,
    ) -> Result<(Next, StoredJob), DalError> {
        let StoredJob {
            mut record,
            version,
        } = self.repo.load(slag, job_id).await?;
        if let Some(expected) = expected_version
            && expected != version
        {
            return Err(DalError::Job(JobError::Store(
                adas_state::StateError::VersionConflict {
                    what: format!("job {slag}/{job_id}"),
                    expected,
                    actual: version,
                },
            )));
        }
        if record.status == JobStatus::Paused
            && let Some(waiting) = record.waiting.clone()
        {
            return Ok((
                Next::Waiting(Box::new(waiting)),
                StoredJob { record, version },
            ));
        }
        if record.status.is_terminal() {
            return Err(DalError::Precondition(format!(
                "job {job_id} has ended ({:?})",
                record.status
            )));
        }
        let Some(mut plan) = record.plan.clone() else {
            return Err(DalError::Precondition(format!(
                "job {job_id} has no plan yet"
            )));
        };
        let skill = self.skill(&record).await?;
        let schemas = self.schemas(&skill, request).await;
        let known: std::collections::BTreeMap<String, Json> = record
            .context
            .iter()
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        let mut known = known;
        for (name, value) in &plan.context.known {
            known.entry(name.clone()).or_insert_with(|| value.clone());
        }
        insert_missing_asks(&mut plan.program, &schemas, &known);
        adas_dia::fill_known_asks(&mut plan.program, &known);
        let resolver = Resolver::new(&schemas, &NoQuerySource);
        for _ in 0..256 {
            match next_call(&plan.program) {
                Ok(Some(call)) => {
                    let version = self.keep_plan(&mut record, version, plan).await?;
                    return Ok((
                        Next::Call {
                            tool: call.tool,
                            args: call.args,
                            path: call.path,
                        },
                        StoredJob { record, version },
                    ));
                }
                Ok(None) => {
                    let value = plan
                        .program
                        .elements
                        .last()
                        .and_then(adas_dia::Node::to_json);
                    let version = self.keep_plan(&mut record, version, plan).await?;
                    return Ok((Next::Done(value), StoredJob { record, version }));
                }
                Err(_) => match resolver.resolve(&mut plan).await {
                    Outcome::Resolved => {}
                    Outcome::Aborted => {
                        let reason = plan
                            .context
                            .aborted_calls
                            .last()
                            .cloned()
                            .unwrap_or_else(|| "the plan was aborted".into());
                        let version = self.keep_plan(&mut record, version, plan).await?;
                        return Ok((Next::Aborted(reason), StoredJob { record, version }));
                    }
                    Outcome::InteractionRequested(interaction) => {
                        // Answers go through `fill` per field; the resolver's own pending slot is not used.
                        plan.context.pending = None;
                        let asks = if interaction.kind == InteractionKind::Ask {
                            let mut call_path = interaction.path.clone();
                            call_path.0.pop();
                            let asks = asks_of_call(&plan.program, &call_path, &schemas);
                            if asks.is_empty() {
                                vec![interaction]
                            } else {
                                asks
                            }
                        } else {
                            vec![interaction]
                        };
                        let waiting = build_waiting(record.waiting.take(), &asks, &skill, &schemas);
                        record.plan = Some(plan);
                        record.status = JobStatus::Paused;
                        record.outcome_class = Some(OutcomeClass::UserActionRequired);
                        record.waiting = Some(waiting.clone());
                        let message = waiting.prompt_message.clone();
                        let data = json!({"reason_code": waiting.reason_code, "requested_fields": waiting.requested_fields, "correlation_id": waiting.correlation_id});
                        let version = self
                            .repo
                            .save(version, &mut record, (EventKind::Paused, &message, data))
                            .await?;
                        return Ok((
                            Next::Waiting(Box::new(waiting)),
                            StoredJob { record, version },
                        ));
                    }
                },
            }
        }
        Err(DalError::Precondition(
            "the plan keeps changing while being resolved".into(),
        ))
    }

    async fn keep_plan(
        &self,
        record: &mut JobRecord,
        version: u64,
        plan: adas_dia::Plan,
    ) -> Result<u64, DalError> {
        if record.plan.as_ref() == Some(&plan) {
            return Ok(version);
        }
        record.plan = Some(plan);
        Ok(self
            .repo
            .save(
                version,
                record,
                (EventKind::Resolved, "plan resolved", Json::Null),
            )
            .await?)
    }

    /// Validates the answers to the current ask, fills the slots, clears `waiting`
    /// and re-queues the job. All-or-nothing.
    pub async fn submit(
        &self,
        slag: &str,
        job_id: &str,
        correlation_id: &str,
        fields: &Map<String, Json>,
        submitted_by: &str,
    ) -> Result<StoredJob, DalError> {
        let StoredJob {
            mut record,
            version,
        } = self.repo.load(slag, job_id).await?;
        let Some(mut waiting) = record
            .waiting
            .clone()
            .filter(|_| record.status == JobStatus::Paused)
        else {
            return Err(DalError::Precondition(format!(
                "job {job_id} is not waiting for input"
            )));
        };
        if waiting.reason_code == reason_codes::APPROVAL_REQUIRED {
            return Err(DalError::Precondition(format!(
                "job {job_id} waits for an approver: use GateService.DecideApproval"
            )));
        }
        if correlation_id != waiting.correlation_id {
            return Err(DalError::StaleCorrelation {
                given: correlation_id.to_owned(),
            });
        }
        let limit = self.skill(&record).await?.engine.max_invalid_answers;
        let mut plan = record
            .plan
            .clone()
            .ok_or_else(|| DalError::Precondition(format!("job {job_id} has no plan")))?;
        let mut violations = Vec::new();
        for name in fields.keys() {
            if !waiting.requested_fields.contains(name) {
                violations.push((name.clone(), "this field was not asked for".to_owned()));
            }
        }
        for field in &waiting.fields {
            let Some(value) = fields.get(&field.name) else {
                if field.required {
                    violations.push((field.name.clone(), "required".to_owned()));
                }
                continue;
            };
            let text = match value {
                Json::String(text) => text.clone(),
                Json::Null => String::new(),
                other => other.to_string(),
            };
            if text.len() > MAX_ANSWER_BYTES {
                violations.push((
                    field.name.clone(),
                    format!(
                        "{} bytes; an answer holds at most {MAX_ANSWER_BYTES}",
                        text.len()
                    ),
                ));
                continue;
            }
            if text.trim().is_empty() && field.required {
                violations.push((field.name.clone(), "required".to_owned()));
                continue;
            }
            let Some(interaction) = field.interaction.clone() else {
                continue;
            };
            let mut interaction: Interaction = interaction;
            interaction.expected = kind_of(&field.kind);
            let fill = Resolver::new(&schemas_for(field), &NoQuerySource).fill(
                &mut plan,
                &interaction,
                &text,
            );
            match fill {
                Ok(()) => {}
                Err(AnswerError::Invalid {
                    expected, reason, ..
                }) => {
                    violations.push((field.name.clone(), format!("expected {expected}: {reason}")))
                }
                Err(other) => violations.push((field.name.clone(), other.to_string())),
            }
        }
        if !violations.is_empty() {
            waiting.invalid_answer_count += 1;
            let escalated = waiting.invalid_answer_count >= limit;
            if escalated {
                record.status = JobStatus::Failed;
                record.outcome_class = Some(OutcomeClass::Escalated);
                record.waiting = None;
                record.error = Some(format!(
                    "{limit} invalid answers to the same question; handed to a human"
                ));
                self.repo
                    .save(
                        version,
                        &mut record,
                        (
                            EventKind::Failed,
                            "too many invalid answers; escalated",
                            json!({"violations": violations.len()}),
                        ),
                    )
                    .await?;
            } else {
                record.waiting = Some(waiting);
                self.repo
                    .save(
                        version,
                        &mut record,
                        (
                            EventKind::AnswerRefused,
                            "the answer was refused",
                            json!({"violations": violations.len()}),
                        ),
                    )
                    .await?;
            }
            return Err(DalError::InvalidAnswers {
                violations,
                escalated,
            });
        }
        for (name, value) in fields {
            record.context.insert(name.clone(), value.clone());
        }
        record.plan = Some(plan);
        record.audit.push(AuditEntry {
            who: if submitted_by.is_empty() {
                "user".into()
            } else {
                submitted_by.to_owned()
            },
            at: now(),
            action: "answer".into(),
            detail: json!({"correlation_id": correlation_id, "fields": fields}),
        });
        record.waiting = None;
        record.status = JobStatus::Queued;
        record.outcome_class = None;
        let version = self
            .repo
            .save(
                version,
                &mut record,
                (
                    EventKind::Resumed,
                    "answers accepted",
                    json!({"correlation_id": correlation_id}),
                ),
            )
            .await?;
        self.repo.enqueue(slag, job_id).await?;
        Ok(StoredJob { record, version })
    }
}

fn schemas_for(field: &WaitingField) -> Schemas {
    let Some(interaction) = &field.interaction else {
        return Schemas::new();
    };
    let allowed: Vec<Json> = field
        .options
        .iter()
        .map(|option| Json::String(option.clone()))
        .collect();
    Schemas::from([(
        interaction.intent.clone(),
        vec![InputSpec {
            name: field.name.clone(),
            kind: kind_of(&field.kind),
            required: field.required,
            allowed,
            prompt: None,
        }],
    )])
}

fn kind_of(name: &str) -> ValueKind {
    ValueKind::from_type_name(name)
}

fn kind_name(kind: ValueKind) -> &'static str {
    match kind {
        ValueKind::Any => "any",
        ValueKind::String => "string",
        ValueKind::Integer => "integer",
        ValueKind::Number => "number",
        ValueKind::Boolean => "boolean",
        ValueKind::List => "array",
    }
}

/// Builds the waiting object for `asks`, keeping the previous ask's correlation
/// id when the same fields are asked again (deduplication).
fn build_waiting(
    previous: Option<Waiting>,
    asks: &[Interaction],
    skill: &OperationalSkill,
    schemas: &Schemas,
) -> Waiting {
    let identity_skill = skill
        .compiled
        .text_guardrails
        .iter()
        .any(|rule| rule.to_lowercase().contains("identity"));
    let reason_code = match asks.first().map(|ask| ask.kind) {
        Some(InteractionKind::RuntimeError) => reason_codes::TOOL_ERROR_RECOVERY,
        Some(InteractionKind::QueryUser) => reason_codes::USER_CONFIRMATION_REQUIRED,
        _ if identity_skill
            && asks.iter().any(|ask| {
                let field = ask.field.to_lowercase();
                field.contains("email") || field.contains("phone") || field.starts_with("identity")
            }) =>
        {
            reason_codes::IDENTITY_VERIFICATION_REQUIRED
        }
        _ => reason_codes::MISSING_REQUIRED_INPUT,
    };
    let fields: Vec<WaitingField> = asks
        .iter()
        .map(|ask| {
            let name = if ask.field.is_empty() {
                "reply".to_owned()
            } else {
                ask.field.clone()
            };
            let spec = schemas
                .get(&ask.intent)
                .and_then(|inputs| inputs.iter().find(|input| input.name == ask.field));
            let hint = skill
                .skill
                .required_inputs
                .iter()
                .find(|hint| hint.path == name);
            let mut options: Vec<String> = spec
                .map(|spec| {
                    spec.allowed
                        .iter()
                        .map(|value| {
                            value
                                .as_str()
                                .map_or_else(|| value.to_string(), str::to_owned)
                        })
                        .collect()
                })
                .unwrap_or_default();
            if options.is_empty()
                && let Some(hint) = hint
            {
                options = hint.options.clone();
            }
            let input_type = match hint.and_then(|hint| hint.input_type.clone()) {
                Some(kind) => kind,
                None if !options.is_empty() => "choice".to_owned(),
                None => "text".to_owned(),
            };
            WaitingField {
                name,
                kind: kind_name(ask.expected).to_owned(),
                prompt: ask.question.clone(),
                input_type,
                options,
                required: true,
                slot_path: serde_json::to_value(&ask.path).unwrap_or(Json::Null),
                interaction: Some(ask.clone()),
            }
        })
        .collect();
    let requested_fields: Vec<String> = fields.iter().map(|field| field.name.clone()).collect();
    let prompt_message = fields
        .iter()
        .map(|field| field.prompt.clone())
        .collect::<Vec<_>>()
        .join(" ");
    let now = now();
    match previous {
        Some(previous)
            if previous.requested_fields == requested_fields
                && previous.reason_code == reason_code =>
        {
            Waiting {
                last_prompt_at: now,
                prompt_count: previous.prompt_count + 1,
                fields,
                prompt_message,
                ..previous
            }
        }
        _ => Waiting {
            reason_code: reason_code.to_owned(),
            requested_fields,
            prompt_message,
            correlation_id: new_correlation_id(),
            created_at: now.clone(),
            last_prompt_at: now,
            fields,
            prompt_count: 1,
            invalid_answer_count: 0,
            approval: None,
        },
    }
}

/// Ends jobs whose ask is older than their skill's `engine.wait_timeout_ms` with
/// outcome EXPIRED. Works from the waiting index in the store, so a sweep after a
/// restart finds every job that waited through it. Returns how many ended.
pub async fn sweep_expired(repo: &JobRepo, catalog: &Arc<Catalog>) -> usize {
    let mut expired = 0;
    for tenant in catalog.tenant_names() {
        let Ok(catalog) = catalog.for_tenant(&tenant) else {
            continue;
        };
        expired += sweep_tenant(repo, &tenant, &catalog).await;
    }
    expired
}

async fn sweep_tenant(repo: &JobRepo, tenant: &str, catalog: &Catalog) -> usize {
    let slags = catalog.list().unwrap_or_default();
    let mut expired = 0;
    for slag in slags {
        let Ok(skill) = catalog.get(&slag) else {
            continue;
        };
        let Some(timeout) = skill.engine.wait_timeout_ms else {
            continue;
        };
        let cutoff = adas_state::now_ms().saturating_sub(timeout);
        let Ok(entries) = repo.store().waiting_before(&slag, cutoff, 100).await else {
            continue;
        };
        for entry in entries {
            let Ok(StoredJob {
                mut record,
                version,
            }) = repo.load(&slag, &entry.job_id).await
            else {
                continue;
            };
            // Slags are shared names: another tenant's job is judged by its own skill.
            if record.status != JobStatus::Paused || record.tenant != tenant {
                continue;
            }
            record.status = JobStatus::Failed;
            record.outcome_class = Some(OutcomeClass::Expired);
            record.waiting = None;
            record.error = Some(format!("no answer within {timeout} ms"));
            // A conflict means someone answered just now: the answer wins.
            if repo
                .save(
                    version,
                    &mut record,
                    (
                        EventKind::Failed,
                        "the ask expired",
                        json!({"wait_timeout_ms": timeout}),
                    ),
                )
                .await
                .is_ok()
            {
                expired += 1;
            }
        }
    }
    expired
}
