//! Tile budgets: a model of how much of a group's attachments fits a tiler's on-chip memory per
//! pixel, for a few built-in GPU profiles ([guide](crate::guide#will-it-fit-the-tile)). Reported,
//! never changing the plan.

use std::fmt;

use wgpu::TextureFormat;

use crate::format::{color_bytes_per_sample, texel_bytes};
pub use crate::tile_custom::{CustomTileProfile, TileProfileError, TileRule};

/// A tile-based GPU's on-chip budget, as a model ([guide](crate::guide#will-it-fit-the-tile)).
/// Each profile counts a group's attachments its own way and says what happens past its budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum TileProfile {
    /// Arm Mali-G71: a 16 B a pixel colour tile buffer at 16×16.
    MaliG71,
    /// Arm Mali-G52: 32 B a pixel.
    MaliG52,
    /// Arm Mali-G610: 64 B a pixel.
    MaliG610,
    /// Arm Mali-G720: 128 B a pixel.
    MaliG720,
    /// Qualcomm Adreno 630: 1 MiB of GMEM.
    Adreno630,
    /// Qualcomm Adreno 650 (the XR2 of Quest 2): 1.125 MiB of GMEM, three CCUs.
    Adreno650,
    /// Qualcomm Adreno 660: 1.5 MiB of GMEM.
    Adreno660,
    /// Qualcomm Adreno 740: 3 MiB of GMEM.
    Adreno740,
    /// Apple A8 (and other GPUs of Metal family Apple2): 32 B of colour a sample.
    AppleA8,
    /// Apple A11 and later: 64 B of colour a sample.
    AppleA11,
    /// Imagination PowerVR: 128-bit (16 B) output registers a pixel.
    PowerVr,
    /// A GPU the crate does not ship, read from a file ([`TileProfile::from_json`]): one of the
    /// four rules with a budget of its own.
    Custom(CustomTileProfile),
}

/// Every profile, in the order reports list them.
const ALL: [TileProfile; 11] = [
    TileProfile::MaliG71,
    TileProfile::MaliG52,
    TileProfile::MaliG610,
    TileProfile::MaliG720,
    TileProfile::Adreno630,
    TileProfile::Adreno650,
    TileProfile::Adreno660,
    TileProfile::Adreno740,
    TileProfile::AppleA8,
    TileProfile::AppleA11,
    TileProfile::PowerVr,
];

const MIB: u64 = 1 << 20;

/// The driver whose rules the Adreno entries follow: its bin grid, its GMEM layout and its
/// first-frame choice between GMEM and memory. Checked against the driver on its drm shim
/// (`tools/tilers/check.sh`).
pub(crate) const ADRENO_DRIVER: &str = "turnip 25.0";

/// Whether turnip's blit event cannot resolve `format` (`blit_can_resolve`): snorm, channels
/// over 10 bits (every float format), RG8. Turnip then resolves with the 2D engine and keeps the
/// CCUs' share of GMEM free.
pub(crate) fn resolves_through_2d(format: TextureFormat) -> bool {
    let name = format!("{format:?}");
    ["Snorm", "Float", "16", "32"]
        .iter()
        .any(|part| name.contains(part))
        || matches!(
            format,
            TextureFormat::Rg8Unorm | TextureFormat::Rg8Uint | TextureFormat::Rg8Sint
        )
}

/// Mali's tile sizes (width × height), largest first: past its budget the tile shrinks.
const MALI_TILES: [(u32, u32); 5] = [(16, 16), (16, 8), (8, 8), (8, 4), (4, 4)];

/// Turnip 25.0's view of an Adreno chip (Mesa's `freedreno_devices.py`): its CCUs, the bin's
/// alignment, the largest bin, and the GMEM each CCU keeps when a resolve needs the 2D engine.
struct Turnip {
    ccus: u64,
    align_w: u64,
    align_h: u64,
    max_bin: (u64, u64),
    ccu_gmem: u64,
}

/// Turnip's bin grid: how many bins, each bin's size, the pixels the attachments' GMEM shares
/// hold (what bounds a bin's area, all views together) and the alignment it was cut to.
struct Bins {
    count: u64,
    width: u64,
    height: u64,
    pixels: u64,
    align: (u64, u64),
}

/// Layer strides in GMEM are multiples of this (`RB_BLIT_BASE_GMEM` ignores the low 12 bits).
const GMEM_LAYER_ALIGN: u64 = 4096;

impl Turnip {
    /// A chip of `generation` 6 or 7 (Adreno 6xx, 7xx) with `ccus` CCUs and bins aligned to
    /// `align_w` × `align_h`: a 6xx's bins are at most 1024 × 1008 and each CCU keeps 16 KiB of GMEM for the 2D
    /// engine; a 7xx's 1728 × 1728 and 8 KiB.
    fn new(generation: u8, ccus: u64, align_w: u64, align_h: u64) -> Turnip {
        let (max_bin, ccu_gmem) = if generation == 7 {
            ((1728, 1728), 8 * 1024)
        } else {
            ((1024, 1008), 16 * 1024)
        };
        Turnip {
            ccus,
            align_w,
            align_h,
            max_bin,
            ccu_gmem,
        }
    }

    /// The chip behind an Adreno profile (turnip 25.0's tables), a custom one's from its fields.
    fn of(profile: TileProfile) -> Turnip {
        match profile {
            TileProfile::Adreno630 => Turnip::new(6, 2, 32, 16),
            TileProfile::Adreno650 | TileProfile::Adreno660 => Turnip::new(6, 3, 96, 16),
            TileProfile::Adreno740 => Turnip::new(7, 6, 96, 32),
            TileProfile::Custom(c) => {
                let (align_w, align_h) = c.bin_align();
                let ccus = u64::from(c.ccus().max(1));
                Turnip::new(c.generation(), ccus, align_w.into(), align_h.into())
            }
            _ => Turnip::new(6, 2, 32, 16),
        }
    }

    /// The pixels a bin may hold (`tu_render_pass_gmem_config`): each attachment, `cpps` bytes
    /// a pixel in render-pass order, gets a share of `gmem` in aligned blocks; the smallest share
    /// in pixels bounds the bin. Also the bin's width alignment (doubled for a 1-byte attachment,
    /// whose pitch is aligned to 64 pixels) and the smallest bytes a pixel. `None` when the
    /// shares do not fit.
    fn gmem_pixels(&self, cpps: &[(u64, bool)], gmem: u64) -> Option<(u64, u64, u64)> {
        let (mut align_w, mut shift) = (self.align_w, 3u32);
        for &(_, cpp1) in cpps {
            if cpp1 && !align_w.is_multiple_of(64) {
                align_w *= 2;
                shift -= 1;
            }
        }
        let gmem_align = (1u64 << shift) * self.align_w * self.align_h;
        let mut blocks = gmem / gmem_align;
        let mut total: u64 = cpps.iter().map(|&(cpp, _)| cpp).sum();
        let min_cpp = cpps.iter().map(|&(cpp, _)| cpp).filter(|&c| c > 0).min();
        let Some(min_cpp) = min_cpp else {
            return Some((1 << 20, align_w, 1));
        };
        let mut pixels = u64::MAX;
        for &(cpp, _) in cpps.iter().filter(|&&(cpp, _)| cpp > 0) {
            let align = (cpp >> shift).max(1);
            let n = ((blocks.saturating_mul(cpp) / total) & !(align - 1)).max(align);
            if n > blocks {
                return None;
            }
            blocks -= n;
            total -= cpp;
            pixels = pixels.min(n * gmem_align / cpp);
        }
        Some((pixels, align_w, min_cpp))
    }

    /// The bin grid turnip 25.0 cuts `shape`'s render area of all its views into
    /// (`tu_tiling_config_update_tile_layout`): for every aligned bin width up to the largest,
    /// the tallest aligned bin whose pixels over all views fit, then the rows evened out; the
    /// fewest bins win, the squarest bin on a tie. `None` when no bin fits: the driver renders
    /// to memory.
    fn bins(&self, shape: &TileShape, gmem: u64) -> Option<Bins> {
        let (pixels, align_w, min_cpp) = self.gmem_pixels(&shape.turnip_cpps(), gmem)?;
        let layers = u64::from(shape.views).max(1);
        let mut align_h = self.align_h;
        let stride = align_w * align_h * min_cpp;
        if layers > 1 && !stride.is_multiple_of(GMEM_LAYER_ALIGN) {
            align_h <<= GMEM_LAYER_ALIGN.trailing_zeros() - stride.trailing_zeros();
        }
        let (w, h) = (
            u64::from(shape.width).max(1),
            u64::from(shape.height).max(1),
        );
        let max_w = self.max_bin.0.min(w.next_multiple_of(align_w));
        let max_h = self.max_bin.1.min(h.next_multiple_of(align_h));
        let mut best: Option<Bins> = None;
        for width in (align_w..=max_w).step_by(align_w as usize) {
            let tall = (pixels / (width * layers)).min(max_h) / align_h * align_h;
            if tall == 0 {
                continue;
            }
            let (columns, rows) = (w.div_ceil(width), h.div_ceil(tall));
            let height = h.div_ceil(rows).next_multiple_of(align_h);
            let count = columns * rows;
            let better = best.as_ref().is_none_or(|b| {
                count < b.count
                    || (count == b.count && width.abs_diff(height) < b.width.abs_diff(b.height))
            });
            if better {
                best = Some(Bins {
                    count,
                    width,
                    height,
                    pixels,
                    align: (align_w, align_h),
                });
            }
        }
        best
    }
}

impl TileProfile {
    /// Every built-in profile, in the order reports list them.
    pub fn all() -> &'static [TileProfile] {
        &ALL
    }

    /// The profile's name, as `--tile` and the plan JSON spell it (`mali-g52`, `adreno-740`,
    /// `apple-a11`, `powervr`, ...; a custom profile's own).
    pub fn name(&self) -> &str {
        match self {
            TileProfile::MaliG71 => "mali-g71",
            TileProfile::MaliG52 => "mali-g52",
            TileProfile::MaliG610 => "mali-g610",
            TileProfile::MaliG720 => "mali-g720",
            TileProfile::Adreno630 => "adreno-630",
            TileProfile::Adreno650 => "adreno-650",
            TileProfile::Adreno660 => "adreno-660",
            TileProfile::Adreno740 => "adreno-740",
            TileProfile::AppleA8 => "apple-a8",
            TileProfile::AppleA11 => "apple-a11",
            TileProfile::PowerVr => "powervr",
            TileProfile::Custom(c) => c.name(),
        }
    }

    /// The built-in profile of that name, if there is one.
    pub fn from_name(name: &str) -> Option<TileProfile> {
        ALL.into_iter().find(|p| p.name() == name)
    }

    /// A profile of a GPU the crate does not ship, from JSON ([guide](crate::guide#will-it-fit-the-tile)):
    /// `{"name", "rule", ...}` with the rule's budget: `"tile_buffer_bytes"` (Mali, the colour
    /// tile buffer of a 16×16 tile), `"gmem_bytes"` and optionally `"bin_align": [w, h]`,
    /// `"ccus"` and `"generation"` (6 or 7) (Adreno), `"bytes_per_sample"` (Apple),
    /// `"bytes_per_pixel"` (PowerVR).
    pub fn from_json(json: &str) -> Result<TileProfile, TileProfileError> {
        let builtin: Vec<&str> = ALL.iter().map(|p| p.name()).collect();
        CustomTileProfile::from_json(json, &builtin).map(TileProfile::Custom)
    }

    /// The rule the profile counts by.
    pub fn rule(&self) -> TileRule {
        match self {
            TileProfile::MaliG71
            | TileProfile::MaliG52
            | TileProfile::MaliG610
            | TileProfile::MaliG720 => TileRule::Mali,
            TileProfile::Adreno630
            | TileProfile::Adreno650
            | TileProfile::Adreno660
            | TileProfile::Adreno740 => TileRule::Adreno,
            TileProfile::AppleA8 | TileProfile::AppleA11 => TileRule::Apple,
            TileProfile::PowerVr => TileRule::PowerVr,
            TileProfile::Custom(c) => c.rule(),
        }
    }

    /// The budget in bytes: a pixel of colour (Mali, PowerVR), a sample of colour (Apple), or
    /// the whole GMEM (Adreno).
    pub fn budget(&self) -> u64 {
        match self {
            TileProfile::MaliG71 | TileProfile::PowerVr => 16,
            TileProfile::MaliG52 | TileProfile::AppleA8 => 32,
            TileProfile::MaliG610 | TileProfile::AppleA11 => 64,
            TileProfile::MaliG720 => 128,
            TileProfile::Adreno630 => MIB,
            TileProfile::Adreno650 => MIB + MIB / 8,
            TileProfile::Adreno660 => MIB + MIB / 2,
            TileProfile::Adreno740 => 3 * MIB,
            TileProfile::Custom(c) => c.budget(),
        }
    }

    /// Bit of a built-in profile in a [`TileProfiles`] set; `None` for a custom one.
    fn bit(self) -> Option<u16> {
        ALL.iter().position(|&p| p == self).map(|i| 1 << i)
    }
}

impl fmt::Display for TileProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Custom profiles a set holds at most (compile options stay `Copy`).
pub(crate) const MAX_CUSTOM_PROFILES: usize = 4;

/// A set of profiles: the built-in ones in the order of [`TileProfile::all`], then up to
/// [`MAX_CUSTOM_PROFILES`] custom ones in the order given.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct TileProfiles {
    bits: u16,
    custom: [Option<CustomTileProfile>; MAX_CUSTOM_PROFILES],
}

impl TileProfiles {
    pub(crate) fn of(profiles: &[TileProfile]) -> Self {
        let mut set = TileProfiles::default();
        for &p in profiles {
            match (p.bit(), p) {
                (Some(bit), _) => set.bits |= bit,
                (None, TileProfile::Custom(c)) => {
                    if !set.custom.contains(&Some(c))
                        && let Some(free) = set.custom.iter_mut().find(|s| s.is_none())
                    {
                        *free = Some(c);
                    }
                }
                (None, _) => {}
            }
        }
        set
    }

    pub(crate) fn is_empty(self) -> bool {
        self.bits == 0 && self.custom.iter().all(Option::is_none)
    }

    pub(crate) fn iter(self) -> impl Iterator<Item = TileProfile> {
        let builtin = ALL
            .into_iter()
            .filter(move |p| p.bit().is_some_and(|bit| self.bits & bit != 0));
        builtin.chain(self.custom.into_iter().flatten().map(TileProfile::Custom))
    }
}

impl fmt::Debug for TileProfiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<TileProfile> = self.iter().collect();
        f.debug_set()
            .entries(names.iter().map(|p| p.name()))
            .finish()
    }
}

/// How one group fares on one profile ([guide](crate::guide#will-it-fit-the-tile)). A model,
/// not a measurement: it counts attachment bytes against the budget each vendor documents.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct TileFit {
    /// The profile.
    pub profile: TileProfile,
    /// The bytes the profile counts: a pixel of colour (Mali, PowerVR: spilled slots included),
    /// a pixel of colour and depth/stencil over every view (Adreno), a sample of colour (Apple).
    pub bytes_per_pixel: u64,
    /// The profile's budget ([`TileProfile::budget`]).
    pub budget: u64,
    /// Mali keeps 16×16 tiles, Adreno has a bin (the driver finds a GMEM layout), Apple stays
    /// within its budget, PowerVR spills nothing.
    pub fits: bool,
    /// What the profile does with the group.
    pub detail: TileDetail,
}

/// What a profile does with a group, past its budget or within it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TileDetail {
    /// Mali: the tile, shrunk through 16×8, 8×8, 8×4 to 4×4 until the colour fits, and how many
    /// tiles cover the group's render area.
    Mali {
        /// Tile width in pixels.
        width: u32,
        /// Tile height in pixels.
        height: u32,
        /// Tiles covering the render area.
        tiles: u64,
    },
    /// Adreno: the bins the driver cuts the render area into, and whether it renders the group
    /// straight to memory on its first frame.
    #[non_exhaustive]
    Adreno {
        /// The driver whose rules these are (`"turnip 25.0"`): the Adreno entries follow Mesa's
        /// turnip, held against it on its drm shim; Qualcomm's own driver may cut other bins.
        driver: &'static str,
        /// The driver's bin count (aligned GMEM shares per attachment, the fewest aligned bins
        /// over every view); 1 when no bin fits.
        bins: u64,
        /// The driver's bin, width × height in pixels; `None` when no bin fits.
        bin: Option<(u32, u32)>,
        /// The driver may render the group straight to memory, with no GMEM at all:
        /// `first_frame` is not [`FirstFrame::Tiled`].
        may_be_direct: bool,
        /// What the driver does with the group on its first frame.
        first_frame: FirstFrame,
        /// Why the bin has its size, where the grid gives one ([`TileFit::bin_reason`]).
        reason: Option<BinReason>,
    },
    /// Apple: past the budget Metal refuses the render pass.
    Apple {
        /// The group has a transient (memoryless) attachment: a pass with too much geometry for
        /// the tile memory aborts the command buffer.
        memoryless: bool,
    },
    /// PowerVR: colour slots past the output registers, spilled to memory.
    PowerVr {
        /// Spilled colour slot indices, in slot order.
        spilled: Vec<u32>,
    },
}

/// What bounds an Adreno bin ([`TileFit::bin_reason`]): the pixels the attachments' GMEM
/// shares hold, the bin's alignment, and the GMEM kept for the 2D engine's resolve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct BinReason {
    /// Pixels a bin may hold: each attachment's share of GMEM in aligned blocks, the smallest
    /// in pixels.
    pub pixels: u64,
    /// Width and height alignment of a bin, in pixels.
    pub align: (u32, u32),
    /// Bytes of GMEM kept free for the 2D engine (16 KiB a CCU on a 6xx, 8 KiB on a 7xx)
    /// because a resolve is in a format the blit event cannot resolve (snorm, channels over 10
    /// bits, RG8); 0 when none is.
    pub kept_for_2d: u64,
}

/// What Mesa's turnip 25.0 does with a render group on its first frame, before its autotuner has
/// history ([guide](crate::guide#will-it-fit-the-tile)): `use_sysmem_rendering` and
/// `fallback_use_bypass` in `tu_cmd_buffer.cc` / `tu_autotune.cc`. A multiview group is binned
/// as any other (turnip 22.3 rendered every multiview pass to memory).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FirstFrame {
    /// Rendered to memory whatever its draws: its pixel does not fit the smallest bin.
    Memory,
    /// No attachment is multisampled: rendered to memory if the group records at most 5 draws
    /// (turnip counts draws, whatever the passes; the plan cannot count them), tiled otherwise.
    MemoryIfFewDraws,
    /// A multisampled attachment: tiled.
    Tiled,
}

impl FirstFrame {
    /// The plan JSON's name: `memory`, `memory_if_few_draws`, `tiled`.
    pub fn as_str(self) -> &'static str {
        match self {
            FirstFrame::Memory => "memory",
            FirstFrame::MemoryIfFewDraws => "memory_if_few_draws",
            FirstFrame::Tiled => "tiled",
        }
    }
}

impl TileFit {
    /// Why an Adreno bin has its size, in words: what bounds its area, its alignment, and the
    /// GMEM kept for the 2D engine's resolve. `None` for other profiles and where no bin is
    /// given.
    pub fn bin_reason(&self) -> Option<String> {
        let TileDetail::Adreno {
            driver,
            reason: Some(r),
            bin: Some((w, h)),
            ..
        } = &self.detail
        else {
            return None;
        };
        let mut s = format!(
            "the attachments' GMEM shares hold {} pixels a bin over every view; {w}x{h} is {driver}'s cut into the fewest bins, aligned to {}x{}",
            r.pixels, r.align.0, r.align.1
        );
        if r.kept_for_2d > 0 {
            let _ = std::fmt::Write::write_fmt(
                &mut s,
                format_args!(
                    "; {} KiB of GMEM kept for the 2D engine, which resolves the snorm or float target the blit event cannot",
                    r.kept_for_2d / 1024
                ),
            );
        }
        Some(s)
    }

    /// What the figures mean for the group, as a sentence (a model's consequence, not a
    /// measurement).
    pub fn consequence(&self) -> String {
        let budget = self.budget;
        match &self.detail {
            TileDetail::Mali {
                width,
                height,
                tiles,
            } => {
                if self.fits {
                    format!("fits the {budget} B a pixel tile buffer: 16x16 tiles ({tiles})")
                } else {
                    format!(
                        "over the {budget} B a pixel tile buffer: tiles shrink to {width}x{height} ({tiles} of them), more per-tile work"
                    )
                }
            }
            TileDetail::Adreno {
                driver,
                bins,
                bin,
                first_frame,
                ..
            } => {
                let gmem = mib(budget);
                let plural = if *bins == 1 { "" } else { "s" };
                let mut s = match bin {
                    _ if !self.fits => {
                        format!("no bin fits GMEM of {gmem}: the driver renders to memory")
                    }
                    Some((w, h)) => format!("{bins} bin{plural} of {w}x{h} in {gmem} of GMEM"),
                    None => format!("{bins} bin{plural} in {gmem} of GMEM"),
                };
                if *first_frame == FirstFrame::MemoryIfFewDraws {
                    let _ = std::fmt::Write::write_fmt(
                        &mut s,
                        format_args!(
                            "; no MSAA: {driver} renders it straight to memory on its first frame if it has at most 5 draws"
                        ),
                    );
                }
                s
            }
            TileDetail::Apple { memoryless } => {
                let mut s = if self.fits {
                    format!("within {budget} B of colour a sample")
                } else {
                    format!(
                        "over {budget} B of colour a sample: the render pass fails validation on this GPU"
                    )
                };
                if *memoryless {
                    s.push_str("; memoryless attachments: too much geometry for the tile memory aborts the command buffer (keep_memory opts a resource out)");
                }
                s
            }
            TileDetail::PowerVr { spilled } => {
                if spilled.is_empty() {
                    format!("fits the {budget} B (128-bit) output registers")
                } else {
                    let slots: Vec<String> = spilled.iter().map(u32::to_string).collect();
                    format!(
                        "over the {budget} B (128-bit) output registers: colour slot{} {} spill{} to memory",
                        if spilled.len() == 1 { "" } else { "s" },
                        slots.join(", "),
                        if spilled.len() == 1 { "s" } else { "" }
                    )
                }
            }
        }
    }
}

/// A GMEM size in MiB, as the vendors quote it.
fn mib(bytes: u64) -> String {
    let s = format!("{:.3}", bytes as f64 / MIB as f64);
    format!("{} MiB", s.trim_end_matches('0').trim_end_matches('.'))
}

/// One attachment as the profiles count it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TileAttachment {
    pub format: TextureFormat,
    pub samples: u32,
}

impl TileAttachment {
    /// Texel bytes × samples ([guide](crate::guide#traffic-model)).
    fn bytes(self) -> u64 {
        texel_bytes(self.format)
            .unwrap_or(0)
            .saturating_mul(u64::from(self.samples))
    }
}

/// A render group as the profiles see it.
#[derive(Debug, Clone)]
pub(crate) struct TileShape {
    /// Render area in pixels.
    pub width: u32,
    pub height: u32,
    /// Multiview count, or 1.
    pub views: u32,
    /// Colour slots of one view, in slot order.
    pub color: Vec<TileAttachment>,
    pub depth: Option<TileAttachment>,
    /// A transient (memoryless) attachment is among the group's.
    pub memoryless: bool,
    /// A colour slot resolves in a format turnip's blit event cannot resolve (sRGB, snorm,
    /// channels over 10 bits, RG8): the 2D engine resolves it and the CCUs keep part of GMEM.
    pub resolves_through_2d: bool,
}

impl TileShape {
    fn multisampled(&self) -> bool {
        self.color.iter().chain(&self.depth).any(|a| a.samples > 1)
    }

    /// Each attachment's bytes a pixel as turnip counts them, in render-pass order (colour
    /// slots, then depth), with whether it is 1 byte: texel bytes × samples (views divide the
    /// bin instead), the stencil of a depth32float-stencil8 apart (1 byte a sample).
    fn turnip_cpps(&self) -> Vec<(u64, bool)> {
        let mut cpps = Vec::new();
        for a in self.color.iter().chain(&self.depth) {
            let samples = u64::from(a.samples);
            if a.format == TextureFormat::Depth32FloatStencil8 {
                cpps.push((4 * samples, false));
                cpps.push((samples, samples == 1));
            } else {
                cpps.push((a.bytes(), a.bytes() == 1));
            }
        }
        cpps
    }

    fn color_bytes(&self) -> u64 {
        self.color
            .iter()
            .map(|a| a.bytes())
            .fold(0, u64::saturating_add)
    }

    /// Adreno: every view's colour and depth/stencil against GMEM, cut into the driver's bins;
    /// what the driver does on its first frame.
    fn adreno(&self, profile: TileProfile, budget: u64) -> (u64, bool, TileDetail) {
        // GMEM holds every view of a bin at once, colour and depth/stencil.
        let bytes = self
            .color_bytes()
            .saturating_add(self.depth.map_or(0, TileAttachment::bytes))
            .saturating_mul(u64::from(self.views));
        let turnip = Turnip::of(profile);
        // The GMEM layout that avoids the CCUs' share, where a resolve needs the 2D engine.
        let kept = if self.resolves_through_2d {
            (turnip.ccus * turnip.ccu_gmem).min(budget)
        } else {
            0
        };
        let grid = turnip.bins(self, budget - kept);
        let size = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
        let (bins, bin, reason) = match &grid {
            Some(b) => (
                b.count,
                Some((size(b.width), size(b.height))),
                Some(BinReason {
                    pixels: b.pixels,
                    align: (size(b.align.0), size(b.align.1)),
                    kept_for_2d: kept,
                }),
            ),
            None => (1, None, None),
        };
        let fits = grid.is_some();
        // Turnip counts draws, not passes: a merged group of few draws goes to memory too.
        let first_frame = if !fits {
            FirstFrame::Memory
        } else if self.multisampled() {
            FirstFrame::Tiled
        } else {
            FirstFrame::MemoryIfFewDraws
        };
        let detail = TileDetail::Adreno {
            driver: ADRENO_DRIVER,
            bins,
            bin,
            may_be_direct: first_frame != FirstFrame::Tiled,
            first_frame,
            reason,
        };
        (bytes, fits, detail)
    }

    /// How the group fares on `profile`.
    pub(crate) fn fit(&self, profile: TileProfile) -> TileFit {
        let budget = profile.budget();
        let (w, h) = (u64::from(self.width), u64::from(self.height));
        let (bytes, fits, detail) = match profile.rule() {
            TileRule::Mali => {
                // Each view is its own layer of tiles: one view's colour counts.
                let bytes = self.color_bytes();
                let (width, height) = MALI_TILES
                    .into_iter()
                    .find(|&(tw, th)| {
                        bytes.saturating_mul(u64::from(tw * th)) <= budget.saturating_mul(256)
                    })
                    .unwrap_or((4, 4));
                let tiles = w.div_ceil(u64::from(width)) * h.div_ceil(u64::from(height));
                let detail = TileDetail::Mali {
                    width,
                    height,
                    tiles,
                };
                (bytes, (width, height) == MALI_TILES[0], detail)
            }
            TileRule::Adreno => self.adreno(profile, budget),
            TileRule::Apple => {
                let bytes = u64::from(color_bytes_per_sample(self.color.iter().map(|a| a.format)));
                let detail = TileDetail::Apple {
                    memoryless: self.memoryless,
                };
                (bytes, bytes <= budget, detail)
            }
            TileRule::PowerVr => {
                // A slot that would take the registers past the budget spills and adds nothing.
                let (mut registers, mut spilled) = (0u64, Vec::new());
                for (slot, a) in self.color.iter().enumerate() {
                    let cost = a.bytes();
                    if registers.saturating_add(cost) > budget {
                        spilled.push(slot as u32);
                    } else {
                        registers += cost;
                    }
                }
                let fits = spilled.is_empty();
                (self.color_bytes(), fits, TileDetail::PowerVr { spilled })
            }
        };
        TileFit {
            profile,
            bytes_per_pixel: bytes,
            budget,
            fits,
            detail,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &p in TileProfile::all() {
            assert_eq!(TileProfile::from_name(p.name()), Some(p));
        }
        assert_eq!(TileProfile::from_name("mali"), None);
        let set = TileProfiles::of(&[TileProfile::PowerVr, TileProfile::MaliG52]);
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            [TileProfile::MaliG52, TileProfile::PowerVr]
        );
    }

    #[test]
    fn color_bytes_per_sample_aligns_each_slot() {
        use TextureFormat::*;
        // r8 (1 B) then rgba32float (16 B, 4-aligned): 1 → 4 + 16.
        assert_eq!(color_bytes_per_sample([R8Unorm, Rgba32Float]), 20);
        assert_eq!(color_bytes_per_sample([Rgba16Float; 4]), 32);
    }
}
