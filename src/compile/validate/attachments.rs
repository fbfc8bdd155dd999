//! The rules of a pass's attachment slots: each in range, of a format it can be attached as, of
//! one extent with the others, and its resolve target.

use super::PassChecker;
use super::resources::{Attachable, check_clear_fits};
use crate::decl::pass::AttachmentDecl;
use crate::error::GraphError;
use crate::ids::ResourceId;
use crate::resource::{Access, Subresource, TextureDesc};

impl PassChecker<'_> {
    pub(super) fn attachment(
        &mut self,
        a: AttachmentDecl,
        attachable: Attachable,
    ) -> Result<(), GraphError> {
        let slot = if a.is_depth {
            "the depth attachment"
        } else {
            "a colour attachment"
        };
        let t = self.texture(a.resource, slot)?;
        self.attachment_format(a, attachable, t)?;
        if a.access == Access::Read && !a.is_depth {
            return Err(self.invalid_access(Some(a.resource), "`read` is for depth/stencil attachments; a colour attachment that is only read should be sampled".into()));
        }
        if let Some(clear) = a.clear {
            self.own_clear_only_on_clear(a)?;
            check_clear_fits(
                Some(self.pass.name()),
                &self.res[a.resource.index()].name,
                t.format,
                clear,
            )?;
        }
        self.views_in_range(a.resource, t, a.sub.mip, a.sub.layer.saturating_sub(a.view))?;
        self.subresource_in_range(a.resource, t, a.sub)?;
        self.one_extent(a.resource, t, a.sub)?;
        if let Some(target) = a.resolve {
            self.resolve_target(a, t, target)?;
            let tt = self.texture(target, "a resolve target")?;
            self.views_in_range(target, tt, 0, 0)?;
            self.subresource_in_range(target, tt, a.resolve_subresource())?;
        }
        Ok(())
    }

    /// A multiview attachment's views fit in the texture's layers, said in the pass's terms.
    #[inline]
    pub(super) fn views_in_range(
        &self,
        id: ResourceId,
        t: TextureDesc,
        mip: u32,
        first: u32,
    ) -> Result<(), GraphError> {
        let Some(views) = self.pass.multiview().filter(|&v| v > 1) else {
            return Ok(());
        };
        if mip >= t.mips || u64::from(first) + u64::from(views) <= u64::from(t.layers) {
            return Ok(());
        }
        Err(self.too_few_layers(id, t, views, first))
    }

    #[cold]
    pub(super) fn too_few_layers(
        &self,
        id: ResourceId,
        t: TextureDesc,
        views: u32,
        first: u32,
    ) -> GraphError {
        GraphError::InvalidSubresource {
            pass: self.pass.name().to_string(),
            resource: self.name(id),
            message: format!(
                "multiview({views}) needs layers {first}..{} of the texture, which has {} layer{}",
                u64::from(first) + u64::from(views),
                t.layers,
                if t.layers == 1 { "" } else { "s" }
            ),
        }
    }

    /// Colour slots take renderable colour formats, the depth slot depth formats
    /// (`attachable`: what the texture can be attached as).
    pub(super) fn attachment_format(
        &self,
        a: AttachmentDecl,
        attachable: Attachable,
        t: TextureDesc,
    ) -> Result<(), GraphError> {
        let message = match (a.is_depth, attachable) {
            (false, Attachable::Depth) => {
                format!("depth format {:?} used as a colour attachment", t.format)
            }
            (false, Attachable::Neither) => format!("format {:?} cannot be rendered to", t.format),
            (true, Attachable::Color | Attachable::Neither) => {
                format!("colour format {:?} used as the depth attachment", t.format)
            }
            _ => return Ok(()),
        };
        Err(GraphError::FormatMismatch {
            pass: Some(self.pass.name().to_string()),
            resource: self.name(a.resource),
            message,
        })
    }

    /// An access's own clear value is used only by a `clear`: other accesses start from the
    /// resource's, so a value given there would silently do nothing.
    pub(super) fn own_clear_only_on_clear(&self, a: AttachmentDecl) -> Result<(), GraphError> {
        if a.access == Access::Clear {
            return Ok(());
        }
        Err(self.invalid_access(
            Some(a.resource),
            format!(
                "a `{}` access has its own clear value; only `clear` accesses use one (declare it on the resource)",
                a.access.as_str()
            ),
        ))
    }

    /// All attachments of a pass render one extent: the attached subresources' sizes and sample
    /// counts agree.
    pub(super) fn one_extent(
        &mut self,
        id: ResourceId,
        t: TextureDesc,
        sub: Subresource,
    ) -> Result<(), GraphError> {
        let (w, h) = t.mip_size(sub.mip);
        let extent = (w, h, t.samples);
        let Some((fid, (fw, fh, fs))) = self.first else {
            self.first = Some((id, extent));
            return Ok(());
        };
        if (fw, fh) != (w, h) {
            return Err(GraphError::SizeMismatch {
                pass: self.pass.name().to_string(),
                resource: self.name(id),
                first: self.name(fid),
                expected: format!("{fw}x{fh}"),
                found: format!("{w}x{h}"),
            });
        }
        if fs != t.samples {
            return Err(GraphError::SampleCountMismatch {
                pass: self.pass.name().to_string(),
                resource: self.name(id),
                first: self.name(fid),
                expected: fs,
                found: t.samples,
            });
        }
        Ok(())
    }

    /// A resolve target is single-sampled, of the attachment's format and rendered size.
    pub(super) fn resolve_target(
        &self,
        a: AttachmentDecl,
        t: TextureDesc,
        target: ResourceId,
    ) -> Result<(), GraphError> {
        let tt = self.texture(target, "a resolve target")?;
        let (w, h) = t.mip_size(a.sub.mip);
        let message = if t.samples == 1 {
            "the attachment is single-sampled; only multisampled attachments resolve".to_owned()
        } else if tt.samples != 1 {
            format!(
                "the target has {} samples; it must be single-sampled",
                tt.samples
            )
        } else if tt.format != t.format {
            format!("formats differ ({:?} and {:?})", t.format, tt.format)
        } else if (tt.width, tt.height) != (w, h) {
            format!("sizes differ ({w}x{h} and {}x{})", tt.width, tt.height)
        } else {
            return Ok(());
        };
        Err(GraphError::ResolveMismatch {
            pass: self.pass.name().to_string(),
            resource: self.name(a.resource),
            target: self.name(target),
            message,
        })
    }
}
