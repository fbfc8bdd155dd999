//! Reading textures and buffers back from the GPU: a copy into a buffer with rows padded as
//! wgpu requires, mapped, and handed back tightly packed.

use crate::execute::{FullScreenDraw, full_screen_pipeline};

/// Texels of one subresource of a texture read back, rows tightly packed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Readback {
    /// Format of the bytes: the texture's, or for a depth texture its depth aspect's copy
    /// format (`Depth32Float`, `Depth16Unorm`).
    pub format: wgpu::TextureFormat,
    /// Width of the subresource in texels.
    pub width: u32,
    /// Height of the subresource in texels.
    pub height: u32,
    /// Row after row, no padding: `width × height × texel size` bytes; for a block-compressed
    /// format, rows of whole blocks.
    pub bytes: Vec<u8>,
}

/// Why a read-back failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadbackError {
    /// The texture cannot be copied to a buffer: multisampled, or a format without a copy size
    /// (`Depth24Plus`, the depth of `Depth24PlusStencil8`).
    #[error("cannot read back a {format:?} texture with {samples} samples")]
    Unreadable {
        /// Its format.
        format: wgpu::TextureFormat,
        /// Its sample count.
        samples: u32,
    },
    /// The texture or buffer was not created with `COPY_SRC`.
    #[error("cannot read back a {what} created without COPY_SRC")]
    NotCopySource {
        /// `"texture"` or `"buffer"`.
        what: &'static str,
    },
    /// The texture has no such mip or layer.
    #[error(
        "the texture has {mips} mips and {layers} layers; there is no mip {mip} of layer {layer}"
    )]
    NoSubresource {
        /// The mip asked for.
        mip: u32,
        /// The layer asked for.
        layer: u32,
        /// The texture's mips.
        mips: u32,
        /// Its layers (depth slices at that mip, for a 3D texture).
        layers: u32,
    },
    /// The backend cannot read this texture back: wgpu's GL backend copies no layer of a cube
    /// map (a texture of six square layers, which it makes one) to a buffer, and the texels
    /// can be drawn out only where a shader can sample them.
    #[error("cannot read back a {format:?} texture on this backend: {reason}")]
    UnreadableOnBackend {
        /// Its format.
        format: wgpu::TextureFormat,
        /// Why.
        reason: &'static str,
    },
    /// Waiting for the GPU or mapping the buffer failed.
    #[error("reading back from the GPU failed: {0}")]
    Map(String),
}

/// Reads mip 0 of layer 0 of `texture`; see [`read_subresource`].
pub fn read_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
) -> Result<Readback, ReadbackError> {
    read_subresource(device, queue, texture, 0, 0)
}

/// Reads mip `mip` of layer `layer` of `texture` (which needs `COPY_SRC`): copies it into a
/// buffer with rows padded to `COPY_BYTES_PER_ROW_ALIGNMENT`, waits for the GPU and returns the
/// rows without the padding. A depth/stencil texture gives its depth. Submits its own copy on
/// `queue` and blocks until it is done: for tests, tools and screenshots, not every frame.
///
/// ```no_run
/// use tilegraph::helpers::{ReadbackError, read_subresource};
/// use tilegraph::wgpu;
///
/// fn bloom_mip(
///     device: &wgpu::Device,
///     queue: &wgpu::Queue,
///     texture: &wgpu::Texture,
/// ) -> Result<Vec<u8>, ReadbackError> {
///     // Mip 2 of layer 1, e.g. of a bloom chain.
///     let texels = read_subresource(device, queue, texture, 2, 1)?;
///     assert_eq!(texels.bytes.len() as u32, texels.width * texels.height * 4);
///     Ok(texels.bytes)
/// }
/// ```
pub fn read_subresource(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
    mip: u32,
    layer: u32,
) -> Result<Readback, ReadbackError> {
    let Copyable {
        aspect,
        format: copy_format,
        block_size,
    } = copyable(texture, mip, layer)?;
    let format = texture.format();
    let size = texture.size().mip_level_size(mip, texture.dimension());
    if gl_cube_map(device, texture) {
        return read_cube_face(device, queue, texture, mip, layer);
    }
    // Compressed formats copy whole blocks.
    let physical = size.physical_size(format);
    let (block_width, block_height) = format.block_dimensions();
    let row = physical.width / block_width * block_size;
    let rows = physical.height / block_height;
    let padded =
        row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("tilegraph readback"),
        size: u64::from(padded) * u64::from(rows),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: mip,
            origin: wgpu::Origin3d {
                x: 0,
                y: 0,
                z: layer,
            },
            aspect,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(rows),
            },
        },
        wgpu::Extent3d {
            width: physical.width,
            height: physical.height,
            depth_or_array_layers: 1,
        },
    );
    queue.submit([encoder.finish()]);
    let data = map_read(device, &buffer)?;
    let mut bytes = Vec::with_capacity(row as usize * rows as usize);
    for y in 0..rows as usize {
        let start = y * padded as usize;
        bytes.extend_from_slice(&data[start..start + row as usize]);
    }
    Ok(Readback {
        format: copy_format,
        width: size.width,
        height: size.height,
        bytes,
    })
}

/// How a subresource of a texture is copied to a buffer: the aspect, the format of the copied
/// texels and the bytes of a block.
struct Copyable {
    aspect: wgpu::TextureAspect,
    format: wgpu::TextureFormat,
    block_size: u32,
}

/// How mip `mip` of layer `layer` of `texture` is copied, or why it cannot be.
fn copyable(texture: &wgpu::Texture, mip: u32, layer: u32) -> Result<Copyable, ReadbackError> {
    let format = texture.format();
    let unreadable = ReadbackError::Unreadable {
        format,
        samples: texture.sample_count(),
    };
    if texture.sample_count() != 1 {
        return Err(unreadable);
    }
    let aspect = if format.is_depth_stencil_format() {
        wgpu::TextureAspect::DepthOnly
    } else {
        wgpu::TextureAspect::All
    };
    let copy_format = format.aspect_specific_format(aspect).unwrap_or(format);
    let Some(block_size) = format.block_copy_size(Some(aspect)) else {
        return Err(unreadable);
    };
    if format.is_depth_stencil_format() && copy_format == wgpu::TextureFormat::Depth24Plus {
        return Err(unreadable);
    }
    if !texture.usage().contains(wgpu::TextureUsages::COPY_SRC) {
        return Err(ReadbackError::NotCopySource { what: "texture" });
    }
    let size = texture.size().mip_level_size(mip, texture.dimension());
    if mip >= texture.mip_level_count() || layer >= size.depth_or_array_layers {
        return Err(ReadbackError::NoSubresource {
            mip,
            layer,
            mips: texture.mip_level_count(),
            layers: size.depth_or_array_layers,
        });
    }
    Ok(Copyable {
        aspect,
        format: copy_format,
        block_size,
    })
}

/// Whether wgpu's GL backend holds `texture` as a cube map (a 2D texture of six square layers,
/// or a multiple of six), which it cannot copy to a buffer.
fn gl_cube_map(device: &wgpu::Device, texture: &wgpu::Texture) -> bool {
    let size = texture.size();
    device.adapter_info().backend == wgpu::Backend::Gl
        && texture.dimension() == wgpu::TextureDimension::D2
        && size.width == size.height
        && size.depth_or_array_layers >= 6
        && size.depth_or_array_layers.is_multiple_of(6)
}

/// Reads one face of a cube map on wgpu's GL backend by drawing it: each texel of the face is
/// sampled (nearest, at the direction of its centre) through a cube view into a 2D texture of
/// the same format, which is then copied as any other. Exact for a format a shader samples as
/// float and can render to.
fn read_cube_face(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
    mip: u32,
    face: u32,
) -> Result<Readback, ReadbackError> {
    let format = texture.format();
    if let Some(reason) = cube_face_unreadable(device, texture) {
        return Err(ReadbackError::UnreadableOnBackend { format, reason });
    }
    let size = texture.size().mip_level_size(mip, texture.dimension());
    let flat = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("tilegraph readback: cube face"),
        size: wgpu::Extent3d {
            depth_or_array_layers: 1,
            ..size
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let pipeline = full_screen_pipeline(device, "tilegraph readback: cube face", CUBE_FACE, format);
    let view = texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(wgpu::TextureViewDimension::Cube),
        base_mip_level: mip,
        mip_level_count: Some(1),
        ..Default::default()
    });
    let nearest = device.create_sampler(&wgpu::SamplerDescriptor::default());
    let params = wgpu::util::DeviceExt::create_buffer_init(
        device,
        &wgpu::util::BufferInitDescriptor {
            label: Some("tilegraph readback: cube face"),
            contents: &[face, size.width, 0, 0]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect::<Vec<u8>>(),
            usage: wgpu::BufferUsages::UNIFORM,
        },
    );
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("tilegraph readback: cube face"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(&view),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::Sampler(&nearest),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: params.as_entire_binding(),
            },
        ],
    });
    let target = flat.create_view(&Default::default());
    let mut encoder = device.create_command_encoder(&Default::default());
    let draw = FullScreenDraw {
        label: "tilegraph readback: cube face",
        pipeline: &pipeline,
        group: &group,
    };
    draw.record(&mut encoder, &target);
    queue.submit([encoder.finish()]);
    read_subresource(device, queue, &flat, 0, 0)
}

/// Why a draw cannot read a face of the cube map `texture` out on wgpu's GL backend, if it cannot.
fn cube_face_unreadable(device: &wgpu::Device, texture: &wgpu::Texture) -> Option<&'static str> {
    let format = texture.format();
    if texture.depth_or_array_layers() != 6 {
        return Some("wgpu's GL backend copies no layer of a cube-map array to a buffer");
    }
    let float = matches!(
        format.sample_type(None, None),
        Some(wgpu::TextureSampleType::Float { .. })
    );
    let renders = format
        .guaranteed_format_features(device.features())
        .allowed_usages
        .contains(wgpu::TextureUsages::RENDER_ATTACHMENT);
    if format.is_depth_stencil_format() || !float || !renders {
        return Some(
            "wgpu's GL backend copies no layer of a cube map to a buffer, and a draw can read out only a float colour format it can render to",
        );
    }
    if !texture
        .usage()
        .contains(wgpu::TextureUsages::TEXTURE_BINDING)
    {
        return Some(
            "wgpu's GL backend copies no layer of a cube map to a buffer, and a draw can read it out only with TEXTURE_BINDING",
        );
    }
    None
}

/// Draws one face of a cube: the texel at each pixel, sampled at the direction of its centre
/// (the cube-map face selection of the Vulkan and GL specifications, inverted).
const CUBE_FACE: &str = r"
@group(0) @binding(0) var cube: texture_cube<f32>;
@group(0) @binding(1) var nearest: sampler;
@group(0) @binding(2) var<uniform> params: vec4u;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(uv * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs(@builtin(position) p: vec4f) -> @location(0) vec4f {
    let st = p.xy / f32(params.y) * 2.0 - 1.0;
    let s = st.x;
    let t = st.y;
    var dir: vec3f;
    switch params.x {
        case 0u: { dir = vec3f(1.0, -t, -s); }
        case 1u: { dir = vec3f(-1.0, -t, s); }
        case 2u: { dir = vec3f(s, 1.0, t); }
        case 3u: { dir = vec3f(s, -1.0, -t); }
        case 4u: { dir = vec3f(s, -t, 1.0); }
        default: { dir = vec3f(-s, -t, -1.0); }
    }
    return textureSampleLevel(cube, nearest, dir, 0.0);
}
";

/// Reads all of `buffer` (which needs `COPY_SRC`), waiting for the GPU.
pub fn read_buffer(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffer: &wgpu::Buffer,
) -> Result<Vec<u8>, ReadbackError> {
    if !buffer.usage().contains(wgpu::BufferUsages::COPY_SRC) {
        return Err(ReadbackError::NotCopySource { what: "buffer" });
    }
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("tilegraph readback"),
        size: buffer.size(),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, buffer.size());
    queue.submit([encoder.finish()]);
    map_read(device, &staging)
}

fn map_read(device: &wgpu::Device, buffer: &wgpu::Buffer) -> Result<Vec<u8>, ReadbackError> {
    let (tx, rx) = std::sync::mpsc::channel();
    buffer.map_async(wgpu::MapMode::Read, .., move |r| {
        let _ = tx.send(r);
    });
    let failed = |e: &dyn std::fmt::Display| ReadbackError::Map(e.to_string());
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| failed(&e))?;
    rx.recv().map_err(|e| failed(&e))?.map_err(|e| failed(&e))?;
    let data = buffer
        .get_mapped_range(..)
        .map_err(|e| failed(&e))?
        .to_vec();
    buffer.unmap();
    Ok(data)
}

impl Readback {
    /// The texels as 8-bit RGBA, for an image file: unorm formats as they are, BGRA swizzled,
    /// floats clamped to [0, 1], single channels and depth as grey. `None` for formats without
    /// a sensible picture.
    pub fn to_rgba8(&self) -> Option<Vec<u8>> {
        use wgpu::TextureFormat as F;
        let n = (self.width * self.height) as usize;
        let b = &self.bytes;
        let unit = |v: f32| (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
        let half = |i: usize| f16_to_f32(u16::from_le_bytes([b[i], b[i + 1]]));
        let single = |i: usize| f32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let texel = self.format.block_copy_size(None)? as usize;
        if b.len() < n * texel {
            return None;
        }
        let mut out = Vec::with_capacity(n * 4);
        for i in 0..n {
            let px: [u8; 4] = match self.format {
                F::Rgba8Unorm | F::Rgba8UnormSrgb => {
                    [b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]
                }
                F::Bgra8Unorm | F::Bgra8UnormSrgb => {
                    [b[4 * i + 2], b[4 * i + 1], b[4 * i], b[4 * i + 3]]
                }
                F::R8Unorm => [b[i], b[i], b[i], 255],
                F::Rg8Unorm => [b[2 * i], b[2 * i + 1], 0, 255],
                F::Rgb10a2Unorm => {
                    let v =
                        u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
                    let c = |s: u32| ((v >> s & 0x3ff) >> 2) as u8;
                    [c(0), c(10), c(20), ((v >> 30) * 85) as u8]
                }
                F::Rgba16Float => [
                    unit(half(8 * i)),
                    unit(half(8 * i + 2)),
                    unit(half(8 * i + 4)),
                    unit(half(8 * i + 6)),
                ],
                F::R16Float => {
                    let v = unit(half(2 * i));
                    [v, v, v, 255]
                }
                F::Rgba32Float => [
                    unit(single(16 * i)),
                    unit(single(16 * i + 4)),
                    unit(single(16 * i + 8)),
                    unit(single(16 * i + 12)),
                ],
                F::R32Float | F::Depth32Float => {
                    let v = unit(single(4 * i));
                    [v, v, v, 255]
                }
                F::Depth16Unorm => {
                    let v = (u16::from_le_bytes([b[2 * i], b[2 * i + 1]]) >> 8) as u8;
                    [v, v, v, 255]
                }
                _ => return None,
            };
            out.extend_from_slice(&px);
        }
        Some(out)
    }
}

/// Half-precision float bits to `f32`.
fn f16_to_f32(bits: u16) -> f32 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((bits >> 10) & 0x1f);
    let frac = f32::from(bits & 0x3ff);
    match exp {
        0 => sign * frac * 2f32.powi(-24),
        31 if frac == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        _ => sign * (1.0 + frac / 1024.0) * 2f32.powi(exp - 15),
    }
}
