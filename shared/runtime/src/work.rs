//! CPU-bound work that input drives (parsing a document or a plan) runs here,
//! not on the async workers: a large request then costs its own thread time and
//! never stalls the RPCs of other callers. At most one such job per core runs at
//! once; the rest wait their turn.

use std::sync::OnceLock;

use tokio::sync::Semaphore;

fn permits() -> &'static Semaphore {
    static PERMITS: OnceLock<Semaphore> = OnceLock::new();
    PERMITS.get_or_init(|| {
        Semaphore::new(
            std::thread::available_parallelism()
                .map(std::num::NonZeroUsize::get)
                .unwrap_or(2),
        )
    })
}

/// Runs `work` on the blocking pool, one per core at a time.
pub async fn off_worker<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, tonic::Status> {
    let _permit = permits()
        .acquire()
        .await
        .map_err(|_| tonic::Status::unavailable("shutting down"))?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|error| tonic::Status::internal(format!("work failed: {error}")))
}
