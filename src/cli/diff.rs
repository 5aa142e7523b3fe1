//! `catalog-diff [RANGE]`: the architecture diff between two sides of a repository, rendered for
//! people or machines, with the exit code as the policy.

use std::io::{IsTerminal, Write};

use catalog_diff::catalog::Severity;
use catalog_diff::diff;
use catalog_diff::git::{Repo, Side};
use catalog_diff::schema::{self, ProtoRules, Strategy};
use catalog_diff::{pipeline, policy, report};

use super::cache::Cache;
use super::exit_code;
use super::index::CatalogArgs;
use super::settings::Settings;

#[derive(clap::Args, Debug, Default)]
pub struct DiffArgs {
    /// What to compare: `A..B`, `A...B` (from the merge base), `REV` (against the working tree),
    /// `REV^!` (against its parent); none compares HEAD with the working tree.
    pub range: Option<String>,
    /// Compare HEAD with the staged index (what `git commit` would record).
    #[arg(long, conflicts_with = "range")]
    pub staged: bool,
    #[command(flatten)]
    pub catalog: CatalogArgs,
    /// text (for people), json (the ArchitectureDiff document), markdown (a pull-request
    /// comment), github (workflow annotations), sarif (SARIF 2.1.0 for code scanning).
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Put the raw before/after schema text on each schema change.
    #[arg(long)]
    pub include_schema_content: bool,
    /// Under a transitive strategy, also judge each changed schema against every version it had
    /// in the baseline's first-parent history (default: the configuration's `history`).
    #[arg(long)]
    pub history: bool,
    #[command(flatten)]
    pub policy: PolicyArgs,
}

/// How changes are judged and what the exit code says: shared by the diff and `log`. A flag
/// wins over the configuration file, which wins over the default.
#[derive(clap::Args, Debug, Default)]
pub struct PolicyArgs {
    /// backward, forward, full, none, or a transitive one (see below). Default: the
    /// configuration's, else full.
    #[arg(long, value_parser = parse_strategy)]
    pub strategy: Option<Strategy>,
    /// breaking: exit 1 when a diff (for `log`, some step) has a break that is not
    /// acknowledged; unknown: also when a schema or specification change has no verdict or a
    /// catalog cannot be judged; never: exit 0 whenever it ran. Default: the configuration's,
    /// else breaking.
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOn>,
    /// The configuration file, a relative path read from -C's path (as git -C reads one).
    /// Default: catalog-diff.toml at the repository root of the side being checked (the
    /// working tree, the staged index or the candidate revision).
    #[arg(long, value_name = "PATH")]
    pub config: Option<std::path::PathBuf>,
    /// Protobuf rules: wire-json (buf's WIRE_JSON category: renames and json_name changes
    /// break) or wire (buf's WIRE: only the binary encoding matters). Default: the
    /// configuration's `proto-rules`, else wire-json.
    #[arg(long, value_name = "RULES", value_parser = parse_proto_rules)]
    pub proto_rules: Option<ProtoRules>,
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
            max_file_size: catalog_diff::catalog::DEFAULT_MAX_FILE_SIZE,
            cache: Default::default(),
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
    Sarif,
}

impl From<Format> for report::ReportFormat {
    fn from(format: Format) -> Self {
        match format {
            Format::Text => report::ReportFormat::Text,
            Format::Json => report::ReportFormat::Json,
            Format::Markdown => report::ReportFormat::Markdown,
            Format::Github => report::ReportFormat::Github,
            Format::Sarif => report::ReportFormat::Sarif,
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FailOn {
    #[default]
    Breaking,
    Unknown,
    Never,
}

impl From<FailOn> for policy::FailOn {
    fn from(fail_on: FailOn) -> Self {
        match fail_on {
            FailOn::Breaking => policy::FailOn::Breaking,
            FailOn::Unknown => policy::FailOn::Unknown,
            FailOn::Never => policy::FailOn::Never,
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

pub fn run(args: DiffArgs) -> anyhow::Result<u8> {
    let repo = args.catalog.discover()?;
    let source = source_name(&repo, &args.catalog);
    let (sides, note) = repo
        .parse_range_noted(args.range.as_deref(), args.staged)
        .map_err(|error| misplaced_command(args.range.as_deref(), error))?;
    if let Some(note) = note {
        stderr!("note: {note}");
    }
    let loading = Cache::start(&args.catalog.cache, Some(&repo));
    let mut settings = Settings::load(
        (&repo, &args.catalog.repo),
        sides.candidate(),
        &args.policy,
        args.catalog.dir.as_deref(),
    )?;
    // `--history` only adds to a transitive strategy: without one it would change nothing.
    let transitive = settings.strategy.is_transitive()
        || settings
            .message_strategies
            .values()
            .any(|s| s.is_transitive());
    if args.history && !transitive {
        anyhow::bail!(
            "--history judges a schema against every version it had, which only a transitive strategy asks for, and the strategy is `{}`\n  hint: add --strategy full-transitive (or backward-transitive, forward-transitive), or leave out --history",
            settings.strategy.as_str()
        );
    }
    let history_place = settings.history_place.clone().filter(|_| !transitive);
    if let Some(place) = history_place
        .as_ref()
        .filter(|_| args.policy.strategy.is_some())
    {
        // The file's choice for its own strategies; a one-off `--strategy` sets it aside.
        stderr!(
            "note: `history = true` ({place}) does not apply: --strategy {} is not transitive",
            settings.strategy.as_str()
        );
    } else if let Some(place) = history_place {
        let problem = format!(
            "{place}: `history = true` judges a schema against every version it had, which only a transitive strategy asks for, and the strategy is `{}`\n  hint: set `strategy = \"full-transitive\"` (or backward-transitive, forward-transitive) there, or remove `history`",
            settings.strategy.as_str()
        );
        settings.hold(problem);
    }
    let revisions = settings.blame_dir(pipeline::read_revisions(
        &repo,
        &sides,
        settings.dir.as_deref(),
    ))?;
    let cache = loading.wait();
    let request = pipeline::Request {
        sides,
        dir: settings.dir.as_deref(),
        source: &source,
        diff: diff::Options {
            strategy: settings.strategy,
            include_schema_content: args.include_schema_content,
            message_strategies: settings.message_strategies.clone(),
            schema: schema::Options {
                proto_rules: settings.proto_rules,
            },
        },
        history: args.history || (settings.history && transitive),
        cache: &cache.parses,
        named_messages: settings.message_ids(),
    };
    let mut compared = pipeline::compare_revisions(&repo, revisions, &request)?;
    cache.save();
    // The catalog's problems are printed, then the policy files' are refused with them.
    let failed = failed(
        &compared.sides,
        args.catalog.strict,
        args.format.into(),
        &compared.dir,
    )?;
    settings.check_messages(&compared.misnamed)?;
    if failed {
        // Found, not named: the root's code folders may be what failed to read.
        if settings.dir.is_none()
            && compared.dir.is_empty()
            && let Some(note) = repo.passed_over_note(request.sides.candidate())
        {
            stderr!("{note}");
        }
        return Ok(exit_code::ERROR);
    }
    // No catalog on either side is a mistake (a folder named wrong, the wrong repository), not
    // an empty diff to pass; but a commit in a repository without a catalog yet, where the
    // hook runs (`--staged`), is not to be refused for it.
    let on_either = "on either side of the comparison";
    let local = request.sides.candidate() == Side::Staged;
    let any_catalog = compared.sides.iter().any(|side| side.has_resources);
    match (any_catalog, &settings.dir) {
        (true, _) => {}
        (false, Some(_)) => {
            return Err(no_resources(
                &settings.dir_prefix(),
                &compared.dir,
                on_either,
            ));
        }
        (false, None) if local => {
            stderr!(
                "note: no EventCatalog catalog found (no catalog resources {on_either}); nothing to check"
            );
        }
        (false, None) => return Err(no_catalog(on_either)),
    }
    // A baseline without a commit (the first commit's hook; its label is empty) is empty by
    // nature: no note.
    for side in compared
        .sides
        .iter()
        .filter(|side| any_catalog && !side.has_resources && !side.label.is_empty())
    {
        stderr!(
            "note: side {} ({}) has no catalog resources in `{}`; comparing with an empty catalog",
            side.name,
            side.label,
            shown_dir(&compared.dir)
        );
        // Found, not named: the catalog may have moved, and then nothing is judged across.
        let git_side = match side.name {
            "a" => request.sides.baseline(),
            _ => request.sides.candidate(),
        };
        if settings.dir.is_none()
            && let Some(elsewhere) = repo.catalog_elsewhere(git_side, &compared.dir)
        {
            stderr!(
                "  its catalog is in `{}` there: the catalog moved, so every resource shows as {} and no schema is judged across the move\n  hint: to judge the changes since, compare from the commit that moved it",
                shown_dir(&elsewhere),
                if side.name == "a" { "added" } else { "removed" },
            );
        }
    }
    let decision = policy::decide(
        &compared.diff,
        settings.fail_on,
        &settings.acks,
        settings.today,
    );
    if settings.from_files {
        compared.diff.policy = Some(decision.clone());
    }
    let context = report::Context {
        color: use_color(args.policy.color),
        locations: &compared.locations,
        dir: &compared.dir,
        decision: Some(&decision),
    };
    let rendered = report::render(&compared.diff, args.format.into(), &context);
    // A reader that closed the pipe (`| head`) has seen enough; the exit code is still the policy's.
    super::schema::print_stdout(&rendered)?;
    // The process ends here: the OS takes the memory back faster than freeing it piece by piece.
    std::mem::forget((compared, cache, repo));
    Ok(if decision.tripped {
        exit_code::POLICY
    } else {
        exit_code::OK
    })
}

/// `catalog-diff -C path log`: an option before a command makes the command's name the RANGE
/// of the default diff. When no revision has that name, the error says what happened.
fn misplaced_command(range: Option<&str>, error: catalog_diff::git::Error) -> anyhow::Error {
    match (range, &error) {
        (Some(name), catalog_diff::git::Error::UnknownRevision { .. })
            if super::command_names().iter().any(|command| command == name) =>
        {
            anyhow::anyhow!(
                "`{name}` was read as a revision to diff, since an option came before it\n  hint: put the options after the command: `catalog-diff {name} -C PATH ...`"
            )
        }
        _ => error.into(),
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

/// Prints the sides' problems, errors first; true when the run must stop (an error, or a
/// warning under `--strict`).
fn failed(
    sides: &[pipeline::SideReport],
    strict: bool,
    format: report::ReportFormat,
    dir: &str,
) -> anyhow::Result<bool> {
    let mut stderr = std::io::stderr().lock();
    let problems: Vec<diff::SideDiagnostic> = sides
        .iter()
        .flat_map(|side| {
            side.diagnostics.iter().map(|d| diff::SideDiagnostic {
                side: side.name,
                diagnostic: d.clone(),
            })
        })
        .collect();
    // Each problem once, with the sides that have it (a file broken on both is one problem).
    let found = report::problems_by_side(&problems);
    let errors = found
        .iter()
        .filter(|(_, d)| d.severity == Severity::Error)
        .count();
    let warnings = found.len() - errors;
    if errors > 0 || (strict && warnings > 0) {
        let (first, then) = found
            .into_iter()
            .partition::<Vec<_>, _>(|(_, d)| d.severity == Severity::Error);
        // A change that repairs a broken baseline is refused too: say that is what happened.
        let baseline_only = !first.is_empty() && first.iter().all(|(with, _)| with[..] == ["a"]);
        for (with, d) in first.into_iter().chain(then) {
            let shown: Vec<String> = sides
                .iter()
                .filter(|side| with.contains(&side.name))
                .map(|side| format!("side {}: {}", side.name, side.label))
                .collect();
            let _ = writeln!(stderr, "[{}] {d}", shown.join("; "));
        }
        let summary = format!("{errors} error(s), {warnings} warning(s); no diff was made");
        let _ = writeln!(stderr, "catalog-diff: {summary}");
        if let Some(side) = sides.first().filter(|_| baseline_only) {
            let _ = writeln!(
                stderr,
                "  note: only the baseline ({}) has these errors; the candidate has none, so this change repairs them\n  hint: compare from a commit whose catalog is valid (`catalog-diff <that commit>..`); in the pre-commit hook, commit the repair with `git commit --no-verify`",
                side.label
            );
        }
        // In CI the pull request shows them too.
        if let Some(rendered) = report::refused(&problems, format, dir, &summary) {
            super::schema::print_stdout(&rendered)?;
        }
        return Ok(true);
    }
    Ok(false)
}

/// A catalog folder as reports name it: `.` for the root, escaped as catalog text is.
pub(super) fn shown_dir(dir: &str) -> std::borrow::Cow<'_, str> {
    catalog_diff::catalog::escape_text(if dir.is_empty() { "." } else { dir })
}

/// The error for a catalog folder named on purpose (`--dir`, or `dir` in the configuration,
/// which `prefix` places) that holds no resources `where_`: a mistake, not an empty run to pass.
pub(super) fn no_resources(prefix: &str, dir: &str, where_: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "{prefix}`{}` holds no catalog resources {where_}\n  hint: point --dir (or `dir` in the configuration) at the folder that holds domains/, services/, events/ and the rest, or leave it out to find it",
        shown_dir(dir),
    )
}

/// The error for a run that found no catalog resources `where_`, looking for the catalog
/// wherever it may be (no `--dir`): the wrong repository, not an empty run to pass.
pub(super) fn no_catalog(where_: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "no EventCatalog catalog found: the repository holds no catalog resources {where_}\n  hint: run it in the repository that holds the catalog (-C PATH), or point --dir at its folder"
    )
}
