//! Reports and warnings: DOT that stays valid whatever the names, warnings only where they save
//! something, and error hints that point at the fix.

use std::process::{Command, Stdio};

use tilegraph::plan::WarningKind;
use tilegraph::{CompileOptions, RenderGraph};

/// Names that break naive quoting: quotes, backslashes, a backslash before `n`, markup, non-ASCII.
const NASTY: [&str; 5] = [
    r#"a\"b"#,
    r"line\nbreak",
    "<b>&amp;</b>",
    r#"quote"d"#,
    "ñandú 漢字 \u{1F600}",
];

fn nasty_graph() -> String {
    let [a, b, c, d, e] = NASTY.map(|n| serde_json::to_string(n).unwrap());
    format!(
        r#"{{
      "resources": [
        {{"name": {a}, "texture": {{"format": "rgba8unorm", "size": [64, 64]}}}},
        {{"name": {b}, "texture": {{"format": "rgba8unorm", "size": [64, 64]}},
         "import": {{"contents": "undefined", "after": "keep"}}}}
      ],
      "passes": [
        {{"name": {c}, "type": "render", "color": [{{"resource": {a}, "access": "clear"}}]}},
        {{"name": {d}, "type": "render", "sample": [{a}], "color": [{{"resource": {b}, "access": "write"}}]}},
        {{"name": {e}, "type": "render", "color": [{{"resource": {a}, "access": "clear"}}]}}
      ]
    }}"#
    )
}

#[test]
fn dot_escapes_every_name_in_labels_and_edges() {
    let graph = RenderGraph::from_json(&nasty_graph()).unwrap();
    let dot = graph.compile(&CompileOptions::default()).unwrap().to_dot();
    // Escaped as DOT string contents: `\` → `\\`, `"` → `\"`.
    assert!(dot.contains(r#"label="a\\\"b (sample)"#), "{dot}");
    assert!(
        dot.contains(r#"line\\nbreak"#) || !dot.contains("line\\nbreak\""),
        "{dot}"
    );
    assert!(dot.contains(r#"quote\"d"#), "{dot}");
    // Every quote in the output is either escaped or delimits a string: balanced per line.
    for line in dot.lines() {
        let unescaped = line
            .replace(r"\\", "")
            .replace(r#"\""#, "")
            .matches('"')
            .count();
        assert_eq!(unescaped % 2, 0, "unbalanced quotes in `{line}`");
    }
    match Command::new("dot").arg("-V").stderr(Stdio::null()).status() {
        Ok(_) => {
            let mut child = Command::new("dot")
                .arg("-Tsvg")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start dot");
            use std::io::Write as _;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(dot.as_bytes())
                .unwrap();
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                out.status.success() && stderr.trim().is_empty(),
                "dot rejects the output: {stderr}\n{dot}"
            );
            let svg = String::from_utf8_lossy(&out.stdout);
            // The names come out as text: markup escaped by graphviz, nothing split at `\n`.
            assert!(svg.contains("&lt;b&gt;&amp;amp;&lt;/b&gt;"), "{svg}");
        }
        Err(_) if std::env::var_os("CI").is_some() => {
            panic!("graphviz `dot` is not installed on CI")
        }
        Err(_) => eprintln!("graphviz `dot` not installed: DOT checked by the quote rule only"),
    }
}

#[test]
fn a_transient_attachment_gets_no_slow_clear_warning() {
    let json = include_str!("graphs/a_transient_attachment_gets_no_slow_clear_warning.json");
    let plan = crate::common::compile(json);
    assert!(plan.resources()[0].transient);
    let slow: Vec<&str> = plan
        .warnings()
        .iter()
        .filter(|w| w.kind == WarningKind::SlowClearValue)
        .map(|w| plan.resource_name(w.resource.unwrap()))
        .collect();
    // The transient clear never leaves the tile; the kept one is written to memory.
    assert_eq!(slow, ["kept"]);
}

#[test]
fn clear_for_write_is_said_once_per_resource() {
    let json = include_str!("graphs/clear_for_write_is_said_once_per_resource.json");
    let plan = crate::common::compile(json);
    let said: Vec<(&str, &str)> = plan
        .warnings()
        .iter()
        .filter(|w| w.kind == WarningKind::ClearForWrite)
        .map(|w| {
            (
                plan.pass_name(w.pass.unwrap()),
                plan.resource_name(w.resource.unwrap()),
            )
        })
        .collect();
    assert_eq!(said, [("a", "hdr"), ("b", "out")]);
}

#[test]
fn sampling_an_undefined_import_suggests_declaring_it_preserved() {
    let json =
        include_str!("graphs/sampling_an_undefined_import_suggests_declaring_it_preserved.json");
    let e = RenderGraph::from_json(json)
        .unwrap()
        .compile(&CompileOptions::default())
        .unwrap_err();
    assert_eq!(e.kind().as_str(), "read_before_write");
    assert!(
        e.to_string().contains("declare the import `preserved`"),
        "{e}"
    );
}

#[test]
fn every_error_kind_is_listed_once() {
    let names: Vec<&str> = tilegraph::ErrorKind::ALL
        .iter()
        .map(|k| k.as_str())
        .collect();
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), names.len());
    assert!(names.contains(&"invalid_subresource"));
}

#[test]
fn the_clear_for_write_warning_names_the_library_switch_not_a_tool_flag() {
    let graph = tilegraph::RenderGraph::from_json(
        r#"{"resources": [
          {"name": "out", "texture": {"format": "rgba8unorm", "size": [8, 8]},
           "import": {"contents": "undefined", "after": "keep"}}],
         "passes": [{"name": "fill", "type": "render", "color": [{"resource": "out", "access": "write"}]}]}"#,
    )
    .unwrap();
    let plan = graph
        .compile(&tilegraph::CompileOptions::default())
        .unwrap();
    let message = plan.warning_message(&plan.warnings()[0]);
    assert!(
        message.contains("CompileOptions::with_dont_care") && !message.contains("--dont-care"),
        "{message}"
    );
}
