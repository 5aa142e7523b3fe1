//! JSON Schema compatibility, the reference being `@eventcatalog/diff` (seed 000). `compare`
//! walks two documents and lists what changed and where, `rules` holds the table that decides
//! whether each kind of change breaks a direction. The walker never judges; the table never walks.

pub mod compare;
pub mod rules;
mod unfollowed;

use std::collections::HashMap;

use serde::de::IgnoredAny;
use serde_json::Value;

use super::verdict::{Change, Verdict};
use super::{Error, Format, Strategy};
use rules::ChangeKind;

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

/// The keywords that only annotate (the meta-data vocabulary, `$comment`, `$id`). An object
/// holding none but these, `{}` included, is the schema that accepts every value, as `true` is:
/// a placeholder schema, not an example payload, which holds data keys.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "$id",
];

/// Whether a parsed document is plausibly a JSON Schema rather than, say, an example payload.
pub fn looks_like_schema(value: &Value) -> bool {
    match value {
        Value::Bool(_) => true,
        Value::Object(map) => is_schema_object(map.keys().map(String::as_str)),
        _ => false,
    }
}

/// Whether an object with these top-level keys is a JSON Schema: one uses a keyword of
/// [`SCHEMA_MARKERS`], or holds only [`ANNOTATIONS`] (or nothing).
fn is_schema_object<'a>(keys: impl Iterator<Item = &'a str> + Clone) -> bool {
    keys.clone().any(|key| SCHEMA_MARKERS.contains(&key))
        || keys.into_iter().all(|key| ANNOTATIONS.contains(&key))
}

/// Parse schema text (YAML when the path says so, else JSON). Any document is accepted: a
/// declared JSON Schema is judged whatever keywords it uses, as the reference does.
pub fn parse_text(path: &str, text: &str) -> Result<Value, Error> {
    if is_yaml(path) {
        crate::catalog::yaml::parse(text).map_err(|error| {
            // Nesting past the limit is named as such, as in JSON text, not as a syntax error.
            if error.too_deep {
                // The YAML reader's own limit, one level past JSON text's.
                return Error::TooDeep {
                    path: format!("line {}", error.line),
                    limit: crate::catalog::yaml::MAX_DEPTH,
                };
            }
            Error::Parse {
                format: Format::JsonSchema,
                file: path.to_owned(),
                syntax: "YAML",
                line: error.line,
                column: error.column,
                message: error.message,
            }
        })
    } else {
        serde_json::from_str(text).map_err(|error| json_error(path, text, error))
    }
}

/// Whether the file at `path` is YAML, by its name; any other is read as JSON.
fn is_yaml(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.ends_with(".yaml") || lower.ends_with(".yml")
}

/// A JSON parse error in words: nesting past the limit and a byte order mark are named as
/// such, not as a syntax error.
fn json_error(path: &str, text: &str, error: serde_json::Error) -> Error {
    if error.to_string().starts_with("recursion limit exceeded") {
        return Error::TooDeep {
            path: format!("line {}", error.line()),
            limit: super::JSON_TEXT_DEPTH,
        };
    }
    let (line, column, mut message) = crate::json_text::parse_error_at(&error, text);
    if text.starts_with('\u{feff}') {
        message = "the file starts with a UTF-8 byte order mark (BOM), which JSON does not allow; save it without the BOM".to_owned();
    }
    Error::Parse {
        format: Format::JsonSchema,
        file: path.to_owned(),
        syntax: "JSON",
        line,
        column,
        message,
    }
}

/// Whether `text` is a JSON Schema, as [`parse`] decides it, without building the document:
/// JSON is checked whole but only its top-level keys are kept (a 60 MB schema is detected
/// without a second tree in memory).
pub fn check(path: &str, text: &str) -> Result<(), Error> {
    if is_yaml(path) {
        return parse(path, text).map(drop);
    }
    let trimmed = text.trim_start_matches([' ', '\t', '\r', '\n']);
    let schema = if trimmed.starts_with('{') {
        let keys: HashMap<String, IgnoredAny> =
            serde_json::from_str(text).map_err(|error| json_error(path, text, error))?;
        // Only what may be Avro's form is read whole, to tell.
        if may_be_avro(&keys) {
            return parse(path, text).map(drop);
        }
        is_schema_object(keys.keys().map(String::as_str))
    } else {
        return parse(path, text).map(drop);
    };
    if schema {
        Ok(())
    } else {
        Err(Error::NotASchema {
            format: Format::JsonSchema,
        })
    }
}

/// The keys beside `type` of Avro's complex types (`record`, `enum`, `fixed`, `map`, `array`).
const AVRO_KEYS: &[&str] = &["fields", "symbols", "size", "values", "items"];

/// Whether a JSON object with these top-level keys may be in Avro's form: `type` beside a key
/// of [`AVRO_KEYS`].
fn may_be_avro(keys: &HashMap<String, IgnoredAny>) -> bool {
    keys.contains_key("type") && AVRO_KEYS.iter().any(|key| keys.contains_key(*key))
}

/// The type of the Avro schema `text` holds in Avro's JSON form, if it holds one: the test
/// [`check`] tells a file named as JSON Schema by, for a file declared one. A text that does
/// not parse holds none (its comparison names the error).
pub fn avro_type(path: &str, text: &str) -> Option<String> {
    if !is_yaml(path) {
        // As in `check`: only a JSON object with Avro's keys is read whole.
        let keys: HashMap<String, IgnoredAny> = serde_json::from_str(text).ok()?;
        if !may_be_avro(&keys) {
            return None;
        }
    }
    avro_form(&parse_text(path, text).ok()?).map(str::to_owned)
}

/// The type of an Avro schema written in Avro's JSON form (`"type": "record"`, a `map`, an
/// `array` of such), which no JSON Schema is: such a text in a `.json` file is Avro saved under
/// JSON's name.
fn avro_form(value: &Value) -> Option<&str> {
    let kind = value.get("type")?.as_str()?;
    let has = |key: &str| value.get(key).is_some();
    let avro = match kind {
        "record" | "error" => has("fields"),
        "enum" => has("symbols"),
        "fixed" => has("size"),
        "map" => has("values"),
        // JSON Schema's `items` is a schema object, a boolean or a list of schema objects;
        // Avro's a type: a name, a complex type or a union of them.
        "array" => match value.get("items") {
            Some(Value::String(_)) => true,
            Some(items @ Value::Object(_)) => avro_form(items).is_some(),
            Some(Value::Array(branches)) => branches
                .iter()
                .any(|b| b.is_string() || avro_form(b).is_some()),
            _ => false,
        },
        _ => false,
    };
    avro.then_some(kind)
}

/// [`parse_text`], refusing documents that use no JSON Schema keyword (an example payload) and
/// Avro schemas.
pub fn parse(path: &str, text: &str) -> Result<Value, Error> {
    let value = parse_text(path, text)?;
    if let Some(kind) = avro_form(&value) {
        return Err(Error::AvroForm {
            type_name: kind.to_owned(),
        });
    }
    if looks_like_schema(&value) {
        Ok(value)
    } else {
        Err(Error::NotASchema {
            format: Format::JsonSchema,
        })
    }
}

/// What a judge reads by a convention the writer may not expect: each local `$ref` that names
/// nothing in the schema, read as accepting anything (path of the node, and why).
pub fn notes(text: &str) -> Vec<(String, String)> {
    // Most schemas have no ref at all: they are not parsed again for this.
    if !text.contains("$ref") {
        return Vec::new();
    }
    let Ok(root) = parse_text("", text) else {
        return Vec::new();
    };
    compare::dangling_refs(&root)
        .into_iter()
        .map(|(at, reference)| {
            let why = format!(
                "`$ref` `{reference}` names nothing in the schema, so it is judged as accepting anything, as @eventcatalog/diff judges it"
            );
            (at, why)
        })
        .collect()
}

/// Every change between two parsed documents, each pointing at its row of the rules table.
/// A change behind a reference the walk does not follow is [`Error::Unfollowed`], holding what
/// the walk found: it would pass what it never saw, and no verdict is better than a pass (but a
/// break it found stands, whatever else is hidden).
pub fn changes(before: &Value, after: &Value) -> Result<Vec<Change>, Error> {
    let changes = compare::compare(before, after)?;
    // A change of a node as a whole (a keyword found changed, a property or branch added)
    // judges all below it; `required.*` and `schema.deprecated` sit at a node but judge one
    // facet of it.
    let covered = |at: &str| {
        changes.iter().any(|change| {
            let facet = matches!(
                change.kind,
                ChangeKind::RequiredAdded
                    | ChangeKind::RequiredAddedWithDefault
                    | ChangeKind::RequiredRemoved
                    | ChangeKind::SchemaDeprecated
            );
            !facet
                && at
                    .strip_prefix(change.path.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
    };
    // A `$ref` the walker did not follow is itself a keyword it compares.
    let judged = |found: &unfollowed::Reference| {
        covered(&found.at) || covered(&format!("{}/{}", found.at, found.keyword))
    };
    let hidden = unfollowed::first_difference(before, after, judged);
    let walked = changes
        .iter()
        .map(|change| Change {
            rule: change.kind.rule(),
            op: change.op,
            path: change.path.clone(),
            what: rules::describe(change),
            reference: Some(rules::reference_reason(change)),
            subject: rules::subject(change),
        })
        .collect();
    let Some((found, side)) = hidden else {
        return Ok(walked);
    };
    let mut error = Error::Unfollowed {
        keyword: found.keyword,
        reference: found.reference.clone(),
        at: found.at.clone(),
        side,
        walked: Box::new([]),
    };
    // Beside a break the walk found, the hidden change is a keyword changed of its own, so an
    // acknowledgement of that break does not pass it too.
    let hidden = Change {
        rule: ChangeKind::KeywordChanged.rule(),
        op: super::verdict::OpKind::Replace,
        path: format!("{}/{}", found.at, found.keyword),
        what: error.to_string(),
        reference: Some(format!(
            "{} changed, compatibility cannot be determined",
            found.keyword
        )),
        subject: Some(found.reference),
    };
    if let Error::Unfollowed { walked: all, .. } = &mut error {
        *all = walked.into_iter().chain([hidden]).collect();
    }
    Err(error)
}

/// Judge two parsed documents under `strategy` (tests, benchmarks and fuzzing start here).
pub fn judge_values(before: &Value, after: &Value, strategy: Strategy) -> Result<Verdict, Error> {
    super::verdict::judge_walked(changes(before, after), strategy)
}
