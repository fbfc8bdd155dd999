//! Declaring a render pass's accesses and its bind group in one list: each shader access the
//! pass declares takes the next `@binding` slot, so the closure binds them without naming the
//! resources again.

use crate::context::{PassContext, PassError};
use crate::declare::RenderPassBuilder;
use crate::helpers::Binding;
use crate::ids::PassId;
use crate::resource::{BufferHandle, SubresourceRange, TextureRef};

/// A render pass whose bind group is declared with its accesses, from
/// [`RenderPassBuilder::bound`]: every method below declares what the plain builder's method of
/// the same name declares and takes the next `@binding` slot of the bind group for it;
/// [`bind`](Self::bind) takes a slot for something outside the graph (a sampler, the renderer's
/// own uniforms) and declares nothing. The closure receives the bindings in slot order.
///
/// ```no_run
/// use tilegraph::helpers::{BindGroupCache, FullscreenPipeline};
/// use tilegraph::{Access, RenderGraph, TextureHandle, wgpu};
///
/// struct Post {
///     tonemap: FullscreenPipeline,
///     sampler: wgpu::Sampler,
///     binds: BindGroupCache,
/// }
///
/// fn declare<'a>(graph: &mut RenderGraph<'a>, post: &'a Post, hdr: TextureHandle, bloom: TextureHandle, output: TextureHandle) {
///     graph
///         .add_render_pass("tonemap")
///         .color(output, Access::Write)
///         .bound()
///         .sample(hdr) // @binding(0), and declared as sampled
///         .sample(bloom.mip(0)) // @binding(1)
///         .bind(&post.sampler) // @binding(2), outside the graph
///         .execute(|pass, ctx, bindings| post.tonemap.draw(pass, ctx, &post.binds, bindings));
/// }
/// ```
#[must_use = "end the pass with `.execute(closure)` or `.finish()`"]
pub struct BoundRenderPass<'g, 'a> {
    builder: RenderPassBuilder<'g, 'a>,
    bindings: Vec<Binding<'a>>,
}

impl<'g, 'a> RenderPassBuilder<'g, 'a> {
    /// Starts the pass's bind group: the accesses declared from here on through the
    /// [`BoundRenderPass`] take its `@binding` slots in order (attachments come before, as they
    /// take no binding).
    pub fn bound(self) -> BoundRenderPass<'g, 'a> {
        BoundRenderPass {
            builder: self,
            bindings: Vec::new(),
        }
    }
}

impl<'g, 'a> BoundRenderPass<'g, 'a> {
    fn declared(
        mut self,
        declare: impl FnOnce(RenderPassBuilder<'g, 'a>) -> RenderPassBuilder<'g, 'a>,
        binding: Binding<'a>,
    ) -> Self {
        self.builder = declare(self.builder);
        self.bindings.push(binding);
        self
    }

    /// Samples a texture (the whole texture or a subresource), bound as its view.
    pub fn sample(self, texture: impl Into<TextureRef>) -> Self {
        let texture = texture.into();
        self.declared(|b| b.sample(texture), Binding::Texture(texture))
    }

    /// Samples a whole texture or every layer of one mip (`cube.mips(2..3)`), bound through a
    /// view of `dimension` (a cube view of a six-layer texture): [`Binding::TextureAs`] or
    /// [`Binding::MipAs`]. Another range binds as [`sample`](Self::sample) does, and the
    /// dimension is not used.
    pub fn sample_as(
        self,
        texture: impl Into<TextureRef>,
        dimension: wgpu::TextureViewDimension,
    ) -> Self {
        let texture = texture.into();
        let whole = texture.texture();
        let binding = match texture.range() {
            SubresourceRange::ALL => Binding::TextureAs(whole, dimension),
            SubresourceRange {
                mips: Some((mip, 1)),
                layers: None,
            } => Binding::MipAs(whole, mip, dimension),
            _ => Binding::Texture(texture),
        };
        self.declared(|b| b.sample(texture), binding)
    }

    /// Reads a storage texture.
    pub fn storage_read(self, texture: impl Into<TextureRef>) -> Self {
        let texture = texture.into();
        self.declared(|b| b.storage_read(texture), Binding::Texture(texture))
    }

    /// Overwrites all of a storage texture.
    pub fn storage_write(self, texture: impl Into<TextureRef>) -> Self {
        let texture = texture.into();
        self.declared(|b| b.storage_write(texture), Binding::Texture(texture))
    }

    /// Reads and writes a storage texture.
    pub fn storage_read_write(self, texture: impl Into<TextureRef>) -> Self {
        let texture = texture.into();
        self.declared(|b| b.storage_read_write(texture), Binding::Texture(texture))
    }

    /// A uniform buffer of the graph, bound whole.
    pub fn uniform(self, buffer: BufferHandle) -> Self {
        self.declared(|b| b.uniform(buffer), Binding::Buffer(buffer))
    }

    /// `binding_size` bytes of a uniform buffer of the graph at a dynamic offset (one object's
    /// uniforms): bound as `Binding::BufferSlice(buffer, 0, binding_size)`.
    pub fn uniform_slices(self, buffer: BufferHandle, binding_size: u64) -> Self {
        let binding = Binding::BufferSlice(buffer, 0, binding_size);
        self.declared(|b| b.uniform_slices(buffer, binding_size), binding)
    }

    /// Reads a storage buffer of the graph, bound whole.
    pub fn storage_read_buffer(self, buffer: BufferHandle) -> Self {
        self.declared(|b| b.storage_read_buffer(buffer), Binding::Buffer(buffer))
    }

    /// Overwrites all of a storage buffer of the graph, bound whole.
    pub fn storage_write_buffer(self, buffer: BufferHandle) -> Self {
        self.declared(|b| b.storage_write_buffer(buffer), Binding::Buffer(buffer))
    }

    /// Reads and writes a storage buffer of the graph, bound whole.
    pub fn storage_read_write_buffer(self, buffer: BufferHandle) -> Self {
        let binding = Binding::Buffer(buffer);
        self.declared(|b| b.storage_read_write_buffer(buffer), binding)
    }

    /// Takes the next slot for something outside the graph: a sampler, a view or a buffer the
    /// renderer owns. It declares nothing; a graph resource bound here must be declared some
    /// other way, or binding it is a [`ContextError`](crate::ContextError).
    pub fn bind(mut self, binding: impl Into<Binding<'a>>) -> Self {
        self.bindings.push(binding.into());
        self
    }

    /// The bindings so far, in slot order.
    pub fn bindings(&self) -> &[Binding<'a>] {
        &self.bindings
    }

    /// Declares the pass with the closure that records it, which receives the bindings in slot
    /// order.
    pub fn execute(
        self,
        mut f: impl FnMut(
            &mut wgpu::RenderPass<'static>,
            &PassContext<'_>,
            &[Binding<'a>],
        ) -> Result<(), PassError>
        + Send
        + 'a,
    ) -> PassId {
        let bindings = self.bindings;
        self.builder
            .execute(move |pass, ctx| f(pass, ctx, &bindings))
    }

    /// Declares the pass without a closure.
    pub fn finish(self) -> PassId {
        self.builder.finish()
    }
}
