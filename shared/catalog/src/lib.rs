//! Operational skills on disk (spec 002): `<memory-root>/<slag>/skill.yaml` with
//! `jobs/` and `logs/` beside it, bootstrapped on first use from
//! `<templates-dir>/<slag>.yaml`. Only the default slag ([`DEFAULT_SLAG`]) may
//! fall back to the built-in minimal skill; any other slag without a skill or a
//! template is [`SkillError::UnknownSkill`] — a typo must never become a
//! persisted skill that answers every job "out of domain".
//!
//! Every document that enters — a template at bootstrap, a PutSkill, a
//! ValidateSkill — has its `${NAME}` variables expanded by the one [`Vars`] of
//! the catalog.
//!
//! With a shared store ([`Catalog::with_store`], every deployment on Redis) the
//! store is the source of truth: skills, their template and every version a job
//! may run on are documents in it (compare-and-set on the etag), so any replica
//! on any machine serves the same skill at the same version; the memory root is
//! then only a local export. Without one (the embedded default) the memory root
//! is the catalog, as below.
//!
//! Async callers (every service) are served on their own task when the process
//! already holds what they ask for — a version by its etag with no read at all,
//! the current skill after one etag check (a store read, or a `stat`). Only
//! building a skill, bootstrapping one or reading a file goes to the blocking
//! pool: a trip there and back costs two thread wake-ups, more than the lookup.
//!
//! Edits on disk are picked up on the next read: the file's modification time and
//! length are checked on every `get`. An edit that does not validate never
//! replaces the last good version in service; the refusal is reported as a
//! warning on the skill until the file is fixed. Writes are atomic (temp file +
//! rename in the same directory).

mod shared;
pub mod solutions;
mod templates;
pub use templates::EMBEDDED;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use adas_state::{DocExpect, DocRead, DocStore, PolicyMark, PolicySeen, StateStore};
use tracing::{info, warn};

use adas_skill::SkillError;
use adas_skill::diagnostics::{Diagnostic, codes};
use adas_skill::document::{Format, Position};
use adas_skill::operational::{OperationalSkill, build, etag_of};
use adas_skill::slag::{DEFAULT_SLAG, is_valid_slag};
use adas_skill::validate::{Loaded, load};
use adas_skill::vars::Vars;
use shared::*;

/// Subdirectories every slag gets.
pub const SLAG_DIRS: [&str; 2] = ["jobs", "logs"];

/// The file name of an operational skill.
pub const SKILL_FILE: &str = "skill.yaml";

/// The default slag's skill when no template of that name exists.
pub const MINIMAL_SKILL: &str = "\
# Minimal default skill: bootstrapped for a slag without a template.
name: Minimal assistant
description: A general assistant with the core tools only.
problem:
  statement: Help the user with their request.
role:
  name: Assistant
  persona: You are a helpful, concise assistant.
intents:
  supported:
    - id: general_request
      description: Any request the assistant can help with
      examples:
        - Can you help me?
        - I have a question
  out_of_domain:
    action: redirect
    message: I can only help with general requests.
tools: []
policy:
  tools:
    allowed: [\"*\"]
engine: standard
";

/// A shipped template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateInfo {
    /// Slag it bootstraps by default.
    pub slag: String,
    /// `name` of the document.
    pub display_name: String,
    /// `problem.statement` or `description`.
    pub description: String,
}

/// Modification time and length: what tells an edited file from the cached one.
fn stamp_of(file: &Path) -> std::io::Result<(SystemTime, u64)> {
    let metadata = std::fs::metadata(file)?;
    Ok((
        metadata.modified().unwrap_or(SystemTime::UNIX_EPOCH),
        metadata.len(),
    ))
}

#[derive(Debug)]
struct Cached {
    skill: Arc<OperationalSkill>,
    /// Modification time and length of the file the cached version was read from.
    stamp: (SystemTime, u64),
}

/// Decides whether a skill's `mcp_server` may be used by this deployment (the
/// operator's egress policy, without resolving or connecting): `Err` says why not.
#[derive(Clone)]
pub struct McpCheck(pub Arc<McpRule>);

/// The rule inside an [`McpCheck`].
pub type McpRule = dyn Fn(&str) -> Result<(), String> + Send + Sync;

impl std::fmt::Debug for McpCheck {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("McpCheck")
    }
}

impl McpCheck {
    /// Adds an `egress_denied` error when `loaded`'s server is refused.
    fn apply(&self, loaded: &mut Loaded) {
        let Some(uri) = loaded
            .skill
            .as_ref()
            .and_then(|skill| skill.mcp_server.clone())
        else {
            return;
        };
        // A server of no known transport has its one diagnostic from
        // validation (`transport_problem`), the same the CLI prints.
        if adas_skill::validate::transport_problem(&uri).is_some() {
            return;
        }
        if let Err(reason) = (self.0)(&uri) {
            let at = loaded
                .document
                .as_ref()
                .map(|document| document.positions.find("mcp_server"))
                .unwrap_or_default();
            loaded.diagnostics.insert(
                0,
                Diagnostic::error("mcp_server", at, codes::EGRESS_DENIED, reason),
            );
            loaded.compiled = None;
        }
    }
}

/// Operational skills of one tenant's memory root.
#[derive(Debug)]
pub struct Catalog {
    root: PathBuf,
    /// The tenant whose skills these are.
    tenant: String,
    /// The deployment's skill store, when its processes share one.
    shared: Option<Shared>,
    /// Where templates are read: a directory, or (`None`) the ones built
    /// into the binary.
    templates_dir: Option<PathBuf>,
    /// `${NAME}` values substituted into every document that enters.
    vars: Vars,
    /// The egress rule every document's `mcp_server` must pass.
    mcp_check: Option<McpCheck>,
    cache: Mutex<HashMap<String, Cached>>,
    /// The other tenants' catalogs, opened on first use.
    tenants: Mutex<HashMap<String, Arc<Catalog>>>,
    /// Earlier versions jobs still run on, by `slag@etag`.
    versions: Mutex<HashMap<String, Arc<OperationalSkill>>>,
}

/// Every version a skill had, `<slag>/versions/<etag>.yaml`: a job runs on the
/// version it started with, whatever is put meanwhile.
const VERSIONS_DIR: &str = "versions";

/// The tenant whose skills live at the memory root itself (dev mode's, and
/// every deployment's before tenants existed).
pub const DEFAULT_TENANT: &str = "default";

/// Where the other tenants' memory roots are: `<root>/.tenants/<tenant>` — a
/// slag cannot start with `.`, so no skill can collide with it.
const TENANTS_DIR: &str = ".tenants";

impl Catalog {
    /// A catalog over `memory_root`, bootstrapping from `templates_dir` (not
    /// checked: see [`Catalog::open`]).
    pub fn new(memory_root: impl Into<PathBuf>, templates_dir: impl Into<PathBuf>) -> Self {
        Self {
            templates_dir: Some(templates_dir.into()),
            ..Self::embedded(memory_root)
        }
    }

    /// A catalog over `memory_root`, bootstrapping from the templates built
    /// into the binary (`skill-templates/` when it was built): `adas up`
    /// runs from any directory.
    pub fn embedded(memory_root: impl Into<PathBuf>) -> Self {
        Self {
            root: memory_root.into(),
            tenant: DEFAULT_TENANT.to_owned(),
            shared: None,
            templates_dir: None,
            vars: Vars::default(),
            mcp_check: None,
            cache: Mutex::new(HashMap::new()),
            tenants: Mutex::new(HashMap::new()),
            versions: Mutex::new(HashMap::new()),
        }
    }

    /// Sets a `${NAME}` value (e.g. the demo MCP server URL), expanded in every
    /// document that enters, so operational skills hold concrete values.
    pub fn with_var(mut self, name: &str, value: &str) -> Self {
        self.vars.set(name, value);
        self
    }

    /// Keeps skills in `docs`, the deployment's shared store, instead of the
    /// memory root (which becomes a local export). Calls run on `runtime`; the
    /// catalog's operations must then run off its async threads (they do:
    /// `get_async`, `get_version_async`, the services' blocking tasks).
    /// A skill's writer marks its policy in its jobs' slot around the write
    /// (`adas_state::PolicyCheck`), so a gate may take the version it holds.
    pub fn with_store(
        mut self,
        store: Arc<dyn StateStore>,
        runtime: tokio::runtime::Handle,
    ) -> Self {
        self.shared = Some(Shared {
            docs: store.clone(),
            marks: store,
            runtime,
        });
        self
    }

    /// Refuses documents whose `mcp_server` `check` rejects (an `egress_denied`
    /// error at `mcp_server`), wherever they enter.
    pub fn with_mcp_check(mut self, check: McpCheck) -> Self {
        self.mcp_check = Some(check);
        self
    }

    /// Whether this deployment may use `uri` as an MCP server (its egress
    /// rule, decided from the address alone); `Err` says why not.
    pub fn check_server(&self, uri: &str) -> Result<(), String> {
        match &self.mcp_check {
            Some(check) => (check.0)(uri),
            None => Ok(()),
        }
    }

    /// The catalog of `tenant`: this one for [`DEFAULT_TENANT`], else one rooted at
    /// `<root>/.tenants/<tenant>` with the same templates, variables and egress
    /// rule. Tenants never see each other's skills.
    pub fn for_tenant(self: &Arc<Self>, tenant: &str) -> Result<Arc<Catalog>, SkillError> {
        if tenant == DEFAULT_TENANT {
            return Ok(self.clone());
        }
        if !is_valid_slag(tenant) {
            return Err(SkillError::UnsafeSlag(tenant.chars().take(80).collect()));
        }
        let mut tenants = self
            .tenants
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Ok(tenants
            .entry(tenant.to_owned())
            .or_insert_with(|| {
                Arc::new(Catalog {
                    root: self.root.join(TENANTS_DIR).join(tenant),
                    tenant: tenant.to_owned(),
                    shared: self.shared.clone(),
                    templates_dir: self.templates_dir.clone(),
                    vars: self.vars.clone(),
                    mcp_check: self.mcp_check.clone(),
                    cache: Mutex::new(HashMap::new()),
                    tenants: Mutex::new(HashMap::new()),
                    versions: Mutex::new(HashMap::new()),
                })
            })
            .clone())
    }

    /// Keeps `skill`'s text as a version a job may run on later.
    fn keep_version(&self, slag: &str, skill: &OperationalSkill) {
        let Ok(dir) = self.slag_dir(slag) else { return };
        let file = dir.join(VERSIONS_DIR).join(format!("{}.yaml", skill.etag));
        if file.exists() {
            return;
        }
        let kept = std::fs::create_dir_all(file.parent().unwrap_or(&dir))
            .map_err(|source| SkillError::io(&file, source))
            .and_then(|()| write_atomically(&file, &skill.source));
        if let Err(error) = kept {
            warn!(slag, %error, "could not keep the skill version");
        }
    }

    /// The version `etag` of `slag` — the one a job started with. Empty or
    /// current: the current skill. A version that was never kept (a job from
    /// before versions were kept) is the current skill too. A version already
    /// loaded costs no read, whatever was put since.
    pub fn get_version(&self, slag: &str, etag: &str) -> Result<Arc<OperationalSkill>, SkillError> {
        if !is_version(etag) {
            return self.get(slag);
        }
        if let Some(held) = self.held_version(slag, etag)? {
            return Ok(held);
        }
        let key = format!("{slag}@{etag}");
        let kept = match &self.shared {
            Some(shared) => match shared.run(shared.docs.doc_get(
                &versions_scope(&self.tenant),
                &key,
                None,
            ))? {
                DocRead::Current { body, .. } => Some(StoredSkill::decode(slag, &body)?),
                _ => None,
            },
            None => std::fs::read_to_string(
                self.slag_dir(slag)?
                    .join(VERSIONS_DIR)
                    .join(format!("{etag}.yaml")),
            )
            .ok()
            .map(|source| StoredSkill {
                source,
                template: None,
            }),
        };
        let current = self.get(slag)?;
        let Some(kept) = kept else {
            if current.etag != etag {
                warn!(
                    slag,
                    etag, "the job's skill version was not kept; using the current one"
                );
            }
            return Ok(current);
        };
        let skill = self.build_skill(
            slag,
            &kept.source,
            kept.template.or_else(|| current.template.clone()),
        )?;
        let skill = Arc::new(skill);
        self.versions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(key, skill.clone());
        Ok(skill)
    }

    /// `source` as an operational skill of `slag`, checked like every
    /// document that enters; its errors as [`SkillError::Invalid`].
    fn build_skill(
        &self,
        slag: &str,
        source: &str,
        template: Option<String>,
    ) -> Result<OperationalSkill, SkillError> {
        build(
            self.checked_load(source, Format::detect(None, source)),
            slag,
            source,
            template,
            SystemTime::now(),
        )
        .map_err(|diagnostics| SkillError::Invalid {
            slag: slag.to_owned(),
            diagnostics,
        })
    }

    /// The skill of `slag` this process holds, if any (no read).
    fn cached(&self, slag: &str) -> Option<Arc<OperationalSkill>> {
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(slag)
            .map(|cached| cached.skill.clone())
    }

    /// The version `etag` of `slag` if this process holds it (no read).
    fn held_version(
        &self,
        slag: &str,
        etag: &str,
    ) -> Result<Option<Arc<OperationalSkill>>, SkillError> {
        self.slag_dir(slag)?;
        if let Some(cached) = self.cached(slag).filter(|cached| cached.etag == etag) {
            return Ok(Some(cached));
        }
        Ok(self
            .versions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&format!("{slag}@{etag}"))
            .cloned())
    }

    /// [`Self::get_version`] for async callers. A version this process holds —
    /// every step of a job after its first — comes from memory on the calling
    /// task: a trip to the blocking pool costs two thread wake-ups, more than
    /// the lookup. Anything else (a read, a build) runs on the blocking pool.
    pub async fn get_version_async(
        self: &Arc<Self>,
        slag: &str,
        etag: &str,
    ) -> Result<Arc<OperationalSkill>, SkillError> {
        if !is_version(etag) {
            return self.get_async(slag).await;
        }
        if let Some(held) = self.held_version(slag, etag)? {
            return Ok(held);
        }
        let (catalog, owned, etag) = (self.clone(), slag.to_owned(), etag.to_owned());
        blocking(Path::new(slag), move || catalog.get_version(&owned, &etag)).await
    }

    /// Every tenant with a memory root here, [`DEFAULT_TENANT`] first.
    pub fn tenant_names(&self) -> Vec<String> {
        let mut names = vec![DEFAULT_TENANT.to_owned()];
        if let Some(shared) = &self.shared {
            match shared.run(shared.docs.doc_list(TENANTS_SCOPE)) {
                Ok(tenants) => names.extend(
                    tenants
                        .into_iter()
                        .filter(|name| is_valid_slag(name) && name != DEFAULT_TENANT),
                ),
                Err(error) => warn!(%error, "could not list the tenants"),
            }
            return names;
        }
        if let Ok(entries) = std::fs::read_dir(self.root.join(TENANTS_DIR)) {
            let mut others: Vec<String> = entries
                .filter_map(Result::ok)
                .filter_map(|entry| entry.file_name().into_string().ok())
                .filter(|name| is_valid_slag(name) && name != DEFAULT_TENANT)
                .collect();
            others.sort();
            names.extend(others);
        }
        names
    }

    /// The catalog's variables.
    pub fn vars(&self) -> &Vars {
        &self.vars
    }

    /// Loads and validates a document as it would be stored: variables
    /// expanded first; an unknown `${…}` is an error at its line:col.
    pub fn load(&self, source: &str, format: Format) -> Loaded {
        match self.vars.expand(source) {
            Ok(expanded) => self.checked_load(&expanded, format),
            Err(diagnostics) => Loaded::refused(diagnostics),
        }
    }

    fn checked_load(&self, source: &str, format: Format) -> Loaded {
        let mut loaded = load(source, format);
        if let Some(check) = &self.mcp_check {
            check.apply(&mut loaded);
        }
        loaded
    }

    /// The memory root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn slag_dir(&self, slag: &str) -> Result<PathBuf, SkillError> {
        if !is_valid_slag(slag) {
            return Err(SkillError::UnsafeSlag(slag.chars().take(80).collect()));
        }
        Ok(self.root.join(slag))
    }

    /// The operational skill of `slag`, bootstrapped on first use from its
    /// template; [`SkillError::UnknownSkill`] when there is none.
    pub fn get(&self, slag: &str) -> Result<Arc<OperationalSkill>, SkillError> {
        let file = self.slag_dir(slag)?.join(SKILL_FILE);
        if let Some(shared) = &self.shared {
            return self.get_shared(shared, slag);
        }
        if !file.exists() {
            return self.bootstrap(slag, None);
        }
        self.read(slag, &file)
    }

    /// Whether `slag` has an operational skill on disk.
    pub fn exists(&self, slag: &str) -> Result<bool, SkillError> {
        let file = self.slag_dir(slag)?.join(SKILL_FILE);
        match &self.shared {
            Some(shared) => Ok(self.stored(shared, slag)?.is_some()),
            None => Ok(file.exists()),
        }
    }

    /// Makes `skill` the one this process serves for `slag`, and exports its
    /// text to the memory root (a local copy for people and tools; a failure
    /// to write it is logged, never fatal).
    fn install(&self, slag: &str, skill: OperationalSkill) -> Arc<OperationalSkill> {
        let skill = Arc::new(skill);
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(
                slag.to_owned(),
                Cached {
                    skill: skill.clone(),
                    stamp: (SystemTime::UNIX_EPOCH, 0),
                },
            );
        let exported = self.slag_dir(slag).and_then(|dir| {
            for sub in SLAG_DIRS {
                let path = dir.join(sub);
                std::fs::create_dir_all(&path).map_err(|source| SkillError::io(&path, source))?;
            }
            write_atomically(&dir.join(SKILL_FILE), &skill.source)
        });
        if let Err(error) = exported {
            warn!(slag, %error, "could not export the skill to the memory root");
        }
        skill
    }

    /// [`Catalog::get`] for async callers. A skill already loaded and unchanged on
    /// disk — nearly every call — comes from memory on the calling task (one
    /// `stat`); bootstrapping or (re)loading a file runs on the blocking pool.
    pub async fn get_async(
        self: &Arc<Self>,
        slag: &str,
    ) -> Result<Arc<OperationalSkill>, SkillError> {
        let file = self.slag_dir(slag)?.join(SKILL_FILE);
        if let Some(shared) = &self.shared {
            // The store read runs on the calling task; the blocking pool only
            // builds a skill that changed (or bootstraps a new one).
            let held = self.cached(slag);
            let read = self
                .read_shared(shared, slag, held.as_ref())
                .await
                .map_err(store_error)?;
            if let (DocRead::Unchanged, Some(held)) = (&read, &held) {
                return Ok(held.clone());
            }
            let (catalog, owned) = (self.clone(), slag.to_owned());
            return blocking(&file, move || catalog.settle_shared(&owned, read, held)).await;
        }
        if let Ok(stamp) = stamp_of(&file)
            && let Some(cached) = self
                .cache
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .get(slag)
                .filter(|cached| cached.stamp == stamp)
        {
            return Ok(cached.skill.clone());
        }
        let (catalog, owned) = (self.clone(), slag.to_owned());
        blocking(&file, move || catalog.get(&owned)).await
    }

    fn read(&self, slag: &str, file: &Path) -> Result<Arc<OperationalSkill>, SkillError> {
        let stamp = stamp_of(file).map_err(|source| SkillError::io(file, source))?;
        let mut cache = self
            .cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(cached) = cache.get(slag)
            && cached.stamp == stamp
        {
            return Ok(cached.skill.clone());
        }
        let source =
            std::fs::read_to_string(file).map_err(|source| SkillError::io(file, source))?;
        let template = cache
            .get(slag)
            .and_then(|cached| cached.skill.template.clone())
            .or_else(|| self.template_marker(slag));
        match build(
            self.checked_load(&source, Format::detect(None, &source)),
            slag,
            &source,
            template,
            stamp.0,
        ) {
            Ok(skill) => {
                if cache.contains_key(slag) {
                    info!(slag, "operational skill changed on disk, reloaded");
                }
                self.keep_version(slag, &skill);
                let skill = Arc::new(skill);
                cache.insert(
                    slag.to_owned(),
                    Cached {
                        skill: skill.clone(),
                        stamp,
                    },
                );
                Ok(skill)
            }
            Err(errors) => {
                let Some(cached) = cache.get_mut(slag) else {
                    // Nothing good to fall back on: the skill cannot be served.
                    return Err(SkillError::Invalid {
                        slag: slag.to_owned(),
                        diagnostics: errors,
                    });
                };
                warn!(
                    slag,
                    errors = errors.len(),
                    "on-disk edit of the skill does not validate; serving the last good version"
                );
                let mut kept = (*cached.skill).clone();
                kept.warnings
                    .retain(|warning| warning.code != codes::STALE_EDIT);
                let first = errors
                    .first()
                    .map(|error| error.render(SKILL_FILE))
                    .unwrap_or_default();
                kept.warnings.push(Diagnostic::warning(
                    "",
                    Position { line: 1, column: 1 },
                    codes::STALE_EDIT,
                    format!("the edited {SKILL_FILE} does not validate ({} errors, first: {first}); the last good version is in service", errors.len()),
                ));
                let kept = Arc::new(kept);
                // Remember the broken stamp so the file is not re-parsed on every read.
                *cached = Cached {
                    skill: kept.clone(),
                    stamp,
                };
                Ok(kept)
            }
        }
    }

    fn expand_or_refuse(&self, slag: &str, source: &str) -> Result<String, SkillError> {
        self.vars
            .expand(source)
            .map_err(|diagnostics| SkillError::Invalid {
                slag: slag.to_owned(),
                diagnostics,
            })
    }

    /// Validates and writes an operational skill, variables expanded (the stored
    /// text is the expanded one, as at bootstrap). Refuses a document with errors
    /// (the stored file is untouched) and, when `expected_etag` is given, a write
    /// over a newer version — unless the stored skill already is this document
    /// (a retried request whose first attempt wrote it).
    pub fn put(
        &self,
        slag: &str,
        source: &str,
        expected_etag: Option<&str>,
    ) -> Result<Arc<OperationalSkill>, SkillError> {
        let dir = self.slag_dir(slag)?;
        let file = dir.join(SKILL_FILE);
        let source = &self.expand_or_refuse(slag, source)?;
        if let Some(shared) = &self.shared {
            return self.put_shared(shared, slag, source, expected_etag);
        }
        if let Some(expected) = expected_etag.filter(|etag| !etag.is_empty()) {
            let current = std::fs::read_to_string(&file)
                .ok()
                .map(|text| etag_of(&text));
            if current.as_deref() == Some(etag_of(source).as_str()) {
                return self.read(slag, &file);
            }
            if current.as_deref() != Some(expected) {
                return Err(SkillError::EtagMismatch {
                    slag: slag.to_owned(),
                });
            }
        }
        let template = self.template_marker(slag);
        if let Err(errors) = build(
            self.checked_load(source, Format::detect(None, source)),
            slag,
            source,
            template,
            SystemTime::now(),
        ) {
            return Err(SkillError::Invalid {
                slag: slag.to_owned(),
                diagnostics: errors,
            });
        }
        for sub in SLAG_DIRS {
            let path = dir.join(sub);
            std::fs::create_dir_all(&path).map_err(|source| SkillError::io(&path, source))?;
        }
        write_atomically(&file, source)?;
        self.read(slag, &file)
    }

    /// Removes the operational skill of `slag` (its file and template marker; the
    /// archived jobs stay). `expected_etag`, when given, must match the stored
    /// version. A slag with a template is bootstrapped again on its next use.
    pub fn delete(&self, slag: &str, expected_etag: Option<&str>) -> Result<(), SkillError> {
        let dir = self.slag_dir(slag)?;
        if let Some(shared) = &self.shared {
            return self.delete_shared(shared, slag, expected_etag);
        }
        let file = dir.join(SKILL_FILE);
        let current = match std::fs::read_to_string(&file) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Err(SkillError::UnknownSkill {
                    slag: slag.to_owned(),
                    known: self.list()?,
                    templates: self.template_slags()?,
                });
            }
            Err(source) => return Err(SkillError::io(&file, source)),
        };
        if let Some(expected) = expected_etag.filter(|etag| !etag.is_empty())
            && etag_of(&current) != expected
        {
            return Err(SkillError::EtagMismatch {
                slag: slag.to_owned(),
            });
        }
        std::fs::remove_file(&file).map_err(|source| SkillError::io(&file, source))?;
        let marker = dir.join(".template");
        if let Err(error) = std::fs::remove_file(&marker)
            && error.kind() != std::io::ErrorKind::NotFound
        {
            return Err(SkillError::io(&marker, error));
        }
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(slag);
        info!(slag, "operational skill deleted");
        Ok(())
    }

    /// Slags with an operational skill, sorted.
    pub fn list(&self) -> Result<Vec<String>, SkillError> {
        if let Some(shared) = &self.shared {
            return shared.run(shared.docs.doc_list(&skills_scope(&self.tenant)));
        }
        let entries = match std::fs::read_dir(&self.root) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => return Err(SkillError::io(&self.root, source)),
        };
        let mut slags: Vec<String> = entries
            .filter_map(Result::ok)
            .filter_map(|entry| entry.file_name().into_string().ok())
            .filter(|name| is_valid_slag(name) && self.root.join(name).join(SKILL_FILE).is_file())
            .collect();
        slags.sort();
        Ok(slags)
    }
}

/// Whether `etag` can name a kept version (anything else means "the current one").
fn is_version(etag: &str) -> bool {
    !etag.is_empty() && etag.len() <= 64 && etag.chars().all(|c| c.is_ascii_hexdigit())
}

fn write_atomically(file: &Path, contents: &str) -> Result<(), SkillError> {
    // Unique per write, so concurrent writers (two catalogs over one root, two
    // processes) never share a temp file; the rename is the atomic step.
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let dir = file.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|source| SkillError::io(dir, source))?;
    let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = file
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or("skill");
    let temp = dir.join(format!(".{name}.tmp-{}-{n}", std::process::id()));
    std::fs::write(&temp, contents).map_err(|source| SkillError::io(&temp, source))?;
    std::fs::rename(&temp, file).map_err(|source| SkillError::io(file, source))
}
