//! [`BindGroupCache`]: bind groups found again by the identity of what they bind.
//!
//! A lookup resolves the pass's bindings to borrowed handles, hashes them, and confirms a hit
//! against the entry's own key: unless the bind group is new, no handle is cloned, no key is
//! built, and for up to seven bindings nothing is allocated.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::{Mutex, MutexGuard};

use super::Binding;
use crate::context::{ContextError, PassContext};
use crate::execute::Staleness;
use crate::hash::FastHasher;
use crate::resource::SubresourceRange;

/// What a bind group was made from, held by its entry. wgpu 30 compares and hashes its handles
/// by identity, and holding a clone keeps the object alive, so an identity is never reused while
/// it is a key.
#[derive(Debug)]
enum Key {
    Layout(wgpu::BindGroupLayout),
    View(wgpu::TextureView),
    Buffer(wgpu::Buffer),
    /// A buffer bound from `offset`, `size` bytes.
    BufferRange(wgpu::Buffer, u64, u64),
    Sampler(wgpu::Sampler),
    /// A view the cache makes: the texture, its dimension, one mip or all of them.
    TextureAs(wgpu::Texture, wgpu::TextureViewDimension, Option<u32>),
}

/// A [`Key`]'s part borrowed from the call that looks it up; hashes as the handle it borrows.
#[derive(Clone, Copy, Hash)]
enum KeyRef<'a> {
    Layout(&'a wgpu::BindGroupLayout),
    View(&'a wgpu::TextureView),
    Buffer(&'a wgpu::Buffer),
    BufferRange(&'a wgpu::Buffer, u64, u64),
    Sampler(&'a wgpu::Sampler),
    TextureAs(&'a wgpu::Texture, wgpu::TextureViewDimension, Option<u32>),
}

impl KeyRef<'_> {
    /// The key part an entry holds: the handle cloned.
    fn to_key(self) -> Key {
        match self {
            KeyRef::Layout(l) => Key::Layout(l.clone()),
            KeyRef::View(v) => Key::View(v.clone()),
            KeyRef::Buffer(b) => Key::Buffer(b.clone()),
            KeyRef::BufferRange(b, offset, size) => Key::BufferRange(b.clone(), offset, size),
            KeyRef::Sampler(s) => Key::Sampler(s.clone()),
            KeyRef::TextureAs(t, dimension, mip) => Key::TextureAs(t.clone(), dimension, mip),
        }
    }

    /// Whether `key` is this part: the same handle, range, dimension and mip.
    fn is(self, key: &Key) -> bool {
        match (self, key) {
            (KeyRef::Layout(a), Key::Layout(b)) => a == b,
            (KeyRef::View(a), Key::View(b)) => a == b,
            (KeyRef::Buffer(a), Key::Buffer(b)) => a == b,
            (KeyRef::BufferRange(a, o, s), Key::BufferRange(b, p, t)) => {
                a == b && o == *p && s == *t
            }
            (KeyRef::Sampler(a), Key::Sampler(b)) => a == b,
            (KeyRef::TextureAs(a, d, m), Key::TextureAs(b, e, n)) => a == b && d == *e && m == *n,
            _ => false,
        }
    }
}

/// Parts a lookup keeps on the stack (the layout and seven bindings); a bind group of more
/// bindings keeps the rest in a `Vec`.
const INLINE_PARTS: usize = 8;

/// A lookup's key: the layout, then one part per binding.
struct Parts<'a> {
    inline: [Option<KeyRef<'a>>; INLINE_PARTS],
    len: usize,
    more: Vec<KeyRef<'a>>,
}

impl<'a> Parts<'a> {
    fn new(layout: &'a wgpu::BindGroupLayout) -> Self {
        let mut inline = [None; INLINE_PARTS];
        inline[0] = Some(KeyRef::Layout(layout));
        Parts {
            inline,
            len: 1,
            more: Vec::new(),
        }
    }

    fn push(&mut self, part: KeyRef<'a>) {
        match self.inline.get_mut(self.len) {
            Some(slot) => *slot = Some(part),
            None => self.more.push(part),
        }
        self.len += 1;
    }

    fn iter(&self) -> impl Iterator<Item = KeyRef<'a>> + '_ {
        self.inline.iter().flatten().chain(&self.more).copied()
    }

    fn hash(&self) -> u64 {
        let mut hasher = FastHasher::default();
        self.iter().for_each(|part| part.hash(&mut hasher));
        hasher.finish()
    }

    /// Whether `key` is made of these parts.
    fn are(&self, key: &[Key]) -> bool {
        key.len() == self.len && self.iter().zip(key).all(|(part, k)| part.is(k))
    }
}

struct Entry {
    key: Box<[Key]>,
    group: wgpu::BindGroup,
    last_used: u64,
}

#[derive(Default)]
struct Inner {
    /// By the hash of the entry's key, which confirms a hit; of two keys with one hash the
    /// newer holds the slot (a miss for the other, never the other's bind group).
    entries: HashMap<u64, Entry, BuildHasherDefault<FastHasher>>,
    frame: u64,
    hits: u64,
    misses: u64,
    /// When a bind group may next be stale.
    staleness: Staleness,
}

impl Inner {
    /// Makes the bind group of `parts` and keeps it under `hash` (a miss: warm frames find
    /// their bind groups).
    #[cold]
    fn insert_new(
        &mut self,
        ctx: &PassContext<'_>,
        hash: u64,
        parts: &Parts<'_>,
    ) -> Result<wgpu::BindGroup, ContextError> {
        self.misses += 1;
        let key: Box<[Key]> = parts.iter().map(KeyRef::to_key).collect();
        // A bind group wgpu refuses is not kept: the caller hears of it, and the next call
        // with the same resources tries again instead of finding the invalid one.
        let scope = ctx.device().push_error_scope(wgpu::ErrorFilter::Validation);
        let group = make_bind_group(ctx.device(), ctx.pass_name(), &key);
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(ContextError::BindGroup {
                pass: ctx.pass_name().to_owned(),
                message: error.to_string(),
            });
        }
        let entry = Entry {
            key,
            group: group.clone(),
            last_used: self.frame,
        };
        self.entries.insert(hash, entry);
        Ok(group)
    }
}

/// Counters of a [`BindGroupCache`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BindGroupCacheStats {
    /// Lookups that found a bind group.
    pub hits: u64,
    /// Lookups that made one.
    pub misses: u64,
    /// Bind groups held now.
    pub len: usize,
}

/// Bind groups built from what a pass resolves through its [`PassContext`], cached by the
/// identity of the layout, views, buffers and samplers they bind.
///
/// The executor keeps the views of pooled textures stable while a plan is reused, so warm frames
/// find their bind groups; a resize or a new plan hands out new views, and the bind groups made
/// from them are built on first use. Call [`next_frame`](Self::next_frame) once per frame: bind
/// groups no frame used for `keep_frames` frames are dropped, releasing the views (and so the
/// textures) they hold.
///
/// Methods take `&self` (the cache locks inside), so every pass closure of a frame can capture
/// the same cache.
pub struct BindGroupCache {
    inner: Mutex<Inner>,
    keep_frames: u64,
}

impl Default for BindGroupCache {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for BindGroupCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BindGroupCache")
            .field("stats", &self.stats())
            .field("keep_frames", &self.keep_frames)
            .finish()
    }
}

impl BindGroupCache {
    /// An empty cache that drops bind groups unused for 3 frames (history textures alternate
    /// between two views, so 2 is the least that keeps them).
    pub fn new() -> Self {
        Self::with_keep_frames(3)
    }

    /// An empty cache that drops bind groups unused for `frames` frames.
    pub fn with_keep_frames(frames: u64) -> Self {
        BindGroupCache {
            inner: Mutex::new(Inner::default()),
            keep_frames: frames,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while building a bind group leaves the map consistent: keep using it.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The bind group of `layout` binding `bindings` (entry `i` at `@binding(i)`), resolved
    /// through `ctx`: made on the first call with these resources, found on the next ones.
    /// A graph resource the pass did not declare is a [`ContextError`].
    pub fn bind_group(
        &self,
        ctx: &PassContext<'_>,
        layout: &wgpu::BindGroupLayout,
        bindings: &[Binding<'_>],
    ) -> Result<wgpu::BindGroup, ContextError> {
        let mut parts = Parts::new(layout);
        for binding in bindings {
            parts.push(match *binding {
                Binding::Texture(t) => KeyRef::View(ctx.view(t)?),
                Binding::TextureAs(t, dimension) => {
                    // The whole texture must be declared, as for its own whole view.
                    ctx.declared_view(t.into())?;
                    ctx.check_shader_view(t.index, SubresourceRange::ALL, Some(dimension))?;
                    KeyRef::TextureAs(ctx.texture(t)?, dimension, None)
                }
                Binding::MipAs(t, mip, dimension) => {
                    let texture = ctx.texture(t)?;
                    for layer in 0..texture.depth_or_array_layers() {
                        ctx.declared_view(t.subresource(mip, layer).into())?;
                    }
                    let range = SubresourceRange {
                        mips: Some((mip, 1)),
                        layers: None,
                    };
                    ctx.check_shader_view(t.index, range, Some(dimension))?;
                    KeyRef::TextureAs(texture, dimension, Some(mip))
                }
                Binding::Buffer(b) => KeyRef::Buffer(ctx.buffer(b)?),
                Binding::BufferSlice(b, offset, size) => {
                    KeyRef::BufferRange(ctx.buffer(b)?, offset, size)
                }
                Binding::View(v) => KeyRef::View(v),
                Binding::ExternalBuffer(b) => KeyRef::Buffer(b),
                Binding::BufferRange(b, offset, size) => KeyRef::BufferRange(b, offset, size),
                Binding::Sampler(s) => KeyRef::Sampler(s),
            });
        }
        let hash = parts.hash();
        let mut guard = self.lock();
        let inner = &mut *guard;
        let frame = inner.frame;
        if let Some(entry) = inner.entries.get_mut(&hash)
            && parts.are(&entry.key)
        {
            entry.last_used = frame;
            inner.hits += 1;
            return Ok(entry.group.clone());
        }
        inner.insert_new(ctx, hash, &parts)
    }

    /// Ends a frame: drops the bind groups no frame used for `keep_frames` frames (looking at
    /// them only once one of them may be that old).
    pub fn next_frame(&self) {
        let mut inner = self.lock();
        inner.frame += 1;
        let (frame, keep) = (inner.frame, self.keep_frames);
        if !inner.staleness.due(frame) {
            return;
        }
        inner
            .entries
            .retain(|_, e| !Staleness::stale(frame, e.last_used, keep));
        let oldest = inner.entries.values().map(|e| e.last_used).min();
        inner.staleness.looked(frame, oldest, keep);
    }

    /// Hits, misses and the number of bind groups held.
    pub fn stats(&self) -> BindGroupCacheStats {
        let inner = self.lock();
        BindGroupCacheStats {
            hits: inner.hits,
            misses: inner.misses,
            len: inner.entries.len(),
        }
    }

    /// Drops every bind group (after a device change, say).
    pub fn clear(&self) {
        self.lock().entries.clear();
    }
}

/// Builds the bind group a key describes; views of another dimension are made here and kept
/// alive by the bind group.
fn make_bind_group(device: &wgpu::Device, label: &str, key: &[Key]) -> wgpu::BindGroup {
    let Some((Key::Layout(layout), resources)) = key.split_first() else {
        unreachable!("a key starts with its layout");
    };
    let made: Vec<Option<wgpu::TextureView>> = resources
        .iter()
        .map(|k| match k {
            Key::TextureAs(texture, dimension, mip) => {
                Some(texture.create_view(&wgpu::TextureViewDescriptor {
                    label: Some(label),
                    // What a shader binds of a depth format with a stencil aspect.
                    aspect: if texture.format().is_combined_depth_stencil_format() {
                        wgpu::TextureAspect::DepthOnly
                    } else {
                        wgpu::TextureAspect::All
                    },
                    dimension: Some(*dimension),
                    base_mip_level: mip.unwrap_or(0),
                    mip_level_count: mip.map(|_| 1),
                    ..Default::default()
                }))
            }
            _ => None,
        })
        .collect();
    let entries: Vec<wgpu::BindGroupEntry<'_>> = resources
        .iter()
        .zip(&made)
        .enumerate()
        .map(|(i, (k, made))| wgpu::BindGroupEntry {
            binding: i as u32,
            resource: match (k, made) {
                (_, Some(view)) | (Key::View(view), None) => {
                    wgpu::BindingResource::TextureView(view)
                }
                (Key::Buffer(b), None) => b.as_entire_binding(),
                (Key::BufferRange(b, offset, size), None) => {
                    wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: b,
                        offset: *offset,
                        size: wgpu::BufferSize::new(*size),
                    })
                }
                (Key::Sampler(s), None) => wgpu::BindingResource::Sampler(s),
                (Key::Layout(_) | Key::TextureAs(..), None) => {
                    unreachable!("one layout, first; reinterpreted views are made above")
                }
            },
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout,
        entries: &entries,
    })
}
