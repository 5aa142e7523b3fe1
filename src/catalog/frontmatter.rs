//! Front matter: split the block off a Markdown file and parse it as js-yaml 3 `safeLoad` would (catalog-index.md §2).
//!
//! [`parse`] follows gray-matter 4.0.3 with its defaults (§2.1): the `---` opening line and its
//! language, the closing `\n---`, the comment-only shortcut and "null means `{}`". YAML goes to
//! the private `yaml` module (js-yaml 3 `safeLoad` semantics, nesting limited to 128 levels,
//! alias expansion capped); JSON front matter is read with serde_json and given JavaScript's
//! number and key-order semantics. JavaScript front matter is refused: the SDK would evaluate
//! it, we never execute anything. Positions in errors are lines and columns of the whole file
//! (1-based), so the caller only has to put the file name in front: `format!("{file}:{err}")`.

use serde_json::{Map, Number, Value};

use super::yaml;

/// A front-matter block that cannot be read. Displays as `line:column: message`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct Error {
    /// 1-based line in the file.
    pub line: usize,
    /// 1-based column (in characters) in the file.
    pub column: usize,
    pub message: String,
}

/// Which parser a front-matter block goes to, from the text after the opening `---`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Language {
    Yaml,
    Json,
}

/// Whether the text (after an optional BOM) opens a front-matter block at all (§2.1 step 2).
pub fn has_block(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.starts_with("---") && text.as_bytes().get(3) != Some(&b'-')
}

/// The front-matter data of a Markdown file: `{}` when there is none, otherwise whatever the
/// block holds (normally an object; a scalar or sequence is returned as is).
pub fn parse(text: &str) -> Result<Value, Error> {
    let empty = || Ok(Value::Object(Map::new()));
    if !has_block(text) {
        return empty();
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let after_open = &text[3..];
    // gray-matter: the language is everything up to the first `\r?\n`; without any newline it
    // is `str.slice(0, -1)`, every character but the last.
    let raw_language = match after_open.find('\n') {
        Some(nl) => after_open[..nl]
            .strip_suffix('\r')
            .unwrap_or(&after_open[..nl]),
        None => after_open
            .char_indices()
            .last()
            .map_or("", |(i, _)| &after_open[..i]),
    };
    // `String.prototype.trim`, which takes U+FEFF for a blank too.
    let name = super::version::js_trim(raw_language);
    // Only a non-blank language is cut off; the block then starts on the first line, so line
    // numbers inside it are the file's line numbers.
    let (block_start, rest) = if name.is_empty() {
        (3, after_open)
    } else {
        (3 + raw_language.len(), &after_open[raw_language.len()..])
    };
    let first_line_offset = text[..block_start].chars().count();
    let block = rest.find("\n---").map_or(rest, |close| &rest[..close]);

    // gray-matter looks the engine up only for a block that is not blank: an empty block in
    // any language, even one it has no engine for, is `{}`.
    if is_blank(block) {
        return empty();
    }
    let language = language(name).ok_or_else(|| Error {
        line: 1,
        column: 4,
        message: refusal(name),
    })?;
    let at = |line: usize, column: usize, message: String| Error {
        line,
        column: if line == 1 {
            column + first_line_offset
        } else {
            column
        },
        message,
    };
    let data = match language {
        Language::Yaml => yaml::parse(block).map_err(|e| at(e.line, e.column, e.message))?,
        Language::Json => {
            let value: Value = serde_json::from_str(block)
                .or_else(|error| match overflowing_as_null(block) {
                    Some(text) => serde_json::from_str(&text),
                    None => Err(error),
                })
                .map_err(|e| {
                    let (line, column, message) = crate::json_text::parse_error_at(&e, block);
                    at(line, column, message)
                })?;
            js_json(value)
        }
    };
    match data {
        Value::Null => empty(),
        other => Ok(other),
    }
}

/// JSON text with each number too large for a double written as `null`, padded to its length
/// so that later positions stay put; `None` when there is none. `JSON.parse` reads such a
/// number as an infinity, which the Index, JSON text again, writes as `null`.
fn overflowing_as_null(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let (mut at, mut copied, mut in_string) = (0, 0, false);
    while at < bytes.len() {
        let byte = bytes[at];
        if in_string {
            match byte {
                b'\\' => at += 1,
                b'"' => in_string = false,
                _ => {}
            }
        } else if byte == b'"' {
            in_string = true;
        } else if byte == b'-' || byte.is_ascii_digit() {
            let len = bytes[at..]
                .iter()
                .take_while(|b| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                .count();
            let number = &text[at..at + len];
            if number.parse::<f64>().is_ok_and(f64::is_infinite) {
                out += &text[copied..at];
                out += &format!("{:len$}", "null");
                copied = at + len;
            }
            at += len;
            continue;
        }
        at += 1;
    }
    (copied > 0).then(|| out + &text[copied..])
}

/// gray-matter's engine lookup: exact name first, then its case-insensitive aliases.
fn language(name: &str) -> Option<Language> {
    match name {
        "" | "yaml" => return Some(Language::Yaml),
        "json" => return Some(Language::Json),
        _ => {}
    }
    match name.to_lowercase().as_str() {
        "yaml" | "yml" => Some(Language::Yaml),
        _ => None,
    }
}

fn refusal(name: &str) -> String {
    if matches!(name.to_lowercase().as_str(), "js" | "javascript") {
        format!(
            "front matter in language \"{name}\" is JavaScript: the SDK would execute it; \
             catalog-diff refuses it and never executes code"
        )
    } else {
        format!(
            "gray-matter engine \"{name}\" is not registered (front matter must be YAML or JSON)"
        )
    }
}

/// gray-matter's emptiness test: remove `^\s*#[^\n]+` (multi-line), then trim.
fn is_blank(block: &str) -> bool {
    block.split('\n').all(|line| {
        let line = line.trim_start();
        line.is_empty() || line.strip_prefix('#').is_some_and(|rest| !rest.is_empty())
    })
}

/// Gives a serde_json value what `JSON.parse` would have made of it: numbers are doubles
/// (integral values kept as integers) and object keys are in JavaScript property order.
/// Recursion is bounded by serde_json's own nesting limit (128).
fn js_json(value: Value) -> Value {
    match value {
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) if i.unsigned_abs() <= 1 << 53 => Value::from(i),
            (_, Some(f)) if f.fract() == 0.0 && f.abs() <= 9_007_199_254_740_992.0 => {
                Value::from(f as i64)
            }
            (_, Some(f)) => Number::from_f64(f).map_or(Value::Null, Value::Number),
            _ => Value::Number(n),
        },
        Value::Array(items) => Value::Array(items.into_iter().map(js_json).collect()),
        Value::Object(map) => {
            let map: Map<String, Value> = map.into_iter().map(|(k, v)| (k, js_json(v))).collect();
            Value::Object(yaml::js_key_order(map))
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn data(text: &str) -> Value {
        parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    #[test]
    fn no_front_matter_is_an_empty_object() {
        for text in [
            "",
            "# Title\n",
            "\n---\nid: a\n---\n",
            "----\nid: a\n----\n",
            "--",
            "---\n---\n",
            "---",
        ] {
            assert_eq!(data(text), json!({}), "{text:?}");
        }
        assert!(!has_block("----\n"));
        assert!(!has_block("\n---\n"));
        assert!(has_block("\u{feff}---\nid: a\n---\n"));
    }

    #[test]
    fn spec_example() {
        let text = "---\ndeprecated:\n  date: 2025-03-01\n  message: use v2\nparameters:\n  region: { default: eu }\n  \"2\": { default: b }\n  \"1\": { default: a }\n---\n# Body\n";
        let got = data(text);
        assert_eq!(
            crate::json_text::to_compact(&got),
            r#"{"deprecated":{"date":"2025-03-01T00:00:00.000Z","message":"use v2"},"parameters":{"1":{"default":"a"},"2":{"default":"b"},"region":{"default":"eu"}}}"#
        );
    }

    #[test]
    fn markers_bom_crlf_and_languages() {
        assert_eq!(data("\u{feff}---\nid: a\n---\nbody"), json!({"id": "a"}));
        assert_eq!(
            data("---\r\nid: a\r\nv: 1\r\n---\r\nbody"),
            json!({"id": "a", "v": 1})
        );
        assert_eq!(data("---yaml\nid: a\n---\n"), json!({"id": "a"}));
        assert_eq!(data("--- YML \nid: a\n---\n"), json!({"id": "a"}));
        assert_eq!(data("---   \nid: a\n---\n"), json!({"id": "a"}));
        assert_eq!(
            data("---json\n{\"id\": \"a\", \"2\": 1.0, \"1\": 2}\n---\n"),
            json!({"1": 2, "2": 1, "id": "a"})
        );
        assert_eq!(data("---\nid: a\n"), json!({"id": "a"}));
        assert_eq!(
            data("---\nid: a\n---not a close\nb: 1\n"),
            json!({"id": "a"})
        );
        assert_eq!(data("---\nd: |\n  x\n---\ny\n---\n"), json!({"d": "x\n"}));
        assert_eq!(data("---\n# a comment\n  #another\n---\n"), json!({}));
        assert_eq!(data("---\n#\n---\n"), json!({}));
        assert_eq!(data("---\n~\n---\n"), json!({}));
        assert_eq!(data("---\n- a\n---\n"), json!(["a"]));
        assert_eq!(data("---\nhello\n---\n"), json!("hello"));
    }

    #[test]
    fn javascript_and_unknown_engines_are_refused() {
        for lang in ["js", "javascript", "JS"] {
            let err = parse(&format!("---{lang}\n{{ id: 'a' }}\n---\n")).expect_err(lang);
            assert!(err.message.contains("never executes"), "{err}");
            assert_eq!((err.line, err.column), (1, 4));
        }
        let err = parse("---toml\nid = 'a'\n---\n").expect_err("toml");
        assert!(err.message.contains("\"toml\" is not registered"), "{err}");
        // gray-matter reads a blank block as `{}` before it looks an engine up.
        for text in [
            "---toml\n---\n# Guide\n",
            "---js\n# a comment\n\n---\n",
            "---coffee\n",
        ] {
            assert_eq!(data(text), json!({}), "{text:?}");
        }
        assert!(parse("---toml\n#\n---\n").is_err());
    }

    #[test]
    fn errors_carry_file_lines() {
        let err = parse("---\nid: a\nname: b\nid: c\n---\n").expect_err("duplicate");
        assert_eq!(
            (err.line, err.column, err.message.as_str()),
            (4, 1, "duplicated mapping key")
        );
        assert_eq!(err.to_string(), "4:1: duplicated mapping key");
        let err = parse("\u{feff}---yaml\r\na: 1\r\na: 2\r\n---\r\n").expect_err("duplicate");
        assert_eq!(err.line, 3);
        let err = parse("---\na: [1, 2\n---\n").expect_err("syntax");
        assert!(err.line >= 2, "{err}");
    }
}
