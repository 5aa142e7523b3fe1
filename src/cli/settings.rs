//! The settings a run uses: its flags over the configuration file (`catalog-diff.toml`, read
//! from the candidate side, or `--config PATH`), over the defaults; and the acknowledged breaks
//! (`catalog-diff.ack.toml`, from the candidate side). Every problem in those files names the
//! file and line.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;
use catalog_diff::git::{Repo, Side};
use catalog_diff::policy::{self, Ack, Config, Date, FailOn};
use catalog_diff::schema::{ProtoRules, Strategy};

use super::diff::PolicyArgs;

/// Validated settings for one run.
pub struct Settings {
    pub strategy: Strategy,
    pub fail_on: FailOn,
    /// `--dir`, else the configuration's `dir`.
    pub dir: Option<String>,
    pub message_strategies: BTreeMap<String, Strategy>,
    /// Transitive strategies compare against the history too (`history = true`).
    pub history: bool,
    /// buf's category for Protobuf changes.
    pub proto_rules: ProtoRules,
    pub acks: Vec<Ack>,
    /// A configuration or acknowledgements file was read: the JSON carries the decision.
    pub from_files: bool,
    pub today: Date,
}

impl Settings {
    /// Reads the files of `candidate` (the working tree, the staged index or a commit) and
    /// lays `flags` over them.
    pub fn load(
        repo: &Repo,
        candidate: Side,
        flags: &PolicyArgs,
        dir: Option<&str>,
    ) -> anyhow::Result<Settings> {
        let config = match &flags.config {
            Some(path) => Some(read_config(&path.display().to_string(), &read_file(path)?)?),
            None => match repo.read_root_file(candidate, policy::CONFIG_FILE)? {
                Some(bytes) => Some(read_config(policy::CONFIG_FILE, &bytes)?),
                None => None,
            },
        };
        let acks = match repo.read_root_file(candidate, policy::ACK_FILE)? {
            Some(bytes) => {
                let text = utf8(policy::ACK_FILE, bytes)?;
                policy::parse_acks(policy::ACK_FILE, &text)?
            }
            None => Vec::new(),
        };
        let config = config.unwrap_or_default();
        let from_files = config != Config::default() || !acks.is_empty();
        Ok(Settings {
            strategy: flags.strategy.or(config.strategy).unwrap_or_default(),
            fail_on: flags
                .fail_on
                .map(Into::into)
                .or(config.fail_on)
                .unwrap_or_default(),
            dir: dir.map(str::to_owned).or(config.dir.clone()),
            message_strategies: config.message_strategies(),
            history: config.history.unwrap_or(false),
            proto_rules: flags.proto_rules.or(config.proto_rules).unwrap_or_default(),
            acks,
            from_files,
            today: today(),
        })
    }
}

fn read_file(path: &Path) -> anyhow::Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("cannot read the configuration {}", path.display()))
}

fn utf8(file: &str, bytes: Vec<u8>) -> anyhow::Result<String> {
    String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("{file}: not UTF-8 text; save it as UTF-8"))
}

fn read_config(file: &str, bytes: &[u8]) -> anyhow::Result<Config> {
    let text = utf8(file, bytes.to_vec())?;
    Ok(Config::parse(file, &text)?)
}

/// Today's date in UTC, for acknowledgement expiry.
pub fn today() -> Date {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    Date::from_days((seconds / 86_400) as i64)
}
