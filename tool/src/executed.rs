//! The render passes an execute mode records, as JSON: what a check of a driver's command stream
//! compares with (`tools/tilers`).
//!
//! One entry per render group in recording order, with the groups of the mode actually recorded
//! ([`ExecuteMode::plan_to_record`]: the naive groups of the declared order for
//! [`ExecuteMode::Naive`], the plan's groups for `Planned`), and per attachment what wgpu is handed: the resource, its
//! format, size at that mip, samples, and the load, store and resolve. A multiview group lists
//! each slot once (one array attachment for all views). Planned groups also carry the tile
//! report's Adreno 630, 650, 660 and 740 entries (`"adreno"`: driver, bins, bin, first frame), so a check can hold
//! the model to what the driver did.

use serde_json::{Value, json};
use tilegraph::decl::{PassKind, ResourceKind};
use tilegraph::plan::{AttachmentPlan, GroupId, TileDetail, TileProfile};
use tilegraph::{CompiledGraph, ExecuteMode};

/// The recorded render passes of `mode` as a JSON document: `{"mode", "groups": [...]}`.
pub fn to_json(plan: &CompiledGraph, mode: ExecuteMode) -> String {
    let plan = mode.plan_to_record(plan);
    let (label, groups) = match mode {
        ExecuteMode::Naive => ("naive", plan.naive_groups()),
        ExecuteMode::Planned => ("planned", plan.groups()),
        _ => ("poison", plan.groups()),
    };
    let decls = plan.resource_decls();
    let attachment = |a: &AttachmentPlan| {
        let decl = &decls[a.resource.index()];
        let (format, width, height, samples) = match &decl.kind {
            ResourceKind::Texture(t) => (
                format!("{:?}", t.format),
                (t.width >> a.sub.mip).max(1),
                (t.height >> a.sub.mip).max(1),
                t.samples,
            ),
            _ => (String::new(), 0, 0, 0),
        };
        json!({
            "resource": plan.resource_name(a.resource),
            "mip": a.sub.mip,
            "layer": a.sub.layer,
            "format": format,
            "width": width,
            "height": height,
            "samples": samples,
            "load": a.load.as_str(),
            "store": a.store.as_str(),
            "resolve": a.resolve.map(|r| plan.resource_name(r)),
            "read_only": a.read_only,
        })
    };
    let render: Vec<Value> = groups
        .iter()
        .enumerate()
        .filter(|(_, g)| g.kind == PassKind::Render)
        .map(|(index, g)| {
            let views = g.views() as usize;
            let adreno = |profile: TileProfile| {
                let fit = plan.tile_fit(GroupId::new(index), profile)?;
                let TileDetail::Adreno {
                    driver,
                    bins,
                    bin,
                    first_frame,
                    ..
                } = fit.detail
                else {
                    return None;
                };
                Some(json!({
                    "driver": driver,
                    "bins": bins,
                    "bin": bin.map(|(w, h)| [w, h]),
                    "fits": fit.fits,
                    "first_frame": first_frame.as_str(),
                }))
            };
            let report = (label == "planned").then(|| {
                json!({
                    "630": adreno(TileProfile::Adreno630),
                    "650": adreno(TileProfile::Adreno650),
                    "660": adreno(TileProfile::Adreno660),
                    "740": adreno(TileProfile::Adreno740),
                })
            });
            json!({
                "index": index,
                "passes": g.passes.iter().map(|&p| plan.pass_name(p)).collect::<Vec<_>>(),
                "multiview": g.multiview,
                "color": g.color.iter().step_by(views).map(attachment).collect::<Vec<_>>(),
                "depth": g.depth.as_ref().map(attachment),
                "adreno": report,
            })
        })
        .collect();
    serde_json::to_string_pretty(&json!({"mode": label, "groups": render}))
        .expect("JSON of plain values")
}
