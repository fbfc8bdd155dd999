//! History textures and buffers ([`RenderGraph::history_texture`](crate::RenderGraph::history_texture),
//! [`RenderGraph::history_buffer`](crate::RenderGraph::history_buffer)): two of each per history,
//! owned by the executor, swapped every frame.

use std::sync::Arc;

use super::pool::TextureViews;
use super::tables::Slot;
use crate::ids::ResourceId;
use crate::resource::TextureDesc;

/// Which of the executor's pairs holds a history: one of textures or one of buffers, by index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PairOf {
    Textures(u32),
    Buffers(u32),
}

impl PairOf {
    /// The slot of the pair's `previous` (false) or `current` (true) half.
    pub(super) fn half(self, current: bool) -> Slot {
        match self {
            PairOf::Textures(h) => Slot::History(h, current),
            PairOf::Buffers(h) => Slot::HistoryBuffer(h, current),
        }
    }
}

/// A history a prepared plan declares: its pair, and its halves the plan keeps live (`None`:
/// culled). The plan writes `current` where that half is live.
#[derive(Debug, Clone, Copy)]
pub(super) struct HistoryUse {
    pub pair: PairOf,
    pub previous: Option<ResourceId>,
    pub current: Option<ResourceId>,
}

impl HistoryUse {
    /// Whether the plan writes the history's `current` half.
    pub(super) fn wrote(&self) -> bool {
        self.current.is_some()
    }
}

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

/// One history buffer ([`RenderGraph::history_buffer`](crate::RenderGraph::history_buffer)):
/// last frame's buffer and this frame's, swapped as a [`HistoryPair`]'s textures are.
pub(super) struct BufferHistory {
    /// The `previous` resource's name, which identifies the history across frames.
    pub key: Arc<str>,
    size: u64,
    usage: wgpu::BufferUsages,
    buffers: [wgpu::Buffer; 2],
    /// Which of the two is `current` this frame.
    flip: bool,
    /// A frame wrote `current` since the buffers were made.
    written: bool,
    pub last_frame: u64,
}

/// Usages a history buffer always has (copies in and out: a reset, a readback).
const BUFFER_BASE_USAGE: wgpu::BufferUsages =
    wgpu::BufferUsages::COPY_SRC.union(wgpu::BufferUsages::COPY_DST);

impl BufferHistory {
    /// The pair of history `key`: two zeroed buffers of `size` bytes labelled `label`.
    pub(super) fn new(
        device: &wgpu::Device,
        key: Arc<str>,
        label: &str,
        size: u64,
        usage: wgpu::BufferUsages,
    ) -> Self {
        let usage = usage | BUFFER_BASE_USAGE;
        let make = || {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        BufferHistory {
            buffers: [make(), make()],
            key,
            size,
            usage,
            flip: false,
            written: false,
            last_frame: 0,
        }
    }

    /// Whether these buffers serve a history of this size and these usages.
    pub(super) fn fits(&self, size: u64, usage: wgpu::BufferUsages) -> bool {
        self.size == size && self.usage.contains(usage)
    }

    /// This frame's buffer (`current`) or last frame's.
    pub(super) fn half(&self, current: bool) -> &wgpu::Buffer {
        &self.buffers[usize::from(if current { self.flip } else { !self.flip })]
    }

    /// Bytes of both buffers.
    pub(super) fn bytes(&self) -> u64 {
        2 * self.size
    }

    /// Whether `previous` holds a frame's contents.
    pub(super) fn valid(&self) -> bool {
        self.written
    }

    /// After a recorded frame: this frame's buffer becomes the next one's `previous`.
    pub(super) fn swap(&mut self, wrote_current: bool) {
        self.flip = !self.flip;
        self.written = wrote_current;
    }
}
