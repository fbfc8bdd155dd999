//! Executor behaviour on a real adapter: the pool is warm after the first frame, views stay
//! stable, stale entries are evicted, and every failure is a typed error that leaves the
//! executor usable.

use tilegraph::wgpu;
use tilegraph::{
    Access, CompileOptions, ExecuteError, ExecuteMode, Executor, ExecutorOptions, Import, Imports,
    RenderGraph, TextureDesc,
};
use tilegraph_tool::headless::Gpu;

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

struct Target {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
}

fn target(gpu: &Gpu, w: u32, h: u32) -> Target {
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
    let (texture, view) = gpu.target("target", (w, h), FORMAT, usage);
    Target { texture, view }
}

/// A frame: `scene` clears an intermediate texture, `post` (closure given) writes the output.
/// `fail` makes `scene` return an error. Returns the outcome and the view `post` saw.
fn frame(
    gpu: &Gpu,
    executor: &mut Executor,
    out: &Target,
    size: (u32, u32),
    fail: bool,
) -> (Result<(), ExecuteError>, Option<wgpu::TextureView>) {
    let mut seen = None;
    let mut graph = RenderGraph::new();
    let scene = graph.create_texture("scene", TextureDesc::new(FORMAT, size.0, size.1));
    let output = graph.import_texture(
        "output",
        TextureDesc::new(FORMAT, size.0, size.1),
        Import::OUTPUT,
    );
    graph
        .add_render_pass("scene")
        .color(scene, Access::Clear)
        .execute(move |_, _| {
            if fail {
                Err("scene failed on purpose".into())
            } else {
                Ok(())
            }
        });
    graph
        .add_render_pass("post")
        .sample(scene)
        .color(output, Access::Clear)
        .execute(|_, ctx| {
            seen = Some(ctx.view(scene)?.clone());
            Ok(())
        });
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let imports = crate::support::output_imports(output, &out.texture, &out.view);
    let result = executor
        .execute_and_submit(&mut graph, &plan, &imports, ExecuteMode::Planned)
        .map(|_| ());
    drop(graph);
    crate::support::assert_no_gpu_errors(gpu);
    (result, seen)
}

#[test]
fn warm_frames_create_no_textures_and_keep_views() {
    let gpu = crate::support::gpu();
    let out = target(&gpu, 64, 32);
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    let (first, view0) = frame(&gpu, &mut executor, &out, (64, 32), false);
    first.expect("frame 1");
    let created = executor.pool_stats().textures_created;
    assert_eq!(created, 1, "one pooled texture for `scene`");
    for _ in 0..5 {
        let (r, view) = frame(&gpu, &mut executor, &out, (64, 32), false);
        r.expect("warm frame");
        assert!(
            view == view0,
            "the view of a pooled texture is stable across frames"
        );
    }
    assert_eq!(
        executor.pool_stats().textures_created,
        created,
        "warm frames create nothing"
    );
}

#[test]
fn unused_pool_entries_are_evicted() {
    let gpu = crate::support::gpu();
    let small = target(&gpu, 32, 32);
    let large = target(&gpu, 48, 48);
    let mut executor = Executor::with_options(
        &gpu.device,
        &gpu.queue,
        ExecutorOptions::default().with_keep_frames(2),
    );
    frame(&gpu, &mut executor, &small, (32, 32), false)
        .0
        .expect("small");
    let mut held = Vec::new();
    for _ in 0..4 {
        frame(&gpu, &mut executor, &large, (48, 48), false)
            .0
            .expect("large");
        held.push(executor.pool_stats().textures);
    }
    // The 32x32 texture, last used on frame 1, goes when frame 4 begins: the first frame more
    // than two frames after its last use.
    assert_eq!(held, [2, 2, 1, 1], "textures held after frames 2 to 5");
    assert_eq!(executor.pool_stats().evicted, 1);
}

#[test]
fn closure_error_aborts_the_frame_and_the_pool_stays_usable() {
    let gpu = crate::support::gpu();
    let out = target(&gpu, 16, 16);
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    let (r, _) = frame(&gpu, &mut executor, &out, (16, 16), true);
    match r {
        Err(ExecuteError::Pass { pass, .. }) => assert_eq!(pass, "scene"),
        other => panic!("expected a pass error, got {other:?}"),
    }
    frame(&gpu, &mut executor, &out, (16, 16), false)
        .0
        .expect("next frame records");
}

#[test]
fn a_plan_of_another_graph_is_rejected() {
    let gpu = crate::support::gpu();
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    let mut a = RenderGraph::new();
    let t = a.create_texture("t", TextureDesc::new(FORMAT, 8, 8));
    a.add_render_pass("p")
        .color(t, Access::Clear)
        .side_effects()
        .finish();
    let mut b = RenderGraph::new();
    let u = b.create_texture("u", TextureDesc::new(FORMAT, 16, 16));
    b.add_render_pass("q")
        .color(u, Access::Clear)
        .side_effects()
        .finish();
    let plan_b = b.compile(&CompileOptions::default()).expect("compiles");
    let err = executor
        .execute(&mut a, &plan_b, &Imports::new(), ExecuteMode::Planned)
        .expect_err("mismatch");
    assert!(matches!(err, ExecuteError::PlanMismatch { .. }), "{err}");
}

#[test]
fn a_missing_import_is_a_typed_error() {
    let gpu = crate::support::gpu();
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    let mut graph = RenderGraph::new();
    let out = graph.import_texture("backbuffer", TextureDesc::new(FORMAT, 8, 8), Import::OUTPUT);
    graph
        .add_render_pass("p")
        .color(out, Access::Clear)
        .finish();
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let err = executor
        .execute(&mut graph, &plan, &Imports::new(), ExecuteMode::Planned)
        .expect_err("unbound import");
    assert!(
        matches!(&err, ExecuteError::MissingImport { resource } if resource == "backbuffer"),
        "{err}"
    );
}

/// A valid group, then a pass whose draw has no pipeline (invalid), into `out`: the plan and
/// the imports that record it.
fn broken_frame(graph: &mut RenderGraph<'_>, out: &Target) -> (tilegraph::CompiledGraph, Imports) {
    let output = graph.import_texture("output", TextureDesc::new(FORMAT, 8, 8), Import::OUTPUT);
    // A valid group first, so the error has to be traced to the right one.
    let scratch = graph.create_texture("scratch", TextureDesc::new(FORMAT, 8, 8));
    crate::support::clear_pass(graph, "fine", scratch);
    graph
        .add_render_pass("broken")
        .sample(scratch)
        .color(output, Access::Clear)
        .execute(|pass, _| {
            pass.draw(0..3, 0..1);
            Ok(())
        });
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let imports = crate::support::output_imports(output, &out.texture, &out.view);
    (plan, imports)
}

#[test]
fn a_wgpu_validation_error_is_reported_not_raised() {
    let gpu = crate::support::gpu();
    let out = target(&gpu, 8, 8);
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    let mut graph = RenderGraph::new();
    let (plan, imports) = broken_frame(&mut graph, &out);
    let err = executor
        .execute(&mut graph, &plan, &imports, ExecuteMode::Planned)
        .expect_err("invalid draw");
    assert!(matches!(err, ExecuteError::Validation { .. }), "{err}");
    eprintln!("{err}");
    let ExecuteError::Validation { pass, .. } = &err else {
        unreachable!()
    };
    assert_eq!(
        pass.as_deref(),
        Some("broken"),
        "the failing pass is named: {err}"
    );
    crate::support::assert_no_gpu_errors(&gpu);
}

/// With `error_scopes` off the same error reaches the device's uncaptured-error handler, as a
/// hand-written frame's would, on one recording thread and on several.
#[test]
fn without_error_scopes_a_validation_error_reaches_the_device_handler() {
    let gpu = crate::support::gpu();
    let out = target(&gpu, 8, 8);
    for threads in [1, 2] {
        let options = ExecutorOptions::default()
            .with_error_scopes(false)
            .with_recording_threads(threads);
        let mut executor = gpu.executor(options);
        let mut graph = RenderGraph::new();
        let (plan, imports) = broken_frame(&mut graph, &out);
        let commands = executor
            .execute(&mut graph, &plan, &imports, ExecuteMode::Planned)
            .expect("no scope to catch the error");
        drop(commands);
        let uncaptured = gpu.take_uncaptured_errors();
        assert_eq!(uncaptured.len(), 1, "{threads} threads: {uncaptured:#?}");
        assert!(
            uncaptured[0].contains("broken"),
            "wgpu's message names the pass's render pass: {uncaptured:#?}"
        );
    }
    crate::support::assert_no_gpu_errors(&gpu);
}

#[test]
fn timestamps_time_every_render_and_compute_group() {
    let gpu = crate::support::gpu();
    if !crate::support::can_time(&gpu) {
        // The adapter exists but cannot time; the recording path is then unchanged.
        let executor = gpu.executor(ExecutorOptions::default().with_timestamps(true));
        assert!(!executor.timestamps_enabled());
        return;
    }
    let out = target(&gpu, 16, 16);
    let mut executor = gpu.executor(ExecutorOptions::default().with_timestamps(true));
    assert!(executor.timestamps_enabled());
    let mut graph = RenderGraph::new();
    let scratch = graph.create_texture("scratch", TextureDesc::new(FORMAT, 16, 16));
    let output = graph.import_texture("output", TextureDesc::new(FORMAT, 16, 16), Import::OUTPUT);
    crate::support::clear_pass(&mut graph, "first", scratch);
    graph
        .add_render_pass("second")
        .sample(scratch)
        .color(output, Access::Clear)
        .execute(|_, _| Ok(()));
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let imports = crate::support::output_imports(output, &out.texture, &out.view);
    executor
        .execute_and_submit(&mut graph, &plan, &imports, ExecuteMode::Planned)
        .expect("records");
    let timings = executor.read_timings();
    let labels: Vec<&str> = timings.iter().map(|t| t.label.as_str()).collect();
    assert_eq!(labels, ["first", "second"]);
    for t in &timings {
        assert!(
            t.nanoseconds.is_finite() && t.nanoseconds >= 0.0,
            "{}: {} ns",
            t.label,
            t.nanoseconds
        );
    }
    crate::support::assert_no_gpu_errors(&gpu);
}
