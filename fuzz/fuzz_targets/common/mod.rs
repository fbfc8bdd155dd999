//! The pipeline both fuzz targets drive: description → graph → plan → every report.

use tilegraph::{CompileOptions, ErrorKind, RenderGraph};

/// Loads `json`, compiles it with and without the `DontCare` opt-in and renders every report.
/// Panics (a finding) on a crash, an undocumented error kind, a report that is not valid JSON, or a
/// plan that changes across a description round trip.
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
            }
            Err(e) => {
                assert!(
                    ErrorKind::ALL.contains(&e.kind()),
                    "undocumented kind {e:?}"
                );
                assert!(serde_json::from_str::<serde_json::Value>(&e.to_json()).is_ok());
            }
        }
    }
}
