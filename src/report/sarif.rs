//! SARIF 2.1.0 for code-scanning tools: one result per breaking op (level `error`, schema and
//! specification ops alike), per message removed while in use (`error`), per schema or
//! specification change without a verdict (`warning`) and per catalog problem (`warning` or
//! `note`; in a diff that could not be made, [`refused`], `error` or `warning`) and per
//! acknowledgement that matches nothing (`note`, at its entry); a rule per kind
//! with its words from the rules
//! table; locations at the file and line of the finding; `partialFingerprints` from the
//! policy's fingerprints, so GitHub code scanning follows a break across pushes; acknowledged
//! breaks carry an external suppression with the acknowledgement's reason. Serde types only.

use std::collections::BTreeMap;

use serde::Serialize;

use super::*;
use crate::catalog::Severity;
use crate::policy::{self, Decision, Status};

/// The SARIF schema this output follows.
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

#[derive(Serialize)]
pub struct Log {
    #[serde(rename = "$schema")]
    pub schema: &'static str,
    pub version: &'static str,
    pub runs: Vec<Run>,
}

#[derive(Serialize)]
pub struct Run {
    pub tool: Tool,
    pub results: Vec<SarifResult>,
}

#[derive(Serialize)]
pub struct Tool {
    pub driver: Driver,
}

#[derive(Serialize)]
pub struct Driver {
    pub name: &'static str,
    pub version: &'static str,
    pub rules: Vec<RuleDescriptor>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RuleDescriptor {
    pub id: String,
    pub short_description: Text,
    pub full_description: Text,
    pub help: Text,
}

#[derive(Serialize)]
pub struct Text {
    pub text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SarifResult {
    pub rule_id: String,
    pub rule_index: usize,
    pub level: &'static str,
    pub message: Text,
    pub locations: Vec<Location>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub partial_fingerprints: BTreeMap<&'static str, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suppressions: Vec<Suppression>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    pub physical_location: PhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PhysicalLocation {
    pub artifact_location: ArtifactLocation,
    pub region: Region,
}

#[derive(Serialize)]
pub struct ArtifactLocation {
    pub uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Region {
    pub start_line: usize,
}

#[derive(Serialize)]
pub struct Suppression {
    pub kind: &'static str,
    pub justification: String,
}

/// The fingerprint key in `partialFingerprints`; `v2` since fingerprints name what changed.
const FINGERPRINT_KEY: &str = "catalogDiff/v2";

/// Rules that are not rows of a format's table.
const MESSAGE_REMOVED: (&str, &str, &str) = (
    "message.removed",
    "A message removed while something still sends or receives it",
    "its producers and consumers still point at it; keep it (deprecated) until they move",
);
const UNKNOWN: (&str, &str, &str) = (
    "schema.unknown",
    "A schema change without a verdict",
    "the format, a parse error or a missing file left no verdict; a human needs to look",
);
const CATALOG_PROBLEM: (&str, &str, &str) = (
    "catalog.problem",
    "A catalog problem",
    "the catalog cannot be read exactly as the EventCatalog SDK reads it",
);

const UNUSED_ACK: (&str, &str, &str) = (
    "policy.unused-acknowledgement",
    "An acknowledgement that matches nothing",
    "no finding of this diff has its fingerprint; delete it once its break is gone",
);

struct Builder<'a> {
    context: &'a Context<'a>,
    rules: Vec<RuleDescriptor>,
    results: Vec<SarifResult>,
}

impl Builder<'_> {
    /// The log of one run, with the rules and results pushed.
    fn into_log(self) -> Log {
        Log {
            schema: SCHEMA,
            version: "2.1.0",
            runs: vec![Run {
                tool: Tool {
                    driver: Driver {
                        name: "catalog-diff",
                        version: env!("CARGO_PKG_VERSION"),
                        rules: self.rules,
                    },
                },
                results: self.results,
            }],
        }
    }

    /// A catalog problem (which `sides` have it) at its file and line.
    fn problem(&mut self, level: &'static str, sides: &str, diagnostic: &Diagnostic) {
        let rule = self.rule(CATALOG_PROBLEM);
        let place = Place {
            file: diagnostic.file.clone(),
            line: diagnostic.line,
        };
        let message = escape_text(&format!("{sides}: {}", diagnostic.message)).into_owned();
        self.push(rule, level, message, Some(&place), None);
    }

    fn rule(&mut self, (id, short, help): (&str, &str, &str)) -> usize {
        if let Some(at) = self.rules.iter().position(|r| r.id == id) {
            // Two formats name a rule alike (`field.removed` in Avro and Protobuf): the op
            // kind stays the rule, and its texts give each format's words.
            let rule = &mut self.rules[at];
            if !rule.full_description.text.contains(short) {
                rule.short_description.text = format!("{} / {short}", rule.short_description.text);
                rule.full_description.text =
                    format!("{} / {short}: {help}.", rule.full_description.text);
                rule.help.text = format!("{} / {help}.", rule.help.text);
            }
            return at;
        }
        self.rules.push(RuleDescriptor {
            id: id.to_owned(),
            short_description: Text {
                text: short.to_owned(),
            },
            full_description: Text {
                text: format!("{short}: {help}."),
            },
            help: Text {
                text: format!("{help}."),
            },
        });
        self.rules.len() - 1
    }

    fn location(&self, place: Option<&Place>) -> Vec<Location> {
        let Some(place) = place else {
            return Vec::new();
        };
        let path = if self.context.dir.is_empty() {
            place.file.clone()
        } else {
            format!("{}/{}", self.context.dir, place.file)
        };
        located(&path, place.line)
    }

    fn push(
        &mut self,
        rule: usize,
        level: &'static str,
        message: String,
        place: Option<&Place>,
        fingerprint: Option<String>,
    ) {
        let decision: Option<&Decision> = self.context.decision;
        let suppressions = fingerprint
            .as_deref()
            .and_then(|fp| decision?.find(fp))
            .filter(|found| found.status == Status::Acknowledged)
            .and_then(|found| found.ack.as_ref())
            .map(|ack| Suppression {
                kind: "external",
                justification: escape_text(&ack.reason).into_owned(),
            })
            .into_iter()
            .collect();
        self.results.push(SarifResult {
            rule_id: self.rules[rule].id.clone(),
            rule_index: rule,
            level,
            message: Text { text: message },
            locations: self.location(place),
            partial_fingerprints: fingerprint
                .map(|fp| BTreeMap::from([(FINGERPRINT_KEY, fp)]))
                .unwrap_or_default(),
            suppressions,
        });
    }
}

/// The location of line `line` of the file at `path` from the repository root.
fn located(path: &str, line: Option<usize>) -> Vec<Location> {
    vec![Location {
        physical_location: PhysicalLocation {
            artifact_location: ArtifactLocation {
                uri: uri_path(path),
            },
            region: Region {
                start_line: line.unwrap_or(1).max(1),
            },
        },
    }]
}

/// The SARIF log of a diff.
pub fn log(diff: &ArchitectureDiff, context: &Context<'_>) -> Log {
    let findings = Findings::of(diff);
    let mut builder = Builder {
        context,
        rules: Vec::new(),
        results: Vec::new(),
    };
    for change in findings.breaking.iter().chain(&findings.transitive) {
        for (n, op) in change.ops.iter().enumerate().filter(|(_, op)| op.breaking) {
            let rule = builder.rule((op.kind.id, op.kind.change, op.kind.reason));
            let message = breaking_op_message(&message_label(change), op);
            let place = context.locations.op(change, n);
            let fingerprint = policy::op_fingerprint(change, op);
            builder.push(rule, "error", message, place.as_ref(), Some(fingerprint));
        }
    }
    for impact in &findings.removed_in_use {
        let rule = builder.rule(MESSAGE_REMOVED);
        let place = context.locations.removal(impact).map(|file| Place {
            file: file.to_owned(),
            line: None,
        });
        let message = format!(
            "{} was removed while in use; {}",
            impact_label(impact),
            hurt_line(impact)
        );
        let fingerprint = policy::impact_fingerprint(impact);
        builder.push(rule, "error", message, place.as_ref(), Some(fingerprint));
    }
    for change in &findings.unknown {
        let rule = builder.rule(UNKNOWN);
        let message = format!(
            "{}{}: no verdict: {}",
            message_label(change),
            against(diff, change),
            escape_text(change.unknown_reason.as_deref().unwrap_or("unknown"))
        );
        let place = context.locations.schema(change).cloned();
        let fingerprint = policy::unknown_fingerprint(change);
        builder.push(rule, "warning", message, place.as_ref(), Some(fingerprint));
    }
    for (rule, level, message, place, fingerprint) in super::specification::sarif_findings(diff) {
        let rule = builder.rule(rule);
        builder.push(rule, level, message, place.as_ref(), Some(fingerprint));
    }
    for (sides, diagnostic) in &findings.problems {
        let level = match diagnostic.severity {
            Severity::Error => "warning",
            Severity::Warning => "note",
        };
        builder.problem(level, sides, diagnostic);
    }
    // Each stale acknowledgement at its entry (the file is at the repository root).
    for ack in context.decision.map_or(&[][..], |d| &d.unused_acks) {
        let rule = builder.rule(UNUSED_ACK);
        let message = format!(
            "acknowledgement of {} matches nothing here; delete it once its break is gone",
            ack.fingerprint
        );
        builder.push(rule, "note", message, None, None);
        if let Some(result) = builder.results.last_mut() {
            result.locations = located(policy::ACK_FILE, Some(ack.line));
        }
    }
    builder.into_log()
}

/// A SARIF result's words for breaking `op` of the change called `label` (a message schema's
/// or a specification's).
pub(super) fn breaking_op_message(label: &str, op: &crate::schema::Op) -> String {
    format!(
        "{label}: {} at {} breaks the {} direction: {}",
        op.kind.id,
        pointer(&op.path),
        op_direction(op),
        escape_text(&op.explanation)
    )
}

/// The SARIF log as pretty JSON text.
pub fn sarif(diff: &ArchitectureDiff, context: &Context<'_>) -> String {
    format!("{}\n", crate::json_text::to_pretty(&log(diff, context)))
}

/// The SARIF log of a diff that could not be made: each catalog problem at its line, an error
/// or a warning as the run counted it.
pub fn refused(problems: &[SideDiagnostic], dir: &str) -> String {
    let locations = super::locate::Locations::default();
    let context = Context {
        color: false,
        locations: &locations,
        dir,
        decision: None,
    };
    let mut builder = Builder {
        context: &context,
        rules: Vec::new(),
        results: Vec::new(),
    };
    for (sides, diagnostic) in super::problems_once(problems) {
        let level = match diagnostic.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        builder.problem(level, sides, diagnostic);
    }
    format!("{}\n", crate::json_text::to_pretty(&builder.into_log()))
}

/// A repository path as a relative URI reference (RFC 3986): every byte but the unreserved
/// ones and `/` percent-encoded, so a `#`, `%`, space or control character in a catalog path
/// is read back as the path it is, never as a fragment or an escape.
fn uri_path(path: &str) -> String {
    let mut uri = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            uri.push(byte as char);
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri
}

#[cfg(test)]
mod tests {
    use super::uri_path;

    #[test]
    fn paths_are_uri_references_that_read_back_as_themselves() {
        assert_eq!(
            uri_path("events/Order_1-a.b~/schema.json"),
            "events/Order_1-a.b~/schema.json"
        );
        assert_eq!(
            uri_path("events/My Event#1%20\u{1b}/schéma.json"),
            "events/My%20Event%231%2520%1B/sch%C3%A9ma.json"
        );
    }
}
