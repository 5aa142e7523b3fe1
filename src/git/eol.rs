//! Whether `git add` would turn a working-tree file's CRLF line endings into LF: then a file
//! that differs from its staged blob only so is that blob, as `git status` sees it. Git does it
//! under `core.autocrlf` (`true`, `input`) or a `text`, `text=auto` or `eol` attribute, never
//! under `-text` or `binary`; without any of them the CRLF bytes are what a commit records.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use ignore::gitignore::{Gitignore, GitignoreBuilder};

/// What an attributes line says of line endings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Text {
    /// `text`, `text=auto`: normalised.
    Set,
    /// `-text`, `binary`: never converted.
    Unset,
    /// `eol=lf` or `eol=crlf` with `text` unspecified: normalised.
    Eol,
}

/// One attributes line that speaks of line endings: its pattern and what it says.
struct Rule {
    pattern: Gitignore,
    text: Text,
}

/// The line-ending rules of one working tree, its attributes files read as they are needed.
pub(crate) struct LineEndings {
    workdir: PathBuf,
    autocrlf: bool,
    /// `$GIT_DIR/info/attributes`, which wins over every `.gitattributes`.
    info: Vec<Rule>,
    /// Each folder's `.gitattributes` rules (repository-relative folder), once read.
    folders: Mutex<HashMap<String, Arc<Vec<Rule>>>>,
}

impl LineEndings {
    pub(crate) fn new(repo: &gix::Repository, workdir: &Path) -> LineEndings {
        let config = repo.config_snapshot();
        let autocrlf = config.string("core.autocrlf").is_some_and(|value| {
            let value = value.to_string().to_ascii_lowercase();
            matches!(value.as_str(), "true" | "yes" | "on" | "1" | "input")
        });
        let info = read_rules(&repo.common_dir().join("info/attributes"), workdir);
        LineEndings {
            workdir: workdir.to_owned(),
            autocrlf,
            info,
            folders: Mutex::default(),
        }
    }

    /// Whether git normalises the line endings of repository path `path` when it is added.
    pub(crate) fn normalises(&self, path: &str) -> bool {
        let full = self.workdir.join(path);
        // Deeper files win over shallower ones, `info/attributes` over all; within a file the
        // last matching line wins.
        let mut said = None;
        let folders = std::iter::once("").chain(path.match_indices('/').map(|(at, _)| &path[..at]));
        for dir in folders {
            said = last_said(&self.folder_rules(dir), &full).or(said);
        }
        said = last_said(&self.info, &full).or(said);
        match said {
            Some(Text::Set | Text::Eol) => true,
            Some(Text::Unset) => false,
            None => self.autocrlf,
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

/// What the last line of `rules` matching `path` says, if any says something.
fn last_said(rules: &[Rule], path: &Path) -> Option<Text> {
    rules
        .iter()
        .rev()
        .find(|rule| rule.pattern.matched(path, false).is_ignore())
        .map(|rule| rule.text)
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
    let pattern = words.next().filter(|p| !p.starts_with('#'))?;
    let mut text = None;
    let mut eol = false;
    for word in words {
        match word {
            "text" | "text=auto" => text = Some(Text::Set),
            "-text" | "binary" => text = Some(Text::Unset),
            // `!text` returns the file to unspecified: only `eol` or the configuration decide.
            "!text" => text = None,
            _ if word.starts_with("eol=") => eol = true,
            _ => {}
        }
    }
    let text = text.or(eol.then_some(Text::Eol))?;
    let mut builder = GitignoreBuilder::new(base);
    builder.add_line(None, pattern).ok()?;
    let pattern = builder.build().ok()?;
    Some(Rule { pattern, text })
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
    fn the_last_matching_line_says_how_line_endings_are_read() {
        let rules = rules("# comment\n*.json text\nraw/*.json -text\n*.yml eol=crlf\n*.md diff\n");
        let said = |path: &str| last_said(&rules, &Path::new("/r").join(path));
        assert_eq!(said("a/schema.json"), Some(Text::Set));
        assert_eq!(said("raw/schema.json"), Some(Text::Unset));
        assert_eq!(said("x.yml"), Some(Text::Eol));
        assert_eq!(said("index.md"), None);
    }
}
