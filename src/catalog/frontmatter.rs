//! Front matter: split the block off a Markdown file and parse it as js-yaml 3 `safeLoad` would (catalog-index.md §2).
