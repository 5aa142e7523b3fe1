//! Characters js-yaml 3 refuses inside a scalar; saphyr-parser reads them.
//!
//! js-yaml checks the text of every scalar as it copies it out of the stream (keys included),
//! never comments, anchors or what an escape makes: in plain and block scalars it refuses the
//! C0 controls but tab and line breaks, DEL, the C1 controls but NEL, and U+FFFE and U+FFFF
//! ("the stream contains non-printable characters"); in quoted scalars only the C0 controls but
//! tab ("expected valid JSON character"). `"\u0001"` is fine. js-yaml names the end of the
//! stretch it was copying; we name the character itself.

use saphyr_parser::{ScalarStyle, Span};

use super::Error;

/// The characters of a text that holds one js-yaml may refuse, to look scalars up in.
pub(super) struct Raw(Vec<char>);

impl Raw {
    /// `None` when the text holds no such character, so no scalar needs a look.
    pub fn of(text: &str) -> Option<Raw> {
        text.chars()
            .any(refused_unquoted)
            .then(|| Raw(text.chars().collect()))
    }

    /// The error for the first character js-yaml refuses in the scalar at `span` whose
    /// value is `value`.
    pub fn check(&self, style: ScalarStyle, span: Span, value: &str) -> Result<(), Error> {
        let refused: fn(char) -> bool = match style {
            ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => refused_quoted,
            // A block scalar's span runs on to the next token, over any comment lines after
            // it: only its value says whether its content holds one.
            ScalarStyle::Literal | ScalarStyle::Folded if !value.chars().any(refused_unquoted) => {
                return Ok(());
            }
            _ => refused_unquoted,
        };
        let (mut line, mut column) = (span.start.line(), span.start.col() + 1);
        let end = span.end.index().min(self.0.len());
        let mut text = &self.0[span.start.index().min(end)..end];
        if let Some(len) = quoted_len(style, text) {
            // saphyr-parser's span of a quoted scalar runs on over a comment after it.
            text = &text[..len];
        }
        let mut chars = text.iter().peekable();
        while let Some(&c) = chars.next() {
            if refused(c) {
                return Err(Error {
                    line,
                    column,
                    message: format!(
                        "the stream contains non-printable characters: U+{code:04X} in a scalar, \
                         which the SDK's YAML reader (js-yaml) refuses; delete it, or write it as \
                         \"\\u{code:04x}\" in double quotes",
                        code = u32::from(c)
                    ),
                    too_deep: false,
                });
            }
            let line_break = c == '\n' || (c == '\r' && chars.peek() != Some(&&'\n'));
            if line_break {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
        }
        Ok(())
    }
}

/// How many characters a quoted scalar written at the start of `text` takes, quotes included.
fn quoted_len(style: ScalarStyle, text: &[char]) -> Option<usize> {
    let quote = match style {
        ScalarStyle::SingleQuoted => '\'',
        ScalarStyle::DoubleQuoted => '"',
        _ => return None,
    };
    let mut at = 1;
    while let Some(&c) = text.get(at) {
        match c {
            '\\' if quote == '"' => at += 2,
            '\'' if quote == '\'' && text.get(at + 1) == Some(&'\'') => at += 2,
            c if c == quote => return Some(at + 1),
            _ => at += 1,
        }
    }
    Some(text.len())
}

/// js-yaml's non-printable characters, refused in plain and block scalars.
fn refused_unquoted(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}'
        | '\u{7f}'..='\u{84}' | '\u{86}'..='\u{9f}' | '\u{fffe}' | '\u{ffff}')
}

/// What js-yaml refuses in quoted scalars: C0 controls but tab and line breaks.
fn refused_quoted(c: char) -> bool {
    c < ' ' && !matches!(c, '\t' | '\n' | '\r')
}
