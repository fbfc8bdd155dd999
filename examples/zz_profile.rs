use tilegraph::prelude::*;
use tilegraph::wgpu::TextureFormat as F;
fn declare() -> RenderGraph<'static> {
    let (w, h) = (1280, 720);
    let mut g = RenderGraph::new();
    let a = g.create_texture("albedo", TextureDesc::new(F::Rgba8Unorm, w, h));
    let n = g.create_texture("normal", TextureDesc::new(F::Rgba16Float, w, h));
    let m = g.create_texture("material", TextureDesc::new(F::Rgba8Unorm, w, h));
    let d = g.create_texture("depth", TextureDesc::new(F::Depth32Float, w, h));
    let hdr = g.create_texture("hdr", TextureDesc::new(F::Rgba16Float, w, h));
    let l = g.create_buffer("lights", 4096);
    let t = g.create_buffer("tiles", 4096);
    let o = g.import_texture(
        "output",
        TextureDesc::new(F::Rgba8UnormSrgb, w, h),
        Import {
            contents: ImportContents::Undefined,
            after: ImportAfter::Keep,
        },
    );
    g.add_render_pass("gbuffer")
        .color(a, Access::Clear)
        .color(n, Access::Clear)
        .color(m, Access::Clear)
        .depth(d, Access::Clear)
        .execute(|_, _| Ok(()));
    g.add_compute_pass("animate")
        .storage_write_buffer(l)
        .execute(|_, _| Ok(()));
    g.add_compute_pass("cull")
        .sample(d)
        .storage_read_buffer(l)
        .storage_write_buffer(t)
        .execute(|_, _| Ok(()));
    g.add_render_pass("lighting")
        .sample(a)
        .sample(n)
        .sample(m)
        .sample(d)
        .storage_read_buffer(l)
        .storage_read_buffer(t)
        .color(hdr, Access::Write)
        .depth(d, Access::Read)
        .execute(|_, _| Ok(()));
    g.add_render_pass("transparent")
        .storage_read_buffer(l)
        .color(hdr, Access::ReadWrite)
        .depth(d, Access::Read)
        .execute(|_, _| Ok(()));
    g.add_render_pass("tonemap")
        .sample(hdr)
        .color(o, Access::Write)
        .execute(|_, _| Ok(()));
    g
}
fn main() {
    let n = 200_000;
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(declare());
    }
    eprintln!("{:?} per declare+drop", t.elapsed() / n);
}
