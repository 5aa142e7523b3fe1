//! `/`-separated paths inside a catalog or beside a document, resolved as text: never
//! through the file system, so a revision's paths resolve the same on every machine.

/// `a/./b/../c` -> `a/c`; `None` when `..` climbs above the start. A leading `/` is kept.
pub fn normalize(path: &str) -> Option<String> {
    let joined = resolve(path.split('/'), Above::Refused)?.join("/");
    Some(if path.starts_with('/') {
        format!("/{joined}")
    } else {
        joined
    })
}

/// `a/../../b` -> `../b`, as Node's `path.normalize` makes a relative path: a `..` with
/// nothing before it to take is kept.
pub fn normalize_relative(path: &str) -> String {
    resolve(path.split('/'), Above::Kept)
        .unwrap_or_default()
        .join("/")
}

/// The catalog path of a file named `path` from catalog folder `dir` (a schema entry's path
/// from its resource's folder), as the diff reads it: `.` and `..` resolved as text, and a
/// `..` at the catalog's top staying there.
pub fn catalog_join(dir: &str, path: &str) -> String {
    resolve(dir.split('/').chain(path.split('/')), Above::Dropped)
        .unwrap_or_default()
        .join("/")
}

/// What a `..` with no segment before it to take does.
#[derive(Clone, Copy)]
enum Above {
    /// The path is refused (`None`).
    Refused,
    /// It is dropped: the path stays at the top.
    Dropped,
    /// It is kept, as Node keeps it in a relative path.
    Kept,
}

/// `segments` with empty ones and `.` dropped and each `..` taking the one before it; one
/// with none before it does what `above` says.
fn resolve<'a>(segments: impl Iterator<Item = &'a str>, above: Above) -> Option<Vec<&'a str>> {
    let mut parts = Vec::new();
    for segment in segments {
        match segment {
            "" | "." => {}
            ".." if parts.last().is_some_and(|last| *last != "..") => {
                parts.pop();
            }
            ".." => match above {
                Above::Refused => return None,
                Above::Dropped => {}
                Above::Kept => parts.push(".."),
            },
            other => parts.push(other),
        }
    }
    Some(parts)
}

/// RFC 6901: `~` becomes `~0` and `/` becomes `~1` inside a JSON pointer segment.
pub fn pointer_segment(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Every object of JSON document `root` with its JSON pointer (RFC 6901), in no set order:
/// walked with an explicit stack, so a deep document costs no call depth.
pub fn objects(
    root: &serde_json::Value,
) -> Vec<(String, &serde_json::Map<String, serde_json::Value>)> {
    use serde_json::Value;
    let mut found = Vec::new();
    let mut pending = vec![(String::new(), root)];
    while let Some((at, node)) = pending.pop() {
        match node {
            Value::Object(map) => {
                for (key, child) in map {
                    pending.push((format!("{at}/{}", pointer_segment(key)), child));
                }
                found.push((at, map));
            }
            Value::Array(items) => {
                for (n, child) in items.iter().enumerate() {
                    pending.push((format!("{at}/{n}"), child));
                }
            }
            _ => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dots_resolve_as_text() {
        assert_eq!(normalize("a/./b/../c").as_deref(), Some("a/c"));
        assert_eq!(normalize("a//b/").as_deref(), Some("a/b"));
        assert_eq!(normalize("../x"), None);
        assert_eq!(normalize("a/../../x"), None);
        assert_eq!(normalize("/tmp/a/../b").as_deref(), Some("/tmp/b"));
    }

    #[test]
    fn a_relative_path_keeps_the_dots_that_climb_out() {
        assert_eq!(normalize_relative("teams/../../x.mdx"), "../x.mdx");
        assert_eq!(normalize_relative("teams/./a//b/../c.mdx"), "teams/a/c.mdx");
        assert_eq!(normalize_relative("../../x/../y"), "../../y");
    }

    #[test]
    fn a_catalog_path_resolves_dots_and_stays_in_the_catalog() {
        assert_eq!(
            catalog_join("events/E", "../../shared/s.avsc"),
            "shared/s.avsc"
        );
        assert_eq!(catalog_join("events/E", "./s.json"), "events/E/s.json");
        assert_eq!(catalog_join("", "s.json"), "s.json");
        assert_eq!(catalog_join("events/E", "../../../s.json"), "s.json");
    }
}
