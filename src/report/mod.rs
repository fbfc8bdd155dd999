//! Report: the compiled plan as JSON ([guide](crate::guide#plan-json)), as a table for people,
//! as Graphviz DOT, and as the data of the HTML page; what these share.

mod dot;
mod explain;
mod json;
mod table;

use std::fmt::Write as _;

use crate::decl::resource::ResourceKind;
use crate::ids::ResourceId;
use crate::plan::{AttachmentPlan, CompiledGraph, Remedy, Restructuring, Warning, WarningKind};
use crate::resource::Subresource;

/// A multiview group's figure on a profile, per view and for all `views`: Adreno's GMEM holds
/// every view of a bin (its count is all views'), the other tilers one view at a time (theirs
/// is one view's). `None` for a group of one view.
pub(crate) fn per_view_bytes(fit: &crate::tile::TileFit, views: u32) -> Option<(u64, u64)> {
    if views < 2 {
        return None;
    }
    let views = u64::from(views);
    Some(match fit.detail {
        crate::tile::TileDetail::Adreno { .. } => {
            (fit.bytes_per_pixel / views, fit.bytes_per_pixel)
        }
        _ => (
            fit.bytes_per_pixel,
            fit.bytes_per_pixel.saturating_mul(views),
        ),
    })
}

impl CompiledGraph {
    /// A warning explained in a sentence, with the names and figures involved.
    pub fn warning_message(&self, w: &Warning) -> String {
        let resource = w.resource.map_or("?", |r| self.resource_name(r));
        let pass = w.pass.map_or("?", |p| self.pass_name(p));
        match w.kind {
            WarningKind::SlowClearValue => format!(
                "pass `{pass}` clears `{resource}` to {}, which is not a fast-clear value (colour (0,0,0,0), (0,0,0,1), (1,1,1,0) or (1,1,1,1); depth 0 or 1; stencil 0): the clear writes every pixel",
                w.clear.map(|c| c.to_string()).unwrap_or_default()
            ),
            WarningKind::ClearForWrite => format!(
                "pass `{pass}` overwrites every pixel of `{resource}` but it is cleared first; {} skips the clear",
                (self.remedy_names)(Remedy::DontCare)
            ),
            WarningKind::MsaaStored => {
                let samples = match w.resource.map(|r| self.resource_decl(r).kind) {
                    Some(ResourceKind::Texture(t)) => t.samples,
                    _ => 1,
                };
                let depth = w.resource.is_some_and(|r| {
                    matches!(self.resource_decl(r).kind, ResourceKind::Texture(t) if t.format.is_depth_stencil_format())
                });
                if depth {
                    format!(
                        "multisampled depth `{resource}` is stored ({samples} samples a pixel) because a later pass reads it; wgpu resolves no depth, so keeping it on tile means reading it in its own group (attach it `read` in the passes that test against it) or writing the depth those passes need into a single-sampled texture"
                    )
                } else {
                    format!(
                        "multisampled `{resource}` is stored ({samples} samples a pixel) because a later pass reads it; reading its resolve target instead would keep it on tile"
                    )
                }
            }
        }
    }

    /// A resource's name with the subresource it names, where the texture has more than one:
    /// `bloom@2` (mip 2), `shadow#1` (layer 1), `probe@1#4`.
    pub fn subresource_name(&self, resource: ResourceId, sub: Option<Subresource>) -> String {
        let name = self.resource_name(resource);
        let (Some(sub), ResourceKind::Texture(t)) = (sub, self.resource_decl(resource).kind) else {
            return name.to_owned();
        };
        let mut s = name.to_owned();
        if t.mips > 1 {
            let _ = write!(s, "@{}", sub.mip);
        }
        if t.layers > 1 {
            let _ = write!(s, "#{}", sub.layer);
        }
        s
    }

    /// Bytes a frame a restructuring saves on its own: a move's measured saving, or the bytes
    /// a dropped resolve would have written (its target at one sample, once per view).
    fn restructure_saved_bytes(&self, change: &Restructuring) -> Option<u64> {
        match change {
            Restructuring::Moved { saved_bytes, .. } => Some(*saved_bytes),
            Restructuring::ResolveDropped { pass, resource, .. } => {
                let ResourceKind::Texture(t) = self.resource_decl(*resource).kind else {
                    return None;
                };
                let views = u64::from(self.pass_decl(*pass).views());
                t.subresource_bytes(0)?.checked_mul(views)
            }
            Restructuring::CopyFolded { .. } => None,
        }
    }
}

/// A group's colour attachments one entry per slot: `entry(first view, views 1 .. N)` over the
/// plan's list, which holds each slot's `views` views in turn.
fn per_slot<T>(
    color: &[AttachmentPlan],
    views: u32,
    entry: impl Fn(&AttachmentPlan, &[AttachmentPlan]) -> T,
) -> Vec<T> {
    color
        .chunks(views.max(1) as usize)
        .map(|slot| entry(&slot[0], &slot[1..]))
        .collect()
}
