//! The compiled plan, [`CompiledGraph`]: what the compiler decided, and its accessors.

use std::sync::{Arc, OnceLock};

use super::dependencies::Reads;
use super::naive::NaiveSources;
use super::{
    Dependency, Group, PassPlan, PhysicalResource, ResourcePlan, Restructuring, Traffic, Warning,
};
use crate::decl::pass::PassKind;
use crate::decl::resource::ResourceDecl;
use crate::decl::{PassRef, Passes};
use crate::ids::GroupId;
use crate::ids::{PassId, ResourceId};
use crate::options::CompileOptions;

/// The compiled frame: every decision, ready to execute, serialize or explain.
#[derive(Debug, Clone)]
pub struct CompiledGraph {
    /// This compile's number (never 0), shared by its clones only: the executor finds the plan
    /// it lowered by it before comparing fingerprints and options.
    pub(crate) id: u64,
    pub(crate) fingerprint: u128,
    pub(crate) options: CompileOptions,
    pub(crate) pass_decls: Arc<Passes>,
    pub(crate) resource_decls: Arc<Vec<ResourceDecl>>,
    pub(crate) passes: Vec<PassPlan>,
    pub(crate) groups: Vec<Group>,
    /// Live passes in execution order.
    pub(crate) order: Vec<PassId>,
    pub(crate) restructure: Vec<Restructuring>,
    /// The plan of the declared order, compiled when first asked for (only when restructuring
    /// changed something).
    pub(crate) declared: OnceLock<Box<CompiledGraph>>,
    /// Built from `naive_sources` when first asked for.
    pub(crate) naive_groups: OnceLock<Vec<Group>>,
    pub(crate) naive_sources: NaiveSources,
    pub(crate) resources: Vec<ResourcePlan>,
    pub(crate) physical: Vec<PhysicalResource>,
    pub(crate) traffic: Traffic,
    pub(crate) warnings: Vec<Warning>,
    /// Built from `reads` when first asked for.
    pub(crate) dependencies: OnceLock<Vec<Dependency>>,
    pub(crate) reads: Reads,
    /// How the reports name a [`Remedy`](super::Remedy) ([`Self::name_remedies`]).
    pub(crate) remedy_names: fn(super::Remedy) -> &'static str,
}

impl CompiledGraph {
    /// Names the switches warnings and advice point to as `names` does in every report
    /// (table, JSON, HTML, DOT): a command-line tool names its flags. By default the reports
    /// name the Rust API ([`Remedy::rust_api`](super::Remedy::rust_api)).
    pub fn name_remedies(&mut self, names: fn(super::Remedy) -> &'static str) {
        self.remedy_names = names;
    }

    /// Fingerprint of the graph this plan was compiled from.
    pub fn fingerprint(&self) -> u128 {
        self.fingerprint
    }

    /// The options the plan was compiled with. The plan holds `LoadOp::DontCare` only when
    /// `options().dont_care` carries the caller's token, which the executor hands on to wgpu.
    pub fn options(&self) -> &CompileOptions {
        &self.options
    }

    /// Per declared pass: culled or its group.
    pub fn passes(&self) -> &[PassPlan] {
        &self.passes
    }

    /// Groups in execution order.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// Live passes in execution order (folded copies are not among them).
    pub fn order(&self) -> &[PassId] {
        &self.order
    }

    /// What restructuring changed, in the order it decided ([guide](crate::guide#restructuring)):
    /// empty for a plan of the declared order.
    pub fn restructuring(&self) -> &[Restructuring] {
        &self.restructure
    }

    /// The naive plan ([guide](crate::guide#traffic-model)): every live pass its own group,
    /// `clear` where declared, `load` otherwise, `store` always. The executor's `Naive` mode
    /// records exactly these groups.
    pub fn naive_groups(&self) -> &[Group] {
        self.naive_groups.get_or_init(|| self.build_naive_groups())
    }

    /// Per declared resource: lifetime, transient, physical index, usage.
    pub fn resources(&self) -> &[ResourcePlan] {
        &self.resources
    }

    /// Pooled physical textures and buffers.
    pub fn physical(&self) -> &[PhysicalResource] {
        &self.physical
    }

    /// Attachment traffic, planned and naive.
    pub fn traffic(&self) -> &Traffic {
        &self.traffic
    }

    /// Avoidable costs found in the plan.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Every read of every declared pass (culled ones included) with the write it sees.
    pub fn dependencies(&self) -> &[Dependency] {
        self.dependencies.get_or_init(|| self.reads.dependencies())
    }

    /// Name of a declared pass.
    pub fn pass_name(&self, pass: PassId) -> &str {
        self.pass_decls.pass(pass).name()
    }

    /// Type of a declared pass.
    pub fn pass_kind(&self, pass: PassId) -> PassKind {
        self.pass_decls.at(pass.index()).kind()
    }

    /// Declaration of a pass: every access it made.
    pub fn pass_decl(&self, pass: PassId) -> PassRef<'_> {
        self.pass_decls.pass(pass)
    }

    /// Declarations of every pass, in declaration order.
    pub fn pass_decls(&self) -> &Passes {
        &self.pass_decls
    }

    /// Declaration of a resource.
    pub fn resource_decl(&self, resource: ResourceId) -> &ResourceDecl {
        &self.resource_decls[resource.index()]
    }

    /// Declarations of every resource, in declaration order.
    pub fn resource_decls(&self) -> &[ResourceDecl] {
        &self.resource_decls
    }

    /// Name of a declared resource.
    pub fn resource_name(&self, resource: ResourceId) -> &str {
        &self.resource_decls[resource.index()].name
    }

    /// The id of the pass named `name`.
    pub fn pass_id(&self, name: &str) -> Option<PassId> {
        self.pass_decls
            .iter()
            .position(|p| p.name() == name)
            .map(PassId::new)
    }

    /// The former name of [`pass_id`](Self::pass_id).
    #[deprecated(since = "0.1.0", note = "renamed `pass_id`; removed in 0.2")]
    pub fn pass_by_name(&self, name: &str) -> Option<PassId> {
        self.pass_id(name)
    }

    /// The former name of [`resource_id`](Self::resource_id).
    #[deprecated(since = "0.1.0", note = "renamed `resource_id`; removed in 0.2")]
    pub fn resource_by_name(&self, name: &str) -> Option<ResourceId> {
        self.resource_id(name)
    }

    /// The id of the resource named `name`.
    pub fn resource_id(&self, name: &str) -> Option<ResourceId> {
        self.resource_decls
            .iter()
            .position(|r| &*r.name == name)
            .map(ResourceId::new)
    }

    /// A plan's group.
    pub fn group(&self, group: GroupId) -> &Group {
        &self.groups[group.index()]
    }
}
