//! `catalog-diff hook install | uninstall` on real temporary repositories, proven by running real
//! `git commit`: the installed hook runs the binary under test (the installer embeds its own
//! absolute path, which is `CARGO_BIN_EXE_catalog-diff` here).

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::TestRepo;

const EVENT: &str = "---\nid: OrderCreated\nversion: 1.0.0\nschemaPath: schema.json\n---\n";
const SERVICE: &str = "---\nid: Payments\nversion: 1.0.0\nreceives:\n  - id: OrderCreated\n---\n";
const BEFORE: &str =
    r#"{"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}"#;
const COMPATIBLE: &str = r#"{"type": "object", "properties": {"id": {"type": "string"}, "note": {"type": "string"}}, "required": ["id"]}"#;
const BREAKING: &str = r#"{"type": "object", "properties": {"id": {"type": "string"}}}"#;
const FOREIGN: &str = "#!/bin/sh\necho another tool ran\n";

/// A committed catalog below `prefix` (`""` for the root; otherwise with an
/// `eventcatalog.config.js`, so --dir detection has to find it).
fn catalog_repo(prefix: &str) -> TestRepo {
    let t = TestRepo::new();
    write_catalog(&t, prefix);
    t.commit_all("catalog");
    t
}

fn write_catalog(t: &TestRepo, prefix: &str) {
    let p = |path: &str| format!("{prefix}{path}");
    t.write_all(&[
        (&p("events/OrderCreated/index.mdx"), EVENT),
        (&p("events/OrderCreated/schema.json"), BEFORE),
        (&p("services/Payments/index.mdx"), SERVICE),
    ]);
    if !prefix.is_empty() {
        t.write(&p("eventcatalog.config.js"), "export default {};\n");
    }
}

fn catalog_diff(cwd: &Path, args: &[&str]) -> Output {
    // The same hermetic git config as the test repositories, so no global core.hooksPath leaks in.
    crate::binary(cwd)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env_remove("GIT_DIR")
        .env_remove("GIT_INDEX_FILE")
        .output()
        .expect("catalog-diff runs")
}

fn install(t: &TestRepo, args: &[&str]) -> Output {
    let mut all = vec!["hook", "install"];
    all.extend_from_slice(args);
    let out = catalog_diff(&t.path(), &all);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    out
}

/// `git commit -m change` (plus `extra` arguments) from `cwd`, with the hook's output captured.
fn git_commit(cwd: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["commit", "-q", "-m", "change"];
    args.extend_from_slice(extra);
    crate::support::git_command(cwd, 600)
        .args(&args)
        .env("NO_COLOR", "1")
        .output()
        .expect("git runs")
}

fn text(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn hook_file(t: &TestRepo) -> PathBuf {
    t.path().join(".git/hooks/pre-commit")
}

fn stage_schema(t: &TestRepo, path: &str, schema: &str) {
    t.write(path, schema);
    t.git(&["add", path]);
}

const SCHEMA: &str = "events/OrderCreated/schema.json";

fn assert_refused(t: &TestRepo, head_before: &str, out: &Output) {
    assert_eq!(out.status.code(), Some(1), "{}", text(out));
    let err = stderr(out);
    assert!(
        err.contains("BREAKING") && err.contains("required.removed"),
        "{err}"
    );
    assert!(err.contains("commit refused"), "{err}");
    assert_eq!(t.rev("HEAD"), head_before, "nothing was committed");
}

#[test]
fn breaking_staged_change_is_refused_with_the_report_on_stderr() {
    let t = catalog_repo("");
    let head = t.rev("HEAD");
    install(&t, &[]);
    stage_schema(&t, SCHEMA, BREAKING);
    let out = git_commit(&t.path(), &[]);
    assert_refused(&t, &head, &out);
    assert!(out.stdout.is_empty(), "the report goes to stderr");
}

#[test]
fn compatible_staged_change_commits() {
    let t = catalog_repo("");
    let head = t.rev("HEAD");
    install(&t, &[]);
    stage_schema(&t, SCHEMA, COMPATIBLE);
    let out = git_commit(&t.path(), &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert_ne!(t.rev("HEAD"), head);
}

#[test]
fn fail_on_never_only_warns() {
    let t = catalog_repo("");
    install(&t, &["--fail-on", "never", "--strategy", "forward"]);
    let script = std::fs::read_to_string(hook_file(&t)).unwrap();
    assert!(
        script.contains("--staged --strategy forward --fail-on never"),
        "{script}"
    );
    stage_schema(&t, SCHEMA, BREAKING);
    let out = git_commit(&t.path(), &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(stderr(&out).contains("BREAKING"), "{}", text(&out));
    assert_eq!(t.git(&["show", &format!("HEAD:{SCHEMA}")]), BREAKING);
}

/// `git commit -a` and partly staged files: the hook judges exactly what the commit records
/// (git hands it a temporary index in `GIT_INDEX_FILE`).
#[test]
fn hook_judges_what_the_commit_records() {
    let t = catalog_repo("");
    install(&t, &[]);
    // Staged: compatible; working tree: breaking. A plain commit records the staged version.
    stage_schema(&t, SCHEMA, COMPATIBLE);
    t.write(SCHEMA, BREAKING);
    let out = git_commit(&t.path(), &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(t.git(&["show", &format!("HEAD:{SCHEMA}")]), COMPATIBLE);
    // `commit -a` would record the breaking working tree version.
    let head = t.rev("HEAD");
    let out = git_commit(&t.path(), &["-a"]);
    assert_refused(&t, &head, &out);
    // `git commit <paths>` records those paths' working tree versions, over a staged compatible one.
    stage_schema(&t, SCHEMA, COMPATIBLE);
    t.write(SCHEMA, BREAKING);
    let out = git_commit(&t.path(), &["--", SCHEMA]);
    assert_refused(&t, &head, &out);
}

#[test]
fn foreign_hook_is_kept_and_force_backs_it_up_and_uninstall_restores_it() {
    let t = catalog_repo("");
    let hook = hook_file(&t);
    let backup = t.path().join(".git/hooks/pre-commit.catalog-diff-backup");
    std::fs::create_dir_all(hook.parent().unwrap()).unwrap();
    std::fs::write(&hook, FOREIGN).unwrap();

    let out = catalog_diff(&t.path(), &["hook", "install"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        stderr(&out).contains(&hook.display().to_string()) && stderr(&out).contains("--force"),
        "{}",
        text(&out)
    );
    assert_eq!(std::fs::read_to_string(&hook).unwrap(), FOREIGN);
    let out = catalog_diff(&t.path(), &["hook", "uninstall"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(stderr(&out).contains("left alone"), "{}", text(&out));
    assert_eq!(std::fs::read_to_string(&hook).unwrap(), FOREIGN);

    install(&t, &["--force"]);
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), FOREIGN);
    assert!(
        std::fs::read_to_string(&hook)
            .unwrap()
            .contains("# installed by catalog-diff")
    );
    // Installing again over our own hook needs no --force and keeps the backup.
    install(&t, &["--fail-on", "unknown"]);
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), FOREIGN);

    let out = catalog_diff(&t.path(), &["hook", "uninstall"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(std::fs::read_to_string(&hook).unwrap(), FOREIGN);
    assert!(!backup.exists());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let out = git_commit(&t.path(), &["--allow-empty"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(stderr(&out).contains("another tool ran"), "{}", text(&out));
}

/// A hook that is a symbolic link to a missing file is someone's: kept, then backed up as a
/// link under --force.
#[cfg(unix)]
#[test]
fn a_dangling_symlink_hook_is_foreign() {
    let t = catalog_repo("");
    let hook = hook_file(&t);
    std::fs::create_dir_all(hook.parent().expect("hooks folder")).expect("hooks folder");
    std::os::unix::fs::symlink("../../tools/missing-hook", &hook).expect("symlink");
    let out = catalog_diff(&t.path(), &["hook", "install"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        stderr(&out).contains("was not written by catalog-diff"),
        "{}",
        stderr(&out)
    );
    assert!(
        hook.symlink_metadata()
            .expect("kept")
            .file_type()
            .is_symlink()
    );
    install(&t, &["--force"]);
    let backup = hook.with_file_name("pre-commit.catalog-diff-backup");
    assert!(
        backup
            .symlink_metadata()
            .expect("backed up")
            .file_type()
            .is_symlink()
    );
    let is_link = |path: &std::path::Path| {
        path.symlink_metadata()
            .is_ok_and(|meta| meta.file_type().is_symlink())
    };
    // Uninstalling puts the link back; a backup that is such a link is never overwritten.
    let out = catalog_diff(&t.path(), &["hook", "uninstall"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(is_link(&hook), "restored");
    assert!(backup.symlink_metadata().is_err());
    install(&t, &["--force"]);
    std::fs::remove_file(&hook).expect("our hook");
    std::fs::write(&hook, FOREIGN).expect("another hook");
    let out = catalog_diff(&t.path(), &["hook", "install", "--force"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(is_link(&backup), "kept");
}

#[test]
fn uninstall_without_backup_removes_only_our_hook() {
    let t = catalog_repo("");
    let hooks = t.path().join(".git/hooks");
    let before: Vec<_> = list(&hooks);
    install(&t, &[]);
    assert!(hook_file(&t).exists());
    let out = catalog_diff(&t.path(), &["hook", "uninstall"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(list(&hooks), before, "the hooks folder is as it was");
    let out = catalog_diff(&t.path(), &["hook", "uninstall"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("nothing to do"));
}

fn list(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn core_hooks_path_is_honoured() {
    let t = catalog_repo("");
    let head = t.rev("HEAD");
    t.git(&["config", "core.hooksPath", ".githooks"]);
    install(&t, &[]);
    assert!(t.path().join(".githooks/pre-commit").exists());
    assert!(!hook_file(&t).exists());
    stage_schema(&t, SCHEMA, BREAKING);
    assert_refused(&t, &head, &git_commit(&t.path(), &[]));
}

#[test]
fn linked_worktree_installs_into_the_common_hooks_folder() {
    let t = catalog_repo("");
    let linked = t.path().parent().unwrap().join("linked");
    t.git(&[
        "worktree",
        "add",
        "-q",
        "-b",
        "side",
        linked.to_str().unwrap(),
    ]);
    let out = catalog_diff(&linked, &["hook", "install"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(hook_file(&t).exists());
    // Named as the folder it is, not as `.git/worktrees/linked/../../hooks`.
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .starts_with(&format!("installed {} ", hook_file(&t).display())),
        "{}",
        text(&out)
    );
    let head = crate::support::git_in(&linked, 0, &["rev-parse", "HEAD"]);
    std::fs::write(linked.join(SCHEMA), BREAKING).unwrap();
    crate::support::git_in(&linked, 0, &["add", SCHEMA]);
    let out = git_commit(&linked, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(
        crate::support::git_in(&linked, 0, &["rev-parse", "HEAD"]),
        head
    );
}

#[test]
fn commit_from_a_subfolder() {
    let t = catalog_repo("");
    let head = t.rev("HEAD");
    install(&t, &[]);
    stage_schema(&t, SCHEMA, BREAKING);
    let out = git_commit(&t.path().join("services/Payments"), &[]);
    assert_refused(&t, &head, &out);
}

/// Two catalogs: detection cannot choose, so the hook is installed with `--dir`.
#[test]
fn hook_with_dir_picks_one_of_several_catalogs() {
    let t = catalog_repo("a/");
    write_catalog(&t, "b/");
    t.commit_all("second catalog");
    let head = t.rev("HEAD");
    // A --dir that is not there is refused at install, not at every commit after.
    let out = catalog_diff(&t.path(), &["hook", "install", "--dir", "c"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        stderr(&out).contains("`c` does not exist"),
        "{}",
        stderr(&out)
    );
    assert!(!hook_file(&t).exists(), "nothing installed");
    // Without --dir the hook would refuse every commit: refused at install, saying how.
    let out = catalog_diff(&t.path(), &["hook", "install"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        stderr(&out).contains("a, b")
            && stderr(&out).contains("`catalog-diff hook install --dir PATH`"),
        "{}",
        stderr(&out)
    );
    assert!(!hook_file(&t).exists(), "nothing installed");
    install(&t, &["--dir", "b"]);
    stage_schema(&t, &format!("b/{SCHEMA}"), BREAKING);
    assert_refused(&t, &head, &git_commit(&t.path(), &[]));
}

/// The configuration's `dir` is checked at install as `--dir` is: one that is not there, or a
/// configuration that is not UTF-8, would refuse every commit.
#[test]
fn hook_install_checks_the_configured_dir() {
    let t = catalog_repo("a/");
    write_catalog(&t, "b/");
    t.write("catalog-diff.toml", "dir = \"nope\"\n");
    t.commit_all("second catalog");
    let out = catalog_diff(&t.path(), &["hook", "install"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        stderr(&out).contains("catalog-diff.toml:1: `dir`")
            && stderr(&out).contains("`nope` does not exist")
            && !stderr(&out).contains("--dir"),
        "a configured `dir` is not blamed on --dir: {}",
        stderr(&out)
    );
    assert!(!hook_file(&t).exists(), "nothing installed");
    std::fs::write(t.path().join("catalog-diff.toml"), b"dir = \"b\xff\"\n").unwrap();
    let out = catalog_diff(&t.path(), &["hook", "install"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(stderr(&out).contains("not UTF-8"), "{}", stderr(&out));
    assert!(!hook_file(&t).exists(), "nothing installed");
    t.write("catalog-diff.toml", "dir = \"b\"\n");
    install(&t, &[]);
}

/// A second catalog added after the install: the hook's refusal says to reinstall it with
/// `--dir`, not to pass `--dir` to a command the user never typed.
#[test]
fn a_hook_that_cannot_choose_a_catalog_says_to_reinstall_it() {
    let t = catalog_repo("a/");
    install(&t, &[]);
    write_catalog(&t, "b/");
    t.git(&["add", "-A"]);
    let out = git_commit(&t.path(), &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        stderr(&out).contains(
            "reinstall the hook with the one to check: `catalog-diff hook install --dir PATH`"
        ),
        "{}",
        text(&out)
    );
}

#[test]
fn catalog_in_a_subfolder() {
    let t = catalog_repo("docs/catalog/");
    t.write("README.md", "not the catalog\n");
    t.commit_all("readme");
    let head = t.rev("HEAD");
    install(&t, &[]);
    stage_schema(&t, &format!("docs/catalog/{SCHEMA}"), BREAKING);
    let out = git_commit(&t.path().join("docs"), &[]);
    assert_refused(&t, &head, &out);
}

#[test]
fn repository_without_commits_yet() {
    let t = TestRepo::new();
    install(&t, &[]);
    write_catalog(&t, "");
    t.git(&["add", "-A"]);
    let out = git_commit(&t.path(), &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(t.git(&["show", &format!("HEAD:{SCHEMA}")]), BEFORE);
}

#[test]
fn not_a_repository_and_bare_repository_are_clear_errors() {
    let outside = tempfile::tempdir().unwrap();
    let out = catalog_diff(outside.path(), &["hook", "install"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        stderr(&out).contains("not inside a git repository"),
        "{}",
        text(&out)
    );

    let bare = catalog_repo("").clone_with(&["--bare"]);
    let hooks_before = list(&bare.path().join("hooks"));
    let out = catalog_diff(&bare.path(), &["hook", "install"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(stderr(&out).contains("bare repository"), "{}", text(&out));
    assert_eq!(list(&bare.path().join("hooks")), hooks_before);
}

#[test]
fn unreadable_index_is_a_clear_error() {
    let t = catalog_repo("");
    let index = t.path().join(".git/index");
    std::fs::write(&index, b"DIRC garbage").unwrap();
    let out = catalog_diff(&t.path(), &["--staged"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        stderr(&out).contains("index file") && stderr(&out).contains(".git/index"),
        "{}",
        text(&out)
    );
}

#[cfg(unix)]
#[test]
fn read_only_hooks_folder_is_a_clear_error_and_nothing_changes() {
    use std::os::unix::fs::PermissionsExt;
    let t = catalog_repo("");
    let hooks = t.path().join(".git/hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    std::fs::write(hooks.join("pre-commit"), FOREIGN).unwrap();
    std::fs::set_permissions(&hooks, std::fs::Permissions::from_mode(0o555)).unwrap();
    // root ignores permission bits: there is nothing to prove then.
    let probe = hooks.join("probe");
    let writable = std::fs::write(&probe, "x").is_ok();
    let _ = std::fs::remove_file(&probe);
    if !writable {
        let before = list(&hooks);
        let out = catalog_diff(&t.path(), &["hook", "install", "--force"]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(
            stderr(&out).contains("cannot write in the hooks folder")
                && stderr(&out).contains(&hooks.display().to_string()),
            "{}",
            text(&out)
        );
        assert_eq!(list(&hooks), before);
        assert_eq!(
            std::fs::read_to_string(hooks.join("pre-commit")).unwrap(),
            FOREIGN
        );
    }
    std::fs::set_permissions(&hooks, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A staged rename is no change; a staged deletion is what the commit records (the schema file
/// gone), so `--fail-on unknown` refuses it while the working tree still has the file.
#[test]
fn staged_rename_and_deletion_are_judged_as_recorded() {
    let t = catalog_repo("");
    install(&t, &["--fail-on", "unknown"]);
    t.git(&["mv", "events/OrderCreated", "events/OrderMade"]);
    let out = git_commit(&t.path(), &[]);
    assert!(out.status.success(), "{}", text(&out));

    let head = t.rev("HEAD");
    let schema = "events/OrderMade/schema.json";
    t.git(&["rm", "-q", "--cached", schema]);
    assert!(t.path().join(schema).exists());
    let out = git_commit(&t.path(), &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        stderr(&out).contains("not in the catalog on one side"),
        "{}",
        text(&out)
    );
    assert_eq!(t.rev("HEAD"), head);
}

/// When the binary that installed the hook is gone, the hook runs `catalog-diff` from PATH.
#[cfg(unix)]
#[test]
fn hook_falls_back_to_catalog_diff_on_path() {
    let t = catalog_repo("");
    let head = t.rev("HEAD");
    install(&t, &[]);
    let hook = hook_file(&t);
    let script = std::fs::read_to_string(&hook).unwrap();
    let installed = format!("program={}\n", env!("CARGO_BIN_EXE_catalog-diff"));
    assert!(script.contains(&installed), "{script}");
    std::fs::write(
        &hook,
        script.replace(&installed, "program=/gone/catalog-diff\n"),
    )
    .unwrap();
    let bin = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        env!("CARGO_BIN_EXE_catalog-diff"),
        bin.path().join("catalog-diff"),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    stage_schema(&t, SCHEMA, BREAKING);
    let out = crate::support::git_command(&t.path(), 600)
        .args(["commit", "-q", "-m", "change"])
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_refused(&t, &head, &out);
}

/// core.hooksPath naming a file: exit 2 naming it, and the file is untouched (unlike the
/// read-only case, this is checked for root too).
#[test]
fn hooks_path_that_is_not_a_folder_is_a_clear_error() {
    let t = catalog_repo("");
    t.write("hooks-file", "not a folder\n");
    t.git(&["config", "core.hooksPath", "hooks-file"]);
    let out = catalog_diff(&t.path(), &["hook", "install"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        stderr(&out).contains("is not a folder") && stderr(&out).contains("hooks-file"),
        "{}",
        text(&out)
    );
    assert_eq!(
        std::fs::read_to_string(t.path().join("hooks-file")).unwrap(),
        "not a folder\n"
    );
}

/// What `hook install` says it runs is escaped: a `--dir` holding control characters cannot act
/// on the terminal.
#[test]
fn the_installed_command_is_shown_escaped() {
    let t = catalog_repo("cat\u{1b}[31m/");
    let out = install(&t, &["--dir", "cat\u{1b}[31m"]);
    let stdout = text(&out);
    assert!(!stdout.contains('\u{1b}'), "{stdout}");
    assert!(stdout.contains("--dir cat\\u{1b}[31m"), "{stdout}");
}

/// The pre-commit framework skips a hook when the commit adds or modifies no file: both of its
/// setups the repository offers run catalog-diff always, so a commit that only deletes files
/// (a message still in use) is checked too.
#[test]
fn pre_commit_framework_hooks_run_on_deletions_too() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |file: &str| std::fs::read_to_string(root.join(file)).expect("readable");
    let hooks = read(".pre-commit-hooks.yaml");
    let readme = read("README.md");
    let local = readme
        .split("```yaml")
        .find(|block| block.contains("repo: local"))
        .and_then(|block| block.split("```").next())
        .expect("the README's `repo: local` setup");
    for (name, setup) in [
        (".pre-commit-hooks.yaml", hooks.as_str()),
        ("README", local),
    ] {
        assert!(setup.contains("always_run: true"), "{name}: {setup}");
        assert!(setup.contains("pass_filenames: false"), "{name}: {setup}");
    }
}
