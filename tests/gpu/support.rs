//! GPU test support: the device, validation-error capture and reference-image comparison.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

use tilegraph::wgpu;
use tilegraph_tool::headless::{self, Backend, Gpu};

/// Validation-layer messages at error level (wgpu-hal logs them through `log`).
static LAYER_ERRORS: Mutex<Vec<String>> = Mutex::new(Vec::new());

struct LayerErrorLog;

impl log::Log for LayerErrorLog {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.level() <= log::Level::Error && metadata.target().starts_with("wgpu_hal")
    }

    fn log(&self, record: &log::Record<'_>) {
        if self.enabled(record.metadata()) {
            LAYER_ERRORS
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(format!("{}", record.args()));
        }
    }

    fn flush(&self) {}
}

/// Opens the test device for graphs of many shapes: every limit of the adapter and the
/// features descriptions may use. No adapter is a failure with the reason, never a skip.
pub fn gpu() -> Gpu {
    open(|backend, validation| headless::device_options(backend, validation, true))
}

/// Opens a device the documented way: exactly what `plan` needs
/// (`DeviceOptions::for_plan`). No adapter is a failure with the reason, never a skip.
pub fn gpu_for(plan: &tilegraph::CompiledGraph) -> Gpu {
    open(|backend, validation| headless::device_options(backend, validation, false).for_plan(plan))
}

/// [`gpu_for`] with `features` (and no other optional ones) where the adapter has them:
/// timestamps for a profiler, or none.
pub fn gpu_with(plan: &tilegraph::CompiledGraph, features: wgpu::Features) -> Gpu {
    open(|backend, validation| {
        let mut options = headless::device_options(backend, validation, false).for_plan(plan);
        options.optional_features = features;
        options
    })
}

fn open(options: impl FnOnce(Backend, bool) -> tilegraph::helpers::DeviceOptions) -> Gpu {
    static LOGGER: Once = Once::new();
    LOGGER.call_once(|| {
        if log::set_logger(&LayerErrorLog).is_ok() {
            log::set_max_level(log::LevelFilter::Error);
        }
    });
    let backend = Backend::from_env().unwrap_or_else(|e| panic!("{e}"));
    match headless::open(&options(backend, headless::validation_from_env())) {
        Ok(gpu) => gpu,
        Err(e) => panic!("GPU test needs an adapter ({backend:?}, from TILEGRAPH_BACKEND): {e}"),
    }
}

/// Whether the device can write timestamps; says so on stderr when it cannot, for the tests
/// that then have nothing to time (the recording path is unchanged without them).
pub fn can_time(gpu: &Gpu) -> bool {
    let can = gpu
        .device
        .features()
        .contains(wgpu::Features::TIMESTAMP_QUERY);
    if !can {
        eprintln!(
            "adapter {} has no TIMESTAMP_QUERY: nothing to time",
            gpu.describe()
        );
    }
    can
}

/// Fails the test if wgpu or the validation layer reported an error.
pub fn assert_no_gpu_errors(gpu: &Gpu) {
    let uncaptured = gpu.take_uncaptured_errors();
    assert!(uncaptured.is_empty(), "wgpu errors: {uncaptured:#?}");
    let layer = std::mem::take(&mut *LAYER_ERRORS.lock().unwrap_or_else(|e| e.into_inner()));
    assert!(layer.is_empty(), "validation layer errors: {layer:#?}");
}

/// A pixel matches when every channel is within this many 8-bit steps of the reference.
pub const CHANNEL_TOLERANCE: u8 = 3;
/// At most this fraction of pixels may exceed the channel tolerance (rasterizer edge rules).
pub const PIXEL_FRACTION: f64 = 0.005;

fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference")
}

/// Compares 8-bit RGBA pixels of `scene` at `(width, height)` with
/// `tests/reference/<scene>-<width>x<height>.png` (`<name>` below) under the tolerance above. On a
/// mismatch writes `<name>-actual.png` and `<name>-difference.png` to the test output directory
/// and fails naming them. `TILEGRAPH_BLESS=1` writes the reference instead.
pub fn compare_with_reference(scene: &str, (width, height): (u32, u32), rgba: &[u8]) {
    let name = format!("{scene}-{width}x{height}");
    let reference = reference_dir().join(format!("{name}.png"));
    if std::env::var("TILEGRAPH_BLESS").is_ok_and(|v| v == "1") {
        headless::write_png(&reference, width, height, rgba).expect("write reference");
        return;
    }
    let (rw, rh, expected) = headless::read_png(&reference).unwrap_or_else(|e| {
        panic!(
            "reference {} unreadable ({e}); create it with TILEGRAPH_BLESS=1",
            reference.display()
        )
    });
    assert_eq!(
        (rw, rh),
        (width, height),
        "{name}: size differs from the reference"
    );
    let mut difference = Vec::with_capacity(rgba.len());
    let mut bad = 0usize;
    let mut worst = 0u8;
    for (a, e) in rgba.chunks_exact(4).zip(expected.chunks_exact(4)) {
        let d = (0..4).map(|c| a[c].abs_diff(e[c])).max().unwrap_or(0);
        worst = worst.max(d);
        if d > CHANNEL_TOLERANCE {
            bad += 1;
        }
        let v = d.saturating_mul(8);
        difference.extend_from_slice(&[v, v, v, 255]);
    }
    let pixels = (width * height) as usize;
    if bad as f64 > PIXEL_FRACTION * pixels as f64 {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gpu-test-output");
        std::fs::create_dir_all(&out).expect("output directory");
        let actual = out.join(format!("{name}-actual.png"));
        let diff = out.join(format!("{name}-difference.png"));
        headless::write_png(&actual, width, height, rgba).expect("write actual");
        headless::write_png(&diff, width, height, &difference).expect("write difference");
        panic!(
            "{name}: {bad} of {pixels} pixels differ from {} by more than {CHANNEL_TOLERANCE}/255 (worst {worst}); see {} and {}",
            reference.display(),
            actual.display(),
            diff.display()
        );
    }
}

/// The pipelines of the two-pass tests: `full` + `shade` covers the target with a pattern of
/// its position (the background), `small` + `green` draws one small green triangle (the overlay).
pub fn overlay_pipelines(
    device: &wgpu::Device,
    label: &str,
    format: wgpu::TextureFormat,
) -> (wgpu::RenderPipeline, wgpu::RenderPipeline) {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(
            "@vertex fn full(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
                 var p = array(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
                 return vec4f(p[i], 0.5, 1.0);
             }
             @vertex fn small(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
                 var p = array(vec2f(-0.5, -0.5), vec2f(0.5, -0.5), vec2f(0.0, 0.5));
                 return vec4f(p[i], 0.5, 1.0);
             }
             @fragment fn shade(@builtin(position) pos: vec4f) -> @location(0) vec4f {
                 return vec4f(fract(pos.x / 16.0), fract(pos.y / 16.0), 0.5, 1.0);
             }
             @fragment fn green() -> @location(0) vec4f { return vec4f(0.0, 1.0, 0.0, 1.0); }"
                .into(),
        ),
    });
    let pipeline =
        |vs: &str, fs: &str| headless::color_pipeline(device, vs, &module, None, (vs, fs), format);
    (pipeline("full", "shade"), pipeline("small", "green"))
}

/// Declares a render pass that only clears `target`: no draw, the attachment's clear does it.
pub fn clear_pass(
    graph: &mut tilegraph::RenderGraph<'_>,
    name: &str,
    target: impl Into<tilegraph::SubresourceHandle>,
) -> tilegraph::PassId {
    graph
        .add_render_pass(name)
        .color(target, tilegraph::Access::Clear)
        .execute(|_, _| Ok(()))
}

/// Declares a copy pass that copies all of `src` into `dst` (textures of one size and format).
pub fn copy_pass(
    graph: &mut tilegraph::RenderGraph<'_>,
    name: &str,
    src: tilegraph::TextureHandle,
    dst: tilegraph::TextureHandle,
) -> tilegraph::PassId {
    graph
        .add_copy_pass(name)
        .copy_src(src)
        .copy_dst(dst)
        .execute(move |encoder, ctx| {
            let (from, to) = (ctx.texture(src)?, ctx.texture(dst)?);
            encoder.copy_texture_to_texture(from.as_image_copy(), to.as_image_copy(), from.size());
            Ok(())
        })
}

pub use tilegraph_examples::setup::one_entry_layout;

/// The three ways the executor records a frame, which must agree.
pub const MODES: [tilegraph::ExecuteMode; 3] = [
    tilegraph::ExecuteMode::Planned,
    tilegraph::ExecuteMode::Naive,
    tilegraph::ExecuteMode::Poison,
];

/// An executor of the test device recording multiview passes as one render pass where the
/// device can (`multiview`), or one per view.
pub fn multiview_executor(gpu: &Gpu, multiview: bool) -> tilegraph::Executor {
    tilegraph::Executor::with_options(
        &gpu.device,
        &gpu.queue,
        tilegraph::ExecutorOptions::default().with_multiview(multiview),
    )
}

/// Declares a render pass drawing one triangle with `pipeline` (no bindings) into `target`,
/// declared `access`.
pub fn triangle_pass<'a>(
    graph: &mut tilegraph::RenderGraph<'a>,
    name: &str,
    target: tilegraph::TextureHandle,
    access: tilegraph::Access,
    pipeline: &'a wgpu::RenderPipeline,
) -> tilegraph::PassId {
    graph
        .add_render_pass(name)
        .color(target, access)
        .execute(move |pass, _| {
            pass.set_pipeline(pipeline);
            pass.draw(0..3, 0..1);
            Ok(())
        })
}

/// The imports of a frame whose only import is its `output`, bound to `texture` and `view`.
pub fn output_imports(
    output: tilegraph::TextureHandle,
    texture: &wgpu::Texture,
    view: &wgpu::TextureView,
) -> tilegraph::Imports {
    let mut imports = tilegraph::Imports::new();
    imports.texture(output, texture, view);
    imports
}

/// A graph whose one pass clears a texture `name` of `desc`, kept alive by its side effects.
pub fn one_cleared_texture(
    name: &str,
    desc: tilegraph::TextureDesc,
) -> tilegraph::RenderGraph<'static> {
    let mut graph = tilegraph::RenderGraph::new();
    let t = graph.create_texture(name, desc);
    graph
        .add_render_pass("fill")
        .color(t, tilegraph::Access::Clear)
        .side_effects()
        .execute(|_, _| Ok(()));
    graph
}

/// The binding type of a write-only 2D storage texture of `format`.
pub fn storage_image(format: wgpu::TextureFormat) -> wgpu::BindingType {
    wgpu::BindingType::StorageTexture {
        access: wgpu::StorageTextureAccess::WriteOnly,
        format,
        view_dimension: wgpu::TextureViewDimension::D2,
    }
}
