// Coloured lines, drawn multisampled.

struct Varyings {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
}

@vertex
fn vs_main(@location(0) position: vec2<f32>, @location(1) color: vec4<f32>) -> Varyings {
    return Varyings(vec4<f32>(position, 0.0, 1.0), color);
}

@fragment
fn fs_main(in: Varyings) -> @location(0) vec4<f32> {
    return in.color;
}
