//! Imported resources: what the caller binds each frame, and the check that it matches the
//! declaration.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use super::ExecuteError;
use super::pool::{RangeViews, TextureViews, kept_range_view};
use crate::ids::ResourceId;
use crate::plan::ResourceUsage;
use crate::resource::{BufferHandle, SubresourceRange, TextureDesc, TextureHandle};

/// The wgpu objects behind a graph's imported resources for one frame (the surface texture, a
/// history buffer owned by the caller). Keep one and rebind it every frame: it reuses its storage,
/// and the views it made of a texture bound again.
#[derive(Debug, Default)]
pub struct Imports {
    textures: Vec<Option<ImportedTexture>>,
    buffers: Vec<Option<wgpu::Buffer>>,
}

/// A bound texture and the views made of it.
#[derive(Debug)]
struct ImportedTexture {
    texture: wgpu::Texture,
    views: TextureViews,
    /// The views of ranges that frames' passes used (multiview attachments, sampled ranges),
    /// made when a frame first needs one and kept while the texture stays bound.
    ranges: Mutex<RangeViews>,
    /// The [`CompiledGraph::id`](crate::CompiledGraph) of the plan whose check the texture last
    /// passed (0: none yet).
    passed: AtomicU64,
}

impl ImportedTexture {
    /// Checks the texture with `check`, noting that it passed `plan`'s check when it does; out
    /// of line, as a frame with the plan of the last one finds its imports checked.
    #[inline(never)]
    fn check(
        &self,
        plan: u64,
        check: impl FnOnce(&wgpu::Texture) -> Result<(), ExecuteError>,
    ) -> Result<(), ExecuteError> {
        check(&self.texture)?;
        self.passed.store(plan, Ordering::Relaxed);
        Ok(())
    }
}

impl Imports {
    /// Nothing bound.
    pub fn new() -> Self {
        Self::default()
    }

    /// Binds `texture` (seen whole through `view`) to an imported texture. A texture with more
    /// than one mip or layer also gets one view per subresource, made here; binding again the
    /// texture and view it holds keeps those views, so frames that rebind it get the same views
    /// (and find the bind groups made of them in a
    /// [`BindGroupCache`](crate::helpers::BindGroupCache)).
    pub fn texture(
        &mut self,
        handle: TextureHandle,
        texture: &wgpu::Texture,
        view: &wgpu::TextureView,
    ) -> &mut Self {
        let i = handle.index.index();
        if self.textures.len() <= i {
            self.textures.resize_with(i + 1, || None);
        }
        if let Some(bound) = &self.textures[i]
            && bound.texture == *texture
            && bound.views.whole == *view
        {
            return self;
        }
        self.textures[i] = Some(ImportedTexture {
            texture: texture.clone(),
            views: TextureViews::new(texture, Some(view), None),
            ranges: Mutex::default(),
            passed: AtomicU64::new(0),
        });
        self
    }

    /// Binds `buffer` to an imported buffer.
    pub fn buffer(&mut self, handle: BufferHandle, buffer: &wgpu::Buffer) -> &mut Self {
        let i = handle.index.index();
        if self.buffers.len() <= i {
            self.buffers.resize(i + 1, None);
        }
        self.buffers[i] = Some(buffer.clone());
        self
    }

    /// Unbinds everything, keeping the storage.
    pub fn clear(&mut self) {
        self.textures.iter_mut().for_each(|t| *t = None);
        self.buffers.iter_mut().for_each(|b| *b = None);
    }

    pub(super) fn texture_at(&self, r: ResourceId) -> Option<(&wgpu::Texture, &TextureViews)> {
        let bound = self.textures.get(r.index())?.as_ref()?;
        Some((&bound.texture, &bound.views))
    }

    /// Checks the texture bound to `r` with `check`, what plan number `plan` needs of it, unless
    /// it passed that plan's check since it was bound; `None` when no texture is bound.
    pub(super) fn check_texture(
        &self,
        r: ResourceId,
        plan: u64,
        check: impl FnOnce(&wgpu::Texture) -> Result<(), ExecuteError>,
    ) -> Option<Result<(), ExecuteError>> {
        let bound = self.textures.get(r.index())?.as_ref()?;
        if bound.passed.load(Ordering::Relaxed) == plan {
            return Some(Ok(()));
        }
        Some(bound.check(plan, check))
    }

    /// The view of `range` of the texture bound to `r` (labelled after `label`): made the
    /// first time a frame uses it, kept while the texture stays bound.
    pub(super) fn range_view(
        &self,
        r: ResourceId,
        range: SubresourceRange,
        label: &str,
    ) -> Option<wgpu::TextureView> {
        let bound = self.textures.get(r.index())?.as_ref()?;
        // Views are only ever added, so a panic elsewhere leaves the list usable.
        let mut ranges = bound.ranges.lock().unwrap_or_else(|e| e.into_inner());
        Some(kept_range_view(&mut ranges, &bound.texture, range, label))
    }

    pub(super) fn buffer_at(&self, r: ResourceId) -> Option<&wgpu::Buffer> {
        self.buffers.get(r.index())?.as_ref()
    }
}

/// The bound texture has the declared format, size, layers, mips, samples and the usages the
/// plan needs.
pub(super) fn check_imported_texture(
    name: &str,
    desc: TextureDesc,
    usage: ResourceUsage,
    texture: &wgpu::Texture,
) -> Result<(), ExecuteError> {
    let mismatch = |message: String| ExecuteError::ImportMismatch {
        resource: name.to_owned(),
        message,
    };
    if texture.format() != desc.format {
        return Err(mismatch(format!(
            "format {:?}, declared {:?}",
            texture.format(),
            desc.format
        )));
    }
    if (texture.width(), texture.height()) != (desc.width, desc.height)
        || texture.depth_or_array_layers() < desc.layers
        || texture.mip_level_count() < desc.mips
        || texture.sample_count() != desc.samples
    {
        return Err(mismatch(format!(
            "{}x{}x{} with {} mips and {} samples, declared {}x{}x{} with {} mips and {} samples",
            texture.width(),
            texture.height(),
            texture.depth_or_array_layers(),
            texture.mip_level_count(),
            texture.sample_count(),
            desc.width,
            desc.height,
            desc.layers,
            desc.mips,
            desc.samples
        )));
    }
    if let ResourceUsage::Texture(needed) = usage {
        let missing = needed - texture.usage() - wgpu::TextureUsages::TRANSIENT_ATTACHMENT;
        if !missing.is_empty() {
            return Err(mismatch(format!("usage lacks {missing:?}")));
        }
    }
    Ok(())
}
