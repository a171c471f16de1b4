//! Fuzzes persona templates (`{{resources.x}}`, nested `{{#if}}`): no input may
//! panic or recurse past the nesting bound.
#![no_main]

use adas_skill::resources::{BoundResources, render, template_references};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = template_references(text);
    let _ = render(text, &BoundResources::default());
});
