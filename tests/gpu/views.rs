//! Views and read-backs of every texture shape on the adapter: a cube's faces read back (drawn
//! out on wgpu's GL backend, which copies none), and six square layers sampled as an array read
//! the layer they name or are refused (the view probe), never another one.

use tilegraph::helpers::{BindGroupCache, Binding, ReadbackError, read_subresource};
use tilegraph::wgpu;
use tilegraph::{
    Access, CompileOptions, ContextError, ExecuteError, ExecuteMode, Executor, Import, RenderGraph,
    TextureDesc, TextureHandle,
};
use tilegraph_tool::headless::{Gpu, color_pipeline};

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
const SIZE: u32 = 8;

/// The clear colour of face `f`, and the bytes it reads back as.
fn face_colour(f: u32) -> ([f64; 4], [u8; 4]) {
    let bytes = [
        40 * (f as u8 + 1),
        255 - 40 * f as u8,
        if f.is_multiple_of(2) { 255 } else { 0 },
        255,
    ];
    let unit = bytes.map(|b| f64::from(b) / 255.0);
    (unit, bytes)
}

/// A six-layer square texture (a cube map on GL) with each face cleared by a pass of its own,
/// imported from `texture`.
fn clear_faces(graph: &mut RenderGraph<'_>, name: &str) -> TextureHandle {
    let desc = TextureDesc::new(FORMAT, SIZE, SIZE).layers(6);
    let cube = graph.import_texture(name, desc, Import::OUTPUT);
    for f in 0..6 {
        graph
            .add_render_pass(&format!("face{f}"))
            .color_cleared(cube.layer(f), face_colour(f).0)
            .execute(|_, _| Ok(()));
    }
    cube
}

fn cube_texture(gpu: &Gpu, usage: wgpu::TextureUsages) -> (wgpu::Texture, wgpu::TextureView) {
    let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("cube"),
        size: wgpu::Extent3d {
            width: SIZE,
            height: SIZE,
            depth_or_array_layers: 6,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: FORMAT,
        usage: usage | wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(wgpu::TextureViewDimension::D2Array),
        ..Default::default()
    });
    (texture, view)
}

/// Every face of a cube rendered face by face reads back as its own colour, on every backend:
/// on GL through a draw, which needs `TEXTURE_BINDING`; without it GL's read-back is a typed
/// error naming why, never the bytes of a buffer nothing wrote.
#[test]
fn every_face_of_a_cube_reads_back_or_is_a_typed_error() {
    let gpu = crate::support::gpu();
    let gl = gpu.adapter.get_info().backend == wgpu::Backend::Gl;
    for sampled in [true, false] {
        let usage = if sampled {
            wgpu::TextureUsages::TEXTURE_BINDING
        } else {
            wgpu::TextureUsages::empty()
        };
        let (texture, view) = cube_texture(&gpu, usage);
        let mut graph = RenderGraph::new();
        let cube = clear_faces(&mut graph, "cube");
        let plan = graph.compile(&CompileOptions::default()).expect("compiles");
        let imports = crate::support::output_imports(cube, &texture, &view);
        Executor::new(&gpu.device, &gpu.queue)
            .execute_and_submit(&mut graph, &plan, &imports, ExecuteMode::Planned)
            .expect("records");
        for f in 0..6 {
            match read_subresource(&gpu.device, &gpu.queue, &texture, 0, f) {
                Ok(back) => {
                    assert!(sampled || !gl, "GL read a cube without TEXTURE_BINDING");
                    let want = face_colour(f).1;
                    assert!(
                        back.bytes.chunks_exact(4).all(|t| t == want),
                        "face {f}: {:?}, want {want:?}",
                        &back.bytes[..4]
                    );
                }
                Err(ReadbackError::UnreadableOnBackend { format, reason }) if gl && !sampled => {
                    assert_eq!(format, FORMAT);
                    assert!(reason.contains("TEXTURE_BINDING"), "{reason}");
                }
                Err(e) => panic!("face {f} (TEXTURE_BINDING: {sampled}): {e}"),
            }
        }
        crate::support::assert_no_gpu_errors(&gpu);
    }
}

const LAYER_4: &str = r"
@group(0) @binding(0) var faces: texture_2d_array<f32>;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(uv * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4f { return textureLoad(faces, vec2i(0, 0), 4, 0); }
";

/// Six square layers sampled whole through `PassContext::view` (an array view) read the layer
/// the shader names where the adapter reads such views right; where the view probe found them
/// read wrongly (wgpu's GL backend makes such a texture a cube map), the pass's view is refused
/// with a typed error naming pass, resource and view.
#[test]
fn six_square_layers_sampled_as_an_array_read_their_layer_or_are_refused() {
    let gpu = crate::support::gpu();
    let gl = gpu.adapter.get_info().backend == wgpu::Backend::Gl;
    let module = gpu
        .device
        .create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("layer 4"),
            source: wgpu::ShaderSource::Wgsl(LAYER_4.into()),
        });
    let pipeline = color_pipeline(&gpu.device, "layer 4", &module, None, ("vs", "fs"), FORMAT);
    let cache = BindGroupCache::new();
    let (out_texture, out_view) = gpu.target(
        "out",
        (SIZE, SIZE),
        FORMAT,
        wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
    );
    let mut graph = RenderGraph::new();
    let desc = TextureDesc::new(FORMAT, SIZE, SIZE).layers(6);
    let faces = graph.create_texture("faces", desc);
    for f in 0..6 {
        graph
            .add_render_pass(&format!("face{f}"))
            .color_cleared(faces.layer(f), face_colour(f).0)
            .execute(|_, _| Ok(()));
    }
    let out = graph.import_texture("out", TextureDesc::new(FORMAT, SIZE, SIZE), Import::OUTPUT);
    let (pipeline, cache) = (&pipeline, &cache);
    graph
        .add_render_pass("read")
        .sample(faces)
        .color(out, Access::Write)
        .execute(move |pass, ctx| {
            let layout = pipeline.get_bind_group_layout(0);
            let group = cache.bind_group(ctx, &layout, &[Binding::Texture(faces.into())])?;
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.draw(0..3, 0..1);
            Ok(())
        });
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let imports = crate::support::output_imports(out, &out_texture, &out_view);
    let result = Executor::new(&gpu.device, &gpu.queue).execute_and_submit(
        &mut graph,
        &plan,
        &imports,
        ExecuteMode::Planned,
    );
    match result {
        Ok(_) => {
            let back = gpu.read_texture(&out_texture).expect("reads back");
            assert_eq!(&back.bytes[..4], &face_colour(4).1);
        }
        Err(ExecuteError::Pass { pass, source }) if gl => {
            assert_eq!(pass, "read");
            let e = source.downcast::<ContextError>().expect("a context error");
            assert!(
                matches!(&*e, ContextError::Unsupported { resource, message, .. }
                    if resource == "faces" && message.contains("six square layers")),
                "{e}"
            );
        }
        Err(e) => panic!("{e}"),
    }
}
