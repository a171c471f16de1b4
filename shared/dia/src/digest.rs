//! The one canonical form of JSON (object keys sorted at every level, no
//! spaces) and the digest of a call made from it: an approval, a loop check
//! and an idempotency key all name exactly one call by it, and a tool
//! definition is pinned by the digest of its canonical text.

use serde_json::{Map, Value as Json};
use sha2::{Digest, Sha256};

/// `value` with object keys sorted at every level. Recursion is bounded by
/// serde_json's own nesting limit on the text `value` was parsed from.
pub fn canonical(value: &Json) -> Json {
    match value {
        Json::Object(map) => {
            let mut entries: Vec<(&String, &Json)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            Json::Object(
                entries
                    .into_iter()
                    .map(|(key, value)| (key.clone(), canonical(value)))
                    .collect(),
            )
        }
        Json::Array(items) => Json::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

/// SHA-256 (hex) of `text`.
pub fn sha256_hex(text: &[u8]) -> String {
    hex::encode(Sha256::digest(text))
}

/// SHA-256 (hex) of the tool, a NUL and its arguments as canonical JSON.
pub fn call_digest(tool: &str, args: &Map<String, Json>) -> String {
    let mut hasher = Sha256::new();
    hasher.update(tool.as_bytes());
    hasher.update([0u8]);
    hasher.update(
        canonical(&Json::Object(args.clone()))
            .to_string()
            .as_bytes(),
    );
    hex::encode(hasher.finalize())
}

static AUDIT_KEY: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();

/// Keys this process' audit digests and sealed tokens with the deployment's
/// secret (once, at startup, before any is made); false when a key was
/// already in use.
pub fn set_audit_key(key: Vec<u8>) -> bool {
    AUDIT_KEY.set(key).is_ok()
}

fn audit_key() -> &'static [u8] {
    AUDIT_KEY.get_or_init(|| {
        let mut key = vec![0u8; 32];
        getrandom::fill(&mut key).expect("the system's randomness");
        key
    })
}

/// HMAC-SHA256 of `parts`, one after another, under the audit secret (a
/// random one per process until [`set_audit_key`]): what the deployment
/// shows or hands out that must not be guessed or forged.
pub fn keyed(parts: &[&[u8]]) -> [u8; 32] {
    use hmac::{KeyInit, Mac};
    let mut mac =
        hmac::Hmac::<Sha256>::new_from_slice(audit_key()).expect("HMAC takes a key of any length");
    for part in parts {
        mac.update(part);
    }
    mac.finalize().into_bytes().into()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn key_order_does_not_change_a_digest_and_values_do() {
        let a = json!({"b": 1, "a": {"y": [1, {"d": 2, "c": 3}], "x": null}});
        let b = json!({"a": {"x": null, "y": [1, {"c": 3, "d": 2}]}, "b": 1});
        assert_eq!(
            canonical(&a).to_string(),
            r#"{"a":{"x":null,"y":[1,{"c":3,"d":2}]},"b":1}"#
        );
        let (a, b) = (a.as_object().unwrap(), b.as_object().unwrap());
        assert_eq!(call_digest("t", a), call_digest("t", b));
        assert_ne!(call_digest("t", a), call_digest("u", a));
        let mut c = a.clone();
        c.insert("b".into(), json!(2));
        assert_ne!(call_digest("t", a), call_digest("t", &c));
        assert_eq!(call_digest("t", a).len(), 64);
    }
}
