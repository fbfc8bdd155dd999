//! tilegraph's compile benchmarks and what they share: `benches/compile.rs` (compile times, and
//! with the `zenfg` feature, `zenfg_frame::compile` compiling the same graphs with zenfg 0.2) and
//! `benches/layout.rs` (the per-pass cost against where the declarations lie in memory); and
//! `benches/overhead.rs` with its scene ([`overhead`]): recording frames through the graph
//! against recording them by hand in wgpu.

use std::hint::black_box;
use std::time::{Duration, Instant};

use tilegraph::{CompileOptions, Compiler, RenderGraph};

#[cfg(feature = "zenfg")]
pub mod zenfg_frame;

/// The benches' `--runs` parser: a positive count.
pub fn positive(v: &str) -> Result<usize, String> {
    v.parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("takes a positive number, not `{v}`"))
}

/// A graph from a JSON description the bench generated.
pub fn load(json: &str) -> RenderGraph<'static> {
    RenderGraph::from_json(json).expect("generated descriptions load")
}

/// One compile's wall-clock and CPU time, with `compiler` or, where `reuse` is false, with
/// `RenderGraph::compile` (the plan dropped once the clocks stop).
pub fn compile_once(
    compiler: &mut Compiler,
    graph: &RenderGraph<'_>,
    options: &CompileOptions,
    reuse: bool,
) -> (Duration, Duration) {
    let (start, start_cpu) = (Instant::now(), thread_cpu_time());
    let plan = if reuse {
        compiler.compile(graph, options)
    } else {
        graph.compile(options)
    };
    let plan = black_box(plan.expect("generated frames compile"));
    let times = (start.elapsed(), thread_cpu_time() - start_cpu);
    // Dropping the plan (its lists left to the next compile) is part of the next frame's work,
    // not timed.
    drop(plan);
    times
}

/// The rows' name of how a compile ran: a reused `Compiler`, or `RenderGraph::compile`.
pub fn compiled_with(reuse: bool) -> &'static str {
    if reuse {
        "Compiler"
    } else {
        "RenderGraph::compile"
    }
}

/// The per-pass costs (seconds) of `small` and `large`, once a round: each round compiles
/// `small` eight times, then `large` five times, and takes the medians of the last three of
/// each (the first compiles bring the declarations and the compiler's tables back into the
/// caches, as the compile bench's other rows leave their first three out: two at least, since
/// a plan's lists and the workspaces' take turns, and each set's first compile after the other
/// size finds its lists out of the caches). Timing both sizes within a few tens of milliseconds
/// keeps the machine's changes of speed out of the ratio.
pub fn paired_per_pass(
    graphs: (&RenderGraph<'_>, &RenderGraph<'_>),
    options: &CompileOptions,
    reuse: bool,
    rounds: usize,
) -> Vec<(f64, f64)> {
    let mut compilers = (Compiler::new(), Compiler::new());
    (0..rounds)
        .map(|_| paired_round(&mut compilers, graphs, options, reuse))
        .collect()
}

/// One round of [`paired_per_pass`], with `compilers.0` compiling `small` and `compilers.1`
/// compiling `large` (unused where `reuse` is false).
pub fn paired_round(
    compilers: &mut (Compiler, Compiler),
    (small, large): (&RenderGraph<'_>, &RenderGraph<'_>),
    options: &CompileOptions,
    reuse: bool,
) -> (f64, f64) {
    let per_pass = |graph: &RenderGraph<'_>, compiler: &mut Compiler, warm: usize| {
        let mut times: Vec<Duration> = (0..warm + 3)
            .map(|_| compile_once(compiler, graph, options, reuse).0)
            .collect();
        let timed = &mut times[warm..];
        timed.sort();
        timed[1].as_secs_f64() / graph.passes().len() as f64
    };
    let small = per_pass(small, &mut compilers.0, 5);
    (small, per_pass(large, &mut compilers.1, 2))
}

/// The median, lower quartile and upper quartile of `values` (not empty).
fn quartiles(mut values: Vec<f64>) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    (values[n / 2], values[n / 4], values[n * 3 / 4])
}

/// What [`paired_per_pass`]'s rounds give: the per-pass ratio of 10 000 passes to 1 000 (median
/// and quartiles), and the median per-pass times of both sizes.
pub fn ratio_summary(rounds: &[(f64, f64)]) -> String {
    let (ratio, low, high) = quartiles(rounds.iter().map(|(s, l)| l / s).collect());
    let median_ns =
        |size: fn(&(f64, f64)) -> f64| quartiles(rounds.iter().map(size).collect()).0 * 1e9;
    format!(
        "{ratio:.2}x ({low:.2}x–{high:.2}x); a pass {:.0} ns at 1 000, {:.0} ns at 10 000",
        median_ns(|r| r.0),
        median_ns(|r| r.1),
    )
}

/// CPU time of the calling thread (Linux); elsewhere wall-clock time since the first call.
#[cfg(target_os = "linux")]
fn thread_cpu_time() -> Duration {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    unsafe extern "C" {
        fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut t = Timespec { sec: 0, nsec: 0 };
    // SAFETY: `t` is a valid timespec for the call to fill; the clock id is Linux's.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(t.sec as u64, t.nsec as u32)
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu_time() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

pub mod overhead;
