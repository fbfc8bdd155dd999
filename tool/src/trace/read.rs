//! Reading a wgpu 30 trace: `trace.ron`'s actions through wgpu-core's own types, every data
//! file they name checked, each failure a [`TraceError`] naming the file and the action.

use std::cell::Cell;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::{Deserializer as _, SeqAccess, Visitor};
use wgpu_core::command::PointerReferences;
use wgpu_core::device::trace::{Action, Data};

use super::TraceError;

/// One action of a trace, as wgpu-core 30 records it.
pub type TraceAction = Action<'static, PointerReferences>;

/// A trace read from its directory.
pub struct Trace {
    /// The directory.
    pub dir: PathBuf,
    /// Its actions in recorded order; an action's index is its place here, from 0.
    pub actions: Vec<TraceAction>,
    /// `trace.ron` has no closing bracket: the app did not drop its device (it was still running
    /// or it crashed); the actions are those recorded whole.
    pub unfinished: bool,
}

/// Reads `DIR/trace.ron` and checks that every data file it names is there.
pub fn read(dir: &Path) -> Result<Trace, TraceError> {
    let path = dir.join(wgpu_core::device::trace::FILE_NAME);
    let text = std::fs::read_to_string(&path).map_err(|e| TraceError::Io {
        path: path.clone(),
        message: e.to_string(),
    })?;
    let trimmed = text.trim_end();
    // wgpu writes `[` when the device opens, each action followed by `,`, and `]` when it drops.
    let unfinished = !trimmed.ends_with(']');
    let text = if unfinished {
        format!("{trimmed}\n]")
    } else {
        text
    };
    let actions = parse(&text, &path)?;
    for (index, action) in actions.iter().enumerate() {
        for data in data_of(action) {
            if let Data::File(name) = data
                && !dir.join(name).is_file()
            {
                return Err(TraceError::MissingDataFile {
                    file: dir.join(name),
                    action: index,
                });
            }
        }
    }
    Ok(Trace {
        dir: dir.to_owned(),
        actions,
        unfinished,
    })
}

/// The actions of `text`; an action that does not parse names its index and line.
fn parse(text: &str, path: &Path) -> Result<Vec<TraceAction>, TraceError> {
    let parsed = Cell::new(0usize);
    let mut de = ron::de::Deserializer::from_str(text).map_err(|e| TraceError::Unreadable {
        file: path.to_owned(),
        action: 0,
        line: e.span.start.line,
        message: e.code.to_string(),
    })?;
    let result = (&mut de).deserialize_seq(ActionList { parsed: &parsed });
    let result = result.and_then(|actions| de.end().map(|()| actions));
    result.map_err(|code| {
        let span = de.span_error(code.clone()).span;
        if matches!(code, ron::Error::Eof) || span.start.line >= text.lines().count() {
            TraceError::Truncated {
                file: path.to_owned(),
                action: parsed.get(),
            }
        } else {
            TraceError::Unreadable {
                file: path.to_owned(),
                action: parsed.get(),
                line: span.start.line,
                message: code.to_string(),
            }
        }
    })
}

/// The list visitor: counts the actions parsed whole, so an error names the next one.
struct ActionList<'c> {
    parsed: &'c Cell<usize>,
}

impl<'de> Visitor<'de> for ActionList<'_> {
    type Value = Vec<TraceAction>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of wgpu 30 trace actions")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut actions = Vec::new();
        while let Some(action) = seq.next_element::<TraceAction>()? {
            actions.push(action);
            self.parsed.set(actions.len());
        }
        Ok(actions)
    }
}

/// The data an action names (shader sources, buffer and texture uploads).
fn data_of(action: &TraceAction) -> Vec<&Data> {
    match action {
        Action::CreateShaderModule { data, .. }
        | Action::WriteBuffer { data, .. }
        | Action::WriteTexture { data, .. } => vec![data],
        Action::CreateShaderModulePassthrough { data, .. } => data.iter().collect(),
        _ => Vec::new(),
    }
}
