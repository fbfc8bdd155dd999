//! Fitting a description to what an adapter can do, before [`run`](crate::synthetic::run)
//! compiles it.
//!
//! wgpu's backends differ in three ways that a graph written for Vulkan runs into on GL:
//!
//! - **Sampling a depth attached read-only.** wgpu lets a pass sample the depth texture it tests
//!   against only where the adapter has `DownlevelFlags::READ_ONLY_DEPTH_STENCIL`, which its GL
//!   backend never reports: the attachment counts as a depth write, and the sample conflicts with
//!   it. Such a pass leaves the attachment out and tests depth in its shader against the sampled
//!   texels (what a GL renderer does for soft particles).
//! - **Copies of depth and multisampled textures.** wgpu's GL backend copies textures through a
//!   colour framebuffer and `glCopyTexSubImage2D`, which copies neither. Such a copy pass becomes
//!   a render pass that samples the source and writes the destination with a full-screen draw,
//!   sample by sample.
//! - **Float formats that cannot be rendered to** (`r32float` on wgpu's GL backend without
//!   `GL_EXT_color_buffer_float`). Such a texture is realised as the unsigned-integer format of
//!   the same layout, carrying the floats' bits: writers store the bits, readers reinterpret them,
//!   and clear values become their bit patterns. The bytes read back are the float texels.
//!
//! - **Formats without storage support** (`r16float` storage on GLES, or anywhere without
//!   `TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES`): a texture a compute pass stores to in such a
//!   format is realised in the nearest format that has it (`r32float`, then `rgba16float`,
//!   then `rgba32float` for floats; the 32-bit twin for integers), which reads back the same
//!   values to the precision of the original.
//!
//! - **Multisampled textures that shaders read**, where the adapter cannot keep one (wgpu 30's
//!   GL backend on Mesa; see [`Gpu::sampled_multisample_textures_work`]): no adaptation reads
//!   the samples faithfully, so a pass that samples one, or copies one with a draw, is refused.
//!
//! Each change is named in a note that `tilegraph run` prints. What cannot be adapted is a
//! [`RunError::Unsupported`] naming the pass, the resource and the missing capability.

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use crate::headless::Gpu;
use crate::synthetic::RunError;

/// What [`adapt`] changed, for the shaders and for the user.
#[derive(Debug, Default, Clone)]
pub struct Adaptation {
    /// One line per change.
    pub notes: Vec<String>,
    /// Float textures realised as unsigned-integer textures carrying the bits, by name.
    pub float_bits: HashSet<String>,
    /// Render passes that test depth in the shader: pass name → the sampled depth texture.
    pub shader_depth_tests: HashMap<String, String>,
    /// Copy passes turned into render passes that copy with a draw, by name.
    pub copy_draws: HashSet<String>,
    /// Storage capabilities of the formats the adapter has beyond the guaranteed ones
    /// (with `TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES` enabled on the device).
    pub storage_flags: Vec<(wgpu::TextureFormat, wgpu::TextureFormatFeatureFlags)>,
}

impl Adaptation {
    /// The storage flags of `format` on the device the description runs on.
    pub fn storage_flags(
        &self,
        format: wgpu::TextureFormat,
        features: wgpu::Features,
    ) -> wgpu::TextureFormatFeatureFlags {
        self.storage_flags
            .iter()
            .find(|&&(f, _)| f == format)
            .map_or_else(
                || format.guaranteed_format_features(features).flags,
                |&(_, flags)| flags,
            )
    }
}

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
    renderable: Vec<wgpu::TextureFormat>,
    /// Storage flags of the formats a description may store to, as the device can use them.
    storage: Vec<(wgpu::TextureFormat, wgpu::TextureFormatFeatureFlags)>,
    /// What the backend is called in messages.
    backend: String,
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
    fn stores(&self, format: wgpu::TextureFormat, needed: wgpu::TextureFormatFeatureFlags) -> bool {
        self.storage
            .iter()
            .find(|&&(f, _)| f == format)
            .is_some_and(|&(_, flags)| flags.contains(needed))
    }

    fn renders(&self, format: wgpu::TextureFormat) -> bool {
        !FLOAT_BITS.iter().any(|&(f, _)| f == format) || self.renderable.contains(&format)
    }
}

const STORAGE_FLAGS: wgpu::TextureFormatFeatureFlags =
    wgpu::TextureFormatFeatureFlags::STORAGE_READ_ONLY
        .union(wgpu::TextureFormatFeatureFlags::STORAGE_WRITE_ONLY)
        .union(wgpu::TextureFormatFeatureFlags::STORAGE_READ_WRITE);

/// Formats storage textures come in, and for each the formats that may stand in for it where
/// it has no storage support, nearest first: same channel type, at least its precision.
const STORAGE_FORMATS: [wgpu::TextureFormat; 14] = [
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

fn storage_stand_ins(format: wgpu::TextureFormat) -> &'static [wgpu::TextureFormat] {
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
const FLOAT_BITS: [(wgpu::TextureFormat, wgpu::TextureFormat); 3] = [
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
const FLOAT_BITS_LIMITS: &str = "only single-sampled 32-bit float textures that nothing resolves into can be stood in for by an integer format";

struct Texture {
    format: wgpu::TextureFormat,
    samples: u64,
    size: (u64, u64),
}

fn entry_name(entry: &Value) -> Option<&str> {
    entry
        .as_str()
        .or_else(|| entry.get("resource").and_then(Value::as_str))
}

fn unsupported(pass: &str, message: String) -> RunError {
    RunError::Unsupported {
        pass: pass.to_owned(),
        message,
    }
}

/// Adapts a description (JSON) to `caps`; see the module documentation. A description that
/// needs nothing changed comes back as it was, with no notes.
pub fn adapt(description: &str, caps: &Capabilities) -> Result<(String, Adaptation), RunError> {
    let mut value: Value = serde_json::from_str(description).map_err(|e| {
        tilegraph::GraphError::InvalidDescription {
            pass: None,
            resource: None,
            message: e.to_string(),
        }
    })?;
    let mut textures = HashMap::new();
    for r in value
        .get("resources")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (Some(name), Some(t)) = (r.get("name").and_then(Value::as_str), r.get("texture"))
        else {
            continue;
        };
        let Some(format) = t
            .get("format")
            .and_then(Value::as_str)
            .and_then(tilegraph::format::parse_format)
        else {
            continue;
        };
        let size = t.get("size").and_then(Value::as_array);
        let dim = |i| {
            size.and_then(|s| s.get(i))
                .and_then(Value::as_u64)
                .unwrap_or(0)
        };
        textures.insert(
            name.to_owned(),
            Texture {
                format,
                samples: t.get("samples").and_then(Value::as_u64).unwrap_or(1),
                size: (dim(0), dim(1)),
            },
        );
    }
    let mut adaptation = Adaptation::default();
    let passes = value
        .get_mut("passes")
        .and_then(Value::as_array_mut)
        .map(std::mem::take)
        .unwrap_or_default();
    let mut adapted = Vec::with_capacity(passes.len());
    let mut rendered_to: Vec<(String, String, bool)> = Vec::new();
    for mut pass in passes {
        let name = pass
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let kind = pass
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        if kind == "render" && !caps.read_only_depth_sampling {
            shader_depth_test(&mut pass, &name, &textures, &mut adaptation)?;
        }
        if kind == "copy" && !caps.depth_and_multisample_copies {
            copy_draw(&mut pass, &name, &textures, caps, &mut adaptation)?;
        }
        if !caps.sampled_multisample {
            refuse_sampled_multisample(&pass, &name, &textures, caps)?;
        }
        for c in pass
            .get("color")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(r) = c.get("resource").and_then(Value::as_str) {
                rendered_to.push((name.clone(), r.to_owned(), c.get("resolve").is_some()));
            }
            if let Some(r) = c.get("resolve").and_then(Value::as_str) {
                rendered_to.push((name.clone(), r.to_owned(), true));
            }
        }
        adapted.push(pass);
    }
    value["passes"] = Value::Array(adapted);
    storage_formats(&mut value, &textures, caps, &rendered_to, &mut adaptation)?;
    float_bits(&mut value, &textures, caps, &rendered_to, &mut adaptation)?;
    adaptation.storage_flags = caps.storage.clone();
    if adaptation.notes.is_empty() {
        return Ok((description.to_owned(), adaptation));
    }
    Ok((value.to_string(), adaptation))
}

/// Textures stored to in a format the adapter cannot store: realised in the nearest format
/// that it can (see the module documentation).
fn storage_formats(
    value: &mut Value,
    textures: &HashMap<String, Texture>,
    caps: &Capabilities,
    rendered_to: &[(String, String, bool)],
    adaptation: &mut Adaptation,
) -> Result<(), RunError> {
    use wgpu::TextureFormatFeatureFlags as Flags;
    // Per texture: the first pass that stores to it and the flags every such pass needs.
    let mut needs: Vec<(String, String, Flags)> = Vec::new();
    for pass in value
        .get("passes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = pass.get("name").and_then(Value::as_str).unwrap_or_default();
        for (list, flag) in [
            ("storage_read", Flags::STORAGE_READ_ONLY),
            ("storage_write", Flags::STORAGE_WRITE_ONLY),
            ("storage_read_write", Flags::STORAGE_READ_WRITE),
        ] {
            for r in pass
                .get(list)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(entry_name)
            {
                if !textures.contains_key(r) {
                    continue;
                }
                match needs.iter_mut().find(|(n, _, _)| n == r) {
                    Some((_, _, f)) => *f |= flag,
                    None => needs.push((r.to_owned(), name.to_owned(), flag)),
                }
            }
        }
    }
    let mut realised = HashMap::new();
    for (resource, pass, needed) in needs {
        let t = &textures[&resource];
        if caps.stores(t.format, needed) {
            continue;
        }
        let attached = rendered_to.iter().any(|(_, r, _)| *r == resource);
        let Some(&twin) = storage_stand_ins(t.format)
            .iter()
            .find(|&&f| caps.stores(f, needed) && (!attached || caps.renders(f)))
        else {
            return Err(unsupported(
                &pass,
                format!(
                    "`{resource}` is a {} storage texture, which this adapter ({}) cannot store to ({:?} missing), and no format that can stands in for it",
                    tilegraph::format::format_name(t.format),
                    caps.backend,
                    needed
                ),
            ));
        };
        adaptation.notes.push(format!(
            "`{resource}` is {}, which this adapter ({}) cannot use as a storage texture; it is realised as {}",
            tilegraph::format::format_name(t.format),
            caps.backend,
            tilegraph::format::format_name(twin)
        ));
        realised.insert(resource, twin);
    }
    retype_resources(value, &realised, |_| {});
    Ok(())
}

/// Gives every resource named in `formats` its new format; `also` then adjusts the resource.
fn retype_resources(
    value: &mut Value,
    formats: &HashMap<String, wgpu::TextureFormat>,
    mut also: impl FnMut(&mut Value),
) {
    for r in value
        .get_mut("resources")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        let Some(&format) = r
            .get("name")
            .and_then(Value::as_str)
            .and_then(|n| formats.get(n))
        else {
            continue;
        };
        r["texture"]["format"] = Value::from(tilegraph::format::format_name(format));
        also(r);
    }
}

/// A render pass that attaches a depth texture `read` and samples it: test in the shader.
fn shader_depth_test(
    pass: &mut Value,
    name: &str,
    textures: &HashMap<String, Texture>,
    adaptation: &mut Adaptation,
) -> Result<(), RunError> {
    let Some(depth) = pass.get("depth") else {
        return Ok(());
    };
    let (Some(resource), Some("read")) = (
        depth.get("resource").and_then(Value::as_str),
        depth.get("access").and_then(Value::as_str),
    ) else {
        return Ok(());
    };
    let sampled = pass
        .get("sample")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|e| {
            entry_name(e) == Some(resource) && e.get("mip").is_none() && e.get("layer").is_none()
        });
    if !sampled {
        return Ok(());
    }
    let resource = resource.to_owned();
    let has_color = pass
        .get("color")
        .and_then(Value::as_array)
        .is_some_and(|c| !c.is_empty());
    let single = textures.get(&resource).is_some_and(|t| t.samples == 1);
    if !has_color || !single {
        return Err(unsupported(
            name,
            format!(
                "samples `{resource}` while testing against it read-only, which needs DownlevelFlags::READ_ONLY_DEPTH_STENCIL (this adapter lacks it); testing in the shader instead needs a colour attachment and a single-sampled depth"
            ),
        ));
    }
    if let Some(object) = pass.as_object_mut() {
        object.remove("depth");
    }
    adaptation.notes.push(format!(
        "pass `{name}` samples `{resource}` while testing against it read-only; the adapter lacks DownlevelFlags::READ_ONLY_DEPTH_STENCIL, so the pass tests depth in its shader and does not attach `{resource}`"
    ));
    adaptation
        .shader_depth_tests
        .insert(name.to_owned(), resource);
    Ok(())
}

/// A pass that reads a multisampled texture in a shader (a copy by draw included), on an
/// adapter where such a texture stays empty: refused, since no stand-in reads the samples.
fn refuse_sampled_multisample(
    pass: &Value,
    name: &str,
    textures: &HashMap<String, Texture>,
    caps: &Capabilities,
) -> Result<(), RunError> {
    let read = ["sample", "input"]
        .iter()
        .filter_map(|key| pass.get(*key).and_then(Value::as_array))
        .flatten()
        .filter_map(entry_name)
        .find_map(|r| textures.get(r).filter(|t| t.samples > 1).map(|t| (r, t)));
    let Some((resource, t)) = read else {
        return Ok(());
    };
    Err(unsupported(
        name,
        format!(
            "reads `{resource}` ({}, {} samples) in a shader, which needs a multisampled texture with TEXTURE_BINDING that holds what is rendered into it; on this adapter ({}) it stays empty (wgpu's GL backend allocates it with the GL_TEXTURE_2D target instead of GL_TEXTURE_2D_MULTISAMPLE: wgpu issue #6084)",
            tilegraph::format::format_name(t.format),
            t.samples,
            caps.backend
        ),
    ))
}

/// A copy pass between depth or multisampled textures: copy with a draw instead.
fn copy_draw(
    pass: &mut Value,
    name: &str,
    textures: &HashMap<String, Texture>,
    caps: &Capabilities,
    adaptation: &mut Adaptation,
) -> Result<(), RunError> {
    let list = |key: &str| -> Vec<String> {
        pass.get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|e| entry_name(e).map(str::to_owned))
            .collect()
    };
    let (src, dst) = (list("copy_src"), list("copy_dst"));
    let needs_draw = |r: &String| {
        textures
            .get(r)
            .is_some_and(|t| t.format.is_depth_stencil_format() || t.samples > 1)
    };
    if !src.iter().chain(&dst).any(needs_draw) {
        return Ok(());
    }
    let (s, d) = match (src.as_slice(), dst.as_slice()) {
        // A buffer or an undeclared name: the compiler reports it.
        ([s], [d]) if !textures.contains_key(s) || !textures.contains_key(d) => return Ok(()),
        ([s], [d]) => (&textures[s], &textures[d]),
        _ => {
            return Err(unsupported(
                name,
                format!(
                    "copies depth or multisampled textures, which the {} backend cannot copy; copying them with a draw takes one copy_src and one copy_dst",
                    caps.backend
                ),
            ));
        }
    };
    if s.format != d.format || s.samples != d.samples || s.size != d.size {
        return Err(unsupported(
            name,
            format!(
                "copying `{}` into `{}`: depth and multisampled copies need the same format, sample count and size",
                src[0], dst[0]
            ),
        ));
    }
    if s.format.is_depth_stencil_format() && s.samples > 1 {
        // Reading a multisampled depth in a shader and writing it back per sample does not give
        // the same depth on wgpu's GL backend in every execute mode: refused, not approximated.
        return Err(unsupported(
            name,
            format!(
                "copies `{}` ({}, {} samples): the {} backend cannot copy depth or multisampled textures, and a full-screen draw does not reproduce a multisampled depth faithfully there",
                src[0],
                tilegraph::format::format_name(s.format),
                s.samples,
                caps.backend
            ),
        ));
    }
    if s.format.has_stencil_aspect() {
        return Err(unsupported(
            name,
            format!(
                "copies `{}` ({}), which has stencil: the {} backend cannot copy depth/stencil textures and a draw cannot write stencil",
                src[0],
                tilegraph::format::format_name(s.format),
                caps.backend
            ),
        ));
    }
    let attachment = json!({"resource": dst[0], "access": "write"});
    let mut render = json!({"name": name, "type": "render", "sample": [src[0]]});
    if d.format.is_depth_stencil_format() {
        render["depth"] = attachment;
    } else {
        render["color"] = json!([attachment]);
    }
    if let Some(side_effects) = pass.get("side_effects") {
        render["side_effects"] = side_effects.clone();
    }
    *pass = render;
    adaptation.notes.push(format!(
        "pass `{name}` copies `{}` into `{}` ({}, {} samples), which the {} backend cannot copy; it copies with a full-screen draw instead",
        src[0],
        dst[0],
        tilegraph::format::format_name(s.format),
        s.samples,
        caps.backend
    ));
    adaptation.copy_draws.insert(name.to_owned());
    Ok(())
}

/// Float colour attachments the adapter cannot render to: stand in the integer twin.
fn float_bits(
    value: &mut Value,
    textures: &HashMap<String, Texture>,
    caps: &Capabilities,
    rendered_to: &[(String, String, bool)],
    adaptation: &mut Adaptation,
) -> Result<(), RunError> {
    let mut stand_in = HashMap::new();
    for (pass, resource, resolves) in rendered_to {
        let Some(t) = textures.get(resource) else {
            continue;
        };
        if caps.renders(t.format) || stand_in.contains_key(resource) {
            continue;
        }
        let name = tilegraph::format::format_name(t.format);
        let twin = FLOAT_BITS
            .iter()
            .find(|&&(f, _)| f == t.format)
            .map(|&(_, u)| u);
        let fits = rendered_to
            .iter()
            .all(|(_, r, resolves)| r != resource || !resolves);
        match twin {
            Some(twin) if t.samples == 1 && fits && !*resolves => {
                stand_in.insert(resource.clone(), twin);
                adaptation.notes.push(format!(
                    "`{resource}` is {name}, which this adapter cannot render to (wgpu's GL backend needs GL_EXT_color_buffer_float or GL_ARB_color_buffer_float); it is realised as {} carrying the floats' bits",
                    tilegraph::format::format_name(twin)
                ));
                adaptation.float_bits.insert(resource.clone());
            }
            _ => {
                return Err(unsupported(
                    pass,
                    format!(
                        "`{resource}` is a {name} colour attachment, which this adapter ({}) cannot render to: the format lacks TextureUsages::RENDER_ATTACHMENT there ({FLOAT_BITS_LIMITS})",
                        caps.backend
                    ),
                ));
            }
        }
    }
    if stand_in.is_empty() {
        return Ok(());
    }
    retype_resources(value, &stand_in, |r| {
        if let Some(clear) = r.get_mut("clear") {
            bits_of_clear(clear);
        }
    });
    for pass in value
        .get_mut("passes")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        for c in pass
            .get_mut("color")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            let ours = c
                .get("resource")
                .and_then(Value::as_str)
                .is_some_and(|r| stand_in.contains_key(r));
            if let (true, Some(clear)) = (ours, c.get_mut("clear")) {
                bits_of_clear(clear);
            }
        }
    }
    Ok(())
}

/// `[r, g, b, a]` floats → the same list holding each float's bits, which an unsigned-integer
/// clear stores unchanged.
fn bits_of_clear(clear: &mut Value) {
    if let Some(channels) = clear.as_array_mut() {
        for c in channels {
            if let Some(f) = c.as_f64() {
                *c = Value::from((f as f32).to_bits());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps_of_gl() -> Capabilities {
        Capabilities {
            read_only_depth_sampling: false,
            depth_and_multisample_copies: false,
            sampled_multisample: true,
            renderable: Vec::new(),
            // GLES 3.1's storage formats: no 16-bit floats.
            storage: STORAGE_FORMATS
                .iter()
                .map(|&f| {
                    let gles = !matches!(
                        f,
                        wgpu::TextureFormat::R16Float
                            | wgpu::TextureFormat::Rg16Float
                            | wgpu::TextureFormat::R16Uint
                            | wgpu::TextureFormat::R8Unorm
                            | wgpu::TextureFormat::Rg8Unorm
                            | wgpu::TextureFormat::Rg32Float
                            | wgpu::TextureFormat::Rg32Uint
                    );
                    let flags = if gles {
                        STORAGE_FLAGS
                    } else {
                        wgpu::TextureFormatFeatureFlags::empty()
                    };
                    (f, flags)
                })
                .collect(),
            backend: "Gl".into(),
        }
    }

    #[test]
    fn storage_formats_the_adapter_lacks_are_realised_in_one_it_has() {
        let d = include_str!("../../examples/graphs/bevy_ssao.json");
        let (out, a) = adapt(d, &caps_of_gl()).unwrap();
        let v: Value = serde_json::from_str(&out).unwrap();
        let format = |name: &str| {
            v["resources"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["name"] == name)
                .unwrap()["texture"]["format"]
                .clone()
        };
        for r in ["ssao_preprocessed_depth", "ssao_noisy", "ssao"] {
            assert_eq!(format(r), "r32float", "{r}");
            assert!(
                a.notes
                    .iter()
                    .any(|n| n.starts_with(&format!("`{r}` is r16float"))
                        && n.ends_with("realised as r32float")),
                "{:?}",
                a.notes
            );
        }
        // Formats the adapter stores stay as they are.
        assert_eq!(format("ssao_depth_differences"), "r32uint");
        // With every storage format there is nothing to do.
        let (same, a) = adapt(d, &Capabilities::full()).unwrap();
        assert_eq!(same, d);
        assert!(a.notes.is_empty());
        // No stand-in at all: an unsupported error naming the pass, the resource and the format.
        let mut none = caps_of_gl();
        none.storage
            .iter_mut()
            .for_each(|(_, f)| *f = wgpu::TextureFormatFeatureFlags::empty());
        let e = adapt(d, &none).unwrap_err().to_string();
        assert!(
            e.contains("ssao_preprocess_depth")
                && e.contains("ssao_preprocessed_depth")
                && e.contains("r16float"),
            "{e}"
        );
    }

    #[test]
    fn a_depth_copy_into_a_buffer_is_not_turned_into_a_draw() {
        let d = r#"{"resources": [
            {"name": "depth", "texture": {"format": "depth32float", "size": [8, 8]}},
            {"name": "b", "buffer": {"size": 256}}],
          "passes": [
            {"name": "clear", "type": "render", "depth": {"resource": "depth", "access": "clear"}},
            {"name": "copy", "type": "copy", "copy_src": ["depth"], "copy_dst": ["b"],
             "side_effects": true}]}"#;
        let (_, a) = adapt(d, &caps_of_gl()).unwrap();
        assert!(a.copy_draws.is_empty());
    }

    #[test]
    fn nothing_changes_on_a_full_adapter() {
        let d = include_str!("../../examples/graphs/ssao.json");
        let (out, a) = adapt(d, &Capabilities::full()).unwrap();
        assert_eq!(out, d);
        assert!(a.notes.is_empty());
    }

    #[test]
    fn gl_tests_depth_in_the_shader_copies_by_draw_and_stands_in_for_r32float() {
        let (out, a) = adapt(
            include_str!("../../examples/graphs/ssao.json"),
            &caps_of_gl(),
        )
        .unwrap();
        let v: Value = serde_json::from_str(&out).unwrap();
        let ssao = v["passes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "ssao")
            .unwrap();
        assert!(ssao.get("depth").is_none());
        assert_eq!(a.shader_depth_tests["ssao"], "depth");
        let linear = v["resources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == "linear_depth")
            .unwrap();
        assert_eq!(linear["texture"]["format"], "r32uint");
        assert!(a.float_bits.contains("linear_depth"));

        // A depth copy becomes a draw; a multisampled depth copy is refused (a draw does not
        // reproduce one faithfully on GL).
        let depth_copy = r#"{"resources": [
            {"name": "depth", "texture": {"format": "depth32float", "size": [8, 8]}},
            {"name": "depth_copy", "texture": {"format": "depth32float", "size": [8, 8]}},
            {"name": "out", "texture": {"format": "rgba8unorm", "size": [8, 8]},
             "import": {"contents": "undefined", "after": "keep"}}],
          "passes": [
            {"name": "prepass", "type": "render", "depth": {"resource": "depth", "access": "clear"}},
            {"name": "copy_prepass_depth", "type": "copy", "copy_src": ["depth"], "copy_dst": ["depth_copy"]},
            {"name": "fog", "type": "render", "sample": ["depth_copy"],
             "color": [{"resource": "out", "access": "write"}]}]}"#;
        let (out, a) = adapt(depth_copy, &caps_of_gl()).unwrap();
        let v: Value = serde_json::from_str(&out).unwrap();
        let copy = &v["passes"][1];
        assert_eq!(copy["type"], "render");
        assert_eq!(copy["depth"]["resource"], "depth_copy");
        assert_eq!(copy["depth"]["access"], "write");
        assert!(a.copy_draws.contains("copy_prepass_depth"));
        match adapt(
            include_str!("../tests/graphs/msaa_depth_copy.json"),
            &caps_of_gl(),
        ) {
            Err(RunError::Unsupported { pass, message }) => {
                assert_eq!(pass, "copy_prepass_depth");
                assert!(
                    message.contains("`depth_msaa` (depth32float, 4 samples)"),
                    "{message}"
                );
            }
            other => panic!("expected the multisampled depth copy to be refused, got {other:?}"),
        }
    }

    #[test]
    fn a_sampled_multisampled_texture_is_refused_where_it_stays_empty() {
        let d = include_str!("../tests/graphs/sampled_msaa.json");
        let caps = Capabilities {
            sampled_multisample: false,
            ..caps_of_gl()
        };
        match adapt(d, &caps) {
            Err(RunError::Unsupported { pass, message }) => {
                assert_eq!(pass, "post");
                assert!(
                    message.contains("`m` (rgba16float, 4 samples)")
                        && message.contains("TEXTURE_BINDING"),
                    "{message}"
                );
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
        // Where such textures work, the graph runs as it is.
        let (out, a) = adapt(d, &caps_of_gl()).unwrap();
        assert_eq!(out, d);
        assert!(a.notes.is_empty());
    }

    #[test]
    fn what_cannot_be_adapted_names_the_pass_resource_and_capability() {
        let d = r#"{"resources": [
            {"name": "a", "texture": {"format": "r32float", "size": [8, 8], "samples": 4}},
            {"name": "o", "texture": {"format": "r32float", "size": [8, 8]}, "import": {"contents": "undefined", "after": "keep"}}],
          "passes": [{"name": "p", "type": "render", "color": [{"resource": "a", "access": "clear", "resolve": "o"}]}]}"#;
        let e = adapt(d, &caps_of_gl()).unwrap_err().to_string();
        assert!(
            e.contains("pass `p`")
                && e.contains("`a`")
                && e.contains("r32float")
                && e.contains("RENDER_ATTACHMENT"),
            "{e}"
        );

        let d = r#"{"resources": [
            {"name": "d", "texture": {"format": "depth32float", "size": [8, 8]}, "clear": 1.0}],
          "passes": [{"name": "p", "type": "render", "sample": ["d"], "depth": {"resource": "d", "access": "read"}}]}"#;
        let e = adapt(d, &caps_of_gl()).unwrap_err().to_string();
        assert!(
            e.contains("pass `p`") && e.contains("`d`") && e.contains("READ_ONLY_DEPTH_STENCIL"),
            "{e}"
        );
    }
}
