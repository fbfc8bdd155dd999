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
// Moves the point lights: every light orbits the scene centre on its own ring, height and speed.

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<storage, read_write> lights: array<Light>;

fn hash(x: u32) -> u32 {
    var h = x * 747796405u + 2891336453u;
    h = ((h >> ((h >> 28u) + 4u)) ^ h) * 277803737u;
    return (h >> 22u) ^ h;
}

fn unit(x: u32) -> f32 {
    return f32(hash(x) & 0xffffu) / 65535.0;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if i >= LIGHT_COUNT {
        return;
    }
    let time = camera.frame.z;
    let ring = 1.5 + 15.0 * sqrt(unit(i * 4u));
    let speed = (0.2 + 0.6 * unit(i * 4u + 1u)) * select(-1.0, 1.0, (i & 1u) == 0u);
    let angle = unit(i * 4u + 2u) * 6.28318 + time * speed;
    let height = 0.35 + 2.2 * unit(i * 4u + 3u) + 0.25 * sin(time * 1.7 + f32(i));
    let hue = unit(i * 7u + 5u) * 6.0;
    let rgb = clamp(vec3<f32>(abs(hue - 3.0) - 1.0, 2.0 - abs(hue - 2.0), 2.0 - abs(hue - 4.0)),
                    vec3<f32>(0.0), vec3<f32>(1.0));
    var light: Light;
    light.position_radius = vec4<f32>(cos(angle) * ring, height, sin(angle) * ring,
                                      2.5 + 2.0 * unit(i * 7u + 6u));
    light.color = vec4<f32>((rgb * 0.8 + 0.2) * 4.0, 1.0);
    lights[i] = light;
}
