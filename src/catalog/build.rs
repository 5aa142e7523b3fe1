//! Catalog files -> the Index document, exactly as SDK 2.27.1 `buildIndex` makes it (catalog-index.md §3-§9).
