//! The catalog on the deployment's store: operational skills as documents
//! of `skills/<tenant>` (and their kept versions), shared by every replica,
//! read and written through the store's etags.

use super::*;

/// The deployment's shared skill store and the runtime its calls run on. The
/// catalog's blocking operations (on the blocking pool) drive each store call
/// to its end with `block_on` on that runtime; async reads await it.
#[derive(Clone)]
pub(super) struct Shared {
    pub(super) docs: Arc<dyn DocStore>,
    /// Where a skill's policy mark is kept (the slot of its jobs).
    pub(super) marks: Arc<dyn StateStore>,
    pub(super) runtime: tokio::runtime::Handle,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("Shared")
    }
}

impl Shared {
    pub(super) fn run<T>(
        &self,
        call: impl std::future::Future<Output = adas_state::Result<T>>,
    ) -> Result<T, SkillError> {
        self.runtime.block_on(call).map_err(store_error)
    }
}

pub(super) fn store_error(error: adas_state::StateError) -> SkillError {
    SkillError::Store(error.to_string())
}

/// `work` on the blocking pool (it reads files or blocks on the store), for
/// an async caller; `file` names what it was about if the runtime cancels it.
pub(super) async fn blocking<T: Send + 'static>(
    file: &Path,
    work: impl FnOnce() -> Result<T, SkillError> + Send + 'static,
) -> Result<T, SkillError> {
    match tokio::task::spawn_blocking(work).await {
        Ok(done) => done,
        // Only a runtime shutting down cancels the task; a panic is a bug and
        // stays one on the caller's task.
        Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
        Err(error) => Err(SkillError::io(file, std::io::Error::other(error))),
    }
}

/// A skill as the store keeps it: the expanded text and the template it came from.
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct StoredSkill {
    pub(super) source: String,
    #[serde(default)]
    pub(super) template: Option<String>,
}

impl StoredSkill {
    pub(super) fn decode(slag: &str, body: &[u8]) -> Result<Self, SkillError> {
        serde_json::from_slice(body).map_err(|error| {
            SkillError::Store(format!(
                "skill `{slag}` in the store does not decode: {error}"
            ))
        })
    }

    pub(super) fn encode(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }
}

/// Store scopes: a tenant's current skills, their kept versions
/// (`<slag>@<etag>`), and the tenants that have skills.
pub(super) fn skills_scope(tenant: &str) -> String {
    format!("skills/{tenant}")
}

pub(super) fn versions_scope(tenant: &str) -> String {
    format!("versions/{tenant}")
}

pub(super) const TENANTS_SCOPE: &str = "tenants";

impl Catalog {
    /// The skill in service for `slag` as a pre-tool gate takes it, and how
    /// it knows it is current. With the store: the version this process
    /// holds, without a read ([`PolicySeen::Held`]: the call's start is
    /// written only if the skill's mark still names it), unless `fresh` or
    /// none is held, then one read ([`PolicySeen::Read`]). Without a store
    /// the files are read as [`Self::get_async`] does, and nothing is marked
    /// (`None`).
    pub async fn current_for_gate(
        self: &Arc<Self>,
        slag: &str,
        fresh: bool,
    ) -> Result<(Arc<OperationalSkill>, Option<PolicySeen>), SkillError> {
        if self.shared.is_none() {
            return Ok((self.get_async(slag).await?, None));
        }
        if !fresh && let Some(held) = self.cached(slag) {
            return Ok((held, Some(PolicySeen::Held)));
        }
        Ok((self.get_async(slag).await?, Some(PolicySeen::Read)))
    }

    /// The current skill of `slag` in the shared store: one read, and the body
    /// only when it is not the version this process holds.
    pub(super) fn get_shared(
        &self,
        shared: &Shared,
        slag: &str,
    ) -> Result<Arc<OperationalSkill>, SkillError> {
        let held = self.cached(slag);
        let read = shared.run(self.read_shared(shared, slag, held.as_ref()))?;
        self.settle_shared(slag, read, held)
    }

    /// The store read behind [`Self::get_shared`]: the body only when it is
    /// not `held`'s version.
    pub(super) async fn read_shared(
        &self,
        shared: &Shared,
        slag: &str,
        held: Option<&Arc<OperationalSkill>>,
    ) -> adas_state::Result<DocRead> {
        let held = held.map(|skill| skill.etag.as_str());
        shared
            .docs
            .doc_get(&skills_scope(&self.tenant), slag, held)
            .await
    }

    /// What a read of the shared store means for `slag`: the skill held, a
    /// skill built from the stored body (and held from now on), or one
    /// bootstrapped from its template.
    pub(super) fn settle_shared(
        &self,
        slag: &str,
        read: DocRead,
        held: Option<Arc<OperationalSkill>>,
    ) -> Result<Arc<OperationalSkill>, SkillError> {
        match (read, held) {
            (DocRead::Unchanged, Some(held)) => Ok(held),
            (DocRead::Absent, _) => self.bootstrap(slag, None),
            (DocRead::Current { body, .. }, _) => {
                let stored = StoredSkill::decode(slag, &body)?;
                let skill = self.build_skill(slag, &stored.source, stored.template)?;
                Ok(self.install(slag, skill))
            }
            (DocRead::Unchanged, None) => Err(SkillError::Store(format!(
                "skill `{slag}`: the store answered unchanged to a first read"
            ))),
        }
    }

    /// The stored skill of `slag` and its etag, if any.
    pub(super) fn stored(
        &self,
        shared: &Shared,
        slag: &str,
    ) -> Result<Option<(String, StoredSkill)>, SkillError> {
        match shared.run(shared.docs.doc_get(&skills_scope(&self.tenant), slag, None))? {
            DocRead::Current { etag, body } => Ok(Some((etag, StoredSkill::decode(slag, &body)?))),
            _ => Ok(None),
        }
    }

    /// Writes a validated skill to the shared store when `expect` holds (false:
    /// another writer came first), keeping its version and naming its tenant.
    pub(super) fn store_skill(
        &self,
        shared: &Shared,
        skill: &OperationalSkill,
        expect: DocExpect<'_>,
    ) -> Result<bool, SkillError> {
        let body = StoredSkill {
            source: skill.source.clone(),
            template: skill.template.clone(),
        }
        .encode();
        // A skill that exists may be held by a gate: no held version is
        // current from here until the new one is marked (a writer that does
        // not get that far leaves every gate reading the skill).
        if expect != DocExpect::Absent {
            self.mark(shared, &skill.slag, PolicyMark::Changing)?;
        }
        let written = shared.run(shared.docs.doc_put(
            &skills_scope(&self.tenant),
            &skill.slag,
            &skill.etag,
            &body,
            expect,
        ))?;
        if written {
            self.mark(shared, &skill.slag, PolicyMark::Current(&skill.etag))?;
            shared.run(shared.docs.doc_put(
                &versions_scope(&self.tenant),
                &format!("{}@{}", skill.slag, skill.etag),
                &skill.etag,
                &body,
                DocExpect::Absent,
            ))?;
            shared.run(shared.docs.doc_put(
                TENANTS_SCOPE,
                &self.tenant,
                "",
                b"",
                DocExpect::Any,
            ))?;
        }
        Ok(written)
    }

    fn mark(&self, shared: &Shared, slag: &str, mark: PolicyMark<'_>) -> Result<(), SkillError> {
        shared.run(shared.marks.mark_policy(&self.tenant, slag, mark))
    }

    pub(super) fn put_shared(
        &self,
        shared: &Shared,
        slag: &str,
        source: &str,
        expected_etag: Option<&str>,
    ) -> Result<Arc<OperationalSkill>, SkillError> {
        let expected = expected_etag.filter(|etag| !etag.is_empty());
        let current = self.stored(shared, slag)?;
        let current_etag = current.as_ref().map(|(etag, _)| etag.as_str());
        if let Some(expected) = expected {
            if current_etag == Some(etag_of(source).as_str()) {
                return self.get_shared(shared, slag);
            }
            if current_etag != Some(expected) {
                return Err(SkillError::EtagMismatch {
                    slag: slag.to_owned(),
                });
            }
        }
        let template = current.and_then(|(_, stored)| stored.template);
        let skill = self.build_skill(slag, source, template)?;
        let expect = expected.map_or(DocExpect::Any, DocExpect::Etag);
        if !self.store_skill(shared, &skill, expect)? {
            return Err(SkillError::EtagMismatch {
                slag: slag.to_owned(),
            });
        }
        Ok(self.install(slag, skill))
    }

    pub(super) fn delete_shared(
        &self,
        shared: &Shared,
        slag: &str,
        expected_etag: Option<&str>,
    ) -> Result<(), SkillError> {
        let Some((current, _)) = self.stored(shared, slag)? else {
            return Err(SkillError::UnknownSkill {
                slag: slag.to_owned(),
                known: self.list()?,
                templates: self.template_slags()?,
            });
        };
        let expected = expected_etag.filter(|etag| !etag.is_empty());
        if expected.is_some_and(|expected| expected != current) {
            return Err(SkillError::EtagMismatch {
                slag: slag.to_owned(),
            });
        }
        // A deleted skill stays marked changing: a job of it reads what
        // replaces it, or fails, on its next call.
        self.mark(shared, slag, PolicyMark::Changing)?;
        if !shared.run(shared.docs.doc_delete(
            &skills_scope(&self.tenant),
            slag,
            DocExpect::Etag(&current),
        ))? {
            return Err(SkillError::EtagMismatch {
                slag: slag.to_owned(),
            });
        }
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(slag);
        let exported = self.root.join(slag).join(SKILL_FILE);
        if let Err(error) = std::fs::remove_file(&exported)
            && error.kind() != std::io::ErrorKind::NotFound
        {
            warn!(slag, %error, "could not remove the exported skill");
        }
        info!(slag, "operational skill deleted from the store");
        Ok(())
    }
}
