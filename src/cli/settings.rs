//! The settings a run uses: its flags over the configuration file (`catalog-diff.toml`, read
//! from the candidate side, or `--config PATH`), over the defaults; and the acknowledged breaks
//! (`catalog-diff.ack.toml`, from the candidate side). Every problem in those files names the
//! file and line.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;
use catalog_diff::catalog::{escape_path, escape_text};
use catalog_diff::git::{self, Repo, Side};
use catalog_diff::pipeline::Misnamed;
use catalog_diff::policy::{self, Ack, Config, Date, FailOn};
use catalog_diff::schema::{ProtoRules, Strategy};
use catalog_diff::suggest;

use super::diff::PolicyArgs;
use super::schema::utf8_text;

/// What `catalog-diff.ack.toml` is, in the words of its errors.
pub(super) const ACKS: &str = "acknowledgements file";

/// Validated settings for one run.
pub struct Settings {
    pub strategy: Strategy,
    pub fail_on: FailOn,
    /// `--dir`, else the configuration's `dir`.
    pub dir: Option<String>,
    /// Where the configuration sets `dir`, when the run takes it from there
    /// (`catalog-diff.toml:3`).
    dir_place: Option<String>,
    /// Where the configuration sets `history = true`, if it does.
    pub history_place: Option<String>,
    pub message_strategies: BTreeMap<String, Strategy>,
    /// Where the configuration names each message id, with settings or none: its file and
    /// line.
    message_places: BTreeMap<String, (String, usize)>,
    /// Transitive strategies compare against the history too (`history = true`).
    pub history: bool,
    /// buf's category for Protobuf changes.
    pub proto_rules: ProtoRules,
    pub acks: Vec<Ack>,
    /// A configuration or acknowledgements file was read: the JSON carries the decision.
    pub from_files: bool,
    /// The policy files' problems, held back until the catalog is read and the message ids the
    /// configuration names are checked against it ([`Settings::check_messages`]), so one run
    /// names all.
    problems: Option<String>,
    pub today: Date,
}

impl Settings {
    /// Reads the files of `candidate` (the working tree, the staged index or a commit) and
    /// lays `flags` over them. A relative `--config` is read from `from` (`-C`'s path), as
    /// `git -C` reads every relative path.
    pub fn load(
        (repo, from): (&Repo, &Path),
        candidate: Side,
        flags: &PolicyArgs,
        dir: Option<&str>,
    ) -> anyhow::Result<Settings> {
        let config = match &flags.config {
            Some(path) => {
                let path = from.join(path);
                Some((escape_path(&path), read_file(&path)?))
            }
            None => {
                let bytes = repo.read_root_file(candidate, policy::CONFIG_FILE)?;
                note_unread_edit(repo, candidate, policy::CONFIG_FILE, bytes.as_deref());
                bytes.map(|bytes| (policy::CONFIG_FILE.to_owned(), bytes))
            }
        };
        let config = match config {
            Some((file, bytes)) => utf8_text(&file, "configuration", bytes).and_then(|text| {
                let (config, problems) = Config::parse_partly(&file, &text)?;
                let places = config
                    .message_lines(&text)
                    .map(|(id, line)| (id.to_owned(), (file.clone(), line)))
                    .collect();
                let lines = [config.dir_line(&text), config.history_line(&text)];
                let setting_places = lines.map(|line| line.map(|line| format!("{file}:{line}")));
                Ok((config, places, setting_places, problems))
            }),
            None => Ok((Config::default(), BTreeMap::new(), [None, None], Vec::new())),
        };
        let ack_bytes = repo.read_root_file(candidate, policy::ACK_FILE)?;
        note_unread_edit(repo, candidate, policy::ACK_FILE, ack_bytes.as_deref());
        let acks = match ack_bytes {
            Some(bytes) => utf8_text(policy::ACK_FILE, ACKS, bytes)
                .and_then(|text| Ok(policy::parse_acks(policy::ACK_FILE, &text)?)),
            None => Ok(Vec::new()),
        };
        // Both files are read before either is refused, so one run names every problem; the
        // message ids a configuration with problems names are checked before it is refused.
        let ((config, message_places, [dir_place, history_place], problems), acks) =
            match (config, acks) {
                (Err(config), Err(acks)) => anyhow::bail!("{config:#}\nerror: {acks:#}"),
                (Err(error), _) => return Err(error),
                (Ok(config), acks) => (config, acks),
            };
        let mut said = Vec::new();
        if !problems.is_empty() {
            said.push(policy::Errors(problems).to_string());
        }
        let acks = acks.unwrap_or_else(|error| {
            said.push(format!("{error:#}"));
            Vec::new()
        });
        let problems = (!said.is_empty()).then(|| said.join("\nerror: "));
        let message_strategies = config.message_strategies();
        let from_files = config != Config::default() || !acks.is_empty();
        if let Some(strategy) = flags.strategy
            && !message_strategies.is_empty()
        {
            // Said, so a report headed by the flag's strategy does not hide the others.
            let own: Vec<String> = message_strategies
                .iter()
                .map(|(id, own)| {
                    let place = message_places
                        .get(id)
                        .map_or_else(String::new, |(file, line)| format!("{file}:{line}"));
                    format!("`{}` ({}, {place})", escape_text(id), own.as_str())
                })
                .collect();
            stderr!(
                "note: --strategy {} sets the default; messages the configuration gives a strategy of their own keep it: {}",
                strategy.as_str(),
                own.join(", ")
            );
        }
        Ok(Settings {
            strategy: flags.strategy.or(config.strategy).unwrap_or_default(),
            fail_on: flags
                .fail_on
                .map(Into::into)
                .or(config.fail_on)
                .unwrap_or_default(),
            dir: dir
                .map(str::to_owned)
                .or(config.dir.as_ref().map(|dir| dir.get_ref().clone())),
            dir_place: dir_place.filter(|_| dir.is_none()),
            message_strategies,
            message_places,
            history: config.history.as_ref().is_some_and(|h| *h.get_ref()),
            history_place,
            proto_rules: flags.proto_rules.or(config.proto_rules).unwrap_or_default(),
            acks,
            from_files,
            problems,
            today: today(),
        })
    }

    /// `result`, where a catalog folder the configuration names cannot be found, with the
    /// line that names it.
    pub fn blame_dir<T>(&self, result: git::Result<T>) -> anyhow::Result<T> {
        result.map_err(|error| match (&self.dir_place, &error) {
            (
                Some(place),
                git::Error::CatalogDirNotFound { .. } | git::Error::CatalogDirOutsideRepo { .. },
            ) => {
                // The configuration's problems held back so far are named with its `dir`.
                let held = self
                    .problems
                    .as_ref()
                    .map_or_else(String::new, |problems| format!("{problems}\nerror: "));
                anyhow::Error::from(error).context(format!("{held}{place}: `dir`"))
            }
            // Run by the hook, which the user did not type: `--dir` goes to its install.
            (_, git::Error::AmbiguousCatalogDir { candidates })
                if std::env::var_os(catalog_diff::hook::ENV).is_some() =>
            {
                anyhow::anyhow!(
                    "several folders hold an eventcatalog.config file: {}\n  hint: reinstall the hook with the one to check: `catalog-diff hook install --dir PATH` (or set `dir` in {})",
                    catalog_diff::catalog::escape_text(&candidates.join(", ")),
                    catalog_diff::policy::CONFIG_FILE
                )
            }
            _ => error.into(),
        })
    }

    /// Every message id the configuration names (`[messages."ID"]`, with settings or none),
    /// each to be checked to name a message.
    pub fn message_ids(&self) -> Vec<String> {
        self.message_places.keys().cloned().collect()
    }

    /// Holds back `problem` of the policy files with their others, to be named together.
    pub fn hold(&mut self, problem: String) {
        self.problems = Some(match self.problems.take() {
            Some(problems) => format!("{problems}\nerror: {problem}"),
            None => problem,
        });
    }

    /// Where the configuration sets the catalog folder this run reads, as a prefix
    /// (`catalog-diff.toml:3: `), or nothing when it comes from `--dir` or detection.
    pub fn dir_prefix(&self) -> String {
        self.dir_place
            .as_ref()
            .map_or_else(String::new, |place| format!("{place}: "))
    }

    /// An error naming, where the configuration sets them, the message ids that name no
    /// message of the catalog (a strategy set for a typo would never apply), after the policy
    /// files' other problems.
    pub fn check_messages(&self, misnamed: &[Misnamed]) -> anyhow::Result<()> {
        if misnamed.is_empty() {
            return match &self.problems {
                Some(problems) => anyhow::bail!("{problems}"),
                None => Ok(()),
            };
        }
        // In the order the file names them, one `error:` line apiece.
        let mut misnamed: Vec<(&Misnamed, Option<&(String, usize)>)> = misnamed
            .iter()
            .map(|m| (m, self.message_places.get(&m.id)))
            .collect();
        misnamed.sort_by_key(|(_, place)| place.map(|(_, line)| *line));
        let lines: Vec<String> = misnamed
            .into_iter()
            .map(|(m, place)| {
                let place = place.map_or_else(String::new, |(file, line)| format!("{file}:{line}"));
                let place = escape_text(&place);
                let id = escape_text(&m.id);
                let what = match &m.kind {
                    Some(kind) => {
                        let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
                            "an"
                        } else {
                            "a"
                        };
                        format!("is {article} {kind}, not an event, command or query")
                    }
                    None => "is the id of no event, command or query in the catalog".to_owned(),
                };
                let nearby: Vec<&str> = m.nearby.iter().map(String::as_str).collect();
                format!(
                    "{place}: [messages.\"{id}\"]: `{id}` {what}{}",
                    suggest::hint(&nearby)
                )
            })
            .collect();
        let problems = self
            .problems
            .as_ref()
            .map_or_else(String::new, |problems| format!("{problems}\nerror: "));
        anyhow::bail!(
            "{problems}{}\n  hint: [messages.\"ID\"] takes a message id, as in its front matter; correct or remove the entry",
            lines.join("\nerror: ")
        )
    }
}

/// The policy files are read from the side checked (a revision, the staged index), so an
/// edit still in the working tree is not used: easy to miss after `catalog-diff ack` or a
/// change to the configuration, so it is said. Line endings are not a difference. A commit
/// other than HEAD was not made from this working tree: its files differ from it by design.
fn note_unread_edit(repo: &Repo, side: Side, name: &str, read: Option<&[u8]>) {
    let (side, to_use) = match side {
        Side::Worktree | Side::Unborn => return,
        Side::Staged => ("the staged index".to_owned(), "`git add` it"),
        Side::Commit(id) if matches!(repo.head_commit(), Ok(Some(head)) if head == id) => {
            (format!("commit {}", &id.to_string()[..12]), "commit it")
        }
        Side::Commit(_) => return,
    };
    let Ok(here) = repo.read_root_file(Side::Worktree, name) else {
        return; // a bare repository has no working tree to differ
    };
    let text = |bytes: &[u8]| {
        bytes
            .iter()
            .filter(|&&b| b != b'\r')
            .copied()
            .collect::<Vec<u8>>()
    };
    let what = match (here.as_deref().map(text), read.map(text)) {
        (here, read) if here == read => return,
        (Some(_), Some(_)) => format!("in the working tree differs from the one in {side}"),
        (Some(_), None) => format!("in the working tree is not in {side}"),
        (None, _) => format!("is deleted in the working tree but not in {side}"),
    };
    let name = escape_text(name);
    stderr!("note: {name} {what}, whose policy the check reads; {to_use} to use it");
}

fn read_file(path: &Path) -> anyhow::Result<Vec<u8>> {
    std::fs::read(path)
        .with_context(|| format!("cannot read the configuration {}", escape_path(path)))
}

/// Today's date in UTC, for acknowledgement expiry.
pub fn today() -> Date {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    Date::from_days((seconds / 86_400) as i64)
}
