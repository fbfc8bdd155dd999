//! The plan as Graphviz DOT.

use std::fmt::Write as _;

use crate::ids::GroupId;
use crate::ids::{PassId, ResourceId};
use crate::plan::{CompiledGraph, Group, Restructuring, StoreOp};
use crate::resource::Subresource;
use crate::tile::{TileDetail, TileFit};

impl CompiledGraph {
    /// The plan as Graphviz DOT: groups as clusters, culled passes grey, edges from each pass to the
    /// next user of what it wrote, labelled with the resource and the ops at the group break.
    /// Every name is escaped, so any name gives valid DOT.
    pub fn to_dot(&self) -> String {
        let mut out = String::from(
            "digraph tilegraph {\n  rankdir=LR;\n  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n",
        );
        for (g, group) in self.groups.iter().enumerate() {
            self.dot_cluster(&mut out, g, group);
        }
        self.dot_folded_and_culled(&mut out);
        self.dot_edges(&mut out);
        out.push_str("}\n");
        out
    }

    /// One group as a cluster of its passes, labelled with its kind, break and tile verdicts.
    fn dot_cluster(&self, out: &mut String, g: usize, group: &Group) {
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
            group.break_reason.as_str()
        );
        let _ = writeln!(out, "    style=rounded; color=\"#4a7ab5\";");
        for &p in &group.passes {
            let mut label = escape(self.pass_name(p));
            for change in self.restructure.iter().filter(|c| c.pass() == p) {
                match change {
                    Restructuring::Moved { joins, .. } => {
                        let _ =
                            write!(label, "\\nmoved to join {}", escape(self.pass_name(*joins)));
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

    /// Folded passes dotted, culled passes grey.
    fn dot_folded_and_culled(&self, out: &mut String) {
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
    }

    /// Edges: every read, from the pass that wrote the version it sees, labelled with the
    /// resource, the access and what the plan does with the contents on the way. A whole read
    /// of several subresources written by one pass is one edge.
    fn dot_edges(&self, out: &mut String) {
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
