//! Render passes of the synthetic shaders: a full-screen draw for what a pass overwrites and a
//! partial one for what it blends or tests, and copies made with a draw where the backend
//! cannot copy.

use std::fmt::Write as _;

use tilegraph::decl::{Entry, PassRef};
use tilegraph::{Access, PassCallback, SubresourceRange};

use super::passes::{Source, bind_inputs};
use super::shaders::{
    Input, Scalar, hash32, input_layout_entries, inputs, inputs_wgsl, scalar, scalar_of, seed_of,
    texel_out, texture_desc, wgsl_scalar,
};
use crate::headless::ShaderPipeline;

pub(super) fn render_pass<'a>(
    source: Source<'_, '_>,
    pass: PassRef<'_>,
    index: u32,
) -> Result<PassCallback<'a>, String> {
    let Source {
        device,
        graph,
        resources,
        adaptation,
    } = source;
    if !pass.storage_write().is_empty() || !pass.storage_read_write().is_empty() {
        return Err("storage writes in render passes".into());
    }
    if !pass.copy_src().is_empty() || !pass.copy_dst().is_empty() {
        return Err("copies in a render pass".into());
    }
    let (first, first_sub) = pass
        .color()
        .first()
        .map(|c| (c.resource, c.sub))
        .or(pass.depth().map(|d| (d.resource, d.sub)))
        .ok_or("a render pass without attachments")?;
    let size = texture_desc(resources, first).ok_or("attachment is not a texture")?;
    // The pass renders at the attached mip's size.
    let (width, height) = size.mip_size(first_sub.mip);
    let inputs = inputs(graph, resources, pass, adaptation)?;
    let seed = seed_of(index);
    let features = device.features();

    // A multiview pass writes each view differently, so a view rendered into the wrong layer
    // shows: its seed moves with the view (`view_index` in one multiview render pass, an
    // override constant in a render pass per view).
    let views = pass.multiview().map_or(1, |n| n.max(1));
    // The view's term: exact (a multiple of 1/4) and added where the value is computed per
    // pixel anyway, so that a constant view (a render pass per view) folds no differently.
    let vo = if pass.multiview().is_some() {
        " + vo"
    } else {
        ""
    };
    // Fragment outputs per slot.
    let mut out_struct = String::new();
    let mut full_body = String::new();
    let mut part_body = String::new();
    if let Some(tested) = adaptation.shader_depth_tests.get(pass.name()) {
        // The `read` depth the adapter cannot attach while sampling it: the partial draw's
        // `LessEqual` test, done on the sampled texels.
        let k = pass
            .sample()
            .iter()
            .position(|e| *resources[e.resource.index()].name == **tested)
            .ok_or("the depth tested in the shader is not sampled")?;
        writeln!(
            part_body,
            "    if !(ramp(px, -0.0043, 0.0029, {seed} + 0.5) <= textureLoad(in{k}, vec2i(px), 0).x) {{ discard; }}"
        )
        .unwrap();
    }
    for (slot, c) in pass.color().iter().enumerate() {
        let (ty, conv) = texel_out(scalar_of(resources, c.resource, adaptation));
        writeln!(out_struct, "    @location({slot}) c{slot}: {ty},").unwrap();
        writeln!(
            full_body,
            "    {{ let v = fract(value(px, {seed} + {slot}.0) + 0.5 * acc{vo}); o.c{slot} = {conv}; }}"
        )
        .unwrap();
        writeln!(
            part_body,
            "    {{ let v = vec4f(fract(value(px, {seed} + {slot}.0 + 0.5) + 0.5 * acc{vo}).rgb, 0.6); o.c{slot} = {conv}; }}"
        )
        .unwrap();
    }
    let has_depth = pass.depth().is_some();
    if has_depth {
        out_struct.push_str("    @builtin(frag_depth) depth: f32,\n");
        writeln!(full_body, "    o.depth = ramp(px, 0.0031, 0.0057, {seed});").unwrap();
        writeln!(
            part_body,
            "    o.depth = ramp(px, -0.0043, 0.0029, {seed} + 0.5);"
        )
        .unwrap();
    }
    // The partial draw: a triangle covering part of the target.
    let h = hash32(index + 17);
    let j = |k: u32| ((hash32(h ^ k) % 1000) as f32 / 1000.0) * 0.3;
    let tri = [
        (-0.95 + j(1), -0.9 + j(2)),
        (0.9 - j(3), -0.7 + j(4)),
        (-0.4 + j(5), 0.95 - j(6)),
    ];
    let inputs_src = inputs_wgsl(&inputs, device, adaptation)?;
    // The full-screen draw: one triangle past the edges, or for a multiview pass a quad inside
    // them (lavapipe's multiview draws guard-band triangles in view 0 only).
    let (full_screen, full_vertices) = match pass.multiview() {
        None => (
            "    var p = array(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));",
            3,
        ),
        Some(_) => (
            "    var p = array(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(-1.0, 1.0),\n                  vec2f(1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0));",
            6,
        ),
    };
    // `multiview`: the shader for one multiview render pass; else for a pass of one view.
    let source = |multiview: bool| {
        let (view_decl, view_arg, view_let) = match (pass.multiview().is_some(), multiview) {
            (false, _) => ("", "", ""),
            (true, true) => (
                "",
                ", @builtin(view_index) vi: u32",
                "    let vo = f32(vi) * 0.25;\n",
            ),
            (true, false) => (
                "override VIEW: f32 = 0.0;\n",
                "",
                "    let vo = VIEW * 0.25;\n",
            ),
        };
        format!(
            "{inputs}{view_decl}
const DIMS = vec2u({w}u, {hgt}u);
struct FOut {{
{out_struct}}}
@vertex fn vs_full(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {{
{full_screen}
    return vec4f(p[i], 0.5, 1.0);
}}
@vertex fn vs_part(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {{
    var p = array(vec2f({:?}, {:?}), vec2f({:?}, {:?}), vec2f({:?}, {:?}));
    return vec4f(p[i], 0.5, 1.0);
}}
@fragment fn fs_full(@builtin(position) pos: vec4f{view_arg}) -> FOut {{
    let px = vec2u(pos.xy);
{view_let}    let acc = inputs(px, DIMS);
    var o: FOut;
{full_body}    return o;
}}
@fragment fn fs_part(@builtin(position) pos: vec4f{view_arg}) -> FOut {{
    let px = vec2u(pos.xy);
{view_let}    let acc = inputs(px, DIMS);
    var o: FOut;
{part_body}    return o;
}}
",
            tri[0].0,
            tri[0].1,
            tri[1].0,
            tri[1].1,
            tri[2].0,
            tri[2].1,
            inputs = inputs_src,
            full_screen = full_screen,
            w = width,
            hgt = height,
        )
    };
    let module_for = |multiview: bool| {
        device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(pass.name()),
            source: wgpu::ShaderSource::Wgsl(source(multiview).into()),
        })
    };
    let module = module_for(false);
    let visibility = wgpu::ShaderStages::FRAGMENT;
    let layout_entries = input_layout_entries(&inputs, visibility);
    let bind_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(pass.name()),
        entries: &layout_entries,
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(pass.name()),
        bind_group_layouts: &[Some(&bind_layout)],
        immediate_size: 0,
    });

    let overwrites = |a: Access| matches!(a, Access::Clear | Access::Write);
    let depth_access = pass.depth().map(|d| d.access);
    let full_targets: Vec<Option<wgpu::ColorTargetState>> = pass
        .color()
        .iter()
        .map(|c| {
            let t = texture_desc(resources, c.resource).expect("checked");
            Some(wgpu::ColorTargetState {
                format: t.format,
                blend: None,
                write_mask: if overwrites(c.access) {
                    wgpu::ColorWrites::ALL
                } else {
                    wgpu::ColorWrites::empty()
                },
            })
        })
        .collect();
    let part_targets: Vec<Option<wgpu::ColorTargetState>> = pass
        .color()
        .iter()
        .map(|c| {
            let t = texture_desc(resources, c.resource).expect("checked");
            let blendable = t
                .format
                .guaranteed_format_features(features)
                .flags
                .contains(wgpu::TextureFormatFeatureFlags::BLENDABLE);
            Some(wgpu::ColorTargetState {
                format: t.format,
                blend: blendable.then_some(wgpu::BlendState::ALPHA_BLENDING),
                write_mask: wgpu::ColorWrites::ALL,
            })
        })
        .collect();
    let depth_state = |write: bool, compare: wgpu::CompareFunction| {
        pass.depth().map(|d| wgpu::DepthStencilState {
            format: texture_desc(resources, d.resource).expect("checked").format,
            depth_write_enabled: Some(write),
            depth_compare: Some(compare),
            stencil: Default::default(),
            bias: Default::default(),
        })
    };
    let full_draw =
        pass.color().iter().any(|c| overwrites(c.access)) || depth_access.is_some_and(overwrites);
    // The pipelines of one view mode: `mask` for one multiview render pass, else `view`, the
    // view a render pass of its own records.
    let pipelines = |module: &wgpu::ShaderModule,
                     mask: Option<std::num::NonZeroU32>,
                     view: Option<u32>| {
        let constants = view.map(|v| [("VIEW", f64::from(v))]);
        let constants: &[(&str, f64)] = constants.as_ref().map_or(&[], |c| &c[..]);
        let pipeline =
            |label: &str, vs: &str, fs: &str, targets: &[Option<wgpu::ColorTargetState>], depth| {
                ShaderPipeline {
                    layout: Some(&pipeline_layout),
                    depth,
                    multisample: wgpu::MultisampleState {
                        count: size.samples,
                        ..Default::default()
                    },
                    constants,
                    multiview_mask: mask,
                    ..ShaderPipeline::new(label, module, (vs, fs), targets)
                }
                .create(device)
            };
        let full = full_draw.then(|| {
            pipeline(
                "full",
                "vs_full",
                "fs_full",
                &full_targets,
                depth_state(
                    depth_access.is_some_and(overwrites),
                    wgpu::CompareFunction::Always,
                ),
            )
        });
        let part = pipeline(
            "part",
            "vs_part",
            "fs_part",
            &part_targets,
            depth_state(
                depth_access != Some(Access::Read),
                wgpu::CompareFunction::LessEqual,
            ),
        );
        (full, part)
    };
    // Per view (one entry for a pass of one view), and for one multiview render pass where the
    // device has multiview.
    let per_view: Vec<_> = match pass.multiview() {
        None => vec![pipelines(&module, None, None)],
        Some(_) => (0..views)
            .map(|v| pipelines(&module, None, Some(v)))
            .collect(),
    };
    let multiview = (pass.multiview().is_some() && tilegraph::Views::multiview_supported(device))
        .then(|| {
            let mask = tilegraph::Views::Multiview { count: views }.multiview_mask();
            pipelines(&module_for(true), mask, None)
        });
    let (w, hgt) = (width, height);
    let scissor = (
        w / 10,
        hgt / 10,
        (w - w / 10 * 2).max(1),
        (hgt - hgt / 10 * 2).max(1),
    );
    Ok(PassCallback::Render(Box::new(move |rpass, ctx| {
        let (full, part) = match ctx.views() {
            tilegraph::Views::Multiview { .. } => multiview
                .as_ref()
                .ok_or("a multiview render pass on a device without multiview")?,
            tilegraph::Views::PerView { view, .. } => per_view
                .get(view as usize)
                .ok_or("a view past the pass's views")?,
            _ => &per_view[0],
        };
        let group = bind_inputs(ctx, &bind_layout, &inputs)?;
        rpass.set_bind_group(0, &group, &[]);
        if let Some(full) = full {
            rpass.set_scissor_rect(0, 0, w, hgt);
            rpass.set_pipeline(full);
            rpass.draw(0..full_vertices, 0..1);
        }
        rpass.set_scissor_rect(scissor.0, scissor.1, scissor.2, scissor.3);
        rpass.set_pipeline(part);
        rpass.draw(0..3, 0..1);
        // Leave the scissor as a later pass of the group expects it: the whole target.
        rpass.set_scissor_rect(0, 0, w, hgt);
        Ok(())
    })))
}

/// A copy the backend cannot make ([`crate::adapt`]), made with a full-screen draw: the pass
/// samples the source and writes the destination (colour or depth), sample by sample.
pub(super) fn copy_draw_pass<'a>(
    source: Source<'_, '_>,
    pass: PassRef<'_>,
) -> Result<PassCallback<'a>, String> {
    let Source {
        device,
        graph,
        resources,
        ..
    } = source;
    let (&[Entry { resource: src, .. }], dst) = (
        pass.sample(),
        pass.color()
            .first()
            .map(|c| c.resource)
            .or(pass.depth().map(|d| d.resource)),
    ) else {
        return Err("a copy made with a draw samples one source".into());
    };
    let dst = dst.ok_or("a copy made with a draw has one destination")?;
    let (Some(st), Some(dt)) = (texture_desc(resources, src), texture_desc(resources, dst)) else {
        return Err("a copy made with a draw copies textures".into());
    };
    let s = scalar(st.format);
    let multisampled = st.samples > 1;
    let texture_type = format!(
        "{}<{}>",
        if multisampled {
            "texture_multisampled_2d"
        } else {
            "texture_2d"
        },
        wgsl_scalar(s)
    );
    // One draw per sample, each writing its sample only (the pipeline's sample mask), so the
    // copy needs no per-sample shading.
    let samples = if multisampled { st.samples } else { 1 };
    let depth = dt.format.is_depth_stencil_format();
    let (out_type, value) = if depth {
        ("@builtin(frag_depth) f32", ".x")
    } else {
        (
            match s {
                Scalar::Uint => "@location(0) vec4u",
                Scalar::Sint => "@location(0) vec4i",
                _ => "@location(0) vec4f",
            },
            "",
        )
    };
    let source = format!(
        "@group(0) @binding(0) var src: {texture_type};
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {{
    var p = array(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
    return vec4f(p[i], 0.5, 1.0);
}}
override SAMPLE: f32 = 0.0;
@fragment fn fs(@builtin(position) pos: vec4f) -> {out_type} {{
    return textureLoad(src, vec2i(pos.xy), i32(SAMPLE)){value};
}}
"
    );
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(pass.name()),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    let input = Input::Texture(
        graph
            .texture_handle(&resources[src.index()].name)
            .expect("named"),
        st,
        s,
        SubresourceRange::ALL,
    );
    let bind_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(pass.name()),
        entries: &input_layout_entries(&[input], wgpu::ShaderStages::FRAGMENT),
    });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(pass.name()),
        bind_group_layouts: &[Some(&bind_layout)],
        immediate_size: 0,
    });
    let target = [Some(wgpu::ColorTargetState {
        format: dt.format,
        blend: None,
        write_mask: wgpu::ColorWrites::ALL,
    })];
    let pipelines: Vec<_> = (0..samples)
        .map(|sample| {
            let constants = [("SAMPLE", f64::from(sample))];
            ShaderPipeline {
                layout: Some(&layout),
                depth: depth.then(|| wgpu::DepthStencilState {
                    format: dt.format,
                    depth_write_enabled: Some(true),
                    depth_compare: Some(wgpu::CompareFunction::Always),
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
                multisample: wgpu::MultisampleState {
                    count: dt.samples,
                    mask: if multisampled { 1 << sample } else { !0 },
                    ..Default::default()
                },
                constants: &constants,
                ..ShaderPipeline::new(
                    pass.name(),
                    &module,
                    ("vs", "fs"),
                    if depth { &[] } else { &target },
                )
            }
            .create(device)
        })
        .collect();
    let inputs = [input];
    Ok(PassCallback::Render(Box::new(move |rpass, ctx| {
        let group = bind_inputs(ctx, &bind_layout, &inputs)?;
        rpass.set_bind_group(0, &group, &[]);
        for pipeline in &pipelines {
            rpass.set_pipeline(pipeline);
            rpass.draw(0..3, 0..1);
        }
        Ok(())
    })))
}
