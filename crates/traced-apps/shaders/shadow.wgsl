// Shadow-mapped lights over a plane and four cubes: a depth-only bake per light into a layer of
// a depth array, then a forward pass that compares against every light's layer.

struct Globals {
    view_proj: mat4x4<f32>,
    light_count: vec4<u32>,
}

struct Entity {
    world: mat4x4<f32>,
    color: vec4<f32>,
}

struct Light {
    view_proj: mat4x4<f32>,
    position: vec4<f32>,
    color: vec4<f32>,
}

@group(0) @binding(0) var<uniform> globals: Globals;
@group(0) @binding(1) var<storage, read> lights: array<Light>;
@group(0) @binding(2) var shadow_maps: texture_depth_2d_array;
@group(0) @binding(3) var shadow_sampler: sampler_comparison;
@group(1) @binding(0) var<uniform> entity: Entity;

@vertex
fn vs_bake(@location(0) position: vec4<i32>) -> @builtin(position) vec4<f32> {
    return globals.view_proj * entity.world * vec4<f32>(position);
}

struct Varyings {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) world: vec4<f32>,
}

@vertex
fn vs_main(@location(0) position: vec4<i32>, @location(1) normal: vec4<i32>) -> Varyings {
    let world = entity.world * vec4<f32>(position);
    let m = entity.world;
    var out: Varyings;
    out.normal = mat3x3<f32>(m[0].xyz, m[1].xyz, m[2].xyz) * vec3<f32>(normal.xyz);
    out.world = world;
    out.clip = globals.view_proj * world;
    return out;
}

fn lit_fraction(layer: u32, light_clip: vec4<f32>) -> f32 {
    if light_clip.w <= 0.0 {
        return 1.0;
    }
    let ndc = light_clip.xyz / light_clip.w;
    // Texture space has y down, clip space y up.
    let uv = ndc.xy * vec2<f32>(0.5, -0.5) + vec2<f32>(0.5, 0.5);
    return textureSampleCompareLevel(shadow_maps, shadow_sampler, uv, i32(layer), ndc.z);
}

@fragment
fn fs_main(in: Varyings) -> @location(0) vec4<f32> {
    let n = normalize(in.normal);
    var color = vec3<f32>(0.05, 0.05, 0.05);
    for (var i = 0u; i < min(globals.light_count.x, 10u); i += 1u) {
        let light = lights[i];
        let to_light = normalize(light.position.xyz - in.world.xyz);
        let diffuse = max(0.0, dot(n, to_light));
        color += lit_fraction(i, light.view_proj * in.world) * diffuse * light.color.xyz;
    }
    return vec4<f32>(color, 1.0) * entity.color;
}
