//! The rules of a pass's declaration as a whole: the resources it names exist, it does not write
//! the previous half of a history, its kind allows its accesses, its attachments are few enough
//! and its views fit; and the lookups the other rules share (a texture by id, a subresource in
//! range).

use super::{MAX_COLOR_ATTACHMENTS, MAX_LAYERS, Marks, PassChecker};
use crate::decl::pass::{ListAccess, PassKind};
use crate::decl::resource::{HistoryHalf, ResourceKind};
use crate::error::GraphError;
use crate::ids::ResourceId;
use crate::resource::{Access, Subresource, TextureDesc};

impl PassChecker<'_> {
    /// Every id names a declared resource. Returns whether one appears twice in the pass (the
    /// views of a multiview attachment are one use of it).
    pub(super) fn resources_exist(
        &self,
        stamp: u32,
        marks: &mut [Marks],
    ) -> Result<bool, GraphError> {
        let p = self.pass;
        let mut repeated = false;
        // Plain loops over the lists: this runs for every pass of every compile.
        let mut mark = |id: ResourceId| {
            let Some(Marks {
                seen_in_pass: seen, ..
            }) = marks.get_mut(id.index())
            else {
                return Err(self.unknown(id));
            };
            repeated |= *seen == stamp;
            *seen = stamp;
            Ok(())
        };
        for c in p.color() {
            mark(c.resource)?;
            if let Some(resolve) = c.resolve {
                mark(resolve)?;
            }
        }
        if let Some(d) = p.depth() {
            mark(d.resource)?;
        }
        for access in self.lists.iter() {
            for e in p.list(access) {
                mark(e.resource)?;
            }
        }
        Ok(repeated)
    }

    #[cold]
    pub(super) fn unknown(&self, id: ResourceId) -> GraphError {
        GraphError::UnknownResource {
            pass: self.pass.name().to_string(),
            resource: format!("#{id}"),
        }
    }

    /// Last frame's half of a history texture is read, never written: a write would be lost (the
    /// half is discarded after the frame) and would hide last frame's contents from later reads.
    pub(super) fn history_previous_not_written(&self) -> Result<(), GraphError> {
        let p = self.pass;
        let written = |access: Access, r: ResourceId| (access != Access::Read).then_some(r);
        let colors = p
            .color()
            .iter()
            .flat_map(|c| [written(c.access, c.resource), c.resolve]);
        let depth = p.depth().and_then(|d| written(d.access, d.resource));
        let attached = colors.chain([depth]).flatten();
        let listed = p
            .entries()
            .filter(|(access, _)| access.writes())
            .map(|(_, e)| e.resource);
        for id in attached.chain(listed) {
            let r = &self.res[id.index()];
            if r.history == Some(HistoryHalf::Previous) {
                let base = r.name.strip_suffix(".previous").unwrap_or(&r.name);
                return Err(self.invalid_access(
                    Some(id),
                    format!(
                        "`{}` is last frame's half of the history `{base}`: passes read it and never write it; write this frame's contents into `{base}.current`",
                        r.name
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Render passes attach and sample; compute passes use shaders only; copy passes copy only.
    pub(super) fn pass_kind_allows_accesses(&self) -> Result<(), GraphError> {
        let p = self.pass;
        let has = |lists: &[ListAccess]| self.lists.any(lists);
        let attachments = p.attachment_count() > 0;
        let copies = has(&[ListAccess::CopySrc, ListAccess::CopyDst]);
        let shader = has(&[
            ListAccess::Sample,
            ListAccess::Input,
            ListAccess::StorageRead,
            ListAccess::StorageWrite,
            ListAccess::StorageReadWrite,
            ListAccess::Uniform,
            ListAccess::Vertex,
            ListAccess::Index,
            ListAccess::Indirect,
        ]);
        // An upload is encoder work: it stands in a copy pass, where the bytes land in order.
        let uploads = has(&[ListAccess::Upload]);
        let refused = match p.kind() {
            PassKind::Render if copies => Some("copy accesses"),
            PassKind::Render | PassKind::Compute if uploads => {
                Some("uploads (declare them on a copy pass)")
            }
            PassKind::Compute if has(&[ListAccess::Vertex, ListAccess::Index]) => {
                Some("vertex or index buffers")
            }
            PassKind::Render if !attachments => {
                return Err(self.invalid_access(
                    None,
                    "a render pass needs at least one colour or depth attachment".into(),
                ));
            }
            PassKind::Compute if attachments => Some("attachments"),
            PassKind::Compute if has(&[ListAccess::Input]) => Some("inputs"),
            PassKind::Compute if copies => Some("copy accesses"),
            PassKind::Copy if attachments => Some("attachments"),
            PassKind::Copy if shader => Some("shader accesses"),
            _ => None,
        };
        match refused {
            Some(what) => Err(self.invalid_access(
                None,
                format!("a {} pass cannot have {what}", p.kind().as_str()),
            )),
            None => Ok(()),
        }
    }

    /// wgpu's cap on colour attachments.
    pub(super) fn attachment_count(&self) -> Result<(), GraphError> {
        if self.pass.color().len() > MAX_COLOR_ATTACHMENTS {
            return Err(self.invalid_access(
                None,
                format!(
                    "{} colour attachments; wgpu allows {MAX_COLOR_ATTACHMENTS}",
                    self.pass.color().len()
                ),
            ));
        }
        Ok(())
    }

    /// A multiview pass is a render pass of at least two views. (Whether the device renders
    /// that many is checked where it executes.) Each attachment renders all N views: its layers
    /// are checked one by one as the pass's attachment slots.
    pub(super) fn multiview(&self) -> Result<(), GraphError> {
        let Some(views) = self.pass.multiview() else {
            return Ok(());
        };
        let message = if self.pass.kind() != PassKind::Render {
            format!(
                "a {} pass cannot be multiview; only render passes have views",
                self.pass.kind().as_str()
            )
        } else if views < 2 {
            format!("`multiview` is {views}; a multiview pass renders at least 2 views")
        } else if views > MAX_LAYERS {
            format!("`multiview` is {views}; no texture has more than {MAX_LAYERS} layers")
        } else {
            return Ok(());
        };
        Err(self.invalid_access(None, message))
    }

    /// The resource is a texture; buffers are refused with what they were used as.
    #[inline]
    pub(super) fn texture(&self, id: ResourceId, what: &str) -> Result<TextureDesc, GraphError> {
        match self.res[id.index()].kind {
            ResourceKind::Texture(t) => Ok(t),
            ResourceKind::Buffer(_) => Err(self.buffer_used_as(id, what)),
        }
    }

    #[cold]
    pub(super) fn buffer_used_as(&self, id: ResourceId, what: &str) -> GraphError {
        GraphError::FormatMismatch {
            pass: Some(self.pass.name().to_string()),
            resource: self.name(id),
            message: format!("a buffer used as {what}"),
        }
    }

    /// The named mip and layer lie inside the texture.
    #[inline]
    pub(super) fn subresource_in_range(
        &self,
        id: ResourceId,
        t: TextureDesc,
        sub: Subresource,
    ) -> Result<(), GraphError> {
        if t.contains(sub) {
            return Ok(());
        }
        Err(self.outside(id, t, sub))
    }

    #[cold]
    pub(super) fn outside(&self, id: ResourceId, t: TextureDesc, sub: Subresource) -> GraphError {
        GraphError::InvalidSubresource {
            pass: self.pass.name().to_string(),
            resource: self.name(id),
            message: format!(
                "mip {} of layer {} is outside the texture ({} mips, {} layers)",
                sub.mip, sub.layer, t.mips, t.layers
            ),
        }
    }
}
