//! Report: the compiled plan as JSON ([guide](crate::guide#plan-json)), as a table for people,
//! and as Graphviz DOT.

use std::fmt::Write as _;

use serde::Serialize;

use crate::description::describe;
use crate::format::format_name;
use crate::ids::{GroupId, PhysicalId};
use crate::options::PlanLimits;
use crate::plan::{
    AttachmentPlan, CompiledGraph, Group, LoadOp, Memory, Restructuring, StoreOp, Traffic, Warning,
    WarningKind,
};
use crate::resource::{PassId, PassKind, ResourceId, ResourceKind, Subresource};
use crate::tile::{FirstFrame, TileDetail, TileFit, TileProfile};

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
    boundary: &'static str,
    /// The tile profiles asked for, on render groups.
    #[serde(skip_serializing_if = "Option::is_none")]
    tile: Option<Vec<TileJson>>,
}

/// One group on one tile profile: the common fields, then the profile's own.
#[derive(Serialize)]
struct TileJson {
    profile: &'static str,
    bytes_per_pixel: u64,
    budget: u64,
    fits: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    tile: Option<[u32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tiles: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bins: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bin: Option<[u32; 2]>,
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
    /// `ops_saved` is the group's [`CompiledGraph::ops_saved_bytes`].
    fn of(fit: TileFit, ops_saved: u64) -> Self {
        let mut json = TileJson {
            profile: fit.profile.name(),
            bytes_per_pixel: fit.bytes_per_pixel,
            budget: fit.budget,
            fits: fit.fits,
            tile: None,
            tiles: None,
            bins: None,
            bin: None,
            may_be_direct: None,
            first_frame: None,
            ops_saved_bytes: None,
            memoryless: None,
            spilled: None,
            consequence: format!("model: {}", fit.consequence()),
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
                bins,
                bin,
                may_be_direct,
                first_frame,
                ..
            } => {
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
        let depth_json = |a: &AttachmentPlan| DepthJson {
            resource: rname(a.resource),
            mip: a.sub.mip,
            layer: a.sub.layer,
            load: a.load.as_str(),
            store: a.store.as_str(),
            read_only: a.read_only,
            views: Vec::new(),
        };
        let color_json = |a: &AttachmentPlan| ColorJson {
            resource: rname(a.resource),
            mip: a.sub.mip,
            layer: a.sub.layer,
            load: a.load.as_str(),
            store: a.store.as_str(),
            resolve: a.resolve.map(rname),
            views: Vec::new(),
        };
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
            groups: self
                .groups
                .iter()
                .enumerate()
                .map(|(index, g)| {
                    let render = g.kind == PassKind::Render;
                    GroupJson {
                        index,
                        kind: g.kind.as_str(),
                        passes: g.passes.iter().map(|&p| self.pass_name(p)).collect(),
                        color: render.then(|| {
                            per_slot(&g.color, g.views(), |first, rest| ColorJson {
                                views: rest.iter().map(color_json).collect(),
                                ..color_json(first)
                            })
                        }),
                        depth: render.then(|| {
                            g.depth.as_ref().map(|d| DepthJson {
                                views: g.depth_views.iter().map(depth_json).collect(),
                                ..depth_json(d)
                            })
                        }),
                        multiview: g.multiview,
                        color_bytes_per_sample: render.then_some(g.color_bytes_per_sample),
                        boundary: g.boundary.as_str(),
                        tile: (render && !self.options.tile_set().is_empty()).then(|| {
                            let id = GroupId::new(index);
                            let saved = self.ops_saved_bytes(id);
                            let fits = self.tile_fits(id);
                            fits.into_iter().map(|f| TileJson::of(f, saved)).collect()
                        }),
                    }
                })
                .collect(),
            order: self.order.iter().map(|&p| self.pass_name(p)).collect(),
            restructure: self
                .restructure
                .iter()
                .map(|change| self.restructure_json(change))
                .collect(),
            resources: self
                .resources
                .iter()
                .enumerate()
                .map(|(r, plan)| ResourceJson {
                    name: rname(ResourceId::new(r)),
                    culled: plan.culled,
                    transient: plan.transient,
                    first_group: plan.first_group,
                    last_group: plan.last_group,
                    physical: plan.physical,
                })
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

    /// The plan as one self-contained HTML page (inline CSS and script, no network): passes
    /// against resources, the ops at each group's edges with the reason for each, traffic per
    /// group, warnings, search. Every name is shown as text.
    pub fn to_html(&self) -> String {
        crate::html::page(&self.explained_json())
    }

    /// `{"graph": description, "plan": plan JSON, "explain": reasons and bytes per group}`: the
    /// data the HTML page shows.
    fn explained_json(&self) -> String {
        /// An attachment's reasons, in the shape of its entry in the plan (views 1 .. N of a
        /// multiview group nested).
        #[derive(Serialize)]
        struct Reasons {
            load_reason: String,
            store_reason: String,
            #[serde(skip_serializing_if = "Vec::is_empty")]
            views: Vec<Reasons>,
        }
        #[derive(Serialize)]
        struct GroupExplain {
            bytes: u64,
            naive_bytes: u64,
            break_reason: &'static str,
            color: Vec<Reasons>,
            depth: Option<Reasons>,
        }
        let name = |p: PassId| self.pass_name(p).to_owned();
        let reasons = |a: &AttachmentPlan| Reasons {
            load_reason: a.load_reason.describe(name),
            store_reason: a.store_reason.describe(name),
            views: Vec::new(),
        };
        let bytes = |g: &crate::plan::Group| {
            crate::plan::attachment_bytes(std::slice::from_ref(g), |r, sub| {
                crate::plan::subresource_bytes(&self.resource_decls[r.index()], sub)
            })
            .unwrap_or(u64::MAX)
        };
        // The naive plan has one group per live pass.
        let mut naive_of = vec![0u64; self.passes.len()];
        for g in self.naive_groups() {
            naive_of[g.passes[0].index()] = bytes(g);
        }
        let groups: Vec<GroupExplain> = self
            .groups
            .iter()
            .map(|g| GroupExplain {
                bytes: bytes(g),
                naive_bytes: g.passes.iter().map(|p| naive_of[p.index()]).sum(),
                break_reason: g.boundary.describe(),
                color: per_slot(&g.color, g.views(), |first, rest| Reasons {
                    views: rest.iter().map(reasons).collect(),
                    ..reasons(first)
                }),
                depth: g.depth.as_ref().map(|d| Reasons {
                    views: g.depth_views.iter().map(reasons).collect(),
                    ..reasons(d)
                }),
            })
            .collect();
        let graph: serde_json::Value =
            serde_json::from_str(&describe(&self.resource_decls, &self.pass_decls))
                .expect("descriptions are JSON");
        let plan: serde_json::Value =
            serde_json::from_str(&self.to_json()).expect("plans are JSON");
        serde_json::to_string(&serde_json::json!({
            "graph": graph,
            "plan": plan,
            "explain": { "groups": groups },
        }))
        .expect("the page data serializes")
    }

    /// The plan as a table for people: groups with their passes, every op and the reason each group
    /// ended; culled passes; resource lifetimes; traffic planned against naive, per frame and second.
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        let live = self.passes.iter().filter(|p| !p.culled).count();
        let _ = writeln!(
            out,
            "{} passes ({} live, {} culled) in {} groups",
            self.passes.len(),
            live,
            self.passes.len() - live,
            self.groups.len()
        );
        let _ = writeln!(out, "\nGROUPS");
        for (g, group) in self.groups.iter().enumerate() {
            let names: Vec<&str> = group.passes.iter().map(|&p| self.pass_name(p)).collect();
            let _ = writeln!(
                out,
                "  #{g:<3} {:<7} {}",
                group.kind.as_str(),
                names.join(" + ")
            );
            if let Some(views) = group.multiview {
                let _ = writeln!(out, "         views  {views} (multiview)");
            }
            let views = group.views();
            for (i, a) in group.color.iter().enumerate() {
                let view = group.multiview.map(|_| i as u32 % views);
                let _ = writeln!(
                    out,
                    "         color  {}",
                    self.describe_attachment_of_view(a, view)
                );
            }
            for a in group.depth.iter().chain(&group.depth_views) {
                let _ = writeln!(out, "         depth  {}", self.describe_attachment(a));
            }
            if crate::backend::gles_msaa_on_tile(self, group) {
                let _ = writeln!(
                    out,
                    "         gles   multisampled colour on tile (EXT_multisampled_render_to_texture): no MSAA texture, no resolve blit"
                );
            }
            let _ = writeln!(out, "         break  {}", group.boundary.as_str());
        }
        let culled: Vec<&str> = self
            .passes
            .iter()
            .enumerate()
            .filter(|(_, p)| p.culled)
            .map(|(i, _)| self.pass_name(PassId::new(i)))
            .collect();
        if !culled.is_empty() {
            let _ = writeln!(out, "\nCULLED (results unused)\n  {}", culled.join(", "));
        }
        if !self.restructure.is_empty() {
            let _ = writeln!(
                out,
                "\nRESTRUCTURED (the declared order would move {} bytes a frame)",
                self.traffic.declared_bytes_per_frame
            );
            for change in &self.restructure {
                // A move's sentence says what it saves already.
                let saved = match change {
                    Restructuring::ResolveDropped { .. } => self
                        .restructure_saved_bytes(change)
                        .map(|b| format!(", saving {b} bytes a frame"))
                        .unwrap_or_default(),
                    _ => String::new(),
                };
                let _ = writeln!(
                    out,
                    "  {:<16} {}: {}{saved}",
                    change.kind_str(),
                    self.pass_name(change.pass()),
                    change.describe(
                        |p| self.pass_name(p).to_owned(),
                        |r| self.resource_name(r).to_owned()
                    )
                );
            }
        }
        let _ = writeln!(out, "\nNEEDED BY (why each live pass runs)");
        for &p in &self.order {
            let why = self.passes[p.index()].needed_by.map_or_else(
                || "culling is off".to_owned(),
                |n| {
                    n.describe(
                        |q| self.pass_name(q).to_owned(),
                        |r| self.resource_name(r).to_owned(),
                    )
                },
            );
            let _ = writeln!(out, "  {:<24} {why}", self.pass_name(p));
        }
        let _ = writeln!(out, "\nRESOURCES");
        let _ = writeln!(
            out,
            "  {:<24} {:<28} {:<9} {:<8} notes",
            "name", "shape", "groups", "physical"
        );
        for (r, plan) in self.resources.iter().enumerate() {
            let decl = self.resource_decl(ResourceId::new(r));
            let shape = match decl.kind {
                ResourceKind::Texture(t) => {
                    let mut s = format!("{} {}x{}", format_name(t.format), t.width, t.height);
                    if t.layers > 1 {
                        let _ = write!(s, "x{}", t.layers);
                    }
                    if t.mips > 1 {
                        let _ = write!(s, " {} mips", t.mips);
                    }
                    if t.samples > 1 {
                        let _ = write!(s, " {}x", t.samples);
                    }
                    s
                }
                ResourceKind::Buffer(b) => format!("buffer {} B", b.size),
            };
            let span = match (plan.first_group, plan.last_group) {
                (Some(f), Some(l)) => format!("{f}..{l}"),
                _ => "-".into(),
            };
            let physical = plan.physical.map_or("-".into(), |p| format!("#{p}"));
            let mut notes = Vec::new();
            if plan.culled {
                notes.push("culled");
            }
            if plan.transient {
                notes.push("transient");
            }
            if decl.import.is_some() {
                notes.push("imported");
            }
            let _ = writeln!(
                out,
                "  {:<24} {:<28} {:<9} {:<8} {}",
                decl.name,
                shape,
                span,
                physical,
                notes.join(", ")
            );
        }
        let t = &self.traffic;
        let _ = writeln!(out, "\nTRAFFIC (attachments, uncompressed, {} fps)", t.fps);
        let _ = writeln!(
            out,
            "  {:<8} {:>16} {:>20}",
            "", "bytes/frame", "bytes/second"
        );
        let _ = writeln!(
            out,
            "  {:<8} {:>16} {:>20}",
            "planned", t.bytes_per_frame, t.bytes_per_second
        );
        if !self.restructure.is_empty() {
            let _ = writeln!(
                out,
                "  {:<8} {:>16} {:>20}",
                "declared", t.declared_bytes_per_frame, t.declared_bytes_per_second
            );
        }
        let _ = writeln!(
            out,
            "  {:<8} {:>16} {:>20}",
            "naive", t.naive_bytes_per_frame, t.naive_bytes_per_second
        );
        if t.naive_bytes_per_frame > 0 {
            let saved = t.naive_bytes_per_frame - t.bytes_per_frame.min(t.naive_bytes_per_frame);
            let _ = writeln!(
                out,
                "  saved    {:>16} ({:.1}%)",
                saved,
                100.0 * saved as f64 / t.naive_bytes_per_frame as f64
            );
        }
        let _ = writeln!(
            out,
            "  sampled  {:>16} (shader reads, not counted above)",
            t.sampled_bytes_per_frame
        );
        self.first_frame_table(&mut out);
        self.tile_table(&mut out);
        if !self.warnings.is_empty() {
            let _ = writeln!(out, "\nWARNINGS");
            for w in &self.warnings {
                let _ = writeln!(out, "  {}: {}", w.kind.as_str(), self.warning_message(w));
            }
        }
        out
    }

    /// Bytes a frame a restructuring saves on its own: a move's measured saving, or the bytes
    /// a dropped resolve would have written (its target at one sample, once per view).
    fn restructure_saved_bytes(&self, change: &Restructuring) -> Option<u64> {
        match change {
            Restructuring::Moved { saved_bytes, .. } => Some(*saved_bytes),
            Restructuring::ResolveDropped { pass, resource, .. } => {
                let ResourceKind::Texture(t) = self.resource_decl(*resource).kind else {
                    return None;
                };
                let views = u64::from(self.pass_decl(*pass).views());
                t.subresource_bytes(0)?.checked_mul(views)
            }
            Restructuring::CopyFolded { .. } => None,
        }
    }

    /// The TRAFFIC section's lines for each Adreno profile asked for: the render groups turnip
    /// may render straight to memory on their first frame, and what the plan's ops save there.
    fn first_frame_table(&self, out: &mut String) {
        let adreno = self.options.tile_set().iter().filter(|p| {
            matches!(
                p,
                TileProfile::Adreno630 | TileProfile::Adreno660 | TileProfile::Adreno740
            )
        });
        for profile in adreno {
            let mut rows = Vec::new();
            let (mut saved, mut all) = (0u64, 0u64);
            for g in 0..self.groups.len() {
                let id = GroupId::new(g);
                let Some(fit) = self.tile_fit(id, profile) else {
                    continue;
                };
                let TileDetail::Adreno { first_frame, .. } = fit.detail else {
                    continue;
                };
                let why = match first_frame {
                    FirstFrame::Memory if fit.fits => "memory (multiview)",
                    FirstFrame::Memory => "memory (over GMEM)",
                    FirstFrame::MemoryIfFewDraws => "memory if <= 5 draws",
                    _ => continue,
                };
                let ops = self.ops_saved_bytes(id);
                saved = saved.saturating_add(ops);
                all += 1;
                let names: Vec<&str> = self.groups[g]
                    .passes
                    .iter()
                    .map(|&p| self.pass_name(p))
                    .collect();
                rows.push(format!(
                    "    #{g:<3} {why:<20} {ops:>16}  {}",
                    names.join(" + ")
                ));
            }
            let _ = writeln!(
                out,
                "  {profile}, first frame: turnip 22.3 renders to memory a group without MSAA of at most 5 draws (the plan cannot count draws: \"if <= 5 draws\"), every multiview group, and a group over GMEM"
            );
            let _ = writeln!(
                out,
                "    {:<4} {:<20} {:>16}  passes",
                "", "renders", "ops save B/frame"
            );
            for row in rows {
                let _ = writeln!(out, "{row}");
            }
            let _ = writeln!(
                out,
                "    on {all} group{} the plan's ops save {saved} B/frame, not realised when rendered to memory",
                if all == 1 { "" } else { "s" }
            );
        }
    }

    /// The table's MEMORY section and, where profiles were asked for, its TILE section.
    fn tile_table(&self, out: &mut String) {
        let m = self.memory();
        let _ = writeln!(
            out,
            "\nMEMORY (a model: every mip and layer x samples at the traffic model's texel sizes)"
        );
        let _ = writeln!(
            out,
            "  declared  {:>16}  every live graph-owned resource on its own",
            m.declared_bytes
        );
        let saved = m.declared_bytes.saturating_sub(m.allocated_bytes);
        let pct = if saved > 0 {
            format!(
                ", {:.1}% less",
                100.0 * saved as f64 / m.declared_bytes as f64
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "  allocated {:>16}  pooled physical resources{pct}",
            m.allocated_bytes
        );
        let _ = writeln!(
            out,
            "  transient {:>16}  of those, memoryless on tilers",
            m.transient_bytes
        );
        if self.options.tile_set().is_empty() {
            return;
        }
        let _ = writeln!(
            out,
            "\nTILE (a model: each profile's budget against the group's attachment bytes)"
        );
        for (g, group) in self.groups.iter().enumerate() {
            let fits = self.tile_fits(GroupId::new(g));
            let Some(first) = group.attachments().next() else {
                continue;
            };
            let size = match self.resource_decl(first.resource).kind {
                ResourceKind::Texture(t) => {
                    let (w, h) = t.mip_size(first.sub.mip);
                    format!("{w}x{h}")
                }
                ResourceKind::Buffer(_) => String::new(),
            };
            let names: Vec<&str> = group.passes.iter().map(|&p| self.pass_name(p)).collect();
            let _ = writeln!(out, "  #{g:<3} {size:<11} {}", names.join(" + "));
            for fit in fits {
                let unit = match fit.detail {
                    TileDetail::Apple { .. } => "B/sample",
                    _ => "B/pixel",
                };
                let _ = writeln!(
                    out,
                    "         {:<11} {:>6} {unit:<8} {:<4}  {}",
                    fit.profile.name(),
                    fit.bytes_per_pixel,
                    if fit.fits { "fits" } else { "over" },
                    fit.consequence()
                );
            }
        }
    }

    /// A warning explained in a sentence, with the names and figures involved.
    pub fn warning_message(&self, w: &Warning) -> String {
        let resource = w.resource.map_or("?", |r| self.resource_name(r));
        let pass = w.pass.map_or("?", |p| self.pass_name(p));
        match w.kind {
            WarningKind::SlowClearValue => format!(
                "pass `{pass}` clears `{resource}` to {}, which is not a fast-clear value (colour (0,0,0,0), (0,0,0,1), (1,1,1,0) or (1,1,1,1); depth 0 or 1; stencil 0): the clear writes every pixel",
                w.clear.map(|c| c.to_string()).unwrap_or_default()
            ),
            WarningKind::ClearForWrite => format!(
                "pass `{pass}` overwrites every pixel of `{resource}` but it is cleared first; handing over wgpu::LoadOpDontCare with CompileOptions::with_dont_care skips the clear"
            ),
            WarningKind::MsaaStored => {
                let samples = match w.resource.map(|r| self.resource_decl(r).kind) {
                    Some(ResourceKind::Texture(t)) => t.samples,
                    _ => 1,
                };
                let depth = w.resource.is_some_and(|r| {
                    matches!(self.resource_decl(r).kind, ResourceKind::Texture(t) if t.format.is_depth_stencil_format())
                });
                if depth {
                    format!(
                        "multisampled depth `{resource}` is stored ({samples} samples a pixel) because a later pass reads it; wgpu resolves no depth, so keeping it on tile means reading it in its own group (attach it `read` in the passes that test against it) or writing the depth those passes need into a single-sampled texture"
                    )
                } else {
                    format!(
                        "multisampled `{resource}` is stored ({samples} samples a pixel) because a later pass reads it; reading its resolve target instead would keep it on tile"
                    )
                }
            }
        }
    }

    fn describe_attachment(&self, a: &AttachmentPlan) -> String {
        self.describe_attachment_of_view(a, None)
    }

    /// An attachment of view `view` of a multiview group: a resolve target names its layer.
    fn describe_attachment_of_view(&self, a: &AttachmentPlan, view: Option<u32>) -> String {
        let load = match a.load {
            LoadOp::Clear(v) if !v.is_fast() => "clear(slow)".to_string(),
            other => other.as_str().to_string(),
        };
        let mut s = format!(
            "{:<24} {:<11} -> {}",
            self.subresource_name(a.resource, Some(a.sub)),
            load,
            a.store.as_str()
        );
        if let Some(t) = a.resolve {
            let target = match view {
                Some(layer) => self.subresource_name(t, Some(Subresource { mip: 0, layer })),
                None => self.resource_name(t).to_owned(),
            };
            let _ = write!(s, ", resolve -> {target}");
        }
        if a.read_only {
            s.push_str(", read-only");
        }
        let _ = write!(
            s,
            "{}",
            if self.resources[a.resource.index()].transient {
                ", transient"
            } else {
                ""
            }
        );
        s
    }

    /// A resource's name with the subresource it names, where the texture has more than one:
    /// `bloom@2` (mip 2), `shadow#1` (layer 1), `probe@1#4`.
    pub fn subresource_name(&self, resource: ResourceId, sub: Option<Subresource>) -> String {
        let name = self.resource_name(resource);
        let (Some(sub), ResourceKind::Texture(t)) = (sub, self.resource_decl(resource).kind) else {
            return name.to_owned();
        };
        let mut s = name.to_owned();
        if t.mips > 1 {
            let _ = write!(s, "@{}", sub.mip);
        }
        if t.layers > 1 {
            let _ = write!(s, "#{}", sub.layer);
        }
        s
    }

    /// The plan as Graphviz DOT: groups as clusters, culled passes grey, edges from each pass to the
    /// next user of what it wrote, labelled with the resource and the ops at the group boundary.
    /// Every name is escaped, so any name gives valid DOT.
    pub fn to_dot(&self) -> String {
        let mut out = String::from(
            "digraph tilegraph {\n  rankdir=LR;\n  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n",
        );
        for (g, group) in self.groups.iter().enumerate() {
            let _ = writeln!(out, "  subgraph cluster_{g} {{");
            let mut tile = String::new();
            let fits = self.tile_fits(GroupId::new(g));
            if !fits.is_empty() {
                let briefs: Vec<String> = fits.iter().map(tile_brief).collect();
                let _ = write!(tile, "\\ntile model: {}", briefs.join("; "));
            }
            let views = group
                .multiview
                .map(|n| format!(" | {n} views (multiview)"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "    label=\"group {g} ({}){views} | break: {}{tile}\";",
                group.kind.as_str(),
                group.boundary.as_str()
            );
            let _ = writeln!(out, "    style=rounded; color=\"#4a7ab5\";");
            for &p in &group.passes {
                let mut label = escape(self.pass_name(p));
                for change in self.restructure.iter().filter(|c| c.pass() == p) {
                    match change {
                        Restructuring::Moved { joins, .. } => {
                            let _ = write!(
                                label,
                                "\\nmoved to join {}",
                                escape(self.pass_name(*joins))
                            );
                        }
                        Restructuring::ResolveDropped { resource, .. } => {
                            let _ = write!(
                                label,
                                "\\nresolve into {} dropped",
                                escape(self.resource_name(*resource))
                            );
                        }
                        Restructuring::CopyFolded { .. } => {}
                    }
                }
                let _ = writeln!(out, "    p{p} [label=\"{label}\"];");
            }
            let _ = writeln!(out, "  }}");
        }
        for (p, plan) in self.passes.iter().enumerate() {
            if let Some(into) = plan.folded_into {
                let _ = writeln!(
                    out,
                    "  p{p} [label=\"{}\\nfolded into the resolve of {}\", style=\"rounded,dotted\", color=\"#4a7ab5\"];",
                    escape(self.pass_name(PassId::new(p))),
                    escape(self.pass_name(into))
                );
            }
            if plan.culled {
                let _ = writeln!(
                    out,
                    "  p{p} [label=\"{} (culled)\", style=\"rounded,dashed,filled\", fillcolor=\"#dddddd\", fontcolor=\"#888888\", color=\"#aaaaaa\"];",
                    escape(self.pass_name(PassId::new(p)))
                );
            }
        }
        // Edges: every read, from the pass that wrote the version it sees, labelled with the
        // resource, the access and what the plan does with the contents on the way. A whole read
        // of several subresources written by one pass is one edge.
        let key = |d: &crate::plan::Dependency| (d.from, d.to, d.resource, d.access);
        let dependencies = self.dependencies();
        for (i, d) in dependencies.iter().enumerate() {
            let Some(from) = d.from else { continue };
            // Reads of one whole texture are consecutive: draw the first, label it whole.
            if i > 0 && key(&dependencies[i - 1]) == key(d) {
                continue;
            }
            let multi = dependencies
                .get(i + 1)
                .is_some_and(|next| key(next) == key(d));
            let (to_plan, from_plan) = (self.passes[d.to.index()], self.passes[from.index()]);
            let shown = if multi {
                escape(self.resource_name(d.resource))
            } else {
                escape(&self.subresource_name(d.resource, Some(d.sub)))
            };
            // Parts are escaped one by one; `\n` between them is DOT's line break.
            let mut label = format!("{shown} ({})", d.access);
            let style = if to_plan.culled || from_plan.culled {
                ", style=dashed, color=\"#aaaaaa\", fontcolor=\"#888888\""
            } else {
                ""
            };
            if let (Some(fg), Some(tg)) = (from_plan.group, to_plan.group) {
                if fg == tg {
                    label.push_str("\\non tile");
                } else {
                    let store = self.store_of(self.group(fg), d.resource, d.sub);
                    let target = self.group(tg);
                    let load = target
                        .attachments()
                        .find(|a| a.resource == d.resource && a.sub == d.sub)
                        .map(|a| a.load.as_str());
                    match load {
                        Some(load) => {
                            let _ = write!(label, "\\n{store} / {load}");
                        }
                        None => {
                            let _ = write!(label, "\\n{store}");
                        }
                    }
                }
            }
            let _ = writeln!(out, "  p{from} -> p{} [label=\"{label}\"{style}];", d.to);
        }
        out.push_str("}\n");
        out
    }

    fn store_of(&self, group: &Group, resource: ResourceId, sub: Subresource) -> &'static str {
        let resolved = group.color.iter().any(|a| a.resolve == Some(resource));
        let written_otherwise = if resolved { "resolved" } else { "written" };
        group
            .attachments()
            .find(|a| a.resource == resource && a.sub == sub)
            .map_or(written_otherwise, |a| match a.store {
                StoreOp::Store => "stored",
                StoreOp::Discard => "discarded",
                StoreOp::None => "untouched",
            })
    }
}

/// One profile's verdict in a few words, for a DOT label: `mali-g52 24 B 16x16`,
/// `adreno-630 28 B 56 bins`, `powervr 24 B spills 2`.
fn tile_brief(fit: &TileFit) -> String {
    let verdict = match &fit.detail {
        TileDetail::Mali { width, height, .. } if fit.fits => format!("{width}x{height}"),
        TileDetail::Mali { width, height, .. } => format!("{width}x{height} (over)"),
        TileDetail::Adreno { bins: 1, .. } if fit.fits => "1 bin".into(),
        TileDetail::Adreno { bins, .. } if fit.fits => format!("{bins} bins"),
        TileDetail::Adreno { .. } => "to memory".into(),
        TileDetail::Apple { memoryless } => {
            let fits = if fit.fits { "fits" } else { "fails validation" };
            if *memoryless {
                format!("{fits}, memoryless")
            } else {
                fits.into()
            }
        }
        TileDetail::PowerVr { spilled } if spilled.is_empty() => "fits".into(),
        TileDetail::PowerVr { spilled } => {
            let slots: Vec<String> = spilled.iter().map(u32::to_string).collect();
            format!("spills {}", slots.join(","))
        }
    };
    format!("{} {} B {verdict}", fit.profile.name(), fit.bytes_per_pixel)
}

/// A string as the inside of a DOT quoted string: backslashes and quotes escaped, line breaks
/// kept as text and `&` written as an entity (graphviz decodes entities in labels), so a name can
/// neither end the string nor turn into DOT's escapes.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\\\n"),
            '\r' => out.push_str("\\\\r"),
            c => out.push(c),
        }
    }
    out
}

/// A group's colour attachments one entry per slot: `entry(first view, views 1 .. N)` over the
/// plan's list, which holds each slot's `views` views in turn.
fn per_slot<T>(
    color: &[AttachmentPlan],
    views: u32,
    entry: impl Fn(&AttachmentPlan, &[AttachmentPlan]) -> T,
) -> Vec<T> {
    color
        .chunks(views.max(1) as usize)
        .map(|slot| entry(&slot[0], &slot[1..]))
        .collect()
}
