//! JSON text exactly as JavaScript `JSON.stringify(value, null, 2)` prints it (catalog-index.md §9.2).
//!
//! serde_json already escapes strings the way JavaScript does (`\"`, `\\`, `\b`, `\f`, `\n`,
//! `\r`, `\t`, other control characters as lowercase `\u00xx`, everything else raw), and its
//! pretty printer lays out objects and arrays like `JSON.stringify` with an indent of two.
//! Only numbers differ: serde_json prints `1.0` where JavaScript prints `1`, so this module
//! wraps serde_json's formatters and prints every number through `ryu-js`.
//! Nothing here adds a trailing newline; the caller decides.

use std::io;

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};

/// Largest integer a JavaScript number holds exactly (2^53).
const MAX_SAFE: u64 = 1 << 53;

/// `JSON.stringify(value, null, 2)`, without a trailing newline.
pub fn to_pretty<T: Serialize + ?Sized>(value: &T) -> String {
    write_with(value, JsNumbers(PrettyFormatter::with_indent(b"  ")))
}

/// `JSON.stringify(value)`: no whitespace at all.
pub fn to_compact<T: Serialize + ?Sized>(value: &T) -> String {
    write_with(value, JsNumbers(CompactFormatter))
}

/// JavaScript's `String(number)` for a finite number (`1`, `1.1`, `1e+21`, `1.5e-7`).
pub fn js_number(n: f64) -> String {
    if n == 0.0 {
        // `-0` prints as `0` in JavaScript.
        return "0".to_owned();
    }
    ryu_js::Buffer::new().format(n).to_owned()
}

fn write_with<T: Serialize + ?Sized, F: Formatter>(value: &T, formatter: F) -> String {
    let mut out = Vec::with_capacity(128);
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    value
        .serialize(&mut serializer)
        .expect("serialising JSON values into a Vec cannot fail");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// A formatter that delegates everything to `F` except numbers, which it prints as JavaScript does.
struct JsNumbers<F>(F);

impl<F> JsNumbers<F> {
    fn write_js<W: ?Sized + io::Write>(writer: &mut W, n: f64) -> io::Result<()> {
        if n.is_finite() {
            writer.write_all(js_number(n).as_bytes())
        } else {
            // JSON.stringify turns NaN and ±Infinity into null.
            writer.write_all(b"null")
        }
    }
}

macro_rules! exact_or_js {
    ($name:ident, $ty:ty) => {
        fn $name<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: $ty) -> io::Result<()> {
            if (value as i128).unsigned_abs() <= u128::from(MAX_SAFE) {
                writer.write_all(value.to_string().as_bytes())
            } else {
                // Beyond 2^53 JavaScript holds (and prints) the nearest double.
                Self::write_js(writer, value as f64)
            }
        }
    };
}

impl<F: Formatter> Formatter for JsNumbers<F> {
    exact_or_js!(write_i64, i64);
    exact_or_js!(write_u64, u64);
    exact_or_js!(write_i128, i128);
    exact_or_js!(write_u128, u128);

    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        Self::write_js(writer, value)
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        Self::write_js(writer, f64::from(value))
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_array(writer)
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array(writer)
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(writer, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array_value(writer)
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object(writer)
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object(writer)
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(writer, first)
    }

    fn end_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object_key(writer)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object_value(writer)
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object_value(writer)
    }
}

/// Where a JSON parse of `text` stopped, as an editor counts (1-based line, and column in
/// characters), and serde_json's complaint without the position it appends. serde_json counts
/// bytes, and at the end of the text names the last one it read (column 0 on an empty line);
/// the fault is just after it.
pub fn parse_error_at(error: &serde_json::Error, text: &str) -> (usize, usize, String) {
    let line = error.line().max(1);
    let start: usize = text
        .split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum();
    let rest = text.get(start..).unwrap_or_default();
    let mut end = error.column().min(rest.len());
    while !rest.is_char_boundary(end) {
        end += 1;
    }
    let mut column = rest[..end].chars().count();
    if error.is_eof() {
        column += 1;
    }
    let message = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    let message = message.strip_suffix(&suffix).unwrap_or(&message).to_owned();
    (line, column.max(1), message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_print_as_javascript() {
        let cases = [
            (json!(1.0), "1"),
            (json!(1.1), "1.1"),
            (json!(1e21), "1e+21"),
            (json!(1.5e-7), "1.5e-7"),
            (json!(-0.0), "0"),
            (json!(123456789), "123456789"),
            (json!(-5), "-5"),
            (json!(9007199254740993u64), "9007199254740992"),
            (json!(u64::MAX), "18446744073709552000"),
            (json!(i64::MIN), "-9223372036854776000"),
            (json!(0.1 + 0.2), "0.30000000000000004"),
            (json!(100.0), "100"),
            (json!(1e-7), "1e-7"),
            (json!(123e-20), "1.23e-18"),
        ];
        for (value, want) in cases {
            assert_eq!(to_compact(&value), want, "{value:?}");
        }
    }

    #[test]
    fn strings_escape_as_javascript() {
        let value = json!("q\" b\\ \u{8}\u{c}\n\r\t \u{1} \u{1f} \u{7f} / \u{2028} é 😀");
        assert_eq!(
            to_compact(&value),
            "\"q\\\" b\\\\ \\b\\f\\n\\r\\t \\u0001 \\u001f \u{7f} / \u{2028} é 😀\""
        );
    }

    #[test]
    fn pretty_layout_matches_json_stringify() {
        let value = json!({"a": [], "b": {}, "c": [1, {"d": 1.5}], "e": null, "f": true});
        let want = "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    1,\n    {\n      \"d\": 1.5\n    }\n  ],\n  \"e\": null,\n  \"f\": true\n}";
        assert_eq!(to_pretty(&value), want);
        assert_eq!(
            to_compact(&value),
            r#"{"a":[],"b":{},"c":[1,{"d":1.5}],"e":null,"f":true}"#
        );
    }

    #[test]
    fn parse_errors_are_placed_as_an_editor_counts() {
        let at = |text: &str| {
            let error = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
            parse_error_at(&error, text)
        };
        assert_eq!(at(""), (1, 1, "EOF while parsing a value".to_owned()));
        assert_eq!(at("\n\n").0, 3);
        assert_eq!(at("\n\n").1, 1);
        assert_eq!(at("{\"a\":").1, 6);
        assert_eq!(at("{\"a\": x}"), (1, 7, "expected value".to_owned()));
        assert_eq!(at("{\"ééé\": x}").1, 9);
        assert_eq!(at("[1,\n{\"é\": x}]").1, 7);
    }
}
