//! The deferred example's frame on a real adapter: the plan merges lighting with the glass, the
//! three executor modes render it bit-identically, the hand-written recording used as the
//! benchmark baseline renders the same image, and the image matches its reference.

use tilegraph::plan::StoreOp;
use tilegraph::wgpu;
use tilegraph::{CompileOptions, ExecuteMode, ExecutorOptions, Imports, PlanCache};
use tilegraph_examples::deferred::DeferredFrame;
use tilegraph_tool::headless::{self, Gpu};

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
const FRAMES: u32 = 2;
/// 257 × 4 bytes per row is not a multiple of 256: readback must strip the row padding.
const SIZES: [(u32, u32); 2] = [(192, 108), (257, 131)];

fn output(gpu: &Gpu, size: (u32, u32)) -> (wgpu::Texture, wgpu::TextureView) {
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
    gpu.target("output", size, FORMAT, usage)
}

fn time(frame: u32) -> f32 {
    frame as f32 / 60.0
}

/// Renders `FRAMES` frames through the graph in `mode`; returns the last output's texels.
fn render(gpu: &Gpu, mode: ExecuteMode, size: (u32, u32)) -> headless::Readback {
    let mut deferred = DeferredFrame::new(&gpu.adapter, &gpu.device, FORMAT).expect("pipelines");
    let (texture, view) = output(gpu, size);
    let mut executor = gpu.executor(ExecutorOptions::default());
    let mut cache = PlanCache::default();
    let mut imports = Imports::new();
    for i in 0..FRAMES {
        deferred.update(&gpu.queue, size, time(i));
        let (mut graph, handles) = deferred.declare(size);
        let plan = cache
            .get_or_compile(&graph, &CompileOptions::default())
            .expect("the deferred frame compiles");
        imports.clear();
        imports.texture(handles.output, &texture, &view);
        executor
            .execute_and_submit(&mut graph, &plan, &imports, mode)
            .unwrap_or_else(|e| panic!("{mode}: {}", headless::describe_failure(&e)));
    }
    assert_eq!(cache.misses(), 1, "the plan is compiled once and reused");
    let readback = headless::read_texture(&gpu.device, &gpu.queue, &texture).expect("readback");
    crate::support::assert_no_gpu_errors(gpu);
    readback
}

/// The same frames recorded by hand (the recording benchmark's baseline).
fn render_by_hand(gpu: &Gpu, size: (u32, u32)) -> headless::Readback {
    let mut deferred = DeferredFrame::new(&gpu.adapter, &gpu.device, FORMAT).expect("pipelines");
    let (texture, view) = output(gpu, size);
    let targets = deferred.hand_targets(size);
    for i in 0..FRAMES {
        deferred.update(&gpu.queue, size, time(i));
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        deferred.record_by_hand(&mut encoder, &targets, &view);
        gpu.queue.submit([encoder.finish()]);
    }
    let readback = headless::read_texture(&gpu.device, &gpu.queue, &texture).expect("readback");
    crate::support::assert_no_gpu_errors(gpu);
    readback
}

#[test]
fn plan_merges_lighting_with_glass_and_keeps_depth_read_only() {
    let gpu = crate::support::gpu();
    let mut deferred = DeferredFrame::new(&gpu.adapter, &gpu.device, FORMAT).expect("pipelines");
    let merges = deferred.merges_lighting_with_glass();
    let (graph, _) = deferred.declare((1280, 720));
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let groups: Vec<Vec<&str>> = plan
        .groups()
        .iter()
        .map(|g| g.passes.iter().map(|&p| plan.pass_name(p)).collect())
        .collect();
    if !merges {
        // GL: an attached depth texture cannot be sampled, so lighting attaches none and the
        // attachment sets differ.
        println!("adapter lacks READ_ONLY_DEPTH_STENCIL: lighting and glass stay apart");
        assert_eq!(
            plan.groups()[3].break_reason,
            tilegraph::plan::GroupBreak::AttachmentsDiffer
        );
        assert_eq!(
            groups[3..],
            [vec!["lighting"], vec!["transparent"], vec!["tonemap"]]
        );
        return;
    }
    assert_eq!(
        groups,
        [
            vec!["gbuffer"],
            vec!["animate_lights"],
            vec!["light_cull"],
            vec!["lighting", "transparent"],
            vec!["tonemap"],
        ]
    );
    let lit = &plan.groups()[3];
    let depth = lit.depth.as_ref().expect("lighting attaches depth");
    assert!(depth.read_only, "depth is read-only while lighting");
    assert_eq!(depth.store, StoreOp::None);
    assert_eq!(lit.color[0].store, StoreOp::Store, "tonemap samples hdr");
    assert!(plan.traffic().bytes_per_frame < plan.traffic().naive_bytes_per_frame);
}

#[test]
fn deferred_frame_agrees_across_modes_and_matches_reference() {
    let gpu = crate::support::gpu();
    for size in SIZES {
        let planned = render(&gpu, ExecuteMode::Planned, size);
        for mode in [ExecuteMode::Naive, ExecuteMode::Poison] {
            let other = render(&gpu, mode, size);
            assert!(
                other.bytes == planned.bytes,
                "{}x{}: {mode} differs from planned",
                size.0,
                size.1
            );
        }
        let by_hand = render_by_hand(&gpu, size);
        assert!(
            by_hand.bytes == planned.bytes,
            "{}x{}: the hand-written frame differs from the graph's",
            size.0,
            size.1
        );
        let rgba = planned.to_rgba8().expect("rgba8 output");
        // Not a blank image: the scene is lit and the sky is dark.
        let distinct: std::collections::HashSet<&[u8]> = rgba.chunks_exact(4).collect();
        assert!(
            distinct.len() > 500,
            "only {} distinct colours",
            distinct.len()
        );
        crate::support::compare_with_reference("deferred", size, &rgba);
    }
}
