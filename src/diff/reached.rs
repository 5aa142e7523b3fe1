//! Whether a file another file pulls in changed: a specification bundles files by relative
//! `$ref`, a Protobuf schema compiles with its imports. The pulling file's own text (its hash)
//! can stay the same while what it means changes, and such a change is judged, not passed over.

use std::collections::BTreeSet;

use crate::schema::Files;

/// The most files followed from one file.
const MOST_FOLLOWED: usize = 1024;

/// Whether a file reached from `start` differs between sides `a` and `b`; `start` itself is the
/// same on both. `names(file, text)` gives the catalog paths a file's text pulls in. When every
/// file reached on the candidate side is the same on both, the baseline reaches the same files:
/// the same texts name the same files.
pub(super) fn reached_file_changed(
    start: String,
    a: &dyn Files,
    b: &dyn Files,
    names: &dyn Fn(&str, &str) -> Vec<String>,
) -> bool {
    let mut seen = BTreeSet::new();
    let mut pending = vec![start.clone()];
    while let Some(file) = pending.pop() {
        if seen.len() == MOST_FOLLOWED || !seen.insert(file.clone()) {
            continue;
        }
        let is = b.read(&file);
        // `start` is known the same: only what it pulls in is read on both sides.
        if file != start && a.read(&file) != is {
            return true;
        }
        if let Some(is) = is {
            pending.extend(names(&file, &String::from_utf8_lossy(&is)));
        }
    }
    false
}

/// The folder of catalog path `file` (`a/b.yml` -> `a`).
pub(super) fn folder_of(file: &str) -> &str {
    file.rsplit_once('/').map_or("", |(dir, _)| dir)
}
