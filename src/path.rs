//! `/`-separated paths inside a catalog or beside a document, resolved as text: never
//! through the file system, so a revision's paths resolve the same on every machine.

/// `a/./b/../c` -> `a/c`; `None` when `..` climbs above the start. A leading `/` is kept.
pub fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    Some(if path.starts_with('/') {
        format!("/{joined}")
    } else {
        joined
    })
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
}
