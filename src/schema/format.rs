//! The one seam every schema format plugs into: which format a file is ([`Format::detect`],
//! following `spec/formats.md`), how two texts of it compare ([`Format::compare`]) and where a
//! path of it sits in the text ([`Format::lines_of`]). Each is one exhaustive `match`, so a new
//! format does not compile until every place that must handle it does.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use super::verdict::{Change, Op, OpKind, Rule, Verdict};
use super::{Error, Options, Strategy};
use super::{avro, json_schema, protobuf};

/// A schema format catalog-diff can judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    JsonSchema,
    Avro,
    Protobuf,
}

/// The other files of the revision a [`Document`] comes from, by path (catalog-relative in a
/// diff), for formats whose files import others (Protobuf). Implementations only look up: a
/// diff hands in the revision's in-memory files, `catalog-diff schema` the disk.
pub trait Files: Sync {
    /// The bytes of the file at `path`, if the revision has one.
    fn read(&self, path: &str) -> Option<Arc<[u8]>>;
}

/// One schema file to compare: its path (relative to the catalog, for messages and for
/// formats that resolve imports), its text and, when at hand, the files of its revision.
#[derive(Clone, Copy)]
pub struct Document<'a> {
    pub path: &'a str,
    pub text: &'a str,
    /// Where imports are looked up; `None` when only this file is at hand (imports other than
    /// a format's built-in ones then cannot be resolved).
    pub files: Option<&'a dyn Files>,
}

impl<'a> Document<'a> {
    /// A document with no other files at hand.
    pub fn new(path: &'a str, text: &'a str) -> Self {
        Document {
            path,
            text,
            files: None,
        }
    }

    /// The same document, resolving imports in `files`.
    pub fn with_files(self, files: &'a dyn Files) -> Self {
        Document {
            files: Some(files),
            ..self
        }
    }
}

impl fmt::Debug for Document<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Document")
            .field("path", &self.path)
            .field("text", &self.text)
            .field("files", &self.files.is_some())
            .finish()
    }
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

/// A file that stands in for a schema but holds none, told by its first bytes, whatever its
/// name or declared format says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StandIn {
    /// What git holds for a file stored with Git LFS.
    LfsPointer,
    /// An Avro object container file: records, with the schema they were written with in the
    /// header.
    AvroData,
}

impl StandIn {
    /// What kind of stand-in a file starting with `bytes` is, if it is one.
    pub fn of(bytes: &[u8]) -> Option<StandIn> {
        if bytes.starts_with(b"version https://git-lfs.github.com/spec/") {
            Some(StandIn::LfsPointer)
        } else if bytes.starts_with(b"Obj\x01") {
            Some(StandIn::AvroData)
        } else {
            None
        }
    }

    /// Why the file at `path` gets no verdict.
    pub fn reason(self, path: &str) -> String {
        match self {
            StandIn::LfsPointer => format!(
                "`{path}` is a Git LFS pointer: the schema it stands for is stored with Git LFS, which catalog-diff does not read"
            ),
            StandIn::AvroData => format!(
                "`{path}` is an Avro data file (an object container), not a schema: judge the schema in its header (`avro.schema`), saved as an `.avsc` file"
            ),
        }
    }
}

/// The format a file's extension says, for the formats this build sees but cannot judge.
fn seen_by_extension(extension: &str) -> Option<&'static str> {
    match extension {
        "graphql" | "gql" => Some("GraphQL"),
        "xsd" => Some("XML Schema"),
        _ => None,
    }
}

impl Format {
    /// Every format, for tables and tests.
    pub const ALL: [Format; 3] = [Format::JsonSchema, Format::Avro, Format::Protobuf];

    /// The name people use for it.
    pub fn name(self) -> &'static str {
        match self {
            Format::JsonSchema => "JSON Schema",
            Format::Avro => "Avro",
            Format::Protobuf => "Protobuf",
        }
    }

    /// The folder name of its fixtures under `testdata/` and its `--schema-format` value.
    pub fn id(self) -> &'static str {
        match self {
            Format::JsonSchema => "json-schema",
            Format::Avro => "avro",
            Format::Protobuf => "protobuf",
        }
    }

    /// Its rules table: one row per kind of change its walker reports (for Protobuf, the rows
    /// of the default category, `WIRE_JSON`; every category has the same kinds).
    pub fn rules(self) -> &'static [Rule] {
        match self {
            Format::JsonSchema => &json_schema::rules::RULES,
            Format::Avro => &avro::rules::RULES,
            Format::Protobuf => protobuf::rules::table(protobuf::ProtoRules::WireJson),
        }
    }

    /// Its rules table as the README shows it (a test keeps the two equal).
    pub fn rules_markdown(self) -> String {
        match self {
            Format::JsonSchema | Format::Avro => super::verdict::markdown_table(self.rules()),
            Format::Protobuf => protobuf::rules::markdown_table(),
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
            "protobuf" | "proto" => Ok(Format::Protobuf),
            _ => Err(Undetected::other(format!(
                "format `{value}` is not supported"
            ))),
        }
    }

    /// The format of a schema file: the declared `format` first, then the extension, then
    /// the content (`spec/formats.md`, "Detecting the format of a schema entry").
    pub fn detect(declared: Option<&str>, path: &str, text: &str) -> Result<Format, Undetected> {
        if let Some(stand) = StandIn::of(text.as_bytes()) {
            return Err(Undetected::other(stand.reason(path)));
        }
        if let Some(value) = declared {
            return Format::declared(value)?.confirmed(&format!("`format: {value}`"), path, text);
        }
        let extension = path
            .rsplit_once('.')
            .map(|(_, ext)| ext.to_ascii_lowercase())
            .unwrap_or_default();
        match extension.as_str() {
            "json" | "yaml" | "yml" => match json_schema::check(path, text) {
                Ok(()) => Ok(Format::JsonSchema),
                Err(Error::NotASchema { format }) => Err(Undetected {
                    reason: format!("`{path}` does not use JSON Schema keywords"),
                    kind: UndetectedKind::NotASchema(format),
                }),
                Err(error @ Error::AvroForm { .. }) => {
                    Err(Undetected::other(format!("`{path}` is {error}")))
                }
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
            // A `.proto` file is told by its name; whether it compiles is the comparison's
            // business, which names the file, line and column.
            "proto" => Ok(Format::Protobuf),
            _ => Err(Undetected::other(match seen_by_extension(&extension) {
                Some(name) => {
                    format!("`{path}` is {name} (by its extension), which cannot be judged yet")
                }
                None => format!("`{path}` is not a JSON Schema, Avro or Protobuf file"),
            })),
        }
    }

    /// This format, declared for the file at `path` (`how`, in words: "`format: json`"), unless
    /// its text is plainly another format's by the test an undeclared file is told by: Avro's
    /// JSON form judged as a JSON Schema constrains nothing, so every change to it would pass.
    pub fn confirmed(self, how: &str, path: &str, text: &str) -> Result<Format, Undetected> {
        match self {
            Format::JsonSchema => match json_schema::avro_type(path, text) {
                Some(type_name) => Err(Undetected::other(format!(
                    "`{path}` is declared JSON Schema ({how}) but is {}",
                    Error::AvroForm { type_name }
                ))),
                None => Ok(self),
            },
            Format::Avro | Format::Protobuf => Ok(self),
        }
    }

    /// The changes between two texts of this format, unjudged (a format with rule sets picks
    /// each change's row from the set `options` names).
    pub fn changes(
        self,
        before: Document<'_>,
        after: Document<'_>,
        options: &Options,
    ) -> Result<Vec<Change>, Error> {
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
            Format::Protobuf => protobuf::changes(before, after, options.proto_rules),
        }
    }

    /// Whether a text parses as a schema of this format: the error [`Format::compare`] gives
    /// for it, if any (to tell which side of a failed comparison is at fault).
    pub fn check(self, document: Document<'_>) -> Result<(), Error> {
        match self {
            Format::JsonSchema => json_schema::parse_text(document.path, document.text).map(drop),
            Format::Avro => avro::parse(document.path, document.text).map(drop),
            Format::Protobuf => protobuf::Compiled::new(document).map(drop),
        }
    }

    /// What a verdict on `text` rests on that its writer may not expect (JSON Schema: a `$ref`
    /// that names nothing), each as (1-based line, why); empty for a text that does not parse.
    pub fn notes(self, text: &str) -> Vec<(usize, String)> {
        let notes = match self {
            Format::JsonSchema => json_schema::notes(text),
            Format::Avro | Format::Protobuf => Vec::new(),
        };
        if notes.is_empty() {
            return Vec::new();
        }
        let paths: Vec<&str> = notes.iter().map(|(path, _)| path.as_str()).collect();
        let lines = self.lines_of(text, &paths);
        lines
            .into_iter()
            .zip(notes.into_iter().map(|(_, why)| why))
            .collect()
    }

    /// Compare two texts of this format and judge the changes under `strategy`.
    pub fn compare(
        self,
        before: Document<'_>,
        after: Document<'_>,
        strategy: Strategy,
        options: &Options,
    ) -> Result<Verdict, Error> {
        super::verdict::judge_walked(self.changes(before, after, options), strategy)
    }

    /// Where each of `ops` lies in `document`, the schema after the change: as
    /// [`Format::lines_of`] places their paths, with two differences. A removed element's
    /// path names it in the schema before the change, so in a JSON Schema it is placed at the
    /// nearest node that survives (the `oneOf` / `allOf` / tuple list it was in), never at the
    /// sibling that took its list index. And a Protobuf element declared in a file the
    /// document imports is placed in that file (its path among the document's files is the
    /// first of the pair; `None`: the document itself).
    pub fn op_places(self, document: Document<'_>, ops: &[Op]) -> Vec<(Option<String>, usize)> {
        let paths: Vec<&str> = ops.iter().map(|op| op.path.as_str()).collect();
        match self {
            Format::JsonSchema => match crate::spec::lines::locate(document.text) {
                Some(root) => (ops.iter())
                    .map(|op| match op.op {
                        OpKind::Remove => crate::spec::lines::removed_leaf_line(&root, &op.path),
                        _ => root.pointer_line(&op.path),
                    })
                    .map(|line| (None, line))
                    .collect(),
                None => vec![(None, 1); ops.len()],
            },
            // Avro paths name fields and symbols by name, so an index never shifts.
            Format::Avro => (self.lines_of(document.text, &paths).into_iter())
                .map(|line| (None, line))
                .collect(),
            Format::Protobuf => protobuf::places_of(document, &paths),
        }
    }

    /// The 1-based line where the node each op path of `paths` names starts in `text` (1 when
    /// it cannot be placed). The text is parsed once for all of them: a change of thousands of
    /// ops parsed it thousands of times.
    pub fn lines_of(self, text: &str, paths: &[&str]) -> Vec<usize> {
        match self {
            // JSON, or a JSON Schema written in YAML.
            Format::JsonSchema => match crate::spec::lines::locate(text) {
                Some(root) => paths.iter().map(|path| root.pointer_line(path)).collect(),
                None => vec![1; paths.len()],
            },
            Format::Avro => avro::lines_of(text, paths),
            Format::Protobuf => protobuf::lines_of(text, paths),
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
    }

    /// A Git LFS pointer is what git holds for a file stored with LFS: no format judges it,
    /// and the reason says what it is rather than that it is not JSON.
    #[test]
    fn git_lfs_pointers_are_named() {
        let pointer = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 12\n";
        for (declared, path) in [(None, "schema.json"), (Some("avro"), "schema.avsc")] {
            let refused = Format::detect(declared, path, pointer).unwrap_err();
            assert!(
                refused.reason.contains("is a Git LFS pointer"),
                "{refused:?}"
            );
        }
    }

    /// An Avro data file read as text (U+FFFD where it is not UTF-8) is named as one, whatever
    /// its name or declared format, not as text that is not JSON.
    #[test]
    fn avro_data_files_are_named() {
        let data = String::from_utf8_lossy(b"Obj\x01\x02\x16avro.schema\xff\xfe");
        for (declared, path) in [(None, "s.avro"), (Some("avro"), "s.json")] {
            let refused = Format::detect(declared, path, &data).unwrap_err();
            assert!(
                refused.reason.contains("is an Avro data file"),
                "{refused:?}"
            );
        }
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
            Format::detect(None, "a/schema.proto", "syntax = \"proto3\";"),
            Ok(Format::Protobuf)
        );
        assert_eq!(
            Format::detect(Some("PROTO"), "a/schema.txt", ""),
            Ok(Format::Protobuf)
        );
        assert_eq!(
            Format::detect(Some("protobuf"), "a/schema.json", "{}"),
            Ok(Format::Protobuf)
        );
        assert_eq!(
            Format::detect(None, "a/schema.avsc", "{}"),
            Ok(Format::Avro)
        );
        assert_eq!(Format::detect(None, "a/SCHEMA.AVRO", ""), Ok(Format::Avro));
    }
}
