//! Forward shading through tilegraph: three shadow cascades rendered into the layers of one depth
//! array (`shadow.layer(i)`) and sampled as one `texture_depth_2d_array`, then 4× MSAA forward
//! shading whose colour and depth stay transient and resolve into the output.
//!
//! ```text
//! cargo run --release --example forward -- [--headless | --window] [--output PATH] [--size WxH]
//!     [--frames N] [--mode planned|naive|poison] [--backend vulkan|gl|auto] [--print-plan]
//!     [--timings] [--no-dont-care] [--resize-at FRAME WxH] [--scene FILE]
//! ```
//!
//! The scene is built in code unless `--scene` names a glTF 2.0 file (`.glb`, or `.gltf` with
//! its buffers beside it): its triangle meshes, in their base colours, fitted onto the ground.
//! A file it cannot read or draw is an error naming the file; nothing is written then.

use std::process::ExitCode;

use tilegraph_examples::app;
use tilegraph_examples::forward::ForwardFrame;

fn main() -> ExitCode {
    app::main::<ForwardFrame>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
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
