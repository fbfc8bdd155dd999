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
    return vec4<f32>(encode_srgb(tonemapped(position)), 1.0);
}
