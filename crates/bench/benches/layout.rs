//! The per-pass compile cost at 10 000 passes against that at 1 000, by where the declarations
//! and the compiler's lists lie in memory.
//!
//! `cargo bench -p tilegraph-bench --bench layout [-- --runs N]`
//!
//! The deferred-views frames of the compile bench (1 000 and 10 000 passes), loaded from JSON in
//! four layouts:
//! - **system**: loaded by the system allocator after the bench generated the descriptions, as
//!   the compile bench loads them: each block the graph holds (its pass tables, its resources,
//!   each name) lies wherever the allocator had a free block of its size, among blocks the
//!   generator and the loader freed.
//! - **declarations in order**: loaded into an arena that hands out every block after the last
//!   and never reuses one.
//! - **compiler in order**: the system allocator's declarations, compiled by compilers whose
//!   first compiles (their workspaces, and the plans whose lists later plans reuse) took their
//!   blocks from the arena.
//! - **both in order**: the declarations and the compilers' first compiles in the arena.
//!
//! Every round times the paired 1 000/10 000-pass compiles (as the compile bench's ratio rows
//! do) of each layout in turn, so a change of the machine's speed falls on all of them alike. The
//! median and quartiles of the rounds' ratios are printed, with `Compiler` and (for the first
//! two) with `RenderGraph::compile`, whose thread workspaces the system allocator made.
//!
//! The arena is a model of a flat layout: one table per list kind, filled in order. A graph
//! stores its passes that way (`decl::Passes`), so the first two layouts differ only in where
//! the few large tables and the names lie; a plan holds each group's lists in a `Vec` of its
//! own (`Group::passes`, `Group::color`, ...), which the last two layouts move.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use tilegraph::{CompileOptions, Compiler, RenderGraph};
use tilegraph_bench::{compile_once, compiled_with, load, paired_round, positive, ratio_summary};
use tilegraph_oracle::generate;

/// The layout bench's flags.
#[derive(clap::Parser)]
#[command(name = "layout", about = "Per-pass compile cost by memory layout")]
struct Cli {
    /// Rounds (the median and quartiles are printed).
    #[arg(long, value_name = "N", default_value_t = 25, value_parser = positive)]
    runs: usize,
    /// `cargo bench` passes `--bench`.
    #[arg(long, hide = true)]
    bench: bool,
    /// libtest-style filters, ignored.
    #[arg(hide = true)]
    filters: Vec<String>,
}

/// Bytes the arena reserves (address space: pages are touched only as blocks are handed out).
const ARENA_BYTES: usize = 1 << 30;

/// The system allocator, except while [`in_arena`] runs: then blocks are cut one after another
/// from one reserved region and never freed. Blocks of the region freed later are left there;
/// a block the region has no room for comes from the system allocator.
struct ArenaOrSystem;

/// Start of the region; 0 until the first [`in_arena`].
static ARENA_START: AtomicUsize = AtomicUsize::new(0);
/// Bytes of the region handed out.
static ARENA_USED: AtomicUsize = AtomicUsize::new(0);
/// Whether allocations come from the region now.
static ARENA_ON: AtomicBool = AtomicBool::new(false);

fn in_region(ptr: *mut u8) -> bool {
    let start = ARENA_START.load(Ordering::Relaxed);
    start != 0 && (start..start + ARENA_BYTES).contains(&(ptr as usize))
}

impl ArenaOrSystem {
    /// A block cut from the region, or null where it has no room left.
    fn cut(layout: Layout) -> *mut u8 {
        let start = ARENA_START.load(Ordering::Relaxed);
        let mut block = 0;
        let cut = ARENA_USED.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
            block = (start + used).next_multiple_of(layout.align());
            let end = block + layout.size().max(1);
            (end <= start + ARENA_BYTES).then_some(end - start)
        });
        if cut.is_ok() {
            block as *mut u8
        } else {
            std::ptr::null_mut()
        }
    }
}

// SAFETY: blocks come from the system allocator, or are distinct ranges of a region the
// system allocator handed out and that is never freed (every cut starts past the last, aligned
// as asked). A region block is never passed to the system allocator: `dealloc` leaves it, and
// `realloc` of one copies it into a new block.
unsafe impl GlobalAlloc for ArenaOrSystem {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if ARENA_ON.load(Ordering::Relaxed) {
            let block = Self::cut(layout);
            if !block.is_null() {
                return block;
            }
        }
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if !in_region(ptr) {
            // SAFETY: `ptr` came from the system allocator with `layout`.
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !in_region(ptr) && !ARENA_ON.load(Ordering::Relaxed) {
            // SAFETY: `ptr` came from the system allocator with `layout`; the caller's contract
            // is passed on.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        // SAFETY: the caller guarantees `new_size` with `layout`'s alignment is a valid layout.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: `new_layout` has a non-zero size (the caller's contract).
        let block = unsafe { self.alloc(new_layout) };
        if !block.is_null() {
            // SAFETY: both blocks are live, distinct and at least this long.
            unsafe { std::ptr::copy_nonoverlapping(ptr, block, layout.size().min(new_size)) };
            // SAFETY: `ptr` is live with `layout` and no longer used.
            unsafe { self.dealloc(ptr, layout) };
        }
        block
    }
}

#[global_allocator]
static ALLOCATOR: ArenaOrSystem = ArenaOrSystem;

/// Runs `f` with every block it allocates cut from the arena, in order.
fn in_arena<T>(f: impl FnOnce() -> T) -> T {
    if ARENA_START.load(Ordering::Relaxed) == 0 {
        let layout = Layout::from_size_align(ARENA_BYTES, 4096).expect("a valid layout");
        // SAFETY: the layout has a non-zero size.
        let start = unsafe { System.alloc(layout) };
        assert!(
            !start.is_null(),
            "the arena's {ARENA_BYTES} bytes could not be reserved"
        );
        ARENA_START.store(start as usize, Ordering::Relaxed);
    }
    ARENA_ON.store(true, Ordering::Relaxed);
    let value = f();
    ARENA_ON.store(false, Ordering::Relaxed);
    value
}

/// One layout's graphs (1 000 and 10 000 passes) and the compilers that compile them.
struct Case {
    name: &'static str,
    graphs: (RenderGraph<'static>, RenderGraph<'static>),
    compilers: (Compiler, Compiler),
    /// Per-pass seconds at 1 000 and 10 000 passes, a round each: with `Compiler` (`true`) and
    /// with `RenderGraph::compile` (`false`).
    rounds: Vec<(bool, Vec<(f64, f64)>)>,
}

fn main() {
    let Cli { runs, .. } = clap::Parser::parse();
    let options = CompileOptions::default();
    let json = (
        generate::deferred_views_json(1_000),
        generate::deferred_views_json(10_000),
    );
    let system = || (load(&json.0), load(&json.1));
    // Two compiles each: the first makes the workspaces, the second the plan lists a reused
    // compiler keeps (the first plan's are handed back to it).
    let warmed = |graphs: &(RenderGraph<'static>, RenderGraph<'static>)| {
        let mut compilers = (Compiler::new(), Compiler::new());
        for (compiler, graph) in [(&mut compilers.0, &graphs.0), (&mut compilers.1, &graphs.1)] {
            for _ in 0..2 {
                compile_once(compiler, graph, &options, true);
            }
        }
        compilers
    };
    let case = |name, graphs, compilers, paths: &[bool]| Case {
        name,
        graphs,
        compilers,
        rounds: paths.iter().map(|&reuse| (reuse, Vec::new())).collect(),
    };
    let mut cases = Vec::new();
    let graphs = system();
    let compilers = warmed(&graphs);
    cases.push(case("system", graphs, compilers, &[true, false]));
    let graphs = in_arena(system);
    let compilers = warmed(&graphs);
    cases.push(case(
        "declarations in order",
        graphs,
        compilers,
        &[true, false],
    ));
    // `RenderGraph::compile` does not use these compilers: it would time the first layout again.
    let graphs = system();
    let compilers = in_arena(|| warmed(&graphs));
    cases.push(case("compiler in order", graphs, compilers, &[true]));
    let graphs = in_arena(system);
    let compilers = in_arena(|| warmed(&graphs));
    cases.push(case("both in order", graphs, compilers, &[true]));
    for _ in 0..runs {
        for case in &mut cases {
            for (reuse, rounds) in &mut case.rounds {
                let graphs = (&case.graphs.0, &case.graphs.1);
                rounds.push(paired_round(&mut case.compilers, graphs, &options, *reuse));
            }
        }
    }
    println!(
        "per-pass cost at 10 000 against 1 000 passes by memory layout, {runs} rounds each \
         timing every layout (median, quartiles):"
    );
    for case in &cases {
        for (reuse, rounds) in &case.rounds {
            let with = compiled_with(*reuse);
            println!("  {:<22} {with:<21} {}", case.name, ratio_summary(rounds));
        }
    }
}
