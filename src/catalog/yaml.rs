//! YAML events -> JSON values with js-yaml 3 scalar resolution (catalog-index.md §2.2).
