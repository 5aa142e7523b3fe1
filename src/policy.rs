//! Policy a team can live with: the `catalog-diff.toml` configuration (default strategy,
//! `fail-on`, per-message strategies), acknowledged breaks (`catalog-diff.ack.toml`), stable
//! fingerprints for every finding, and the decision whether a diff trips the policy. Pure: the
//! files' text and today's date come from the caller.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::IntoDeserializer;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use toml::Spanned;
use toml::de::{DeString, DeTable, DeValue};

use crate::catalog::escape_text;
use crate::diff::{
    ArchitectureDiff, Impact, ImpactReason, ResourceRef, SchemaChange, SchemaFile,
    SpecificationChange,
};
use crate::schema::{Op, Strategy};

/// The configuration file's name, at the repository root.
pub const CONFIG_FILE: &str = "catalog-diff.toml";
/// The acknowledgements file's name, at the repository root.
pub const ACK_FILE: &str = "catalog-diff.ack.toml";

/// When the exit code says "stop".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FailOn {
    /// A breaking change that is not acknowledged.
    #[default]
    Breaking,
    /// Also a change without a verdict, or a catalog that cannot be judged.
    Unknown,
    /// Never: the report only.
    Never,
}

/// A problem in a policy file, with the line it is on.
///
/// The message may quote the file (a value, a key, the TOML parser's words about them): it is
/// shown escaped, so a newline in a value cannot start a line of its own (a forged `::error`
/// annotation in CI). Only the hint, the tool's own words, is put on a line of its own.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{}:{line}: {}{}",
    escape_text(file),
    escape_text(message),
    hint.map(|hint| format!("\n  hint: {hint}")).unwrap_or_default()
)]
pub struct Error {
    pub file: String,
    pub line: usize,
    pub message: String,
    /// What to do about it.
    pub hint: Option<&'static str>,
}

/// Every problem found in the policy files, in line order, one `error:` line apiece (the first
/// line's prefix is the caller's).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\nerror: "))]
pub struct Errors(pub Vec<Error>);

/// `catalog-diff.toml`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Config {
    pub strategy: Option<Strategy>,
    pub fail_on: Option<FailOn>,
    /// Where it is written is kept, for an error about the folder that names its line.
    pub dir: Option<Spanned<String>>,
    pub proto_rules: Option<crate::schema::ProtoRules>,
    /// Compare transitive strategies against every schema in the first-parent history too.
    /// Where it is written is kept, for an error when no strategy is transitive.
    pub history: Option<Spanned<bool>>,
    /// Per-message settings, keyed by message id, as a schema registry sets them per subject.
    /// Each id keeps where it is written, for an error that names its line.
    #[serde(default)]
    pub messages: BTreeMap<toml::Spanned<String>, MessageConfig>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MessageConfig {
    pub strategy: Option<Strategy>,
}

impl Config {
    /// Reads `text` (the file `file`); every unknown key and bad value is named with its line.
    pub fn parse(file: &str, text: &str) -> Result<Config, Errors> {
        let (config, problems) = Config::parse_partly(file, text)?;
        in_line_order(config, problems)
    }

    /// [`Config::parse`], keeping the settings that read well beside the problems of the
    /// others, so that what they name can be checked too before every problem is reported.
    /// A file that is not TOML at all is only its problems.
    pub fn parse_partly(file: &str, text: &str) -> Result<(Config, Vec<Error>), Errors> {
        let document = parse_document(file, text)?;
        let mut config = Config::default();
        let mut problems = Vec::new();
        // Each setting, and each message's, is read on its own: one bad entry hides no other.
        for (key, value) in document.into_inner() {
            let span = value.span();
            let entries = match value.into_inner() {
                // Each message's settings one by one too: an unknown one hides no bad value.
                DeValue::Table(messages) if key.get_ref() == "messages" => messages
                    .into_iter()
                    .flat_map(|(id, settings)| {
                        let span = settings.span();
                        let parts = match settings.into_inner() {
                            DeValue::Table(fields) if !fields.is_empty() => fields
                                .into_iter()
                                .map(|(name, value)| DeValue::Table(one_entry(name, value)))
                                .collect(),
                            other => vec![other],
                        };
                        let key = key.clone();
                        parts.into_iter().map(move |part| {
                            let part = Spanned::new(span.clone(), part);
                            let message = DeValue::Table(one_entry(id.clone(), part));
                            one_entry(key.clone(), Spanned::new(span.clone(), message))
                        })
                    })
                    .collect(),
                other => vec![one_entry(key, Spanned::new(span, other))],
            };
            for entry in entries {
                let span = 0..text.len();
                match Config::deserialize(Spanned::new(span, entry).into_deserializer()) {
                    Ok(part) => config.take(part),
                    Err(error) => problems.push(toml_error(file, text, &error)),
                }
            }
        }
        in_order_once(&mut problems);
        Ok((config, problems))
    }

    /// The settings `part` holds, which this configuration lacks.
    fn take(&mut self, part: Config) {
        self.strategy = self.strategy.or(part.strategy);
        self.fail_on = self.fail_on.or(part.fail_on);
        self.dir = self.dir.take().or(part.dir);
        self.proto_rules = self.proto_rules.or(part.proto_rules);
        self.history = self.history.take().or(part.history);
        for (id, settings) in part.messages {
            let known = self.messages.entry(id).or_default();
            known.strategy = known.strategy.or(settings.strategy);
        }
    }

    /// The strategy of every message this file names.
    pub fn message_strategies(&self) -> BTreeMap<String, Strategy> {
        self.messages
            .iter()
            .filter_map(|(id, config)| Some((id.get_ref().clone(), config.strategy?)))
            .collect()
    }

    /// The line of `text` (this file's) that sets the catalog folder, if one does.
    pub fn dir_line(&self, text: &str) -> Option<usize> {
        let dir = self.dir.as_ref()?;
        Some(line_at(text, dir.span().start))
    }

    /// The line of `text` (this file's) that sets `history = true`, if one does.
    pub fn history_line(&self, text: &str) -> Option<usize> {
        let history = self.history.as_ref().filter(|h| *h.get_ref())?;
        Some(line_at(text, history.span().start))
    }

    /// Each message id with the line of `text` (this file's) where it is written.
    pub fn message_lines<'a>(&'a self, text: &str) -> impl Iterator<Item = (&'a str, usize)> {
        self.messages
            .keys()
            .map(move |id| (id.get_ref().as_str(), line_at(text, id.span().start)))
    }
}

/// The line of `text` that byte `offset` is on.
fn line_at(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&byte| byte == b'\n')
        .count()
        + 1
}

/// The TOML document `text`, or every syntax error in it.
fn parse_document<'i>(file: &str, text: &'i str) -> Result<Spanned<DeTable<'i>>, Errors> {
    let (document, syntax) = DeTable::parse_recoverable(text);
    let problems = syntax.iter().map(|e| toml_error(file, text, e)).collect();
    in_line_order(document, problems)
}

/// A table of the one entry `key = value`.
fn one_entry<'i>(key: Spanned<DeString<'i>>, value: Spanned<DeValue<'i>>) -> DeTable<'i> {
    let mut table = DeTable::new();
    table.insert(key, value);
    table
}

/// `value`, or the problems found, in line order.
fn in_line_order<T>(value: T, mut problems: Vec<Error>) -> Result<T, Errors> {
    if problems.is_empty() {
        return Ok(value);
    }
    in_order_once(&mut problems);
    Err(Errors(problems))
}

/// `problems` in line order, each said once: the parser reports a problem at each character
/// (two control characters in one string), which would name the same line twice in the same
/// words.
fn in_order_once(problems: &mut Vec<Error>) {
    problems.sort_by_key(|problem| problem.line);
    problems.dedup_by(|a, b| a.line == b.line && a.message == b.message);
}

fn toml_error(file: &str, text: &str, error: &toml::de::Error) -> Error {
    let line = error.span().map_or(1, |span| line_at(text, span.start));
    let message = error.message().trim_end();
    // TOML reads `2027-03-31` unquoted as a date, which serde shows as a map.
    let value = text
        .lines()
        .nth(line.saturating_sub(1))
        .and_then(|l| l.split_once('='));
    let hint = if message.contains("invalid type: map")
        && value.is_some_and(|(_, v)| v.trim().starts_with(|c: char| c.is_ascii_digit()))
    {
        "write the date as text: `expires = \"2027-03-31\"`"
    } else if file.ends_with(ACK_FILE) {
        "each `[[ack]]` takes `fingerprint` and `reason` as text, and may take `owner` and `expires` (\"YYYY-MM-DD\")"
    } else {
        "the README's Policy section lists the keys of catalog-diff.toml and their values"
    };
    Error {
        file: file.to_owned(),
        line,
        message: message.to_owned(),
        hint: Some(hint),
    }
}

/// A date as `YYYY-MM-DD`; compares in calendar order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    pub year: i32,
    pub month: u8,
    pub day: u8,
}

impl Date {
    /// `2027-01-31`; `None` for anything else, impossible days included.
    pub fn parse(text: &str) -> Option<Date> {
        let mut parts = text.trim().splitn(3, '-');
        let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
        if year.len() != 4 || month.len() != 2 || day.len() != 2 {
            return None;
        }
        let date = Date {
            year: year.parse().ok()?,
            month: month.parse().ok()?,
            day: day.parse().ok()?,
        };
        (1..=12)
            .contains(&date.month)
            .then_some(())
            .filter(|()| (1..=days_in_month(date.year, date.month)).contains(&date.day))
            .map(|()| date)
    }

    /// The civil date of a count of days since 1970-01-01.
    pub fn from_days(days: i64) -> Date {
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as i32;
        Date { year, month, day }
    }
}

fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// One acknowledged break.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ack {
    pub fingerprint: String,
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires: Option<String>,
    /// The line of the entry in the acknowledgements file.
    #[serde(skip)]
    pub line: usize,
}

/// What an acknowledgement without a reason is told.
pub const REASON_HINT: &str = "say why the break is acceptable, for the next reader";

/// The keys of an `[[ack]]` entry, as [`AckEntry`] names them.
const ACK_KEYS: [&str; 4] = ["fingerprint", "reason", "owner", "expires"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AckEntry {
    fingerprint: toml::Spanned<String>,
    reason: toml::Spanned<String>,
    owner: Option<String>,
    expires: Option<toml::Spanned<String>>,
}

/// Reads `catalog-diff.ack.toml`: `[[ack]]` entries with `fingerprint`, `reason`, and
/// optionally `owner` and `expires` (`YYYY-MM-DD`). Every problem is named with its line.
pub fn parse_acks(file: &str, text: &str) -> Result<Vec<Ack>, Errors> {
    let document = parse_document(file, text)?;
    let problem = |offset: usize, message: String| Error {
        file: file.to_owned(),
        line: line_at(text, offset),
        message,
        hint: None,
    };
    let mut acks = Vec::new();
    let mut problems = Vec::new();
    // Each fingerprint's first entry, by line: a second would be ignored without a word.
    let mut first_lines = BTreeMap::new();
    for (key, value) in document.into_inner() {
        // Each entry is read on its own: one bad entry hides no other.
        let entries = match value.into_inner() {
            DeValue::Array(entries) if key.get_ref() == "ack" => entries,
            _ => {
                let message = match key.get_ref().as_ref() {
                    "ack" => "`ack` holds entries: write each under `[[ack]]`".to_owned(),
                    other => format!("unknown field `{other}`, expected `ack`"),
                };
                problems.push(problem(key.span().start, message));
                continue;
            }
        };
        for entry in entries {
            // Unknown keys are named and set aside, so the entry's values are checked too.
            let span = entry.span();
            // False once a required value is set aside: the entry is not read.
            let mut whole = true;
            let entry = match entry.into_inner() {
                DeValue::Table(mut fields) => {
                    let unknown: Vec<_> = fields
                        .keys()
                        .filter(|name| !ACK_KEYS.contains(&name.get_ref().as_ref()))
                        .cloned()
                        .collect();
                    for name in unknown {
                        problems.push(problem(
                            name.span().start,
                            format!(
                                "unknown field `{}`, expected one of `{}`",
                                name.get_ref(),
                                ACK_KEYS.join("`, `")
                            ),
                        ));
                        fields.remove(&name);
                    }
                    // Each value is text: one of another type is named and set aside, so the
                    // rest of the entry (a duplicate fingerprint, say) is checked in this run.
                    let mistyped: Vec<_> = fields
                        .iter()
                        .filter_map(|(name, value)| {
                            let value = Spanned::new(value.span(), value.get_ref().clone());
                            let error =
                                Spanned::<String>::deserialize(value.into_deserializer()).err()?;
                            Some((name.clone(), error))
                        })
                        .collect();
                    for (name, error) in mistyped {
                        problems.push(toml_error(file, text, &error));
                        fields.remove(&name);
                        whole &= !["fingerprint", "reason"].contains(&name.get_ref().as_ref());
                    }
                    Spanned::new(span, DeValue::Table(fields))
                }
                other => Spanned::new(span, other),
            };
            if !whole {
                continue;
            }
            let entry = match AckEntry::deserialize(entry.into_deserializer()) {
                Ok(entry) => entry,
                Err(error) => {
                    problems.push(toml_error(file, text, &error));
                    continue;
                }
            };
            let mut fine = true;
            if !is_fingerprint(entry.fingerprint.get_ref()) {
                fine = false;
                problems.push(problem(
                    entry.fingerprint.span().start,
                    format!(
                        "`{}` is not a fingerprint (24 hexadecimal digits, as reports print them)",
                        entry.fingerprint.get_ref()
                    ),
                ));
            }
            if entry.reason.get_ref().trim().is_empty() {
                fine = false;
                problems.push(problem(
                    entry.reason.span().start,
                    format!("`reason` is empty: {REASON_HINT}"),
                ));
            }
            let line = line_at(text, entry.fingerprint.span().start);
            if let Some(first) = first_lines.get(entry.fingerprint.get_ref()) {
                fine = false;
                problems.push(problem(
                    entry.fingerprint.span().start,
                    format!(
                        "fingerprint `{}` is acknowledged already at line {first}: keep one entry (renew it by editing its `expires`)",
                        entry.fingerprint.get_ref()
                    ),
                ));
            } else {
                first_lines.insert(entry.fingerprint.get_ref().clone(), line);
            }
            if let Some(expires) = &entry.expires
                && Date::parse(expires.get_ref()).is_none()
            {
                fine = false;
                problems.push(problem(
                    expires.span().start,
                    format!(
                        "`expires = \"{}\"` is not a date: write it as YYYY-MM-DD",
                        expires.get_ref()
                    ),
                ));
            }
            if fine {
                acks.push(Ack {
                    line: line_at(text, entry.fingerprint.span().start),
                    fingerprint: entry.fingerprint.into_inner(),
                    reason: entry.reason.into_inner(),
                    owner: entry.owner,
                    expires: entry.expires.map(Spanned::into_inner),
                });
            }
        }
    }
    in_line_order(acks, problems)
}

/// The TOML text of one new entry, to append to the acknowledgements file.
pub fn ack_entry_text(ack: &Ack) -> String {
    let quote = |text: &str| toml::Value::String(text.to_owned()).to_string();
    let mut out = format!(
        "\n[[ack]]\nfingerprint = {}\nreason = {}\n",
        quote(&ack.fingerprint),
        quote(&ack.reason)
    );
    if let Some(owner) = &ack.owner {
        out.push_str(&format!("owner = {}\n", quote(owner)));
    }
    if let Some(expires) = &ack.expires {
        out.push_str(&format!("expires = {}\n", quote(expires)));
    }
    out
}

/// Whether `text` has the shape of a fingerprint.
pub fn is_fingerprint(text: &str) -> bool {
    text.len() == 24
        && text
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

/// A stable name for a finding: it depends on what the finding is (for an op, the message's or
/// resource's type and id, the file, the kind, the path and, where the path does not say what
/// changed there, what does), never on a commit, a version or a line number.
fn fingerprint(parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"catalog-diff finding v2");
    for part in parts {
        hasher.update([0u8]);
        hasher.update(part.as_bytes());
    }
    hasher.finalize()[..12]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn schema_file(change: &SchemaChange) -> &str {
    change
        .after
        .as_ref()
        .or(change.before.as_ref())
        .map_or("", |f| f.path.as_str())
}

/// The fingerprint of one op of a schema change.
pub fn op_fingerprint(change: &SchemaChange, op: &Op) -> String {
    let m = &change.message;
    fingerprint(&[
        "op",
        &m.kind,
        &m.id,
        schema_file(change),
        op.kind.id,
        place(op),
        op.subject.as_deref().unwrap_or_default(),
    ])
}

/// Where an op is, as its fingerprint holds it: a position in a list says nothing once the
/// subject names the element (a branch, a parameter), and it moves when one is put before it.
fn place(op: &Op) -> &str {
    let position = |last: &str| !last.is_empty() && last.bytes().all(|b| b.is_ascii_digit());
    match (&op.subject, op.path.rsplit_once('/')) {
        (Some(_), Some((list, last))) if position(last) => list,
        _ => &op.path,
    }
}

/// The fingerprint of a schema change without a verdict: of that very change (the two texts'
/// hashes), since an acknowledgement cannot vouch for a later change nobody judged either.
pub fn unknown_fingerprint(change: &SchemaChange) -> String {
    let m = &change.message;
    let [before, after] = [&change.before, &change.after].map(|file| file_hash(file.as_ref()));
    fingerprint(&[
        "unknown",
        &m.kind,
        &m.id,
        schema_file(change),
        before,
        after,
    ])
}

fn file_hash(file: Option<&SchemaFile>) -> &str {
    file.and_then(|f| f.hash.as_deref()).unwrap_or("")
}

fn specification_file(change: &SpecificationChange) -> &str {
    change
        .after
        .as_ref()
        .or(change.before.as_ref())
        .map_or("", |f| f.path.as_str())
}

/// The fingerprint of one op of a specification change (#17): by its path and, where the path
/// does not say what changed, by what does (a message of an operation's list); by its words
/// too where another op of the change is alike in all of these (one `$ref`'d schema reached
/// from two places), so acknowledging one accepts that one alone.
pub fn specification_op_fingerprint(change: &SpecificationChange, op: &Op) -> String {
    let r = &change.resource;
    let mut parts = vec![
        "specification-op",
        &r.kind,
        &r.id,
        specification_file(change),
        op.kind.id,
        place(op),
    ];
    // An op without a subject hashes as before, so its acknowledgements still match.
    parts.extend(op.subject.as_deref());
    let alike = |other: &&Op| {
        other.kind.id == op.kind.id && place(other) == place(op) && other.subject == op.subject
    };
    if change.ops.iter().filter(alike).count() > 1 {
        parts.push(&op.reason);
    }
    fingerprint(&parts)
}

/// The fingerprint of a specification change without a verdict.
pub fn specification_unknown_fingerprint(change: &SpecificationChange) -> String {
    let r = &change.resource;
    let [before, after] = [&change.before, &change.after].map(|file| file_hash(file.as_ref()));
    fingerprint(&[
        "specification-unknown",
        &r.kind,
        &r.id,
        specification_file(change),
        before,
        after,
    ])
}

/// The fingerprint of an impact entry (a message removed while in use, say).
pub fn impact_fingerprint(impact: &Impact) -> String {
    let m = &impact.message;
    let reason = serde_json::to_value(impact.reason)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    fingerprint(&["impact", &m.kind, &m.id, &reason])
}

/// Whether a finding is open, acknowledged, or acknowledged with an expiry that has passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Open,
    Acknowledged,
    Expired,
}

/// One finding the policy counts: a breaking op, a message removed while in use, or (under
/// `fail-on unknown`) a schema change without a verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Break {
    pub fingerprint: String,
    pub message: ResourceRef,
    /// The op kind, `message_removed` or `unknown`.
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ack: Option<Ack>,
}

/// The policy's decision on one diff (our additive `policy` key).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    pub fail_on: FailOn,
    /// The exit code is 1.
    pub tripped: bool,
    pub breaks: Vec<Break>,
    /// Acknowledgements that match no finding of this diff (kept, reported, never tripping).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unused_acks: Vec<Ack>,
    /// `breaks` by fingerprint (positions into it, in fingerprint order): a report looks up
    /// every break it shows, and a change of thousands of ops has thousands.
    #[serde(skip)]
    by_fingerprint: Vec<usize>,
}

impl Decision {
    /// The break with `fingerprint`, if the policy counted one.
    pub fn find(&self, fingerprint: &str) -> Option<&Break> {
        let at = self
            .by_fingerprint
            .binary_search_by(|&at| self.breaks[at].fingerprint.as_str().cmp(fingerprint))
            .ok()?;
        Some(&self.breaks[self.by_fingerprint[at]])
    }
}

/// Decides whether `diff` trips `fail_on`, acknowledged breaks set aside until they expire
/// (an acknowledgement expiring on `today` still holds that day).
pub fn decide(diff: &ArchitectureDiff, fail_on: FailOn, acks: &[Ack], today: Date) -> Decision {
    let mut breaks = Vec::new();
    let mut seen = std::collections::HashSet::new();
    // Changes without a verdict are breaks only under `--fail-on unknown`, but an ack of one
    // is in use whatever the policy: another job may run with it.
    let mut unjudged = Vec::new();
    let message = |change: &SchemaChange| ResourceRef {
        kind: change.message.kind.clone(),
        id: change.message.id.clone(),
        version: change
            .message
            .version
            .b
            .clone()
            .or(change.message.version.a.clone()),
    };
    // A schema file in neither catalog is no change: the catalog's warning names it.
    let changes = diff.schema_changes.iter().chain(&diff.transitive_checks);
    for change in changes.filter(|c| !c.in_neither_catalog) {
        match change.breaking {
            Some(true) => {
                for op in change.ops.iter().filter(|op| op.breaking) {
                    // One break per fingerprint: a transitive check may repeat a plain one.
                    let fingerprint = op_fingerprint(change, op);
                    if !seen.insert(fingerprint.clone()) {
                        continue;
                    }
                    breaks.push((
                        fingerprint,
                        message(change),
                        op.kind.id.to_owned(),
                        Some(op.path.clone()),
                    ));
                }
            }
            None if fail_on == FailOn::Unknown => breaks.push((
                unknown_fingerprint(change),
                message(change),
                "unknown".to_owned(),
                None,
            )),
            None => unjudged.push(unknown_fingerprint(change)),
            _ => {}
        }
    }
    // Specification changes (#17): the resource that owns the specification is the subject.
    for change in &diff.specification_changes {
        let subject = ResourceRef {
            kind: change.resource.kind.clone(),
            id: change.resource.id.clone(),
            version: change
                .resource
                .version
                .b
                .clone()
                .or(change.resource.version.a.clone()),
        };
        if change.breaking == Some(true) {
            for op in change.ops.iter().filter(|op| op.breaking) {
                breaks.push((
                    specification_op_fingerprint(change, op),
                    subject.clone(),
                    op.kind.id.to_owned(),
                    Some(op.path.clone()),
                ));
            }
        }
        // A part beside a break that could not be judged is unjudged all the same:
        // acknowledging the break says nothing of it.
        if change.is_unjudged() {
            let fingerprint = specification_unknown_fingerprint(change);
            if fail_on == FailOn::Unknown {
                breaks.push((fingerprint, subject, "unknown".to_owned(), None));
            } else {
                unjudged.push(fingerprint);
            }
        }
    }
    for impact in diff
        .impact
        .iter()
        .filter(|i| i.reason == ImpactReason::MessageRemoved)
    {
        breaks.push((
            impact_fingerprint(impact),
            impact.message.clone(),
            "message_removed".to_owned(),
            None,
        ));
    }
    let breaks: Vec<Break> = breaks
        .into_iter()
        .map(|(fingerprint, message, kind, path)| {
            let ack = acks.iter().find(|a| a.fingerprint == fingerprint).cloned();
            let status = match &ack {
                None => Status::Open,
                Some(ack) => match ack.expires.as_deref().and_then(Date::parse) {
                    Some(expires) if expires < today => Status::Expired,
                    _ => Status::Acknowledged,
                },
            };
            Break {
                fingerprint,
                message,
                kind,
                path,
                status,
                ack,
            }
        })
        .collect();
    let unused_acks = acks
        .iter()
        .filter(|a| {
            !breaks.iter().any(|b| b.fingerprint == a.fingerprint)
                && !unjudged.contains(&a.fingerprint)
        })
        .cloned()
        .collect();
    let tripped =
        fail_on != FailOn::Never && breaks.iter().any(|b| b.status != Status::Acknowledged);
    let mut by_fingerprint: Vec<usize> = (0..breaks.len()).collect();
    by_fingerprint.sort_by(|&a, &b| breaks[a].fingerprint.cmp(&breaks[b].fingerprint));
    Decision {
        fail_on,
        tripped,
        breaks,
        unused_acks,
        by_fingerprint,
    }
}

#[cfg(test)]
mod tests {
    /// A policy file's problems say what to write: a TOML date where text is wanted, and the
    /// fields an `[[ack]]` takes.
    #[test]
    fn policy_file_problems_carry_a_hint() {
        let with = |expires: &str| {
            format!(
                "[[ack]]\nfingerprint = \"0123456789abcdef01234567\"\nreason = \"r\"\nexpires = {expires}\n"
            )
        };
        let error = parse_acks(ACK_FILE, &with("2027-01-01"))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(":4: ") && error.contains("write the date as text"),
            "{error}"
        );
        let error = parse_acks(
            ACK_FILE,
            "[[ack]]\nfingerprint = \"0123456789abcdef01234567\"\n",
        )
        .unwrap_err()
        .to_string();
        assert!(error.contains("each `[[ack]]` takes"), "{error}");
    }

    use super::*;

    /// Two control characters in one string are one problem of that line, said once.
    #[test]
    fn a_problem_the_parser_finds_twice_on_a_line_is_said_once() {
        let text = "strategy = \"ba\u{1}ck\u{2}\"\nfail-on = \"x\u{1}\"\n";
        let Errors(problems) = Config::parse_partly(CONFIG_FILE, text).unwrap_err();
        let lines: Vec<usize> = problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [1, 2], "{problems:?}");
    }

    #[test]
    fn config_reads_and_names_the_line_of_a_problem() {
        let config = Config::parse(
            "catalog-diff.toml",
            "strategy = \"forward\"\nfail-on = \"unknown\"\n\n[messages.\"order-created\"]\nstrategy = \"backward\"\n",
        )
        .expect("valid");
        assert_eq!(config.strategy, Some(Strategy::Forward));
        assert_eq!(config.fail_on, Some(FailOn::Unknown));
        assert_eq!(
            config.message_strategies().get("order-created"),
            Some(&Strategy::Backward)
        );
        let text = "[messages]\n\"a\" = { strategy = \"full\" }\nb.strategy = \"none\"\n";
        let config = Config::parse("c.toml", text).expect("valid");
        let lines: Vec<(&str, usize)> = config.message_lines(text).collect();
        assert_eq!(lines, [("a", 2), ("b", 3)]);
        let Errors(errors) =
            Config::parse("c.toml", "strategy = \"full\"\nstrategee = \"full\"\n").unwrap_err();
        assert_eq!(errors[0].line, 2, "{errors:?}");
        assert!(errors[0].message.contains("strategee"), "{errors:?}");
        let Errors(errors) = Config::parse("c.toml", "\n\nfail-on = \"sometimes\"\n").unwrap_err();
        assert_eq!(errors[0].line, 3, "{errors:?}");
    }

    /// An unknown key beside a bad value, in a message's table or an acknowledgement, hides
    /// neither.
    #[test]
    fn an_unknown_key_hides_no_bad_value_beside_it() {
        let text = "[messages.\"a\"]\nstrategy = \"bogus\"\ncolour = 1\n";
        let (_, problems) = Config::parse_partly("c.toml", text).expect("TOML");
        let lines: Vec<usize> = problems.iter().map(|e| e.line).collect();
        assert_eq!(lines, [2, 3], "{problems:?}");
        let text = "[[ack]]\nfingerprint = \"XYZ\"\nreason = \"r\"\nexpires = \"2025-13-01\"\ncolour = 1\n";
        let Errors(errors) = parse_acks("a.toml", text).unwrap_err();
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [2, 4, 5], "{errors:?}");
        let text = "[messages.\"a\"]\nstrategy = \"backward\"\n";
        let config = Config::parse("c.toml", text).expect("valid");
        assert_eq!(
            config.message_strategies().get("a"),
            Some(&Strategy::Backward)
        );
    }

    /// One bad setting hides no other: each is named, in line order.
    #[test]
    fn config_names_every_problem() {
        let text = "strategy = \"fulll\"\nfail-on = \"sometimes\"\nbogus = 1\n\n[messages]\na.strategy = \"full\"\nb.strategy = \"nah\"\nc.strat = \"full\"\n";
        let Errors(errors) = Config::parse("c.toml", text).unwrap_err();
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [1, 2, 3, 7, 8], "{errors:?}");
        assert!(errors[2].message.contains("`bogus`"), "{errors:?}");
        assert!(errors[4].message.contains("`strat`"), "{errors:?}");
        // Every syntax error, too.
        let Errors(errors) = Config::parse("c.toml", "strategy = \"full\nx = [\n").unwrap_err();
        assert!(errors.len() >= 2, "{errors:?}");
        // A file without problems reads as before, however its settings are split.
        let text = "history = true\n[messages.a]\nstrategy = \"none\"\n[messages.b]\nstrategy = \"full\"\n";
        let config = Config::parse("c.toml", text).expect("valid");
        assert_eq!(config.history.as_ref().map(|h| *h.get_ref()), Some(true));
        assert_eq!(config.message_strategies().len(), 2);
        assert_eq!(
            config.message_lines(text).collect::<Vec<_>>(),
            [("a", 2), ("b", 4)]
        );
    }

    #[test]
    fn acks_read_and_round_trip() {
        let ack = Ack {
            fingerprint: "0123456789abcdef01234567".into(),
            reason: "consumers \"migrated\"".into(),
            owner: Some("team-orders".into()),
            expires: Some("2027-01-31".into()),
            // The entry starts with a blank line, so it can be appended to any file.
            line: 3,
        };
        let text = ack_entry_text(&ack);
        assert_eq!(parse_acks("a.toml", &text).expect("valid"), vec![ack]);
        let bad = "[[ack]]\nfingerprint = \"nope\"\nreason = \"r\"\n";
        assert_eq!(parse_acks("a.toml", bad).unwrap_err().0[0].line, 2);
        let bad = "[[ack]]\nfingerprint = \"0123456789abcdef01234567\"\nreason = \"r\"\nexpires = \"31/01/2027\"\n";
        assert_eq!(parse_acks("a.toml", bad).unwrap_err().0[0].line, 4);
        // Every bad entry named, the good ones no excuse.
        let bad = format!(
            "extra = 1\n{text}\n[[ack]]\nfingerprint = \"nope\"\nreason = \"r\"\nexpires = \"soon\"\n\n[[ack]]\nreason = \"no fingerprint\"\n"
        );
        let Errors(errors) = parse_acks("a.toml", &bad).unwrap_err();
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [1, 10, 12, 14], "{errors:?}");
        assert!(errors[0].message.contains("`extra`"), "{errors:?}");
        assert!(errors[3].message.contains("fingerprint"), "{errors:?}");
    }

    #[test]
    fn a_branch_is_fingerprinted_by_what_it_is_not_where_it_sits() {
        use crate::schema::{Document, Format, Strategy};
        let added = |after: &str| {
            let before = r#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": ["null", "int"]}]}"#;
            let after = before.replace(r#"["null", "int"]"#, after);
            let verdict = Format::Avro
                .compare(
                    Document::new("a.avsc", before),
                    Document::new("a.avsc", &after),
                    Strategy::Full,
                    &Default::default(),
                )
                .expect("judged");
            verdict.ops.into_iter().next().expect("one op")
        };
        let (first, last) = (
            added(r#"["null", "string", "int"]"#),
            added(r#"["null", "int", "string"]"#),
        );
        assert_ne!(first.path, last.path);
        assert_eq!(place(&first), place(&last));
        assert_eq!(place(&first), "/fields/a/type");
        // A path that names its element keeps its last segment.
        let unnamed = Op {
            subject: None,
            ..first
        };
        assert_eq!(place(&unnamed), unnamed.path);
    }

    #[test]
    fn dates() {
        assert_eq!(Date::from_days(0).to_string(), "1970-01-01");
        assert_eq!(Date::from_days(20_819).to_string(), "2027-01-01");
        assert_eq!(
            Date::parse("2024-02-29").map(|d| d.to_string()),
            Some("2024-02-29".into())
        );
        assert_eq!(Date::parse("2023-02-29"), None);
        assert!(Date::parse("2027-01-31") < Date::parse("2027-02-01"));
    }
}
