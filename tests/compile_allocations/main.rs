//! Allocations of steady-state compiles, counted by a global allocator of this test binary's
//! own (so no other test shares it).
//!
//! What is counted: every call to the allocator's `alloc`, `alloc_zeroed` and `realloc` (each
//! hands out a block, new or moved) made on the test's own thread while the counter is on;
//! frees are not counted. A steady-state frame is one `Compiler::compile` of a graph the
//! compiler has compiled before, followed by dropping the plan, as a renderer
//! that compiles every frame runs it. Its count must not depend on the number of passes and
//! stays within a handful: the compiler keeps its working lists between compiles, and the
//! plan's per-pass, per-group and per-resource lists come from the plans dropped.
//! `RenderGraph::compile` does the same with the thread's workspaces and the plans dropped on
//! the thread.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use tilegraph::{CompileOptions, Compiler, RenderGraph};
use tilegraph_oracle::generate;

struct Counting;

thread_local! {
    /// Blocks handed out on this thread while counting; `None` while not counting.
    static BLOCKS: Cell<Option<u64>> = const { Cell::new(None) };
}

fn count_one() {
    // `try_with`: the allocator also runs while thread locals are torn down.
    let _ = BLOCKS.try_with(|b| {
        if let Some(n) = b.get() {
            b.set(Some(n + 1));
        }
    });
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches only a
// const-initialised thread local, which does not allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: the caller's contract is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Blocks allocated on this thread by `f`.
fn blocks_during<T>(f: impl FnOnce() -> T) -> (u64, T) {
    BLOCKS.with(|b| b.set(Some(0)));
    let out = f();
    let n = BLOCKS.with(|b| b.replace(None)).expect("counting");
    (n, out)
}

/// Blocks allocated by: a steady-state frame; `RenderGraph::compile` of a graph the thread
/// compiled (and whose plans it dropped) just before; a compile with a new `Compiler`.
fn frame_blocks(graph: &RenderGraph<'_>) -> (u64, u64, u64) {
    let options = CompileOptions::default();
    let mut compiler = Compiler::new();
    for _ in 0..3 {
        let plan = compiler
            .compile(graph, &options)
            .expect("generated frames compile");
        drop(plan);
    }
    let (steady, ()) = blocks_during(|| {
        let plan = compiler
            .compile(graph, &options)
            .expect("generated frames compile");
        drop(plan);
    });
    // The plan's lists take turns with the workspaces' lists: two compiles warm both.
    for _ in 0..2 {
        drop(graph.compile(&options).expect("generated frames compile"));
    }
    let (thread, ()) = blocks_during(|| {
        drop(graph.compile(&options).expect("generated frames compile"));
    });
    let (fresh, plan) = blocks_during(|| Compiler::new().compile(graph, &options));
    drop(plan.expect("generated frames compile"));
    (steady, thread, fresh)
}

fn load(json: &str) -> RenderGraph<'static> {
    RenderGraph::from_json(json).expect("generated descriptions load")
}

/// The most blocks a steady-state frame may allocate, at any pass count.
const STEADY_MOST: u64 = 4;

/// A generated frame of about the given number of passes.
type Frame = fn(usize) -> RenderGraph<'static>;

#[test]
fn steady_state_compiles_allocate_the_same_at_any_pass_count() {
    let frames: [(&str, Frame); 3] = [
        ("deferred views (JSON)", |n| {
            load(&generate::deferred_views_json(n))
        }),
        ("mips and layers (JSON)", |n| {
            load(&generate::subresource_frame_json(n))
        }),
        ("deferred (builder)", generate::deferred_frame),
    ];
    for (name, make) in frames {
        let (small, large) = (make(1_000), make(10_000));
        let (steady_small, thread_small, fresh_small) = frame_blocks(&small);
        let (steady_large, thread_large, fresh_large) = frame_blocks(&large);
        println!(
            "{name}: steady state {steady_small} blocks at {} passes, {steady_large} at {}; \
             RenderGraph::compile after two on the thread {thread_small} and {thread_large}; \
             a new compiler {fresh_small} and {fresh_large}",
            small.passes().len(),
            large.passes().len()
        );
        assert_eq!(
            steady_small, steady_large,
            "{name}: a steady-state frame allocates more blocks at 10 000 passes than at 1 000"
        );
        // The steps' working lists come from the compiler: what is left is a list or two that
        // only a restructuring trial fills.
        assert!(
            steady_large <= STEADY_MOST,
            "{name}: a steady-state frame allocated {steady_large} blocks"
        );
        // `RenderGraph::compile` works in the thread's workspaces, which the plan dropped
        // before left its lists to: a steady-state frame too.
        assert!(
            thread_small <= STEADY_MOST && thread_large <= STEADY_MOST,
            "{name}: RenderGraph::compile allocated {thread_small} and {thread_large} blocks"
        );
        // The counter sees per-group allocations where they happen: a fresh compiler has no
        // plan to take its lists from.
        assert!(
            fresh_large > fresh_small + 1_000,
            "{name}: a fresh compile allocated {fresh_small} blocks at 1 000 passes and {fresh_large} at 10 000"
        );
    }
}

/// A renderer declaring every frame into the graph `RenderGraph::reset` hands back (names
/// written into one buffer) allocates nothing once a frame of the same shape was declared.
#[test]
fn declaring_into_a_reset_graph_allocates_nothing_in_the_steady_state() {
    for passes in [1_000, 10_000] {
        let mut graph = RenderGraph::new();
        let mut name = String::new();
        for _ in 0..2 {
            graph = graph.reset();
            generate::declare_deferred_frame(&mut graph, passes, &mut name);
        }
        let (blocks, graph) = blocks_during(|| {
            let mut graph = graph.reset();
            generate::declare_deferred_frame(&mut graph, passes, &mut name);
            graph
        });
        let (new, _) = blocks_during(|| generate::deferred_frame(passes));
        println!(
            "declaring the deferred frame of {} passes: {blocks} blocks into a reset graph, \
             {new} into a new one",
            graph.passes().len()
        );
        assert_eq!(blocks, 0, "{passes} passes declared into a reset graph");
    }
}

/// A thread that compiles frames of two sizes in turn with `RenderGraph::compile` allocates what
/// a steady-state frame does once both have been compiled a few times: the thread's workspaces
/// and the plans dropped keep the larger frame's storage. Compiled one at a time in turn, each
/// size keeps to one of the two sets of lists that take turns (the workspaces' and the last
/// plan's); compiled twice in a row, both sets serve both sizes, and the groups and physical
/// resources a smaller frame leaves over are kept for the larger one.
#[test]
fn frames_of_two_sizes_in_turn_on_one_thread_allocate_a_steady_state_frame_s_blocks() {
    let options = CompileOptions::default();
    let (small, large) = (
        load(&generate::deferred_views_json(1_000)),
        load(&generate::deferred_views_json(10_000)),
    );
    for in_a_row in [1, 2, 3] {
        let both = || {
            for graph in [&small, &large] {
                for _ in 0..in_a_row {
                    drop(graph.compile(&options).expect("generated frames compile"));
                }
            }
        };
        for _ in 0..3 {
            both();
        }
        let (blocks, ()) = blocks_during(both);
        println!(
            "a 1 000- and a 10 000-pass frame in turn on one thread, {in_a_row} of each in a \
             row: {blocks} blocks"
        );
        assert!(
            blocks <= 2 * in_a_row * STEADY_MOST,
            "{in_a_row} of each of two frames compiled in turn allocated {blocks} blocks"
        );
    }
}
