//! The hud example's pieces on a real adapter: egui drawn by egui-wgpu inside a graph pass, the
//! caller's group timer, and wgpu-profiler scopes per group (the `profiler` feature, which the
//! crate's dev-dependency on itself turns on for its tests).

use std::sync::Mutex;

use tilegraph::profiler::wgpu_profiler::{GpuProfiler, GpuProfilerSettings, GpuTimerQueryResult};
use tilegraph::wgpu;
use tilegraph::{
    CompileOptions, CompiledGraph, ExecuteMode, Executor, ExecutorOptions, GroupTimer, Imports,
    PassError, PassRecorder, PlanCache, TimedGroup,
};
use tilegraph_examples::deferred::DeferredFrame;
use tilegraph_examples::hud::overlay::{self, Overlay, PanelState};
use tilegraph_tool::headless::Gpu;

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
const SIZE: (u32, u32) = (640, 360);
const FRAMES: u32 = 2;
const MODES: [ExecuteMode; 3] = [
    ExecuteMode::Planned,
    ExecuteMode::Naive,
    ExecuteMode::Poison,
];

/// A device opened the documented way for the deferred frame with the overlay pass, with every
/// timestamp feature the adapter has (wgpu-profiler's).
fn gpu() -> Gpu {
    gpu_with(GpuProfiler::ALL_WGPU_TIMER_FEATURES)
}

/// [`gpu`] with `features` of wgpu-profiler's, where the adapter has them.
fn gpu_with(features: wgpu::Features) -> Gpu {
    let probe = crate::support::gpu();
    let mut deferred =
        DeferredFrame::new(&probe.adapter, &probe.device, FORMAT).expect("pipelines");
    let (mut graph, handles) = deferred.declare(SIZE);
    Overlay::declare(&mut graph, handles.output);
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    drop(graph);
    drop(deferred);
    drop(probe);
    crate::support::gpu_with(&plan, features)
}

/// Renders `FRAMES` frames of the deferred frame, with the overlay over it when `with_overlay`,
/// on `threads` recording threads in `mode`; returns the last output's texels.
fn render(gpu: &Gpu, mode: ExecuteMode, threads: usize, with_overlay: bool) -> Vec<u8> {
    let mut deferred = DeferredFrame::new(&gpu.adapter, &gpu.device, FORMAT).expect("pipelines");
    let mut overlay = Overlay::new(&gpu.device, FORMAT);
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
    let (texture, view) = gpu.target("output", SIZE, FORMAT, usage);
    let mut executor = gpu.executor(ExecutorOptions::default().with_recording_threads(threads));
    let mut cache = PlanCache::default();
    let mut imports = Imports::new();
    for i in 0..FRAMES {
        deferred.update(&gpu.queue, SIZE, i as f32 / 60.0);
        let (mut graph, handles) = deferred.declare(SIZE);
        let pass = with_overlay.then(|| Overlay::declare(&mut graph, handles.output));
        let plan = cache
            .get_or_compile(&graph, &CompileOptions::default())
            .expect("compiles");
        let mut upload = Vec::new();
        let mut recording = std::time::Duration::ZERO;
        if let Some(pass) = pass {
            // The panel as headless runs draw it: nothing that depends on the mode or the run.
            let prepared = overlay.prepare(&gpu.device, &gpu.queue, SIZE, f64::from(i), |ui| {
                let state = PanelState {
                    controls: None,
                    compiled: (false, true),
                    times: None,
                    overlay_cpu_ms: None,
                };
                overlay::plan_panel(ui, &plan, state);
            });
            upload = prepared.commands;
            overlay.set_callback(&mut graph, pass, &mut recording);
        }
        imports.clear();
        imports.texture(handles.output, &texture, &view);
        let commands = executor
            .execute(&mut graph, &plan, &imports, mode)
            .unwrap_or_else(|e| panic!("{mode}, {threads} threads: {e}"));
        drop(graph);
        gpu.queue.submit(upload.into_iter().chain(commands));
        if pass.is_some() {
            assert!(
                recording > std::time::Duration::ZERO,
                "the overlay's closure ran"
            );
        }
    }
    let readback = gpu.read_texture(&texture).expect("readback");
    crate::support::assert_no_gpu_errors(gpu);
    readback.bytes
}

#[test]
fn egui_in_a_graph_pass_gives_one_image_in_every_mode() {
    let gpu = gpu();
    let plain = render(&gpu, ExecuteMode::Planned, 1, false);
    let reference = render(&gpu, ExecuteMode::Planned, 1, true);
    // The overlay drew: a panel of text over part of the frame, the rest untouched.
    let changed = plain
        .chunks_exact(4)
        .zip(reference.chunks_exact(4))
        .filter(|(a, b)| a != b)
        .count();
    let pixels = (SIZE.0 * SIZE.1) as usize;
    assert!(
        changed > pixels / 10 && changed < pixels * 9 / 10,
        "the overlay changed {changed} of {pixels} pixels"
    );
    for threads in [1, 4] {
        for mode in MODES {
            let image = render(&gpu, mode, threads, true);
            let differ = image
                .chunks_exact(4)
                .zip(reference.chunks_exact(4))
                .filter(|(a, b)| a != b)
                .count();
            assert_eq!(
                differ, 0,
                "{mode} on {threads} thread(s): {differ} pixels differ from planned on one thread"
            );
        }
    }
}

/// Records every call a group timer gets, per thread.
#[derive(Default)]
struct Recorder {
    calls: Mutex<Vec<String>>,
}

impl GroupTimer for Recorder {
    type Group = String;
    type Pass = String;

    fn begin_group(&self, group: &TimedGroup<'_>, _: &mut wgpu::CommandEncoder) -> String {
        let label = format!("{}:{}", group.index, group.label);
        self.calls.lock().unwrap().push(format!("begin {label}"));
        label
    }

    fn begin_pass(&self, group: &String, pass: &str, recorder: PassRecorder<'_>) -> Option<String> {
        let kind = match recorder {
            PassRecorder::Render(_) => "render",
            PassRecorder::Compute(_) => "compute",
            PassRecorder::Encoder(_) => "encoder",
            _ => "other",
        };
        let scope = format!("{group}/{pass} in {kind}");
        self.calls.lock().unwrap().push(format!("begin {scope}"));
        Some(scope)
    }

    fn end_pass(&self, pass: String, _: PassRecorder<'_>) {
        self.calls.lock().unwrap().push(format!("end {pass}"));
    }

    fn end_group(&self, group: String, _: &mut wgpu::CommandEncoder) {
        self.calls.lock().unwrap().push(format!("end {group}"));
    }
}

/// The calls a group timer gets recording the plan's groups in `mode`: per group, begin, each
/// pass's scope in the kind of pass it records into, end.
fn expected_calls(plan: &CompiledGraph, mode: ExecuteMode) -> Vec<String> {
    let mut calls = Vec::new();
    for (i, group) in overlay::recorded_groups(plan, mode).iter().enumerate() {
        let names: Vec<&str> = group.passes.iter().map(|&p| plan.pass_name(p)).collect();
        let label = format!("{i}:{}", names.join("+"));
        let kind = group.kind.as_str();
        calls.push(format!("begin {label}"));
        for name in names {
            calls.push(format!("begin {label}/{name} in {kind}"));
            calls.push(format!("end {label}/{name} in {kind}"));
        }
        calls.push(format!("end {label}"));
    }
    calls
}

#[test]
fn a_group_timer_gets_one_scope_per_group_with_its_passes_in_every_mode() {
    let gpu = crate::support::gpu();
    let mut deferred = DeferredFrame::new(&gpu.adapter, &gpu.device, FORMAT).expect("pipelines");
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
    let (texture, view) = gpu.target("output", SIZE, FORMAT, usage);
    for threads in [1, 4] {
        let mut executor = gpu.executor(ExecutorOptions::default().with_recording_threads(threads));
        for mode in MODES {
            deferred.update(&gpu.queue, SIZE, 0.0);
            let timer = Recorder::default();
            let (mut graph, handles) = deferred.declare(SIZE);
            let plan = graph.compile(&CompileOptions::default()).expect("compiles");
            let imports = crate::support::output_imports(handles.output, &texture, &view);
            let commands = executor
                .frame(&mut graph, &plan, &imports, mode)
                .timer(&timer)
                .execute()
                .unwrap_or_else(|e| panic!("{mode}: {e}"));
            drop(graph);
            gpu.queue.submit(commands);
            let mut calls = timer.calls.into_inner().unwrap();
            // Recording threads interleave their groups' calls; each group's stay in order.
            calls.sort_by_key(|c| group_index(c));
            assert_eq!(
                calls,
                expected_calls(&plan, mode),
                "{mode} on {threads} thread(s)"
            );
        }
    }
    crate::support::assert_no_gpu_errors(&gpu);
}

/// The group index of a call `begin 3:...` / `end 3:...`.
fn group_index(call: &str) -> usize {
    let rest = call.split_once(' ').map_or(call, |(_, r)| r);
    rest.split(':')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("an index")
}

#[test]
fn a_group_timer_closes_its_scopes_when_a_pass_fails() {
    let gpu = crate::support::gpu();
    let mut executor = gpu.executor(ExecutorOptions::default());
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
    let (texture, view) = gpu.target("output", SIZE, FORMAT, usage);
    let mut graph = tilegraph::RenderGraph::new();
    let output = graph.import_texture(
        "output",
        tilegraph::TextureDesc::new(FORMAT, SIZE.0, SIZE.1),
        tilegraph::Import::OUTPUT,
    );
    graph
        .add_render_pass("fails")
        .color(output, tilegraph::Access::Clear)
        .execute(|_, _| Err(PassError::from("on purpose")));
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let imports = crate::support::output_imports(output, &texture, &view);
    let timer = Recorder::default();
    let error = executor
        .frame(&mut graph, &plan, &imports, ExecuteMode::Planned)
        .timer(&timer)
        .execute()
        .expect_err("the closure fails");
    assert!(error.to_string().contains("fails"), "{error}");
    assert_eq!(
        timer.calls.into_inner().unwrap(),
        [
            "begin 0:fails",
            "begin 0:fails/fails in render",
            "end 0:fails/fails in render",
            "end 0:fails"
        ]
    );
}

/// The profiler's results for the last of `FRAMES` frames of the deferred frame with the overlay
/// pass, recorded on `threads` threads under `profiler`, and the plan.
fn profile(
    gpu: &Gpu,
    executor: &mut Executor,
    profiler: &mut GpuProfiler,
) -> (Vec<GpuTimerQueryResult>, std::sync::Arc<CompiledGraph>) {
    let mut deferred = DeferredFrame::new(&gpu.adapter, &gpu.device, FORMAT).expect("pipelines");
    let mut overlay = Overlay::new(&gpu.device, FORMAT);
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
    let (texture, view) = gpu.target("output", SIZE, FORMAT, usage);
    let mut cache = PlanCache::default();
    let mut results = Vec::new();
    let mut plan = None;
    for i in 0..FRAMES {
        deferred.update(&gpu.queue, SIZE, i as f32 / 60.0);
        let (mut graph, handles) = deferred.declare(SIZE);
        let pass = Overlay::declare(&mut graph, handles.output);
        let compiled = cache
            .get_or_compile(&graph, &CompileOptions::default())
            .expect("compiles");
        let prepared = overlay.prepare(&gpu.device, &gpu.queue, SIZE, 0.0, |ui| {
            ui.label("profiled");
        });
        let mut recording = std::time::Duration::ZERO;
        overlay.set_callback(&mut graph, pass, &mut recording);
        let imports = crate::support::output_imports(handles.output, &texture, &view);
        let commands = executor
            .frame(&mut graph, &compiled, &imports, ExecuteMode::Planned)
            .timer(&*profiler)
            .execute()
            .expect("records");
        drop(graph);
        let mut resolve = gpu.device.create_command_encoder(&Default::default());
        profiler.resolve_queries(&mut resolve);
        gpu.queue.submit(
            prepared
                .commands
                .into_iter()
                .chain(commands)
                .chain([resolve.finish()]),
        );
        profiler
            .end_frame()
            .expect("every scope closed and resolved");
        let _ = gpu.device.poll(wgpu::PollType::wait_indefinitely());
        let period = gpu.queue.get_timestamp_period();
        results = profiler
            .process_finished_frame(period)
            .expect("a finished frame");
        plan = Some(compiled);
    }
    crate::support::assert_no_gpu_errors(gpu);
    (results, plan.expect("a frame"))
}

/// On a device with the adapter's timestamp features and on one without any: the scope tree is
/// the same; times and the trace's events are there where the device writes timestamps.
#[test]
fn the_profiler_trace_has_one_scope_per_group_named_by_its_passes_in_plan_order() {
    profiler_scopes(gpu());
    profiler_scopes(gpu_with(wgpu::Features::empty()));
}

fn profiler_scopes(gpu: Gpu) {
    let features = gpu.device.features();
    let timed = features.contains(wgpu::Features::TIMESTAMP_QUERY);
    let inside_passes = features.contains(wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES);
    eprintln!(
        "{}: group scopes timed: {timed}; pass scopes timed: {}",
        gpu.describe(),
        timed && inside_passes
    );
    for threads in [1, 4] {
        let mut executor = gpu.executor(ExecutorOptions::default().with_recording_threads(threads));
        let mut profiler =
            GpuProfiler::new(&gpu.device, GpuProfilerSettings::default()).expect("a profiler");
        let (results, plan) = profile(&gpu, &mut executor, &mut profiler);
        // Per group in plan order: its label and its passes' names.
        let expected: Vec<(String, Vec<&str>)> = plan
            .groups()
            .iter()
            .map(|g| {
                let names: Vec<&str> = g.passes.iter().map(|&p| plan.pass_name(p)).collect();
                (names.join("+"), names)
            })
            .collect();
        assert!(expected.iter().any(|(l, _)| l.contains("hud")));
        // Every device: one scope per group, the group's passes inside in order. Recording
        // threads close their groups' scopes in any order, so the tree is compared sorted.
        let mut tree: Vec<(String, Vec<&str>)> = results
            .iter()
            .map(|g| {
                let passes = g.nested_queries.iter().map(|p| p.label.as_str()).collect();
                (g.label.clone(), passes)
            })
            .collect();
        tree.sort();
        let mut sorted = expected.clone();
        sorted.sort();
        assert_eq!(tree, sorted, "{threads} thread(s)");
        for group in &results {
            assert_eq!(group.time.is_some(), timed, "group {}", group.label);
            for pass in &group.nested_queries {
                assert_eq!(
                    pass.time.is_some(),
                    timed && inside_passes,
                    "pass {} of {}",
                    pass.label,
                    group.label
                );
            }
        }
        // The Chrome trace: where the device writes timestamps, one event per group and per
        // pass, the groups in plan order (the GPU runs them so), each pass inside its group.
        let trace: serde_json::Value =
            serde_json::from_str(&tilegraph::profiler::chrome_trace(&results)).expect("JSON");
        let events = trace["traceEvents"].as_array().expect("events");
        if !timed {
            assert!(events.is_empty(), "untimed scopes are left out");
            continue;
        }
        let groups: Vec<&str> = events
            .iter()
            .map(|e| e["name"].as_str().expect("a name"))
            .filter(|n| expected.iter().any(|(l, _)| l == n))
            .collect();
        let in_order: Vec<&str> = expected.iter().map(|(l, _)| l.as_str()).collect();
        // A one-pass group and its pass share a name: the first of the two is the group.
        let mut deduped = groups.clone();
        deduped.dedup();
        assert_eq!(deduped, in_order, "{threads} thread(s): {groups:?}");
        if inside_passes {
            let passes: usize = expected.iter().map(|(_, p)| p.len()).sum();
            assert_eq!(events.len(), expected.len() + passes);
        } else {
            assert_eq!(events.len(), expected.len());
        }
    }
}
