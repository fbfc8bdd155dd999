//! Custom tile profiles (the guide's "Will it fit the tile?"): a profile read from JSON counts
//! by its rule with its own budget, and one that restates a built-in profile reports what the
//! built-in reports.

use std::path::Path;

use tilegraph::plan::{GroupId, TileDetail, TileProfile, TileProfileError, TileRule};
use tilegraph::{CompileOptions, CompiledGraph, RenderGraph};

/// Every example graph, planned with `profiles`.
fn examples(profiles: &[TileProfile]) -> Vec<(String, CompiledGraph)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let options = CompileOptions::default().with_tile_profiles(profiles);
    files
        .into_iter()
        .map(|path| {
            let json = std::fs::read_to_string(&path).unwrap();
            let plan = RenderGraph::from_json(&json)
                .unwrap()
                .compile(&options)
                .unwrap();
            (path.display().to_string(), plan)
        })
        .collect()
}

fn custom(json: &str) -> TileProfile {
    TileProfile::from_json(json).expect("a valid profile")
}

#[test]
fn a_custom_profile_restating_a_built_in_one_reports_the_same() {
    let pairs = [
        (
            TileProfile::Adreno630,
            r#"{"name": "my-630", "rule": "adreno", "gmem_bytes": 1048576, "bin_align": [32, 16], "ccus": 2}"#,
        ),
        (
            TileProfile::Adreno660,
            r#"{"name": "my-660", "rule": "adreno", "gmem_bytes": 1572864, "bin_align": [96, 16], "ccus": 3}"#,
        ),
        (
            TileProfile::Adreno740,
            r#"{"name": "my-740", "rule": "adreno", "gmem_bytes": 3145728, "bin_align": [96, 32], "ccus": 6, "generation": 7}"#,
        ),
        (
            TileProfile::MaliG52,
            r#"{"name": "my-g52", "rule": "mali", "tile_buffer_bytes": 8192}"#,
        ),
        (
            TileProfile::AppleA11,
            r#"{"name": "my-a11", "rule": "apple", "bytes_per_sample": 64}"#,
        ),
        (
            TileProfile::PowerVr,
            r#"{"name": "my-pvr", "rule": "powervr", "bytes_per_pixel": 16}"#,
        ),
    ];
    let mut compared = 0;
    for (builtin, json) in pairs {
        let mine = custom(json);
        assert_eq!(
            (mine.rule(), mine.budget()),
            (builtin.rule(), builtin.budget())
        );
        for (file, plan) in examples(&[builtin, mine]) {
            for g in 0..plan.groups().len() {
                let (Some(a), Some(b)) = (
                    plan.tile_fit(GroupId::new(g), builtin),
                    plan.tile_fit(GroupId::new(g), mine),
                ) else {
                    continue;
                };
                assert_eq!(
                    (a.bytes_per_pixel, a.fits, &a.detail, a.consequence()),
                    (b.bytes_per_pixel, b.fits, &b.detail, b.consequence()),
                    "{file} group {g}: {builtin} against {}",
                    mine.name()
                );
                compared += 1;
            }
            // Reports list the custom profile after the built-in one, by its own name.
            let names: Vec<String> = plan
                .tile_fits(GroupId::new(0))
                .iter()
                .map(|f| f.profile.name().to_owned())
                .collect();
            if !names.is_empty() {
                assert_eq!(names, [builtin.name(), mine.name()], "{file}");
            }
        }
    }
    assert!(compared > 100, "{compared} groups compared");
}

#[test]
fn a_custom_budget_changes_the_figures_by_its_rule() {
    // Half an a630's GMEM: at least as many bins on every group, more on the large ones.
    let half = custom(r#"{"name": "half-630", "rule": "adreno", "gmem_bytes": 524288}"#);
    let (mut more, mut groups) = (0, 0);
    for (file, plan) in examples(&[TileProfile::Adreno630, half]) {
        for g in 0..plan.groups().len() {
            let fits = plan.tile_fits(GroupId::new(g));
            let [full, small] = fits.as_slice() else {
                continue;
            };
            let bins = |f: &tilegraph::plan::TileFit| match f.detail {
                TileDetail::Adreno { bins, .. } => bins,
                _ => unreachable!("both profiles are Adreno"),
            };
            if small.fits {
                assert!(bins(small) >= bins(full), "{file} group {g}");
            }
            more += usize::from(bins(small) > bins(full));
            groups += 1;
        }
    }
    assert!(
        more * 2 > groups,
        "{more} of {groups} groups have more bins"
    );
    // Four custom profiles are kept, in the order given; a fifth, and repeats, are not.
    let names = ["a", "b", "c", "d", "e"];
    let profiles: Vec<TileProfile> = names
        .iter()
        .chain(&["a"])
        .map(|n| {
            custom(&format!(
                r#"{{"name": "{n}", "rule": "powervr", "bytes_per_pixel": 16}}"#
            ))
        })
        .collect();
    let options = CompileOptions::default().with_tile_profiles(&profiles);
    let kept: Vec<String> = options
        .tile_profiles()
        .iter()
        .map(|p| p.name().to_owned())
        .collect();
    assert_eq!(kept, ["a", "b", "c", "d"]);
}

#[test]
fn a_bad_profile_file_is_a_typed_error() {
    let e = TileProfile::from_json(r#"{"name": "x", "rule": "adreno"}"#).unwrap_err();
    assert_eq!(
        e,
        TileProfileError::MissingField {
            field: "gmem_bytes"
        }
    );
    let e = TileProfile::from_json(
        r#"{"name": "mali-g52", "rule": "mali", "tile_buffer_bytes": 8192}"#,
    )
    .unwrap_err();
    assert!(matches!(e, TileProfileError::InvalidName { .. }), "{e}");
    assert!(e.to_string().contains("built-in"), "{e}");
    assert_eq!(TileRule::PowerVr.as_str(), "powervr");
}

#[test]
fn the_adreno_650_is_turnips_a6xx_rule_with_its_gmem() {
    // The XR2 of Quest 2: 1.125 MiB of GMEM, three CCUs (bins 96 wide), as the a660.
    let a650 = TileProfile::from_name("adreno-650").expect("a built-in profile");
    assert_eq!((a650.rule(), a650.budget()), (TileRule::Adreno, 1_179_648));
    let same = custom(
        r#"{"name": "a650", "rule": "adreno", "gmem_bytes": 1179648, "bin_align": [96, 16], "ccus": 3}"#,
    );
    for (file, plan) in examples(&[a650, same]) {
        for g in 0..plan.groups().len() {
            let fits = plan.tile_fits(GroupId::new(g));
            if let [a, b] = fits.as_slice() {
                assert_eq!((&a.detail, a.fits), (&b.detail, b.fits), "{file} group {g}");
                assert!(
                    a.consequence().contains("in 1.125 MiB of GMEM"),
                    "{}",
                    a.consequence()
                );
            }
        }
    }
}
