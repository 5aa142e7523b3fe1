//! The git pre-commit hook as text: rendering the script `catalog-diff hook install` writes and
//! recognising a script we wrote. Pure: finding the hooks folder and touching files is `cli::hook`.

use std::path::Path;

/// The line that marks a hook as ours; `hook install` overwrites and `hook uninstall` removes
/// only files that contain it.
pub const MARKER: &str = "# installed by catalog-diff";

/// The file name git runs before recording a commit.
pub const HOOK_NAME: &str = "pre-commit";

/// Where `hook install --force` keeps the hook it replaced, next to it in the hooks folder.
pub const BACKUP_NAME: &str = "pre-commit.catalog-diff-backup";

/// Set in the environment of the `catalog-diff --staged` the hook runs, so that an error a
/// flag would fix hints at reinstalling the hook with it, not at a command nobody typed.
pub const ENV: &str = "CATALOG_DIFF_HOOK";

/// What the hook runs `catalog-diff --staged` with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options<'a> {
    /// The absolute path of the binary to run; `None` (or a path that is gone when the hook runs)
    /// falls back to `catalog-diff` on PATH.
    pub program: Option<&'a Path>,
    /// The options after `--staged` (`--strategy forward`, `--dir docs/catalog`, ...); what is
    /// not given comes from `catalog-diff.toml` when the hook runs.
    pub args: &'a [String],
}

/// Whether a hook file's contents were written by [`render`].
pub fn is_ours(contents: &[u8]) -> bool {
    contents
        .split(|&b| b == b'\n')
        .any(|line| line.trim_ascii() == MARKER.as_bytes())
}

/// The POSIX sh pre-commit script.
///
/// It changes to the work tree root first, so the catalog folder is detected the same way from
/// any subfolder; git passes the index to check in `GIT_INDEX_FILE`, which `--staged` honours.
/// The report goes to stderr, where git shows hook output, and any non-zero exit (1: the policy
/// tripped, 2: could not run) blocks the commit.
pub fn render(options: &Options<'_>) -> String {
    let program = options.program.map_or_else(
        || "catalog-diff".to_owned(),
        |p| sh_quote(&p.to_string_lossy()),
    );
    format!(
        "#!/bin/sh\n\
         {MARKER}\n\
         # Refuses a commit whose staged EventCatalog changes trip the policy (skip once with\n\
         # `git commit --no-verify`); `catalog-diff hook uninstall` removes this hook.\n\
         program={program}\n\
         # The binary that installed this hook; when it has moved, use the one on PATH.\n\
         [ -x \"$program\" ] || program=catalog-diff\n\
         cd \"$(git rev-parse --show-toplevel)\" || exit 2\n\
         {ENV}=1 \"$program\" --staged{args} >&2\n\
         status=$?\n\
         if [ \"$status\" -ne 0 ]; then\n\
         \x20 echo \"catalog-diff: commit refused (exit $status); skip this check once with git commit --no-verify\" >&2\n\
         fi\n\
         exit \"$status\"\n",
        args = options
            .args
            .iter()
            .map(|arg| format!(" {}", sh_quote(arg)))
            .collect::<String>(),
    )
}

/// `text` as one single-quoted sh word.
fn sh_quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+".contains(&b))
    {
        return text.to_owned();
    }
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(program: Option<&Path>) -> Options<'_> {
        static ARGS: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
            ["--strategy", "full", "--fail-on", "breaking"]
                .map(str::to_owned)
                .to_vec()
        });
        Options {
            program,
            args: &ARGS,
        }
    }

    #[test]
    fn rendered_script_is_recognised_and_a_foreign_one_is_not() {
        let script = render(&options(Some(Path::new("/opt/bin/catalog-diff"))));
        assert!(script.starts_with("#!/bin/sh\n"));
        assert!(is_ours(script.as_bytes()));
        assert!(script.contains("program=/opt/bin/catalog-diff\n"));
        assert!(script.contains("--staged --strategy full --fail-on breaking >&2"));
        assert!(!is_ours(b"#!/bin/sh\nexec lint-staged\n"));
        assert!(!is_ours(b"#!/bin/sh\n# calls catalog-diff --staged\n"));
    }

    #[test]
    fn unknown_program_falls_back_to_path_and_odd_paths_are_quoted() {
        assert!(render(&options(None)).contains("program=catalog-diff\n"));
        let odd = render(&options(Some(Path::new("/my tools/it's/catalog-diff"))));
        assert!(
            odd.contains(r"program='/my tools/it'\''s/catalog-diff'"),
            "{odd}"
        );
    }
}
