//! The JSON graph description ([guide](crate::guide#graph-description-json)): loaded into a
//! [`RenderGraph`] and emitted from one.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::decl::pass::{ColorAttachment, DepthAttachment, Entry, ListAccess, PassDecl, PassKind};
use crate::decl::resource::{
    HISTORY_CURRENT, HISTORY_PREVIOUS, HistoryHalf, ResourceDecl, ResourceKind,
};
use crate::decl::{PassRef, Passes};
use crate::declare::RenderGraph;
use crate::error::GraphError;
use crate::format::{format_name, parse_format};
use crate::ids::ResourceId;
use crate::resource::{
    Access, BufferDesc, ClearValue, Import, Subresource, SubresourceRange, TextureDesc,
};

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Description {
    resources: Vec<ResourceJson>,
    passes: Vec<PassJson>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ResourceJson {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    texture: Option<TextureJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    buffer: Option<BufferJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    clear: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    import: Option<Import>,
    /// Read as any JSON value so that a wrong type is an error naming the resource.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    keep_memory: Option<serde_json::Value>,
}

fn one() -> u32 {
    1
}

fn is_one(v: &u32) -> bool {
    *v == 1
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TextureJson {
    format: String,
    size: Vec<u32>,
    #[serde(default = "one", skip_serializing_if = "is_one")]
    samples: u32,
    #[serde(default = "one", skip_serializing_if = "is_one")]
    mips: u32,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BufferJson {
    size: u64,
}

/// A colour or depth attachment. A depth attachment's `resolve` is never valid (wgpu resolves no
/// depth): it is read only to say so, not refused as an unknown field.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct AttachmentJson {
    resource: String,
    access: Access,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    clear: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    resolve: Option<String>,
    #[serde(default, skip_serializing_if = "is_zero")]
    mip: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    layer: u32,
}

/// A list entry: a resource name (the whole resource), one subresource of a texture, or a range
/// of its mips and layers.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum EntryJson {
    Whole(String),
    Sub(SubEntryJson),
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SubEntryJson {
    resource: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mip: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    layer: Option<u32>,
    /// `[first, count]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mips: Option<[u32; 2]>,
    /// `[first, count]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    layers: Option<[u32; 2]>,
    /// Bytes one binding of a buffer sees.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    binding_size: Option<u64>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PassJson {
    name: String,
    #[serde(rename = "type")]
    kind: PassKind,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    color: Vec<AttachmentJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    depth: Option<AttachmentJson>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    sample: Vec<EntryJson>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    input: Vec<EntryJson>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    storage_read: Vec<EntryJson>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    storage_write: Vec<EntryJson>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    storage_read_write: Vec<EntryJson>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    copy_src: Vec<EntryJson>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    copy_dst: Vec<EntryJson>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    uniform: Vec<EntryJson>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    vertex: Vec<EntryJson>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    index: Vec<EntryJson>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    indirect: Vec<EntryJson>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    upload: Vec<EntryJson>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    side_effects: bool,
    /// Read as any JSON value so that a wrong type is an error naming the pass.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    keep_order: Option<serde_json::Value>,
    /// Views of a multiview render pass.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    multiview: Option<u32>,
}

/// The declaration an error in the description is about.
#[derive(Clone, Copy)]
enum Owner<'a> {
    Resource(&'a str),
    Pass(&'a str),
}

impl Owner<'_> {
    fn invalid(self, message: String) -> GraphError {
        match self {
            Owner::Resource(name) => GraphError::invalid_resource(name, message),
            Owner::Pass(name) => GraphError::invalid_pass(name, message),
        }
    }
}

fn parse_clear(value: &Value, owner: Owner<'_>) -> Result<ClearValue, GraphError> {
    let bad = || {
        owner.invalid(format!(
            "clear must be [r, g, b, a], a depth number or {{\"depth\": d, \"stencil\": s}}, not {value}"
        ))
    };
    match value {
        Value::Array(items) => {
            let rgba: Vec<f64> = items
                .iter()
                .map(Value::as_f64)
                .collect::<Option<_>>()
                .ok_or_else(bad)?;
            <[f64; 4]>::try_from(rgba)
                .map(ClearValue::Color)
                .map_err(|_| bad())
        }
        Value::Number(n) => n
            .as_f64()
            .map(|d| ClearValue::Depth(d as f32))
            .ok_or_else(bad),
        Value::Object(map) => {
            if map.keys().any(|k| k != "depth" && k != "stencil") || map.is_empty() {
                return Err(bad());
            }
            let depth = match map.get("depth") {
                None => 1.0,
                Some(d) => d.as_f64().ok_or_else(bad)? as f32,
            };
            let stencil = match map.get("stencil") {
                None => 0,
                Some(s) => s
                    .as_u64()
                    .and_then(|s| u32::try_from(s).ok())
                    .ok_or_else(bad)?,
            };
            Ok(ClearValue::DepthStencil { depth, stencil })
        }
        _ => Err(bad()),
    }
}

fn emit_clear(clear: ClearValue) -> Value {
    match clear {
        ClearValue::Color(c) => serde_json::json!(c),
        ClearValue::Depth(d) => serde_json::json!(f64::from(d)),
        ClearValue::DepthStencil { depth, stencil } => {
            serde_json::json!({"depth": f64::from(depth), "stencil": stencil})
        }
    }
}

fn parse_resource(r: ResourceJson) -> Result<ResourceDecl, GraphError> {
    let owner = Owner::Resource(&r.name);
    let kind = match (r.texture, r.buffer) {
        (Some(t), None) => {
            let format = parse_format(&t.format)
                .ok_or_else(|| owner.invalid(format!("unknown texture format `{}`", t.format)))?;
            let (width, height, layers) = match t.size[..] {
                [w, h] => (w, h, 1),
                [w, h, l] => (w, h, l),
                _ => {
                    return Err(owner.invalid(format!(
                        "size must be [w, h] or [w, h, layers], got {:?}",
                        t.size
                    )));
                }
            };
            ResourceKind::Texture(TextureDesc {
                format,
                width,
                height,
                layers,
                samples: t.samples,
                mips: t.mips,
            })
        }
        (None, Some(b)) => ResourceKind::Buffer(BufferDesc { size: b.size }),
        _ => {
            return Err(owner.invalid("give exactly one of `texture` and `buffer`".into()));
        }
    };
    let clear = r
        .clear
        .as_ref()
        .map(|c| parse_clear(c, owner))
        .transpose()?;
    let import = r.import;
    let keep_memory = match (&r.keep_memory, kind) {
        (None, _) => false,
        (Some(Value::Bool(keep)), ResourceKind::Texture(_)) => *keep,
        (Some(Value::Bool(_)), ResourceKind::Buffer(_)) => {
            return Err(owner
                .invalid("`keep_memory` is for textures (buffers are never memoryless)".into()));
        }
        (Some(other), _) => {
            return Err(owner.invalid(format!("`keep_memory` must be true or false, not {other}")));
        }
    };
    Ok(ResourceDecl {
        name: r.name.into(),
        kind,
        clear,
        import,
        keep_memory,
        history: None,
    })
}

/// The subresources an entry object names: `mip`/`layer` (one subresource, 0 where absent) or
/// `mips`/`layers` (`[first, count]` ranges, all where absent), not both kinds; an entry that
/// names none of them but a `binding_size` is a whole buffer.
fn parse_range(s: &SubEntryJson, owner: Owner<'_>) -> Result<SubresourceRange, GraphError> {
    let names_subresources =
        s.mip.is_some() || s.layer.is_some() || s.mips.is_some() || s.layers.is_some();
    if s.binding_size.is_some() && !names_subresources {
        // A buffer's binding size: the whole buffer, bound in slices.
        return Ok(SubresourceRange::ALL);
    }
    if s.mips.is_none() && s.layers.is_none() {
        return Ok(SubresourceRange::one(Subresource {
            mip: s.mip.unwrap_or(0),
            layer: s.layer.unwrap_or(0),
        }));
    }
    if s.mip.is_some() || s.layer.is_some() {
        return Err(owner.invalid(format!(
            "the entry of `{}` gives `mip`/`layer` and `mips`/`layers`: name one subresource or ranges, not both",
            s.resource
        )));
    }
    let pair = |r: Option<[u32; 2]>| r.map(|[first, count]| (first, count));
    Ok(SubresourceRange {
        mips: pair(s.mips),
        layers: pair(s.layers),
    })
}

/// In a multiview pass, a `sample` or `input` entry naming one subresource of a texture of
/// several layers without `layer`: it would read layer 0 in every view, silently, so it is an
/// `invalid_subresource` that asks for the layers.
fn check_view_layers(
    p: &PassJson,
    access: ListAccess,
    entries: &[EntryJson],
    layers: &HashMap<&str, u32>,
) -> Result<(), GraphError> {
    // One view is an `invalid_access` of its own, found later.
    let (Some(views @ 2..), ListAccess::Sample | ListAccess::Input) = (p.multiview, access) else {
        return Ok(());
    };
    let unlayered = entries.iter().find_map(|e| match e {
        EntryJson::Sub(s) if s.layer.is_none() && s.mips.is_none() && s.layers.is_none() => {
            layers.get(s.resource.as_str()).map(|&n| (s, n))
        }
        _ => None,
    });
    let Some((s, n)) = unlayered else {
        return Ok(());
    };
    let list = access.as_str();
    let mips = s
        .mip
        .map_or(String::new(), |m| format!(", \"mips\": [{m}, 1]"));
    Err(GraphError::InvalidSubresource {
        pass: p.name.clone(),
        resource: s.resource.clone(),
        message: format!(
            "a `{list}` entry of this multiview pass ({views} views) names one subresource of a \
             texture of {n} layers without `layer`, which would read layer 0 in every view; name \
             the layers the views read (`\"layers\": [0, {views}]{mips}`), or `\"layer\": 0` \
             for layer 0 alone"
        ),
    })
}

fn parse_pass(
    p: PassJson,
    ids: &HashMap<&str, ResourceId>,
    layers: &HashMap<&str, u32>,
) -> Result<PassDecl, GraphError> {
    let parser = PassParser { p: &p, ids };
    let mut decl = PassDecl::new(p.name.as_str().into(), p.kind);
    for c in &p.color {
        decl.color.push(parser.color(c)?);
    }
    if let Some(d) = &p.depth {
        decl.depth = Some(parser.depth(d)?);
    }
    let lists = [
        (ListAccess::Sample, &p.sample),
        (ListAccess::Input, &p.input),
        (ListAccess::StorageRead, &p.storage_read),
        (ListAccess::StorageWrite, &p.storage_write),
        (ListAccess::StorageReadWrite, &p.storage_read_write),
        (ListAccess::CopySrc, &p.copy_src),
        (ListAccess::CopyDst, &p.copy_dst),
        (ListAccess::Uniform, &p.uniform),
        (ListAccess::Vertex, &p.vertex),
        (ListAccess::Index, &p.index),
        (ListAccess::Indirect, &p.indirect),
        (ListAccess::Upload, &p.upload),
    ];
    for (access, entries) in lists {
        check_view_layers(&p, access, entries, layers)?;
        *decl.list_mut(access) = parser.entries(entries)?;
    }
    decl.side_effects = p.side_effects;
    decl.keep_order = match &p.keep_order {
        None => false,
        Some(serde_json::Value::Bool(b)) => *b,
        Some(other) => {
            let message = format!("`keep_order` must be true or false, not {other}");
            return Err(parser.owner().invalid(message));
        }
    };
    decl.multiview = p.multiview;
    Ok(decl)
}

/// One pass's description, its resource names looked up among the declared ones.
struct PassParser<'p> {
    p: &'p PassJson,
    ids: &'p HashMap<&'p str, ResourceId>,
}

impl PassParser<'_> {
    fn owner(&self) -> Owner<'_> {
        Owner::Pass(&self.p.name)
    }

    fn id(&self, name: &str) -> Result<ResourceId, GraphError> {
        self.ids
            .get(name)
            .copied()
            .ok_or_else(|| GraphError::UnknownResource {
                pass: self.p.name.clone(),
                resource: name.to_owned(),
            })
    }

    fn entries(&self, entries: &[EntryJson]) -> Result<Vec<Entry>, GraphError> {
        entries
            .iter()
            .map(|e| match e {
                EntryJson::Whole(name) => self.id(name).map(Entry::whole),
                EntryJson::Sub(s) => Ok(Entry {
                    resource: self.id(&s.resource)?,
                    range: parse_range(s, self.owner())?,
                    binding_size: s.binding_size,
                }),
            })
            .collect()
    }

    fn clear(&self, clear: Option<&Value>) -> Result<Option<ClearValue>, GraphError> {
        clear.map(|v| parse_clear(v, self.owner())).transpose()
    }

    fn color(&self, c: &AttachmentJson) -> Result<ColorAttachment, GraphError> {
        Ok(ColorAttachment {
            resource: self.id(&c.resource)?,
            sub: Subresource {
                mip: c.mip,
                layer: c.layer,
            },
            access: c.access,
            clear: self.clear(c.clear.as_ref())?,
            resolve: c.resolve.as_deref().map(|r| self.id(r)).transpose()?,
        })
    }

    fn depth(&self, d: &AttachmentJson) -> Result<DepthAttachment, GraphError> {
        if let Some(target) = &d.resolve {
            return Err(GraphError::ResolveMismatch {
                pass: self.p.name.clone(),
                resource: d.resource.clone(),
                target: target.clone(),
                message: "wgpu has no depth or stencil resolve, so a depth attachment takes no \
                          `resolve`; for a single-sampled depth, add a pass that samples the \
                          multisampled depth and writes the single-sampled one (the guide's \
                          MSAA resolves)"
                    .to_owned(),
            });
        }
        Ok(DepthAttachment {
            resource: self.id(&d.resource)?,
            sub: Subresource {
                mip: d.mip,
                layer: d.layer,
            },
            access: d.access,
            clear: self.clear(d.clear.as_ref())?,
        })
    }
}

impl RenderGraph<'static> {
    /// Loads a graph description ([guide](crate::guide#graph-description-json)). Passes have no closures; attach them with
    /// [`RenderGraph::set_callback`] or execute the graph with synthetic shaders.
    pub fn from_json(json: &str) -> Result<RenderGraph<'static>, GraphError> {
        let desc: Description =
            serde_json::from_str(json).map_err(|e| GraphError::invalid(e.to_string()))?;
        if desc.passes.is_empty() {
            return Err(GraphError::invalid("the graph declares no passes"));
        }
        let Description {
            resources: rjson,
            passes: pjson,
        } = desc;
        let ids = resource_ids(rjson.iter().map(|r| r.name.as_str()))?;
        // Textures of several layers, by name (multiview passes must say which they read).
        let layers: HashMap<&str, u32> = rjson
            .iter()
            .filter_map(|r| Some((r.name.as_str(), *r.texture.as_ref()?.size.get(2)?)))
            .filter(|&(_, n)| n > 1)
            .collect();
        let passes = pjson
            .into_iter()
            .map(|p| parse_pass(p, &ids, &layers))
            .collect::<Result<Vec<_>, _>>()?;
        drop((ids, layers));
        let mut resources = rjson
            .into_iter()
            .map(parse_resource)
            .collect::<Result<Vec<_>, _>>()?;
        for (previous, current) in history_pairs(&resources) {
            resources[previous.index()].history = Some(HistoryHalf::Previous);
            resources[current.index()].history = Some(HistoryHalf::Current);
        }
        assemble(resources, passes)
    }

    /// A graph of these declarations, as [`resources`](RenderGraph::resources) and
    /// [`passes`](RenderGraph::passes) of another graph give them: a graph loaded or built, its
    /// declarations changed (formats, clear values, pass kinds, attachments), and built again.
    /// Passes have no closures. The two halves of a history texture stay paired while both keep
    /// their names, imports and descriptor.
    ///
    /// The declarations are checked as [`from_json`](RenderGraph::from_json) checks a
    /// description: at least one pass, unique resource names, every resource id a pass names
    /// declared. The rest is for [`RenderGraph::compile`].
    ///
    /// ```
    /// use tilegraph::RenderGraph;
    /// use tilegraph::wgpu;
    /// use tilegraph::decl::ResourceKind;
    ///
    /// let graph = RenderGraph::from_json(r#"{
    ///   "resources": [{"name": "out", "texture": {"format": "rgba8unorm", "size": [64, 64]},
    ///                  "import": {"contents": "undefined", "after": "keep"}}],
    ///   "passes": [{"name": "draw", "type": "render",
    ///               "color": [{"resource": "out", "access": "write"}]}]}"#)?;
    /// let mut resources = graph.resources().to_vec();
    /// if let ResourceKind::Texture(t) = &mut resources[0].kind {
    ///     t.format = wgpu::TextureFormat::Rgba16Float;
    /// }
    /// let wide = RenderGraph::from_declarations(resources, graph.passes().to_vec())?;
    /// assert_ne!(wide.fingerprint(), graph.fingerprint());
    /// # Ok::<(), tilegraph::GraphError>(())
    /// ```
    pub fn from_declarations(
        resources: Vec<ResourceDecl>,
        passes: Vec<PassDecl>,
    ) -> Result<RenderGraph<'static>, GraphError> {
        if passes.is_empty() {
            return Err(GraphError::invalid("the graph declares no passes"));
        }
        resource_ids(resources.iter().map(|r| &*r.name))?;
        for pass in &passes {
            if let Some(id) = pass_resource_ids(pass).find(|id| id.index() >= resources.len()) {
                return Err(GraphError::UnknownResource {
                    pass: pass.name.to_string(),
                    resource: format!(
                        "resource #{id}, of a graph that declares {}",
                        resources.len()
                    ),
                });
            }
        }
        assemble(resources, passes)
    }
}

/// Resource ids by name, in declaration order; a repeated name is an error.
fn resource_ids<'n>(
    names: impl Iterator<Item = &'n str>,
) -> Result<HashMap<&'n str, ResourceId>, GraphError> {
    let mut ids = HashMap::with_capacity(names.size_hint().0);
    for (i, name) in names.enumerate() {
        if ids.insert(name, ResourceId::new(i)).is_some() {
            return Err(GraphError::DuplicateName {
                what: "resource",
                name: name.to_owned(),
            });
        }
    }
    Ok(ids)
}

/// Every resource id a pass names: attachments, resolve targets and list entries.
fn pass_resource_ids(pass: &PassDecl) -> impl Iterator<Item = ResourceId> + '_ {
    let color = pass
        .color
        .iter()
        .flat_map(|c| std::iter::once(c.resource).chain(c.resolve));
    let lists = ListAccess::ALL
        .into_iter()
        .flat_map(|access| pass.list(access));
    color
        .chain(pass.depth.map(|d| d.resource))
        .chain(lists.map(|e| e.resource))
}

/// The graph of checked declarations whose history halves are marked: pairs the halves and
/// pushes every declaration.
fn assemble(
    resources: Vec<ResourceDecl>,
    passes: Vec<PassDecl>,
) -> Result<RenderGraph<'static>, GraphError> {
    let histories = marked_history_pairs(&resources)?;
    // Copied once the description is gone: the resources, which every compile sweeps, then
    // lie together instead of among the parser's freed buffers (the passes go into the
    // graph's tables).
    let resources = resources.to_vec();
    let mut graph = RenderGraph::with_capacity(resources.len(), passes.len());
    for r in resources {
        graph.push_resource(r);
    }
    for p in &passes {
        graph.push_pass(p, None);
    }
    graph.histories = histories;
    Ok(graph)
}

/// The pairs of resources marked as the two halves of one history texture, in the order of
/// their `previous` halves. A marked half without its partner is an error: the executor could
/// not swap it.
fn marked_history_pairs(
    resources: &[ResourceDecl],
) -> Result<Vec<(ResourceId, ResourceId)>, GraphError> {
    let mut pairs = Vec::new();
    for (i, r) in resources.iter().enumerate() {
        if r.history != Some(HistoryHalf::Previous) || r.import != Some(HISTORY_PREVIOUS) {
            continue;
        }
        let Some(base) = r.name.strip_suffix(".previous") else {
            continue;
        };
        let want = format!("{base}.current");
        if let Some(j) = resources.iter().position(|c| {
            *c.name == *want
                && c.history == Some(HistoryHalf::Current)
                && c.import == Some(HISTORY_CURRENT)
                && c.kind == r.kind
        }) {
            pairs.push((ResourceId::new(i), ResourceId::new(j)));
        }
    }
    let paired = |k: usize| pairs.iter().any(|&(p, c)| p.index() == k || c.index() == k);
    match resources
        .iter()
        .enumerate()
        .find(|&(k, r)| r.history.is_some() && !paired(k))
    {
        Some((_, r)) => Err(unpaired_history(r)),
        None => Ok(pairs),
    }
}

fn unpaired_history(r: &ResourceDecl) -> GraphError {
    GraphError::invalid_resource(
        &r.name,
        "is half of a history texture or buffer whose other half is missing, renamed, re-imported or of another descriptor",
    )
}

/// Pairs of resources that describe a history texture: `NAME.previous` imported preserved and
/// discarded, `NAME.current` imported undefined and kept, one descriptor.
fn history_pairs(resources: &[ResourceDecl]) -> Vec<(ResourceId, ResourceId)> {
    let (previous, current) = (HISTORY_PREVIOUS, HISTORY_CURRENT);
    let mut pairs = Vec::new();
    for (i, r) in resources.iter().enumerate() {
        let Some(base) = r.name.strip_suffix(".previous") else {
            continue;
        };
        if r.import != Some(previous) {
            continue;
        }
        let want = format!("{base}.current");
        if let Some(j) = resources
            .iter()
            .position(|c| *c.name == *want && c.import == Some(current) && c.kind == r.kind)
        {
            pairs.push((ResourceId::new(i), ResourceId::new(j)));
        }
    }
    pairs
}

impl RenderGraph<'_> {
    /// Emits the graph's description ([guide](crate::guide#graph-description-json)), without the
    /// closures. `from_json` of the result
    /// gives a graph with the same structure and fingerprint.
    pub fn to_json(&self) -> String {
        describe(&self.resources, &self.passes)
    }
}

/// The description of these declarations (what [`RenderGraph::to_json`] emits).
pub(crate) fn describe(resources: &[ResourceDecl], passes: &Passes) -> String {
    let names = Names(resources);
    let description = Description {
        resources: resources.iter().map(resource_json).collect(),
        passes: passes.iter().map(|p| names.pass(p)).collect(),
    };
    serde_json::to_string_pretty(&description).expect("descriptions always serialize")
}

/// A resource's description.
fn resource_json(r: &ResourceDecl) -> ResourceJson {
    let (texture, buffer) = match r.kind {
        ResourceKind::Texture(t) => {
            let size = if t.layers == 1 {
                vec![t.width, t.height]
            } else {
                vec![t.width, t.height, t.layers]
            };
            let texture = TextureJson {
                format: format_name(t.format),
                size,
                samples: t.samples,
                mips: t.mips,
            };
            (Some(texture), None)
        }
        ResourceKind::Buffer(b) => (None, Some(BufferJson { size: b.size })),
    };
    ResourceJson {
        name: r.name.to_string(),
        texture,
        buffer,
        clear: r.clear.map(emit_clear),
        import: r.import,
        keep_memory: r.keep_memory.then_some(Value::Bool(true)),
    }
}

/// The declared resources, which name the ids of a pass's accesses in its description.
struct Names<'r>(&'r [ResourceDecl]);

impl Names<'_> {
    fn name(&self, id: &ResourceId) -> String {
        self.0
            .get(id.index())
            .map_or_else(|| format!("#{id}"), |r| r.name.to_string())
    }

    fn entry(&self, e: &Entry) -> EntryJson {
        let sub = |mip, layer, mips, layers| {
            EntryJson::Sub(SubEntryJson {
                resource: self.name(&e.resource),
                mip,
                layer,
                mips,
                layers,
                binding_size: e.binding_size,
            })
        };
        match (e.range.is_all(), e.range.single()) {
            (true, _) if e.binding_size.is_some() => sub(None, None, None, None),
            (true, _) => EntryJson::Whole(self.name(&e.resource)),
            (false, Some(one)) => sub(Some(one.mip), Some(one.layer), None, None),
            (false, None) => sub(
                None,
                None,
                e.range.mips.map(|(first, count)| [first, count]),
                e.range.layers.map(|(first, count)| [first, count]),
            ),
        }
    }

    fn entries(&self, entries: &[Entry]) -> Vec<EntryJson> {
        entries.iter().map(|e| self.entry(e)).collect()
    }

    fn pass(&self, p: PassRef<'_>) -> PassJson {
        let entries = |access| self.entries(p.list(access));
        PassJson {
            name: p.name().to_string(),
            kind: p.kind(),
            color: p.color().iter().map(|c| self.color(c)).collect(),
            depth: p.depth().map(|d| AttachmentJson {
                resource: self.name(&d.resource),
                access: d.access,
                clear: d.clear.map(emit_clear),
                resolve: None,
                mip: d.sub.mip,
                layer: d.sub.layer,
            }),
            sample: entries(ListAccess::Sample),
            input: entries(ListAccess::Input),
            storage_read: entries(ListAccess::StorageRead),
            storage_write: entries(ListAccess::StorageWrite),
            storage_read_write: entries(ListAccess::StorageReadWrite),
            copy_src: entries(ListAccess::CopySrc),
            copy_dst: entries(ListAccess::CopyDst),
            uniform: entries(ListAccess::Uniform),
            vertex: entries(ListAccess::Vertex),
            index: entries(ListAccess::Index),
            indirect: entries(ListAccess::Indirect),
            upload: entries(ListAccess::Upload),
            side_effects: p.side_effects(),
            keep_order: p.keep_order().then_some(serde_json::Value::Bool(true)),
            multiview: p.multiview(),
        }
    }

    fn color(&self, c: &ColorAttachment) -> AttachmentJson {
        AttachmentJson {
            resource: self.name(&c.resource),
            access: c.access,
            clear: c.clear.map(emit_clear),
            resolve: c.resolve.as_ref().map(|r| self.name(r)),
            mip: c.sub.mip,
            layer: c.sub.layer,
        }
    }
}
