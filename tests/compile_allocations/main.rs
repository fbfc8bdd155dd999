//! Allocations of steady-state compiles, counted by a global allocator of this test binary's
//! own (so no other test shares it).
//!
//! What is counted: every call to the allocator's `alloc`, `alloc_zeroed` and `realloc` (each
//! hands out a block, new or moved) made on the test's own thread while the counter is on;
//! frees are not counted. A steady-state frame is one `Compiler::compile` of a graph the
//! compiler has compiled before, followed by `Compiler::recycle` of the plan, as a renderer
//! that compiles every frame runs it. Its count must not depend on the number of passes and
//! stays within a handful: the compiler keeps its working lists between compiles, and the
//! plan's per-pass, per-group and per-resource lists come from the plans handed back.

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

/// (blocks of a steady-state frame, blocks of a compile with a fresh compiler).
fn frame_blocks(graph: &RenderGraph<'_>) -> (u64, u64) {
    let options = CompileOptions::default();
    let mut compiler = Compiler::new();
    for _ in 0..3 {
        let plan = compiler
            .compile(graph, &options)
            .expect("generated frames compile");
        compiler.recycle(plan);
    }
    let (steady, ()) = blocks_during(|| {
        let plan = compiler
            .compile(graph, &options)
            .expect("generated frames compile");
        compiler.recycle(plan);
    });
    let (fresh, plan) = blocks_during(|| graph.compile(&options));
    drop(plan.expect("generated frames compile"));
    (steady, fresh)
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
        let (steady_small, fresh_small) = frame_blocks(&small);
        let (steady_large, fresh_large) = frame_blocks(&large);
        println!(
            "{name}: steady state {steady_small} blocks at {} passes, {steady_large} at {}; \
             a fresh compiler {fresh_small} and {fresh_large}",
            small.passes().len(),
            large.passes().len()
        );
        assert_eq!(
            steady_small, steady_large,
            "{name}: a steady-state frame allocates more blocks at 10 000 passes than at 1 000"
        );
        // The steps' working lists come from the compiler: what is left is a list or two that
        // only a pass naming one resource twice, or a restructuring trial, fills.
        assert!(
            steady_large <= STEADY_MOST,
            "{name}: a steady-state frame allocated {steady_large} blocks"
        );
        // The counter sees per-group allocations where they happen: a fresh compiler has no
        // plan to take its lists from.
        assert!(
            fresh_large > fresh_small + 1_000,
            "{name}: a fresh compile allocated {fresh_small} blocks at 1 000 passes and {fresh_large} at 10 000"
        );
    }
}
