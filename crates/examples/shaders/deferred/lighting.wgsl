// Deferred lighting: a full-screen triangle shades every pixel from the G-buffer with the lights
// its tile's mask names; pixels the G-buffer did not cover get the sky.

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var albedo_texture: texture_2d<f32>;
@group(0) @binding(2) var normal_texture: texture_2d<f32>;
@group(0) @binding(3) var material_texture: texture_2d<f32>;
// Depth as unfilterable float: GLSL cannot load texels of depth textures.
@group(0) @binding(4) var depth_texture: texture_2d<f32>;
@group(0) @binding(5) var<storage, read> lights: array<Light>;
@group(0) @binding(6) var<storage, read> tiles: array<u32>;

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    return fullscreen_position(index);
}

fn sky(y: f32) -> vec3<f32> {
    let t = clamp(y / camera.frame.y, 0.0, 1.0);
    return mix(vec3<f32>(0.10, 0.14, 0.28), vec3<f32>(0.02, 0.02, 0.05), 1.0 - t);
}

@fragment
fn fs_main(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let pixel = vec2<u32>(position.xy);
    let depth = textureLoad(depth_texture, pixel, 0).r;
    if depth >= 1.0 {
        return vec4<f32>(sky(position.y), 1.0);
    }
    let ndc = vec2<f32>(position.x / camera.frame.x * 2.0 - 1.0, 1.0 - position.y / camera.frame.y * 2.0);
    let world_h = camera.inv_view_proj * vec4<f32>(ndc, depth, 1.0);
    let world = world_h.xyz / world_h.w;
    let albedo = textureLoad(albedo_texture, pixel, 0).rgb;
    let n = normalize(textureLoad(normal_texture, pixel, 0).xyz);
    let material = textureLoad(material_texture, pixel, 0).rg;
    let v = normalize(camera.eye.xyz - world);

    var color = albedo * vec3<f32>(0.030, 0.034, 0.045);
    let tile = (pixel.y / TILE_SIZE) * camera.tiles.x + pixel.x / TILE_SIZE;
    for (var word = 0u; word < MASK_WORDS; word++) {
        var bits = tiles[tile * MASK_WORDS + word];
        while bits != 0u {
            let bit = firstTrailingBit(bits);
            bits &= bits - 1u;
            color += shade_point_light(lights[word * 32u + bit], world, n, v, albedo, material.r, material.g);
        }
    }
    return vec4<f32>(color, 1.0);
}
