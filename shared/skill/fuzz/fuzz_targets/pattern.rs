//! Fuzzes input `pattern`s: the bounds come first, and compiling one never
//! panics, whatever the text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = adas_skill::grammar::pattern(text);
});
