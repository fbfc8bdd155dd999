//! Which kinds of texture view a shader reads correctly on wgpu's GL backend: those its own
//! code binds as another texture are known without a draw; the others depend on the driver and
//! are probed, one draw per kind, each into its own texel, read back and compared with the
//! texel the view names.

use super::probe::{cleared_pass, pipeline, submit_and_read};
use crate::context::{ViewDefects, ViewKind};

/// The kinds whose reads depend on the driver, drawn by the probe in this order: a mip past 0
/// (`texelFetch` levels counted from the view's first mip or from mip 0), a range of layers from
/// 0 (the unit's 2D-array texture narrowed to none of them), a cube.
const PROBED: [ViewKind; 3] = [ViewKind::MipPast0, ViewKind::RangeFrom0, ViewKind::Cube];

/// The colour of mip or layer `i` of a probe texture: distinct for every `i` and texture.
fn colour(texture: u8, i: u8) -> [u8; 4] {
    [40 * (i + 1), 200 - 30 * i, 60 * texture + 10, 255]
}

const SIZE: u32 = 4;

/// The probe's vertex stage: a triangle over the viewport.
const VERTEX: &str = r"
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(uv * 2.0 - 1.0, 0.0, 1.0);
}
";

/// The probe's fragment stages, one shader each: each reads texel (0, 0) of the view bound at
/// binding 0 (a layer of an array view; the middle of a cube's +Z face).
const READ_2D: &str = r"
@group(0) @binding(0) var one: texture_2d<f32>;
@fragment fn fs() -> @location(0) vec4f { return textureLoad(one, vec2i(0, 0), 0); }
";
const READ_LAYER_1: &str = r"
@group(0) @binding(0) var layers: texture_2d_array<f32>;
@fragment fn fs() -> @location(0) vec4f { return textureLoad(layers, vec2i(0, 0), 1, 0); }
";
const READ_CUBE: &str = r"
@group(0) @binding(0) var cube: texture_cube<f32>;
@group(0) @binding(1) var nearest: sampler;
@fragment fn fs() -> @location(0) vec4f {
    return textureSampleLevel(cube, nearest, vec3f(0.0, 0.0, 1.0), 0.0);
}
";

/// Which kinds of view a shader reads wrongly on wgpu's GL backend: those it binds as another
/// texture, and of the others, those the probe reads wrongly (each drawn into its own texel of
/// a row, read back). Every probed kind counts as read wrongly where the probe cannot run (a
/// validation error, a failed read-back): the passes that need one are then refused, never
/// wrong.
pub(crate) fn view_defects(device: &wgpu::Device, queue: &wgpu::Queue) -> ViewDefects {
    let known = ViewDefects::of(
        ViewKind::ALL
            .into_iter()
            .filter(|k| k.bound_as_another_texture()),
    );
    known.union(probe_defects(device, queue))
}

/// The probed kinds a shader reads wrongly here.
fn probe_defects(device: &wgpu::Device, queue: &wgpu::Queue) -> ViewDefects {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let probe = Probe::new(device, queue);
    let row = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("tilegraph probe: read back"),
        size: u64::from(row),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    let expected = probe.record(device, &mut encoder);
    encoder.copy_texture_to_buffer(
        probe.out.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(row),
                rows_per_image: None,
            },
        },
        probe.out.size(),
    );
    let Some(data) = submit_and_read(device, queue, scope, encoder, &buffer) else {
        return ViewDefects::of(PROBED);
    };
    ViewDefects::of(
        PROBED
            .into_iter()
            .zip(expected)
            .enumerate()
            .filter(|&(x, (_, want))| data[4 * x..4 * x + 4] != want)
            .map(|(_, (k, _))| k),
    )
}

/// The probe's textures, filled, and its target: a row of one texel per probed kind.
struct Probe {
    mips: wgpu::Texture,
    layers: wgpu::Texture,
    six: wgpu::Texture,
    out: wgpu::Texture,
}

impl Probe {
    fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        let sampled = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST;
        let make = |label, texture: u8, (mips, layers): (u32, u32)| {
            let t = device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d {
                    width: SIZE,
                    height: SIZE,
                    depth_or_array_layers: layers,
                },
                mip_level_count: mips,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: wgpu::TextureFormat::Rgba8Unorm,
                usage: sampled,
                view_formats: &[],
            });
            for (mip, layer) in (0..mips).flat_map(|m| (0..layers).map(move |l| (m, l))) {
                let side = SIZE >> mip;
                let texels = colour(texture, (mip + layer) as u8).repeat((side * side) as usize);
                queue.write_texture(
                    wgpu::TexelCopyTextureInfo {
                        texture: &t,
                        mip_level: mip,
                        origin: wgpu::Origin3d {
                            x: 0,
                            y: 0,
                            z: layer,
                        },
                        aspect: wgpu::TextureAspect::All,
                    },
                    &texels,
                    wgpu::TexelCopyBufferLayout {
                        offset: 0,
                        bytes_per_row: Some(4 * side),
                        rows_per_image: None,
                    },
                    wgpu::Extent3d {
                        width: side,
                        height: side,
                        depth_or_array_layers: 1,
                    },
                );
            }
            t
        };
        let out = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("tilegraph probe: views"),
            size: wgpu::Extent3d {
                width: PROBED.len() as u32,
                height: 1,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        Probe {
            mips: make("tilegraph probe: mips", 0, (3, 1)),
            layers: make("tilegraph probe: layers", 1, (1, 3)),
            six: make("tilegraph probe: six layers", 2, (1, 6)),
            out,
        }
    }

    /// Records one draw per probed kind into its texel of the target; returns the texel each
    /// should read.
    fn record(&self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder) -> Vec<[u8; 4]> {
        use wgpu::TextureViewDimension as D;
        let view = |t: &wgpu::Texture, dimension, (mip, layer, layers): (u32, u32, u32)| {
            t.create_view(&wgpu::TextureViewDescriptor {
                dimension: Some(dimension),
                base_mip_level: mip,
                mip_level_count: Some(1),
                base_array_layer: layer,
                array_layer_count: Some(layers),
                ..Default::default()
            })
        };
        let nearest = device.create_sampler(&wgpu::SamplerDescriptor::default());
        // Per kind, in `PROBED`'s order: the view, the shader, the texel it reads.
        let draws = [
            (view(&self.mips, D::D2, (1, 0, 1)), READ_2D, colour(0, 1)),
            (
                view(&self.layers, D::D2Array, (0, 0, 2)),
                READ_LAYER_1,
                colour(1, 1),
            ),
            (view(&self.six, D::Cube, (0, 0, 6)), READ_CUBE, colour(2, 4)),
        ];
        let out = self.out.create_view(&Default::default());
        let mut pass = cleared_pass(encoder, "tilegraph probe: views", &out);
        for (x, (view, fragment, _)) in draws.iter().enumerate() {
            let pipeline = pipeline(
                device,
                "tilegraph probe: views",
                &format!("{VERTEX}{fragment}"),
                wgpu::TextureFormat::Rgba8Unorm,
            );
            let mut entries = vec![wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(view),
            }];
            if *fragment == READ_CUBE {
                entries.push(wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&nearest),
                });
            }
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("tilegraph probe: views"),
                layout: &pipeline.get_bind_group_layout(0),
                entries: &entries,
            });
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.set_viewport(x as f32, 0.0, 1.0, 1.0, 0.0, 1.0);
            pass.draw(0..3, 0..1);
        }
        drop(pass);
        draws.into_iter().map(|(_, _, want)| want).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_known_from_wgpu_or_probed() {
        let known: Vec<ViewKind> = ViewKind::ALL
            .into_iter()
            .filter(|k| k.bound_as_another_texture())
            .collect();
        // What wgpu's GL backend binds as another texture, and what the probe draws: each kind
        // decided one way, none both.
        assert!(known.iter().all(|k| !PROBED.contains(k)));
        assert_eq!(known.len() + PROBED.len(), ViewKind::ALL.len());
    }
}
