//! Versions as node-semver 7.7 sees them: validity, precedence, ranges (catalog-index.md §8.1,
//! §10.5), plus the JavaScript string order the SDK sorts with.
//!
//! Written by hand because Cargo's `semver` crate disagrees with npm's on exactly the inputs
//! catalogs contain (`v` prefixes, x-ranges, `||`, empty ranges, pre-release exclusion).
//! Range parsing follows node-semver's own pipeline of text rewrites (hyphen, trims, caret,
//! tilde, x-range, star) so odd inputs are accepted or rejected the way npm does.
//! Pure functions, no I/O.

use std::cmp::Ordering;

use serde_json::Value;

use super::js::{compare_text, strict_eq};

/// node-semver's `MAX_LENGTH`: longer version strings are invalid.
const MAX_LENGTH: usize = 256;
/// `Number.MAX_SAFE_INTEGER`: larger version numbers are invalid.
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Compares strings the way JavaScript's `<` does: by UTF-16 code units.
pub fn cmp_code_units(a: &str, b: &str) -> Ordering {
    // A common prefix orders the same in any encoding: only the first differing character
    // needs UTF-16 (where U+E000..U+FFFF sorts after the surrogates of U+10000 and up).
    let common = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let start = (0..=common)
        .rev()
        .find(|&i| a.is_char_boundary(i))
        .unwrap_or(0);
    a[start..].encode_utf16().cmp(b[start..].encode_utf16())
}

pub use super::js_sort::js_sort_by;

/// A version accepted by node-semver's strict `valid()`.
#[derive(Clone, Debug)]
pub struct SemVer {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pub prerelease: Vec<String>,
    /// Kept for display only: precedence ignores it.
    pub build: Vec<String>,
}

impl SemVer {
    /// node-semver `valid(s) !== null`: surrounding whitespace and one leading `v` allowed.
    pub fn parse(s: &str) -> Option<SemVer> {
        if s.encode_utf16().count() > MAX_LENGTH {
            return None;
        }
        parse_plain(js_trim(s))
    }

    /// The normalised text node-semver keeps (`version`): no `v`, no build.
    pub fn version_text(&self) -> String {
        let mut text = format!("{}.{}.{}", self.major, self.minor, self.patch);
        if !self.prerelease.is_empty() {
            text.push('-');
            text.push_str(&self.prerelease.join("."));
        }
        text
    }
}

impl PartialEq for SemVer {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for SemVer {}

impl PartialOrd for SemVer {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SemVer {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(other.major, other.minor, other.patch))
            .then_with(|| compare_prerelease(&self.prerelease, &other.prerelease))
    }
}

fn compare_prerelease(a: &[String], b: &[String]) -> Ordering {
    match (a.is_empty(), b.is_empty()) {
        (true, true) => return Ordering::Equal,
        (false, true) => return Ordering::Less,
        (true, false) => return Ordering::Greater,
        (false, false) => {}
    }
    for (x, y) in a.iter().zip(b) {
        let ord = compare_identifier(x, y);
        if ord != Ordering::Equal {
            return ord;
        }
    }
    a.len().cmp(&b.len())
}

/// node-semver `compareIdentifiers`: numeric identifiers compare as JavaScript numbers and sort
/// before alphanumeric ones; the rest compare as strings.
fn compare_identifier(a: &str, b: &str) -> Ordering {
    let a_num = is_all_digits(a);
    let b_num = is_all_digits(b);
    match (a_num, b_num) {
        (true, true) => {
            // `+a` in JavaScript: a double, so huge identifiers round exactly like this.
            let x: f64 = a.parse().unwrap_or(f64::INFINITY);
            let y: f64 = b.parse().unwrap_or(f64::INFINITY);
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => cmp_code_units(a, b),
    }
}

fn is_all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// JavaScript `\s` and `String.prototype.trim` whitespace (differs from Rust's: U+FEFF is in,
/// U+0085 is out).
fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

pub(crate) fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}

/// JavaScript `s.split(/\s+/)`: empty leading/trailing pieces are kept.
fn js_split_ws(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if is_js_space(c) {
            out.push(&s[start..i]);
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if !is_js_space(d) {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
            start = end;
        }
    }
    out.push(&s[start..]);
    out
}

/// `NUMERICIDENTIFIER`: `0` or digits without a leading zero.
fn is_numeric_id(s: &str) -> bool {
    s == "0" || (is_all_digits(s) && !s.starts_with('0'))
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-'
}

fn is_prerelease_id(s: &str) -> bool {
    is_numeric_id(s) || (!s.is_empty() && s.bytes().all(is_ident_byte) && !is_all_digits(s))
}

fn is_build_id(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(is_ident_byte)
}

fn safe_number(s: &str) -> Option<u64> {
    s.parse::<u64>().ok().filter(|n| *n <= MAX_SAFE_INTEGER)
}

/// Splits `core[-pre][+build]` (nothing before `core`).
fn split_tail(s: &str) -> (&str, Option<&str>, Option<&str>) {
    let (rest, build) = match s.split_once('+') {
        Some((r, b)) => (r, Some(b)),
        None => (s, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((c, p)) => (c, Some(p)),
        None => (rest, None),
    };
    (core, pre, build)
}

fn valid_pre(pre: Option<&str>) -> bool {
    pre.is_none_or(|p| p.split('.').all(is_prerelease_id))
}

fn valid_build(build: Option<&str>) -> bool {
    build.is_none_or(|b| b.split('.').all(is_build_id))
}

/// `FULLPLAIN` matched against the whole string: `v?MAJOR.MINOR.PATCH(-pre)?(+build)?`.
fn parse_plain(s: &str) -> Option<SemVer> {
    let s = s.strip_prefix('v').unwrap_or(s);
    let (core, pre, build) = split_tail(s);
    if !valid_pre(pre) || !valid_build(build) {
        return None;
    }
    let mut parts = core.split('.');
    let mut number = || {
        parts
            .next()
            .filter(|p| is_numeric_id(p))
            .and_then(safe_number)
    };
    let (major, minor, patch) = (number()?, number()?, number()?);
    if parts.next().is_some() {
        return None;
    }
    Some(SemVer {
        major,
        minor,
        patch,
        prerelease: pre
            .map(|p| p.split('.').map(str::to_owned).collect())
            .unwrap_or_default(),
        build: build
            .map(|b| b.split('.').map(str::to_owned).collect())
            .unwrap_or_default(),
    })
}

/// The pieces `XRANGEPLAIN` captures: `[v=\s]*M(.m(.p(-pre)?(+build)?)?)?`.
struct XParts<'a> {
    major: &'a str,
    minor: Option<&'a str>,
    patch: Option<&'a str>,
    pre: Option<&'a str>,
}

fn is_xrange_id(s: &str) -> bool {
    is_numeric_id(s) || matches!(s, "x" | "X" | "*")
}

/// node-semver `isX`: missing, `x`, `X` or `*`.
fn is_x(id: Option<&str>) -> bool {
    id.is_none_or(|s| s.is_empty() || s.eq_ignore_ascii_case("x") || s == "*")
}

fn match_xrange_plain(s: &str) -> Option<XParts<'_>> {
    let s = s.trim_start_matches(['v', '=', ' ']);
    let (core, pre, build) = split_tail(s);
    let parts: Vec<&str> = core.split('.').collect();
    if parts.len() > 3 || !parts.iter().all(|p| is_xrange_id(p)) {
        return None;
    }
    if (pre.is_some() || build.is_some()) && parts.len() != 3 {
        return None;
    }
    if !valid_pre(pre) || !valid_build(build) {
        return None;
    }
    Some(XParts {
        major: parts[0],
        minor: parts.get(1).copied(),
        patch: parts.get(2).copied(),
        pre,
    })
}

/// `+n + 1` in JavaScript. On overflow the result is a number node-semver rejects anyway.
fn inc(n: &str) -> String {
    match n.parse::<u64>().ok().and_then(|v| v.checked_add(1)) {
        Some(v) => v.to_string(),
        None => (MAX_SAFE_INTEGER + 1).to_string(),
    }
}

fn hyphen_replace(part: &str) -> Option<String> {
    let mut search = 0;
    while let Some(pos) = part[search..].find(" - ") {
        let at = search + pos;
        let (left, right) = (&part[..at], &part[at + 3..]);
        if let (Some(f), Some(t)) = (match_xrange_plain(left), match_xrange_plain(right)) {
            let from = if is_x(Some(f.major)) {
                String::new()
            } else if is_x(f.minor) {
                format!(">={}.0.0", f.major)
            } else if is_x(f.patch) {
                format!(">={}.{}.0", f.major, f.minor.unwrap_or_default())
            } else {
                format!(">={left}")
            };
            let (tm, tmi, tp) = (
                t.major,
                t.minor.unwrap_or_default(),
                t.patch.unwrap_or_default(),
            );
            let to = if is_x(Some(t.major)) {
                String::new()
            } else if is_x(t.minor) {
                format!("<{}.0.0-0", inc(tm))
            } else if is_x(t.patch) {
                format!("<{tm}.{}.0-0", inc(tmi))
            } else if let Some(pre) = t.pre.filter(|p| !p.is_empty()) {
                format!("<={tm}.{tmi}.{tp}-{pre}")
            } else {
                format!("<={right}")
            };
            return Some(format!("{from} {to}").trim().to_owned());
        }
        search = at + 1;
    }
    None
}

/// The greedy `((?:<|>)?=?)` at the start of `s`: its length.
fn gtlt_len(s: &[u8]) -> usize {
    let mut n = 0;
    if matches!(s.first(), Some(b'<' | b'>')) {
        n = 1;
    }
    if s.get(n) == Some(&b'=') {
        n += 1;
    }
    n
}

/// `COMPARATORTRIM` (`> 1.2.3` -> `>1.2.3`), scanning like the global regex replace.
fn comparator_trim(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        let mut j = i;
        if b[j] == b' ' {
            j += 1;
        }
        let op_end = j + gtlt_len(&b[j..]);
        let mut k = op_end;
        let gap = b.get(k) == Some(&b' ');
        if gap {
            k += 1;
        }
        let mut v = k;
        while matches!(b.get(v), Some(b'v' | b'=' | b' ')) {
            v += 1;
        }
        if matches!(b.get(v), Some(c) if c.is_ascii_digit() || matches!(c, b'x' | b'X' | b'*')) {
            // Matched: drop the space between operator and version, skip what was consumed.
            out.push_str(&s[i..op_end]);
            let mut end = v;
            while matches!(b.get(end), Some(c) if c.is_ascii_digit() || matches!(c, b'x' | b'X' | b'*' | b'.'))
            {
                end += 1;
            }
            if matches!(b.get(end), Some(b'-' | b'+')) {
                while matches!(b.get(end), Some(c) if is_ident_byte(*c) || matches!(c, b'.' | b'+'))
                {
                    end += 1;
                }
            }
            out.push_str(&s[k..end]);
            i = end;
            continue;
        }
        let len = s[i..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&s[i..i + len]);
        i += len;
    }
    out
}

/// `TILDETRIM` and `CARETTRIM`: `~ 1`, `~> 1` -> `~1`; `^ 1` -> `^1`.
fn operator_trim(s: &str) -> String {
    s.replace("~> ", "~").replace("~ ", "~").replace("^ ", "^")
}

/// Removes the first `+build` (node-semver strips build metadata from range comparators).
fn strip_build(s: &str) -> String {
    let b = s.as_bytes();
    for (i, _) in s.match_indices('+') {
        let mut end = i + 1;
        let mut ok = false;
        loop {
            let start = end;
            while b.get(end).is_some_and(|c| is_ident_byte(*c)) {
                end += 1;
            }
            if end == start {
                if start > i + 1 {
                    end -= 1; // give back the dot that had no identifier after it
                }
                break;
            }
            ok = true;
            if b.get(end) == Some(&b'.') {
                end += 1;
            } else {
                break;
            }
        }
        if ok {
            return format!("{}{}", &s[..i], &s[end..]);
        }
    }
    s.to_owned()
}

fn replace_caret(comp: &str) -> String {
    let Some(x) = comp.strip_prefix('^').and_then(match_xrange_plain) else {
        return comp.to_owned();
    };
    let (mj, mi, p) = (
        x.major,
        x.minor.unwrap_or_default(),
        x.patch.unwrap_or_default(),
    );
    if is_x(Some(mj)) {
        String::new()
    } else if is_x(x.minor) {
        format!(">={mj}.0.0 <{}.0.0-0", inc(mj))
    } else if is_x(x.patch) {
        if mj == "0" {
            format!(">={mj}.{mi}.0 <{mj}.{}.0-0", inc(mi))
        } else {
            format!(">={mj}.{mi}.0 <{}.0.0-0", inc(mj))
        }
    } else {
        let low = match x.pre.filter(|p| !p.is_empty()) {
            Some(pre) => format!(">={mj}.{mi}.{p}-{pre}"),
            None => format!(">={mj}.{mi}.{p}"),
        };
        let high = if mj == "0" && mi == "0" {
            format!("<{mj}.{mi}.{}-0", inc(p))
        } else if mj == "0" {
            format!("<{mj}.{}.0-0", inc(mi))
        } else {
            format!("<{}.0.0-0", inc(mj))
        };
        format!("{low} {high}")
    }
}

fn replace_tilde(comp: &str) -> String {
    let rest = comp.strip_prefix("~>").or_else(|| comp.strip_prefix('~'));
    let Some(x) = rest.and_then(match_xrange_plain) else {
        return comp.to_owned();
    };
    let (mj, mi, p) = (
        x.major,
        x.minor.unwrap_or_default(),
        x.patch.unwrap_or_default(),
    );
    if is_x(Some(mj)) {
        String::new()
    } else if is_x(x.minor) {
        format!(">={mj}.0.0 <{}.0.0-0", inc(mj))
    } else if is_x(x.patch) {
        format!(">={mj}.{mi}.0 <{mj}.{}.0-0", inc(mi))
    } else if let Some(pre) = x.pre.filter(|p| !p.is_empty()) {
        format!(">={mj}.{mi}.{p}-{pre} <{mj}.{}.0-0", inc(mi))
    } else {
        format!(">={mj}.{mi}.{p} <{mj}.{}.0-0", inc(mi))
    }
}

fn replace_xrange(comp: &str) -> String {
    let comp = js_trim(comp);
    let op_len = gtlt_len(comp.as_bytes());
    let (mut gtlt, rest) = comp.split_at(op_len);
    let Some(x) = match_xrange_plain(rest.strip_prefix(' ').unwrap_or(rest)) else {
        return comp.to_owned();
    };
    let xmaj = is_x(Some(x.major));
    let xmin = xmaj || is_x(x.minor);
    let xpat = xmin || is_x(x.patch);
    if gtlt == "=" && xpat {
        gtlt = "";
    }
    if xmaj {
        if gtlt == ">" || gtlt == "<" {
            "<0.0.0-0".to_owned()
        } else {
            "*".to_owned()
        }
    } else if !gtlt.is_empty() && xpat {
        let mut major = x.major.to_owned();
        let mut minor = if xmin {
            "0".to_owned()
        } else {
            x.minor.unwrap_or_default().to_owned()
        };
        let mut op = gtlt;
        if op == ">" {
            op = ">=";
            if xmin {
                major = inc(&major);
                minor = "0".to_owned();
            } else {
                minor = inc(&minor);
            }
        } else if op == "<=" {
            op = "<";
            if xmin {
                major = inc(&major);
            } else {
                minor = inc(&minor);
            }
        }
        let pre = if op == "<" { "-0" } else { "" };
        format!("{op}{major}.{minor}.0{pre}")
    } else if xmin {
        format!(">={}.0.0 <{}.0.0-0", x.major, inc(x.major))
    } else if xpat {
        let minor = x.minor.unwrap_or_default();
        format!(">={}.{minor}.0 <{}.{}.0-0", x.major, x.major, inc(minor))
    } else {
        comp.to_owned()
    }
}

/// `STAR`: removes the first `(<|>)?=?\s?\*`.
fn replace_star(comp: &str) -> String {
    let comp = js_trim(comp);
    let Some(star) = comp.find('*') else {
        return comp.to_owned();
    };
    let b = comp.as_bytes();
    let mut start = star;
    if start > 0 && b[start - 1] == b' ' {
        start -= 1;
    }
    if start > 0 && b[start - 1] == b'=' {
        start -= 1;
    }
    if start > 0 && matches!(b[start - 1], b'<' | b'>') {
        start -= 1;
    }
    format!("{}{}", &comp[..start], &comp[star + 1..])
}

fn map_ws_tokens(s: &str, f: fn(&str) -> String) -> String {
    js_split_ws(s)
        .into_iter()
        .map(f)
        .collect::<Vec<_>>()
        .join(" ")
}

/// node-semver `parseComparator`: one space-free token -> plain comparators.
fn desugar(token: &str) -> String {
    let comp = strip_build(token);
    let comp = map_ws_tokens(js_trim(&comp), replace_caret);
    let comp = map_ws_tokens(js_trim(&comp), replace_tilde);
    let comp = map_ws_tokens(&comp, replace_xrange);
    replace_star(&comp)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
}

/// One comparator; `version: None` is node-semver's ANY (the empty comparator).
#[derive(Clone, Debug)]
struct Comparator {
    op: Op,
    version: Option<SemVer>,
}

impl Comparator {
    fn parse(text: &str) -> Option<Comparator> {
        let text = js_trim(text);
        if text.is_empty() {
            return Some(Comparator {
                op: Op::Eq,
                version: None,
            });
        }
        let n = gtlt_len(text.as_bytes());
        let op = match &text[..n] {
            "<" => Op::Lt,
            "<=" => Op::Le,
            ">" => Op::Gt,
            ">=" => Op::Ge,
            _ => Op::Eq,
        };
        let rest = &text[n..];
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        if rest.encode_utf16().count() > MAX_LENGTH {
            return None;
        }
        Some(Comparator {
            op,
            version: Some(parse_plain(rest)?),
        })
    }

    /// node-semver's `value`, used to de-duplicate and to spot `*` and the null set.
    fn value(&self) -> String {
        let Some(v) = &self.version else {
            return String::new();
        };
        let op = match self.op {
            Op::Eq => "",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
        };
        format!("{op}{}", v.version_text())
    }

    fn is_null_set(&self) -> bool {
        self.value() == "<0.0.0-0"
    }

    fn test(&self, v: &SemVer) -> bool {
        let Some(c) = &self.version else {
            return true;
        };
        let ord = v.cmp(c);
        match self.op {
            Op::Eq => ord == Ordering::Equal,
            Op::Lt => ord == Ordering::Less,
            Op::Le => ord != Ordering::Greater,
            Op::Gt => ord == Ordering::Greater,
            Op::Ge => ord != Ordering::Less,
        }
    }
}

/// A node-semver range (default options: not loose, pre-releases excluded).
#[derive(Clone, Debug)]
pub struct Range {
    set: Vec<Vec<Comparator>>,
}

impl Range {
    /// node-semver `validRange(s) !== null`.
    pub fn parse(s: &str) -> Option<Range> {
        let raw = js_split_ws(js_trim(s)).join(" ");
        let mut set = raw
            .split("||")
            .map(|part| parse_part(js_trim(part)))
            .collect::<Option<Vec<_>>>()?;
        set.retain(|c| !c.is_empty());
        if set.is_empty() {
            return None;
        }
        if set.len() > 1 {
            let first = set[0].clone();
            set.retain(|c| !c[0].is_null_set());
            if set.is_empty() {
                set = vec![first];
            } else if set.len() > 1
                && let Some(any) = set.iter().find(|c| c.len() == 1 && c[0].version.is_none())
            {
                set = vec![any.clone()];
            }
        }
        Some(Range { set })
    }

    /// node-semver `satisfies(v, range)` with default options.
    pub fn satisfies(&self, v: &SemVer) -> bool {
        self.set.iter().any(|comps| test_set(comps, v))
    }
}

fn parse_part(part: &str) -> Option<Vec<Comparator>> {
    let part = hyphen_replace(part).unwrap_or_else(|| part.to_owned());
    let part = operator_trim(&comparator_trim(&part));
    let desugared: Vec<String> = part.split(' ').map(desugar).collect();
    let joined = desugared.join(" ");
    let mut result: Vec<Comparator> = Vec::new();
    let mut values: Vec<String> = Vec::new();
    for token in js_split_ws(&joined) {
        let token = js_trim(token);
        // `GTE0`: `>=0.0.0` means any version.
        let token = if token == ">=0.0.0" { "" } else { token };
        let comp = Comparator::parse(token)?;
        if comp.is_null_set() {
            return Some(vec![comp]);
        }
        let value = comp.value();
        match values.iter().position(|v| *v == value) {
            Some(i) => result[i] = comp,
            None => {
                values.push(value);
                result.push(comp);
            }
        }
    }
    if result.len() > 1
        && let Some(i) = values.iter().position(String::is_empty)
    {
        result.remove(i);
    }
    Some(result)
}

fn test_set(comps: &[Comparator], v: &SemVer) -> bool {
    if !comps.iter().all(|c| c.test(v)) {
        return false;
    }
    if v.prerelease.is_empty() {
        return true;
    }
    // A pre-release only passes when some comparator names a pre-release of the same release.
    comps.iter().filter_map(|c| c.version.as_ref()).any(|a| {
        !a.prerelease.is_empty() && (a.major, a.minor, a.patch) == (v.major, v.minor, v.patch)
    })
}

/// The resource version order of §8.1 step 3 (newest first), for a stable sort.
pub fn index_order(a: Option<&str>, b: Option<&str>) -> Ordering {
    match (a, b) {
        _ if a == b => Ordering::Equal,
        (None, _) => Ordering::Greater,
        (_, None) => Ordering::Less,
        (Some(a), Some(b)) => match (SemVer::parse(a), SemVer::parse(b)) {
            (Some(x), Some(y)) => y.cmp(&x),
            _ => cmp_code_units(b, a),
        },
    }
}

/// The SDK's `compareVersions` (§8.1 step 3) on front matter values, which need not be text:
/// equal values tie, a missing version sorts last, text as [`index_order`], and anything else
/// by JavaScript's `>` (`version:` null ties with `1.0.0`, which is no number, and sorts after
/// `2`).
pub fn index_value_order(a: Option<&Value>, b: Option<&Value>) -> Ordering {
    match (a, b) {
        _ if strict_eq(a, b) => Ordering::Equal,
        (None, _) => Ordering::Greater,
        (_, None) => Ordering::Less,
        (Some(Value::String(x)), Some(Value::String(y))) => index_order(Some(x), Some(y)),
        _ => compare_text(b, a),
    }
}

/// §10.5 step 2: is `candidate` higher than the current `best`?
pub fn is_higher(candidate: Option<&str>, best: Option<&str>) -> bool {
    match (candidate, best) {
        _ if candidate == best => false,
        (None, _) => false,
        (_, None) => true,
        (Some(c), Some(b)) => match (SemVer::parse(c), SemVer::parse(b)) {
            (Some(x), Some(y)) => x > y,
            _ => cmp_code_units(c, b) == Ordering::Greater,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sat(v: &str, r: &str) -> bool {
        let v = SemVer::parse(v).expect("valid version");
        Range::parse(r).expect("valid range").satisfies(&v)
    }

    #[test]
    fn validity() {
        for ok in ["1.2.3", "v1.2.0", " 1.0.0 ", "1.0.0-beta.1+b", "0.0.0-0"] {
            assert!(SemVer::parse(ok).is_some(), "{ok}");
        }
        for bad in [
            "1.0", "1", "V1.0.0", "=1.0.0", "1.0.0.0", "01.0.0", "1.0.0-01", "",
        ] {
            assert!(SemVer::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn spec_examples() {
        assert!(sat("1.5.0", "^1.0.0"));
        assert!(!sat("2.0.0-beta.1", "*"));
        assert!(sat("2.0.0-beta.2", ">=2.0.0-beta.1"));
        assert!(sat("v1.5.0", "1.5.0"));
        assert!(sat("1.2.0", ">=1.0.0 <1.5.0"));
        assert!(sat("1.0.0", ""));
        assert!(Range::parse("garbage").is_none());
        assert!(Range::parse("^1.0").is_some());
    }

    #[test]
    fn orders() {
        assert_eq!(
            index_order(Some("2.0.0"), Some("10.0.0")),
            Ordering::Greater
        );
        assert_eq!(index_order(Some("2.0"), Some("10.0")), Ordering::Less);
        assert_eq!(index_order(None, Some("1.0.0")), Ordering::Greater);
        assert!(is_higher(Some("2.0"), Some("10.0")));
        assert!(!is_higher(None, Some("1")));
        assert_eq!(cmp_code_units("\u{ffff}", "\u{10000}"), Ordering::Greater);
    }

    proptest::proptest! {
        /// The shortcut over the common prefix orders exactly like comparing whole UTF-16 strings.
        #[test]
        fn code_unit_order_is_utf16_order(
            prefix in "[a\u{e9}\u{ffff}\u{10000}]{0,3}",
            a in "[a-c\u{e9}\u{d7ff}\u{e000}\u{ffff}\u{10000}\u{1f600}]{0,4}",
            b in "[a-c\u{e9}\u{d7ff}\u{e000}\u{ffff}\u{10000}\u{1f600}]{0,4}",
        ) {
            let (a, b) = (format!("{prefix}{a}"), format!("{prefix}{b}"));
            proptest::prop_assert_eq!(cmp_code_units(&a, &b), a.encode_utf16().cmp(b.encode_utf16()));
        }
    }
}
