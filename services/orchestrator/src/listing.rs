//! ListJobs' query: which skill or every skill (`skills/-`), the filters and
//! the order, checked once; and the skills a caller's tenant can read.

use super::*;

/// A checked ListJobs request.
#[derive(Debug)]
pub(crate) struct JobQuery {
    /// One skill; `None` for every skill of the caller's tenant.
    pub slag: Option<String>,
    pub status: Option<JobStatus>,
    outcome: pb::OutcomeClass,
    owner: String,
    pub since_ms: u64,
    pub newest_first: bool,
}

fn invalid(field: &'static str, reason: impl Into<String>) -> OrchestratorError {
    OrchestratorError::InvalidField {
        field,
        reason: reason.into(),
    }
}

impl JobQuery {
    pub fn of(request: &pb::ListJobsRequest) -> Result<Self, OrchestratorError> {
        let slag = if request.parent == "skills/-" {
            None
        } else {
            Some(parse_skill_name(&request.parent).map_err(|reason| invalid("parent", reason))?)
        };
        let status = pb::JobStatus::try_from(request.status)
            .map_err(|_| invalid("status", format!("{} is not a JobStatus", request.status)))?;
        let outcome = pb::OutcomeClass::try_from(request.outcome_class).map_err(|_| {
            invalid(
                "outcome_class",
                format!("{} is not an OutcomeClass", request.outcome_class),
            )
        })?;
        if request.owner.len() > 256 {
            return Err(invalid("owner", "is longer than 256 bytes"));
        }
        let since_ms = match &request.create_time_after {
            None => 0,
            Some(time) if time.seconds < 0 || !(0..1_000_000_000).contains(&time.nanos) => {
                return Err(invalid(
                    "create_time_after",
                    "must be a valid timestamp after 1970-01-01",
                ));
            }
            Some(time) => (time.seconds as u64)
                .saturating_mul(1000)
                .saturating_add(time.nanos as u64 / 1_000_000),
        };
        let newest_first = match request.order_by.trim() {
            "" => slag.is_none(),
            "create_time" | "create_time asc" if slag.is_some() => false,
            "create_time desc" => true,
            "create_time" | "create_time asc" => {
                return Err(invalid(
                    "order_by",
                    "`skills/-` lists newest first only: use `create_time desc` or leave it empty",
                ));
            }
            other => {
                return Err(invalid(
                    "order_by",
                    format!(
                        "`{}` is not an order: use `create_time` or `create_time desc`",
                        other.chars().take(64).collect::<String>()
                    ),
                ));
            }
        };
        Ok(Self {
            slag,
            status: adas_wire::job_status(status),
            outcome,
            owner: request.owner.clone(),
            since_ms,
            newest_first,
        })
    }

    /// Whether `record` passes the filters (the status too: only one skill's
    /// oldest-first list reads a status index).
    pub fn keeps(&self, record: &JobRecord) -> bool {
        self.status.is_none_or(|status| record.status == status)
            && (self.outcome == pb::OutcomeClass::Unspecified
                || adas_wire::outcome(record.outcome_class) == self.outcome)
            && (self.owner.is_empty() || record.owner == self.owner)
            && (self.since_ms == 0
                || adas_jobs::parse_rfc3339_ms(&record.created_at)
                    .is_some_and(|created| created >= self.since_ms))
    }
}

impl Orchestrator {
    /// The skills whose jobs `skills/-` lists for a caller of `tenant`: its
    /// tenant's, or every tenant's for a principal of all tenants (`*`).
    pub(crate) async fn readable_slags(&self, tenant: &str) -> Vec<String> {
        slags_of(&self.catalog, (tenant != "*").then_some(tenant))
            .await
            .into_iter()
            .collect()
    }

    /// NOT_FOUND for a list of `slag`'s jobs that found none when `tenant`
    /// has no such skill and no template of that name — an empty list of a
    /// typo would read as "no jobs". A deleted skill's kept jobs still list.
    pub(crate) async fn unknown_skill(
        &self,
        tenant: &str,
        slag: &str,
    ) -> Option<adas_skill::SkillError> {
        let catalog = self.catalog.clone();
        let (tenant, slag) = (tenant.to_owned(), slag.to_owned());
        tokio::task::spawn_blocking(move || {
            let catalog = catalog.for_tenant(&tenant).ok()?;
            let known = catalog.list().unwrap_or_default();
            // Names only: no template is parsed for this.
            let templates = catalog.template_slags().unwrap_or_default();
            (!known.contains(&slag) && !templates.contains(&slag)).then_some(
                adas_skill::SkillError::UnknownSkill {
                    slag,
                    known,
                    templates,
                },
            )
        })
        .await
        .ok()
        .flatten()
    }
}

/// The slags of `tenant`'s skills, or of every tenant's (`None`).
pub(crate) async fn slags_of(
    catalog: &Arc<Catalog>,
    tenant: Option<&str>,
) -> std::collections::BTreeSet<String> {
    let catalog = catalog.clone();
    let tenant = tenant.map(str::to_owned);
    // The catalog reads blocking (its files, or the shared store).
    tokio::task::spawn_blocking(move || {
        let tenants = tenant.map_or_else(|| catalog.tenant_names(), |tenant| vec![tenant]);
        let mut slags = std::collections::BTreeSet::new();
        for tenant in tenants {
            if let Ok(catalog) = catalog.for_tenant(&tenant) {
                slags.extend(catalog.list().unwrap_or_default());
            }
        }
        slags
    })
    .await
    .unwrap_or_default()
}
