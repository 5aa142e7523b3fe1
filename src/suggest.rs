//! "Did you mean": the names closest to one that was not found, for error messages that say
//! what exists nearby.

/// Up to three of `names` closest to `wanted` (case-insensitive edit distance, within about a
/// third of its length), closest first.
pub fn closest<'a>(wanted: &str, names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let wanted_lower = wanted.to_lowercase();
    let limit = (wanted.chars().count() / 3).max(2);
    let mut scored: Vec<(usize, &str)> = names
        .into_iter()
        .filter_map(|name| {
            let distance = edit_distance(&wanted_lower, &name.to_lowercase());
            (distance <= limit).then_some((distance, name))
        })
        .collect();
    scored.sort();
    scored.dedup();
    scored.into_iter().take(3).map(|(_, name)| name).collect()
}

/// Levenshtein distance over chars.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != *cb))
                .min(above + 1)
                .min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// `; did you mean `a`, `b`?` or nothing.
pub fn hint(found: &[&str]) -> String {
    if found.is_empty() {
        String::new()
    } else {
        // The names come from the catalog: escaped, as every report is.
        let list: Vec<String> = found
            .iter()
            .map(|name| format!("`{}`", crate::catalog::escape_text(name)))
            .collect();
        format!("; did you mean {}?", list.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_near_names() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        let names = ["OrderPlaced", "OrderPaid", "Payment", "order-placed"];
        assert_eq!(
            closest("OrderPlacd", names),
            vec!["OrderPlaced", "OrderPaid", "order-placed"]
        );
        assert!(closest("Shipping", names).is_empty());
        assert_eq!(hint(&["a"]), "; did you mean `a`?");
    }
}
