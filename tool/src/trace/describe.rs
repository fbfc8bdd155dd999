//! A frame of a trace as a graph description (DESIGN 3): its textures as resources, imports
//! where contents cross the frame's edges, passes with the app's ops as accesses.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::TraceError;
use super::model::{AppLoad, Attachment, Frame, Model, PassKind, Range, Use, UseKind};

/// How a pass touches a texture, for the contents that cross frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Touch {
    /// Needs the prior contents (a load, a sample, a copy from it, a partial write).
    Read,
    /// Replaces every texel of the texture (a clear, don't-care or whole copy of all of it).
    Write,
}

/// What the rebuilt description says of one texture.
#[derive(Debug, Clone, Copy, Default)]
pub struct Import {
    /// The frame reads contents an earlier frame or upload left.
    pub preserved: bool,
    /// A later frame reads (or the frame presents) what this frame leaves.
    pub keep: bool,
    /// The frame's first touch loads an attachment nothing has written: wgpu zero-fills it,
    /// which the description says with a zero clear value.
    pub zero_filled: bool,
}

/// A frame's description and what the report needs to tie it back to the trace.
pub struct Described {
    pub json: Value,
    /// Each pass's name in the description, in the frame's order.
    pub pass_names: Vec<String>,
}

/// Every texture's touches, frame by frame: `(frame, touch)` in order.
fn touches(model: &Model) -> Vec<Vec<(usize, Touch)>> {
    let mut out = vec![Vec::new(); model.textures.len()];
    for (f, frame) in model.frames.iter().enumerate() {
        for &t in &frame.uploads {
            // An upload may cover part of the texture: what it leaves needs what was there.
            out[t].push((f, Touch::Read));
        }
        for (t, touch) in frame_touches(model, frame) {
            out[t].push((f, touch));
        }
        for &t in &frame.presented {
            out[t].push((f, Touch::Read));
        }
    }
    out
}

/// The frame's passes' touches in order (without uploads and presents).
fn frame_touches(model: &Model, frame: &Frame) -> Vec<(usize, Touch)> {
    let whole = |r: &Range| {
        let t = &model.textures[r.texture];
        r.mips == (0, t.mips) && r.layers == (0, t.size.2)
    };
    let mut out = Vec::new();
    for pass in &frame.passes {
        for a in pass.color.iter().chain(&pass.depth) {
            let overwrites = matches!(a.load, AppLoad::Clear(_) | AppLoad::DontCare)
                && a.stencil
                    .is_none_or(|s| matches!(s.0, AppLoad::Clear(_) | AppLoad::DontCare));
            let touch = if overwrites && whole(&a.range) {
                Touch::Write
            } else {
                Touch::Read
            };
            out.push((a.range.texture, touch));
        }
        for u in &pass.uses {
            if let Use::Texture(r, kind) = u {
                let writes = matches!(kind, UseKind::CopyDst | UseKind::StorageWrite);
                let touch = if writes && whole(r) {
                    Touch::Write
                } else {
                    Touch::Read
                };
                out.push((r.texture, touch));
            }
        }
        for a in &pass.color {
            if let Some(r) = a.resolve {
                let touch = if whole(&r) { Touch::Write } else { Touch::Read };
                out.push((r.texture, touch));
            }
        }
    }
    out
}

/// Every frame's description, in order.
pub fn describe_all(model: &Model) -> Result<Vec<Described>, TraceError> {
    let history = touches(model);
    (0..model.frames.len())
        .map(|f| describe(model, &history, f))
        .collect()
}

/// The imports of frame `f`; a sample or copy of contents nothing wrote is an error.
fn imports(
    model: &Model,
    history: &[Vec<(usize, Touch)>],
    f: usize,
) -> Result<BTreeMap<usize, Import>, TraceError> {
    let frame = &model.frames[f];
    let mut out: BTreeMap<usize, Import> = BTreeMap::new();
    for (t, _) in frame_touches(model, frame) {
        if out.contains_key(&t) {
            continue;
        }
        let events = &history[t];
        let written_before = events.iter().any(|&(g, _)| g < f) || frame.uploads.contains(&t);
        let first = frame_touches(model, frame)
            .into_iter()
            .find(|&(u, _)| u == t)
            .map(|(_, touch)| touch);
        let reads_first = first == Some(Touch::Read);
        let surface = model.textures[t].surface;
        let mut preserved = reads_first && written_before && !surface;
        let mut zero_filled = reads_first && !preserved;
        if zero_filled && !surface && !check_attachment_read(model, frame, t, f)? {
            // A sample or copy of wgpu's zero-fill, of a texture the trace writes later (a
            // history texture's first frame): those zeros are the contents it reads.
            (preserved, zero_filled) = (true, false);
        }
        let next = events
            .iter()
            .find(|&&(g, _)| g > f)
            .map(|&(_, touch)| touch);
        let keep = surface || frame.presented.contains(&t) || next == Some(Touch::Read);
        out.insert(
            t,
            Import {
                preserved,
                keep,
                zero_filled,
            },
        );
    }
    Ok(out)
}

/// A texture the frame reads before anything wrote it: `true` where the first read is an
/// attachment's load (wgpu's zero-fill stands in for it, a zero clear in the description),
/// `false` where it is a sample or copy of a texture the trace writes elsewhere; an error where
/// nothing in the trace ever writes it.
fn check_attachment_read(
    model: &Model,
    frame: &Frame,
    texture: usize,
    f: usize,
) -> Result<bool, TraceError> {
    for pass in &frame.passes {
        let attached = pass
            .color
            .iter()
            .chain(&pass.depth)
            .any(|a| a.range.texture == texture);
        if attached {
            return Ok(true);
        }
        for u in &pass.uses {
            if let Use::Texture(r, kind) = u
                && r.texture == texture
                && matches!(kind, UseKind::Sample | UseKind::CopySrc)
            {
                if written_anywhere(model, texture) {
                    return Ok(false);
                }
                return Err(TraceError::ReadNeverWritten {
                    action: pass.action,
                    frame: f,
                    texture: model.textures[texture].name.clone(),
                });
            }
        }
    }
    Ok(false)
}

/// Whether any pass or upload of the trace writes the texture.
fn written_anywhere(model: &Model, texture: usize) -> bool {
    model.frames.iter().any(|frame| {
        frame.uploads.contains(&texture)
            || frame.passes.iter().any(|p| {
                let attached = p.color.iter().chain(&p.depth).any(|a| {
                    a.range.texture == texture || a.resolve.is_some_and(|r| r.texture == texture)
                });
                let written = p.uses.iter().any(|u| {
                    matches!(u, Use::Texture(r, UseKind::CopyDst | UseKind::StorageWrite | UseKind::StorageReadWrite) if r.texture == texture)
                });
                attached || written
            })
    })
}

fn describe(
    model: &Model,
    history: &[Vec<(usize, Touch)>],
    f: usize,
) -> Result<Described, TraceError> {
    let frame = &model.frames[f];
    let imports = imports(model, history, f)?;
    let mut resources = Vec::new();
    for (&t, import) in &imports {
        resources.push(texture_resource(model, t, import));
    }
    let mut buffers: Vec<usize> = frame
        .passes
        .iter()
        .flat_map(|p| &p.uses)
        .filter_map(|u| match u {
            Use::Buffer(b, _) => Some(*b),
            Use::Texture(..) => None,
        })
        .collect();
    buffers.sort_unstable();
    buffers.dedup();
    for b in buffers {
        let buffer = &model.buffers[b];
        // Buffers carry no attachment traffic: each keeps what it had and what it gets.
        resources.push(
            json!({"name": buffer.name, "buffer": {"size": buffer.size.max(4)},
            "import": {"contents": "preserved", "after": "keep"}}),
        );
    }
    let mut names: BTreeMap<String, u32> = BTreeMap::new();
    let mut passes = Vec::new();
    let mut pass_names = Vec::new();
    for pass in &frame.passes {
        let n = names.entry(pass.label.clone()).or_insert(0);
        *n += 1;
        let name = if *n == 1 {
            pass.label.clone()
        } else {
            format!("{}.{n}", pass.label)
        };
        passes.push(pass_json(model, pass, &name));
        pass_names.push(name);
    }
    Ok(Described {
        json: json!({"resources": resources, "passes": passes}),
        pass_names,
    })
}

fn texture_resource(model: &Model, t: usize, import: &Import) -> Value {
    let tex = &model.textures[t];
    let size = if tex.size.2 > 1 {
        json!([tex.size.0, tex.size.1, tex.size.2])
    } else {
        json!([tex.size.0, tex.size.1])
    };
    let mut r = json!({"name": tex.name, "texture": {"format": tex.format, "size": size,
        "samples": tex.samples, "mips": tex.mips}});
    if import.preserved || import.keep {
        r["import"] = json!({
            "contents": if import.preserved { "preserved" } else { "undefined" },
            "after": if import.keep { "keep" } else { "discard" },
        });
    }
    if import.zero_filled {
        r["clear"] = zero_clear(tex.format);
    }
    r
}

/// wgpu's zero-fill as a clear value of the format.
fn zero_clear(format: tilegraph::wgpu::TextureFormat) -> Value {
    if !format.is_depth_stencil_format() {
        json!([0, 0, 0, 0])
    } else if format.has_stencil_aspect() && format.has_depth_aspect() {
        json!({"depth": 0.0, "stencil": 0})
    } else if format.has_depth_aspect() {
        json!(0.0)
    } else {
        json!({"stencil": 0})
    }
}

fn pass_json(model: &Model, pass: &super::model::Pass, name: &str) -> Value {
    let kind = match pass.kind {
        PassKind::Render => "render",
        PassKind::Compute => "compute",
        PassKind::Copy => "copy",
    };
    let mut p = json!({"name": name, "type": kind});
    if pass.kind == PassKind::Render {
        let color: Vec<Value> = pass
            .color
            .iter()
            .map(|a| attachment_json(model, a, false))
            .collect();
        p["color"] = json!(color);
        if let Some(d) = &pass.depth {
            p["depth"] = attachment_json(model, d, true);
        }
    }
    let mut lists: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
    for (kind, entry) in merged_uses(model, &pass.uses) {
        lists.entry(kind.list()).or_default().push(entry);
    }
    for (list, entries) in lists {
        p[list] = json!(entries);
    }
    p
}

/// A pass's uses as list entries, one per resource and kind (ranges joined).
fn merged_uses(model: &Model, uses: &[Use]) -> Vec<(UseKind, Value)> {
    let mut textures: BTreeMap<(usize, UseKind), Range> = BTreeMap::new();
    let mut buffers: BTreeMap<(usize, UseKind), ()> = BTreeMap::new();
    for u in uses {
        match *u {
            Use::Texture(r, kind) => {
                textures
                    .entry((r.texture, kind))
                    .and_modify(|m| *m = join(*m, r))
                    .or_insert(r);
            }
            Use::Buffer(b, kind) => {
                buffers.insert((b, kind), ());
            }
        }
    }
    let mut out = Vec::new();
    for ((t, kind), r) in textures {
        let tex = &model.textures[t];
        let name = &tex.name;
        let entry = if r.mips == (0, tex.mips) && r.layers == (0, tex.size.2) {
            json!(name)
        } else {
            json!({"resource": name, "mips": [r.mips.0, r.mips.1], "layers": [r.layers.0, r.layers.1]})
        };
        out.push((kind, entry));
    }
    for (b, kind) in buffers.into_keys() {
        out.push((kind, json!(model.buffers[b].name)));
    }
    out
}

fn join(a: Range, b: Range) -> Range {
    let span = |x: (u32, u32), y: (u32, u32)| {
        let first = x.0.min(y.0);
        (first, (x.0 + x.1).max(y.0 + y.1) - first)
    };
    Range {
        texture: a.texture,
        mips: span(a.mips, b.mips),
        layers: span(a.layers, b.layers),
    }
}

/// An attachment with the app's op as its access.
fn attachment_json(model: &Model, a: &Attachment, depth: bool) -> Value {
    let tex = &model.textures[a.range.texture];
    let (load, stencil) = (a.load, a.stencil.map(|s| s.0));
    let ops = [Some(load), stencil];
    let ops = ops.iter().flatten();
    let access = if ops.clone().all(|l| *l == AppLoad::ReadOnly) {
        "read"
    } else if ops
        .clone()
        .any(|l| matches!(l, AppLoad::Load | AppLoad::ReadOnly))
    {
        "read_write"
    } else if ops.clone().any(|l| matches!(l, AppLoad::Clear(_))) {
        "clear"
    } else {
        "write"
    };
    let mut e = json!({"resource": tex.name, "access": access});
    if a.range.mips.0 > 0 {
        e["mip"] = json!(a.range.mips.0);
    }
    if a.range.layers.0 > 0 {
        e["layer"] = json!(a.range.layers.0);
    }
    if access == "clear" {
        let value = |l: Option<AppLoad>| match l {
            Some(AppLoad::Clear(v)) => Some(v),
            _ => None,
        };
        e["clear"] = if !depth {
            let v = value(Some(load)).unwrap_or_default();
            json!(v)
        } else {
            let d = value(Some(load)).map(|v| v[0]);
            let s = value(stencil).map(|v| v[0]);
            match (
                tex.format.has_depth_aspect(),
                tex.format.has_stencil_aspect(),
            ) {
                (true, true) => json!({"depth": d.unwrap_or(1.0), "stencil": s.unwrap_or(0.0)}),
                (true, false) => json!(d.unwrap_or(1.0)),
                _ => json!({"stencil": s.unwrap_or(0.0)}),
            }
        };
    }
    if let Some(r) = a.resolve {
        e["resolve"] = json!(model.textures[r.texture].name);
    }
    e
}
