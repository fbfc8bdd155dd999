//! The pass tables of [`decl`](crate::decl), at the path the modules above import them from.

pub(crate) use crate::decl::passes::{LastPass, PassRef, Passes};
