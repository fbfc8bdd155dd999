#[path = "../benches/generate.rs"]
mod generate;
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let g = generate::deferred_frame(n);
    let o = tilegraph::CompileOptions::default();
    let t = std::time::Instant::now();
    let iters = 20;
    for _ in 0..iters {
        std::hint::black_box(g.compile(&o).unwrap());
    }
    eprintln!("{:?} per compile", t.elapsed() / iters);
}
