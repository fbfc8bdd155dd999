//! The self-contained HTML plan viewer (`tilegraph plan FILE --format html`).
//!
//! One page, no external files: the stylesheet and the script are compiled in, and the data object
//! (`{"graph": …, "plan": …, "explain": …}`) is embedded as JSON in
//! `<script type="application/json" id="tilegraph-data">`. Names in that data are untrusted, so the
//! JSON is escaped for the HTML context: a `</script>` inside a name cannot end the element, and the
//! script only ever puts names into the page as text.

/// Page template; the markers below are replaced once each, scanning the template only, so text
/// inside the data or the script can never be taken for a marker.
const TEMPLATE: &str = include_str!("html/viewer.html");
const CSS: &str = include_str!("html/viewer.css");
/// The script: one function, its parts joined in order (the first opens it, the last closes it).
const JS: &str = concat!(
    include_str!("html/viewer/model.js"),
    include_str!("html/viewer/overview.js"),
    include_str!("html/viewer/grid.js"),
    include_str!("html/viewer/groups.js"),
    include_str!("html/viewer/interaction.js"),
);

const CSS_MARKER: &str = "/*@TILEGRAPH_CSS@*/";
const JS_MARKER: &str = "/*@TILEGRAPH_JS@*/";
const DATA_MARKER: &str = "@TILEGRAPH_DATA@";

/// The whole HTML page showing the plan in `data_json` (a JSON object with `graph`, `plan` and
/// optionally `explain`), embedded safely.
pub(crate) fn page(data_json: &str) -> String {
    let data = escape_json_for_script(data_json);
    let mut out = String::with_capacity(TEMPLATE.len() + CSS.len() + JS.len() + data.len());
    let mut rest = TEMPLATE;
    loop {
        let next = [
            (CSS_MARKER, CSS),
            (JS_MARKER, JS),
            (DATA_MARKER, data.as_str()),
        ]
        .into_iter()
        .filter_map(|(marker, value)| rest.find(marker).map(|at| (at, marker, value)))
        .min_by_key(|&(at, _, _)| at);
        match next {
            Some((at, marker, value)) => {
                out.push_str(&rest[..at]);
                out.push_str(value);
                rest = &rest[at + marker.len()..];
            }
            None => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// Escapes JSON text for an HTML `<script>` element: `<`, `>` and `&` become `\u003c`, `\u003e`
/// and `\u0026`, and U+2028/U+2029 become `\u2028`/`\u2029`. In valid JSON these characters occur
/// only inside strings, where the escapes mean the same characters, so the value is unchanged.
fn escape_json_for_script(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + json.len() / 16);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPEN: &str = r#"<script type="application/json" id="tilegraph-data">"#;

    /// The text between the data element's opening tag and the first `</script` after it.
    fn embedded(page: &str) -> &str {
        let start = page.find(OPEN).expect("data element") + OPEN.len();
        let len = page[start..].find("</script").expect("end of data element");
        &page[start..start + len]
    }

    #[test]
    fn markup_in_names_stays_inside_the_json() {
        let json = r#"{"graph":{"resources":[{"name":"</script><b>&\"\\ é"}]},"plan":{}}"#;
        let page = page(json);
        let data = embedded(&page);
        assert_eq!(
            data,
            r#"{"graph":{"resources":[{"name":"\u003c/script\u003e\u003cb\u003e\u0026\"\\ é"}]},"plan":{}}"#
        );
        for c in ['<', '>', '&'] {
            assert!(!data.contains(c), "{c} left unescaped in {data}");
        }
        // The data element is followed by the viewer script, not by the name's markup.
        let after = &page[page.find(OPEN).unwrap() + OPEN.len() + data.len()..];
        assert!(after.starts_with("</script>"));
        assert!(!page.contains("<b>"));
    }

    #[test]
    fn line_and_paragraph_separators_are_escaped() {
        let data = escape_json_for_script("[\"a\u{2028}b\u{2029}c\"]");
        assert_eq!(data, r#"["a\u2028b\u2029c"]"#);
    }

    #[test]
    fn escaping_keeps_everything_else() {
        let json = r#"{"a":"x\\u003c\"y","b":[1,2.5,null,true],"c":"日本 \t"}"#;
        assert_eq!(escape_json_for_script(json), json);
        // A backslash before `<` stays a backslash: `\\<` becomes `\\\u003c`.
        assert_eq!(escape_json_for_script(r#""\\<""#), r#""\\\u003c""#);
    }

    #[test]
    fn markers_in_the_data_are_not_replaced() {
        let json = format!(r#"{{"name":"{CSS_MARKER} {JS_MARKER} {DATA_MARKER}"}}"#);
        let page = page(&json);
        assert_eq!(embedded(&page), json);
        assert_eq!(page.matches(JS_MARKER).count(), 1);
    }

    #[test]
    fn page_is_self_contained() {
        let page = page("{}");
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains(CSS) && page.contains(JS));
        for marker in [CSS_MARKER, JS_MARKER, DATA_MARKER] {
            assert!(!TEMPLATE[TEMPLATE.find(marker).unwrap() + marker.len()..].contains(marker));
        }
        // Nothing is fetched: no URLs to load, and the content security policy forbids it anyway.
        assert!(page.contains("default-src 'none'"));
        for needle in ["http://", "https://", "src=", "href=", "@import", "url("] {
            assert!(
                !page.contains(needle),
                "page refers to something outside: {needle}"
            );
        }
        // The stylesheet and the script cannot end their own elements early.
        assert!(!CSS.to_ascii_lowercase().contains("</style"));
        assert!(!JS.to_ascii_lowercase().contains("</script"));
        assert!(!JS.contains("<!--"));
    }
}
