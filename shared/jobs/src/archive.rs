//! Finished jobs on disk, for people: one JSON line per job appended to
//! `<memory>/<slag>/jobs/<YYYY-MM-DDTHH>.jsonl` by a background writer, in
//! batches, off the worker's path; sweeps of finished jobs and old archives.

use super::*;

/// Work for the archiver: a finished job, or a flush to acknowledge.
#[derive(Debug)]
pub(crate) enum Archive {
    Job(Box<JobRecord>),
    Flush(tokio::sync::oneshot::Sender<()>),
}

/// Finished jobs waiting for the archiver; beyond it a job is archived on the
/// caller's task (slower, never lost).
const ARCHIVE_QUEUE: usize = 4096;

/// Finished jobs the archiver writes in one go.
const ARCHIVE_BATCH: usize = 64;

impl JobRepo {
    /// Hands a finished job to the background archiver, off the worker's path
    /// (the archiver is started here, on a runtime, the first time).
    pub(crate) async fn archive_later(&self, record: &JobRecord) {
        let archiver = self.archiver.get_or_init(|| {
            let (sender, receiver) = tokio::sync::mpsc::channel(ARCHIVE_QUEUE);
            tokio::spawn(self.clone().run_archiver(receiver));
            sender
        });
        if let Err(
            tokio::sync::mpsc::error::TrySendError::Full(Archive::Job(record))
            | tokio::sync::mpsc::error::TrySendError::Closed(Archive::Job(record)),
        ) = archiver.try_send(Archive::Job(Box::new(record.clone())))
        {
            self.archive(std::slice::from_ref(&*record)).await;
        }
    }

    async fn run_archiver(self, mut receiver: tokio::sync::mpsc::Receiver<Archive>) {
        let mut batch = Vec::with_capacity(ARCHIVE_BATCH);
        let mut records = Vec::with_capacity(ARCHIVE_BATCH);
        while receiver.recv_many(&mut batch, ARCHIVE_BATCH).await > 0 {
            let mut flushed = Vec::new();
            for work in batch.drain(..) {
                match work {
                    Archive::Job(record) => records.push(*record),
                    Archive::Flush(done) => flushed.push(done),
                }
            }
            // A flush arrived after the jobs before it: they are written first.
            self.archive(&records).await;
            records.clear();
            for done in flushed {
                let _ = done.send(());
            }
        }
    }

    /// Waits until every job that ended before this call is archived (at
    /// shutdown, and for tests that read the archive).
    pub async fn flush_archive(&self) {
        let Some(archiver) = self.archiver.get() else {
            return;
        };
        let (done, flushed) = tokio::sync::oneshot::channel();
        if archiver.send(Archive::Flush(done)).await.is_ok() {
            let _ = flushed.await;
        }
    }

    /// Deletes the finished jobs (completed, failed, cancelled) of `slag`
    /// created before `before_ms` — records, events and index entries, in one
    /// script each — at most `limit` per status. Returns how many went.
    pub async fn sweep_finished(&self, slag: &str, before_ms: u64, limit: usize) -> usize {
        let mut removed = 0;
        for status in [
            JobStatus::Completed,
            JobStatus::Failed,
            JobStatus::Cancelled,
        ] {
            let Ok(ids) = self
                .store
                .jobs_created_before(slag, status.tag(), before_ms, limit)
                .await
            else {
                continue;
            };
            for id in ids {
                if self.store.delete_job(slag, &id).await.unwrap_or(false) {
                    removed += 1;
                }
            }
        }
        removed
    }

    /// Deletes this process' archive files (`jobs/*.jsonl` under the memory
    /// root, every tenant) last written before `older_than` ago, so
    /// the local export stays bounded like the store. Returns how many went.
    pub async fn prune_archives(&self, older_than: std::time::Duration) -> usize {
        let root = self.memory_root.clone();
        tokio::task::spawn_blocking(move || {
            let Some(cutoff) = std::time::SystemTime::now().checked_sub(older_than) else {
                return 0;
            };
            let mut slag_dirs: Vec<PathBuf> = Vec::new();
            let mut roots = vec![root.clone()];
            if let Ok(tenants) = std::fs::read_dir(root.join(".tenants")) {
                roots.extend(tenants.flatten().map(|tenant| tenant.path()));
            }
            for root in roots {
                if let Ok(slags) = std::fs::read_dir(&root) {
                    slag_dirs.extend(slags.flatten().map(|slag| slag.path()));
                }
            }
            let mut removed = 0;
            for dir in slag_dirs {
                // `.json` and `logs/*.log`: the one-file-per-job archives
                // of earlier versions.
                for (sub, extension) in [("jobs", "jsonl"), ("jobs", "json"), ("logs", "log")] {
                    let Ok(files) = std::fs::read_dir(dir.join(sub)) else {
                        continue;
                    };
                    for file in files.flatten() {
                        let path = file.path();
                        let old = file
                            .metadata()
                            .and_then(|meta| meta.modified())
                            .is_ok_and(|modified| modified < cutoff);
                        if old
                            && path.extension().is_some_and(|ext| ext == extension)
                            && std::fs::remove_file(&path).is_ok()
                        {
                            removed += 1;
                        }
                    }
                }
            }
            removed
        })
        .await
        .unwrap_or(0)
    }

    /// Appends finished jobs to their skill's archive of the hour,
    /// `<memory>/<slag>/jobs/<YYYY-MM-DDTHH>.jsonl` (UTC): one line per job,
    /// `{"job": <record>, "events": [{"id", "event"}, …]}`. One append per
    /// file per batch — a file per job cost an inode allocation each, a tenth
    /// of the machine's CPU under load. Best effort: the store stays the truth.
    async fn archive(&self, records: &[JobRecord]) {
        let hour = now();
        let hour = hour.get(..13).unwrap_or("unknown");
        // The batch's event logs read at once: on the multiplexed connection
        // they share round trips instead of taking one each.
        let logs = futures_util::future::join_all(
            records
                .iter()
                .map(|record| self.events(&record.slag, &record.job_id, None, 10_000)),
        )
        .await;
        let mut files: BTreeMap<PathBuf, Vec<u8>> = BTreeMap::new();
        for (record, log) in records.iter().zip(logs) {
            // Each tenant's archive beside its skills (see `Catalog::for_tenant`).
            let root = if record.tenant == adas_catalog::DEFAULT_TENANT {
                self.memory_root.clone()
            } else if adas_skill::slag::is_valid_slag(&record.tenant) {
                self.memory_root.join(".tenants").join(&record.tenant)
            } else {
                continue;
            };
            let log = log.unwrap_or_default();
            let line = ArchiveLine {
                job: record,
                events: log
                    .iter()
                    .map(|(id, event)| ArchivedEvent { id, event })
                    .collect(),
            };
            let file = root
                .join(&record.slag)
                .join("jobs")
                .join(format!("{hour}.jsonl"));
            let text = files.entry(file).or_default();
            // Written straight from the record: no JSON tree built in between.
            let start = text.len();
            if let Err(error) = serde_json::to_writer(&mut *text, &line) {
                // No half line: the file holds whole JSON lines only.
                text.truncate(start);
                tracing::warn!(job_id = %record.job_id, %error, "could not archive a finished job");
                continue;
            }
            text.push(b'\n');
        }
        let written = tokio::task::spawn_blocking(move || -> std::io::Result<()> {
            use std::io::Write as _;
            for (file, text) in files {
                if let Some(parent) = file.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                // One write on an append-only file: whole lines, never
                // interleaved with another process appending to it.
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&file)?
                    .write_all(&text)?;
            }
            Ok(())
        })
        .await;
        if !matches!(written, Ok(Ok(()))) {
            tracing::warn!(jobs = records.len(), "could not archive finished jobs");
        }
    }
}

/// One finished job in its skill's archive of the hour: the record and its
/// events, each with its stream id.
#[derive(Serialize)]
struct ArchiveLine<'a> {
    job: &'a JobRecord,
    events: Vec<ArchivedEvent<'a>>,
}

#[derive(Serialize)]
struct ArchivedEvent<'a> {
    id: &'a str,
    event: &'a JobEvent,
}
