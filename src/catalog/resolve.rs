//! `resolve(indexes)`: Index documents -> entities, edges, conflicts, externals, exactly as SDK 2.27.1 (catalog-index.md §10).
