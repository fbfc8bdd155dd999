//! Buffers of every kind and ranges of subresources on a device: uploads land where their pass
//! stands in the frame, vertex, index and indirect buffers owned by the graph get the usages
//! their draws need, a range of layers is handed out as an array view of exactly those layers,
//! a cleared resolve keeps its clear value, and a bind group wgpu refuses is not cached.

use tilegraph::helpers::{BindGroupCache, Binding};
use tilegraph::wgpu;
use tilegraph::{
    Access, CompileOptions, ContextError, ExecuteError, ExecuteMode, Executor, Import, Imports,
    RenderGraph, TextureDesc, TextureHandle, TextureRef,
};
use tilegraph_tool::headless::{Gpu, ShaderPipeline, color_pipeline};

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
const MODES: [ExecuteMode; 3] = [
    ExecuteMode::Planned,
    ExecuteMode::Naive,
    ExecuteMode::Poison,
];

fn kept(graph: &mut RenderGraph<'_>, name: &str, w: u32, h: u32) -> TextureHandle {
    graph.import_texture(name, TextureDesc::new(FORMAT, w, h), Import::OUTPUT)
}

fn target(gpu: &Gpu, w: u32, h: u32) -> (wgpu::Texture, wgpu::TextureView) {
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
    gpu.target("out", (w, h), FORMAT, usage)
}

fn pixel(gpu: &Gpu, texture: &wgpu::Texture, x: u32, y: u32) -> [u8; 4] {
    let back = gpu.read_texture(texture).expect("reads back");
    let i = ((y * back.width + x) * 4) as usize;
    back.bytes[i..i + 4].try_into().expect("four bytes")
}

fn execute(gpu: &Gpu, graph: &mut RenderGraph<'_>, imports: &Imports, mode: ExecuteMode) {
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    executor
        .execute_and_submit(graph, &plan, imports, mode)
        .unwrap_or_else(|e| panic!("{mode:?}: {e}"));
    crate::support::assert_no_gpu_errors(gpu);
}

const UNIFORM_COLOR: &str = r#"
struct Tint { color: vec4f }
@group(0) @binding(0) var<uniform> tint: Tint;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(uv * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4f { return tint.color; }
"#;

fn module(gpu: &Gpu, label: &str, source: &str) -> wgpu::ShaderModule {
    gpu.device
        .create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        })
}

fn color_bytes(c: [f32; 4]) -> Vec<u8> {
    c.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Two uploads into one uniform buffer, each read by the pass after it: each draw sees its own
/// colour. (`queue.write_buffer` in the closures would give both draws the second.)
#[test]
fn uploads_land_where_their_pass_stands_in_the_frame() {
    let gpu = crate::support::gpu();
    let module = module(&gpu, "uniform colour", UNIFORM_COLOR);
    let pipeline = color_pipeline(&gpu.device, "tint", &module, None, ("vs", "fs"), FORMAT);
    let cache = BindGroupCache::new();
    for mode in MODES {
        let (first_tex, first_view) = target(&gpu, 8, 8);
        let (second_tex, second_view) = target(&gpu, 8, 8);
        let mut graph = RenderGraph::new();
        let tint = graph.create_buffer("tint", 16);
        let first = kept(&mut graph, "first", 8, 8);
        let second = kept(&mut graph, "second", 8, 8);
        for (name, color, out) in [
            ("red", [1.0, 0.0, 0.0, 1.0], first),
            ("green", [0.0, 1.0, 0.0, 1.0], second),
        ] {
            graph
                .add_copy_pass(&format!("upload_{name}"))
                .upload(tint)
                .execute(move |encoder, ctx| {
                    ctx.upload(encoder, tint, 0, &color_bytes(color))?;
                    Ok(())
                });
            let (pipeline, cache) = (&pipeline, &cache);
            graph
                .add_render_pass(&format!("draw_{name}"))
                .uniform(tint)
                .color(out, Access::Write)
                .execute(move |pass, ctx| {
                    let layout = pipeline.get_bind_group_layout(0);
                    let group = cache.bind_group(ctx, &layout, &[Binding::Buffer(tint)])?;
                    pass.set_pipeline(pipeline);
                    pass.set_bind_group(0, &group, &[]);
                    pass.draw(0..3, 0..1);
                    Ok(())
                });
        }
        let mut imports = Imports::new();
        imports
            .texture(first, &first_tex, &first_view)
            .texture(second, &second_tex, &second_view);
        execute(&gpu, &mut graph, &imports, mode);
        assert_eq!(pixel(&gpu, &first_tex, 4, 4), [255, 0, 0, 255], "{mode:?}");
        assert_eq!(pixel(&gpu, &second_tex, 4, 4), [0, 255, 0, 255], "{mode:?}");
        cache.next_frame();
    }
}

const TWO_OF_EACH: &str = r#"
@group(0) @binding(0) var t0: texture_2d<f32>;
@group(0) @binding(1) var t1: texture_2d<f32>;
@group(0) @binding(2) var<uniform> u0: vec4f;
@group(0) @binding(3) var<uniform> u1: vec4f;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(uv * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs(@builtin(position) p: vec4f) -> @location(0) vec4f {
    let a = textureLoad(t0, vec2i(p.xy), 0);
    let b = textureLoad(t1, vec2i(p.xy), 0);
    return vec4f(a.r, b.g, u1.x, u0.x);
}
"#;

/// A pass that reads two graph textures (red, green) and two graph uniform buffers (0.25, 0.75)
/// in one draw reads each from its own binding, in every mode; an adapter that reads every one
/// from the first binding (wgpu's GL backend on a desktop GL 3.3 context whose driver lists
/// compute shaders: NVIDIA's through EGL) gets the typed refusal instead of that image.
#[test]
fn a_pass_reading_two_textures_and_two_uniform_buffers_reads_each() {
    let gpu = crate::support::gpu();
    let module = module(&gpu, "two of each", TWO_OF_EACH);
    let pipeline = color_pipeline(
        &gpu.device,
        "two of each",
        &module,
        None,
        ("vs", "fs"),
        FORMAT,
    );
    let cache = BindGroupCache::new();
    for mode in MODES {
        let (tex, view) = target(&gpu, 8, 8);
        let mut graph = RenderGraph::new();
        let t0 = graph.create_texture("t0", TextureDesc::new(FORMAT, 8, 8));
        let t1 = graph.create_texture("t1", TextureDesc::new(FORMAT, 8, 8));
        let u0 = graph.create_buffer("u0", 16);
        let u1 = graph.create_buffer("u1", 16);
        let out = kept(&mut graph, "out", 8, 8);
        graph
            .add_render_pass("red")
            .color_cleared(t0, [1.0, 0.0, 0.0, 1.0])
            .execute(|_, _| Ok(()));
        graph
            .add_render_pass("green")
            .color_cleared(t1, [0.0, 1.0, 0.0, 1.0])
            .execute(|_, _| Ok(()));
        graph
            .add_copy_pass("uniforms")
            .upload(u0)
            .upload(u1)
            .execute(move |encoder, ctx| {
                ctx.upload(encoder, u0, 0, &color_bytes([0.25, 0.0, 0.0, 0.0]))?;
                ctx.upload(encoder, u1, 0, &color_bytes([0.75, 0.0, 0.0, 0.0]))?;
                Ok(())
            });
        let (pipeline, cache) = (&pipeline, &cache);
        graph
            .add_render_pass("read")
            .sample(t0)
            .sample(t1)
            .uniform(u0)
            .uniform(u1)
            .color(out, Access::Write)
            .execute(move |pass, ctx| {
                let layout = pipeline.get_bind_group_layout(0);
                let bindings = [
                    Binding::Texture(t0.into()),
                    Binding::Texture(t1.into()),
                    Binding::Buffer(u0),
                    Binding::Buffer(u1),
                ];
                let group = cache.bind_group(ctx, &layout, &bindings)?;
                pass.set_pipeline(pipeline);
                pass.set_bind_group(0, &group, &[]);
                pass.draw(0..3, 0..1);
                Ok(())
            });
        let plan = graph.compile(&CompileOptions::default()).expect("compiles");
        let imports = crate::support::output_imports(out, &tex, &view);
        let mut executor = Executor::new(&gpu.device, &gpu.queue);
        match executor.execute_and_submit(&mut graph, &plan, &imports, mode) {
            Ok(_) => {
                crate::support::assert_no_gpu_errors(&gpu);
                let [r, g, b, a] = pixel(&gpu, &tex, 4, 4);
                assert!(
                    r == 255 && g == 255 && b.abs_diff(191) <= 1 && a.abs_diff(64) <= 1,
                    "{mode:?}: {:?} (the second texture or uniform buffer read as the first)",
                    [r, g, b, a]
                );
            }
            Err(ExecuteError::Unsupported { pass, resource, .. }) => {
                let info = gpu.adapter.get_info();
                assert!(
                    info.backend == wgpu::Backend::Gl && !info.name.starts_with("llvmpipe"),
                    "{} refused a pass reading two textures",
                    info.name
                );
                assert_eq!(pass, "read");
                assert!(resource == "t1" || resource == "u1", "{resource}");
            }
            Err(e) => panic!("{mode:?}: {e}"),
        }
        cache.next_frame();
    }
}

const VERTEX_COLOR: &str = r#"
@vertex fn vs(@location(0) p: vec2f) -> @builtin(position) vec4f { return vec4f(p, 0.0, 1.0); }
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0, 0.5, 0.0, 1.0); }
"#;

/// A quad over the left half drawn from graph-owned vertex, index and indirect buffers filled
/// by uploads: wgpu validates each binding against the buffer's usages, so a missing usage is
/// an error here.
#[test]
fn vertex_index_and_indirect_buffers_of_the_graph_feed_a_draw() {
    let gpu = crate::support::gpu();
    let module = module(&gpu, "vertex colour", VERTEX_COLOR);
    let pipeline = gpu
        .device
        .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("quad"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: 8,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &wgpu::vertex_attr_array![0 => Float32x2],
                })],
            },
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[Some(FORMAT.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
    let vertices: Vec<u8> = [-1.0f32, -1.0, 0.0, -1.0, 0.0, 1.0, -1.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let indices: Vec<u8> = [0u16, 1, 2, 0, 2, 3]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    // draw_indexed_indirect: index count, instance count, first index, base vertex, first instance.
    let args: Vec<u8> = [6u32, 1, 0, 0, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    for mode in MODES {
        let (tex, view) = target(&gpu, 16, 16);
        let mut graph = RenderGraph::new();
        let vb = graph.create_buffer("vertices", vertices.len() as u64);
        let ib = graph.create_buffer("indices", indices.len() as u64);
        let ab = graph.create_buffer("args", args.len() as u64);
        let out = kept(&mut graph, "out", 16, 16);
        let (v, i, a) = (vertices.clone(), indices.clone(), args.clone());
        graph
            .add_copy_pass("upload")
            .upload(vb)
            .upload(ib)
            .upload(ab)
            .execute(move |encoder, ctx| {
                ctx.upload(encoder, vb, 0, &v)?;
                ctx.upload(encoder, ib, 0, &i)?;
                ctx.upload(encoder, ab, 0, &a)?;
                Ok(())
            });
        let pipeline = &pipeline;
        graph
            .add_render_pass("draw")
            .vertex(vb)
            .index(ib)
            .indirect(ab)
            .color(out, Access::Clear)
            .execute(move |pass, ctx| {
                pass.set_pipeline(pipeline);
                pass.set_vertex_buffer(0, ctx.buffer(vb)?.slice(..));
                pass.set_index_buffer(ctx.buffer(ib)?.slice(..), wgpu::IndexFormat::Uint16);
                pass.draw_indexed_indirect(ctx.buffer(ab)?, 0);
                Ok(())
            });
        let imports = crate::support::output_imports(out, &tex, &view);
        execute(&gpu, &mut graph, &imports, mode);
        assert_eq!(pixel(&gpu, &tex, 2, 8), [255, 128, 0, 255], "{mode:?}");
        assert_eq!(pixel(&gpu, &tex, 13, 8), [0, 0, 0, 0], "{mode:?}");
    }
}

#[test]
fn an_upload_past_the_buffer_or_unaligned_is_refused_naming_it() {
    let gpu = crate::support::gpu();
    let (tex, view) = target(&gpu, 8, 8);
    for (offset, len, says) in [(8u64, 16usize, "go past"), (0, 6, "multiples of 4")] {
        let mut graph = RenderGraph::new();
        let b = graph.create_buffer("tint", 16);
        let out = kept(&mut graph, "out", 8, 8);
        graph
            .add_copy_pass("upload")
            .upload(b)
            .execute(move |encoder, ctx| {
                ctx.upload(encoder, b, offset, &vec![0; len])?;
                Ok(())
            });
        graph
            .add_render_pass("draw")
            .uniform(b)
            .color(out, Access::Clear)
            .execute(|_, _| Ok(()));
        let plan = graph.compile(&CompileOptions::default()).expect("compiles");
        let imports = crate::support::output_imports(out, &tex, &view);
        let mut executor = Executor::new(&gpu.device, &gpu.queue);
        let result = executor.execute(&mut graph, &plan, &imports, ExecuteMode::Planned);
        match result {
            Err(ExecuteError::Pass { pass, source }) => {
                assert_eq!(pass, "upload");
                let e = source.downcast::<ContextError>().expect("a context error");
                assert!(
                    matches!(&*e, ContextError::InvalidUpload { resource, message, .. }
                        if resource == "tint" && message.contains(says)),
                    "{e}"
                );
            }
            other => panic!("expected the upload to be refused, got {other:?}"),
        }
    }
}

const LAYERS: &str = r#"
@group(0) @binding(0) var layers: texture_2d_array<f32>;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(uv * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs(@builtin(position) p: vec4f) -> @location(0) vec4f {
    // Left half: the view's layer 0; right half: its layer 1.
    let layer = select(0, 1, p.x >= 8.0);
    return textureLoad(layers, vec2i(p.xy), layer, 0);
}
"#;

/// Declares three passes that clear layers 0, 1 and 2 of `arr` to red, green and blue, and a
/// pass `read` that samples `read` through `PassContext::view` and draws with `pipeline` into
/// `out`.
fn clear_layers_and_sample<'a>(
    graph: &mut RenderGraph<'a>,
    arr: TextureHandle,
    read: TextureRef,
    out: TextureHandle,
    pipeline: &'a wgpu::RenderPipeline,
    cache: &'a BindGroupCache,
) {
    let colors = [
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0, 1.0],
    ];
    for (layer, color) in colors.iter().enumerate() {
        graph
            .add_render_pass(&format!("clear{layer}"))
            .color_cleared(arr.layer(layer as u32), *color)
            .execute(|_, _| Ok(()));
    }
    graph
        .add_render_pass("read")
        .sample(read)
        .color(out, Access::Write)
        .execute(move |pass, ctx| {
            let view = ctx.view(read)?;
            let layout = pipeline.get_bind_group_layout(0);
            let group = cache.bind_group(ctx, &layout, &[Binding::View(view)])?;
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.draw(0..3, 0..1);
            Ok(())
        });
}

/// Layers `first` and `first + 1` of a four-layer array whose layers 0, 1 and 2 are cleared to
/// red, green and blue, sampled as `layers(first..first + 2)` and drawn side by side: the view
/// the context hands out has exactly those two layers, in order. Returns the left and right
/// pixels, or the execute error.
fn sample_layer_range(
    gpu: &Gpu,
    first: u32,
    mode: ExecuteMode,
) -> Result<[[u8; 4]; 2], ExecuteError> {
    let module = module(gpu, "layers", LAYERS);
    let pipeline = color_pipeline(&gpu.device, "layers", &module, None, ("vs", "fs"), FORMAT);
    let cache = BindGroupCache::new();
    let (tex, view) = target(gpu, 16, 16);
    let mut graph = RenderGraph::new();
    let arr = graph.create_texture("arr", TextureDesc::new(FORMAT, 16, 16).layers(4));
    let out = kept(&mut graph, "out", 16, 16);
    let range = arr.layers(first..first + 2);
    clear_layers_and_sample(&mut graph, arr, range, out, &pipeline, &cache);
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    // Layers outside the range are never read: their clears are culled.
    for layer in 0..3 {
        let read = (first..first + 2).contains(&layer);
        assert_eq!(plan.passes()[layer as usize].culled, !read, "clear{layer}");
    }
    let imports = crate::support::output_imports(out, &tex, &view);
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    executor.execute_and_submit(&mut graph, &plan, &imports, mode)?;
    crate::support::assert_no_gpu_errors(gpu);
    Ok([pixel(gpu, &tex, 3, 8), pixel(gpu, &tex, 12, 8)])
}

const RED: [u8; 4] = [255, 0, 0, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];

#[test]
fn a_layer_range_is_an_array_view_of_exactly_its_layers() {
    let gpu = crate::support::gpu();
    let gl = gpu.adapter.get_info().backend == wgpu::Backend::Gl;
    for mode in MODES {
        let from_zero = sample_layer_range(&gpu, 0, mode);
        assert_eq!(from_zero.expect("records"), [RED, GREEN], "{mode:?}");
        match sample_layer_range(&gpu, 1, mode) {
            // Where it records, it reads exactly its layers (on GL: where the view probe
            // found such views read right).
            Ok(pixels) => assert_eq!(pixels, [GREEN, BLUE], "{mode:?}"),
            // wgpu's GL backend binds the whole texture; where the probe found a view past
            // layer 0 read wrongly, refused up front, naming the pass, the texture and the
            // view, instead of an image that silently differs.
            Err(ExecuteError::Unsupported {
                pass,
                resource,
                message,
            }) if gl => {
                assert_eq!((pass.as_str(), resource.as_str()), ("read", "arr"));
                assert!(
                    message.contains("layers that start past layer 0"),
                    "{message}"
                );
            }
            Err(e) => panic!("{mode:?}: {e}"),
        }
    }
}

const ONE_LAYER: &str = r#"
@group(0) @binding(0) var layer: texture_2d<f32>;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(uv * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs(@builtin(position) p: vec4f) -> @location(0) vec4f {
    return textureLoad(layer, vec2i(p.xy), 0);
}
"#;

/// Layer `layer` of a three-layer array cleared to red, green and blue, sampled alone through
/// `PassContext::view` as a 2D texture: the pixel drawn, or the execute error.
fn sample_one_layer(gpu: &Gpu, layer: u32, mode: ExecuteMode) -> Result<[u8; 4], ExecuteError> {
    let module = module(gpu, "one layer", ONE_LAYER);
    let pipeline = color_pipeline(
        &gpu.device,
        "one layer",
        &module,
        None,
        ("vs", "fs"),
        FORMAT,
    );
    let cache = BindGroupCache::new();
    let (tex, view) = target(gpu, 8, 8);
    let mut graph = RenderGraph::new();
    let arr = graph.create_texture("arr", TextureDesc::new(FORMAT, 8, 8).layers(3));
    let out = kept(&mut graph, "out", 8, 8);
    clear_layers_and_sample(
        &mut graph,
        arr,
        arr.layer(layer).into(),
        out,
        &pipeline,
        &cache,
    );
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let imports = crate::support::output_imports(out, &tex, &view);
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    executor.execute_and_submit(&mut graph, &plan, &imports, mode)?;
    crate::support::assert_no_gpu_errors(gpu);
    Ok(pixel(gpu, &tex, 4, 4))
}

/// One layer of an array sampled alone through `PassContext::view`: that layer on Vulkan; on
/// GL (which holds the array as a 2D-array texture, so a 2D view of any of its layers reads
/// another texture) the typed refusal naming the pass and the texture, for layer 0 as for
/// layer 2, not an image that silently differs.
#[test]
fn one_layer_sampled_alone_is_that_layer_or_refused_on_gl() {
    let gpu = crate::support::gpu();
    let gl = gpu.adapter.get_info().backend == wgpu::Backend::Gl;
    for mode in MODES {
        for (layer, color) in [(0, RED), (2, BLUE)] {
            match sample_one_layer(&gpu, layer, mode) {
                // Where it records, it reads that layer (on GL: where the view probe found a
                // 2D view of one layer read right).
                Ok(pixel) => assert_eq!(pixel, color, "{mode:?}"),
                // Refused when the pass asks for the view where such views read another
                // texture (wgpu's GL backend binds the whole array as a 2D-array texture).
                Err(ExecuteError::Pass { pass, source }) if gl => {
                    assert_eq!(pass, "read");
                    let e = source.downcast::<ContextError>().expect("a context error");
                    let view = if layer == 0 {
                        "layer 0"
                    } else {
                        "one layer past layer 0"
                    };
                    assert!(
                        matches!(&*e, ContextError::Unsupported { resource, message, .. }
                            if resource == "arr" && message.contains(view)),
                        "{e}"
                    );
                }
                Err(e) => panic!("{mode:?}: {e}"),
            }
        }
    }
}

/// A multisampled colour cleared with its own value and resolved, nothing drawn: the resolve
/// target holds the clear value (alpha included), in every mode.
#[test]
fn a_cleared_resolve_keeps_its_clear_value() {
    let gpu = crate::support::gpu();
    for mode in MODES {
        let (tex, view) = target(&gpu, 8, 8);
        let mut graph = RenderGraph::new();
        let msaa = graph.create_texture("msaa", TextureDesc::new(FORMAT, 8, 8).samples(4));
        let out = kept(&mut graph, "out", 8, 8);
        graph
            .add_render_pass("clear")
            .color_resolved_cleared(msaa, [0.25, 0.5, 0.75, 1.0], out)
            .execute(|_, _| Ok(()));
        let imports = crate::support::output_imports(out, &tex, &view);
        execute(&gpu, &mut graph, &imports, mode);
        let [r, g, b, a] = pixel(&gpu, &tex, 4, 4);
        assert!(
            r.abs_diff(64) <= 1 && g.abs_diff(128) <= 1 && b.abs_diff(191) <= 1 && a == 255,
            "{mode:?}: {:?}",
            [r, g, b, a]
        );
    }
}

/// A bind group wgpu refuses (a texture where the layout wants a uniform buffer) is an error
/// each time it is asked for, never a cached invalid bind group.
#[test]
fn a_bind_group_wgpu_refuses_is_not_cached() {
    let gpu = crate::support::gpu();
    let module = module(&gpu, "uniform colour", UNIFORM_COLOR);
    let pipeline = ShaderPipeline::new("tint", &module, ("vs", "fs"), &[Some(FORMAT.into())])
        .create(&gpu.device);
    let cache = BindGroupCache::new();
    let seen = std::sync::Mutex::new(Vec::new());
    let (tex, view) = target(&gpu, 8, 8);
    let mut graph = RenderGraph::new();
    let scene = graph.create_texture("scene", TextureDesc::new(FORMAT, 8, 8));
    let out = kept(&mut graph, "out", 8, 8);
    crate::support::clear_pass(&mut graph, "scene", scene);
    let (pipeline, cache_ref, seen_ref) = (&pipeline, &cache, &seen);
    graph
        .add_render_pass("wrong")
        .sample(scene)
        .color(out, Access::Clear)
        .execute(move |_, ctx| {
            let layout = pipeline.get_bind_group_layout(0);
            for _ in 0..2 {
                let result = cache_ref.bind_group(ctx, &layout, &[Binding::Texture(scene.into())]);
                seen_ref.lock().unwrap().push(result.map(drop));
            }
            Ok(())
        });
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let imports = crate::support::output_imports(out, &tex, &view);
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    executor
        .execute_and_submit(&mut graph, &plan, &imports, ExecuteMode::Planned)
        .expect("the closure itself succeeds");
    drop(graph);
    let seen = seen.into_inner().unwrap();
    assert_eq!(seen.len(), 2);
    for result in &seen {
        assert!(
            matches!(result, Err(ContextError::BindGroup { pass, .. }) if pass == "wrong"),
            "{result:?}"
        );
    }
    assert_eq!(cache.stats().len, 0, "an invalid bind group was cached");
    assert_eq!(cache.stats().misses, 2);
    crate::support::assert_no_gpu_errors(&gpu);
}
