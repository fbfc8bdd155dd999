//! Declared data: handles, texture and buffer shapes, clear values, imports and attachment
//! accesses. The bottom layer with [`decl`](crate::decl): everything above reads them, they read
//! nothing above.

use std::hash::{Hash, Hasher};

use wgpu::TextureFormat;

use crate::ids::ResourceId;

/// A texture declared in a [`RenderGraph`](crate::RenderGraph). Only valid for the graph that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TextureHandle {
    pub(crate) graph: u32,
    pub(crate) index: ResourceId,
}

/// A buffer declared in a [`RenderGraph`](crate::RenderGraph). Only valid for the graph that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BufferHandle {
    pub(crate) graph: u32,
    pub(crate) index: ResourceId,
}

impl TextureHandle {
    /// The resource's index in declaration order.
    pub fn index(self) -> ResourceId {
        self.index
    }

    /// Mip `mip` of layer 0: an attachment renders to it at the mip's size.
    pub fn mip(self, mip: u32) -> SubresourceHandle {
        self.subresource(mip, 0)
    }

    /// Layer `layer` of mip 0 (a shadow cascade, a cube face).
    pub fn layer(self, layer: u32) -> SubresourceHandle {
        self.subresource(0, layer)
    }

    /// One mip of one layer.
    pub fn subresource(self, mip: u32, layer: u32) -> SubresourceHandle {
        SubresourceHandle {
            texture: self,
            sub: Subresource { mip, layer },
        }
    }

    /// Mips `mips` of every layer, for a `sample`, storage or copy entry.
    pub fn mips(self, mips: std::ops::Range<u32>) -> TextureRef {
        TextureRef::from(self).mips(mips)
    }

    /// Layers `layers` at every mip, for a `sample`, storage or copy entry: the pass context
    /// hands out a 2D-array view of exactly those layers.
    pub fn layers(self, layers: std::ops::Range<u32>) -> TextureRef {
        TextureRef::from(self).layers(layers)
    }
}

/// One mip of one array layer of a texture: what an attachment renders to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Subresource {
    /// Mip level.
    pub mip: u32,
    /// Array layer.
    pub layer: u32,
}

impl Subresource {
    /// Mip 0 of layer 0: what a plain texture handle names as an attachment.
    pub const BASE: Subresource = Subresource { mip: 0, layer: 0 };

    /// The subresource view `view` of a multiview attachment of this one renders: `view`
    /// layers on.
    #[inline]
    pub(crate) fn in_view(self, view: u32) -> Subresource {
        Subresource {
            mip: self.mip,
            layer: self.layer.saturating_add(view),
        }
    }
}

/// A texture handle narrowed to one subresource ([`TextureHandle::mip`], [`TextureHandle::layer`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SubresourceHandle {
    pub(crate) texture: TextureHandle,
    pub(crate) sub: Subresource,
}

impl SubresourceHandle {
    /// The whole texture.
    pub fn texture(self) -> TextureHandle {
        self.texture
    }

    /// The mip and layer.
    pub fn subresource(self) -> Subresource {
        self.sub
    }

    /// The same layer at mip `mip`.
    pub fn mip(mut self, mip: u32) -> Self {
        self.sub.mip = mip;
        self
    }

    /// The same mip of layer `layer`.
    pub fn layer(mut self, layer: u32) -> Self {
        self.sub.layer = layer;
        self
    }
}

impl From<TextureHandle> for SubresourceHandle {
    /// A plain handle as an attachment: mip 0 of layer 0.
    fn from(texture: TextureHandle) -> Self {
        texture.subresource(0, 0)
    }
}

/// What a `sample`, `input`, storage or copy entry names: a whole texture, one subresource, or a
/// range of mips and layers ([`TextureHandle::layers`], [`TextureRef::mips`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TextureRef {
    pub(crate) texture: TextureHandle,
    pub(crate) range: SubresourceRange,
}

impl From<TextureHandle> for TextureRef {
    /// Every subresource.
    fn from(texture: TextureHandle) -> Self {
        TextureRef {
            texture,
            range: SubresourceRange::ALL,
        }
    }
}

impl From<SubresourceHandle> for TextureRef {
    /// One subresource.
    fn from(h: SubresourceHandle) -> Self {
        TextureRef {
            texture: h.texture,
            range: SubresourceRange::one(h.sub),
        }
    }
}

impl TextureRef {
    /// The texture.
    pub fn texture(self) -> TextureHandle {
        self.texture
    }

    /// The subresources named.
    pub fn range(self) -> SubresourceRange {
        self.range
    }

    /// The same layers, at mips `mips` only.
    pub fn mips(mut self, mips: std::ops::Range<u32>) -> Self {
        self.range.mips = Some(span(mips));
        self
    }

    /// The same mips, at layers `layers` only: a shadow atlas sized for ten lights with two
    /// rendered this frame is read as `atlas.layers(0..2)`.
    pub fn layers(mut self, layers: std::ops::Range<u32>) -> Self {
        self.range.layers = Some(span(layers));
        self
    }
}

/// `(first, count)` of a range; an empty or reversed range has count 0, which validation refuses.
fn span(r: std::ops::Range<u32>) -> (u32, u32) {
    (r.start, r.end.saturating_sub(r.start))
}

/// Which subresources of a texture a list entry names: a range of mips and a range of layers,
/// each `(first, count)`, `None` standing for all of them. The whole texture is
/// [`SubresourceRange::ALL`]; one subresource has both counts 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct SubresourceRange {
    /// First mip and mip count; `None`: every mip.
    pub mips: Option<(u32, u32)>,
    /// First layer and layer count; `None`: every layer.
    pub layers: Option<(u32, u32)>,
}

impl SubresourceRange {
    /// Every mip of every layer.
    pub const ALL: SubresourceRange = SubresourceRange {
        mips: None,
        layers: None,
    };

    /// Exactly one subresource.
    pub fn one(sub: Subresource) -> Self {
        SubresourceRange {
            mips: Some((sub.mip, 1)),
            layers: Some((sub.layer, 1)),
        }
    }

    /// Whether it names the whole texture without saying which parts ([`ALL`](Self::ALL)).
    #[inline]
    pub fn is_all(&self) -> bool {
        self.mips.is_none() && self.layers.is_none()
    }

    /// The one subresource it names explicitly, if it names exactly one.
    #[inline]
    pub fn single(&self) -> Option<Subresource> {
        match (self.mips, self.layers) {
            (Some((mip, 1)), Some((layer, 1))) => Some(Subresource { mip, layer }),
            _ => None,
        }
    }

    /// `(first mip, mips, first layer, layers)` in a texture of `mips` mips and `layers` layers.
    pub fn resolve(&self, mips: u32, layers: u32) -> (u32, u32, u32, u32) {
        let (m0, mc) = self.mips.unwrap_or((0, mips));
        let (l0, lc) = self.layers.unwrap_or((0, layers));
        (m0, mc, l0, lc)
    }

    /// Whether `sub` is one of the named subresources.
    pub fn contains(&self, sub: Subresource) -> bool {
        let within = |r: Option<(u32, u32)>, v: u32| {
            r.is_none_or(|(first, count)| v >= first && v - first < count)
        };
        within(self.mips, sub.mip) && within(self.layers, sub.layer)
    }

    /// Whether two ranges name a common subresource.
    pub fn overlaps(&self, other: &SubresourceRange) -> bool {
        let meet = |a: Option<(u32, u32)>, b: Option<(u32, u32)>| match (a, b) {
            (Some((a0, ac)), Some((b0, bc))) => {
                u64::from(a0) < u64::from(b0) + u64::from(bc)
                    && u64::from(b0) < u64::from(a0) + u64::from(ac)
            }
            _ => true,
        };
        meet(self.mips, other.mips) && meet(self.layers, other.layers)
    }

    /// How the range reads in messages: `the whole texture`, `mip 2 of layer 0`, `layers 0..2`.
    pub fn describe(&self) -> String {
        if let Some(s) = self.single() {
            return format!("mip {} of layer {}", s.mip, s.layer);
        }
        let part = |what: &str, r: Option<(u32, u32)>| {
            r.map(|(first, count)| {
                format!("{what} {first}..{}", u64::from(first) + u64::from(count))
            })
        };
        match (part("mips", self.mips), part("layers", self.layers)) {
            (None, None) => "the whole texture".to_owned(),
            (Some(m), None) => m,
            (None, Some(l)) => l,
            (Some(m), Some(l)) => format!("{m} of {l}"),
        }
    }
}

impl BufferHandle {
    /// The resource's index in declaration order.
    pub fn index(self) -> ResourceId {
        self.index
    }
}

/// Shape of a texture: format, size, layers, samples, mips.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TextureDesc {
    /// Texel format.
    pub format: TextureFormat,
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// Array layers (1 for a plain 2D texture).
    pub layers: u32,
    /// MSAA sample count.
    pub samples: u32,
    /// Mip levels. An attachment renders to one mip at that mip's size.
    pub mips: u32,
}

impl TextureDesc {
    /// A single-sampled 2D texture of one layer and one mip.
    pub fn new(format: TextureFormat, width: u32, height: u32) -> Self {
        TextureDesc {
            format,
            width,
            height,
            layers: 1,
            samples: 1,
            mips: 1,
        }
    }

    /// The same texture with `samples` MSAA samples.
    pub fn samples(mut self, samples: u32) -> Self {
        self.samples = samples;
        self
    }

    /// The same texture with `layers` array layers.
    pub fn layers(mut self, layers: u32) -> Self {
        self.layers = layers;
        self
    }

    /// The same texture with `mips` mip levels.
    pub fn mips(mut self, mips: u32) -> Self {
        self.mips = mips;
        self
    }

    /// Width and height of mip `mip`: `max(1, w >> mip) × max(1, h >> mip)`.
    #[inline]
    pub fn mip_size(&self, mip: u32) -> (u32, u32) {
        let shrink = |v: u32| v.checked_shr(mip).unwrap_or(0).max(1);
        (shrink(self.width), shrink(self.height))
    }

    /// Number of subresources: mips × layers.
    #[inline]
    pub fn subresource_count(&self) -> u32 {
        self.mips.saturating_mul(self.layers)
    }

    /// Bytes of one subresource at mip `mip` in the traffic model
    /// ([guide](crate::guide#traffic-model)): `max(1, w >> mip) × max(1, h >> mip) × texel ×
    /// samples`, in blocks for block-compressed formats. `None` for formats the model cannot
    /// count, or a count beyond `u64`.
    pub fn subresource_bytes(&self, mip: u32) -> Option<u64> {
        let texel = self.texel_bytes()?;
        self.mip_bytes(texel, mip)
    }

    /// Bytes of one texel (of one block, for block-compressed formats) in the traffic model;
    /// `None` for formats it cannot count.
    pub(crate) fn texel_bytes(&self) -> Option<u64> {
        crate::format::texel_bytes(self.format)
            .or_else(|| self.format.block_copy_size(None).map(u64::from))
    }

    /// [`subresource_bytes`](Self::subresource_bytes) with the format's `texel` bytes looked
    /// up once: validation counts every mip of a texture.
    #[inline]
    pub(crate) fn mip_bytes(&self, texel: u64, mip: u32) -> Option<u64> {
        let (w, h) = self.mip_size(mip);
        let (bw, bh) = self.format.block_dimensions();
        [
            u64::from(w.div_ceil(bw)),
            u64::from(h.div_ceil(bh)),
            u64::from(self.samples),
        ]
        .into_iter()
        .try_fold(texel, u64::checked_mul)
    }

    /// The wgpu descriptor of a 2D texture of this shape with `layers` layers (the whole
    /// texture's, or one of a multisampled array kept one texture per layer).
    pub(crate) fn wgpu_descriptor<'l>(
        &self,
        label: &'l str,
        layers: u32,
        usage: wgpu::TextureUsages,
    ) -> wgpu::TextureDescriptor<'l> {
        wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width: self.width,
                height: self.height,
                depth_or_array_layers: layers,
            },
            mip_level_count: self.mips,
            sample_count: self.samples,
            dimension: wgpu::TextureDimension::D2,
            format: self.format,
            usage,
            view_formats: &[],
        }
    }

    /// Whether `sub` lies inside the texture.
    #[inline]
    pub fn contains(&self, sub: Subresource) -> bool {
        sub.mip < self.mips && sub.layer < self.layers
    }
}

/// Shape of a buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BufferDesc {
    /// Size in bytes.
    pub size: u64,
}

/// A clear value: colour, depth, or depth and stencil.
///
/// Every builder method that takes a clear value takes `impl Into<ClearValue>`: a `ClearValue`,
/// an `[r, g, b, a]` array or a [`wgpu::Color`] for colour, an `f32` for depth. It goes on the
/// resource ([`create_texture_cleared`](crate::RenderGraph::create_texture_cleared): every clear
/// of it, and a read of it before anything wrote it, starts from the value) or on one `clear`
/// access ([`color_cleared`](crate::RenderPassBuilder::color_cleared),
/// [`depth_cleared`](crate::RenderPassBuilder::depth_cleared)), which wins over the resource's
/// ([guide](crate::guide#accesses)).
///
/// ```
/// use tilegraph::{ClearValue, RenderGraph, TextureDesc};
/// use tilegraph::wgpu::TextureFormat;
///
/// let mut graph = RenderGraph::new();
/// let sky = [0.2, 0.4, 0.8, 1.0];
/// let hdr = graph.create_texture_cleared("hdr", TextureDesc::new(TextureFormat::Rgba16Float, 64, 64), sky);
/// let depth = graph.create_texture_cleared("depth", TextureDesc::new(TextureFormat::Depth32Float, 64, 64), 1.0);
/// assert_eq!(graph.resources()[0].clear, Some(ClearValue::Color(sky)));
/// assert_eq!(graph.resources()[1].clear, Some(ClearValue::Depth(1.0)));
/// # let _ = (hdr, depth);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ClearValue {
    /// RGBA colour.
    Color([f64; 4]),
    /// Depth only (stencil, if the format has one, clears to 0).
    Depth(f32),
    /// Depth and stencil.
    DepthStencil {
        /// Depth value.
        depth: f32,
        /// Stencil value.
        stencil: u32,
    },
}

impl Eq for ClearValue {}

impl From<[f64; 4]> for ClearValue {
    /// A colour clear value.
    fn from(rgba: [f64; 4]) -> Self {
        ClearValue::Color(rgba)
    }
}

impl From<wgpu::Color> for ClearValue {
    /// A colour clear value.
    fn from(c: wgpu::Color) -> Self {
        ClearValue::Color([c.r, c.g, c.b, c.a])
    }
}

impl From<f32> for ClearValue {
    /// A depth clear value (stencil, if the format has one, clears to 0).
    fn from(depth: f32) -> Self {
        ClearValue::Depth(depth)
    }
}

impl Hash for ClearValue {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match *self {
            ClearValue::Color(c) => {
                0u8.hash(state);
                c.map(f64::to_bits).hash(state);
            }
            ClearValue::Depth(d) => {
                1u8.hash(state);
                d.to_bits().hash(state);
            }
            ClearValue::DepthStencil { depth, stencil } => {
                2u8.hash(state);
                depth.to_bits().hash(state);
                stencil.hash(state);
            }
        }
    }
}

impl std::fmt::Display for ClearValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            ClearValue::Color([r, g, b, a]) => write!(f, "({r}, {g}, {b}, {a})"),
            ClearValue::Depth(d) => write!(f, "depth {d}"),
            ClearValue::DepthStencil { depth, stencil } => {
                write!(f, "depth {depth} stencil {stencil}")
            }
        }
    }
}

impl ClearValue {
    /// Transparent black for colour, depth 1.0 / stencil 0 for depth formats.
    pub fn fast_default(format: TextureFormat) -> Self {
        if format.is_depth_stencil_format() {
            ClearValue::DepthStencil {
                depth: 1.0,
                stencil: 0,
            }
        } else {
            ClearValue::Color([0.0; 4])
        }
    }

    /// Whether tile hardware can clear to this value without a full write ([guide](crate::guide#warnings) lists them).
    pub fn is_fast(&self) -> bool {
        const FAST: [[f64; 4]; 4] = [
            [0.0, 0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 1.0],
            [1.0, 1.0, 1.0, 0.0],
            [1.0, 1.0, 1.0, 1.0],
        ];
        match *self {
            ClearValue::Color(c) => FAST.contains(&c),
            ClearValue::Depth(d) => d == 0.0 || d == 1.0,
            ClearValue::DepthStencil { depth, stencil } => {
                (depth == 0.0 || depth == 1.0) && stencil == 0
            }
        }
    }

    /// Depth part of a depth clear value.
    pub fn depth(&self) -> f32 {
        match *self {
            ClearValue::Depth(d) | ClearValue::DepthStencil { depth: d, .. } => d,
            ClearValue::Color(_) => 1.0,
        }
    }

    /// Stencil part of a depth clear value.
    pub fn stencil(&self) -> u32 {
        match *self {
            ClearValue::DepthStencil { stencil, .. } => stencil,
            _ => 0,
        }
    }

    /// Colour part as a wgpu colour.
    pub fn color(&self) -> wgpu::Color {
        match *self {
            ClearValue::Color([r, g, b, a]) => wgpu::Color { r, g, b, a },
            _ => wgpu::Color::TRANSPARENT,
        }
    }
}

/// What an imported resource holds when the frame starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ImportContents {
    /// Nothing the frame may read (a freshly acquired surface texture).
    Undefined,
    /// Contents from before the frame that passes may read (history buffers).
    Preserved,
}

/// What happens to an imported resource's contents after the frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ImportAfter {
    /// The frame-end contents are used after the frame (presented, read next frame).
    Keep,
    /// Nobody looks at the contents after the frame.
    Discard,
}

/// How a resource owned outside the graph enters and leaves the frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Import {
    /// Contents at frame start.
    pub contents: ImportContents,
    /// Fate of the frame-end contents.
    pub after: ImportAfter,
}

impl Import {
    /// An output image: the frame writes it from scratch and its contents are used after the
    /// frame (a swapchain image, a render target read by the caller). Undefined contents, kept.
    pub const OUTPUT: Import = Import {
        contents: ImportContents::Undefined,
        after: ImportAfter::Keep,
    };

    /// A persistent image: the frame reads the contents it finds and its contents are used after
    /// the frame (an accumulation buffer, a history the caller keeps). Preserved contents, kept.
    pub const PERSISTENT: Import = Import {
        contents: ImportContents::Preserved,
        after: ImportAfter::Keep,
    };

    /// A read-only input: the frame reads the contents it finds and nobody looks at them after
    /// the frame (a texture uploaded by the caller, last frame's image). Preserved contents,
    /// discarded.
    pub const INPUT: Import = Import {
        contents: ImportContents::Preserved,
        after: ImportAfter::Discard,
    };
}

/// How a render pass uses one attachment ([guide](crate::guide#accesses)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Access {
    /// The pass clears the attachment first.
    Clear,
    /// The pass overwrites every pixel of the render area: prior contents not needed.
    Write,
    /// The pass needs the prior contents (blending, partial coverage, depth test against them).
    ReadWrite,
    /// Depth/stencil only: read-only depth test.
    Read,
}

impl Access {
    /// The description's name of the access.
    pub fn as_str(self) -> &'static str {
        match self {
            Access::Clear => "clear",
            Access::Write => "write",
            Access::ReadWrite => "read_write",
            Access::Read => "read",
        }
    }

    /// Whether the access needs the attachment's prior contents.
    pub fn reads_prior(self) -> bool {
        matches!(self, Access::ReadWrite | Access::Read)
    }
}
