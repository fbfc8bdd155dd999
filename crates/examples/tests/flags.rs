//! The examples' flags: each example's command line parsed as the example parses it, and bad
//! flags refused.

use tilegraph_examples::app::{self, Example};

/// Each line of `bad` is refused with a message.
fn assert_refused<E: Example>(bad: &[&str]) {
    for bad in bad {
        assert!(
            app::parse::<E>(app::args(bad)).is_err_and(|e| !e.is_empty()),
            "{bad} accepted"
        );
    }
}

mod deferred {
    use std::path::PathBuf;
    use tilegraph::ExecuteMode;
    use tilegraph_examples::app;
    use tilegraph_examples::deferred::DeferredFrame;
    use tilegraph_examples::deferred::LightPath;
    use tilegraph_tool::headless::Backend;

    #[test]
    fn flags_parse_and_bad_ones_are_errors() {
        let o = app::parse::<DeferredFrame>(app::args(
            "--size 257x131 --frames 3 --mode poison --backend gl --output a.png \
             --light-path uniform --no-dont-care --timings --print-plan --plan-html p.html",
        ))
        .unwrap();
        assert_eq!(o.size, (257, 131));
        assert_eq!(o.frames, Some(3));
        assert_eq!(o.mode, ExecuteMode::Poison);
        assert_eq!(o.backend, Backend::Gl);
        assert_eq!(o.output, PathBuf::from("a.png"));
        assert_eq!(o.extra.light_path, Some(LightPath::Uniform));
        assert!(!o.dont_care && o.timings && o.print_plan && !o.window);
        assert_eq!(o.plan_html, Some(PathBuf::from("p.html")));
        let o = app::parse::<DeferredFrame>(app::args("--window --light-path auto")).unwrap();
        assert!(o.window);
        assert_eq!(o.extra.light_path, None);
        assert_eq!(o.output, PathBuf::from("deferred.png"));
        let o = app::parse::<DeferredFrame>(app::args("--trace-dir t")).unwrap();
        assert_eq!(o.trace_dir, Some(PathBuf::from("t")));
        let o = app::parse::<DeferredFrame>(app::args("--light-path storage")).unwrap();
        assert_eq!(o.extra.light_path, Some(LightPath::Storage));
        super::assert_refused::<DeferredFrame>(&[
            "--size 0x10",
            "--size 12",
            "--frames 0",
            "--mode fast",
            "--backend metal",
            "--output",
            "--light-path",
            "--light-path compute",
            "--headless --window",
            "--window --trace-dir t",
            "--trace-dir",
            "--resize-every 5",
            "--bogus",
        ]);
    }
}

mod post {
    use tilegraph_examples::app;
    use tilegraph_examples::post::PostFrame;

    #[test]
    fn flags_parse_and_bad_ones_are_errors() {
        let o = app::parse::<PostFrame>(app::args(
            "--size 257x131 --frames 5 --resize-at 3 64x32 --mode naive --no-dont-care",
        ))
        .unwrap();
        assert_eq!(o.size, (257, 131));
        assert_eq!(o.resize_at, Some((3, (64, 32))));
        assert_eq!(
            (app::size_at(&o, 2), app::size_at(&o, 3)),
            ((257, 131), (64, 32))
        );
        assert!(!o.dont_care);
        assert_eq!(o.output, std::path::PathBuf::from("post.png"));
        let o = app::parse::<PostFrame>(app::args("--window --resize-every 5")).unwrap();
        assert_eq!(o.resize_every, Some(5));
        super::assert_refused::<PostFrame>(&[
            "--resize-every 5",
            "--window --resize-every 0",
            "--size 0x10",
            "--resize-at 3",
            "--resize-at x 10x10",
            "--frames 0",
            "--mode fast",
            "--backend metal",
            "--headless --window",
            "--scene a.glb",
        ]);
    }
}

mod forward {
    use std::path::PathBuf;
    use tilegraph_examples::app;
    use tilegraph_examples::forward::ForwardFrame;
    use tilegraph_examples::forward::load_gltf;

    #[test]
    fn scene_flag_parses() {
        let o = app::parse::<ForwardFrame>(app::args("--scene a.glb --size 64x32")).unwrap();
        assert_eq!(o.extra.scene, Some(PathBuf::from("a.glb")));
        assert!(app::parse::<ForwardFrame>(app::args("--scene")).is_err());
        assert!(app::parse::<ForwardFrame>(app::args("--bogus")).is_err());
    }

    #[test]
    fn bad_scene_files_are_errors_naming_the_file() {
        let dir = std::env::temp_dir().join(format!("forward-scene-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("missing.glb");
        let garbage = dir.join("garbage.glb");
        std::fs::write(&garbage, b"not a gltf file").unwrap();
        // Valid glTF with nothing to draw.
        let empty = dir.join("empty.gltf");
        std::fs::write(
            &empty,
            r#"{"asset": {"version": "2.0"}, "scenes": [{"nodes": []}]}"#,
        )
        .unwrap();
        // A triangle whose buffer file is missing.
        let no_buffer = dir.join("no_buffer.gltf");
        std::fs::write(
            &no_buffer,
            r#"{"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
                "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
                "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                               "min": [0, 0, 0], "max": [1, 1, 0]}],
                "bufferViews": [{"buffer": 0, "byteLength": 36}],
                "buffers": [{"byteLength": 36, "uri": "gone.bin"}]}"#,
        )
        .unwrap();
        for (path, expect) in [
            (&missing, "No such file"),
            (&garbage, "not a glTF 2.0 file"),
            (&empty, "no triangle meshes"),
            (&no_buffer, "gone.bin"),
        ] {
            let error = load_gltf(path).unwrap_err();
            assert!(error.contains(&path.display().to_string()), "{error}");
            assert!(error.contains(expect), "{error}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

mod hud {
    use std::path::PathBuf;
    use tilegraph::ExecuteMode;
    use tilegraph_examples::app;
    use tilegraph_examples::hud::Hud;

    #[test]
    fn flags_are_the_gallery_s_with_trace_and_live_overlay() {
        let o = app::parse::<Hud>(app::args(
            "--frames 5 --size 640x360 --output hud.png --trace trace.json --mode poison --timings",
        ))
        .unwrap();
        assert_eq!(
            (o.frames, o.size, o.mode),
            (Some(5), (640, 360), ExecuteMode::Poison)
        );
        assert_eq!(o.output, PathBuf::from("hud.png"));
        assert_eq!(o.extra.trace, Some(PathBuf::from("trace.json")));
        assert!(o.timings && !o.extra.live_overlay);
        let o = app::parse::<Hud>(app::args("--window --live-overlay")).unwrap();
        assert!(o.window && o.extra.live_overlay && o.extra.trace.is_none());
        assert_eq!(o.output, PathBuf::from("hud.png"));
        for bad in ["--trace", "--live-overlay 3", "--bogus"] {
            assert!(app::parse::<Hud>(app::args(bad)).is_err(), "{bad} accepted");
        }
    }
}
