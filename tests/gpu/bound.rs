//! A render pass declared with its bind group (`RenderPassBuilder::bound`) records with the
//! bindings in slot order, and a graph resource bound without a declaration is refused.

use tilegraph::helpers::{BindGroupCache, FullscreenPipeline};
use tilegraph::wgpu;
use tilegraph::{
    Access, CompileOptions, ContextError, ExecuteError, ExecuteMode, Executor, Import, RenderGraph,
    TextureDesc,
};
use tilegraph_tool::headless::Gpu;

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
const SIZE: u32 = 8;

/// Copies `source` (binding 0, sampled with binding 1) to the target.
const COPY: &str = "@group(0) @binding(0) var source: texture_2d<f32>;
@group(0) @binding(1) var linear: sampler;
@fragment fn copy(v: FullscreenVertex) -> @location(0) vec4<f32> {
    return textureSample(source, linear, v.uv);
}";

struct Fixture {
    gpu: Gpu,
    pipeline: FullscreenPipeline,
    sampler: wgpu::Sampler,
    binds: BindGroupCache,
    target: (wgpu::Texture, wgpu::TextureView),
}

fn fixture() -> Fixture {
    let gpu = crate::support::gpu();
    let pipeline = FullscreenPipeline::single(&gpu.device, "copy", COPY, "copy", FORMAT);
    let sampler = gpu
        .device
        .create_sampler(&wgpu::SamplerDescriptor::default());
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
    let target = gpu.target("out", (SIZE, SIZE), FORMAT, usage);
    Fixture {
        gpu,
        pipeline,
        sampler,
        binds: BindGroupCache::new(),
        target,
    }
}

/// Runs a graph whose `copy` pass reads `source` (cleared to `color`) into the output; `declare`
/// says whether the pass declares the read or only binds the handle. Returns the output's texels.
fn run(f: &Fixture, color: [f64; 4], declare: bool) -> Result<Vec<u8>, ExecuteError> {
    let mut graph = RenderGraph::new();
    let source = graph.create_texture("source", TextureDesc::new(FORMAT, SIZE, SIZE));
    let out = graph.import_texture("out", TextureDesc::new(FORMAT, SIZE, SIZE), Import::OUTPUT);
    graph
        .add_render_pass("fill")
        .color_cleared(source, color)
        .execute(|_, _| Ok(()));
    let pass = graph
        .add_render_pass("copy")
        .color(out, Access::Write)
        .bound();
    let pass = if declare {
        pass.sample(source)
    } else {
        pass.bind(source)
    };
    let (pipeline, binds) = (&f.pipeline, &f.binds);
    pass.bind(&f.sampler)
        .execute(move |pass, ctx, bindings| pipeline.draw(pass, ctx, binds, bindings));
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let imports = crate::support::output_imports(out, &f.target.0, &f.target.1);
    let mut executor = Executor::new(&f.gpu.device, &f.gpu.queue);
    let result = executor.execute_and_submit(&mut graph, &plan, &imports, ExecuteMode::Planned);
    crate::support::assert_no_gpu_errors(&f.gpu);
    result?;
    Ok(f.gpu.read_texture(&f.target.0).expect("reads back").bytes)
}

#[test]
fn a_bound_pass_binds_its_declared_reads_in_slot_order() {
    let f = fixture();
    for (color, texel) in [
        ([1.0, 0.0, 0.0, 1.0], [255, 0, 0, 255]),
        ([0.0, 1.0, 1.0, 1.0], [0, 255, 255, 255]),
    ] {
        let texels = run(&f, color, true).expect("records");
        assert_eq!(texels.len(), (SIZE * SIZE * 4) as usize);
        assert!(
            texels.chunks(4).all(|t| t == texel),
            "expected {texel:?} everywhere, got {:?}",
            &texels[..4]
        );
    }
}

#[test]
fn a_graph_texture_bound_without_a_declaration_is_refused() {
    let f = fixture();
    match run(&f, [1.0, 0.0, 0.0, 1.0], false) {
        Err(ExecuteError::Pass { pass, source }) => {
            assert_eq!(pass, "copy");
            let e = source
                .downcast::<ContextError>()
                .unwrap_or_else(|e| panic!("not a context error: {e}"));
            assert!(
                matches!(&*e, ContextError::Undeclared { resource, .. } if resource == "source"),
                "{e}"
            );
        }
        other => panic!("expected the pass `copy` to fail, got {other:?}"),
    }
}
