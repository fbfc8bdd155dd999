//! Multiview passes on a real adapter: one multiview render pass where the device has
//! `Features::MULTIVIEW` (lavapipe), one render pass per view elsewhere (llvmpipe's GL) or when
//! the executor is told so; the same layers either way, in every mode.

use std::sync::Mutex;

use tilegraph::helpers::ViewPipelines;
use tilegraph::wgpu;
use tilegraph::{
    Access, CompileOptions, ExecuteError, ExecuteMode, Executor, ExecutorOptions, Import,
    PassError, RenderGraph, TextureDesc, Views,
};
use tilegraph_tool::headless::{Gpu, ShaderPipeline};

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
const SIZE: (u32, u32) = (64, 32);
/// What view `v` draws: red, green, blue, ...
const COLORS: [[u8; 4]; 4] = [
    [255, 0, 0, 255],
    [0, 255, 0, 255],
    [0, 0, 255, 255],
    [255, 255, 0, 255],
];

/// One shader for both recordings: the vertex stage takes the view as `@builtin(view_index)`
/// (a constant in the pipelines of one view: `helpers::ViewPipelines`) and hands it on.
const SHADER: &str = "
struct V {
    @builtin(position) pos: vec4f,
    @location(0) @interpolate(flat) view: u32,
}
@vertex fn vs(@builtin(vertex_index) i: u32, @builtin(view_index) view: u32) -> V {
    // A quad inside the target (lavapipe's multiview drops guard-band triangles past view 0).
    var p = array(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(-1.0, 1.0),
                  vec2f(1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0));
    return V(vec4f(p[i], 0.5, 1.0), view);
}
@fragment fn fs(v: V) -> @location(0) vec4f {
    var c = array(vec4f(1.0, 0.0, 0.0, 1.0), vec4f(0.0, 1.0, 0.0, 1.0),
                  vec4f(0.0, 0.0, 1.0, 1.0), vec4f(1.0, 1.0, 0.0, 1.0));
    return c[v.view];
}
";

/// Pipelines that draw each view in its colour, for either recording of a multiview pass;
/// `wrong` stands in for them all (a pipeline made for another recording).
struct Pipelines {
    views: ViewPipelines,
    wrong: Option<wgpu::RenderPipeline>,
}

impl Pipelines {
    /// Draws the quad with the pipeline for the way the pass is recorded.
    fn draw(&self, rpass: &mut wgpu::RenderPass<'_>, views: Views) -> Result<(), PassError> {
        let pipeline = match &self.wrong {
            Some(wrong) => wrong,
            None => self.views.get(views)?,
        };
        rpass.set_pipeline(pipeline);
        rpass.draw(0..6, 0..1);
        Ok(())
    }
}

fn pipelines(gpu: &Gpu, views: u32, samples: u32) -> Pipelines {
    let device = &gpu.device;
    let pipelines = ViewPipelines::new(device, "views", SHADER, views, |v| {
        ShaderPipeline {
            multisample: wgpu::MultisampleState {
                count: samples,
                ..Default::default()
            },
            constants: v.constants,
            multiview_mask: v.multiview_mask,
            ..ShaderPipeline::new("views", v.module, ("vs", "fs"), &[Some(FORMAT.into())])
        }
        .create(device)
    })
    .expect("the vertex stage takes the view");
    Pipelines {
        views: pipelines,
        wrong: None,
    }
}

/// Every texel of layer `v` of `texture` holds view `v`'s colour, for its first `views` layers.
fn assert_views_in_layers(gpu: &Gpu, texture: &wgpu::Texture, views: u32, what: &str) {
    for layer in 0..views {
        let texels = read_layer(gpu, texture, layer);
        let wrong = texels
            .chunks(4)
            .filter(|t| *t != COLORS[layer as usize])
            .count();
        assert_eq!(wrong, 0, "layer {layer}: {what}");
    }
}

/// An array texture the test owns, readable layer by layer.
fn layers(gpu: &Gpu, count: u32) -> (wgpu::Texture, wgpu::TextureView) {
    let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("eyes"),
        size: wgpu::Extent3d {
            width: SIZE.0,
            height: SIZE.1,
            depth_or_array_layers: count,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::COPY_SRC
            | wgpu::TextureUsages::COPY_DST
            | wgpu::TextureUsages::TEXTURE_BINDING,
        view_formats: &[],
    });
    let view = texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(wgpu::TextureViewDimension::D2Array),
        ..Default::default()
    });
    (texture, view)
}

/// The texels of one layer.
fn read_layer(gpu: &Gpu, texture: &wgpu::Texture, layer: u32) -> Vec<u8> {
    let usage = wgpu::TextureUsages::COPY_DST
        | wgpu::TextureUsages::COPY_SRC
        | wgpu::TextureUsages::TEXTURE_BINDING;
    let (single, _) = gpu.target("layer", SIZE, FORMAT, usage);
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    encoder.copy_texture_to_texture(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d {
                x: 0,
                y: 0,
                z: layer,
            },
            aspect: wgpu::TextureAspect::All,
        },
        single.as_image_copy(),
        single.size(),
    );
    gpu.queue.submit([encoder.finish()]);
    gpu.read_texture(&single).expect("reads back").bytes
}

/// One frame: `views` draws every view of an array (through a multisampled array resolved
/// into it when `samples` > 1). Returns the `Views` each call of the closure saw.
fn stereo_frame(
    gpu: &Gpu,
    executor: &mut Executor,
    target: &(wgpu::Texture, wgpu::TextureView),
    views: u32,
    samples: u32,
    mode: ExecuteMode,
    pipelines: &Pipelines,
) -> Result<Vec<Views>, ExecuteError> {
    let seen = Mutex::new(Vec::new());
    let mut graph = RenderGraph::new();
    let desc = TextureDesc::new(FORMAT, SIZE.0, SIZE.1).layers(views);
    let eyes = graph.import_texture("eyes", desc, Import::OUTPUT);
    let msaa = (samples > 1).then(|| graph.create_texture("eyes_msaa", desc.samples(samples)));
    let pass = graph.add_render_pass("views").multiview(views);
    let pass = match msaa {
        Some(msaa) => pass.color_resolved(msaa, Access::Clear, eyes),
        None => pass.color(eyes, Access::Clear),
    };
    pass.execute(|rpass, ctx| {
        seen.lock().unwrap().push(ctx.views());
        pipelines.draw(rpass, ctx.views())
    });
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let imports = crate::support::output_imports(eyes, &target.0, &target.1);
    executor.execute_and_submit(&mut graph, &plan, &imports, mode)?;
    drop(graph);
    crate::support::assert_no_gpu_errors(gpu);
    Ok(seen.into_inner().unwrap())
}

fn multiview_device(gpu: &Gpu) -> bool {
    Views::multiview_supported(&gpu.device)
}

#[test]
fn lavapipe_has_multiview_and_gl_does_not() {
    let gpu = crate::support::gpu();
    let info = gpu.adapter.get_info();
    let executor = Executor::new(&gpu.device, &gpu.queue);
    match info.backend {
        wgpu::Backend::Vulkan => assert!(
            executor.multiview_enabled(),
            "{} has no multiview",
            info.name
        ),
        wgpu::Backend::Gl => assert!(!multiview_device(&gpu), "GL has no multiview in wgpu"),
        _ => {}
    }
    let off = Executor::with_options(
        &gpu.device,
        &gpu.queue,
        ExecutorOptions::default().with_multiview(false),
    );
    assert!(!off.multiview_enabled());
}

#[test]
fn every_view_lands_in_its_layer_either_way_in_every_mode() {
    let gpu = crate::support::gpu();
    for samples in [1, 4] {
        let pipelines = pipelines(&gpu, 2, samples);
        for multiview in [true, false] {
            let mut executor = crate::support::multiview_executor(&gpu, multiview);
            for mode in crate::support::MODES {
                let target = layers(&gpu, 2);
                let seen = stereo_frame(&gpu, &mut executor, &target, 2, samples, mode, &pipelines)
                    .unwrap_or_else(|e| panic!("{mode} samples {samples}: {e}"));
                let expected = if executor.multiview_enabled() {
                    vec![Views::Multiview { count: 2 }]
                } else {
                    vec![
                        Views::PerView { view: 0, count: 2 },
                        Views::PerView { view: 1, count: 2 },
                    ]
                };
                assert_eq!(seen, expected, "{mode}, multiview {multiview}");
                assert_views_in_layers(
                    &gpu,
                    &target.0,
                    2,
                    &format!("{mode}, multiview {multiview}, samples {samples}"),
                );
            }
        }
    }
}

#[test]
fn a_pipeline_for_the_other_recording_is_a_validation_error_naming_the_pass() {
    let gpu = crate::support::gpu();
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    let mut pipelines = pipelines(&gpu, 2, 1);
    let target = layers(&gpu, 2);
    let one_view = Views::PerView { view: 0, count: 2 };
    pipelines.wrong = Some(if executor.multiview_enabled() {
        // A pipeline without `multiview_mask` in a multiview render pass.
        pipelines.views.get(one_view).unwrap().clone()
    } else {
        // Where passes record per view, the multiview pipeline is refused at creation; a
        // pipeline of another sample count stands for the mismatch.
        self::pipelines(&gpu, 2, 4)
            .views
            .get(one_view)
            .unwrap()
            .clone()
    });
    let result = stereo_frame(
        &gpu,
        &mut executor,
        &target,
        2,
        1,
        ExecuteMode::Planned,
        &pipelines,
    );
    match result {
        Err(ExecuteError::Validation { pass, message }) => {
            assert_eq!(pass.as_deref(), Some("views"), "{message}")
        }
        other => panic!("expected a validation error naming `views`, got {other:?}"),
    }
    let _ = gpu.take_uncaptured_errors();
}

#[test]
fn more_views_than_the_device_renders_at_once() {
    let gpu = crate::support::gpu();
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    let limit = gpu.device.limits().max_multiview_view_count;
    if executor.multiview_enabled() {
        let views = limit + 1;
        // Refused before anything is recorded: the pipelines are never used.
        let pipelines = pipelines(&gpu, 2, 1);
        let target = layers(&gpu, views);
        match stereo_frame(
            &gpu,
            &mut executor,
            &target,
            views,
            1,
            ExecuteMode::Planned,
            &pipelines,
        ) {
            Err(e @ ExecuteError::MultiviewLimit { .. }) => {
                assert!(e.to_string().contains("`views`"), "{e}")
            }
            other => panic!("expected MultiviewLimit, got {other:?}"),
        }
    } else {
        // Without multiview there is no such limit: four views are four render passes.
        let pipelines = pipelines(&gpu, 4, 1);
        let target = layers(&gpu, 4);
        let seen = stereo_frame(
            &gpu,
            &mut executor,
            &target,
            4,
            1,
            ExecuteMode::Planned,
            &pipelines,
        )
        .expect("records");
        assert_eq!(seen.len(), 4);
        assert_views_in_layers(&gpu, &target.0, 4, "four views");
    }
}

/// A multiview group is timed as one group either way: recorded per view, its first render
/// pass writes the start and its last the end.
#[test]
fn a_multiview_group_is_timed_whole_either_way() {
    let gpu = crate::support::gpu();
    if !crate::support::can_time(&gpu) {
        return;
    }
    let pipelines = pipelines(&gpu, 2, 4);
    for multiview in [true, false] {
        let mut executor = Executor::with_options(
            &gpu.device,
            &gpu.queue,
            ExecutorOptions::default()
                .with_multiview(multiview)
                .with_timestamps(true),
        );
        assert!(executor.timestamps_enabled());
        let target = layers(&gpu, 2);
        stereo_frame(
            &gpu,
            &mut executor,
            &target,
            2,
            4,
            ExecuteMode::Planned,
            &pipelines,
        )
        .unwrap_or_else(|e| panic!("multiview {multiview}: {e}"));
        let timings = executor.read_timings();
        let labels: Vec<&str> = timings.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels, ["views"], "multiview {multiview}");
        // An end timestamp never written reads as a start-relative wrap-around of years.
        let ns = timings[0].nanoseconds;
        assert!(
            ns.is_finite() && (0.0..1e10).contains(&ns),
            "multiview {multiview}: {:?}",
            timings[0]
        );
    }
}

/// One frame drawing every view into a graph-owned array, then copying it into `target`.
fn pooled_stereo_frame(
    gpu: &Gpu,
    executor: &mut Executor,
    target: &(wgpu::Texture, wgpu::TextureView),
    pipelines: &Pipelines,
) -> Result<(), ExecuteError> {
    let mut graph = RenderGraph::new();
    let desc = TextureDesc::new(FORMAT, SIZE.0, SIZE.1).layers(2);
    let eyes = graph.import_texture("eyes", desc, Import::OUTPUT);
    let scene = graph.create_texture("scene", desc);
    graph
        .add_render_pass("views")
        .multiview(2)
        .color(scene, Access::Clear)
        .execute(|rpass, ctx| pipelines.draw(rpass, ctx.views()));
    crate::support::copy_pass(&mut graph, "present", scene, eyes);
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let imports = crate::support::output_imports(eyes, &target.0, &target.1);
    executor.execute_and_submit(&mut graph, &plan, &imports, ExecuteMode::Planned)?;
    drop(graph);
    crate::support::assert_no_gpu_errors(gpu);
    Ok(())
}

/// The 2D-array view a multiview render pass attaches to a pooled texture is made with the
/// frame that first needs it and kept with the texture's other views: steady frames hold the
/// same views, and recording makes none.
#[test]
fn multiview_attachment_views_are_kept_with_the_pooled_texture() {
    let gpu = crate::support::gpu();
    let pipelines = pipelines(&gpu, 2, 1);
    for multiview in [true, false] {
        let mut executor = crate::support::multiview_executor(&gpu, multiview);
        let target = layers(&gpu, 2);
        let mut held = Vec::new();
        for frame in 0..4 {
            pooled_stereo_frame(&gpu, &mut executor, &target, &pipelines)
                .unwrap_or_else(|e| panic!("multiview {multiview}, frame {frame}: {e}"));
            held.push(executor.stats().texture_views);
        }
        // `scene`: its whole view and one per layer; recorded as one multiview render pass,
        // also the 2D-array view of both layers.
        let expected = 3 + usize::from(executor.multiview_enabled());
        assert_eq!(held, [expected; 4], "multiview {multiview}");
        assert_eq!(executor.pool_stats().textures_created, 1);
        assert_views_in_layers(&gpu, &target.0, 2, &format!("multiview {multiview}"));
    }
}

const VIEW_TINT: &str = "
struct Tint { colors: array<vec4f, 2> }
@group(0) @binding(0) var<uniform> tint: Tint;
@fragment fn fs(in: FullscreenVertex) -> @location(0) vec4f { return tint.colors[in.view]; }
";

/// `helpers::FullscreenViews`: one fragment stage, every way of recording a pass of two views;
/// each view reads its own index and lands in its own layer, with and without multiview, in
/// every mode, the quad covering every pixel.
#[test]
fn a_fullscreen_pass_of_two_views_draws_each_view_into_its_layer() {
    use tilegraph::helpers::{BindGroupCache, Binding, FullscreenShader, FullscreenViews};
    use tilegraph::wgpu::util::DeviceExt;
    let gpu = crate::support::gpu();
    let colors: Vec<u8> = [[1.0f32, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 1.0]]
        .iter()
        .flatten()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let tint = gpu
        .device
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("view tint"),
            contents: &colors,
            usage: wgpu::BufferUsages::UNIFORM,
        });
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let shader = FullscreenShader {
        label: "views",
        source: VIEW_TINT,
        entry: "fs",
        targets: &[Some(FORMAT.into())],
    };
    let views = FullscreenViews::from_shader(&gpu.device, &shader, 2);
    if let Some(e) = pollster::block_on(scope.pop()) {
        panic!("creating the pipelines: {e}");
    }
    let cache = BindGroupCache::new();
    for multiview in [true, false] {
        let mut executor = crate::support::multiview_executor(&gpu, multiview);
        for mode in crate::support::MODES {
            let target = layers(&gpu, 2);
            let mut graph = RenderGraph::new();
            let eyes = graph.import_texture(
                "eyes",
                TextureDesc::new(FORMAT, SIZE.0, SIZE.1).layers(2),
                Import::OUTPUT,
            );
            let (views, cache, tint) = (&views, &cache, &tint);
            graph
                .add_render_pass("post")
                .multiview(2)
                .color(eyes, Access::Write)
                .execute(move |pass, ctx| {
                    views.draw(pass, ctx, cache, &[Binding::ExternalBuffer(tint)])
                });
            let plan = graph.compile(&CompileOptions::default()).expect("compiles");
            let imports = crate::support::output_imports(eyes, &target.0, &target.1);
            executor
                .execute_and_submit(&mut graph, &plan, &imports, mode)
                .unwrap_or_else(|e| panic!("{mode}, multiview {multiview}: {e}"));
            drop(graph);
            crate::support::assert_no_gpu_errors(&gpu);
            assert_views_in_layers(
                &gpu,
                &target.0,
                2,
                &format!("{mode}, multiview {multiview}"),
            );
            cache.next_frame();
        }
    }
}

/// A multiview MSAA pass at base layer 2 of a four-layer array, resolved into the two layers of
/// its target: each view lands in its own layer, with and without multiview, in every mode.
/// lavapipe resolves nothing from such a pass; the executor's start-up probe finds it and
/// records the pass per view there, over one texture per layer.
#[test]
fn a_multiview_msaa_pass_at_a_later_base_layer_resolves_each_view_into_its_layer() {
    let gpu = crate::support::gpu();
    let pipelines = pipelines(&gpu, 2, 4);
    let seen = Mutex::new(Vec::new());
    let info = gpu.adapter.get_info();
    let lavapipe = info.backend == wgpu::Backend::Vulkan && info.name.starts_with("llvmpipe");
    for multiview in [true, false] {
        let mut executor = crate::support::multiview_executor(&gpu, multiview);
        for mode in crate::support::MODES {
            let target = layers(&gpu, 2);
            let mut graph = RenderGraph::new();
            let desc = TextureDesc::new(FORMAT, SIZE.0, SIZE.1);
            let eyes = graph.import_texture("eyes", desc.layers(2), Import::OUTPUT);
            let msaa = graph.create_texture("msaa", desc.layers(4).samples(4));
            let (pipelines, seen) = (&pipelines, &seen);
            graph
                .add_render_pass("views")
                .multiview(2)
                .color_resolved(msaa.layer(2), Access::Clear, eyes)
                .execute(move |rpass, ctx| {
                    seen.lock().unwrap().push(ctx.views());
                    pipelines.draw(rpass, ctx.views())
                });
            let plan = graph.compile(&CompileOptions::default()).expect("compiles");
            let imports = crate::support::output_imports(eyes, &target.0, &target.1);
            executor
                .execute_and_submit(&mut graph, &plan, &imports, mode)
                .unwrap_or_else(|e| panic!("{mode}: {e}"));
            drop(graph);
            crate::support::assert_no_gpu_errors(&gpu);
            assert_views_in_layers(
                &gpu,
                &target.0,
                2,
                &format!("{mode}, multiview {multiview}"),
            );
            // lavapipe: the probe found that such a pass resolves nothing, so it went per view.
            let views = std::mem::take(&mut *seen.lock().unwrap());
            if lavapipe && multiview {
                assert!(
                    views.iter().all(|v| matches!(v, Views::PerView { .. })),
                    "{mode}: {views:?}"
                );
            }
        }
    }
}
