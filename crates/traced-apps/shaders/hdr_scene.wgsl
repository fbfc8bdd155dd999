// A grid of cubes lit by one orbiting light, a light marker and a sky, all in linear HDR.

struct Camera {
    position: vec4<f32>,
    view_proj: mat4x4<f32>,
    inv_proj: mat4x4<f32>,
    inv_view: mat4x4<f32>,
}

struct Light {
    position: vec4<f32>,
    color: vec4<f32>,
}

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<uniform> light: Light;

struct Varyings {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
}

@vertex
fn vs_cube(@location(0) position: vec3<f32>, @location(1) normal: vec3<f32>,
           @location(2) offset: vec3<f32>) -> Varyings {
    let world = position * 0.4 + offset;
    return Varyings(camera.view_proj * vec4<f32>(world, 1.0), world, normal);
}

@fragment
fn fs_cube(in: Varyings) -> @location(0) vec4<f32> {
    let base = vec3<f32>(0.8, 0.6, 0.4);
    let n = normalize(in.normal);
    let to_light = normalize(light.position.xyz - in.world);
    let to_eye = normalize(camera.position.xyz - in.world);
    let half_way = normalize(to_light + to_eye);
    let diffuse = max(dot(n, to_light), 0.0);
    let specular = pow(max(dot(n, half_way), 0.0), 32.0);
    let lit = (0.1 + diffuse + specular) * light.color.rgb * light.color.a;
    return vec4<f32>(base * lit, 1.0);
}

@vertex
fn vs_light(@location(0) position: vec3<f32>) -> @builtin(position) vec4<f32> {
    return camera.view_proj * vec4<f32>(position * 0.25 + light.position.xyz, 1.0);
}

@fragment
fn fs_light() -> @location(0) vec4<f32> {
    return vec4<f32>(light.color.rgb * light.color.a, 1.0);
}

struct SkyVaryings {
    @builtin(position) clip: vec4<f32>,
    @location(0) ndc: vec4<f32>,
}

@vertex
fn vs_sky(@builtin(vertex_index) index: u32) -> SkyVaryings {
    let uv = vec2<f32>(f32(index & 1u), f32((index >> 1u) & 1u));
    let ndc = vec4<f32>(uv * 4.0 - 1.0, 1.0, 1.0);
    return SkyVaryings(ndc, ndc);
}

@fragment
fn fs_sky(in: SkyVaryings) -> @location(0) vec4<f32> {
    let view = camera.inv_proj * in.ndc;
    let ray = normalize((camera.inv_view * vec4<f32>(view.xyz / view.w, 0.0)).xyz);
    let horizon = vec3<f32>(0.9, 0.8, 0.7);
    let zenith = vec3<f32>(0.2, 0.4, 0.9);
    let sky = mix(horizon, zenith, clamp(ray.y, 0.0, 1.0));
    let sun = pow(max(dot(ray, normalize(vec3<f32>(0.3, 0.6, -0.7))), 0.0), 256.0) * 20.0;
    return vec4<f32>(sky * 1.5 + vec3<f32>(sun), 1.0);
}
