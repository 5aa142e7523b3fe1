//! `log`: a first-parent list of commits -> one ArchitectureDiff per commit that changed the
//! catalog, reported in commit order.
//!
//! Incremental by construction: a commit whose catalog tree id equals the previous one's is not
//! read at all, and one [`ParseCache`] (front matter, hashes by blob id) plus one
//! [`VerdictCache`] (schema verdicts by content hash) serve the whole walk, so the cost grows
//! with the files that changed, not with catalog size times commits. Commits are handled in
//! chunks: read in order, built in parallel, diffed in parallel,
//! then handed to the caller in order, which also bounds memory on long histories.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;
use std::sync::Arc;

use rayon::prelude::*;

use crate::catalog::build::{self, Built, ParseCache};
use crate::catalog::scope::{Reach, Scope};
use crate::catalog::{Before, Blob, Diagnostic, FileSet, Index, Severity, SpecialEntry};
use crate::diff::{
    self, ArchitectureDiff, EdgeChanges, Prepared, ResourceChanges, SpecificationSummary,
    VerdictCache, summarize,
};
use crate::git::{self, CommitId, CommitInfo, Repo};
use crate::pipeline::{self, build_options};
use crate::report::Locations;

/// Commits per parallel batch: enough to keep two to sixteen cores busy, few enough that the
/// indexes held at once stay small.
const CHUNK: usize = 32;

/// Commits of a chunk built whole together, as one window: its catalogs (one more than its
/// commits) are held at once, and a window is not bigger so that they stay few.
const WHOLE_WINDOW: usize = 4;

/// What a walk compares each changed commit with.
pub enum Baseline {
    /// Each commit's first parent (the previous commit of the walk).
    Parent,
    /// One fixed Index (`--against REV`), with the files it was built from (where its schemas'
    /// imports are found).
    Fixed {
        index: Box<Index>,
        files: Box<FileSet>,
        /// The catalog folder's tree there (`None`: it has none): the first commit of the walk
        /// is diffed when it differs, whether or not it changed the catalog itself.
        tree: Option<gix::ObjectId>,
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
    // Against a fixed baseline, a commit unlike it is a step even if its parent is alike.
    let mut previous_tree = match &options.baseline {
        Baseline::Parent => start_tree,
        Baseline::Fixed { tree, .. } => *tree,
    };
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
        Baseline::Fixed { index, files, .. } => {
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

    /// Each changed commit against its first parent, in chunks: the commits of a chunk are read
    /// and their reaches found in order (the scope moves along), then judged in parallel while
    /// the next chunk is read, then handed to the caller in order. A commit whose change has a
    /// [`Reach`] is diffed on that part of both catalogs only, so its cost follows the change,
    /// not the catalog; other commits are built whole. After an invalid catalog, the commits up
    /// to the next valid one are built whole again, against the last valid catalog.
    ///
    /// [`Reach`]: crate::catalog::scope::Reach
    fn against_parents(
        &mut self,
        start: Option<CommitId>,
        changed: &[(usize, Option<gix::ObjectId>)],
        progress: &mut dyn FnMut(usize),
        on_step: &mut dyn FnMut(Step) -> ControlFlow<()>,
    ) -> git::Result<ControlFlow<()>> {
        let mut scope = Scope::new(&self.files, self.parse_cache, None).indexed();
        let diagnostics = self.build(&self.files, start).diagnostics;
        // A range may start after an invalid commit: its first commit is diffed against the last
        // valid one before, as within the range.
        let last = match has_errors(&diagnostics) {
            true => Some(self.last_valid_before(start)?),
            false => None,
        };
        let mut state = Valid {
            start,
            diagnostics,
            last,
        };
        let verdict_cache = std::mem::take(&mut self.verdict_cache);
        let (commits, options, parse_cache) = (self.commits, self.options, self.parse_cache);
        let judge = |mut jobs: Vec<Job>, files: FileSet| {
            let judge = Judge {
                commits,
                options,
                parse_cache,
                verdict_cache: &verdict_cache,
                start,
                files: &files,
            };
            let judged = judge.chunk(&mut jobs);
            (jobs, judged, files)
        };
        let flow = std::thread::scope(|threads| {
            let mut judging: Option<std::thread::ScopedJoinHandle<'_, Chunk>> = None;
            // The catalog the last judged chunk ended on, handed back by its judge.
            let mut last_catalog = None;
            let mut chunks = changed.chunks(CHUNK);
            loop {
                let next = chunks
                    .next()
                    .map(|chunk| self.read_chunk(chunk, &mut scope))
                    .transpose()?;
                if let Some(handle) = judging.take() {
                    let (jobs, judged, files) = handle
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                    for (job, judged) in jobs.iter().zip(judged) {
                        let step = self.hand_over(job, judged, &files, &mut state, &verdict_cache);
                        let diagnostics = state.diagnostics.clone();
                        if self
                            .emit(job.position, step, diagnostics, progress, on_step)?
                            .is_break()
                        {
                            return Ok(ControlFlow::Break(()));
                        }
                    }
                    // Freeing a chunk's views is a cost of its own: a pool thread pays it.
                    rayon::spawn(move || drop(jobs));
                    last_catalog = Some(files);
                }
                let Some(jobs) = next else {
                    return Ok(ControlFlow::Continue(()));
                };
                let files = self.chunk_catalog(&jobs, last_catalog.take());
                judging = Some(threads.spawn(move || judge(jobs, files)));
            }
        });
        rayon::spawn(move || drop((scope, state, verdict_cache)));
        flow
    }

    /// The last commit before `start` (an invalid catalog) on the first-parent line whose
    /// catalog is valid, with its Index and files; the empty catalog before the root (or
    /// before the edge of a shallow clone) when there is none.
    fn last_valid_before(
        &self,
        start: Option<CommitId>,
    ) -> git::Result<(Option<CommitId>, Index, FileSet)> {
        let mut at = start;
        while let Some(commit) = at {
            let Some(parent) = self
                .repo
                .first_parent(commit)?
                .filter(|p| self.repo.has_commit(*p))
            else {
                break;
            };
            let files = read_at(self.repo, Some(parent), self.options)?;
            let built = self.build(&files, Some(parent));
            if !has_errors(&built.diagnostics) {
                return Ok((Some(parent), built.index, files));
            }
            at = Some(parent);
        }
        let empty = FileSet::default();
        Ok((None, self.build(&empty, None).index, empty))
    }

    /// Reads the commits of `chunk` in order, moving `scope` along, and returns them (each
    /// sees its own catalog through the chunk's last one, [`Walker::chunk_catalog`]).
    fn read_chunk(
        &mut self,
        chunk: &[(usize, Option<gix::ObjectId>)],
        scope: &mut Scope,
    ) -> git::Result<Vec<Job>> {
        let mut jobs = Vec::with_capacity(chunk.len());
        let mut changes = Vec::with_capacity(chunk.len());
        for &(position, tree) in chunk {
            let special_before = self.files.special.clone();
            let changed = self.advance(tree)?;
            let reach = pipeline::reach(scope, &self.files, &changed, self.parse_cache);
            jobs.push(Job {
                position,
                reach,
                special: [special_before, self.files.special.clone()],
                later: Default::default(),
            });
            changes.push(changed.paths);
        }
        Job::overlay(&mut jobs, changes);
        Ok(jobs)
    }

    /// The catalog a chunk of `jobs` just read ends on, for its judge: `previous` (the one the
    /// chunk before ended on) with the paths this chunk changed brought up to date, or a copy
    /// of the walk's catalog for the first chunk. Copying (and then freeing) the whole catalog
    /// for every chunk had been about 8% of a walk over 41,000 files.
    fn chunk_catalog(&self, jobs: &[Job], previous: Option<FileSet>) -> FileSet {
        let Some(mut catalog) = previous else {
            return self.files.clone();
        };
        // The first job sees the chunk's start through every path the chunk changes.
        let changed = jobs.first().map(|job| job.later[0].keys());
        for path in changed.into_iter().flatten() {
            match self.files.files.get(path) {
                Some(blob) => {
                    catalog.files.insert(path.clone(), blob.clone());
                }
                None => {
                    catalog.files.remove(path);
                }
            }
        }
        catalog.special = self.files.special.clone();
        catalog
    }

    /// `job` diffed on whole builds of its parent (labelled `start`, as [`Walker::labelled`]
    /// expects) and itself.
    fn judged_whole(
        &self,
        job: &Job,
        files: &FileSet,
        start: Option<CommitId>,
        verdict_cache: &VerdictCache,
    ) -> Judged {
        let (before, after) = (job.side(files, 0), job.side(files, 1));
        let old = self.build(&before, start);
        let new = self.build(&after, Some(self.commits[job.position].id));
        let diff = diff::diff_with_files(
            (&old.index, &before),
            (&new.index, &after),
            &self.options.diff,
            verdict_cache,
        );
        let locations = Locations::of(&diff, (&old.index, &before), (&new.index, &after));
        Judged {
            diff,
            locations,
            found: Found::Whole(new.diagnostics),
            before: Some(old.index),
        }
    }

    /// The diff, baseline and locations of a judged commit, now that the walk knows whether its
    /// parent was valid; brings `state` to this commit. `files` is the catalog of the last
    /// commit of its chunk.
    fn hand_over(
        &mut self,
        job: &Job,
        mut judged: Judged,
        files: &FileSet,
        state: &mut Valid,
        verdict_cache: &VerdictCache,
    ) -> (ArchitectureDiff, Option<CommitId>, Locations) {
        let position = job.position;
        let parent = self.commits[position].first_parent();
        if let Some((valid, index, valid_files)) = state.last.take() {
            // Diffed whole against the last valid catalog (its schemas' imports read in its own
            // files), never against the invalid one.
            let files = job.side(files, 1);
            let built = self.build(&files, Some(self.commits[position].id));
            let diff = diff::diff_with_files(
                (&index, &valid_files),
                (&built.index, &files),
                &self.options.diff,
                verdict_cache,
            );
            let diff = self.labelled(diff, valid, position);
            let locations = Locations::of(&diff, (&index, &valid_files), (&built.index, &files));
            state.diagnostics = built.diagnostics;
            if has_errors(&state.diagnostics) {
                state.last = Some((valid, index, valid_files));
            }
            let against = valid.filter(|v| Some(*v) != parent);
            return (diff, against, locations);
        }
        match judged.found {
            Found::Whole(found) => state.diagnostics = found,
            Found::Cut { reach, found } => {
                pipeline::carry(&reach, &mut state.diagnostics, &found);
                // As a single diff does (`pipeline::diff_files`): a catalog where the SDK
                // indexes a message under another's content path is diffed whole.
                if build::has_aliased_messages(&state.diagnostics) {
                    judged = self.judged_whole(job, files, state.start, verdict_cache);
                } else {
                    self.outcome.cut += 1;
                }
            }
        }
        if has_errors(&state.diagnostics) {
            // The next commits are diffed against the parent's catalog until one is valid.
            let files = job.side(files, 0);
            let index = match judged.before {
                Some(index) => index,
                None => self.build(&files, state.start).index,
            };
            state.last = Some((parent.or(state.start), index, files));
        }
        (
            self.labelled(judged.diff, parent, position),
            None,
            judged.locations,
        )
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

/// A chunk of judged commits, with the catalog of its last commit.
type Chunk = (Vec<Job>, Vec<Judged>, FileSet);

/// What a walk against parents knows of validity as it hands commits over.
struct Valid {
    /// The commit the walk started from.
    start: Option<CommitId>,
    /// The catalog problems of the last commit handed over.
    diagnostics: Vec<Diagnostic>,
    /// The last valid commit, its Index and files, while the commits after it are invalid.
    last: Option<(Option<CommitId>, Index, FileSet)>,
}

/// One changed commit of a walk against parents, as read in order.
struct Job {
    position: usize,
    /// `None`: the change reaches too far, or cannot be cut; both sides are built whole.
    reach: Option<Reach>,
    /// The symlinks and submodules of the parent's catalog and of this commit's.
    special: [BTreeMap<String, SpecialEntry>; 2],
    /// The paths that change after this commit's parent (after this commit) within the chunk,
    /// each with its blob then: the chunk's last catalog seen through them is the parent's
    /// catalog (this commit's).
    later: [Arc<BTreeMap<String, Option<Blob>>>; 2],
}

impl Job {
    /// Fills each job's `later` from what each commit changed (each path with its blob
    /// before), from the chunk's last commit back.
    fn overlay(jobs: &mut [Job], changes: Vec<BTreeMap<String, Option<Blob>>>) {
        // A job's `after` is the next job's parent view: shared, not copied.
        let mut later: Arc<BTreeMap<_, _>> = Arc::default();
        for (job, changed) in jobs.iter_mut().zip(changes).rev() {
            let after = later.clone();
            let mut before = (*after).clone();
            before.extend(changed);
            later = Arc::new(before);
            job.later = [later.clone(), after];
        }
    }

    /// The parent's catalog (`0`) or this commit's (`1`), seen through `last`, the chunk's last.
    fn view<'a>(&'a self, last: &'a FileSet, side: usize) -> Before<'a> {
        Before {
            after: last,
            changes: &self.later[side],
        }
    }

    /// [`Job::view`] as a catalog of its own, for a whole build.
    fn side(&self, last: &FileSet, side: usize) -> FileSet {
        self.view(last, side).to_file_set(&self.special[side])
    }
}

/// A commit judged against its parent, before the walk knows whether the parent was valid.
struct Judged {
    diff: ArchitectureDiff,
    locations: Locations,
    found: Found,
    /// The parent's whole Index, when the commit was built whole.
    before: Option<Index>,
}

/// The catalog problems of a judged commit.
enum Found {
    /// Of its whole catalog.
    Whole(Vec<Diagnostic>),
    /// Of its cut, for the resource files in the reach; the rest are the parent's.
    Cut {
        reach: BTreeSet<String>,
        found: Vec<Diagnostic>,
    },
}

/// What judging a commit reads: pure state only, shared by the threads (the repository handle
/// is not Sync).
struct Judge<'a> {
    commits: &'a [CommitInfo],
    options: &'a Options,
    parse_cache: &'a ParseCache,
    verdict_cache: &'a VerdictCache,
    start: Option<CommitId>,
    /// The catalog of the chunk's last commit.
    files: &'a FileSet,
}

impl Judge<'_> {
    /// Builds `files` as the commit at `position` (`after`) or as its parent. The parent is
    /// labelled with the walk's start; [`Walker::labelled`] names the right commit.
    fn build(&self, files: &FileSet, after: bool, position: usize) -> Built {
        let commit = if after {
            Some(self.commits[position].id)
        } else {
            self.start
        };
        build_files(files, commit, self.options, self.parse_cache)
    }

    /// Judges the jobs of a chunk in parallel: each on its reach when it has one; the rest on
    /// whole builds, where a commit's catalog is also the next commit's parent's, so each is
    /// built and prepared once.
    fn chunk(&self, jobs: &mut [Job]) -> Vec<Judged> {
        let reaches: Vec<Option<Reach>> = jobs.iter_mut().map(|job| job.reach.take()).collect();
        let jobs = &*jobs;
        let unreached: Vec<usize> = (0..jobs.len()).filter(|&i| reaches[i].is_none()).collect();
        let (mut judged, whole) = rayon::join(
            || {
                reaches
                    .into_par_iter()
                    .zip(jobs)
                    .map(|(reach, job)| self.on_reach(job, reach?))
                    .collect::<Vec<_>>()
            },
            || self.whole(jobs, &unreached),
        );
        for (i, found) in whole {
            judged[i] = Some(found);
        }
        // Cuts that could not be judged on their reach.
        let missed: Vec<usize> = (0..jobs.len()).filter(|&i| judged[i].is_none()).collect();
        for (i, found) in self.whole(jobs, &missed) {
            judged[i] = Some(found);
        }
        judged.into_iter().flatten().collect()
    }

    /// A commit diffed on the reach of its change, or `None` when it must be built whole.
    fn on_reach(&self, job: &Job, reach: Reach) -> Option<Judged> {
        let sides = [job.view(self.files, 0), job.view(self.files, 1)];
        let build = |files: &FileSet, after: bool| self.build(files, after, job.position);
        let cut = pipeline::cut_on(reach, [&sides[0], &sides[1]], &build)?;
        let diff = diff::diff_with_files(
            (&cut.before.index, &sides[0]),
            (&cut.after.index, &sides[1]),
            &self.options.diff,
            self.verdict_cache,
        );
        // A specification change is joined to messages and parties beyond the reach of the
        // change: such a commit is diffed whole.
        if !diff.specification_changes.is_empty() {
            return None;
        }
        let locations = Locations::of(
            &diff,
            (&cut.before.index, &sides[0]),
            (&cut.after.index, &sides[1]),
        );
        Some(Judged {
            diff,
            locations,
            found: Found::Cut {
                reach: cut.reach.resource_files,
                found: cut.after.diagnostics,
            },
            before: None,
        })
    }

    /// The jobs at `positions` (indexes into `jobs`) diffed on whole builds, a few at a time
    /// so that the catalogs held at once stay few.
    fn whole(&self, jobs: &[Job], positions: &[usize]) -> Vec<(usize, Judged)> {
        positions
            .par_chunks(WHOLE_WINDOW)
            .flat_map_iter(|window| self.window(jobs, window))
            .collect()
    }

    /// [`Judge::whole`] on a few jobs. Catalog `k` is the parent's of job `k` and the catalog
    /// of job `k - 1`; each one needed is built once.
    fn window(&self, jobs: &[Job], positions: &[usize]) -> Vec<(usize, Judged)> {
        let needed: BTreeSet<usize> = positions.iter().flat_map(|&i| [i, i + 1]).collect();
        let catalogs: Vec<(usize, FileSet, Built)> = needed
            .into_par_iter()
            .map(|k| {
                let (job, side) = match k.checked_sub(1) {
                    Some(before) => (&jobs[before], 1),
                    None => (&jobs[0], 0),
                };
                let files = job.side(self.files, side);
                let built = self.build(&files, side == 1, job.position);
                (k, files, built)
            })
            .collect();
        let at = |k: usize| {
            catalogs
                .binary_search_by_key(&k, |(k, ..)| *k)
                .expect("every needed catalog is built")
        };
        let prepared: Vec<Prepared<'_>> = catalogs
            .par_iter()
            .map(|(_, files, built)| Prepared::new(&built.index).with_files(files))
            .collect();
        let diffs: Vec<(ArchitectureDiff, Locations)> = positions
            .par_iter()
            .map(|&i| {
                let (a, b) = (at(i), at(i + 1));
                let diff = diff::diff_prepared(
                    &prepared[a],
                    &prepared[b],
                    &self.options.diff,
                    self.verdict_cache,
                );
                let side = |c: usize| -> (&Index, &dyn crate::schema::Files) {
                    (&catalogs[c].2.index, &catalogs[c].1)
                };
                let locations = Locations::of(&diff, side(a), side(b));
                (diff, locations)
            })
            .collect();
        drop(prepared);
        // Each catalog is one job's parent (its Index) and the job before's own (its problems).
        let mut parents = BTreeMap::new();
        let mut problems = BTreeMap::new();
        for (k, _, built) in catalogs {
            parents.insert(k, built.index);
            problems.insert(k, built.diagnostics);
        }
        positions
            .iter()
            .zip(diffs)
            .map(|(&i, (diff, locations))| {
                let found = Found::Whole(problems.remove(&(i + 1)).unwrap_or_default());
                let before = parents.remove(&i);
                (
                    i,
                    Judged {
                        diff,
                        locations,
                        found,
                        before,
                    },
                )
            })
            .collect()
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
    // The message, not a flow or data product that shares its id.
    let is_message = |kind: &str| diff::MESSAGE_TYPES.contains(&kind);
    let resources = ResourceChanges {
        added: keep(&diff.resources.added, |r| r.id == id && is_message(&r.kind)),
        removed: keep(&diff.resources.removed, |r| {
            r.id == id && is_message(&r.kind)
        }),
        changed: keep(&diff.resources.changed, |r| {
            r.id == id && is_message(&r.kind)
        }),
    };
    let names = |end: &diff::End| end.id == id && end.kind.as_deref().is_none_or(is_message);
    let touches = |e: &diff::Edge| names(&e.from) || names(&e.to);
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
/// A schema file that is in neither catalog is listed by every diff, as the reference lists
/// it, but it is no change: a commit with only that is empty here.
pub fn is_empty(diff: &ArchitectureDiff) -> bool {
    let s = &diff.summary;
    s.resources_added + s.resources_removed + s.resources_changed == 0
        && s.edges_added + s.edges_removed == 0
        && diff.schema_changes.iter().all(|c| c.in_neither_catalog)
        && diff.impact.is_empty()
        && diff.specification_changes.is_empty()
}
