//! The reference's search over span masks, computed without enumerating the
//! product of span lists.
//!
//! The reference (`maximally_match*`, step "try all combinations") does the
//! following. Let K be the number of terms that have at least one mask. For
//! n = K down to 1, it looks at every n-subset of those terms and every choice
//! of one mask per term in it. It returns n at the first choice that has one
//! mask (n = 1) or whose bitwise AND over *all* chosen masks is zero. It
//! returns 0 when K = 0.
//!
//! Adding masks to a choice can only clear bits. So if some subset has a zero
//! AND, every superset of it has one too, and the full set of K terms is tried
//! first. The result is therefore
//!
//! * 0 when K = 0 and 1 when K = 1;
//! * K when some choice of one mask per matched term has a zero AND;
//! * 1 otherwise.
//!
//! [`matched_terms`] decides "some choice has a zero AND" with a dynamic
//! programme over the terms. It keeps the distinct running ANDs and prunes any
//! that is a superset of another, since a subset reaches zero whenever its
//! superset does. It stops as soon as a running AND is zero. A mask that is
//! already zero (an empty alternative's zero-width match) succeeds at once.

/// A set of positions, as a bitset over the words it touches. In the exact
/// search a position is a code point of the prediction. In the lemmatized
/// search a position is a code point of the prediction or of the lemma string
/// (see the module docs of [`super`]). The reference packs these into one
/// Python `int` with a different bit order. The AND test does not depend on
/// how positions are numbered, as long as the numbering is one-to-one.
///
/// Only the 64-bit words from the first to the last set position are stored
/// (`offset` is the index of the first), so a match in a megabyte-long
/// prediction costs its own length, not the prediction's. The representation
/// is canonical (no zero word at either end; the empty set has no words), so
/// equal sets compare and hash equal.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct SpanMask {
    offset: usize,
    words: Vec<u64>,
}

impl SpanMask {
    /// The empty set (`n_positions`, the size of the position space, needs
    /// no storage).
    #[must_use]
    pub fn new(n_positions: usize) -> Self {
        let _ = n_positions;
        Self::default()
    }

    /// The positions `start..end` (empty when `end <= start`).
    #[must_use]
    pub fn range(n_positions: usize, start: usize, end: usize) -> Self {
        let mut m = Self::new(n_positions);
        m.insert_range(start, end);
        m
    }

    /// Adds the positions `start..end`.
    pub fn insert_range(&mut self, start: usize, end: usize) {
        if end <= start {
            return;
        }
        let (first, last) = (start / 64, (end - 1) / 64);
        if self.words.is_empty() {
            self.offset = first;
        }
        if first < self.offset {
            let grow = self.offset - first;
            self.words.splice(0..0, std::iter::repeat_n(0, grow));
            self.offset = first;
        }
        if last >= self.offset + self.words.len() {
            self.words.resize(last + 1 - self.offset, 0);
        }
        for w in first..=last {
            let lo = if w == first { start % 64 } else { 0 };
            let hi = if w == last { (end - 1) % 64 } else { 63 };
            // Bits lo..=hi of this word.
            let bits = (u64::MAX >> (63 - hi)) & (u64::MAX << lo);
            self.words[w - self.offset] |= bits;
        }
    }

    /// Adds one position.
    pub fn insert(&mut self, pos: usize) {
        self.insert_range(pos, pos + 1);
    }

    /// The word holding positions `64 w .. 64 w + 64`.
    fn word(&self, w: usize) -> u64 {
        w.checked_sub(self.offset).and_then(|i| self.words.get(i)).copied().unwrap_or(0)
    }

    /// Whether `pos` is in the set.
    #[must_use]
    pub fn contains(&self, pos: usize) -> bool {
        (self.word(pos / 64) >> (pos % 64)) & 1 == 1
    }

    /// Whether the set is empty (a zero mask).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The number of positions in the set.
    #[must_use]
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The intersection (bitwise AND).
    #[must_use]
    pub fn and(&self, other: &Self) -> Self {
        let lo = self.offset.max(other.offset);
        let hi = (self.offset + self.words.len()).min(other.offset + other.words.len());
        let mut out = Self { offset: lo, words: (lo..hi.max(lo)).map(|w| self.word(w) & other.word(w)).collect() };
        out.trim();
        out
    }

    /// Whether the two sets share a position (a non-zero AND).
    #[must_use]
    pub fn intersects(&self, other: &Self) -> bool {
        let lo = self.offset.max(other.offset);
        let hi = (self.offset + self.words.len()).min(other.offset + other.words.len());
        (lo..hi).any(|w| self.word(w) & other.word(w) != 0)
    }

    /// Whether every position of `self` is in `other`.
    #[must_use]
    pub fn is_subset(&self, other: &Self) -> bool {
        self.words.iter().enumerate().all(|(i, &a)| a & !other.word(self.offset + i) == 0)
    }

    /// Drops zero words at both ends (the canonical form).
    fn trim(&mut self) {
        let Some(first) = self.words.iter().position(|&w| w != 0) else {
            *self = Self::default();
            return;
        };
        let last = self.words.iter().rposition(|&w| w != 0).unwrap_or(first);
        self.words.truncate(last + 1);
        self.words.drain(..first);
        self.offset += first;
    }
}

/// Adds `x` to an antichain of minimal sets: drops it when a subset of it is
/// already there, otherwise removes the supersets of it and keeps it.
fn push_minimal(frontier: &mut Vec<SpanMask>, x: SpanMask) {
    if frontier.iter().any(|y| y.is_subset(&x)) {
        return;
    }
    frontier.retain(|y| !x.is_subset(y));
    frontier.push(x);
}

/// The reference's result for the given masks, one list per term. A term
/// with an empty list has no match and takes no part. The result is 0, 1 or
/// the number of terms with a match (see the module docs).
#[must_use]
pub fn matched_terms(masks_per_term: &[Vec<SpanMask>]) -> usize {
    let mut present: Vec<&[SpanMask]> = masks_per_term.iter().filter(|m| !m.is_empty()).map(Vec::as_slice).collect();
    let k = present.len();
    if k <= 1 {
        return k;
    }
    if present.iter().any(|ms| ms.iter().any(SpanMask::is_empty)) {
        return k;
    }
    // The order of the terms does not change whether a zero AND exists; the
    // terms with the fewest masks first keep the frontier small.
    present.sort_by_key(|ms| ms.len());
    let mut frontier = Vec::new();
    for m in present[0] {
        push_minimal(&mut frontier, m.clone());
    }
    let (last, middle) = present[1..].split_last().unwrap_or((&present[0], &[]));
    for ms in middle {
        let mut next = Vec::with_capacity(frontier.len());
        for a in &frontier {
            for m in *ms {
                let x = a.and(m);
                if x.is_empty() {
                    return k;
                }
                push_minimal(&mut next, x);
            }
        }
        frontier = next;
    }
    // The last term only needs one disjoint pair; no frontier is built
    // (building it is quadratic in the number of mask pairs).
    if frontier.iter().any(|a| last.iter().any(|m| !a.intersects(m))) {
        return k;
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iv(n: usize, s: usize, e: usize) -> SpanMask {
        SpanMask::range(n, s, e)
    }

    #[test]
    fn ranges_across_words() {
        let m = iv(200, 60, 130);
        assert_eq!(m.count(), 70);
        assert!(m.contains(60) && m.contains(129) && !m.contains(59) && !m.contains(130));
        assert!(iv(200, 64, 128).is_subset(&m));
        assert!(!m.is_subset(&iv(200, 64, 128)));
        assert!(iv(200, 0, 64).and(&iv(200, 64, 65)).is_empty());
        assert!(iv(10, 3, 3).is_empty());
    }

    #[test]
    fn sparse_storage_is_canonical() {
        // Far-apart ranges, built in either order, are the same set.
        let mut a = iv(1 << 20, 900_000, 900_010);
        a.insert_range(10, 20);
        let mut b = iv(1 << 20, 10, 20);
        b.insert_range(900_000, 900_010);
        assert_eq!(a, b);
        assert_eq!(a.count(), 20);
        // A far match stores only its own words.
        assert_eq!(iv(1 << 20, 900_000, 900_010).words.len(), 1);
        // AND trims: the common part of two sets is stored canonically.
        let c = a.and(&iv(1 << 20, 15, 900_005));
        assert_eq!(c.count(), 10);
        let mut d = iv(0, 15, 20);
        d.insert_range(900_000, 900_005);
        assert_eq!(c, d);
        assert!(a.and(&iv(1 << 20, 500, 600)).is_empty());
        assert_eq!(a.and(&iv(1 << 20, 500, 600)), SpanMask::new(0));
        assert!(d.is_subset(&a) && !a.is_subset(&d));
    }

    #[test]
    fn many_overlapping_masks_on_the_last_term() {
        // Every mask holds its own position plus a shared block (as lemma
        // regions do), so no choice has a zero AND: the answer is 1, found
        // from the pairs alone (a frontier of 1,500² ANDs was a fuzz timeout).
        let masks: Vec<SpanMask> = (0..1500)
            .map(|i| {
                let mut m = iv(5000, 4000, 4010);
                m.insert(i);
                m
            })
            .collect();
        assert_eq!(matched_terms(&[masks.clone(), masks.clone()]), 1);
        // One disjoint mask anywhere in the last term gives K.
        let mut last = masks.clone();
        last.push(iv(5000, 4990, 4991));
        assert_eq!(matched_terms(&[masks.clone(), masks, last]), 3);
        assert!(iv(100, 10, 20).intersects(&iv(100, 19, 30)) && !iv(100, 10, 20).intersects(&iv(100, 20, 30)));
    }

    #[test]
    fn zero_one_k_rule() {
        // "a b" with [[a],[a],[a],[b]] → 4.
        let a = iv(3, 0, 1);
        let b = iv(3, 2, 3);
        assert_eq!(matched_terms(&[vec![a.clone()], vec![a.clone()], vec![a.clone()], vec![b]]), 4);
        // "New York" with [[new york],[york]] → 1.
        assert_eq!(matched_terms(&[vec![iv(8, 0, 8)], vec![iv(8, 4, 8)]]), 1);
        // No term matched, one term matched.
        assert_eq!(matched_terms(&[vec![], vec![]]), 0);
        assert_eq!(matched_terms(&[vec![], vec![a.clone(), a.clone()]]), 1);
        // A zero mask makes every combination collision-free.
        assert_eq!(matched_terms(&[vec![SpanMask::new(3)], vec![a.clone()], vec![a]]), 3);
    }

    #[test]
    fn and_of_all_not_pairwise() {
        // Three masks that pairwise overlap but have an empty common part.
        let x = SpanMask::range(3, 0, 2);
        let y = SpanMask::range(3, 1, 3);
        let mut z = SpanMask::new(3);
        z.insert(0);
        z.insert(2);
        assert_eq!(matched_terms(&[vec![x.clone()], vec![y.clone()]]), 1);
        assert_eq!(matched_terms(&[vec![x], vec![y], vec![z]]), 3);
    }

    #[test]
    fn many_terms_are_fast() {
        let n = 5000;
        let terms: Vec<Vec<SpanMask>> = (0..1000).map(|i| (0..8).map(|j| iv(n, i + j, n - j)).collect()).collect();
        assert_eq!(matched_terms(&terms), 1);
        let mut more = terms.clone();
        more.push(vec![iv(n, 2000, 2001)]);
        assert_eq!(matched_terms(&more), 1);
        more.push(vec![iv(n, 0, 1)]);
        assert_eq!(matched_terms(&more), 1002);
        // Only the choice j = 0 for every term keeps position n - 1.
        let mut last = terms;
        last.push(vec![iv(n, n - 1, n)]);
        assert_eq!(matched_terms(&last), 1001);
    }
}
