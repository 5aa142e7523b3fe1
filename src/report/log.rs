//! One entry of `log` per commit: a timeline line for people (with the breaking details and
//! catalog errors under it) or one JSON object per line. Formatting only.

use super::*;
use crate::history::Step;

/// One `log` entry in `format` (text or json; the others render as text). `view` is the
/// (selected) diff, `None` for a commit whose catalog is invalid.
pub fn log_entry(
    step: &Step,
    view: Option<&ArchitectureDiff>,
    format: ReportFormat,
    color: bool,
) -> String {
    match format {
        ReportFormat::Json => json_entry(step, view),
        _ => text_entry(step, view, color),
    }
}

/// One timeline line, plus the breaking details and catalog errors under it. `view` is
/// `None` for a commit whose catalog is invalid.
fn text_entry(step: &Step, view: Option<&ArchitectureDiff>, color: bool) -> String {
    let commit = &step.commit;
    let author = commit
        .author
        .split_once(" <")
        .map_or(commit.author.as_str(), |(name, _)| name);
    let mut line = format!(
        "{} {} {}  {}  ",
        short(&commit.id.to_string()),
        commit.date.get(..10).unwrap_or(&commit.date),
        super::escape_text(author),
        super::escape_text(&commit.subject),
    );
    match view {
        None => line.push_str(&format!(
            "[invalid catalog: {} error(s); not diffed; the next commit is diffed against the last valid one, or the --against revision]",
            step.errors().count()
        )),
        Some(view) => {
            line.push_str(&format!("[{}]", super::counts(view)));
            if let Some(against) = step.against {
                line.push_str(&format!(
                    " (against {}, the last commit with a valid catalog)",
                    short(&against.to_string())
                ));
            }
            if view.is_breaking() {
                line.push_str(&format!("  {}", breaking_label(view)));
            }
        }
    }
    line.push('\n');
    if let Some(view) = view.filter(|view| view.is_breaking()) {
        for detail in super::breaking_details(view, &step.locations, color).lines() {
            if !detail.trim().is_empty() {
                line.push_str(&format!("  {detail}\n"));
            }
        }
    }
    for error in step.errors() {
        for text in error.to_string().lines() {
            line.push_str(&format!("    {text}\n"));
        }
    }
    line
}

/// `BREAKING OrderCreated, Payment (backward, forward)`.
fn breaking_label(view: &ArchitectureDiff) -> String {
    let mut messages = Vec::new();
    let mut directions = Vec::new();
    // A transitive check breaks against an earlier version; it names the message like a change.
    for change in view
        .schema_changes
        .iter()
        .chain(&view.transitive_checks)
        .filter(|c| c.breaking == Some(true))
    {
        messages.push(change.message.id.clone());
        if let Some(direction) = change.direction {
            directions.push(direction.as_str().to_owned());
        }
    }
    for impact in view
        .impact
        .iter()
        .filter(|i| i.reason == ImpactReason::MessageRemoved)
    {
        messages.push(impact.message.id.clone());
        directions.push("removed".to_owned());
    }
    for (id, direction) in super::specification::breaking_ids(view) {
        messages.push(id);
        directions.extend(direction.map(str::to_owned));
    }
    for list in [&mut messages, &mut directions] {
        list.sort();
        list.dedup();
    }
    let messages: Vec<Cow<'_, str>> = messages.iter().map(|id| super::escape_text(id)).collect();
    format!(
        "BREAKING {} ({})",
        messages.join(", "),
        directions.join(", ")
    )
}

/// One log entry as JSON: the commit, then its diff, or `invalid` when its catalog has errors.
#[derive(serde::Serialize)]
struct Entry<'a> {
    commit: String,
    parent: Option<String>,
    author: &'a str,
    date: &'a str,
    subject: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    against: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    invalid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    diff: Option<&'a ArchitectureDiff>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    errors: Vec<&'a Diagnostic>,
}

/// One JSON object on one line.
fn json_entry(step: &Step, view: Option<&ArchitectureDiff>) -> String {
    let commit = &step.commit;
    let entry = Entry {
        commit: commit.id.to_string(),
        parent: step.parent.map(|p| p.to_string()),
        author: &commit.author,
        date: &commit.date,
        subject: &commit.subject,
        against: step.against.map(|a| a.to_string()),
        invalid: view.is_none(),
        diff: view,
        errors: step.errors().collect(),
    };
    let mut line = serde_json::to_string(&entry).unwrap_or_default();
    line.push('\n');
    line
}

fn short(commit: &str) -> &str {
    commit.get(..8).unwrap_or(commit)
}
