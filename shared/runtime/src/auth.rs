//! Who is calling: principals, API keys, and the one tower layer that
//! authenticates every RPC of every service.
//!
//! A principal has a name, a tenant and roles. Keys are bearer tokens
//! (`authorization: Bearer adas_…`), 256 random bits, kept in the auth file only
//! as SHA-256 digests (a fast hash is enough for keys of that entropy; nothing
//! about them can be guessed from the file). The layer puts the caller's
//! [`Principal`] into the request's extensions; services read it with
//! [`principal`] and decide from its roles — never from a name the request
//! carries. Health stays open so probes work without credentials; reflection and
//! everything else needs a principal.
//!
//! The same layer turns tonic's INTERNAL for an undecodable request body into
//! INVALID_ARGUMENT.
//!
//! Without an auth file the suite runs in *dev mode*: every caller is the dev
//! principal (all roles), which is only allowed on a loopback listener.

use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::{Arc, RwLock};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

mod file;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tonic::Status;

pub use file::*;

/// Roles with a meaning to the platform (skills name their own approver roles).
pub mod roles {
    /// Skills, keys, tool acceptance; everything an operator may do.
    pub const ADMIN: &str = "admin";
    /// Every job of the tenant.
    pub const OPERATOR: &str = "operator";
    /// The jobs it started.
    pub const USER: &str = "user";
    /// The suite's own processes calling each other (workers → peers).
    pub const SERVICE: &str = "service";
}

/// The tenant of dev mode and of jobs stored before tenants existed.
pub const DEV_TENANT: &str = "default";

/// The tenant of a `service` key that acts for every tenant (the suite's own
/// workers: `adas up`'s in-process key, a split deployment's peer key).
/// Any other service key acts for its own tenant only.
pub const ALL_TENANTS: &str = "*";

/// The authenticated caller.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Principal {
    /// Unique name (recorded as owner, decider, author).
    pub name: String,
    /// The tenant whose data it sees.
    pub tenant: String,
    /// Its roles.
    pub roles: Vec<String>,
    /// Claims the operator mapped to its key (`email`, …): what a skill's
    /// `${principal.CLAIM}` reads, never a value the caller chose.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub claims: std::collections::BTreeMap<String, String>,
    /// The dev-mode principal (no auth file): holds every role.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dev: bool,
}

impl Principal {
    /// Whether this principal may see and act on `record`, as a status:
    /// another tenant's job does not exist for it (NOT_FOUND, the same answer
    /// as a job that does not exist); a job of its tenant it neither started
    /// nor oversees is PERMISSION_DENIED. An approver sees the job whose
    /// decision it holds the role for.
    pub fn check_job(&self, record: &adas_step::JobRecord) -> Result<(), Status> {
        check_job_tenant(&self.tenant, self.dev, record)?;
        let approver = record
            .waiting
            .as_ref()
            .and_then(|waiting| waiting.approval.as_ref())
            .is_some_and(|approval| self.has_role(&approval.approver));
        if self.sees_all_jobs() || self.name == record.owner || approver {
            Ok(())
        } else {
            Err(permission_denied(format!(
                "job {} belongs to another principal",
                record.job_id
            )))
        }
    }

    /// Refuses callers that are not one of the suite's own processes
    /// (internal RPCs: the worker's calls that move jobs forward). An admin
    /// is not one: an administrator of skills has no business moving another
    /// job's plan.
    pub fn require_service(&self) -> Result<(), Status> {
        if self.is_service() {
            Ok(())
        } else {
            Err(permission_denied(
                "this RPC is internal to the suite (role `service`)",
            ))
        }
    }
}

/// Another tenant's job does not exist for a caller acting in `tenant` (the
/// principal's own, or the one a `service` caller names): NOT_FOUND, the same
/// answer as a job that does not exist.
pub fn check_job_tenant(
    tenant: &str,
    dev: bool,
    record: &adas_step::JobRecord,
) -> Result<(), Status> {
    if dev || tenant == record.tenant {
        return Ok(());
    }
    Err(crate::status_with_details(
        tonic::Code::NotFound,
        "JOB_NOT_FOUND",
        format!("job {} not found", record.job_id),
        &[],
    ))
}

impl Principal {
    /// The principal of dev mode.
    pub fn dev() -> Self {
        Self {
            name: "dev".into(),
            tenant: DEV_TENANT.into(),
            roles: vec![roles::ADMIN.into()],
            claims: Default::default(),
            dev: true,
        }
    }

    /// Whether it holds `role` exactly (approver roles are never implied).
    pub fn has_role(&self, role: &str) -> bool {
        self.dev
            || self
                .roles
                .iter()
                .any(|held| held.eq_ignore_ascii_case(role))
    }

    /// Whether it may see and drive every job of its tenant.
    pub fn sees_all_jobs(&self) -> bool {
        self.has_role(roles::OPERATOR)
            || self.has_role(roles::ADMIN)
            || self.has_role(roles::SERVICE)
    }

    /// Whether it may run `owner`'s job again (RetryJob): the owner, or an
    /// operator or admin of the tenant — not the suite's own service keys.
    pub fn may_retry(&self, owner: &str) -> bool {
        self.name == owner
            || (!self.is_service()
                && (self.has_role(roles::OPERATOR) || self.has_role(roles::ADMIN)))
    }

    /// Whether it administers skills and keys.
    pub fn is_admin(&self) -> bool {
        self.has_role(roles::ADMIN)
    }

    /// Whether it is one of the suite's own processes.
    pub fn is_service(&self) -> bool {
        self.has_role(roles::SERVICE)
    }

    /// Whether it acts for every tenant (dev mode, or a service key of
    /// tenant [`ALL_TENANTS`]): such callers are not held to quotas.
    pub fn acts_for_every_tenant(&self) -> bool {
        self.dev || (self.is_service() && self.tenant == ALL_TENANTS)
    }
}

/// The caller of `request`, put there by [`AuthLayer`].
pub fn principal<T>(request: &tonic::Request<T>) -> Result<Principal, Status> {
    request
        .extensions()
        .get::<Principal>()
        .cloned()
        .ok_or_else(|| unauthenticated("no authenticated principal on the request"))
}

/// Metadata a `service` principal (the suite's worker) sets to act within the
/// tenant of the job it works on. From anyone else it is ignored.
pub const TENANT_HEADER: &str = "x-adas-tenant";

/// The tenant `request` acts in: the principal's own, or — for the suite's own
/// processes only — the one named by [`TENANT_HEADER`].
pub fn tenant<T>(request: &tonic::Request<T>) -> Result<String, Status> {
    let principal = principal(request)?;
    if principal.is_service()
        && let Some(tenant) = request
            .metadata()
            .get(TENANT_HEADER)
            .and_then(|value| value.to_str().ok())
            .filter(|value| !value.is_empty())
    {
        // A service key of one tenant is that tenant's integration, not the
        // suite: it cannot step into another tenant by naming it.
        if principal.acts_for_every_tenant() || principal.tenant == tenant {
            return Ok(tenant.to_owned());
        }
        return Err(permission_denied(format!(
            "this service key acts for tenant `{}` only",
            principal.tenant
        )));
    }
    Ok(principal.tenant)
}

/// Metadata a `service` principal sets to name the skill version (etag) of the
/// job it works on, so every service judges the job by the rules it started with.
pub const SKILL_VERSION_HEADER: &str = "x-adas-skill-etag";

/// `message` as a request for a job of `tenant` started on skill version `etag`
/// (see [`TENANT_HEADER`], [`SKILL_VERSION_HEADER`]).
pub fn for_job<T>((tenant, etag): (&str, &str), message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    if let Ok(value) = tenant.parse() {
        request.metadata_mut().insert(TENANT_HEADER, value);
    }
    if let Ok(value) = etag.parse() {
        request.metadata_mut().insert(SKILL_VERSION_HEADER, value);
    }
    request
}

/// The skill version a `service` caller names for its job (empty: current).
pub fn skill_version<T>(request: &tonic::Request<T>) -> String {
    let service = request
        .extensions()
        .get::<Principal>()
        .is_some_and(Principal::is_service);
    request
        .metadata()
        .get(SKILL_VERSION_HEADER)
        .filter(|_| service)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

/// `PERMISSION_DENIED` with an `ErrorInfo` reason.
pub fn permission_denied(message: impl Into<String>) -> Status {
    crate::status_with_details(
        tonic::Code::PermissionDenied,
        "PERMISSION_DENIED",
        message,
        &[],
    )
}

fn unauthenticated(message: &str) -> Status {
    crate::status_with_details(
        tonic::Code::Unauthenticated,
        "UNAUTHENTICATED",
        message,
        &[],
    )
}

/// How callers are recognised.
#[derive(Debug, Clone)]
pub struct Authenticator {
    mode: Arc<Mode>,
}

#[derive(Debug)]
enum Mode {
    Dev,
    Keys {
        path: Option<PathBuf>,
        state: RwLock<KeyState>,
        /// Keys known only to this process (`adas up`'s own peer calls).
        internal: HashMap<String, Principal>,
    },
}

#[derive(Debug, Default)]
struct KeyState {
    by_digest: HashMap<String, Principal>,
    /// SHA-256 of the file's bytes as last read: a rewrite is noticed by
    /// its content, whatever its modification time says.
    content: Option<String>,
    checked: Option<Instant>,
}

/// How often the auth file's content is looked at: a key created by
/// `adas auth key create` works within this long, without a restart.
const RELOAD_EVERY: Duration = Duration::from_secs(1);

impl Authenticator {
    /// Dev mode: every caller is [`Principal::dev`].
    pub fn dev() -> Self {
        Self {
            mode: Arc::new(Mode::Dev),
        }
    }

    /// Keys from the auth file at `path` (re-read when it changes).
    pub fn from_file(path: &Path) -> Result<Self, String> {
        let file = AuthFile::read(path)?;
        if !path.exists() {
            return Err(format!("auth file {} does not exist", path.display()));
        }
        Ok(Self {
            mode: Arc::new(Mode::Keys {
                path: Some(path.to_owned()),
                state: RwLock::new(KeyState {
                    by_digest: index(&file),
                    content: content_digest(path),
                    checked: Some(Instant::now()),
                }),
                internal: HashMap::new(),
            }),
        })
    }

    /// Keys given directly (tests and embedding).
    pub fn from_entries(file: &AuthFile) -> Self {
        Self {
            mode: Arc::new(Mode::Keys {
                path: None,
                state: RwLock::new(KeyState {
                    by_digest: index(file),
                    ..KeyState::default()
                }),
                internal: HashMap::new(),
            }),
        }
    }

    /// Also accepts a key that exists only in this process, as a `service`
    /// principal (`adas up` calls its own services with it). Returns the key.
    pub fn with_internal_key(self) -> Result<(Self, Option<String>), String> {
        match Arc::try_unwrap(self.mode) {
            Ok(Mode::Keys {
                path,
                state,
                mut internal,
            }) => {
                let key = new_key()?;
                internal.insert(
                    key_digest(&key),
                    Principal {
                        name: "adas-internal".into(),
                        tenant: ALL_TENANTS.into(),
                        roles: vec![roles::SERVICE.into()],
                        claims: Default::default(),
                        dev: false,
                    },
                );
                Ok((
                    Self {
                        mode: Arc::new(Mode::Keys {
                            path,
                            state,
                            internal,
                        }),
                    },
                    Some(key),
                ))
            }
            Ok(Mode::Dev) => Ok((Self::dev(), None)),
            Err(shared) => Ok((Self { mode: shared }, None)),
        }
    }

    /// Whether this is dev mode (no auth file).
    pub fn is_dev(&self) -> bool {
        matches!(*self.mode, Mode::Dev)
    }

    /// The principal holding `key`, if any.
    pub fn authenticate(&self, key: &str) -> Option<Principal> {
        match &*self.mode {
            Mode::Dev => Some(Principal::dev()),
            Mode::Keys {
                path,
                state,
                internal,
            } => {
                let digest = key_digest(key);
                if let Some(principal) = internal.get(&digest) {
                    return Some(principal.clone());
                }
                self.lookup(path.as_deref(), state, &format!("key:{digest}"))
            }
        }
    }

    /// The principal whose client certificate (DER) this is, if any.
    pub fn authenticate_cert(&self, der: &[u8]) -> Option<Principal> {
        match &*self.mode {
            Mode::Dev => None,
            Mode::Keys { path, state, .. } => {
                let digest = hex(&Sha256::digest(der));
                self.lookup(path.as_deref(), state, &format!("cert:{digest}"))
            }
        }
    }

    fn lookup(
        &self,
        path: Option<&Path>,
        state: &RwLock<KeyState>,
        key: &str,
    ) -> Option<Principal> {
        if let Some(path) = path {
            reload_if_changed(path, state);
        }
        state
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .by_digest
            .get(key)
            .cloned()
    }
}

/// Principals by `key:<digest>` and `cert:<digest>`.
fn index(file: &AuthFile) -> HashMap<String, Principal> {
    let mut by_digest = HashMap::new();
    for entry in &file.principals {
        let principal = Principal {
            name: entry.name.clone(),
            tenant: entry.tenant.clone(),
            roles: entry.roles.clone(),
            claims: entry.claims.clone(),
            dev: false,
        };
        if !entry.key_sha256.is_empty() {
            by_digest.insert(
                format!("key:{}", entry.key_sha256.to_ascii_lowercase()),
                principal.clone(),
            );
        }
        if !entry.cert_sha256.is_empty() {
            by_digest.insert(
                format!("cert:{}", entry.cert_sha256.to_ascii_lowercase()),
                principal,
            );
        }
    }
    by_digest
}

fn content_digest(path: &Path) -> Option<String> {
    std::fs::read(path)
        .ok()
        .map(|bytes| hex(&Sha256::digest(&bytes)))
}

fn reload_if_changed(path: &Path, state: &RwLock<KeyState>) {
    let due = state
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .checked
        .is_none_or(|at| at.elapsed() >= RELOAD_EVERY);
    if !due {
        return;
    }
    let mut state = state
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    state.checked = Some(Instant::now());
    let now = content_digest(path);
    if now == state.content {
        return;
    }
    match AuthFile::read(path) {
        Ok(file) => {
            state.by_digest = index(&file);
            state.content = now;
            tracing::info!(principals = state.by_digest.len(), "auth file reloaded");
        }
        // A half-written or broken file keeps the keys that worked.
        Err(error) => tracing::error!(%error, "auth file not reloaded"),
    }
}

/// The tower layer that authenticates every request (see the module doc).
#[derive(Debug, Clone)]
pub struct AuthLayer {
    authenticator: Authenticator,
    quotas: Arc<crate::quota::Quotas>,
}

impl AuthLayer {
    /// A layer over `authenticator`, admitting callers within `quotas`.
    pub fn new(authenticator: Authenticator, quotas: crate::quota::Quotas) -> Self {
        Self {
            authenticator,
            quotas: Arc::new(quotas),
        }
    }
}

impl<S> tower::Layer<S> for AuthLayer {
    type Service = AuthService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        AuthService {
            inner,
            authenticator: self.authenticator.clone(),
            quotas: self.quotas.clone(),
        }
    }
}

/// The service produced by [`AuthLayer`].
#[derive(Debug, Clone)]
pub struct AuthService<S> {
    inner: S,
    authenticator: Authenticator,
    quotas: Arc<crate::quota::Quotas>,
}

const OPEN_PREFIX: &str = "/grpc.health.v1.Health/";

impl<S, Body, ResBody> tower::Service<http::Request<Body>> for AuthService<S>
where
    S: tower::Service<http::Request<Body>, Response = http::Response<ResBody>>,
    S::Future: Send + 'static,
    ResBody: Default + Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, context: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(context)
    }

    fn call(&mut self, mut request: http::Request<Body>) -> Self::Future {
        request.extensions_mut().remove::<Principal>();
        if !request.uri().path().starts_with(OPEN_PREFIX) {
            let found = bearer(request.headers())
                .and_then(|key| self.authenticator.authenticate(key))
                .or_else(|| {
                    client_certificate(&request)
                        .and_then(|der| self.authenticator.authenticate_cert(&der))
                })
                .or_else(|| self.authenticator.is_dev().then(Principal::dev));
            match found {
                Some(principal) => {
                    if let Err(status) = self.quotas.admit(&principal) {
                        let response = status.into_http();
                        return Box::pin(async move { Ok(response) });
                    }
                    request.extensions_mut().insert(principal);
                }
                None => {
                    let message = if bearer(request.headers()).is_some() {
                        "the API key is not valid"
                    } else {
                        "credentials are required: `authorization: Bearer <key>`"
                    };
                    let response = unauthenticated(message).into_http();
                    return Box::pin(async move { Ok(response) });
                }
            }
        }
        let future = self.inner.call(request);
        Box::pin(async move { future.await.map(undecodable_is_invalid) })
    }
}

/// tonic answers a request body that does not decode with INTERNAL; to the
/// caller it is a bad request (INVALID_ARGUMENT), and INTERNAL would page an
/// operator for a client's bug.
fn undecodable_is_invalid<B>(mut response: http::Response<B>) -> http::Response<B> {
    let headers = response.headers_mut();
    let undecodable = headers.get("grpc-status").is_some_and(|code| code == "13")
        && headers.get("grpc-message").is_some_and(|message| {
            let message = message.as_bytes();
            message.starts_with(b"failed%20to%20decode%20Protobuf%20message")
                || message.starts_with(b"failed to decode Protobuf message")
        });
    if undecodable {
        headers.insert("grpc-status", http::HeaderValue::from_static("3"));
    }
    response
}

/// The client's certificate (DER) on an mTLS connection.
fn client_certificate<B>(request: &http::Request<B>) -> Option<Vec<u8>> {
    use tonic::transport::server::{TcpConnectInfo, TlsConnectInfo};
    let certs = request
        .extensions()
        .get::<TlsConnectInfo<TcpConnectInfo>>()?
        .peer_certs()?;
    certs.first().map(|cert| cert.as_ref().to_vec())
}

fn bearer(headers: &http::HeaderMap) -> Option<&str> {
    let value = headers.get(http::header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, key) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| key.trim())
        .filter(|key| !key.is_empty() && key.len() <= 256)
}

/// Adds `authorization: Bearer <key>` to every call on a client channel (the
/// suite's peer calls and the CLI). `None` sends no credentials (dev mode).
#[derive(Debug, Clone, Default)]
pub struct Credentials {
    header: Option<tonic::metadata::MetadataValue<tonic::metadata::Ascii>>,
    /// For `https://` addresses: the CA to trust and the identity to present.
    tls: Option<tonic::transport::ClientTlsConfig>,
}

impl Credentials {
    /// Credentials for `key`; `None` or empty means none.
    pub fn new(key: Option<&str>) -> Result<Self, String> {
        let header = key
            .filter(|key| !key.trim().is_empty())
            .map(|key| {
                format!("Bearer {}", key.trim())
                    .parse()
                    .map_err(|_| "the API key is not valid header text".to_owned())
            })
            .transpose()?;
        Ok(Self { header, tls: None })
    }

    /// Also connects to `https://` addresses with `tls`.
    pub fn with_tls(mut self, tls: tonic::transport::ClientTlsConfig) -> Self {
        self.tls = Some(tls);
        self
    }

    /// The TLS settings for `https://` addresses.
    pub fn tls(&self) -> Option<&tonic::transport::ClientTlsConfig> {
        self.tls.as_ref()
    }
}

impl tonic::service::Interceptor for Credentials {
    fn call(&mut self, mut request: tonic::Request<()>) -> Result<tonic::Request<()>, Status> {
        if let Some(header) = &self.header {
            request
                .metadata_mut()
                .insert("authorization", header.clone());
        }
        crate::telemetry::inject(request.metadata_mut());
        Ok(request)
    }
}

/// A client channel that carries [`Credentials`].
pub type AuthChannel =
    tonic::service::interceptor::InterceptedService<tonic::transport::Channel, Credentials>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_kept_as_digests_and_recognised() {
        let mut file = AuthFile::default();
        let key = file.add_key("alice", "acme", &["user".into()]).unwrap();
        assert!(key.starts_with("adas_") && key.len() == 69);
        assert!(!serde_json::to_string(&file).unwrap().contains(&key));
        assert!(file.add_key("alice", "acme", &["user".into()]).is_err());
        assert!(file.add_key("bob", "a b", &["user".into()]).is_err());
        assert!(file.add_key("bob", "acme", &[]).is_err());

        let auth = Authenticator::from_entries(&file);
        let alice = auth.authenticate(&key).unwrap();
        assert_eq!(
            (alice.name.as_str(), alice.tenant.as_str()),
            ("alice", "acme")
        );
        assert!(alice.has_role("user") && !alice.has_role("supervisor") && !alice.sees_all_jobs());
        assert!(auth.authenticate("adas_wrong").is_none());
        assert!(!auth.is_dev());

        let (auth, internal) = auth.with_internal_key().unwrap();
        assert!(auth.authenticate(&internal.unwrap()).unwrap().is_service());
        assert!(Authenticator::dev().authenticate("").unwrap().dev);
    }

    #[cfg(unix)]
    #[test]
    fn a_new_auth_file_is_private_and_a_rewrite_keeps_the_bits_it_was_given() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("adas-auth-bits-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("auth.json");
        let _ = std::fs::remove_file(&path);
        let bits = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        let mut file = AuthFile::default();
        file.add_key("alice", "acme", &["user".into()]).unwrap();
        file.write(&path).unwrap();
        assert_eq!(bits(&path), 0o600);
        // The operator lets the services' group read it; a key created
        // afterwards (a rewrite) leaves it so.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        AuthFile::update(&path, |file| file.add_key("bob", "acme", &["user".into()])).unwrap();
        assert_eq!(bits(&path), 0o640);
        assert_eq!(AuthFile::read(&path).unwrap().principals.len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_rewrite_keeping_the_old_mtime_is_still_read_and_claims_come_along() {
        let dir = std::env::temp_dir().join(format!("adas-auth-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("auth.json");
        let mut file = AuthFile::default();
        let key = file.add_key("alice", "acme", &["user".into()]).unwrap();
        file.set_claims("alice", &["email=alice@company.com".into()])
            .unwrap();
        assert!(file.set_claims("alice", &["name=eve".into()]).is_err());
        file.write(&path).unwrap();
        let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
        let auth = Authenticator::from_file(&path).unwrap();
        let alice = auth.authenticate(&key).expect("alice signs in");
        assert_eq!(alice.claims["email"], "alice@company.com");
        // The key is revoked by a rewrite that puts the old mtime back.
        AuthFile::default().write(&path).unwrap();
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(mtime)
            .unwrap();
        let mut refused = false;
        for _ in 0..100 {
            if auth.authenticate(&key).is_none() {
                refused = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(refused, "the revoked key still works");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bearer_headers() {
        let mut headers = http::HeaderMap::new();
        assert_eq!(bearer(&headers), None);
        headers.insert("authorization", "Bearer  adas_x ".parse().unwrap());
        assert_eq!(bearer(&headers), Some("adas_x"));
        headers.insert("authorization", "Basic abc".parse().unwrap());
        assert_eq!(bearer(&headers), None);
    }
}
