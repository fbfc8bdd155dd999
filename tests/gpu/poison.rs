//! Poison mode on a real adapter: it overwrites only what the plan does not promise to keep (what
//! a copy or a compute pass wrote survives a later `read_write` attachment), and it records each
//! pass of a merged group as a render pass of its own, so that a false `write` on a pass that is
//! not the group's first shows in the image.

use tilegraph::wgpu;
use tilegraph::wgpu::util::DeviceExt;
use tilegraph::{
    Access, CompileOptions, ExecuteMode, Executor, Import, RenderGraph, TextureDesc, TextureHandle,
};
use tilegraph_tool::headless::Gpu;

const MODES: [ExecuteMode; 3] = [
    ExecuteMode::Planned,
    ExecuteMode::Naive,
    ExecuteMode::Poison,
];
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
const SIZE: u32 = 64;
/// What the copy and the compute pass write into every texel.
const TEXEL: [u8; 4] = [10, 20, 30, 255];
const MAGENTA: [u8; 4] = [255, 0, 255, 255];

/// How the first pass fills `image` before a render pass attaches it `read_write`.
#[derive(Clone, Copy, Debug)]
enum Fill {
    /// A copy pass (`copy_dst`) copies `TEXEL` from a buffer.
    Copy,
    /// A compute pass (`storage_write`) stores `TEXEL` into every texel.
    Compute,
}

/// The output import every frame copies its image into, read back after the frame.
fn output_target(gpu: &Gpu) -> (wgpu::Texture, wgpu::TextureView) {
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT
        | wgpu::TextureUsages::COPY_SRC
        | wgpu::TextureUsages::COPY_DST;
    gpu.target("output", (SIZE, SIZE), FORMAT, usage)
}

fn declare_output(graph: &mut RenderGraph<'_>) -> TextureHandle {
    graph.import_texture(
        "output",
        TextureDesc::new(FORMAT, SIZE, SIZE),
        Import::OUTPUT,
    )
}

/// Records `graph` in `mode` (with the DontCare opt-in when `dont_care`) and reads back
/// `output`.
fn run(
    gpu: &Gpu,
    graph: &mut RenderGraph<'_>,
    output: TextureHandle,
    mode: ExecuteMode,
    dont_care: bool,
) -> Vec<u8> {
    let mut options = CompileOptions::default();
    if dont_care {
        // SAFETY: every `write` of these graphs covers the whole target, except the one the
        // split-recording test declares falsely on purpose, which Poison is to expose.
        options = options.with_dont_care(unsafe { wgpu::LoadOpDontCare::enabled() });
    }
    let plan = graph.compile(&options).expect("compiles");
    let (target, view) = output_target(gpu);
    let imports = crate::support::output_imports(output, &target, &view);
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    executor
        .execute_and_submit(graph, &plan, &imports, mode)
        .unwrap_or_else(|e| panic!("{mode}: {e}"));
    let readback = gpu.read_texture(&target).expect("readback");
    crate::support::assert_no_gpu_errors(gpu);
    readback.bytes
}

/// `fill` writes `TEXEL` into every texel of a graph-owned texture, a render pass attaches it
/// `read_write` and draws nothing, a copy pass presents it. Returns the presented pixels.
fn fill_then_read_write(gpu: &Gpu, fill: Fill, mode: ExecuteMode, dont_care: bool) -> Vec<u8> {
    let device = &gpu.device;
    let texels: Vec<u8> = TEXEL.repeat((SIZE * SIZE) as usize);
    let source = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("texels"),
        contents: &texels,
        usage: wgpu::BufferUsages::COPY_SRC,
    });
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("fill"),
        source: wgpu::ShaderSource::Wgsl(
            "@group(0) @binding(0) var image: texture_storage_2d<rgba8unorm, write>;
             @compute @workgroup_size(8, 8)
             fn fill(@builtin(global_invocation_id) id: vec3u) {
                 textureStore(image, id.xy, vec4f(10.0, 20.0, 30.0, 255.0) / 255.0);
             }"
            .into(),
        ),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("fill"),
        layout: None,
        module: &module,
        entry_point: Some("fill"),
        compilation_options: Default::default(),
        cache: None,
    });

    let (source, pipeline) = (&source, &pipeline);
    let mut graph = RenderGraph::new();
    let image = graph.create_texture("image", TextureDesc::new(FORMAT, SIZE, SIZE));
    let output = declare_output(&mut graph);
    match fill {
        Fill::Copy => graph
            .add_copy_pass("upload")
            .copy_dst(image)
            .execute(move |encoder, ctx| {
                let texture = ctx.texture(image)?;
                encoder.copy_buffer_to_texture(
                    wgpu::TexelCopyBufferInfo {
                        buffer: source,
                        layout: wgpu::TexelCopyBufferLayout {
                            offset: 0,
                            bytes_per_row: Some(SIZE * 4),
                            rows_per_image: None,
                        },
                    },
                    texture.as_image_copy(),
                    texture.size(),
                );
                Ok(())
            }),
        Fill::Compute => {
            graph
                .add_compute_pass("fill")
                .storage_write(image)
                .execute(move |pass, ctx| {
                    let bind_group = ctx.device().create_bind_group(&wgpu::BindGroupDescriptor {
                        label: Some("fill"),
                        layout: &pipeline.get_bind_group_layout(0),
                        entries: &[wgpu::BindGroupEntry {
                            binding: 0,
                            resource: wgpu::BindingResource::TextureView(ctx.view(image)?),
                        }],
                    });
                    pass.set_pipeline(pipeline);
                    pass.set_bind_group(0, &bind_group, &[]);
                    pass.dispatch_workgroups(SIZE / 8, SIZE / 8, 1);
                    Ok(())
                })
        }
    };
    graph
        .add_render_pass("touch")
        .color(image, Access::ReadWrite)
        .execute(|_, _| Ok(()));
    crate::support::copy_pass(&mut graph, "present", image, output);
    run(gpu, &mut graph, output, mode, dont_care)
}

fn assert_every_texel(pixels: &[u8], expected: [u8; 4], what: &str) {
    let wrong: Vec<_> = pixels.chunks_exact(4).filter(|t| *t != expected).collect();
    assert!(
        wrong.is_empty(),
        "{what}: {} of {} texels are not {expected:?} (first {:?})",
        wrong.len(),
        pixels.len() / 4,
        wrong.first()
    );
}

#[test]
fn what_a_copy_wrote_survives_a_read_write_attachment_in_every_mode() {
    let gpu = crate::support::gpu();
    for dont_care in [false, true] {
        for mode in MODES {
            let pixels = fill_then_read_write(&gpu, Fill::Copy, mode, dont_care);
            assert_every_texel(&pixels, TEXEL, &format!("{mode} (dont_care {dont_care})"));
        }
    }
}

#[test]
fn what_a_compute_pass_stored_survives_a_read_write_attachment_in_every_mode() {
    let gpu = crate::support::gpu();
    for mode in MODES {
        let pixels = fill_then_read_write(&gpu, Fill::Compute, mode, false);
        assert_every_texel(&pixels, TEXEL, &mode.to_string());
    }
}

/// A group of two passes on one attachment: `background` (kept by its side effects) covers
/// the target, `overlay` draws one small triangle and declares `access`. Returns the
/// presented pixels and the passes of the plan's groups (of the declared order).
fn group_of_two(
    gpu: &Gpu,
    access: Access,
    mode: ExecuteMode,
    dont_care: bool,
) -> (Vec<u8>, Vec<Vec<String>>) {
    let device = &gpu.device;
    let (background, overlay) = crate::support::overlay_pipelines(device, "two passes", FORMAT);

    let mut graph = RenderGraph::new();
    let image = graph.create_texture("image", TextureDesc::new(FORMAT, SIZE, SIZE));
    let output = declare_output(&mut graph);
    graph
        .add_render_pass("background")
        .color(image, Access::Clear)
        .side_effects()
        .execute(|pass, _| {
            pass.set_pipeline(&background);
            pass.draw(0..3, 0..1);
            Ok(())
        });
    crate::support::triangle_pass(&mut graph, "overlay", image, access, &overlay);
    crate::support::copy_pass(&mut graph, "present", image, output);
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let recorded = mode.plan_to_record(&plan);
    let groups = recorded
        .groups()
        .iter()
        .map(|g| {
            g.passes
                .iter()
                .map(|&p| recorded.pass_name(p).to_owned())
                .collect()
        })
        .collect();
    (run(gpu, &mut graph, output, mode, dont_care), groups)
}

#[test]
fn poison_records_each_pass_of_a_group_apart_and_exposes_a_later_false_write() {
    let gpu = crate::support::gpu();
    for dont_care in [false, true] {
        let (planned, groups) =
            group_of_two(&gpu, Access::ReadWrite, ExecuteMode::Planned, dont_care);
        assert_eq!(
            groups,
            [vec!["background", "overlay"], vec!["present"]],
            "the two passes share one group"
        );
        // Declared truthfully, every mode records the same image.
        for mode in [ExecuteMode::Naive, ExecuteMode::Poison] {
            let (pixels, _) = group_of_two(&gpu, Access::ReadWrite, mode, dont_care);
            assert!(pixels == planned, "read_write: {mode} differs from planned");
        }
        // `write` on `overlay` is a lie: it covers a triangle. One render pass for the group
        // hides it (the background is still there); Poison starts `overlay` from poison.
        let (lie, groups) = group_of_two(&gpu, Access::Write, ExecuteMode::Poison, dont_care);
        assert_eq!(groups, [vec!["background", "overlay"], vec!["present"]]);
        let magenta = lie.chunks_exact(4).filter(|p| *p == MAGENTA).count();
        assert!(
            magenta > (SIZE * SIZE / 2) as usize,
            "pixels `overlay` leaves uncovered are poisoned (dont_care {dont_care}): {magenta} magenta"
        );
        let green = lie
            .chunks_exact(4)
            .filter(|p| *p == [0, 255, 0, 255])
            .count();
        assert!(green > 0, "what `overlay` drew is kept");
        let (honest_planned, _) =
            group_of_two(&gpu, Access::Write, ExecuteMode::Planned, dont_care);
        assert!(
            lie != honest_planned,
            "poison must differ from planned on the false `write`"
        );
    }
}
