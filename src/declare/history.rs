//! History textures and buffers: two resources per history, `NAME.previous` and `NAME.current`,
//! swapped by the executor every frame.

use super::RenderGraph;
use crate::decl::resource::{
    HISTORY_CURRENT, HISTORY_PREVIOUS, HistoryHalf, ResourceDecl, ResourceKind,
};
use crate::ids::ResourceId;
use crate::resource::{BufferDesc, BufferHandle, Import, TextureDesc, TextureHandle};

impl RenderGraph<'_> {
    /// Declares a history texture: graph-owned contents that live from one frame to the next
    /// (TAA, reprojection). Returns two handles: [`History::previous`], last frame's contents
    /// (read it, e.g. `sample`; never write it), and [`History::current`], this frame's (write it;
    /// it is kept after the frame and becomes next frame's `previous`).
    ///
    /// The executor owns both textures and swaps them every frame; when the descriptor changes
    /// (a resize) it reallocates them.
    /// [`PassContext::history_valid`](crate::PassContext::history_valid) tells a pass whether
    /// `previous` holds real contents (not on the first frame, nor after a reallocation, when it
    /// holds zeros). In the graph the pair is two imports, `NAME.previous` (preserved, discarded
    /// after the frame) and `NAME.current` (undefined, kept), and that is how JSON describes it.
    pub fn history_texture(&mut self, name: &str, desc: TextureDesc) -> History {
        let [previous, current] = self.history_pair(name, ResourceKind::Texture(desc));
        let graph = self.id;
        History {
            previous: TextureHandle {
                graph,
                index: previous,
            },
            current: TextureHandle {
                graph,
                index: current,
            },
        }
    }

    /// Declares a history buffer: graph-owned bytes that live from one frame to the next (the
    /// particles of a GPU simulation that reads last frame's state and writes this frame's).
    /// Returns two handles, as [`history_texture`](Self::history_texture) does:
    /// [`HistoryBuffer::previous`], last frame's contents (read them, e.g.
    /// `storage_read_buffer`; never write them), and [`HistoryBuffer::current`], this frame's
    /// (write them; they become next frame's `previous`).
    ///
    /// The executor owns both buffers and swaps them every frame; a new size reallocates them,
    /// zeroed. [`PassContext::history_buffer_valid`](crate::PassContext::history_buffer_valid)
    /// tells a pass whether `previous` holds a frame's contents. In the graph the pair is two
    /// imports, `NAME.previous` (preserved, discarded after the frame) and `NAME.current`
    /// (undefined, kept), and that is how JSON describes it.
    pub fn history_buffer(&mut self, name: &str, size: u64) -> HistoryBuffer {
        let kind = ResourceKind::Buffer(BufferDesc { size });
        let [previous, current] = self.history_pair(name, kind);
        let graph = self.id;
        HistoryBuffer {
            previous: BufferHandle {
                graph,
                index: previous,
            },
            current: BufferHandle {
                graph,
                index: current,
            },
        }
    }

    /// Declares the two halves of a history, `NAME.previous` and `NAME.current`.
    fn history_pair(&mut self, name: &str, kind: ResourceKind) -> [ResourceId; 2] {
        let mut half = |suffix: &str, import: Import, half: HistoryHalf| {
            let name = self.spare.resource_name(name, Some(suffix));
            self.push_resource(ResourceDecl {
                name,
                kind,
                clear: None,
                import: Some(import),
                keep_memory: false,
                history: Some(half),
            })
        };
        let previous = half("previous", HISTORY_PREVIOUS, HistoryHalf::Previous);
        let current = half("current", HISTORY_CURRENT, HistoryHalf::Current);
        self.histories.push((previous, current));
        [previous, current]
    }

    /// History pairs declared with [`history_texture`](Self::history_texture) and
    /// [`history_buffer`](Self::history_buffer): `(previous, current)`.
    pub fn histories(&self) -> &[(ResourceId, ResourceId)] {
        &self.histories
    }
}

/// The two handles of a history texture ([`RenderGraph::history_texture`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct History {
    /// Last frame's contents: read them this frame, never write them.
    pub previous: TextureHandle,
    /// This frame's contents: write them; they are kept for the next frame.
    pub current: TextureHandle,
}

/// The two handles of a history buffer ([`RenderGraph::history_buffer`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HistoryBuffer {
    /// Last frame's contents: read them this frame, never write them.
    pub previous: BufferHandle,
    /// This frame's contents: write them; they are kept for the next frame.
    pub current: BufferHandle,
}

#[cfg(test)]
mod tests {
    use crate::declare::RenderGraph;

    /// A reset graph reuses the last frame's history names only where they are the same: a
    /// shorter name, a longer one, one with a dot of its own.
    #[test]
    fn history_names_follow_what_is_declared_after_a_reset() {
        let mut graph = RenderGraph::new();
        for name in ["taa", "ta", "taa", "taa.x", "taa", "t"] {
            graph = graph.reset();
            let history = graph.history_buffer(name, 256);
            for (half, handle) in [("previous", history.previous), ("current", history.current)] {
                let full = format!("{name}.{half}");
                assert_eq!(graph.buffer_handle(&full), Some(handle), "{full}");
            }
            let names: Vec<&str> = graph.resources().iter().map(|r| &*r.name).collect();
            assert_eq!(
                names,
                [format!("{name}.previous"), format!("{name}.current")],
                "after declaring {name}"
            );
        }
    }
}
