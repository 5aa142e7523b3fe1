//! One specification document, read: its text parsed (YAML or JSON) into a value, its kind and
//! version told from its content, and every relative file `$ref` resolved from the same tree and
//! bundled into the value, so the walkers only ever follow local `#/...` pointers.
//!
//! Bundling: a file named by a relative `$ref` is read through the caller's [`Load`], parsed and
//! put under [`FILES_KEY`] at the root (`#/x-catalog-diff-files/<path>`); the refs that named it,
//! and the local refs inside it, are rewritten to point there. A remote ref (`https://...`) is
//! never fetched, and a file that cannot be read stays a ref that points nowhere; both are noted
//! with the reason, and whatever they cover is unknown. Files are read once each, at most
//! [`MAX_FILES`] of them, so a cycle of files or a fan of refs stays bounded.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde_json::{Map, Value};

use super::Error;
use crate::path::normalize;
use crate::schema::MAX_DEPTH;

/// Where bundled files live in the root of a bundled document.
pub const FILES_KEY: &str = "x-catalog-diff-files";

/// Most files one document may pull in through relative `$ref`s.
pub const MAX_FILES: usize = 64;

/// Reads a file a document names by a relative `$ref`, by its path joined to the naming file's
/// folder (catalog paths in a diff, paths on disk for `catalog-diff spec`). `Err` says why not.
pub type Load<'a> = &'a dyn Fn(&str) -> Result<String, String>;

/// The specification languages and versions catalog-diff judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    AsyncApi2,
    AsyncApi3,
    OpenApi30,
    OpenApi31,
}

impl Kind {
    /// `AsyncAPI 3.x`, `OpenAPI 3.0`, ... for messages.
    pub fn name(self) -> &'static str {
        match self {
            Kind::AsyncApi2 => "AsyncAPI 2.x",
            Kind::AsyncApi3 => "AsyncAPI 3.x",
            Kind::OpenApi30 => "OpenAPI 3.0",
            Kind::OpenApi31 => "OpenAPI 3.1",
        }
    }

    pub fn is_asyncapi(self) -> bool {
        matches!(self, Kind::AsyncApi2 | Kind::AsyncApi3)
    }
}

/// What a parsed document is, when it is not something catalog-diff judges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Detected {
    Judged(Kind),
    /// A specification we recognise but do not judge (Swagger 2.0, AsyncAPI 1.x, ...): the reason.
    Unsupported(String),
}

/// A specification read and bundled.
#[derive(Debug)]
pub struct Parsed {
    pub kind: Kind,
    /// The `asyncapi` / `openapi` field as written.
    pub version: String,
    /// The document, with every file it names bundled under [`FILES_KEY`].
    pub root: Value,
    /// Refs that point nowhere after bundling (remote, or a file that could not be read), with
    /// the reason, by the ref text as it stands in `root`.
    pub unresolved: BTreeMap<String, String>,
    /// Relative refs of the main file whose file could not be read, by the ref as written,
    /// with the path it names: two sides whose same ref names two different files (`catalog-diff
    /// spec` on two folders) may differ behind it.
    pub unread: BTreeMap<String, String>,
    /// Refs into bundled files, by the text they stand as in `root`, with the text written
    /// (`s.json#/definitions/x`), so a reason names the ref people wrote.
    pub written: BTreeMap<String, String>,
}

impl Parsed {
    /// Why local ref `reference` (as it stands in `root`) names nothing: by the ref as written
    /// and the file it was looked for in, for a ref into a bundled file.
    pub fn names_nothing(&self, reference: &str) -> String {
        let shown = display(reference.trim_start_matches('#'));
        match (self.written.get(reference), split_display(&shown)) {
            (Some(written), (Some(file), _)) => format!("`{written}` names nothing in `{file}`"),
            _ => format!("`{reference}` names nothing in the specification"),
        }
    }
}

/// Parse `text` (named `path`) as YAML or JSON: JSON when the name says so or the text opens
/// with `{`, YAML otherwise (YAML reads JSON too).
pub fn parse_text(path: &str, text: &str) -> Result<Value, Error> {
    let lower = path.to_ascii_lowercase();
    let trimmed = text.trim_start();
    if lower.ends_with(".json") || (trimmed.starts_with('{') && !lower.ends_with(".yaml")) {
        match serde_json::from_str(text) {
            Ok(value) => return Ok(value),
            Err(error) if lower.ends_with(".json") => {
                if error.to_string().starts_with("recursion limit exceeded") {
                    return Err(Error::TooDeep {
                        file: path.to_owned(),
                        limit: MAX_DEPTH,
                    });
                }
                let (line, column, message) = crate::json_text::parse_error_at(&error, text);
                return Err(Error::Parse {
                    file: path.to_owned(),
                    syntax: "JSON",
                    line,
                    column,
                    message,
                });
            }
            Err(_) => {}
        }
    }
    crate::catalog::yaml::parse(text).map_err(|error| {
        if error.too_deep {
            Error::TooDeep {
                file: path.to_owned(),
                limit: MAX_DEPTH,
            }
        } else {
            Error::Parse {
                file: path.to_owned(),
                syntax: "YAML",
                line: error.line,
                column: error.column,
                message: error.message,
            }
        }
    })
}

/// The `asyncapi`, `openapi` or `swagger` field, as text whatever YAML made of it.
fn version_field(root: &Map<String, Value>, key: &str) -> Option<String> {
    match root.get(key)? {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// Which specification a parsed document is (from its content, never its name).
pub fn detect(path: &str, value: &Value) -> Result<(Detected, String), Error> {
    let not_a_spec = |reason: &str| Error::NotASpecification {
        file: path.to_owned(),
        reason: reason.to_owned(),
    };
    let Value::Object(root) = value else {
        return Err(not_a_spec(
            "the document is not a mapping with an `asyncapi` or `openapi` field",
        ));
    };
    if let Some(version) = version_field(root, "asyncapi") {
        let detected = match version.split('.').next() {
            Some("2") => Detected::Judged(Kind::AsyncApi2),
            Some("3") => Detected::Judged(Kind::AsyncApi3),
            _ => Detected::Unsupported(format!(
                "AsyncAPI {version} is not compared (catalog-diff reads AsyncAPI 2.x and 3.x)"
            )),
        };
        return Ok((detected, version));
    }
    if let Some(version) = version_field(root, "openapi") {
        let detected = if version.starts_with("3.0") {
            Detected::Judged(Kind::OpenApi30)
        } else if version.starts_with("3.1") {
            Detected::Judged(Kind::OpenApi31)
        } else {
            Detected::Unsupported(format!(
                "OpenAPI {version} is not compared (catalog-diff reads OpenAPI 3.0 and 3.1)"
            ))
        };
        return Ok((detected, version));
    }
    if let Some(version) = version_field(root, "swagger") {
        return Ok((
            Detected::Unsupported(format!(
                "Swagger {version} (OpenAPI 2) is not compared; convert it to OpenAPI 3 to get a verdict"
            )),
            version,
        ));
    }
    Err(not_a_spec(
        "the document has no `asyncapi`, `openapi` or `swagger` field",
    ))
}

/// Parse, detect and bundle one specification file. `Ok(Err(reason))` is a specification we do
/// not judge.
pub fn read(path: &str, text: &str, load: Load<'_>) -> Result<Result<Parsed, String>, Error> {
    let value = parse_text(path, text)?;
    let (detected, version) = detect(path, &value)?;
    let kind = match detected {
        Detected::Judged(kind) => kind,
        Detected::Unsupported(reason) => return Ok(Err(reason)),
    };
    let mut bundler = Bundler {
        main: normalize(path).unwrap_or_else(|| path.to_owned()),
        load,
        files: BTreeMap::new(),
        queue: VecDeque::new(),
        unresolved: BTreeMap::new(),
        unread: BTreeMap::new(),
        written: BTreeMap::new(),
    };
    let mut root = value;
    let main = bundler.main.clone();
    bundler.rewrite_refs(&mut root, &main);
    let mut bundled = Map::new();
    while let Some((file, mut value)) = bundler.queue.pop_front() {
        bundler.rewrite_refs(&mut value, &file);
        bundled.insert(file, value);
    }
    if !bundled.is_empty()
        && let Value::Object(map) = &mut root
    {
        map.insert(FILES_KEY.to_owned(), Value::Object(bundled));
    }
    if kind == Kind::OpenApi30 {
        openapi30_as_json_schema(&mut root);
    }
    let mut parsed = Parsed {
        kind,
        version,
        root,
        unresolved: bundler.unresolved,
        unread: bundler.unread,
        written: bundler.written,
    };
    if kind.is_asyncapi() {
        super::traits::apply(&mut parsed);
    }
    Ok(Ok(parsed))
}

struct Bundler<'a> {
    main: String,
    load: Load<'a>,
    /// Files read so far: `Ok` (queued or bundled) or why they could not be.
    files: BTreeMap<String, Result<(), String>>,
    queue: VecDeque<(String, Value)>,
    unresolved: BTreeMap<String, String>,
    unread: BTreeMap<String, String>,
    written: BTreeMap<String, String>,
}

impl Bundler<'_> {
    /// Rewrites every `$ref` in `value`, which comes from `file`.
    fn rewrite_refs(&mut self, value: &mut Value, file: &str) {
        let mut stack = vec![value];
        while let Some(node) = stack.pop() {
            match node {
                Value::Object(map) => {
                    if let Some(Value::String(reference)) = map.get_mut("$ref") {
                        let rewritten = self.rewrite(reference, file);
                        if rewritten.starts_with(&format!("#/{FILES_KEY}/")) {
                            let written = self.written.entry(rewritten.clone());
                            written.or_insert_with(|| reference.clone());
                        }
                        *reference = rewritten;
                    }
                    stack.extend(map.values_mut());
                }
                Value::Array(items) => stack.extend(items.iter_mut()),
                _ => {}
            }
        }
    }

    /// The ref `reference`, written in `file`, as it must read in the bundle.
    fn rewrite(&mut self, reference: &str, file: &str) -> String {
        let (target, fragment) = match reference.split_once('#') {
            Some((target, fragment)) => (target, fragment),
            None => (reference, ""),
        };
        if target.is_empty() {
            return self.local(file, fragment);
        }
        if has_scheme(target) {
            self.unresolved.insert(
                reference.to_owned(),
                format!("`{reference}` is a remote reference; catalog-diff never fetches one"),
            );
            return reference.to_owned();
        }
        let joined = if target.starts_with('/') {
            None
        } else {
            normalize(&join(parent(file), &percent_decode(target)))
        };
        let Some(joined) = joined else {
            self.unresolved.insert(
                reference.to_owned(),
                format!("`{reference}` points outside the specification's tree"),
            );
            return reference.to_owned();
        };
        match self.ensure(&joined) {
            Ok(()) => self.local(&joined, fragment),
            Err(why) => {
                // Keep the text as written in the main file, or the joined path for files
                // below it, so the reason can be found by the ref as it stands.
                let stands = if file == self.main {
                    self.unread.insert(reference.to_owned(), joined.clone());
                    reference.to_owned()
                } else {
                    format!("{joined}#{fragment}")
                };
                self.unresolved
                    .insert(stands.clone(), format!("`{reference}`: {why}"));
                stands
            }
        }
    }

    /// A pointer into `file` as a local ref of the bundle. The fragment is decoded here, once
    /// (a pointer in a URI fragment may be percent-encoded, RFC 6901 section 6), so every
    /// reader of the bundle follows a local ref as the plain pointer it holds after the `#`.
    fn local(&self, file: &str, fragment: &str) -> String {
        let fragment = percent_decode(fragment);
        if file == self.main {
            format!("#{fragment}")
        } else {
            format!("#/{FILES_KEY}/{}{fragment}", escape(file))
        }
    }

    /// Reads `file` into the bundle once; the reason when it cannot be.
    fn ensure(&mut self, file: &str) -> Result<(), String> {
        if file == self.main {
            return Ok(());
        }
        if let Some(done) = self.files.get(file) {
            return done.clone();
        }
        let outcome = if self.files.len() >= MAX_FILES {
            Err(format!(
                "more than {MAX_FILES} files are referenced; the rest are not read"
            ))
        } else {
            (self.load)(file).and_then(|text| {
                parse_text(file, &text)
                    .map(|value| self.queue.push_back((file.to_owned(), value)))
                    .map_err(|error| error.to_string())
            })
        };
        self.files.insert(file.to_owned(), outcome.clone());
        outcome
    }
}

/// The local refs of a bundled document that name nothing in it, each with the pointer of the
/// node that makes it (`(pointer, ref)`).
pub fn dangling_refs(root: &Value) -> BTreeSet<(String, String)> {
    crate::path::objects(root)
        .into_iter()
        .filter_map(|(at, map)| {
            let Some(Value::String(reference)) = map.get("$ref") else {
                return None;
            };
            let fragment = reference.strip_prefix('#')?;
            root.pointer(fragment)
                .is_none()
                .then(|| (at, reference.clone()))
        })
        .collect()
}

/// Reads OpenAPI 3.0 schema objects in `node` as the JSON Schema they mean (the schema engine
/// reads JSON Schema only): `nullable` as a `null` type, a boolean strict bound as a number.
/// The whole of a 3.0 document is read so, and an AsyncAPI payload in that schema format.
pub fn openapi30_as_json_schema(node: &mut Value) {
    nullable_as_type(node);
    exclusive_bounds_as_numbers(node);
}

/// OpenAPI 3.0's `nullable: true` says what 3.1 (and JSON Schema) write as a `null` type:
/// `{type: string, nullable: true}` becomes `{type: [string, "null"]}`, so the schema engine,
/// which reads JSON Schema only, sees the values the schema accepts. Only 3.0 schema objects
/// use `nullable`; a schema without a `type` already accepts `null`.
fn nullable_as_type(root: &mut Value) {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                if map.get("nullable") == Some(&Value::Bool(true))
                    && let Some(Value::String(kind)) = map.get("type").cloned()
                {
                    map.insert(
                        "type".into(),
                        Value::Array(vec![Value::String(kind), Value::String("null".into())]),
                    );
                    map.shift_remove("nullable");
                }
                stack.extend(map.values_mut());
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}

/// OpenAPI 3.0 writes a strict bound as `minimum: 0, exclusiveMinimum: true`; JSON Schema (and
/// the schema engine) as `exclusiveMinimum: 0`. The number is put in the flag's place, with
/// `minimum` kept beside it (both hold, so the values accepted are the same), so making a bound
/// strict reads as the strict bound added: tightened. A `false` flag, or one with no bound, says
/// nothing and goes.
fn exclusive_bounds_as_numbers(root: &mut Value) {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                for (flag, bound) in [
                    ("exclusiveMinimum", "minimum"),
                    ("exclusiveMaximum", "maximum"),
                ] {
                    let Some(&Value::Bool(strict)) = map.get(flag) else {
                        continue;
                    };
                    match map.get(bound).filter(|b| b.is_number()).cloned() {
                        Some(number) if strict => map.insert(flag.into(), number),
                        _ => map.shift_remove(flag),
                    };
                }
                stack.extend(map.values_mut());
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}

/// A 3.1 document compared with a 3.0 one writes a strict bound as `exclusiveMinimum: 0` alone,
/// where the 3.0 one reads as `minimum: 0, exclusiveMinimum: 0` (`exclusive_bounds_as_numbers`):
/// the 3.1 side gets the `minimum` (`maximum`) its strict bound implies, so a migration from one
/// version to the other changes no bound.
pub fn strict_bounds_across_versions(old: &mut Parsed, new: &mut Parsed) {
    let side = match (old.kind, new.kind) {
        (Kind::OpenApi30, Kind::OpenApi31) => new,
        (Kind::OpenApi31, Kind::OpenApi30) => old,
        _ => return,
    };
    let mut stack = vec![&mut side.root];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                for (strict, bound, implied) in [
                    (
                        "exclusiveMinimum",
                        "minimum",
                        f64::le as fn(&f64, &f64) -> bool,
                    ),
                    ("exclusiveMaximum", "maximum", f64::ge),
                ] {
                    let Some(limit) = map.get(strict).filter(|v| v.is_number()).cloned() else {
                        continue;
                    };
                    let weaker = match (map.get(bound).and_then(Value::as_f64), limit.as_f64()) {
                        (None, _) => true,
                        (Some(bound), Some(limit)) => implied(&bound, &limit),
                        (Some(_), None) => false,
                    };
                    if weaker {
                        map.insert(bound.into(), limit);
                    }
                }
                stack.extend(map.values_mut());
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}

/// JSON Schema keywords that constrain values (annotations left out): one of them beside a
/// `$ref` makes the object a schema that says more than its ref. `required` counts as a list
/// only (a Parameter's `required: true` is no schema keyword).
pub(super) const ASSERTIONS: &[&str] = &[
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "items",
    "prefixItems",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedProperties",
    "unevaluatedItems",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "pattern",
    "format",
    "multipleOf",
    "uniqueItems",
];

/// A `$ref` with constraining keywords beside it.
fn has_ref_siblings(map: &Map<String, Value>) -> bool {
    map.get("$ref").is_some_and(Value::is_string)
        && map.iter().any(|(key, value)| {
            ASSERTIONS.contains(&key.as_str()) && (key != "required" || value.is_array())
        })
}

/// OpenAPI 3.1 schemas are JSON Schema 2020-12, where the keywords beside a `$ref` apply as
/// well; the schema engine reads a ref alone, as draft-07 does. Such a ref is rewritten as
/// `allOf: [{$ref}]` beside its keywords, which means the same. It is done at the same places
/// on both sides (a bare ref becomes `allOf` of itself where the other side has keywords beside
/// it), so the two still pair up, and only on a 3.1 side.
pub fn ref_siblings_as_all_of(old: &mut Parsed, new: &mut Parsed) {
    let places: BTreeSet<String> = [&*old, &*new]
        .into_iter()
        .filter(|parsed| parsed.kind == Kind::OpenApi31)
        .flat_map(|parsed| crate::path::objects(&parsed.root))
        .filter(|(_, map)| has_ref_siblings(map))
        .map(|(at, _)| at)
        .collect();
    for parsed in [old, new] {
        if parsed.kind != Kind::OpenApi31 {
            continue;
        }
        for at in &places {
            let Some(Value::Object(map)) = parsed.root.pointer_mut(at) else {
                continue;
            };
            let Some(reference) = map.shift_remove("$ref") else {
                continue;
            };
            let mut alone = Map::new();
            alone.insert("$ref".into(), reference);
            match map.get_mut("allOf") {
                Some(Value::Array(branches)) => branches.insert(0, Value::Object(alone)),
                _ => {
                    map.insert("allOf".into(), Value::Array(vec![Value::Object(alone)]));
                }
            }
        }
    }
}

/// `https:`, `file:`, `urn:`, ... (a Windows drive letter is not a scheme we follow either).
fn has_scheme(text: &str) -> bool {
    match text.find(':') {
        Some(colon) => {
            let scheme = &text[..colon];
            !scheme.is_empty()
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        }
        None => false,
    }
}

fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

fn join(dir: &str, relative: &str) -> String {
    if dir.is_empty() {
        relative.to_owned()
    } else {
        format!("{dir}/{relative}")
    }
}

/// One JSON pointer segment, escaped.
pub use crate::path::pointer_segment as escape;

/// A JSON pointer segment, unescaped.
pub fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

/// `base` + `/segment`, escaped.
pub fn child(base: &str, segment: &str) -> String {
    format!("{base}/{}", escape(segment))
}

/// `%7B` -> `{`: URI fragments may percent-encode a pointer.
fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                out.push((hex(h).unwrap_or(0) * 16 + hex(l).unwrap_or(0)) as u8);
                i += 3;
            }
            (byte, ..) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

/// A node reached by following `$ref`s, or why it cannot be.
#[derive(Debug)]
pub enum Target<'a> {
    /// The node and its pointer in the bundled root.
    Found(&'a Value, String),
    /// The ref that points nowhere, and why.
    Unresolved(String, String),
}

/// Follow `value` (found at `at`) through local `$ref`s to a node that is not a ref. A ref that
/// is not local, or not there, or a chain longer than the depth limit (a cycle) is unresolved.
pub fn follow<'a>(parsed: &'a Parsed, value: &'a Value, at: &str) -> Target<'a> {
    let mut current = value;
    let mut location = at.to_owned();
    for _ in 0..MAX_DEPTH {
        let Some(reference) = current.get("$ref").and_then(Value::as_str) else {
            return Target::Found(current, location);
        };
        let Some(fragment) = reference.strip_prefix('#') else {
            let why = parsed
                .unresolved
                .get(reference)
                .cloned()
                .unwrap_or_else(|| format!("`{reference}` cannot be resolved"));
            return Target::Unresolved(reference.to_owned(), why);
        };
        match parsed.root.pointer(fragment) {
            Some(target) => {
                current = target;
                location = fragment.to_owned();
            }
            None => {
                return Target::Unresolved(reference.to_owned(), parsed.names_nothing(reference));
            }
        }
    }
    Target::Unresolved(
        value
            .get("$ref")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        "a cycle of `$ref`s that never reaches a definition".to_owned(),
    )
}

/// The entries of map `key` of `value` (at `at`): each name, the node its refs lead to (or the
/// entry itself, where they lead nowhere) and that node's place. A map behind a ref is followed.
pub fn members<'v>(
    parsed: &'v Parsed,
    value: &'v Value,
    at: &str,
    key: &str,
) -> Vec<(&'v str, &'v Value, String)> {
    let Some(node) = value.get(key) else {
        return Vec::new();
    };
    let Target::Found(Value::Object(map), at) = follow(parsed, node, &child(at, key)) else {
        return Vec::new();
    };
    map.iter()
        .map(|(name, node)| {
            let entry_at = child(&at, name);
            match follow(parsed, node, &entry_at) {
                Target::Found(node, node_at) => (name.as_str(), node, node_at),
                Target::Unresolved(..) => (name.as_str(), node, entry_at),
            }
        })
        .collect()
}

/// A pointer of the bundled document as people read it: a pointer into the specification, or
/// `file#pointer` for a node of a bundled file.
pub fn display(pointer: &str) -> String {
    let prefix = format!("/{FILES_KEY}/");
    let Some(rest) = pointer.strip_prefix(&prefix) else {
        return pointer.to_owned();
    };
    let (file, inner) = match rest.split_once('/') {
        Some((file, inner)) => (file, format!("/{inner}")),
        None => (rest, String::new()),
    };
    format!("{}#{inner}", unescape(file))
}

/// The bundled file a displayed path lies in, and the pointer inside it (`None`: the main file).
pub fn split_display(path: &str) -> (Option<&str>, &str) {
    match path.split_once('#') {
        Some((file, pointer)) if !file.is_empty() => (Some(file), pointer),
        _ => (None, path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(name: &str) -> Result<String, String> {
        match name {
            "specs/schemas/order.yaml" => Ok("Order:\n  type: object\n  properties:\n    id:\n      $ref: '#/Id'\n    line:\n      $ref: 'line.yaml'\nId:\n  type: string\n".into()),
            "specs/schemas/line.yaml" => Ok("type: object\nproperties:\n  back:\n    $ref: 'order.yaml#/Order'\n".into()),
            "specs/broken.yaml" => Ok("a: [".into()),
            _ => Err("does not exist".into()),
        }
    }

    #[test]
    fn relative_refs_are_bundled_and_cycles_end() {
        let text = "openapi: 3.1.0\ncomponents:\n  schemas:\n    O:\n      $ref: './schemas/order.yaml#/Order'\n    R:\n      $ref: 'https://example.com/x.json'\n    M:\n      $ref: 'missing.yaml'\n    B:\n      $ref: 'broken.yaml'\n";
        let parsed = read("specs/openapi.yaml", text, &files)
            .expect("parses")
            .expect("judged");
        assert_eq!(parsed.kind, Kind::OpenApi31);
        let o = parsed.root.pointer("/components/schemas/O").expect("O");
        let Target::Found(order, at) = follow(&parsed, o, "/components/schemas/O") else {
            panic!("resolves")
        };
        assert_eq!(at, "/x-catalog-diff-files/specs~1schemas~1order.yaml/Order");
        assert_eq!(display(&at), "specs/schemas/order.yaml#/Order");
        let id = order.pointer("/properties/id").expect("id");
        assert!(matches!(follow(&parsed, id, ""), Target::Found(v, _) if v["type"] == "string"));
        let line = order.pointer("/properties/line").expect("line");
        let Target::Found(line, _) = follow(&parsed, line, "") else {
            panic!("line resolves")
        };
        let back = line.pointer("/properties/back").expect("back");
        assert!(matches!(follow(&parsed, back, ""), Target::Found(v, _) if v["type"] == "object"));
        for name in ["R", "M", "B"] {
            let node = &parsed.root["components"]["schemas"][name];
            assert!(
                matches!(follow(&parsed, node, ""), Target::Unresolved(..)),
                "{name}"
            );
        }
        assert!(
            parsed
                .unresolved
                .values()
                .any(|why| why.contains("never fetches"))
        );
    }

    #[test]
    fn ref_cycles_are_unresolved() {
        let text = "asyncapi: 3.0.0\ncomponents:\n  schemas:\n    A:\n      $ref: '#/components/schemas/B'\n    B:\n      $ref: '#/components/schemas/A'\n";
        let parsed = read("a.yaml", text, &files).expect("ok").expect("judged");
        let a = &parsed.root["components"]["schemas"]["A"];
        assert!(matches!(follow(&parsed, a, ""), Target::Unresolved(..)));
    }

    #[test]
    fn kinds_and_unsupported_versions() {
        let kind = |text: &str| {
            let value = parse_text("x.yaml", text).expect("parses");
            detect("x.yaml", &value).map(|d| d.0)
        };
        assert_eq!(
            kind("openapi: 3.0.3"),
            Ok(Detected::Judged(Kind::OpenApi30))
        );
        assert_eq!(kind("openapi: 3.1"), Ok(Detected::Judged(Kind::OpenApi31)));
        assert_eq!(
            kind("asyncapi: '2.6.0'"),
            Ok(Detected::Judged(Kind::AsyncApi2))
        );
        assert!(
            matches!(kind("swagger: '2.0'"), Ok(Detected::Unsupported(r)) if r.contains("Swagger 2.0"))
        );
        assert!(matches!(
            kind("asyncapi: 1.2.0"),
            Ok(Detected::Unsupported(_))
        ));
        assert!(kind("type: object").is_err());
        assert!(kind("- a").is_err());
    }

    #[test]
    fn references_decode() {
        assert_eq!(percent_decode("/paths/~1a~1%7Bid%7D"), "/paths/~1a~1{id}");
        // Decoded once, when bundled: every reader then follows the plain pointer.
        let text = "openapi: 3.1.0\ncomponents:\n  schemas:\n    A:\n      $ref: '#/components/schemas/Base%20Order'\n    Base Order:\n      type: string\n";
        let parsed = read("a.yaml", text, &files).expect("ok").expect("judged");
        let a = &parsed.root["components"]["schemas"]["A"];
        assert_eq!(a["$ref"], "#/components/schemas/Base Order");
        assert!(
            matches!(follow(&parsed, a, ""), Target::Found(v, at) if v["type"] == "string" && at == "/components/schemas/Base Order")
        );
        assert!(has_scheme("https://x") && has_scheme("urn:x") && !has_scheme("a/b.yaml"));
    }
}
