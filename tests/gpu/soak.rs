//! The soak test's short form: a few thousand frames of random graphs that change every few
//! frames, resizes, history textures and plan-cache churn on one executor, with resident memory,
//! pooled textures, lowered plans, cached plans and bind groups and live wgpu objects held to
//! their bounds after warm-up. The full run is the `soak` example (`--frames 100000`).

use tilegraph_oracle::random_graph;
use tilegraph_tool::soak::{Soak, SoakOptions};

use crate::support::{assert_no_gpu_errors, gpu};

/// Set in the process the soak test runs in (see [`in_a_process_of_its_own`]).
const ALONE: &str = "TILEGRAPH_SOAK_ALONE";

/// Resident memory is the process's: the soak test runs in a process of its own (this test binary
/// again, with only this test), so that the other GPU tests running beside it in the harness's
/// threads do not count against its bound. Returns whether the caller is that process.
fn in_a_process_of_its_own(test: &str) -> bool {
    if std::env::var_os(ALONE).is_some() {
        return true;
    }
    let module = module_path!().split_once("::").map_or("", |(_, m)| m);
    let name = format!("{module}::{test}");
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = std::process::Command::new(exe)
        .args([name.as_str(), "--exact", "--nocapture", "--test-threads=1"])
        .env(ALONE, "1")
        .output()
        .expect("run the soak test in a process of its own");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success(),
        "the soak test failed in its own process"
    );
    assert!(
        stdout.contains("1 passed"),
        "the soak test's own process ran no test named {name}"
    );
    false
}

#[test]
fn memory_and_caches_stay_bounded_over_thousands_of_changing_frames() {
    if !in_a_process_of_its_own("memory_and_caches_stay_bounded_over_thousands_of_changing_frames")
    {
        return;
    }
    let gpu = gpu();
    let options = SoakOptions {
        frames: 3000,
        report_every: 500,
        resize_every: 150,
        switch_every: 3,
        graphs: 8,
        ..SoakOptions::default()
    };
    let mut soak = Soak::new(
        &gpu,
        &random_graph::seeded_descriptions(options.seed, 200),
        options.clone(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let checkpoints = soak
        .run(&gpu, |c| println!("{c}"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_no_gpu_errors(&gpu);

    // The schedule did what it is for: plans dropped and compiled again, resizes, histories
    // made and released, bind groups made for new views.
    let last = checkpoints.last().expect("checkpoints");
    assert_eq!(last.frame, options.frames);
    assert_eq!(checkpoints.len(), 6);
    let graphs = soak.graphs() as u64;
    assert!(graphs > options.plan_cache_capacity as u64);
    assert!(
        last.plans_compiled > 10 * graphs,
        "the plan cache should churn: {} compiles",
        last.plans_compiled
    );
    assert!(
        last.resizes >= 4 * options.sizes.len() as u64,
        "{}",
        last.resizes
    );
    assert!(last.executor.pool.evicted > 0, "nothing was evicted");
    assert!(checkpoints.iter().all(|c| c.peaks.history_textures >= 2));
    assert!(last.bind_groups_made > graphs);
}

/// One frame: `scene` (two mips, the second sampled) into a history and the output.
fn stats_frame(executor: &mut tilegraph::Executor, size: u32) {
    use tilegraph::wgpu::TextureFormat;
    use tilegraph::{Access, RenderGraph, TextureDesc};
    let mut graph = RenderGraph::new();
    let scene = graph.create_texture(
        "scene",
        TextureDesc::new(TextureFormat::Rgba8Unorm, size, size).mips(2),
    );
    let history =
        graph.history_texture("taa", TextureDesc::new(TextureFormat::Rgba16Float, 32, 32));
    crate::support::clear_pass(&mut graph, "scene", scene.mip(0));
    graph
        .add_render_pass("down")
        .sample(scene.mip(0))
        .color(scene.mip(1), Access::Clear)
        .execute(|_, _| Ok(()));
    graph
        .add_render_pass("resolve")
        .sample(scene.mip(1))
        .sample(history.previous)
        .color(history.current, Access::Clear)
        .execute(|_, _| Ok(()));
    run_frame(executor, &mut graph);
}

#[test]
fn executor_stats_count_what_the_executor_holds_and_fall_after_eviction() {
    let gpu = gpu();
    let mut executor = tilegraph::Executor::with_options(
        &gpu.device,
        &gpu.queue,
        tilegraph::ExecutorOptions::default().with_keep_frames(1),
    );
    stats_frame(&mut executor, 64);
    let s = executor.stats();
    assert_eq!((s.pool.textures, s.pool.buffers), (1, 0));
    assert_eq!(s.prepared_plans, 1);
    assert_eq!(s.history_textures, 2);
    // `scene`: the whole view and one per mip; each history texture: its whole view.
    assert_eq!(s.texture_views, 3 + 2);
    assert_eq!(
        s.texture_bytes,
        (64 * 64 + 32 * 32) * 4 + 2 * 32 * 32 * 8,
        "scene's two mips and two history textures"
    );
    assert_eq!(s.buffer_bytes, 0);
    assert_eq!(s.timestamp_queries, 0, "timestamps are off");

    // A resize: a new pooled texture; the old one goes once it is unused for a frame.
    stats_frame(&mut executor, 32);
    assert_eq!(executor.stats().pool.textures, 2);
    stats_frame(&mut executor, 32);
    stats_frame(&mut executor, 32);
    let s = executor.stats();
    assert_eq!((s.pool.textures, s.pool.evicted), (1, 1));
    assert_eq!(s.texture_bytes, (32 * 32 + 16 * 16) * 4 + 2 * 32 * 32 * 8);
    assert_eq!(s.prepared_plans, 2, "one plan per size");
    assert_no_gpu_errors(&gpu);
}

/// Compiles `graph` and executes its frame, with nothing imported.
fn run_frame(executor: &mut tilegraph::Executor, graph: &mut tilegraph::RenderGraph<'_>) {
    let options = tilegraph::CompileOptions::default();
    let plan = graph.compile(&options).expect("compiles");
    let imports = tilegraph::Imports::new();
    executor
        .execute_and_submit(graph, &plan, &imports, tilegraph::ExecuteMode::Planned)
        .expect("frame");
}

/// A frame whose one pass carries the history `name` (8×8) from frame to frame.
fn history_only_frame(executor: &mut tilegraph::Executor, name: &str) {
    use tilegraph::wgpu::TextureFormat;
    use tilegraph::{Access, RenderGraph, TextureDesc};
    let mut graph = RenderGraph::new();
    let history = graph.history_texture(name, TextureDesc::new(TextureFormat::Rgba8Unorm, 8, 8));
    graph
        .add_render_pass("accumulate")
        .sample(history.previous)
        .color(history.current, Access::Clear)
        .execute(|_, _| Ok(()));
    run_frame(executor, &mut graph);
}

/// A history no frame declares any more goes `keep_frames` frames after its last frame, not
/// before, while the history the frames declare stays; declared again, it is made anew.
#[test]
fn a_history_no_frame_declares_goes_after_keep_frames() {
    let gpu = gpu();
    let mut executor = tilegraph::Executor::with_options(
        &gpu.device,
        &gpu.queue,
        tilegraph::ExecutorOptions::default().with_keep_frames(2),
    );
    stats_frame(&mut executor, 32);
    assert_eq!(executor.stats().history_textures, 2, "`taa`");
    for frame in 1..=3 {
        history_only_frame(&mut executor, "other");
        let held = if frame <= 2 { 4 } else { 2 };
        assert_eq!(
            executor.stats().history_textures,
            held,
            "frame {frame} without `taa`"
        );
    }
    stats_frame(&mut executor, 32);
    assert_eq!(executor.stats().history_textures, 4, "`taa` again");
    assert_no_gpu_errors(&gpu);
}
