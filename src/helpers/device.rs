//! Opening an adapter and a device for a graph: the backend from an explicit choice or an
//! environment variable, and exactly the features, limits and downlevel flags the compiled
//! plans need plus those the caller asks for.

use crate::execute::{Executor, ExecutorOptions};
use crate::plan::CompiledGraph;

/// The environment variable [`Backend::from_env`] reads.
pub const BACKEND_VARIABLE: &str = "TILEGRAPH_BACKEND";

/// Which wgpu backend to look for adapters on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Backend {
    /// Vulkan only (on a machine without a GPU: Mesa lavapipe).
    Vulkan,
    /// OpenGL / GLES only (on a machine without a GPU: Mesa llvmpipe through EGL).
    Gl,
    /// Any GPU on Vulkan or GL, else a software adapter (Vulkan first).
    #[default]
    Auto,
}

/// The backend named `vulkan`, `gl` or `auto`.
///
/// ```
/// use tilegraph::helpers::Backend;
/// assert_eq!("gl".parse::<Backend>(), Ok(Backend::Gl));
/// assert!("metal".parse::<Backend>().is_err());
/// ```
impl std::str::FromStr for Backend {
    type Err = ParseBackendError;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        match name {
            "vulkan" => Ok(Backend::Vulkan),
            "gl" => Ok(Backend::Gl),
            "auto" => Ok(Backend::Auto),
            _ => Err(ParseBackendError {
                value: name.to_owned(),
            }),
        }
    }
}

/// A name that is not a [`Backend`]'s: its message names the accepted ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown backend `{value}`: expected vulkan, gl or auto")]
pub struct ParseBackendError {
    value: String,
}

impl ParseBackendError {
    /// The name that was parsed.
    pub fn value(&self) -> &str {
        &self.value
    }
}

impl Backend {
    /// The backend named `vulkan`, `gl` or `auto`.
    #[deprecated(
        since = "0.1.0",
        note = "use `name.parse::<Backend>()` (`FromStr`), whose error names the accepted values; removed in 0.2"
    )]
    pub fn from_name(name: &str) -> Option<Self> {
        name.parse().ok()
    }

    /// The backend named by [`BACKEND_VARIABLE`] (`TILEGRAPH_BACKEND`), else `Auto`.
    pub fn from_env() -> Result<Self, DeviceError> {
        Self::from_env_var(BACKEND_VARIABLE)
    }

    /// The backend named by the environment variable `variable`, else `Auto`. An unknown name is
    /// an error, so that a typo cannot silently test the wrong backend.
    pub fn from_env_var(variable: &str) -> Result<Self, DeviceError> {
        match std::env::var(variable) {
            Ok(value) => value.parse().map_err(|_| DeviceError::UnknownBackend {
                variable: variable.to_owned(),
                value,
            }),
            Err(_) => Ok(Backend::Auto),
        }
    }

    /// The wgpu backends searched.
    pub fn backends(self) -> wgpu::Backends {
        match self {
            Backend::Vulkan => wgpu::Backends::VULKAN,
            Backend::Gl => wgpu::Backends::GL,
            Backend::Auto => wgpu::Backends::VULKAN | wgpu::Backends::GL,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Backend::Vulkan => "Vulkan",
            Backend::Gl => "GL",
            Backend::Auto => "Vulkan or GL",
        }
    }
}

/// Why no device could be opened.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DeviceError {
    /// No adapter on the backends searched.
    #[error(
        "no {backend} adapter found. Without a GPU, install a software one: `apt-get install mesa-vulkan-drivers libvulkan1` (Vulkan lavapipe) or `apt-get install libegl1 libgl1-mesa-dri libgles2` (GL llvmpipe)"
    )]
    NoAdapter {
        /// The backends searched: `Vulkan`, `GL` or `Vulkan or GL`.
        backend: &'static str,
    },
    /// The environment variable names no backend.
    #[error("{variable} is `{value}`; it takes vulkan, gl or auto")]
    UnknownBackend {
        /// The variable read.
        variable: String,
        /// The value found.
        value: String,
    },
    /// No adapter has every required feature; the best one is named.
    #[error("the adapter `{adapter}` lacks the required features {missing:?}")]
    MissingFeatures {
        /// The adapter that would have been chosen.
        adapter: String,
        /// The required features it lacks.
        missing: wgpu::Features,
    },
    /// No adapter reaches every required limit; the best one is named.
    #[error("the adapter `{adapter}` does not reach the required limits: {message}")]
    MissingLimits {
        /// The adapter that would have been chosen.
        adapter: String,
        /// Each limit it misses, with the value required and the adapter's.
        message: String,
    },
    /// No adapter has every required downlevel capability; the best one is named.
    #[error(
        "the adapter `{adapter}` lacks the downlevel capabilities {missing:?} that the plan needs (CompiledGraph::required_downlevel_flags)"
    )]
    MissingDownlevelFlags {
        /// The adapter that would have been chosen.
        adapter: String,
        /// The required flags it lacks.
        missing: wgpu::DownlevelFlags,
    },
    /// The adapter refused to create the device.
    #[error("the adapter `{adapter}` could not create a device: {message}")]
    RequestDevice {
        /// The adapter.
        adapter: String,
        /// wgpu's message.
        message: String,
    },
}

/// What [`open_device`] asks of the adapter and the device.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct DeviceOptions {
    /// The backends to search.
    pub backend: Backend,
    /// `InstanceFlags::VALIDATION` (the Khronos layer on Vulkan), for [`open_device`]'s instance.
    pub validation: bool,
    /// Features the device must have: the plans' ([`for_plan`](Self::for_plan)) and the
    /// caller's. An adapter without them is passed over.
    pub required_features: wgpu::Features,
    /// Features enabled where the adapter has them (timestamps, multiview).
    pub optional_features: wgpu::Features,
    /// Limits the device must reach: the plans' and the caller's, starting from
    /// `Limits::downlevel_webgl2_defaults()`. Raise them for what the renderer's own shaders
    /// need (storage buffers, compute workgroups).
    pub required_limits: wgpu::Limits,
    /// Downlevel capabilities the adapter must have (`adapter.get_downlevel_capabilities()`):
    /// the plans' ([`CompiledGraph::required_downlevel_flags`]) and the caller's. An adapter
    /// without them is passed over.
    pub required_downlevel_flags: wgpu::DownlevelFlags,
    /// Views of the widest multiview pass of the plans: where the adapter has
    /// `Features::MULTIVIEW` and renders that many views at once, the device gets the feature
    /// and a `max_multiview_view_count` this large, and multiview passes record as one
    /// multiview render pass; elsewhere the device is opened without, and they record one render
    /// pass per view. 0: none.
    pub multiview_view_count: u32,
    /// Request every limit the adapter has instead of only the required ones (a tool that runs
    /// graphs it does not know in advance).
    pub adapter_limits: bool,
    /// The device's label.
    pub label: &'static str,
    /// wgpu's API trace of the device (`DeviceDescriptor::trace`): `wgpu::Trace::Off`, or with
    /// wgpu's `trace` feature `wgpu::Trace::Directory(dir)`, which `tilegraph trace` reads.
    pub trace: wgpu::Trace,
}

impl Default for DeviceOptions {
    fn default() -> Self {
        Self::new(Backend::Auto)
    }
}

impl DeviceOptions {
    /// A device on `backend` with no features and the lowest limits; add what the plans and the
    /// renderer need.
    pub fn new(backend: Backend) -> Self {
        DeviceOptions {
            backend,
            validation: false,
            required_features: wgpu::Features::empty(),
            optional_features: wgpu::Features::empty(),
            required_limits: wgpu::Limits::downlevel_webgl2_defaults(),
            required_downlevel_flags: wgpu::DownlevelFlags::empty(),
            multiview_view_count: 0,
            adapter_limits: false,
            label: "tilegraph",
            trace: wgpu::Trace::Off,
        }
    }

    /// Adds what recording `plan` needs: its features, limits and downlevel flags
    /// ([`CompiledGraph::required_features`], [`required_limits`](CompiledGraph::required_limits),
    /// [`required_downlevel_flags`](CompiledGraph::required_downlevel_flags)), and its multiview
    /// views as wanted where the adapter has them ([`multiview_view_count`](Self::multiview_view_count)).
    /// Call it for every plan the device will record.
    ///
    /// The plan's requirements come from the graph's structure alone: a renderer that needs its
    /// device before its pipelines (and so before its pass closures) declares the passes
    /// without closures, compiles, opens the device, and gives each pass its closure after.
    /// The graph keeps its fingerprint, so the plan compiled before records it:
    ///
    /// ```no_run
    /// use tilegraph::helpers::{Backend, DeviceOptions, open_device};
    /// use tilegraph::{
    ///     Access, CompileOptions, ExecuteMode, ExecutorOptions, Imports, PassCallback, RenderGraph,
    ///     TextureDesc, wgpu,
    /// };
    ///
    /// // The frame's structure, no closures yet: five rgba16float targets (40 colour bytes a
    /// // sample, more than WebGPU's default 32) and a lighting pass reading them.
    /// let mut graph = RenderGraph::new();
    /// let desc = TextureDesc::new(wgpu::TextureFormat::Rgba16Float, 1280, 720);
    /// let targets: Vec<_> = (0..5)
    ///     .map(|i| graph.create_texture(&format!("gbuffer{i}"), desc))
    ///     .collect();
    /// let mut gbuffer = graph.add_render_pass("gbuffer");
    /// for &t in &targets {
    ///     gbuffer = gbuffer.color(t, Access::Clear);
    /// }
    /// let gbuffer = gbuffer.side_effects().finish();
    /// let plan = graph.compile(&CompileOptions::default())?;
    /// assert_eq!(plan.required_limits().max_color_attachment_bytes_per_sample, 40);
    ///
    /// // The device, with exactly what the plan needs.
    /// let gpu = open_device(&DeviceOptions::new(Backend::from_env()?).for_plan(&plan))?;
    ///
    /// // Now the pipelines, and the closures that draw with them.
    /// graph.set_callback(gbuffer, PassCallback::Render(Box::new(|pass, _ctx| {
    ///     // pass.set_pipeline(&gbuffer_pipeline); pass.draw(..);
    ///     Ok(())
    /// })));
    /// let mut executor = gpu.executor(ExecutorOptions::default());
    /// let commands = executor.execute(&mut graph, &plan, &Imports::new(), ExecuteMode::Planned)?;
    /// gpu.queue.submit(commands);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// A graph loaded from a description (`RenderGraph::from_json`) works the same way.
    pub fn for_plan(mut self, plan: &CompiledGraph) -> Self {
        self.required_features |= plan.required_features();
        self.required_downlevel_flags |= plan.required_downlevel_flags();
        let mut limits = plan.required_limits();
        // Multiview only changes how the plan is recorded: wanted, not required.
        let views = std::mem::take(&mut limits.max_multiview_view_count);
        self.multiview_view_count = self.multiview_view_count.max(views);
        self.required_limits = self.required_limits.or_better_values_from(&limits);
        if views > 0 {
            self.optional_features |= wgpu::Features::MULTIVIEW;
            let multisampled_multiview = plan.groups().iter().any(|g| {
                g.multiview.is_some()
                    && g.attachments().any(|a| {
                        matches!(
                            plan.resource_decl(a.resource).kind,
                            crate::decl::ResourceKind::Texture(t) if t.samples > 1
                        )
                    })
            });
            if multisampled_multiview {
                self.optional_features |= wgpu::Features::MULTISAMPLE_ARRAY;
            }
        }
        self
    }

    /// Adds features the device must have.
    pub fn with_features(mut self, features: wgpu::Features) -> Self {
        self.required_features |= features;
        self
    }

    /// Adds features enabled where the adapter has them.
    pub fn with_optional_features(mut self, features: wgpu::Features) -> Self {
        self.optional_features |= features;
        self
    }

    /// Raises the required limits to `limits` where it asks for more.
    pub fn with_limits(mut self, limits: &wgpu::Limits) -> Self {
        self.required_limits = self.required_limits.or_better_values_from(limits);
        self
    }

    /// Requests every limit the adapter has ([`adapter_limits`](Self::adapter_limits)).
    pub fn with_adapter_limits(mut self) -> Self {
        self.adapter_limits = true;
        self
    }

    /// Turns the API validation layers on or off.
    pub fn with_validation(mut self, validation: bool) -> Self {
        self.validation = validation;
        self
    }
}

/// An instance, the adapter chosen on it, and its device and queue.
#[derive(Debug)]
pub struct OpenedDevice {
    /// The instance.
    pub instance: wgpu::Instance,
    /// The adapter.
    pub adapter: wgpu::Adapter,
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
}

impl OpenedDevice {
    /// An executor for the device that knows the adapter's downlevel flags
    /// ([`ExecutorOptions::with_downlevel_flags`]), so that a plan needing one the adapter
    /// lacks is a typed error before anything is recorded.
    pub fn executor(&self, options: ExecutorOptions) -> Executor {
        let flags = self.adapter.get_downlevel_capabilities().flags;
        Executor::with_options(
            &self.device,
            &self.queue,
            options.with_downlevel_flags(flags),
        )
    }
}

/// The instance options [`open_device`] uses. To present to a window, add its display handle
/// (`with_display_handle`) and call [`open_device_with`] with the window's surface.
pub fn instance_descriptor(backend: Backend, validation: bool) -> wgpu::InstanceDescriptor {
    let mut flags = wgpu::InstanceFlags::empty();
    if validation {
        // Not `DEBUG`: its shader debug info names WGSL as the source language, which older
        // SPIR-V validators (Debian's layer) reject.
        flags |= wgpu::InstanceFlags::VALIDATION;
    }
    wgpu::InstanceDescriptor {
        backends: backend.backends(),
        flags,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    }
}

/// Opens a device as `options` ask: a hardware adapter if one on the backend has the required
/// features and limits, else a software one. No adapter at all is
/// [`DeviceError::NoAdapter`]; adapters without what is required are
/// [`DeviceError::MissingFeatures`] or [`DeviceError::MissingLimits`].
///
/// # Headless on Linux: `NODEVICE_SELECT=1`
///
/// Most Linux machines install Mesa's Vulkan device-selection layer as an implicit layer: every
/// Vulkan instance loads it, and whenever adapters are enumerated it connects to the Wayland or
/// X server to put the GPU driving the display first. On a machine without a display server
/// (a CI runner, a render farm, a container) `XDG_RUNTIME_DIR` is unset, and it prints
/// `error: XDG_RUNTIME_DIR is invalid or not set in the environment.` to stderr on every
/// enumeration. `open_device` ranks the adapters itself (hardware first), so the layer has
/// nothing to add to a headless application, which turns it off with `NODEVICE_SELECT=1`; an
/// application that presents to a window leaves it on. The library does not change the process
/// environment: set the variable in the shell, or first thing in `main`, before any thread
/// starts ([`std::env::set_var`] is `unsafe` because no other thread may read or write the
/// environment meanwhile):
///
/// ```no_run
/// // First thing in `main`, before any thread starts:
/// if std::env::var_os("NODEVICE_SELECT").is_none() {
///     // SAFETY: no other thread has started yet.
///     unsafe { std::env::set_var("NODEVICE_SELECT", "1") };
/// }
/// // ... compile the frame, then `open_device`.
/// ```
///
/// # Example
///
/// ```no_run
/// use tilegraph::helpers::{Backend, DeviceOptions, open_device};
/// use tilegraph::{Access, CompileOptions, RenderGraph, TextureDesc, wgpu};
///
/// let mut graph = RenderGraph::new();
/// let hdr = graph.create_texture(
///     "hdr",
///     TextureDesc::new(wgpu::TextureFormat::Rgba16Float, 1920, 1080),
/// );
/// graph.add_render_pass("sky").color(hdr, Access::Clear).side_effects().finish();
/// let plan = graph.compile(&CompileOptions::default()).expect("a valid graph");
/// // `TILEGRAPH_BACKEND=gl` picks the GL backend; unset, Vulkan or GL.
/// let options = DeviceOptions::new(Backend::from_env()?)
///     .for_plan(&plan)
///     .with_optional_features(tilegraph::wgpu::Features::TIMESTAMP_QUERY);
/// let gpu = open_device(&options)?;
/// # Ok::<(), tilegraph::helpers::DeviceError>(())
/// ```
pub fn open_device(options: &DeviceOptions) -> Result<OpenedDevice, DeviceError> {
    let instance = wgpu::Instance::new(instance_descriptor(options.backend, options.validation));
    open_device_with(instance, options, None)
}

/// [`open_device`] on a given instance; with `surface`, only adapters that can present to it
/// count.
pub fn open_device_with(
    instance: wgpu::Instance,
    options: &DeviceOptions,
    surface: Option<&wgpu::Surface<'_>>,
) -> Result<OpenedDevice, DeviceError> {
    let backends = options.backend.backends();
    let mut adapters: Vec<wgpu::Adapter> =
        pollster::block_on(instance.enumerate_adapters(backends))
            .into_iter()
            .filter(|a| surface.is_none_or(|s| a.is_surface_supported(s)))
            .collect();
    // Hardware first, Vulkan before GL; the sort is stable, so enumeration order breaks ties.
    adapters.sort_by_key(rank);
    let Some(best) = adapters.first() else {
        return Err(DeviceError::NoAdapter {
            backend: options.backend.describe(),
        });
    };
    let fits = |a: &wgpu::Adapter| {
        a.features().contains(options.required_features)
            && options.required_limits.check_limits(&a.limits())
            && a.get_downlevel_capabilities()
                .flags
                .contains(options.required_downlevel_flags)
    };
    let Some(adapter) = adapters.iter().find(|a| fits(a)) else {
        return Err(lacking(best, options));
    };
    let adapter = adapter.clone();
    let mut required_limits = if options.adapter_limits {
        adapter.limits()
    } else {
        options.required_limits.clone()
    };
    let mut optional_features = adapter.features() & options.optional_features;
    let views = options.multiview_view_count;
    if views > 0 && optional_features.contains(wgpu::Features::MULTIVIEW) {
        if adapter.limits().max_multiview_view_count >= views {
            required_limits.max_multiview_view_count =
                required_limits.max_multiview_view_count.max(views);
        } else {
            // Too few views for the plans' passes: the executor records them per view.
            optional_features.remove(wgpu::Features::MULTIVIEW | wgpu::Features::MULTISAMPLE_ARRAY);
        }
    }
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some(options.label),
        required_features: options.required_features | optional_features,
        required_limits,
        trace: options.trace.clone(),
        ..Default::default()
    }))
    .map_err(|e| DeviceError::RequestDevice {
        adapter: adapter.get_info().name,
        message: e.to_string(),
    })?;
    Ok(OpenedDevice {
        instance,
        adapter,
        device,
        queue,
    })
}

/// Orders adapters: discrete, integrated, other, software; Vulkan before GL.
fn rank(adapter: &wgpu::Adapter) -> (u8, u8) {
    let info = adapter.get_info();
    let hardware = match info.device_type {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu | wgpu::DeviceType::Other => 2,
        wgpu::DeviceType::Cpu => 3,
    };
    let api = u8::from(info.backend != wgpu::Backend::Vulkan);
    (hardware, api)
}

/// What `adapter` lacks of `options`' requirements.
fn lacking(adapter: &wgpu::Adapter, options: &DeviceOptions) -> DeviceError {
    let name = adapter.get_info().name;
    let missing = options.required_features - adapter.features();
    if !missing.is_empty() {
        return DeviceError::MissingFeatures {
            adapter: name,
            missing,
        };
    }
    let missing = options.required_downlevel_flags - adapter.get_downlevel_capabilities().flags;
    if !missing.is_empty() {
        return DeviceError::MissingDownlevelFlags {
            adapter: name,
            missing,
        };
    }
    let mut misses = Vec::new();
    options.required_limits.check_limits_with_fail_fn(
        &adapter.limits(),
        false,
        |limit, required, allowed| {
            misses.push(format!("{limit} {required} (the adapter has {allowed})"));
        },
    );
    DeviceError::MissingLimits {
        adapter: name,
        message: misses.join(", "),
    }
}
