//! The crate's layers import downward only, as lib.rs states: every `crate::` path in a module
//! names a module of its own layer or one below.

use std::path::Path;

/// The layers of lib.rs, bottom first.
pub(crate) const LAYERS: [&[&str]; 10] = [
    &["ids", "hash", "format", "error", "tile", "tile_custom"],
    &["resource", "decl"],
    &["context"],
    &["declare"],
    &["description", "options"],
    &["plan"],
    &["compile"],
    &["cache", "report", "html", "backend"],
    &["execute"],
    &["helpers", "profiler"],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// Top-level modules that `text` names through `crate::`.
fn crate_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            // `use crate::{a, b}` names several modules.
            if name.is_empty() && rest.starts_with('{') {
                let inner = &rest[1..rest.find('}').unwrap_or(rest.len())];
                out.extend(
                    inner
                        .split(',')
                        .map(|s| s.trim().split("::").next().unwrap_or("").to_owned())
                        .filter(|s| !s.is_empty()),
                );
            } else if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn modules_import_only_their_layer_or_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 10, "found only {} source files", files.len());
    let mut violations = Vec::new();
    let mut checked = 0;
    for file in files {
        let relative = file.strip_prefix(&src).expect("under src");
        let module = relative
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .map(|s| s.trim_end_matches(".rs").to_owned())
            .expect("a module name");
        if module == "lib" {
            continue; // the root re-exports every layer
        }
        let own = layer(&module).unwrap_or_else(|| {
            panic!("module `{module}` is in no layer; add it to lib.rs and here")
        });
        let text = std::fs::read_to_string(&file).expect("read");
        for used in crate_paths(&text) {
            checked += 1;
            // `crate::guide` links are documentation, not imports.
            if used == "guide" || used == "wgpu" {
                continue;
            }
            // Re-exports at the root stand for the module that defines them; name the module.
            let Some(theirs) = layer(&used) else {
                violations.push(format!(
                    "{}: `crate::{used}` is not a module of a layer (import from the defining module)",
                    relative.display()
                ));
                continue;
            };
            if theirs > own {
                violations.push(format!(
                    "{}: `{module}` (layer {own}) uses `crate::{used}` (layer {theirs})",
                    relative.display()
                ));
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} crate paths found: the scan is broken"
    );
    assert!(
        violations.is_empty(),
        "upward imports:\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_scan_sees_grouped_and_nested_paths() {
    let paths = crate_paths(
        "use crate::plan::{A, B};\nuse crate::{ids::X, resource::Y};\nlet x = crate::error::E; // crate::execute",
    );
    assert_eq!(paths, ["plan", "ids", "resource", "error"]);
}
