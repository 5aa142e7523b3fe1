//! The report as a pull-request comment: a verdict line, a summary table, breaking changes in
//! full, and long lists folded into `<details>`.

use std::fmt::Write;

use super::text::edge_label;
use super::*;
use crate::diff::{ArchitectureDiff, ImpactReason};

/// Lists longer than this are folded away.
const FOLD_AFTER: usize = 10;

pub fn markdown(diff: &ArchitectureDiff) -> String {
    let mut out = String::new();
    let s = &diff.summary;
    let verdict = if s.breaking {
        ":x: **Breaking changes**"
    } else {
        ":white_check_mark: **No breaking changes**"
    };
    let _ = writeln!(out, "### catalog-diff: {verdict}\n");
    let _ = writeln!(
        out,
        "Strategy `{}`, `{}` -> `{}`\n",
        diff.compatibility.strategy, diff.refs.a.commit, diff.refs.b.commit
    );
    let _ = writeln!(
        out,
        "| schema changes | breaking | unknown | resources (+/-/~) | edges (+/-) |"
    );
    let _ = writeln!(out, "| --- | --- | --- | --- | --- |");
    let _ = writeln!(
        out,
        "| {} | {} | {} | {}/{}/{} | {}/{} |\n",
        s.schema_changes,
        s.schema_breaking,
        s.schema_unknown,
        s.resources_added,
        s.resources_removed,
        s.resources_changed,
        s.edges_added,
        s.edges_removed
    );

    let breaking: Vec<_> = diff
        .schema_changes
        .iter()
        .filter(|c| c.breaking == Some(true))
        .collect();
    if !breaking.is_empty() {
        let _ = writeln!(out, "#### Breaking schema changes\n");
        for change in breaking {
            let direction = change.direction.map(|d| d.as_str()).unwrap_or("?");
            let _ = writeln!(
                out,
                "- **{}** (`{}`, {direction})",
                message_label(change),
                schema_path(change)
            );
            for op in change.ops.iter().filter(|op| op.breaking) {
                let _ = writeln!(
                    out,
                    "  - `{}` `{}`: {}",
                    pointer(&op.path),
                    op.kind,
                    op.reason
                );
            }
            if let Some(impact) = impact_of(diff, change) {
                let _ = writeln!(out, "  - hurt: {}", hurt_line(impact));
            }
        }
        out.push('\n');
    }
    let removed: Vec<String> = diff
        .impact
        .iter()
        .filter(|i| i.reason == ImpactReason::MessageRemoved)
        .map(|i| {
            format!(
                "**{} {}** {}: {}",
                i.message.kind,
                i.message.id,
                i.message.version.as_deref().unwrap_or(""),
                hurt_line(i)
            )
        })
        .collect();
    section(&mut out, "Messages removed while in use", &removed);
    let unknown: Vec<String> = diff
        .schema_changes
        .iter()
        .filter(|c| c.breaking.is_none())
        .map(|c| {
            format!(
                "{} (`{}`): {}",
                message_label(c),
                schema_path(c),
                c.unknown_reason.as_deref().unwrap_or("no verdict")
            )
        })
        .collect();
    section(
        &mut out,
        "Schema changes without a verdict (a human needs to look)",
        &unknown,
    );
    let compatible: Vec<String> = diff
        .schema_changes
        .iter()
        .filter(|c| c.breaking == Some(false))
        .map(|c| {
            format!(
                "{} (`{}`): {} op(s)",
                message_label(c),
                schema_path(c),
                c.ops.len()
            )
        })
        .collect();
    section(&mut out, "Compatible schema changes", &compatible);
    let r = &diff.resources;
    let resources: Vec<String> = r
        .added
        .iter()
        .map(|x| {
            format!(
                "added {} `{}` {}",
                x.kind,
                x.id,
                x.version.as_deref().unwrap_or("")
            )
        })
        .chain(r.removed.iter().map(|x| {
            format!(
                "removed {} `{}` {}",
                x.kind,
                x.id,
                x.version.as_deref().unwrap_or("")
            )
        }))
        .chain(
            r.changed
                .iter()
                .map(|x| format!("changed {} `{}` ({})", x.kind, x.id, x.fields.join(", "))),
        )
        .collect();
    section(&mut out, "Resources", &resources);
    let edges: Vec<String> = diff
        .edges
        .added
        .iter()
        .map(|e| format!("added {}", edge_label(e)))
        .chain(
            diff.edges
                .removed
                .iter()
                .map(|e| format!("removed {}", edge_label(e))),
        )
        .collect();
    section(&mut out, "Edges", &edges);
    let problems: Vec<String> = diff
        .diagnostics
        .iter()
        .map(|d| format!("[{}] {}", d.side, d.diagnostic))
        .collect();
    section(&mut out, "Catalog problems", &problems);
    let _ = writeln!(out, "{}", summary_line(diff));
    out
}

fn section(out: &mut String, title: &str, items: &[String]) {
    if items.is_empty() {
        return;
    }
    let list: String = items
        .iter()
        .map(|i| format!("- {}\n", i.replace('\n', " ")))
        .collect();
    if items.len() > FOLD_AFTER {
        let _ = writeln!(
            out,
            "<details><summary>{title} ({})</summary>\n\n{list}\n</details>\n",
            items.len()
        );
    } else {
        let _ = writeln!(out, "#### {title}\n\n{list}");
    }
}
