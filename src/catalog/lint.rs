//! Front matter the SDK reads without complaint but silently drops or changes: a pointer field
//! written as a string (`writesTo: orders-db` makes no edge), keys stranded after the closing
//! `---` by a stray separator (`version:` below it is Markdown to the SDK), and bytes that are
//! not UTF-8 text (read as U+FFFD). The Index stays what the SDK makes; each finding is a
//! warning naming the file and its line, so `--strict` can fail on it. A pointer field the SDK
//! builds an Index from but whose `resolve()` then fails (`sends` written as a mapping, an empty
//! entry) is an error instead. Pure text work on one file.

use serde_json::{Map, Value};

use super::{Diagnostic, Severity};

/// The warnings for one resource file, given its front matter and its text.
pub(crate) fn dropped_fields(
    path: &str,
    data: &Map<String, Value>,
    text: &str,
    pointer_fields: &[&str],
    known_keys: &[&str],
) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    // The entity the errors name (the file names it too, but its id is what the SDK reads).
    let of = match data.get("id") {
        Some(Value::String(id)) => format!(" of `{id}`"),
        _ => String::new(),
    };
    for &field in pointer_fields {
        let Some(value) = data.get(field) else {
            continue;
        };
        let line = key_line(text, field);
        // `sends` and `receives` are the lists whose entries hold lists too (`to`, `from`,
        // `triggers`): the SDK calls `.flatMap` on them, where any other list is iterated.
        let nested: Vec<&str> = super::resolve::nested_pointer_lists(field).collect();
        match value {
            Value::Null => {}
            Value::Array(entries) => {
                // The SDK looks a pointer up by its `id`: any other entry resolves to no
                // resource (an edge to nothing), and an empty one stops its `resolve()`.
                for (i, entry) in entries.iter().enumerate() {
                    let mut empty = Vec::new();
                    if entry.is_null() {
                        empty.push(format!("{field}[{i}]"));
                    }
                    for sub in &nested {
                        let list = entry.get(sub).and_then(Value::as_array);
                        for (j, _) in list
                            .into_iter()
                            .flatten()
                            .enumerate()
                            .filter(|(_, v)| v.is_null())
                        {
                            empty.push(format!("{field}[{i}].{sub}[{j}]"));
                        }
                    }
                    for place in empty {
                        found.push(diagnostic(
                            Severity::Error,
                            path,
                            field,
                            line,
                            format!("`{place}`{of} is empty: {STOPS}"),
                            "remove the empty `-` entry, or give it an `id:`".to_owned(),
                        ));
                    }
                    let pointer = entry.get("id").is_some_and(Value::is_string);
                    if !entry.is_null() && !pointer {
                        found.push(diagnostic(
                            Severity::Warning,
                            path,
                            field,
                            line,
                            format!(
                                "`{field}[{i}]` is {}, not a pointer: the SDK resolves it to no resource",
                                shown(entry)
                            ),
                            "write each entry as `- id: <resource id>`, with a `version:` line below it if needed".to_owned(),
                        ));
                    }
                }
            }
            // Iterated, a string gives its characters: pointers to nothing, but no failure.
            Value::String(_) if nested.is_empty() => found.push(diagnostic(
                Severity::Warning,
                path,
                field,
                line,
                format!(
                    "`{field}` is {}, not a list of pointers: the SDK makes no edge from it",
                    shown(value)
                ),
                list_hint(field),
            )),
            other => {
                let shown = match other {
                    Value::Object(_) => "a single mapping".to_owned(),
                    other => shown(other),
                };
                found.push(diagnostic(
                    Severity::Error,
                    path,
                    field,
                    line,
                    format!("`{field}`{of} is {shown}, not a list of pointers: {STOPS}"),
                    list_hint(field),
                ));
            }
        }
    }
    // js-yaml reads a U+FEFF (a byte order mark pasted mid-file) as part of the key.
    for key in data.keys() {
        let Some(known) = known_keys.iter().find(|known| hides_bom(key, known)) else {
            continue;
        };
        let instead = match data.contains_key(*known) {
            true => format!("beside the `{known}` it has"),
            false => format!("and no `{known}`"),
        };
        found.push(diagnostic(
            Severity::Warning,
            path,
            known,
            key_line(text, key),
            format!(
                "the key `{known}` holds an invisible U+FEFF (byte order mark): the SDK reads it as another key, {instead}"
            ),
            format!("delete the invisible character in `{known}:` (retype the key)"),
        ));
    }
    if let Some((line, key)) = stranded_key(text, known_keys)
        && !data.contains_key(key)
    {
        found.push(diagnostic(
            Severity::Warning,
            path,
            key,
            Some(line),
            format!(
                "`{key}` is below the closing `---` of the front matter, so the SDK reads it as Markdown and drops it"
            ),
            "remove the stray `---` above it, or move the line into the front matter".to_owned(),
        ));
    }
    found
}

/// A front matter value as a warning names it.
fn shown(value: &Value) -> String {
    match value {
        Value::String(text) => format!("the string `{text}`"),
        Value::Object(_) => "a mapping without a text `id`".to_owned(),
        Value::Null => "empty".to_owned(),
        other => format!("`{other}`"),
    }
}

/// A warning when the file's bytes are not all UTF-8 text, at the line where they stop being.
pub(crate) fn not_utf8(path: &str, bytes: &[u8]) -> Option<Diagnostic> {
    let error = std::str::from_utf8(bytes).err()?;
    let valid = &bytes[..error.valid_up_to()];
    let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = valid.len() - valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1) + 1;
    Some(Diagnostic {
        severity: Severity::Warning,
        file: path.to_owned(),
        line: Some(line),
        column: Some(column),
        field: None,
        message: "the file is not valid UTF-8 text: the SDK reads each bad byte as U+FFFD, and so does this Index".into(),
        hint: Some("save the file as UTF-8".into()),
    })
}

/// What the SDK does with a pointer field of a shape it cannot read.
const STOPS: &str = "the SDK's resolve() fails on it (TypeError), so no graph can be made";

fn list_hint(field: &str) -> String {
    format!("write it as a list: `{field}:` then `  - id: ...` on the next line")
}

fn diagnostic(
    severity: Severity,
    path: &str,
    field: &str,
    line: Option<usize>,
    message: String,
    hint: String,
) -> Diagnostic {
    Diagnostic {
        severity,
        file: path.to_owned(),
        line,
        column: None,
        field: Some(field.to_owned()),
        message,
        hint: Some(hint),
    }
}

/// The lines of the front matter block (1-based numbers), and the line number after it.
fn block_lines(text: &str) -> Option<(Vec<(usize, &str)>, usize)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines().enumerate().map(|(n, line)| (n + 1, line));
    let (_, first) = lines.next()?;
    if first.trim_end() != "---" {
        return None;
    }
    let mut block = Vec::new();
    for (number, line) in lines {
        if line.starts_with("---") {
            return Some((block, number + 1));
        }
        block.push((number, line));
    }
    None
}

/// Gives each problem with a front matter field but no line the line where its file writes
/// that field (`schemas` may be written `schemaPath`); `text_of` reads a file.
pub(crate) fn place_fields(
    diagnostics: &mut [Diagnostic],
    text_of: impl Fn(&str) -> Option<String>,
) {
    for diagnostic in diagnostics.iter_mut().filter(|d| d.line.is_none()) {
        let Some(field) = diagnostic.field.as_deref() else {
            continue;
        };
        let keys: &[&str] = match field {
            "schemas" => &["schemas", "schemaPath"],
            other => &[other],
        };
        let Some(text) = text_of(&diagnostic.file) else {
            continue;
        };
        diagnostic.line = keys.iter().find_map(|key| key_line(&text, key));
    }
}

/// The line of a top-level `key:` in the front matter block, also where an invisible U+FEFF
/// makes it another key to the SDK.
fn key_line(text: &str, key: &str) -> Option<usize> {
    let (block, _) = block_lines(text)?;
    let written = |line: &str| {
        let rest = line.strip_prefix(key)?;
        rest.trim_start().starts_with(':').then_some(())
    };
    // The key as written first; else one with a U+FEFF in it, which the SDK keeps as another.
    (block.iter())
        .find_map(|&(number, line)| written(line).map(|()| number))
        .or_else(|| {
            (block.iter())
                .find_map(|&(number, line)| written(&line.replace('\u{feff}', "")).map(|()| number))
        })
}

/// Whether `key` is `known` with an invisible U+FEFF in it, which js-yaml keeps.
pub(crate) fn hides_bom(key: &str, known: &str) -> bool {
    key.contains('\u{feff}') && key.replace('\u{feff}', "") == known
}

/// A known front matter key in the first lines after the block, when those lines are closed
/// by another `---` (the stray separator pattern): (line, key).
fn stranded_key<'k>(text: &str, known_keys: &[&'k str]) -> Option<(usize, &'k str)> {
    let (_, after) = block_lines(text)?;
    let mut first_key = None;
    for (n, line) in text.lines().enumerate().skip(after - 1) {
        let number = n + 1;
        if line.starts_with("---") {
            return first_key;
        }
        if line.trim().is_empty() {
            continue;
        }
        let key = line.split(':').next().unwrap_or_default();
        if line.contains(':') && !key.contains(' ') {
            if let Some(known) = known_keys.iter().find(|k| **k == key) {
                first_key.get_or_insert((number, *known));
            }
            continue;
        }
        // An indented line may continue a key's value; anything else is Markdown.
        if !line.starts_with(' ') {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const POINTERS: &[&str] = &["sends", "receives"];
    const KEYS: &[&str] = &["id", "version", "sends"];

    fn data(json: &str) -> Map<String, Value> {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_pointer_written_as_a_string_is_named_with_its_line() {
        let text = "---\nid: S\nsends: shipment-created\n---\nbody\n";
        let found = dropped_fields(
            "s/index.mdx",
            &data(r#"{"id":"S","sends":"shipment-created"}"#),
            text,
            POINTERS,
            KEYS,
        );
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].field.as_deref(), found[0].line),
            (Some("sends"), Some(3))
        );
        assert!(found[0].message.contains("not a list of pointers"));
    }

    #[test]
    fn pointer_entries_that_are_not_pointers_are_named() {
        let text = "---\nid: S\nsends:\n  - E\n  - id: F\n  - version: 1.0.0\n  -\n---\n";
        let found = dropped_fields(
            "s/index.mdx",
            &data(r#"{"id":"S","sends":["E",{"id":"F"},{"version":"1.0.0"},null]}"#),
            text,
            POINTERS,
            KEYS,
        );
        let named: Vec<(&str, Option<usize>)> = found
            .iter()
            .map(|d| (d.message.split('`').nth(1).unwrap_or_default(), d.line))
            .collect();
        assert_eq!(
            named,
            [
                ("sends[0]", Some(3)),
                ("sends[2]", Some(3)),
                ("sends[3]", Some(3))
            ]
        );
        assert!(found[0].message.contains("the string `E`"), "{found:?}");
    }

    /// The shapes on which the SDK's `resolve()` throws a TypeError (checked with its oracle):
    /// `sends`/`receives` anything but a list or null, any other list a mapping, number or
    /// boolean, and an empty entry in any list or in `sends[].to`, `receives[].from|triggers`.
    #[test]
    fn pointer_fields_the_sdk_cannot_resolve_are_errors() {
        let severities = |json: &str| -> Vec<(Severity, String)> {
            let found = dropped_fields(
                "s/index.mdx",
                &data(json),
                "---\nid: S\n---\n",
                &["sends", "receives", "writesTo"],
                KEYS,
            );
            found.into_iter().map(|d| (d.severity, d.message)).collect()
        };
        for json in [
            r#"{"id":"S","receives":{"id":"E"}}"#,
            r#"{"id":"S","sends":"E"}"#,
            r#"{"id":"S","sends":""}"#,
            r#"{"id":"S","sends":0}"#,
            r#"{"id":"S","writesTo":{"id":"D"}}"#,
            r#"{"id":"S","writesTo":false}"#,
            r#"{"id":"S","writesTo":[null]}"#,
            r#"{"id":"S","sends":[{"id":"E","to":[null]}]}"#,
            r#"{"id":"S","receives":[{"id":"E","triggers":[{"id":"F"},null]}]}"#,
        ] {
            let found = severities(json);
            assert!(
                matches!(&found[..], [(Severity::Error, m)] if m.contains("of `S`") && m.contains("TypeError")),
                "{json}: {found:?}"
            );
        }
        // Iterated character by character, or a lone `to`: the SDK goes on.
        for json in [
            r#"{"id":"S","writesTo":"D"}"#,
            r#"{"id":"S","sends":[{"id":"E","to":{"id":"C"}}]}"#,
            r#"{"id":"S","sends":null}"#,
        ] {
            let found = severities(json);
            assert!(
                found.iter().all(|(s, _)| *s == Severity::Warning),
                "{json}: {found:?}"
            );
        }
    }

    #[test]
    fn a_key_holding_a_byte_order_mark_is_named_with_its_line() {
        let text = "---\nid: E\n\u{feff}version: 1.0.0\n---\n";
        let found = dropped_fields(
            "e/index.mdx",
            &data(r#"{"id":"E","\ufeffversion":"1.0.0"}"#),
            text,
            POINTERS,
            KEYS,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].field.as_deref(), found[0].line),
            (Some("version"), Some(3))
        );
        assert!(found[0].message.ends_with("and no `version`"));
        // Beside the key itself, which the SDK reads: that key is there, and the line is the
        // hidden one's.
        let text = "---\nid: E\nversion: 1.0.0\nver\u{feff}sion: 2.0.0\n---\n";
        let found = dropped_fields(
            "e/index.mdx",
            &data(r#"{"id":"E","version":"1.0.0","ver\ufeffsion":"2.0.0"}"#),
            text,
            POINTERS,
            KEYS,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].line, Some(4));
        assert!(found[0].message.ends_with("beside the `version` it has"));
    }

    #[test]
    fn a_version_after_a_stray_separator_is_named() {
        let text = "---\nid: E\n---\nversion: 1.0.0\n---\n\nBody.\n";
        let found = dropped_fields("e/index.mdx", &data(r#"{"id":"E"}"#), text, POINTERS, KEYS);
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].field.as_deref(), found[0].line),
            (Some("version"), Some(4))
        );
    }

    #[test]
    fn ordinary_files_are_quiet() {
        let text = "---\nid: E\nversion: 1.0.0\nsends:\n  - id: X\n---\n\nSee: the docs.\n\n---\n";
        let found = dropped_fields(
            "e/index.mdx",
            &data(r#"{"id":"E","version":"1.0.0","sends":[{"id":"X"}]}"#),
            text,
            POINTERS,
            KEYS,
        );
        assert!(found.is_empty(), "{found:?}");
    }
}
