//! What the compiler may do: the options a plan is compiled with.

use crate::tile::{TileProfile, TileProfiles};

/// What the compiler may do. Every optimisation has a switch, so a suspected miscompile can be
/// bisected and a plan compared against the one without it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct CompileOptions {
    /// The caller's promise that `write` accesses really overwrite every pixel: they then load
    /// `DontCare` instead of clearing. `None` (the default) clears.
    pub dont_care: Option<wgpu::LoadOpDontCare>,
    /// Frame rate of the per-second traffic figures.
    pub fps: Fps,
    /// Cull passes whose results nobody uses.
    pub cull: bool,
    /// Merge compatible render passes into one group.
    pub merge: bool,
    /// Mark textures that live only on tile as `TRANSIENT_ATTACHMENT`.
    pub transient: bool,
    /// Share physical textures between resources whose lifetimes do not overlap.
    pub alias: bool,
    /// Restructure the frame: drop dead resolves, fold copies into resolves and reorder passes
    /// when that lets them merge and saves traffic ([guide](crate::guide#restructuring)).
    pub restructure: bool,
    /// The device limits the plan must fit ([`with_limits`](Self::with_limits)); `None` checks
    /// nothing.
    pub(crate) limits: Option<PlanLimits>,
    /// The tile profiles the reports show ([`with_tile_profiles`](Self::with_tile_profiles)).
    tile: TileProfiles,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            dont_care: None,
            fps: Fps::from(60),
            cull: true,
            merge: true,
            transient: true,
            alias: true,
            restructure: true,
            limits: None,
            tile: TileProfiles::default(),
        }
    }
}

impl CompileOptions {
    /// Lets `write` accesses load `DontCare`.
    pub fn with_dont_care(mut self, token: wgpu::LoadOpDontCare) -> Self {
        self.dont_care = Some(token);
        self
    }

    /// Switches culling of unused passes on or off.
    pub fn with_cull(mut self, on: bool) -> Self {
        self.cull = on;
        self
    }

    /// Switches merging of render passes on or off.
    pub fn with_merge(mut self, on: bool) -> Self {
        self.merge = on;
        self
    }

    /// Switches transient (memoryless) textures on or off.
    pub fn with_transient(mut self, on: bool) -> Self {
        self.transient = on;
        self
    }

    /// Switches sharing of physical textures on or off.
    pub fn with_alias(mut self, on: bool) -> Self {
        self.alias = on;
        self
    }

    /// Switches restructuring on or off; off gives the plan of the declared order.
    pub fn with_restructure(mut self, on: bool) -> Self {
        self.restructure = on;
        self
    }

    /// Makes a plan that needs more than `limits` (what the device it will run on has, or a
    /// preset such as `wgpu::Limits::default()`) the compile error
    /// [`GraphError::ExceedsLimit`](crate::GraphError::ExceedsLimit), naming the first declared
    /// pass over a limit. The limits checked are those a plan's structure decides
    /// ([`CompiledGraph::required_limits`](crate::CompiledGraph::required_limits)), except
    /// `max_multiview_view_count`: without it multiview passes record one render pass per view.
    pub fn with_limits(mut self, limits: &wgpu::Limits) -> Self {
        self.limits = Some(PlanLimits::of(limits));
        self
    }

    /// The tile profiles whose budgets the plan reports for every render group
    /// ([guide](crate::guide#will-it-fit-the-tile)): the plan JSON's `"tile"` lists, the table's
    /// TILE section, the HTML viewer's profile picker, a line in each DOT cluster. Reported,
    /// never changing the plan; none by default.
    pub fn with_tile_profiles(mut self, profiles: &[TileProfile]) -> Self {
        self.tile = TileProfiles::of(profiles);
        self
    }

    /// The tile profiles the reports show, in the order of [`TileProfile::all`].
    pub fn tile_profiles(&self) -> Vec<TileProfile> {
        self.tile.iter().collect()
    }

    pub(crate) fn tile_set(&self) -> TileProfiles {
        self.tile
    }

    /// Sets the frame rate of the per-second figures: a whole number (`with_fps(90)`) or an
    /// [`Fps`] of a decimal rate (`Fps::new(72.5)`).
    pub fn with_fps(mut self, fps: impl Into<Fps>) -> Self {
        self.fps = fps.into();
        self
    }
}

/// A frame rate of the per-second figures: frames a second to a thousandth (72.5, 59.94, 90).
/// The plan JSON writes a whole rate as an integer and any other as a decimal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fps {
    /// Thousandths of a frame a second; never 0.
    millis: u64,
}

impl Fps {
    /// The rate `fps` rounded to a thousandth; `None` unless it is finite and rounds to
    /// between 0.001 and `u32::MAX`.
    pub fn new(fps: f64) -> Option<Fps> {
        let millis = (fps * 1000.0).round();
        // Within range and integral where used, checked first.
        (fps.is_finite() && (1.0..=f64::from(u32::MAX) * 1000.0).contains(&millis)).then_some(Fps {
            millis: millis as u64,
        })
    }

    /// The rate as a number.
    pub fn get(self) -> f64 {
        self.millis as f64 / 1000.0
    }

    /// `bytes_per_frame` at this rate, rounded to the nearest byte (exact at a whole rate);
    /// `None` past `u64::MAX`.
    pub fn per_second(self, bytes_per_frame: u64) -> Option<u64> {
        let b = (u128::from(bytes_per_frame) * u128::from(self.millis) + 500) / 1000;
        u64::try_from(b).ok()
    }
}

impl From<u32> for Fps {
    /// A whole rate; 0 is taken as 1, the least whole rate.
    fn from(fps: u32) -> Self {
        Fps {
            millis: u64::from(fps.max(1)) * 1000,
        }
    }
}

impl std::fmt::Display for Fps {
    /// `60`, `72.5`, `59.94`: no trailing zeros.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (whole, frac) = (self.millis / 1000, self.millis % 1000);
        if frac == 0 {
            return write!(f, "{whole}");
        }
        let digits = format!("{frac:03}");
        write!(f, "{whole}.{}", digits.trim_end_matches('0'))
    }
}

impl serde::Serialize for Fps {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.millis.is_multiple_of(1000) {
            s.serialize_u64(self.millis / 1000)
        } else {
            s.serialize_f64(self.get())
        }
    }
}

/// Declares [`PlanLimits`] from one list of the `wgpu::Limits` fields a plan's structure
/// decides, so that reading, writing, raising and comparing them cannot miss one.
macro_rules! plan_limits {
    ($($(#[$doc:meta])* $name:ident: $ty:ty,)*) => {
        /// The `wgpu::Limits` fields a plan's structure decides, by their wgpu names, in wgpu's
        /// order: what [`CompiledGraph::required_limits`](crate::CompiledGraph::required_limits)
        /// raises and [`CompileOptions::with_limits`] checks. Copied out of `wgpu::Limits`
        /// (which is not `Copy`) so that the options stay `Copy`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
        pub(crate) struct PlanLimits {
            $($(#[$doc])* pub $name: $ty,)*
        }

        impl PlanLimits {
            /// Zero everywhere: where one pass's own needs start.
            pub(crate) const ZERO: PlanLimits = PlanLimits { $($name: 0,)* };

            /// These fields of `limits`.
            pub(crate) fn of(limits: &wgpu::Limits) -> Self {
                PlanLimits { $($name: limits.$name,)* }
            }

            /// `limits` with these fields set to this.
            pub(crate) fn apply_to(&self, limits: &mut wgpu::Limits) {
                $(limits.$name = self.$name;)*
            }

            /// Each field the larger of this and `other`'s.
            pub(crate) fn raise_to(&mut self, other: &Self) {
                $(self.$name = self.$name.max(other.$name);)*
            }

            /// The first field (in wgpu's order) where this asks for more than `given`: its
            /// name, this value and `given`'s. `max_multiview_view_count` is not checked.
            pub(crate) fn first_over(&self, given: &Self) -> Option<(&'static str, u64, u64)> {
                $(
                    if stringify!($name) != "max_multiview_view_count" && self.$name > given.$name {
                        return Some((stringify!($name), u64::from(self.$name), u64::from(given.$name)));
                    }
                )*
                None
            }
        }
    };
}

plan_limits! {
    /// The largest width or height of a texture.
    max_texture_dimension_2d: u32,
    /// The most array layers of a texture.
    max_texture_array_layers: u32,
    /// Textures one pass samples (or reads at the pixel).
    max_sampled_textures_per_shader_stage: u32,
    /// Storage buffers one pass binds.
    max_storage_buffers_per_shader_stage: u32,
    /// Storage textures one pass binds.
    max_storage_textures_per_shader_stage: u32,
    /// Uniform buffers one pass binds.
    max_uniform_buffers_per_shader_stage: u32,
    /// The largest uniform buffer, bound whole.
    max_uniform_buffer_binding_size: u64,
    /// The largest storage buffer, bound whole.
    max_storage_buffer_binding_size: u64,
    /// Vertex buffers one render pass binds.
    max_vertex_buffers: u32,
    /// The largest buffer.
    max_buffer_size: u64,
    /// Colour attachments of one render pass.
    max_color_attachments: u32,
    /// Colour bytes a sample of one render pass, as wgpu adds them up.
    max_color_attachment_bytes_per_sample: u32,
    /// Compute passes: `Limits::downlevel_defaults()`'s compute limits, what every adapter
    /// that computes has.
    max_compute_workgroup_storage_size: u32,
    /// See `max_compute_workgroup_storage_size`.
    max_compute_invocations_per_workgroup: u32,
    /// See `max_compute_workgroup_storage_size`.
    max_compute_workgroup_size_x: u32,
    /// See `max_compute_workgroup_storage_size`.
    max_compute_workgroup_size_y: u32,
    /// See `max_compute_workgroup_storage_size`.
    max_compute_workgroup_size_z: u32,
    /// See `max_compute_workgroup_storage_size`.
    max_compute_workgroups_per_dimension: u32,
    /// Views of the widest multiview pass (0 without one).
    #[serde(skip_serializing_if = "is_zero")]
    max_multiview_view_count: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::Fps;

    #[test]
    fn a_rate_is_kept_to_a_thousandth_and_printed_without_trailing_zeros() {
        let rate = |f: f64| Fps::new(f).map(|r| r.to_string());
        assert_eq!(rate(72.5).as_deref(), Some("72.5"));
        assert_eq!(rate(59.94).as_deref(), Some("59.94"));
        assert_eq!(rate(90.0).as_deref(), Some("90"));
        assert_eq!(rate(0.0004), None);
        assert_eq!(rate(-1.0), None);
        assert_eq!(rate(f64::NAN), None);
        assert_eq!(rate(f64::INFINITY), None);
        assert_eq!(Fps::from(60), Fps::new(60.0).unwrap());
        assert_eq!(Fps::from(60).per_second(16_588_800), Some(995_328_000));
        assert_eq!(Fps::new(72.5).unwrap().per_second(3), Some(218)); // 217.5 rounds up
        assert_eq!(Fps::from(2).per_second(u64::MAX), None);
    }
}
