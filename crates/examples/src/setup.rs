//! Buffers and layouts the examples' frames (and the GPU tests) create alike.

use tilegraph::wgpu;
use wgpu::util::DeviceExt;

/// A uniform buffer of `size` bytes that the frame writes with `Queue::write_buffer`.
pub(crate) fn uniform_buffer(device: &wgpu::Device, label: &str, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// A uniform `vec4<u32>` whose x is `index`: which face, cascade or layer a pass draws.
pub(crate) fn index_uniform(device: &wgpu::Device, label: &str, index: u32) -> wgpu::Buffer {
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents: bytemuck::bytes_of(&[index, 0, 0, 0]),
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
    })
}

/// A bind group layout of one entry, at binding 0.
pub fn one_entry_layout(
    device: &wgpu::Device,
    label: &str,
    visibility: wgpu::ShaderStages,
    ty: wgpu::BindingType,
) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility,
            ty,
            count: None,
        }],
    })
}
