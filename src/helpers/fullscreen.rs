//! Full-screen passes: one triangle (or, over several views, one quad) with a shared vertex
//! stage, the fragment stage reading bind group 0.

use super::views::for_views;
use super::{BindGroupCache, Binding};
use crate::context::{PassContext, PassError, Views};

/// The vertex stage every [`FullscreenPipeline`] shares: entry point `fullscreen_vs`, one
/// triangle (vertices `0..3`, no buffers) that covers the render target, passing the struct
/// `FullscreenVertex` with `uv` at `@location(0)`: (0, 0) at the top-left corner, (1, 1) at the
/// bottom-right.
///
/// A fragment stage declares its input as `FullscreenVertex` or as
/// `@builtin(position) frag: vec4<f32>, @location(0) uv: vec2<f32>`.
pub const FULLSCREEN_VERTEX_WGSL: &str = r#"
struct FullscreenVertex {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

@vertex
fn fullscreen_vs(@builtin(vertex_index) index: u32) -> FullscreenVertex {
    // (0, 0), (2, 0), (0, 2): one triangle whose inner corner covers the target.
    let corner = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    var out: FullscreenVertex;
    out.position = vec4<f32>(corner.x * 2.0 - 1.0, 1.0 - corner.y * 2.0, 0.0, 1.0);
    out.uv = corner;
    return out;
}
"#;

/// A full-screen pass: one render pipeline whose vertex stage is [`FULLSCREEN_VERTEX_WGSL`] and
/// whose fragment stage reads its resources from bind group 0, drawn as one triangle.
///
/// The triangle covers every pixel of the render target, so with no blending, a full write
/// mask and no depth test the pass may declare its colour targets
/// [`Access::Write`](crate::Access::Write) and let a `DontCare` load skip the target's prior contents.
#[derive(Debug, Clone)]
pub struct FullscreenPipeline {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
}

/// What a full-screen pipeline is made of: the module holding `fullscreen_vs` and the fragment
/// entry point, the targets, the multiview mask and the vertex stage's override constants.
struct Stages<'s> {
    label: &'s str,
    module: &'s wgpu::ShaderModule,
    entry: &'s str,
    targets: &'s [Option<wgpu::ColorTargetState>],
    multiview_mask: Option<std::num::NonZeroU32>,
    constants: &'s [(&'s str, f64)],
}

impl FullscreenPipeline {
    /// A pipeline of the shared vertex stage and the fragment entry point `entry` of `source`
    /// (WGSL without a vertex stage; [`FULLSCREEN_VERTEX_WGSL`] is prepended), rendering to
    /// `targets`. The bind group layout is derived from the shader: group 0 must bind at least
    /// one resource.
    pub fn new(
        device: &wgpu::Device,
        label: &str,
        source: &str,
        entry: &str,
        targets: &[Option<wgpu::ColorTargetState>],
    ) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl([FULLSCREEN_VERTEX_WGSL, source].concat().into()),
        });
        let stages = Stages {
            label,
            module: &module,
            entry,
            targets,
            multiview_mask: None,
            constants: &[],
        };
        Self::of_stages(device, stages)
    }

    /// The pipeline of `stages`, with the bind group layout the shader implies.
    fn of_stages(device: &wgpu::Device, stages: Stages<'_>) -> Self {
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(stages.label),
            layout: None,
            vertex: wgpu::VertexState {
                module: stages.module,
                entry_point: Some("fullscreen_vs"),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: stages.constants,
                    ..Default::default()
                },
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: stages.module,
                entry_point: Some(stages.entry),
                compilation_options: Default::default(),
                targets: stages.targets,
            }),
            multiview_mask: stages.multiview_mask,
            cache: None,
        });
        let layout = pipeline.get_bind_group_layout(0);
        FullscreenPipeline { pipeline, layout }
    }

    /// A pipeline writing one colour target of `format`, without blending.
    pub fn single(
        device: &wgpu::Device,
        label: &str,
        source: &str,
        entry: &str,
        format: wgpu::TextureFormat,
    ) -> Self {
        Self::new(device, label, source, entry, &[Some(format.into())])
    }

    /// The render pipeline.
    pub fn pipeline(&self) -> &wgpu::RenderPipeline {
        &self.pipeline
    }

    /// The layout of bind group 0. The same object every time, so it keys a [`BindGroupCache`].
    pub fn layout(&self) -> &wgpu::BindGroupLayout {
        &self.layout
    }

    /// Binds `bindings` (resolved through `ctx`, cached in `cache`) as group 0 and draws the
    /// triangle: the whole body of a full-screen pass's closure.
    pub fn draw(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        ctx: &PassContext<'_>,
        cache: &BindGroupCache,
        bindings: &[Binding<'_>],
    ) -> Result<(), PassError> {
        let group = cache.bind_group(ctx, &self.layout, bindings)?;
        self.draw_with(pass, &group);
        Ok(())
    }

    /// Draws the triangle with a bind group made elsewhere.
    pub fn draw_with(&self, pass: &mut wgpu::RenderPass<'_>, group: &wgpu::BindGroup) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.draw(0..3, 0..1);
    }
}

/// The vertex stage of a [`FullscreenViews`] pipeline: [`FULLSCREEN_VERTEX_WGSL`]'s
/// `FullscreenVertex` with the view being drawn at `@location(1)`. It draws a quad inside the
/// target rather than one large triangle: lavapipe's multiview draws triangles that reach past
/// the target in view 0 only. `fullscreen_vs` is appended per recording: reading
/// `@builtin(view_index)` in a multiview render pass, the override constant `VIEW` in a render
/// pass of one view.
const FULLSCREEN_VIEWS_WGSL: &str = r#"
struct FullscreenVertex {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) @interpolate(flat) view: u32,
};

fn fullscreen_vertex(index: u32, view: u32) -> FullscreenVertex {
    var corners = array(vec2<f32>(0.0, 0.0), vec2<f32>(1.0, 0.0), vec2<f32>(0.0, 1.0),
                        vec2<f32>(1.0, 0.0), vec2<f32>(1.0, 1.0), vec2<f32>(0.0, 1.0));
    let corner = corners[index];
    var out: FullscreenVertex;
    out.position = vec4<f32>(corner.x * 2.0 - 1.0, 1.0 - corner.y * 2.0, 0.0, 1.0);
    out.uv = corner;
    out.view = view;
    return out;
}
"#;

const FULLSCREEN_VS_MULTIVIEW: &str = r#"
@vertex
fn fullscreen_vs(@builtin(vertex_index) index: u32, @builtin(view_index) view: u32) -> FullscreenVertex {
    return fullscreen_vertex(index, view);
}
"#;

const FULLSCREEN_VS_ONE_VIEW: &str = r#"
override VIEW: u32 = 0u;

@vertex
fn fullscreen_vs(@builtin(vertex_index) index: u32) -> FullscreenVertex {
    return fullscreen_vertex(index, VIEW);
}
"#;

/// A full-screen pass of several views (a [multiview](crate::guide#multiview) pass): the
/// pipelines of every way the executor may record it, made from one fragment stage. Where the
/// device records multiview render passes ([`Views::multiview_supported`]) there is one
/// pipeline with the pass's `multiview_mask`; and one per view for render passes of one view
/// (no multiview, or the executor told not to use it). [`draw`](Self::draw) picks by
/// [`PassContext::views`], with its own bind group layout (wgpu derives one per pipeline);
/// a [`BindGroupCache`] keeps a bind group for each.
///
/// The fragment stage reads the view it shades from `FullscreenVertex`'s `view` field
/// (`@location(1) @interpolate(flat) view: u32`), whichever way the pass is recorded.
/// The quad covers every pixel of the target, so with no blending and a full write mask the
/// pass may declare its colour targets [`Access::Write`](crate::Access::Write).
#[derive(Debug, Clone)]
pub struct FullscreenViews {
    multiview: Option<FullscreenPipeline>,
    per_view: Vec<FullscreenPipeline>,
}

/// The fragment stage of a full-screen pass of several views ([`FullscreenViews::from_shader`]),
/// as a wgpu descriptor names it: WGSL without a vertex stage, its entry point, and the colour
/// targets it renders to.
#[derive(Debug, Clone, Copy)]
pub struct FullscreenShader<'a> {
    /// Debug label of the shader modules and pipelines.
    pub label: &'a str,
    /// WGSL of the fragment stage; the struct `FullscreenVertex` and the vertex stage are added.
    pub source: &'a str,
    /// The fragment stage's entry point in `source`.
    pub entry: &'a str,
    /// The colour targets, as `wgpu::FragmentState::targets`.
    pub targets: &'a [Option<wgpu::ColorTargetState>],
}

impl FullscreenViews {
    /// The pipelines of a pass of `views` views whose fragment stage is `shader`. The bind
    /// group layout is derived from the shader: group 0 must bind at least one resource.
    pub fn from_shader(device: &wgpu::Device, shader: &FullscreenShader<'_>, views: u32) -> Self {
        let FullscreenShader {
            label,
            source,
            entry,
            targets,
        } = *shader;
        let module = |stage: &str| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(
                    [FULLSCREEN_VIEWS_WGSL, stage, source].concat().into(),
                ),
            })
        };
        let make = |module: &wgpu::ShaderModule,
                    mask: Option<std::num::NonZeroU32>,
                    constants: &[(&str, f64)]| {
            let stages = Stages {
                label,
                module,
                entry,
                targets,
                multiview_mask: mask,
                constants,
            };
            FullscreenPipeline::of_stages(device, stages)
        };
        let one_view = module(FULLSCREEN_VS_ONE_VIEW);
        let per_view = (0..views.max(1))
            .map(|view| make(&one_view, None, &[("VIEW", f64::from(view))]))
            .collect();
        let multiview = (views > 1 && Views::multiview_supported(device)).then(|| {
            let mask = Views::Multiview { count: views }.multiview_mask();
            make(&module(FULLSCREEN_VS_MULTIVIEW), mask, &[])
        });
        FullscreenViews {
            multiview,
            per_view,
        }
    }

    /// The pipelines of a pass of `views` views whose fragment stage is the entry point
    /// `entry` of `source`, rendering to `targets`.
    #[deprecated(
        since = "0.1.0",
        note = "use `FullscreenViews::from_shader(device, &FullscreenShader { label, source, entry, targets }, views)`"
    )]
    pub fn new(
        device: &wgpu::Device,
        label: &str,
        source: &str,
        entry: &str,
        targets: &[Option<wgpu::ColorTargetState>],
        views: u32,
    ) -> Self {
        let shader = FullscreenShader {
            label,
            source,
            entry,
            targets,
        };
        Self::from_shader(device, &shader, views)
    }

    /// The pipeline (and its bind group layout) for the way a pass is being recorded:
    /// multiview, or one view of it (an ordinary pass counts as view 0). It draws 6 vertices
    /// (a quad), not [`FullscreenPipeline::draw_with`]'s triangle: use [`draw`](Self::draw).
    pub fn pipeline(&self, views: Views) -> Result<&FullscreenPipeline, PassError> {
        for_views(self.multiview.as_ref(), &self.per_view, views).ok_or_else(|| {
            format!(
                "no full-screen pipeline for a pass recorded as {views:?}: made for {} views",
                self.per_view.len()
            )
            .into()
        })
    }

    /// Binds `bindings` (resolved through `ctx`, cached in `cache`) as group 0 and draws the
    /// quad with the pipeline for [`PassContext::views`]: the whole body of the pass's closure.
    pub fn draw(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        ctx: &PassContext<'_>,
        cache: &BindGroupCache,
        bindings: &[Binding<'_>],
    ) -> Result<(), PassError> {
        let pipeline = self.pipeline(ctx.views())?;
        let group = cache.bind_group(ctx, &pipeline.layout, bindings)?;
        pass.set_pipeline(&pipeline.pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.draw(0..6, 0..1);
        Ok(())
    }
}
