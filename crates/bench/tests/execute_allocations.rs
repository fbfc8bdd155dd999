//! Allocations of a warm frame on the whole path a renderer runs — declare into the last
//! frame's `reset` graph, take the plan from a `PlanCache`, `Executor::execute` — against the
//! same frame recorded by hand in wgpu, counted by a global allocator of this test binary's own.
//! wgpu allocates while recording either way; what the graph adds must stay a handful of blocks
//! whatever the number of draws; a frame declared once and executed as it is adds one block (MRT-
//! and boids-shaped, with a history buffer; two more for wgpu's error scopes), and
//! the empty graph `std::mem::take` leaves behind none. Needs an adapter (`TILEGRAPH_BACKEND`); fails without one.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use tilegraph::helpers::{Backend, DeviceOptions, open_device};
use tilegraph::wgpu;
use tilegraph::{
    CompileOptions, ExecuteMode, Executor, ExecutorOptions, Import, Imports, PlanCache,
    RenderGraph, TextureDesc,
};
use tilegraph_bench::overhead::{FORMAT, SIZE, Scene};

struct Counting;

thread_local! {
    static BLOCKS: Cell<Option<u64>> = const { Cell::new(None) };
}

fn count_one() {
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
        // SAFETY: forwarded as given.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: forwarded as given.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: forwarded as given.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as given.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn blocks_during<T>(f: impl FnOnce() -> T) -> (u64, T) {
    BLOCKS.with(|b| b.set(Some(0)));
    let out = f();
    let n = BLOCKS.with(|b| b.replace(None)).expect("counting");
    (n, out)
}

/// The MRT-shaped frame by hand: `draws` draws into two targets, then a pass sampling both.
fn by_hand(scene: &Scene, draws: u32) -> wgpu::CommandBuffer {
    let mut encoder = scene
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("frame"),
        });
    let views = [&scene.mrt_views[0], &scene.mrt_views[1]];
    scene.draw_mrt(&mut scene.begin(&mut encoder, &views, "gbuffer"), draws);
    let mut pass = scene.begin(&mut encoder, &[&scene.output_view], "composite");
    scene.composite(&mut pass, &scene.hand_composite_group);
    drop(pass);
    encoder.finish()
}

/// What the frame declared every frame keeps from frame to frame, as a renderer would.
struct Kept {
    cache: PlanCache,
    executor: Executor,
    imports: Imports,
}

/// The same frame through the graph, declared into `graph`'s reset, its import bound again
/// into the last frame's `Imports`.
fn through_graph<'s>(
    scene: &'s Scene,
    draws: u32,
    graph: RenderGraph<'s>,
    kept: &mut Kept,
) -> (RenderGraph<'s>, Vec<wgpu::CommandBuffer>) {
    let mut graph = graph.reset();
    let desc = TextureDesc::new(FORMAT, SIZE, SIZE);
    let output = graph.import_texture("output", desc, Import::OUTPUT);
    scene.declare_mrt(&mut graph, draws, output);
    kept.imports
        .texture(output, &scene.output, &scene.output_view);
    let plan = kept
        .cache
        .get_or_compile(&graph, &CompileOptions::default())
        .expect("compiles");
    let commands = kept
        .executor
        .execute(&mut graph, &plan, &kept.imports, ExecuteMode::Planned)
        .expect("records");
    (graph, commands.into_iter().collect())
}

/// The overhead bench's scene on the adapter `TILEGRAPH_BACKEND` names; fails without one.
fn scene() -> Scene {
    let backend = Backend::from_env().unwrap_or_else(|e| panic!("{e}"));
    let opened = open_device(&DeviceOptions::new(backend).with_adapter_limits())
        .unwrap_or_else(|e| panic!("this test needs an adapter ({backend:?}): {e}"));
    Scene::new(&opened.device, &opened.queue, 1)
}

#[test]
fn a_warm_frame_through_the_graph_allocates_a_handful_more_than_by_hand() {
    let scene = scene();
    let mut kept = Kept {
        cache: PlanCache::default(),
        executor: Executor::new(&scene.device, &scene.queue),
        imports: Imports::new(),
    };
    let mut graph = RenderGraph::new();
    let mut report = Vec::new();
    for draws in [2, 200] {
        let through = || {
            let last = std::mem::take(&mut graph);
            let (next, commands) = through_graph(&scene, draws, last, &mut kept);
            graph = next;
            commands
        };
        let (hand, through) = fewest_blocks(&scene, |_| by_hand(&scene, draws), through);
        report.push((draws, hand, through));
    }
    eprintln!("(draws, blocks by hand, blocks through the graph): {report:?}");
    for &(draws, hand, through) in &report {
        assert!(
            through <= hand + ADDED_MOST,
            "{draws} draws: {through} blocks through the graph, {hand} by hand: {report:?}"
        );
    }
}

/// The most blocks the graph's path may add to a frame: the two pass closures' boxes and one of
/// the executor's (the `Imports` are bound again into last frame's, which allocates nothing).
const ADDED_MOST: u64 = 3;

/// Frames recorded both ways before counting: caches, pools and trackers grow in these.
const WARM: u64 = 4;

/// Frames counted after the warm ones; each way's fewest blocks is its count. wgpu still grows
/// a container now and then in a warm frame (one to three blocks in about one frame of twenty,
/// either way, on lavapipe), which is amortised growth, not what a frame costs.
const MEASURED: u64 = 8;

/// The boids-shaped frame by hand: the particle buffers picked by frame parity, simulated, then
/// drawn `draws` times.
fn boids_by_hand(scene: &Scene, draws: u32, frame: u64) -> wgpu::CommandBuffer {
    let mut encoder = scene
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("frame"),
        });
    let (group, to) = scene.particles_by_parity(frame);
    scene.simulate(
        &mut encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("simulate"),
            timestamp_writes: None,
        }),
        group,
    );
    let mut pass = scene.begin(&mut encoder, &[&scene.output_view], "draw");
    scene.draw_particles(&mut pass, to, draws);
    drop(pass);
    encoder.finish()
}

/// Blocks of one warm frame of `shape` (`"mrt"` or `"boids"`, 200 draws) declared once, by hand
/// and through the graph executed with `options`.
fn declared_once(scene: &Scene, shape: &str, options: ExecutorOptions) -> (u64, u64) {
    let mut executor = Executor::with_options(&scene.device, &scene.queue, options);
    let mut graph = RenderGraph::new();
    let desc = TextureDesc::new(FORMAT, SIZE, SIZE);
    let output = graph.import_texture("output", desc, Import::OUTPUT);
    match shape {
        "mrt" => scene.declare_mrt(&mut graph, 200, output),
        _ => scene.declare_boids(&mut graph, 200, output),
    }
    let mut imports = Imports::new();
    imports.texture(output, &scene.output, &scene.output_view);
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let frame = || {
        let commands = executor
            .execute(&mut graph, &plan, &imports, ExecuteMode::Planned)
            .expect("records");
        commands.into_iter().collect::<Vec<_>>()
    };
    let by_hand = |frame: u64| match shape {
        "mrt" => by_hand(scene, 200),
        _ => boids_by_hand(scene, 200, frame),
    };
    fewest_blocks(scene, by_hand, frame)
}

/// The fewest blocks a frame takes by hand and through the graph over `MEASURED` frames after
/// `WARM`, the two alternated and every frame submitted; `by_hand` gets the frame's index.
fn fewest_blocks(
    scene: &Scene,
    mut by_hand: impl FnMut(u64) -> wgpu::CommandBuffer,
    mut through: impl FnMut() -> Vec<wgpu::CommandBuffer>,
) -> (u64, u64) {
    let (mut hand, mut graph) = (u64::MAX, u64::MAX);
    for frame in 0..WARM + MEASURED {
        let (h, commands) = blocks_during(|| by_hand(frame));
        scene.queue.submit([commands]);
        let (t, commands) = blocks_during(&mut through);
        scene.queue.submit(commands);
        scene.bind_groups.next_frame();
        if frame >= WARM {
            (hand, graph) = (hand.min(h), graph.min(t));
        }
    }
    (hand, graph)
}

/// Declared once, the executor adds one block to a frame (its list of command buffers), and
/// its error scopes two (wgpu boxes what each pop returns).
#[test]
fn a_frame_declared_once_allocates_no_more_than_by_hand_but_one_block() {
    let scene = scene();
    for shape in ["mrt", "boids"] {
        let unscoped = ExecutorOptions::default().with_error_scopes(false);
        let (hand, through) = declared_once(&scene, shape, unscoped);
        let (_, scoped) = declared_once(&scene, shape, ExecutorOptions::default());
        eprintln!(
            "{shape}: blocks by hand {hand}, through the graph declared once {through}, \
             with error scopes {scoped}"
        );
        assert!(
            through <= hand + 1,
            "{shape}: {through} blocks through the graph, {hand} by hand"
        );
        assert!(
            scoped <= through + 2,
            "{shape}: {scoped} blocks with error scopes, {through} without"
        );
    }
}

#[test]
fn a_placeholder_graph_allocates_nothing() {
    // What `std::mem::take` leaves behind when a renderer moves its graph out to `reset` it.
    drop(RenderGraph::new());
    let mut graph = RenderGraph::new();
    graph.import_texture(
        "output",
        TextureDesc::new(FORMAT, SIZE, SIZE),
        Import::OUTPUT,
    );
    let (blocks, taken) = blocks_during(|| std::mem::take(&mut graph));
    assert_eq!(blocks, 0, "a new, empty graph allocated");
    drop(taken);
}
