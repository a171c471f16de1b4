//! RetryJob: a failed job, or one handed to a human, run again as a new job.
//! The old job is claimed first — its audit names the new job's id, written
//! under its version — and the new job is made under that id after: two
//! callers get one new job, and a crash between the two leaves a claim the
//! next RetryJob completes (the store makes a job of an id once).

use adas_jobs::{AuditEntry, JobError, JobRecord, StoredJob, new_job_id};
use adas_proto::pb;
use adas_runtime::convert::json_to_struct;
use adas_skill::slag::parse_job_name;
use adas_state::StateError;
use adas_step::machine::{Applied, Input};
use serde_json::{Value as Json, json};
use tonic::{Request, Response, Status};

use crate::{Orchestrator, OrchestratorError};

/// What StartJob learns of a job it starts as a retry: a request extension,
/// which no client can set.
#[derive(Debug, Clone)]
pub(crate) struct RetryOf {
    /// The job retried, `skills/{slag}/jobs/{id}`.
    pub(crate) of: String,
    /// The new job's id, claimed on the old job.
    pub(crate) job_id: String,
}

impl RetryOf {
    /// The audit entry that links the new job to the old.
    pub(crate) fn entry(&self, who: &str) -> AuditEntry {
        AuditEntry {
            who: who.to_owned(),
            at: adas_step::now(),
            action: AuditEntry::RETRY_OF.to_owned(),
            detail: json!({ "job": self.of }),
        }
    }
}

impl Orchestrator {
    /// RetryJob.
    pub(crate) async fn retry(
        &self,
        request: Request<pb::RetryJobRequest>,
    ) -> Result<Response<pb::Job>, Status> {
        let principal = adas_runtime::principal(&request)?;
        let name = request.get_ref().name.clone();
        let (slag, job_id) = Self::job_name(&name)?;
        let (old, new_id) = self.claim_retry(&principal, &slag, &job_id).await?;
        // Made already (the claim was an earlier call's): that job is the answer.
        match self.repo.load(&slag, &new_id).await {
            Ok(made) => return Ok(adas_runtime::reply(adas_wire::job(&made))),
            Err(JobError::NotFound { .. }) => {}
            Err(error) => return Err(OrchestratorError::from(error).into()),
        }
        let mut again = Request::new(retried_request(&old));
        // The caller's credentials and trace go on to the new job.
        *again.metadata_mut() = request.metadata().clone();
        again.extensions_mut().insert(principal);
        again.extensions_mut().insert(RetryOf {
            of: name,
            job_id: new_id,
        });
        <Self as pb::orchestrator_service_server::OrchestratorService>::start_job(self, again).await
    }

    /// Claims the retry on the old job (or reads the claim already made):
    /// the old job as it stands and the new job's id.
    async fn claim_retry(
        &self,
        principal: &adas_runtime::Principal,
        slag: &str,
        job_id: &str,
    ) -> Result<(JobRecord, String), Status> {
        for _ in 0..5 {
            let StoredJob {
                mut record,
                version,
            } = self
                .repo
                .load(slag, job_id)
                .await
                .map_err(OrchestratorError::from)?;
            principal.check_job(&record)?;
            // A solution's turn may land on another skill: its retry is the
            // turn started again on the solution, not a job of this skill.
            if !record.solution.is_empty() {
                return Err(OrchestratorError::Precondition(format!(
                    "job {job_id} is a turn of solution `{}`: start the turn again on the solution",
                    record.solution
                ))
                .into());
            }
            // Running a job again is its owner's call, or an operator's.
            if !(principal.sees_all_jobs() || principal.name == record.owner) {
                return Err(OrchestratorError::Denied(format!(
                    "job {job_id} is {}'s: only its owner or an operator retries it",
                    record.owner
                ))
                .into());
            }
            let new_id = new_job_id();
            let new_name = format!("skills/{slag}/jobs/{new_id}");
            let input = Input::RetryRequested {
                by: &principal.name,
                retry: &new_name,
            };
            let claimed = match adas_step::machine::apply(&mut record, input) {
                Ok(Applied::Write(claimed)) => *claimed,
                Ok(Applied::Unchanged) => {
                    let recorded = adas_step::machine::retried_by(&record)
                        .and_then(|name| parse_job_name(name).ok())
                        .map(|(_, id)| id)
                        .ok_or_else(|| {
                            OrchestratorError::Internal("a retry without its job".into())
                        })?;
                    return Ok((record, recorded));
                }
                Err(refused) => {
                    return Err(
                        OrchestratorError::Precondition(format!("job {job_id} {refused}")).into(),
                    );
                }
            };
            match self.repo.save(version, &mut record, claimed).await {
                Ok(_) => return Ok((record, new_id)),
                Err(JobError::Store(StateError::VersionConflict { .. })) => continue,
                Err(error) => return Err(OrchestratorError::from(error).into()),
            }
        }
        Err(
            OrchestratorError::Internal(format!("job {job_id} kept changing while it was retried"))
                .into(),
        )
    }
}

/// The StartJob a retry of `old` is: the same skill, goal,
/// context and resources, in the same conversation; a client's own program
/// again as it stood (with the values answered into it).
fn retried_request(old: &JobRecord) -> pb::StartJobRequest {
    let program = old
        .plan
        .as_ref()
        .filter(|_| old.intent == Some(adas_jobs::DetectedIntent::chosen()))
        .map(|plan| plan.program.to_string())
        .unwrap_or_default();
    pb::StartJobRequest {
        skill: format!("skills/{}", old.slag),
        goal: old.goal.clone(),
        resources: old.resources.clone().into_iter().collect(),
        context: Some(json_to_struct(&Json::Object(old.context.clone()))),
        program,
        conversation: adas_wire::conversation_name(old),
        ..pb::StartJobRequest::default()
    }
}
