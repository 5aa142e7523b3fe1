//! Tabs in the indentation of a line, read as js-yaml 3 reads them; saphyr-parser refuses them.
//!
//! js-yaml 3 counts only the spaces at the start of a line as its indentation: the tabs after
//! them are blanks like any other. A tab's width matters in one place only, a line that opens a
//! block sequence or mapping: the collection is as indented as its first character's column, a
//! tab counting one. So before the YAML is parsed, each line whose leading blanks hold a tab is
//! given spaces only:
//!
//! * its js-yaml indentation (the spaces before its first tab) when it continues or closes what is
//!   open, or continues a plain or quoted scalar (whose leading blanks are not content);
//! * one space per blank when it opens a block collection, so the collection keeps its column;
//! * nothing changes inside a block scalar (the tab is content) or a flow collection (saphyr-parser
//!   reads tabs there).
//!
//! Which of these a line is comes from saphyr-parser's own events on the text with the line
//! given its js-yaml indentation: a block collection that starts at the line's first character
//! is one the line opens. A line's role can change how the lines below it are read, so after
//! such a change the text is read again from the start.

use std::borrow::Cow;

use saphyr_parser::{Event, Parser, ScalarStyle};

use super::{Fix, MAX_RETRIES};

/// Most bytes the walks may parse in all (the text once per line that opens a collection).
const BUDGET: usize = 64 << 20;

/// What a tab line is to js-yaml, which says what its leading blanks become.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Continues or closes the open block collections: its js-yaml indentation; after an
    /// indicator that starts the line, the blanks removed, so what follows keeps its column.
    Structure,
    /// Opens a block collection at its first character: one space per blank.
    Opens,
    /// Goes on with a plain or quoted scalar: its js-yaml indentation (the blanks are not content).
    InScalar,
    /// Inside a flow collection, whose indentation js-yaml ignores: one space per blank.
    InFlow,
    /// Content of a block scalar, where the tab is content: unchanged.
    InBlockScalar,
}

impl Role {
    /// Whether the line's blanks are indentation (not content of a scalar or a flow collection).
    fn structural(self) -> bool {
        matches!(self, Role::Structure | Role::Opens)
    }

    /// Whether `line` going from this role to `new` can change how the lines below it are
    /// read: it does unless the line stays content of a scalar or a flow collection, as
    /// indented as it was.
    fn moves_to(self, new: Role, line: &TabLine) -> bool {
        new != self && (new.structural() || new.indentation(line) != self.indentation(line))
    }

    /// How many spaces the line starts with in this role.
    fn indentation(self, line: &TabLine) -> usize {
        match self {
            Role::Structure | Role::InScalar | Role::InBlockScalar => line.spaces,
            Role::Opens | Role::InFlow => line.width,
        }
    }
}

/// A line whose leading blanks hold a tab and that has something after them.
struct TabLine {
    /// 1-based, as saphyr-parser counts.
    line: usize,
    /// Byte offset of the line's start.
    start: usize,
    /// Spaces before the first tab.
    spaces: usize,
    /// Leading blanks, tabs and spaces (one byte each).
    width: usize,
}

impl TabLine {
    /// The `-`, `?` or `:` (followed by a blank or the line's end) the line starts with.
    fn indicator(&self, text: &str) -> Option<char> {
        let rest = &text.as_bytes()[self.start + self.width..];
        match rest {
            [c @ (b'-' | b'?' | b':'), b' ' | b'\t' | b'\r' | b'\n', ..]
            | [c @ (b'-' | b'?' | b':')] => Some(char::from(*c)),
            _ => None,
        }
    }
}

/// The text with its tab-indented lines given spaces, and where columns moved.
#[derive(Debug)]
pub(super) struct Untabbed {
    pub text: String,
    moved: Vec<Moved>,
    /// Lines whose tabs are indentation (not content of a scalar or a flow collection).
    indented: Vec<usize>,
}

/// A line whose first character moved left (and, after an indicator, nothing else).
#[derive(Debug)]
struct Moved {
    line: usize,
    spaces: usize,
    removed: usize,
    indicator: bool,
}

impl Untabbed {
    fn new(text: &str, lines: &[TabLine], roles: &[Role]) -> Untabbed {
        let moved = lines
            .iter()
            .zip(roles)
            .filter(|(_, role)| matches!(role, Role::Structure | Role::InScalar))
            .map(|(line, role)| Moved {
                line: line.line,
                spaces: line.spaces,
                removed: line.width - line.spaces,
                indicator: *role == Role::Structure && line.indicator(text).is_some(),
            })
            .collect();
        let indented = lines
            .iter()
            .zip(roles)
            .filter(|(_, role)| role.structural())
            .map(|(line, _)| line.line)
            .collect();
        Untabbed {
            text: apply(text, lines, roles),
            moved,
            indented,
        }
    }

    /// Whether `line` is indented with a tab (the tab is not content).
    pub fn indented_with_tab(&self, line: usize) -> bool {
        self.indented.contains(&line)
    }

    /// The 1-based column in the original text of `column` on `line` of the rewritten text.
    pub fn original_column(&self, line: usize, column: usize) -> usize {
        match self.moved.iter().find(|moved| moved.line == line) {
            Some(moved)
                if column > moved.spaces && (!moved.indicator || column == moved.spaces + 1) =>
            {
                column + moved.removed
            }
            _ => column,
        }
    }
}

/// `text` with the leading tabs of its lines rewritten as js-yaml reads them; `None` when no
/// line starts with blanks holding a tab (or line breaks are lone `\r`, where lines are not
/// counted the same way). `Err(line)` when finding their roles would parse too much text.
pub(super) fn untab(text: &str) -> Result<Option<Untabbed>, usize> {
    let lines = tab_lines(text);
    if lines.is_empty() || text.replace("\r\n", "").contains('\r') {
        return Ok(None);
    }
    let mut roles = vec![Role::Structure; lines.len()];
    let mut settled = 0;
    let mut parsed = 0;
    loop {
        let mut candidate = apply(text, &lines, &roles);
        // A block scalar's span ends on the line after its last; give the last line one.
        if !candidate.ends_with('\n') {
            candidate.push('\n');
        }
        parsed += candidate.len();
        if parsed > BUDGET {
            return Err(lines[settled.min(lines.len() - 1)].line);
        }
        let mut moved_at = None;
        for (i, seen) in seen_roles(&candidate, &lines, &roles, settled)
            .into_iter()
            .enumerate()
        {
            let Some(seen) = seen else { continue };
            if moved_at.is_none() && roles[i].moves_to(seen, &lines[i]) {
                moved_at = Some(i);
            }
            roles[i] = seen;
        }
        match moved_at {
            Some(i) => settled = i + 1,
            None => return Ok(Some(Untabbed::new(text, &lines, &roles))),
        }
    }
}

fn tab_lines(text: &str) -> Vec<TabLine> {
    let mut found = Vec::new();
    let mut start = 0;
    for (index, line) in text.split('\n').enumerate() {
        let blanks = line
            .bytes()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        let spaces = line.bytes().take_while(|&b| b == b' ').count();
        let rest = &line[blanks..];
        if blanks > spaces && !rest.is_empty() && rest != "\r" {
            found.push(TabLine {
                line: index + 1,
                start,
                spaces,
                width: blanks,
            });
        }
        start += line.len() + 1;
    }
    found
}

/// `text` with the leading blanks of each tab line rewritten for its role.
fn apply(text: &str, lines: &[TabLine], roles: &[Role]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for (line, role) in lines.iter().zip(roles) {
        let (blanks, indicator) = match role {
            Role::Structure => (line.spaces, line.indicator(text)),
            Role::InScalar => (line.spaces, None),
            Role::Opens | Role::InFlow => (line.width, None),
            Role::InBlockScalar => continue,
        };
        out.push_str(&text[copied..line.start]);
        out.push_str(&" ".repeat(blanks));
        copied = line.start + line.width;
        // What follows an indicator keeps its column: a compact collection after it
        // (`- - a`, `- key: a`) is as indented as js-yaml makes it.
        if let Some(indicator) = indicator {
            out.push(indicator);
            out.push_str(&" ".repeat(line.width - line.spaces));
            copied += 1;
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// The role of each line from `from` on, as far as the events of `candidate` reach, up to the
/// first line whose role moves the lines below it (`None` past that, or past a parse error).
/// Text that js-yaml reads and saphyr-parser refuses for another reason (a tab after `key:`)
/// is rewritten as the parse will rewrite it, and read again.
fn seen_roles(
    candidate: &str,
    lines: &[TabLine],
    roles: &[Role],
    from: usize,
) -> Vec<Option<Role>> {
    let mut candidate = Cow::Borrowed(candidate);
    let mut retries = 0;
    loop {
        let mut walk = Walk::new(lines, from);
        match walk.events(&candidate, roles) {
            Some((fix, at)) if retries < MAX_RETRIES => match fix.apply(&candidate, at) {
                Some(fixed) => {
                    retries += 1;
                    candidate = Cow::Owned(fixed);
                }
                None => return walk.seen,
            },
            _ => return walk.seen,
        }
    }
}

/// A collection that is open while the events are walked.
struct Open {
    flow: bool,
    mapping: bool,
    /// The column of its first character.
    indent: usize,
    /// Nodes read so far (keys and values alike for a mapping).
    children: usize,
}

/// Where [`seen_roles`] is in the events and the tab lines.
struct Walk<'a> {
    lines: &'a [TabLine],
    /// The role seen for each tab line so far.
    seen: Vec<Option<Role>>,
    /// The first tab line not given a role yet.
    next: usize,
    open: Vec<Open>,
    /// Lines [first, end) of the last block scalar's content.
    block_scalar: (usize, usize),
    /// Lines (first, last] of the last plain or quoted scalar that go on from its first.
    scalar: (usize, usize),
    /// The line of the first event seen on it, and whether a flow collection was open then.
    first_on_line: Option<(usize, bool)>,
}

impl<'a> Walk<'a> {
    fn new(lines: &'a [TabLine], from: usize) -> Walk<'a> {
        Walk {
            lines,
            seen: vec![None; lines.len()],
            next: from,
            open: Vec::new(),
            block_scalar: (0, 0),
            scalar: (0, 0),
            first_on_line: None,
        }
    }

    /// Walks the events of `candidate`, giving each tab line its role, until a line's role
    /// differs from its role in `roles` in a way that moves the lines below. On a parse error,
    /// the [`Fix`] for it, if any, and where the parser pointed.
    fn events(&mut self, candidate: &str, roles: &[Role]) -> Option<(Fix, usize)> {
        let chars: Vec<char> = candidate.chars().collect();
        for event in Parser::new_from_str(candidate) {
            let (event, span) = match event {
                Ok(event) => event,
                Err(error) => {
                    if self.pass_lines_before(error.marker().line(), roles) {
                        return None;
                    }
                    let fix = Fix::for_message(error.info())?;
                    return Some((fix, error.marker().index()));
                }
            };
            let starts = matches!(event, Event::SequenceStart(..) | Event::MappingStart(..));
            // A collection's span runs from its anchor or tag, if any, to its first character
            // (past the bracket of a flow collection): where it starts is where that span ends.
            let first = if starts { span.end } else { span.start };
            let flow =
                starts && matches!(chars.get(first.index().wrapping_sub(1)), Some('[' | '{'));
            let at = first.line();
            if self.pass_lines_before(at, roles) {
                return None;
            }
            match event {
                Event::Scalar(_, ScalarStyle::Literal | ScalarStyle::Folded, ..) => {
                    self.block_scalar = (at, span.end.line());
                }
                Event::Scalar(..) => self.scalar = (at, span.end.line()),
                _ => {}
            }
            let node = starts || matches!(event, Event::Scalar(..) | Event::Alias(..));
            let on_next_line = self.lines.get(self.next).is_some_and(|l| l.line == at);
            if on_next_line {
                let in_flow = self.in_flow(at);
                if node {
                    let line = &self.lines[self.next];
                    // A block collection starts at the line's first character; an indentless
                    // sequence (`key:`, then `- item` as indented as the key) starts at its
                    // first item's value.
                    let opens = starts
                        && !flow
                        && !in_flow
                        && (first.col() == line.spaces
                            || (matches!(event, Event::SequenceStart(..))
                                && self.awaits_value_at(line.spaces)));
                    let role = if opens {
                        Role::Opens
                    } else {
                        self.role(line, in_flow)
                    };
                    if self.give(role, roles) {
                        return None;
                    }
                }
            }
            if starts {
                self.open.push(Open {
                    flow,
                    mapping: matches!(event, Event::MappingStart(..)),
                    indent: first.col(),
                    children: 0,
                });
            } else if node || matches!(event, Event::SequenceEnd | Event::MappingEnd) {
                if !node {
                    self.open.pop();
                }
                if let Some(parent) = self.open.last_mut() {
                    parent.children += 1;
                }
            }
        }
        self.pass_lines_before(usize::MAX, roles);
        None
    }

    /// Gives the next tab line `role`; true when that moves the lines below it.
    fn give(&mut self, role: Role, roles: &[Role]) -> bool {
        let i = self.next;
        self.seen[i] = Some(role);
        self.next += 1;
        roles[i].moves_to(role, &self.lines[i])
    }

    /// Whether a flow collection is open on `line`, as it was at the line's first event.
    fn in_flow(&mut self, line: usize) -> bool {
        match self.first_on_line {
            Some((at, in_flow)) if at == line => in_flow,
            _ => {
                let in_flow = self.open.iter().any(|open| open.flow);
                self.first_on_line = Some((line, in_flow));
                in_flow
            }
        }
    }

    /// The innermost open collection is a block mapping indented by `indent` whose last key
    /// has no value yet.
    fn awaits_value_at(&self, indent: usize) -> bool {
        self.open.last().is_some_and(|open| {
            open.mapping && !open.flow && open.indent == indent && open.children % 2 == 1
        })
    }

    /// The role of a line that opens nothing.
    fn role(&self, line: &TabLine, in_flow: bool) -> Role {
        let (first, end) = self.block_scalar;
        let (start, last) = self.scalar;
        if (first..end).contains(&line.line) {
            Role::InBlockScalar
        } else if in_flow {
            Role::InFlow
        } else if start < line.line && line.line <= last {
            Role::InScalar
        } else {
            Role::Structure
        }
    }

    /// Gives every tab line above `line` that no event started on its role; true when one
    /// moves the lines below it.
    fn pass_lines_before(&mut self, line: usize, roles: &[Role]) -> bool {
        while self.next < self.lines.len() && self.lines[self.next].line < line {
            let tab_line = &self.lines[self.next];
            let in_flow = self.in_flow(tab_line.line);
            if self.give(self.role(tab_line, in_flow), roles) {
                return true;
            }
        }
        false
    }
}
