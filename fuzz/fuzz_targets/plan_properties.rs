//! Coverage-guided search for graphs that break a plan property: the input is a choice sequence for
//! the property tests' graph decoder (`tilegraph_oracle::random_graph`), and every property of
//! `tilegraph_oracle::checks`, minimality included for graphs of up to 6 passes, must hold.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tilegraph_oracle::checks::{Tally, check_graph, check_minimal, options_from};
use tilegraph_oracle::random_graph::{Choices, Shape, graph};

fuzz_target!(|data: &[u8]| {
    let Some((&option_bits, rest)) = data.split_first() else {
        return;
    };
    let choices: Vec<u32> = rest
        .chunks(2)
        .map(|c| u32::from(c[0]) | u32::from(*c.get(1).unwrap_or(&0)) << 8)
        .collect();
    let json = graph(&mut Choices::new(&choices), &Shape { max_passes: 8 }).to_string();
    let options = options_from(option_bits);
    let mut tally = Tally::default();
    let compiled = check_graph(&json, &options, &mut tally)
        .unwrap_or_else(|e| panic!("{e}\noptions: {options:?}\ngraph: {json}"));
    if let Some((graph, plan)) = compiled {
        if graph.passes().len() <= 6 {
            check_minimal(&graph, &plan, &options, &mut tally)
                .unwrap_or_else(|e| panic!("{e}\noptions: {options:?}\ngraph: {json}"));
        }
    }
});
