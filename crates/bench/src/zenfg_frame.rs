//! The same declared graph compiled by zenfg 0.2, for the side-by-side rows of the compile bench.
//!
//! A tilegraph graph of render passes (colour and depth attachments, sampled textures) is
//! recorded into a zenfg frame access for access. zenfg takes explicit load and store ops where
//! tilegraph infers them: a `clear` or `write` attachment becomes a clear (zenfg has no
//! don't-care load), a `read_write` one a load, a `read` depth a read-only depth attachment;
//! every attachment stores. Imported textures kept after the frame are the frame's roots.

use std::hint::black_box;
use std::time::{Duration, Instant};

use tilegraph::decl::ResourceKind;
use tilegraph::{Access, ClearValue, ImportAfter, ImportContents, RenderGraph};
use zenfg::{
    ColorAttachmentOps, CompileOptions, DepthAttachmentOps, FrameGraph, ImportTextureOptions,
    InitialContents, RootReason, Texture, TextureDesc,
};

/// Records `graph` into a new zenfg frame and returns the time `Frame::compile` takes (the
/// recording is not timed: it is the frame's declaration, as tilegraph's builder is) and how
/// many passes zenfg kept.
pub fn compile(graph: &RenderGraph<'_>) -> (Duration, usize) {
    let mut zen = FrameGraph::new();
    let mut frame = zen.begin_frame();
    let mut textures: Vec<Texture<'_>> = Vec::with_capacity(graph.resources().len());
    let mut roots = Vec::new();
    for decl in graph.resources() {
        let ResourceKind::Texture(desc) = decl.kind else {
            panic!("the compared frames declare textures only");
        };
        let zen_desc = TextureDesc::new_2d(&*decl.name, desc.width, desc.height, desc.format);
        let texture = match decl.import {
            None => frame.create_texture(zen_desc),
            Some(import) => {
                let contents = match import.contents {
                    ImportContents::Undefined => InitialContents::Undefined,
                    ImportContents::Preserved => InitialContents::Defined,
                };
                let texture = frame.import_texture(zen_desc, ImportTextureOptions::new(contents));
                if import.after == ImportAfter::Keep {
                    roots.push(textures.len());
                }
                texture
            }
        }
        .expect("zenfg takes the frame's textures");
        textures.push(texture);
    }
    for pass in graph.passes() {
        let mut builder = frame.render_pass(pass.name());
        for entry in pass.sample() {
            let _ = builder
                .sampled_texture(textures[entry.resource.index()])
                .expect("zenfg takes the sampled texture");
        }
        for color in pass.color() {
            let clear = match color.clear {
                Some(ClearValue::Color([r, g, b, a])) => tilegraph::wgpu::Color { r, g, b, a },
                _ => tilegraph::wgpu::Color::TRANSPARENT,
            };
            let ops = match color.access {
                Access::ReadWrite => ColorAttachmentOps::load_store(),
                _ => ColorAttachmentOps::clear_store(clear),
            };
            let _ = builder
                .color_attachment(textures[color.resource.index()], ops)
                .expect("zenfg takes the colour attachment");
        }
        if let Some(depth) = pass.depth() {
            let texture = textures[depth.resource.index()];
            let _ = match depth.access {
                Access::Read => builder.depth_attachment_read_only(texture),
                Access::ReadWrite => {
                    builder.depth_attachment(texture, DepthAttachmentOps::load_store())
                }
                _ => builder.depth_attachment(texture, DepthAttachmentOps::clear_store(1.0)),
            }
            .expect("zenfg takes the depth attachment");
        }
        builder.finish().expect("zenfg takes the pass");
    }
    for root in roots {
        frame
            .mark_texture_root(textures[root], RootReason::Output)
            .expect("zenfg takes the root");
    }
    let start = Instant::now();
    let compiled = frame.compile(CompileOptions::default());
    let elapsed = start.elapsed();
    let compiled = black_box(compiled).expect("zenfg compiles the frame");
    (elapsed, compiled.retained_node_count())
}
