// Shared by every shader of the deferred example; prepended to each module.

const LIGHT_COUNT: u32 = 256u;
// Words of a tile's light mask: one bit per light.
const MASK_WORDS: u32 = 8u;
const TILE_SIZE: u32 = 16u;

struct Camera {
    view_proj: mat4x4<f32>,
    inv_view_proj: mat4x4<f32>,
    view: mat4x4<f32>,
    inv_proj: mat4x4<f32>,
    // xyz: eye position.
    eye: vec4<f32>,
    // width, height, time in seconds, exposure.
    frame: vec4<f32>,
    // tiles across, tiles down.
    tiles: vec4<u32>,
}

struct Light {
    // xyz: world position, w: radius of influence.
    position_radius: vec4<f32>,
    // rgb: intensity.
    color: vec4<f32>,
}

// Light reaching a surface point from one point light (Blinn-Phong with a roughness-derived
// exponent, energy roughly conserved; good enough for a render-graph demo).
fn shade_point_light(light: Light, world: vec3<f32>, n: vec3<f32>, v: vec3<f32>,
                     albedo: vec3<f32>, roughness: f32, metalness: f32) -> vec3<f32> {
    let to_light = light.position_radius.xyz - world;
    let dist = length(to_light);
    let radius = light.position_radius.w;
    if dist >= radius {
        return vec3<f32>(0.0);
    }
    let l = to_light / dist;
    let window = clamp(1.0 - pow(dist / radius, 4.0), 0.0, 1.0);
    let attenuation = window * window / (dist * dist + 1.0);
    let n_dot_l = max(dot(n, l), 0.0);
    let h = normalize(l + v);
    let alpha = max(roughness * roughness, 0.02);
    let shininess = 2.0 / (alpha * alpha) - 2.0;
    let specular_color = mix(vec3<f32>(0.04), albedo, metalness);
    let specular = specular_color * pow(max(dot(n, h), 0.0), shininess) * (shininess + 8.0) / 25.13;
    let diffuse = albedo * (1.0 - metalness) / 3.14159;
    return (diffuse + specular) * light.color.rgb * n_dot_l * attenuation;
}

// A triangle covering the whole viewport.
fn fullscreen_position(index: u32) -> vec4<f32> {
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}
// Tonemap: exposure and the ACES filmic curve (Narkowicz's fit) from the HDR image to the output.

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var hdr_texture: texture_2d<f32>;

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    return fullscreen_position(index);
}

fn tonemapped(position: vec4<f32>) -> vec3<f32> {
    let x = textureLoad(hdr_texture, vec2<u32>(position.xy), 0).rgb * camera.frame.w;
    return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), vec3<f32>(0.0), vec3<f32>(1.0));
}

// For sRGB outputs: the format encodes.
@fragment
fn fs_linear(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    return vec4<f32>(tonemapped(position), 1.0);
}

// For unorm outputs: encode to sRGB here.
@fragment
fn fs_encode(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let c = tonemapped(position);
    let encoded = select(1.055 * pow(c, vec3<f32>(1.0 / 2.4)) - 0.055, c * 12.92, c <= vec3<f32>(0.0031308));
    return vec4<f32>(encoded, 1.0);
}
