//! GitHub Actions workflow commands (`::error file=...,line=...::...`): an `::error` for every
//! breaking finding (a breaking op of a schema or specification change, at the line of the node
//! it changed; a message removed while in use, on a resource still using it; a `::notice`
//! once acknowledged), a `::warning`
//! for every schema change without a verdict and every catalog problem, a `::notice` for every
//! other change, each on the catalog file that declares it (the schema file at the line of the
//! changed node, or the resource file), a `::warning` at each acknowledgement that matches
//! nothing, the policy's counts and a closing summary notice. A diff that could not be
//! made ([`refused`]) names each catalog problem at its level (`::error`, `::warning`) instead.

use super::text::{edge_label, end_label};
use super::*;
use crate::catalog::Severity;
use crate::diff::ArchitectureDiff;

pub fn github(diff: &ArchitectureDiff, context: &Context<'_>) -> String {
    let findings = Findings::of(diff);
    let locations = context.locations;
    let mut out = Annotations {
        out: String::new(),
        dir: context.dir,
    };
    for &change in findings.breaking.iter().chain(&findings.transitive) {
        let against = against(diff, change);
        let hurt = impact_of(diff, change)
            .map(|impact| format!("\nhurt: {}", hurt_line(impact)))
            .unwrap_or_default();
        // One error per breaking op, at the line of the node it changed.
        for (n, op) in change.ops.iter().enumerate().filter(|(_, o)| o.breaking) {
            let fingerprint = crate::policy::op_fingerprint(change, op);
            let body = format!(
                "{}\n{}{hurt}",
                breaking_op_line(&format!("schema change{against}"), op),
                fingerprint_note(&fingerprint, context.decision)
            );
            let place = locations.op(change, n);
            let level = break_level(&fingerprint, context.decision);
            out.push(level, place.as_ref(), &message_label(change), &body);
        }
    }
    for (level, place, title, body) in super::specification::annotations(diff, context.decision) {
        out.push(level, place.as_ref(), &title, &body);
    }
    for impact in &findings.removed_in_use {
        let place = file(locations.removal(impact));
        let fingerprint = crate::policy::impact_fingerprint(impact);
        let body = format!(
            "Removed while in use; {} ({})",
            hurt_line(impact),
            fingerprint_note(&fingerprint, context.decision)
        );
        let level = break_level(&fingerprint, context.decision);
        out.push(level, place.as_ref(), &impact_label(impact), &body);
    }
    for &change in &findings.unknown {
        let mut body = format!(
            "No verdict{}: {}.",
            against(diff, change),
            escape_text(change.unknown_reason.as_deref().unwrap_or("unknown"))
        );
        let fingerprint = crate::policy::unknown_fingerprint(change);
        if let Some(note) = unknown_note(&fingerprint, context.decision) {
            body.push_str(&format!("\n{note}"));
        }
        out.push(
            "warning",
            locations.schema(change),
            &message_label(change),
            &body,
        );
    }
    for &change in &findings.compatible {
        let body = format!("Compatible schema change ({} op(s)).", change.ops.len());
        out.push(
            "notice",
            locations.schema(change),
            &message_label(change),
            &body,
        );
    }
    let r = &diff.resources;
    for (verb, list) in [("added", &r.added), ("removed", &r.removed)] {
        for x in list {
            let place = file(locations.resource(&x.kind, &x.id, x.version.as_deref()));
            let label = escape_text(&format!("{} {}", x.kind, x.id)).into_owned();
            out.push(
                "notice",
                place.as_ref(),
                &label,
                &format!("Resource {verb}."),
            );
        }
    }
    for x in &r.changed {
        let place = file(
            locations
                .resource(&x.kind, &x.id, x.version.b.as_deref())
                .or(locations.resource(&x.kind, &x.id, x.version.a.as_deref())),
        );
        let label = escape_text(&format!("{} {}", x.kind, x.id)).into_owned();
        let body = format!("Resource changed: {}.", x.fields.join(", "));
        out.push("notice", place.as_ref(), &label, &body);
    }
    for (verb, list) in [
        ("added", &diff.edges.added),
        ("removed", &diff.edges.removed),
    ] {
        for edge in list {
            let from = &edge.from;
            let place = from
                .kind
                .as_deref()
                .and_then(|kind| locations.resource(kind, &from.id, from.version.as_deref()));
            let body = format!("Edge {verb}: {}.", edge_label(edge));
            out.push("notice", file(place).as_ref(), &end_label(from), &body);
        }
    }
    for impact in &findings.stopped_using {
        let body = format!(
            "Stopped using a message that still exists; {}",
            hurt_line(impact)
        );
        out.push("notice", None, &impact_label(impact), &body);
    }
    for (sides, diagnostic) in &findings.problems {
        out.problem("warning", sides, diagnostic);
    }
    if let Some(decision) = context.decision {
        // Each stale acknowledgement at its entry, so it can be deleted there.
        for ack in &decision.unused_acks {
            let body = format!(
                "Acknowledgement of {} matches nothing here; delete it once its break is gone.",
                ack.fingerprint
            );
            let place = (crate::policy::ACK_FILE, Some(ack.line));
            out.command("warning", Some(place), "acknowledgement", &body);
        }
        // Counted only: each is annotated at its own line above.
        if let Some(line) = super::text::policy_line_naming(decision, false) {
            out.push("notice", None, "policy", &line);
        }
    }
    out.push(
        "notice",
        None,
        "summary",
        &summary_line(diff, context.decision),
    );
    out.out
}

/// The annotations of a diff that could not be made: each catalog problem at its line, an
/// error or a warning as the run counted it, then `summary`.
pub fn refused(problems: &[SideDiagnostic], dir: &str, summary: &str) -> String {
    let mut out = Annotations {
        out: String::new(),
        dir,
    };
    for (sides, diagnostic) in super::problems_once(problems) {
        let level = match diagnostic.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        out.problem(level, sides, diagnostic);
    }
    out.push("error", None, "summary", &escape_text(summary));
    out.out
}

fn file(path: Option<&str>) -> Option<Place> {
    path.map(|file| Place {
        file: file.to_owned(),
        line: None,
    })
}

/// Workflow commands being written; paths are prefixed with the catalog folder.
struct Annotations<'a> {
    out: String,
    dir: &'a str,
}

impl Annotations<'_> {
    /// A catalog problem (which `sides` have it) at its file and line.
    fn problem(&mut self, level: &str, sides: &str, diagnostic: &crate::catalog::Diagnostic) {
        let place = Place {
            file: diagnostic.file.clone(),
            line: diagnostic.line,
        };
        // Escaped by the problem's Display; the one line break left is before its hint.
        let body = format!("{sides}: {diagnostic}");
        self.push(level, Some(&place), "catalog problem", &body);
    }

    /// One command. `title` and `body` are already escaped text; the body may hold newlines.
    fn push(&mut self, level: &str, place: Option<&Place>, title: &str, body: &str) {
        let path = place.map(|place| match self.dir {
            "" => place.file.clone(),
            dir => format!("{dir}/{}", place.file),
        });
        let at = path.as_deref().zip(place.map(|place| place.line));
        self.command(level, at, title, body);
    }

    /// [`Annotations::push`] at a file named from the repository root (a policy file).
    fn command(&mut self, level: &str, at: Option<(&str, Option<usize>)>, title: &str, body: &str) {
        let mut properties = String::new();
        if let Some((path, line)) = at {
            properties.push_str(&format!("file={}", escape_property(&escape_text(path))));
            if let Some(line) = line {
                properties.push_str(&format!(",line={line}"));
            }
            properties.push(',');
        }
        properties.push_str(&format!(
            "title={}",
            escape_property(&format!("catalog-diff: {title}"))
        ));
        self.out
            .push_str(&format!("::{level} {properties}::{}\n", escape_data(body)));
    }
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
