//! StartJob's admission: each check is a small function of the request and
//! the skill, refusing with the field it is about before anything is stored;
//! what a continued conversation carries into the new job; and the job's
//! active-job slots, held by a guard that gives them back unless the job was
//! stored.

use std::collections::{BTreeMap, HashSet};

use adas_jobs::{Evidence, JobRecord, JobRepo};
use adas_runtime::FieldViolation;
use adas_skill::OperationalSkill;
use adas_skill::model::Skill;
use adas_skill::resources::BoundResources;
use serde_json::{Map, Value as Json};

use crate::OrchestratorError;
use crate::service::MAX_GOAL_BYTES;

/// How long after a StartJob remembered its request id a retry may still
/// store the job that attempt never stored (longer than any request lives).
const UNSTORED_START_WINDOW_MS: u64 = 5 * 60 * 1000;

/// A goal (or a program) is given, and not too long.
pub(crate) fn goal(goal: &str, has_program: bool) -> Result<(), OrchestratorError> {
    if goal.trim().is_empty() && !has_program {
        return Err(OrchestratorError::InvalidField {
            field: "goal",
            reason: "a goal (or a DIA `program`) is required".into(),
        });
    }
    if goal.len() > MAX_GOAL_BYTES {
        return Err(OrchestratorError::InvalidField {
            field: "goal",
            reason: format!("{} bytes; the limit is {MAX_GOAL_BYTES}", goal.len()),
        });
    }
    Ok(())
}

/// A skill calls only the tools it declares: a program naming another (one
/// its server offers, say) is refused.
pub(crate) fn declared_tools(
    skill: &OperationalSkill,
    program: Option<&adas_dia::Program>,
) -> Result<(), OrchestratorError> {
    let Some(program) = program else {
        return Ok(());
    };
    let undeclared: Vec<String> = program
        .tool_names()
        .into_iter()
        .filter(|tool| {
            !adas_policy::gate::is_platform_tool(tool)
                && !skill
                    .skill
                    .tools
                    .iter()
                    .any(|declared| declared.name == *tool)
        })
        .map(|tool| format!("`{tool}`"))
        .collect();
    if undeclared.is_empty() {
        return Ok(());
    }
    Err(OrchestratorError::InvalidField {
        field: "program",
        reason: format!(
            "skill `{}` does not declare {}: a skill calls only the tools it declares",
            skill.slag,
            undeclared.join(", ")
        ),
    })
}

/// The caller's `context` sets nothing the skill reads from the user's
/// words only (`extract_from: message`).
pub(crate) fn said_only(
    skill: &Skill,
    context: &Map<String, Json>,
) -> Result<(), OrchestratorError> {
    let refused: Vec<FieldViolation> = context
        .keys()
        .filter(|name| skill.said_only(name))
        .map(|name| {
            FieldViolation::new(
                format!("context.{name}"),
                format!(
                    "the skill reads `{name}` from the user's words only (`extract_from: \
                     message`): the caller's context may not set it; let the user say it, \
                     or set `extract_from: any`"
                ),
            )
        })
        .collect();
    if refused.is_empty() {
        return Ok(());
    }
    Err(OrchestratorError::InvalidFields(
        "context sets a value the skill takes from the user's words only".into(),
        refused,
    ))
}

/// The resources bound to the skill's declarations, every credential one
/// the operator lets this tenant use (`allowed`): well-formed is not enough.
pub(crate) fn resources(
    skill: &Skill,
    given: &BTreeMap<String, String>,
    allowed: impl Fn(&str) -> bool,
) -> Result<BoundResources, OrchestratorError> {
    let bound = adas_skill::resources::bind(&skill.resources, given).map_err(|problems| {
        let violations = problems
            .iter()
            .map(|problem| {
                FieldViolation::new(
                    format!("resources.{}", problem.name),
                    problem.message.clone(),
                )
            })
            .collect();
        let messages: Vec<&str> = problems
            .iter()
            .map(|problem| problem.message.as_str())
            .collect();
        OrchestratorError::Resources(messages.join("; "), violations)
    })?;
    let refused: Vec<FieldViolation> = bound
        .credentials
        .iter()
        .filter(|name| {
            bound
                .values
                .get(*name)
                .is_some_and(|reference| !allowed(reference))
        })
        .map(|name| {
            FieldViolation::new(
                format!("resources.{name}"),
                "this secret reference is not one the operator allows this tenant \
                 (--secret-allow); value not shown",
            )
        })
        .collect();
    if !refused.is_empty() {
        return Err(OrchestratorError::Resources(
            "a credential resource names a secret this tenant may not use".into(),
            refused,
        ));
    }
    Ok(bound)
}

/// What a `request_id` remembers: the job it started, the request's
/// fingerprint and when, as one entry.
pub(crate) fn remembered_entry(job_id: &str, fingerprint: &str, now_ms: u64) -> String {
    format!("{job_id} {fingerprint} {now_ms}")
}

/// A request id used before: the job it started, or a refusal when it was
/// used for a different request.
pub(crate) fn replayed<'a>(
    remembered: &'a str,
    fingerprint: &str,
) -> Result<(&'a str, u64), OrchestratorError> {
    let mut parts = remembered.splitn(3, ' ');
    let (job_id, first) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let remembered_ms = parts.next().and_then(|ms| ms.parse().ok()).unwrap_or(0);
    if first != fingerprint {
        return Err(OrchestratorError::InvalidField {
            field: "request_id",
            reason: "was already used for a different request".into(),
        });
    }
    Ok((job_id, remembered_ms))
}

/// Whether a remembered request whose job was never stored may store it now:
/// only while that first attempt could still be in flight — a job that ended
/// and was deleted long ago is never made again.
pub(crate) fn may_store_unstored(remembered_ms: u64, now_ms: u64) -> bool {
    now_ms.saturating_sub(remembered_ms) < UNSTORED_START_WINDOW_MS
}

/// The caller's context as evidence.
pub(crate) fn client_evidence(context: &Map<String, Json>) -> Vec<Evidence> {
    context
        .iter()
        .map(|(name, value)| Evidence {
            name: name.clone(),
            value: value.clone(),
            source: "client".into(),
        })
        .collect()
}

/// What a new job takes from the conversation it continues.
#[derive(Debug, Default)]
pub(crate) struct Carried {
    /// Grants the conversation holds for the principal.
    pub grants: Vec<adas_jobs::Grant>,
    /// The earlier turns' values, by input name.
    pub memory: Map<String, Json>,
    /// The earlier turn's intent.
    pub previous_intent: String,
    /// Values that stay masked in the conversation.
    pub personal: Vec<String>,
}

/// What `previous` (the conversation `id`'s latest job) carries into a new
/// job of `principal`'s, its evidence added to `evidence`. Grants stay with
/// the principal they were issued to (a solution's turn brings its own, so
/// `grants` is `false` there); the earlier turns' values are the
/// conversation's memory, never this turn's context: what the message names
/// wins.
pub(crate) fn carried(
    skill: &Skill,
    (principal, id): (&str, &str),
    mut previous: JobRecord,
    grants: bool,
    evidence: &mut Vec<Evidence>,
) -> Carried {
    let grants = if grants {
        std::mem::take(&mut previous.grants)
            .into_iter()
            .filter(|grant| grant.principal == principal && grant.conversation == id)
            .collect()
    } else {
        Vec::new()
    };
    let inputs: HashSet<&str> = skill
        .tools
        .iter()
        .flat_map(|tool| &tool.inputs)
        .map(|input| input.name.as_str())
        .collect();
    let (memory, from_calls) = adas_jobs::memory::remember(&previous, &inputs, &skill.tools);
    let carried = Carried {
        grants,
        memory,
        previous_intent: adas_jobs::memory::previous_intent(&previous),
        personal: previous.personal.clone(),
    };
    for mut item in previous.evidence.into_iter().chain(from_calls) {
        if !evidence.iter().any(|known| {
            known.name == item.name && adas_jobs::same_value(&known.value, &item.value)
        }) {
            item.source = "conversation".into();
            evidence.push(item);
        }
    }
    carried
}

/// A new job's active-job slots, held from admission until the job is
/// stored. Dropped before [`Slots::keep`] — an error, a request cancelled
/// mid-way — they are given back, so no error path releases them by hand.
#[derive(Debug)]
pub(crate) struct Slots {
    repo: JobRepo,
    owner: (String, String),
    job: (String, String),
    kept: bool,
}

impl Slots {
    /// Claims the slots of `job` for `owner` (tenant, principal); `Err` names
    /// the full set.
    pub(crate) async fn claim(
        repo: &JobRepo,
        (tenant, principal): (&str, &str),
        (slag, job_id): (&str, &str),
        limits: adas_jobs::JobLimits,
    ) -> Result<Result<Self, &'static str>, OrchestratorError> {
        Ok(repo
            .claim_job_slots((tenant, principal), (slag, job_id), limits)
            .await?
            .map(|()| Self {
                repo: repo.clone(),
                owner: (tenant.to_owned(), principal.to_owned()),
                job: (slag.to_owned(), job_id.to_owned()),
                kept: false,
            }))
    }

    /// The job was stored (by this request or a retry of it): the slots are
    /// its until it ends.
    pub(crate) fn keep(mut self) {
        self.kept = true;
    }
}

impl Drop for Slots {
    fn drop(&mut self) {
        if self.kept {
            return;
        }
        let (repo, owner, job) = (
            self.repo.clone(),
            std::mem::take(&mut self.owner),
            std::mem::take(&mut self.job),
        );
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let _ = repo
                    .release_slots((&owner.0, &owner.1), (&job.0, &job.1))
                    .await;
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn skill(yaml: &str) -> OperationalSkill {
        OperationalSkill::from_source("desk", yaml).expect("a skill")
    }

    const SKILL: &str = r"
id: desk
name: Desk
version: 1.0.0
problem:
  statement: Answer where an order is.
intents:
  supported:
    - id: where
      description: Where an order is
      examples: [where is my order]
      entities:
        - name: order_id
          type: string
          extract_from: message
tools:
  - name: lookup
    description: Looks an order up
    inputs:
      - name: order_id
        type: string
        required: true
resources:
  - name: api_key
    type: credential
    required: false
";

    #[test]
    fn a_goal_or_a_program_is_required_and_bounded() {
        assert!(goal("where is my order", false).is_ok());
        assert!(goal("", true).is_ok());
        for refused in [
            goal("  ", false),
            goal(&"x".repeat(MAX_GOAL_BYTES + 1), false),
        ] {
            assert!(matches!(
                refused,
                Err(OrchestratorError::InvalidField { field: "goal", .. })
            ));
        }
    }

    #[test]
    fn a_program_calls_only_declared_tools() {
        let skill = skill(SKILL);
        let declared = adas_dia::parse("lookup(order_id=\"A-1\")").unwrap();
        assert!(declared_tools(&skill, Some(&declared)).is_ok());
        assert!(declared_tools(&skill, None).is_ok());
        let other = adas_dia::parse("process_refund(amount=5)").unwrap();
        let Err(OrchestratorError::InvalidField { field, reason }) =
            declared_tools(&skill, Some(&other))
        else {
            panic!("an undeclared tool is refused");
        };
        assert_eq!(field, "program");
        assert!(reason.contains("`process_refund`"), "{reason}");
    }

    #[test]
    fn the_context_never_sets_a_value_the_user_must_say() {
        let skill = skill(SKILL);
        let mut context = Map::new();
        context.insert("note".into(), json!("hi"));
        assert!(said_only(&skill.skill, &context).is_ok());
        context.insert("order_id".into(), json!("A-1"));
        let Err(OrchestratorError::InvalidFields(_, fields)) = said_only(&skill.skill, &context)
        else {
            panic!("a said-only entity is refused");
        };
        assert_eq!(fields.len(), 1);
    }

    #[test]
    fn a_credential_must_be_one_the_tenant_may_use() {
        let skill = skill(SKILL);
        let given = BTreeMap::from([("api_key".to_owned(), "vault:team-a/key".to_owned())]);
        assert!(resources(&skill.skill, &given, |_| true).is_ok());
        assert!(matches!(
            resources(&skill.skill, &given, |_| false),
            Err(OrchestratorError::Resources(..))
        ));
        let unknown = BTreeMap::from([("other".to_owned(), "x".to_owned())]);
        assert!(matches!(
            resources(&skill.skill, &unknown, |_| true),
            Err(OrchestratorError::Resources(..))
        ));
    }

    #[test]
    fn a_request_id_returns_its_job_only_for_the_same_request() {
        let entry = remembered_entry("job-1", "abc", 1_000);
        assert_eq!(replayed(&entry, "abc").unwrap(), ("job-1", 1_000));
        assert!(matches!(
            replayed(&entry, "other"),
            Err(OrchestratorError::InvalidField {
                field: "request_id",
                ..
            })
        ));
        assert!(may_store_unstored(
            1_000,
            1_000 + UNSTORED_START_WINDOW_MS - 1
        ));
        assert!(!may_store_unstored(1_000, 1_000 + UNSTORED_START_WINDOW_MS));
    }

    #[test]
    fn a_conversation_carries_its_grants_only_to_their_principal() {
        let skill = skill(SKILL);
        let grant = |principal: &str| adas_jobs::Grant {
            key: "desk.user".into(),
            value: json!("u-1"),
            skill: "desk".into(),
            tool: "lookup".into(),
            principal: principal.into(),
            conversation: "c-1".into(),
            job: "job-0".into(),
            expires_ms: u64::MAX,
            classified: false,
        };
        let previous = JobRecord {
            grants: vec![grant("ana"), grant("bob")],
            evidence: vec![Evidence {
                name: "order_id".into(),
                value: json!("A-1"),
                source: "message".into(),
            }],
            personal: vec!["ana@example.com".into()],
            ..JobRecord::queued("job-1".into(), &skill, "hi".into(), ("t", "ana"))
        };
        let mut evidence = Vec::new();
        let first = carried(
            &skill.skill,
            ("ana", "c-1"),
            previous.clone(),
            true,
            &mut evidence,
        );
        assert_eq!(first.grants.len(), 1);
        assert_eq!(first.grants[0].principal, "ana");
        assert_eq!(first.personal, ["ana@example.com"]);
        assert_eq!(evidence[0].source, "conversation");
        // A solution's turn brings its own grants.
        let mut evidence = Vec::new();
        let solution = carried(&skill.skill, ("ana", "c-1"), previous, false, &mut evidence);
        assert!(solution.grants.is_empty());
    }

    /// The slots go back when the guard is dropped before the job is
    /// stored, and stay when it is kept.
    #[tokio::test]
    async fn slots_not_kept_are_given_back() {
        let store: std::sync::Arc<dyn adas_state::StateStore> =
            std::sync::Arc::new(adas_state::MemoryStore::new());
        let repo = JobRepo::new(store, std::env::temp_dir());
        let limits = adas_jobs::JobLimits {
            per_principal: 1,
            per_tenant: 10,
        };
        // Stored jobs that have not ended: a full set is cleaned only of
        // jobs that ended or vanished.
        let skill = skill(SKILL);
        for job in ["job-1", "job-2", "job-3"] {
            let record = JobRecord::queued(job.into(), &skill, "hi".into(), ("t", "ana"));
            repo.create(&record, false).await.unwrap();
        }
        let claim = |job: &'static str| Slots::claim(&repo, ("t", "ana"), ("desk", job), limits);
        let dropped = claim("job-1").await.unwrap().unwrap();
        assert_eq!(claim("job-2").await.unwrap().unwrap_err(), "principal");
        drop(dropped);
        // The release runs on the runtime: let it.
        let mut again = claim("job-2").await.unwrap();
        for _ in 0..100 {
            if again.is_ok() {
                break;
            }
            tokio::task::yield_now().await;
            again = claim("job-2").await.unwrap();
        }
        again.expect("a dropped guard gives its slot back").keep();
        assert_eq!(claim("job-3").await.unwrap().unwrap_err(), "principal");
    }
}
