//! Reading one side into a [`FileSet`]: a commit's tree, the staged index, the working tree or a
//! plain folder. Blob bytes go through the [`BlobCache`](super::BlobCache) and are read in
//! parallel; symlinks and submodules are listed in [`FileSet::special`], never followed.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::eol::{Normalise, is_text};
use gix::bstr::{BStr, ByteSlice};
use gix::objs::tree::EntryKind;
use rayon::prelude::*;

use super::index_tree::{Child, IndexTree};
use super::{Error, Repo, Result, Side, blob_id};
use crate::FastSet;
use crate::catalog::{Blob, FileSet, SizeMemory, SpecialEntry};

/// What [`Repo::advance`] changed in a FileSet.
#[derive(Clone, Debug, Default)]
pub struct Changes {
    /// Every file path added, modified or removed, with the blob it held before (`None`: it
    /// was not there).
    pub paths: BTreeMap<String, Option<Blob>>,
    /// True when a symlink or submodule entry appeared, changed or went.
    pub special: bool,
}

impl Changes {
    /// What turns catalog `before` into catalog `after`: one walk over both in path order.
    pub fn between(before: &FileSet, after: &FileSet) -> Changes {
        use std::cmp::Ordering;
        let mut paths = BTreeMap::new();
        let mut old = before.files.iter().peekable();
        let mut new = after.files.iter().peekable();
        loop {
            let order = match (old.peek(), new.peek()) {
                (None, None) => break,
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (Some((a, _)), Some((b, _))) => a.cmp(b),
            };
            match order {
                Ordering::Less => {
                    if let Some((path, blob)) = old.next() {
                        paths.insert(path.clone(), Some(blob.clone()));
                    }
                }
                Ordering::Greater => {
                    if let Some((path, _)) = new.next() {
                        paths.insert(path.clone(), None);
                    }
                }
                Ordering::Equal => {
                    if let (Some((path, blob)), Some((_, other))) = (old.next(), new.next())
                        && blob.id != other.id
                    {
                        paths.insert(path.clone(), Some(blob.clone()));
                    }
                }
            }
        }
        Changes {
            paths,
            special: before.special != after.special,
        }
    }
}

/// Two sides read for a comparison, baseline and candidate, with what reading them learnt.
#[derive(Debug)]
pub struct Pair {
    pub before: BaselineRead,
    pub after: FileSet,
    /// Each side's catalog folder as a tree id, where reading met one: a commit's, or the
    /// index's as `git commit` would record it. Equal ids read as equal FileSets.
    pub trees: [Option<gix::ObjectId>; 2],
}

/// The baseline of a [`Pair`] as read.
#[derive(Debug)]
pub enum BaselineRead {
    Whole(FileSet),
    /// The candidate with `changes` undone, read side by side with it and not copied from it;
    /// `special` are its symlinks, submodules and files over the size limit.
    Undone {
        changes: Changes,
        special: BTreeMap<String, SpecialEntry>,
    },
}

impl Pair {
    /// The baseline, read through the candidate where it was read so.
    pub fn baseline(&self) -> crate::catalog::Baseline<'_> {
        use crate::catalog::{Baseline, Before};
        match &self.before {
            BaselineRead::Whole(files) => Baseline::Whole(files),
            BaselineRead::Undone { changes, special } => Baseline::Undone {
                files: Before {
                    after: &self.after,
                    changes: &changes.paths,
                },
                special,
            },
        }
    }

    /// How the sides differ, when reading them side by side found it.
    pub fn changes(&self) -> Option<&Changes> {
        match &self.before {
            BaselineRead::Whole(_) => None,
            BaselineRead::Undone { changes, .. } => Some(changes),
        }
    }

    /// Two sides read one apart from the other.
    fn apart(before: FileSet, after: FileSet) -> Pair {
        Pair {
            before: BaselineRead::Whole(before),
            after,
            trees: [None, None],
        }
    }
}

/// Where a commit's catalog tree differs from the index, and the index's tree id.
struct Beside {
    index_tree: gix::ObjectId,
    found: Differences,
}

/// The paths where the index differs from a tree (not below one another), and what the
/// tree holds there.
#[derive(Default)]
struct Differences {
    differing: Vec<String>,
    listing: Listing,
}

/// A tree entry whose name is UTF-8 text: name, kind, object id.
type TreeEntry = (String, EntryKind, gix::ObjectId);

/// Files of one side before their bytes are loaded: catalog path -> object id.
#[derive(Default)]
struct Listing {
    blobs: Vec<(String, gix::ObjectId)>,
    special: BTreeMap<String, SpecialEntry>,
}

impl Listing {
    /// Marks `paths` (catalog paths, U+FFFD for each bad byte) as names that are not UTF-8
    /// text: the build reports each, beside every other problem of the catalog.
    fn name_not_utf8(&mut self, paths: impl IntoIterator<Item = String>) {
        let marked = paths.into_iter().map(|p| (p, SpecialEntry::NameNotUtf8));
        self.special.extend(marked);
    }
}

impl Repo {
    /// Reads `side` (see [`Side`]); [`Side::Unborn`] is an empty catalog.
    pub fn read(&self, side: Side, dir: &str) -> Result<FileSet> {
        match side {
            Side::Commit(id) => self.read_commit(id, dir),
            Side::Unborn => Ok(FileSet::default()),
            Side::Staged => self.read_staged(dir),
            Side::Worktree => self.read_worktree(dir),
        }
    }

    /// The file `name` at the repository root on `side` (`catalog-diff.toml`, say), or `None`
    /// when it is not there. Read up to the size limit like every file.
    pub fn read_root_file(&self, side: Side, name: &str) -> Result<Option<Vec<u8>>> {
        let listing = match side {
            Side::Unborn => return Ok(None),
            Side::Worktree => {
                let workdir = self
                    .repo
                    .workdir()
                    .ok_or_else(|| self.bare("working tree"))?;
                let path = workdir.join(name);
                if !path.is_file() {
                    return Ok(None);
                }
                let set = read_files(
                    vec![(name.to_owned(), path)],
                    None,
                    self.max_file_size,
                    &|_, _, _| false,
                )?;
                return root_file(set, name);
            }
            Side::Staged => {
                let Some(index) = self.open_index()? else {
                    return Ok(None);
                };
                let found = index.entries().iter().find(|entry| {
                    entry.path(&index) == name
                        && entry.stage() == gix::index::entry::Stage::Unconflicted
                });
                let Some(entry) = found else {
                    return Ok(None);
                };
                Listing {
                    blobs: vec![(name.to_owned(), entry.id)],
                    ..Listing::default()
                }
            }
            Side::Commit(commit) => {
                let Some(root) = self.tree_id(commit, "")? else {
                    return Ok(None);
                };
                let tree = self
                    .repo
                    .find_tree(root)
                    .map_err(|e| self.object_error(&root, "", e))?;
                let found = tree
                    .iter()
                    .filter_map(|entry| entry.ok())
                    .find(|entry| entry.filename() == name && entry.mode().is_blob());
                let Some(entry) = found else {
                    return Ok(None);
                };
                Listing {
                    blobs: vec![(name.to_owned(), entry.object_id())],
                    ..Listing::default()
                }
            }
        };
        // One file: its header costs less than waiting for the size memory to load.
        root_file(self.load_with(listing, None)?, name)
    }

    /// The blob at repository path `path` in `commit`, if it is a file there.
    pub(crate) fn blob_at(
        &self,
        commit: super::CommitId,
        path: &str,
    ) -> Result<Option<gix::ObjectId>> {
        let commit_obj = self
            .repo
            .find_commit(commit.0)
            .map_err(|e| self.object_error(&commit.0, &commit.to_string(), e))?;
        let tree = commit_obj.tree().map_err(|source| Error::Git {
            what: format!("reading the tree of {commit}"),
            source,
        })?;
        let entry = tree.lookup_entry_by_path(path).map_err(|e| Error::Git {
            what: format!("looking up `{path}` in {commit}"),
            source: e,
        })?;
        Ok(entry.filter(|e| e.mode().is_blob()).map(|e| e.object_id()))
    }

    /// One blob's bytes (through the blob cache), under the size limit.
    pub(crate) fn read_blob(&self, blob: gix::ObjectId, path: &str) -> Result<Blob> {
        let set = self.load(Listing {
            blobs: vec![(path.to_owned(), blob)],
            ..Listing::default()
        })?;
        if let Some(SpecialEntry::TooLarge { size, limit }) = set.special.get(path) {
            return Err(Error::FileTooLarge {
                path: path.to_owned(),
                size: *size,
                limit: *limit,
            });
        }
        set.files
            .get(path)
            .cloned()
            .ok_or_else(|| self.object_missing(&blob, path))
    }

    /// Both sides of a comparison, baseline and candidate.
    pub fn read_sides(&self, sides: &super::Sides, dir: &str) -> Result<Pair> {
        if let super::Sides::CommitVsStaged(Some(commit)) = *sides {
            return self.read_commit_and_staged(commit, dir);
        }
        let read = |side| match side {
            Side::Commit(commit) => {
                let tree = self.tree_id(commit, dir)?;
                Ok((self.read_tree(tree, dir)?, tree))
            }
            side => Ok((self.read(side, dir)?, None)),
        };
        let (before, before_tree) = read(sides.baseline())?;
        let (after, after_tree) = read(sides.candidate())?;
        Ok(Pair {
            before: BaselineRead::Whole(before),
            after,
            trees: [before_tree, after_tree],
        })
    }

    /// The files under `dir` in the tree of `commit`, each read only when asked for: for the
    /// few a comparison reads of an earlier version (its Protobuf imports), where listing the
    /// whole catalog would cost more than they do.
    pub fn commit_files(&self, commit: super::CommitId, dir: &str) -> Result<CommitFiles> {
        Ok(CommitFiles {
            shared: self.shared.clone(),
            tree: self.tree_id(commit, dir)?,
            limit: self.max_file_size,
            too_large: Default::default(),
        })
    }

    /// Every file under `dir` in the tree of `commit`, paths relative to `dir`. A commit without
    /// `dir` gives an empty FileSet.
    pub fn read_commit(&self, commit: super::CommitId, dir: &str) -> Result<FileSet> {
        self.read_tree(self.tree_id(commit, dir)?, dir)
    }

    /// Every file in catalog tree `tree` (of folder `dir`; `None`: there is none).
    fn read_tree(&self, tree: Option<gix::ObjectId>, dir: &str) -> Result<FileSet> {
        let Some(tree) = tree else {
            return Ok(FileSet::default());
        };
        let mut listing = Listing::default();
        self.list_tree(tree, dir, "", &mut listing)?;
        self.load(listing)
    }

    /// Turns `files`, the FileSet of catalog tree `old`, into that of catalog tree `new` by
    /// reading only the subtrees whose ids differ and the blobs that changed: a history walk
    /// pays for what a commit changed, not for the catalog's size. `None` is an absent catalog.
    /// Returns what changed, with the blobs the changed paths held before.
    pub fn advance(
        &self,
        files: &mut FileSet,
        old: Option<gix::ObjectId>,
        new: Option<gix::ObjectId>,
        dir: &str,
    ) -> Result<Changes> {
        let mut listing = Listing::default();
        let mut changes = Changes::default();
        self.diff_tree(files, old, new, dir, "", &mut listing, &mut changes)?;
        changes.special |= !listing.special.is_empty();
        let loaded = self.load(listing)?;
        for (path, blob) in loaded.files {
            let before = files.files.insert(path.clone(), blob);
            changes.paths.entry(path).or_insert(before);
        }
        changes.special |= !loaded.special.is_empty();
        files.special.extend(loaded.special);
        Ok(changes)
    }

    /// Removes from `files` what tree `old` at `prefix` has and `new` lacks, and lists into
    /// `out` what `new` has and `old` lacks or holds differently.
    #[allow(clippy::too_many_arguments)] // one recursion's state
    fn diff_tree(
        &self,
        files: &mut FileSet,
        old: Option<gix::ObjectId>,
        new: Option<gix::ObjectId>,
        dir: &str,
        prefix: &str,
        out: &mut Listing,
        changes: &mut Changes,
    ) -> Result<()> {
        if old == new {
            return Ok(());
        }
        let (old_entries, old_not_utf8) = match old {
            Some(id) => self.tree_entries(id, dir, prefix)?,
            None => Default::default(),
        };
        let (new_entries, new_not_utf8) = match new {
            Some(id) => self.tree_entries(id, dir, prefix)?,
            None => Default::default(),
        };
        // Names that are not UTF-8 text are marked where they are: gone, or new.
        for path in old_not_utf8.iter().filter(|p| !new_not_utf8.contains(p)) {
            changes.special |= files.special.remove(path).is_some();
        }
        out.name_not_utf8(
            new_not_utf8
                .into_iter()
                .filter(|path| !old_not_utf8.contains(path)),
        );
        let new_by_name: HashMap<&str, (EntryKind, gix::ObjectId)> = new_entries
            .iter()
            .map(|(name, kind, id)| (name.as_str(), (*kind, *id)))
            .collect();
        let mut old_trees: HashMap<&str, gix::ObjectId> = HashMap::new();
        for (name, kind, id) in &old_entries {
            let path = join(prefix, name);
            match (kind, new_by_name.get(name.as_str())) {
                (_, Some((new_kind, new_id))) if new_kind == kind && new_id == id => {}
                (EntryKind::Tree, Some((EntryKind::Tree, _))) => {
                    old_trees.insert(name, *id);
                }
                (EntryKind::Tree, _) => remove_under(files, &path, changes),
                _ => {
                    changes.special |= files.special.remove(&path).is_some();
                    if let Some(before) = files.files.remove(&path) {
                        changes.paths.insert(path, Some(before));
                    }
                }
            }
        }
        let old_by_name: HashMap<&str, (EntryKind, gix::ObjectId)> = old_entries
            .iter()
            .map(|(name, kind, id)| (name.as_str(), (*kind, *id)))
            .collect();
        for (name, kind, id) in &new_entries {
            if old_by_name.get(name.as_str()) == Some(&(*kind, *id)) {
                continue;
            }
            let path = join(prefix, name);
            match kind {
                EntryKind::Tree => {
                    let before = old_trees.get(name.as_str()).copied();
                    self.diff_tree(files, before, Some(*id), dir, &path, out, changes)?
                }
                _ => self.list_entry(path, *kind, *id, dir, out)?,
            }
        }
        Ok(())
    }

    /// The entries of tree `id` (catalog path `prefix`): name, kind and object id; and apart,
    /// the catalog paths (U+FFFD for each bad byte) of the entries whose names are not UTF-8
    /// text, which no catalog file can refer to.
    fn tree_entries(
        &self,
        id: gix::ObjectId,
        dir: &str,
        prefix: &str,
    ) -> Result<(Vec<TreeEntry>, Vec<String>)> {
        if prefix.split('/').count() > super::MAX_DEPTH {
            let shown: Vec<&str> = prefix.split('/').take(8).collect();
            return Err(Error::TooDeep {
                path: format!("{}/...", join(dir, &shown.join("/"))),
            });
        }
        let repo_path = join(dir, prefix);
        let tree = self
            .repo
            .find_tree(id)
            .map_err(|e| self.object_error(&id, &repo_path, e))?;
        let (mut entries, mut not_utf8) = (Vec::new(), Vec::new());
        for entry in tree.iter() {
            let entry = entry.map_err(|source| Error::Git {
                what: format!("decoding the tree at `{repo_path}`"),
                source,
            })?;
            match entry.filename().to_str() {
                Ok(name) => entries.push((name.to_owned(), entry.mode().kind(), entry.object_id())),
                Err(_) => not_utf8.push(join(prefix, &entry.filename().to_str_lossy())),
            }
        }
        Ok((entries, not_utf8))
    }

    /// Recursively lists tree `id` (at catalog path `prefix`, repository path `dir/prefix`).
    fn list_tree(
        &self,
        id: gix::ObjectId,
        dir: &str,
        prefix: &str,
        out: &mut Listing,
    ) -> Result<()> {
        let (entries, not_utf8) = self.tree_entries(id, dir, prefix)?;
        for (name, kind, oid) in entries {
            self.list_entry(join(prefix, &name), kind, oid, dir, out)?;
        }
        out.name_not_utf8(not_utf8);
        Ok(())
    }

    /// Lists one tree entry at catalog path `path` into `out`, a folder with all it holds.
    fn list_entry(
        &self,
        path: String,
        kind: EntryKind,
        id: gix::ObjectId,
        dir: &str,
        out: &mut Listing,
    ) -> Result<()> {
        match kind {
            EntryKind::Tree => self.list_tree(id, dir, &path, out)?,
            EntryKind::Blob | EntryKind::BlobExecutable => out.blobs.push((path, id)),
            EntryKind::Link => {
                out.special.insert(path, SpecialEntry::Symlink);
            }
            EntryKind::Commit => {
                out.special.insert(path, SpecialEntry::Submodule);
            }
        }
        Ok(())
    }

    /// The staged index (honouring `GIT_INDEX_FILE`), restricted to `dir`. Entries staged for
    /// deletion are absent, intent-to-add entries (`git add -N`) are skipped, and unmerged
    /// entries are an [`Error::Conflict`]. No index file yet means nothing is staged.
    pub fn read_staged(&self, dir: &str) -> Result<FileSet> {
        match self.open_index()? {
            Some(index) => self.load(self.list_staged(&index, dir)?),
            None => Ok(FileSet::default()),
        }
    }

    /// `commit` and the staged index under `dir`, as [`Repo::read_commit`] and
    /// [`Repo::read_staged`] read them. The commit side is the staged one with the paths where
    /// the commit's tree differs from the index's put back ([`BaselineRead::Undone`]), read
    /// through the staged side rather than copied: only the trees along the staged changes are
    /// read, and the changes are found there.
    fn read_commit_and_staged(&self, commit: super::CommitId, dir: &str) -> Result<Pair> {
        let Some(index) = self.open_index()? else {
            return Ok(Pair::apart(
                self.read_commit(commit, dir)?,
                FileSet::default(),
            ));
        };
        // Both sides are listed before either is loaded, so the size memory (read on a thread
        // of its own) is waited for as late as it can be.
        let listed = self.list_staged(&index, dir)?;
        let Some(tree) = self.tree_id(commit, dir)? else {
            return Ok(Pair::apart(FileSet::default(), self.load(listed)?));
        };
        let Some(beside) = self.beside_index(&index, tree, dir)? else {
            return Ok(Pair::apart(
                self.read_commit(commit, dir)?,
                self.load(listed)?,
            ));
        };
        let staged = self.load(listed)?;
        // What the index holds where the commit differs, and what the commit holds there.
        let mut staged_part = FileSet::default();
        let mut special = staged.special.clone();
        for path in &beside.found.differing {
            copy_under(&staged, path, &mut staged_part);
            special.retain(|entry, _| !is_under(entry, path));
        }
        let commit_part = self.load(beside.found.listing)?;
        let mut changes = Changes::between(&commit_part, &staged_part);
        special.extend(commit_part.special);
        changes.special = special != staged.special;
        Ok(Pair {
            before: BaselineRead::Undone { changes, special },
            after: staged,
            trees: [Some(tree), Some(beside.index_tree)],
        })
    }

    /// Where tree `tree` (the catalog folder `dir` of a commit) differs from `index`. `None`
    /// when the index has no trees to compare with: a sparse index holds folders as entries,
    /// and entries can form no tree (out of order, or a path both a file and a folder).
    fn beside_index(
        &self,
        index: &gix::worktree::Index,
        tree: gix::ObjectId,
        dir: &str,
    ) -> Result<Option<Beside>> {
        if index.is_sparse() {
            return Ok(None);
        }
        let entries = staged_entries(index).filter_map(|entry| {
            let path = strip_dir_bytes(entry.path(index), dir)?;
            Some((path, entry.mode.to_tree_entry_mode()?, entry.id))
        });
        let hash = self.repo.object_hash();
        let Some(index_tree) = IndexTree::new(entries, index.tree(), dir, hash) else {
            return Ok(None);
        };
        let root = index_tree.dir("");
        let index_id = root.as_ref().map(|(id, _)| *id);
        let mut found = Differences::default();
        self.differences(tree, root, &index_tree, dir, "", &mut found)?;
        Ok(index_id
            .filter(|_| !index_tree.formed_no_tree())
            .map(|index_tree| Beside { index_tree, found }))
    }

    /// Lists into `found` what tree `id` (catalog path `prefix`) holds where `staged`, the
    /// index's directory there ([`IndexTree::dir`]), differs, and the paths where the
    /// index's content differs.
    fn differences<'a>(
        &self,
        id: gix::ObjectId,
        staged: Option<(gix::ObjectId, Vec<Child<'a>>)>,
        index: &IndexTree<'a>,
        dir: &str,
        prefix: &str,
        found: &mut Differences,
    ) -> Result<()> {
        let staged = match staged {
            Some((staged, _)) if staged == id => return Ok(()),
            Some((_, children)) => children,
            None => Vec::new(),
        };
        let (entries, not_utf8) = self.tree_entries(id, dir, prefix)?;
        // The index holds no such name where its trees are compared (`IndexTree` needs UTF-8).
        found.differing.extend(not_utf8.iter().cloned());
        found.listing.name_not_utf8(not_utf8);
        let names: HashSet<&str> = entries.iter().map(|(name, ..)| name.as_str()).collect();
        for (name, ..) in &staged {
            if !names.contains(name) {
                found.differing.push(join(prefix, name));
            }
        }
        let staged: HashMap<&str, (EntryKind, gix::ObjectId)> = staged
            .iter()
            .map(|(name, mode, id)| (*name, (mode.kind(), *id)))
            .collect();
        for (name, kind, id) in entries {
            let path = join(prefix, &name);
            match (kind, staged.get(name.as_str())) {
                (kind, Some(&same)) if same == (kind, id) => {}
                (EntryKind::Tree, Some((EntryKind::Tree, _))) => {
                    self.differences(id, index.dir(&path), index, dir, &path, found)?
                }
                (kind, staged) => {
                    if staged.is_some() {
                        found.differing.push(path.clone());
                    }
                    self.list_entry(path, kind, id, dir, &mut found.listing)?;
                }
            }
        }
        Ok(())
    }

    /// The index's entries under `dir`, listed as [`Repo::read_staged`] reads them.
    fn list_staged(&self, index: &gix::worktree::Index, dir: &str) -> Result<Listing> {
        let mut listing = Listing::default();
        let mut conflicts = Vec::new();
        for entry in index.entries() {
            if entry.stage() != gix::index::entry::Stage::Unconflicted {
                let repo_path = entry.path(index).to_str_lossy().into_owned();
                if strip_dir(&repo_path, dir).is_some() && conflicts.last() != Some(&repo_path) {
                    conflicts.push(repo_path);
                }
            }
        }
        if !conflicts.is_empty() {
            return Err(Error::Conflict { paths: conflicts });
        }
        // Room for every entry at once, as for the lists below.
        listing.blobs.reserve(index.entries().len());
        for entry in staged_entries(index) {
            let path = entry.path(index);
            // Borrowed where it is UTF-8, as nearly every path is: one copy fewer per entry.
            let repo_path = path.to_str_lossy();
            if path.to_str().is_err() {
                let names = path.split(|&byte| byte == b'/').map(|name| {
                    let is_utf8 = std::str::from_utf8(name).is_ok();
                    (String::from_utf8_lossy(name), is_utf8)
                });
                let shown = up_to_first_not_utf8(names);
                listing.name_not_utf8(strip_dir(&shown, dir).map(str::to_owned));
                continue;
            }
            self.list_index_entry(entry, &repo_path, dir, &mut listing)?;
        }
        Ok(listing)
    }

    /// Adds one index entry (at repository path `repo_path`) to `out` when it lies under `dir`.
    /// A sparse-index directory entry is expanded from its tree.
    fn list_index_entry(
        &self,
        entry: &gix::index::Entry,
        repo_path: &str,
        dir: &str,
        out: &mut Listing,
    ) -> Result<()> {
        if entry.mode.is_sparse() {
            let sparse_dir = repo_path.trim_end_matches('/');
            if let Some(prefix) = strip_dir(sparse_dir, dir) {
                return self.list_tree(entry.id, dir, prefix, out);
            }
            if sparse_dir == dir {
                return self.list_tree(entry.id, dir, "", out);
            }
            // The catalog lies inside a sparse directory.
            if let Some(rest) = dir
                .strip_prefix(sparse_dir)
                .and_then(|r| r.strip_prefix('/'))
            {
                let tree = self
                    .repo
                    .find_tree(entry.id)
                    .map_err(|e| self.object_error(&entry.id, sparse_dir, e))?;
                let sub = tree
                    .lookup_entry_by_path(rest)
                    .map_err(|source| Error::Git {
                        what: format!("looking up `{dir}` in the index"),
                        source,
                    })?;
                if let Some(sub) = sub.filter(|e| e.mode().is_tree()) {
                    self.list_tree(sub.object_id(), dir, "", out)?;
                }
            }
            return Ok(());
        }
        let Some(path) = strip_dir(repo_path, dir) else {
            return Ok(());
        };
        match entry.mode.to_tree_entry_mode().map(|m| m.kind()) {
            Some(EntryKind::Blob | EntryKind::BlobExecutable) => {
                out.blobs.push((path.to_owned(), entry.id))
            }
            Some(EntryKind::Link) => {
                out.special.insert(path.to_owned(), SpecialEntry::Symlink);
            }
            Some(EntryKind::Commit) => {
                out.special.insert(path.to_owned(), SpecialEntry::Submodule);
            }
            Some(EntryKind::Tree) | None => {}
        }
        Ok(())
    }

    /// The index file, or `None` when there is none yet.
    pub(crate) fn open_index(&self) -> Result<Option<gix::worktree::Index>> {
        match self.repo.try_index() {
            Ok(Some(index)) => Ok(Some(index)),
            Ok(None) if self.repo.workdir().is_none() => Err(self.bare("staged index")),
            Ok(None) => Ok(None),
            Err(source) => Err(Error::InvalidIndex {
                path: self.repo.index_path(),
                source,
            }),
        }
    }

    /// What is wrong with the objects of `blobs` that cannot be read: every missing one, named
    /// together, and any other failure. Only called once a lookup failed, so the usual run,
    /// where every object is there, looks each up once.
    fn unreadable<'a>(
        &self,
        blobs: impl Iterator<Item = (&'a String, &'a gix::ObjectId)>,
    ) -> Error {
        let mut missing = Vec::new();
        let mut errors = Vec::new();
        for (path, oid) in blobs {
            if !self.repo.has_object(oid) {
                missing.push((oid.to_hex().to_string(), path.clone()));
            } else if let Err(source) = self.repo.find_header(*oid) {
                errors.push(Error::Git {
                    what: format!("reading object {} ({path})", oid.to_hex()),
                    source,
                });
            }
        }
        if !missing.is_empty() || errors.is_empty() {
            let hint = match missing.is_empty() {
                true => {
                    "the object database changed during the run (a fetch or gc?): run again".into()
                }
                false => self.missing_hint(),
            };
            errors.insert(
                0,
                Error::ObjectsMissing {
                    objects: missing,
                    hint,
                },
            );
        }
        match errors.len() {
            1 => errors.remove(0),
            _ => Error::Several { errors },
        }
    }

    /// The working tree under `dir`, honouring `.gitignore` files and `.git/info/exclude`.
    /// Tracked files are included even when an ignore rule matches them, as git does;
    /// submodules come from the index's gitlinks. Symlinks are listed, not followed.
    pub fn read_worktree(&self, dir: &str) -> Result<FileSet> {
        let workdir = self
            .repo
            .workdir()
            .ok_or_else(|| self.bare("working tree"))?
            .to_owned();
        let paths = self.worktree_paths(&workdir, dir, false)?;
        let mut files: Vec<(String, PathBuf)> = Vec::new();
        let mut special = BTreeMap::new();
        for (repo_path, kind) in paths {
            let Some(path) = strip_dir(&repo_path, dir) else {
                continue;
            };
            match kind {
                FsKind::File => files.push((path.to_owned(), workdir.join(&repo_path))),
                FsKind::Symlink => {
                    special.insert(path.to_owned(), SpecialEntry::Symlink);
                }
                FsKind::NameNotUtf8 => {
                    special.insert(path.to_owned(), SpecialEntry::NameNotUtf8);
                }
                FsKind::Repository => {
                    special.insert(path.to_owned(), SpecialEntry::Repository);
                }
            }
        }
        // Tracked files hidden by ignore rules, and submodules, come from the index; so do
        // entries outside a sparse checkout (skip-worktree), which git takes as unchanged.
        let mut from_index = Listing::default();
        let index = self.open_index()?;
        if let Some(index) = &index {
            let seen: HashSet<String> = files
                .iter()
                .map(|(p, _)| p.clone())
                .chain(special.keys().cloned())
                .collect();
            for entry in index.entries() {
                let repo_path = entry.path(index).to_str_lossy().into_owned();
                let skip_worktree = entry
                    .flags
                    .contains(gix::index::entry::Flags::SKIP_WORKTREE);
                if entry.stage() == gix::index::entry::Stage::Unconflicted
                    && (skip_worktree || entry.mode.is_sparse())
                {
                    self.list_index_entry(entry, &repo_path, dir, &mut from_index)?;
                    continue;
                }
                let Some(path) = strip_dir(&repo_path, dir) else {
                    continue;
                };
                // A checked-out submodule is a repository of its own on disk, too.
                if seen.contains(path)
                    && !(entry.mode.is_submodule()
                        && special.get(path) == Some(&SpecialEntry::Repository))
                {
                    continue;
                }
                let on_disk = workdir.join(&repo_path);
                let meta = std::fs::symlink_metadata(&on_disk).ok();
                if entry.mode.is_submodule() {
                    if meta.as_ref().is_none_or(|m| m.is_dir()) {
                        special.insert(path.to_owned(), SpecialEntry::Submodule);
                    }
                } else if let Some(meta) = meta {
                    if meta.file_type().is_symlink() {
                        special.insert(path.to_owned(), SpecialEntry::Symlink);
                    } else if meta.is_file() {
                        files.push((path.to_owned(), on_disk));
                    }
                }
            }
        }
        let index_paths: HashSet<&str> = from_index
            .blobs
            .iter()
            .map(|(p, _)| p.as_str())
            .chain(from_index.special.keys().map(String::as_str))
            .collect();
        files.retain(|(p, _)| !index_paths.contains(p.as_str()));
        special.retain(|p, _| !index_paths.contains(p.as_str()));
        let from_index = self.load(from_index)?;
        let line_endings = super::eol::LineEndings::new(&self.repo, &workdir);
        // Git's auto-detection leaves a file's CRLF as it is when its staged blob holds CRLF
        // too: read only for a file that, normalised, is not its staged blob (an edited one).
        let shared = &self.shared;
        let staged = |path: &str| {
            let index = index.as_ref()?;
            let entry = index
                .entry_by_path_and_stage(path.into(), gix::index::entry::Stage::Unconflicted)?;
            Some(entry.id)
        };
        let keeps_crlf = |path: &str, lf: &[u8]| {
            let Some(id) = staged(path) else {
                return false;
            };
            let lf_id = gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, lf);
            if lf_id.is_ok_and(|lf_id| lf_id == id) {
                return false;
            }
            let repo = super::handle(shared);
            let blob = repo.find_blob(id).ok();
            blob.is_some_and(|blob| blob.data.windows(2).any(|pair| pair == b"\r\n"))
        };
        let normalised = |path: &str, bytes: &[u8], lf: &[u8]| {
            let path = join(dir, path);
            match line_endings.of(&path) {
                Normalise::Never => false,
                Normalise::Always => true,
                Normalise::IfText => is_text(bytes) && !keeps_crlf(&path, lf),
            }
        };
        let mut set = read_files(files, Some(self.cache()), self.max_file_size, &normalised)?;
        set.files.extend(from_index.files);
        set.special.extend(special);
        set.special.extend(from_index.special);
        Ok(set)
    }

    /// Repository-relative paths of non-ignored files and symlinks on the way to and under `dir`.
    /// With `prune_hidden`, hidden folders and `node_modules` are not entered (catalog detection).
    pub(crate) fn worktree_paths(
        &self,
        workdir: &Path,
        dir: &str,
        prune_hidden: bool,
    ) -> Result<Vec<(String, FsKind)>> {
        let mut builder = ignore::WalkBuilder::new(workdir);
        builder
            .hidden(false)
            .parents(false)
            .ignore(false)
            .git_ignore(true)
            .git_global(false)
            .git_exclude(true)
            .require_git(false)
            .follow_links(false);
        // `git_exclude` reads `<workdir>/.git/info/exclude`; a git dir elsewhere (GIT_DIR, linked
        // worktrees) has its own exclude file.
        let exclude = self.repo.common_dir().join("info").join("exclude");
        if self.repo.common_dir() != workdir.join(".git") && exclude.is_file() {
            builder.add_ignore(&exclude);
        }
        if let Some(global) = self.global_excludes_file().filter(|p| p.is_file()) {
            // git's global excludes (`core.excludesFile`, else `~/.config/git/ignore`), e.g. `.DS_Store`.
            builder.add_ignore(&global);
        }
        let root = workdir.to_owned();
        let dir_owned = dir.to_owned();
        let repositories = Arc::new(std::sync::Mutex::new(Vec::new()));
        let found = Arc::clone(&repositories);
        builder.filter_entry(move |entry| {
            if entry.file_name() == ".git" {
                return false;
            }
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            if prune_hidden && is_dir && entry.depth() > 0 {
                let name = entry.file_name().to_string_lossy();
                if name == "node_modules" || name.starts_with('.') {
                    return false;
                }
            }
            let Ok(rel) = entry.path().strip_prefix(&root) else {
                return true;
            };
            let rel = rel
                .iter()
                .map(|name| name.to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            if rel.is_empty() {
                return true;
            }
            // Only descend towards `dir` and into it.
            let on_path = dir_owned.is_empty()
                || rel == dir_owned
                || dir_owned.starts_with(&format!("{rel}/"))
                || rel.starts_with(&format!("{dir_owned}/"));
            if !on_path {
                return false;
            }
            // A nested repository is not part of this work tree: not entered, and kept (with a
            // submodule, which comes from the index, it is one entry).
            let nested = is_dir && entry.path().join(".git").exists();
            if nested {
                super::lock(&found).push(rel);
            }
            !nested
        });
        let mut out = Vec::new();
        let mut not_utf8 = BTreeSet::new();
        for entry in builder.build() {
            let entry = entry.map_err(|e| walk_error(workdir, e))?;
            let Some(file_type) = entry.file_type() else {
                continue;
            };
            let Ok(rel) = entry.path().strip_prefix(workdir) else {
                continue;
            };
            let Some(rel) = catalog_path(rel) else {
                not_utf8.insert(first_name_not_utf8(rel));
                continue;
            };
            if file_type.is_symlink() {
                out.push((rel, FsKind::Symlink));
            } else if file_type.is_file() {
                out.push((rel, FsKind::File));
            }
        }
        out.extend(not_utf8.into_iter().map(|rel| (rel, FsKind::NameNotUtf8)));
        let repositories = std::mem::take(&mut *super::lock(&repositories));
        out.extend(
            repositories
                .into_iter()
                .map(|rel| (rel, FsKind::Repository)),
        );
        Ok(out)
    }

    /// `core.excludesFile`, else `$XDG_CONFIG_HOME/git/ignore` or `~/.config/git/ignore`, the way
    /// git finds it (gix's own lookup needs its `excludes` feature, which we do not enable).
    fn global_excludes_file(&self) -> Option<PathBuf> {
        let configured = self
            .repo
            .config_snapshot()
            .trusted_path("core.excludesFile")
            .ok()
            .flatten();
        configured
            .or_else(|| gix::path::env::xdg_config("ignore", &mut |name| std::env::var_os(name)))
    }

    /// Lists every blob as a deferred [`Blob`], read when first used: a run whose parses are
    /// cached never inflates those files. Each object is looked up now, in parallel (one gix
    /// handle per rayon job split, pitfall 6), so a missing object is an error naming its path,
    /// and its size is checked against the limit, so a file over it is never inflated. A size
    /// the size memory knows needs only a lookup in the pack index; any other comes from the
    /// object's header, whose delta chain is walked.
    fn load(&self, listing: Listing) -> Result<FileSet> {
        self.load_with(listing, self.store.memory.get())
    }

    /// [`Repo::load`], with sizes from `memory` only.
    fn load_with(&self, listing: Listing, memory: Option<&Arc<dyn SizeMemory>>) -> Result<FileSet> {
        // The blobs this run has not looked up yet, with their remembered sizes.
        let new = {
            let sizes = super::lock(&self.store.sizes);
            let mut seen = FastSet::default();
            seen.reserve(listing.blobs.len());
            let mut new = Vec::with_capacity(listing.blobs.len());
            new.extend(listing.blobs.iter().filter_map(|(path, oid)| {
                let id = blob_id(oid);
                let new =
                    !sizes.contains_key(&id) && seen.insert(id) && self.cache().get(&id).is_none();
                new.then_some((path, oid, id))
            }));
            new
        };
        let remembered = match memory {
            Some(memory) => memory.sizes(&new.iter().map(|&(.., id)| id).collect::<Vec<_>>()),
            None => vec![None; new.len()],
        };
        let shared = &self.shared;
        let found = new
            .par_iter()
            .zip(remembered)
            .map_init(
                || super::handle(shared),
                |repo, (&(_, oid, id), remembered)| {
                    let size = match remembered {
                        Some(size) if repo.has_object(oid) => Some(size),
                        Some(_) => None,
                        None => repo.find_header(*oid).ok().map(|h| h.size()),
                    };
                    size.map(|size| (id, size, remembered.is_none()))
                },
            )
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| self.unreadable(new.iter().map(|&(path, oid, _)| (path, oid))))?;
        if let Some(memory) = memory {
            for &(id, size, read) in &found {
                if read {
                    memory.learn(id, size);
                }
            }
        }
        let mut set = FileSet {
            special: listing.special,
            ..FileSet::default()
        };
        let limit = self.max_file_size;
        let mut sizes = super::lock(&self.store.sizes);
        let largest = found.iter().map(|&(_, size, _)| size).max().unwrap_or(0);
        let largest = (self.store.largest)
            .fetch_max(largest, Ordering::Relaxed)
            .max(largest);
        sizes.extend(found.into_iter().map(|(id, size, _)| (id, size)));
        // Usually no file is over the limit, and the listing is not searched for one.
        for (path, id) in listing.blobs.iter().filter(|_| largest > limit) {
            if let Some(&size) = sizes.get(&blob_id(id))
                && size > limit
            {
                set.special
                    .insert(path.clone(), SpecialEntry::TooLarge { size, limit });
            }
        }
        drop(sizes);
        let store: Arc<dyn crate::catalog::BlobStore> = self.store.clone();
        // Collected at once, the map is built from the sorted entries instead of one insert
        // at a time, and the list it sorts has room for them all from the start.
        let mut files = Vec::with_capacity(listing.blobs.len());
        files.extend(
            listing
                .blobs
                .into_iter()
                .filter(|(path, _)| !set.special.contains_key(path))
                .map(|(path, oid)| (path, Blob::deferred(blob_id(&oid), store.clone()))),
        );
        set.files = files.into_iter().collect();
        Ok(set)
    }
}

/// A commit's files under one folder, read when asked for ([`Repo::commit_files`]). A file
/// that is not there, not a regular file, larger than the size limit or unreadable is `None`,
/// as a missing import is.
pub struct CommitFiles {
    shared: gix::ThreadSafeRepository,
    tree: Option<gix::ObjectId>,
    limit: u64,
    /// The files asked for that are over the limit, with their sizes: not read, and why.
    too_large: std::sync::Mutex<Vec<(String, u64)>>,
}

impl CommitFiles {
    /// Why a comparison that read these files found one missing, when it was there but over
    /// the size limit.
    pub fn too_large(&self) -> Option<String> {
        let found = super::lock(&self.too_large);
        let (path, size) = found.first()?;
        Some(format!(
            "`{path}` is {size} bytes in that commit, over the limit of {} bytes, so it was not read (raise it with --max-file-size)",
            self.limit
        ))
    }
}

impl crate::schema::Files for CommitFiles {
    fn read(&self, path: &str) -> Option<Arc<[u8]>> {
        let repo = self.shared.to_thread_local();
        let tree = repo.find_tree(self.tree?).ok()?;
        let entry = tree.lookup_entry_by_path(path).ok()??;
        if !entry.mode().is_blob() {
            return None;
        }
        let id = entry.object_id();
        let size = repo.find_header(id).ok()?.size();
        if size > self.limit {
            super::lock(&self.too_large).push((path.to_owned(), size));
            return None;
        }
        Some(repo.find_blob(id).ok()?.take_data().into())
    }
}

/// The index entries a commit would record: unconflicted and not intent-to-add.
fn staged_entries(index: &gix::worktree::Index) -> impl Iterator<Item = &gix::index::Entry> {
    index.entries().iter().filter(|entry| {
        entry.stage() == gix::index::entry::Stage::Unconflicted
            && !entry
                .flags
                .contains(gix::index::entry::Flags::INTENT_TO_ADD)
    })
}

/// Repository path `path` below catalog folder `dir`, as raw bytes.
fn strip_dir_bytes<'a>(path: &'a BStr, dir: &str) -> Option<&'a [u8]> {
    if dir.is_empty() {
        return Some(path);
    }
    let rest = path.strip_prefix(dir.as_bytes())?.strip_prefix(b"/")?;
    (!rest.is_empty()).then_some(rest)
}

/// The bytes of `name` in a one-file set; a file over the size limit is an error.
fn root_file(set: FileSet, name: &str) -> Result<Option<Vec<u8>>> {
    if let Some(SpecialEntry::TooLarge { size, limit }) = set.special.get(name) {
        return Err(Error::FileTooLarge {
            path: name.to_owned(),
            size: *size,
            limit: *limit,
        });
    }
    Ok(set.get(name).map(|blob| blob.data().to_vec()))
}

/// What a work tree walk found at a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FsKind {
    File,
    Symlink,
    /// A folder that is a repository of its own, not entered.
    Repository,
    /// A file or folder whose name is not UTF-8 text (shown with U+FFFD), not entered.
    NameNotUtf8,
}

/// Every file of a plain folder outside any repository, paths relative to `path`. No ignore
/// rules apply; `.git` entries are skipped; symlinks are listed in `special`, not followed;
/// files over `limit` bytes are listed there too, unread.
pub fn read_dir(path: &Path, limit: u64) -> Result<FileSet> {
    let meta = std::fs::metadata(path).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })?;
    if !meta.is_dir() {
        return Err(Error::Io {
            path: path.to_owned(),
            source: std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a directory"),
        });
    }
    let mut files = Vec::new();
    let mut special = BTreeMap::new();
    let walk = walkdir::WalkDir::new(path)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| e.file_name() != ".git");
    for entry in walk {
        let entry = entry.map_err(|e| {
            let at = e.path().unwrap_or(path).to_owned();
            Error::Io {
                path: at,
                source: e.into(),
            }
        })?;
        let Ok(rel) = entry.path().strip_prefix(path) else {
            continue;
        };
        let Some(rel) = catalog_path(rel) else {
            special.insert(first_name_not_utf8(rel), SpecialEntry::NameNotUtf8);
            continue;
        };
        if entry.file_type().is_symlink() {
            special.insert(rel, SpecialEntry::Symlink);
        } else if entry.file_type().is_file() {
            files.push((rel, entry.path().to_owned()));
        }
    }
    let mut set = read_files(files, None, limit, &|_, _, _| false)?;
    set.special.extend(special);
    Ok(set)
}

/// Whether git turns a file's CRLF into LF when it is added: given its path, its bytes and
/// those bytes with LF.
type Normalised<'a> = dyn Fn(&str, &[u8], &[u8]) -> bool + Sync + 'a;

/// Reads files from disk in parallel, computing their git blob ids. A file larger than `limit`
/// bytes is not read; it is listed in `special` for the builder to report. A file whose CRLF
/// line endings git `normalised` when it is added (`core.autocrlf`, a `text` or `eol`
/// attribute) is read with LF, as git stores it: otherwise a clean Windows checkout would
/// change every schema.
fn read_files(
    files: Vec<(String, PathBuf)>,
    cache: Option<&super::BlobCache>,
    limit: u64,
    normalised: &Normalised<'_>,
) -> Result<FileSet> {
    let read = files
        .into_par_iter()
        .map(|(rel, full)| {
            let io = |source| Error::Io {
                path: full.clone(),
                source,
            };
            let size = std::fs::metadata(&full).map_err(io)?.len();
            if size > limit {
                return Ok((rel, Err(SpecialEntry::TooLarge { size, limit })));
            }
            let mut bytes = Vec::new();
            // Bounded even if the file grows after its size was read.
            std::fs::File::open(&full)
                .and_then(|file| file.take(limit + 1).read_to_end(&mut bytes))
                .map_err(io)?;
            if bytes.len() as u64 > limit {
                let size = bytes.len() as u64;
                return Ok((rel, Err(SpecialEntry::TooLarge { size, limit })));
            }
            let hash = |bytes: &[u8]| {
                gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, bytes)
                    .map_err(|e| Error::Git {
                        what: format!("hashing {}", full.display()),
                        source: gix::Error::from_error(e),
                    })
            };
            if bytes.contains(&b'\r') {
                let lf = crlf_to_lf(&bytes);
                if normalised(&rel, &bytes, &lf) {
                    bytes = lf;
                }
            }
            let oid = hash(&bytes)?;
            Ok((rel, Ok((blob_id(&oid), bytes))))
        })
        .collect::<Result<Vec<_>>>()?;
    let mut set = FileSet::default();
    for (rel, item) in read {
        match item {
            Ok((id, bytes)) => {
                let data: Arc<[u8]> = Arc::from(bytes);
                let data = match cache {
                    Some(cache) => cache.insert(id, data),
                    None => data,
                };
                set.files.insert(rel, Blob::new(id, data));
            }
            Err(special) => {
                set.special.insert(rel, special);
            }
        }
    }
    Ok(set)
}

fn crlf_to_lf(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for (i, &byte) in bytes.iter().enumerate() {
        if !(byte == b'\r' && bytes.get(i + 1) == Some(&b'\n')) {
            out.push(byte);
        }
    }
    out
}

fn walk_error(workdir: &Path, e: ignore::Error) -> Error {
    let path = match &e {
        ignore::Error::WithPath { path, .. } => path.clone(),
        _ => workdir.to_owned(),
    };
    let source = e
        .into_io_error()
        .unwrap_or_else(|| std::io::Error::other("walking the working tree failed"));
    Error::Io { path, source }
}

/// Drops every file and special entry below folder `path` (a folder replaced or removed).
fn remove_under(files: &mut FileSet, path: &str, changes: &mut Changes) {
    let prefix = format!("{path}/");
    for key in keys_under(&files.files, &prefix) {
        let before = files.files.remove(&key);
        changes.paths.insert(key, before);
    }
    for key in keys_under(&files.special, &prefix) {
        files.special.remove(&key);
        changes.special = true;
    }
}

/// Copies what `files` holds at `path` or below it into `to`.
fn copy_under(files: &FileSet, path: &str, to: &mut FileSet) {
    fn under<'a, V: Clone + 'a>(
        map: &'a BTreeMap<String, V>,
        path: &'a str,
    ) -> impl Iterator<Item = (String, V)> + 'a {
        use std::ops::Bound;
        map.range::<str, _>((Bound::Included(path), Bound::Unbounded))
            .take_while(move |(key, _)| key.starts_with(path))
            .filter(move |(key, _)| is_under(key, path))
            .map(|(key, value)| (key.clone(), value.clone()))
    }
    to.files.extend(under(&files.files, path));
    to.special.extend(under(&files.special, path));
}

/// True when catalog path `entry` is `path` or lies below it.
fn is_under(entry: &str, path: &str) -> bool {
    entry
        .strip_prefix(path)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

fn keys_under<V>(map: &BTreeMap<String, V>, prefix: &str) -> Vec<String> {
    map.range(prefix.to_owned()..)
        .map(|(key, _)| key)
        .take_while(|key| key.starts_with(prefix))
        .cloned()
        .collect()
}

/// `a/b`, or either alone when the other is empty.
pub fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_owned(),
        (_, true) => a.to_owned(),
        _ => format!("{a}/{b}"),
    }
}

/// The catalog path of repository path `path` when it lies under `dir` (`""` = everything).
pub(crate) fn strip_dir<'a>(path: &'a str, dir: &str) -> Option<&'a str> {
    if dir.is_empty() {
        return Some(path);
    }
    path.strip_prefix(dir)?
        .strip_prefix('/')
        .filter(|rest| !rest.is_empty())
}

/// A path relative to the catalog root as a catalog path: its names joined with `/`, or `None`
/// when one is not UTF-8. Only the platform's separators part names: on Unix a `\` is a
/// character of a name, as it is in git (and to the SDK).
fn catalog_path(rel: &Path) -> Option<String> {
    let names: Option<Vec<&str>> = rel.iter().map(|name| name.to_str()).collect();
    names.map(|names| names.join("/"))
}

/// Path `rel` up to its first name that is not UTF-8 text.
fn first_name_not_utf8(rel: &Path) -> String {
    up_to_first_not_utf8(
        rel.iter()
            .map(|name| (name.to_string_lossy(), name.to_str().is_some())),
    )
}

/// A path's names (each shown with U+FFFD where it is not UTF-8 text, and whether it is) up to
/// the first that is not, `/`-separated: a folder with such a name is named once, not once for
/// every file it holds.
fn up_to_first_not_utf8<'a>(names: impl Iterator<Item = (Cow<'a, str>, bool)>) -> String {
    let mut shown = Vec::new();
    for (name, is_utf8) in names {
        shown.push(name);
        if !is_utf8 {
            break;
        }
    }
    shown.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_and_join() {
        assert_eq!(strip_dir("a/b/c", ""), Some("a/b/c"));
        assert_eq!(strip_dir("a/b/c", "a"), Some("b/c"));
        assert_eq!(strip_dir("a/b/c", "a/b"), Some("c"));
        assert_eq!(strip_dir("ab/c", "a"), None);
        assert_eq!(strip_dir("a", "a"), None);
        assert_eq!(join("", "x"), "x");
        assert_eq!(join("d", ""), "d");
        assert_eq!(join("d", "x"), "d/x");
    }
}
