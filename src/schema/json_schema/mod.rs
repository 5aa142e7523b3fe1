//! JSON Schema compatibility. `compare` walks two documents and lists what changed and where,
//! `rules` holds the table that decides whether each kind of change breaks a direction, and
//! `explain` turns a verdict into sentences for people. The walker never judges; the table never walks.

pub mod compare;
pub mod explain;
pub mod rules;
