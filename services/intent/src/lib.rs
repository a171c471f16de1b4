//! adas-intent: IntentService — detects intent and entities in a user message,
//! handles out-of-domain, and turns a message into a plan (a DIA program). Wire
//! types stop here; detection and planning live in `adas-nlu` behind the
//! [`Planner`] seam, and every plan is parsed back before it leaves (an LLM
//! planner's output is checked the same way).

use std::sync::Arc;

use adas_catalog::Catalog;
use adas_nlu::Planner;
use adas_proto::pb;
use adas_proto::pb::intent_service_server::{IntentService, IntentServiceServer};
use adas_runtime::convert::{json_to_struct, struct_to_json};
use adas_runtime::{FieldViolation, status_with_details};
use adas_skill::slag::parse_skill_name;
use adas_skill::{OperationalSkill, SkillError};
use tonic::{Code, Request, Response, Status};

/// Longest message accepted, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 32 * 1024;

/// Errors of IntentService.
#[derive(Debug, thiserror::Error)]
pub enum IntentError {
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
    /// The planner produced a program that does not parse.
    #[error("the planner produced an invalid plan: {0}")]
    InvalidPlan(adas_dia::ParseError),
    /// A platform failure.
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<IntentError> for Status {
    fn from(error: IntentError) -> Self {
        let message = error.to_string();
        match error {
            IntentError::InvalidField { field, reason } => status_with_details(
                Code::InvalidArgument,
                "INVALID_FIELD",
                message,
                &[FieldViolation::new(field, reason)],
            ),
            IntentError::Skill(error) => adas_wire::skill_status(&error, "skill"),
            IntentError::Internal(_) => {
                status_with_details(Code::Internal, "INTERNAL", message, &[])
            }
            IntentError::InvalidPlan(_) => {
                status_with_details(Code::Internal, "INVALID_PLAN", message, &[])
            }
        }
    }
}

/// The IntentService implementation.
#[derive(Clone)]
pub struct Intent {
    catalog: Arc<Catalog>,
    /// The jobs plans are made for (their model budgets).
    jobs: adas_jobs::JobRepo,
    planner: Arc<dyn Planner>,
    /// What callers other than the suite get: the operator's model is spent
    /// on jobs, by the suite's own steps, never by any principal who asks.
    deterministic: Arc<dyn Planner>,
}

impl std::fmt::Debug for Intent {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("Intent").finish_non_exhaustive()
    }
}

impl Intent {
    /// A service over a skill catalog and the jobs it plans for, with a planner.
    pub fn new(catalog: Arc<Catalog>, jobs: adas_jobs::JobRepo, planner: Arc<dyn Planner>) -> Self {
        // The first detection would load the lexicon on a request's task.
        let _ = std::thread::Builder::new()
            .name("lexicon-load".into())
            .spawn(adas_nlu::warm);
        Self {
            catalog,
            jobs,
            planner,
            deterministic: Arc::new(adas_nlu::plan::WorkflowPlanner),
        }
    }

    /// The tonic service, with the configured message size limit in both directions.
    pub fn into_service(self, max_message_bytes: usize) -> IntentServiceServer<Self> {
        IntentServiceServer::new(self)
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
        name: &str,
    ) -> Result<Arc<OperationalSkill>, IntentError> {
        let slag = parse_skill_name(name).map_err(|reason| IntentError::InvalidField {
            field: "skill",
            reason,
        })?;
        self.catalog
            .for_tenant(tenant)?
            .get_version_async(&slag, version)
            .await
            .map_err(IntentError::from)
    }
}

fn check_message(message: &str) -> Result<(), IntentError> {
    if message.len() > MAX_MESSAGE_BYTES {
        return Err(IntentError::InvalidField {
            field: "message",
            reason: format!("{} bytes; the limit is {MAX_MESSAGE_BYTES}", message.len()),
        });
    }
    Ok(())
}

#[tonic::async_trait]
impl IntentService for Intent {
    async fn detect_intent(
        &self,
        request: Request<pb::DetectIntentRequest>,
    ) -> Result<Response<pb::DetectIntentResponse>, Status> {
        let tenant = adas_runtime::auth::tenant(&request)?;
        let version = adas_runtime::auth::skill_version(&request);
        let request = request.into_inner();
        check_message(&request.message)?;
        let skill = self.skill((&tenant, &version), &request.skill).await?;
        let context = request
            .context
            .as_ref()
            .map(struct_to_json)
            .unwrap_or_default();
        let detection = adas_nlu::detect(&skill.skill, &request.message, &context);
        Ok(adas_runtime::reply(adas_wire::rpc::detection(&detection)))
    }

    async fn plan(
        &self,
        request: Request<pb::PlanRequest>,
    ) -> Result<Response<pb::PlanResponse>, Status> {
        let principal = adas_runtime::principal(&request)?;
        let tenant = adas_runtime::auth::tenant(&request)?;
        let version = adas_runtime::auth::skill_version(&request);
        let request = request.into_inner();
        check_message(&request.message)?;
        // The configured planner (a model's, when one is) only for the
        // suite's own step of a job, within the job's budget.
        let budget =
            adas_engine::budget::model_budget(&self.jobs, &principal, &tenant, &request.job)
                .await?;
        let planner = match budget {
            Some(_) => &self.planner,
            None => &self.deterministic,
        };
        let skill = self.skill((&tenant, &version), &request.skill).await?;
        let response = adas_wire::rpc::plan(
            planner.as_ref(),
            &skill,
            &request,
            &budget.unwrap_or_default(),
        )
        .await
        .map_err(IntentError::InvalidPlan)?;
        Ok(adas_runtime::reply(response))
    }

    async fn parse_plan(
        &self,
        request: Request<pb::ParsePlanRequest>,
    ) -> Result<Response<pb::ParsePlanResponse>, Status> {
        let request = request.into_inner();
        // Up to a MiB of plan text: parsed off the async workers.
        let parsed = adas_runtime::off_worker(move || {
            adas_dia::parse(&request.program)
                .map(|program| (program.to_json(), program.to_string()))
        })
        .await?;
        Ok(adas_runtime::reply(match parsed {
            Ok((tree_json, canonical)) => pb::ParsePlanResponse {
                tree_json,
                canonical,
                errors: Vec::new(),
            },
            Err(error) => pb::ParsePlanResponse {
                tree_json: String::new(),
                canonical: String::new(),
                errors: vec![pb::Diagnostic {
                    severity: pb::Severity::Error as i32,
                    path: "program".into(),
                    line: error.line as i32,
                    column: error.column as i32,
                    message: format!("expected {}, found {}", error.expected, error.found),
                    code: "syntax".into(),
                }],
            },
        }))
    }
}

/// JSON context as a protobuf Struct (for clients of this crate's tests).
pub fn context_struct(value: &serde_json::Value) -> prost_types::Struct {
    json_to_struct(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use adas_nlu::Planned;

    /// A request as the auth layer hands it over in dev mode.
    fn as_dev<T>(message: T) -> Request<T> {
        let mut request = Request::new(message);
        request
            .extensions_mut()
            .insert(adas_runtime::Principal::dev());
        request
    }

    /// A planner seam that counts its calls and may rewrite the plan.
    struct CountingPlanner {
        calls: std::sync::atomic::AtomicUsize,
        rewrite: fn(Planned) -> Planned,
    }

    #[async_trait::async_trait]
    impl Planner for CountingPlanner {
        async fn plan(
            &self,
            skill: &adas_skill::model::Skill,
            input: &adas_nlu::PlanInput<'_>,
        ) -> Planned {
            self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            (self.rewrite)(adas_nlu::plan(
                skill,
                input.message,
                input.context,
                input.intent,
            ))
        }
    }

    /// The jobs store of a service under test, holding one job of cs-tier-1
    /// (a model plans only for a job): the store and the job's name.
    async fn jobs() -> (adas_jobs::JobRepo, String) {
        let repo = adas_jobs::JobRepo::new(
            Arc::new(adas_state::MemoryStore::new()),
            std::env::temp_dir(),
        );
        let record: adas_jobs::JobRecord = serde_json::from_value(serde_json::json!({
            "job_id": "j-unit", "slag": "cs-tier-1", "goal": "g", "status": "running",
            "outcome_class": null, "waiting": null, "context": {}, "resources": {},
            "plan": null, "intent": null, "iteration": 0, "iteration_budget": 10,
            "calls": [], "result": null, "error": null, "audit": [], "request_id": "",
            "tenant": "default",
            "created_at": "2026-11-23T00:00:00Z", "updated_at": "2026-11-23T00:00:00Z",
            "ended_at": null
        }))
        .unwrap();
        repo.create(&record, false).await.unwrap();
        (repo, "skills/cs-tier-1/jobs/j-unit".into())
    }

    fn catalog() -> Arc<Catalog> {
        let root = std::env::temp_dir().join(format!("adas-intent-unit-{}", std::process::id()));
        let templates =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../skill-templates");
        Arc::new(
            Catalog::new(root, templates).with_var("ADAS_DEMO_MCP_URL", "http://127.0.0.1:1/mcp"),
        )
    }

    #[tokio::test]
    async fn an_invalid_plan_from_the_planner_never_leaves() {
        let planner = Arc::new(CountingPlanner {
            calls: Default::default(),
            rewrite: |mut planned| {
                // A planner that produced a call with a bare word as a name.
                planned.program = Some(adas_dia::Program {
                    elements: vec![adas_dia::Node::Intent(adas_dia::Intent {
                        name: "bad name".into(),
                        args: Vec::new(),
                    })],
                });
                planned
            },
        });
        let (jobs, job) = jobs().await;
        let service = Intent::new(catalog(), jobs, planner.clone());
        let request = pb::PlanRequest {
            skill: "skills/cs-tier-1".into(),
            message: "I want a refund for ORD-1".into(),
            job,
            ..Default::default()
        };
        let status = service.plan(as_dev(request)).await.unwrap_err();
        assert_eq!(planner.calls.load(std::sync::atomic::Ordering::SeqCst), 1);
        assert_eq!(status.code(), Code::Internal);
        assert!(
            status.message().contains("invalid plan"),
            "{}",
            status.message()
        );
    }

    #[tokio::test]
    async fn the_deterministic_planner_is_used_through_the_seam() {
        let planner = Arc::new(CountingPlanner {
            calls: Default::default(),
            rewrite: |planned| planned,
        });
        let (jobs, job) = jobs().await;
        let service = Intent::new(catalog(), jobs, planner.clone());
        let request = pb::PlanRequest {
            skill: "cs-tier-1".into(),
            message: "Where is my order ORD-12345?".into(),
            job: job.clone(),
            ..Default::default()
        };
        let response = service.plan(as_dev(request)).await.unwrap().into_inner();
        assert_eq!(
            response.program,
            r#"check_order_status(order_id="ORD-12345")"#
        );
        assert_eq!(response.intent.unwrap().intent_id, "intent_order_status");
        assert_eq!(response.decider.unwrap().name, "deterministic");
        assert_eq!(planner.calls.load(std::sync::atomic::Ordering::SeqCst), 1);
        // Without a job the configured planner is not asked.
        let request = pb::PlanRequest {
            skill: "cs-tier-1".into(),
            message: "Where is my order ORD-12345?".into(),
            ..Default::default()
        };
        service.plan(as_dev(request)).await.unwrap();
        assert_eq!(planner.calls.load(std::sync::atomic::Ordering::SeqCst), 1);
    }
}
