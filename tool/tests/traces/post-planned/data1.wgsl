
struct FullscreenVertex {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

@vertex
fn fullscreen_vs(@builtin(vertex_index) index: u32) -> FullscreenVertex {
    // (0, 0), (2, 0), (0, 2): one triangle whose inner corner covers the target.
    let corner = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    var out: FullscreenVertex;
    out.position = vec4<f32>(corner.x * 2.0 - 1.0, 1.0 - corner.y * 2.0, 0.0, 1.0);
    out.uv = corner;
    return out;
}
// The procedural HDR scene, ray traced per pixel: a checkered ground, matte and glowing spheres,
// a sky with a sun. Writes the jittered colour and each pixel's motion since the last frame.

struct Camera {
    inv_view_proj: mat4x4<f32>,
    prev_view_proj: mat4x4<f32>,
    eye: vec4<f32>,
    // xy: this frame's jitter in NDC units; z: time in seconds.
    jitter: vec4<f32>,
};

@group(0) @binding(0) var<uniform> camera: Camera;

struct Sphere {
    center: vec3<f32>,
    radius: f32,
    color: vec3<f32>,
    glow: f32,
};

const SPHERE_COUNT: u32 = 7u;

fn sphere(i: u32) -> Sphere {
    switch i {
        case 0u: { return Sphere(vec3(0.0, 1.0, 0.0), 1.0, vec3(0.9, 0.9, 0.92), 0.0); }
        case 1u: { return Sphere(vec3(2.6, 0.7, 0.8), 0.7, vec3(0.8, 0.25, 0.2), 0.0); }
        case 2u: { return Sphere(vec3(-2.4, 0.8, -0.6), 0.8, vec3(0.25, 0.45, 0.85), 0.0); }
        case 3u: { return Sphere(vec3(1.2, 0.35, -2.2), 0.35, vec3(1.0, 0.55, 0.15), 24.0); }
        case 4u: { return Sphere(vec3(-1.3, 0.3, 2.1), 0.3, vec3(0.2, 0.8, 1.0), 30.0); }
        case 5u: { return Sphere(vec3(0.4, 2.6, 1.4), 0.25, vec3(1.0, 0.3, 0.8), 40.0); }
        default: { return Sphere(vec3(-3.6, 0.5, 2.8), 0.5, vec3(0.35, 0.8, 0.35), 0.0); }
    }
}

const SUN: vec3<f32> = vec3<f32>(0.55, 0.62, -0.56);
const FAR: f32 = 1.0e4;

fn hit_sphere(s: Sphere, origin: vec3<f32>, dir: vec3<f32>) -> f32 {
    let oc = origin - s.center;
    let b = dot(oc, dir);
    let c = dot(oc, oc) - s.radius * s.radius;
    let h = b * b - c;
    if h < 0.0 {
        return FAR;
    }
    let t = -b - sqrt(h);
    return select(FAR, t, t > 1.0e-3);
}

struct Hit {
    t: f32,
    index: u32, // SPHERE_COUNT for the ground, SPHERE_COUNT + 1 for the sky
};

fn trace(origin: vec3<f32>, dir: vec3<f32>) -> Hit {
    var best = Hit(FAR, SPHERE_COUNT + 1u);
    for (var i = 0u; i < SPHERE_COUNT; i++) {
        let t = hit_sphere(sphere(i), origin, dir);
        if t < best.t {
            best = Hit(t, i);
        }
    }
    if dir.y < -1.0e-4 {
        let t = -origin.y / dir.y;
        if t > 1.0e-3 && t < best.t && t < 60.0 {
            best = Hit(t, SPHERE_COUNT);
        }
    }
    return best;
}

fn sky(dir: vec3<f32>) -> vec3<f32> {
    let up = clamp(dir.y, 0.0, 1.0);
    let base = mix(vec3(0.42, 0.5, 0.62), vec3(0.08, 0.18, 0.45), sqrt(up));
    let sun = pow(max(dot(dir, normalize(SUN)), 0.0), 900.0) * 60.0;
    return base + vec3(1.0, 0.85, 0.6) * sun;
}

fn shade(origin: vec3<f32>, dir: vec3<f32>, hit: Hit) -> vec3<f32> {
    if hit.index > SPHERE_COUNT {
        return sky(dir);
    }
    let p = origin + dir * hit.t;
    var n = vec3(0.0, 1.0, 0.0);
    var albedo = vec3(0.5);
    var glow = 0.0;
    if hit.index < SPHERE_COUNT {
        let s = sphere(hit.index);
        n = normalize(p - s.center);
        albedo = s.color;
        glow = s.glow;
    } else {
        let checker = (i32(floor(p.x)) + i32(floor(p.z))) & 1;
        albedo = select(vec3(0.62), vec3(0.32), checker == 1);
    }
    if glow > 0.0 {
        return albedo * glow;
    }
    let l = normalize(SUN);
    let lit = trace(p + n * 2.0e-3, l).index > SPHERE_COUNT;
    var color = albedo * (0.18 + 0.12 * n.y) * vec3(0.7, 0.8, 1.0);
    color += albedo * max(dot(n, l), 0.0) * select(0.0, 3.0, lit) * vec3(1.0, 0.92, 0.8);
    // Light from the glowing spheres, unshadowed.
    for (var i = 3u; i < 6u; i++) {
        let s = sphere(i);
        let d = s.center - p;
        let k = max(dot(n, normalize(d)), 0.0) / (1.0 + dot(d, d));
        color += albedo * s.color * k * s.glow * 0.12;
    }
    let fog = exp(-hit.t * 0.025);
    return mix(sky(dir) * 0.9, color, fog);
}

struct Out {
    @location(0) color: vec4<f32>,
    @location(1) motion: vec2<f32>,
};

@fragment
fn fs_main(in: FullscreenVertex) -> Out {
    let ndc = vec2(in.uv.x * 2.0 - 1.0, 1.0 - in.uv.y * 2.0) + camera.jitter.xy;
    let far = camera.inv_view_proj * vec4(ndc, 1.0, 1.0);
    let origin = camera.eye.xyz;
    let dir = normalize(far.xyz / far.w - origin);
    let hit = trace(origin, dir);
    var out: Out;
    out.color = vec4(shade(origin, dir, hit), 1.0);
    // Where this pixel's surface was last frame (the sky: its direction, far away).
    let p = origin + dir * min(hit.t, FAR);
    let prev = camera.prev_view_proj * vec4(p, 1.0);
    let prev_ndc = prev.xy / prev.w;
    let prev_uv = vec2(prev_ndc.x * 0.5 + 0.5, 0.5 - prev_ndc.y * 0.5);
    let jitter_uv = vec2(camera.jitter.x, -camera.jitter.y) * 0.5;
    out.motion = in.uv + jitter_uv - prev_uv;
    return out;
}
