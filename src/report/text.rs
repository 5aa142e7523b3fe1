//! The report for a terminal: one titled section per kind of finding (breaking first, each op
//! with a word saying whether it breaks, and who is hurt), then one summary line. Colour only
//! when asked for; catalog text always escaped.

use std::fmt::Write;

use super::*;
use crate::diff::{ArchitectureDiff, Edge, End};

pub(super) struct Paint(bool);

impl Paint {
    pub(super) fn red(&self, s: &str) -> String {
        self.wrap("1;31", s)
    }
    pub(super) fn yellow(&self, s: &str) -> String {
        self.wrap("33", s)
    }
    pub(super) fn green(&self, s: &str) -> String {
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

pub fn text(diff: &ArchitectureDiff, context: &Context<'_>) -> String {
    let paint = Paint(context.color);
    let findings = Findings::of(diff);
    let mut out = String::new();
    let refs = &diff.refs;
    let _ = writeln!(
        out,
        "{} {} -> {}",
        paint.bold("catalog-diff"),
        short(&refs.a.commit),
        short(&refs.b.commit)
    );
    out.push_str(&breaking_sections(
        diff,
        &findings,
        context.locations,
        context.decision,
        &paint,
    ));

    if !findings.unknown.is_empty() {
        let title = "Schema changes without a verdict (a human needs to look)";
        let _ = writeln!(out, "\n{}", paint.yellow(title));
        for &change in &findings.unknown {
            let why = change.unknown_reason.as_deref().unwrap_or("no verdict");
            let _ = writeln!(
                out,
                "  NO VERDICT {}{}{} ({}) {}: {}",
                message_label(change),
                own_strategy(diff, change),
                against(diff, change),
                file_change(change.change),
                schema_file(change, context.locations),
                escape_text(why)
            );
            let fingerprint = crate::policy::unknown_fingerprint(change);
            if let Some(note) = unknown_note(&fingerprint, context.decision) {
                let _ = writeln!(out, "    {note}");
            }
        }
    }
    if !findings.in_neither_catalog.is_empty() {
        out.push('\n');
    }
    for &change in &findings.in_neither_catalog {
        let _ = writeln!(out, "note: {}", in_neither_note(change, context.locations));
    }
    if !findings.compatible.is_empty() {
        let _ = writeln!(out, "\n{}", paint.green("Compatible schema changes"));
        for &change in &findings.compatible {
            let _ = writeln!(
                out,
                "  ok {}{}  {}",
                message_label(change),
                own_strategy(diff, change),
                schema_file(change, context.locations)
            );
            for op in &change.ops {
                let _ = writeln!(out, "    {}", op_line(op, &paint));
            }
        }
    }
    out.push_str(&super::specification::text_rest(
        diff,
        context.decision,
        &paint,
    ));

    let resources = &diff.resources;
    if !(resources.added.is_empty() && resources.removed.is_empty() && resources.changed.is_empty())
    {
        let _ = writeln!(out, "\nResources");
        for (verb, list) in [("added", &resources.added), ("removed", &resources.removed)] {
            for r in list {
                let label = format!(
                    "{} {}{}",
                    r.kind,
                    r.id,
                    version_suffix(r.version.as_deref())
                );
                let _ = writeln!(out, "  {verb} {}", escape_text(&label));
            }
        }
        for r in &resources.changed {
            let (a, b) = (
                r.version.a.as_deref().unwrap_or("(none)"),
                r.version.b.as_deref().unwrap_or("(none)"),
            );
            let label = format!("{} {} {a} -> {b}", r.kind, r.id);
            let _ = writeln!(
                out,
                "  changed {} ({})",
                escape_text(&label),
                r.fields.join(", ")
            );
        }
    }
    if !(diff.edges.added.is_empty() && diff.edges.removed.is_empty()) {
        let _ = writeln!(out, "\nEdges");
        for e in &diff.edges.added {
            let _ = writeln!(out, "  added {}", edge_label(e));
        }
        for e in &diff.edges.removed {
            let _ = writeln!(out, "  removed {}", edge_label(e));
        }
    }
    if !findings.stopped_using.is_empty() {
        let _ = writeln!(out, "\nStopped using a message that still exists");
        for impact in &findings.stopped_using {
            let _ = writeln!(out, "  {}: {}", impact_label(impact), hurt_line(impact));
        }
    }
    if !findings.problems.is_empty() {
        let _ = writeln!(out, "\n{}", paint.yellow("Catalog problems"));
        for (sides, diagnostic) in &findings.problems {
            // A problem's text is escaped by its Display; its lines are the hint's.
            for (n, line) in diagnostic.to_string().lines().enumerate() {
                if n == 0 {
                    let _ = writeln!(out, "  {sides}: {line}");
                } else {
                    let _ = writeln!(out, "  {line}");
                }
            }
        }
    }
    if let Some(line) = context.decision.and_then(policy_line) {
        let _ = writeln!(out, "\n{line}");
    }
    let summary = summary_line(diff, context.decision);
    let summary = if diff.is_breaking() {
        paint.red(&summary)
    } else if unjudged(diff) > 0 {
        paint.yellow(&summary)
    } else {
        paint.green(&summary)
    };
    let _ = writeln!(out, "\n{summary}");
    out
}

/// The breaking schema changes (each op explained, who is hurt) and the messages removed while
/// in use: the part of the report `log` repeats under each breaking commit, each break's
/// fingerprint with its acknowledgement when the diff carries the policy's decision.
pub fn breaking_details(diff: &ArchitectureDiff, locations: &Locations, color: bool) -> String {
    let decision = diff.policy.as_ref();
    breaking_sections(
        diff,
        &Findings::of(diff),
        locations,
        decision,
        &Paint(color),
    )
}

fn breaking_sections(
    diff: &ArchitectureDiff,
    findings: &Findings<'_>,
    locations: &Locations,
    decision: Option<&crate::policy::Decision>,
    paint: &Paint,
) -> String {
    let mut out = String::new();
    if !findings.breaking.is_empty() {
        let _ = writeln!(out, "\n{}", paint.red("Breaking schema changes"));
        for &change in &findings.breaking {
            let direction = change.direction.map(|d| d.as_str()).unwrap_or("?");
            let _ = writeln!(
                out,
                "  {} {}{} ({direction})  {}",
                paint.red("BREAKING"),
                message_label(change),
                own_strategy(diff, change),
                schema_file(change, locations)
            );
            for op in &change.ops {
                let _ = writeln!(out, "    {}", op_line(op, paint));
                if op.breaking {
                    let fingerprint = crate::policy::op_fingerprint(change, op);
                    let _ = writeln!(
                        out,
                        "           {}",
                        fingerprint_note(&fingerprint, decision)
                    );
                }
            }
            if let Some(impact) = impact_of(diff, change) {
                let _ = writeln!(out, "    hurt: {}", hurt_line(impact));
            }
        }
    }
    if !findings.transitive.is_empty() {
        let title = "Breaking against earlier versions (transitive strategy)";
        let _ = writeln!(out, "\n{}", paint.red(title));
        for &change in &findings.transitive {
            let direction = change.direction.map(|d| d.as_str()).unwrap_or("?");
            let _ = writeln!(
                out,
                "  {} {} ({direction}, against {})  {}",
                paint.red("BREAKING"),
                message_label(change),
                against_label(change),
                schema_file(change, locations)
            );
            for op in change.ops.iter().filter(|op| op.breaking) {
                let _ = writeln!(out, "    {}", op_line(op, paint));
                let fingerprint = crate::policy::op_fingerprint(change, op);
                let _ = writeln!(
                    out,
                    "           {}",
                    fingerprint_note(&fingerprint, decision)
                );
            }
        }
    }
    if !findings.removed_in_use.is_empty() {
        let _ = writeln!(out, "\n{}", paint.red("Messages removed while in use"));
        for impact in &findings.removed_in_use {
            let _ = writeln!(
                out,
                "  {} {} removed; {}",
                paint.red("BREAKING"),
                impact_label(impact),
                hurt_line(impact)
            );
            let fingerprint = crate::policy::impact_fingerprint(impact);
            let _ = writeln!(out, "    {}", fingerprint_note(&fingerprint, decision));
        }
    }
    out.push_str(&super::specification::text_breaking(diff, decision, paint));
    out
}

/// ` [strategy backward]` for a change judged under a strategy of its own (set per message),
/// not the one the summary line names.
fn own_strategy(diff: &ArchitectureDiff, change: &crate::diff::SchemaChange) -> String {
    if change.strategy == diff.compatibility.strategy {
        return String::new();
    }
    format!(" [strategy {}]", change.strategy)
}

/// `policy: 2 break(s) acknowledged, 1 open, 1 acknowledgement expired; 1 unused`, when an
/// acknowledgement is in play.
pub(super) fn policy_line(decision: &crate::policy::Decision) -> Option<String> {
    policy_line_naming(decision, true)
}

/// [`policy_line`], with the acknowledgements that match nothing named by their lines, or only
/// counted (where a report names each at its own line already).
pub(super) fn policy_line_naming(
    decision: &crate::policy::Decision,
    unused_lines: bool,
) -> Option<String> {
    use crate::policy::Status;
    if decision.breaks.iter().all(|b| b.ack.is_none()) && decision.unused_acks.is_empty() {
        return None;
    }
    let count = |status| {
        decision
            .breaks
            .iter()
            .filter(|b| b.status == status)
            .count()
    };
    let mut line = format!(
        "policy: {} break(s) acknowledged, {} open, {} acknowledgement(s) expired",
        count(Status::Acknowledged),
        count(Status::Open),
        count(Status::Expired)
    );
    let unused = decision.unused_acks.len();
    if unused > 0 && !unused_lines {
        line.push_str(&format!("; {unused} acknowledgement(s) match nothing here"));
    } else if unused > 0 {
        let lines: Vec<String> = decision
            .unused_acks
            .iter()
            .map(|a| format!("{}:{}", crate::policy::ACK_FILE, a.line))
            .collect();
        line.push_str(&format!(
            "; acknowledgements that match nothing here: {}",
            lines.join(", ")
        ));
    }
    Some(line)
}

/// `breaks /properties/id [required.added] reason` or `ok     ...`: a word, not a symbol.
pub(super) fn op_line(op: &crate::schema::Op, paint: &Paint) -> String {
    let word = if op.breaking {
        paint.red("breaks")
    } else {
        "ok    ".to_owned()
    };
    format!(
        "{word} {} [{}] {}",
        pointer(&op.path),
        op.kind,
        escape_text(&op.explanation)
    )
}

fn file_change(change: crate::diff::FileChange) -> &'static str {
    match change {
        crate::diff::FileChange::Modified => "modified",
        crate::diff::FileChange::Added => "added",
        crate::diff::FileChange::Removed => "removed",
    }
}

fn short(commit: &str) -> &str {
    if commit.len() == 40 {
        &commit[..12]
    } else {
        super::ref_label(commit)
    }
}

fn version_suffix(version: Option<&str>) -> String {
    version.map(|v| format!(" {v}")).unwrap_or_default()
}

/// `event OrderPlaced 1.0.0`, `(not in catalog) OrderPlaced` (escaped).
pub(super) fn end_label(end: &End) -> String {
    let kind = end
        .kind
        .as_deref()
        .map(|k| format!("{k} "))
        .unwrap_or_else(|| "(not in catalog) ".into());
    let label = format!("{kind}{}{}", end.id, version_suffix(end.version.as_deref()));
    escape_text(&label).into_owned()
}

/// `service A 1.0.0 sends event B 2.0.0 via channel C` (escaped).
pub(super) fn edge_label(edge: &Edge) -> String {
    let via = edge
        .via
        .as_deref()
        .map(|v| format!(" via {}", escape_text(v)))
        .unwrap_or_default();
    format!(
        "{} {} {}{via}",
        end_label(&edge.from),
        escape_text(&edge.direction),
        end_label(&edge.to)
    )
}
