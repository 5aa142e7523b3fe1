//! `catalog-diff ack FINGERPRINT --reason TEXT`: acknowledge a break, so it no longer trips
//! `--fail-on` (until `--expires`). Appends one entry to `catalog-diff.ack.toml` at the work
//! tree root: besides the hook, the only file catalog-diff ever writes, and only here.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, bail};
use catalog_diff::catalog::{escape_path, escape_text};
use catalog_diff::git::{Repo, Side};
use catalog_diff::policy::{self, Ack, Date};

use super::exit_code;
use super::schema::utf8_text;
use super::settings::ACKS;

#[derive(clap::Args, Debug)]
pub struct AckArgs {
    /// The fingerprint of the break, as reports print it (24 hexadecimal digits).
    pub fingerprint: String,
    /// Why it is acceptable (consumers migrated, the topic is new, ...).
    #[arg(long)]
    pub reason: String,
    /// Who answers for it.
    #[arg(long, value_name = "TEAM")]
    pub owner: Option<String>,
    /// The last day the acknowledgement holds (YYYY-MM-DD); after it, the break trips again.
    #[arg(long, value_name = "DATE")]
    pub expires: Option<String>,
    /// The repository (discovered upwards from PATH, like git).
    #[arg(short = 'C', long = "repo", value_name = "PATH", default_value = ".")]
    pub repo: PathBuf,
    /// Largest acknowledgements file read, as the diff reads it; a larger one is an error.
    /// Bytes, or with a K, M or G suffix (powers of 1024).
    #[arg(long, value_name = "SIZE", default_value = "64M", value_parser = super::index::parse_size)]
    pub max_file_size: u64,
}

pub fn run(args: AckArgs) -> anyhow::Result<u8> {
    if !policy::is_fingerprint(&args.fingerprint) {
        bail!(
            "`{}` is not a fingerprint\n  hint: copy it from a report (24 hexadecimal digits, `fingerprint ...` under each break)",
            escape_text(&args.fingerprint)
        );
    }
    if let Some(expires) = &args.expires {
        let Some(date) = Date::parse(expires) else {
            bail!(
                "--expires `{}` is not a date\n  hint: write it as YYYY-MM-DD",
                escape_text(expires)
            );
        };
        // Born expired, it would acknowledge nothing: the break would trip at once.
        let today = super::settings::today();
        if date < today {
            bail!(
                "--expires {date} is in the past (today is {today}), so the acknowledgement would never hold\n  hint: give the last day it should hold, today or later"
            );
        }
    }
    if args.reason.trim().is_empty() {
        bail!("--reason is empty\n  hint: {}", policy::REASON_HINT);
    }
    let mut repo = Repo::discover(&args.repo)?;
    repo.set_max_file_size(args.max_file_size);
    let root = repo
        .workdir()
        .context("a bare repository has no work tree to keep acknowledgements in")?;
    let path = root.join(policy::ACK_FILE);
    // Written through, a link would change a file elsewhere, even outside the repository.
    if let Ok(meta) = path.symlink_metadata()
        && !meta.is_file()
    {
        let what = if meta.file_type().is_symlink() {
            "a symbolic link"
        } else {
            "not a regular file"
        };
        bail!(
            "{} is {what}; `catalog-diff ack` writes only a regular file there\n  hint: replace it with the file itself",
            escape_path(&path)
        );
    }
    // Read as the diff reads it: a file it refuses is not appended to.
    let existing = match repo.read_root_file(Side::Worktree, policy::ACK_FILE)? {
        Some(bytes) => utf8_text(policy::ACK_FILE, ACKS, bytes)?,
        None => String::new(),
    };
    let acks = policy::parse_acks(policy::ACK_FILE, &existing)?;
    if let Some(ack) = acks.iter().find(|a| a.fingerprint == args.fingerprint) {
        bail!(
            "{}:{}: {} is already acknowledged ({})\n  hint: edit that entry to change it",
            policy::ACK_FILE,
            ack.line,
            args.fingerprint,
            escape_text(&ack.reason)
        );
    }
    let ack = Ack {
        fingerprint: args.fingerprint,
        reason: args.reason,
        owner: args.owner,
        expires: args.expires,
        line: 0,
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("opening {} to append", escape_path(&path)))?;
    let mut text = policy::ack_entry_text(&ack);
    if existing.is_empty() {
        text = format!(
            "# Acknowledged breaks: catalog-diff does not fail on these (until they expire).\n# Written by `catalog-diff ack`; review them like code.\n{text}"
        );
    } else if !existing.ends_with('\n') {
        text.insert(0, '\n');
    }
    file.write_all(text.as_bytes())
        .with_context(|| format!("writing {}", escape_path(&path)))?;
    stdout!("acknowledged {} in {}", ack.fingerprint, escape_path(&path));
    Ok(exit_code::OK)
}
