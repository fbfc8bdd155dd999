//! Compile time of generated frames, loaded with `RenderGraph::from_json` and compiled with the
//! default options (restructuring on), and a plan-cache hit.
//!
//! `cargo bench --bench compile [-- --runs N]`
//!
//! The frames: chained deferred views (the compile targets are measured on these, 100, 1 000
//! and 10 000 passes), frames with mips and layers, and the same frames declared with the
//! builder. Each row is the median (and range) of `--runs` cold compiles (25 by default) in
//! this one process, after two unmeasured ones; the cache hit is the median of 25 batches of
//! 100 000 lookups.

use std::hint::black_box;
use std::time::{Duration, Instant};

use tilegraph::{CompileOptions, PlanCache, RenderGraph};

#[path = "generate.rs"]
mod generate;

fn main() {
    let mut runs = 25;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => {
                runs = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n: &usize| n > 0)
                    .expect("--runs takes a positive count");
            }
            // `cargo bench` passes `--bench`.
            "--bench" => {}
            other => panic!("unknown argument `{other}` (expected --runs N)"),
        }
    }
    let options = CompileOptions::default();
    println!("cold compile, median of {runs} (min–max), restructuring on:");
    println!(
        "{:<34} {:>7} {:>5} {:>5} {:>11} {:>10} {:>21}",
        "frame", "passes", "res/p", "acc/p", "median", "per pass", "range"
    );
    let mut per_pass = Vec::new();
    for passes in [100, 1_000, 10_000] {
        let graph = load(&generate::deferred_views_json(passes));
        let median = cold("deferred views, JSON", &graph, &options, runs);
        per_pass.push(median.as_secs_f64() / graph.passes().len() as f64);
    }
    println!(
        "per-pass cost, 10 000 against 1 000 passes: {:.2}x",
        per_pass[2] / per_pass[1]
    );
    for passes in [1_000, 10_000] {
        let graph = load(&generate::subresource_frame_json(passes));
        cold("mips and layers, JSON", &graph, &options, runs);
        let declared = options.with_restructure(false);
        cold("  same, declared order", &graph, &declared, runs);
    }
    for passes in [1_000, 10_000] {
        let graph = generate::deferred_frame(passes);
        cold("deferred, builder", &graph, &options, runs);
    }

    println!("plan-cache hit, median of 25 batches of 100 000 lookups:");
    for passes in [1_000, 10_000] {
        let graph = load(&generate::deferred_views_json(passes));
        let mut cache = PlanCache::default();
        cache
            .get_or_compile(&graph, &options)
            .expect("generated frames compile");
        const LOOKUPS: u32 = 100_000;
        let mut batches: Vec<Duration> = (0..25)
            .map(|_| {
                let start = Instant::now();
                for _ in 0..LOOKUPS {
                    black_box(
                        cache
                            .get_or_compile(black_box(&graph), &options)
                            .expect("cached"),
                    );
                }
                start.elapsed() / LOOKUPS
            })
            .collect();
        batches.sort();
        println!(
            "{:<34} {:>7} {:>9} ns {:>10} {:>8}–{} ns",
            "deferred views, JSON",
            passes,
            batches[12].as_nanos(),
            "",
            batches[0].as_nanos(),
            batches[24].as_nanos()
        );
    }
}

fn load(json: &str) -> RenderGraph<'static> {
    RenderGraph::from_json(json).expect("generated descriptions load")
}

/// Prints and returns the median of `runs` cold compiles.
fn cold(name: &str, graph: &RenderGraph<'_>, options: &CompileOptions, runs: usize) -> Duration {
    for _ in 0..2 {
        black_box(graph.compile(options).expect("generated frames compile"));
    }
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            let plan = graph.compile(options).expect("generated frames compile");
            let elapsed = start.elapsed();
            drop(black_box(plan));
            elapsed
        })
        .collect();
    times.sort();
    let median = times[runs / 2];
    let passes = graph.passes();
    let accesses: usize = passes
        .iter()
        .map(|p| p.attachment_count() + p.entries().count())
        .sum();
    let n = passes.len() as f64;
    println!(
        "{name:<34} {:>7} {:>5.2} {:>5.2} {:>11} {:>7.0} ns {:>10}–{}",
        passes.len(),
        graph.resources().len() as f64 / n,
        accesses as f64 / n,
        show(median),
        median.as_nanos() as f64 / n,
        show(times[0]),
        show(times[runs - 1]),
    );
    median
}

fn show(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1_000.0 {
        format!("{us:.0} µs")
    } else {
        format!("{:.2} ms", us / 1_000.0)
    }
}
