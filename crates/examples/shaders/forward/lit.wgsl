// Forward shading with three shadow cascades sampled from one depth array.

@group(0) @binding(1) var shadow: texture_depth_2d_array;
@group(0) @binding(2) var shadow_sampler: sampler_comparison;

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) color: vec3<f32>,
    @location(3) depth: f32,
};

@vertex
fn vs_main(v: VertexIn) -> VertexOut {
    var out: VertexOut;
    out.clip = globals.view_proj * vec4(v.position, 1.0);
    out.world = v.position;
    out.normal = v.normal;
    out.color = v.color;
    out.depth = -(globals.view * vec4(v.position, 1.0)).z;
    return out;
}

fn lit_fraction(world: vec3<f32>, n: vec3<f32>, depth: f32) -> f32 {
    var index = 2u;
    if depth < globals.splits.x {
        index = 0u;
    } else if depth < globals.splits.y {
        index = 1u;
    }
    let offset = world + n * (0.02 + 0.02 * f32(index));
    let p = globals.cascades[index] * vec4(offset, 1.0);
    let uv = vec2(p.x * 0.5 + 0.5, 0.5 - p.y * 0.5);
    if any(uv < vec2(0.0)) || any(uv > vec2(1.0)) || p.z > 1.0 {
        return 1.0;
    }
    let texel = 1.0 / vec2<f32>(textureDimensions(shadow));
    var sum = 0.0;
    for (var i = 0; i < 4; i++) {
        let o = (vec2(f32(i & 1), f32(i >> 1u)) - 0.5) * texel;
        sum += textureSampleCompareLevel(shadow, shadow_sampler, uv + o, i32(index), p.z - 0.0015);
    }
    return sum * 0.25;
}

const FOG: vec3<f32> = vec3<f32>(1.0, 1.0, 1.0);

fn shade(in: VertexOut) -> vec3<f32> {
    var n = normalize(in.normal);
    let to_eye = normalize(globals.eye.xyz - in.world);
    // Two-sided: glTF meshes may be open.
    n = select(n, -n, dot(n, to_eye) < 0.0);
    let l = normalize(globals.sun.xyz);
    let sun = max(dot(n, l), 0.0) * lit_fraction(in.world, n, in.depth);
    let sky = 0.35 + 0.15 * n.y;
    let h = normalize(l + to_eye);
    let spec = pow(max(dot(n, h), 0.0), 48.0) * sun * 0.4;
    let color = in.color * (sky * vec3(0.8, 0.88, 1.0) + sun * vec3(1.5, 1.4, 1.25)) + spec;
    let mapped = color / (color + vec3(0.6)) * 1.45;
    let fog = 1.0 - exp(-max(in.depth - 12.0, 0.0) * 0.04);
    return mix(min(mapped, vec3(1.0)), FOG, fog);
}

// For an sRGB output format, which encodes on write.
@fragment
fn fs_linear(in: VertexOut) -> @location(0) vec4<f32> {
    return vec4(shade(in), 1.0);
}

// For a linear output format: encode here.
@fragment
fn fs_encode(in: VertexOut) -> @location(0) vec4<f32> {
    return vec4(encode_srgb(shade(in)), 1.0);
}
