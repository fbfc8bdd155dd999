//! Reading declarations back: what [`RenderGraph::resources`](crate::RenderGraph::resources)
//! and [`RenderGraph::passes`](crate::RenderGraph::passes) return, in the form the compiler
//! reads, and the names graph descriptions give wgpu's formats. Changed declarations become a
//! graph again through [`RenderGraph::from_declarations`](crate::RenderGraph::from_declarations).

pub(crate) mod pass;
pub(crate) mod passes;
pub(crate) mod resource;

pub use crate::format::{format_name, parse_format};
pub use pass::{
    AttachmentDecl, ColorAttachment, DepthAttachment, Entry, ListAccess, PassDecl, PassKind,
};
pub use passes::{PassIter, PassRef, Passes};
pub use resource::{ResourceDecl, ResourceKind};
