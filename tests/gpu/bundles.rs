//! Render bundles from `PassContext::render_bundle_encoder`: they match the render pass the
//! compiler made (merged passes, a depth attachment the group keeps read-only), draw the image
//! direct draws give on one thread and on several, and a compute pass asking for one gets a
//! typed error.

use tilegraph::wgpu;
use tilegraph::{
    Access, CompileOptions, ContextError, ExecuteError, ExecuteMode, ExecutorOptions, Import,
    RenderGraph, TextureDesc,
};
use tilegraph_tool::headless::{Gpu, ShaderPipeline};

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
const DEPTH: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
const SIZE: (u32, u32) = (32, 24);

/// Draw `i` is a full-screen triangle at the depth and in the colour of entry `i`.
const SHADER: &str = "
struct Out { @builtin(position) position: vec4f, @location(0) color: vec4f }

@vertex fn vs(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32) -> Out {
    var p = array(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
    var z = array(0.5, 0.25, 0.75, 0.25);
    var c = array(vec4f(1.0, 0.0, 0.0, 1.0), vec4f(0.0, 1.0, 0.0, 1.0),
                  vec4f(1.0, 0.0, 1.0, 1.0), vec4f(0.0, 0.0, 1.0, 1.0));
    return Out(vec4f(p[v], z[i], 1.0), c[i]);
}

@fragment fn fs(in: Out) -> @location(0) vec4f { return in.color; }
";

struct Pipelines {
    /// Depth test `Always`, depth written.
    write_depth: wgpu::RenderPipeline,
    /// Depth test `Less`, depth not written.
    test_depth: wgpu::RenderPipeline,
}

impl Pipelines {
    fn new(device: &wgpu::Device) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("bundles"),
            source: wgpu::ShaderSource::Wgsl(SHADER.into()),
        });
        let pipeline = |compare, write| {
            ShaderPipeline {
                depth: Some(wgpu::DepthStencilState {
                    format: DEPTH,
                    depth_write_enabled: Some(write),
                    depth_compare: Some(compare),
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
                ..ShaderPipeline::new("bundles", &module, ("vs", "fs"), &[Some(FORMAT.into())])
            }
            .create(device)
        };
        Pipelines {
            write_depth: pipeline(wgpu::CompareFunction::Always, true),
            test_depth: pipeline(wgpu::CompareFunction::Less, false),
        }
    }
}

/// Records `draws` (instance indices) with `pipeline` into `pass`, through a bundle or not.
fn draw(
    pass: &mut wgpu::RenderPass<'_>,
    ctx: &tilegraph::PassContext<'_>,
    pipeline: &wgpu::RenderPipeline,
    draws: &[u32],
    bundles: bool,
) -> Result<(), tilegraph::PassError> {
    if !bundles {
        pass.set_pipeline(pipeline);
        for &i in draws {
            pass.draw(0..3, i..i + 1);
        }
        return Ok(());
    }
    let mut bundle = ctx.render_bundle_encoder(Some(ctx.pass_name()))?;
    bundle.set_pipeline(pipeline);
    for &i in draws {
        bundle.draw(0..3, i..i + 1);
    }
    pass.execute_bundles([&bundle.finish(&Default::default())]);
    Ok(())
}

/// `depth` clears A and the depth and draws at 0.5; `shade` (merged with it: same attachments)
/// draws green at 0.25 over A; `overlay` (its own group, the depth read-only there) clears B and
/// draws magenta at 0.75 (rejected) and blue at 0.25. Returns A and B read back.
fn render(gpu: &Gpu, threads: usize, mode: ExecuteMode, bundles: bool) -> (Vec<u8>, Vec<u8>) {
    let pipelines = Pipelines::new(&gpu.device);
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
    let (a_texture, a_view) = gpu.target("a", SIZE, FORMAT, usage);
    let (b_texture, b_view) = gpu.target("b", SIZE, FORMAT, usage);
    let desc = TextureDesc::new(FORMAT, SIZE.0, SIZE.1);
    let kept = Import::OUTPUT;
    let mut graph = RenderGraph::new();
    let a = graph.import_texture("a", desc, kept);
    let b = graph.import_texture("b", desc, kept);
    let depth = graph.create_texture("depth", TextureDesc::new(DEPTH, SIZE.0, SIZE.1));
    let p = &pipelines;
    graph
        .add_render_pass("depth")
        .color_cleared(a, [0.0, 0.0, 0.0, 1.0])
        .depth_cleared(depth, tilegraph::ClearValue::Depth(1.0))
        .execute(move |pass, ctx| draw(pass, ctx, &p.write_depth, &[0], bundles));
    graph
        .add_render_pass("shade")
        .color(a, Access::ReadWrite)
        .depth(depth, Access::Read)
        .execute(move |pass, ctx| draw(pass, ctx, &p.test_depth, &[1], bundles));
    graph
        .add_render_pass("overlay")
        .color_cleared(b, [0.0, 0.0, 0.0, 1.0])
        .depth(depth, Access::Read)
        .execute(move |pass, ctx| draw(pass, ctx, &p.test_depth, &[2, 3], bundles));
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let groups: Vec<usize> = plan.groups().iter().map(|g| g.passes.len()).collect();
    assert_eq!(
        groups,
        [2, 1],
        "depth and shade share a render pass, overlay has its own"
    );
    let mut imports = tilegraph::Imports::new();
    imports.texture(a, &a_texture, &a_view);
    imports.texture(b, &b_texture, &b_view);
    let mut executor = gpu.executor(ExecutorOptions::default().with_recording_threads(threads));
    let commands = executor
        .execute(&mut graph, &plan, &imports, mode)
        .unwrap_or_else(|e| panic!("{threads} threads, {mode}, bundles {bundles}: {e}"));
    gpu.queue.submit(commands);
    let a = gpu.read_texture(&a_texture).expect("readback").bytes;
    let b = gpu.read_texture(&b_texture).expect("readback").bytes;
    crate::support::assert_no_gpu_errors(gpu);
    (a, b)
}

#[test]
fn bundles_match_the_render_pass_and_draw_what_direct_draws_do() {
    let gpu = crate::support::gpu();
    let green = [0u8, 255, 0, 255].repeat((SIZE.0 * SIZE.1) as usize);
    let blue = [0u8, 0, 255, 255].repeat((SIZE.0 * SIZE.1) as usize);
    for mode in crate::support::MODES {
        let direct = render(&gpu, 1, mode, false);
        assert!(
            direct.0 == green && direct.1 == blue,
            "{mode}: direct draws"
        );
        for threads in [1, 3] {
            let bundled = render(&gpu, threads, mode, true);
            assert!(
                bundled == direct,
                "{mode} on {threads} threads: bundles draw another image"
            );
        }
    }
}

#[test]
fn a_compute_pass_gets_no_render_bundle_encoder() {
    let gpu = crate::support::gpu();
    let mut graph = RenderGraph::new();
    let buffer = graph.create_buffer("data", 256);
    graph
        .add_compute_pass("simulate")
        .storage_write_buffer(buffer)
        .side_effects()
        .execute(|_, ctx| {
            ctx.render_bundle_encoder(None)?;
            Ok(())
        });
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let mut executor = gpu.executor(ExecutorOptions::default());
    let error = executor
        .execute(
            &mut graph,
            &plan,
            &tilegraph::Imports::new(),
            ExecuteMode::Planned,
        )
        .expect_err("the frame fails");
    let ExecuteError::Pass { pass, source } = &error else {
        panic!("expected a pass error, got {error}");
    };
    assert_eq!(pass, "simulate");
    assert_eq!(
        source.downcast_ref::<ContextError>(),
        Some(&ContextError::NotARenderPass {
            pass: "simulate".into(),
            kind: "compute",
        })
    );
}
