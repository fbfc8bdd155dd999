//! The rules of a pass's list entries (sampled, input, storage, uniform, copy): each of the
//! right kind and range, and each subresource in one role in the pass.

use super::{PassChecker, Role};
use crate::decl::pass::{AttachmentDecl, Entry, ListAccess};
use crate::decl::resource::ResourceKind;
use crate::error::GraphError;
use crate::ids::ResourceId;
use crate::resource::{Access, SubresourceRange, TextureDesc};

/// How a pass uses a resource, for the one-subresource-one-role rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Use {
    Attachment { writes: bool },
    Resolve,
    List(ListAccess),
}

impl Use {
    pub(super) fn writes(self) -> bool {
        match self {
            Use::Attachment { writes } => writes,
            Use::Resolve => true,
            Use::List(a) => a.writes(),
        }
    }

    pub(super) fn is_slot(self) -> bool {
        matches!(self, Use::Attachment { .. } | Use::Resolve)
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            Use::Attachment { .. } => "an attachment",
            Use::Resolve => "a resolve target",
            Use::List(ListAccess::Sample) => "a sampled texture",
            Use::List(ListAccess::Input) => "an input",
            Use::List(ListAccess::CopySrc) => "a copy source",
            Use::List(ListAccess::CopyDst) => "a copy destination",
            Use::List(a) => a.as_str(),
        }
    }
}

impl PassChecker<'_> {
    /// Sampled and input entries are textures, bound and uploaded buffers are buffers; a range
    /// names mips and layers inside a texture.
    pub(super) fn list_entry(&self, access: ListAccess, e: Entry) -> Result<(), GraphError> {
        if let Some(size) = e.binding_size {
            self.binding_size(access, e.resource, size)?;
        }
        match (access, self.res[e.resource.index()].kind) {
            (ListAccess::Sample, ResourceKind::Buffer(_)) => {
                self.texture(e.resource, "a sampled texture").map(drop)
            }
            (ListAccess::Input, ResourceKind::Buffer(_)) => {
                self.texture(e.resource, "an input").map(drop)
            }
            (_, ResourceKind::Texture(_)) if access.is_buffer_only() => {
                Err(GraphError::FormatMismatch {
                    pass: Some(self.pass.name().to_string()),
                    resource: self.name(e.resource),
                    message: format!(
                        "a texture used as {}",
                        match access {
                            ListAccess::Uniform => "a uniform buffer",
                            ListAccess::Vertex => "a vertex buffer",
                            ListAccess::Index => "an index buffer",
                            ListAccess::Indirect => "an indirect buffer",
                            _ => "an uploaded buffer",
                        }
                    ),
                })
            }
            (_, ResourceKind::Buffer(_)) if !e.range.is_all() => {
                Err(GraphError::InvalidSubresource {
                    pass: self.pass.name().to_string(),
                    resource: self.name(e.resource),
                    message: format!(
                        "{} named on a buffer; buffers have no subresources",
                        e.range.describe()
                    ),
                })
            }
            (_, ResourceKind::Texture(t)) if !e.range.is_all() => {
                self.range_in_texture(e.resource, t, e.range)
            }
            _ => Ok(()),
        }
    }

    /// A binding size is given for a uniform or storage buffer, is not zero, fits in the buffer
    /// and, for storage, is a multiple of 4 bytes (wgpu's rule for storage bindings).
    pub(super) fn binding_size(
        &self,
        access: ListAccess,
        id: ResourceId,
        size: u64,
    ) -> Result<(), GraphError> {
        let storage = matches!(
            access,
            ListAccess::StorageRead | ListAccess::StorageWrite | ListAccess::StorageReadWrite
        );
        let problem = match self.res[id.index()].kind {
            ResourceKind::Texture(_) => {
                Some("a binding size is given for a texture; only buffers have one".to_owned())
            }
            ResourceKind::Buffer(_) if !storage && access != ListAccess::Uniform => Some(format!(
                "a binding size is given in the `{}` list; only uniform and storage buffers have one",
                access.as_str()
            )),
            _ if size == 0 => {
                Some("the binding size is 0; a binding sees at least one byte".to_owned())
            }
            ResourceKind::Buffer(b) if size > b.size => Some(format!(
                "the binding size {size} is larger than the buffer ({} bytes)",
                b.size
            )),
            _ if storage && !size.is_multiple_of(4) => Some(format!(
                "the storage binding size {size} is not a multiple of 4 bytes, as wgpu requires"
            )),
            _ => None,
        };
        match problem {
            Some(message) => Err(self.invalid_access(Some(id), message)),
            None => Ok(()),
        }
    }

    /// A range's mips and layers lie inside the texture, and it names at least one of each.
    pub(super) fn range_in_texture(
        &self,
        id: ResourceId,
        t: TextureDesc,
        range: SubresourceRange,
    ) -> Result<(), GraphError> {
        if let Some(sub) = range.single() {
            return self.subresource_in_range(id, t, sub);
        }
        let fits = |r: Option<(u32, u32)>, n: u32| {
            r.is_none_or(|(first, count)| {
                count > 0 && u64::from(first) + u64::from(count) <= u64::from(n)
            })
        };
        if fits(range.mips, t.mips) && fits(range.layers, t.layers) {
            return Ok(());
        }
        let empty = [range.mips, range.layers]
            .into_iter()
            .flatten()
            .any(|(_, count)| count == 0);
        Err(GraphError::InvalidSubresource {
            pass: self.pass.name().to_string(),
            resource: self.name(id),
            message: if empty {
                format!("{} names no subresource", range.describe())
            } else {
                format!(
                    "{} is outside the texture ({} mips, {} layers)",
                    range.describe(),
                    t.mips,
                    t.layers
                )
            },
        })
    }

    /// A pass may not read what it writes, nor fill two slots with one subresource. Two entries
    /// overlap when they name the same subresource or one names the whole texture. The one
    /// exception: a `read` depth attachment may also be sampled (neither writes).
    pub(super) fn one_role_per_subresource(
        &self,
        slots: &[AttachmentDecl],
        entries: &[(ListAccess, Entry)],
        uses: &mut Vec<Role>,
    ) -> Result<(), GraphError> {
        uses.clear();
        for &a in slots {
            let writes = a.access != Access::Read;
            uses.push((
                a.resource,
                SubresourceRange::one(a.sub),
                Use::Attachment { writes },
            ));
            if let Some(t) = a.resolve {
                let sub = SubresourceRange::one(a.resolve_subresource());
                uses.push((t, sub, Use::Resolve));
            }
        }
        uses.extend(
            entries
                .iter()
                .map(|&(access, e)| (e.resource, e.range, Use::List(access))),
        );
        uses.sort_unstable_by_key(|&(r, sub, u)| (r, u, sub));
        let overlap = |a: SubresourceRange, b: SubresourceRange| a.overlaps(&b);
        for run in uses.chunk_by(|a, b| a.0 == b.0) {
            for (i, &(id, sa, ua)) in run.iter().enumerate() {
                for &(_, sb, ub) in &run[i + 1..] {
                    if !overlap(sa, sb) {
                        continue;
                    }
                    if ua.is_slot() && ub.is_slot() {
                        return Err(self.invalid_access(
                            Some(id),
                            "the texture fills two attachment or resolve slots of one pass".into(),
                        ));
                    }
                    let (writer, other) = if ua.writes() { (ua, ub) } else { (ub, ua) };
                    if writer.writes() && writer != other {
                        return Err(GraphError::Feedback {
                            pass: self.pass.name().to_string(),
                            resource: self.name(id),
                            other: if writer == ua { ub.name() } else { ua.name() },
                        });
                    }
                }
            }
        }
        Ok(())
    }
}
