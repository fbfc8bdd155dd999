//! The pipeline both fuzz targets drive: description → graph → plan → every report.

use tilegraph::{CompileOptions, ErrorKind, RenderGraph};

/// Loads `json`, compiles it with and without the `DontCare` opt-in, each also in declared order
/// (restructuring off), and renders every report. Panics (a finding) on a crash, an undocumented
/// error kind, a report that is not valid JSON, a plan that changes across a description round
/// trip, restructuring that changes whether the graph compiles, or a restructured plan that moves
/// more bytes than, or disagrees with, its declared-order plan.
pub fn check_description(json: &str) {
    let graph = match RenderGraph::from_json(json) {
        Ok(graph) => graph,
        Err(e) => {
            assert!(
                ErrorKind::ALL.contains(&e.kind()),
                "undocumented kind {e:?}"
            );
            assert!(serde_json::from_str::<serde_json::Value>(&e.to_json()).is_ok());
            return;
        }
    };
    // SAFETY: plans are only compiled and printed here, never executed on a device.
    let dont_care = unsafe { tilegraph::wgpu::LoadOpDontCare::enabled() };
    for options in [
        CompileOptions::default(),
        CompileOptions::default().with_dont_care(dont_care),
    ] {
        match graph.compile(&options) {
            Ok(plan) => {
                let json = plan.to_json();
                assert!(
                    serde_json::from_str::<serde_json::Value>(&json).is_ok(),
                    "plan JSON does not parse: {json}"
                );
                let _ = plan.to_table();
                let _ = plan.to_dot();
                let again =
                    RenderGraph::from_json(&graph.to_json()).expect("an emitted description loads");
                assert_eq!(again.fingerprint(), graph.fingerprint());
                let replan = again.compile(&options).expect("a round trip compiles");
                assert_eq!(replan.to_json(), json, "plan changed across a round trip");
                let declared = graph
                    .compile(&options.with_restructure(false))
                    .expect("a graph that compiles restructured compiles in declared order");
                assert!(declared.restructuring().is_empty());
                assert_eq!(plan.as_declared().to_json(), declared.to_json());
                let t = plan.traffic();
                assert!(t.bytes_per_frame <= declared.traffic().bytes_per_frame);
                assert_eq!(
                    t.declared_bytes_per_frame,
                    declared.traffic().bytes_per_frame
                );
            }
            Err(e) => {
                assert!(
                    ErrorKind::ALL.contains(&e.kind()),
                    "undocumented kind {e:?}"
                );
                assert!(serde_json::from_str::<serde_json::Value>(&e.to_json()).is_ok());
                let declared = graph.compile(&options.with_restructure(false));
                assert_eq!(
                    declared.err().map(|d| d.kind()),
                    Some(e.kind()),
                    "restructuring changed whether the graph compiles"
                );
            }
        }
    }
}
