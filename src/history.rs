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
use crate::catalog::scope::{Reach, Scope};
use crate::catalog::{Diagnostic, FileSet, Index, Severity};
use crate::diff::{
    self, ArchitectureDiff, EdgeChanges, Prepared, ResourceChanges, VerdictCache, summarize,
};
use crate::git::{self, CommitId, CommitInfo, Repo};

/// Commits per parallel batch: enough to keep two to sixteen cores busy, few enough that the
/// indexes held at once stay small.
const CHUNK: usize = 32;

/// What a walk compares each changed commit with.
pub enum Baseline {
    /// Each commit's first parent (the previous commit of the walk).
    Parent,
    /// One fixed Index (`--against REV`).
    Fixed(Box<Index>),
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
    /// The first parent this commit was diffed against (`None` for a root commit).
    pub parent: Option<CommitId>,
    pub diff: ArchitectureDiff,
    /// The catalog problems of this commit's own catalog.
    pub diagnostics: Vec<Diagnostic>,
}

impl Step {
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }
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

/// The build options of one commit's catalog; `log` and `diff` build sides the same way.
pub fn build_options(source: &str, commit: String) -> build::Options {
    build::Options {
        source: source.to_owned(),
        commit,
        hash_content: true,
        include_schema_content: true,
    }
}

/// Reads and builds the catalog of `commit` (an empty catalog for `None` or a commit without the
/// folder).
pub fn build_at(
    repo: &Repo,
    commit: Option<CommitId>,
    options: &Options,
    cache: &ParseCache,
) -> git::Result<Built> {
    let files = match commit {
        Some(id) => repo.read_commit(id, &options.dir)?,
        None => FileSet::default(),
    };
    Ok(build_files(&files, commit, options, cache))
}

/// Builds one commit's files; `None` labels the empty catalog before a root commit.
fn build_files(
    files: &FileSet,
    commit: Option<CommitId>,
    options: &Options,
    cache: &ParseCache,
) -> Built {
    let label = commit.map(|c| c.to_string()).unwrap_or_default();
    build::build(files, &build_options(&options.source, label), cache)
}

/// Walks `commits` (oldest first, consecutive on the first-parent line). `start` is what the
/// first commit is compared with: its first parent, or `None` for an empty catalog (a root
/// commit, or the boundary of a shallow clone chosen by the caller). `progress` gets the number
/// of commits walked so far; `on_step` gets each changed commit in order and may stop the walk.
pub fn walk(
    repo: &Repo,
    start: Option<CommitId>,
    commits: &[CommitInfo],
    options: &Options,
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
        parse_cache: ParseCache::default(),
        verdict_cache: VerdictCache::default(),
        files: FileSet::default(),
        tree: None,
        outcome: Outcome::default(),
    };
    walker.advance(start_tree)?;
    let stopped = match &options.baseline {
        Baseline::Parent => walker.against_parents(start, &changed, progress, on_step)?,
        Baseline::Fixed(index) => walker.against(index, &changed, progress, on_step)?,
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
    parse_cache: ParseCache,
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
        build_files(files, commit, self.options, &self.parse_cache)
    }

    fn diff(&self, a: &Index, b: &Index) -> ArchitectureDiff {
        diff::diff_cached(a, b, &self.options.diff, &self.verdict_cache)
    }

    /// Hands one changed commit to the caller.
    fn emit(
        &mut self,
        position: usize,
        diff: ArchitectureDiff,
        diagnostics: Vec<Diagnostic>,
        progress: &mut dyn FnMut(usize),
        on_step: &mut dyn FnMut(Step) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.outcome.walked = position + 1;
        progress(self.outcome.walked);
        let commit = self.commits[position].clone();
        let parent = commit.first_parent();
        let step = Step {
            commit,
            parent,
            diff,
            diagnostics,
        };
        let flow = on_step(step);
        self.outcome.stopped = flow.is_break();
        flow
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
        let mut scope = Scope::new(&self.files, &self.parse_cache);
        let first = self.build(&self.files, start);
        let mut diagnostics = first.diagnostics;
        // The whole Index of the previous commit, while the steps are whole builds.
        let mut whole = Some(first.index);
        for &(position, tree) in changed {
            let changes = self.advance(tree)?;
            let commit = Some(self.commits[position].id);
            let cut = cut(
                &mut scope,
                &self.files,
                &changes,
                &self.parse_cache,
                &|files, after| self.build(files, if after { commit } else { start }),
            );
            let (diff, step_diagnostics) = match cut {
                Some(cut) => {
                    whole = None;
                    self.outcome.cut += 1;
                    cut.carry(&mut diagnostics, &cut.after);
                    (
                        self.diff(&cut.before.index, &cut.after.index),
                        diagnostics.clone(),
                    )
                }
                None => {
                    let previous = match whole.take() {
                        Some(index) => index,
                        None => self.build(&revert(&self.files, &changes), start).index,
                    };
                    let built = self.build(&self.files, commit);
                    let diff = self.diff(&previous, &built.index);
                    diagnostics = built.diagnostics;
                    whole = Some(built.index);
                    (diff, diagnostics.clone())
                }
            };
            let mut diff = diff;
            // The baseline may carry an older commit's label (same catalog tree, or the walk's
            // start); the parent is the commit this step is about.
            if let Some(parent) = self.commits[position].first_parent() {
                diff.refs.a.commit = parent.to_string();
            }
            diff.refs.b.commit = self.commits[position].id.to_string();
            if self
                .emit(position, diff, step_diagnostics, progress, on_step)
                .is_break()
            {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Each changed commit against one fixed Index (`--against`): whole builds, in parallel
    /// chunks.
    fn against(
        &mut self,
        fixed: &Index,
        changed: &[(usize, Option<gix::ObjectId>)],
        progress: &mut dyn FnMut(usize),
        on_step: &mut dyn FnMut(Step) -> ControlFlow<()>,
    ) -> git::Result<ControlFlow<()>> {
        let fixed = Prepared::new(fixed);
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
            let (parse_cache, verdict_cache) = (&self.parse_cache, &self.verdict_cache);
            let steps: Vec<(ArchitectureDiff, Vec<Diagnostic>)> = chunk
                .par_iter()
                .zip(&snapshots)
                .map(|(&(position, _), files)| {
                    let built =
                        build_files(files, Some(commits[position].id), options, parse_cache);
                    let diff = diff::diff_prepared(
                        &fixed,
                        &Prepared::new(&built.index),
                        &options.diff,
                        verdict_cache,
                    );
                    (diff, built.diagnostics)
                })
                .collect();
            for (&(position, _), (diff, diagnostics)) in chunk.iter().zip(steps) {
                if self
                    .emit(position, diff, diagnostics, progress, on_step)
                    .is_break()
                {
                    return Ok(ControlFlow::Break(()));
                }
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

/// Both sides of a change cut down to its [`Reach`] and built.
///
/// [`Reach`]: crate::catalog::scope::Reach
pub struct Cut {
    pub reach: Reach,
    pub before: Built,
    pub after: Built,
}

impl Cut {
    /// Turns one side's whole-catalog `diagnostics` into the other side's, where `from` is
    /// that other side's cut: only the resource files in the reach can differ.
    pub fn carry(&self, diagnostics: &mut Vec<Diagnostic>, from: &Built) {
        let inside = |d: &Diagnostic| self.reach.resource_files.contains(&d.file);
        diagnostics.retain(|d| !inside(d));
        diagnostics.extend(from.diagnostics.iter().filter(|d| inside(d)).cloned());
        diagnostics.sort();
        diagnostics.dedup();
    }
}

/// Moves `scope` to `after` (the catalog once `changes` are applied) and builds both sides of
/// the change on its reach with `build` (`true` for the after side). `None` when the change has
/// no reach, when a cut misses a schema file the catalog has (one named through `../`), or when
/// some resource names a schema file that does not exist (every diff lists it, see
/// [`Scope::names_missing_schema`]): then only whole builds are faithful.
pub fn cut(
    scope: &mut Scope,
    after: &FileSet,
    changes: &git::Changes,
    cache: &ParseCache,
    build: &dyn Fn(&FileSet, bool) -> Built,
) -> Option<Cut> {
    let reach = scope
        .reach(after, &changes.paths, cache)
        .filter(|_| !changes.special)?;
    if scope.names_missing_schema(after) {
        return None;
    }
    let (before_cut, after_cut) = (build(&reach.before, false), build(&reach.after, true));
    let was = |path: &str| match changes.paths.get(path) {
        Some(before) => before.is_some(),
        None => after.get(path).is_some(),
    };
    let is = |path: &str| after.get(path).is_some();
    let complete = |built: &Built, exists: &dyn Fn(&str) -> bool| {
        built.unresolved_files.iter().all(|path| !exists(path))
    };
    (complete(&before_cut, &was) && complete(&after_cut, &is)).then_some(Cut {
        reach,
        before: before_cut,
        after: after_cut,
    })
}

/// A diff of two catalogs, with what the command line reports besides it.
pub struct SideBySide {
    pub diff: ArchitectureDiff,
    /// The baseline's catalog problems (as a whole build finds them).
    pub before_diagnostics: Vec<Diagnostic>,
    /// False when the baseline holds no resource at all.
    pub before_has_resources: bool,
    /// The candidate, built whole.
    pub after: Built,
}

/// Diffs catalog `before` against catalog `after` (labelled `labels`). The candidate is built
/// whole, so its problems are all found; the baseline is built only on the reach of the
/// change when it has one, and its problems are carried over from the candidate's. The result
/// equals two whole builds (tests/history_diff.rs holds them side by side).
pub fn diff_files(
    before: &FileSet,
    after: &FileSet,
    labels: (String, String),
    source: &str,
    options: &diff::Options,
    cache: &ParseCache,
) -> SideBySide {
    let build = |files: &FileSet, label: &str| {
        build::build(files, &build_options(source, label.to_owned()), cache)
    };
    let changes = git::Changes::between(before, after);
    let verdicts = VerdictCache::default();
    let whole = |whole_before: Built, whole_after: Built| SideBySide {
        diff: diff::diff_cached(&whole_before.index, &whole_after.index, options, &verdicts),
        before_has_resources: !whole_before.index.resources.is_empty(),
        before_diagnostics: whole_before.diagnostics,
        after: whole_after,
    };
    // When much of the catalog changed, its reach is everything: build both sides at once.
    if changes.paths.len() * 4 > before.files.len().max(after.files.len()) {
        let (a, b) = rayon::join(|| build(before, &labels.0), || build(after, &labels.1));
        return whole(a, b);
    }
    let whole_after = build(after, &labels.1);
    let mut scope = Scope::new(before, cache);
    let cut = cut(&mut scope, after, &changes, cache, &|files, is_after| {
        build(files, if is_after { &labels.1 } else { &labels.0 })
    });
    let Some(cut) = cut else {
        return whole(build(before, &labels.0), whole_after);
    };
    let mut before_diagnostics = whole_after.diagnostics.clone();
    cut.carry(&mut before_diagnostics, &cut.before);
    SideBySide {
        diff: diff::diff_cached(&cut.before.index, &cut.after.index, options, &verdicts),
        before_diagnostics,
        // Resources outside the reach are on both sides.
        before_has_resources: !cut.before.index.resources.is_empty()
            || whole_after.index.resources.len() > cut.after.index.resources.len(),
        after: whole_after,
    }
}

/// The catalog before `changes`, from the catalog after them.
fn revert(after: &FileSet, changes: &git::Changes) -> FileSet {
    let mut before = after.clone();
    for (path, blob) in &changes.paths {
        match blob {
            Some(blob) => before.files.insert(path.clone(), blob.clone()),
            None => before.files.remove(path),
        };
    }
    before
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
    let impact = keep(&diff.impact, |i| i.message.id == id);
    ArchitectureDiff {
        summary: summarize(&resources, &edges, &schema_changes, &impact),
        resources,
        edges,
        schema_changes,
        impact,
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
}
