//! Data-driven front-matter cases: every folder `testdata/frontmatter/<case>/` holds an
//! `input.md` and either `expected.json` (the data as `JSON.stringify(data, null, 2)` + `\n`)
//! or `expected-error.txt` (the error as `line:column: message`, one line).
//!
//! Adding a case means adding a folder. The `expected.json` files were written by the real
//! gray-matter 4.0.3 + js-yaml 3 (`JSON.stringify(matter(text, {}).data, null, 2)`, by
//! `node scripts/record-frontmatter.mjs [CASE...]`), so they are ground truth. Where the SDK
//! throws, the script writes its message to `sdk-error.txt` instead, and our error must name the
//! same line. Error texts are ours; run with `FRONTMATTER_BLESS=1` to (re)write the
//! `expected-error.txt` of error cases.

use std::fs;
use std::path::Path;

use catalog_diff::catalog::frontmatter;
use catalog_diff::json_text;

#[test]
fn every_case_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/frontmatter");
    let mut dirs: Vec<_> = fs::read_dir(&root)
        .expect("testdata/frontmatter exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty());
    let bless = std::env::var_os("FRONTMATTER_BLESS").is_some();
    let mut failures = Vec::new();
    for dir in &dirs {
        let name = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_owned();
        let input = fs::read_to_string(dir.join("input.md")).expect("input.md");
        let got = match frontmatter::parse(&input) {
            Ok(value) => Ok(json_text::to_pretty(&value) + "\n"),
            Err(err) => Err(format!("{err}\n")),
        };
        let expected_json = fs::read_to_string(dir.join("expected.json")).ok();
        let error_path = dir.join("expected-error.txt");
        if let (Err(ours), Some(sdk_line)) = (&got, sdk_error_line(dir)) {
            let our_line = ours.split(':').next().unwrap_or_default();
            if our_line != sdk_line {
                failures.push(format!(
                    "{name}: the SDK names line {sdk_line}, we {ours:?}"
                ));
            }
        }
        match (got, expected_json) {
            (Ok(text), Some(want)) if text == want => {}
            (Err(text), None) if bless => {
                fs::write(&error_path, text).expect("write expected-error.txt")
            }
            (Err(text), None)
                if fs::read_to_string(&error_path).ok().as_deref() == Some(text.as_str()) => {}
            (got, _) => failures.push(format!("{name}: got {got:?}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The line the SDK's message in `sdk-error.txt` names (`... at line 4, column 1:`), if any.
fn sdk_error_line(dir: &Path) -> Option<String> {
    let message = fs::read_to_string(dir.join("sdk-error.txt")).ok()?;
    let (_, after) = message.rsplit_once(" at line ")?;
    Some(after.split(',').next()?.to_owned())
}

#[test]
fn javascript_is_never_executed() {
    for lang in ["js", "javascript", "JavaScript"] {
        let err = frontmatter::parse(&format!("---{lang}\n{{ id: 'x' }}\n---\n")).expect_err(lang);
        assert!(err.message.contains("never executes"), "{err}");
    }
}

#[test]
fn deep_nesting_is_refused_without_overflow() {
    let deep = format!(
        "---\na: {}1{}\n---\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let err = frontmatter::parse(&deep).expect_err("too deep");
    // saphyr-parser's own recursion limit or ours, whichever comes first.
    assert!(
        err.message.contains("nesting deeper") || err.message.contains("recursion limit"),
        "{err}"
    );
    let block = (0..200)
        .map(|i| format!("{}k{i}:\n", "  ".repeat(i)))
        .collect::<String>();
    assert!(frontmatter::parse(&format!("---\n{block}---\n")).is_err());
}

#[test]
fn large_inputs_parse_and_print() {
    let mut text = String::from("---\n");
    for i in 0..100_000 {
        text.push_str(&format!(
            "key{i}: &a{i} {{ v: {i}, s: \"x\", d: 2024-01-01 }}\nref{i}: *a{i}\n"
        ));
    }
    text.push_str("---\n");
    let value = frontmatter::parse(&text).expect("parses");
    assert_eq!(value.as_object().map(|m| m.len()), Some(200_000));
    let printed = json_text::to_pretty(&value);
    assert!(printed.len() > text.len());
}

proptest::proptest! {
    /// Arbitrary YAML-ish text never panics, and whatever parses prints as JSON that reads
    /// back to the same value. `PROPTEST_CASES` raises the number of cases (default 256).
    #[test]
    fn arbitrary_blocks_parse_or_fail_cleanly(body in "[a-z0-9 :\\-\\[\\]{},.'\"&*<>!#|~\n\t]{0,80}") {
        if let Ok(value) = frontmatter::parse(&format!("---\n{body}\n---\n")) {
            let text = json_text::to_pretty(&value);
            let back: serde_json::Value = serde_json::from_str(&text).expect("our JSON is valid");
            proptest::prop_assert_eq!(json_text::to_pretty(&back), text);
        }
    }
}
