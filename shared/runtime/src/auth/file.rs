//! The auth file: principals, their roles and tenants, and the digests of
//! their keys (a key itself is never stored); new keys.

use super::*;

/// One principal in the auth file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrincipalEntry {
    /// Principal name.
    pub name: String,
    /// Its tenant.
    pub tenant: String,
    /// Its roles.
    pub roles: Vec<String>,
    /// Claims the operator maps to it (`email`: `alice@company.com`), which
    /// skills read as `${principal.email}`.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub claims: std::collections::BTreeMap<String, String>,
    /// SHA-256 of its API key, hex (empty: no key).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub key_sha256: String,
    /// SHA-256 of its client certificate (DER), hex: it may authenticate by mTLS.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub cert_sha256: String,
}

/// The auth file: principals and their key digests (JSON).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuthFile {
    /// Every principal.
    #[serde(default)]
    pub principals: Vec<PrincipalEntry>,
}

impl AuthFile {
    /// Reads `path`; a missing file is an empty one.
    pub fn read(path: &Path) -> Result<Self, String> {
        match std::fs::read_to_string(path) {
            Ok(text) => serde_json::from_str(&text)
                .map_err(|error| format!("auth file {}: {error}", path.display())),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(error) => Err(format!("auth file {}: {error}", path.display())),
        }
    }

    /// Reads `path`, applies `change` and writes it back, holding an
    /// exclusive lock on `<path>.lock` throughout, so concurrent writers
    /// (two `adas auth key create` at once) never lose each other's entries.
    pub fn update<T>(
        path: &Path,
        change: impl FnOnce(&mut Self) -> Result<T, String>,
    ) -> Result<T, String> {
        let lock_path = path.with_extension("lock");
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|error| format!("auth file lock {}: {error}", lock_path.display()))?;
        lock.lock()
            .map_err(|error| format!("auth file lock {}: {error}", lock_path.display()))?;
        let mut file = Self::read(path)?;
        let value = change(&mut file)?;
        file.write(path)?;
        Ok(value)
    }

    /// Writes it atomically. A new file is readable by its owner only; a
    /// file rewritten keeps its permission bits and group, so one an operator
    /// made readable by the services' group (compose's `group_add`) stays
    /// readable after a key is created, rotated or revoked.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).map_err(|error| error.to_string())?;
        let temp = path.with_extension("tmp");
        let write = || -> std::io::Result<()> {
            use std::io::Write;
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create(true).truncate(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            let mut file = options.open(&temp)?;
            #[cfg(unix)]
            if let Ok(kept) = std::fs::metadata(path) {
                use std::os::unix::fs::{MetadataExt, PermissionsExt};
                // The group first: the bits may grant it the read.
                std::os::unix::fs::fchown(&file, None, Some(kept.gid()))?;
                file.set_permissions(std::fs::Permissions::from_mode(kept.mode() & 0o777))?;
            }
            file.write_all(text.as_bytes())?;
            file.sync_all()?;
            std::fs::rename(&temp, path)
        };
        write().map_err(|error| format!("auth file {}: {error}", path.display()))
    }

    /// Adds a principal with a new key and returns the key (shown once, kept
    /// nowhere but in the caller's hands).
    pub fn add_key(
        &mut self,
        name: &str,
        tenant: &str,
        roles: &[String],
    ) -> Result<String, String> {
        check_name("name", name)?;
        if tenant == ALL_TENANTS {
            // Only the suite's own workers act for every tenant.
            if roles.iter().any(|role| role != roles::SERVICE) {
                return Err(format!(
                    "tenant `{ALL_TENANTS}` (every tenant) is for `service` keys only"
                ));
            }
        } else {
            check_name("tenant", tenant)?;
        }
        // A tenant names a directory and a key prefix: the slag rule.
        if tenant != ALL_TENANTS
            && !tenant
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_'))
        {
            return Err(format!(
                "tenant `{tenant}`: lowercase letters, digits, `-` and `_` only"
            ));
        }
        if roles.is_empty() {
            return Err("at least one --role is required".into());
        }
        for role in roles {
            check_name("role", role)?;
        }
        if self.principals.iter().any(|entry| entry.name == name) {
            return Err(format!("a principal named `{name}` already exists"));
        }
        let key = new_key()?;
        self.principals.push(PrincipalEntry {
            name: name.to_owned(),
            tenant: tenant.to_owned(),
            roles: roles.to_vec(),
            claims: Default::default(),
            key_sha256: key_digest(&key),
            cert_sha256: String::new(),
        });
        Ok(key)
    }

    /// Sets `name`'s claims from `NAME=VALUE` entries (replacing its claims).
    pub fn set_claims(&mut self, name: &str, entries: &[String]) -> Result<(), String> {
        let mut claims = std::collections::BTreeMap::new();
        for entry in entries {
            let (claim, value) = entry
                .split_once('=')
                .ok_or_else(|| format!("claim `{entry}`: expected NAME=VALUE"))?;
            let claim = claim.trim();
            if claim.is_empty()
                || claim.len() > 64
                || !claim
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
                || matches!(claim, "name" | "tenant" | "roles")
            {
                return Err(format!(
                    "claim `{claim}`: letters, digits, `-` and `_` (not name, tenant or roles, which every principal has)"
                ));
            }
            if value.is_empty() || value.len() > 256 || value.chars().any(char::is_control) {
                return Err(format!(
                    "claim `{claim}`: a value of 1–256 printable characters"
                ));
            }
            claims.insert(claim.to_owned(), value.to_owned());
        }
        let entry = self
            .principals
            .iter_mut()
            .find(|entry| entry.name == name)
            .ok_or_else(|| format!("no principal named `{name}`"))?;
        entry.claims = claims;
        Ok(())
    }

    /// Adds a principal that authenticates with the client certificate in
    /// `pem` (its first certificate); returns the fingerprint kept.
    pub fn add_cert(
        &mut self,
        name: &str,
        tenant: &str,
        roles: &[String],
        pem: &[u8],
    ) -> Result<String, String> {
        use rustls_pki_types::CertificateDer;
        use rustls_pki_types::pem::PemObject;
        let der = CertificateDer::pem_slice_iter(pem)
            .next()
            .ok_or("no certificate in the PEM file")?
            .map_err(|error| format!("the PEM file does not parse: {error}"))?;
        let fingerprint = hex(&Sha256::digest(der.as_ref()));
        // Checks the name, tenant and roles the same way as for a key.
        self.add_key(name, tenant, roles)?;
        let entry = self.principals.last_mut().expect("just added");
        entry.key_sha256 = String::new();
        entry.cert_sha256 = fingerprint.clone();
        Ok(fingerprint)
    }

    /// The principal named `name`, for a change to its key.
    fn with_key(&mut self, name: &str) -> Result<&mut PrincipalEntry, String> {
        let entry = self
            .principals
            .iter_mut()
            .find(|entry| entry.name == name)
            .ok_or_else(|| format!("no principal named `{name}`"))?;
        if entry.key_sha256.is_empty() {
            return Err(format!(
                "principal `{name}` has no API key (it signs in with a certificate)"
            ));
        }
        Ok(entry)
    }

    /// Replaces `name`'s key with a new one and returns it (shown once): the
    /// old key stops working as soon as a server rereads the file.
    pub fn rotate_key(&mut self, name: &str) -> Result<String, String> {
        let entry = self.with_key(name)?;
        let key = new_key()?;
        entry.key_sha256 = key_digest(&key);
        Ok(key)
    }

    /// Revokes `name`'s key: the principal is removed (its jobs and records
    /// keep its name), and the key stops working as soon as a server rereads
    /// the file.
    pub fn revoke_key(&mut self, name: &str) -> Result<PrincipalEntry, String> {
        self.with_key(name)?;
        let at = self
            .principals
            .iter()
            .position(|entry| entry.name == name)
            .expect("found above");
        Ok(self.principals.remove(at))
    }
}

pub(super) fn check_name(what: &str, value: &str) -> Result<(), String> {
    let ok = !value.is_empty()
        && value.len() <= 64
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{what} `{value}`: 1–64 letters, digits, `-`, `_` or `.`"
        ))
    }
}

/// A new API key: `adas_` and 64 hex digits (256 random bits).
pub fn new_key() -> Result<String, String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|error| format!("no randomness: {error}"))?;
    Ok(format!("adas_{}", hex(&bytes)))
}

/// The digest kept for a key.
pub fn key_digest(key: &str) -> String {
    hex(&Sha256::digest(key.as_bytes()))
}

pub(super) fn hex(bytes: &[u8]) -> String {
    hex::encode(bytes)
}
