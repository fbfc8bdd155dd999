//! Execute: records a compiled graph into wgpu command encoders on a real adapter.

use crate::declare::{BufferHandle, TextureHandle};

/// Error a pass closure returns; aborts the frame.
pub type PassError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// What a pass closure sees besides its open pass: the device, the queue, and the wgpu objects
/// behind the graph's handles for this frame.
pub struct PassContext<'f> {
    pub(crate) device: &'f wgpu::Device,
    pub(crate) queue: &'f wgpu::Queue,
    pub(crate) views: &'f [Option<wgpu::TextureView>],
    pub(crate) buffers: &'f [Option<wgpu::Buffer>],
}

impl<'f> PassContext<'f> {
    /// The device.
    pub fn device(&self) -> &'f wgpu::Device {
        self.device
    }

    /// The queue.
    pub fn queue(&self) -> &'f wgpu::Queue {
        self.queue
    }

    /// The view of a texture of the graph for this frame.
    pub fn view(&self, texture: TextureHandle) -> Option<&'f wgpu::TextureView> {
        self.views.get(texture.index as usize)?.as_ref()
    }

    /// The buffer behind a handle for this frame.
    pub fn buffer(&self, buffer: BufferHandle) -> Option<&'f wgpu::Buffer> {
        self.buffers.get(buffer.index as usize)?.as_ref()
    }
}
