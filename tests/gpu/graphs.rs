//! On a real adapter: graphs run in the executor's three modes give bit-identical results, match
//! their reference images, and Poison catches a pass that falsely claims full coverage.

use std::path::Path;

use tilegraph::wgpu;
use tilegraph::{Access, CompileOptions, ExecuteMode, Executor, Import, RenderGraph, TextureDesc};
use tilegraph_tool::headless::Gpu;
use tilegraph_tool::synthetic::{self, OutputContents, RunOptions};

const MODES: [ExecuteMode; 3] = [
    ExecuteMode::Planned,
    ExecuteMode::Naive,
    ExecuteMode::Poison,
];
/// A size whose rows need padding in readback (257 × 4 bytes is not a multiple of 256).
const ODD: (u32, u32) = (257, 131);
const EVEN: (u32, u32) = (128, 64);

fn description(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs `json` in every mode (with and without the DontCare opt-in) and asserts the kept imports
/// are bit-identical; returns the Planned outputs.
fn run_all_modes(gpu: &Gpu, json: &str, size: (u32, u32), label: &str) -> Vec<synthetic::Output> {
    let mut first: Option<Vec<synthetic::Output>> = None;
    for dont_care in [false, true] {
        for mode in MODES {
            let options = RunOptions {
                mode,
                frames: 2,
                dont_care,
                size: Some(size),
                ..RunOptions::default()
            };
            let out = synthetic::run(gpu, json, &options)
                .unwrap_or_else(|e| panic!("{label} {mode} (dont_care {dont_care}): {e}"));
            crate::support::assert_no_gpu_errors(gpu);
            assert!(
                !out.outputs.is_empty(),
                "{label}: no kept imports to compare"
            );
            match &first {
                None => first = Some(out.outputs),
                Some(expected) => {
                    for (a, e) in out.outputs.iter().zip(expected) {
                        assert_eq!(a.name, e.name);
                        assert!(
                            a.contents == e.contents,
                            "{label}: `{}` differs between planned and {mode} (dont_care {dont_care})",
                            a.name
                        );
                    }
                }
            }
        }
    }
    first.expect("ran")
}

fn check_scene(file: &str, scene: &str) {
    let gpu = crate::support::gpu();
    let json = description(file);
    for size in [EVEN, ODD] {
        let outputs = run_all_modes(&gpu, &json, size, scene);
        let output = outputs
            .iter()
            .find(|o| o.name == "output")
            .expect("scene keeps `output`");
        let OutputContents::Texture(subresources) = &output.contents else {
            panic!("output is a texture");
        };
        assert_eq!(subresources.len(), 1, "output has one subresource");
        let rgba = subresources[0].to_rgba8().expect("rgba8 output");
        crate::support::compare_with_reference(scene, size, &rgba);
    }
}

#[test]
fn msaa_resolve_agrees_across_modes_and_matches_reference() {
    check_scene("tests/graphs/msaa_resolve.json", "msaa_resolve");
}

#[test]
fn partial_read_write_agrees_across_modes_and_matches_reference() {
    check_scene("tests/graphs/partial_read_write.json", "partial_read_write");
}

#[test]
fn sampled_depth_agrees_across_modes_and_matches_reference() {
    check_scene("tests/graphs/depth_sampled.json", "depth_sampled");
}

#[test]
fn compute_and_copy_agree_across_modes_and_match_reference() {
    check_scene("tests/graphs/compute_copy.json", "compute_copy");
}

#[test]
fn example_graphs_agree_across_modes() {
    let gpu = crate::support::gpu();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples/graphs")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no example graphs found");
    for file in files {
        let json = std::fs::read_to_string(&file).expect("read");
        run_all_modes(&gpu, &json, (96, 64), &file.display().to_string());
    }
}

/// Builds a two-pass graph by hand: `background` covers the target, `overlay` draws one small
/// triangle but declares `access` — `write` is a lie (it covers only part), `read_write` the truth.
/// Returns the output pixels.
fn overlay_frame(gpu: &Gpu, access: Access, mode: ExecuteMode) -> Vec<u8> {
    let device = &gpu.device;
    let (w, h) = (64, 64);
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let (background, overlay) = crate::support::overlay_pipelines(device, "overlay", format);
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT
        | wgpu::TextureUsages::COPY_SRC
        | wgpu::TextureUsages::COPY_DST;
    let (target, view) = gpu.target("target", (w, h), format, usage);

    let mut graph = RenderGraph::new();
    let image = graph.create_texture("image", TextureDesc::new(format, w, h));
    let output = graph.import_texture("output", TextureDesc::new(format, w, h), Import::OUTPUT);
    crate::support::triangle_pass(&mut graph, "background", image, Access::Write, &background);
    crate::support::triangle_pass(&mut graph, "overlay", image, access, &overlay);
    crate::support::copy_pass(&mut graph, "present", image, output);
    // SAFETY: deliberately wrong for `Access::Write` here: the test shows Poison exposes it.
    let options =
        CompileOptions::default().with_dont_care(unsafe { wgpu::LoadOpDontCare::enabled() });
    let plan = graph.compile(&options).expect("compiles");
    let imports = crate::support::output_imports(output, &target, &view);
    let mut executor = Executor::new(device, &gpu.queue);
    executor
        .execute_and_submit(&mut graph, &plan, &imports, mode)
        .expect("executes");
    let readback =
        tilegraph_tool::headless::read_texture(device, &gpu.queue, &target).expect("readback");
    crate::support::assert_no_gpu_errors(gpu);
    readback.bytes
}

#[test]
fn poison_catches_a_partial_pass_declared_write() {
    let gpu = crate::support::gpu();
    // Declared truthfully, every mode agrees.
    let honest: Vec<_> = MODES
        .iter()
        .map(|&m| overlay_frame(&gpu, Access::ReadWrite, m))
        .collect();
    assert!(honest[0] == honest[1], "read_write: planned != naive");
    assert!(honest[0] == honest[2], "read_write: planned != poison");
    // Declared `write`, the background pass is culled (its result looks overwritten) and the
    // uncovered pixels are DontCare: Poison paints them magenta, so the frame differs from the
    // honest one and from the naive plan's.
    let naive = overlay_frame(&gpu, Access::Write, ExecuteMode::Naive);
    let poison = overlay_frame(&gpu, Access::Write, ExecuteMode::Poison);
    assert!(poison != honest[2], "poison must expose the false `write`");
    assert!(
        poison != naive,
        "poison and naive disagree on the false `write`"
    );
    let magenta = poison
        .chunks_exact(4)
        .filter(|p| *p == [255, 0, 255, 255])
        .count();
    assert!(
        magenta > 64 * 64 / 2,
        "uncovered pixels are poisoned ({magenta} magenta)"
    );
}
