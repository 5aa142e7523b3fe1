//! Rendering an ArchitectureDiff for people and machines: [`render`] picks one renderer per
//! output format. Formatting only: every decision (what breaks, who is hurt) was made by `diff`,
//! and [`Findings`] sorts a diff into the sections every renderer shows, so that split is
//! written once. Catalog text is untrusted: every renderer escapes it ([`escape_text`]) so an id
//! cannot forge terminal sequences, Markdown structure or workflow commands.

mod github;
mod locate;
mod log;
mod markdown;
pub mod sarif;
mod specification;
mod text;

use std::borrow::Cow;

use crate::catalog::Diagnostic;
use crate::diff::{ArchitectureDiff, Impact, ImpactReason, Party, SchemaChange, SideDiagnostic};

pub use locate::{Locations, Place};
pub use log::log_entry;
pub use text::breaking_details;

/// The output formats of a diff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    /// For people, in a terminal.
    Text,
    /// The ArchitectureDiff document.
    Json,
    /// A pull-request comment.
    Markdown,
    /// GitHub Actions workflow commands (annotations).
    Github,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
}

/// What a renderer needs besides the diff.
pub struct Context<'a> {
    /// Paint the text report with ANSI colours.
    pub color: bool,
    /// Where the findings live in the catalog.
    pub locations: &'a Locations,
    /// The catalog folder, relative to the repository root (prefixes annotation paths).
    pub dir: &'a str,
    /// The policy's decision: fingerprints and acknowledgements of the breaks.
    pub decision: Option<&'a crate::policy::Decision>,
}

/// The diff in `format`.
pub fn render(diff: &ArchitectureDiff, format: ReportFormat, context: &Context<'_>) -> String {
    match format {
        ReportFormat::Text => text::text(diff, context),
        ReportFormat::Json => format!("{}\n", crate::json_text::to_pretty(diff)),
        ReportFormat::Markdown => markdown::markdown(diff, context),
        ReportFormat::Github => github::github(diff, context),
        ReportFormat::Sarif => sarif::sarif(diff, context),
    }
}

/// A diff sorted into the sections of a report, each in the diff's order.
pub struct Findings<'a> {
    /// Schema changes that break the strategy.
    pub breaking: Vec<&'a SchemaChange>,
    /// Transitive checks (against an earlier version) that break.
    pub transitive: Vec<&'a SchemaChange>,
    /// Message versions removed while something still sends or receives them.
    pub removed_in_use: Vec<&'a Impact>,
    /// Schema changes and transitive checks without a verdict.
    pub unknown: Vec<&'a SchemaChange>,
    /// Schema files named on both sides but in neither catalog: listed in the document, no
    /// change, so only noted.
    pub in_neither_catalog: Vec<&'a SchemaChange>,
    /// Schema changes judged compatible.
    pub compatible: Vec<&'a SchemaChange>,
    /// Producers or consumers that stopped using a message that still exists.
    pub stopped_using: Vec<&'a Impact>,
    /// Catalog problems, each once, with the sides that have it.
    pub problems: Vec<(&'static str, &'a Diagnostic)>,
}

impl<'a> Findings<'a> {
    pub fn of(diff: &'a ArchitectureDiff) -> Findings<'a> {
        let changes = || diff.schema_changes.iter();
        let impacts = |wanted: &dyn Fn(ImpactReason) -> bool| {
            diff.impact.iter().filter(|i| wanted(i.reason)).collect()
        };
        let problems = problems_once(&diff.diagnostics);
        Findings {
            breaking: changes().filter(|c| c.breaking == Some(true)).collect(),
            transitive: diff
                .transitive_checks
                .iter()
                .filter(|c| c.breaking == Some(true))
                .collect(),
            removed_in_use: impacts(&|r| r == ImpactReason::MessageRemoved),
            unknown: changes()
                .chain(&diff.transitive_checks)
                .filter(|c| c.breaking.is_none() && !c.in_neither_catalog)
                .collect(),
            in_neither_catalog: diff.in_neither_catalog().collect(),
            compatible: changes().filter(|c| c.breaking == Some(false)).collect(),
            stopped_using: impacts(&|r| {
                matches!(
                    r,
                    ImpactReason::ConsumerRemoved | ImpactReason::ProducerRemoved
                )
            }),
            problems,
        }
    }
}

/// Catalog problems, each once, with the sides that have it, in words (`both sides`).
fn problems_once(diagnostics: &[SideDiagnostic]) -> Vec<(&'static str, &Diagnostic)> {
    problems_by_side(diagnostics)
        .into_iter()
        .map(|(sides, problem)| match sides[..] {
            [side] => (side_name(side), problem),
            _ => ("both sides", problem),
        })
        .collect()
}

/// Catalog problems, each once, with the sides (`a`, `b`) that have it, in the order found.
pub fn problems_by_side(diagnostics: &[SideDiagnostic]) -> Vec<(Vec<&'static str>, &Diagnostic)> {
    let mut problems: Vec<(Vec<&'static str>, &Diagnostic)> = Vec::new();
    // By problem, so a catalog with thousands of warnings is not searched once per warning.
    let mut at: std::collections::BTreeMap<&Diagnostic, usize> = Default::default();
    for item in diagnostics {
        match at.get(&item.diagnostic) {
            Some(&seen) => problems[seen].0.push(item.side),
            None => {
                at.insert(&item.diagnostic, problems.len());
                problems.push((vec![item.side], &item.diagnostic));
            }
        }
    }
    problems
}

/// For a diff that could not be made because of catalog `problems`, what `format` says in CI:
/// GitHub annotations or a SARIF log naming each problem at its line, so a pull request shows
/// them; `None` for the formats that leave them to stderr. `summary` says why there is no diff.
pub fn refused(
    problems: &[SideDiagnostic],
    format: ReportFormat,
    dir: &str,
    summary: &str,
) -> Option<String> {
    match format {
        ReportFormat::Github => Some(github::refused(problems, dir, summary)),
        ReportFormat::Sarif => Some(sarif::refused(problems, dir)),
        ReportFormat::Text | ReportFormat::Json | ReportFormat::Markdown => None,
    }
}

fn side_name(side: &str) -> &'static str {
    match side {
        "a" => "baseline",
        _ => "candidate",
    }
}

pub use crate::catalog::escape_text;

/// A ref's `commit` as people read it: the JSON's empty commit (the baseline of a repository
/// without commits, or of a root commit) named for what it is.
pub fn ref_label(commit: &str) -> &str {
    if commit.is_empty() {
        "(no commit)"
    } else {
        commit
    }
}

/// `event OrderPlaced 1.0.0 -> 2.0.0`, or one version when both sides agree (escaped).
pub fn message_label(change: &SchemaChange) -> String {
    let message = &change.message;
    let versions = match (&message.version.a, &message.version.b) {
        (Some(a), Some(b)) if a != b => format!(" {a} -> {b}"),
        (Some(v), _) | (None, Some(v)) => format!(" {v}"),
        (None, None) => String::new(),
    };
    escape_text(&format!("{} {}{versions}", message.kind, message.id)).into_owned()
}

/// `event OrderPlaced 1.0.0` for an impact entry (escaped).
pub fn impact_label(impact: &Impact) -> String {
    let m = &impact.message;
    let version = m
        .version
        .as_deref()
        .map(|v| format!(" {v}"))
        .unwrap_or_default();
    escape_text(&format!("{} {}{version}", m.kind, m.id)).into_owned()
}

/// The schema file of a schema change: its path in the catalog when known, else the path its
/// index entry gives (escaped).
pub fn schema_file(change: &SchemaChange, locations: &Locations) -> String {
    let path = match locations.schema(change) {
        Some(place) => place.file.as_str(),
        None => change
            .after
            .as_ref()
            .or(change.before.as_ref())
            .map(|f| f.path.as_str())
            .unwrap_or_default(),
    };
    escape_text(path).into_owned()
}

/// `service billing-service 1.4.0 (team-billing)` (escaped).
pub fn party_label(party: &Party) -> String {
    let mut label = format!("{} {}", party.kind, party.id);
    if let Some(version) = &party.version {
        label.push(' ');
        label.push_str(version);
    }
    if let Some(owners) = party.owners.as_ref().filter(|o| !o.is_empty()) {
        label.push_str(&format!(" ({})", owners.join(", ")));
    }
    escape_text(&label).into_owned()
}

/// Who a change hurts, in one line (escaped). A party the catalog declares twice alike (two
/// files with one id and version, both in the document's lists) is named once.
pub fn hurt_line(impact: &Impact) -> String {
    let list = |parties: &[Party]| {
        if parties.is_empty() {
            return "none".to_owned();
        }
        let mut labels: Vec<String> = Vec::new();
        for label in parties.iter().map(party_label) {
            if !labels.contains(&label) {
                labels.push(label);
            }
        }
        labels.join(", ")
    };
    format!(
        "consumers: {}; producers: {}",
        list(&impact.consumers),
        list(&impact.producers)
    )
}

/// The impact entry of a breaking schema change, if any.
pub fn impact_of<'a>(diff: &'a ArchitectureDiff, change: &SchemaChange) -> Option<&'a Impact> {
    diff.impact.iter().find(|i| {
        i.reason == ImpactReason::SchemaBreakingChange
            && i.message.kind == change.message.kind
            && i.message.id == change.message.id
            && i.message.version == change.message.version.a
    })
}

/// The one-line summary every format ends with: the verdict, what broke, the counts. Breaks
/// that acknowledgements in force accept, every one of them, make it `acknowledged`.
pub fn summary_line(diff: &ArchitectureDiff, decision: Option<&crate::policy::Decision>) -> String {
    let s = &diff.summary;
    let counts = counts(diff);
    let strategy = diff.compatibility.strategy;
    let transitive = diff
        .transitive_checks
        .iter()
        .filter(|c| c.breaking == Some(true))
        .count();
    if !diff.is_breaking() {
        let unknown = unjudged(diff);
        if unknown > 0 {
            return format!(
                "NOT JUDGED: {unknown} change(s) without a verdict, none breaking; {counts} [strategy {strategy}]"
            );
        }
        return format!("compatible: {counts} [strategy {strategy}]");
    }
    let removed = diff
        .impact
        .iter()
        .filter(|i| i.reason == ImpactReason::MessageRemoved)
        .count();
    let mut broke = Vec::new();
    if s.schema_breaking > 0 {
        broke.push(format!("{} breaking schema change(s)", s.schema_breaking));
    }
    if removed > 0 {
        broke.push(format!("{removed} message(s) removed while in use"));
    }
    if transitive > 0 {
        broke.push(format!(
            "{transitive} schema(s) breaking against earlier versions"
        ));
    }
    if let Some(specs) = s
        .specifications
        .as_ref()
        .filter(|s| s.specification_breaking > 0)
    {
        broke.push(format!(
            "{} breaking specification change(s)",
            specs.specification_breaking
        ));
    }
    let accepted = decision.is_some_and(|d| {
        let mut breaks = d.breaks.iter();
        !d.breaks.is_empty() && breaks.all(|b| b.status == crate::policy::Status::Acknowledged)
    });
    let verdict = if accepted {
        "acknowledged (every break)"
    } else {
        "BREAKING"
    };
    format!(
        "{verdict}: {}; {counts} [strategy {strategy}]",
        broke.join(", ")
    )
}

/// How many schema changes and transitive checks have no verdict, and how many specification
/// changes have something not judged ([`SpecificationChange::is_unjudged`]).
///
/// [`SpecificationChange::is_unjudged`]: crate::diff::SpecificationChange::is_unjudged
pub fn unjudged(diff: &ArchitectureDiff) -> usize {
    let s = &diff.summary;
    let checks = diff.transitive_checks.iter();
    let checks = checks.filter(|c| c.breaking.is_none() && !c.in_neither_catalog);
    diff.schema_counts().1
        + checks.count()
        + s.specifications
            .as_ref()
            .map_or(0, |specs| specs.specification_unknown)
}

/// ` against 1.0.0` (or ` against commit 0123abcd`) for a transitive check of `diff`, which
/// compares with an earlier version than the baseline's; nothing for a schema change.
pub fn against(diff: &ArchitectureDiff, change: &SchemaChange) -> String {
    if diff.schema_changes.iter().any(|c| std::ptr::eq(c, change)) {
        return String::new();
    }
    format!(" against {}", against_label(change))
}

/// `1 schema change(s) (1 breaking, 0 unknown), resources +0 -0 ~0, edges +0 -0`, then the
/// specification changes when there are any, and the schema files in neither catalog: the
/// document counts them as changes without a verdict, but they are none.
pub fn counts(diff: &ArchitectureDiff) -> String {
    let s = &diff.summary;
    let in_neither = diff.in_neither_catalog().count();
    let (changes, unknown) = diff.schema_counts();
    let specs = s.specifications.as_ref().map_or(String::new(), |specs| {
        format!(
            ", {} specification change(s) ({} breaking, {} unknown)",
            specs.specification_changes, specs.specification_breaking, specs.specification_unknown
        )
    });
    let counts = format!(
        "{} schema change(s) ({} breaking, {} unknown), resources +{} -{} ~{}, edges +{} -{}",
        changes,
        s.schema_breaking,
        unknown,
        s.resources_added,
        s.resources_removed,
        s.resources_changed,
        s.edges_added,
        s.edges_removed,
    );
    let missing = match in_neither {
        0 => String::new(),
        n => format!(", {n} schema file(s) in neither catalog (no change)"),
    };
    counts + &specs + &missing
}

/// The note on a schema file in neither catalog, which the document lists as a change without
/// a verdict (as the reference does), though it is none (escaped).
pub fn in_neither_note(change: &SchemaChange, locations: &Locations) -> String {
    format!(
        "{} {} is in neither catalog: no change, so not judged (see the catalog problems)",
        message_label(change),
        schema_file(change, locations)
    )
}

/// What a transitive check compared with: `1.0.0`, or `commit 0123abcd` from the history.
pub fn against_label(change: &SchemaChange) -> String {
    match (&change.message.version.a, &change.against_commit) {
        (_, Some(commit)) => format!("commit {}", commit.get(..12).unwrap_or(commit)),
        (Some(version), None) => escape_text(version).into_owned(),
        (None, None) => "an earlier version".to_owned(),
    }
}

/// `fingerprint 0123… (acknowledged by team-orders until 2027-01-31: consumers migrated)`:
/// what a reader needs to acknowledge a break, or to see that it was.
pub fn fingerprint_note(fingerprint: &str, decision: Option<&crate::policy::Decision>) -> String {
    match ack_note(fingerprint, decision) {
        Some(ack) => format!("fingerprint {fingerprint} ({ack})"),
        None => format!("fingerprint {fingerprint}"),
    }
}

/// The GitHub annotation level of a break: `notice` once an acknowledgement in force accepts
/// it (it does not trip the job, so it is no error), else `error`.
pub fn break_level(fingerprint: &str, decision: Option<&crate::policy::Decision>) -> &'static str {
    let found = decision.and_then(|d| d.find(fingerprint));
    match found.map(|b| b.status) {
        Some(crate::policy::Status::Acknowledged) => "notice",
        _ => "error",
    }
}

/// `acknowledged by team-orders until 2027-01-31: consumers migrated`, when an
/// acknowledgement names the break.
pub fn ack_note(fingerprint: &str, decision: Option<&crate::policy::Decision>) -> Option<String> {
    use crate::policy::Status;
    let found = decision?.find(fingerprint)?;
    let ack = found.ack.as_ref()?;
    let by = ack
        .owner
        .as_deref()
        .map(|o| format!(" by {}", escape_text(o)))
        .unwrap_or_default();
    let until = ack
        .expires
        .as_deref()
        .map(|e| format!(" until {}", escape_text(e)))
        .unwrap_or_default();
    let state = match found.status {
        Status::Expired => "acknowledgement EXPIRED",
        _ => "acknowledged",
    };
    Some(format!("{state}{by}{until}: {}", escape_text(&ack.reason)))
}

/// The fingerprint note of a change without a verdict, when the policy counts it as a break
/// (`--fail-on unknown`); otherwise there is nothing to acknowledge.
pub fn unknown_note(
    fingerprint: &str,
    decision: Option<&crate::policy::Decision>,
) -> Option<String> {
    decision?.find(fingerprint)?;
    Some(fingerprint_note(fingerprint, decision))
}

/// A JSON pointer for display, escaped; the empty pointer is the document root.
pub fn pointer(path: &str) -> Cow<'_, str> {
    if path.is_empty() {
        Cow::Borrowed("(root)")
    } else {
        escape_text(path)
    }
}

/// The direction a breaking op breaks, its own and not its whole change's (an `enum.added`
/// breaks `backward` alone, beside a `required.removed` that breaks `forward`).
pub fn op_direction(op: &crate::schema::Op) -> &'static str {
    op.direction.map_or("?", |d| d.as_str())
}

/// A breaking op as the GitHub annotations word it (`what`: `schema change`, ...): its own
/// direction, the node, the kind and why.
pub fn breaking_op_line(what: &str, op: &crate::schema::Op) -> String {
    format!(
        "Breaking ({}) {what}: {} [{}] {}",
        op_direction(op),
        pointer(&op.path),
        op.kind,
        escape_text(&op.explanation)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::{ImpactReason, ResourceRef};

    #[test]
    fn control_characters_are_shown_not_run() {
        assert_eq!(escape_text("plain id"), "plain id");
        assert_eq!(
            escape_text("a\n::error file=x::forged\u{1b}[2J\u{7}"),
            "a\\u{a}::error file=x::forged\\u{1b}[2J\\u{7}"
        );
        assert_eq!(escape_text("\u{9b}31m\u{202e}"), "\\u{9b}31m\\u{202e}");
        assert_eq!(
            escape_text("a\u{2028}b\u{2029}\u{200f}\u{61c}"),
            "a\\u{2028}b\\u{2029}\\u{200f}\\u{61c}"
        );
    }

    #[test]
    fn a_party_declared_twice_alike_is_named_once() {
        let party = |owners: &[&str]| Party {
            kind: "service".into(),
            id: "Inventory".into(),
            version: Some("0.0.2".into()),
            owners: Some(owners.iter().map(|o| o.to_string()).collect()),
        };
        let impact = Impact {
            message: ResourceRef {
                kind: "event".into(),
                id: "Adjusted".into(),
                version: Some("1.0.0".into()),
            },
            reason: ImpactReason::MessageRemoved,
            direction: None,
            producers: vec![party(&["a"]), party(&["a"]), party(&["b"])],
            consumers: Vec::new(),
        };
        assert_eq!(
            hurt_line(&impact),
            "consumers: none; producers: service Inventory 0.0.2 (a), service Inventory 0.0.2 (b)"
        );
    }
}
