//! JSON text exactly as JavaScript `JSON.stringify(value, null, 2)` prints it (catalog-index.md §9.2).
