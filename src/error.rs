//! Typed errors: every way a graph can be wrong, each naming the pass and resource involved.

use std::fmt;

/// Everything that can be wrong with a declared graph or its description.
///
/// Each variant names the pass and the resource involved, so that a message points at the line of
/// the frame setup to fix. [`GraphError::kind`] gives the stable snake_case name the tool prints.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GraphError {
    /// The description is malformed: bad JSON, an unknown field, a wrong type or an impossible value.
    #[error("{}{message}", owner_prefix(pass, resource))]
    InvalidDescription {
        /// The pass whose declaration is wrong, when the error is about one pass.
        pass: Option<String>,
        /// The resource whose declaration is wrong, when the error is about one resource.
        resource: Option<String>,
        /// What is wrong, with the JSON line and column where known.
        message: String,
    },
    /// A pass names a resource that the graph does not declare.
    #[error("pass `{pass}` uses `{resource}`, which is not a declared resource")]
    UnknownResource {
        /// The pass that names the resource.
        pass: String,
        /// The unknown name (or a description of a handle from another graph).
        resource: String,
    },
    /// Two resources, or two passes, share one name.
    #[error("{what} name `{name}` is declared twice")]
    DuplicateName {
        /// `"resource"` or `"pass"`.
        what: &'static str,
        /// The repeated name.
        name: String,
    },
    /// A pass reads a resource whose contents nobody has written (and that has no clear value).
    #[error("pass `{pass}` reads `{resource}` ({access}) before anything writes it{hint}")]
    ReadBeforeWrite {
        /// The reading pass.
        pass: String,
        /// The resource read.
        resource: String,
        /// How the pass reads it (`sample`, `read_write`, ...).
        access: &'static str,
        /// Extra advice, possibly empty.
        hint: String,
    },
    /// A texture is written as an attachment (or otherwise) and read in another way in the same pass.
    #[error(
        "pass `{pass}` writes `{resource}` and also uses it as {other}: a pass cannot read, or write another way, what it is writing"
    )]
    Feedback {
        /// The pass.
        pass: String,
        /// The resource used both ways.
        resource: String,
        /// The second use (`sample`, `input`, ...).
        other: &'static str,
    },
    /// A pass's attachments do not all have one size.
    #[error(
        "pass `{pass}`: attachment `{resource}` is {found} but `{first}` is {expected}; all attachments of a pass share one size"
    )]
    SizeMismatch {
        /// The pass.
        pass: String,
        /// The attachment that differs.
        resource: String,
        /// The first attachment of the pass.
        first: String,
        /// Size of `first`, as `WxHxL`.
        expected: String,
        /// Size of `resource`.
        found: String,
    },
    /// A pass's attachments do not all have one sample count.
    #[error(
        "pass `{pass}`: attachment `{resource}` has {found} samples but `{first}` has {expected}"
    )]
    SampleCountMismatch {
        /// The pass.
        pass: String,
        /// The attachment that differs.
        resource: String,
        /// The first attachment of the pass.
        first: String,
        /// Sample count of `first`.
        expected: u32,
        /// Sample count of `resource`.
        found: u32,
    },
    /// A format that does not fit its use: depth as colour or the reverse, a non-renderable format,
    /// a buffer used as a texture or the reverse.
    #[error("{}`{resource}`: {message}", pass_prefix(pass))]
    FormatMismatch {
        /// The pass, when the mismatch is in a pass.
        pass: Option<String>,
        /// The resource.
        resource: String,
        /// What does not fit.
        message: String,
    },
    /// A resolve target that cannot receive the resolve.
    #[error("pass `{pass}` resolves `{resource}` into `{target}`: {message}")]
    ResolveMismatch {
        /// The pass.
        pass: String,
        /// The multisampled attachment.
        resource: String,
        /// The resolve target.
        target: String,
        /// What differs.
        message: String,
    },
    /// A mip or layer outside the texture, or a subresource named on a buffer.
    #[error("pass `{pass}` uses `{resource}`: {message}")]
    InvalidSubresource {
        /// The pass.
        pass: String,
        /// The resource.
        resource: String,
        /// What is out of range.
        message: String,
    },
    /// The plan needs more of the device than the limits given to
    /// [`CompileOptions::with_limits`](crate::CompileOptions::with_limits): the first declared
    /// pass over a limit.
    #[error(
        "pass `{pass}` needs `{limit}` {needed}, more than the {given} given{}{detail}",
        resource_suffix(resource)
    )]
    ExceedsLimit {
        /// The first declared pass over a limit.
        pass: String,
        /// The texture or buffer that needs it, when one does.
        resource: Option<String>,
        /// The `wgpu::Limits` field, e.g. `max_color_attachment_bytes_per_sample`.
        limit: &'static str,
        /// What the pass needs.
        needed: u64,
        /// What the limits give.
        given: u64,
        /// For colour bytes: each slot's format and cost, and a slot order that fits where one
        /// exists; possibly empty.
        detail: String,
    },
    /// An access that does not fit its slot or its pass type.
    #[error("pass `{pass}`{}: {message}", resource_suffix(resource))]
    InvalidAccess {
        /// The pass.
        pass: String,
        /// The resource, when one is involved.
        resource: Option<String>,
        /// What is not allowed.
        message: String,
    },
}

fn owner_prefix(pass: &Option<String>, resource: &Option<String>) -> String {
    match (pass, resource) {
        (Some(p), Some(r)) => format!("pass `{p}`, resource `{r}`: "),
        (Some(p), None) => format!("pass `{p}`: "),
        (None, Some(r)) => format!("resource `{r}`: "),
        (None, None) => String::new(),
    }
}

fn pass_prefix(pass: &Option<String>) -> String {
    match pass {
        Some(p) => format!("pass `{p}` uses "),
        None => String::new(),
    }
}

fn resource_suffix(resource: &Option<String>) -> String {
    match resource {
        Some(r) => format!(", resource `{r}`"),
        None => String::new(),
    }
}

/// The kind of a [`GraphError`], as the tool prints it (`error: <kind>: <message>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// See [`GraphError::InvalidDescription`].
    InvalidDescription,
    /// See [`GraphError::UnknownResource`].
    UnknownResource,
    /// See [`GraphError::DuplicateName`].
    DuplicateName,
    /// See [`GraphError::ReadBeforeWrite`].
    ReadBeforeWrite,
    /// See [`GraphError::Feedback`].
    Feedback,
    /// See [`GraphError::SizeMismatch`].
    SizeMismatch,
    /// See [`GraphError::SampleCountMismatch`].
    SampleCountMismatch,
    /// See [`GraphError::FormatMismatch`].
    FormatMismatch,
    /// See [`GraphError::ResolveMismatch`].
    ResolveMismatch,
    /// See [`GraphError::InvalidAccess`].
    InvalidAccess,
    /// See [`GraphError::InvalidSubresource`].
    InvalidSubresource,
    /// See [`GraphError::ExceedsLimit`].
    ExceedsLimit,
}

impl ErrorKind {
    /// The snake_case name of the kind.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::InvalidDescription => "invalid_description",
            ErrorKind::UnknownResource => "unknown_resource",
            ErrorKind::DuplicateName => "duplicate_name",
            ErrorKind::ReadBeforeWrite => "read_before_write",
            ErrorKind::Feedback => "feedback",
            ErrorKind::SizeMismatch => "size_mismatch",
            ErrorKind::SampleCountMismatch => "sample_count_mismatch",
            ErrorKind::FormatMismatch => "format_mismatch",
            ErrorKind::ResolveMismatch => "resolve_mismatch",
            ErrorKind::InvalidAccess => "invalid_access",
            ErrorKind::InvalidSubresource => "invalid_subresource",
            ErrorKind::ExceedsLimit => "exceeds_limit",
        }
    }

    /// Every kind, in the order the guide lists them: the one list the crate, its tests and
    /// fuzz targets share.
    pub const ALL: [ErrorKind; 12] = [
        ErrorKind::InvalidDescription,
        ErrorKind::UnknownResource,
        ErrorKind::DuplicateName,
        ErrorKind::ReadBeforeWrite,
        ErrorKind::Feedback,
        ErrorKind::SizeMismatch,
        ErrorKind::SampleCountMismatch,
        ErrorKind::FormatMismatch,
        ErrorKind::ResolveMismatch,
        ErrorKind::InvalidAccess,
        ErrorKind::InvalidSubresource,
        ErrorKind::ExceedsLimit,
    ];
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl GraphError {
    /// The kind of this error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            GraphError::InvalidDescription { .. } => ErrorKind::InvalidDescription,
            GraphError::UnknownResource { .. } => ErrorKind::UnknownResource,
            GraphError::DuplicateName { .. } => ErrorKind::DuplicateName,
            GraphError::ReadBeforeWrite { .. } => ErrorKind::ReadBeforeWrite,
            GraphError::Feedback { .. } => ErrorKind::Feedback,
            GraphError::SizeMismatch { .. } => ErrorKind::SizeMismatch,
            GraphError::SampleCountMismatch { .. } => ErrorKind::SampleCountMismatch,
            GraphError::FormatMismatch { .. } => ErrorKind::FormatMismatch,
            GraphError::ResolveMismatch { .. } => ErrorKind::ResolveMismatch,
            GraphError::InvalidAccess { .. } => ErrorKind::InvalidAccess,
            GraphError::InvalidSubresource { .. } => ErrorKind::InvalidSubresource,
            GraphError::ExceedsLimit { .. } => ErrorKind::ExceedsLimit,
        }
    }

    /// The pass the error is about, if any.
    pub fn pass(&self) -> Option<&str> {
        match self {
            GraphError::UnknownResource { pass, .. }
            | GraphError::ReadBeforeWrite { pass, .. }
            | GraphError::Feedback { pass, .. }
            | GraphError::SizeMismatch { pass, .. }
            | GraphError::SampleCountMismatch { pass, .. }
            | GraphError::ResolveMismatch { pass, .. }
            | GraphError::InvalidSubresource { pass, .. }
            | GraphError::InvalidAccess { pass, .. }
            | GraphError::ExceedsLimit { pass, .. } => Some(pass),
            GraphError::FormatMismatch { pass, .. }
            | GraphError::InvalidDescription { pass, .. } => pass.as_deref(),
            GraphError::DuplicateName { what: "pass", name } => Some(name),
            GraphError::DuplicateName { .. } => None,
        }
    }

    /// The resource the error is about, if any.
    pub fn resource(&self) -> Option<&str> {
        match self {
            GraphError::UnknownResource { resource, .. }
            | GraphError::ReadBeforeWrite { resource, .. }
            | GraphError::Feedback { resource, .. }
            | GraphError::SizeMismatch { resource, .. }
            | GraphError::SampleCountMismatch { resource, .. }
            | GraphError::FormatMismatch { resource, .. }
            | GraphError::ResolveMismatch { resource, .. }
            | GraphError::InvalidSubresource { resource, .. } => Some(resource),
            GraphError::InvalidAccess { resource, .. }
            | GraphError::ExceedsLimit { resource, .. }
            | GraphError::InvalidDescription { resource, .. } => resource.as_deref(),
            GraphError::DuplicateName {
                what: "resource",
                name,
            } => Some(name),
            GraphError::DuplicateName { .. } => None,
        }
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        GraphError::InvalidDescription {
            pass: None,
            resource: None,
            message: message.into(),
        }
    }

    /// A malformed declaration of one resource.
    pub(crate) fn invalid_resource(resource: &str, message: impl Into<String>) -> Self {
        GraphError::InvalidDescription {
            pass: None,
            resource: Some(resource.to_owned()),
            message: message.into(),
        }
    }

    /// A malformed declaration of one pass.
    pub(crate) fn invalid_pass(pass: &str, message: impl Into<String>) -> Self {
        GraphError::InvalidDescription {
            pass: Some(pass.to_owned()),
            resource: None,
            message: message.into(),
        }
    }

    /// The error as the tool's JSON object: `{"error": {"kind", "pass", "resource", "message"}}`.
    pub fn to_json(&self) -> String {
        #[derive(serde::Serialize)]
        struct Body<'e> {
            kind: &'static str,
            pass: Option<&'e str>,
            resource: Option<&'e str>,
            message: String,
        }
        #[derive(serde::Serialize)]
        struct Wrapper<'e> {
            error: Body<'e>,
        }
        let error = Body {
            kind: self.kind().as_str(),
            pass: self.pass(),
            resource: self.resource(),
            message: self.to_string(),
        };
        serde_json::to_string(&Wrapper { error }).expect("errors always serialize")
    }
}
