//! `catalog-diff index` from the command line, on real temporary repositories: the same catalog
//! read four ways gives one Index, and every kind of bad input is a clear error with exit 2.

use crate::run;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .output()
        .expect("git runs");
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

fn write(root: &Path, path: &str, text: &[u8]) {
    let file = root.join(path);
    std::fs::create_dir_all(file.parent().expect("has a parent")).expect("mkdir");
    std::fs::write(file, text).expect("write");
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

const EVENT: &str = "---\nid: OrderPlaced\nversion: 1.0.0\nschemaPath: schema.json\n---\nText.\n";
const SCHEMA: &str = "{\"type\": \"object\"}\n";

/// A repository with one committed event and its schema.
fn repo() -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().expect("temp dir");
    let root = temp.path().join("shop");
    std::fs::create_dir_all(&root).expect("mkdir");
    git(&root, &["init", "-q", "-b", "main"]);
    write(&root, "events/OrderPlaced/index.mdx", EVENT.as_bytes());
    write(&root, "events/OrderPlaced/schema.json", SCHEMA.as_bytes());
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "first"]);
    (temp, root)
}

/// Stages a submodule (a gitlink to HEAD) at `path`, as `git submodule add` records one.
fn add_submodule_entry(root: &Path, path: &str) {
    let head = git(root, &["rev-parse", "HEAD"]);
    let entry = format!("160000,{head},{path}");
    git(root, &["update-index", "--add", "--cacheinfo", &entry]);
}

fn index_of(output: &Output) -> serde_json::Value {
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(output));
    serde_json::from_slice(&output.stdout).expect("json on stdout")
}

/// The Index without the `commit` string, which names the side it came from.
fn without_commit(mut index: serde_json::Value) -> serde_json::Value {
    index.as_object_mut().expect("object").remove("commit");
    index
}

#[test]
fn revision_staged_worktree_and_plain_folder_agree() {
    let (_temp, root) = repo();
    let head = index_of(&run(&root, &["index"]));
    assert_eq!(head["commit"].as_str().map(str::len), Some(40));
    assert_eq!(head["source"], "shop");
    let staged = index_of(&run(&root, &["index", "--staged"]));
    let worktree = index_of(&run(&root, &["index", "--worktree"]));
    assert_eq!(staged["commit"], "staged");
    assert_eq!(worktree["commit"], "worktree");
    let plain_copy = root.parent().expect("parent").join("plain/shop");
    for path in [
        "events/OrderPlaced/index.mdx",
        "events/OrderPlaced/schema.json",
    ] {
        write(
            &plain_copy,
            path,
            &std::fs::read(root.join(path)).expect("read"),
        );
    }
    let plain = index_of(&run(&plain_copy, &["index"]));
    let expected = without_commit(head);
    assert_eq!(without_commit(staged), expected);
    assert_eq!(without_commit(worktree), expected);
    assert_eq!(without_commit(plain), expected);
    assert_eq!(
        expected["resources"][0]["schemas"][0]["hash"]
            .as_str()
            .map(|h| h.starts_with("sha256:")),
        Some(true)
    );
}

#[test]
fn schema_content_is_included_on_request() {
    let (_temp, root) = repo();
    let index = index_of(&run(&root, &["index", "--include-schema-content"]));
    assert_eq!(index["resources"][0]["schemas"][0]["content"], SCHEMA);
}

#[test]
fn dangling_schema_is_a_warning_and_strict_makes_it_fatal() {
    let (_temp, root) = repo();
    std::fs::remove_file(root.join("events/OrderPlaced/schema.json")).expect("rm");
    git(&root, &["commit", "-qam", "drop schema"]);
    let output = run(&root, &["index"]);
    let index = index_of(&output);
    assert_eq!(
        index["resources"][0]["schemas"][0],
        serde_json::json!({"path": "schema.json", "default": true})
    );
    let message = stderr(&output);
    assert!(
        message.contains("events/OrderPlaced/index.mdx"),
        "{message}"
    );
    assert!(
        message.contains("schemaPath") || message.contains("schemas"),
        "{message}"
    );
    assert!(
        message.contains("events/OrderPlaced/schema.json` does not exist"),
        "{message}"
    );
    let strict = run(&root, &["index", "--strict"]);
    assert_eq!(strict.status.code(), Some(2));
    assert!(strict.stdout.is_empty());
}

#[test]
fn every_bad_file_is_reported_at_once_with_its_line() {
    let (_temp, root) = repo();
    write(
        &root,
        "events/Broken/index.mdx",
        b"---\nid: Broken\nversion: 1.0.0\nname: [unclosed\n---\n",
    );
    write(&root, "events/NoId/index.mdx", b"---\nname: nobody\n---\n");
    write(
        &root,
        "events/Escapes/index.mdx",
        b"---\nid: Escapes\nversion: 1.0.0\nschemaPath: ../../../../etc/passwd\n---\n",
    );
    write(
        &root,
        "events/Unquoted/index.mdx",
        b"---\nid: Unquoted\nversion: 1.0\n---\n",
    );
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-qm", "bad"]);
    let output = run(&root, &["index"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    let message = stderr(&output);
    for expected in [
        "events/Broken/index.mdx:",
        "events/NoId/index.mdx",
        "has no `id`",
        "events/Escapes/index.mdx:4: `schemas`: `../../../../etc/passwd` points outside the catalog",
        "events/Unquoted/index.mdx:3:",
        "quote the version",
    ] {
        assert!(
            message.contains(expected),
            "missing {expected:?} in:\n{message}"
        );
    }
}

/// Front matter that is not UTF-8 text is read as the SDK reads it, each bad byte as U+FFFD,
/// with a warning at its line (an error under `--strict`).
#[test]
fn front_matter_that_is_not_utf8_is_read_as_the_sdk_reads_it_and_warned_about() {
    let (_temp, root) = repo();
    write(
        &root,
        "events/Latin1/index.mdx",
        b"---\nid: Latin1\nname: caf\xe9\n---\n",
    );
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-qm", "latin-1"]);
    let output = run(&root, &["index"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(
        message.contains("events/Latin1/index.mdx:3:10: the file is not valid UTF-8 text"),
        "{message}"
    );
    let index: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let latin = index["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .find(|r| r["id"] == "Latin1")
        .expect("indexed");
    assert_eq!(latin["name"], "caf\u{fffd}");
    let strict = run(&root, &["index", "--strict"]);
    assert_eq!(strict.status.code(), Some(2));
}

#[test]
fn symlinks_and_submodules_are_errors() {
    let (_temp, root) = repo();
    std::os::unix::fs::symlink("schema.json", root.join("events/OrderPlaced/link.json"))
        .expect("symlink");
    git(&root, &["add", "-A"]);
    add_submodule_entry(&root, "events/OrderPlaced/vendor");
    git(&root, &["commit", "-qm", "odd entries"]);
    let output = run(&root, &["index"]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("events/OrderPlaced/link.json") && message.contains("symbolic link"),
        "{message}"
    );
    assert!(
        message.contains("events/OrderPlaced/vendor") && message.contains("submodule"),
        "{message}"
    );
}

/// A catalog kept in a submodule is another repository's: a `--dir` naming it says so and how
/// to read it (it said "does not exist (it is a file)", or that both sides were empty); and a
/// command after an option, read as the diff's revision, is named as a command.
#[test]
fn a_submodule_as_the_catalog_folder_and_a_command_after_an_option() {
    let (_temp, root) = repo();
    add_submodule_entry(&root, "vendored");
    git(&root, &["commit", "-qm", "a vendored catalog"]);
    for args in [
        &["index", "--dir", "vendored"][..],
        &["--dir", "vendored"],
        &["--staged", "--dir", "vendored"],
        &["log", "--dir", "vendored"],
    ] {
        let output = run(&root, args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&output).contains("`vendored` is a submodule")
                && stderr(&output).contains("-C vendored"),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    let output = run(&root, &["-C", ".", "index"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("`catalog-diff index -C PATH"),
        "{}",
        stderr(&output)
    );
}

/// A `--dir` that names a folder without a catalog, or a link to one (git holds the link as a
/// file; the error says it is a link), is an error at every side and in `log`: never an empty
/// Index or an empty walk.
#[test]
fn a_dir_without_resources_or_behind_a_link_is_an_error() {
    let (_temp, root) = repo();
    write(&root, "docs/readme.md", b"docs\n");
    std::os::unix::fs::symlink("events", root.join("linked")).expect("symlink");
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-qm", "docs and a link"]);
    for args in [
        &["index", "--dir", "docs"][..],
        &["index", "--staged", "--dir", "docs"],
        &["index", "--worktree", "--dir", "docs"],
        &["log", "--dir", "docs"],
        &["HEAD~1..HEAD", "--dir", "docs"],
    ] {
        let output = run(&root, args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&output).contains("`docs` holds no catalog resources"),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    for args in [
        &["index", "--dir", "linked"][..],
        &["index", "--worktree", "--dir", "linked"],
        &["index", "--staged", "--dir", "linked"],
        &["--dir", "linked"],
    ] {
        let output = run(&root, args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&output).contains("`linked` is a symbolic link")
                && stderr(&output)
                    .contains("does not follow links: name the folder this one leads to"),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn unknown_revision_and_non_repository_paths_are_errors() {
    let (temp, root) = repo();
    let output = run(&root, &["index", "no-such-branch"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("no-such-branch"),
        "{}",
        stderr(&output)
    );
    let missing = temp.path().join("does-not-exist");
    let output = run(
        temp.path(),
        &["index", "-C", missing.to_str().expect("utf-8 path")],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("does-not-exist"),
        "{}",
        stderr(&output)
    );
}

/// A repository whose configuration git cannot parse is an error, not a plain folder to read
/// (the Index came out with `"commit": "local"`, as if there were no repository).
#[test]
fn a_repository_that_cannot_be_opened_is_not_read_as_a_plain_folder() {
    let (_temp, root) = repo();
    let config = root.join(".git/config");
    let mut text = std::fs::read_to_string(&config).expect("read");
    text.push_str("[core\n");
    std::fs::write(&config, text).expect("write");
    let output = run(&root, &["index"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    assert!(
        stderr(&output).contains("cannot be opened") && stderr(&output).contains("git status"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_shallow_clone_names_what_is_missing() {
    let (temp, root) = repo();
    write(
        &root,
        "events/OrderPlaced/schema.json",
        b"{\"type\": \"object\", \"required\": [\"id\"]}\n",
    );
    git(&root, &["commit", "-qam", "second"]);
    let shallow = temp.path().join("shallow");
    let url = format!("file://{}", root.display());
    git(
        temp.path(),
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            &url,
            shallow.to_str().expect("utf-8"),
        ],
    );
    let output = run(&shallow, &["index", "HEAD~1"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("HEAD~1"), "{}", stderr(&output));
    assert_eq!(run(&shallow, &["index"]).status.code(), Some(0));
}

#[test]
fn nothing_in_the_repository_is_written() {
    let (_temp, root) = repo();
    let before = git(&root, &["status", "--porcelain", "--ignored"]);
    let index_file = std::fs::read(root.join(".git/index")).expect("index");
    for args in [
        &["index"][..],
        &["index", "--staged"],
        &["index", "--worktree"],
    ] {
        assert_eq!(run(&root, args).status.code(), Some(0));
    }
    assert_eq!(git(&root, &["status", "--porcelain", "--ignored"]), before);
    assert_eq!(
        std::fs::read(root.join(".git/index")).expect("index"),
        index_file
    );
}
