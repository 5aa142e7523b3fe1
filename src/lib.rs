//! catalog-diff: read an EventCatalog catalog straight out of git, build the SDK's Index
//! natively, resolve the graph and judge schema compatibility between two revisions.
//!
//! The pipeline, in order:
//! - [`git`]: a revision, the staged index, the working tree or a plain folder -> [`catalog::FileSet`]
//! - [`catalog::build`]: FileSet -> [`catalog::Index`] (the SDK's `buildIndex`), pure
//! - [`catalog::resolve`]: Index -> edges (the SDK's `resolve`), pure
//! - [`schema`]: two schema documents (JSON Schema, Avro, Protobuf) -> a [`schema::Verdict`], pure
//! - [`spec`]: two AsyncAPI or OpenAPI documents -> a [`spec::Verdict`], pure
//! - [`diff`]: two Indexes -> an [`diff::ArchitectureDiff`], pure
//! - [`pipeline`]: the whole diff in one call, [`pipeline::diff_revisions`]: read, index, resolve, compare
//! - [`history`]: a first-parent commit list -> one ArchitectureDiff per changed commit (`log`)
//! - [`policy`]: configuration, fingerprints, acknowledged breaks and the exit-code decision, pure
//! - [`report`]: an ArchitectureDiff -> text, markdown or GitHub annotations, pure
//! - [`hook`]: the git pre-commit hook script, pure
//! - [`path`]: `/`-separated paths resolved as text (`a/../b`)
//! - [`suggest`]: the closest names to one that was not found, for error messages
//! - `cli`: the thin command line on top.

pub mod catalog;
pub mod diff;
pub mod git;
pub mod history;
pub mod hook;
pub mod json_text;
pub mod path;
pub mod pipeline;
pub mod policy;
pub mod report;
pub mod schema;
pub mod spec;
pub mod suggest;

/// Hash maps and sets keyed by what a catalog names (paths, ids, versions), hashed fast:
/// builds, resolves and diffs fill thousands of them, and their keys come from the catalog,
/// not from someone choosing collisions.
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::FixedState>;
pub(crate) type FastSet<T> = std::collections::HashSet<T, foldhash::fast::FixedState>;
