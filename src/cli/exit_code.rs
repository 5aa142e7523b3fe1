//! The process exit codes, in one place (documented in `--help` and the README).

/// Ran, and the policy (`--fail-on`) is satisfied.
pub const OK: u8 = 0;
/// Ran, and the policy tripped (a breaking change, or an unknown verdict under `--fail-on unknown`).
pub const POLICY: u8 = 1;
/// Could not run: bad arguments, not a repository, unknown revision, invalid catalog, I/O error.
pub const ERROR: u8 = 2;
