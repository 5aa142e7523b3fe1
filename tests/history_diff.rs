//! The diff over the real history of `../shared/catalogs/examples-default.bundle`: every pair of
//! consecutive commits diffs without a catalog error, and the same diff is produced whatever
//! the thread count. Skipped, with a message, when `../shared` is not there.

mod support;

use catalog_diff::catalog::Severity;
use catalog_diff::catalog::build::{Options, ParseCache, build};
use catalog_diff::diff;
use catalog_diff::git::Repo;

#[test]
fn every_consecutive_pair_of_examples_default_diffs() {
    let Some((_temp, clone)) =
        support::examples_default_clone("every_consecutive_pair_of_examples_default_diffs")
    else {
        return;
    };
    let repo = Repo::discover(&clone).expect("a repository");
    let commits = repo.first_parent_walk(None).expect("history");
    assert_eq!(commits.len(), 152);
    let cache = ParseCache::default();
    let indexes: Vec<_> = commits
        .iter()
        .map(|commit| {
            let files = repo.read_commit(commit.id, "").expect("readable commit");
            let options = Options {
                source: "examples-default".into(),
                commit: commit.id.to_string(),
                hash_content: true,
                include_schema_content: true,
            };
            let built = build(&files, &options, &cache);
            let errors: Vec<_> = built
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .collect();
            assert!(errors.is_empty(), "{}: {errors:#?}", commit.id);
            built.index
        })
        .collect();
    let options = diff::Options::default();
    let breaking = indexes
        .windows(2)
        .filter(|pair| diff::diff(&pair[0], &pair[1], &options).summary.breaking)
        .count();
    eprintln!(
        "{breaking} of {} consecutive pairs are breaking under `full`",
        indexes.len() - 1
    );
    assert!(breaking > 0 && breaking < indexes.len() - 1);

    // Same bytes out whatever the parallelism.
    let (first, last) = (&indexes[0], &indexes[indexes.len() - 1]);
    let parallel = serde_json::to_string(&diff::diff(first, last, &options)).expect("json");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool");
    let sequential =
        pool.install(|| serde_json::to_string(&diff::diff(first, last, &options)).expect("json"));
    assert_eq!(parallel, sequential);
}

/// Walks `repo`'s whole first-parent history and checks every step against a whole build of
/// the commit and its parent: the same ArchitectureDiff (every field) and the same catalog
/// diagnostics. Returns (changed commits, commits diffed on their reach).
fn assert_walk_equals_whole_builds(repo: &Repo, dir: &str) -> (usize, usize) {
    use catalog_diff::history::{self, Baseline};
    let commits = repo.first_parent_walk(None).expect("history");
    let options = history::Options {
        source: "catalog".into(),
        dir: dir.into(),
        diff: diff::Options::default(),
        baseline: Baseline::Parent,
    };
    let cache = ParseCache::default();
    let mut steps = 0;
    let outcome = history::walk(repo, None, &commits, &options, &mut |_| {}, &mut |step| {
        steps += 1;
        let a = history::build_at(repo, step.parent, &options, &cache).expect("parent");
        let b = history::build_at(repo, Some(step.commit.id), &options, &cache).expect("commit");
        let mut expected = diff::diff(&a.index, &b.index, &options.diff);
        expected.refs.a.commit = step.parent.map(|p| p.to_string()).unwrap_or_default();
        let json = |d: &diff::ArchitectureDiff| serde_json::to_value(d).expect("json");
        assert_eq!(
            json(&step.diff),
            json(&expected),
            "{} ({})",
            step.commit.id,
            step.commit.subject
        );
        assert_eq!(step.diagnostics, b.diagnostics, "{}", step.commit.id);
        std::ops::ControlFlow::Continue(())
    })
    .expect("walk");
    (steps, outcome.cut)
}

#[test]
fn the_walk_equals_whole_builds_on_examples_default() {
    let Some((_temp, clone)) =
        support::examples_default_clone("the_walk_equals_whole_builds_on_examples_default")
    else {
        return;
    };
    let repo = Repo::discover(&clone).expect("a repository");
    let (steps, cut) = assert_walk_equals_whole_builds(&repo, "");
    eprintln!("examples-default: {cut} of {steps} steps diffed on their reach");
    assert!(steps > 50);
}

#[test]
fn the_walk_equals_whole_builds_on_a_generated_history() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let dir = temp.path().join("synthetic");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_catalog-diff"))
        .arg("generate")
        .arg(&dir)
        .args(["--messages", "150", "--services", "30", "--domains", "6"])
        .args(["--commits", "150", "--seed", "7"])
        .output()
        .expect("generate runs");
    assert!(status.status.success(), "{status:?}");
    let repo = Repo::discover(&dir).expect("a repository");
    let (steps, cut) = assert_walk_equals_whole_builds(&repo, "");
    eprintln!("generated: {cut} of {steps} steps diffed on their reach");
    assert!(steps > 100);
    // Most real changes stay local: schema edits, versions, consumers.
    assert!(cut * 2 > steps, "only {cut} of {steps} steps were cut");
}
