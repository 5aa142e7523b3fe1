//! Every Avro fixture checked against the `apache-avro` crate's own compatibility checker
//! (`schema_compatibility::SchemaCompatibility::can_read`, taking `Ok(Full)` as compatible and
//! `Ok(Partial)` or an error as not), next to the verdicts recorded from Apache Avro's
//! `SchemaCompatibility` in each `expected.json`.
//!
//! The crate (0.22) departs from the Java behaviour in known ways, listed in [`DEPARTURES`] with
//! the reason; the test fails on a departure that is not listed (so a new fixture that shows a
//! new difference gets looked at) and on a listed one that no longer departs (so the list stays
//! true). Our verdicts follow Java, never the crate.

use std::collections::BTreeSet;
use std::path::Path;

use apache_avro::Schema;
use apache_avro::schema_compatibility::{Compatibility, SchemaCompatibility};
use serde_json::Value;

/// (case folder under testdata/avro, direction, why the crate answers otherwise than Java).
#[rustfmt::skip]
const DEPARTURES: &[(&str, &str, &str)] = &[
    ("logical-type.changed/decimal-precision", "backward", DECIMAL),
    ("logical-type.changed/decimal-precision", "forward", DECIMAL),
    ("name.changed-aliased/enum-renamed-with-alias", "backward", ALIASES),
    ("name.changed-aliased/new-name-aliases-old-full-name", "backward", ALIASES),
    ("name.changed-aliased-back/old-name-listed-new", "forward", ALIASES),
    ("name.changed-aliased-both/each-lists-the-other", "backward", ALIASES),
    ("name.changed-aliased-both/each-lists-the-other", "forward", ALIASES),
    ("union.branch.removed-readable/record-branch-renamed-with-alias", "backward", ALIASES),
    ("field.added-with-default/double-with-text-default", "parse", TEXT_DEFAULT),
];

/// Java reads a logical type as its physical type; the crate requires equal decimal precision
/// and scale.
const DECIMAL: &str = "the crate compares decimal precision and scale";
/// Java matches a renamed record, enum or fixed through the reader's `aliases`; the crate
/// compares unqualified names only.
const ALIASES: &str = "the crate ignores the aliases of named types";
/// Java reads a `float` or `double` field's default written as text with `Double.valueOf`; the
/// crate refuses it.
const TEXT_DEFAULT: &str = "the crate refuses a float default written as text";

fn compatible(writer: &Schema, reader: &Schema) -> bool {
    matches!(
        SchemaCompatibility::can_read(writer, reader),
        Ok(Compatibility::Full)
    )
}

#[test]
fn the_crate_agrees_with_java_except_where_listed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/avro");
    // Each departure found: (case, direction or `parse`) and what it is.
    let mut found: Vec<((String, &str), String)> = Vec::new();
    let (mut cases, mut agreeing) = (0, 0);
    let mut kinds: Vec<_> = std::fs::read_dir(&root)
        .expect("testdata/avro")
        .map(|entry| entry.expect("entry").path())
        .collect();
    kinds.sort();
    for kind in kinds {
        let mut folders: Vec<_> = std::fs::read_dir(&kind)
            .expect("kind folder")
            .map(|entry| entry.expect("entry").path())
            .collect();
        folders.sort();
        for case in folders {
            let name = format!(
                "{}/{}",
                kind.file_name().unwrap().to_string_lossy(),
                case.file_name().unwrap().to_string_lossy()
            );
            let read = |file: &str| std::fs::read_to_string(case.join(file)).expect("readable");
            let expected: Value =
                serde_json::from_str(&read("expected.json")).expect("expected.json");
            cases += 1;
            let parsed = (
                Schema::parse_str(&read("before.avsc")),
                Schema::parse_str(&read("after.avsc")),
            );
            let (before, after) = match parsed {
                (Ok(before), Ok(after)) => (before, after),
                (before, after) => {
                    let error = before.err().or(after.err()).expect("one side failed");
                    found.push((
                        (name.clone(), "parse"),
                        format!("{name}: the crate refuses it: {error}"),
                    ));
                    continue;
                }
            };
            let mut agrees = true;
            for (direction, reader, writer) in
                [("backward", &after, &before), ("forward", &before, &after)]
            {
                let java = expected[direction]["breaking"].as_bool().expect("recorded");
                let crate_breaks = !compatible(writer, reader);
                if java != crate_breaks {
                    agrees = false;
                    found.push((
                        (name.clone(), direction),
                        format!("{name} ({direction}): Java says breaking={java}, the crate {crate_breaks}"),
                    ));
                }
            }
            agreeing += usize::from(agrees);
        }
    }
    eprintln!(
        "apache-avro agrees with Java on {agreeing} of {cases} Avro fixtures in both directions"
    );
    let listed: BTreeSet<(String, &str)> = DEPARTURES
        .iter()
        .map(|(case, direction, _)| ((*case).to_owned(), *direction))
        .collect();
    let keys: BTreeSet<(String, &str)> = found.iter().map(|(key, _)| key.clone()).collect();
    let unlisted: Vec<&str> = found
        .iter()
        .filter(|(key, _)| !listed.contains(key))
        .map(|(_, line)| line.as_str())
        .collect();
    let stale: Vec<_> = listed.difference(&keys).collect();
    assert!(
        unlisted.is_empty() && stale.is_empty(),
        "departures not listed in DEPARTURES:\n{}\nlisted but no longer departing: {stale:?}\nall:\n{}",
        unlisted.join("\n"),
        found
            .iter()
            .map(|(_, line)| line.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}
