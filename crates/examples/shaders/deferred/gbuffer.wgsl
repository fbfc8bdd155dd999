// G-buffer: albedo, world normal, roughness/metalness and depth of the opaque scene (the vertex
// stage is instance.wgsl's).

struct GBuffer {
    @location(0) albedo: vec4<f32>,
    @location(1) normal: vec4<f32>,
    @location(2) material: vec4<f32>,
}

@fragment
fn fs_main(in: VertexOut) -> GBuffer {
    var albedo = in.color.rgb;
    if in.material.z > 0.5 {
        let cell = vec2<i32>(floor(in.world.xz * 0.5));
        if ((cell.x + cell.y) & 1) == 0 {
            albedo = albedo * 0.55;
        }
    }
    var out: GBuffer;
    out.albedo = vec4<f32>(albedo, 1.0);
    out.normal = vec4<f32>(normalize(in.normal), 0.0);
    out.material = vec4<f32>(in.material.x, in.material.y, 0.0, 0.0);
    return out;
}
