//! Helpers a renderer built on the graph needs in every frame: a bind-group cache keyed by the
//! views and buffers a pass resolves, full-screen passes with a shared vertex stage, and textures
//! sized relative to another texture. Around the frame: opening a device with what the plans
//! need ([`open_device`]) and reading textures and buffers back ([`read_subresource`]), for
//! tests, tools and screenshots.
//!
//! ```no_run
//! use tilegraph::helpers::{BindGroupCache, Binding, FullscreenPipeline, RelativeSize, Scale};
//! use tilegraph::{Access, CompileOptions, CompiledGraph, Import, PassContext, RenderGraph, TextureDesc, TextureHandle};
//! use tilegraph::wgpu;
//!
//! fn declare<'a>(
//!     graph: &mut RenderGraph<'a>,
//!     output: TextureHandle,
//!     blur: &'a FullscreenPipeline,
//!     sampler: &'a wgpu::Sampler,
//!     binds: &'a BindGroupCache,
//! ) {
//!     let format = wgpu::TextureFormat::Rgba16Float;
//!     // Half the output's size, whatever it is this frame.
//!     let half = graph.create_texture_relative("half", format, output, Scale::HALF);
//!     # graph.add_render_pass("fill").color(half, Access::Clear).execute(|_, _| Ok(()));
//!     graph
//!         .add_render_pass("blur")
//!         .sample(half)
//!         .color(output, Access::Write)
//!         .execute(move |pass, ctx| blur.draw(pass, ctx, binds, &[half.into(), sampler.into()]));
//! }
//! ```

mod bind_groups;
mod bound;
mod device;
mod fullscreen;
mod readback;
mod views;

pub use bind_groups::{BindGroupCache, BindGroupCacheStats};
pub use bound::BoundRenderPass;
pub use device::{
    BACKEND_VARIABLE, Backend, DeviceError, DeviceOptions, OpenedDevice, ParseBackendError,
    instance_descriptor, open_device, open_device_with,
};
pub use fullscreen::{
    FULLSCREEN_VERTEX_WGSL, FullscreenPipeline, FullscreenShader, FullscreenViews,
};
pub use readback::{Readback, ReadbackError, read_buffer, read_subresource, read_texture};
pub use views::{ViewPipelines, ViewShaderError, ViewVariant};

use std::sync::Mutex;

use crate::context::PassError;
use crate::decl::resource::ResourceKind;
use crate::declare::RenderGraph;
use crate::resource::{BufferHandle, SubresourceHandle, TextureDesc, TextureHandle, TextureRef};

/// One binding of a bind group, in binding order: entry `i` of the slice handed to
/// [`BindGroupCache::bind_group`] is `@binding(i)`.
///
/// Graph resources are named by handle and resolved through the pass's
/// [`PassContext`](crate::PassContext), so a pass can bind only what it declared; resources the
/// renderer owns are named by reference.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Binding<'r> {
    /// A graph texture the pass declared: the whole texture (an array view when it has layers) or
    /// one subresource (`bloom.mip(2)`).
    Texture(TextureRef),
    /// A whole graph texture seen through a view of another dimension, e.g.
    /// [`wgpu::TextureViewDimension::Cube`] for a six-layer texture the context hands out as an
    /// array. The cache makes the view and keeps it with the bind group.
    TextureAs(TextureHandle, wgpu::TextureViewDimension),
    /// Every layer of one mip of a graph texture, seen through a view of the given dimension
    /// (a cube view of mip 2 of a six-layer texture); the pass must declare that mip of every
    /// layer. The cache makes the view and keeps it with the bind group.
    MipAs(TextureHandle, u32, wgpu::TextureViewDimension),
    /// A graph buffer the pass declared, bound whole.
    Buffer(BufferHandle),
    /// `size` bytes at `offset` of a graph buffer the pass declared. With a layout entry of
    /// `has_dynamic_offset: true`, `BufferSlice(objects, 0, 256)` binds one object's 256 B and
    /// `set_bind_group(.., &[i * 256])` picks the object: the per-object uniform pattern, one
    /// bind group for every object.
    BufferSlice(BufferHandle, u64, u64),
    /// A texture view from outside the graph.
    View(&'r wgpu::TextureView),
    /// A buffer from outside the graph (uniforms, meshes), bound whole.
    ExternalBuffer(&'r wgpu::Buffer),
    /// `size` bytes at `offset` of a buffer from outside the graph: a pass's slice of
    /// [`PassUniforms`].
    BufferRange(&'r wgpu::Buffer, u64, u64),
    /// A sampler.
    Sampler(&'r wgpu::Sampler),
}

impl From<TextureHandle> for Binding<'_> {
    fn from(t: TextureHandle) -> Self {
        Binding::Texture(t.into())
    }
}

impl From<SubresourceHandle> for Binding<'_> {
    fn from(t: SubresourceHandle) -> Self {
        Binding::Texture(t.into())
    }
}

impl From<TextureRef> for Binding<'_> {
    fn from(t: TextureRef) -> Self {
        Binding::Texture(t)
    }
}

impl From<BufferHandle> for Binding<'_> {
    fn from(b: BufferHandle) -> Self {
        Binding::Buffer(b)
    }
}

impl<'r> From<&'r wgpu::TextureView> for Binding<'r> {
    fn from(v: &'r wgpu::TextureView) -> Self {
        Binding::View(v)
    }
}

impl<'r> From<&'r wgpu::Buffer> for Binding<'r> {
    fn from(b: &'r wgpu::Buffer) -> Self {
        Binding::ExternalBuffer(b)
    }
}

impl<'r> From<&'r wgpu::Sampler> for Binding<'r> {
    fn from(s: &'r wgpu::Sampler) -> Self {
        Binding::Sampler(s)
    }
}

/// Per-pass uniform data of a frame in one buffer: every [`push`](Self::push) gets a slice of
/// its own, so passes that share a pipeline never overwrite each other's values.
///
/// `queue.write_buffer` inside pass closures is the trap this avoids: every write of a frame
/// lands before the frame's commands run, so when two passes write the same buffer, both draw
/// with the last value. Push the values instead — while declaring, or inside the closure when
/// they are only known then
/// ([`PassContext::history_valid`](crate::PassContext::history_valid)) — bind the returned
/// [`Binding::BufferRange`], and upload once per frame, after recording and before submitting:
///
/// ```no_run
/// # use tilegraph::helpers::{BindGroupCache, FullscreenPipeline, PassUniforms};
/// # use tilegraph::{Access, CompileOptions, CompiledGraph, Import, PassContext, RenderGraph, TextureDesc, TextureHandle};
/// # use tilegraph::{wgpu, Executor, ExecuteMode, Imports};
/// # fn frame(graph: &mut RenderGraph<'_>, plan: &CompiledGraph, executor: &mut Executor,
/// #     queue: &wgpu::Queue, uniforms: &PassUniforms) -> Result<(), Box<dyn std::error::Error>> {
/// let commands = executor.execute(graph, plan, &Imports::new(), ExecuteMode::Planned)?;
/// uniforms.upload(queue); // the values every pass pushed, in one write
/// queue.submit(commands);
/// # Ok(()) }
/// ```
///
/// Slices are aligned to the device's `min_uniform_buffer_offset_alignment`; a
/// [`BindGroupCache`] keys bind groups by slice, so a frame that pushes in the same order every
/// time finds its bind groups again. Pushing from several recording threads is safe; the
/// slices then come in the order the threads push.
#[derive(Debug)]
pub struct PassUniforms {
    buffer: wgpu::Buffer,
    label: String,
    alignment: u64,
    staged: Mutex<Vec<u8>>,
}

impl PassUniforms {
    /// A buffer of `capacity` bytes for one frame's pushes (`UNIFORM | COPY_DST`).
    pub fn new(device: &wgpu::Device, label: &str, capacity: u64) -> Self {
        let alignment = u64::from(device.limits().min_uniform_buffer_offset_alignment).max(1);
        PassUniforms {
            buffer: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: capacity.max(alignment).next_multiple_of(4),
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
            label: label.to_owned(),
            alignment,
            staged: Mutex::new(Vec::new()),
        }
    }

    /// Stages `data` for this frame and returns the binding of its slice. `data` that does not
    /// fit in what is left of the buffer is an error naming the sizes.
    pub fn push(&self, data: &[u8]) -> Result<Binding<'_>, PassError> {
        let mut staged = self.staged.lock().unwrap_or_else(|e| e.into_inner());
        let offset = (staged.len() as u64).next_multiple_of(self.alignment);
        let size = (data.len() as u64).max(4).next_multiple_of(4);
        if offset + size > self.buffer.size() {
            return Err(format!(
                "pass uniforms `{}`: {} bytes do not fit, {} of {} are pushed this frame",
                self.label,
                data.len(),
                staged.len(),
                self.buffer.size()
            )
            .into());
        }
        staged.resize(offset as usize, 0);
        staged.extend_from_slice(data);
        staged.resize((offset + size) as usize, 0);
        Ok(Binding::BufferRange(&self.buffer, offset, size))
    }

    /// Writes this frame's pushes into the buffer and starts the next frame. Call it after the
    /// frame is recorded and before it is submitted.
    pub fn upload(&self, queue: &wgpu::Queue) {
        let mut staged = self.staged.lock().unwrap_or_else(|e| e.into_inner());
        if !staged.is_empty() {
            queue.write_buffer(&self.buffer, 0, &staged);
        }
        staged.clear();
    }

    /// The buffer the slices are in.
    pub fn buffer(&self) -> &wgpu::Buffer {
        &self.buffer
    }
}

/// A size as a fraction `num / den` of another ([`RelativeSize`]): `max(1, floor(w × num / den))`
/// per axis, the rounding of mips (half of 257 is 128). A `den` of 0 counts as 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Scale {
    /// Numerator.
    pub num: u32,
    /// Denominator.
    pub den: u32,
}

impl Scale {
    /// The same size.
    pub const FULL: Scale = Scale::new(1, 1);
    /// Half the width and half the height.
    pub const HALF: Scale = Scale::new(1, 2);
    /// A quarter of the width and of the height.
    pub const QUARTER: Scale = Scale::new(1, 4);

    /// `num / den` of a size.
    pub const fn new(num: u32, den: u32) -> Self {
        Scale { num, den }
    }

    /// `width` × `height` scaled: `Scale::HALF.of(257, 100)` is `(128, 50)`.
    pub fn of(self, width: u32, height: u32) -> (u32, u32) {
        let den = u64::from(self.den.max(1));
        let scale = |v: u32| {
            let scaled = u64::from(v) * u64::from(self.num) / den;
            u32::try_from(scaled).unwrap_or(u32::MAX).max(1)
        };
        (scale(width), scale(height))
    }
}

/// A size as a fraction `num / den` of another.
#[deprecated(since = "0.1.0", note = "use `Scale::new(num, den).of(width, height)`")]
pub fn scale_size((width, height): (u32, u32), num: u32, den: u32) -> (u32, u32) {
    Scale::new(num, den).of(width, height)
}

/// Mips of a chain that starts at `(width, height)`.
#[deprecated(since = "0.1.0", note = "use `mip_count(width, height, smallest)`")]
pub fn mip_chain_len((width, height): (u32, u32), smallest: u32) -> u32 {
    mip_count(width, height, smallest)
}

/// Mips of a chain that starts at `width` × `height` and halves until its shorter edge would
/// drop below `smallest` (at least one mip, at most the full chain).
pub fn mip_count(width: u32, height: u32, smallest: u32) -> u32 {
    let mut mips = 1;
    let mut edge = width.min(height);
    while edge / 2 >= smallest.max(1) {
        edge /= 2;
        mips += 1;
    }
    mips
}

/// Textures sized relative to another texture of the same graph (the output, the HDR target),
/// so a frame declared at a new size sizes every texture from one place.
///
/// Resolved when the texture is declared: the graph, its JSON and its plan hold plain sizes. A
/// builder convenience, not part of the description format.
pub trait RelativeSize {
    /// The descriptor of a texture declared in this graph; `None` for a handle of another graph.
    fn texture_desc(&self, texture: TextureHandle) -> Option<TextureDesc>;

    /// `num / den` of `of`'s size ([`Scale`]); `None` for a handle of another graph.
    fn scaled_size(&self, of: TextureHandle, num: u32, den: u32) -> Option<(u32, u32)> {
        let desc = self.texture_desc(of)?;
        Some(Scale::new(num, den).of(desc.width, desc.height))
    }

    /// Declares a graph-owned texture of `format`, one mip and one layer, sized `scale` of
    /// `of` ([`Scale::HALF`] for half resolution). A handle of another graph makes
    /// [`RenderGraph::compile`] fail with `unknown_resource`, like any foreign handle.
    fn create_texture_relative(
        &mut self,
        name: &str,
        format: wgpu::TextureFormat,
        of: TextureHandle,
        scale: Scale,
    ) -> TextureHandle;

    /// Declares a graph-owned texture sized `num / den` of `of`.
    #[deprecated(
        since = "0.1.0",
        note = "use `create_texture_relative(name, format, of, Scale::new(num, den))`"
    )]
    fn create_texture_scaled(
        &mut self,
        name: &str,
        format: wgpu::TextureFormat,
        of: TextureHandle,
        num: u32,
        den: u32,
    ) -> TextureHandle {
        self.create_texture_relative(name, format, of, Scale::new(num, den))
    }
}

impl RelativeSize for RenderGraph<'_> {
    fn texture_desc(&self, texture: TextureHandle) -> Option<TextureDesc> {
        if texture.graph != self.id {
            return None;
        }
        match self.resources.get(texture.index.index())?.kind {
            ResourceKind::Texture(desc) => Some(desc),
            ResourceKind::Buffer(_) => None,
        }
    }

    fn create_texture_relative(
        &mut self,
        name: &str,
        format: wgpu::TextureFormat,
        of: TextureHandle,
        scale: Scale,
    ) -> TextureHandle {
        let size = self.scaled_size(of, scale.num, scale.den);
        let (width, height) = size.unwrap_or_else(|| {
            if self.foreign_handle.is_none() {
                self.foreign_handle = Some((
                    format!("<size of `{name}`>").into(),
                    format!("<handle #{} of another graph>", of.index),
                ));
            }
            (1, 1)
        });
        self.create_texture(name, TextureDesc::new(format, width, height))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::CompileOptions;
    use crate::resource::{Access, Import};
    use wgpu::TextureFormat;

    #[test]
    fn scaled_sizes_round_down_like_mips_and_never_reach_zero() {
        assert_eq!(Scale::new(1, 2).of(257, 131), (128, 65));
        assert_eq!(Scale::new(1, 1).of(257, 131), (257, 131));
        assert_eq!(Scale::new(3, 4).of(1920, 1080), (1440, 810));
        assert_eq!(Scale::new(1, 4).of(3, 1), (1, 1));
        assert_eq!(Scale::new(2, 1).of(100, 50), (200, 100));
        // A zero denominator is read as one, not a division by zero.
        assert_eq!(Scale::new(1, 0).of(10, 10), (10, 10));
        assert_eq!(Scale::new(2, 1).of(u32::MAX, 1), (u32::MAX, 2));
    }

    #[test]
    #[allow(deprecated)]
    fn the_deprecated_size_functions_answer_as_their_replacements() {
        assert_eq!(scale_size((257, 131), 3, 4), Scale::new(3, 4).of(257, 131));
        assert_eq!(mip_chain_len((960, 540), 8), mip_count(960, 540, 8));
        let mut graph = RenderGraph::new();
        let out = output(&mut graph, 257, 131);
        let old = graph.create_texture_scaled("old", TextureFormat::Rgba8Unorm, out, 1, 2);
        let new = graph.create_texture_relative("new", TextureFormat::Rgba8Unorm, out, Scale::HALF);
        assert_eq!(graph.texture_desc(old), graph.texture_desc(new));
    }

    #[test]
    fn mip_chains_stop_at_the_smallest_edge() {
        assert_eq!(mip_count(960, 540, 8), 7); // 540 270 135 67 33 16 8
        assert_eq!(mip_count(128, 65, 8), 4); // 65 32 16 8
        assert_eq!(mip_count(4, 4, 8), 1);
        assert_eq!(mip_count(256, 256, 1), 9);
        assert_eq!(mip_count(256, 256, 0), 9);
    }

    fn output(graph: &mut RenderGraph<'_>, w: u32, h: u32) -> TextureHandle {
        graph.import_texture(
            "output",
            TextureDesc::new(TextureFormat::Rgba8Unorm, w, h),
            Import::OUTPUT,
        )
    }

    #[test]
    fn scaled_textures_follow_the_texture_they_are_sized_from() {
        for (w, h) in [(1920, 1080), (257, 131)] {
            let mut graph = RenderGraph::new();
            let out = output(&mut graph, w, h);
            let half =
                graph.create_texture_relative("half", TextureFormat::Rgba16Float, out, Scale::HALF);
            let quarter = graph.create_texture_relative(
                "quarter",
                TextureFormat::Rgba16Float,
                half,
                Scale::HALF,
            );
            let desc = graph.texture_desc(quarter).unwrap();
            assert_eq!((desc.width, desc.height), (w / 4, h / 4));
            assert_eq!(desc.format, TextureFormat::Rgba16Float);
            assert_eq!((desc.mips, desc.layers, desc.samples), (1, 1, 1));
            assert_eq!(graph.scaled_size(out, 1, 2), Some((w / 2, h / 2)));
            // The sizes are plain sizes in the description.
            let json: serde_json::Value = serde_json::from_str(&graph.to_json()).unwrap();
            assert_eq!(
                json["resources"][1]["texture"]["size"],
                serde_json::json!([w / 2, h / 2])
            );
        }
    }

    #[test]
    fn a_handle_of_another_graph_is_an_unknown_resource_at_compile_time() {
        let mut other = RenderGraph::new();
        let foreign = output(&mut other, 64, 64);
        let mut graph = RenderGraph::new();
        let out = output(&mut graph, 64, 64);
        assert_eq!(graph.texture_desc(foreign), None);
        let half =
            graph.create_texture_relative("half", TextureFormat::Rgba8Unorm, foreign, Scale::HALF);
        graph
            .add_render_pass("fill")
            .color(half, Access::Clear)
            .finish();
        graph
            .add_render_pass("copy")
            .sample(half)
            .color(out, Access::Write)
            .finish();
        let error = graph.compile(&CompileOptions::default()).unwrap_err();
        assert_eq!(error.kind().as_str(), "unknown_resource");
        assert!(error.to_string().contains("half"), "{error}");
    }
}
