// Deferred lighting without storage buffers (adapters whose fragment shaders cannot read them,
// e.g. desktop GL 3.3): the lights in a uniform buffer, every light tested at every pixel (no
// tile culling, which needs compute). shade_gbuffer.wgsl, prepended, reads the G-buffer.

@group(0) @binding(5) var<uniform> lights: array<Light, LIGHT_COUNT>;

fn add_lights(s: Surface, pixel: vec2<u32>, ambient: vec3<f32>) -> vec3<f32> {
    var color = ambient;
    for (var i = 0u; i < LIGHT_COUNT; i++) {
        color += shade_point_light(lights[i], s.world, s.n, s.v, s.albedo, s.material.r, s.material.g);
    }
    return color;
}
