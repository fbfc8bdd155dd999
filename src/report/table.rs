//! The plan as a table for people.

use std::fmt::Write as _;

use crate::decl::resource::ResourceKind;
use crate::format::format_name;
use crate::ids::GroupId;
use crate::ids::{PassId, ResourceId};
use crate::plan::{AttachmentPlan, CompiledGraph, LoadOp, Restructuring};
use crate::resource::Subresource;
use crate::tile::{ADRENO_DRIVER, FirstFrame, TileDetail, TileRule};

impl CompiledGraph {
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
        self.groups_table(&mut out);
        self.culled_table(&mut out);
        self.needed_by_table(&mut out);
        self.resources_table(&mut out);
        self.traffic_table(&mut out);
        self.first_frame_table(&mut out);
        self.tile_table(&mut out);
        self.warnings_table(&mut out);
        out
    }

    /// The GROUPS section: each group's passes, attachments, break reason and advice.
    fn groups_table(&self, out: &mut String) {
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
            let _ = writeln!(out, "         break  {}", group.break_reason.as_str());
            for (i, a) in self.advice(GroupId::new(g)).iter().enumerate() {
                let _ = writeln!(out, "        advice  {}. {}", i + 1, self.advice_message(a));
            }
        }
    }

    /// The CULLED and RESTRUCTURED sections.
    fn culled_table(&self, out: &mut String) {
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
    }

    /// The NEEDED BY section: why each live pass runs.
    fn needed_by_table(&self, out: &mut String) {
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
    }

    /// The RESOURCES section: each resource's shape, span, physical slot and notes.
    fn resources_table(&self, out: &mut String) {
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
            if self.transient_blocked(ResourceId::new(r)).is_some() {
                notes.push("on tile only, not memoryless: layers");
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
    }

    /// The TRAFFIC section's rows: planned, declared, naive, saved and sampled bytes.
    fn traffic_table(&self, out: &mut String) {
        let t = &self.traffic;
        let _ = writeln!(out, "\nTRAFFIC (attachments, uncompressed, {} fps)", t.fps);
        let _ = writeln!(
            out,
            "  {:<8} {:>16} {:>20} {:>9}",
            "", "bytes/frame", "bytes/second", "GB/s"
        );
        let mut row = |name: &str, frame: u64, second: u64| {
            let gb = second as f64 / 1e9;
            let _ = writeln!(out, "  {name:<8} {frame:>16} {second:>20} {gb:>9.2}");
        };
        row("planned", t.bytes_per_frame, t.bytes_per_second);
        if !self.restructure.is_empty() {
            row(
                "declared",
                t.declared_bytes_per_frame,
                t.declared_bytes_per_second,
            );
        }
        row("naive", t.naive_bytes_per_frame, t.naive_bytes_per_second);
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
    }

    /// The WARNINGS section.
    fn warnings_table(&self, out: &mut String) {
        if !self.warnings.is_empty() {
            let _ = writeln!(out, "\nWARNINGS");
            for w in &self.warnings {
                let _ = writeln!(out, "  {}: {}", w.kind.as_str(), self.warning_message(w));
            }
        }
    }

    /// The TRAFFIC section's lines for each Adreno profile asked for: the render groups turnip
    /// may render straight to memory on their first frame, and what the plan's ops save there.
    fn first_frame_table(&self, out: &mut String) {
        let adreno = (self.options.tile_set().iter()).filter(|p| p.rule() == TileRule::Adreno);
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
                "  {profile}, first frame: {ADRENO_DRIVER} renders to memory a group without MSAA of at most 5 draws (the plan cannot count draws: \"if <= 5 draws\") and a group over GMEM; Qualcomm's driver may choose otherwise"
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
        self.memory_table(out);
        if self.options.tile_set().is_empty() {
            return;
        }
        self.tile_fit_table(out);
    }

    /// The MEMORY section: declared, allocated, transient and blocked bytes.
    fn memory_table(&self, out: &mut String) {
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
        if m.transient_blocked_bytes > 0 {
            let names: Vec<&str> = (0..self.resources.len())
                .map(ResourceId::new)
                .filter(|&r| self.transient_blocked(r).is_some())
                .map(|r| self.resource_name(r))
                .collect();
            let _ = writeln!(
                out,
                "  blocked   {:>16}  on tile only but not memoryless: wgpu refuses TRANSIENT_ATTACHMENT on a texture of several layers ({}); declared a texture per view, these would be memoryless",
                m.transient_blocked_bytes,
                names.join(", ")
            );
        }
    }

    /// The TILE section: each profile's budget against each group's attachment bytes.
    fn tile_fit_table(&self, out: &mut String) {
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
                let views = match super::per_view_bytes(&fit, group.views()) {
                    Some((one, all)) => {
                        format!(
                            "; {one} {unit} a view, {all} for its {} views",
                            group.views()
                        )
                    }
                    None => String::new(),
                };
                let _ = writeln!(
                    out,
                    "         {:<11} {:>6} {unit:<8} {:<4}  {}{views}",
                    fit.profile.name(),
                    fit.bytes_per_pixel,
                    if fit.fits { "fits" } else { "over" },
                    fit.consequence()
                );
                if let Some(reason) = fit.bin_reason() {
                    let _ = writeln!(out, "                     bin: {reason}");
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
            s.push_str(", read-only (the backend stores it)");
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
}
