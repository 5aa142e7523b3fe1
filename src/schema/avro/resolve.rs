//! Whether a reader schema can read what a writer schema wrote, as Apache Avro's Java
//! `SchemaCompatibility` (and its Python port `avro.compatibility`) decides it. This is the
//! direct check the verdict must equal; the walker (`compare.rs`) also asks it about parts of the
//! two schemas when a change's effect depends on the rest of a union.
//!
//! Where the specification and `SchemaCompatibility` differ, this follows `SchemaCompatibility`:
//! named types match by unqualified name, or when the reader's `aliases` (as written) hold the
//! writer's full name; a reader field finds its writer field by name, then by its own aliases;
//! logical types are ignored (a type is judged by its physical type); a reader union accepts a
//! writer type when any of its branches can read it. Pairs already being checked count as
//! compatible, which is what makes recursive types terminate.

use std::collections::{HashMap, HashSet};

use super::model::{Field, Kind, Named, NodeId, Primitive, Schema};
use crate::schema::{Error, MAX_DEPTH};

/// The first reason a reader cannot read a writer's data: where (a path into the reader's
/// schema) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incompatibility {
    pub path: String,
    pub message: String,
}

/// `None` when the reader reads everything the writer writes.
pub type Outcome = Option<Incompatibility>;

/// Check the whole of `writer` against the whole of `reader`.
pub fn can_read(reader: &Schema, writer: &Schema) -> Result<Outcome, Error> {
    Checker::new(reader, writer).check(reader.root(), writer.root(), "", 0)
}

enum Memo {
    InProgress,
    Done(Outcome),
}

/// One reader/writer pair of schemas, with the pairs of their nodes already decided.
pub struct Checker<'a> {
    reader: &'a Schema,
    writer: &'a Schema,
    memo: HashMap<(NodeId, NodeId), Memo>,
}

impl<'a> Checker<'a> {
    pub fn new(reader: &'a Schema, writer: &'a Schema) -> Checker<'a> {
        Checker {
            reader,
            writer,
            memo: HashMap::new(),
        }
    }

    /// Whether the reader node `r` reads what the writer node `w` writes. `path` is where `r`
    /// sits in the reader's schema (for the message).
    pub fn check(
        &mut self,
        r: NodeId,
        w: NodeId,
        path: &str,
        depth: usize,
    ) -> Result<Outcome, Error> {
        if depth > MAX_DEPTH {
            return Err(Error::TooDeep {
                path: if path.is_empty() {
                    "/".into()
                } else {
                    path.into()
                },
                limit: MAX_DEPTH,
            });
        }
        match self.memo.get(&(r, w)) {
            Some(Memo::InProgress) => return Ok(None),
            Some(Memo::Done(outcome)) => return Ok(outcome.clone()),
            None => {}
        }
        self.memo.insert((r, w), Memo::InProgress);
        let outcome = self.calculate(r, w, path, depth)?;
        self.memo.insert((r, w), Memo::Done(outcome.clone()));
        Ok(outcome)
    }

    /// Only whether `r` reads `w`.
    pub fn reads(&mut self, r: NodeId, w: NodeId, depth: usize) -> Result<bool, Error> {
        Ok(self.check(r, w, "", depth)?.is_none())
    }

    fn calculate(
        &mut self,
        r: NodeId,
        w: NodeId,
        path: &str,
        depth: usize,
    ) -> Result<Outcome, Error> {
        let (reader, writer) = (self.reader, self.writer);
        let mismatch = || {
            Some(Incompatibility {
                path: path.to_owned(),
                message: format!(
                    "a reader of {} cannot read {}",
                    reader.describe(r),
                    writer.describe(w)
                ),
            })
        };
        let mut first: Outcome = None;
        match (reader.kind(r), writer.kind(w)) {
            (Kind::Primitive(a), Kind::Primitive(b)) if a == b => {}
            (Kind::Array(ri), Kind::Array(wi)) => {
                first = self.check(*ri, *wi, &format!("{path}/items"), depth + 1)?;
            }
            (Kind::Map(rv), Kind::Map(wv)) => {
                first = self.check(*rv, *wv, &format!("{path}/values"), depth + 1)?;
            }
            (Kind::Fixed(rn, rs), Kind::Fixed(wn, ws)) => {
                first = names(rn, wn, path);
                if first.is_none() && rs != ws {
                    first = Some(Incompatibility {
                        path: format!("{path}/size"),
                        message: format!("fixed `{}` is {rs} bytes, the data {ws}", rn.fullname),
                    });
                }
            }
            (Kind::Enum(rn, re), Kind::Enum(wn, we)) => {
                first = names(rn, wn, path);
                let known: HashSet<&str> = re.symbols.iter().map(String::as_str).collect();
                let missing = we.symbols.iter().find(|s| !known.contains(s.as_str()));
                let covered = re.default.as_deref().is_some_and(|d| !d.is_empty());
                if let (None, Some(symbol), false) = (&first, missing, covered) {
                    first = Some(Incompatibility {
                        path: format!("{path}/symbols"),
                        message: format!(
                            "enum `{}` has no symbol `{symbol}` and no default",
                            rn.fullname
                        ),
                    });
                }
            }
            (Kind::Record(rn, rf), Kind::Record(wn, wf)) => {
                first = names(rn, wn, path);
                for field in rf {
                    let at = format!("{path}/fields/{}", field.name);
                    let outcome = match writer_field(wf, field) {
                        Some(found) => {
                            self.check(field.ty, found.ty, &format!("{at}/type"), depth + 1)?
                        }
                        None if field.default.is_some() => None,
                        None => Some(Incompatibility {
                            path: at,
                            message: format!(
                                "field `{}` is not in the data and has no default",
                                field.name
                            ),
                        }),
                    };
                    first = first.or(outcome);
                }
            }
            (Kind::Union(_), Kind::Union(branches)) | (_, Kind::Union(branches)) => {
                // Every branch the writer may have written must be readable.
                for branch in branches {
                    let outcome = self.check(r, *branch, path, depth + 1)?;
                    first = first.or(outcome);
                }
            }
            (Kind::Primitive(reader_type), Kind::Primitive(writer_type)) => {
                if !promotes(*writer_type, *reader_type) {
                    first = mismatch();
                }
            }
            (Kind::Union(branches), _) => {
                // One branch that reads the writer's type is enough.
                for branch in branches {
                    if self.check(*branch, w, path, depth + 1)?.is_none() {
                        return Ok(None);
                    }
                }
                first = Some(Incompatibility {
                    path: path.to_owned(),
                    message: format!(
                        "no branch of the reader's {} reads {}",
                        reader.describe(r),
                        writer.describe(w)
                    ),
                });
            }
            _ => first = mismatch(),
        }
        Ok(first)
    }
}

/// Whether a value written as `writer` can be read as `reader` by promotion (int to long, float
/// or double; long to float or double; float to double; string and bytes either way).
pub fn promotes(writer: Primitive, reader: Primitive) -> bool {
    use Primitive::*;
    matches!(
        (writer, reader),
        (Int, Long | Float | Double)
            | (Long, Float | Double)
            | (Float, Double)
            | (String, Bytes)
            | (Bytes, String)
    )
}

/// Whether a reader's named type accepts a writer's: the same unqualified name, or the writer's
/// full name among the reader's aliases as written.
pub fn names_match(reader: &Named, writer: &Named) -> bool {
    reader.name == writer.name || reader.aliases.contains(&writer.fullname)
}

fn names(reader: &Named, writer: &Named, path: &str) -> Outcome {
    (!names_match(reader, writer)).then(|| Incompatibility {
        path: format!("{path}/name"),
        message: format!(
            "the reader's `{}` does not match the data's `{}` (and has no alias for it)",
            reader.fullname, writer.fullname
        ),
    })
}

/// The writer's field a reader's field reads: the one with its name, else the first of its
/// aliases the writer has.
pub fn writer_field<'f>(writer_fields: &'f [Field], reader_field: &Field) -> Option<&'f Field> {
    let by_name = |name: &str| writer_fields.iter().find(|f| f.name == name);
    by_name(&reader_field.name)
        .or_else(|| reader_field.aliases.iter().find_map(|alias| by_name(alias)))
}
