//! The report for a terminal: breaking changes first, each with its ops explained and who is
//! hurt, then the rest, then one summary line. Colour only when asked for.

use std::fmt::Write;

use super::*;
use crate::diff::{ArchitectureDiff, Edge, End, ImpactReason};

struct Paint(bool);

impl Paint {
    fn red(&self, s: &str) -> String {
        self.wrap("1;31", s)
    }
    fn yellow(&self, s: &str) -> String {
        self.wrap("33", s)
    }
    fn green(&self, s: &str) -> String {
        self.wrap("32", s)
    }
    fn bold(&self, s: &str) -> String {
        self.wrap("1", s)
    }
    fn wrap(&self, code: &str, s: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    }
}

pub fn text(diff: &ArchitectureDiff, color: bool) -> String {
    let paint = Paint(color);
    let mut out = String::new();
    let refs = &diff.refs;
    let _ = writeln!(
        out,
        "{} {} -> {}",
        paint.bold("catalog-diff"),
        short(&refs.a.commit),
        short(&refs.b.commit)
    );

    out.push_str(&breaking_section(diff, &paint));

    let unknown: Vec<_> = diff
        .schema_changes
        .iter()
        .filter(|c| c.breaking.is_none())
        .collect();
    if !unknown.is_empty() {
        let _ = writeln!(
            out,
            "\n{}",
            paint.yellow("Schema changes without a verdict (a human needs to look)")
        );
        for change in unknown {
            let why = change.unknown_reason.as_deref().unwrap_or("no verdict");
            let _ = writeln!(
                out,
                "  ? {} {:?} {}: {why}",
                message_label(change),
                change.change,
                schema_path(change)
            );
        }
    }
    let compatible: Vec<_> = diff
        .schema_changes
        .iter()
        .filter(|c| c.breaking == Some(false))
        .collect();
    if !compatible.is_empty() {
        let _ = writeln!(out, "\n{}", paint.green("Compatible schema changes"));
        for change in compatible {
            let _ = writeln!(
                out,
                "  ok {}  {}",
                message_label(change),
                schema_path(change)
            );
            for op in &change.ops {
                let _ = writeln!(
                    out,
                    "    - {} [{}] {}",
                    pointer(&op.path),
                    op.kind,
                    op.reason
                );
            }
        }
    }

    let resources = &diff.resources;
    if !(resources.added.is_empty() && resources.removed.is_empty() && resources.changed.is_empty())
    {
        let _ = writeln!(out, "\nResources");
        for r in &resources.added {
            let _ = writeln!(out, "  + {} {}{}", r.kind, r.id, version_suffix(&r.version));
        }
        for r in &resources.removed {
            let _ = writeln!(out, "  - {} {}{}", r.kind, r.id, version_suffix(&r.version));
        }
        for r in &resources.changed {
            let (a, b) = (
                r.version.a.as_deref().unwrap_or("-"),
                r.version.b.as_deref().unwrap_or("-"),
            );
            let _ = writeln!(
                out,
                "  ~ {} {} {a} -> {b} ({})",
                r.kind,
                r.id,
                r.fields.join(", ")
            );
        }
    }
    if !(diff.edges.added.is_empty() && diff.edges.removed.is_empty()) {
        let _ = writeln!(out, "\nEdges");
        for e in &diff.edges.added {
            let _ = writeln!(out, "  + {}", edge_label(e));
        }
        for e in &diff.edges.removed {
            let _ = writeln!(out, "  - {}", edge_label(e));
        }
    }
    let dropped: Vec<_> = diff
        .impact
        .iter()
        .filter(|i| {
            matches!(
                i.reason,
                ImpactReason::ConsumerRemoved | ImpactReason::ProducerRemoved
            )
        })
        .collect();
    if !dropped.is_empty() {
        let _ = writeln!(out, "\nStopped using a message that still exists");
        for impact in dropped {
            let _ = writeln!(
                out,
                "  {} {}: {}",
                impact.message.kind,
                impact.message.id,
                hurt_line(impact)
            );
        }
    }
    if !diff.diagnostics.is_empty() {
        let _ = writeln!(out, "\n{}", paint.yellow("Catalog problems"));
        for d in &diff.diagnostics {
            let _ = writeln!(out, "  [{}] {}", d.side, d.diagnostic);
        }
    }
    let summary = summary_line(diff);
    let summary = if diff.summary.breaking {
        paint.red(&summary)
    } else {
        paint.green(&summary)
    };
    let _ = writeln!(out, "\n{summary}");
    out
}

/// The breaking schema changes (each op explained, who is hurt) and the messages removed while
/// in use: the part of the report `log` repeats under each breaking commit.
pub fn breaking_details(diff: &ArchitectureDiff, color: bool) -> String {
    breaking_section(diff, &Paint(color))
}

fn breaking_section(diff: &ArchitectureDiff, paint: &Paint) -> String {
    let mut out = String::new();
    let breaking: Vec<_> = diff
        .schema_changes
        .iter()
        .filter(|c| c.breaking == Some(true))
        .collect();
    if !breaking.is_empty() {
        let _ = writeln!(out, "\n{}", paint.red("Breaking schema changes"));
        for change in breaking {
            let direction = change.direction.map(|d| d.as_str()).unwrap_or("?");
            let _ = writeln!(
                out,
                "  {} {} ({})  {}",
                paint.red("BREAKING"),
                message_label(change),
                direction,
                schema_path(change)
            );
            for op in &change.ops {
                let mark = if op.breaking {
                    paint.red("x")
                } else {
                    "-".to_owned()
                };
                let _ = writeln!(
                    out,
                    "    {mark} {} [{}] {}",
                    pointer(&op.path),
                    op.kind,
                    op.reason
                );
            }
            if let Some(impact) = impact_of(diff, change) {
                let _ = writeln!(out, "    hurt: {}", hurt_line(impact));
            }
        }
    }
    for impact in diff
        .impact
        .iter()
        .filter(|i| i.reason == ImpactReason::MessageRemoved)
    {
        let _ = writeln!(
            out,
            "  {} {} {}{} removed while in use; {}",
            paint.red("BREAKING"),
            impact.message.kind,
            impact.message.id,
            impact
                .message
                .version
                .as_deref()
                .map(|v| format!(" {v}"))
                .unwrap_or_default(),
            hurt_line(impact)
        );
    }
    out
}

fn short(commit: &str) -> &str {
    if commit.len() == 40 {
        &commit[..12]
    } else {
        commit
    }
}

fn version_suffix(version: &Option<String>) -> String {
    version
        .as_deref()
        .map(|v| format!(" {v}"))
        .unwrap_or_default()
}

pub(super) fn end_label(end: &End) -> String {
    let kind = end
        .kind
        .as_deref()
        .map(|k| format!("{k} "))
        .unwrap_or_else(|| "(not in catalog) ".into());
    format!("{kind}{}{}", end.id, version_suffix(&end.version))
}

pub(super) fn edge_label(edge: &Edge) -> String {
    let via = edge
        .via
        .as_deref()
        .map(|v| format!(" via {v}"))
        .unwrap_or_default();
    format!(
        "{} {} {}{via}",
        end_label(&edge.from),
        edge.direction,
        end_label(&edge.to)
    )
}
