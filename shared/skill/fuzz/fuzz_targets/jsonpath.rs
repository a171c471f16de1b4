//! Fuzzes the JSONPaths a skill writes (`grant_mappings[].grants[].value_from`
//! and the builder conditions that become RFC 9535 filters): whatever the
//! text, the bounds come first, parsing never panics or overflows the stack,
//! and a parsed path runs on a result.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let result = serde_json::json!({"status": "active", "user": {"id": "u-1"}, "items": [1, 2, 3]});
    if let Ok(path) = adas_skill::access::json_path(text) {
        let _ = path.query(&result);
    }
    if let Ok(filter) = adas_skill::access::grant_condition(text) {
        let _ = filter.query(&serde_json::Value::Array(vec![result]));
    }
});
