//! YAML events -> JSON values with js-yaml 3 scalar resolution (catalog-index.md §2.2).
//!
//! saphyr-parser does the YAML 1.2 syntax and hands us events that still carry each scalar's
//! style (plain or quoted); this module turns them into a [`serde_json::Value`] the way js-yaml
//! 3.x `safeLoad` followed by `JSON.stringify` would: the js-yaml "default safe" schema for
//! plain scalars, anchors expanded, merge keys applied, duplicate keys refused, and every
//! mapping in JavaScript's property order. It knows nothing about Markdown or front matter.
//!
//! The tree is built with an explicit stack (no recursion), documents nested deeper than
//! [`MAX_DEPTH`] are refused so that dropping or printing a value cannot overflow the stack,
//! and alias expansion is capped at [`MAX_ALIAS_NODES`] copied nodes so that a "billion laughs"
//! document stays linear.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use saphyr_parser::{Event, Marker, Parser, ScalarStyle, Span, Tag};
use serde_json::{Map, Number, Value};

use crate::json_text::js_number;

/// Deepest nesting of sequences and mappings accepted (aliases count at their expanded depth).
pub(crate) const MAX_DEPTH: usize = 128;
/// Most nodes that alias expansion may copy into one document.
pub(crate) const MAX_ALIAS_NODES: usize = 1_000_000;

/// Largest integer a JavaScript number holds exactly (2^53).
const MAX_SAFE: f64 = 9_007_199_254_740_992.0;
const CORE_TAG: &str = "tag:yaml.org,2002:";

/// A YAML problem at a position of the text given to [`parse`] (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} (line {line}, column {column})")]
pub(crate) struct Error {
    pub line: usize,
    pub column: usize,
    pub message: String,
    /// The document nests deeper than [`MAX_DEPTH`]: not a syntax error.
    pub too_deep: bool,
}

impl Error {
    fn at(mark: Marker, message: impl Into<String>) -> Error {
        Error {
            line: mark.line(),
            column: mark.col() + 1,
            message: message.into(),
            too_deep: false,
        }
    }

    fn too_deep(mark: Marker) -> Error {
        Error {
            too_deep: true,
            ..Error::at(mark, format!("nesting deeper than {MAX_DEPTH} levels"))
        }
    }
}

mod bom;
mod printable;
mod tabs;

use bom::StandIn;

/// Parses one YAML document. An empty stream (only comments or blanks) is `Value::Null`.
pub(crate) fn parse(text: &str) -> Result<Value, Error> {
    // js-yaml drops a U+FEFF that starts its input; any other is text (see `bom`).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (text, stand_in) = StandIn::hide(text);
    parse_hidden(&text, stand_in).map_err(|error| Error {
        message: StandIn::restore(stand_in, error.message.into()).into_owned(),
        ..error
    })
}

/// [`parse`] of a text whose U+FEFF are `stand_in`.
fn parse_hidden(text: &str, stand_in: Option<StandIn>) -> Result<Value, Error> {
    let untabbed = tabs::untab(text).map_err(|line| Error {
        line,
        column: 1,
        message: "too many lines indented with tabs to read; indent with spaces".to_owned(),
        too_deep: false,
    })?;
    let Some(untabbed) = untabbed else {
        return parse_untabbed(text, stand_in);
    };
    parse_untabbed(&untabbed.text, stand_in).map_err(|error| {
        let mut message = error.message;
        if untabbed.indented_with_tab(error.line) {
            message.push_str(
                "; this line is indented with a tab, and YAML as the SDK reads it counts only \
                 spaces as indentation: indent it with spaces",
            );
        }
        Error {
            column: untabbed.original_column(error.line, error.column),
            message,
            ..error
        }
    })
}

/// [`parse`] of a text whose lines are indented with spaces only.
fn parse_untabbed(text: &str, stand_in: Option<StandIn>) -> Result<Value, Error> {
    let mut text = Cow::Borrowed(text);
    let mut retries = 0;
    loop {
        let builder = Builder {
            stand_in,
            ..Builder::default()
        };
        match builder.run(&text) {
            Err(BuildError::Fixable(error, fix, at)) if retries < MAX_RETRIES => {
                retries += 1;
                text = Cow::Owned(fix.apply(&text, at).ok_or(error)?);
            }
            Err(BuildError::Fixable(error, ..) | BuildError::Other(error)) => return Err(error),
            Ok(value) => return Ok(value),
        }
    }
}

impl Fix {
    /// What saphyr-parser's error message says is a place to rewrite.
    fn for_message(info: &str) -> Option<Fix> {
        Some(match info {
            info if info.contains("invalid Unicode character escape code") => Fix::SurrogatePairs,
            "':' must be followed by a valid YAML whitespace"
            | "'-' must be followed by a valid YAML whitespace"
            | "tabs disallowed in this context"
            | "expected whitespace" => Fix::TabAfterIndicator,
            "invalid indentation in quoted scalar" => Fix::QuotedIndent,
            "comments must be separated from other tokens by whitespace" => Fix::CommentAfterFlow,
            // saphyr-parser says these only inside a flow collection.
            "invalid indentation" | "invalid indentation in flow construct" => Fix::FlowIndent,
            _ => return None,
        })
    }

    /// `text` rewritten where the parser pointed (character `at`); `None` when that changes
    /// nothing, which would fail the same way again.
    fn apply(self, text: &str, at: usize) -> Option<String> {
        let fixed = match self {
            Fix::SurrogatePairs => join_surrogates(text, at),
            Fix::TabAfterIndicator => tab_after_indicator(text, at),
            Fix::QuotedIndent => quoted_indent(text, at),
            Fix::CommentAfterFlow => comment_after_flow(text, at),
            Fix::FlowIndent => flow_indent(text, at),
        };
        fixed.filter(|fixed| fixed != text)
    }
}

/// How many places one document may need a [`Fix`] at (each costs one more parse).
const MAX_RETRIES: usize = 64;

/// Where saphyr-parser (strict YAML 1.2 test suite) refuses text that js-yaml 3 reads, and the
/// rewrite that makes it read the same value.
#[derive(Debug, Clone, Copy)]
enum Fix {
    /// See [`join_surrogates`].
    SurrogatePairs,
    /// See [`tab_after_indicator`].
    TabAfterIndicator,
    /// See [`quoted_indent`].
    QuotedIndent,
    /// See [`comment_after_flow`].
    CommentAfterFlow,
    /// See [`flow_indent`].
    FlowIndent,
}

/// The byte offset of character `at` of `text`, and the start of its line.
fn line_of_char(text: &str, at: usize) -> (usize, usize) {
    let offset = text.char_indices().nth(at).map_or(text.len(), |(i, _)| i);
    let line_start = text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    (offset, line_start)
}

/// A quoted scalar whose later lines are indented less than its key: js-yaml 3 folds them,
/// saphyr-parser refuses them. The parser points at the opening quote; every later line of the
/// scalar is indented one more than the quote's line, which leaves the value unchanged (a
/// continuation line's leading blanks are not part of it). A line starting with a document
/// marker (`---`, `...`) stays refused, as js-yaml refuses it.
fn quoted_indent(text: &str, quote_at_char: usize) -> Option<String> {
    let (start, line_start) = line_of_char(text, quote_at_char);
    let quote = text[start..]
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\''))?;
    let indent = " ".repeat(
        text[line_start..]
            .bytes()
            .take_while(|&b| b == b' ')
            .count()
            + 1,
    );
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 64);
    let (mut i, mut copied) = (start + 1, 0);
    loop {
        match *bytes.get(i)? {
            // An escaped line break is a line break all the same.
            b'\\' if quote == '"' => {
                i += if matches!(bytes.get(i + 1), Some(b'\r' | b'\n')) {
                    1
                } else {
                    2
                }
            }
            b'\'' if quote == '\'' && bytes.get(i + 1) == Some(&b'\'') => i += 2,
            byte if byte == quote as u8 => break,
            b'\r' | b'\n' => {
                i += if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                let next = &text[i..];
                let marker = ["---", "..."].iter().any(|m| {
                    next.strip_prefix(m).is_some_and(|rest| {
                        rest.is_empty() || rest.starts_with([' ', '\t', '\r', '\n'])
                    })
                });
                if marker {
                    return None;
                }
                out.push_str(&text[copied..i]);
                out.push_str(&indent);
                copied = i;
            }
            _ => i += 1,
        }
    }
    out.push_str(&text[copied..]);
    Some(out)
}

/// A comment right after a closing quote or bracket (`'a'#note`): js-yaml 3 reads the comment,
/// saphyr-parser wants a blank before it. The parser points at the `#`; a space goes before it.
fn comment_after_flow(text: &str, hash_at_char: usize) -> Option<String> {
    let (offset, _) = line_of_char(text, hash_at_char);
    let closes = text[..offset].ends_with(['"', '\'', ']', '}']);
    (closes && text[offset..].starts_with('#'))
        .then(|| format!("{} {}", &text[..offset], &text[offset..]))
}

/// A line of a flow collection (`[`, `{`) indented less than its key: js-yaml 3 only warns,
/// saphyr-parser refuses it. The parser points at the line's first token; one more space of
/// indentation leaves the collection unchanged (a retry adds another if needed).
fn flow_indent(text: &str, token_at_char: usize) -> Option<String> {
    let (_, line_start) = line_of_char(text, token_at_char);
    Some(format!("{} {}", &text[..line_start], &text[line_start..]))
}

/// A tab after an indicator (`key:<TAB>value`, `-<TAB>- item`, `?<TAB>key`): js-yaml reads it as
/// any blank, saphyr-parser refuses it. The parser points at the tab or at what follows it; the
/// blanks there become spaces, which keeps every column and so the value.
fn tab_after_indicator(text: &str, at_char: usize) -> Option<String> {
    let (at, _) = line_of_char(text, at_char);
    let blank = [' ', '\t'];
    let gap_start = text[..at].trim_end_matches(blank).len();
    let gap_end = text.len() - text[at..].trim_start_matches(blank).len();
    let gap = &text[gap_start..gap_end];
    if !text[..gap_start].ends_with([':', '-', '?']) || !gap.contains('\t') {
        return None;
    }
    Some(format!(
        "{}{}{}",
        &text[..gap_start],
        " ".repeat(gap.len()),
        &text[gap_end..]
    ))
}

/// saphyr-parser refuses `"\ud83d\ude00"` (a UTF-16 surrogate pair written as two escapes, as
/// JSON tools write it), which js-yaml joins into one character. On that error the parser points
/// at the opening quote of the scalar: rewrite each pair in that scalar only into the
/// equivalent `\U0001f600` and parse again. `None` when there is nothing to rewrite.
fn join_surrogates(text: &str, quote_at_char: usize) -> Option<String> {
    let start = text.char_indices().nth(quote_at_char).map(|(i, _)| i)?;
    let bytes = text.as_bytes();
    if bytes.get(start) != Some(&b'"') {
        return None;
    }
    let hex4 = |at: usize| -> Option<u32> {
        let digits = text.get(at..at + 4)?;
        if digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            u32::from_str_radix(digits, 16).ok()
        } else {
            None
        }
    };
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..=start]);
    let (mut i, mut copied, mut changed) = (start + 1, start + 1, false);
    while i < bytes.len() && bytes[i] != b'"' {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let pair = (bytes.get(i + 1) == Some(&b'u'))
            .then(|| hex4(i + 2))
            .flatten()
            .filter(|high| (0xD800..0xDC00).contains(high))
            .zip(
                (text.get(i + 6..i + 8) == Some("\\u"))
                    .then(|| hex4(i + 8))
                    .flatten()
                    .filter(|low| (0xDC00..0xE000).contains(low)),
            );
        match pair {
            Some((high, low)) => {
                let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                out.push_str(&text[copied..i]);
                out.push_str(&format!("\\U{code:08x}"));
                i += 12;
                copied = i;
                changed = true;
            }
            // Any other escape: skip the backslash and the byte after it (never a quote).
            None => i += 2,
        }
    }
    out.push_str(&text[copied.min(text.len())..]);
    changed.then_some(out)
}

/// Why [`Builder::run`] failed: text that [`parse`] can rewrite and retry, or anything else.
enum BuildError {
    /// The error, the rewrite, and the character index the parser pointed at.
    Fixable(Error, Fix, usize),
    Other(Error),
}

impl From<Error> for BuildError {
    fn from(error: Error) -> Self {
        BuildError::Other(error)
    }
}

/// A finished node on its way to its parent.
struct Item {
    value: Value,
    /// `String(x)` in JavaScript when it differs from what `value` would give (dates, NaN, ±Infinity).
    key_text: Option<String>,
    /// A plain `<<` (or `!!merge`) scalar: as a key it merges, as a value it is the string `"<<"`.
    merge: bool,
    /// 1 + deepest child for collections, 0 for scalars.
    height: usize,
    /// Node count, for the alias budget.
    size: usize,
    mark: Marker,
}

enum Collection {
    Seq(Vec<Value>),
    Map {
        map: Map<String, Value>,
        /// Keys that came from a merge and may still be overridden by an explicit key.
        overridable: HashSet<String>,
        /// The key read, waiting for its value: (key, is merge, position).
        pending: Option<(String, bool, Marker)>,
    },
}

struct Frame {
    collection: Collection,
    anchor: usize,
    height: usize,
    size: usize,
    mark: Marker,
}

#[derive(Default)]
struct Builder {
    stack: Vec<Frame>,
    /// anchor id -> (value, JS text, height, size)
    anchors: HashMap<usize, (Value, Option<String>, usize, usize)>,
    copied: usize,
    documents: usize,
    root: Option<Value>,
    /// Where the first key of the mapping just opened starts, until that key is read.
    first_key_at: Option<Marker>,
    /// What stands in for U+FEFF in the text, to be put back in scalars.
    stand_in: Option<StandIn>,
}

impl Builder {
    fn run(mut self, text: &str) -> Result<Value, BuildError> {
        let raw = printable::Raw::of(text);
        let parser = Parser::new_from_str(text);
        for event in parser {
            let (event, span): (Event<'_>, Span) = event.map_err(|e| {
                let mut error = Error::at(*e.marker(), e.info().to_owned());
                // The parser's own limit on nested flow collections, which it names in words.
                error.too_deep = e.info().starts_with("recursion limit exceeded");
                let at = e.marker().index();
                match Fix::for_message(e.info()) {
                    Some(fix) => BuildError::Fixable(error, fix, at),
                    None => BuildError::Other(error),
                }
            })?;
            let mark = span.start;
            if let Some(at) = self.first_key_at.take() {
                first_key_without_properties(&event, span, at, text)?;
            }
            match event {
                Event::DocumentStart(_) => {
                    self.documents += 1;
                    if self.documents > 1 {
                        return Err(Error::at(
                            mark,
                            "expected a single document in the stream, but found more",
                        )
                        .into());
                    }
                }
                Event::Scalar(text, style, anchor, tag) => {
                    if let Some(raw) = &raw {
                        raw.check(style, span, &text)?;
                    }
                    // Only inside `[ ]` or `{ }` can a plain scalar start so; js-yaml 3 refuses it.
                    if style == ScalarStyle::Plain && text.starts_with(['>', '|']) {
                        return Err(Error::at(
                            mark,
                            format!("`{text}` inside [ ] or {{ }} cannot start with `{}` unquoted; quote it", &text[..1]),
                        )
                        .into());
                    }
                    let text = StandIn::restore(self.stand_in, text);
                    let item = scalar(&text, style, tag.as_deref(), mark)?;
                    if anchor != 0 {
                        self.anchors
                            .insert(anchor, (item.value.clone(), item.key_text.clone(), 0, 1));
                    }
                    self.attach(item)?;
                }
                Event::Alias(id) => {
                    let (height, size) = match self.anchors.get(&id) {
                        Some(anchored) => (anchored.2, anchored.3),
                        None => self.in_progress(id, mark)?,
                    };
                    // Check the limits before copying anything.
                    if self.stack.len() + height > MAX_DEPTH {
                        return Err(Error::too_deep(mark).into());
                    }
                    self.copied += size;
                    if self.copied > MAX_ALIAS_NODES {
                        return Err(Error::at(mark, "too many alias expansions").into());
                    }
                    let (value, key_text) = match self.anchors.get(&id) {
                        Some((value, key_text, _, _)) => (value.clone(), key_text.clone()),
                        None => (self.snapshot(id), None),
                    };
                    let item = Item {
                        value,
                        key_text,
                        merge: false,
                        height,
                        size,
                        mark,
                    };
                    self.attach(item)?;
                }
                Event::SequenceStart(anchor, tag) => {
                    check_collection_tag(tag.as_deref(), "seq", mark)?;
                    self.open(Collection::Seq(Vec::new()), anchor, mark)?;
                }
                Event::MappingStart(anchor, tag) => {
                    check_collection_tag(tag.as_deref(), "map", mark)?;
                    self.first_key_at = Some(span.end);
                    let map = Collection::Map {
                        map: Map::new(),
                        overridable: HashSet::new(),
                        pending: None,
                    };
                    self.open(map, anchor, mark)?;
                }
                Event::SequenceEnd | Event::MappingEnd => self.close()?,
                Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => {}
            }
        }
        Ok(self.root.unwrap_or(Value::Null))
    }

    /// Height and size of the collection still being read that alias `id` refers to.
    /// js-yaml then hands out the unfinished object itself: merging it copies the keys it has
    /// so far (a no-op for the mapping being built); anything else makes a circular structure
    /// that `JSON.stringify` refuses, so it is an error here.
    fn in_progress(&self, id: usize, mark: Marker) -> Result<(usize, usize), Error> {
        let recursive = || {
            Error::at(
                mark,
                "alias refers to a node that is not complete (recursive alias)",
            )
        };
        let frame = self
            .stack
            .iter()
            .find(|f| f.anchor == id)
            .ok_or_else(recursive)?;
        let merging = |f: &Frame| {
            matches!(
                &f.collection,
                Collection::Map {
                    pending: Some((_, true, _)),
                    ..
                }
            )
        };
        let n = self.stack.len();
        let in_merge = match self.stack.last() {
            Some(
                top @ Frame {
                    collection: Collection::Map { .. },
                    ..
                },
            ) => merging(top),
            Some(Frame {
                collection: Collection::Seq(_),
                ..
            }) => n >= 2 && merging(&self.stack[n - 2]),
            None => false,
        };
        if in_merge {
            Ok((frame.height, frame.size))
        } else {
            Err(recursive())
        }
    }

    /// The current content of the unfinished collection with anchor `id` (see [`Self::in_progress`]).
    fn snapshot(&self, id: usize) -> Value {
        match self
            .stack
            .iter()
            .find(|f| f.anchor == id)
            .map(|f| &f.collection)
        {
            Some(Collection::Seq(items)) => Value::Array(items.clone()),
            Some(Collection::Map { map, .. }) => Value::Object(js_key_order(map.clone())),
            None => Value::Null,
        }
    }

    fn open(&mut self, collection: Collection, anchor: usize, mark: Marker) -> Result<(), Error> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(Error::too_deep(mark));
        }
        self.stack.push(Frame {
            collection,
            anchor,
            height: 1,
            size: 1,
            mark,
        });
        Ok(())
    }

    fn close(&mut self) -> Result<(), Error> {
        let frame = self
            .stack
            .pop()
            .expect("the parser balances collection start and end events");
        let value = match frame.collection {
            Collection::Seq(items) => Value::Array(items),
            Collection::Map { map, .. } => Value::Object(js_key_order(map)),
        };
        if frame.anchor != 0 {
            self.anchors.insert(
                frame.anchor,
                (value.clone(), None, frame.height, frame.size),
            );
        }
        self.attach(Item {
            value,
            key_text: None,
            merge: false,
            height: frame.height,
            size: frame.size,
            mark: frame.mark,
        })
    }

    fn attach(&mut self, item: Item) -> Result<(), Error> {
        let Some(parent) = self.stack.last_mut() else {
            self.root = Some(item.value);
            return Ok(());
        };
        parent.height = parent.height.max(item.height + 1);
        parent.size += item.size;
        match &mut parent.collection {
            Collection::Seq(items) => items.push(item.value),
            Collection::Map {
                map,
                overridable,
                pending,
            } => match pending.take() {
                None => {
                    let key = match item.key_text {
                        Some(text) => text,
                        None => key_string(&item.value).map_err(|m| Error::at(item.mark, m))?,
                    };
                    *pending = Some((key, item.merge, item.mark));
                }
                Some((_, true, _)) => merge_into(map, overridable, item.value, item.mark)?,
                Some((key, false, key_mark)) => {
                    if map.contains_key(&key) && !overridable.contains(&key) {
                        return Err(Error::at(key_mark, "duplicated mapping key"));
                    }
                    overridable.remove(&key);
                    map.insert(key, item.value);
                }
            },
        }
        Ok(())
    }
}

/// js-yaml reads an anchor or tag on the line where a block mapping starts as the mapping's
/// own, and then cannot read a block collection there: `&a key: 1` (or `- !!str key: 1`) is
/// an error to it, although YAML reads the property as the key's. Later keys may have them.
fn first_key_without_properties(
    event: &Event<'_>,
    span: Span,
    at: Marker,
    text: &str,
) -> Result<(), Error> {
    let has_properties = match event {
        Event::Scalar(_, _, anchor, tag)
        | Event::SequenceStart(anchor, tag)
        | Event::MappingStart(anchor, tag) => *anchor != 0 || tag.is_some(),
        _ => false,
    };
    // A flow mapping (`{&a key: 1}`) may start with one: its start ends past the bracket.
    if has_properties && span.start.index() == at.index() && char_before(text, at) != Some('{') {
        return Err(Error::at(
            span.start,
            "an anchor or tag before the first key of a block mapping, on its line, is refused \
             by the SDK's YAML reader (js-yaml); remove it, or put the mapping on the next line",
        ));
    }
    Ok(())
}

/// The character before `at` on its line (saphyr-parser counts lines from 1).
fn char_before(text: &str, at: Marker) -> Option<char> {
    let line = text.split('\n').nth(at.line().checked_sub(1)?)?;
    line.chars().nth(at.col().checked_sub(1)?)
}

/// js-yaml's `mergeMappings`: keys already present win; merged keys stay overridable.
fn merge_into(
    map: &mut Map<String, Value>,
    overridable: &mut HashSet<String>,
    source: Value,
    mark: Marker,
) -> Result<(), Error> {
    let mut merge_one = |source: Value| -> Result<(), Error> {
        let pairs: Vec<(String, Value)> = match source {
            Value::Object(m) => m.into_iter().collect(),
            // A timestamp is a Date in js-yaml: an object without own keys. Dates are already
            // strings here, so recognise their ISO form (a quoted string of exactly that
            // form, which js-yaml would refuse, is merged as nothing too).
            Value::String(s) if is_iso_timestamp(&s) => Vec::new(),
            // Object.keys of an array are its indices.
            Value::Array(a) => a
                .into_iter()
                .enumerate()
                .map(|(i, v)| (i.to_string(), v))
                .collect(),
            _ => {
                return Err(Error::at(
                    mark,
                    "cannot merge mappings; the provided source object is unacceptable",
                ));
            }
        };
        for (key, value) in pairs {
            if !map.contains_key(&key) {
                overridable.insert(key.clone());
                map.insert(key, value);
            }
        }
        Ok(())
    };
    match source {
        Value::Array(sources) => sources.into_iter().try_for_each(merge_one),
        other => merge_one(other),
    }
}

/// `YYYY-MM-DDTHH:MM:SS.sssZ`, what [`iso_string`] prints for years 0 to 9999.
pub(crate) fn is_iso_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 24
        && b.iter().enumerate().all(|(i, &c)| match i {
            4 | 7 => c == b'-',
            10 => c == b'T',
            13 | 16 => c == b':',
            19 => c == b'.',
            23 => c == b'Z',
            _ => c.is_ascii_digit(),
        })
}

/// JavaScript property order: canonical array indices ascending, then the rest in insertion order.
pub(crate) fn js_key_order(map: Map<String, Value>) -> Map<String, Value> {
    if !map.keys().any(|k| array_index(k).is_some()) {
        return map;
    }
    let mut indices = Vec::new();
    let mut others = Vec::new();
    for (key, value) in map {
        match array_index(&key) {
            Some(i) => indices.push((i, key, value)),
            None => others.push((key, value)),
        }
    }
    indices.sort_by_key(|(i, _, _)| *i);
    indices
        .into_iter()
        .map(|(_, k, v)| (k, v))
        .chain(others)
        .collect()
}

/// `Some(n)` when `key` is the canonical decimal form of an integer 0 ..= 2^32 - 2.
fn array_index(key: &str) -> Option<u32> {
    let bytes = key.as_bytes();
    if bytes.is_empty() || bytes.len() > 10 || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if bytes.len() > 1 && bytes[0] == b'0' {
        return None;
    }
    key.parse::<u64>()
        .ok()
        .filter(|&n| n <= 4_294_967_294)
        .map(|n| n as u32)
}

/// JavaScript `String(value)` as js-yaml applies it to a mapping key.
fn key_string(value: &Value) -> Result<String, String> {
    Ok(match value {
        Value::Array(items) => {
            let mut parts = Vec::with_capacity(items.len());
            for item in items {
                parts.push(match item {
                    Value::Array(_) => {
                        return Err("nested arrays are not supported inside keys".to_owned());
                    }
                    Value::Null => String::new(),
                    other => key_string(other)?,
                });
            }
            parts.join(",")
        }
        Value::Object(_) => "[object Object]".to_owned(),
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) if (i as f64).abs() <= MAX_SAFE => i.to_string(),
            (_, Some(f)) => js_number(f),
            _ => n.to_string(),
        },
        Value::String(s) => s.clone(),
    })
}

/// A tag as written out in full: `tag:yaml.org,2002:str` for `!!str` and
/// `!<tag:yaml.org,2002:str>` alike, `!foo` for `!foo` and `!<!foo>`, `!` for the non-specific tag.
fn full_tag(tag: &Tag) -> String {
    format!("{}{}", tag.handle, tag.suffix)
}

/// The name of a YAML standard tag (`str` for `tag:yaml.org,2002:str`), which js-yaml knows
/// however it is written.
fn standard_name(tag: &Tag) -> Option<String> {
    full_tag(tag).strip_prefix(CORE_TAG).map(str::to_owned)
}

/// The non-specific tag `!`: the node is a string (mapping/sequence for collections).
fn is_non_specific(tag: &Tag) -> bool {
    full_tag(tag) == "!"
}

/// A tag the way js-yaml names it in messages: `!<tag:yaml.org,2002:set>`, `!<!foo>`.
fn tag_name(tag: &Tag) -> String {
    format!("!<{}>", full_tag(tag))
}

fn check_collection_tag(tag: Option<&Tag>, expected: &str, mark: Marker) -> Result<(), Error> {
    let Some(tag) = tag.filter(|t| !is_non_specific(t)) else {
        return Ok(());
    };
    match standard_name(tag).as_deref() {
        Some(name) if name == expected => Ok(()),
        Some("set" | "omap" | "pairs") => Err(Error::at(
            mark,
            format!("unsupported tag {} (not used by catalogs)", tag_name(tag)),
        )),
        _ => Err(Error::at(mark, format!("unknown tag {}", tag_name(tag)))),
    }
}

/// What a scalar resolves to.
enum Resolved {
    Value(Value),
    Date(f64),
    /// NaN or ±Infinity: `null` in JSON, but `"NaN"` / `"Infinity"` as a key.
    NonFinite(&'static str),
    Merge,
}

fn scalar(text: &str, style: ScalarStyle, tag: Option<&Tag>, mark: Marker) -> Result<Item, Error> {
    // A node with no content at all (`key:`, `key: !!str`): js-yaml has `null` for it, which a
    // tag may turn into something else.
    let empty = style == ScalarStyle::Plain && text.is_empty();
    let resolved = match tag {
        None if style == ScalarStyle::Plain => implicit(text),
        None => Resolved::Value(Value::String(text.to_owned())),
        Some(t) if is_non_specific(t) && empty => Resolved::Value(Value::Null),
        Some(t) if is_non_specific(t) => Resolved::Value(Value::String(text.to_owned())),
        Some(t) => match standard_name(t) {
            Some(name) => tagged(&name, text, empty, t, mark)?,
            None => return Err(Error::at(mark, format!("unknown tag {}", tag_name(t)))),
        },
    };
    let (value, key_text, merge) = match resolved {
        Resolved::Value(v) => (v, None, false),
        Resolved::Date(ms) => (
            Value::String(iso_string(ms)),
            Some(date_to_string(ms)),
            false,
        ),
        Resolved::NonFinite(text) => (Value::Null, Some(text.to_owned()), false),
        Resolved::Merge => (Value::String("<<".to_owned()), None, true),
    };
    Ok(Item {
        value,
        key_text,
        merge,
        height: 0,
        size: 1,
        mark,
    })
}

/// A scalar with the standard tag `name`, as js-yaml resolves it (`empty`: no content at all).
fn tagged(name: &str, text: &str, empty: bool, tag: &Tag, mark: Marker) -> Result<Resolved, Error> {
    let cannot = || {
        Error::at(
            mark,
            format!("cannot resolve a node with {} explicit tag", tag_name(tag)),
        )
    };
    Ok(match name {
        "str" => Resolved::Value(Value::String(text.to_owned())),
        // js-yaml's null type reads no content, `~` and the spellings of null, not `''`.
        "null" if empty || (is_null(text) && !text.is_empty()) => Resolved::Value(Value::Null),
        "bool" if !empty => Resolved::Value(Value::Bool(bool_value(text).ok_or_else(cannot)?)),
        "int" if !empty => Resolved::Value(number(int_value(text).ok_or_else(cannot)?)),
        "float" if !empty && is_float(text) => float_resolved(text),
        "timestamp" if !empty => Resolved::Date(timestamp(text).ok_or_else(cannot)?),
        "merge" if empty => Resolved::Value(Value::Null),
        "seq" if empty => Resolved::Value(Value::Array(Vec::new())),
        "map" if empty => Resolved::Value(Value::Object(Map::new())),
        "seq" | "map" => {
            let kind = if name == "seq" { "sequence" } else { "mapping" };
            return Err(Error::at(
                mark,
                format!(
                    "unacceptable node kind for {} tag; it should be \"{kind}\", not \"scalar\"",
                    tag_name(tag)
                ),
            ));
        }
        "merge" if text == "<<" => Resolved::Merge,
        "binary" | "set" | "omap" | "pairs" => {
            return Err(Error::at(
                mark,
                format!("unsupported tag {} (not used by catalogs)", tag_name(tag)),
            ));
        }
        "null" | "bool" | "int" | "float" | "timestamp" | "merge" => return Err(cannot()),
        _ => return Err(Error::at(mark, format!("unknown tag {}", tag_name(tag)))),
    })
}

fn float_resolved(text: &str) -> Resolved {
    let f = float_value(text);
    if f.is_nan() {
        Resolved::NonFinite("NaN")
    } else if f.is_infinite() {
        Resolved::NonFinite(if f > 0.0 { "Infinity" } else { "-Infinity" })
    } else {
        Resolved::Value(number(f))
    }
}

/// js-yaml 3 default-safe implicit resolution of a plain scalar: null, bool, int, float, timestamp, merge.
fn implicit(text: &str) -> Resolved {
    if is_null(text) {
        return Resolved::Value(Value::Null);
    }
    if let Some(b) = bool_value(text) {
        return Resolved::Value(Value::Bool(b));
    }
    if let Some(n) = int_value(text) {
        return Resolved::Value(number(n));
    }
    if is_float(text) {
        return float_resolved(text);
    }
    if let Some(ms) = timestamp(text) {
        return Resolved::Date(ms);
    }
    if text == "<<" {
        return Resolved::Merge;
    }
    Resolved::Value(Value::String(text.to_owned()))
}

fn is_null(s: &str) -> bool {
    matches!(s, "" | "~" | "null" | "Null" | "NULL")
}

fn bool_value(s: &str) -> Option<bool> {
    match s {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// A JavaScript number as JSON: integral values within ±2^53 become integers, NaN/±Infinity null.
fn number(f: f64) -> Value {
    if f.is_finite() && f.fract() == 0.0 && f.abs() <= MAX_SAFE {
        Value::from(f as i64)
    } else {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

/// js-yaml 3 `resolveYamlInteger` + `constructYamlInteger`.
fn int_value(data: &str) -> Option<f64> {
    let b = data.as_bytes();
    let mut i = 0;
    if b.is_empty() {
        return None;
    }
    let negative = b[0] == b'-';
    if b[0] == b'-' || b[0] == b'+' {
        i += 1;
    }
    let digits_ok = |rest: &[u8], ok: fn(u8) -> bool| {
        rest.iter().all(|&c| c == b'_' || ok(c))
            && rest.iter().any(|&c| c != b'_')
            && rest.last() != Some(&b'_')
    };
    let sign = if negative { -1.0 } else { 1.0 };
    let clean = |rest: &[u8]| {
        rest.iter()
            .filter(|&&c| c != b'_')
            .copied()
            .collect::<Vec<u8>>()
    };
    if b.get(i) == Some(&b'0') {
        if i + 1 == b.len() {
            return Some(0.0);
        }
        let (radix, rest, ok): (u32, &[u8], fn(u8) -> bool) = match b[i + 1] {
            b'b' => (2, &b[i + 2..], |c| c == b'0' || c == b'1'),
            b'x' => (16, &b[i + 2..], |c: u8| c.is_ascii_hexdigit()),
            _ => (8, &b[i + 1..], |c| (b'0'..=b'7').contains(&c)),
        };
        if !digits_ok(rest, ok) {
            return None;
        }
        let value = clean(rest).iter().fold(0.0f64, |acc, &c| {
            acc * f64::from(radix) + f64::from(char::from(c).to_digit(radix).unwrap_or(0))
        });
        return Some(sign * value);
    }
    let rest = &b[i..];
    if rest.first() == Some(&b'_') {
        return None;
    }
    let colon = rest.iter().position(|&c| c == b':');
    let head = &rest[..colon.unwrap_or(rest.len())];
    // js-yaml only refuses a trailing `_` when no `:` follows (`10_:00` is 600).
    let head_ok = match colon {
        None => digits_ok(head, |c| c.is_ascii_digit()),
        Some(_) => {
            head.iter().all(|&c| c == b'_' || c.is_ascii_digit()) && head.iter().any(|&c| c != b'_')
        }
    };
    if !head_ok {
        return None;
    }
    match colon {
        None => {
            let digits = String::from_utf8(clean(head)).ok()?;
            Some(sign * digits.parse::<f64>().ok()?)
        }
        Some(at) => {
            let tail = &rest[at..];
            if !is_sexagesimal_tail(tail, false) {
                return None;
            }
            let text = String::from_utf8(clean(rest)).ok()?;
            let mut value = 0.0;
            for part in text.split(':') {
                value = value * 60.0 + part.parse::<f64>().ok()?;
            }
            Some(sign * value)
        }
    }
}

/// `(:[0-5]?[0-9])+` followed by the end (`then_dot == false`) or by `.` (returns true only then).
fn is_sexagesimal_tail(tail: &[u8], then_dot: bool) -> bool {
    let mut i = 0;
    let mut groups = 0;
    while i < tail.len() && tail[i] == b':' {
        let start = i + 1;
        let mut end = start;
        while end < tail.len() && tail[end].is_ascii_digit() {
            end += 1;
        }
        match end - start {
            1 => {}
            2 if tail[start] <= b'5' => {}
            _ => return false,
        }
        groups += 1;
        i = end;
    }
    groups > 0
        && if then_dot {
            tail.get(i) == Some(&b'.')
        } else {
            i == tail.len()
        }
}

/// js-yaml 3 `YAML_FLOAT_PATTERN`, plus its "no trailing `_`" rule.
fn is_float(s: &str) -> bool {
    let b = s.as_bytes();
    if b.is_empty() || b[b.len() - 1] == b'_' {
        return false;
    }
    let signed = if matches!(b[0], b'-' | b'+') {
        &b[1..]
    } else {
        b
    };
    if matches!(signed, b".inf" | b".Inf" | b".INF") || matches!(b, b".nan" | b".NaN" | b".NAN") {
        return true;
    }
    let digits_us = |x: &[u8], mut i: usize| {
        while i < x.len() && (x[i].is_ascii_digit() || x[i] == b'_') {
            i += 1;
        }
        i
    };
    let exponent_to_end = |x: &[u8], mut i: usize| {
        if i == x.len() {
            return true;
        }
        if !matches!(x[i], b'e' | b'E') {
            return false;
        }
        i += 1;
        if i < x.len() && matches!(x[i], b'-' | b'+') {
            i += 1;
        }
        i < x.len() && x[i..].iter().all(u8::is_ascii_digit)
    };
    // .2e4, .2 (no sign allowed)
    if b[0] == b'.' {
        let end = digits_us(b, 1);
        return end > 1 && exponent_to_end(b, end);
    }
    // 2.5e4, 2.5 and integers
    let decimal = (|| {
        let x = signed;
        let mut i = match x.first() {
            Some(b'0') => 1,
            Some(c) if (b'1'..=b'9').contains(c) => digits_us(x, 1),
            _ => return false,
        };
        if i < x.len() && x[i] == b'.' {
            i = digits_us(x, i + 1);
        }
        exponent_to_end(x, i)
    })();
    if decimal {
        return true;
    }
    // 20:59.5 (base 60)
    if signed.first().is_some_and(u8::is_ascii_digit) {
        let head = digits_us(signed, 1);
        let tail = &signed[head..];
        if let Some(dot) = tail.iter().position(|&c| c == b'.') {
            let fraction = &tail[dot + 1..];
            return is_sexagesimal_tail(&tail[..=dot], true)
                && fraction.iter().all(|&c| c.is_ascii_digit() || c == b'_');
        }
    }
    false
}

/// js-yaml 3 `constructYamlFloat` (JavaScript `parseFloat` on the cleaned text).
fn float_value(data: &str) -> f64 {
    let value: String = data
        .chars()
        .filter(|&c| c != '_')
        .collect::<String>()
        .to_lowercase();
    let (sign, value) = match value.as_bytes().first() {
        Some(b'-') => (-1.0, &value[1..]),
        Some(b'+') => (1.0, &value[1..]),
        _ => (1.0, &value[..]),
    };
    if value == ".inf" {
        return sign * f64::INFINITY;
    }
    if value == ".nan" {
        return f64::NAN;
    }
    if value.contains(':') {
        let mut total = 0.0;
        for part in value.split(':') {
            total = total * 60.0 + part.parse::<f64>().unwrap_or(f64::NAN);
        }
        return sign * total;
    }
    sign * value.parse::<f64>().unwrap_or(f64::NAN)
}

/// js-yaml 3 timestamp: milliseconds since the epoch, or `None` when the text is not one.
fn timestamp(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut p = Cursor { b, i: 0 };
    let year = p.digits(4, 4)?;
    p.eat(b'-')?;
    let month = p.digits(1, 2)?;
    p.eat(b'-')?;
    let day = p.digits(1, 2)?;
    if p.done() {
        // The date-only form needs exactly two-digit month and day.
        return (b.len() == 10).then(|| utc(year, month - 1.0, day, 0.0, 0.0, 0.0, 0.0));
    }
    if matches!(p.peek(), Some(b'T' | b't')) {
        p.i += 1;
    } else if p.spaces() == 0 {
        return None;
    }
    let hour = p.digits(1, 2)?;
    p.eat(b':')?;
    let minute = p.digits(2, 2)?;
    p.eat(b':')?;
    let second = p.digits(2, 2)?;
    let mut millis = 0.0;
    if p.peek() == Some(b'.') {
        p.i += 1;
        let start = p.i;
        while p.peek().is_some_and(|c| c.is_ascii_digit()) {
            p.i += 1;
        }
        let mut fraction: String = s[start..p.i].chars().take(3).collect();
        while !fraction.is_empty() && fraction.len() < 3 {
            fraction.push('0');
        }
        millis = fraction.parse::<f64>().unwrap_or(0.0);
    }
    let mut delta = 0.0;
    if !p.done() {
        p.spaces();
        match p.peek()? {
            b'Z' => p.i += 1,
            sign @ (b'+' | b'-') => {
                p.i += 1;
                let tz_hour = p.digits(1, 2)?;
                let tz_minute = if p.peek() == Some(b':') {
                    p.i += 1;
                    p.digits(2, 2)?
                } else {
                    0.0
                };
                delta = (tz_hour * 60.0 + tz_minute) * 60_000.0;
                if sign == b'-' {
                    delta = -delta;
                }
            }
            _ => return None,
        }
        if !p.done() {
            return None;
        }
    }
    Some(utc(year, month - 1.0, day, hour, minute, second, millis) - delta)
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    fn done(&self) -> bool {
        self.i == self.b.len()
    }
    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek() == Some(c)).then(|| self.i += 1)
    }
    fn spaces(&mut self) -> usize {
        let start = self.i;
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
        self.i - start
    }
    /// `min..=max` ASCII digits (greedy) as a number.
    fn digits(&mut self, min: usize, max: usize) -> Option<f64> {
        let start = self.i;
        while self.i - start < max && self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        if self.i - start < min {
            return None;
        }
        let mut n = 0.0;
        for &c in &self.b[start..self.i] {
            n = n * 10.0 + f64::from(c - b'0');
        }
        Some(n)
    }
}

/// JavaScript `Date.UTC` (years 0-99 mean 1900-1999; out-of-range fields roll over).
fn utc(year: f64, month: f64, day: f64, hour: f64, minute: f64, second: f64, millis: f64) -> f64 {
    let year = if (0.0..=99.0).contains(&year) {
        1900.0 + year
    } else {
        year
    };
    let y = year + (month / 12.0).floor();
    let m = month.rem_euclid(12.0);
    let days = days_from_civil(y as i64, m as i64 + 1, 1) as f64 + day - 1.0;
    days * 86_400_000.0 + hour * 3_600_000.0 + minute * 60_000.0 + second * 1000.0 + millis
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// (year, month 1-12, day, hour, minute, second, millisecond, weekday 0 = Sunday).
fn civil(ms: f64) -> (i64, i64, i64, i64, i64, i64, i64, i64) {
    let ms = ms as i64;
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    let weekday = (days + 4).rem_euclid(7);
    (
        y,
        m,
        d,
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000,
        weekday,
    )
}

/// `Date.prototype.toISOString`.
fn iso_string(ms: f64) -> String {
    let (y, mo, d, h, mi, s, milli, _) = civil(ms);
    let year = if (0..=9999).contains(&y) {
        format!("{y:04}")
    } else {
        format!("{}{:06}", if y < 0 { '-' } else { '+' }, y.abs())
    };
    format!("{year}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{milli:03}Z")
}

/// `Date.prototype.toString` with the process time zone at UTC (as the oracle runs).
fn date_to_string(ms: f64) -> String {
    const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let (y, mo, d, h, mi, s, _, wd) = civil(ms);
    let year = if y < 0 {
        format!("-{:06}", -y)
    } else {
        format!("{y:04}")
    };
    format!(
        "{} {} {d:02} {year} {h:02}:{mi:02}:{s:02} GMT+0000 (Coordinated Universal Time)",
        DAYS[wd as usize],
        MONTHS[(mo - 1) as usize]
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn load(text: &str) -> Value {
        parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    fn scalar_of(text: &str) -> Value {
        load(&format!("v: {text}"))["v"].clone()
    }

    #[test]
    fn plain_scalars_follow_js_yaml() {
        let cases = [
            ("", json!(null)),
            ("~", json!(null)),
            ("Null", json!(null)),
            ("NULL", json!(null)),
            ("nULL", json!("nULL")),
            ("true", json!(true)),
            ("True", json!(true)),
            ("FALSE", json!(false)),
            ("yes", json!("yes")),
            ("on", json!("on")),
            ("off", json!("off")),
            ("tRue", json!("tRue")),
            ("010", json!(8)),
            ("0o10", json!("0o10")),
            ("08", json!("08")),
            ("0x1F", json!(31)),
            ("-0x10", json!(-16)),
            ("0b101", json!(5)),
            ("1_000", json!(1000)),
            ("1_000_", json!("1_000_")),
            ("_1", json!("_1")),
            ("+12", json!(12)),
            ("-0", json!(0)),
            ("1:30", json!(90)),
            ("1:30:05", json!(5405)),
            ("1:60", json!("1:60")),
            ("10_:00", json!(600)),
            ("1:3_0", json!("1:3_0")),
            ("59:1.9e3:300.1", json!("59:1.9e3:300.1")),
            ("-.5", json!("-.5")),
            ("0x_1", json!(1)),
            ("1__0", json!(10)),
            ("00", json!(0)),
            ("09.5", json!("09.5")),
            ("2024-01-01T1:02:03", json!("2024-01-01T01:02:03.000Z")),
            ("2024-01-01  10:20:30  Z", json!("2024-01-01T10:20:30.000Z")),
            ("2024-13-01", json!("2025-01-01T00:00:00.000Z")),
            ("1.0", json!(1)),
            ("1.10", json!(1.1)),
            (".5", json!(0.5)),
            ("1e3", json!(1000)),
            ("1.5e-7", json!(1.5e-7)),
            ("1.", json!(1)),
            ("1:30.5", json!(90.5)),
            (".inf", json!(null)),
            ("-.inf", json!(null)),
            (".nan", json!(null)),
            ("12345678901234567890", json!(12345678901234567000.0)),
            ("1.2.3", json!("1.2.3")),
            ("2024-01-01", json!("2024-01-01T00:00:00.000Z")),
            ("2024-1-1", json!("2024-1-1")),
            ("2024-01-01T10:20:30Z", json!("2024-01-01T10:20:30.000Z")),
            (
                "2024-01-01 10:20:30.5 +02:00",
                json!("2024-01-01T08:20:30.500Z"),
            ),
            (
                "2024-01-01t01:02:03.123456-01",
                json!("2024-01-01T02:02:03.123Z"),
            ),
            ("2024-02-30", json!("2024-03-01T00:00:00.000Z")),
            ("0050-01-01", json!("1950-01-01T00:00:00.000Z")),
            ("<<", json!("<<")),
            ("'010'", json!("010")),
            ("\"true\"", json!("true")),
            ("'2024-01-01'", json!("2024-01-01")),
            ("!!str 12", json!("12")),
            ("!!int '12'", json!(12)),
        ];
        for (text, want) in cases {
            assert_eq!(scalar_of(text), want, "{text:?}");
        }
    }

    #[test]
    fn key_order_is_javascript_property_order() {
        let v = load("b: 1\n\"2\": 2\n10: 3\n1: 4\n'01': 5\n-1: 6\na: 7\n4294967295: 8\n");
        let keys: Vec<&String> = v
            .as_object()
            .map(|m| m.keys().collect())
            .unwrap_or_default();
        assert_eq!(keys, ["1", "2", "10", "b", "01", "-1", "a", "4294967295"]);
    }

    #[test]
    fn non_string_keys_are_stringified() {
        let v = load("1.0: a\ntrue: b\n~: c\n[1, x]: d\n{a: 1}: e\n.inf: f\n2024-01-01: g\n");
        assert_eq!(
            v,
            json!({"1": "a", "true": "b", "null": "c", "1,x": "d", "[object Object]": "e",
                   "Infinity": "f", "Mon Jan 01 2024 00:00:00 GMT+0000 (Coordinated Universal Time)": "g"})
        );
    }

    #[test]
    fn duplicate_keys_are_errors() {
        let err = parse("a: 1\nb: 2\na: 3\n").expect_err("duplicate");
        assert_eq!(
            (err.line, err.column, err.message.as_str()),
            (3, 1, "duplicated mapping key")
        );
        assert!(parse("1: a\n\"1\": b\n").is_err());
    }

    #[test]
    fn anchors_and_merge_keys() {
        let v =
            load("base: &b {x: 1, y: 2}\nother: &o {z: 0}\nc:\n  <<: [*b, *o]\n  y: 3\n  w: *b\n");
        assert_eq!(
            v["c"],
            json!({"x": 1, "y": 3, "z": 0, "w": {"x": 1, "y": 2}})
        );
        let v = load("b: &b {x: 1}\nc:\n  x: 0\n  <<: *b\n");
        assert_eq!(v["c"], json!({"x": 0}));
        assert!(parse("b: &b {x: 1}\nc:\n  <<: *b\n  x: 2\n  x: 3\n").is_err());
        assert!(parse("c:\n  <<: 1\n").is_err());
        assert_eq!(load("<<: 2024-01-01\n<<: []\n"), json!({}));
        assert_eq!(
            load("<<: &n0\n  0:\n    - 1\n  <<: *n0\n"),
            json!({"0": [1]})
        );
        assert_eq!(
            load("a: &n {x: 1, s: {<<: [*n], y: 2}}\n"),
            json!({"a": {"x": 1, "s": {"x": 1, "y": 2}}})
        );
        assert!(parse("a: &n {x: 1, s: *n}\n").is_err());
        assert_eq!(load("a: '<<'\n'<<': 1\n"), json!({"a": "<<", "<<": 1}));
    }

    #[test]
    fn block_scalars() {
        let v = load("a: |\n  x\n  y\nb: >-\n  x\n  y\nc: |+\n  z\n\nd: 1\n");
        assert_eq!(v, json!({"a": "x\ny\n", "b": "x y", "c": "z\n\n", "d": 1}));
    }

    #[test]
    fn limits_protect_the_stack_and_memory() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(parse(&deep).is_err());
        let ok = format!("{}{}", "[".repeat(100), "]".repeat(100));
        assert!(parse(&ok).is_ok());
        let mut laughs = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 0..12 {
            let prev = if i == 0 {
                "a".to_owned()
            } else {
                format!("l{}", i - 1)
            };
            laughs.push_str(&format!("l{i}: &l{i} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
        }
        assert!(parse(&laughs).is_err());
    }

    #[test]
    fn empty_and_multi_document_streams() {
        assert_eq!(load(""), Value::Null);
        assert_eq!(load("# only a comment\n"), Value::Null);
        assert_eq!(load("- 1\n- x\n"), json!([1, "x"]));
        assert!(parse("a: 1\n...\nb: 2\n").is_err());
    }

    #[test]
    fn tab_after_colon_is_read_as_js_yaml_does() {
        assert_eq!(
            load("a:\t1\nb: \tx y\nc:\t\t[1]\n"),
            json!({"a": 1, "b": "x y", "c": [1]})
        );
        assert_eq!(load("a: \"q:\tx\"\n"), json!({"a": "q:\tx"}));
    }

    /// Values and refusals as js-yaml 3.15 `safeLoad` gives them (checked with node).
    #[test]
    fn tabs_in_indentation_are_read_as_js_yaml_does() {
        let cases = [
            ("owners:\n\t- team-a\n", json!({"owners": ["team-a"]})),
            ("p:\n\ta: 1\n", json!({"p": null, "a": 1})),
            ("p:\n  a: 1\n\tb: 2\n", json!({"p": {"a": 1}, "b": 2})),
            ("p:\n \ta: 1\n", json!({"p": {"a": 1}})),
            ("o:\n\t- a\n - b\n", json!({"o": ["a", "b"]})),
            ("o:\n \t- a\n  - b\n", json!({"o": ["a", "b"]})),
            ("a:\n  b:\n\tc: 1\n", json!({"a": {"b": null}, "c": 1})),
            ("- a\n\t- b\n", json!(["a", "b"])),
            ("- a:\n\t- b\n", json!([{"a": null}, "b"])),
            ("- a:\n  \t- b\n", json!([{"a": ["b"]}])),
            ("- a\n-\t- b\n", json!(["a", ["b"]])),
            ("-\t-\tb\n", json!([["b"]])),
            ("?\ta\n:\tb\n", json!({"a": "b"})),
            ("a:\n\t[1]: x\n", json!({"a": null, "1": "x"})),
            ("a: |\n  \tx\n", json!({"a": "\tx\n"})),
            ("a: |\n \tx\n", json!({"a": "\tx\n"})),
            ("a: \"x\n\t- y\"\n", json!({"a": "x - y"})),
            ("a: x\n \t- y\n", json!({"a": "x - y"})),
            ("k: &a\n\t- x\n", json!({"k": ["x"]})),
            ("\ta: 1\n", json!({"a": 1})),
        ];
        for (text, want) in cases {
            assert_eq!(load(&format!("\n{text}")), want, "{text:?}");
        }
        for text in [
            "owners:\n\t- a\n\t- b\n",
            "a:\n \tb: 1\n \tc: 2\n",
            "a: |\n\tx\n",
            "a:\n\tx\n",
            "\t- a\n\t- b\n",
        ] {
            assert!(parse(&format!("\n{text}")).is_err(), "{text:?}");
        }
        let err = parse("\nowners:\n\t- a\n\t- b\n").expect_err("second item");
        assert_eq!(err.line, 4);
        assert!(err.message.contains("indented with a tab"), "{err}");
    }

    /// What js-yaml 3.15 refuses as non-printable, and where (checked with node).
    #[test]
    fn non_printable_characters_are_refused_where_js_yaml_refuses_them() {
        let refused_plain = [
            '\u{1}', '\u{8}', '\u{b}', '\u{c}', '\u{1f}', '\u{7f}', '\u{80}', '\u{84}', '\u{86}',
            '\u{9f}', '\u{fffe}', '\u{ffff}',
        ];
        for c in refused_plain {
            for text in [
                format!("a: x{c}y\n"),
                format!("a: |\n  x{c}y\n"),
                format!("x{c}: 1\n"),
            ] {
                let err = parse(&text).expect_err(&text);
                assert!(err.message.contains("non-printable"), "{text:?}: {err}");
            }
        }
        for c in ['\u{85}', '\u{a0}', '\u{fffd}', '\u{2028}'] {
            assert_eq!(load(&format!("a: x{c}y\n")), json!({"a": format!("x{c}y")}));
        }
        for c in ['\u{1}', '\u{b}', '\u{1f}'] {
            assert!(parse(&format!("a: 'x{c}y'\n")).is_err(), "{c:?}");
            assert!(parse(&format!("a: \"x{c}y\"\n")).is_err(), "{c:?}");
        }
        for c in ['\u{7f}', '\u{80}', '\u{ffff}', '\t'] {
            assert_eq!(
                load(&format!("a: \"x{c}y\"\n")),
                json!({"a": format!("x{c}y")})
            );
        }
        assert_eq!(
            load("a: \"\\u0001\" # \u{1} in a comment\n# \u{7f}\nb: |\n  x\n# \u{1}\n"),
            json!({"a": "\u{1}", "b": "x\n"})
        );
        // The character's own place, also inside a scalar that goes on over lines.
        let err = parse("a: one\n  two\u{1}\n  three\n").expect_err("folded plain");
        assert_eq!((err.line, err.column), (2, 6));
        assert!(err.message.contains("U+0001"), "{err}");
    }

    /// Standard tags however written, as js-yaml 3.15 resolves them (checked with node).
    #[test]
    fn explicit_tags_resolve_as_js_yaml_does() {
        let cases = [
            ("!<tag:yaml.org,2002:str> 1", json!("1")),
            ("!<tag:yaml.org,2002:int> 0x1F", json!(31)),
            (
                "!<tag:yaml.org,2002:timestamp> 2024-01-01",
                json!("2024-01-01T00:00:00.000Z"),
            ),
            ("!!str", json!("")),
            ("!!null", json!(null)),
            ("!!null Null", json!(null)),
            ("!!merge", json!(null)),
            ("!!merge <<", json!("<<")),
            ("!!seq", json!([])),
            ("!<tag:yaml.org,2002:map>", json!({})),
            ("!", json!(null)),
            ("!<!> 12", json!("12")),
        ];
        for (text, want) in cases {
            assert_eq!(scalar_of(text), want, "{text:?}");
        }
        for text in [
            "v: !!null ''",
            "v: !<tag:yaml.org,2002:null> \"\"",
            "v: !!merge ''",
            "v: !!int",
            "v: !!seq x",
            "v: !<tag:yaml.org,2002:nope> x",
            "v: !local x",
            "&a k: 1",
            "- !!str k: 1",
        ] {
            assert!(parse(text).is_err(), "{text:?}");
        }
        assert_eq!(
            load("a: 1\n&x b: 2\nc: {&y d: 3}\n"),
            json!({"a": 1, "b": 2, "c": {"d": 3}})
        );
    }

    #[test]
    fn surrogate_pair_escapes_are_joined() {
        let v = load(
            "a: \"x \\ud83d\\ude00 \\\" \\ud83d\\ude00\"\nb: 'raw \\ud83d\\ude00'\nc: \"\\u00e9\"\n",
        );
        assert_eq!(
            v,
            json!({"a": "x \u{1f600} \" \u{1f600}", "b": "raw \\ud83d\\ude00", "c": "é"})
        );
        assert!(parse("a: \"\\ud83d alone\"\n").is_err());
    }
}
