//! Compile time of generated deferred frames (100, 1 000, 10 000 passes) declared with the builder
//! and loaded from JSON with mips and layers (also compiled in declared order, without
//! restructuring), and a plan-cache hit.
//!
//! `cargo bench --bench compile`

use criterion::{BenchmarkId, Criterion, black_box, criterion_group, criterion_main};
use tilegraph::{CompileOptions, PlanCache, RenderGraph};

#[path = "generate.rs"]
mod generate;

fn compile(c: &mut Criterion) {
    let options = CompileOptions::default();
    let mut group = c.benchmark_group("compile");
    for passes in [100, 1_000, 10_000] {
        let graph = generate::deferred_frame(passes);
        group.bench_with_input(BenchmarkId::new("cold", passes), &graph, |b, graph| {
            b.iter(|| black_box(graph.compile(&options).expect("generated frames are valid")))
        });
    }
    for passes in [100, 1_000, 10_000] {
        let json = generate::subresource_frame_json(passes);
        let graph = RenderGraph::from_json(&json).expect("generated descriptions load");
        group.bench_with_input(
            BenchmarkId::new("json_subresources", passes),
            &graph,
            |b, graph| {
                b.iter(|| black_box(graph.compile(&options).expect("generated frames are valid")))
            },
        );
    }
    // The same frames in declared order: what restructuring costs.
    let declared = options.with_restructure(false);
    for passes in [1_000, 10_000] {
        let json = generate::subresource_frame_json(passes);
        let graph = RenderGraph::from_json(&json).expect("generated descriptions load");
        group.bench_with_input(
            BenchmarkId::new("json_subresources_as_declared", passes),
            &graph,
            |b, graph| {
                b.iter(|| {
                    black_box(
                        graph
                            .compile(&declared)
                            .expect("generated frames are valid"),
                    )
                })
            },
        );
    }
    for passes in [1_000, 10_000] {
        let graph = generate::deferred_frame(passes);
        let mut cache = PlanCache::default();
        cache
            .get_or_compile(&graph, &options)
            .expect("generated frames are valid");
        group.bench_with_input(BenchmarkId::new("cache_hit", passes), &graph, |b, graph| {
            b.iter(|| black_box(cache.get_or_compile(graph, &options).expect("cached")))
        });
    }
    group.finish();
}

criterion_group!(benches, compile);
criterion_main!(benches);
