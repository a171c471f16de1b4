//! Fuzzes `${NAME}` expansion: linear, never panics, errors point inside the text.
#![no_main]

use adas_skill::vars::Vars;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut vars = Vars::default();
    vars.set("ADAS_DEMO_MCP_URL", "http://127.0.0.1:50060/mcp");
    let _ = vars.expand(text);
});
