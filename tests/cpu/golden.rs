//! The JSON formats are a contract: for every graph in `examples/graphs`, the description written
//! back by `RenderGraph::to_json` and the plan's `CompiledGraph::to_json` (compiled to report one
//! tile profile of each vendor) are byte-identical to the files in `tests/golden`. A change to either format must show up here as a changed file in
//! review. `TILEGRAPH_BLESS=1 cargo test --release --test cpu golden` rewrites the files.

use std::path::{Path, PathBuf};

use tilegraph::plan::TileProfile;
use tilegraph::{CompileOptions, RenderGraph};

fn example_graphs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 10,
        "examples/graphs holds the example graphs"
    );
    files
}

/// Compares `actual` with the golden file `name`, or rewrites it under `TILEGRAPH_BLESS`.
fn check(name: &str, actual: &str, failures: &mut Vec<String>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("TILEGRAPH_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    match std::fs::read_to_string(&path) {
        Ok(expected) if expected == actual => {}
        Ok(_) => failures.push(format!("{} differs", path.display())),
        Err(e) => failures.push(format!("{}: {e}", path.display())),
    }
}

#[test]
fn description_and_plan_json_are_byte_identical_to_the_golden_files() {
    let mut failures = Vec::new();
    for file in example_graphs() {
        let stem = file.file_stem().unwrap().to_str().unwrap().to_owned();
        let json = std::fs::read_to_string(&file).unwrap();
        let graph = RenderGraph::from_json(&json).unwrap_or_else(|e| panic!("{stem}: {e}"));
        check(
            &format!("{stem}.description.json"),
            &graph.to_json(),
            &mut failures,
        );
        let options = CompileOptions::default().with_tile_profiles(&[
            TileProfile::MaliG71,
            TileProfile::Adreno630,
            TileProfile::AppleA8,
            TileProfile::PowerVr,
        ]);
        let plan = graph
            .compile(&options)
            .unwrap_or_else(|e| panic!("{stem}: {e}"));
        check(&format!("{stem}.plan.json"), &plan.to_json(), &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
