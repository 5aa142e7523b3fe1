//! The orders the reference's document is written in: JavaScript's `localeCompare` (the root
//! collation of ICU, which Node.js ships) for ids, types and directions, and the reference's
//! `compareVersions` for versions (node-semver's `valid`, else `coerce`, else `localeCompare`).

use std::cmp::Ordering;
use std::sync::OnceLock;

use icu_collator::options::CollatorOptions;
use icu_collator::{Collator, CollatorBorrowed};

use crate::catalog::version::SemVer;

/// Printable ASCII in the root collation's primary order; letters of both cases share a weight.
const PRIMARY: &[&str] = &[
    " ", "_", "-", ",", ";", ":", "!", "?", ".", "'", "\"", "(", ")", "[", "]", "{", "}", "@", "*",
    "/", "\\", "&", "#", "%", "`", "^", "+", "<", "=", ">", "|", "~", "$", "0", "1", "2", "3", "4",
    "5", "6", "7", "8", "9", "aA", "bB", "cC", "dD", "eE", "fF", "gG", "hH", "iI", "jJ", "kK",
    "lL", "mM", "nN", "oO", "pP", "qQ", "rR", "sS", "tT", "uU", "vV", "wW", "xX", "yY", "zZ",
];

/// Each ASCII byte's primary weight (its group's position in [`PRIMARY`]), computed once.
const WEIGHTS: [u8; 128] = {
    let mut table = [u8::MAX; 128];
    let mut group = 0;
    while group < PRIMARY.len() {
        let bytes = PRIMARY[group].as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            table[bytes[i] as usize] = group as u8;
            i += 1;
        }
        group += 1;
    }
    table
};

/// `a.localeCompare(b)` as Node.js answers it (ICU's root collation, as in the `en` locale
/// Node.js runs in). Printable ASCII, nearly every id, is compared here: punctuation before
/// digits before letters, letters compared without case first, then lowercase before
/// uppercase. Other text goes to ICU's own collator, which agrees with this on ASCII.
pub fn locale_cmp(a: &str, b: &str) -> Ordering {
    let printable = |s: &str| s.bytes().all(|byte| (0x20..0x7f).contains(&byte));
    if !printable(a) || !printable(b) {
        return collator().compare(a, b);
    }
    let weight = |byte: u8| WEIGHTS[usize::from(byte)];
    let primary = a.bytes().map(weight).cmp(b.bytes().map(weight));
    primary.then_with(|| {
        // Same letters: the first case difference decides, lowercase first.
        a.bytes()
            .zip(b.bytes())
            .find(|(x, y)| x != y)
            .map_or(Ordering::Equal, |(x, y)| {
                x.is_ascii_uppercase().cmp(&y.is_ascii_uppercase())
            })
    })
}

/// ICU's root collation at its default strength, built once (its data is compiled in).
fn collator() -> &'static CollatorBorrowed<'static> {
    static COLLATOR: OnceLock<CollatorBorrowed<'static>> = OnceLock::new();
    COLLATOR.get_or_init(|| {
        Collator::try_new(Default::default(), CollatorOptions::default())
            .expect("the root collation is compiled in")
    })
}

/// node-semver's `coerce`: the first run of one to three dot-separated numbers (each at most
/// 16 digits, not inside a longer run of digits), as `X.Y.Z`, when that parses as a version.
fn coerce(text: &str) -> Option<SemVer> {
    let bytes = text.as_bytes();
    let digits_at = |at: usize| {
        bytes[at.min(bytes.len())..]
            .iter()
            .take_while(|byte| byte.is_ascii_digit())
            .count()
    };
    let ends_ok = |at: usize| at >= bytes.len() || !bytes[at].is_ascii_digit();
    // An optional `.digits` group at `at`, greedy, backtracking like the regex.
    let groups = |at: usize| -> Vec<(usize, Option<&str>)> {
        let mut options = Vec::new();
        if bytes.get(at) == Some(&b'.') {
            let run = digits_at(at + 1).min(16);
            for len in (1..=run).rev() {
                options.push((at + 1 + len, Some(&text[at + 1..at + 1 + len])));
            }
        }
        options.push((at, None));
        options
    };
    for start in 0..bytes.len() {
        if start > 0 && bytes[start - 1].is_ascii_digit() {
            continue;
        }
        let run = digits_at(start).min(16);
        for len in (1..=run).rev() {
            let major = &text[start..start + len];
            for (after_minor, minor) in groups(start + len) {
                for (after_patch, patch) in groups(after_minor) {
                    if minor.is_none() && patch.is_some() {
                        continue;
                    }
                    if ends_ok(after_patch) {
                        // The digits as matched: `01` does not parse, so `01.0.0` has none.
                        let version =
                            format!("{major}.{}.{}", minor.unwrap_or("0"), patch.unwrap_or("0"));
                        return SemVer::parse(&version);
                    }
                }
            }
        }
    }
    None
}

fn comparable(version: Option<&str>) -> Option<SemVer> {
    let version = version.filter(|v| !v.is_empty())?;
    SemVer::parse(version).or_else(|| coerce(version))
}

/// The reference's `compareVersions`: semver order when both sides read as versions, else
/// `localeCompare` of the text (a missing version reads as empty). Oldest first.
pub fn compare_versions(a: Option<&str>, b: Option<&str>) -> Ordering {
    match (comparable(a), comparable(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => locale_cmp(a.unwrap_or_default(), b.unwrap_or_default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locale_order_is_nodes() {
        // The order Node.js 20 gives these with `localeCompare`.
        let mut words = vec![
            "a-b", "a_b", "ab", "aB", "Ab", "a1", "a.b", "a b", "A", "b", "Z", "z", "1", "-a",
            "_a", "a-c", "a--b", "aa",
        ];
        words.sort_by(|x, y| locale_cmp(x, y));
        assert_eq!(
            words.join(" "),
            "_a -a 1 A a b a_b a--b a-b a-c a.b a1 aa ab aB Ab b z Z"
        );
    }

    /// Lists of ids mixing ASCII with accents, other scripts and symbols, as Node.js sorts
    /// them with `localeCompare` (`scripts/record-locale-order.mjs`).
    #[test]
    fn ids_outside_ascii_sort_as_nodes_locale_compare() {
        let cases: Vec<Vec<String>> =
            serde_json::from_str(include_str!("../../testdata/locale-order/cases.json"))
                .expect("cases");
        for sorted in cases {
            for pair in sorted.windows(2) {
                let expected = if pair[0] == pair[1] {
                    Ordering::Equal
                } else {
                    Ordering::Less
                };
                assert_eq!(locale_cmp(&pair[0], &pair[1]), expected, "{pair:?}");
            }
            let mut ids = sorted.clone();
            ids.reverse();
            ids.sort_by(|x, y| locale_cmp(x, y));
            assert_eq!(ids, sorted);
        }
    }

    /// The table for printable ASCII and ICU's collator agree, so ids sorted together with
    /// ids outside ASCII keep one consistent order.
    #[test]
    fn printable_ascii_compares_as_icu_does() {
        let mut seed: u32 = 7;
        let mut next = move || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            seed >> 8
        };
        // Half the characters from a few that tie at the first level, so case and
        // punctuation decide often.
        const FEW: &[u8] = b"aAbBzZ09-_. '";
        let text = |next: &mut dyn FnMut() -> u32| -> String {
            let length = 1 + next() % 5;
            (0..length)
                .map(|_| match next() % 2 {
                    0 => char::from(FEW[(next() as usize) % FEW.len()]),
                    _ => char::from(0x20 + (next() % 95) as u8),
                })
                .collect()
        };
        for _ in 0..20_000 {
            let (a, b) = (text(&mut next), text(&mut next));
            assert_eq!(
                locale_cmp(&a, &b),
                collator().compare(&a, &b),
                "{a:?} {b:?}"
            );
        }
    }

    #[test]
    fn versions_compare_like_the_reference() {
        assert_eq!(
            compare_versions(Some("1.0.0"), Some("2.0.0")),
            Ordering::Less
        );
        assert_eq!(compare_versions(Some("10"), Some("9")), Ordering::Greater);
        assert_eq!(compare_versions(Some("v2"), Some("1.5")), Ordering::Greater);
        assert_eq!(
            compare_versions(Some("1.0.0-beta"), Some("1.0.0")),
            Ordering::Less
        );
        assert_eq!(
            compare_versions(Some("latest"), Some("1.0.0")),
            Ordering::Greater
        );
        assert_eq!(compare_versions(None, Some("1.0.0")), Ordering::Less);
        assert_eq!(
            coerce("1.2.3.4").map(|v| v.version_text()).as_deref(),
            Some("1.2.3")
        );
        assert_eq!(
            coerce("1.23456789012345678")
                .map(|v| v.version_text())
                .as_deref(),
            Some("1.0.0")
        );
        assert_eq!(coerce("x"), None);
        // node-semver rebuilds the digits as written and parses that, leading zeros and all.
        for none in ["01.0.0", "1.01", "v00", "9007199254740993"] {
            assert_eq!(coerce(none), None, "{none}");
        }
        assert_eq!(
            coerce("x1.2.3y").map(|v| v.version_text()).as_deref(),
            Some("1.2.3")
        );
        assert_eq!(
            compare_versions(Some("01.0.0"), Some("1.0.0-beta")),
            Ordering::Less
        );
    }
}
