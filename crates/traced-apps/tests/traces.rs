//! Each app records a wgpu API trace on the backend `TILEGRAPH_BACKEND` names (`vulkan`, the
//! default, or `gl`), and `tilegraph trace` reads it. The figures checked are derived from what
//! each app draws (its sizes, formats and ops), not copied from a run. A GPU test: an app that
//! finds no adapter fails it.

use std::path::PathBuf;
use std::process::Command;

use tilegraph_tool::trace::{Report, TraceError, analyse};

const W: u64 = 96;
const H: u64 = 64;
const FRAMES: u64 = 3;
/// One `rgba8unorm-srgb` or `depth32float` image of the screen's size.
const SCREEN: u64 = W * H * 4;

fn backend() -> String {
    std::env::var("TILEGRAPH_BACKEND").unwrap_or_else(|_| "vulkan".into())
}

/// Runs `app` with `args`, tracing into a fresh directory; returns it and the app's stderr.
fn record(app: &str, exe: &str, args: &[&str]) -> (PathBuf, String) {
    let backend = backend();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "traced-{app}-{backend}-{}",
        args.join("").replace('-', "")
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let frames = if args.contains(&"--frames") {
        vec![]
    } else {
        vec!["--frames".to_string(), FRAMES.to_string()]
    };
    let out = Command::new(exe)
        .args(["--backend", &backend])
        .args(frames)
        .args(["--size", &format!("{W}x{H}")])
        .arg("--trace-dir")
        .arg(&dir)
        .args(args)
        .env("NODEVICE_SELECT", "1")
        .output()
        .expect("the app runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "{app} {args:?} on {backend} failed:\n{stderr}"
    );
    (dir, stderr)
}

fn report(app: &str, exe: &str, args: &[&str]) -> Report {
    let (dir, _) = record(app, exe, args);
    analyse(&dir, 60).unwrap_or_else(|e| panic!("{app}: tilegraph trace failed: {e}"))
}

/// What `tilegraph trace` must refuse: an app run as it comes, why, and the error's kind and a
/// word of its message.
struct Refusal<'a> {
    app: &'a str,
    exe: &'a str,
    why: &'a str,
    kind: &'a str,
    naming: &'a str,
}

/// Records `r.app` with no arguments; `tilegraph trace` must refuse the trace with an error of
/// `r.kind` naming `r.naming`, which is returned.
fn refused(r: Refusal<'_>) -> TraceError {
    let (dir, _) = record(r.app, r.exe, &[]);
    let error = match analyse(&dir, 60) {
        Ok(_) => panic!("{} was read, though {}", dir.display(), r.why),
        Err(e) => e,
    };
    assert_eq!(error.kind(), r.kind, "{error}");
    assert!(error.to_string().contains(r.naming), "{error}");
    error
}

/// A frame's rows as (resource, app ops, plan ops, app bytes, plan bytes).
fn rows(frame: &tilegraph_tool::trace::FrameReport) -> Vec<(String, String, String, u64, u64)> {
    let ops = |o: &tilegraph_tool::trace::Ops| {
        format!(
            "{}/{}{}",
            o.load,
            o.store,
            if o.resolve { "+resolve" } else { "" }
        )
    };
    frame
        .rows
        .iter()
        .map(|r| {
            let resource = r.resource.clone();
            (
                resource,
                ops(&r.app),
                ops(&r.plan),
                r.app_bytes,
                r.plan_bytes,
            )
        })
        .collect()
}

#[test]
fn hdr_depth_store_and_tonemap_load_are_proven_unneeded() {
    let report = report("hdr", env!("CARGO_BIN_EXE_hdr"), &[]);
    assert_eq!(report.frames.len() as u64, FRAMES);
    for frame in &report.frames {
        let rows = rows(frame);
        assert_eq!(rows.len(), 3, "{rows:?}");
        // The scene's HDR image: cleared, stored, sampled by the tone mapping.
        assert_eq!(rows[0].1, "clear/store");
        assert_eq!(rows[0].2, "clear/store");
        assert_eq!(rows[0].3, W * H * 8);
        // Its depth: stored, never read.
        assert_eq!(rows[1].1, "clear/store");
        assert_eq!(rows[1].2, "clear/discard");
        assert_eq!((rows[1].3, rows[1].4), (SCREEN, 0));
        // The screen image: loaded, though no frame before wrote it (three images in turn).
        assert_eq!(rows[2].1, "load/store");
        assert_eq!(rows[2].2, "clear/store");
        assert_eq!((rows[2].3, rows[2].4), (2 * SCREEN, SCREEN));
        assert_eq!(frame.app_bytes - frame.plan_bytes, 2 * SCREEN);
        assert!(
            frame.transient.iter().any(|t| t == "depth"),
            "{:?}",
            frame.transient
        );
    }
    let (app, plan, _, _) = report.totals();
    assert_eq!(app - plan, FRAMES * 2 * SCREEN);
}

#[test]
fn shadow_with_its_ten_layer_array_is_refused_where_it_samples_layers_nothing_wrote() {
    let error = refused(Refusal {
        app: "shadow",
        exe: env!("CARGO_BIN_EXE_shadow"),
        why: "layers 2 to 9 are never rendered",
        kind: "read_before_write",
        naming: "layer 2",
    });
    assert!(
        matches!(error, TraceError::Graph { frame: 0, .. }),
        "{error}"
    );
}

#[test]
fn shadow_maps_are_stored_for_the_forward_pass_and_its_depth_is_memoryless() {
    let report = report(
        "shadow",
        env!("CARGO_BIN_EXE_shadow"),
        &["--shadow-layers", "2"],
    );
    assert_eq!(report.frames.len() as u64, FRAMES);
    let layer = 512 * 512 * 4;
    for frame in &report.frames {
        let rows = rows(frame);
        assert_eq!(rows.len(), 4, "{rows:?}");
        for bake in &rows[..2] {
            assert_eq!(
                (bake.1.as_str(), bake.2.as_str()),
                ("clear/store", "clear/store")
            );
            assert_eq!((bake.3, bake.4), (layer, layer));
        }
        assert_eq!((rows[2].1.as_str(), rows[2].3), ("clear/store", SCREEN));
        assert_eq!(
            (rows[3].1.as_str(), rows[3].2.as_str()),
            ("clear/discard", "clear/discard")
        );
        assert_eq!(frame.app_bytes, 2 * layer + SCREEN);
        assert_eq!(
            frame.plan_bytes, frame.app_bytes,
            "nothing proven to change"
        );
        assert_eq!(frame.transient, [rows[3].0.clone()]);
    }
}

#[test]
fn msaa_line_from_a_render_bundle_is_a_typed_error_naming_the_bundle() {
    refused(Refusal {
        app: "msaa_line",
        exe: env!("CARGO_BIN_EXE_msaa_line"),
        why: "render bundles are not followed",
        kind: "unhandled_action",
        naming: "render bundle",
    });
}

#[test]
fn msaa_line_resolves_and_its_multisampled_image_is_memoryless() {
    let (dir, stderr) = record(
        "msaa_line",
        env!("CARGO_BIN_EXE_msaa_line"),
        &["--no-bundle"],
    );
    let report = analyse(&dir, 60).expect("tilegraph trace reads it");
    let samples: u64 = stderr
        .lines()
        .find_map(|l| l.strip_prefix("sample count: "))
        .and_then(|n| n.parse().ok())
        .expect("the app prints its sample count");
    assert!(samples > 1, "lavapipe and llvmpipe offer 4 samples");
    for frame in &report.frames {
        let rows = rows(frame);
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0].1, "clear/discard+resolve");
        assert_eq!(rows[0].2, "clear/discard+resolve");
        // A resolve writes one sample a texel: the multisampled image never leaves the tile.
        assert_eq!((rows[0].3, rows[0].4), (SCREEN, SCREEN));
        assert_eq!(frame.transient, ["multisampled"]);
        // The naive plan keeps the clear, stores every sample, and resolves.
        assert_eq!(frame.naive_bytes, SCREEN * samples + SCREEN);
    }
}

#[test]
fn mipmap_levels_are_stored_for_the_next_level_and_the_frames() {
    let report = report("mipmap", env!("CARGO_BIN_EXE_mipmap"), &[]);
    // The levels are rendered in a submission of their own, before the first frame.
    assert_eq!(report.frames.len() as u64, FRAMES + 1);
    let levels = rows(&report.frames[0]);
    assert_eq!(levels.len(), 9, "{levels:?}");
    for (mip, row) in (1u32..).zip(&levels) {
        let bytes = u64::from(512u32 >> mip).pow(2) * 4;
        assert_eq!(row.0, format!("julia@{mip}"));
        assert_eq!(
            (row.1.as_str(), row.2.as_str()),
            ("clear/store", "clear/store")
        );
        assert_eq!((row.3, row.4), (bytes, bytes));
    }
    for frame in &report.frames[1..] {
        let rows = rows(frame);
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!((rows[0].1.as_str(), rows[0].3), ("clear/store", SCREEN));
        assert_eq!(frame.plan_bytes, frame.app_bytes);
    }
}

#[test]
fn boids_load_is_proven_unneeded_only_on_images_no_earlier_frame_drew() {
    // Six frames over three images: frames 0-2 load images nothing drew, frames 3-5 load what
    // frames 0-2 drew (the original draws over the surface's contents).
    let report = report("boids", env!("CARGO_BIN_EXE_boids"), &["--frames", "6"]);
    assert_eq!(report.frames.len(), 6);
    for (i, frame) in report.frames.iter().enumerate() {
        let rows = rows(frame);
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0].1, "load/store");
        let fresh = i < tilegraph_traced_apps::IMAGES;
        let (plan, saved) = if fresh {
            ("clear/store", SCREEN)
        } else {
            ("load/store", 0)
        };
        assert_eq!(rows[0].2, plan, "frame {i}");
        assert_eq!(frame.app_bytes - frame.plan_bytes, saved, "frame {i}");
    }
}
