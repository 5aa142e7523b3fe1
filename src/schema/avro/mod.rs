//! Avro compatibility, the reference being Apache Avro's schema resolution as its Java
//! `SchemaCompatibility` implements it (Confluent's registry runs it; `avro.compatibility` on PyPI
//! is its port). `model` parses the JSON form strictly, `resolve` is the direct reader/writer
//! check, `compare` walks two schemas and lists what changed where, `rules` holds the table that
//! decides whether each kind of change breaks a direction. Named types resolve within one file.
//!
//! [`changes`] is the walker's list, reconciled with the direct check run both ways: should the
//! two ever disagree on a direction (a walker bug), the direct check wins and the difference is an
//! op of its own (`resolution.*`), so the verdict is always Avro's. Tests assert the walker alone
//! already agrees ([`walk`] against [`can_read`]).

pub mod compare;
mod java_name;
pub mod model;
pub mod resolve;
pub mod rules;

pub use compare::walk;
pub use model::{Schema, parse};
pub use resolve::{Incompatibility, can_read};

use rules::ChangeKind;

use super::located::Located;
use super::verdict::{Change, Effect, OpKind, Verdict, judge};
use super::{Error, Strategy};

/// Every change between two parsed schemas, the verdict they give always equal to the direct
/// resolution check's.
pub fn changes(old: &Schema, new: &Schema) -> Result<Vec<Change>, Error> {
    let mut changes = walk(old, new)?;
    let backward = can_read(new, old)?;
    let forward = can_read(old, new)?;
    let breaks = |changes: &[Change], backward: bool| {
        changes.iter().any(|change| {
            let effect = if backward {
                change.rule.backward
            } else {
                change.rule.forward
            };
            effect == Effect::Breaks
        })
    };
    let (walked_backward, walked_forward) = (breaks(&changes, true), breaks(&changes, false));
    if walked_backward && backward.is_none() || walked_forward && forward.is_none() {
        let (keep_backward, keep_forward) = (backward.is_some(), forward.is_some());
        for change in &mut changes {
            change.rule = ChangeKind::within(change.rule, keep_backward, keep_forward);
        }
    }
    for (found, walked, kind) in [
        (
            backward,
            walked_backward,
            ChangeKind::ResolutionBackwardOnly,
        ),
        (forward, walked_forward, ChangeKind::ResolutionForwardOnly),
    ] {
        if let (Some(incompatibility), false) = (found, walked) {
            changes.push(Change {
                rule: kind.rule(),
                op: OpKind::Replace,
                path: incompatibility.path,
                what: incompatibility.message,
                reference: None,
                subject: None,
            });
        }
    }
    Ok(changes)
}

/// Judge two parsed schemas under `strategy` (tests, benchmarks and fuzzing start here).
pub fn judge_schemas(old: &Schema, new: &Schema, strategy: Strategy) -> Result<Verdict, Error> {
    Ok(judge(changes(old, new)?, strategy))
}

/// The line where the node each op path names starts (see `line_in`); all 1 when the text
/// is not JSON.
pub fn lines_of(text: &str, paths: &[&str]) -> Vec<usize> {
    match Located::parse(text) {
        Some(root) => paths.iter().map(|path| line_in(&root, path)).collect(),
        None => vec![1; paths.len()],
    }
}

/// The line where the node an op path names starts in `root`: `fields` segments go by field
/// name, `symbols` segments by symbol, union branches by index.
fn line_in(root: &Located, path: &str) -> usize {
    let mut node = root;
    let mut line = root.line;
    let mut segments = path.split('/').skip(1).peekable();
    while let Some(segment) = segments.next() {
        let next = match segment {
            "fields" | "symbols" => {
                let Some(list) = node.member(segment) else {
                    break;
                };
                let key_line = node.key_line(segment).unwrap_or(line);
                match segments
                    .next()
                    .map(|name| list_element(list, segment, name))
                {
                    Some(Some(found)) => Some(found),
                    // A field or symbol only the old side has: the list is as near as it gets.
                    Some(None) => {
                        line = key_line;
                        break;
                    }
                    None => Some((key_line, list)),
                }
            }
            _ => match segment.parse::<usize>() {
                Ok(index) => node.element(index).map(|value| (value.line, value)),
                Err(_) => node.key_line(segment).zip(node.member(segment)),
            },
        };
        match next {
            Some((next_line, value)) => {
                line = next_line;
                node = value;
            }
            None => break,
        }
    }
    line
}

/// The field (by its `name`) or the symbol named `name` in a `fields` or `symbols` array.
fn list_element<'a>(list: &'a Located, kind: &str, name: &str) -> Option<(usize, &'a Located)> {
    (0..)
        .map_while(|index| list.element(index))
        .find(|element| match kind {
            "fields" => element.member("name").and_then(Located::text) == Some(name),
            _ => element.text() == Some(name),
        })
        .map(|element| (element.line, element))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line_of(text: &str, path: &str) -> usize {
        lines_of(text, &[path])[0]
    }
    use crate::schema::Strategy;
    use crate::schema::verdict::Verdict;

    fn verdict(before: &str, after: &str, strategy: Strategy) -> Verdict {
        let old = parse("before.avsc", before).expect("before parses");
        let new = parse("after.avsc", after).expect("after parses");
        judge_schemas(&old, &new, strategy).expect("judged")
    }

    const ORDER: &str = r#"{"type": "record", "name": "Order", "namespace": "acme",
      "fields": [
        {"name": "id", "type": "string"},
        {"name": "amount", "type": "int"},
        {"name": "status", "type": {"type": "enum", "name": "Status", "symbols": ["NEW", "PAID"]}}
      ]}"#;

    /// Symbols were each looked up among all the others: 30,000 took a minute. The size stays so
    /// that such a regression shows in the suite's time (speed is measured by benchmarks, not
    /// asserted).
    #[test]
    fn a_large_enum_is_judged() {
        let enumeration = |from: usize| {
            let symbols: Vec<String> = (from..from + 30_000).map(|i| format!("\"S{i}\"")).collect();
            format!(
                r#"{{"type": "enum", "name": "E", "symbols": [{}]}}"#,
                symbols.join(",")
            )
        };
        let full = verdict(&enumeration(0), &enumeration(1), Strategy::Full);
        assert_eq!(full.ops.len(), 2, "one symbol added, one removed");
    }

    #[test]
    fn a_promotion_breaks_forward_only() {
        let after = ORDER.replace(r#""type": "int""#, r#""type": "long""#);
        let full = verdict(ORDER, &after, Strategy::Full);
        assert_eq!(full.direction, Some(crate::schema::Direction::Forward));
        assert_eq!(full.ops.len(), 1);
        assert_eq!(full.ops[0].path, "/fields/amount/type");
        assert_eq!(full.ops[0].kind.id, "type.promoted");
        assert!(!verdict(ORDER, &after, Strategy::Backward).breaking);
    }

    #[test]
    fn int_to_string_is_no_longer_no_changes() {
        let after = ORDER.replace(r#""type": "int""#, r#""type": "string""#);
        let full = verdict(ORDER, &after, Strategy::Full);
        assert_eq!(full.direction, Some(crate::schema::Direction::Both));
        assert_eq!(full.ops[0].kind.id, "type.changed");
    }

    #[test]
    fn two_replacements_at_one_place_are_told_apart() {
        // What an acknowledgement's fingerprint holds besides the path: `int` to `string`, then
        // `string` to `boolean`, are two breaks, as are two renames.
        let subject = |before: &str, after: &str| {
            let op = &verdict(before, after, Strategy::Full).ops[0];
            (op.path.clone(), op.subject.clone())
        };
        let string = ORDER.replace(r#""type": "int""#, r#""type": "string""#);
        let boolean = ORDER.replace(r#""type": "int""#, r#""type": "boolean""#);
        let (path, first) = subject(ORDER, &string);
        let (same_path, second) = subject(&string, &boolean);
        assert_eq!(path, same_path);
        assert_eq!(first.as_deref(), Some("int -> string"));
        assert_ne!(first, second);
        let renamed =
            |name: &str| ORDER.replacen(r#""name": "Order""#, &format!(r#""name": "{name}""#), 1);
        assert_ne!(
            subject(&renamed("A"), &renamed("B")).1,
            subject(&renamed("B"), &renamed("C")).1
        );
    }

    #[test]
    fn lines_follow_field_names_and_symbols() {
        assert_eq!(line_of(ORDER, "/fields/amount/type"), 4);
        assert_eq!(line_of(ORDER, "/fields/status/type/symbols/PAID"), 5);
        assert_eq!(line_of(ORDER, "/fields/missing"), 2);
        assert_eq!(line_of(ORDER, "/name"), 1);
        assert_eq!(line_of("not json", "/fields/a"), 1);
    }

    #[test]
    fn reconciling_never_changes_a_walked_verdict_on_simple_pairs() {
        let old = parse("a.avsc", ORDER).unwrap();
        let after = ORDER.replace(r#""PAID"]"#, r#""PAID", "REFUNDED"]"#);
        let new = parse("b.avsc", &after).unwrap();
        assert_eq!(walk(&old, &new).unwrap(), changes(&old, &new).unwrap());
    }
}
