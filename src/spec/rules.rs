//! The rules tables of API specifications (data): one row per structural change an AsyncAPI or
//! OpenAPI walker reports, and the roles that decide how a schema change inside a body or a
//! payload is read. The strategy is applied in `schema::verdict::judge`, as for every format.
//!
//! Columns are read from the point of view of the service that owns the specification:
//! `forward` is "the service upgrades first, its counterparties stay on the old
//! specification" (the REST meaning of "backward compatible", what API diff tools check);
//! `backward` is the mirror image (the counterparties upgrade first, or the service rolls back).
//!
//! A schema inside a specification (a request body, a parameter, a response, a message payload
//! or headers) is judged by the engine of its format, whose table speaks of readers and writers:
//! `backward` there is "a new reader reads old data", `forward` "an old reader reads new data".
//! Which of those the specification's columns are depends on who reads the schema ([`Role`]).

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::schema::Format;
use crate::schema::verdict::{Effect, Rule};

use Effect::{Breaks, Safe};

/// The AsyncAPI rules: channels, operations and messages.
#[rustfmt::skip]
pub const ASYNCAPI_RULES: [Rule; 13] = [
    Rule { id: "channel.added", backward: Safe, forward: Safe,
        reason: "nobody used it before, so nobody depends on it",
        change: "Add a channel" },
    Rule { id: "channel.removed", backward: Safe, forward: Breaks,
        reason: "counterparties still on the old specification send or wait on it",
        change: "Remove a channel" },
    Rule { id: "channel.address.changed", backward: Breaks, forward: Breaks,
        reason: "parties on the old and the new specification no longer meet at the same address",
        change: "Change a channel's address, parameter names aside (3.x)" },
    Rule { id: "channel.message.added", backward: Safe, forward: Safe,
        reason: "a message nobody exchanged before breaks nobody",
        change: "Add a message to a channel no operation names (3.x)" },
    Rule { id: "channel.message.removed", backward: Safe, forward: Breaks,
        reason: "counterparties still on the old specification send or expect it there",
        change: "Remove a message from a channel no operation names (3.x)" },
    Rule { id: "operation.added", backward: Safe, forward: Safe,
        reason: "nobody used it before, so nobody depends on it",
        change: "Add an operation (2.x: a `publish` or `subscribe` on a channel)" },
    Rule { id: "operation.removed", backward: Safe, forward: Breaks,
        reason: "counterparties still on the old specification rely on it",
        change: "Remove an operation" },
    Rule { id: "operation.action.changed", backward: Breaks, forward: Breaks,
        reason: "the service now does the opposite of what its counterparties expect",
        change: "Turn a `send` into a `receive` or the reverse (3.x)" },
    Rule { id: "operation.channel.changed", backward: Breaks, forward: Breaks,
        reason: "the service and its counterparties no longer meet on the same channel",
        change: "Point an operation at another channel (3.x)" },
    Rule { id: "operation.message.added", backward: Safe, forward: Safe,
        reason: "a message nobody exchanged before breaks nobody",
        change: "Add a message to an operation" },
    Rule { id: "operation.message.removed", backward: Safe, forward: Breaks,
        reason: "counterparties still on the old specification send or expect it",
        change: "Remove a message from an operation" },
    Rule { id: "message.content-type.changed", backward: Breaks, forward: Breaks,
        reason: "the two sides no longer encode the message the same way",
        change: "Change a message's content type (its own or the default)" },
    Rule { id: "message.schema-format.changed", backward: Breaks, forward: Breaks,
        reason: "the payload is now described, and usually encoded, in another format",
        change: "Change a payload's schema format (`schemaFormat`)" },
];

/// The OpenAPI rules: operations, parameters, request bodies and responses.
#[rustfmt::skip]
pub const OPENAPI_RULES: [Rule; 27] = [
    Rule { id: "operation.added", backward: Safe, forward: Safe,
        reason: "no client used it before, so none depends on it",
        change: "Add an operation (method and path)" },
    Rule { id: "operation.removed", backward: Safe, forward: Breaks,
        // Also a webhook or callback: its clients registered for the call and still wait.
        reason: "clients still on the old specification rely on it",
        change: "Remove an operation" },
    Rule { id: "operation.deprecated", backward: Safe, forward: Safe,
        reason: "an annotation only, reported because catalogs care about it",
        change: "Mark an operation `deprecated: true`" },
    Rule { id: "security.narrowed", backward: Safe, forward: Breaks,
        reason: "old clients may not carry the credentials the service now asks for",
        change: "Ask more of a request's credentials (a requirement, scheme or scope added; anonymous access dropped)" },
    Rule { id: "security.widened", backward: Breaks, forward: Safe,
        reason: "new clients may leave out credentials the old service asks for",
        change: "Ask less of a request's credentials (a requirement, scheme or scope dropped; anonymous access allowed)" },
    Rule { id: "security.scheme.changed", backward: Breaks, forward: Breaks,
        reason: "each side presents credentials where or how the other no longer looks for them",
        change: "Change how a security scheme in force is presented (its `type`, an API key's `in` or `name`, an HTTP `scheme`)" },
    Rule { id: "parameter.added", backward: Safe, forward: Safe,
        reason: "old clients do not send it and do not need to",
        change: "Add an optional parameter" },
    Rule { id: "parameter.removed", backward: Safe, forward: Safe,
        reason: "old clients may still send it and the service ignores it",
        change: "Remove a parameter" },
    Rule { id: "parameter.required.added", backward: Safe, forward: Breaks,
        reason: "old clients do not send it, so the service rejects their requests",
        change: "Add a required parameter, or make one required" },
    Rule { id: "parameter.required.removed", backward: Breaks, forward: Safe,
        reason: "new clients may omit it, which the old service rejects",
        change: "Make a required parameter optional, or remove it" },
    Rule { id: "parameter.serialization.changed", backward: Breaks, forward: Breaks,
        reason: "the two sides no longer write and read the value the same way",
        change: "Change how a parameter is written (`style`, `explode`, `content`, `allowReserved`)" },
    Rule { id: "request-body.added", backward: Safe, forward: Safe,
        reason: "old clients do not send it and do not need to",
        change: "Add an optional request body" },
    Rule { id: "request-body.removed", backward: Safe, forward: Safe,
        reason: "old clients may still send it and the service ignores it",
        change: "Remove a request body" },
    Rule { id: "request-body.required.added", backward: Safe, forward: Breaks,
        reason: "old clients may not send one, so the service rejects their requests",
        change: "Add a required request body, or make the body required" },
    Rule { id: "request-body.required.removed", backward: Breaks, forward: Safe,
        reason: "new clients may omit it, which the old service rejects",
        change: "Make a required request body optional, or remove it" },
    Rule { id: "request-body.media-type.added", backward: Safe, forward: Safe,
        reason: "old clients keep sending the media types they know",
        change: "Accept another request media type" },
    Rule { id: "request-body.media-type.removed", backward: Safe, forward: Breaks,
        reason: "old clients still send it, and the service no longer accepts it",
        change: "Stop accepting a request media type" },
    Rule { id: "response.added", backward: Safe, forward: Safe,
        reason: "a new response status breaks no client that never saw it",
        change: "Add a response status" },
    Rule { id: "response.removed", backward: Safe, forward: Breaks,
        reason: "clients still on the old specification expect it",
        change: "Remove a success (`2xx`) response (another one stays, or none replaces it)" },
    Rule { id: "response.error.removed", backward: Safe, forward: Breaks,
        reason: "clients on the old specification rely on it to tell that failure apart, and the service no longer promises it",
        change: "Remove an error (`4xx`, `5xx`, `default`) response" },
    Rule { id: "response.success-status.changed", backward: Breaks, forward: Breaks,
        reason: "each side expects a success status the other does not send",
        change: "Replace the success status (`200` becomes `201`)" },
    Rule { id: "response.media-type.added", backward: Safe, forward: Safe,
        reason: "clients keep asking for the media types they know",
        change: "Offer another response media type" },
    Rule { id: "response.media-type.removed", backward: Safe, forward: Breaks,
        reason: "clients still on the old specification ask for it",
        change: "Stop offering a response media type" },
    Rule { id: "response.header.added", backward: Safe, forward: Safe,
        reason: "no client relies on a header it may not get",
        change: "Add an optional response header" },
    Rule { id: "response.header.removed", backward: Safe, forward: Safe,
        reason: "it was optional, so clients already do without it",
        change: "Remove an optional response header" },
    Rule { id: "response.header.required.added", backward: Breaks, forward: Safe,
        reason: "new clients rely on it, and the old service may not send it",
        change: "Add a required response header, or make one required" },
    Rule { id: "response.header.required.removed", backward: Safe, forward: Breaks,
        reason: "clients on the old specification rely on it, and the service may no longer send it",
        change: "Make a required response header optional, or remove it" },
];

/// The OpenAPI rows that read differently for an operation the service calls (a webhook or a
/// callback): the service writes the request and reads the response, so each row about a
/// parameter, a request body or a response is the mirror of its `OPENAPI_RULES` row (columns
/// swapped, said of the service and its receivers). Operations and security read the same.
#[rustfmt::skip]
pub const OPENAPI_SERVICE_CALLS: [Rule; 21] = [
    Rule { id: "parameter.added", backward: Safe, forward: Safe,
        reason: "receivers on the old specification ignore a parameter they do not know",
        change: "Add an optional parameter" },
    Rule { id: "parameter.removed", backward: Safe, forward: Safe,
        reason: "it was optional, so receivers already do without it",
        change: "Remove a parameter" },
    Rule { id: "parameter.required.added", backward: Breaks, forward: Safe,
        reason: "new receivers rely on it, and the old service may not send it",
        change: "Add a required parameter, or make one required" },
    Rule { id: "parameter.required.removed", backward: Safe, forward: Breaks,
        reason: "receivers on the old specification rely on it, and the service may no longer send it",
        change: "Make a required parameter optional, or remove it" },
    Rule { id: "parameter.serialization.changed", backward: Breaks, forward: Breaks,
        reason: "the two sides no longer write and read the value the same way",
        change: "Change how a parameter is written (`style`, `explode`, `content`, `allowReserved`)" },
    Rule { id: "request-body.added", backward: Safe, forward: Safe,
        reason: "it is optional, so no receiver relies on it",
        change: "Add an optional request body" },
    Rule { id: "request-body.removed", backward: Safe, forward: Safe,
        reason: "it was optional, so receivers already do without it",
        change: "Remove a request body" },
    Rule { id: "request-body.required.added", backward: Breaks, forward: Safe,
        reason: "new receivers rely on it, and the old service may not send one",
        change: "Add a required request body, or make the body required" },
    Rule { id: "request-body.required.removed", backward: Safe, forward: Breaks,
        reason: "receivers on the old specification rely on it, and the service may no longer send one",
        change: "Make a required request body optional, or remove it" },
    Rule { id: "request-body.media-type.added", backward: Safe, forward: Safe,
        reason: "the service keeps sending the media types its receivers know",
        change: "Accept another request media type" },
    Rule { id: "request-body.media-type.removed", backward: Breaks, forward: Safe,
        reason: "new receivers no longer accept it, and the old service may still send it",
        change: "Stop accepting a request media type" },
    Rule { id: "response.added", backward: Safe, forward: Safe,
        reason: "a new response status breaks no service that never saw it",
        change: "Add a response status" },
    Rule { id: "response.removed", backward: Breaks, forward: Safe,
        reason: "the old service expects it, and receivers on the new specification no longer send it",
        change: "Remove a success (`2xx`) response (another one stays, or none replaces it)" },
    Rule { id: "response.error.removed", backward: Breaks, forward: Safe,
        reason: "the old service relies on it to tell that failure apart, and receivers no longer promise it",
        change: "Remove an error (`4xx`, `5xx`, `default`) response" },
    Rule { id: "response.success-status.changed", backward: Breaks, forward: Breaks,
        reason: "each side expects a success status the other does not send",
        change: "Replace the success status (`200` becomes `201`)" },
    Rule { id: "response.media-type.added", backward: Safe, forward: Safe,
        reason: "the service keeps asking for the media types it knows",
        change: "Offer another response media type" },
    Rule { id: "response.media-type.removed", backward: Breaks, forward: Safe,
        reason: "the old service asks for it, and receivers on the new specification no longer offer it",
        change: "Stop offering a response media type" },
    Rule { id: "response.header.added", backward: Safe, forward: Safe,
        reason: "the service does not rely on a header it may not get",
        change: "Add an optional response header" },
    Rule { id: "response.header.removed", backward: Safe, forward: Safe,
        reason: "it was optional, so the service already does without it",
        change: "Remove an optional response header" },
    Rule { id: "response.header.required.added", backward: Safe, forward: Breaks,
        reason: "the new service relies on it, and receivers on the old specification may not send it",
        change: "Add a required response header, or make one required" },
    Rule { id: "response.header.required.removed", backward: Breaks, forward: Safe,
        reason: "the old service relies on it, and receivers may no longer send it",
        change: "Make a required response header optional, or remove it" },
];

/// `rule` (an `OPENAPI_RULES` row) for an operation the service calls: its mirror, or the row
/// itself where whoever calls reads it the same.
pub fn called_by_service(rule: &'static Rule) -> &'static Rule {
    OPENAPI_SERVICE_CALLS
        .iter()
        .find(|mirror| mirror.id == rule.id)
        .unwrap_or(rule)
}

/// Who reads a schema inside a specification, seen from the service that owns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// The service reads it: OpenAPI requests and parameters, AsyncAPI `receive` (2.x
    /// `publish`), the responses to an OpenAPI webhook.
    Input,
    /// Its counterparties read it: OpenAPI responses, AsyncAPI `send` (2.x `subscribe`), the
    /// requests of an OpenAPI webhook.
    Output,
    /// Both: a schema shared by an input and an output, or a message no operation names.
    Both,
}

impl Role {
    /// Every role, in table order.
    pub const ALL: [Role; 3] = [Role::Input, Role::Output, Role::Both];

    /// The role of a schema reached as `self` and also as `other`.
    pub fn and(self, other: Role) -> Role {
        if self == other { self } else { Role::Both }
    }

    /// The role in words, for op reasons and the README.
    pub fn name(self) -> &'static str {
        match self {
            Role::Input => "read by the service",
            Role::Output => "read by its counterparties",
            Role::Both => "read by both sides",
        }
    }

    /// How the role maps a schema rule's columns onto the specification's (README table).
    fn columns(self) -> (&'static str, &'static str) {
        match self {
            Role::Input => ("the schema's `forward`", "the schema's `backward`"),
            Role::Output => ("the schema's `backward`", "the schema's `forward`"),
            Role::Both => (
                "breaking if either column is",
                "breaking if either column is",
            ),
        }
    }

    /// Where a schema has this role.
    fn places(self) -> &'static str {
        match self {
            Role::Input => {
                "OpenAPI parameters and request bodies; AsyncAPI `receive` (2.x `publish`) payloads and headers; OpenAPI webhook responses"
            }
            Role::Output => {
                "OpenAPI responses; AsyncAPI `send` (2.x `subscribe`) payloads and headers; OpenAPI webhook request bodies"
            }
            Role::Both => {
                "a component used by an input and an output; an AsyncAPI message no operation names"
            }
        }
    }
}

/// A schema rule read in `role`: the row whose columns are the specification's. An output is
/// read by old readers of the new service under `forward`, exactly the schema's columns; an
/// input is read by the new service from old writers, so the columns swap; a schema in both
/// roles breaks a direction when either column breaks.
pub fn in_role(rule: &'static Rule, role: Role) -> &'static Rule {
    if role == Role::Output {
        return rule;
    }
    match derived().get(&(rule.id, rule.reason)) {
        Some((input, both)) => {
            if role == Role::Input {
                input
            } else {
                both
            }
        }
        // A rule of no format table cannot reach a specification; keep it as it is.
        None => rule,
    }
}

/// Derived rows by (id, reason) of the row they come from: (input row, both-roles row).
type Derived = HashMap<(&'static str, &'static str), (Rule, Rule)>;

/// The input and both-role rows of every format's table, built once and kept for the life of
/// the program (a few dozen rows), keyed by the id and reason of the row they derive from
/// (rows are `const` data, so their addresses are not an identity).
fn derived() -> &'static Derived {
    static DERIVED: OnceLock<Derived> = OnceLock::new();
    DERIVED.get_or_init(|| {
        let mut map = HashMap::new();
        for format in Format::ALL {
            for rule in format.rules() {
                let either = if rule.backward == Breaks || rule.forward == Breaks {
                    Breaks
                } else {
                    Safe
                };
                let input = Rule {
                    id: rule.id,
                    backward: rule.forward,
                    forward: rule.backward,
                    reason: rule.reason,
                    change: rule.change,
                };
                let both = Rule {
                    id: rule.id,
                    backward: either,
                    forward: either,
                    reason: rule.reason,
                    change: rule.change,
                };
                map.insert((rule.id, rule.reason), (input, both));
            }
        }
        map
    })
}

/// The direction table as Markdown, for the README (a test keeps the two equal).
pub fn markdown_roles() -> String {
    let mut out = String::from(
        "| Role | Where | `backward` column | `forward` column |\n| --- | --- | --- | --- |\n",
    );
    for role in Role::ALL {
        let (backward, forward) = role.columns();
        out.push_str(&format!(
            "| {} | {} | {backward} | {forward} |\n",
            role.name(),
            role.places()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::json_schema::rules::ChangeKind;

    #[test]
    fn ids_are_unique_per_table() {
        for table in [&ASYNCAPI_RULES[..], &OPENAPI_RULES[..]] {
            let mut ids: Vec<&str> = table.iter().map(|r| r.id).collect();
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), table.len());
        }
    }

    #[test]
    fn service_calls_mirror_each_request_and_response_row() {
        for row in &OPENAPI_RULES {
            let mirror = called_by_service(row);
            let about_a_call = ["parameter.", "request-body.", "response."]
                .iter()
                .any(|prefix| row.id.starts_with(prefix));
            assert_eq!(
                !std::ptr::eq(mirror, row),
                about_a_call,
                "{} has its mirror",
                row.id
            );
            if about_a_call {
                assert_eq!(
                    (mirror.backward, mirror.forward, mirror.change),
                    (row.forward, row.backward, row.change),
                    "{} swaps its columns",
                    row.id
                );
            }
        }
    }

    #[test]
    fn roles_swap_or_join_the_columns() {
        let required = ChangeKind::RequiredAdded.rule();
        assert_eq!(
            (required.backward, required.forward),
            (Breaks, Safe),
            "the schema table says a new reader breaks"
        );
        let input = in_role(required, Role::Input);
        assert_eq!((input.backward, input.forward), (Safe, Breaks));
        assert_eq!(input.id, "required.added");
        assert_eq!(in_role(required, Role::Output), required);
        let both = in_role(required, Role::Both);
        assert_eq!((both.backward, both.forward), (Breaks, Breaks));
        let safe = in_role(ChangeKind::PropertyAdded.rule(), Role::Both);
        assert_eq!((safe.backward, safe.forward), (Safe, Safe));
        assert_eq!(Role::Input.and(Role::Output), Role::Both);
        assert_eq!(Role::Input.and(Role::Input), Role::Input);
    }
}
