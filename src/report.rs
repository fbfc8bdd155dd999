//! Report: the compiled plan as JSON (DESIGN §4), as a table for people, and as Graphviz DOT.

use std::fmt::Write as _;

use serde::Serialize;

use crate::declare::{PassKind, ResourceKind};
use crate::format::format_name;
use crate::plan::{AttachmentPlan, CompiledGraph, Group, LoadOp, StoreOp, Warning, WarningKind};

#[derive(Serialize)]
struct PlanJson<'p> {
    passes: Vec<PassJson<'p>>,
    groups: Vec<GroupJson<'p>>,
    resources: Vec<ResourceJson<'p>>,
    traffic: TrafficJson,
    warnings: Vec<WarningJson<'p>>,
}

#[derive(Serialize)]
struct PassJson<'p> {
    name: &'p str,
    culled: bool,
    group: Option<u32>,
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
    #[serde(rename = "break")]
    boundary: &'static str,
}

#[derive(Serialize)]
struct ColorJson<'p> {
    resource: &'p str,
    load: &'static str,
    store: &'static str,
    resolve: Option<&'p str>,
}

#[derive(Serialize)]
struct DepthJson<'p> {
    resource: &'p str,
    load: &'static str,
    store: &'static str,
    read_only: bool,
}

#[derive(Serialize)]
struct ResourceJson<'p> {
    name: &'p str,
    culled: bool,
    transient: bool,
    first_group: Option<u32>,
    last_group: Option<u32>,
    physical: Option<u32>,
}

#[derive(Serialize)]
struct TrafficJson {
    bytes_per_frame: u64,
    naive_bytes_per_frame: u64,
    fps: u32,
    bytes_per_second: u64,
    naive_bytes_per_second: u64,
    sampled_bytes_per_frame: u64,
}

#[derive(Serialize)]
struct WarningJson<'p> {
    kind: &'static str,
    pass: Option<&'p str>,
    resource: Option<&'p str>,
    message: String,
}

impl CompiledGraph {
    /// The plan as JSON (DESIGN §4). Byte-identical for identical inputs.
    pub fn to_json(&self) -> String {
        let rname = |r: u32| self.resource_name(r);
        let plan = PlanJson {
            passes: self
                .passes
                .iter()
                .enumerate()
                .map(|(p, plan)| PassJson {
                    name: self.pass_name(p as u32),
                    culled: plan.culled,
                    group: plan.group,
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
                            g.color
                                .iter()
                                .map(|a| ColorJson {
                                    resource: rname(a.resource),
                                    load: a.load.as_str(),
                                    store: a.store.as_str(),
                                    resolve: a.resolve.map(rname),
                                })
                                .collect()
                        }),
                        depth: render.then(|| {
                            g.depth.as_ref().map(|a| DepthJson {
                                resource: rname(a.resource),
                                load: a.load.as_str(),
                                store: a.store.as_str(),
                                read_only: a.read_only,
                            })
                        }),
                        boundary: g.boundary.as_str(),
                    }
                })
                .collect(),
            resources: self
                .resources
                .iter()
                .enumerate()
                .map(|(r, plan)| ResourceJson {
                    name: rname(r as u32),
                    culled: plan.culled,
                    transient: plan.transient,
                    first_group: plan.first_group,
                    last_group: plan.last_group,
                    physical: plan.physical,
                })
                .collect(),
            traffic: TrafficJson {
                bytes_per_frame: self.traffic.bytes_per_frame,
                naive_bytes_per_frame: self.traffic.naive_bytes_per_frame,
                fps: self.traffic.fps,
                bytes_per_second: self.traffic.bytes_per_second,
                naive_bytes_per_second: self.traffic.naive_bytes_per_second,
                sampled_bytes_per_frame: self.traffic.sampled_bytes_per_frame,
            },
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
            for a in &group.color {
                let _ = writeln!(out, "         color  {}", self.describe_attachment(a));
            }
            if let Some(a) = &group.depth {
                let _ = writeln!(out, "         depth  {}", self.describe_attachment(a));
            }
            let _ = writeln!(out, "         break  {}", group.boundary.as_str());
        }
        let culled: Vec<&str> = self
            .passes
            .iter()
            .enumerate()
            .filter(|(_, p)| p.culled)
            .map(|(i, _)| self.pass_name(i as u32))
            .collect();
        if !culled.is_empty() {
            let _ = writeln!(out, "\nCULLED (results unused)\n  {}", culled.join(", "));
        }
        let _ = writeln!(out, "\nRESOURCES");
        let _ = writeln!(
            out,
            "  {:<24} {:<28} {:<9} {:<8} notes",
            "name", "shape", "groups", "physical"
        );
        for (r, plan) in self.resources.iter().enumerate() {
            let decl = self.resource_decl(r as u32);
            let shape = match decl.kind {
                ResourceKind::Texture(t) => {
                    let mut s = format!("{} {}x{}", format_name(t.format), t.width, t.height);
                    if t.layers > 1 {
                        let _ = write!(s, "x{}", t.layers);
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
        if !self.warnings.is_empty() {
            let _ = writeln!(out, "\nWARNINGS");
            for w in &self.warnings {
                let _ = writeln!(out, "  {}: {}", w.kind.as_str(), self.warning_message(w));
            }
        }
        out
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
                "pass `{pass}` overwrites every pixel of `{resource}` but it is cleared first; handing over wgpu::LoadOpDontCare (--dont-care) skips the clear"
            ),
            WarningKind::MsaaStored => {
                let samples = match self.resource_decl(w.resource.unwrap_or_default()).kind {
                    ResourceKind::Texture(t) => t.samples,
                    ResourceKind::Buffer(_) => 1,
                };
                format!(
                    "multisampled `{resource}` is stored ({samples} samples a pixel) because a later pass reads it; reading its resolve target instead would keep it on tile"
                )
            }
        }
    }

    fn describe_attachment(&self, a: &AttachmentPlan) -> String {
        let load = match a.load {
            LoadOp::Clear(v) if !v.is_fast() => "clear(slow)".to_string(),
            other => other.as_str().to_string(),
        };
        let mut s = format!(
            "{:<24} {:<11} -> {}",
            self.resource_name(a.resource),
            load,
            a.store.as_str()
        );
        if let Some(t) = a.resolve {
            let _ = write!(s, ", resolve -> {}", self.resource_name(t));
        }
        if a.read_only {
            s.push_str(", read-only");
        }
        let _ = write!(
            s,
            "{}",
            if self.resources[a.resource as usize].transient {
                ", transient"
            } else {
                ""
            }
        );
        s
    }

    /// The plan as Graphviz DOT: groups as clusters, culled passes grey, edges from each pass to the
    /// next user of what it wrote, labelled with the resource and the ops at the group boundary.
    pub fn to_dot(&self) -> String {
        let mut out = String::from(
            "digraph tilegraph {\n  rankdir=LR;\n  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n",
        );
        for (g, group) in self.groups.iter().enumerate() {
            let _ = writeln!(out, "  subgraph cluster_{g} {{");
            let _ = writeln!(
                out,
                "    label=\"group {g} ({}) | break: {}\";",
                group.kind.as_str(),
                group.boundary.as_str()
            );
            let _ = writeln!(out, "    style=rounded; color=\"#4a7ab5\";");
            for &p in &group.passes {
                let _ = writeln!(out, "    p{p} [label=\"{}\"];", escape(self.pass_name(p)));
            }
            let _ = writeln!(out, "  }}");
        }
        for (p, plan) in self.passes.iter().enumerate() {
            if plan.culled {
                let _ = writeln!(
                    out,
                    "  p{p} [label=\"{} (culled)\", style=\"rounded,dashed,filled\", fillcolor=\"#dddddd\", fontcolor=\"#888888\", color=\"#aaaaaa\"];",
                    escape(self.pass_name(p as u32))
                );
            }
        }
        // Edges: every read, from the pass that wrote the version it sees, labelled with the
        // resource, the access and what the plan does with the contents on the way.
        for d in &self.dependencies {
            let Some(from) = d.from else { continue };
            let (to_plan, from_plan) = (self.passes[d.to as usize], self.passes[from as usize]);
            let mut label = format!("{} ({})", self.resource_name(d.resource), d.access);
            let style = if to_plan.culled || from_plan.culled {
                ", style=dashed, color=\"#aaaaaa\", fontcolor=\"#888888\""
            } else {
                ""
            };
            if let (Some(fg), Some(tg)) = (from_plan.group, to_plan.group) {
                if fg == tg {
                    label.push_str("\\non tile");
                } else {
                    let store = self.store_of(&self.groups[fg as usize], d.resource);
                    let load = self.groups[tg as usize]
                        .color
                        .iter()
                        .chain(self.groups[tg as usize].depth.iter())
                        .find(|a| a.resource == d.resource)
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
            let _ = writeln!(
                out,
                "  p{from} -> p{} [label=\"{}\"{style}];",
                d.to,
                escape_label(&label)
            );
        }
        out.push_str("}\n");
        out
    }

    fn store_of(&self, group: &Group, resource: u32) -> &'static str {
        let resolved = group.color.iter().any(|a| a.resolve == Some(resource));
        let written_otherwise = if resolved { "resolved" } else { "written" };
        group
            .color
            .iter()
            .chain(group.depth.iter())
            .find(|a| a.resource == resource)
            .map_or(written_otherwise, |a| match a.store {
                StoreOp::Store => "stored",
                StoreOp::Discard => "discarded",
                StoreOp::None => "untouched",
            })
    }
}

/// Escapes quotes but keeps the `\\n` line breaks the labels use.
fn escape_label(s: &str) -> String {
    s.replace('"', "\\\"")
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
