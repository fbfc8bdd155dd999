//! The WGSL of the synthetic passes: how each format's texels read and write as a scalar type,
//! the inputs a pass reads, and the shader text that sums them at a pixel.

use std::fmt::Write as _;

use tilegraph::decl::format_name;
use tilegraph::decl::{PassRef, ResourceDecl, ResourceKind};
use tilegraph::{
    BufferHandle, RenderGraph, ResourceId, SubresourceRange, TextureDesc, TextureHandle,
};

use crate::adapt::Adaptation;

pub(super) fn texture_desc(resources: &[ResourceDecl], r: ResourceId) -> Option<TextureDesc> {
    match resources[r.index()].kind {
        ResourceKind::Texture(t) => Some(t),
        ResourceKind::Buffer(_) => None,
    }
}

/// How a shader reads one input.
#[derive(Clone, Copy)]
pub(super) enum Input {
    /// A sampled texture: the whole texture, or a range of its subresources (then the desc is
    /// the view's: the range's mips and layers, its first mip's size).
    Texture(TextureHandle, TextureDesc, Scalar, SubresourceRange),
    StorageTexture(TextureHandle, TextureDesc, Scalar),
    Buffer(BufferHandle),
}

/// Scalar type a format's texels come back as.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Scalar {
    Float,
    Uint,
    Sint,
    Depth,
    /// Floats carried as their bits by an unsigned-integer texture with this many channels
    /// ([`crate::adapt`]).
    FloatBits(u8),
}

/// How the shaders see resource `r`'s texels.
pub(super) fn scalar_of(
    resources: &[ResourceDecl],
    r: ResourceId,
    adaptation: &Adaptation,
) -> Scalar {
    let decl = &resources[r.index()];
    let ResourceKind::Texture(t) = decl.kind else {
        return Scalar::Uint;
    };
    if adaptation.float_bits.contains(&*decl.name) {
        return Scalar::FloatBits(t.format.components());
    }
    scalar(t.format)
}

/// The WGSL type and conversion that store a vec4f `v` in a texel of scalar type `s`.
pub(super) fn texel_out(s: Scalar) -> (&'static str, &'static str) {
    match s {
        Scalar::Uint => ("vec4u", "vec4u(v * 255.0)"),
        Scalar::Sint => ("vec4i", "vec4i(v * 127.0)"),
        Scalar::FloatBits(_) => ("vec4u", "bitcast<vec4u>(v)"),
        Scalar::Float | Scalar::Depth => ("vec4f", "v"),
    }
}

pub(super) fn scalar(format: wgpu::TextureFormat) -> Scalar {
    if format.is_depth_stencil_format() {
        return Scalar::Depth;
    }
    match format.sample_type(None, None) {
        Some(wgpu::TextureSampleType::Uint) => Scalar::Uint,
        Some(wgpu::TextureSampleType::Sint) => Scalar::Sint,
        _ => Scalar::Float,
    }
}

pub(super) fn wgsl_scalar(s: Scalar) -> &'static str {
    match s {
        Scalar::Uint | Scalar::FloatBits(_) => "u32",
        Scalar::Sint => "i32",
        Scalar::Float | Scalar::Depth => "f32",
    }
}

/// Converts a texel of scalar type `s` held in `expr` to a vec4f in [0, 1].
pub(super) fn normalized(s: Scalar, expr: &str) -> String {
    match s {
        Scalar::Float => format!("clamp({expr}, vec4f(0.0), vec4f(1.0))"),
        Scalar::Depth => format!("vec4f({expr}.x)"),
        Scalar::Uint => format!("vec4f({expr} & vec4u(255u)) / 255.0"),
        Scalar::Sint => format!("vec4f(bitcast<vec4u>({expr}) & vec4u(255u)) / 255.0"),
        // The texel as its float format reads: missing channels 0, alpha 1.
        Scalar::FloatBits(n) => {
            let floats = match n {
                1 => format!("vec4f(bitcast<f32>({expr}.x), 0.0, 0.0, 1.0)"),
                2 => format!("vec4f(bitcast<vec2f>({expr}.xy), 0.0, 1.0)"),
                _ => format!("bitcast<vec4f>({expr})"),
            };
            format!("clamp({floats}, vec4f(0.0), vec4f(1.0))")
        }
    }
}

/// Gathers the inputs of a pass: sampled, input and storage-read resources.
pub(super) fn inputs(
    graph: &RenderGraph<'_>,
    resources: &[ResourceDecl],
    pass: PassRef<'_>,
    adaptation: &Adaptation,
) -> Result<Vec<Input>, String> {
    let mut out = Vec::new();
    for e in pass.sample().iter().chain(pass.input()) {
        let r = e.resource;
        let name = &resources[r.index()].name;
        let mut desc =
            texture_desc(resources, r).ok_or_else(|| format!("`{name}` is not a texture"))?;
        if !e.range.is_all() {
            let (mip, mips, _, layers) = e.range.resolve(desc.mips, desc.layers);
            (desc.width, desc.height) = desc.mip_size(mip);
            (desc.layers, desc.mips) = (layers, mips);
        }
        out.push(Input::Texture(
            graph.texture_handle(name).expect("named"),
            desc,
            scalar_of(resources, r, adaptation),
            e.range,
        ));
    }
    for r in pass.storage_read().iter().map(|e| e.resource) {
        let name = &resources[r.index()].name;
        out.push(match texture_desc(resources, r) {
            Some(desc) => Input::StorageTexture(
                graph.texture_handle(name).expect("named"),
                desc,
                scalar_of(resources, r, adaptation),
            ),
            None => Input::Buffer(graph.buffer_handle(name).expect("named")),
        });
    }
    Ok(out)
}

/// WGSL declarations of the inputs, bindings 0.., and `fn inputs(px, dims) -> vec4f`, their sum.
pub(super) fn inputs_wgsl(
    inputs: &[Input],
    device: &wgpu::Device,
    adaptation: &Adaptation,
) -> Result<String, String> {
    let mut decls = String::new();
    let mut body = String::new();
    for (i, input) in inputs.iter().enumerate() {
        match *input {
            Input::Texture(_, t, s, _) => {
                // Depth is bound as unfilterable float: `textureLoad` of depth textures does not
                // translate to GLSL.
                let ty = match (s, t.samples > 1, t.layers > 1) {
                    (_, true, _) => format!("texture_multisampled_2d<{}>", wgsl_scalar(s)),
                    (_, false, true) => format!("texture_2d_array<{}>", wgsl_scalar(s)),
                    (_, false, false) => format!("texture_2d<{}>", wgsl_scalar(s)),
                };
                writeln!(decls, "@group(0) @binding({i}) var in{i}: {ty};").unwrap();
                // A whole texture is read at every mip of every layer: its result depends on
                // every subresource the pass declares it reads.
                let mips = if t.samples > 1 { 1 } else { t.mips };
                for layer in 0..t.layers {
                    for mip in 0..mips {
                        let args = match (t.samples > 1, t.layers > 1) {
                            (true, _) => "c, 0".to_owned(),
                            (false, true) => format!("c, {layer}, {mip}"),
                            (false, false) => format!("c, {mip}"),
                        };
                        let dims = if t.samples > 1 {
                            format!("textureDimensions(in{i})")
                        } else {
                            format!("textureDimensions(in{i}, {mip})")
                        };
                        // Layers beyond the first weigh more: a layer read in another's
                        // place changes the sum.
                        let weight = match layer {
                            0 => String::new(),
                            l => format!("{:?} * ", 1.0 + 0.5 * f64::from(l)),
                        };
                        writeln!(
                            body,
                            "    {{ let c = vec2i(px * {dims} / dims); acc += {weight}{}; }}",
                            normalized(s, &format!("textureLoad(in{i}, {args})"))
                        )
                        .unwrap();
                    }
                }
            }
            Input::StorageTexture(_, t, s) => {
                let flags = adaptation.storage_flags(t.format, device.features());
                if !flags.contains(wgpu::TextureFormatFeatureFlags::STORAGE_READ_ONLY)
                    || t.layers > 1
                {
                    return Err(format!(
                        "storage_read of a {} texture with {} layers",
                        format_name(t.format),
                        t.layers
                    ));
                }
                writeln!(
                    decls,
                    "@group(0) @binding({i}) var in{i}: texture_storage_2d<{}, read>;",
                    format_name(t.format)
                )
                .unwrap();
                writeln!(
                    body,
                    "    {{ let c = vec2i(px * textureDimensions(in{i}) / dims); acc += {}; }}",
                    normalized(s, &format!("textureLoad(in{i}, c)"))
                )
                .unwrap();
            }
            Input::Buffer(_) => {
                writeln!(
                    decls,
                    "@group(0) @binding({i}) var<storage, read> in{i}: array<u32>;"
                )
                .unwrap();
                writeln!(
                    body,
                    "    acc += unpack4x8unorm(in{i}[(px.y * dims.x + px.x) % arrayLength(&in{i})]);"
                )
                .unwrap();
            }
        }
    }
    Ok(format!(
        "{decls}
fn value(px: vec2u, seed: f32) -> vec4f {{
    let p = vec2f(px);
    return fract(vec4f(p.x * 0.0123 + p.y * 0.0071, p.x * 0.0049 - p.y * 0.0161 + 4.0,
                       (p.x + p.y) * 0.0087, p.y * 0.0203) + seed * vec4f(0.13, 0.29, 0.41, 0.53));
}}
fn ramp(px: vec2u, a: f32, b: f32, seed: f32) -> f32 {{
    let p = vec2f(px);
    return 0.1 + 0.8 * fract(p.x * a + p.y * b + seed * 0.173);
}}
fn inputs(px: vec2u, dims: vec2u) -> vec4f {{
    var acc = vec4f(0.0);
{body}    return acc;
}}
"
    ))
}

pub(super) fn input_layout_entries(
    inputs: &[Input],
    visibility: wgpu::ShaderStages,
) -> Vec<wgpu::BindGroupLayoutEntry> {
    inputs
        .iter()
        .enumerate()
        .map(|(i, input)| wgpu::BindGroupLayoutEntry {
            binding: i as u32,
            visibility,
            ty: match *input {
                Input::Texture(_, t, s, _) => wgpu::BindingType::Texture {
                    sample_type: match s {
                        Scalar::Float | Scalar::Depth => {
                            wgpu::TextureSampleType::Float { filterable: false }
                        }
                        Scalar::Uint | Scalar::FloatBits(_) => wgpu::TextureSampleType::Uint,
                        Scalar::Sint => wgpu::TextureSampleType::Sint,
                    },
                    view_dimension: if t.layers > 1 && t.samples == 1 {
                        wgpu::TextureViewDimension::D2Array
                    } else {
                        wgpu::TextureViewDimension::D2
                    },
                    multisampled: t.samples > 1,
                },
                Input::StorageTexture(_, t, _) => wgpu::BindingType::StorageTexture {
                    access: wgpu::StorageTextureAccess::ReadOnly,
                    format: t.format,
                    view_dimension: wgpu::TextureViewDimension::D2,
                },
                Input::Buffer(_) => wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only: true },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
            },
            count: None,
        })
        .collect()
}

pub(super) fn seed_of(pass: u32) -> f32 {
    (hash32(pass + 1) % 1000) as f32 / 1000.0 * 7.0 + 0.5
}

/// A 32-bit integer hash: the synthetic values of seeds, triangles and buffer contents.
pub(super) fn hash32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^ (x >> 16)
}
