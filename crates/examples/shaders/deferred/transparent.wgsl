// Transparent glass panes, forward shaded over the lit image with every light and blended;
// depth-tested against the G-buffer's depth without writing it (the vertex stage is
// instance.wgsl's).

@group(0) @binding(1) var<storage, read> lights: array<Light>;

@fragment
fn fs_main(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    let v = normalize(camera.eye.xyz - in.world);
    var n = normalize(in.normal);
    if !front {
        n = -n;
    }
    var color = in.color.rgb * 0.08;
    for (var i = 0u; i < LIGHT_COUNT; i++) {
        color += shade_point_light(lights[i], in.world, n, v, in.color.rgb, in.material.x, 0.0);
    }
    let fresnel = pow(1.0 - max(dot(n, v), 0.0), 5.0);
    let alpha = mix(in.color.a, 1.0, fresnel * 0.6);
    return vec4<f32>(color, alpha);
}
