//! Declare: the frame's resources and passes, what each pass reads and writes, and its closure.

use std::hash::{Hash, Hasher};

use crate::hash::WideHasher;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use wgpu::TextureFormat;

use crate::execute::{PassContext, PassError};

/// Index of a resource in declaration order.
pub type ResourceId = u32;
/// Index of a pass in declaration order.
pub type PassId = u32;

/// A texture declared in a [`RenderGraph`]. Only valid for the graph that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TextureHandle {
    pub(crate) graph: u32,
    pub(crate) index: ResourceId,
}

/// A buffer declared in a [`RenderGraph`]. Only valid for the graph that made it.
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
    /// Mip levels; attachments render to mip 0.
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
}

/// Shape of a buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BufferDesc {
    /// Size in bytes.
    pub size: u64,
}

/// What a resource is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResourceKind {
    /// A texture.
    Texture(TextureDesc),
    /// A buffer.
    Buffer(BufferDesc),
}

/// A clear value: colour, depth, or depth and stencil.
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

    /// Whether tile hardware can clear to this value without a full write (DESIGN §4 lists them).
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImportContents {
    /// Nothing the frame may read (a freshly acquired surface texture).
    Undefined,
    /// Contents from before the frame that passes may read (history buffers).
    Preserved,
}

/// What happens to an imported resource's contents after the frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImportAfter {
    /// The frame-end contents are used after the frame (presented, read next frame).
    Keep,
    /// Nobody looks at the contents after the frame.
    Discard,
}

/// How a resource owned outside the graph enters and leaves the frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Import {
    /// Contents at frame start.
    pub contents: ImportContents,
    /// Fate of the frame-end contents.
    pub after: ImportAfter,
}

/// How a render pass uses one attachment (DESIGN §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

/// Type of a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PassKind {
    /// Draws into attachments.
    Render,
    /// Dispatches compute work.
    Compute,
    /// Copies between resources.
    Copy,
}

impl PassKind {
    /// The description's name of the pass type.
    pub fn as_str(self) -> &'static str {
        match self {
            PassKind::Render => "render",
            PassKind::Compute => "compute",
            PassKind::Copy => "copy",
        }
    }
}

/// A colour attachment of a render pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColorAttachment {
    /// The attached texture.
    pub resource: ResourceId,
    /// How the pass uses it.
    pub access: Access,
    /// The access's own clear value, if any.
    pub clear: Option<ClearValue>,
    /// Single-sampled texture the attachment resolves into.
    pub resolve: Option<ResourceId>,
}

/// The depth/stencil attachment of a render pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DepthAttachment {
    /// The attached texture.
    pub resource: ResourceId,
    /// How the pass uses it.
    pub access: Access,
    /// The access's own clear value, if any.
    pub clear: Option<ClearValue>,
}

/// A declared resource.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ResourceDecl {
    /// Unique name.
    pub name: Arc<str>,
    /// Texture or buffer shape.
    pub kind: ResourceKind,
    /// Clear value used when an attachment access clears it.
    pub clear: Option<ClearValue>,
    /// Set for resources owned outside the graph.
    pub import: Option<Import>,
}

/// A declared pass: its type and every access.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PassDecl {
    /// Unique name.
    pub name: Arc<str>,
    /// Render, compute or copy.
    pub kind: PassKind,
    /// Colour attachments in slot order.
    pub color: Vec<ColorAttachment>,
    /// Depth/stencil attachment.
    pub depth: Option<DepthAttachment>,
    /// Textures read by a shader.
    pub sample: Vec<ResourceId>,
    /// Textures read at the same pixel an earlier pass wrote (framebuffer fetch).
    pub input: Vec<ResourceId>,
    /// Storage resources read.
    pub storage_read: Vec<ResourceId>,
    /// Storage resources overwritten entirely.
    pub storage_write: Vec<ResourceId>,
    /// Storage resources read and written.
    pub storage_read_write: Vec<ResourceId>,
    /// Copy sources.
    pub copy_src: Vec<ResourceId>,
    /// Copy destinations, overwritten entirely.
    pub copy_dst: Vec<ResourceId>,
    /// Keeps the pass alive even if nobody reads its outputs.
    pub side_effects: bool,
}

impl PassDecl {
    pub(crate) fn new(name: Arc<str>, kind: PassKind) -> Self {
        PassDecl {
            name,
            kind,
            color: Vec::new(),
            depth: None,
            sample: Vec::new(),
            input: Vec::new(),
            storage_read: Vec::new(),
            storage_write: Vec::new(),
            storage_read_write: Vec::new(),
            copy_src: Vec::new(),
            copy_dst: Vec::new(),
            side_effects: false,
        }
    }
}

/// Closure recording a render pass.
pub type RenderCallback<'a> =
    Box<dyn FnMut(&mut wgpu::RenderPass<'_>, &PassContext<'_>) -> Result<(), PassError> + 'a>;
/// Closure recording a compute pass.
pub type ComputeCallback<'a> =
    Box<dyn FnMut(&mut wgpu::ComputePass<'_>, &PassContext<'_>) -> Result<(), PassError> + 'a>;
/// Closure recording a copy pass (or any encoder work).
pub type CopyCallback<'a> =
    Box<dyn FnMut(&mut wgpu::CommandEncoder, &PassContext<'_>) -> Result<(), PassError> + 'a>;

/// The closure attached to a pass.
pub enum PassCallback<'a> {
    /// For render passes.
    Render(RenderCallback<'a>),
    /// For compute passes.
    Compute(ComputeCallback<'a>),
    /// For copy passes.
    Copy(CopyCallback<'a>),
}

/// Incrementally maintained 128-bit fingerprint of the graph's structure (what the compiler reads).
#[derive(Clone)]
pub(crate) struct Fingerprint(WideHasher);

impl Fingerprint {
    fn new() -> Self {
        Fingerprint(WideHasher::default())
    }

    fn add(&mut self, item: &impl Hash) {
        item.hash(&mut self.0);
    }

    fn value(&self) -> u128 {
        self.0.finish128()
    }
}

static NEXT_GRAPH_ID: AtomicU32 = AtomicU32::new(1);

/// One frame's render graph: resources, passes and their closures.
///
/// Builder methods never fail: mistakes are found by [`RenderGraph::compile`], which validates the
/// whole declared graph and returns a typed [`GraphError`](crate::GraphError).
pub struct RenderGraph<'a> {
    pub(crate) id: u32,
    pub(crate) resources: Vec<ResourceDecl>,
    pub(crate) passes: Vec<PassDecl>,
    pub(crate) callbacks: Vec<Option<PassCallback<'a>>>,
    /// A handle that did not belong to this graph, found while declaring: (pass, description).
    pub(crate) foreign_handle: Option<(Arc<str>, String)>,
    fingerprint: Fingerprint,
}

impl Default for RenderGraph<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for RenderGraph<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RenderGraph")
            .field("resources", &self.resources)
            .field("passes", &self.passes)
            .finish_non_exhaustive()
    }
}

impl<'a> RenderGraph<'a> {
    /// An empty graph.
    pub fn new() -> Self {
        RenderGraph {
            id: NEXT_GRAPH_ID.fetch_add(1, Ordering::Relaxed),
            resources: Vec::new(),
            passes: Vec::new(),
            callbacks: Vec::new(),
            foreign_handle: None,
            fingerprint: Fingerprint::new(),
        }
    }

    /// An empty graph with room for `resources` resources and `passes` passes, so that declaring
    /// a frame of known shape does not grow its tables.
    pub fn with_capacity(resources: usize, passes: usize) -> Self {
        let mut graph = Self::new();
        graph.resources.reserve(resources);
        graph.passes.reserve(passes);
        graph.callbacks.reserve(passes);
        graph
    }

    /// Declared resources, in declaration order.
    pub fn resources(&self) -> &[ResourceDecl] {
        &self.resources
    }

    /// Declared passes, in declaration order.
    pub fn passes(&self) -> &[PassDecl] {
        &self.passes
    }

    /// A 128-bit hash of everything the compiler reads (not the closures); equal graphs built the same
    /// way have equal fingerprints. Maintained as the graph is built, so reading it is free.
    pub fn fingerprint(&self) -> u128 {
        self.fingerprint.value()
    }

    pub(crate) fn push_resource(&mut self, decl: ResourceDecl) -> ResourceId {
        self.fingerprint.add(&(0u8, &decl));
        let id = self.resources.len() as ResourceId;
        self.resources.push(decl);
        id
    }

    /// Completes a pass that a builder declared in place.
    fn commit_pass(&mut self, index: usize, callback: Option<PassCallback<'a>>) -> PassId {
        self.fingerprint.add(&(1u8, &self.passes[index]));
        self.callbacks.push(callback);
        debug_assert_eq!(self.callbacks.len(), self.passes.len());
        index as PassId
    }

    pub(crate) fn push_pass(
        &mut self,
        decl: PassDecl,
        callback: Option<PassCallback<'a>>,
    ) -> PassId {
        self.fingerprint.add(&(1u8, &decl));
        let id = self.passes.len() as PassId;
        self.passes.push(decl);
        self.callbacks.push(callback);
        id
    }

    /// Declares a texture owned by the graph: undefined at frame start, discarded at frame end.
    pub fn create_texture(&mut self, name: &str, desc: TextureDesc) -> TextureHandle {
        self.texture(name, desc, None, None)
    }

    /// Declares a graph-owned texture with a clear value for the attachment accesses that clear it.
    pub fn create_texture_cleared(
        &mut self,
        name: &str,
        desc: TextureDesc,
        clear: ClearValue,
    ) -> TextureHandle {
        self.texture(name, desc, Some(clear), None)
    }

    /// Declares a texture owned outside the graph (a surface texture, a history buffer); the executor
    /// binds the real texture each frame.
    pub fn import_texture(
        &mut self,
        name: &str,
        desc: TextureDesc,
        import: Import,
    ) -> TextureHandle {
        self.texture(name, desc, None, Some(import))
    }

    /// Declares any texture: the general form of the three methods above.
    pub fn texture(
        &mut self,
        name: &str,
        desc: TextureDesc,
        clear: Option<ClearValue>,
        import: Option<Import>,
    ) -> TextureHandle {
        let index = self.push_resource(ResourceDecl {
            name: name.into(),
            kind: ResourceKind::Texture(desc),
            clear,
            import,
        });
        TextureHandle {
            graph: self.id,
            index,
        }
    }

    /// Declares a buffer owned by the graph.
    pub fn create_buffer(&mut self, name: &str, size: u64) -> BufferHandle {
        self.buffer(name, size, None)
    }

    /// Declares a buffer owned outside the graph.
    pub fn import_buffer(&mut self, name: &str, size: u64, import: Import) -> BufferHandle {
        self.buffer(name, size, Some(import))
    }

    fn buffer(&mut self, name: &str, size: u64, import: Option<Import>) -> BufferHandle {
        let index = self.push_resource(ResourceDecl {
            name: name.into(),
            kind: ResourceKind::Buffer(BufferDesc { size }),
            clear: None,
            import,
        });
        BufferHandle {
            graph: self.id,
            index,
        }
    }

    /// Starts a render pass. Declare its accesses on the builder, then give it a closure with
    /// [`RenderPassBuilder::execute`] (a builder dropped without one declares the pass without a closure).
    pub fn add_render_pass(&mut self, name: &str) -> RenderPassBuilder<'_, 'a> {
        RenderPassBuilder {
            inner: PassBuilder::new(self, name, PassKind::Render),
        }
    }

    /// Starts a compute pass.
    pub fn add_compute_pass(&mut self, name: &str) -> ComputePassBuilder<'_, 'a> {
        ComputePassBuilder {
            inner: PassBuilder::new(self, name, PassKind::Compute),
        }
    }

    /// Starts a copy pass.
    pub fn add_copy_pass(&mut self, name: &str) -> CopyPassBuilder<'_, 'a> {
        CopyPassBuilder {
            inner: PassBuilder::new(self, name, PassKind::Copy),
        }
    }

    /// Looks a resource up by name.
    pub fn resource_id(&self, name: &str) -> Option<ResourceId> {
        self.resources
            .iter()
            .position(|r| &*r.name == name)
            .map(|i| i as ResourceId)
    }

    /// The handle of a texture declared under `name`.
    pub fn texture_handle(&self, name: &str) -> Option<TextureHandle> {
        let index = self.resource_id(name)?;
        matches!(
            self.resources[index as usize].kind,
            ResourceKind::Texture(_)
        )
        .then_some(TextureHandle {
            graph: self.id,
            index,
        })
    }

    /// The handle of a buffer declared under `name`.
    pub fn buffer_handle(&self, name: &str) -> Option<BufferHandle> {
        let index = self.resource_id(name)?;
        matches!(self.resources[index as usize].kind, ResourceKind::Buffer(_)).then_some(
            BufferHandle {
                graph: self.id,
                index,
            },
        )
    }

    /// Attaches (or replaces) the closure of a pass declared without one, e.g. loaded from JSON.
    pub fn set_callback(&mut self, pass: PassId, callback: PassCallback<'a>) {
        if let Some(slot) = self.callbacks.get_mut(pass as usize) {
            *slot = Some(callback);
        }
    }

    /// Looks a pass up by name.
    pub fn pass_id(&self, name: &str) -> Option<PassId> {
        self.passes
            .iter()
            .position(|p| &*p.name == name)
            .map(|i| i as PassId)
    }
}

/// Shared state of the three pass builders: the pass under construction, committed on drop.
struct PassBuilder<'g, 'a> {
    graph: &'g mut RenderGraph<'a>,
    /// Index of the pass, already in `graph.passes` (the builder stays small to move around);
    /// `None` once committed.
    index: Option<usize>,
}

impl<'g, 'a> PassBuilder<'g, 'a> {
    fn new(graph: &'g mut RenderGraph<'a>, name: &str, kind: PassKind) -> Self {
        graph.passes.push(PassDecl::new(name.into(), kind));
        let index = Some(graph.passes.len() - 1);
        PassBuilder { graph, index }
    }

    fn decl(&mut self) -> &mut PassDecl {
        let index = self.index.expect("pass builder used after commit");
        &mut self.graph.passes[index]
    }

    /// Resolves a handle, remembering the first handle that belongs to another graph.
    fn id(&mut self, graph: u32, index: ResourceId) -> ResourceId {
        if graph != self.graph.id && self.graph.foreign_handle.is_none() {
            let pass = self.decl().name.clone();
            self.graph.foreign_handle = Some((pass, format!("<handle #{index} of another graph>")));
        }
        index
    }

    fn texture(&mut self, h: TextureHandle) -> ResourceId {
        self.id(h.graph, h.index)
    }

    fn buffer(&mut self, h: BufferHandle) -> ResourceId {
        self.id(h.graph, h.index)
    }

    fn commit(&mut self, callback: Option<PassCallback<'a>>) -> PassId {
        let index = self.index.take().expect("pass committed twice");
        self.graph.commit_pass(index, callback)
    }
}

impl Drop for PassBuilder<'_, '_> {
    fn drop(&mut self) {
        if self.index.is_some() {
            self.commit(None);
        }
    }
}

macro_rules! common_pass_methods {
    () => {
        /// Keeps the pass alive even if nothing reads its outputs.
        pub fn side_effects(mut self) -> Self {
            self.inner.decl().side_effects = true;
            self
        }
    };
}

macro_rules! shader_pass_methods {
    () => {
        /// The pass samples (or otherwise reads in a shader) `texture`.
        pub fn sample(mut self, texture: TextureHandle) -> Self {
            let id = self.inner.texture(texture);
            self.inner.decl().sample.push(id);
            self
        }

        /// The pass reads storage texture `texture`.
        pub fn storage_read(mut self, texture: TextureHandle) -> Self {
            let id = self.inner.texture(texture);
            self.inner.decl().storage_read.push(id);
            self
        }

        /// The pass overwrites all of storage texture `texture`.
        pub fn storage_write(mut self, texture: TextureHandle) -> Self {
            let id = self.inner.texture(texture);
            self.inner.decl().storage_write.push(id);
            self
        }

        /// The pass reads and writes storage texture `texture`.
        pub fn storage_read_write(mut self, texture: TextureHandle) -> Self {
            let id = self.inner.texture(texture);
            self.inner.decl().storage_read_write.push(id);
            self
        }

        /// The pass reads `buffer` as a storage buffer.
        pub fn storage_read_buffer(mut self, buffer: BufferHandle) -> Self {
            let id = self.inner.buffer(buffer);
            self.inner.decl().storage_read.push(id);
            self
        }

        /// The pass overwrites all of `buffer` as a storage buffer.
        pub fn storage_write_buffer(mut self, buffer: BufferHandle) -> Self {
            let id = self.inner.buffer(buffer);
            self.inner.decl().storage_write.push(id);
            self
        }

        /// The pass reads and writes `buffer` as a storage buffer.
        pub fn storage_read_write_buffer(mut self, buffer: BufferHandle) -> Self {
            let id = self.inner.buffer(buffer);
            self.inner.decl().storage_read_write.push(id);
            self
        }
    };
}

/// Declares a render pass; see [`RenderGraph::add_render_pass`].
pub struct RenderPassBuilder<'g, 'a> {
    inner: PassBuilder<'g, 'a>,
}

impl<'a> RenderPassBuilder<'_, 'a> {
    common_pass_methods!();
    shader_pass_methods!();

    /// Adds the next colour attachment.
    pub fn color(mut self, texture: TextureHandle, access: Access) -> Self {
        let resource = self.inner.texture(texture);
        self.inner.decl().color.push(ColorAttachment {
            resource,
            access,
            clear: None,
            resolve: None,
        });
        self
    }

    /// Adds the next colour attachment, cleared to `color`.
    pub fn color_cleared(mut self, texture: TextureHandle, color: [f64; 4]) -> Self {
        let resource = self.inner.texture(texture);
        let clear = Some(ClearValue::Color(color));
        self.inner.decl().color.push(ColorAttachment {
            resource,
            access: Access::Clear,
            clear,
            resolve: None,
        });
        self
    }

    /// Adds the next colour attachment, a multisampled texture resolved into `target` when the pass ends.
    pub fn color_resolved(
        mut self,
        texture: TextureHandle,
        access: Access,
        target: TextureHandle,
    ) -> Self {
        let resource = self.inner.texture(texture);
        let resolve = Some(self.inner.texture(target));
        self.inner.decl().color.push(ColorAttachment {
            resource,
            access,
            clear: None,
            resolve,
        });
        self
    }

    /// Sets the depth/stencil attachment.
    pub fn depth(mut self, texture: TextureHandle, access: Access) -> Self {
        let resource = self.inner.texture(texture);
        self.inner.decl().depth = Some(DepthAttachment {
            resource,
            access,
            clear: None,
        });
        self
    }

    /// Sets the depth/stencil attachment, cleared to `clear`.
    pub fn depth_cleared(mut self, texture: TextureHandle, clear: ClearValue) -> Self {
        let resource = self.inner.texture(texture);
        self.inner.decl().depth = Some(DepthAttachment {
            resource,
            access: Access::Clear,
            clear: Some(clear),
        });
        self
    }

    /// Reads `texture` at the pixel being shaded, as written by an earlier pass (framebuffer fetch;
    /// executed as a sampled read on wgpu).
    pub fn input(mut self, texture: TextureHandle) -> Self {
        let id = self.inner.texture(texture);
        self.inner.decl().input.push(id);
        self
    }

    /// Declares the pass with the closure that records it.
    pub fn execute(
        mut self,
        f: impl FnMut(&mut wgpu::RenderPass<'_>, &PassContext<'_>) -> Result<(), PassError> + 'a,
    ) -> PassId {
        self.inner.commit(Some(PassCallback::Render(Box::new(f))))
    }

    /// Declares the pass without a closure (plan-only use, or [`RenderGraph::set_callback`] later).
    pub fn finish(mut self) -> PassId {
        self.inner.commit(None)
    }
}

/// Declares a compute pass; see [`RenderGraph::add_compute_pass`].
pub struct ComputePassBuilder<'g, 'a> {
    inner: PassBuilder<'g, 'a>,
}

impl<'a> ComputePassBuilder<'_, 'a> {
    common_pass_methods!();
    shader_pass_methods!();

    /// Declares the pass with the closure that records it.
    pub fn execute(
        mut self,
        f: impl FnMut(&mut wgpu::ComputePass<'_>, &PassContext<'_>) -> Result<(), PassError> + 'a,
    ) -> PassId {
        self.inner.commit(Some(PassCallback::Compute(Box::new(f))))
    }

    /// Declares the pass without a closure.
    pub fn finish(mut self) -> PassId {
        self.inner.commit(None)
    }
}

/// Declares a copy pass; see [`RenderGraph::add_copy_pass`].
pub struct CopyPassBuilder<'g, 'a> {
    inner: PassBuilder<'g, 'a>,
}

impl<'a> CopyPassBuilder<'_, 'a> {
    common_pass_methods!();

    /// The pass copies from `texture`.
    pub fn copy_src(mut self, texture: TextureHandle) -> Self {
        let id = self.inner.texture(texture);
        self.inner.decl().copy_src.push(id);
        self
    }

    /// The pass overwrites all of `texture` by a copy.
    pub fn copy_dst(mut self, texture: TextureHandle) -> Self {
        let id = self.inner.texture(texture);
        self.inner.decl().copy_dst.push(id);
        self
    }

    /// The pass copies from `buffer`.
    pub fn copy_src_buffer(mut self, buffer: BufferHandle) -> Self {
        let id = self.inner.buffer(buffer);
        self.inner.decl().copy_src.push(id);
        self
    }

    /// The pass overwrites all of `buffer` by a copy.
    pub fn copy_dst_buffer(mut self, buffer: BufferHandle) -> Self {
        let id = self.inner.buffer(buffer);
        self.inner.decl().copy_dst.push(id);
        self
    }

    /// Declares the pass with the closure that records it.
    pub fn execute(
        mut self,
        f: impl FnMut(&mut wgpu::CommandEncoder, &PassContext<'_>) -> Result<(), PassError> + 'a,
    ) -> PassId {
        self.inner.commit(Some(PassCallback::Copy(Box::new(f))))
    }

    /// Declares the pass without a closure.
    pub fn finish(mut self) -> PassId {
        self.inner.commit(None)
    }
}
