//! Index conformance: our `build` against the real SDK's `buildIndex` output.
//!
//! - `testdata/index/<case>/`: a small catalog written by us (`catalog/`) and the SDK oracle's
//!   output for it (`expected.index.json`; when the SDK aborts with hashing on, also
//!   `expected.sdk-error.txt` and `expected.nohash.index.json`). Adding a case is adding a folder;
//!   `scripts/oracle-index.sh` regenerates the expected files.
//! - `testdata/conformance/<catalog>/`: expected indexes of the real catalogs in
//!   `../shared/catalogs` (skipped, with a message, when that folder is not there).
//! - the whole history of `../shared/catalogs/examples-default.bundle`: every one of the 152
//!   commits must index; the text SHA-256 of our hash-less index must equal the SDK's
//!   (`../shared/spec/examples-default-history.tsv`), our hashed index must equal the SDK's where
//!   the SDK succeeds, and the dangling references we report must number what the SDK trips on.

mod support;

use std::path::{Path, PathBuf};

use catalog_diff::catalog::build::{Options, ParseCache, build};
use catalog_diff::catalog::{FileSet, Severity};
use catalog_diff::{git, json_text};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn index_text(
    files: &FileSet,
    source: &str,
    commit: &str,
    hash_content: bool,
) -> (String, Vec<String>, usize) {
    let options = Options {
        source: source.into(),
        commit: commit.into(),
        hash_content,
        include_schema_content: false,
    };
    let built = build(files, &options, &ParseCache::default());
    let errors = built
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let shown = built.diagnostics.iter().map(ToString::to_string).collect();
    let text = json_text::to_pretty(&built.index);
    // The CLI writes the Index without copying it; the document must not change.
    assert_eq!(text, json_text::to_pretty(&built.index.to_value()));
    (format!("{text}\n"), shown, errors)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// Compares one catalog folder with its expected files; returns a failure description.
fn check_case(catalog: &Path, expected_dir: &Path, source: &str) -> Option<String> {
    let files = git::read_dir(catalog, catalog_diff::catalog::DEFAULT_MAX_FILE_SIZE)
        .unwrap_or_else(|e| panic!("reading {}: {e}", catalog.display()));
    let sdk_failed = expected_dir.join("expected.sdk-error.txt").exists();
    let mut failures = Vec::new();
    let (hashed, diagnostics, errors) = index_text(&files, source, "local", true);
    if sdk_failed {
        let nohash = expected_dir.join("expected.nohash.index.json");
        if nohash.exists() {
            // The SDK only trips over hashing (a dangling reference): we must say so, and
            // without hashes we must agree with it exactly.
            if diagnostics.is_empty() {
                failures.push("the SDK fails on this catalog but we reported nothing".to_owned());
            }
            let (plain, _, _) = index_text(&files, source, "local", false);
            let expected = read(&nohash);
            if plain != expected {
                failures.push(format!(
                    "hash-less index differs\n{}",
                    first_difference(&expected, &plain)
                ));
            }
        } else if errors == 0 {
            let sdk = read(&expected_dir.join("expected.sdk-error.txt"));
            failures.push(format!(
                "the SDK fails ({}) but we reported no error: {diagnostics:#?}",
                sdk.trim()
            ));
        }
    } else {
        if errors > 0 {
            failures.push(format!("errors where the SDK succeeds: {diagnostics:#?}"));
        }
        let expected = read(&expected_dir.join("expected.index.json"));
        if hashed != expected {
            failures.push(format!(
                "index differs\n{}",
                first_difference(&expected, &hashed)
            ));
        }
    }
    (!failures.is_empty()).then(|| format!("{}: {}", expected_dir.display(), failures.join("\n")))
}

fn first_difference(expected: &str, actual: &str) -> String {
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(e, a)| e != a);
    match line {
        Some(n) => format!(
            "line {}:\n  expected: {}\n  actual:   {}",
            n + 1,
            expected.lines().nth(n).unwrap_or_default(),
            actual.lines().nth(n).unwrap_or_default()
        ),
        None => format!(
            "lengths differ: expected {} lines, got {}",
            expected.lines().count(),
            actual.lines().count()
        ),
    }
}

#[test]
fn synthetic_cases_match_the_sdk() {
    let dir = root().join("testdata/index");
    let mut failures = Vec::new();
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("testdata/index exists") {
        let case = entry.expect("readable entry").path();
        if !case.join("catalog").is_dir() {
            continue;
        }
        count += 1;
        let name = case
            .file_name()
            .expect("folder name")
            .to_string_lossy()
            .into_owned();
        failures.extend(check_case(&case.join("catalog"), &case, &name));
    }
    assert!(count > 0, "no cases under {}", dir.display());
    assert!(
        failures.is_empty(),
        "{} of {count} cases differ:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn shared_catalogs_match_the_sdk() {
    let Some(shared) = support::shared_or_skip("shared_catalogs_match_the_sdk") else {
        return;
    };
    let mut failures = Vec::new();
    for entry in
        std::fs::read_dir(root().join("testdata/conformance")).expect("testdata/conformance exists")
    {
        let expected = entry.expect("readable entry").path();
        let name = expected
            .file_name()
            .expect("folder name")
            .to_string_lossy()
            .into_owned();
        let catalog = shared.join("catalogs").join(&name);
        if catalog.is_dir() {
            failures.extend(check_case(&catalog, &expected, &name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn sha256_hex(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn every_commit_of_examples_default_indexes_like_the_sdk() {
    let test = "every_commit_of_examples_default_indexes_like_the_sdk";
    let Some((_temp, clone)) = support::examples_default_clone(test) else {
        return;
    };
    let shared = support::shared_or_skip(test).expect("present when the clone is");
    let repo = git::Repo::discover(&clone).expect("the clone is a repository");
    let history = read(&shared.join("spec/examples-default-history.tsv"));
    let mut rows = history.lines();
    let header: Vec<&str> = rows.next().expect("header").split('\t').collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .expect("column exists")
    };
    let (sha_col, missing_col, nohash_col, hashed_col) = (
        column("commit"),
        column("missing_files"),
        column("sha256_nohash_json"),
        column("sha256_hashed_json"),
    );

    let mut failures = Vec::new();
    let mut commits = 0;
    for row in rows {
        let cells: Vec<&str> = row.split('\t').collect();
        let sha = cells[sha_col];
        commits += 1;
        let commit = repo.resolve_commit(sha).expect("commit exists");
        let files = repo.read_commit(commit, "").expect("commit reads");
        let (plain, _, _) = index_text(&files, "examples-default", sha, false);
        if sha256_hex(&plain) != cells[nohash_col] {
            failures.push(format!("{sha}: hash-less index differs from the SDK's"));
        }
        let (hashed, diagnostics, errors) = index_text(&files, "examples-default", sha, true);
        if errors > 0 {
            failures.push(format!("{sha}: errors: {diagnostics:#?}"));
        }
        let dangling = diagnostics
            .iter()
            .filter(|d| d.contains("does not exist") || d.contains("the SDK expects"))
            .count();
        let missing: usize = cells[missing_col].parse().expect("a count");
        if dangling != missing {
            failures.push(format!("{sha}: {dangling} dangling references reported, the SDK trips on {missing}: {diagnostics:#?}"));
        }
        if cells[hashed_col] != "-" {
            if sha256_hex(&hashed) != cells[hashed_col] {
                failures.push(format!("{sha}: hashed index differs from the SDK's"));
            }
            let expected = root().join(format!(
                "testdata/conformance/examples-default/{sha}.index.json"
            ));
            if expected.exists() && read(&expected) != hashed {
                failures.push(format!("{sha}: differs from {}", expected.display()));
            }
        }
    }
    assert_eq!(commits, 152);
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
