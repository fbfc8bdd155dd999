// Spheres of increasing roughness reflecting the captured environment, rougher ones reading
// smaller mips, over the environment itself; tonemapped to the output.

struct View {
    inv_view_proj: mat4x4<f32>,
    eye: vec4<f32>,
    // x: the cube's mip count.
    mips: vec4<f32>,
};

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var environment: texture_cube<f32>;
@group(0) @binding(2) var linear: sampler;

fn hit_sphere(center: vec3<f32>, radius: f32, origin: vec3<f32>, dir: vec3<f32>) -> f32 {
    let oc = origin - center;
    let b = dot(oc, dir);
    let h = b * b - dot(oc, oc) + radius * radius;
    if h < 0.0 {
        return -1.0;
    }
    return -b - sqrt(h);
}

fn shade(in: FullscreenVertex) -> vec3<f32> {
    let ndc = vec2(in.uv.x * 2.0 - 1.0, 1.0 - in.uv.y * 2.0);
    let far = view.inv_view_proj * vec4(ndc, 1.0, 1.0);
    let origin = view.eye.xyz;
    let dir = normalize(far.xyz / far.w - origin);
    var best = 1.0e9;
    var index = -1;
    for (var i = 0; i < 5; i++) {
        let t = hit_sphere(vec3(f32(i - 2) * 2.3, 0.0, 0.0), 1.0, origin, dir);
        if t > 0.0 && t < best {
            best = t;
            index = i;
        }
    }
    if index < 0 {
        return textureSampleLevel(environment, linear, dir, 0.0).rgb;
    }
    let p = origin + dir * best;
    let n = normalize(p - vec3(f32(index - 2) * 2.3, 0.0, 0.0));
    let r = reflect(dir, n);
    let roughness = f32(index) / 4.0;
    let lod = roughness * (view.mips.x - 1.0);
    let fresnel = 0.04 + 0.96 * pow(1.0 - max(dot(-dir, n), 0.0), 5.0);
    let tint = mix(vec3(0.95, 0.8, 0.55), vec3(0.9), roughness);
    let reflected = textureSampleLevel(environment, linear, r, lod).rgb;
    return reflected * mix(tint, vec3(1.0), fresnel);
}

fn mapped(in: FullscreenVertex) -> vec3<f32> {
    let c = shade(in);
    return c / (c + vec3(0.7)) * 1.4;
}

// For an sRGB output format, which encodes on write.
@fragment
fn fs_linear(in: FullscreenVertex) -> @location(0) vec4<f32> {
    return vec4(min(mapped(in), vec3(1.0)), 1.0);
}

// For a linear output format: encode here.
@fragment
fn fs_encode(in: FullscreenVertex) -> @location(0) vec4<f32> {
    return vec4(encode_srgb(min(mapped(in), vec3(1.0))), 1.0);
}
