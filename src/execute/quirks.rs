//! What adapters do differently from what wgpu promises, and what the executor does about it:
//! what is known from the adapter at start, and what is probed once when a plan first needs it.

mod probe;
mod views;

use crate::context::{ViewDefects, ViewKind};
pub(super) use probe::BindingDefects;
#[cfg(feature = "helpers")]
pub(crate) use probe::{FullScreenDraw, pipeline as full_screen_pipeline};

use super::ExecutorOptions;
use crate::context::Views;

/// The adapter behaviour the executor works around, one entry per quirk. The executor holds
/// one ([`Executor`](super::Executor)`::quirks`); its call sites ask it rather than the adapter.
///
/// **`DontCare` on GL** ([`dont_care`](Self::dont_care)). wgpu's GL backend ignores
/// `LoadOp::DontCare`: the attachment behaves as `Load`. Where the context can invalidate
/// (GLES 3.0 and later, desktop GL 4.3 and later, read from the adapter's `GL_VERSION`), the
/// executor records an empty render pass that invalidates the `DontCare` attachments before
/// their group; below that it records the op as it is. Covered by the `gl_invalidates` unit
/// test below and, on GL, by the DontCare runs of `tests/gpu/poison.rs` and `tests/gpu/graphs.rs`.
///
/// **Resolves into later layers on lavapipe** ([`resolve_layers_via_copy`](Self::resolve_layers_via_copy)).
/// lavapipe (Vulkan, adapter name `llvmpipe…`) resolves into layer 0 of an array whatever
/// layer the resolve view names. A resolve into a layer past the first goes through a
/// single-layer texture and a copy into the layer (`detour.rs`); the pool gives arrays that
/// may be resolved into `COPY_DST` for it (`bind.rs`). Covered by `tests/gpu/stereo.rs` and
/// `tests/gpu/multiview.rs` (per-view recording of multisampled eyes).
///
/// **Multisampled arrays one texture per layer**
/// ([`split_multisampled_arrays`](Self::split_multisampled_arrays)). Where multiview does not
/// record multisampled arrays (multiview off, no `Features::MULTIVIEW`, or no
/// `Features::MULTISAMPLE_ARRAY`: llvmpipe's GL among others), their passes are recorded one
/// view at a time, and resolving from a layer of a multisampled array loses the resolve on
/// lavapipe; so every multisampled array is kept as one texture per layer. Covered by
/// `tests/gpu/stereo.rs` (without multiview) and `tests/gpu/multiview.rs`.
///
/// **Multiview resolves past layer 0 on lavapipe** (probed:
/// [`later_layers_resolve_nothing`](Self::later_layers_resolve_nothing)). lavapipe resolves
/// nothing from a multiview render pass over layers of a multisampled array that start past
/// layer 0. Probed the first time a plan has such a pass (a cleared pass over layers 1..3 of
/// a 4× array, resolved and read back) and said once in the log; where it fails, such arrays
/// are kept one texture per layer and their passes recorded per view. Covered by
/// `a_multiview_msaa_pass_at_a_later_base_layer_resolves_each_view_into_its_layer`
/// (`tests/gpu/multiview.rs`).
///
/// **One binding point on some GL contexts** (probed, GL only:
/// [`binding_defects`](Self::binding_defects)). wgpu's GL backend on a desktop GL 3.3 context
/// whose driver lists compute shaders (NVIDIA's through EGL) leaves every sampler and uniform
/// block of a shader on binding point 0, so a draw reads the first one twice. Probed with one
/// 1×1 draw the first time a plan has a pass reading two textures or two uniform buffers, and
/// said once in the log; such passes are then refused ([`ExecuteError::Unsupported`](super::ExecuteError::Unsupported))
/// instead of rendering a silently different image. Covered by
/// `a_pass_reading_two_textures_and_two_uniform_buffers_reads_each` (`tests/gpu/buffers.rs`).
///
/// **Views a shader reads wrongly on GL** (partly probed, GL only:
/// [`view_defects`](Self::view_defects)). wgpu's GL backend binds the whole texture for a shader
/// read under its own target and narrows it to the view's mips only: a 2D view of one layer of
/// several, a view whose first layer is past 0 and an array view of six square layers (a cube
/// map there) read another texture on every driver (wgpu-hal's own code, which logs them);
/// a view of a mip past 0 (where the driver counts `texelFetch` levels from mip 0), a layer
/// range from 0 and a cube depend on the driver and are probed, one draw each compared with
/// the texel its view names. Decided the first time a plan has a pass reading such a view
/// ([`ViewKind`]) and said once in the log. A live pass sampling a range of several
/// subresources of a kind read wrongly is refused before recording; a single subresource or a
/// whole texture may be bound through a view of another dimension (`Binding::MipAs`,
/// `Binding::TextureAs`), so [`PassContext::view`](crate::PassContext::view) and the
/// bind-group cache refuse such a view when it is asked for
/// ([`ContextError::Unsupported`](crate::ContextError::Unsupported)). Covered by the unit tests of `context/views.rs` and `quirks/views.rs` and by
/// `one_layer_sampled_alone_is_that_layer_or_refused_on_gl`,
/// `a_layer_range_is_an_array_view_of_exactly_its_layers` and the view-kind tests of
/// `tests/gpu/views.rs`.
///
/// **Downlevel flags of GL** ([`assumed_downlevel_flags`](Self::assumed_downlevel_flags)).
/// Where the caller gave no adapter flags, the executor assumes every flag but those wgpu 30's
/// backend never has: on GL, `READ_ONLY_DEPTH_STENCIL` and `DEPTH_TEXTURE_AND_BUFFER_COPIES`.
/// A plan needing one is refused before recording. Covered by
/// `sampling_a_read_only_depth_is_a_typed_error_where_the_adapter_cannot` (`tests/gpu/limits.rs`).
pub(crate) struct Quirks {
    /// How the backend treats `LoadOp::DontCare`.
    pub(super) dont_care: DontCareSupport,
    /// Resolve into a layer past the first of an array through a single-layer texture and a
    /// copy: lavapipe resolves into layer 0 whatever layer the view names.
    pub(super) resolve_layers_via_copy: bool,
    /// Keep every multisampled array as one texture per layer: multiview does not record them
    /// on this device.
    pub(super) split_multisampled_arrays: bool,
    /// Whether shader reads of views other than whole textures are checked against the view
    /// probe (GL).
    pub(super) probe_views: bool,
    /// Whether passes reading two textures (uniform buffers) are checked against the binding
    /// probe (GL).
    pub(super) probe_bindings: bool,
    /// The downlevel flags assumed where the caller gave none.
    pub(super) assumed_downlevel_flags: wgpu::DownlevelFlags,
    /// The device resolves nothing from a multiview pass over layers of a multisampled array
    /// past layer 0 (lavapipe): such arrays are kept one texture per layer and their passes
    /// recorded per view. Probed when a plan first has such a pass (`None` until then).
    later_layer_msaa_per_view: Option<bool>,
    /// Whether a draw reads each of two textures (uniform buffers) of a bind group from its own
    /// binding (GL): probed when a plan first has a pass that reads two (`None` until then).
    binding_defects: Option<BindingDefects>,
    /// The kinds of view a shader reads wrongly (GL): probed when a plan first has a pass
    /// reading one (`None` until then).
    pub(super) view_defects: Option<ViewDefects>,
}

impl Quirks {
    /// What is known of `device` at start; the probes run later, when a plan needs them.
    pub(super) fn of(device: &wgpu::Device, options: &ExecutorOptions) -> Self {
        let info = device.adapter_info();
        let gl = info.backend == wgpu::Backend::Gl;
        let split_multisampled_arrays = !(options.multiview
            && Views::multiview_supported(device)
            && device
                .features()
                .contains(wgpu::Features::MULTISAMPLE_ARRAY));
        Quirks {
            dont_care: DontCareSupport::of(&info),
            resolve_layers_via_copy: info.backend == wgpu::Backend::Vulkan
                && info.name.starts_with("llvmpipe"),
            split_multisampled_arrays,
            probe_views: gl,
            probe_bindings: gl,
            assumed_downlevel_flags: assumed_downlevel_flags(info.backend),
            later_layer_msaa_per_view: None,
            binding_defects: None,
            view_defects: None,
        }
    }

    /// Whether the device resolves nothing from a multiview pass over layers of a multisampled
    /// array past layer 0: probed the first time a plan has such a pass, said once in the log.
    pub(super) fn later_layers_resolve_nothing(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> bool {
        *self
            .later_layer_msaa_per_view
            .get_or_insert_with(|| probe_later_layers(device, queue))
    }

    /// The GL binding probe's result, probed once and said once in the log.
    pub(super) fn binding_defects(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> BindingDefects {
        *self
            .binding_defects
            .get_or_insert_with(|| probe_binding_defects(device, queue))
    }
}

impl Quirks {
    /// The view probe's result, probed once and said once in the log.
    pub(super) fn view_defects(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> ViewDefects {
        *self
            .view_defects
            .get_or_insert_with(|| probe_view_defects(device, queue))
    }
}

/// The downlevel flags of a device whose adapter's flags were not given: every flag but those
/// wgpu 30's `backend` never has.
fn assumed_downlevel_flags(backend: wgpu::Backend) -> wgpu::DownlevelFlags {
    use wgpu::DownlevelFlags as D;
    match backend {
        wgpu::Backend::Gl => {
            D::all() - D::READ_ONLY_DEPTH_STENCIL - D::DEPTH_TEXTURE_AND_BUFFER_COPIES
        }
        _ => D::all(),
    }
}

/// How the backend treats `LoadOp::DontCare`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum DontCareSupport {
    /// Issued as such (Vulkan, Metal).
    Native,
    /// Ignored: it would behave as `Load` (GL/GLES), so the attachment is invalidated first.
    InvalidateBefore,
    /// Ignored, and the GL context cannot invalidate either (desktop GL below 4.3): recorded
    /// as it is, it behaves as `Load`, which costs nothing on the immediate-mode GPUs that
    /// offer such contexts; an empty pass would only cost a framebuffer change.
    AsLoad,
}

impl DontCareSupport {
    pub(super) fn of(info: &wgpu::AdapterInfo) -> Self {
        match info.backend {
            wgpu::Backend::Gl if gl_invalidates(&info.driver_info) => {
                DontCareSupport::InvalidateBefore
            }
            wgpu::Backend::Gl => DontCareSupport::AsLoad,
            _ => DontCareSupport::Native,
        }
    }
}

/// Whether wgpu's GL backend issues `glInvalidateFramebuffer` on a context whose `GL_VERSION`
/// is `version` (wgpu reports it as the adapter's `driver_info`): GLES 3.0 and later, desktop
/// GL 4.3 and later, as wgpu-hal decides. An unreadable version counts as able.
fn gl_invalidates(version: &str) -> bool {
    let number = |s: &str| -> Option<(u32, u32)> {
        let mut it = s.split(|c: char| !c.is_ascii_digit());
        Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
    };
    match version.find(" ES ") {
        Some(i) => number(&version[i + 4..]).is_none_or(|v| v >= (3, 0)),
        None => number(version).is_none_or(|v| v >= (4, 3)),
    }
}

/// Runs the later-layer resolve probe and says in the log what it found.
fn probe_later_layers(device: &wgpu::Device, queue: &wgpu::Queue) -> bool {
    let broken = !probe::multiview_msaa_resolves_past_layer_0(device, queue);
    if broken {
        log::info!(
            "{}: multiview passes over layers of a multisampled array past layer 0 resolve nothing here; they are recorded one view at a time, over one texture per layer",
            device.adapter_info().name
        );
    }
    broken
}

/// Runs the GL binding probe and says in the log what it found.
fn probe_binding_defects(device: &wgpu::Device, queue: &wgpu::Queue) -> BindingDefects {
    let defects = probe::binding_defects(device, queue);
    if defects.textures || defects.uniforms {
        log::warn!(
            "{}: a draw reads every texture ({}) and uniform buffer ({}) from the first binding; passes that read two are refused",
            device.adapter_info().name,
            if defects.textures { "yes" } else { "no" },
            if defects.uniforms { "yes" } else { "no" },
        );
    }
    defects
}

/// Runs the view probe and says in the log what it found.
fn probe_view_defects(device: &wgpu::Device, queue: &wgpu::Queue) -> ViewDefects {
    let defects = views::view_defects(device, queue);
    let wrong: Vec<&str> = defects.kinds().map(ViewKind::describe).collect();
    if !wrong.is_empty() {
        log::warn!(
            "{}: a shader reads another subresource through {}; passes that read such views are refused",
            device.adapter_info().name,
            wrong.join(", ")
        );
    }
    defects
}

#[cfg(test)]
mod tests {
    use super::gl_invalidates;

    #[test]
    fn gl_contexts_that_invalidate_are_read_from_the_version_string() {
        assert!(gl_invalidates("4.5 (Core Profile) Mesa 22.3.6"));
        assert!(gl_invalidates("4.3.0 NVIDIA 580.159.04"));
        assert!(!gl_invalidates("3.3.0 NVIDIA 580.159.04"));
        assert!(!gl_invalidates("4.1 ATI-4.14.1"));
        assert!(gl_invalidates("OpenGL ES 3.2 v1.r38p1"));
        assert!(gl_invalidates("OpenGL ES 3.0 Mesa 22.3.6"));
        assert!(!gl_invalidates("OpenGL ES 2.0 Mesa 22.3.6"));
        assert!(gl_invalidates("WebGL 2.0"));
    }
}
