
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(uv * 2.0 - 1.0, 0.0, 1.0);
}

@group(0) @binding(0) var layers: texture_2d_array<f32>;
@fragment fn fs() -> @location(0) vec4f { return textureLoad(layers, vec2i(0, 0), 1, 0); }
