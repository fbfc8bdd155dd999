//! Resolve detours: a multisampled resolve into a layer past the first of an array, recorded
//! through a single-layer texture and a copy where the adapter resolves into layer 0 whatever
//! layer the view names.

use super::tables::Tables;
use crate::ids::ResourceId;

/// A resolve into a layer past the first of an array, through a texture of one layer shaped
/// like the array's mip 0 and a copy into the layer.
pub(super) struct Detour<'t> {
    scratch: wgpu::Texture,
    /// The resolve target of the render pass.
    pub(super) view: wgpu::TextureView,
    target: &'t wgpu::Texture,
}

impl<'t> Detour<'t> {
    /// The detour of a resolve into `resource`, unless it has no `COPY_DST` (an import): that
    /// one is resolved into as it is.
    pub(super) fn of(tables: Tables<'t>, resource: ResourceId) -> Option<Self> {
        let (target, _) = tables.texture_and_views(resource)?;
        if !target.usage().contains(wgpu::TextureUsages::COPY_DST) {
            return None;
        }
        let label = format!("{} resolve detour", tables.resources[resource.index()].name);
        let scratch = tables.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(&label),
            size: wgpu::Extent3d {
                depth_or_array_layers: 1,
                ..target.size()
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: target.format(),
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = scratch.create_view(&wgpu::TextureViewDescriptor {
            label: Some(&label),
            ..Default::default()
        });
        Some(Detour {
            scratch,
            view,
            target,
        })
    }

    /// Copies the resolved texels into `layer` of the array, after the render pass.
    pub(super) fn copy_into_layer(&self, encoder: &mut wgpu::CommandEncoder, layer: u32) {
        encoder.copy_texture_to_texture(
            self.scratch.as_image_copy(),
            wgpu::TexelCopyTextureInfo {
                texture: self.target,
                mip_level: 0,
                origin: wgpu::Origin3d {
                    x: 0,
                    y: 0,
                    z: layer,
                },
                aspect: wgpu::TextureAspect::All,
            },
            self.scratch.size(),
        );
    }
}
