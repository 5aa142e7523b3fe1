//! Where each node of a YAML text starts, as the tree `schema::located` builds for JSON, so an
//! op's pointer into a YAML specification maps back to a line. Only positions are kept: values
//! are read elsewhere (`catalog::yaml`, js-yaml semantics). Built from saphyr-parser events with
//! an explicit stack; nesting past [`MAX_DEPTH`] and text that does not parse give `None`, and an
//! alias is located at the alias itself (what a reader of the text sees), never expanded.

use saphyr_parser::{Event, Parser};

use crate::schema::MAX_DEPTH;
use crate::schema::located::{Located, Members, Node};

/// The located tree of a specification's text: JSON when it parses as JSON, else YAML.
pub fn locate(text: &str) -> Option<Located> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if (trimmed.starts_with('{') || trimmed.starts_with('['))
        && let Some(tree) = Located::parse(text)
    {
        return Some(tree);
    }
    locate_yaml(text)
}

enum Open {
    Seq(usize, Vec<Located>),
    /// Line, members, and the key read (with its line) waiting for its value.
    Map(
        usize,
        Vec<(String, usize, Located)>,
        Option<(String, usize)>,
    ),
}

/// The located tree of YAML text (its first document).
pub fn locate_yaml(text: &str) -> Option<Located> {
    let mut stack: Vec<Open> = Vec::new();
    for event in Parser::new_from_str(text.strip_prefix('\u{feff}').unwrap_or(text)) {
        let (event, span) = event.ok()?;
        let line = span.start.line();
        let node = match event {
            Event::Scalar(value, ..) => Located {
                line,
                node: Node::Scalar(Some(value.into_owned())),
            },
            Event::Alias(_) => Located {
                line,
                node: Node::Scalar(None),
            },
            Event::SequenceStart(..) => {
                if stack.len() >= MAX_DEPTH {
                    return None;
                }
                stack.push(Open::Seq(line, Vec::new()));
                continue;
            }
            Event::MappingStart(..) => {
                if stack.len() >= MAX_DEPTH {
                    return None;
                }
                stack.push(Open::Map(line, Vec::new(), None));
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => match stack.pop()? {
                Open::Seq(line, items) => Located {
                    line,
                    node: Node::Array(items),
                },
                Open::Map(line, members, _) => Located {
                    line,
                    node: Node::Object(Members::new(members)),
                },
            },
            Event::DocumentEnd if stack.is_empty() => break,
            _ => continue,
        };
        match stack.last_mut() {
            None => return Some(node),
            Some(Open::Seq(_, items)) => items.push(node),
            Some(Open::Map(_, members, pending)) => match pending.take() {
                Some((key, key_line)) => members.push((key, key_line, node)),
                None => {
                    // A key: scalars by their text (YAML `200:` is the key "200"); a complex
                    // key is kept under an empty name, since no pointer can name it.
                    let key = match node.node {
                        Node::Scalar(Some(text)) => text,
                        _ => String::new(),
                    };
                    *pending = Some((key, node.line));
                }
            },
        }
    }
    None
}

/// The line of the node `pointer` names in `root`, as [`Located::pointer_line`] finds it, except
/// that a segment that is no index of an array names the element by its `name` (an Avro field)
/// or its text (an Avro symbol): the Avro engine gives payload paths so (`/fields/qty/type`).
pub fn pointer_line(root: &Located, pointer: &str) -> usize {
    root.pointer_line_naming(pointer, by_name)
}

/// The element of `items` a segment that is no index names: an Avro field by its `name`, an
/// Avro symbol by its text.
fn by_name<'a>(items: &'a [Located], segment: &str) -> Option<&'a Located> {
    items.iter().find(|item| {
        item.text() == Some(segment) || item.member("name").and_then(Located::text) == Some(segment)
    })
}

/// The line, in `root` (the text after the change), of the nearest node that survives of
/// what `pointer` named before it (a removed element's place): as [`pointer_line`], but a
/// list is not entered by index, since the element at that index now may be another one (a
/// removed parameter's index names its next sibling), so the list itself is the place.
pub fn removed_line(root: &Located, pointer: &str) -> usize {
    removed_line_indexed(root, pointer, false)
}

/// [`removed_line`] of a pointer whose inner list indices name the items after the change (a
/// schema walker pairs list items in place): only its last segment may name an item gone.
pub fn removed_leaf_line(root: &Located, pointer: &str) -> usize {
    removed_line_indexed(root, pointer, true)
}

fn removed_line_indexed(root: &Located, pointer: &str, inner_indices_hold: bool) -> usize {
    let mut node = root;
    let mut kept = 0;
    let last = pointer.split('/').count().saturating_sub(2);
    for (at, segment) in pointer.split('/').skip(1).enumerate() {
        let name = segment.replace("~1", "/").replace("~0", "~");
        let next = match (&node.node, name.parse::<usize>()) {
            (Node::Object(_), _) => node.member(&name),
            (Node::Array(items), Err(_)) => by_name(items, &name),
            (Node::Array(items), Ok(index)) if inner_indices_hold && at < last => items.get(index),
            (Node::Array(_), Ok(_)) | (Node::Scalar(_), _) => None,
        };
        let Some(next) = next else {
            break;
        };
        node = next;
        kept += 1 + segment.len();
    }
    pointer_line(root, &pointer[..kept])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_removed_element_of_a_list_is_placed_at_the_list() {
        let after = "paths:\n  /a:\n    get:\n      parameters:\n        - name: id\n        - name: verbose\n";
        let root = locate(after).expect("parses");
        // `/parameters/1` named another parameter before; the list is what survives.
        assert_eq!(removed_line(&root, "/paths/~1a/get/parameters/1"), 4);
        assert_eq!(pointer_line(&root, "/paths/~1a/get/parameters/1"), 6);
        assert_eq!(removed_line(&root, "/paths/~1a/post"), 2);
        assert_eq!(removed_line(&root, "/paths/~1a/get/parameters"), 4);
        // Where inner indices name the items after the change, only the last is not entered.
        assert_eq!(
            removed_leaf_line(&root, "/paths/~1a/get/parameters/1/name"),
            6
        );
        assert_eq!(removed_leaf_line(&root, "/paths/~1a/get/parameters/1"), 4);
    }

    #[test]
    fn yaml_pointers_map_to_lines() {
        let text = "openapi: 3.0.3\npaths:\n  /orders/{id}:\n    get:\n      responses:\n        200:\n          description: ok\n        '404':\n          description: missing\n";
        let root = locate(text).expect("YAML");
        assert_eq!(root.pointer_line("/paths/~1orders~1{id}/get"), 4);
        assert_eq!(
            root.pointer_line("/paths/~1orders~1{id}/get/responses/200"),
            6
        );
        assert_eq!(
            root.pointer_line("/paths/~1orders~1{id}/get/responses/404/description"),
            9
        );
        assert_eq!(root.pointer_line("/paths/~1missing/get"), 2);
    }

    #[test]
    fn avro_fields_and_symbols_are_found_by_name() {
        let text = "type: record\nfields:\n  - name: id\n    type: string\n  - name: qty\n    type: int\n  - name: kind\n    type: {type: enum, name: K, symbols: [A, B]}\n";
        let root = locate(text).expect("YAML");
        assert_eq!(pointer_line(&root, "/fields/qty/type"), 6);
        assert_eq!(pointer_line(&root, "/fields/1/type"), 6);
        assert_eq!(pointer_line(&root, "/fields/kind/type/symbols/B"), 8);
        assert_eq!(pointer_line(&root, "/fields/gone/type"), 2);
    }

    #[test]
    fn flow_collections_sequences_and_json() {
        let text = "tags: [a, b]\nlist:\n  - x: 1\n  - y: 2\n";
        let root = locate(text).expect("YAML");
        assert_eq!(root.pointer_line("/list/1/y"), 4);
        let json = "{\n  \"a\": {\n    \"b\": 1\n  }\n}";
        assert_eq!(locate(json).expect("JSON").pointer_line("/a/b"), 3);
    }

    #[test]
    fn bad_or_deep_text_is_none() {
        assert!(locate_yaml("a: [\n").is_none());
        let deep = "[".repeat(MAX_DEPTH + 5);
        assert!(locate_yaml(&deep).is_none());
    }
}
