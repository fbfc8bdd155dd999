//! Devices opened the documented way (`DeviceOptions::for_plan`) record their plans: colour bytes
//! per sample beyond WebGPU's default, multiview as multiview where the adapter has it, and a
//! plan an adapter cannot record (a depth sampled while attached read-only, on GL) is a typed
//! error at open and at execute, never a wgpu validation failure.

use std::sync::Mutex;

use tilegraph::helpers::{Backend, DeviceError, DeviceOptions, open_device};
use tilegraph::wgpu;
use tilegraph::{
    Access, CompileOptions, CompiledGraph, ExecuteError, ExecuteMode, Executor, ExecutorOptions,
    Imports, RenderGraph, TextureDesc, Views,
};

use crate::support::{assert_no_gpu_errors, gpu, gpu_for};

fn backend() -> Backend {
    Backend::from_env().unwrap_or_else(|e| panic!("{e}"))
}

/// A G-buffer pass clearing five rgba16float targets: 40 colour bytes a sample.
fn gbuffer_graph() -> RenderGraph<'static> {
    let mut graph = RenderGraph::new();
    let desc = TextureDesc::new(wgpu::TextureFormat::Rgba16Float, 64, 64);
    let targets: Vec<_> = (0..5)
        .map(|i| graph.create_texture(&format!("gbuffer{i}"), desc))
        .collect();
    let mut pass = graph.add_render_pass("gbuffer");
    for &t in &targets {
        pass = pass.color(t, Access::Clear);
    }
    pass.side_effects().execute(|_, _| Ok(()));
    graph
}

#[test]
fn a_five_target_gbuffer_records_on_a_device_opened_for_its_plan() {
    let mut graph = gbuffer_graph();
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    assert_eq!(plan.groups()[0].color_bytes_per_sample, 40);
    let gpu = gpu_for(&plan);
    assert!(gpu.device.limits().max_color_attachment_bytes_per_sample >= 40);
    assert!(gpu.device.limits().max_color_attachments >= 5);
    let mut executor = gpu.executor(ExecutorOptions::default());
    executor
        .execute_and_submit(&mut graph, &plan, &Imports::new(), ExecuteMode::Planned)
        .unwrap_or_else(|e| panic!("{}: {e}", gpu.describe()));
    assert_no_gpu_errors(&gpu);
}

#[test]
fn a_device_without_the_plans_limits_is_a_typed_error_before_recording() {
    let mut graph = gbuffer_graph();
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    // The WebGL2 baseline: 4 colour attachments, 32 B a sample.
    let opened = open_device(&DeviceOptions::new(backend()))
        .unwrap_or_else(|e| panic!("GPU test needs an adapter: {e}"));
    let mut executor = opened.executor(ExecutorOptions::default());
    match executor.execute(&mut graph, &plan, &Imports::new(), ExecuteMode::Planned) {
        Err(e @ ExecuteError::PassExceedsDeviceLimit { .. }) => {
            let ExecuteError::PassExceedsDeviceLimit {
                pass,
                limit,
                needed,
                ..
            } = &e
            else {
                unreachable!()
            };
            assert_eq!(
                (pass.as_str(), *limit, *needed),
                ("gbuffer", "max_color_attachments", 5)
            );
            assert!(e.to_string().contains("DeviceOptions::for_plan"), "{e}");
        }
        other => panic!(
            "expected a typed limit error, got {:?}",
            other.map(|c| c.len())
        ),
    }
}

#[test]
fn a_multiview_pass_records_as_multiview_on_a_device_opened_for_its_plan() {
    let seen = Mutex::new(Vec::new());
    let mut graph = RenderGraph::new();
    let eyes = graph.create_texture(
        "eyes",
        TextureDesc::new(wgpu::TextureFormat::Rgba8Unorm, 64, 32).layers(2),
    );
    graph
        .add_render_pass("stereo")
        .multiview(2)
        .color(eyes, Access::Clear)
        .side_effects()
        .execute(|_, ctx| {
            seen.lock().unwrap().push(ctx.views());
            Ok(())
        });
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    assert_eq!(plan.required_limits().max_multiview_view_count, 2);
    let gpu = gpu_for(&plan);
    let has_multiview = gpu.adapter.features().contains(wgpu::Features::MULTIVIEW)
        && gpu.adapter.limits().max_multiview_view_count >= 2;
    let mut executor = gpu.executor(ExecutorOptions::default());
    assert_eq!(
        executor.multiview_enabled(),
        has_multiview,
        "{}",
        gpu.describe()
    );
    executor
        .execute_and_submit(&mut graph, &plan, &Imports::new(), ExecuteMode::Planned)
        .unwrap_or_else(|e| panic!("{}: {e}", gpu.describe()));
    assert_no_gpu_errors(&gpu);
    drop(graph);
    let seen = seen.into_inner().unwrap();
    if has_multiview {
        assert_eq!(seen, [Views::Multiview { count: 2 }], "{}", gpu.describe());
    } else {
        assert_eq!(seen.len(), 2, "one render pass per view: {seen:?}");
    }
    // lavapipe has multiview: the documented device path must use it there.
    if gpu.adapter.get_info().backend == wgpu::Backend::Vulkan {
        assert!(has_multiview, "{} has no multiview", gpu.describe());
    }
}

/// A prepass writes depth; `fog` attaches it read-only and samples it.
fn sampled_read_only_depth() -> (RenderGraph<'static>, CompiledGraph) {
    let mut graph = RenderGraph::new();
    let depth = graph.create_texture(
        "depth",
        TextureDesc::new(wgpu::TextureFormat::Depth32Float, 64, 64),
    );
    let out = graph.create_texture(
        "out",
        TextureDesc::new(wgpu::TextureFormat::Rgba8Unorm, 64, 64),
    );
    graph
        .add_render_pass("prepass")
        .depth(depth, Access::Clear)
        .execute(|_, _| Ok(()));
    graph
        .add_render_pass("fog")
        .color(out, Access::Clear)
        .depth(depth, Access::Read)
        .sample(depth)
        .side_effects()
        .execute(|_, _| Ok(()));
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    (graph, plan)
}

#[test]
fn sampling_a_read_only_depth_is_a_typed_error_where_the_adapter_cannot() {
    let (mut graph, plan) = sampled_read_only_depth();
    let needs = wgpu::DownlevelFlags::READ_ONLY_DEPTH_STENCIL;
    assert_eq!(plan.required_downlevel_flags(), needs);
    // A device with every adapter limit, not opened for this plan.
    let gpu = gpu();
    let can = gpu
        .adapter
        .get_downlevel_capabilities()
        .flags
        .contains(needs);
    let opened = open_device(&DeviceOptions::new(backend()).for_plan(&plan));
    let with_flags = gpu.executor(ExecutorOptions::default()).execute(
        &mut graph,
        &plan,
        &Imports::new(),
        ExecuteMode::Planned,
    );
    // An executor not told the adapter's flags assumes what the backend never has.
    let assumed = Executor::new(&gpu.device, &gpu.queue).execute(
        &mut graph,
        &plan,
        &Imports::new(),
        ExecuteMode::Planned,
    );
    if can {
        opened.unwrap_or_else(|e| panic!("{}: {e}", gpu.describe()));
        for result in [with_flags, assumed] {
            gpu.queue
                .submit(result.unwrap_or_else(|e| panic!("{}: {e}", gpu.describe())));
        }
    } else {
        match opened {
            Err(DeviceError::MissingDownlevelFlags { missing, .. }) => assert_eq!(missing, needs),
            other => panic!(
                "expected missing downlevel flags, got {:?}",
                other.map(|_| ())
            ),
        }
        for result in [with_flags, assumed] {
            match result {
                Err(ExecuteError::MissingDownlevelFlags { pass, missing }) => {
                    assert_eq!((pass.as_str(), missing), ("fog", needs));
                }
                other => panic!("expected a typed error, got {:?}", other.map(|c| c.len())),
            }
        }
    }
    assert_no_gpu_errors(&gpu);
    // wgpu's GL backend never has it: the typed error is what llvmpipe must give.
    if gpu.adapter.get_info().backend == wgpu::Backend::Gl {
        assert!(!can);
    }
}
