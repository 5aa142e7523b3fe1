//! U+FEFF read as js-yaml 3 reads it; saphyr-parser takes every one for a byte order mark.
//!
//! js-yaml drops the character only where it starts its input; anywhere else it is ordinary
//! text (`summary: a\u{feff}b`, or `\u{feff}version: 1` whose key is `"\u{feff}version"`).
//! saphyr-parser refuses one inside a document, so while it parses, each stands in as a
//! private-use character the text does not otherwise hold, which it reads as text. Both take
//! three bytes in UTF-8, so every position the parser reports stays right.

use std::borrow::Cow;

const BOM: char = '\u{feff}';

/// The private-use character standing in for U+FEFF in one text.
#[derive(Debug, Clone, Copy)]
pub(super) struct StandIn(char);

impl StandIn {
    /// The text with its U+FEFF replaced, and the stand-in to put back; `None` when it holds
    /// none. The stand-in is neither in the text nor named by an escape (`"\uE000"`) there.
    pub fn hide(text: &str) -> (Cow<'_, str>, Option<StandIn>) {
        if !text.contains(BOM) {
            return (Cow::Borrowed(text), None);
        }
        let lower = text.to_lowercase();
        let free = ('\u{e000}'..='\u{f8ff}')
            .find(|&c| !text.contains(c) && !lower.contains(&format!("{:x}", u32::from(c))));
        match free {
            Some(c) => (
                Cow::Owned(text.replace(BOM, &c.to_string())),
                Some(StandIn(c)),
            ),
            None => (Cow::Borrowed(text), None),
        }
    }

    /// `text` with U+FEFF back where the stand-in is.
    pub fn restore(stand_in: Option<StandIn>, text: Cow<'_, str>) -> Cow<'_, str> {
        match stand_in {
            Some(StandIn(c)) if text.contains(c) => Cow::Owned(text.replace(c, &BOM.to_string())),
            _ => text,
        }
    }
}
