//! Schema compatibility: the strategy a caller picks, the verdict it gets back, and the typed
//! errors. The format-specific work lives below (`json_schema`: a walker that reports *what*
//! changed, and a rules table that says *whether it breaks*). Nothing here reads files or prints.

pub mod json_schema;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use json_schema::compare::{Change, OpKind};
pub use json_schema::explain::explain;
pub use json_schema::rules::{ChangeKind, judge};

/// How deep the walker goes (schema nesting plus `$ref` hops) before giving up with
/// [`Error::TooDeep`]. Real schemas stay far below this; the limit exists so a hostile or
/// generated document is refused cleanly instead of overflowing the stack.
pub const MAX_DEPTH: usize = 256;

/// Which questions the compatibility check asks (Confluent Schema Registry meanings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
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
}

impl Strategy {
    pub const ALL: [Strategy; 4] = [
        Strategy::Backward,
        Strategy::Forward,
        Strategy::Full,
        Strategy::None,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::Backward => "backward",
            Strategy::Forward => "forward",
            Strategy::Full => "full",
            Strategy::None => "none",
        }
    }

    /// Whether this strategy asks the backward question (new reader, old data).
    pub fn checks_backward(self) -> bool {
        matches!(self, Strategy::Backward | Strategy::Full)
    }

    /// Whether this strategy asks the forward question (old reader, new data).
    pub fn checks_forward(self) -> bool {
        matches!(self, Strategy::Forward | Strategy::Full)
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A strategy name that is not one of backward, forward, full, none.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown strategy `{0}`: use one of backward, forward, full, none")]
pub struct UnknownStrategy(pub String);

impl FromStr for Strategy {
    type Err = UnknownStrategy;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "backward" => Ok(Strategy::Backward),
            "forward" => Ok(Strategy::Forward),
            "full" => Ok(Strategy::Full),
            "none" => Ok(Strategy::None),
            other => Err(UnknownStrategy(other.to_owned())),
        }
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

/// One judged change, as it appears in a SchemaChange's `ops` array.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Op {
    pub op: OpKind,
    /// JSON pointer (into the after document) to the node or keyword that changed.
    pub path: String,
    pub kind: ChangeKind,
    /// A sentence a person understands: what changed, then why it does or does not break.
    pub reason: String,
    /// Whether this op breaks a direction the strategy checks.
    pub breaking: bool,
}

/// The outcome of judging two schemas under one strategy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub breaking: bool,
    pub direction: Option<Direction>,
    pub ops: Vec<Op>,
}

/// Everything that stops a schema comparison from producing a verdict.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The text is not JSON at all.
    #[error("invalid JSON at line {line}, column {column}: {source}")]
    InvalidJson {
        line: usize,
        column: usize,
        #[source]
        source: serde_json::Error,
    },
    /// Valid JSON, but it uses no JSON Schema keyword (an example payload, say).
    #[error(
        "not a JSON Schema: expected a boolean or an object with at least one of $schema, type, properties, items, required, enum, oneOf, anyOf, allOf, $ref, definitions, $defs"
    )]
    NotASchema,
    /// Nesting (or a chain of `$ref`s) deeper than [`MAX_DEPTH`].
    #[error(
        "schema nests deeper than {limit} levels at {path}; flatten it or split it into definitions"
    )]
    TooDeep { path: String, limit: usize },
}

/// The keywords whose presence marks a JSON object as a JSON Schema (architecture-diff.md).
const SCHEMA_MARKERS: &[&str] = &[
    "$schema",
    "type",
    "properties",
    "items",
    "required",
    "enum",
    "oneOf",
    "anyOf",
    "allOf",
    "$ref",
    "definitions",
    "$defs",
];

/// Whether a parsed document is plausibly a JSON Schema rather than, say, an example payload.
pub fn looks_like_json_schema(value: &Value) -> bool {
    match value {
        Value::Bool(_) => true,
        Value::Object(map) => SCHEMA_MARKERS.iter().any(|key| map.contains_key(*key)),
        _ => false,
    }
}

/// Parse schema text, refusing invalid JSON and JSON that is not a schema.
pub fn parse_json_schema(text: &str) -> Result<Value, Error> {
    let value: Value = serde_json::from_str(text).map_err(|source| Error::InvalidJson {
        line: source.line(),
        column: source.column(),
        source,
    })?;
    if looks_like_json_schema(&value) {
        Ok(value)
    } else {
        Err(Error::NotASchema)
    }
}

/// Compare two JSON Schema documents and judge the changes under `strategy`.
pub fn compare_json_schema(
    before: &Value,
    after: &Value,
    strategy: Strategy,
) -> Result<Verdict, Error> {
    let changes = json_schema::compare::compare(before, after)?;
    Ok(judge(&changes, strategy))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strategy_parses_and_rejects() {
        for strategy in Strategy::ALL {
            assert_eq!(strategy.as_str().parse::<Strategy>(), Ok(strategy));
        }
        let error = "Full".parse::<Strategy>().unwrap_err();
        assert!(error.to_string().contains("backward, forward, full, none"));
    }

    #[test]
    fn schema_detection() {
        assert!(looks_like_json_schema(&json!(true)));
        assert!(looks_like_json_schema(&json!({"type": "object"})));
        assert!(looks_like_json_schema(&json!({"$defs": {}})));
        assert!(!looks_like_json_schema(&json!({"orderId": "1"})));
        assert!(!looks_like_json_schema(&json!([1, 2])));
        assert!(!looks_like_json_schema(&json!({})));
    }

    #[test]
    fn parse_errors_are_typed() {
        match parse_json_schema("{\n  \"type\": }") {
            Err(Error::InvalidJson { line, .. }) => assert_eq!(line, 2),
            other => panic!("unexpected {other:?}"),
        }
        assert!(matches!(
            parse_json_schema("{\"a\": 1}"),
            Err(Error::NotASchema)
        ));
    }

    #[test]
    fn verdict_serialises_exactly() {
        let verdict = Verdict {
            breaking: true,
            direction: Some(Direction::Forward),
            ops: vec![Op {
                op: OpKind::Remove,
                path: "/properties/customerId".into(),
                kind: ChangeKind::RequiredRemoved,
                reason: "r".into(),
                breaking: true,
            }],
        };
        assert_eq!(
            serde_json::to_string(&verdict).unwrap(),
            r#"{"breaking":true,"direction":"forward","ops":[{"op":"remove","path":"/properties/customerId","kind":"required.removed","reason":"r","breaking":true}]}"#
        );
        let none = Verdict {
            breaking: false,
            direction: None,
            ops: vec![],
        };
        assert_eq!(
            serde_json::to_string(&none).unwrap(),
            r#"{"breaking":false,"direction":null,"ops":[]}"#
        );
    }
}
