//! The wgpu objects the executor makes are labelled with the graph's resource names, so that
//! wgpu's validation errors say which resource a mistake touched: a pooled texture with the
//! names of every resource it holds this frame, a pooled buffer and a view with theirs.

use tilegraph::wgpu;
use tilegraph::{
    Access, CompileOptions, ExecuteError, ExecuteMode, Executor, Import, Imports, RenderGraph,
    TextureDesc,
};
use tilegraph_tool::headless::Gpu;

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
const SIZE: u32 = 16;

fn kept() -> Import {
    Import::OUTPUT
}

fn target(gpu: &Gpu, label: &str) -> (wgpu::Texture, wgpu::TextureView) {
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT
        | wgpu::TextureUsages::COPY_SRC
        | wgpu::TextureUsages::COPY_DST;
    gpu.target(label, (SIZE, SIZE), FORMAT, usage)
}

/// Records `graph` in `mode`, expecting a validation error; returns its pass and message.
fn validation_error(
    gpu: &Gpu,
    graph: &mut RenderGraph<'_>,
    imports: &Imports,
    mode: ExecuteMode,
) -> (Option<String>, String) {
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    let err = executor
        .execute(graph, &plan, imports, mode)
        .expect_err("the closure records an invalid command");
    crate::support::assert_no_gpu_errors(gpu);
    match err {
        ExecuteError::Validation { pass, message } => (pass, message),
        other => panic!("expected a validation error, got {other}"),
    }
}

#[test]
fn a_pooled_texture_is_labelled_with_every_resource_it_holds() {
    let gpu = crate::support::gpu();
    let (out_hdr, out_hdr_view) = target(&gpu, "out_hdr");
    let (out_bloom, out_bloom_view) = target(&gpu, "out_bloom");
    let copy = |from: &wgpu::Texture, to: &wgpu::Texture, encoder: &mut wgpu::CommandEncoder| {
        encoder.copy_texture_to_texture(from.as_image_copy(), to.as_image_copy(), from.size());
    };
    for mode in [ExecuteMode::Planned, ExecuteMode::Poison] {
        let mut graph = RenderGraph::new();
        let desc = TextureDesc::new(FORMAT, SIZE, SIZE);
        let hdr = graph.create_texture("hdr", desc);
        let bloom = graph.create_texture("bloom", desc);
        let hdr_out = graph.import_texture("hdr_out", desc, kept());
        let bloom_out = graph.import_texture("bloom_out", desc, kept());
        crate::support::clear_pass(&mut graph, "draw_hdr", hdr);
        graph
            .add_copy_pass("read_hdr")
            .copy_src(hdr)
            .copy_dst(hdr_out)
            .execute(move |encoder, ctx| {
                copy(ctx.texture(hdr)?, ctx.texture(hdr_out)?, encoder);
                Ok(())
            });
        crate::support::clear_pass(&mut graph, "draw_bloom", bloom);
        // The copy the wrong way round: into `bloom`, which no pass declared a copy into.
        graph
            .add_copy_pass("read_bloom")
            .copy_src(bloom)
            .copy_dst(bloom_out)
            .execute(move |encoder, ctx| {
                copy(ctx.texture(bloom_out)?, ctx.texture(bloom)?, encoder);
                Ok(())
            });
        let plan = mode
            .plan_to_record(&graph.compile(&CompileOptions::default()).expect("compiles"))
            .clone();
        let shared: Vec<_> = plan
            .physical()
            .iter()
            .map(|p| {
                p.resources
                    .iter()
                    .map(|&r| plan.resource_name(r))
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(shared, [["hdr", "bloom"]], "the two textures alias one");
        let mut imports = crate::support::output_imports(hdr_out, &out_hdr, &out_hdr_view);
        imports.texture(bloom_out, &out_bloom, &out_bloom_view);
        let (pass, message) = validation_error(&gpu, &mut graph, &imports, mode);
        assert_eq!(pass.as_deref(), Some("read_bloom"), "{mode}: {message}");
        assert!(
            message.contains("Texture with 'hdr+bloom' label"),
            "{mode}: the error names the resources the texture holds: {message}"
        );
    }
}

#[test]
fn a_pooled_buffer_is_labelled_with_its_resource() {
    let gpu = crate::support::gpu();
    let out = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("out"),
        size: 256,
        usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut graph = RenderGraph::new();
    let counts = graph.create_buffer("counts", 256);
    let readout = graph.import_buffer("readout", 256, kept());
    graph
        .add_compute_pass("count")
        .storage_write_buffer(counts)
        .execute(|_, _| Ok(()));
    // The copy the wrong way round: into `counts`, which no pass declared a copy into.
    graph
        .add_copy_pass("read_counts")
        .copy_src_buffer(counts)
        .copy_dst_buffer(readout)
        .execute(move |encoder, ctx| {
            encoder.copy_buffer_to_buffer(ctx.buffer(readout)?, 0, ctx.buffer(counts)?, 0, 256);
            Ok(())
        });
    let mut imports = Imports::new();
    imports.buffer(readout, &out);
    let (pass, message) = validation_error(&gpu, &mut graph, &imports, ExecuteMode::Planned);
    assert_eq!(pass.as_deref(), Some("read_counts"), "{message}");
    assert!(
        message.contains("Buffer with 'counts' label"),
        "the error names the buffer's resource: {message}"
    );
}

#[test]
fn a_view_of_a_pooled_texture_is_labelled_with_its_resource() {
    let gpu = crate::support::gpu();
    let device = &gpu.device;
    let layout = crate::support::one_entry_layout(
        device,
        "storage image",
        wgpu::ShaderStages::COMPUTE,
        crate::support::storage_image(FORMAT),
    );
    let (out, out_view) = target(&gpu, "out");
    let mut graph = RenderGraph::new();
    let desc = TextureDesc::new(FORMAT, SIZE, SIZE);
    let scene = graph.create_texture("scene", desc);
    let output = graph.import_texture("output", desc, kept());
    crate::support::clear_pass(&mut graph, "draw", scene);
    // A sampled texture bound as a storage image.
    let layout = &layout;
    graph
        .add_render_pass("post")
        .sample(scene)
        .color(output, Access::Clear)
        .execute(move |_, ctx| {
            let _ = ctx.device().create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("misbound"),
                layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(ctx.view(scene)?),
                }],
            });
            Ok(())
        });
    let imports = crate::support::output_imports(output, &out, &out_view);
    let (_, message) = validation_error(&gpu, &mut graph, &imports, ExecuteMode::Planned);
    assert!(
        message.contains("TextureView with 'scene' label"),
        "the error names the view's resource: {message}"
    );
}
