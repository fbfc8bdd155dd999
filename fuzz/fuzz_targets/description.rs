//! Raw bytes as a graph description: malformed JSON, odd values and odd graphs alike.
#![no_main]

#[path = "common/mod.rs"]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        common::check_description(text);
    }
});
