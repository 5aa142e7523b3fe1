//! `catalog-diff schema BEFORE AFTER`: judge two schema files on disk.

use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct SchemaArgs {
    /// The schema before the change.
    pub before: PathBuf,
    /// The schema after the change.
    pub after: PathBuf,
}

pub fn run(_args: SchemaArgs) -> anyhow::Result<u8> {
    anyhow::bail!("the schema command is being built")
}
