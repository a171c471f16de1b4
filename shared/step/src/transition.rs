//! A transition: what one write does to a job — its status, outcome and
//! waiting object, the events that say why, and whether it goes back to the
//! ready queue. Every status change of a job is one of these constructors,
//! applied by the one write (`JobRepo::save` in adas-jobs).

use crate::{AuditEntry, Event, JobRecord, JobResult, JobStatus, OutcomeClass, Waiting};

/// How a transition changes the job's lifecycle.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// Status, outcome and waiting stay as they are (a call's start, held
    /// events written).
    Keep,
    /// A worker holds the job.
    Run,
    /// The job waits: for the user, an approver or a human (`error`: why it
    /// was handed to a human).
    Pause {
        /// The ask.
        waiting: Box<Waiting>,
        /// Why the job was escalated, if it was.
        error: Option<String>,
    },
    /// Back to the ready queue after an answer or a decision.
    Resume,
    /// The job ends.
    End {
        /// Completed, failed or cancelled.
        status: JobStatus,
        /// Why.
        outcome: OutcomeClass,
        /// The error, for a failure.
        error: Option<String>,
        /// The reply, when there is one.
        result: Option<JobResult>,
    },
}

/// One write's change to a job, with its events.
#[derive(Debug, Clone, PartialEq)]
pub struct Transition {
    /// The lifecycle change.
    pub change: Change,
    /// What happened, in order (after any held on the record).
    pub events: Vec<Event>,
    /// Whether the job goes back to the queue's resumed lane.
    pub requeue: bool,
    /// Who made the change from outside the worker, and why (an answer, a
    /// decision, a cancel): appended to the job's audit trail.
    pub audit: Vec<AuditEntry>,
}

impl Transition {
    /// Events only; the lifecycle stays.
    pub fn note(events: Vec<Event>) -> Self {
        Self {
            change: Change::Keep,
            events,
            requeue: false,
            audit: Vec::new(),
        }
    }

    /// A worker holds the job.
    pub fn run(events: Vec<Event>) -> Self {
        Self {
            change: Change::Run,
            events,
            requeue: false,
            audit: Vec::new(),
        }
    }

    /// The job waits on `waiting`.
    pub fn pause(waiting: Waiting, event: Event) -> Self {
        Self {
            change: Change::Pause {
                waiting: Box::new(waiting),
                error: None,
            },
            events: vec![event],
            requeue: false,
            audit: Vec::new(),
        }
    }

    /// The job, paused, keeps waiting on `waiting` as it now stands (an
    /// answer refused: the count of refusals and the prompt changed).
    pub fn keep_waiting(waiting: Waiting, event: Event) -> Self {
        Self::pause(waiting, event)
    }

    /// The same change, with `entry` in the job's audit trail.
    #[must_use]
    pub fn audited(mut self, entry: AuditEntry) -> Self {
        self.audit.push(entry);
        self
    }

    /// The job is handed to a human on `waiting` because of `why`.
    pub fn escalate(waiting: Waiting, why: &str, events: Vec<Event>) -> Self {
        Self {
            change: Change::Pause {
                waiting: Box::new(waiting),
                error: Some(why.to_owned()),
            },
            events,
            requeue: false,
            audit: Vec::new(),
        }
    }

    /// The job goes back to the queue.
    pub fn resume(event: Event) -> Self {
        Self {
            change: Change::Resume,
            events: vec![event],
            requeue: true,
            audit: Vec::new(),
        }
    }

    /// The job fails with `outcome` because of `error`.
    pub fn fail(outcome: OutcomeClass, error: impl Into<String>, event: Event) -> Self {
        Self::end(
            JobStatus::Failed,
            outcome,
            Some(error.into()),
            None,
            vec![event],
        )
    }

    /// The job completes with `outcome` (and a reply, when there is one).
    pub fn complete(outcome: OutcomeClass, result: Option<JobResult>, events: Vec<Event>) -> Self {
        Self::end(JobStatus::Completed, outcome, None, result, events)
    }

    /// The job is cancelled (with a reply to the user, when there is one).
    pub fn cancel(result: Option<JobResult>, event: Event) -> Self {
        Self::end(
            JobStatus::Cancelled,
            OutcomeClass::Cancelled,
            None,
            result,
            vec![event],
        )
    }

    fn end(
        status: JobStatus,
        outcome: OutcomeClass,
        error: Option<String>,
        result: Option<JobResult>,
        events: Vec<Event>,
    ) -> Self {
        Self {
            change: Change::End {
                status,
                outcome,
                error,
                result,
            },
            events,
            requeue: false,
            audit: Vec::new(),
        }
    }

    /// Applies the lifecycle change to `record`: the waiting object is kept
    /// exactly while the job is paused (spec 000).
    pub fn apply(&self, record: &mut JobRecord) {
        record.audit.extend(self.audit.iter().cloned());
        match &self.change {
            Change::Keep => {}
            Change::Run => {
                record.status = JobStatus::Running;
                record.waiting = None;
            }
            Change::Pause { waiting, error } => {
                record.status = JobStatus::Paused;
                record.outcome_class = Some(waiting.reason_code.outcome());
                record.waiting = Some((**waiting).clone());
                if let Some(error) = error {
                    record.error = Some(error.clone());
                }
            }
            Change::Resume => {
                record.status = JobStatus::Queued;
                record.outcome_class = None;
                record.waiting = None;
            }
            Change::End {
                status,
                outcome,
                error,
                result,
            } => {
                record.status = *status;
                record.outcome_class = Some(*outcome);
                record.waiting = None;
                if let Some(error) = error {
                    record.error = Some(error.clone());
                }
                if let Some(result) = result {
                    record.result = Some(result.clone());
                }
            }
        }
    }
}
