//! JSON text read as a tree that remembers where each node starts, so a format can map an op's
//! path back to a line (`Format::lines_of`). Only positions are kept: values are compared
//! elsewhere, on serde_json's parse. Nesting is bounded by [`super::MAX_DEPTH`]; deeper text
//! simply stops being located (it has already been refused by the parser that judged it).

use std::collections::HashMap;

/// A node of a JSON document and the 1-based line where it starts.
#[derive(Debug, PartialEq)]
pub struct Located {
    pub line: usize,
    pub node: Node,
}

#[derive(Debug, PartialEq)]
pub enum Node {
    Object(Members),
    Array(Vec<Located>),
    /// A string's text (so names can be matched); other scalars are `None`.
    Scalar(Option<String>),
}

/// An object's members in document order: key, the line of the key, the value.
#[derive(Debug, PartialEq)]
pub struct Members {
    list: Vec<(String, usize, Located)>,
    /// Where each key first appears, for a large object: a change of thousands of properties
    /// looks each one up, and searching the list for each took time growing as their square.
    first: Option<HashMap<String, usize>>,
}

/// The most members an object is searched through rather than indexed.
const SEARCHED: usize = 16;

impl Members {
    pub fn new(list: Vec<(String, usize, Located)>) -> Members {
        let first = (list.len() > SEARCHED).then(|| {
            let mut first = HashMap::with_capacity(list.len());
            for (at, (key, ..)) in list.iter().enumerate() {
                first.entry(key.clone()).or_insert(at);
            }
            first
        });
        Members { list, first }
    }

    /// The first member named `key`: the line of its key and its value.
    fn get(&self, key: &str) -> Option<(usize, &Located)> {
        let at = match &self.first {
            Some(first) => *first.get(key)?,
            None => self.list.iter().position(|(k, ..)| k == key)?,
        };
        let (_, line, value) = &self.list[at];
        Some((*line, value))
    }
}

impl Located {
    /// Parse JSON text; `None` when it is not JSON (a BOM is skipped).
    pub fn parse(text: &str) -> Option<Located> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut reader = Reader {
            bytes: text.as_bytes(),
            at: 0,
            line: 1,
        };
        reader.value(0)
    }

    /// The member `key` of an object.
    pub fn member(&self, key: &str) -> Option<&Located> {
        match &self.node {
            Node::Object(members) => members.get(key).map(|(_, value)| value),
            _ => None,
        }
    }

    /// The line of the key `key` of an object (where a reader looks for it).
    pub fn key_line(&self, key: &str) -> Option<usize> {
        match &self.node {
            Node::Object(members) => members.get(key).map(|(line, _)| line),
            _ => None,
        }
    }

    /// The `index`th element of an array.
    pub fn element(&self, index: usize) -> Option<&Located> {
        match &self.node {
            Node::Array(items) => items.get(index),
            _ => None,
        }
    }

    /// The string value, if this is a string.
    pub fn text(&self) -> Option<&str> {
        match &self.node {
            Node::Scalar(text) => text.as_deref(),
            _ => None,
        }
    }

    /// The line of the node a JSON pointer names: the line of the last key reached, or of the
    /// deepest node that exists when the pointer goes further than the text.
    pub fn pointer_line(&self, pointer: &str) -> usize {
        self.pointer_line_naming(pointer, |_, _| None)
    }

    /// [`Located::pointer_line`], where a segment that is no index of an array names the element
    /// `named` finds among its items (an Avro field by its `name`, say).
    pub fn pointer_line_naming<'a>(
        &'a self,
        pointer: &str,
        named: impl Fn(&'a [Located], &str) -> Option<&'a Located>,
    ) -> usize {
        let mut node = self;
        let mut line = self.line;
        for segment in pointer.split('/').skip(1) {
            let segment = segment.replace("~1", "/").replace("~0", "~");
            let next = match &node.node {
                Node::Object(members) => members.get(&segment),
                Node::Array(items) => match segment.parse::<usize>() {
                    Ok(index) => items.get(index),
                    Err(_) => named(items, &segment),
                }
                .map(|value| (value.line, value)),
                Node::Scalar(_) => None,
            };
            match next {
                Some((next_line, value)) => {
                    line = next_line;
                    node = value;
                }
                None => break,
            }
        }
        line
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    line: usize,
}

impl Reader<'_> {
    fn skip_space(&mut self) {
        while let Some(&byte) = self.bytes.get(self.at) {
            match byte {
                b'\n' => self.line += 1,
                b' ' | b'\t' | b'\r' => {}
                _ => return,
            }
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.skip_space();
        if self.bytes.get(self.at) == Some(&byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Option<Located> {
        if depth > super::MAX_DEPTH {
            return None;
        }
        self.skip_space();
        let line = self.line;
        let node = match self.bytes.get(self.at)? {
            b'{' => {
                self.at += 1;
                let mut members = Vec::new();
                if !self.eat(b'}') {
                    loop {
                        self.skip_space();
                        let key_line = self.line;
                        let key = self.string()?;
                        if !self.eat(b':') {
                            return None;
                        }
                        let value = self.value(depth + 1)?;
                        members.push((key, key_line, value));
                        if self.eat(b'}') {
                            break;
                        }
                        if !self.eat(b',') {
                            return None;
                        }
                    }
                }
                Node::Object(Members::new(members))
            }
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                if !self.eat(b']') {
                    loop {
                        items.push(self.value(depth + 1)?);
                        if self.eat(b']') {
                            break;
                        }
                        if !self.eat(b',') {
                            return None;
                        }
                    }
                }
                Node::Array(items)
            }
            b'"' => Node::Scalar(Some(self.string()?)),
            _ => {
                let start = self.at;
                while self
                    .bytes
                    .get(self.at)
                    .is_some_and(|b| !b",}] \t\r\n".contains(b))
                {
                    self.at += 1;
                }
                if self.at == start {
                    return None;
                }
                Node::Scalar(None)
            }
        };
        Some(Located { line, node })
    }

    /// A string token, unescaped through serde_json so escapes mean what JSON says.
    fn string(&mut self) -> Option<String> {
        if self.bytes.get(self.at) != Some(&b'"') {
            return None;
        }
        let start = self.at;
        self.at += 1;
        loop {
            match self.bytes.get(self.at)? {
                b'\\' => self.at += 2,
                b'"' => {
                    self.at += 1;
                    break;
                }
                b'\n' => return None,
                _ => self.at += 1,
            }
        }
        let raw = std::str::from_utf8(self.bytes.get(start..self.at)?).ok()?;
        serde_json::from_str(raw).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "{\n  \"properties\": {\n    \"a/b\": {\"type\": \"string\"},\n    \"list\": [\n      1,\n      {\"x\": true}\n    ]\n  }\n}";

    /// Small and large objects (searched and indexed) place a key alike: at its first
    /// appearance, when a key is repeated.
    #[test]
    fn a_repeated_key_is_placed_where_it_first_appears() {
        for members in [3, SEARCHED + 1, 200] {
            let mut text = String::from("{\n");
            for n in 0..members {
                text += &format!("  \"p{n}\": 1,\n");
            }
            text += "  \"p1\": 2\n}";
            let root = Located::parse(&text).unwrap();
            assert_eq!(root.pointer_line("/p1"), 3, "{members} members");
            assert_eq!(
                root.pointer_line(&format!("/p{}", members - 1)),
                members + 1
            );
            assert_eq!(root.pointer_line("/missing"), 1);
        }
    }

    #[test]
    fn pointers_map_to_lines() {
        let root = Located::parse(TEXT).unwrap();
        assert_eq!(root.pointer_line(""), 1);
        assert_eq!(root.pointer_line("/properties"), 2);
        assert_eq!(root.pointer_line("/properties/a~1b"), 3);
        assert_eq!(root.pointer_line("/properties/a~1b/type"), 3);
        assert_eq!(root.pointer_line("/properties/list/1/x"), 6);
        assert_eq!(root.pointer_line("/properties/missing/deeper"), 2);
    }

    #[test]
    fn not_json_is_none() {
        assert_eq!(Located::parse("{\"a\": }"), None);
        assert_eq!(Located::parse(""), None);
        assert!(Located::parse("\u{feff}true").is_some());
    }
}
