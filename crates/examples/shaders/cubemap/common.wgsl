// Cube face directions in wgpu's face order (+X, -X, +Y, -Y, +Z, -Z), uv (0, 0) at the top-left.
fn face_direction(face: u32, uv: vec2<f32>) -> vec3<f32> {
    let s = uv.x * 2.0 - 1.0;
    let t = uv.y * 2.0 - 1.0;
    switch face {
        case 0u: { return normalize(vec3(1.0, -t, -s)); }
        case 1u: { return normalize(vec3(-1.0, -t, s)); }
        case 2u: { return normalize(vec3(s, 1.0, t)); }
        case 3u: { return normalize(vec3(s, -1.0, -t)); }
        case 4u: { return normalize(vec3(s, -t, 1.0)); }
        default: { return normalize(vec3(-s, -t, -1.0)); }
    }
}

struct Face {
    // x: the face; y: the mip being written.
    index: vec4<u32>,
};
