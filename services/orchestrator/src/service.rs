//! The OrchestratorService handlers: jobs started, read, listed, watched
//! and cancelled, as the signed-in principal may.

use super::*;

/// How long one blocking event read of WatchJob waits before it re-checks the job.
const WATCH_BLOCK: Duration = Duration::from_secs(10);

/// How long a `request_id` keeps returning the job it started.
pub const REQUEST_ID_TTL: Duration = Duration::from_secs(24 * 3600);

/// Longest goal accepted, in bytes.
pub const MAX_GOAL_BYTES: usize = 32 * 1024;

/// How long after a StartJob remembered its request id a retry may still
/// store the job that attempt never stored (longer than any request lives).
const UNSTORED_START_WINDOW_MS: u64 = 5 * 60 * 1000;

/// Largest `program` StartJob takes: a plan is a handful of calls.
pub const MAX_PROGRAM_BYTES: usize = 64 * 1024;

/// The caller's `context` sets nothing the skill reads from the user's
/// words only (`extract_from: message`): refused, field by field, before
/// anything is stored.
fn said_only(
    skill: &adas_skill::model::Skill,
    context: &serde_json::Map<String, serde_json::Value>,
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

/// A client's DIA program, parsed (None when the request has none).
pub(crate) fn parse_program(source: &str) -> Result<Option<adas_dia::Program>, OrchestratorError> {
    if source.trim().is_empty() {
        return Ok(None);
    }
    if source.len() > MAX_PROGRAM_BYTES {
        return Err(OrchestratorError::InvalidField {
            field: "program",
            reason: format!("{} bytes; the limit is {MAX_PROGRAM_BYTES}", source.len()),
        });
    }
    let program = adas_dia::parse(source).map_err(|error| OrchestratorError::InvalidField {
        field: "program",
        reason: error.to_string(),
    })?;
    if program.elements.is_empty() {
        return Err(OrchestratorError::InvalidField {
            field: "program",
            reason: "the program has no element".into(),
        });
    }
    Ok(Some(program))
}

type EventStream = Pin<Box<dyn Stream<Item = Result<pb::JobEvent, Status>> + Send>>;

#[tonic::async_trait]
impl OrchestratorService for Orchestrator {
    async fn start_job(
        &self,
        request: Request<pb::StartJobRequest>,
    ) -> Result<Response<pb::Job>, Status> {
        let principal = adas_runtime::principal(&request)?;
        let request = request.into_inner();
        // On a solution, its routing and handoffs pick the skill.
        let mut turn = if request.solution.is_empty() {
            None
        } else {
            Some(self.solution_turn(&principal, &request).await?)
        };
        let slag = match &turn {
            Some(turn) => turn.slag.clone(),
            None => parse_skill_name(&request.skill).map_err(|reason| {
                OrchestratorError::InvalidField {
                    field: "skill",
                    reason,
                }
            })?,
        };
        let program = parse_program(&request.program)?;
        if request.goal.trim().is_empty() && program.is_none() {
            return Err(OrchestratorError::InvalidField {
                field: "goal",
                reason: "a goal (or a DIA `program`) is required".into(),
            }
            .into());
        }
        if request.goal.len() > MAX_GOAL_BYTES {
            return Err(OrchestratorError::InvalidField {
                field: "goal",
                reason: format!(
                    "{} bytes; the limit is {MAX_GOAL_BYTES}",
                    request.goal.len()
                ),
            }
            .into());
        }
        let skill = self
            .catalog
            .for_tenant(&principal.tenant)
            .map_err(OrchestratorError::from)?
            .get_async(&slag)
            .await
            .map_err(OrchestratorError::from)?;
        // A skill calls only the tools it declares: a program naming another
        // (one its server offers, say) is refused before anything is stored.
        if let Some(program) = &program {
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
                .collect();
            if !undeclared.is_empty() {
                return Err(OrchestratorError::InvalidField {
                    field: "program",
                    reason: format!(
                        "skill `{slag}` does not declare {}: a skill calls only the tools it declares",
                        undeclared
                            .iter()
                            .map(|tool| format!("`{tool}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                }
                .into());
            }
        }
        let context = request
            .context
            .as_ref()
            .map(struct_to_json)
            .unwrap_or_default();
        said_only(&skill.skill, &context)?;
        let given: BTreeMap<String, String> = request.resources.clone().into_iter().collect();
        let bound =
            adas_skill::resources::bind(&skill.skill.resources, &given).map_err(|problems| {
                let violations: Vec<FieldViolation> = problems
                    .iter()
                    .map(|problem| {
                        FieldViolation::new(
                            format!("resources.{}", problem.name),
                            problem.message.clone(),
                        )
                    })
                    .collect();
                OrchestratorError::Resources(
                    problems
                        .iter()
                        .map(|problem| problem.message.clone())
                        .collect::<Vec<_>>()
                        .join("; "),
                    violations,
                )
            })?;
        // Well-formed is not enough: only what the operator allows this tenant.
        let refused: Vec<FieldViolation> = bound
            .credentials
            .iter()
            .filter(|name| {
                bound
                    .values
                    .get(*name)
                    .is_some_and(|reference| !self.secrets.allows(&principal.tenant, reference))
            })
            .map(|name| {
                FieldViolation::new(
                    format!("resources.{name}"),
                    "this secret reference is not one the operator allows this tenant (--secret-allow); value not shown",
                )
            })
            .collect();
        if !refused.is_empty() {
            return Err(OrchestratorError::Resources(
                "a credential resource names a secret this tenant may not use".into(),
                refused,
            )
            .into());
        }
        let mut job_id = new_job_id();
        if !request.request_id.is_empty() {
            // Scoped by who asks: another principal's id is not a way to its job.
            let key = format!("start-job:{}:{}", principal.name, request.request_id);
            let fingerprint = adas_jobs::request_fingerprint(&json!({
                "skill": slag,
                "solution": request.solution,
                "goal": request.goal,
                "program": request.program,
                "context": request.context.as_ref().map(struct_to_json),
                "resources": given,
            }));
            if let Some(existing) = self
                .repo
                .store()
                .remember(
                    &slag,
                    &key,
                    &format!("{job_id} {fingerprint} {}", adas_state::now_ms()),
                    REQUEST_ID_TTL,
                )
                .await
                .map_err(OrchestratorError::from)?
            {
                let mut parts = existing.splitn(3, ' ');
                let (existing, first) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
                let remembered_ms: u64 = parts.next().and_then(|ms| ms.parse().ok()).unwrap_or(0);
                if first != fingerprint {
                    return Err(OrchestratorError::InvalidField {
                        field: "request_id",
                        reason: "was already used for a different request".into(),
                    }
                    .into());
                }
                // A repeated request returns the first job.
                match self.repo.load(&slag, existing).await {
                    Ok(stored) => return Ok(adas_runtime::reply(adas_wire::job(&stored))),
                    // The first attempt remembered its id and died before
                    // storing the job (a crash, a store that went away): this
                    // attempt makes that job, under that id. Only while such
                    // an attempt could be in flight — a job that ended and
                    // was deleted long ago is never made again.
                    Err(JobError::NotFound { .. })
                        if adas_state::now_ms().saturating_sub(remembered_ms)
                            < UNSTORED_START_WINDOW_MS =>
                    {
                        job_id = existing.to_owned();
                    }
                    Err(error) => return Err(OrchestratorError::from(error).into()),
                }
            }
        }
        let mut evidence: Vec<Evidence> = context
            .iter()
            .map(|(name, value)| Evidence {
                name: name.clone(),
                value: value.clone(),
                source: "client".into(),
            })
            .collect();
        let mut grants = Vec::new();
        let (mut memory, mut previous_intent) = (serde_json::Map::new(), String::new());
        let mut personal: Vec<String> = Vec::new();
        let continued = match turn.as_mut() {
            Some(turn) => {
                grants = std::mem::take(&mut turn.grants);
                Ok(turn.previous.take())
            }
            None => {
                self.continue_conversation(&principal, &slag, &request.conversation)
                    .await
            }
        };
        let conversation = match continued {
            Ok(Some((id, mut previous))) => {
                // Grants stay with the principal they were issued to: a
                // conversation continued by another holds none of them.
                if turn.is_none() {
                    grants = std::mem::take(&mut previous.grants)
                        .into_iter()
                        .filter(|grant| {
                            grant.principal == principal.name && grant.conversation == id
                        })
                        .collect();
                }
                // The earlier turns' values are the conversation's memory,
                // never this turn's context: what the message names wins.
                let inputs: std::collections::HashSet<&str> = skill
                    .skill
                    .tools
                    .iter()
                    .flat_map(|tool| &tool.inputs)
                    .map(|input| input.name.as_str())
                    .collect();
                let (remembered, from_calls) =
                    adas_jobs::memory::remember(&previous, &inputs, &skill.skill.tools);
                memory = remembered;
                // What was personal in the conversation stays masked in it.
                personal = previous.personal.clone();
                previous_intent = adas_jobs::memory::previous_intent(&previous);
                for mut item in previous.evidence.into_iter().chain(from_calls) {
                    if !evidence.iter().any(|known| {
                        known.name == item.name && adas_jobs::same_value(&known.value, &item.value)
                    }) {
                        item.source = "conversation".into();
                        evidence.push(item);
                    }
                }
                id
            }
            Ok(None) => job_id.clone(),
            Err(error) => return Err(error.into()),
        };
        // Active-job quotas: the suite's own calls and dev mode are not limited.
        let holds_quota = !principal.acts_for_every_tenant();
        if holds_quota
            && let Err(scope) = self
                .repo
                .claim_job_slots(
                    (&principal.tenant, &principal.name),
                    (&slag, &job_id),
                    self.limits,
                )
                .await
                .map_err(OrchestratorError::from)?
        {
            return Err(adas_runtime::quota::exhausted(
                &format!("active jobs of this {scope}"),
                scope,
                Duration::from_secs(1),
            ));
        }
        let client_program = program.is_some();
        let record = JobRecord {
            context,
            resources: bound.values,
            // A client's own program skips intent and planning; every call
            // in it is still resolved (ASK pauses) and gated like a plan's.
            plan: program.map(adas_dia::Plan::new),
            // A client's program is its own decision: no intent was guessed.
            intent: client_program.then(|| adas_jobs::DetectedIntent {
                intent_id: String::new(),
                confidence: 1.0,
                out_of_domain: false,
                margin: 1.0,
                confident: true,
            }),
            request_id: request.request_id,
            holds_quota,
            conversation: conversation.clone(),
            evidence,
            memory,
            previous_intent,
            trace_parent: adas_runtime::telemetry::current_traceparent(),
            grants,
            solution: turn
                .as_ref()
                .map(|turn| turn.id.clone())
                .unwrap_or_default(),
            handoff: turn.as_mut().and_then(|turn| turn.handoff.take()),
            // Who started it, as authenticated: what `${principal.*}` reads.
            personal,
            owner_roles: principal.roles.clone(),
            owner_claims: principal.claims.clone(),
            ..JobRecord::queued(
                job_id.clone(),
                &skill,
                request.goal,
                (&principal.tenant, &principal.name),
            )
        };
        // Created and queued in one write.
        let stored = match self.repo.create(&record, true).await {
            Ok(stored) => stored,
            // A retry of the same request stored it first: that job it is.
            Err(JobError::Store(adas_state::StateError::AlreadyExists { .. })) => {
                if holds_quota {
                    let _ = self.repo.release_job_slots(&record).await;
                }
                let stored = self
                    .repo
                    .load(&slag, &record.job_id)
                    .await
                    .map_err(OrchestratorError::from)?;
                return Ok(adas_runtime::reply(adas_wire::job(&stored)));
            }
            Err(error) => {
                if holds_quota {
                    let _ = self.repo.release_job_slots(&record).await;
                }
                return Err(OrchestratorError::from(error).into());
            }
        };
        // A conversation's first job names it: its turn is found without a
        // write (see `continue_conversation`).
        if let Some(turn) = &turn {
            self.set_solution_turn(&principal.tenant, &turn.id, &conversation, (&slag, &job_id))
                .await?;
        } else if conversation != job_id {
            self.repo
                .set_conversation_turn(&principal.tenant, &slag, &conversation, &job_id)
                .await
                .map_err(OrchestratorError::from)?;
        }
        Ok(adas_runtime::reply(adas_wire::job(&stored)))
    }

    async fn get_job(
        &self,
        request: Request<pb::GetJobRequest>,
    ) -> Result<Response<pb::Job>, Status> {
        let principal = adas_runtime::principal(&request)?;
        let (slag, job_id) = Self::job_name(&request.get_ref().name)?;
        let stored = self
            .repo
            .load(&slag, &job_id)
            .await
            .map_err(OrchestratorError::from)?;
        adas_wire::check_job_access(&principal, &stored.record)?;
        Ok(adas_runtime::reply(adas_wire::job(&stored)))
    }

    async fn list_jobs(
        &self,
        request: Request<pb::ListJobsRequest>,
    ) -> Result<Response<pb::ListJobsResponse>, Status> {
        let principal = adas_runtime::principal(&request)?;
        let request = request.into_inner();
        let query = JobQuery::of(&request)?;
        let size =
            page_size(request.page_size).map_err(|reason| OrchestratorError::InvalidField {
                field: "page_size",
                reason,
            })?;
        // Only what the caller may read (its tenant, and its own jobs unless
        // it oversees them all) and what the filters ask for.
        let keep = |record: &adas_jobs::JobRecord| {
            adas_wire::check_job_access(&principal, record).is_ok() && query.keeps(record)
        };
        let (stored, next_page_token) = if query.newest_first {
            let slags = match &query.slag {
                Some(slag) => vec![slag.clone()],
                None => self.readable_slags(&principal.tenant).await,
            };
            // Sealed for the caller: a token can name only a job it was shown.
            let caller = format!("{}/{}", principal.tenant, principal.name);
            let after = if request.page_token.is_empty() {
                None
            } else {
                Some(
                    self.repo
                        .open_cursor(&caller, &request.page_token)
                        .await
                        .map_err(OrchestratorError::from)?
                        .ok_or_else(|| OrchestratorError::InvalidField {
                            field: "page_token",
                            reason: "was not issued by this service to this caller for this list"
                                .into(),
                        })?,
                )
            };
            let (stored, next) = self
                .repo
                .list_newest(&slags, query.since_ms, after.as_ref(), size, keep)
                .await
                .map_err(OrchestratorError::from)?;
            let token = match next {
                Some(cursor) => self
                    .repo
                    .seal_cursor(&caller, &cursor)
                    .await
                    .map_err(OrchestratorError::from)?,
                None => String::new(),
            };
            (stored, token)
        } else {
            let slag = query.slag.clone().unwrap_or_default();
            // The position in the skill's index is sealed: it counts every
            // tenant's jobs (adas_jobs page.rs).
            let caller = format!("{}/{}", principal.tenant, principal.name);
            let list = format!("jobs:{}", request.status);
            let offset = if request.page_token.is_empty() {
                0
            } else {
                self.repo
                    .open_page(&slag, (&caller, &list), &request.page_token)
                    .await
                    .map_err(OrchestratorError::from)?
                    .ok_or_else(|| OrchestratorError::InvalidField {
                        field: "page_token",
                        reason: "was not issued by this service to this caller for this list"
                            .into(),
                    })?
            };
            let (stored, next) = self
                .repo
                .list(&slag, query.status, (offset, size), keep)
                .await
                .map_err(OrchestratorError::from)?;
            let token = match next {
                Some(offset) => self
                    .repo
                    .seal_page(&slag, (&caller, &list), offset)
                    .await
                    .map_err(OrchestratorError::from)?,
                None => String::new(),
            };
            (stored, token)
        };
        if stored.is_empty()
            && request.page_token.is_empty()
            && let Some(slag) = &query.slag
            && let Some(unknown) = self.unknown_skill(&principal.tenant, slag).await
        {
            return Err(OrchestratorError::from(unknown).into());
        }
        Ok(adas_runtime::reply(pb::ListJobsResponse {
            jobs: stored.iter().map(adas_wire::job).collect(),
            next_page_token,
        }))
    }

    async fn watch_job(
        &self,
        request: Request<pb::WatchJobRequest>,
    ) -> Result<Response<EventStream>, Status> {
        let principal = adas_runtime::principal(&request)?;
        let request = request.into_inner();
        let (slag, job_id) = Self::job_name(&request.name)?;
        let stored = self
            .repo
            .load(&slag, &job_id)
            .await
            .map_err(OrchestratorError::from)?;
        adas_wire::check_job_access(&principal, &stored.record)?;
        let repo = self.repo.clone();
        let mut after = (!request.after_event_id.is_empty()).then_some(request.after_event_id);
        let (sender, receiver) = tokio::sync::mpsc::channel(64);
        tokio::spawn(async move {
            // Blocking reads, not polling: an event reaches the client as soon as
            // any process appends it. The stream ends after the event that ends the
            // job (and whatever follows it); a timed-out wait re-checks the record
            // in case that event was never written (a crash between the two writes).
            loop {
                let waited = tokio::select! {
                    waited = repo.wait_events(&slag, &job_id, after.as_deref(), 256, WATCH_BLOCK) => waited,
                    () = sender.closed() => return,
                };
                let mut events = match waited {
                    Ok(events) => events,
                    Err(error) => {
                        let _ = sender
                            .send(Err(Status::from(OrchestratorError::from(error))))
                            .await;
                        return;
                    }
                };
                let mut ended = events.iter().any(|(_, event)| event.status.is_terminal());
                if events.is_empty() {
                    match repo.load(&slag, &job_id).await {
                        Ok(stored) if stored.record.status.is_terminal() => ended = true,
                        Ok(_) => {}
                        Err(_) => return,
                    }
                }
                if ended {
                    // What follows the end goes out with it (a wait that does
                    // not wait: this process' watch reader already read it),
                    // so the stream closes right after its last event and a
                    // client that stops reading there cancels nothing.
                    // Bounded: an ended job writes few events after its end.
                    for _ in 0..16 {
                        let last = events.last().map(|(id, _)| id.clone()).or(after.clone());
                        let rest = repo
                            .wait_events(&slag, &job_id, last.as_deref(), 256, Duration::ZERO)
                            .await
                            .unwrap_or_default();
                        if rest.is_empty() {
                            break;
                        }
                        events.extend(rest);
                    }
                }
                if events.is_empty() {
                    continue;
                }
                // Access is checked again for every batch: an approver whose
                // part ended (the approval decided) stops receiving the job.
                // The same read gives the values shown masked.
                let personal = match repo.load(&slag, &job_id).await {
                    Ok(stored) => match adas_wire::check_job_access(&principal, &stored.record) {
                        Ok(()) => adas_step::personal_values(&stored.record),
                        Err(status) => {
                            let _ = sender.send(Err(status)).await;
                            return;
                        }
                    },
                    Err(error) => {
                        let _ = sender
                            .send(Err(Status::from(OrchestratorError::from(error))))
                            .await;
                        return;
                    }
                };
                for (id, event) in &events {
                    if sender
                        .send(Ok(adas_wire::event((&slag, &job_id), id, event, &personal)))
                        .await
                        .is_err()
                    {
                        return;
                    }
                    after = Some(id.clone());
                }
                if ended {
                    return;
                }
            }
        });
        Ok(Response::new(Box::pin(
            tokio_stream::wrappers::ReceiverStream::new(receiver),
        )))
    }

    async fn cancel_job(
        &self,
        request: Request<pb::CancelJobRequest>,
    ) -> Result<Response<pb::Job>, Status> {
        let principal = adas_runtime::principal(&request)?;
        let request = request.into_inner();
        let (slag, job_id) = Self::job_name(&request.name)?;
        for _ in 0..5 {
            let StoredJob {
                mut record,
                version,
            } = self
                .repo
                .load(&slag, &job_id)
                .await
                .map_err(OrchestratorError::from)?;
            adas_wire::check_job_access(&principal, &record)?;
            if record.status.is_terminal() {
                if record.status == JobStatus::Cancelled {
                    return Ok(adas_runtime::reply(adas_wire::job(&StoredJob {
                        record,
                        version,
                    })));
                }
                return Err(OrchestratorError::Precondition(format!(
                    "job {job_id} has already ended ({:?})",
                    record.status
                ))
                .into());
            }
            record.audit.push(AuditEntry {
                who: principal.name.clone(),
                at: now(),
                action: "cancel".into(),
                detail: json!({"reason": request.reason}),
            });
            match self
                .repo
                .save(
                    version,
                    &mut record,
                    Transition::cancel(
                        None,
                        Event::Cancelled(Cancellation::ByClient {
                            reason: request.reason.clone(),
                        }),
                    ),
                )
                .await
            {
                Ok(version) => {
                    return Ok(adas_runtime::reply(adas_wire::job(&StoredJob {
                        record,
                        version,
                    })));
                }
                Err(JobError::Store(StateError::VersionConflict { .. })) => continue,
                Err(error) => return Err(OrchestratorError::from(error).into()),
            }
        }
        Err(
            OrchestratorError::Job(JobError::Store(StateError::VersionConflict {
                what: job_id,
                expected: 0,
                actual: 0,
            }))
            .into(),
        )
    }
}
