//! The stereo example's frame on a real adapter: the same image to the bit in planned, naive and
//! poison modes, with and without multiview (lavapipe records its eye passes as multiview render
//! passes, llvmpipe's GL once per eye), matching `tests/reference/stereo-257x131.png`.

use tilegraph::plan::StoreOp;
use tilegraph::wgpu;
use tilegraph::{CompileOptions, ExecuteMode, ExecutorOptions, Imports, PlanCache};
use tilegraph_examples::stereo::{StereoFrame, eye_size};
use tilegraph_tool::headless::{self, Gpu};

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
/// 257 × 4 bytes per row is not a multiple of 256: readback must strip the row padding.
const SIZE: (u32, u32) = (257, 131);

/// Two frames at `SIZE`; the last one read back.
fn render(gpu: &Gpu, mode: ExecuteMode, multiview: bool) -> (Vec<u8>, bool) {
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
    let (texture, view) = gpu.target("output", SIZE, FORMAT, usage);
    let mut executor = gpu.executor(ExecutorOptions::default().with_multiview(multiview));
    let mut frame = StereoFrame::new(&gpu.device, FORMAT);
    let mut cache = PlanCache::default();
    let options = CompileOptions::default().with_dont_care(unsafe {
        // SAFETY: the post and companion passes write every pixel; poison mode checks it.
        wgpu::LoadOpDontCare::enabled()
    });
    let mut imports = Imports::new();
    for i in 0..2 {
        frame.update(&gpu.queue, SIZE, i as f32 / 60.0);
        let (mut graph, handles) = frame.declare(SIZE);
        let plan = cache.get_or_compile(&graph, &options).expect("compiles");
        imports.clear();
        imports.texture(handles.output, &texture, &view);
        executor
            .execute_and_submit(&mut graph, &plan, &imports, mode)
            .unwrap_or_else(|e| panic!("{mode}: {}", headless::describe_failure(&e)));
        drop(graph);
        frame.end_frame();
    }
    let readback = headless::read_texture(&gpu.device, &gpu.queue, &texture).expect("readback");
    crate::support::assert_no_gpu_errors(gpu);
    (
        readback.to_rgba8().expect("rgba8 output"),
        executor.multiview_enabled(),
    )
}

#[test]
fn stereo_agrees_across_modes_with_and_without_multiview_and_matches_reference() {
    let gpu = crate::support::gpu();
    let (planned, recorded_multiview) = render(&gpu, ExecuteMode::Planned, true);
    // Lavapipe records the eyes in one multiview render pass; GL cannot.
    let vulkan = gpu.adapter.get_info().backend == wgpu::Backend::Vulkan;
    assert_eq!(
        recorded_multiview, vulkan,
        "multiview where the device has it"
    );
    for multiview in [true, false] {
        for mode in crate::support::MODES {
            let (image, _) = render(&gpu, mode, multiview);
            assert!(
                image == planned,
                "stereo: {mode} with multiview {multiview} differs from planned with multiview"
            );
        }
    }
    let distinct: std::collections::HashSet<&[u8]> = planned.chunks_exact(4).collect();
    assert!(distinct.len() > 200, "only {} colours", distinct.len());
    // The eyes see the scene from two places: the halves differ.
    let half = eye_size(SIZE).0 as usize;
    let row = |y: usize| &planned[y * SIZE.0 as usize * 4..(y + 1) * SIZE.0 as usize * 4];
    let differing = (0..SIZE.1 as usize)
        .filter(|&y| row(y)[..(half - 1) * 4] != row(y)[half * 4..(2 * half - 1) * 4])
        .count();
    assert!(differing > SIZE.1 as usize / 2, "the eyes look alike");
    crate::support::compare_with_reference("stereo", SIZE, &planned);
}

#[test]
fn stereo_plan_renders_both_eyes_in_multiview_groups() {
    let gpu = crate::support::gpu();
    let mut frame = StereoFrame::new(&gpu.device, FORMAT);
    let (graph, handles) = frame.declare((1920, 1080));
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let groups = plan.groups();
    assert_eq!(groups.len(), 3);
    assert_eq!(
        groups.iter().map(|g| g.multiview).collect::<Vec<_>>(),
        [Some(2), Some(2), None]
    );
    let forward = &groups[0];
    // Both layers of the MSAA colour and depth are cleared, drawn, resolved and discarded.
    assert_eq!(forward.color.len(), 2);
    for (layer, c) in forward.color.iter().enumerate() {
        assert_eq!(c.sub.layer, layer as u32);
        assert_eq!(c.store, StoreOp::Discard);
        assert_eq!(c.resolve, Some(handles.hdr.index()));
    }
    assert_eq!(forward.depth_views.len(), 1);
    for d in forward.depth.iter().chain(&forward.depth_views) {
        assert_eq!(d.store, StoreOp::Discard);
    }
    // Two layers each: none is transient, every one is pooled.
    for t in [handles.msaa, handles.depth, handles.hdr, handles.eyes] {
        assert!(!plan.resources()[t.index().index()].transient);
    }
    assert!(plan.traffic().bytes_per_frame < plan.traffic().naive_bytes_per_frame);
}
