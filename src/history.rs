//! `log`: a first-parent list of commits -> one ArchitectureDiff per commit that changed the
//! catalog, reported in commit order.
//!
//! Incremental by construction: a commit whose catalog tree id equals the previous one's is not
//! read at all, and one [`ParseCache`] (front matter, hashes by blob id) plus one
//! [`VerdictCache`] (schema verdicts by content hash) serve the whole walk, so the cost grows
//! with the files that changed, not with catalog size times commits. Commits are handled in
//! chunks: read in order, built in parallel, diffed in parallel,
//! then handed to the caller in order, which also bounds memory on long histories.

use std::ops::ControlFlow;

use rayon::prelude::*;

use crate::catalog::build::{self, Built, ParseCache};
use crate::catalog::scope::Scope;
use crate::catalog::{Before, Diagnostic, FileSet, Index, Severity};
use crate::diff::{
    self, ArchitectureDiff, EdgeChanges, Prepared, ResourceChanges, SpecificationSummary,
    VerdictCache, summarize,
};
use crate::git::{self, CommitId, CommitInfo, Repo};
use crate::pipeline::{build_options, cut, revert};
use crate::report::Locations;

/// Commits per parallel batch: enough to keep two to sixteen cores busy, few enough that the
/// indexes held at once stay small.
const CHUNK: usize = 32;

/// What a walk compares each changed commit with.
pub enum Baseline {
    /// Each commit's first parent (the previous commit of the walk).
    Parent,
    /// One fixed Index (`--against REV`), with the files it was built from (where its schemas'
    /// imports are found).
    Fixed {
        index: Box<Index>,
        files: Box<FileSet>,
    },
}

/// How to walk.
pub struct Options {
    /// The Index `source` string.
    pub source: String,
    /// The catalog folder, repository-root relative.
    pub dir: String,
    pub diff: diff::Options,
    pub baseline: Baseline,
}

/// One commit that changed the catalog.
pub struct Step {
    pub commit: CommitInfo,
    /// The first parent of this commit (`None` for a root commit).
    pub parent: Option<CommitId>,
    /// The diff against the baseline; `None` when this commit's catalog is invalid (it has
    /// errors), since a catalog that does not build would show phantom removals.
    pub diff: Option<ArchitectureDiff>,
    /// Set when the baseline is not the parent: the parent's catalog was invalid, so this
    /// commit was diffed against the last commit whose catalog was valid.
    pub against: Option<CommitId>,
    /// The catalog problems of this commit's own catalog.
    pub diagnostics: Vec<Diagnostic>,
    /// Where the diff's findings live in the catalog.
    pub locations: Locations,
}

impl Step {
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }
}

fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| d.severity == Severity::Error)
}

/// How a walk ended.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Commits looked at (changed or not).
    pub walked: usize,
    /// True when the caller asked to stop early.
    pub stopped: bool,
    /// Changed commits diffed on the reach of their change rather than on whole catalogs.
    pub cut: usize,
}

/// Reads and builds the catalog of `commit` (an empty catalog for `None` or a commit without the
/// folder).
pub fn build_at(
    repo: &Repo,
    commit: Option<CommitId>,
    options: &Options,
    cache: &ParseCache,
) -> git::Result<Built> {
    let files = read_at(repo, commit, options)?;
    Ok(build_files(&files, commit, options, cache))
}

/// The catalog files of `commit` (none for `None` or a commit without the folder).
pub fn read_at(repo: &Repo, commit: Option<CommitId>, options: &Options) -> git::Result<FileSet> {
    Ok(match commit {
        Some(id) => repo.read_commit(id, &options.dir)?,
        None => FileSet::default(),
    })
}

/// Builds one commit's files; `None` labels the empty catalog before a root commit.
pub fn build_files(
    files: &FileSet,
    commit: Option<CommitId>,
    options: &Options,
    cache: &ParseCache,
) -> Built {
    let label = commit.map(|c| c.to_string()).unwrap_or_default();
    let content = options.diff.include_schema_content;
    build::build(
        files,
        &build_options(&options.source, label, content),
        cache,
    )
}

/// Walks `commits` (oldest first, consecutive on the first-parent line). `start` is what the
/// first commit is compared with: its first parent, or `None` for an empty catalog (a root
/// commit, or the boundary of a shallow clone chosen by the caller). `progress` gets the number
/// of commits walked so far; `on_step` gets each changed commit in order and may stop the walk.
/// `cache` holds parses by blob id (it may come from an earlier run, and leaves with this one's).
#[allow(clippy::too_many_arguments)] // the walk's inputs; grouping them would only rename them
pub fn walk(
    repo: &Repo,
    start: Option<CommitId>,
    commits: &[CommitInfo],
    options: &Options,
    cache: &ParseCache,
    progress: &mut dyn FnMut(usize),
    on_step: &mut dyn FnMut(Step) -> ControlFlow<()>,
) -> git::Result<Outcome> {
    // Tree ids only: cheap, and they decide which commits are read at all.
    let start_tree = match start {
        Some(id) => repo.tree_id(id, &options.dir)?,
        None => None,
    };
    let mut changed = Vec::new();
    let mut previous_tree = start_tree;
    for (position, commit) in commits.iter().enumerate() {
        let tree = repo.tree_id(commit.id, &options.dir)?;
        if tree != previous_tree {
            changed.push((position, tree));
        }
        previous_tree = tree;
    }
    let mut walker = Walker {
        repo,
        commits,
        options,
        parse_cache: cache,
        verdict_cache: VerdictCache::default(),
        files: FileSet::default(),
        tree: None,
        outcome: Outcome::default(),
    };
    walker.advance(start_tree)?;
    let stopped = match &options.baseline {
        Baseline::Parent => walker.against_parents(start, &changed, progress, on_step)?,
        Baseline::Fixed { index, files } => {
            walker.against((index, files), &changed, progress, on_step)?
        }
    };
    let mut outcome = walker.outcome;
    if stopped.is_continue() {
        outcome.walked = commits.len();
        progress(outcome.walked);
    }
    Ok(outcome)
}

/// The state of one walk: one FileSet moved along the history by tree deltas (each step reads
/// what changed) and the caches every step shares.
struct Walker<'a> {
    repo: &'a Repo,
    commits: &'a [CommitInfo],
    options: &'a Options,
    parse_cache: &'a ParseCache,
    verdict_cache: VerdictCache,
    files: FileSet,
    tree: Option<gix::ObjectId>,
    outcome: Outcome,
}

impl Walker<'_> {
    fn advance(&mut self, tree: Option<gix::ObjectId>) -> git::Result<git::Changes> {
        let changes = self
            .repo
            .advance(&mut self.files, self.tree, tree, &self.options.dir)?;
        self.tree = tree;
        Ok(changes)
    }

    fn build(&self, files: &FileSet, commit: Option<CommitId>) -> Built {
        build_files(files, commit, self.options, self.parse_cache)
    }

    /// Diffs `a` (built from the catalog before `changes`) against `b` (built from the
    /// walker's files), each resolving schema imports in its own revision.
    /// The previous commit's files, seen through this one's and what changed.
    fn before<'a>(&'a self, changes: &'a git::Changes) -> Before<'a> {
        Before {
            after: &self.files,
            changes: &changes.paths,
        }
    }

    fn diff(&self, a: &Index, b: &Index, changes: &git::Changes) -> ArchitectureDiff {
        diff::diff_with_files(
            (a, &self.before(changes)),
            (b, &self.files),
            &self.options.diff,
            &self.verdict_cache,
        )
    }

    /// Hands one changed commit to the caller; an invalid catalog gets no diff.
    fn emit(
        &mut self,
        position: usize,
        (diff, against, locations): (ArchitectureDiff, Option<CommitId>, Locations),
        diagnostics: Vec<Diagnostic>,
        progress: &mut dyn FnMut(usize),
        on_step: &mut dyn FnMut(Step) -> ControlFlow<()>,
    ) -> git::Result<ControlFlow<()>> {
        // Blobs are read as the step uses them; a read that failed stops the walk here.
        self.repo.check_reads()?;
        self.outcome.walked = position + 1;
        progress(self.outcome.walked);
        let commit = self.commits[position].clone();
        let parent = commit.first_parent();
        let step = Step {
            commit,
            parent,
            diff: (!has_errors(&diagnostics)).then_some(diff),
            against,
            diagnostics,
            locations,
        };
        let flow = on_step(step);
        self.outcome.stopped = flow.is_break();
        Ok(flow)
    }

    /// Each changed commit against its first parent. A commit whose change has a [`Reach`]
    /// is diffed on that part of both catalogs only, so its cost follows the change, not the
    /// catalog; other commits (and the first) are built whole.
    ///
    /// [`Reach`]: crate::catalog::scope::Reach
    fn against_parents(
        &mut self,
        start: Option<CommitId>,
        changed: &[(usize, Option<gix::ObjectId>)],
        progress: &mut dyn FnMut(usize),
        on_step: &mut dyn FnMut(Step) -> ControlFlow<()>,
    ) -> git::Result<ControlFlow<()>> {
        let mut scope = Scope::new(&self.files, self.parse_cache);
        let first = self.build(&self.files, start);
        let mut diagnostics = first.diagnostics;
        // The whole Index of the previous commit, while the steps are whole builds.
        let mut whole = Some(first.index);
        // The last valid commit, its Index and files, while the commits after it are invalid.
        let mut last_valid: Option<(Option<CommitId>, Index, FileSet)> = None;
        for &(position, tree) in changed {
            let changes = self.advance(tree)?;
            let commit = Some(self.commits[position].id);
            if let Some((valid, index, valid_files)) = last_valid.take() {
                // Diffed whole against the last valid catalog (its schemas' imports read in its
                // own files), never against the invalid one; the scope still moves along.
                scope.reach(&self.files, &changes.paths, self.parse_cache);
                let built = self.build(&self.files, commit);
                let diff = diff::diff_with_files(
                    (&index, &valid_files),
                    (&built.index, &self.files),
                    &self.options.diff,
                    &self.verdict_cache,
                );
                let diff = self.labelled(diff, valid, position);
                let locations =
                    Locations::of(&diff, (&index, &valid_files), (&built.index, &self.files));
                diagnostics = built.diagnostics;
                let invalid = has_errors(&diagnostics);
                whole = (!invalid).then_some(built.index);
                if invalid {
                    last_valid = Some((valid, index, valid_files));
                }
                let against = valid.filter(|v| Some(*v) != self.commits[position].first_parent());
                if self
                    .emit(
                        position,
                        (diff, against, locations),
                        diagnostics.clone(),
                        progress,
                        on_step,
                    )?
                    .is_break()
                {
                    return Ok(ControlFlow::Break(()));
                }
                continue;
            }
            let cut = cut(
                &mut scope,
                &self.files,
                &changes,
                self.parse_cache,
                &|files, after| self.build(files, if after { commit } else { start }),
            );
            // A specification change is joined to messages and parties beyond the reach of the
            // change: such a step is diffed whole.
            let cut = cut.and_then(|cut| {
                let diff = self.diff(&cut.before.index, &cut.after.index, &changes);
                diff.specification_changes.is_empty().then_some((cut, diff))
            });
            let (diff, locations, previous) = match cut {
                Some((cut, diff)) => {
                    whole = None;
                    self.outcome.cut += 1;
                    cut.carry(&mut diagnostics, &cut.after);
                    let locations = Locations::of(
                        &diff,
                        (&cut.before.index, &self.before(&changes)),
                        (&cut.after.index, &self.files),
                    );
                    (diff, locations, None)
                }
                None => {
                    let previous = match whole.take() {
                        Some(index) => index,
                        None => self.build(&revert(&self.files, &changes), start).index,
                    };
                    let built = self.build(&self.files, commit);
                    let diff = self.diff(&previous, &built.index, &changes);
                    let locations = Locations::of(
                        &diff,
                        (&previous, &self.before(&changes)),
                        (&built.index, &self.files),
                    );
                    diagnostics = built.diagnostics;
                    whole = Some(built.index);
                    (diff, locations, Some(previous))
                }
            };
            let parent = self.commits[position].first_parent();
            if has_errors(&diagnostics) {
                // The next commits are diffed against the parent's catalog until one is valid.
                let files = revert(&self.files, &changes);
                let index = match previous {
                    Some(index) => index,
                    None => self.build(&files, start).index,
                };
                last_valid = Some((parent.or(start), index, files));
                whole = None;
            }
            let diff = self.labelled(diff, parent, position);
            if self
                .emit(
                    position,
                    (diff, None, locations),
                    diagnostics.clone(),
                    progress,
                    on_step,
                )?
                .is_break()
            {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// The baseline may carry an older commit's label (same catalog tree, or the walk's start);
    /// the refs name the baseline commit and the commit this step is about.
    fn labelled(
        &self,
        mut diff: ArchitectureDiff,
        baseline: Option<CommitId>,
        position: usize,
    ) -> ArchitectureDiff {
        if let Some(baseline) = baseline {
            diff.refs.a.commit = baseline.to_string();
        }
        diff.refs.b.commit = self.commits[position].id.to_string();
        diff
    }

    /// Each changed commit against one fixed Index (`--against`): whole builds, in parallel
    /// chunks.
    fn against(
        &mut self,
        (fixed, fixed_files): (&Index, &FileSet),
        changed: &[(usize, Option<gix::ObjectId>)],
        progress: &mut dyn FnMut(usize),
        on_step: &mut dyn FnMut(Step) -> ControlFlow<()>,
    ) -> git::Result<ControlFlow<()>> {
        let prepared = Prepared::new(fixed).with_files(fixed_files);
        for chunk in changed.chunks(CHUNK) {
            // gix handles are not Sync, so reading stays on this thread (blobs go through the
            // repository's BlobCache); building and diffing are pure and run in parallel.
            let mut snapshots = Vec::with_capacity(chunk.len());
            for &(_, tree) in chunk {
                self.advance(tree)?;
                snapshots.push(self.files.clone());
            }
            // The repository handle is not Sync: the parallel part sees only pure state.
            let (commits, options) = (self.commits, self.options);
            let (parse_cache, verdict_cache) = (self.parse_cache, &self.verdict_cache);
            let steps: Vec<(ArchitectureDiff, Locations, Vec<Diagnostic>)> = chunk
                .par_iter()
                .zip(&snapshots)
                .map(|(&(position, _), files)| {
                    let built =
                        build_files(files, Some(commits[position].id), options, parse_cache);
                    let diff = diff::diff_prepared(
                        &prepared,
                        &Prepared::new(&built.index).with_files(files),
                        &options.diff,
                        verdict_cache,
                    );
                    let locations =
                        Locations::of(&diff, (fixed, fixed_files), (&built.index, files));
                    (diff, locations, built.diagnostics)
                })
                .collect();
            for (&(position, _), (diff, locations, diagnostics)) in chunk.iter().zip(steps) {
                if self
                    .emit(
                        position,
                        (diff, None, locations),
                        diagnostics,
                        progress,
                        on_step,
                    )?
                    .is_break()
                {
                    return Ok(ControlFlow::Break(()));
                }
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

/// Which part of each diff a walk reports.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Keep only this message id's schema changes, impact, resources and edges.
    pub message: Option<String>,
}

/// The view of `diff` that `selection` keeps, with its summary recomputed.
pub fn select(diff: &ArchitectureDiff, selection: &Selection) -> ArchitectureDiff {
    let Some(id) = selection.message.as_deref() else {
        return diff.clone();
    };
    let resources = ResourceChanges {
        added: keep(&diff.resources.added, |r| r.id == id),
        removed: keep(&diff.resources.removed, |r| r.id == id),
        changed: keep(&diff.resources.changed, |r| r.id == id),
    };
    let touches = |e: &diff::Edge| e.from.id == id || e.to.id == id;
    let edges = EdgeChanges {
        added: keep(&diff.edges.added, touches),
        removed: keep(&diff.edges.removed, touches),
    };
    let schema_changes = keep(&diff.schema_changes, |c| c.message.id == id);
    let transitive_checks = keep(&diff.transitive_checks, |c| c.message.id == id);
    let impact = keep(&diff.impact, |i| i.message.id == id);
    // A specification change is about the message when it belongs to it or reaches it.
    let specification_changes = keep(&diff.specification_changes, |c| {
        c.resource.id == id || c.impact.iter().any(|i| i.message.id == id)
    });
    let mut summary = summarize(&resources, &edges, &schema_changes, &impact);
    summary.specifications = SpecificationSummary::of(&specification_changes);
    ArchitectureDiff {
        summary,
        resources,
        edges,
        schema_changes,
        transitive_checks,
        impact,
        specification_changes,
        ..diff.clone()
    }
}

fn keep<T: Clone>(items: &[T], wanted: impl Fn(&T) -> bool) -> Vec<T> {
    items.iter().filter(|item| wanted(item)).cloned().collect()
}

/// True when the (selected) diff has nothing to show.
///
/// A schema file that is missing on both sides (same path, no hash) is listed by every diff, as
/// the reference lists it, but it is no change: a commit with only that is empty here.
pub fn is_empty(diff: &ArchitectureDiff) -> bool {
    let s = &diff.summary;
    let still_missing = |c: &diff::SchemaChange| {
        c.change == diff::FileChange::Modified
            && c.before == c.after
            && c.before.as_ref().is_some_and(|file| file.hash.is_none())
    };
    s.resources_added + s.resources_removed + s.resources_changed == 0
        && s.edges_added + s.edges_removed == 0
        && diff.schema_changes.iter().all(still_missing)
        && diff.impact.is_empty()
        && diff.specification_changes.is_empty()
}
