//! The JSON Schemas: a document generator and the edits the history makes to it.

use serde_json::{Map, Value, json};

use super::{Rng, Version, humanize, words};

pub fn to_text(schema: &Value) -> String {
    let mut text = serde_json::to_string_pretty(schema).expect("a JSON value always serializes");
    text.push('\n');
    text
}

pub fn document(rng: &mut Rng, name: &str) -> Value {
    let draft7 = rng.percent(30);
    let defs_key = if draft7 { "definitions" } else { "$defs" };
    let mut doc = Map::new();
    let draft = if draft7 {
        "http://json-schema.org/draft-07/schema#"
    } else {
        "https://json-schema.org/draft/2020-12/schema"
    };
    doc.insert("$schema".into(), json!(draft));
    doc.insert("title".into(), json!(name));
    doc.insert(
        "description".into(),
        json!(format!("The payload of {}.", humanize(name))),
    );
    doc.insert("type".into(), json!("object"));
    let defs = if rng.percent(50) {
        definitions(rng)
    } else {
        Map::new()
    };
    let mut ctx = Context {
        defs_key,
        defs: defs.keys().cloned().collect(),
    };
    // Mostly 5-12 fields (the sum of two rolls peaks near 8); one in twenty is large.
    let count = if rng.percent(5) {
        rng.between(16, 25)
    } else {
        rng.between(2, 6) + rng.between(3, 6)
    };
    let (properties, required) = object_fields(rng, &mut ctx, count, 0);
    doc.insert("properties".into(), Value::Object(properties));
    doc.insert("required".into(), json!(required));
    if rng.percent(40) {
        doc.insert("additionalProperties".into(), json!(false));
    }
    if !defs.is_empty() {
        doc.insert(defs_key.into(), Value::Object(defs));
    }
    Value::Object(doc)
}

struct Context {
    defs_key: &'static str,
    defs: Vec<String>,
}

fn definitions(rng: &mut Rng) -> Map<String, Value> {
    let mut defs = Map::new();
    defs.insert(
        "Money".into(),
        json!({
            "type": "object",
            "properties": {
                "amount": {"type": "number", "minimum": 0},
                "currency": {"type": "string", "pattern": "^[A-Z]{3}$"}
            },
            "required": ["amount", "currency"],
            "additionalProperties": false
        }),
    );
    if rng.percent(50) {
        defs.insert(
            "Address".into(),
            json!({
                "type": "object",
                "properties": {
                    "line1": {"type": "string", "maxLength": 120},
                    "line2": {"type": "string", "maxLength": 120},
                    "city": {"type": "string", "maxLength": 80},
                    "postalCode": {"type": "string", "pattern": "^[A-Z0-9 -]{3,10}$"},
                    "country": {"type": "string", "pattern": "^[A-Z]{2}$"}
                },
                "required": ["line1", "city", "country"]
            }),
        );
    }
    defs
}

/// `count` fields with unique names, and the names of the required ones.
fn object_fields(
    rng: &mut Rng,
    ctx: &mut Context,
    count: usize,
    depth: usize,
) -> (Map<String, Value>, Vec<String>) {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for _ in 0..count {
        let (name, value) = field(rng, ctx, depth, &properties);
        if rng.percent(45) {
            required.push(name.clone());
        }
        properties.insert(name, value);
    }
    (properties, required)
}

/// One property, its name unique among `taken`; nested objects only above depth 2.
fn field(
    rng: &mut Rng,
    ctx: &mut Context,
    depth: usize,
    taken: &Map<String, Value>,
) -> (String, Value) {
    let word = *rng.pick(words::FIELD_WORDS);
    // Objects nest at most three levels deep, and rarer the deeper they are.
    let nesting = [4, 1, 0][depth.min(2)];
    let weights = [
        12,
        8,
        6,
        10,
        4,
        8,
        8,
        5,
        8,
        nesting,
        nesting,
        4,
        if ctx.defs.is_empty() { 0 } else { 5 },
        nesting / 2,
    ];
    let (suffix, value) = match rng.weighted(&weights) {
        0 => ("Id", json!({"type": "string", "format": "uuid"})),
        1 => ("At", json!({"type": "string", "format": "date-time"})),
        2 => (
            "Code",
            json!({"type": "string", "pattern": "^[A-Z]{2,4}-[0-9]{3,6}$", "maxLength": 12}),
        ),
        3 => (
            *rng.pick(&["Name", "Note", "Description", "Reference"]),
            json!({"type": "string", "minLength": 1, "maxLength": 20 * rng.between(1, 25)}),
        ),
        4 if rng.percent(50) => (
            "Email",
            json!({"type": "string", "format": "email", "maxLength": 254}),
        ),
        4 => ("Url", json!({"type": "string", "format": "uri"})),
        5 => (
            *rng.pick(&["Count", "Quantity", "Attempts"]),
            json!({"type": "integer", "minimum": 0, "maximum": 10usize.pow(rng.between(2, 6) as u32)}),
        ),
        6 => (
            *rng.pick(&["Amount", "Rate", "Weight"]),
            json!({"type": "number", "minimum": 0}),
        ),
        7 => (
            *rng.pick(&["Enabled", "Confirmed", "Flagged"]),
            json!({"type": "boolean"}),
        ),
        8 => (
            *rng.pick(&["Status", "Type", "Reason"]),
            json!({"type": "string", "enum": enum_values(rng)}),
        ),
        9 => {
            let count = rng.between(2, 5);
            let (properties, required) = object_fields(rng, ctx, count, depth + 1);
            (
                *rng.pick(&["Details", "Info", "Summary"]),
                json!({"type": "object", "properties": properties, "required": required}),
            )
        }
        10 => {
            let count = rng.between(2, 4);
            let (properties, required) = object_fields(rng, ctx, count, depth + 1);
            (
                *rng.pick(&["Items", "Lines", "Entries"]),
                json!({
                    "type": "array",
                    "minItems": rng.below(2),
                    "items": {"type": "object", "properties": properties, "required": required, "additionalProperties": false}
                }),
            )
        }
        11 => (
            "Tags",
            json!({"type": "array", "items": {"type": "string", "maxLength": 40}, "uniqueItems": true}),
        ),
        12 => {
            let def = rng.pick(&ctx.defs).clone();
            let suffix = if def == "Money" { "Total" } else { "Address" };
            (suffix, json!({"$ref": format!("#/{}/{def}", ctx.defs_key)}))
        }
        _ => (
            "Method",
            json!({"oneOf": [
                {"type": "object", "properties": {"kind": {"const": "card"}, "last4": {"type": "string", "pattern": "^[0-9]{4}$"}}, "required": ["kind", "last4"]},
                {"type": "object", "properties": {"kind": {"const": "transfer"}, "iban": {"type": "string", "maxLength": 34}}, "required": ["kind", "iban"]}
            ]}),
        ),
    };
    let mut value = value;
    if rng.percent(25) {
        value
            .as_object_mut()
            .expect("every generated field is an object")
            .insert(
                "description".into(),
                json!(format!(
                    "The {word} {} as the producer knows it.",
                    suffix.to_lowercase()
                )),
            );
    }
    (unique_key(&format!("{word}{suffix}"), taken), value)
}

fn enum_values(rng: &mut Rng) -> Vec<&'static str> {
    let mut values: Vec<&str> = Vec::new();
    let wanted = rng.between(3, 8);
    while values.len() < wanted {
        let v = *rng.pick(words::ENUM_VALUES);
        if !values.contains(&v) {
            values.push(v);
        }
    }
    values
}

fn unique_key(base: &str, taken: &Map<String, Value>) -> String {
    if !taken.contains_key(base) {
        return base.to_owned();
    }
    (2..)
        .map(|n| format!("{base}{n}"))
        .find(|k| !taken.contains_key(k))
        .expect("an unbounded range finds a free name")
}

fn properties_mut(schema: &mut Value) -> &mut Map<String, Value> {
    schema["properties"]
        .as_object_mut()
        .expect("generated documents have properties")
}

fn required_mut(schema: &mut Value) -> &mut Vec<Value> {
    schema["required"]
        .as_array_mut()
        .expect("generated documents have a required list")
}

/// Adds a top-level field (made required when `required`); returns its name.
pub fn add_field(rng: &mut Rng, schema: &mut Value, required: bool) -> String {
    let defs_key = if schema.get("definitions").is_some() {
        "definitions"
    } else {
        "$defs"
    };
    let defs = schema
        .get(defs_key)
        .and_then(Value::as_object)
        .map(|d| d.keys().cloned().collect())
        .unwrap_or_default();
    let mut ctx = Context { defs_key, defs };
    let (name, value) = field(rng, &mut ctx, 1, properties_mut(schema));
    properties_mut(schema).insert(name.clone(), value);
    if required {
        required_mut(schema).push(json!(name));
    }
    name
}

/// The next version's schema: a minor release adds an optional field, a major one (three
/// in ten) a required field. Returns the new version.
pub fn evolve(rng: &mut Rng, schema: &mut Value, from: Version) -> Version {
    if rng.percent(70) {
        add_field(rng, schema, false);
        Version(from.0, from.1 + 1, 0)
    } else {
        add_field(rng, schema, true);
        Version(from.0 + 1, 0, 0)
    }
}

/// Adds a new value to a top-level enum; None when the schema has no top-level enum.
pub fn add_enum_value(rng: &mut Rng, schema: &mut Value) -> Option<(String, String)> {
    let fields: Vec<String> = properties_mut(schema)
        .iter()
        .filter(|(_, v)| v.get("enum").is_some())
        .map(|(k, _)| k.clone())
        .collect();
    if fields.is_empty() {
        return None;
    }
    let field = rng.pick(&fields).clone();
    let values = properties_mut(schema)[&field]["enum"]
        .as_array_mut()
        .expect("filtered on enum");
    let fresh = words::ENUM_VALUES
        .iter()
        .map(|v| (*v).to_owned())
        .chain((2..).map(|n| format!("variant_{n}")))
        .find(|v| !values.iter().any(|x| x == v))
        .expect("an unbounded list has a fresh value");
    values.push(json!(fresh));
    Some((field, fresh))
}

/// Removes a required top-level field (readers that rely on it break); None when nothing
/// is required or fewer than three fields are left.
pub fn remove_field(rng: &mut Rng, schema: &mut Value) -> Option<String> {
    let required: Vec<String> = required_mut(schema)
        .iter()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    let properties = properties_mut(schema);
    if properties.len() < 3 || required.is_empty() {
        return None;
    }
    let field = rng.pick(&required).clone();
    properties.shift_remove(&field);
    required_mut(schema).retain(|v| v != field.as_str());
    Some(field)
}
