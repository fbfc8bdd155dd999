//! What the examples share: their flags, the headless loop (with a resize mid-run) and the window
//! loop that presents through the graph. An example implements [`Example`]: build its pipelines,
//! update per frame, declare a frame's graph.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use tilegraph::helpers::DeviceOptions;
use tilegraph::wgpu;
use tilegraph::{
    CompileOptions, CompiledGraph, ExecuteMode, Executor, ExecutorOptions, Imports, PlanCache,
    RenderGraph, TextureHandle,
};
use tilegraph_tool::headless::{self, Backend, Gpu};
use tilegraph_tool::timings;
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoop, OwnedDisplayHandle};
use winit::window::{Window, WindowId};

/// The headless output format: shaders write linear values that the format encodes.
pub const OUTPUT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// A renderer the runner drives.
pub trait Example: Sized {
    /// The example's name: the window title and the default output file's stem.
    const NAME: &'static str;
    /// What its own flags set: a `clap::Args` flattened into the common flags
    /// ([`NoFlags`] when none).
    type Config: clap::Args + Default + Clone + std::fmt::Debug;

    /// What the example's own shaders need of the device on `adapter` beyond the plans' needs
    /// (bindings the graph does not see); the baseline by default.
    fn limits(_adapter: &wgpu::Adapter, _config: &Self::Config) -> wgpu::Limits {
        wgpu::Limits::downlevel_webgl2_defaults()
    }

    /// Builds the scene and pipelines for an output of `format`.
    fn new(gpu: &Gpu, format: wgpu::TextureFormat, config: &Self::Config) -> Result<Self, String>;

    /// Uploads what frame `frame` (at `time` seconds) needs at `size`.
    fn update(&mut self, queue: &wgpu::Queue, size: (u32, u32), frame: u32, time: f32);

    /// Declares the frame at `size`; returns the graph and its imported output.
    fn declare(&mut self, size: (u32, u32)) -> (RenderGraph<'_>, TextureHandle);

    /// After a frame was recorded (bind-group cache upkeep).
    fn end_frame(&mut self) {}

    /// Whether the executor records multiview passes as multiview render passes where the
    /// device can (`ExecutorOptions::with_multiview`).
    fn multiview(_config: &Self::Config) -> bool {
        true
    }

    /// Features the device gets where the adapter has them, beyond the timestamps every example
    /// asks for (e.g. a profiler's timestamps inside passes).
    fn optional_features(_config: &Self::Config) -> wgpu::Features {
        wgpu::Features::empty()
    }

    /// Declares, compiles, records and submits one frame into `frame.texture`; returns the plan
    /// it recorded. The default: [`declare`](Self::declare), the cache's plan, the executor.
    fn record_frame(&mut self, frame: FrameInput<'_>) -> Result<Arc<CompiledGraph>, String> {
        let (mut graph, output) = self.declare(frame.size);
        let plan = frame
            .cache
            .get_or_compile(&graph, frame.options)
            .map_err(|e| format!("{}: {e}", e.kind()))?;
        frame.imports.clear();
        frame.imports.texture(output, frame.texture, frame.view);
        frame
            .executor
            .execute_and_submit(&mut graph, &plan, frame.imports, frame.mode)
            .map_err(|e| headless::describe_failure(&e))?;
        Ok(plan)
    }

    /// A window event, before the shell handles it (pointer input for a UI).
    fn window_event(&mut self, _event: &WindowEvent) {}

    /// After the last frame, headless or in a window (with the GPU idle or not).
    fn finish(&mut self, _gpu: &Gpu) -> Result<(), String> {
        Ok(())
    }
}

/// What [`Example::record_frame`] records with.
pub struct FrameInput<'f> {
    pub gpu: &'f Gpu,
    pub executor: &'f mut Executor,
    pub cache: &'f mut PlanCache,
    pub imports: &'f mut Imports,
    /// The frame's number, from 0.
    pub frame: u32,
    pub size: (u32, u32),
    /// The output, imported each frame.
    pub texture: &'f wgpu::Texture,
    pub view: &'f wgpu::TextureView,
    /// The flags' compile options (`compile_options(dont_care)`).
    pub options: &'f CompileOptions,
    pub dont_care: bool,
    pub mode: ExecuteMode,
    /// `--timings`.
    pub timings: bool,
    /// Whether the frame is presented to a window.
    pub window: bool,
}

#[derive(Debug, Clone)]
pub struct Options<C> {
    pub window: bool,
    pub output: PathBuf,
    pub size: (u32, u32),
    /// `None`: the default (1 headless, until closed in a window).
    pub frames: Option<u32>,
    pub mode: ExecuteMode,
    pub backend: Backend,
    pub print_plan: bool,
    /// Write the plan as an HTML page here.
    pub plan_html: Option<PathBuf>,
    /// Headless: write the last frame's recorded render passes as JSON here
    /// (`tilegraph_tool::executed`).
    pub recorded_json: Option<PathBuf>,
    /// Hand over `wgpu::LoadOpDontCare` (default; `--no-dont-care` turns it off).
    pub dont_care: bool,
    pub timings: bool,
    /// Headless: from this frame on, render at this size.
    pub resize_at: Option<(u32, (u32, u32))>,
    /// In a window: ask the window system for another size every this many presented frames.
    pub resize_every: Option<u32>,
    /// Open the device with every limit of the adapter instead of what the frame's plan needs.
    pub adapter_limits: bool,
    /// Headless: record wgpu's API trace of the run into this directory (for `tilegraph trace`).
    pub trace_dir: Option<PathBuf>,
    pub extra: C,
}

/// The flags every example takes; an example's own ([`Example::Config`]) are flattened in.
#[derive(Debug, clap::Parser)]
#[command(about = "A tilegraph example: renders headless into a PNG, or into a window")]
struct Cli<C: clap::Args> {
    /// Render into a PNG without a window (the default).
    #[arg(long, conflicts_with = "window")]
    headless: bool,
    /// Present to a window (headless when no display is reachable).
    #[arg(long)]
    window: bool,
    /// Headless: the PNG written (default: the example's name, `.png`).
    #[arg(long, value_name = "PATH")]
    output: Option<PathBuf>,
    /// The frame's size (the window's first size).
    #[arg(long, value_name = "WxH", default_value = "1280x720", value_parser = size_arg)]
    size: (u32, u32),
    /// Frames to render (default: 1 headless, until closed in a window).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    frames: Option<u32>,
    /// What the executor records.
    #[arg(long, value_name = "planned|naive|poison", default_value = "planned", value_parser = mode_arg)]
    mode: ExecuteMode,
    /// The wgpu backend searched for an adapter.
    #[arg(long, value_name = "vulkan|gl|auto", default_value = "auto", value_parser = backend_arg)]
    backend: Backend,
    /// Print the plan (in a window: the first frame's).
    #[arg(long)]
    print_plan: bool,
    /// Write the plan as an HTML page here.
    #[arg(long, value_name = "PATH")]
    plan_html: Option<PathBuf>,
    /// Print the GPU time per group.
    #[arg(long)]
    timings: bool,
    /// Open the device with every limit of the adapter instead of what the frame's plan needs.
    #[arg(long)]
    adapter_limits: bool,
    /// Headless: write the last frame's recorded render passes as JSON here.
    #[arg(long, value_name = "PATH")]
    recorded_json: Option<PathBuf>,
    /// Compile without the DontCare token (`write` accesses clear instead).
    #[arg(long)]
    no_dont_care: bool,
    /// Headless: from frame FRAME on, render at WxH.
    #[arg(long, num_args = 2, value_names = ["FRAME", "WxH"])]
    resize_at: Option<Vec<String>>,
    /// In a window: ask the window system for another size every N presented frames.
    #[arg(long, value_name = "N", requires = "window", value_parser = clap::value_parser!(u32).range(1..))]
    resize_every: Option<u32>,
    /// Headless: record wgpu's API trace of the run into this directory (created if missing),
    /// for `tilegraph trace DIR` and `tilegraph replay DIR`.
    #[arg(long, value_name = "DIR", conflicts_with = "window")]
    trace_dir: Option<PathBuf>,
    #[command(flatten)]
    extra: C,
}

/// An example without flags of its own.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct NoFlags {}

/// The frame's compile options: with the DontCare token unless `--no-dont-care`.
pub fn compile_options(dont_care: bool) -> CompileOptions {
    let options = CompileOptions::default();
    if dont_care {
        // SAFETY: every `write` access of the gallery's frames is a full-screen triangle (or a
        // draw that covers the target) with no blending, a full write mask and no depth
        // rejection (no depth test, or deferred's lighting: `Always`, read-only); `--mode poison`
        // checks the claim on a device.
        options.with_dont_care(unsafe { wgpu::LoadOpDontCare::enabled() })
    } else {
        options
    }
}

fn size_arg(v: &str) -> Result<(u32, u32), String> {
    let limit = 8192;
    (tilegraph_tool::parse_size(v).filter(|&(w, h)| w <= limit && h <= limit))
        .ok_or_else(|| format!("takes WxH between 1x1 and 8192x8192, not `{v}`"))
}

fn mode_arg(v: &str) -> Result<ExecuteMode, String> {
    v.parse()
        .map_err(|e: tilegraph::ParseExecuteModeError| e.to_string())
}

fn backend_arg(v: &str) -> Result<Backend, String> {
    v.parse()
        .map_err(|e: tilegraph::helpers::ParseBackendError| e.to_string())
}

/// The words of a command line, as `parse` takes them (for the examples' tests).
pub fn args(line: &str) -> impl Iterator<Item = String> + '_ {
    line.split_whitespace().map(str::to_owned)
}

/// Parses the example's flags (`args` without the program name).
pub fn parse<E: Example>(args: impl Iterator<Item = String>) -> Result<Options<E::Config>, String> {
    parse_cli::<E>(args).map_err(|e| e.to_string())
}

fn parse_cli<E: Example>(
    args: impl Iterator<Item = String>,
) -> Result<Options<E::Config>, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let command = Cli::<E::Config>::command().name(E::NAME);
    let matches = command
        .clone()
        .try_get_matches_from(std::iter::once(E::NAME.to_owned()).chain(args))?;
    let cli = Cli::<E::Config>::from_arg_matches(&matches)?;
    let resize_at = match cli.resize_at.as_deref() {
        None => None,
        Some([frame, size]) => {
            let mut command = command;
            let frame = frame.parse().map_err(|_| {
                command.error(
                    clap::error::ErrorKind::ValueValidation,
                    format!("--resize-at takes a frame number, not `{frame}`"),
                )
            })?;
            let size = size_arg(size).map_err(|e| {
                command.error(
                    clap::error::ErrorKind::ValueValidation,
                    format!("--resize-at {e}"),
                )
            })?;
            Some((frame, size))
        }
        Some(_) => unreachable!("--resize-at takes two values"),
    };
    Ok(Options {
        window: cli.window,
        output: cli
            .output
            .unwrap_or_else(|| PathBuf::from(format!("{}.png", E::NAME))),
        size: cli.size,
        frames: cli.frames,
        mode: cli.mode,
        backend: cli.backend,
        print_plan: cli.print_plan,
        plan_html: cli.plan_html,
        recorded_json: cli.recorded_json,
        dont_care: !cli.no_dont_care,
        timings: cli.timings,
        resize_at,
        resize_every: cli.resize_every,
        adapter_limits: cli.adapter_limits,
        trace_dir: cli.trace_dir,
        extra: cli.extra,
    })
}

/// The example's `main`: parse, run headless or in a window, report.
pub fn main<E: Example>() -> ExitCode {
    headless::init_logging();
    let options = match parse_cli::<E>(std::env::args().skip(1)) {
        Ok(o) => o,
        // `--help` prints and exits 0; a usage error exits 2.
        Err(e) => e.exit(),
    };
    let windowed = options.window && display_available();
    if !windowed {
        // SAFETY: no other thread exists yet (the event loop and the device start later).
        unsafe { headless::stay_off_window_systems() };
    }
    let result = if windowed {
        run_window::<E>(&options)
    } else {
        if options.window {
            eprintln!(
                "no display (neither DISPLAY nor WAYLAND_DISPLAY is set): rendering headless"
            );
        }
        run_headless::<E>(&options)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The size of frame `i` headless: `--size`, then `--resize-at`'s from its frame on.
pub fn size_at<C>(o: &Options<C>, i: u32) -> (u32, u32) {
    match o.resize_at {
        Some((at, size)) if i >= at => size,
        _ => o.size,
    }
}

/// Opens the device the documented way and builds the example on it: the device gets exactly
/// what the frame's plans at `sizes` need (`DeviceOptions::for_plan`), or every adapter limit
/// with `--adapter-limits`. Declaring the frame takes the example's pipelines, which take a
/// device: the example is built on a device of the baseline limits first, its frame declared
/// and compiled at each size, and the device opened again with what those plans need where the
/// first one lacks it.
fn open_for_frames<E: Example>(
    o: &Options<E::Config>,
    sizes: &[(u32, u32)],
    open: impl Fn(&DeviceOptions) -> Result<Gpu, String>,
    output_format: impl Fn(&Gpu) -> Result<wgpu::TextureFormat, String>,
) -> Result<(Gpu, E, wgpu::TextureFormat), String> {
    let mut base =
        headless::device_options(o.backend, headless::validation_from_env(), o.adapter_limits)
            .with_optional_features(E::optional_features(&o.extra));
    let mut gpu = open(&base)?;
    // The example's shaders need their bindings whatever the plans say: ask for them first.
    let own = E::limits(&gpu.adapter, &o.extra);
    if !o.adapter_limits && !own.check_limits(&gpu.device.limits()) {
        base = base.with_limits(&own);
        drop(gpu);
        gpu = open(&base)?;
    }
    let format = output_format(&gpu)?;
    let mut example = E::new(&gpu, format, &o.extra)?;
    if o.adapter_limits {
        return Ok((gpu, example, format));
    }
    let compile = compile_options(o.dont_care);
    let mut wanted = base;
    for &size in sizes {
        let (graph, _) = example.declare(size);
        let plan = graph.compile(&compile).map_err(|e| e.to_string())?;
        wanted = wanted.for_plan(&plan);
    }
    if has_all(&gpu, &wanted) {
        return Ok((gpu, example, format));
    }
    drop(example);
    let gpu = open(&wanted)?;
    let format = output_format(&gpu)?;
    let example = E::new(&gpu, format, &o.extra)?;
    Ok((gpu, example, format))
}

/// Whether `gpu` already has what `wanted` asks (multiview only where the adapter has it).
fn has_all(gpu: &Gpu, wanted: &DeviceOptions) -> bool {
    let (features, limits) = (gpu.device.features(), gpu.device.limits());
    let multiview = wanted.multiview_view_count == 0
        || !gpu.adapter.features().contains(wgpu::Features::MULTIVIEW)
        || (features.contains(wgpu::Features::MULTIVIEW)
            && limits.max_multiview_view_count >= wanted.multiview_view_count);
    features.contains(wanted.required_features)
        && wanted.required_limits.check_limits(&limits)
        && multiview
}

/// The headless device and example; with `--trace-dir`, the device that records them is
/// opened once more with the options the first opening settled on, tracing into the directory
/// (a trace holds one device: those opened to learn what the frames need are not traced).
fn open_headless<E: Example>(
    o: &Options<E::Config>,
    sizes: &[(u32, u32)],
) -> Result<(Gpu, E), String> {
    let last = std::cell::RefCell::new(None);
    let (gpu, example, _) = open_for_frames::<E>(
        o,
        sizes,
        |options| {
            *last.borrow_mut() = Some(options.clone());
            headless::open(options).map_err(|e| e.to_string())
        },
        |_| Ok(OUTPUT_FORMAT),
    )?;
    let (Some(dir), Some(mut options)) = (&o.trace_dir, last.into_inner()) else {
        return Ok((gpu, example));
    };
    drop(example);
    drop(gpu);
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    options.trace = wgpu::Trace::Directory(dir.clone());
    let gpu = headless::open(&options).map_err(|e| e.to_string())?;
    let example = E::new(&gpu, OUTPUT_FORMAT, &o.extra)?;
    Ok((gpu, example))
}

fn run_headless<E: Example>(o: &Options<E::Config>) -> Result<(), String> {
    let mut sizes = vec![o.size];
    sizes.extend(o.resize_at.map(|(_, size)| size));
    let (gpu, mut example) = open_headless::<E>(o, &sizes)?;
    eprintln!("adapter: {}", gpu.describe());
    if let (true, Some(why)) = (o.timings, timings::unavailable(&gpu.device)) {
        eprintln!("{why}");
    }
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
    let mut target: Option<((u32, u32), wgpu::Texture, wgpu::TextureView)> = None;
    let mut executor = gpu.executor(
        ExecutorOptions::default()
            .with_timestamps(o.timings)
            .with_multiview(E::multiview(&o.extra)),
    );
    let mut cache = PlanCache::default();
    let mut imports = Imports::new();
    let frames = o.frames.unwrap_or(1);
    let options = compile_options(o.dont_care);
    let mut gpu_times = timings::Timings::default();
    let mut last_plan = None;
    for i in 0..frames {
        let size = size_at(o, i);
        if target.as_ref().is_none_or(|t| t.0 != size) {
            let (texture, view) = gpu.target(E::NAME, size, OUTPUT_FORMAT, usage);
            target = Some((size, texture, view));
        }
        let (_, texture, view) = target.as_ref().expect("made above");
        example.update(&gpu.queue, size, i, i as f32 / 60.0);
        let plan = example.record_frame(FrameInput {
            gpu: &gpu,
            executor: &mut executor,
            cache: &mut cache,
            imports: &mut imports,
            frame: i,
            size,
            texture,
            view,
            options: &options,
            dont_care: o.dont_care,
            mode: o.mode,
            timings: o.timings,
            window: false,
        })?;
        example.end_frame();
        if executor.timestamps_enabled() {
            gpu_times.add_frame(&executor.read_timings());
        }
        last_plan = Some(plan);
    }
    example.finish(&gpu)?;
    let (size, texture, _) = target.as_ref().expect("at least one frame");
    let readback =
        headless::read_texture(&gpu.device, &gpu.queue, texture).map_err(|e| e.to_string())?;
    if let Some(first) = gpu.take_uncaptured_errors().first() {
        return Err(format!("wgpu reported an error: {first}"));
    }
    let rgba = readback
        .to_rgba8()
        .ok_or("the output format has no PNG conversion")?;
    headless::write_png(&o.output, size.0, size.1, &rgba)
        .map_err(|e| format!("cannot write {}: {e}", o.output.display()))?;
    if let (Some(path), Some(plan)) = (&o.plan_html, &last_plan) {
        std::fs::write(path, plan.to_html())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        eprintln!("wrote the plan to {}", path.display());
    }
    if let (Some(path), Some(plan)) = (&o.recorded_json, &last_plan) {
        std::fs::write(path, tilegraph_tool::executed::to_json(plan, o.mode))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(plan) = last_plan {
        println!("{}", plan.to_table());
    }
    if gpu_times.frames() > 0 {
        println!("{}", gpu_times.to_table());
    }
    eprintln!(
        "rendered {frames} frame(s), the last at {}x{} ({} mode), wrote {}",
        size.0,
        size.1,
        o.mode,
        o.output.display()
    );
    Ok(())
}

/// Whether a window system is reachable (on Linux: an X11 or Wayland display is named).
pub fn display_available() -> bool {
    if cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "openbsd"
    )) {
        ["DISPLAY", "WAYLAND_DISPLAY"]
            .iter()
            .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
    } else {
        true
    }
}

fn run_window<E: Example>(options: &Options<E::Config>) -> Result<(), String> {
    let event_loop = EventLoop::new().map_err(|e| format!("cannot open a window: {e}"))?;
    let mut app = App::<E> {
        options: options.clone(),
        display: event_loop.owned_display_handle(),
        state: None,
        error: None,
    };
    event_loop
        .run_app(&mut app)
        .map_err(|e| format!("event loop failed: {e}"))?;
    if let (None, Some(state)) = (&app.error, app.state.as_mut())
        && let Err(e) = state.example.finish(&state.gpu)
    {
        app.error = Some(e);
    }
    match app.error {
        Some(e) => Err(e),
        None => {
            let Some(state) = app.state.as_ref() else {
                println!("presented 0 frames to a window");
                return Ok(());
            };
            println!("presented {} frames to a window", state.frames);
            let e = &state.surface_events;
            if options.resize_every.is_some() || e.outdated + e.lost + e.suboptimal > 0 {
                println!(
                    "resized the window {} times, the last frame at {}x{}; surface outdated {}, \
                     lost {}, suboptimal {}, configured {} times",
                    e.resizes_requested,
                    state.last_presented.0,
                    state.last_presented.1,
                    e.outdated,
                    e.lost,
                    e.suboptimal,
                    e.configured
                );
            }
            Ok(())
        }
    }
}

struct App<E: Example> {
    options: Options<E::Config>,
    display: OwnedDisplayHandle,
    state: Option<WindowState<E>>,
    error: Option<String>,
}

struct WindowState<E> {
    window: Arc<Window>,
    gpu: Gpu,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    example: E,
    executor: Executor,
    cache: PlanCache,
    imports: Imports,
    start: Instant,
    frames: u32,
    plan_printed: bool,
    /// The size of the last presented frame.
    last_presented: (u32, u32),
    surface_events: SurfaceEvents,
}

/// What the surface went through: the window loop's report after `--resize-every`.
#[derive(Debug, Default)]
struct SurfaceEvents {
    resizes_requested: u32,
    outdated: u32,
    lost: u32,
    suboptimal: u32,
    configured: u32,
}

impl<E: Example> ApplicationHandler for App<E> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.state.is_some() {
            return;
        }
        match WindowState::new(event_loop, &self.options, self.display.clone()) {
            Ok(state) => {
                state.window.request_redraw();
                self.state = Some(state);
            }
            Err(e) => {
                self.error = Some(e);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        let Some(state) = self.state.as_mut() else {
            return;
        };
        state.example.window_event(&event);
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => {
                state.config.width = size.width;
                state.config.height = size.height;
                state.configure();
                state.window.request_redraw();
            }
            WindowEvent::RedrawRequested => match state.redraw(&self.options) {
                Err(e) => {
                    self.error = Some(e);
                    event_loop.exit();
                }
                Ok(()) if self.options.frames.is_some_and(|n| state.frames >= n) => {
                    event_loop.exit()
                }
                // A minimised window gets no redraw until it is resized back.
                Ok(()) if state.config.width == 0 || state.config.height == 0 => {}
                Ok(()) => state.window.request_redraw(),
            },
            _ => {}
        }
    }
}

impl<E: Example> WindowState<E> {
    fn new(
        event_loop: &ActiveEventLoop,
        options: &Options<E::Config>,
        display: OwnedDisplayHandle,
    ) -> Result<Self, String> {
        let attributes = Window::default_attributes()
            .with_title(format!("tilegraph: {}", E::NAME))
            .with_inner_size(winit::dpi::PhysicalSize::new(
                options.size.0,
                options.size.1,
            ));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .map_err(|e| format!("cannot create a window: {e}"))?,
        );
        let instance = wgpu::Instance::new(
            headless::instance_descriptor(options.backend, headless::validation_from_env())
                .with_display_handle(Box::new(display)),
        );
        let surface = instance
            .create_surface(window.clone())
            .map_err(|e| format!("cannot create a surface for the window: {e}"))?;
        let size = window.inner_size();
        let surface_format = |gpu: &Gpu| {
            let caps = surface.get_capabilities(&gpu.adapter);
            caps.formats
                .iter()
                .copied()
                .find(|f| f.is_srgb())
                .or(caps.formats.first().copied())
                .ok_or_else(|| "the surface supports no format on this adapter".to_owned())
        };
        let (gpu, example, format) = open_for_frames::<E>(
            options,
            &[(size.width.max(1), size.height.max(1))],
            |o| headless::open_with(instance.clone(), o, Some(&surface)).map_err(|e| e.to_string()),
            surface_format,
        )?;
        eprintln!("adapter: {}", gpu.describe());
        let caps = surface.get_capabilities(&gpu.adapter);
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            width: size.width,
            height: size.height,
            present_mode: wgpu::PresentMode::AutoVsync,
            desired_maximum_frame_latency: 2,
            alpha_mode: caps
                .alpha_modes
                .first()
                .copied()
                .unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: vec![],
            color_space: wgpu::SurfaceColorSpace::Auto,
        };
        let executor =
            gpu.executor(ExecutorOptions::default().with_multiview(E::multiview(&options.extra)));
        let mut state = WindowState {
            window,
            surface,
            config,
            example,
            executor,
            cache: PlanCache::default(),
            imports: Imports::new(),
            start: Instant::now(),
            frames: 0,
            plan_printed: false,
            last_presented: (0, 0),
            surface_events: SurfaceEvents::default(),
            gpu,
        };
        state.configure();
        Ok(state)
    }

    /// (Re)configures the surface for the current size; a minimised window (zero size) waits.
    fn configure(&mut self) {
        if self.config.width > 0 && self.config.height > 0 {
            self.surface.configure(&self.gpu.device, &self.config);
            self.surface_events.configured += 1;
        }
    }

    /// `--resize-every`: after every N presented frames, asks the window system for the next
    /// size of a cycle around `--size` (smaller, larger, back), as a user dragging the window
    /// would. The surface follows through `Resized`, or through `Outdated`/`Suboptimal` when the
    /// window changed before the event arrived.
    fn resize_window(&mut self, options: &Options<E::Config>) {
        let Some(every) = options.resize_every else {
            return;
        };
        if !self.frames.is_multiple_of(every) {
            return;
        }
        let (w, h) = options.size;
        let step = self.surface_events.resizes_requested % 3;
        let size = match step {
            0 => (w * 3 / 4, h * 3 / 4),
            1 => (w * 5 / 4, h * 5 / 4),
            _ => (w, h),
        };
        self.surface_events.resizes_requested += 1;
        let _ = self
            .window
            .request_inner_size(winit::dpi::PhysicalSize::new(size.0.max(1), size.1.max(1)));
    }

    fn redraw(&mut self, options: &Options<E::Config>) -> Result<(), String> {
        if self.config.width == 0 || self.config.height == 0 {
            return Ok(());
        }
        let (surface_texture, suboptimal) = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t) => (t, false),
            wgpu::CurrentSurfaceTexture::Suboptimal(t) => (t, true),
            // Nothing to draw to this time: skip the frame and try on the next redraw.
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => {
                return Ok(());
            }
            wgpu::CurrentSurfaceTexture::Outdated => {
                self.surface_events.outdated += 1;
                let size = self.window.inner_size();
                self.config.width = size.width;
                self.config.height = size.height;
                self.configure();
                return Ok(());
            }
            wgpu::CurrentSurfaceTexture::Lost => {
                self.surface_events.lost += 1;
                self.surface = self
                    .gpu
                    .instance
                    .create_surface(self.window.clone())
                    .map_err(|e| format!("the surface was lost and cannot be recreated: {e}"))?;
                self.configure();
                return Ok(());
            }
            wgpu::CurrentSurfaceTexture::Validation => {
                let errors = self.gpu.take_uncaptured_errors();
                return Err(format!(
                    "acquiring the surface texture failed validation: {}",
                    errors.join("; ")
                ));
            }
        };
        let size = (self.config.width, self.config.height);
        let texture = &surface_texture.texture;
        let view = texture.create_view(&Default::default());
        let time = self.start.elapsed().as_secs_f32();
        self.example
            .update(&self.gpu.queue, size, self.frames, time);
        let plan = self.example.record_frame(FrameInput {
            gpu: &self.gpu,
            executor: &mut self.executor,
            cache: &mut self.cache,
            imports: &mut self.imports,
            frame: self.frames,
            size,
            texture,
            view: &view,
            options: &compile_options(options.dont_care),
            dont_care: options.dont_care,
            mode: options.mode,
            timings: options.timings,
            window: true,
        })?;
        self.example.end_frame();
        if !self.plan_printed {
            if options.print_plan {
                println!("{}", plan.to_table());
            }
            if let Some(path) = &options.plan_html {
                std::fs::write(path, plan.to_html())
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
            self.plan_printed = true;
        }
        self.window.pre_present_notify();
        self.gpu.queue.present(surface_texture);
        if let Some(first) = self.gpu.take_uncaptured_errors().first() {
            return Err(format!("wgpu reported an error: {first}"));
        }
        if suboptimal {
            self.surface_events.suboptimal += 1;
            let size = self.window.inner_size();
            self.config.width = size.width;
            self.config.height = size.height;
            self.configure();
        }
        self.frames += 1;
        self.last_presented = size;
        self.resize_window(options);
        Ok(())
    }
}
