//! `catalog-diff schema BEFORE AFTER`: judge two schema files on disk (JSON Schema, Avro or Protobuf).
//! This file only reads the
//! two files (and, for Protobuf, the files they import, beside each file or from the current
//! folder), hands them to the library's format seam and prints the verdict; every error names
//! the file it came from and says what to do, and a file it cannot judge is never a pass.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use catalog_diff::catalog::{escape_path, escape_text};
use catalog_diff::schema::format::{StandIn, UndetectedKind};
use catalog_diff::schema::{self, Document, Files, Format, ProtoRules, Strategy};

use super::diff::parse_proto_rules;
use super::exit_code;

/// How the verdict is printed.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaFormat {
    /// One sentence per change, for people.
    Text,
    /// Exactly the verdict object: `{"breaking", "direction", "ops"}`.
    Json,
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Strategies: backward (a reader on the new schema reads old data), forward (a reader \
on the old schema reads new data), full (both), none (never breaking).\n\n\
Exit codes: 0 no breaking change, 1 a breaking change under the strategy, \
2 could not run (unreadable file, a file that does not parse or compile, an invalid Avro schema, an import that cannot be found, not a schema, a format that cannot be judged, a change behind a JSON Schema reference it does not follow)."
)]
pub struct SchemaArgs {
    /// The schema before the change.
    pub before: PathBuf,
    /// The schema after the change.
    pub after: PathBuf,
    /// Which directions to check: backward, forward, full or none (a transitive name judges
    /// as its base strategy: two files hold one earlier version).
    #[arg(long, default_value = "full")]
    pub strategy: Strategy,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: SchemaFormat,
    /// Judge both files as this format instead of telling it from the file (json-schema, avro,
    /// protobuf; by default `.avsc` and `.avro` are Avro, `.proto` Protobuf, `.json`, `.yaml`
    /// and `.yml` JSON Schema).
    #[arg(long, value_name = "F", value_parser = parse_format)]
    pub schema_format: Option<Format>,
    /// Largest file read; a larger one is an error naming it. Bytes, or with a K, M or G
    /// suffix (powers of 1024).
    #[arg(long, value_name = "SIZE", default_value = "64M", value_parser = super::index::parse_size)]
    pub max_file_size: u64,
    #[command(flatten)]
    pub proto: ProtoRulesArg,
}

/// `--proto-rules` of the commands that judge files on disk (`schema`, `spec`).
#[derive(clap::Args, Debug)]
pub struct ProtoRulesArg {
    /// Protobuf rules: wire-json (buf's WIRE_JSON category: renames and json_name changes
    /// break) or wire (buf's WIRE: only the binary encoding matters).
    #[arg(long, value_name = "RULES", default_value = "wire-json", value_parser = parse_proto_rules)]
    pub proto_rules: ProtoRules,
}

/// Imports of a schema file on disk: by path, as the file names them from its folder, the
/// schema's or the current one.
/// A file larger than `limit` (`--max-file-size`) is not read, nor anything but a regular file
/// (a FIFO or `/dev/stdin` would wait for a writer).
struct Disk {
    limit: u64,
}

impl Files for Disk {
    fn read(&self, path: &str) -> Option<Arc<[u8]>> {
        use std::io::Read;
        let mut bytes = Vec::new();
        // Looked at before it is opened: opening a FIFO waits already.
        if !std::fs::metadata(path).is_ok_and(|meta| meta.is_file()) {
            return None;
        }
        let file = std::fs::File::open(path).ok()?;
        file.take(self.limit + 1).read_to_end(&mut bytes).ok()?;
        (bytes.len() as u64 <= self.limit).then(|| Arc::from(bytes))
    }
}

/// Refuses a file that a Protobuf schema imports, directly or through other imports, as the
/// schema itself would be refused: larger than `limit`, or not UTF-8 text.
fn check_imports(path: &str, text: &str, limit: u64) -> anyhow::Result<()> {
    let disk = Disk { limit };
    let mut seen = BTreeSet::new();
    let mut pending = vec![(path.to_owned(), text.to_owned())];
    while let Some((file, text)) = pending.pop() {
        for import in schema::protobuf::imports(&disk, path, &file, &text) {
            // One missing is named by the compiler, with where it is imported.
            if !Path::new(&import).is_file() || !seen.insert(import.clone()) {
                continue;
            }
            let text = read_bounded("imported schema", Path::new(&import), limit)?;
            pending.push((import, text));
        }
    }
    Ok(())
}

fn parse_format(text: &str) -> Result<Format, String> {
    Format::ALL
        .into_iter()
        .find(|format| format.id() == text)
        .ok_or_else(|| {
            let known: Vec<&str> = Format::ALL.iter().map(|format| format.id()).collect();
            format!(
                "unknown schema format `{}`: use one of {}",
                catalog_diff::catalog::escape_text(text),
                known.join(", ")
            )
        })
}

/// A schema file read from disk, with the format it was judged to have.
struct Loaded {
    path: String,
    text: String,
    format: Format,
    /// Where its imports and references are read.
    disk: Disk,
}

impl Loaded {
    fn document(&self) -> Document<'_> {
        Document::new(&self.path, &self.text).with_files(&self.disk)
    }
}

/// The name a file on disk is read under: the path as given, or made absolute where it starts
/// by climbing out of the current folder (`../v1/order.proto`). What it names (imports,
/// relative refs) is joined to the name as text, and text cannot climb above where it starts:
/// the lookup would fall back to the current folder and find the wrong file.
pub(super) fn disk_name(path: &Path) -> String {
    let climbs = path.components().next() == Some(std::path::Component::ParentDir);
    match climbs.then(|| std::path::absolute(path)) {
        Some(Ok(absolute)) => absolute.display().to_string(),
        _ => path.display().to_string(),
    }
}

/// The text of a file (`what` it is, in words: "before schema"), read no further than `limit`
/// bytes (a pipe or `/dev/zero` included), a leading byte order mark dropped.
pub(super) fn read_bounded(what: &str, path: &Path, limit: u64) -> anyhow::Result<String> {
    let text = read_text(what, path, limit)?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    })
}

/// The text of a file as [`read_bounded`] reads it, a leading byte order mark kept: a schema's
/// format decides, as the diff's does (JSON refuses one, YAML, Avro and Protobuf skip it).
fn read_text(what: &str, path: &Path, limit: u64) -> anyhow::Result<String> {
    use std::io::Read;
    let shown = escape_path(path);
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(limit + 1).read_to_end(&mut bytes))
        .with_context(|| format!("cannot read the {what} {shown}; check the path"))?;
    if bytes.len() as u64 > limit {
        anyhow::bail!(
            "{shown}: the {what} is larger than {limit} bytes; raise the limit with --max-file-size if it is really one"
        );
    }
    // A file that stands in for another is named as what it is, not as text that is not UTF-8.
    if let Some(stand) = StandIn::of(&bytes).filter(|_| std::str::from_utf8(&bytes).is_err()) {
        anyhow::bail!("{shown}: cannot judge the {what}: {}", stand.reason(&shown));
    }
    utf8_text(&shown, what, bytes)
}

/// `bytes` as text, or an error naming the line, column and byte of the first one that is not
/// UTF-8 (`what` the file is, in words, `shown` its name made safe to print).
pub(super) fn utf8_text(shown: &str, what: &str, bytes: Vec<u8>) -> anyhow::Result<String> {
    String::from_utf8(bytes).map_err(|error| {
        let at = error.utf8_error().valid_up_to();
        let valid = std::str::from_utf8(&error.as_bytes()[..at]).unwrap_or_default();
        let (line, column) = schema::line_column(valid, at);
        anyhow::anyhow!(
            "{shown}:{line}:{column}: the {what} is not UTF-8 text (byte {at}); save it as UTF-8"
        )
    })
}

fn load(role: &str, path: &Path, forced: Option<Format>, limit: u64) -> anyhow::Result<Loaded> {
    let text = read_text(&format!("{role} schema"), path, limit)?;
    let shown = disk_name(path);
    // No format reads it, whichever is passed.
    if let Some(stand) = StandIn::of(text.as_bytes()) {
        let hint = match stand {
            StandIn::LfsPointer => {
                "\n  hint: `git lfs pull` replaces it with the file it stands for"
            }
            StandIn::AvroData => "",
        };
        anyhow::bail!(
            "{shown}: cannot judge the {role} file: {}{hint}",
            stand.reason(&shown)
        );
    }
    let format = match forced {
        Some(format) => format
            .confirmed(&format!("`--schema-format {}`", format.id()), &shown, &text)
            // The reason names the file.
            .map_err(|why| {
                anyhow::anyhow!(
                    "cannot judge the {role} file: {}",
                    escape_text(&why.to_string())
                )
            })?,
        None => Format::detect(None, &shown, &text).map_err(|why| match why.kind {
            UndetectedKind::Parse(error) => explain_error(role, &shown, error),
            UndetectedKind::NotASchema(format) => anyhow::anyhow!(
                "{}: the {role} file is {}; pass a schema file, not an example payload",
                escape_text(&shown),
                schema::Error::NotASchema { format }
            ),
            UndetectedKind::Other => anyhow::anyhow!(
                "{}: cannot judge the {role} file: {}; pass --schema-format to say what it is",
                escape_text(&shown),
                escape_text(&why.to_string())
            ),
        })?,
    };
    if format == Format::Protobuf {
        check_imports(&shown, &text, limit)?;
    }
    Ok(Loaded {
        path: shown,
        text,
        format,
        disk: Disk { limit },
    })
}

/// The error a file gets for `error`, on one line: what it quotes from the file (a YAML tag, an
/// Avro type name) is escaped, so a newline there cannot start a line of its own.
fn explain_error(role: &str, shown: &str, error: schema::Error) -> anyhow::Error {
    let text = match error {
        schema::Error::Parse {
            syntax,
            line,
            column,
            ref message,
            ..
        } => format!(
            "{shown}:{line}:{column}: the {role} schema is not valid {syntax} ({message}); fix the syntax there"
        ),
        schema::Error::Invalid {
            format,
            line,
            ref message,
            ..
        } => format!(
            "{shown}:{line}: the {role} schema is not a valid {format} schema: {message}; fix it there"
        ),
        schema::Error::Unsupported {
            line,
            column,
            ref what,
            ..
        } => {
            let advice = if what.ends_with(schema::protobuf::NO_TOOL_JUDGES) {
                ""
            } else {
                "; judge it with `buf breaking`"
            };
            format!(
                "{shown}:{line}:{column}: the {role} schema uses {what}, which catalog-diff cannot read yet{advice}"
            )
        }
        schema::Error::UnresolvedImport {
            ref import,
            line,
            column,
            ..
        } => format!(
            "{shown}:{line}:{column}: cannot find its import `{import}` beside the file importing it, in this schema's folder or from the current folder; run from the folder its imports are relative to"
        ),
        other => format!("{shown}: {other}"),
    };
    anyhow::anyhow!("{}", escape_text(&text))
}

pub fn run(args: SchemaArgs) -> anyhow::Result<u8> {
    // Both files are read before either is refused, so one run names every bad file.
    let (before, after) = match (
        load(
            "before",
            &args.before,
            args.schema_format,
            args.max_file_size,
        ),
        load("after", &args.after, args.schema_format, args.max_file_size),
    ) {
        (Ok(before), Ok(after)) => (before, after),
        (Err(before), Err(after)) => anyhow::bail!("{before:#}\nerror: {after:#}"),
        // The file that was read may still be refused (nested too deep): both are named.
        (Err(error), Ok(after)) => match after.format.check(after.document()) {
            Err(also) => {
                let also = explain_error("after", &after.path, also);
                anyhow::bail!("{error:#}\nerror: {also:#}")
            }
            Ok(()) => return Err(error),
        },
        (Ok(before), Err(error)) => match before.format.check(before.document()) {
            Err(also) => {
                let also = explain_error("before", &before.path, also);
                anyhow::bail!("{also:#}\nerror: {error:#}")
            }
            Ok(()) => return Err(error),
        },
    };
    if before.format != after.format {
        anyhow::bail!(
            "{} is {} but {} is {}; compare two files of the same format",
            escape_text(&before.path),
            before.format,
            escape_text(&after.path),
            after.format
        );
    }
    let verdict = before
        .format
        .compare(
            before.document(),
            after.document(),
            args.strategy,
            &schema::Options {
                proto_rules: args.proto.proto_rules,
            },
        )
        .map_err(|error| {
            // Both files are fine: what changed between them cannot be judged.
            if let schema::Error::Unfollowed { .. } = error {
                return anyhow::anyhow!(
                    "cannot judge the change from {} to {}: {}",
                    escape_text(&before.path),
                    escape_text(&after.path),
                    escape_text(&error.to_string())
                );
            }
            let (role, shown) = match &error {
                schema::Error::Parse { file, .. }
                | schema::Error::Invalid { file, .. }
                | schema::Error::Unsupported { file, .. }
                    if *file == after.path =>
                {
                    ("after", after.path.clone())
                }
                schema::Error::Parse { file, .. }
                | schema::Error::Invalid { file, .. }
                | schema::Error::Unsupported { file, .. }
                    if *file == before.path =>
                {
                    ("before", before.path.clone())
                }
                schema::Error::Parse { file, .. } | schema::Error::Unsupported { file, .. } => {
                    ("imported", file.clone())
                }
                schema::Error::UnresolvedImport { file, .. } => ("", file.clone()),
                // An error that names no file (too deep, say) is from the side that fails alone.
                _ if before.format.check(before.document()).is_ok() => {
                    ("after", after.path.clone())
                }
                _ => ("before", before.path.clone()),
            };
            let first = explain_error(role, &shown, error);
            // The other file may be broken too: one run names every bad file, before first.
            let other = match role {
                "after" => Some(("before", &before)),
                "before" => Some(("after", &after)),
                _ => None,
            };
            let also = other
                .filter(|(_, other)| other.path != shown)
                .and_then(|(role, other)| {
                    let error = other.format.check(other.document()).err()?;
                    Some((role, explain_error(role, &other.path, error)))
                });
            match also {
                Some(("before", also)) => anyhow::anyhow!("{also:#}\nerror: {first:#}"),
                Some((_, also)) => anyhow::anyhow!("{first:#}\nerror: {also:#}"),
                None => first,
            }
        })?;
    for file in [&before, &after] {
        for (line, why) in file.format.notes(&file.text) {
            stderr!(
                "warning: {}:{line}: {}",
                escape_text(&file.path),
                escape_text(&why)
            );
        }
    }
    print_verdict(args.format, &verdict, || schema::explain(&verdict))?;
    Ok(if verdict.breaking {
        exit_code::POLICY
    } else {
        exit_code::OK
    })
}

/// Prints a verdict: exactly its JSON, or `explain`'s sentences.
pub(super) fn print_verdict<T: serde::Serialize>(
    format: SchemaFormat,
    verdict: &T,
    explain: impl FnOnce() -> String,
) -> anyhow::Result<()> {
    let output = match format {
        SchemaFormat::Json => {
            let mut text =
                serde_json::to_string_pretty(verdict).context("serialising the verdict")?;
            text.push('\n');
            text
        }
        SchemaFormat::Text => explain(),
    };
    print_stdout(&output)
}

/// Write the report; a closed pipe (`| head`) is not an error for the user.
pub(super) fn print_stdout(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(error).context("writing to stdout")
        }
        _ => Ok(()),
    }
}
