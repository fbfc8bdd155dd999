//! Raw bytes as a graph description: malformed JSON, odd values and odd graphs alike.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        tilegraph_oracle::pipeline::check_description(text);
    }
});
