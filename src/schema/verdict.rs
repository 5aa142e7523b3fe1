//! The verdict model every schema format shares. A format's walker reports [`Change`]s, each
//! pointing at one row of that format's rules table ([`Rule`]); [`judge`] is the only place a
//! [`Strategy`] is applied. Nothing here knows any format.

use std::fmt;

use serde::{Serialize, Serializer};

use super::{Direction, Error, Strategy};

/// What a change does to one direction of compatibility.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Safe,
    Breaks,
    /// This direction does not break by itself, but the format's reference rejects the change
    /// as a whole (Protobuf: `buf breaking`), so every strategy that checks anything calls it
    /// breaking; the direction reported is the column that says [`Effect::Breaks`].
    Flagged,
}

/// One row of a rules table: a kind of change and what it does to each direction.
#[derive(Debug, PartialEq, Eq)]
pub struct Rule {
    /// The stable id written in ops (`property.added`, `field.type.changed`, ...).
    pub id: &'static str,
    /// New reader, old data.
    pub backward: Effect,
    /// Old reader, new data.
    pub forward: Effect,
    /// Why, in words a person understands; appended to each op's description.
    pub reason: &'static str,
    /// The change this row covers, as the README's rules table names it.
    pub change: &'static str,
}

impl Rule {
    /// The directions this rule breaks under `strategy`. A rule with a [`Effect::Flagged`]
    /// column breaks under every strategy but `none`, in the direction that truly breaks.
    pub fn breaks(&self, strategy: Strategy) -> Option<Direction> {
        if self.backward == Effect::Flagged || self.forward == Effect::Flagged {
            return match strategy {
                Strategy::None => None,
                _ => Direction::from_flags(
                    self.backward == Effect::Breaks,
                    self.forward == Effect::Breaks,
                ),
            };
        }
        Direction::from_flags(
            strategy.checks_backward() && self.backward == Effect::Breaks,
            strategy.checks_forward() && self.forward == Effect::Breaks,
        )
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id)
    }
}

/// Whether a change added, removed or replaced something (the `op` of an output op).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OpKind {
    Add,
    Remove,
    Replace,
}

/// One thing that differs between two schemas, found by a format's walker. No verdict yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub rule: &'static Rule,
    pub op: OpKind,
    /// A pointer into the schema (each format's paths are described in `spec/formats.md`).
    pub path: String,
    /// What happened, in words: the first half of the op's explanation.
    pub what: String,
    /// The reference library's own words for the change, where a reference defines them
    /// (JSON Schema: `@eventcatalog/diff`): the op's `reason` in the document is then these.
    pub reference: Option<String>,
    /// What changed, where the path does not say (a union's branch, a list's member, a
    /// reserved name): part of the finding's fingerprint, so a later change of the same kind
    /// at the same place is a finding of its own.
    pub subject: Option<String>,
}

/// One judged change, as it appears in a SchemaChange's `ops` array.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Op {
    pub op: OpKind,
    pub path: String,
    #[serde(serialize_with = "rule_id")]
    pub kind: &'static Rule,
    /// The document's `reason`: the reference library's words where a reference defines them
    /// (JSON Schema), else the [`Op::explanation`].
    pub reason: String,
    /// What changed, then why it does or does not break: what reports for people print.
    #[serde(skip)]
    pub explanation: String,
    /// Whether this op breaks a direction the strategy checks.
    pub breaking: bool,
    /// Which of the checked directions it breaks (not part of the JSON contract).
    #[serde(skip)]
    pub direction: Option<Direction>,
    /// The change's [`Change::subject`] (not part of the JSON contract).
    #[serde(skip)]
    pub subject: Option<String>,
}

fn rule_id<S: Serializer>(rule: &&'static Rule, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(rule.id)
}

/// The outcome of judging two schemas under one strategy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub breaking: bool,
    pub direction: Option<Direction>,
    pub ops: Vec<Op>,
}

/// [`judge`] of what a walk found, when it found it all; when something was hidden from it
/// ([`Error::Unfollowed`]), a break it found stands, with the hidden change as an op beside
/// it, and anything else is no verdict.
pub fn judge_walked(
    walked: Result<Vec<Change>, Error>,
    strategy: Strategy,
) -> Result<Verdict, Error> {
    let error = match walked {
        Ok(changes) => return Ok(judge(changes, strategy)),
        Err(error) => error,
    };
    if let Error::Unfollowed { walked, .. } = &error
        && let Some((_, found)) = walked.split_last()
        && judge(found.to_vec(), strategy).breaking
    {
        return Ok(judge(walked.to_vec(), strategy));
    }
    Err(error)
}

/// Apply a strategy to a walker's changes: one op per change, and the overall verdict.
/// `full` breaks when either column breaks, `none` never breaks.
pub fn judge(changes: Vec<Change>, strategy: Strategy) -> Verdict {
    let (mut backward, mut forward) = (false, false);
    let ops = changes
        .into_iter()
        .map(|change| {
            let direction = change.rule.breaks(strategy);
            backward |= matches!(direction, Some(Direction::Backward | Direction::Both));
            forward |= matches!(direction, Some(Direction::Forward | Direction::Both));
            let explanation = format!("{}: {}", change.what, change.rule.reason);
            Op {
                op: change.op,
                reason: change.reference.unwrap_or_else(|| explanation.clone()),
                explanation,
                path: change.path,
                kind: change.rule,
                breaking: direction.is_some(),
                direction,
                subject: change.subject,
            }
        })
        .collect();
    let direction = Direction::from_flags(backward, forward);
    Verdict {
        breaking: direction.is_some(),
        direction,
        ops,
    }
}

/// The rules table as a Markdown table, for the README (a test keeps the two equal).
pub fn markdown_table(rules: &[Rule]) -> String {
    let word = |effect: Effect| match effect {
        Effect::Safe => "ok",
        Effect::Breaks => "breaking",
        Effect::Flagged => "flagged",
    };
    let mut out =
        String::from("| Change | `backward` | `forward` | Kind |\n| --- | --- | --- | --- |\n");
    for rule in rules {
        out.push_str(&format!(
            "| {} | {} | {} | `{}` |\n",
            rule.change,
            word(rule.backward),
            word(rule.forward),
            rule.id
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const WIDENS: Rule = Rule {
        id: "test.widened",
        backward: Effect::Safe,
        forward: Effect::Breaks,
        reason: "r",
        change: "c",
    };
    const NARROWS: Rule = Rule {
        id: "test.narrowed",
        backward: Effect::Breaks,
        forward: Effect::Safe,
        reason: "r",
        change: "c",
    };

    fn change(rule: &'static Rule) -> Change {
        Change {
            rule,
            op: OpKind::Replace,
            path: "/x".into(),
            what: "w".into(),
            reference: None,
            subject: None,
        }
    }

    #[test]
    fn strategies_apply_the_columns() {
        let widened = || vec![change(&WIDENS)];
        assert_eq!(judge(widened(), Strategy::Backward).direction, None);
        assert_eq!(
            judge(widened(), Strategy::Forward).direction,
            Some(Direction::Forward)
        );
        assert_eq!(
            judge(widened(), Strategy::Full).direction,
            Some(Direction::Forward)
        );
        assert!(!judge(widened(), Strategy::None).breaking);
        let both = || vec![change(&WIDENS), change(&NARROWS)];
        assert_eq!(
            judge(both(), Strategy::Full).direction,
            Some(Direction::Both)
        );
        assert_eq!(
            judge(both(), Strategy::Backward).direction,
            Some(Direction::Backward)
        );
    }

    #[test]
    fn a_flagged_rule_breaks_every_checking_strategy_in_its_own_direction() {
        const ONE_SIDED: Rule = Rule {
            id: "test.one-sided",
            backward: Effect::Breaks,
            forward: Effect::Flagged,
            reason: "r",
            change: "c",
        };
        for strategy in [Strategy::Backward, Strategy::Forward, Strategy::Full] {
            let verdict = judge(vec![change(&ONE_SIDED)], strategy);
            assert!(verdict.breaking, "{strategy}");
            assert_eq!(verdict.direction, Some(Direction::Backward), "{strategy}");
        }
        assert!(!judge(vec![change(&ONE_SIDED)], Strategy::None).breaking);
    }

    #[test]
    fn verdict_serialises_exactly() {
        let verdict = judge(vec![change(&WIDENS)], Strategy::Full);
        assert_eq!(
            serde_json::to_string(&verdict).unwrap(),
            r#"{"breaking":true,"direction":"forward","ops":[{"op":"replace","path":"/x","kind":"test.widened","reason":"w: r","breaking":true}]}"#
        );
        let none = judge(Vec::new(), Strategy::Full);
        assert_eq!(
            serde_json::to_string(&none).unwrap(),
            r#"{"breaking":false,"direction":null,"ops":[]}"#
        );
    }
}
