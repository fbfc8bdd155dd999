//! Deprecated aliases keep old code compiling for one minor release and behave as their
//! replacements do.

#![allow(deprecated)]

use tilegraph::ExecuteMode;
use tilegraph::helpers::Backend;

#[test]
fn from_name_aliases_parse_as_from_str_does() {
    for name in ["vulkan", "gl", "auto", "metal", ""] {
        assert_eq!(
            Backend::from_name(name),
            name.parse::<Backend>().ok(),
            "{name}"
        );
    }
    for name in ["planned", "naive", "poison", "fast"] {
        assert_eq!(
            ExecuteMode::from_name(name),
            name.parse::<ExecuteMode>().ok(),
            "{name}"
        );
    }
    assert_eq!(Backend::from_name("gl"), Some(Backend::Gl));
    assert_eq!(ExecuteMode::from_name("fast"), None);
}
