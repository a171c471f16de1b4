//! The job's state machine for what happens to it from outside the worker:
//! an approver's decision, a cancel, an ask that expired, an answer refused
//! or taken. One [`apply`] of an [`Input`] to the job as stored answers the
//! one write it makes ([`Applied::Write`]), that nothing is to be written
//! ([`Applied::Unchanged`]), or why the input is refused ([`Refused`]);
//! the caller saves the write with a compare-and-set and, on a conflict,
//! applies the input again to the job as it then stands. An answer taken
//! also changes the record itself (the values it gave, the plan they fill),
//! so `apply` takes the caller's copy mutably, as the worker's does. The
//! table in ARCHITECTURE.md ("The lifecycle's inputs") is the one
//! `tests::the_table` holds.

use adas_skill::OperationalSkill;
use serde_json::{Map, Value as Json, json};

use crate::record::{AuditEntry, JobRecord, JobStatus, OutcomeClass};
use crate::{Cancellation, Event, Failure, PauseReason, Resumption, Transition};

/// Who answers a job paused for a reason. Exhaustive on purpose: a new
/// [`PauseReason`] does not compile until it says who answers it and
/// whether its wait expires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answerer {
    /// The user, with `SubmitInput`.
    User,
    /// An approver of the role asked, with `DecideApproval`.
    Approver,
    /// An operator replying in the agent's place (`adas job takeover`).
    Operator,
}

impl PauseReason {
    /// Who answers a job paused for this reason.
    pub fn answerer(self) -> Answerer {
        match self {
            Self::MissingRequiredInput
            | Self::IdentityVerificationRequired
            | Self::ToolErrorRecovery
            | Self::UserConfirmationRequired
            | Self::IntentClarificationRequired
            | Self::ActionConfirmationRequired => Answerer::User,
            Self::ApprovalRequired => Answerer::Approver,
            Self::HumanTakeoverRequired => Answerer::Operator,
        }
    }

    /// Whether the wait ends EXPIRED after the skill's `wait_timeout_ms`:
    /// the user's and the approver's do; a job handed to a human waits for
    /// the human, not for the user's timeout.
    pub fn expires(self) -> bool {
        match self.answerer() {
            Answerer::User | Answerer::Approver => true,
            Answerer::Operator => false,
        }
    }
}

/// An approver's decision on the call a job waits for.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The ask it answers.
    pub correlation_id: String,
    /// Approved, or rejected.
    pub approved: bool,
    /// Who decided.
    pub approver: String,
    /// The role the decision was asked of.
    pub role: String,
    /// The call's tool.
    pub tool: String,
    /// The call's digest.
    pub call_digest: String,
    /// The approver's words.
    pub comment: String,
}

/// An answer to a job's ask, as it came: who gave it, to which ask, in
/// which words (the audit keeps them).
#[derive(Debug, Clone, PartialEq)]
pub struct Answer<'a> {
    /// The ask it answers.
    pub correlation_id: &'a str,
    /// The fields as given.
    pub fields: &'a Map<String, Json>,
    /// Who answered (empty: the user, unnamed).
    pub by: &'a str,
    /// The client's request id (empty: none), kept so a twin request can
    /// tell the answer was taken.
    pub request_id: &'a str,
}

impl Answer<'_> {
    fn who(&self) -> &str {
        if self.by.is_empty() { "user" } else { self.by }
    }
}

/// What happens to a job from outside the worker.
#[derive(Debug, Clone)]
pub enum Input<'a> {
    /// An approver decided on the call the job waits for.
    ApprovalDecided(&'a Decision),
    /// A client (or an operator) asks to stop the job.
    CancelRequested {
        /// Who asks.
        by: &'a str,
        /// Why.
        reason: &'a str,
    },
    /// The job's ask is older than the skill's `wait_timeout_ms`.
    AskExpired {
        /// The skill's timeout.
        timeout_ms: u64,
    },
    /// An answer to the job's ask did not fit: said back to whoever answers
    /// (`violations` of them), and after `limit` such answers in a row the
    /// job goes to a human.
    AnswerRefused {
        /// How many fields did not fit.
        violations: usize,
        /// The skill's `max_invalid_answers`.
        limit: u32,
        /// The prompt that says what was wrong and asks again (`None`:
        /// the ask's own stays).
        prompt: Option<String>,
    },
    /// An answer to the job's ask for tool inputs that fits: its values, as
    /// the skill reads them, stand as evidence and fill the plan.
    AnswersAccepted {
        /// The answer.
        answer: &'a Answer<'a>,
        /// Its values as the skill reads them ("it's tbk 22107").
        read: &'a Map<String, Json>,
        /// The plan with the values filled in.
        plan: Option<adas_dia::Plan>,
    },
    /// Someone asks to run the job again as a new job (`retry`, its name):
    /// a failed job, or one handed to a human (cancelled for it once the new
    /// job stands, by a cancel of its own). The claim is an audit entry.
    RetryRequested {
        /// Who asks.
        by: &'a str,
        /// The new job's name, `skills/{slag}/jobs/{id}`.
        retry: &'a str,
    },
    /// The answer to an ask the engine made itself (which intent was meant,
    /// yes or no to a call, a human's reply), read as `decided`.
    AskAnswered {
        /// The job's skill (its out-of-domain words).
        skill: &'a OperationalSkill,
        /// What the answer says.
        decided: crate::ask::Decided,
        /// The answer.
        answer: &'a Answer<'a>,
    },
}

/// The write an input makes.
#[derive(Debug, Clone, PartialEq)]
pub enum Applied {
    /// Save this transition.
    Write(Box<Transition>),
    /// Nothing to write: the job already is where the input would take it
    /// (a cancel of a cancelled job), or no longer waits on what the input
    /// answers (a decision on an ask that was answered another way).
    Unchanged,
}

/// Why an input is refused (said of the job: "job J {refused}").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// The job has ended.
    #[error("has already ended ({0:?})")]
    Ended(JobStatus),
    /// The job does not wait.
    #[error("is not waiting for input")]
    NotWaiting,
    /// The job waits for an approver's decision, not for an answer.
    #[error("waits for an approver: use GateService.DecideApproval")]
    ApproverDecides,
    /// The answer is to an ask the job no longer waits on.
    #[error("waits on another ask (correlation id `{0}`)")]
    AnotherAsk(String),
    /// Only a failed job, or one handed to a human, is run again.
    #[error("is {0:?}: only a failed job, or one handed to a human, is retried")]
    NotRetryable(JobStatus),
}

/// Applies `input` to `record` as stored: the one write it makes, or why not.
/// An answer taken changes `record` too (see the module's doc); nothing
/// else does.
pub fn apply(record: &mut JobRecord, input: Input<'_>) -> Result<Applied, Refused> {
    match input {
        Input::ApprovalDecided(decision) => Ok(decided(record, decision)),
        Input::CancelRequested { by, reason } => cancel(record, by, reason),
        Input::AskExpired { timeout_ms } => Ok(expired(record, timeout_ms)),
        Input::AnswerRefused {
            violations,
            limit,
            prompt,
        } => refused_answer(record, violations, limit, prompt),
        Input::AnswersAccepted { answer, read, plan } => accepted(record, answer, read, plan),
        Input::RetryRequested { by, retry } => retried(record, by, retry),
        Input::AskAnswered {
            skill,
            decided,
            answer,
        } => ask_answered(record, skill, decided, answer),
    }
}

/// The waiting object a paused job holds, if it is paused.
fn paused(record: &JobRecord) -> Option<&crate::Waiting> {
    record
        .waiting
        .as_ref()
        .filter(|_| record.status == JobStatus::Paused)
}

fn audit(who: &str, action: &str, detail: Json) -> AuditEntry {
    AuditEntry {
        who: who.to_owned(),
        at: crate::time::now(),
        action: action.to_owned(),
        detail,
    }
}

fn decided(record: &JobRecord, decision: &Decision) -> Applied {
    let waiting_here = paused(record).is_some_and(|waiting| {
        waiting.correlation_id == decision.correlation_id
            && waiting.reason_code.answerer() == Answerer::Approver
    });
    if !waiting_here {
        return Applied::Unchanged;
    }
    let entry = audit(
        &decision.approver,
        if decision.approved {
            AuditEntry::APPROVE
        } else {
            AuditEntry::REJECT
        },
        json!({
            "correlation_id": decision.correlation_id,
            "call_digest": decision.call_digest,
            "tool": decision.tool,
            "role": decision.role,
            "comment": decision.comment,
        }),
    );
    let transition = if decision.approved {
        Transition::resume(Event::Resumed(Resumption::Approved {
            approver: decision.approver.clone(),
            role: decision.role.clone(),
            tool: decision.tool.clone(),
            call_digest: decision.call_digest.clone(),
            comment: decision.comment.clone(),
        }))
    } else {
        Transition::fail(
            OutcomeClass::PolicyDenied,
            format!(
                "`{}` {}",
                decision.tool,
                crate::event::decided_by("rejected", &decision.approver, &decision.comment)
            ),
            Event::Failed(Failure::Rejected {
                approver: decision.approver.clone(),
                role: decision.role.clone(),
                tool: decision.tool.clone(),
                comment: decision.comment.clone(),
            }),
        )
    };
    Applied::Write(Box::new(transition.audited(entry)))
}

fn cancel(record: &JobRecord, by: &str, reason: &str) -> Result<Applied, Refused> {
    match record.status {
        JobStatus::Cancelled => Ok(Applied::Unchanged),
        status if status.is_terminal() => Err(Refused::Ended(status)),
        _ => {
            let cancelled = Transition::cancel(
                None,
                Event::Cancelled(Cancellation::ByClient {
                    reason: reason.to_owned(),
                }),
            );
            let entry = audit(by, "cancel", json!({"reason": reason}));
            Ok(Applied::Write(Box::new(cancelled.audited(entry))))
        }
    }
}

fn retried(record: &JobRecord, by: &str, retry: &str) -> Result<Applied, Refused> {
    // Retried once: a retry that fails is retried in its turn.
    if retried_by(record).is_some() {
        return Ok(Applied::Unchanged);
    }
    let entry = audit(by, AuditEntry::RETRY, json!({ "job": retry }));
    let escalated = paused(record)
        .is_some_and(|waiting| waiting.reason_code == PauseReason::HumanTakeoverRequired);
    if !(record.status == JobStatus::Failed || escalated) {
        return Err(Refused::NotRetryable(record.status));
    }
    Ok(Applied::Write(Box::new(
        Transition::note(Vec::new()).audited(entry),
    )))
}

/// The job that retries `record` (its name), once someone asked for one.
pub fn retried_by(record: &JobRecord) -> Option<&str> {
    audited_job(record, AuditEntry::RETRY)
}

/// The job `record` retries (its name), when it was started as a retry.
pub fn retry_of(record: &JobRecord) -> Option<&str> {
    audited_job(record, AuditEntry::RETRY_OF)
}

fn audited_job<'a>(record: &'a JobRecord, action: &str) -> Option<&'a str> {
    record
        .audit
        .iter()
        .find(|entry| entry.action == action)
        .map(|entry| entry.detail_text("job"))
        .filter(|job| !job.is_empty())
}

fn expired(record: &JobRecord, timeout_ms: u64) -> Applied {
    if !paused(record).is_some_and(|waiting| waiting.reason_code.expires()) {
        return Applied::Unchanged;
    }
    Applied::Write(Box::new(Transition::fail(
        OutcomeClass::Expired,
        format!("no answer within {timeout_ms} ms"),
        Event::Failed(Failure::AskExpired {
            wait_timeout_ms: timeout_ms,
        }),
    )))
}

/// The ask a job waits on for an answer (the user's, or an operator's in
/// the agent's place); why the job takes no answer now, else.
pub fn awaiting_answer(record: &JobRecord) -> Result<&crate::Waiting, Refused> {
    let Some(asked) = paused(record) else {
        return Err(match record.status {
            status if status.is_terminal() => Refused::Ended(status),
            _ => Refused::NotWaiting,
        });
    };
    match asked.reason_code.answerer() {
        Answerer::Approver => Err(Refused::ApproverDecides),
        Answerer::User | Answerer::Operator => Ok(asked),
    }
}

/// The ask `answer` answers, if the job waits on it for an answer.
fn answering<'r>(
    record: &'r JobRecord,
    answer: &Answer<'_>,
) -> Result<&'r crate::Waiting, Refused> {
    let asked = awaiting_answer(record)?;
    if asked.correlation_id == answer.correlation_id {
        Ok(asked)
    } else {
        Err(Refused::AnotherAsk(asked.correlation_id.clone()))
    }
}

fn accepted(
    record: &mut JobRecord,
    answer: &Answer<'_>,
    read: &Map<String, Json>,
    plan: Option<adas_dia::Plan>,
) -> Result<Applied, Refused> {
    let asked = answering(record, answer)?.clone();
    for (name, value) in read {
        // "2" at a choice is the second option: that is what was said.
        let value = match (value, asked.fields.iter().find(|field| &field.name == name)) {
            (Json::String(text), Some(field)) => {
                Json::String(crate::answers::normalized(field, text))
            }
            (value, _) => value.clone(),
        };
        record.context.insert(name.clone(), value.clone());
        record.evidence.push(crate::Evidence {
            name: name.clone(),
            value,
            source: "answer".into(),
        });
    }
    record.plan = plan;
    let resumed = Event::Resumed(Resumption::AnswersAccepted {
        correlation_id: answer.correlation_id.to_owned(),
        by: answer.by.to_owned(),
    });
    // The request id rides in the same write as the answer, so a concurrent
    // duplicate can tell it was taken.
    let entry = audit(
        answer.who(),
        "answer",
        json!({"correlation_id": answer.correlation_id, "fields": answer.fields, "request_id": answer.request_id}),
    );
    Ok(Applied::Write(Box::new(
        Transition::resume(resumed).audited(entry),
    )))
}

fn ask_answered(
    record: &mut JobRecord,
    skill: &OperationalSkill,
    decided: crate::ask::Decided,
    answer: &Answer<'_>,
) -> Result<Applied, Refused> {
    answering(record, answer)?;
    let confirmed = match &decided {
        crate::ask::Decided::Confirmed(digest) => Some(digest.clone()),
        _ => None,
    };
    let (action, transition) = crate::ask::on_answer(record, skill, decided, answer.who());
    let mut detail = json!({"correlation_id": answer.correlation_id, "fields": answer.fields});
    if let Some(digest) = confirmed {
        // Who confirmed which call: that principal may not also approve it.
        detail["call_digest"] = json!(digest);
    }
    let entry = audit(answer.who(), action, detail);
    Ok(Applied::Write(Box::new(transition.audited(entry))))
}

fn refused_answer(
    record: &JobRecord,
    violations: usize,
    limit: u32,
    prompt: Option<String>,
) -> Result<Applied, Refused> {
    let mut waiting = awaiting_answer(record)?.clone();
    if let Some(prompt) = prompt {
        waiting.prompt_message = prompt;
    }
    waiting.invalid_answer_count += 1;
    // An operator's reply is never escalated to the operator.
    if waiting.reason_code.answerer() != Answerer::Operator && waiting.invalid_answer_count >= limit
    {
        let paused = Event::paused(
            PauseReason::HumanTakeoverRequired,
            "too many invalid answers; handed to a human",
            crate::PauseDetail::InvalidAnswers { violations },
        );
        return Ok(Applied::Write(Box::new(crate::ask::takeover(
            &format!("{limit} invalid answers to the same question"),
            None,
            vec![paused],
        ))));
    }
    Ok(Applied::Write(Box::new(Transition::keep_waiting(
        waiting,
        Event::AnswerRefused { violations },
    ))))
}

#[cfg(test)]
mod tests;
