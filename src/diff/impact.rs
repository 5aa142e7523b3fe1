//! Edges and impact: each side's resolved graph, the edges added and removed between them, and
//! who is hurt (producers and consumers with their owners, always from the baseline graph), the
//! way `@eventcatalog/diff` 0.1.0 works them out (README, "JSON output"; issue #14 rules 5-7):
//!
//! * An edge's identity is direction + via + from id + to id. An edge only on one side is added
//!   or removed whatever its resolution, so a pointer to an unknown id or an unknown version is
//!   still an edge. On both sides, resolved in a and not in b is removed (its target vanished or
//!   no longer matches), the reverse is added. Of several edges with one identity on a side, the
//!   first wins unless a later one is resolved and it is not.
//! * An end is looked up among the side's entities: by id and version when it has a version
//!   (the last entity with both wins), else the first entity with that id. A found end carries
//!   its `type`; the version is the holder's version (`from`) or the resolved version (`to`), so
//!   an end whose id is unknown has neither, and one whose requested version is unknown keeps
//!   its `type` and has no `version`.
//! * Impact comes in three runs, in this order: `schema_breaking_change` per breaking schema
//!   change, `message_removed` per removed message version that still has producers or
//!   consumers, then `producer_removed` / `consumer_removed` grouped per message in the order
//!   the removed edges are listed, for direct `sends` / `receives` edges to a message none of
//!   whose versions was removed. Parties are sorted by id then version and never merged.

use std::borrow::Cow;

use serde_json::Value;

use super::assemble::MESSAGE_TYPES;
use super::order::locale_cmp;
use super::*;
use crate::FastMap;
use crate::catalog::resolve::{self, EdgeStatus};
use crate::catalog::version::js_sort_by;
use crate::catalog::{Index, Resource};

/// One resolved pointer as the diff needs it.
#[derive(Clone, Debug)]
pub(super) struct GraphEdge<'a> {
    direction: &'static str,
    via: Option<&'static str>,
    from: &'a str,
    /// The holding entity's version as text (a user's or team's number as JavaScript writes
    /// it), and as its Index gives it.
    from_version: Option<Cow<'a, str>>,
    from_version_value: &'a Value,
    to: &'a str,
    /// The target's version when the pointer resolved to a versioned target.
    resolved: Option<Cow<'a, str>>,
    resolved_value: &'a Value,
    is_resolved: bool,
}

/// Direction, via, from id and to id.
type Identity<'a> = (&'a str, Option<&'a str>, &'a str, &'a str);

impl<'a> GraphEdge<'a> {
    fn identity(&self) -> Identity<'a> {
        (self.direction, self.via, self.from, self.to)
    }
}

/// A resource of the side's graph, as parties and edge ends show it.
#[derive(Clone, Debug)]
struct EntityInfo<'a> {
    kind: &'a str,
    id: &'a str,
    resource: &'a Resource,
}

impl EntityInfo<'_> {
    fn party(&self) -> Party {
        Party {
            kind: self.kind.to_owned(),
            id: self.id.to_owned(),
            version: self.resource.get("version").and_then(Version::of),
            owners: owner_ids(self.resource),
        }
    }
}

/// One side's resolved graph, borrowed from its Index.
pub(super) struct Graph<'a> {
    edges: Vec<GraphEdge<'a>>,
    entities: Vec<EntityInfo<'a>>,
    first_by_id: FastMap<&'a str, usize>,
    /// Keyed by id and version (as [`Version::text_of`] writes it, `""` for none); the last
    /// entity wins.
    by_id_version: FastMap<(&'a str, Cow<'a, str>), usize>,
    /// Edge positions by target id, in graph order.
    by_target: FastMap<&'a str, Vec<usize>>,
}

impl<'a> Graph<'a> {
    pub fn new(index: &'a Index) -> Self {
        let resolved = resolve::resolve(std::slice::from_ref(index));
        let entities: Vec<EntityInfo> = resolved
            .entities
            .iter()
            .map(|entity| EntityInfo {
                kind: entity.resource.kind(),
                id: entity.resource.id(),
                resource: entity.resource,
            })
            .collect();
        let mut first_by_id = FastMap::default();
        let mut by_id_version = FastMap::default();
        for (i, entity) in entities.iter().enumerate() {
            first_by_id.entry(entity.id).or_insert(i);
            let version = entity.resource.get("version").and_then(Version::text_of);
            by_id_version.insert((entity.id, version.unwrap_or_default()), i);
        }
        let edges: Vec<GraphEdge> = resolved
            .edges
            .iter()
            .map(|edge| GraphEdge {
                direction: edge.direction,
                via: edge.via,
                from: edge.from,
                from_version: Version::text_of(edge.from_version),
                from_version_value: edge.from_version,
                to: edge.to,
                resolved: Version::text_of(edge.resolved),
                resolved_value: edge.resolved,
                is_resolved: edge.status == EdgeStatus::Resolved,
            })
            .collect();
        let mut by_target: FastMap<&str, Vec<usize>> = FastMap::default();
        for (i, edge) in edges.iter().enumerate() {
            by_target.entry(edge.to).or_default().push(i);
        }
        Graph {
            edges,
            entities,
            first_by_id,
            by_id_version,
            by_target,
        }
    }

    /// The entity an end names: by id and version, or the first with the id when it has none.
    fn find(&self, id: &str, version: Option<&str>) -> Option<&EntityInfo<'a>> {
        let at = match version {
            None => self.first_by_id.get(id),
            Some(version) => self.by_id_version.get(&(id, Cow::Borrowed(version))),
        };
        at.map(|&i| &self.entities[i])
    }

    fn end(&self, id: &str, version: Option<&str>, value: &Value) -> End {
        End {
            kind: self.find(id, version).map(|entity| entity.kind.to_owned()),
            id: id.to_owned(),
            version: Version::of(value),
        }
    }

    fn public(&self, edge: &GraphEdge) -> Edge {
        Edge {
            direction: edge.direction.to_owned(),
            from: self.end(
                edge.from,
                edge.from_version.as_deref(),
                edge.from_version_value,
            ),
            to: self.end(edge.to, edge.resolved.as_deref(), edge.resolved_value),
            via: edge.via.map(str::to_owned),
        }
    }

    /// One edge per identity, in first-seen order; a resolved one replaces an unresolved one.
    fn by_identity(&self) -> (Vec<Identity<'a>>, FastMap<Identity<'a>, &GraphEdge<'a>>) {
        let mut order = Vec::new();
        let mut map: FastMap<Identity, &GraphEdge> = FastMap::default();
        for edge in &self.edges {
            let key = edge.identity();
            match map.get(&key) {
                None => {
                    order.push(key);
                    map.insert(key, edge);
                }
                Some(existing) if !existing.is_resolved && edge.is_resolved => {
                    map.insert(key, edge);
                }
                Some(_) => {}
            }
        }
        (order, map)
    }

    /// The direct `direction` edges to a message version (any edge that did not resolve, and
    /// every version when none is given), as parties sorted by id then version.
    pub(super) fn parties(&self, direction: &str, id: &str, version: Option<&str>) -> Vec<Party> {
        let at = self
            .by_target
            .get(id)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let parties: Vec<Party> = at
            .iter()
            .map(|&i| &self.edges[i])
            .filter(|edge| {
                edge.direction == direction
                    && edge.via.is_none()
                    && edge.to == id
                    && (edge.resolved.is_none()
                        || version.is_none()
                        || edge.resolved.as_deref() == version)
            })
            .filter_map(|edge| self.find(edge.from, edge.from_version.as_deref()))
            .map(EntityInfo::party)
            .collect();
        sort_parties(parties)
    }
}

impl Graph<'_> {
    /// The version a direct pointer of `from` (its id and version) to `id` resolved to, when
    /// one did (a specification's owner names the version of the message it speaks of).
    pub(super) fn resolved_from(
        &self,
        from: (&str, Option<&str>),
        id: &str,
    ) -> Option<Option<String>> {
        self.by_target
            .get(id)?
            .iter()
            .map(|&i| &self.edges[i])
            .find(|e| {
                e.via.is_none()
                    && e.is_resolved
                    && e.from == from.0
                    && e.from_version.as_deref() == from.1
            })
            .map(|e| e.resolved.as_deref().map(str::to_owned))
    }
}

fn sort_parties(mut parties: Vec<Party>) -> Vec<Party> {
    js_sort_by(&mut parties, |x, y| {
        locale_cmp(&x.id, &y.id).then_with(|| {
            locale_cmp(
                x.version.as_deref().unwrap_or_default(),
                y.version.as_deref().unwrap_or_default(),
            )
        })
    });
    parties
}

fn owner_ids(resource: &Resource) -> Option<Vec<String>> {
    let Some(Value::Array(list)) = resource.get("owners") else {
        return None;
    };
    Some(
        list.iter()
            .filter_map(|owner| match owner {
                Value::String(id) => Some(id.clone()),
                Value::Object(map) => map.get("id").and_then(Value::as_str).map(str::to_owned),
                _ => None,
            })
            .collect(),
    )
}

pub(super) fn edge_changes(a: &Graph, b: &Graph) -> EdgeChanges {
    let (order_a, before) = a.by_identity();
    let (order_b, after) = b.by_identity();
    let mut changes = EdgeChanges::default();
    let keys = order_a
        .iter()
        .chain(order_b.iter().filter(|key| !before.contains_key(*key)));
    for key in keys {
        match (before.get(key), after.get(key)) {
            (None, Some(new)) => changes.added.push(b.public(new)),
            (Some(old), None) => changes.removed.push(a.public(old)),
            (Some(old), Some(new)) if old.is_resolved && !new.is_resolved => {
                changes.removed.push(a.public(old));
            }
            (Some(old), Some(new)) if !old.is_resolved && new.is_resolved => {
                changes.added.push(b.public(new));
            }
            _ => {}
        }
    }
    let order = |x: &Edge, y: &Edge| {
        locale_cmp(&x.direction, &y.direction)
            .then_with(|| locale_cmp(&x.from.id, &y.from.id))
            .then_with(|| locale_cmp(&x.to.id, &y.to.id))
            .then_with(|| {
                locale_cmp(
                    x.via.as_deref().unwrap_or_default(),
                    y.via.as_deref().unwrap_or_default(),
                )
            })
    };
    js_sort_by(&mut changes.added, order);
    js_sort_by(&mut changes.removed, order);
    changes
}

pub(super) fn impact(
    baseline: &Graph,
    schema_changes: &[SchemaChange],
    resources_removed: &[ResourceRef],
    edges_removed: &[Edge],
) -> Vec<Impact> {
    let is_message = |kind: &str| MESSAGE_TYPES.contains(&kind);
    let mut entries = Vec::new();
    for change in schema_changes {
        let (Some(true), Some(direction)) = (change.breaking, change.direction) else {
            continue;
        };
        let version = change.message.version.a.as_deref();
        entries.push(Impact {
            producers: baseline.parties("sends", &change.message.id, version),
            consumers: baseline.parties("receives", &change.message.id, version),
            message: ResourceRef {
                kind: change.message.kind.clone(),
                id: change.message.id.clone(),
                version: version.map(Version::from),
            },
            reason: ImpactReason::SchemaBreakingChange,
            direction: Some(direction),
        });
    }
    for removed in resources_removed.iter().filter(|r| is_message(&r.kind)) {
        let version = removed.version.as_deref();
        let producers = baseline.parties("sends", &removed.id, version);
        let consumers = baseline.parties("receives", &removed.id, version);
        if !producers.is_empty() || !consumers.is_empty() {
            entries.push(Impact {
                message: removed.clone(),
                reason: ImpactReason::MessageRemoved,
                direction: None,
                producers,
                consumers,
            });
        }
    }
    // A service that stopped sending or receiving a message none of whose versions was removed
    // (edges lost with a removed message are covered by message_removed).
    let removed_ids: Vec<&str> = resources_removed
        .iter()
        .filter(|r| is_message(&r.kind))
        .map(|r| r.id.as_str())
        .collect();
    let mut groups: Vec<Impact> = Vec::new();
    for edge in edges_removed {
        let Some(kind) = edge.to.kind.as_deref() else {
            continue;
        };
        if edge.via.is_some() || !is_message(kind) || removed_ids.contains(&edge.to.id.as_str()) {
            continue;
        }
        let reason = match edge.direction.as_str() {
            "sends" => ImpactReason::ProducerRemoved,
            "receives" => ImpactReason::ConsumerRemoved,
            _ => continue,
        };
        let at = match groups.iter().position(|group| {
            group.reason == reason && group.message.kind == kind && group.message.id == edge.to.id
        }) {
            Some(at) => at,
            None => {
                groups.push(Impact {
                    message: ResourceRef {
                        kind: kind.to_owned(),
                        id: edge.to.id.clone(),
                        version: None,
                    },
                    reason,
                    direction: None,
                    producers: Vec::new(),
                    consumers: Vec::new(),
                });
                groups.len() - 1
            }
        };
        if let Some(party) = baseline.find(&edge.from.id, edge.from.version.as_deref()) {
            let group = &mut groups[at];
            if reason == ImpactReason::ConsumerRemoved {
                group.consumers.push(party.party());
            } else {
                group.producers.push(party.party());
            }
        }
    }
    entries.extend(groups.into_iter().map(|group| Impact {
        producers: sort_parties(group.producers),
        consumers: sort_parties(group.consumers),
        ..group
    }));
    entries
}
