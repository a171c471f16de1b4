//! Jobs across skills, newest first: what an operator's jobs view and inbox
//! read. Each skill's index is read newest first and the reads are merged;
//! the page goes on from the last job it returned (a keyset cursor, so a job
//! created meanwhile neither shifts nor repeats a page).

use std::collections::BTreeMap;

use crate::{JobError, JobRecord, JobRepo, MAX_LIST_SCAN, StoredJob};

/// The last job a page of a list across skills returned: the next page holds
/// the jobs after it, by creation time, then skill, then id, all descending.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cursor {
    /// Its creation time, in ms.
    pub created_ms: u64,
    /// Its skill.
    pub slag: String,
    /// Its id.
    pub job_id: String,
}

impl Cursor {
    /// The cursor as a page token (opaque to callers; it names only a job
    /// the caller was shown).
    pub fn token(&self) -> String {
        let text = format!("{}/{}/{}", self.created_ms, self.slag, self.job_id);
        hex::encode(text)
    }

    /// Reads a token [`Cursor::token`] made; `None` for anything else.
    pub fn from_token(token: &str) -> Option<Self> {
        if token.len() > 512 {
            return None;
        }
        let bytes = hex::decode(token).ok()?;
        let text = String::from_utf8(bytes).ok()?;
        let mut parts = text.splitn(3, '/');
        let created_ms = parts.next()?.parse().ok()?;
        let slag = parts.next()?.to_owned();
        let job_id = parts.next()?.to_owned();
        (!slag.is_empty() && !job_id.is_empty()).then_some(Self {
            created_ms,
            slag,
            job_id,
        })
    }
}

/// Newest first: jobs come in descending cursor order.
fn before(cursor: Option<&Cursor>, candidate: &Cursor) -> bool {
    cursor.is_none_or(|cursor| candidate < cursor)
}

impl JobRepo {
    /// Jobs of `slags` created at or after `since_ms`, newest first, after
    /// `after`, keeping those `keep` accepts until `limit` are kept. Reads at
    /// most [`MAX_LIST_SCAN`] jobs per call: a page may hold fewer than
    /// asked, never skip one; the cursor says where to go on (`None`: the end).
    pub async fn list_newest(
        &self,
        slags: &[String],
        since_ms: u64,
        after: Option<&Cursor>,
        limit: usize,
        keep: impl Fn(&JobRecord) -> bool,
    ) -> Result<(Vec<StoredJob>, Option<Cursor>), JobError> {
        let limit = limit.max(1);
        let mut jobs = Vec::new();
        let mut cursor = after.cloned();
        let mut scanned = 0usize;
        loop {
            let want = limit - jobs.len();
            let mut candidates = Vec::new();
            for slag in slags {
                candidates.extend(
                    self.newest_of(slag, since_ms, cursor.as_ref(), want)
                        .await?,
                );
            }
            candidates.sort_unstable_by(|a, b| b.cmp(a));
            let more = candidates.len() > want;
            candidates.truncate(want);
            let Some(last) = candidates.last().cloned() else {
                return Ok((jobs, None));
            };
            let mut by_slag: BTreeMap<&str, Vec<String>> = BTreeMap::new();
            for candidate in &candidates {
                by_slag
                    .entry(&candidate.slag)
                    .or_default()
                    .push(candidate.job_id.clone());
            }
            let mut loaded = BTreeMap::new();
            for (slag, ids) in by_slag {
                for (id, stored) in ids.iter().zip(self.load_many(slag, &ids).await?) {
                    if let Some(stored) = stored {
                        loaded.insert((slag.to_owned(), id.clone()), stored);
                    }
                }
            }
            for candidate in &candidates {
                if let Some(stored) =
                    loaded.remove(&(candidate.slag.clone(), candidate.job_id.clone()))
                    && keep(&stored.record)
                {
                    jobs.push(stored);
                }
            }
            scanned += candidates.len();
            cursor = Some(last.clone());
            if jobs.len() == limit {
                return Ok((jobs, more.then_some(last)));
            }
            if !more {
                return Ok((jobs, None));
            }
            if scanned >= MAX_LIST_SCAN {
                return Ok((jobs, Some(last)));
            }
        }
    }

    /// Up to `want + 1` of `slag`'s jobs after `cursor`, newest first (one
    /// more tells the merge whether another page exists).
    async fn newest_of(
        &self,
        slag: &str,
        since_ms: u64,
        cursor: Option<&Cursor>,
        want: usize,
    ) -> Result<Vec<Cursor>, JobError> {
        let to_ms = cursor.map_or(u64::MAX >> 11, |cursor| cursor.created_ms);
        let mut found = Vec::new();
        let mut skip = 0;
        let batch = want + 1;
        loop {
            let rows = self
                .store
                .jobs_newest(slag, (since_ms, to_ms), skip, batch)
                .await?;
            let full = rows.len() == batch;
            skip += rows.len();
            // Only jobs created in the cursor's own millisecond can be at or
            // before it: the next read skips past them.
            found.extend(
                rows.into_iter()
                    .map(|(created_ms, job_id)| Cursor {
                        created_ms,
                        slag: slag.to_owned(),
                        job_id,
                    })
                    .filter(|candidate| before(cursor, candidate)),
            );
            if found.len() >= batch || !full {
                found.truncate(batch);
                return Ok(found);
            }
        }
    }
}
