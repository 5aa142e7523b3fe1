//! `catalog-diff log [RANGE]`: the compatibility history of a first-parent range, one line (or
//! one JSON object) per commit that changed the catalog.

use std::io::Write;
use std::ops::ControlFlow;

use anyhow::Context;
use catalog_diff::catalog::build::ParseCache;
use catalog_diff::diff::{self, ArchitectureDiff, ImpactReason};
use catalog_diff::git::{CommitInfo, Repo, Side};
use catalog_diff::history::{self, Baseline, Selection, Step};
use catalog_diff::report;
use catalog_diff::schema::{self, ProtoRules, Strategy};

use super::diff::{
    ColorChoice, FailOn, parse_proto_rules, parse_strategy, source_name, trips, use_color,
};
use super::exit_code;
use super::index::{CatalogArgs, report_diagnostics};
use super::progress::Progress;

#[derive(clap::Args, Debug)]
pub struct LogArgs {
    /// The commits: `A..B`, `A...B`, `REV` (all of REV's history); none is all of HEAD's.
    pub range: Option<String>,
    /// Keep only this message id (schema changes, impact, resources and edges).
    #[arg(long, value_name = "ID")]
    pub message: Option<String>,
    /// Show only the commits where the selection broke.
    #[arg(long)]
    pub breaking_only: bool,
    /// Judge every commit against this one revision instead of its parent.
    #[arg(long, value_name = "REV")]
    pub against: Option<String>,
    /// Stop at and print the first commit where the selection broke.
    #[arg(long)]
    pub first_breaking: bool,
    #[command(flatten)]
    pub catalog: CatalogArgs,
    /// backward, forward, full or none.
    #[arg(long, default_value = "full", value_parser = parse_strategy)]
    pub strategy: Strategy,
    /// Protobuf rules: wire-json (buf's WIRE_JSON category: renames and json_name changes
    /// break) or wire (buf's WIRE: only the binary encoding matters).
    #[arg(long, value_name = "RULES", default_value = "wire-json", value_parser = parse_proto_rules)]
    pub proto_rules: ProtoRules,
    /// text (a timeline for people) or json (one object per line and commit).
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// breaking: exit 1 when some step broke; unknown: also when a step has a schema change
    /// without a verdict; never: always exit 0 when the walk ran.
    #[arg(long, value_enum, default_value_t)]
    pub fail_on: FailOn,
    /// auto (only on a terminal, and not when NO_COLOR is set), always or never.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorChoice,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    #[default]
    Text,
    Json,
}

pub fn run(args: LogArgs) -> anyhow::Result<u8> {
    let repo = Repo::discover(&args.catalog.repo)?;
    let mut commits = repo.first_parent_walk(args.range.as_deref())?;
    let Some(tip) = commits.last().map(|c| c.id) else {
        eprintln!("{}", empty_range_note(args.range.as_deref()));
        return Ok(exit_code::OK);
    };
    let mut start = commits.first().and_then(CommitInfo::first_parent);
    if let Some(parent) = start.filter(|p| !repo.gix().has_object(p.0)) {
        // A shallow clone: the oldest commit's parent was never fetched. That commit becomes
        // the starting point instead of a bogus "everything was added" step.
        let boundary = commits.remove(0);
        eprintln!(
            "note: history ends at {} ({}): its parent {} is missing (shallow clone); walking from there\n  hint: `git fetch --unshallow` (in CI: `fetch-depth: 0`) for the whole history",
            short(&boundary.id.to_string()),
            boundary.subject,
            short(&parent.to_string())
        );
        start = Some(boundary.id);
    }
    let dir = repo.detect_catalog_dir(Side::Commit(tip), args.catalog.dir.as_deref())?;
    let mut options = history::Options {
        source: source_name(&repo, &args.catalog),
        dir,
        diff: diff::Options {
            strategy: args.strategy,
            include_schema_content: false,
            schema: schema::Options {
                proto_rules: args.proto_rules,
            },
        },
        baseline: Baseline::Parent,
    };
    if let Some(rev) = &args.against {
        let id = repo.resolve_commit(rev)?;
        let files = history::read_at(&repo, Some(id), &options)?;
        let built = history::build_files(&files, Some(id), &options, &ParseCache::default());
        if report_diagnostics(&built.diagnostics, args.catalog.strict) {
            eprintln!("catalog-diff: the --against catalog ({rev}) is invalid; no log was made");
            return Ok(exit_code::ERROR);
        }
        options.baseline = Baseline::Fixed {
            index: Box::new(built.index),
            files: Box::new(files),
        };
    }

    let selection = Selection {
        message: args.message.clone(),
    };
    let color = args.format == Format::Text && use_color(args.color);
    let progress = Progress::commits(commits.len(), args.format == Format::Text);
    let mut stdout = std::io::stdout().lock();
    let mut state = State::default();
    let outcome = history::walk(
        &repo,
        start,
        &commits,
        &options,
        &mut |walked| progress.set(walked),
        &mut |step| {
            let decision = state.judge(&step, &selection, &args);
            if let Some(view) = &decision.shown {
                let text = match args.format {
                    Format::Text => text_entry(&step, view, color),
                    Format::Json => json_entry(&step, view),
                };
                if let Err(error) = progress.suspend(|| stdout.write_all(text.as_bytes())) {
                    state.write_error = Some(error);
                    return ControlFlow::Break(());
                }
            }
            decision.flow
        },
    );
    progress.finish();
    let outcome = outcome?;
    if let Some(error) = state.write_error {
        return Err(error).context("writing the log to stdout");
    }
    if let Some(commit) = &state.strict_stop {
        eprintln!(
            "catalog-diff: the catalog at {} has problems and --strict is set; the walk stopped there",
            short(commit)
        );
        return Ok(exit_code::ERROR);
    }
    if !outcome.stopped {
        eprintln!(
            "{} commit(s) walked, {} changed the catalog, {} broke",
            outcome.walked, state.changed, state.broke
        );
    }
    if args.first_breaking && !state.tripped {
        eprintln!(
            "never broke: no commit in the range broke{}",
            args.message
                .as_deref()
                .map(|m| format!(" message {m}"))
                .unwrap_or_default()
        );
    }
    Ok(if state.tripped {
        exit_code::POLICY
    } else {
        exit_code::OK
    })
}

/// What the walk has seen so far.
#[derive(Default)]
struct State {
    changed: usize,
    broke: usize,
    /// Some shown step tripped `--fail-on`.
    tripped: bool,
    /// The commit `--strict` stopped at.
    strict_stop: Option<String>,
    write_error: Option<std::io::Error>,
}

/// Whether (and how) to show a step, and whether to keep walking.
struct Decision {
    shown: Option<ArchitectureDiff>,
    flow: ControlFlow<()>,
}

impl State {
    fn judge(&mut self, step: &Step, selection: &Selection, args: &LogArgs) -> Decision {
        let view = history::select(&step.diff, selection);
        let has_problems = !step.diagnostics.is_empty();
        if history::is_empty(&view) && step.errors().next().is_none() {
            let flow = self.strict_flow(step, args.catalog.strict && has_problems);
            return Decision { shown: None, flow };
        }
        self.changed += 1;
        let breaking = view.summary.breaking;
        if breaking {
            self.broke += 1;
        }
        let tripped = trips(&view, args.fail_on);
        if (args.breaking_only || args.first_breaking) && !breaking {
            let flow = self.strict_flow(step, args.catalog.strict && has_problems);
            return Decision { shown: None, flow };
        }
        self.tripped |= tripped;
        let stop_here = args.first_breaking && breaking;
        let flow = if stop_here {
            self.tripped = true;
            ControlFlow::Break(())
        } else {
            self.strict_flow(step, args.catalog.strict && has_problems)
        };
        Decision {
            shown: Some(view),
            flow,
        }
    }

    fn strict_flow(&mut self, step: &Step, stop: bool) -> ControlFlow<()> {
        if stop {
            for diagnostic in &step.diagnostics {
                eprintln!("[{}] {diagnostic}", short(&step.commit.id.to_string()));
            }
            self.strict_stop = Some(step.commit.id.to_string());
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// One timeline line, plus the breaking details and catalog errors under it.
fn text_entry(step: &Step, view: &ArchitectureDiff, color: bool) -> String {
    let commit = &step.commit;
    let author = commit
        .author
        .split_once(" <")
        .map_or(commit.author.as_str(), |(name, _)| name);
    let s = &view.summary;
    let mut line = format!(
        "{} {} {}  {}  [{}]",
        short(&commit.id.to_string()),
        commit.date.get(..10).unwrap_or(&commit.date),
        author,
        commit.subject,
        report::counts(s),
    );
    if s.breaking {
        line.push_str(&format!("  {}", breaking_label(view)));
    }
    line.push('\n');
    if s.breaking {
        for detail in report::breaking_details(view, color).lines() {
            if !detail.trim().is_empty() {
                line.push_str(&format!("  {detail}\n"));
            }
        }
    }
    for error in step.errors() {
        line.push_str(&format!("    error: {error}\n"));
    }
    line
}

/// `BREAKING OrderCreated, Payment (backward, forward)`.
fn breaking_label(view: &ArchitectureDiff) -> String {
    let mut messages = Vec::new();
    let mut directions = Vec::new();
    for change in view
        .schema_changes
        .iter()
        .filter(|c| c.breaking == Some(true))
    {
        messages.push(change.message.id.clone());
        if let Some(direction) = change.direction {
            directions.push(direction.as_str().to_owned());
        }
    }
    for impact in view
        .impact
        .iter()
        .filter(|i| i.reason == ImpactReason::MessageRemoved)
    {
        messages.push(impact.message.id.clone());
        directions.push("removed".to_owned());
    }
    for list in [&mut messages, &mut directions] {
        list.sort();
        list.dedup();
    }
    format!(
        "BREAKING {} ({})",
        messages.join(", "),
        directions.join(", ")
    )
}

/// One JSON object on one line.
fn json_entry(step: &Step, view: &ArchitectureDiff) -> String {
    let commit = &step.commit;
    let mut entry = serde_json::json!({
        "commit": commit.id.to_string(),
        "parent": step.parent.map(|p| p.to_string()),
        "author": commit.author,
        "date": commit.date,
        "subject": commit.subject,
        "diff": view,
    });
    let errors: Vec<_> = step.errors().collect();
    if !errors.is_empty() {
        entry["errors"] = serde_json::json!(errors);
    }
    format!("{entry}\n")
}

fn empty_range_note(range: Option<&str>) -> String {
    match range.and_then(|r| r.split_once("..")) {
        Some((a, b)) => {
            let b = b.trim_start_matches('.');
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
