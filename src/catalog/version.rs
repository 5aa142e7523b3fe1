//! Versions as node-semver sees them: validity, precedence, ranges (catalog-index.md §8.1, §10.5).
