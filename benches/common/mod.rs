//! What the command lines of the crate's benches share.

/// The arguments `cargo bench` passes a bench without libtest's harness: ignored.
#[derive(clap::Args)]
pub struct CargoBench {
    /// `cargo bench` passes `--bench`.
    #[arg(long, hide = true)]
    bench: bool,
    /// libtest-style filters, ignored.
    #[arg(hide = true)]
    filters: Vec<String>,
}

/// A positive count's parser.
pub fn positive(v: &str) -> Result<usize, String> {
    v.parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("takes a positive number, not `{v}`"))
}
