//! What the compiler needs to know about texture formats: names, texel sizes, attachment kind.

use wgpu::TextureFormat;

/// Parses a WebGPU/wgpu format name (`rgba8unorm`, `bgra8unorm-srgb`, `depth24plus-stencil8`, ...).
pub fn parse_format(name: &str) -> Option<TextureFormat> {
    serde_json::from_value(serde_json::Value::String(name.to_owned())).ok()
}

/// The WebGPU/wgpu name of a format, as the description uses it.
pub fn format_name(format: TextureFormat) -> String {
    match serde_json::to_value(format) {
        Ok(serde_json::Value::String(s)) => s,
        _ => format!("{format:?}").to_lowercase(),
    }
}

/// Bytes one texel occupies in the traffic model ([guide](crate::guide#traffic-model)): the block copy size for colour, fixed
/// figures for depth/stencil. `None` for formats that cannot be counted (compressed, planar).
pub fn texel_bytes(format: TextureFormat) -> Option<u64> {
    let bytes = match format {
        TextureFormat::Depth16Unorm => 2,
        TextureFormat::Depth24Plus | TextureFormat::Depth24PlusStencil8 => 4,
        TextureFormat::Depth32Float => 4,
        TextureFormat::Depth32FloatStencil8 => 8,
        TextureFormat::Stencil8 => 1,
        other => {
            if other.block_dimensions() != (1, 1) {
                return None;
            }
            other.block_copy_size(None)?
        }
    };
    Some(u64::from(bytes))
}

/// Whether the format is a depth and/or stencil format.
pub fn is_depth_stencil(format: TextureFormat) -> bool {
    format.is_depth_stencil_format()
}

/// Whether some adapter can render to the format (with any optional feature enabled).
pub fn is_renderable(format: TextureFormat) -> bool {
    format
        .guaranteed_format_features(wgpu::Features::all())
        .allowed_usages
        .contains(wgpu::TextureUsages::RENDER_ATTACHMENT)
}

/// Colour bytes a sample of a render pass attaching `formats` in slot order, as wgpu adds them
/// up: each slot starts at the next multiple of its format's component alignment and adds its
/// format's cost (`TextureFormat::target_component_alignment`, `target_pixel_byte_cost`).
pub(crate) fn color_bytes_per_sample(
    formats: impl IntoIterator<Item = wgpu::TextureFormat>,
) -> u32 {
    formats.into_iter().fold(0, |total, format| {
        match (
            format.target_pixel_byte_cost(),
            format.target_component_alignment(),
        ) {
            (Some(cost), Some(alignment)) => total.next_multiple_of(alignment) + cost,
            _ => total,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in [
            "rgba8unorm",
            "bgra8unorm-srgb",
            "rgba16float",
            "rgb10a2unorm",
            "depth24plus",
            "depth24plus-stencil8",
            "depth32float",
        ] {
            let f = parse_format(name).unwrap();
            assert_eq!(format_name(f), name);
        }
        assert_eq!(parse_format("rgba8"), None);
    }

    #[test]
    fn texel_sizes() {
        assert_eq!(texel_bytes(TextureFormat::Rgba8Unorm), Some(4));
        assert_eq!(texel_bytes(TextureFormat::Rgba16Float), Some(8));
        assert_eq!(texel_bytes(TextureFormat::Depth24PlusStencil8), Some(4));
        assert_eq!(texel_bytes(TextureFormat::Depth32FloatStencil8), Some(8));
        assert_eq!(texel_bytes(TextureFormat::Bc1RgbaUnorm), None);
    }
}
