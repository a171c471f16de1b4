//! What a model may spend on a request the suite makes for a job: read from
//! the job, never from the request.

/// What a model may spend on a request: the job's own spend so far, read from
/// the job (never from the request), when the caller is the suite (`service`)
/// stepping a job of the tenant it acts for. `None` — no model, the
/// deterministic answer — without a job; naming a job is for `service`
/// callers only (PERMISSION_DENIED), and another tenant's is NOT_FOUND.
pub async fn model_budget(
    jobs: &adas_jobs::JobRepo,
    principal: &adas_runtime::Principal,
    tenant: &str,
    job: &str,
) -> Result<Option<adas_step::Spend>, tonic::Status> {
    if job.is_empty() {
        return Ok(None);
    }
    // Naming a job is the suite's own step (as CheckToolCall on a job is).
    principal.require_service()?;
    let (slag, job_id) = adas_skill::slag::parse_job_name(job).map_err(|reason| {
        adas_runtime::status_with_details(
            tonic::Code::InvalidArgument,
            "INVALID_FIELD",
            format!("job: {reason}"),
            &[adas_runtime::FieldViolation::new("job", reason)],
        )
    })?;
    let stored = jobs
        .load(&slag, &job_id)
        .await
        .map_err(|error| match error {
            adas_jobs::JobError::NotFound { .. } => adas_runtime::status_with_details(
                tonic::Code::NotFound,
                "JOB_NOT_FOUND",
                format!("job {job_id} not found"),
                &[],
            ),
            other => adas_runtime::status_with_details(
                tonic::Code::Unavailable,
                "STATE_STORE",
                other.to_string(),
                &[],
            ),
        })?;
    adas_runtime::auth::check_job_tenant(tenant, principal.dev, &stored.record)?;
    Ok(Some(adas_step::Spend {
        tokens: stored.record.llm.tokens(),
        personal: adas_step::personal_values(&stored.record),
    }))
}
