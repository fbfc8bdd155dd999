//! Render pipelines for passes of several views, made from one shader whatever way the executor
//! records the pass.

use std::num::NonZeroU32;

use crate::context::{PassError, Views};

/// The override constant that carries the view into a pipeline of one view.
const VIEW_CONSTANT: &str = "TILEGRAPH_VIEW";

/// A shader [`ViewPipelines`] cannot derive its pipelines from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{label}`: {message}")]
pub struct ViewShaderError {
    label: String,
    message: String,
}

impl ViewShaderError {
    fn new(label: &str, message: impl Into<String>) -> Self {
        ViewShaderError {
            label: label.to_owned(),
            message: message.into(),
        }
    }
}

/// What one pipeline of a [`ViewPipelines`] is made with: put these three into the descriptor
/// the closure builds, the rest of it the same for every pipeline.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct ViewVariant<'v> {
    /// The module for the vertex and fragment stages.
    pub module: &'v wgpu::ShaderModule,
    /// `RenderPipelineDescriptor::multiview_mask`: every view's bit for the multiview pipeline,
    /// `None` for one of a single view.
    pub multiview_mask: Option<NonZeroU32>,
    /// The vertex stage's `compilation_options.constants`: the view a pipeline of one view
    /// renders; empty for the multiview pipeline.
    pub constants: &'v [(&'v str, f64)],
}

/// The render pipelines of a pass of several views (a [multiview](crate::guide#multiview)
/// pass), from one shader and one descriptor: the pipeline with the views' `multiview_mask`
/// where the device records multiview render passes ([`Views::multiview_supported`]), and one
/// per view for render passes of one view (no multiview, or the executor told not to use it).
/// [`get`](Self::get) picks by [`PassContext::views`](crate::PassContext::views).
///
/// The shader is written as for multiview: its vertex entry point takes the view as a parameter
/// `@builtin(view_index) name: u32` (pass it on to the fragment stage as a flat `u32` where
/// that needs it). For the pipelines of one view that parameter is replaced by a constant of
/// the same name, set per pipeline, so both recordings run the same code and render the same
/// image.
///
/// ```no_run
/// # use tilegraph::helpers::ViewPipelines;
/// # use tilegraph::wgpu;
/// # fn f(device: &wgpu::Device, layout: &wgpu::PipelineLayout) -> Result<(), Box<dyn std::error::Error>> {
/// let source = "
///     @group(0) @binding(0) var<uniform> view_proj: array<mat4x4f, 2>;
///     @vertex fn vs(@location(0) p: vec3f, @builtin(view_index) eye: u32) -> @builtin(position) vec4f {
///         return view_proj[eye] * vec4f(p, 1.0);
///     }
///     @fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }";
/// let pipelines = ViewPipelines::new(device, "scene", source, 2, |v| {
///     device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
///         label: Some("scene"),
///         layout: Some(layout),
///         vertex: wgpu::VertexState {
///             module: v.module,
///             entry_point: Some("vs"),
///             compilation_options: wgpu::PipelineCompilationOptions {
///                 constants: v.constants,
///                 ..Default::default()
///             },
///             buffers: &[/* ... */],
///         },
///         fragment: Some(wgpu::FragmentState {
///             module: v.module,
///             entry_point: Some("fs"),
///             compilation_options: Default::default(),
///             targets: &[Some(wgpu::TextureFormat::Rgba8Unorm.into())],
///         }),
///         primitive: Default::default(),
///         depth_stencil: None,
///         multisample: Default::default(),
///         multiview_mask: v.multiview_mask,
///         cache: None,
///     })
/// })?;
/// // In the pass's closure: pass.set_pipeline(pipelines.get(ctx.views())?);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct ViewPipelines {
    multiview: Option<wgpu::RenderPipeline>,
    per_view: Vec<wgpu::RenderPipeline>,
}

impl ViewPipelines {
    /// The pipelines of a pass of `views` views from the WGSL `source` (see the type's docs),
    /// each built by `make` from the [`ViewVariant`] it is given. A source whose vertex entry
    /// point has no `@builtin(view_index)` parameter of type `u32`, or several, is an error.
    pub fn new(
        device: &wgpu::Device,
        label: &str,
        source: &str,
        views: u32,
        mut make: impl FnMut(ViewVariant<'_>) -> wgpu::RenderPipeline,
    ) -> Result<Self, ViewShaderError> {
        let one_view = one_view_source(source).map_err(|m| ViewShaderError::new(label, m))?;
        let module = |source: String| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            })
        };
        let one_view = module(one_view);
        let per_view = (0..views.max(1))
            .map(|view| {
                make(ViewVariant {
                    module: &one_view,
                    multiview_mask: None,
                    constants: &[(VIEW_CONSTANT, f64::from(view))],
                })
            })
            .collect();
        let multiview = (views > 1 && Views::multiview_supported(device)).then(|| {
            make(ViewVariant {
                module: &module(source.to_owned()),
                multiview_mask: Views::Multiview { count: views }.multiview_mask(),
                constants: &[],
            })
        });
        Ok(ViewPipelines {
            multiview,
            per_view,
        })
    }

    /// The pipeline for the way a pass is being recorded: multiview, or one view of it (an
    /// ordinary pass counts as view 0).
    pub fn get(&self, views: Views) -> Result<&wgpu::RenderPipeline, PassError> {
        for_views(self.multiview.as_ref(), &self.per_view, views).ok_or_else(|| {
            format!(
                "no pipeline for a pass recorded as {views:?}: made for {} views{}",
                self.per_view.len(),
                if self.multiview.is_none() {
                    ", without multiview"
                } else {
                    ""
                }
            )
            .into()
        })
    }
}

/// `source` with its `@builtin(view_index) name: u32` parameter replaced by a constant of that
/// name, which the override [`VIEW_CONSTANT`] sets.
fn one_view_source(source: &str) -> Result<String, String> {
    const BUILTIN: &str = "@builtin(view_index)";
    let mut found = source.match_indices(BUILTIN);
    let Some((start, _)) = found.next() else {
        return Err(format!(
            "the vertex entry point takes no `{BUILTIN} name: u32` parameter"
        ));
    };
    if found.next().is_some() {
        return Err(format!(
            "`{BUILTIN}` appears more than once; one vertex entry point takes the view"
        ));
    }
    // `name : u32` after the attribute.
    let rest = &source[start + BUILTIN.len()..];
    let name_len = rest.trim_start().len();
    let name_start = start + BUILTIN.len() + (rest.len() - name_len);
    let name: String = source[name_start..]
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let after_name = &source[name_start + name.len()..];
    let ty = after_name
        .trim_start()
        .strip_prefix(':')
        .map(str::trim_start);
    if name.is_empty() || !ty.is_some_and(|t| t.starts_with("u32")) {
        return Err(format!("`{BUILTIN}` must name a parameter of type `u32`"));
    }
    let ty = ty.expect("checked");
    let end = source.len() - ty.len() + "u32".len();
    // The parameter goes with the comma before it, or else the one after it.
    let before = source[..start].trim_end();
    let (cut_start, cut_end) = if let Some(b) = before.strip_suffix(',') {
        (b.len(), end)
    } else {
        let after = &source[end..];
        let trimmed = after.trim_start();
        match trimmed.strip_prefix(',') {
            Some(t) => (start, source.len() - t.trim_start().len()),
            None => (start, end),
        }
    };
    let Some(body) = source[cut_end..].find('{').map(|i| cut_end + i + 1) else {
        return Err("the vertex entry point has no body after its parameters".to_owned());
    };
    Ok(format!(
        "override {VIEW_CONSTANT}: u32 = 0u;\n{}{}\n    let {name}: u32 = {VIEW_CONSTANT};{}",
        &source[..cut_start],
        &source[cut_end..body],
        &source[body..]
    ))
}

/// Of pipelines made for a multiview pass and for each of its views, the one for the way a pass
/// is being recorded (an ordinary pass counts as view 0).
pub(super) fn for_views<'p, T>(
    multiview: Option<&'p T>,
    per_view: &'p [T],
    views: Views,
) -> Option<&'p T> {
    match views {
        Views::Multiview { .. } => multiview,
        Views::PerView { view, .. } => per_view.get(view as usize),
        Views::One => per_view.first(),
    }
}

#[cfg(test)]
mod tests {
    use super::one_view_source;

    #[test]
    fn the_view_parameter_becomes_a_constant_of_its_name() {
        let last = "@vertex fn vs(@builtin(vertex_index) i: u32, @builtin(view_index) eye: u32) -> @builtin(position) vec4f { return f(i, eye); }";
        let out = one_view_source(last).unwrap();
        assert!(
            out.starts_with("override TILEGRAPH_VIEW: u32 = 0u;\n"),
            "{out}"
        );
        assert!(
            out.contains("fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {\n    let eye: u32 = TILEGRAPH_VIEW; return f(i, eye); }"),
            "{out}"
        );
        let first = "@vertex fn vs(@builtin(view_index)  v : u32 ,\n @location(0) p: vec3f) -> O { return g(p, v); }";
        let out = one_view_source(first).unwrap();
        assert!(
            out.contains("fn vs(@location(0) p: vec3f) -> O {\n    let v: u32 = TILEGRAPH_VIEW; return g(p, v); }"),
            "{out}"
        );
        let only = "@vertex fn vs(@builtin(view_index) v: u32) -> O { return h(v); }";
        let out = one_view_source(only).unwrap();
        assert!(
            out.contains("fn vs() -> O {\n    let v: u32 = TILEGRAPH_VIEW; return h(v); }"),
            "{out}"
        );
    }

    #[test]
    fn a_source_without_one_view_parameter_is_refused() {
        let none = one_view_source("@vertex fn vs() -> O { }").unwrap_err();
        assert!(none.contains("takes no"), "{none}");
        let two = "fn a(@builtin(view_index) v: u32) {} fn b(@builtin(view_index) w: u32) {}";
        assert!(one_view_source(two).unwrap_err().contains("more than once"));
        let typed = one_view_source("fn a(@builtin(view_index) v: i32) {}").unwrap_err();
        assert!(typed.contains("type `u32`"), "{typed}");
    }
}
