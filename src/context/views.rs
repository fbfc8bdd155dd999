//! The kinds of view a shader reads through, and which of them an adapter reads wrongly: what
//! [`PassContext::view`](crate::PassContext::view) and the executor check before a shader
//! binds a view (the GL probe that finds them is the executor's).

use crate::resource::{SubresourceRange, TextureDesc};

/// A kind of view a shader reads through, as the executor's views and the bind-group cache
/// make them. wgpu's GL backend binds the whole texture for a shader read (GL has no views
/// before 4.3 and ES has none), so some of these read another subresource there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ViewKind {
    /// A view whose first mip is past mip 0 (`bloom.mip(1)`).
    MipPast0,
    /// A 2D view of layer 0 of a texture with several layers.
    Layer0,
    /// A 2D view of a layer past layer 0 of a texture with several layers.
    LayerPast0,
    /// A 2D-array view of some of a texture's layers, from layer 0.
    RangeFrom0,
    /// A 2D-array view of some of a texture's layers, from a layer past 0.
    RangePast0,
    /// A 2D-array view of all of a texture of six square layers (wgpu's GL backend makes such
    /// a texture a cube map, whatever its views).
    SixLayersAsArray,
    /// A cube view of a texture of six square layers.
    Cube,
}

impl ViewKind {
    pub(crate) const ALL: [ViewKind; 7] = [
        ViewKind::MipPast0,
        ViewKind::Layer0,
        ViewKind::LayerPast0,
        ViewKind::RangeFrom0,
        ViewKind::RangePast0,
        ViewKind::SixLayersAsArray,
        ViewKind::Cube,
    ];

    /// What the view is, for messages: "a view of mip 1 alone".
    pub(crate) fn describe(self) -> &'static str {
        match self {
            ViewKind::MipPast0 => "a view whose first mip is past mip 0",
            ViewKind::Layer0 => "a 2D view of layer 0 of a texture with several layers",
            ViewKind::LayerPast0 => "a 2D view of one layer past layer 0",
            ViewKind::RangeFrom0 => "an array view of some of the layers, from layer 0",
            ViewKind::RangePast0 => "an array view of layers that start past layer 0",
            ViewKind::SixLayersAsArray => "an array view of a texture of six square layers",
            ViewKind::Cube => "a cube view",
        }
    }

    /// The kind of a shader read of `range` of a single-sampled texture `t`, seen through
    /// `dimension` (`None`: the dimension the executor's views have, an array for several
    /// layers); `None` for a view every backend reads (the whole texture, one mip and layer of
    /// a texture with one of each).
    pub(crate) fn of(
        t: TextureDesc,
        range: SubresourceRange,
        dimension: Option<wgpu::TextureViewDimension>,
    ) -> Option<ViewKind> {
        if t.samples > 1 {
            return None;
        }
        let (mip, _, layer, layers) = range.resolve(t.mips, t.layers);
        if matches!(
            dimension,
            Some(wgpu::TextureViewDimension::Cube | wgpu::TextureViewDimension::CubeArray)
        ) {
            return Some(if mip > 0 {
                ViewKind::MipPast0
            } else {
                ViewKind::Cube
            });
        }
        if mip > 0 {
            return Some(ViewKind::MipPast0);
        }
        if t.layers == 1 {
            return None;
        }
        let six_square = t.width == t.height && t.layers.is_multiple_of(6);
        Some(match (layer, layers) {
            (0, 1) => ViewKind::Layer0,
            (_, 1) => ViewKind::LayerPast0,
            (0, n) if n == t.layers && six_square => ViewKind::SixLayersAsArray,
            (0, n) if n == t.layers => return None,
            (0, _) => ViewKind::RangeFrom0,
            _ => ViewKind::RangePast0,
        })
    }

    /// Why a shader read through a view of this kind is refused on adapter `adapter`, and what
    /// to do instead.
    pub(crate) fn refusal(self, adapter: &str) -> String {
        let instead = match self {
            ViewKind::MipPast0 => {
                "sample the whole texture and pick the mip in the shader (textureLoad's level, textureSampleLevel)"
            }
            ViewKind::SixLayersAsArray => {
                "bind it as a cube (`Binding::TextureAs` with `TextureViewDimension::Cube`)"
            }
            ViewKind::Cube => "keep the faces in an array of another layer count",
            _ => "sample the whole texture as an array and pick the layer in the shader",
        };
        format!(
            "on this adapter ({adapter}) wgpu's GL backend binds the whole texture for a shader read, and a shader reads another subresource through {}: {instead}, or use the Vulkan backend",
            self.describe()
        )
    }

    /// Whether wgpu 30's GL backend binds another texture for this view, whatever the driver:
    /// it binds the whole texture under its own target (a 2D array for several layers, a cube
    /// map for six square ones), so a 2D view of one layer reads the unit's 2D texture and an
    /// array view of a cube map its array texture, and it ignores a view's first layer (it logs
    /// "heuristics assumed" and "non-zero array layer" and records on). The probe would only
    /// confirm these, logging those errors.
    pub(crate) fn bound_as_another_texture(self) -> bool {
        matches!(
            self,
            ViewKind::Layer0
                | ViewKind::LayerPast0
                | ViewKind::RangePast0
                | ViewKind::SixLayersAsArray
        )
    }

    pub(crate) fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The kinds of view a shader reads wrongly on this adapter (the probe's finding).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct ViewDefects(u8);

impl ViewDefects {
    /// Whether a shader reads a view of this kind wrongly here.
    pub(crate) fn reads_wrongly(self, kind: ViewKind) -> bool {
        self.0 & kind.bit() != 0
    }

    /// The kinds read wrongly here or there.
    pub(crate) fn union(self, other: ViewDefects) -> ViewDefects {
        ViewDefects(self.0 | other.0)
    }

    /// The kinds read wrongly, for the log.
    pub(crate) fn kinds(self) -> impl Iterator<Item = ViewKind> {
        ViewKind::ALL
            .into_iter()
            .filter(move |&k| self.reads_wrongly(k))
    }

    pub(crate) fn of(kinds: impl IntoIterator<Item = ViewKind>) -> Self {
        ViewDefects(kinds.into_iter().fold(0, |bits, k| bits | k.bit()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wgpu::TextureViewDimension as D;

    fn texture(mips: u32, layers: u32, width: u32, height: u32) -> TextureDesc {
        TextureDesc {
            width,
            height,
            mips,
            layers,
            ..TextureDesc::new(wgpu::TextureFormat::Rgba8Unorm, 1, 1)
        }
    }

    fn range(mips: Option<(u32, u32)>, layers: Option<(u32, u32)>) -> SubresourceRange {
        SubresourceRange { mips, layers }
    }

    #[test]
    fn each_shader_read_is_classified_by_the_view_it_gets() {
        let array = texture(1, 4, 64, 32);
        let all = SubresourceRange::ALL;
        assert_eq!(ViewKind::of(array, all, None), None);
        let one = |l| range(None, Some((l, 1)));
        assert_eq!(ViewKind::of(array, one(0), None), Some(ViewKind::Layer0));
        assert_eq!(
            ViewKind::of(array, one(3), None),
            Some(ViewKind::LayerPast0)
        );
        let some = |l| range(None, Some((l, 2)));
        assert_eq!(
            ViewKind::of(array, some(0), None),
            Some(ViewKind::RangeFrom0)
        );
        assert_eq!(
            ViewKind::of(array, some(1), None),
            Some(ViewKind::RangePast0)
        );
        let mips = texture(3, 1, 64, 64);
        assert_eq!(ViewKind::of(mips, all, None), None);
        assert_eq!(ViewKind::of(mips, range(Some((0, 1)), None), None), None);
        let mip1 = range(Some((1, 1)), None);
        assert_eq!(ViewKind::of(mips, mip1, None), Some(ViewKind::MipPast0));
        let six = texture(1, 6, 32, 32);
        assert_eq!(
            ViewKind::of(six, all, None),
            Some(ViewKind::SixLayersAsArray)
        );
        assert_eq!(ViewKind::of(six, all, Some(D::Cube)), Some(ViewKind::Cube));
        // Six layers that are not square are an ordinary array.
        assert_eq!(ViewKind::of(texture(1, 6, 64, 32), all, None), None);
        // Multisampled textures are read whole, texel by texel.
        let msaa = TextureDesc {
            samples: 4,
            ..array
        };
        assert_eq!(ViewKind::of(msaa, one(1), None), None);
    }

    #[test]
    fn defects_name_the_kinds_read_wrongly() {
        let found = ViewDefects(ViewKind::LayerPast0.bit() | ViewKind::Cube.bit());
        assert!(found.reads_wrongly(ViewKind::Cube));
        assert!(!found.reads_wrongly(ViewKind::Layer0));
        assert_eq!(
            found.kinds().collect::<Vec<_>>(),
            [ViewKind::LayerPast0, ViewKind::Cube]
        );
    }
}
