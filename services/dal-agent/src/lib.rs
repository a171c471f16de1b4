//! adas-dal-agent: DalAgentService — missing-input detection, the waiting
//! contract, deduplicated asks and validated resume (spec 000). The logic is
//! `adas_engine::dal::DalAgent`; this crate maps it to the wire.

use std::collections::BTreeMap;
use std::sync::Arc;

use adas_catalog::Catalog;
use adas_engine::dal::{DalAgent, DalError, Next};
use adas_jobs::JobError;
use adas_proto::pb;
use adas_proto::pb::dal_agent_service_server::{DalAgentService, DalAgentServiceServer};
use adas_runtime::convert::{json_to_struct, json_to_value, page_size, value_to_json};
use adas_runtime::{FieldViolation, status_with_details};
use adas_skill::slag::{parse_job_name, parse_skill_name};
use adas_state::PageRequest;
use serde_json::{Map, Value as Json, json};
use tonic::{Code, Request, Response, Status};

/// Errors of DalAgentService, mapped to `Status` once (below).
#[derive(Debug, thiserror::Error)]
enum DalAgentError {
    /// The DAL-Agent's own.
    #[error(transparent)]
    Dal(#[from] DalError),
    /// A request field is invalid.
    #[error("{field}: {reason}")]
    InvalidField {
        /// The field.
        field: String,
        /// Why.
        reason: String,
    },
    /// The job asks nothing now.
    #[error("job {0} is not waiting")]
    NotWaiting(String),
}

impl From<DalAgentError> for Status {
    fn from(error: DalAgentError) -> Self {
        let message = error.to_string();
        match error {
            DalAgentError::InvalidField { field, reason } => status_with_details(
                Code::InvalidArgument,
                "INVALID_FIELD",
                message,
                &[FieldViolation::new(field, reason)],
            ),
            DalAgentError::NotWaiting(_) => {
                status_with_details(Code::NotFound, "NOT_WAITING", message, &[])
            }
            DalAgentError::Dal(DalError::Job(error)) => adas_wire::job_error_status(&error),
            DalAgentError::Dal(DalError::Skill(error)) => adas_wire::skill_status(&error, "name"),
            DalAgentError::Dal(DalError::Precondition(_)) => status_with_details(
                Code::FailedPrecondition,
                "FAILED_PRECONDITION",
                message,
                &[],
            ),
            DalAgentError::Dal(DalError::StaleCorrelation { .. }) => status_with_details(
                Code::FailedPrecondition,
                "STALE_CORRELATION_ID",
                message,
                &[FieldViolation::new(
                    "correlation_id",
                    "not the current ask; read the job's waiting.correlation_id",
                )],
            ),
            DalAgentError::Dal(DalError::InvalidAnswers {
                violations,
                escalated,
            }) => {
                let violations: Vec<FieldViolation> = violations
                    .iter()
                    .map(|(field, problem)| {
                        FieldViolation::new(format!("fields.{field}"), problem.clone())
                    })
                    .collect();
                let summary = if escalated {
                    "too many invalid answers: the job was escalated to a human"
                } else {
                    "some answers are invalid; the job still waits"
                };
                status_with_details(
                    Code::InvalidArgument,
                    "INVALID_ANSWER",
                    summary,
                    &violations,
                )
            }
        }
    }
}

fn job_status(error: JobError) -> Status {
    DalAgentError::Dal(DalError::Job(error)).into()
}

fn status(error: DalError) -> Status {
    DalAgentError::Dal(error).into()
}

fn invalid(field: &str, reason: String) -> Status {
    DalAgentError::InvalidField {
        field: field.to_owned(),
        reason,
    }
    .into()
}

/// The DalAgentService implementation.
#[derive(Debug, Clone)]
pub struct DalAgentServer {
    dal: DalAgent,
    catalog: Arc<Catalog>,
}

impl DalAgentServer {
    /// A service over the DAL-Agent.
    pub fn new(dal: DalAgent, catalog: Arc<Catalog>) -> Self {
        Self { dal, catalog }
    }

    /// The tonic service, with the configured message size limit in both directions.
    pub fn into_service(self, max_message_bytes: usize) -> DalAgentServiceServer<Self> {
        DalAgentServiceServer::new(self)
            // gzip both ways: a client may send compressed, and gets compressed answers when it offers.
            .accept_compressed(tonic::codec::CompressionEncoding::Gzip)
            .send_compressed(tonic::codec::CompressionEncoding::Gzip)
            .max_decoding_message_size(max_message_bytes)
            .max_encoding_message_size(max_message_bytes)
    }
}

/// A DalAgent service as configured, over `store` (jobs and the tool cache).
pub fn build(
    config: &adas_runtime::ServerConfig,
    store: Arc<dyn adas_state::StateStore>,
    catalog: Arc<Catalog>,
    mcp: adas_tools::RmcpConnector,
    llm: Option<adas_llm::Llm>,
) -> Result<DalAgentServer, adas_runtime::RuntimeError> {
    let tools = Arc::new(adas_boot::tool_resolver(
        config,
        store.clone(),
        Arc::new(mcp),
    )?);
    let repo = adas_jobs::JobRepo::new(store, config.memory_root.clone());
    Ok(DalAgentServer::new(
        DalAgent::new(repo, catalog.clone(), tools)
            .with_queries(llm.map(adas_engine::query::QueryModel::new)),
        catalog,
    ))
}

#[tonic::async_trait]
impl DalAgentService for DalAgentServer {
    async fn resolve_next(
        &self,
        request: Request<pb::ResolveNextRequest>,
    ) -> Result<Response<pb::ResolveNextResponse>, Status> {
        adas_runtime::principal(&request)?.require_service()?;
        let tenant = adas_runtime::auth::tenant(&request)?;
        let version = adas_runtime::auth::skill_version(&request);
        let request = request.into_inner();
        let (slag, job_id) =
            parse_job_name(&request.job).map_err(|reason| invalid("job", reason))?;
        let skill = self
            .catalog
            .for_tenant(&tenant)
            .map_err(|error| status(DalError::Skill(error)))?
            .get_version_async(&slag, &version)
            .await
            .map_err(|error| status(DalError::Skill(error)))?;
        let tools = adas_jobs::tool_request(&skill, &tenant);
        let expected = (request.expected_version > 0).then_some(request.expected_version as u64);
        let (next, stored) = self
            .dal
            .resolve_next((&tenant, &slag, &job_id), expected, &tools)
            .await
            .map_err(status)?;
        let next = match next {
            Next::Call { tool, args, path } => {
                pb::resolve_next_response::Next::Call(pb::NextCall {
                    tool,
                    arguments: Some(json_to_struct(&Json::Object(args))),
                    call_path: serde_json::to_string(&path).unwrap_or_default(),
                })
            }
            Next::Waiting(waiting) => {
                pb::resolve_next_response::Next::Waiting(adas_wire::waiting(&waiting))
            }
            Next::Done(value) => pb::resolve_next_response::Next::Done(pb::PlanDone {
                value: value.as_ref().map(json_to_value),
            }),
            Next::Aborted(reason) => pb::resolve_next_response::Next::Aborted(pb::PlanAborted {
                reason,
                replacement_program: String::new(),
            }),
        };
        let job = match pb::JobView::try_from(request.view) {
            Ok(pb::JobView::Basic) => adas_wire::job_basic(&stored),
            Ok(pb::JobView::Full | pb::JobView::Unspecified) => adas_wire::job(&stored),
            Err(_) => {
                return Err(invalid(
                    "view",
                    format!("{} is not a JobView", request.view),
                ));
            }
        };
        Ok(adas_runtime::reply(pb::ResolveNextResponse {
            next: Some(next),
            job: Some(job),
        }))
    }

    async fn submit_input(
        &self,
        request: Request<pb::SubmitInputRequest>,
    ) -> Result<Response<pb::Job>, Status> {
        let principal = adas_runtime::principal(&request)?;
        let request = request.into_inner();
        let (slag, job_id) =
            parse_job_name(&request.job).map_err(|reason| invalid("job", reason))?;
        // A correlation id is not a capability: only whoever may act on the job answers.
        let current = self
            .dal
            .repo()
            .load(&slag, &job_id)
            .await
            .map_err(job_status)?;
        principal.check_job(&current.record)?;
        // An escalated job is a human's now: the user cannot answer it away.
        if current.record.waiting.as_ref().is_some_and(|waiting| {
            waiting.reason_code == adas_jobs::PauseReason::HumanTakeoverRequired
        }) && !principal.sees_all_jobs()
        {
            return Err(adas_runtime::auth::permission_denied(
                "an escalated job is answered by an operator (adas job takeover)",
            ));
        }
        // A confirmation is the owner's own yes to the exact call (`approver:
        // user`, or a call resting on a guess): nobody answers it for them.
        if current.record.waiting.as_ref().is_some_and(|waiting| {
            waiting.reason_code == adas_jobs::PauseReason::ActionConfirmationRequired
        }) && !principal.dev
            && principal.name != current.record.owner
        {
            return Err(adas_runtime::auth::permission_denied(
                "a confirmation is given by the job's owner only",
            ));
        }
        if request.correlation_id.is_empty() {
            return Err(invalid(
                "correlation_id",
                "the ask's correlation id is required".into(),
            ));
        }
        if let Some((name, _)) = request
            .fields
            .iter()
            .find(|(_, value)| !adas_runtime::convert::is_finite(value))
        {
            return Err(invalid(
                &format!("fields.{name}"),
                "numbers must be finite (no NaN or infinity)".into(),
            ));
        }
        let fields: Map<String, Json> = request
            .fields
            .iter()
            .map(|(name, value)| (name.clone(), value_to_json(value)))
            .collect();
        let idempotency = (!request.request_id.is_empty()).then(|| {
            (
                format!("submit-input:{job_id}:{}", request.request_id),
                adas_jobs::request_fingerprint(&json!({
                    "correlation_id": request.correlation_id,
                    "fields": fields.iter().collect::<BTreeMap<_, _>>(),
                })),
            )
        });
        let repo = self.dal.repo();
        if let Some((key, fingerprint)) = &idempotency {
            match repo
                .seen_request(&slag, key, fingerprint)
                .await
                .map_err(job_status)?
            {
                // A retry of an answer that was taken: the job as it is now.
                Some(true) => {
                    let stored = repo.load(&slag, &job_id).await.map_err(job_status)?;
                    return Ok(adas_runtime::reply(adas_wire::job(&stored)));
                }
                Some(false) => {
                    return Err(invalid(
                        "request_id",
                        "was already used for a different request".into(),
                    ));
                }
                None => {}
            }
        }
        let submitted = self
            .dal
            // The job as read for the access check: the write compare-and-sets on it.
            .submit(
                current,
                &request.correlation_id,
                &fields,
                &principal.name,
                &request.request_id,
            )
            .await;
        let stored = match submitted {
            Ok(stored) => stored,
            // A twin of this request (same request_id) in flight at the same
            // time may have won the write: then this one succeeded too.
            Err(error) if idempotency.is_some() => {
                let now = repo.load(&slag, &job_id).await.map_err(job_status)?;
                if !DalAgent::answered_by(
                    &now.record,
                    &request.request_id,
                    &request.correlation_id,
                    &fields,
                ) {
                    return Err(status(error));
                }
                now
            }
            Err(error) => return Err(status(error)),
        };
        if let Some((key, fingerprint)) = &idempotency {
            repo.remember_request(&slag, key, fingerprint)
                .await
                .map_err(job_status)?;
        }
        Ok(adas_runtime::reply(adas_wire::job(&stored)))
    }

    async fn get_waiting(
        &self,
        request: Request<pb::GetWaitingRequest>,
    ) -> Result<Response<pb::Waiting>, Status> {
        let principal = adas_runtime::principal(&request)?;
        let (slag, job_id) =
            parse_job_name(&request.get_ref().name).map_err(|reason| invalid("name", reason))?;
        let stored = self
            .dal
            .repo()
            .load(&slag, &job_id)
            .await
            .map_err(|error| status(DalError::Job(error)))?;
        principal.check_job(&stored.record)?;
        match stored.record.waiting {
            Some(waiting) => Ok(adas_runtime::reply(adas_wire::waiting(&waiting))),
            None => Err(DalAgentError::NotWaiting(job_id).into()),
        }
    }

    async fn list_waiting(
        &self,
        request: Request<pb::ListWaitingRequest>,
    ) -> Result<Response<pb::ListWaitingResponse>, Status> {
        let principal = adas_runtime::principal(&request)?;
        let request = request.into_inner();
        let slag = parse_skill_name(&request.parent).map_err(|reason| invalid("parent", reason))?;
        let size = page_size(request.page_size).map_err(|reason| invalid("page_size", reason))?;
        // The position in the skill's waiting index is sealed: it counts
        // every tenant's waiting jobs (adas_jobs page.rs).
        let caller = format!("{}/{}", principal.tenant, principal.name);
        let offset = if request.page_token.is_empty() {
            0
        } else {
            self.dal
                .repo()
                .open_page(&slag, (&caller, "waiting"), &request.page_token)
                .await
                .map_err(job_status)?
                .ok_or_else(|| {
                    invalid(
                        "page_token",
                        "was not issued by this service to this caller for this list".into(),
                    )
                })?
        };
        let page = self
            .dal
            .repo()
            .store()
            .list_waiting(
                &slag,
                PageRequest {
                    offset,
                    limit: size,
                },
            )
            .await
            .map_err(|error| status(DalError::Job(JobError::Store(error))))?;
        let ids: Vec<String> = page.items.into_iter().map(|entry| entry.job_id).collect();
        // The page's records in one round trip, not one per job.
        let jobs = self
            .dal
            .repo()
            .load_many(&slag, &ids)
            .await
            .map_err(job_status)?
            .into_iter()
            .flatten()
            .filter(|stored| principal.check_job(&stored.record).is_ok())
            .map(|stored| adas_wire::job(&stored))
            .collect();
        let next_page_token = match page.next_offset {
            Some(offset) => self
                .dal
                .repo()
                .seal_page(&slag, (&caller, "waiting"), offset)
                .await
                .map_err(job_status)?,
            None => String::new(),
        };
        Ok(adas_runtime::reply(pb::ListWaitingResponse {
            jobs,
            next_page_token,
        }))
    }
}
