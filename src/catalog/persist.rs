//! The parse cache as bytes, so it can outlive a run: every front matter parse (or its error),
//! content hash, dropped-field check, resource file's facts (for the reach of a change) and
//! blob size, keyed by blob id, and every whole catalog's summary, keyed by its fingerprint,
//! one per line (`<kind> <id> <payload>`) under a header that names the format and the tool's
//! version.
//! Reading a file splits its lines and reads the blob sizes, which every run asks for; each
//! other payload stays in the file's text, found there by a search over the entries in key
//! order ([`Saved`]) and decoded when a build asks for it, so a run pays for what it uses, and
//! a save writes the entries no build took as they were.
//! A run that learnt little appends it as a block (`+ <lines> <check>`, then the lines) rather
//! than writing the file whole; a block cut short or not matching its check ends the file
//! there. A file that does not start with today's header, or has a line of the wrong shape,
//! is ignored whole: a cache is never trusted, only used. Pure: the command line reads and
//! writes the file.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use super::BlobId;
use super::build::{ParseCache, Size, Stored};

/// The cache's format. Bump it when what is cached, or how it is computed, changes: older
/// files are then ignored, and (by their names) removed.
macro_rules! format_version {
    () => {
        "13"
    };
}

const HEADER: &str = concat!(
    "catalog-diff parse cache ",
    format_version!(),
    " ",
    env!("CARGO_PKG_VERSION")
);

/// The start of the names of this format's cache files.
pub const FILE_STEM: &str = concat!("parse-cache-v", format_version!());

impl Stored {
    fn tag(self) -> char {
        match self {
            Stored::FrontMatter => 'f',
            Stored::FrontMatterError => 'e',
            Stored::Hash => 'h',
            Stored::Lint => 'l',
            Stored::Summary => 's',
            Stored::Facts => 'r',
            Stored::Size => 'z',
        }
    }

    fn from_tag(tag: &str) -> Option<Stored> {
        match tag {
            "f" => Some(Stored::FrontMatter),
            "e" => Some(Stored::FrontMatterError),
            "h" => Some(Stored::Hash),
            "l" => Some(Stored::Lint),
            "s" => Some(Stored::Summary),
            "r" => Some(Stored::Facts),
            "z" => Some(Stored::Size),
            _ => None,
        }
    }
}

impl ParseCache {
    /// The cache as bytes, at most `limit` of them: what this run made or used comes first, so
    /// a full cache drops what no run has asked for lately.
    pub fn export(&self, limit: usize) -> Vec<u8> {
        let mut lines = Lines::new(1 << 16, limit);
        lines.out.extend_from_slice(HEADER.as_bytes());
        lines.out.push(b'\n');
        let [used_sizes, unused_sizes] = self.size_entries();
        let _ = self.write_entries(&mut lines, used_sizes, |_| true, |_, _| true)
            && self
                .saved
                .get()
                .into_iter()
                .flat_map(Saved::untaken)
                .all(|(kind, id, payload)| lines.push(kind, id, payload))
            && unused_sizes
                .into_iter()
                .all(|(id, size)| lines.push(Stored::Size, id, &size.to_string()));
        lines.out
    }

    /// What this run made that the saved file lacks, as a block to append to that file, or
    /// `None` when the file is better written whole ([`ParseCache::export`]): there is none,
    /// something that is not a whole block follows its entries, it would grow past `limit`,
    /// or the blocks appended to it would outweigh the entries written whole, which a
    /// rewrite also orders by use. A first run for a new change then writes what it learnt,
    /// not the whole cache again.
    pub fn append_block(&self, limit: usize) -> Option<Vec<u8>> {
        let saved = self.saved.get().filter(|saved| saved.clean)?;
        let made = self.made();
        let mut lines = Lines::new(1 << 12, usize::MAX);
        let sizes = {
            let known = self.sizes.lock().unwrap_or_else(|p| p.into_inner());
            let learnt = made.iter().filter(|(kind, _)| *kind == Stored::Size);
            learnt
                .filter_map(|(_, id)| Some((*id, known.get(id)?.bytes)))
                .collect()
        };
        let wanted = |kind| made.iter().any(|(made, _)| *made == kind);
        let kept = |kind, id| made.binary_search(&(kind, id)).is_ok();
        self.write_entries(&mut lines, sizes, wanted, kept);
        let appended = saved.len_bytes() - saved.written_whole;
        let fits = saved.len_bytes() + lines.out.len() + 40 <= limit
            && (appended + lines.out.len()) * 2 <= saved.written_whole;
        fits.then(|| lines.into_block())
    }

    /// Writes to `lines` the summaries, the `sizes`, then the facts, parses, hashes and checks
    /// in memory that pass `keep`, of the kinds `wanted`; `false` once `lines` is full.
    fn write_entries(
        &self,
        lines: &mut Lines,
        sizes: Vec<(BlobId, u64)>,
        wanted: impl Fn(Stored) -> bool,
        keep: impl Fn(Stored, BlobId) -> bool,
    ) -> bool {
        // An entry that does not serialize is left out.
        let mut push = |kind, id, payload: &dyn Fn() -> Option<String>| {
            !keep(kind, id) || payload().is_none_or(|payload| lines.push(kind, id, &payload))
        };
        fn json<T: serde::Serialize + ?Sized>(value: &T) -> Option<String> {
            serde_json::to_string(value).ok()
        }
        // A summary saves a whole build: they go first. A size spares opening an object, and
        // every run checks every blob's size.
        let parses = wanted(Stored::FrontMatter) || wanted(Stored::FrontMatterError);
        (!wanted(Stored::Summary)
            || self
                .summary_entries()
                .into_iter()
                .all(|(key, summary)| push(Stored::Summary, key, &|| json(&*summary))))
            && sizes
                .into_iter()
                .all(|(id, size)| push(Stored::Size, id, &|| Some(size.to_string())))
            && (!wanted(Stored::Facts)
                || self
                    .facts_entries()
                    .into_iter()
                    .all(|(id, facts)| push(Stored::Facts, id, &|| Some(facts.encode()))))
            && (!parses
                || self.front_matter_entries().into_iter().all(|(id, parsed)| {
                    let kind = match parsed.as_ref() {
                        Ok(_) => Stored::FrontMatter,
                        Err(_) => Stored::FrontMatterError,
                    };
                    push(kind, id, &|| match parsed.as_ref() {
                        Ok(value) => json(value),
                        Err(diagnostic) => json(diagnostic),
                    })
                }))
            && (!wanted(Stored::Hash)
                || self
                    .hash_entries()
                    .into_iter()
                    .all(|(id, hash)| push(Stored::Hash, id, &|| Some(hash.to_string()))))
            && (!wanted(Stored::Lint)
                || self
                    .lint_entries()
                    .into_iter()
                    .all(|(id, lint)| push(Stored::Lint, id, &|| json(&*lint))))
    }

    /// Adds the entries of `bytes` (made by [`ParseCache::export`]), undecoded but for blob
    /// sizes; `false`, and nothing added, when they are of another version, truncated or of
    /// the wrong shape.
    pub fn import(&self, bytes: Vec<u8>) -> bool {
        self.import_sizes_first(bytes, || {})
    }

    /// [`ParseCache::import`], calling `sizes_in` once every line is checked and the blob sizes
    /// are in, before the other entries are added: a run asks for sizes first, and the entries
    /// take most of the time. `sizes_in` is not called when the bytes are not used.
    pub fn import_sizes_first(
        &self,
        bytes: impl AsRef<[u8]> + Send + Sync + 'static,
        sizes_in: impl FnOnce(),
    ) -> bool {
        // A cache takes one saved file.
        if self.saved.get().is_some() {
            return false;
        }
        let Ok(text) = std::str::from_utf8(bytes.as_ref()) else {
            return false;
        };
        if text
            .strip_prefix(HEADER)
            .and_then(|t| t.strip_prefix('\n'))
            .is_none()
        {
            return false;
        }
        let start = HEADER.len() + 1;
        // The entries written whole, then the appended blocks that check out.
        let mut written_whole = None;
        let mut end = text.len();
        // Room for every line at once (each is at least 44 bytes): grown by doubling, these
        // lists were copied and their fresh pages faulted in again at each step.
        let most_lines = text.len() / 44;
        let mut entries = Vec::with_capacity(most_lines);
        let mut sizes = Vec::with_capacity(most_lines);
        let mut at = start;
        while at < end {
            let line_end = text[at..].find('\n').map_or(text.len(), |len| at + len);
            let line = &text[at..line_end];
            let line_start = at;
            at = line_end + 1;
            // A block's first line, or what is left of one.
            if line.starts_with('+') {
                if written_whole.is_none() {
                    written_whole = Some(line_start);
                    end = blocks_end(text, line_start);
                }
                continue;
            }
            // A line cut short: the file was truncated.
            if line_end == text.len() {
                return false;
            }
            let Some((kind, id, payload)) = split_line(line) else {
                return false;
            };
            if kind == Stored::Size {
                // A size that is not a number is only not used.
                let size = payload
                    .parse()
                    .ok()
                    .map(|bytes| Size { bytes, used: false });
                sizes.extend(size.map(|size| (id, size)));
            } else {
                let payload_start = line_start + 43;
                entries.push(((kind, id), payload_start..payload_start + payload.len()));
            }
        }
        let written_whole = written_whole.unwrap_or(text.len());
        {
            let mut known = self.sizes.lock().unwrap_or_else(|p| p.into_inner());
            known.reserve(sizes.len());
            for (id, size) in sizes {
                known.entry(id).or_insert(size);
            }
        }
        sizes_in();
        // The file lists each kind's entries in key order, section by section: sorting them
        // whole costs little, and a sorted list is searched where it lies.
        entries.sort_by_key(|(key, _)| *key);
        entries.dedup_by_key(|(key, _)| *key);
        let taken = entries.iter().map(|_| AtomicBool::new(false)).collect();
        let prefixes: Vec<u64> = entries.iter().map(|((_, id), _)| id.prefix()).collect();
        let ends: [usize; KINDS + 1] = std::array::from_fn(|kind| {
            entries.partition_point(|((stored, _), _)| (*stored as usize) < kind)
        });
        let kinds = std::array::from_fn(|kind| {
            let (start, end) = (ends[kind], ends[kind + 1]);
            KindIndex::new(start, &prefixes[start..end])
        });
        self.saved
            .set(Saved {
                clean: end == text.len(),
                bytes: Box::new(bytes),
                written_whole,
                entries,
                prefixes,
                kinds,
                taken,
            })
            .is_ok()
    }
}

/// Entry lines written in place, up to a limit: formatting each line cost more than all else
/// a save does.
struct Lines {
    out: Vec<u8>,
    limit: usize,
    count: usize,
}

impl Lines {
    fn new(capacity: usize, limit: usize) -> Lines {
        Lines {
            out: Vec::with_capacity(capacity),
            limit,
            count: 0,
        }
    }

    /// Writes `<tag> <id> <payload>`; `false`, and nothing written, when it would pass the
    /// limit.
    fn push(&mut self, kind: Stored, id: BlobId, payload: &str) -> bool {
        if self.out.len() + 44 + payload.len() > self.limit {
            return false;
        }
        self.out.extend_from_slice(&[kind.tag() as u8, b' ']);
        self.out.extend_from_slice(&id.to_hex());
        self.out.push(b' ');
        self.out.extend_from_slice(payload.as_bytes());
        self.out.push(b'\n');
        self.count += 1;
        true
    }

    /// The lines as a block to append: `+ <count> <check>`, then the lines.
    fn into_block(self) -> Vec<u8> {
        let mut block = format!("{BLOCK}{} {}\n", self.count, check(&self.out)).into_bytes();
        block.extend_from_slice(&self.out);
        block
    }
}

/// What starts the line before each appended block.
const BLOCK: &str = "+ ";

/// The check of an appended block's lines: the first eight bytes of their SHA-256, in hex.
fn check(lines: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(lines)[..8]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// Where the blocks appended to a saved file's `text` end, from `at` (where the entries
/// written whole end) on: at the first one that is cut short or does not check out, as when
/// its writer died, or when two runs' appends ran into one another.
fn blocks_end(text: &str, mut at: usize) -> usize {
    while let Some(rest) = text[at..].strip_prefix(BLOCK) {
        let Some((marker, lines)) = rest.split_once('\n') else {
            break;
        };
        let Some((count, sum)) = marker.split_once(' ') else {
            break;
        };
        let Ok(count) = count.parse::<usize>() else {
            break;
        };
        let mut len = 0;
        let mut whole = 0;
        for line in lines.split_inclusive('\n').take(count) {
            if line.ends_with('\n') {
                len += line.len();
                whole += 1;
            }
        }
        if whole < count || check(&lines.as_bytes()[..len]) != sum {
            break;
        }
        at += BLOCK.len() + marker.len() + 1 + len;
    }
    at
}

/// A saved cache's entries, undecoded: the file's text and, in key order, each entry's kind,
/// blob and payload's place in that text. An entry is taken once, by the build that decodes it
/// and keeps it in memory (a save writes it from there); the rest are saved again as they were.
pub(crate) struct Saved {
    /// The file's bytes, which are UTF-8, as read or mapped.
    bytes: Box<dyn AsRef<[u8]> + Send + Sync>,
    /// Where the entries written whole end and the appended blocks begin.
    written_whole: usize,
    /// Nothing follows the last appended block that checks out, so another can follow it.
    clean: bool,
    entries: Vec<((Stored, BlobId), Range<usize>)>,
    /// Each entry's id's first eight bytes, as a number: what a search reads.
    prefixes: Vec<u64>,
    /// Each kind's entries (by `Stored as usize`), and a table into them by id.
    kinds: [KindIndex; KINDS],
    taken: Vec<AtomicBool>,
}

/// One kind's entries in the list: where they start, and for each value of an id's top `bits`
/// the first of them whose id begins with that value or more (git's pack index does the same
/// with one byte). With about one entry per value, a lookup reads one slot of the table and a
/// neighbouring entry or two, where halving the list read one far-off entry per step.
struct KindIndex {
    start: usize,
    bits: u32,
    firsts: Vec<u32>,
}

impl KindIndex {
    /// The table of a kind whose entries start at `start`, with ids beginning `prefixes`.
    fn new(start: usize, prefixes: &[u64]) -> KindIndex {
        let bits = prefixes.len().max(1).ilog2();
        let mut firsts = Vec::with_capacity((1 << bits) + 1);
        let mut at = 0;
        for value in 0..1usize << bits {
            while at < prefixes.len() && top(prefixes[at], bits) < value {
                at += 1;
            }
            firsts.push(at as u32);
        }
        firsts.push(prefixes.len() as u32);
        KindIndex {
            start,
            bits,
            firsts,
        }
    }

    /// The kind's entries (counted from its first) whose ids begin as `prefix` does.
    fn alike(&self, prefix: u64) -> Range<usize> {
        let value = top(prefix, self.bits);
        self.firsts[value] as usize..self.firsts[value + 1] as usize
    }
}

/// The top `bits` of `prefix`.
fn top(prefix: u64, bits: u32) -> usize {
    prefix.checked_shr(64 - bits).unwrap_or(0) as usize
}

/// How many kinds of entry there are (`Size` is the last).
const KINDS: usize = Stored::Size as usize + 1;

impl Saved {
    /// The payload of the entry of `kind` for `id`, unless there is none or it was taken.
    pub(crate) fn take(&self, kind: Stored, id: BlobId) -> Option<&str> {
        let found = self.find(kind, id)?;
        let taken = self.taken[found].swap(true, Ordering::Relaxed);
        (!taken).then(|| self.payload(found))
    }

    /// Where the entry of `kind` for `id` is: among the few of its kind whose ids begin as
    /// `id` does, found through the kind's table and their ids' first eight bytes, which are
    /// kept side by side.
    fn find(&self, kind: Stored, id: BlobId) -> Option<usize> {
        let kind = &self.kinds[kind as usize];
        let target = id.prefix();
        let alike = kind.alike(target);
        let start = kind.start + alike.start;
        let prefixes = &self.prefixes[start..kind.start + alike.end];
        let first = prefixes.partition_point(|&p| p < target);
        (first..prefixes.len())
            .take_while(|&i| prefixes[i] == target)
            .map(|i| start + i)
            .find(|&i| self.entries[i].0.1 == id)
    }

    fn payload(&self, entry: usize) -> &str {
        self.text(self.entries[entry].1.clone())
    }

    /// The file's text over `range`, which starts and ends at ASCII (the file was checked
    /// whole, so the check of this part always passes).
    fn text(&self, range: Range<usize>) -> &str {
        std::str::from_utf8(&(*self.bytes).as_ref()[range]).unwrap_or_default()
    }

    fn len_bytes(&self) -> usize {
        (*self.bytes).as_ref().len()
    }

    /// The entries not taken, in key order.
    pub(crate) fn untaken(&self) -> impl Iterator<Item = (Stored, BlobId, &str)> {
        self.entries
            .iter()
            .zip(&self.taken)
            .filter(|(_, taken)| !taken.load(Ordering::Relaxed))
            .map(|(((kind, id), range), _)| (*kind, *id, self.text(range.clone())))
    }

    /// How many entries are not taken (counted by their flags alone: a run asks twice).
    pub(crate) fn len(&self) -> usize {
        let taken = self.taken.iter();
        taken.filter(|taken| !taken.load(Ordering::Relaxed)).count()
    }
}

/// `<kind> <id> <payload>`, the id in 40 hex digits; `None` for any other shape.
fn split_line(line: &str) -> Option<(Stored, BlobId, &str)> {
    let kind = Stored::from_tag(line.get(..1)?)?;
    let id = BlobId::from_hex(line.get(2..42)?)?;
    let payload = line.get(43..)?;
    let bytes = line.as_bytes();
    (bytes[1] == b' ' && bytes[42] == b' ').then_some((kind, id, payload))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::catalog::build::{Options, build};
    use crate::catalog::{Blob, FileSet, SizeMemory};

    fn catalog() -> FileSet {
        let mut files = FileSet::default();
        for (n, (path, text)) in [
            (
                "events/E/index.mdx",
                "---\nid: E\nversion: 1.0.0\nschemaPath: schema.json\nsends: x\n---\n",
            ),
            ("events/E/schema.json", "{\"type\": \"object\"}"),
            ("services/S/index.mdx", "---\nid: [broken\n---\n"),
        ]
        .into_iter()
        .enumerate()
        {
            files.files.insert(
                path.to_owned(),
                Blob::new(BlobId([n as u8 + 1; 20]), Arc::from(text.as_bytes())),
            );
        }
        files
    }

    #[test]
    fn a_cache_round_trips_and_builds_the_same() {
        let files = catalog();
        let options = Options::default();
        let cold = ParseCache::default();
        let expected = build(&files, &options, &cold);
        let bytes = cold.export(usize::MAX);
        let warm = ParseCache::default();
        assert!(warm.import(bytes.clone()));
        assert_eq!(
            warm.export(usize::MAX).len(),
            bytes.len(),
            "undecoded, the same"
        );
        let got = build(&files, &options, &warm);
        assert_eq!(got.index, expected.index);
        assert_eq!(got.diagnostics, expected.diagnostics);
        assert_eq!(warm.saved.get().unwrap().len(), 0, "every entry was used");
        assert_eq!(warm.export(usize::MAX), bytes);
    }

    /// `files` with one more service, `S2`, whose blob no cache has seen.
    fn grown(files: &FileSet) -> FileSet {
        let mut grown = files.clone();
        let text = "---\nid: S2\nversion: 2.0.0\nsends:\n  - id: E\n---\n";
        let blob = Blob::new(BlobId([9; 20]), Arc::from(text.as_bytes()));
        grown.files.insert("services/S2/index.mdx".into(), blob);
        grown
    }

    /// A file with a block appended reads back as one written whole with the same entries.
    fn same_entries(a: &[u8], b: &[u8]) {
        let [a, b] = [a, b].map(|bytes| {
            let cache = ParseCache::default();
            assert!(cache.import(bytes.to_vec()));
            String::from_utf8(cache.export(usize::MAX)).unwrap()
        });
        assert_eq!(a, b);
    }

    #[test]
    fn what_a_run_made_is_appended_as_a_block_and_read_back() {
        let files = catalog();
        let options = Options::default();
        let cold = ParseCache::default();
        build(&files, &options, &cold);
        cold.learn(BlobId([5; 20]), 300);
        let saved = cold.export(usize::MAX);
        assert_eq!(cold.append_block(usize::MAX), None, "no file was read");

        let warm = ParseCache::default();
        assert!(warm.import(saved.clone()));
        let expected = build(&grown(&files), &options, &warm);
        warm.learn(BlobId([6; 20]), 400);
        let block = warm.append_block(usize::MAX).expect("a block");
        let text = String::from_utf8(block.clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("+ "), "{text}");
        assert!(
            lines[1..]
                .iter()
                .all(|line| line.contains(&BlobId([9; 20]).to_string())
                    || line.contains(&BlobId([6; 20]).to_string())),
            "only what the run made: {text}"
        );
        let (marker, rest) = text.split_once('\n').unwrap();
        let count = lines.len() - 1;
        assert_eq!(marker, format!("+ {count} {}", check(rest.as_bytes())));

        let appended = [saved.as_slice(), &block].concat();
        same_entries(&appended, &warm.export(usize::MAX));
        let read = ParseCache::default();
        assert!(read.import(appended.clone()));
        assert_eq!(size(&read, BlobId([6; 20])), Some(400));
        let got = build(&grown(&files), &options, &read);
        assert_eq!(got.index, expected.index);
        assert_eq!(got.diagnostics, expected.diagnostics);
        assert_eq!(read.saved.get().unwrap().len(), 0, "every entry was used");

        // Appended to once more, the file holds both blocks.
        let more = ParseCache::default();
        assert!(more.import(appended.clone()));
        more.learn(BlobId([7; 20]), 500);
        let second = more.append_block(usize::MAX).expect("another block");
        let twice = ParseCache::default();
        assert!(twice.import([appended.as_slice(), &second].concat()));
        assert_eq!(size(&twice, BlobId([6; 20])), Some(400));
        assert_eq!(size(&twice, BlobId([7; 20])), Some(500));
    }

    /// A block whose writer died, or that another run's block ran into, is not read, nor is
    /// anything after it; the entries before it are, and the next save writes the file whole.
    #[test]
    fn a_block_cut_short_or_run_into_is_not_read() {
        let files = catalog();
        let cold = ParseCache::default();
        build(&files, &Options::default(), &cold);
        let saved = cold.export(usize::MAX);
        let warm = ParseCache::default();
        assert!(warm.import(saved.clone()));
        build(&grown(&files), &Options::default(), &warm);
        warm.learn(BlobId([6; 20]), 400);
        let block = warm.append_block(usize::MAX).expect("a block");
        let whole = |bytes: Vec<u8>| {
            let read = ParseCache::default();
            assert!(read.import(bytes), "the entries written whole are used");
            let known = size(&read, BlobId([6; 20]));
            (known, read.append_block(usize::MAX).is_some())
        };
        assert_eq!(
            whole([saved.as_slice(), &block].concat()),
            (Some(400), true)
        );
        for cut in 1..block.len() {
            let bytes = [saved.as_slice(), &block[..cut]].concat();
            assert_eq!(whole(bytes), (None, false), "cut at {cut}");
        }
        // Another run's block right after a cut one: neither is read.
        let bytes = [saved.as_slice(), &block[..block.len() / 2], &block].concat();
        assert_eq!(whole(bytes), (None, false));
        // A block whose lines do not match its check.
        let mut changed = block.clone();
        let last = changed.len() - 2;
        changed[last] ^= 1;
        assert_eq!(whole([saved.as_slice(), &changed].concat()), (None, false));
    }

    /// Blocks are appended while they weigh less than half the entries written whole, and
    /// while the file stays under the limit; past that the file is written whole.
    #[test]
    fn a_file_grown_by_blocks_is_written_whole_again() {
        let cold = ParseCache::default();
        for n in 0..20 {
            cold.learn(BlobId([n; 20]), 100);
        }
        let saved = cold.export(usize::MAX);
        let warm = ParseCache::default();
        assert!(warm.import(saved.clone()));
        warm.learn(BlobId([100; 20]), 100);
        let block = warm
            .append_block(usize::MAX)
            .expect("small beside the file");
        assert_eq!(
            warm.append_block(saved.len() + block.len() - 1),
            None,
            "over the limit"
        );
        for n in 101..115 {
            warm.learn(BlobId([n; 20]), 100);
        }
        assert_eq!(
            warm.append_block(usize::MAX),
            None,
            "too much beside the file"
        );
    }

    fn size(cache: &ParseCache, id: BlobId) -> Option<u64> {
        cache.sizes(&[id])[0]
    }

    #[test]
    fn sizes_round_trip_and_a_learnt_size_replaces_a_saved_one() {
        let cold = ParseCache::default();
        let (a, b) = (BlobId([1; 20]), BlobId([2; 20]));
        cold.learn(a, 70);
        cold.learn(b, 5_000_000_000);
        let warm = ParseCache::default();
        assert!(warm.import(cold.export(usize::MAX)));
        assert_eq!(warm.len(), 2);
        assert_eq!(size(&warm, a), Some(70));
        assert_eq!(size(&warm, b), Some(5_000_000_000));
        assert_eq!(size(&warm, BlobId([3; 20])), None);
        warm.learn(b, 71);
        assert_eq!((warm.len(), size(&warm, b)), (2, Some(71)));
        let odd = format!("{HEADER}\nz {a} seventy\n");
        let read = ParseCache::default();
        assert!(read.import(odd.into_bytes()));
        assert_eq!(
            size(&read, a),
            None,
            "a size that is not a number is not used"
        );
    }

    /// A full cache drops what no run asked for lately: sizes this run neither read nor asked
    /// for are written after every other entry.
    #[test]
    fn sizes_no_run_asked_for_are_written_last() {
        let (a, b) = (BlobId([1; 20]), BlobId([2; 20]));
        let saved = format!("{HEADER}\nz {a} 10\nz {b} 20\nh {a} sha256:x\n");
        let warm = ParseCache::default();
        assert!(warm.import(saved.into_bytes()));
        assert_eq!(size(&warm, b), Some(20));
        let text = String::from_utf8(warm.export(usize::MAX)).unwrap();
        let lines: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(
            lines,
            [
                format!("z {b} 20"),
                format!("h {a} sha256:x"),
                format!("z {a} 10")
            ]
        );
    }

    #[test]
    fn lines_of_another_shape_are_refused() {
        let id = BlobId([7; 20]);
        assert!(split_line(&format!("z {id} 12")).is_some());
        for line in [
            format!("z {id}"),
            format!("z {id}12"),
            format!("z  {id} 12"),
            format!("zz {id} 12"),
            format!("q {id} 12"),
            format!("z {} 12", &id.to_string()[..39]),
            format!("é {id} 12"),
            String::new(),
        ] {
            assert!(split_line(&line).is_none(), "{line:?}");
        }
    }

    #[test]
    fn facts_and_summaries_round_trip() {
        use crate::catalog::build::{Summary, fingerprint};
        use crate::catalog::scope::Scope;
        let files = catalog();
        let options = Options::default();
        let cold = ParseCache::default();
        Scope::new(&files, &cold, None);
        let key = fingerprint(&files, &options);
        let summary = Summary::of(&build(&files, &options, &cold));
        assert!(
            !summary.diagnostics.is_empty(),
            "the catalog has problems to keep"
        );
        cold.remember(key, summary.clone());
        let warm = ParseCache::default();
        assert!(warm.import(cold.export(usize::MAX)));
        assert_eq!(warm.summary(key).as_deref(), Some(&summary));
        let resource_files: Vec<(&str, &Blob)> = files
            .files
            .iter()
            .filter(|(path, _)| crate::catalog::build::is_resource_file(path))
            .map(|(path, blob)| (path.as_str(), blob))
            .collect();
        assert!(!resource_files.is_empty());
        assert_eq!(warm.facts(&resource_files), cold.facts(&resource_files));
        assert!(
            warm.front_matter_entries().is_empty(),
            "facts come from their own entries, not from front matter"
        );
        let other = fingerprint(&FileSet::default(), &options);
        assert_eq!(
            warm.summary(other),
            None,
            "another catalog is not summed up"
        );
    }

    #[test]
    fn a_fingerprint_tells_catalogs_and_build_options_apart_but_not_labels() {
        use crate::catalog::build::fingerprint;
        let files = catalog();
        let options = Options::default();
        let key = fingerprint(&files, &options);
        let labelled = Options {
            commit: "abc".into(),
            ..Options::default()
        };
        assert_eq!(fingerprint(&files, &labelled), key);
        let with_content = Options {
            include_schema_content: true,
            ..Options::default()
        };
        assert_ne!(fingerprint(&files, &with_content), key);
        let mut edited = files.clone();
        let blob = Blob::new(BlobId([9; 20]), Arc::from(&b"{}"[..]));
        edited.files.insert("events/E/schema.json".into(), blob);
        assert_ne!(fingerprint(&edited, &options), key);
        let mut linked = files.clone();
        linked.special.insert(
            "events/E/link".into(),
            crate::catalog::SpecialEntry::Symlink,
        );
        assert_ne!(fingerprint(&linked, &options), key);
    }

    #[test]
    fn a_tree_fingerprint_tells_trees_limits_and_options_apart() {
        use crate::catalog::build::{fingerprint, tree_fingerprint};
        let options = Options::default();
        let tree = [7; 20];
        let key = tree_fingerprint(&tree, 100, &options);
        assert_eq!(tree_fingerprint(&tree, 100, &options), key);
        let labelled = Options {
            commit: "abc".into(),
            ..Options::default()
        };
        assert_eq!(tree_fingerprint(&tree, 100, &labelled), key);
        assert_ne!(tree_fingerprint(&[8; 20], 100, &options), key);
        assert_ne!(
            tree_fingerprint(&tree, 101, &options),
            key,
            "another size limit"
        );
        let with_content = Options {
            include_schema_content: true,
            ..Options::default()
        };
        assert_ne!(tree_fingerprint(&tree, 100, &with_content), key);
        assert_ne!(fingerprint(&FileSet::default(), &options), key);
    }

    #[test]
    fn foreign_truncated_or_corrupt_caches_are_ignored() {
        let cold = ParseCache::default();
        build(&catalog(), &Options::default(), &cold);
        let bytes = cold.export(usize::MAX);
        for bad in [
            &bytes[..bytes.len() - 3],
            b"catalog-diff parse cache 1 0.0.0\n".as_slice(),
            &[bytes.as_slice(), b"x 00 {}\n"].concat(),
            b"\xff\xfe".as_slice(),
        ] {
            let cache = ParseCache::default();
            assert!(!cache.import(bad.to_vec()));
            assert_eq!(cache.export(usize::MAX).len(), HEADER.len() + 1);
        }
        let small = cold.export(HEADER.len() + 80);
        assert!(
            ParseCache::default().import(small),
            "a limit keeps whole lines"
        );
    }

    /// A run waits for the sizes only: they are in when it is told, the other entries not yet;
    /// a file it cannot use tells it nothing, not even the sizes before the bad line.
    #[test]
    fn sizes_are_announced_before_the_other_entries_and_only_from_a_usable_file() {
        let (a, b) = (BlobId([1; 20]), BlobId([2; 20]));
        let saved = format!("{HEADER}\nh {a} sha256:x\nz {b} 20\n");
        let cache = ParseCache::default();
        let mut announced = None;
        assert!(cache.import_sizes_first(saved.into_bytes(), || {
            announced = Some((
                cache.sizes.lock().unwrap().len(),
                cache.saved.get().is_some(),
            ));
        }));
        assert_eq!(announced, Some((1, false)));
        assert_eq!(cache.saved.get().unwrap().len(), 1);
        let bad = format!("{HEADER}\nz {b} 20\nx 00 {{}}\n");
        let unused = ParseCache::default();
        let mut called = false;
        assert!(!unused.import_sizes_first(bad.into_bytes(), || called = true));
        assert!(!called);
        assert!(unused.is_empty());
    }

    /// Saved entries are found in any order the file lists them, each taken once (the first of
    /// two for one key), and those not taken are saved again; a cache takes one file.
    #[test]
    fn saved_entries_are_taken_once_and_the_rest_saved_again() {
        let (a, b) = (BlobId([1; 20]), BlobId([2; 20]));
        let saved = format!("{HEADER}\nh {b} sha256:b\nh {a} sha256:first\nh {a} sha256:again\n");
        let cache = ParseCache::default();
        assert!(cache.import(saved.clone().into_bytes()));
        assert_eq!(cache.len(), 2);
        let entries = cache.saved.get().unwrap();
        assert_eq!(entries.take(Stored::Hash, a), Some("sha256:first"));
        assert_eq!(entries.take(Stored::Hash, a), None, "taken already");
        assert_eq!(entries.take(Stored::Lint, b), None, "another kind");
        let text = String::from_utf8(cache.export(usize::MAX)).unwrap();
        assert_eq!(text, format!("{HEADER}\nh {b} sha256:b\n"));
        assert!(!cache.import(saved.into_bytes()), "a second file");
    }

    /// Every saved entry is found, whatever its id (hashes, ids bunched at either end or alike
    /// in their first bytes, one of a kind), and an id that is not saved is not.
    #[test]
    fn every_saved_entry_is_found_and_no_other() {
        use sha2::{Digest, Sha256};
        let hashed = |n: u32| BlobId(Sha256::digest(n.to_le_bytes())[..20].try_into().unwrap());
        let mut ids: Vec<BlobId> = (0..3000).map(hashed).collect();
        ids.extend((0..40).map(|n| BlobId([n; 20])));
        ids.extend((0..40).map(|n| BlobId([255 - n; 20])));
        // Alike in their first eight bytes.
        ids.extend((0..5).map(|n| BlobId(std::array::from_fn(|i| if i < 8 { 7 } else { n }))));
        let mut text = format!("{HEADER}\n");
        for (n, id) in ids.iter().enumerate() {
            text += &format!("h {id} {n}\n");
        }
        text += &format!("l {} one\n", ids[7]);
        let cache = ParseCache::default();
        assert!(cache.import(text.into_bytes()));
        let saved = cache.saved.get().unwrap();
        for (n, id) in ids.iter().enumerate() {
            assert_eq!(saved.take(Stored::Hash, *id), Some(n.to_string().as_str()));
        }
        assert_eq!(saved.take(Stored::Lint, ids[7]), Some("one"));
        for n in 3000..4000 {
            assert_eq!(saved.take(Stored::Hash, hashed(n)), None);
            assert_eq!(saved.take(Stored::Lint, hashed(n)), None);
        }
        assert_eq!(
            saved.take(Stored::Facts, ids[0]),
            None,
            "a kind with no entries"
        );
        let tags = (0..=u8::MAX).map(|byte| char::from(byte).to_string());
        for kind in tags.filter_map(|tag| Stored::from_tag(&tag)) {
            assert!(
                (kind as usize) < KINDS,
                "{kind:?} has its place among the kinds"
            );
            assert_eq!(Stored::from_tag(&kind.tag().to_string()), Some(kind));
        }
    }

    #[test]
    fn an_undecodable_payload_is_parsed_afresh() {
        let files = catalog();
        let expected = build(&files, &Options::default(), &ParseCache::default());
        let bytes = format!("{HEADER}\nf {} not-json\n", BlobId([1; 20]));
        let cache = ParseCache::default();
        assert!(cache.import(bytes.into_bytes()));
        let got = build(&files, &Options::default(), &cache);
        assert_eq!(got.index, expected.index);
    }
}
