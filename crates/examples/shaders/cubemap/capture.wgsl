// Environment capture: a procedural sky, sun and ring of coloured towers seen from the centre,
// written into one face of the cube.

@group(0) @binding(0) var<uniform> face: Face;

const SUN: vec3<f32> = vec3<f32>(0.4, 0.35, -0.85);

fn environment(dir: vec3<f32>) -> vec3<f32> {
    let up = dir.y;
    var color = mix(vec3(0.32, 0.3, 0.28), vec3(0.5, 0.45, 0.4), clamp(-up * 4.0, 0.0, 1.0));
    if up > 0.0 {
        color = mix(vec3(0.75, 0.78, 0.85), vec3(0.15, 0.3, 0.65), pow(up, 0.6));
    }
    // Towers on the horizon: bands of colour by azimuth, of varying heights.
    let azimuth = atan2(dir.z, dir.x) / 6.2831853 + 0.5;
    let cell = floor(azimuth * 24.0);
    let h = 0.08 + 0.25 * fract(sin(cell * 12.9898) * 43758.5453);
    let edge = abs(fract(azimuth * 24.0) - 0.5);
    if up > -0.02 && up < h && edge < 0.38 {
        let hue = fract(cell * 0.37);
        let tint = clamp(abs(fract(hue + vec3(0.0, 0.33, 0.67)) * 6.0 - 3.0) - 1.0, vec3(0.0), vec3(1.0));
        let windows = step(0.6, fract(up * 24.0)) * step(0.45, fract(edge * 5.0));
        color = tint * 0.5 + vec3(windows * 0.8);
    }
    let sun = pow(max(dot(dir, normalize(SUN)), 0.0), 600.0) * 40.0;
    return color + vec3(1.0, 0.9, 0.7) * sun;
}

@fragment
fn fs_main(in: FullscreenVertex) -> @location(0) vec4<f32> {
    return vec4(environment(face_direction(face.index.x, in.uv)), 1.0);
}
