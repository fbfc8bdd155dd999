//! History textures ([`RenderGraph::history_texture`](crate::RenderGraph::history_texture)): two
//! textures per history, owned by the executor, swapped every frame.

use std::sync::Arc;

use super::pool::TextureViews;
use crate::resource::TextureDesc;

/// One history: last frame's texture and this frame's.
pub(super) struct HistoryPair {
    /// The `previous` resource's name, which identifies the history across frames.
    pub key: Arc<str>,
    desc: TextureDesc,
    usage: wgpu::TextureUsages,
    textures: [(wgpu::Texture, TextureViews); 2],
    /// Which of the two is `current` this frame.
    flip: bool,
    /// A frame wrote `current` since the textures were made.
    written: bool,
    pub last_frame: u64,
}

/// Usages a history texture always has, so that a new plan rarely forces a reallocation.
const BASE_USAGE: wgpu::TextureUsages = wgpu::TextureUsages::TEXTURE_BINDING
    .union(wgpu::TextureUsages::COPY_SRC)
    .union(wgpu::TextureUsages::COPY_DST);

impl HistoryPair {
    /// The pair of history `key`, its textures and their views labelled `label`.
    pub(super) fn new(
        device: &wgpu::Device,
        key: Arc<str>,
        label: &str,
        desc: TextureDesc,
        usage: wgpu::TextureUsages,
    ) -> Self {
        let usage = (usage | BASE_USAGE) - wgpu::TextureUsages::TRANSIENT_ATTACHMENT;
        let label: Arc<str> = label.into();
        let make = || {
            let texture = device.create_texture(&desc.wgpu_descriptor(&label, desc.layers, usage));
            let views = TextureViews::new(&texture, None, Some(label.clone()));
            (texture, views)
        };
        HistoryPair {
            textures: [make(), make()],
            key,
            desc,
            usage,
            flip: false,
            written: false,
            last_frame: 0,
        }
    }

    /// Whether these textures serve a history of this shape and these usages.
    pub(super) fn fits(&self, desc: TextureDesc, usage: wgpu::TextureUsages) -> bool {
        self.desc == desc
            && self
                .usage
                .contains(usage - wgpu::TextureUsages::TRANSIENT_ATTACHMENT)
    }

    /// The descriptor both textures were made with.
    pub(super) fn desc(&self) -> TextureDesc {
        self.desc
    }

    /// The views of both textures.
    pub(super) fn views(&self) -> impl Iterator<Item = &TextureViews> {
        self.textures.iter().map(|(_, v)| v)
    }

    /// Last frame's texture.
    pub(super) fn previous(&self) -> &(wgpu::Texture, TextureViews) {
        &self.textures[usize::from(!self.flip)]
    }

    /// This frame's texture.
    pub(super) fn current(&self) -> &(wgpu::Texture, TextureViews) {
        &self.textures[usize::from(self.flip)]
    }

    /// This frame's texture (`current`) or last frame's, to add views to.
    pub(super) fn half_mut(&mut self, current: bool) -> (&wgpu::Texture, &mut TextureViews) {
        let index = if current { self.flip } else { !self.flip };
        let (texture, views) = &mut self.textures[usize::from(index)];
        (texture, views)
    }

    /// Whether `previous` holds a frame's contents.
    pub(super) fn valid(&self) -> bool {
        self.written
    }

    /// After a recorded frame: this frame's texture becomes the next one's `previous`.
    pub(super) fn swap(&mut self, wrote_current: bool) {
        self.flip = !self.flip;
        self.written = wrote_current;
    }
}
