//! Finding the catalog directory (cli.md, `--dir`): an explicit `--dir` wins; else the
//! repository root when it holds catalog folders; else the one folder holding an
//! `eventcatalog.config.*` file; several such folders is an error listing them; none is the root.

use std::collections::BTreeSet;
use std::path::{Component, Path};

use gix::bstr::ByteSlice;
use gix::objs::tree::EntryKind;

use super::read::join;
use super::{Error, Repo, Result, Side, Sides};
use crate::catalog::escape_text;

/// Top-level folder names that make a directory a catalog root.
#[rustfmt::skip]
pub const CATALOG_FOLDERS: &[&str] = &[
    "adrs", "agents", "channels", "commands", "containers", "data-products", "diagrams", "domains",
    "entities", "events", "flows", "queries", "services", "systems", "teams", "users",
];

/// File names that mark the folder holding them as a catalog.
pub const CONFIG_FILES: &[&str] = &[
    "eventcatalog.config.js",
    "eventcatalog.config.ts",
    "eventcatalog.config.cjs",
    "eventcatalog.config.mjs",
];

/// A side in words, for messages.
fn describe(side: Side) -> String {
    match side {
        Side::Commit(id) => format!("commit {}", &id.to_string()[..12]),
        Side::Unborn => "the empty repository".to_owned(),
        Side::Staged => "the staged index".to_owned(),
        Side::Worktree => "the working tree".to_owned(),
    }
}

/// Whether a directory name is skipped while looking for config files.
fn skipped(name: &str) -> bool {
    name == "node_modules" || name.starts_with('.')
}

/// Applies the detection rule to repository-relative file paths (`/`-separated); no catalog
/// folders and no config file is the root (an empty catalog, or files at the root).
pub fn detect_from_paths<'a>(paths: impl IntoIterator<Item = &'a str>) -> Result<String> {
    Ok(detect_inner(paths)?.unwrap_or_default())
}

/// `None` when nothing marks a catalog: neither root catalog folders nor a config file.
fn detect_inner<'a>(paths: impl IntoIterator<Item = &'a str>) -> Result<Option<String>> {
    let mut candidates = BTreeSet::new();
    for path in paths {
        if let Some((top, _)) = path.split_once('/')
            && CATALOG_FOLDERS.contains(&top)
        {
            return Ok(Some(String::new()));
        }
        candidates.extend(config_folder(path).map(str::to_owned));
    }
    match candidates.len() {
        0 => Ok(None),
        1 => Ok(candidates.into_iter().next()),
        _ => Err(Error::AmbiguousCatalogDir {
            candidates: candidates.into_iter().collect(),
        }),
    }
}

/// The folder `path` marks as a catalog: its parent when it is a config file outside skipped
/// folders.
fn config_folder(path: &str) -> Option<&str> {
    let (parent, name) = path.rsplit_once('/').unwrap_or(("", path));
    (CONFIG_FILES.contains(&name) && !parent.split('/').any(|c| !c.is_empty() && skipped(c)))
        .then_some(parent)
}

/// When the root is the catalog for its catalog folders while a folder below holds a config
/// file (a monorepo whose code sits in `services/`): (that root folder, those folders).
fn passed_over<'a>(paths: impl IntoIterator<Item = &'a str>) -> Option<(&'a str, Vec<&'a str>)> {
    let mut root_folder = None;
    let mut configs = BTreeSet::new();
    for path in paths {
        if let Some((top, _)) = path.split_once('/')
            && CATALOG_FOLDERS.contains(&top)
        {
            root_folder.get_or_insert(top);
        }
        configs.extend(config_folder(path).filter(|folder| !folder.is_empty()));
    }
    let root_folder = root_folder?;
    (!configs.is_empty()).then(|| (root_folder, configs.into_iter().collect()))
}

/// Normalises an explicit `--dir`: relative to the repository root, `.`/`..` resolved, no
/// leading or trailing `/`. An absolute path must lie inside `workdir`.
pub fn normalize_dir(dir: &str, workdir: Option<&Path>) -> Result<String> {
    let outside = || Error::CatalogDirOutsideRepo {
        dir: dir.to_owned(),
    };
    let path = Path::new(dir);
    let relative = if path.is_absolute() {
        let root = workdir.ok_or_else(outside)?;
        let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_owned());
        let (path, root) = (canon(path), canon(root));
        path.strip_prefix(&root).map_err(|_| outside())?.to_owned()
    } else {
        path.to_owned()
    };
    let mut parts: Vec<String> = Vec::new();
    for component in relative.components() {
        match component {
            Component::Normal(name) => parts.push(name.to_string_lossy().into_owned()),
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop().ok_or_else(outside)?;
            }
            Component::RootDir | Component::Prefix(_) => return Err(outside()),
        }
    }
    Ok(parts.join("/"))
}

impl Repo {
    /// The catalog directory on one side (repository-root relative, `""` = the root).
    pub fn detect_catalog_dir(&self, at: Side, explicit: Option<&str>) -> Result<String> {
        if let Some(dir) = explicit {
            let dir = normalize_dir(dir, self.repo.workdir())?;
            self.refuse_submodule(&dir, &[at])?;
            if !dir.is_empty() && !self.dir_exists(at, &dir)? {
                return Err(self.missing_dir(at, dir, &format!("in {}", describe(at)))?);
            }
            return Ok(dir);
        }
        Ok(self.detect_on(at)?.unwrap_or_default())
    }

    /// Where the catalog is on `at` when it is not in `dir` (it moved): the folder detection
    /// finds there; `None` when nothing marks a catalog on `at`, or it is `dir`.
    pub fn catalog_elsewhere(&self, at: Side, dir: &str) -> Option<String> {
        let found = self.detect_on(at).ok()??;
        (found != dir && matches!(self.dir_exists(at, &found), Ok(true))).then_some(found)
    }

    /// A note for a failed run in the root taken by detection on `at`, when a folder below
    /// holds an `eventcatalog.config.*` file: the root's code folders may be what failed.
    pub fn passed_over_note(&self, at: Side) -> Option<String> {
        let paths = self.detection_paths(at).ok()?;
        let (root_folder, configs) = passed_over(paths.iter().map(String::as_str))?;
        // Folder names from the repository: escaped, as every report is.
        let shown: Vec<String> = configs
            .iter()
            .map(|c| format!("`{}/`", escape_text(c)))
            .collect();
        Some(format!(
            "note: the catalog was taken to be the repository root, which holds `{}/`, but {} holds an eventcatalog.config file\n  hint: if the catalog is there, pass `--dir {}` (or set `dir` in the configuration)",
            escape_text(root_folder),
            shown.join(", "),
            escape_text(configs[0])
        ))
    }

    /// Detection on `at`; `None` when nothing marks a catalog there. A root catalog folder
    /// settles it at once, so a commit's top-level tree is looked at before listing the rest.
    fn detect_on(&self, at: Side) -> Result<Option<String>> {
        let settled = match at {
            Side::Commit(id) => match self.tree_id(id, "")? {
                Some(root) => self.has_root_catalog_folder(root)?,
                None => false,
            },
            Side::Staged => self.index_has_root_catalog_folder()?,
            Side::Worktree | Side::Unborn => false,
        };
        if settled {
            return Ok(Some(String::new()));
        }
        detect_inner(self.detection_paths(at)?.iter().map(String::as_str))
    }

    /// True when an index entry lies in a catalog folder at the root (as `detect_inner`
    /// would find among the index's paths, without listing them).
    fn index_has_root_catalog_folder(&self) -> Result<bool> {
        let Some(index) = self.open_index()? else {
            return Ok(false);
        };
        Ok(index.entries().iter().any(|entry| {
            let path = entry.path(&index);
            CATALOG_FOLDERS.iter().any(|folder| {
                path.strip_prefix(folder.as_bytes())
                    .is_some_and(|rest| rest.starts_with(b"/"))
            })
        }))
    }

    fn has_root_catalog_folder(&self, root: gix::ObjectId) -> Result<bool> {
        let tree = self
            .repo
            .find_tree(root)
            .map_err(|e| self.object_error(&root, "", e))?;
        for entry in tree.iter() {
            let entry = entry.map_err(|source| Error::Git {
                what: "decoding the root tree".into(),
                source,
            })?;
            if entry.mode().is_tree() && CATALOG_FOLDERS.iter().any(|f| entry.filename() == *f) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The catalog directory for both sides: an explicit `--dir` must exist on at least one
    /// side; otherwise the candidate's detection wins, falling back to the baseline's when
    /// nothing marks a catalog on the candidate (for example, the catalog was deleted).
    pub fn detect_catalog_dir_for(&self, sides: &Sides, explicit: Option<&str>) -> Result<String> {
        if let Some(dir) = explicit {
            let dir = normalize_dir(dir, self.repo.workdir())?;
            self.refuse_submodule(&dir, &[sides.candidate(), sides.baseline()])?;
            if dir.is_empty()
                || self.dir_exists(sides.candidate(), &dir)?
                || self.dir_exists(sides.baseline(), &dir)?
            {
                return Ok(dir);
            }
            return Err(self.missing_dir(sides.candidate(), dir, "on either side")?);
        }
        if let Some(dir) = self.detect_on(sides.candidate())? {
            return Ok(dir);
        }
        self.detect_catalog_dir(sides.baseline(), None)
    }

    /// An error when `dir` is a submodule on one of `sides`: its files are another
    /// repository's, so this one would read no catalog there.
    fn refuse_submodule(&self, dir: &str, sides: &[Side]) -> Result<()> {
        for &side in sides {
            if !dir.is_empty() && self.is_submodule(side, dir)? {
                return Err(Error::CatalogDirIsSubmodule {
                    dir: dir.to_owned(),
                });
            }
        }
        Ok(())
    }

    /// The error for a `--dir` that is not a folder on `side`, naming the folders beside it.
    fn missing_dir(&self, side: Side, dir: String, where_: &str) -> Result<Error> {
        let (parent, name) = match dir.rsplit_once('/') {
            Some((parent, name)) => (format!("{parent}/"), name),
            None => (String::new(), dir.as_str()),
        };
        let paths = self.detection_paths(side)?;
        let is_file = paths.contains(&dir);
        let is_link = is_file && self.is_link(side, &dir)?;
        let mut folders: Vec<&str> = paths
            .iter()
            .filter_map(|p| p.strip_prefix(&parent)?.split_once('/').map(|(d, _)| d))
            .collect();
        folders.sort_unstable();
        folders.dedup();
        let nearby = crate::suggest::closest(name, folders)
            .into_iter()
            .map(|folder| format!("{parent}{folder}"))
            .collect();
        Ok(Error::CatalogDirNotFound {
            dir,
            where_: where_.to_owned(),
            is_file,
            is_link,
            nearby,
        })
    }

    /// Whether `path` is a symbolic link on `side`.
    fn is_link(&self, side: Side, path: &str) -> Result<bool> {
        Ok(match side {
            Side::Unborn => false,
            Side::Commit(id) => self
                .entry_at(id, path)?
                .is_some_and(|(mode, _)| mode.is_link()),
            Side::Staged => self.open_index()?.is_some_and(|index| {
                index.entries().iter().any(|entry| {
                    entry.path(&index) == path && entry.mode == gix::index::entry::Mode::SYMLINK
                })
            }),
            Side::Worktree => self.repo.workdir().is_some_and(|workdir| {
                workdir
                    .join(path)
                    .symlink_metadata()
                    .is_ok_and(|meta| meta.file_type().is_symlink())
            }),
        })
    }

    /// The catalog directory of a walk over `commits` (oldest first): detected at the newest
    /// where something marks a catalog, so that a range ending after the catalog was deleted
    /// reads the folder it was deleted from, as the diff of that commit does; an explicit
    /// `--dir` must be a folder in at least one of them.
    pub fn detect_catalog_dir_in(
        &self,
        commits: &[super::CommitId],
        explicit: Option<&str>,
    ) -> Result<String> {
        let Some(&tip) = commits.last() else {
            return Ok(String::new());
        };
        let Some(dir) = explicit else {
            for &commit in commits.iter().rev() {
                if let Some(dir) = self.detect_on(Side::Commit(commit))? {
                    return Ok(dir);
                }
            }
            return Ok(String::new());
        };
        let dir = normalize_dir(dir, self.repo.workdir())?;
        if dir.is_empty() {
            return Ok(dir);
        }
        self.refuse_submodule(&dir, &[Side::Commit(tip)])?;
        for &commit in commits.iter().rev() {
            if self.tree_id(commit, &dir)?.is_some() {
                return Ok(dir);
            }
        }
        Err(self.missing_dir(Side::Commit(tip), dir, "in any commit of the range")?)
    }

    /// Whether `dir` is a folder on `side`.
    pub fn dir_exists(&self, side: Side, dir: &str) -> Result<bool> {
        Ok(match side {
            Side::Commit(id) => self.tree_id(id, dir)?.is_some(),
            Side::Unborn => false,
            Side::Staged => match self.open_index()? {
                Some(index) => {
                    let prefix = format!("{dir}/");
                    index
                        .entries()
                        .iter()
                        .any(|e| e.path(&index).starts_with(prefix.as_bytes()))
                }
                None => false,
            },
            Side::Worktree => self.repo.workdir().is_some_and(|w| is_real_dir(w, dir)),
        })
    }

    /// Repository-relative file paths relevant to detection (hidden folders and node_modules
    /// below the top level are skipped).
    fn detection_paths(&self, at: Side) -> Result<Vec<String>> {
        match at {
            Side::Unborn => Ok(Vec::new()),
            Side::Commit(id) => {
                let mut out = Vec::new();
                if let Some(tree) = self.tree_id(id, "")? {
                    self.list_paths(tree, "", &mut out)?;
                }
                Ok(out)
            }
            Side::Staged => {
                let mut out = Vec::new();
                self.index_detection_paths(false, &mut out)?;
                Ok(out)
            }
            Side::Worktree => {
                let workdir = self
                    .repo
                    .workdir()
                    .ok_or_else(|| self.bare("working tree"))?
                    .to_owned();
                let mut out: Vec<String> = self
                    .worktree_paths(&workdir, "", true)?
                    .into_iter()
                    .filter(|(_, kind)| !matches!(kind, super::read::FsKind::Repository))
                    .map(|(p, _)| p)
                    .collect();
                // Outside a sparse checkout, the index stands in for the working tree.
                self.index_detection_paths(true, &mut out)?;
                Ok(out)
            }
        }
    }

    /// Paths of the index (only skip-worktree and sparse entries with `sparse_only`), with
    /// sparse directories expanded from their trees.
    fn index_detection_paths(&self, sparse_only: bool, out: &mut Vec<String>) -> Result<()> {
        let Some(index) = self.open_index()? else {
            return Ok(());
        };
        for entry in index.entries() {
            let path = entry.path(&index).to_str_lossy().into_owned();
            if entry.mode.is_sparse() {
                let dir = path.trim_end_matches('/');
                out.push(format!("{dir}/"));
                self.list_paths(entry.id, dir, out)?;
            } else if !sparse_only
                || entry
                    .flags
                    .contains(gix::index::entry::Flags::SKIP_WORKTREE)
            {
                out.push(path);
            }
        }
        Ok(())
    }

    /// File paths of a tree, without reading any blob.
    fn list_paths(&self, id: gix::ObjectId, prefix: &str, out: &mut Vec<String>) -> Result<()> {
        let tree = self
            .repo
            .find_tree(id)
            .map_err(|e| self.object_error(&id, prefix, e))?;
        for entry in tree.iter() {
            let entry = entry.map_err(|source| Error::Git {
                what: format!("decoding the tree at `{prefix}`"),
                source,
            })?;
            let name = entry.filename().to_str_lossy().into_owned();
            let path = join(prefix, &name);
            if entry.mode().kind() == EntryKind::Tree {
                // Top-level folders matter by name even when hidden; only look inside visible ones.
                out.push(format!("{path}/"));
                if !skipped(&name) {
                    self.list_paths(entry.object_id(), &path, out)?;
                }
            } else {
                out.push(path);
            }
        }
        Ok(())
    }
}

/// True when `dir` is a folder under `root` with no symbolic link on the way: git holds a
/// link as a file, so a catalog behind one is not part of the repository.
fn is_real_dir(root: &std::path::Path, dir: &str) -> bool {
    let mut path = root.to_path_buf();
    dir.split('/').filter(|part| !part.is_empty()).all(|part| {
        path.push(part);
        std::fs::symlink_metadata(&path).is_ok_and(|meta| meta.is_dir())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_file_below_a_root_taken_for_its_catalog_folders_is_noted() {
        let paths = [
            "services/billing/docs/index.md",
            "eventcatalog/eventcatalog.config.js",
            "eventcatalog/events/E/index.mdx",
            "node_modules/x/eventcatalog.config.js",
        ];
        assert_eq!(detect_from_paths(paths).unwrap(), "");
        assert_eq!(passed_over(paths), Some(("services", vec!["eventcatalog"])));
        assert_eq!(
            passed_over(["eventcatalog.config.js", "events/E/index.mdx"]),
            None
        );
        assert_eq!(passed_over(["events/E/index.mdx"]), None);
    }

    #[test]
    fn root_with_catalog_folders_wins() {
        let dir = detect_from_paths(["events/E/index.mdx", "docs/eventcatalog.config.js"]).unwrap();
        assert_eq!(dir, "");
    }

    #[test]
    fn one_config_folder() {
        let dir = detect_from_paths([
            "README.md",
            "docs/catalog/eventcatalog.config.ts",
            "docs/catalog/x/y.md",
        ]);
        assert_eq!(dir.unwrap(), "docs/catalog");
    }

    #[test]
    fn hidden_and_node_modules_are_skipped() {
        let dir = detect_from_paths([
            "a/node_modules/eventcatalog.config.js",
            ".x/eventcatalog.config.js",
        ]);
        assert_eq!(dir.unwrap(), "");
    }

    #[test]
    fn several_configs_are_an_error() {
        let err = detect_from_paths(["a/eventcatalog.config.js", "b/eventcatalog.config.mjs"])
            .unwrap_err();
        assert!(
            matches!(&err, Error::AmbiguousCatalogDir { candidates } if candidates == &["a", "b"])
        );
        assert!(err.to_string().contains("a, b"));
    }

    #[test]
    fn normalise() {
        assert_eq!(
            normalize_dir("./docs//catalog/", None).unwrap(),
            "docs/catalog"
        );
        assert_eq!(normalize_dir("docs/../cat", None).unwrap(), "cat");
        assert_eq!(normalize_dir(".", None).unwrap(), "");
        assert!(matches!(
            normalize_dir("../x", None),
            Err(Error::CatalogDirOutsideRepo { .. })
        ));
        assert!(matches!(
            normalize_dir("/etc", None),
            Err(Error::CatalogDirOutsideRepo { .. })
        ));
    }
}
