//! A turn of a solution's conversation: which skill runs it and which grants
//! it holds. A new conversation begins at the channel's `routing` default
//! skill. A continued one runs where its last turn ran — unless a handoff
//! out of that skill now holds: every grant it passes is held (live, the
//! caller's) and the target skill understands the request (not out of its
//! domain). Then the turn runs on the target with exactly the grants passed,
//! minus those dropped. Contracts are checked on the skill that will run.

use adas_jobs::{Grant, HandoffNote, JobError, JobRecord};
use adas_proto::pb;

use crate::{Orchestrator, OrchestratorError};

/// The store key space of a solution's conversations (beside skills' own).
fn conversation_scope(solution: &str) -> String {
    format!("@solution.{solution}")
}

/// Where a turn runs and what it carries.
#[derive(Debug)]
pub(crate) struct Turn {
    /// The solution's id.
    pub id: String,
    /// The skill that runs the turn.
    pub slag: String,
    /// The conversation continued and its latest job.
    pub previous: Option<(String, JobRecord)>,
    /// The grants the turn holds.
    pub grants: Vec<Grant>,
    /// The handoff that brought it here.
    pub handoff: Option<HandoffNote>,
}

impl Orchestrator {
    /// Routes a StartJob on `request.solution`.
    pub(crate) async fn solution_turn(
        &self,
        principal: &adas_runtime::Principal,
        request: &pb::StartJobRequest,
    ) -> Result<Turn, OrchestratorError> {
        let (id, solution) = self.named_solution(principal, request).await?;
        let now = adas_state::now_ms();
        let (slag, previous, grants, handoff) = match self
            .continue_solution(principal, &id, &request.conversation)
            .await?
        {
            None => {
                let entry = entry_skill(&solution, &id, &request.channel)?;
                (entry, None, Vec::new(), None)
            }
            Some((cid, previous)) => {
                // The caller's own grants of this conversation only; an
                // expired one rides along to be dropped, with its event, by
                // the turn's first step, and passes no handoff.
                let held: Vec<Grant> = previous
                    .grants
                    .iter()
                    .filter(|grant| grant.principal == principal.name && grant.conversation == cid)
                    .cloned()
                    .collect();
                let mut routed = (previous.slag.clone(), held.clone(), None);
                // An escalated turn's conversation goes to the skill's
                // escalation target, with what a handoff there would pass.
                if let Some(target) = self.escalation_target(principal, &previous).await
                    && solution.skills.iter().any(|skill| skill.id == target)
                {
                    let passed = solution
                        .handoffs_from(&previous.slag)
                        .find(|handoff| handoff.to == target);
                    let grants: Vec<Grant> = held
                        .iter()
                        .filter(|grant| {
                            passed.is_some_and(|handoff| {
                                handoff.grants_passed.contains(&grant.key)
                                    && !handoff.grants_dropped.contains(&grant.key)
                            })
                        })
                        .cloned()
                        .collect();
                    let note = HandoffNote {
                        id: "escalation".into(),
                        from: previous.slag.clone(),
                        to: target.clone(),
                        grants_passed: grants.iter().map(|grant| grant.key.clone()).collect(),
                    };
                    let (slag, note) = (target, Some(note));
                    return self
                        .finish_turn(
                            principal,
                            (id, solution),
                            slag,
                            (Some((cid, previous)), grants, note),
                        )
                        .await;
                }
                for handoff in solution.handoffs_from(&previous.slag) {
                    let passes = handoff.grants_passed.iter().all(|key| {
                        held.iter()
                            .any(|grant| grant.key == *key && grant.expires_ms > now)
                    });
                    if !passes || !self.understands(principal, &handoff.to, request).await {
                        continue;
                    }
                    let grants: Vec<Grant> = held
                        .iter()
                        .filter(|grant| {
                            handoff.grants_passed.contains(&grant.key)
                                && !handoff.grants_dropped.contains(&grant.key)
                        })
                        .cloned()
                        .collect();
                    let note = HandoffNote {
                        id: handoff.id.clone().unwrap_or_default(),
                        from: handoff.from.clone(),
                        to: handoff.to.clone(),
                        grants_passed: grants.iter().map(|grant| grant.key.clone()).collect(),
                    };
                    routed = (handoff.to.clone(), grants, Some(note));
                    break;
                }
                let (slag, grants, note) = routed;
                (slag, Some((cid, previous)), grants, note)
            }
        };
        self.finish_turn(principal, (id, solution), slag, (previous, grants, handoff))
            .await
    }

    /// The solution a StartJob names (`solutions/{id}`, of the caller's
    /// tenant), with its id; the request names no skill of its own.
    async fn named_solution(
        &self,
        principal: &adas_runtime::Principal,
        request: &pb::StartJobRequest,
    ) -> Result<(String, adas_skill::solution::Solution), OrchestratorError> {
        if !request.skill.is_empty() {
            return Err(OrchestratorError::InvalidField {
                field: "skill",
                reason: "leave it empty with a solution: the solution's routing picks the skill"
                    .into(),
            });
        }
        let id = request
            .solution
            .strip_prefix("solutions/")
            .filter(|id| adas_skill::slag::is_valid_slag(id))
            .ok_or_else(|| OrchestratorError::InvalidField {
                field: "solution",
                reason: "expected `solutions/{id}`".into(),
            })?
            .to_owned();
        let stored =
            adas_catalog::solutions::get(self.repo.store().as_ref(), &principal.tenant, &id)
                .await?
                .ok_or_else(|| {
                    OrchestratorError::NotFound(format!("solution solutions/{id} not found"))
                })?;
        Ok((id, stored.solution))
    }

    /// The turn on `slag`, once its contracts hold.
    async fn finish_turn(
        &self,
        principal: &adas_runtime::Principal,
        (id, solution): (String, adas_skill::solution::Solution),
        slag: String,
        (previous, grants, handoff): (Option<(String, JobRecord)>, Vec<Grant>, Option<HandoffNote>),
    ) -> Result<Turn, OrchestratorError> {
        let skill = self
            .catalog
            .for_tenant(&principal.tenant)?
            .get_async(&slag)
            .await?;
        let broken = solution.broken_contracts(&slag, &skill.skill);
        if !broken.is_empty() {
            return Err(OrchestratorError::Precondition(format!(
                "solutions/{id} cannot run `{slag}`: {}",
                broken.join("; ")
            )));
        }
        Ok(Turn {
            id,
            slag,
            previous,
            grants,
            handoff,
        })
    }

    /// Where `previous`'s conversation goes when that turn escalated (it
    /// ended ESCALATED, or called `sys.escalate`): its skill's escalation
    /// target.
    async fn escalation_target(
        &self,
        principal: &adas_runtime::Principal,
        previous: &JobRecord,
    ) -> Option<String> {
        let escalated = previous.outcome_class == Some(adas_jobs::OutcomeClass::Escalated)
            || previous
                .calls
                .iter()
                .any(|call| call.tool == "sys.escalate" && !call.is_error);
        if !escalated {
            return None;
        }
        let skill = self
            .catalog
            .for_tenant(&principal.tenant)
            .ok()?
            .get_async(&previous.slag)
            .await
            .ok()?;
        skill
            .skill
            .policy
            .as_ref()?
            .escalation
            .as_ref()?
            .target()
            .map(str::to_owned)
    }

    /// Whether `slag` takes the request as its own: a client's program only
    /// when it declares every tool the program calls, words when they are
    /// not out of its domain.
    async fn understands(
        &self,
        principal: &adas_runtime::Principal,
        slag: &str,
        request: &pb::StartJobRequest,
    ) -> bool {
        let Ok(catalog) = self.catalog.for_tenant(&principal.tenant) else {
            return false;
        };
        let Ok(skill) = catalog.get_async(slag).await else {
            return false;
        };
        if !request.program.trim().is_empty() {
            return crate::service::parse_program(&request.program).is_ok_and(|program| {
                program.is_some_and(|program| {
                    program.tool_names().iter().all(|tool| {
                        adas_policy::gate::is_platform_tool(tool)
                            || skill
                                .skill
                                .tools
                                .iter()
                                .any(|declared| declared.name == *tool)
                    })
                })
            });
        }
        adas_nlu::detect(&skill.skill, &request.goal, &serde_json::Map::new())
            .out_of_domain
            .is_none()
    }

    /// The solution conversation a new job continues: its id and latest job,
    /// which must be the caller's and must have ended. `None` for an empty name.
    async fn continue_solution(
        &self,
        principal: &adas_runtime::Principal,
        id: &str,
        name: &str,
    ) -> Result<Option<(String, JobRecord)>, OrchestratorError> {
        if name.is_empty() {
            return Ok(None);
        }
        let cid = name
            .strip_prefix(&format!("solutions/{id}/conversations/"))
            .filter(|cid| adas_state::validate_slag_key(cid).is_ok() && !cid.contains('/'))
            .ok_or_else(|| OrchestratorError::InvalidField {
                field: "conversation",
                reason: format!("expected `solutions/{id}/conversations/{{id}}`"),
            })?;
        let not_found = || OrchestratorError::ConversationNotFound(name.to_owned());
        let latest = self
            .repo
            .conversation_turn(&principal.tenant, &conversation_scope(id), cid)
            .await?
            .ok_or_else(not_found)?;
        let (slag, job_id) = latest.split_once('/').ok_or_else(not_found)?;
        let previous = match self.repo.load(slag, job_id).await {
            Ok(stored) => stored.record,
            Err(JobError::NotFound { .. }) => return Err(not_found()),
            Err(error) => return Err(error.into()),
        };
        if principal.check_job(&previous).is_err()
            || previous.solution != id
            || previous.conversation != cid
        {
            return Err(not_found());
        }
        if !previous.status.is_terminal() {
            return Err(OrchestratorError::Precondition(format!(
                "the conversation's job skills/{slag}/jobs/{job_id} has not ended: answer or cancel it first"
            )));
        }
        Ok(Some((cid.to_owned(), previous)))
    }

    /// Makes `job` the latest turn of the solution's conversation `cid`.
    pub(crate) async fn set_solution_turn(
        &self,
        tenant: &str,
        id: &str,
        cid: &str,
        (slag, job_id): (&str, &str),
    ) -> Result<(), OrchestratorError> {
        self.repo
            .set_conversation_turn(
                tenant,
                &conversation_scope(id),
                cid,
                &format!("{slag}/{job_id}"),
            )
            .await?;
        Ok(())
    }
}

/// The skill a new conversation on `solution` starts with, by the channel
/// it came in on (`api` when unsaid).
fn entry_skill(
    solution: &adas_skill::solution::Solution,
    id: &str,
    channel: &str,
) -> Result<String, OrchestratorError> {
    let channel = if channel.is_empty() { "api" } else { channel };
    let entry = solution
        .entry(channel)
        .ok_or_else(|| OrchestratorError::InvalidField {
            field: "channel",
            reason: format!(
                "solutions/{id} routes no channel `{channel}` (it routes: {})",
                solution
                    .routing
                    .keys()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })?;
    Ok(entry.to_owned())
}
