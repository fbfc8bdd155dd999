//! Multiview render passes: a pass whose attachments have layers renders them as views.

use serde_json::{Value, json};

use super::Decoder;

/// Multiview (the guide): a render pass whose attachments all have layers from theirs on
/// sometimes renders them as views, two or more, so the layers after the first are written by
/// one pass and read by others one at a time; rarely more views than the layers have
/// (`invalid_subresource`) or one view (`invalid_access`).
pub(super) fn multiview(d: &mut Decoder<'_, '_>, passes: &mut [Value]) {
    for pass in passes.iter_mut() {
        if pass["type"] != "render" {
            continue;
        }
        let color = pass["color"].as_array().cloned().unwrap_or_default();
        let attached = color.iter().chain(pass.get("depth"));
        let spare = attached
            .map(|e| {
                let texture = d
                    .res
                    .iter()
                    .find(|r| r.name == e["resource"].as_str().unwrap_or(""))
                    .and_then(|r| r.texture);
                let layer = e["layer"].as_u64().unwrap_or(0) as u32;
                texture.map_or(0, |t| t.layers.saturating_sub(layer))
            })
            .min()
            .unwrap_or(0);
        if spare >= 2 && d.c.chance(45) {
            let views = match d.c.weighted(&[90, 5, 5]) {
                0 => 2 + d.c.below(spare as usize - 1) as u32,
                1 => spare + 1,
                _ => 1,
            };
            pass["multiview"] = json!(views);
            name_the_layers_read(d, pass);
        }
    }
}

/// In a multiview pass, a `sample` or `input` entry of one subresource of a texture of several
/// layers must say its layer (the guide): an absent one, meaning layer 0, is said.
fn name_the_layers_read(d: &Decoder<'_, '_>, pass: &mut Value) {
    for list in ["sample", "input"] {
        let Some(entries) = pass.get_mut(list).and_then(Value::as_array_mut) else {
            continue;
        };
        for e in entries.iter_mut().filter(|e| e.is_object()) {
            let layered = d
                .res
                .iter()
                .find(|r| r.name == e["resource"].as_str().unwrap_or(""))
                .and_then(|r| r.texture)
                .is_some_and(|t| t.layers > 1);
            let ranged = e.get("mips").is_some() || e.get("layers").is_some();
            if layered && !ranged && e.get("layer").is_none() {
                e["layer"] = json!(0);
            }
        }
    }
}
