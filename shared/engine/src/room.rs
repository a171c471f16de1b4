//! A job task's place in the worker's concurrency budget, and a tool call's
//! way out of it: a job waiting on a tool server gives its place back for
//! the call (and waits for one after), so jobs stuck on one tenant's slow
//! tools never hold the room every other tenant's jobs need; the calls
//! themselves are bounded per tenant instead.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// A job task's place in the worker's budget.
pub struct Slot {
    room: Arc<Semaphore>,
    permit: Option<OwnedSemaphorePermit>,
    calls: Arc<adas_runtime::quota::TenantShares>,
}

impl std::fmt::Debug for Slot {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Slot")
            .field("held", &self.permit.is_some())
            .finish_non_exhaustive()
    }
}

tokio::task_local! {
    static SLOT: std::cell::RefCell<Slot>;
}

/// Steps out of the budget for a tool call of `tenant`'s: the job's place goes
/// back to the room, and a place in the tenant's share of calls is taken.
/// Outside a worker's task (tests driving a step) nothing changes.
pub(crate) async fn step_out(tenant: &str) -> Option<OwnedSemaphorePermit> {
    let calls = SLOT
        .try_with(|slot| {
            let mut slot = slot.borrow_mut();
            slot.permit = None;
            slot.calls.clone()
        })
        .ok()?;
    Some(calls.acquire(tenant).await)
}

/// Back into the budget after a call (waiting for room like any job).
pub(crate) async fn step_in() {
    let Ok(room) = SLOT.try_with(|slot| slot.borrow().room.clone()) else {
        return;
    };
    let permit = room.acquire_owned().await.ok();
    let _ = SLOT.try_with(|slot| slot.borrow_mut().permit = permit);
}

impl Slot {
    /// A job's place: `permit` in `room`, and `calls`, the tenants' shares
    /// of tool calls.
    pub fn new(
        room: Arc<Semaphore>,
        permit: OwnedSemaphorePermit,
        calls: Arc<adas_runtime::quota::TenantShares>,
    ) -> Self {
        Self {
            room,
            permit: Some(permit),
            calls,
        }
    }

    /// Runs `task` (a job's) in this place: its tool calls step out of it.
    pub fn scope<F: Future>(self, task: F) -> impl Future<Output = F::Output> {
        SLOT.scope(std::cell::RefCell::new(self), task)
    }
}
