//! The parse cache on disk (issue #19): used when it is sound, ignored and rewritten when it is
//! not, never written inside the repository, never left half-written by a run that dies.

use std::path::Path;
use std::process::Output;

use catalog_diff::catalog::FILE_STEM;

use crate::support::TestRepo;

/// The one cache file a run on one repository writes.
fn cache_file(dir: &Path) -> Option<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            name.starts_with(&format!("{FILE_STEM}-")) && name.ends_with(".jsonl")
        })
}

fn run(cwd: impl AsRef<Path>, cache: &Path, args: &[&str]) -> Output {
    crate::binary(cwd)
        .env("CATALOG_DIFF_CACHE", cache)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn catalog() -> TestRepo {
    let repo = TestRepo::new();
    for n in 0..20 {
        repo.write(
            &format!("events/E{n}/index.mdx"),
            &format!("---\nid: E{n}\nversion: 1.0.{n}\nschemaPath: schema.json\n---\n"),
        );
        repo.write(
            &format!("events/E{n}/schema.json"),
            &format!(r#"{{"type": "object", "properties": {{"n{n}": {{"type": "string"}}}}}}"#),
        );
    }
    repo.commit_all("twenty events");
    repo.write(
        "events/E3/schema.json",
        r#"{"type": "object", "required": ["n3"]}"#,
    );
    repo.commit_all("E3 changes");
    repo
}

#[test]
fn a_warm_cache_gives_the_same_answer_and_a_broken_one_is_rebuilt() {
    let repo = catalog();
    let cache = tempfile::tempdir().expect("temp dir");
    let args = ["HEAD~1..HEAD", "--format", "json"];
    let reference = run(
        repo.path(),
        cache.path(),
        &["HEAD~1..HEAD", "--format", "json", "--no-cache"],
    );
    assert!(
        cache_file(cache.path()).is_none(),
        "--no-cache writes nothing"
    );
    // An earlier format's file is never read, and goes when the cache is written.
    let older = cache.path().join("parse-cache-v5-0123456789abcdef.jsonl");
    std::fs::write(&older, "catalog-diff parse cache 5 0.1.0\n").expect("write");
    let cold = run(&repo, cache.path(), &args);
    assert!(!older.exists(), "an earlier format's file is removed");
    let file = cache_file(cache.path()).expect("the cache was written");
    let written = std::fs::read(&file).expect("the cache was written");
    let warm = run(&repo, cache.path(), &args);
    assert_eq!(cold.stdout, reference.stdout);
    assert_eq!(warm.stdout, reference.stdout);
    assert_eq!(warm.status.code(), reference.status.code());

    // A writer killed mid-write leaves a truncated file (or a stray temporary one): ignored.
    for broken in [
        written[..written.len() / 2].to_vec(),
        b"catalog-diff parse cache 999\n".to_vec(),
        b"\x00\x01garbage".to_vec(),
    ] {
        std::fs::write(&file, &broken).expect("write");
        std::fs::write(
            cache.path().join(format!(".{FILE_STEM}.1.2.tmp")),
            &written[..10],
        )
        .expect("write");
        let again = run(&repo, cache.path(), &args);
        assert_eq!(again.stdout, reference.stdout);
        assert_eq!(
            std::fs::read(&file).expect("rewritten"),
            written,
            "rebuilt whole"
        );
    }
}

/// A run with the cache that answers exactly as a run without it: the same stdout, stderr
/// and exit code.
fn same_as_without_cache(repo: &TestRepo, cache: &Path, args: &[&str]) -> Output {
    let reference = run(repo, cache, &[args, &["--no-cache"]].concat());
    let warm = run(repo, cache, args);
    assert_eq!(warm.stdout, reference.stdout, "{args:?}");
    assert_eq!(warm.stderr, reference.stderr, "{args:?}");
    assert_eq!(warm.status.code(), reference.status.code(), "{args:?}");
    warm
}

/// Blob sizes a run learnt spare the next run opening each object, and still hold files to
/// the size limit of the run that uses them.
#[test]
fn remembered_sizes_still_meet_the_size_limit() {
    let repo = catalog();
    for args in [
        &["HEAD~1..HEAD", "--format", "json"][..],
        &["index", "HEAD"],
    ] {
        let cache = tempfile::tempdir().expect("temp dir");
        run(&repo, cache.path(), args);
        let saved =
            std::fs::read_to_string(cache_file(cache.path()).expect("saved")).expect("text");
        assert!(
            saved.lines().any(|line| line.starts_with("z ")),
            "{args:?}: sizes are saved"
        );
        same_as_without_cache(
            &repo,
            cache.path(),
            &[args, &["--max-file-size", "1M"]].concat(),
        );
        let limited = same_as_without_cache(
            &repo,
            cache.path(),
            &[args, &["--max-file-size", "50"]].concat(),
        );
        assert!(
            String::from_utf8_lossy(&limited.stderr).contains("bytes"),
            "{args:?}: the limit is reported: {}",
            String::from_utf8_lossy(&limited.stderr)
        );
    }
}

/// A remembered size is no proof that the object is there: a blob gone from the object
/// database is the same error, naming its path, with the cache as without it.
#[test]
fn a_missing_object_is_reported_though_its_size_is_remembered() {
    let repo = catalog();
    let cache = tempfile::tempdir().expect("temp dir");
    let args = ["HEAD~1..HEAD", "--format", "json"];
    run(&repo, cache.path(), &args);
    let hex = repo.git(&["rev-parse", "HEAD:events/E5/index.mdx"]);
    repo.remove_object(&hex);
    let warm = same_as_without_cache(&repo, cache.path(), &args);
    assert_eq!(warm.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&warm.stderr);
    assert!(
        stderr.contains("events/E5/index.mdx") && stderr.contains(&hex),
        "{stderr}"
    );
}

/// A run diffs a catalog an earlier run built whole without building it again: its problems
/// and those carried to the other side are the ones a run without the cache reports.
#[test]
fn a_summed_up_catalog_reports_the_same_problems() {
    let repo = catalog();
    repo.write(
        "events/E5/index.mdx",
        "---\nid: E5\nversion: 1.0.5\nschemaPath: missing.json\n---\n",
    );
    repo.commit_all("E5 names a schema that is not there");
    let cache = tempfile::tempdir().expect("temp dir");
    let edits: [(&str, &str); 3] = [
        ("events/E3/schema.json", r#"{"type": "object"}"#),
        ("events/E7/index.mdx", "---\nid: [E7\n---\n"),
        ("events/E7/index.mdx", "---\nid: E7\nversion: 2.0.0\n---\n"),
    ];
    for (path, text) in edits {
        repo.write(path, text);
        repo.git(&["add", path]);
        for args in [&["--staged"][..], &["HEAD~1..HEAD"][..]] {
            let args = [args, &["--format", "json"]].concat();
            let reference = run(&repo, cache.path(), &[&args[..], &["--no-cache"]].concat());
            for _ in 0..2 {
                let got = run(&repo, cache.path(), &args);
                assert_eq!(got.stdout, reference.stdout, "{path} {args:?}");
                assert_eq!(got.stderr, reference.stderr, "{path} {args:?}");
                assert_eq!(got.status.code(), reference.status.code());
            }
        }
    }
    let saved = std::fs::read_to_string(cache_file(cache.path()).expect("saved")).expect("text");
    assert!(
        saved.lines().any(|line| line.starts_with("s ")),
        "summaries are saved"
    );
    // With the schema file the catalog lacks, so a summed-up side is not searched for it.
    assert!(
        saved.lines().any(|line| line.starts_with("s ")
            && line.contains(r#""missing":["events/E5/missing.json"]"#)),
        "a summary keeps what its catalog lacks"
    );
}

#[test]
fn killed_runs_never_leave_a_broken_cache() {
    let repo = catalog();
    let cache = tempfile::tempdir().expect("temp dir");
    let reference = run(
        repo.path(),
        cache.path(),
        &["log", "--format", "json", "--no-cache"],
    );
    for delay_ms in [0u64, 2, 5, 10, 20] {
        let mut child = crate::binary(repo.path())
            .args(["log", "--format", "json"])
            .env("CATALOG_DIFF_CACHE", cache.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn");
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        let after = run(&repo, cache.path(), &["log", "--format", "json"]);
        assert_eq!(
            after.stdout, reference.stdout,
            "after a kill at {delay_ms} ms"
        );
    }
}

#[test]
fn a_cache_folder_inside_the_repository_is_not_used() {
    let repo = catalog();
    let inside = repo.path().join(".cache");
    let out = run(&repo, &inside, &["HEAD~1..HEAD"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("inside the repository"));
    assert!(!inside.exists(), "nothing written into the work tree");
    // Relative, from the root or a subfolder (`relative/cache` was written into the work tree).
    for (cwd, relative) in [
        (repo.path(), "relative/cache"),
        (repo.path().join("events"), "../.c"),
    ] {
        let out = run(&cwd, Path::new(relative), &["HEAD~1..HEAD"]);
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("inside the repository"),
            "{relative}"
        );
    }
    assert_eq!(
        repo.git(&["status", "--porcelain", "--ignored"]),
        "",
        "the repository is untouched"
    );
}

/// The platform folder: `$XDG_CACHE_HOME/catalog-diff`, else `$HOME/.cache/catalog-diff`; a
/// relative `XDG_CACHE_HOME` is ignored, as the XDG spec says (it was used, from the current
/// directory).
#[cfg(all(unix, not(target_os = "macos")))]
#[test]
fn the_platform_cache_folder_follows_xdg() {
    let repo = catalog();
    let home = tempfile::tempdir().expect("temp dir");
    let cwd = tempfile::tempdir().expect("temp dir");
    let repo_path = repo.path();
    let run_with = |xdg: &Path| {
        let out = crate::binary(cwd.path())
            .env_remove("CATALOG_DIFF_CACHE")
            .env("HOME", home.path())
            .env("XDG_CACHE_HOME", xdg)
            .args([
                "-C",
                repo_path.to_str().expect("utf-8"),
                "HEAD~1..HEAD",
                "--fail-on",
                "never",
            ])
            .output()
            .expect("the binary runs");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run_with(Path::new("relative"));
    assert!(!cwd.path().join("relative").exists());
    assert!(cache_file(&home.path().join(".cache/catalog-diff")).is_some());
    let xdg = home.path().join("xdg");
    run_with(&xdg);
    assert!(cache_file(&xdg.join("catalog-diff")).is_some());
}

/// A hook's run for a new staged change appends what it learnt to the file instead of writing
/// it whole; a block cut short (its writer died) is not read, and the next run writes the file
/// whole again.
#[test]
fn a_new_change_appends_to_the_cache_and_a_cut_block_is_not_read() {
    let repo = catalog();
    let cache = tempfile::tempdir().expect("temp dir");
    let args = ["--staged", "--format", "json"];
    let stage = |n: usize| {
        let path = format!("events/E{n}/schema.json");
        repo.write(
            &path,
            &format!(r#"{{"type": "object", "title": "edit {n}"}}"#),
        );
        repo.git(&["add", &path]);
    };
    stage(1);
    same_as_without_cache(&repo, cache.path(), &args);
    let file = cache_file(cache.path()).expect("the cache was written");
    let whole = std::fs::read(&file).expect("read");
    stage(2);
    same_as_without_cache(&repo, cache.path(), &args);
    let appended = std::fs::read(&file).expect("read");
    assert!(
        appended.len() > whole.len() && appended.starts_with(&whole),
        "the file written whole, then a block"
    );
    assert_eq!(appended[whole.len()], b'+', "a block");

    std::fs::write(
        &file,
        &appended[..whole.len() + (appended.len() - whole.len()) / 2],
    )
    .expect("cut the block");
    stage(3);
    same_as_without_cache(&repo, cache.path(), &args);
    let rewritten = std::fs::read_to_string(&file).expect("read");
    assert!(
        !rewritten.lines().any(|line| line.starts_with('+')),
        "written whole again"
    );
    same_as_without_cache(&repo, cache.path(), &args);
}

/// Ids holding tabs, newlines and backslashes are saved escaped in the scope facts, and a warm
/// run answers as a run without the cache does (the codec itself is tested in `scope`).
#[test]
fn odd_ids_give_the_same_answer_from_a_warm_cache() {
    let repo = TestRepo::new();
    let event = r#"Order\tPlaced\\v1"#;
    let other = r#"Pay\nment\\"#;
    repo.write(
        "events/OrderPlaced/index.mdx",
        &format!("---\nid: \"{event}\"\nversion: 1.0.0\nschemaPath: schema.json\n---\n"),
    )
    .write(
        "events/OrderPlaced/schema.json",
        r#"{"type": "object", "properties": {"a": {"type": "string"}}}"#,
    )
    .write(
        "events/Payment/index.mdx",
        &format!("---\nid: \"{other}\"\nversion: 1.0.0\n---\n"),
    )
    .write(
        "services/Orders/index.mdx",
        &format!("---\nid: Orders\nversion: 1.0.0\nsends:\n  - id: \"{event}\"\n---\n"),
    )
    .write(
        "services/Billing/index.mdx",
        &format!(
            "---\nid: Billing\nversion: 1.0.0\nreceives:\n  - id: \"{event}\"\n  - id: \"{other}\"\n---\n"
        ),
    );
    // Enough other files that the change reaches a part of the catalog, not all of it.
    for n in 0..12 {
        repo.write(
            &format!("events/E{n}/index.mdx"),
            &format!("---\nid: E{n}\nversion: 1.0.0\n---\n"),
        );
    }
    repo.commit_all("odd ids");
    repo.write(
        "events/OrderPlaced/schema.json",
        r#"{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}"#,
    );
    // A producer's file changes too, so a reach is cut around it.
    repo.write(
        "services/Orders/index.mdx",
        &format!("---\nid: Orders\nversion: 1.0.1\nsends:\n  - id: \"{event}\"\n---\n"),
    );
    repo.git(&["add", "."]);
    let cache = tempfile::tempdir().expect("temp dir");
    let args = ["--staged", "--format", "json"];
    let cold = same_as_without_cache(&repo, cache.path(), &args);
    let saved = std::fs::read_to_string(cache_file(cache.path()).expect("saved")).expect("text");
    assert!(
        saved
            .lines()
            .any(|line| line.starts_with("r ") && line.contains(r"\t")),
        "facts with an escaped tab are saved"
    );
    let warm = same_as_without_cache(&repo, cache.path(), &args);
    assert_eq!(warm.stdout, cold.stdout);
    let json = String::from_utf8_lossy(&warm.stdout);
    for party in ["Orders", "Billing"] {
        assert!(
            json.contains(&format!("\"{party}\"")),
            "{party} is hurt: {json}"
        );
    }
}

/// Eight runs at once (hooks in eight worktrees of one repository, say), some appending to the
/// file and some writing it whole: each answers as without a cache, and so does the next.
#[test]
fn eight_runs_at_once_leave_a_sound_cache() {
    let repo = catalog();
    let cache = tempfile::tempdir().expect("temp dir");
    let staged = ["--staged", "--format", "json"];
    let log = ["log", "--format", "json"];
    repo.write(
        "events/E1/schema.json",
        r#"{"type": "object", "title": "one"}"#,
    );
    repo.git(&["add", "events/E1/schema.json"]);
    run(&repo, cache.path(), &staged);
    repo.write(
        "events/E2/schema.json",
        r#"{"type": "object", "title": "two"}"#,
    );
    repo.git(&["add", "events/E2/schema.json"]);
    let references = [&staged, &log]
        .map(|args| run(&repo, cache.path(), &[&args[..], &["--no-cache"]].concat()));
    let children: Vec<_> = (0..8)
        .map(|n| {
            let args = if n % 2 == 0 { &staged } else { &log };
            let child = crate::binary(repo.path())
                .args(args)
                .env("CATALOG_DIFF_CACHE", cache.path())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("spawn");
            (n % 2, child)
        })
        .collect();
    for (kind, child) in children {
        let out = child.wait_with_output().expect("wait");
        assert_eq!(out.stdout, references[kind].stdout, "run {kind} at once");
    }
    for args in [&staged, &log] {
        same_as_without_cache(&repo, cache.path(), args);
    }
}

/// A FIFO or a folder where the cache file goes is not read (opening a FIFO waits for a writer,
/// every run) nor written: a note, and the run goes on without a cache.
#[test]
fn a_cache_file_that_is_not_a_regular_file_is_passed_over_with_a_note() {
    let repo = catalog();
    let cache = tempfile::tempdir().expect("temp dir");
    let args = ["HEAD~1..HEAD", "--format", "json"];
    let reference = run(&repo, cache.path(), &args);
    let file = cache_file(cache.path()).expect("the cache was written");
    for make in ["mkfifo", "mkdir"] {
        std::fs::remove_file(&file)
            .or_else(|_| std::fs::remove_dir(&file))
            .expect("remove");
        let made = std::process::Command::new(make).arg(&file).status();
        assert!(made.expect("mkfifo runs").success());
        let out = run(&repo, cache.path(), &args);
        assert_eq!(out.stdout, reference.stdout, "{make}");
        assert_eq!(out.status.code(), reference.status.code(), "{make}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("is not a regular file; running without a cache"),
            "{make}: {stderr}"
        );
    }
}
