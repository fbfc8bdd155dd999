//! Property tests of the compiler on random graphs (the generator is
//! `tilegraph_oracle::random_graph`).
//!
//! Graphs include textures of several mips and array layers, attachments of single mips and
//! layers, and list entries naming one subresource or the whole texture (the guide); every
//! property below holds per subresource. For every graph: compiling never panics and fails only
//! with a kind of `tilegraph::ErrorKind::ALL`; validation does not depend on the options; exactly
//! the passes the guide keeps are live; the plan executed by the reference interpreter makes every
//! read see the version the declarations say (so does the naive plan, whose ops, reasons and
//! read-only depths follow the guide's naive rules); every attachment's load op, store op,
//! read-only flag, resolve and reasons are the guide's; planned traffic matches the guide and is at
//! most the naive traffic; plans are deterministic and survive a description round trip; lifetimes
//! span exactly the live uses; physical sharing never overlaps lifetimes and only shares identical
//! descriptors and usages; transient textures are exactly those the guide allows; no render pass
//! binds for a shader a subresource it writes as an attachment; groups merge all that the guide's
//! rule allows and name the first reason that ends them; warnings and the dependency list are what
//! the plan implies; and, for graphs of up to 6 passes, no load/store assignment of the compiler's
//! groups that the interpreter accepts moves fewer bytes than the compiler's.
//!
//! Those are properties of the declared-order plan (`with_restructure(false)`, which
//! `as_declared()` must equal). The plan compiled with the options (restructured: the guide's
//! Restructuring) must compute the same frame: the same passes live; `order()` a permutation of
//! the passes that run, the groups in that order; every hazard pair (read/write, write/read,
//! write/write on one subresource, derived from the declarations), side-effect pair and
//! `keep_order` pass in declared order; every `moved`, `resolve_dropped` and `copy_folded` entry
//! true of the declarations, and the plan's resolves differing from the declared ones exactly
//! where an entry says; `needed_by` truthful; every read and every kept import seeing the declared
//! contents in the interpreter with copies as data (folded copies do not run); traffic at most the
//! declared plan's and `declared_bytes_per_frame` equal to it; the declared compiler's op,
//! lifetime, physical, transient, usage-scope, break and warning rules on the declarations as
//! the plan runs them; and, up to 6 passes, minimal ops for the restructured groups, a changed
//! order strictly cheaper than the declared order with the same resolve changes (an independent
//! traffic model), with single further moves tried and tallied.
//!
//! Defaults: 40 000 graphs (semantics) and 20 000 (minimality) in release, about fifteen seconds
//! on two cores; a tenth of that in debug builds. `TILEGRAPH_PROPTEST_CASES=N cargo test --release
//! --test cpu prop_plan -- --nocapture` runs N graphs per property and prints how many were
//! checked, with a tally of error kinds, merged groups, transients, shared physical textures,
//! subresource use, searches, and restructured plans (moves, dropped resolves, folded copies,
//! live `keep_order` passes, single moves tried and how many of those would have been cheaper).

use std::sync::Mutex;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

use tilegraph_oracle::checks::{Tally, check_graph, check_minimal, options_from};
use tilegraph_oracle::random_graph::{Choices, Shape};

/// Cases per property: `TILEGRAPH_PROPTEST_CASES`, else the release default (a tenth of it in
/// unoptimised builds, which run the interpreter about ten times slower).
fn cases(release_default: u32) -> u32 {
    let default = if cfg!(debug_assertions) {
        release_default / 10
    } else {
        release_default
    };
    std::env::var("TILEGRAPH_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn run_property(name: &str, default_cases: u32, max_passes: usize, minimality: bool) {
    let cases = cases(default_cases);
    let tally = Mutex::new(Tally::default());
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 4096,
        ..Config::default()
    });
    let strategy = (prop::collection::vec(any::<u32>(), 0..320), any::<u8>());
    let result = runner.run(&strategy, |(choices, option_bits)| {
        let json = tilegraph_oracle::random_graph::graph(
            &mut Choices::new(&choices),
            &Shape { max_passes },
        )
        .to_string();
        let options = options_from(option_bits);
        let mut tally = tally.lock().unwrap();
        let outcome =
            check_graph(&json, &options, &mut tally).and_then(|compiled| match compiled {
                Some((graph, plan)) if minimality => {
                    check_minimal(&graph, &plan, &options, &mut tally)
                }
                _ => Ok(()),
            });
        outcome
            .map_err(|e| TestCaseError::fail(format!("{e}\noptions: {options:?}\ngraph: {json}")))
    });
    let tally = tally.into_inner().unwrap();
    eprintln!(
        "{name}: checked {} graphs ({cases} cases requested, shrinking included): {tally:#?}",
        tally.graphs
    );
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
    // The generator makes multiview passes (its `multiview` step): enough of them compile.
    assert!(
        tally.multiview_groups > tally.graphs / 100,
        "{name}: {} multiview groups in {} graphs",
        tally.multiview_groups,
        tally.graphs
    );
}

#[test]
fn plans_execute_like_the_declarations_on_random_graphs() {
    run_property("semantics", 40_000, 10, false);
}

#[test]
fn compiled_ops_are_minimal_on_small_random_graphs() {
    run_property("minimality", 20_000, 6, true);
}
