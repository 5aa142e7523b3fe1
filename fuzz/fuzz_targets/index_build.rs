//! Fuzz the index builder and the resolver over small generated catalogs: the input is cut into
//! files placed at catalog paths (a message, a service, a domain, a team, a schema, versions),
//! so front matter, schema references and pointers meet in every combination. Never a panic,
//! the same Index and diagnostics twice, every diagnostic names a file of the catalog, and the
//! resolver runs on whatever was built.
#![no_main]

use std::sync::Arc;

use catalog_diff::catalog::build::{Options, ParseCache, build};
use catalog_diff::catalog::resolve::resolve;
use catalog_diff::catalog::{Blob, BlobId, FileSet};
use libfuzzer_sys::fuzz_target;

const PATHS: &[&str] = &[
    "events/E/index.mdx",
    "events/E/schema.json",
    "events/E/versioned/0.0.1/index.mdx",
    "services/S/index.mdx",
    "services/S/events/F/index.md",
    "domains/D/index.mdx",
    "teams/t.mdx",
    "users/u.mdx",
    "channels/C/index.mdx",
    "flows/F/index.mdx",
    ".eventcatalogignore",
];

fuzz_target!(|data: &[u8]| {
    let mut files = FileSet::default();
    // Files are separated by 0xFF (never in UTF-8 text).
    for (n, chunk) in data.split(|byte| *byte == 0xFF).take(PATHS.len()).enumerate() {
        let mut id = [0u8; 20];
        id[0] = n as u8;
        id[1..9].copy_from_slice(&(chunk.len() as u64).to_le_bytes());
        files.files.insert(
            PATHS[n].to_owned(),
            Blob::new(BlobId(id), Arc::from(chunk)),
        );
    }
    let options = Options::default();
    let first = build(&files, &options, &ParseCache::default());
    let second = build(&files, &options, &ParseCache::default());
    assert_eq!(first.index, second.index);
    assert_eq!(first.diagnostics, second.diagnostics);
    for diagnostic in &first.diagnostics {
        assert!(
            files.files.contains_key(&diagnostic.file) || diagnostic.file.is_empty(),
            "{diagnostic}"
        );
    }
    let _ = resolve(std::slice::from_ref(&first.index));
});
