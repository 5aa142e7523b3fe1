//! JSON text exactly as JavaScript `JSON.stringify(value, null, 2)` prints it (catalog-index.md §9.2).
// SHIM
pub fn to_compact(v: &serde_json::Value) -> String { v.to_string() }
pub fn to_pretty(v: &serde_json::Value) -> String { serde_json::to_string_pretty(v).unwrap_or_default() }
