//! The git source against real repositories built with the git CLI ([`support::TestRepo`]):
//! revisions, ranges, the staged index, the working tree, plain folders, catalog detection,
//! special entries, sparse checkouts and the errors a user can run into.
//!
//! Tests that need `GIT_INDEX_FILE` (a pre-commit hook) re-run this test binary as a child
//! process with the variable set, so this process's environment is never modified.

mod support;

use catalog_diff::catalog::{FileSet, SpecialEntry};
use catalog_diff::git::{self, Changes, CommitId, Error, Repo, Side, Sides};
use support::{TestRepo, write_files};

const CATALOG: &[(&str, &str)] = &[
    (
        "events/OrderPlaced/index.mdx",
        "---\nid: OrderPlaced\nversion: 1.0.0\n---\nAn order.\n",
    ),
    ("events/OrderPlaced/schema.json", "{\"type\": \"object\"}\n"),
    (
        "services/Orders/index.mdx",
        "---\nid: Orders\nversion: 0.0.1\n---\n",
    ),
    (
        "domains/Sales/index.mdx",
        "---\nid: Sales\nversion: 1.0.0\n---\n",
    ),
    (".gitignore", "*.log\n"),
];

fn open(repo: &TestRepo) -> Repo {
    Repo::discover(&repo.path()).expect("discover")
}

fn commit(repo: &Repo, rev: &str) -> CommitId {
    repo.resolve_commit(rev).expect("resolve")
}

/// Paths, blob ids and bytes, for comparing FileSets.
fn summary(set: &FileSet) -> Vec<(String, String, Vec<u8>)> {
    set.files
        .iter()
        .map(|(p, b)| (p.clone(), b.id.to_string(), b.data().to_vec()))
        .collect()
}

fn paths(set: &FileSet) -> Vec<&str> {
    set.files.keys().map(String::as_str).collect()
}

#[test]
fn one_catalog_read_four_ways_is_identical() {
    let t = TestRepo::new();
    t.write_all(CATALOG);
    t.commit_all("catalog");
    t.write("events/debug.log", "ignored\n");
    let repo = open(&t);
    let head = commit(&repo, "HEAD");

    let at_commit = repo.read_commit(head, "").unwrap();
    let staged = repo.read_staged("").unwrap();
    let worktree = repo.read_worktree("").unwrap();
    let plain_dir = tempfile::tempdir().unwrap();
    write_files(plain_dir.path(), CATALOG);
    let plain = git::read_dir(
        plain_dir.path(),
        catalog_diff::catalog::DEFAULT_MAX_FILE_SIZE,
    )
    .unwrap();

    assert_eq!(at_commit.files.len(), CATALOG.len());
    assert_eq!(summary(&at_commit), summary(&staged));
    assert_eq!(summary(&at_commit), summary(&worktree));
    assert_eq!(summary(&at_commit), summary(&plain));
    assert!(
        worktree.get("events/debug.log").is_none(),
        "ignored by .gitignore"
    );

    let blob = t.git(&["rev-parse", "HEAD:events/OrderPlaced/schema.json"]);
    assert_eq!(
        at_commit
            .get("events/OrderPlaced/schema.json")
            .unwrap()
            .id
            .to_string(),
        blob
    );
    assert_eq!(head.to_string(), t.rev("HEAD"));
    assert_eq!(head.to_string().len(), 40);
    assert_eq!(repo.workdir_name().as_deref(), Some("repo"));
}

/// On Unix a `\` is a character of a file or folder name, in git and on disk: every way of
/// reading keeps it (as the SDK does), none takes it for a separator.
#[cfg(unix)]
#[test]
fn a_backslash_in_a_name_is_part_of_the_name_read_four_ways() {
    const NAMES: &[(&str, &str)] = &[
        ("events/x\\y/index.mdx", "---\nid: F\nversion: 1.0.0\n---\n"),
        ("events/E/index.mdx", "---\nid: E\nversion: 1.0.0\n---\n"),
        ("events/E/a\\b.txt", "note"),
    ];
    let t = TestRepo::new();
    t.write_all(NAMES);
    t.commit_all("catalog");
    let repo = open(&t);
    let at_commit = repo.read_commit(commit(&repo, "HEAD"), "").unwrap();
    let staged = repo.read_staged("").unwrap();
    let worktree = repo.read_worktree("").unwrap();
    let plain_dir = tempfile::tempdir().unwrap();
    write_files(plain_dir.path(), NAMES);
    let plain = git::read_dir(
        plain_dir.path(),
        catalog_diff::catalog::DEFAULT_MAX_FILE_SIZE,
    )
    .unwrap();

    assert_eq!(
        paths(&at_commit),
        [
            "events/E/a\\b.txt",
            "events/E/index.mdx",
            "events/x\\y/index.mdx"
        ]
    );
    assert_eq!(summary(&at_commit), summary(&staged));
    assert_eq!(summary(&at_commit), summary(&worktree));
    assert_eq!(summary(&at_commit), summary(&plain));
}

#[test]
fn staged_and_unstaged_edits() {
    let t = TestRepo::new();
    t.write_all(&[
        ("events/A.md", "a1"),
        ("events/B.md", "b1"),
        ("events/C.md", "c1"),
    ]);
    t.commit_all("v1");
    t.write("events/A.md", "a2");
    t.git(&["add", "events/A.md"]);
    t.write("events/B.md", "b2");
    t.git(&["rm", "-q", "events/C.md"]);
    t.write("events/D.md", "d (untracked)");
    let repo = open(&t);

    let staged = repo.read_staged("").unwrap();
    assert_eq!(paths(&staged), ["events/A.md", "events/B.md"]);
    assert_eq!(&*staged.get("events/A.md").unwrap().data(), b"a2");
    assert_eq!(&*staged.get("events/B.md").unwrap().data(), b"b1");

    let worktree = repo.read_worktree("").unwrap();
    assert_eq!(
        paths(&worktree),
        ["events/A.md", "events/B.md", "events/D.md"]
    );
    assert_eq!(&*worktree.get("events/B.md").unwrap().data(), b"b2");

    let head = repo.read_commit(commit(&repo, "HEAD"), "").unwrap();
    assert_eq!(paths(&head), ["events/A.md", "events/B.md", "events/C.md"]);

    let read = repo
        .read_sides(&repo.parse_range(None, true).unwrap(), "events")
        .unwrap();
    assert_eq!(
        paths(&read.baseline().to_file_set()),
        ["A.md", "B.md", "C.md"]
    );
    assert_eq!(paths(&read.after), ["A.md", "B.md"]);
}

/// main: c1 - c2 ------- merge
///              \       /
/// feature:      f1 - f2
fn branchy() -> (TestRepo, [String; 5]) {
    let t = TestRepo::new();
    t.write("events/E/index.mdx", "1");
    let c1 = t.commit_all("c1");
    t.git(&["tag", "-a", "v1", "-m", "release 1"]);
    t.write("events/E/index.mdx", "2");
    let c2 = t.commit_all("c2");
    t.git(&["checkout", "-q", "-b", "feature", "HEAD"]);
    t.write("services/S/index.mdx", "f1");
    let f1 = t.commit_all("f1");
    t.write("services/S/index.mdx", "f2");
    let f2 = t.commit_all("f2");
    t.git(&["checkout", "-q", "main"]);
    t.write("README.md", "main only");
    t.commit_all("c3");
    t.git(&["merge", "-q", "--no-ff", "-m", "merge feature", "feature"]);
    let merge = t.rev("HEAD");
    (t, [c1, c2, f1, f2, merge])
}

#[test]
fn ranges_follow_the_cli_table() {
    let (t, [c1, c2, _f1, f2, merge]) = branchy();
    let repo = open(&t);
    let id = |s: &str| commit(&repo, s);
    assert_eq!(id("HEAD").to_string(), merge);
    assert_eq!(
        repo.parse_range(None, false).unwrap(),
        Sides::CommitVsWorktree(Some(id("HEAD")))
    );
    assert_eq!(
        repo.parse_range(None, true).unwrap(),
        Sides::CommitVsStaged(Some(id("HEAD")))
    );
    assert_eq!(
        repo.parse_range(Some("v1"), false).unwrap(),
        Sides::CommitVsWorktree(Some(id(&c1)))
    );
    assert_eq!(
        repo.parse_range(Some("v1..feature"), false).unwrap(),
        Sides::Commits {
            a: id(&c1),
            b: id(&f2)
        }
    );
    assert_eq!(
        repo.parse_range(Some("v1.."), false).unwrap(),
        Sides::Commits {
            a: id(&c1),
            b: id("HEAD")
        }
    );
    // The merge base of main~1 (c3) and feature is c2.
    assert_eq!(
        repo.parse_range(Some("main~1...feature"), false).unwrap(),
        Sides::Commits {
            a: id(&c2),
            b: id(&f2)
        }
    );
    // git's shorthands for a commit against a parent (`HEAD^!` was taken for HEAD against the
    // working tree): the merge against its first parent (c3), then against its second (f2).
    let c3 = id("HEAD^1");
    for (shorthand, parent) in [("HEAD^!", c3), ("HEAD^-", c3), ("HEAD^-2", id(&f2))] {
        assert_eq!(
            repo.parse_range(Some(shorthand), false).unwrap(),
            Sides::Commits {
                a: parent,
                b: id("HEAD")
            },
            "{shorthand}"
        );
    }
    let only_head = repo.first_parent_walk(Some("HEAD^!")).unwrap();
    assert_eq!(only_head.len(), 1);
    assert_eq!(only_head[0].id, id("HEAD"));
    // A root commit has no parent: alone, it is compared with the empty catalog before it.
    for shorthand in [format!("{c1}^!"), "v1^-".to_owned(), "v1^-1".to_owned()] {
        let sides = repo.parse_range(Some(&shorthand), false).unwrap();
        assert_eq!(sides, Sides::Root(id(&c1)), "{shorthand}");
        assert_eq!(sides.baseline(), Side::Unborn);
        assert_eq!(sides.candidate(), Side::Commit(id(&c1)));
        let walk = repo.first_parent_walk(Some(&shorthand)).unwrap();
        assert_eq!(walk.len(), 1);
        assert_eq!(walk[0].id, id(&c1));
    }
    assert!(repo.parse_range(Some("v1^-2"), false).is_err());
    let sides = repo.parse_range(Some("main..feature"), false).unwrap();
    assert_eq!(sides.baseline(), Side::Commit(id("main")));
    assert_eq!(sides.candidate(), Side::Commit(id(&f2)));
    assert_eq!(Sides::CommitVsStaged(None).baseline(), Side::Unborn);
    assert_eq!(Side::Worktree.label(), "worktree");
    assert_eq!(Side::Staged.label(), "staged");
}

#[test]
fn annotated_tags_and_short_ids_peel_to_commits() {
    let (t, [c1, ..]) = branchy();
    let repo = open(&t);
    assert_eq!(commit(&repo, "v1").to_string(), c1);
    assert_eq!(commit(&repo, "v1^{commit}").to_string(), c1);
    assert_eq!(commit(&repo, &c1[..8]).to_string(), c1);
    let err = repo.resolve_commit("HEAD:events").unwrap_err();
    assert!(matches!(err, Error::NotACommit { .. }), "{err}");
}

#[test]
fn unknown_revision_names_it_and_hints() {
    let (t, _) = branchy();
    let repo = open(&t);
    let err = repo.resolve_commit("no-such-branch").unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, Error::UnknownRevision { .. }));
    assert!(
        msg.contains("`no-such-branch`") && msg.contains("hint:"),
        "{msg}"
    );
    let err = repo.parse_range(Some("main..nope"), false).unwrap_err();
    assert!(err.to_string().contains("`nope`"), "{err}");
    // Both ends unknown: both named, once each, with their hints.
    for range in ["nope..gone", "nope...gone"] {
        let msg = repo
            .parse_range(Some(range), false)
            .unwrap_err()
            .to_string();
        assert!(
            msg.contains("`nope`") && msg.contains("\nerror: unknown revision `gone`"),
            "{msg}"
        );
        assert_eq!(msg.matches("hint:").count(), 2, "{msg}");
    }
    let msg = repo.parse_range(Some("nope..nope"), false).unwrap_err();
    assert_eq!(msg.to_string().matches("`nope`").count(), 1, "{msg}");
    // A mistyped branch name is answered with the names near it, with or without a suffix.
    for typo in ["mian", "mian~1"] {
        let msg = repo.resolve_commit(typo).unwrap_err().to_string();
        assert!(msg.ends_with("; did you mean `main`?"), "{msg}");
    }
}

#[test]
fn unrelated_histories_have_no_merge_base() {
    let (t, _) = branchy();
    t.git(&["checkout", "-q", "--orphan", "other"]);
    t.write("x.md", "x");
    t.commit_all("orphan");
    let repo = open(&t);
    let err = repo.parse_range(Some("main...other"), false).unwrap_err();
    assert!(matches!(err, Error::NoMergeBase { .. }), "{err}");
}

#[test]
fn first_parent_walk_is_oldest_first() {
    let (t, [c1, c2, f1, _f2, merge]) = branchy();
    let repo = open(&t);
    let all = repo.first_parent_walk(None).unwrap();
    let subjects: Vec<&str> = all.iter().map(|c| c.subject.as_str()).collect();
    assert_eq!(subjects, ["c1", "c2", "c3", "merge feature"]);
    let last = all.last().unwrap();
    assert_eq!(last.id.to_string(), merge);
    assert_eq!(last.parents.len(), 2);
    assert_eq!(all[0].id.to_string(), c1);
    assert_eq!(all[0].first_parent(), None);
    assert_eq!(all[1].first_parent(), Some(all[0].id));
    assert_eq!(all[0].author, "Test Author <author@example.com>");
    assert_eq!(all[0].date, "2023-11-14T22:14:20+00:00");

    let range = repo
        .first_parent_walk(Some(&format!("{c2}..feature")))
        .unwrap();
    assert_eq!(
        range.iter().map(|c| c.subject.as_str()).collect::<Vec<_>>(),
        ["f1", "f2"]
    );
    assert_eq!(range[0].id.to_string(), f1);
    assert_eq!(repo.first_parent_walk(Some("v1")).unwrap().len(), 1);
}

/// A commit written in ISO-8859-1 (its `encoding` header says so) is read as git reads it.
#[cfg(unix)]
#[test]
fn a_latin1_commit_is_read_as_latin1() {
    use std::os::unix::ffi::OsStrExt;
    let t = TestRepo::new();
    t.write("events/E/index.mdx", "e");
    t.git(&["add", "-A"]);
    let status = std::process::Command::new("git")
        .current_dir(t.path())
        .env("GIT_AUTHOR_NAME", std::ffi::OsStr::from_bytes(b"Jos\xe9"))
        .args(["-c", "i18n.commitEncoding=ISO-8859-1", "commit", "-q", "-m"])
        .arg(std::ffi::OsStr::from_bytes(b"caf\xe9 added"))
        .status()
        .expect("git runs");
    assert!(status.success());
    let repo = open(&t);
    let walk = repo.first_parent_walk(None).unwrap();
    assert_eq!(walk[0].subject, "café added");
    assert!(walk[0].author.starts_with("José <"), "{}", walk[0].author);
}

#[test]
fn tree_id_is_stable_when_the_catalog_does_not_change() {
    let (t, [c1, c2, f1, f2, _]) = branchy();
    let repo = open(&t);
    let events = |c: &str| repo.tree_id(commit(&repo, c), "events").unwrap();
    assert_ne!(events(&c1), events(&c2));
    assert_eq!(events(&c2), events(&f1));
    assert_eq!(events(&f1), events(&f2));
    assert_eq!(repo.tree_id(commit(&repo, &c1), "services").unwrap(), None);
    assert!(
        repo.read_commit(commit(&repo, &c1), "services")
            .unwrap()
            .files
            .is_empty()
    );
}

#[test]
fn blobs_are_read_once_and_only_when_used() {
    let (t, [c1, _, _, f2, _]) = branchy();
    let repo = open(&t);
    let first = repo.read_commit(commit(&repo, "HEAD"), "").unwrap();
    // Listing a commit inflates nothing; a blob is read when its bytes are first asked for.
    assert_eq!(repo.cache().len(), 0);
    let a = first.get("events/E/index.mdx").unwrap().data();
    assert_eq!(repo.cache().len(), 1);
    let again = repo.read_commit(commit(&repo, "HEAD"), "").unwrap();
    let b = again.get("events/E/index.mdx").unwrap().data();
    assert!(std::sync::Arc::ptr_eq(&a, &b));
    assert_eq!(repo.cache().len(), 1);
    // A clone shares the cache.
    let clone = repo.clone();
    let read_all = |id| {
        for blob in clone.read_commit(id, "").unwrap().files.values() {
            blob.data();
        }
    };
    read_all(commit(&repo, &f2));
    let after_f2 = repo.cache().len();
    assert!(after_f2 > 1);
    read_all(commit(&repo, &c1));
    assert!(repo.cache().len() >= after_f2);
    repo.check_reads().expect("every read succeeded");
}

#[test]
fn catalog_in_a_subfolder_is_found_by_its_config() {
    let t = TestRepo::new();
    t.write_all(&[
        ("README.md", "repo"),
        ("docs/catalog/eventcatalog.config.js", "module.exports = {}"),
        ("docs/catalog/events/E/index.mdx", "---\nid: E\n---\n"),
        (
            "docs/catalog/node_modules/pkg/eventcatalog.config.js",
            "ignored",
        ),
        (".github/eventcatalog.config.js", "hidden"),
    ]);
    t.commit_all("catalog");
    let repo = open(&t);
    let head = Side::Commit(commit(&repo, "HEAD"));
    for side in [head, Side::Staged, Side::Worktree] {
        assert_eq!(
            repo.detect_catalog_dir(side, None).unwrap(),
            "docs/catalog",
            "{side:?}"
        );
    }
    assert_eq!(repo.detect_catalog_dir(Side::Unborn, None).unwrap(), "");
    let set = repo.read(head, "docs/catalog").unwrap();
    assert!(set.get("events/E/index.mdx").is_some());
    assert!(set.get("eventcatalog.config.js").is_some());
    let worktree = repo.read_worktree("docs/catalog").unwrap();
    assert_eq!(summary(&set), summary(&worktree));
    assert_eq!(
        summary(&set),
        summary(&repo.read_staged("docs/catalog").unwrap())
    );

    let sides = repo.parse_range(None, false).unwrap();
    assert_eq!(
        repo.detect_catalog_dir_for(&sides, None).unwrap(),
        "docs/catalog"
    );
    assert_eq!(
        repo.detect_catalog_dir_for(&sides, Some("./docs/catalog/"))
            .unwrap(),
        "docs/catalog"
    );
    let err = repo
        .detect_catalog_dir_for(&sides, Some("nope"))
        .unwrap_err();
    assert!(matches!(err, Error::CatalogDirNotFound { .. }), "{err}");
    let err = repo
        .detect_catalog_dir(Side::Worktree, Some("../elsewhere"))
        .unwrap_err();
    assert!(matches!(err, Error::CatalogDirOutsideRepo { .. }), "{err}");
    let absolute = t.path().join("docs/catalog");
    assert_eq!(
        repo.detect_catalog_dir(Side::Worktree, absolute.to_str())
            .unwrap(),
        "docs/catalog"
    );
}

#[test]
fn root_catalog_folders_win_over_configs() {
    let t = TestRepo::new();
    // Folders whose names only start like a catalog folder's mark nothing.
    t.write_all(&[
        ("eventsx/E/index.mdx", "e"),
        ("services.old/S/index.mdx", "s"),
        ("site/eventcatalog.config.ts", "x"),
    ]);
    t.commit_all("c");
    let repo = open(&t);
    let sides = |repo: &Repo| {
        [
            Side::Commit(commit(repo, "HEAD")),
            Side::Staged,
            Side::Worktree,
        ]
    };
    for side in sides(&repo) {
        assert_eq!(
            repo.detect_catalog_dir(side, None).unwrap(),
            "site",
            "{side:?}"
        );
    }
    t.write("services/S/index.mdx", "s");
    t.commit_all("a catalog folder at the root");
    let repo = open(&t);
    for side in sides(&repo) {
        assert_eq!(repo.detect_catalog_dir(side, None).unwrap(), "", "{side:?}");
    }
}

#[test]
fn two_config_candidates_are_an_error() {
    let t = TestRepo::new();
    t.write_all(&[
        ("a/eventcatalog.config.js", "a"),
        ("b/c/eventcatalog.config.mjs", "b"),
    ]);
    t.commit_all("two");
    let repo = open(&t);
    for side in [
        Side::Commit(commit(&repo, "HEAD")),
        Side::Staged,
        Side::Worktree,
    ] {
        let err = repo.detect_catalog_dir(side, None).unwrap_err();
        let Error::AmbiguousCatalogDir { candidates } = &err else {
            panic!("{err}")
        };
        assert_eq!(candidates, &["a", "b/c"]);
        assert!(err.to_string().contains("a, b/c") && err.to_string().contains("--dir"));
    }
    assert_eq!(
        repo.detect_catalog_dir(Side::Worktree, Some("a")).unwrap(),
        "a"
    );
}

#[cfg(unix)]
#[test]
fn symlinks_and_submodules_are_special() {
    let t = TestRepo::new();
    t.write("events/E/index.mdx", "e");
    t.symlink("index.mdx", "events/E/link.mdx");
    t.git(&["add", "-A"]);
    let sub = "0123456789abcdef0123456789abcdef01234567";
    t.git(&[
        "update-index",
        "--add",
        "--cacheinfo",
        &format!("160000,{sub},events/vendored"),
    ]);
    t.commit("special");
    let repo = open(&t);
    let expected = [
        ("events/E/link.mdx".to_owned(), SpecialEntry::Symlink),
        ("events/vendored".to_owned(), SpecialEntry::Submodule),
    ];
    for side in [
        Side::Commit(commit(&repo, "HEAD")),
        Side::Staged,
        Side::Worktree,
    ] {
        let set = repo.read(side, "").unwrap();
        assert_eq!(paths(&set), ["events/E/index.mdx"], "{side:?}");
        assert_eq!(
            set.special.clone().into_iter().collect::<Vec<_>>(),
            expected,
            "{side:?}"
        );
    }
    // On disk, the submodule checked out and a repository of its own that is none: git
    // takes none of the latter's files, and neither is read as a folder.
    t.write(
        "events/vendored/.git",
        "gitdir: ../../.git/modules/vendored",
    );
    t.write("events/vendored/index.mdx", "v");
    t.write("events/Embedded/index.mdx", "x");
    t.git(&["-C", "events/Embedded", "init", "-q"]);
    let set = repo.read(Side::Worktree, "").unwrap();
    assert_eq!(paths(&set), ["events/E/index.mdx"]);
    assert_eq!(
        set.special.into_iter().collect::<Vec<_>>(),
        [
            ("events/E/link.mdx".to_owned(), SpecialEntry::Symlink),
            ("events/Embedded".to_owned(), SpecialEntry::Repository),
            ("events/vendored".to_owned(), SpecialEntry::Submodule),
        ]
    );
    let plain = git::read_dir(&t.path(), catalog_diff::catalog::DEFAULT_MAX_FILE_SIZE).unwrap();
    assert_eq!(
        plain.special.get("events/E/link.mdx"),
        Some(&SpecialEntry::Symlink)
    );
    assert!(plain.get(".git/HEAD").is_none());
}

#[test]
fn shallow_clone_reports_missing_history() {
    let (t, _) = branchy();
    let shallow = t.clone_with(&["--depth", "1", "--no-local"]);
    let repo = open(&shallow);
    let head = commit(&repo, "HEAD");
    assert_eq!(head.to_string(), t.rev("HEAD"));
    assert!(
        repo.read_commit(head, "")
            .unwrap()
            .get("events/E/index.mdx")
            .is_some()
    );
    let err = repo
        .resolve_commit("HEAD~1")
        .and_then(|c| repo.read_commit(c, "").map(|_| c))
        .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("shallow") && msg.contains("--unshallow"),
        "{msg}"
    );
    // The merge base of two branches fetched one commit deep was not fetched: said so, not
    // "use A..B", which would compare the wrong baseline.
    t.git(&["checkout", "-q", "-b", "side", "v1"]);
    t.write("events/E/index.mdx", "side");
    t.commit_all("side");
    let shallow = t.clone_with(&["--depth", "1", "--no-local", "--no-single-branch"]);
    let repo = open(&shallow);
    let msg = repo
        .parse_range(Some("origin/main...origin/side"), false)
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("no merge base in this shallow clone") && msg.contains("--unshallow"),
        "{msg}"
    );
}

/// A repository that is there but cannot be opened is named as such, never taken for "no
/// repository" (which `index` answers by reading the folder as a plain one).
#[test]
fn a_repository_that_cannot_be_opened_is_not_a_missing_one() {
    let t = TestRepo::new();
    t.write("events/E/index.mdx", "---\nid: E\nversion: 1.0.0\n---\n");
    t.commit_all("c");
    let config = t.path().join(".git/config");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str("[core\n");
    std::fs::write(&config, text).unwrap();
    let err = Repo::discover(&t.path().join("events")).unwrap_err();
    let Error::CannotOpen {
        git_dir, source, ..
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!(git_dir, &t.path().join(".git"));
    assert!(
        source.is_some(),
        "gix's account of the configuration is kept"
    );

    // A linked worktree whose repository is gone.
    let moved = tempfile::tempdir().unwrap();
    std::fs::write(
        moved.path().join(".git"),
        "gitdir: /nowhere/.git/worktrees/x\n",
    )
    .unwrap();
    let err = Repo::discover(moved.path()).unwrap_err();
    assert!(matches!(err, Error::CannotOpen { .. }), "{err}");

    let sha256 = tempfile::tempdir().unwrap();
    support::git_in(sha256.path(), 0, &["init", "-q", "--object-format=sha256"]);
    let err = Repo::discover(sha256.path()).unwrap_err();
    assert!(matches!(err, Error::CannotOpen { .. }), "{err}");
    assert!(err.to_string().contains("SHA-256"), "{err}");
}

#[test]
fn non_repository_path() {
    let dir = tempfile::tempdir().unwrap();
    let err = Repo::discover(dir.path()).unwrap_err();
    assert!(matches!(err, Error::NotARepository { .. }), "{err}");
    assert!(err.to_string().contains(&dir.path().display().to_string()));
    let missing = git::read_dir(
        &dir.path().join("missing"),
        catalog_diff::catalog::DEFAULT_MAX_FILE_SIZE,
    )
    .unwrap_err();
    assert!(matches!(missing, Error::Io { .. }), "{missing}");
}

#[test]
fn discovery_searches_upwards() {
    let (t, _) = branchy();
    let repo = Repo::discover(&t.path().join("events/E")).unwrap();
    assert_eq!(repo.detect_catalog_dir(Side::Worktree, None).unwrap(), "");
}

#[test]
fn repository_without_commits_has_an_empty_baseline() {
    let t = TestRepo::new();
    let repo = open(&t);
    assert_eq!(
        repo.parse_range(None, false).unwrap(),
        Sides::CommitVsWorktree(None)
    );
    assert_eq!(
        repo.parse_range(None, true).unwrap(),
        Sides::CommitVsStaged(None)
    );
    assert!(repo.read_staged("").unwrap().files.is_empty());
    t.write("events/E/index.mdx", "e");
    assert!(repo.read(Side::Unborn, "").unwrap().files.is_empty());
    assert_eq!(
        paths(&repo.read_worktree("").unwrap()),
        ["events/E/index.mdx"]
    );
    assert!(repo.first_parent_walk(None).unwrap().is_empty());
    let err = repo.resolve_commit("HEAD").unwrap_err();
    assert!(err.to_string().contains("no commits yet"), "{err}");
    // gix's account of the unborn HEAD is not appended as a cause: it says no more.
    assert!(std::error::Error::source(&err).is_none(), "{err:?}");
}

#[test]
fn bare_repository_has_no_worktree() {
    let (t, _) = branchy();
    let bare = t.clone_with(&["--bare"]);
    let repo = open(&bare);
    let err = repo.read_worktree("").unwrap_err();
    assert!(matches!(err, Error::BareRepository { .. }), "{err}");
    assert!(
        repo.read_commit(commit(&repo, "HEAD"), "")
            .unwrap()
            .get("events/E/index.mdx")
            .is_some()
    );
}

#[test]
fn merge_conflicts_in_the_index_are_an_error() {
    let t = TestRepo::new();
    t.write("events/E.md", "base");
    t.commit_all("base");
    t.git(&["checkout", "-q", "-b", "other"]);
    t.write("events/E.md", "theirs");
    t.commit_all("theirs");
    t.git(&["checkout", "-q", "main"]);
    t.write("events/E.md", "ours");
    t.commit_all("ours");
    let out = support::git_command(&t.path(), 0)
        .args(["merge", "-q", "other"])
        .output()
        .unwrap();
    assert!(!out.status.success(), "the merge conflicts");
    let repo = open(&t);
    let err = repo.read_staged("").unwrap_err();
    assert!(
        matches!(&err, Error::Conflict { paths } if paths == &["events/E.md"]),
        "{err}"
    );
    assert!(
        repo.read_staged("services").unwrap().files.is_empty(),
        "outside the conflict"
    );
}

#[test]
fn ignore_rules_exclude_files_but_not_tracked_ones() {
    let t = TestRepo::new();
    t.write_all(&[("events/keep.md", "k"), ("events/tracked.tmp", "t")]);
    t.commit_all("c");
    t.write(".gitignore", "*.tmp\nbuild/\n");
    t.write("events/new.tmp", "untracked, ignored");
    t.write("events/build/out.md", "ignored dir");
    t.write("events/excluded.md", "excluded");
    std::fs::write(t.path().join(".git/info/exclude"), "events/excluded.md\n").unwrap();
    let repo = open(&t);
    let set = repo.read_worktree("events").unwrap();
    assert_eq!(paths(&set), ["keep.md", "tracked.tmp"]);
}

#[test]
fn invalid_index_file() {
    let t = TestRepo::new();
    t.write("events/E.md", "e");
    t.commit_all("c");
    std::fs::write(t.path().join(".git/index"), b"garbage").unwrap();
    let repo = open(&t);
    let err = repo.read_staged("").unwrap_err();
    assert!(matches!(err, Error::InvalidIndex { .. }), "{err}");
}

/// Git checks the index's trailing checksum only in `git fsck`; reading the staged side does
/// not either, so an index whose trailer no longer matches reads as git reads it.
#[test]
fn an_index_is_read_as_git_reads_it_without_its_checksum() {
    let t = TestRepo::new();
    t.write("events/E.md", "e1");
    t.commit_all("c");
    t.write("events/E.md", "e2");
    t.git(&["add", "events/E.md"]);
    let index = t.path().join(".git/index");
    let mut bytes = std::fs::read(&index).unwrap();
    let trailer = bytes.len() - 20;
    bytes[trailer..].iter_mut().for_each(|b| *b = !*b);
    std::fs::write(&index, bytes).unwrap();
    // git itself still reads it.
    assert_eq!(
        t.git(&["diff", "--cached", "--name-only"]).trim(),
        "events/E.md"
    );
    let staged = open(&t).read_staged("").unwrap();
    assert_eq!(paths(&staged), ["events/E.md"]);
    assert_eq!(&*staged.get("events/E.md").unwrap().data(), b"e2");
}

#[test]
fn partial_clone_names_the_missing_blob() {
    let (t, _) = branchy();
    t.git(&["config", "uploadpack.allowFilter", "true"]);
    let partial = t.clone_with(&["--no-local", "--filter=blob:none", "--no-checkout"]);
    let repo = open(&partial);
    let head = commit(&repo, "HEAD");
    let err = repo.read_commit(head, "").unwrap_err();
    let Error::ObjectsMissing { objects, .. } = &err else {
        panic!("{err}")
    };
    // Every missing blob is named, not only the first one found.
    let mut paths: Vec<&str> = objects.iter().map(|(_, path)| path.as_str()).collect();
    paths.sort();
    assert_eq!(
        paths,
        ["README.md", "events/E/index.mdx", "services/S/index.mdx"]
    );
    assert!(objects.iter().all(|(id, _)| id.len() == 40));
    assert!(
        err.to_string().starts_with("3 objects are missing"),
        "{err}"
    );
    assert!(
        err.to_string().contains("partial clone")
            && err.to_string().contains("git fetch --refetch"),
        "{err}"
    );
    // Trees are all there: detection and tree ids still work.
    assert!(repo.tree_id(head, "events").unwrap().is_some());
}

/// A pre-commit hook of `git commit -a` sees a temporary index through `GIT_INDEX_FILE`. The
/// variable is set for a child process (this same test binary), never in this process.
#[test]
fn git_index_file_is_honoured() {
    if let Ok(repo_path) = std::env::var("CATALOG_DIFF_TEST_CHILD_REPO") {
        let repo = Repo::discover(std::path::Path::new(&repo_path)).unwrap();
        let staged = repo.read_staged("").unwrap();
        assert_eq!(&*staged.get("events/A.md").unwrap().data(), b"temporary");
        return;
    }
    let t = TestRepo::new();
    t.write("events/A.md", "committed");
    t.commit_all("c");
    let temp_index = t.path().join(".git/index.hook");
    std::fs::copy(t.path().join(".git/index"), &temp_index).unwrap();
    t.write("events/A.md", "temporary");
    let out = support::git_command(&t.path(), 0)
        .env("GIT_INDEX_FILE", &temp_index)
        .args(["add", "events/A.md"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let repo = open(&t);
    assert_eq!(
        &*repo
            .read_staged("")
            .unwrap()
            .get("events/A.md")
            .unwrap()
            .data(),
        b"committed"
    );

    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "git_index_file_is_honoured", "--test-threads=1"])
        .env("CATALOG_DIFF_TEST_CHILD_REPO", t.path())
        .env("GIT_INDEX_FILE", &temp_index)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn detection_falls_back_to_the_baseline_only_when_the_candidate_has_no_catalog() {
    let t = TestRepo::new();
    t.write_all(&[
        ("cat/eventcatalog.config.js", "x"),
        ("cat/events/E/index.mdx", "e"),
    ]);
    t.commit_all("catalog");
    t.git(&["rm", "-q", "-r", "cat"]);
    let repo = open(&t);
    // The candidate (working tree) deleted the catalog: the baseline still says where it was.
    let sides = repo.parse_range(None, false).unwrap();
    assert_eq!(repo.detect_catalog_dir_for(&sides, None).unwrap(), "cat");
    // A candidate whose root holds catalog folders wins.
    t.write("events/F/index.mdx", "f");
    assert_eq!(repo.detect_catalog_dir_for(&sides, None).unwrap(), "");
}

#[test]
fn repo_clones_read_on_other_threads() {
    fn assert_send<T: Send>() {}
    assert_send::<Repo>();
    let (t, commits) = branchy();
    let repo = open(&t);
    let ids: Vec<CommitId> = commits.iter().map(|c| commit(&repo, c)).collect();
    let sequential: Vec<_> = ids
        .iter()
        .map(|c| summary(&repo.read_commit(*c, "").unwrap()))
        .collect();
    let fresh = open(&t);
    let parallel: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = ids
            .iter()
            .map(|c| {
                let local = fresh.clone();
                s.spawn(move || summary(&local.read_commit(*c, "").unwrap()))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(sequential, parallel);
}

/// A real pre-commit hook: `git commit -a` runs it with a temporary index in `GIT_INDEX_FILE`.
/// The hook runs this test binary again, which reads the staged side from the hook's
/// environment and checks it is exactly what the commit records.
#[cfg(unix)]
#[test]
fn pre_commit_hook_sees_what_commit_records() {
    if let Ok(expected) = std::env::var("CATALOG_DIFF_TEST_HOOK_EXPECT") {
        let cwd = std::env::current_dir().unwrap();
        let repo = Repo::discover(&cwd).unwrap();
        let staged = repo.read_staged("").unwrap();
        assert_eq!(
            std::str::from_utf8(&staged.get("events/A.md").unwrap().data()).unwrap(),
            expected
        );
        assert!(staged.get("events/untracked.md").is_none());
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let t = TestRepo::new();
    t.write("events/A.md", "v1");
    t.commit_all("c1");
    let hook = t.path().join(".git/hooks/pre-commit");
    std::fs::create_dir_all(hook.parent().unwrap()).unwrap();
    std::fs::write(
        &hook,
        "#!/bin/sh\nexec \"$CATALOG_DIFF_TEST_EXE\" --exact pre_commit_hook_sees_what_commit_records --test-threads=1 --quiet >&2\n",
    )
    .unwrap();
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    t.write("events/A.md", "v2 via commit -a");
    t.write("events/untracked.md", "not committed");
    let commit_expecting = |expect: &str| {
        support::git_command(&t.path(), 120)
            .env("CATALOG_DIFF_TEST_EXE", std::env::current_exe().unwrap())
            .env("CATALOG_DIFF_TEST_HOOK_EXPECT", expect)
            .args(["commit", "-q", "-a", "-m", "c2"])
            .output()
            .unwrap()
    };
    // The hook really checks: a wrong expectation aborts the commit.
    assert!(!commit_expecting("v1").status.success());
    let out = commit_expecting("v2 via commit -a");
    assert!(
        out.status.success(),
        "hook failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(t.git(&["show", "HEAD:events/A.md"]), "v2 via commit -a");
}

#[test]
fn sparse_checkout_and_sparse_index_read_like_the_commit() {
    let t = TestRepo::new();
    t.write_all(CATALOG);
    t.write("services/Orders/nested/deep.md", "deep");
    t.commit_all("catalog");
    for sparse_index in [false, true] {
        let mut args = vec!["sparse-checkout", "init", "--cone"];
        if sparse_index {
            args.push("--sparse-index");
        }
        t.git(&args);
        t.git(&["sparse-checkout", "set", "events"]);
        assert!(
            !t.path().join("services").exists(),
            "services are not checked out"
        );
        let repo = open(&t);
        let head = repo.read_commit(commit(&repo, "HEAD"), "").unwrap();
        for dir in ["", "services", "services/Orders"] {
            let at_commit = repo.read_commit(commit(&repo, "HEAD"), dir).unwrap();
            assert!(!at_commit.files.is_empty());
            let staged = repo.read_staged(dir).unwrap();
            assert_eq!(
                summary(&at_commit),
                summary(&staged),
                "staged {dir:?}, sparse index {sparse_index}"
            );
            let worktree = repo.read_worktree(dir).unwrap();
            assert_eq!(
                summary(&at_commit),
                summary(&worktree),
                "worktree {dir:?}, sparse index {sparse_index}"
            );
        }
        assert_eq!(head.files.len(), CATALOG.len() + 1);
        t.git(&["sparse-checkout", "disable"]);
    }
}

#[test]
fn detection_sees_through_a_sparse_index() {
    let t = TestRepo::new();
    t.write_all(&[
        ("README.md", "r"),
        ("docs/cat/eventcatalog.config.js", "x"),
        ("docs/cat/events/E/index.mdx", "e"),
    ]);
    t.commit_all("c");
    t.git(&["sparse-checkout", "init", "--cone", "--sparse-index"]);
    t.git(&["sparse-checkout", "set", "other"]);
    assert!(!t.path().join("docs").exists());
    let repo = open(&t);
    for side in [Side::Staged, Side::Worktree] {
        assert_eq!(
            repo.detect_catalog_dir(side, None).unwrap(),
            "docs/cat",
            "{side:?}"
        );
    }
}

#[test]
#[ignore = "prints error messages for a human to look at"]
fn show_error_messages() {
    let (t, _) = branchy();
    let repo = open(&t);
    eprintln!("{}", repo.resolve_commit("nope").unwrap_err());
    let shallow = t.clone_with(&["--depth", "1", "--no-local"]);
    let srepo = open(&shallow);
    eprintln!("{}", srepo.resolve_commit("HEAD~1").unwrap_err());
    t.git(&["config", "uploadpack.allowFilter", "true"]);
    let partial = t.clone_with(&["--no-local", "--filter=blob:none", "--no-checkout"]);
    let prepo = open(&partial);
    eprintln!(
        "{}",
        prepo.read_commit(commit(&prepo, "HEAD"), "").unwrap_err()
    );
    eprintln!("{}", Repo::discover(std::path::Path::new("/")).unwrap_err());
}

#[test]
fn core_excludes_file_is_honoured() {
    let t = TestRepo::new();
    t.write("events/E/index.mdx", "e");
    t.commit_all("c");
    let excludes = t.path().join(".git/my-excludes");
    std::fs::write(&excludes, ".DS_Store\n").unwrap();
    t.git(&["config", "core.excludesFile", excludes.to_str().unwrap()]);
    t.write("events/E/.DS_Store", "junk");
    let repo = open(&t);
    assert_eq!(
        paths(&repo.read_worktree("events").unwrap()),
        ["E/index.mdx"]
    );
}

/// Walks `commits` (oldest first) advancing one FileSet by tree deltas, and checks it against a
/// full read of every commit.
fn assert_advance_matches_full_reads(repo: &Repo, commits: &[CommitId], dir: &str) {
    let mut files = FileSet::default();
    let mut tree = None;
    for &id in commits {
        let next = repo.tree_id(id, dir).expect("tree id");
        let before = files.clone();
        let changes = repo.advance(&mut files, tree, next, dir).expect("advance");
        tree = next;
        let full = repo.read_commit(id, dir).expect("read");
        // The changes name exactly the paths whose blob differs, with the blob they had.
        let all: std::collections::BTreeSet<&String> =
            before.files.keys().chain(full.files.keys()).collect();
        let expected: Vec<(&String, Option<String>)> = all
            .into_iter()
            .filter(|p| before.get(p).map(|b| b.id) != full.get(p).map(|b| b.id))
            .map(|p| (p, before.get(p).map(|b| b.id.to_string())))
            .collect();
        let reported: Vec<(&String, Option<String>)> = changes
            .paths
            .iter()
            .map(|(p, b)| (p, b.as_ref().map(|b| b.id.to_string())))
            .collect();
        assert_eq!(reported, expected, "changed paths at {id}");
        assert_eq!(
            changes.special,
            before.special != full.special,
            "special at {id}"
        );
        assert_eq!(summary(&files), summary(&full), "files at {id}");
        assert_eq!(files.special, full.special, "special entries at {id}");
    }
}

#[test]
fn advancing_by_tree_deltas_equals_reading_each_commit() {
    let repo = TestRepo::new();
    repo.write_all(CATALOG).commit_all("catalog");
    repo.write("events/OrderPlaced/schema.json", "{\"type\": \"string\"}\n")
        .write(
            "events/Shipped/index.mdx",
            "---\nid: Shipped\nversion: 1.0.0\n---\n",
        )
        .commit_all("edit one file, add a folder");
    // A file becomes a folder and a folder becomes a file.
    repo.remove("services/Orders/index.mdx");
    std::fs::remove_dir(repo.path().join("services/Orders")).expect("an empty folder");
    repo.write("services/Orders", "now a file\n")
        .remove("domains/Sales/index.mdx")
        .write("domains/Sales/index.mdx/inner.md", "a folder now\n")
        .commit_all("swap kinds");
    repo.symlink("../events", "domains/link")
        .remove("events/Shipped/index.mdx")
        .commit_all("a symlink; a folder emptied");
    repo.git(&["rm", "-rq", "events"]);
    repo.commit("the whole events folder goes");
    let git = open(&repo);
    let commits: Vec<CommitId> = ["HEAD~4", "HEAD~3", "HEAD~2", "HEAD~1", "HEAD", "HEAD~4"]
        .iter()
        .map(|rev| commit(&git, rev))
        .collect();
    assert_advance_matches_full_reads(&git, &commits, "");
    assert_advance_matches_full_reads(&git, &commits, "events");
    assert_advance_matches_full_reads(&git, &commits, "domains");
}

/// Reads `commit` and the staged index together (as `--staged` does) and checks each side
/// against reading it alone, for the whole repository and for catalog folders. The changes
/// found on the way are those between the two read alone, and the trees found are the ones
/// git names (`git write-tree` of a copy of the index, which the real one must not see).
fn assert_staged_pair_matches_reads(t: &TestRepo, revs: &[&str], step: &str) {
    let repo = open(t);
    let index_copy = t.path().join(".git/index-copy");
    std::fs::copy(t.path().join(".git/index"), &index_copy).expect("copy the index");
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .current_dir(t.path())
            .env("GIT_INDEX_FILE", &index_copy)
            .args(args)
            .output()
            .expect("git runs");
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    let index_root = git(&["write-tree"]);
    let git_tree = |spec: &str| git(&["rev-parse", "--verify", "-q", spec]);
    for rev in revs {
        let id = commit(&repo, rev);
        for dir in ["", "events", "domains", "services", "missing"] {
            let read = repo
                .read_sides(&Sides::CommitVsStaged(Some(id)), dir)
                .expect("read both");
            // The commit side is read through the staged one, not copied.
            let (at_commit, staged) = (read.baseline().to_file_set(), &read.after);
            let alone = (
                repo.read_commit(id, dir).unwrap(),
                repo.read_staged(dir).unwrap(),
            );
            let at = format!("{step}: {rev} in `{dir}`");
            assert_eq!(summary(&at_commit), summary(&alone.0), "commit side, {at}");
            assert_eq!(at_commit.special, alone.0.special, "commit specials, {at}");
            assert_eq!(summary(staged), summary(&alone.1), "staged side, {at}");
            assert_eq!(staged.special, alone.1.special, "staged specials, {at}");
            if let Some(changes) = read.changes() {
                let between = Changes::between(&alone.0, &alone.1);
                assert_eq!(changed(changes), changed(&between), "changes, {at}");
                assert_eq!(changes.special, between.special, "special changes, {at}");
            }
            let path = |root: &str| match dir {
                "" => format!("{root}^{{tree}}"),
                dir => format!("{root}:{dir}"),
            };
            let trees = read.trees.map(|tree| tree.map(|id| id.to_string()));
            if let Some(tree) = &trees[0] {
                assert_eq!(*tree, git_tree(&path(rev)), "commit tree, {at}");
            }
            if let Some(tree) = &trees[1] {
                // A folder the index lacks reads as an empty one.
                let mut expected = git_tree(&path(&index_root));
                if expected.is_empty() {
                    expected = git(&["hash-object", "-t", "tree", "/dev/null"]);
                }
                assert_eq!(*tree, expected, "index tree, {at}");
            }
        }
    }
    std::fs::remove_file(&index_copy).expect("remove the copy");
}

/// Each changed path with the blob it held before, and whether special entries changed.
fn changed(changes: &Changes) -> (Vec<(String, Option<String>)>, bool) {
    let paths = changes
        .paths
        .iter()
        .map(|(path, blob)| (path.clone(), blob.as_ref().map(|b| b.id.to_string())))
        .collect();
    (paths, changes.special)
}

#[test]
fn the_commit_beside_the_staged_index_reads_as_the_commit_alone() {
    let t = TestRepo::new();
    t.write_all(CATALOG).commit_all("catalog");
    t.write("events/OrderPlaced/schema.json", "{\"type\": \"string\"}\n")
        // The blob a symlink to `../events` holds: staged as one below, only the kind differs.
        .write("domains/link", "../events")
        .commit_all("a second commit");
    let revs = ["HEAD", "HEAD~1"];
    assert_staged_pair_matches_reads(&t, &revs, "nothing staged");

    t.write("events/OrderPlaced/schema.json", "{}\n");
    t.write("events/Shipped/index.mdx", "---\nid: Shipped\n---\n");
    t.git(&["add", "-A"]);
    t.git(&["update-index", "--chmod=+x", "services/Orders/index.mdx"]);
    assert_staged_pair_matches_reads(&t, &revs, "an edit, a new folder, a mode");
    // The index's cache-tree, invalidated along the staged changes, made whole again.
    t.git(&["write-tree"]);
    assert_staged_pair_matches_reads(&t, &revs, "the cache-tree written again");

    // A file becomes a folder and a folder becomes a file.
    t.git(&["rm", "-qf", "--cached", "services/Orders/index.mdx"]);
    t.remove("services/Orders/index.mdx");
    std::fs::remove_dir(t.path().join("services/Orders")).expect("an empty folder");
    t.write("services/Orders", "now a file\n");
    t.git(&["rm", "-q", "--cached", "domains/Sales/index.mdx"]);
    t.remove("domains/Sales/index.mdx");
    t.write("domains/Sales/index.mdx/inner.md", "a folder now\n");
    t.git(&["add", "-A"]);
    assert_staged_pair_matches_reads(&t, &revs, "kinds swapped");

    t.remove("domains/link")
        .symlink("../events", "domains/link");
    t.git(&["add", "domains/link"]);
    let sub = "0123456789abcdef0123456789abcdef01234567";
    let gitlink = format!("160000,{sub},events/vendored");
    t.git(&["update-index", "--add", "--cacheinfo", &gitlink]);
    t.write("events/Later/index.mdx", "intent to add\n");
    t.git(&["add", "-N", "events/Later/index.mdx"]);
    assert_staged_pair_matches_reads(&t, &revs, "special entries, intent to add");

    t.git(&["rm", "-rq", "--cached", "events"]);
    assert_staged_pair_matches_reads(&t, &revs, "a whole catalog folder unstaged");

    // A commit undone, its tree staged: the cache-tree is valid and holds the undone
    // commit's ids, not HEAD's.
    t.git(&["add", "-A"]);
    t.commit("everything");
    t.git(&["reset", "-q", "--soft", "HEAD~1"]);
    assert_staged_pair_matches_reads(&t, &revs, "a commit undone with reset --soft");
}

#[test]
fn advancing_through_the_examples_default_history() {
    let Some((_temp, clone)) = support::examples_default_clone("advancing_through_history") else {
        return;
    };
    let repo = Repo::discover(&clone).expect("discover");
    let commits: Vec<CommitId> = repo
        .first_parent_walk(None)
        .expect("walk")
        .iter()
        .map(|c| c.id)
        .collect();
    assert!(commits.len() > 100);
    assert_advance_matches_full_reads(&repo, &commits, "");
}

#[test]
fn a_blob_that_vanishes_before_it_is_read_is_reported_not_taken_for_empty() {
    let t = TestRepo::new();
    t.write("events/E/index.mdx", "---\nid: E\n---\n")
        .commit_all("one");
    let repo = open(&t);
    let files = repo.read_commit(commit(&repo, "HEAD"), "").unwrap();
    let blob = files.get("events/E/index.mdx").unwrap();
    let hex = blob.id.to_string();
    t.remove_object(&hex);
    assert!(blob.data().is_empty());
    let error = repo.check_reads().expect_err("the failed read is reported");
    assert!(error.to_string().contains(&hex), "{error}");
}
