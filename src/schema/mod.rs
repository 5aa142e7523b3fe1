//! Schema compatibility: the strategy a caller picks, the typed errors, and the seam every
//! format plugs into ([`Format`]: detect, compare, locate). The verdict model shared by every
//! format is in [`verdict`]; each format's walker and rules table live in their own module
//! (`json_schema`, `avro`, `protobuf`). Nothing here reads files or prints: a format that
//! imports other files is handed them through [`Files`].

pub mod avro;
pub mod explain;
pub mod format;
pub mod json_schema;
pub mod located;
pub mod protobuf;
pub mod verdict;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub use explain::explain;
pub use format::{Document, Files, Format, Undetected};
pub use protobuf::ProtoRules;
pub use verdict::{Change, Effect, Op, OpKind, Rule, Verdict, judge};

/// How deep a schema may nest (containers in its text, and schema nesting plus `$ref` hops in
/// a walk) before it is refused with [`Error::TooDeep`]: the same limit for every format and for
/// front matter. Real schemas stay far below it; the limit exists so a hostile or generated
/// document is refused cleanly instead of overflowing the stack.
pub const MAX_DEPTH: usize = 128;

/// The deepest JSON text serde_json parses: it refuses the 128th nested container. Reports of
/// JSON text nested too deep name this limit.
pub(crate) const JSON_TEXT_DEPTH: usize = MAX_DEPTH - 1;

/// Knobs of a comparison that do not depend on the strategy. Each format reads the ones that
/// concern it and ignores the rest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    /// Which `buf breaking` category judges Protobuf changes.
    pub proto_rules: ProtoRules,
}

/// Which questions the compatibility check asks (Confluent Schema Registry meanings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// A reader on the new schema must accept data written with the old one.
    Backward,
    /// A reader on the old schema must accept data written with the new one.
    Forward,
    /// Both of the above; the default because a review tool should protect both sides.
    #[default]
    Full,
    /// Report changes, never call anything breaking.
    None,
    /// Backward against every earlier schema of the message, not only the baseline's.
    BackwardTransitive,
    /// Forward against every earlier schema of the message.
    ForwardTransitive,
    /// Full against every earlier schema of the message.
    FullTransitive,
}

impl Strategy {
    /// The four questions a single comparison answers (the transitive strategies ask them of
    /// more comparisons).
    pub const ALL: [Strategy; 4] = [
        Strategy::Backward,
        Strategy::Forward,
        Strategy::Full,
        Strategy::None,
    ];

    /// Every strategy, transitive ones included.
    pub const NAMED: [Strategy; 7] = [
        Strategy::Backward,
        Strategy::Forward,
        Strategy::Full,
        Strategy::None,
        Strategy::BackwardTransitive,
        Strategy::ForwardTransitive,
        Strategy::FullTransitive,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::Backward => "backward",
            Strategy::Forward => "forward",
            Strategy::Full => "full",
            Strategy::None => "none",
            Strategy::BackwardTransitive => "backward-transitive",
            Strategy::ForwardTransitive => "forward-transitive",
            Strategy::FullTransitive => "full-transitive",
        }
    }

    /// The question one comparison asks: the strategy without `-transitive`.
    pub fn single(self) -> Strategy {
        match self {
            Strategy::BackwardTransitive => Strategy::Backward,
            Strategy::ForwardTransitive => Strategy::Forward,
            Strategy::FullTransitive => Strategy::Full,
            other => other,
        }
    }

    /// Whether the candidate is also compared with every earlier schema of the message.
    pub fn is_transitive(self) -> bool {
        self != self.single()
    }

    /// Whether this strategy asks the backward question (new reader, old data).
    pub fn checks_backward(self) -> bool {
        matches!(self.single(), Strategy::Backward | Strategy::Full)
    }

    /// Whether this strategy asks the forward question (old reader, new data).
    pub fn checks_forward(self) -> bool {
        matches!(self.single(), Strategy::Forward | Strategy::Full)
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A strategy name that is not one of the known ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown strategy `{}`: use one of backward, forward, full, none, backward-transitive, forward-transitive, full-transitive",
    crate::catalog::escape_text(.0)
)]
pub struct UnknownStrategy(pub String);

impl FromStr for Strategy {
    type Err = UnknownStrategy;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Strategy::NAMED
            .into_iter()
            .find(|strategy| strategy.as_str() == text)
            .ok_or_else(|| UnknownStrategy(text.to_owned()))
    }
}

/// Which side of a message exchange is hurt by a breaking change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Readers still on the old schema fail on new messages.
    Forward,
    /// Readers on the new schema fail on old messages (replay).
    Backward,
    /// Both; only possible under [`Strategy::Full`].
    Both,
}

impl Direction {
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Forward => "forward",
            Direction::Backward => "backward",
            Direction::Both => "both",
        }
    }

    /// The direction for a pair of "breaks backward" / "breaks forward" flags, if any.
    pub fn from_flags(backward: bool, forward: bool) -> Option<Direction> {
        match (backward, forward) {
            (true, true) => Some(Direction::Both),
            (true, false) => Some(Direction::Backward),
            (false, true) => Some(Direction::Forward),
            (false, false) => None,
        }
    }
}

/// Everything that stops a schema comparison from producing a verdict.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The text does not parse in its syntax (JSON, YAML, ...).
    #[error("invalid {syntax} at line {line}, column {column}: {message}")]
    Parse {
        format: Format,
        /// The file, as the caller named it in its [`Document`].
        file: String,
        syntax: &'static str,
        line: usize,
        column: usize,
        message: String,
    },
    /// It parses in its syntax but breaks a rule of the format: for Avro an unknown named type,
    /// a default of the wrong type, duplicate field names, two union branches of one type, an
    /// invalid name or symbol.
    #[error("invalid {format} schema at line {line}: {message}")]
    Invalid {
        format: Format,
        /// The file, as the caller named it in its [`Document`].
        file: String,
        line: usize,
        message: String,
    },
    /// It parses, but it is not a schema of the format (an example payload, say).
    #[error("{}", not_a_schema(*format))]
    NotASchema { format: Format },
    /// A file named as JSON Schema holds an Avro schema in Avro's JSON form (`"type":
    /// "record"`): which of the two it is must be declared, never guessed.
    #[error(
        "an Avro schema (`\"type\": \"{type_name}\"`), not a JSON Schema: declare it Avro (`format: avro` on its schema entry; `--schema-format avro` for `catalog-diff schema`)"
    )]
    AvroForm { type_name: String },
    /// It is written in a form of the format that we cannot read yet (Protobuf editions): a
    /// limit of ours, not a fault of the file.
    #[error("{what} (line {line}) cannot be read yet")]
    Unsupported {
        format: Format,
        /// The file, as the caller named it in its [`Document`].
        file: String,
        line: usize,
        column: usize,
        /// What the file uses, as a reader would name it.
        what: String,
    },
    /// Nesting (or a chain of `$ref`s) deeper than [`MAX_DEPTH`].
    #[error(
        "schema nests deeper than {limit} levels at {path}; flatten it (fewer nested levels, or a shorter chain of `$ref`s)"
    )]
    TooDeep { path: String, limit: usize },
    /// A change reaches what a reference names that the comparison does not follow (JSON
    /// Schema: a `$ref` to an `$anchor`, `$dynamicRef`, a `$ref` inside `then`, ...), or such a
    /// reference appears, goes or moves: the walk cannot see what changed behind it.
    #[error("{}", unfollowed(keyword, reference, at, *side))]
    Unfollowed {
        keyword: &'static str,
        reference: String,
        /// JSON pointer of the node that makes the reference.
        at: String,
        /// The side it is only on (`before`, `after`); `None` when it is on both.
        side: Option<&'static str>,
        /// What the walk found, then the hidden change as a `keyword.changed`: a break among
        /// what it found stands, with the hidden change beside it.
        walked: Box<[verdict::Change]>,
    },
    /// A file imports another that is neither built in nor among the files at hand.
    #[error(
        "`{file}` imports `{import}` at line {line}, which is not in the same revision (looked beside `{file}`, in the schema's own folder and at the catalog root)"
    )]
    UnresolvedImport {
        format: Format,
        /// The importing file.
        file: String,
        /// The import as written.
        import: String,
        /// Where the import statement starts in the importing file.
        line: usize,
        column: usize,
    },
}

fn unfollowed(keyword: &str, reference: &str, at: &str, side: Option<&str>) -> String {
    let at = if at.is_empty() { "/" } else { at };
    let what = match side {
        None => "what it names differs between the two schemas".to_owned(),
        Some(side) => format!("it is only in the {side} schema"),
    };
    format!(
        "`{keyword}` `{reference}` at {at} is a reference catalog-diff does not follow, and {what}: the change cannot be judged; review it by hand"
    )
}

fn not_a_schema(format: Format) -> &'static str {
    match format {
        Format::JsonSchema => {
            "not a JSON Schema: expected a boolean, an object with at least one of $schema, type, properties, items, required, enum, oneOf, anyOf, allOf, $ref, definitions, $defs, or one with annotations only (title, description, ...) or none"
        }
        Format::Avro => {
            "not an Avro schema: expected a type name, an object with `type` or a union array"
        }
        Format::Protobuf => "not a Protobuf file",
    }
}

/// The 1-based line and column (in characters) of byte `offset` of `text`, where an editor
/// places it.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    // A byte order mark that opens the text is no column an editor shows.
    let line_text = &before[start..];
    let columns = match start {
        0 => line_text.strip_prefix('\u{feff}').unwrap_or(line_text),
        _ => line_text,
    };
    (line, columns.chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_order_mark_opening_the_text_takes_no_column() {
        assert_eq!(line_column("\u{feff}ab", 4), (1, 2));
        assert_eq!(line_column("ab", 1), (1, 2));
        assert_eq!(line_column("\u{feff}a\n\u{feff}b", 8), (2, 2));
    }

    #[test]
    fn strategy_parses_and_rejects() {
        for strategy in Strategy::NAMED {
            assert_eq!(strategy.as_str().parse::<Strategy>(), Ok(strategy));
            assert_eq!(
                serde_json::to_value(strategy).unwrap(),
                serde_json::json!(strategy.as_str())
            );
        }
        assert!(
            Strategy::FullTransitive.checks_backward() && Strategy::FullTransitive.is_transitive()
        );
        let error = "Full".parse::<Strategy>().unwrap_err();
        assert!(error.to_string().contains("backward, forward, full, none"));
    }

    #[test]
    fn parse_errors_are_typed() {
        match json_schema::parse("s.json", "{\n  \"type\": }") {
            Err(Error::Parse { line, syntax, .. }) => assert_eq!((line, syntax), (2, "JSON")),
            other => panic!("unexpected {other:?}"),
        }
        match json_schema::parse("s.yaml", "type: [\n") {
            Err(Error::Parse { syntax, .. }) => assert_eq!(syntax, "YAML"),
            other => panic!("unexpected {other:?}"),
        }
        assert!(matches!(
            json_schema::parse("s.json", "{\"a\": 1}"),
            Err(Error::NotASchema { .. })
        ));
    }

    /// Avro's JSON form in a file named as JSON Schema is neither guessed to be Avro nor judged
    /// as a JSON Schema that reads none of its fields.
    #[test]
    fn avro_in_a_json_file_is_undetected_with_its_reason() {
        let record = r#"{"type": "record", "name": "E", "fields": [{"name": "a", "type": "int"}]}"#;
        let list = r#"{"type": "array", "items": {"type": "map", "values": "long"}}"#;
        for (path, text) in [
            ("schema.json", record),
            ("schema.yaml", "type: enum\nname: S\nsymbols: [A]\n"),
            ("list.json", list),
            (
                "union.json",
                r#"{"type": "array", "items": ["null", "string"]}"#,
            ),
        ] {
            let why = Format::detect(None, path, text).expect_err(path);
            assert!(why.reason.contains("is an Avro schema"), "{}", why.reason);
            assert!(why.reason.contains("format: avro"), "{}", why.reason);
        }
        assert_eq!(
            Format::detect(Some("avro"), "schema.json", record),
            Ok(Format::Avro)
        );
        // Declared JSON Schema, it is not judged as one either: the reason names the declaration.
        for (path, text) in [
            ("schema.avsc", record),
            ("schema.yaml", "type: fixed\nname: F\nsize: 4\n"),
        ] {
            let why = Format::detect(Some("json"), path, text).expect_err(path);
            assert!(
                why.reason
                    .contains("is declared JSON Schema (`format: json`) but is an Avro schema"),
                "{}",
                why.reason
            );
        }
        // A JSON Schema whose object has a `fields` property stays one.
        let schema = r#"{"type": "object", "fields": 1, "properties": {}}"#;
        assert_eq!(
            Format::detect(None, "schema.json", schema),
            Ok(Format::JsonSchema)
        );
        let list = r#"{"type": "array", "items": {"type": "object", "properties": {}}}"#;
        assert_eq!(
            Format::detect(None, "list.json", list),
            Ok(Format::JsonSchema)
        );
        // Declared, a JSON Schema (or a text that does not parse, named when compared) stays one.
        for text in [schema, list, "{\"type\": \"object\"", ""] {
            assert_eq!(
                Format::detect(Some("json-schema"), "schema.json", text),
                Ok(Format::JsonSchema)
            );
        }
    }
}
