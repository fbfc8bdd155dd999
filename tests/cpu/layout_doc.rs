//! The "Layout" section of CONTRIBUTING.md names what the tree holds, no more and no less: the library's
//! top-level modules in its layer table (layer by layer as the `layering` test has them), the
//! tool's modules in its table, and every crate in `crates/` and folder in `tools/` in the
//! table of folders, where every path named exists.

use std::collections::BTreeSet;
use std::path::Path;

use super::layering::LAYERS;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The `## Layout` section of CONTRIBUTING.md.
fn layout_section(readme: &str) -> &str {
    let start = readme
        .find("\n## Layout\n")
        .expect("CONTRIBUTING.md has a `## Layout` section");
    let rest = &readme[start + 1..];
    let end = rest[1..].find("\n## ").map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

/// The tables of `section`, each as its header's first cell and its rows' cells (the separator
/// row left out).
fn tables(section: &str) -> Vec<(String, Vec<Vec<String>>)> {
    let mut out: Vec<(String, Vec<Vec<String>>)> = Vec::new();
    let mut in_table = false;
    for line in section.lines() {
        let line = line.trim();
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        let cells: Vec<String> = line
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_owned())
            .collect();
        if !in_table {
            out.push((cells[0].clone(), Vec::new()));
            in_table = true;
        } else if !cells[0].starts_with("---") {
            out.last_mut().expect("a table").1.push(cells);
        }
    }
    out
}

/// The names between backticks in `cell`, a trailing `/` (a folder) left off.
fn names(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(|n| n.trim_end_matches('/').to_owned())
        .collect()
}

/// The table whose header starts with `header`: its rows' first and second cells.
fn table<'t>(tables: &'t [(String, Vec<Vec<String>>)], header: &str) -> &'t [Vec<String>] {
    &tables
        .iter()
        .find(|(h, _)| h == header)
        .unwrap_or_else(|| panic!("the Layout section has no table headed `{header}`"))
        .1
}

/// The modules of a crate's `src` folder: each `NAME.rs` and each folder, `skip` left out.
fn modules(src: &Path, skip: &[&str]) -> BTreeSet<String> {
    std::fs::read_dir(src)
        .unwrap_or_else(|e| panic!("read {}: {e}", src.display()))
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.is_dir() || path.extension().is_some_and(|e| e == "rs"))
        .filter_map(|path| Some(path.file_stem()?.to_str()?.to_owned()))
        .filter(|name| !skip.contains(&name.as_str()))
        .collect()
}

/// The folders in `dir`, as `dir/NAME`.
fn folders(dir: &str) -> BTreeSet<String> {
    std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("read {dir}: {e}"))
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.is_dir())
        .filter_map(|path| Some(format!("{dir}/{}", path.file_name()?.to_str()?)))
        .collect()
}

/// What `listed` lacks of `found` and names beyond it, as lines of a failure message.
fn differences(what: &str, listed: &BTreeSet<String>, found: &BTreeSet<String>) -> Vec<String> {
    let missing = found
        .difference(listed)
        .map(|n| format!("{what} `{n}` is missing from CONTRIBUTING.md's Layout section"));
    let stale = listed.difference(found).map(|n| {
        format!("CONTRIBUTING.md's Layout section names {what} `{n}`, which does not exist")
    });
    missing.chain(stale).collect()
}

/// Every name in the first column of the layout's table headed `header`.
fn first_column_names(header: &str) -> BTreeSet<String> {
    let doc = layout_doc();
    let tables = tables(layout_section(&doc));
    table(&tables, header)
        .iter()
        .flat_map(|row| names(&row[0]))
        .collect()
}

fn layout_doc() -> String {
    std::fs::read_to_string(root().join("CONTRIBUTING.md")).expect("read CONTRIBUTING.md")
}

#[test]
fn the_layer_table_lists_every_module_of_src_in_its_layer() {
    let readme = layout_doc();
    let tables = tables(layout_section(&readme));
    let rows = table(&tables, "layer");
    let mut problems = Vec::new();
    let mut listed = BTreeSet::new();
    for (layer, row) in rows.iter().enumerate() {
        let named = names(&row[1]);
        let expected = LAYERS.get(layer).copied().unwrap_or_default();
        if row[0] != layer.to_string() || named != expected {
            problems.push(format!(
                "CONTRIBUTING.md's layer row {} names {named:?}; the layering test's layer {layer} is {expected:?}",
                row[0]
            ));
        }
        listed.extend(named);
    }
    if rows.len() != LAYERS.len() {
        problems.push(format!(
            "CONTRIBUTING.md lists {} layers, the layering test {}",
            rows.len(),
            LAYERS.len()
        ));
    }
    let found = modules(&root().join("src"), &["lib"]);
    problems.extend(differences("the module", &listed, &found));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_tool_table_lists_every_module_of_the_tool() {
    let listed = first_column_names("tool module");
    let found = modules(&root().join("tool/src"), &["lib", "main"]);
    let problems = differences("the tool module", &listed, &found);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_folder_table_names_every_crate_and_tool_folder_and_nothing_gone() {
    let listed = first_column_names("folder");
    let mut problems: Vec<String> = listed
        .iter()
        .filter(|path| !root().join(path).exists())
        .map(|path| {
            format!("CONTRIBUTING.md's Layout section names `{path}`, which does not exist")
        })
        .collect();
    for dir in ["crates", "tools"] {
        problems.extend(
            folders(dir).difference(&listed).map(|f| {
                format!("the folder `{f}` is missing from CONTRIBUTING.md's Layout section")
            }),
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_parser_reads_tables_and_backticked_names() {
    let section = "## Layout\n\ntext\n\n| layer | module |\n|---|---|\n| 0 | `ids`, `plan/` |\n\n| folder | what |\n|---|---|\n| `crates/x` | y |\n";
    let tables = tables(section);
    assert_eq!(tables.len(), 2);
    assert_eq!(table(&tables, "layer")[0][0], "0");
    assert_eq!(names(&table(&tables, "layer")[0][1]), ["ids", "plan"]);
    assert_eq!(names(&table(&tables, "folder")[0][0]), ["crates/x"]);
    let readme = "# t\n\n## Layout\n\nbody\n\n## Next\n\nother\n";
    assert_eq!(layout_section(readme), "## Layout\n\nbody\n");
}
