//! The step engine: what a worker's step consults — planning, the DAL-Agent's
//! next step, the pre-tool gate, finalization and polishing — in domain
//! terms (`adas_step::effect`, `adas_step::guard::GateWord`).
//!
//! [`Local`] runs them in the worker's own process over the shared crates the
//! services serve (`adas_nlu`, `adas_policy`, [`crate::dal`]), on the copy
//! of the job the worker holds: a step costs no network hop, no reload and
//! no conversion. [`Remote`] calls IntentService, DalAgentService and
//! GateService instead (`--step-engine remote`), for a deployment that wants
//! its enforcement point in another process; it answers the same, at the
//! cost of the hops, converting at its edge (`adas_wire::rpc`).

use std::sync::Arc;

use adas_jobs::{JobError, JobRecord, StoredJob, Transition};
use adas_nlu::Planner;
use adas_policy::llm::{FinalizationJudge, Polisher};
use adas_proto::pb;
use adas_proto::pb::dal_agent_service_client::DalAgentServiceClient;
use adas_proto::pb::gate_service_client::GateServiceClient;
use adas_proto::pb::intent_service_client::IntentServiceClient;
use adas_runtime::auth::AuthChannel as Channel;
use adas_runtime::convert::{json_to_struct, struct_to_json};
use adas_skill::OperationalSkill;
use adas_state::{StateError, StateStore};
use adas_step::effect::{FinalizeAsk, Judged, PlanAsk, Planned, PolishAsk, Polished};
use adas_step::guard::GateWord;
use serde_json::{Map, Value as Json};

use crate::dal::{DalAgent, DalError};
use crate::error::WorkError;

pub use crate::dal::Next;

/// The engines behind a step.
#[tonic::async_trait]
pub trait Engine: Send + Sync + std::fmt::Debug {
    /// Whether plans are made in this process (the lexicon is loaded before
    /// the first job is claimed).
    fn plans_here(&self) -> bool {
        false
    }
    /// A plan (or the next step of one) for the job.
    async fn plan(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        ask: PlanAsk,
    ) -> Result<Planned, WorkError>;
    /// The next call, ask or end of the plan; the job as it stands after (a
    /// change held on the record when in process, else written).
    async fn resolve_next(
        &self,
        skill: &Arc<OperationalSkill>,
        job: StoredJob,
    ) -> Result<(Next, StoredJob), WorkError>;
    /// The pre-tool gate on `tool(args)` for the job; `fresh`: on the
    /// skill's current policy as read now, not as a version held here (the
    /// call's start found that version no longer current).
    async fn check_tool_call(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        (tool, args): (&str, &Map<String, Json>),
        fresh: bool,
    ) -> Result<GateWord, WorkError>;
    /// The finalization gate on a draft reply.
    async fn finalize(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        ask: FinalizeAsk,
    ) -> Result<Judged, WorkError>;
    /// The reply in the skill's persona.
    async fn polish_reply(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        ask: PolishAsk,
    ) -> Result<Polished, WorkError>;
}

fn conflict(record: &JobRecord, expected: u64) -> WorkError {
    WorkError::Job(JobError::Store(StateError::VersionConflict {
        what: format!("job {}/{}", record.slag, record.job_id),
        expected,
        actual: 0,
    }))
}

fn work_error(error: DalError) -> WorkError {
    match error {
        DalError::Job(error) => WorkError::Job(error),
        DalError::Skill(error) => WorkError::Skill(error),
        other => WorkError::Plan(other.to_string()),
    }
}

fn job_name(record: &JobRecord) -> String {
    adas_wire::job_name(&record.slag, &record.job_id)
}

/// The engines in this process.
pub struct Local {
    planner: Arc<dyn Planner>,
    dal: DalAgent,
    store: Arc<dyn StateStore>,
    judge: Arc<dyn FinalizationJudge>,
    polisher: Arc<dyn Polisher>,
}

impl std::fmt::Debug for Local {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("Local").finish_non_exhaustive()
    }
}

impl Local {
    /// The engines over `dal`'s store, with the models `llm` configures (none:
    /// the deterministic ones).
    pub fn new(dal: DalAgent, llm: Option<adas_llm::Llm>) -> Self {
        let (judge, polisher) = adas_policy::llm::judge_and_polisher(llm.clone());
        Self {
            planner: crate::planner(llm.clone()),
            store: dal.repo().store().clone(),
            dal: dal.with_queries(llm.map(crate::query::QueryModel::new)),
            judge,
            polisher,
        }
    }
}

#[tonic::async_trait]
impl Engine for Local {
    fn plans_here(&self) -> bool {
        true
    }

    async fn plan(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        ask: PlanAsk,
    ) -> Result<Planned, WorkError> {
        let history: Vec<adas_nlu::Step> = record
            .calls
            .iter()
            .map(|call| adas_nlu::Step {
                tool: call.tool.clone(),
                arguments: call.arguments.clone(),
                output: call.output.clone(),
                is_error: call.is_error,
            })
            .collect();
        let personal = adas_step::personal_values(record);
        let input = adas_nlu::PlanInput {
            memory: Some(&record.memory),
            previous_intent: (!record.previous_intent.is_empty())
                .then_some(record.previous_intent.as_str()),
            message: &record.goal,
            context: &record.context,
            intent: ask.intent_id.as_deref(),
            next_only: ask.next_only,
            history: if ask.next_only { &history } else { &[] },
            feedback: ask.feedback.as_deref(),
            tokens_spent: record.llm.tokens(),
            personal: &personal,
        };
        let planned = adas_nlu::plan_checked(self.planner.as_ref(), &skill.skill, &input)
            .await
            .map_err(|error| {
                WorkError::Plan(format!("the planner produced an invalid plan: {error}"))
            })?;
        planned_decider(&planned).count();
        Ok(planned)
    }

    async fn resolve_next(
        &self,
        skill: &Arc<OperationalSkill>,
        job: StoredJob,
    ) -> Result<(Next, StoredJob), WorkError> {
        let tools = adas_jobs::tool_request(skill, &job.record.tenant);
        self.dal
            .resolve_held(skill, job, &tools)
            .await
            .map_err(work_error)
    }

    async fn check_tool_call(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        (tool, args): (&str, &Map<String, Json>),
        fresh: bool,
    ) -> Result<GateWord, WorkError> {
        let (newer, policy) = self
            .dal
            .newer_for_gate(record, fresh)
            .await
            .map_err(work_error)?;
        let decision = adas_policy::gate::check_for_job(
            self.store.as_ref(),
            (skill, newer.as_deref()),
            Some(record),
            tool,
            args,
        )
        .await?;
        Ok(GateWord {
            policy,
            ..adas_wire::rpc::gate_word(decision)
        })
    }

    async fn finalize(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        ask: FinalizeAsk,
    ) -> Result<Judged, WorkError> {
        let draft = adas_policy::finalize::Draft {
            reply: ask.reply,
            results: ask.results,
            intent_id: ask.intent_id,
            succeeded_tools: ask.succeeded_tools,
            goal: record.goal.clone(),
            tokens_spent: record.llm.tokens(),
            personal: adas_step::personal_values(record),
        };
        let (verdict, decider) =
            adas_policy::llm::finalize(self.judge.as_ref(), skill, &draft).await;
        decider.count();
        Ok(adas_wire::rpc::judged(verdict, decider))
    }

    async fn polish_reply(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        ask: PolishAsk,
    ) -> Result<Polished, WorkError> {
        let draft = adas_policy::llm::ReplyDraft {
            reply: &ask.reply,
            results: &ask.results,
            resources: &record.resources,
            waited: ask.user_waited,
            tokens_spent: record.llm.tokens(),
            personal: &adas_step::personal_values(record),
        };
        let (text, decider) =
            adas_policy::llm::polish_as(self.polisher.as_ref(), skill, draft).await;
        decider.count();
        Ok(Polished { text, decider })
    }
}

fn planned_decider(planned: &Planned) -> adas_llm::Decider {
    adas_llm::Decider {
        by: planned.planner.clone(),
        usage: planned.usage,
        fallback: planned.fallback.clone(),
    }
}

/// The engines behind the services' gRPC APIs.
#[derive(Debug, Clone)]
pub struct Remote {
    /// IntentService.
    pub intent: IntentServiceClient<Channel>,
    /// DalAgentService.
    pub dal: DalAgentServiceClient<Channel>,
    /// GateService.
    pub gate: GateServiceClient<Channel>,
    /// To reload a job DalAgent wrote.
    pub repo: adas_jobs::JobRepo,
}

fn for_job<T>(record: &JobRecord, message: T) -> tonic::Request<T> {
    adas_runtime::auth::for_job((&record.tenant, &record.skill_etag), message)
}

#[tonic::async_trait]
impl Engine for Remote {
    async fn plan(
        &self,
        _skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        ask: PlanAsk,
    ) -> Result<Planned, WorkError> {
        let request = pb::PlanRequest {
            skill: format!("skills/{}", record.slag),
            message: record.goal.clone(),
            context: Some(json_to_struct(&Json::Object(record.context.clone()))),
            conversation: (!record.memory.is_empty())
                .then(|| json_to_struct(&Json::Object(record.memory.clone()))),
            previous_intent_id: record.previous_intent.clone(),
            job: job_name(record),
            intent_id: ask.intent_id.unwrap_or_default(),
            next_only: ask.next_only,
            history: if ask.next_only {
                adas_wire::tool_calls(record)
            } else {
                Vec::new()
            },
            feedback: ask.feedback.unwrap_or_default(),
        };
        let response = self
            .intent
            .clone()
            .plan(for_job(record, request))
            .await?
            .into_inner();
        adas_wire::rpc::planned_of(response).map_err(|error| {
            WorkError::Plan(format!("the planner produced an invalid plan: {error}"))
        })
    }

    async fn resolve_next(
        &self,
        _skill: &Arc<OperationalSkill>,
        mut job: StoredJob,
    ) -> Result<(Next, StoredJob), WorkError> {
        // DalAgent reads the stored job: what the worker holds is written
        // first (the pickup, a deterministic plan, a call's end).
        job.version = self
            .repo
            .flush(job.version, &mut job.record, Transition::run(Vec::new()))
            .await?;
        let resolved = self
            .dal
            .clone()
            .resolve_next(for_job(
                &job.record,
                pb::ResolveNextRequest {
                    job: job_name(&job.record),
                    expected_version: job.version as i64,
                    // Only the version is read: the full job would be converted,
                    // sent and decoded on every step for nothing.
                    view: pb::JobView::Basic as i32,
                },
            ))
            .await;
        let resolved = match resolved {
            Ok(response) => response.into_inner(),
            Err(status) if status.code() == tonic::Code::Aborted => {
                return Err(conflict(&job.record, job.version));
            }
            Err(status) => return Err(status.into()),
        };
        // DalAgent writes the job only when resolving changed the plan; an
        // unchanged version means our copy is current and needs no reload.
        let resolved_version = resolved.job.as_ref().map_or(0, |job| job.version as u64);
        let job = if resolved_version == job.version {
            job
        } else {
            self.repo.load(&job.record.slag, &job.record.job_id).await?
        };
        let next = match resolved.next {
            Some(pb::resolve_next_response::Next::Call(call)) => Next::Call {
                tool: call.tool,
                args: call
                    .arguments
                    .as_ref()
                    .map(struct_to_json)
                    .unwrap_or_default(),
                path: serde_json::from_str(&call.call_path)
                    .map_err(|error| WorkError::Plan(error.to_string()))?,
            },
            Some(pb::resolve_next_response::Next::Waiting(_)) => match &job.record.waiting {
                Some(waiting) => Next::Waiting(Box::new(waiting.clone())),
                None => return Err(WorkError::Plan("DalAgent paused without an ask".into())),
            },
            Some(pb::resolve_next_response::Next::Done(_)) => Next::Done(None),
            Some(pb::resolve_next_response::Next::Aborted(aborted)) => {
                Next::Aborted(aborted.reason)
            }
            None => return Err(WorkError::Plan("DalAgent returned nothing to do".into())),
        };
        Ok((next, job))
    }

    /// GateService reads the skill's current policy for every call: the
    /// word stands on no version held here.
    async fn check_tool_call(
        &self,
        _skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        (tool, args): (&str, &Map<String, Json>),
        _fresh: bool,
    ) -> Result<GateWord, WorkError> {
        let decision = self
            .gate
            .clone()
            .check_tool_call(for_job(
                record,
                pb::CheckToolCallRequest {
                    skill: format!("skills/{}", record.slag),
                    job: job_name(record),
                    tool: tool.to_owned(),
                    arguments: Some(json_to_struct(&Json::Object(args.clone()))),
                    context: Some(json_to_struct(&Json::Object(record.context.clone()))),
                },
            ))
            .await?
            .into_inner();
        Ok(adas_wire::rpc::gate_word_of(decision))
    }

    async fn finalize(
        &self,
        _skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        ask: FinalizeAsk,
    ) -> Result<Judged, WorkError> {
        let request = pb::FinalizeRequest {
            skill: format!("skills/{}", record.slag),
            goal: record.goal.clone(),
            draft_reply: ask.reply,
            results: Some(json_to_struct(&Json::Object(ask.results))),
            intent_id: ask.intent_id,
            succeeded_tools: ask.succeeded_tools,
            job: job_name(record),
        };
        let result = self
            .gate
            .clone()
            .finalize(for_job(record, request))
            .await?
            .into_inner();
        Ok(adas_wire::rpc::judged_of(result))
    }

    async fn polish_reply(
        &self,
        _skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        ask: PolishAsk,
    ) -> Result<Polished, WorkError> {
        let request = pb::PolishReplyRequest {
            skill: format!("skills/{}", record.slag),
            reply: ask.reply,
            results: Some(json_to_struct(&Json::Object(ask.results))),
            resources: record.resources.clone().into_iter().collect(),
            user_waited: ask.user_waited,
            job: job_name(record),
        };
        let response = self
            .gate
            .clone()
            .polish_reply(for_job(record, request))
            .await?
            .into_inner();
        Ok(adas_wire::rpc::polished_of(response))
    }
}
