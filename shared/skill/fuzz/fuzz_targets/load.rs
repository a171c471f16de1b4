//! Fuzzes the whole document pipeline (YAML and JSON → positions → typed skill →
//! validation → compiled policy): no input may panic or overflow the stack.
#![no_main]

use adas_skill::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = adas_skill::load(text, Format::Yaml);
    let _ = adas_skill::load(text, Format::Json);
});
