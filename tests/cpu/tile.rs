//! Tile budgets and memory (the guide's "Will it fit the tile?"): each profile's formula on
//! hand-made groups at its edges (exactly at the budget, one byte over, MSAA, depth, multiview),
//! the memory figures, and `keep_memory`.

use serde_json::{Value, json};
use tilegraph::plan::{FirstFrame, GroupId, TileDetail, TileFit, TileProfile};
use tilegraph::wgpu::TextureFormat;
use tilegraph::{
    Access, CompileOptions, CompiledGraph, ErrorKind, Import, RenderGraph, TextureDesc,
};

/// One render group: colour slots `(format, samples)`, an optional depth, at `size`, with `views`
/// views (multiview when more than one) and `passes` passes (the first clears, the others blend).
struct Group<'a> {
    color: &'a [(&'a str, u32)],
    depth: Option<(&'a str, u32)>,
    size: (u32, u32),
    views: u32,
    passes: usize,
}

impl Default for Group<'_> {
    fn default() -> Self {
        Group {
            color: &[],
            depth: None,
            size: (100, 50),
            views: 1,
            passes: 1,
        }
    }
}

impl Group<'_> {
    fn description(&self) -> String {
        let mut size = vec![self.size.0, self.size.1];
        if self.views > 1 {
            size.push(self.views);
        }
        let texture = |name: String, (format, samples): (&str, u32)| json!({"name": name, "texture": {"format": format, "size": size, "samples": samples}});
        let mut resources: Vec<Value> = (self.color.iter().enumerate())
            .map(|(i, &c)| texture(format!("c{i}"), c))
            .collect();
        if let Some(d) = self.depth {
            resources.push(texture("depth".into(), d));
        }
        let passes: Vec<Value> = (0..self.passes)
            .map(|p| {
                let access = if p == 0 { "clear" } else { "read_write" };
                let color: Vec<Value> = (0..self.color.len())
                    .map(|i| json!({"resource": format!("c{i}"), "access": access}))
                    .collect();
                let mut pass = json!({"name": format!("p{p}"), "type": "render",
                    "color": color, "side_effects": true});
                if self.depth.is_some() {
                    pass["depth"] = json!({"resource": "depth", "access": access});
                }
                if self.views > 1 {
                    pass["multiview"] = json!(self.views);
                }
                pass
            })
            .collect();
        json!({"resources": resources, "passes": passes}).to_string()
    }

    fn plan(&self) -> CompiledGraph {
        let graph = RenderGraph::from_json(&self.description()).expect("valid description");
        let options = CompileOptions::default().with_tile_profiles(TileProfile::all());
        let plan = graph.compile(&options).expect("compiles");
        assert_eq!(plan.groups().len(), 1, "one group");
        plan
    }

    fn fit(&self, profile: TileProfile) -> TileFit {
        self.plan()
            .tile_fit(GroupId::new(0), profile)
            .expect("a render group")
    }
}

/// Mali: (bytes a pixel, fits, tile, tiles).
fn mali(fit: TileFit) -> (u64, bool, (u32, u32), u64) {
    match fit.detail {
        TileDetail::Mali {
            width,
            height,
            tiles,
        } => (fit.bytes_per_pixel, fit.fits, (width, height), tiles),
        other => panic!("not a Mali entry: {other:?}"),
    }
}

/// Adreno: (bytes a pixel, fits, bins, may_be_direct).
fn adreno(fit: TileFit) -> (u64, bool, u64, bool) {
    match fit.detail {
        TileDetail::Adreno {
            bins,
            may_be_direct,
            ..
        } => (fit.bytes_per_pixel, fit.fits, bins, may_be_direct),
        other => panic!("not an Adreno entry: {other:?}"),
    }
}

/// Apple: (bytes a sample, fits, memoryless).
fn apple(fit: TileFit) -> (u64, bool, bool) {
    match fit.detail {
        TileDetail::Apple { memoryless } => (fit.bytes_per_pixel, fit.fits, memoryless),
        other => panic!("not an Apple entry: {other:?}"),
    }
}

/// PowerVR: (bytes a pixel, fits, spilled slots).
fn powervr(fit: TileFit) -> (u64, bool, Vec<u32>) {
    match fit.detail {
        TileDetail::PowerVr { spilled } => (fit.bytes_per_pixel, fit.fits, spilled),
        other => panic!("not a PowerVR entry: {other:?}"),
    }
}

fn colors<'a>(color: &'a [(&'a str, u32)]) -> Group<'a> {
    Group {
        color,
        ..Group::default()
    }
}

const AT_16: &[(&str, u32)] = &[("rgba16float", 1), ("rgba8unorm", 1), ("rgba8unorm", 1)];
const AT_17: &[(&str, u32)] = &[
    ("rgba16float", 1),
    ("rgba8unorm", 1),
    ("rgba8unorm", 1),
    ("r8unorm", 1),
];

#[test]
fn mali_keeps_16x16_tiles_up_to_its_budget_and_shrinks_them_past_it() {
    use TileProfile::*;
    // 100×50 in 16×16 tiles: 7 × 4.
    assert_eq!(mali(colors(AT_16).fit(MaliG71)), (16, true, (16, 16), 28));
    // One byte over: 17 × 16 × 8 fits 16 × 256; 7 × 7 tiles.
    assert_eq!(mali(colors(AT_17).fit(MaliG71)), (17, false, (16, 8), 49));
    assert_eq!(mali(colors(AT_17).fit(MaliG52)), (17, true, (16, 16), 28));
    // G52 at 32 and one over; G610 at 64; G720 at 128 and one over.
    let g52 = [("rgba16float", 1); 4];
    assert!(mali(colors(&g52).fit(MaliG52)).1);
    let over = [
        ("rgba16float", 1),
        ("rgba16float", 1),
        ("rgba16float", 1),
        ("rgba16float", 1),
        ("r8unorm", 1),
    ];
    assert_eq!(mali(colors(&over).fit(MaliG52)), (33, false, (16, 8), 49));
    assert_eq!(mali(colors(&[("rgba16float", 1); 8]).fit(MaliG610)).0, 64);
    assert!(mali(colors(&[("rgba16float", 1); 8]).fit(MaliG610)).1);
    let g720 = [("rgba32float", 4), ("rgba32float", 4)];
    assert_eq!(mali(colors(&g720).fit(MaliG720)), (128, true, (16, 16), 28));
    let g720_over = [("rgba32float", 4), ("rgba32float", 4), ("r8unorm", 4)];
    assert_eq!(
        mali(colors(&g720_over).fit(MaliG720)),
        (132, false, (16, 8), 49)
    );
}

#[test]
fn mali_counts_samples_not_depth_and_one_view() {
    use TileProfile::MaliG71;
    // MSAA: samples × texel bytes. 32 B fits 16×8 exactly (32 × 128 = 16 × 256).
    assert_eq!(mali(colors(&[("rgba8unorm", 4)]).fit(MaliG71)).0, 16);
    assert_eq!(mali(colors(&[("rgba16float", 4)]).fit(MaliG71)).2, (16, 8));
    assert_eq!(
        mali(colors(&[("rgba16float", 4), ("r8unorm", 4)]).fit(MaliG71)).2,
        (8, 8)
    );
    // 256 B fits only 4×4; more still gets 4×4, the smallest tile.
    assert_eq!(
        mali(colors(&[("rgba32float", 4); 4]).fit(MaliG71)),
        (256, false, (4, 4), 25 * 13)
    );
    assert_eq!(
        mali(colors(&[("rgba32float", 4); 5]).fit(MaliG71)).2,
        (4, 4)
    );
    // Depth is not in the colour tile buffer.
    let with_depth = Group {
        color: AT_16,
        depth: Some(("depth32float-stencil8", 1)),
        ..Group::default()
    };
    assert_eq!(mali(with_depth.fit(MaliG71)).0, 16);
    // Multiview: each view is its own layer of tiles; one view's colour counts.
    let stereo = Group {
        color: AT_16,
        views: 2,
        ..Group::default()
    };
    assert_eq!(mali(stereo.fit(MaliG71)), (16, true, (16, 16), 28));
}

/// Adreno: (bins, bin).
fn adreno_bins(fit: TileFit) -> (u64, Option<(u32, u32)>) {
    match fit.detail {
        TileDetail::Adreno { bins, bin, .. } => (bins, bin),
        other => panic!("not an Adreno entry: {other:?}"),
    }
}

#[test]
fn adreno_cuts_turnips_bins_and_renders_to_memory_when_none_fits() {
    use TileProfile::*;
    // Every Adreno entry follows turnip 25.0's rule (held against the driver on its shim by
    // tools/tilers/check.sh). rgba8unorm + depth32float, 8 B: 512 × 256 is one bin (the a660
    // and a740: 96-wide alignment).
    let exact = Group {
        color: &[("rgba8unorm", 1)],
        depth: Some(("depth32float", 1)),
        size: (512, 256),
        ..Group::default()
    };
    assert_eq!(adreno(exact.fit(Adreno630)), (8, true, 1, true));
    assert_eq!(adreno_bins(exact.fit(Adreno630)), (1, Some((512, 256))));
    assert_eq!(adreno_bins(exact.fit(Adreno660)), (1, Some((576, 256))));
    assert_eq!(adreno_bins(exact.fit(Adreno740)), (1, Some((576, 256))));
    // One row more: the a630's GMEM holds 131 072 pixels, so two 256 × 272 bins (rows of 16).
    let one_more = Group {
        size: (512, 257),
        ..exact
    };
    assert_eq!(adreno_bins(one_more.fit(Adreno630)), (2, Some((256, 272))));
    assert_eq!(adreno_bins(one_more.fit(Adreno650)), (2, Some((288, 272))));
    assert_eq!(adreno_bins(one_more.fit(Adreno660)), (1, Some((576, 272))));
    assert_eq!(adreno_bins(one_more.fit(Adreno740)), (1, Some((576, 288))));
    // 1920 × 1080: the fewest bins over every aligned width, the squarest on a tie.
    let hd = Group {
        size: (1920, 1080),
        ..exact
    };
    assert_eq!(adreno_bins(hd.fit(Adreno630)), (16, Some((480, 272))));
    assert_eq!(adreno_bins(hd.fit(Adreno650)), (15, Some((384, 368))));
    assert_eq!(adreno_bins(hd.fit(Adreno660)), (12, Some((480, 368))));
    assert_eq!(adreno_bins(hd.fit(Adreno740)), (6, Some((672, 544))));
    let hd720 = Group {
        size: (1280, 720),
        ..exact
    };
    assert_eq!(adreno_bins(hd720.fit(Adreno630)), (8, Some((352, 368))));
    assert_eq!(adreno_bins(hd720.fit(Adreno660)), (6, Some((480, 368))));
    assert_eq!(adreno_bins(hd720.fit(Adreno740)), (3, Some((480, 736))));
    // A 1-byte attachment doubles the width alignment; depth32float-stencil8's stencil takes a
    // share of its own.
    let r8 = Group {
        color: &[("r8unorm", 1), ("rgba8unorm", 1)],
        size: (1280, 720),
        ..Group::default()
    };
    assert_eq!(adreno_bins(r8.fit(Adreno630)), (5, Some((256, 720))));
    assert_eq!(adreno_bins(r8.fit(Adreno660)), (4, Some((384, 720))));
    let stencil = Group {
        depth: Some(("depth32float-stencil8", 1)),
        ..hd720
    };
    assert_eq!(adreno_bins(stencil.fit(Adreno630)), (9, Some((448, 240))));
    assert_eq!(adreno_bins(stencil.fit(Adreno660)), (7, Some((192, 720))));
    // Views divide a bin's height: the same frame in two views takes twice the bins.
    let stereo = Group { views: 2, ..hd720 };
    assert_eq!(adreno(stereo.fit(Adreno740)).0, 16);
    assert_eq!(adreno_bins(stereo.fit(Adreno740)), (6, Some((480, 384))));
    // 8 × rgba32float × 8 samples, 1024 B a view, 64 × 32 in two views: on the a630 each
    // attachment's share holds 1024 pixels, four 32 × 16 bins of both views. The a740's bins
    // are 96 × 32 at least, more than a share holds for two views: no bin fits, the driver
    // renders to memory.
    let full = Group {
        color: &[("rgba32float", 8); 8],
        views: 2,
        size: (64, 32),
        ..Group::default()
    };
    assert_eq!(adreno(full.fit(Adreno630)), (2048, true, 4, false));
    assert_eq!(adreno_bins(full.fit(Adreno630)), (4, Some((32, 16))));
    let (bytes, fits, bins, direct) = adreno(full.fit(Adreno740));
    assert_eq!((bytes, fits, bins, direct), (2048, false, 1, true));
    assert_eq!(adreno_bins(full.fit(Adreno740)).1, None);
}

#[test]
fn adreno_keeps_the_ccus_share_of_gmem_when_a_resolve_needs_the_2d_engine() {
    use TileProfile::*;
    let graph = |format: &str| {
        let json = format!(
            r#"{{"resources": [
              {{"name": "msaa", "texture": {{"format": "{format}", "size": [1920, 1080], "samples": 4}}}},
              {{"name": "out", "texture": {{"format": "{format}", "size": [1920, 1080]}},
               "import": {{"contents": "undefined", "after": "keep"}}}}],
             "passes": [{{"name": "draw", "type": "render",
               "color": [{{"resource": "msaa", "access": "clear", "resolve": "out"}}]}}]}}"#
        );
        RenderGraph::from_json(&json)
            .unwrap()
            .compile(&CompileOptions::default())
            .unwrap()
    };
    let fit = |plan: &CompiledGraph, p| adreno_bins(plan.tile_fit(GroupId::new(0), p).unwrap());
    let kept = |plan: &CompiledGraph, p| match plan.tile_fit(GroupId::new(0), p).unwrap().detail {
        TileDetail::Adreno {
            reason: Some(r), ..
        } => r.kept_for_2d,
        other => panic!("no bin reason: {other:?}"),
    };
    // rgba8unorm and its sRGB form resolve with the blit event: all of GMEM.
    for format in ["rgba8unorm", "rgba8unorm-srgb"] {
        let plan = graph(format);
        assert_eq!(fit(&plan, Adreno630), (34, Some((960, 64))), "{format}");
        assert_eq!(fit(&plan, Adreno660), (24, Some((480, 192))), "{format}");
        assert_eq!(kept(&plan, Adreno660), 0);
    }
    // A float resolve goes through the 2D engine: 16 KiB a CCU less on a 6xx (48 KiB on the
    // a660: 46 bins where all of GMEM would give 45), 8 KiB a CCU on a 7xx.
    let float = graph("rgba16float");
    assert_eq!(kept(&float, Adreno660), 48 * 1024);
    assert_eq!(fit(&float, Adreno660), (46, Some((960, 48))));
    assert_eq!(kept(&float, Adreno740), 48 * 1024);
    assert_eq!(fit(&float, Adreno740), (24, Some((480, 192))));
}

/// Adreno: what turnip 25.0 does with the group on its first frame.
fn first_frame(fit: TileFit) -> FirstFrame {
    match fit.detail {
        TileDetail::Adreno {
            first_frame,
            may_be_direct,
            ..
        } => {
            assert_eq!(may_be_direct, first_frame != FirstFrame::Tiled);
            first_frame
        }
        other => panic!("not an Adreno entry: {other:?}"),
    }
}

#[test]
fn adreno_follows_turnips_first_frame_rule() {
    use FirstFrame::*;
    use TileProfile::Adreno630;
    // No MSAA: to memory with at most 5 draws, whatever the passes (turnip counts draws).
    let one = Group {
        color: &[("rgba8unorm", 1)],
        ..Group::default()
    };
    assert_eq!(first_frame(one.fit(Adreno630)), MemoryIfFewDraws);
    let two = Group { passes: 2, ..one };
    assert_eq!(first_frame(two.fit(Adreno630)), MemoryIfFewDraws);
    // An MSAA attachment: tiled.
    let msaa = Group {
        color: &[("rgba8unorm", 4)],
        ..Group::default()
    };
    assert_eq!(adreno(msaa.fit(Adreno630)), (16, true, 1, false));
    assert_eq!(first_frame(msaa.fit(Adreno630)), Tiled);
    let msaa_depth = Group {
        color: &[("rgba8unorm", 4)],
        depth: Some(("depth24plus", 4)),
        passes: 2,
        ..Group::default()
    };
    assert_eq!(adreno(msaa_depth.fit(Adreno630)), (32, true, 1, false));
    // Multiview: binned as any other group (turnip 22.3 rendered it to memory).
    let stereo = Group { views: 2, ..msaa };
    assert_eq!(first_frame(stereo.fit(Adreno630)), Tiled);
    let stereo_plain = Group { views: 2, ..one };
    assert_eq!(first_frame(stereo_plain.fit(Adreno630)), MemoryIfFewDraws);
    // A pixel that fits no bin: to memory.
    let full = Group {
        color: &[("rgba32float", 8); 8],
        size: (64, 32),
        views: 2,
        ..Group::default()
    };
    assert_eq!(first_frame(full.fit(TileProfile::Adreno740)), Memory);
}

/// A merged group without MSAA (a cleared colour stored, a cleared depth discarded), an MSAA
/// group resolved, and a multiview group of two cleared, stored layers; all 64×64 at 4 B a texel.
const FIRST_FRAME_GRAPH: &str = include_str!("graphs/first_frame.json");

#[test]
fn traffic_says_which_groups_adreno_renders_to_memory_and_what_the_ops_save_there() {
    let options = CompileOptions::default().with_tile_profiles(&[TileProfile::Adreno630]);
    let plan = RenderGraph::from_json(FIRST_FRAME_GRAPH)
        .unwrap()
        .compile(&options)
        .unwrap();
    assert_eq!(plan.groups().len(), 3);
    // #0: the colour's load skipped (16384), the depth's load and store (2 × 16384).
    // #1: the MSAA colour's load and store (2 × 65536). #2: two layers' loads (2 × 16384).
    let saved: Vec<u64> = (0..3)
        .map(|g| plan.ops_saved_bytes(GroupId::new(g)))
        .collect();
    assert_eq!(saved, [49152, 131072, 32768]);
    let firsts: Vec<FirstFrame> = (0..3)
        .map(|g| {
            first_frame(
                plan.tile_fit(GroupId::new(g), TileProfile::Adreno630)
                    .unwrap(),
            )
        })
        .collect();
    use FirstFrame::*;
    assert_eq!(firsts, [MemoryIfFewDraws, Tiled, MemoryIfFewDraws]);

    let json: Value = serde_json::from_str(&plan.to_json()).unwrap();
    let entry = |g: usize| json["groups"][g]["tile"][0].clone();
    assert_eq!(entry(0)["first_frame"], "memory_if_few_draws");
    assert_eq!(entry(0)["ops_saved_bytes"], 49152);
    assert_eq!(entry(1)["first_frame"], "tiled");
    assert!(entry(1).get("ops_saved_bytes").is_none());
    assert_eq!(entry(2)["first_frame"], "memory_if_few_draws");
    assert_eq!(entry(2)["driver"], "turnip 25.0");
    assert_eq!(entry(2)["ops_saved_bytes"], 32768);

    let table = plan.to_table();
    let traffic = &table[table.find("TRAFFIC").unwrap()..table.find("MEMORY").unwrap()];
    assert!(traffic.contains("adreno-630, first frame: turnip 25.0 renders to memory a group without MSAA of at most 5 draws"), "{traffic}");
    assert!(
        traffic.contains("    #0   memory if <= 5 draws            49152  gbuffer + light\n"),
        "{traffic}"
    );
    assert!(
        traffic.contains("    #2   memory if <= 5 draws            32768  stereo\n"),
        "{traffic}"
    );
    assert!(!traffic.contains("aa\n"), "{traffic}");
    assert!(
        traffic.contains(
            "on 2 groups the plan's ops save 81920 B/frame, not realised when rendered to memory"
        ),
        "{traffic}"
    );

    // Without an Adreno profile the section says nothing of it.
    let mali = CompileOptions::default().with_tile_profiles(&[TileProfile::MaliG52]);
    let plan = RenderGraph::from_json(FIRST_FRAME_GRAPH)
        .unwrap()
        .compile(&mali)
        .unwrap();
    assert!(!plan.to_table().contains("first frame"));
}

#[test]
fn apple_counts_aligned_colour_bytes_a_sample() {
    use TileProfile::*;
    // These groups' attachments live on tile only: every entry says memoryless.
    // Four rgba16float fit 32 B; an r8unorm more is over (validation fails on that GPU).
    assert_eq!(
        apple(colors(&[("rgba16float", 1); 4]).fit(AppleA8)),
        (32, true, true)
    );
    let over = [
        ("rgba16float", 1),
        ("rgba16float", 1),
        ("rgba16float", 1),
        ("rgba16float", 1),
        ("r8unorm", 1),
    ];
    assert_eq!(apple(colors(&over).fit(AppleA8)), (33, false, true));
    assert!(apple(colors(&over).fit(AppleA11)).1);
    // wgpu's costs: rgba8unorm costs 8; an r8unorm before an rgba16float is padded to 2.
    assert_eq!(apple(colors(&[("rgba8unorm", 1)]).fit(AppleA8)).0, 8);
    assert_eq!(
        apple(colors(&[("r8unorm", 1), ("rgba16float", 1)]).fit(AppleA8)).0,
        10
    );
    // A11: 64 B exactly, then one over.
    assert_eq!(
        apple(colors(&[("rgba32float", 1); 4]).fit(AppleA11)),
        (64, true, true)
    );
    let a11_over = [
        ("rgba32float", 1),
        ("rgba32float", 1),
        ("rgba32float", 1),
        ("rgba32float", 1),
        ("r8unorm", 1),
    ];
    assert!(!apple(colors(&a11_over).fit(AppleA11)).1);
    // A sample's bytes: MSAA, depth and views do not add.
    let msaa = Group {
        color: &[("rgba16float", 4); 4],
        depth: Some(("depth32float", 4)),
        views: 2,
        ..Group::default()
    };
    assert_eq!(apple(msaa.fit(AppleA8)).0, 32);
}

#[test]
fn apple_entries_of_groups_with_a_transient_attachment_say_memoryless() {
    // The MSAA colour and the depth live on tile only: transient, memoryless.
    let json = include_str!(
        "graphs/apple_entries_of_groups_with_a_transient_attachment_say_memoryless.json"
    );
    let options = CompileOptions::default().with_tile_profiles(&[TileProfile::AppleA8]);
    let plan = RenderGraph::from_json(json)
        .unwrap()
        .compile(&options)
        .unwrap();
    assert!(plan.resources()[0].transient && plan.resources()[1].transient);
    let fit = plan
        .tile_fit(GroupId::new(0), TileProfile::AppleA8)
        .unwrap();
    assert_eq!(apple(fit.clone()), (8, true, true));
    assert!(
        fit.consequence().contains("aborts the command buffer"),
        "{}",
        fit.consequence()
    );
    let entry: Value = serde_json::from_str(&plan.to_json()).unwrap();
    assert_eq!(entry["groups"][0]["tile"][0]["memoryless"], true);

    // Both kept in memory: nothing transient, not memoryless.
    let mut graph = RenderGraph::from_json(json).unwrap();
    for name in ["msaa", "depth"] {
        let t = graph.texture_handle(name).unwrap();
        graph.keep_memory(t);
    }
    let plan = graph.compile(&options).unwrap();
    assert!(!plan.resources()[0].transient && !plan.resources()[1].transient);
    let fit = plan
        .tile_fit(GroupId::new(0), TileProfile::AppleA8)
        .unwrap();
    assert_eq!(apple(fit), (8, true, false));
}

#[test]
fn powervr_spills_the_slots_past_its_output_registers() {
    use TileProfile::PowerVr;
    assert_eq!(powervr(colors(AT_16).fit(PowerVr)), (16, true, vec![]));
    assert_eq!(powervr(colors(AT_17).fit(PowerVr)), (17, false, vec![3]));
    // A spilled slot adds nothing: the r8unorm after it still fits.
    let slots = [("rgba8unorm", 1), ("rgba32float", 1), ("r8unorm", 1)];
    assert_eq!(powervr(colors(&slots).fit(PowerVr)), (21, false, vec![1]));
    // MSAA counts samples; depth does not count; one view counts.
    assert_eq!(
        powervr(colors(&[("rgba8unorm", 4)]).fit(PowerVr)),
        (16, true, vec![])
    );
    let msaa = Group {
        color: &[("rgba8unorm", 4), ("r8unorm", 4)],
        depth: Some(("depth32float", 4)),
        views: 2,
        ..Group::default()
    };
    assert_eq!(powervr(msaa.fit(PowerVr)), (20, false, vec![1]));
}

#[test]
fn tile_lists_are_reported_for_the_profiles_asked_for_on_render_groups() {
    let json = include_str!(
        "graphs/tile_lists_are_reported_for_the_profiles_asked_for_on_render_groups.json"
    );
    let graph = RenderGraph::from_json(json).unwrap();
    let plain = graph.compile(&CompileOptions::default()).unwrap();
    assert!(plain.options().tile_profiles().is_empty());
    assert!(plain.tile_fits(GroupId::new(0)).is_empty());
    // Any profile can still be asked of the plan.
    assert!(
        plain
            .tile_fit(GroupId::new(0), TileProfile::PowerVr)
            .is_some()
    );
    assert!(
        plain
            .tile_fit(GroupId::new(1), TileProfile::PowerVr)
            .is_none()
    );
    let v: Value = serde_json::from_str(&plain.to_json()).unwrap();
    assert!(v["groups"][0].get("tile").is_none());

    // Asked in any order, listed in the order of TileProfile::all.
    let options = CompileOptions::default().with_tile_profiles(&[
        TileProfile::PowerVr,
        TileProfile::MaliG52,
        TileProfile::PowerVr,
    ]);
    assert_eq!(
        options.tile_profiles(),
        [TileProfile::MaliG52, TileProfile::PowerVr]
    );
    let plan = graph.compile(&options).unwrap();
    let v: Value = serde_json::from_str(&plan.to_json()).unwrap();
    assert_eq!(
        v["groups"][0]["tile"],
        json!([
            {"profile": "mali-g52", "bytes_per_pixel": 4, "budget": 32, "fits": true,
             "tile": [16, 16], "tiles": 16,
             "consequence": "model: fits the 32 B a pixel tile buffer: 16x16 tiles (16)"},
            {"profile": "powervr", "bytes_per_pixel": 4, "budget": 16, "fits": true, "spilled": [],
             "consequence": "model: fits the 16 B (128-bit) output registers"}
        ])
    );
    assert!(
        v["groups"][1].get("tile").is_none(),
        "compute groups have no tile list"
    );
    let table = plan.to_table();
    assert!(table.contains("TILE (a model"), "{table}");
    assert!(table.contains("mali-g52"), "{table}");
    assert!(
        plan.to_dot()
            .contains("tile model: mali-g52 4 B 16x16; powervr 4 B fits")
    );
    assert!(!plain.to_table().contains("TILE"));
    assert!(!plain.to_dot().contains("tile model"));
}

#[test]
fn profile_names_are_the_plan_json_names() {
    let names: Vec<&str> = TileProfile::all().iter().map(|p| p.name()).collect();
    assert_eq!(
        names,
        [
            "mali-g71",
            "mali-g52",
            "mali-g610",
            "mali-g720",
            "adreno-630",
            "adreno-650",
            "adreno-660",
            "adreno-740",
            "apple-a8",
            "apple-a11",
            "powervr"
        ]
    );
    let budgets: Vec<u64> = TileProfile::all().iter().map(|p| p.budget()).collect();
    assert_eq!(
        budgets,
        [
            16,
            32,
            64,
            128,
            1 << 20,
            9 << 17,
            3 << 19,
            3 << 20,
            32,
            64,
            16
        ]
    );
    for &p in TileProfile::all() {
        assert_eq!(TileProfile::from_name(&p.to_string()), Some(p));
    }
}

#[test]
fn memory_counts_each_resource_alone_pooled_and_memoryless() {
    const RGBA8_64: u64 = 64 * 64 * 4;
    // a and c never overlap: one texture. depth lives on tile only. The mipped array counts
    // every mip and layer × samples; the buffer its size; the import and the culled texture
    // nothing.
    let json = include_str!("graphs/memory_counts_each_resource_alone_pooled_and_memoryless.json");
    let plan = crate::common::compile(json);
    let pyramid = (64 * 64 + 32 * 32 + 16 * 16) * 4 * 2;
    let depth = 64 * 64 * 4;
    let m = plan.memory();
    assert_eq!(m.declared_bytes, 3 * RGBA8_64 + depth + pyramid + 1000);
    assert_eq!(m.allocated_bytes, 2 * RGBA8_64 + depth + pyramid + 1000);
    assert_eq!(m.transient_bytes, depth);
    let v: Value = serde_json::from_str(&plan.to_json()).unwrap();
    assert_eq!(
        v["memory"],
        json!({"declared_bytes": m.declared_bytes, "allocated_bytes": m.allocated_bytes,
               "transient_bytes": depth})
    );
    assert!(plan.to_table().contains("MEMORY (a model"));
    // Without pooling, what is allocated is what is declared.
    let unpooled = RenderGraph::from_json(json)
        .unwrap()
        .compile(&CompileOptions::default().with_alias(false))
        .unwrap();
    assert_eq!(unpooled.memory().allocated_bytes, m.declared_bytes);
}

#[test]
fn keep_memory_round_trips_and_changes_the_fingerprint() {
    let build = |keep: bool| {
        let mut graph = RenderGraph::new();
        let depth = graph.create_texture(
            "depth",
            TextureDesc::new(TextureFormat::Depth32Float, 64, 64),
        );
        if keep {
            graph.keep_memory(depth);
        }
        let out = graph.import_texture(
            "out",
            TextureDesc::new(TextureFormat::Rgba8Unorm, 64, 64),
            Import::OUTPUT,
        );
        graph
            .add_render_pass("draw")
            .color(out, Access::Clear)
            .depth(depth, Access::Clear)
            .side_effects()
            .finish();
        graph
    };
    let (kept, plain) = (build(true), build(false));
    assert_ne!(kept.fingerprint(), plain.fingerprint());
    assert!(kept.resources()[0].keep_memory);
    let json = kept.to_json();
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["resources"][0]["keep_memory"], true);
    assert!(v["resources"][1].get("keep_memory").is_none());
    let again = RenderGraph::from_json(&json).unwrap();
    assert_eq!(again.fingerprint(), kept.fingerprint());
    assert_eq!(again.resources(), kept.resources());
    let rebuilt =
        RenderGraph::from_declarations(kept.resources().to_vec(), kept.passes().to_vec()).unwrap();
    assert_eq!(rebuilt.fingerprint(), kept.fingerprint());
    // Marking twice changes nothing.
    let mut twice = build(true);
    let depth = twice.texture_handle("depth").unwrap();
    let before = twice.fingerprint();
    twice.keep_memory(depth);
    assert_eq!(twice.fingerprint(), before);

    let options = CompileOptions::default();
    assert!(plain.compile(&options).unwrap().resources()[0].transient);
    let plan = kept.compile(&options).unwrap();
    assert!(!plan.resources()[0].transient);
    assert_eq!(plan.memory().transient_bytes, 0);

    // A handle of another graph is an error at compile time.
    let mut other = build(false);
    other.keep_memory(kept.texture_handle("out").unwrap());
    assert_eq!(
        other.compile(&options).unwrap_err().kind(),
        ErrorKind::UnknownResource
    );
}

#[test]
fn keep_memory_in_a_description_is_a_texture_flag() {
    let with = |resource: &str| {
        format!(
            r#"{{"resources": [{resource}], "passes": [{{"name": "p", "type": "compute", "side_effects": true}}]}}"#
        )
    };
    let e = RenderGraph::from_json(&with(
        r#"{"name": "b", "buffer": {"size": 4}, "keep_memory": true}"#,
    ))
    .unwrap_err();
    assert_eq!(
        (e.kind(), e.resource()),
        (ErrorKind::InvalidDescription, Some("b"))
    );
    let e = RenderGraph::from_json(&with(
        r#"{"name": "t", "texture": {"format": "rgba8unorm", "size": [4, 4]}, "keep_memory": 1}"#,
    ))
    .unwrap_err();
    assert_eq!(
        (e.kind(), e.resource()),
        (ErrorKind::InvalidDescription, Some("t"))
    );
    // `false` is the default and is not written back.
    let g = RenderGraph::from_json(&with(
        r#"{"name": "t", "texture": {"format": "rgba8unorm", "size": [4, 4]}, "keep_memory": false}"#,
    ))
    .unwrap();
    assert!(!g.to_json().contains("keep_memory"));
}
