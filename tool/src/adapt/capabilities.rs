//! What an adapter can do, as far as descriptions are concerned, and the formats that stand in
//! for others.

use crate::headless::Gpu;

/// What the adapter can do, as far as descriptions are concerned.
#[derive(Debug, Clone)]
pub struct Capabilities {
    /// The adapter has `DownlevelFlags::READ_ONLY_DEPTH_STENCIL`.
    pub read_only_depth_sampling: bool,
    /// Texture-to-texture copies handle depth and multisampled textures (not wgpu's GL backend).
    pub depth_and_multisample_copies: bool,
    /// Multisampled textures that shaders read hold what is rendered into them
    /// ([`Gpu::sampled_multisample_textures_work`]).
    pub sampled_multisample: bool,
    /// Formats the adapter can render to (colour).
    pub(super) renderable: Vec<wgpu::TextureFormat>,
    /// Storage flags of the formats a description may store to, as the device can use them.
    pub(super) storage: Vec<(wgpu::TextureFormat, wgpu::TextureFormatFeatureFlags)>,
    /// What the backend is called in messages.
    pub(super) backend: String,
}

impl Capabilities {
    /// The capabilities of `gpu`'s adapter and device.
    pub fn of(gpu: &Gpu) -> Self {
        let adapter = &gpu.adapter;
        let info = adapter.get_info();
        let flags = adapter.get_downlevel_capabilities().flags;
        let renderable = FLOAT_BITS
            .iter()
            .map(|&(float, _)| float)
            .filter(|&f| {
                adapter
                    .get_texture_format_features(f)
                    .allowed_usages
                    .contains(wgpu::TextureUsages::RENDER_ATTACHMENT)
            })
            .collect();
        // Adapter-specific format features count only where the device enabled them.
        let features = gpu.device.features();
        let specific = features.contains(wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES);
        let storage = STORAGE_FORMATS
            .iter()
            .map(|&f| {
                let flags = if specific {
                    adapter.get_texture_format_features(f).flags
                } else {
                    f.guaranteed_format_features(features).flags
                };
                (f, flags & STORAGE_FLAGS)
            })
            .collect();
        Capabilities {
            read_only_depth_sampling: flags.contains(wgpu::DownlevelFlags::READ_ONLY_DEPTH_STENCIL),
            depth_and_multisample_copies: info.backend != wgpu::Backend::Gl,
            sampled_multisample: gpu.sampled_multisample_textures_work(),
            renderable,
            storage,
            backend: format!("{:?}", info.backend),
        }
    }

    /// With `portable`, storage textures only in the formats WebGPU guarantees every adapter
    /// can store to (whatever this one has beyond them), so that one description's images
    /// compare across adapters.
    pub fn portable(mut self, portable: bool) -> Self {
        if portable {
            for (format, flags) in &mut self.storage {
                *flags &= format
                    .guaranteed_format_features(wgpu::Features::empty())
                    .flags;
            }
            self.backend = format!("{}, storage formats every adapter has", self.backend);
        }
        self
    }

    /// Everything: nothing to adapt.
    pub fn full() -> Self {
        Capabilities {
            read_only_depth_sampling: true,
            depth_and_multisample_copies: true,
            sampled_multisample: true,
            renderable: FLOAT_BITS.iter().map(|&(f, _)| f).collect(),
            storage: STORAGE_FORMATS
                .iter()
                .map(|&f| (f, STORAGE_FLAGS))
                .collect(),
            backend: "any".into(),
        }
    }

    /// Whether `format` can be stored to with `needed`.
    pub(super) fn stores(
        &self,
        format: wgpu::TextureFormat,
        needed: wgpu::TextureFormatFeatureFlags,
    ) -> bool {
        self.storage
            .iter()
            .find(|&&(f, _)| f == format)
            .is_some_and(|&(_, flags)| flags.contains(needed))
    }

    pub(super) fn renders(&self, format: wgpu::TextureFormat) -> bool {
        !FLOAT_BITS.iter().any(|&(f, _)| f == format) || self.renderable.contains(&format)
    }
}

pub(super) const STORAGE_FLAGS: wgpu::TextureFormatFeatureFlags =
    wgpu::TextureFormatFeatureFlags::STORAGE_READ_ONLY
        .union(wgpu::TextureFormatFeatureFlags::STORAGE_WRITE_ONLY)
        .union(wgpu::TextureFormatFeatureFlags::STORAGE_READ_WRITE);

/// Formats storage textures come in, and for each the formats that may stand in for it where
/// it has no storage support, nearest first: same channel type, at least its precision.
pub(super) const STORAGE_FORMATS: [wgpu::TextureFormat; 14] = [
    wgpu::TextureFormat::R16Float,
    wgpu::TextureFormat::Rg16Float,
    wgpu::TextureFormat::Rgba16Float,
    wgpu::TextureFormat::R32Float,
    wgpu::TextureFormat::Rg32Float,
    wgpu::TextureFormat::Rgba32Float,
    wgpu::TextureFormat::R16Uint,
    wgpu::TextureFormat::R32Uint,
    wgpu::TextureFormat::Rg32Uint,
    wgpu::TextureFormat::Rgba32Uint,
    wgpu::TextureFormat::R8Unorm,
    wgpu::TextureFormat::Rg8Unorm,
    wgpu::TextureFormat::Rgba8Unorm,
    wgpu::TextureFormat::Rgba16Uint,
];

pub(super) fn storage_stand_ins(format: wgpu::TextureFormat) -> &'static [wgpu::TextureFormat] {
    use wgpu::TextureFormat as F;
    match format {
        F::R16Float => &[F::R32Float, F::Rgba16Float, F::Rgba32Float],
        F::Rg16Float => &[F::Rgba16Float, F::Rg32Float, F::Rgba32Float],
        F::Rgba16Float => &[F::Rgba32Float],
        F::R32Float => &[F::Rgba32Float],
        F::Rg32Float => &[F::Rgba32Float],
        F::R8Unorm | F::Rg8Unorm => &[F::Rgba8Unorm, F::Rgba16Float, F::Rgba32Float],
        F::R16Uint => &[F::R32Uint, F::Rgba16Uint, F::Rgba32Uint],
        F::Rg32Uint => &[F::Rgba32Uint],
        F::R32Uint => &[F::Rgba32Uint],
        _ => &[],
    }
}

/// Float formats and the unsigned-integer formats that carry their bits. 16-bit floats blend
/// and their integer twins do not, so only the 32-bit ones (which do not blend without
/// `FLOAT32_BLENDABLE` either) are stood in for.
pub(super) const FLOAT_BITS: [(wgpu::TextureFormat, wgpu::TextureFormat); 3] = [
    (wgpu::TextureFormat::R32Float, wgpu::TextureFormat::R32Uint),
    (
        wgpu::TextureFormat::Rg32Float,
        wgpu::TextureFormat::Rg32Uint,
    ),
    (
        wgpu::TextureFormat::Rgba32Float,
        wgpu::TextureFormat::Rgba32Uint,
    ),
];

/// Why the integer stand-in does not apply.
pub(super) const FLOAT_BITS_LIMITS: &str = "only single-sampled 32-bit float textures that nothing resolves into can be stood in for by an integer format";
