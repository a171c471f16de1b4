//! The DAL-Agent (spec 000): finds the next call of a job's plan, inserts an ASK
//! for every missing required input (skill tool inputs merged with the MCP
//! schema; `required_inputs` hints give the prompt and input type), and if any
//! slot is unanswered pauses the job with the waiting contract — all missing
//! fields of one call in one ask, a known field never asked, a repeated ask
//! deduplicated (same correlation id, `last_prompt_at` and `prompt_count` bumped).
//! Answers are validated all-or-nothing: a refused answer leaves the plan and the
//! ask as they were.

use std::sync::Arc;

pub use crate::expiry::sweep_expired;
pub use crate::schema::input_schema;
use crate::schema::{answer_misfits, misfits};

use adas_catalog::Catalog;
use adas_dia::{
    InputSpec, InteractionKind, NoQuerySource, Outcome, Resolver, Schemas, ValueKind, asks_of_call,
    insert_missing_asks, next_call,
};
use adas_skill::OperationalSkill;
use adas_tools::ToolResolver;
use serde_json::{Map, Value as Json};

use crate::query::QueryModel;
use adas_step::ask::{Decided, build_waiting, decide, fill_answers, plain_recovery};
use adas_step::guard::PolicyBasis;
use adas_step::{Event, PauseReason, Transition};

use adas_jobs::{JobError, JobRecord, JobRepo, JobStatus, StoredJob};

pub use adas_step::work::Next;

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
    /// The model behind QUERY_* (none: each query becomes a question).
    queries: Option<QueryModel>,
    /// Input schemas per skill version and resolved tool set.
    input_specs: Arc<crate::kept::KeptBy<OperationalSkill, adas_tools::ResolvedTools, Schemas>>,
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
            queries: None,
            input_specs: Arc::default(),
        }
    }

    /// With a model answering QUERY_FILL, QUERY_USER and QUERY_GATHER.
    pub fn with_queries(mut self, queries: Option<QueryModel>) -> Self {
        self.queries = queries;
        self
    }

    /// The job repository.
    pub fn repo(&self) -> &JobRepo {
        &self.repo
    }

    /// The skill of a job: the version it started with, from its tenant's catalog.
    /// The skill in service now for the job's tenant and slag, when it is
    /// another version than the one the job started with (`None`: the same).
    /// A policy tightened since the job started applies to its pending calls.
    pub async fn newer_skill(
        &self,
        record: &JobRecord,
    ) -> Result<Option<Arc<OperationalSkill>>, DalError> {
        Ok(self.newer_for_gate(record, true).await?.0)
    }

    /// [`Self::newer_skill`] as the pre-tool gate in this process takes it,
    /// and the version its word stands on: the one this process holds
    /// unless `fresh` (`adas_catalog::Catalog::current_for_gate`); the
    /// call's start checks that it is still current.
    pub async fn newer_for_gate(
        &self,
        record: &JobRecord,
        fresh: bool,
    ) -> Result<(Option<Arc<OperationalSkill>>, Option<PolicyBasis>), DalError> {
        let (current, seen) = self
            .catalog
            .for_tenant(&record.tenant)?
            .current_for_gate(&record.slag, fresh)
            .await?;
        let basis = seen.map(|seen| PolicyBasis {
            etag: current.etag.clone(),
            read: seen == adas_state::PolicySeen::Read,
        });
        Ok((
            (current.etag != record.skill_etag).then_some(current),
            basis,
        ))
    }

    async fn skill(&self, record: &JobRecord) -> Result<Arc<OperationalSkill>, DalError> {
        Ok(self
            .catalog
            .for_tenant(&record.tenant)?
            .get_version_async(&record.slag, &record.skill_etag)
            .await?)
    }

    /// The resolved tool set (each tool with its full input schema) and the
    /// input schemas per tool — declared inputs merged with the server's, prompts
    /// and input types from `required_inputs`; one resolution serves both. When
    /// the server is unreachable, the declared inputs alone.
    pub async fn schemas(
        &self,
        skill: &Arc<OperationalSkill>,
        request: &adas_tools::ToolRequest,
    ) -> (Arc<adas_tools::ResolvedTools>, Arc<Schemas>) {
        let Ok(resolved) = self.tools.resolve(request).await else {
            return (
                Arc::default(),
                Arc::new(Self::input_specs(skill, request, None)),
            );
        };
        // A job resolves its next call several times on the same skill
        // version and tool set: their schemas are built once.
        let schemas = self.input_specs.get_or_build(skill, &resolved, || {
            Self::input_specs(skill, request, Some(&resolved.tools))
        });
        (resolved, schemas)
    }

    fn input_specs(
        skill: &OperationalSkill,
        request: &adas_tools::ToolRequest,
        resolved: Option<&[adas_tools::ToolSpec]>,
    ) -> Schemas {
        let hint = |name: &str| {
            skill
                .skill
                .required_inputs
                .iter()
                .find(|hint| hint.path == name || hint.path.rsplit('.').next() == Some(name))
        };
        let specs: Vec<(String, Vec<adas_tools::ToolInputSpec>)> = match resolved {
            Some(resolved) => resolved
                .iter()
                .map(|tool| (tool.name.clone(), tool.inputs.clone()))
                .collect(),
            None => request
                .declared
                .iter()
                .map(|tool| (tool.name.clone(), tool.inputs.clone()))
                .collect(),
        };
        specs
            .into_iter()
            .map(|(tool, mut inputs)| {
                // Asked in the order the skill declares its inputs.
                let declared = skill
                    .skill
                    .tools
                    .iter()
                    .find(|declared| declared.name == tool);
                let position = |name: &str| {
                    declared
                        .and_then(|declared| {
                            declared.inputs.iter().position(|input| input.name == name)
                        })
                        .unwrap_or(usize::MAX)
                };
                inputs.sort_by_key(|input| position(&input.name));
                // An argument the access policy injects from a grant is
                // never asked: no answer could be used for it.
                let injected = adas_skill::access::injected(&skill.skill, &tool);
                let inputs = inputs
                    .into_iter()
                    .filter(|input| !injected.iter().any(|(argument, _)| *argument == input.name))
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
        (tenant, slag, job_id): (&str, &str, &str),
        expected_version: Option<u64>,
        request: &adas_tools::ToolRequest,
    ) -> Result<(Next, StoredJob), DalError> {
        let StoredJob { record, version } = self.repo.load(slag, job_id).await?;
        // Another tenant's job does not exist for this caller: nothing of it
        // is read back, nothing written.
        if record.tenant != tenant {
            return Err(DalError::Job(JobError::NotFound {
                slag: slag.to_owned(),
                job_id: job_id.to_owned(),
            }));
        }
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
        let skill = self.skill(&record).await?;
        let (next, mut job) = self
            .resolve_held(&skill, StoredJob { record, version }, request)
            .await?;
        // A caller in another process reads the job back: nothing stays held.
        job.version = self
            .repo
            .flush(job.version, &mut job.record, Transition::note(Vec::new()))
            .await?;
        Ok((next, job))
    }

    /// [`Self::resolve_next`] on a copy of the job the caller holds at its
    /// stored version (the worker's in-process step: no reload); a write
    /// still compare-and-sets on that version. A resolution that only
    /// changed the plan is held on the record (`unwritten`) to ride with the
    /// caller's next write (the call's start): the caller must write the job
    /// before acting on the step.
    pub async fn resolve_held(
        &self,
        skill: &Arc<OperationalSkill>,
        StoredJob {
            mut record,
            version,
        }: StoredJob,
        request: &adas_tools::ToolRequest,
    ) -> Result<(Next, StoredJob), DalError> {
        let job_id = record.job_id.clone();
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
        let skill = skill.clone();
        let (specs, schemas) = self.schemas(&skill, request).await;
        let mut known = known_values(&record, &plan);
        insert_missing_asks(&mut plan.program, &schemas, &known);
        adas_dia::fill_known_asks(&mut plan.program, &known);
        let choices = pick_named(&mut record, &mut plan, &skill);
        let queries = self
            .queries
            .as_ref()
            .and_then(|model| model.source(skill.clone(), &record));
        let source: &dyn adas_dia::QuerySource = match &queries {
            Some(queries) => queries,
            None => &NoQuerySource,
        };
        let resolver = Resolver::new(&schemas, source);
        let spent_before = record.llm;
        for _ in 0..256 {
            match next_call(&plan.program) {
                Ok(Some(call)) => {
                    // An argument that does not fit the tool's full schema is
                    // asked again, never sent (a guessed or stale value included).
                    let bad = misfits(&skill, &specs.tools, &call.tool, &call.args);
                    if !bad.is_empty() {
                        if let Some(adas_dia::Node::Intent(intent)) =
                            adas_dia::node_at_mut(&mut plan.program, &call.path)
                        {
                            intent.args.retain(|arg| !bad.contains(&arg.name));
                        }
                        for name in &bad {
                            known.remove(name);
                            plan.context.known.remove(name);
                            record.context.remove(name);
                        }
                        insert_missing_asks(&mut plan.program, &schemas, &known);
                        continue;
                    }
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
                Err(_) => {
                    let outcome = resolver.resolve(&mut plan).await;
                    if let Some(queries) = &queries {
                        record.llm = spent_before;
                        record.llm.add(&queries.usage().await);
                    }
                    match outcome {
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
                            let asked = (interaction, choices.as_slice());
                            return self
                                .ask(&skill, (record, version), plan, &schemas, asked)
                                .await;
                        }
                    }
                }
            }
        }
        Err(DalError::Precondition(
            "the plan keeps changing while being resolved".into(),
        ))
    }

    /// The plan needs the user: the asks of the call it stopped at (or the
    /// one interaction), with the items offered to pick from, written as the
    /// job's pause.
    async fn ask(
        &self,
        skill: &Arc<OperationalSkill>,
        (mut record, version): (JobRecord, u64),
        mut plan: adas_dia::Plan,
        schemas: &Schemas,
        (interaction, choices): (adas_dia::Interaction, &[Offered]),
    ) -> Result<(Next, StoredJob), DalError> {
        // Answers go through `fill` per field; the resolver's own pending slot is not used.
        plan.context.pending = None;
        let shown = |tool: &str| adas_skill::access::shows_errors(&skill.skill, tool);
        let interaction = plain_recovery(&plan.program, interaction, schemas, &shown);
        let asks = if interaction.kind == InteractionKind::Ask {
            let mut call_path = interaction.path.clone();
            call_path.0.pop();
            let asks = asks_of_call(&plan.program, &call_path, schemas);
            if asks.is_empty() {
                vec![interaction]
            } else {
                asks
            }
        } else {
            vec![interaction]
        };
        let mut waiting = build_waiting(record.waiting.take(), &asks, skill, schemas);
        adas_step::picked::offer(&mut waiting, choices);
        record.plan = Some(plan);
        let paused = Event::paused(
            waiting.reason_code,
            waiting.prompt_message.clone(),
            adas_step::PauseDetail::Asked {
                requested_fields: waiting.requested_fields.clone(),
                correlation_id: waiting.correlation_id.clone(),
            },
        );
        let version = self
            .repo
            .save(
                version,
                &mut record,
                Transition::pause(waiting.clone(), paused),
            )
            .await?;
        Ok((
            Next::Waiting(Box::new(waiting)),
            StoredJob { record, version },
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
        // Deterministic from the stored job: held for the caller's next write.
        record.plan = Some(plan);
        record.hold(Event::Resolved);
        Ok(version)
    }

    /// Refuses an answer that does not fit (`violations`, by field): says
    /// what is wrong in the person's terms and asks again, or hands the job
    /// to a human after the skill's `limit` of such answers in a row. The
    /// refusal, for the caller to return.
    async fn refuse(
        &self,
        mut record: JobRecord,
        version: u64,
        mut violations: Vec<(String, String)>,
        limit: u32,
    ) -> DalError {
        let Ok(waiting) = adas_step::machine::awaiting_answer(&record).cloned() else {
            return DalError::InvalidAnswers {
                violations,
                escalated: false,
            };
        };
        for (name, problem) in &mut violations {
            if let Some(field) = waiting.fields.iter().find(|field| &field.name == name) {
                *problem = adas_step::answers::in_plain_words(field, problem);
            }
        }
        let question: Vec<&str> = waiting
            .fields
            .iter()
            .map(|field| field.prompt.as_str())
            .filter(|prompt| !prompt.is_empty())
            .collect();
        let prompt = (!question.is_empty() && waiting.fields.len() == question.len()).then(|| {
            let refusals: Vec<&str> = violations.iter().map(|(_, why)| why.as_str()).collect();
            format!("{} {}", refusals.join(" "), question.join(" "))
        });
        let input = adas_step::machine::Input::AnswerRefused {
            violations: violations.len(),
            limit,
            prompt,
        };
        let transition = match adas_step::machine::apply(&mut record, input) {
            Ok(adas_step::machine::Applied::Write(transition)) => *transition,
            Ok(adas_step::machine::Applied::Unchanged) => {
                return DalError::InvalidAnswers {
                    violations,
                    escalated: false,
                };
            }
            Err(refused) => {
                return DalError::Precondition(format!("job {} {refused}", record.job_id));
            }
        };
        let escalated = waiting.reason_code != PauseReason::HumanTakeoverRequired
            && matches!(&transition.change, adas_step::Change::Pause { waiting, .. }
                if waiting.reason_code == PauseReason::HumanTakeoverRequired);
        if let Err(error) = self.repo.save(version, &mut record, transition).await {
            return error.into();
        }
        DalError::InvalidAnswers {
            violations,
            escalated,
        }
    }

    /// Applies `input` (an answer taken) to the job as read, and saves it.
    async fn answered(
        &self,
        mut record: JobRecord,
        version: u64,
        input: adas_step::machine::Input<'_>,
    ) -> Result<StoredJob, DalError> {
        let transition = match adas_step::machine::apply(&mut record, input) {
            Ok(adas_step::machine::Applied::Write(transition)) => *transition,
            Ok(adas_step::machine::Applied::Unchanged) => {
                return Ok(StoredJob { record, version });
            }
            Err(refused) => {
                return Err(DalError::Precondition(format!(
                    "job {} {refused}",
                    record.job_id
                )));
            }
        };
        // Across the human step: this call links to the job's trace, and the
        // job's next step back to this call.
        adas_runtime::telemetry::link_current(&record.trace_parent);
        record.resumed_by_trace = adas_runtime::telemetry::current_traceparent();
        let version = self.repo.save(version, &mut record, transition).await?;
        Ok(StoredJob { record, version })
    }

    /// Whether `record` took the answer of request `request_id` to the ask
    /// `correlation_id` with exactly `fields`: a duplicate that lost the race
    /// to its twin then answers with the job as it is, like a later retry.
    pub fn answered_by(
        record: &JobRecord,
        request_id: &str,
        correlation_id: &str,
        fields: &Map<String, Json>,
    ) -> bool {
        !request_id.is_empty()
            && record.audit.iter().any(|entry| {
                entry.action == "answer"
                    && entry.detail["request_id"] == request_id
                    && entry.detail["correlation_id"] == correlation_id
                    && entry.detail["fields"].as_object() == Some(fields)
            })
    }

    /// Validates the answers to the current ask against the skill and the
    /// tools' schemas, then has the lifecycle take them (the plan filled, the
    /// job re-queued) or refuse them — all or nothing. `record` is the job as
    /// read for the access check: the write compare-and-sets on it.
    pub async fn submit(
        &self,
        StoredJob { record, version }: StoredJob,
        correlation_id: &str,
        fields: &Map<String, Json>,
        submitted_by: &str,
        request_id: &str,
    ) -> Result<StoredJob, DalError> {
        let job_id = record.job_id.clone();
        let job_id = job_id.as_str();
        let waiting = adas_step::machine::awaiting_answer(&record)
            .map_err(|refused| DalError::Precondition(format!("job {job_id} {refused}")))?
            .clone();
        if correlation_id != waiting.correlation_id {
            return Err(DalError::StaleCorrelation {
                given: correlation_id.to_owned(),
            });
        }
        let skill = self.skill(&record).await?;
        let limit = skill.engine.max_invalid_answers;
        let mut plan = record.plan.clone();
        let mut violations = Vec::new();
        // A DIA reply stays open to API clients after a tool failure.
        let recovery = waiting.reason_code == PauseReason::ToolErrorRecovery;
        for name in fields.keys() {
            let allowed = waiting.requested_fields.contains(name) || (recovery && name == "reply");
            if !allowed {
                violations.push((name.clone(), "this field was not asked for".to_owned()));
            }
        }
        // Each answer as the skill reads its values ("it's tbk 22107"): what
        // fills the plan and stands as evidence; the audit keeps the words.
        let (read, misfits) = adas_step::answers::read_by_the_skill(
            &skill.skill,
            record
                .intent
                .as_ref()
                .map(|intent| intent.intent_id.as_str()),
            &waiting,
            fields,
        );
        let answer = adas_step::machine::Answer {
            correlation_id,
            fields,
            by: submitted_by,
            request_id,
        };
        let mut decided = decide(&waiting, fields);
        if waiting.reason_code == PauseReason::IntentClarificationRequired
            && matches!(decided, Some(Err(_)))
            && let Some(field) = waiting.fields.first()
            && let Some(Json::String(answer)) = fields.get(&field.name)
            && let Some(intent_id) = adas_step::answers::pick_by_meaning(
                &skill.skill,
                &field.options,
                answer,
                &record.goal,
            )
        {
            decided = Some(Ok(Decided::Intent(intent_id)));
        }
        match decided {
            Some(Ok(decided)) if violations.is_empty() => {
                let input = adas_step::machine::Input::AskAnswered {
                    skill: &skill,
                    decided,
                    answer: &answer,
                };
                return self.answered(record, version, input).await;
            }
            Some(Ok(_)) => {}
            Some(Err(problem)) => violations.push((waiting.fields[0].name.clone(), problem)),
            None => {
                let plan = plan
                    .as_mut()
                    .ok_or_else(|| DalError::Precondition(format!("job {job_id} has no plan")))?;
                violations.extend(misfits);
                violations.extend(fill_answers(plan, &waiting, &read));
                if violations.is_empty() {
                    let specs = self
                        .tools
                        .resolve(&adas_jobs::tool_request(&skill, &record.tenant))
                        .await
                        .unwrap_or_default();
                    violations.extend(answer_misfits(&skill, &specs.tools, plan, &waiting));
                }
            }
        }
        if !violations.is_empty() {
            return Err(self.refuse(record, version, violations, limit).await);
        }
        let input = adas_step::machine::Input::AnswersAccepted {
            answer: &answer,
            read: &read,
            plan,
        };
        self.answered(record, version, input).await
    }
}

/// A field with several items that fit, each id with its label.
type Offered = (String, Vec<(Json, String)>);

/// What the job knows: its context, then what the plan learned.
fn known_values(
    record: &JobRecord,
    plan: &adas_dia::Plan,
) -> std::collections::BTreeMap<String, Json> {
    let mut known: std::collections::BTreeMap<String, Json> = record
        .context
        .iter()
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    for (name, value) in &plan.context.known {
        known.entry(name.clone()).or_insert_with(|| value.clone());
    }
    known
}

/// Fills the plan's open ids the user named by an earlier result's words;
/// returns the fields with several items to offer.
fn pick_named(
    record: &mut JobRecord,
    plan: &mut adas_dia::Plan,
    skill: &OperationalSkill,
) -> Vec<Offered> {
    // An id the user named by its item's words ("my 2pm with Dave"),
    // from an earlier result: one item fits — picked (and confirmed
    // before a side effect), several — offered when asked.
    let mut picked = std::collections::BTreeMap::new();
    let mut choices = Vec::new();
    let mut items = Vec::new();
    for name in adas_step::picked::open_fields(&plan.program) {
        match adas_step::picked::choose(record, &name, &record.goal) {
            Some(adas_step::picked::Choice::One(value, item)) => {
                adas_step::picked::remember(record, &name, &value);
                picked.insert(name.clone(), value);
                items.push((name, item));
            }
            Some(adas_step::picked::Choice::Several(offered)) => choices.push((name, offered)),
            None => {}
        }
    }
    adas_dia::fill_known_asks(&mut plan.program, &picked);
    for (name, item) in &items {
        adas_step::picked::keep_length(&mut plan.program, &skill.skill.tools, (name, item));
    }
    choices
}
