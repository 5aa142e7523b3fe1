//! GitHub Actions workflow commands (`::error file=...,line=...::...`): one annotation per
//! breaking or unjudged schema change, pointing at the schema file and, where it can be found,
//! the line of the changed property.

use super::*;
use crate::diff::ArchitectureDiff;
use crate::schema::Format;

/// Where a schema change lives in the repository, supplied by the caller (the diff itself only
/// knows index paths).
pub struct Annotation {
    /// Repository-relative path of the schema file.
    pub file: String,
    /// The schema file's text on the candidate side, to find the changed node's line in.
    pub content: Option<String>,
    /// The schema file's format, which knows how its paths map to lines.
    pub format: Option<Format>,
}

/// `locate(change)` gives the repository file of a schema change.
pub fn github(
    diff: &ArchitectureDiff,
    locate: &dyn Fn(&SchemaChange) -> Option<Annotation>,
) -> String {
    let mut out = String::new();
    for change in &diff.schema_changes {
        let level = match change.breaking {
            Some(true) => "error",
            None => "warning",
            Some(false) => continue,
        };
        let where_ = locate(change);
        let mut properties = format!(
            "title={}",
            escape_property(&format!("catalog-diff: {}", message_label(change)))
        );
        let mut body = match change.breaking {
            Some(true) => format!(
                "Breaking ({}) schema change.",
                change.direction.map(|d| d.as_str()).unwrap_or("?")
            ),
            _ => format!(
                "No verdict: {}.",
                change.unknown_reason.as_deref().unwrap_or("unknown")
            ),
        };
        for op in change.ops.iter().filter(|o| o.breaking) {
            body.push_str(&format!(
                "\n{} [{}] {}",
                pointer(&op.path),
                op.kind,
                op.reason
            ));
        }
        if let Some(annotation) = where_ {
            let line = annotation
                .content
                .as_deref()
                .zip(annotation.format)
                .and_then(|(text, format)| {
                    let op = change.ops.iter().find(|o| o.breaking)?;
                    Some(format.line_of(text, &op.path))
                });
            properties = format!(
                "file={}{},{properties}",
                escape_property(&annotation.file),
                line.map(|l| format!(",line={l}")).unwrap_or_default()
            );
        }
        out.push_str(&format!("::{level} {properties}::{}\n", escape_data(&body)));
    }
    if diff.summary.breaking || diff.summary.schema_unknown > 0 {
        out.push_str(&format!(
            "::notice title=catalog-diff::{}\n",
            escape_data(&summary_line(diff))
        ));
    }
    out
}

fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_workflow_command_text() {
        assert_eq!(escape_property("a:b,c\n"), "a%3Ab%2Cc%0A");
    }
}
