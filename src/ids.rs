//! Typed indices: a pass, a resource, a group and a physical resource are numbered apart, so one
//! cannot stand for another.

use std::fmt;

macro_rules! id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
        #[serde(transparent)]
        pub struct $name(pub(crate) u32);

        impl $name {
            /// The position in its table.
            pub fn index(self) -> usize {
                self.0 as usize
            }

            /// The id at `index` of its table. Looking up an id beyond the table panics.
            pub fn new(index: usize) -> Self {
                $name(index as u32)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

id!(
    /// A pass, numbered in declaration order.
    PassId
);
id!(
    /// A resource, numbered in declaration order.
    ResourceId
);
id!(
    /// A group of the plan, numbered in execution order.
    GroupId
);
id!(
    /// A pooled physical texture or buffer of the plan.
    PhysicalId
);
