//! Rendering an ArchitectureDiff for people and machines. Formatting only: every decision
//! (what breaks, who is hurt) was made by `diff`.

mod github;
mod markdown;
mod text;

use crate::diff::{ArchitectureDiff, Impact, Party, SchemaChange};

pub use github::{Annotation, github};
pub use markdown::markdown;
pub use text::{breaking_details, text};

/// `event OrderPlaced 1.0.0 -> 2.0.0`, or one version when both sides agree.
pub fn message_label(change: &SchemaChange) -> String {
    let message = &change.message;
    let versions = match (&message.version.a, &message.version.b) {
        (Some(a), Some(b)) if a != b => format!(" {a} -> {b}"),
        (Some(v), _) | (None, Some(v)) => format!(" {v}"),
        (None, None) => String::new(),
    };
    format!("{} {}{versions}", message.kind, message.id)
}

/// The schema file a change is about, as the index names it.
pub fn schema_path(change: &SchemaChange) -> &str {
    change
        .after
        .as_ref()
        .or(change.before.as_ref())
        .map(|f| f.path.as_str())
        .unwrap_or_default()
}

/// `billing-service 1.4.0 (team-billing)`.
pub fn party_label(party: &Party) -> String {
    let mut label = format!("{} {}", party.kind, party.id);
    if let Some(version) = &party.version {
        label.push(' ');
        label.push_str(version);
    }
    if let Some(owners) = party.owners.as_ref().filter(|o| !o.is_empty()) {
        label.push_str(&format!(" ({})", owners.join(", ")));
    }
    label
}

/// Who a breaking schema change hurts, in one line.
pub fn hurt_line(impact: &Impact) -> String {
    let list = |parties: &[Party]| {
        if parties.is_empty() {
            "none".to_owned()
        } else {
            parties
                .iter()
                .map(party_label)
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    format!(
        "consumers: {}; producers: {}",
        list(&impact.consumers),
        list(&impact.producers)
    )
}

/// The impact entry of a breaking schema change, if any.
pub fn impact_of<'a>(diff: &'a ArchitectureDiff, change: &SchemaChange) -> Option<&'a Impact> {
    diff.impact.iter().find(|i| {
        i.reason == crate::diff::ImpactReason::SchemaBreakingChange
            && i.message.kind == change.message.kind
            && i.message.id == change.message.id
            && i.message.version == change.message.version.a
    })
}

/// The one-line summary every format ends with.
pub fn summary_line(diff: &ArchitectureDiff) -> String {
    let verdict = if diff.summary.breaking {
        "BREAKING"
    } else {
        "compatible"
    };
    format!(
        "{verdict}: {} [strategy {}]",
        counts(&diff.summary),
        diff.compatibility.strategy
    )
}

/// `1 schema change(s) (1 breaking, 0 unknown), resources +0 -0 ~0, edges +0 -0`.
pub fn counts(s: &crate::diff::Summary) -> String {
    format!(
        "{} schema change(s) ({} breaking, {} unknown), resources +{} -{} ~{}, edges +{} -{}",
        s.schema_changes,
        s.schema_breaking,
        s.schema_unknown,
        s.resources_added,
        s.resources_removed,
        s.resources_changed,
        s.edges_added,
        s.edges_removed,
    )
}

/// A JSON pointer for display; the empty pointer is the document root.
pub fn pointer(path: &str) -> &str {
    if path.is_empty() { "(root)" } else { path }
}
