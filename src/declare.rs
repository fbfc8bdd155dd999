//! Declare: the frame's graph — its resources and passes, what each pass reads and writes, and
//! the closure that records it.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};

mod fingerprint;
mod history;
mod spare;
use fingerprint::Fingerprint;
pub use history::{History, HistoryBuffer};
use spare::Spare;

use crate::context::{PassContext, PassError};
use crate::decl::Passes;
use crate::decl::pass::{ColorAttachment, DepthAttachment, Entry, ListAccess, PassDecl, PassKind};
use crate::decl::passes::LastPass;
use crate::decl::resource::{ResourceDecl, ResourceKind};
use crate::hash::name_hash;
use crate::ids::{PassId, ResourceId};
use crate::resource::{
    Access, BufferDesc, BufferHandle, ClearValue, Import, SubresourceHandle, TextureDesc,
    TextureHandle, TextureRef,
};

/// Closure recording a render pass. Closures are `Send` so that an executor with recording
/// threads ([`ExecutorOptions::with_recording_threads`](crate::ExecutorOptions::with_recording_threads))
/// can call them on another thread; each is called on one thread at a time.
///
/// The pass is a `wgpu::RenderPass<'static>` (wgpu's `forget_lifetime`): renderers that take
/// one, such as egui-wgpu's `Renderer::render`, draw inside a graph pass
/// ([guide](crate::guide#drawing-egui-inside-a-pass)). It stays the group's pass: the closure
/// records into it and hands it back.
pub type RenderCallback<'a> = Box<
    dyn FnMut(&mut wgpu::RenderPass<'static>, &PassContext<'_>) -> Result<(), PassError>
        + Send
        + 'a,
>;
/// Closure recording a compute pass; the pass is a `wgpu::ComputePass<'static>`, as for render
/// passes.
pub type ComputeCallback<'a> = Box<
    dyn FnMut(&mut wgpu::ComputePass<'static>, &PassContext<'_>) -> Result<(), PassError>
        + Send
        + 'a,
>;
/// Closure recording a copy pass (or any encoder work).
pub type CopyCallback<'a> = Box<
    dyn FnMut(&mut wgpu::CommandEncoder, &PassContext<'_>) -> Result<(), PassError> + Send + 'a,
>;

/// The closure attached to a pass.
pub enum PassCallback<'a> {
    /// For render passes.
    Render(RenderCallback<'a>),
    /// For compute passes.
    Compute(ComputeCallback<'a>),
    /// For copy passes.
    Copy(CopyCallback<'a>),
}

static NEXT_GRAPH_ID: AtomicU32 = AtomicU32::new(1);

/// One frame's render graph: resources, passes and their closures.
///
/// Builder methods never fail: mistakes are found by [`RenderGraph::compile`], which validates the
/// whole declared graph and returns a typed [`GraphError`](crate::GraphError).
pub struct RenderGraph<'a> {
    pub(crate) id: u32,
    /// Shared with the plans compiled from the graph, so compiling copies no declaration; the
    /// builder writes through `Arc::make_mut`, which copies only if a plan still shares them.
    pub(crate) resources: Arc<Vec<ResourceDecl>>,
    pub(crate) passes: Arc<Passes>,
    pub(crate) callbacks: Vec<Option<PassCallback<'a>>>,
    /// A handle that did not belong to this graph, found while declaring: (pass, description).
    pub(crate) foreign_handle: Option<(Arc<str>, String)>,
    /// History pairs: (previous, current).
    pub(crate) histories: Vec<(ResourceId, ResourceId)>,
    /// Each declaration's [`name_hash`], for the compiler's unique-name check.
    pub(crate) names: NameHashes,
    fingerprint: Fingerprint,
    /// The declarations of the frame before [`RenderGraph::reset`], in order: the next frame's
    /// declarations take their names one by one.
    spare: Spare,
}

/// The empty tables new graphs share until they declare (a graph made as a placeholder, as
/// `std::mem::take` makes one, allocates nothing).
fn empty_tables() -> (Arc<Vec<ResourceDecl>>, Arc<Passes>) {
    static EMPTY: OnceLock<(Arc<Vec<ResourceDecl>>, Arc<Passes>)> = OnceLock::new();
    EMPTY.get_or_init(Default::default).clone()
}

/// The [`name_hash`] of every resource and pass name, in declaration order.
#[derive(Debug, Default)]
pub(crate) struct NameHashes {
    pub(crate) resources: Vec<u32>,
    pub(crate) passes: Vec<u32>,
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
        let (resources, passes) = empty_tables();
        RenderGraph {
            id: NEXT_GRAPH_ID.fetch_add(1, Ordering::Relaxed),
            resources,
            passes,
            callbacks: Vec::new(),
            foreign_handle: None,
            histories: Vec::new(),
            names: NameHashes::default(),
            fingerprint: Fingerprint::new(),
            spare: Spare::default(),
        }
    }

    /// The graph emptied for the next frame's declarations, keeping its storage: a renderer
    /// that declares its frame every frame into the graph `reset` returns allocates nothing
    /// for declarations of the same shape as the last frame's (the tables keep their storage,
    /// and names are reused in declaration order). The closures are dropped, and handles from before the
    /// reset belong to another graph (using one is a compile error, as for any foreign handle).
    ///
    /// The fingerprint starts anew, so a [`PlanCache`](crate::PlanCache) finds the plan of the
    /// same declarations again. The declarations a plan compiled from the graph still shares
    /// stay with the plan.
    ///
    /// ```
    /// # use tilegraph::{Access, Import, RenderGraph, TextureDesc, wgpu::TextureFormat};
    /// let mut graph = RenderGraph::new();
    /// for _frame in 0..3 {
    ///     graph = graph.reset();
    ///     let out = graph.import_texture(
    ///         "out",
    ///         TextureDesc::new(TextureFormat::Rgba8Unorm, 64, 64),
    ///         Import::OUTPUT,
    ///     );
    ///     graph.add_render_pass("draw").color(out, Access::Clear).finish();
    /// }
    /// assert_eq!(graph.passes().len(), 1);
    /// ```
    pub fn reset<'b>(mut self) -> RenderGraph<'b> {
        self.spare.recycle(&mut self.resources, &mut self.passes);
        self.histories.clear();
        self.names.resources.clear();
        self.names.passes.clear();
        self.callbacks.clear();
        RenderGraph {
            id: NEXT_GRAPH_ID.fetch_add(1, Ordering::Relaxed),
            resources: self.resources,
            passes: self.passes,
            // The emptied list's storage, for closures of the new lifetime.
            callbacks: self.callbacks.into_iter().map_while(|_| None).collect(),
            foreign_handle: None,
            histories: self.histories,
            names: self.names,
            fingerprint: Fingerprint::new(),
            spare: self.spare,
        }
    }

    /// An empty graph with room for `resources` resources and `passes` passes, so that declaring
    /// a frame of known shape does not grow its tables.
    pub fn with_capacity(resources: usize, passes: usize) -> Self {
        let mut graph = Self::new();
        Arc::make_mut(&mut graph.resources).reserve(resources);
        Arc::make_mut(&mut graph.passes).reserve(passes);
        graph.callbacks.reserve(passes);
        graph.names.resources.reserve(resources);
        graph.names.passes.reserve(passes);
        graph
    }

    /// Declared resources, in declaration order.
    pub fn resources(&self) -> &[ResourceDecl] {
        &self.resources
    }

    /// Declared passes, in declaration order.
    pub fn passes(&self) -> &Passes {
        &self.passes
    }

    /// A 128-bit hash of everything the compiler reads (not the closures); equal graphs built the same
    /// way have equal fingerprints. Maintained as the graph is built, so reading it is free.
    pub fn fingerprint(&self) -> u128 {
        self.fingerprint.value()
    }

    pub(crate) fn push_resource(&mut self, mut decl: ResourceDecl) -> ResourceId {
        // Hashed as the builder declares it: the texture, then `keep_memory`.
        let keep_memory = std::mem::take(&mut decl.keep_memory);
        self.fingerprint.add_resource(&decl);
        self.names.resources.push(name_hash(&decl.name));
        let id = ResourceId::new(self.resources.len());
        Arc::make_mut(&mut self.resources).push(decl);
        if keep_memory {
            self.mark_keep_memory(id);
        }
        id
    }

    fn mark_keep_memory(&mut self, id: ResourceId) {
        let decl = &mut Arc::make_mut(&mut self.resources)[id.index()];
        if !decl.keep_memory {
            decl.keep_memory = true;
            self.fingerprint.add(&(2u8, id));
        }
    }

    pub(crate) fn push_pass(
        &mut self,
        decl: &PassDecl,
        callback: Option<PassCallback<'a>>,
    ) -> PassId {
        self.names.passes.push(name_hash(&decl.name));
        let id = PassId::new(self.passes.len());
        let passes = Arc::make_mut(&mut self.passes);
        passes.push(decl);
        self.fingerprint.add_pass(passes.at(id.index()));
        self.callbacks.push(callback);
        id
    }

    /// Declares a texture owned by the graph: undefined at frame start, discarded at frame end.
    pub fn create_texture(&mut self, name: &str, desc: TextureDesc) -> TextureHandle {
        self.texture(name, desc, None, None)
    }

    /// Declares a graph-owned texture with a clear value ([`ClearValue`]: a colour array, a
    /// depth, ...) for the attachment accesses that clear it.
    pub fn create_texture_cleared(
        &mut self,
        name: &str,
        desc: TextureDesc,
        clear: impl Into<ClearValue>,
    ) -> TextureHandle {
        self.texture(name, desc, Some(clear.into()), None)
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
        let name = self.spare.resource_name(name, None);
        let index = self.push_resource(ResourceDecl {
            name,
            kind: ResourceKind::Texture(desc),
            clear,
            import,
            keep_memory: false,
            history: None,
        });
        TextureHandle {
            graph: self.id,
            index,
        }
    }

    /// Keeps a graph-owned texture in memory: the plan never makes it
    /// `TextureUsages::TRANSIENT_ATTACHMENT` (memoryless), even where it lives on tile only
    /// ([guide](crate::guide#will-it-fit-the-tile)). On Apple GPUs a memoryless attachment aborts
    /// the command buffer when a pass has too much geometry for the tile memory; the plan's Apple
    /// tile entries say `memoryless` where that can happen.
    ///
    /// ```
    /// use tilegraph::{Access, CompileOptions, RenderGraph, TextureDesc};
    /// use tilegraph::wgpu::TextureFormat;
    ///
    /// let mut graph = RenderGraph::new();
    /// let depth = graph.create_texture("depth", TextureDesc::new(TextureFormat::Depth32Float, 64, 64));
    /// graph.keep_memory(depth);
    /// let out = graph.create_texture("out", TextureDesc::new(TextureFormat::Rgba8Unorm, 64, 64));
    /// graph.add_render_pass("draw").color(out, Access::Clear).depth(depth, Access::Clear).side_effects().finish();
    /// let plan = graph.compile(&CompileOptions::default())?;
    /// assert!(!plan.resources()[0].transient);
    /// # Ok::<(), tilegraph::GraphError>(())
    /// ```
    pub fn keep_memory(&mut self, texture: TextureHandle) {
        if texture.graph != self.id {
            if self.foreign_handle.is_none() {
                self.foreign_handle = Some((
                    "keep_memory".into(),
                    format!("<handle #{} of another graph>", texture.index),
                ));
            }
            return;
        }
        self.mark_keep_memory(texture.index);
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
        let name = self.spare.resource_name(name, None);
        let index = self.push_resource(ResourceDecl {
            name,
            kind: ResourceKind::Buffer(BufferDesc { size }),
            clear: None,
            import,
            keep_memory: false,
            history: None,
        });
        BufferHandle {
            graph: self.id,
            index,
        }
    }

    /// Starts a render pass. Declare its accesses on the builder, then end it with
    /// [`RenderPassBuilder::execute`] (its closure) or [`RenderPassBuilder::finish`] (none yet).
    /// A builder dropped without either still declares the pass, and executing a plan in which
    /// it is live is an error ([`ExecuteError::MissingCallback`](crate::ExecuteError::MissingCallback)).
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
            .map(ResourceId::new)
    }

    /// The handle of a texture declared under `name`.
    pub fn texture_handle(&self, name: &str) -> Option<TextureHandle> {
        let index = self.resource_id(name)?;
        matches!(self.resources[index.index()].kind, ResourceKind::Texture(_)).then_some(
            TextureHandle {
                graph: self.id,
                index,
            },
        )
    }

    /// The handle of a buffer declared under `name`.
    pub fn buffer_handle(&self, name: &str) -> Option<BufferHandle> {
        let index = self.resource_id(name)?;
        matches!(self.resources[index.index()].kind, ResourceKind::Buffer(_)).then_some(
            BufferHandle {
                graph: self.id,
                index,
            },
        )
    }

    /// Attaches (or replaces) the closure of a pass declared without one, e.g. loaded from JSON.
    pub fn set_callback(&mut self, pass: PassId, callback: PassCallback<'a>) {
        if let Some(slot) = self.callbacks.get_mut(pass.index()) {
            *slot = Some(callback);
        }
    }

    /// Looks a pass up by name.
    pub fn pass_id(&self, name: &str) -> Option<PassId> {
        self.passes
            .iter()
            .position(|p| p.name() == name)
            .map(PassId::new)
    }
}

/// Shared state of the three pass builders: the pass under construction, last in the graph's
/// passes from the start and committed (hashed) on drop. It borrows the graph's fields apart,
/// so that each access is one push into the graph's tables.
struct PassBuilder<'g, 'a> {
    /// The graph's passes, the last of them being declared.
    passes: &'g mut Passes,
    /// Whether the pass is committed.
    committed: bool,
    graph: u32,
    foreign_handle: &'g mut Option<(Arc<str>, String)>,
    callbacks: &'g mut Vec<Option<PassCallback<'a>>>,
    fingerprint: &'g mut Fingerprint,
}

impl<'g, 'a> PassBuilder<'g, 'a> {
    fn new(graph: &'g mut RenderGraph<'a>, name: &str, kind: PassKind) -> Self {
        let RenderGraph {
            id,
            passes,
            callbacks,
            foreign_handle,
            names,
            fingerprint,
            spare,
            ..
        } = graph;
        names.passes.push(name_hash(name));
        let name = spare.pass_name(name);
        let passes = Arc::make_mut(passes);
        passes.start(name, kind);
        PassBuilder {
            passes,
            committed: false,
            graph: *id,
            foreign_handle,
            callbacks,
            fingerprint,
        }
    }

    /// The pass's depth attachment, flags and view count, to set.
    fn last(&mut self) -> LastPass<'_> {
        self.passes.last_mut()
    }

    /// Resolves a handle, remembering the first handle that belongs to another graph.
    fn id(&mut self, graph: u32, index: ResourceId) -> ResourceId {
        if graph != self.graph && self.foreign_handle.is_none() {
            let pass = self.passes.last_name().expect("a started pass").clone();
            *self.foreign_handle = Some((pass, format!("<handle #{index} of another graph>")));
        }
        index
    }

    fn list(&mut self, access: ListAccess, texture: TextureRef) {
        let resource = self.id(texture.texture.graph, texture.texture.index);
        self.passes.push_entry(
            access,
            Entry {
                resource,
                range: texture.range,
                binding_size: None,
            },
        );
    }

    fn buffer(&mut self, access: ListAccess, h: BufferHandle) {
        let resource = self.id(h.graph, h.index);
        self.passes.push_entry(access, Entry::whole(resource));
    }

    fn buffer_slices(&mut self, access: ListAccess, h: BufferHandle, binding_size: u64) {
        let resource = self.id(h.graph, h.index);
        self.passes
            .push_entry(access, Entry::sliced(resource, binding_size));
    }

    fn commit(&mut self, callback: Option<PassCallback<'a>>) -> PassId {
        assert!(!self.committed, "pass committed twice");
        self.committed = true;
        let id = PassId::new(self.callbacks.len());
        self.fingerprint.add_pass(self.passes.at(id.index()));
        self.callbacks.push(callback);
        id
    }
}

impl Drop for PassBuilder<'_, '_> {
    fn drop(&mut self) {
        if !self.committed {
            self.commit(None);
        }
    }
}

macro_rules! common_pass_methods {
    () => {
        /// Keeps the pass alive even if nothing reads its outputs.
        pub fn side_effects(mut self) -> Self {
            *self.inner.last().side_effects = true;
            self
        }

        /// Pins the pass in declaration order: restructuring moves no pass across it. For work
        /// the graph cannot see (a query, a readback, an external dependency).
        pub fn keep_order(mut self) -> Self {
            *self.inner.last().keep_order = true;
            self
        }
    };
}

macro_rules! shader_pass_methods {
    () => {
        /// The pass samples (or otherwise reads in a shader) a texture: the whole texture, or one
        /// subresource (`texture.mip(1)`).
        pub fn sample(mut self, texture: impl Into<TextureRef>) -> Self {
            self.inner.list(ListAccess::Sample, texture.into());
            self
        }

        /// The pass reads a storage texture (whole or one subresource).
        pub fn storage_read(mut self, texture: impl Into<TextureRef>) -> Self {
            self.inner.list(ListAccess::StorageRead, texture.into());
            self
        }

        /// The pass overwrites all of a storage texture (whole or one subresource).
        pub fn storage_write(mut self, texture: impl Into<TextureRef>) -> Self {
            self.inner.list(ListAccess::StorageWrite, texture.into());
            self
        }

        /// The pass reads and writes a storage texture (whole or one subresource).
        pub fn storage_read_write(mut self, texture: impl Into<TextureRef>) -> Self {
            self.inner
                .list(ListAccess::StorageReadWrite, texture.into());
            self
        }

        /// The pass reads `buffer` as a storage buffer.
        pub fn storage_read_buffer(mut self, buffer: BufferHandle) -> Self {
            self.inner.buffer(ListAccess::StorageRead, buffer);
            self
        }

        /// The pass overwrites all of `buffer` as a storage buffer.
        pub fn storage_write_buffer(mut self, buffer: BufferHandle) -> Self {
            self.inner.buffer(ListAccess::StorageWrite, buffer);
            self
        }

        /// The pass reads and writes `buffer` as a storage buffer.
        pub fn storage_read_write_buffer(mut self, buffer: BufferHandle) -> Self {
            self.inner.buffer(ListAccess::StorageReadWrite, buffer);
            self
        }

        /// The pass binds `buffer` as a uniform buffer.
        pub fn uniform(mut self, buffer: BufferHandle) -> Self {
            self.inner.buffer(ListAccess::Uniform, buffer);
            self
        }

        /// The pass binds `binding_size` bytes of `buffer` at a time as a uniform buffer (one
        /// object's uniforms at a dynamic offset): the plan needs a uniform binding of
        /// `binding_size` bytes, not of the buffer's size.
        pub fn uniform_slices(mut self, buffer: BufferHandle, binding_size: u64) -> Self {
            self.inner
                .buffer_slices(ListAccess::Uniform, buffer, binding_size);
            self
        }

        /// The pass reads `buffer` as a storage buffer, `binding_size` bytes a binding.
        pub fn storage_read_slices(mut self, buffer: BufferHandle, binding_size: u64) -> Self {
            self.inner
                .buffer_slices(ListAccess::StorageRead, buffer, binding_size);
            self
        }

        /// The pass overwrites all of `buffer` as a storage buffer, `binding_size` bytes a
        /// binding.
        pub fn storage_write_slices(mut self, buffer: BufferHandle, binding_size: u64) -> Self {
            self.inner
                .buffer_slices(ListAccess::StorageWrite, buffer, binding_size);
            self
        }

        /// The pass reads and writes `buffer` as a storage buffer, `binding_size` bytes a
        /// binding.
        pub fn storage_read_write_slices(
            mut self,
            buffer: BufferHandle,
            binding_size: u64,
        ) -> Self {
            self.inner
                .buffer_slices(ListAccess::StorageReadWrite, buffer, binding_size);
            self
        }

        /// The pass reads indirect draw or dispatch arguments from `buffer`.
        pub fn indirect(mut self, buffer: BufferHandle) -> Self {
            self.inner.buffer(ListAccess::Indirect, buffer);
            self
        }
    };
}

/// Declares a render pass; see [`RenderGraph::add_render_pass`].
#[must_use = "end the pass with `.execute(closure)` or `.finish()`"]
pub struct RenderPassBuilder<'g, 'a> {
    inner: PassBuilder<'g, 'a>,
}

impl<'a> RenderPassBuilder<'_, 'a> {
    common_pass_methods!();
    shader_pass_methods!();

    fn push_color(
        &mut self,
        target: SubresourceHandle,
        access: Access,
        clear: Option<ClearValue>,
        resolve: Option<TextureHandle>,
    ) {
        let resource = self.inner.id(target.texture.graph, target.texture.index);
        let resolve = resolve.map(|t| self.inner.id(t.graph, t.index));
        self.inner.passes.push_color(ColorAttachment {
            resource,
            sub: target.sub,
            access,
            clear,
            resolve,
        });
    }

    /// Adds the next colour attachment: a texture (its mip 0 of layer 0) or one subresource
    /// (`bloom.mip(2)`, `faces.layer(3)`), rendered at that mip's size.
    pub fn color(mut self, target: impl Into<SubresourceHandle>, access: Access) -> Self {
        self.push_color(target.into(), access, None, None);
        self
    }

    /// Adds the next colour attachment, cleared to `color` (a [`ClearValue`]: `[r, g, b, a]` or
    /// a `wgpu::Color`), whatever the resource's own clear value.
    pub fn color_cleared(
        mut self,
        target: impl Into<SubresourceHandle>,
        color: impl Into<ClearValue>,
    ) -> Self {
        let clear = Some(color.into());
        self.push_color(target.into(), Access::Clear, clear, None);
        self
    }

    /// Adds the next colour attachment, a multisampled texture resolved into `target` (its mip 0
    /// of layer 0) when the pass ends.
    pub fn color_resolved(
        mut self,
        texture: impl Into<SubresourceHandle>,
        access: Access,
        target: TextureHandle,
    ) -> Self {
        self.push_color(texture.into(), access, None, Some(target));
        self
    }

    /// Adds the next colour attachment, a multisampled texture cleared to `color` (a
    /// [`ClearValue`]) and resolved into `target` (its mip 0 of layer 0) when the pass ends.
    pub fn color_resolved_cleared(
        mut self,
        texture: impl Into<SubresourceHandle>,
        color: impl Into<ClearValue>,
        target: TextureHandle,
    ) -> Self {
        let clear = Some(color.into());
        self.push_color(texture.into(), Access::Clear, clear, Some(target));
        self
    }

    /// The pass binds `buffer` as a vertex buffer.
    pub fn vertex(mut self, buffer: BufferHandle) -> Self {
        self.inner.buffer(ListAccess::Vertex, buffer);
        self
    }

    /// The pass binds `buffer` as an index buffer.
    pub fn index(mut self, buffer: BufferHandle) -> Self {
        self.inner.buffer(ListAccess::Index, buffer);
        self
    }

    /// Sets the depth/stencil attachment: a texture (mip 0 of layer 0) or one subresource
    /// (`shadow.layer(1)`).
    pub fn depth(mut self, target: impl Into<SubresourceHandle>, access: Access) -> Self {
        let target = target.into();
        let resource = self.inner.id(target.texture.graph, target.texture.index);
        *self.inner.last().depth = Some(DepthAttachment {
            resource,
            sub: target.sub,
            access,
            clear: None,
        });
        self
    }

    /// Sets the depth/stencil attachment, cleared to `clear` (a [`ClearValue`]: a depth `f32` or
    /// `ClearValue::DepthStencil`), whatever the resource's own clear value.
    pub fn depth_cleared(
        mut self,
        target: impl Into<SubresourceHandle>,
        clear: impl Into<ClearValue>,
    ) -> Self {
        let target = target.into();
        let resource = self.inner.id(target.texture.graph, target.texture.index);
        *self.inner.last().depth = Some(DepthAttachment {
            resource,
            sub: target.sub,
            access: Access::Clear,
            clear: Some(clear.into()),
        });
        self
    }

    /// Makes the pass a multiview pass of `views` views ([guide](crate::guide#multiview)): each
    /// attachment then names layers `layer .. layer + views` of an array texture (a resolve
    /// target: layers `0 .. views`). The closure is called once with a multiview render pass
    /// where the device has `Features::MULTIVIEW`, else once per view, each with that layer;
    /// [`PassContext::views`] says which.
    pub fn multiview(mut self, views: u32) -> Self {
        *self.inner.last().multiview = Some(views);
        self
    }

    /// Reads a texture at the pixel being shaded, as written by an earlier pass (framebuffer
    /// fetch; executed as a sampled read on wgpu).
    pub fn input(mut self, texture: impl Into<TextureRef>) -> Self {
        self.inner.list(ListAccess::Input, texture.into());
        self
    }

    /// Declares the pass with the closure that records it.
    pub fn execute(
        mut self,
        f: impl FnMut(&mut wgpu::RenderPass<'static>, &PassContext<'_>) -> Result<(), PassError>
        + Send
        + 'a,
    ) -> PassId {
        self.inner.commit(Some(PassCallback::Render(Box::new(f))))
    }

    /// Declares the pass without a closure (plan-only use, or [`RenderGraph::set_callback`] later).
    pub fn finish(mut self) -> PassId {
        self.inner.commit(None)
    }
}

/// Declares a compute pass; see [`RenderGraph::add_compute_pass`].
#[must_use = "end the pass with `.execute(closure)` or `.finish()`"]
pub struct ComputePassBuilder<'g, 'a> {
    inner: PassBuilder<'g, 'a>,
}

impl<'a> ComputePassBuilder<'_, 'a> {
    common_pass_methods!();
    shader_pass_methods!();

    /// Declares the pass with the closure that records it.
    pub fn execute(
        mut self,
        f: impl FnMut(&mut wgpu::ComputePass<'static>, &PassContext<'_>) -> Result<(), PassError>
        + Send
        + 'a,
    ) -> PassId {
        self.inner.commit(Some(PassCallback::Compute(Box::new(f))))
    }

    /// Declares the pass without a closure.
    pub fn finish(mut self) -> PassId {
        self.inner.commit(None)
    }
}

/// Declares a copy pass; see [`RenderGraph::add_copy_pass`].
#[must_use = "end the pass with `.execute(closure)` or `.finish()`"]
pub struct CopyPassBuilder<'g, 'a> {
    inner: PassBuilder<'g, 'a>,
}

impl<'a> CopyPassBuilder<'_, 'a> {
    common_pass_methods!();

    /// The pass copies from a texture (whole or one subresource).
    pub fn copy_src(mut self, texture: impl Into<TextureRef>) -> Self {
        self.inner.list(ListAccess::CopySrc, texture.into());
        self
    }

    /// The pass overwrites all of a texture (or one subresource) by a copy.
    pub fn copy_dst(mut self, texture: impl Into<TextureRef>) -> Self {
        self.inner.list(ListAccess::CopyDst, texture.into());
        self
    }

    /// The pass copies from `buffer`.
    pub fn copy_src_buffer(mut self, buffer: BufferHandle) -> Self {
        self.inner.buffer(ListAccess::CopySrc, buffer);
        self
    }

    /// The pass overwrites all of `buffer` by a copy.
    pub fn copy_dst_buffer(mut self, buffer: BufferHandle) -> Self {
        self.inner.buffer(ListAccess::CopyDst, buffer);
        self
    }

    /// The pass overwrites all of `buffer` with bytes from the CPU, written where the pass
    /// stands in the frame: its closure hands them over with
    /// [`PassContext::upload`](crate::PassContext::upload). (`queue.write_buffer` in a closure
    /// would land before every pass of the submission, earlier readers included.)
    pub fn upload(mut self, buffer: BufferHandle) -> Self {
        self.inner.buffer(ListAccess::Upload, buffer);
        self
    }

    /// Declares the pass with the closure that records it.
    pub fn execute(
        mut self,
        f: impl FnMut(&mut wgpu::CommandEncoder, &PassContext<'_>) -> Result<(), PassError> + Send + 'a,
    ) -> PassId {
        self.inner.commit(Some(PassCallback::Copy(Box::new(f))))
    }

    /// Declares the pass without a closure.
    pub fn finish(mut self) -> PassId {
        self.inner.commit(None)
    }
}
