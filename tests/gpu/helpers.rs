//! The library's device and read-back helpers: known texels written into odd sizes, mips and
//! layers come back exactly; impossible requests and unreadable textures are typed errors.

use tilegraph::helpers::{
    Backend, DeviceError, DeviceOptions, ReadbackError, open_device, read_buffer, read_subresource,
    read_texture,
};
use tilegraph::wgpu;
use tilegraph::{CompileOptions, TextureDesc};

use crate::support;

/// The bytes written into one subresource: `((mip, layer), bytes)`.
type Written = ((u32, u32), Vec<u8>);

/// A texture with `COPY_SRC | COPY_DST`, and in it every subresource filled with bytes that
/// depend on the mip, the layer and the position; returns the texture and what each holds.
fn filled(
    gpu: &tilegraph_tool::headless::Gpu,
    format: wgpu::TextureFormat,
    (width, height, layers, mips): (u32, u32, u32, u32),
) -> (wgpu::Texture, Vec<Written>) {
    let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("readback source"),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: layers,
        },
        mip_level_count: mips,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    let texel = format.block_copy_size(None).expect("a plain colour format");
    let mut contents = Vec::new();
    for mip in 0..mips {
        for layer in 0..layers {
            let (w, h) = ((width >> mip).max(1), (height >> mip).max(1));
            let bytes: Vec<u8> = (0..w * h * texel)
                .map(|i| (i.wrapping_mul(31) ^ (mip * 67 + layer * 13)) as u8)
                .collect();
            gpu.queue.write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: &texture,
                    mip_level: mip,
                    origin: wgpu::Origin3d {
                        x: 0,
                        y: 0,
                        z: layer,
                    },
                    aspect: wgpu::TextureAspect::All,
                },
                &bytes,
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(w * texel),
                    rows_per_image: Some(h),
                },
                wgpu::Extent3d {
                    width: w,
                    height: h,
                    depth_or_array_layers: 1,
                },
            );
            contents.push(((mip, layer), bytes));
        }
    }
    (texture, contents)
}

#[test]
fn an_odd_width_texture_reads_back_without_row_padding() {
    let gpu = support::gpu();
    for format in [
        wgpu::TextureFormat::Rgba8Unorm,
        wgpu::TextureFormat::R8Unorm,
    ] {
        // 37 texels: rows of 148 and 37 bytes, both padded to 256 in the copy.
        let (texture, contents) = filled(&gpu, format, (37, 19, 1, 1));
        let readback = read_texture(&gpu.device, &gpu.queue, &texture).expect("readable");
        assert_eq!((readback.width, readback.height), (37, 19), "{format:?}");
        assert_eq!(readback.format, format);
        assert!(readback.bytes == contents[0].1, "{format:?}: texels differ");
    }
    support::assert_no_gpu_errors(&gpu);
}

#[test]
fn every_mip_and_layer_reads_back_its_own_texels() {
    let gpu = support::gpu();
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let (texture, contents) = filled(&gpu, format, (75, 41, 3, 4));
    for ((mip, layer), expected) in &contents {
        let readback =
            read_subresource(&gpu.device, &gpu.queue, &texture, *mip, *layer).expect("readable");
        assert_eq!(
            (readback.width, readback.height),
            ((75 >> mip).max(1), (41 >> mip).max(1)),
            "mip {mip}"
        );
        assert!(
            readback.bytes == *expected,
            "mip {mip} of layer {layer}: texels differ"
        );
    }
    match read_subresource(&gpu.device, &gpu.queue, &texture, 4, 0) {
        Err(ReadbackError::NoSubresource {
            mip: 4, mips: 4, ..
        }) => {}
        other => panic!("expected no mip 4, got {other:?}"),
    }
    match read_subresource(&gpu.device, &gpu.queue, &texture, 1, 3) {
        Err(ReadbackError::NoSubresource {
            layer: 3,
            layers: 3,
            ..
        }) => {}
        other => panic!("expected no layer 3, got {other:?}"),
    }
    support::assert_no_gpu_errors(&gpu);
}

#[test]
fn unreadable_textures_and_buffers_are_typed_errors() {
    let gpu = support::gpu();
    let descriptor = |samples, usage| wgpu::TextureDescriptor {
        label: None,
        size: wgpu::Extent3d {
            width: 8,
            height: 8,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: samples,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage,
        view_formats: &[],
    };
    let msaa = gpu
        .device
        .create_texture(&descriptor(4, wgpu::TextureUsages::RENDER_ATTACHMENT));
    match read_texture(&gpu.device, &gpu.queue, &msaa) {
        Err(ReadbackError::Unreadable { samples: 4, .. }) => {}
        other => panic!("expected a multisampled texture to be unreadable, got {other:?}"),
    }
    let sampled_only = gpu
        .device
        .create_texture(&descriptor(1, wgpu::TextureUsages::TEXTURE_BINDING));
    match read_texture(&gpu.device, &gpu.queue, &sampled_only) {
        Err(ReadbackError::NotCopySource { what: "texture" }) => {}
        other => panic!("expected a missing COPY_SRC, got {other:?}"),
    }
    let uniform = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 64,
        usage: wgpu::BufferUsages::UNIFORM,
        mapped_at_creation: false,
    });
    match read_buffer(&gpu.device, &gpu.queue, &uniform) {
        Err(ReadbackError::NotCopySource { what: "buffer" }) => {}
        other => panic!("expected a missing COPY_SRC, got {other:?}"),
    }
    support::assert_no_gpu_errors(&gpu);
}

#[test]
fn the_device_helper_requests_what_the_plan_needs_and_refuses_the_impossible() {
    let backend = Backend::from_env().unwrap_or_else(|e| panic!("{e}"));
    let wide = TextureDesc::new(wgpu::TextureFormat::Rgba8Unorm, 4096, 16);
    let graph = crate::support::one_cleared_texture("wide", wide);
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let opened = open_device(&DeviceOptions::new(backend).for_plan(&plan))
        .unwrap_or_else(|e| panic!("GPU test needs an adapter ({backend:?}): {e}"));
    assert!(
        opened.device.features().contains(plan.required_features()),
        "{:?}",
        opened.device.features()
    );
    assert!(opened.device.limits().max_texture_dimension_2d >= 4096);

    // No adapter has every feature there is.
    let impossible = DeviceOptions::new(backend).with_features(wgpu::Features::all());
    match open_device(&impossible) {
        Err(e @ DeviceError::MissingFeatures { .. }) => {
            let DeviceError::MissingFeatures { missing, adapter } = &e else {
                unreachable!()
            };
            assert!(!missing.is_empty());
            assert!(e.to_string().contains(adapter.as_str()), "{e}");
        }
        other => panic!(
            "expected missing features, got {:?}",
            other.map(|d| d.adapter)
        ),
    }
}
