//! What a pass closure may reach: only what the pass declared, whole or one subresource; a live
//! pass needs a closure; history textures carry one frame into the next and say when they cannot.

use tilegraph::wgpu;
use tilegraph::{
    Access, CompileOptions, ContextError, ExecuteError, ExecuteMode, Executor, Import, Imports,
    PassError, RenderGraph, TextureDesc, TextureHandle,
};
use tilegraph_tool::headless::Gpu;

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

fn kept(graph: &mut RenderGraph<'_>, name: &str, w: u32, h: u32) -> TextureHandle {
    graph.import_texture(name, TextureDesc::new(FORMAT, w, h), Import::OUTPUT)
}

fn run(
    gpu: &Gpu,
    executor: &mut Executor,
    graph: &mut RenderGraph<'_>,
    imports: &Imports,
) -> Result<(), ExecuteError> {
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let result = executor
        .execute_and_submit(graph, &plan, imports, ExecuteMode::Planned)
        .map(drop);
    crate::support::assert_no_gpu_errors(gpu);
    result
}

/// The error a pass closure returned, as the context's error.
fn context_error(result: Result<(), ExecuteError>, pass: &str) -> ContextError {
    match result {
        Err(ExecuteError::Pass { pass: p, source }) => {
            assert_eq!(p, pass);
            *source
                .downcast::<ContextError>()
                .unwrap_or_else(|e| panic!("not a context error: {e}"))
        }
        other => panic!("expected pass `{pass}` to fail, got {other:?}"),
    }
}

fn target(gpu: &Gpu, w: u32, h: u32) -> (wgpu::Texture, wgpu::TextureView) {
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT
        | wgpu::TextureUsages::COPY_SRC
        | wgpu::TextureUsages::COPY_DST;
    gpu.target("out", (w, h), FORMAT, usage)
}

#[test]
fn an_undeclared_texture_is_refused_with_the_pass_and_resource_named() {
    let gpu = crate::support::gpu();
    let (texture, view) = target(&gpu, 16, 16);
    let (texture2, view2) = target(&gpu, 16, 16);
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    let mut graph = RenderGraph::new();
    let scene = graph.create_texture("scene", TextureDesc::new(FORMAT, 16, 16));
    let mask = graph.create_texture("mask", TextureDesc::new(FORMAT, 16, 16));
    let out = kept(&mut graph, "out", 16, 16);
    let out2 = kept(&mut graph, "out2", 16, 16);
    for (name, t) in [("scene", scene), ("mask", mask)] {
        graph
            .add_render_pass(name)
            .color(t, Access::Clear)
            .execute(|_, _| Ok(()));
    }
    graph
        .add_render_pass("forgetful")
        .sample(scene)
        .color(out, Access::Write)
        .execute(move |_, ctx| {
            ctx.view(scene)?; // declared: fine
            ctx.view(out)?; // its own attachment: declared
            ctx.view(mask)?; // live, bound, but not declared by this pass
            Ok(())
        });
    graph
        .add_render_pass("late")
        .sample(mask)
        .color(out2, Access::Write)
        .execute(|_, _| Ok(()));
    let mut imports = Imports::new();
    imports
        .texture(out, &texture, &view)
        .texture(out2, &texture2, &view2);
    let e = context_error(run(&gpu, &mut executor, &mut graph, &imports), "forgetful");
    assert!(
        matches!(&e, ContextError::Undeclared { pass, resource, .. } if pass == "forgetful" && resource == "mask"),
        "{e}"
    );
    assert!(e.to_string().contains("did not declare"), "{e}");
}

#[test]
fn subresources_are_handed_out_only_as_declared() {
    let gpu = crate::support::gpu();
    let (texture, view) = target(&gpu, 32, 32);
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    let asked = std::sync::Mutex::new(Vec::new());
    let mut graph = RenderGraph::new();
    let chain = graph.create_texture("chain", TextureDesc::new(FORMAT, 64, 64).mips(3));
    let out = kept(&mut graph, "out", 32, 32);
    crate::support::clear_pass(&mut graph, "base", chain);
    graph
        .add_render_pass("down")
        .sample(chain.mip(0))
        .color(chain.mip(1), Access::Clear)
        .execute(|_, ctx| {
            let mut asked = asked.lock().unwrap();
            asked.push(ctx.view(chain.mip(0)).is_ok()); // sampled
            asked.push(ctx.view(chain.mip(1)).is_ok()); // attached
            asked.push(ctx.view(chain.mip(2)).is_ok()); // neither
            asked.push(ctx.view(chain).is_ok()); // the whole texture: not declared whole
            asked.push(ctx.texture(chain).is_ok()); // the texture, for custom views: declared
            Ok(())
        });
    graph
        .add_render_pass("show")
        .sample(chain.mip(1))
        .color(out, Access::Write)
        .execute(|_, _| Ok(()));
    let imports = crate::support::output_imports(out, &texture, &view);
    run(&gpu, &mut executor, &mut graph, &imports).expect("records");
    drop(graph);
    assert_eq!(
        asked.into_inner().unwrap(),
        [true, true, false, false, true]
    );
}

#[test]
fn a_handle_of_another_graph_is_refused() {
    let gpu = crate::support::gpu();
    let (texture, view) = target(&gpu, 16, 16);
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    let mut other = RenderGraph::new();
    let stranger = other.create_texture("stranger", TextureDesc::new(FORMAT, 16, 16));
    let mut graph = RenderGraph::new();
    let out = kept(&mut graph, "out", 16, 16);
    graph
        .add_render_pass("draw")
        .color(out, Access::Clear)
        .execute(move |_, ctx| ctx.texture(stranger).map(drop).map_err(PassError::from));
    let imports = crate::support::output_imports(out, &texture, &view);
    let e = context_error(run(&gpu, &mut executor, &mut graph, &imports), "draw");
    assert!(matches!(e, ContextError::ForeignHandle { .. }), "{e}");
}

#[test]
fn a_live_pass_without_a_closure_is_an_error() {
    let gpu = crate::support::gpu();
    let (texture, view) = target(&gpu, 16, 16);
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    let mut graph = RenderGraph::new();
    let out = kept(&mut graph, "out", 16, 16);
    graph
        .add_render_pass("forgotten")
        .color(out, Access::Clear)
        .finish();
    let imports = crate::support::output_imports(out, &texture, &view);
    match run(&gpu, &mut executor, &mut graph, &imports) {
        Err(ExecuteError::MissingCallback { pass }) => assert_eq!(pass, "forgotten"),
        other => panic!("expected MissingCallback, got {other:?}"),
    }
}

/// One frame of the history test: `write` clears this frame's history to `color`, `read` copies
/// last frame's into `out`. Returns whether `read` saw a valid history, and `out`'s first texel.
fn history_frame(
    gpu: &Gpu,
    executor: &mut Executor,
    size: u32,
    color: [f64; 4],
) -> (bool, [u8; 4]) {
    let (texture, view) = target(gpu, size, size);
    let valid = std::sync::Mutex::new(None);
    let mut graph = RenderGraph::new();
    let history = graph.history_texture("acc", TextureDesc::new(FORMAT, size, size));
    let out = kept(&mut graph, "out", size, size);
    graph
        .add_render_pass("write")
        .color_cleared(history.current, color)
        .execute(|_, _| Ok(()));
    graph
        .add_copy_pass("read")
        .copy_src(history.previous)
        .copy_dst(out)
        .execute(|encoder, ctx| {
            *valid.lock().unwrap() = Some(ctx.history_valid(history.previous));
            encoder.copy_texture_to_texture(
                ctx.texture(history.previous)?.as_image_copy(),
                ctx.texture(out)?.as_image_copy(),
                wgpu::Extent3d {
                    width: size,
                    height: size,
                    depth_or_array_layers: 1,
                },
            );
            Ok(())
        });
    let imports = crate::support::output_imports(out, &texture, &view);
    run(gpu, executor, &mut graph, &imports).expect("history frame");
    drop(graph);
    let back = gpu.read_texture(&texture).expect("read back");
    let texel = [back.bytes[0], back.bytes[1], back.bytes[2], back.bytes[3]];
    (valid.into_inner().unwrap().expect("`read` ran"), texel)
}

#[test]
fn history_carries_last_frame_and_says_when_it_cannot() {
    let gpu = crate::support::gpu();
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    let red = [1.0, 0.0, 0.0, 1.0];
    let green = [0.0, 1.0, 0.0, 1.0];
    let blue = [0.0, 0.0, 1.0, 1.0];
    // First frame: nothing to carry.
    let (valid, _) = history_frame(&gpu, &mut executor, 8, red);
    assert!(!valid, "no history on the first frame");
    // Each later frame sees the frame before.
    assert_eq!(
        history_frame(&gpu, &mut executor, 8, green),
        (true, [255, 0, 0, 255])
    );
    assert_eq!(
        history_frame(&gpu, &mut executor, 8, blue),
        (true, [0, 255, 0, 255])
    );
    // A resize reallocates both textures: no valid history, zeros.
    assert_eq!(
        history_frame(&gpu, &mut executor, 16, red),
        (false, [0, 0, 0, 0])
    );
    assert_eq!(
        history_frame(&gpu, &mut executor, 16, green),
        (true, [255, 0, 0, 255])
    );
}

/// Two passes share a pipeline and each pushes its own colour into `PassUniforms` inside its
/// closure: each target gets its pass's colour (with one buffer written in both closures, both
/// would get the last one), frame after frame, and the bind groups are found again.
#[test]
fn pass_uniforms_give_every_pass_its_own_values() {
    use tilegraph::helpers::{BindGroupCache, FullscreenPipeline, PassUniforms};
    let gpu = crate::support::gpu();
    let pipeline = FullscreenPipeline::single(
        &gpu.device,
        "flat",
        "@group(0) @binding(0) var<uniform> color: vec4<f32>;
         @fragment fn flat(v: FullscreenVertex) -> @location(0) vec4<f32> { return color; }",
        "flat",
        FORMAT,
    );
    let uniforms = PassUniforms::new(&gpu.device, "per-pass colours", 4096);
    let binds = BindGroupCache::new();
    let targets = [target(&gpu, 8, 8), target(&gpu, 8, 8)];
    let colors: [[f32; 4]; 2] = [[1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]];
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    for frame in 0..3 {
        let mut graph = RenderGraph::new();
        let mut imports = Imports::new();
        for (i, color) in colors.iter().enumerate() {
            let out = kept(&mut graph, &format!("out{i}"), 8, 8);
            imports.texture(out, &targets[i].0, &targets[i].1);
            let (pipeline, uniforms, binds) = (&pipeline, &uniforms, &binds);
            graph
                .add_render_pass(&format!("flat{i}"))
                .color(out, Access::Write)
                .execute(move |pass, ctx| {
                    let bytes: Vec<u8> = color.iter().flat_map(|c| c.to_le_bytes()).collect();
                    let slice = uniforms.push(&bytes)?;
                    pipeline.draw(pass, ctx, binds, &[slice])
                });
        }
        let plan = graph.compile(&CompileOptions::default()).expect("compiles");
        let commands = executor
            .execute(&mut graph, &plan, &imports, ExecuteMode::Planned)
            .expect("records");
        uniforms.upload(&gpu.queue);
        gpu.queue.submit(commands);
        binds.next_frame();
        for (i, color) in colors.iter().enumerate() {
            let texels = gpu.read_texture(&targets[i].0).expect("reads back").bytes;
            let expected: Vec<u8> = color.iter().map(|c| (c * 255.0) as u8).collect();
            assert!(
                texels.chunks(4).all(|t| t == expected.as_slice()),
                "frame {frame}, pass flat{i}: {:?}",
                &texels[..4]
            );
        }
    }
    assert_eq!(
        binds.stats().misses,
        2,
        "one bind group per pass, made once"
    );
    // A push past the buffer is an error naming it.
    let small = PassUniforms::new(&gpu.device, "tiny", 16);
    small.push(&[0; 16]).expect("fits");
    let e = small.push(&[0; 16]).unwrap_err().to_string();
    assert!(e.contains("`tiny`") && e.contains("do not fit"), "{e}");
    crate::support::assert_no_gpu_errors(&gpu);
}

/// A layout of `count` uniform buffers, at bindings 0 to `count - 1`.
fn uniform_layout(device: &wgpu::Device, count: u32) -> wgpu::BindGroupLayout {
    let entries: Vec<_> = (0..count)
        .map(|binding| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        })
        .collect();
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("uniforms"),
        entries: &entries,
    })
}

/// A uniform buffer of `size` bytes.
fn uniform_buffer(device: &wgpu::Device, label: &str, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: wgpu::BufferUsages::UNIFORM,
        mapped_at_creation: false,
    })
}

/// The bind-group cache gives the bind group it made before only for the same layout and the
/// same resources, ranges included — also with more bindings than a lookup keeps on the stack —
/// and makes a new one for anything else.
#[test]
fn the_bind_group_cache_finds_a_group_only_for_the_same_layout_and_resources() {
    use tilegraph::helpers::{BindGroupCache, Binding};
    let gpu = crate::support::gpu();
    let device = &gpu.device;
    // Two layouts alike but distinct objects, and one of ten bindings.
    let uniforms = |count| uniform_layout(device, count);
    let (one, alike, ten) = (uniforms(1), uniforms(1), uniforms(10));
    let slice = u64::from(device.limits().min_uniform_buffer_offset_alignment);
    let (a, b) = (
        uniform_buffer(device, "a", slice * 12),
        uniform_buffer(device, "b", slice * 12),
    );
    let cache = BindGroupCache::new();
    let (target_texture, target_view) = target(&gpu, 4, 4);
    let mut executor = Executor::new(device, &gpu.queue);
    let mut graph = RenderGraph::new();
    let out = kept(&mut graph, "out", 4, 4);
    let imports = crate::support::output_imports(out, &target_texture, &target_view);
    let (one, alike, ten, a, b, cache) = (&one, &alike, &ten, &a, &b, &cache);
    graph
        .add_render_pass("lookups")
        .color(out, Access::Clear)
        .execute(move |_, ctx| {
            let range = |buffer, i: u64| Binding::BufferRange(buffer, i * slice, slice);
            let first = cache.bind_group(ctx, one, &[range(a, 0)])?;
            assert_eq!(cache.bind_group(ctx, one, &[range(a, 0)])?, first);
            // Another layout alike, another buffer, another offset, another size.
            let others = [
                (alike, range(a, 0)),
                (one, range(b, 0)),
                (one, range(a, 1)),
                (one, Binding::BufferRange(a, 0, slice * 2)),
            ];
            for (i, (layout, binding)) in others.into_iter().enumerate() {
                let other = cache.bind_group(ctx, layout, &[binding])?;
                assert_ne!(other, first, "lookup {i} found the first bind group");
                let again = cache.bind_group(ctx, layout, &[binding])?;
                assert_eq!(again, other, "lookup {i} again");
            }
            // Past the parts a lookup keeps on the stack.
            let all: Vec<Binding<'_>> = (0..10).map(|i| range(a, i)).collect();
            let big = cache.bind_group(ctx, ten, &all)?;
            assert_eq!(cache.bind_group(ctx, ten, &all)?, big);
            let mut last_differs = all.clone();
            last_differs[9] = range(b, 9);
            assert_ne!(cache.bind_group(ctx, ten, &last_differs)?, big);
            Ok(())
        });
    run(&gpu, &mut executor, &mut graph, &imports).expect("records");
    let stats = cache.stats();
    assert_eq!(
        (stats.misses, stats.hits, stats.len),
        (7, 6, 7),
        "{stats:?}"
    );
}

#[test]
fn the_bind_group_cache_drops_a_group_no_frame_used_for_keep_frames() {
    use std::sync::atomic::{AtomicU32, Ordering};
    use tilegraph::helpers::{BindGroupCache, Binding};
    let gpu = crate::support::gpu();
    let device = &gpu.device;
    let layout = uniform_layout(device, 1);
    let (a, b) = (
        uniform_buffer(device, "a", 256),
        uniform_buffer(device, "b", 256),
    );
    let cache = BindGroupCache::with_keep_frames(2);
    let frame = AtomicU32::new(0);
    let (target_texture, target_view) = target(&gpu, 4, 4);
    let mut executor = Executor::new(device, &gpu.queue);
    let mut graph = RenderGraph::new();
    let out = kept(&mut graph, "out", 4, 4);
    let imports = crate::support::output_imports(out, &target_texture, &target_view);
    // `b` is bound every frame, `a` on frames 0 and 5.
    let (layout, a, b, cache, frame_ref) = (&layout, &a, &b, &cache, &frame);
    graph
        .add_render_pass("binds")
        .color(out, Access::Clear)
        .execute(move |_, ctx| {
            if [0, 5].contains(&frame_ref.load(Ordering::Relaxed)) {
                cache.bind_group(ctx, layout, &[Binding::ExternalBuffer(a)])?;
            }
            cache.bind_group(ctx, layout, &[Binding::ExternalBuffer(b)])?;
            Ok(())
        });
    let mut held = Vec::new();
    for f in 0..7 {
        frame.store(f, Ordering::Relaxed);
        run(&gpu, &mut executor, &mut graph, &imports).expect("records");
        cache.next_frame();
        held.push(cache.stats().len);
    }
    // `a` goes at the end of frame 2, the second frame after its last use that did not use it,
    // and is made anew on frame 5.
    assert_eq!(held, [2, 2, 1, 1, 1, 2, 2]);
    let stats = cache.stats();
    assert_eq!((stats.misses, stats.hits), (3, 6), "{stats:?}");
}

#[test]
fn an_import_bound_again_keeps_its_views() {
    use std::sync::Mutex;
    let gpu = crate::support::gpu();
    let array = |label| {
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width: 8,
                height: 8,
                depth_or_array_layers: 2,
            },
            mip_level_count: 2,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: FORMAT,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(wgpu::TextureViewDimension::D2Array),
            ..Default::default()
        });
        (texture, view)
    };
    let (first, second) = (array("first"), array("second"));
    let (target_texture, target_view) = target(&gpu, 4, 4);
    let seen = Mutex::new(Vec::new());
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    let mut graph = RenderGraph::new();
    let desc = TextureDesc::new(FORMAT, 8, 8).mips(2).layers(2);
    let input = graph.import_texture("input", desc, Import::INPUT);
    let out = kept(&mut graph, "out", 4, 4);
    let seen_ref = &seen;
    graph
        .add_render_pass("look")
        .sample(input.subresource(1, 1))
        .sample(input.layers(0..2))
        .color(out, Access::Clear)
        .execute(move |_, ctx| {
            // One subresource's view, and the 2D-array view of a range of layers.
            let sub = ctx.view(input.subresource(1, 1))?.clone();
            let layers = ctx.view(input.layers(0..2))?.clone();
            seen_ref.lock().expect("not poisoned").push((sub, layers));
            Ok(())
        });
    let mut imports = Imports::new();
    imports.texture(out, &target_texture, &target_view);
    // Three frames that bind the same texture and view, then one that binds another texture.
    for (texture, view) in [&first, &first, &first, &second] {
        imports.texture(input, texture, view);
        run(&gpu, &mut executor, &mut graph, &imports).expect("records");
    }
    drop(graph);
    let seen = seen.into_inner().expect("not poisoned");
    assert_eq!(seen[0], seen[1], "the same binding keeps its views");
    assert_eq!(seen[1], seen[2]);
    assert_ne!(
        seen[2].0, seen[3].0,
        "another texture gets views of its own"
    );
    assert_ne!(seen[2].1, seen[3].1);
}

/// A graph clearing the import `out` (8×8), sampled afterwards by a second pass when `sampled`
/// (which then needs the texture's `TEXTURE_BINDING`).
fn import_frame(sampled: bool) -> (RenderGraph<'static>, TextureHandle) {
    let mut graph = RenderGraph::new();
    let out = kept(&mut graph, "out", 8, 8);
    graph
        .add_render_pass("clear")
        .color(out, Access::Clear)
        .execute(|_, _| Ok(()));
    if sampled {
        let seen = graph.create_texture("seen", TextureDesc::new(FORMAT, 8, 8));
        graph
            .add_render_pass("look")
            .sample(out)
            .color(seen, Access::Clear)
            .side_effects()
            .execute(|_, _| Ok(()));
    }
    (graph, out)
}

/// An import that does not match its declaration is refused on every frame, not only the
/// first; one that matches is accepted, and checked again for a plan that needs more of it.
#[test]
fn an_import_is_checked_for_every_plan_it_serves_until_it_matches() {
    let gpu = crate::support::gpu();
    let mut executor = Executor::new(&gpu.device, &gpu.queue);
    let (mut graph, out) = import_frame(false);
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let (large, large_view) = target(&gpu, 16, 16);
    let mut imports = Imports::new();
    imports.texture(out, &large, &large_view);
    let mut frame = |graph: &mut RenderGraph<'_>, plan, imports: &Imports| {
        executor
            .execute_and_submit(graph, plan, imports, ExecuteMode::Planned)
            .map(drop)
    };
    for attempt in 0..2 {
        match frame(&mut graph, &plan, &imports) {
            Err(ExecuteError::ImportMismatch { resource, message }) => {
                assert_eq!(resource, "out");
                assert!(message.contains("16x16"), "{message}");
            }
            other => panic!("attempt {attempt}: expected ImportMismatch, got {other:?}"),
        }
    }
    let (fits, fits_view) = target(&gpu, 8, 8);
    imports.texture(out, &fits, &fits_view);
    for attempt in 0..2 {
        frame(&mut graph, &plan, &imports).unwrap_or_else(|e| panic!("attempt {attempt}: {e}"));
    }
    // The same texture, for a plan that also samples it: it lacks `TEXTURE_BINDING`.
    // `out` is the first resource of both graphs, so the same imports bind it.
    let (mut sampling, _) = import_frame(true);
    let sampling_plan = sampling
        .compile(&CompileOptions::default())
        .expect("compiles");
    match frame(&mut sampling, &sampling_plan, &imports) {
        Err(ExecuteError::ImportMismatch { message, .. }) => {
            assert!(message.contains("TEXTURE_BINDING"), "{message}");
        }
        other => panic!("expected ImportMismatch, got {other:?}"),
    }
    frame(&mut graph, &plan, &imports).expect("the first plan still accepts it");
    crate::support::assert_no_gpu_errors(&gpu);
}
