// The full-screen lighting pass both light paths share: it reads the G-buffer, gives pixels the
// G-buffer did not cover the sky, and adds to each covered pixel's ambient term the lights that
// `add_lights` (lighting.wgsl or lighting_uniform.wgsl, with binding 5) picks for it. Prepended to
// those modules after common.wgsl.

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var albedo_texture: texture_2d<f32>;
@group(0) @binding(2) var normal_texture: texture_2d<f32>;
@group(0) @binding(3) var material_texture: texture_2d<f32>;
// Depth as unfilterable float: GLSL cannot load texels of depth textures.
@group(0) @binding(4) var depth_texture: texture_2d<f32>;

// A G-buffer texel, its world position and the direction to the eye.
struct Surface {
    world: vec3<f32>,
    albedo: vec3<f32>,
    n: vec3<f32>,
    // roughness, metalness.
    material: vec2<f32>,
    v: vec3<f32>,
}

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    return fullscreen_position(index);
}

fn sky(y: f32) -> vec3<f32> {
    let t = clamp(y / camera.frame.y, 0.0, 1.0);
    return mix(vec3<f32>(0.10, 0.14, 0.28), vec3<f32>(0.02, 0.02, 0.05), 1.0 - t);
}

fn surface(position: vec4<f32>, pixel: vec2<u32>, depth: f32) -> Surface {
    let ndc = vec2<f32>(position.x / camera.frame.x * 2.0 - 1.0, 1.0 - position.y / camera.frame.y * 2.0);
    let world_h = camera.inv_view_proj * vec4<f32>(ndc, depth, 1.0);
    var s: Surface;
    s.world = world_h.xyz / world_h.w;
    s.albedo = textureLoad(albedo_texture, pixel, 0).rgb;
    s.n = normalize(textureLoad(normal_texture, pixel, 0).xyz);
    s.material = textureLoad(material_texture, pixel, 0).rg;
    s.v = normalize(camera.eye.xyz - s.world);
    return s;
}

@fragment
fn fs_main(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let pixel = vec2<u32>(position.xy);
    let depth = textureLoad(depth_texture, pixel, 0).r;
    if depth >= 1.0 {
        return vec4<f32>(sky(position.y), 1.0);
    }
    let s = surface(position, pixel, depth);
    let ambient = s.albedo * vec3<f32>(0.030, 0.034, 0.045);
    return vec4<f32>(add_lights(s, pixel, ambient), 1.0);
}
