//! Fuzzes the condition grammar of approvals and tool policies: parsing never
//! panics, and a parsed condition evaluates on any arguments.
#![no_main]

use adas_skill::condition::Condition;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(condition) = Condition::parse(text) {
        let arguments = serde_json::json!({"amount": 1e300, "name": text});
        let _ = condition.holds(arguments.as_object().expect("an object"));
        let _ = condition.fields();
    }
});
