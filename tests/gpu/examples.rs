//! The gallery's examples (post, forward, cubemap) on a real adapter: each renders bit-identically
//! in the planned, naive and poison modes at an odd size and matches its reference image; `post`
//! resizes in the middle of the run, and warm frames build no bind groups.

use tilegraph::plan::StoreOp;
use tilegraph::wgpu;
use tilegraph::{
    CompileOptions, ExecuteMode, ExecutorOptions, Imports, PlanCache, RenderGraph, TextureHandle,
};
use tilegraph_examples::cubemap::CubemapFrame;
use tilegraph_examples::forward::{self, ForwardFrame};
use tilegraph_examples::post::PostFrame;
use tilegraph_tool::headless::{self, Gpu};

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
/// 257 × 4 bytes per row is not a multiple of 256: readback must strip the row padding.
const SIZE: (u32, u32) = (257, 131);
const MODES: [ExecuteMode; 3] = [
    ExecuteMode::Planned,
    ExecuteMode::Naive,
    ExecuteMode::Poison,
];

/// What the test drives of an example's frame.
trait Frame {
    fn update(&mut self, queue: &wgpu::Queue, size: (u32, u32), frame: u32);
    fn declare(&mut self, size: (u32, u32)) -> (RenderGraph<'_>, TextureHandle);
    fn end_frame(&mut self);
    fn bind_group_misses(&self) -> u64;
}

impl Frame for PostFrame {
    fn update(&mut self, queue: &wgpu::Queue, size: (u32, u32), frame: u32) {
        PostFrame::update(self, queue, size, frame, frame as f32 / 60.0);
    }
    fn declare(&mut self, size: (u32, u32)) -> (RenderGraph<'_>, TextureHandle) {
        let (graph, handles) = PostFrame::declare(self, size);
        (graph, handles.output)
    }
    fn end_frame(&mut self) {
        PostFrame::end_frame(self);
    }
    fn bind_group_misses(&self) -> u64 {
        self.binds().stats().misses
    }
}

impl Frame for ForwardFrame {
    fn update(&mut self, queue: &wgpu::Queue, size: (u32, u32), frame: u32) {
        ForwardFrame::update(self, queue, size, frame as f32 / 60.0);
    }
    fn declare(&mut self, size: (u32, u32)) -> (RenderGraph<'_>, TextureHandle) {
        let (graph, handles) = ForwardFrame::declare(self, size);
        (graph, handles.output)
    }
    fn end_frame(&mut self) {
        ForwardFrame::end_frame(self);
    }
    fn bind_group_misses(&self) -> u64 {
        self.binds().stats().misses
    }
}

impl Frame for CubemapFrame {
    fn update(&mut self, queue: &wgpu::Queue, size: (u32, u32), frame: u32) {
        CubemapFrame::update(self, queue, size, frame as f32 / 60.0);
    }
    fn declare(&mut self, size: (u32, u32)) -> (RenderGraph<'_>, TextureHandle) {
        let (graph, handles) = CubemapFrame::declare(self, size);
        (graph, handles.output)
    }
    fn end_frame(&mut self) {
        CubemapFrame::end_frame(self);
    }
    fn bind_group_misses(&self) -> u64 {
        self.binds().stats().misses
    }
}

/// Renders one frame per entry of `sizes` in `mode`; returns the last output and the bind groups
/// each frame built.
fn render(
    gpu: &Gpu,
    frame: &mut impl Frame,
    sizes: &[(u32, u32)],
    mode: ExecuteMode,
) -> (headless::Readback, Vec<u64>) {
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
    let mut executor = gpu.executor(ExecutorOptions::default());
    let mut cache = PlanCache::default();
    let mut imports = Imports::new();
    let mut target: Option<((u32, u32), wgpu::Texture, wgpu::TextureView)> = None;
    let options = CompileOptions::default().with_dont_care(unsafe {
        // SAFETY: the examples' `write` accesses cover every pixel; poison mode checks it below.
        wgpu::LoadOpDontCare::enabled()
    });
    let mut built = Vec::new();
    for (i, &size) in sizes.iter().enumerate() {
        if target.as_ref().is_none_or(|t| t.0 != size) {
            let (texture, view) = gpu.target("output", size, FORMAT, usage);
            target = Some((size, texture, view));
        }
        let (_, texture, view) = target.as_ref().expect("made above");
        let before = frame.bind_group_misses();
        frame.update(&gpu.queue, size, i as u32);
        let (mut graph, output) = frame.declare(size);
        let plan = cache.get_or_compile(&graph, &options).expect("compiles");
        imports.clear();
        imports.texture(output, texture, view);
        executor
            .execute_and_submit(&mut graph, &plan, &imports, mode)
            .unwrap_or_else(|e| panic!("{mode}: {}", headless::describe_failure(&e)));
        drop(graph);
        frame.end_frame();
        built.push(frame.bind_group_misses() - before);
    }
    let (_, texture, _) = target.expect("at least one frame");
    let readback = headless::read_texture(&gpu.device, &gpu.queue, &texture).expect("readback");
    crate::support::assert_no_gpu_errors(gpu);
    (readback, built)
}

/// Renders `sizes` in every mode with a fresh frame from `make`; the modes must agree to the
/// bit and the image must match `tests/reference/<name>-257x131.png`.
fn agree_and_match<F: Frame>(name: &str, sizes: &[(u32, u32)], make: impl Fn(&Gpu) -> F) {
    let gpu = crate::support::gpu();
    let mut planned = None;
    for mode in MODES {
        let mut frame = make(&gpu);
        let (image, built) = render(&gpu, &mut frame, sizes, mode);
        println!("{name} {mode}: bind groups built per frame {built:?}");
        let Some(planned) = &planned else {
            planned = Some(image);
            continue;
        };
        assert!(
            image.bytes == planned.bytes,
            "{name}: {mode} differs from planned"
        );
    }
    let rgba = planned.expect("planned").to_rgba8().expect("rgba8 output");
    let distinct: std::collections::HashSet<&[u8]> = rgba.chunks_exact(4).collect();
    assert!(
        distinct.len() > 200,
        "{name}: only {} colours",
        distinct.len()
    );
    let (w, h) = *sizes.last().expect("a frame");
    crate::support::compare_with_reference(name, (w, h), &rgba);
}

#[test]
fn post_agrees_across_modes_through_a_resize_and_matches_reference() {
    // Two frames small, then three at the test size: the history is reallocated at frame 2
    // (TAA starts over), and by frame 4 every bind group of the new size exists.
    let sizes = [(160, 90), (160, 90), SIZE, SIZE, SIZE];
    agree_and_match("post", &sizes, |gpu| PostFrame::new(&gpu.device, FORMAT));
}

#[test]
fn post_warm_frames_build_no_bind_groups_and_a_resize_rebuilds_them() {
    let gpu = crate::support::gpu();
    let mut frame = PostFrame::new(&gpu.device, FORMAT);
    let sizes = [
        (96, 64),
        (96, 64),
        (96, 64),
        (128, 72),
        (128, 72),
        (128, 72),
    ];
    let (_, built) = render(&gpu, &mut frame, &sizes, ExecuteMode::Planned);
    // The history alternates between two textures, so the second frame builds TAA's and the
    // prefilter's other bind groups; the third builds none.
    assert!(built[0] > 0 && built[2] == 0, "{built:?}");
    assert!(built[3] > 0, "a resize hands out new views: {built:?}");
    assert_eq!(built[5], 0, "{built:?}");
}

#[test]
fn post_plan_runs_bloom_through_the_mips_of_one_texture() {
    let gpu = crate::support::gpu();
    let mut frame = PostFrame::new(&gpu.device, FORMAT);
    let (graph, handles) = frame.declare((1920, 1080));
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    assert_eq!(handles.bloom_mips, 6);
    let groups: Vec<(String, u32, &str)> = plan
        .groups()
        .iter()
        .filter(|g| plan.pass_name(g.passes[0]).starts_with("bloom"))
        .map(|g| {
            let c = &g.color[0];
            (
                plan.pass_name(g.passes[0]).to_owned(),
                c.sub.mip,
                c.load.as_str(),
            )
        })
        .collect();
    // Down the chain writing each mip, then up adding into (loading) each larger one.
    let expected: Vec<(String, u32, &str)> = (0..6)
        .map(|m| {
            let name = if m == 0 {
                "bloom_prefilter".to_owned()
            } else {
                format!("bloom_down_{m}")
            };
            (name, m, "clear")
        })
        .chain((0..5).rev().map(|m| (format!("bloom_up_{m}"), m, "load")))
        .collect();
    assert_eq!(groups, expected);
    assert!(plan.traffic().bytes_per_frame < plan.traffic().naive_bytes_per_frame);
}

#[test]
fn forward_agrees_across_modes_and_matches_reference() {
    agree_and_match("forward", &[SIZE, SIZE], |gpu| {
        ForwardFrame::new(&gpu.device, FORMAT, &forward::procedural())
    });
}

#[test]
fn forward_plan_keeps_msaa_transient_and_cascades_in_layers() {
    let gpu = crate::support::gpu();
    let mut frame = ForwardFrame::new(&gpu.device, FORMAT, &forward::procedural());
    let (graph, handles) = frame.declare((1920, 1080));
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let groups = plan.groups();
    assert_eq!(groups.len(), 4);
    for (i, g) in groups[..3].iter().enumerate() {
        let depth = g.depth.as_ref().expect("a cascade");
        assert_eq!(
            (depth.sub.layer, depth.load.as_str(), depth.store),
            (i as u32, "clear", StoreOp::Store)
        );
    }
    let forward = &groups[3];
    assert_eq!(forward.color[0].store, StoreOp::Discard);
    assert!(forward.color[0].resolve.is_some());
    let transient = |t: TextureHandle| plan.resources()[t.index().index()].transient;
    assert!(transient(handles.color) && transient(handles.depth));
    assert!(!transient(handles.shadow));
}

#[test]
fn cubemap_agrees_across_modes_and_matches_reference() {
    agree_and_match("cubemap", &[SIZE, SIZE], |gpu| {
        CubemapFrame::new(&gpu.device, FORMAT)
    });
}
