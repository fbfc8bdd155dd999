//! The declarations of the frame before [`RenderGraph::reset`](super::RenderGraph::reset): the
//! next frame's declarations take their names one by one, and their lists' storage.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::decl::Passes;
use crate::decl::resource::ResourceDecl;

/// Declarations whose storage the next ones reuse.
#[derive(Default)]
pub(super) struct Spare {
    resources: VecDeque<ResourceDecl>,
    pass_names: VecDeque<Arc<str>>,
}

impl Spare {
    /// Makes the declarations in `resources` and `passes` the spare ones and leaves both empty.
    /// Where a plan still shares either, the plan keeps them and a new list takes their place.
    pub(super) fn recycle(
        &mut self,
        resources: &mut Arc<Vec<ResourceDecl>>,
        passes: &mut Arc<Passes>,
    ) {
        recycle(resources, &mut self.resources);
        self.pass_names.clear();
        match Arc::get_mut(passes) {
            Some(passes) => passes.clear_into(&mut self.pass_names),
            None => *passes = Arc::default(),
        }
    }

    /// The next resource's name, `name` or, with a suffix, `name.suffix` (a history's halves).
    pub(super) fn resource_name(&mut self, name: &str, suffix: Option<&str>) -> Arc<str> {
        let spare = self.resources.pop_front().map(|r| r.name);
        same_or_new(spare, name, suffix)
    }

    /// The next pass's name.
    pub(super) fn pass_name(&mut self, name: &str) -> Arc<str> {
        same_or_new(self.pass_names.pop_front(), name, None)
    }
}

/// `spare` where it is `name` (`name.suffix` with a suffix), so that a reset graph declaring the
/// frame it declared before allocates no names; else the name made anew.
fn same_or_new(spare: Option<Arc<str>>, name: &str, suffix: Option<&str>) -> Arc<str> {
    let same = |spare: &str| match suffix {
        None => spare == name,
        Some(suffix) => spare.strip_prefix(name).and_then(|r| r.strip_prefix('.')) == Some(suffix),
    };
    match (spare, suffix) {
        (Some(spare), _) if same(&spare) => spare,
        (_, None) => name.into(),
        (_, Some(suffix)) => format!("{name}.{suffix}").into(),
    }
}

/// Makes the declarations in `decls` the spare ones and leaves `decls` empty, with the storage
/// of the spare list it replaces. Where a plan still shares `decls`, the plan keeps them and
/// `decls` becomes a new list.
fn recycle<T>(decls: &mut Arc<Vec<T>>, spare: &mut VecDeque<T>) {
    spare.clear();
    let storage = Vec::from(std::mem::take(spare));
    match Arc::get_mut(decls) {
        Some(decls) => *spare = VecDeque::from(std::mem::replace(decls, storage)),
        None => *decls = Arc::new(storage),
    }
}
