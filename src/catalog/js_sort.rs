//! `Array.prototype.sort` as V8 (and so Node.js, and so the SDK) runs it: TimSort, with its
//! run detection, binary insertion into short runs, merge rules and galloping. For a
//! comparator that is a total order any stable sort gives the same result; the SDK's are not
//! always one (a missing id ties with every id, versions that mix semver with other text),
//! and then only the same steps put the items where the SDK puts them.
//!
//! Written from the algorithm's description (CPython's `listsort.txt`, which V8 follows), in
//! the order V8 makes its comparisons.

use std::cmp::Ordering;

/// Below this many items a sort is one binary insertion sort; above it, the length of the
/// runs that are merged.
const MIN_MERGE: usize = 64;
/// How many wins in a row make a merge switch to galloping, to begin with.
const MIN_GALLOP: usize = 7;

/// Sorts `items` as JavaScript's `items.sort(cmp)` does, whatever `cmp` answers.
pub fn js_sort_by<T>(items: &mut Vec<T>, cmp: impl FnMut(&T, &T) -> Ordering) {
    let order = {
        let mut sort = TimSort {
            items,
            cmp,
            a: (0..items.len()).collect(),
            runs: Vec::new(),
            min_gallop: MIN_GALLOP,
        };
        sort.run();
        sort.a
    };
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

/// The sort of the positions `a` of `items`; `runs` are the pending runs (start, length).
struct TimSort<'t, T, F> {
    items: &'t [T],
    cmp: F,
    a: Vec<usize>,
    runs: Vec<(usize, usize)>,
    min_gallop: usize,
}

impl<T, F: FnMut(&T, &T) -> Ordering> TimSort<'_, T, F> {
    /// `x < y` by the comparator, for positions in `items`.
    fn less(&mut self, x: usize, y: usize) -> bool {
        (self.cmp)(&self.items[x], &self.items[y]) == Ordering::Less
    }

    fn run(&mut self) {
        let mut remaining = self.a.len();
        if remaining < 2 {
            return;
        }
        let min_run = min_run_length(remaining);
        let mut low = 0;
        while remaining != 0 {
            let mut run = self.count_and_make_run(low, low + remaining);
            if run < min_run {
                let forced = min_run.min(remaining);
                self.binary_insertion_sort(low, low + run, low + forced);
                run = forced;
            }
            self.runs.push((low, run));
            self.merge_collapse();
            low += run;
            remaining -= run;
        }
        while self.runs.len() > 1 {
            let mut n = self.runs.len() - 2;
            if n > 0 && self.runs[n - 1].1 < self.runs[n + 1].1 {
                n -= 1;
            }
            self.merge_at(n);
        }
    }

    /// Sorts `a[low..high]`, whose first `start - low` items are sorted already.
    fn binary_insertion_sort(&mut self, low: usize, start: usize, high: usize) {
        let start = if low == start { start + 1 } else { start };
        for i in start..high {
            let pivot = self.a[i];
            let (mut left, mut right) = (low, i);
            while left < right {
                let mid = left + ((right - left) >> 1);
                if self.less(pivot, self.a[mid]) {
                    right = mid;
                } else {
                    left = mid + 1;
                }
            }
            self.a.copy_within(left..i, left + 1);
            self.a[left] = pivot;
        }
    }

    /// The length of the run that starts at `low` (not past `high`): ascending, or strictly
    /// descending, which is reversed in place.
    fn count_and_make_run(&mut self, low: usize, high: usize) -> usize {
        if low + 1 == high {
            return 1;
        }
        let mut length = 2;
        let descending = self.less(self.a[low + 1], self.a[low]);
        let mut previous = self.a[low + 1];
        for i in low + 2..high {
            let current = self.a[i];
            let less = self.less(current, previous);
            if descending != less {
                break;
            }
            previous = current;
            length += 1;
        }
        if descending {
            self.a[low..low + length].reverse();
        }
        length
    }

    /// Merges pending runs until their lengths shrink fast enough from the bottom of the stack.
    fn merge_collapse(&mut self) {
        while self.runs.len() > 1 {
            let mut n = self.runs.len() - 2;
            let len = |i: usize| self.runs[i].1;
            let established = |n: usize| n < 2 || len(n - 2) > len(n - 1) + len(n);
            if !established(n + 1) || !established(n) {
                if n > 0 && len(n - 1) < len(n + 1) {
                    n -= 1;
                }
                self.merge_at(n);
            } else if len(n) <= len(n + 1) {
                self.merge_at(n);
            } else {
                break;
            }
        }
    }

    /// Merges pending runs `i` and `i + 1`.
    fn merge_at(&mut self, i: usize) {
        let (mut base_a, mut length_a) = self.runs[i];
        let (base_b, mut length_b) = self.runs[i + 1];
        self.runs[i].1 = length_a + length_b;
        self.runs.remove(i + 1);
        // Items of A that come before B's first stay where they are.
        let k = self.gallop_right(Slice::Main, self.a[base_b], base_a, length_a, 0);
        base_a += k;
        length_a -= k;
        if length_a == 0 {
            return;
        }
        // Items of B that come after A's last stay where they are.
        let key = self.a[base_a + length_a - 1];
        length_b = self.gallop_left(Slice::Main, key, base_b, length_b, length_b - 1);
        if length_b == 0 {
            return;
        }
        if length_a <= length_b {
            self.merge_low(base_a, length_a, base_b, length_b);
        } else {
            self.merge_high(base_a, length_a, base_b, length_b);
        }
    }

    /// Where `key` goes in the sorted `length` items from `base` of `slice`, before any equal
    /// to it, searched for from `hint` outwards.
    fn gallop_left(
        &mut self,
        slice: Slice<'_>,
        key: usize,
        base: usize,
        length: usize,
        hint: usize,
    ) -> usize {
        let at = |sort: &Self, i: usize| slice.get(&sort.a, base + i);
        let (mut last, mut offset) = (0, 1);
        let (low, high) = if self.less(at(self, hint), key) {
            let max = length - hint;
            while offset < max {
                if !self.less(at(self, hint + offset), key) {
                    break;
                }
                last = offset;
                offset = (offset << 1) + 1;
            }
            (hint + last + 1, hint + offset.min(max))
        } else {
            let max = hint + 1;
            while offset < max {
                if self.less(at(self, hint - offset), key) {
                    break;
                }
                last = offset;
                offset = (offset << 1) + 1;
            }
            (hint + 1 - offset.min(max), hint - last)
        };
        self.narrow(low, high, |sort, m| sort.less(at(sort, m), key))
    }

    /// Where `key` goes in the sorted `length` items from `base` of `slice`, after any equal
    /// to it, searched for from `hint` outwards.
    fn gallop_right(
        &mut self,
        slice: Slice<'_>,
        key: usize,
        base: usize,
        length: usize,
        hint: usize,
    ) -> usize {
        let at = |sort: &Self, i: usize| slice.get(&sort.a, base + i);
        let (mut last, mut offset) = (0, 1);
        let (low, high) = if self.less(key, at(self, hint)) {
            let max = hint + 1;
            while offset < max {
                if !self.less(key, at(self, hint - offset)) {
                    break;
                }
                last = offset;
                offset = (offset << 1) + 1;
            }
            (hint + 1 - offset.min(max), hint - last)
        } else {
            let max = length - hint;
            while offset < max {
                if self.less(key, at(self, hint + offset)) {
                    break;
                }
                last = offset;
                offset = (offset << 1) + 1;
            }
            (hint + last + 1, hint + offset.min(max))
        };
        self.narrow(low, high, |sort, m| !sort.less(key, at(sort, m)))
    }

    /// The binary search that ends a gallop: the first position from `low` up to `high` where
    /// `goes_after(m)` is false.
    fn narrow(
        &mut self,
        mut low: usize,
        mut high: usize,
        mut goes_after: impl FnMut(&mut Self, usize) -> bool,
    ) -> usize {
        while low < high {
            let m = low + ((high - low) >> 1);
            if goes_after(self, m) {
                low = m + 1;
            } else {
                high = m;
            }
        }
        high
    }

    /// Merges run A (`base_a`, `length_a`) with the run B that follows it, A being the shorter:
    /// A is copied aside and the merge fills the front.
    fn merge_low(
        &mut self,
        base_a: usize,
        mut length_a: usize,
        base_b: usize,
        mut length_b: usize,
    ) {
        let temp: Vec<usize> = self.a[base_a..base_a + length_a].to_vec();
        let (mut dest, mut cursor_temp, mut cursor_b) = (base_a, 0, base_b);
        self.a[dest] = self.a[cursor_b];
        dest += 1;
        cursor_b += 1;
        length_b -= 1;
        let end = 'merge: {
            if length_b == 0 {
                break 'merge End::Succeed;
            }
            if length_a == 1 {
                break 'merge End::CopyRest;
            }
            let mut min_gallop = self.min_gallop;
            loop {
                let (mut wins_a, mut wins_b) = (0, 0);
                loop {
                    if self.less(self.a[cursor_b], temp[cursor_temp]) {
                        self.a[dest] = self.a[cursor_b];
                        dest += 1;
                        cursor_b += 1;
                        wins_b += 1;
                        length_b -= 1;
                        wins_a = 0;
                        if length_b == 0 {
                            break 'merge End::Succeed;
                        }
                        if wins_b >= min_gallop {
                            break;
                        }
                    } else {
                        self.a[dest] = temp[cursor_temp];
                        dest += 1;
                        cursor_temp += 1;
                        wins_a += 1;
                        length_a -= 1;
                        wins_b = 0;
                        if length_a == 1 {
                            break 'merge End::CopyRest;
                        }
                        if wins_a >= min_gallop {
                            break;
                        }
                    }
                }
                min_gallop += 1;
                let mut first = true;
                while wins_a >= MIN_GALLOP || wins_b >= MIN_GALLOP || first {
                    first = false;
                    min_gallop = min_gallop.saturating_sub(1).max(1);
                    self.min_gallop = min_gallop;
                    wins_a = self.gallop_right(
                        Slice::Temp(&temp),
                        self.a[cursor_b],
                        cursor_temp,
                        length_a,
                        0,
                    );
                    if wins_a > 0 {
                        self.a[dest..dest + wins_a]
                            .copy_from_slice(&temp[cursor_temp..cursor_temp + wins_a]);
                        dest += wins_a;
                        cursor_temp += wins_a;
                        length_a -= wins_a;
                        if length_a == 1 {
                            break 'merge End::CopyRest;
                        }
                        // Only an inconsistent comparator empties A here.
                        if length_a == 0 {
                            break 'merge End::Succeed;
                        }
                    }
                    self.a[dest] = self.a[cursor_b];
                    dest += 1;
                    cursor_b += 1;
                    length_b -= 1;
                    if length_b == 0 {
                        break 'merge End::Succeed;
                    }
                    wins_b =
                        self.gallop_left(Slice::Main, temp[cursor_temp], cursor_b, length_b, 0);
                    if wins_b > 0 {
                        self.a.copy_within(cursor_b..cursor_b + wins_b, dest);
                        dest += wins_b;
                        cursor_b += wins_b;
                        length_b -= wins_b;
                        if length_b == 0 {
                            break 'merge End::Succeed;
                        }
                    }
                    self.a[dest] = temp[cursor_temp];
                    dest += 1;
                    cursor_temp += 1;
                    length_a -= 1;
                    if length_a == 1 {
                        break 'merge End::CopyRest;
                    }
                }
                min_gallop += 1;
                self.min_gallop = min_gallop;
            }
        };
        match end {
            End::Succeed => {
                self.a[dest..dest + length_a]
                    .copy_from_slice(&temp[cursor_temp..cursor_temp + length_a]);
            }
            End::CopyRest => {
                // B's rest, then A's last item, which belongs at the end.
                self.a.copy_within(cursor_b..cursor_b + length_b, dest);
                self.a[dest + length_b] = temp[cursor_temp];
            }
        }
    }

    /// Merges run A (`base_a`, `length_a`) with the run B that follows it, B being the shorter:
    /// B is copied aside and the merge fills the back.
    fn merge_high(
        &mut self,
        base_a: usize,
        mut length_a: usize,
        base_b: usize,
        mut length_b: usize,
    ) {
        let temp: Vec<usize> = self.a[base_b..base_b + length_b].to_vec();
        // Cursors may step one before the start: they are kept one higher than V8's.
        let mut dest = base_b + length_b;
        let mut cursor_temp = length_b;
        let mut cursor_a = base_a + length_a;
        self.a[dest - 1] = self.a[cursor_a - 1];
        dest -= 1;
        cursor_a -= 1;
        length_a -= 1;
        let end = 'merge: {
            if length_a == 0 {
                break 'merge End::Succeed;
            }
            if length_b == 1 {
                break 'merge End::CopyRest;
            }
            let mut min_gallop = self.min_gallop;
            loop {
                let (mut wins_a, mut wins_b) = (0, 0);
                loop {
                    if self.less(temp[cursor_temp - 1], self.a[cursor_a - 1]) {
                        self.a[dest - 1] = self.a[cursor_a - 1];
                        dest -= 1;
                        cursor_a -= 1;
                        wins_a += 1;
                        length_a -= 1;
                        wins_b = 0;
                        if length_a == 0 {
                            break 'merge End::Succeed;
                        }
                        if wins_a >= min_gallop {
                            break;
                        }
                    } else {
                        self.a[dest - 1] = temp[cursor_temp - 1];
                        dest -= 1;
                        cursor_temp -= 1;
                        wins_b += 1;
                        length_b -= 1;
                        wins_a = 0;
                        if length_b == 1 {
                            break 'merge End::CopyRest;
                        }
                        if wins_b >= min_gallop {
                            break;
                        }
                    }
                }
                min_gallop += 1;
                let mut first = true;
                while wins_a >= MIN_GALLOP || wins_b >= MIN_GALLOP || first {
                    first = false;
                    min_gallop = min_gallop.saturating_sub(1).max(1);
                    self.min_gallop = min_gallop;
                    let k = self.gallop_right(
                        Slice::Main,
                        temp[cursor_temp - 1],
                        base_a,
                        length_a,
                        length_a - 1,
                    );
                    wins_a = length_a - k;
                    if wins_a > 0 {
                        dest -= wins_a;
                        cursor_a -= wins_a;
                        self.a.copy_within(cursor_a..cursor_a + wins_a, dest);
                        length_a -= wins_a;
                        if length_a == 0 {
                            break 'merge End::Succeed;
                        }
                    }
                    self.a[dest - 1] = temp[cursor_temp - 1];
                    dest -= 1;
                    cursor_temp -= 1;
                    length_b -= 1;
                    if length_b == 1 {
                        break 'merge End::CopyRest;
                    }
                    let k = self.gallop_left(
                        Slice::Temp(&temp),
                        self.a[cursor_a - 1],
                        0,
                        length_b,
                        length_b - 1,
                    );
                    wins_b = length_b - k;
                    if wins_b > 0 {
                        dest -= wins_b;
                        cursor_temp -= wins_b;
                        self.a[dest..dest + wins_b]
                            .copy_from_slice(&temp[cursor_temp..cursor_temp + wins_b]);
                        length_b -= wins_b;
                        if length_b == 1 {
                            break 'merge End::CopyRest;
                        }
                        // Only an inconsistent comparator empties B here.
                        if length_b == 0 {
                            break 'merge End::Succeed;
                        }
                    }
                    self.a[dest - 1] = self.a[cursor_a - 1];
                    dest -= 1;
                    cursor_a -= 1;
                    length_a -= 1;
                    if length_a == 0 {
                        break 'merge End::Succeed;
                    }
                }
                min_gallop += 1;
                self.min_gallop = min_gallop;
            }
        };
        match end {
            End::Succeed => {
                if length_b > 0 {
                    self.a[dest - length_b..dest].copy_from_slice(&temp[..length_b]);
                }
            }
            End::CopyRest => {
                // A's rest, then B's first item, which belongs at the front.
                dest -= length_a;
                cursor_a -= length_a;
                self.a.copy_within(cursor_a..cursor_a + length_a, dest);
                self.a[dest - 1] = temp[cursor_temp - 1];
            }
        }
    }
}

/// How a merge ends: with what is left of the run set aside copied in, or with the rest of
/// the other run copied and the last item of the run set aside put beyond it.
enum End {
    Succeed,
    CopyRest,
}

/// The positions a gallop searches: the array being sorted, or a run set aside.
#[derive(Clone, Copy)]
enum Slice<'s> {
    Main,
    Temp(&'s [usize]),
}

impl Slice<'_> {
    fn get(self, a: &[usize], i: usize) -> usize {
        match self {
            Slice::Main => a[i],
            Slice::Temp(temp) => temp[i],
        }
    }
}

/// V8's `ComputeMinRunLength`.
fn min_run_length(mut n: usize) -> usize {
    let mut r = 0;
    while n >= MIN_MERGE {
        r |= n & 1;
        n >>= 1;
    }
    n + r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::js::compare_text;
    use serde_json::Value;

    /// Node.js's order of arrays under a comparator that is no consistent order
    /// (`scripts/record-js-sort.mjs`): only V8's exact steps reproduce it.
    #[test]
    fn orders_as_node_does_under_an_inconsistent_comparator() {
        let cases: Vec<Value> =
            serde_json::from_str(include_str!("../../testdata/js-sort/cases.json")).expect("cases");
        let mut differing = Vec::new();
        for (n, case) in cases.iter().enumerate() {
            let values = case["values"].as_array().expect("values");
            let mut items: Vec<(usize, &Value)> = values.iter().enumerate().collect();
            js_sort_by(&mut items, |a, b| compare_text(Some(a.1), Some(b.1)));
            let order: Vec<usize> = items.iter().map(|(i, _)| *i).collect();
            let expected: Vec<usize> =
                serde_json::from_value(case["order"].clone()).expect("order");
            if order != expected {
                differing.push((n, values.len()));
            }
        }
        assert!(
            differing.is_empty(),
            "cases (index, length) ordered otherwise: {differing:?}"
        );
        assert!(cases.len() >= 100);
    }

    #[test]
    fn a_total_order_sorts_stably() {
        let mut v = vec![(2, 'a'), (1, 'b'), (2, 'c'), (1, 'd'), (0, 'e')];
        js_sort_by(&mut v, |a, b| a.0.cmp(&b.0));
        assert_eq!(v, vec![(0, 'e'), (1, 'b'), (1, 'd'), (2, 'a'), (2, 'c')]);
        let mut long: Vec<(u32, usize)> =
            (0..1000).map(|i| ((i * 7919) % 97, i as usize)).collect();
        let mut expected = long.clone();
        expected.sort_by_key(|&(k, _)| k);
        js_sort_by(&mut long, |a, b| a.0.cmp(&b.0));
        assert_eq!(long, expected);
    }
}
