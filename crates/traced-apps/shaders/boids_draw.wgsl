// Each boid a small white triangle pointing along its velocity.

@vertex
fn vs_main(@location(0) boid_position: vec2<f32>, @location(1) boid_velocity: vec2<f32>,
           @location(2) corner: vec2<f32>) -> @builtin(position) vec4<f32> {
    let angle = -atan2(boid_velocity.x, boid_velocity.y);
    let c = cos(angle);
    let s = sin(angle);
    let turned = vec2<f32>(corner.x * c - corner.y * s, corner.x * s + corner.y * c);
    return vec4<f32>(turned + boid_position, 0.0, 1.0);
}

@fragment
fn fs_main() -> @location(0) vec4<f32> {
    return vec4<f32>(1.0);
}
