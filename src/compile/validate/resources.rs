//! The rules of a resource's own declaration: its shape, its size and its clear value, and what
//! the pass checks keep of it.

use super::MAX_LAYERS;
use super::SAMPLE_COUNTS;
use crate::decl::resource::{ResourceDecl, ResourceKind};
use crate::error::GraphError;
use crate::format::{is_depth_stencil, is_renderable};
use crate::resource::{ClearValue, TextureDesc};

/// A resource's own shape; returns its `bytes(R)` (checked u64) and the bytes of one
/// subresource of mip 0 (a buffer: its size twice).
pub(super) fn validate_resource(r: &ResourceDecl) -> Result<(u64, u64), GraphError> {
    match r.kind {
        ResourceKind::Buffer(b) => validate_buffer(r, b.size).map(|size| (size, size)),
        ResourceKind::Texture(t) => validate_texture(r, t),
    }
}

/// A buffer has a size and no clear value.
pub(super) fn validate_buffer(r: &ResourceDecl, size: u64) -> Result<u64, GraphError> {
    let name = &*r.name;
    let invalid = |what: String| GraphError::invalid_resource(name, what);
    if size == 0 {
        return Err(invalid("buffer size must be at least 1 byte".into()));
    }
    if r.clear.is_some() {
        return Err(GraphError::FormatMismatch {
            pass: None,
            resource: name.to_owned(),
            message: "a buffer has no clear value".into(),
        });
    }
    Ok(size)
}

/// A texture's size, layers, samples and mips are possible, its clear value fits its format.
/// Returns its bytes and those of one subresource of mip 0.
pub(super) fn validate_texture(r: &ResourceDecl, t: TextureDesc) -> Result<(u64, u64), GraphError> {
    let name = &*r.name;
    let invalid = |what: String| GraphError::invalid_resource(name, what);
    if t.width == 0 || t.height == 0 || t.layers == 0 {
        return Err(invalid(format!(
            "size {}x{}x{} has a zero dimension",
            t.width, t.height, t.layers
        )));
    }
    if t.layers > MAX_LAYERS {
        return Err(invalid(format!(
            "{} layers; wgpu allows at most {MAX_LAYERS}",
            t.layers
        )));
    }
    if !SAMPLE_COUNTS.contains(&t.samples) {
        return Err(invalid(format!(
            "sample count {} is not one of 1, 2, 4, 8, 16",
            t.samples
        )));
    }
    let max_mips = 32 - t.width.max(t.height).leading_zeros();
    if t.mips == 0 || t.mips > max_mips {
        return Err(invalid(format!(
            "{} mips; a {}x{} texture has 1 to {max_mips}",
            t.mips, t.width, t.height
        )));
    }
    // Layers are allowed for multiview MSAA; the executor keeps one texture per layer where
    // the device lacks `Features::MULTISAMPLE_ARRAY`.
    if t.samples > 1 && t.mips > 1 {
        return Err(invalid("a multisampled texture has one mip".into()));
    }
    if let Some(clear) = r.clear {
        check_clear_fits(None, name, t.format, clear)?;
    }
    // The texel size once, for every mip.
    let texel = texel_size(name, &t)?;
    let overflow = || {
        invalid(format!(
            "{}x{}x{} texels overflow a 64-bit byte count",
            t.width, t.height, t.layers
        ))
    };
    let mut total = 0u64;
    let mut base = 0u64;
    for mip in 0..t.mips {
        let one = t.mip_bytes(texel, mip).ok_or_else(overflow)?;
        if mip == 0 {
            base = one;
        }
        total = one
            .checked_mul(u64::from(t.layers))
            .and_then(|b| total.checked_add(b))
            .ok_or_else(overflow)?;
    }
    Ok((total, base))
}

/// Bytes of one texel, or of one block for block-compressed formats.
pub(super) fn texel_size(name: &str, t: &TextureDesc) -> Result<u64, GraphError> {
    t.texel_bytes().ok_or_else(|| GraphError::FormatMismatch {
        pass: None,
        resource: name.to_owned(),
        message: format!(
            "format {:?} is not supported (planar or aspect-less)",
            t.format
        ),
    })
}

pub(super) fn check_clear_fits(
    pass: Option<&str>,
    name: &str,
    format: wgpu::TextureFormat,
    clear: ClearValue,
) -> Result<(), GraphError> {
    let message = match clear {
        ClearValue::Color(c) if is_depth_stencil(format) => Some(format!(
            "colour clear value {c:?} for depth format {format:?}"
        )),
        ClearValue::Color(c) if c.iter().any(|v| !v.is_finite()) => {
            Some(format!("clear value {c:?} is not finite"))
        }
        ClearValue::Depth(_) | ClearValue::DepthStencil { .. } if !is_depth_stencil(format) => {
            Some(format!("depth clear value for colour format {format:?}"))
        }
        ClearValue::Depth(d) | ClearValue::DepthStencil { depth: d, .. }
            if !(0.0..=1.0).contains(&d) =>
        {
            Some(format!("depth clear value {d} is outside 0..=1"))
        }
        ClearValue::DepthStencil { stencil, .. }
            if stencil != 0 && !format.has_stencil_aspect() =>
        {
            Some(format!(
                "stencil clear value {stencil} for {format:?}, which has no stencil"
            ))
        }
        _ => None,
    };
    match message {
        None => Ok(()),
        Some(message) => Err(GraphError::FormatMismatch {
            pass: pass.map(str::to_owned),
            resource: name.to_owned(),
            message,
        }),
    }
}

/// What the pass checks keep of a resource.
#[derive(Debug, Clone, Copy)]
pub(super) struct Marks {
    /// 1 + the last pass that named it.
    pub(super) seen_in_pass: u32,
    /// What it can be attached as.
    pub(super) attachable: Attachable,
}

/// Colour formats and whether some adapter renders to them, remembered in place (no
/// allocation): more than most graphs use, few enough to search in order.
#[derive(Debug, Default)]
pub(super) struct Renderable([Option<(wgpu::TextureFormat, bool)>; 16]);

impl Renderable {
    /// Whether some adapter renders to `format`.
    pub(super) fn get(&mut self, format: wgpu::TextureFormat) -> bool {
        for slot in &mut self.0 {
            match *slot {
                Some((known, color)) if known == format => return color,
                Some(_) => {}
                None => {
                    let color = is_renderable(format);
                    *slot = Some((format, color));
                    return color;
                }
            }
        }
        is_renderable(format)
    }
}

/// What a resource can be attached as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Attachable {
    Color,
    Depth,
    Neither,
}

impl Attachable {
    /// What `r` can be attached as; `renderable` remembers the colour formats met so far.
    pub(super) fn of(r: &ResourceDecl, renderable: &mut Renderable) -> Self {
        let ResourceKind::Texture(t) = r.kind else {
            return Attachable::Neither;
        };
        if is_depth_stencil(t.format) {
            return Attachable::Depth;
        }
        if renderable.get(t.format) {
            Attachable::Color
        } else {
            Attachable::Neither
        }
    }
}
