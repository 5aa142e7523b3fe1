//! Protobuf compatibility, the reference being `buf breaking` in its `WIRE_JSON` (default) and
//! `WIRE` categories. A side is one `.proto` file compiled with the files it imports (protox,
//! pure Rust: no `protoc` or `buf` at run time); `compare` walks the two compiled sides and
//! lists what changed, `rules` holds one table per category. The walker never judges; the
//! tables never walk.
//!
//! Imports resolve offline: the well-known types (`google/protobuf/*.proto`) are built in;
//! any other import is looked up among the [`Files`] of the document's revision, first beside
//! the importing file, then beside the document, then from the root. One that cannot be found is
//! [`Error::UnresolvedImport`]. Text that does not compile is [`Error::Parse`] naming the file,
//! line and column of the compiler's complaint.

pub mod compare;
pub mod rules;

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fmt;
use std::path::Path;
use std::str::FromStr;

use prost_reflect::{DescriptorPool, ReflectMessage};
use protox::file::{File, FileResolver, GoogleFileResolver};

use super::format::{Document, Files, Format};
use super::verdict::Change;
use super::{Error, line_column};
use crate::path::normalize;

/// Which `buf breaking` category judges a change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProtoRules {
    /// `WIRE_JSON`: binary and JSON readers (a rename breaks). The default, since events are
    /// often JSON-encoded.
    #[default]
    WireJson,
    /// `WIRE`: binary readers only (renames and `json_name` changes are safe).
    Wire,
}

impl ProtoRules {
    pub const ALL: [ProtoRules; 2] = [ProtoRules::WireJson, ProtoRules::Wire];

    /// The flag value (`wire-json`, `wire`), also the key in fixtures' `expected.json`.
    pub fn as_str(self) -> &'static str {
        match self {
            ProtoRules::WireJson => "wire-json",
            ProtoRules::Wire => "wire",
        }
    }

    /// buf's name for the category.
    pub fn buf_category(self) -> &'static str {
        match self {
            ProtoRules::WireJson => "WIRE_JSON",
            ProtoRules::Wire => "WIRE",
        }
    }
}

impl fmt::Display for ProtoRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A `--proto-rules` value that is not `wire-json` or `wire`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown Protobuf rules `{}`: use wire-json or wire",
    crate::catalog::escape_text(.0)
)]
pub struct UnknownProtoRules(pub String);

impl FromStr for ProtoRules {
    type Err = UnknownProtoRules;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        ProtoRules::ALL
            .into_iter()
            .find(|rules| rules.as_str() == text)
            .ok_or_else(|| UnknownProtoRules(text.to_owned()))
    }
}

/// Every change between two Protobuf documents, each pointing at its row in `category`.
pub fn changes(
    before: Document<'_>,
    after: Document<'_>,
    category: ProtoRules,
) -> Result<Vec<Change>, Error> {
    let old = Compiled::new(before)?;
    let new = Compiled::new(after)?;
    Ok(compare::compare(&old, &new)
        .into_iter()
        .map(|found| Change {
            rule: found.kind.rule(category),
            op: found.op,
            path: found.path,
            what: found.what,
            reference: None,
            subject: found.subject,
        })
        .collect())
}

/// One side compiled: the descriptors of the document and of everything it imports, and
/// which files are the document's own (the document plus the imports found among its
/// revision's files, by compiler name; the well-known types are not compared).
pub struct Compiled {
    pub pool: DescriptorPool,
    /// The compiler's name of the document itself.
    pub main: String,
    /// Compiler names of the compared files.
    pub own: BTreeSet<String>,
}

/// A parsed file of one side before compilation: its path (for messages), its text, and the
/// files it imports that are not built in (compiler name, and where the import is written).
struct Source {
    path: String,
    text: String,
    imports: Vec<(String, (usize, usize))>,
}

/// The deepest an option value's message and list literals may nest, as buf allows; protox
/// parses them recursively, so a deeper literal could overflow the stack.
const MAX_LITERAL_DEPTH: usize = 100;

/// Refuses an option value nested deeper than [`MAX_LITERAL_DEPTH`], where buf does, before
/// the compiler recurses into it.
fn refuse_deep_literals(path: &str, text: &str) -> Result<(), Error> {
    let Some(offset) = too_deep_literal(text) else {
        return Ok(());
    };
    let (line, column) = line_column(text, offset);
    Err(Error::Parse {
        format: Format::Protobuf,
        file: path.to_owned(),
        syntax: "Protobuf",
        line,
        column,
        message: format!("expression nesting depth must be at most {MAX_LITERAL_DEPTH}"),
    })
}

/// The byte offset of the first bracket that opens a literal level beyond
/// [`MAX_LITERAL_DEPTH`]. A literal starts at a `{` or `[` written right after `=` (an option's
/// value); every bracket inside it (`<` too, the text format's other message delimiter) is a
/// level. Comments and strings are skipped.
fn too_deep_literal(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    // One entry per open bracket: whether it is part of a literal.
    let mut open: Vec<bool> = Vec::new();
    let mut depth = 0;
    let mut after_equals = false;
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        match byte {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(bytes.len(), |end| i + end);
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |end| i + end + 4);
                continue;
            }
            b'"' | b'\'' => {
                i += 1;
                while i < bytes.len() && bytes[i] != byte && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' | b'[' | b'<' => {
                let literal = after_equals || open.last() == Some(&true);
                if literal {
                    depth += 1;
                    if depth > MAX_LITERAL_DEPTH {
                        return Some(i);
                    }
                }
                if literal || byte != b'<' {
                    open.push(literal);
                }
            }
            b'}' | b']' => depth -= usize::from(open.pop() == Some(true)),
            // Outside a literal `>` closes nothing (`map<string, int32>`).
            b'>' if open.last() == Some(&true) => {
                open.pop();
                depth -= 1;
            }
            _ => {}
        }
        if !byte.is_ascii_whitespace() {
            after_equals = byte == b'=';
        }
        i += 1;
    }
    None
}

/// The side's files in the order to compile them, each after every file it imports, found
/// without recursion; an import cycle is refused at the import that closes it.
fn imports_first(main: &str, sources: &BTreeMap<String, Source>) -> Result<Vec<String>, Error> {
    let mut order = Vec::with_capacity(sources.len());
    let mut done: BTreeSet<&str> = BTreeSet::new();
    // The chain being followed: each file and how many of its imports were looked at.
    let mut chain: Vec<(&str, usize)> = vec![(main, 0)];
    while let Some(&(name, next)) = chain.last() {
        let source = &sources[name];
        let Some((import, at)) = source.imports.get(next) else {
            done.insert(name);
            order.push(name.to_owned());
            chain.pop();
            continue;
        };
        if let Some(last) = chain.last_mut() {
            last.1 += 1;
        }
        if done.contains(import.as_str()) {
            continue;
        }
        if let Some(start) = chain.iter().position(|(n, _)| n == import) {
            let cycle: Vec<&str> = chain[start..].iter().map(|(n, _)| *n).collect();
            return Err(Error::Parse {
                format: Format::Protobuf,
                file: source.path.clone(),
                syntax: "Protobuf",
                line: at.0,
                column: at.1,
                message: format!("import cycle detected: {} -> {import}", cycle.join(" -> ")),
            });
        }
        chain.push((import.as_str(), 0));
    }
    Ok(order)
}

/// Whether an import is one of the well-known types the compiler carries.
fn is_builtin(name: &str) -> bool {
    name.starts_with("google/protobuf/") && GoogleFileResolver::new().open_file(name).is_ok()
}

impl Compiled {
    /// Finds every file the document imports, then compiles them together.
    pub fn new(document: Document<'_>) -> Result<Compiled, Error> {
        let main = document.path.to_owned();
        let mut sources: BTreeMap<String, Source> = BTreeMap::new();
        sources.insert(
            main.clone(),
            Source {
                path: document.path.to_owned(),
                text: document.text.to_owned(),
                imports: Vec::new(),
            },
        );
        let mut queue = VecDeque::from([main.clone()]);
        while let Some(name) = queue.pop_front() {
            let source = &sources[&name];
            refuse_deep_literals(&source.path, &source.text)?;
            let parsed = File::from_source(&name, &for_protox(&source.text))
                .map_err(|error| parse_error(&error, &source.path, &source.text))?;
            let importer = source.path.clone();
            let proto = parsed.file_descriptor_proto();
            let mut imports = Vec::new();
            for (index, import) in proto.dependency.iter().enumerate() {
                let at = span_start(proto, &[3, index as i32]);
                if is_builtin(import) {
                    continue;
                }
                imports.push((import.clone(), at));
                if sources.contains_key(import) {
                    continue;
                }
                let found = document
                    .files
                    .and_then(|files| find_import(files, document.path, &importer, import));
                let Some((path, text)) = found else {
                    if import.starts_with("google/protobuf/") {
                        // buf carries more of these (go_features.proto, written in editions).
                        return Err(Error::Unsupported {
                            format: Format::Protobuf,
                            file: importer,
                            line: at.0,
                            column: at.1,
                            what: format!(
                                "an import protox, the compiler catalog-diff uses, does not \
                                 carry (`{import}`, built into buf)"
                            ),
                        });
                    }
                    return Err(Error::UnresolvedImport {
                        format: Format::Protobuf,
                        file: importer,
                        import: import.clone(),
                        line: at.0,
                        column: at.1,
                    });
                };
                let imports = Vec::new();
                sources.insert(
                    import.clone(),
                    Source {
                        path,
                        text,
                        imports,
                    },
                );
                queue.push_back(import.clone());
            }
            if let Some(source) = sources.get_mut(&name) {
                source.imports = imports;
            }
        }
        let order = imports_first(&main, &sources)?;
        let own: BTreeSet<String> = sources.keys().cloned().collect();
        let resolver = Resolver {
            sources,
            google: GoogleFileResolver::new(),
        };
        let paths: BTreeMap<String, (String, String)> = resolver
            .sources
            .iter()
            .map(|(name, s)| (name.clone(), (s.path.clone(), s.text.clone())))
            .collect();
        let mut compiler = protox::Compiler::with_file_resolver(resolver);
        compiler.include_imports(true);
        // Each file after the files it imports, so the compiler never recurses down an import
        // chain (a chain thousands of files long would overflow its stack).
        for name in &order {
            compiler.open_file(name).map_err(|error| {
                let name = error.file().unwrap_or(name).to_owned();
                match paths.get(&name).or_else(|| paths.get(&main)) {
                    Some((path, text)) => parse_error(&error, path, text),
                    None => parse_error(&error, document.path, document.text),
                }
            })?;
        }
        let compiled = Compiled {
            pool: compiler.descriptor_pool(),
            main,
            own,
        };
        compiled.check(&paths)?;
        Ok(compiled)
    }

    /// What protoc and buf refuse but protox lets through: an enum that allows aliases without
    /// having any, a map whose values are an enum whose first value is not zero, reserved or
    /// extension ranges that overlap, and a name reserved twice.
    fn check(&self, paths: &BTreeMap<String, (String, String)>) -> Result<(), Error> {
        let refuse = |file: &prost_reflect::FileDescriptor, at: &[i32], message: String| {
            let (line, column) = span_start(file.file_descriptor_proto(), at);
            Error::Parse {
                format: Format::Protobuf,
                file: paths
                    .get(file.name())
                    .map_or_else(|| file.name().to_owned(), |(path, _)| path.clone()),
                syntax: "Protobuf",
                line,
                column,
                message,
            }
        };
        for enumeration in self.pool.all_enums() {
            let file = enumeration.parent_file();
            let allows = enumeration
                .enum_descriptor_proto()
                .options
                .as_ref()
                .is_some_and(|options| options.allow_alias());
            if !self.own.contains(file.name()) || !allows {
                continue;
            }
            let numbers: BTreeSet<i32> = enumeration.values().map(|v| v.number()).collect();
            if numbers.len() == enumeration.values().len() {
                return Err(refuse(
                    &file,
                    &child(enumeration.path(), [3, 2]),
                    format!(
                        "enum `{}` sets `allow_alias` but no two values share a number",
                        enumeration.full_name()
                    ),
                ));
            }
        }
        for enumeration in self.pool.all_enums() {
            let file = enumeration.parent_file();
            if !self.own.contains(file.name()) {
                continue;
            }
            let proto = enumeration.enum_descriptor_proto();
            if let Some(index) = proto
                .reserved_range
                .iter()
                .position(|r| r.start() > r.end())
            {
                let range = &proto.reserved_range[index];
                return Err(refuse(
                    &file,
                    &child(enumeration.path(), [4, index as i32]),
                    format!("empty reserved range {} to {}", range.start(), range.end()),
                ));
            }
            // Enum reserved ranges include their end.
            let ranges = proto
                .reserved_range
                .iter()
                .map(|r| (r.start(), i64::from(r.end()) + 1));
            if let Some(index) = first_overlap(ranges) {
                return Err(refuse(
                    &file,
                    &child(enumeration.path(), [4, index]),
                    "overlapping enum value ranges".to_owned(),
                ));
            }
            if let Some((index, name)) = first_repeat(&proto.reserved_name) {
                return Err(refuse(
                    &file,
                    &child(enumeration.path(), [5, index]),
                    format!("enum value `{name}` reserved more than once"),
                ));
            }
            let reserved: BTreeSet<&str> = enumeration.reserved_names().collect();
            let mut seen: BTreeMap<String, (String, i32)> = BTreeMap::new();
            // Values come in the order they are written, their index in the descriptor.
            for (index, value) in enumeration.values().enumerate() {
                let index = i32::try_from(index).unwrap_or_default();
                let at = child(enumeration.path(), [2, index]);
                if reserved.contains(value.name()) {
                    return Err(refuse(
                        &file,
                        &at,
                        format!("enum value `{}` uses a reserved name", value.name()),
                    ));
                }
                // proto3 enums: names that read the same once the enum's prefix is dropped and
                // they are camel-cased conflict in JSON, unless they alias one number.
                if file.syntax() != prost_reflect::Syntax::Proto3 {
                    continue;
                }
                let key = json_enum_key(enumeration.name(), value.name());
                match seen.get(&key) {
                    Some((other, number)) if *number != value.number() => {
                        return Err(refuse(
                            &file,
                            &at,
                            format!(
                                "enum value `{}` conflicts with `{other}` once prefixes and case are ignored",
                                value.name()
                            ),
                        ));
                    }
                    _ => {
                        seen.insert(key, (value.name().to_owned(), value.number()));
                    }
                }
            }
        }
        for message in self.pool.all_messages() {
            let file = message.parent_file();
            if !self.own.contains(file.name()) {
                continue;
            }
            if file.syntax() == prost_reflect::Syntax::Proto3
                && message.extension_ranges().len() > 0
                && !message.full_name().starts_with("google.protobuf.")
            {
                return Err(refuse(
                    &file,
                    message.path(),
                    format!(
                        "message `{}` declares extension ranges, which proto3 does not allow",
                        message.full_name()
                    ),
                ));
            }
            let proto = message.descriptor_proto();
            // A range written backwards (`reserved 30 to 25;`) holds no number.
            let reserved = proto.reserved_range.iter().map(|r| (r.start(), r.end()));
            let extensions = proto.extension_range.iter().map(|r| (r.start(), r.end()));
            for (field, what, ranges) in [
                (9, "reserved", reserved.collect::<Vec<_>>()),
                (5, "extension", extensions.collect()),
            ] {
                if let Some(index) = ranges.iter().position(|(start, end)| start >= end) {
                    let (start, end) = ranges[index];
                    return Err(refuse(
                        &file,
                        &child(message.path(), [field, index as i32]),
                        format!("empty {what} range {start} to {}", i64::from(end) - 1),
                    ));
                }
            }
            // Reserved ranges first, then extension ranges, each `[start, end)`; an overlap is
            // placed at the later of the two (by its field number in DescriptorProto).
            let ranges = proto
                .reserved_range
                .iter()
                .map(|r| (r.start(), i64::from(r.end())))
                .chain(
                    proto
                        .extension_range
                        .iter()
                        .map(|r| (r.start(), i64::from(r.end()))),
                );
            if let Some(index) = first_overlap(ranges) {
                let reserved = proto.reserved_range.len() as i32;
                let at = if index < reserved {
                    [9, index]
                } else {
                    [5, index - reserved]
                };
                return Err(refuse(
                    &file,
                    &child(message.path(), at),
                    "overlapping field number ranges".to_owned(),
                ));
            }
            if let Some((index, name)) = first_repeat(&proto.reserved_name) {
                return Err(refuse(
                    &file,
                    &child(message.path(), [10, index]),
                    format!("message field name `{name}` reserved more than once"),
                ));
            }
            let reserved: BTreeSet<&str> = message.reserved_names().collect();
            if let Some(field) = message.fields().find(|f| reserved.contains(f.name())) {
                return Err(refuse(
                    &file,
                    field.path(),
                    format!("field `{}` uses a reserved name", field.name()),
                ));
            }
            for field in message.fields().filter(|f| f.is_map()) {
                let prost_reflect::Kind::Message(entry) = field.kind() else {
                    continue;
                };
                let prost_reflect::Kind::Enum(values) = entry.map_entry_value_field().kind() else {
                    continue;
                };
                // In declaration order: the first value written is the enum's default.
                if values
                    .enum_descriptor_proto()
                    .value
                    .first()
                    .is_none_or(|first| first.number() == 0)
                {
                    continue;
                }
                return Err(refuse(
                    &file,
                    field.path(),
                    format!(
                        "map field `{}` has values of enum `{}`, whose first value is not zero",
                        field.name(),
                        values.full_name()
                    ),
                ));
            }
        }
        // MessageSet, a proto1 encoding: buf refuses to judge it, so neither do we.
        for message in self.pool.all_messages() {
            let file = message.parent_file();
            let message_set = message
                .descriptor_proto()
                .options
                .as_ref()
                .is_some_and(|options| options.message_set_wire_format());
            if !self.own.contains(file.name()) || !message_set {
                continue;
            }
            if let Some(field) = message.fields().next() {
                return Err(refuse(
                    &file,
                    field.path(),
                    format!(
                        "field declared in message set type `{}`",
                        message.full_name()
                    ),
                ));
            }
            let (line, column) = span_start(file.file_descriptor_proto(), message.path());
            return Err(Error::Unsupported {
                format: Format::Protobuf,
                file: paths
                    .get(file.name())
                    .map_or_else(|| file.name().to_owned(), |(path, _)| path.clone()),
                line,
                column,
                what: format!(
                    "a MessageSet (`message_set_wire_format` on `{}`), a legacy proto1 encoding \
                     {NO_TOOL_JUDGES}",
                    message.full_name()
                ),
            });
        }
        let fields = self
            .pool
            .all_messages()
            .filter(|message| !message.is_map_entry())
            .flat_map(|message| message.fields().collect::<Vec<_>>())
            .map(|field| {
                (
                    field.parent_file(),
                    field.path().to_vec(),
                    field.field_descriptor_proto().clone(),
                )
            });
        let extensions = self.pool.all_extensions().map(|extension| {
            let proto = extension.field_descriptor_proto().clone();
            (extension.parent_file(), extension.path().to_vec(), proto)
        });
        for (file, path, field) in fields.chain(extensions) {
            if !self.own.contains(file.name()) {
                continue;
            }
            if let Some((at, message)) = misplaced_option(&file, &path, &field) {
                return Err(refuse(&file, &at, message));
            }
        }
        // Two extensions of one message may not share a number.
        let mut numbers: BTreeSet<(String, u32)> = BTreeSet::new();
        for extension in self.pool.all_extensions() {
            let message = extension.containing_message().full_name().to_owned();
            if numbers.insert((message.clone(), extension.number()))
                || !self.own.contains(extension.parent_file().name())
            {
                continue;
            }
            return Err(refuse(
                &extension.parent_file(),
                &[extension.path(), &[3]].concat(),
                format!(
                    "field number `{}` of `{message}` used more than once by its extensions",
                    extension.number()
                ),
            ));
        }
        // proto3 messages read unknown enum numbers as they are, which a proto2 (closed)
        // enum cannot hold.
        for message in self.pool.all_messages() {
            let file = message.parent_file();
            if !self.own.contains(file.name())
                || file.syntax() != prost_reflect::Syntax::Proto3
                || message.is_map_entry()
            {
                continue;
            }
            for field in message.fields() {
                let kind = match field.kind() {
                    prost_reflect::Kind::Message(entry) if field.is_map() => {
                        entry.map_entry_value_field().kind()
                    }
                    kind => kind,
                };
                let prost_reflect::Kind::Enum(values) = kind else {
                    continue;
                };
                if values.parent_file().syntax() == prost_reflect::Syntax::Proto2 {
                    return Err(refuse(
                        &file,
                        field.path(),
                        format!(
                            "closed enum `{}` cannot be used in a \"proto3\" message",
                            values.full_name()
                        ),
                    ));
                }
            }
        }
        // A float or double default written in hex (`[default = 0x10]`), which protoc and buf
        // refuse: the text at the default's place says how it was written.
        for message in self.pool.all_messages() {
            let file = message.parent_file();
            let Some((_, text)) = paths
                .get(file.name())
                .filter(|_| self.own.contains(file.name()))
            else {
                continue;
            };
            for field in message.fields() {
                let floating = matches!(
                    field.kind(),
                    prost_reflect::Kind::Float | prost_reflect::Kind::Double
                );
                // Looking a place up scans the file's locations: only where it can matter.
                if !floating || field.field_descriptor_proto().default_value.is_none() {
                    continue;
                }
                let at = child_of(field.path(), 7);
                let Some((line, column)) = span(file.file_descriptor_proto(), &at) else {
                    continue;
                };
                let written: String = text
                    .lines()
                    .nth(line - 1)
                    .unwrap_or_default()
                    .chars()
                    .skip(column - 1)
                    .collect();
                // The place is the value's own (or the option's, `default = ...`).
                let value = match written.strip_prefix("default") {
                    Some(option) => option.trim_start().trim_start_matches('='),
                    None => written.as_str(),
                };
                let value = value.trim_start().trim_start_matches(['-', '+']);
                if value.starts_with("0x") || value.starts_with("0X") {
                    return Err(refuse(
                        &file,
                        &at,
                        "unsupported base for floating-point literal: write a float default in decimal"
                            .to_owned(),
                    ));
                }
            }
        }
        // Editions' `features` set in a proto2 or proto3 file: each element's options, by the
        // number of its `options` field in its descriptor.
        let mut options = Vec::new();
        for file in self.pool.files() {
            options.push((file.clone(), vec![8], file.options()));
        }
        for message in self.pool.all_messages() {
            let file = message.parent_file();
            options.push((file.clone(), child_of(message.path(), 7), message.options()));
            for field in message.fields() {
                options.push((file.clone(), child_of(field.path(), 8), field.options()));
            }
            for oneof in message.oneofs() {
                options.push((file.clone(), child_of(oneof.path(), 2), oneof.options()));
            }
        }
        for enumeration in self.pool.all_enums() {
            let file = enumeration.parent_file();
            options.push((
                file.clone(),
                child_of(enumeration.path(), 3),
                enumeration.options(),
            ));
            for value in enumeration.values() {
                options.push((file.clone(), child_of(value.path(), 3), value.options()));
            }
        }
        for extension in self.pool.all_extensions() {
            let file = extension.parent_file();
            options.push((file, child_of(extension.path(), 8), extension.options()));
        }
        for service in self.pool.services() {
            let file = service.parent_file();
            options.push((file.clone(), child_of(service.path(), 3), service.options()));
            for method in service.methods() {
                options.push((file.clone(), child_of(method.path(), 4), method.options()));
            }
        }
        for (file, at, options) in options {
            if !self.own.contains(file.name()) {
                continue;
            }
            // Editions files are refused before they are compiled: these are proto2 or proto3.
            let syntax = match file.syntax() {
                prost_reflect::Syntax::Proto2 => "proto2",
                prost_reflect::Syntax::Proto3 => "proto3",
            };
            if options.has_field_by_name("features") {
                return Err(refuse(
                    &file,
                    &at,
                    format!(
                        "`features` cannot be set in a \"{syntax}\" file: they belong to editions"
                    ),
                ));
            }
            // A custom option used on an element its `targets` leave out.
            let Some((target, element)) = option_target(options.descriptor().full_name()) else {
                continue;
            };
            for (extension, _) in options.extensions() {
                let declared = extension.options();
                let targets = declared.get_field_by_name("targets");
                let targets = targets
                    .as_deref()
                    .and_then(|t| t.as_list())
                    .unwrap_or_default();
                if !targets.is_empty()
                    && !targets.iter().any(|t| t.as_enum_number() == Some(target))
                {
                    return Err(refuse(
                        &file,
                        &at,
                        format!(
                            "unsupported option target: option `{}` cannot be set on a {element}, which its `targets` leave out",
                            extension.full_name()
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The `OptionTargetType` number of the elements options message `options` (a full name) is
/// for, and what such an element is called.
fn option_target(options: &str) -> Option<(i32, &'static str)> {
    Some(match options.strip_prefix("google.protobuf.")? {
        "FileOptions" => (1, "file"),
        "MessageOptions" => (3, "message"),
        "FieldOptions" => (4, "field"),
        "OneofOptions" => (5, "oneof"),
        "EnumOptions" => (6, "enum"),
        "EnumValueOptions" => (7, "enum value"),
        "ServiceOptions" => (8, "service"),
        "MethodOptions" => (9, "method"),
        _ => return None,
    })
}

/// `path` with one more field number: where an element's `options` are in its descriptor.
fn child_of(path: &[i32], field: i32) -> Vec<i32> {
    [path, &[field]].concat()
}

/// A field option protoc and buf refuse on this field, with where they place it: `packed` on a
/// singular field or one of a type that cannot be packed, `jstype` on anything but a 64-bit
/// integer, `lazy` on anything but a message, `json_name` written on an extension.
fn misplaced_option(
    file: &prost_reflect::FileDescriptor,
    path: &[i32],
    field: &prost_reflect::prost_types::FieldDescriptorProto,
) -> Option<(Vec<i32>, String)> {
    use prost_reflect::prost_types::field_descriptor_proto::{Label, Type};
    let options = field.options.as_ref();
    let at_type = [path, &[5]].concat();
    let kind = field.r#type();
    let name = field.type_name().trim_start_matches('.');
    let found = match kind {
        Type::Message | Type::Group => format!("message type `{name}`"),
        Type::Enum => format!("enum type `{name}`"),
        scalar => {
            let scalar = scalar.as_str_name().trim_start_matches("TYPE_");
            format!("scalar type `{}`", scalar.to_ascii_lowercase())
        }
    };
    if options.is_some_and(|o| o.packed.is_some()) {
        if field.label() != Label::Repeated {
            return Some((
                path.to_vec(),
                "expected repeated field, found singular field".to_owned(),
            ));
        }
        if matches!(
            kind,
            Type::String | Type::Bytes | Type::Message | Type::Group
        ) {
            return Some((at_type, format!("expected packable type, found {found}")));
        }
    }
    let wide = matches!(
        kind,
        Type::Int64 | Type::Uint64 | Type::Sint64 | Type::Fixed64 | Type::Sfixed64
    );
    if options.is_some_and(|o| o.jstype.is_some()) && !wide {
        return Some((
            at_type,
            format!("expected 64-bit integer type, found {found}"),
        ));
    }
    let message = matches!(kind, Type::Message | Type::Group);
    if options.is_some_and(|o| o.lazy.is_some()) && !message {
        return Some((at_type, format!("expected message type, found {found}")));
    }
    let json_name = [path, &[10]].concat();
    let extension = field.extendee.is_some();
    if extension && span(file.file_descriptor_proto(), &json_name).is_some() {
        return Some((
            json_name,
            "message extension cannot specify `json_name`".to_owned(),
        ));
    }
    None
}

/// The source-info path of the `index`th entry of field `field` of the element at `path`.
fn child(path: &[i32], [field, index]: [i32; 2]) -> Vec<i32> {
    [path, &[field, index]].concat()
}

/// The index of the first range (`[start, end)`) that overlaps one before it.
fn first_overlap(ranges: impl Iterator<Item = (i32, i64)>) -> Option<i32> {
    // Until the first overlap the ranges seen are disjoint, so ordered by start they are
    // ordered by end too, and a new range overlaps one of them only if it overlaps one of its
    // two neighbours: a lookup each, not a pass over all (400,000 reserved numbers).
    let mut seen: BTreeMap<i64, i64> = BTreeMap::new();
    let overlaps = |(s, e): (&i64, &i64), start: i64, end: i64| start < *e && *s < end;
    for (index, (start, end)) in ranges.enumerate() {
        let start = i64::from(start);
        let below = seen.range(..=start).next_back();
        let above = seen.range(start..).next();
        if [below, above]
            .into_iter()
            .flatten()
            .any(|range| overlaps(range, start, end))
        {
            return i32::try_from(index).ok();
        }
        seen.insert(start, end);
    }
    None
}

/// For the first name written a second time, the index and text of its first writing (where
/// buf places the error).
fn first_repeat(names: &[String]) -> Option<(i32, &str)> {
    let mut first: BTreeMap<&str, usize> = BTreeMap::new();
    for (index, name) in names.iter().enumerate() {
        if let Some(&earlier) = first.get(name.as_str()) {
            return Some((i32::try_from(earlier).ok()?, name));
        }
        first.insert(name, index);
    }
    None
}

/// An enum value's name as protoc compares proto3 names: the enum's name dropped from its
/// front (ignoring case and underscores), then camel-cased.
fn json_enum_key(enum_name: &str, value: &str) -> String {
    let wanted: Vec<char> = enum_name
        .chars()
        .filter(|c| *c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let mut rest = value;
    let mut matched = 0;
    for (index, c) in value.char_indices() {
        if matched == wanted.len() {
            rest = &value[index..];
            break;
        }
        if c == '_' {
            continue;
        }
        if c.to_ascii_lowercase() != wanted[matched] {
            break;
        }
        matched += 1;
        if matched == wanted.len() {
            rest = &value[index + c.len_utf8()..];
        }
    }
    let stripped = if matched == wanted.len() {
        rest.trim_start_matches('_')
    } else {
        value
    };
    let stripped = if stripped.is_empty() { value } else { stripped };
    stripped
        .split('_')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + &chars.as_str().to_ascii_lowercase()
            })
        })
        .collect()
}

/// The files the `.proto` text of `file` imports, as they are found among `files` (beside
/// `file`, beside `schema`, then from the root; every place for one found in none), where
/// `schema` is the schema file
/// whose imports these are; the well-known types are none. Read from the text as written, so
/// a file that no longer compiles names its imports still.
pub fn imports(files: &dyn Files, schema: &str, file: &str, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("import") else {
            continue;
        };
        let Some((_, quoted)) = rest.split_once(['"', '\'']) else {
            continue;
        };
        let Some((import, _)) = quoted.split_once(['"', '\'']) else {
            continue;
        };
        if import.starts_with("google/protobuf/") {
            continue;
        }
        let places = import_places(schema, file, import);
        match places.iter().find(|path| files.read(path).is_some()) {
            Some(path) => found.push(path.clone()),
            None => found.extend(places),
        }
    }
    found
}

/// `import` in `folder` (`""`: the root; never `/import`, which names the file system's).
fn beside(folder: &str, import: &str) -> Option<String> {
    if folder.is_empty() {
        normalize(import)
    } else {
        normalize(&format!("{folder}/{import}"))
    }
}

/// Where `import`, imported by the file at `importer`, is looked for, in order: beside the
/// importer, beside `schema` (the file whose imports these are: its folder is the include root
/// of a layout protoc and buf read with `-I` or a module there), then from the root. The
/// schema's folder comes before the root, so each side of a comparison finds its own files.
fn import_places(schema: &str, importer: &str, import: &str) -> Vec<String> {
    let folder = |file: &str| file.rfind('/').map_or("", |i| &file[..i]).to_owned();
    let mut places = Vec::with_capacity(3);
    for place in [
        beside(&folder(importer), import),
        beside(&folder(schema), import),
        normalize(import),
    ]
    .into_iter()
    .flatten()
    {
        if !places.contains(&place) {
            places.push(place);
        }
    }
    places
}

/// `import` as seen from the file at `importer`, read at the first of its [`import_places`].
fn find_import(
    files: &dyn Files,
    schema: &str,
    importer: &str,
    import: &str,
) -> Option<(String, String)> {
    import_places(schema, importer, import)
        .into_iter()
        .find_map(|path| {
            let bytes = files.read(&path)?;
            let text = String::from_utf8_lossy(&bytes).into_owned();
            Some((path, text))
        })
}

/// Serves the side's own files by compiler name, and the well-known types.
struct Resolver {
    sources: BTreeMap<String, Source>,
    google: GoogleFileResolver,
}

impl FileResolver for Resolver {
    fn resolve_path(&self, path: &Path) -> Option<String> {
        let name = path.to_str()?;
        self.sources.contains_key(name).then(|| name.to_owned())
    }

    fn open_file(&self, name: &str) -> Result<File, protox::Error> {
        match self.sources.get(name) {
            Some(source) => File::from_source(name, &for_protox(&source.text)),
            None => self.google.open_file(name),
        }
    }
}

/// `text` as protox is given it: comments as [`comments_opened_once`] leaves them, and a
/// leading byte order mark blanked (three spaces for its three bytes, so every byte stays where
/// it was), since buf's compiler skips it where protox refuses it as a token.
fn for_protox(text: &str) -> std::borrow::Cow<'_, str> {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => comments_opened_once(&format!("   {rest}"))
            .into_owned()
            .into(),
        None => comments_opened_once(text),
    }
}

/// `text` with every `/*` inside a block comment blanked (`/ ` or, where it is the `/*/` that
/// ends the comment, ` */`): protox refuses such a comment as nested, where protoc and buf
/// end it at its first `*/` (`/* from events/*.proto */`). Comments judge nothing, and every
/// byte stays where it was, so lines and columns hold.
fn comments_opened_once(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("/*") {
        return text.into();
    }
    let mut bytes = text.as_bytes().to_vec();
    let (mut at, mut quote, mut in_block) = (0, None, false);
    while at < bytes.len() {
        let (here, next) = (bytes[at], bytes.get(at + 1).copied());
        match (quote, in_block) {
            (Some(q), _) => match here {
                b'\\' => at += 1,
                b'\n' => quote = None,
                _ if here == q => quote = None,
                _ => {}
            },
            (None, true) => match (here, next) {
                (b'*', Some(b'/')) => {
                    in_block = false;
                    at += 1;
                }
                (b'/', Some(b'*')) if bytes.get(at + 2) == Some(&b'/') => bytes[at] = b' ',
                (b'/', Some(b'*')) => bytes[at + 1] = b' ',
                _ => {}
            },
            (None, false) => match (here, next) {
                (b'/', Some(b'/')) => {
                    while at < bytes.len() && bytes[at] != b'\n' {
                        at += 1;
                    }
                }
                (b'/', Some(b'*')) => {
                    in_block = true;
                    at += 1;
                }
                (b'"' | b'\'', _) => quote = Some(here),
                _ => {}
            },
        }
        at += 1;
    }
    // Only ASCII bytes were replaced by ASCII spaces.
    String::from_utf8(bytes).map_or_else(|_| text.into(), Into::into)
}

/// The compiler's complaint as [`Error::Parse`], placed where it says a name or number is
/// defined again (as protoc and buf place it), else at the first span it labels, or at the end
/// of the text when it ran out of it, with the compiler's help when it has some.
fn parse_error(error: &protox::Error, path: &str, text: &str) -> Error {
    use miette::Diagnostic;
    let mut message = error.to_string();
    let labels: Vec<_> = error.labels().into_iter().flatten().collect();
    let again = labels
        .iter()
        .find(|label| label.label() == Some("defined again here"));
    let label = again.or(labels.first());
    let offset = label.map(|label| label.offset()).or_else(|| {
        message
            .ends_with("reached end of file")
            .then_some(text.len())
    });
    let (line, column) = offset.map_or((1, 1), |offset| line_column(text, offset));
    let again_name = again.and_then(|label| text.get(label.offset()..label.offset() + label.len()));
    if let Some(what) = protox_limit(&message, again_name, text) {
        return Error::Unsupported {
            format: Format::Protobuf,
            file: path.to_owned(),
            line,
            column,
            what,
        };
    }
    if let Some(name) = again_name {
        // prost-reflect names the clashing JSON name only when it was written as `json_name`.
        if message.contains("JSON name ''") {
            message = format!("field `{name}` has the JSON name of a field before it");
        }
        // buf accepts `id` beside `Id` (their JSON names differ); protox compares names
        // lower-cased without underscores, an older protoc rule, so say whose rule it is.
        let first = message
            .strip_prefix("camel-case name of field '")
            .and_then(|rest| rest.split('\'').next())
            .map(str::to_owned);
        if let Some(first) = first {
            if json_name(&first) != json_name(name) {
                return Error::Unsupported {
                    format: Format::Protobuf,
                    file: path.to_owned(),
                    line,
                    column,
                    what: format!(
                        "proto3 field names that differ only in case or underscores (`{first}` \
                         and `{name}`; buf accepts them while their JSON names differ, but \
                         protox, the compiler catalog-diff uses, does not)"
                    ),
                };
            }
            message = format!(
                "fields `{first}` and `{name}` have the same JSON name `{}`",
                json_name(name)
            );
        }
    }
    if let Some(edition) = offset.and_then(|offset| edition_at(text.get(offset..)?)) {
        return Error::Unsupported {
            format: Format::Protobuf,
            file: path.to_owned(),
            line,
            column,
            what: format!("Protobuf editions (`edition = {edition}`)"),
        };
    }
    if let Some(help) = error.help().map(|help| help.to_string()) {
        // protox 0.10 calls an import path it refuses an "invalid group name"; its help says
        // what is wrong.
        if help.starts_with("imports may not") {
            message = "invalid import path".to_owned();
        }
        message = format!("{message}: {help}");
    }
    Error::Parse {
        format: Format::Protobuf,
        file: path.to_owned(),
        syntax: "Protobuf",
        line,
        column,
        message,
    }
}

/// Ends what a file uses that buf refuses as well, so no advice sends the reader there.
pub const NO_TOOL_JUDGES: &str = "that no tool judges (buf refuses it too)";

/// Whether the file's `syntax` statement says proto3, read past comments.
fn is_proto3(text: &str) -> bool {
    without_comments(text).split(';').any(|statement| {
        let value = statement
            .trim()
            .strip_prefix("syntax")
            .and_then(|rest| rest.trim_start().strip_prefix('='))
            .map(str::trim);
        matches!(value, Some("\"proto3\"" | "'proto3'"))
    })
}

/// `text` with its `//` and `/* */` comments left out (strings kept as they are).
fn without_comments(text: &str) -> String {
    let mut code = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('/', Some('/')) => {
                chars.by_ref().find(|&c| c == '\n');
                code.push('\n');
            }
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                chars
                    .by_ref()
                    .find(|&c| std::mem::replace(&mut last, c) == '*' && c == '/');
                code.push(' ');
            }
            ('"' | '\'', _) => {
                code.push(c);
                let mut escaped = false;
                for inner in chars.by_ref() {
                    code.push(inner);
                    if inner == c && !escaped || inner == '\n' {
                        break;
                    }
                    escaped = inner == '\\' && !escaped;
                }
            }
            _ => code.push(c),
        }
    }
    code
}

/// What buf accepts but protox refuses, named for the reader, from protox's complaint
/// (`message`, about `name` where it points) and the file's `text`.
fn protox_limit(message: &str, name: Option<&str>, text: &str) -> Option<String> {
    let protox = "but protox, the compiler catalog-diff uses, does not";
    // The complaint may come before the file is parsed, so its syntax is read from the text.
    let proto2 = !is_proto3(text);
    // prost-reflect leaves the JSON name empty when it is the default one.
    if message.contains("JSON name ''") && proto2 {
        let name = name.unwrap_or("a field");
        return Some(format!(
            "proto2 fields with the same default JSON name (`{name}` and a field before it; \
             buf accepts them in proto2, {protox})"
        ));
    }
    if message == "string is not valid utf-8" && proto2 {
        return Some(format!(
            "a proto2 string that is not UTF-8 text (a `\\x` escape; buf accepts it, {protox})"
        ));
    }
    // protoc renames the synthetic oneof of `optional int32 a` when `_a` is already taken.
    let field = message
        .strip_prefix("name '")
        .and_then(|rest| rest.strip_suffix("' is defined twice"))
        .and_then(|full| full.rsplit('.').next())
        .and_then(|last| last.strip_prefix('_'))?;
    declares_optional(text, field).then(|| {
        format!(
            "a oneof named `_{field}` beside the proto3 `optional` field `{field}` (protoc \
             renames the field's synthetic oneof, {protox})"
        )
    })
}

/// Whether `text` declares `optional <type> <field>`.
fn declares_optional(text: &str, field: &str) -> bool {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || matches!(c, ';' | '{' | '}' | '='))
        .filter(|word| !word.is_empty())
        .collect();
    words
        .windows(3)
        .any(|three| three[0] == "optional" && three[2] == field)
}

/// A field's default JSON name, as protoc derives it: each `_` dropped and the letter after it
/// capitalised (`order_id` is `orderId`).
fn json_name(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut capital = false;
    for c in field.chars() {
        match c {
            '_' => capital = true,
            c if capital => {
                out.extend(c.to_uppercase());
                capital = false;
            }
            c => out.push(c),
        }
    }
    out
}

/// The edition an `edition = "2023";` statement at the start of `text` names, quoted as
/// written. protox reads proto2 and proto3 only, and stops at the statement.
fn edition_at(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("edition")?.trim_start();
    let value = rest.strip_prefix('=')?.trim_start();
    let quote = value.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let end = value[1..].find(quote)? + 2;
    Some(&value[..end])
}

/// The 1-based line and column where the element at a source path starts (1:1 when the file
/// does not say).
fn span_start(
    proto: &prost_reflect::prost_types::FileDescriptorProto,
    at: &[i32],
) -> (usize, usize) {
    span(proto, at).unwrap_or((1, 1))
}

/// The 1-based line and column where the element at a source path starts, if the file says.
fn span(
    proto: &prost_reflect::prost_types::FileDescriptorProto,
    at: &[i32],
) -> Option<(usize, usize)> {
    proto
        .source_code_info
        .as_ref()
        .and_then(|info| info.location.iter().find(|l| l.path == at))
        .map(|l| {
            let at = |i: usize| l.span.get(i).map_or(1, |v| *v as usize + 1);
            (at(0), at(1))
        })
}

/// The 1-based line where the element each op path names is declared in `text` (1 when it
/// cannot be placed): [`places_of`] with no other file at hand.
pub fn lines_of(text: &str, paths: &[&str]) -> Vec<usize> {
    places_of(Document::new("schema.proto", text), paths)
        .into_iter()
        .map(|(_, line)| line)
        .collect()
}

/// Where the element each op path names is declared: the file (`None`: the document itself;
/// else the path of an imported file, found among the document's files as the compiler finds
/// it) and the 1-based line in it. Paths are `/<full name>` optionally followed by
/// `/fields/<number>`, `/values/<number>`, `/methods/<name>` or `/extensions/<number>` (an
/// extension of that message, placed at its field in the `extend` block that declares it); a
/// map entry is placed at its map field; an element or member the files no longer have (a
/// removed field) falls back to its nearest enclosing element, else to line 1 of the
/// document. The document is parsed once for all of them; an import only when an element
/// is not in the files read before it.
pub fn places_of(document: Document<'_>, paths: &[&str]) -> Vec<(Option<String>, usize)> {
    if too_deep_literal(document.text).is_some() {
        return vec![(None, 1); paths.len()];
    }
    let Some(main) = Placed::parse(document.text) else {
        return vec![(None, 1); paths.len()];
    };
    let mut sources = Sources {
        document,
        files: vec![(None, main)],
        pending: VecDeque::new(),
        seen: BTreeSet::new(),
    };
    sources.queue_imports(0);
    paths.iter().map(|path| sources.place(path)).collect()
}

/// One parsed `.proto` file: its descriptor (unresolved: names as written) and the first line
/// of each source path, as the first location of that path gives it.
struct Placed {
    proto: prost_reflect::prost_types::FileDescriptorProto,
    lines: HashMap<Vec<i32>, usize>,
}

impl Placed {
    fn parse(text: &str) -> Option<Placed> {
        if too_deep_literal(text).is_some() {
            return None;
        }
        let file = File::from_source("schema.proto", &for_protox(text)).ok()?;
        let proto = file.file_descriptor_proto().clone();
        let mut lines = HashMap::new();
        for location in &proto.source_code_info.as_ref()?.location {
            if let Some(line) = location.span.first() {
                lines
                    .entry(location.path.clone())
                    .or_insert(*line as usize + 1);
            }
        }
        Some(Placed { proto, lines })
    }

    /// `full` (a full name) relative to this file's package, if it lies in it.
    fn relative<'n>(&self, full: &'n str) -> Option<&'n str> {
        let package = self.proto.package();
        if package.is_empty() {
            return Some(full);
        }
        full.strip_prefix(package)?.strip_prefix('.')
    }

    fn line(&self, path: Option<Vec<i32>>) -> Option<usize> {
        self.lines.get(&path?).copied()
    }

    /// The line of element `full` (of its `member` when this file still has it), if this
    /// file defines the element.
    fn exact(&self, full: &str, member: (Option<&str>, Option<&str>)) -> Option<usize> {
        let name = self.relative(full)?;
        self.line(locate(&self.proto, name, member))
            .or_else(|| self.line(locate(&self.proto, name, (None, None))))
    }

    /// The line of the nearest element enclosing `full` that this file defines.
    fn nearest(&self, full: &str) -> Option<usize> {
        let mut name = self.relative(full)?;
        loop {
            let (outer, _) = name.rsplit_once('.')?;
            name = outer;
            if let Some(line) = self.line(locate(&self.proto, name, (None, None))) {
                return Some(line);
            }
        }
    }

    /// The line of the field numbered `number` in an `extend` block of this file that
    /// extends `full` (its extendee as written: the full name, or a name relative to it).
    fn extension(&self, full: &str, number: i32) -> Option<usize> {
        let extends = |field: &prost_reflect::prost_types::FieldDescriptorProto| {
            let written = field.extendee().trim_start_matches('.');
            field.number() == number && (written == full || full.ends_with(&format!(".{written}")))
        };
        let index = |i: usize| i32::try_from(i).ok();
        // Top-level `extend` blocks (7), then those nested in messages (6), at any depth.
        if let Some(i) = self.proto.extension.iter().position(extends) {
            return self.line(Some(vec![7, index(i)?]));
        }
        let mut stack: Vec<(Vec<i32>, &prost_reflect::prost_types::DescriptorProto)> =
            (self.proto.message_type.iter().enumerate())
                .filter_map(|(i, m)| Some((vec![4, index(i)?], m)))
                .collect();
        while let Some((path, message)) = stack.pop() {
            if let Some(i) = message.extension.iter().position(extends) {
                return self.line(Some([path, vec![6, index(i)?]].concat()));
            }
            for (i, nested) in message.nested_type.iter().enumerate() {
                stack.push(([path.clone(), vec![3, index(i)?]].concat(), nested));
            }
        }
        None
    }
}

/// The document and the files it imports (transitively, the well-known types aside), each
/// parsed when first needed, in the order the compiler meets them.
struct Sources<'d> {
    document: Document<'d>,
    files: Vec<(Option<String>, Placed)>,
    /// (importer's path, import as written), not yet read.
    pending: VecDeque<(String, String)>,
    seen: BTreeSet<String>,
}

impl Sources<'_> {
    fn queue_imports(&mut self, file: usize) {
        let importer =
            (self.files[file].0.clone()).unwrap_or_else(|| self.document.path.to_owned());
        for import in &self.files[file].1.proto.dependency {
            if !is_builtin(import) && !import.starts_with("google/protobuf/") {
                self.pending.push_back((importer.clone(), import.clone()));
            }
        }
    }

    /// Reads the next import not read yet; `false` when there is none.
    fn read_next(&mut self) -> bool {
        let Some(files) = self.document.files else {
            return false;
        };
        while let Some((importer, import)) = self.pending.pop_front() {
            let Some((path, text)) = find_import(files, self.document.path, &importer, &import)
            else {
                continue;
            };
            if path == self.document.path || !self.seen.insert(path.clone()) {
                continue;
            }
            let Some(placed) = Placed::parse(&text) else {
                continue;
            };
            self.files.push((Some(path), placed));
            self.queue_imports(self.files.len() - 1);
            return true;
        }
        false
    }

    /// The first of the files (reading imports as needed) where `find` places something.
    fn first(
        &mut self,
        find: impl Fn(&Placed) -> Option<usize>,
    ) -> Option<(Option<String>, usize)> {
        let mut at = 0;
        loop {
            while at >= self.files.len() {
                if !self.read_next() {
                    return None;
                }
            }
            let (file, placed) = &self.files[at];
            if let Some(line) = find(placed) {
                return Some((file.clone(), line));
            }
            at += 1;
        }
    }

    fn place(&mut self, path: &str) -> (Option<String>, usize) {
        let mut segments = path.trim_start_matches('/').splitn(3, '/');
        let element = segments.next().unwrap_or_default();
        let member = (segments.next(), segments.next());
        if let (Some("extensions"), Some(number)) = member
            && let Ok(number) = number.parse::<i32>()
            && let Some(found) = self.first(|file| file.extension(element, number))
        {
            return found;
        }
        self.first(|file| file.exact(element, member))
            .or_else(|| self.first(|file| file.nearest(element)))
            .unwrap_or((None, 1))
    }
}

/// The source path of a (package-relative) element and, optionally, one of its members.
fn locate(
    proto: &prost_reflect::prost_types::FileDescriptorProto,
    name: &str,
    member: (Option<&str>, Option<&str>),
) -> Option<Vec<i32>> {
    use prost_reflect::prost_types::DescriptorProto;
    let index = |i: usize| i32::try_from(i).ok();
    let mut parts = name.split('.');
    let first = parts.next()?;
    let rest: Vec<&str> = parts.collect();
    // Top-level: messages (4), enums (5), services (6).
    if rest.is_empty() {
        if let Some(i) = proto.enum_type.iter().position(|e| e.name() == first) {
            let mut path = vec![5, index(i)?];
            if let (Some("values"), Some(number)) = member {
                let number: i32 = number.parse().ok()?;
                let v = proto.enum_type[i]
                    .value
                    .iter()
                    .position(|v| v.number() == number)?;
                path.extend([2, index(v)?]);
            }
            return Some(path);
        }
        if let Some(i) = proto.service.iter().position(|s| s.name() == first) {
            let mut path = vec![6, index(i)?];
            if let (Some("methods"), Some(method)) = member {
                let m = proto.service[i]
                    .method
                    .iter()
                    .position(|m| m.name() == method)?;
                path.extend([2, index(m)?]);
            }
            return Some(path);
        }
    }
    let i = proto.message_type.iter().position(|m| m.name() == first)?;
    let mut path = vec![4, index(i)?];
    let mut message: &DescriptorProto = &proto.message_type[i];
    for (depth, part) in rest.iter().enumerate() {
        let last = depth + 1 == rest.len();
        if last && let Some(e) = message.enum_type.iter().position(|e| e.name() == *part) {
            path.extend([4, index(e)?]);
            if let (Some("values"), Some(number)) = member {
                let number: i32 = number.parse().ok()?;
                let v = message.enum_type[e]
                    .value
                    .iter()
                    .position(|v| v.number() == number)?;
                path.extend([2, index(v)?]);
            }
            return Some(path);
        }
        let n = message.nested_type.iter().position(|m| m.name() == *part)?;
        let nested = &message.nested_type[n];
        // A map's entry message is the compiler's, not the text's: its key and value are
        // written in the map field.
        if nested.options.as_ref().is_some_and(|o| o.map_entry()) {
            let f = message
                .field
                .iter()
                .position(|f| f.type_name().rsplit('.').next() == Some(*part))?;
            path.extend([2, index(f)?]);
            return Some(path);
        }
        path.extend([3, index(n)?]);
        message = nested;
    }
    if let (Some("fields"), Some(number)) = member {
        let number: i32 = number.parse().ok()?;
        let f = message.field.iter().position(|f| f.number() == number)?;
        path.extend([2, index(f)?]);
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where and why `document` is refused: (line, column, message). Compiling, or failing
    /// otherwise, fails the test.
    fn refusal(document: Document<'_>) -> (usize, usize, String) {
        let text = document.text;
        match Compiled::new(document) {
            Err(Error::Parse {
                line,
                column,
                message,
                ..
            }) => (line, column, message),
            other => panic!("{text}: unexpected {:?}", other.err()),
        }
    }

    /// The syntax is read from its statement, never from a comment or a string that says it.
    #[test]
    fn the_syntax_statement_is_read_past_comments() {
        assert!(is_proto3("// header\nsyntax = \"proto3\";\nmessage M {}"));
        assert!(is_proto3("/* a */ syntax='proto3';"));
        for text in [
            "syntax = \"proto2\"; // not yet \"proto3\"",
            "/* syntax = \"proto3\"; */ syntax = \"proto2\";",
            "syntax = \"proto2\"; option (o) = \"syntax = 'proto3';\";",
        ] {
            assert!(!is_proto3(text), "{text}");
        }
    }

    fn line_of(text: &str, path: &str) -> usize {
        lines_of(text, &[path])[0]
    }
    use std::sync::Arc;

    struct Map(BTreeMap<&'static str, &'static str>);

    impl Files for Map {
        fn read(&self, path: &str) -> Option<Arc<[u8]>> {
            self.0.get(path).map(|text| Arc::from(text.as_bytes()))
        }
    }

    #[test]
    fn a_block_comment_ends_at_its_first_close_as_buf_reads_it() {
        let opened = |text: &str| comments_opened_once(text).into_owned();
        assert_eq!(
            opened("/* from events/*.proto */"),
            "/* from events/ .proto */"
        );
        assert_eq!(opened("/* a /*/ m"), "/* a  */ m");
        // Strings and line comments are left alone, and so is a file without `/*`.
        let kept = "option (o) = \"/*\"; // /* no\nmessage M {}\n";
        assert_eq!(opened(kept), kept);
        assert!(matches!(
            comments_opened_once("message M {}"),
            std::borrow::Cow::Borrowed(_)
        ));
        let text =
            "syntax = \"proto3\";\n/* see *.proto, /* here */\nmessage M { string id = 1; }\n";
        let after = text.replace("string", "int64");
        let changes = changes(
            Document::new("a.proto", text),
            Document::new("a.proto", &after),
            ProtoRules::WireJson,
        )
        .expect("both compile");
        assert_eq!(changes.len(), 1, "{changes:?}");
    }

    #[test]
    fn rules_parse_and_reject() {
        assert_eq!("wire".parse(), Ok(ProtoRules::Wire));
        assert_eq!("wire-json".parse(), Ok(ProtoRules::WireJson));
        assert!("WIRE".parse::<ProtoRules>().is_err());
    }

    #[test]
    fn syntax_errors_name_file_line_and_column() {
        let text = "syntax = \"proto3\";\nmessage A {\n  string a = 1\n}\n";
        match Compiled::new(Document::new("events/a.proto", text)) {
            Err(Error::Parse {
                file, line, column, ..
            }) => {
                assert_eq!(file, "events/a.proto");
                assert_eq!((line, column), (4, 1));
            }
            other => panic!("unexpected {:?}", other.err()),
        }
    }

    #[test]
    fn an_editions_file_is_unsupported_not_a_syntax_error() {
        let text = "// orders\nedition = \"2023\";\nmessage A {\n  string a = 1;\n}\n";
        match Compiled::new(Document::new("events/a.proto", text)) {
            Err(Error::Unsupported {
                file, line, what, ..
            }) => {
                assert_eq!((file.as_str(), line), ("events/a.proto", 2));
                assert_eq!(what, "Protobuf editions (`edition = \"2023\"`)");
            }
            other => panic!("unexpected {:?}", other.err()),
        }
        // A misspelt keyword is still the file's fault.
        let typo = "editon = \"2023\";\nmessage A {}\n";
        assert!(matches!(
            Compiled::new(Document::new("a.proto", typo)),
            Err(Error::Parse { .. })
        ));
    }

    #[test]
    fn a_file_cut_short_is_placed_at_its_end_and_a_bad_import_is_named() {
        let place = |text: &str| refusal(Document::new("a.proto", text));
        let (line, column, message) = place("syntax = \"proto3\";\nmessage A {\n  string a = 1;\n");
        assert_eq!((line, column), (4, 1), "{message}");
        assert!(message.contains("reached end of file"), "{message}");
        let (line, column, message) = place("syntax = \"proto3\";\nimport \"./b.proto\";\n");
        assert_eq!((line, column), (2, 8), "{message}");
        assert!(
            message.starts_with("invalid import path: imports may not contain"),
            "{message}"
        );
    }

    #[test]
    fn overlapping_ranges_and_names_reserved_twice_are_refused_where_buf_places_them() {
        // buf 1.75.0's compile errors for each (scripts/agree-protobuf.py found the first).
        let cases = [
            (
                "message M {\n  int32 a = 1;\n  reserved 2;\n  reserved 2;\n}\n",
                "proto3",
                (7, 12),
                "overlapping field number ranges",
            ),
            (
                "message M {\n  int32 a = 1;\n  reserved 2 to 5;\n  reserved 4 to 8;\n}\n",
                "proto3",
                (7, 12),
                "overlapping field number ranges",
            ),
            (
                "message M {\n  optional int32 a = 1;\n  reserved 100;\n  extensions 100 to 200;\n}\n",
                "proto2",
                (7, 14),
                "overlapping field number ranges",
            ),
            (
                "enum E {\n  E0 = 0;\n  reserved 2;\n  reserved 2;\n}\n",
                "proto3",
                (7, 12),
                "overlapping enum value ranges",
            ),
            (
                "message M {\n  int32 a = 1;\n  reserved \"x\";\n  reserved \"x\";\n}\n",
                "proto3",
                (6, 12),
                "message field name `x` reserved more than once",
            ),
            (
                "enum E {\n  E0 = 0;\n  reserved \"X\";\n  reserved \"X\";\n}\n",
                "proto3",
                (6, 12),
                "enum value `X` reserved more than once",
            ),
        ];
        for (body, syntax, place, wanted) in cases {
            let text = format!("syntax = \"{syntax}\";\npackage p;\n\n{body}");
            let (line, column, message) = refusal(Document::new("a.proto", &text));
            assert_eq!(message, wanted, "{text}");
            assert_eq!((line, column), place, "{text}");
        }
        // Ranges that only touch do not overlap.
        let text = "syntax = \"proto3\";\nmessage M {\n  reserved 2 to 5;\n  reserved 6;\n}\n";
        assert!(Compiled::new(Document::new("a.proto", text)).is_ok());
        let text =
            "syntax = \"proto3\";\nenum E {\n  E0 = 0;\n  reserved 2 to 5;\n  reserved 6;\n}\n";
        assert!(Compiled::new(Document::new("a.proto", text)).is_ok());
    }

    #[test]
    fn map_values_of_an_enum_not_starting_at_zero_are_refused() {
        let text = "syntax = \"proto2\";\nenum E { A = 1; B = 2; Z = 0; }\nmessage M {\n  map<string, E> m = 1;\n}\n";
        assert!(matches!(
            Compiled::new(Document::new("a.proto", text)),
            Err(Error::Parse {
                line: 4,
                column: 3,
                ..
            })
        ));
    }

    #[test]
    fn what_buf_refuses_is_refused() {
        for text in [
            "syntax = \"proto3\";\nenum E { E_UNSPECIFIED = 0; e_unspecified = 1; }\n",
            "syntax = \"proto3\";\nmessage A { extensions 100 to 200; }\n",
            "syntax = \"proto3\";\nmessage A { string a = 1; reserved \"a\"; }\n",
            "syntax = \"proto2\";\nenum E { A = 0; B = 1; reserved \"B\"; }\n",
            "syntax = \"proto3\";\nenum E { option allow_alias = true; A = 0; B = 1; }\n",
        ] {
            assert!(
                matches!(
                    Compiled::new(Document::new("a.proto", text)),
                    Err(Error::Parse { .. })
                ),
                "{text}"
            );
        }
        for text in [
            "syntax = \"proto3\";\nenum Color { COLOR_UNSPECIFIED = 0; COLOR_RED = 1; RED = 2; }\n",
            "syntax = \"proto3\";\nenum E { option allow_alias = true; E_A = 0; e_a = 0; }\n",
            "syntax = \"proto2\";\nenum E { E_A = 0; e_a = 1; }\n",
        ] {
            let result = Compiled::new(Document::new("a.proto", text));
            if text.contains("RED = 2") {
                // COLOR_RED and RED read the same once the prefix is dropped.
                assert!(matches!(result, Err(Error::Parse { .. })), "{text}");
            } else {
                assert!(result.is_ok(), "{text}");
            }
        }
        assert_eq!(json_enum_key("Color", "COLOR_DARK_RED"), "DarkRed");
        assert_eq!(json_enum_key("Color", "COLOR"), "Color");
        assert_eq!(json_enum_key("FooBar", "FOO_BAR_X"), "X");
    }

    /// Editions' `features` in a proto2 or proto3 file, on any element, are refused at their
    /// options, as protoc and buf refuse them.
    #[test]
    fn features_outside_editions_are_refused_at_their_options() {
        for (text, line, column) in [
            (
                "syntax = \"proto3\";\nmessage M {\n  int32 a = 1 [features.field_presence = EXPLICIT];\n}\n",
                3,
                15,
            ),
            (
                "syntax = \"proto2\";\noption features.field_presence = EXPLICIT;\n",
                2,
                1,
            ),
            (
                "syntax = \"proto3\";\nenum E {\n  option features.enum_type = CLOSED;\n  A = 0;\n}\n",
                3,
                3,
            ),
            (
                "syntax = \"proto3\";\nservice S {\n  option features.json_format = ALLOW;\n}\n",
                3,
                3,
            ),
        ] {
            let (l, c, message) = refusal(Document::new("a.proto", text));
            assert_eq!((l, c), (line, column), "{text}");
            assert!(message.contains("`features` cannot be set"), "{message}");
        }
    }

    /// A custom option used on an element its `targets` leave out is refused where it is set,
    /// as protoc and buf refuse it; used where they allow it, it compiles.
    #[test]
    fn a_custom_option_outside_its_targets_is_refused_where_it_is_set() {
        let text = "syntax = \"proto3\";\nimport \"google/protobuf/descriptor.proto\";\nextend google.protobuf.FieldOptions { int32 o = 50000 [targets = TARGET_TYPE_MESSAGE]; }\nmessage M {\n  int32 a = 1 [(o) = 1];\n}\n";
        let (line, _, message) = refusal(Document::new("a.proto", text));
        assert_eq!(line, 5);
        assert!(message.contains("unsupported option target"), "{message}");
        let allowed = text.replace("TARGET_TYPE_MESSAGE", "TARGET_TYPE_FIELD");
        assert!(Compiled::new(Document::new("a.proto", &allowed)).is_ok());
    }

    /// A float or double default in hex is refused at its value, as protoc and buf refuse it;
    /// an integer default in hex is fine.
    #[test]
    fn a_hex_float_default_is_refused_at_its_value() {
        let text = "syntax = \"proto2\";\nmessage M {\n  optional int32 a = 1 [default = 0x10];\n  optional double b = 2 [default = -0X1];\n}\n";
        let (line, _, message) = refusal(Document::new("a.proto", text));
        assert_eq!(line, 4);
        assert!(message.contains("floating-point literal"), "{message}");
        let decimal = text.replace("-0X1", "-1.5e3");
        assert!(Compiled::new(Document::new("a.proto", &decimal)).is_ok());
    }

    #[test]
    fn undefined_types_are_compile_errors() {
        let text = "syntax = \"proto3\";\nmessage A {\n  Missing a = 1;\n}\n";
        assert!(matches!(
            Compiled::new(Document::new("a.proto", text)),
            Err(Error::Parse { line: 3, .. })
        ));
    }

    #[test]
    fn imports_resolve_beside_then_at_the_root_and_builtin() {
        let files = Map(BTreeMap::from([
            (
                "events/money.proto",
                "syntax = \"proto3\";\npackage acme;\nmessage Money { int64 cents = 1; }\n",
            ),
            (
                "common/ids.proto",
                "syntax = \"proto3\";\npackage acme;\nmessage Id { string v = 1; }\n",
            ),
        ]));
        let text = "syntax = \"proto3\";\npackage acme;\nimport \"money.proto\";\nimport \"common/ids.proto\";\nimport \"google/protobuf/timestamp.proto\";\nmessage A { Money m = 1; Id id = 2; google.protobuf.Timestamp at = 3; }\n";
        let compiled = Compiled::new(Document::new("events/a.proto", text).with_files(&files))
            .expect("compiles");
        assert_eq!(compiled.own.len(), 3);
        let missing = Compiled::new(Document::new("events/a.proto", text));
        assert!(
            matches!(missing, Err(Error::UnresolvedImport { import, line: 3, column: 1, .. }) if import == "money.proto")
        );
    }

    #[test]
    fn any_prefix_of_a_file_compiles_or_fails_cleanly() {
        let text = "syntax = \"proto2\";\npackage a.b;\nimport \"google/protobuf/any.proto\";\n// é\nmessage M {\n  optional group G = 1 { optional int32 x = 2 [default = -3]; }\n  map<string, E> m = 3;\n  oneof o { string s = 4; }\n  extensions 100 to max;\n  reserved 10 to 20, 30;\n  reserved \"gone\";\n}\nenum E { option allow_alias = true; Z = 0; A = 1; B = 1; }\nextend M { optional string ext = 100; }\nservice S { rpc R(M) returns (stream M); }\n";
        let full = Document::new("full.proto", text);
        for end in (0..=text.len()).filter(|end| text.is_char_boundary(*end)) {
            let prefix = Document::new("prefix.proto", &text[..end]);
            for category in ProtoRules::ALL {
                let _ = changes(prefix, full, category);
                let _ = changes(full, prefix, category);
            }
            let _ = line_of(&text[..end], "/a.b.M/fields/3");
        }
        assert!(changes(full, full, ProtoRules::Wire).is_ok_and(|c| c.is_empty()));
    }

    /// Where protoc and buf place a clash (the second definition), in the words that name it;
    /// and names buf accepts but protox refuses are a limit of ours, not invalid Protobuf.
    #[test]
    fn clashes_are_placed_at_the_second_definition() {
        let compile = |body: &str| {
            let text = format!("syntax = \"proto3\";\nmessage M {{\n{body}\n}}\n");
            Compiled::new(Document::new("a.proto", &text)).err()
        };
        match compile("  string id = 1;\n  int32 x = 1;") {
            Some(Error::Parse { line, column, .. }) => assert_eq!((line, column), (4, 13)),
            other => panic!("unexpected {other:?}"),
        }
        match compile("  string a = 1 [json_name = \"b\"];\n  string b = 2;") {
            Some(Error::Parse { line, message, .. }) => {
                assert_eq!(line, 4);
                assert!(message.contains("field `b`"), "{message}");
            }
            other => panic!("unexpected {other:?}"),
        }
        match compile("  string id = 1;\n  string Id = 2;") {
            Some(Error::Unsupported { line, what, .. }) => {
                assert_eq!(line, 4);
                assert!(what.contains("`id` and `Id`"), "{what}");
            }
            other => panic!("unexpected {other:?}"),
        }
        // Equal JSON names are a clash buf refuses too.
        match compile("  string foo_bar = 1;\n  string fooBar = 2;") {
            Some(Error::Parse { line, .. }) => assert_eq!(line, 4),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn paths_map_to_lines() {
        let text = "syntax = \"proto3\";\npackage acme.v1;\n\nmessage Order {\n  string id = 1;\n  map<string, string> tags = 2;\n  enum State {\n    STATE_UNSPECIFIED = 0;\n  }\n}\nenum Kind { KIND_UNSPECIFIED = 0; }\n";
        assert_eq!(line_of(text, "/acme.v1.Order"), 4);
        assert_eq!(line_of(text, "/acme.v1.Order/fields/1"), 5);
        assert_eq!(line_of(text, "/acme.v1.Order/fields/2"), 6);
        // A map's key and value are placed at the map field.
        assert_eq!(line_of(text, "/acme.v1.Order.TagsEntry/fields/2"), 6);
        assert_eq!(line_of(text, "/acme.v1.Order.TagsEntry"), 6);
        assert_eq!(line_of(text, "/acme.v1.Order.State/values/0"), 8);
        assert_eq!(line_of(text, "/acme.v1.Kind"), 11);
        assert_eq!(line_of(text, "/elsewhere.Thing"), 1);
        // A removed field or value is placed at its message or enum.
        assert_eq!(line_of(text, "/acme.v1.Order/fields/9"), 4);
        assert_eq!(line_of(text, "/acme.v1.Kind/values/7"), 11);
        assert_eq!(line_of("not proto", "/x"), 1);
    }

    #[test]
    fn extensions_and_imported_elements_are_placed_where_they_are_declared() {
        let main = "syntax = \"proto2\";\npackage acme.v1;\nimport \"money.proto\";\nmessage OrderPlaced {\n  optional acme.m.Money total = 1;\n  extensions 100 to 200;\n  message Inner {\n    extend OrderPlaced {\n      optional int32 nested = 101;\n    }\n  }\n}\n\nextend OrderPlaced {\n  optional int32 channel = 100;\n}\n";
        let money = "syntax = \"proto2\";\npackage acme.m;\nimport \"google/protobuf/timestamp.proto\";\n\nmessage Money {\n  optional int64 cents = 1;\n}\n\nextend acme.v1.OrderPlaced {\n  optional string note = 150;\n}\n";
        let files = Map(BTreeMap::from([("events/E/money.proto", money)]));
        let document = Document::new("events/E/schema.proto", main).with_files(&files);
        let money_file = Some("events/E/money.proto".to_owned());
        assert_eq!(
            places_of(
                document,
                &[
                    "/acme.v1.OrderPlaced/extensions/100",
                    "/acme.v1.OrderPlaced/extensions/101",
                    "/acme.v1.OrderPlaced/extensions/150",
                    "/acme.v1.OrderPlaced/extensions/199",
                    "/acme.m.Money/fields/1",
                    // Removed from the imported file: placed at its message there.
                    "/acme.m.Money/fields/2",
                    "/acme.v1.OrderPlaced/fields/1",
                    "/elsewhere.Thing",
                ]
            ),
            vec![
                (None, 15),
                (None, 9),
                (money_file.clone(), 10),
                // No `extend` declares it (any longer): its message.
                (None, 4),
                (money_file.clone(), 6),
                (money_file, 5),
                (None, 5),
                (None, 1),
            ]
        );
        // Without the other files at hand, only the document itself is read.
        assert_eq!(line_of(main, "/acme.m.Money/fields/1"), 1);
        assert_eq!(line_of(main, "/acme.v1.OrderPlaced/extensions/100"), 15);
    }

    /// The first range overlapping one written before it, found by its neighbours: the same
    /// answer as a pass over every earlier range.
    #[test]
    fn the_first_overlapping_range_is_found_among_many() {
        let brute = |ranges: &[(i32, i64)]| {
            (0..ranges.len()).find(|&i| {
                let (start, end) = (i64::from(ranges[i].0), ranges[i].1);
                ranges[..i]
                    .iter()
                    .any(|&(s, e)| start < e && i64::from(s) < end)
            })
        };
        let mut seed = 7u64;
        let mut next = |below: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % below
        };
        for _ in 0..2000 {
            let ranges: Vec<(i32, i64)> = (0..next(12))
                .map(|_| {
                    let start = next(60) as i32;
                    (start, i64::from(start) + 1 + next(8) as i64)
                })
                .collect();
            let found = first_overlap(ranges.iter().copied()).map(|i| i as usize);
            assert_eq!(found, brute(&ranges), "{ranges:?}");
        }
        let many = (0..400_000).map(|n| (n, i64::from(n) + 1));
        assert_eq!(first_overlap(many.chain([(5, 6)])), Some(400_000));
    }

    /// An option value nested a few thousand levels deep would overflow the compiler's stack:
    /// it is refused at the bracket that goes past buf's limit, as buf places it.
    #[test]
    fn option_literals_nested_past_buf_limit_are_refused_at_the_bracket() {
        let nested = |levels: usize, open: &str, close: &str| {
            format!(
                "syntax = \"proto3\";\npackage acme.v1;\nimport \"google/protobuf/descriptor.proto\";\n\
                 message O {{ repeated O o = 1; }}\nextend google.protobuf.MessageOptions {{ O opt = 50000; }}\n\
                 // {{{{{{ \"[[[\" are not counted\nmessage M {{ option (opt) = {}{{}}{}; int32 a = 1; }}\n",
                open.repeat(levels),
                close.repeat(levels)
            )
        };
        // 99 levels around `{}`: 100 brackets deep, which buf allows.
        let allowed = nested(99, "{o: ", "}");
        assert!(Compiled::new(Document::new("a.proto", &allowed)).is_ok());
        for (levels, open, close, column) in [
            (100, "{o: ", "}", 428),
            (5000, "{o: ", "}", 428),
            (60, "{o: [", "]}", 278),
        ] {
            let text = nested(levels, open, close);
            let (line, at, message) = refusal(Document::new("a.proto", &text));
            assert_eq!((line, at), (7, column), "{levels} {open}");
            assert_eq!(message, "expression nesting depth must be at most 100");
            assert_eq!(lines_of(&text, &["/acme.v1.M"]), vec![1]);
        }
    }

    struct Owned(BTreeMap<String, String>);

    impl Files for Owned {
        fn read(&self, path: &str) -> Option<Arc<[u8]>> {
            self.0.get(path).map(|text| Arc::from(text.as_bytes()))
        }
    }

    /// Each file is compiled after its imports, so a chain thousands of files long never
    /// makes the compiler recurse down it; a cycle is refused where it closes.
    #[test]
    fn a_long_import_chain_compiles_and_a_cycle_is_refused_where_it_closes() {
        let file = |i: usize, import: Option<usize>| {
            let import = import.map_or(String::new(), |j| format!("import \"f{j}.proto\";\n"));
            format!(
                "syntax = \"proto3\";\npackage acme.v1;\n{import}message M{i} {{ int32 a = 1; }}\n"
            )
        };
        let length = 6000;
        let files = Owned(
            (1..length)
                .map(|i| {
                    (
                        format!("f{i}.proto"),
                        file(i, Some(i + 1).filter(|j| *j < length)),
                    )
                })
                .collect(),
        );
        let main = file(0, Some(1));
        let compiled =
            Compiled::new(Document::new("f0.proto", &main).with_files(&files)).expect("compiles");
        assert_eq!(compiled.own.len(), length);

        let files = Owned(BTreeMap::from([
            ("f1.proto".to_owned(), file(1, Some(2))),
            ("f2.proto".to_owned(), file(2, Some(1))),
        ]));
        match Compiled::new(Document::new("f0.proto", &main).with_files(&files)) {
            Err(Error::Parse {
                file,
                line,
                column,
                message,
                ..
            }) => {
                assert_eq!((file.as_str(), line, column), ("f2.proto", 3, 1));
                assert_eq!(
                    message,
                    "import cycle detected: f1.proto -> f2.proto -> f1.proto"
                );
            }
            other => panic!("unexpected {:?}", other.err()),
        }
    }

    /// What buf 1.75.0 refuses (`buf build`), placed where it places it.
    #[test]
    fn misused_ranges_extensions_and_field_options_are_refused_where_buf_places_them() {
        let cases = [
            (
                "message M { reserved 30 to 25; optional int32 a = 1; }",
                (3, 22),
                "empty reserved range 30 to 25",
            ),
            (
                "enum E { A = 0; reserved 30 to 25; }",
                (3, 26),
                "empty reserved range 30 to 25",
            ),
            (
                "message M { extensions 200 to 100; optional int32 a = 1; }",
                (3, 24),
                "empty extension range 200 to 100",
            ),
            (
                "message M { optional int32 a = 1; extensions 10 to 20; }\nextend M { optional int32 e = 10; optional string f = 10; }",
                (4, 55),
                "field number `10` of `acme.v1.M` used more than once by its extensions",
            ),
            (
                "message M { optional int32 a = 1 [packed = true]; }",
                (3, 13),
                "expected repeated field, found singular field",
            ),
            (
                "message M { optional int32 a = 1; repeated string s = 2 [packed = true]; }",
                (3, 44),
                "expected packable type, found scalar type `string`",
            ),
            (
                "message M { optional int32 a = 1; extensions 10 to 20; }\nextend M { optional int32 e = 10 [json_name = \"x\"]; }",
                (4, 35),
                "message extension cannot specify `json_name`",
            ),
            (
                "message M { optional int32 a = 1; optional string s = 2 [jstype = JS_STRING]; }",
                (3, 44),
                "expected 64-bit integer type, found scalar type `string`",
            ),
            (
                "message M { optional int32 a = 1 [lazy = true]; }",
                (3, 22),
                "expected message type, found scalar type `int32`",
            ),
            (
                "message M { option message_set_wire_format = true; optional int32 a = 1; extensions 4 to max; }",
                (3, 52),
                "field declared in message set type `acme.v1.M`",
            ),
        ];
        for (body, place, wanted) in cases {
            let text = format!("syntax = \"proto2\";\npackage acme.v1;\n{body}\n");
            let (line, column, message) = refusal(Document::new("a.proto", &text));
            assert_eq!(
                ((line, column), message.as_str()),
                (place, wanted),
                "{text}"
            );
        }
        // The same options where they belong compile.
        let text = "syntax = \"proto2\";\npackage acme.v1;\nmessage M { repeated int32 a = 1 [packed = true]; optional int64 b = 2 [jstype = JS_STRING]; optional M c = 3 [lazy = true]; extensions 10 to 20; }\nextend M { optional int32 e = 10; }\n";
        assert!(Compiled::new(Document::new("a.proto", text)).is_ok());
    }

    #[test]
    fn a_proto3_message_may_not_use_a_proto2_enum() {
        let files = Owned(BTreeMap::from([(
            "dep.proto".to_owned(),
            "syntax = \"proto2\";\npackage acme.v1;\nenum E2 { Z = 0; }\n".to_owned(),
        )]));
        for field in ["E2 e = 1;", "map<string, E2> e = 1;"] {
            let text = format!(
                "syntax = \"proto3\";\npackage acme.v1;\nimport \"dep.proto\";\nmessage M {{ {field} }}\n"
            );
            let (line, column, message) =
                refusal(Document::new("a.proto", &text).with_files(&files));
            assert_eq!((line, column), (4, 13), "{field}");
            assert_eq!(
                message,
                "closed enum `acme.v1.E2` cannot be used in a \"proto3\" message"
            );
        }
        // A proto2 message may.
        let text = "syntax = \"proto2\";\npackage acme.v1;\nimport \"dep.proto\";\nmessage M { optional E2 e = 1; }\n";
        assert!(Compiled::new(Document::new("a.proto", text).with_files(&files)).is_ok());
    }

    /// buf refuses to judge a MessageSet, and carries `google/protobuf/*_features.proto`, which
    /// protox does not: both are a reason we cannot judge, never a silent pass.
    #[test]
    fn a_message_set_and_a_google_import_protox_lacks_cannot_be_read() {
        let cases = [
            (
                "syntax = \"proto2\";\npackage acme.v1;\nmessage M { option message_set_wire_format = true; extensions 4 to max; }\n",
                (3, 1),
                "MessageSet",
            ),
            (
                "syntax = \"proto3\";\npackage acme.v1;\nimport \"google/protobuf/go_features.proto\";\nmessage M { int32 a = 1; }\n",
                (3, 1),
                "`google/protobuf/go_features.proto`",
            ),
        ];
        for (text, place, wanted) in cases {
            match Compiled::new(Document::new("a.proto", text)) {
                Err(Error::Unsupported {
                    line, column, what, ..
                }) => {
                    assert_eq!((line, column), place, "{text}");
                    assert!(what.contains(wanted), "{what}");
                }
                other => panic!("{text}: unexpected {:?}", other.err()),
            }
        }
    }

    /// Files buf builds that protox refuses are a limit of ours (unknown, with the reason),
    /// never called invalid.
    #[test]
    fn valid_files_protox_refuses_are_unsupported_not_invalid() {
        let cases = [
            (
                "syntax = \"proto2\";\npackage acme.v1;\nmessage M { optional int32 foo_bar = 1; optional int32 fooBar = 2; }\n",
                "proto2 fields with the same default JSON name (`fooBar`",
            ),
            (
                "syntax = \"proto2\";\npackage acme.v1;\nmessage M { optional string s = 1 [default = \"\\xff\"]; }\n",
                "a proto2 string that is not UTF-8 text",
            ),
            (
                "syntax = \"proto3\";\npackage acme.v1;\nmessage M { optional int32 a = 1; oneof _a { int32 b = 2; } }\n",
                "a oneof named `_a` beside the proto3 `optional` field `a`",
            ),
        ];
        for (text, wanted) in cases {
            match Compiled::new(Document::new("a.proto", text)) {
                Err(Error::Unsupported { what, .. }) => assert!(what.contains(wanted), "{what}"),
                other => panic!("{text}: unexpected {:?}", other.err()),
            }
        }
        // Two oneofs of one name are the file's fault.
        let text = "syntax = \"proto3\";\nmessage M { oneof _a { int32 b = 2; } oneof _a { int32 c = 3; } }\n";
        assert!(matches!(
            Compiled::new(Document::new("a.proto", text)),
            Err(Error::Parse { .. })
        ));
    }
}
