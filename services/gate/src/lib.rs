//! adas-gate: GateService — the pre-tool gate with approvals bound to the exact
//! call, the finalization gate and the reply polisher. Decisions are made by
//! `adas-policy`; approval requests and decisions are set-once records in the
//! state store, scoped to the job.

use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use adas_catalog::Catalog;
use adas_jobs::JobError;
use adas_policy::gate::{ApprovalBook, ApprovalChoice, ApprovalError, ApprovalRecord, Approver};
use adas_policy::llm::{FinalizationJudge, Polisher};
use adas_proto::pb;
use adas_proto::pb::gate_service_server::{GateService, GateServiceServer};
use adas_runtime::convert::{json_to_struct, struct_to_json};
use adas_runtime::{FieldViolation, status_with_details};
use adas_skill::slag::{parse_job_name, parse_skill_name};
use adas_skill::{OperationalSkill, SkillError};
use adas_state::{StateError, StateStore};
use tonic::{Code, Request, Response, Status};

/// The most an approver's comment may hold, in bytes.
pub const MAX_COMMENT_BYTES: usize = 4 * 1024;

/// Errors of GateService.
#[derive(Debug, thiserror::Error)]
pub enum GateError {
    /// A request field is invalid.
    #[error("{field}: {reason}")]
    InvalidField {
        /// The field.
        field: &'static str,
        /// Why.
        reason: String,
    },
    /// The skill could not be loaded.
    #[error(transparent)]
    Skill(#[from] SkillError),
    /// An approval operation failed.
    #[error(transparent)]
    Approval(#[from] ApprovalError),
    /// The job a request names.
    #[error(transparent)]
    Job(#[from] JobError),
    /// A platform failure.
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<GateError> for Status {
    fn from(error: GateError) -> Self {
        let message = error.to_string();
        match error {
            GateError::InvalidField { field, reason } => status_with_details(
                Code::InvalidArgument,
                "INVALID_FIELD",
                message,
                &[FieldViolation::new(field, reason)],
            ),
            GateError::Skill(error) => adas_wire::skill_status(&error, "skill"),
            GateError::Approval(ApprovalError::UnknownRequest { .. }) => status_with_details(
                Code::NotFound,
                "APPROVAL_NOT_FOUND",
                message,
                &[FieldViolation::new(
                    "correlation_id",
                    "no pending approval with this id for the job",
                )],
            ),
            GateError::Approval(ApprovalError::WrongApprover { .. }) => {
                status_with_details(Code::PermissionDenied, "WRONG_APPROVER", message, &[])
            }
            GateError::Approval(ApprovalError::SelfApproval(_)) => {
                status_with_details(Code::PermissionDenied, "SELF_APPROVAL", message, &[])
            }
            GateError::Approval(ApprovalError::AlreadyDecided(_)) => {
                status_with_details(Code::FailedPrecondition, "ALREADY_DECIDED", message, &[])
            }
            GateError::Approval(ApprovalError::Store(store)) => {
                let code = if store.is_unavailable() {
                    Code::Unavailable
                } else {
                    Code::Internal
                };
                status_with_details(code, "STATE_STORE", message, &[])
            }
            GateError::Job(error) => adas_wire::job_error_status(&error),
            GateError::Internal(_) => status_with_details(Code::Internal, "INTERNAL", message, &[]),
        }
    }
}

impl From<StateError> for GateError {
    fn from(error: StateError) -> Self {
        Self::Approval(ApprovalError::Store(error))
    }
}

/// The GateService implementation.
#[derive(Clone)]
pub struct Gate {
    catalog: Arc<Catalog>,
    store: Arc<dyn StateStore>,
    jobs: adas_jobs::JobRepo,
    judge: Arc<dyn FinalizationJudge>,
    polisher: Arc<dyn Polisher>,
}

impl std::fmt::Debug for Gate {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("Gate").finish_non_exhaustive()
    }
}

impl Gate {
    /// A gate over a skill catalog and job storage, with a judge and a polisher.
    pub fn new(
        catalog: Arc<Catalog>,
        jobs: adas_jobs::JobRepo,
        judge: Arc<dyn FinalizationJudge>,
        polisher: Arc<dyn Polisher>,
    ) -> Self {
        Self {
            catalog,
            store: jobs.store().clone(),
            jobs,
            judge,
            polisher,
        }
    }

    /// The gate with the deterministic judge and polisher.
    pub fn deterministic(catalog: Arc<Catalog>, jobs: adas_jobs::JobRepo) -> Self {
        Self::with_llm(catalog, jobs, None)
    }

    /// The gate with the model judge and polisher when models are configured
    /// (each falls back to the deterministic one call by call), else the
    /// deterministic ones.
    pub fn with_llm(
        catalog: Arc<Catalog>,
        jobs: adas_jobs::JobRepo,
        llm: Option<adas_llm::Llm>,
    ) -> Self {
        let (judge, polisher) = adas_policy::llm::judge_and_polisher(llm);
        Self::new(catalog, jobs, judge, polisher)
    }

    /// Resumes (approve) or fails (reject) the job paused on this approval.
    async fn apply_decision(&self, slag: &str, record: &ApprovalRecord) -> Result<(), GateError> {
        for _ in 0..5 {
            let mut stored = match self.jobs.load(slag, &record.request.job_id).await {
                Ok(stored) => stored,
                // Approvals may be asked for calls outside jobs the orchestrator tracks.
                Err(JobError::NotFound { .. }) => return Ok(()),
                Err(error) => return Err(GateError::Internal(error.to_string())),
            };
            let decision = adas_step::machine::Decision {
                correlation_id: record.request.correlation_id.clone(),
                approved: record.decision == ApprovalChoice::Approve,
                approver: record.decided_by.clone(),
                role: record.request.approver.clone(),
                tool: record.request.tool.clone(),
                call_digest: record.request.call_digest.clone(),
                comment: record.comment.clone(),
            };
            let job = &mut stored.record;
            let input = adas_step::machine::Input::ApprovalDecided(&decision);
            let transition = match adas_step::machine::apply(job, input) {
                Ok(adas_step::machine::Applied::Write(transition)) => *transition,
                // No longer waiting on this approval: nothing to resume.
                Ok(adas_step::machine::Applied::Unchanged) | Err(_) => return Ok(()),
            };
            // Across the human step: the decision links to the job's trace,
            // and the job's next step back to the decision.
            adas_runtime::telemetry::link_current(&job.trace_parent);
            job.resumed_by_trace = adas_runtime::telemetry::current_traceparent();
            match self.jobs.save(stored.version, job, transition).await {
                Ok(_) => return Ok(()),
                Err(JobError::Store(StateError::VersionConflict { .. })) => continue,
                Err(error) => return Err(GateError::Internal(error.to_string())),
            }
        }
        Err(GateError::Internal(
            "the job kept changing while the decision was applied".into(),
        ))
    }

    /// The tonic service, with the configured message size limit in both directions.
    pub fn into_service(self, max_message_bytes: usize) -> GateServiceServer<Self> {
        GateServiceServer::new(self)
            // gzip both ways: a client may send compressed, and gets compressed answers when it offers.
            .accept_compressed(tonic::codec::CompressionEncoding::Gzip)
            .send_compressed(tonic::codec::CompressionEncoding::Gzip)
            .max_decoding_message_size(max_message_bytes)
            .max_encoding_message_size(max_message_bytes)
    }

    /// The skill, at the version the calling job started with (if a job's).
    async fn skill(
        &self,
        (tenant, version): (&str, &str),
        slag: String,
    ) -> Result<Arc<OperationalSkill>, GateError> {
        self.catalog
            .for_tenant(tenant)?
            .get_version_async(&slag, version)
            .await
            .map_err(GateError::from)
    }
}

fn skill_slag(name: &str) -> Result<String, GateError> {
    parse_skill_name(name).map_err(|reason| GateError::InvalidField {
        field: "skill",
        reason,
    })
}

fn timestamp(ms: u64) -> prost_types::Timestamp {
    prost_types::Timestamp::from(UNIX_EPOCH + Duration::from_millis(ms))
}

fn approval(slag: &str, record: &ApprovalRecord) -> pb::Approval {
    let request = &record.request;
    pb::Approval {
        name: format!(
            "skills/{slag}/jobs/{}/approvals/{}",
            request.job_id, request.correlation_id
        ),
        correlation_id: request.correlation_id.clone(),
        job: format!("skills/{slag}/jobs/{}", request.job_id),
        tool: request.tool.clone(),
        arguments: Some(json_to_struct(&serde_json::Value::Object(
            request.arguments.clone(),
        ))),
        call_digest: request.call_digest.clone(),
        approver: request.approver.clone(),
        reason: request.reason.clone(),
        condition: request.condition.clone(),
        decision: match record.decision {
            ApprovalChoice::Approve => pb::ApprovalDecision::Approve,
            ApprovalChoice::Reject => pb::ApprovalDecision::Reject,
        } as i32,
        decided_by: record.decided_by.clone(),
        comment: record.comment.clone(),
        request_time: Some(timestamp(request.requested_at_ms)),
        decide_time: Some(timestamp(record.decided_at_ms)),
    }
}

#[tonic::async_trait]
impl GateService for Gate {
    async fn check_tool_call(
        &self,
        request: Request<pb::CheckToolCallRequest>,
    ) -> Result<Response<pb::GateDecision>, Status> {
        let principal = adas_runtime::principal(&request)?;
        let tenant = adas_runtime::auth::tenant(&request)?;
        let version = adas_runtime::auth::skill_version(&request);
        let request = request.into_inner();
        let slag = skill_slag(&request.skill)?;
        if request.tool.trim().is_empty() {
            return Err(GateError::InvalidField {
                field: "tool",
                reason: "a tool name is required".into(),
            }
            .into());
        }
        // Naming a job records an approval request against it: only the
        // suite's own step does, for a job of the tenant it acts for, judged
        // by the skill version that job started with.
        let job = if request.job.is_empty() {
            None
        } else {
            principal.require_service()?;
            let (job_slag, job_id) =
                parse_job_name(&request.job).map_err(|reason| GateError::InvalidField {
                    field: "job",
                    reason,
                })?;
            if job_slag != slag {
                return Err(GateError::InvalidField {
                    field: "job",
                    reason: format!("the job belongs to skill `{job_slag}`, not `{slag}`"),
                }
                .into());
            }
            let stored = self
                .jobs
                .load(&slag, &job_id)
                .await
                .map_err(GateError::from)?;
            adas_runtime::auth::check_job_tenant(&tenant, principal.dev, &stored.record)?;
            Some(stored.record)
        };
        let version = job
            .as_ref()
            .map_or(version, |record| record.skill_etag.clone());
        let skill = self.skill((&tenant, &version), slag.clone()).await?;
        // A job's pending call also meets the skill in service now, if stricter.
        let newer = match &job {
            Some(_) => Some(self.skill((&tenant, ""), slag.clone()).await?)
                .filter(|current| current.etag != skill.etag),
            None => None,
        };
        let args = request
            .arguments
            .as_ref()
            .map(struct_to_json)
            .unwrap_or_default();
        let decision = adas_wire::rpc::check_tool_call(
            self.store.as_ref(),
            (&skill, newer.as_deref()),
            job.as_ref(),
            &request.tool,
            &args,
        )
        .await
        .map_err(GateError::from)?;
        Ok(adas_runtime::reply(decision))
    }

    async fn decide_approval(
        &self,
        request: Request<pb::DecideApprovalRequest>,
    ) -> Result<Response<pb::Approval>, Status> {
        // Who decides is who is authenticated; the request cannot name anyone.
        let principal = adas_runtime::principal(&request)?;
        let request = request.into_inner();
        let (slag, job_id) =
            parse_job_name(&request.job).map_err(|reason| GateError::InvalidField {
                field: "job",
                reason,
            })?;
        let choice = match pb::ApprovalDecision::try_from(request.decision)
            .unwrap_or(pb::ApprovalDecision::Unspecified)
        {
            pb::ApprovalDecision::Approve => ApprovalChoice::Approve,
            pb::ApprovalDecision::Reject => ApprovalChoice::Reject,
            pb::ApprovalDecision::Unspecified => {
                return Err(GateError::InvalidField {
                    field: "decision",
                    reason: "APPROVE or REJECT is required".into(),
                }
                .into());
            }
        };
        if request.correlation_id.trim().is_empty() {
            return Err(GateError::InvalidField {
                field: "correlation_id",
                reason: "the approval request's correlation id is required".into(),
            }
            .into());
        }
        // The reason travels into the job's events, its audit and every
        // page that shows them: bounded like any text a job keeps.
        if request.comment.len() > MAX_COMMENT_BYTES {
            return Err(GateError::InvalidField {
                field: "comment",
                reason: format!(
                    "{} bytes; the limit is {MAX_COMMENT_BYTES}",
                    request.comment.len()
                ),
            }
            .into());
        }
        // Approvals are asked only for jobs: a job that does not exist (or is
        // another tenant's) has no approval to decide.
        // Who took part in the call is judged now, on the job as it stands:
        // whoever supplied one of its values after the request was recorded
        // took part too (four eyes).
        let (owner, took_part, personal) = match self.jobs.load(&slag, &job_id).await {
            Ok(stored) => {
                adas_runtime::auth::check_job_tenant(
                    &principal.tenant,
                    principal.dev,
                    &stored.record,
                )?;
                let took_part = stored
                    .record
                    .waiting
                    .as_ref()
                    .and_then(|waiting| waiting.approval.as_ref())
                    .map(|approval| {
                        adas_step::certainty::took_part(
                            &stored.record,
                            &approval.arguments,
                            &approval.call_digest,
                        )
                    })
                    .unwrap_or_default();
                let personal = adas_step::personal_values(&stored.record);
                (stored.record.owner, took_part, personal)
            }
            Err(error) => return Err(GateError::from(error).into()),
        };
        let holds_role = |role: &str| principal.has_role(role);
        let decider = Approver {
            name: &principal.name,
            holds_role: &holds_role,
            // Dev mode has one principal for everyone: nothing to separate.
            owns_job: !principal.dev && principal.name == owner,
            four_eyes: !principal.dev,
            took_part: &took_part,
        };
        let record = ApprovalBook::new(self.store.as_ref())
            .decide(
                &slag,
                &job_id,
                &request.correlation_id,
                &decider,
                choice,
                &request.comment,
            )
            .await
            .map_err(GateError::from)?;
        self.apply_decision(&slag, &record).await?;
        // The decision is a message made of the job: its personal values
        // (an injected grant's) are shown masked, its digest keyed.
        Ok(adas_runtime::reply(adas_wire::personal::mask(
            approval(&slag, &record),
            "adas.v1.Approval",
            &personal,
        )))
    }

    async fn finalize(
        &self,
        request: Request<pb::FinalizeRequest>,
    ) -> Result<Response<pb::FinalizationResult>, Status> {
        let principal = adas_runtime::principal(&request)?;
        let tenant = adas_runtime::auth::tenant(&request)?;
        let version = adas_runtime::auth::skill_version(&request);
        let request = request.into_inner();
        // The configured judge (a model's, when one is) only for the suite's
        // own step of a job, within the job's budget; the mechanical checks
        // for anyone else: no principal spends the operator's model by asking.
        let budget =
            adas_engine::budget::model_budget(&self.jobs, &principal, &tenant, &request.job)
                .await?;
        let judge: Arc<dyn FinalizationJudge> = match budget {
            Some(_) => self.judge.clone(),
            None => Arc::new(adas_policy::llm::MechanicalJudge),
        };
        let skill = self
            .skill((&tenant, &version), skill_slag(&request.skill)?)
            .await?;
        Ok(adas_runtime::reply(
            adas_wire::rpc::finalize(judge.as_ref(), &skill, request, &budget.unwrap_or_default())
                .await,
        ))
    }

    async fn polish_reply(
        &self,
        request: Request<pb::PolishReplyRequest>,
    ) -> Result<Response<pb::PolishReplyResponse>, Status> {
        let principal = adas_runtime::principal(&request)?;
        let tenant = adas_runtime::auth::tenant(&request)?;
        let version = adas_runtime::auth::skill_version(&request);
        let request = request.into_inner();
        // As for Finalize: a model only for the suite's own step of a job.
        let budget =
            adas_engine::budget::model_budget(&self.jobs, &principal, &tenant, &request.job)
                .await?;
        let polisher: Arc<dyn Polisher> = match budget {
            Some(_) => self.polisher.clone(),
            None => Arc::new(adas_policy::llm::TemplatePolisher),
        };
        let skill = self
            .skill((&tenant, &version), skill_slag(&request.skill)?)
            .await?;
        Ok(adas_runtime::reply(
            adas_wire::rpc::polish_reply(
                polisher.as_ref(),
                &skill,
                request,
                &budget.unwrap_or_default(),
            )
            .await,
        ))
    }
}
