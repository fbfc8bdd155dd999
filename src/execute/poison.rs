//! Poison mode's clears: the textures a group's plan declares dead overwritten with poison,
//! one clearing render pass per subresource, before and after the group.

use super::lower::{POISON_COLOR, POISON_DEPTH, POISON_STENCIL, PoisonTarget};
use super::recorder::Recorder;

impl Recorder<'_, '_> {
    /// Overwrites these textures (every subresource, or one attachment's) with poison: one
    /// clearing pass each.
    pub(super) fn poison_textures(&mut self, targets: &[PoisonTarget]) {
        for target in targets {
            let Some((texture, views)) = self.frame.tables.texture_and_views(target.resource)
            else {
                continue;
            };
            match target.sub {
                None => {
                    for view in views.subresources() {
                        self.poison(texture, view, &target.label);
                    }
                }
                Some(sub) => {
                    if let Some(view) = views.get(Some(sub)) {
                        self.poison(texture, view, &target.label);
                    }
                }
            }
        }
    }

    fn poison(&mut self, texture: &wgpu::Texture, view: &wgpu::TextureView, label: &str) {
        let format = texture.format();
        if !texture
            .usage()
            .contains(wgpu::TextureUsages::RENDER_ATTACHMENT)
        {
            return;
        }
        let color = [Some(wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(POISON_COLOR),
                store: wgpu::StoreOp::Store,
            },
        })];
        let is_depth = format.is_depth_stencil_format();
        let depth = is_depth.then(|| wgpu::RenderPassDepthStencilAttachment {
            view,
            depth_ops: format.has_depth_aspect().then_some(wgpu::Operations {
                load: wgpu::LoadOp::Clear(POISON_DEPTH),
                store: wgpu::StoreOp::Store,
            }),
            stencil_ops: format.has_stencil_aspect().then_some(wgpu::Operations {
                load: wgpu::LoadOp::Clear(POISON_STENCIL),
                store: wgpu::StoreOp::Store,
            }),
        });
        let _ = self.encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some(label),
            color_attachments: if is_depth { &[] } else { &color },
            depth_stencil_attachment: depth,
            ..Default::default()
        });
    }
}
