//! Each frame's description compiled, and every attachment's ops as the app recorded them set
//! beside the plan's, with the bytes between them (DESIGN 5's model): **proven from the trace**
//! (the plan of the app's own accesses) apart from **if every pixel is written** (each Clear or
//! Load replaced by DontCare on its own, which a trace cannot show is safe).

use serde_json::Value;
use tilegraph::decl::ResourceKind;
use tilegraph::plan::{AttachmentPlan, Group, LoadOp, StoreOp};
use tilegraph::{ClearValue, CompileOptions, CompiledGraph, PassId, RenderGraph, Subresource};

use super::TraceError;
use super::describe::Described;
use super::model::{AppLoad, Attachment, Model, PassKind};
use super::read::Trace;

/// Load, store and resolve of one attachment in one pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ops {
    /// `clear`, `load`, `dont_care`, `read_only`; in a plan also `tile` (kept on tile from the
    /// group's previous pass) or `culled`.
    pub load: &'static str,
    /// `store`, `discard`, `none`; in a plan also `tile` (stays on tile for the group's next
    /// pass) or `culled`.
    pub store: &'static str,
    /// The attachment is resolved at the end of the pass.
    pub resolve: bool,
}

/// One attachment of one pass.
#[derive(Debug, Clone)]
pub struct Row {
    /// The pass (its name in the rebuilt description).
    pub pass: String,
    /// The resource, with `@mip` / `#layer` where the texture has several.
    pub resource: String,
    /// The app's ops.
    pub app: Ops,
    /// The proven plan's ops.
    pub plan: Ops,
    /// Bytes the app's ops move for this attachment a frame (load, store, resolve).
    pub app_bytes: u64,
    /// Bytes the plan's ops move.
    pub plan_bytes: u64,
    /// If the pass writes every pixel of this attachment: the plan's load then, and the bytes
    /// a frame that saves against the proven plan. `None` where the app's op is neither a
    /// Clear nor a Load, or the attachment is read-only.
    pub if_covered: Option<(&'static str, u64)>,
    /// Where the attachment is in the trace: the `Submit` action, the render pass's place among
    /// that submission's render passes, and the colour attachment's place among the pass's
    /// colour attachments (`None`: its depth-stencil attachment); all from 0.
    pub at: (usize, usize, Option<usize>),
    /// The plan's clear value where its load is `clear`.
    pub plan_clear: Option<ClearValue>,
}

/// One frame's report.
pub struct FrameReport {
    /// The frame's number, from 0.
    pub index: usize,
    /// Its `Submit` actions.
    pub actions: Vec<usize>,
    /// The rebuilt description (`--emit-graph`).
    pub description: Value,
    /// The proven plan.
    pub plan: CompiledGraph,
    /// Every attachment of every render pass, in order.
    pub rows: Vec<Row>,
    /// Bytes a frame the app's ops move.
    pub app_bytes: u64,
    /// Bytes a frame the proven plan moves.
    pub plan_bytes: u64,
    /// Bytes a frame the naive plan moves (DESIGN 5).
    pub naive_bytes: u64,
    /// The sum of the rows' `if_covered` savings (each alone).
    pub if_covered_bytes: u64,
    /// Textures the plan makes memoryless (`transient`).
    pub transient: Vec<String>,
    /// Render groups of more than one pass: passes that run as one render pass.
    pub merged: Vec<Vec<String>>,
    /// Passes whose results nothing reads.
    pub culled: Vec<String>,
}

/// A trace's report.
pub struct Report {
    /// The trace's directory.
    pub dir: std::path::PathBuf,
    /// Actions in `trace.ron`.
    pub actions: usize,
    /// `trace.ron` lacked its closing bracket.
    pub unfinished: bool,
    /// Every frame with passes.
    pub frames: Vec<FrameReport>,
    /// Submissions numbered but missing from the trace, with the action before which each is
    /// missing: empty ones, or ones wgpu 30 could not record (`LoadOp::DontCare`).
    pub unrecorded: Vec<(usize, u64)>,
}

impl Report {
    /// Bytes a frame over every frame: (app, proven plan, naive, if every pixel is written).
    pub fn totals(&self) -> (u64, u64, u64, u64) {
        self.frames.iter().fold((0, 0, 0, 0), |t, f| {
            (
                t.0 + f.app_bytes,
                t.1 + f.plan_bytes,
                t.2 + f.naive_bytes,
                t.3 + f.if_covered_bytes,
            )
        })
    }
}

/// Compiles and compares every frame that has passes.
pub fn report(
    trace: &Trace,
    model: &Model,
    described: Vec<Described>,
    fps: u32,
) -> Result<Report, TraceError> {
    let mut frames = Vec::new();
    for (index, d) in described.into_iter().enumerate() {
        let frame = &model.frames[index];
        if frame.passes.is_empty() {
            continue;
        }
        let action = frame.actions.first().copied().unwrap_or(0);
        let options = CompileOptions::default().with_fps(fps);
        let plan = compile(&d.json, &options).map_err(|error| TraceError::Graph {
            frame: index,
            action,
            error: Box::new(error),
        })?;
        frames.push(frame_report(model, index, d, plan, fps)?);
    }
    Ok(Report {
        dir: trace.dir.clone(),
        actions: trace.actions.len(),
        unfinished: trace.unfinished,
        frames,
        unrecorded: model.unrecorded.clone(),
    })
}

fn compile(json: &Value, options: &CompileOptions) -> Result<CompiledGraph, tilegraph::GraphError> {
    RenderGraph::from_json(&json.to_string())?.compile(options)
}

/// Compile options that take every `write` as covering its target.
fn covered_options(fps: u32) -> CompileOptions {
    // SAFETY: only for the "if every pixel is written" figures, which say they assume it; the
    // plan is never recorded.
    CompileOptions::default()
        .with_fps(fps)
        .with_dont_care(unsafe { tilegraph::wgpu::LoadOpDontCare::enabled() })
}

fn frame_report(
    model: &Model,
    index: usize,
    d: Described,
    plan: CompiledGraph,
    fps: u32,
) -> Result<FrameReport, TraceError> {
    let frame = &model.frames[index];
    let mut rows = Vec::new();
    let mut ordinal = (usize::MAX, 0);
    for (p, pass) in frame.passes.iter().enumerate() {
        if pass.kind != PassKind::Render {
            continue;
        }
        // The render pass's place among its submission's render passes.
        ordinal = if ordinal.0 == pass.action {
            (pass.action, ordinal.1 + 1)
        } else {
            (pass.action, 0)
        };
        let name = &d.pass_names[p];
        let attachments = pass.color.iter().enumerate().map(|(s, a)| (a, Some(s)));
        for (a, slot) in attachments.chain(pass.depth.iter().map(|a| (a, None))) {
            let resource = model.textures[a.range.texture].name.clone();
            let sub = Subresource {
                mip: a.range.mips.0,
                layer: a.range.layers.0,
            };
            let (plan_ops, plan_bytes, plan_clear) = plan_ops(&plan, &d, name, &resource, sub);
            let app_bytes = app_bytes(&plan, model, a, &resource, sub);
            let if_covered = if_covered(&d, p, slot, a, plan.traffic().bytes_per_frame, fps);
            rows.push(Row {
                pass: name.clone(),
                resource: plan
                    .resource_id(&resource)
                    .map_or(resource.clone(), |r| plan.subresource_name(r, Some(sub))),
                app: app_ops(a),
                plan: plan_ops,
                app_bytes,
                plan_bytes,
                if_covered,
                at: (pass.action, ordinal.1, slot),
                plan_clear,
            });
        }
    }
    let traffic = plan.traffic();
    let transient = plan
        .resources()
        .iter()
        .enumerate()
        .filter(|(_, r)| r.transient)
        .map(|(i, _)| plan.resource_name(tilegraph::ResourceId::new(i)).to_owned())
        .collect();
    let merged = plan
        .groups()
        .iter()
        .filter(|g| g.passes.len() > 1)
        .map(|g| {
            g.passes
                .iter()
                .map(|&p| plan.pass_name(p).to_owned())
                .collect()
        })
        .collect();
    let culled = plan
        .passes()
        .iter()
        .enumerate()
        .filter(|(_, p)| p.culled)
        .map(|(i, _)| plan.pass_name(PassId::new(i)).to_owned())
        .collect();
    Ok(FrameReport {
        index,
        actions: frame.actions.clone(),
        description: d.json,
        app_bytes: rows.iter().map(|r| r.app_bytes).sum(),
        plan_bytes: traffic.bytes_per_frame,
        naive_bytes: traffic.naive_bytes_per_frame,
        if_covered_bytes: rows.iter().filter_map(|r| r.if_covered.map(|c| c.1)).sum(),
        rows,
        plan,
        transient,
        merged,
        culled,
    })
}

fn load_name(load: AppLoad) -> &'static str {
    match load {
        AppLoad::Clear(_) => "clear",
        AppLoad::Load => "load",
        AppLoad::DontCare => "dont_care",
        AppLoad::ReadOnly => "read_only",
    }
}

/// The app's ops; a depth-stencil attachment's load is the dearer of its aspects'.
fn app_ops(a: &Attachment) -> Ops {
    let mut load = a.load;
    let mut store = a.store;
    if let Some((s_load, s_store)) = a.stencil {
        if s_load == AppLoad::Load || (load != AppLoad::Load && s_load == AppLoad::ReadOnly) {
            load = s_load;
        }
        store |= s_store;
    }
    Ops {
        load: load_name(load),
        store: match (load, store) {
            (AppLoad::ReadOnly, _) => "none",
            (_, true) => "store",
            (_, false) => "discard",
        },
        resolve: a.resolve.is_some(),
    }
}

/// Bytes of one subresource of a texture of the plan, at its samples or at one.
fn sub_bytes(plan: &CompiledGraph, resource: &str, mip: u32, one_sample: bool) -> u64 {
    let Some(id) = plan.resource_id(resource) else {
        return 0;
    };
    let ResourceKind::Texture(t) = plan.resource_decl(id).kind else {
        return 0;
    };
    let bytes = t.subresource_bytes(mip).unwrap_or(0);
    if one_sample {
        bytes / u64::from(t.samples.max(1))
    } else {
        bytes
    }
}

/// The app's bytes for one attachment, as the plan's traffic counts them: a load, a store, a
/// resolve (a read-only depth: its load and the backend's store).
fn app_bytes(
    plan: &CompiledGraph,
    model: &Model,
    a: &Attachment,
    name: &str,
    sub: Subresource,
) -> u64 {
    let b = sub_bytes(plan, name, sub.mip, false);
    let ops = app_ops(a);
    let mut bytes = 0;
    if matches!(ops.load, "load" | "read_only") {
        bytes += b;
    }
    // A read-only depth is stored by the backend, as the plan's traffic counts it.
    if ops.store == "store" || ops.load == "read_only" {
        bytes += b;
    }
    if let Some(r) = a.resolve {
        bytes += sub_bytes(plan, &model.textures[r.texture].name, 0, true);
    }
    bytes
}

/// The plan's ops for one attachment of one pass: the group's load where the pass is the
/// group's first to attach it, its store where the last; `tile` between. With the bytes, and
/// the clear value where the load is a clear.
fn plan_ops(
    plan: &CompiledGraph,
    d: &Described,
    pass: &str,
    resource: &str,
    sub: Subresource,
) -> (Ops, u64, Option<ClearValue>) {
    let culled = Ops {
        load: "culled",
        store: "culled",
        resolve: false,
    };
    let (Some(pid), Some(rid)) = (plan.pass_id(pass), plan.resource_id(resource)) else {
        return (culled, 0, None);
    };
    let Some(group_id) = plan.passes()[pid.index()].group else {
        return (culled, 0, None);
    };
    let group = plan.group(group_id);
    let Some(att) = group
        .attachments()
        .find(|a| a.resource == rid && a.sub == sub)
    else {
        return (culled, 0, None);
    };
    let attaching: Vec<PassId> = group
        .passes
        .iter()
        .copied()
        .filter(|&p| attaches(plan, d, p, resource, sub))
        .collect();
    let first = attaching.first() == Some(&pid);
    let last = attaching.last() == Some(&pid);
    let clear = match att.load {
        LoadOp::Clear(v) if first => Some(v),
        _ => None,
    };
    let (ops, bytes) = group_ops(plan, group, att, resource, (first, last));
    (ops, bytes, clear)
}

/// Whether pass `p` of the plan attaches `resource` at `sub` (by its description entry).
fn attaches(
    plan: &CompiledGraph,
    d: &Described,
    p: PassId,
    resource: &str,
    sub: Subresource,
) -> bool {
    let name = plan.pass_name(p);
    let Some(pass) = d.json["passes"]
        .as_array()
        .and_then(|ps| ps.iter().find(|x| x["name"] == name))
    else {
        return false;
    };
    let matches = |e: &Value| {
        e["resource"] == resource
            && e["mip"].as_u64().unwrap_or(0) == u64::from(sub.mip)
            && e["layer"].as_u64().unwrap_or(0) == u64::from(sub.layer)
    };
    pass["color"]
        .as_array()
        .is_some_and(|c| c.iter().any(matches))
        || matches(&pass["depth"])
}

fn group_ops(
    plan: &CompiledGraph,
    _group: &Group,
    att: &AttachmentPlan,
    resource: &str,
    (first, last): (bool, bool),
) -> (Ops, u64) {
    let b = sub_bytes(plan, resource, att.sub.mip, false);
    let mut bytes = 0;
    let load = if !first {
        "tile"
    } else {
        if att.load == LoadOp::Load {
            bytes += b;
        }
        att.load.as_str()
    };
    let (store, resolve) = if !last {
        ("tile", false)
    } else {
        // A read-only depth is stored by the backend (wgpu-core hands Vulkan Load + Store).
        if att.store == StoreOp::Store || att.read_only {
            bytes += b;
        }
        if let Some(r) = att.resolve {
            bytes += sub_bytes(plan, plan.resource_name(r), 0, true);
        }
        (att.store.as_str(), att.resolve.is_some())
    };
    (
        Ops {
            load,
            store,
            resolve,
        },
        bytes,
    )
}

/// If pass `p` wrote every pixel of this attachment (colour `slot`, or the depth where
/// `None`): the description with its access `write`, compiled with DontCare; the plan's load for
/// it then and the bytes that saves against the proven plan.
fn if_covered(
    d: &Described,
    p: usize,
    slot: Option<usize>,
    a: &Attachment,
    proven_bytes: u64,
    fps: u32,
) -> Option<(&'static str, u64)> {
    if !matches!(a.load, AppLoad::Clear(_) | AppLoad::Load) {
        return None;
    }
    let mut json = d.json.clone();
    let pass = &mut json["passes"][p];
    let entry = match slot {
        Some(s) => &mut pass["color"][s],
        None => &mut pass["depth"],
    };
    entry.as_object_mut()?.remove("clear");
    entry["access"] = "write".into();
    let plan = compile(&json, &covered_options(fps)).ok()?;
    let load = covered_load(&plan, &json, p, slot);
    Some((
        load,
        proven_bytes.saturating_sub(plan.traffic().bytes_per_frame),
    ))
}

/// The covered plan's load for the changed attachment.
fn covered_load(plan: &CompiledGraph, json: &Value, p: usize, slot: Option<usize>) -> &'static str {
    let pass = &json["passes"][p];
    let entry = match slot {
        Some(s) => &pass["color"][s],
        None => &pass["depth"],
    };
    let name = pass["name"].as_str().unwrap_or_default();
    let resource = entry["resource"].as_str().unwrap_or_default();
    let sub = Subresource {
        mip: entry["mip"].as_u64().unwrap_or(0) as u32,
        layer: entry["layer"].as_u64().unwrap_or(0) as u32,
    };
    let described = Described {
        json: json.clone(),
        pass_names: Vec::new(),
    };
    plan_ops(plan, &described, name, resource, sub).0.load
}
