//! The synthetic catalog generator (the `generate` example, included here by path): same seed,
//! same bytes; the catalog indexes cleanly with the expected counts; the written repository
//! has one commit per step, and `log` judges the breaking steps breaking.

mod support;
#[path = "../examples/generate/synth/mod.rs"]
#[allow(dead_code, reason = "the summary line is the generator program's")]
mod synth;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Output;

use catalog_diff::catalog::Severity;
use catalog_diff::catalog::build::{self, Options, ParseCache};
use catalog_diff::git;
use serde_json::Value;
use synth::{Catalog, ChangeKind, Params};

fn small() -> Params {
    Params {
        messages: 60,
        services: 12,
        domains: 4,
        commits: 30,
        seed: 7,
    }
}

/// Every file at the last commit: later writes replace earlier ones.
fn final_tree(catalog: &Catalog) -> BTreeMap<String, String> {
    let mut tree = BTreeMap::new();
    for commit in &catalog.commits {
        for file in &commit.files {
            tree.insert(file.path.clone(), file.contents.clone());
        }
    }
    tree
}

fn stream(catalog: &Catalog) -> Vec<u8> {
    let mut out = Vec::new();
    catalog
        .write_fast_import(&mut out)
        .expect("writing to a Vec");
    out
}

#[test]
fn the_same_seed_gives_the_same_history_and_another_seed_does_not() {
    let first = Catalog::generate(&small()).expect("valid params");
    let again = Catalog::generate(&small()).expect("valid params");
    assert_eq!(first, again);
    assert_eq!(stream(&first), stream(&again));
    let other = Catalog::generate(&Params { seed: 8, ..small() }).expect("valid params");
    assert_ne!(final_tree(&first), final_tree(&other));
}

#[test]
fn the_history_is_an_import_then_small_commits() {
    let catalog = Catalog::generate(&small()).expect("valid params");
    assert_eq!(catalog.commits.len(), 31);
    assert_eq!(catalog.stats.commits, 31);
    for commit in &catalog.commits[1..] {
        let paths: BTreeSet<_> = commit.files.iter().map(|f| &f.path).collect();
        assert!(
            (1..=5).contains(&paths.len()),
            "{}: {} files",
            commit.subject,
            paths.len()
        );
        assert!(!commit.kinds.is_empty());
    }
    let times: Vec<u64> = catalog.commits.iter().map(|c| c.time).collect();
    assert!(times.windows(2).all(|w| w[0] < w[1]), "dates increase");
}

#[test]
fn bad_params_are_errors_not_panics() {
    let zero = Params {
        messages: 0,
        ..small()
    };
    assert!(Catalog::generate(&zero).is_err());
    let thin = Params {
        services: 2,
        domains: 3,
        ..small()
    };
    assert!(Catalog::generate(&thin).is_err());
}

#[test]
fn the_catalog_indexes_without_errors_and_with_the_expected_counts() {
    let catalog = Catalog::generate(&small()).expect("valid params");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let tree = final_tree(&catalog);
    let files: Vec<(&str, &str)> = tree.iter().map(|(p, c)| (p.as_str(), c.as_str())).collect();
    support::write_files(dir.path(), &files);
    let files = git::read_dir(dir.path(), catalog_diff::catalog::DEFAULT_MAX_FILE_SIZE)
        .expect("reading the folder");
    let built = build::build(&files, &Options::default(), &ParseCache::default());
    let errors: Vec<_> = built
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");

    let mut ids: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut resources: BTreeMap<String, usize> = BTreeMap::new();
    for r in &built.index.resources {
        ids.entry(r.kind().to_owned())
            .or_default()
            .insert(r.id().to_owned());
        *resources.entry(r.kind().to_owned()).or_default() += 1;
    }
    let distinct = |kind: &str| ids.get(kind).map_or(0, BTreeSet::len);
    let stats = &catalog.stats;
    assert_eq!(stats.files, tree.len());
    assert_eq!(distinct("domain"), 4);
    assert_eq!(distinct("service"), stats.services);
    assert!(stats.services >= 12);
    assert_eq!(distinct("event"), stats.events);
    assert_eq!(distinct("command"), stats.commands);
    assert_eq!(distinct("query"), stats.queries);
    assert_eq!(stats.events + stats.commands + stats.queries, 60);
    assert!(stats.events > stats.commands && stats.commands > 0 && stats.queries > 0);
    let message_resources: usize = ["event", "command", "query"]
        .iter()
        .map(|k| resources.get(*k).copied().unwrap_or(0))
        .sum();
    assert_eq!(message_resources, stats.versions);
    assert!(stats.versions > 60, "some messages have older versions");
    assert!(distinct("channel") > 0 && distinct("team") > 0 && distinct("user") > 0);
    let schemas: usize = tree
        .iter()
        .filter(|(p, _)| p.ends_with("/schema.json"))
        .map(|(_, c)| c.len())
        .sum();
    assert_eq!(schemas, stats.schema_bytes);
    let average = schemas / stats.versions;
    assert!(
        (1000..=6000).contains(&average),
        "average schema {average} bytes"
    );
}

fn catalog_diff(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_catalog-diff"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("CATALOG_DIFF_CACHE", support::PARSE_CACHE)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("runs")
}

/// Writes the small catalog as a repository `parent/name`; the head commit id.
fn generate(parent: &Path, name: &str) -> anyhow::Result<String> {
    let catalog = Catalog::generate(&small())?;
    synth::repository::write(&parent.join(name), &catalog)
}

#[test]
fn generate_writes_a_repository_that_log_walks() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let head = generate(temp.path(), "repo").expect("the repository is written");
    let repo = temp.path().join("repo");
    assert_eq!(support::git_in(&repo, 0, &["rev-parse", "main"]), head);
    assert_eq!(
        support::git_in(&repo, 0, &["rev-list", "--count", "main"]),
        "31"
    );
    assert_eq!(support::git_in(&repo, 0, &["status", "--porcelain"]), "");
    assert!(repo.join("teams").is_dir() && repo.join("domains").is_dir());

    let log = catalog_diff(&repo, &["log", "--format", "json", "--fail-on", "never"]);
    assert_eq!(
        log.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&log.stderr)
    );
    let entries: Vec<Value> = String::from_utf8_lossy(&log.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect();
    let stderr = String::from_utf8_lossy(&log.stderr);
    assert!(stderr.contains("31 commit(s) walked"), "{stderr}");
    assert!(entries.iter().all(|e| e.get("errors").is_none()));

    // Docs-only commits change no resource, edge or schema, so `log` leaves them out.
    let expected = Catalog::generate(&small()).expect("valid params");
    let visible: Vec<_> = expected
        .commits
        .iter()
        .filter(|c| c.kinds.iter().any(|k| *k != ChangeKind::EditMarkdown) || c.kinds.is_empty())
        .collect();
    assert_eq!(entries.len(), visible.len());
    let mut judged = 0;
    for (entry, commit) in entries.iter().zip(visible) {
        assert_eq!(entry["subject"], commit.subject.as_str());
        if commit.kinds.iter().any(|k| k.is_breaking()) {
            judged += 1;
            assert_eq!(
                entry["diff"]["summary"]["breaking"], true,
                "{}",
                commit.subject
            );
        }
    }
    assert!(judged > 0, "the history has a breaking step to check");
}

#[test]
fn generate_is_reproducible_and_refuses_a_non_empty_folder() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let a = generate(temp.path(), "a").expect("written");
    let b = generate(temp.path(), "b").expect("written");
    assert_eq!(a, b);

    let again = generate(temp.path(), "a").expect_err("a non-empty folder is refused");
    assert!(again.to_string().contains("not empty"), "{again}");
}
