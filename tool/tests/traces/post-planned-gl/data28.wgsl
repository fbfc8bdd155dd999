
@group(0) @binding(0) var t0: texture_2d<f32>;
@group(0) @binding(1) var t1: texture_2d<f32>;
@group(0) @binding(2) var<uniform> u0: vec4f;
@group(0) @binding(3) var<uniform> u1: vec4f;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(uv * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4f {
    let a = textureLoad(t0, vec2i(0, 0), 0);
    let b = textureLoad(t1, vec2i(0, 0), 0);
    return vec4f(a.r, b.g, u1.x, u0.x);
}
