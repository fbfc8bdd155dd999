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
    pub fps: u32,
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
    /// The tile profiles the reports show ([`with_tile_profiles`](Self::with_tile_profiles)).
    tile: TileProfiles,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            dont_care: None,
            fps: 60,
            cull: true,
            merge: true,
            transient: true,
            alias: true,
            restructure: true,
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

    /// Sets the frame rate of the per-second figures.
    pub fn with_fps(mut self, fps: u32) -> Self {
        self.fps = fps;
        self
    }
}
