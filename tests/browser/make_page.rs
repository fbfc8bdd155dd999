//! Wraps a viewer data object (`{"graph", "plan", "explain"?}`) into the HTML page with the crate's
//! own `html::page`, compiled standalone with rustc (no cargo, no dependencies), so the viewer can be
//! tested before, and independently of, the tool's `--format html`.
//!   rustc --edition 2024 -O tests/browser/make_page.rs -o make_page && ./make_page DATA.json > PAGE.html
#[path = "../../src/html.rs"]
mod html;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(input), None) = (args.next(), args.next()) else {
        eprintln!("usage: make_page DATA.json > PAGE.html");
        std::process::exit(2);
    };
    let data = std::fs::read_to_string(&input).unwrap_or_else(|e| {
        eprintln!("make_page: {input}: {e}");
        std::process::exit(1);
    });
    print!("{}", html::page(data.trim_end()));
}
