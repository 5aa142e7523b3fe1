//! Avro schema text -> [`Schema`]: the parsed schema as an arena of nodes, named types resolved to
//! the node that defines them (so a recursive record points back at itself). Parsing is as
//! strict as Apache Avro's Java `Schema.Parser` with default validation on: names and symbols must
//! be valid, a name is defined once, a field name once per record, a union holds one branch per
//! type, a default must fit its field's type, and a reference must name a type defined earlier in
//! the same file. Every refusal is an [`Error::Invalid`] naming what is wrong and its line.
//!
//! The model keeps only what resolution and the walker look at: names as Avro compares them
//! (unqualified name, full name, aliases as written), field defaults, enum symbols and default,
//! fixed sizes, and each node's logical type as words. Documentation is dropped.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::java_name;
use crate::schema::located::Located;
use crate::schema::{Error, Format, MAX_DEPTH};

/// The index of a node in its [`Schema`].
pub type NodeId = usize;

/// serde_json refuses JSON nested deeper than this; the text is measured first so such a
/// schema is reported as too deep rather than as broken JSON. Each Avro level costs one to
/// three JSON levels, so the walkers' recursion stays far below [`MAX_DEPTH`].
const JSON_DEPTH_LIMIT: usize = crate::schema::JSON_TEXT_DEPTH;

/// A parsed Avro schema: its nodes and the root.
#[derive(Debug)]
pub struct Schema {
    nodes: Vec<Node>,
    root: NodeId,
}

/// One type in a schema.
#[derive(Debug)]
pub struct Node {
    pub kind: Kind,
    /// The `logicalType` (with a decimal's precision and scale), as words; `None` without one.
    pub logical: Option<String>,
}

#[derive(Debug)]
pub enum Kind {
    Primitive(Primitive),
    Array(NodeId),
    Map(NodeId),
    Union(Vec<NodeId>),
    Record(Named, Vec<Field>),
    Enum(Named, Enum),
    Fixed(Named, u64),
}

/// The eight primitive types, in the words of the specification.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Primitive {
    Null,
    Boolean,
    Int,
    Long,
    Float,
    Double,
    Bytes,
    String,
}

impl Primitive {
    const ALL: [Primitive; 8] = [
        Primitive::Null,
        Primitive::Boolean,
        Primitive::Int,
        Primitive::Long,
        Primitive::Float,
        Primitive::Double,
        Primitive::Bytes,
        Primitive::String,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Primitive::Null => "null",
            Primitive::Boolean => "boolean",
            Primitive::Int => "int",
            Primitive::Long => "long",
            Primitive::Float => "float",
            Primitive::Double => "double",
            Primitive::Bytes => "bytes",
            Primitive::String => "string",
        }
    }

    fn from_name(name: &str) -> Option<Primitive> {
        Primitive::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// The naming of a record, enum or fixed, as Avro's resolution compares it.
#[derive(Debug)]
pub struct Named {
    /// The unqualified name (the last segment of the full name).
    pub name: String,
    /// The full name: namespace and name.
    pub fullname: String,
    /// `aliases`, exactly as written (resolution compares them with the other side's full name).
    pub aliases: Vec<String>,
}

#[derive(Debug)]
pub struct Field {
    pub name: String,
    /// `aliases`, exactly as written.
    pub aliases: Vec<String>,
    pub ty: NodeId,
    pub default: Option<Value>,
}

#[derive(Debug)]
pub struct Enum {
    pub symbols: Vec<String>,
    pub default: Option<String>,
}

impl Schema {
    pub fn root(&self) -> NodeId {
        self.root
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }

    pub fn kind(&self, id: NodeId) -> &Kind {
        &self.nodes[id].kind
    }

    /// The branches of a union, or the node alone: Avro resolves a non-union exactly as a
    /// union of that one branch.
    pub fn branches(&self, id: NodeId) -> Vec<NodeId> {
        match self.kind(id) {
            Kind::Union(branches) => branches.clone(),
            _ => vec![id],
        }
    }

    /// The naming of a record, enum or fixed.
    pub fn named(&self, id: NodeId) -> Option<&Named> {
        match self.kind(id) {
            Kind::Record(named, _) | Kind::Enum(named, _) | Kind::Fixed(named, _) => Some(named),
            _ => None,
        }
    }

    /// A short description of a type for messages: `int`, `array`, `record Order`.
    pub fn describe(&self, id: NodeId) -> String {
        match self.kind(id) {
            Kind::Primitive(p) => p.name().to_owned(),
            Kind::Array(_) => "array".to_owned(),
            Kind::Map(_) => "map".to_owned(),
            Kind::Union(branches) => {
                let names: Vec<String> = branches.iter().map(|b| self.describe(*b)).collect();
                format!("union [{}]", names.join(", "))
            }
            Kind::Record(named, _) => format!("record {}", named.fullname),
            Kind::Enum(named, _) => format!("enum {}", named.fullname),
            Kind::Fixed(named, _) => format!("fixed {}", named.fullname),
        }
    }

    /// The type name the union rules compare: a primitive's or `array` / `map`, or the full
    /// name of a named type.
    pub fn branch_key(&self, id: NodeId) -> String {
        branch_key_of(&self.nodes, id)
    }
}

/// Parse Avro schema text (its JSON form). `path` names the file in errors.
pub fn parse(path: &str, text: &str) -> Result<Schema, Error> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if let Some(line) = too_deep_at(text) {
        return Err(Error::TooDeep {
            path: format!("line {line}"),
            limit: JSON_DEPTH_LIMIT,
        });
    }
    let value: Value = serde_json::from_str(text).map_err(|error| {
        let (line, column, message) = crate::json_text::parse_error_at(&error, text);
        Error::Parse {
            format: Format::Avro,
            file: path.to_owned(),
            syntax: "JSON",
            line,
            column,
            message,
        }
    })?;
    let mut parser = Parser::default();
    let parsed = parser.schema(&value, None, "", 0).and_then(|root| {
        parser.check_defaults()?;
        Ok(root)
    });
    match parsed {
        Ok(root) => Ok(Schema {
            nodes: parser.nodes,
            root,
        }),
        Err(Invalid { pointer, message }) => Err(Error::Invalid {
            format: Format::Avro,
            file: path.to_owned(),
            line: Located::parse(text).map_or(1, |located| located.pointer_line(&pointer)),
            message,
        }),
    }
}

/// The line where JSON text first nests deeper than [`JSON_DEPTH_LIMIT`], if it does.
fn too_deep_at(text: &str) -> Option<usize> {
    let (mut depth, mut line, mut in_string, mut escaped) = (0usize, 1usize, false, false);
    for byte in text.bytes() {
        if byte == b'\n' {
            line += 1;
        }
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                if depth > JSON_DEPTH_LIMIT {
                    return Some(line);
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// Why a schema is refused, and the JSON pointer (into the text) of the offending node.
struct Invalid {
    pointer: String,
    message: String,
}

fn invalid(pointer: &str, message: String) -> Invalid {
    Invalid {
        pointer: pointer.to_owned(),
        message,
    }
}

/// A default waiting to be checked once every type it may refer to is complete.
struct PendingDefault {
    record: String,
    field: String,
    ty: NodeId,
    value: Value,
    pointer: String,
}

#[derive(Default)]
struct Parser {
    nodes: Vec<Node>,
    /// Full name -> the node defining it.
    names: HashMap<String, NodeId>,
    defaults: Vec<PendingDefault>,
}

/// Whether `name` is a valid Avro name: a letter or `_`, then letters, digits or `_`.
fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    } else {
        text
    }
}

fn join(pointer: &str, segment: &str) -> String {
    format!("{pointer}/{segment}")
}

impl Parser {
    fn push(&mut self, kind: Kind, logical: Option<String>) -> NodeId {
        self.nodes.push(Node { kind, logical });
        self.nodes.len() - 1
    }

    /// A schema in any of its three forms: a type name, an object with `type`, a union array.
    fn schema(
        &mut self,
        value: &Value,
        namespace: Option<&str>,
        pointer: &str,
        depth: usize,
    ) -> Result<NodeId, Invalid> {
        if depth > MAX_DEPTH {
            return Err(invalid(
                pointer,
                format!("the schema nests deeper than {MAX_DEPTH} levels"),
            ));
        }
        match value {
            Value::String(name) => self.reference(name, namespace, pointer),
            Value::Array(branches) => self.union(branches, namespace, pointer, depth),
            Value::Object(object) => self.object(object, namespace, pointer, depth),
            other => Err(invalid(
                pointer,
                format!(
                    "expected a type name, an object with `type` or a union array, found {}",
                    short(other)
                ),
            )),
        }
    }

    /// A primitive type name or a reference to a named type defined earlier in the file.
    fn reference(
        &mut self,
        name: &str,
        namespace: Option<&str>,
        pointer: &str,
    ) -> Result<NodeId, Invalid> {
        if let Some(primitive) = Primitive::from_name(name) {
            return Ok(self.push(Kind::Primitive(primitive), None));
        }
        // Java's parser tries the enclosing namespace first, then the null namespace.
        let qualified = match namespace {
            Some(space) if !name.contains('.') => Some(format!("{space}.{name}")),
            _ => None,
        };
        qualified
            .and_then(|full| self.names.get(&full))
            .or_else(|| self.names.get(name))
            .copied()
            .ok_or_else(|| {
                invalid(
                    pointer,
                    format!(
                        "unknown type `{name}`: not a primitive type nor a named type defined earlier in this file"
                    ),
                )
            })
    }

    fn union(
        &mut self,
        values: &[Value],
        namespace: Option<&str>,
        pointer: &str,
        depth: usize,
    ) -> Result<NodeId, Invalid> {
        let mut branches: Vec<NodeId> = Vec::with_capacity(values.len());
        for (index, value) in values.iter().enumerate() {
            let at = join(pointer, &index.to_string());
            let branch = self.schema(value, namespace, &at, depth + 1)?;
            if matches!(self.nodes[branch].kind, Kind::Union(_)) {
                return Err(invalid(
                    &at,
                    "a union cannot hold another union directly".to_owned(),
                ));
            }
            let key = self.key(branch);
            if branches.iter().any(|b| self.key(*b) == key) {
                return Err(invalid(
                    &at,
                    format!("the union has two branches of type `{key}`"),
                ));
            }
            branches.push(branch);
        }
        Ok(self.push(Kind::Union(branches), None))
    }

    fn key(&self, id: NodeId) -> String {
        branch_key_of(&self.nodes, id)
    }

    fn object(
        &mut self,
        object: &serde_json::Map<String, Value>,
        namespace: Option<&str>,
        pointer: &str,
        depth: usize,
    ) -> Result<NodeId, Invalid> {
        let type_at = join(pointer, "type");
        let ty = match object.get("type") {
            Some(Value::String(ty)) => ty.as_str(),
            Some(other) => {
                return Err(invalid(
                    &type_at,
                    format!("`type` must be a type name here, found {}", short(other)),
                ));
            }
            None => return Err(invalid(pointer, "the schema has no `type`".to_owned())),
        };
        let logical = logical_type(object);
        match ty {
            "record" | "error" => self.record(object, namespace, pointer, depth, logical),
            "enum" => self.enumeration(object, namespace, pointer, logical),
            "fixed" => self.fixed(object, namespace, pointer, logical),
            "array" | "map" => {
                let member = if ty == "array" { "items" } else { "values" };
                let Some(inner) = object.get(member) else {
                    return Err(invalid(pointer, format!("the {ty} has no `{member}`")));
                };
                let inner = self.schema(inner, namespace, &join(pointer, member), depth + 1)?;
                let kind = if ty == "array" {
                    Kind::Array(inner)
                } else {
                    Kind::Map(inner)
                };
                Ok(self.push(kind, logical))
            }
            name => match Primitive::from_name(name) {
                Some(primitive) => Ok(self.push(Kind::Primitive(primitive), logical)),
                // `{"type": "Name"}` refers to a named type, as Java's parser allows.
                None => self.reference(name, namespace, &type_at),
            },
        }
    }

    /// The full name of a named type being defined, checked, and the namespace its own
    /// nested definitions inherit.
    fn define_name(
        &self,
        object: &serde_json::Map<String, Value>,
        namespace: Option<&str>,
        pointer: &str,
        what: &str,
    ) -> Result<(Named, Option<String>), Invalid> {
        let name_at = join(pointer, "name");
        let name = match object.get("name") {
            Some(Value::String(name)) => name.as_str(),
            Some(other) => {
                return Err(invalid(
                    &name_at,
                    format!(
                        "the {what}'s `name` must be a string, found {}",
                        short(other)
                    ),
                ));
            }
            None => return Err(invalid(pointer, format!("the {what} has no `name`"))),
        };
        let space = match object.get("namespace") {
            None | Some(Value::Null) => namespace.map(str::to_owned),
            Some(Value::String(space)) if space.is_empty() => None,
            Some(Value::String(space)) => Some(space.clone()),
            Some(other) => {
                return Err(invalid(
                    &join(pointer, "namespace"),
                    format!("`namespace` must be a string, found {}", short(other)),
                ));
            }
        };
        let fullname = match (&space, name.contains('.')) {
            (Some(space), false) => format!("{space}.{name}"),
            _ => name.to_owned(),
        };
        for segment in fullname.split('.') {
            if !valid_name(segment) {
                return Err(invalid(
                    &name_at,
                    format!(
                        "`{fullname}` is not a valid Avro name (each part: a letter or `_`, then letters, digits or `_`)"
                    ),
                ));
            }
        }
        let short_name = fullname.rsplit('.').next().unwrap_or_default().to_owned();
        if Primitive::from_name(&fullname).is_some() {
            return Err(invalid(
                &name_at,
                format!("`{fullname}` is a primitive type and cannot be redefined"),
            ));
        }
        if self.names.contains_key(&fullname) {
            return Err(invalid(
                &name_at,
                format!("the name `{fullname}` is defined twice"),
            ));
        }
        let inherited = fullname.rsplit_once('.').map(|(space, _)| space.to_owned());
        let aliases = aliases(object, pointer)?;
        // Java's parser reads each alias as a name, its namespace left unchecked (a field's
        // aliases not at all); the Python port reads any alias.
        let refused =
            |alias: &String| !java_name::valid(alias.rsplit('.').next().unwrap_or_default());
        if let Some(index) = aliases.iter().position(refused) {
            return Err(invalid(
                &join(&join(pointer, "aliases"), &index.to_string()),
                format!(
                    "alias `{}` of `{fullname}` is not a valid Avro name (after its last `.`: a letter or `_`, then letters, digits or `_`)",
                    aliases[index]
                ),
            ));
        }
        Ok((
            Named {
                name: short_name,
                fullname,
                aliases,
            },
            inherited,
        ))
    }

    fn record(
        &mut self,
        object: &serde_json::Map<String, Value>,
        namespace: Option<&str>,
        pointer: &str,
        depth: usize,
        logical: Option<String>,
    ) -> Result<NodeId, Invalid> {
        let (named, inner_space) = self.define_name(object, namespace, pointer, "record")?;
        let Some(Value::Array(values)) = object.get("fields") else {
            return Err(invalid(
                pointer,
                format!("record `{}` has no `fields` array", named.fullname),
            ));
        };
        let record_name = named.fullname.clone();
        // Defined before its fields are read, so a field may refer back to its own record.
        let id = self.push(Kind::Record(named, Vec::new()), logical);
        self.names.insert(record_name.clone(), id);
        let mut fields: Vec<Field> = Vec::with_capacity(values.len());
        for (index, value) in values.iter().enumerate() {
            let at = join(&join(pointer, "fields"), &index.to_string());
            let Value::Object(field) = value else {
                return Err(invalid(
                    &at,
                    format!(
                        "each field of record `{record_name}` must be an object, found {}",
                        short(value)
                    ),
                ));
            };
            let name = match field.get("name") {
                // As Java's parser reads it (`größe`); the Python port reads any field name.
                Some(Value::String(name)) if java_name::valid(name) => name.clone(),
                Some(Value::String(name)) => {
                    return Err(invalid(
                        &join(&at, "name"),
                        format!(
                            "`{name}` in record `{record_name}` is not a valid Avro field name (a letter or `_`, then letters, digits or `_`)"
                        ),
                    ));
                }
                _ => {
                    return Err(invalid(
                        &at,
                        format!("a field of record `{record_name}` has no `name` string"),
                    ));
                }
            };
            if fields.iter().any(|f| f.name == name) {
                return Err(invalid(
                    &join(&at, "name"),
                    format!("field `{name}` appears twice in record `{record_name}`"),
                ));
            }
            let Some(ty) = field.get("type") else {
                return Err(invalid(
                    &at,
                    format!("field `{name}` of record `{record_name}` has no `type`"),
                ));
            };
            let ty = self.schema(ty, inner_space.as_deref(), &join(&at, "type"), depth + 1)?;
            if let Some(order) = field.get("order")
                && !matches!(order.as_str(), Some("ascending" | "descending" | "ignore"))
            {
                return Err(invalid(
                    &join(&at, "order"),
                    format!(
                        "field `{name}` has `order` {}: use ascending, descending or ignore",
                        short(order)
                    ),
                ));
            }
            let default = field.get("default").cloned();
            if let Some(value) = &default {
                self.defaults.push(PendingDefault {
                    record: record_name.clone(),
                    field: name.clone(),
                    ty,
                    value: value.clone(),
                    pointer: join(&at, "default"),
                });
            }
            fields.push(Field {
                aliases: aliases(field, &at)?,
                name,
                ty,
                default,
            });
        }
        if let Kind::Record(_, slot) = &mut self.nodes[id].kind {
            *slot = fields;
        }
        Ok(id)
    }

    fn enumeration(
        &mut self,
        object: &serde_json::Map<String, Value>,
        namespace: Option<&str>,
        pointer: &str,
        logical: Option<String>,
    ) -> Result<NodeId, Invalid> {
        let (named, _) = self.define_name(object, namespace, pointer, "enum")?;
        let enum_name = named.fullname.clone();
        let Some(Value::Array(values)) = object.get("symbols") else {
            return Err(invalid(
                pointer,
                format!("enum `{enum_name}` has no `symbols` array"),
            ));
        };
        let mut symbols: Vec<String> = Vec::with_capacity(values.len());
        // A set beside the list: an enum may hold tens of thousands of symbols.
        let mut seen: HashSet<&str> = HashSet::with_capacity(values.len());
        for (index, value) in values.iter().enumerate() {
            let at = join(&join(pointer, "symbols"), &index.to_string());
            let symbol = match value {
                Value::String(symbol) if valid_name(symbol) => symbol,
                other => {
                    return Err(invalid(
                        &at,
                        format!(
                            "enum `{enum_name}`: symbol {} is not a valid Avro name (a letter or `_`, then letters, digits or `_`)",
                            short(other)
                        ),
                    ));
                }
            };
            if !seen.insert(symbol) {
                return Err(invalid(
                    &at,
                    format!("enum `{enum_name}`: symbol `{symbol}` appears twice"),
                ));
            }
            symbols.push(symbol.clone());
        }
        let default = match object.get("default") {
            None | Some(Value::Null) => None,
            Some(Value::String(symbol)) if seen.contains(symbol.as_str()) => Some(symbol.clone()),
            Some(other) => {
                return Err(invalid(
                    &join(pointer, "default"),
                    format!(
                        "enum `{enum_name}`: default {} is not one of its symbols",
                        short(other)
                    ),
                ));
            }
        };
        let id = self.push(Kind::Enum(named, Enum { symbols, default }), logical);
        self.names.insert(enum_name, id);
        Ok(id)
    }

    fn fixed(
        &mut self,
        object: &serde_json::Map<String, Value>,
        namespace: Option<&str>,
        pointer: &str,
        logical: Option<String>,
    ) -> Result<NodeId, Invalid> {
        let (named, _) = self.define_name(object, namespace, pointer, "fixed")?;
        let fixed_name = named.fullname.clone();
        let size = match object.get("size") {
            Some(size) => size
                .as_u64()
                .filter(|size| *size <= i32::MAX as u64)
                .ok_or_else(|| {
                    invalid(
                        &join(pointer, "size"),
                        format!(
                            "fixed `{fixed_name}`: `size` must be a whole number of bytes, found {}",
                            short(size)
                        ),
                    )
                })?,
            None => {
                return Err(invalid(
                    pointer,
                    format!("fixed `{fixed_name}` has no `size`"),
                ));
            }
        };
        let id = self.push(Kind::Fixed(named, size), logical);
        self.names.insert(fixed_name, id);
        Ok(id)
    }

    /// Every field default must be a value of the field's type (Java's `isValidDefault`: a
    /// union's default may match any branch). A `float` or `double` field may write its
    /// default as text that Java's `Double.valueOf` reads (`"1.5"`, `"NaN"`), as Java's parser
    /// turns it into that number first.
    fn check_defaults(&self) -> Result<(), Invalid> {
        for pending in &self.defaults {
            let value = &pending.value;
            let is_float = matches!(
                self.nodes[pending.ty].kind,
                Kind::Primitive(Primitive::Float | Primitive::Double)
            );
            if is_float && value.as_str().is_some_and(is_java_double) {
                continue;
            }
            if !self.valid_default(pending.ty, value, 0) {
                return Err(invalid(
                    &pending.pointer,
                    format!(
                        "field `{}` of record `{}` has a default of the wrong type: {} is not a value of type `{}`",
                        pending.field,
                        pending.record,
                        short(value),
                        describe_of(&self.nodes, pending.ty)
                    ),
                ));
            }
        }
        Ok(())
    }

    fn valid_default(&self, ty: NodeId, value: &Value, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        match &self.nodes[ty].kind {
            Kind::Primitive(Primitive::Null) => value.is_null(),
            Kind::Primitive(Primitive::Boolean) => value.is_boolean(),
            Kind::Primitive(Primitive::Int) => {
                value.as_i64().is_some_and(|n| i32::try_from(n).is_ok())
            }
            Kind::Primitive(Primitive::Long) => value.as_i64().is_some(),
            Kind::Primitive(Primitive::Float | Primitive::Double) => value.is_number(),
            Kind::Primitive(Primitive::Bytes | Primitive::String)
            | Kind::Enum(..)
            | Kind::Fixed(..) => value.is_string(),
            Kind::Array(items) => value.as_array().is_some_and(|values| {
                values
                    .iter()
                    .all(|v| self.valid_default(*items, v, depth + 1))
            }),
            Kind::Map(values) => value.as_object().is_some_and(|map| {
                map.values()
                    .all(|v| self.valid_default(*values, v, depth + 1))
            }),
            Kind::Union(branches) => branches
                .iter()
                .any(|b| self.valid_default(*b, value, depth + 1)),
            Kind::Record(_, fields) => value.as_object().is_some_and(|map| {
                fields.iter().all(
                    |field| match map.get(&field.name).or(field.default.as_ref()) {
                        Some(v) => self.valid_default(field.ty, v, depth + 1),
                        None => false,
                    },
                )
            }),
        }
    }
}

/// True for text Java's `Double.valueOf` reads: trimmed, a sign, then `NaN`, `Infinity`, a
/// decimal (digits with one optional point, an optional exponent) or a hexadecimal literal
/// (`0x1.8p1`, whose binary exponent is required), the last two with an optional `f`/`d` suffix.
fn is_java_double(text: &str) -> bool {
    let text = text.trim_matches(|c: char| c <= ' ');
    let text = text.strip_prefix(['+', '-']).unwrap_or(text);
    if text == "NaN" || text == "Infinity" {
        return true;
    }
    let text = text.strip_suffix(['f', 'F', 'd', 'D']).unwrap_or(text);
    // Digits of `radix` with at most one point, and at least one digit; then the rest.
    let mantissa = |text: &str, radix: u32| -> Option<usize> {
        let (mut digits, mut points, mut end) = (0, 0, 0);
        for (i, c) in text.char_indices() {
            match c {
                '.' if points == 0 => points += 1,
                c if c.is_digit(radix) => digits += 1,
                _ => break,
            }
            end = i + 1;
        }
        (digits > 0).then_some(end)
    };
    let exponent = |text: &str| {
        let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    };
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return mantissa(hex, 16)
            .is_some_and(|end| hex[end..].strip_prefix(['p', 'P']).is_some_and(exponent));
    }
    mantissa(text, 10).is_some_and(|end| {
        let rest = &text[end..];
        rest.is_empty() || rest.strip_prefix(['e', 'E']).is_some_and(exponent)
    })
}

/// [`Schema::branch_key`] over the parser's nodes.
fn branch_key_of(nodes: &[Node], id: NodeId) -> String {
    match &nodes[id].kind {
        Kind::Primitive(p) => p.name().to_owned(),
        Kind::Array(_) => "array".to_owned(),
        Kind::Map(_) => "map".to_owned(),
        Kind::Union(_) => "union".to_owned(),
        Kind::Record(named, _) | Kind::Enum(named, _) | Kind::Fixed(named, _) => {
            named.fullname.clone()
        }
    }
}

/// A type's name for messages: its branch key, or a union's list of them.
fn describe_of(nodes: &[Node], id: NodeId) -> String {
    match &nodes[id].kind {
        Kind::Union(branches) => {
            let names: Vec<String> = branches.iter().map(|b| branch_key_of(nodes, *b)).collect();
            format!("union [{}]", names.join(", "))
        }
        _ => branch_key_of(nodes, id),
    }
}

/// `aliases` of a named type or a field: a list of strings, kept as written.
fn aliases(object: &serde_json::Map<String, Value>, pointer: &str) -> Result<Vec<String>, Invalid> {
    match object.get("aliases") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(values)) => values
            .iter()
            .map(|value| {
                value.as_str().map(str::to_owned).ok_or_else(|| {
                    invalid(
                        &join(pointer, "aliases"),
                        format!("`aliases` must hold strings, found {}", short(value)),
                    )
                })
            })
            .collect(),
        Some(other) => Err(invalid(
            &join(pointer, "aliases"),
            format!("`aliases` must be a list of names, found {}", short(other)),
        )),
    }
}

/// A node's `logicalType` in words: `decimal(10, 2)`, `timestamp-millis`.
fn logical_type(object: &serde_json::Map<String, Value>) -> Option<String> {
    let name = object.get("logicalType")?.as_str()?;
    if name == "decimal" {
        let number = |key: &str, absent: &str| {
            object
                .get(key)
                .map_or_else(|| absent.to_owned(), Value::to_string)
        };
        Some(format!(
            "decimal({}, {})",
            number("precision", "-"),
            number("scale", "0")
        ))
    } else {
        Some(name.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> (usize, String) {
        match parse("s.avsc", text) {
            Err(Error::Invalid { line, message, .. }) => (line, message),
            other => panic!("expected an invalid schema, got {other:?}"),
        }
    }

    #[test]
    fn a_float_default_may_be_text_java_reads_as_a_number() {
        for text in [
            "1.5",
            " -2 ",
            "+.5",
            "5.",
            "1e3",
            "1.5E-3",
            "2f",
            "2.5D",
            "NaN",
            "-Infinity",
            "0x1.8p1",
            "0X.8P-1d",
        ] {
            assert!(is_java_double(text), "{text}");
        }
        for text in [
            "", ".", "abc", "1.5.2", "1e", "1e+", "0x1.8", "NaNf", "infinity", "1,5", "--1",
        ] {
            assert!(!is_java_double(text), "{text}");
        }
        let with_default = |ty: &str, default: &str| {
            format!(
                r#"{{"type": "record", "name": "R", "fields": [{{"name": "a", "type": {ty}, "default": {default}}}]}}"#
            )
        };
        for ty in [r#""double""#, r#""float""#] {
            assert!(parse("s.avsc", &with_default(ty, r#""1.5""#)).is_ok());
            assert!(parse("s.avsc", &with_default(ty, r#""NaN""#)).is_ok());
            assert!(
                refused(&with_default(ty, r#""abc""#))
                    .1
                    .contains("wrong type")
            );
        }
        // Only a field whose type is `float` or `double` itself: Java converts no other.
        let union = with_default(r#"["double", "null"]"#, r#""1.5""#);
        assert!(refused(&union).1.contains("wrong type"));
    }

    #[test]
    fn every_rule_of_the_parser_names_what_is_wrong() {
        let cases = [
            (
                r#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": "B"}]}"#,
                "unknown type `B`",
            ),
            (
                r#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": "int", "default": 1.5}]}"#,
                "default of the wrong type: 1.5",
            ),
            (
                r#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": "int", "default": 3000000000}]}"#,
                "default of the wrong type",
            ),
            (
                r#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": "string", "default": null}]}"#,
                "default of the wrong type: null",
            ),
            (
                r#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": "int"}, {"name": "a", "type": "int"}]}"#,
                "field `a` appears twice",
            ),
            (r#"["int", "long", "int"]"#, "two branches of type `int`"),
            (r#"["int", ["long"]]"#, "cannot hold another union"),
            (
                r#"{"type": "enum", "name": "E", "symbols": ["A", "A"]}"#,
                "symbol `A` appears twice",
            ),
            (
                r#"{"type": "enum", "name": "E", "symbols": ["A", "1B"]}"#,
                "symbol \"1B\" is not a valid Avro name",
            ),
            (
                r#"{"type": "enum", "name": "E", "symbols": ["A"], "default": "B"}"#,
                "default \"B\" is not one of its symbols",
            ),
            (
                r#"{"type": "record", "name": "a-b", "fields": []}"#,
                "`a-b` is not a valid Avro name",
            ),
            (
                r#"{"type": "record", "name": "R", "fields": [{"name": "1a", "type": "int"}]}"#,
                "`1a` in record `R` is not a valid Avro field name",
            ),
            // Letters and digits as Java's `Character` tells them, per UTF-16 unit: a
            // superscript, a Roman numeral, a vowel sign and a letter outside the BMP are none.
            (
                r#"{"type": "record", "name": "R", "fields": [{"name": "x²", "type": "int"}]}"#,
                "`x²` in record `R` is not a valid Avro field name",
            ),
            (
                r#"{"type": "record", "name": "R", "fields": [{"name": "Ⅻ", "type": "int"}]}"#,
                "`Ⅻ` in record `R` is not a valid Avro field name",
            ),
            (
                r#"{"type": "record", "name": "R", "fields": [{"name": "कीमत", "type": "int"}]}"#,
                "`कीमत` in record `R` is not a valid Avro field name",
            ),
            (
                r#"{"type": "record", "name": "R", "fields": [{"name": "𝑥", "type": "int"}]}"#,
                "`𝑥` in record `R` is not a valid Avro field name",
            ),
            // A named type's alias is a name, as Java reads it, after its namespace.
            (
                r#"{"type": "record", "name": "R", "aliases": ["1-x"], "fields": []}"#,
                "alias `1-x` of `R` is not a valid Avro name",
            ),
            (
                r#"{"type": "enum", "name": "E", "aliases": ["old.E", "old."], "symbols": ["A"]}"#,
                "alias `old.` of `E` is not a valid Avro name",
            ),
            (
                r#"{"type": "record", "name": "R", "namespace": "x..y", "fields": []}"#,
                "`x..y.R` is not a valid Avro name",
            ),
            (
                r#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": {"type": "fixed", "name": "R", "size": 1}}]}"#,
                "the name `R` is defined twice",
            ),
            (
                r#"{"type": "fixed", "name": "F", "size": -1}"#,
                "`size` must be a whole number",
            ),
            (
                r#"{"type": "record", "name": "int", "fields": []}"#,
                "`int` is a primitive type",
            ),
            (r#"{"type": "array"}"#, "the array has no `items`"),
            (
                r#"{"type": "record", "name": "R"}"#,
                "record `R` has no `fields` array",
            ),
            (
                r#"{"type": "record", "name": "R", "fields": [{"name": "a"}]}"#,
                "field `a` of record `R` has no `type`",
            ),
            (
                r#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": "int", "order": "up"}]}"#,
                "use ascending, descending or ignore",
            ),
            (
                r#"{"type": "record", "name": "R", "fields": [], "aliases": "S"}"#,
                "`aliases` must be a list",
            ),
            (r#"{"type": "strin"}"#, "unknown type `strin`"),
            (r#"42"#, "expected a type name"),
        ];
        for (text, needle) in cases {
            let (_, message) = refused(text);
            assert!(message.contains(needle), "{text}: {message}");
        }
    }

    #[test]
    fn refusals_carry_the_line_of_the_offending_node() {
        let text = "{\"type\": \"record\", \"name\": \"R\", \"fields\": [\n  {\"name\": \"a\", \"type\": \"int\"},\n  {\"name\": \"b\",\n   \"type\": \"int\", \"default\": \"x\"}\n]}";
        assert_eq!(refused(text).0, 4);
    }

    #[test]
    fn what_java_accepts_is_accepted() {
        for text in [
            // A union default may match any branch; a record default takes missing fields
            // from the fields' own defaults.
            r#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": ["null", "string"], "default": "x"}]}"#,
            r#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": {"type": "record", "name": "S", "fields": [{"name": "b", "type": "int", "default": 1}]}, "default": {}}]}"#,
            // References: short (enclosing namespace, then the null one), full, object form.
            r#"{"type": "record", "name": "R", "namespace": "x", "fields": [{"name": "a", "type": "R"}, {"name": "b", "type": "x.R"}, {"name": "c", "type": {"type": "R"}}]}"#,
            r#"{"type": "record", "name": "Top", "fields": [{"name": "a", "type": {"type": "enum", "name": "E", "symbols": ["A"]}}, {"name": "r", "type": {"type": "record", "name": "In", "namespace": "y", "fields": [{"name": "e", "type": "E"}]}}]}"#,
            // An empty namespace is the null namespace; an `error` is a record.
            r#"{"type": "error", "name": "Oops", "namespace": "", "fields": []}"#,
            r#"[]"#,
            r#"{"type": "long", "logicalType": "timestamp-millis"}"#,
            // A field name in any script's letters.
            r#"{"type": "record", "name": "R", "fields": [{"name": "größe", "type": "int"}, {"name": "_日本2", "type": "int"}]}"#,
            // A type's aliases as Java reads them (any script's letters, the namespace unread);
            // a field's aliases are not names to Java.
            r#"{"type": "record", "name": "R", "aliases": ["größe", "1-x.y", "_"], "fields": [{"name": "a", "type": "int", "aliases": ["1-x", ""]}]}"#,
        ] {
            assert!(
                parse("s.avsc", text).is_ok(),
                "{text}: {:?}",
                parse("s.avsc", text).err()
            );
        }
    }

    #[test]
    fn names_follow_the_specification() {
        let schema = parse(
            "s.avsc",
            r#"{"type": "record", "name": "Order", "namespace": "acme", "aliases": ["old.Order"], "fields": [
                {"name": "s", "type": {"type": "enum", "name": "Status", "symbols": ["A"]}},
                {"name": "o", "type": {"type": "fixed", "name": "other.Hash", "size": 2}},
                {"name": "e", "type": {"type": "fixed", "name": "Empty", "namespace": "", "size": 2}}
            ]}"#,
        )
        .expect("valid");
        let root = schema.named(schema.root()).expect("a record");
        assert_eq!(
            (root.name.as_str(), root.fullname.as_str()),
            ("Order", "acme.Order")
        );
        assert_eq!(root.aliases, ["old.Order"]);
        let Kind::Record(_, fields) = schema.kind(schema.root()) else {
            panic!("a record")
        };
        let full = |i: usize| schema.named(fields[i].ty).expect("named").fullname.clone();
        assert_eq!(
            [full(0), full(1), full(2)],
            ["acme.Status", "other.Hash", "Empty"]
        );
    }

    #[test]
    fn nesting_beyond_the_json_limit_is_too_deep() {
        let nest = |levels: usize, leaf: &str| {
            let mut text = format!("\"{leaf}\"");
            for _ in 0..levels {
                text = format!("{{\"type\": \"array\", \"items\": {text}}}");
            }
            text
        };
        assert!(matches!(
            parse("deep.avsc", &nest(JSON_DEPTH_LIMIT + 1, "int")),
            Err(Error::TooDeep { .. })
        ));
        // The deepest schema allowed is judged, on a test thread's smaller stack.
        let (old, new) = (
            nest(JSON_DEPTH_LIMIT, "int"),
            nest(JSON_DEPTH_LIMIT, "long"),
        );
        let (old, new) = (
            parse("a.avsc", &old).unwrap(),
            parse("b.avsc", &new).unwrap(),
        );
        let changes = super::super::changes(&old, &new).expect("judged");
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].rule.id, "type.promoted");
        // Brackets inside strings do not count.
        assert_eq!(too_deep_at(&format!("[\"{}\"]", "[".repeat(500))), None);
    }
}
