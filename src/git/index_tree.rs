//! The staged index seen as the trees `git write-tree` would record, each directory's id
//! hashed here from its entries. The index's own cache-tree is never used: other writers can
//! leave it stale, and a stale id would hide a staged change. A commit's tree compared with
//! these ids top-down differs only along the staged changes, so reading the commit side of
//! `--staged` costs the trees that changed, not the catalog.

use gix::ObjectId;
use gix::objs::tree::{EntryKind, EntryMode};

use crate::FastMap;

/// One entry of a directory: its name, mode and object id (a tree's for a directory).
pub(crate) type Child<'a> = (&'a str, EntryMode, ObjectId);

/// Every directory of the index by path (`""` is the root), with the id its tree object would
/// have and its entries in tree order.
#[derive(Debug, Default)]
pub(crate) struct IndexTree<'a> {
    dirs: FastMap<&'a str, (ObjectId, Vec<Child<'a>>)>,
}

impl<'a> IndexTree<'a> {
    /// The trees of `entries` (path below the root, mode, object id), in the index's order
    /// (by path bytes, which is tree order within each directory). `None` when they cannot
    /// form trees: out of order, a path both a file and a directory, or not UTF-8.
    pub fn build(
        entries: impl IntoIterator<Item = (&'a [u8], EntryMode, ObjectId)>,
        hash: gix::hash::Kind,
    ) -> Option<IndexTree<'a>> {
        let entries = entries.into_iter();
        let mut tree = IndexTree::default();
        // A catalog has nearly as many folders as files (each resource has its own, and each
        // version): room for one per entry at once, instead of growing the map by doubling,
        // which hashes every folder path again at each step.
        tree.dirs.reserve(entries.size_hint().1.unwrap_or(0));
        // The open directories, root first: each one's path and entries so far.
        let mut open: Vec<(&'a str, Vec<Child<'a>>)> = vec![("", Vec::new())];
        let mut last: &[u8] = &[];
        for (path, mode, id) in entries {
            if path <= last {
                return None;
            }
            last = path;
            let path = std::str::from_utf8(path).ok()?;
            let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
            while !is_within(dir, open.last()?.0) {
                tree.close(&mut open, hash)?;
            }
            while open.last()?.0 != dir {
                let top = open.last()?.0;
                let start = if top.is_empty() { 0 } else { top.len() + 1 };
                let end = dir[start..].find('/').map_or(dir.len(), |i| start + i);
                open.push((&dir[..end], Vec::new()));
            }
            open.last_mut()?.1.push((name, mode, id));
        }
        while open.len() > 1 {
            tree.close(&mut open, hash)?;
        }
        let (root, children) = open.pop()?;
        tree.dirs
            .insert(root, (hash_tree(&children, hash), children));
        Some(tree)
    }

    /// The id and entries of directory `path`, or `None` when the index has none there.
    pub fn dir(&self, path: &str) -> Option<&(ObjectId, Vec<Child<'a>>)> {
        self.dirs.get(path)
    }

    /// Hashes the innermost open directory and adds it to its parent.
    fn close(
        &mut self,
        open: &mut Vec<(&'a str, Vec<Child<'a>>)>,
        hash: gix::hash::Kind,
    ) -> Option<()> {
        let (path, children) = open.pop()?;
        let id = hash_tree(&children, hash);
        self.dirs.insert(path, (id, children));
        let name = path.rsplit_once('/').map_or(path, |(_, name)| name);
        let parent = &mut open.last_mut()?.1;
        // A file of the same name sorts before the folder's entries with only names that
        // extend it in between (`a`, `a.txt`, then `a/b`).
        let mut alike = parent
            .iter()
            .rev()
            .take_while(|(other, ..)| other.starts_with(name));
        if alike.any(|(other, ..)| *other == name) {
            return None;
        }
        parent.push((name, EntryKind::Tree.into(), id));
        Some(())
    }
}

/// `dir` is `top` or lies below it.
fn is_within(dir: &str, top: &str) -> bool {
    top.is_empty()
        || dir
            .strip_prefix(top)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
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

    #[test]
    fn ids_are_the_ones_git_writes() {
        // `git write-tree` of an index holding the empty files `a`, `d.txt` and `d/b`, and
        // `d/c` holding `x`, executable. `d.txt` sorts before the directory `d` (as `d/`).
        let (file, exe) = (EntryKind::Blob.into(), EntryKind::BlobExecutable.into());
        let tree = IndexTree::build(
            [
                (&b"a"[..], file, id(EMPTY)),
                (b"d.txt", file, id(EMPTY)),
                (b"d/b", file, id(EMPTY)),
                (b"d/c", exe, id("c1b0730e0133447badcfd47fd144e254807b06e1")),
            ],
            SHA1,
        )
        .unwrap();
        let d = id("fdb300028ddf2d81fea1ec5678140070ce081438");
        assert_eq!(tree.dir("d").unwrap().0, d);
        let (root, children) = tree.dir("").unwrap();
        assert_eq!(*root, id("232986a8359c5987ec2c0e7d137aac6ec0787f97"));
        let names: Vec<&str> = children.iter().map(|(name, ..)| *name).collect();
        assert_eq!(names, ["a", "d.txt", "d"]);
        assert!(tree.dir("d/b").is_none());
    }

    #[test]
    fn entries_that_form_no_tree_are_refused() {
        let file: EntryMode = EntryKind::Blob.into();
        let build = |paths: &[&'static str]| {
            IndexTree::build(paths.iter().map(|p| (p.as_bytes(), file, id(EMPTY))), SHA1)
        };
        assert!(
            build(&["a", "a.txt", "a/b"]).is_none(),
            "a file and a folder"
        );
        assert!(build(&["b", "a"]).is_none(), "out of order");
        assert!(build(&["a", "a"]).is_none(), "twice");
        assert!(build(&["a/b/c", "a/d", "e/f/g"]).is_some());
        let invalid = [(&b"\xff"[..], file, id(EMPTY))];
        assert!(IndexTree::build(invalid, SHA1).is_none(), "not UTF-8");
    }
}
