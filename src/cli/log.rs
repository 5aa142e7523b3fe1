//! `catalog-diff log [RANGE]`: the compatibility history of a first-parent range, one line (or
//! one JSON object) per commit that changed the catalog.

use std::io::Write;
use std::ops::ControlFlow;

use anyhow::Context;
use catalog_diff::catalog::build::ParseCache;
use catalog_diff::catalog::{Before, escape_text};
use catalog_diff::diff::{self, ArchitectureDiff};
use catalog_diff::git::{CommitInfo, Repo, Side};
use catalog_diff::history::{self, Baseline, Selection, Step};
use catalog_diff::policy::{self, FailOn};
use catalog_diff::schema;
use catalog_diff::{git, pipeline, report};

use super::cache::Cache;
use super::diff::{PolicyArgs, source_name, use_color};
use super::exit_code;
use super::index::{CatalogArgs, report_diagnostics};
use super::progress::Progress;
use super::settings::Settings;

#[derive(clap::Args, Debug)]
pub struct LogArgs {
    /// The commits: `A..B`, `A...B`, `REV` (all of REV's history), `REV^!` (REV alone); none is
    /// all of HEAD's.
    pub range: Option<String>,
    /// Keep only this message id (schema changes, impact, resources and edges).
    #[arg(long, value_name = "ID")]
    pub message: Option<String>,
    /// Show only the commits where the selection broke (and, under `--fail-on unknown`, those that could not be judged).
    #[arg(long)]
    pub breaking_only: bool,
    /// Judge every commit against this one revision instead of its parent.
    #[arg(long, value_name = "REV")]
    pub against: Option<String>,
    /// Stop at and print the first commit where the selection broke, or under `--fail-on
    /// unknown` could not be judged (exit 1; 0 under `--fail-on never` or when every break there
    /// is acknowledged).
    #[arg(long)]
    pub first_breaking: bool,
    #[command(flatten)]
    pub catalog: CatalogArgs,
    /// text (a timeline for people) or json (one object per line and commit).
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    #[command(flatten)]
    pub policy: PolicyArgs,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    #[default]
    Text,
    Json,
}

pub fn run(args: LogArgs) -> anyhow::Result<u8> {
    let repo = args.catalog.discover()?;
    // The cache file is read while the history is listed.
    let loading = Cache::start(&args.catalog.cache, Some(&repo));
    let (mut commits, note) = repo.first_parent_walk_noted(args.range.as_deref())?;
    if let Some(note) = note {
        stderr!("note: {note}");
    }
    if commits.is_empty() {
        stderr!("{}", empty_range_note(args.range.as_deref()));
        return Ok(exit_code::OK);
    }
    let mut start = commits.first().and_then(CommitInfo::first_parent);
    let missing = start.filter(|p| !repo.has_commit(*p));
    if missing.is_some() && args.against.is_some() {
        // Every commit is judged against `--against`: the walk needs no parent, and reads the
        // oldest commit whole.
        start = None;
    } else if let Some(parent) = missing {
        // A shallow clone: the oldest commit's parent was never fetched. That commit becomes
        // the starting point instead of a bogus "everything was added" step.
        let boundary = commits.remove(0);
        stderr!(
            "note: history ends at {} ({}): its parent {} is missing (shallow clone); walking from there\n  hint: `git fetch --unshallow` (in CI: `fetch-depth: 0`) for the whole history",
            short(&boundary.id.to_string()),
            escape_text(&boundary.subject),
            short(&parent.to_string())
        );
        start = Some(boundary.id);
        // Nothing left to judge is not "never broke": the commit to judge lacks its parent.
        if commits.is_empty() {
            anyhow::bail!(
                "the range has no commit to judge: its only commit, {} ({}), lacks its parent {} (shallow clone)\n  hint: `git fetch --unshallow` (in CI: `fetch-depth: 0`), or `git fetch --deepen=1` to judge that commit",
                short(&boundary.id.to_string()),
                escape_text(&boundary.subject),
                short(&parent.to_string())
            );
        }
    }
    let ids: Vec<_> = start
        .into_iter()
        .chain(commits.iter().map(|c| c.id))
        .collect();
    // The configuration and acknowledgements of the newest commit of the range hold.
    let tip = commits.last().map_or(Side::Unborn, |c| Side::Commit(c.id));
    let settings = Settings::load(
        (&repo, &args.catalog.repo),
        tip,
        &args.policy,
        args.catalog.dir.as_deref(),
    )?;
    if settings.message_ids().is_empty() {
        // Nothing to check against the catalog first: the policy files' problems stop here.
        settings.check_messages(&[])?;
    }
    if settings.history {
        stderr!(
            "note: `history = true` in the configuration is for the diff: log judges each commit against its parent (or --against), never against every version in the schema's history"
        );
    }
    let dir = settings.blame_dir(repo.detect_catalog_dir_in(&ids, settings.dir.as_deref()))?;
    if settings.dir.is_none() {
        note_moved_catalog(&repo, &ids, &dir);
    }
    let mut options = history::Options {
        source: source_name(&repo, &args.catalog),
        dir,
        diff: diff::Options {
            strategy: settings.strategy,
            include_schema_content: false,
            message_strategies: settings.message_strategies.clone(),
            schema: schema::Options {
                proto_rules: settings.proto_rules,
            },
        },
        baseline: Baseline::Parent,
    };
    let mut against = None;
    if let Some(rev) = &args.against {
        let id = repo.resolve_commit(rev)?;
        against = Some(id);
        if settings.dir.is_none() {
            note_against_elsewhere(&repo, rev, id, &options.dir);
        }
        let files = history::read_at(&repo, Some(id), &options)?;
        let built = history::build_files(&files, Some(id), &options, &ParseCache::default());
        if report_diagnostics(&built.diagnostics, args.catalog.strict) {
            stderr!(
                "catalog-diff: the --against catalog ({}) is invalid; no log was made",
                escape_text(rev)
            );
            return Ok(exit_code::ERROR);
        }
        options.baseline = Baseline::Fixed {
            index: Box::new(built.index),
            files: Box::new(files),
            tree: repo.tree_id(id, &options.dir)?,
        };
    }

    let selection = Selection {
        message: args.message.clone(),
    };
    let color = args.format == Format::Text && use_color(args.policy.color);
    let progress = Progress::commits(commits.len(), args.format == Format::Text);
    let mut stdout = std::io::stdout().lock();
    let mut state = State::default();
    let cache = loading.wait();
    if !settings.message_ids().is_empty() {
        // The configuration's message ids are checked against the range's ends: its baseline
        // (`--against`'s, or the first commit's parent), its first commit (the root, when the
        // walk starts there) and its last.
        let mut ends = Vec::new();
        let mut read = Vec::new();
        for commit in [
            against.or(start),
            commits.first().map(|c| c.id),
            commits.last().map(|c| c.id),
        ] {
            if commit.is_some() && !read.contains(&commit) {
                read.push(commit);
                ends.push(history::read_at(&repo, commit, &options)?);
            }
        }
        let sides: Vec<Before> = ends.iter().map(Before::unchanged).collect();
        let build = pipeline::build_options(&options.source, String::new(), false);
        let misnamed =
            pipeline::misnamed_messages(&sides, &settings.message_ids(), &build, &cache.parses);
        settings.check_messages(&misnamed)?;
    }
    let outcome = history::walk(
        &repo,
        start,
        &commits,
        &options,
        &cache.parses,
        &mut |walked| progress.set(walked),
        &mut |step| {
            let decision = state.judge(&step, &selection, &args, &settings);
            if let Some(view) = &decision.shown
                && !state.reader_gone
            {
                let format = match args.format {
                    Format::Text => report::ReportFormat::Text,
                    Format::Json => report::ReportFormat::Json,
                };
                let mut text = report::log_entry(&step, view.as_ref(), format, color);
                // Until `--message` is known to name something, entries shown whatever it
                // names (invalid commits) wait: a mistyped id prints nothing but its error.
                if args.message.is_some() && !state.message_seen {
                    state.waiting.push_str(&text);
                    return decision.flow;
                }
                text.insert_str(0, &std::mem::take(&mut state.waiting));
                match progress.suspend(|| stdout.write_all(text.as_bytes())) {
                    Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {
                        state.reader_gone = true;
                    }
                    Err(error) => {
                        state.write_error = Some(error);
                        return ControlFlow::Break(());
                    }
                    Ok(()) => {}
                }
            }
            decision.flow
        },
    );
    progress.finish();
    // A walk where nothing changed may have met no catalog at all.
    let ends = [start, commits.last().map(|c| c.id)];
    let no_catalog = outcome.is_ok()
        && !commits.is_empty()
        && state.reported == 0
        && holds_no_resources(&repo, &options, ends, &cache.parses)?;
    cache.save();
    // The process ends soon: the OS takes the memory back faster than freeing it piece by piece.
    std::mem::forget(cache);
    let outcome = outcome?;
    if let Some(error) = state.write_error {
        return Err(error).context("writing the log to stdout");
    }
    if let Some(commit) = &state.strict_stop {
        flush_waiting(&mut stdout, &state)?;
        stderr!(
            "catalog-diff: the catalog at {} has problems and --strict is set; the walk stopped there",
            short(commit)
        );
        return Ok(exit_code::ERROR);
    }
    if let Some(id) = args.message.as_deref().filter(|_| !state.message_seen) {
        let tip = commits.last().map(|c| c.id);
        let ends = [start, tip];
        if let Some(why) = missing_message(&repo, &options, ends, &state.seen_messages, id)? {
            anyhow::bail!("{why}\n  hint: --message takes a message id, as in its front matter");
        }
    }
    if no_catalog {
        let at_either_end = "at either end of the range";
        return Err(match settings.dir {
            Some(_) => {
                super::diff::no_resources(&settings.dir_prefix(), &options.dir, at_either_end)
            }
            None => super::diff::no_catalog(at_either_end),
        });
    }
    flush_waiting(&mut stdout, &state)?;
    if !outcome.stopped {
        // Against `--against`, the first commit is judged when it differs from that baseline,
        // whether or not it changed the catalog itself, and each later one that changed it.
        let judged = match &args.against {
            Some(rev) => format!("{} judged against {}", state.reported, escape_text(rev)),
            // A prose edit changes catalog files, but nothing the diff reports.
            None => format!(
                "{} changed catalog files ({} with changes to report)",
                state.touched, state.reported
            ),
        };
        stderr!(
            "{} commit(s) walked, {judged}, {} broke",
            outcome.walked,
            state.broke
        );
        // With `--message`, acknowledgements of other messages are not looked at.
        let unused: Vec<String> = (settings.acks.iter())
            .filter(|_| args.message.is_none())
            .filter(|ack| !state.used_acks.contains(&ack.fingerprint))
            .map(|ack| format!("{}:{}", policy::ACK_FILE, ack.line))
            .collect();
        if !unused.is_empty() {
            stderr!(
                "note: acknowledgements that match nothing in this walk: {}",
                unused.join(", ")
            );
        }
    }
    if args.first_breaking && !outcome.stopped {
        stderr!(
            "never broke: no commit in the range broke{}",
            args.message
                .as_deref()
                .map(|m| format!(" message {}", escape_text(m)))
                .unwrap_or_default()
        );
    }
    Ok(if state.tripped {
        exit_code::POLICY
    } else {
        exit_code::OK
    })
}

/// Prints the entries held back for `--message`, once they are known to belong.
fn flush_waiting(stdout: &mut impl Write, state: &State) -> anyhow::Result<()> {
    if state.waiting.is_empty() || state.reader_gone {
        return Ok(());
    }
    stdout
        .write_all(state.waiting.as_bytes())
        .or_else(|error| match error.kind() {
            std::io::ErrorKind::BrokenPipe => Ok(()),
            _ => Err(error),
        })
        .context("writing the log to stdout")
}

/// What the walk has seen so far.
#[derive(Default)]
struct State {
    /// Commits whose catalog files changed: every step.
    touched: usize,
    /// Steps with something to report (a diff, or an invalid catalog).
    reported: usize,
    broke: usize,
    /// Some shown step tripped `--fail-on`.
    tripped: bool,
    /// The commit `--strict` stopped at.
    strict_stop: Option<String>,
    /// `--message` named something some step's diff mentions.
    message_seen: bool,
    write_error: Option<std::io::Error>,
    /// Entries held back until `--message` is known to name something.
    waiting: String,
    /// Whoever read stdout closed it (`| head`): the walk goes on unprinted, so the exit code
    /// still covers the whole range.
    reader_gone: bool,
    /// The fingerprints of the acknowledgements some commit's diff matched.
    used_acks: std::collections::BTreeSet<String>,
    /// The message ids the steps' diffs name, for the ids near a `--message` naming none.
    seen_messages: std::collections::BTreeSet<String>,
}

/// Whether (and how) to show a step, and whether to keep walking.
struct Decision {
    /// `Some(None)`: shown as an invalid catalog, without a diff.
    shown: Option<Option<ArchitectureDiff>>,
    flow: ControlFlow<()>,
}

impl State {
    fn judge(
        &mut self,
        step: &Step,
        selection: &Selection,
        args: &LogArgs,
        settings: &Settings,
    ) -> Decision {
        self.touched += 1;
        let has_problems = !step.diagnostics.is_empty();
        let strict_stop = args.catalog.strict && has_problems;
        let Some(diff) = &step.diff else {
            // An invalid catalog cannot be judged: an unknown for the policy, shown unless only
            // breaks are asked for and unknowns do not count as such.
            self.reported += 1;
            let unknown_trips = settings.fail_on == FailOn::Unknown;
            self.tripped |= unknown_trips;
            let flow = if args.first_breaking && unknown_trips {
                ControlFlow::Break(())
            } else {
                self.strict_flow(step, strict_stop)
            };
            let only_breaks = args.breaking_only || args.first_breaking;
            return Decision {
                shown: (unknown_trips || !only_breaks).then_some(None),
                flow,
            };
        };
        let mut view = history::select(diff, selection);
        self.message_seen |= selection.message.is_some() && !history::is_empty(&view);
        if selection.message.is_some() && !self.message_seen {
            self.seen_messages.extend(message_ids(diff));
        }
        // A commit that makes the catalog valid again is shown even when nothing else changed.
        if history::is_empty(&view) && step.errors().next().is_none() && step.against.is_none() {
            let flow = self.strict_flow(step, strict_stop);
            return Decision { shown: None, flow };
        }
        self.reported += 1;
        let breaking = view.is_breaking();
        if breaking {
            self.broke += 1;
        }
        let mut decision = policy::decide(&view, settings.fail_on, &settings.acks, settings.today);
        let tripped = decision.tripped;
        // An acknowledgement is for one commit of the range: the others have no use for it,
        // and the walk names those no commit used.
        let used = settings
            .acks
            .iter()
            .filter(|ack| !decision.unused_acks.contains(ack));
        self.used_acks
            .extend(used.map(|ack| ack.fingerprint.clone()));
        decision.unused_acks.clear();
        // As the diff does: the decision goes with the entry when a policy file is used, so
        // an acknowledged break is shown as such.
        if settings.from_files {
            view.policy = Some(decision);
        }
        // What `--breaking-only` shows and `--first-breaking` looks for: a break, or under
        // `--fail-on unknown` also a change without a verdict, as the policy counts them.
        let counts = breaking || (settings.fail_on == FailOn::Unknown && view.unknown_count() > 0);
        if (args.breaking_only || args.first_breaking) && !counts {
            let flow = self.strict_flow(step, strict_stop);
            return Decision { shown: None, flow };
        }
        // Found; an acknowledged break is shown where it happened but trips nothing.
        self.tripped |= tripped;
        let flow = if args.first_breaking {
            ControlFlow::Break(())
        } else {
            self.strict_flow(step, strict_stop)
        };
        Decision {
            shown: Some(Some(view)),
            flow,
        }
    }

    fn strict_flow(&mut self, step: &Step, stop: bool) -> ControlFlow<()> {
        if stop {
            for diagnostic in &step.diagnostics {
                stderr!("[{}] {diagnostic}", short(&step.commit.id.to_string()));
            }
            self.strict_stop = Some(step.commit.id.to_string());
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// True when the catalog holds no resources at any of `commits`.
fn holds_no_resources(
    repo: &Repo,
    options: &history::Options,
    commits: [Option<catalog_diff::git::CommitId>; 2],
    cache: &ParseCache,
) -> anyhow::Result<bool> {
    for commit in commits.into_iter().flatten() {
        let built = history::build_at(repo, Some(commit), options, cache)?;
        if !built.index.resources.is_empty() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The ids of the messages `diff` names: added, removed, changed or with a schema change.
fn message_ids(diff: &ArchitectureDiff) -> impl Iterator<Item = String> + '_ {
    let resources = &diff.resources;
    let listed = resources.added.iter().chain(&resources.removed);
    let listed = listed.map(|r| (r.kind.as_str(), r.id.as_str()));
    let changed = resources.changed.iter();
    let changed = changed.map(|r| (r.kind.as_str(), r.id.as_str()));
    let schemas = diff.schema_changes.iter();
    let schemas = schemas.map(|c| (c.message.kind.as_str(), c.message.id.as_str()));
    listed
        .chain(changed)
        .chain(schemas)
        .filter(|(kind, _)| diff::MESSAGE_TYPES.contains(kind))
        .map(|(_, id)| id.to_owned())
}

/// Why `--message id` names no message of the range's ends (`commits`) or of the range
/// (`seen`, the ids its diffs name): the kind of resource it names instead, or the message ids
/// near it; `None` when one end has that message.
fn missing_message(
    repo: &Repo,
    options: &history::Options,
    commits: [Option<catalog_diff::git::CommitId>; 2],
    seen: &std::collections::BTreeSet<String>,
    id: &str,
) -> anyhow::Result<Option<String>> {
    let mut messages: Vec<String> = seen.iter().cloned().collect();
    let mut other_kind = None;
    for commit in commits.into_iter().flatten() {
        let built = history::build_at(repo, Some(commit), options, &ParseCache::default())?;
        for resource in &built.index.resources {
            if diff::MESSAGE_TYPES.contains(&resource.kind()) {
                messages.push(resource.id().to_owned());
            } else if resource.id() == id {
                other_kind.get_or_insert_with(|| resource.kind().to_owned());
            }
        }
    }
    if messages.iter().any(|known| known == id) {
        return Ok(None);
    }
    let shown = catalog_diff::catalog::escape_text(id);
    if let Some(kind) = other_kind {
        return Ok(Some(format!(
            "`{shown}` is a {kind}, not an event, command or query"
        )));
    }
    messages.sort();
    messages.dedup();
    let nearby = catalog_diff::suggest::closest(id, messages.iter().map(String::as_str));
    Ok(Some(format!(
        "no message `{shown}` in the range{}",
        catalog_diff::suggest::hint(&nearby)
    )))
}

/// The catalog folder is found at the range's last commit with a catalog; when an earlier
/// commit has its catalog elsewhere (the folder moved), the walk reads that part as an empty
/// catalog, and a note says so.
fn note_moved_catalog(repo: &Repo, commits: &[catalog_diff::git::CommitId], dir: &str) {
    let lacks_folder =
        |commit: &&catalog_diff::git::CommitId| matches!(repo.tree_id(**commit, dir), Ok(None));
    // The newest commit without the folder before one with it (those after it come after
    // the catalog was deleted): where a move shows (older ones may predate the catalog
    // itself, and each look elsewhere costs a search of its tree).
    let Some(&first) = commits
        .iter()
        .rev()
        .skip_while(lacks_folder)
        .find(lacks_folder)
    else {
        return;
    };
    if let Some(earlier) = repo.catalog_elsewhere(Side::Commit(first), dir) {
        stderr!(
            "note: the catalog is in `{}` at the end of the range but in `{}` at {}: the walk reads `{}`, where that part of the history has no catalog\n  hint: walk that part with --dir {}",
            super::diff::shown_dir(dir),
            super::diff::shown_dir(&earlier),
            short(&first.to_string()),
            super::diff::shown_dir(dir),
            super::diff::shown_dir(&earlier)
        );
    }
}

/// A `--against` commit with its catalog in another folder (it moved since) is read as an
/// empty catalog: a note says so, as the diff's does.
fn note_against_elsewhere(repo: &Repo, rev: &str, id: catalog_diff::git::CommitId, dir: &str) {
    if !matches!(repo.tree_id(id, dir), Ok(None)) {
        return;
    }
    if let Some(elsewhere) = repo.catalog_elsewhere(Side::Commit(id), dir) {
        stderr!(
            "note: the --against commit {} has its catalog in `{}`, not `{}`: the catalog moved, so every resource shows as added and no schema is judged across the move\n  hint: judge against a commit after the move, or walk with --dir {}",
            escape_text(rev),
            super::diff::shown_dir(&elsewhere),
            super::diff::shown_dir(dir),
            super::diff::shown_dir(&elsewhere),
        );
    }
}

fn empty_range_note(range: Option<&str>) -> String {
    match range.and_then(|r| r.split_once("..")) {
        Some((a, b)) if git::or_head(a) == git::or_head(b.trim_start_matches('.')) => format!(
            "no commits in `{}`: it is empty, both ends being the same revision",
            range.unwrap_or_default()
        ),
        Some((a, b)) => {
            // An end left out is HEAD, as git reads it.
            let (a, b) = (git::or_head(a), git::or_head(b.trim_start_matches('.')));
            format!(
                "no commits in `{}`: it is empty (is it reversed? `{b}..{a}` lists the commits of {a} not in {b})",
                range.unwrap_or_default()
            )
        }
        None => "no commits: the history is empty".to_owned(),
    }
}

fn short(commit: &str) -> &str {
    commit.get(..8).unwrap_or(commit)
}
