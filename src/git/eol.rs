//! Whether `git add` turns a working-tree file's CRLF line endings into LF, so the file is
//! what the next commit records. Git normalises under a `text` or `eol` attribute, under
//! `text=auto` or `core.autocrlf` (`true`, `input`) for a file it finds to be text, never under
//! `-text` or `binary`; without any of them the CRLF bytes are what a commit records. Macros
//! (`[attr]`) and quoted patterns are not read.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use ignore::gitignore::{Gitignore, GitignoreBuilder};

/// How git treats a file's line endings when it is added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Normalise {
    /// Its bytes are recorded as they are.
    Never,
    /// CRLF becomes LF (`text`).
    Always,
    /// CRLF becomes LF if git finds the file to be text, and the staged blob has no CRLF of
    /// its own (`text=auto`, `core.autocrlf`).
    IfText,
}

/// The `text` attribute as a line sets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Text {
    Set,
    Auto,
    Unset,
    /// `!text`: back to unspecified.
    Unspecified,
}

/// One attributes line that speaks of line endings: its pattern and what it sets (`None`:
/// the line leaves that attribute alone; `eol`: `Some(false)` for `!eol` or a value git does
/// not know).
struct Rule {
    pattern: Gitignore,
    text: Option<Text>,
    eol: Option<bool>,
}

/// The line-ending rules of one working tree, its attributes files read as they are needed.
pub(crate) struct LineEndings {
    workdir: PathBuf,
    autocrlf: bool,
    /// `core.attributesFile`, below every file of the repository.
    global: Vec<Rule>,
    /// `$GIT_DIR/info/attributes`, above every `.gitattributes`.
    info: Vec<Rule>,
    /// Each folder's `.gitattributes` rules (repository-relative folder), once read.
    folders: Mutex<HashMap<String, Arc<Vec<Rule>>>>,
}

impl LineEndings {
    pub(crate) fn new(repo: &gix::Repository, workdir: &Path) -> LineEndings {
        let config = repo.config_snapshot();
        // `autocrlf` alone (no value) is true; `input` is no boolean.
        let autocrlf = config.boolean("core.autocrlf").unwrap_or(false)
            || config
                .string("core.autocrlf")
                .is_some_and(|value| value.eq_ignore_ascii_case(b"input"));
        let global = match config.trusted_path("core.attributesFile") {
            Ok(Some(file)) => read_rules(&file, workdir),
            _ => Vec::new(),
        };
        let info = read_rules(&repo.common_dir().join("info/attributes"), workdir);
        LineEndings {
            workdir: workdir.to_owned(),
            autocrlf,
            global,
            info,
            folders: Mutex::default(),
        }
    }

    /// How git treats the line endings of repository path `path` when it is added.
    pub(crate) fn of(&self, path: &str) -> Normalise {
        let full = self.workdir.join(path);
        // Each attribute on its own: deeper files win over shallower ones, `info/attributes`
        // over all; within a file the last matching line wins.
        let (mut text, mut eol) = said(&self.global, &full);
        let folders = std::iter::once("").chain(path.match_indices('/').map(|(at, _)| &path[..at]));
        for rules in folders.map(|dir| self.folder_rules(dir)) {
            let (t, e) = said(&rules, &full);
            (text, eol) = (t.or(text), e.or(eol));
        }
        let (t, e) = said(&self.info, &full);
        (text, eol) = (t.or(text), e.or(eol));
        match text.unwrap_or(Text::Unspecified) {
            Text::Set => Normalise::Always,
            Text::Unset => Normalise::Never,
            Text::Auto => Normalise::IfText,
            // An `eol` makes the file text, as `text` does.
            Text::Unspecified if eol == Some(true) => Normalise::Always,
            Text::Unspecified if self.autocrlf => Normalise::IfText,
            Text::Unspecified => Normalise::Never,
        }
    }

    fn folder_rules(&self, dir: &str) -> Arc<Vec<Rule>> {
        let mut folders = self.folders.lock().unwrap_or_else(|p| p.into_inner());
        folders
            .entry(dir.to_owned())
            .or_insert_with(|| {
                let base = self.workdir.join(dir);
                Arc::new(read_rules(&base.join(".gitattributes"), &base))
            })
            .clone()
    }
}

/// Whether git's auto-detection finds `bytes` to be text: no NUL, no CR that does not start a
/// CRLF.
pub(crate) fn is_text(bytes: &[u8]) -> bool {
    let lone_cr = bytes
        .iter()
        .enumerate()
        .any(|(at, &b)| b == b'\r' && bytes.get(at + 1) != Some(&b'\n'));
    !lone_cr && !bytes.contains(&0)
}

/// What the last lines of `rules` matching `path` say of `text` and of `eol`.
fn said(rules: &[Rule], path: &Path) -> (Option<Text>, Option<bool>) {
    let matching =
        || (rules.iter().rev()).filter(|rule| rule.pattern.matched(path, false).is_ignore());
    let text = matching().find_map(|rule| rule.text);
    let eol = matching().find_map(|rule| rule.eol);
    (text, eol)
}

/// The lines of attributes file `file` (patterns relative to `base`) that speak of line
/// endings; none when it cannot be read.
fn read_rules(file: &Path, base: &Path) -> Vec<Rule> {
    let Ok(text) = std::fs::read_to_string(file) else {
        return Vec::new();
    };
    text.lines().filter_map(|line| rule(line, base)).collect()
}

fn rule(line: &str, base: &Path) -> Option<Rule> {
    let mut words = line.split_whitespace();
    // Comments, macro definitions (`[attr]`) and quoted patterns are not read.
    let pattern = words
        .next()
        .filter(|p| !p.starts_with('#') && !p.starts_with("[attr]") && !p.starts_with('"'))?;
    let (mut text, mut eol) = (None, None);
    for word in words {
        // A word is a sign (`-` unset, `!` unspecified) and a name; `crlf` is what `text` was
        // called before git 1.7.2. A value git does not know (`text=lf`) leaves the attribute
        // unspecified.
        let name = word.trim_start_matches(['-', '!']);
        let sign = &word[..word.len() - name.len()];
        let name = match name.strip_prefix("crlf") {
            Some(rest) => format!("text{rest}"),
            None => name.to_owned(),
        };
        match (sign, name.as_str()) {
            ("", "text" | "text=input") => text = Some(Text::Set),
            ("", "text=auto") => text = Some(Text::Auto),
            ("-", "text") | ("", "binary") => text = Some(Text::Unset),
            ("!", "text") => text = Some(Text::Unspecified),
            ("", value) if value.starts_with("text=") => text = Some(Text::Unspecified),
            ("", "eol=lf" | "eol=crlf") => eol = Some(true),
            ("!", "eol") => eol = Some(false),
            ("", value) if value.starts_with("eol=") => eol = Some(false),
            _ => {}
        }
    }
    if text.is_none() && eol.is_none() {
        return None;
    }
    let mut builder = GitignoreBuilder::new(base);
    builder.add_line(None, pattern).ok()?;
    let pattern = builder.build().ok()?;
    Some(Rule { pattern, text, eol })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(text: &str) -> Vec<Rule> {
        text.lines()
            .filter_map(|line| rule(line, Path::new("/r")))
            .collect()
    }

    #[test]
    fn each_attribute_is_taken_from_the_last_line_that_sets_it() {
        let rules = rules(
            "# comment\n*.json text\nraw/*.json -text\n*.yml eol=crlf\n*.md diff\n*.txt -text\n*.txt eol=lf\nx.json !text\n",
        );
        let said = |path: &str| said(&rules, &Path::new("/r").join(path));
        assert_eq!(said("a/schema.json"), (Some(Text::Set), None));
        assert_eq!(said("raw/schema.json"), (Some(Text::Unset), None));
        assert_eq!(said("x.yml"), (None, Some(true)));
        assert_eq!(said("index.md"), (None, None));
        // `-text` stays beside a later `eol`: git keeps the bytes.
        assert_eq!(said("a.txt"), (Some(Text::Unset), Some(true)));
        assert_eq!(said("x.json"), (Some(Text::Unspecified), None));
        // The attribute's old name, and values git does not know.
        let old = self::rules("*.a -crlf\n*.b crlf=input\n*.c text=lf\n*.d eol=foo\n");
        let said = |path: &str| super::said(&old, &Path::new("/r").join(path));
        assert_eq!(said("x.a"), (Some(Text::Unset), None));
        assert_eq!(said("x.b"), (Some(Text::Set), None));
        assert_eq!(said("x.c"), (Some(Text::Unspecified), None));
        assert_eq!(said("x.d"), (None, Some(false)));
    }

    #[test]
    fn text_is_what_git_auto_detects_as_text() {
        assert!(is_text(b"a\r\nb\n"));
        assert!(!is_text(b"a\rb\r\n"));
        assert!(!is_text(b"a\0\r\n"));
    }
}
