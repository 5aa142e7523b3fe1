//! The OpenAPI walker (3.0 and 3.1): operations by method and path shape (`/orders/{id}` is
//! `/orders/{orderId}`), webhooks by name and method (3.1), callbacks by the operation that
//! registers them, their name, URL expression and method; per operation its parameters (path
//! ones by position in the template, the others by location and name), request body and
//! responses, whose schemas [`payload`] judges in their role: a request is read by the service,
//! a response by its clients, and the other way round for a webhook or a callback, which the
//! service calls.
//! It says what changed and where; the rules table says whether it breaks.
//!
//! Also response headers, the security requirement in force on each path operation, and how
//! the schemes it names have credentials presented. What else a scheme says is `unjudged`;
//! servers and links are not compared.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::document::{Parsed, Target, child, follow};
use super::payload::{Body, Payload};
use super::rules::{self, Role};
use super::{Caller, Element, Found, Malformed, Spec, object, rule};
use crate::schema::Format;
use crate::schema::verdict::OpKind;

const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// Header parameters OpenAPI says to ignore (they are described elsewhere).
const IGNORED_HEADERS: &[&str] = &["accept", "content-type", "authorization"];

#[derive(Debug)]
struct Param {
    at: String,
    name: String,
    location: String,
    required: bool,
    /// `schema`, or the schema of the one `content` media type.
    schema: Option<String>,
    /// How the value is written: style and explode, or `content` with its media type.
    serialization: String,
    /// Written as text by its style (no `content`), so it cannot be a JSON `null`.
    as_text: bool,
    /// `allowEmptyValue`, which no rule judges.
    allow_empty: bool,
}

#[derive(Debug)]
struct RequestBody {
    at: String,
    required: bool,
    content: BTreeMap<String, Media>,
    /// Each media type's `encoding` (how multipart and form parts are written), by its key as
    /// written, which no rule judges.
    encodings: BTreeMap<String, Value>,
}

#[derive(Debug)]
struct Response {
    at: String,
    content: BTreeMap<String, Media>,
    /// By lowercased name (HTTP names are case-insensitive), with where each is written;
    /// `Content-Type` is left out, as OpenAPI says.
    headers: BTreeMap<String, (String, Result<Header, Unresolved>)>,
}

/// A media type of a `content` map: its key as written (its place), and where its schema is.
type Media = (String, Option<String>);

/// A ref that points nowhere: (the ref, why).
type Unresolved = (String, String);

/// A `parameters` list: each entry with its place, and the list itself when it is no list
/// (its place, why it cannot be read).
type Parameters<'v> = (Vec<(&'v Value, String)>, Option<(String, String)>);

#[derive(Debug)]
struct Header {
    at: String,
    name: String,
    required: bool,
    /// `schema`, or the schema of the one `content` media type.
    schema: Option<String>,
}

#[derive(Debug)]
struct Operation {
    at: String,
    element: Element,
    deprecated: bool,
    params: BTreeMap<String, Param>,
    /// Parameters that are refs pointing nowhere.
    unresolved_params: Vec<Unresolved>,
    /// Parts of the wrong shape (a `parameters` mapping, a parameter listed twice, `responses`
    /// as a list), by pointer, with why: OpenAPI does not say what they mean, so they are
    /// unknown parts, never read as absent.
    malformed: Malformed,
    body: Option<Result<RequestBody, Unresolved>>,
    responses: BTreeMap<String, Result<Response, Unresolved>>,
    /// Where the requirement in force is written (the operation's own, else the document's),
    /// and its alternatives.
    security: (String, Option<Security>),
    unresolved: Option<Unresolved>,
}

/// The credentials a request must carry: any one alternative suffices, and an alternative
/// names schemes with the scopes each needs. No requirement is one empty alternative.
type Security = Vec<BTreeMap<String, BTreeSet<String>>>;

/// `None` for a value that is not a list of requirement objects, each naming schemes with a
/// list of scopes (OpenAPI's shape).
fn read_security(value: &Value) -> Option<Security> {
    let alternatives: Security = value
        .as_array()?
        .iter()
        .map(|alternative| {
            alternative
                .as_object()?
                .iter()
                .map(|(scheme, scopes)| {
                    let scopes = scopes.as_array()?.iter().map(Value::as_str);
                    let scopes = scopes.collect::<Option<BTreeSet<&str>>>()?;
                    Some((
                        scheme.clone(),
                        scopes.into_iter().map(str::to_owned).collect(),
                    ))
                })
                .collect()
        })
        .collect::<Option<_>>()?;
    Some(if alternatives.is_empty() {
        vec![BTreeMap::new()]
    } else {
        alternatives
    })
}

/// How a security scheme has credentials presented: its type, and where an API key goes
/// (`in` and `name`) or which HTTP `scheme` carries them. Everything else about a scheme is
/// not judged here.
#[derive(Debug)]
struct Presented {
    kind: Option<String>,
    place: Option<String>,
    name: Option<String>,
    scheme: Option<String>,
}

impl PartialEq for Presented {
    fn eq(&self, other: &Presented) -> bool {
        self.folded() == other.folded()
    }
}

/// The keys of a security scheme [`Presented`] reads.
pub(super) const PRESENTATION: &[&str] = &["type", "in", "name", "scheme"];

impl Presented {
    /// What is compared: a header's name and an HTTP scheme without regard to case.
    fn folded(&self) -> [Option<String>; 4] {
        let lower = |v: &Option<String>| v.as_ref().map(|v| v.to_ascii_lowercase());
        let name = match self.place.as_deref() {
            Some("header") => lower(&self.name),
            _ => self.name.clone(),
        };
        [
            self.kind.clone(),
            self.place.clone(),
            name,
            lower(&self.scheme),
        ]
    }

    fn describe(&self) -> String {
        let text = |v: &Option<String>| v.clone().unwrap_or_else(|| "none".to_owned());
        match (self.kind.as_deref(), &self.place) {
            (Some("apiKey"), place) => {
                format!("an API key in {} `{}`", text(place), text(&self.name))
            }
            (Some("http"), _) => format!("HTTP `{}`", text(&self.scheme)),
            (kind, _) => format!("type `{}`", kind.unwrap_or("none")),
        }
    }
}

/// The security schemes a document defines, by name, refs followed (one of the wrong shape is
/// recorded in `malformed`).
fn schemes(parsed: &Parsed, malformed: &mut Malformed) -> BTreeMap<String, Presented> {
    let at = "/components/securitySchemes";
    let Some(Value::Object(map)) = parsed.root.pointer(at) else {
        return BTreeMap::new();
    };
    map.iter()
        .filter_map(|(name, node)| {
            let what = || format!("security scheme `{name}`");
            match object(parsed, (node, &child(at, name)), what, malformed)? {
                Target::Found(scheme, _) => Some((name.clone(), scheme)),
                Target::Unresolved(..) => None,
            }
        })
        .map(|(name, scheme)| {
            let field = |key: &str| scheme.get(key).and_then(Value::as_str).map(str::to_owned);
            let presented = Presented {
                kind: field("type"),
                place: field("in"),
                name: field("name"),
                scheme: field("scheme"),
            };
            (name, presented)
        })
        .collect()
}

/// `security` with each scheme only its own side defines (`schemes`, not `others`) named by how
/// it has credentials presented where that says all of it (an API key, an HTTP scheme), so
/// renaming such a scheme's key changes no requirement. A scheme both sides define keeps its
/// key (`security.scheme.changed` judges how it is presented), as do one the other side's
/// requirement names too (`kept`: the same key, whose definition one side dropped), other
/// schemes (OAuth flows, OpenID Connect) and undefined ones.
fn by_presentation(
    security: &Security,
    (schemes, others): (&BTreeMap<String, Presented>, &BTreeMap<String, Presented>),
    kept: &BTreeSet<String>,
) -> Security {
    let named = |name: &String| match schemes.get(name) {
        Some(scheme)
            if !others.contains_key(name)
                && !kept.contains(name)
                && matches!(scheme.kind.as_deref(), Some("apiKey" | "http")) =>
        {
            format!("{:?}", scheme.folded())
        }
        _ => name.clone(),
    };
    security
        .iter()
        .map(|alternative| {
            alternative
                .iter()
                .map(|(name, scopes)| (named(name), scopes.clone()))
                .collect()
        })
        .collect()
}

/// Whether some request that meets an alternative of `held` meets none of `wanted`.
fn refuses_some(held: &Security, wanted: &Security) -> bool {
    let meets = |have: &BTreeMap<String, BTreeSet<String>>,
                 want: &BTreeMap<String, BTreeSet<String>>| {
        want.iter()
            .all(|(scheme, scopes)| have.get(scheme).is_some_and(|h| scopes.is_subset(h)))
    };
    held.iter()
        .any(|have| !wanted.iter().any(|want| meets(have, want)))
}

impl Operation {
    fn label(&self) -> String {
        format!("`{}`", self.element)
    }

    /// Whether the service calls it (a webhook or a callback), which swaps the roles.
    fn called_by_service(&self) -> bool {
        matches!(
            self.element,
            Element::Operation {
                caller: Caller::Webhook | Caller::Callback(_),
                ..
            }
        )
    }

    /// The role of what the service reads (requests; the responses to its own calls).
    fn input(&self) -> Role {
        if self.called_by_service() {
            Role::Output
        } else {
            Role::Input
        }
    }

    fn output(&self) -> Role {
        match self.input() {
            Role::Input => Role::Output,
            _ => Role::Input,
        }
    }
}

/// `/orders/{}`: the path with parameter names left out, as OpenAPI matches templates.
pub fn shape(template: &str) -> String {
    let mut out = String::with_capacity(template.len());
    let mut inside = false;
    for c in template.chars() {
        match c {
            '{' if !inside => {
                inside = true;
                out.push_str("{}");
            }
            '}' if inside => inside = false,
            _ if inside => {}
            other => out.push(other),
        }
    }
    out
}

/// The parameter names of a path template, in order.
pub(super) fn template_names(template: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        names.push(&rest[open + 1..open + close]);
        rest = &rest[open + close + 1..];
    }
    names
}

/// The media types of `value`'s `content`, by [`super::media_type`]; of two that mean the same,
/// the one whose key sorts first takes that slot and the other keeps its key as written, so
/// neither goes unread. One of the wrong shape is recorded in `malformed`.
fn content(
    parsed: &Parsed,
    value: &Value,
    at: &str,
    malformed: &mut Malformed,
) -> BTreeMap<String, Media> {
    let mut out = BTreeMap::new();
    if let Some(Value::Object(map)) = value.get("content") {
        let content_at = child(at, "content");
        // Sorted, so which of two keys meaning the same type keeps the shared slot does not
        // depend on the order they are written in.
        let mut entries: Vec<_> = map.iter().collect();
        entries.sort_by_key(|(media, _)| *media);
        for (media, node) in entries {
            let media_at = child(&content_at, media);
            let what = || format!("media type `{media}`");
            let resolved = match object(parsed, (node, &media_at), what, malformed) {
                None => continue,
                Some(Target::Found(value, resolved)) => Some((value, resolved)),
                Some(Target::Unresolved(..)) => None,
            };
            let schema = resolved.and_then(|(value, resolved)| {
                value.get("schema").map(|_| child(&resolved, "schema"))
            });
            let key = super::media_type(media);
            let key = if out.contains_key(&key) {
                media.clone()
            } else {
                key
            };
            out.insert(key, (media.clone(), schema));
        }
    }
    out
}

/// The `encoding` of each media type of a request body's `content`, by its key as written.
fn encodings(parsed: &Parsed, value: &Value, at: &str) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    if let Some(Value::Object(map)) = value.get("content") {
        for (media, node) in map {
            if let Target::Found(node, _) =
                follow(parsed, node, &child(&child(at, "content"), media))
                && let Some(encoding) = node.get("encoding")
            {
                out.insert(media.clone(), encoding.clone());
            }
        }
    }
    out
}

fn response_headers(
    parsed: &Parsed,
    response: &Value,
    at: &str,
    malformed: &mut Malformed,
) -> BTreeMap<String, (String, Result<Header, Unresolved>)> {
    let mut out = BTreeMap::new();
    let Some(Value::Object(map)) = response.get("headers") else {
        return out;
    };
    let headers_at = child(at, "headers");
    for (name, node) in map {
        let key = name.to_ascii_lowercase();
        if key == "content-type" {
            continue;
        }
        let at = child(&headers_at, name);
        let what = || format!("header `{name}`");
        let Some(header) = object(parsed, (node, &at), what, malformed) else {
            continue;
        };
        let header = match header {
            Target::Found(value, resolved) => Ok(Header {
                name: name.clone(),
                required: value.get("required") == Some(&Value::Bool(true)),
                schema: match value.get("schema") {
                    Some(_) => Some(child(&resolved, "schema")),
                    None => content(parsed, value, &resolved, malformed)
                        .into_values()
                        .next()
                        .and_then(|(_, schema)| schema),
                },
                at: resolved,
            }),
            Target::Unresolved(reference, why) => Err((reference, why)),
        };
        out.insert(key, (at, header));
    }
    out
}

/// Styles that write a single primitive value as it is (`label` and `matrix` add a prefix).
const PLAIN_FOR_PRIMITIVES: &[&str] = &[
    "form",
    "simple",
    "spaceDelimited",
    "pipeDelimited",
    "deepObject",
];

/// Whether a parameter's schema is one primitive type (string, number, integer, boolean).
fn is_primitive(parsed: &Parsed, schema: Option<&Value>, at: &str) -> bool {
    let Some(schema) = schema else {
        return false;
    };
    let Target::Found(schema, _) = follow(parsed, schema, &child(at, "schema")) else {
        return false;
    };
    let primitive = |t: &Value| {
        matches!(
            t.as_str(),
            Some("string" | "number" | "integer" | "boolean" | "null")
        )
    };
    match schema.get("type") {
        Some(Value::Array(types)) => !types.is_empty() && types.iter().all(primitive),
        Some(single) => primitive(single),
        None => false,
    }
}

/// The parameter at `at` of a `parameters` list; `None` when it is of the wrong shape
/// (recorded in `malformed`).
fn read_param(
    parsed: &Parsed,
    node: &Value,
    at: &str,
    malformed: &mut Malformed,
) -> Option<Result<Param, Unresolved>> {
    let index = at.rsplit('/').next().unwrap_or_default();
    let what = || format!("entry {index} of `parameters`");
    let (value, resolved) = match object(parsed, (node, at), what, malformed)? {
        Target::Found(value, resolved) => (value, resolved),
        Target::Unresolved(reference, why) => return Some(Err((reference, why))),
    };
    let location = value
        .get("in")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let name = value
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let required = location == "path" || value.get("required") == Some(&Value::Bool(true));
    let (schema, serialization) = match value.get("content") {
        Some(_) => {
            let media = content(parsed, value, &resolved, malformed);
            let first = media.into_iter().next();
            (
                first.as_ref().and_then(|(_, (_, schema))| schema.clone()),
                format!(
                    "content {}",
                    first.map(|(media, _)| media).unwrap_or_default()
                ),
            )
        }
        None => {
            let style = value
                .get("style")
                .and_then(Value::as_str)
                .unwrap_or(match location.as_str() {
                    "query" | "cookie" => "form",
                    _ => "simple",
                })
                .to_owned();
            let explode = value
                .get("explode")
                .and_then(Value::as_bool)
                .unwrap_or(style == "form");
            let mut serialization = if is_primitive(parsed, value.get("schema"), &resolved)
                && PLAIN_FOR_PRIMITIVES.contains(&style.as_str())
            {
                // `status=NEW` whatever the explode flag or the delimiter: only arrays and
                // objects are written differently by these styles.
                "a plain value".to_owned()
            } else {
                format!("style {style}, explode {explode}")
            };
            // Reserved characters (`/`, `?`, `&`, ...) then go unencoded: another wire form.
            if value.get("allowReserved") == Some(&Value::Bool(true)) {
                serialization.push_str(", reserved characters unencoded");
            }
            (
                value.get("schema").map(|_| child(&resolved, "schema")),
                serialization,
            )
        }
    };
    Some(Ok(Param {
        at: resolved,
        name,
        location,
        required,
        schema,
        serialization,
        as_text: value.get("content").is_none(),
        allow_empty: value.get("allowEmptyValue") == Some(&Value::Bool(true)),
    }))
}

fn read_operation(
    parsed: &Parsed,
    op: &Value,
    at: String,
    element: Element,
    template: &str,
    (shared, shared_malformed): &Parameters<'_>,
) -> Operation {
    let (op, resolved) = match follow(parsed, op, &at) {
        Target::Found(value, resolved) => (value, resolved),
        Target::Unresolved(reference, why) => {
            return Operation {
                at,
                element,
                deprecated: false,
                params: BTreeMap::new(),
                unresolved_params: Vec::new(),
                malformed: BTreeMap::new(),
                body: None,
                responses: BTreeMap::new(),
                security: (String::new(), Some(Security::new())),
                unresolved: Some((reference, why)),
            };
        }
    };
    let names = template_names(template);
    let mut params = BTreeMap::new();
    let mut unresolved_params = Vec::new();
    let (own, own_malformed) = parameter_nodes(op, &resolved);
    let mut malformed: Malformed = [shared_malformed.clone(), own_malformed]
        .into_iter()
        .flatten()
        .collect();
    // Each list names a parameter once (OpenAPI); which of two namesakes counts is unsaid.
    let mut listed: [BTreeSet<String>; 2] = Default::default();
    // Path-level parameters first; the operation's own override them.
    let own = own.into_iter().map(|(n, a)| (n, a, 1));
    for (node, node_at, list) in shared.iter().map(|(n, a)| (*n, a.clone(), 0)).chain(own) {
        let param = match read_param(parsed, node, &node_at, &mut malformed) {
            None => continue,
            Some(Ok(param)) => param,
            Some(Err(unresolved)) => {
                unresolved_params.push(unresolved);
                continue;
            }
        };
        if param.location == "header"
            && IGNORED_HEADERS.contains(&param.name.to_ascii_lowercase().as_str())
        {
            continue;
        }
        let key = match param.location.as_str() {
            "path" => match names.iter().position(|n| *n == param.name) {
                Some(index) => format!("path#{index}"),
                None => format!("path:{}", param.name),
            },
            "header" => format!("header:{}", param.name.to_ascii_lowercase()),
            other => format!("{other}:{}", param.name),
        };
        if !listed[list].insert(key.clone()) {
            // The whole list is unjudged: a change to either namesake is a change to it.
            let list_at = node_at.rsplit_once('/').map_or("", |(list, _)| list);
            malformed.insert(
                list_at.to_owned(),
                format!(
                    "{} parameter `{}` is listed twice in one `parameters` list, which OpenAPI forbids, so which one holds cannot be judged",
                    param.location, param.name
                ),
            );
        }
        params.insert(key, param);
    }
    let body = op.get("requestBody").and_then(|node| {
        let body_at = child(&resolved, "requestBody");
        let what = || "`requestBody`".to_owned();
        match object(parsed, (node, &body_at), what, &mut malformed)? {
            Target::Found(value, body_at) => {
                maps(value, &body_at, &["content"], &mut malformed);
                Some(Ok(RequestBody {
                    required: value.get("required") == Some(&Value::Bool(true)),
                    content: content(parsed, value, &body_at, &mut malformed),
                    encodings: encodings(parsed, value, &body_at),
                    at: body_at,
                }))
            }
            Target::Unresolved(reference, why) => Some(Err((reference, why))),
        }
    });
    let mut responses = BTreeMap::new();
    maps(op, &resolved, &["responses", "callbacks"], &mut malformed);
    if let Some(Value::Object(map)) = op.get("responses") {
        let responses_at = child(&resolved, "responses");
        for (code, node) in map.iter().filter(|(key, _)| !is_extension(key)) {
            let code_at = child(&responses_at, code);
            let what = || format!("response `{code}`");
            let Some(response) = object(parsed, (node, &code_at), what, &mut malformed) else {
                continue;
            };
            let response = match response {
                Target::Found(value, response_at) => {
                    maps(value, &response_at, &["content", "headers"], &mut malformed);
                    Ok(Response {
                        content: content(parsed, value, &response_at, &mut malformed),
                        headers: response_headers(parsed, value, &response_at, &mut malformed),
                        at: response_at,
                    })
                }
                Target::Unresolved(reference, why) => Err((reference, why)),
            };
            // `2xx` is `2XX`; `default` stays as people write it.
            let code = match code.as_str() {
                "default" => code.clone(),
                _ => code.to_ascii_uppercase(),
            };
            responses.insert(code, response);
        }
    }
    let security = match (op.get("security"), parsed.root.get("security")) {
        (Some(own), _) => (child(&resolved, "security"), read_security(own)),
        (None, Some(document)) => ("/security".to_owned(), read_security(document)),
        (None, None) => (child(&resolved, "security"), Some(vec![BTreeMap::new()])),
    };
    Operation {
        at: resolved,
        element,
        deprecated: op.get("deprecated") == Some(&Value::Bool(true)),
        params,
        unresolved_params,
        malformed,
        body,
        responses,
        security,
        unresolved: None,
    }
}

/// Records each of `keys` of `value` (at `at`) that is there but not a map, which OpenAPI
/// requires it to be.
fn maps(value: &Value, at: &str, keys: &[&str], malformed: &mut Malformed) {
    for key in keys {
        if value.get(key).is_some_and(|node| !node.is_object()) {
            let what = (format!("`{key}`"), "a map");
            super::wrong_shape(malformed, &child(at, key), (&what.0, what.1), Spec::OpenApi);
        }
    }
}

/// The `parameters` list of an operation or path item (at `at`), each with its place; and,
/// when it is not a list, its place and why it cannot be read.
fn parameter_nodes<'v>(node: &'v Value, at: &str) -> Parameters<'v> {
    let at = child(at, "parameters");
    match node.get("parameters") {
        Some(Value::Array(list)) => (
            list.iter()
                .enumerate()
                .map(|(i, p)| (p, child(&at, &i.to_string())))
                .collect(),
            None,
        ),
        None => (Vec::new(), None),
        Some(_) => (
            Vec::new(),
            Some((
                at,
                "`parameters` is not a list of parameters, as OpenAPI requires, so it cannot be judged".to_owned(),
            )),
        ),
    }
}

/// Whether a key of an object OpenAPI lets be extended (Paths, Responses, Callback) is a
/// specification extension (`x-...`) rather than a path, status code or expression.
fn is_extension(key: &str) -> bool {
    key.starts_with("x-")
}

/// How operations are paired between the two documents: who calls them, the method, and
/// the path shape (a webhook's name; a callback's registering operation, name and expression).
type Key = (u8, String, String);

/// Every operation of a document, with the callbacks each registers; path items, operations
/// and callbacks of the wrong shape are recorded in `malformed`.
fn operations(parsed: &Parsed, malformed: &mut Malformed) -> BTreeMap<Key, Operation> {
    let mut out = BTreeMap::new();
    for (webhook, section) in [(false, "paths"), (true, "webhooks")] {
        let Some(Value::Object(items)) = parsed.root.get(section) else {
            continue;
        };
        for (template, node) in items.iter().filter(|(key, _)| !is_extension(key)) {
            let item_at = child(&format!("/{section}"), template);
            let (caller, key) = match webhook {
                false => (Caller::Clients, (0, shape(template))),
                true => (Caller::Webhook, (1, template.clone())),
            };
            let item = Item {
                node,
                at: item_at,
                template,
                caller,
            };
            let read = &mut BTreeSet::new();
            item_operations(parsed, item, &key, (read, malformed), &mut out);
        }
    }
    out
}

/// A path item and who calls its operations.
struct Item<'a> {
    node: &'a Value,
    at: String,
    template: &'a str,
    caller: Caller,
}

/// Adds the operations of `item` to `out`, keyed by `key` (its kind and path key) and method,
/// then those of the callbacks each registers (which nest). `read` holds the callback path
/// items read so far, where their refs lead: each is read once, so refs that share one, or
/// make a circle, cost no more than the document's size. Parts of the wrong shape go to
/// `malformed`.
fn item_operations(
    parsed: &Parsed,
    item: Item<'_>,
    (kind, path_key): &(u8, String),
    (read, malformed): (&mut BTreeSet<String>, &mut Malformed),
    out: &mut BTreeMap<Key, Operation>,
) {
    let what = || format!("path item `{}`", item.template);
    let (node, resolved) = match object(parsed, (item.node, &item.at), what, malformed) {
        Some(Target::Found(value, resolved)) => (value, resolved),
        Some(Target::Unresolved(..)) | None => return,
    };
    if matches!(item.caller, Caller::Callback(_)) && !read.insert(resolved.clone()) {
        return;
    }
    let shared = parameter_nodes(node, &resolved);
    for method in METHODS {
        let Some(op) = node.get(*method) else {
            continue;
        };
        let upper = method.to_ascii_uppercase();
        let element = Element::Operation {
            method: upper.clone(),
            path: item.template.to_owned(),
            caller: item.caller.clone(),
        };
        // Under the path item the refs lead to: what the operation holds is read from there.
        let op_at = child(&resolved, method);
        let what = || format!("operation `{element}`");
        if object(parsed, (op, &op_at), what, malformed).is_none() {
            continue;
        }
        let operation = read_operation(parsed, op, op_at.clone(), element, item.template, &shared);
        out.insert((*kind, method.to_string(), path_key.clone()), operation);
        let Target::Found(op, op_at) = follow(parsed, op, &op_at) else {
            continue;
        };
        let Some(Value::Object(callbacks)) = op.get("callbacks") else {
            continue;
        };
        let callbacks_at = child(&op_at, "callbacks");
        for (name, callback) in callbacks {
            let callback_at = child(&callbacks_at, name);
            let what = || format!("callback `{name}`");
            let Some(Target::Found(Value::Object(expressions), callback_at)) =
                object(parsed, (callback, &callback_at), what, malformed)
            else {
                continue;
            };
            for (expression, node) in expressions.iter().filter(|(key, _)| !is_extension(key)) {
                let key = (2, format!("{path_key} {method} {name} {expression}"));
                let item = Item {
                    node,
                    at: child(&callback_at, expression),
                    template: expression,
                    caller: Caller::Callback(format!("{name} of {upper} {}", item.template)),
                };
                item_operations(parsed, item, &key, (read, malformed), out);
            }
        }
    }
}

fn is_success(code: &str) -> bool {
    code.starts_with('2')
}

/// Compare two OpenAPI documents: structure here, schemas through [`payload`].
pub(super) fn compare(
    before: &mut Parsed,
    after: &mut Parsed,
    file: &str,
    options: &crate::schema::Options,
) -> Result<Found, crate::schema::Error> {
    // A `paths` or `webhooks` that is not a map, or a path item, operation, callback or
    // security scheme that is not, holds what OpenAPI does not say: an unknown part, the
    // operations in it paired with nothing, never removed or added.
    let [mut wrong_before, mut wrong_after] = [Malformed::new(), Malformed::new()];
    let mut old = operations(before, &mut wrong_before);
    let mut new = operations(after, &mut wrong_after);
    let presented = [
        schemes(before, &mut wrong_before),
        schemes(after, &mut wrong_after),
    ];
    for (parsed, wrong) in [(&*before, &mut wrong_before), (&*after, &mut wrong_after)] {
        maps(&parsed.root, "", &["paths", "webhooks"], wrong);
    }
    let mut found = Found::default();
    let section_of = |key: &Key| if key.0 == 1 { "/webhooks" } else { "/paths" };
    let holds = |at: &str, (key, op): (&Key, &Operation)| {
        at == section_of(key) || super::within(at, &op.at)
    };
    let unread = super::malformed_parts(
        (before, &wrong_before),
        (after, &wrong_after),
        &mut found,
        |_, why| why.to_owned(),
        |at| {
            let ops = old.iter().chain(&new);
            let within = ops.filter(|&op| holds(at, op));
            within.map(|(_, op)| op.element.clone()).collect()
        },
    );
    for ops in [&mut old, &mut new] {
        ops.retain(|key, op| !unread.iter().any(|at| holds(at, (key, op))));
    }
    // Schemes of the wrong shape on either side: requirements naming them are not judged.
    let unread_schemes: BTreeSet<String> = (wrong_before.keys().chain(wrong_after.keys()))
        .filter_map(|at| at.strip_prefix("/components/securitySchemes/"))
        .map(super::document::unescape)
        .collect();
    let mut bodies = Vec::new();
    let mut covered = unread;
    for (key, op) in &old {
        let Some(next) = new.get(key) else {
            push_rule(
                &mut found,
                "operation.removed",
                OpKind::Remove,
                &op.at,
                format!("operation {} was removed", op.label()),
                op,
            );
            continue;
        };
        let element = &next.element;
        match (&op.unresolved, &next.unresolved) {
            (None, None) => {}
            (Some((a, _)), Some((b, _))) if a == b => continue,
            (_, Some((_, why))) | (Some((_, why)), None) => {
                found.unknown(&next.at, why.clone(), vec![element.clone()]);
                continue;
            }
        }
        if !op.deprecated && next.deprecated {
            push_rule(
                &mut found,
                "operation.deprecated",
                OpKind::Replace,
                &child(&next.at, "deprecated"),
                format!("operation {} is now deprecated", next.label()),
                next,
            );
        }
        covered.extend(malformed(before, after, op, next, &mut found));
        security(op, next, (&presented, &unread_schemes), &mut found);
        parameters(op, next, &mut found, &mut bodies);
        request_body(op, next, &mut found, &mut bodies);
        responses(op, next, &mut found, &mut bodies);
    }
    for (key, op) in &new {
        if !old.contains_key(key) {
            push_rule(
                &mut found,
                "operation.added",
                OpKind::Add,
                &op.at,
                format!("operation {} was added", op.label()),
                op,
            );
        }
    }
    super::payload::compare_bodies(before, after, &bodies, file, options, &mut found)?;
    // What a part of the wrong shape holds was not read, so what seems to change in it is
    // covered by its unknown part, not judged.
    for at in &covered {
        found.drop_within(at);
    }
    Ok(found)
}

/// An unknown part for each part of the wrong shape of a paired operation, unless the other
/// side has the very same part at the same place (nothing changed in it). Returns the places
/// of those parts.
fn malformed(
    before: &Parsed,
    after: &Parsed,
    op: &Operation,
    next: &Operation,
    found: &mut Found,
) -> Vec<String> {
    let path = match &next.element {
        Element::Operation { path, .. } => path.as_str(),
        Element::Message(id) => id.as_str(),
    };
    // The path item's own `parameters`, beside the operation (where a `$ref` led to it).
    let item = next.at.rsplit_once('/').map_or("", |(item, _)| item);
    let shared = child(item, "parameters");
    super::malformed_parts(
        (before, &op.malformed),
        (after, &next.malformed),
        found,
        // A part of the path item's shared `parameters` is every operation's there: one
        // unknown part, named by the path, with all of them.
        |at, why| match super::within(&shared, at) {
            true => format!("`{path}`: {why}"),
            false => format!("{}: {why}", next.label()),
        },
        |_| vec![next.element.clone()],
    )
}

/// A change of the structural table to an operation: every one goes through here, so a row
/// about a request or a response is read mirrored when the service makes the call.
fn push_rule(found: &mut Found, id: &str, op: OpKind, path: &str, what: String, call: &Operation) {
    push_rule_about(found, id, op, (path, None), what, call);
}

/// [`push_rule`] of a change the path does not name (a parameter by its position in the
/// list): `about` does.
fn push_rule_about(
    found: &mut Found,
    id: &str,
    op: OpKind,
    (path, about): (&str, Option<&str>),
    what: String,
    call: &Operation,
) {
    let row = rule(Spec::OpenApi, id);
    let row = if call.called_by_service() {
        rules::called_by_service(row)
    } else {
        row
    };
    found.push_about(
        row,
        op,
        (path, about.map(str::to_owned)),
        what,
        vec![call.element.clone()],
    );
}

/// `<subject>.required.added` or `.removed` when `required` (was, is) flipped on the element at
/// `at` described by `label` (and, where `at` does not name it, by `about`).
fn required_flipped(
    found: &mut Found,
    subject: &str,
    (was, is): (bool, bool),
    (at, about, label): (&str, Option<&str>, &str),
    call: &Operation,
) {
    let (change, says) = match (was, is) {
        (false, true) => ("added", "is now required"),
        (true, false) => ("removed", "is no longer required"),
        _ => return,
    };
    push_rule_about(
        found,
        &format!("{subject}.required.{change}"),
        OpKind::Replace,
        (&child(at, "required"), about),
        format!("{label} {says}"),
        call,
    );
}

/// A JSON Schema of `call` to judge, when either side has one: in its `request` (else its
/// response), read in the role that has there; `as_text` for a value written as text (a
/// parameter by its style, a header).
fn schema_body(
    (before, after): (&Option<String>, &Option<String>),
    (call, request): (&Operation, bool),
    what: String,
    as_text: bool,
) -> Option<Body> {
    (before.is_some() || after.is_some()).then(|| Body {
        before: before.clone(),
        after: after.clone(),
        role: if request { call.input() } else { call.output() },
        elements: vec![call.element.clone()],
        what,
        payload: Payload::Format(Format::JsonSchema),
        as_text,
        request: Some(request),
    })
}

/// The credentials a request must carry. The requests of a webhook or a callback are checked
/// by their receivers, which the document does not describe, so only paths are compared.
fn security(
    op: &Operation,
    next: &Operation,
    ([old_schemes, new_schemes], unread): (&[BTreeMap<String, Presented>; 2], &BTreeSet<String>),
    found: &mut Found,
) {
    if next.called_by_service() {
        return;
    }
    let ((_, was), (at, is)) = (&op.security, &next.security);
    let (Some(was), Some(is)) = (was, is) else {
        let why = "`security` is not a list of requirement objects, each naming schemes with a \
                   list of scopes, as OpenAPI requires, so it cannot be judged";
        found.unknown(at, why.to_owned(), vec![next.element.clone()]);
        return;
    };
    let whose = if at == "/security" {
        "the document's security requirement (for every operation without its own)".to_owned()
    } else {
        format!("the security requirement of {}", next.label())
    };
    let named = |security: &Security| -> BTreeSet<String> {
        security
            .iter()
            .flat_map(|alt| alt.keys().cloned())
            .collect()
    };
    // What a scheme of the wrong shape asks is unknown (its own unknown part says so when it
    // changed): a requirement naming it is judged only as unchanged.
    if let Some(name) = named(was).union(&named(is)).find(|n| unread.contains(*n)) {
        if was != is {
            let why = format!(
                "{whose} names security scheme `{name}`, which cannot be read, so it cannot be judged"
            );
            found.unknown(at, why, vec![next.element.clone()]);
        }
        return;
    }
    // The schemes both requirements name.
    let both: BTreeSet<String> = named(was).intersection(&named(is)).cloned().collect();
    let (held, wanted) = (
        by_presentation(was, (old_schemes, new_schemes), &both),
        by_presentation(is, (new_schemes, old_schemes), &both),
    );
    for (rule, refused, more) in [
        ("security.narrowed", refuses_some(&held, &wanted), "more"),
        ("security.widened", refuses_some(&wanted, &held), "less"),
    ] {
        if refused {
            let what = format!("{whose} asks {more} of a request's credentials");
            push_rule(found, rule, OpKind::Replace, at, what, next);
        }
    }
    // A scheme both requirements name, now presented another way, or defined on one side
    // only: how the other side presents it is not written, so it cannot be judged.
    for name in &both {
        let (Some(a), Some(b)) = (old_schemes.get(name), new_schemes.get(name)) else {
            if old_schemes.contains_key(name) != new_schemes.contains_key(name) {
                let why = format!(
                    "security scheme `{name}` of {whose} is defined on one side only, so how its credentials are presented cannot be compared"
                );
                found.unknown(at, why, vec![next.element.clone()]);
            }
            continue;
        };
        if a != b {
            let what = format!(
                "security scheme `{name}` now asks for {} instead of {}",
                b.describe(),
                a.describe()
            );
            let at = child("/components/securitySchemes", name);
            push_rule(
                found,
                "security.scheme.changed",
                OpKind::Replace,
                &at,
                what,
                next,
            );
        }
    }
}

fn parameters(op: &Operation, next: &Operation, found: &mut Found, bodies: &mut Vec<Body>) {
    let element = &next.element;
    let refs = |o: &Operation| {
        o.unresolved_params
            .iter()
            .map(|(r, _)| r.clone())
            .collect::<Vec<_>>()
    };
    if refs(op) != refs(next) {
        let why = next
            .unresolved_params
            .first()
            .or(op.unresolved_params.first())
            .map(|(_, why)| why.clone())
            .unwrap_or_default();
        found.unknown(&child(&next.at, "parameters"), why, vec![element.clone()]);
    }
    for (key, param) in &op.params {
        let label = format!(
            "{} parameter `{}` of {}",
            param.location,
            param.name,
            next.label()
        );
        let Some(new) = next.params.get(key) else {
            push_rule_about(
                found,
                "parameter.removed",
                OpKind::Remove,
                (&param.at, Some(key)),
                format!("{label} was removed"),
                next,
            );
            if param.required {
                push_rule_about(
                    found,
                    "parameter.required.removed",
                    OpKind::Remove,
                    (&param.at, Some(key)),
                    format!("required {label} was removed"),
                    next,
                );
            }
            continue;
        };
        let label = format!(
            "{} parameter `{}` of {}",
            new.location,
            new.name,
            next.label()
        );
        required_flipped(
            found,
            "parameter",
            (param.required, new.required),
            (&new.at, Some(key), &label),
            next,
        );
        if param.allow_empty != new.allow_empty {
            found.unknown(
                &child(&new.at, "allowEmptyValue"),
                format!("{label}: `allowEmptyValue` changed; catalog-diff does not judge whether an empty value is accepted"),
                vec![element.clone()],
            );
        }
        if param.serialization != new.serialization {
            push_rule_about(
                found,
                "parameter.serialization.changed",
                OpKind::Replace,
                (&new.at, Some(key)),
                format!(
                    "{label} changed from {} to {}",
                    param.serialization, new.serialization
                ),
                next,
            );
        } else {
            bodies.extend(schema_body(
                (&param.schema, &new.schema),
                (next, true),
                label,
                new.as_text,
            ));
        }
    }
    for (key, new) in &next.params {
        if op.params.contains_key(key) {
            continue;
        }
        let label = format!(
            "{} parameter `{}` of {}",
            new.location,
            new.name,
            next.label()
        );
        if new.required {
            push_rule_about(
                found,
                "parameter.required.added",
                OpKind::Add,
                (&new.at, Some(key)),
                format!("required {label} was added"),
                next,
            );
        } else {
            push_rule_about(
                found,
                "parameter.added",
                OpKind::Add,
                (&new.at, Some(key)),
                format!("optional {label} was added"),
                next,
            );
        }
    }
}

fn request_body(op: &Operation, next: &Operation, found: &mut Found, bodies: &mut Vec<Body>) {
    let element = &next.element;
    let label = format!("the request body of {}", next.label());
    match (&op.body, &next.body) {
        (None, None) => {}
        (Some(Err((a, _))), Some(Err((b, _)))) if a == b => {}
        (_, Some(Err((_, why)))) | (Some(Err((_, why))), _) => {
            found.unknown(
                &child(&next.at, "requestBody"),
                why.clone(),
                vec![element.clone()],
            );
        }
        (Some(Ok(body)), None) => {
            push_rule(
                found,
                "request-body.removed",
                OpKind::Remove,
                &body.at,
                format!("{label} was removed"),
                next,
            );
            if body.required {
                push_rule(
                    found,
                    "request-body.required.removed",
                    OpKind::Remove,
                    &body.at,
                    format!("required {label} was removed"),
                    next,
                );
            }
        }
        (None, Some(Ok(body))) => {
            if body.required {
                push_rule(
                    found,
                    "request-body.required.added",
                    OpKind::Add,
                    &body.at,
                    format!("a required request body was added to {}", next.label()),
                    next,
                );
            } else {
                push_rule(
                    found,
                    "request-body.added",
                    OpKind::Add,
                    &body.at,
                    format!("an optional request body was added to {}", next.label()),
                    next,
                );
            }
        }
        (Some(Ok(old)), Some(Ok(new))) => {
            required_flipped(
                found,
                "request-body",
                (old.required, new.required),
                (&new.at, None, &label),
                next,
            );
            for (media, (written, schema)) in &old.content {
                let key = match kept(media, &old.content, &new.content, true) {
                    Kept::As(key) => key,
                    Kept::Removed => {
                        push_rule(
                            found,
                            "request-body.media-type.removed",
                            OpKind::Remove,
                            &child(&child(&old.at, "content"), written),
                            format!("{} no longer accepts `{written}`", next.label()),
                            next,
                        );
                        continue;
                    }
                    Kept::Covered(range) => {
                        let (now, _) = &new.content[range];
                        found.unknown(
                            &child(&child(&new.at, "content"), now),
                            format!("request body `{now}` of {} takes `{written}` too, but its schema is written for every type it takes, so it is not compared with `{written}`'s", next.label()),
                            vec![element.clone()],
                        );
                        continue;
                    }
                };
                let (now, after) = &new.content[key];
                if old.encodings.get(written) != new.encodings.get(now) {
                    found.unknown(
                        &child(&child(&child(&new.at, "content"), now), "encoding"),
                        format!("the `encoding` of request body `{now}` of {} changed; catalog-diff does not judge how the parts of a multipart or form body are written", next.label()),
                        vec![element.clone()],
                    );
                }
                bodies.extend(schema_body(
                    (schema, after),
                    (next, true),
                    format!("request body `{now}` of {}", next.label()),
                    false,
                ))
            }
            for (media, (written, _)) in &new.content {
                if old.content.contains_key(media) {
                    continue;
                }
                push_rule(
                    found,
                    "request-body.media-type.added",
                    OpKind::Add,
                    &child(&child(&new.at, "content"), written),
                    format!("{} now accepts `{written}`", next.label()),
                    next,
                );
            }
        }
    }
}

fn responses(op: &Operation, next: &Operation, found: &mut Found, bodies: &mut Vec<Body>) {
    let element = &next.element;
    // A response of the wrong shape is an unknown part where it is written, not one gone.
    let unreadable = |side: &Operation, code: &str| {
        let at = child(&child(&side.at, "responses"), code);
        side.malformed.contains_key(&at)
    };
    let removed: Vec<&String> = op
        .responses
        .keys()
        .filter(|c| !next.responses.contains_key(*c) && !unreadable(next, c))
        .collect();
    let added: Vec<&String> = next
        .responses
        .keys()
        .filter(|c| !op.responses.contains_key(*c) && !unreadable(op, c))
        .collect();
    let removed_success: Vec<&String> = removed.iter().copied().filter(|c| is_success(c)).collect();
    let added_success: Vec<&String> = added.iter().copied().filter(|c| is_success(c)).collect();
    let replaced = !removed_success.is_empty() && !added_success.is_empty();
    let at_of = |r: &Result<Response, Unresolved>, fallback: &str| match r {
        Ok(response) => response.at.clone(),
        Err(_) => fallback.to_owned(),
    };
    let responses_at = child(&next.at, "responses");
    for code in &removed {
        let old_at = at_of(
            &op.responses[*code],
            &child(&child(&op.at, "responses"), code),
        );
        if is_success(code) && replaced {
            let new_code = added_success[0];
            push_rule(
                found,
                "response.success-status.changed",
                OpKind::Replace,
                &at_of(&next.responses[new_code], &child(&responses_at, new_code)),
                format!(
                    "the success status of {} changed from `{code}` to `{new_code}`",
                    next.label()
                ),
                next,
            );
        } else if is_success(code) {
            push_rule(
                found,
                "response.removed",
                OpKind::Remove,
                &old_at,
                format!("success response `{code}` of {} was removed", next.label()),
                next,
            );
        } else {
            push_rule(
                found,
                "response.error.removed",
                OpKind::Remove,
                &old_at,
                format!("response `{code}` of {} was removed", next.label()),
                next,
            );
        }
    }
    for code in &added {
        if replaced && is_success(code) {
            continue;
        }
        let new_at = at_of(&next.responses[*code], &child(&responses_at, code));
        push_rule(
            found,
            "response.added",
            OpKind::Add,
            &new_at,
            format!("response `{code}` of {} was added", next.label()),
            next,
        );
    }
    // Pairs of responses to compare: the same status, and one success status for another.
    let mut pairs: Vec<(&String, &String)> = op
        .responses
        .keys()
        .filter(|c| next.responses.contains_key(*c))
        .map(|c| (c, c))
        .collect();
    if removed_success.len() == 1 && added_success.len() == 1 {
        pairs.push((removed_success[0], added_success[0]));
    }
    for (old_code, new_code) in pairs {
        let label = format!("response `{new_code}` of {}", next.label());
        let (old, new) = match (&op.responses[old_code], &next.responses[new_code]) {
            (Ok(old), Ok(new)) => (old, new),
            (Err((a, _)), Err((b, _))) if a == b => continue,
            (_, Err((_, why))) | (Err((_, why)), _) => {
                found.unknown(
                    &child(&responses_at, new_code),
                    why.clone(),
                    vec![element.clone()],
                );
                continue;
            }
        };
        for (media, (written, schema)) in &old.content {
            match kept(media, &old.content, &new.content, false) {
                Kept::As(key) => {
                    let (now, after) = &new.content[key];
                    bodies.extend(schema_body(
                        (schema, after),
                        (next, false),
                        format!("{label} `{now}`"),
                        false,
                    ));
                }
                // A response never takes a range in place of a type.
                Kept::Removed | Kept::Covered(_) => push_rule(
                    found,
                    "response.media-type.removed",
                    OpKind::Remove,
                    &child(&child(&old.at, "content"), written),
                    format!("{label} no longer offers `{written}`"),
                    next,
                ),
            }
        }
        for (media, (written, _)) in &new.content {
            if old.content.contains_key(media) {
                continue;
            }
            push_rule(
                found,
                "response.media-type.added",
                OpKind::Add,
                &child(&child(&new.at, "content"), written),
                format!("{label} now offers `{written}`"),
                next,
            );
        }
        headers(old, new, (next, &label), found, bodies);
    }
}

/// What became of old media type `media` in `new`.
enum Kept<'a> {
    /// Nothing in `new` takes what it said.
    Removed,
    /// This key of `new`, whose body speaks for the old one: the same type (written bare
    /// on one side), or, in a response, a type the old range covers (its sender now sends
    /// that type, and what the range promised must still hold of it).
    As(&'a str),
    /// A range a request body now takes, which covers it: its receiver still accepts the
    /// type, but the range's body is written for every type it takes, so the two bodies are
    /// not compared.
    Covered(&'a str),
}

/// What became of old media type `media` (a key of `old`) in `new`. A key the old side has
/// already stands for itself, so it speaks for nothing else of the old side.
fn kept<'a>(
    media: &str,
    old: &BTreeMap<String, Media>,
    new: &'a BTreeMap<String, Media>,
    request: bool,
) -> Kept<'a> {
    if let Some((key, _)) = new.get_key_value(media) {
        return Kept::As(key);
    }
    let added = || new.keys().filter(|key| !old.contains_key(*key));
    if let Some(key) = added().find(|key| super::same_type(media, key)) {
        return Kept::As(key);
    }
    match request {
        true => added()
            .find(|range| super::covers(range, media))
            .map_or(Kept::Removed, |range| Kept::Covered(range)),
        false => added()
            .find(|key| super::covers(media, key))
            .map_or(Kept::Removed, |key| Kept::As(key)),
    }
}

/// The headers of a pair of responses: clients read them, as they read the body.
fn headers(
    old: &Response,
    new: &Response,
    (next, label): (&Operation, &str),
    found: &mut Found,
    bodies: &mut Vec<Body>,
) {
    let element = &next.element;
    for (key, (old_at, before)) in &old.headers {
        let (at, after) = match new.headers.get(key) {
            Some((at, after)) => (at, Some(after)),
            None => (old_at, None),
        };
        let (before, after) = match (before, after) {
            (Ok(before), Some(Ok(after))) => (before, Some(after)),
            (Ok(before), None) => (before, None),
            (Err((a, _)), Some(Err((b, _)))) if a == b => continue,
            (Err((_, why)), _) | (_, Some(Err((_, why)))) => {
                found.unknown(at, why.clone(), vec![element.clone()]);
                continue;
            }
        };
        let Some(after) = after else {
            lone_header(found, before, label, ("removed", OpKind::Remove), next);
            continue;
        };
        let what = format!("header `{}` of {label}", after.name);
        required_flipped(
            found,
            "response.header",
            (before.required, after.required),
            (&after.at, None, &what),
            next,
        );
        bodies.extend(schema_body(
            (&before.schema, &after.schema),
            (next, false),
            what,
            true,
        ));
    }
    for (key, (at, after)) in &new.headers {
        if old.headers.contains_key(key) {
            continue;
        }
        let after = match after {
            Ok(after) => after,
            Err((_, why)) => {
                found.unknown(at, why.clone(), vec![element.clone()]);
                continue;
            }
        };
        lone_header(found, after, label, ("added", OpKind::Add), next);
    }
}

/// A header only one side has: `response.header[.required].<change>`.
fn lone_header(
    found: &mut Found,
    header: &Header,
    label: &str,
    (change, op): (&str, OpKind),
    call: &Operation,
) {
    let (rule, kind) = if header.required {
        ("response.header.required", "required")
    } else {
        ("response.header", "optional")
    };
    let what = format!("{kind} header `{}` of {label} was {change}", header.name);
    push_rule(
        found,
        &format!("{rule}.{change}"),
        op,
        &header.at,
        what,
        call,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_compare_by_shape() {
        assert_eq!(shape("/orders/{id}"), shape("/orders/{orderId}"));
        assert_ne!(shape("/orders/{id}"), shape("/orders/{id}/items"));
        assert_eq!(template_names("/a/{x}/b/{y}"), vec!["x", "y"]);
    }

    #[test]
    fn callbacks_that_refer_back_are_read_once() {
        // Two callbacks lead to the path item that registers them: without a guard each
        // registers both again, without end.
        let text = "openapi: 3.0.3\ninfo: {title: T, version: 1.0.0}\npaths:\n  /p:\n    post:\n      \
            callbacks:\n        a: {'{$url}': {$ref: '#/paths/~1p'}}\n        \
            b: {'{$url2}': {$ref: '#/paths/~1p'}}\n      responses: {'201': {description: ok}}\n";
        let load = |_: &str| Err("no files".to_owned());
        let parsed = super::super::document::read("o.yaml", text, &load)
            .expect("read")
            .expect("judged");
        let keys: Vec<Key> = operations(&parsed, &mut Malformed::new())
            .into_keys()
            .collect();
        assert_eq!(
            keys,
            [
                (0, "post".to_owned(), "/p".to_owned()),
                (2, "post".to_owned(), "/p post a {$url}".to_owned()),
            ]
        );
    }

    #[test]
    fn response_ranges_read_in_capitals_and_default_as_written() {
        let text = "openapi: 3.0.3\ninfo: {title: T, version: 1.0.0}\npaths:\n  /p:\n    get:\n      \
            responses:\n        2xx: {description: ok}\n        default: {description: error}\n";
        let load = |_: &str| Err("no files".to_owned());
        let parsed = super::super::document::read("o.yaml", text, &load)
            .expect("read")
            .expect("judged");
        let codes: Vec<String> = operations(&parsed, &mut Malformed::new())
            .into_values()
            .flat_map(|op| op.responses.into_keys())
            .collect();
        assert_eq!(codes, ["2XX", "default"]);
    }
}
