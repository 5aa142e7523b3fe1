//! Turn a [`Verdict`] of any format into text for people: a one-line summary, then one
//! sentence per op. This is formatting only; every decision was already made by a rules table.

use super::Verdict;
use crate::catalog::escape_text;

/// A summary line, then `BREAKING (direction) path: reason` or `ok path: reason` per op; the
/// names the schemas hold are escaped, as in every report.
pub fn explain(verdict: &Verdict) -> String {
    let mut out = String::new();
    let breaking = verdict.ops.iter().filter(|op| op.breaking).count();
    let summary = match (verdict.ops.len(), verdict.direction) {
        (0, _) => "No changes: the schemas accept the same values.".to_owned(),
        (total, Some(direction)) => {
            format!(
                "Breaking ({}): {breaking} of {total} change(s) break compatibility.",
                direction.as_str()
            )
        }
        (total, None) => format!("Compatible: {total} change(s), none breaking."),
    };
    out.push_str(&summary);
    out.push('\n');
    for op in &verdict.ops {
        let path = escape_text(if op.path.is_empty() { "/" } else { &op.path });
        let explanation = escape_text(&op.explanation);
        match op.direction {
            Some(direction) => out.push_str(&format!(
                "BREAKING ({}) {path}: {explanation}\n",
                direction.as_str()
            )),
            None => out.push_str(&format!("ok {path}: {explanation}\n")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::schema::json_schema::judge_values;
    use crate::schema::{Strategy, explain};
    use serde_json::json;

    #[test]
    fn explains_a_removed_requirement() {
        let before = json!({"type": "object", "properties": {"customerId": {"type": "string"}}, "required": ["customerId"]});
        let after = json!({"type": "object", "properties": {"customerId": {"type": "string"}}});
        let verdict = judge_values(&before, &after, Strategy::Full).unwrap();
        let text = explain(&verdict);
        assert!(
            text.contains("BREAKING (forward) /properties/customerId: `customerId` is no longer required: new messages may omit it, old readers insist on it"),
            "{text}"
        );
    }

    #[test]
    fn names_from_the_schema_are_escaped() {
        let before = json!({"type": "object", "properties": {}});
        let after = json!({"type": "object", "properties": {"x\u{1b}[31m\n::error::y": {}}});
        let verdict = judge_values(&before, &after, Strategy::Full).unwrap();
        let text = explain(&verdict);
        assert!(!text.contains('\u{1b}'), "{text}");
        assert!(text.contains("x\\u{1b}[31m\\u{a}::error::y"), "{text}");
    }
}
