//! Fuzzes the parser: no input may panic, and whatever parses must print to text
//! that parses to the same tree.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(program) = adas_dia::parse(text) {
        let printed = program.to_string();
        let reparsed = adas_dia::parse(&printed).expect("printed programs parse");
        assert_eq!(reparsed, program, "round trip of {text:?}");
    }
    let _ = adas_dia::parse_value(text);
});
