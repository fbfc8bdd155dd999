//! Opening an adapter and a device for a graph: the backend from an explicit choice or an
//! environment variable, and exactly the features and limits the compiled plans need plus those
//! the caller asks for.

use crate::compiled::CompiledGraph;

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

impl Backend {
    /// The backend named `vulkan`, `gl` or `auto`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "vulkan" => Some(Backend::Vulkan),
            "gl" => Some(Backend::Gl),
            "auto" => Some(Backend::Auto),
            _ => None,
        }
    }

    /// The backend named by [`BACKEND_VARIABLE`] (`TILEGRAPH_BACKEND`), else `Auto`.
    pub fn from_env() -> Result<Self, DeviceError> {
        Self::from_env_var(BACKEND_VARIABLE)
    }

    /// The backend named by the environment variable `variable`, else `Auto`. An unknown name is
    /// an error, so that a typo cannot silently test the wrong backend.
    pub fn from_env_var(variable: &str) -> Result<Self, DeviceError> {
        match std::env::var(variable) {
            Ok(value) => Self::from_name(&value).ok_or_else(|| DeviceError::UnknownBackend {
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
    /// Request every limit the adapter has instead of only the required ones (a tool that runs
    /// graphs it does not know in advance).
    pub adapter_limits: bool,
    /// The device's label.
    pub label: &'static str,
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
            adapter_limits: false,
            label: "tilegraph",
        }
    }

    /// Adds the features and limits recording `plan` needs
    /// ([`CompiledGraph::required_features`], [`CompiledGraph::required_limits`]). Call it for
    /// every plan the device will record.
    pub fn for_plan(mut self, plan: &CompiledGraph) -> Self {
        self.required_features |= plan.required_features();
        self.required_limits = self
            .required_limits
            .or_better_values_from(&plan.required_limits());
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
    };
    let Some(adapter) = adapters.iter().find(|a| fits(a)) else {
        return Err(lacking(best, options));
    };
    let adapter = adapter.clone();
    let required_limits = if options.adapter_limits {
        adapter.limits()
    } else {
        options.required_limits.clone()
    };
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some(options.label),
        required_features: options.required_features
            | (adapter.features() & options.optional_features),
        required_limits,
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
