// Forward shading with three shadow cascades: the cascades' depth (vs_shadow, no fragment stage);
// lit.wgsl draws the lit, fogged, tonemapped colour (vs_main with fs_linear or fs_encode).

struct Cascade {
    index: vec4<u32>,
};

@group(0) @binding(1) var<uniform> cascade: Cascade;

@vertex
fn vs_shadow(v: VertexIn) -> @builtin(position) vec4<f32> {
    return globals.cascades[cascade.index.x] * vec4(v.position, 1.0);
}
