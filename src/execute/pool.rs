//! Physical textures and buffers, pooled across frames.
//!
//! A plan's physical resources are matched to pool entries with the same descriptor and usage.
//! Once a frame shape is warm no texture is created, and an entry keeps its texture and views for
//! as long as it is used, so bind groups built from them stay valid. Entries unused for
//! `keep_frames` frames are released.
//!
//! An entry is labelled with the names of the resources it holds (`hdr+bloom` for two that
//! alias it), so that wgpu's errors name them; wgpu labels are fixed at creation, so the label
//! is part of what an entry is matched by. A plan binds its entries once and keeps them while
//! the pool is unchanged, so steady frames match nothing and allocate nothing.

use std::sync::Arc;

use crate::resource::{Subresource, SubresourceRange, TextureDesc};

/// The views of one texture, made once: the whole texture, each (mip, layer), and the 2D-array
/// views multiview render passes attach.
#[derive(Debug, Clone)]
pub(crate) struct TextureViews {
    /// Every mip and layer; an array view when the texture has more than one layer.
    pub(crate) whole: wgpu::TextureView,
    /// One mip of one layer each, at `layer * mips + mip`; empty for a one-subresource texture,
    /// whose one subresource is `whole` (imports are bound every frame: no allocation for them).
    subs: Vec<wgpu::TextureView>,
    mips: u32,
    /// Views of ranges of mips and layers, made when a multiview render pass first attaches
    /// them (2D-array views of consecutive layers of one mip) or a pass first reads the range.
    layers: RangeViews,
    /// What the views are labelled after: the resources the texture holds (`None` for an
    /// import, which the caller binds with its own views every frame).
    label: Option<Arc<str>>,
    /// For a graph-owned texture of a depth format with a stencil aspect: the same views of
    /// its depth aspect alone, which is what a shader binds.
    depth: Option<Box<TextureViews>>,
}

impl TextureViews {
    /// The views of `texture`, labelled after `label` (the resources it holds). `whole` is the
    /// view to use for the whole texture, when the caller already has one (an imported texture).
    pub(crate) fn new(
        texture: &wgpu::Texture,
        whole: Option<&wgpu::TextureView>,
        label: Option<Arc<str>>,
    ) -> Self {
        let depth =
            (whole.is_none() && texture.format().is_combined_depth_stencil_format()).then(|| {
                Box::new(Self::of_aspect(
                    texture,
                    None,
                    label.clone(),
                    wgpu::TextureAspect::DepthOnly,
                ))
            });
        Self {
            depth,
            ..Self::of_aspect(texture, whole, label, wgpu::TextureAspect::All)
        }
    }

    fn of_aspect(
        texture: &wgpu::Texture,
        whole: Option<&wgpu::TextureView>,
        label: Option<Arc<str>>,
        aspect: wgpu::TextureAspect,
    ) -> Self {
        let (mips, layers) = (texture.mip_level_count(), texture.depth_or_array_layers());
        let name = label.as_deref().unwrap_or("import");
        let whole = whole.cloned().unwrap_or_else(|| {
            texture.create_view(&wgpu::TextureViewDescriptor {
                label: Some(name),
                aspect,
                dimension: Some(if layers > 1 {
                    wgpu::TextureViewDimension::D2Array
                } else {
                    wgpu::TextureViewDimension::D2
                }),
                ..Default::default()
            })
        });
        let subs = if mips * layers == 1 {
            Vec::new()
        } else {
            (0..layers)
                .flat_map(|layer| (0..mips).map(move |mip| (mip, layer)))
                .map(|(mip, layer)| {
                    texture.create_view(&wgpu::TextureViewDescriptor {
                        label: Some(&format!("{name} mip {mip} layer {layer}")),
                        dimension: Some(wgpu::TextureViewDimension::D2),
                        base_mip_level: mip,
                        mip_level_count: Some(1),
                        base_array_layer: layer,
                        array_layer_count: Some(1),
                        aspect,
                        ..Default::default()
                    })
                })
                .collect()
        };
        TextureViews {
            whole,
            subs,
            mips,
            layers: Vec::new(),
            label,
            depth: None,
        }
    }

    /// The views a shader binds: those of the depth aspect for a depth format with a stencil
    /// aspect, these otherwise.
    pub(crate) fn sampled(&self) -> &TextureViews {
        self.depth.as_deref().unwrap_or(self)
    }

    /// The views of a multisampled array kept as one texture per layer (a device without
    /// `Features::MULTISAMPLE_ARRAY`): each layer's whole texture; "the whole" is layer 0.
    pub(crate) fn of_layers(layers: &[wgpu::Texture], label: Arc<str>) -> Self {
        let subs: Vec<wgpu::TextureView> = layers
            .iter()
            .enumerate()
            .map(|(layer, t)| {
                t.create_view(&wgpu::TextureViewDescriptor {
                    label: Some(&format!("{label} layer {layer}")),
                    ..Default::default()
                })
            })
            .collect();
        TextureViews {
            whole: subs[0].clone(),
            subs,
            mips: 1,
            layers: Vec::new(),
            label: Some(label),
            depth: None,
        }
    }

    /// The view of one subresource, or of the whole texture.
    pub(crate) fn get(&self, sub: Option<Subresource>) -> Option<&wgpu::TextureView> {
        match sub {
            None => Some(&self.whole),
            Some(s) if self.subs.is_empty() => (s == Subresource::BASE).then_some(&self.whole),
            Some(s) if s.mip < self.mips => self.subs.get((s.layer * self.mips + s.mip) as usize),
            Some(_) => None,
        }
    }

    /// The view of a range of `texture` (whose views these are; [`kept_range_view`]): made the
    /// first time, kept after.
    pub(crate) fn range(
        &mut self,
        texture: &wgpu::Texture,
        range: SubresourceRange,
    ) -> wgpu::TextureView {
        let label = self.label.as_deref().unwrap_or("import");
        kept_range_view(&mut self.layers, texture, range, label)
    }

    /// How many views are held: the whole texture, each subresource of one with several, and
    /// the 2D-array views.
    pub(crate) fn count(&self) -> usize {
        self.subresources().len() + usize::from(!self.subs.is_empty()) + self.layers.len()
    }

    /// Every subresource view (what poisoning overwrites).
    pub(crate) fn subresources(&self) -> &[wgpu::TextureView] {
        if self.subs.is_empty() {
            std::slice::from_ref(&self.whole)
        } else {
            &self.subs
        }
    }
}

/// The view of a range of `texture`'s mips and layers: a 2D-array view where it has several
/// layers (a multiview attachment, a sampled range of an array), else a 2D view of its mips;
/// labelled after `label` (the resources the texture holds).
fn range_view(texture: &wgpu::Texture, range: SubresourceRange, label: &str) -> wgpu::TextureView {
    let (mip, mips, layer, layers) =
        range.resolve(texture.mip_level_count(), texture.depth_or_array_layers());
    texture.create_view(&wgpu::TextureViewDescriptor {
        label: Some(&format!("{label} {}", range.describe())),
        dimension: Some(if layers > 1 {
            wgpu::TextureViewDimension::D2Array
        } else {
            wgpu::TextureViewDimension::D2
        }),
        base_mip_level: mip,
        mip_level_count: Some(mips),
        base_array_layer: layer,
        array_layer_count: Some(layers),
        ..Default::default()
    })
}

/// Views of ranges of one texture's mips and layers, each made once and kept.
pub(crate) type RangeViews = Vec<(SubresourceRange, wgpu::TextureView)>;

/// The view of `range` of `texture` kept in `kept`: made (labelled after `label`) and kept the
/// first time, found after.
pub(crate) fn kept_range_view(
    kept: &mut RangeViews,
    texture: &wgpu::Texture,
    range: SubresourceRange,
    label: &str,
) -> wgpu::TextureView {
    if let Some((_, view)) = kept.iter().find(|(made, _)| *made == range) {
        return view.clone();
    }
    let view = range_view(texture, range, label);
    kept.push((range, view.clone()));
    view
}

/// One pooled texture and the views the executor hands out.
pub(crate) struct PooledTexture {
    pub(crate) desc: TextureDesc,
    pub(crate) usage: wgpu::TextureUsages,
    /// The names of the resources it holds, joined by `+`: its label and its views'.
    label: Arc<str>,
    pub(crate) texture: wgpu::Texture,
    pub(crate) views: TextureViews,
    /// A multisampled array kept as one texture per layer.
    split: bool,
    last_used: u64,
}

/// One pooled buffer.
pub(crate) struct PooledBuffer {
    pub(crate) size: u64,
    pub(crate) usage: wgpu::BufferUsages,
    /// The names of the resources it holds, joined by `+`.
    label: Arc<str>,
    pub(crate) buffer: wgpu::Buffer,
    last_used: u64,
}

/// Counters that show whether the pool is warm.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PoolStats {
    /// Textures held now.
    pub textures: usize,
    /// Buffers held now.
    pub buffers: usize,
    /// Textures created since the executor was made.
    pub textures_created: u64,
    /// Buffers created since the executor was made.
    pub buffers_created: u64,
    /// Entries released because no frame used them for a while.
    pub evicted: u64,
}

/// What a pooled resource must be: its shape (a texture's descriptor, a buffer's size), its
/// usage and its label.
pub(crate) struct Wanted<'l, D, U> {
    pub desc: D,
    pub usage: U,
    pub label: &'l str,
}

#[derive(Default)]
pub(crate) struct Pool {
    pub(crate) textures: Vec<PooledTexture>,
    pub(crate) buffers: Vec<PooledBuffer>,
    /// Bumped whenever entries move, so cached bindings of a plan know to look again.
    pub(crate) generation: u64,
    pub(crate) stats: PoolStats,
    /// When an entry may next be stale.
    staleness: Staleness,
}

impl Pool {
    /// A texture of this shape, usage and label that no other resource of the frame holds yet,
    /// created if there is none; a multisampled array one texture per layer where `split`.
    /// `taken` marks entries already handed out this frame.
    pub(crate) fn acquire_texture(
        &mut self,
        device: &wgpu::Device,
        wanted: Wanted<'_, TextureDesc, wgpu::TextureUsages>,
        split: bool,
        taken: &mut Vec<bool>,
    ) -> u32 {
        let Wanted { desc, usage, label } = wanted;
        taken.resize(self.textures.len(), false);
        let split = split && desc.samples > 1 && desc.layers > 1;
        if let Some(i) = self.textures.iter().enumerate().position(|(i, t)| {
            !taken[i]
                && t.desc == desc
                && t.usage == usage
                && t.split == split
                && *t.label == *label
        }) {
            taken[i] = true;
            return i as u32;
        }
        let label: Arc<str> = label.into();
        let create =
            |layers: u32| device.create_texture(&desc.wgpu_descriptor(&label, layers, usage));
        // A multisampled array the device cannot make, or that only render passes of one view
        // attach: one texture per layer (the views keep their textures alive).
        let (texture, views) = if split {
            let layers: Vec<wgpu::Texture> = (0..desc.layers).map(|_| create(1)).collect();
            (
                layers[0].clone(),
                TextureViews::of_layers(&layers, label.clone()),
            )
        } else {
            let texture = create(desc.layers);
            let views = TextureViews::new(&texture, None, Some(label.clone()));
            (texture, views)
        };
        self.textures.push(PooledTexture {
            desc,
            usage,
            label,
            texture,
            views,
            split,
            last_used: 0,
        });
        self.staleness.added();
        self.stats.textures_created += 1;
        taken.push(true);
        (self.textures.len() - 1) as u32
    }

    /// A buffer of this size, usage and label that no other resource of the frame holds yet.
    pub(crate) fn acquire_buffer(
        &mut self,
        device: &wgpu::Device,
        wanted: Wanted<'_, u64, wgpu::BufferUsages>,
        taken: &mut Vec<bool>,
    ) -> u32 {
        let Wanted {
            desc: size,
            usage,
            label,
        } = wanted;
        taken.resize(self.buffers.len(), false);
        if let Some(i) = self.buffers.iter().enumerate().position(|(i, b)| {
            !taken[i] && b.size == size && b.usage == usage && *b.label == *label
        }) {
            taken[i] = true;
            return i as u32;
        }
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage,
            mapped_at_creation: false,
        });
        self.buffers.push(PooledBuffer {
            size,
            usage,
            label: label.into(),
            buffer,
            last_used: 0,
        });
        self.staleness.added();
        self.stats.buffers_created += 1;
        taken.push(true);
        (self.buffers.len() - 1) as u32
    }

    pub(crate) fn touch_texture(&mut self, index: u32, frame: u64) {
        self.textures[index as usize].last_used = frame;
    }

    pub(crate) fn touch_buffer(&mut self, index: u32, frame: u64) {
        self.buffers[index as usize].last_used = frame;
    }

    /// Releases entries no frame has used in the last `keep_frames` frames. Looks at the
    /// entries only once one of them may be stale ([`Staleness`]); inlined, a frame that need
    /// not look costs one comparison.
    #[inline]
    pub(crate) fn evict(&mut self, frame: u64, keep_frames: u64) {
        if self.staleness.due(frame) {
            self.evict_stale(frame, keep_frames);
        }
    }

    #[inline(never)]
    fn evict_stale(&mut self, frame: u64, keep_frames: u64) {
        let stale = |last_used: u64| Staleness::stale(frame, last_used, keep_frames);
        let before = self.textures.len() + self.buffers.len();
        self.textures.retain(|t| !stale(t.last_used));
        self.buffers.retain(|b| !stale(b.last_used));
        let removed = before - (self.textures.len() + self.buffers.len());
        if removed > 0 {
            self.stats.evicted += removed as u64;
            self.generation += 1;
        }
        let textures = self.textures.iter().map(|t| t.last_used);
        let oldest = textures
            .chain(self.buffers.iter().map(|b| b.last_used))
            .min();
        self.staleness.looked(frame, oldest, keep_frames);
    }

    /// Bytes of the pooled textures and of the pooled buffers.
    pub(crate) fn bytes(&self) -> (u64, u64) {
        let textures = self
            .textures
            .iter()
            .map(|t| super::stats::texture_bytes(&t.desc))
            .fold(0, u64::saturating_add);
        let buffers = self
            .buffers
            .iter()
            .map(|b| b.size)
            .fold(0, u64::saturating_add);
        (textures, buffers)
    }

    pub(crate) fn stats(&self) -> PoolStats {
        PoolStats {
            textures: self.textures.len(),
            buffers: self.buffers.len(),
            ..self.stats
        }
    }
}

/// When entries that no frame used for more than `keep` frames are next worth looking for, so
/// that a cache is not walked every frame: uses only move later, so none can be stale before the
/// oldest use seen by the last look, plus `keep`, plus one. An entry added with an older use
/// than that (a pool entry is added unused) calls [`added`](Self::added).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Staleness {
    next: u64,
}

impl Staleness {
    /// Whether an entry last used at `last_used` is stale at `frame`.
    pub(crate) fn stale(frame: u64, last_used: u64, keep: u64) -> bool {
        frame.saturating_sub(last_used) > keep
    }

    /// Whether an entry may be stale at `frame`.
    pub(crate) fn due(self, frame: u64) -> bool {
        frame >= self.next
    }

    /// The entries were looked at on `frame`; `oldest` is the earliest use of those kept.
    pub(crate) fn looked(&mut self, frame: u64, oldest: Option<u64>, keep: u64) {
        self.next = oldest
            .unwrap_or(frame)
            .saturating_add(keep)
            .saturating_add(1);
    }

    /// An entry of no use yet was added: look at the next chance.
    pub(crate) fn added(&mut self) {
        self.next = 0;
    }
}
