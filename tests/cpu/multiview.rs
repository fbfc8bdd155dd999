//! Multiview render passes (DESIGN §2.4): a pass of N views attaches layers `layer .. layer + N`
//! of each attachment; the compiler tracks each layer as its own subresource.

use serde_json::Value;
use tilegraph::{Access, CompileOptions, RenderGraph, TextureDesc, wgpu};

use crate::common::{dont_care, error, plan, plan_with, traffic};

/// `(resource, layer, load, store)` of each colour attachment of group `g` and, in a multiview
/// group, of each of its views after it (nested in its `views`).
fn colors(plan: &Value, g: usize) -> Vec<(String, u64, String, String)> {
    plan["groups"][g]["color"]
        .as_array()
        .expect("colour list")
        .iter()
        .flat_map(|c| {
            let views = c["views"].as_array().cloned().unwrap_or_default();
            std::iter::once(c.clone()).chain(views)
        })
        .map(|c| {
            (
                c["resource"].as_str().unwrap().to_owned(),
                c["layer"].as_u64().unwrap(),
                c["load"].as_str().unwrap().to_owned(),
                c["store"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn entry(r: &str, layer: u64, load: &str, store: &str) -> (String, u64, String, String) {
    (r.to_owned(), layer, load.to_owned(), store.to_owned())
}

fn passes_of(plan: &Value, g: usize) -> Vec<&str> {
    plan["groups"][g]["passes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect()
}

const STEREO: &str = include_str!("graphs/stereo.json");

#[test]
fn a_stereo_frame_merges_its_views_and_plans_every_layer() {
    let p = plan_with(STEREO, &dont_care());
    assert_eq!(passes_of(&p, 0), ["opaque", "transparent"]);
    assert_eq!(p["groups"][0]["multiview"], 2);
    assert_eq!(p["groups"][0]["break"], "samples_group_output");
    assert_eq!(
        colors(&p, 0),
        [
            entry("msaa", 0, "clear", "discard"),
            entry("msaa", 1, "clear", "discard")
        ]
    );
    for c in p["groups"][0]["color"].as_array().unwrap() {
        assert_eq!(c["resolve"], "eyes");
    }
    let depth = &p["groups"][0]["depth"];
    assert_eq!(
        (&depth["layer"], &depth["load"], &depth["store"]),
        (
            &Value::from(0),
            &Value::from("clear"),
            &Value::from("discard")
        )
    );
    // One entry per slot, its other views nested: the colour slot and depth alike.
    assert_eq!(p["groups"][0]["color"].as_array().unwrap().len(), 1);
    assert!(p["groups"][0].get("depth_views").is_none());
    let views = depth["views"].as_array().expect("the depth's other view");
    assert_eq!(views.len(), 1);
    assert_eq!(
        (&views[0]["layer"], &views[0]["load"], &views[0]["store"]),
        (
            &Value::from(1),
            &Value::from("clear"),
            &Value::from("discard")
        )
    );
    // A group of one view says nothing about views.
    assert!(p["groups"][1].get("multiview").is_none());
    for c in p["groups"][1]["color"].as_array().unwrap() {
        assert!(c.get("views").is_none(), "{c}");
    }
    // Textures of more than one layer are never transient, multisampled or not.
    for r in p["resources"].as_array().unwrap() {
        assert_eq!(r["transient"], false, "{}", r["name"]);
    }
    // Traffic per layer: each eye resolves once (64x32x4 bytes), is sampled whole, and `out`
    // is stored. The naive plan loads and stores every layer of every pass.
    let layer = 64 * 32 * 4;
    let (planned, naive, sampled) = traffic(&p);
    assert_eq!(planned, 2 * layer + layer);
    assert_eq!(sampled, 2 * layer);
    let msaa_layer = layer * 4;
    let depth_layer = 64 * 32 * 4 * 4;
    // opaque: clears, stores both; transparent: loads and stores both, resolves both (read
    // depth loads and stores too); companion: loads (write) and stores out.
    let naive_want =
        2 * (msaa_layer + depth_layer) + 2 * (2 * msaa_layer + 2 * depth_layer + layer) + 2 * layer;
    assert_eq!(naive, naive_want);
}

#[test]
fn multiview_passes_merge_only_with_the_same_views_of_the_same_layers() {
    let graph = |second: &str| {
        format!(
            r#"{{"resources": [
              {{"name": "eyes", "texture": {{"format": "rgba8unorm", "size": [32, 32, 4]}}}},
              {{"name": "out", "texture": {{"format": "rgba8unorm", "size": [32, 32]}}, "import": {{"contents": "undefined", "after": "keep"}}}}],
             "passes": [
              {{"name": "init", "type": "render", "multiview": 4, "color": [{{"resource": "eyes", "access": "clear"}}]}},
              {{"name": "a", "type": "render", "multiview": 2, "color": [{{"resource": "eyes", "access": "read_write"}}]}},
              {second},
              {{"name": "show", "type": "render", "sample": ["eyes"], "color": [{{"resource": "out", "access": "write"}}]}}]}}"#
        )
    };
    let same = graph(
        r#"{"name": "b", "type": "render", "multiview": 2, "color": [{"resource": "eyes", "access": "read_write"}]}"#,
    );
    let p = plan(&same);
    assert_eq!(passes_of(&p, 0), ["init"]);
    assert_eq!(p["groups"][0]["break"], "attachments_differ");
    assert_eq!(passes_of(&p, 1), ["a", "b"]);
    // One view of the first layer: not the same framebuffer.
    let single = graph(
        r#"{"name": "b", "type": "render", "color": [{"resource": "eyes", "access": "read_write"}]}"#,
    );
    let p = plan(&single);
    assert_eq!(passes_of(&p, 1), ["a"]);
    assert_eq!(p["groups"][1]["break"], "attachments_differ");
    // The same views of other layers.
    let shifted = graph(
        r#"{"name": "b", "type": "render", "multiview": 2, "color": [{"resource": "eyes", "layer": 2, "access": "clear"}]}"#,
    );
    assert_eq!(plan(&shifted)["groups"][1]["break"], "attachments_differ");
    // Three views over the first two layers and one more.
    let wider = graph(
        r#"{"name": "b", "type": "render", "multiview": 3, "color": [{"resource": "eyes", "access": "read_write"}]}"#,
    );
    assert_eq!(plan(&wider)["groups"][1]["break"], "attachments_differ");
}

const LAYERED: &str = r#"{"name": "eyes", "texture": {"format": "rgba8unorm", "size": [32, 32, 2]}},
    {"name": "out", "texture": {"format": "rgba8unorm", "size": [32, 32]}, "import": {"contents": "undefined", "after": "keep"}}"#;

fn frame(resources: &str, passes: &str) -> String {
    format!(
        r#"{{"resources": [{resources}], "passes": [{passes},
      {{"name": "show", "type": "render", "sample": ["eyes"], "color": [{{"resource": "out", "access": "write"}}]}}]}}"#
    )
}

#[test]
fn each_layer_has_its_own_contents_and_ops() {
    // Layer 0 is drawn before; layer 1 has no contents but a clear value.
    let resources = LAYERED.replace(
        r#""size": [32, 32, 2]}}"#,
        r#""size": [32, 32, 2]}, "clear": [0, 0, 0, 1]}"#,
    );
    let json = frame(
        &resources,
        r#"{"name": "left", "type": "render", "color": [{"resource": "eyes", "layer": 0, "access": "clear"}]},
           {"name": "both", "type": "render", "multiview": 2, "color": [{"resource": "eyes", "access": "read_write"}]}"#,
    );
    let p = plan(&json);
    assert_eq!(
        colors(&p, 1),
        [
            entry("eyes", 0, "load", "store"),
            entry("eyes", 1, "clear", "store")
        ]
    );
    // Without the clear value, layer 1 is read before anything wrote it.
    let json = frame(
        LAYERED,
        r#"{"name": "left", "type": "render", "color": [{"resource": "eyes", "layer": 0, "access": "clear"}]},
           {"name": "both", "type": "render", "multiview": 2, "color": [{"resource": "eyes", "access": "read_write"}]}"#,
    );
    let e = error(&json);
    assert_eq!(
        (e.kind().as_str(), e.pass(), e.resource()),
        ("read_before_write", Some("both"), Some("eyes"))
    );
    assert!(e.to_string().contains("layer 1"), "{e}");
}

#[test]
fn liveness_is_per_layer() {
    // `right` draws layer 1, which `both` clears again: only `right` is culled.
    let json = frame(
        LAYERED,
        r#"{"name": "left", "type": "render", "color": [{"resource": "eyes", "layer": 0, "access": "clear"}]},
           {"name": "right", "type": "render", "color": [{"resource": "eyes", "layer": 1, "access": "clear"}]},
           {"name": "both", "type": "render", "multiview": 2, "color": [{"resource": "eyes", "access": "read_write"}]}"#,
    );
    let p = plan(&json);
    let culled: Vec<&str> = p["passes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["culled"] == true)
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    assert!(culled.is_empty(), "both layers are read: {culled:?}");
    let json = frame(
        LAYERED,
        r#"{"name": "right", "type": "render", "color": [{"resource": "eyes", "layer": 1, "access": "clear"}]},
           {"name": "both", "type": "render", "multiview": 2, "color": [{"resource": "eyes", "access": "clear"}]}"#,
    );
    let p = plan(&json);
    assert_eq!(p["passes"][0]["name"], "right");
    assert_eq!(p["passes"][0]["culled"], true);
    assert_eq!(p["passes"][1]["culled"], false);
}

#[test]
fn bad_multiview_declarations_are_typed_errors_naming_the_pass() {
    let one = frame(
        LAYERED,
        r#"{"name": "p", "type": "render", "multiview": 1, "color": [{"resource": "eyes", "access": "clear"}]}"#,
    );
    let e = error(&one);
    assert_eq!((e.kind().as_str(), e.pass()), ("invalid_access", Some("p")));
    assert!(e.to_string().contains("at least 2 views"), "{e}");

    let compute = r#"{"resources": [{"name": "b", "buffer": {"size": 64}}],
      "passes": [{"name": "c", "type": "compute", "multiview": 2, "storage_write": ["b"], "side_effects": true}]}"#;
    let e = error(compute);
    assert_eq!((e.kind().as_str(), e.pass()), ("invalid_access", Some("c")));
    assert!(e.to_string().contains("only render passes"), "{e}");

    // Views past the texture's layers.
    let past = frame(
        LAYERED,
        r#"{"name": "p", "type": "render", "multiview": 2, "color": [{"resource": "eyes", "layer": 1, "access": "clear"}]}"#,
    );
    let e = error(&past);
    assert_eq!(
        (e.kind().as_str(), e.pass(), e.resource()),
        ("invalid_subresource", Some("p"), Some("eyes"))
    );
    assert!(
        e.to_string().contains("multiview(2) needs layers 1..3"),
        "{e}"
    );

    // A resolve target needs a layer per view.
    let resolve = r#"{"resources": [
        {"name": "msaa", "texture": {"format": "rgba8unorm", "size": [32, 32, 2], "samples": 4}},
        {"name": "flat", "texture": {"format": "rgba8unorm", "size": [32, 32]}, "import": {"contents": "undefined", "after": "keep"}}],
      "passes": [{"name": "p", "type": "render", "multiview": 2,
        "color": [{"resource": "msaa", "access": "clear", "resolve": "flat"}]}]}"#;
    let e = error(resolve);
    assert_eq!(
        (e.kind().as_str(), e.pass(), e.resource()),
        ("invalid_subresource", Some("p"), Some("flat"))
    );
    // A multisampled texture still has one mip.
    let mips = r#"{"resources": [{"name": "m", "texture": {"format": "rgba8unorm", "size": [32, 32, 2], "samples": 4, "mips": 2}}],
      "passes": [{"name": "p", "type": "render", "side_effects": true, "color": [{"resource": "m", "access": "clear"}]}]}"#;
    assert_eq!(error(mips).kind().as_str(), "invalid_description");
}

#[test]
fn the_builder_and_the_description_agree() {
    let mut graph = RenderGraph::new();
    let eyes = graph.create_texture(
        "eyes",
        TextureDesc::new(wgpu::TextureFormat::Rgba8Unorm, 32, 32).layers(2),
    );
    let out = graph.import_texture(
        "out",
        TextureDesc::new(wgpu::TextureFormat::Rgba8Unorm, 32, 32),
        tilegraph::Import::OUTPUT,
    );
    let _ = graph
        .add_render_pass("both")
        .multiview(2)
        .color(eyes, Access::Clear)
        .finish();
    let _ = graph
        .add_render_pass("show")
        .sample(eyes)
        .color(out, Access::Write)
        .finish();
    let json = graph.to_json();
    assert!(json.contains(r#""multiview": 2"#), "{json}");
    let loaded = RenderGraph::from_json(&json).expect("loads");
    assert_eq!(loaded.fingerprint(), graph.fingerprint());
    assert_eq!(loaded.passes().at(0).multiview(), Some(2));
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    assert_eq!(plan.groups()[0].multiview, Some(2));
    assert_eq!(plan.groups()[0].views(), 2);
    assert_eq!(plan.groups()[0].color.len(), 2);
}

#[test]
fn restructuring_reads_the_views_as_layers() {
    // `right_hud` draws into layer 1, which `post` reads: it keeps its place before `post`,
    // which therefore cannot join `scene`.
    let json = frame(
        LAYERED,
        r#"{"name": "scene", "type": "render", "multiview": 2, "color": [{"resource": "eyes", "access": "clear"}]},
           {"name": "right_hud", "type": "render", "color": [{"resource": "eyes", "layer": 1, "access": "read_write"}]},
           {"name": "post", "type": "render", "multiview": 2, "color": [{"resource": "eyes", "access": "read_write"}]}"#,
    );
    let p = plan(&json);
    let order: Vec<&str> = p["order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert_eq!(order, ["scene", "right_hud", "post", "show"]);
    // A pass on another texture between them moves out of the way.
    let resources = format!(
        r#"{LAYERED}, {{"name": "hud", "texture": {{"format": "rgba8unorm", "size": [32, 32]}}, "import": {{"contents": "undefined", "after": "keep"}}}}"#
    );
    let json = frame(
        &resources,
        r#"{"name": "scene", "type": "render", "multiview": 2, "color": [{"resource": "eyes", "access": "clear"}]},
           {"name": "hud", "type": "render", "color": [{"resource": "hud", "access": "clear"}]},
           {"name": "post", "type": "render", "multiview": 2, "color": [{"resource": "eyes", "access": "read_write"}]}"#,
    );
    let p = plan(&json);
    assert_eq!(passes_of(&p, 0), ["scene", "post"]);
    assert_eq!(p["groups"][0]["multiview"], 2);
}

/// A headset frame whose opaque and glass passes both resolve (as Bevy's frame does), declared
/// as multiview passes over two-layer arrays, or per eye over textures of their own.
fn headset(multiview: bool) -> String {
    let size = "[1832, 1920";
    let mut resources = vec![
        r#"{"name": "shadow", "texture": {"format": "depth32float", "size": [1024, 1024]}}"#
            .to_owned(),
    ];
    let mut passes = vec![
        r#"{"name": "shadows", "type": "render", "depth": {"resource": "shadow", "access": "clear"}}"#
            .to_owned(),
    ];
    let eyes: Vec<(String, String)> = if multiview {
        vec![(String::new(), ", 2]".to_owned())]
    } else {
        vec![("_0".into(), "]".into()), ("_1".into(), "]".into())]
    };
    let mv = if multiview { r#""multiview": 2, "# } else { "" };
    for (eye, layers) in &eyes {
        resources.push(format!(
            r#"{{"name": "msaa{eye}", "texture": {{"format": "rgba16float", "size": {size}{layers}, "samples": 4}}}},
               {{"name": "depth{eye}", "texture": {{"format": "depth32float", "size": {size}{layers}, "samples": 4}}}},
               {{"name": "hdr{eye}", "texture": {{"format": "rgba16float", "size": {size}{layers}}}}},
               {{"name": "out{eye}", "texture": {{"format": "rgba8unorm", "size": {size}{layers}}},
                "import": {{"contents": "undefined", "after": "keep"}}}}"#
        ));
        passes.push(format!(
            r#"{{"name": "opaque{eye}", "type": "render", {mv}"sample": ["shadow"],
                "color": [{{"resource": "msaa{eye}", "access": "clear", "resolve": "hdr{eye}"}}],
                "depth": {{"resource": "depth{eye}", "access": "clear"}}}},
               {{"name": "glass{eye}", "type": "render", {mv}"sample": ["shadow"],
                "color": [{{"resource": "msaa{eye}", "access": "read_write", "resolve": "hdr{eye}"}}],
                "depth": {{"resource": "depth{eye}", "access": "read"}}}},
               {{"name": "post{eye}", "type": "render", {mv}"sample": ["hdr{eye}"],
                "color": [{{"resource": "out{eye}", "access": "write"}}]}}"#
        ));
    }
    format!(
        r#"{{"resources": [{}], "passes": [{}]}}"#,
        resources.join(", "),
        passes.join(", ")
    )
}

#[test]
fn a_dead_resolve_of_a_multiview_pass_is_dropped() {
    let stereo = plan(&headset(true));
    let per_eye = plan(&headset(false));
    // The opaque pass's resolve is overwritten by the glass pass's before anything reads it.
    let dropped = crate::common::restructured(&stereo, "resolve_dropped");
    assert_eq!(dropped.len(), 1, "{:#}", stereo["restructure"]);
    assert_eq!(dropped[0]["pass"], "opaque");
    assert_eq!(dropped[0]["resource"], "hdr");
    // With the resolve gone, opaque and glass share one render pass and the 4× colour and
    // depth stay on tile.
    let g = (0..stereo["groups"].as_array().unwrap().len())
        .find(|&g| passes_of(&stereo, g).contains(&"opaque"))
        .expect("a group with opaque");
    assert_eq!(passes_of(&stereo, g), ["opaque", "glass"]);
    assert_eq!(stereo["groups"][g]["multiview"], 2);
    for c in stereo["groups"][g]["color"].as_array().unwrap() {
        assert_eq!(
            (c["load"].as_str(), c["store"].as_str()),
            (Some("clear"), Some("discard"))
        );
        assert_eq!(c["resolve"], "hdr");
    }
    // A stereo frame costs what the same frame declared per eye costs (attachment bytes,
    // planned and naive; a multiview pass samples the shadow map once, not once per eye).
    let (planned, naive, _) = traffic(&stereo);
    assert_eq!((planned, naive), (traffic(&per_eye).0, traffic(&per_eye).1));
    // Declared order keeps both resolves, and moves more.
    let declared = plan_with(
        &headset(true),
        &CompileOptions::default().with_restructure(false),
    );
    assert!(traffic(&declared).0 > traffic(&stereo).0);
}

#[test]
fn a_multiview_resolve_that_a_later_pass_reads_is_kept() {
    // `peek` samples layer 1 of what `opaque` resolved: the resolve is live for that view, so
    // the pass keeps resolving every view.
    let json = headset(true).replace(
        r#"{"name": "glass""#,
        r#"{"name": "peek", "type": "render", "sample": [{"resource": "hdr", "layer": 1}],
            "color": [{"resource": "out", "layer": 1, "access": "clear"}], "side_effects": true},
           {"name": "glass""#,
    );
    let p = plan(&json);
    let dropped = p["restructure"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["kind"] == "resolve_dropped");
    assert!(!dropped, "{:#}", p["restructure"]);
}

/// A multiview pass reading `src` (two layers) through `entry`, into a two-layer target.
fn views_read(entry: &str) -> String {
    format!(
        r#"{{"resources": [
        {{"name": "src", "texture": {{"format": "rgba8unorm", "size": [32, 32, 2]}}}},
        {{"name": "dst", "texture": {{"format": "rgba8unorm", "size": [32, 32, 2]}}, "import": {{"contents": "undefined", "after": "keep"}}}}],
      "passes": [
        {{"name": "fill", "type": "render", "multiview": 2, "color": [{{"resource": "src", "access": "clear"}}]}},
        {{"name": "blur", "type": "render", "multiview": 2, "sample": [{entry}],
         "color": [{{"resource": "dst", "access": "write"}}]}}]}}"#
    )
}

#[test]
fn a_multiview_read_of_one_subresource_without_a_layer_asks_for_the_layers() {
    // `mip` alone would read layer 0 in both views: the right eye's source lost, silently.
    let e = error(&views_read(r#"{"resource": "src", "mip": 0}"#));
    assert_eq!(
        (e.kind().as_str(), e.pass(), e.resource()),
        ("invalid_subresource", Some("blur"), Some("src"))
    );
    crate::common::assert_says(
        &e.to_string(),
        &[r#""layers": [0, 2], "mips": [0, 1]"#, "2 views", "`sample`"],
    );
    // The same as an `input`, and with neither `mip` nor `layer`.
    let input = views_read(r#"{"resource": "src"}"#).replace(r#""sample""#, r#""input""#);
    assert_eq!(error(&input).kind().as_str(), "invalid_subresource");
    // Saying which layers is accepted: the views' range, the whole texture, or layer 0 alone.
    for entry in [
        r#"{"resource": "src", "layers": [0, 2], "mips": [0, 1]}"#,
        r#""src""#,
        r#"{"resource": "src", "mip": 0, "layer": 0}"#,
    ] {
        let p = plan(&views_read(entry));
        // Both of `src`'s layers are stored for the read unless layer 0 alone is read.
        let stores: Vec<String> = colors(&p, 0).into_iter().map(|c| c.3).collect();
        let expected = if entry.contains(r#""layer": 0"#) {
            ["store", "discard"]
        } else {
            ["store", "store"]
        };
        assert_eq!(stores, expected, "{entry}");
    }
    // A texture of one layer has no layer to choose: `mip` alone reads it in every view.
    let flat = include_str!(
        "graphs/a_multiview_read_of_one_subresource_without_a_layer_asks_for_the_layers.json"
    );
    assert_eq!(colors(&plan(flat), 0), [entry("src", 0, "clear", "store")]);
}

#[test]
fn a_depth_resolve_is_a_typed_error_saying_wgpu_has_none() {
    let json = r#"{"resources": [
        {"name": "depth_msaa", "texture": {"format": "depth24plus-stencil8", "size": [32, 32, 2], "samples": 4}, "clear": 1.0},
        {"name": "depth", "texture": {"format": "depth24plus-stencil8", "size": [32, 32, 2]}, "import": {"contents": "undefined", "after": "keep"}}],
      "passes": [{"name": "opaque", "type": "render", "multiview": 2,
        "depth": {"resource": "depth_msaa", "access": "clear", "resolve": "depth"}}]}"#;
    let e = error(json);
    assert_eq!(
        (e.kind().as_str(), e.pass(), e.resource()),
        ("resolve_mismatch", Some("opaque"), Some("depth_msaa"))
    );
    crate::common::assert_says(
        &e.to_string(),
        &[
            "wgpu has no depth or stencil resolve",
            "samples the multisampled depth",
        ],
    );
}

#[test]
fn a_multiview_target_kept_on_tile_says_what_per_view_would_make_memoryless() {
    let stereo = plan(&headset(true));
    let per_eye = plan(&headset(false));
    // wgpu refuses TRANSIENT_ATTACHMENT on a texture of two layers: nothing is memoryless...
    assert_eq!(stereo["memory"]["transient_bytes"], 0);
    // ...though the 4× colour and depth live on tile only, each 1832 × 1920 × 2 layers × 4
    // samples × 8 and 4 bytes.
    let blocked: Vec<(&str, u64)> = stereo["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["transient_blocked"] == "layers")
        .map(|r| {
            let bytes = r["transient_blocked_bytes"].as_u64().unwrap();
            (r["name"].as_str().unwrap(), bytes)
        })
        .collect();
    let (msaa, depth) = (1832 * 1920 * 2 * 4 * 8, 1832 * 1920 * 2 * 4 * 4);
    assert_eq!(blocked, [("msaa", msaa), ("depth", depth)]);
    assert_eq!(stereo["memory"]["transient_blocked_bytes"], msaa + depth);
    // Declared per eye, the same textures are memoryless: the figure the report gives (each
    // eye's own; pooled, the two eyes' passes share one of each).
    let unpooled = plan_with(
        &headset(false),
        &CompileOptions::default().with_alias(false),
    );
    assert_eq!(unpooled["memory"]["transient_bytes"], msaa + depth);
    assert_eq!(per_eye["memory"]["transient_bytes"], (msaa + depth) / 2);
    assert!(per_eye["memory"].get("transient_blocked_bytes").is_none());
    assert!(
        per_eye["resources"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r.get("transient_blocked").is_none())
    );
    // A texture that opts out of memoryless is not blocked: it asked to be allocated.
    let msaa_decl = r#""size": [1832, 1920, 2], "samples": 4}}"#;
    let json = headset(true).replacen(
        msaa_decl,
        r#""size": [1832, 1920, 2], "samples": 4}, "keep_memory": true}"#,
        1,
    );
    assert_ne!(json, headset(true));
    let kept = plan(&json);
    assert_eq!(kept["memory"]["transient_blocked_bytes"], depth);
    // Without transient textures there is nothing to block.
    let off = plan_with(
        &headset(true),
        &CompileOptions::default().with_transient(false),
    );
    assert!(off["memory"].get("transient_blocked_bytes").is_none());
}

#[test]
fn tile_entries_of_a_multiview_group_give_bytes_per_view_and_for_all_views() {
    use tilegraph::plan::TileProfile::{Adreno630, MaliG52};
    let options = CompileOptions::default().with_tile_profiles(&[MaliG52, Adreno630]);
    let p = plan_with(&headset(true), &options);
    let g = (0..p["groups"].as_array().unwrap().len())
        .find(|&g| passes_of(&p, g).contains(&"opaque"))
        .expect("a group with opaque");
    let tile = p["groups"][g]["tile"].as_array().unwrap();
    let figures = |t: &Value| {
        [
            &t["views"],
            &t["bytes_per_pixel"],
            &t["bytes_per_view"],
            &t["bytes_all_views"],
        ]
        .map(|v| v.as_u64().unwrap())
    };
    // Mali counts one view's colour (rgba16float × 4 samples); Adreno colour and depth
    // (depth32float × 4) of both views.
    assert_eq!(tile[0]["profile"], "mali-g52");
    assert_eq!(figures(&tile[0]), [2, 32, 32, 64]);
    assert_eq!(tile[1]["profile"], "adreno-630");
    assert_eq!(figures(&tile[1]), [2, 96, 48, 96]);
    // The shadow pass has one view: no per-view figures.
    let shadows = (0..p["groups"].as_array().unwrap().len())
        .find(|&g| passes_of(&p, g).contains(&"shadows"))
        .unwrap();
    assert!(p["groups"][shadows]["tile"][0].get("views").is_none());
}
