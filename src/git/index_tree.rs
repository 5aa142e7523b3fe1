//! The staged index seen as the trees `git commit` would record. A folder the index's
//! cache-tree holds as valid has the id recorded there, as git itself takes it (`git commit`
//! and `git diff --cached` do); only the folders the cache-tree lacks or has invalidated (those
//! along the staged changes) are hashed here from their entries. A commit's tree compared with
//! these ids top-down differs only along the staged changes, so reading the commit side of
//! `--staged` costs the trees that changed, not the catalog.

use std::cell::{Cell, RefCell};

use gix::ObjectId;
use gix::index::extension::Tree as CacheTree;
use gix::objs::tree::{EntryKind, EntryMode};

use crate::FastMap;

/// One entry of a directory: its name, mode and object id (a tree's for a directory).
pub(crate) type Child<'a> = (&'a str, EntryMode, ObjectId);

/// The index's entries below the catalog folder, seen as directories on demand.
#[derive(Debug)]
pub(crate) struct IndexTree<'a> {
    /// Path below the catalog folder, mode and id, in the index's order.
    entries: Vec<Child<'a>>,
    /// The cache-tree's node for the catalog folder, when it has one.
    cached: Option<&'a CacheTree>,
    hash: gix::hash::Kind,
    /// The ids of the directories hashed so far, by path.
    hashed: RefCell<FastMap<&'a str, ObjectId>>,
    /// Set once a path was seen to be both a file and a directory.
    no_tree: Cell<bool>,
}

impl<'a> IndexTree<'a> {
    /// The directories of `entries` (path below catalog folder `dir`, mode, object id), in the
    /// index's order (by path bytes, which is tree order within each directory), with
    /// `cache_tree` the index's cache-tree. `None` when the entries are out of order or not
    /// UTF-8.
    pub fn new(
        entries: impl IntoIterator<Item = (&'a [u8], EntryMode, ObjectId)>,
        cache_tree: Option<&'a CacheTree>,
        dir: &str,
        hash: gix::hash::Kind,
    ) -> Option<IndexTree<'a>> {
        let entries = entries.into_iter();
        // Room for every entry at once: grown by doubling, the list was copied and its fresh
        // pages faulted in again at each step.
        let mut utf8 = Vec::with_capacity(entries.size_hint().1.unwrap_or(0));
        for (path, mode, id) in entries {
            utf8.push((std::str::from_utf8(path).ok()?, mode, id));
        }
        let entries = utf8;
        if entries.windows(2).any(|pair| pair[0].0 >= pair[1].0) {
            return None;
        }
        Some(IndexTree {
            entries,
            cached: cache_tree.and_then(|root| node_at(root, dir)),
            hash,
            hashed: RefCell::default(),
            no_tree: Cell::new(false),
        })
    }

    /// The id and entries (in tree order) of directory `path` (`""` is the catalog folder), or
    /// `None` when the index has no directory there.
    pub fn dir(&self, path: &str) -> Option<(ObjectId, Vec<Child<'a>>)> {
        let node = self.cached.and_then(|root| node_at(root, path));
        let (entries, skip) = match path {
            "" => (&self.entries[..], 0),
            _ => {
                let prefix = format!("{path}/");
                let first = self
                    .entries
                    .partition_point(|(entry, ..)| *entry < &*prefix);
                let rest = &self.entries[first..];
                let len = rest.partition_point(|(entry, ..)| entry.starts_with(&prefix));
                (&rest[..len], prefix.len())
            }
        };
        if entries.is_empty() && !path.is_empty() {
            return None;
        }
        let children = self.children(entries, skip, node);
        let id = match valid(node) {
            Some(node) => node.id,
            None => hash_tree(&children, self.hash),
        };
        Some((id, children))
    }

    /// True when some directory looked at held a path both as a file and as a directory:
    /// its entries form no tree, and the ids given are not to be trusted.
    pub fn formed_no_tree(&self) -> bool {
        self.no_tree.get()
    }

    /// The children of the directory holding `entries` (all of them, each path starting with
    /// the directory's path and a slash, `skip` bytes), whose cache-tree node is `node`.
    fn children(
        &self,
        entries: &[Child<'a>],
        skip: usize,
        node: Option<&'a CacheTree>,
    ) -> Vec<Child<'a>> {
        let mut children: Vec<Child<'a>> = Vec::new();
        let mut rest = entries;
        while let Some(&(path, mode, id)) = rest.first() {
            let name = &path[skip..];
            let Some(slash) = name.find('/') else {
                children.push((name, mode, id));
                rest = &rest[1..];
                continue;
            };
            let name = &name[..slash];
            let len = rest.partition_point(|(entry, ..)| entry.starts_with(&path[..=skip + slash]));
            // A file of the same name sorts before the folder's entries, with only names
            // that extend it in between (`a`, `a.txt`, then `a/b`).
            let mut alike = children
                .iter()
                .rev()
                .take_while(|(other, ..)| other.starts_with(name));
            if alike.any(|(other, ..)| *other == name) {
                self.no_tree.set(true);
            }
            let sub = node.and_then(|node| child(node, name));
            let id = match valid(sub) {
                Some(sub) => sub.id,
                None => self.hashed_id(&path[..skip + slash], &rest[..len], skip + slash + 1, sub),
            };
            children.push((name, EntryKind::Tree.into(), id));
            rest = &rest[len..];
        }
        children
    }

    /// The id of directory `path`, holding `entries` (as for [`IndexTree::children`]), hashed
    /// from its children once.
    fn hashed_id(
        &self,
        path: &'a str,
        entries: &[Child<'a>],
        skip: usize,
        node: Option<&'a CacheTree>,
    ) -> ObjectId {
        if let Some(&id) = self.hashed.borrow().get(path) {
            return id;
        }
        let id = hash_tree(&self.children(entries, skip, node), self.hash);
        self.hashed.borrow_mut().insert(path, id);
        id
    }
}

/// `node` when the cache-tree holds it as valid.
fn valid(node: Option<&CacheTree>) -> Option<&CacheTree> {
    node.filter(|node| node.num_entries.is_some())
}

/// The cache-tree node of folder `path` below `root`.
fn node_at<'t>(root: &'t CacheTree, path: &str) -> Option<&'t CacheTree> {
    path.split('/')
        .filter(|name| !name.is_empty())
        .try_fold(root, child)
}

/// The cache-tree node of folder `name` in `node` (gix sorts them by name as it reads them).
fn child<'t>(node: &'t CacheTree, name: &str) -> Option<&'t CacheTree> {
    let found = node
        .children
        .binary_search_by(|child| child.name[..].cmp(name.as_bytes()));
    found.ok().map(|i| &node.children[i])
}

/// The id of the tree object holding `children` (already in tree order).
fn hash_tree(children: &[Child<'_>], hash: gix::hash::Kind) -> ObjectId {
    let mut bytes = Vec::with_capacity(children.len() * 64);
    for (name, mode, id) in children {
        bytes.extend_from_slice(mode.as_bytes(&mut Default::default()));
        bytes.push(b' ');
        bytes.extend_from_slice(name.as_bytes());
        bytes.push(0);
        bytes.extend_from_slice(id.as_bytes());
    }
    match hash {
        // Plain SHA-1, on the CPU's SHA instructions where it has them: these ids are only
        // compared with the commit's, so the collision detection of gix's hasher buys nothing.
        gix::hash::Kind::Sha1 => {
            use sha1::Digest;
            let mut hasher = sha1::Sha1::new();
            hasher.update(format!("tree {}\0", bytes.len()));
            hasher.update(&bytes);
            ObjectId::Sha1(hasher.finalize().into())
        }
        #[allow(unreachable_patterns)] // reachable once gix is built with SHA-256 too
        other => gix::objs::compute_hash(other, gix::objs::Kind::Tree, &bytes)
            .expect("hashing bytes in memory cannot fail"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(hex: &str) -> ObjectId {
        ObjectId::from_hex(hex.as_bytes()).unwrap()
    }

    const EMPTY: &str = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";
    const SHA1: gix::hash::Kind = gix::hash::Kind::Sha1;

    /// The index of `git write-tree`'s example below: the empty files `a`, `d.txt` and `d/b`,
    /// and `d/c` holding `x`, executable. `d.txt` sorts before the directory `d` (as `d/`).
    fn entries() -> [(&'static [u8], EntryMode, ObjectId); 4] {
        let (file, exe) = (EntryKind::Blob.into(), EntryKind::BlobExecutable.into());
        [
            (b"a", file, id(EMPTY)),
            (b"d.txt", file, id(EMPTY)),
            (b"d/b", file, id(EMPTY)),
            (b"d/c", exe, id("c1b0730e0133447badcfd47fd144e254807b06e1")),
        ]
    }

    const ROOT: &str = "232986a8359c5987ec2c0e7d137aac6ec0787f97";
    const D: &str = "fdb300028ddf2d81fea1ec5678140070ce081438";

    fn node(name: &str, id: ObjectId, valid: bool, children: Vec<CacheTree>) -> CacheTree {
        CacheTree {
            name: name.as_bytes().to_vec().into(),
            id,
            num_entries: valid.then_some(1),
            children,
        }
    }

    #[test]
    fn ids_are_the_ones_git_writes() {
        let tree = IndexTree::new(entries(), None, "", SHA1).unwrap();
        assert_eq!(tree.dir("d").unwrap().0, id(D));
        let (root, children) = tree.dir("").unwrap();
        assert_eq!(root, id(ROOT));
        let names: Vec<&str> = children.iter().map(|(name, ..)| *name).collect();
        assert_eq!(names, ["a", "d.txt", "d"]);
        assert!(tree.dir("d/b").is_none(), "a file");
        assert!(tree.dir("e").is_none(), "nothing there");
        assert!(!tree.formed_no_tree());
    }

    #[test]
    fn a_catalog_folder_below_the_root_sees_only_its_own_entries() {
        let below: Vec<_> = entries()
            .into_iter()
            .filter_map(|(path, mode, id)| Some((path.strip_prefix(b"d/")?, mode, id)))
            .collect();
        let cache = node("", id(EMPTY), false, vec![node("d", id(D), false, vec![])]);
        let tree = IndexTree::new(below, Some(&cache), "d", SHA1).unwrap();
        assert_eq!(tree.dir("").unwrap().0, id(D));
    }

    #[test]
    fn valid_cache_tree_ids_are_taken_and_invalid_ones_hashed() {
        // Ids no hashing gives: where they show, the cache-tree was taken.
        let (stale_root, stale_d) = (id(EMPTY), id("0123456789abcdef0123456789abcdef01234567"));
        let taken = |root: bool, d: bool| {
            let cache = node("", stale_root, root, vec![node("d", stale_d, d, vec![])]);
            let tree = IndexTree::new(entries(), Some(&cache), "", SHA1).unwrap();
            let d_in_root = tree.dir("").unwrap().1[2].2;
            (tree.dir("").unwrap().0, d_in_root, tree.dir("d").unwrap().0)
        };
        assert_eq!(taken(true, true), (stale_root, stale_d, stale_d));
        assert_eq!(
            taken(false, true),
            (
                id("90be12784422f52290ac95b4dcca140c2d64a05e"),
                stale_d,
                stale_d
            ),
            "the root hashed over the folder's recorded id (`git mktree --missing` agrees)",
        );
        assert_eq!(taken(false, false), (id(ROOT), id(D), id(D)));
    }

    #[test]
    fn a_real_index_has_only_its_invalidated_folders_hashed() {
        let temp = tempfile::tempdir().unwrap();
        let git = |args: &[&str]| {
            let status = std::process::Command::new("git")
                .args([
                    "-c",
                    "user.name=t",
                    "-c",
                    "user.email=t@t",
                    "-c",
                    "core.autocrlf=false",
                ])
                .args(args)
                .current_dir(temp.path())
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .status()
                .unwrap();
            assert!(status.success(), "git {args:?}");
        };
        let write = |path: &str, text: &str| {
            let path = temp.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        git(&["init", "-q"]);
        for path in ["a/x", "b/y", "b/c/z", "bb/w", "c/v"] {
            write(path, path);
        }
        git(&["add", "-A"]);
        git(&["commit", "-qm", "one"]);
        write("b/c/z", "changed");
        git(&["add", "b/c/z"]);
        let index = gix::index::File::at(
            temp.path().join(".git/index"),
            SHA1,
            false,
            Default::default(),
        )
        .unwrap();
        let entries = index.entries().iter().map(|entry| {
            let mode = entry.mode.to_tree_entry_mode().unwrap();
            (entry.path(&index).as_ref(), mode, entry.id)
        });
        let tree = IndexTree::new(entries, index.tree(), "", SHA1).unwrap();
        tree.dir("").unwrap();
        let mut hashed: Vec<&str> = tree.hashed.borrow().keys().copied().collect();
        hashed.sort();
        assert_eq!(hashed, ["b", "b/c"], "the folders along the staged change");
    }

    #[test]
    fn entries_that_form_no_tree_are_refused() {
        let file: EntryMode = EntryKind::Blob.into();
        let tree = |paths: &'static [&'static str]| {
            IndexTree::new(
                paths.iter().map(|p| (p.as_bytes(), file, id(EMPTY))),
                None,
                "",
                SHA1,
            )
        };
        let both = tree(&["a", "a.txt", "a/b"]).expect("in order");
        both.dir("");
        assert!(both.formed_no_tree(), "a file and a folder");
        assert!(tree(&["b", "a"]).is_none(), "out of order");
        assert!(tree(&["a", "a"]).is_none(), "twice");
        let fine = tree(&["a/b/c", "a/d", "e/f/g"]).unwrap();
        fine.dir("");
        assert!(!fine.formed_no_tree());
        let invalid = [(&b"\xff"[..], file, id(EMPTY))];
        assert!(
            IndexTree::new(invalid, None, "", SHA1).is_none(),
            "not UTF-8"
        );
    }
}
