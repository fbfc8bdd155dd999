//! The per-object uniform pattern (wgpu's bunnymark): one large graph-owned uniform buffer,
//! declared bound 256 B at a time (`uniform_slices`), on a device opened for exactly the plan's
//! needs, drawn object by object at dynamic offsets through one cached bind group.

use tilegraph::helpers::{BindGroupCache, Binding};
use tilegraph::wgpu;
use tilegraph::{Access, CompileOptions, Executor, Import, RenderGraph, TextureDesc};
use tilegraph_tool::headless::{Gpu, ShaderPipeline};

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
const SLICE: u64 = 256;
const BUFFER: u64 = 256 << 20;

const PER_OBJECT: &str = r#"
struct Object { color: vec4f, corner: vec2f }
@group(0) @binding(0) var<uniform> object: Object;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    // A quad covering one quadrant: `corner` is its lower-left in clip space.
    let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u)) * 0.5;
    return vec4f(object.corner + uv, 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4f { return object.color; }
"#;

/// Four objects: their colours and lower-left corners in clip space.
const OBJECTS: [([f32; 4], [f32; 2]); 4] = [
    ([1.0, 0.0, 0.0, 1.0], [-1.0, 0.0]),
    ([0.0, 1.0, 0.0, 1.0], [0.0, 0.0]),
    ([0.0, 0.0, 1.0, 1.0], [-1.0, -1.0]),
    ([1.0, 1.0, 1.0, 1.0], [0.0, -1.0]),
];

fn object_bytes() -> Vec<u8> {
    let mut bytes = vec![0u8; OBJECTS.len() * SLICE as usize];
    for (i, (color, corner)) in OBJECTS.iter().enumerate() {
        let floats = color.iter().chain(corner);
        for (j, v) in floats.enumerate() {
            let at = i * SLICE as usize + j * 4;
            bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
    }
    bytes
}

/// The pipeline and its bind group layout (kept: `get_bind_group_layout` returns a new handle
/// each call, which a cache keyed by identity would never find again).
fn pipeline(gpu: &Gpu) -> (wgpu::RenderPipeline, wgpu::BindGroupLayout) {
    let module = gpu
        .device
        .create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("per object"),
            source: wgpu::ShaderSource::Wgsl(PER_OBJECT.into()),
        });
    let bind_layout = crate::support::one_entry_layout(
        &gpu.device,
        "per object",
        wgpu::ShaderStages::VERTEX_FRAGMENT,
        wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: true,
            min_binding_size: wgpu::BufferSize::new(SLICE),
        },
    );
    let layout = gpu
        .device
        .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("per object"),
            bind_group_layouts: &[Some(&bind_layout)],
            immediate_size: 0,
        });
    let pipeline = ShaderPipeline {
        layout: Some(&layout),
        ..ShaderPipeline::new("per object", &module, ("vs", "fs"), &[Some(FORMAT.into())])
    }
    .create(&gpu.device);
    (pipeline, bind_layout)
}

/// The frame: an upload of every object's uniforms, then one draw per object at its offset.
fn frame<'a>(
    (pipeline, layout): &'a (wgpu::RenderPipeline, wgpu::BindGroupLayout),
    cache: &'a BindGroupCache,
    out: TextureDesc,
) -> (RenderGraph<'a>, tilegraph::TextureHandle) {
    let mut graph = RenderGraph::new();
    let objects = graph.create_buffer("objects", BUFFER);
    let target = graph.import_texture("out", out, Import::OUTPUT);
    graph
        .add_copy_pass("upload")
        .upload(objects)
        .execute(move |encoder, ctx| {
            ctx.upload(encoder, objects, 0, &object_bytes())?;
            Ok(())
        });
    graph
        .add_render_pass("objects")
        .uniform_slices(objects, SLICE)
        .color(target, Access::Clear)
        .execute(move |pass, ctx| {
            let binding = Binding::BufferSlice(objects, 0, SLICE);
            let group = cache.bind_group(ctx, layout, &[binding])?;
            pass.set_pipeline(pipeline);
            for i in 0..OBJECTS.len() as u32 {
                pass.set_bind_group(0, &group, &[i * SLICE as u32]);
                pass.draw(0..6, 0..1);
            }
            Ok(())
        });
    (graph, target)
}

#[test]
fn a_256_mib_uniform_buffer_bound_256_bytes_at_a_time_draws_on_a_device_opened_for_its_plan() {
    let out = TextureDesc::new(FORMAT, 16, 16);
    // The plan first, to open the device it needs.
    let plan = {
        let mut graph = RenderGraph::new();
        let objects = graph.create_buffer("objects", BUFFER);
        let target = graph.import_texture("out", out, Import::OUTPUT);
        graph.add_copy_pass("upload").upload(objects).finish();
        graph
            .add_render_pass("objects")
            .uniform_slices(objects, SLICE)
            .color(target, Access::Clear)
            .finish();
        graph.compile(&CompileOptions::default()).expect("compiles")
    };
    let needs = plan.required_limits();
    assert_eq!(
        needs.max_uniform_buffer_binding_size, 16384,
        "the WebGL2 floor, not 256 MiB"
    );
    assert_eq!(needs.max_buffer_size, BUFFER);
    let gpu = crate::support::gpu_for(&plan);
    assert!(gpu.device.limits().max_buffer_size >= BUFFER);
    let pipeline = pipeline(&gpu);
    let cache = BindGroupCache::new();
    for mode in crate::support::MODES {
        let mut executor = Executor::new(&gpu.device, &gpu.queue);
        for _ in 0..2 {
            let (mut graph, target) = frame(&pipeline, &cache, out);
            let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
            let (texture, view) = gpu.target("out", (16, 16), FORMAT, usage);
            let imports = crate::support::output_imports(target, &texture, &view);
            executor
                .execute_and_submit(&mut graph, &plan, &imports, mode)
                .map(drop)
                .unwrap_or_else(|e| panic!("{mode:?}: {e}"));
            crate::support::assert_no_gpu_errors(&gpu);
            let back = gpu.read_texture(&texture).expect("reads back");
            // Top-left red, top-right green, bottom-left blue, bottom-right white.
            let expect = [((4, 4), [255, 0, 0, 255]), ((12, 4), [0, 255, 0, 255])];
            let expect = expect
                .into_iter()
                .chain([((4, 12), [0, 0, 255, 255]), ((12, 12), [255; 4])]);
            for ((x, y), rgba) in expect {
                let i = ((y * back.width + x) * 4) as usize;
                assert_eq!(back.bytes[i..i + 4], rgba, "{mode:?} at ({x}, {y})");
            }
            cache.next_frame();
        }
    }
    let stats = cache.stats();
    assert_eq!(
        stats.misses, 3,
        "one bind group for each executor's buffer: {stats:?}"
    );
    assert_eq!(stats.hits, 3, "{stats:?}");
}
