//! What a device must have to record a plan: features, limits and downlevel flags, worked out
//! per live pass, so that a shortfall names the first declared pass that needs more.

use super::{CompiledGraph, ResourceUsage};
use crate::decl::PassRef;
use crate::decl::pass::{ListAccess, PassKind};
use crate::decl::resource::{ResourceDecl, ResourceKind};
use crate::format::format_name;
use crate::ids::{PassId, ResourceId};
use crate::options::PlanLimits;
use crate::resource::Access;

pub(crate) use crate::format::color_bytes_per_sample;

/// The first declared live pass over a limit: the limit's wgpu name, what the pass needs and
/// what was given, and the resource that needs it where one does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LimitExcess {
    pub pass: PassId,
    pub resource: Option<ResourceId>,
    pub limit: &'static str,
    pub needed: u64,
    pub given: u64,
}

/// What the plan needs that a device lacks, found before anything is recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Shortfall {
    Features(PassId, wgpu::Features),
    DownlevelFlags(PassId, wgpu::DownlevelFlags),
    Limit(LimitExcess),
}

impl CompiledGraph {
    /// The device features recording this plan needs: those its texture formats need
    /// (`TextureFormat::required_features`), and
    /// `Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES` where a live texture is used in a way
    /// its format does not guarantee everywhere (a sample count, a storage or read-write storage
    /// use, an attachment). Features that only change how a plan is recorded (`MULTIVIEW`,
    /// `MULTISAMPLE_ARRAY`, `TIMESTAMP_QUERY`) are not among them: the executor records without
    /// them ([`DeviceOptions::for_plan`](crate::helpers::DeviceOptions::for_plan) asks for
    /// `MULTIVIEW` where the adapter has it).
    pub fn required_features(&self) -> wgpu::Features {
        let read_write = self.read_write_storage();
        (0..self.resources.len())
            .filter(|&r| !self.resources[r].culled)
            .fold(wgpu::Features::empty(), |features, r| {
                features | self.resource_features(r, read_write[r])
            })
    }

    /// The device limits recording this plan needs: each value the larger of
    /// `wgpu::Limits::downlevel_webgl2_defaults()` and what a live pass needs — texture width
    /// and height (`max_texture_dimension_2d`) and layers, buffer sizes, the textures a pass
    /// samples and the storage buffers and textures it binds, colour attachments and colour
    /// bytes per sample of a render pass, `Limits::downlevel_defaults()`'s compute limits where
    /// a pass computes, and `max_multiview_view_count` where a pass is multiview.
    ///
    /// Open a device with them through
    /// [`DeviceOptions::for_plan`](crate::helpers::DeviceOptions::for_plan), which treats the
    /// multiview count as wanted, not required: where the adapter lacks multiview, the executor
    /// records those passes one render pass per view. What the renderer's own shaders need
    /// (uniform buffers, workgroup sizes beyond the baseline, vertex attributes) the plan does
    /// not see; raise it with `mine.or_better_values_from(&plan.required_limits())`.
    pub fn required_limits(&self) -> wgpu::Limits {
        let mut needs = PlanLimits::of(&wgpu::Limits::downlevel_webgl2_defaults());
        for p in self.live_passes() {
            needs.raise_to(&self.pass_limits(p));
        }
        let mut limits = wgpu::Limits::downlevel_webgl2_defaults();
        needs.apply_to(&mut limits);
        limits
    }

    /// The downlevel capabilities recording this plan needs
    /// (`adapter.get_downlevel_capabilities().flags` must contain them): `COMPUTE_SHADERS` for
    /// a compute pass, `FRAGMENT_WRITABLE_STORAGE` for a render pass that writes storage,
    /// `READ_ONLY_DEPTH_STENCIL` for a pass that samples the depth it attaches read-only (not on
    /// wgpu's GL backend), `DEPTH_TEXTURE_AND_BUFFER_COPIES` for a copy pass between a depth
    /// texture and a buffer, `NON_POWER_OF_TWO_MIPMAPPED_TEXTURES` for a mipmapped texture of
    /// another size. Storage a render pass only reads may need `VERTEX_STORAGE` or
    /// `FRAGMENT_STORAGE`, depending on the shader stage, which the plan does not see.
    pub fn required_downlevel_flags(&self) -> wgpu::DownlevelFlags {
        self.live_passes()
            .fold(wgpu::DownlevelFlags::empty(), |flags, p| {
                flags | self.pass_downlevel_flags(p)
            })
    }

    /// The first declared live pass that needs more than `given`
    /// ([`CompileOptions::with_limits`](crate::CompileOptions::with_limits)).
    pub(crate) fn first_pass_over(&self, given: &PlanLimits) -> Option<LimitExcess> {
        self.live_passes().find_map(|p| {
            let (limit, needed, given_value) = self.pass_limits(p).first_over(given)?;
            Some(LimitExcess {
                pass: p,
                resource: self.resource_over(p, limit, given_value),
                limit,
                needed,
                given: given_value,
            })
        })
    }

    /// What a device of `features` and `limits` (and, where known, `downlevel` flags) lacks to
    /// record this plan, naming the first declared pass that needs it. The multiview count is
    /// not required: without it multiview passes record per view.
    pub(crate) fn device_shortfall(
        &self,
        features: wgpu::Features,
        limits: &wgpu::Limits,
        downlevel: wgpu::DownlevelFlags,
    ) -> Option<Shortfall> {
        let missing = self.required_features() - features;
        if !missing.is_empty() {
            let read_write = self.read_write_storage();
            let pass = self.live_passes().find_map(|p| {
                let lacks = self
                    .touched(p)
                    .map(|r| self.resource_features(r.index(), read_write[r.index()]) & missing)
                    .fold(wgpu::Features::empty(), |a, b| a | b);
                (!lacks.is_empty()).then_some(Shortfall::Features(p, lacks))
            });
            if pass.is_some() {
                return pass;
            }
        }
        let lacking = self.live_passes().find_map(|p| {
            let lacks = self.pass_downlevel_flags(p) - downlevel;
            (!lacks.is_empty()).then_some(Shortfall::DownlevelFlags(p, lacks))
        });
        if lacking.is_some() {
            return lacking;
        }
        self.first_pass_over(&PlanLimits::of(limits))
            .map(Shortfall::Limit)
    }

    /// For an excess of colour bytes: each colour slot's resource, format and cost, and a slot
    /// order that fits within `given` where one does. Empty for other limits.
    pub(crate) fn describe_excess(&self, excess: &LimitExcess) -> String {
        if excess.limit != "max_color_attachment_bytes_per_sample" {
            return String::new();
        }
        let pass = self.pass_decl(excess.pass);
        let slots: Vec<(&str, wgpu::TextureFormat)> = pass
            .color()
            .iter()
            .filter_map(|c| {
                let decl = self.resource_decl(c.resource);
                texture_format(decl).map(|f| (&*decl.name, f))
            })
            .collect();
        let costs: Vec<String> = slots
            .iter()
            .map(|&(name, f)| {
                format!(
                    "`{name}` {} {} B",
                    format_name(f),
                    f.target_pixel_byte_cost().unwrap_or(0)
                )
            })
            .collect();
        // Widest alignment first leaves no padding (each cost is a multiple of its alignment),
        // so this order costs the least there is.
        let mut best = slots.clone();
        best.sort_by_key(|&(_, f)| std::cmp::Reverse(f.target_component_alignment().unwrap_or(1)));
        let least = color_bytes_per_sample(best.iter().map(|&(_, f)| f));
        let order = if u64::from(least) <= excess.given {
            let names: Vec<&str> = best.iter().map(|&(n, _)| n).collect();
            format!(
                "; in the order {} the slots take {least} B, which fits",
                names.join(", ")
            )
        } else {
            format!(
                "; no order of the slots fits (the least is {least} B): attach fewer or narrower targets"
            )
        };
        format!(" (slots in order: {}){order}", costs.join(", "))
    }

    /// Live passes in declaration order.
    fn live_passes(&self) -> impl Iterator<Item = PassId> + '_ {
        (0..self.passes.len())
            .filter(|&p| !self.passes[p].culled)
            .map(PassId::new)
    }

    /// Every resource pass `p` names: attachments, resolve targets, list entries.
    fn touched(&self, p: PassId) -> impl Iterator<Item = ResourceId> + '_ {
        let pass = self.pass_decl(p);
        pass.color()
            .iter()
            .flat_map(|c| std::iter::once(c.resource).chain(c.resolve))
            .chain(pass.depth().map(|d| d.resource))
            .chain(pass.entries().map(|(_, e)| e.resource))
    }

    /// What pass `p` alone needs, from zero (not from the WebGL2 defaults).
    fn pass_limits(&self, p: PassId) -> PlanLimits {
        let pass = self.pass_decl(p);
        let mut needs = PlanLimits::ZERO;
        for r in self.touched(p) {
            match self.resource_decl(r).kind {
                ResourceKind::Texture(t) => {
                    needs.max_texture_dimension_2d =
                        needs.max_texture_dimension_2d.max(t.width.max(t.height));
                    needs.max_texture_array_layers = needs.max_texture_array_layers.max(t.layers);
                }
                ResourceKind::Buffer(b) => {
                    needs.max_buffer_size = needs.max_buffer_size.max(b.size)
                }
            }
        }
        for (access, e) in pass.entries() {
            let kind = self.resource_decl(e.resource).kind;
            let storage = matches!(
                access,
                ListAccess::StorageRead | ListAccess::StorageWrite | ListAccess::StorageReadWrite
            );
            match kind {
                ResourceKind::Texture(_) if storage => {
                    needs.max_storage_textures_per_shader_stage += 1;
                }
                ResourceKind::Texture(_)
                    if matches!(access, ListAccess::Sample | ListAccess::Input) =>
                {
                    needs.max_sampled_textures_per_shader_stage += 1;
                }
                ResourceKind::Buffer(b) if storage => {
                    needs.max_storage_buffers_per_shader_stage += 1;
                    needs.max_storage_buffer_binding_size = needs
                        .max_storage_buffer_binding_size
                        .max(e.binding_size.unwrap_or(b.size));
                }
                ResourceKind::Buffer(b) if access == ListAccess::Uniform => {
                    needs.max_uniform_buffers_per_shader_stage += 1;
                    needs.max_uniform_buffer_binding_size = needs
                        .max_uniform_buffer_binding_size
                        .max(e.binding_size.unwrap_or(b.size));
                }
                ResourceKind::Buffer(_) if access == ListAccess::Vertex => {
                    needs.max_vertex_buffers += 1;
                }
                _ => {}
            }
        }
        match pass.kind() {
            PassKind::Render => {
                needs.max_color_attachments = pass.color().len() as u32;
                needs.max_color_attachment_bytes_per_sample = color_bytes_per_sample(
                    pass.color()
                        .iter()
                        .filter_map(|c| texture_format(self.resource_decl(c.resource))),
                );
                needs.max_multiview_view_count = pass.multiview().unwrap_or(0);
            }
            PassKind::Compute => {
                let compute = PlanLimits::of(&wgpu::Limits::downlevel_defaults());
                needs.max_compute_workgroup_storage_size =
                    compute.max_compute_workgroup_storage_size;
                needs.max_compute_invocations_per_workgroup =
                    compute.max_compute_invocations_per_workgroup;
                needs.max_compute_workgroup_size_x = compute.max_compute_workgroup_size_x;
                needs.max_compute_workgroup_size_y = compute.max_compute_workgroup_size_y;
                needs.max_compute_workgroup_size_z = compute.max_compute_workgroup_size_z;
                needs.max_compute_workgroups_per_dimension =
                    compute.max_compute_workgroups_per_dimension;
            }
            PassKind::Copy => {}
        }
        needs
    }

    /// The resource of pass `p` whose own size is over `given` for `limit`, for the limits a
    /// single resource decides.
    fn resource_over(&self, p: PassId, limit: &str, given: u64) -> Option<ResourceId> {
        let binding = match limit {
            "max_storage_buffer_binding_size" => Some(true),
            "max_uniform_buffer_binding_size" => Some(false),
            _ => None,
        };
        if let Some(storage) = binding {
            // What one binding sees: the entry's binding size, else the whole buffer.
            return self.pass_decl(p).entries().find_map(|(access, e)| {
                let ResourceKind::Buffer(b) = self.resource_decl(e.resource).kind else {
                    return None;
                };
                let listed = match storage {
                    true => matches!(
                        access,
                        ListAccess::StorageRead
                            | ListAccess::StorageWrite
                            | ListAccess::StorageReadWrite
                    ),
                    false => access == ListAccess::Uniform,
                };
                (listed && e.binding_size.unwrap_or(b.size) > given).then_some(e.resource)
            });
        }
        self.touched(p).find(|&r| match self.resource_decl(r).kind {
            ResourceKind::Texture(t) => match limit {
                "max_texture_dimension_2d" => u64::from(t.width.max(t.height)) > given,
                "max_texture_array_layers" => u64::from(t.layers) > given,
                _ => false,
            },
            ResourceKind::Buffer(b) => limit == "max_buffer_size" && b.size > given,
        })
    }

    /// The downlevel flags pass `p` needs.
    fn pass_downlevel_flags(&self, p: PassId) -> wgpu::DownlevelFlags {
        use wgpu::DownlevelFlags as D;
        let pass = self.pass_decl(p);
        let mut flags = D::empty();
        let writes_storage =
            !pass.storage_write().is_empty() || !pass.storage_read_write().is_empty();
        match pass.kind() {
            PassKind::Compute => flags |= D::COMPUTE_SHADERS,
            PassKind::Render if writes_storage => flags |= D::FRAGMENT_WRITABLE_STORAGE,
            PassKind::Copy if copies_depth_and_buffer(pass, &self.resource_decls) => {
                flags |= D::DEPTH_TEXTURE_AND_BUFFER_COPIES;
            }
            _ => {}
        }
        if !pass.indirect().is_empty() {
            flags |= D::INDIRECT_EXECUTION;
        }
        // wgpu binds a depth attachment for sampling only where it can stay read-only.
        if let Some(d) = pass.depth()
            && d.access == Access::Read
            && pass
                .sample()
                .iter()
                .chain(pass.input())
                .any(|e| e.resource == d.resource)
        {
            flags |= D::READ_ONLY_DEPTH_STENCIL;
        }
        let npot_mips = self.touched(p).any(|r| match self.resource_decl(r).kind {
            ResourceKind::Texture(t) => {
                t.mips > 1 && !(t.width.is_power_of_two() && t.height.is_power_of_two())
            }
            ResourceKind::Buffer(_) => false,
        });
        if npot_mips {
            flags |= D::NON_POWER_OF_TWO_MIPMAPPED_TEXTURES;
        }
        flags
    }

    /// Per resource: whether a live pass writes it as read-write storage.
    fn read_write_storage(&self) -> Vec<bool> {
        let mut rw = vec![false; self.resource_decls.len()];
        for p in self.live_passes() {
            for e in self.pass_decl(p).storage_read_write() {
                rw[e.resource.index()] = true;
            }
        }
        rw
    }

    /// The features resource `r` needs (a live one), with `read_write` storage use or not.
    fn resource_features(&self, r: usize, read_write: bool) -> wgpu::Features {
        let (ResourceKind::Texture(t), ResourceUsage::Texture(usage)) =
            (self.resource_decls[r].kind, self.resources[r].usage)
        else {
            return wgpu::Features::empty();
        };
        let mut features = t.format.required_features();
        let guaranteed = t.format.guaranteed_format_features(features);
        // Memoryless is a property of the attachment, not of the format's capabilities.
        let usage = usage - wgpu::TextureUsages::TRANSIENT_ATTACHMENT;
        let specific = !guaranteed.allowed_usages.contains(usage)
            || !guaranteed.flags.sample_count_supported(t.samples)
            || (read_write
                && !guaranteed
                    .flags
                    .contains(wgpu::TextureFormatFeatureFlags::STORAGE_READ_WRITE));
        if specific {
            features |= wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES;
        }
        features
    }
}

fn texture_format(decl: &ResourceDecl) -> Option<wgpu::TextureFormat> {
    match decl.kind {
        ResourceKind::Texture(t) => Some(t.format),
        ResourceKind::Buffer(_) => None,
    }
}

/// Whether a copy pass names a depth or stencil texture and a buffer among its copies.
fn copies_depth_and_buffer(pass: PassRef<'_>, resources: &[ResourceDecl]) -> bool {
    let copies = || pass.copy_src().iter().chain(pass.copy_dst());
    let kind = |r: ResourceId| resources[r.index()].kind;
    copies().any(|e| matches!(kind(e.resource), ResourceKind::Texture(t) if t.format.is_depth_stencil_format()))
        && copies().any(|e| matches!(kind(e.resource), ResourceKind::Buffer(_)))
}
