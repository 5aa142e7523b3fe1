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
