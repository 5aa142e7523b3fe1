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
    let parse_cache = ParseCache::default();
    let verdict_cache = VerdictCache::default();

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

    // One FileSet moves along the history by tree deltas: each step reads what changed.
    let mut files = FileSet::default();
    repo.advance(&mut files, None, start_tree, &options.dir)?;
    let mut files_tree = start_tree;
    let mut previous = match &options.baseline {
        Baseline::Parent => Some(build_files(&files, start, options, &parse_cache).index),
        Baseline::Fixed(_) => None,
    };
    let mut outcome = Outcome::default();
    for chunk in changed.chunks(CHUNK) {
        // gix handles are not Sync, so reading stays on this thread (blobs go through the
        // repository's BlobCache); building and diffing are pure and run in parallel.
        let mut snapshots = Vec::with_capacity(chunk.len());
        for &(_, tree) in chunk {
            repo.advance(&mut files, files_tree, tree, &options.dir)?;
            files_tree = tree;
            snapshots.push(files.clone());
        }
        let built: Vec<Built> = chunk
            .par_iter()
            .zip(&snapshots)
            .map(|(&(position, _), files)| {
                build_files(files, Some(commits[position].id), options, &parse_cache)
            })
            .collect();
        drop(snapshots);
        // Each commit is grouped and resolved once, as candidate and then as baseline.
        let prepared: Vec<Prepared> = built.par_iter().map(|b| Prepared::new(&b.index)).collect();
        let fixed = match &options.baseline {
            Baseline::Fixed(index) => Some(Prepared::new(index)),
            Baseline::Parent => None,
        };
        let before_chunk = previous.as_ref().map(Prepared::new);
        let diffs: Vec<ArchitectureDiff> = (0..built.len())
            .into_par_iter()
            .map(|i| {
                let baseline = match (&fixed, i) {
                    (Some(fixed), _) => fixed,
                    (None, 0) => before_chunk.as_ref().unwrap_or(&prepared[0]),
                    (None, _) => &prepared[i - 1],
                };
                diff::diff_prepared(baseline, &prepared[i], &options.diff, &verdict_cache)
            })
            .collect();
        drop((prepared, fixed, before_chunk));
        for ((&(position, _), built), diff) in chunk.iter().zip(built.iter()).zip(diffs) {
            outcome.walked = position + 1;
            progress(outcome.walked);
            let commit = commits[position].clone();
            let parent = commit.first_parent();
            let mut diff = diff;
            if let (Baseline::Parent, Some(parent)) = (&options.baseline, parent) {
                // The baseline Index may come from an older commit with the same catalog tree;
                // the parent is the commit this step is about.
                diff.refs.a.commit = parent.to_string();
            }
            let step = Step {
                commit,
                parent,
                diff,
                diagnostics: built.diagnostics.clone(),
            };
            if on_step(step).is_break() {
                outcome.stopped = true;
                return Ok(outcome);
            }
        }
        previous = built.into_iter().last().map(|b| b.index);
    }
    outcome.walked = commits.len();
    progress(outcome.walked);
    Ok(outcome)
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
pub fn is_empty(diff: &ArchitectureDiff) -> bool {
    let s = &diff.summary;
    s.resources_added + s.resources_removed + s.resources_changed == 0
        && s.edges_added + s.edges_removed + s.schema_changes == 0
        && diff.impact.is_empty()
}
