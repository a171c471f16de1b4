//! Fuzzes trigger durations (`every`): bounded, and parsing never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(period) = adas_skill::trigger::period_ms(text) {
        assert!(period >= 1000);
    }
});
