//! The one seam every schema format plugs into: which format a file is ([`Format::detect`],
//! following `spec/formats.md`), how two texts of it compare ([`Format::compare`]) and where a
//! path of it sits in the text ([`Format::line_of`]). Each is one exhaustive `match`, so a new
//! format does not compile until every place that must handle it does.

use std::fmt;

use serde_json::Value;

use super::located::Located;
use super::verdict::{Change, Rule, Verdict, judge};
use super::{Error, Strategy};
use super::{avro, json_schema};

/// A schema format catalog-diff can judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    JsonSchema,
    Avro,
}

/// One schema file to compare: its path (relative to the catalog, for messages and for
/// formats that resolve imports) and its text.
#[derive(Clone, Copy, Debug)]
pub struct Document<'a> {
    pub path: &'a str,
    pub text: &'a str,
}

/// Why a file's format could not be told: the reason, in words for an unknown verdict, and
/// what went wrong, for an error that names the file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct Undetected {
    pub reason: String,
    pub kind: UndetectedKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UndetectedKind {
    /// The extension names a format but the text does not parse in it.
    Parse(Error),
    /// The text parses but is not a schema of the format its extension names.
    NotASchema(Format),
    /// A declared format or an extension we do not judge.
    Other,
}

impl Undetected {
    fn other(reason: String) -> Undetected {
        Undetected {
            reason,
            kind: UndetectedKind::Other,
        }
    }
}

/// The format a file's extension says, for the formats this build sees but cannot judge.
fn seen_by_extension(extension: &str) -> Option<&'static str> {
    match extension {
        "proto" => Some("Protobuf"),
        "graphql" | "gql" => Some("GraphQL"),
        "xsd" => Some("XML Schema"),
        _ => None,
    }
}

/// Format names a catalog may declare that we recognise but do not judge yet.
const RECOGNISED: &[&str] = &["protobuf", "proto"];

impl Format {
    /// Every format, for tables and tests.
    pub const ALL: [Format; 2] = [Format::JsonSchema, Format::Avro];

    /// The name people use for it.
    pub fn name(self) -> &'static str {
        match self {
            Format::JsonSchema => "JSON Schema",
            Format::Avro => "Avro",
        }
    }

    /// The folder name of its fixtures under `testdata/` and its `--schema-format` value.
    pub fn id(self) -> &'static str {
        match self {
            Format::JsonSchema => "json-schema",
            Format::Avro => "avro",
        }
    }

    /// Its rules table: one row per kind of change its walker reports.
    pub fn rules(self) -> &'static [Rule] {
        match self {
            Format::JsonSchema => &json_schema::rules::RULES,
            Format::Avro => &avro::rules::RULES,
        }
    }

    /// The format a `format:` value of a schema entry declares (the SDK copies it verbatim).
    pub fn declared(value: &str) -> Result<Format, Undetected> {
        let lower = value.trim().to_ascii_lowercase();
        match lower.as_str() {
            "json-schema" | "jsonschema" | "json" => Ok(Format::JsonSchema),
            // AsyncAPI spells it as a media type (`application/vnd.apache.avro+json;version=1.9.0`).
            "avro" | "avsc" | "apache-avro" => Ok(Format::Avro),
            media if media.starts_with("application/vnd.apache.avro") => Ok(Format::Avro),
            other => Err(Undetected::other(
                match RECOGNISED.iter().find(|name| **name == other) {
                    Some(_) => format!("schema format `{value}` is not compared yet"),
                    None => format!("format `{value}` is not supported"),
                },
            )),
        }
    }

    /// The format of a schema file: the declared `format` first, then the extension, then
    /// the content (`spec/formats.md`, "Detecting the format of a schema entry").
    pub fn detect(declared: Option<&str>, path: &str, text: &str) -> Result<Format, Undetected> {
        if let Some(value) = declared {
            return Format::declared(value);
        }
        let extension = path
            .rsplit_once('.')
            .map(|(_, ext)| ext.to_ascii_lowercase())
            .unwrap_or_default();
        match extension.as_str() {
            "json" | "yaml" | "yml" => match json_schema::parse(path, text) {
                Ok(_) => Ok(Format::JsonSchema),
                Err(Error::NotASchema { format }) => Err(Undetected {
                    reason: format!("`{path}` does not use JSON Schema keywords"),
                    kind: UndetectedKind::NotASchema(format),
                }),
                Err(error) => Err(Undetected {
                    reason: match &error {
                        Error::Parse {
                            syntax, message, ..
                        } => format!("`{path}` is not valid {syntax}: {message}"),
                        other => format!("`{path}`: {other}"),
                    },
                    kind: UndetectedKind::Parse(error),
                }),
            },
            // The text is parsed (and any error reported with its line) when it is compared.
            "avsc" | "avro" => Ok(Format::Avro),
            _ => Err(Undetected::other(match seen_by_extension(&extension) {
                Some(name) => {
                    format!("`{path}` is {name} (by its extension), which cannot be judged yet")
                }
                None => format!("`{path}` is not a JSON Schema or Avro file"),
            })),
        }
    }

    /// The changes between two texts of this format, unjudged.
    pub fn changes(self, before: Document<'_>, after: Document<'_>) -> Result<Vec<Change>, Error> {
        match self {
            Format::JsonSchema => {
                let old = json_schema::parse_text(before.path, before.text)?;
                let new = json_schema::parse_text(after.path, after.text)?;
                json_schema::changes(&old, &new)
            }
            Format::Avro => {
                let old = avro::parse(before.path, before.text)?;
                let new = avro::parse(after.path, after.text)?;
                avro::changes(&old, &new)
            }
        }
    }

    /// Whether a text parses as a schema of this format: the error [`Format::compare`] gives
    /// for it, if any (to tell which side of a failed comparison is at fault).
    pub fn check(self, document: Document<'_>) -> Result<(), Error> {
        match self {
            Format::JsonSchema => json_schema::parse_text(document.path, document.text).map(drop),
            Format::Avro => avro::parse(document.path, document.text).map(drop),
        }
    }

    /// Compare two texts of this format and judge the changes under `strategy`.
    pub fn compare(
        self,
        before: Document<'_>,
        after: Document<'_>,
        strategy: Strategy,
    ) -> Result<Verdict, Error> {
        Ok(judge(self.changes(before, after)?, strategy))
    }

    /// The 1-based line where the node an op path names starts in `text` (1 when it cannot
    /// be placed).
    pub fn line_of(self, text: &str, path: &str) -> usize {
        match self {
            Format::JsonSchema => Located::parse(text).map_or(1, |root| root.pointer_line(path)),
            Format::Avro => avro::line_of(text, path),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether a parsed document is plausibly a JSON Schema rather than, say, an example payload.
pub fn looks_like_json_schema(value: &Value) -> bool {
    json_schema::looks_like_schema(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_formats_win_and_are_case_insensitive() {
        assert_eq!(
            Format::detect(Some("JSON-Schema"), "x.avsc", ""),
            Ok(Format::JsonSchema)
        );
        assert_eq!(
            Format::detect(Some("jsonschema"), "x", ""),
            Ok(Format::JsonSchema)
        );
        let odd = Format::detect(Some("xsd"), "x.json", "{}").unwrap_err();
        assert_eq!(odd.reason, "format `xsd` is not supported");
        assert_eq!(Format::detect(Some("AVRO"), "x.json", ""), Ok(Format::Avro));
        assert_eq!(
            Format::detect(
                Some("application/vnd.apache.avro+json;version=1.9.0"),
                "x",
                ""
            ),
            Ok(Format::Avro)
        );
        let later = Format::detect(Some("Protobuf"), "x.proto", "").unwrap_err();
        assert_eq!(later.reason, "schema format `Protobuf` is not compared yet");
    }

    #[test]
    fn extensions_then_content() {
        assert_eq!(
            Format::detect(None, "a/schema.json", "{\"type\": \"object\"}"),
            Ok(Format::JsonSchema)
        );
        assert_eq!(
            Format::detect(None, "schema.yml", "type: object\n"),
            Ok(Format::JsonSchema)
        );
        assert!(Format::detect(None, "example.json", "{\"orderId\": 1}").is_err());
        assert!(Format::detect(None, "schema.xsd", "<x/>").is_err());
        assert_eq!(
            Format::detect(None, "a/schema.avsc", "{}"),
            Ok(Format::Avro)
        );
        assert_eq!(Format::detect(None, "a/SCHEMA.AVRO", ""), Ok(Format::Avro));
    }
}
