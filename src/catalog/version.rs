//! Versions as node-semver sees them: validity, precedence, ranges (catalog-index.md §8.1, §10.5).
// SHIM (replaced by the resolve branch)
pub fn index_order(a: Option<&str>, b: Option<&str>) -> std::cmp::Ordering { b.cmp(&a) }
pub fn cmp_code_units(a: &str, b: &str) -> std::cmp::Ordering { a.cmp(b) }
