//! The Protobuf walker: pairs the elements of two compiled sides the way `buf breaking` does
//! (files by name, the document with the document; messages, enums and services by full name;
//! fields and enum values by number; RPCs by name) and reports each difference as a
//! [`ChangeKind`] with a path (`/acme.orders.v1.OrderPlaced/fields/3`) and words naming the
//! element. It decides nothing about breaking-ness: the rules tables do.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::RangeInclusive;

use prost_reflect::{
    Cardinality, EnumDescriptor, ExtensionDescriptor, FieldDescriptor, FileDescriptor, Kind,
    MessageDescriptor, ServiceDescriptor, Syntax, Value,
};

use super::Compiled;
use super::rules::ChangeKind;
use crate::schema::verdict::OpKind;

/// One difference, unjudged.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub kind: ChangeKind,
    pub op: OpKind,
    pub path: String,
    pub what: String,
    /// What changed, where the path (the element) does not say: a reserved name or range.
    pub subject: Option<String>,
}

/// Every difference between two compiled sides.
pub fn compare(old: &Compiled, new: &Compiled) -> Vec<Found> {
    let mut walk = Walk::default();
    walk.files(old, new);
    let (old_messages, new_messages) = (messages(old), messages(new));
    for (name, before) in &old_messages {
        match new_messages.get(name) {
            Some(after) => walk.message(before, after),
            None if !before.is_map_entry() => walk.push(
                ChangeKind::MessageRemoved,
                OpKind::Remove,
                format!("/{name}"),
                format!("message `{name}` was removed"),
            ),
            None => {}
        }
    }
    for (name, after) in &new_messages {
        if !old_messages.contains_key(name) && !after.is_map_entry() {
            walk.push(
                ChangeKind::MessageAdded,
                OpKind::Add,
                format!("/{name}"),
                format!("message `{name}` was added"),
            );
        }
    }
    let (old_enums, new_enums) = (enums(old), enums(new));
    for (name, before) in &old_enums {
        match new_enums.get(name) {
            Some(after) => walk.enumeration(before, after),
            None => walk.push(
                ChangeKind::EnumRemoved,
                OpKind::Remove,
                format!("/{name}"),
                format!("enum `{name}` was removed"),
            ),
        }
    }
    for name in new_enums.keys().filter(|n| !old_enums.contains_key(*n)) {
        walk.push(
            ChangeKind::EnumAdded,
            OpKind::Add,
            format!("/{name}"),
            format!("enum `{name}` was added"),
        );
    }
    let (old_extensions, new_extensions) = (extensions(old), extensions(new));
    for (key, before) in &old_extensions {
        if let Some(after) = new_extensions.get(key) {
            walk.extension(before, after);
        }
    }
    let (old_services, new_services) = (services(old), services(new));
    for (name, before) in &old_services {
        match new_services.get(name) {
            Some(after) => walk.service(before, after),
            None => walk.push(
                ChangeKind::ServiceRemoved,
                OpKind::Remove,
                format!("/{name}"),
                format!("service `{name}` was removed"),
            ),
        }
    }
    for name in new_services
        .keys()
        .filter(|n| !old_services.contains_key(*n))
    {
        walk.push(
            ChangeKind::ServiceAdded,
            OpKind::Add,
            format!("/{name}"),
            format!("service `{name}` was added"),
        );
    }
    walk.found
}

/// The side's own files (not the built-in well-known types), by compiler name.
fn own_files(side: &Compiled) -> Vec<FileDescriptor> {
    side.pool
        .files()
        .filter(|file| side.own.contains(file.name()))
        .collect()
}

fn messages(side: &Compiled) -> BTreeMap<String, MessageDescriptor> {
    fn collect(message: MessageDescriptor, out: &mut BTreeMap<String, MessageDescriptor>) {
        for child in message.child_messages() {
            collect(child, out);
        }
        out.insert(message.full_name().to_owned(), message);
    }
    let mut out = BTreeMap::new();
    for file in own_files(side) {
        for message in file.messages() {
            collect(message, &mut out);
        }
    }
    out
}

fn enums(side: &Compiled) -> BTreeMap<String, EnumDescriptor> {
    fn collect(message: MessageDescriptor, out: &mut BTreeMap<String, EnumDescriptor>) {
        for child in message.child_enums() {
            out.insert(child.full_name().to_owned(), child);
        }
        for child in message.child_messages() {
            collect(child, out);
        }
    }
    let mut out = BTreeMap::new();
    for file in own_files(side) {
        for enumeration in file.enums() {
            out.insert(enumeration.full_name().to_owned(), enumeration);
        }
        for message in file.messages() {
            collect(message, &mut out);
        }
    }
    out
}

/// Extensions by the message they extend and their number (how buf pairs them).
fn extensions(side: &Compiled) -> BTreeMap<(String, u32), ExtensionDescriptor> {
    side.pool
        .all_extensions()
        .filter(|extension| side.own.contains(extension.parent_file().name()))
        .map(|extension| {
            (
                (
                    extension.containing_message().full_name().to_owned(),
                    extension.number(),
                ),
                extension,
            )
        })
        .collect()
}

fn services(side: &Compiled) -> BTreeMap<String, ServiceDescriptor> {
    own_files(side)
        .into_iter()
        .flat_map(|file| file.services().collect::<Vec<_>>())
        .map(|service| (service.full_name().to_owned(), service))
        .collect()
}

#[derive(Default)]
struct Walk {
    found: Vec<Found>,
}

impl Walk {
    fn push(&mut self, kind: ChangeKind, op: OpKind, path: String, what: String) {
        self.push_about(kind, op, (path, None), what);
    }

    /// [`Walk::push`] of a change the path does not name: `subject` does.
    fn push_about(
        &mut self,
        kind: ChangeKind,
        op: OpKind,
        (path, subject): (String, Option<String>),
        what: String,
    ) {
        self.found.push(Found {
            kind,
            op,
            path,
            what,
            subject,
        });
    }

    /// The document's package and syntax, and those of imports present on both sides.
    fn files(&mut self, old: &Compiled, new: &Compiled) {
        let mut pairs = Vec::new();
        if let (Some(a), Some(b)) = (
            old.pool.get_file_by_name(&old.main),
            new.pool.get_file_by_name(&new.main),
        ) {
            pairs.push((String::new(), a, b));
        }
        for name in old.own.intersection(&new.own) {
            if *name == old.main || *name == new.main {
                continue;
            }
            if let (Some(a), Some(b)) = (
                old.pool.get_file_by_name(name),
                new.pool.get_file_by_name(name),
            ) {
                pairs.push((format!("/{name}"), a, b));
            }
        }
        for (path, a, b) in pairs {
            let file = if path.is_empty() {
                "the file".to_owned()
            } else {
                format!("`{}`", &path[1..])
            };
            if a.package_name() != b.package_name() {
                self.push(
                    ChangeKind::PackageChanged,
                    OpKind::Replace,
                    path.clone(),
                    format!(
                        "{file} changed package from `{}` to `{}`",
                        a.package_name(),
                        b.package_name()
                    ),
                );
            }
            if a.syntax() != b.syntax() {
                self.push(
                    ChangeKind::SyntaxChanged,
                    OpKind::Replace,
                    path,
                    format!(
                        "{file} changed syntax from {} to {}",
                        syntax(a.syntax()),
                        syntax(b.syntax())
                    ),
                );
            }
        }
    }

    fn message(&mut self, old: &MessageDescriptor, new: &MessageDescriptor) {
        let name = old.full_name();
        if json_support_dropped(&old.parent_file(), &new.parent_file()) && !old.is_map_entry() {
            self.push(
                ChangeKind::MessageJsonFormatChanged,
                OpKind::Replace,
                format!("/{name}"),
                format!("message `{name}` changed JSON support from ALLOW to LEGACY_BEST_EFFORT (proto3 to proto2)"),
            );
        }
        let field_path = |number: u32| format!("/{name}/fields/{number}");
        let old_fields: BTreeMap<u32, FieldDescriptor> =
            old.fields().map(|f| (f.number(), f)).collect();
        let new_fields: BTreeMap<u32, FieldDescriptor> =
            new.fields().map(|f| (f.number(), f)).collect();
        let new_reserved = ranges(new.reserved_ranges().map(|r| r.start..=r.end - 1));
        let new_reserved_names: BTreeSet<&str> = new.reserved_names().collect();
        for (number, field) in &old_fields {
            match new_fields.get(number) {
                Some(after) => self.field(field, after, old, new),
                None => {
                    let number_reserved = covered(&new_reserved, *number as i64);
                    let name_reserved = new_reserved_names.contains(field.name());
                    let kind = match (number_reserved, name_reserved) {
                        (true, true) => ChangeKind::FieldRemovedReserved,
                        (true, false) => ChangeKind::FieldRemovedNumberReserved,
                        _ => ChangeKind::FieldRemoved,
                    };
                    let reserved = match (number_reserved, name_reserved) {
                        (true, true) => ", its number and name reserved",
                        (true, false) => ", its number reserved but not its name",
                        (false, true) => ", its name reserved but not its number",
                        (false, false) => "",
                    };
                    self.push(
                        kind,
                        OpKind::Remove,
                        field_path(*number),
                        format!("{} was removed{reserved}", describe(field, old)),
                    );
                }
            }
        }
        for (number, field) in &new_fields {
            if !old_fields.contains_key(number) {
                self.push(
                    ChangeKind::FieldAdded,
                    OpKind::Add,
                    field_path(*number),
                    format!("{} was added", describe(field, new)),
                );
            }
        }
        // Required fields (proto2), by number: any that became or stopped being required.
        let required = |fields: &BTreeMap<u32, FieldDescriptor>| -> BTreeSet<u32> {
            fields
                .iter()
                .filter(|(_, f)| f.cardinality() == Cardinality::Required)
                .map(|(n, _)| *n)
                .collect()
        };
        let (old_required, new_required) = (required(&old_fields), required(&new_fields));
        for number in old_required.difference(&new_required) {
            self.push(
                ChangeKind::FieldRequiredRemoved,
                OpKind::Remove,
                field_path(*number),
                format!(
                    "{} is no longer required",
                    describe(&old_fields[number], old)
                ),
            );
        }
        for number in new_required.difference(&old_required) {
            self.push(
                ChangeKind::FieldRequiredAdded,
                OpKind::Add,
                field_path(*number),
                format!("{} is now required", describe(&new_fields[number], new)),
            );
        }
        let old_reserved = old
            .reserved_ranges()
            .map(|r| r.start as i64..=r.end as i64 - 1);
        self.reserved(
            &format!("/{name}"),
            &format!("message `{name}`"),
            old_reserved.collect(),
            &new_reserved,
            old.reserved_names().collect(),
            &new_reserved_names,
        );
    }

    fn field(
        &mut self,
        old: &FieldDescriptor,
        new: &FieldDescriptor,
        old_message: &MessageDescriptor,
        new_message: &MessageDescriptor,
    ) {
        let path = format!("/{}/fields/{}", old_message.full_name(), old.number());
        let what = describe(new, new_message);
        if old.name() != new.name() {
            self.push(
                ChangeKind::FieldRenamed,
                OpKind::Replace,
                path.clone(),
                format!(
                    "field {} of `{}` was renamed from `{}` to `{}`",
                    old.number(),
                    old_message.name(),
                    old.name(),
                    new.name()
                ),
            );
        }
        if old.json_name() != new.json_name() {
            self.push(
                ChangeKind::FieldJsonNameChanged,
                OpKind::Replace,
                path.clone(),
                format!(
                    "{what} changed JSON name from `{}` to `{}`",
                    old.json_name(),
                    new.json_name()
                ),
            );
        }
        // Map entries are generated, and their presence is not the user's choice (buf skips them).
        let entries = old_message.is_map_entry() && new_message.is_map_entry();
        self.type_and_cardinality(old, new, &path, &what, !entries);
        let (a, b) = (real_oneof(old), real_oneof(new));
        let oneof = match (&a, &b) {
            (None, Some(to)) => Some((
                ChangeKind::FieldOneofEntered,
                format!("moved into oneof `{to}`"),
            )),
            (Some(from), None) => Some((
                ChangeKind::FieldOneofLeft,
                format!("moved out of oneof `{from}`"),
            )),
            (Some(from), Some(to)) if from != to => Some((
                ChangeKind::FieldOneofChanged,
                format!("moved from oneof `{from}` to oneof `{to}`"),
            )),
            _ => None,
        };
        if let Some((kind, moved)) = oneof {
            self.push(
                kind,
                OpKind::Replace,
                path.clone(),
                format!("{what} {moved}"),
            );
        }
        self.default_changed(old, new, path, &what);
    }

    /// An extension present on both sides: the field checks buf applies to extensions too
    /// (no JSON name or oneof, and the name is the full name).
    fn extension(&mut self, old: &ExtensionDescriptor, new: &ExtensionDescriptor) {
        let extendee = old.containing_message();
        let path = format!("/{}/extensions/{}", extendee.full_name(), old.number());
        let what = format!(
            "extension `{}` ({}) of `{}`",
            new.full_name(),
            new.number(),
            extendee.name()
        );
        if old.full_name() != new.full_name() {
            self.push(
                ChangeKind::FieldRenamed,
                OpKind::Replace,
                path.clone(),
                format!(
                    "extension {} of `{}` was renamed from `{}` to `{}`",
                    old.number(),
                    extendee.name(),
                    old.full_name(),
                    new.full_name()
                ),
            );
        }
        self.type_and_cardinality(old, new, &path, &what, true);
        self.default_changed(old, new, path, &what);
    }

    /// A field's (or extension's) type, then, when `shape` is judged, its cardinality or
    /// presence.
    fn type_and_cardinality<F: Slot>(
        &mut self,
        old: &F,
        new: &F,
        path: &str,
        what: &str,
        shape: bool,
    ) {
        if let Some(kind) = type_change(old, new) {
            self.push(
                kind,
                OpKind::Replace,
                path.to_owned(),
                format!(
                    "{what} changed type from {} to {}",
                    type_name(old),
                    type_name(new)
                ),
            );
        }
        let (a, b) = (cardinality(old), cardinality(new));
        if !shape || a == b {
            return;
        }
        let kind = match (a, b) {
            (Shape::Explicit | Shape::Implicit, Shape::Explicit | Shape::Implicit) => {
                ChangeKind::FieldPresenceChanged
            }
            (Shape::Repeated | Shape::Map, Shape::Repeated | Shape::Map) => {
                ChangeKind::FieldCardinalityChangedWireCompatible
            }
            _ => ChangeKind::FieldCardinalityChanged,
        };
        self.push(
            kind,
            OpKind::Replace,
            path.to_owned(),
            format!("{what} changed from {} to {}", a.words(), b.words()),
        );
    }

    /// A field's (or extension's) proto2 default value.
    fn default_changed<F: Slot>(&mut self, old: &F, new: &F, path: String, what: &str) {
        if let Some((from, to)) = default_change(old, new) {
            self.push(
                ChangeKind::FieldDefaultChanged,
                OpKind::Replace,
                path,
                format!("{what} changed default from {from} to {to}"),
            );
        }
    }

    fn enumeration(&mut self, old: &EnumDescriptor, new: &EnumDescriptor) {
        let name = old.full_name();
        if json_support_dropped(&old.parent_file(), &new.parent_file()) {
            self.push(
                ChangeKind::EnumJsonFormatChanged,
                OpKind::Replace,
                format!("/{name}"),
                format!("enum `{name}` changed JSON support from ALLOW to LEGACY_BEST_EFFORT (proto3 to proto2)"),
            );
        }
        let names = |e: &EnumDescriptor| -> BTreeMap<i32, BTreeSet<String>> {
            let mut out: BTreeMap<i32, BTreeSet<String>> = BTreeMap::new();
            for value in e.values() {
                out.entry(value.number())
                    .or_default()
                    .insert(value.name().to_owned());
            }
            out
        };
        let (old_values, new_values) = (names(old), names(new));
        let new_reserved = ranges(new.reserved_ranges().map(|r| *r.start()..=*r.end()));
        let new_reserved_names: BTreeSet<&str> = new.reserved_names().collect();
        let list = |names: &BTreeSet<String>| {
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        for (number, old_names) in &old_values {
            let path = format!("/{name}/values/{number}");
            match new_values.get(number) {
                None => {
                    let number_reserved = covered(&new_reserved, i64::from(*number));
                    let names_reserved = old_names
                        .iter()
                        .all(|n| new_reserved_names.contains(n.as_str()));
                    let kind = match (number_reserved, names_reserved) {
                        (true, true) => ChangeKind::EnumValueRemovedReserved,
                        (true, false) => ChangeKind::EnumValueRemovedNumberReserved,
                        _ => ChangeKind::EnumValueRemoved,
                    };
                    self.push(
                        kind,
                        OpKind::Remove,
                        path,
                        format!(
                            "value {} ({number}) of enum `{}` was removed",
                            list(old_names),
                            old.name()
                        ),
                    );
                }
                // buf wants every old name of a number kept; adding an alias is fine.
                Some(new_names) if !old_names.is_subset(new_names) => self.push(
                    ChangeKind::EnumValueRenamed,
                    OpKind::Replace,
                    path,
                    format!(
                        "value {number} of enum `{}` was renamed from {} to {}",
                        old.name(),
                        list(old_names),
                        list(new_names)
                    ),
                ),
                Some(_) => {}
            }
        }
        for (number, new_names) in &new_values {
            if !old_values.contains_key(number) {
                self.push(
                    ChangeKind::EnumValueAdded,
                    OpKind::Add,
                    format!("/{name}/values/{number}"),
                    format!(
                        "value {} ({number}) of enum `{}` was added",
                        list(new_names),
                        old.name()
                    ),
                );
            }
        }
        self.reserved(
            &format!("/{name}"),
            &format!("enum `{name}`"),
            old.reserved_ranges()
                .map(|r| i64::from(*r.start())..=i64::from(*r.end()))
                .collect(),
            &new_reserved,
            old.reserved_names().collect(),
            &new_reserved_names,
        );
    }

    /// Reserved numbers and names of the old side that the new side no longer reserves.
    fn reserved(
        &mut self,
        path: &str,
        owner: &str,
        old_ranges: Vec<RangeInclusive<i64>>,
        new_ranges: &[RangeInclusive<i64>],
        old_names: BTreeSet<&str>,
        new_names: &BTreeSet<&str>,
    ) {
        for range in old_ranges {
            let missing = missing(&range, new_ranges);
            if !missing.is_empty() {
                let shown = missing
                    .iter()
                    .map(show_range)
                    .collect::<Vec<_>>()
                    .join(", ");
                self.push_about(
                    ChangeKind::ReservedRangeRemoved,
                    OpKind::Remove,
                    (path.to_owned(), Some(shown.clone())),
                    format!(
                        "reserved {} of {owner} no longer reserved ({shown})",
                        show_range(&range),
                    ),
                );
            }
        }
        for name in old_names.difference(new_names) {
            self.push_about(
                ChangeKind::ReservedNameRemoved,
                OpKind::Remove,
                (path.to_owned(), Some((*name).to_owned())),
                format!("reserved name `{name}` of {owner} no longer reserved"),
            );
        }
    }

    fn service(&mut self, old: &ServiceDescriptor, new: &ServiceDescriptor) {
        let name = old.full_name();
        let new_methods: BTreeMap<String, _> =
            new.methods().map(|m| (m.name().to_owned(), m)).collect();
        let old_names: BTreeSet<String> = old.methods().map(|m| m.name().to_owned()).collect();
        for before in old.methods() {
            let path = format!("/{name}/methods/{}", before.name());
            let rpc = format!("RPC `{}.{}`", old.name(), before.name());
            let Some(after) = new_methods.get(before.name()) else {
                self.push(
                    ChangeKind::RpcRemoved,
                    OpKind::Remove,
                    path,
                    format!("{rpc} was removed"),
                );
                continue;
            };
            if before.input().full_name() != after.input().full_name() {
                self.push(
                    ChangeKind::RpcRequestChanged,
                    OpKind::Replace,
                    path.clone(),
                    format!(
                        "{rpc} changed request from `{}` to `{}`",
                        before.input().full_name(),
                        after.input().full_name()
                    ),
                );
            }
            if before.output().full_name() != after.output().full_name() {
                self.push(
                    ChangeKind::RpcResponseChanged,
                    OpKind::Replace,
                    path.clone(),
                    format!(
                        "{rpc} changed response from `{}` to `{}`",
                        before.output().full_name(),
                        after.output().full_name()
                    ),
                );
            }
            let streaming = |yes: bool| if yes { "streaming" } else { "unary" };
            if before.is_client_streaming() != after.is_client_streaming() {
                self.push(
                    ChangeKind::RpcClientStreamingChanged,
                    OpKind::Replace,
                    path.clone(),
                    format!(
                        "{rpc} changed its request from {} to {}",
                        streaming(before.is_client_streaming()),
                        streaming(after.is_client_streaming())
                    ),
                );
            }
            if before.is_server_streaming() != after.is_server_streaming() {
                self.push(
                    ChangeKind::RpcServerStreamingChanged,
                    OpKind::Replace,
                    path.clone(),
                    format!(
                        "{rpc} changed its response from {} to {}",
                        streaming(before.is_server_streaming()),
                        streaming(after.is_server_streaming())
                    ),
                );
            }
            let level = |m: &prost_reflect::MethodDescriptor| {
                m.method_descriptor_proto()
                    .options
                    .as_ref()
                    .map(|o| o.idempotency_level())
                    .unwrap_or_default()
            };
            if level(&before) != level(after) {
                self.push(
                    ChangeKind::RpcIdempotencyChanged,
                    OpKind::Replace,
                    path,
                    format!(
                        "{rpc} changed idempotency level from {} to {}",
                        level(&before).as_str_name(),
                        level(after).as_str_name()
                    ),
                );
            }
        }
        for method in new.methods().filter(|m| !old_names.contains(m.name())) {
            self.push(
                ChangeKind::RpcAdded,
                OpKind::Add,
                format!("/{name}/methods/{}", method.name()),
                format!("RPC `{}.{}` was added", new.name(), method.name()),
            );
        }
    }
}

/// What fields and extensions share, for the checks that apply to both.
trait Slot {
    fn kind(&self) -> Kind;
    fn is_group(&self) -> bool;
    fn is_list(&self) -> bool;
    fn is_map(&self) -> bool;
    fn cardinality(&self) -> Cardinality;
    fn supports_presence(&self) -> bool;
    fn default_value(&self) -> Value;
}

macro_rules! slot {
    ($type:ty) => {
        impl Slot for $type {
            fn kind(&self) -> Kind {
                <$type>::kind(self)
            }
            fn is_group(&self) -> bool {
                <$type>::is_group(self)
            }
            fn is_list(&self) -> bool {
                <$type>::is_list(self)
            }
            fn is_map(&self) -> bool {
                <$type>::is_map(self)
            }
            fn cardinality(&self) -> Cardinality {
                <$type>::cardinality(self)
            }
            fn supports_presence(&self) -> bool {
                <$type>::supports_presence(self)
            }
            fn default_value(&self) -> Value {
                <$type>::default_value(self)
            }
        }
    };
}

slot!(FieldDescriptor);
slot!(ExtensionDescriptor);

/// Whether a type's file went from proto3, whose JSON mapping is always allowed, to proto2,
/// whose JSON is only best effort (buf's `json_format` feature, `ALLOW` to `LEGACY_BEST_EFFORT`).
fn json_support_dropped(old: &FileDescriptor, new: &FileDescriptor) -> bool {
    old.syntax() == Syntax::Proto3 && new.syntax() == Syntax::Proto2
}

fn syntax(syntax: Syntax) -> &'static str {
    match syntax {
        Syntax::Proto2 => "proto2",
        Syntax::Proto3 => "proto3",
    }
}

/// "field `amount` (3) of `Order`", or the key or value of a map for map entry fields.
fn describe(field: &FieldDescriptor, message: &MessageDescriptor) -> String {
    if message.is_map_entry() {
        let map = message
            .parent_message()
            .and_then(|parent| {
                parent
                    .fields()
                    .find(|f| f.kind().as_message().is_some_and(|m| m == message))
                    .map(|f| format!("`{}.{}`", parent.name(), f.name()))
            })
            .unwrap_or_else(|| format!("`{}`", message.name()));
        return format!("the {} of map {map}", field.name());
    }
    format!(
        "field `{}` ({}) of `{}`",
        field.name(),
        field.number(),
        message.name()
    )
}

/// The field's type as its declaration writes it.
fn type_name(field: &impl Slot) -> String {
    match field.kind() {
        Kind::Message(message) if field.is_group() => format!("group `{}`", message.full_name()),
        Kind::Message(message) => format!("`{}`", message.full_name()),
        Kind::Enum(enumeration) => format!("enum `{}`", enumeration.full_name()),
        other => scalar(&other).to_owned(),
    }
}

fn scalar(kind: &Kind) -> &'static str {
    match kind {
        Kind::Double => "double",
        Kind::Float => "float",
        Kind::Int32 => "int32",
        Kind::Int64 => "int64",
        Kind::Uint32 => "uint32",
        Kind::Uint64 => "uint64",
        Kind::Sint32 => "sint32",
        Kind::Sint64 => "sint64",
        Kind::Fixed32 => "fixed32",
        Kind::Fixed64 => "fixed64",
        Kind::Sfixed32 => "sfixed32",
        Kind::Sfixed64 => "sfixed64",
        Kind::Bool => "bool",
        Kind::String => "string",
        Kind::Bytes => "bytes",
        Kind::Message(_) => "message",
        Kind::Enum(_) => "enum",
    }
}

/// The encoding group of a type on the wire (protobuf's "updating a message type" rules, as
/// buf groups them): types of one group read each other's values.
fn wire_group(field: &impl Slot) -> u8 {
    match field.kind() {
        Kind::Int32 | Kind::Int64 | Kind::Uint32 | Kind::Uint64 | Kind::Bool => 1,
        Kind::Sint32 | Kind::Sint64 => 2,
        Kind::String => 3,
        Kind::Bytes => 4,
        Kind::Fixed32 | Kind::Sfixed32 => 5,
        Kind::Fixed64 | Kind::Sfixed64 => 6,
        Kind::Double => 7,
        Kind::Float => 8,
        Kind::Message(_) if field.is_group() => 9,
        Kind::Message(_) => 10,
        Kind::Enum(_) => 11,
    }
}

/// The group of types that share both the wire and the JSON encoding.
fn json_group(field: &impl Slot) -> u8 {
    match field.kind() {
        Kind::Int32 | Kind::Uint32 => 1,
        Kind::Int64 | Kind::Uint64 => 2,
        Kind::Fixed32 | Kind::Sfixed32 => 3,
        Kind::Fixed64 | Kind::Sfixed64 => 4,
        Kind::Bool => 5,
        Kind::Sint32 => 6,
        Kind::Sint64 => 7,
        Kind::String => 8,
        Kind::Bytes => 9,
        Kind::Double => 10,
        Kind::Float => 11,
        Kind::Message(_) if field.is_group() => 12,
        Kind::Message(_) => 13,
        Kind::Enum(_) => 14,
    }
}

/// Which kind of type change, if any.
fn type_change(old: &impl Slot, new: &impl Slot) -> Option<ChangeKind> {
    let (a, b) = (old.kind(), new.kind());
    if wire_group(old) != wire_group(new) {
        return Some(match (&a, &b) {
            (Kind::String, Kind::Bytes) => ChangeKind::FieldTypeChangedWireCompatible,
            (Kind::Bytes, Kind::String) => ChangeKind::FieldTypeBytesToString,
            _ => ChangeKind::FieldTypeChanged,
        });
    }
    match (&a, &b) {
        (Kind::Message(x), Kind::Message(y)) => {
            (x.full_name() != y.full_name()).then_some(ChangeKind::FieldTypeChanged)
        }
        (Kind::Enum(x), Kind::Enum(y)) if x.full_name() != y.full_name() => {
            // buf takes an enum of the same short name holding every old value as the same enum.
            let superset = x.name() == y.name()
                && x.values().all(|value| {
                    y.get_value_by_name(value.name())
                        .is_some_and(|other| other.number() == value.number())
                });
            Some(if superset {
                ChangeKind::FieldTypeChangedCompatible
            } else {
                ChangeKind::FieldTypeChanged
            })
        }
        _ if scalar(&a) == scalar(&b) => None,
        _ if json_group(old) == json_group(new) => Some(ChangeKind::FieldTypeChangedCompatible),
        _ => Some(ChangeKind::FieldTypeChangedWireCompatible),
    }
}

/// A field's label and presence, as buf's cardinality rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Explicit,
    Implicit,
    Required,
    Repeated,
    Map,
}

impl Shape {
    fn words(self) -> &'static str {
        match self {
            Shape::Explicit => "optional (explicit presence)",
            Shape::Implicit => "optional (implicit presence)",
            Shape::Required => "required",
            Shape::Repeated => "repeated",
            Shape::Map => "a map",
        }
    }
}

fn cardinality(field: &impl Slot) -> Shape {
    if field.is_list() {
        Shape::Repeated
    } else if field.is_map() {
        Shape::Map
    } else if field.cardinality() == Cardinality::Required {
        Shape::Required
    } else if field.supports_presence() {
        Shape::Explicit
    } else {
        Shape::Implicit
    }
}

/// The oneof a field belongs to, leaving out the synthetic ones of proto3 `optional`.
fn real_oneof(field: &FieldDescriptor) -> Option<String> {
    field
        .containing_oneof()
        .filter(|oneof| !oneof.is_synthetic())
        .map(|oneof| oneof.name().to_owned())
}

/// The defaults, shown, when they differ the way buf's FIELD_SAME_DEFAULT sees it: only
/// singular scalar and enum fields, and never when both are their type's zero value.
fn default_change(old: &impl Slot, new: &impl Slot) -> Option<(String, String)> {
    fn can_have(f: &impl Slot) -> bool {
        !f.is_list() && !f.is_map() && !matches!(f.kind(), Kind::Message(_))
    }
    if !can_have(old) || !can_have(new) {
        return None;
    }
    let (a, b) = (old.default_value(), new.default_value());
    if is_zero(&a) && is_zero(&b) {
        return None;
    }
    (!defaults_equal(&a, &b)).then(|| (show(&a), show(&b)))
}

fn is_zero(value: &Value) -> bool {
    match value {
        Value::Bool(v) => !v,
        Value::I32(v) | Value::EnumNumber(v) => *v == 0,
        Value::I64(v) => *v == 0,
        Value::U32(v) => *v == 0,
        Value::U64(v) => *v == 0,
        Value::F32(v) => v.to_bits() == 0,
        Value::F64(v) => v.to_bits() == 0,
        Value::String(v) => v.is_empty(),
        Value::Bytes(v) => v.is_empty(),
        _ => true,
    }
}

/// A default as a number, when it is one (bools and enum numbers included).
enum Number {
    Integer(i128),
    Float32(f32),
    Float64(f64),
}

fn number(value: &Value) -> Option<Number> {
    Some(match value {
        Value::Bool(v) => Number::Integer(i128::from(*v)),
        Value::I32(v) | Value::EnumNumber(v) => Number::Integer(i128::from(*v)),
        Value::I64(v) => Number::Integer(i128::from(*v)),
        Value::U32(v) => Number::Integer(i128::from(*v)),
        Value::U64(v) => Number::Integer(i128::from(*v)),
        Value::F32(v) => Number::Float32(*v),
        Value::F64(v) => Number::Float64(*v),
        _ => return None,
    })
}

fn text(value: &Value) -> Option<&[u8]> {
    match value {
        Value::String(v) => Some(v.as_bytes()),
        Value::Bytes(v) => Some(v),
        _ => None,
    }
}

/// Equal the way buf compares defaults: strings with bytes by content, numbers by value
/// (a float against a double in single precision).
fn defaults_equal(a: &Value, b: &Value) -> bool {
    if text(a).is_some() || text(b).is_some() {
        return text(a) == text(b);
    }
    let (Some(x), Some(y)) = (number(a), number(b)) else {
        return false;
    };
    let float = |n: &Number| match n {
        Number::Integer(v) => *v as f64,
        Number::Float32(v) => f64::from(*v),
        Number::Float64(v) => *v,
    };
    match (&x, &y) {
        (Number::Integer(p), Number::Integer(q)) => p == q,
        (Number::Float32(p), Number::Float64(q)) | (Number::Float64(q), Number::Float32(p)) => {
            (p.is_nan() && q.is_nan()) || *p == *q as f32
        }
        _ => {
            let (p, q) = (float(&x), float(&y));
            (p.is_nan() && q.is_nan()) || p == q
        }
    }
}

fn show(value: &Value) -> String {
    match value {
        Value::Bool(v) => v.to_string(),
        Value::I32(v) => v.to_string(),
        Value::I64(v) => v.to_string(),
        Value::U32(v) => v.to_string(),
        Value::U64(v) => v.to_string(),
        Value::F32(v) => v.to_string(),
        Value::F64(v) => v.to_string(),
        Value::String(v) => format!("{v:?}"),
        Value::Bytes(v) => format!("{:?}", String::from_utf8_lossy(v)),
        Value::EnumNumber(v) => format!("enum number {v}"),
        _ => "a message".to_owned(),
    }
}

/// Sorted ranges with overlapping and adjacent ones merged.
fn ranges(list: impl Iterator<Item = RangeInclusive<impl Into<i64>>>) -> Vec<RangeInclusive<i64>> {
    let mut sorted: Vec<(i64, i64)> = list
        .map(|r| {
            let (start, end) = r.into_inner();
            (start.into(), end.into())
        })
        .filter(|(start, end)| start <= end)
        .collect();
    sorted.sort_unstable();
    let mut merged: Vec<(i64, i64)> = Vec::new();
    for (start, end) in sorted {
        match merged.last_mut() {
            Some(last) if start <= last.1.saturating_add(1) => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    merged.into_iter().map(|(s, e)| s..=e).collect()
}

fn covered(merged: &[RangeInclusive<i64>], number: i64) -> bool {
    merged.iter().any(|range| range.contains(&number))
}

/// The parts of `range` that no range of `merged` covers.
fn missing(
    range: &RangeInclusive<i64>,
    merged: &[RangeInclusive<i64>],
) -> Vec<RangeInclusive<i64>> {
    let (mut start, end) = (*range.start(), *range.end());
    let mut out = Vec::new();
    for cover in merged {
        if start > end {
            break;
        }
        if *cover.end() < start {
            continue;
        }
        if *cover.start() > end {
            break;
        }
        if *cover.start() > start {
            out.push(start..=cover.start() - 1);
        }
        start = cover.end().saturating_add(1);
    }
    if start <= end {
        out.push(start..=end);
    }
    out
}

fn show_range(range: &RangeInclusive<i64>) -> String {
    if range.start() == range.end() {
        format!("number {}", range.start())
    } else {
        format!("numbers {} to {}", range.start(), range.end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_merge_and_report_gaps() {
        let merged = ranges([1..=3, 4..=6, 10..=12].into_iter());
        assert_eq!(merged, vec![1..=6, 10..=12]);
        assert_eq!(missing(&(2..=11), &merged), vec![7..=9]);
        assert_eq!(missing(&(0..=0), &merged), vec![0..=0]);
        assert!(missing(&(1..=6), &merged).is_empty());
        assert!(covered(&merged, 11) && !covered(&merged, 8));
    }
}
