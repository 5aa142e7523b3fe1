//! The parse cache as bytes, so it can outlive a run: every front matter parse (or its error),
//! content hash and dropped-field check, keyed by blob id, one JSON object per line under a
//! header that names the format version and the rules version. A file that does not start with
//! today's header, or that has a line that does not read, is ignored whole: a cache is never
//! trusted, only used. Pure: the command line reads and writes the file.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::build::ParseCache;
use super::{BlobId, Diagnostic};

/// Bump when what is cached, or how it is computed, changes: older files are then ignored.
const HEADER: &str = concat!("catalog-diff parse cache 1 ", env!("CARGO_PKG_VERSION"));

#[derive(Serialize, Deserialize)]
#[serde(tag = "k")]
enum Entry {
    #[serde(rename = "f")]
    FrontMatter { id: String, v: Value },
    #[serde(rename = "e")]
    FrontMatterError { id: String, d: Diagnostic },
    #[serde(rename = "h")]
    Hash { id: String, v: String },
    #[serde(rename = "l")]
    Lint { id: String, v: Vec<Diagnostic> },
}

impl ParseCache {
    /// The cache as bytes, at most `limit` of them: entries made by this run come first, so a
    /// full cache drops the oldest knowledge.
    pub fn export(&self, limit: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(1 << 16);
        out.extend_from_slice(HEADER.as_bytes());
        out.push(b'\n');
        for entry in self.entries() {
            let Ok(line) = serde_json::to_vec(&entry) else {
                continue;
            };
            if out.len() + line.len() + 1 > limit {
                break;
            }
            out.extend_from_slice(&line);
            out.push(b'\n');
        }
        out
    }

    /// Adds the entries of `bytes` (made by [`ParseCache::export`]); `false`, and nothing
    /// added, when they are of another version, truncated or corrupt.
    pub fn import(&self, bytes: &[u8]) -> bool {
        let Ok(text) = std::str::from_utf8(bytes) else {
            return false;
        };
        let mut lines = text.split_terminator('\n');
        if lines.next() != Some(HEADER) || !text.ends_with('\n') {
            return false;
        }
        let mut entries = Vec::new();
        for line in lines {
            match serde_json::from_str::<Entry>(line) {
                Ok(entry) => entries.push(entry),
                Err(_) => return false,
            }
        }
        for entry in entries {
            let id = |hex: &str| BlobId::from_hex(hex);
            match entry {
                Entry::FrontMatter { id: hex, v } => {
                    if let Some(id) = id(&hex) {
                        self.preload_front_matter(id, Ok(v));
                    }
                }
                Entry::FrontMatterError { id: hex, d } => {
                    if let Some(id) = id(&hex) {
                        self.preload_front_matter(id, Err(Box::new(d)));
                    }
                }
                Entry::Hash { id: hex, v } => {
                    if let Some(id) = id(&hex) {
                        self.preload_hash(id, v.into());
                    }
                }
                Entry::Lint { id: hex, v } => {
                    if let Some(id) = id(&hex) {
                        self.preload_lint(id, Arc::from(v));
                    }
                }
            }
        }
        true
    }

    fn entries(&self) -> Vec<Entry> {
        let mut entries: Vec<(bool, Entry)> = Vec::new();
        for (id, parsed) in self.front_matter_entries() {
            entries.push((
                self.was_imported(id),
                match parsed.as_ref() {
                    Ok(v) => Entry::FrontMatter {
                        id: id.to_string(),
                        v: v.clone(),
                    },
                    Err(d) => Entry::FrontMatterError {
                        id: id.to_string(),
                        d: (**d).clone(),
                    },
                },
            ));
        }
        for (id, hash) in self.hash_entries() {
            let entry = Entry::Hash {
                id: id.to_string(),
                v: hash.to_string(),
            };
            entries.push((self.was_imported(id), entry));
        }
        for (id, lint) in self.lint_entries() {
            let entry = Entry::Lint {
                id: id.to_string(),
                v: lint.to_vec(),
            };
            entries.push((self.was_imported(id), entry));
        }
        // New first (false sorts before true); the sort is stable, so ids stay in order.
        entries.sort_by_key(|(imported, _)| *imported);
        entries.into_iter().map(|(_, entry)| entry).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::build::{Options, build};
    use crate::catalog::{Blob, FileSet};

    fn catalog() -> FileSet {
        let mut files = FileSet::default();
        for (n, (path, text)) in [
            (
                "events/E/index.mdx",
                "---\nid: E\nversion: 1.0.0\nschemaPath: schema.json\nsends: x\n---\n",
            ),
            ("events/E/schema.json", "{\"type\": \"object\"}"),
            ("services/S/index.mdx", "---\nid: [broken\n---\n"),
        ]
        .into_iter()
        .enumerate()
        {
            files.files.insert(
                path.to_owned(),
                Blob {
                    id: BlobId([n as u8 + 1; 20]),
                    data: Arc::from(text.as_bytes()),
                },
            );
        }
        files
    }

    #[test]
    fn a_cache_round_trips_and_builds_the_same() {
        let files = catalog();
        let options = Options::default();
        let cold = ParseCache::default();
        let expected = build(&files, &options, &cold);
        let bytes = cold.export(usize::MAX);
        let warm = ParseCache::default();
        assert!(warm.import(&bytes));
        assert_eq!(warm.export(usize::MAX), bytes);
        let got = build(&files, &options, &warm);
        assert_eq!(got.index, expected.index);
        assert_eq!(got.diagnostics, expected.diagnostics);
    }

    #[test]
    fn foreign_truncated_or_corrupt_caches_are_ignored() {
        let cold = ParseCache::default();
        build(&catalog(), &Options::default(), &cold);
        let bytes = cold.export(usize::MAX);
        for bad in [
            &bytes[..bytes.len() - 3],
            b"catalog-diff parse cache 0 0.0.0\n".as_slice(),
            &[bytes.as_slice(), b"{\"k\":\"f\"}\n"].concat(),
            b"\xff\xfe".as_slice(),
        ] {
            let cache = ParseCache::default();
            assert!(!cache.import(bad));
            assert_eq!(cache.export(usize::MAX).len(), HEADER.len() + 1);
        }
        let small = cold.export(HEADER.len() + 10);
        assert!(
            ParseCache::default().import(&small),
            "a limit keeps whole lines"
        );
    }
}
