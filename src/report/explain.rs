//! The data the HTML page shows: the graph's description, the plan's JSON, and per group the
//! bytes it moves, the naive plan's, and the reasons for its break and every op.

use serde::Serialize;

use super::per_slot;
use crate::description::describe;
use crate::ids::PassId;
use crate::plan::{AttachmentPlan, CompiledGraph};

impl CompiledGraph {
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
                break_reason: g.break_reason.describe(),
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
}
