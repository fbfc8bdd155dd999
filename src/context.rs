//! What a pass closure sees besides its open wgpu pass: the device, the queue, and the wgpu
//! objects behind the handles the pass declared.
//!
//! The executor fills it in; it sits below the builder so that declared closures can name it
//! without the builder depending on the executor.

mod views;

pub(crate) use views::{ViewDefects, ViewKind};

use crate::decl::PassRef;
use crate::decl::pass::ListAccess;
use crate::decl::resource::{ResourceDecl, ResourceKind};
use crate::ids::ResourceId;
use crate::resource::{BufferHandle, Subresource, SubresourceRange, TextureHandle, TextureRef};

/// Error a pass closure returns; aborts the frame.
pub type PassError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Why a [`PassContext`] refused a handle. Returned as a [`PassError`] with `?`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ContextError {
    /// The pass asked for a resource (or a subresource) it did not declare: the graph may have
    /// discarded or not yet written its contents, so it is not handed out.
    #[error(
        "pass `{pass}` asks for {what} of `{resource}`, which it did not declare; declare the access on the pass (an attachment, `sample`, storage or copy) so the graph keeps and orders its contents"
    )]
    Undeclared {
        /// The pass.
        pass: String,
        /// The resource.
        resource: String,
        /// What was asked for (`the whole texture`, `mip 2 of layer 0`, `layers 0..2`,
        /// `the buffer`).
        what: String,
    },
    /// wgpu refused to create a bind group the pass asked a helper for (a binding that does not
    /// fit its layout); nothing was cached, so the next call tries again.
    #[error("pass `{pass}`: wgpu could not create a bind group: {message}")]
    BindGroup {
        /// The pass.
        pass: String,
        /// wgpu's validation error.
        message: String,
    },
    /// An upload that the buffer cannot take: past its end, or not in whole 4-byte words.
    #[error("pass `{pass}` uploads to `{resource}`: {message}")]
    InvalidUpload {
        /// The pass.
        pass: String,
        /// The buffer.
        resource: String,
        /// What is wrong.
        message: String,
    },
    /// The handle belongs to another graph.
    #[error("pass `{pass}` uses a handle of another graph (resource #{index})")]
    ForeignHandle {
        /// The pass.
        pass: String,
        /// The handle's index.
        index: usize,
    },
    /// A view the backend cannot bind the way the pass declared it: on wgpu's GL backend a 2D
    /// view of one layer of a texture with several layers, for a shader read (GL holds such a
    /// texture as an array or a cube, and a shader's 2D texture then reads another one).
    #[error(
        "pass `{pass}` asks for a view of `{resource}` that this backend cannot bind: {message}"
    )]
    Unsupported {
        /// The pass.
        pass: String,
        /// The texture.
        resource: String,
        /// What the backend lacks, and what would work instead.
        message: String,
    },
    /// A render bundle encoder was asked for outside a render pass.
    #[error(
        "pass `{pass}` asks for a render bundle encoder, but it is a {kind} pass: bundles replay in render passes only"
    )]
    NotARenderPass {
        /// The pass.
        pass: String,
        /// Its kind (`compute` or `copy`).
        kind: &'static str,
    },
}

/// The attachments of the render pass a closure records into: what a render bundle executed in
/// it must match.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RenderTarget {
    /// Colour formats in slot order (slots of every pass merged into the render pass).
    pub color: [Option<wgpu::TextureFormat>; 8],
    pub color_count: u8,
    /// Depth format and which aspects the render pass keeps read-only.
    pub depth: Option<wgpu::RenderBundleDepthStencil>,
    pub samples: u32,
    /// Views of a multiview render pass.
    pub multiview: Option<std::num::NonZeroU32>,
}

/// Which views a render pass closure records ([guide](crate::guide#multiview)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Views {
    /// An ordinary pass (no `multiview`), or a compute or copy pass.
    One,
    /// All `count` views in one multiview render pass: the attachments are 2D-array views of
    /// the pass's layers, and shaders pick their view with `@builtin(view_index)`. Pipelines
    /// need `multiview_mask` [`Views::multiview_mask`].
    Multiview {
        /// Views of the pass.
        count: u32,
    },
    /// View `view` of `count` in a render pass of its own (the device has no multiview, or the
    /// executor was told not to use it): the attachments are that layer's views, and pipelines
    /// have no `multiview_mask`. The closure is called once per view, in view order.
    PerView {
        /// The view being recorded, `0 .. count`.
        view: u32,
        /// Views of the pass.
        count: u32,
    },
}

impl Views {
    /// Whether `device` records multiview render passes, which is where an [`Executor`]
    /// (with [`ExecutorOptions::multiview`] on) records a multiview pass as one
    /// ([`Views::Multiview`]) instead of once per view: `Features::MULTIVIEW` and a
    /// `max_multiview_view_count` of at least two (a device may report the feature with a limit
    /// of 0). Create multiview pipelines where this holds.
    ///
    /// [`Executor`]: crate::Executor
    /// [`ExecutorOptions::multiview`]: crate::ExecutorOptions::multiview
    pub fn multiview_supported(device: &wgpu::Device) -> bool {
        device.features().contains(wgpu::Features::MULTIVIEW)
            && device.limits().max_multiview_view_count >= 2
    }

    /// The `multiview_mask` of the render pass being recorded, for the pipelines drawn in it:
    /// all `count` views in multiview, else `None`.
    pub fn multiview_mask(self) -> Option<std::num::NonZeroU32> {
        match self {
            Views::Multiview { count } => {
                std::num::NonZeroU32::new(u32::MAX.checked_shr(32 - count.min(32)).unwrap_or(0))
            }
            Views::One | Views::PerView { .. } => None,
        }
    }

    /// The view recorded alone, where the closure is called once per view.
    pub fn single_view(self) -> Option<u32> {
        match self {
            Views::PerView { view, .. } => Some(view),
            Views::One | Views::Multiview { .. } => None,
        }
    }

    /// Views the pass renders in all: 1 for an ordinary pass.
    pub fn count(self) -> u32 {
        match self {
            Views::One => 1,
            Views::Multiview { count } | Views::PerView { count, .. } => count,
        }
    }
}

/// Where the executor keeps this frame's wgpu objects, one per declared resource.
pub(crate) trait FrameResources {
    /// The texture behind a resource.
    fn texture(&self, resource: ResourceId) -> Option<&wgpu::Texture>;
    /// The view of a range of subresources: the whole texture (an array view when it has
    /// layers), one subresource, or a range a pass of the frame declared.
    fn view(&self, resource: ResourceId, range: SubresourceRange) -> Option<&wgpu::TextureView>;
    /// The buffer behind a resource.
    fn buffer(&self, resource: ResourceId) -> Option<&wgpu::Buffer>;
    /// Whether a history texture's previous contents are real (not the first frame, no resize).
    fn history_valid(&self, resource: ResourceId) -> bool;
}

/// What a pass closure sees besides its open pass: the device, the queue, and the wgpu objects
/// behind the handles the pass declared — and only those: asking for anything else is a
/// [`ContextError`], because its contents may not exist at this point of the frame.
pub struct PassContext<'f> {
    pub(crate) device: &'f wgpu::Device,
    pub(crate) queue: &'f wgpu::Queue,
    pub(crate) graph: u32,
    pub(crate) pass: PassRef<'f>,
    pub(crate) resources: &'f [ResourceDecl],
    pub(crate) frame: &'f dyn FrameResources,
    /// The kinds of view a shader reads wrongly on this adapter (the GL view probe): such
    /// views of a texture the pass reads in a shader are refused.
    pub(crate) view_defects: ViewDefects,
    pub(crate) views: Views,
    /// The render pass being recorded into; `None` for compute and copy passes.
    pub(crate) target: Option<RenderTarget>,
}

impl<'f> PassContext<'f> {
    /// The device.
    pub fn device(&self) -> &'f wgpu::Device {
        self.device
    }

    /// The queue.
    pub fn queue(&self) -> &'f wgpu::Queue {
        self.queue
    }

    /// The name of the pass being recorded.
    pub fn pass_name(&self) -> &'f str {
        self.pass.name()
    }

    /// Which views the closure records: one, all of a multiview pass at once, or one view of
    /// a multiview pass recorded per view ([guide](crate::guide#multiview)).
    pub fn views(&self) -> Views {
        self.views
    }

    /// An encoder of a [`wgpu::RenderBundle`] that the render pass this closure records into
    /// can execute: the pass's colour formats in slot order (with those of the passes merged
    /// into the same render pass), its depth format and read-only aspects, its sample count and,
    /// in a multiview pass, its view count. Recording draws into a bundle and executing it with
    /// [`wgpu::RenderPass::execute_bundles`] gives the same image as drawing into the pass;
    /// with [recording threads](crate::ExecutorOptions::with_recording_threads), wgpu encodes
    /// a bundle's draws without the device-wide lookups that direct draws take, so heavy passes
    /// record in parallel better ([guide](crate::guide#render-bundles)).
    ///
    /// A compute or copy pass gets [`ContextError::NotARenderPass`].
    pub fn render_bundle_encoder(
        &self,
        label: Option<&str>,
    ) -> Result<wgpu::RenderBundleEncoder<'f>, ContextError> {
        let Some(target) = self.target else {
            return Err(ContextError::NotARenderPass {
                pass: self.pass.name().to_string(),
                kind: self.pass.kind().as_str(),
            });
        };
        Ok(self
            .device
            .create_render_bundle_encoder(&wgpu::RenderBundleEncoderDescriptor {
                label,
                color_formats: &target.color[..usize::from(target.color_count)],
                depth_stencil: target.depth,
                sample_count: target.samples,
                multiview: target.multiview,
            }))
    }

    /// A view of a texture the pass declared: one subresource (`texture.mip(1)`), the whole
    /// texture (all mips; an array view when it has more than one layer), or a range the pass
    /// declared (`atlas.layers(0..2)`: a 2D-array view of exactly those layers where there are
    /// several, else a 2D view of the range's mips). Views of graph-owned textures stay the
    /// same from frame to frame while the plan does, so bind groups built from them can be
    /// cached by view identity.
    ///
    /// A depth texture with a stencil aspect is seen through its depth aspect, as a shader
    /// binds it.
    ///
    /// Where the adapter's shaders read a kind of view wrongly (wgpu's GL backend binds the
    /// whole texture for a shader read: a 2D view of one layer of several reads another texture
    /// there; known from wgpu's code or found by a probe the first time a plan needs it), such
    /// a view of a texture the pass reads in a shader is [`ContextError::Unsupported`].
    pub fn view(
        &self,
        texture: impl Into<TextureRef>,
    ) -> Result<&'f wgpu::TextureView, ContextError> {
        let texture = texture.into();
        let view = self.declared_view(texture)?;
        self.check_shader_view(texture.texture.index, texture.range, None)?;
        Ok(view)
    }

    /// Refuses a view of `range` of `r` seen through `dimension` (`None`: the dimension of the
    /// executor's own views) where the pass reads `r` in a shader and the adapter's shaders read
    /// such a view wrongly. Asked only where the probe found a defect: the lists are walked per
    /// call.
    pub(crate) fn check_shader_view(
        &self,
        r: ResourceId,
        range: SubresourceRange,
        dimension: Option<wgpu::TextureViewDimension>,
    ) -> Result<(), ContextError> {
        if self.view_defects == ViewDefects::default() {
            return Ok(());
        }
        let ResourceKind::Texture(t) = self.resources[r.index()].kind else {
            return Ok(());
        };
        let Some(kind) = ViewKind::of(t, range, dimension) else {
            return Ok(());
        };
        if !self.view_defects.reads_wrongly(kind) || !self.read_in_shader(r) {
            return Ok(());
        }
        Err(ContextError::Unsupported {
            pass: self.pass.name().to_string(),
            resource: self.resources[r.index()].name.to_string(),
            message: kind.refusal(&self.device.adapter_info().name),
        })
    }

    /// The view [`view`](Self::view) hands out, for helpers that check the declaration and
    /// bind views of their own.
    pub(crate) fn declared_view(
        &self,
        texture: TextureRef,
    ) -> Result<&'f wgpu::TextureView, ContextError> {
        let r = self.own(texture.texture.graph, texture.texture.index)?;
        let range = texture.range;
        let declared = match range.single() {
            _ if range.is_all() => self.declares_whole(r),
            Some(sub) => self.declares_sub(r, sub),
            None => self.pass.lists_name(r, |e| e.range == range),
        };
        if !declared {
            return Err(self.undeclared(r, range.describe()));
        }
        self.frame
            .view(r, range)
            .ok_or_else(|| self.undeclared(r, range.describe()))
    }

    /// Writes `data` into `buffer` at byte `offset`, where this pass stands in the frame: a
    /// copy from a staging buffer recorded into `encoder` (the copy pass's own). The pass must
    /// declare the buffer in its `upload` list, which tells the graph the whole buffer is
    /// overwritten here; bytes it does not write are undefined afterwards. `offset` and
    /// `data.len()` are multiples of 4 (`wgpu::COPY_BUFFER_ALIGNMENT`).
    ///
    /// Unlike `queue.write_buffer` inside a closure, which lands before every pass of the
    /// submission (earlier readers of the buffer included), the bytes arrive in frame order.
    /// Each call stages its bytes in a buffer of their size, as `queue.write_buffer` does
    /// inside wgpu: many small writes to one buffer are cheaper as one upload of the whole.
    pub fn upload(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        buffer: BufferHandle,
        offset: u64,
        data: &[u8],
    ) -> Result<(), ContextError> {
        let r = self.own(buffer.graph, buffer.index)?;
        if !self
            .pass
            .list(ListAccess::Upload)
            .iter()
            .any(|e| e.resource == r)
        {
            return Err(self.undeclared(r, "an upload to the buffer".into()));
        }
        let invalid = |message: String| ContextError::InvalidUpload {
            pass: self.pass.name().to_string(),
            resource: self.resources[r.index()].name.to_string(),
            message,
        };
        let size = data.len() as u64;
        let declared = match self.resources[r.index()].kind {
            ResourceKind::Buffer(b) => b.size,
            ResourceKind::Texture(_) => return Err(self.undeclared(r, "a buffer".into())),
        };
        if offset.checked_add(size).is_none_or(|end| end > declared) {
            return Err(invalid(format!(
                "{size} bytes at offset {offset} go past its {declared} bytes"
            )));
        }
        if !offset.is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT)
            || !size.is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT)
        {
            return Err(invalid(format!(
                "{size} bytes at offset {offset}: both must be multiples of {}",
                wgpu::COPY_BUFFER_ALIGNMENT
            )));
        }
        if size == 0 {
            return Ok(());
        }
        let target = self
            .frame
            .buffer(r)
            .ok_or_else(|| self.undeclared(r, "the buffer".into()))?;
        let staging = wgpu::util::DeviceExt::create_buffer_init(
            self.device,
            &wgpu::util::BufferInitDescriptor {
                label: Some(&format!("{} upload", self.resources[r.index()].name)),
                contents: data,
                usage: wgpu::BufferUsages::COPY_SRC,
            },
        );
        encoder.copy_buffer_to_buffer(&staging, 0, target, offset, size);
        Ok(())
    }

    /// The texture behind a handle the pass declared in any way (for copies and custom views).
    pub fn texture(&self, texture: TextureHandle) -> Result<&'f wgpu::Texture, ContextError> {
        let frame = self.frame;
        self.used(texture.graph, texture.index, "the texture", |r| {
            frame.texture(r)
        })
    }

    /// The buffer behind a handle the pass declared.
    pub fn buffer(&self, buffer: BufferHandle) -> Result<&'f wgpu::Buffer, ContextError> {
        let frame = self.frame;
        self.used(buffer.graph, buffer.index, "the buffer", |r| {
            frame.buffer(r)
        })
    }

    /// Whether a history texture's previous contents are real: `false` on the first frame and
    /// after the history was reallocated (a resize), when it holds zeros.
    pub fn history_valid(&self, previous: TextureHandle) -> bool {
        previous.graph == self.graph && self.frame.history_valid(previous.index)
    }

    /// Whether a history buffer's previous contents are real: `false` on the first frame and
    /// after the history was reallocated (a new size), when it holds zeros.
    pub fn history_buffer_valid(&self, previous: BufferHandle) -> bool {
        previous.graph == self.graph && self.frame.history_valid(previous.index)
    }

    /// What `get` finds behind a resource of this graph the pass uses; `what` names it in the
    /// error when the pass did not declare it.
    fn used<T>(
        &self,
        graph: u32,
        index: ResourceId,
        what: &str,
        get: impl FnOnce(ResourceId) -> Option<T>,
    ) -> Result<T, ContextError> {
        let r = self.own(graph, index)?;
        if !self.pass.uses(r) {
            return Err(self.undeclared(r, what.into()));
        }
        get(r).ok_or_else(|| self.undeclared(r, what.into()))
    }

    fn own(&self, graph: u32, index: ResourceId) -> Result<ResourceId, ContextError> {
        if graph != self.graph || index.index() >= self.resources.len() {
            return Err(ContextError::ForeignHandle {
                pass: self.pass.name().to_string(),
                index: index.index(),
            });
        }
        Ok(index)
    }

    /// A whole-texture view reads every subresource: the pass must name the texture whole, or
    /// the texture must have one subresource that the pass names.
    fn declares_whole(&self, r: ResourceId) -> bool {
        let decl = &self.resources[r.index()];
        let single = decl.subresource_count() == 1 && matches!(decl.kind, ResourceKind::Texture(_));
        self.pass.lists_name(r, |e| e.range.is_all() || single) || (single && self.pass.uses(r))
    }

    /// Whether the pass reads `r` in a shader (`sample` or `input`) and not as storage.
    fn read_in_shader(&self, r: ResourceId) -> bool {
        let storage = [
            ListAccess::StorageRead,
            ListAccess::StorageWrite,
            ListAccess::StorageReadWrite,
        ];
        let as_storage = storage
            .iter()
            .any(|&l| self.pass.list(l).iter().any(|e| e.resource == r));
        let shader_read = self.pass.sample().iter().chain(self.pass.input());
        !as_storage && shader_read.into_iter().any(|e| e.resource == r)
    }

    fn declares_sub(&self, r: ResourceId, sub: Subresource) -> bool {
        let pass = self.pass;
        pass.attachments().any(|a| {
            (a.resource == r && a.sub == sub)
                || (a.resolve == Some(r) && sub == a.resolve_subresource())
        }) || pass.lists_name(r, |e| e.range.contains(sub))
    }

    fn undeclared(&self, r: ResourceId, what: String) -> ContextError {
        ContextError::Undeclared {
            pass: self.pass.name().to_string(),
            resource: self.resources[r.index()].name.to_string(),
            what,
        }
    }
}
