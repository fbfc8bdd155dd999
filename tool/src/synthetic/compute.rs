//! Compute passes of the synthetic shaders: one kernel per storage output, writing every texel
//! or element (`storage_write`) or changing a part of it (`storage_read_write`).

use tilegraph::decl::format_name;
use tilegraph::decl::{PassRef, ResourceKind};
use tilegraph::{BufferHandle, PassCallback, PassContext, PassError, TextureDesc, TextureHandle};

use super::passes::{Source, input_entries, input_views, storage_view};
use super::shaders::{
    Input, Scalar, input_layout_entries, inputs, inputs_wgsl, normalized, scalar, scalar_of,
    seed_of, texel_out,
};

/// One output of a compute pass.
#[derive(Clone, Copy)]
enum StorageOutput {
    /// A storage texture; `true` when read_write.
    Texture(TextureHandle, TextureDesc, bool),
    /// A storage buffer with its size in words; `true` when read_write.
    Buffer(BufferHandle, u64, bool),
}

pub(super) fn compute_pass<'a>(
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
    if !pass.copy_src().is_empty() || !pass.copy_dst().is_empty() {
        return Err("copies in a compute pass".into());
    }
    let inputs = inputs(graph, resources, pass, adaptation)?;
    let seed = seed_of(index);
    let features = device.features();
    let mut outputs = Vec::new();
    for (r, read_write) in pass
        .storage_write()
        .iter()
        .map(|e| (e.resource, false))
        .chain(pass.storage_read_write().iter().map(|e| (e.resource, true)))
    {
        let name = &resources[r.index()].name;
        outputs.push(match resources[r.index()].kind {
            ResourceKind::Texture(t) => {
                let flags = adaptation.storage_flags(t.format, features);
                let needed = if read_write {
                    wgpu::TextureFormatFeatureFlags::STORAGE_READ_WRITE
                } else {
                    wgpu::TextureFormatFeatureFlags::STORAGE_WRITE_ONLY
                };
                if !flags.contains(needed) || t.layers > 1 || t.samples > 1 {
                    return Err(format!(
                        "`{name}`: a {} texture with {} layers and {} samples as a storage {}",
                        format_name(t.format),
                        t.layers,
                        t.samples,
                        if read_write { "read_write" } else { "write" }
                    ));
                }
                StorageOutput::Texture(graph.texture_handle(name).expect("named"), t, read_write)
            }
            ResourceKind::Buffer(b) => {
                if b.size % 4 != 0 {
                    return Err(format!(
                        "`{name}`: buffer size {} is not a multiple of 4",
                        b.size
                    ));
                }
                StorageOutput::Buffer(
                    graph.buffer_handle(name).expect("named"),
                    b.size / 4,
                    read_write,
                )
            }
        });
    }
    let outputs_scalar: Vec<Option<Scalar>> = pass
        .storage_write()
        .iter()
        .chain(pass.storage_read_write())
        .map(|e| Some(scalar_of(resources, e.resource, adaptation)))
        .collect();
    let common = inputs_wgsl(&inputs, device, adaptation)?;
    let n = inputs.len();
    let mut kernels = Vec::new();
    for (slot, output) in outputs.iter().enumerate() {
        let body = match *output {
            StorageOutput::Texture(_, t, read_write) => {
                let s = match outputs_scalar[slot] {
                    Some(s) => s,
                    None => scalar(t.format),
                };
                let (ty, conv) = texel_out(s);
                let access = if read_write { "read_write" } else { "write" };
                let update = if read_write {
                    format!(
                        "if ((id.x / 8u + id.y / 8u) % 3u != 0u) {{ return; }}\n    let prior = {};\n    let v = mix(prior, fract(value(id.xy, {seed} + {slot}.0) + 0.5 * acc), 0.5);",
                        normalized(s, "textureLoad(out, vec2i(id.xy))")
                    )
                } else {
                    format!("let v = fract(value(id.xy, {seed} + {slot}.0) + 0.5 * acc);")
                };
                format!(
                    "@group(0) @binding({n}) var out: texture_storage_2d<{fmt}, {access}>;
@compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) id: vec3u) {{
    let dims = textureDimensions(out);
    if (id.x >= dims.x || id.y >= dims.y) {{ return; }}
    let acc = inputs(id.xy, dims);
    {update}
    textureStore(out, vec2i(id.xy), {ty}({conv}));
}}
",
                    fmt = format_name(t.format)
                )
            }
            StorageOutput::Buffer(_, words, read_write) => {
                let update = if read_write {
                    format!(
                        "if (i % 3u != 0u) {{ return; }}\n    let v = mix(unpack4x8unorm(out[i]), fract(value(px, {seed} + {slot}.0) + 0.5 * acc), 0.5);"
                    )
                } else {
                    format!("let v = fract(value(px, {seed} + {slot}.0) + 0.5 * acc);")
                };
                format!(
                    "@group(0) @binding({n}) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {{
    let i = id.x + id.y * 4194240u;
    if (i >= {words}u) {{ return; }}
    let dims = vec2u(256u, {rows}u);
    let px = vec2u(i % 256u, i / 256u);
    let acc = inputs(px, dims);
    {update}
    out[i] = pack4x8unorm(v);
}}
",
                    rows = words.div_ceil(256).max(1)
                )
            }
        };
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(pass.name()),
            source: wgpu::ShaderSource::Wgsl(format!("{common}\n{body}").into()),
        });
        let mut entries = input_layout_entries(&inputs, wgpu::ShaderStages::COMPUTE);
        entries.push(wgpu::BindGroupLayoutEntry {
            binding: n as u32,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: match *output {
                StorageOutput::Texture(_, t, read_write) => wgpu::BindingType::StorageTexture {
                    access: if read_write {
                        wgpu::StorageTextureAccess::ReadWrite
                    } else {
                        wgpu::StorageTextureAccess::WriteOnly
                    },
                    format: t.format,
                    view_dimension: wgpu::TextureViewDimension::D2,
                },
                StorageOutput::Buffer(..) => wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only: false },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
            },
            count: None,
        });
        let bind_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(pass.name()),
            entries: &entries,
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(pass.name()),
            bind_group_layouts: &[Some(&bind_layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(pass.name()),
            layout: Some(&layout),
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        let groups = match *output {
            StorageOutput::Texture(_, t, _) => (t.width.div_ceil(8), t.height.div_ceil(8)),
            StorageOutput::Buffer(_, words, _) => {
                let g = words.div_ceil(64) as u32;
                (g.min(65535), g.div_ceil(65535))
            }
        };
        kernels.push((*output, bind_layout, pipeline, groups));
    }
    Ok(PassCallback::Compute(Box::new(move |cpass, ctx| {
        for (output, bind_layout, pipeline, groups) in &kernels {
            let group = bind_with_output(ctx, bind_layout, &inputs, output)?;
            cpass.set_pipeline(pipeline);
            cpass.set_bind_group(0, &group, &[]);
            cpass.dispatch_workgroups(groups.0, groups.1, 1);
        }
        Ok(())
    })))
}

/// Bind group of the inputs plus one output at binding `inputs.len()`.
fn bind_with_output(
    ctx: &PassContext<'_>,
    layout: &wgpu::BindGroupLayout,
    inputs: &[Input],
    output: &StorageOutput,
) -> Result<wgpu::BindGroup, PassError> {
    let views = input_views(ctx, inputs)?;
    let out_view = match *output {
        StorageOutput::Texture(h, _, _) => Some(storage_view(ctx, h)?),
        StorageOutput::Buffer(..) => None,
    };
    let mut entries = input_entries(ctx, inputs, &views)?;
    entries.push(wgpu::BindGroupEntry {
        binding: inputs.len() as u32,
        resource: match (output, &out_view) {
            (StorageOutput::Buffer(h, _, _), _) => ctx.buffer(*h)?.as_entire_binding(),
            (_, Some(v)) => wgpu::BindingResource::TextureView(v),
            _ => unreachable!("textures have views"),
        },
    });
    Ok(ctx.device().create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(ctx.pass_name()),
        layout,
        entries: &entries,
    }))
}
