//! `catalog-diff [RANGE]`: the architecture diff between two sides of a repository, rendered for
//! people or machines, with the exit code as the policy.

use std::io::{IsTerminal, Write};

use anyhow::Context;
use catalog_diff::catalog::Diagnostic;
use catalog_diff::catalog::build::ParseCache;
use catalog_diff::catalog::{FileSet, Index, Severity};
use catalog_diff::diff::{self, ArchitectureDiff, SchemaChange, SideDiagnostic};
use catalog_diff::git::{self, Repo};
use catalog_diff::history;
use catalog_diff::report;
use catalog_diff::schema::{self, ProtoRules, Strategy};

use super::exit_code;
use super::index::CatalogArgs;

#[derive(clap::Args, Debug, Default)]
pub struct DiffArgs {
    /// What to compare: `A..B`, `A...B` (from the merge base), `REV` (against the working tree);
    /// none compares HEAD with the working tree.
    pub range: Option<String>,
    /// Compare HEAD with the staged index (what `git commit` would record).
    #[arg(long, conflicts_with = "range")]
    pub staged: bool,
    #[command(flatten)]
    pub catalog: CatalogArgs,
    /// backward, forward, full or none.
    #[arg(long, default_value = "full", value_parser = parse_strategy)]
    pub strategy: Strategy,
    /// Protobuf rules: wire-json (buf's WIRE_JSON category: renames and json_name changes
    /// break) or wire (buf's WIRE: only the binary encoding matters).
    #[arg(long, value_name = "RULES", default_value = "wire-json", value_parser = parse_proto_rules)]
    pub proto_rules: ProtoRules,
    /// text (for people), json (the ArchitectureDiff document), markdown (a pull-request
    /// comment), github (workflow annotations).
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// breaking: exit 1 when the diff is breaking; unknown: also when a schema change has no
    /// verdict; never: always exit 0 when the diff ran.
    #[arg(long, value_enum, default_value_t)]
    pub fail_on: FailOn,
    /// Put the raw before/after schema text on each schema change.
    #[arg(long)]
    pub include_schema_content: bool,
    /// auto (only on a terminal, and not when NO_COLOR is set), always or never.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorChoice,
}

impl Default for CatalogArgs {
    fn default() -> Self {
        CatalogArgs {
            repo: ".".into(),
            dir: None,
            source: None,
            strict: false,
        }
    }
}

pub(super) fn parse_strategy(text: &str) -> Result<Strategy, String> {
    text.parse()
        .map_err(|e: catalog_diff::schema::UnknownStrategy| e.to_string())
}

pub(super) fn parse_proto_rules(text: &str) -> Result<ProtoRules, String> {
    text.parse()
        .map_err(|e: catalog_diff::schema::protobuf::UnknownProtoRules| e.to_string())
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    #[default]
    Text,
    Json,
    Markdown,
    Github,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FailOn {
    #[default]
    Breaking,
    Unknown,
    Never,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

pub fn run(args: DiffArgs) -> anyhow::Result<u8> {
    let repo = Repo::discover(&args.catalog.repo)?;
    let sides = repo.parse_range(args.range.as_deref(), args.staged)?;
    let source = source_name(&repo, &args.catalog);
    let dir = repo.detect_catalog_dir_for(&sides, args.catalog.dir.as_deref())?;
    let (side_a, side_b) = (
        read_side(&repo, sides.baseline(), &dir)?,
        read_side(&repo, sides.candidate(), &dir)?,
    );
    let cache = ParseCache::default();
    let options = diff::Options {
        strategy: args.strategy,
        include_schema_content: args.include_schema_content,
        schema: schema::Options {
            proto_rules: args.proto_rules,
        },
    };
    let compared = history::diff_files(
        &side_a.files,
        &side_b.files,
        (side_a.commit.clone(), side_b.commit.clone()),
        &source,
        &options,
        &cache,
    );
    let problems = [
        (
            "a",
            side_a.commit.as_str(),
            compared.before_diagnostics.as_slice(),
        ),
        (
            "b",
            side_b.commit.as_str(),
            compared.after.diagnostics.as_slice(),
        ),
    ];
    if failed(&problems, args.catalog.strict) {
        return Ok(exit_code::ERROR);
    }
    let has_resources = [
        compared.before_has_resources,
        !compared.after.index.resources.is_empty(),
    ];
    for ((name, commit, _), has) in problems.iter().zip(has_resources) {
        if !has {
            eprintln!(
                "note: side {name} ({commit}) has no catalog resources in `{}`; comparing with an empty catalog",
                display_dir(&dir)
            );
        }
    }

    let mut result = compared.diff;
    // Catalog problems first, then those the schema comparison found (a .proto that does not
    // compile).
    let mut diagnostics = side_diagnostics(&problems);
    diagnostics.append(&mut result.diagnostics);
    result.diagnostics = diagnostics;
    let rendered = render(&result, &args, &compared.after.index, &dir);
    let mut stdout = std::io::stdout().lock();
    write!(stdout, "{rendered}").context("writing the report to stdout")?;
    // The process ends here: the OS takes the memory back faster than freeing it piece by piece.
    std::mem::forget((
        side_a,
        side_b,
        cache,
        compared.after,
        compared.before_diagnostics,
    ));
    Ok(policy(&result, args.fail_on))
}

/// The exit code `--fail-on` gives a diff.
pub(super) fn policy(result: &ArchitectureDiff, fail_on: FailOn) -> u8 {
    if trips(result, fail_on) {
        exit_code::POLICY
    } else {
        exit_code::OK
    }
}

/// True when `result` trips the `--fail-on` policy.
pub(super) fn trips(result: &ArchitectureDiff, fail_on: FailOn) -> bool {
    match fail_on {
        FailOn::Breaking => result.summary.breaking,
        FailOn::Unknown => result.summary.breaking || result.summary.schema_unknown > 0,
        FailOn::Never => false,
    }
}

/// The Index `source`: `--source`, else the repository folder's name.
pub(super) fn source_name(repo: &Repo, catalog: &CatalogArgs) -> String {
    catalog
        .source
        .clone()
        .or_else(|| repo.workdir_name())
        .unwrap_or_else(|| "catalog".into())
}

fn render(result: &ArchitectureDiff, args: &DiffArgs, candidate: &Index, dir: &str) -> String {
    match args.format {
        Format::Json => {
            let value = serde_json::to_value(result).unwrap_or_default();
            format!("{}\n", catalog_diff::json_text::to_pretty(&value))
        }
        Format::Text => report::text(result, use_color(args.color)),
        Format::Markdown => report::markdown(result),
        Format::Github => report::github(result, &|change| locate(change, candidate, dir)),
    }
}

pub(super) fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

/// The repository path of a schema change's file, from the candidate index (or the baseline
/// path when the file was removed).
fn locate(change: &SchemaChange, candidate: &Index, dir: &str) -> Option<report::Annotation> {
    let file = change.after.as_ref().or(change.before.as_ref())?;
    let resource = candidate.resources.iter().find(|r| {
        r.kind() == change.message.kind
            && r.id() == change.message.id
            && r.version() == change.message.version.b.as_deref()
    })?;
    let content_dir = resource
        .str_field("contentPath")?
        .rsplit_once('/')
        .map_or("", |(d, _)| d);
    let mut path = [dir, content_dir, file.path.as_str()]
        .iter()
        .filter(|p| !p.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join("/");
    path = path.replace("/./", "/");
    let entry = resource
        .get("schemas")?
        .as_array()?
        .iter()
        .find(|entry| entry.get("path").and_then(|p| p.as_str()) == Some(file.path.as_str()));
    let content = entry
        .and_then(|entry| entry.get("content")?.as_str())
        .map(str::to_owned);
    let declared = entry.and_then(|entry| entry.get("format")?.as_str());
    let format = content
        .as_deref()
        .and_then(|text| catalog_diff::schema::Format::detect(declared, &file.path, text).ok());
    Some(report::Annotation {
        file: path,
        content,
        format,
    })
}

/// One side's catalog problems: its name (`a`, `b`), its label and its diagnostics.
type Problems<'a> = (&'static str, &'a str, &'a [Diagnostic]);

fn failed(sides: &[Problems<'_>], strict: bool) -> bool {
    let mut stderr = std::io::stderr().lock();
    let mut errors = 0;
    let mut warnings = 0;
    for (side, commit, diagnostics) in sides {
        for d in diagnostics.iter() {
            match d.severity {
                Severity::Error => {
                    errors += 1;
                    let _ = writeln!(stderr, "[side {side}: {commit}] {d}");
                }
                Severity::Warning => warnings += 1,
            }
        }
    }
    if errors > 0 || (strict && warnings > 0) {
        if errors == 0 {
            for (side, commit, diagnostics) in sides {
                for d in diagnostics.iter() {
                    let _ = writeln!(stderr, "[side {side}: {commit}] {d}");
                }
            }
        }
        let _ = writeln!(
            stderr,
            "catalog-diff: {errors} error(s), {warnings} warning(s); no diff was made"
        );
        return true;
    }
    false
}

fn side_diagnostics(sides: &[Problems<'_>]) -> Vec<SideDiagnostic> {
    sides
        .iter()
        .flat_map(|&(side, _, diagnostics)| {
            diagnostics.iter().map(move |d| SideDiagnostic {
                side,
                diagnostic: d.clone(),
            })
        })
        .collect()
}

struct ReadSide {
    files: FileSet,
    commit: String,
}

fn read_side(repo: &Repo, side: git::Side, dir: &str) -> anyhow::Result<ReadSide> {
    Ok(ReadSide {
        files: repo.read(side, dir)?,
        commit: side.label(),
    })
}

pub(super) fn display_dir(dir: &str) -> &str {
    if dir.is_empty() { "." } else { dir }
}
