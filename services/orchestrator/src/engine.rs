//! The engines a worker's step consults: planning, the DAL-Agent's next step,
//! the pre-tool gate, finalization and polishing.
//!
//! [`Local`] runs them in the worker's own process over the shared crates the
//! services serve (`adas_wire::engine`, `adas_jobs::dal`), on the copy of the
//! job the worker holds: a step costs no network hop and no reload. [`Remote`]
//! calls IntentService, DalAgentService and GateService instead
//! (`--step-engine remote`), for a deployment that wants its enforcement point
//! in another process; it answers the same, at the cost of the hops.

use std::sync::Arc;

use adas_jobs::dal::{DalAgent, DalError};
use adas_jobs::{JobError, JobRecord, StoredJob};
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
use serde_json::{Map, Value as Json};

use crate::worker::WorkError;

/// What the plan asks for next.
#[derive(Debug)]
pub enum Next {
    /// Run this call (at `path` in the plan).
    Call {
        /// The tool.
        tool: String,
        /// Its arguments.
        args: Map<String, Json>,
        /// Where the call sits in the plan.
        path: adas_dia::SlotPath,
    },
    /// The job paused on an ask (already written).
    Waiting,
    /// Nothing left to call.
    Done,
    /// The user aborted the plan.
    Aborted(String),
}

/// The engines behind a step.
#[tonic::async_trait]
pub trait Engine: Send + Sync + std::fmt::Debug {
    /// Whether steps run on the worker's own copy of the job (events held on
    /// it ride with the next write); a remote engine reads the stored job.
    fn in_process(&self) -> bool {
        false
    }
    /// A plan (or the next step of one) for the job.
    async fn plan(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        request: pb::PlanRequest,
    ) -> Result<pb::PlanResponse, WorkError>;
    /// The next call, ask or end of the plan; the job as it stands after (a
    /// change held on the record when in process, else written).
    async fn resolve_next(
        &self,
        skill: &Arc<OperationalSkill>,
        job: StoredJob,
    ) -> Result<(Next, StoredJob), WorkError>;
    /// The pre-tool gate on `tool(args)` for the job.
    async fn check_tool_call(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        tool: &str,
        args: &Map<String, Json>,
    ) -> Result<pb::GateDecision, WorkError>;
    /// The finalization gate on a draft reply.
    async fn finalize(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        request: pb::FinalizeRequest,
    ) -> Result<pb::FinalizationResult, WorkError>;
    /// The reply in the skill's persona.
    async fn polish_reply(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        request: pb::PolishReplyRequest,
    ) -> Result<pb::PolishReplyResponse, WorkError>;
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
            planner: adas_nlu::planner(llm.clone()),
            store: dal.repo().store().clone(),
            dal: dal.with_llm(llm),
            judge,
            polisher,
        }
    }
}

#[tonic::async_trait]
impl Engine for Local {
    async fn plan(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        request: pb::PlanRequest,
    ) -> Result<pb::PlanResponse, WorkError> {
        adas_wire::engine::plan(self.planner.as_ref(), skill, &request, record.llm.tokens())
            .await
            .map_err(|error| {
                WorkError::Plan(format!("the planner produced an invalid plan: {error}"))
            })
    }

    fn in_process(&self) -> bool {
        true
    }

    async fn resolve_next(
        &self,
        skill: &Arc<OperationalSkill>,
        job: StoredJob,
    ) -> Result<(Next, StoredJob), WorkError> {
        let tools = adas_jobs::tool_request(skill, &job.record.tenant);
        let (next, stored) = self
            .dal
            .resolve_held(skill, job, &tools)
            .await
            .map_err(work_error)?;
        let next = match next {
            adas_jobs::dal::Next::Call { tool, args, path } => Next::Call { tool, args, path },
            adas_jobs::dal::Next::Waiting(_) => Next::Waiting,
            adas_jobs::dal::Next::Done(_) => Next::Done,
            adas_jobs::dal::Next::Aborted(reason) => Next::Aborted(reason),
        };
        Ok((next, stored))
    }

    async fn check_tool_call(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        tool: &str,
        args: &Map<String, Json>,
    ) -> Result<pb::GateDecision, WorkError> {
        let newer = self.dal.newer_skill(record).await.map_err(work_error)?;
        Ok(adas_wire::engine::check_tool_call(
            self.store.as_ref(),
            (skill, newer.as_deref()),
            Some(record),
            tool,
            args,
        )
        .await?)
    }

    async fn finalize(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        request: pb::FinalizeRequest,
    ) -> Result<pb::FinalizationResult, WorkError> {
        let spent = record.llm.tokens();
        Ok(adas_wire::engine::finalize(self.judge.as_ref(), skill, request, spent).await)
    }

    async fn polish_reply(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        request: pb::PolishReplyRequest,
    ) -> Result<pb::PolishReplyResponse, WorkError> {
        let spent = record.llm.tokens();
        Ok(adas_wire::engine::polish_reply(self.polisher.as_ref(), skill, request, spent).await)
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
        request: pb::PlanRequest,
    ) -> Result<pb::PlanResponse, WorkError> {
        Ok(self
            .intent
            .clone()
            .plan(for_job(record, request))
            .await?
            .into_inner())
    }

    async fn resolve_next(
        &self,
        _skill: &Arc<OperationalSkill>,
        job: StoredJob,
    ) -> Result<(Next, StoredJob), WorkError> {
        let resolved = self
            .dal
            .clone()
            .resolve_next(for_job(
                &job.record,
                pb::ResolveNextRequest {
                    job: adas_wire::job_name(&job.record.slag, &job.record.job_id),
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
            Some(pb::resolve_next_response::Next::Waiting(_)) => Next::Waiting,
            Some(pb::resolve_next_response::Next::Done(_)) => Next::Done,
            Some(pb::resolve_next_response::Next::Aborted(aborted)) => {
                Next::Aborted(aborted.reason)
            }
            None => return Err(WorkError::Plan("DalAgent returned nothing to do".into())),
        };
        Ok((next, job))
    }

    async fn check_tool_call(
        &self,
        _skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        tool: &str,
        args: &Map<String, Json>,
    ) -> Result<pb::GateDecision, WorkError> {
        Ok(self
            .gate
            .clone()
            .check_tool_call(for_job(
                record,
                pb::CheckToolCallRequest {
                    skill: format!("skills/{}", record.slag),
                    job: adas_wire::job_name(&record.slag, &record.job_id),
                    tool: tool.to_owned(),
                    arguments: Some(json_to_struct(&Json::Object(args.clone()))),
                    context: Some(json_to_struct(&Json::Object(record.context.clone()))),
                },
            ))
            .await?
            .into_inner())
    }

    async fn finalize(
        &self,
        _skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        request: pb::FinalizeRequest,
    ) -> Result<pb::FinalizationResult, WorkError> {
        Ok(self
            .gate
            .clone()
            .finalize(for_job(record, request))
            .await?
            .into_inner())
    }

    async fn polish_reply(
        &self,
        _skill: &Arc<OperationalSkill>,
        record: &JobRecord,
        request: pb::PolishReplyRequest,
    ) -> Result<pb::PolishReplyResponse, WorkError> {
        Ok(self
            .gate
            .clone()
            .polish_reply(for_job(record, request))
            .await?
            .into_inner())
    }
}
