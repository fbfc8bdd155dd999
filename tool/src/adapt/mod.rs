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
//!   GL backend on Mesa; see [`Gpu::sampled_multisample_textures_work`](crate::headless::Gpu::sampled_multisample_textures_work)): no adaptation reads
//!   the samples faithfully, so a pass that samples one, or copies one with a draw, is refused.
//!
//! Each change is named in a note that `tilegraph run` prints. What cannot be adapted is an
//! [`Unsupported`] naming the pass, the resource and the missing capability.

mod capabilities;
mod formats;
mod passes;
#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet};

use tilegraph::decl::{PassDecl, PassKind, ResourceDecl, ResourceKind};
use tilegraph::{ResourceId, TextureDesc};

pub use capabilities::Capabilities;
use formats::{float_bits, storage_formats};
use passes::{copy_draw, refuse_sampled_multisample, shader_depth_test};

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
