//! Realistic deferred frames of any length, for the compile benchmark and the allocation test.
//!
//! A frame is a chain of blocks; each block is a deferred renderer's frame slice: shadow map,
//! G-buffer, decals, lighting (sampling the G-buffer, the shadow map and the previous block's
//! output), transparents merged onto the lighting target, a post chain, a composite into the
//! block's output, and two debug views nobody reads (culled). Ten passes a block.

use tilegraph::wgpu::TextureFormat;
use tilegraph::{Access, ClearValue, Import, RenderGraph, TextureDesc, TextureHandle};

/// Passes per block.
pub const PASSES_PER_BLOCK: usize = 10;

/// A frame of about `passes` passes (rounded up to whole blocks), in a new graph.
pub fn deferred_frame(passes: usize) -> RenderGraph<'static> {
    let mut g = RenderGraph::new();
    declare_deferred_frame(&mut g, passes, &mut String::new());
    g
}

/// Declares the frame of [`deferred_frame`] into `g`, writing each name into `name` (as a
/// renderer declaring every frame does, with no allocation per name).
pub fn declare_deferred_frame(g: &mut RenderGraph<'_>, passes: usize, name: &mut String) {
    let (w, h) = (1920, 1080);
    fn named<'n>(name: &'n mut String, prefix: &str, block: usize) -> &'n str {
        use std::fmt::Write;
        name.clear();
        write!(name, "{prefix}{block}").expect("writing to a String");
        name
    }
    let tex = |g: &mut RenderGraph<'_>, name: &str, format: TextureFormat| {
        g.create_texture(name, TextureDesc::new(format, w, h))
    };
    let output = g.import_texture(
        "backbuffer",
        TextureDesc::new(TextureFormat::Bgra8Unorm, w, h),
        Import::OUTPUT,
    );
    let mut previous: Option<TextureHandle> = None;
    let blocks = passes.div_ceil(PASSES_PER_BLOCK).max(1);
    for b in 0..blocks {
        let shadow = g.create_texture_cleared(
            named(name, "shadow", b),
            TextureDesc::new(TextureFormat::Depth32Float, 2048, 2048),
            ClearValue::Depth(1.0),
        );
        let albedo = tex(g, named(name, "albedo", b), TextureFormat::Rgba8Unorm);
        let normal = tex(g, named(name, "normal", b), TextureFormat::Rgb10a2Unorm);
        let material = tex(g, named(name, "material", b), TextureFormat::Rgba8Unorm);
        let depth = tex(g, named(name, "depth", b), TextureFormat::Depth32Float);
        let hdr = tex(g, named(name, "hdr", b), TextureFormat::Rgba16Float);
        let bloom = tex(g, named(name, "bloom", b), TextureFormat::Rgba16Float);
        let debug = tex(g, named(name, "debug", b), TextureFormat::Rgba8Unorm);
        let last = b + 1 == blocks;
        let ldr = if last {
            output
        } else {
            tex(g, named(name, "ldr", b), TextureFormat::Rgba8Unorm)
        };

        g.add_render_pass(named(name, "shadow", b))
            .depth(shadow, Access::Clear)
            .finish();
        // The G-buffer drawn, then decals drawn over it (depth tested, not written).
        let gbuffer = |g: &mut RenderGraph<'_>, pass: &str, colors: Access, depth_access| {
            g.add_render_pass(pass)
                .color(albedo, colors)
                .color(normal, colors)
                .color(material, colors)
                .depth(depth, depth_access)
                .finish();
        };
        gbuffer(g, named(name, "gbuffer", b), Access::Clear, Access::Clear);
        gbuffer(g, named(name, "decals", b), Access::ReadWrite, Access::Read);
        let mut lighting = g
            .add_render_pass(named(name, "lighting", b))
            .sample(albedo)
            .sample(normal)
            .sample(material)
            .sample(shadow)
            .color(hdr, Access::Write)
            .depth(depth, Access::Read);
        if let Some(prev) = previous {
            lighting = lighting.sample(prev);
        }
        lighting.finish();
        g.add_render_pass(named(name, "transparent", b))
            .color(hdr, Access::ReadWrite)
            .depth(depth, Access::Read)
            .finish();
        // Full-screen passes sampling one texture into another.
        for (pass, source, target, access) in [
            ("debug_gbuffer", normal, debug, Access::Write),
            ("bloom", hdr, bloom, Access::Write),
            ("debug_bloom", bloom, debug, Access::ReadWrite),
        ] {
            g.add_render_pass(named(name, pass, b))
                .sample(source)
                .color(target, access)
                .finish();
        }
        g.add_render_pass(named(name, "composite", b))
            .sample(hdr)
            .sample(bloom)
            .color(ldr, Access::Write)
            .finish();
        g.add_render_pass(named(name, "ui", b))
            .color(ldr, Access::ReadWrite)
            .finish();
        previous = Some(ldr);
    }
}

/// Passes per block of [`subresource_frame_json`].
pub const SUBRESOURCE_PASSES_PER_BLOCK: usize = 13;

/// A frame of about `passes` passes as a JSON description, with mips and layers: per block, three
/// shadow cascades into the layers of one depth array (sampled whole by lighting, one layer by a
/// debug view nobody reads), a G-buffer, tiled light culling in compute, SSAO, lighting, bloom
/// down and up through the mips of one texture, auto-exposure and a composite. About 1.3
/// resources and 3 accesses per pass.
pub fn subresource_frame_json(passes: usize) -> String {
    let blocks = passes.div_ceil(SUBRESOURCE_PASSES_PER_BLOCK).max(1);
    let mut resources = vec![
        r#"{"name": "backbuffer", "texture": {"format": "bgra8unorm", "size": [1920, 1080]}, "import": {"contents": "undefined", "after": "keep"}}"#.to_owned(),
    ];
    let mut pass_list = Vec::new();
    let tex = |name: String, format: &str, extra: &str| {
        format!(
            r#"{{"name": "{name}", "texture": {{"format": "{format}", "size": [1920, 1080]{extra}}}}}"#
        )
    };
    for b in 0..blocks {
        let last = b + 1 == blocks;
        let ldr = if last {
            "backbuffer".to_owned()
        } else {
            format!("ldr{b}")
        };
        resources.push(format!(
            r#"{{"name": "shadow{b}", "texture": {{"format": "depth32float", "size": [1024, 1024, 3]}}, "clear": 1.0}}"#
        ));
        for (name, format) in [
            ("albedo", "rgba8unorm"),
            ("normal", "rgb10a2unorm"),
            ("material", "rgba8unorm"),
            ("velocity", "rg16float"),
            ("depth", "depth32float"),
            ("ssao", "r8unorm"),
            ("hdr", "rgba16float"),
            ("debug", "rgba8unorm"),
        ] {
            resources.push(tex(format!("{name}{b}"), format, ""));
        }
        resources.push(tex(format!("bloom{b}"), "rgba16float", r#", "mips": 4"#));
        if !last {
            resources.push(tex(ldr.clone(), "rgba8unorm", ""));
        }
        resources.push(format!(
            r#"{{"name": "lights{b}", "buffer": {{"size": 65536}}, "import": {{"contents": "preserved", "after": "discard"}}}}"#
        ));
        resources.push(format!(
            r#"{{"name": "tiles{b}", "buffer": {{"size": 1048576}}}}"#
        ));
        resources.push(format!(
            r#"{{"name": "exposure{b}", "buffer": {{"size": 256}}}}"#
        ));
        resources.push(format!(
            r#"{{"name": "exposure_kept{b}", "buffer": {{"size": 256}}, "import": {{"contents": "undefined", "after": "keep"}}}}"#
        ));
        for l in 0..3 {
            pass_list.push(format!(
                r#"{{"name": "cascade{b}_{l}", "type": "render", "depth": {{"resource": "shadow{b}", "layer": {l}, "access": "clear"}}}}"#
            ));
        }
        pass_list.push(format!(
            r#"{{"name": "gbuffer{b}", "type": "render", "color": [{{"resource": "albedo{b}", "access": "clear"}}, {{"resource": "normal{b}", "access": "clear"}}, {{"resource": "material{b}", "access": "clear"}}, {{"resource": "velocity{b}", "access": "clear"}}], "depth": {{"resource": "depth{b}", "access": "clear"}}}}"#
        ));
        pass_list.push(format!(
            r#"{{"name": "cull{b}", "type": "compute", "sample": ["depth{b}"], "storage_read": ["lights{b}"], "storage_write": ["tiles{b}"]}}"#
        ));
        pass_list.push(format!(
            r#"{{"name": "ssao{b}", "type": "render", "sample": ["depth{b}", "normal{b}"], "color": [{{"resource": "ssao{b}", "access": "write"}}]}}"#
        ));
        let previous = if b == 0 {
            String::new()
        } else {
            format!(r#", "ldr{}""#, b - 1)
        };
        pass_list.push(format!(
            r#"{{"name": "lighting{b}", "type": "render", "sample": ["albedo{b}", "normal{b}", "material{b}", "ssao{b}", "shadow{b}"{previous}], "storage_read": ["tiles{b}", "lights{b}"], "color": [{{"resource": "hdr{b}", "access": "write"}}], "depth": {{"resource": "depth{b}", "access": "read"}}}}"#
        ));
        pass_list.push(format!(
            r#"{{"name": "bright{b}", "type": "render", "sample": ["hdr{b}"], "color": [{{"resource": "bloom{b}", "access": "write"}}]}}"#
        ));
        pass_list.push(format!(
            r#"{{"name": "down{b}", "type": "render", "sample": [{{"resource": "bloom{b}", "mip": 0}}], "color": [{{"resource": "bloom{b}", "mip": 1, "access": "write"}}]}}"#
        ));
        pass_list.push(format!(
            r#"{{"name": "up{b}", "type": "render", "sample": [{{"resource": "bloom{b}", "mip": 1}}], "color": [{{"resource": "bloom{b}", "mip": 0, "access": "read_write"}}]}}"#
        ));
        pass_list.push(format!(
            r#"{{"name": "exposure{b}", "type": "compute", "sample": ["hdr{b}"], "storage_write": ["exposure{b}"]}}"#
        ));
        pass_list.push(format!(
            r#"{{"name": "keep_exposure{b}", "type": "copy", "copy_src": ["exposure{b}"], "copy_dst": ["exposure_kept{b}"]}}"#
        ));
        pass_list.push(format!(
            r#"{{"name": "composite{b}", "type": "render", "sample": ["hdr{b}", {{"resource": "bloom{b}", "mip": 0}}, "velocity{b}"], "color": [{{"resource": "{ldr}", "access": "write"}}]}}"#
        ));
        pass_list.push(format!(
            r#"{{"name": "debug_cascade{b}", "type": "render", "sample": [{{"resource": "shadow{b}", "layer": 1}}], "color": [{{"resource": "debug{b}", "access": "write"}}]}}"#
        ));
    }
    format!(
        "{{\"resources\": [\n{}\n], \"passes\": [\n{}\n]}}",
        resources.join(",\n"),
        pass_list.join(",\n")
    )
}

/// Passes per block of [`deferred_views_json`], not counting the debug pass of every fourth block.
pub const VIEW_PASSES_PER_BLOCK: usize = 6;

/// A frame of about `passes` passes (whole blocks of 25 passes over four views; 100, 1 000 and
/// 10 000 exactly) as a JSON description: chained deferred views. Each block renders
/// one view with eight textures of its own (a 1024² shadow map; albedo, normal, material, depth,
/// HDR, post and output at 1920×1080): shadow, a G-buffer with three colour targets and depth,
/// lighting, transparents, post and a composite that also samples the previous block's output.
/// Every fourth block has a debug view of its normals that nothing reads (culled). The last
/// block composites into the imported backbuffer. About 1.3 resources and 1.9 access entries
/// (an attachment list, a depth attachment or a read/write list counts as one) per pass.
pub fn deferred_views_json(passes: usize) -> String {
    let blocks = (passes * 4).div_ceil(4 * VIEW_PASSES_PER_BLOCK + 1).max(1);
    let mut resources = Vec::new();
    let mut pass_list = Vec::new();
    for b in 0..blocks {
        let out = format!("out{b}");
        // The frame's result: the last composite's output, kept after the frame.
        let import = if b + 1 == blocks {
            r#", "import": {"contents": "undefined", "after": "keep"}"#
        } else {
            ""
        };
        for (name, format, size) in [
            ("shadow", "depth32float", "[1024, 1024]"),
            ("albedo", "rgba8unorm", "[1920, 1080]"),
            ("normal", "rgb10a2unorm", "[1920, 1080]"),
            ("material", "rgba8unorm", "[1920, 1080]"),
            ("depth", "depth32float", "[1920, 1080]"),
            ("hdr", "rgba16float", "[1920, 1080]"),
            ("post", "rgba16float", "[1920, 1080]"),
            ("out", "rgba8unorm", "[1920, 1080]"),
        ] {
            let import = if name == "out" { import } else { "" };
            resources.push(format!(
                r#"{{"name": "{name}{b}", "texture": {{"format": "{format}", "size": {size}}}{import}}}"#
            ));
        }
        let previous = if b == 0 {
            String::new()
        } else {
            format!(r#", "out{}""#, b - 1)
        };
        pass_list.extend([
            format!(
                r#"{{"name": "shadow{b}", "type": "render", "depth": {{"resource": "shadow{b}", "access": "clear", "clear": 1.0}}}}"#
            ),
            format!(
                r#"{{"name": "gbuffer{b}", "type": "render", "color": [{{"resource": "albedo{b}", "access": "clear", "clear": [0, 0, 0, 0]}}, {{"resource": "normal{b}", "access": "clear", "clear": [0, 0, 0, 0]}}, {{"resource": "material{b}", "access": "clear", "clear": [0, 0, 0, 0]}}], "depth": {{"resource": "depth{b}", "access": "clear", "clear": 1.0}}}}"#
            ),
            format!(
                r#"{{"name": "lighting{b}", "type": "render", "sample": ["albedo{b}", "normal{b}", "material{b}", "shadow{b}"], "color": [{{"resource": "hdr{b}", "access": "write"}}]}}"#
            ),
            format!(
                r#"{{"name": "transparent{b}", "type": "render", "color": [{{"resource": "hdr{b}", "access": "read_write"}}], "depth": {{"resource": "depth{b}", "access": "read"}}}}"#
            ),
            format!(
                r#"{{"name": "post{b}", "type": "render", "sample": ["hdr{b}"], "color": [{{"resource": "post{b}", "access": "write"}}]}}"#
            ),
            format!(
                r#"{{"name": "composite{b}", "type": "render", "sample": ["post{b}"{previous}], "color": [{{"resource": "{out}", "access": "write"}}]}}"#
            ),
        ]);
        if b % 4 == 3 {
            pass_list.push(format!(
                r#"{{"name": "debug{b}", "type": "render", "sample": ["normal{b}"], "color": [{{"resource": "post{b}", "access": "write"}}]}}"#
            ));
        }
    }
    format!(
        "{{\"resources\": [\n{}\n], \"passes\": [\n{}\n]}}",
        resources.join(",\n"),
        pass_list.join(",\n")
    )
}
