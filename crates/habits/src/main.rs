//! Counts what the workspace's code habits limit, and fails when a count is over its limit.
//!
//! `cargo run -p tilegraph-habits -- [--list] [ROOT]` reads every `.rs` file under the workspace's
//! sources and prints, per area:
//! - files longer than 900 lines (1 500 for integration tests, whose bulk is often data),
//! - functions longer than 80 lines (from `fn` to the closing brace, doc comments excluded),
//! - functions with more than five parameters (`self` included, as clippy counts them),
//! - tuple parameters (one parameter standing for several),
//! - `allow(clippy::too_many_arguments)`.
//!
//! The library (`src/`) must have none of them; the other areas must keep their files short. `--list`
//! names every offender. A `#[deprecated]` function keeps the signature it had until the next minor
//! release removes it (the CHANGELOG's deprecation rule): its parameters are listed apart, not
//! counted against the limits.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use syn::spanned::Spanned;
use syn::visit::Visit;

const FILE_LIMIT: usize = 900;
const TEST_FILE_LIMIT: usize = 1_500;
const FN_LIMIT: usize = 80;
const PARAM_LIMIT: usize = 5;
/// Clippy's lint against many parameters, spelled in two pieces so this file does not match itself.
const TOO_MANY: &str = concat!("too_many", "_arguments");

/// The directories read, relative to the workspace root, and whether the function rules apply there.
const AREAS: &[(&str, bool)] = &[
    ("src", true),
    ("tests", false),
    ("tool/src", false),
    ("tool/tests", false),
    ("crates", false),
    ("fuzz/fuzz_targets", false),
];

#[derive(Default)]
struct Counts {
    files: usize,
    long_files: Vec<String>,
    long_fns: Vec<String>,
    many_params: Vec<String>,
    tuple_params: Vec<String>,
    allows: Vec<String>,
    /// Deprecated functions whose parameters would be over the limits.
    deprecated: Vec<String>,
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:>5} files, {:>3} too long, {:>3} functions over {FN_LIMIT} lines, {:>3} over {PARAM_LIMIT} \
             parameters, {:>3} tuple parameters, {:>3} allow(too_many_arguments), {:>3} deprecated (not counted)",
            self.files,
            self.long_files.len(),
            self.long_fns.len(),
            self.many_params.len(),
            self.tuple_params.len(),
            self.allows.len(),
            self.deprecated.len()
        )
    }
}

struct FnVisitor<'a> {
    file: &'a str,
    counts: &'a mut Counts,
}

impl FnVisitor<'_> {
    fn check(&mut self, attrs: &[syn::Attribute], sig: &syn::Signature, block: &syn::Block) {
        let start = sig.fn_token.span().start().line;
        let end = block.brace_token.span.close().end().line;
        let lines = end + 1 - start;
        let at = format!("{}:{start} {}", self.file, sig.ident);
        if lines > FN_LIMIT {
            self.counts.long_fns.push(format!("{at} ({lines} lines)"));
        }
        let many = sig.inputs.len() > PARAM_LIMIT;
        let tuple = sig.inputs.iter().any(|input| {
            matches!(input, syn::FnArg::Typed(typed)
                if matches!(*typed.ty, syn::Type::Tuple(ref t) if !t.elems.is_empty())
                    || matches!(*typed.pat, syn::Pat::Tuple(_)))
        });
        if !(many || tuple) {
            return;
        }
        if attrs.iter().any(|a| a.path().is_ident("deprecated")) {
            self.counts.deprecated.push(format!("{at} (deprecated)"));
            return;
        }
        if many {
            self.counts
                .many_params
                .push(format!("{at} ({} parameters)", sig.inputs.len()));
        }
        if tuple {
            self.counts.tuple_params.push(at);
        }
    }
}

impl<'ast> Visit<'ast> for FnVisitor<'_> {
    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        self.check(&item.attrs, &item.sig, &item.block);
        syn::visit::visit_item_fn(self, item);
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        self.check(&item.attrs, &item.sig, &item.block);
        syn::visit::visit_impl_item_fn(self, item);
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        if let Some(block) = &item.default {
            self.check(&item.attrs, &item.sig, block);
        }
        syn::visit::visit_trait_item_fn(self, item);
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            if name != "target" && name != "fuzz" && !name.to_string_lossy().starts_with('.') {
                rust_files(&path, out)?;
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

fn is_test_file(rel: &str) -> bool {
    rel.starts_with("tests/") || rel.contains("/tests/")
}

fn count_area(root: &Path, area: &str, functions: bool) -> Result<Counts, String> {
    let mut files = Vec::new();
    let dir = root.join(area);
    if !dir.is_dir() {
        return Ok(Counts::default());
    }
    rust_files(&dir, &mut files).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut counts = Counts::default();
    for path in files {
        let rel = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{rel}: {e}"))?;
        counts.files += 1;
        let lines = text.lines().count();
        let limit = if is_test_file(&rel) {
            TEST_FILE_LIMIT
        } else {
            FILE_LIMIT
        };
        if lines > limit {
            counts
                .long_files
                .push(format!("{rel} ({lines} lines, limit {limit})"));
        }
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if !code.starts_with("//")
                && (code.contains("#[allow(")
                    || code.contains("#![allow(")
                    || code.contains("#[expect("))
                && code.contains(TOO_MANY)
            {
                counts.allows.push(format!("{rel}:{}", n + 1));
            }
        }
        if functions {
            let file = syn::parse_file(&text).map_err(|e| {
                let at = e.span().start();
                format!("{rel}:{}:{}: {e}", at.line, at.column + 1)
            })?;
            FnVisitor {
                file: &rel,
                counts: &mut counts,
            }
            .visit_file(&file);
        }
    }
    Ok(counts)
}

fn main() -> ExitCode {
    let mut list = false;
    let mut root = PathBuf::from(".");
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--list" => list = true,
            "-h" | "--help" => {
                println!("usage: tilegraph-habits [--list] [WORKSPACE_ROOT]");
                return ExitCode::SUCCESS;
            }
            _ if arg.starts_with('-') => {
                eprintln!(
                    "unknown option {arg} (usage: tilegraph-habits [--list] [WORKSPACE_ROOT])"
                );
                return ExitCode::from(2);
            }
            _ => root = PathBuf::from(arg),
        }
    }
    let mut failed = false;
    for &(area, functions) in AREAS {
        let counts = match count_area(&root, area, functions) {
            Ok(counts) => counts,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        println!("{area:<11} {counts}");
        let over = !counts.long_files.is_empty()
            || (functions
                && !(counts.long_fns.is_empty()
                    && counts.many_params.is_empty()
                    && counts.tuple_params.is_empty()
                    && counts.allows.is_empty()));
        if over || list {
            for item in counts
                .long_files
                .iter()
                .chain(&counts.long_fns)
                .chain(&counts.many_params)
                .chain(&counts.tuple_params)
                .chain(&counts.deprecated)
                .map(|s| s.as_str())
                .chain(counts.allows.iter().map(|s| s.as_str()))
            {
                println!("    {item}");
            }
        }
        failed |= over;
    }
    if failed {
        eprintln!(
            "over the limits: files ≤ {FILE_LIMIT} lines ({TEST_FILE_LIMIT} for tests); in src/, functions ≤ \
             {FN_LIMIT} lines and ≤ {PARAM_LIMIT} parameters, no tuple parameters, no allow(too_many_arguments)"
        );
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts_of(source: &str) -> Counts {
        let mut counts = Counts::default();
        let file = syn::parse_file(source).expect("parses");
        FnVisitor {
            file: "lib.rs",
            counts: &mut counts,
        }
        .visit_file(&file);
        counts
    }

    #[test]
    fn six_parameters_and_tuple_parameters_are_counted() {
        let counts = counts_of(
            "struct S; impl S { fn f(&self, a: u8, b: u8, c: u8, d: u8, e: u8) {} }
             fn g((w, h): (u32, u32)) {}
             fn h(size: (u32, u32)) {}
             fn five(a: u8, b: u8, c: u8, d: u8, e: u8) {}
             fn unit(a: ()) {}",
        );
        assert_eq!(counts.many_params, ["lib.rs:1 f (6 parameters)"]);
        assert_eq!(counts.tuple_params, ["lib.rs:2 g", "lib.rs:3 h"]);
        assert!(counts.deprecated.is_empty());
    }

    #[test]
    fn a_deprecated_function_is_listed_apart() {
        let counts = counts_of(
            "#[deprecated(note = \"use g\")]
             fn f(a: u8, b: u8, c: u8, d: u8, e: u8, f: u8) {}
             trait T { #[deprecated] fn t(&self, size: (u32, u32)) {} }",
        );
        assert!(counts.many_params.is_empty() && counts.tuple_params.is_empty());
        assert_eq!(
            counts.deprecated,
            ["lib.rs:2 f (deprecated)", "lib.rs:3 t (deprecated)"]
        );
    }

    #[test]
    fn long_functions_are_counted_deprecated_or_not() {
        let body = "let _x = 1;\n".repeat(FN_LIMIT);
        let counts = counts_of(&format!("#[deprecated]\nfn long() {{\n{body}}}\n"));
        assert_eq!(
            counts.long_fns,
            [format!("lib.rs:2 long ({} lines)", FN_LIMIT + 2)]
        );
    }
}
