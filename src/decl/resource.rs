//! A declared resource: its shape, clear value, import and which half of a history texture it is.

use std::sync::Arc;

use crate::resource::{BufferDesc, ClearValue, Import, TextureDesc};

/// What a resource is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResourceKind {
    /// A texture.
    Texture(TextureDesc),
    /// A buffer.
    Buffer(BufferDesc),
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
    /// Never `TextureUsages::TRANSIENT_ATTACHMENT`, even where the plan could keep the texture
    /// on tile only ([guide](crate::guide#will-it-fit-the-tile)).
    pub keep_memory: bool,
    /// Set for the two halves of a history texture.
    pub(crate) history: Option<HistoryHalf>,
}

/// The import of a history texture's `previous` half: last frame's contents, not kept.
pub(crate) const HISTORY_PREVIOUS: Import = Import::INPUT;

/// The import of a history texture's `current` half: written this frame, kept.
pub(crate) const HISTORY_CURRENT: Import = Import::OUTPUT;

/// Which half of a history texture ([`RenderGraph::history_texture`](crate::RenderGraph::history_texture))
/// a resource is: the compiler refuses writes to last frame's half and explains reads of this
/// frame's half before it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum HistoryHalf {
    /// `NAME.previous`: last frame's contents, only read.
    Previous,
    /// `NAME.current`: this frame's contents, written by this frame's passes.
    Current,
}

impl ResourceDecl {
    /// Subresources of the resource: mips × layers of a texture, one for a buffer.
    #[inline]
    pub fn subresource_count(&self) -> u32 {
        match self.kind {
            ResourceKind::Texture(t) => t.subresource_count(),
            ResourceKind::Buffer(_) => 1,
        }
    }
}
