//! The AsyncAPI walker (2.x and 3.x): channels by key (3.x: their address), operations by key
//! (2.x: a channel's `publish` or `subscribe`; their action, channel and messages), and each
//! message's content type, schema format, payload and headers, which [`payload`] judges in the
//! role of the operations that carry the message. It says what changed and where; the rules
//! table says whether it breaks.
//!
//! A 3.x operation without `messages` carries every message of its channel; a 3.x message no
//! operation names is judged in both roles. Traits contribute a message's `contentType` and
//! `headers` when the message has none of its own.
//!
//! A part of the wrong shape (`channels`, `operations` or a channel's `messages` that is not a
//! map, an operation's `messages` that is not a list) is an unknown part naming its pointer,
//! never read as absent; what seems to change inside it is not judged.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::Value;

use super::document::{Parsed, Target, child, follow, unescape};
use super::openapi::shape;
use super::payload::{self, Body, Payload};
use super::rules::Role;
use super::{Element, Found, Malformed, Spec, object, rule, traits};
use crate::schema::verdict::OpKind;

#[derive(Debug)]
struct Channel {
    /// Its key as written (channels are paired by [`channel_pairing`]).
    name: String,
    at: String,
    /// 3.x `address` (`None`: null or absent).
    address: Option<String>,
    /// Message ids it carries (3.x: its `messages` keys; 2.x: those of its operations).
    messages: BTreeSet<String>,
    /// Why the channel cannot be read (a ref that points nowhere), with the ref text.
    unresolved: Option<(String, String)>,
    /// 3.x: where its `messages` map is (behind any ref to the channel), and whether it is
    /// of the wrong shape, so which messages it carries is unknown.
    messages_at: String,
    unread_messages: bool,
}

#[derive(Debug)]
struct Operation {
    at: String,
    /// `send`, `receive` (3.x) or `publish`, `subscribe` (2.x).
    action: String,
    /// The key of its channel (3.x; for 2.x the channel it sits in).
    channel: String,
    messages: BTreeSet<String>,
    /// The key of its reply's channel and the message ids of the reply (3.x
    /// `reply.messages`; all of the reply channel's without a list), judged as its own
    /// messages are.
    reply_channel: String,
    replies: BTreeSet<String>,
    /// Its messages, and its reply's, when no list names them and the channel's `messages`
    /// cannot be read (not a map): what it carries is unknown, never "none".
    unread: [bool; 2],
}

#[derive(Debug, Default)]
struct Message {
    id: String,
    at: String,
    content_type: Option<(String, String)>,
    schema_format: Option<String>,
    payload: Option<String>,
    headers: Option<(String, Option<String>)>,
    role: Option<Role>,
    unresolved: Option<(String, String)>,
}

#[derive(Debug, Default)]
struct Model {
    v3: bool,
    channels: BTreeMap<String, Channel>,
    operations: BTreeMap<String, Operation>,
    /// Each use of a message: 3.x by (channel, key), 2.x by (operation, id).
    messages: BTreeMap<(String, String), Message>,
    /// Parts of the wrong shape (`channels`, `operations` or a channel's `messages` that is
    /// not a map, a channel, operation or message that is not), by pointer, with why: AsyncAPI
    /// does not say what they mean, so they are unknown parts, never read as absent.
    malformed: Malformed,
    /// 3.x messages of a channel that are of the wrong shape, by channel key and message key:
    /// whether an operation on that channel carries one is not judged.
    unread_messages: BTreeSet<(String, String)>,
}

/// The key of the channel a 3.x ref names (`#/channels/orders` -> `orders`); another target
/// (a components channel, a bundled file) is named by the ref itself.
fn channel_key(reference: &str) -> String {
    let fragment = reference.strip_prefix('#').unwrap_or(reference);
    match fragment.strip_prefix("/channels/") {
        Some(rest) => unescape(rest.split('/').next().unwrap_or(rest)),
        None => reference.to_owned(),
    }
}

/// `(channel key, message key)` of a 3.x operation's message ref
/// (`#/channels/orders/messages/OrderCreated`).
fn message_ref(reference: &str) -> Option<(String, String)> {
    let fragment = reference.strip_prefix('#')?;
    let rest = fragment.strip_prefix("/channels/")?;
    let mut parts = rest.split('/');
    let channel = parts.next()?;
    if parts.next()? != "messages" {
        return None;
    }
    Some((unescape(channel), unescape(parts.next()?)))
}

/// The last segment of a ref's pointer (`#/components/messages/A` -> `A`).
fn last_segment(reference: &str) -> String {
    unescape(reference.rsplit('/').next().unwrap_or(reference))
}

/// The role the messages of `operation` (or of its reply) get: `role`, unless its `messages`
/// is of the wrong shape, when which of its channel's messages it carries cannot be read and
/// they are judged from both sides (the unknown part says so when the list changes).
fn role_of(operation: &Value, role: Role) -> Role {
    match operation.get("messages") {
        Some(list) if !list.is_array() => Role::Both,
        _ => role,
    }
}

fn str_at<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str)
}

/// The members of the map at `at` (`value`); a part that is there but not a map is recorded
/// in `malformed` and has none.
fn object_entries<'v>(
    value: Option<&'v Value>,
    at: &str,
    what: &str,
    malformed: &mut Malformed,
) -> Vec<(&'v String, &'v Value)> {
    match value {
        Some(Value::Object(map)) => map.iter().collect(),
        None => Vec::new(),
        Some(_) => {
            super::wrong_shape(malformed, at, (what, "a map"), Spec::AsyncApi);
            Vec::new()
        }
    }
}

impl Model {
    /// `pairing` gives the key a channel is paired by, where it is not its key as written.
    fn read(parsed: &Parsed, pairing: &BTreeMap<&str, String>) -> Model {
        let root = &parsed.root;
        let v3 = parsed.kind == super::Kind::AsyncApi3;
        let default_type = str_at(root, "defaultContentType")
            .map(|t| (t.to_owned(), "/defaultContentType".to_owned()));
        let mut model = Model {
            v3,
            ..Model::default()
        };
        // Servers are compared whole (`unjudged`); one of the wrong shape is still unknown.
        let servers = root.get("servers");
        for (name, node) in object_entries(servers, "/servers", "`servers`", &mut model.malformed) {
            let what = || format!("server `{name}`");
            object(
                parsed,
                (node, &child("/servers", name)),
                what,
                &mut model.malformed,
            );
        }
        let channels = root.get("channels");
        let listed = object_entries(channels, "/channels", "`channels`", &mut model.malformed);
        for (key, node) in listed {
            let pair = pairing.get(key.as_str()).unwrap_or(key);
            let at = child("/channels", key);
            let what = || format!("channel `{key}`");
            let Some(channel) = object(parsed, (node, &at), what, &mut model.malformed) else {
                continue;
            };
            let (channel, target) = match channel {
                Target::Found(value, resolved) => (value, resolved),
                Target::Unresolved(reference, why) => {
                    model.channels.insert(
                        pair.clone(),
                        Channel {
                            name: key.clone(),
                            at,
                            address: None,
                            messages: BTreeSet::new(),
                            unresolved: Some((reference, why)),
                            messages_at: String::new(),
                            unread_messages: false,
                        },
                    );
                    continue;
                }
            };
            let mut entry = Channel {
                name: key.clone(),
                at: at.clone(),
                address: str_at(channel, "address").map(str::to_owned),
                messages: BTreeSet::new(),
                unresolved: None,
                messages_at: child(&target, "messages"),
                unread_messages: false,
            };
            if v3 {
                let messages_at = entry.messages_at.clone();
                let what = format!("the `messages` of channel `{key}`");
                let listed = channel.get("messages");
                entry.unread_messages = listed.is_some_and(|m| !m.is_object());
                for (name, message) in
                    object_entries(listed, &messages_at, &what, &mut model.malformed)
                {
                    let message_at = child(&messages_at, name);
                    let what = || format!("message `{name}` of channel `{key}`");
                    if object(parsed, (message, &message_at), what, &mut model.malformed).is_none()
                    {
                        model.unread_messages.insert((key.clone(), name.clone()));
                        continue;
                    }
                    let read =
                        read_message(parsed, message, &message_at, name, &default_type, true);
                    entry.messages.insert(name.clone());
                    model.messages.insert((key.clone(), name.clone()), read);
                }
            } else {
                for action in ["publish", "subscribe"] {
                    let Some(operation) = channel.get(action) else {
                        continue;
                    };
                    // Keyed by the channel's pairing, shown where the channel is named, read
                    // where it is.
                    let op_key = child(&child("/channels", pair), action);
                    let op_at = child(&target, action);
                    let what = || format!("the `{action}` operation of channel `{key}`");
                    let operation =
                        match object(parsed, (operation, &op_at), what, &mut model.malformed) {
                            None => continue,
                            Some(Target::Found(value, _)) => value,
                            Some(Target::Unresolved(..)) => operation,
                        };
                    let role = if action == "publish" {
                        Role::Input
                    } else {
                        Role::Output
                    };
                    let mut ids = BTreeSet::new();
                    for (index, (node, node_at)) in
                        v2_messages(operation, &op_at).into_iter().enumerate()
                    {
                        let what = || {
                            format!("the message of the `{action}` operation of channel `{key}`")
                        };
                        if object(parsed, (node, &node_at), what, &mut model.malformed).is_none() {
                            continue;
                        }
                        let fallback = match node.get("$ref").and_then(Value::as_str) {
                            Some(reference) if reference.contains("/components/messages/") => {
                                last_segment(reference)
                            }
                            _ => format!("{pair}/{action}/message/{index}"),
                        };
                        let mut message =
                            read_message(parsed, node, &node_at, &fallback, &default_type, false);
                        message.role = Some(role);
                        ids.insert(message.id.clone());
                        entry.messages.insert(message.id.clone());
                        model
                            .messages
                            .insert((op_key.clone(), message.id.clone()), message);
                    }
                    model.operations.insert(
                        op_key.clone(),
                        Operation {
                            at: child(&at, action),
                            action: action.to_owned(),
                            channel: pair.clone(),
                            messages: ids,
                            reply_channel: String::new(),
                            replies: BTreeSet::new(),
                            unread: [false; 2],
                        },
                    );
                }
            }
            model.channels.insert(pair.clone(), entry);
        }
        if v3 {
            model.read_operations(parsed);
        }
        model
    }

    /// 3.x operations, and the roles they give the messages they carry.
    fn read_operations(&mut self, parsed: &Parsed) {
        let operations = parsed.root.get("operations");
        let listed = object_entries(
            operations,
            "/operations",
            "`operations`",
            &mut self.malformed,
        );
        for (key, node) in listed {
            let at = child("/operations", key);
            let what = || format!("operation `{key}`");
            let (operation, resolved) = match object(parsed, (node, &at), what, &mut self.malformed)
            {
                None => continue,
                Some(Target::Found(value, resolved)) => (value, resolved),
                Some(Target::Unresolved(..)) => (node, at.clone()),
            };
            let action = str_at(operation, "action").unwrap_or_default().to_owned();
            let role = match action.as_str() {
                "receive" => Role::Input,
                "send" => Role::Output,
                _ => Role::Both,
            };
            let channel = operation
                .get("channel")
                .and_then(|c| c.get("$ref"))
                .and_then(Value::as_str)
                .map(channel_key)
                .unwrap_or_default();
            let what = format!("operation `{key}`");
            let messages = self.carried((operation, &resolved), &channel, &what);
            let mut unread = [
                self.unread_list(operation, &resolved, &channel, &what),
                false,
            ];
            self.give_role(&messages, role_of(operation, role));
            // A reply travels the other way.
            let (mut reply_channel, mut replies) = (String::new(), BTreeSet::new());
            let reply = operation.get("reply").and_then(|reply| {
                let reply_at = child(&resolved, "reply");
                let what = || format!("the reply of {what}");
                match object(parsed, (reply, &reply_at), what, &mut self.malformed)? {
                    Target::Found(reply, reply_at) => Some((reply, reply_at)),
                    Target::Unresolved(..) => Some((reply, reply_at)),
                }
            });
            if let Some((reply, reply_at)) = reply {
                reply_channel = reply
                    .get("channel")
                    .and_then(|c| c.get("$ref"))
                    .and_then(Value::as_str)
                    .map(channel_key)
                    .unwrap_or_else(|| channel.clone());
                let what = format!("the reply of {what}");
                replies = self.carried((reply, &reply_at), &reply_channel, &what);
                unread[1] = self.unread_list(reply, &reply_at, &reply_channel, &what);
                let opposite = match role {
                    Role::Input => Role::Output,
                    Role::Output => Role::Input,
                    Role::Both => Role::Both,
                };
                self.give_role(&replies, role_of(reply, opposite));
            }
            self.operations.insert(
                key.clone(),
                Operation {
                    at,
                    action,
                    channel,
                    messages: messages.into_iter().map(|(_, id)| id).collect(),
                    reply_channel,
                    replies: replies.into_iter().map(|(_, id)| id).collect(),
                    unread,
                },
            );
        }
    }

    /// The (channel, message) pairs the 3.x `messages` list of `node` (at `at`, operation or
    /// reply `what`) names; all of the channel's when there is no list (or one of the wrong
    /// shape, whose messages [`role_of`] judges from both sides). An entry that is no
    /// reference is recorded in `malformed`.
    fn carried(
        &mut self,
        (node, at): (&Value, &str),
        channel: &str,
        what: &str,
    ) -> BTreeSet<(String, String)> {
        match node.get("messages") {
            Some(Value::Array(refs)) => {
                let mut carried = BTreeSet::new();
                for (index, entry) in refs.iter().enumerate() {
                    let Some(reference) = entry.get("$ref").and_then(Value::as_str) else {
                        let entry_at = child(&child(at, "messages"), &index.to_string());
                        let what = format!("entry {index} of the `messages` of {what}");
                        let shape = (what.as_str(), "a reference to a message");
                        super::wrong_shape(&mut self.malformed, &entry_at, shape, Spec::AsyncApi);
                        continue;
                    };
                    carried.insert(
                        message_ref(reference)
                            .unwrap_or_else(|| (channel.to_owned(), last_segment(reference))),
                    );
                }
                carried
            }
            _ => self
                .channels
                .get(channel)
                .map(|c| {
                    c.messages
                        .iter()
                        .map(|id| (channel.to_owned(), id.clone()))
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    /// Whether which messages an operation (or its reply, `node` at `at`) carries cannot be
    /// read: its `messages` is no list (recorded in `malformed`), or it has none and the
    /// `messages` of its channel, or `channels` itself, are of the wrong shape.
    fn unread_list(&mut self, node: &Value, at: &str, channel: &str, what: &str) -> bool {
        match node.get("messages") {
            Some(Value::Array(_)) => false,
            Some(_) => {
                self.malformed.insert(
                    child(at, "messages"),
                    format!(
                        "the `messages` of {what} is not a list, as AsyncAPI requires, so it cannot be judged"
                    ),
                );
                true
            }
            None => {
                self.malformed.contains_key("/channels")
                    || self
                        .channels
                        .get(channel)
                        .is_some_and(|c| c.unread_messages)
            }
        }
    }

    fn give_role(&mut self, messages: &BTreeSet<(String, String)>, role: Role) {
        for key in messages {
            if let Some(message) = self.messages.get_mut(key) {
                message.role = Some(message.role.map_or(role, |r| r.and(role)));
            }
        }
    }

    /// Where its payloads and 3.x headers in the OpenAPI 3.0 schema format are.
    fn openapi30_schemas(&self) -> impl Iterator<Item = &String> {
        let payloads = self.messages.values().filter_map(|m| {
            let format = m.schema_format.as_deref()?;
            m.payload.as_ref().filter(|_| payload::is_openapi30(format))
        });
        let headers = self.messages.values().filter_map(|m| match &m.headers {
            Some((at, Some(format))) if payload::is_openapi30(format) => Some(at),
            _ => None,
        });
        payloads.chain(headers)
    }

    /// Whether some 3.x operation names this channel message, as its own or in its reply.
    fn names(&self, channel: &str, id: &str) -> bool {
        self.operations.values().any(|op| {
            (op.channel == channel && op.messages.contains(id))
                || (op.reply_channel == channel && op.replies.contains(id))
        })
    }
}

/// A 2.x operation's messages: one, or the branches of a `oneOf`.
fn v2_messages<'a>(operation: &'a Value, at: &str) -> Vec<(&'a Value, String)> {
    let Some(message) = operation.get("message") else {
        return Vec::new();
    };
    let at = child(at, "message");
    match message.get("oneOf") {
        Some(Value::Array(branches)) => branches
            .iter()
            .enumerate()
            .map(|(i, branch)| (branch, child(&child(&at, "oneOf"), &i.to_string())))
            .collect(),
        _ => vec![(message, at)],
    }
}

/// One message: where it really is, its id, content type, schema format, payload and headers.
fn read_message(
    parsed: &Parsed,
    node: &Value,
    at: &str,
    key: &str,
    default_type: &Option<(String, String)>,
    v3: bool,
) -> Message {
    let (message, target) = match follow(parsed, node, at) {
        Target::Found(value, resolved) => (value, resolved),
        Target::Unresolved(reference, why) => {
            return Message {
                id: key.to_owned(),
                at: at.to_owned(),
                unresolved: Some((reference, why)),
                ..Message::default()
            };
        }
    };
    let own_or_trait = |key: &str| traits::member(parsed, (message, &target), key);
    let text = |key: &str| own_or_trait(key).and_then(|(v, _)| v.as_str());
    let id = if v3 {
        key.to_owned()
    } else {
        text("messageId")
            .or_else(|| {
                node.get("$ref")
                    .and_then(Value::as_str)
                    .filter(|r| r.contains("/components/messages/"))
                    .map(|_| key)
            })
            .or_else(|| text("name"))
            .unwrap_or(key)
            .to_owned()
    };
    let content_type = own_or_trait("contentType")
        .and_then(|(v, at)| v.as_str().map(|t| (t.to_owned(), at)))
        .or_else(|| default_type.clone());
    let mut schema_format = if v3 {
        None
    } else {
        own_or_trait("schemaFormat").and_then(|(v, _)| v.as_str().map(str::to_owned))
    };
    let mut payload = message.get("payload").map(|_| child(&target, "payload"));
    if v3 && let Some(payload_at) = &payload {
        // A multi-format schema object: `{schemaFormat, schema}`.
        let node = &message["payload"];
        if let Target::Found(value, resolved) = follow(parsed, node, payload_at)
            && value.get("schema").is_some()
            && let Some(format) = str_at(value, "schemaFormat")
        {
            schema_format = Some(format.to_owned());
            payload = Some(child(&resolved, "schema"));
        }
    }
    let headers = own_or_trait("headers").map(|(node, headers_at)| {
        if v3
            && let Target::Found(value, resolved) = follow(parsed, node, &headers_at)
            && value.get("schema").is_some()
            && let Some(format) = str_at(value, "schemaFormat")
        {
            return (child(&resolved, "schema"), Some(format.to_owned()));
        }
        (headers_at, None)
    });
    Message {
        id,
        at: target,
        content_type,
        schema_format,
        payload,
        headers,
        role: None,
        unresolved: None,
    }
}

/// The key each channel of the old document (`old`) is paired by with the new one's, whose
/// channels keep their keys as written. A 2.x key is the channel's address, so it pairs by
/// shape (`orders/{orderId}` is `orders/{id}`), as 3.x addresses and OpenAPI paths do, when
/// one channel of each document has that shape, and takes the new key as written; otherwise,
/// and for a 3.x key (a name), it pairs as written. Both documents are looked at together, so
/// whether a channel is paired by shape does not depend on its own document alone.
pub(super) fn channel_pairing<'k>(
    v3: bool,
    old: &[&'k str],
    new: &[&str],
) -> BTreeMap<&'k str, String> {
    /// Each shape with the one key of `keys` that has it, or `None` when several do. Built
    /// once per side: looking each key's shape up in the other keys made a document of
    /// thousands of channels take minutes.
    fn only<'a>(keys: &[&'a str]) -> HashMap<String, Option<&'a str>> {
        let mut by_shape = HashMap::new();
        for &key in keys {
            by_shape
                .entry(shape(key))
                .and_modify(|one: &mut Option<&str>| *one = None)
                .or_insert(Some(key));
        }
        by_shape
    }
    let (old_shapes, new_shapes) = (only(old), only(new));
    old.iter()
        .map(|&key| {
            let by_shape = shape(key);
            let pair = match (old_shapes.get(&by_shape), new_shapes.get(&by_shape)) {
                (Some(Some(_)), Some(Some(written))) if !v3 => *written,
                _ => key,
            };
            (key, pair.to_owned())
        })
        .collect()
}

/// The keys of a document's `channels`, as written, read as the unjudged parts read them.
fn channel_keys(parsed: &Parsed) -> Vec<&str> {
    let channels = super::document::members(parsed, &parsed.root, "", "channels");
    channels.into_iter().map(|(key, ..)| key).collect()
}

fn ids(set: &BTreeSet<String>) -> Vec<Element> {
    set.iter().cloned().map(Element::Message).collect()
}

fn describe_operation(model: &Model, key: &str, op: &Operation) -> String {
    if model.v3 {
        format!("operation `{key}` ({} on `{}`)", op.action, op.channel)
    } else {
        let channel = model.channels.get(&op.channel);
        let name = channel.map_or(op.channel.as_str(), |c| c.name.as_str());
        format!("`{}` on channel `{name}`", op.action)
    }
}

/// Compare two AsyncAPI documents: structure here, bodies through [`payload`].
pub(super) fn compare(
    before: &mut Parsed,
    after: &mut Parsed,
    file: &str,
    options: &crate::schema::Options,
) -> Result<Found, crate::schema::Error> {
    let v3 = after.kind == super::Kind::AsyncApi3;
    let pairing = channel_pairing(v3, &channel_keys(before), &channel_keys(after));
    let old = Model::read(before, &pairing);
    let new = Model::read(after, &BTreeMap::new());
    payload::read_as_openapi30(before, old.openapi30_schemas());
    payload::read_as_openapi30(after, new.openapi30_schemas());
    let mut found = Found::default();
    let spec = Spec::AsyncApi;
    let push = |found: &mut Found, id: &str, op: OpKind, path: &str, what: String, elements| {
        found.push(rule(spec, id), op, path, what, elements);
    };
    let covered = malformed((before, &old), (after, &new), &mut found);

    // Channels.
    for (key, channel) in &old.channels {
        let Some(next) = new.channels.get(key) else {
            push(
                &mut found,
                "channel.removed",
                OpKind::Remove,
                &channel.at,
                format!("channel `{}` was removed", channel.name),
                ids(&channel.messages),
            );
            continue;
        };
        match (&channel.unresolved, &next.unresolved) {
            (None, None) => {}
            (Some((a, _)), Some((b, _))) if a == b => continue,
            (_, Some((_, why))) | (Some((_, why)), None) => {
                found.unknown(&next.at, why.clone(), ids(&channel.messages));
                continue;
            }
        }
        if old.v3 && new.v3 {
            let (a, b) = (channel.address.as_deref(), next.address.as_deref());
            if a.map(shape) != b.map(shape) {
                push(
                    &mut found,
                    "channel.address.changed",
                    OpKind::Replace,
                    &child(&next.at, "address"),
                    format!(
                        "channel `{key}` moved from address {} to {}",
                        a.map_or("(none)".to_owned(), |a| format!("`{a}`")),
                        b.map_or("(none)".to_owned(), |b| format!("`{b}`"))
                    ),
                    ids(&channel.messages.union(&next.messages).cloned().collect()),
                );
            }
            for id in channel.messages.difference(&next.messages) {
                if !old.names(key, id) {
                    push(
                        &mut found,
                        "channel.message.removed",
                        OpKind::Remove,
                        &child(&child(&channel.at, "messages"), id),
                        format!("message `{id}` was removed from channel `{key}`"),
                        vec![Element::Message(id.clone())],
                    );
                }
            }
            for id in next.messages.difference(&channel.messages) {
                if !new.names(key, id) {
                    push(
                        &mut found,
                        "channel.message.added",
                        OpKind::Add,
                        &child(&child(&next.at, "messages"), id),
                        format!("message `{id}` was added to channel `{key}`"),
                        vec![Element::Message(id.clone())],
                    );
                }
            }
        }
    }
    for (key, channel) in &new.channels {
        if !old.channels.contains_key(key) {
            push(
                &mut found,
                "channel.added",
                OpKind::Add,
                &channel.at,
                format!("channel `{}` was added", channel.name),
                ids(&channel.messages),
            );
        }
    }

    // Operations (2.x ones go with their channel when it comes or goes).
    let channel_gone = |model: &Model, other: &Model, op: &Operation| {
        !model.v3 && !other.channels.contains_key(&op.channel)
    };
    for (key, op) in &old.operations {
        let Some(next) = new.operations.get(key) else {
            if !channel_gone(&old, &new, op) {
                push(
                    &mut found,
                    "operation.removed",
                    OpKind::Remove,
                    &op.at,
                    format!("{} was removed", describe_operation(&old, key, op)),
                    ids(&op.messages),
                );
            }
            continue;
        };
        if op.action != next.action {
            push(
                &mut found,
                "operation.action.changed",
                OpKind::Replace,
                &child(&next.at, "action"),
                format!(
                    "operation `{key}` changed from `{}` to `{}`",
                    op.action, next.action
                ),
                ids(&op.messages.union(&next.messages).cloned().collect()),
            );
        }
        if op.channel != next.channel {
            push(
                &mut found,
                "operation.channel.changed",
                OpKind::Replace,
                &child(&next.at, "channel"),
                format!(
                    "operation `{key}` moved from channel `{}` to `{}`",
                    op.channel, next.channel
                ),
                ids(&op.messages.union(&next.messages).cloned().collect()),
            );
        }
        let messages_at = if new.v3 {
            child(&next.at, "messages")
        } else {
            child(&next.at, "message")
        };
        let described = describe_operation(&new, key, next);
        // A reply's messages go the other way, but losing one breaks whoever waits for it
        // just as losing one of the operation's own does.
        let lists = [
            (&op.messages, &next.messages, messages_at, described.clone()),
            (
                &op.replies,
                &next.replies,
                child(&child(&next.at, "reply"), "messages"),
                format!("the reply of {described}"),
            ),
        ];
        for (list, (was, is, at, of)) in lists.iter().enumerate() {
            // Taken from a channel's `messages` that cannot be read: its unknown part says so.
            if op.unread[list] || next.unread[list] {
                continue;
            }
            // A message of the wrong shape on either side, in the channel the list takes its
            // messages from, has its own unknown part.
            let channels = match list {
                0 => [&op.channel, &next.channel],
                _ => [&op.reply_channel, &next.reply_channel],
            };
            let judged = |id: &&String| {
                [(&old, channels[0]), (&new, channels[1])]
                    .iter()
                    .all(|(model, channel)| {
                        !model
                            .unread_messages
                            .contains(&((*channel).clone(), (*id).clone()))
                    })
            };
            // The list's path does not say which message: the id does.
            for id in was.difference(is).filter(judged) {
                found.push_about(
                    rule(spec, "operation.message.removed"),
                    OpKind::Remove,
                    (at, Some(id.clone())),
                    format!("message `{id}` was removed from {of}"),
                    vec![Element::Message(id.clone())],
                );
            }
            for id in is.difference(was).filter(judged) {
                found.push_about(
                    rule(spec, "operation.message.added"),
                    OpKind::Add,
                    (at, Some(id.clone())),
                    format!("message `{id}` was added to {of}"),
                    vec![Element::Message(id.clone())],
                );
            }
        }
    }
    for (key, op) in &new.operations {
        if !old.operations.contains_key(key) && !channel_gone(&new, &old, op) {
            push(
                &mut found,
                "operation.added",
                OpKind::Add,
                &op.at,
                format!("{} was added", describe_operation(&new, key, op)),
                ids(&op.messages),
            );
        }
    }

    // Messages carried on both sides: their encoding, then their schemas.
    let mut bodies = Vec::new();
    for (use_key, message) in &old.messages {
        let Some(next) = new.messages.get(use_key) else {
            continue;
        };
        let elements = vec![Element::Message(next.id.clone())];
        match (&message.unresolved, &next.unresolved) {
            (None, None) => {}
            (Some((a, _)), Some((b, _))) if a == b => continue,
            (_, Some((_, why))) | (Some((_, why)), None) => {
                found.unknown(&next.at, why.clone(), elements);
                continue;
            }
        }
        let type_of = |m: &Message| m.content_type.as_ref().map(|(t, _)| super::media_type(t));
        let same = match (type_of(message), type_of(next)) {
            (Some(a), Some(b)) => a == b || super::same_type(&a, &b),
            (a, b) => a == b,
        };
        if !same {
            let path = next
                .content_type
                .as_ref()
                .map(|(_, at)| at.clone())
                .unwrap_or_else(|| child(&next.at, "contentType"));
            push(
                &mut found,
                "message.content-type.changed",
                OpKind::Replace,
                &path,
                format!(
                    "message `{}` content type changed from {} to {}",
                    next.id,
                    quoted(message.content_type.as_ref().map(|(t, _)| t.as_str())),
                    quoted(next.content_type.as_ref().map(|(t, _)| t.as_str()))
                ),
                elements.clone(),
            );
        }
        let role = next
            .role
            .map_or(Role::Both, |r| message.role.map_or(r, |o| o.and(r)));
        let family = |m: &Message| payload::format_family(m.schema_format.as_deref());
        if family(message) != family(next) {
            push(
                &mut found,
                "message.schema-format.changed",
                OpKind::Replace,
                &next
                    .payload
                    .clone()
                    .unwrap_or_else(|| child(&next.at, "payload")),
                format!(
                    "message `{}` payload format changed from {} to {}",
                    next.id,
                    quoted(message.schema_format.as_deref()),
                    quoted(next.schema_format.as_deref())
                ),
                elements.clone(),
            );
        } else if message.payload.is_some() || next.payload.is_some() {
            bodies.push(Body {
                before: message.payload.clone(),
                after: next.payload.clone(),
                role,
                elements: elements.clone(),
                what: format!("payload of message `{}`", next.id),
                payload: body_format(
                    next.schema_format.as_deref(),
                    &message.payload,
                    &next.payload,
                ),
                as_text: false,
                request: None,
            });
        }
        let (old_headers, new_headers) = (&message.headers, &next.headers);
        if old_headers.is_some() || new_headers.is_some() {
            let format_of =
                |h: &Option<(String, Option<String>)>| h.as_ref().and_then(|(_, f)| f.clone());
            let (before_at, after_at) = (
                old_headers.as_ref().map(|(at, _)| at.clone()),
                new_headers.as_ref().map(|(at, _)| at.clone()),
            );
            if payload::format_family(format_of(old_headers).as_deref())
                != payload::format_family(format_of(new_headers).as_deref())
            {
                push(
                    &mut found,
                    "message.schema-format.changed",
                    OpKind::Replace,
                    after_at.as_deref().unwrap_or(&next.at),
                    format!("message `{}` headers format changed", next.id),
                    elements.clone(),
                );
            } else {
                bodies.push(Body {
                    payload: body_format(format_of(new_headers).as_deref(), &before_at, &after_at),
                    before: before_at,
                    after: after_at,
                    role,
                    elements,
                    what: format!("headers of message `{}`", next.id),
                    as_text: false,
                    request: None,
                });
            }
        }
    }
    payload::compare_bodies(before, after, &bodies, file, options, &mut found)?;
    // What a part of the wrong shape holds was not read, so what seems to change in it is
    // covered by its unknown part, not judged.
    for at in &covered {
        found.drop_within(at);
    }
    Ok(found)
}

/// An unknown part for each part of the wrong shape, unless the other side has the very same
/// part at the same place (nothing changed in it). Returns the places of those parts.
fn malformed(
    (before, old): (&Parsed, &Model),
    (after, new): (&Parsed, &Model),
    found: &mut Found,
) -> Vec<String> {
    // The messages a part may hold, as the side that could read it knows them.
    let elements = |at: &str| {
        let mut elements = BTreeSet::new();
        for model in [old, new] {
            match at {
                "/channels" => {
                    elements.extend(model.channels.values().flat_map(|c| c.messages.iter()));
                }
                "/operations" => elements.extend(
                    (model.operations.values()).flat_map(|op| op.messages.union(&op.replies)),
                ),
                _ => {
                    elements.extend(
                        (model.channels.values())
                            .filter(|c| c.messages_at == at || c.at == at)
                            .flat_map(|c| c.messages.iter()),
                    );
                    elements.extend(
                        (model.operations.values())
                            .filter(|op| op.at == at)
                            .flat_map(|op| op.messages.union(&op.replies)),
                    );
                }
            }
        }
        ids(&elements.into_iter().cloned().collect())
    };
    super::malformed_parts(
        (before, &old.malformed),
        (after, &new.malformed),
        found,
        |_, why| why.to_owned(),
        elements,
    )
}

/// The format a body is judged in; a side without a schema accepts anything, which only JSON
/// Schema can say.
fn body_format(declared: Option<&str>, before: &Option<String>, after: &Option<String>) -> Payload {
    match payload::schema_format(declared) {
        Payload::Format(format)
            if format != crate::schema::Format::JsonSchema
                && (before.is_none() || after.is_none()) =>
        {
            Payload::Unsupported(format!(
                "the {format} schema is absent on one side, so the two cannot be compared"
            ))
        }
        other => other,
    }
}

fn quoted(text: Option<&str>) -> String {
    text.map_or("(none)".to_owned(), |t| format!("`{t}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_ignore_parameter_names() {
        assert_eq!(shape("users/{userId}/signup"), shape("users/{id}/signup"));
        assert_ne!(shape("users/{id}"), shape("users/{id}/x"));
    }

    #[test]
    fn channels_pair_by_a_shape_one_of_each_side_has() {
        let alike = ["orders/{orderId}", "orders/{id}"];
        let pairs = channel_pairing(false, &alike, &["orders/{id}"]);
        assert_eq!(pairs["orders/{orderId}"], "orders/{orderId}");
        assert_eq!(pairs["orders/{id}"], "orders/{id}");
        // Paired by shape, keyed as the new side writes it: no placeholder shown.
        let pairs = channel_pairing(false, &["orders/{orderId}"], &["orders/{id}"]);
        assert_eq!(pairs["orders/{orderId}"], "orders/{id}");
        let pairs = channel_pairing(false, &["orders/{orderId}"], &alike);
        assert_eq!(pairs["orders/{orderId}"], "orders/{orderId}");
        let pairs = channel_pairing(true, &["orders/{orderId}"], &["orders/{id}"]);
        assert_eq!(pairs["orders/{orderId}"], "orders/{orderId}");
    }

    #[test]
    fn refs_name_channels_and_messages() {
        assert_eq!(channel_key("#/channels/order~1created"), "order/created");
        assert_eq!(
            message_ref("#/channels/orders/messages/OrderCreated"),
            Some(("orders".into(), "OrderCreated".into()))
        );
        assert_eq!(message_ref("#/components/messages/A"), None);
    }
}
