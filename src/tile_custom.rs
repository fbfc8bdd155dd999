//! Custom tile profiles: a GPU the crate does not ship, described in JSON with one of the four
//! rules and a budget of its own ([guide](crate::guide#will-it-fit-the-tile)).

use std::fmt;

use serde_json::{Map, Value};

/// How a profile counts a group and what it does past its budget: the four kinds of tiler the
/// built-in profiles model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum TileRule {
    /// Arm Mali: colour bytes a pixel against a tile buffer at 16×16; past it the tile shrinks.
    Mali,
    /// Qualcomm Adreno: colour and depth/stencil of every view against GMEM, cut into bins.
    Adreno,
    /// Apple: colour bytes a sample; past it Metal refuses the render pass.
    Apple,
    /// Imagination PowerVR: colour bytes a pixel in output registers; past them slots spill.
    PowerVr,
}

impl TileRule {
    /// The name a profile file gives the rule: `mali`, `adreno`, `apple`, `powervr`.
    pub fn as_str(self) -> &'static str {
        match self {
            TileRule::Mali => "mali",
            TileRule::Adreno => "adreno",
            TileRule::Apple => "apple",
            TileRule::PowerVr => "powervr",
        }
    }

    const ALL: [TileRule; 4] = [
        TileRule::Mali,
        TileRule::Adreno,
        TileRule::Apple,
        TileRule::PowerVr,
    ];

    /// The fields a profile of this rule takes besides `name` and `rule`: required, optional.
    fn fields(self) -> (&'static [&'static str], &'static [&'static str]) {
        match self {
            TileRule::Mali => (&["tile_buffer_bytes"], &[]),
            TileRule::Adreno => (&["gmem_bytes"], &["bin_align", "ccus", "generation"]),
            TileRule::Apple => (&["bytes_per_sample"], &[]),
            TileRule::PowerVr => (&["bytes_per_pixel"], &[]),
        }
    }
}

/// Longest name a custom profile may have, in bytes.
const NAME_MAX: usize = 32;

/// A tile profile read from a file: a rule and its budget
/// ([`TileProfile::from_json`](crate::plan::TileProfile::from_json)). `Copy`, as the built-in
/// profiles are, so compile options holding it stay `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CustomTileProfile {
    name: [u8; NAME_MAX],
    name_len: u8,
    rule: TileRule,
    budget: u64,
    bin_align: (u32, u32),
    ccus: u32,
    generation: u8,
}

impl fmt::Debug for CustomTileProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CustomTileProfile")
            .field("name", &self.name())
            .field("rule", &self.rule)
            .field("budget", &self.budget)
            .field("bin_align", &self.bin_align)
            .field("ccus", &self.ccus)
            .field("generation", &self.generation)
            .finish()
    }
}

impl CustomTileProfile {
    /// The profile's name, as the reports print it.
    pub fn name(&self) -> &str {
        // Only ever filled from a `&str` of at most NAME_MAX bytes.
        std::str::from_utf8(&self.name[..usize::from(self.name_len)]).unwrap_or("")
    }

    /// The rule it counts by.
    pub fn rule(&self) -> TileRule {
        self.rule
    }

    /// The budget in bytes, as [`TileProfile::budget`](crate::plan::TileProfile::budget) gives
    /// a built-in one's: a pixel of colour (Mali: the tile buffer ÷ 256; PowerVR), a sample of
    /// colour (Apple), the whole GMEM (Adreno).
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// Adreno: the bin's width and height alignment in pixels (turnip's `tile_align_w`,
    /// `tile_align_h`); 0 × 0 for the other rules.
    pub fn bin_align(&self) -> (u32, u32) {
        self.bin_align
    }

    /// Adreno: the CCUs, each of which keeps part of GMEM free when a resolve goes through the
    /// 2D engine (16 KiB on a 6xx, 8 KiB on a 7xx); 0 for the other rules.
    pub fn ccus(&self) -> u32 {
        self.ccus
    }

    /// Adreno: the generation, 6 (Adreno 6xx) or 7 (Adreno 7xx), whose limits turnip 25.0 uses
    /// (the largest bin, each CCU's share of GMEM); 0 for the other rules.
    pub fn generation(&self) -> u8 {
        self.generation
    }

    /// Reads a profile: `{"name", "rule", ...}` with the rule's own fields (the guide).
    pub(crate) fn from_json(json: &str, builtin: &[&str]) -> Result<Self, TileProfileError> {
        let value: Value = serde_json::from_str(json).map_err(|e| TileProfileError::Json {
            message: e.to_string(),
        })?;
        let Value::Object(map) = value else {
            return Err(TileProfileError::Json {
                message: "a profile is a JSON object".into(),
            });
        };
        let name = match map.get("name") {
            Some(Value::String(s)) => s.as_str(),
            Some(_) => return Err(invalid("name", "a string")),
            None => return Err(TileProfileError::MissingField { field: "name" }),
        };
        check_name(name, builtin)?;
        let rule = match map.get("rule") {
            Some(Value::String(s)) => TileRule::ALL
                .into_iter()
                .find(|r| r.as_str() == s)
                .ok_or_else(|| TileProfileError::UnknownRule { rule: s.clone() })?,
            Some(_) => return Err(invalid("rule", "a string")),
            None => return Err(TileProfileError::MissingField { field: "rule" }),
        };
        let (required, optional) = rule.fields();
        if let Some(field) = map.keys().find(|k| {
            let k = k.as_str();
            k != "name" && k != "rule" && !required.contains(&k) && !optional.contains(&k)
        }) {
            return Err(TileProfileError::UnexpectedField {
                field: field.clone(),
                rule: rule.as_str(),
            });
        }
        let mut profile = CustomTileProfile {
            name: [0; NAME_MAX],
            name_len: name.len() as u8,
            rule,
            budget: 0,
            bin_align: (0, 0),
            ccus: 0,
            generation: 0,
        };
        profile.name[..name.len()].copy_from_slice(name.as_bytes());
        profile.budget = match rule {
            TileRule::Mali => {
                let bytes = number(&map, "tile_buffer_bytes", 256..=1 << 20)?;
                if !bytes.is_multiple_of(256) {
                    return Err(invalid(
                        "tile_buffer_bytes",
                        "a multiple of 256 (the bytes of a 16x16 tile)",
                    ));
                }
                bytes / 256
            }
            TileRule::Adreno => number(&map, "gmem_bytes", 64 * 1024..=64 << 20)?,
            TileRule::Apple => number(&map, "bytes_per_sample", 1..=1024)?,
            TileRule::PowerVr => number(&map, "bytes_per_pixel", 1..=1024)?,
        };
        if rule == TileRule::Adreno {
            profile.bin_align = bin_align(&map)?;
            profile.ccus = match map.get("ccus") {
                None => 2,
                Some(_) => number(&map, "ccus", 1..=16)? as u32,
            };
            profile.generation = match map.get("generation") {
                None => 6,
                Some(_) => number(&map, "generation", 6..=7)? as u8,
            };
        }
        Ok(profile)
    }
}

/// A name of 1 to 32 bytes of lowercase letters, digits, `-`, `_` and `.`, not a built-in's.
fn check_name(name: &str, builtin: &[&str]) -> Result<(), TileProfileError> {
    let bad = |message: &str| TileProfileError::InvalidName {
        name: name.to_owned(),
        message: message.to_owned(),
    };
    if name.is_empty() || name.len() > NAME_MAX {
        return Err(bad("1 to 32 bytes"));
    }
    let allowed = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || "-_.".contains(c);
    if !name.chars().all(allowed) {
        return Err(bad("lowercase letters, digits, `-`, `_` and `.` only"));
    }
    if builtin.contains(&name) {
        return Err(bad("a built-in profile's name"));
    }
    Ok(())
}

fn invalid(field: &'static str, expected: &str) -> TileProfileError {
    TileProfileError::InvalidValue {
        field,
        message: format!("must be {expected}"),
    }
}

/// A required whole number in `range`.
fn number(
    map: &Map<String, Value>,
    field: &'static str,
    range: std::ops::RangeInclusive<u64>,
) -> Result<u64, TileProfileError> {
    let value = map
        .get(field)
        .ok_or(TileProfileError::MissingField { field })?;
    value.as_u64().filter(|n| range.contains(n)).ok_or_else(|| {
        invalid(
            field,
            &format!(
                "a whole number from {} to {}, not {value}",
                range.start(),
                range.end()
            ),
        )
    })
}

/// Adreno's `bin_align`: `[w, h]`, each a multiple of 16 from 16 to 512; `[32, 16]` (the
/// a630's) if absent.
fn bin_align(map: &Map<String, Value>) -> Result<(u32, u32), TileProfileError> {
    let Some(value) = map.get("bin_align") else {
        return Ok((32, 16));
    };
    let expected = "[w, h], each a multiple of 16 from 16 to 512";
    let pair = value
        .as_array()
        .filter(|a| a.len() == 2)
        .ok_or_else(|| invalid("bin_align", expected))?;
    let side = |v: &Value| {
        v.as_u64()
            .filter(|n| (16..=512).contains(n) && n.is_multiple_of(16))
            .map(|n| n as u32)
            .ok_or_else(|| invalid("bin_align", expected))
    };
    Ok((side(&pair[0])?, side(&pair[1])?))
}

/// Why a tile profile file was refused ([`TileProfile::from_json`](crate::plan::TileProfile::from_json)).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TileProfileError {
    /// Not JSON, or not an object.
    #[error("a tile profile is a JSON object: {message}")]
    Json {
        /// What the parser said.
        message: String,
    },
    /// A field the profile needs is missing.
    #[error("the tile profile has no `{field}`")]
    MissingField {
        /// The field.
        field: &'static str,
    },
    /// `rule` names no rule.
    #[error("unknown tile rule `{rule}` (one of mali, adreno, apple, powervr)")]
    UnknownRule {
        /// What the file said.
        rule: String,
    },
    /// A field this rule does not take (a typo, or another rule's field).
    #[error("a tile profile of rule `{rule}` has no field `{field}`")]
    UnexpectedField {
        /// The field.
        field: String,
        /// The profile's rule.
        rule: &'static str,
    },
    /// A field's value is out of range or of the wrong type.
    #[error("the tile profile's `{field}` {message}")]
    InvalidValue {
        /// The field.
        field: &'static str,
        /// What it must be.
        message: String,
    },
    /// The name is empty, too long, has other characters, or is a built-in profile's.
    #[error("tile profile name `{name}`: {message}")]
    InvalidName {
        /// The name given.
        name: String,
        /// What is wrong with it.
        message: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Result<CustomTileProfile, TileProfileError> {
        CustomTileProfile::from_json(json, &["adreno-650"])
    }

    #[test]
    fn each_rule_reads_its_own_budget() {
        let xr2 = read(
            r#"{"name": "xr2", "rule": "adreno", "gmem_bytes": 1048576, "bin_align": [96, 16], "ccus": 2}"#,
        )
        .unwrap();
        assert_eq!(
            (
                xr2.name(),
                xr2.rule(),
                xr2.budget(),
                xr2.bin_align(),
                xr2.ccus()
            ),
            ("xr2", TileRule::Adreno, 1 << 20, (96, 16), 2)
        );
        let mali = read(r#"{"name": "g57", "rule": "mali", "tile_buffer_bytes": 8192}"#).unwrap();
        assert_eq!((mali.budget(), mali.bin_align()), (32, (0, 0)));
        let apple = read(r#"{"name": "m1", "rule": "apple", "bytes_per_sample": 64}"#).unwrap();
        assert_eq!(apple.budget(), 64);
        let pvr = read(r#"{"name": "bxm", "rule": "powervr", "bytes_per_pixel": 32}"#).unwrap();
        assert_eq!(pvr.budget(), 32);
    }

    #[test]
    fn bad_profiles_are_typed_errors_naming_what_is_wrong() {
        use TileProfileError as E;
        type Check = fn(&E) -> bool;
        let cases: [(&str, Check); 9] = [
            ("[1]", |e| matches!(e, E::Json { .. })),
            (r#"{"rule": "mali"}"#, |e| {
                matches!(e, E::MissingField { field: "name" })
            }),
            (r#"{"name": "x", "rule": "tbdr"}"#, |e| {
                matches!(e, E::UnknownRule { .. })
            }),
            (r#"{"name": "x", "rule": "mali"}"#, |e| {
                matches!(
                    e,
                    E::MissingField {
                        field: "tile_buffer_bytes"
                    }
                )
            }),
            (
                r#"{"name": "x", "rule": "mali", "tile_buffer_bytes": 8192, "gmem_bytes": 1}"#,
                |e| matches!(e, E::UnexpectedField { field, rule: "mali" } if field == "gmem_bytes"),
            ),
            (
                r#"{"name": "x", "rule": "mali", "tile_buffer_bytes": 1000}"#,
                |e| {
                    matches!(
                        e,
                        E::InvalidValue {
                            field: "tile_buffer_bytes",
                            ..
                        }
                    )
                },
            ),
            (
                r#"{"name": "x", "rule": "adreno", "gmem_bytes": 1048576, "bin_align": [20, 16]}"#,
                |e| {
                    matches!(
                        e,
                        E::InvalidValue {
                            field: "bin_align",
                            ..
                        }
                    )
                },
            ),
            (
                r#"{"name": "adreno-650", "rule": "apple", "bytes_per_sample": 8}"#,
                |e| matches!(e, E::InvalidName { .. }),
            ),
            (
                r#"{"name": "My GPU", "rule": "apple", "bytes_per_sample": 8}"#,
                |e| matches!(e, E::InvalidName { .. }),
            ),
        ];
        for (json, expected) in cases {
            let e = read(json).expect_err(json);
            assert!(expected(&e), "{json}: {e:?}");
            assert!(!e.to_string().is_empty());
        }
    }
}
