//! A declared pass, owned: its type, attachments and lists of accesses.

use std::sync::Arc;

use crate::decl::resource::{ResourceDecl, ResourceKind};
use crate::ids::ResourceId;
use crate::resource::{Access, ClearValue, Subresource, SubresourceRange};

/// Type of a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
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
    /// The attached mip and layer.
    pub sub: Subresource,
    /// How the pass uses it.
    pub access: Access,
    /// The access's own clear value, if any.
    pub clear: Option<ClearValue>,
    /// Single-sampled texture the attachment resolves into (its mip 0 of layer 0; layers
    /// `0 .. N` in a pass of N views).
    pub resolve: Option<ResourceId>,
}

impl ColorAttachment {
    /// The attachment slot of view `view`.
    #[inline]
    pub(crate) fn slot(&self, view: u32) -> AttachmentDecl {
        AttachmentDecl {
            resource: self.resource,
            sub: self.sub.in_view(view),
            access: self.access,
            clear: self.clear,
            resolve: self.resolve,
            is_depth: false,
            view,
        }
    }
}

/// The depth/stencil attachment of a render pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DepthAttachment {
    /// The attached texture.
    pub resource: ResourceId,
    /// The attached mip and layer.
    pub sub: Subresource,
    /// How the pass uses it.
    pub access: Access,
    /// The access's own clear value, if any.
    pub clear: Option<ClearValue>,
}

impl DepthAttachment {
    /// The attachment slot of view `view`.
    #[inline]
    pub(crate) fn slot(&self, view: u32) -> AttachmentDecl {
        AttachmentDecl {
            resource: self.resource,
            sub: self.sub.in_view(view),
            access: self.access,
            clear: self.clear,
            resolve: None,
            is_depth: true,
            view,
        }
    }
}

/// An entry of a pass's lists: a whole resource, or a range of a texture's subresources.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The resource.
    pub resource: ResourceId,
    /// The subresources named ([`SubresourceRange::ALL`] for a whole texture and for buffers).
    pub range: SubresourceRange,
    /// For a uniform or storage buffer: the bytes one binding sees (the per-object pattern binds
    /// 256 B of a large buffer at a dynamic offset); `None`: the whole buffer. The plan's
    /// `max_uniform_buffer_binding_size` / `max_storage_buffer_binding_size` come from it.
    pub binding_size: Option<u64>,
}

impl Entry {
    /// The whole resource.
    pub fn whole(resource: ResourceId) -> Self {
        Entry {
            resource,
            range: SubresourceRange::ALL,
            binding_size: None,
        }
    }

    /// A buffer of which one binding sees `binding_size` bytes.
    pub fn sliced(resource: ResourceId, binding_size: u64) -> Self {
        Entry {
            binding_size: Some(binding_size),
            ..Entry::whole(resource)
        }
    }

    /// One subresource of a texture.
    pub fn one(resource: ResourceId, sub: Subresource) -> Self {
        Entry {
            resource,
            range: SubresourceRange::one(sub),
            binding_size: None,
        }
    }
}

/// A declared pass, owned: its type and every access. What
/// [`RenderGraph::from_declarations`](crate::RenderGraph::from_declarations) takes and
/// [`PassRef::to_decl`](crate::decl::PassRef::to_decl) gives; a graph stores its passes in
/// [`Passes`](crate::decl::Passes).
///
/// The fields are public to read and change; a new one starts from [`PassDecl::new`] (or from
/// [`PassRef::to_decl`](crate::decl::PassRef::to_decl)) and fills in its lists. The struct is
/// `#[non_exhaustive]`: later versions may add lists, so a struct literal or a pattern without
/// `..` does not compile outside the crate.
///
/// ```
/// use tilegraph::decl::{Entry, PassDecl, PassKind};
/// use tilegraph::{RenderGraph, wgpu::TextureFormat, TextureDesc};
///
/// let mut graph = RenderGraph::new();
/// let src = graph.create_texture("src", TextureDesc::new(TextureFormat::Rgba8Unorm, 8, 8));
/// let mut pass = PassDecl::new("blit".into(), PassKind::Copy);
/// pass.copy_src.push(Entry::whole(src.index()));
/// pass.side_effects = true;
/// assert_eq!(pass.copy_src.len(), 1);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
    pub sample: Vec<Entry>,
    /// Textures read at the same pixel an earlier pass wrote (framebuffer fetch).
    pub input: Vec<Entry>,
    /// Storage resources read.
    pub storage_read: Vec<Entry>,
    /// Storage resources overwritten entirely.
    pub storage_write: Vec<Entry>,
    /// Storage resources read and written.
    pub storage_read_write: Vec<Entry>,
    /// Copy sources.
    pub copy_src: Vec<Entry>,
    /// Copy destinations, overwritten entirely.
    pub copy_dst: Vec<Entry>,
    /// Buffers bound as uniform buffers.
    pub uniform: Vec<Entry>,
    /// Buffers bound as vertex buffers.
    pub vertex: Vec<Entry>,
    /// Buffers bound as index buffers.
    pub index: Vec<Entry>,
    /// Buffers read as indirect draw or dispatch arguments.
    pub indirect: Vec<Entry>,
    /// Buffers overwritten entirely by bytes from the CPU, in frame order (copy passes:
    /// [`PassContext::upload`](crate::PassContext::upload)).
    pub upload: Vec<Entry>,
    /// Keeps the pass alive even if nobody reads its outputs.
    pub side_effects: bool,
    /// Pins the pass: restructuring moves no pass across it, for work the graph cannot see
    /// ([guide](crate::guide#restructuring)).
    pub keep_order: bool,
    /// A multiview render pass of this many views: each attachment names layers
    /// `layer .. layer + N` ([guide](crate::guide#multiview)); `None` for one view.
    pub multiview: Option<u32>,
}

impl PassDecl {
    /// A pass that accesses nothing yet.
    pub fn new(name: Arc<str>, kind: PassKind) -> Self {
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
            uniform: Vec::new(),
            vertex: Vec::new(),
            index: Vec::new(),
            indirect: Vec::new(),
            upload: Vec::new(),
            side_effects: false,
            keep_order: false,
            multiview: None,
        }
    }
}

/// How a pass uses an entry of one of its lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ListAccess {
    /// Read by a shader.
    Sample,
    /// Read at the same pixel an earlier pass wrote.
    Input,
    /// Storage read.
    StorageRead,
    /// Storage write of the whole entry.
    StorageWrite,
    /// Storage read and write.
    StorageReadWrite,
    /// Copy source.
    CopySrc,
    /// Copy destination, overwritten entirely.
    CopyDst,
    /// Uniform buffer.
    Uniform,
    /// Vertex buffer.
    Vertex,
    /// Index buffer.
    Index,
    /// Indirect draw or dispatch arguments.
    Indirect,
    /// Bytes from the CPU overwriting the whole buffer where the pass stands in the frame.
    Upload,
}

impl ListAccess {
    /// Every list, in the order of the description's fields.
    pub const ALL: [ListAccess; 12] = [
        ListAccess::Sample,
        ListAccess::Input,
        ListAccess::StorageRead,
        ListAccess::StorageWrite,
        ListAccess::StorageReadWrite,
        ListAccess::CopySrc,
        ListAccess::CopyDst,
        ListAccess::Uniform,
        ListAccess::Vertex,
        ListAccess::Index,
        ListAccess::Indirect,
        ListAccess::Upload,
    ];

    /// The description's name of the list.
    pub fn as_str(self) -> &'static str {
        match self {
            ListAccess::Sample => "sample",
            ListAccess::Input => "input",
            ListAccess::StorageRead => "storage_read",
            ListAccess::StorageWrite => "storage_write",
            ListAccess::StorageReadWrite => "storage_read_write",
            ListAccess::CopySrc => "copy_src",
            ListAccess::CopyDst => "copy_dst",
            ListAccess::Uniform => "uniform",
            ListAccess::Vertex => "vertex",
            ListAccess::Index => "index",
            ListAccess::Indirect => "indirect",
            ListAccess::Upload => "upload",
        }
    }

    /// Whether the access reads the entry's prior contents.
    pub fn reads(self) -> bool {
        !self.overwrites()
    }

    /// Whether the access writes the entry.
    #[inline]
    pub fn writes(self) -> bool {
        matches!(
            self,
            ListAccess::StorageWrite
                | ListAccess::StorageReadWrite
                | ListAccess::CopyDst
                | ListAccess::Upload
        )
    }

    /// Whether the access writes the whole entry without reading it first.
    pub fn overwrites(self) -> bool {
        matches!(
            self,
            ListAccess::StorageWrite | ListAccess::CopyDst | ListAccess::Upload
        )
    }

    /// Whether the access names buffers only.
    #[inline]
    pub fn is_buffer_only(self) -> bool {
        matches!(
            self,
            ListAccess::Uniform
                | ListAccess::Vertex
                | ListAccess::Index
                | ListAccess::Indirect
                | ListAccess::Upload
        )
    }

    /// Whether it is a read of the kind that needs the contents in memory (a sample, a storage
    /// read, a bound buffer): what ends a group that wrote them.
    pub fn is_shader_read(self) -> bool {
        matches!(
            self,
            ListAccess::Sample
                | ListAccess::StorageRead
                | ListAccess::StorageReadWrite
                | ListAccess::Uniform
                | ListAccess::Vertex
                | ListAccess::Index
                | ListAccess::Indirect
        )
    }
}

/// One attachment slot of a pass, colour or depth, as the compiler walks them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttachmentDecl {
    /// The attached texture.
    pub resource: ResourceId,
    /// The attached subresource.
    pub sub: Subresource,
    /// How the pass uses it.
    pub access: Access,
    /// The access's own clear value.
    pub clear: Option<ClearValue>,
    /// Resolve target (colour only).
    pub resolve: Option<ResourceId>,
    /// The depth/stencil slot.
    pub is_depth: bool,
    /// Which view of a multiview attachment this is (0 in a pass of one view).
    pub view: u32,
}

impl AttachmentDecl {
    /// The value the attachment clears to: the access's own, else the resource's, else a
    /// fast-clear value.
    pub fn clear_value(&self, decl: &ResourceDecl) -> ClearValue {
        self.clear
            .or(decl.clear)
            .unwrap_or_else(|| match decl.kind {
                ResourceKind::Texture(t) => ClearValue::fast_default(t.format),
                ResourceKind::Buffer(_) => ClearValue::Color([0.0; 4]),
            })
    }

    /// The subresource the attachment resolves into: mip 0 of layer `view`.
    pub fn resolve_subresource(&self) -> Subresource {
        Subresource {
            mip: 0,
            layer: self.view,
        }
    }
}

impl PassDecl {
    /// One of the pass's lists.
    #[inline]
    pub fn list(&self, access: ListAccess) -> &[Entry] {
        match access {
            ListAccess::Sample => &self.sample,
            ListAccess::Input => &self.input,
            ListAccess::StorageRead => &self.storage_read,
            ListAccess::StorageWrite => &self.storage_write,
            ListAccess::StorageReadWrite => &self.storage_read_write,
            ListAccess::CopySrc => &self.copy_src,
            ListAccess::CopyDst => &self.copy_dst,
            ListAccess::Uniform => &self.uniform,
            ListAccess::Vertex => &self.vertex,
            ListAccess::Index => &self.index,
            ListAccess::Indirect => &self.indirect,
            ListAccess::Upload => &self.upload,
        }
    }

    pub(crate) fn list_mut(&mut self, access: ListAccess) -> &mut Vec<Entry> {
        match access {
            ListAccess::Sample => &mut self.sample,
            ListAccess::Input => &mut self.input,
            ListAccess::StorageRead => &mut self.storage_read,
            ListAccess::StorageWrite => &mut self.storage_write,
            ListAccess::StorageReadWrite => &mut self.storage_read_write,
            ListAccess::CopySrc => &mut self.copy_src,
            ListAccess::CopyDst => &mut self.copy_dst,
            ListAccess::Uniform => &mut self.uniform,
            ListAccess::Vertex => &mut self.vertex,
            ListAccess::Index => &mut self.index,
            ListAccess::Indirect => &mut self.indirect,
            ListAccess::Upload => &mut self.upload,
        }
    }
}
