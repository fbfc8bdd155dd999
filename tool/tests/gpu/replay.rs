//! `tilegraph replay`: the committed traces of the deferred, post and forward examples (naive and
//! planned mode, two frames at 64x32, recorded with `--trace-dir` on lavapipe and, `-gl`, on
//! llvmpipe)
//! replayed on both backends: the replanned replay byte-equal to the replay as recorded, the
//! replay as recorded equal to the image the example itself wrote (to a rounding: the image was
//! written on another CPU), and a deliberately wrong op
//! change caught as a difference naming frame and texture. Each run names its backend, so a
//! missing adapter fails the test with the tool's message.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use tilegraph::helpers::Backend;
use tilegraph_tool::replay::ReplayOptions;

fn traces() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/traces")
}

fn replay(dir: &Path, backend: &str, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilegraph"))
        .arg("replay")
        .arg(dir)
        .args(["--backend", backend, "--format", "json"])
        .args(extra)
        .output()
        .expect("start tilegraph")
}

fn json(o: &Output) -> Value {
    // Under `TILEGRAPH_VALIDATION` the Khronos layer may write its own lines to stdout.
    let text = String::from_utf8_lossy(&o.stdout);
    let line = text
        .lines()
        .rfind(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no JSON on stdout: {text}"));
    serde_json::from_str(line).expect("JSON")
}

/// The traces and the backends each replays on: a lavapipe trace of the deferred example
/// samples a depth it attaches read-only, which wgpu's GL backend cannot do; the GL traces are
/// what the example records there.
const CASES: [(&str, &[&str]); 10] = [
    ("deferred-naive", &["vulkan"]),
    ("deferred-planned", &["vulkan"]),
    ("deferred-naive-gl", &["gl", "vulkan"]),
    ("deferred-planned-gl", &["gl", "vulkan"]),
    ("post-naive", &["vulkan", "gl"]),
    ("post-planned", &["vulkan", "gl"]),
    ("post-naive-gl", &["gl", "vulkan"]),
    ("post-planned-gl", &["gl", "vulkan"]),
    ("forward-naive", &["vulkan", "gl"]),
    ("forward-planned", &["vulkan", "gl"]),
];

fn hashes(run: &Value) -> Vec<(u64, String, String)> {
    run["images"]
        .as_array()
        .expect("images")
        .iter()
        .map(|i| {
            (
                i["frame"].as_u64().unwrap(),
                i["texture"].as_str().unwrap().to_owned(),
                i["hash"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn replanned_replays_are_byte_equal_to_the_recorded_ones() {
    for (name, backends) in CASES {
        let dir = traces().join(name);
        for backend in backends {
            let o = replay(&dir, backend, &["--replan"]);
            assert!(
                o.status.success(),
                "replay {name} --replan --backend {backend}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let j = json(&o);
            let (recorded, replanned) = (hashes(&j["recorded"]), hashes(&j["replanned"]));
            assert!(recorded.len() >= 2, "{name} on {backend}: {recorded:?}");
            assert_eq!(recorded, replanned, "{name} on {backend}");
            assert_eq!(j["equal"], true);
            let changes = &j["changes"];
            let changed = ["loads", "stores", "resolves"]
                .iter()
                .map(|k| changes[k].as_u64().unwrap())
                .sum::<u64>();
            if name.starts_with("forward-naive") {
                // The naive forward frame stores its multisampled colour and depth, which nothing
                // reads after the resolve: discards, two a frame.
                assert_eq!(changes["stores"], 4, "{name}: {changes}");
            } else if name.contains("naive") {
                // The naive frames load what nothing wrote: the replan changes those loads.
                assert!(changes["loads"].as_u64().unwrap() > 0, "{name}: {changes}");
            } else {
                // A planned frame: nothing proven to change.
                assert_eq!(changed, 0, "{name}: {changes}");
            }
        }
    }
}

#[test]
fn the_recorded_replay_shows_what_the_example_drew() {
    for (name, backends) in CASES {
        let png = traces().join(format!("{name}.png"));
        if !png.exists() {
            continue;
        }
        let (w, h, pixels) = tilegraph_tool::headless::read_png(&png).expect("the example's PNG");
        let backend: Backend = backends[0].parse().expect("a backend's name");
        let options = ReplayOptions::new(backend, true, false);
        let outcome = tilegraph_tool::replay::replay(&traces().join(name), &options)
            .unwrap_or_else(|e| panic!("replay {name} on {backend:?}: {e}"));
        let last = outcome
            .recorded
            .and_then(|r| r.images.into_iter().last())
            .expect("an image");
        assert_eq!(last.size, (w, h), "{name}");
        // The example's PNG was written on another machine's lavapipe or llvmpipe: their JIT
        // compiles the shaders for the CPU it runs on, so the lit and filtered pixels may round
        // differently; what the example drew must still be there, channel by channel.
        let (most, differing) = channel_difference(&last.bytes, &pixels);
        assert!(
            most <= MOST_CHANNEL_DIFFERENCE,
            "{name} on {backend:?}: {differing} channels differ from the example's image, by up to {most}"
        );
    }
}

/// How far two CPUs' software rasterizers may round a channel apart (an Intel Xeon's lavapipe
/// against the AMD EPYC's that wrote the images: 32 channels of the deferred frame by 1).
const MOST_CHANNEL_DIFFERENCE: u8 = 2;

/// The largest difference between two images' channels, and how many channels differ.
fn channel_difference(a: &[u8], b: &[u8]) -> (u8, usize) {
    assert_eq!(a.len(), b.len(), "the images' sizes");
    a.iter()
        .zip(b)
        .map(|(x, y)| x.abs_diff(*y))
        .filter(|&d| d > 0)
        .fold((0, 0), |(most, n), d| (most.max(d), n + 1))
}

#[test]
fn a_wrong_discard_is_caught_naming_frame_and_texture() {
    // The gbuffer's albedo, which the lighting pass samples, discarded after the gbuffer pass:
    // the first frame that draws it differs (on GL the executor's probe submission comes first).
    for (name, backend, frame) in [
        ("deferred-naive", "vulkan", 0),
        ("deferred-naive-gl", "gl", 1),
    ] {
        let dir = traces().join(name);
        let o = replay(
            &dir,
            backend,
            &["--replan", "--discard-store", "gbuffer/albedo"],
        );
        assert!(!o.status.success(), "{name} on {backend}");
        let err = String::from_utf8_lossy(&o.stderr);
        let line = err
            .lines()
            .find(|l| l.starts_with("error: "))
            .expect("an error line");
        assert!(
            line.starts_with(&format!("error: images_differ: frame {frame} (action "))
                && line.contains("texture `deferred` differs"),
            "{line}"
        );
        let e = &json(&o)["error"];
        assert_eq!(e["kind"], "images_differ");
        assert_eq!(e["frame"], frame);
        assert_eq!(e["texture"], "deferred");
    }
    // A name no row has is an error, not a silent pass.
    let o = replay(
        &traces().join("deferred-naive"),
        "vulkan",
        &["--replan", "--discard-store", "gbuffer/nothing"],
    );
    assert!(!o.status.success());
    assert_eq!(json(&o)["error"]["kind"], "no_such_attachment");
}

#[test]
fn a_depth_sampled_read_only_needs_the_downlevel_flag() {
    let o = replay(&traces().join("deferred-naive"), "gl", &[]);
    assert!(!o.status.success());
    let e = &json(&o)["error"];
    assert_eq!(e["kind"], "device");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("READ_ONLY_DEPTH_STENCIL"),
        "{e}"
    );
}
