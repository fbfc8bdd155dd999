//! Start-up probes: adapter behaviour the executor works around, found by trying it once.

use crate::context::Views;

/// Whether the device resolves a multiview render pass over layers of a multisampled array that
/// start past layer 0 into the right layers. lavapipe does not: it resolves nothing into them.
/// Probed with a pass that clears layers 1..3 of a 4× array of three layers and resolves them
/// into a two-layer target, read back. Returns `true` where the probe cannot run (nothing to
/// work around then: such passes are recorded per view anyway).
pub(super) fn multiview_msaa_resolves_past_layer_0(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
) -> bool {
    const SIZE: u32 = 4;
    const RED: [u8; 4] = [255, 0, 0, 255];
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let texture = |label, layers, samples, usage| {
        device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width: SIZE,
                height: SIZE,
                depth_or_array_layers: layers,
            },
            mip_level_count: 1,
            sample_count: samples,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage,
            view_formats: &[],
        })
    };
    let attach = wgpu::TextureUsages::RENDER_ATTACHMENT;
    let msaa = texture("tilegraph probe: msaa", 3, 4, attach);
    let target = texture(
        "tilegraph probe: resolve",
        2,
        1,
        attach | wgpu::TextureUsages::COPY_SRC,
    );
    let array = |t: &wgpu::Texture, base| {
        t.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(wgpu::TextureViewDimension::D2Array),
            base_array_layer: base,
            array_layer_count: Some(2),
            ..Default::default()
        })
    };
    let (msaa_view, target_view) = (array(&msaa, 1), array(&target, 0));
    let row = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("tilegraph probe: read back"),
        size: u64::from(row * SIZE * 2),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    drop(encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("tilegraph probe: multiview resolve past layer 0"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: &msaa_view,
            depth_slice: None,
            resolve_target: Some(&target_view),
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color::RED),
                store: wgpu::StoreOp::Discard,
            },
        })],
        multiview_mask: Views::Multiview { count: 2 }.multiview_mask(),
        ..Default::default()
    }));
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture: &target,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(row),
                rows_per_image: Some(SIZE),
            },
        },
        wgpu::Extent3d {
            width: SIZE,
            height: SIZE,
            depth_or_array_layers: 2,
        },
    );
    queue.submit([encoder.finish()]);
    if pollster::block_on(scope.pop()).is_some() {
        return true;
    }
    let (tx, rx) = std::sync::mpsc::channel();
    buffer.map_async(wgpu::MapMode::Read, .., move |r| {
        let _ = tx.send(r);
    });
    if device.poll(wgpu::PollType::wait_indefinitely()).is_err() || !matches!(rx.recv(), Ok(Ok(())))
    {
        return true;
    }
    let Ok(data) = buffer.get_mapped_range(..) else {
        return true;
    };
    let right = data
        .chunks(row as usize)
        .all(|line| line[..(SIZE * 4) as usize].chunks(4).all(|t| t == RED));
    drop(data);
    buffer.unmap();
    right
}
