//! The plan as JSON ([guide](crate::guide#plan-json)).

use serde::Serialize;

use super::per_slot;
use crate::decl::pass::PassKind;
use crate::ids::{GroupId, PhysicalId};
use crate::ids::{PassId, ResourceId};
use crate::options::PlanLimits;
use crate::plan::{
    AttachmentPlan, CompiledGraph, Group, Memory, Restructuring, Traffic, TransientBlock,
};
use crate::tile::{TileDetail, TileFit};

#[derive(Serialize)]
struct PlanJson<'p> {
    passes: Vec<PassJson<'p>>,
    groups: Vec<GroupJson<'p>>,
    order: Vec<&'p str>,
    restructure: Vec<RestructureJson<'p>>,
    resources: Vec<ResourceJson<'p>>,
    traffic: &'p Traffic,
    required_limits: PlanLimits,
    memory: Memory,
    warnings: Vec<WarningJson<'p>>,
}

#[derive(Serialize)]
struct PassJson<'p> {
    name: &'p str,
    culled: bool,
    group: Option<GroupId>,
    needed_by: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    folded_into: Option<&'p str>,
}

#[derive(Serialize)]
struct RestructureJson<'p> {
    kind: &'static str,
    pass: &'p str,
    #[serde(skip_serializing_if = "Option::is_none")]
    joins: Option<&'p str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    resource: Option<&'p str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    into: Option<&'p str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<&'p str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    ahead: Vec<&'p str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    after: Vec<&'p str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    saved_bytes: Option<u64>,
    reason: String,
}

#[derive(Serialize)]
struct GroupJson<'p> {
    index: usize,
    #[serde(rename = "type")]
    kind: &'static str,
    passes: Vec<&'p str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    color: Option<Vec<ColorJson<'p>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<Option<DepthJson<'p>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    multiview: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    color_bytes_per_sample: Option<u32>,
    #[serde(rename = "break")]
    break_reason: &'static str,
    /// The tile profiles asked for, on render groups.
    #[serde(skip_serializing_if = "Option::is_none")]
    tile: Option<Vec<TileJson>>,
    /// Up to three changes that would save bytes, the largest first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    advice: Vec<AdviceJson<'p>>,
}

/// A piece of advice: what, about which resources and pass, and the bytes saved.
#[derive(Serialize)]
struct AdviceJson<'p> {
    kind: &'static str,
    resources: Vec<&'p str>,
    pass: Option<&'p str>,
    /// `memory` or `frame`: what `bytes` are bytes of.
    per: &'static str,
    bytes: u64,
    message: String,
}

/// One group on one tile profile: the common fields, then the profile's own.
#[derive(Serialize)]
struct TileJson {
    profile: String,
    bytes_per_pixel: u64,
    /// A multiview group: its views, and the figure per view and for all views.
    #[serde(skip_serializing_if = "Option::is_none")]
    views: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bytes_per_view: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bytes_all_views: Option<u64>,
    budget: u64,
    fits: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    tile: Option<[u32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tiles: Option<u64>,
    /// Adreno: the driver whose rules the entry follows.
    #[serde(skip_serializing_if = "Option::is_none")]
    driver: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bins: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bin: Option<[u32; 2]>,
    /// Why the bin has its size, in words ([`TileFit::bin_reason`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    bin_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    may_be_direct: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    first_frame: Option<&'static str>,
    /// On an Adreno group the driver may render to memory: what the plan's ops save there, which
    /// a render to memory does not realise.
    #[serde(skip_serializing_if = "Option::is_none")]
    ops_saved_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    memoryless: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spilled: Option<Vec<u32>>,
    consequence: String,
}

impl TileJson {
    /// `ops_saved` is the group's [`CompiledGraph::ops_saved_bytes`], `views` its view count.
    fn of(fit: TileFit, ops_saved: u64, views: u32) -> Self {
        let per_view = super::per_view_bytes(&fit, views);
        let mut json = TileJson {
            profile: fit.profile.name().to_owned(),
            bytes_per_pixel: fit.bytes_per_pixel,
            views: per_view.map(|_| views),
            bytes_per_view: per_view.map(|(one, _)| one),
            bytes_all_views: per_view.map(|(_, all)| all),
            budget: fit.budget,
            fits: fit.fits,
            tile: None,
            tiles: None,
            driver: None,
            bins: None,
            bin: None,
            may_be_direct: None,
            first_frame: None,
            ops_saved_bytes: None,
            memoryless: None,
            spilled: None,
            consequence: format!("model: {}", fit.consequence()),
            bin_reason: fit.bin_reason(),
        };
        match fit.detail {
            TileDetail::Mali {
                width,
                height,
                tiles,
            } => {
                json.tile = Some([width, height]);
                json.tiles = Some(tiles);
            }
            TileDetail::Adreno {
                driver,
                bins,
                bin,
                may_be_direct,
                first_frame,
                ..
            } => {
                json.driver = Some(driver);
                json.bins = Some(bins);
                json.bin = bin.map(|(w, h)| [w, h]);
                json.may_be_direct = Some(may_be_direct);
                json.first_frame = Some(first_frame.as_str());
                json.ops_saved_bytes = may_be_direct.then_some(ops_saved);
            }
            TileDetail::Apple { memoryless } => json.memoryless = Some(memoryless),
            TileDetail::PowerVr { spilled } => json.spilled = Some(spilled),
        }
        json
    }
}

#[derive(Serialize)]
struct ColorJson<'p> {
    resource: &'p str,
    mip: u32,
    layer: u32,
    load: &'static str,
    store: &'static str,
    resolve: Option<&'p str>,
    /// In a multiview group: the attachment's views 1 .. N, each in this shape.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    views: Vec<ColorJson<'p>>,
}

#[derive(Serialize)]
struct DepthJson<'p> {
    resource: &'p str,
    mip: u32,
    layer: u32,
    load: &'static str,
    store: &'static str,
    read_only: bool,
    /// A read-only depth: `"backend"`, which stores it (wgpu-core hands Vulkan Load + Store).
    #[serde(skip_serializing_if = "Option::is_none")]
    store_by: Option<&'static str>,
    /// In a multiview group: the attachment's views 1 .. N, each in this shape.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    views: Vec<DepthJson<'p>>,
}

#[derive(Serialize)]
struct ResourceJson<'p> {
    name: &'p str,
    culled: bool,
    transient: bool,
    first_group: Option<GroupId>,
    last_group: Option<GroupId>,
    physical: Option<PhysicalId>,
    /// Why a texture kept on tile only is allocated all the same, and its bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    transient_blocked: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    transient_blocked_bytes: Option<u64>,
}

#[derive(Serialize)]
struct WarningJson<'p> {
    kind: &'static str,
    pass: Option<&'p str>,
    resource: Option<&'p str>,
    message: String,
}

impl CompiledGraph {
    /// The plan as JSON ([guide](crate::guide#plan-json)). Byte-identical for identical inputs.
    pub fn to_json(&self) -> String {
        let rname = |r: ResourceId| self.resource_name(r);
        let plan = PlanJson {
            passes: self
                .passes
                .iter()
                .enumerate()
                .map(|(p, plan)| PassJson {
                    name: self.pass_name(PassId::new(p)),
                    culled: plan.culled,
                    group: plan.group,
                    needed_by: plan.needed_by.map(|n| {
                        n.describe(|p| self.pass_name(p).to_owned(), |r| rname(r).to_owned())
                    }),
                    folded_into: plan.folded_into.map(|p| self.pass_name(p)),
                })
                .collect(),
            groups: (self.groups.iter().enumerate())
                .map(|(index, g)| self.group_json(index, g))
                .collect(),
            order: self.order.iter().map(|&p| self.pass_name(p)).collect(),
            restructure: self
                .restructure
                .iter()
                .map(|change| self.restructure_json(change))
                .collect(),
            resources: (0..self.resources.len())
                .map(|r| self.resource_json(ResourceId::new(r)))
                .collect(),
            traffic: &self.traffic,
            required_limits: PlanLimits::of(&self.required_limits()),
            memory: self.memory(),
            warnings: self
                .warnings
                .iter()
                .map(|w| WarningJson {
                    kind: w.kind.as_str(),
                    pass: w.pass.map(|p| self.pass_name(p)),
                    resource: w.resource.map(rname),
                    message: self.warning_message(w),
                })
                .collect(),
        };
        serde_json::to_string_pretty(&plan).expect("plans always serialize")
    }

    fn depth_json(&self, a: &AttachmentPlan) -> DepthJson<'_> {
        DepthJson {
            resource: self.resource_name(a.resource),
            mip: a.sub.mip,
            layer: a.sub.layer,
            load: a.load.as_str(),
            store: a.store.as_str(),
            read_only: a.read_only,
            store_by: a.read_only.then_some("backend"),
            views: Vec::new(),
        }
    }

    fn color_json(&self, a: &AttachmentPlan) -> ColorJson<'_> {
        ColorJson {
            resource: self.resource_name(a.resource),
            mip: a.sub.mip,
            layer: a.sub.layer,
            load: a.load.as_str(),
            store: a.store.as_str(),
            resolve: a.resolve.map(|r| self.resource_name(r)),
            views: Vec::new(),
        }
    }

    fn group_json<'p>(&'p self, index: usize, g: &'p Group) -> GroupJson<'p> {
        let render = g.kind == PassKind::Render;
        GroupJson {
            index,
            kind: g.kind.as_str(),
            passes: g.passes.iter().map(|&p| self.pass_name(p)).collect(),
            color: render.then(|| {
                per_slot(&g.color, g.views(), |first, rest| ColorJson {
                    views: rest.iter().map(|a| self.color_json(a)).collect(),
                    ..self.color_json(first)
                })
            }),
            depth: render.then(|| {
                g.depth.as_ref().map(|d| DepthJson {
                    views: g.depth_views.iter().map(|a| self.depth_json(a)).collect(),
                    ..self.depth_json(d)
                })
            }),
            multiview: g.multiview,
            color_bytes_per_sample: render.then_some(g.color_bytes_per_sample),
            break_reason: g.break_reason.as_str(),
            tile: (render && !self.options.tile_set().is_empty()).then(|| {
                let id = GroupId::new(index);
                let saved = self.ops_saved_bytes(id);
                let fits = self.tile_fits(id);
                let views = g.views();
                fits.into_iter()
                    .map(|f| TileJson::of(f, saved, views))
                    .collect()
            }),
            advice: self
                .advice(GroupId::new(index))
                .iter()
                .map(|a| AdviceJson {
                    kind: a.kind.as_str(),
                    resources: a.resources.iter().map(|&r| self.resource_name(r)).collect(),
                    pass: a.pass.map(|p| self.pass_name(p)),
                    per: if a.kind.saves_memory() {
                        "memory"
                    } else {
                        "frame"
                    },
                    bytes: a.bytes,
                    message: self.advice_message(a),
                })
                .collect(),
        }
    }

    fn resource_json(&self, r: ResourceId) -> ResourceJson<'_> {
        let plan = &self.resources[r.index()];
        let blocked = self.transient_blocked(r);
        ResourceJson {
            name: self.resource_name(r),
            culled: plan.culled,
            transient: plan.transient,
            first_group: plan.first_group,
            last_group: plan.last_group,
            physical: plan.physical,
            transient_blocked: blocked.map(TransientBlock::as_str),
            transient_blocked_bytes: blocked.map(|_| self.resource_bytes(r)),
        }
    }

    fn restructure_json<'p>(&'p self, change: &Restructuring) -> RestructureJson<'p> {
        let pname = |p: PassId| self.pass_name(p);
        let mut json = RestructureJson {
            kind: change.kind_str(),
            pass: pname(change.pass()),
            joins: None,
            resource: None,
            into: None,
            source: None,
            ahead: Vec::new(),
            after: Vec::new(),
            saved_bytes: None,
            reason: change.describe(
                |p| pname(p).to_owned(),
                |r| self.resource_name(r).to_owned(),
            ),
        };
        match change {
            Restructuring::Moved {
                joins,
                ahead,
                after,
                saved_bytes,
                ..
            } => {
                json.joins = Some(pname(*joins));
                json.ahead = ahead.iter().map(|&p| pname(p)).collect();
                json.after = after.iter().map(|&p| pname(p)).collect();
                json.saved_bytes = Some(*saved_bytes);
            }
            Restructuring::ResolveDropped { resource, .. } => {
                json.resource = Some(self.resource_name(*resource));
                json.saved_bytes = self.restructure_saved_bytes(change);
            }
            Restructuring::CopyFolded {
                into,
                source,
                target,
                ..
            } => {
                json.into = Some(pname(*into));
                json.resource = Some(self.resource_name(*target));
                json.source = Some(self.resource_name(*source));
            }
        }
        json
    }
}
