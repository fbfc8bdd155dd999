//! Fitting a graph's declarations to what an adapter can do, before
//! [`run`](crate::synthetic::run) compiles them.
//!
//! wgpu's backends differ in three ways that a graph written for Vulkan runs into on GL:
//!
//! - **Sampling a depth attached read-only.** wgpu lets a pass sample the depth texture it tests
//!   against only where the adapter has `DownlevelFlags::READ_ONLY_DEPTH_STENCIL`, which its GL
//!   backend never reports: the attachment counts as a depth write, and the sample conflicts with
//!   it. Such a pass leaves the attachment out and tests depth in its shader against the sampled
//!   texels (what a GL renderer does for soft particles).
//! - **Copies of depth and multisampled textures.** wgpu's GL backend copies textures through a
//!   colour framebuffer and `glCopyTexSubImage2D`, which copies neither. Such a copy pass becomes
//!   a render pass that samples the source and writes the destination with a full-screen draw,
//!   sample by sample.
//! - **Float formats that cannot be rendered to** (`r32float` on wgpu's GL backend without
//!   `GL_EXT_color_buffer_float`). Such a texture is realised as the unsigned-integer format of
//!   the same layout, carrying the floats' bits: writers store the bits, readers reinterpret them,
//!   and clear values become their bit patterns. The bytes read back are the float texels.
//!
//! - **Formats without storage support** (`r16float` storage on GLES, or anywhere without
//!   `TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES`): a texture a compute pass stores to in such a
//!   format is realised in the nearest format that has it (`r32float`, then `rgba16float`,
//!   then `rgba32float` for floats; the 32-bit twin for integers), which reads back the same
//!   values to the precision of the original.
//!
//! - **Multisampled textures that shaders read**, where the adapter cannot keep one (wgpu 30's
//!   GL backend on Mesa; see [`Gpu::sampled_multisample_textures_work`]): no adaptation reads
//!   the samples faithfully, so a pass that samples one, or copies one with a draw, is refused.
//!
//! Each change is named in a note that `tilegraph run` prints. What cannot be adapted is an
//! [`Unsupported`] naming the pass, the resource and the missing capability.

use std::collections::{HashMap, HashSet};

use tilegraph::decl::{ColorAttachment, DepthAttachment};
use tilegraph::decl::{Entry, PassDecl, PassKind, ResourceDecl, ResourceKind};
use tilegraph::{Access, ClearValue, ResourceId, Subresource, TextureDesc};

use crate::headless::Gpu;

/// What [`adapt`] changed, for the shaders and for the user.
#[derive(Debug, Default, Clone)]
pub struct Adaptation {
    /// One line per change.
    pub notes: Vec<String>,
    /// Float textures realised as unsigned-integer textures carrying the bits, by name.
    pub float_bits: HashSet<String>,
    /// Render passes that test depth in the shader: pass name → the sampled depth texture.
    pub shader_depth_tests: HashMap<String, String>,
    /// Copy passes turned into render passes that copy with a draw, by name.
    pub copy_draws: HashSet<String>,
    /// Storage capabilities of the formats the adapter has beyond the guaranteed ones
    /// (with `TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES` enabled on the device).
    pub storage_flags: Vec<(wgpu::TextureFormat, wgpu::TextureFormatFeatureFlags)>,
}

impl Adaptation {
    /// The storage flags of `format` on the device the description runs on.
    pub fn storage_flags(
        &self,
        format: wgpu::TextureFormat,
        features: wgpu::Features,
    ) -> wgpu::TextureFormatFeatureFlags {
        self.storage_flags
            .iter()
            .find(|&&(f, _)| f == format)
            .map_or_else(
                || format.guaranteed_format_features(features).flags,
                |&(_, flags)| flags,
            )
    }
}

/// What the adapter can do, as far as descriptions are concerned.
#[derive(Debug, Clone)]
pub struct Capabilities {
    /// The adapter has `DownlevelFlags::READ_ONLY_DEPTH_STENCIL`.
    pub read_only_depth_sampling: bool,
    /// Texture-to-texture copies handle depth and multisampled textures (not wgpu's GL backend).
    pub depth_and_multisample_copies: bool,
    /// Multisampled textures that shaders read hold what is rendered into them
    /// ([`Gpu::sampled_multisample_textures_work`]).
    pub sampled_multisample: bool,
    /// Formats the adapter can render to (colour).
    renderable: Vec<wgpu::TextureFormat>,
    /// Storage flags of the formats a description may store to, as the device can use them.
    storage: Vec<(wgpu::TextureFormat, wgpu::TextureFormatFeatureFlags)>,
    /// What the backend is called in messages.
    backend: String,
}

impl Capabilities {
    /// The capabilities of `gpu`'s adapter and device.
    pub fn of(gpu: &Gpu) -> Self {
        let adapter = &gpu.adapter;
        let info = adapter.get_info();
        let flags = adapter.get_downlevel_capabilities().flags;
        let renderable = FLOAT_BITS
            .iter()
            .map(|&(float, _)| float)
            .filter(|&f| {
                adapter
                    .get_texture_format_features(f)
                    .allowed_usages
                    .contains(wgpu::TextureUsages::RENDER_ATTACHMENT)
            })
            .collect();
        // Adapter-specific format features count only where the device enabled them.
        let features = gpu.device.features();
        let specific = features.contains(wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES);
        let storage = STORAGE_FORMATS
            .iter()
            .map(|&f| {
                let flags = if specific {
                    adapter.get_texture_format_features(f).flags
                } else {
                    f.guaranteed_format_features(features).flags
                };
                (f, flags & STORAGE_FLAGS)
            })
            .collect();
        Capabilities {
            read_only_depth_sampling: flags.contains(wgpu::DownlevelFlags::READ_ONLY_DEPTH_STENCIL),
            depth_and_multisample_copies: info.backend != wgpu::Backend::Gl,
            sampled_multisample: gpu.sampled_multisample_textures_work(),
            renderable,
            storage,
            backend: format!("{:?}", info.backend),
        }
    }

    /// With `portable`, storage textures only in the formats WebGPU guarantees every adapter
    /// can store to (whatever this one has beyond them), so that one description's images
    /// compare across adapters.
    pub fn portable(mut self, portable: bool) -> Self {
        if portable {
            for (format, flags) in &mut self.storage {
                *flags &= format
                    .guaranteed_format_features(wgpu::Features::empty())
                    .flags;
            }
            self.backend = format!("{}, storage formats every adapter has", self.backend);
        }
        self
    }

    /// Everything: nothing to adapt.
    pub fn full() -> Self {
        Capabilities {
            read_only_depth_sampling: true,
            depth_and_multisample_copies: true,
            sampled_multisample: true,
            renderable: FLOAT_BITS.iter().map(|&(f, _)| f).collect(),
            storage: STORAGE_FORMATS
                .iter()
                .map(|&f| (f, STORAGE_FLAGS))
                .collect(),
            backend: "any".into(),
        }
    }

    /// Whether `format` can be stored to with `needed`.
    fn stores(&self, format: wgpu::TextureFormat, needed: wgpu::TextureFormatFeatureFlags) -> bool {
        self.storage
            .iter()
            .find(|&&(f, _)| f == format)
            .is_some_and(|&(_, flags)| flags.contains(needed))
    }

    fn renders(&self, format: wgpu::TextureFormat) -> bool {
        !FLOAT_BITS.iter().any(|&(f, _)| f == format) || self.renderable.contains(&format)
    }
}

const STORAGE_FLAGS: wgpu::TextureFormatFeatureFlags =
    wgpu::TextureFormatFeatureFlags::STORAGE_READ_ONLY
        .union(wgpu::TextureFormatFeatureFlags::STORAGE_WRITE_ONLY)
        .union(wgpu::TextureFormatFeatureFlags::STORAGE_READ_WRITE);

/// Formats storage textures come in, and for each the formats that may stand in for it where
/// it has no storage support, nearest first: same channel type, at least its precision.
const STORAGE_FORMATS: [wgpu::TextureFormat; 14] = [
    wgpu::TextureFormat::R16Float,
    wgpu::TextureFormat::Rg16Float,
    wgpu::TextureFormat::Rgba16Float,
    wgpu::TextureFormat::R32Float,
    wgpu::TextureFormat::Rg32Float,
    wgpu::TextureFormat::Rgba32Float,
    wgpu::TextureFormat::R16Uint,
    wgpu::TextureFormat::R32Uint,
    wgpu::TextureFormat::Rg32Uint,
    wgpu::TextureFormat::Rgba32Uint,
    wgpu::TextureFormat::R8Unorm,
    wgpu::TextureFormat::Rg8Unorm,
    wgpu::TextureFormat::Rgba8Unorm,
    wgpu::TextureFormat::Rgba16Uint,
];

fn storage_stand_ins(format: wgpu::TextureFormat) -> &'static [wgpu::TextureFormat] {
    use wgpu::TextureFormat as F;
    match format {
        F::R16Float => &[F::R32Float, F::Rgba16Float, F::Rgba32Float],
        F::Rg16Float => &[F::Rgba16Float, F::Rg32Float, F::Rgba32Float],
        F::Rgba16Float => &[F::Rgba32Float],
        F::R32Float => &[F::Rgba32Float],
        F::Rg32Float => &[F::Rgba32Float],
        F::R8Unorm | F::Rg8Unorm => &[F::Rgba8Unorm, F::Rgba16Float, F::Rgba32Float],
        F::R16Uint => &[F::R32Uint, F::Rgba16Uint, F::Rgba32Uint],
        F::Rg32Uint => &[F::Rgba32Uint],
        F::R32Uint => &[F::Rgba32Uint],
        _ => &[],
    }
}

/// Float formats and the unsigned-integer formats that carry their bits. 16-bit floats blend
/// and their integer twins do not, so only the 32-bit ones (which do not blend without
/// `FLOAT32_BLENDABLE` either) are stood in for.
const FLOAT_BITS: [(wgpu::TextureFormat, wgpu::TextureFormat); 3] = [
    (wgpu::TextureFormat::R32Float, wgpu::TextureFormat::R32Uint),
    (
        wgpu::TextureFormat::Rg32Float,
        wgpu::TextureFormat::Rg32Uint,
    ),
    (
        wgpu::TextureFormat::Rgba32Float,
        wgpu::TextureFormat::Rgba32Uint,
    ),
];

/// Why the integer stand-in does not apply.
const FLOAT_BITS_LIMITS: &str = "only single-sampled 32-bit float textures that nothing resolves into can be stood in for by an integer format";

/// What cannot be adapted: the pass, and the resource and capability in the message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("pass `{pass}`: {message}")]
pub struct Unsupported {
    /// The pass.
    pub pass: String,
    /// What it needs that the adapter lacks.
    pub message: String,
}

fn unsupported(pass: &str, message: String) -> Unsupported {
    Unsupported {
        pass: pass.to_owned(),
        message,
    }
}

/// The declarations being adapted, and the texture descriptors as declared (before any change).
struct Graph<'d> {
    resources: &'d mut [ResourceDecl],
    passes: &'d mut [PassDecl],
    textures: Vec<Option<TextureDesc>>,
}

impl Graph<'_> {
    fn name(&self, r: ResourceId) -> &str {
        &self.resources[r.index()].name
    }

    fn texture(&self, r: ResourceId) -> Option<&TextureDesc> {
        self.textures[r.index()].as_ref()
    }
}

/// A colour attachment of a pass: (pass, texture, whether a resolve is involved).
type RenderedTo = (String, ResourceId, bool);

/// Adapts the declarations of a graph ([`RenderGraph::resources`](tilegraph::RenderGraph::resources),
/// [`passes`](tilegraph::RenderGraph::passes)) to `caps` in place; see the module documentation.
/// Declarations that need nothing changed stay as they are, with no notes.
pub fn adapt(
    resources: &mut [ResourceDecl],
    passes: &mut [PassDecl],
    caps: &Capabilities,
) -> Result<Adaptation, Unsupported> {
    let textures = resources
        .iter()
        .map(|r| match r.kind {
            ResourceKind::Texture(t) => Some(t),
            ResourceKind::Buffer(_) => None,
        })
        .collect();
    let mut graph = Graph {
        resources,
        passes,
        textures,
    };
    let mut adaptation = Adaptation::default();
    let mut rendered_to: Vec<RenderedTo> = Vec::new();
    for p in 0..graph.passes.len() {
        let kind = graph.passes[p].kind;
        if kind == PassKind::Render && !caps.read_only_depth_sampling {
            shader_depth_test(&mut graph, p, &mut adaptation)?;
        }
        if kind == PassKind::Copy && !caps.depth_and_multisample_copies {
            copy_draw(&mut graph, p, caps, &mut adaptation)?;
        }
        if !caps.sampled_multisample {
            refuse_sampled_multisample(&graph, p, caps)?;
        }

        let pass = &graph.passes[p];
        for c in &pass.color {
            rendered_to.push((pass.name.to_string(), c.resource, c.resolve.is_some()));
            if let Some(r) = c.resolve {
                rendered_to.push((pass.name.to_string(), r, true));
            }
        }
    }
    storage_formats(&mut graph, caps, &rendered_to, &mut adaptation)?;
    float_bits(&mut graph, caps, &rendered_to, &mut adaptation)?;
    adaptation.storage_flags = caps.storage.clone();
    Ok(adaptation)
}

/// Textures stored to in a format the adapter cannot store: realised in the nearest format
/// that it can (see the module documentation).
fn storage_formats(
    graph: &mut Graph<'_>,
    caps: &Capabilities,
    rendered_to: &[RenderedTo],
    adaptation: &mut Adaptation,
) -> Result<(), Unsupported> {
    use wgpu::TextureFormatFeatureFlags as Flags;
    // Per texture: the first pass that stores to it and the flags every such pass needs.
    let mut needs: Vec<(ResourceId, String, Flags)> = Vec::new();
    for pass in graph.passes.iter() {
        for (list, flag) in [
            (&pass.storage_read, Flags::STORAGE_READ_ONLY),
            (&pass.storage_write, Flags::STORAGE_WRITE_ONLY),
            (&pass.storage_read_write, Flags::STORAGE_READ_WRITE),
        ] {
            for r in list.iter().map(|e| e.resource) {
                if graph.texture(r).is_none() {
                    continue;
                }
                match needs.iter_mut().find(|(n, _, _)| *n == r) {
                    Some((_, _, f)) => *f |= flag,
                    None => needs.push((r, pass.name.to_string(), flag)),
                }
            }
        }
    }
    let mut realised = Vec::new();
    for (r, pass, needed) in needs {
        let t = graph.texture(r).expect("storage textures only");
        let resource = graph.name(r);
        if caps.stores(t.format, needed) {
            continue;
        }
        let attached = rendered_to.iter().any(|&(_, a, _)| a == r);
        let Some(&twin) = storage_stand_ins(t.format)
            .iter()
            .find(|&&f| caps.stores(f, needed) && (!attached || caps.renders(f)))
        else {
            return Err(unsupported(
                &pass,
                format!(
                    "`{resource}` is a {} storage texture, which this adapter ({}) cannot store to ({:?} missing), and no format that can stands in for it",
                    tilegraph::decl::format_name(t.format),
                    caps.backend,
                    needed
                ),
            ));
        };
        adaptation.notes.push(format!(
            "`{resource}` is {}, which this adapter ({}) cannot use as a storage texture; it is realised as {}",
            tilegraph::decl::format_name(t.format),
            caps.backend,
            tilegraph::decl::format_name(twin)
        ));
        realised.push((r, twin));
    }
    for (r, format) in realised {
        retype(&mut graph.resources[r.index()], format);
    }
    Ok(())
}

/// Gives a texture a new format.
fn retype(resource: &mut ResourceDecl, format: wgpu::TextureFormat) {
    if let ResourceKind::Texture(t) = &mut resource.kind {
        t.format = format;
    }
}

/// A render pass that attaches a depth texture `read` and samples it: test in the shader.
fn shader_depth_test(
    graph: &mut Graph<'_>,
    p: usize,
    adaptation: &mut Adaptation,
) -> Result<(), Unsupported> {
    let pass = &graph.passes[p];
    let Some(depth) = pass.depth else {
        return Ok(());
    };
    if depth.access != Access::Read {
        return Ok(());
    }
    let sampled = pass
        .sample
        .iter()
        .any(|e| e.resource == depth.resource && e.range.is_all());
    if !sampled {
        return Ok(());
    }
    let name = pass.name.to_string();
    let resource = graph.name(depth.resource).to_owned();
    let single = graph
        .texture(depth.resource)
        .is_some_and(|t| t.samples == 1);
    if pass.color.is_empty() || !single {
        return Err(unsupported(
            &name,
            format!(
                "samples `{resource}` while testing against it read-only, which needs DownlevelFlags::READ_ONLY_DEPTH_STENCIL (this adapter lacks it); testing in the shader instead needs a colour attachment and a single-sampled depth"
            ),
        ));
    }
    graph.passes[p].depth = None;
    adaptation.notes.push(format!(
        "pass `{name}` samples `{resource}` while testing against it read-only; the adapter lacks DownlevelFlags::READ_ONLY_DEPTH_STENCIL, so the pass tests depth in its shader and does not attach `{resource}`"
    ));
    adaptation.shader_depth_tests.insert(name, resource);
    Ok(())
}

/// A pass that reads a multisampled texture in a shader (a copy by draw included), on an
/// adapter where such a texture stays empty: refused, since no stand-in reads the samples.
fn refuse_sampled_multisample(
    graph: &Graph<'_>,
    p: usize,
    caps: &Capabilities,
) -> Result<(), Unsupported> {
    let pass = &graph.passes[p];
    let read = pass.sample.iter().chain(&pass.input).find_map(|e| {
        graph
            .texture(e.resource)
            .filter(|t| t.samples > 1)
            .map(|t| (e.resource, t))
    });
    let Some((r, t)) = read else {
        return Ok(());
    };
    Err(unsupported(
        &pass.name,
        format!(
            "reads `{}` ({}, {} samples) in a shader, which needs a multisampled texture with TEXTURE_BINDING that holds what is rendered into it; on this adapter ({}) it stays empty (wgpu's GL backend allocates it with the GL_TEXTURE_2D target instead of GL_TEXTURE_2D_MULTISAMPLE: wgpu issue #6084)",
            graph.name(r),
            tilegraph::decl::format_name(t.format),
            t.samples,
            caps.backend
        ),
    ))
}

/// A copy pass between depth or multisampled textures: copy with a draw instead.
fn copy_draw(
    graph: &mut Graph<'_>,
    p: usize,
    caps: &Capabilities,
    adaptation: &mut Adaptation,
) -> Result<(), Unsupported> {
    let pass = &graph.passes[p];
    let name = pass.name.to_string();
    let src: Vec<ResourceId> = pass.copy_src.iter().map(|e| e.resource).collect();
    let dst: Vec<ResourceId> = pass.copy_dst.iter().map(|e| e.resource).collect();
    let needs_draw = |&r: &ResourceId| {
        graph
            .texture(r)
            .is_some_and(|t| t.format.is_depth_stencil_format() || t.samples > 1)
    };
    if !src.iter().chain(&dst).any(needs_draw) {
        return Ok(());
    }
    let (s, d, src, dst) = match (src.as_slice(), dst.as_slice()) {
        ([s], [d]) => match (graph.texture(*s), graph.texture(*d)) {
            (Some(st), Some(dt)) => (*st, *dt, *s, *d),
            // A buffer: the compiler reports it.
            _ => return Ok(()),
        },
        _ => {
            return Err(unsupported(
                &name,
                format!(
                    "copies depth or multisampled textures, which the {} backend cannot copy; copying them with a draw takes one copy_src and one copy_dst",
                    caps.backend
                ),
            ));
        }
    };
    let (src_name, dst_name) = (graph.name(src).to_owned(), graph.name(dst).to_owned());
    if s.format != d.format || s.samples != d.samples || (s.width, s.height) != (d.width, d.height)
    {
        return Err(unsupported(
            &name,
            format!(
                "copying `{src_name}` into `{dst_name}`: depth and multisampled copies need the same format, sample count and size"
            ),
        ));
    }
    if s.format.is_depth_stencil_format() && s.samples > 1 {
        // Reading a multisampled depth in a shader and writing it back per sample does not give
        // the same depth on wgpu's GL backend in every execute mode: refused, not approximated.
        return Err(unsupported(
            &name,
            format!(
                "copies `{src_name}` ({}, {} samples): the {} backend cannot copy depth or multisampled textures, and a full-screen draw does not reproduce a multisampled depth faithfully there",
                tilegraph::decl::format_name(s.format),
                s.samples,
                caps.backend
            ),
        ));
    }
    if s.format.has_stencil_aspect() {
        return Err(unsupported(
            &name,
            format!(
                "copies `{src_name}` ({}), which has stencil: the {} backend cannot copy depth/stencil textures and a draw cannot write stencil",
                tilegraph::decl::format_name(s.format),
                caps.backend
            ),
        ));
    }
    // The render pass that replaces the copy: samples the whole source, writes all of the
    // destination's first subresource.
    let (side_effects, keep_order) = (graph.passes[p].side_effects, graph.passes[p].keep_order);
    let mut render = PassDecl::new(graph.passes[p].name.clone(), PassKind::Render);
    render.sample = vec![Entry::whole(src)];
    let sub = Subresource::BASE;
    if d.format.is_depth_stencil_format() {
        render.depth = Some(DepthAttachment {
            resource: dst,
            sub,
            access: Access::Write,
            clear: None,
        });
    } else {
        render.color = vec![ColorAttachment {
            resource: dst,
            sub,
            access: Access::Write,
            clear: None,
            resolve: None,
        }];
    }
    // A pinned copy stays pinned: restructuring moves no pass across it.
    render.side_effects = side_effects;
    render.keep_order = keep_order;
    graph.passes[p] = render;
    adaptation.notes.push(format!(
        "pass `{name}` copies `{src_name}` into `{dst_name}` ({}, {} samples), which the {} backend cannot copy; it copies with a full-screen draw instead",
        tilegraph::decl::format_name(s.format),
        s.samples,
        caps.backend
    ));
    adaptation.copy_draws.insert(name);
    Ok(())
}

/// Float colour attachments the adapter cannot render to: stand in the integer twin.
fn float_bits(
    graph: &mut Graph<'_>,
    caps: &Capabilities,
    rendered_to: &[RenderedTo],
    adaptation: &mut Adaptation,
) -> Result<(), Unsupported> {
    let mut stand_in: Vec<(ResourceId, wgpu::TextureFormat)> = Vec::new();
    for &(ref pass, r, resolves) in rendered_to {
        let Some(t) = graph.texture(r) else {
            continue;
        };
        if caps.renders(t.format) || stand_in.iter().any(|&(s, _)| s == r) {
            continue;
        }
        let resource = graph.name(r);
        let name = tilegraph::decl::format_name(t.format);
        let twin = FLOAT_BITS
            .iter()
            .find(|&&(f, _)| f == t.format)
            .map(|&(_, u)| u);
        let fits = rendered_to
            .iter()
            .all(|&(_, a, resolves)| a != r || !resolves);
        match twin {
            Some(twin) if t.samples == 1 && fits && !resolves => {
                adaptation.notes.push(format!(
                    "`{resource}` is {name}, which this adapter cannot render to (wgpu's GL backend needs GL_EXT_color_buffer_float or GL_ARB_color_buffer_float); it is realised as {} carrying the floats' bits",
                    tilegraph::decl::format_name(twin)
                ));
                adaptation.float_bits.insert(resource.to_owned());
                stand_in.push((r, twin));
            }
            _ => {
                return Err(unsupported(
                    pass,
                    format!(
                        "`{resource}` is a {name} colour attachment, which this adapter ({}) cannot render to: the format lacks TextureUsages::RENDER_ATTACHMENT there ({FLOAT_BITS_LIMITS})",
                        caps.backend
                    ),
                ));
            }
        }
    }
    for &(r, twin) in &stand_in {
        let resource = &mut graph.resources[r.index()];
        retype(resource, twin);
        if let Some(clear) = &mut resource.clear {
            bits_of_clear(clear);
        }
    }
    for pass in graph.passes.iter_mut() {
        for c in &mut pass.color {
            if let (true, Some(clear)) =
                (stand_in.iter().any(|&(s, _)| s == c.resource), &mut c.clear)
            {
                bits_of_clear(clear);
            }
        }
    }
    Ok(())
}

/// A colour clear of floats → one holding each float's bits, which an unsigned-integer clear
/// stores unchanged.
fn bits_of_clear(clear: &mut ClearValue) {
    if let ClearValue::Color(channels) = clear {
        for c in channels {
            *c = f64::from((*c as f32).to_bits());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tilegraph::RenderGraph;
    use tilegraph::decl::PassRef;

    fn caps_of_gl() -> Capabilities {
        Capabilities {
            read_only_depth_sampling: false,
            depth_and_multisample_copies: false,
            sampled_multisample: true,
            renderable: Vec::new(),
            // GLES 3.1's storage formats: no 16-bit floats.
            storage: STORAGE_FORMATS
                .iter()
                .map(|&f| {
                    let gles = !matches!(
                        f,
                        wgpu::TextureFormat::R16Float
                            | wgpu::TextureFormat::Rg16Float
                            | wgpu::TextureFormat::R16Uint
                            | wgpu::TextureFormat::R8Unorm
                            | wgpu::TextureFormat::Rg8Unorm
                            | wgpu::TextureFormat::Rg32Float
                            | wgpu::TextureFormat::Rg32Uint
                    );
                    let flags = if gles {
                        STORAGE_FLAGS
                    } else {
                        wgpu::TextureFormatFeatureFlags::empty()
                    };
                    (f, flags)
                })
                .collect(),
            backend: "Gl".into(),
        }
    }

    /// The graph of `description` adapted to `caps`, and the original.
    fn adapted(
        description: &str,
        caps: &Capabilities,
    ) -> Result<(RenderGraph<'static>, RenderGraph<'static>, Adaptation), Unsupported> {
        let original = RenderGraph::from_json(description).expect("a valid description");
        let mut resources = original.resources().to_vec();
        let mut passes = original.passes().to_vec();
        let adaptation = adapt(&mut resources, &mut passes, caps)?;
        let graph = RenderGraph::from_declarations(resources, passes).expect("still valid");
        Ok((graph, original, adaptation))
    }

    fn format(graph: &RenderGraph<'_>, name: &str) -> wgpu::TextureFormat {
        match graph
            .resources()
            .iter()
            .find(|r| &*r.name == name)
            .unwrap()
            .kind
        {
            ResourceKind::Texture(t) => t.format,
            ResourceKind::Buffer(_) => panic!("`{name}` is a buffer"),
        }
    }

    fn pass<'g>(graph: &'g RenderGraph<'_>, name: &str) -> PassRef<'g> {
        graph.passes().iter().find(|p| p.name() == name).unwrap()
    }

    /// Nothing changed: the same declarations, so the same fingerprint.
    fn assert_unchanged(graph: &RenderGraph<'_>, original: &RenderGraph<'_>, a: &Adaptation) {
        assert_eq!(graph.resources(), original.resources());
        assert_eq!(graph.passes(), original.passes());
        assert_eq!(graph.fingerprint(), original.fingerprint());
        assert!(a.notes.is_empty(), "{:?}", a.notes);
    }

    #[test]
    fn storage_formats_the_adapter_lacks_are_realised_in_one_it_has() {
        let d = include_str!("../../examples/graphs/bevy_ssao.json");
        let (g, _, a) = adapted(d, &caps_of_gl()).unwrap();
        for r in ["ssao_preprocessed_depth", "ssao_noisy", "ssao"] {
            assert_eq!(format(&g, r), wgpu::TextureFormat::R32Float, "{r}");
            assert!(
                a.notes
                    .iter()
                    .any(|n| n.starts_with(&format!("`{r}` is r16float"))
                        && n.ends_with("realised as r32float")),
                "{:?}",
                a.notes
            );
        }
        // Formats the adapter stores stay as they are.
        assert_eq!(
            format(&g, "ssao_depth_differences"),
            wgpu::TextureFormat::R32Uint
        );
        // With every storage format there is nothing to do.
        let (same, original, a) = adapted(d, &Capabilities::full()).unwrap();
        assert_unchanged(&same, &original, &a);
        // `--portable`: only the formats every adapter stores to, whatever this one has.
        let (g, _, _) = adapted(d, &Capabilities::full().portable(true)).unwrap();
        for r in ["ssao_preprocessed_depth", "ssao_noisy", "ssao"] {
            assert_eq!(format(&g, r), wgpu::TextureFormat::R32Float, "{r}");
        }
        assert_eq!(
            format(&g, "ssao_depth_differences"),
            wgpu::TextureFormat::R32Uint
        );
        // No stand-in at all: an unsupported error naming the pass, the resource and the format.
        let mut none = caps_of_gl();
        none.storage
            .iter_mut()
            .for_each(|(_, f)| *f = wgpu::TextureFormatFeatureFlags::empty());
        let e = adapted(d, &none).unwrap_err().to_string();
        assert!(
            e.contains("ssao_preprocess_depth")
                && e.contains("ssao_preprocessed_depth")
                && e.contains("r16float"),
            "{e}"
        );
    }

    #[test]
    fn a_depth_copy_into_a_buffer_is_not_turned_into_a_draw() {
        let d = r#"{"resources": [
            {"name": "depth", "texture": {"format": "depth32float", "size": [8, 8]}},
            {"name": "b", "buffer": {"size": 256}}],
          "passes": [
            {"name": "clear", "type": "render", "depth": {"resource": "depth", "access": "clear"}},
            {"name": "copy", "type": "copy", "copy_src": ["depth"], "copy_dst": ["b"],
             "side_effects": true}]}"#;
        let (g, _, a) = adapted(d, &caps_of_gl()).unwrap();
        assert!(a.copy_draws.is_empty());
        assert_eq!(pass(&g, "copy").kind(), PassKind::Copy);
    }

    #[test]
    fn nothing_changes_on_a_full_adapter() {
        let d = include_str!("../../examples/graphs/ssao.json");
        let (g, original, a) = adapted(d, &Capabilities::full()).unwrap();
        assert_unchanged(&g, &original, &a);
    }

    #[test]
    fn gl_tests_depth_in_the_shader_copies_by_draw_and_stands_in_for_r32float() {
        let (g, original, a) = adapted(
            include_str!("../../examples/graphs/ssao.json"),
            &caps_of_gl(),
        )
        .unwrap();
        assert!(pass(&g, "ssao").depth().is_none());
        assert!(pass(&original, "ssao").depth().is_some());
        assert_eq!(a.shader_depth_tests["ssao"], "depth");
        assert_eq!(format(&g, "linear_depth"), wgpu::TextureFormat::R32Uint);
        assert!(a.float_bits.contains("linear_depth"));

        // A depth copy becomes a draw; a multisampled depth copy is refused (a draw does not
        // reproduce one faithfully on GL).
        let depth_copy = r#"{"resources": [
            {"name": "depth", "texture": {"format": "depth32float", "size": [8, 8]}},
            {"name": "depth_copy", "texture": {"format": "depth32float", "size": [8, 8]}},
            {"name": "out", "texture": {"format": "rgba8unorm", "size": [8, 8]},
             "import": {"contents": "undefined", "after": "keep"}}],
          "passes": [
            {"name": "prepass", "type": "render", "depth": {"resource": "depth", "access": "clear"}},
            {"name": "copy_prepass_depth", "type": "copy", "copy_src": ["depth"], "copy_dst": ["depth_copy"]},
            {"name": "fog", "type": "render", "sample": ["depth_copy"],
             "color": [{"resource": "out", "access": "write"}]}]}"#;
        let (g, _, a) = adapted(depth_copy, &caps_of_gl()).unwrap();
        let copy = g.passes().at(1);
        assert_eq!(copy.kind(), PassKind::Render);
        let depth = copy.depth().expect("the copy writes the depth attachment");
        assert_eq!(&*g.resources()[depth.resource.index()].name, "depth_copy");
        assert_eq!(depth.access, Access::Write);
        assert!(copy.copy_src().is_empty() && copy.copy_dst().is_empty());
        assert!(a.copy_draws.contains("copy_prepass_depth"));
        assert!(!copy.keep_order());
        // A pinned copy stays pinned as a draw.
        let pinned = depth_copy.replace(
            r#""type": "copy", "copy_src""#,
            r#""type": "copy", "keep_order": true, "copy_src""#,
        );
        let (g, _, _) = adapted(&pinned, &caps_of_gl()).unwrap();
        assert!(g.passes().at(1).keep_order() && g.passes().at(1).kind() == PassKind::Render);
        match adapted(
            include_str!("../tests/graphs/msaa_depth_copy.json"),
            &caps_of_gl(),
        ) {
            Err(Unsupported { pass, message }) => {
                assert_eq!(pass, "copy_prepass_depth");
                assert!(
                    message.contains("`depth_msaa` (depth32float, 4 samples)"),
                    "{message}"
                );
            }
            Ok((_, _, a)) => panic!("expected the multisampled depth copy to be refused: {a:?}"),
        }
    }

    #[test]
    fn float_clears_become_their_bits() {
        let d = r#"{"resources": [
            {"name": "a", "texture": {"format": "r32float", "size": [8, 8]}, "clear": [0.5, 0.25, 0, 1]},
            {"name": "o", "texture": {"format": "r32float", "size": [8, 8]}, "import": {"contents": "undefined", "after": "keep"}}],
          "passes": [
            {"name": "p", "type": "render", "color": [{"resource": "a", "access": "clear"}]},
            {"name": "q", "type": "render", "sample": ["a"],
             "color": [{"resource": "o", "access": "clear", "clear": [2.0, 0, 0, 1]}]}]}"#;
        let (g, _, a) = adapted(d, &caps_of_gl()).unwrap();
        let bits = |f: f32| f64::from(f.to_bits());
        assert_eq!(
            g.resources()[0].clear,
            Some(ClearValue::Color([bits(0.5), bits(0.25), 0.0, bits(1.0)]))
        );
        assert_eq!(
            pass(&g, "q").color()[0].clear,
            Some(ClearValue::Color([bits(2.0), 0.0, 0.0, bits(1.0)]))
        );
        assert_eq!(a.float_bits.len(), 2);
    }

    #[test]
    fn a_sampled_multisampled_texture_is_refused_where_it_stays_empty() {
        let d = include_str!("../tests/graphs/sampled_msaa.json");
        let caps = Capabilities {
            sampled_multisample: false,
            ..caps_of_gl()
        };
        match adapted(d, &caps) {
            Err(Unsupported { pass, message }) => {
                assert_eq!(pass, "post");
                assert!(
                    message.contains("`m` (rgba16float, 4 samples)")
                        && message.contains("TEXTURE_BINDING"),
                    "{message}"
                );
            }
            Ok((_, _, a)) => panic!("expected a refusal: {a:?}"),
        }
        // Where such textures work, the graph runs as it is.
        let (g, original, a) = adapted(d, &caps_of_gl()).unwrap();
        assert_unchanged(&g, &original, &a);
    }

    #[test]
    fn what_cannot_be_adapted_names_the_pass_resource_and_capability() {
        let d = r#"{"resources": [
            {"name": "a", "texture": {"format": "r32float", "size": [8, 8], "samples": 4}},
            {"name": "o", "texture": {"format": "r32float", "size": [8, 8]}, "import": {"contents": "undefined", "after": "keep"}}],
          "passes": [{"name": "p", "type": "render", "color": [{"resource": "a", "access": "clear", "resolve": "o"}]}]}"#;
        let e = adapted(d, &caps_of_gl()).unwrap_err().to_string();
        assert!(
            e.contains("pass `p`")
                && e.contains("`a`")
                && e.contains("r32float")
                && e.contains("RENDER_ATTACHMENT"),
            "{e}"
        );

        let d = r#"{"resources": [
            {"name": "d", "texture": {"format": "depth32float", "size": [8, 8]}, "clear": 1.0}],
          "passes": [{"name": "p", "type": "render", "sample": ["d"], "depth": {"resource": "d", "access": "read"}}]}"#;
        let e = adapted(d, &caps_of_gl()).unwrap_err().to_string();
        assert!(
            e.contains("pass `p`") && e.contains("`d`") && e.contains("READ_ONLY_DEPTH_STENCIL"),
            "{e}"
        );
    }
}
