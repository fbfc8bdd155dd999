//! Every input a pass samples changes what the pass writes, on the backend `TILEGRAPH_BACKEND`
//! names: for each pass of each graph and each texture it samples or reads as input, the graph
//! with that one entry left out must hash differently from the whole graph. An input that is
//! bound wrongly (a stale texture unit, an empty texture) contributes nothing and fails here,
//! even where every execute mode agrees. Where an adapter cannot run a graph faithfully, the
//! tool must refuse it with an `unsupported` error that names the capability.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn graphs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(root.join("../examples/graphs"))
        .expect("examples/graphs")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files.push(root.join("tests/graphs/sampled_inputs.json"));
    files.push(root.join("tests/graphs/sampled_msaa.json"));
    files
}

/// `Ok(hashes)` of a run, or `Err(stderr)` when the tool refused it.
fn run(description: &str, name: &str) -> Result<String, String> {
    let backend = std::env::var("TILEGRAPH_BACKEND").unwrap_or_else(|_| "auto".to_owned());
    let file = std::env::temp_dir().join(format!(
        "tilegraph-inputs-{}-{name}.json",
        std::process::id()
    ));
    std::fs::write(&file, description).expect("write the variant");
    let out = Command::new(env!("CARGO_BIN_EXE_tilegraph"))
        .arg("run")
        .arg(&file)
        .args(["--backend", &backend, "--hash", "--size", "48x40"])
        .output()
        .expect("start tilegraph");
    let _ = std::fs::remove_file(&file);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if out.status.success() {
        assert!(!stdout.trim().is_empty(), "{name}: no hash printed");
        Ok(stdout)
    } else {
        assert!(
            stderr.contains("error: unsupported: pass `"),
            "{name}: the run failed ({}) instead of being refused: {stderr}",
            out.status
        );
        Err(stderr)
    }
}

/// The passes the plan culls.
fn culled_passes(graph: &Path) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_tilegraph"))
        .arg("plan")
        .arg(graph)
        .args(["--format", "json"])
        .output()
        .expect("start tilegraph");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let plan: Value = serde_json::from_slice(&out.stdout).expect("plan JSON");
    plan["passes"]
        .as_array()
        .expect("passes")
        .iter()
        .filter(|p| p["culled"] == true)
        .map(|p| p["name"].as_str().expect("name").to_owned())
        .collect()
}

#[test]
fn every_sampled_input_changes_the_output() {
    let mut wrong = Vec::new();
    let mut checked = 0;
    for path in graphs() {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("read graph");
        let whole = match run(&text, &stem) {
            Ok(hashes) => hashes,
            Err(refusal) => {
                // Only a missing capability, named, excuses a graph.
                assert!(
                    refusal.contains("TEXTURE_BINDING") || refusal.contains("cannot"),
                    "{stem}: refused without naming a capability: {refusal}"
                );
                eprintln!("{stem}: refused on this adapter: {}", refusal.trim());
                continue;
            }
        };
        let graph: Value = serde_json::from_str(&text).expect("graph JSON");
        let culled = culled_passes(&path);
        let passes = graph["passes"].as_array().expect("passes");
        for (p, pass) in passes.iter().enumerate() {
            // A culled pass writes nothing anyone sees.
            if culled.iter().any(|c| pass["name"] == c.as_str()) {
                continue;
            }
            for key in ["sample", "input"] {
                let count = pass.get(key).and_then(Value::as_array).map_or(0, Vec::len);
                for i in 0..count {
                    let mut variant = graph.clone();
                    let entries = variant["passes"][p][key].as_array_mut().unwrap();
                    let dropped = entries.remove(i);
                    let name = format!("{stem}-{p}-{key}-{i}");
                    let what = format!("{stem}: pass `{}` {key} {dropped}", pass["name"]);
                    checked += 1;
                    match run(&variant.to_string(), &name) {
                        Ok(hashes) if hashes == whole => {
                            wrong.push(format!("{what}: leaving it out changes nothing"))
                        }
                        Ok(_) => {}
                        Err(refusal) => wrong.push(format!(
                            "{what}: the graph runs but not without it: {refusal}"
                        )),
                    }
                }
            }
        }
    }
    assert!(checked > 20, "only {checked} inputs checked");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
