//! The specification changes of a diff, for every renderer: labels and the sections each
//! format shows (breaking ones in full with who is hurt, those without a verdict with why, the
//! compatible ones). Formatting only; catalog text escaped like everywhere else.

use std::fmt::Write;

use super::markdown::{escape_markdown, note, unknown_md_note};
use super::text::{Paint, op_line};
use super::*;
use crate::diff::SpecificationChange;

/// `asyncapi of service OrderService 1.0.0 -> 1.1.0` (escaped).
pub fn label(change: &SpecificationChange) -> String {
    let resource = &change.resource;
    let versions = match (&resource.version.a, &resource.version.b) {
        (Some(a), Some(b)) if a != b => format!(" {a} -> {b}"),
        (Some(v), _) | (None, Some(v)) => format!(" {v}"),
        (None, None) => String::new(),
    };
    let kind = if change.kind.is_empty() {
        "specification"
    } else {
        change.kind.as_str()
    };
    escape_text(&format!(
        "{kind} of {} {}{versions}",
        resource.kind, resource.id
    ))
    .into_owned()
}

/// The specification's file in the catalog (escaped).
pub fn file(change: &SpecificationChange) -> String {
    let path = match &change.place {
        Some((file, _)) => file.as_str(),
        None => change
            .after
            .as_ref()
            .or(change.before.as_ref())
            .map_or("", |f| f.path.as_str()),
    };
    escape_text(path).into_owned()
}

fn breaking(diff: &ArchitectureDiff) -> impl Iterator<Item = &SpecificationChange> {
    diff.specification_changes
        .iter()
        .filter(|c| c.breaking == Some(true))
}

fn unknown(diff: &ArchitectureDiff) -> impl Iterator<Item = &SpecificationChange> {
    diff.specification_changes
        .iter()
        .filter(|c| c.breaking.is_none())
}

fn compatible(diff: &ArchitectureDiff) -> impl Iterator<Item = &SpecificationChange> {
    diff.specification_changes
        .iter()
        .filter(|c| c.breaking == Some(false))
}

fn why(change: &SpecificationChange) -> String {
    escape_text(change.unknown_reason.as_deref().unwrap_or("no verdict")).into_owned()
}

fn hurt(impact: &Impact) -> String {
    format!("{}: {}", impact_label(impact), hurt_line(impact))
}

/// The breaking specification changes, for the text report and `log`.
pub(super) fn text_breaking(
    diff: &ArchitectureDiff,
    decision: Option<&crate::policy::Decision>,
    paint: &Paint,
) -> String {
    let mut out = String::new();
    let mut changes = breaking(diff).peekable();
    if changes.peek().is_none() {
        return out;
    }
    let _ = writeln!(out, "\n{}", paint.red("Breaking specification changes"));
    for change in changes {
        let direction = change.direction.map_or("?", |d| d.as_str());
        let _ = writeln!(
            out,
            "  {} {} ({direction})  {}",
            paint.red("BREAKING"),
            label(change),
            file(change)
        );
        for op in &change.ops {
            let _ = writeln!(out, "    {}", op_line(op, paint));
            if op.breaking {
                let fingerprint = crate::policy::specification_op_fingerprint(change, op);
                let _ = writeln!(
                    out,
                    "           {}",
                    fingerprint_note(&fingerprint, decision)
                );
            }
        }
        for part in &change.unknown {
            let _ = writeln!(
                out,
                "    no verdict {}: {}",
                pointer(&part.path),
                escape_text(&part.reason)
            );
        }
        if change.is_unjudged() {
            let fingerprint = crate::policy::specification_unknown_fingerprint(change);
            if let Some(note) = unknown_note(&fingerprint, decision) {
                let _ = writeln!(out, "           {note}");
            }
        }
        for impact in &change.impact {
            let _ = writeln!(out, "    hurt: {}", hurt(impact));
        }
        if change.impact.is_empty() {
            let _ = writeln!(out, "    hurt: no catalog message matches what changed");
        }
    }
    out
}

/// The other specification changes: without a verdict, then compatible.
pub(super) fn text_rest(
    diff: &ArchitectureDiff,
    decision: Option<&crate::policy::Decision>,
    paint: &Paint,
) -> String {
    let mut out = String::new();
    let mut none = unknown(diff).peekable();
    if none.peek().is_some() {
        let title = "Specification changes without a verdict (a human needs to look)";
        let _ = writeln!(out, "\n{}", paint.yellow(title));
        for change in none {
            let _ = writeln!(
                out,
                "  NO VERDICT {} ({}) {}: {}",
                label(change),
                file_change(change.change),
                file(change),
                why(change)
            );
            let fingerprint = crate::policy::specification_unknown_fingerprint(change);
            if let Some(note) = unknown_note(&fingerprint, decision) {
                let _ = writeln!(out, "    {note}");
            }
            for op in &change.ops {
                let _ = writeln!(out, "    {}", op_line(op, paint));
            }
            for part in &change.unknown {
                let _ = writeln!(
                    out,
                    "    no verdict {}: {}",
                    pointer(&part.path),
                    escape_text(&part.reason)
                );
            }
        }
    }
    let mut ok = compatible(diff).peekable();
    if ok.peek().is_some() {
        let _ = writeln!(out, "\n{}", paint.green("Compatible specification changes"));
        for change in ok {
            let _ = writeln!(out, "  ok {}  {}", label(change), file(change));
            for op in &change.ops {
                let _ = writeln!(out, "    {}", op_line(op, paint));
            }
        }
    }
    out
}

fn file_change(change: crate::diff::FileChange) -> &'static str {
    match change {
        crate::diff::FileChange::Modified => "modified",
        crate::diff::FileChange::Added => "added",
        crate::diff::FileChange::Removed => "removed",
    }
}

/// The Markdown sections (empty without specification changes).
pub(super) fn markdown(
    diff: &ArchitectureDiff,
    decision: Option<&crate::policy::Decision>,
) -> String {
    let md = escape_markdown;
    let mut out = String::new();
    let Some(counts) = &diff.summary.specifications else {
        return out;
    };
    let _ = writeln!(
        out,
        "Specifications: {} changed, {} breaking, {} with something not judged.\n",
        counts.specification_changes, counts.specification_breaking, counts.specification_unknown
    );
    let mut changes = breaking(diff).peekable();
    if changes.peek().is_some() {
        let _ = writeln!(out, "#### Breaking specification changes\n");
        for change in changes {
            let direction = change.direction.map_or("?", |d| d.as_str());
            let _ = writeln!(
                out,
                "- **{}** ({}, {direction})",
                md(&label(change)),
                md(&file(change))
            );
            for op in change.ops.iter().filter(|op| op.breaking) {
                let fingerprint = crate::policy::specification_op_fingerprint(change, op);
                let _ = writeln!(
                    out,
                    "  - {} \\[{}\\]: {}{}",
                    md(&pointer(&op.path)),
                    op.kind,
                    md(&op.explanation),
                    note(&fingerprint, decision)
                );
            }
            let fingerprint = crate::policy::specification_unknown_fingerprint(change);
            for (n, part) in change.unknown.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "  - no verdict {}: {}{}",
                    md(&pointer(&part.path)),
                    md(&escape_text(&part.reason)),
                    // One fingerprint covers every part of the change: noted once.
                    if n == 0 {
                        unknown_md_note(&fingerprint, decision)
                    } else {
                        String::new()
                    }
                );
            }
            for impact in &change.impact {
                let _ = writeln!(out, "  - hurt: {}", md(&hurt(impact)));
            }
        }
        out.push('\n');
    }
    let none: Vec<String> = unknown(diff)
        .map(|c| {
            let fingerprint = crate::policy::specification_unknown_fingerprint(c);
            format!(
                "{} ({}): {}{}",
                md(&label(c)),
                md(&file(c)),
                md(&why(c)),
                unknown_md_note(&fingerprint, decision)
            )
        })
        .collect();
    super::markdown::section(
        &mut out,
        "Specification changes without a verdict (a human needs to look)",
        &none,
    );
    let ok: Vec<String> = compatible(diff)
        .map(|c| {
            format!(
                "{} ({}): {} op(s)",
                md(&label(c)),
                md(&file(c)),
                c.ops.len()
            )
        })
        .collect();
    super::markdown::section(&mut out, "Compatible specification changes", &ok);
    out
}

/// The annotations of the specification changes: (level, place, title, body), one per
/// breaking op (at its line) and one per other change.
pub(super) fn annotations(
    diff: &ArchitectureDiff,
    decision: Option<&crate::policy::Decision>,
) -> Vec<(&'static str, Option<Place>, String, String)> {
    let place = |change: &SpecificationChange| {
        change.place.as_ref().map(|(file, line)| Place {
            file: file.clone(),
            line: Some(*line),
        })
    };
    let mut out = Vec::new();
    for change in &diff.specification_changes {
        let (level, body) = match change.breaking {
            Some(true) => {
                let hurt: String = change
                    .impact
                    .iter()
                    .map(|impact| format!("\nhurt: {}", hurt(impact)))
                    .collect();
                for (n, op) in change.ops.iter().enumerate().filter(|(_, o)| o.breaking) {
                    let fingerprint = crate::policy::specification_op_fingerprint(change, op);
                    let body = format!(
                        "{}\n{}{hurt}",
                        super::breaking_op_line("specification change", op),
                        fingerprint_note(&fingerprint, decision)
                    );
                    let at = op_place(change, n).or_else(|| place(change));
                    let level = super::break_level(&fingerprint, decision);
                    out.push((level, at, label(change), body));
                }
                if change.is_unjudged() {
                    let at = unknown_place(change).or_else(|| place(change));
                    out.push(("warning", at, label(change), no_verdict(change, decision)));
                }
                continue;
            }
            None => ("warning", no_verdict(change, decision)),
            Some(false) => (
                "notice",
                format!(
                    "Compatible specification change ({} op(s)).",
                    change.ops.len()
                ),
            ),
        };
        out.push((level, place(change), label(change), body));
    }
    out
}

/// The annotation body of what a change leaves without a verdict.
fn no_verdict(change: &SpecificationChange, decision: Option<&crate::policy::Decision>) -> String {
    let fingerprint = crate::policy::specification_unknown_fingerprint(change);
    let note = unknown_note(&fingerprint, decision)
        .map(|note| format!("\n{note}"))
        .unwrap_or_default();
    format!("No verdict: {}.{note}", why(change))
}

/// Where the first part of `change` that could not be judged is.
fn unknown_place(change: &SpecificationChange) -> Option<Place> {
    let (file, line) = change.unknown_place.as_ref()?;
    Some(Place {
        file: file.clone(),
        line: Some(*line),
    })
}

/// Where the `n`th op of `change` changed the specification.
fn op_place(change: &SpecificationChange, n: usize) -> Option<Place> {
    let (file, line) = change.op_places.get(n)?;
    Some(Place {
        file: file.clone(),
        line: Some(*line),
    })
}

/// A SARIF result: the rule (id, short text, help), level, message, place, fingerprint.
pub(super) type SarifFinding = (
    (&'static str, &'static str, &'static str),
    &'static str,
    String,
    Option<Place>,
    String,
);

/// The rule of a specification change without a verdict.
const UNKNOWN: (&str, &str, &str) = (
    "specification.unknown",
    "A specification change without a verdict",
    "a remote or missing reference, a payload format or a specification kind left no verdict; a human needs to look",
);

/// The SARIF results of the specification changes: one per breaking op (at its line), one per
/// change with something not judged.
pub(super) fn sarif_findings(diff: &ArchitectureDiff) -> Vec<SarifFinding> {
    let mut out = Vec::new();
    for change in &diff.specification_changes {
        if change.breaking == Some(true) {
            for (n, op) in change.ops.iter().enumerate().filter(|(_, op)| op.breaking) {
                let place = op_place(change, n);
                let message = super::sarif::breaking_op_message(&label(change), op);
                out.push((
                    (op.kind.id, op.kind.change, op.kind.reason),
                    "error",
                    message,
                    place,
                    crate::policy::specification_op_fingerprint(change, op),
                ));
            }
        }
        if change.is_unjudged() {
            let place = match change.breaking {
                // Beside a break, the place of the change is the break's.
                Some(true) => unknown_place(change),
                _ => None,
            };
            let place = place.or_else(|| {
                change.place.as_ref().map(|(file, line)| Place {
                    file: file.clone(),
                    line: Some(*line),
                })
            });
            out.push((
                UNKNOWN,
                "warning",
                format!("{}: no verdict: {}", label(change), why(change)),
                place,
                crate::policy::specification_unknown_fingerprint(change),
            ));
        }
    }
    out
}

/// `OrderService` for the log's breaking label.
pub(super) fn breaking_ids(
    diff: &ArchitectureDiff,
) -> impl Iterator<Item = (String, Option<&'static str>)> + '_ {
    breaking(diff).map(|c| (c.resource.id.clone(), c.direction.map(|d| d.as_str())))
}
