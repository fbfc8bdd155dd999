//! How a plan's render groups fare on tile profiles ([guide](crate::guide#will-it-fit-the-tile)).

use super::{AttachmentPlan, CompiledGraph, Group};
use crate::decl::pass::PassKind;
use crate::decl::resource::ResourceKind;
use crate::ids::GroupId;
use crate::tile::{TileAttachment, TileFit, TileProfile, TileShape, resolves_through_2d};

impl CompiledGraph {
    /// How a group fares on a tile profile ([guide](crate::guide#will-it-fit-the-tile)), whether
    /// or not the plan was compiled to report it: `None` for compute and copy groups. A model.
    pub fn tile_fit(&self, group: GroupId, profile: TileProfile) -> Option<TileFit> {
        self.tile_shape(&self.groups[group.index()])
            .map(|shape| shape.fit(profile))
    }

    /// How a group fares on each profile the plan was compiled to report
    /// ([`CompileOptions::with_tile_profiles`](crate::CompileOptions::with_tile_profiles)), in the
    /// order of [`TileProfile::all`]: empty for compute and copy groups, and when no profile was
    /// asked for.
    pub fn tile_fits(&self, group: GroupId) -> Vec<TileFit> {
        let profiles = self.options.tile_set();
        if profiles.is_empty() {
            return Vec::new();
        }
        match self.tile_shape(&self.groups[group.index()]) {
            Some(shape) => profiles.iter().map(|p| shape.fit(p)).collect(),
            None => Vec::new(),
        }
    }

    /// A render group as the tile profiles count it: its render area, one view's colour slots,
    /// its depth, and whether a transient attachment is among them.
    fn tile_shape(&self, group: &Group) -> Option<TileShape> {
        if group.kind != PassKind::Render {
            return None;
        }
        let texture = |a: &AttachmentPlan| match self.resource_decls[a.resource.index()].kind {
            ResourceKind::Texture(t) => Some(t),
            ResourceKind::Buffer(_) => None,
        };
        let attachment = |a: &AttachmentPlan| {
            texture(a).map(|t| TileAttachment {
                format: t.format,
                samples: t.samples,
            })
        };
        let first = group.attachments().next()?;
        let (width, height) = texture(first)?.mip_size(first.sub.mip);
        let views = group.views();
        Some(TileShape {
            width,
            height,
            views,
            // Colour attachments hold each slot's views together.
            color: group
                .color
                .iter()
                .step_by(views as usize)
                .filter_map(attachment)
                .collect(),
            depth: group.depth.as_ref().and_then(attachment),
            memoryless: group
                .attachments()
                .any(|a| self.resources[a.resource.index()].transient),
            resolves_through_2d: group.color.iter().any(|a| {
                a.resolve.is_some() && texture(a).is_some_and(|t| resolves_through_2d(t.format))
            }),
        })
    }
}
