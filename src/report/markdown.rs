//! The report as a pull-request comment: a verdict line, a summary table, then one titled
//! section per kind of finding (breaking changes in full), long lists folded into `<details>`.
//! Catalog text is escaped so it cannot change the comment's structure.

use std::fmt::Write;

use super::text::edge_label;
use super::*;
use crate::diff::ArchitectureDiff;

/// Lists longer than this are folded away.
const FOLD_AFTER: usize = 10;

/// Text escaped for Markdown: control characters shown, and every character that could open
/// emphasis, code, links, HTML, tables or headings backslash-escaped.
pub fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in escape_text(text).chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '#' | '!' | '(' | ')' => {
                out.push('\\');
                out.push(c);
            }
            '&' => out.push_str("&amp;"),
            _ => out.push(c),
        }
    }
    out
}

pub fn markdown(diff: &ArchitectureDiff, context: &Context<'_>) -> String {
    let findings = Findings::of(diff);
    let md = escape_markdown;
    let mut out = String::new();
    let s = &diff.summary;
    let unjudged = unjudged(diff);
    let acknowledged = context.decision.is_some_and(|d| {
        !d.breaks.is_empty()
            && d.breaks
                .iter()
                .all(|b| b.status == crate::policy::Status::Acknowledged)
    });
    let verdict = if diff.is_breaking() && acknowledged {
        ":white_check_mark: **Breaking changes, every one acknowledged**".to_owned()
    } else if diff.is_breaking() {
        ":x: **Breaking changes**".to_owned()
    } else if unjudged > 0 {
        format!(":warning: **No breaking changes found; {unjudged} change(s) without a verdict**")
    } else {
        ":white_check_mark: **No breaking changes**".to_owned()
    };
    let _ = writeln!(out, "### catalog-diff: {verdict}\n");
    let (changes, unknown) = diff.schema_counts();
    let _ = writeln!(
        out,
        "Strategy `{}`, {} -> {}\n",
        diff.compatibility.strategy,
        md(super::ref_label(&diff.refs.a.commit)),
        md(super::ref_label(&diff.refs.b.commit))
    );
    let _ = writeln!(
        out,
        "| schema changes | breaking | unknown | removed while in use | resources (+/-/~) | edges (+/-) |"
    );
    let _ = writeln!(out, "| --- | --- | --- | --- | --- | --- |");
    let _ = writeln!(
        out,
        "| {} | {} | {} | {} | {}/{}/{} | {}/{} |\n",
        changes,
        s.schema_breaking,
        unknown,
        findings.removed_in_use.len(),
        s.resources_added,
        s.resources_removed,
        s.resources_changed,
        s.edges_added,
        s.edges_removed
    );
    out.push_str(&super::specification::markdown(diff, context.decision));

    if !findings.breaking.is_empty() {
        let _ = writeln!(out, "#### Breaking schema changes\n");
        for &change in &findings.breaking {
            let direction = change.direction.map(|d| d.as_str()).unwrap_or("?");
            let _ = writeln!(
                out,
                "- **{}** ({}, {direction})",
                md(&message_label(change)),
                md(&schema_file(change, context.locations))
            );
            for op in change.ops.iter().filter(|op| op.breaking) {
                let fingerprint = crate::policy::op_fingerprint(change, op);
                let _ = writeln!(
                    out,
                    "  - {} \\[{}\\]: {}{}",
                    md(&pointer(&op.path)),
                    op.kind,
                    md(&op.explanation),
                    note(&fingerprint, context.decision)
                );
            }
            if let Some(impact) = impact_of(diff, change) {
                let _ = writeln!(out, "  - hurt: {}", md(&hurt_line(impact)));
            }
        }
        out.push('\n');
    }
    let transitive: Vec<String> = findings
        .transitive
        .iter()
        .map(|c| {
            let notes: String = c
                .ops
                .iter()
                .filter(|op| op.breaking)
                .map(|op| {
                    let fingerprint = crate::policy::op_fingerprint(c, op);
                    note(&fingerprint, context.decision)
                })
                .collect();
            format!(
                "**{}** ({}, against {}): {} breaking op(s){notes}",
                md(&message_label(c)),
                md(&schema_file(c, context.locations)),
                md(&against_label(c)),
                c.ops.iter().filter(|op| op.breaking).count()
            )
        })
        .collect();
    section(
        &mut out,
        "Breaking against earlier versions (transitive strategy)",
        &transitive,
    );
    let removed: Vec<String> = findings
        .removed_in_use
        .iter()
        .map(|i| {
            let fingerprint = crate::policy::impact_fingerprint(i);
            format!(
                "**{}**: {}{}",
                md(&impact_label(i)),
                md(&hurt_line(i)),
                note(&fingerprint, context.decision)
            )
        })
        .collect();
    section(&mut out, "Messages removed while in use", &removed);
    let unknown: Vec<String> = findings
        .unknown
        .iter()
        .map(|&c| {
            let fingerprint = crate::policy::unknown_fingerprint(c);
            format!(
                "{}{} ({}): {}{}",
                md(&message_label(c)),
                md(&against(diff, c)),
                md(&schema_file(c, context.locations)),
                md(c.unknown_reason.as_deref().unwrap_or("no verdict")),
                unknown_md_note(&fingerprint, context.decision)
            )
        })
        .collect();
    section(
        &mut out,
        "Schema changes without a verdict (a human needs to look)",
        &unknown,
    );
    for &change in &findings.in_neither_catalog {
        let note = in_neither_note(change, context.locations);
        let _ = writeln!(out, "Note: {}\n", md(&note));
    }
    let compatible: Vec<String> = findings
        .compatible
        .iter()
        .map(|&c| {
            format!(
                "{} ({}): {} op(s)",
                md(&message_label(c)),
                md(&schema_file(c, context.locations)),
                c.ops.len()
            )
        })
        .collect();
    section(&mut out, "Compatible schema changes", &compatible);
    let r = &diff.resources;
    // No trim: an id may end in a character that is whitespace (`\r`), which is shown escaped.
    let label = |kind: &str, id: &str, version: &Option<crate::diff::Version>| match version {
        Some(version) => md(&format!("{kind} {id} {}", &**version)),
        None => md(&format!("{kind} {id}")),
    };
    let resources: Vec<String> = r
        .added
        .iter()
        .map(|x| format!("added {}", label(&x.kind, &x.id, &x.version)))
        .chain(
            r.removed
                .iter()
                .map(|x| format!("removed {}", label(&x.kind, &x.id, &x.version))),
        )
        .chain(r.changed.iter().map(|x| {
            format!(
                "changed {} ({})",
                label(&x.kind, &x.id, &None),
                x.fields.join(", ")
            )
        }))
        .collect();
    section(&mut out, "Resources", &resources);
    let edges: Vec<String> = diff
        .edges
        .added
        .iter()
        .map(|e| format!("added {}", md(&edge_label(e))))
        .chain(
            diff.edges
                .removed
                .iter()
                .map(|e| format!("removed {}", md(&edge_label(e)))),
        )
        .collect();
    section(&mut out, "Edges", &edges);
    let stopped: Vec<String> = findings
        .stopped_using
        .iter()
        .map(|i| format!("{}: {}", md(&impact_label(i)), md(&hurt_line(i))))
        .collect();
    section(
        &mut out,
        "Stopped using a message that still exists",
        &stopped,
    );
    let problems: Vec<String> = findings
        .problems
        .iter()
        .map(|(sides, d)| format!("{sides}: {}", md(&d.to_string().replace('\n', " "))))
        .collect();
    section(&mut out, "Catalog problems", &problems);
    let mut tail = String::new();
    if let Some(line) = context.decision.and_then(super::text::policy_line) {
        let _ = writeln!(tail, "{}\n", md(&line));
    }
    let _ = writeln!(tail, "{}", summary_line(diff, context.decision));
    capped(out, MAX_COMMENT.saturating_sub(tail.len())) + &tail
}

/// What a report may take of a pull-request comment, in bytes (so in characters too): GitHub
/// refuses a body over 65,536 characters, and the step posting it fails.
const MAX_COMMENT: usize = 60_000;

/// `out` within `max` bytes: cut before the first list entry or section that does not fit, an
/// open `<details>` closed, and a line saying how many entries were left out and where the
/// whole report is.
fn capped(out: String, max: usize) -> String {
    // Room for the closing tag and the line saying what was left out.
    let Some(budget) = max.checked_sub(400).filter(|_| out.len() > max) else {
        return out;
    };
    // Each line starts after a newline; the cut goes before a top-level entry or a heading,
    // so no entry loses its ops.
    let starts = out.match_indices('\n').map(|(at, _)| at + 1);
    let cut = starts
        .take_while(|&at| at <= budget)
        .filter(|&at| {
            let line = &out[at..];
            line.starts_with("- ") || line.starts_with("#### ") || line.starts_with("<details>")
        })
        .last()
        .unwrap_or(0);
    let (kept, rest) = out.split_at(cut);
    let left_out = rest.lines().filter(|line| line.starts_with("- ")).count();
    let mut capped = kept.to_owned();
    if kept.matches("<details>").count() > kept.matches("</details>").count() {
        capped.push_str("\n</details>\n");
    }
    // A paragraph of its own, not a continuation of the last entry.
    if !capped.ends_with("\n\n") {
        capped.push('\n');
    }
    let _ = writeln!(
        capped,
        "**{left_out} more entr{} left out**: a GitHub comment holds at most 65,536 characters. The whole report is in the job log, or in `--format json`.\n",
        if left_out == 1 { "y" } else { "ies" }
    );
    capped
}

/// A break's fingerprint, the id `catalog-diff ack` takes, and its acknowledgement if any.
pub(super) fn note(fingerprint: &str, decision: Option<&crate::policy::Decision>) -> String {
    match ack_note(fingerprint, decision) {
        Some(ack) => format!(" ({}; fingerprint `{fingerprint}`)", escape_markdown(&ack)),
        None => format!(" (fingerprint `{fingerprint}`)"),
    }
}

/// [`note`] for a change without a verdict, when the policy counts it as a break
/// (`--fail-on unknown`); otherwise there is nothing to acknowledge.
pub(super) fn unknown_md_note(
    fingerprint: &str,
    decision: Option<&crate::policy::Decision>,
) -> String {
    match decision.and_then(|d| d.find(fingerprint)) {
        Some(_) => note(fingerprint, decision),
        None => String::new(),
    }
}

pub(super) fn section(out: &mut String, title: &str, items: &[String]) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A report too long for a comment is cut before an entry that does not fit, its open
    /// `<details>` closed, saying how many entries were left out.
    #[test]
    fn a_long_report_is_capped_between_entries() {
        let items: Vec<String> = (0..2000).map(|n| format!("entry {n:04}")).collect();
        let mut out = "### catalog-diff\n\n".to_owned();
        section(&mut out, "Resources", &items);
        let capped = capped(out.clone(), 10_000);
        assert!(capped.len() <= 10_000, "{}", capped.len());
        let kept = capped.lines().filter(|l| l.starts_with("- ")).count();
        assert!(kept > 100, "{kept}");
        assert!(
            capped.contains(&format!("- entry {:04}\n\n</details>", kept - 1)),
            "{capped}"
        );
        assert!(capped.ends_with(&format!("**{} more entries left out**: a GitHub comment holds at most 65,536 characters. The whole report is in the job log, or in `--format json`.\n\n", 2000 - kept)), "{capped}");
        assert_eq!(
            super::capped(out.clone(), out.len()),
            out,
            "what fits is whole"
        );
    }

    #[test]
    fn markdown_structure_cannot_be_forged() {
        assert_eq!(
            escape_markdown("a|b *c* <img> [x](y) `z`\n# h"),
            "a\\|b \\*c\\* \\<img\\> \\[x\\]\\(y\\) \\`z\\`\\\\u{a}\\# h"
        );
    }
}
