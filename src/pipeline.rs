//! The diff, start to end: a repository and two sides of it -> their catalogs -> the
//! ArchitectureDiff and where its findings live ([`diff_revisions`]). The command line calls
//! this and picks a renderer; `log` walks a history with the same pieces (the [`Cut`] of a change,
//! [`build_options`]) in `history`.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use crate::catalog::build::{self, Built, ParseCache, Summary};
use crate::catalog::scope::{self, Reach, Scope};
use crate::catalog::{Baseline, Before, Blob, Diagnostic, FileSet, Index};
use crate::diff::{self, ArchitectureDiff, MESSAGE_TYPES, SideDiagnostic, VerdictCache};
use crate::git::{self, Repo};
use crate::report::Locations;

/// What to compare: the command line's choices, validated.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// The two sides (`Repo::parse_range`).
    pub sides: git::Sides,
    /// `--dir`; `None` finds the catalog folder.
    pub dir: Option<&'a str>,
    /// The Index `source` string.
    pub source: &'a str,
    pub diff: diff::Options,
    /// Transitive strategies also judge the candidate against every schema version in the
    /// baseline's first-parent history (`--history`).
    pub history: bool,
    /// Parses by blob id (perhaps from an earlier run).
    pub cache: &'a ParseCache,
    /// The message ids the configuration names (with settings or none), each checked to name
    /// a message of either side.
    pub named_messages: Vec<String>,
}

/// One side of a comparison as it was read.
pub struct SideReport {
    /// `a` (baseline) or `b` (candidate).
    pub name: &'static str,
    /// The commit id, `staged`, `worktree` or empty (before the first commit).
    pub label: String,
    /// Its catalog problems.
    pub diagnostics: Vec<Diagnostic>,
    /// False when it holds no resource at all.
    pub has_resources: bool,
}

/// A finished comparison: the diff (its `diagnostics` filled from both sides), where its
/// findings live, the catalog folder and both sides' reports.
pub struct Compared {
    pub diff: ArchitectureDiff,
    pub locations: Locations,
    /// The catalog folder, repository-root relative.
    pub dir: String,
    pub sides: [SideReport; 2],
    /// The configuration's per-message ids that name no message on either side.
    pub misnamed: Vec<Misnamed>,
}

/// Both sides of a comparison as read from the repository, and the catalog folder they were
/// read from.
pub struct Revisions {
    /// The catalog folder, repository-root relative.
    pub dir: String,
    pub read: git::Pair,
}

/// Reads both `sides` from `repo`: the catalog folder `dir` (`None` finds it).
pub fn read_revisions(
    repo: &Repo,
    sides: &git::Sides,
    dir: Option<&str>,
) -> git::Result<Revisions> {
    let dir = repo.detect_catalog_dir_for(sides, dir)?;
    let read = repo.read_sides(sides, &dir)?;
    Ok(Revisions { dir, read })
}

/// What the reader of two catalogs knows of them already. [`diff_files`] finds what is
/// missing by a pass over both whole catalogs.
#[derive(Clone, Copy, Default)]
pub struct Known<'a> {
    /// Each side's [`build::fingerprint`] (or [`build::tree_fingerprint`]).
    pub keys: [Option<crate::catalog::BlobId>; 2],
    /// What turns the one into the other.
    pub changes: Option<&'a git::Changes>,
}

/// Reads both sides of `request` from `repo`, builds, resolves and diffs them.
pub fn diff_revisions(repo: &Repo, request: &Request<'_>) -> git::Result<Compared> {
    let revisions = read_revisions(repo, &request.sides, request.dir)?;
    compare_revisions(repo, revisions, request)
}

/// Builds, resolves and diffs both sides of `request`, read already.
pub fn compare_revisions(
    repo: &Repo,
    revisions: Revisions,
    request: &Request<'_>,
) -> git::Result<Compared> {
    let Revisions { dir, read } = revisions;
    let after = &read.after;
    let sides = &request.sides;
    let labels = (sides.baseline().label(), sides.candidate().label());
    let options = build_options(
        request.source,
        String::new(),
        request.diff.include_schema_content,
    );
    let known = Known {
        keys: read.trees.map(|tree| {
            tree.map(|tree| {
                build::tree_fingerprint(tree.as_bytes(), repo.max_file_size(), &options)
            })
        }),
        changes: read.changes(),
    };
    let compared = diff_files(
        read.baseline(),
        after,
        labels.clone(),
        request.source,
        &request.diff,
        request.cache,
        known,
    );
    // After the diff, whose scope has taken every resource file's facts already.
    let misnamed = misnamed_messages(
        &[read.baseline().files(), Before::unchanged(after)],
        &request.named_messages,
        &options,
        request.cache,
    );
    let [before_summary, after_summary] = compared.summaries;
    let report = |name, label, summary: Summary| SideReport {
        name,
        label,
        has_resources: summary.resources > 0,
        diagnostics: summary.diagnostics,
    };
    let sides = [
        report("a", labels.0, before_summary),
        report("b", labels.1, after_summary),
    ];
    let mut diff = compared.diff;
    let mut locations = compared.locations;
    if request.history
        && let git::Side::Commit(baseline) = request.sides.baseline()
    {
        let found = history_checks(
            repo,
            baseline,
            &dir,
            &diff,
            &mut locations,
            after,
            &request.diff,
        )?;
        diff.transitive_checks.extend(found);
    }
    // Catalog problems first, then the schema files the diff could not parse.
    let mut diagnostics: Vec<SideDiagnostic> = sides
        .iter()
        .flat_map(|side| {
            side.diagnostics.iter().map(|d| SideDiagnostic {
                side: side.name,
                diagnostic: d.clone(),
            })
        })
        .collect();
    diagnostics.append(&mut diff.diagnostics);
    diff.diagnostics = diagnostics;
    // Freeing two large catalogs takes a while: a pool thread does it.
    rayon::spawn(move || drop(read));
    repo.check_reads()?;
    Ok(Compared {
        diff,
        locations,
        dir,
        sides,
        misnamed,
    })
}

/// A message id the configuration names (`[messages."ID"]`) that names no message of the catalog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Misnamed {
    pub id: String,
    /// The type of the resources with that id, when they are not messages (`service`).
    pub kind: Option<String>,
    /// Ids of the catalog close to it.
    pub nearby: Vec<String>,
}

/// The ids among `named` that no event, command or query of any catalog in `sides` declares.
/// Only the resource files declaring them are built.
pub fn misnamed_messages<'a>(
    sides: &[Before<'_>],
    named: impl IntoIterator<Item = &'a String>,
    options: &build::Options,
    cache: &ParseCache,
) -> Vec<Misnamed> {
    let is_message =
        |kinds: &BTreeSet<String>| kinds.iter().any(|k| MESSAGE_TYPES.contains(&k.as_str()));
    let mut unfound: BTreeSet<&str> = named.into_iter().map(String::as_str).collect();
    let mut kinds: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    // The candidate (last) first: it usually has them all, and the others are not read.
    for files in sides.iter().rev() {
        if unfound.is_empty() {
            break;
        }
        let reach = Reach::declaring(files, &unfound, cache);
        if reach.resource_files.is_empty() {
            continue;
        }
        for resource in build::build(&reach.cut(files), options, cache)
            .index
            .resources
        {
            let kind = resource.kind().to_owned();
            kinds
                .entry(resource.id().to_owned())
                .or_default()
                .insert(kind);
        }
        unfound.retain(|id| !kinds.get(*id).is_some_and(is_message));
    }
    if unfound.is_empty() {
        return Vec::new();
    }
    let declared: BTreeSet<String> = sides
        .iter()
        .flat_map(|files| scope::declared_ids(files, cache))
        .collect();
    unfound
        .into_iter()
        .map(|id| Misnamed {
            id: id.to_owned(),
            kind: kinds.get(id).and_then(|kinds| kinds.first().cloned()),
            nearby: crate::suggest::closest(id, declared.iter().map(String::as_str))
                .into_iter()
                .filter(|near| *near != id)
                .map(str::to_owned)
                .collect(),
        })
        .collect()
}

/// Under a transitive strategy with `--history`: each changed schema file of a message is
/// judged against every distinct version the file had in the first-parent history of
/// `baseline` (by its baseline path, which the candidate may have renamed or moved), besides
/// those the catalog compares already. Each entry names
/// the newest commit that held that version (`againstCommit`), and is placed in `locations`.
fn history_checks(
    repo: &Repo,
    baseline: git::CommitId,
    dir: &str,
    diff: &ArchitectureDiff,
    locations: &mut Locations,
    after: &FileSet,
    options: &diff::Options,
) -> git::Result<Vec<crate::diff::SchemaChange>> {
    use crate::schema::{Document, Format};
    let mut checks = Vec::new();
    for change in &diff.schema_changes {
        let strategy = options.strategy_for(&change.message.id);
        let (Some(file), Some(place)) = (&change.after, locations.schema(change)) else {
            continue;
        };
        if !strategy.is_transitive() {
            continue;
        }
        // A file the baseline's message did not name may still have a history at its path.
        let earlier = locations
            .schema_before(change)
            .unwrap_or(&place.file)
            .to_owned();
        let place = place.file.clone();
        let Some(data) = after.get(&place).map(Blob::data) else {
            continue;
        };
        // Read as the diff reads schema files: U+FFFD where it is not UTF-8 text.
        let text = &*String::from_utf8_lossy(&data);
        let known: Vec<&str> = [&change.before, &change.after]
            .into_iter()
            .flatten()
            .filter_map(|f| f.hash.as_deref())
            .chain(
                diff.transitive_checks
                    .iter()
                    .filter_map(|c| c.before.as_ref()?.hash.as_deref()),
            )
            .collect();
        let repo_path = git::join(dir, &earlier);
        // As the diff reads it: the entry's declared format first.
        let format =
            Format::detect(file.format.as_deref(), &file.path, text).map_err(|why| why.reason);
        for (commit, blob) in repo.file_history(baseline, &repo_path)? {
            let hash = crate::catalog::build::content_hash(&blob.data());
            if known.contains(&hash.as_str()) {
                continue;
            }
            let data = blob.data();
            let old_text = &*String::from_utf8_lossy(&data);
            // Imports resolve in each version's own commit, from the file's path there.
            let old_files = repo.commit_files(commit, dir)?;
            let (old, new) = match format {
                Ok(Format::Protobuf) => (
                    Document::new(&earlier, old_text).with_files(&old_files),
                    Document::new(&place, text).with_files(after),
                ),
                _ => (
                    Document::new(&file.path, old_text),
                    Document::new(&file.path, text),
                ),
            };
            let judged = format.clone().and_then(|format| {
                format
                    .compare(old, new, strategy, &options.schema)
                    .map_err(|e| e.to_string())
            });
            let (breaking, direction, ops, unknown_reason) = match judged {
                Ok(verdict) => (Some(verdict.breaking), verdict.direction, verdict.ops, None),
                // An import over the size limit is named as such, not as missing.
                Err(reason) => (
                    None,
                    None,
                    Vec::new(),
                    old_files.too_large().or(Some(reason)),
                ),
            };
            let mut message = change.message.clone();
            message.version.a = None;
            let check = crate::diff::SchemaChange {
                message,
                change: crate::diff::FileChange::Modified,
                before: Some(crate::diff::SchemaFile {
                    path: file.path.clone(),
                    hash: Some(hash),
                    content: None,
                    format: file.format.clone(),
                }),
                after: Some(crate::diff::SchemaFile {
                    content: None,
                    ..file.clone()
                }),
                breaking,
                strategy,
                direction,
                ops,
                unknown_reason,
                against_commit: Some(commit.to_string()),
                in_neither_catalog: false,
            };
            if let Ok(format) = &format {
                let document = Document::new(&place, text).with_files(after);
                locations.place_schema(&check, *format, document);
            }
            checks.push(check);
        }
    }
    Ok(checks)
}

/// The build options of one commit's catalog; `log` and `diff` build sides the same way.
/// Schema text stays in its blob (a comparison reads it by path) unless the report shows it.
pub fn build_options(source: &str, commit: String, include_schema_content: bool) -> build::Options {
    build::Options {
        source: source.to_owned(),
        commit,
        hash_content: true,
        include_schema_content,
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

/// Turns one side's whole-catalog `diagnostics` into the other side's, where `from` is that
/// other side's cut on `reach` (its resource files): only those files can differ.
pub(crate) fn carry(
    reach: &BTreeSet<String>,
    diagnostics: &mut Vec<Diagnostic>,
    from: &[Diagnostic],
) {
    let inside = |d: &Diagnostic| reach.contains(&d.file);
    diagnostics.retain(|d| !inside(d));
    diagnostics.extend(from.iter().filter(|d| inside(d)).cloned());
    diagnostics.sort();
    diagnostics.dedup();
}

/// Moves `scope` to `after` (the catalog once `changes` are applied) and returns the reach of
/// `changes`, or `None` when the change has no reach and only whole builds are faithful.
pub(crate) fn reach(
    scope: &mut Scope,
    after: &FileSet,
    changes: &git::Changes,
    cache: &ParseCache,
) -> Option<Reach> {
    scope
        .reach(after, &changes.paths, cache)
        .filter(|_| !changes.special)
}

/// Both sides of a change built on its `reach` with `build` (`true` for the after side), or
/// `None` when a cut misses a schema file its side has (one named through `../`): then only
/// whole builds are faithful. (Resources naming a schema file that does not exist are in
/// every reach: every diff lists that file.) `sides` are the whole catalogs, before and after.
pub(crate) fn cut_on(
    reach: Reach,
    sides: [&Before<'_>; 2],
    build: &dyn Fn(&FileSet, bool) -> Built,
) -> Option<Cut> {
    let [before, after] = sides.map(|side| reach.cut(side));
    let (before_cut, after_cut) = (build(&before, false), build(&after, true));
    let complete = |built: &Built, side: &Before<'_>| {
        built
            .unresolved_files
            .iter()
            .all(|path| side.get(path).is_none())
    };
    (complete(&before_cut, sides[0]) && complete(&after_cut, sides[1])).then_some(Cut {
        reach,
        before: before_cut,
        after: after_cut,
    })
}

/// A diff of two catalogs, with what the command line reports besides it.
pub struct SideBySide {
    pub diff: ArchitectureDiff,
    /// Each side's problems and resource count, before and after, as whole builds find them.
    pub summaries: [Summary; 2],
    /// Where the diff's findings live in the catalog.
    pub locations: Locations,
}

/// Diffs catalog `before` against catalog `after` (labelled `labels`). When the change has a
/// reach, both sides are built only on it, and one side is built whole too, so that all its
/// problems are found: they are carried over to the other side. A side an earlier run built
/// whole (its [`Summary`] is in `cache`) is not built whole again. A change to a
/// specification is joined to messages and parties beyond that reach, so it is diffed on
/// whole builds. The result equals two whole builds (tests/history_diff.rs holds them side by
/// side). What is `known` of the two is not found again.
pub fn diff_files(
    before: Baseline<'_>,
    after: &FileSet,
    labels: (String, String),
    source: &str,
    options: &diff::Options,
    cache: &ParseCache,
    known: Known,
) -> SideBySide {
    let options_for =
        |label: &str| build_options(source, label.to_owned(), options.include_schema_content);
    let build = |files: &FileSet, label: &str| build::build(files, &options_for(label), cache);
    // Each a pass over both whole sides, when not known: side by side.
    let [before_key, after_key] = known.keys;
    let fingerprint = |files: &FileSet| build::fingerprint(files, &options_for(""));
    let (keys, changes) = rayon::join(
        || {
            let (a, b) = rayon::join(
                || before_key.unwrap_or_else(|| fingerprint(&before.to_file_set())),
                || after_key.unwrap_or_else(|| fingerprint(after)),
            );
            [a, b]
        },
        || match known.changes {
            Some(changes) => Cow::Borrowed(changes),
            None => Cow::Owned(git::Changes::between(&before.to_file_set(), after)),
        },
    );
    // The baseline read in place; a whole build copies it when it is read through `after`.
    let files = before.files();
    let verdicts = VerdictCache::default();
    let compare =
        |a: &Index, b: &Index| diff::diff_with_files((a, &files), (b, after), options, &verdicts);
    let beside = |files: &FileSet, label: &str, earlier: &Index| {
        build::build_beside(files, &options_for(label), cache, earlier)
    };
    // Both sides whole, one after the other: the second shares every resource that did not
    // change with the first, so a wide diff holds the unchanged catalog once.
    let whole = |whole_after: Option<Built>| {
        let (whole_before, whole_after) = match whole_after {
            Some(b) => (beside(&before.to_file_set(), &labels.0, &b.index), b),
            None => {
                let a = build(&before.to_file_set(), &labels.0);
                let b = beside(after, &labels.1, &a.index);
                (a, b)
            }
        };
        let diff = compare(&whole_before.index, &whole_after.index);
        let locations = Locations::of(
            &diff,
            (&whole_before.index, &files),
            (&whole_after.index, after),
        );
        let summaries = [&whole_before, &whole_after].map(Summary::of);
        for (key, summary) in keys.iter().zip(&summaries) {
            cache.remember(*key, summary.clone());
        }
        // Freeing a whole Index is a cost of its own.
        rayon::join(|| drop(whole_before), || drop(whole_after));
        SideBySide {
            diff,
            summaries,
            locations,
        }
    };
    // When much of the catalog changed, its reach is everything.
    if changes.paths.len() * 4 > files.len().max(after.files.len()) {
        return whole(None);
    }
    let summed = keys.map(|key| cache.summary(key));
    // Unless a side is summed up already, the candidate is built whole while the reach is
    // found and both sides are cut down to it.
    let (whole_after, cut) = rayon::join(
        || {
            summed
                .iter()
                .all(Option::is_none)
                .then(|| build(after, &labels.1))
        },
        || {
            let known = summed[0].as_ref().and_then(|before| before.absent.as_ref());
            let mut scope = Scope::of_before(&files, cache, known);
            let absent_before = scope.absent().clone();
            let reach = reach(&mut scope, after, &changes, cache).filter(|r| !scope.is_wide(r));
            // The scope is at `after` now.
            let absent = [absent_before, scope.absent().clone()];
            // Freeing the scope of a large catalog takes a while: a pool thread does it, and
            // the diff does not wait for it.
            rayon::spawn(move || drop(scope));
            let reach = reach?;
            let sides = [files, Before::unchanged(after)];
            let cut = cut_on(reach, [&sides[0], &sides[1]], &|files, is_after| {
                build(files, if is_after { &labels.1 } else { &labels.0 })
            });
            cut.map(|cut| (cut, absent))
        },
    );
    // No reach (the change reaches everywhere), or a cut that misses a file.
    let Some((cut, absent)) = cut else {
        return whole(whole_after);
    };
    // A message the SDK indexes under another's content path may have schema entries without
    // a hash, which the library lists on every diff, in the reach of the change or not: such a
    // catalog is diffed whole. Outside the reach the two sides are the same, so one tells.
    let diagnostics = match (&summed, &whole_after) {
        ([_, Some(summary)] | [Some(summary), None], _) => &summary.diagnostics,
        (_, Some(built)) => &built.diagnostics,
        ([None, None], None) => &Vec::new(),
    };
    if build::has_aliased_messages(diagnostics) {
        return whole(whole_after);
    }
    let diff = compare(&cut.before.index, &cut.after.index);
    // A specification change is joined to messages and parties beyond the reach of the change.
    if !diff.specification_changes.is_empty() {
        return whole(whole_after);
    }
    let cuts = [&cut.before, &cut.after];
    let summed_up = summed
        .each_ref()
        .map(|summary| summary.as_ref().is_some_and(|s| s.absent.is_some()));
    let mut summaries = match summed {
        [_, Some(after)] => [
            after.carried(&cut.reach, cuts[1], cuts[0]),
            (*after).clone(),
        ],
        [Some(before), None] => [
            (*before).clone(),
            before.carried(&cut.reach, cuts[0], cuts[1]),
        ],
        [None, None] => {
            let after = Summary::of(&whole_after.unwrap_or_else(|| build(after, &labels.1)));
            [after.carried(&cut.reach, cuts[1], cuts[0]), after]
        }
    };
    for (summary, absent) in summaries.iter_mut().zip(absent) {
        summary.absent = Some(absent);
    }
    // A side summed up already, with what it lacks, is in the cache as it is.
    for ((key, summary), summed_up) in keys.iter().zip(&summaries).zip(summed_up) {
        if !summed_up {
            cache.remember(*key, summary.clone());
        }
    }
    SideBySide {
        locations: Locations::of(
            &diff,
            (&cut.before.index, &files),
            (&cut.after.index, after),
        ),
        diff,
        summaries,
    }
}
