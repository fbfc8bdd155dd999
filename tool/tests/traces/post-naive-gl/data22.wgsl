
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(uv * 2.0 - 1.0, 0.0, 1.0);
}

@group(0) @binding(0) var cube: texture_cube<f32>;
@group(0) @binding(1) var nearest: sampler;
@fragment fn fs() -> @location(0) vec4f {
    return textureSampleLevel(cube, nearest, vec3f(0.0, 0.0, 1.0), 0.0);
}
