//! The Avro walker: given the old and the new schema, list every change as a [`Change`] pointing
//! at a row of the rules table, with a path through the new schema's JSON by field name
//! (`/fields/customerId/type`, `/symbols/REFUNDED`, `/fields/x/type/1` for a union branch).
//!
//! It walks the two schemas the way Avro's resolution pairs them, so each op's row is right in
//! context: fields pair by name, then through the reader's `aliases` (a pairing one direction
//! only makes the other direction see a field added or removed); union branches pair by type
//! name, and whether an unpaired branch breaks depends on whether another branch reads it
//! (`resolve::Checker`). A part that only one side's readers meet keeps only that side's effects
//! ([`ChangeKind::within`]). A pair of named types is walked once per reach, which also makes
//! recursive types terminate. Documentation and field order produce no change.

use std::collections::{BTreeSet, HashSet};

use super::model::{Enum, Field, Kind, Named, NodeId, Schema};
use super::resolve::{Checker, names_match, promotes, writer_field};
use super::rules::ChangeKind;
use crate::schema::verdict::{Change, OpKind};
use crate::schema::{Error, MAX_DEPTH};

/// Which directions of the resolution meet a pair of nodes such that a failure there fails the
/// whole direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Reach {
    backward: bool,
    forward: bool,
}

const BOTH: Reach = Reach {
    backward: true,
    forward: true,
};

/// Every change from `old` to `new`.
pub fn walk(old: &Schema, new: &Schema) -> Result<Vec<Change>, Error> {
    let mut walker = Walker {
        old,
        new,
        backward: Checker::new(new, old),
        forward: Checker::new(old, new),
        seen: HashSet::new(),
        changes: Vec::new(),
    };
    walker.node(old.root(), new.root(), "", BOTH, 0)?;
    Ok(walker.changes)
}

struct Walker<'a> {
    old: &'a Schema,
    new: &'a Schema,
    /// New readers, old data.
    backward: Checker<'a>,
    /// Old readers, new data.
    forward: Checker<'a>,
    seen: HashSet<(NodeId, NodeId, Reach)>,
    changes: Vec<Change>,
}

fn join(path: &str, segment: &str) -> String {
    format!("{path}/{segment}")
}

/// Where a replacement happened and, since the path names only the place, what it replaced
/// with what: a later, different replacement there is a change of its own.
fn replaced(path: String, from: &str, to: &str) -> (String, Option<String>) {
    (path, Some(format!("{from} -> {to}")))
}

fn list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|item| format!("`{item}`")).collect();
    if quoted.is_empty() {
        "none".to_owned()
    } else {
        quoted.join(", ")
    }
}

impl Walker<'_> {
    fn emit(&mut self, kind: ChangeKind, op: OpKind, path: String, what: String, reach: Reach) {
        self.emit_about(kind, op, (path, None), what, reach);
    }

    /// [`Walker::emit`] of a change the path does not name (a union's branch): `subject` does.
    fn emit_about(
        &mut self,
        kind: ChangeKind,
        op: OpKind,
        (path, subject): (String, Option<String>),
        what: String,
        reach: Reach,
    ) {
        self.changes.push(Change {
            rule: ChangeKind::within(kind.rule(), reach.backward, reach.forward),
            op,
            path,
            what,
            reference: None,
            subject,
        });
    }

    fn node(
        &mut self,
        o: NodeId,
        n: NodeId,
        path: &str,
        reach: Reach,
        depth: usize,
    ) -> Result<(), Error> {
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
        let (old, new) = (self.old, self.new);
        if matches!(old.kind(o), Kind::Union(_)) || matches!(new.kind(n), Kind::Union(_)) {
            return self.union(o, n, path, reach, depth);
        }
        if (old.named(o).is_some() || new.named(n).is_some()) && !self.seen.insert((o, n, reach)) {
            return Ok(());
        }
        let same_kind = std::mem::discriminant(old.kind(o)) == std::mem::discriminant(new.kind(n));
        let (old_logical, new_logical) = (&old.node(o).logical, &new.node(n).logical);
        let physical_same = match (old.kind(o), new.kind(n)) {
            (Kind::Primitive(a), Kind::Primitive(b)) => a == b,
            _ => same_kind,
        };
        if physical_same && old_logical != new_logical {
            let word = |logical: &Option<String>| {
                logical
                    .as_deref()
                    .map_or_else(|| "none".to_owned(), |l| format!("`{l}`"))
            };
            let (from, to) = (word(old_logical), word(new_logical));
            self.emit_about(
                ChangeKind::LogicalTypeChanged,
                OpKind::Replace,
                replaced(join(path, "logicalType"), &from, &to),
                format!(
                    "logical type changed from {from} to {to} on `{}`",
                    new.branch_key(n)
                ),
                reach,
            );
        }
        match (old.kind(o), new.kind(n)) {
            (Kind::Primitive(a), Kind::Primitive(b)) if a == b => Ok(()),
            (Kind::Array(oi), Kind::Array(ni)) => {
                self.node(*oi, *ni, &join(path, "items"), reach, depth + 1)
            }
            (Kind::Map(ov), Kind::Map(nv)) => {
                self.node(*ov, *nv, &join(path, "values"), reach, depth + 1)
            }
            (Kind::Record(on, of), Kind::Record(nn, nf)) => {
                self.names(on, nn, path, reach);
                self.fields(of, nf, path, reach, depth)
            }
            (Kind::Enum(on, oe), Kind::Enum(nn, ne)) => {
                self.names(on, nn, path, reach);
                self.symbols(&nn.fullname, oe, ne, path, reach);
                Ok(())
            }
            (Kind::Fixed(on, os), Kind::Fixed(nn, ns)) => {
                self.names(on, nn, path, reach);
                if os != ns {
                    self.emit_about(
                        ChangeKind::FixedSizeChanged,
                        OpKind::Replace,
                        replaced(join(path, "size"), &os.to_string(), &ns.to_string()),
                        format!("fixed `{}` changed size from {os} to {ns}", nn.fullname),
                        reach,
                    );
                }
                Ok(())
            }
            (Kind::Primitive(a), Kind::Primitive(b)) => {
                let kind = match (promotes(*a, *b), promotes(*b, *a)) {
                    (true, true) => ChangeKind::TypeStringBytes,
                    (true, false) => ChangeKind::TypePromoted,
                    (false, true) => ChangeKind::TypeDemoted,
                    (false, false) => ChangeKind::TypeChanged,
                };
                let verb = match kind {
                    ChangeKind::TypePromoted => "promoted",
                    ChangeKind::TypeDemoted => "demoted",
                    _ => "changed",
                };
                self.emit_about(
                    kind,
                    OpKind::Replace,
                    replaced(path.to_owned(), a.name(), b.name()),
                    format!("type {verb} from `{}` to `{}`", a.name(), b.name()),
                    reach,
                );
                Ok(())
            }
            _ => {
                let (from, to) = (old.describe(o), new.describe(n));
                self.emit_about(
                    ChangeKind::TypeChanged,
                    OpKind::Replace,
                    replaced(path.to_owned(), &from, &to),
                    format!("type changed from {from} to {to}"),
                    reach,
                );
                Ok(())
            }
        }
    }

    /// A record's, enum's or fixed's name, namespace and aliases.
    fn names(&mut self, old: &Named, new: &Named, path: &str, reach: Reach) {
        if old.name != new.name {
            let kind = match (names_match(new, old), names_match(old, new)) {
                (false, false) => ChangeKind::NameChanged,
                (true, false) => ChangeKind::NameChangedAliased,
                (false, true) => ChangeKind::NameChangedAliasedBack,
                (true, true) => ChangeKind::NameChangedAliasedBoth,
            };
            self.emit_about(
                kind,
                OpKind::Replace,
                replaced(join(path, "name"), &old.fullname, &new.fullname),
                format!("renamed from `{}` to `{}`", old.fullname, new.fullname),
                reach,
            );
        } else if old.fullname != new.fullname {
            self.emit_about(
                ChangeKind::NamespaceChanged,
                OpKind::Replace,
                replaced(join(path, "namespace"), &old.fullname, &new.fullname),
                format!("`{}` moved to `{}`", old.fullname, new.fullname),
                reach,
            );
        }
        self.aliases(&old.aliases, &new.aliases, join(path, "aliases"), reach);
    }

    fn aliases(&mut self, old: &[String], new: &[String], path: String, reach: Reach) {
        let (before, after): (BTreeSet<&String>, BTreeSet<&String>) =
            (old.iter().collect(), new.iter().collect());
        if before != after {
            // Aliases are a set: written in another order, they are the same subject.
            let in_order = |set: &BTreeSet<&String>| {
                set.iter()
                    .map(|a| format!("`{a}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let subject = replaced(path, &in_order(&before), &in_order(&after));
            self.emit_about(
                ChangeKind::AliasesChanged,
                OpKind::Replace,
                subject,
                format!("aliases changed from {} to {}", list(old), list(new)),
                reach,
            );
        }
    }

    fn fields(
        &mut self,
        old: &[Field],
        new: &[Field],
        path: &str,
        reach: Reach,
        depth: usize,
    ) -> Result<(), Error> {
        let index = |fields: &[Field], found: Option<&Field>| {
            found.and_then(|f| fields.iter().position(|x| std::ptr::eq(x, f)))
        };
        // Which old field each new reader field reads, and which new field each old reader reads.
        let backward: Vec<Option<usize>> = new
            .iter()
            .map(|field| index(old, writer_field(old, field)))
            .collect();
        let forward: Vec<Option<usize>> = old
            .iter()
            .map(|field| index(new, writer_field(new, field)))
            .collect();
        let mut pairs: Vec<(usize, usize, Reach)> = Vec::new();
        let mut pair = |o: usize, n: usize, backward: bool| match pairs
            .iter_mut()
            .find(|(po, pn, _)| (*po, *pn) == (o, n))
        {
            Some((.., found)) if backward => found.backward = true,
            Some((.., found)) => found.forward = true,
            None => pairs.push((
                o,
                n,
                Reach {
                    backward,
                    forward: !backward,
                },
            )),
        };
        for (n, found) in backward.iter().enumerate() {
            if let Some(o) = found {
                pair(*o, n, true);
            }
        }
        for (o, found) in forward.iter().enumerate() {
            if let Some(n) = found {
                pair(o, *n, false);
            }
        }
        pairs.sort_by_key(|(o, n, _)| (*n, *o));

        for (n, field) in new.iter().enumerate() {
            if backward[n].is_some() {
                continue;
            }
            let renamed = pairs.iter().any(|(_, pn, _)| *pn == n);
            let (kind, default) = match &field.default {
                Some(value) => (
                    ChangeKind::FieldAddedWithDefault,
                    format!(" with default {value}"),
                ),
                None => (ChangeKind::FieldAdded, String::new()),
            };
            let mut what = if renamed {
                format!(
                    "old data has no field `{}` nor any of its aliases{default}",
                    field.name
                )
            } else {
                format!("field `{}` was added{default}", field.name)
            };
            if let (
                None,
                Kind::Enum(
                    _,
                    Enum {
                        default: Some(_), ..
                    },
                ),
            ) = (&field.default, self.new.kind(field.ty))
            {
                what.push_str(" (an enum's own default does not fill a missing field)");
            }
            self.emit(
                kind,
                OpKind::Add,
                join(&join(path, "fields"), &field.name),
                what,
                reach,
            );
        }
        for (o, field) in old.iter().enumerate() {
            if forward[o].is_some() {
                continue;
            }
            let renamed = pairs.iter().any(|(po, _, _)| *po == o);
            let (kind, default) = match &field.default {
                Some(value) => (
                    ChangeKind::FieldRemovedWithDefault,
                    format!(" (old default {value})"),
                ),
                None => (ChangeKind::FieldRemoved, String::new()),
            };
            let what = if renamed {
                format!(
                    "new data has no field `{}` nor any of its aliases{default}",
                    field.name
                )
            } else {
                format!("field `{}` was removed{default}", field.name)
            };
            self.emit(
                kind,
                OpKind::Remove,
                join(&join(path, "fields"), &field.name),
                what,
                reach,
            );
        }
        for (o, n, matched) in pairs {
            let (was, is) = (&old[o], &new[n]);
            let at = join(&join(path, "fields"), &is.name);
            if was.name != is.name {
                self.emit(
                    ChangeKind::FieldRenamed,
                    OpKind::Replace,
                    at.clone(),
                    format!("field `{}` renamed to `{}`", was.name, is.name),
                    reach,
                );
            }
            if was.default != is.default {
                let word = |default: &Option<serde_json::Value>| {
                    default
                        .as_ref()
                        .map_or_else(|| "none".to_owned(), |v| v.to_string())
                };
                self.emit(
                    ChangeKind::FieldDefaultChanged,
                    OpKind::Replace,
                    join(&at, "default"),
                    format!(
                        "default of `{}` changed from {} to {}",
                        is.name,
                        word(&was.default),
                        word(&is.default)
                    ),
                    reach,
                );
            }
            self.aliases(&was.aliases, &is.aliases, join(&at, "aliases"), reach);
            let inner = Reach {
                backward: reach.backward && matched.backward,
                forward: reach.forward && matched.forward,
            };
            self.node(was.ty, is.ty, &join(&at, "type"), inner, depth + 1)?;
        }
        Ok(())
    }

    fn symbols(&mut self, name: &str, old: &Enum, new: &Enum, path: &str, reach: Reach) {
        let has_default = |e: &Enum| e.default.as_deref().is_some_and(|d| !d.is_empty());
        // Sets, not the lists: an enum may hold tens of thousands of symbols.
        fn set(e: &Enum) -> HashSet<&str> {
            e.symbols.iter().map(String::as_str).collect()
        }
        let (old_set, new_set) = (set(old), set(new));
        for symbol in new.symbols.iter().filter(|s| !old_set.contains(s.as_str())) {
            let kind = if has_default(old) {
                ChangeKind::EnumSymbolAddedWithDefault
            } else {
                ChangeKind::EnumSymbolAdded
            };
            self.emit(
                kind,
                OpKind::Add,
                join(&join(path, "symbols"), symbol),
                format!("symbol `{symbol}` was added to enum `{name}`"),
                reach,
            );
        }
        for symbol in old.symbols.iter().filter(|s| !new_set.contains(s.as_str())) {
            let kind = if has_default(new) {
                ChangeKind::EnumSymbolRemovedWithDefault
            } else {
                ChangeKind::EnumSymbolRemoved
            };
            self.emit(
                kind,
                OpKind::Remove,
                join(&join(path, "symbols"), symbol),
                format!("symbol `{symbol}` was removed from enum `{name}`"),
                reach,
            );
        }
        if old.default != new.default {
            let word =
                |d: &Option<String>| d.as_deref().map_or("none".to_owned(), |d| format!("`{d}`"));
            self.emit(
                ChangeKind::EnumDefaultChanged,
                OpKind::Replace,
                join(path, "default"),
                format!(
                    "default of enum `{name}` changed from {} to {}",
                    word(&old.default),
                    word(&new.default)
                ),
                reach,
            );
        }
    }

    /// Two types of which at least one is a union; a non-union reads and is read exactly as a
    /// union of itself.
    fn union(
        &mut self,
        o: NodeId,
        n: NodeId,
        path: &str,
        reach: Reach,
        depth: usize,
    ) -> Result<(), Error> {
        let (old, new) = (self.old, self.new);
        let (old_branches, new_branches) = (old.branches(o), new.branches(n));
        let new_is_union = matches!(new.kind(n), Kind::Union(_));
        match (matches!(old.kind(o), Kind::Union(_)), new_is_union) {
            (false, true) => self.emit(
                ChangeKind::UnionCreated,
                OpKind::Replace,
                path.to_owned(),
                format!("`{}` became {}", old.describe(o), new.describe(n)),
                reach,
            ),
            (true, false) => self.emit(
                ChangeKind::UnionDissolved,
                OpKind::Replace,
                path.to_owned(),
                format!("{} became `{}`", old.describe(o), new.describe(n)),
                reach,
            ),
            _ => {}
        }
        let branch_path = |index: usize| {
            if new_is_union {
                join(path, &index.to_string())
            } else {
                path.to_owned()
            }
        };

        // Pair branches by type name, then named types left over by unqualified name.
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for (ni, nb) in new_branches.iter().enumerate() {
            let key = new.branch_key(*nb);
            if let Some(oi) = old_branches
                .iter()
                .position(|ob| old.branch_key(*ob) == key)
            {
                pairs.push((oi, ni));
            }
        }
        for (ni, nb) in new_branches.iter().enumerate() {
            let Some(named) = new.named(*nb) else {
                continue;
            };
            if pairs.iter().any(|(_, pn)| *pn == ni) {
                continue;
            }
            let candidates: Vec<usize> = (0..old_branches.len())
                .filter(|oi| !pairs.iter().any(|(po, _)| po == oi))
                .filter(|oi| {
                    old.named(old_branches[*oi])
                        .is_some_and(|o| o.name == named.name)
                })
                .collect();
            if let [oi] = candidates[..] {
                pairs.push((oi, ni));
            }
        }
        pairs.sort_by_key(|(_, ni)| *ni);

        for &(oi, ni) in &pairs {
            let (ob, nb) = (old_branches[oi], new_branches[ni]);
            // The pair decides a direction unless it fails there and another branch reads the
            // data instead.
            let backward = reach.backward
                && (self.backward.reads(nb, ob, depth)?
                    || !self.read_by_other(&new_branches, Some(ni), ob, true, depth)?);
            let forward = reach.forward
                && (self.forward.reads(ob, nb, depth)?
                    || !self.read_by_other(&old_branches, Some(oi), nb, false, depth)?);
            self.node(
                ob,
                nb,
                &branch_path(ni),
                Reach { backward, forward },
                depth + 1,
            )?;
        }
        for (oi, ob) in old_branches.iter().enumerate() {
            if pairs.iter().any(|(po, _)| *po == oi) {
                continue;
            }
            let readable = self.read_by_other(&new_branches, None, *ob, true, depth)?;
            let (kind, tail) = if readable {
                (
                    ChangeKind::UnionBranchRemovedReadable,
                    ", and a remaining branch reads its old data",
                )
            } else {
                (ChangeKind::UnionBranchRemoved, "")
            };
            let branch = old.branch_key(*ob);
            self.emit_about(
                kind,
                OpKind::Remove,
                (path.to_owned(), Some(branch.clone())),
                format!("branch `{branch}` was removed{tail}"),
                reach,
            );
        }
        for (ni, nb) in new_branches.iter().enumerate() {
            if pairs.iter().any(|(_, pn)| *pn == ni) {
                continue;
            }
            let readable = self.read_by_other(&old_branches, None, *nb, false, depth)?;
            let (kind, tail) = if readable {
                (
                    ChangeKind::UnionBranchAddedReadable,
                    ", and an old branch reads it",
                )
            } else {
                (ChangeKind::UnionBranchAdded, "")
            };
            // The branch's place in the list is not what it is.
            let branch = new.branch_key(*nb);
            self.emit_about(
                kind,
                OpKind::Add,
                (branch_path(ni), Some(branch.clone())),
                format!("branch `{branch}` was added{tail}"),
                reach,
            );
        }
        Ok(())
    }

    /// Whether a branch of `readers` other than `except` reads `data`: new branches reading old
    /// data when `backward`, old branches reading new data otherwise.
    fn read_by_other(
        &mut self,
        readers: &[NodeId],
        except: Option<usize>,
        data: NodeId,
        backward: bool,
        depth: usize,
    ) -> Result<bool, Error> {
        for (index, reader) in readers.iter().enumerate() {
            if Some(index) == except {
                continue;
            }
            let checker = if backward {
                &mut self.backward
            } else {
                &mut self.forward
            };
            if checker.reads(*reader, data, depth)? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}
