//! GitHub Actions workflow commands (`::error file=...,line=...::...`): one annotation per
//! breaking or unjudged schema change, pointing at the schema file and, where it can be found,
//! the line of the changed property.

use super::*;
use crate::diff::ArchitectureDiff;

/// Where a schema change lives in the repository, supplied by the caller (the diff itself only
/// knows index paths).
pub struct Annotation {
    /// Repository-relative path of the schema file.
    pub file: String,
    /// The schema file's text on the candidate side, to find property lines in.
    pub content: Option<String>,
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
            let line = annotation.content.as_deref().and_then(|text| {
                change
                    .ops
                    .iter()
                    .filter(|o| o.breaking)
                    .find_map(|o| property_line(text, &o.path))
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

/// The 1-based line where the last property named in a JSON pointer appears as a key.
fn property_line(text: &str, pointer: &str) -> Option<usize> {
    let name = pointer
        .rsplit('/')
        .find(|segment| !segment.is_empty() && !segment.chars().all(|c| c.is_ascii_digit()))?;
    let name = name.replace("~1", "/").replace("~0", "~");
    let needle = format!("\"{name}\"");
    text.lines()
        .position(|line| line.contains(&needle))
        .map(|i| i + 1)
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
    fn finds_the_line_of_a_property() {
        let text = "{\n  \"properties\": {\n    \"orderId\": {}\n  }\n}";
        assert_eq!(property_line(text, "/properties/orderId"), Some(3));
        assert_eq!(property_line(text, "/properties/missing"), None);
    }

    #[test]
    fn escapes_workflow_command_text() {
        assert_eq!(escape_property("a:b,c\n"), "a%3Ab%2Cc%0A");
    }
}
