//! RetryJob: a failed job, or one handed to a human, run again as a new job
//! of the same owner. The old job is claimed first — its audit names the new
//! job's id, written under its version — and the new job is made under that
//! id after: two callers get one new job, and a failure or crash between the
//! two leaves a claim the next RetryJob completes (the store makes a job of
//! an id once). Only once the new job stands is a job that waited for a
//! human cancelled for it.

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
    /// Who asked for the retry (the owner, or an operator).
    pub(crate) by: String,
}

impl RetryOf {
    /// The audit entry that links the new job to the old, naming who asked.
    pub(crate) fn entry(&self) -> AuditEntry {
        AuditEntry {
            who: self.by.clone(),
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
        let made = match self.repo.load(&slag, &new_id).await {
            // Made already (the claim was an earlier call's): that job.
            Ok(made) => made,
            Err(JobError::NotFound { .. }) => {
                let mut again = Request::new(retried_request(&old));
                // The caller's trace goes on; the job is the owner's, run
                // with the owner's roles and claims as it first started —
                // an operator's retry lends the job no privilege of its own.
                *again.metadata_mut() = request.metadata().clone();
                again.extensions_mut().insert(owner_of(&old, &principal));
                again.extensions_mut().insert(RetryOf {
                    of: name.clone(),
                    job_id: new_id.clone(),
                    by: principal.name.clone(),
                });
                <Self as pb::orchestrator_service_server::OrchestratorService>::start_job(
                    self, again,
                )
                .await?;
                self.repo
                    .load(&slag, &new_id)
                    .await
                    .map_err(OrchestratorError::from)?
            }
            Err(error) => return Err(OrchestratorError::from(error).into()),
        };
        principal.check_job(&made.record)?;
        self.cancel_for_retry(&principal, (&slag, &job_id), &made.record)
            .await?;
        Ok(adas_runtime::reply(adas_wire::job(&made)))
    }

    /// A job that waited for a human is cancelled once its retry stands
    /// (again on a repeated call: a cancelled job stays as it is).
    async fn cancel_for_retry(
        &self,
        principal: &adas_runtime::Principal,
        (slag, job_id): (&str, &str),
        retry: &JobRecord,
    ) -> Result<(), OrchestratorError> {
        let reason = format!("retried as skills/{}/jobs/{}", retry.slag, retry.job_id);
        for _ in 0..5 {
            let StoredJob {
                mut record,
                version,
            } = self.repo.load(slag, job_id).await?;
            if record.status != adas_jobs::JobStatus::Paused {
                return Ok(());
            }
            let input = Input::CancelRequested {
                by: &principal.name,
                reason: &reason,
            };
            let Ok(Applied::Write(cancelled)) = adas_step::machine::apply(&mut record, input)
            else {
                return Ok(());
            };
            match self.repo.save(version, &mut record, *cancelled).await {
                Ok(_) => return Ok(()),
                Err(JobError::Store(StateError::VersionConflict { .. })) => continue,
                Err(error) => return Err(error.into()),
            }
        }
        Err(OrchestratorError::Internal(format!(
            "job {job_id} kept changing while it was cancelled for its retry"
        )))
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
            if !principal.may_retry(&record.owner) {
                return Err(OrchestratorError::Denied(format!(
                    "job {job_id} is {}'s: only its owner, or an operator or admin, retries it",
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

/// The principal a retry of `old` runs as: its owner, with the roles and
/// claims it started with, in `caller`'s mode.
fn owner_of(old: &JobRecord, caller: &adas_runtime::Principal) -> adas_runtime::Principal {
    adas_runtime::Principal {
        name: old.owner.clone(),
        tenant: old.tenant.clone(),
        roles: old.owner_roles.clone(),
        claims: old.owner_claims.clone(),
        dev: caller.dev,
    }
}

/// The StartJob a retry of `old` is: the same skill, goal, the context the
/// client gave (not what the job learnt since: the answers come along as the
/// conversation's evidence) and resources, in the same conversation; a
/// client's own program again as it stood (with the values answered into it).
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
        context: Some(json_to_struct(&Json::Object(given_context(old)))),
        program,
        conversation: adas_wire::conversation_name(old),
        ..pb::StartJobRequest::default()
    }
}

/// What the client's StartJob context held: its values stand as `client`
/// evidence (the context itself gains the answers as the job goes on).
fn given_context(old: &JobRecord) -> serde_json::Map<String, Json> {
    old.evidence
        .iter()
        .filter(|evidence| evidence.source == "client")
        .map(|evidence| (evidence.name.clone(), evidence.value.clone()))
        .collect()
}
