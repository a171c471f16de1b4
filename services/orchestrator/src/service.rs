//! The OrchestratorService handlers: jobs started, read, listed, watched
//! and cancelled, as the signed-in principal may.

use super::*;

/// How long one blocking event read of WatchJob waits before it re-checks the job.
const WATCH_BLOCK: Duration = Duration::from_secs(10);

/// How long a `request_id` keeps returning the job it started.
pub const REQUEST_ID_TTL: Duration = Duration::from_secs(24 * 3600);

/// Longest goal accepted, in bytes.
pub const MAX_GOAL_BYTES: usize = 32 * 1024;

/// Largest `program` StartJob takes: a plan is a handful of calls.
pub const MAX_PROGRAM_BYTES: usize = 64 * 1024;

/// The most a cancel's reason may hold, in bytes: it is kept in the job's
/// events and audit (a bulk cancel writes it into every job).
pub const MAX_REASON_BYTES: usize = 4 * 1024;

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

/// What a StartJob's `request_id` says of it.
enum Replay {
    /// The id's first request stored this job: it is the answer.
    Started(Box<StoredJob>),
    /// A new job (under this id).
    New(String),
}

impl Orchestrator {
    /// A `request_id` seen before returns the job its first request started
    /// (scoped by who asks: another principal's id is not a way to its job);
    /// a new one is remembered with the new job's id.
    async fn replay(
        &self,
        principal: &adas_runtime::Principal,
        slag: &str,
        request: &pb::StartJobRequest,
        given: &BTreeMap<String, String>,
    ) -> Result<Replay, OrchestratorError> {
        let job_id = new_job_id();
        if request.request_id.is_empty() {
            return Ok(Replay::New(job_id));
        }
        let key = format!("start-job:{}:{}", principal.name, request.request_id);
        let fingerprint = adas_jobs::request_fingerprint(&json!({
            "skill": slag,
            "solution": request.solution,
            "goal": request.goal,
            "program": request.program,
            "context": request.context.as_ref().map(struct_to_json),
            "resources": given,
        }));
        let entry = admission::remembered_entry(&job_id, &fingerprint, adas_state::now_ms());
        let Some(remembered) = self
            .repo
            .store()
            .remember(slag, &key, &entry, REQUEST_ID_TTL)
            .await?
        else {
            return Ok(Replay::New(job_id));
        };
        let (existing, remembered_ms) = admission::replayed(&remembered, &fingerprint)?;
        match self.repo.load(slag, existing).await {
            Ok(stored) => Ok(Replay::Started(Box::new(stored))),
            // The first attempt remembered its id and died before storing
            // the job (a crash, a store that went away): this attempt makes
            // that job, under that id.
            Err(JobError::NotFound { .. })
                if admission::may_store_unstored(remembered_ms, adas_state::now_ms()) =>
            {
                Ok(Replay::New(existing.to_owned()))
            }
            Err(error) => Err(error.into()),
        }
    }

    /// The conversation a new job continues (`None`: it starts one) and what
    /// it carries from there; on a solution, its turn says both.
    async fn carry(
        &self,
        principal: &adas_runtime::Principal,
        skill: &adas_skill::OperationalSkill,
        conversation: &str,
        turn: Option<&mut solution::Turn>,
        evidence: &mut Vec<Evidence>,
    ) -> Result<(Option<String>, admission::Carried), OrchestratorError> {
        let (previous, grants) = match turn {
            Some(turn) => (turn.previous.take(), Some(std::mem::take(&mut turn.grants))),
            None => (
                self.continue_conversation(principal, &skill.slag, conversation)
                    .await?,
                None,
            ),
        };
        let Some((id, previous)) = previous else {
            return Ok((
                None,
                admission::Carried {
                    grants: grants.unwrap_or_default(),
                    ..admission::Carried::default()
                },
            ));
        };
        let mut carried = admission::carried(
            &skill.skill,
            (&principal.name, &id),
            previous,
            grants.is_none(),
            evidence,
        );
        if let Some(grants) = grants {
            carried.grants = grants;
        }
        Ok((Some(id), carried))
    }

    /// Holds the active-job slots of a new job of `principal`'s (the suite's
    /// own calls and dev mode are not limited: `None`).
    async fn slots(
        &self,
        principal: &adas_runtime::Principal,
        job: (&str, &str),
    ) -> Result<Option<admission::Slots>, Status> {
        if principal.acts_for_every_tenant() {
            return Ok(None);
        }
        let owner = (principal.tenant.as_str(), principal.name.as_str());
        match admission::Slots::claim(&self.repo, owner, job, self.limits).await? {
            Ok(slots) => Ok(Some(slots)),
            Err(scope) => Err(adas_runtime::quota::exhausted(
                &format!("active jobs of this {scope}"),
                scope,
                Duration::from_secs(1),
            )),
        }
    }

    /// Stores a new job, created and queued in one write; a retry of the same
    /// request that stored it first finds it.
    async fn create(&self, record: &JobRecord) -> Result<StoredJob, OrchestratorError> {
        match self.repo.create(record, true).await {
            Ok(stored) => Ok(stored),
            Err(JobError::Store(StateError::AlreadyExists { .. })) => {
                Ok(self.repo.load(&record.slag, &record.job_id).await?)
            }
            Err(error) => Err(error.into()),
        }
    }

    /// A conversation's first job names it, so its next turn is found
    /// without a write (see `continue_conversation`).
    async fn name_turn(
        &self,
        principal: &adas_runtime::Principal,
        turn: Option<&solution::Turn>,
        conversation: &str,
        (slag, job_id): (&str, &str),
    ) -> Result<(), OrchestratorError> {
        if let Some(turn) = turn {
            self.set_solution_turn(&principal.tenant, &turn.id, conversation, (slag, job_id))
                .await
        } else if conversation != job_id {
            Ok(self
                .repo
                .set_conversation_turn(&principal.tenant, slag, conversation, job_id)
                .await?)
        } else {
            Ok(())
        }
    }
}

type EventStream = Pin<Box<dyn Stream<Item = Result<pb::JobEvent, Status>> + Send>>;

#[tonic::async_trait]
impl OrchestratorService for Orchestrator {
    async fn start_job(
        &self,
        request: Request<pb::StartJobRequest>,
    ) -> Result<Response<pb::Job>, Status> {
        let principal = adas_runtime::principal(&request)?;
        let retry = request.extensions().get::<crate::retry::RetryOf>().cloned();
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
        admission::goal(&request.goal, program.is_some())?;
        let skill = self
            .catalog
            .for_tenant(&principal.tenant)
            .map_err(OrchestratorError::from)?
            .get_async(&slag)
            .await
            .map_err(OrchestratorError::from)?;
        admission::declared_tools(&skill, program.as_ref())?;
        let context = request
            .context
            .as_ref()
            .map(struct_to_json)
            .unwrap_or_default();
        admission::said_only(&skill.skill, &context)?;
        let given: BTreeMap<String, String> = request.resources.clone().into_iter().collect();
        let bound = admission::resources(&skill.skill, &given, |reference| {
            self.secrets.allows(&principal.tenant, reference)
        })?;
        let job_id = match (
            &retry,
            self.replay(&principal, &slag, &request, &given).await?,
        ) {
            // A retry's id was claimed on the job it retries.
            (Some(retry), _) => retry.job_id.clone(),
            (None, Replay::Started(stored)) => {
                return Ok(adas_runtime::reply(adas_wire::job(&stored)));
            }
            (None, Replay::New(job_id)) => job_id,
        };
        let mut evidence = admission::client_evidence(&context);
        let (conversation, carried) = self
            .carry(
                &principal,
                &skill,
                &request.conversation,
                turn.as_mut(),
                &mut evidence,
            )
            .await?;
        let conversation = conversation.unwrap_or_else(|| job_id.clone());
        let slots = self.slots(&principal, (&slag, &job_id)).await?;
        let client_program = program.is_some();
        let mut record = JobRecord {
            context,
            resources: bound.values,
            // A client's own program skips intent and planning; every call
            // in it is still resolved (ASK pauses) and gated like a plan's.
            plan: program.map(adas_dia::Plan::new),
            // A client's program is its own decision: no intent was guessed.
            intent: client_program.then(adas_jobs::DetectedIntent::chosen),
            request_id: request.request_id,
            holds_quota: slots.is_some(),
            conversation: conversation.clone(),
            evidence,
            memory: carried.memory,
            previous_intent: carried.previous_intent,
            trace_parent: adas_runtime::telemetry::current_traceparent(),
            grants: carried.grants,
            solution: turn
                .as_ref()
                .map(|turn| turn.id.clone())
                .unwrap_or_default(),
            handoff: turn.as_mut().and_then(|turn| turn.handoff.take()),
            personal: carried.personal,
            // Who started it, as authenticated: what `${principal.*}` reads.
            owner_roles: principal.roles.clone(),
            owner_claims: principal.claims.clone(),
            ..JobRecord::queued(
                job_id.clone(),
                &skill,
                request.goal,
                (&principal.tenant, &principal.name),
            )
        };
        record.audit.extend(retry.map(|retry| retry.entry()));
        let stored = self.create(&record).await?;
        if let Some(slots) = slots {
            slots.keep();
        }
        self.name_turn(&principal, turn.as_ref(), &conversation, (&slag, &job_id))
            .await?;
        Ok(adas_runtime::reply(adas_wire::job(&stored)))
    }

    async fn retry_job(
        &self,
        request: Request<pb::RetryJobRequest>,
    ) -> Result<Response<pb::Job>, Status> {
        self.retry(request).await
    }

    async fn get_caller(
        &self,
        request: Request<pb::GetCallerRequest>,
    ) -> Result<Response<pb::Caller>, Status> {
        let principal = adas_runtime::principal(&request)?;
        Ok(adas_runtime::reply(pb::Caller {
            name: principal.name,
            tenant: principal.tenant,
            roles: principal.roles,
            dev_mode: principal.dev,
        }))
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
        principal.check_job(&stored.record)?;
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
            principal.check_job(record).is_ok() && query.keeps(record)
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
        principal.check_job(&stored.record)?;
        // The owner and those who see every job keep their access for the
        // job's life; an approver's lasts while the approval does.
        let lasting_access = principal.sees_all_jobs() || principal.name == stored.record.owner;
        let mut personal = adas_step::personal_values(&stored.record);
        let repo = self.repo.clone();
        let mut after = (!request.after_event_id.is_empty()).then_some(request.after_event_id);
        let (sender, receiver) = tokio::sync::mpsc::channel(64);
        tokio::spawn(async move {
            // Blocking reads, not polling: an event reaches the client as soon as
            // any process appends it. The stream ends after the event that ends the
            // job (and whatever follows it); a timed-out wait re-checks the record
            // in case that event was never written (a crash between the two writes).
            let fail = async |error: adas_jobs::JobError| {
                let _ = sender
                    .send(Err(Status::from(OrchestratorError::from(error))))
                    .await;
            };
            loop {
                let waited = tokio::select! {
                    waited = repo.wait_events(&slag, &job_id, after.as_deref(), 256, WATCH_BLOCK) => waited,
                    () = sender.closed() => return,
                };
                let mut events = match waited {
                    Ok(events) => events,
                    Err(error) => {
                        fail(error).await;
                        return;
                    }
                };
                let mut ended = events.iter().any(|(_, event)| event.status.is_terminal());
                if events.is_empty() {
                    match repo.load(&slag, &job_id).await {
                        Ok(stored) if stored.record.status.is_terminal() => ended = true,
                        Ok(_) => {}
                        // Said, not a stream that ends as if the job had: the
                        // client watches again (UNAVAILABLE) or stops (gone).
                        Err(error) => {
                            fail(error).await;
                            return;
                        }
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
                // An approver's access is checked again for every batch: one
                // whose part ended (the approval decided) stops receiving the
                // job. The values shown masked only grow, with the events
                // that add them: the job is read again after one of those
                // (the read is at least as new as the event), not after a
                // tool's result that added none.
                let reread = !lasting_access || events.iter().any(|(_, event)| event.adds_personal);
                if reread {
                    match repo.load(&slag, &job_id).await {
                        Ok(stored) => match principal.check_job(&stored.record) {
                            Ok(()) => personal = adas_step::personal_values(&stored.record),
                            Err(status) => {
                                let _ = sender.send(Err(status)).await;
                                return;
                            }
                        },
                        Err(error) => {
                            fail(error).await;
                            return;
                        }
                    }
                }
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
        if request.reason.len() > MAX_REASON_BYTES {
            return Err(OrchestratorError::InvalidField {
                field: "reason",
                reason: format!(
                    "{} bytes; the limit is {MAX_REASON_BYTES}",
                    request.reason.len()
                ),
            }
            .into());
        }
        for _ in 0..5 {
            let StoredJob {
                mut record,
                version,
            } = self
                .repo
                .load(&slag, &job_id)
                .await
                .map_err(OrchestratorError::from)?;
            principal.check_job(&record)?;
            let input = adas_step::machine::Input::CancelRequested {
                by: &principal.name,
                reason: &request.reason,
            };
            let cancelled = match adas_step::machine::apply(&mut record, input) {
                Ok(adas_step::machine::Applied::Write(cancelled)) => *cancelled,
                // Cancelled already: the job as it stands is the answer.
                Ok(adas_step::machine::Applied::Unchanged) => {
                    return Ok(adas_runtime::reply(adas_wire::job(&StoredJob {
                        record,
                        version,
                    })));
                }
                Err(refused) => {
                    return Err(
                        OrchestratorError::Precondition(format!("job {job_id} {refused}")).into(),
                    );
                }
            };
            match self.repo.save(version, &mut record, cancelled).await {
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
