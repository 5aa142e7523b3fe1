//! Commit ranges for `log`: the first-parent history of a range, oldest first.

use super::{CommitId, Error, Repo, Result};
use crate::catalog::Blob;

/// One commit of a first-parent walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommitInfo {
    pub id: CommitId,
    /// All parents in order (the first one is what `log` diffs against).
    pub parents: Vec<CommitId>,
    /// `Name <email>`.
    pub author: String,
    /// Author date, ISO 8601 with the author's offset (`2024-01-02T03:04:05+01:00`).
    pub date: String,
    /// The first line of the message.
    pub subject: String,
}

impl CommitInfo {
    /// The parent `log` diffs against; `None` for a root commit (or a shallow boundary).
    pub fn first_parent(&self) -> Option<CommitId> {
        self.parents.first().copied()
    }
}

/// Whether a commit's `encoding` header names ISO-8859-1, the one encoding besides UTF-8 that
/// git commits are written in often enough to read (others are read as UTF-8, with U+FFFD).
fn is_latin1(encoding: &gix::bstr::BStr) -> bool {
    let name = encoding
        .to_string()
        .to_ascii_lowercase()
        .replace(['-', '_'], "");
    matches!(name.as_str(), "iso88591" | "latin1" | "l1")
}

impl Repo {
    /// The first-parent history selected by `range`, oldest first: `None` is all of HEAD's
    /// history (empty while HEAD is unborn); `REV` all of REV's; `A..B` the commits of B not
    /// reachable from A; `A...B` the commits of B since the merge base.
    pub fn first_parent_walk(&self, range: Option<&str>) -> Result<Vec<CommitInfo>> {
        Ok(self.first_parent_walk_noted(range)?.0)
    }

    /// [`Repo::first_parent_walk`], with [`Repo::parse_range_noted`]'s note on the range.
    pub fn first_parent_walk_noted(
        &self,
        range: Option<&str>,
    ) -> Result<(Vec<CommitInfo>, Option<String>)> {
        let range = super::given_range(range)?;
        let root = self.root_alone(range)?;
        let range = range.map(super::parent_shorthand);
        let mut note = None;
        let (hidden, tip) = match range.as_deref() {
            // A root commit alone: the walk from it holds only it.
            _ if let Some(root) = root => (None, root),
            None => match self.head_commit()? {
                Some(head) => (None, head),
                None => return Ok((Vec::new(), None)),
            },
            Some(r) if r.contains("..") => match self.parse_range_noted(Some(r), false)? {
                (super::Sides::Commits { a, b }, said) => {
                    note = said;
                    (Some(a), b)
                }
                // `parse_range` only yields `Commits` for ranges with `..`.
                (other, _) => {
                    return Err(Error::UnknownRevision {
                        rev: format!("{other:?}"),
                        hint: "expected A..B".into(),
                        source: None,
                    });
                }
            },
            Some(r) => (None, self.resolve_commit(r)?),
        };
        let walk = self
            .repo
            .rev_walk([tip.0])
            .first_parent_only()
            .with_hidden(hidden.map(|h| h.0));
        let walk = walk.all().map_err(|source| Error::Git {
            what: format!("walking the history of {tip}"),
            source,
        })?;
        let mut out = Vec::new();
        for info in walk {
            let info = info.map_err(|source| Error::Git {
                what: format!("walking the history of {tip}"),
                source,
            })?;
            let commit = self
                .repo
                .find_commit(info.id)
                .map_err(|e| self.object_error(&info.id, "commit", e))?;
            let parents = commit.parent_ids().map(|p| CommitId(p.detach())).collect();
            // git shows commits whose author line it cannot read in full (no email, no date,
            // an odd time zone); their entry says what it could read instead of failing the
            // whole walk.
            let author = commit.author().ok();
            let time = author.and_then(|author| author.time().ok());
            let latin1 = commit
                .decode()
                .ok()
                .and_then(|decoded| decoded.encoding)
                .is_some_and(is_latin1);
            let text = |bytes: &[u8]| match latin1 {
                // Each byte is the code point of its character.
                true => bytes.iter().map(|&b| char::from(b)).collect(),
                false => String::from_utf8_lossy(bytes).into_owned(),
            };
            let subject = match commit.message() {
                Ok(message) => text(&message.summary()),
                Err(_) => text(raw_subject(&commit.data)),
            };
            out.push(CommitInfo {
                id: CommitId(info.id),
                parents,
                author: author.map_or_else(
                    || "(author unreadable)".to_owned(),
                    |author| format!("{} <{}>", text(author.name), text(author.email)),
                ),
                date: time.map_or_else(|| "unknown".to_owned(), iso_date),
                subject,
            });
        }
        out.reverse();
        Ok((out, note))
    }

    /// Every distinct version of the file at repository path `path` in the first-parent
    /// history of `tip`, newest first, each with the newest commit that holds it. Commits
    /// without the file are skipped; each blob is read once (through the blob cache).
    pub fn file_history(&self, tip: CommitId, path: &str) -> Result<Vec<(CommitId, Blob)>> {
        let walk = self
            .repo
            .rev_walk([tip.0])
            .first_parent_only()
            .all()
            .map_err(|source| Error::Git {
                what: format!("walking the history of {tip}"),
                source,
            })?;
        // A shallow clone's boundary commits lack their parents: a walk reaching one is cut.
        let boundary: Vec<gix::ObjectId> = (self.repo.shallow_commits().ok().flatten())
            .map(|commits| commits.iter().copied().collect())
            .unwrap_or_default();
        let mut seen = std::collections::HashSet::new();
        let mut found = Vec::new();
        for info in walk {
            let info = info.map_err(|source| Error::Git {
                what: format!("walking the history of {tip}"),
                source,
            })?;
            let commit = CommitId(info.id);
            if boundary.contains(&info.id) {
                return Err(Error::ShallowHistory {
                    path: path.to_owned(),
                    commit: commit.to_string(),
                });
            }
            if let Some(blob) = self.blob_at(commit, path)?
                && seen.insert(blob)
            {
                found.push((commit, blob));
            }
        }
        found
            .into_iter()
            .map(|(commit, blob)| Ok((commit, self.read_blob(blob, path)?)))
            .collect()
    }
}

/// `time` in ISO 8601; in UTC when its offset is out of range (`+9999`), which git prints
/// as it is written.
fn iso_date(time: gix::date::Time) -> String {
    let format = gix::date::time::format::ISO8601_STRICT;
    time.format(format)
        .unwrap_or_else(|_| gix::date::Time { offset: 0, ..time }.format_or_unix(format))
}

/// The first line of a commit's message, read from its raw text (after the first blank line).
fn raw_subject(data: &[u8]) -> &[u8] {
    let message = data
        .windows(2)
        .position(|pair| pair == b"\n\n")
        .map_or(&[][..], |at| &data[at + 2..]);
    message.split(|&b| b == b'\n').next().unwrap_or_default()
}
