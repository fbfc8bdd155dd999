//! Formats the adapter cannot store to or render to, realised in others.

use tilegraph::decl::{ResourceDecl, ResourceKind};
use tilegraph::{ClearValue, ResourceId};

use super::capabilities::{FLOAT_BITS, FLOAT_BITS_LIMITS, storage_stand_ins};
use super::{Adaptation, Capabilities, Graph, RenderedTo, Unsupported, unsupported};

/// Textures stored to in a format the adapter cannot store: realised in the nearest format
/// that it can (see the module documentation).
pub(super) fn storage_formats(
    graph: &mut Graph<'_>,
    caps: &Capabilities,
    rendered_to: &[RenderedTo],
    adaptation: &mut Adaptation,
) -> Result<(), Unsupported> {
    use wgpu::TextureFormatFeatureFlags as Flags;
    // Per texture: the first pass that stores to it and the flags every such pass needs.
    let mut needs: Vec<(ResourceId, String, Flags)> = Vec::new();
    for pass in graph.passes.iter() {
        for (list, flag) in [
            (&pass.storage_read, Flags::STORAGE_READ_ONLY),
            (&pass.storage_write, Flags::STORAGE_WRITE_ONLY),
            (&pass.storage_read_write, Flags::STORAGE_READ_WRITE),
        ] {
            for r in list.iter().map(|e| e.resource) {
                if graph.texture(r).is_none() {
                    continue;
                }
                match needs.iter_mut().find(|(n, _, _)| *n == r) {
                    Some((_, _, f)) => *f |= flag,
                    None => needs.push((r, pass.name.to_string(), flag)),
                }
            }
        }
    }
    let mut realised = Vec::new();
    for (r, pass, needed) in needs {
        let t = graph.texture(r).expect("storage textures only");
        let resource = graph.name(r);
        if caps.stores(t.format, needed) {
            continue;
        }
        let attached = rendered_to.iter().any(|&(_, a, _)| a == r);
        let Some(&twin) = storage_stand_ins(t.format)
            .iter()
            .find(|&&f| caps.stores(f, needed) && (!attached || caps.renders(f)))
        else {
            return Err(unsupported(
                &pass,
                format!(
                    "`{resource}` is a {} storage texture, which this adapter ({}) cannot store to ({:?} missing), and no format that can stands in for it",
                    tilegraph::decl::format_name(t.format),
                    caps.backend,
                    needed
                ),
            ));
        };
        adaptation.notes.push(format!(
            "`{resource}` is {}, which this adapter ({}) cannot use as a storage texture; it is realised as {}",
            tilegraph::decl::format_name(t.format),
            caps.backend,
            tilegraph::decl::format_name(twin)
        ));
        realised.push((r, twin));
    }
    for (r, format) in realised {
        retype(&mut graph.resources[r.index()], format);
    }
    Ok(())
}

/// Gives a texture a new format.
fn retype(resource: &mut ResourceDecl, format: wgpu::TextureFormat) {
    if let ResourceKind::Texture(t) = &mut resource.kind {
        t.format = format;
    }
}

/// Float colour attachments the adapter cannot render to: stand in the integer twin.
pub(super) fn float_bits(
    graph: &mut Graph<'_>,
    caps: &Capabilities,
    rendered_to: &[RenderedTo],
    adaptation: &mut Adaptation,
) -> Result<(), Unsupported> {
    let mut stand_in: Vec<(ResourceId, wgpu::TextureFormat)> = Vec::new();
    for &(ref pass, r, resolves) in rendered_to {
        let Some(t) = graph.texture(r) else {
            continue;
        };
        if caps.renders(t.format) || stand_in.iter().any(|&(s, _)| s == r) {
            continue;
        }
        let resource = graph.name(r);
        let name = tilegraph::decl::format_name(t.format);
        let twin = FLOAT_BITS
            .iter()
            .find(|&&(f, _)| f == t.format)
            .map(|&(_, u)| u);
        let fits = rendered_to
            .iter()
            .all(|&(_, a, resolves)| a != r || !resolves);
        match twin {
            Some(twin) if t.samples == 1 && fits && !resolves => {
                adaptation.notes.push(format!(
                    "`{resource}` is {name}, which this adapter cannot render to (wgpu's GL backend needs GL_EXT_color_buffer_float or GL_ARB_color_buffer_float); it is realised as {} carrying the floats' bits",
                    tilegraph::decl::format_name(twin)
                ));
                adaptation.float_bits.insert(resource.to_owned());
                stand_in.push((r, twin));
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
    for &(r, twin) in &stand_in {
        let resource = &mut graph.resources[r.index()];
        retype(resource, twin);
        if let Some(clear) = &mut resource.clear {
            bits_of_clear(clear);
        }
    }
    for pass in graph.passes.iter_mut() {
        for c in &mut pass.color {
            if let (true, Some(clear)) =
                (stand_in.iter().any(|&(s, _)| s == c.resource), &mut c.clear)
            {
                bits_of_clear(clear);
            }
        }
    }
    Ok(())
}

/// A colour clear of floats → one holding each float's bits, which an unsigned-integer clear
/// stores unchanged.
fn bits_of_clear(clear: &mut ClearValue) {
    if let ClearValue::Color(channels) = clear {
        for c in channels {
            *c = f64::from((*c as f32).to_bits());
        }
    }
}
