//! Edges and impact: each side's resolved graph, the edges added and removed between them, and
//! who is hurt (producers and consumers with their owners, always from the baseline graph).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::Value;

use super::*;
use crate::catalog::resolve::{self, EdgeStatus};
use crate::catalog::{Index, Resource};

/// One resolved pointer, with both ends typed where they resolve.
#[derive(Clone, Debug)]
pub(super) struct GraphEdge {
    pub direction: String,
    pub via: Option<String>,
    pub from: End,
    pub from_owners: Option<Vec<String>>,
    pub to: End,
    pub status: EdgeStatus,
}

impl GraphEdge {
    /// Present for the diff: resolved, or pointing outside the catalog. An unresolved pointer
    /// (the id exists, no version matches) is an edge that no longer holds.
    fn present(&self) -> bool {
        self.status != EdgeStatus::Unresolved
    }

    fn key(&self) -> (String, Option<String>, String, String) {
        (
            self.direction.clone(),
            self.via.clone(),
            self.from.id.clone(),
            self.to.id.clone(),
        )
    }

    fn public(&self) -> Edge {
        Edge {
            direction: self.direction.clone(),
            from: self.from.clone(),
            to: self.to.clone(),
            via: self.via.clone(),
        }
    }

    fn party(&self) -> Party {
        Party {
            kind: self.from.kind.clone().unwrap_or_default(),
            id: self.from.id.clone(),
            version: self.from.version.clone(),
            owners: self.from_owners.clone(),
        }
    }

    /// A direct `sends`/`receives` edge to this message version (or one that resolved nowhere).
    fn touches(&self, direction: &str, message: &ResourceRef) -> bool {
        self.direction == direction
            && self.via.is_none()
            && self.to.id == message.id
            && match self.status {
                EdgeStatus::Resolved => {
                    self.to.kind.as_deref() == Some(message.kind.as_str())
                        && self.to.version == message.version
                }
                EdgeStatus::Unresolved | EdgeStatus::External => true,
            }
    }
}

/// (type, id, version) of a resource.
type ResourceKey<'a> = (&'a str, &'a str, Option<&'a str>);

pub(super) struct Graph {
    edges: Vec<GraphEdge>,
    /// Edge positions by target id: impact asks for the parties of each changed message.
    by_target: HashMap<String, Vec<usize>>,
}

impl Graph {
    pub fn new(index: &Index) -> Self {
        let owners: BTreeMap<ResourceKey, Option<Vec<String>>> = index
            .resources
            .iter()
            .map(|r| ((r.kind(), r.id(), r.version()), owner_ids(r)))
            .collect();
        let edges: Vec<GraphEdge> = resolve::resolve(std::slice::from_ref(index))
            .edges
            .iter()
            .map(|edge| {
                let from_version = edge.from_version.as_str().map(str::to_owned);
                let from_owners = owners
                    .get(&(
                        edge.from_type.as_str(),
                        edge.from.as_str(),
                        from_version.as_deref(),
                    ))
                    .cloned()
                    .flatten();
                GraphEdge {
                    direction: edge.direction.to_owned(),
                    via: edge.via.map(str::to_owned),
                    from: End {
                        kind: Some(edge.from_type.clone()),
                        id: edge.from.clone(),
                        version: from_version,
                    },
                    from_owners,
                    to: End {
                        kind: edge.to_type.clone(),
                        id: edge.to.clone(),
                        version: match edge.status {
                            EdgeStatus::Resolved => edge.resolved.as_str(),
                            _ => edge.pointer.as_str(),
                        }
                        .map(str::to_owned),
                    },
                    status: edge.status,
                }
            })
            .collect();
        let mut by_target: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, edge) in edges.iter().enumerate() {
            by_target.entry(edge.to.id.clone()).or_default().push(i);
        }
        Graph { edges, by_target }
    }

    /// One edge per identity; a resolved one wins over the others.
    fn by_identity(&self) -> BTreeMap<(String, Option<String>, String, String), &GraphEdge> {
        let mut map: BTreeMap<_, &GraphEdge> = BTreeMap::new();
        for edge in &self.edges {
            let slot = map.entry(edge.key()).or_insert(edge);
            if slot.status != EdgeStatus::Resolved && edge.status == EdgeStatus::Resolved {
                *slot = edge;
            }
        }
        map
    }

    pub(super) fn parties(&self, direction: &str, message: &ResourceRef) -> Vec<Party> {
        let at = self.by_target.get(&message.id).map(Vec::as_slice);
        let set: BTreeSet<Party> = at
            .unwrap_or_default()
            .iter()
            .map(|&i| &self.edges[i])
            .filter(|e| e.touches(direction, message))
            .map(GraphEdge::party)
            .collect();
        set.into_iter().collect()
    }
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

impl Graph {
    /// The version a direct pointer of `from` to the message `kind` `id` resolved to, when one
    /// did (a specification's owner names the version it speaks of).
    pub(super) fn resolved_from(
        &self,
        from: &ResourceRef,
        kind: &str,
        id: &str,
    ) -> Option<Option<String>> {
        self.by_target
            .get(id)?
            .iter()
            .map(|&i| &self.edges[i])
            .find(|e| {
                e.via.is_none()
                    && e.status == EdgeStatus::Resolved
                    && e.to.kind.as_deref() == Some(kind)
                    && e.from.kind.as_deref() == Some(from.kind.as_str())
                    && e.from.id == from.id
                    && e.from.version == from.version
            })
            .map(|e| e.to.version.clone())
    }
}

pub(super) fn edge_changes(a: &Graph, b: &Graph) -> EdgeChanges {
    let (before, after) = (a.by_identity(), b.by_identity());
    let present =
        |map: &BTreeMap<_, &GraphEdge>, key: &_| map.get(key).is_some_and(|e| e.present());
    let mut changes = EdgeChanges {
        added: after
            .iter()
            .filter(|(k, e)| e.present() && !present(&before, k))
            .map(|(_, e)| e.public())
            .collect(),
        removed: before
            .iter()
            .filter(|(k, e)| e.present() && !present(&after, k))
            .map(|(_, e)| e.public())
            .collect(),
    };
    changes.added.sort();
    changes.removed.sort();
    changes
}

pub(super) fn impact(
    baseline: &Graph,
    in_candidate: &dyn Fn(&str, &str) -> bool,
    schema_changes: &[SchemaChange],
    removed_messages: &[&Resource],
    edges: &EdgeChanges,
) -> Vec<Impact> {
    let mut entries = Vec::new();
    for change in schema_changes.iter().filter(|c| c.breaking == Some(true)) {
        let message = ResourceRef {
            kind: change.message.kind.clone(),
            id: change.message.id.clone(),
            version: change.message.version.a.clone(),
        };
        entries.push(Impact {
            producers: baseline.parties("sends", &message),
            consumers: baseline.parties("receives", &message),
            message,
            reason: ImpactReason::SchemaBreakingChange,
            direction: change.direction,
        });
    }
    for removed in removed_messages {
        let message = ResourceRef {
            kind: removed.kind().to_owned(),
            id: removed.id().to_owned(),
            version: removed.version().map(str::to_owned),
        };
        let (producers, consumers) = (
            baseline.parties("sends", &message),
            baseline.parties("receives", &message),
        );
        if !producers.is_empty() || !consumers.is_empty() {
            entries.push(Impact {
                message,
                reason: ImpactReason::MessageRemoved,
                direction: None,
                producers,
                consumers,
            });
        }
    }
    // A service that stopped sending or receiving a message that still exists.
    let mut dropped: BTreeMap<(String, String, ImpactReason), BTreeSet<Party>> = BTreeMap::new();
    for edge in edges.removed.iter().filter(|e| e.via.is_none()) {
        let reason = match edge.direction.as_str() {
            "sends" => ImpactReason::ProducerRemoved,
            "receives" => ImpactReason::ConsumerRemoved,
            _ => continue,
        };
        let Some(kind) = edge.to.kind.as_deref() else {
            continue;
        };
        if !in_candidate(kind, &edge.to.id) {
            continue;
        }
        let party = baseline
            .edges
            .iter()
            .find(|g| {
                g.key()
                    == (
                        edge.direction.clone(),
                        None,
                        edge.from.id.clone(),
                        edge.to.id.clone(),
                    )
            })
            .map(GraphEdge::party);
        if let Some(party) = party {
            dropped
                .entry((kind.to_owned(), edge.to.id.clone(), reason))
                .or_default()
                .insert(party);
        }
    }
    for ((kind, id, reason), parties) in dropped {
        let parties: Vec<Party> = parties.into_iter().collect();
        let (producers, consumers) = if reason == ImpactReason::ProducerRemoved {
            (parties, Vec::new())
        } else {
            (Vec::new(), parties)
        };
        entries.push(Impact {
            message: ResourceRef {
                kind,
                id,
                version: None,
            },
            reason,
            direction: None,
            producers,
            consumers,
        });
    }
    entries.sort_by(|x, y| {
        (&x.message.kind, &x.message.id, &x.message.version, x.reason).cmp(&(
            &y.message.kind,
            &y.message.id,
            &y.message.version,
            y.reason,
        ))
    });
    entries
}
