//! The frame's lookup tables: where each resource's wgpu objects are this frame, and what a
//! pass's closure sees of them through its [`PassContext`].

use super::history::{BufferHistory, HistoryPair};
use super::imports::Imports;
use super::pool::{Pool, TextureViews};
use super::quirks::Quirks;
use crate::context::{FrameResources, PassContext, RenderTarget, Views};
use crate::decl::PassRef;
use crate::decl::resource::ResourceDecl;
use crate::ids::ResourceId;
use crate::resource::{Subresource, SubresourceRange};

/// Where this frame finds a resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Slot {
    /// Culled: nothing behind it.
    Unbound,
    PoolTexture(u32),
    PoolBuffer(u32),
    ImportTexture,
    ImportBuffer,
    /// A history's `previous` (false) or `current` (true) texture.
    History(u32, bool),
    /// A history buffer's `previous` (false) or `current` (true) buffer.
    HistoryBuffer(u32, bool),
}

/// The view of a range of `resource`'s mips and layers that a pass of this frame uses: a
/// multiview attachment (a 2D-array view of layers of one mip) or a sampled range.
pub(super) struct LayerView {
    pub resource: ResourceId,
    pub range: SubresourceRange,
    pub view: wgpu::TextureView,
}

/// The frame's lookup tables: where each resource's wgpu object is.
#[derive(Clone, Copy)]
pub(super) struct Tables<'f> {
    pub device: &'f wgpu::Device,
    pub queue: &'f wgpu::Queue,
    pub slots: &'f [Slot],
    pub pool: &'f Pool,
    pub imports: &'f Imports,
    pub histories: &'f [HistoryPair],
    pub buffer_histories: &'f [BufferHistory],
    pub layer_views: &'f [LayerView],
    pub graph: u32,
    pub resources: &'f [ResourceDecl],
    pub quirks: &'f Quirks,
}

impl<'f> Tables<'f> {
    pub(super) fn texture_and_views(
        &self,
        r: ResourceId,
    ) -> Option<(&'f wgpu::Texture, &'f TextureViews)> {
        match *self.slots.get(r.index())? {
            Slot::PoolTexture(i) => {
                let t = &self.pool.textures[i as usize];
                Some((&t.texture, &t.views))
            }
            Slot::ImportTexture => self.imports.texture_at(r),
            Slot::History(h, current) => {
                let pair = &self.histories[h as usize];
                let (t, v) = if current {
                    pair.current()
                } else {
                    pair.previous()
                };
                Some((t, v))
            }
            _ => None,
        }
    }

    pub(super) fn attachment_view(&self, r: ResourceId, sub: Subresource) -> &'f wgpu::TextureView {
        self.texture_and_views(r)
            .and_then(|(_, v)| v.get(Some(sub)))
            .expect("attachments of live groups are bound")
    }

    /// The 2D-array view of `count` layers from `sub` (at its mip): a multiview attachment,
    /// made when the frame was bound.
    pub(super) fn layers_view(
        &self,
        r: ResourceId,
        sub: Subresource,
        count: u32,
    ) -> &'f wgpu::TextureView {
        let range = SubresourceRange {
            mips: Some((sub.mip, 1)),
            layers: Some((sub.layer, count)),
        };
        self.range_view(r, range)
            .expect("multiview attachments are bound")
    }

    /// The view of a range that a pass of the frame uses, made when the frame was bound.
    fn range_view(&self, r: ResourceId, range: SubresourceRange) -> Option<&'f wgpu::TextureView> {
        let found = self
            .layer_views
            .iter()
            .find(|l| l.resource == r && l.range == range);
        found.map(|l| &l.view)
    }

    /// What the closure of `pass` sees, recording `views`.
    pub(super) fn context<'c>(
        &'c self,
        pass: PassRef<'c>,
        views: Views,
        target: Option<RenderTarget>,
    ) -> PassContext<'c> {
        PassContext {
            device: self.device,
            queue: self.queue,
            graph: self.graph,
            pass,
            resources: self.resources,
            frame: self,
            view_defects: self.quirks.view_defects.unwrap_or_default(),
            views,
            target,
        }
    }
}

impl FrameResources for Tables<'_> {
    fn texture(&self, r: ResourceId) -> Option<&wgpu::Texture> {
        self.texture_and_views(r).map(|(t, _)| t)
    }

    fn view(&self, r: ResourceId, range: SubresourceRange) -> Option<&wgpu::TextureView> {
        if range.is_all() {
            return self.texture_and_views(r).map(|(_, v)| &v.sampled().whole);
        }
        match range.single() {
            Some(sub) => self
                .texture_and_views(r)
                .and_then(|(_, v)| v.sampled().get(Some(sub))),
            None => self.range_view(r, range),
        }
    }

    fn buffer(&self, r: ResourceId) -> Option<&wgpu::Buffer> {
        match *self.slots.get(r.index())? {
            Slot::PoolBuffer(i) => Some(&self.pool.buffers[i as usize].buffer),
            Slot::ImportBuffer => self.imports.buffer_at(r),
            Slot::HistoryBuffer(h, current) => {
                Some(self.buffer_histories[h as usize].half(current))
            }
            _ => None,
        }
    }

    fn history_valid(&self, r: ResourceId) -> bool {
        match self.slots.get(r.index()) {
            Some(&Slot::History(h, false)) => self.histories[h as usize].valid(),
            Some(&Slot::HistoryBuffer(h, false)) => self.buffer_histories[h as usize].valid(),
            _ => false,
        }
    }
}
