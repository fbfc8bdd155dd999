//! Reuse of compiled plans across frames, owned by the caller and keyed by the graph's structure.

use std::sync::Arc;

use crate::compile::Compiler;
use crate::declare::RenderGraph;
use crate::error::GraphError;
use crate::options::CompileOptions;
use crate::plan::CompiledGraph;

/// A small cache of compiled plans keyed by [`RenderGraph::fingerprint`] and the options.
///
/// A frame that declares the same graph as an earlier one gets the earlier plan back without
/// compiling: the fingerprint is maintained while the graph is declared, so a hit costs a lookup.
/// The cache keeps the `capacity` most recently used plans (a renderer alternating between a few
/// graph shapes — menus, split screen — keeps hitting). It compiles with a [`Compiler`] of its
/// own; an evicted plan that nobody else still holds is dropped, and its storage reused by the
/// next compile on the thread.
#[derive(Debug)]
pub struct PlanCache {
    entries: Vec<(u128, CompileOptions, Arc<CompiledGraph>)>,
    capacity: usize,
    compiler: Compiler,
    hits: u64,
    misses: u64,
}

impl Default for PlanCache {
    fn default() -> Self {
        Self::new(4)
    }
}

impl PlanCache {
    /// A cache that holds up to `capacity` plans (at least one).
    pub fn new(capacity: usize) -> Self {
        PlanCache {
            entries: Vec::new(),
            capacity: capacity.max(1),
            compiler: Compiler::new(),
            hits: 0,
            misses: 0,
        }
    }

    /// The plan for `graph`: cached if the same structure was compiled with the same options,
    /// compiled (and cached) otherwise. Errors are not cached.
    pub fn get_or_compile(
        &mut self,
        graph: &RenderGraph<'_>,
        options: &CompileOptions,
    ) -> Result<Arc<CompiledGraph>, GraphError> {
        let key = graph.fingerprint();
        let hit = self
            .entries
            .iter()
            .position(|(k, o, _)| *k == key && o == options);
        // A 128-bit fingerprint collision is unlikely, not impossible: debug builds compare the
        // structure itself and compile afresh when it differs.
        let hit = hit.filter(|&i| {
            !cfg!(any(debug_assertions, test)) || {
                let plan = &self.entries[i].2;
                let same = plan.pass_decls() == graph.passes()
                    && plan.resource_decls() == graph.resources();
                if !same {
                    log::warn!(
                        "plan cache: fingerprint {key:032x} matched another graph's structure"
                    );
                }
                same
            }
        });
        if let Some(i) = hit {
            self.hits += 1;
            // Most recently used first (nothing moves when it already is).
            self.entries[..=i].rotate_right(1);
            return Ok(self.entries[0].2.clone());
        }
        self.misses += 1;
        let plan = Arc::new(self.compiler.compile(graph, options)?);
        if let Some(i) = self
            .entries
            .iter()
            .position(|(k, o, _)| *k == key && o == options)
        {
            self.entries.remove(i);
        }
        self.entries.insert(0, (key, *options, plan.clone()));
        while self.entries.len() > self.capacity {
            self.entries.pop().expect("over capacity");
        }
        Ok(plan)
    }

    /// Number of lookups answered from the cache.
    pub fn hits(&self) -> u64 {
        self.hits
    }

    /// Number of lookups that compiled.
    pub fn misses(&self) -> u64 {
        self.misses
    }

    /// Number of plans held now (at most [`capacity`](Self::capacity)).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no plan is held.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The most plans the cache holds.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Forgets every plan.
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::{Access, TextureDesc};

    fn graph(name: &str) -> RenderGraph<'static> {
        let mut g = RenderGraph::new();
        let t = g.create_texture(
            name,
            TextureDesc::new(wgpu::TextureFormat::Rgba8Unorm, 64, 64),
        );
        g.add_render_pass("draw")
            .color(t, Access::Clear)
            .side_effects()
            .finish();
        g
    }

    #[test]
    fn a_fingerprint_collision_is_caught_by_the_structure_check() {
        let options = CompileOptions::default();
        let (a, b) = (graph("a"), graph("b"));
        let mut cache = PlanCache::new(4);
        let plan_a = cache.get_or_compile(&a, &options).unwrap();
        // Forge a collision: b's fingerprint pointing at a's plan.
        cache.entries[0].0 = b.fingerprint();
        let plan_b = cache.get_or_compile(&b, &options).unwrap();
        assert!(!Arc::ptr_eq(&plan_a, &plan_b));
        assert_eq!(plan_b.resource_name(crate::ids::ResourceId::new(0)), "b");
        assert_eq!((cache.hits(), cache.misses()), (0, 2));
        // The real entry hits.
        let again = cache.get_or_compile(&b, &options).unwrap();
        assert!(Arc::ptr_eq(&again, &plan_b));
    }

    #[test]
    fn plans_compiled_from_evicted_storage_are_the_plans_compiled_afresh() {
        let options = CompileOptions::default();
        let (a, b) = (graph("a"), graph("b"));
        let fresh = [a.compile(&options).unwrap(), b.compile(&options).unwrap()];
        let mut cache = PlanCache::new(1);
        for round in 0..6 {
            let (graph, fresh) = if round % 2 == 0 {
                (&a, &fresh[0])
            } else {
                (&b, &fresh[1])
            };
            // Nothing else holds the plan, so the next miss drops it and compiles in its storage.
            let plan = cache.get_or_compile(graph, &options).unwrap();
            assert_eq!(plan.to_json(), fresh.to_json(), "round {round}");
        }
        assert_eq!((cache.hits(), cache.misses()), (0, 6));
    }
}
