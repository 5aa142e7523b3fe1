//! Fixture folders laid out as `testdata/<format>/<kind>/<case>/`, one case per folder, read the
//! same way by every data-driven runner.

#![allow(dead_code, reason = "each runner uses a different part of the helper")]

use std::fs;
use std::path::{Path, PathBuf};

/// `testdata/<id>`.
pub fn root(id: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(id)
}

/// The folders in `folder`, sorted.
pub fn dirs(folder: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(folder)
        .unwrap_or_else(|error| panic!("{}: {error}", folder.display()))
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// The last component of `path`.
pub fn name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Every case folder under `root`, with the name of the kind folder it sits in.
pub fn all(root: &Path) -> Vec<(String, PathBuf)> {
    dirs(root)
        .into_iter()
        .flat_map(|kind_dir| {
            let kind = name(&kind_dir);
            dirs(&kind_dir)
                .into_iter()
                .map(move |case| (kind.clone(), case))
        })
        .collect()
}

/// The one file of a case folder whose name starts with `stem.`: its name and text.
pub fn side(folder: &Path, stem: &str) -> (String, String) {
    let file = fs::read_dir(folder)
        .expect("case folder is readable")
        .map(|entry| entry.expect("readable entry").path())
        .find(|path| path.is_file() && name(path).starts_with(&format!("{stem}.")))
        .unwrap_or_else(|| panic!("{} has no {stem}.* file", folder.display()));
    let text =
        fs::read_to_string(&file).unwrap_or_else(|error| panic!("{}: {error}", file.display()));
    (name(&file), text)
}
